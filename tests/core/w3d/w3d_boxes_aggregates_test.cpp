// W3D boxes (0x740) as ww3d2 makes them (boxrobj.cpp: W3D_BOX_ATTRIBUTE_ALIGNED gives an AABoxRenderObjClass,
// anything else an OBBoxRenderObjClass) and aggregates (0x600) whose sub-objects live in other files; writer-made
// files.
#include "resolve/resolver.h"
#include "w3d/w3d_aggregate.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace rs;
using namespace rs::w3d;

namespace {

Box makeBox(const std::string& name, uint32_t attributes, glm::u8vec3 color, glm::vec3 center, glm::vec3 extent) {
    Box b;
    b.version = 0x10000;
    b.attributes = attributes;
    b.name = name;
    b.color = color;
    b.center = center;
    b.extent = extent;
    return b;
}

const Marker* markerNamed(const Model& m, const std::string& name) {
    for (const Marker& mk : m.markers)
        if (mk.name == name) return &mk;
    return nullptr;
}

} // namespace

TEST_CASE("W3D boxes: the AABox attribute, colour, centre and extent reach the marker; placed by the HLOD",
          "[w3d][boxes]") {
    ChunkWriter cw;
    writeHierarchy(cw, test::testHierarchy());
    // Attributes: 2 = W3D_BOX_ATTRIBUTE_ALIGNED, 1 = ORIENTED; 0x10 a collision-type bit (physical) besides.
    writeBox(cw, makeBox("UNIT.AABOX", 2u | 0x10u, {255, 0, 255}, {0.5f, 0, 0}, {1, 2, 3}));
    writeBox(cw, makeBox("UNIT.OBBOX", 1u, {255, 255, 0}, {0, 0.25f, 0}, {0.5f, 0.5f, 0.5f}));
    writeBox(cw, makeBox("LOOSE.BOX", 0u, {0, 0, 0}, {0, 0, 1}, {1, 1, 1}));
    writeHlod(cw, test::oneLodHlod("UNIT", "TEST_SKL", {{1, "UNIT.AABOX"}, {3, "UNIT.OBBOX"}}));
    const std::vector<uint8_t> bytes = cw.take();
    const Document d = loadSet(ByteSpan(bytes), "boxes.w3d");
    REQUIRE(d.model);
    const Marker* aa = markerNamed(*d.model, "AABOX");
    const Marker* ob = markerNamed(*d.model, "OBBOX");
    const Marker* loose = markerNamed(*d.model, "BOX");
    REQUIRE(aa);
    REQUIRE(ob);
    REQUIRE(loose);
    CHECK(aa->kind == "box");
    CHECK(aa->axisAligned);
    CHECK(aa->bone == 1);
    CHECK(aa->color == glm::vec3(1.0f, 0.0f, 1.0f));
    CHECK(aa->extent == glm::vec3(1, 2, 3));
    CHECK(glm::vec3(aa->transform[3]) == glm::vec3(0.5f, 0, 0));
    CHECK_FALSE(ob->axisAligned);
    CHECK(ob->bone == 3);
    CHECK(ob->color == glm::vec3(1.0f, 1.0f, 0.0f));
    CHECK_FALSE(loose->axisAligned); // neither flag: ww3d2 makes an oriented box
    CHECK(loose->bone == -1);        // no HLOD places it: model space
    CHECK(glm::vec3(loose->transform[3]) == glm::vec3(0, 0, 1));
}

