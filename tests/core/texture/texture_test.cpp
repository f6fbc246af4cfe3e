// DDS and TGA decoders (core/texture): decoded pixels, the project's writers round-tripped, bounds checked
// before allocation (peak heap measured), refusals naming the field and offset, and every corpus texture.
#include "corpus.h"
#include "heap_meter.h"

#include "texture/dds_cube.h"
#include "texture/texture.h"
#include "texture/texture_writer.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace rs;

namespace {

std::vector<uint8_t> ddsHeader(int w, int h, const char* fourCC, uint32_t pfFlags = 0x4, uint32_t bits = 0,
                               uint32_t rm = 0, uint32_t gm = 0, uint32_t bm = 0, uint32_t am = 0) {
    std::vector<uint8_t> b(128, 0);
    auto put = [&](int off, uint32_t v) {
        for (int i = 0; i < 4; ++i)
            b[size_t(off + i)] = uint8_t(v >> (8 * i));
    };
    std::memcpy(b.data(), "DDS ", 4);
    put(4, 124);
    put(12, uint32_t(h));
    put(16, uint32_t(w));
    put(76, 32);
    put(80, pfFlags);
    if (fourCC) std::memcpy(&b[84], fourCC, 4);
    put(88, bits);
    put(92, rm);
    put(96, gm);
    put(100, bm);
    put(104, am);
    return b;
}

void append(std::vector<uint8_t>& b, std::initializer_list<uint8_t> v) { b.insert(b.end(), v.begin(), v.end()); }

std::array<int, 4> px(const Image& img, int x, int y) {
    const uint8_t* p = &img.rgba[(size_t(y) * size_t(img.width) + size_t(x)) * 4];
    return {p[0], p[1], p[2], p[3]};
}

// A test image with every channel varying and some transparency.
Image pattern(int w, int h, bool alpha) {
    Image img;
    img.width = w;
    img.height = h;
    img.rgba.resize(size_t(w) * size_t(h) * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = &img.rgba[(size_t(y) * size_t(w) + size_t(x)) * 4];
            p[0] = uint8_t(x * 37 + y);
            p[1] = uint8_t(y * 53);
            p[2] = uint8_t((x ^ y) * 11);
            p[3] = alpha ? uint8_t(x * 255 / std::max(1, w - 1)) : 255;
        }
    img.hasAlpha = alpha;
    return img;
}

// Runs fn expecting a ParseError; returns it.
template <class Fn> ParseError refusal(Fn&& fn) {
    try {
        fn();
    } catch (const ParseError& e) {
        return e;
    }
    FAIL("no ParseError");
    throw;
}

} // namespace

TEST_CASE("DXT1 block decodes to its palette, three-colour mode has transparent black", "[texture]") {
    std::vector<uint8_t> d = ddsHeader(4, 4, "DXT1");
    // c0 = red (0xF800) > c1 = blue (0x001F): 4-colour mode. Row 0: indices 0,1,2,3; other rows index 1.
    append(d, {0x00, 0xF8, 0x1F, 0x00, 0b11100100, 0x55, 0x55, 0x55});
    Image img = decodeDds(ByteSpan(d), "a.dds");
    REQUIRE(img.width == 4);
    CHECK(px(img, 0, 0) == std::array<int, 4>{255, 0, 0, 255});
    CHECK(px(img, 1, 0) == std::array<int, 4>{0, 0, 255, 255});
    CHECK(px(img, 2, 0) == std::array<int, 4>{170, 0, 85, 255});
    CHECK(px(img, 3, 0) == std::array<int, 4>{85, 0, 170, 255});
    CHECK(px(img, 2, 3) == std::array<int, 4>{0, 0, 255, 255});
    CHECK_FALSE(img.hasAlpha);
    CHECK_FALSE(probeDds(ByteSpan(d), "a.dds").hasAlpha);

    std::vector<uint8_t> t = ddsHeader(4, 4, "DXT1");
    append(t, {0x1F, 0x00, 0x00, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF}); // c0 < c1, all index 3
    img = decodeDds(ByteSpan(t), "t.dds");
    CHECK(px(img, 1, 1) == std::array<int, 4>{0, 0, 0, 0});
    CHECK(img.hasAlpha);
    const TextureInfo info = probeDds(ByteSpan(t), "t.dds");
    CHECK(info.hasAlpha);
    CHECK(info.format == "DXT1");
    CHECK(info.mipCount == 1);
}

