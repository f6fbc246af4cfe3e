#include "decode.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <webp/demux.h>
}

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace rs::test {

namespace {

DecodedVideo decodeWebp(const std::string& path) {
    DecodedVideo out;
    out.codec = "webp";
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    WebPData data{bytes.data(), bytes.size()};
    WebPAnimDecoderOptions o;
    WebPAnimDecoderOptionsInit(&o);
    o.color_mode = MODE_RGBA;
    WebPAnimDecoder* dec = WebPAnimDecoderNew(&data, &o);
    if (!dec) {
        out.error = path + ": not an animated WebP";
        return out;
    }
    WebPAnimInfo info;
    WebPAnimDecoderGetInfo(dec, &info);
    out.width = int(info.canvas_width);
    out.height = int(info.canvas_height);
    uint8_t* buf = nullptr;
    int ts = 0;
    int previous = 0;
    while (WebPAnimDecoderHasMoreFrames(dec)) {
        if (!WebPAnimDecoderGetNext(dec, &buf, &ts)) {
            out.error = path + ": WebP frame decoding failed";
            break;
        }
        std::vector<uint8_t> rgb(size_t(out.width) * size_t(out.height) * 3);
        for (size_t i = 0; i < size_t(out.width) * size_t(out.height); ++i)
            for (int c = 0; c < 3; ++c)
                rgb[i * 3 + size_t(c)] = buf[i * 4 + size_t(c)];
        out.frames.push_back(std::move(rgb));
        out.times.push_back(previous / 1000.0); // ts is the frame's end
        previous = ts;
    }
    WebPAnimDecoderDelete(dec);
    return out;
}

} // namespace

DecodedVideo decodeVideo(const std::string& path) {
    if (path.size() > 5 && path.compare(path.size() - 5, 5, ".webp") == 0) return decodeWebp(path);
    DecodedVideo out;
    AVFormatContext* fc = nullptr;
    if (avformat_open_input(&fc, path.c_str(), nullptr, nullptr) < 0) {
        out.error = path + ": cannot open";
        return out;
    }
    avformat_find_stream_info(fc, nullptr);
    const int si = av_find_best_stream(fc, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (si < 0) {
        out.error = path + ": no video stream";
        avformat_close_input(&fc);
        return out;
    }
    AVStream* st = fc->streams[si];
    const AVCodec* codec = avcodec_find_decoder(st->codecpar->codec_id);
    AVCodecContext* cc = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(cc, st->codecpar);
    cc->thread_count = 1;
    if (avcodec_open2(cc, codec, nullptr) < 0) {
        out.error = path + ": no decoder";
        avcodec_free_context(&cc);
        avformat_close_input(&fc);
        return out;
    }
    out.codec = codec->name;
    out.width = cc->width;
    out.height = cc->height;
    AVPacket* pkt = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    SwsContext* sws = nullptr;
    auto take = [&]() {
        while (avcodec_receive_frame(cc, frame) == 0) {
            if (!sws) {
                sws = sws_getContext(frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                     frame->height, AV_PIX_FMT_RGB24,
                                     SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
                const int cs = frame->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT;
                const int* coeffs = sws_getCoefficients(cs);
                sws_setColorspaceDetails(sws, coeffs, frame->color_range == AVCOL_RANGE_JPEG ? 1 : 0, coeffs, 1, 0,
                                         1 << 16, 1 << 16);
            }
            std::vector<uint8_t> rgb(size_t(frame->width) * size_t(frame->height) * 3);
            uint8_t* dst[1] = {rgb.data()};
            const int dstStride[1] = {frame->width * 3};
            sws_scale(sws, frame->data, frame->linesize, 0, frame->height, dst, dstStride);
            out.frames.push_back(std::move(rgb));
            const int64_t pts = frame->best_effort_timestamp;
            out.times.push_back(pts == AV_NOPTS_VALUE ? -1.0 : double(pts) * av_q2d(st->time_base));
        }
    };
    while (av_read_frame(fc, pkt) >= 0) {
        if (pkt->stream_index == si) {
            // A full decoder refuses the packet (EAGAIN) until its frames are taken.
            int rc;
            while ((rc = avcodec_send_packet(cc, pkt)) == AVERROR(EAGAIN))
                take();
            if (rc < 0 && out.error.empty()) out.error = path + ": decoding failed";
            take();
        }
        av_packet_unref(pkt);
    }
    avcodec_send_packet(cc, nullptr);
    take();
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&cc);
    avformat_close_input(&fc);
    return out;
}

ImageDiff compareRgb(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    ImageDiff d;
    if (a.size() != b.size() || a.empty()) {
        d.meanAbs = 255.0;
        d.maxAbs = 255;
        return d;
    }
    double sum = 0.0, sq = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        const int v = std::abs(int(a[i]) - int(b[i]));
        sum += v;
        sq += double(v) * v;
        if (v > d.maxAbs) d.maxAbs = v;
    }
    d.meanAbs = sum / double(a.size());
    const double mse = sq / double(a.size());
    d.psnr = mse == 0.0 ? 1e9 : 10.0 * std::log10(255.0 * 255.0 / mse);
    return d;
}

} // namespace rs::test
