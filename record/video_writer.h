// rigscope_record: writes a sequence of RGBA frames as a video or animated image. No Qt.
//
// Containers, chosen by the output's extension: .mp4 (H.264, libx264 through libavcodec, yuv420p BT.709 limited
// range, CRF 18), .webm (VP9, libvpx through libavcodec, yuv420p BT.709, CRF 30), .gif (one palette of 256 colours
// for the whole recording, made by median cut over every frame's colours, ordered (8x8 Bayer) dithering that keeps
// palette colours exact and still areas the same in every frame; libavcodec's GIF encoder, looping forever) and .webp
// (animated, lossless, libwebp's WebPAnimEncoder, looping forever).
//
// The file is written under a temporary name in the destination folder (".NAME.XXXXXX.part") and renamed to the
// asked name only by finish(); a writer destroyed or aborted before that removes the temporary file, so a
// cancelled or failed recording leaves nothing under the user's name (and an existing file there is untouched).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace rs::record {

enum class Container { Mp4, WebM, Gif, WebP };

// The container of path's extension (case-insensitive .mp4, .webm, .gif, .webp), nullopt for any other.
std::optional<Container> containerOf(const std::string& path);
const char* containerName(Container c); // "mp4", "webm", "gif", "webp"

// Frames of a recording of durationSeconds at fps: round(duration * fps) (half away from zero), at least 1.
// Frame k shows time k / fps, so frames cover [0, duration) and a looping clip's last frame (the first again)
// is not repeated. -1 when duration is not finite or negative, or fps < 1.
int frameCount(double durationSeconds, int fps);
inline double frameTime(int k, int fps) { return double(k) / double(fps); }

// Any failure: the message names the file and what failed.
struct RecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct VideoSpec {
    Container container = Container::Mp4;
    int width = 0, height = 0; // 16..8192; even for .mp4 (4:2:0 chroma)
    int fps = 30;              // 1..120
};

class VideoWriter {
  public:
    // Checks the spec and creates the temporary file beside path. Throws RecordError (bad spec, unwritable
    // folder, no encoder).
    VideoWriter(const std::string& path, const VideoSpec& spec);
    ~VideoWriter(); // without finish(): as abort()
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    // Frame number framesAdded(): width*height RGBA pixels (bytes R,G,B,A; alpha ignored), rows stride bytes
    // apart. Throws RecordError (the temporary file is then removed).
    void addFrame(const uint8_t* rgba, size_t stride);
    int framesAdded() const;

    // Encodes what is left, closes the file and renames it to path (replacing a file there). progress(done,
    // total) is called during the work left (the GIF's palette mapping: once per frame); returning false cancels.
    // Returns false when cancelled (nothing left behind); throws RecordError on failure (nothing left behind).
    bool finish(const std::function<bool(int, int)>& progress = {});
    // Stops and removes the temporary file. No-op after finish().
    void abort();

    const std::string& path() const;
    const std::string& temporaryPath() const;

    struct Impl;

  private:
    std::unique_ptr<Impl> d;
};

} // namespace rs::record