TEST_CASE("DXT3 explicit and DXT5 interpolated alpha", "[texture]") {
    std::vector<uint8_t> d = ddsHeader(4, 4, "DXT5");
    // alpha0 = 255, alpha1 = 0 (8-value mode); pixel 0 index 0, pixel 1 index 1, pixel 2 index 2 (6/7*255).
    append(d, {255, 0, 0b10001000, 0, 0, 0, 0, 0, 0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0});
    Image img = decodeDds(ByteSpan(d), "a.dds");
    CHECK(px(img, 0, 0) == std::array<int, 4>{0, 255, 0, 255});
    CHECK(px(img, 1, 0)[3] == 0);
    CHECK(px(img, 2, 0)[3] == 218);
    CHECK(img.hasAlpha);

    std::vector<uint8_t> e = ddsHeader(4, 4, "DXT3");
    append(e, {0x21, 0xF3, 0, 0, 0, 0, 0, 0, 0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0}); // nibbles 1,2,3,15
    img = decodeDds(ByteSpan(e), "b.dds");
    CHECK(px(img, 0, 0)[3] == 17);
    CHECK(px(img, 1, 0)[3] == 34);
    CHECK(px(img, 2, 0)[3] == 51);
    CHECK(px(img, 3, 0)[3] == 255);
    CHECK(px(img, 0, 1)[3] == 0);
}

TEST_CASE("uncompressed DDS uses the channel masks", "[texture]") {
    std::vector<uint8_t> d = ddsHeader(2, 1, nullptr, 0x41, 32, 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000);
    append(d, {10, 20, 30, 40, 50, 60, 70, 80}); // BGRA little-endian
    Image img = decodeDds(ByteSpan(d), "a.dds");
    CHECK(px(img, 0, 0) == std::array<int, 4>{30, 20, 10, 40});
    CHECK(px(img, 1, 0) == std::array<int, 4>{70, 60, 50, 80});
    CHECK(probeDds(ByteSpan(d), "a.dds").format == "RGBA32");
    // R5G6B5: 0xF800 red, 0x07E0 green.
    std::vector<uint8_t> r = ddsHeader(2, 1, nullptr, 0x40, 16, 0xF800, 0x07E0, 0x001F);
    append(r, {0x00, 0xF8, 0xE0, 0x07});
    img = decodeDds(ByteSpan(r), "b.dds");
    CHECK(px(img, 0, 0) == std::array<int, 4>{255, 0, 0, 255});
    CHECK(px(img, 1, 0) == std::array<int, 4>{0, 255, 0, 255});
    CHECK(probeDds(ByteSpan(r), "b.dds").format == "RGB16");
    // Luminance 8.
    std::vector<uint8_t> l = ddsHeader(1, 1, nullptr, 0x20000, 8, 0xFF);
    append(l, {77});
    CHECK(px(decodeDds(ByteSpan(l), "c.dds"), 0, 0) == std::array<int, 4>{77, 77, 77, 255});
    // Luminance 16: a channel wider than 8 bits is scaled by (x * 255 + max / 2) / max.
    std::vector<uint8_t> w = ddsHeader(3, 1, nullptr, 0x20000, 16, 0xFFFF);
    append(w, {0x00, 0x80, 0xFF, 0xFF, 0x01, 0x01});
    img = decodeDds(ByteSpan(w), "d.dds");
    CHECK(px(img, 0, 0) == std::array<int, 4>{128, 128, 128, 255});
    CHECK(px(img, 1, 0) == std::array<int, 4>{255, 255, 255, 255});
    CHECK(px(img, 2, 0)[0] == 1); // 257 * 255 / 65535
    CHECK_FALSE(img.hasAlpha);
}

TEST_CASE("DXT blocks on the right and bottom edges are cut to the image; hidden texels do not count", "[texture]") {
    std::vector<uint8_t> d = ddsHeader(5, 3, "DXT1");
    append(d, {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0}); // block (0,0): c0 red > c1 blue, every texel index 0
    // Block (1,0): c0 blue < c1 red (three-colour mode); column 0 index 0, columns 1-3 index 3 (transparent),
    // which lie outside the 5-pixel width.
    append(d, {0x1F, 0x00, 0x00, 0xF8, 0xFC, 0xFC, 0xFC, 0xFC});
    const Image img = decodeDds(ByteSpan(d), "e.dds");
    REQUIRE(img.rgba.size() == 5 * 3 * 4);
    CHECK(px(img, 3, 2) == std::array<int, 4>{255, 0, 0, 255});
    CHECK(px(img, 4, 0) == std::array<int, 4>{0, 0, 255, 255});
    CHECK(px(img, 4, 2) == std::array<int, 4>{0, 0, 255, 255});
    CHECK_FALSE(img.hasAlpha);
}

