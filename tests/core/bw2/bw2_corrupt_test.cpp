// Bad input: truncation and bit flips never crash; hostile headers fail with file + offset.
#include "bw2_fixtures.h"
#include "corpus.h"

#include "format_catch.h"
#include "resolve/resolver.h"

#include <catch2/catch.hpp>

#include <random>

using namespace rs;
using namespace rs::bw2;
using namespace rs::test::bw2fx;

namespace {

void patchU32(std::vector<uint8_t>& b, size_t o, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[o + size_t(i)] = uint8_t(v >> (8 * i));
}
uint32_t u32At(const std::vector<uint8_t>& b, size_t o) {
    return uint32_t(b[o]) | uint32_t(b[o + 1]) << 8 | uint32_t(b[o + 2]) << 16 | uint32_t(b[o + 3]) << 24;
}

// Loads; returns true on success, false on ParseError. Anything else fails the test.
bool loads(const std::vector<uint8_t>& b, const std::string& name) {
    try {
        Document d = Resolver().read(ByteSpan(b.data(), b.size()), name);
        return true;
    } catch (const ParseError& e) {
        REQUIRE(e.file() == name);
        REQUIRE(e.offset() <= b.size());
        return false;
    }
}

void tortureFile(const std::vector<uint8_t>& bytes, const std::string& name, int flips) {
    REQUIRE(loads(bytes, name));
    // Truncation: every byte of the first 0x400, then ~256 points over the rest.
    std::vector<size_t> cuts;
    for (size_t i = 0; i < std::min<size_t>(bytes.size(), 0x400); ++i)
        cuts.push_back(i);
    for (size_t i = 0x400; i < bytes.size(); i += std::max<size_t>(1, bytes.size() / 256))
        cuts.push_back(i);
    cuts.push_back(bytes.size() - 1);
    for (size_t cut : cuts) {
        std::vector<uint8_t> t(bytes.begin(), bytes.begin() + long(cut));
        loads(t, name);
    }
    // Random bit flips (fixed seed: reproducible).
    std::mt19937 rng(1234);
    for (int i = 0; i < flips; ++i) {
        std::vector<uint8_t> t = bytes;
        int n = 1 + int(rng() % 8);
        for (int k = 0; k < n; ++k) {
            // Half the flips hit the headers, where counts and offsets live.
            size_t limit = (rng() & 1) ? std::min<size_t>(t.size(), 0x900) : t.size();
            t[rng() % limit] ^= uint8_t(1u << (rng() % 8));
        }
        loads(t, name);
    }
}

template <class F>
void requireError(const std::vector<uint8_t>& b, const std::string& name, uint64_t offset, const char* text, F&& load) {
    try {
        load(b, name);
        FAIL("accepted hostile input: " << text);
    } catch (const ParseError& e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find(name) != std::string::npos);
        CHECK(e.offset() == offset);
        CHECK(std::string(e.what()).find(text) != std::string::npos);
    }
}

auto loadDoc = [](const std::vector<uint8_t>& b, const std::string& name) { Resolver().read(ByteSpan(b), name); };

} // namespace

TEST_CASE("bw2 corpus files survive truncation and bit flips", "[bw2][corpus][corrupt]") {
    RIGSCOPE_REQUIRE_CORPUS("bw2");
    for (const auto& path : rs::test::corpusFiles("bw2", {".bwm"})) {
        INFO(path);
        tortureFile(readFileBytes(path), "corpus.bwm", 300);
    }
}

TEST_CASE("bw2 synthetic files survive truncation and bit flips", "[bw2][corrupt]") {
    tortureFile(writeBwm(staticModel(6)), "static.bwm", 400);
    tortureFile(writeBwm(staticModel(5)), "static5.bwm", 200);
    for (SkinLayout l : {SkinLayout::U8PerIndex, SkinLayout::U32PerIndex, SkinLayout::U8x4Packed})
        tortureFile(writeBwm(skinModel(l)), "skin.bwm", 300);
    tortureFile(writeAl(library()), "lib.al", 600);
}

