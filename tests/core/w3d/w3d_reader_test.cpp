// W3D reader: writer -> reader round trips for every model chunk, placement, pairing, hostile input.
#include "hostile.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include <filesystem>
#include <fstream>

using namespace rs;
using namespace rs::w3d;
using rs::test::testHierarchy;
using rs::test::testQuad;

static void requireNear(const glm::vec3& a, const glm::vec3& b, float eps = 1e-5f) {
    REQUIRE(a.x == Approx(b.x).margin(eps));
    REQUIRE(a.y == Approx(b.y).margin(eps));
    REQUIRE(a.z == Approx(b.z).margin(eps));
}

static std::vector<uint8_t> skinFile(bool containerBit, const std::string& hierarchy = "TEST_SKL",
                                     bool embedHierarchy = true) {
    ChunkWriter cw(containerBit);
    if (embedHierarchy) writeHierarchy(cw, testHierarchy(hierarchy));
    // Rigid quad on BODY, skin on ARM/HAND with one dual-bone vertex.
    RawMesh quad = testQuad("QUAD", "UNIT");
    writeMesh(cw, quad);
    RawMesh skin = testQuad("SKIN", "UNIT");
    skin.attributes = 0x00020000;
    skin.influences = {{2, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}, {2, 3, 30, 70}};
    skin.positions2 = skin.positions;
    skin.positions2[3] = {5, 5, 5};
    skin.normals2 = skin.normals;
    writeMesh(cw, skin);
    RawMesh low = testQuad("LOW", "UNIT");
    writeMesh(cw, low);
    Box box;
    box.name = "UNIT.BOUNDINGBOX";
    box.center = {0, 0, 1};
    box.extent = {1, 2, 3};
    writeBox(cw, box);
    NullObject null;
    null.name = "UNIT.NULL";
    writeNull(cw, null);
    Hlod h;
    h.name = "UNIT";
    h.hierarchy = hierarchy;
    LodArray lo;
    lo.maxScreenSize = 0.5f;
    lo.objects = {{1, "UNIT.LOW"}, {0, "UNIT.NULL"}};
    LodArray hi;
    hi.maxScreenSize = 3.0e38f;
    hi.objects = {{1, "UNIT.QUAD"}, {0, "UNIT.SKIN"}, {3, "UNIT.BOUNDINGBOX"}};
    h.lods = {lo, hi};
    h.proxies = {{2, "PROXY_FIRE"}};
    writeHlod(cw, h);
    return cw.take();
}

TEST_CASE("W3D hierarchy round trip and bind pose", "[w3d]") {
    for (bool bit : {true, false}) {
        ChunkWriter cw(bit);
        writeHierarchy(cw, testHierarchy());
        std::vector<uint8_t> bytes = cw.take();
        REQUIRE(((bytes[7] & 0x80) != 0) == bit);
        File f = readFile(ByteSpan(bytes), "h.w3d");
        REQUIRE(f.hierarchies.size() == 1);
        const Hierarchy& h = f.hierarchies[0];
        REQUIRE(h.name == "TEST_SKL");
        REQUIRE(h.pivots.size() == 4);
        REQUIRE(h.pivots[2].name == "ARM");
        REQUIRE(h.pivots[0].parent == 0xFFFFFFFFu);
        requireNear(h.pivots[1].translation, {1, 2, 3});
        Skeleton s = toSkeleton(h);
        REQUIRE(s.name == "TEST_SKL");
        REQUIRE(s.bones[0].parent == -1);
        REQUIRE(s.bones[3].parent == 2);
        PoseBuffers buf(s.bones.size());
        evaluatePose(s, nullptr, nullptr, 0.0f, LoopMode::Loop, buf.view());
        // BODY at (1,2,3) rotated 90 deg about Z: ARM's (0,1,0) offset becomes (-1,0,0).
        requireNear(glm::vec3(buf.world[2][3]), {0, 2, 3});
        // HAND: (0,0,2) further along ARM (unrotated relative to BODY), Z stays Z under Rz.
        requireNear(glm::vec3(buf.world[3][3]), {0, 2, 5});
        // HAND's local Y axis: Rz90 * Rx90 * (0,1,0) = Rz90 * (0,0,1) = (0,0,1).
        requireNear(glm::vec3(buf.world[3][1]), {0, 0, 1});
    }
}

