// Real Alamo files (../shared/corpus/alamo): loading, model/clip pairing, rigid poses, loops, and
// corruption (truncation and bit flips must load or throw ParseError, never crash).
#include "corpus.h"

#include "common/bytes.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>

using namespace rs;

namespace {

std::vector<std::string> alamoFiles() { return test::corpusFiles("alamo", {".alo", ".ala"}); }

bool isParticle(const std::vector<uint8_t>& b) {
    if (b.size() < 4) return false;
    const uint32_t id = b[0] | b[1] << 8 | b[2] << 16 | uint32_t(b[3]) << 24;
    return id == 0x900 || id == 0x1500;
}

std::string fileName(const std::string& p) { return std::filesystem::path(p).filename().string(); }

// Finite, and the 3x3 part orthogonal with a uniform scale (corpus clips carry no scale tracks;
// measured deviation is 0 to float precision).
void requireRigid(const glm::mat4& m, const std::string& what) {
    INFO(what);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            REQUIRE(std::isfinite(m[c][r]));
    REQUIRE(m[0][3] == 0.0f);
    REQUIRE(m[1][3] == 0.0f);
    REQUIRE(m[2][3] == 0.0f);
    REQUIRE(m[3][3] == 1.0f);
    const glm::vec3 a(m[0]), b(m[1]), c(m[2]);
    const float la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
    REQUIRE(la > 1e-3f);
    REQUIRE(std::abs(la - lb) <= 1e-3f * la);
    REQUIRE(std::abs(la - lc) <= 1e-3f * la);
    REQUIRE(std::abs(glm::dot(a, b)) <= 1e-3f * la * lb);
    REQUIRE(std::abs(glm::dot(a, c)) <= 1e-3f * la * lc);
    REQUIRE(std::abs(glm::dot(b, c)) <= 1e-3f * lb * lc);
}

// Every index a renderer will follow is in range.
bool subMeshValid(const SubMesh& sm, size_t bones) {
    for (uint32_t i : sm.indices)
        if (i >= sm.vertexCount()) return false;
    for (int b : sm.boneMap)
        if (b < 0 || size_t(b) >= bones) return false;
    for (const auto& b : sm.boneIndices)
        if (b[0] >= sm.boneMap.size()) return false;
    if (!sm.boneIndices.empty() && sm.boneIndices.size() != sm.vertexCount()) return false;
    return sm.indices.size() % 3 == 0;
}

} // namespace

TEST_CASE("corpus: every Alamo model, clip and particle system loads", "[alamo][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    const auto files = alamoFiles();
    REQUIRE(files.size() >= 10);
    size_t models = 0, clips = 0, particles = 0, v1 = 0, v2 = 0;
    for (const auto& f : files) {
        INFO(f);
        const std::vector<uint8_t> bytes = readFileBytes(f);
        if (isParticle(bytes)) {
            ++particles;
            const Document d = Resolver().read(ByteSpan(bytes), f);
            REQUIRE(d.format == Format::AlamoParticles);
            REQUIRE(d.particles);
            REQUIRE(!d.model);
            REQUIRE(!d.particles->emitters.empty()); // details: alamo_particle_test.cpp
            continue;
        }
        const Document d = Resolver().read(ByteSpan(bytes), f);
        if (d.model) {
            ++models;
            REQUIRE(d.format == Format::AlamoModel);
            REQUIRE(d.model->warnings.empty());
            REQUIRE(!d.model->skeleton.bones.empty());
            REQUIRE(d.model->skeleton.bones[0].parent == -1);
            for (const Mesh& m : d.model->meshes)
                for (const SubMesh& sm : m.subMeshes)
                    REQUIRE(subMeshValid(sm, d.model->skeleton.bones.size()));
        } else {
            ++clips;
            REQUIRE(d.clips.size() == 1);
            REQUIRE(d.clips[0]->warnings.empty());
            (d.clips[0]->version == 1 ? v1 : v2)++;
        }
    }
    REQUIRE(particles >= 1);
    REQUIRE(models >= 5);
    REQUIRE(v1 >= 1); // both clip formats are represented
    REQUIRE(v2 >= 1);
}

