// DirectDraw Surface (.dds) decoder: top mip level of 2D textures and cube maps (first face).
//
//   0   "DDS "                      magic
//   4   DDS_HEADER (124 bytes)      4 size (124), 8 flags, 12 height, 16 width, 20 pitchOrLinearSize, 24 depth,
//                                   28 mipMapCount, 32 reserved[11],
//   76  DDS_PIXELFORMAT (32 bytes)  76 size (32), 80 flags (0x1 ALPHAPIXELS, 0x2 ALPHA, 0x4 FOURCC, 0x20 PALETTE8,
//                                   0x40 RGB, 0x200 YUV, 0x20000 LUMINANCE), 84 fourCC, 88 rgbBitCount,
//                                   92 rMask, 96 gMask, 100 bMask, 104 aMask
//   108 caps, 112 caps2 (0x200 CUBEMAP + 0x400..0x8000 faces, 0x200000 VOLUME), 116 caps3, 120 caps4, 124 reserved
//   128 data: for each face, mip levels largest first. DXT1: 8 bytes per 4x4 block; DXT2/3 and DXT4/5:
//       16 bytes per block; uncompressed: rows of width x rgbBitCount/8 bytes (masks give channels).
#include "texture/texture.h"

#include <algorithm>
#include <cstring>

namespace rs {

namespace {

constexpr uint32_t kPfAlphaPixels = 0x1, kPfAlpha = 0x2, kPfFourCC = 0x4, kPfPalette8 = 0x20, kPfRgb = 0x40,
                   kPfYuv = 0x200, kPfLuminance = 0x20000;
constexpr uint32_t kCaps2Cube = 0x200, kCaps2Volume = 0x200000;

uint32_t u32at(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint16_t u16at(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }

struct Rgba {
    uint8_t r = 0, g = 0, b = 0, a = 255;
};

Rgba rgb565(uint16_t c) {
    const int r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    return {uint8_t((r << 3) | (r >> 2)), uint8_t((g << 2) | (g >> 4)), uint8_t((b << 3) | (b >> 2)), 255};
}

// Colour block (8 bytes); dxt1 enables the 3-colour + transparent mode.
void colorBlock(const uint8_t* b, bool dxt1, Rgba out[16]) {
    const uint16_t c0 = u16at(b), c1 = u16at(b + 2);
    Rgba pal[4];
    pal[0] = rgb565(c0);
    pal[1] = rgb565(c1);
    auto mix = [](Rgba a, Rgba c, int wa, int wc, int div) {
        return Rgba{uint8_t((a.r * wa + c.r * wc) / div), uint8_t((a.g * wa + c.g * wc) / div),
                    uint8_t((a.b * wa + c.b * wc) / div), 255};
    };
    if (!dxt1 || c0 > c1) {
        pal[2] = mix(pal[0], pal[1], 2, 1, 3);
        pal[3] = mix(pal[0], pal[1], 1, 2, 3);
    } else {
        pal[2] = mix(pal[0], pal[1], 1, 1, 2);
        pal[3] = Rgba{0, 0, 0, 0};
    }
    const uint32_t bits = u32at(b + 4);
    for (int i = 0; i < 16; ++i)
        out[i] = pal[(bits >> (2 * i)) & 3];
}

int maskShift(uint32_t m) {
    int s = 0;
    while (m && !(m & 1)) {
        m >>= 1;
        ++s;
    }
    return s;
}

// Channel value scaled to 0..255; -1 when the mask is empty.
int channel(uint32_t v, uint32_t mask) {
    if (!mask) return -1;
    const int s = maskShift(mask);
    const uint64_t x = (v & mask) >> s;
    const uint64_t max = uint64_t(mask) >> s;
    return int((x * 255 + max / 2) / max);
}

std::string fourCCText(uint32_t cc) {
    std::string s;
    for (int i = 0; i < 4; ++i)
        s += char(cc >> (8 * i));
    return s;
}

// The header facts both decode and probe need, validated against the bytes present.
struct Header {
    uint32_t width = 0, height = 0, mipCount = 1, faces = 1;
    uint32_t pfFlags = 0, fourCC = 0, bitCount = 0, rm = 0, gm = 0, bm = 0, am = 0;
    int kind = 0; // 1 DXT1, 3 DXT2/3, 5 DXT4/5, 0 uncompressed
    uint64_t topBytes = 0;
    std::string format;
};

uint64_t levelBytes(const Header& h, uint32_t w, uint32_t ht) {
    if (h.kind) return uint64_t(std::max(1u, (w + 3) / 4)) * std::max(1u, (ht + 3) / 4) * (h.kind == 1 ? 8 : 16);
    return uint64_t(w) * ht * (h.bitCount / 8);
}

Header readHeader(ByteSpan bytes, const std::string& name) {
    if (bytes.size < 4 || std::memcmp(bytes.data, "DDS ", 4) != 0)
        throw ParseError(name, "magic", 0, "not a DDS file (no \"DDS \" magic)");
    if (bytes.size < 128)
        throw ParseError(name, "DDS_HEADER", 4,
                         "header truncated: 124 bytes needed, " + std::to_string(bytes.size - 4) + " present");
    const uint8_t* d = bytes.data;
    Header h;
    h.height = u32at(d + 12);
    h.width = u32at(d + 16);
    if (h.width == 0 || h.width > uint32_t(kMaxTextureDim))
        throw ParseError(name, "DDS_HEADER.width", 16,
                         "width " + std::to_string(h.width) + " outside 1.." + std::to_string(kMaxTextureDim));
    if (h.height == 0 || h.height > uint32_t(kMaxTextureDim))
        throw ParseError(name, "DDS_HEADER.height", 12,
                         "height " + std::to_string(h.height) + " outside 1.." + std::to_string(kMaxTextureDim));
    const uint32_t caps2 = u32at(d + 112);
    if (caps2 & kCaps2Volume) throw ParseError(name, "DDS_HEADER.caps2", 112, "volume textures are not supported");
    if (caps2 & kCaps2Cube) {
        h.faces = 0;
        for (uint32_t bit = 0x400; bit <= 0x8000; bit <<= 1)
            if (caps2 & bit) ++h.faces;
        if (h.faces == 0) throw ParseError(name, "DDS_HEADER.caps2", 112, "cube map with no faces");
    }
    h.pfFlags = u32at(d + 80);
    h.fourCC = u32at(d + 84);
    h.bitCount = u32at(d + 88);
    if (h.pfFlags & kPfFourCC) {
        const std::string cc = fourCCText(h.fourCC);
        if (cc == "DXT1")
            h.kind = 1;
        else if (cc == "DXT2" || cc == "DXT3")
            h.kind = 3;
        else if (cc == "DXT4" || cc == "DXT5")
            h.kind = 5;
        else if (cc == "DX10")
            throw ParseError(name, "DDS_PIXELFORMAT.fourCC", 84, "DX10 extended headers are not supported");
        else
            throw ParseError(name, "DDS_PIXELFORMAT.fourCC", 84, "unsupported compression '" + cc + "'");
        h.format = cc;
    } else {
        if (h.pfFlags & (kPfPalette8 | kPfYuv))
            throw ParseError(name, "DDS_PIXELFORMAT.flags", 80, "palette and YUV pixel formats are not supported");
        if (!(h.pfFlags & (kPfRgb | kPfLuminance | kPfAlpha)))
            throw ParseError(name, "DDS_PIXELFORMAT.flags", 80,
                             "pixel format flags " + hex(h.pfFlags) + " name no RGB, luminance or alpha data");
        if (h.bitCount != 8 && h.bitCount != 16 && h.bitCount != 24 && h.bitCount != 32)
            throw ParseError(name, "DDS_PIXELFORMAT.rgbBitCount", 88,
                             "unsupported bit count " + std::to_string(h.bitCount));
        h.rm = u32at(d + 92);
        h.gm = u32at(d + 96);
        h.bm = u32at(d + 100);
        h.am = (h.pfFlags & (kPfAlphaPixels | kPfAlpha)) ? u32at(d + 104) : 0;
        if (h.pfFlags & kPfLuminance)
            h.format = h.am ? "LA" : "L";
        else if (h.pfFlags & kPfRgb)
            h.format = h.am ? "RGBA" : "RGB";
        else
            h.format = "A";
        h.format += std::to_string(h.bitCount);
    }
    // Mip chain: mipMapCount (0 means 1) may not exceed the levels down to 1x1 and, over all faces, must fit
    // in the bytes after the header.
    const uint32_t declared = u32at(d + 28);
    uint32_t maxLevels = 1;
    for (uint32_t s = std::max(h.width, h.height); s > 1; s >>= 1)
        ++maxLevels;
    h.mipCount = declared == 0 ? 1 : declared;
    if (h.mipCount > maxLevels)
        throw ParseError(name, "DDS_HEADER.mipMapCount", 28,
                         std::to_string(h.mipCount) + " mip levels for " + std::to_string(h.width) + "x" +
                             std::to_string(h.height) + " (at most " + std::to_string(maxLevels) + ")");
    uint64_t chain = 0;
    uint32_t w = h.width, ht = h.height;
    for (uint32_t i = 0; i < h.mipCount; ++i) {
        chain += levelBytes(h, w, ht);
        w = std::max(1u, w / 2);
        ht = std::max(1u, ht / 2);
    }
    h.topBytes = levelBytes(h, h.width, h.height);
    const uint64_t avail = bytes.size - 128;
    if (chain * h.faces > avail)
        throw ParseError(name, "DDS data", 128,
                         "data truncated: " + std::to_string(h.width) + "x" + std::to_string(h.height) + " " +
                             h.format + " with " + std::to_string(h.mipCount) + " mip level(s)" +
                             (h.faces > 1 ? " x " + std::to_string(h.faces) + " faces" : std::string()) + " needs " +
                             std::to_string(chain * h.faces) + " bytes, " + std::to_string(avail) + " present");
    return h;
}

bool dxt1UsesTransparency(const uint8_t* data, uint64_t blocks) {
    for (uint64_t i = 0; i < blocks; ++i) {
        const uint8_t* b = data + i * 8;
        if (u16at(b) > u16at(b + 2)) continue;
        const uint32_t bits = u32at(b + 4);
        for (int k = 0; k < 16; ++k)
            if (((bits >> (2 * k)) & 3) == 3) return true;
    }
    return false;
}

} // namespace

TextureInfo probeDds(ByteSpan bytes, const std::string& name) {
    const Header h = readHeader(bytes, name);
    TextureInfo info;
    info.format = h.format;
    info.width = int(h.width);
    info.height = int(h.height);
    info.mipCount = int(h.mipCount);
    if (h.kind == 1)
        info.hasAlpha = dxt1UsesTransparency(bytes.data + 128, h.topBytes / 8);
    else
        info.hasAlpha = h.kind != 0 || h.am != 0;
    return info;
}

Image decodeDds(ByteSpan bytes, const std::string& name) {
    const Header h = readHeader(bytes, name);
    Image img;
    img.width = int(h.width);
    img.height = int(h.height);
    img.rgba.assign(size_t(h.width) * h.height * 4, 0);
    uint8_t* out = img.rgba.data();
    const uint8_t* data = bytes.data + 128;
    auto put = [&](uint64_t x, uint64_t y, Rgba c) {
        uint8_t* p = out + (y * h.width + x) * 4;
        p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = c.a;
    };
    if (h.kind) {
        const uint64_t bw = (h.width + 3) / 4, bh = (h.height + 3) / 4;
        const uint64_t blockBytes = h.kind == 1 ? 8 : 16;
        Rgba px[16];
        for (uint64_t by = 0; by < bh; ++by)
            for (uint64_t bx = 0; bx < bw; ++bx) {
                const uint8_t* blk = data + (by * bw + bx) * blockBytes;
                int alpha[16];
                std::fill(alpha, alpha + 16, 255);
                if (h.kind == 3) {
                    for (int i = 0; i < 16; ++i)
                        alpha[i] = ((blk[i / 2] >> ((i & 1) * 4)) & 15) * 17;
                    blk += 8;
                } else if (h.kind == 5) {
                    const int a0 = blk[0], a1 = blk[1];
                    int pal[8] = {a0, a1};
                    if (a0 > a1) {
                        for (int i = 2; i < 8; ++i)
                            pal[i] = ((8 - i) * a0 + (i - 1) * a1) / 7;
                    } else {
                        for (int i = 2; i < 6; ++i)
                            pal[i] = ((6 - i) * a0 + (i - 1) * a1) / 5;
                        pal[6] = 0;
                        pal[7] = 255;
                    }
                    uint64_t bits = 0;
                    for (int i = 0; i < 6; ++i)
                        bits |= uint64_t(blk[2 + i]) << (8 * i);
                    for (int i = 0; i < 16; ++i)
                        alpha[i] = pal[(bits >> (3 * i)) & 7];
                    blk += 8;
                }
                colorBlock(blk, h.kind == 1, px);
                for (int i = 0; i < 16; ++i) {
                    const uint64_t x = bx * 4 + (i & 3), y = by * 4 + (i >> 2);
                    if (x >= h.width || y >= h.height) continue;
                    Rgba c = px[i];
                    if (h.kind != 1) c.a = uint8_t(alpha[i]);
                    put(x, y, c);
                }
            }
    } else {
        const uint64_t bpp = h.bitCount / 8;
        const uint64_t pitch = uint64_t(h.width) * bpp;
        const bool lum = h.pfFlags & kPfLuminance;
        for (uint64_t y = 0; y < h.height; ++y) {
            const uint8_t* row = data + y * pitch;
            for (uint64_t x = 0; x < h.width; ++x) {
                uint32_t v = 0;
                for (uint64_t k = 0; k < bpp; ++k)
                    v |= uint32_t(row[x * bpp + k]) << (8 * k);
                const int a = h.am ? channel(v, h.am) : 255;
                if (lum) {
                    const int l = channel(v, h.rm ? h.rm : 0xFF);
                    put(x, y, Rgba{uint8_t(l), uint8_t(l), uint8_t(l), uint8_t(a)});
                } else {
                    const int r = channel(v, h.rm), g = channel(v, h.gm), b = channel(v, h.bm);
                    put(x, y,
                        Rgba{uint8_t(std::max(r, 0)), uint8_t(std::max(g, 0)), uint8_t(std::max(b, 0)), uint8_t(a)});
                }
            }
        }
    }
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        if (img.rgba[i] != 255) {
            img.hasAlpha = true;
            break;
        }
    return img;
}

} // namespace rs
