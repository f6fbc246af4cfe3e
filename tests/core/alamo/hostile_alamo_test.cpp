// Hostile headers for the Alamo readers, built from the project's writer output with patched fields:
// every chunk size past its parent, every 32-bit field of every small data chunk set to 0x7FFFFFFF /
// 0xFFFFFFFF / 0x80000000, every mini-chunk size overrun, self-parented and out-of-range parents, bone map
// entries out of range. Each case must throw ParseError (file + offset) or load a model/clip that keeps the
// contracts, within bounded heap and time (hostile.h).
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "demo/demo_model.h"
#include "hostile.h"

#include <catch2/catch.hpp>

using namespace rs;
using test::ChunkAt;

namespace {

std::vector<test::Sample> samples() {
    return {{"synthetic.alo", alamo::writeModel(test::syntheticModel())},
            {"synthetic205.alo", alamo::writeModel(test::syntheticModel(), {true, true, true, false})},
            {"demo.alo", demo::demoAloBytes()},
            {"synthetic1.ala", alamo::writeClip(test::syntheticClip(), {1})},
            {"synthetic2.ala", alamo::writeClip(test::syntheticClip(), {2})},
            {"demo.ala", demo::demoAlaBytes()}};
}

} // namespace

TEST_CASE("hostile Alamo: chunk sizes past the end of their parent are refused", "[alamo][hostile]") {
    for (const test::Sample& s : samples()) {
        int loaded = 0;
        const int n = test::patchChunks(s, test::chunkSizeCases, loaded);
        INFO(s.name);
        REQUIRE(n >= 9);
        // A chunk larger than what is left of its parent (or the file) can never be read.
        CHECK(loaded == 0);
    }
}

TEST_CASE("hostile Alamo: every 32-bit field of small data chunks set to huge or negative values", "[alamo][hostile]") {
    for (const test::Sample& s : samples()) {
        int loaded = 0;
        const int n = test::patchChunks(s, test::u32FieldCases, loaded);
        INFO(s.name << ": " << n << " cases, " << loaded << " loaded");
        REQUIRE(n > 30);
    }
}

TEST_CASE("hostile Alamo: mini-chunk sizes overrunning their chunk", "[alamo][hostile]") {
    for (const test::Sample& s : samples()) {
        int loaded = 0;
        const int n = test::patchChunks(s, test::miniSizeCases, loaded);
        INFO(s.name);
        REQUIRE(n > 0);
    }
}

TEST_CASE("hostile Alamo: self-parented, forward and out-of-range parents are refused", "[alamo][hostile]") {
    for (const test::Sample& s : samples()) {
        if (s.name.find(".alo") == std::string::npos) continue;
        int bone = 0;
        for (const ChunkAt& c : test::chunks(s.bytes)) {
            if (c.id != 0x205 && c.id != 0x206) continue;
            for (int32_t parent : {bone, bone + 1, 0x7FFFFFFF, -2, int32_t(0x80000000)}) {
                auto m = s.bytes;
                test::put32(m, c.begin, uint32_t(parent));
                const std::string what = s.name + " bone " + std::to_string(bone) + " parent " + std::to_string(parent);
                const bool loaded = test::expectLoadsOrRejects(m, s.name, what);
                // Readers may reorder forward references, never accept a bone as its own ancestor.
                INFO(what);
                if (parent == bone || parent == 0x7FFFFFFF || parent < -1) CHECK_FALSE(loaded);
            }
            ++bone;
        }
        INFO(s.name);
        REQUIRE(bone >= 3);
    }
}

TEST_CASE("hostile Alamo: bone map entries out of range are refused", "[alamo][hostile]") {
    for (const test::Sample& s : samples()) {
        if (s.name.find(".alo") == std::string::npos) continue;
        size_t bones = 0;
        for (const ChunkAt& c : test::chunks(s.bytes))
            if (c.id == 0x202) ++bones;
        int entries = 0;
        for (const ChunkAt& c : test::chunks(s.bytes)) {
            if (c.id != 0x10006) continue;
            for (size_t at = c.begin; at + 4 <= c.end; at += 4, ++entries)
                for (uint32_t v : {uint32_t(bones), 0x7FFFFFFFu, 0xFFFFFFFFu}) {
                    auto m = s.bytes;
                    test::put32(m, at, v);
                    const std::string what = s.name + " bone map entry at " + std::to_string(at) + " = " + hex(v);
                    INFO(what);
                    CHECK_FALSE(test::expectLoadsOrRejects(m, s.name, what));
                }
        }
        INFO(s.name);
        REQUIRE(entries > 0);
    }
}