// Aggregates whose sub-objects live in other files, as ww3d2's asset manager loads them on demand
// ("<name up to the first dot>.w3d"): writer-made files in a temporary folder, read through the resolver.
namespace {

struct TempFolder {
    std::filesystem::path root;
    TempFolder() {
        static std::atomic<int> n{0};
        root = std::filesystem::temp_directory_path() /
               ("rigscope_agg_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::remove_all(root);
        std::filesystem::create_directories(root);
    }
    ~TempFolder() {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    std::string write(const std::string& name, const std::vector<uint8_t>& bytes) const {
        const std::filesystem::path p = root / name;
        std::ofstream(p, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        return p.string();
    }
};

// unit.w3d: the test hierarchy, PLATE on BODY, an HLOD aggregate array entry WHEEL on BODY and an aggregate putting
// GUN (a whole model) on HAND, TURRET.BARREL (one mesh of TURRET.w3d) on ARM and MISSING on BODY.
std::vector<uint8_t> unitFile(bool withReplacers) {
    ChunkWriter cw;
    writeHierarchy(cw, test::testHierarchy());
    writeMesh(cw, test::testQuad("PLATE", "UNIT"));
    Hlod h = test::oneLodHlod("UNIT", "TEST_SKL", {{1, "UNIT.PLATE"}});
    h.aggregates = {{1, "WHEEL"}};
    writeHlod(cw, h);
    if (!withReplacers) {
        Aggregate a;
        a.name = "UNIT_AGG";
        a.baseModel = "UNIT";
        a.subObjects = {{"GUN", "HAND"}, {"TURRET.BARREL", "ARM"}, {"MISSING", "BODY"}};
        writeAggregate(cw, a);
        return cw.take();
    }
    // An aggregate with a texture replacer chunk (0x603), written field by field (the writer does not write one).
    cw.begin(0x600);
    cw.begin(0x601);
    cw.w.u32le(0x10003);
    cw.w.fixedString("UNIT_AGG", 16);
    cw.end();
    cw.begin(0x602);
    cw.w.fixedString("UNIT", 32);
    cw.w.u32le(1);
    cw.w.fixedString("GUN", 32);
    cw.w.fixedString("HAND", 32);
    cw.end();
    cw.begin(0x603);
    cw.w.u32le(1);
    cw.w.fixedString("UNIT", 32);
    cw.w.zeros(14 * 32);
    cw.w.zeros(15 * 32);
    cw.w.fixedString("quad.tga", 260);
    cw.w.fixedString("other.tga", 260);
    cw.w.zeros(12);
    cw.end();
    cw.end();
    return cw.take();
}

// GUN.w3d: its own hierarchy (MUZZLE at (0, 0, 5)) and mesh BODY on MUZZLE.
std::vector<uint8_t> gunFile() {
    ChunkWriter cw;
    Hierarchy h;
    h.version = 0x40001;
    h.name = "GUN_SKL";
    Pivot root;
    root.name = "RootTransform";
    Pivot muzzle;
    muzzle.name = "MUZZLE";
    muzzle.parent = 0;
    muzzle.translation = {0, 0, 5};
    h.pivots = {root, muzzle};
    writeHierarchy(cw, h);
    writeMesh(cw, test::testQuad("BODY", "GUN"));
    writeHlod(cw, test::oneLodHlod("GUN", "GUN_SKL", {{1, "GUN.BODY"}}));
    return cw.take();
}

std::vector<uint8_t> meshesFile(const std::string& container, const std::vector<std::string>& names) {
    ChunkWriter cw;
    for (const std::string& n : names)
        writeMesh(cw, test::testQuad(n, container));
    return cw.take();
}

const Mesh* meshNamed(const Model& m, const std::string& name) {
    for (const Mesh& mesh : m.meshes)
        if (mesh.name == name) return &mesh;
    return nullptr;
}

bool anyLine(const std::vector<std::string>& lines, const std::string& a, const std::string& b = {}) {
    for (const std::string& l : lines)
        if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("W3D aggregates: sub-objects from other files are loaded through the resolver and placed at their bones",
          "[w3d][aggregate][resolve]") {
    TempFolder dir;
    const std::string unit = dir.write("unit.w3d", unitFile(false));
    dir.write("GUN.w3d", gunFile());
    dir.write("TURRET.w3d", meshesFile("TURRET", {"BARREL", "BASE"}));
    dir.write("WHEEL.w3d", meshesFile("WHEEL", {"TIRE"}));

    // Without the resolver (the reader alone) they are markers, named in the warnings.
    {
        std::vector<uint8_t> bytes = unitFile(false);
        const Document alone = loadSet(ByteSpan(bytes), unit);
        REQUIRE(alone.model);
        CHECK(alone.model->meshes.size() == 1);
        CHECK(anyLine(alone.model->warnings, "'GUN'", "does not contain"));
    }

    const Resolver r;
    const Asset a = r.open(unit);
    REQUIRE(a.document.model);
    const Model& m = *a.document.model;
    INFO("warnings: " << m.warnings.size() << (m.warnings.empty() ? "" : " first: " + m.warnings.front()));
    // The whole GUN model on HAND: its bones appended under HAND, its mesh on its MUZZLE.
    const int hand = m.skeleton.find("HAND");
    const int muzzle = m.skeleton.find("GUN/MUZZLE");
    const int gunRoot = m.skeleton.find("GUN/RootTransform");
    REQUIRE(hand == 3);
    REQUIRE(gunRoot >= 4);
    REQUIRE(muzzle >= 4);
    CHECK(m.skeleton.bones[size_t(gunRoot)].parent == hand);
    CHECK(m.skeleton.bones[size_t(muzzle)].parent == gunRoot);
    const Mesh* body = meshNamed(m, "BODY");
    REQUIRE(body);
    CHECK(body->bone == muzzle);
    std::vector<glm::mat4> world(m.skeleton.bones.size());
    m.skeleton.bindWorld(world.data());
    // MUZZLE in the model: HAND's frame moved 5 along HAND's Z.
    const glm::vec3 expected = glm::vec3(world[size_t(hand)] * glm::vec4(0, 0, 5, 1));
    CHECK(glm::distance(glm::vec3(world[size_t(muzzle)][3]), expected) < 1e-5f);
    // TURRET.BARREL: that mesh alone, on ARM; WHEEL (the HLOD aggregate array) on BODY.
    const Mesh* barrel = meshNamed(m, "BARREL");
    REQUIRE(barrel);
    CHECK(barrel->bone == m.skeleton.find("ARM"));
    CHECK(meshNamed(m, "BASE") == nullptr);
    const Mesh* tire = meshNamed(m, "TIRE");
    REQUIRE(tire);
    CHECK(tire->bone == m.skeleton.find("BODY"));
    // What was loaded is no longer a marker nor a warning; MISSING is, and is named as missing.
    for (const Marker& mk : m.markers)
        if (mk.kind == "aggregate") CHECK(mk.name == "MISSING");
    CHECK_FALSE(anyLine(m.warnings, "'GUN'"));
    CHECK_FALSE(anyLine(m.warnings, "'WHEEL'"));
    CHECK(anyLine(m.warnings, "'MISSING'", "MISSING.w3d was not found"));
    CHECK(std::find(a.missing.begin(), a.missing.end(), "object MISSING (MISSING.w3d)") != a.missing.end());
    CHECK(objectFileName("TURRET.BARREL") == "TURRET.w3d");
    CHECK(objectFileName(".X").empty());
}

TEST_CASE("W3D aggregates: a file naming itself through another is not followed forever", "[w3d][aggregate]") {
    TempFolder dir;
    // LOOPA.w3d puts LOOPB on its root; LOOPB.w3d puts LOOPA on its root.
    auto loop = [](const std::string& self, const std::string& other) {
        ChunkWriter cw;
        writeMesh(cw, test::testQuad("PART", self));
        Aggregate a;
        a.name = self + "_AGG";
        a.baseModel = self;
        a.subObjects = {{other, ""}};
        writeAggregate(cw, a);
        return cw.take();
    };
    const std::string pa = dir.write("LOOPA.w3d", loop("LOOPA", "LOOPB"));
    dir.write("LOOPB.w3d", loop("LOOPB", "LOOPA"));
    const Document d = Resolver().read(pa);
    REQUIRE(d.model);
    CHECK(d.model->meshes.size() >= 2);
    CHECK(d.model->meshes.size() <= 8);
    CHECK(anyLine(d.model->warnings, "not followed further"));
}

TEST_CASE("W3D aggregate texture replacers (0x603): named, not applied, as ww3d2 (obsolete chunk)",
          "[w3d][aggregate]") {
    TempFolder dir;
    const std::string unit = dir.write("unit.w3d", unitFile(true));
    dir.write("GUN.w3d", gunFile());
    const Document d = Resolver().read(unit);
    REQUIRE(d.model);
    CHECK(anyLine(d.model->warnings, "1 texture replacer(s) (quad.tga -> other.tga) not applied"));
    const Mesh* body = meshNamed(*d.model, "BODY");
    REQUIRE(body);
    bool quad = false;
    for (const MaterialParam& p : body->subMeshes.at(0).material.params)
        quad = quad || (p.type == ParamType::Texture && p.texture == "quad.tga");
    CHECK(quad);
}