TEST_CASE("W3D rigid mesh round trip: geometry, uv, colours, material", "[w3d]") {
    ChunkWriter cw(false);
    writeMesh(cw, testQuad("QUAD", ""));
    std::vector<uint8_t> bytes = cw.take();
    File f = readFile(ByteSpan(bytes), "q.w3d");
    REQUIRE(f.meshes.size() == 1);
    Mesh m = toMesh(f.meshes[0], nullptr, -1, "q.w3d");
    REQUIRE(m.subMeshes.size() == 1);
    const SubMesh& sm = m.subMeshes[0];
    REQUIRE(sm.vertexCount() == 4);
    REQUIRE(sm.indices == std::vector<uint32_t>{0, 1, 2, 0, 2, 3});
    requireNear(sm.positions[2], {1, 1, 0});
    REQUIRE(sm.uv0.size() == 4);
    REQUIRE(sm.uv0[2].x == 1.0f);
    REQUIRE(sm.uv0[2].y == 1.0f); // W3D stores V in OpenGL convention
    REQUIRE(sm.colors[3].a == Approx(128 / 255.0f));
    REQUIRE(sm.material.shader == "w3d:alpha");
    const MaterialParam* d = sm.material.find("Diffuse");
    REQUIRE(d);
    REQUIRE(d->value.x == Approx(1.0f));
    REQUIRE(d->value.y == Approx(128 / 255.0f));
    REQUIRE(d->value.w == Approx(0.5f));
    REQUIRE(sm.material.find("BaseTexture")->texture == "quad.tga");
    REQUIRE(!sm.skinned());
}

TEST_CASE("W3D Renegade prelit wrapper supplies the materials", "[w3d]") {
    ChunkWriter cw(false);
    writeMesh(cw, testQuad("LIT", ""), id::PrelitVertex);
    std::vector<uint8_t> bytes = cw.take();
    File f = readFile(ByteSpan(bytes), "lit.w3d");
    REQUIRE(f.meshes.size() == 1);
    REQUIRE(f.meshes[0].passes.size() == 1);
    Mesh m = toMesh(f.meshes[0], nullptr, -1, "lit.w3d");
    REQUIRE(m.subMeshes[0].material.shader == "w3d:alpha");
    REQUIRE(m.subMeshes[0].material.find("BaseTexture")->texture == "quad.tga");
    REQUIRE(m.subMeshes[0].uv0.size() == 4);
}

TEST_CASE("W3D per-triangle texture ids split sub-meshes and compact vertices", "[w3d]") {
    RawMesh q = testQuad("QUAD", "");
    w3d::TextureRef t2;
    t2.name = "second.tga";
    q.textures.push_back(t2);
    q.passes[0].stages[0].textureIds = {0, 1};
    ChunkWriter cw;
    writeMesh(cw, q);
    std::vector<uint8_t> bytes = cw.take();
    File f = readFile(ByteSpan(bytes), "q.w3d");
    Mesh m = toMesh(f.meshes[0], nullptr, -1, "q.w3d");
    REQUIRE(m.subMeshes.size() == 2);
    REQUIRE(m.subMeshes[1].material.find("BaseTexture")->texture == "second.tga");
    REQUIRE(m.subMeshes[1].vertexCount() == 3); // vertices 0, 2, 3
    requireNear(m.subMeshes[1].positions[2], {0, 1, 0});
    REQUIRE(m.subMeshes[1].indices == std::vector<uint32_t>{0, 1, 2});
}