TEST_CASE("bwm hostile headers fail naming file and offset", "[bw2][corrupt]") {
    const std::vector<uint8_t> good = writeBwm(staticModel(6));
    {
        auto b = good;
        patchU32(b, 0x7C, 0x7FFFFFFF); // materials
        requireError(b, "hostile.bwm", 0xB8, "material count", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, 0x80, 0x7FFFFFFF); // mesh descriptions
        requireError(b, "hostile.bwm", 0xB8 + 2 * kBwmMaterialSize, "mesh description count", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, 0xA8, 0x7FFFFFFF); // vertices: references now fit, the vertex data does not
        const size_t dataAt = 0x38 + u32At(b, 0x34);
        requireError(b, "hostile.bwm", dataAt, "vertex count", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, 0xB4, 0x7FFFFFFF); // indices
        BwmFile f = staticModel(6);
        const size_t indicesAt = 0x38 + u32At(b, 0x34) + f.positions.size() * f.strides[0].size();
        requireError(b, "hostile.bwm", indicesAt, "index count", loadDoc);
    }
    {
        auto b = good;
        const size_t refAt = 0xB8 + 2 * kBwmMaterialSize + 2 * kBwmMeshSize;
        patchU32(b, refAt + 4, 0x7FFFFFF0); // index offset of the first material reference
        requireError(b, "hostile.bwm", refAt + 4, "past the", loadDoc);
        b = good;
        patchU32(b, refAt, 9); // material index
        requireError(b, "hostile.bwm", refAt, "material 9 out of range", loadDoc);
    }
    {
        // Many references over the same vertices: bounded instead of copied 70000 times.
        BwmFile f = staticModel(6);
        f.meshes[0].refs.assign(70000, f.meshes[0].refs[0]);
        auto b = writeBwm(f);
        requireError(b, "hostile.bwm", 0xB8 + 2 * kBwmMaterialSize + 2 * kBwmMeshSize, "more than 8 times", loadDoc);
    }
    {
        // A vertex index outside its reference.
        BwmFile f = staticModel(6);
        f.indices[4] = 8;
        auto b = writeBwm(f);
        const size_t indicesAt = 0x38 + u32At(b, 0x34) + f.positions.size() * f.strides[0].size();
        requireError(b, "hostile.bwm", indicesAt + 2 * 4, "vertex index 8 outside", loadDoc);
    }
    {
        // Bone index out of range with a non-zero weight.
        BwmFile f = skinModel(SkinLayout::U8PerIndex);
        f.boneIndices[4][1] = 200; // vertex 4 has weights (.5, .5)
        auto b = writeBwm(f);
        // Second index stride: after stride 0 (8 x 32 bytes) and the first index stride (8 x 1 byte).
        const size_t at = 0x38 + u32At(b, 0x34) + 8 * f.strides[0].size() + 8 + 4;
        requireError(b, "hostile.bwm", at, "bone index 200 out of range", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, 0x30, 4);
        requireError(b, "hostile.bwm", 0x30, "unsupported version", loadDoc);
        b = good;
        patchU32(b, 0xB0, 7);
        requireError(b, "hostile.bwm", 0xB0, "unknown model type", loadDoc);
    }
}

TEST_CASE("al hostile headers fail naming file and offset", "[bw2][corrupt]") {
    const std::vector<uint8_t> good = writeAl(library());
    {
        auto b = good;
        patchU32(b, 0x48, 0x7FFFFFFF);
        requireError(b, "hostile.al", 0x48, "metadata offset", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, 0x54, 0x7FFFFFFF);
        requireError(b, "hostile.al", 0x54, "animation count", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, 0x60, 0x7FFFFFFF); // bone count
        requireError(b, "hostile.al", 0x68, "bone count", loadDoc);
    }
    {
        auto b = good;
        const size_t parentAt = 0x60 + 8 + 2 * kAlBoneSize + 32;
        patchU32(b, parentAt, 2); // bone 2 its own parent
        requireError(b, "hostile.al", parentAt, "its own parent", loadDoc);
        patchU32(b, parentAt, 3); // a later bone
        requireError(b, "hostile.al", parentAt, "not an earlier bone", loadDoc);
    }
    const size_t metaAt = 0x60 + u32At(good, 0x48);
    {
        auto b = good;
        patchU32(b, metaAt + kAlAnimHeaderSize, 0x7FFFFFF0); // first animation's offset
        requireError(b, "hostile.al", metaAt + kAlAnimHeaderSize, "past the end", loadDoc);
    }
    const size_t animAt = u32At(good, metaAt + kAlAnimHeaderSize);
    {
        auto b = good;
        patchU32(b, animAt + 0x5C, 0x7FFFFFFF); // event count
        requireError(b, "hostile.al", animAt + kAlAnimHeaderSize, "event count", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, animAt + kAlAnimHeaderSize + 4, 0x7FFFFFFF); // first event's name offset
        requireError(b, "hostile.al", animAt + kAlAnimHeaderSize + 4, "outside the event strings", loadDoc);
    }
    {
        auto b = good;
        patchU32(b, animAt + 0x64, 0x7FFFFFFF); // frame count: the offset block cannot hold it
        // Offset block of animation 0: after the header, 2 events, 45 bytes of strings, the unknown block (16 + 4).
        const size_t offsetBlockAt = animAt + kAlAnimHeaderSize + 2 * kAlEventSize + 45 + 16 + 4;
        requireError(b, "hostile.al", offsetBlockAt, "offset block", loadDoc);
    }
}