TEST_CASE("DDS writer output round-trips with its mip chain", "[texture]") {
    const Image src = pattern(13, 7, true);
    const std::vector<uint8_t> f = writeDdsRgba(src, 4);
    const TextureInfo info = probeTexture(ByteSpan(f), "x.dds");
    CHECK(info.format == "RGBA32");
    CHECK(info.width == 13);
    CHECK(info.height == 7);
    CHECK(info.mipCount == 4);
    CHECK(info.hasAlpha);
    const Image img = decodeTexture(ByteSpan(f), "x.dds");
    CHECK(img.rgba == src.rgba);
    CHECK(img.hasAlpha);
    // One byte short of the last mip level: refused naming the data and its offset.
    const std::vector<uint8_t> cut(f.begin(), f.end() - 1);
    const ParseError e = refusal([&] { probeDds(ByteSpan(cut), "cut.dds"); });
    CHECK(e.file() == "cut.dds");
    CHECK(e.offset() == 128);
    CHECK(e.message().find("4 mip level(s)") != std::string::npos);
    // 5 levels claimed for 13x7 (at most 4: 13x7, 6x3, 3x1, 1x1).
    std::vector<uint8_t> many = f;
    many[28] = 5;
    const ParseError m = refusal([&] { decodeDds(ByteSpan(many), "many.dds"); });
    CHECK(m.chunkPath() == "DDS_HEADER.mipMapCount");
    CHECK(m.offset() == 28);
}

TEST_CASE("DDS cube maps: six faces decoded in file order; partial, non-square and truncated cubes refused",
          "[texture][hostile]") {
    // Face f: 4x4, every texel (40 f + x, 10 y, 255 - 30 f, 200 + f): each face and row tells where it came from.
    Image faces[6];
    for (int f = 0; f < 6; ++f) {
        faces[f].width = faces[f].height = 4;
        faces[f].rgba.resize(64);
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) {
                uint8_t* p = &faces[f].rgba[size_t(y * 4 + x) * 4];
                p[0] = uint8_t(40 * f + x), p[1] = uint8_t(10 * y), p[2] = uint8_t(255 - 30 * f),
                p[3] = uint8_t(200 + f);
            }
    }
    const std::vector<uint8_t> cube = writeDdsCubeRgba(faces);
    CHECK(cube.size() == 128 + 6 * 64);
    CHECK(isDdsCube(ByteSpan(cube)));
    const CubeImage c = decodeDdsCube(ByteSpan(cube), "sky.dds");
    for (int f = 0; f < 6; ++f) {
        INFO("face " << f);
        REQUIRE(c.faces[size_t(f)].width == 4);
        CHECK(std::vector<uint8_t>(c.faces[size_t(f)].rgba.begin(), c.faces[size_t(f)].rgba.end()) ==
              std::vector<uint8_t>(faces[f].rgba.begin(), faces[f].rgba.end()));
        CHECK(c.faces[size_t(f)].hasAlpha);
    }
    // The 2D decoder reads the first face, as before.
    const Image first = decodeDds(ByteSpan(cube), "sky.dds");
    CHECK(std::vector<uint8_t>(first.rgba.begin(), first.rgba.end()) ==
          std::vector<uint8_t>(faces[0].rgba.begin(), faces[0].rgba.end()));
    auto refusal = [](const std::vector<uint8_t>& b) {
        try {
            decodeDdsCube(ByteSpan(b), "sky.dds");
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string("not refused");
    };
    auto put = [](std::vector<uint8_t>& b, size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i)
            b[at + size_t(i)] = uint8_t(v >> (8 * i));
    };
    // Five faces (no -Z): refused by name; the bytes of five faces would fit.
    std::vector<uint8_t> partial = cube;
    put(partial, 112, 0x200 | 0x7C00);
    std::string e = refusal(partial);
    CHECK(e.find("sky.dds") != std::string::npos);
    CHECK(e.find("5 of its 6 faces") != std::string::npos);
    CHECK(e.find("112") != std::string::npos);
    // A 2D texture is not a cube.
    const std::vector<uint8_t> flat = writeDdsRgba(faces[0]);
    CHECK_FALSE(isDdsCube(ByteSpan(flat)));
    CHECK(refusal(flat).find("not a cube map") != std::string::npos);
    // Faces of 4x2 (width 4, height 2): not square.
    std::vector<uint8_t> wide = cube;
    put(wide, 12, 2);
    CHECK(refusal(wide).find("not square") != std::string::npos);
    // The last face cut short: the whole cube's size is checked before any face is decoded.
    std::vector<uint8_t> cut(cube.begin(), cube.end() - 1);
    e = refusal(cut);
    CHECK(e.find("x 6 faces needs 384 bytes, 383 present") != std::string::npos);
    // A huge declared cube in a small file: refused by its size, nothing allocated for it.
    std::vector<uint8_t> huge = cube;
    put(huge, 12, 16384);
    put(huge, 16, 16384);
    CHECK(refusal(huge).find("data truncated") != std::string::npos);
    CHECK_FALSE(isDdsCube(ByteSpan(std::vector<uint8_t>(cube.begin(), cube.begin() + 100))));
}