TEST_CASE("corpus: every clip matches its model by bone index and name; poses are finite and rigid",
          "[alamo][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    std::map<std::string, bool> clipPaired;
    for (const auto& f : alamoFiles())
        if (toLower(std::filesystem::path(f).extension().string()) == ".ala") clipPaired[f] = false;
    for (const auto& f : alamoFiles()) {
        if (toLower(std::filesystem::path(f).extension().string()) != ".alo") continue;
        const std::vector<uint8_t> bytes = readFileBytes(f);
        if (isParticle(bytes)) continue;
        const Document md = Resolver().read(ByteSpan(bytes), f);
        const Skeleton& sk = md.model->skeleton;
        PoseBuffers buf(sk.bones.size());
        evaluatePose(sk, nullptr, nullptr, 0.0f, LoopMode::Once, buf.view());
        for (size_t i = 0; i < sk.bones.size(); ++i)
            requireRigid(buf.world[i], fileName(f) + " bind " + sk.bones[i].name);
        for (const auto& cp : Resolver().companionClips(f)) {
            INFO(cp);
            clipPaired[cp] = true;
            const Document cd = Resolver().read(cp);
            const Clip& c = *cd.clips.at(0);
            for (const BoneTrack& t : c.tracks) {
                REQUIRE(t.bone > 0); // clips never list bone 0
                REQUIRE(static_cast<size_t>(t.bone) < sk.bones.size());
                REQUIRE(iequals(sk.bones[t.bone].name, t.boneName));
            }
            const ClipBinding b = bindClip(sk, c);
            REQUIRE(b.ok());
            for (uint32_t fr = 0; fr < c.frameCount; fr += (c.frameCount > 40 ? 7 : 1)) {
                evaluatePose(sk, &c, &b, float(fr), LoopMode::Once, buf.view());
                for (size_t i = 0; i < sk.bones.size(); ++i)
                    requireRigid(buf.world[i], fileName(cp) + " frame " + std::to_string(fr) + " " + sk.bones[i].name);
            }
        }
    }
    for (const auto& [clip, paired] : clipPaired) {
        INFO(clip);
        REQUIRE(paired);
    }
}

// Idle clips play in a loop in the game, so their last stored frame repeats the first. Measured on the
// corpus: rotation entries agree to <= 0.042 (a slowly spinning asteroid; characters <= 0.015) and
// translations to <= 0.2% of the bone's offset. One-shot clips (attack, die, build, open, deploy)
// do not loop and differ by whole units, so the tolerance below separates the two kinds.
TEST_CASE("corpus: idle clips' first and last stored frames agree", "[alamo][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    size_t checked = 0;
    for (const auto& f : alamoFiles()) {
        if (toLower(std::filesystem::path(f).extension().string()) != ".alo") continue;
        const std::vector<uint8_t> bytes = readFileBytes(f);
        if (isParticle(bytes)) continue;
        const Document md = Resolver().read(ByteSpan(bytes), f);
        const Skeleton& sk = md.model->skeleton;
        for (const auto& cp : Resolver().companionClips(f)) {
            if (toLower(fileName(cp)).find("_idle_") == std::string::npos) continue;
            INFO(cp);
            const Document cd = Resolver().read(cp);
            const Clip& c = *cd.clips.at(0);
            REQUIRE(c.frameCount >= 2);
            const ClipBinding b = bindClip(sk, c);
            PoseBuffers first(sk.bones.size()), last(sk.bones.size());
            evaluatePose(sk, &c, &b, 0.0f, LoopMode::Once, first.view());
            evaluatePose(sk, &c, &b, float(c.frameCount - 1), LoopMode::Once, last.view());
            for (size_t i = 0; i < sk.bones.size(); ++i) {
                for (int col = 0; col < 3; ++col)
                    for (int r = 0; r < 3; ++r)
                        REQUIRE(std::abs(first.local[i][col][r] - last.local[i][col][r]) < 0.05f);
                const glm::vec3 t0(first.local[i][3]), t1(last.local[i][3]);
                REQUIRE(glm::length(t0 - t1) <= 0.005f * std::max(glm::length(t0), 1.0f));
                REQUIRE(first.visible[i] == last.visible[i]);
            }
            ++checked;
        }
    }
    REQUIRE(checked >= 5);
}

TEST_CASE("corpus: truncated and bit-flipped Alamo files load or throw ParseError", "[alamo][corpus][robust]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    std::mt19937 rng(12345);
    size_t attempts = 0, errors = 0;
    for (const auto& f : alamoFiles()) {
        INFO(f);
        const std::vector<uint8_t> bytes = readFileBytes(f);
        auto attempt = [&](const std::vector<uint8_t>& b) {
            ++attempts;
            try {
                Document d = Resolver().read(ByteSpan(b), f);
                if (d.model) { // a loaded model must be safe to pose and skin
                    PoseBuffers buf(d.model->skeleton.bones.size());
                    evaluatePose(d.model->skeleton, nullptr, nullptr, 0.0f, LoopMode::Once, buf.view());
                    for (const Mesh& m : d.model->meshes)
                        for (const SubMesh& sm : m.subMeshes)
                            REQUIRE(subMeshValid(sm, d.model->skeleton.bones.size()));
                }
            } catch (const ParseError&) {
                ++errors;
            }
        };
        // 40 truncation points spread over the file, plus the first 16 bytes.
        for (size_t k = 0; k < 40; ++k) {
            const size_t n = bytes.size() * k / 40;
            attempt(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
        }
        for (size_t n = 1; n < 16 && n < bytes.size(); ++n)
            attempt(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
        // 64 mutants with 1..4 flipped bits; half of them aimed at the first 4 KiB where headers and counts live.
        for (int k = 0; k < 64; ++k) {
            std::vector<uint8_t> b = bytes;
            const int flips = 1 + int(rng() % 4);
            for (int i = 0; i < flips; ++i) {
                const size_t range = (k % 2 == 0) ? std::min<size_t>(b.size(), 4096) : b.size();
                b[rng() % range] ^= uint8_t(1u << (rng() % 8));
            }
            attempt(b);
        }
    }
    REQUIRE(attempts >= 100);
    REQUIRE(errors > 0);
}