TEST_CASE("W3D BFME shader materials, tangents and pass-level texcoords", "[w3d]") {
    RawMesh q = testQuad("QUAD", "");
    q.vertexMaterials.clear();
    q.shaders.clear();
    q.textures.clear();
    ShaderMaterial sm;
    sm.typeName = "NormalMapped.fx";
    ShaderMaterialProperty tex;
    tex.type = 1;
    tex.name = "DiffuseTexture";
    tex.text = "cloth.tga";
    ShaderMaterialProperty spec;
    spec.type = 5;
    spec.name = "SpecularColor";
    spec.value = {0.1f, 0.2f, 0.3f, 1.0f};
    ShaderMaterialProperty alphaTest;
    alphaTest.type = 7;
    alphaTest.name = "AlphaTestEnable";
    alphaTest.intValue = 1;
    sm.properties = {tex, spec, alphaTest};
    q.shaderMaterials = {sm};
    MaterialPass p;
    p.shaderMaterialIds = {0};
    p.uv = {{0, 0}, {0.5f, 0}, {0.5f, 0.5f}, {0, 0.5f}};
    q.passes = {p};
    q.tangents = {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
    q.bitangents = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
    ChunkWriter cw;
    writeMesh(cw, q);
    std::vector<uint8_t> bytes = cw.take();
    File f = readFile(ByteSpan(bytes), "q.w3d");
    Mesh m = toMesh(f.meshes[0], nullptr, -1, "q.w3d");
    const SubMesh& s = m.subMeshes[0];
    REQUIRE(s.material.shader == "w3d:fx:NormalMapped.fx");
    REQUIRE(s.material.find("BaseTexture")->texture == "cloth.tga");
    REQUIRE(s.material.find("SpecularColor")->value.z == Approx(0.3f));
    REQUIRE(s.material.find("Specular")->value.z == Approx(0.3f)); // neutral alias
    REQUIRE(s.material.find("AlphaTestEnable")->intValue == 1);
    REQUIRE(s.uv0[2].x == 0.5f);
    REQUIRE(s.tangents.size() == 4);
    REQUIRE(s.binormals[1].y == 1.0f);
}

TEST_CASE("W3D skin + HLOD + boxes/nulls/proxies assemble into the model", "[w3d]") {
    for (bool bit : {true, false}) {
        std::vector<uint8_t> bytes = skinFile(bit);
        Document d = Resolver().read(ByteSpan(bytes), "unit.w3d");
        REQUIRE(d.format == Format::W3d);
        REQUIRE(d.model);
        const Model& m = *d.model;
        REQUIRE(m.skeleton.bones.size() == 4);
        REQUIRE(m.meshes.size() == 3);
        REQUIRE(m.lodLevels() == std::vector<int>{0, 1});
        // Array 0 is the least detailed: LOD 1. The last array (most detailed) is LOD 0.
        REQUIRE(m.meshes[0].name == "LOW");
        REQUIRE(m.meshes[0].lod == 1);
        REQUIRE(m.meshes[0].bone == 1);
        REQUIRE(m.meshes[1].name == "QUAD");
        REQUIRE(m.meshes[1].lod == 0);
        const Mesh& skin = m.meshes[2];
        REQUIRE(skin.name == "SKIN");
        const SubMesh& sm = skin.subMeshes[0];
        REQUIRE(sm.space == VertexSpace::Bone);
        REQUIRE(sm.boneMap == std::vector<int>{2, 3});
        REQUIRE(sm.boneIndices[2] == glm::u16vec4(1, 1, 0, 0));
        REQUIRE(sm.boneIndices[3] == glm::u16vec4(0, 1, 0, 0));
        REQUIRE(sm.boneWeights[0] == glm::vec4(1, 0, 0, 0));
        REQUIRE(sm.boneWeights[3].x == Approx(0.3f));
        REQUIRE(sm.boneWeights[3].y == Approx(0.7f));
        REQUIRE(sm.positions2.size() == 4);
        requireNear(sm.positions2[3], {5, 5, 5});
        std::vector<glm::mat4> inv;
        skinInverseBind(m.skeleton, sm, inv);
        REQUIRE(inv[1] == glm::mat4(1.0f)); // bone-space vertices: no inverse bind
        REQUIRE(m.markers.size() == 2);
        REQUIRE(m.markers[0].kind == "null");
        REQUIRE(m.markers[1].kind == "box");
        REQUIRE(m.markers[1].name == "BOUNDINGBOX");
        REQUIRE(m.markers[1].bone == 3);
        requireNear(m.markers[1].extent, {1, 2, 3});
        REQUIRE(m.proxies.size() == 1);
        REQUIRE(m.proxies[0].bone == 2);
        REQUIRE(m.warnings.empty());
    }
}

TEST_CASE("W3D Renegade HModel and collection place meshes", "[w3d]") {
    ChunkWriter cw(false);
    writeHierarchy(cw, testHierarchy("MARKER"));
    writeMesh(cw, testQuad("FACE", "MARKER"));
    writeMesh(cw, testQuad("LOOSE", ""));
    HModel hm;
    hm.name = "MARKER";
    hm.hierarchy = "MARKER";
    hm.nodes = {{2, "MARKER.FACE"}};
    writeHModel(cw, hm);
    Collection col;
    col.name = "SET";
    col.objects = {"LOOSE"};
    Collection::Placeholder ph;
    ph.name = "spawn";
    ph.transform = glm::translate(glm::mat4(1.0f), glm::vec3(4, 5, 6));
    col.placeholders = {ph};
    writeCollection(cw, col);
    std::vector<uint8_t> bytes = cw.take();
    Document d = w3d::loadSet(ByteSpan(bytes), "marker.w3d");
    REQUIRE(d.model->meshes.size() == 2);
    REQUIRE(d.model->meshes[0].name == "FACE");
    REQUIRE(d.model->meshes[0].bone == 2);
    REQUIRE(d.model->meshes[1].name == "LOOSE");
    REQUIRE(d.model->meshes[1].bone == -1);
    REQUIRE(d.model->markers.size() == 1);
    requireNear(glm::vec3(d.model->markers[0].transform[3]), {4, 5, 6});
}

namespace {
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path =
            std::filesystem::temp_directory_path() /
            ("rigscope_w3d_" + std::to_string(reinterpret_cast<uintptr_t>(this)) + "_" + std::to_string(std::rand()));
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::vector<uint8_t>& bytes) const {
        std::string p = (path / name).string();
        std::ofstream(p, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        return p;
    }
};

std::vector<uint8_t> clipFile(const std::string& name, const std::string& hierarchy) {
    ChunkWriter cw;
    ClipSpec c;
    c.name = name;
    c.hierarchy = hierarchy;
    c.frames = 3;
    ChannelSpec x;
    x.pivot = 1;
    x.type = 0;
    x.values = {0, 1, 0};
    c.channels = {x};
    writeClip(cw, c);
    return cw.take();
}
} // namespace

