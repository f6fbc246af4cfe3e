#include "video_writer.h"

#include "palette.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <webp/encode.h>
#include <webp/mux.h>
}

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace rs::record {

std::optional<Container> containerOf(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
    std::string ext = path.substr(dot + 1);
    for (char& c : ext)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == "mp4") return Container::Mp4;
    if (ext == "webm") return Container::WebM;
    if (ext == "gif") return Container::Gif;
    if (ext == "webp") return Container::WebP;
    return std::nullopt;
}

const char* containerName(Container c) {
    switch (c) {
    case Container::Mp4:
        return "mp4";
    case Container::WebM:
        return "webm";
    case Container::Gif:
        return "gif";
    case Container::WebP:
        return "webp";
    }
    return "?";
}

int frameCount(double durationSeconds, int fps) {
    if (!std::isfinite(durationSeconds) || durationSeconds < 0.0 || fps < 1) return -1;
    const double n = std::round(durationSeconds * double(fps));
    if (n > 1e7) return -1;
    return std::max(1, int(n));
}

namespace {

std::string avError(int code) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, buf, sizeof buf);
    return buf;
}

// Encoder of one container; frames are RGBA (mp4, webm) or palette indices (gif).
class Encoder {
  public:
    virtual ~Encoder() = default;
    virtual void add(const uint8_t* pixels, size_t stride) = 0;
    virtual void finish() = 0;
};

