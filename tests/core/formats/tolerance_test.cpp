// Irregular files the games load (issue 33): read as the engine reads them, with one warning naming the file,
// the chunk path and the offset; what the engine cannot read stays refused with a precise message. Fixtures
// come from the project's writers (w3d_writer.h, particle_writer.h).
#include "alamo/particle_reader.h"
#include "alamo/particle_writer.h"
#include "common/error.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "particle_fixtures.h"
#include "w3d/w3d_chunks.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace rs;
using namespace rs::w3d;
using rs::test::testHierarchy;
using rs::test::testQuad;

namespace {

size_t chunkAt(const std::vector<uint8_t>& b, size_t from, size_t end, uint32_t want) {
    for (size_t p = from; p + 8 <= end;) {
        uint32_t cid, size;
        std::memcpy(&cid, b.data() + p, 4);
        std::memcpy(&size, b.data() + p + 4, 4);
        if (cid == want) return p;
        p += 8 + (size & 0x7FFFFFFFu);
    }
    FAIL("chunk " << want << " not found");
    return 0;
}

bool hasWarning(const std::vector<std::string>& w, std::initializer_list<std::string> parts) {
    for (const std::string& s : w) {
        bool all = true;
        for (const std::string& p : parts)
            all = all && s.find(p) != std::string::npos;
        if (all) return true;
    }
    return false;
}

std::string joined(const std::vector<std::string>& w) {
    std::string s;
    for (const std::string& x : w)
        s += x + "\n";
    return s;
}

// Hierarchy TEST_SKL, five quads A..E of container UNIT, an HLOD placing them at pivots 1, 2, 3, 0, 2 (E is
// the fifth). With staleSize the HLOD's stored size is the one it had with four sub-objects.
struct HlodFile {
    std::vector<uint8_t> bytes;
    size_t hlodAt = 0, lodArrayAt = 0;
};

HlodFile fiveSubObjects(bool staleSize, bool boxAfter = false) {
    ChunkWriter cw;
    writeHierarchy(cw, testHierarchy());
    for (const char* n : {"A", "B", "C", "D", "E"})
        writeMesh(cw, testQuad(n, "UNIT"));
    Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "UNIT.A"}, {2, "UNIT.B"}, {3, "UNIT.C"}, {0, "UNIT.D"}, {2, "UNIT.E"}};
    h.lods = {lod};
    const size_t hlodAt = cw.w.buf.size();
    writeHlod(cw, h);
    if (boxAfter) {
        Box b;
        b.name = "UNIT.AFTER";
        writeBox(cw, b);
    }
    HlodFile f;
    f.bytes = cw.take();
    f.hlodAt = hlodAt;
    uint32_t size;
    std::memcpy(&size, f.bytes.data() + hlodAt + 4, 4);
    size &= 0x7FFFFFFFu;
    f.lodArrayAt = chunkAt(f.bytes, hlodAt + 8, hlodAt + 8 + size, id::HlodLodArray);
    if (staleSize) setStoredSize(f.bytes, hlodAt, size - (8 + 36)); // one 0x704 (8 + 36 bytes) less
    return f;
}

const Mesh& meshNamed(const Model& m, const std::string& name) {
    for (const Mesh& x : m.meshes)
        if (x.name == name) return x;
    FAIL("no mesh " << name);
    return m.meshes.front();
}

} // namespace

TEST_CASE("W3D: an HLOD shorter than its LOD array is read by the array's size, as ww3d2 does", "[w3d][tolerance]") {
    const HlodFile f = fiveSubObjects(true);
    const Document d = Resolver().read(ByteSpan(f.bytes), "stale_hlod.w3d");
    REQUIRE(d.model);
    const Model& m = *d.model;
    INFO(joined(m.warnings));
    REQUIRE(m.meshes.size() == 5);
    // The fifth sub-object, which lies past the HLOD's stored end, is placed at its pivot.
    REQUIRE(meshNamed(m, "E").bone == 2);
    REQUIRE(meshNamed(m, "C").bone == 3);
    REQUIRE(hasWarning(m.warnings, {"stale_hlod.w3d", "chunk 0x700/0x702", "at offset " + std::to_string(f.lodArrayAt),
                                    "exceeds the"}));
    // The same file with the right size reads the same, without that warning.
    const HlodFile ok = fiveSubObjects(false);
    const Document d2 = Resolver().read(ByteSpan(ok.bytes), "hlod.w3d");
    REQUIRE(d2.model->meshes.size() == 5);
    REQUIRE(meshNamed(*d2.model, "E").bone == 2);
    REQUIRE_FALSE(hasWarning(d2.model->warnings, {"exceeds the"}));
}

