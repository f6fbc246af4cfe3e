// Alamo parse throughput: MB/s of readModel/readClip over every .alo/.ala under a folder (default: the
// corpus), next to memcpy of the same bytes; plus pose evaluation time per bone. Times are thread CPU time.
//   alamo_parse_bench [DIR] [--seconds S]
#include "alamo/alamo_reader.h"
#include "common/bytes.h"
#include "resolve/resolver.h"
#include "scene/pose.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
#include <ctime>

// Thread CPU time: the machine may be shared, wall-clock rates would measure the other processes.
struct Clock {
    using time_point = double;
    static double now() {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
    }
};

struct Input {
    std::string path;
    bool model;
    std::vector<uint8_t> bytes;
};

static double since(double t0) { return Clock::now() - t0; }

int main(int argc, char** argv) {
    std::string dir;
    double seconds = 2.0;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = std::atof(argv[++i]);
        else
            dir = argv[i];
    }
    if (dir.empty()) {
        const char* env = std::getenv("RIGSCOPE_CORPUS");
        dir = std::string(env && *env ? env : RIGSCOPE_CORPUS_DIR) + "/alamo";
    }
    std::vector<Input> inputs;
    size_t total = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string ext = rs::toLower(it->path().extension().string());
        if (ext != ".alo" && ext != ".ala") continue;
        Input in{it->path().string(), ext == ".alo", rs::readFileBytes(it->path().string())};
        if (rs::detectFormat(rs::ByteSpan(in.bytes), in.path) == rs::Format::AlamoParticles) continue;
        total += in.bytes.size();
        inputs.push_back(std::move(in));
    }
    if (inputs.empty()) {
        std::fprintf(stderr, "no .alo/.ala files under %s\n", dir.c_str());
        return 1;
    }
    // Parse: repeat the whole set until `seconds` have passed.
    size_t passes = 0, sink = 0;
    auto t0 = Clock::now();
    do {
        for (const Input& in : inputs) {
            if (in.model)
                sink += rs::alamo::readModel(rs::ByteSpan(in.bytes), in.path).meshes.size();
            else
                sink += rs::alamo::readClip(rs::ByteSpan(in.bytes), in.path).tracks.size();
        }
        ++passes;
    } while (since(t0) < seconds);
    const double parseSec = since(t0);
    // memcpy of the same bytes, same number of passes.
    std::vector<uint8_t> dst(total);
    t0 = Clock::now();
    size_t copyPasses = 0;
    do {
        size_t at = 0;
        for (const Input& in : inputs) {
            std::memcpy(dst.data() + at, in.bytes.data(), in.bytes.size());
            at += in.bytes.size();
        }
        sink += dst[copyPasses % total];
        ++copyPasses;
    } while (since(t0) < seconds / 4);
    const double copySec = since(t0);
    const double mb = double(total) / 1e6;
    std::printf("files: %zu (%.2f MB), parse passes: %zu\n", inputs.size(), mb, passes);
    std::printf("parse:  %.1f MB/s\n", mb * passes / parseSec);
    std::printf("memcpy: %.1f MB/s\n", mb * copyPasses / copySec);

    // Pose: the model with the most bones that has a clip next to it.
    std::string bestModel, bestClip;
    size_t bestBones = 0;
    const rs::Resolver resolver;
    for (const Input& in : inputs) {
        if (!in.model) continue;
        auto clips = resolver.companionClips(in.path);
        if (clips.empty()) continue;
        size_t n = rs::alamo::readModel(rs::ByteSpan(in.bytes), in.path).skeleton.bones.size();
        if (n > bestBones) bestBones = n, bestModel = in.path, bestClip = clips.front();
    }
    if (!bestModel.empty()) {
        rs::Document md = resolver.read(bestModel), cd = resolver.read(bestClip);
        const rs::Skeleton& sk = md.model->skeleton;
        const rs::Clip& clip = *cd.clips.front();
        rs::ClipBinding b = rs::bindClip(sk, clip);
        rs::PoseBuffers buf(sk.bones.size());
        for (const float step : {1.0f, 0.37f}) {
            size_t evals = 0;
            t0 = Clock::now();
            do {
                for (int i = 0; i < 1000; ++i, ++evals)
                    rs::evaluatePose(sk, &clip, &b, step * float(evals % 1000), rs::LoopMode::Loop, buf.view());
            } while (since(t0) < seconds / 4);
            const double ns = since(t0) * 1e9 / double(evals) / double(sk.bones.size());
            sink += size_t(buf.world.back()[3][0]);
            std::printf("pose %s: %.1f ns/bone (%s, %zu bones, %s)\n", step == 1.0f ? "stored frames" : "interpolated ",
                        ns, fs::path(bestModel).filename().c_str(), sk.bones.size(),
                        fs::path(bestClip).filename().c_str());
        }
    }
    return sink == 42 ? 2 : 0;
}
