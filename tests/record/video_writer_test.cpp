// rigscope_record's VideoWriter: each container decoded back (FFmpeg's libraries, libwebp's demuxer), the frame
// count, size, timing and pixels of synthetic frames; the temporary file of a cancelled or failed recording.
#include "decode.h"
#include "palette.h"
#include "video_writer.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rs::record;
using rs::test::compareRgb;
using rs::test::decodeVideo;
using rs::test::TempDir;

namespace {

// Frame k of a moving picture: a smooth gradient background (many colours) with a red square travelling across
// it and a blue bar whose height changes; flat = a few flat colours only.
std::vector<uint8_t> frameRgba(int w, int h, int k, bool flat = false) {
    std::vector<uint8_t> px(size_t(w) * size_t(h) * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = &px[(size_t(y) * size_t(w) + size_t(x)) * 4];
            p[0] = flat ? 40 : uint8_t(x * 255 / (w - 1));
            p[1] = flat ? 60 : uint8_t(y * 255 / (h - 1));
            p[2] = flat ? 80 : uint8_t(128 + k * 4);
            p[3] = 255;
            const int sx = 4 + k * 5;
            if (x >= sx && x < sx + 16 && y >= 8 && y < 24) p[0] = 230, p[1] = 20, p[2] = 30;
            if (x >= w - 12 && y >= h - 4 - 3 * k) p[0] = 20, p[1] = 40, p[2] = 220;
        }
    return px;
}

std::vector<uint8_t> toRgb(const std::vector<uint8_t>& rgba) {
    std::vector<uint8_t> rgb(rgba.size() / 4 * 3);
    for (size_t i = 0; i < rgba.size() / 4; ++i)
        for (int c = 0; c < 3; ++c)
            rgb[i * 3 + size_t(c)] = rgba[i * 4 + size_t(c)];
    return rgb;
}

void record(const std::string& path, Container c, int w, int h, int fps, int frames, bool flat = false) {
    VideoWriter wr(path, VideoSpec{c, w, h, fps});
    for (int k = 0; k < frames; ++k) {
        const auto px = frameRgba(w, h, k, flat);
        wr.addFrame(px.data(), size_t(w) * 4);
    }
    REQUIRE(wr.finish());
}

struct FormatCase {
    const char* file;
    Container container;
    const char* codec;
    double minPsnr;    // every frame against its source
    double maxMeanAbs; // every frame against its source
    double timeSlack;  // seconds: GIF delays are in centiseconds, WebP's in milliseconds
};

// Tolerances, for these synthetic frames (a full-range 2D gradient under a saturated red square at odd positions):
// 4:2:0 chroma smears the square's edges, so H.264 at CRF 18 and VP9 at CRF 30 measure 31-34 dB, a mean error of
// 1.7-2.6 levels; the GIF (6-bit bins, median cut to 256 colours, ordered dithering) of ~6,000 gradient colours a
// mean error of 4.7-7.3 levels, never more than 52 (a dithered pixel takes a colour at most 64 levels from the
// nearest one; undithered it was 5-7 and 24); lossless WebP is exact. Times: WebM stores milliseconds, GIF
// centiseconds, WebP milliseconds.
const FormatCase kFormats[] = {
    {"a.mp4", Container::Mp4, "h264", 30.0, 3.0, 1e-6},
    {"a.webm", Container::WebM, "vp9", 30.0, 3.0, 0.001},
    {"a.gif", Container::Gif, "gif", 28.0, 8.0, 0.01},
    {"a.webp", Container::WebP, "webp", 1e9, 0.0, 0.001},
};

} // namespace

TEST_CASE("frame count is round(duration x fps) and at least one, frame k is at k / fps") {
    CHECK(frameCount(1.0, 30) == 30);
    CHECK(frameCount(2.5, 12) == 30);
    CHECK(frameCount(0.5, 25) == 13); // 12.5 rounds half away from zero
    CHECK(frameCount(0.49, 25) == 12);
    CHECK(frameCount(0.0, 30) == 1);
    CHECK(frameCount(-1.0, 30) == -1);
    CHECK(frameCount(1.0, 0) == -1);
    CHECK(frameTime(15, 30) == 0.5);
}

