// DirectDraw Surface (.dds) decoder: top mip level of 2D textures (the first face of a cube map) and of the six faces
// of a cube map (dds_cube.h).
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
#include "texture/dds_cube.h"
#include "texture/texture.h"

#include <algorithm>
#include <cstring>

namespace rs {

namespace {

constexpr uint32_t kPfAlphaPixels = 0x1, kPfAlpha = 0x2, kPfFourCC = 0x4, kPfPalette8 = 0x20, kPfRgb = 0x40,
                   kPfYuv = 0x200, kPfLuminance = 0x20000;
constexpr uint32_t kCaps2Cube = 0x200, kCaps2Volume = 0x200000, kCaps2AllFaces = 0xFC00;

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

// Colour block (8 bytes) into the rgb (and, for DXT1, alpha) of 16 RGBA texels; dxt1 enables the 3-colour +
// transparent mode.
void colorBlock(const uint8_t* b, bool dxt1, uint8_t out[64]) {
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
        std::memcpy(out + 4 * i, &pal[(bits >> (2 * i)) & 3], 4);
}

// One 4x4 block (kind 1: 8 bytes, 3 and 5: 16 bytes) into 16 RGBA texels, row by row.
void decodeBlock(const uint8_t* blk, int kind, uint8_t out[64]) {
    if (kind == 1) {
        colorBlock(blk, true, out);
        return;
    }
    colorBlock(blk + 8, false, out);
    if (kind == 3) {
        for (int i = 0; i < 16; ++i)
            out[4 * i + 3] = uint8_t(((blk[i / 2] >> ((i & 1) * 4)) & 15) * 17);
        return;
    }
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
        out[4 * i + 3] = uint8_t(pal[(bits >> (3 * i)) & 7]);
}

// A pixel-format mask's channel scaled to 0..255: (x * 255 + max / 2) / max with x = (v & mask) >> shift and
// max = mask >> shift; `empty` when the mask is empty. Shift, range and (for channels of up to 8 bits) the scaled
// values are worked out once per texture, not per pixel.
class Channel {
  public:
    Channel(uint32_t mask, uint8_t empty) : mask_(mask), empty_(empty) {
        if (!mask) return;
        while (!(mask & 1)) {
            mask >>= 1;
            ++shift_;
        }
        max_ = mask;
        if (max_ <= 255)
            for (uint64_t x = 0; x <= max_; ++x)
                lut_[x] = uint8_t((x * 255 + max_ / 2) / max_);
    }
    uint8_t operator()(uint32_t v) const {
        if (!mask_) return empty_;
        const uint64_t x = (v & mask_) >> shift_;
        return max_ <= 255 ? lut_[x] : uint8_t((x * 255 + max_ / 2) / max_);
    }

  private:
    uint32_t mask_;
    uint8_t empty_;
    int shift_ = 0;
    uint64_t max_ = 0;
    uint8_t lut_[256] = {};
};

// Uncompressed rows of B bytes a pixel (little-endian) into RGBA; returns the AND of the alpha bytes written.
template <int B>
uint8_t decodeRows(const uint8_t* data, uint64_t width, uint64_t height, const Channel (&ch)[4], uint8_t* out) {
    uint8_t alphaAnd = 255;
    const uint8_t* p = data;
    for (uint64_t i = 0, n = width * height; i < n; ++i, p += B, out += 4) {
        uint32_t v = p[0];
        if constexpr (B > 1) v |= uint32_t(p[1]) << 8;
        if constexpr (B > 2) v |= uint32_t(p[2]) << 16;
        if constexpr (B > 3) v |= uint32_t(p[3]) << 24;
        out[0] = ch[0](v), out[1] = ch[1](v), out[2] = ch[2](v), out[3] = ch[3](v);
        alphaAnd &= out[3];
    }
    return alphaAnd;
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
    uint64_t faceBytes = 0; // one face's whole mip chain: face f starts at 128 + f x faceBytes
    std::string format;
    uint32_t caps2 = 0;
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
    h.faceBytes = chain;
    h.caps2 = caps2;
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
        if (bits & (bits >> 1) & 0x55555555u) return true; // some texel's 2-bit index is 3 (transparent)
    }
    return false;
}

Image decodeTop(const Header& h, const uint8_t* data);

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
    return decodeTop(readHeader(bytes, name), bytes.data + 128);
}