class AvEncoder final : public Encoder {
  public:
    AvEncoder(const std::string& file, Container c, int w, int h, int fps, const uint32_t* gifPalette)
        : file_(file), w_(w), h_(h), gif_(c == Container::Gif) {
        const char* format = c == Container::Mp4 ? "mp4" : c == Container::WebM ? "webm" : "gif";
        check(avformat_alloc_output_context2(&oc_, nullptr, format, file.c_str()), "no muxer");
        const AVCodec* codec = nullptr;
        if (c == Container::Mp4) {
            codec = avcodec_find_encoder_by_name("libx264");
            if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_H264);
        } else if (c == Container::WebM) {
            codec = avcodec_find_encoder_by_name("libvpx-vp9");
            if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_VP9);
        } else {
            codec = avcodec_find_encoder(AV_CODEC_ID_GIF);
        }
        if (!codec) throw RecordError(file_ + ": this FFmpeg has no " + containerName(c) + " video encoder");
        st_ = avformat_new_stream(oc_, nullptr);
        cc_ = avcodec_alloc_context3(codec);
        pkt_ = av_packet_alloc();
        frame_ = av_frame_alloc();
        if (!st_ || !cc_ || !pkt_ || !frame_) throw RecordError(file_ + ": out of memory");
        cc_->width = w;
        cc_->height = h;
        cc_->time_base = AVRational{1, fps};
        cc_->framerate = AVRational{fps, 1};
        cc_->thread_count = 0;
        if (gif_) {
            cc_->pix_fmt = AV_PIX_FMT_PAL8;
        } else {
            cc_->pix_fmt = AV_PIX_FMT_YUV420P;
            cc_->gop_size = std::max(1, 2 * fps);
            cc_->color_range = AVCOL_RANGE_MPEG;
            cc_->colorspace = AVCOL_SPC_BT709;
            cc_->color_primaries = AVCOL_PRI_BT709;
            cc_->color_trc = AVCOL_TRC_BT709;
            if (c == Container::Mp4) {
                av_opt_set(cc_->priv_data, "preset", "medium", 0);
                av_opt_set(cc_->priv_data, "crf", "18", 0);
            } else {
                cc_->bit_rate = 0; // constant quality
                av_opt_set(cc_->priv_data, "crf", "30", 0);
                av_opt_set(cc_->priv_data, "deadline", "good", 0);
                av_opt_set(cc_->priv_data, "cpu-used", "4", 0);
                av_opt_set(cc_->priv_data, "row-mt", "1", 0);
            }
        }
        if (oc_->oformat->flags & AVFMT_GLOBALHEADER) cc_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        check(avcodec_open2(cc_, codec, nullptr), std::string("cannot open the ") + codec->name + " encoder");
        check(avcodec_parameters_from_context(st_->codecpar, cc_), "codec parameters");
        st_->time_base = cc_->time_base;
        check(avio_open(&oc_->pb, file.c_str(), AVIO_FLAG_WRITE), "cannot open for writing");
        AVDictionary* opts = nullptr;
        if (c == Container::Mp4) av_dict_set(&opts, "movflags", "+faststart", 0);
        if (gif_) av_dict_set(&opts, "loop", "0", 0);
        const int rc = avformat_write_header(oc_, &opts);
        av_dict_free(&opts);
        check(rc, "cannot write the header");

        frame_->format = cc_->pix_fmt;
        frame_->width = w;
        frame_->height = h;
        check(av_frame_get_buffer(frame_, 0), "frame buffer");
        if (gif_) {
            std::memcpy(frame_->data[1], gifPalette, 256 * 4);
        } else {
            sws_ = sws_getContext(w, h, AV_PIX_FMT_RGBA, w, h, AV_PIX_FMT_YUV420P,
                                  SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr, nullptr);
            if (!sws_) throw RecordError(file_ + ": no RGBA to YUV converter");
            const int* coeffs = sws_getCoefficients(SWS_CS_ITU709);
            sws_setColorspaceDetails(sws_, coeffs, 1, coeffs, 0, 0, 1 << 16, 1 << 16);
        }
    }

    ~AvEncoder() override {
        sws_freeContext(sws_);
        av_frame_free(&frame_);
        av_packet_free(&pkt_);
        avcodec_free_context(&cc_);
        if (oc_) {
            if (oc_->pb) avio_closep(&oc_->pb);
            avformat_free_context(oc_);
        }
    }

    void add(const uint8_t* pixels, size_t stride) override {
        check(av_frame_make_writable(frame_), "frame buffer");
        if (gif_) {
            for (int y = 0; y < h_; ++y)
                std::memcpy(frame_->data[0] + size_t(y) * size_t(frame_->linesize[0]), pixels + size_t(y) * stride,
                            size_t(w_));
        } else {
            const uint8_t* src[1] = {pixels};
            const int srcStride[1] = {int(stride)};
            sws_scale(sws_, src, srcStride, 0, h_, frame_->data, frame_->linesize);
        }
        frame_->pts = pts_++;
        send(frame_);
    }

    void finish() override {
        send(nullptr);
        check(av_write_trailer(oc_), "cannot write the trailer");
        if (oc_->pb->error < 0) check(oc_->pb->error, "write error");
        check(avio_closep(&oc_->pb), "cannot close");
    }

  private:
    void check(int rc, const std::string& what) const {
        if (rc < 0) throw RecordError(file_ + ": " + what + " (" + avError(rc) + ")");
    }

    void send(AVFrame* f) {
        check(avcodec_send_frame(cc_, f), "encoding failed");
        for (;;) {
            const int rc = avcodec_receive_packet(cc_, pkt_);
            if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) break;
            check(rc, "encoding failed");
            // Every frame lasts 1/fps: without a duration the MP4 muxer's edit list ends at the last frame's
            // start, and players drop that frame.
            if (pkt_->duration <= 0) pkt_->duration = 1;
            av_packet_rescale_ts(pkt_, cc_->time_base, st_->time_base);
            pkt_->stream_index = st_->index;
            check(av_interleaved_write_frame(oc_, pkt_), "write error");
        }
    }

    std::string file_;
    int w_, h_;
    bool gif_;
    AVFormatContext* oc_ = nullptr;
    AVStream* st_ = nullptr;
    AVCodecContext* cc_ = nullptr;
    AVPacket* pkt_ = nullptr;
    AVFrame* frame_ = nullptr;
    SwsContext* sws_ = nullptr;
    int64_t pts_ = 0;
};

class WebpEncoder final : public Encoder {
  public:
    WebpEncoder(const std::string& file, int w, int h, int fps) : file_(file), w_(w), h_(h), fps_(fps) {
        WebPAnimEncoderOptions eo;
        if (!WebPAnimEncoderOptionsInit(&eo) || !WebPConfigInit(&config_))
            throw RecordError(file_ + ": libwebp version mismatch");
        eo.anim_params.loop_count = 0;
        eo.allow_mixed = 0;
        config_.lossless = 1;
        config_.quality = 25; // lossless: effort, not fidelity
        config_.method = 1;
        config_.exact = 1;
        if (!WebPValidateConfig(&config_)) throw RecordError(file_ + ": invalid WebP settings");
        enc_ = WebPAnimEncoderNew(w, h, &eo);
        if (!enc_) throw RecordError(file_ + ": cannot start the WebP animation encoder");
    }
    ~WebpEncoder() override { WebPAnimEncoderDelete(enc_); }

