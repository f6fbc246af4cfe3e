#include "hostile.h"

#include "heap_meter.h"

#include "scene/pose.h"
#include "scene/validate.h"

#include <catch2/catch.hpp>

#include <chrono>

namespace rs::test {

size_t decodedClipBytes(const Document& d) {
    size_t n = 0;
    for (const auto& c : d.clips)
        for (const BoneTrack& t : c->tracks)
            n += t.translation.size() * sizeof(glm::vec3) + t.rotation.size() * sizeof(glm::quat) +
                 t.scale.size() * sizeof(glm::vec3) + t.visibility.size() + t.step.size();
    return n;
}

int64_t heapAllowance(size_t inputBytes, size_t clipBytes) {
    return 16 * int64_t(inputBytes) + (1 << 20) + 2 * int64_t(clipBytes);
}

std::string tryLoad(const std::vector<uint8_t>& bytes, const std::string& path, bool& loaded, size_t* clipBytes) {
    loaded = false;
    if (clipBytes) *clipBytes = 0;
    try {
        rs::Document d = rs::loadDocument(rs::ByteSpan(bytes), path);
        loaded = true;
        if (clipBytes) *clipBytes = decodedClipBytes(d);
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
    size_t clipBytes = 0;
    const int64_t peak = peakHeap([&] { problem = tryLoad(bytes, path, loaded, &clipBytes); });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(what << " (" << bytes.size() << " bytes)");
    if (!problem.empty()) FAIL_CHECK(problem);
    if (secs > 2.0) FAIL_CHECK("took " << secs << " s");
    if (peak > heapAllowance(bytes.size(), clipBytes))
        FAIL_CHECK("peak heap " << peak << " bytes (decoded clips " << clipBytes << " bytes)");
    return loaded;
}

} // namespace rs::test
