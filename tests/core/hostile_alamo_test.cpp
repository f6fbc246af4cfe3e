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

#include <functional>

using namespace rs;

namespace {

struct ChunkAt {
    size_t header, begin, end;
    uint32_t type;
    bool container;
    std::string path;
};

uint32_t u32(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + i] = uint8_t(v >> (8 * i));
}

// Every chunk of a well-formed chunk file, depth first.
void walk(const std::vector<uint8_t>& b, size_t begin, size_t end, const std::string& parent,
          std::vector<ChunkAt>& out) {
    for (size_t p = begin; p + 8 <= end;) {
        const uint32_t type = u32(b, p), size = u32(b, p + 4);
        ChunkAt c{p,
                  p + 8,
                  p + 8 + (size & 0x7FFFFFFFu),
                  type,
                  (size & 0x80000000u) != 0,
                  (parent.empty() ? "" : parent + "/") + hex(type)};
        REQUIRE(c.end <= end);
        out.push_back(c);
        if (c.container) walk(b, c.begin, c.end, c.path, out);
        p = c.end;
    }
}

std::vector<ChunkAt> chunks(const std::vector<uint8_t>& b) {
    std::vector<ChunkAt> out;
    walk(b, 0, b.size(), "", out);
    return out;
}

// Mini-chunks (u8 type, u8 size) when a data chunk's payload is exactly a sequence of them.
std::vector<size_t> minis(const std::vector<uint8_t>& b, const ChunkAt& c) {
    std::vector<size_t> at;
    size_t p = c.begin;
    while (p + 2 <= c.end) {
        at.push_back(p);
        p += 2 + b[p + 1];
    }
    if (p != c.end || at.empty()) at.clear();
    return at;
}

struct Sample {
    std::string name;
    std::vector<uint8_t> bytes;
};

std::vector<Sample> samples() {
    return {{"synthetic.alo", alamo::writeModel(test::syntheticModel())},
            {"synthetic205.alo", alamo::writeModel(test::syntheticModel(), {true, true, true, false})},
            {"demo.alo", demo::demoAloBytes()},
            {"synthetic1.ala", alamo::writeClip(test::syntheticClip(), {1})},
            {"synthetic2.ala", alamo::writeClip(test::syntheticClip(), {2})},
            {"demo.ala", demo::demoAlaBytes()}};
}

int patchAll(const Sample& s,
             const std::function<void(const std::vector<uint8_t>&, const ChunkAt&,
                                      std::vector<std::pair<std::string, std::vector<uint8_t>>>&)>& gen,
             int& loaded) {
    int n = 0;
    for (const ChunkAt& c : chunks(s.bytes)) {
        std::vector<std::pair<std::string, std::vector<uint8_t>>> cases;
        gen(s.bytes, c, cases);
        for (const auto& [what, bytes] : cases) {
            ++n;
            if (test::expectLoadsOrRejects(bytes, s.name, s.name + " " + c.path + ": " + what)) ++loaded;
        }
    }
    return n;
}

} // namespace

TEST_CASE("hostile Alamo: chunk sizes past the end of their parent are refused", "[alamo][hostile]") {
    for (const Sample& s : samples()) {
        int loaded = 0;
        const int n = patchAll(
            s,
            [](const std::vector<uint8_t>& b, const ChunkAt& c, auto& cases) {
                for (uint32_t size : {0x7FFFFFF0u, 0x7FFFFFFFu, uint32_t(c.end - c.begin + 1)}) {
                    auto m = b;
                    put32(m, c.header + 4, size | (c.container ? 0x80000000u : 0u));
                    cases.emplace_back("size " + std::to_string(size), std::move(m));
                }
            },
            loaded);
        INFO(s.name);
        REQUIRE(n >= 9);
        // A chunk larger than what is left of its parent (or the file) can never be read.
        CHECK(loaded == 0);
    }
}

TEST_CASE("hostile Alamo: every 32-bit field of small data chunks set to huge or negative values", "[alamo][hostile]") {
    for (const Sample& s : samples()) {
        int loaded = 0;
        const int n = patchAll(
            s,
            [](const std::vector<uint8_t>& b, const ChunkAt& c, auto& cases) {
                if (c.container) return;
                const size_t len = c.end - c.begin, limit = len <= 256 ? len : 16;
                for (size_t off = 0; off + 4 <= limit; off += 4)
                    for (uint32_t v : {0x7FFFFFFFu, 0xFFFFFFFFu, 0x80000000u}) {
                        auto m = b;
                        put32(m, c.begin + off, v);
                        cases.emplace_back("u32 at +" + std::to_string(off) + " = " + hex(v), std::move(m));
                    }
            },
            loaded);
        INFO(s.name << ": " << n << " cases, " << loaded << " loaded");
        REQUIRE(n > 30);
    }
}

TEST_CASE("hostile Alamo: mini-chunk sizes overrunning their chunk", "[alamo][hostile]") {
    for (const Sample& s : samples()) {
        int loaded = 0, withMinis = 0;
        patchAll(
            s,
            [&](const std::vector<uint8_t>& b, const ChunkAt& c, auto& cases) {
                if (c.container) return;
                const auto at = minis(b, c);
                if (at.empty()) return;
                ++withMinis;
                for (size_t p : at)
                    for (uint8_t size : {uint8_t(0xFF), uint8_t(b[p + 1] + 1)}) {
                        auto m = b;
                        m[p + 1] = size;
                        cases.emplace_back("mini at " + std::to_string(p) + " size " + std::to_string(size),
                                           std::move(m));
                    }
            },
            loaded);
        INFO(s.name);
        REQUIRE(withMinis > 0);
    }
}

TEST_CASE("hostile Alamo: self-parented, forward and out-of-range parents are refused", "[alamo][hostile]") {
    for (const Sample& s : samples()) {
        if (s.name.find(".alo") == std::string::npos) continue;
        int bone = 0;
        for (const ChunkAt& c : chunks(s.bytes)) {
            if (c.type != 0x205 && c.type != 0x206) continue;
            for (int32_t parent : {bone, bone + 1, 0x7FFFFFFF, -2, int32_t(0x80000000)}) {
                auto m = s.bytes;
                put32(m, c.begin, uint32_t(parent));
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
    for (const Sample& s : samples()) {
        if (s.name.find(".alo") == std::string::npos) continue;
        size_t bones = 0;
        for (const ChunkAt& c : chunks(s.bytes))
            if (c.type == 0x202) ++bones;
        int entries = 0;
        for (const ChunkAt& c : chunks(s.bytes)) {
            if (c.type != 0x10006) continue;
            for (size_t at = c.begin; at + 4 <= c.end; at += 4, ++entries)
                for (uint32_t v : {uint32_t(bones), 0x7FFFFFFFu, 0xFFFFFFFFu}) {
                    auto m = s.bytes;
                    put32(m, at, v);
                    const std::string what = s.name + " bone map entry at " + std::to_string(at) + " = " + hex(v);
                    INFO(what);
                    CHECK_FALSE(test::expectLoadsOrRejects(m, s.name, what));
                }
        }
        INFO(s.name);
        REQUIRE(entries > 0);
    }
}