TEST_CASE("W3D: chunks after an overrun are read as the overrun parent's children, as ww3d2 does", "[w3d][tolerance]") {
    // ChunkLoadClass ends a parent only when its children's sizes add up to it: after the LOD array the HLOD
    // reads on to the end of the file, so the box after it is one of its (ignored) children, not an object.
    const HlodFile f = fiveSubObjects(true, true);
    const Document d = Resolver().read(ByteSpan(f.bytes), "stale_hlod_box.w3d");
    const Model& m = *d.model;
    INFO(joined(m.warnings));
    REQUIRE(m.meshes.size() == 5);
    REQUIRE(hasWarning(m.warnings, {"stale_hlod_box.w3d", "chunk 0x700/0x740", "past the end of its parent 0x700"}));
    for (const Marker& mk : m.markers)
        REQUIRE(mk.name != "AFTER");
}

TEST_CASE("W3D: a chunk past its parent's end and the file's end stays refused", "[w3d][tolerance]") {
    HlodFile f = fiveSubObjects(true);
    setStoredSize(f.bytes, f.lodArrayAt, uint32_t(f.bytes.size())); // the LOD array now runs past the file
    try {
        Resolver().read(ByteSpan(f.bytes), "overrun.w3d");
        FAIL("no ParseError");
    } catch (const ParseError& e) {
        REQUIRE(e.chunkPath() == "0x700/0x702");
        REQUIRE(e.offset() == f.lodArrayAt);
        REQUIRE(e.message().find("exceeds the") != std::string::npos);
    }
}

TEST_CASE("W3D: skin vertices on a pivot past the hierarchy follow the root, with one warning", "[w3d][tolerance]") {
    ChunkWriter cw;
    writeHierarchy(cw, testHierarchy()); // 4 pivots
    RawMesh skin = testQuad("SKIN", "UNIT");
    skin.attributes = 0x00020000;
    skin.influences = {{4, 0, 0, 0}, {2, 0, 0, 0}, {40, 0, 0, 0}, {3, 0, 0, 0}}; // vertices 0 and 2 past the end
    writeMesh(cw, skin);
    Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{0, "UNIT.SKIN"}};
    h.lods = {lod};
    writeHlod(cw, h);
    const std::vector<uint8_t> b = cw.take();
    const size_t meshAt = chunkAt(b, 0, b.size(), id::Mesh);
    const Document d = Resolver().read(ByteSpan(b), "skin_past.w3d");
    const Model& m = *d.model;
    INFO(joined(m.warnings));
    const SubMesh& sm = meshNamed(m, "SKIN").subMeshes.at(0);
    REQUIRE(sm.skinned());
    auto pivotOf = [&](size_t v) { return sm.boneMap.at(sm.boneIndices.at(v).x); };
    REQUIRE(pivotOf(0) == 0);
    REQUIRE(pivotOf(1) == 2);
    REQUIRE(pivotOf(2) == 0);
    REQUIRE(pivotOf(3) == 3);
    REQUIRE(hasWarning(m.warnings, {"skin_past.w3d", "chunk 0x0 at offset " + std::to_string(meshAt),
                                    "vertex 0 uses pivot 4 but hierarchy TEST_SKL has 4", "2 of 4 vertices"}));
    // toMesh without a warning list keeps refusing.
    File raw = readFile(ByteSpan(b), "skin_past.w3d");
    const Skeleton sk = toSkeleton(raw.hierarchies.at(0));
    REQUIRE_THROWS_AS(toMesh(raw.meshes.at(0), &sk, -1, "skin_past.w3d"), ParseError);
}