    void add(const uint8_t* pixels, size_t stride) override {
        WebPPicture pic;
        if (!WebPPictureInit(&pic)) throw RecordError(file_ + ": libwebp version mismatch");
        pic.use_argb = 1;
        pic.width = w_;
        pic.height = h_;
        if (!WebPPictureImportRGBX(&pic, pixels, int(stride))) {
            WebPPictureFree(&pic);
            throw RecordError(file_ + ": out of memory");
        }
        const bool ok = WebPAnimEncoderAdd(enc_, &pic, timestamp(frames_), &config_);
        WebPPictureFree(&pic);
        if (!ok) throw RecordError(file_ + ": WebP encoding failed (" + WebPAnimEncoderGetError(enc_) + ")");
        ++frames_;
    }

    void finish() override {
        if (!WebPAnimEncoderAdd(enc_, nullptr, timestamp(frames_), nullptr))
            throw RecordError(file_ + ": WebP encoding failed (" + WebPAnimEncoderGetError(enc_) + ")");
        WebPData data;
        WebPDataInit(&data);
        if (!WebPAnimEncoderAssemble(enc_, &data))
            throw RecordError(file_ + ": WebP assembly failed (" + WebPAnimEncoderGetError(enc_) + ")");
        FILE* f = std::fopen(file_.c_str(), "wb");
        bool ok = f && std::fwrite(data.bytes, 1, data.size, f) == data.size;
        if (f) ok = (std::fclose(f) == 0) && ok;
        const int err = errno;
        WebPDataClear(&data);
        if (!ok) throw RecordError(file_ + ": cannot write (" + std::strerror(err) + ")");
    }

  private:
    // Frame k starts at round(k * 1000 / fps) ms: durations alternate so that the total stays exact.
    int timestamp(int k) const { return int(std::lround(double(k) * 1000.0 / double(fps_))); }

    std::string file_;
    int w_, h_, fps_;
    int frames_ = 0;
    WebPConfig config_{};
    WebPAnimEncoder* enc_ = nullptr;
};

std::atomic<unsigned> tempCounter{0};

} // namespace

struct VideoWriter::Impl {
    std::string path, temp;
    VideoSpec spec;
    std::unique_ptr<Encoder> encoder; // null for GIF until finish()
    int frames = 0;
    bool done = false;
    // GIF: every frame as RGB in an anonymous file (in the destination folder when it allows O_TMPFILE), the
    // histogram of all of them; the palette is known only at the end.
    FILE* spill = nullptr;
    std::unique_ptr<ColourHistogram> histogram;
    std::vector<uint8_t> row;

    void removeTemp() {
        encoder.reset();
        if (spill) std::fclose(spill);
        spill = nullptr;
        if (!temp.empty()) ::unlink(temp.c_str());
    }
};

VideoWriter::VideoWriter(const std::string& path, const VideoSpec& spec) : d(std::make_unique<Impl>()) {
    // The encoders' statistics (x264's summary, libvpx's version) are not for the user; errors still print.
    if (av_log_get_level() == AV_LOG_INFO) av_log_set_level(AV_LOG_ERROR);
    d->path = path;
    d->spec = spec;
    if (spec.width < 16 || spec.height < 16 || spec.width > 8192 || spec.height > 8192)
        throw RecordError(path + ": size " + std::to_string(spec.width) + "x" + std::to_string(spec.height) +
                          " is outside 16x16..8192x8192");
    if (spec.container == Container::Mp4 && (spec.width % 2 || spec.height % 2))
        throw RecordError(path + ": H.264 (.mp4) needs an even width and height, not " + std::to_string(spec.width) +
                          "x" + std::to_string(spec.height));
    if (spec.fps < 1 || spec.fps > 120) throw RecordError(path + ": fps must be 1..120");

    const auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty()) throw RecordError(path + ": no file name");
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw RecordError(path + ": is a folder");
    // Created exclusively, with the permissions a new file gets (0666 less the umask).
    for (int attempt = 0;; ++attempt) {
        const std::string temp = dir + "/." + name + "." + std::to_string(::getpid()) + "-" +
                                 std::to_string(tempCounter.fetch_add(1)) + ".part";
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            d->temp = temp;
            break;
        }
        if (errno != EEXIST || attempt > 100)
            throw RecordError(path + ": cannot create a file in " + dir + " (" + std::strerror(errno) + ")");
    }
    try {
        if (spec.container == Container::Gif) {
            int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
            d->spill = fd >= 0 ? ::fdopen(fd, "w+b") : std::tmpfile();
            if (!d->spill) throw RecordError(path + ": no temporary storage for the GIF's frames");
            d->histogram = std::make_unique<ColourHistogram>();
            d->row.resize(size_t(spec.width) * 3);
        } else if (spec.container == Container::WebP) {
            d->encoder = std::make_unique<WebpEncoder>(d->temp, spec.width, spec.height, spec.fps);
        } else {
            d->encoder =
                std::make_unique<AvEncoder>(d->temp, spec.container, spec.width, spec.height, spec.fps, nullptr);
        }
    } catch (...) {
        d->removeTemp();
        throw;
    }
}