TEST_CASE("TGA writer output round-trips for every kind, raw and RLE, both orientations", "[texture]") {
    Image flat = pattern(37, 9, false);
    // Runs for RLE: make the middle row one colour.
    for (int x = 0; x < flat.width; ++x)
        std::memcpy(&flat.rgba[(size_t(4) * size_t(flat.width) + size_t(x)) * 4], &flat.rgba[4 * 37 * 4], 4);
    const Image alpha = pattern(37, 9, true);
    Image grey = flat;
    for (size_t i = 0; i < grey.rgba.size(); i += 4)
        grey.rgba[i + 1] = grey.rgba[i + 2] = grey.rgba[i];
    Image mapped = pattern(16, 16, false);
    for (size_t i = 0; i < mapped.rgba.size(); i += 4) {
        mapped.rgba[i] = uint8_t(i / 4 % 5 * 40);
        mapped.rgba[i + 1] = uint8_t(i / 4 % 3 * 90);
        mapped.rgba[i + 2] = 7;
    }
    struct Case {
        TgaKind kind;
        const Image* img;
        const char* format;
    };
    for (const Case& c : {Case{TgaKind::TrueColour24, &flat, "TGA-truecolour24"},
                          Case{TgaKind::TrueColour32, &alpha, "TGA-truecolour32"},
                          Case{TgaKind::Grey8, &grey, "TGA-grey8"}, Case{TgaKind::Mapped8, &mapped, "TGA-mapped8"}})
        for (bool rle : {false, true})
            for (bool top : {false, true}) {
                INFO(c.format << " rle " << rle << " topDown " << top);
                const std::vector<uint8_t> f = writeTga(*c.img, c.kind, rle, top);
                const TextureInfo info = probeTexture(ByteSpan(f), "x.TGA");
                CHECK(info.format == std::string(c.format) + (rle ? "-RLE" : ""));
                CHECK(info.width == c.img->width);
                CHECK(info.height == c.img->height);
                CHECK(info.mipCount == 1);
                CHECK(info.hasAlpha == (c.kind == TgaKind::TrueColour32));
                const Image img = decodeTexture(ByteSpan(f), "x.TGA");
                CHECK(img.rgba == c.img->rgba);
                if (rle && (c.img == &flat || c.img == &grey)) // they hold a one-colour row: runs
                    CHECK(f.size() < writeTga(*c.img, c.kind, false, top).size());
            }
}

TEST_CASE("TGA right-to-left and a colour index outside the map", "[texture]") {
    // 2x1 true-colour 24-bit, descriptor bit 4: the first stored pixel is the rightmost.
    std::vector<uint8_t> t(18, 0);
    t[2] = 2, t[12] = 2, t[14] = 1, t[16] = 24, t[17] = 0x10;
    append(t, {0, 0, 255, 255, 0, 0});
    const Image img = decodeTga(ByteSpan(t), "r.tga");
    CHECK(px(img, 1, 0) == std::array<int, 4>{255, 0, 0, 255});
    CHECK(px(img, 0, 0) == std::array<int, 4>{0, 0, 255, 255});
    // Colour-mapped, 2 entries, a pixel naming entry 5.
    std::vector<uint8_t> m(18, 0);
    m[1] = 1, m[2] = 1, m[5] = 2, m[7] = 24, m[12] = 2, m[14] = 1, m[16] = 8;
    append(m, {1, 2, 3, 4, 5, 6, 0, 5});
    const ParseError e = refusal([&] { decodeTga(ByteSpan(m), "m.tga"); });
    CHECK(e.offset() == 25);
    CHECK(e.message().find("colour index 5") != std::string::npos);
}

