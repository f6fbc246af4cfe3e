#include "texture/texture_writer.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rs {

namespace {

void ddsHeader(ByteWriter& w, int width, int height, int mipCount, uint32_t pfFlags, const char* fourCC, uint32_t bits,
               uint32_t rm, uint32_t gm, uint32_t bm, uint32_t am) {
    w.bytes("DDS ", 4);
    w.u32le(124);
    w.u32le(0x1 | 0x2 | 0x4 | 0x1000 | (mipCount > 1 ? 0x20000 : 0)); // CAPS HEIGHT WIDTH PIXELFORMAT MIPMAPCOUNT
    w.u32le(uint32_t(height));
    w.u32le(uint32_t(width));
    w.u32le(0);
    w.u32le(0);
    w.u32le(uint32_t(mipCount));
    w.zeros(44);
    w.u32le(32);
    w.u32le(pfFlags);
    if (fourCC)
        w.bytes(fourCC, 4);
    else
        w.u32le(0);
    w.u32le(bits);
    w.u32le(rm);
    w.u32le(gm);
    w.u32le(bm);
    w.u32le(am);
    w.u32le(0x1000 | (mipCount > 1 ? 0x400008 : 0)); // TEXTURE (+ COMPLEX | MIPMAP)
    w.zeros(16);
}

Image halve(const Image& a) {
    Image b;
    b.width = std::max(1, a.width / 2);
    b.height = std::max(1, a.height / 2);
    b.rgba.resize(size_t(b.width) * size_t(b.height) * 4);
    for (int y = 0; y < b.height; ++y)
        for (int x = 0; x < b.width; ++x)
            for (int c = 0; c < 4; ++c) {
                int sum = 0;
                for (int k = 0; k < 4; ++k) {
                    const int sx = std::min(a.width - 1, x * 2 + (k & 1)), sy = std::min(a.height - 1, y * 2 + k / 2);
                    sum += a.rgba[(size_t(sy) * size_t(a.width) + size_t(sx)) * 4 + size_t(c)];
                }
                b.rgba[(size_t(y) * size_t(b.width) + size_t(x)) * 4 + size_t(c)] = uint8_t((sum + 2) / 4);
            }
    return b;
}

} // namespace

std::vector<uint8_t> writeDdsRgba(const Image& img, int mipCount) {
    ByteWriter w;
    ddsHeader(w, img.width, img.height, mipCount, 0x41, nullptr, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000);
    Image level = img;
    for (int m = 0; m < mipCount; ++m) {
        for (size_t i = 0; i + 3 < level.rgba.size(); i += 4) {
            const uint8_t* p = &level.rgba[i];
            const uint8_t bgra[4] = {p[2], p[1], p[0], p[3]};
            w.bytes(bgra, 4);
        }
        if (m + 1 < mipCount) level = halve(level);
    }
    return std::move(w.buf);
}

std::vector<uint8_t> writeDdsCubeRgba(const Image (&faces)[6]) {
    for (const Image& f : faces)
        if (f.width != faces[0].width || f.height != faces[0].height || f.width != f.height ||
            f.rgba.size() != size_t(f.width) * size_t(f.height) * 4)
            throw std::invalid_argument("writeDdsCubeRgba: six square faces of one size");
    ByteWriter w;
    ddsHeader(w, faces[0].width, faces[0].height, 1, 0x41, nullptr, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000);
    std::vector<uint8_t> out = std::move(w.buf);
    auto put = [&](size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i)
            out[at + size_t(i)] = uint8_t(v >> (8 * i));
    };
    put(108, 0x1000 | 0x8);   // TEXTURE | COMPLEX
    put(112, 0x200 | 0xFC00); // CUBEMAP and its six faces
    for (const Image& f : faces)
        for (size_t i = 0; i + 3 < f.rgba.size(); i += 4) {
            const uint8_t* p = &f.rgba[i];
            out.insert(out.end(), {p[2], p[1], p[0], p[3]});
        }
    return out;
}

