// W3D corpus (../shared/corpus/w3d): every file loads or fails precisely, sets pair up, decoded values are
// sane, and truncated / bit-flipped copies never crash.
#include "corpus.h"

#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "w3d/w3d_reader.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <random>

using namespace rs;

static std::vector<std::string> w3dFiles() { return test::corpusFiles("w3d", {".w3d"}); }

TEST_CASE("W3D corpus: every file loads, the truncated one says what is missing", "[w3d][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    const auto files = w3dFiles();
    REQUIRE(files.size() >= 40);
    size_t models = 0, clips = 0, truncated = 0;
    for (const std::string& path : files) {
        INFO(path);
        Document d;
        try {
            d = Resolver().read(path);
        } catch (const ParseError& e) {
            // A refusal must be precise: file named, a reason given.
            REQUIRE(e.file() == path);
            REQUIRE(!e.message().empty());
            FAIL("corpus file refused: " << e.what());
        }
        REQUIRE(d.format == Format::W3d);
        if (d.model) {
            ++models;
            for (const std::string& w : d.model->warnings)
                if (w.find("truncated") != std::string::npos) ++truncated;
            for (const Mesh& m : d.model->meshes)
                for (const SubMesh& sm : m.subMeshes) {
                    for (uint32_t i : sm.indices)
                        REQUIRE(i < sm.vertexCount());
                    for (const auto& bi : sm.boneIndices) {
                        REQUIRE(bi.x < sm.boneMap.size());
                        REQUIRE(bi.y < sm.boneMap.size());
                    }
                    for (int b : sm.boneMap)
                        REQUIRE(size_t(b) < d.model->skeleton.bones.size());
                    for (const auto& w : sm.boneWeights)
                        REQUIRE(w.x + w.y == Approx(1.0f));
                    for (const auto& p : sm.positions)
                        REQUIRE(std::isfinite(p.x + p.y + p.z));
                }
        }
        clips += d.clips.size();
        for (const auto& c : d.clips) {
            REQUIRE(c->frameCount > 0);
            REQUIRE(c->fps > 0.0f);
            for (const BoneTrack& t : c->tracks) {
                REQUIRE(t.mode == TrackMode::AdditiveToBind);
                for (const auto& v : t.translation)
                    REQUIRE(std::isfinite(v.x + v.y + v.z));
                for (const auto& q : t.rotation) { // as decoded: finite, off unit length by at most ~1.3 %
                    REQUIRE(std::isfinite(q.x + q.y + q.z + q.w));
                    REQUIRE(glm::length(q) == Approx(1.0f).margin(0.02));
                }
                REQUIRE((t.translation.empty() || t.translation.size() == c->frameCount));
                REQUIRE((t.rotation.empty() || t.rotation.size() == c->frameCount));
            }
        }
    }
    REQUIRE(models >= 30);
    REQUIRE(clips >= 15);
    REQUIRE(truncated == 1); // the corpus holds exactly one truncated file
}

TEST_CASE("W3D corpus: skeleton / skin / clip sets pair up; other hierarchies are refused", "[w3d][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    size_t paired = 0, refused = 0, companions = 0;
    for (const std::string& path : w3dFiles()) {
        INFO(path);
        Document d = Resolver().read(path);
        if (d.model && !d.model->skeleton.bones.empty()) {
            const Skeleton& sk = d.model->skeleton;
            for (const auto& c : d.clips) { // clips that brought their hierarchy along
                ClipBinding b = bindClip(sk, *c);
                REQUIRE(b.ok());
                ++paired;
                PoseBuffers buf(sk.bones.size());
                for (float f : {0.0f, float(c->frameCount - 1) * 0.5f, float(c->frameCount - 1)}) {
                    evaluatePose(sk, c.get(), &b, f, LoopMode::Once, buf.view());
                    for (const glm::mat4& w : buf.world) {
                        for (int i = 0; i < 16; ++i)
                            REQUIRE(std::isfinite((&w[0][0])[i]));
                        glm::mat3 r(w);
                        REQUIRE(glm::determinant(r) == Approx(1.0f).margin(1e-3)); // rigid
                    }
                }
            }
            for (const std::string& cp : Resolver().companionClips(path)) {
                Document cd = Resolver().read(cp);
                REQUIRE(!cd.clips.empty());
                REQUIRE(iequals(cd.clips[0]->hierarchyName, sk.name));
                REQUIRE(bindClip(sk, *cd.clips[0]).ok());
                ++companions;
            }
            // A clip for another hierarchy in the same folder is refused with both names.
            for (const std::string& other : w3dFiles()) {
                if (std::filesystem::path(other).parent_path() != std::filesystem::path(path).parent_path()) continue;
                w3d::HeaderScan s = w3d::scanHeaders(ByteSpan(readFileBytes(other)));
                if (s.clipHierarchies.empty() || iequals(s.clipHierarchies[0], sk.name)) continue;
                std::vector<uint8_t> bytes = readFileBytes(other);
                w3d::File f = w3d::readFile(ByteSpan(bytes), other);
                ClipBinding b = bindClip(sk, f.clips[0]);
                REQUIRE(!b.ok());
                REQUIRE(b.problems[0].find(sk.name) != std::string::npos);
                REQUIRE(b.problems[0].find(f.clips[0].hierarchyName) != std::string::npos);
                ++refused;
            }
        }
    }
    REQUIRE(paired >= 10);
    REQUIRE(companions >= 10);
    REQUIRE(refused >= 1);
}