VideoWriter::~VideoWriter() { abort(); }

void VideoWriter::abort() {
    if (d->done) return;
    d->done = true;
    d->removeTemp();
}

int VideoWriter::framesAdded() const { return d->frames; }
const std::string& VideoWriter::path() const { return d->path; }
const std::string& VideoWriter::temporaryPath() const { return d->temp; }

void VideoWriter::addFrame(const uint8_t* rgba, size_t stride) {
    if (d->done) throw RecordError(d->path + ": frame added after the recording ended");
    try {
        if (d->spill) {
            const int w = d->spec.width;
            d->histogram->add(rgba, w, d->spec.height, stride, 4);
            for (int y = 0; y < d->spec.height; ++y) {
                const uint8_t* s = rgba + size_t(y) * stride;
                for (int x = 0; x < w; ++x) {
                    d->row[size_t(x) * 3] = s[x * 4];
                    d->row[size_t(x) * 3 + 1] = s[x * 4 + 1];
                    d->row[size_t(x) * 3 + 2] = s[x * 4 + 2];
                }
                if (std::fwrite(d->row.data(), 1, d->row.size(), d->spill) != d->row.size())
                    throw RecordError(d->path + ": cannot keep the GIF's frames (" + std::strerror(errno) + ")");
            }
        } else {
            d->encoder->add(rgba, stride);
        }
        ++d->frames;
    } catch (...) {
        abort();
        throw;
    }
}

bool VideoWriter::finish(const std::function<bool(int, int)>& progress) {
    if (d->done) throw RecordError(d->path + ": the recording already ended");
    if (d->frames == 0) {
        abort();
        throw RecordError(d->path + ": no frame to write");
    }
    try {
        if (d->spill) {
            const Palette pal = medianCutPalette(*d->histogram);
            d->histogram.reset();
            uint32_t argb[256] = {};
            for (size_t i = 0; i < pal.colours.size(); ++i)
                argb[i] = 0xFF000000u | uint32_t(pal.colours[i][0]) << 16 | uint32_t(pal.colours[i][1]) << 8 |
                          pal.colours[i][2];
            for (size_t i = pal.colours.size(); i < 256; ++i)
                argb[i] = 0xFF000000u;
            d->encoder =
                std::make_unique<AvEncoder>(d->temp, Container::Gif, d->spec.width, d->spec.height, d->spec.fps, argb);
            if (std::fseek(d->spill, 0, SEEK_SET) != 0)
                throw RecordError(d->path + ": cannot read back the GIF's frames");
            const int w = d->spec.width, h = d->spec.height;
            std::vector<uint8_t> indices(size_t(w) * size_t(h));
            for (int k = 0; k < d->frames; ++k) {
                if (progress && !progress(k, d->frames)) {
                    abort();
                    return false;
                }
                for (int y = 0; y < h; ++y) {
                    if (std::fread(d->row.data(), 1, d->row.size(), d->spill) != d->row.size())
                        throw RecordError(d->path + ": cannot read back the GIF's frames");
                    uint8_t* out = indices.data() + size_t(y) * size_t(w);
                    for (int x = 0; x < w; ++x)
                        out[x] = pal.ditheredIndexOf(d->row[size_t(x) * 3], d->row[size_t(x) * 3 + 1],
                                                     d->row[size_t(x) * 3 + 2], x, y);
                }
                d->encoder->add(indices.data(), size_t(w));
            }
            std::fclose(d->spill);
            d->spill = nullptr;
        }
        if (progress && !progress(d->frames, d->frames)) {
            abort();
            return false;
        }
        d->encoder->finish();
        d->encoder.reset();
        if (std::rename(d->temp.c_str(), d->path.c_str()) != 0)
            throw RecordError(d->path + ": cannot rename " + d->temp + " to it (" + std::strerror(errno) + ")");
        d->done = true;
        return true;
    } catch (...) {
        abort();
        throw;
    }
}

} // namespace rs::record
