#include "hostile.h"

#include "heap_meter.h"

#include "scene/pose.h"
#include "scene/validate.h"

#include <catch2/catch.hpp>

#include <chrono>

namespace rs::test {

std::string tryLoad(const std::vector<uint8_t>& bytes, const std::string& path, bool& loaded) {
    loaded = false;
    try {
        rs::Document d = rs::loadDocument(rs::ByteSpan(bytes), path);
        loaded = true;
        if (d.model) {
            if (std::string e = rs::checkModel(*d.model); !e.empty()) return "model contract: " + e;
            rs::PoseBuffers buf(d.model->skeleton.bones.size());
            rs::evaluatePose(d.model->skeleton, nullptr, nullptr, 0.0f, rs::LoopMode::Loop, buf.view());
        }
        for (const auto& c : d.clips) {
            if (std::string e = rs::checkClip(*c); !e.empty()) return "clip contract: " + e;
            if (d.model) {
                rs::ClipBinding b = rs::bindClip(d.model->skeleton, *c);
                rs::PoseBuffers buf(d.model->skeleton.bones.size());
                rs::evaluatePose(d.model->skeleton, c.get(), &b, 0.5f, rs::LoopMode::Loop, buf.view());
            }
        }
        return {};
    } catch (const rs::ParseError& e) {
        if (e.file() != path) return std::string("ParseError names file '") + e.file() + "': " + e.what();
        if (e.offset() > bytes.size())
            return "ParseError offset " + std::to_string(e.offset()) + " beyond the " + std::to_string(bytes.size()) +
                   " bytes: " + e.what();
        return {};
    } catch (const std::exception& e) {
        return std::string("unexpected exception (not ParseError): ") + e.what();
    }
}

bool expectLoadsOrRejects(const std::vector<uint8_t>& bytes, const std::string& path, const std::string& what) {
    bool loaded = false;
    std::string problem;
    const auto t0 = std::chrono::steady_clock::now();
    const int64_t peak = peakHeap([&] { problem = tryLoad(bytes, path, loaded); });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(what << " (" << bytes.size() << " bytes)");
    if (!problem.empty()) FAIL_CHECK(problem);
    if (secs > 2.0) FAIL_CHECK("took " << secs << " s");
    if (peak > 16 * int64_t(bytes.size()) + (1 << 20)) FAIL_CHECK("peak heap " << peak << " bytes");
    return loaded;
}

} // namespace rs::test