TEST_CASE("W3D pairing: skin finds <hierarchy>.w3d, clips pair by header, other hierarchies refused", "[w3d]") {
    TempDir dir;
    ChunkWriter skl;
    writeHierarchy(skl, testHierarchy("TEST_SKL"));
    dir.write("Test_Skl.W3D", skl.take()); // case-insensitive lookup
    const std::string skn = dir.write("test_skn.w3d", skinFile(true, "TEST_SKL", false));
    const std::string idle = dir.write("test_idla.w3d", clipFile("TEST_IDLA", "test_skl"));
    dir.write("other_run.w3d", clipFile("OTHER_RUN", "OTHER_SKL"));
    dir.write("notes.txt", {1, 2, 3});

    Document d = Resolver().read(skn);
    REQUIRE(d.model);
    REQUIRE(d.model->skeleton.name == "TEST_SKL");
    REQUIRE(d.model->skeleton.bones.size() == 4);
    REQUIRE(d.model->meshes[2].subMeshes[0].skinned());

    std::vector<std::string> clips = Resolver().companionClips(skn);
    REQUIRE(clips.size() == 1);
    REQUIRE(clips[0] == idle);

    Document c = Resolver().read(idle);
    REQUIRE(c.clips.size() == 1);
    REQUIRE(c.model); // a clip file brings its hierarchy along
    REQUIRE(bindClip(d.model->skeleton, *c.clips[0]).ok());

    Document other = Resolver().read((dir.path / "other_run.w3d").string());
    ClipBinding b = bindClip(d.model->skeleton, *other.clips[0]);
    REQUIRE(!b.ok());
    REQUIRE(b.problems[0].find("OTHER_SKL") != std::string::npos);
    REQUIRE(b.problems[0].find("TEST_SKL") != std::string::npos);
    REQUIRE(!other.model);
    REQUIRE(!other.warnings.empty()); // OTHER_SKL.w3d is not there: said so

    HeaderScan s = scanHeaders(ByteSpan(readFileBytes(skn)));
    REQUIRE(s.modelHierarchy == "TEST_SKL");
}