TEST_CASE("the container comes from the extension") {
    CHECK(containerOf("x/a.MP4") == Container::Mp4);
    CHECK(containerOf("a.webm") == Container::WebM);
    CHECK(containerOf("a.Gif") == Container::Gif);
    CHECK(containerOf("/t/a.webp") == Container::WebP);
    CHECK_FALSE(containerOf("a.png"));
    CHECK_FALSE(containerOf("a.mp4/b"));
    CHECK_FALSE(containerOf("mp4"));
}

TEST_CASE("each container decodes to the frames written, in order, at k / fps") {
    const int w = 96, h = 64, fps = 12, n = 12;
    for (const FormatCase& f : kFormats) {
        DYNAMIC_SECTION(f.file) {
            TempDir dir;
            const std::string out = (dir.path / f.file).string();
            record(out, f.container, w, h, fps, n);
            CHECK(dir.names() == std::vector<std::string>{f.file}); // no temporary file left
            const auto v = decodeVideo(out);
            REQUIRE(v.error.empty());
            CHECK(v.codec == f.codec);
            CHECK(v.width == w);
            CHECK(v.height == h);
            REQUIRE(v.frames.size() == size_t(n));
            for (int k = 0; k < n; ++k) {
                const auto src = toRgb(frameRgba(w, h, k));
                const auto d = compareRgb(v.frames[size_t(k)], src);
                INFO("frame " << k << ": PSNR " << d.psnr << " dB, mean abs " << d.meanAbs << ", max " << d.maxAbs);
                CHECK(d.psnr >= f.minPsnr);
                CHECK(d.meanAbs <= f.maxMeanAbs);
                if (f.container == Container::Gif) CHECK(d.maxAbs <= 64);
                CHECK(std::abs(v.times[size_t(k)] - double(k) / fps) <= f.timeSlack + 1e-9);
                // The neighbour frame is clearly worse: frames are not shifted or repeated.
                if (k + 1 < n)
                    CHECK(compareRgb(v.frames[size_t(k)], toRgb(frameRgba(w, h, k + 1))).meanAbs > d.meanAbs + 1.0);
            }
        }
    }
}

TEST_CASE("a GIF of at most 256 colours keeps them exactly (one palette for every frame)") {
    TempDir dir;
    const std::string out = (dir.path / "flat.gif").string();
    record(out, Container::Gif, 64, 48, 10, 6, true);
    const auto v = decodeVideo(out);
    REQUIRE(v.frames.size() == 6);
    for (int k = 0; k < 6; ++k)
        CHECK(compareRgb(v.frames[size_t(k)], toRgb(frameRgba(64, 48, k, true))).maxAbs == 0);
}

TEST_CASE("median cut keeps every colour of a small histogram and maps the rest to near colours") {
    ColourHistogram few;
    const uint8_t colours[] = {0, 0, 0, 255, 255, 255, 200, 10, 10, 10, 200, 10};
    few.add(colours, 4, 1, sizeof colours, 3);
    const Palette p = medianCutPalette(few);
    REQUIRE(p.colours.size() == 4);
    for (int i = 0; i < 4; ++i) {
        const auto& c = p.colours[p.indexOf(colours[i * 3], colours[i * 3 + 1], colours[i * 3 + 2])];
        CHECK((c == std::array<uint8_t, 3>{colours[i * 3], colours[i * 3 + 1], colours[i * 3 + 2]}));
    }
    ColourHistogram many; // 4096 colours of a gradient cube into 16
    std::vector<uint8_t> cube;
    for (int r = 0; r < 16; ++r)
        for (int g = 0; g < 16; ++g)
            for (int b = 0; b < 16; ++b)
                cube.insert(cube.end(), {uint8_t(r * 17), uint8_t(g * 17), uint8_t(b * 17)});
    many.add(cube.data(), 4096, 1, cube.size(), 3);
    const Palette q = medianCutPalette(many, 16);
    REQUIRE(q.colours.size() == 16);
    double err = 0.0;
    for (size_t i = 0; i < cube.size(); i += 3) {
        const auto& c = q.colours[q.indexOf(cube[i], cube[i + 1], cube[i + 2])];
        for (int ch = 0; ch < 3; ++ch)
            err += std::abs(int(c[size_t(ch)]) - int(cube[i + size_t(ch)]));
    }
    // 16 boxes of a 256-level cube: sides of ~102 levels, a mean error of a quarter side per channel at most.
    CHECK(err / double(cube.size()) < 30.0);
}