TEST_CASE("texture sizes are checked against the bytes present before allocating", "[texture][hostile]") {
    // 128-byte DDS claiming 16384 x 16384 DXT5 (the old decoder allocated 1 GiB for it).
    std::vector<uint8_t> big = ddsHeader(16384, 16384, "DXT5");
    int64_t peak = test::peakHeap([&] {
        const ParseError e = refusal([&] { decodeDds(ByteSpan(big), "big.dds"); });
        CHECK(e.chunkPath() == "DDS data");
        CHECK(e.offset() == 128);
    });
    CHECK(peak < 64 * 1024);
    // Above the maximum dimension.
    const ParseError w = refusal([&] { decodeDds(ByteSpan(ddsHeader(16385, 4, "DXT1")), "w.dds"); });
    CHECK(w.chunkPath() == "DDS_HEADER.width");
    CHECK(w.offset() == 16);
    const ParseError h = refusal([&] { decodeDds(ByteSpan(ddsHeader(4, 0, "DXT1")), "h.dds"); });
    CHECK(h.offset() == 12);
    const ParseError cc = refusal([&] { decodeDds(ByteSpan(ddsHeader(4, 4, "ATI2")), "c.dds"); });
    CHECK(cc.message().find("ATI2") != std::string::npos);
    CHECK(cc.offset() == 84);
    // A 32-byte TGA claiming 16384 x 16384 true-colour RLE (the old decoder asked for 17 GB at 65535^2).
    std::vector<uint8_t> t(32, 0);
    t[2] = 10, t[12] = 0x00, t[13] = 0x40, t[14] = 0x00, t[15] = 0x40, t[16] = 32;
    peak = test::peakHeap([&] {
        const ParseError e = refusal([&] { decodeTga(ByteSpan(t), "t.tga"); });
        CHECK(e.chunkPath() == "RLE pixel data");
        CHECK(e.offset() == 18);
    });
    CHECK(peak < 64 * 1024);
    t[13] = 0xFF, t[15] = 0xFF; // 65280: above the maximum dimension
    CHECK(refusal([&] { decodeTga(ByteSpan(t), "t.tga"); }).offset() == 12);
    // RLE expansion bound: 128 pixels per packet of 1 + pixelBytes bytes. 8-bit grey: 2 bytes -> 128 pixels.
    for (int extra : {0, 1}) {
        std::vector<uint8_t> g(18, 0);
        g[2] = 11, g[12] = 128, g[14] = uint8_t(2 + extra), g[16] = 8;
        append(g, {0xFF, 9, 0xFF, 9}); // two 128-pixel runs
        if (extra) {
            const ParseError e = refusal([&] { decodeTga(ByteSpan(g), "g.tga"); });
            CHECK(e.message().find("at most 256") != std::string::npos);
        } else {
            const Image img = decodeTga(ByteSpan(g), "g.tga");
            CHECK(px(img, 127, 1) == std::array<int, 4>{9, 9, 9, 255});
        }
    }
}

TEST_CASE("texture dispatch by magic and extension", "[texture]") {
    const std::vector<uint8_t> dds = writeDdsRgba(pattern(2, 2, false));
    CHECK(decodeTexture(ByteSpan(dds), "no_extension").width == 2);
    CHECK(isTexture(ByteSpan(dds), "x.bin"));
    const std::vector<uint8_t> junk(200, 0);
    CHECK_FALSE(isTexture(ByteSpan(junk), "x.png"));
    CHECK(refusal([&] { decodeTexture(ByteSpan(junk), "x.png"); }).file() == "x.png");
    CHECK(refusal([&] { decodeTexture(ByteSpan(junk), "x.DDS"); }).chunkPath() == "magic");
}

TEST_CASE("every corpus texture probes and decodes consistently", "[texture][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    int n = 0;
    for (const char* sub : {"alamo", "w3d", "bw2"})
        for (const std::string& path : test::corpusFiles(sub, {".dds", ".tga"})) {
            INFO(path);
            const std::vector<uint8_t> bytes = readFileBytes(path);
            const TextureInfo info = probeTexture(ByteSpan(bytes), path);
            const Image img = decodeTexture(ByteSpan(bytes), path);
            CHECK(img.width == info.width);
            CHECK(img.height == info.height);
            CHECK(img.rgba.size() == size_t(img.width) * size_t(img.height) * 4);
            CHECK(info.mipCount >= 1);
            if (img.hasAlpha) CHECK(info.hasAlpha);
            ++n;
        }
    CHECK(n >= 20);
}