TEST_CASE("W3D missing hierarchy: skins shown unskinned with a warning", "[w3d]") {
    std::vector<uint8_t> bytes = skinFile(true, "ABSENT_SKL", false);
    Document d = Resolver().read(ByteSpan(bytes), "/nonexistent-dir/unit.w3d");
    REQUIRE(d.model);
    REQUIRE(d.model->skeleton.bones.empty());
    REQUIRE(!d.model->meshes[2].subMeshes[0].skinned());
    REQUIRE(d.model->warnings.size() >= 2);
}

// ---- hostile input ------------------------------------------------------------------------------

static void patchU32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b[at + i] = uint8_t(v >> (8 * i));
}

// Offset of the first chunk `id` (depth-first walk of the chunk tree, after byte `from`).
static size_t findChunkIn(const std::vector<uint8_t>& b, size_t begin, size_t end, uint32_t id, size_t from) {
    size_t pos = begin;
    while (pos + 8 <= end) {
        uint32_t cid =
            uint32_t(b[pos]) | uint32_t(b[pos + 1]) << 8 | uint32_t(b[pos + 2]) << 16 | uint32_t(b[pos + 3]) << 24;
        uint32_t size = (uint32_t(b[pos + 4]) | uint32_t(b[pos + 5]) << 8 | uint32_t(b[pos + 6]) << 16 |
                         uint32_t(b[pos + 7]) << 24) &
                        0x7FFFFFFFu;
        if (cid == id && pos >= from) return pos;
        size_t stop = std::min(end, pos + 8 + size_t(size));
        if (isContainer(cid)) {
            size_t r = findChunkIn(b, pos + 8, stop, id, from);
            if (r != std::string::npos) return r;
        }
        pos = pos + 8 + size_t(size);
    }
    return std::string::npos;
}

static size_t findChunk(const std::vector<uint8_t>& b, uint32_t id, size_t from = 0) {
    size_t r = findChunkIn(b, 0, b.size(), id, from);
    REQUIRE(r != std::string::npos);
    return r;
}

static ParseError expectParseError(const std::vector<uint8_t>& bytes) {
    try {
        Document d = Resolver().read(ByteSpan(bytes), "hostile.w3d");
    } catch (const ParseError& e) {
        REQUIRE(e.file() == "hostile.w3d");
        return e;
    }
    FAIL("no ParseError");
    throw std::logic_error("unreachable");
}