namespace {

// Mean absolute difference, per channel, between the 8x8 block means of two RGB images (w, h multiples of 8): the
// error of the colour an area shows, which banding raises and dithering lowers.
double blockMeanError(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int w, int h) {
    double err = 0.0;
    int blocks = 0;
    for (int by = 0; by < h; by += 8)
        for (int bx = 0; bx < w; bx += 8, ++blocks)
            for (int c = 0; c < 3; ++c) {
                double sa = 0.0, sb = 0.0;
                for (int y = by; y < by + 8; ++y)
                    for (int x = bx; x < bx + 8; ++x) {
                        sa += a[(size_t(y) * size_t(w) + size_t(x)) * 3 + size_t(c)];
                        sb += b[(size_t(y) * size_t(w) + size_t(x)) * 3 + size_t(c)];
                    }
                err += std::abs(sa - sb) / 64.0;
            }
    return err / (blocks * 3.0);
}

} // namespace

TEST_CASE("the Bayer matrix holds each threshold once") {
    std::vector<int> seen(64, 0);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            ++seen.at(size_t(bayer8(x, y)));
    CHECK(seen == std::vector<int>(64, 1));
    CHECK(bayer8(0, 0) == 0);
    CHECK(bayer8(1, 1) == 16);
    CHECK(bayer8(1, 0) == 32);
    CHECK(bayer8(8, 8) == bayer8(0, 0)); // tiles
}

TEST_CASE("a GIF dithers a gradient: area colours closer than without dithering, palette colours exact, stable") {
    // A smooth 2D gradient of 65,536 colours (about 4,000 histogram bins, so that each of the 256 palette colours
    // stands for an area of some 16 x 16 pixels: bands), in two identical frames.
    const int w = 256, h = 256;
    std::vector<uint8_t> px(size_t(w) * size_t(h) * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = &px[(size_t(y) * size_t(w) + size_t(x)) * 4];
            p[0] = uint8_t(x);
            p[1] = uint8_t(y);
            p[2] = uint8_t(96 + (x + y) / 16);
            p[3] = 255;
        }
    TempDir dir;
    const std::string out = (dir.path / "gradient.gif").string();
    {
        VideoWriter wr(out, VideoSpec{Container::Gif, w, h, 10});
        wr.addFrame(px.data(), size_t(w) * 4);
        wr.addFrame(px.data(), size_t(w) * 4);
        REQUIRE(wr.finish());
    }
    const auto v = decodeVideo(out);
    REQUIRE(v.frames.size() == 2);
    const auto src = toRgb(px);
    // The same palette the writer made (one histogram of both frames), mapped without dithering.
    ColourHistogram hist;
    hist.add(px.data(), w, h, size_t(w) * 4, 4);
    hist.add(px.data(), w, h, size_t(w) * 4, 4);
    const Palette pal = medianCutPalette(hist);
    std::vector<uint8_t> banded(src.size()), dithered(src.size());
    for (size_t i = 0; i < src.size(); i += 3) {
        const int x = int(i / 3) % w, y = int(i / 3) / w;
        const auto& c = pal.colours[pal.indexOf(src[i], src[i + 1], src[i + 2])];
        const auto& d = pal.colours[pal.ditheredIndexOf(src[i], src[i + 1], src[i + 2], x, y)];
        for (int ch = 0; ch < 3; ++ch) {
            banded[i + size_t(ch)] = c[size_t(ch)];
            dithered[i + size_t(ch)] = d[size_t(ch)];
        }
    }
    // The file holds the dithered mapping, the same in both frames (the threshold depends on the position only).
    CHECK(compareRgb(v.frames[0], dithered).maxAbs == 0);
    CHECK(compareRgb(v.frames[1], v.frames[0]).maxAbs == 0);
    const double before = blockMeanError(banded, src, w, h), after = blockMeanError(v.frames[0], src, w, h);
    INFO("8x8 block mean error: without dithering " << before << ", dithered " << after << " levels");
    CHECK(after < before * 0.5);
    // Every palette colour, wherever it stands, maps to itself.
    for (size_t i = 0; i < pal.colours.size(); ++i)
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x) {
                const auto& c = pal.colours[i];
                REQUIRE(pal.colours[pal.ditheredIndexOf(c[0], c[1], c[2], x, y)] == c);
            }
}