TEST_CASE("W3D corpus: truncated and bit-flipped copies load or fail with ParseError", "[w3d][corpus][fuzz]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    std::mt19937 rng(1234);
    size_t runs = 0, errors = 0;
    auto attempt = [&](const std::vector<uint8_t>& bytes, const std::string& path) {
        ++runs;
        try {
            // Full assembly: the hierarchy next to the file is loaded and skins are bound to it.
            Document d = Resolver().read(ByteSpan(bytes), path);
            bool indicesOk = true;
            if (d.model)
                for (const Mesh& m : d.model->meshes)
                    for (const SubMesh& sm : m.subMeshes)
                        for (uint32_t v : sm.indices)
                            indicesOk = indicesOk && v < sm.vertexCount();
            REQUIRE(indicesOk);
        } catch (const ParseError&) {
            ++errors;
        }
    };
    for (const std::string& path : w3dFiles()) {
        INFO(path);
        const std::vector<uint8_t> full = readFileBytes(path);
        for (int i = 1; i <= 24; ++i) {
            std::vector<uint8_t> cut(full.begin(), full.begin() + std::ptrdiff_t(full.size() * i / 25));
            attempt(cut, path);
        }
        for (int i = 0; i < 24; ++i) {
            std::vector<uint8_t> flipped = full;
            for (int k = 0; k < 1 + i % 4; ++k) {
                size_t at = rng() % flipped.size();
                flipped[at] ^= uint8_t(1u << (rng() % 8));
            }
            attempt(flipped, path);
        }
    }
    REQUIRE(runs > 1000);
    REQUIRE(errors > 0);
}

TEST_CASE("W3D corpus: parse throughput", "[w3d][corpus][.perf]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    std::vector<std::vector<uint8_t>> data;
    size_t total = 0;
    for (const std::string& path : w3dFiles()) {
        data.push_back(readFileBytes(path));
        total += data.back().size();
    }
    const int reps = 20;
    auto t0 = std::chrono::steady_clock::now();
    size_t chunks = 0;
    for (int r = 0; r < reps; ++r)
        for (size_t i = 0; i < data.size(); ++i)
            chunks += w3d::readFile(ByteSpan(data[i]), "mem").meshes.size();
    auto t1 = std::chrono::steady_clock::now();
    size_t meshes = 0;
    for (int r = 0; r < reps; ++r)
        for (size_t i = 0; i < data.size(); ++i) {
            w3d::File f = w3d::readFile(ByteSpan(data[i]), "mem");
            for (const w3d::RawMesh& m : f.meshes)
                meshes += w3d::toMesh(m, nullptr, -1, "mem").subMeshes.size();
        }
    auto t2 = std::chrono::steady_clock::now();
    const double parse = std::chrono::duration<double>(t1 - t0).count();
    const double both = std::chrono::duration<double>(t2 - t1).count();
    WARN("W3D readFile (chunks, meshes, clips decoded): "
         << (double(total) * reps / parse / 1e6) << " MB/s; with mesh conversion: "
         << (double(total) * reps / both / 1e6) << " MB/s over " << total << " bytes x " << reps);
    REQUIRE(chunks > 0);
    REQUIRE(meshes > 0);
}
