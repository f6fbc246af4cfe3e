// Hostile headers for the W3D reader, built from the project's W3D writer output with patched fields:
// chunk sizes past their parent, every 32-bit field of small data chunks set to huge/negative values,
// self-parented / forward / out-of-range pivot parents, skin vertex influences naming missing pivots.
// Each case must throw ParseError (file + offset) or load data that keeps the contracts (hostile.h).
#include "hostile.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

using namespace rs;
using namespace rs::w3d;
using test::ChunkAt;

namespace {

std::vector<uint8_t> skinFile() {
    ChunkWriter cw;
    writeHierarchy(cw, test::testHierarchy());
    RawMesh quad = test::testQuad("QUAD", "UNIT");
    writeMesh(cw, quad);
    RawMesh skin = test::testQuad("SKIN", "UNIT");
    skin.attributes = 0x00020000; // skin
    skin.influences = {{2, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}, {2, 3, 30, 70}};
    writeMesh(cw, skin);
    Box box;
    box.name = "UNIT.BOX";
    box.extent = {1, 1, 1};
    writeBox(cw, box);
    Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    LodArray lod;
    lod.maxScreenSize = 1.0f;
    lod.objects = {{1, "UNIT.QUAD"}, {0, "UNIT.SKIN"}, {2, "UNIT.BOX"}};
    h.lods = {lod};
    writeHlod(cw, h);
    return cw.take();
}

// A clip in `codec` animating pivots 1..3 (X translation and rotation) over 20 frames, hierarchy embedded.
std::vector<uint8_t> clipFile(ClipCodec codec) {
    ChunkWriter cw;
    writeHierarchy(cw, test::testHierarchy());
    ClipSpec s;
    s.name = "CLIP";
    s.hierarchy = "TEST_SKL";
    s.frames = 20;
    s.codec = codec;
    const bool motion =
        codec == ClipCodec::MotionTimecoded || codec == ClipCodec::MotionDelta4 || codec == ClipCodec::MotionDelta8;
    s.version = codec == ClipCodec::Uncompressed ? 0x40001 : (motion ? 0x10000 : 0x1);
    const bool keyed = codec == ClipCodec::Timecoded || codec == ClipCodec::MotionTimecoded;
    for (uint16_t pivot = 1; pivot <= 3; ++pivot) {
        ChannelSpec x, q;
        x.pivot = q.pivot = pivot;
        x.type = 0;
        q.type = 6;
        const uint32_t n = keyed ? 3 : s.frames;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t f = keyed ? i * 9 + (i == 2 ? 1 : 0) : i; // keys at 0, 9, 19
            if (keyed) {
                x.keyFrames.push_back(f);
                q.keyFrames.push_back(f);
                x.binary.push_back(0);
                q.binary.push_back(0);
            }
            x.values.push_back(0.1f * float(f) * float(pivot));
            const glm::quat r = glm::angleAxis(0.05f * float(f), glm::vec3(0, 0, 1));
            q.values.insert(q.values.end(), {r.x, r.y, r.z, r.w});
        }
        s.channels.push_back(x);
        s.channels.push_back(q);
    }
    if (codec == ClipCodec::Uncompressed || codec == ClipCodec::Timecoded) {
        BitChannelSpec v;
        v.pivot = 2;
        if (codec == ClipCodec::Uncompressed) {
            v.bits.assign(s.frames, 1);
            v.bits[7] = 0;
        } else {
            v.keyFrames = {0, 7, 12};
            v.bits = {1, 0, 1};
        }
        s.bitChannels.push_back(v);
    }
    writeClip(cw, s);
    return cw.take();
}

std::vector<test::Sample> samples() {
    std::vector<test::Sample> out = {{"unit.w3d", skinFile()}};
    const std::pair<ClipCodec, const char*> codecs[] = {
        {ClipCodec::Uncompressed, "uncompressed"}, {ClipCodec::Timecoded, "timecoded"},
        {ClipCodec::AdaptiveDelta, "adaptive"},    {ClipCodec::MotionTimecoded, "motion_tc"},
        {ClipCodec::MotionDelta4, "motion_d4"},    {ClipCodec::MotionDelta8, "motion_d8"}};
    for (const auto& [codec, name] : codecs)
        out.push_back({std::string(name) + ".w3d", clipFile(codec)});
    return out;
}

} // namespace

