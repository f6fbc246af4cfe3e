// Decoding of recorded files for the record tests: FFmpeg's libraries for .mp4, .webm and .gif, libwebp's demuxer
// for animated .webp. Frames come back as RGB (3 bytes a pixel, rows packed), converted with the colour matrix and
// range the file is tagged with.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <stdlib.h>

namespace rs::test {

struct DecodedVideo {
    std::string codec; // FFmpeg's codec name ("h264", "vp9", "gif") or "webp"
    int width = 0, height = 0;
    std::vector<std::vector<uint8_t>> frames; // RGB
    std::vector<double> times;                // presentation time of each frame, seconds
    std::string error;                        // non-empty: decoding failed
};

DecodedVideo decodeVideo(const std::string& path);

// Per-pixel comparison of two RGB images of the same size.
struct ImageDiff {
    double meanAbs = 0.0; // mean absolute difference over every channel of every pixel
    int maxAbs = 0;
    double psnr = 0.0; // dB; 1e9 when identical
};
ImageDiff compareRgb(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b);

// A folder of its own per test under /tmp, removed afterwards; names() lists what it holds, sorted.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        char tmpl[] = "/tmp/rigscope-record-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::vector<std::string> names() const {
        std::vector<std::string> n;
        for (const auto& e : std::filesystem::directory_iterator(path))
            n.push_back(e.path().filename().string());
        std::sort(n.begin(), n.end());
        return n;
    }
};

} // namespace rs::test