TEST_CASE("W3D hostile headers give ParseError with chunk path and offset", "[w3d]") {
    ChunkWriter cw;
    writeHierarchy(cw, testHierarchy());
    const std::vector<uint8_t> base = cw.take();
    const size_t header = findChunk(base, id::HierarchyHeader);

    SECTION("pivot count 0x7FFFFFFF") {
        auto b = base;
        patchU32(b, header + 8 + 20, 0x7FFFFFFF);
        ParseError e = expectParseError(b);
        REQUIRE(e.chunkPath() == "0x100/0x102");
        REQUIRE(e.message().find("pivot count") != std::string::npos);
    }
    SECTION("self-parented pivot") {
        auto b = base;
        const size_t pivots = findChunk(b, id::Pivots, header + 8);
        patchU32(b, pivots + 8 + 2 * 60 + 16, 2);
        ParseError e = expectParseError(b);
        REQUIRE(e.message().find("itself") != std::string::npos);
        REQUIRE(e.offset() == pivots + 8 + 2 * 60);
    }
    SECTION("forward parent") {
        auto b = base;
        const size_t pivots = findChunk(b, id::Pivots, header + 8);
        patchU32(b, pivots + 8 + 1 * 60 + 16, 3);
        expectParseError(b);
    }
    SECTION("sub-chunk past its parent's end") {
        auto b = base;
        patchU32(b, header + 4, 5000);
        ParseError e = expectParseError(b);
        REQUIRE(e.chunkPath() == "0x100/0x101");
        REQUIRE(e.offset() == header);
    }
}