bool isDdsCube(ByteSpan bytes) {
    return bytes.size >= 128 && std::memcmp(bytes.data, "DDS ", 4) == 0 && (u32at(bytes.data + 112) & kCaps2Cube);
}

CubeImage decodeDdsCube(ByteSpan bytes, const std::string& name) {
    const Header h = readHeader(bytes, name); // bounds: every face's chain fits in the file
    if (!(h.caps2 & kCaps2Cube)) throw ParseError(name, "DDS_HEADER.caps2", 112, "not a cube map (no CUBEMAP flag)");
    if ((h.caps2 & kCaps2AllFaces) != kCaps2AllFaces)
        throw ParseError(name, "DDS_HEADER.caps2", 112,
                         "cube map with " + std::to_string(h.faces) + " of its 6 faces (caps2 " + hex(h.caps2) +
                             "): a partial cube is not drawn");
    if (h.width != h.height)
        throw ParseError(name, "DDS_HEADER.width", 16,
                         "cube map faces of " + std::to_string(h.width) + "x" + std::to_string(h.height) +
                             " are not square");
    CubeImage c;
    for (size_t f = 0; f < 6; ++f)
        c.faces[f] = decodeTop(h, bytes.data + 128 + f * h.faceBytes);
    return c;
}

namespace {

// The top mip level at data (readHeader has checked that the bytes are there).
Image decodeTop(const Header& h, const uint8_t* data) {
    Image img;
    img.width = int(h.width);
    img.height = int(h.height);
    img.rgba.resize(size_t(h.width) * h.height * 4); // every pixel is written below
    uint8_t* out = img.rgba.data();
    const uint64_t W = h.width, H = h.height;
    uint8_t alphaAnd = 255; // AND of every alpha written: 255 exactly when the image is opaque
    if (h.kind) {
        const uint64_t bw = (W + 3) / 4, bh = (H + 3) / 4;
        const uint64_t blockBytes = h.kind == 1 ? 8 : 16;
        uint8_t tex[64];
        for (uint64_t by = 0; by < bh; ++by)
            for (uint64_t bx = 0; bx < bw; ++bx) {
                decodeBlock(data + (by * bw + bx) * blockBytes, h.kind, tex);
                const uint64_t x0 = bx * 4, y0 = by * 4;
                uint8_t* o = out + (y0 * W + x0) * 4;
                if (x0 + 4 <= W && y0 + 4 <= H) {
                    for (int r = 0; r < 4; ++r)
                        std::memcpy(o + r * W * 4, tex + 16 * r, 16);
                    for (int i = 0; i < 16; ++i)
                        alphaAnd &= tex[4 * i + 3];
                } else { // the right or bottom edge of an image whose size is not a multiple of 4
                    const uint64_t cols = std::min<uint64_t>(4, W - x0), rows = std::min<uint64_t>(4, H - y0);
                    for (uint64_t r = 0; r < rows; ++r) {
                        std::memcpy(o + r * W * 4, tex + 16 * r, cols * 4);
                        for (uint64_t c = 0; c < cols; ++c)
                            alphaAnd &= tex[16 * r + 4 * c + 3];
                    }
                }
            }
    } else {
        const bool lum = h.pfFlags & kPfLuminance;
        const Channel l(h.rm ? h.rm : 0xFF, 0);
        const Channel ch[4] = {lum ? l : Channel(h.rm, 0), lum ? l : Channel(h.gm, 0), lum ? l : Channel(h.bm, 0),
                               Channel(h.am, 255)};
        switch (h.bitCount / 8) {
        case 1:
            alphaAnd = decodeRows<1>(data, W, H, ch, out);
            break;
        case 2:
            alphaAnd = decodeRows<2>(data, W, H, ch, out);
            break;
        case 3:
            alphaAnd = decodeRows<3>(data, W, H, ch, out);
            break;
        default:
            alphaAnd = decodeRows<4>(data, W, H, ch, out);
            break;
        }
    }
    img.hasAlpha = alphaAnd != 255;
    return img;
}

} // namespace

} // namespace rs