TEST_CASE("a writer ended without finish leaves nothing, and an existing file is untouched") {
    for (const FormatCase& f : kFormats) {
        DYNAMIC_SECTION(f.file) {
            TempDir dir;
            const std::string out = (dir.path / f.file).string();
            std::ofstream(out) << "the user's old file";
            {
                VideoWriter wr(out, VideoSpec{f.container, 64, 48, 10});
                CHECK(fs::exists(wr.temporaryPath()));
                for (int k = 0; k < 3; ++k) {
                    const auto px = frameRgba(64, 48, k);
                    wr.addFrame(px.data(), 64 * 4);
                }
            } // destroyed: cancelled
            CHECK(dir.names() == std::vector<std::string>{f.file});
            std::ifstream in(out);
            std::string s;
            std::getline(in, s);
            CHECK(s == "the user's old file");
        }
    }
}

TEST_CASE("a GIF cancelled while mapping to its palette leaves nothing") {
    TempDir dir;
    const std::string out = (dir.path / "c.gif").string();
    VideoWriter wr(out, VideoSpec{Container::Gif, 64, 48, 10});
    for (int k = 0; k < 5; ++k) {
        const auto px = frameRgba(64, 48, k);
        wr.addFrame(px.data(), 64 * 4);
    }
    int calls = 0;
    CHECK_FALSE(wr.finish([&](int done, int total) {
        CHECK(total == 5);
        ++calls;
        return done < 2;
    }));
    CHECK(calls == 3);
    CHECK(dir.names().empty());
}

TEST_CASE("an unwritable destination or a bad size fails naming the file, writing nothing") {
    TempDir dir;
    const std::string notADir = (dir.path / "file").string();
    std::ofstream(notADir) << "x";
    CHECK_THROWS_WITH(VideoWriter(notADir + "/a.mp4", VideoSpec{Container::Mp4, 64, 48, 10}),
                      Catch::Contains(notADir + "/a.mp4") && Catch::Contains("cannot create"));
    CHECK_THROWS_WITH(VideoWriter((dir.path / "missing/a.webp").string(), VideoSpec{Container::WebP, 64, 48, 10}),
                      Catch::Contains("missing/a.webp"));
    CHECK_THROWS_WITH(VideoWriter((dir.path / "odd.mp4").string(), VideoSpec{Container::Mp4, 65, 48, 10}),
                      Catch::Contains("even"));
    CHECK_THROWS(VideoWriter((dir.path / "a.gif").string(), VideoSpec{Container::Gif, 8, 48, 10}));
    CHECK_THROWS(VideoWriter((dir.path / "a.gif").string(), VideoSpec{Container::Gif, 64, 48, 0}));
    CHECK(dir.names() == std::vector<std::string>{"file"});
}

TEST_CASE("a write that fails part-way (file size limit) throws and leaves nothing") {
    // RLIMIT_FSIZE makes every write past 2 KiB fail with EFBIG (SIGXFSZ ignored): a full disk, in effect.
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    getrlimit(RLIMIT_FSIZE, &old);
    for (const FormatCase& f : kFormats) {
        DYNAMIC_SECTION(f.file) {
            TempDir dir;
            const std::string out = (dir.path / f.file).string();
            rlimit lim = old;
            lim.rlim_cur = 2048;
            REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
            bool threw = false;
            try {
                VideoWriter wr(out, VideoSpec{f.container, 256, 256, 10});
                for (int k = 0; k < 20; ++k) {
                    const auto px = frameRgba(256, 256, k);
                    wr.addFrame(px.data(), 256 * 4);
                }
                wr.finish();
            } catch (const RecordError& e) {
                threw = true;
                CHECK_THAT(e.what(), Catch::Contains(f.file));
            }
            setrlimit(RLIMIT_FSIZE, &old);
            CHECK(threw);
            CHECK(dir.names().empty());
        }
    }
}