TEST_CASE("W3D: HLOD sub-objects on a pivot past the hierarchy go to the root; aggregates are left out",
          "[w3d][tolerance]") {
    ChunkWriter cw;
    writeHierarchy(cw, testHierarchy()); // 4 pivots
    writeMesh(cw, testQuad("DOORL", "FORGE"));
    writeMesh(cw, testQuad("BASE", "FORGE"));
    Hlod h;
    h.name = "FORGE";
    h.hierarchy = "TEST_SKL";
    LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{4, "FORGE.DOORL"}, {1, "FORGE.BASE"}};
    h.lods = {lod};
    h.aggregates = {{9, "FX_SMOKE"}, {3, "FX_FIRE"}};
    writeHlod(cw, h);
    const std::vector<uint8_t> b = cw.take();
    const Document d = Resolver().read(ByteSpan(b), "forge.w3d");
    const Model& m = *d.model;
    INFO(joined(m.warnings));
    REQUIRE(meshNamed(m, "DOORL").bone == 0);
    REQUIRE(meshNamed(m, "BASE").bone == 1);
    size_t aggregates = 0;
    for (const Marker& mk : m.markers)
        if (mk.kind == "aggregate") {
            ++aggregates;
            REQUIRE(mk.name == "FX_FIRE");
        }
    REQUIRE(aggregates == 1);
    REQUIRE(hasWarning(m.warnings, {"forge.w3d", "sub-objects attached to a pivot past the 4 of hierarchy TEST_SKL",
                                    "FORGE.DOORL (pivot 4) in chunk 0x700/0x702/0x704 at offset"}));
    REQUIRE(hasWarning(m.warnings, {"forge.w3d", "aggregates", "left out", "FX_SMOKE (pivot 9)"}));
}

TEST_CASE("W3D: an HLOD proxy on a pivot past the hierarchy stays refused", "[w3d][tolerance]") {
    ChunkWriter cw;
    writeHierarchy(cw, testHierarchy());
    writeMesh(cw, testQuad("BASE", "FORGE"));
    Hlod h;
    h.name = "FORGE";
    h.hierarchy = "TEST_SKL";
    LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "FORGE.BASE"}};
    h.lods = {lod};
    h.proxies = {{12, "PROXY_FIRE"}};
    writeHlod(cw, h);
    const std::vector<uint8_t> b = cw.take();
    REQUIRE_THROWS_WITH(Resolver().read(ByteSpan(b), "proxy.w3d"),
                        Catch::Contains("proxy PROXY_FIRE is attached to pivot 12 but hierarchy TEST_SKL has 4"));
}

TEST_CASE("Alamo particles: a property mini-chunk given twice keeps its last value", "[alamo][particles][tolerance]") {
    ParticleSystem sys;
    sys.name = "twice";
    ParticleEmitter e = test::pointEmitter("BurnBlue", 1.0f);
    e.params.inwardAcceleration = 1.0f; // written in the editor's order
    ParticleUnknown again;              // written after every known property: 0x0B a second time
    again.chunk = 0x02;
    again.mini = 0x0B;
    const float last = 3.5f;
    again.bytes.resize(4);
    std::memcpy(again.bytes.data(), &last, 4);
    e.unknown = {again};
    sys.emitters = {e};
    const std::vector<uint8_t> b = alamo::writeParticleSystem(sys);
    const ParticleSystem r = alamo::readParticleSystem(ByteSpan(b), "twice.alo");
    INFO(joined(r.warnings));
    REQUIRE(r.emitters.size() == 1);
    REQUIRE(r.emitters[0].params.inwardAcceleration == 3.5f);
    REQUIRE(hasWarning(r.warnings,
                       {"twice.alo", "repeated", "last value", "0xB in chunk 0x900/0x800/0x700/0x2", "at offset"}));
}

TEST_CASE("Alamo particles: a repeated emitter chunk stays refused", "[alamo][particles][tolerance]") {
    ParticleSystem sys;
    sys.name = "twice";
    ParticleEmitter e = test::pointEmitter("E", 1.0f);
    ParticleUnknown tex; // a second colour texture chunk 0x03 (alo-viewer's reader stops on it too)
    tex.chunk = 0x03;
    tex.bytes = {'a', '.', 't', 'g', 'a', 0};
    e.unknown = {tex};
    sys.emitters = {e};
    const std::vector<uint8_t> b = alamo::writeParticleSystem(sys);
    REQUIRE_THROWS_WITH(alamo::readParticleSystem(ByteSpan(b), "twice.alo"), Catch::Contains("appears twice"));
}

TEST_CASE("A Shockwave 3D file named .w3d is refused as what it is, whatever its size", "[w3d][tolerance]") {
    namespace fs = std::filesystem;
    const fs::path p = fs::temp_directory_path() / ("rigscope_ifx_" + std::to_string(::getpid()) + ".w3d");
    {
        std::ofstream o(p, std::ios::binary);
        std::string bytes = "IFX";
        bytes.resize(16756, '\0');
        o << bytes;
    }
    try {
        readInputFile(p.string());
        fs::remove(p);
        FAIL("no ParseError");
    } catch (const ParseError& e) {
        fs::remove(p);
        REQUIRE(e.message().find("Shockwave 3D (Macromedia Director / Intel IFX)") != std::string::npos);
        REQUIRE(e.message().find("larger than") == std::string::npos);
    }
}
