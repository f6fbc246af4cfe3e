// Truevision TGA decoder (game files often lack the TGA 2.0 footer, so nothing here depends on it).
//
//   0  u8 idLength, u8 colorMapType (0 none, 1 present), u8 imageType (1/2/3 raw colour-mapped, true-colour,
//      grey; 9/10/11 the same run-length encoded)
//   3  colour map spec: u16 firstEntry, u16 length, u8 entryBits (15/16/24/32)
//   8  image spec: u16 xOrigin, u16 yOrigin, u16 width (12), u16 height (14), u8 bitsPerPixel (16),
//      u8 descriptor (17: bits 0-3 alpha bits, bit 4 right-to-left, bit 5 top-to-bottom)
//   18 image id (idLength bytes), colour map (length x ceil(entryBits/8) bytes), pixel data:
//      raw: width x height pixels of ceil(bitsPerPixel/8) bytes;
//      RLE: packets of u8 header (bit 7 run, count = low 7 bits + 1) + one pixel (run) or count pixels (raw).
#include "texture/texture.h"

#include <algorithm>
#include <cstring>

namespace rs {

namespace {

struct Header {
    int idLength = 0, cmapType = 0, type = 0, base = 0;
    bool rle = false;
    int cmapFirst = 0, cmapLength = 0, cmapBits = 0;
    int width = 0, height = 0, bpp = 0, desc = 0, pixelBytes = 0;
    size_t cmapPos = 0, dataPos = 0;
    std::string format;
};

Header readHeader(ByteSpan bytes, const std::string& name) {
    if (bytes.size < 18)
        throw ParseError(name, "TGA header", 0,
                         "header truncated: 18 bytes needed, " + std::to_string(bytes.size) + " present");
    const uint8_t* d = bytes.data;
    Header h;
    h.idLength = d[0];
    h.cmapType = d[1];
    h.type = d[2];
    h.cmapFirst = d[3] | d[4] << 8;
    h.cmapLength = d[5] | d[6] << 8;
    h.cmapBits = d[7];
    h.width = d[12] | d[13] << 8;
    h.height = d[14] | d[15] << 8;
    h.bpp = d[16];
    h.desc = d[17];
    h.base = h.type & 7;
    h.rle = h.type & 8;
    if (h.base < 1 || h.base > 3 || (h.type & ~0xB)) {
        // TGA has no magic: say what a misnamed file is when its first bytes tell (a SAGE map: RefPack "EAR\0"
        // or plain "CkMp" chunks).
        if (std::memcmp(d, "EAR", 4) == 0 || std::memcmp(d, "CkMp", 4) == 0)
            throw ParseError(name, "imageType", 2,
                             std::string("not a TGA image: a SAGE map (") +
                                 (d[0] == 'E' ? "EA RefPack-compressed, \"EAR\" magic" : "\"CkMp\" magic") +
                                 ") named .tga; unsupported image type " + std::to_string(h.type));
        throw ParseError(name, "imageType", 2, "unsupported image type " + std::to_string(h.type));
    }
    if (h.cmapType > 1) throw ParseError(name, "colorMapType", 1, "colour map type " + std::to_string(h.cmapType));
    if (h.width == 0 || h.width > kMaxTextureDim)
        throw ParseError(name, "width", 12,
                         "width " + std::to_string(h.width) + " outside 1.." + std::to_string(kMaxTextureDim));
    if (h.height == 0 || h.height > kMaxTextureDim)
        throw ParseError(name, "height", 14,
                         "height " + std::to_string(h.height) + " outside 1.." + std::to_string(kMaxTextureDim));
    const bool depthOk = (h.base == 2 && (h.bpp == 15 || h.bpp == 16 || h.bpp == 24 || h.bpp == 32)) ||
                         (h.base == 1 && (h.bpp == 8 || h.bpp == 16)) || (h.base == 3 && (h.bpp == 8 || h.bpp == 16));
    if (!depthOk)
        throw ParseError(name, "bitsPerPixel", 16,
                         "unsupported depth " + std::to_string(h.bpp) + " for image type " + std::to_string(h.type));
    h.pixelBytes = (h.bpp + 7) / 8;
    h.cmapPos = 18 + size_t(h.idLength);
    if (h.cmapPos > bytes.size)
        throw ParseError(name, "image id", 18,
                         "image id of " + std::to_string(h.idLength) + " bytes runs past the end of the file");
    size_t pos = h.cmapPos;
    if (h.cmapType == 1) {
        if (h.cmapBits != 15 && h.cmapBits != 16 && h.cmapBits != 24 && h.cmapBits != 32)
            throw ParseError(name, "colour map entryBits", 7,
                             "unsupported colour map depth " + std::to_string(h.cmapBits));
        const size_t mapBytes = size_t(h.cmapLength) * size_t((h.cmapBits + 7) / 8);
        if (mapBytes > bytes.size - pos)
            throw ParseError(name, "colour map", pos,
                             "colour map of " + std::to_string(h.cmapLength) + " entries needs " +
                                 std::to_string(mapBytes) + " bytes, " + std::to_string(bytes.size - pos) + " left");
        pos += mapBytes;
    } else if (h.base == 1) {
        throw ParseError(name, "colorMapType", 1, "colour-mapped image without a colour map");
    }
    h.dataPos = pos;
    // Pixels the data can yield: raw, one per pixelBytes; RLE, at most 128 per packet of 1 + pixelBytes bytes.
    const uint64_t left = bytes.size - pos;
    const uint64_t total = uint64_t(h.width) * uint64_t(h.height);
    const uint64_t most = h.rle ? left / uint64_t(1 + h.pixelBytes) * 128 : left / uint64_t(h.pixelBytes);
    if (total > most)
        throw ParseError(name, h.rle ? "RLE pixel data" : "pixel data", pos,
                         "pixel data truncated: " + std::to_string(h.width) + "x" + std::to_string(h.height) +
                             " needs " + std::to_string(total) + " pixels; the " + std::to_string(left) +
                             " bytes left hold at most " + std::to_string(most));
    static const char* const kinds[] = {"", "mapped", "truecolour", "grey"};
    h.format = std::string("TGA-") + kinds[h.base] + std::to_string(h.bpp) + (h.rle ? "-RLE" : "");
    return h;
}

struct Rgba {
    uint8_t r, g, b, a;
};

} // namespace

TextureInfo probeTga(ByteSpan bytes, const std::string& name) {
    const Header h = readHeader(bytes, name);
    TextureInfo info;
    info.format = h.format;
    info.width = h.width;
    info.height = h.height;
    info.mipCount = 1;
    const bool alphaBits = (h.desc & 15) != 0;
    if (h.base == 2)
        info.hasAlpha = alphaBits && (h.bpp == 32 || h.bpp == 16);
    else if (h.base == 3)
        info.hasAlpha = h.bpp == 16;
    else
        info.hasAlpha = alphaBits && (h.cmapBits == 32 || h.cmapBits == 16);
    return info;
}

Image decodeTga(ByteSpan bytes, const std::string& name) {
    const Header h = readHeader(bytes, name);
    const uint8_t* d = bytes.data;
    const size_t size = bytes.size;
    const bool alphaBits = (h.desc & 15) != 0;
    auto colour = [&](const uint8_t* p, int bits) -> Rgba {
        switch (bits) {
        case 15:
        case 16: {
            const int v = p[0] | p[1] << 8;
            const int r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
            const uint8_t a = (bits == 16 && alphaBits && !(v & 0x8000)) ? 0 : 255;
            return {uint8_t(r << 3 | r >> 2), uint8_t(g << 3 | g >> 2), uint8_t(b << 3 | b >> 2), a};
        }
        case 24:
            return {p[2], p[1], p[0], 255};
        default: // 32
            return {p[2], p[1], p[0], alphaBits ? p[3] : uint8_t(255)};
        }
    };
    std::vector<Rgba> palette;
    if (h.cmapType == 1) {
        const int eb = (h.cmapBits + 7) / 8;
        palette.reserve(size_t(h.cmapLength));
        for (int i = 0; i < h.cmapLength; ++i)
            palette.push_back(colour(d + h.cmapPos + size_t(i) * size_t(eb), h.cmapBits));
    }
    const int pb = h.pixelBytes;
    // Decodes the pixel at byte offset `at`.
    auto pixel = [&](size_t at) -> Rgba {
        const uint8_t* p = d + at;
        if (h.base == 1) {
            const long idx = long(pb == 2 ? (p[0] | p[1] << 8) : p[0]) - h.cmapFirst;
            if (idx < 0 || size_t(idx) >= palette.size())
                throw ParseError(name, "colour index", at,
                                 "colour index " + std::to_string(idx + h.cmapFirst) + " outside the colour map (" +
                                     std::to_string(h.cmapFirst) + ".." +
                                     std::to_string(h.cmapFirst + long(palette.size()) - 1) + ")");
            return palette[size_t(idx)];
        }
        if (h.base == 3) return h.bpp == 16 ? Rgba{p[0], p[0], p[0], p[1]} : Rgba{p[0], p[0], p[0], 255};
        return colour(p, h.bpp);
    };
    Image img;
    img.width = h.width;
    img.height = h.height;
    const uint64_t total = uint64_t(h.width) * uint64_t(h.height);
    img.rgba.resize(size_t(total) * 4); // every pixel is written below (or the decode throws)
    uint64_t n = 0;                     // pixels stored so far, in file order
    const uint64_t W = uint64_t(h.width);
    // Stores `count` pixels from file order position n on, one row span at a time (one division per span, not
    // per pixel); pixelAt(k) gives the k-th of them.
    auto putSpan = [&](uint64_t count, auto&& pixelAt) {
        uint64_t k = 0;
        while (k < count) {
            const uint64_t x0 = n % W, y0 = n / W;
            const uint64_t span = std::min(count - k, W - x0);
            const uint64_t y = (h.desc & 0x20) ? y0 : uint64_t(h.height) - 1 - y0;
            uint8_t* row = img.rgba.data() + y * W * 4;
            for (uint64_t i = 0; i < span; ++i) {
                const uint64_t x = (h.desc & 0x10) ? W - 1 - (x0 + i) : x0 + i;
                const Rgba c = pixelAt(k + i);
                uint8_t* o = row + x * 4;
                o[0] = c.r, o[1] = c.g, o[2] = c.b, o[3] = c.a;
            }
            k += span;
            n += span;
        }
    };
    size_t pos = h.dataPos;
    if (!h.rle) {
        putSpan(total, [&](uint64_t i) { return pixel(pos + size_t(i) * size_t(pb)); });
    } else {
        uint64_t packet = 0;
        while (n < total) {
            if (pos >= size)
                throw ParseError(name, "RLE packet " + std::to_string(packet), pos,
                                 "RLE data ends after " + std::to_string(n) + " of " + std::to_string(total) +
                                     " pixels");
            const size_t at = pos;
            const int hdr = d[pos++];
            const uint64_t count = std::min<uint64_t>(uint64_t(hdr & 0x7F) + 1, total - n);
            const uint64_t need = (hdr & 0x80) ? uint64_t(pb) : count * uint64_t(pb);
            if (need > size - pos)
                throw ParseError(name, "RLE packet " + std::to_string(packet), at,
                                 "packet needs " + std::to_string(need) + " bytes, " + std::to_string(size - pos) +
                                     " left");
            if (hdr & 0x80) {
                const Rgba c = pixel(pos);
                putSpan(count, [&](uint64_t) { return c; });
                pos += size_t(pb);
            } else {
                const size_t first = pos;
                putSpan(count, [&](uint64_t i) { return pixel(first + size_t(i) * size_t(pb)); });
                pos += size_t(count) * size_t(pb);
            }
            ++packet;
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