std::vector<uint8_t> writeDdsBlocks(int width, int height, const std::string& fourCC, int mipCount,
                                    const std::vector<uint8_t>& blocks) {
    ByteWriter w;
    ddsHeader(w, width, height, mipCount, 0x4, fourCC.c_str(), 0, 0, 0, 0, 0);
    w.bytes(blocks.data(), blocks.size());
    return std::move(w.buf);
}

std::vector<uint8_t> writeTga(const Image& img, TgaKind kind, bool rle, bool topDown) {
    const size_t n = size_t(img.width) * size_t(img.height);
    // Pixels in file order (rows top first when topDown, else bottom first), each as its stored bytes.
    std::vector<std::vector<uint8_t>> px;
    px.reserve(n);
    std::map<uint32_t, uint8_t> index;
    std::vector<uint32_t> colours;
    for (int fy = 0; fy < img.height; ++fy) {
        const int y = topDown ? fy : img.height - 1 - fy;
        for (int x = 0; x < img.width; ++x) {
            const uint8_t* p = &img.rgba[(size_t(y) * size_t(img.width) + size_t(x)) * 4];
            switch (kind) {
            case TgaKind::TrueColour24:
                px.push_back({p[2], p[1], p[0]});
                break;
            case TgaKind::TrueColour32:
                px.push_back({p[2], p[1], p[0], p[3]});
                break;
            case TgaKind::Grey8:
                px.push_back({p[0]});
                break;
            case TgaKind::Mapped8: {
                const uint32_t c = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16;
                auto it = index.find(c);
                if (it == index.end()) {
                    if (colours.size() == 256) throw std::invalid_argument("writeTga: more than 256 colours");
                    it = index.emplace(c, uint8_t(colours.size())).first;
                    colours.push_back(c);
                }
                px.push_back({it->second});
                break;
            }
            }
        }
    }
    const int base = kind == TgaKind::Mapped8 ? 1 : kind == TgaKind::Grey8 ? 3 : 2;
    const int bpp = kind == TgaKind::TrueColour24 ? 24 : kind == TgaKind::TrueColour32 ? 32 : 8;
    ByteWriter w;
    w.u8(0);
    w.u8(kind == TgaKind::Mapped8 ? 1 : 0);
    w.u8(uint8_t(base | (rle ? 8 : 0)));
    w.u16le(0);
    w.u16le(uint16_t(colours.size()));
    w.u8(kind == TgaKind::Mapped8 ? 24 : 0);
    w.u16le(0);
    w.u16le(0);
    w.u16le(uint16_t(img.width));
    w.u16le(uint16_t(img.height));
    w.u8(uint8_t(bpp));
    w.u8(uint8_t((kind == TgaKind::TrueColour32 ? 8 : 0) | (topDown ? 0x20 : 0)));
    for (uint32_t c : colours) {
        const uint8_t bgr[3] = {uint8_t(c >> 16), uint8_t(c >> 8), uint8_t(c)};
        w.bytes(bgr, 3);
    }
    if (!rle) {
        for (const auto& p : px)
            w.bytes(p.data(), p.size());
        return std::move(w.buf);
    }
    // Runs of equal pixels become run packets; anything else raw packets (both at most 128 pixels).
    size_t i = 0;
    while (i < n) {
        size_t run = 1;
        while (i + run < n && run < 128 && px[i + run] == px[i])
            ++run;
        if (run >= 2) {
            w.u8(uint8_t(0x80 | (run - 1)));
            w.bytes(px[i].data(), px[i].size());
            i += run;
            continue;
        }
        size_t raw = 1;
        while (i + raw < n && raw < 128 && !(i + raw + 1 < n && px[i + raw] == px[i + raw + 1]))
            ++raw;
        w.u8(uint8_t(raw - 1));
        for (size_t k = 0; k < raw; ++k)
            w.bytes(px[i + k].data(), px[i + k].size());
        i += raw;
    }
    return std::move(w.buf);
}

} // namespace rs