TEST_CASE("W3D hostile meshes, skins, HLOD bones and clips", "[w3d]") {
    SECTION("vertex count 0x7FFFFFFF") {
        ChunkWriter cw;
        writeMesh(cw, testQuad("Q", ""));
        auto b = cw.take();
        patchU32(b, findChunk(b, id::MeshHeader3) + 8 + 4 + 4 + 32 + 4, 0x7FFFFFFF);
        ParseError e = expectParseError(b);
        REQUIRE(e.chunkPath() == "0x0/0x2");
    }
    SECTION("second mesh header (its counts would not match the arrays read before it)") {
        ChunkWriter cw;
        writeMesh(cw, testQuad("Q", ""));
        auto b = cw.take();
        const size_t header = findChunk(b, id::MeshHeader3);
        const size_t verts = findChunk(b, id::Vertices, header + 8);
        REQUIRE(verts > header);
        patchU32(b, verts, id::MeshHeader3); // the vertex chunk now reads as a second header
        ParseError e = expectParseError(b);
        REQUIRE(e.message().find("second mesh header") != std::string::npos);
        REQUIRE(e.offset() >= verts);
        REQUIRE(e.offset() <= verts + 8);
    }
    SECTION("triangle index out of range") {
        RawMesh q = testQuad("Q", "");
        q.indices[4] = 9;
        ChunkWriter cw;
        writeMesh(cw, q);
        ParseError e = expectParseError(cw.take());
        REQUIRE(e.chunkPath() == "0x0/0x20");
        REQUIRE(e.message().find("vertex 9") != std::string::npos);
    }
    // Both load as the engine shows them, with a warning (issue 33; tolerance_test.cpp has the details).
    SECTION("skin bone index beyond the hierarchy") {
        auto b = skinFile(true);
        const size_t inf = findChunk(b, id::VertexInfluences);
        b[inf + 8] = 40; // vertex 0 -> pivot 40
        Document d = Resolver().read(ByteSpan(b), "hostile.w3d");
        REQUIRE(std::any_of(d.model->warnings.begin(), d.model->warnings.end(), [](const std::string& w) {
            return w.find("pivot 40") != std::string::npos && w.find("follow pivot 0") != std::string::npos;
        }));
    }
    SECTION("HLOD sub-object bone beyond the hierarchy") {
        auto b = skinFile(true);
        const size_t sub = findChunk(b, id::HlodSubObject);
        patchU32(b, sub + 8, 77);
        Document d = Resolver().read(ByteSpan(b), "hostile.w3d");
        REQUIRE(std::any_of(d.model->warnings.begin(), d.model->warnings.end(), [](const std::string& w) {
            return w.find("(pivot 77)") != std::string::npos && w.find("placed at pivot 0") != std::string::npos;
        }));
    }
    SECTION("HLOD proxy bone beyond the hierarchy") {
        auto b = skinFile(true);
        const size_t proxies = findChunk(b, id::HlodProxyArray, findChunk(b, id::Hlod) + 8);
        const size_t sub = findChunk(b, id::HlodSubObject, proxies + 8);
        patchU32(b, sub + 8, 77);
        ParseError e = expectParseError(b);
        REQUIRE(e.message().find("pivot 77") != std::string::npos);
    }
    SECTION("clip frame count 0x7FFFFFFF") {
        auto b = clipFile("C", "TEST_SKL");
        patchU32(b, findChunk(b, id::AnimationHeader) + 8 + 36, 0x7FFFFFFF);
        ParseError e = expectParseError(b);
        REQUIRE(e.chunkPath() == "0x200/0x201");
    }
    SECTION("channel with more values than bytes") {
        auto b = clipFile("C", "TEST_SKL");
        const size_t ch = findChunk(b, id::AnimationChannel);
        b[ch + 8 + 2] = 200; // last frame 200
        ParseError e = expectParseError(b);
        REQUIRE(e.chunkPath() == "0x200/0x202");
    }
    SECTION("Shockwave 3D") {
        std::vector<uint8_t> b = {'I', 'F', 'X', 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        ParseError e = expectParseError(b);
        REQUIRE(e.message().find("Shockwave 3D") != std::string::npos);
        REQUIRE(detectFormat(ByteSpan(b), "x.W3D") == Format::W3dShockwave);
    }
    SECTION("unknown first chunk") {
        std::vector<uint8_t> b = {0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0};
        ParseError e = expectParseError(b);
        REQUIRE(e.message().find("not a Westwood W3D") != std::string::npos);
    }
}

TEST_CASE("W3D truncated file keeps what is whole and reports what is not", "[w3d]") {
    const auto full = skinFile(false);
    const size_t hlod = findChunk(full, id::Hlod);
    // Cut inside the HLOD: hierarchy, meshes, box and null are whole.
    std::vector<uint8_t> cut(full.begin(), full.begin() + std::ptrdiff_t(hlod + 8 + 48 + 30));
    Document d = Resolver().read(ByteSpan(cut), "cut.w3d");
    REQUIRE(d.model);
    REQUIRE(d.model->meshes.size() == 3);
    bool reported = false;
    for (const auto& w : d.model->warnings)
        reported = reported || w.find("truncated") != std::string::npos;
    REQUIRE(reported);
    // Cut inside a mesh's vertex array: the mesh is dropped with a warning.
    const size_t verts = findChunk(full, id::Vertices);
    std::vector<uint8_t> cut2(full.begin(), full.begin() + std::ptrdiff_t(verts + 20));
    File f = readFile(ByteSpan(cut2), "cut2.w3d");
    REQUIRE(f.hierarchies.size() == 1);
    REQUIRE(f.meshes.empty());
    REQUIRE(f.warnings.size() >= 2);
}

TEST_CASE("W3D refusals point at the field at fault, not at offset 0", "[w3d][hostile]") {
    // A hierarchy whose pivots chunk 0x102 is gone: the refusal names the numPivots field of header 0x101
    // (8-byte chunk header, 8-byte 0x101 header, version u32 and 16-byte name before it).
    ChunkWriter cw;
    writeHierarchy(cw, testHierarchy());
    std::vector<uint8_t> bytes = cw.take();
    bool renamed = false;
    for (const test::ChunkAt& c : test::chunks(bytes))
        if (c.id == 0x102) {
            test::put32(bytes, c.header, 0x1FF); // an unknown id: skipped by the reader
            renamed = true;
        }
    REQUIRE(renamed);
    try {
        readFile(ByteSpan(bytes), "h.w3d");
        FAIL("no ParseError");
    } catch (const ParseError& e) {
        CHECK(e.message().find("has no 0x102") != std::string::npos);
        CHECK(e.offset() == 8 + 8 + 4 + 16);
        CHECK(e.chunkPath() == "0x100/0x101");
    }
}