TEST_CASE("hostile W3D: the samples load as written", "[w3d][hostile]") {
    for (const test::Sample& s : samples()) {
        INFO(s.name);
        REQUIRE(test::expectLoadsOrRejects(s.bytes, s.name, "unchanged"));
        const Document d = Resolver().read(ByteSpan(s.bytes), s.name);
        REQUIRE(d.model);
        REQUIRE(d.model->skeleton.bones.size() == 4);
        if (s.name != "unit.w3d") {
            REQUIRE(d.clips.size() == 1);
            REQUIRE(d.clips[0]->frameCount == 20);
        }
    }
}

TEST_CASE("hostile W3D: chunk sizes past the end of their parent are refused", "[w3d][hostile]") {
    for (const test::Sample& s : samples()) {
        int loaded = 0;
        const int n = test::patchChunks(s, test::chunkSizeCases, loaded);
        INFO(s.name << ": " << n << " cases, " << loaded << " loaded");
        REQUIRE(n >= 9);
        // A chunk running past the end of the file is read as truncated (real files are; NOTES.md) and
        // must say so in a warning; past the end of its parent chunk it is refused.
        for (const ChunkAt& c : test::chunks(s.bytes)) {
            auto m = s.bytes;
            test::put32(m, c.header + 4, 0x7FFFFFF0u | (c.container ? 0x80000000u : 0u));
            bool l = false;
            REQUIRE(test::tryLoad(m, s.name, l).empty());
            if (!l) continue;
            const Document d = Resolver().read(ByteSpan(m), s.name);
            std::vector<std::string> w = d.warnings;
            if (d.model) w.insert(w.end(), d.model->warnings.begin(), d.model->warnings.end());
            for (const auto& clip : d.clips)
                w.insert(w.end(), clip->warnings.begin(), clip->warnings.end());
            bool said = false;
            for (const std::string& x : w)
                said = said || x.find("truncated") != std::string::npos;
            INFO(c.path << " with size 0x7FFFFFF0 loaded");
            CHECK(said);
        }
    }
}

TEST_CASE("hostile W3D: every 32-bit field of small data chunks set to huge or negative values", "[w3d][hostile]") {
    for (const test::Sample& s : samples()) {
        int loaded = 0;
        const int n = test::patchChunks(s, test::u32FieldCases, loaded);
        INFO(s.name << ": " << n << " cases, " << loaded << " loaded");
        REQUIRE(n > 50);
    }
}

TEST_CASE("hostile W3D: self-parented, forward and out-of-range pivot parents are refused", "[w3d][hostile]") {
    const test::Sample s = samples()[0];
    int pivots = 0;
    for (const ChunkAt& c : test::chunks(s.bytes)) {
        if (c.id != 0x102) continue; // pivots: 60 bytes each, u32 parent at +16
        REQUIRE((c.end - c.begin) % 60 == 0);
        for (size_t at = c.begin; at < c.end; at += 60, ++pivots)
            for (uint32_t parent : {uint32_t(pivots), uint32_t(pivots + 1), 0x7FFFFFFFu, 0xFFFFFFFEu}) {
                if (pivots == 0) continue; // the root pivot's parent is ignored by the game (always -1)
                auto m = s.bytes;
                test::put32(m, at + 16, parent);
                const std::string what = "pivot " + std::to_string(pivots) + " parent " + hex(parent);
                INFO(what);
                const bool loaded = test::expectLoadsOrRejects(m, s.name, what);
                if (parent == uint32_t(pivots) || parent >= 0x7FFFFFFFu) CHECK_FALSE(loaded);
            }
    }
    REQUIRE(pivots == 4);
}

// The engine indexes its pivot array unchecked for such vertices; rigscope binds them to the root (issue 33).
TEST_CASE("hostile W3D: skin influences naming missing pivots load, bound to the root", "[w3d][hostile]") {
    const test::Sample s = samples()[0];
    int influences = 0;
    for (const ChunkAt& c : test::chunks(s.bytes)) {
        if (c.id != 0xE) continue; // vertex influences: u16 bone, u16 bone2, u16 weight, u16 weight2
        for (size_t at = c.begin; at + 8 <= c.end; at += 8, ++influences)
            for (uint16_t bone : {uint16_t(4), uint16_t(0x7FFF), uint16_t(0xFFFF)}) {
                auto m = s.bytes;
                m[at] = uint8_t(bone);
                m[at + 1] = uint8_t(bone >> 8);
                const std::string what = "influence at " + std::to_string(at) + " bone " + std::to_string(bone);
                INFO(what);
                CHECK(test::expectLoadsOrRejects(m, s.name, what));
            }
    }
    REQUIRE(influences == 4);
}
