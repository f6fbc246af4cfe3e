// Writer -> reader round trips for .ALO/.ALA, hand-computed poses, and refusal of bad input.
#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "demo/demo_model.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

using namespace rs;
using rs::alamo::AloWriteOptions;

static void requireMat(const glm::mat4& a, const glm::mat4& b, float eps = 1e-5f) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            REQUIRE(a[c][r] == Approx(b[c][r]).margin(eps));
}

static void requireVec(const glm::vec3& a, const glm::vec3& b, float eps = 1e-6f) {
    for (int k = 0; k < 3; ++k)
        REQUIRE(a[k] == Approx(b[k]).margin(eps));
}

static uint32_t u32at(const std::vector<uint8_t>& b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

// Offset of the first chunk header of `type` found by walking containers (bit 31) from `begin`.
static size_t findChunk(const std::vector<uint8_t>& b, uint32_t type, size_t begin = 0, size_t end = SIZE_MAX) {
    if (end == SIZE_MAX) end = b.size();
    for (size_t p = begin; p + 8 <= end;) {
        const uint32_t t = u32at(b, p), s = u32at(b, p + 4);
        if (t == type) return p;
        if (s & 0x80000000u) {
            size_t inner = findChunk(b, type, p + 8, p + 8 + (s & 0x7FFFFFFF));
            if (inner != SIZE_MAX) return inner;
        }
        p += 8 + (s & 0x7FFFFFFF);
    }
    return SIZE_MAX;
}

TEST_CASE("ALO round trip keeps skeleton, meshes, materials, lights, proxies, dazzles", "[alamo]") {
    const Model src = test::syntheticModel();
    AloWriteOptions o;
    o.bones205 = GENERATE(false, true);
    o.vertices10005 = GENERATE(false, true);
    o.lightsFirst = GENERATE(false, true);
    const std::vector<uint8_t> bytes = alamo::writeModel(src, o);
    REQUIRE(findChunk(bytes, o.bones205 ? 0x205 : 0x206) != SIZE_MAX);
    REQUIRE(findChunk(bytes, o.bones205 ? 0x206 : 0x205) == SIZE_MAX);
    REQUIRE(findChunk(bytes, o.vertices10005 ? 0x10005 : 0x10007) != SIZE_MAX);
    const size_t vc = findChunk(bytes, o.vertices10005 ? 0x10005 : 0x10007);
    REQUIRE((u32at(bytes, vc + 4) & 0x7FFFFFFF) == 4u * (o.vertices10005 ? 128u : 144u));

    const Model m = alamo::readModel(ByteSpan(bytes), "synthetic.alo");
    REQUIRE(m.warnings.empty());
    REQUIRE(m.format == Format::AlamoModel);
    REQUIRE(m.skeleton.bones.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        const Bone &a = m.skeleton.bones[i], &b = src.skeleton.bones[i];
        REQUIRE(a.name == b.name);
        REQUIRE(a.parent == b.parent);
        REQUIRE(a.visible == b.visible);
        REQUIRE(a.billboard == (o.bones205 ? 0 : b.billboard));
        requireMat(a.bindLocal, b.bindLocal, 0.0f);
    }
    // The arm's matrix: rotation of 90 degrees about Z, translation (1,2,3), column-major.
    REQUIRE(m.skeleton.bones[1].bindLocal[0][1] == Approx(1.0f));
    REQUIRE(m.skeleton.bones[1].bindLocal[3][2] == Approx(3.0f));

    REQUIRE(m.meshes.size() == 2);
    const Mesh& skin = m.meshes[0];
    REQUIRE(skin.name == "FC_Skin");
    REQUIRE(skin.colorize);
    REQUIRE(skin.bone == 0);
    requireVec(skin.boundsMax, {1, 1, 2});
    const SubMesh& sm = skin.subMeshes.at(0);
    const SubMesh& ss = src.meshes[0].subMeshes[0];
    REQUIRE(sm.material.shader == "RSkinBumpColorize.fx");
    REQUIRE(sm.vertexFormat == ss.vertexFormat);
    REQUIRE(sm.material.params.size() == 5);
    REQUIRE(sm.material.params[0].type == ParamType::Int);
    REQUIRE(sm.material.params[0].intValue == -7);
    REQUIRE(sm.material.params[1].type == ParamType::Float);
    REQUIRE(sm.material.params[1].value.x == 32.5f);
    REQUIRE(sm.material.params[2].type == ParamType::Float3);
    requireVec(glm::vec3(sm.material.params[2].value), {0.25f, 0.5f, 0.75f}, 0.0f);
    REQUIRE(sm.material.params[3].type == ParamType::Float4);
    REQUIRE(sm.material.params[3].value == glm::vec4(1, 0, 0.5f, 1));
    REQUIRE(sm.material.find("basetexture")->texture == "W_TEST.TGA");
    REQUIRE(sm.skinned());
    REQUIRE(sm.boneMap == std::vector<int>{1, 2});
    REQUIRE(sm.space == VertexSpace::Model);
    REQUIRE(sm.indices == ss.indices);
    REQUIRE(sm.vertexCount() == 4);
    for (size_t i = 0; i < 4; ++i) {
        requireVec(sm.positions[i], ss.positions[i], 0.0f);
        requireVec(sm.normals[i], ss.normals[i], 0.0f);
        REQUIRE(sm.uv0[i].x == ss.uv0[i].x);
        REQUIRE(sm.uv0[i].y == Approx(ss.uv0[i].y));
        REQUIRE(sm.uv1[i].y == Approx(ss.uv1[i].y));
        requireVec(sm.tangents[i], ss.tangents[i], 0.0f);
        requireVec(sm.binormals[i], ss.binormals[i], 0.0f);
        REQUIRE(sm.colors.at(i) == ss.colors[i]); // format has C
        REQUIRE(sm.boneIndices[i] == ss.boneIndices[i]);
        REQUIRE(sm.boneWeights[i] == ss.boneWeights[i]); // format has B4: blended weights kept
    }

    const Mesh& rigid = m.meshes[1];
    REQUIRE(rigid.baseName == "Hull");
    REQUIRE(rigid.lod == 1);
    REQUIRE(rigid.alt == 2);
    REQUIRE(rigid.hidden);
    REQUIRE(rigid.collisionEnabled);
    REQUIRE(!rigid.colorize);
    REQUIRE(!rigid.shadowOrCollision); // one drawn sub-mesh
    REQUIRE(rigid.bone == 2);
    REQUIRE(rigid.subMeshes.size() == 2);
    const SubMesh& r = rigid.subMeshes[0];
    REQUIRE(!r.skinned());
    REQUIRE(r.boneIndices.empty());
    REQUIRE(r.colors.empty()); // format without C
    REQUIRE(r.uv0[2].y == Approx(0.0f));
    REQUIRE(r.hasCollisionTree);
    REQUIRE(r.collision.nodes.size() == 1);
    REQUIRE(r.collision.nodes[0].max[2] == 255);
    REQUIRE(r.collision.nodes[0].primitiveCount == 1);
    REQUIRE(r.collision.triangles == std::vector<uint16_t>{0});
    requireVec(r.collision.boxMax, {1, 1, 0}, 0.0f);
    REQUIRE(rigid.subMeshes[1].vertexCount() == 0);
    REQUIRE(rigid.subMeshes[1].triangleCount() == 0);

    REQUIRE(m.lights.size() == 1);
    const Light& l = m.lights[0];
    REQUIRE(l.name == "Spot");
    REQUIRE(l.type == 2);
    requireVec(l.color, {1, 0.5f, 0.25f}, 0.0f);
    REQUIRE(l.intensity == 2);
    REQUIRE(l.farAttenuationEnd == 100);
    REQUIRE(l.farAttenuationStart == 50);
    REQUIRE(l.hotspotSize == 0.5f);
    REQUIRE(l.falloffSize == 0.75f);
    REQUIRE(l.bone == 1);

    // Object indices count meshes and lights in file order.
    REQUIRE(m.connections.size() == 3);
    const int lightObject = o.lightsFirst ? 0 : 2;
    bool sawLight = false;
    for (const auto& c : m.connections)
        if (c.object == lightObject) sawLight = (c.bone == 1);
    REQUIRE(sawLight);

    REQUIRE(m.proxies.size() == 2);
    REQUIRE(m.proxies[0].name == "p_fire_ALT1");
    REQUIRE(m.proxies[0].bone == 1);
    REQUIRE(m.proxies[0].hidden);
    REQUIRE(m.proxies[0].altDecreaseStayHidden);
    REQUIRE(m.proxies[0].alt == 1);
    REQUIRE(!m.proxies[1].hidden);
    REQUIRE(!m.proxies[1].altDecreaseStayHidden);
    REQUIRE(m.proxies[1].alt == -1);

    REQUIRE(m.dazzles.size() == 2);
    const Dazzle& d = m.dazzles[0];
    REQUIRE(d.name == "FC_Blink");
    REQUIRE(d.colorize);
    requireVec(d.color, {0.1f, 0.2f, 0.3f}, 0.0f);
    requireVec(d.position, {1, 2, 3}, 0.0f);
    REQUIRE(d.radius == 4);
    REQUIRE(d.texX == 1);
    REQUIRE(d.texY == 2);
    REQUIRE(d.texSize == 4);
    REQUIRE(d.texture == "W_Dazzle.dds");
    REQUIRE(d.frequency == 2.5f);
    REQUIRE(d.phase == 0.25f);
    REQUIRE(d.nightOnly);
    REQUIRE(d.bone == 2);
    REQUIRE(d.hidden);
    REQUIRE(d.hasBias);
    REQUIRE(d.bias == 0.4f);
    REQUIRE(!m.dazzles[1].hasBias);
    REQUIRE(!m.dazzles[1].colorize);
    REQUIRE(m.dazzles[1].bone == 0);
}

TEST_CASE("RSkin vertex formats bind one bone per vertex", "[alamo]") {
    Model src = test::syntheticModel();
    SubMesh& sm = src.meshes[0].subMeshes[0];
    sm.vertexFormat = "alD3dVertRSkinNU2";
    const auto bytes = alamo::writeModel(src);
    const Model m = alamo::readModel(ByteSpan(bytes), "rskin.alo");
    const SubMesh& r = m.meshes[0].subMeshes[0];
    REQUIRE(r.colors.empty());
    for (size_t i = 0; i < r.vertexCount(); ++i) {
        REQUIRE(r.boneWeights[i] == glm::vec4(1, 0, 0, 0));
        REQUIRE(r.boneIndices[i][0] == sm.boneIndices[i][0]);
        REQUIRE(r.boneIndices[i][1] == 0);
    }
}

static void requireTrackClose(const BoneTrack& a, const BoneTrack& b, uint32_t frames) {
    REQUIRE(a.bone == b.bone);
    REQUIRE(a.boneName == b.boneName);
    REQUIRE(a.mode == TrackMode::Replace);
    REQUIRE(a.translation.size() == (b.translation.size() == frames ? frames : 0));
    REQUIRE(a.scale.size() == (b.scale.size() == frames ? frames : 0));
    REQUIRE(a.rotation.size() == (b.rotation.size() == frames ? frames : 0));
    for (size_t f = 0; f < a.translation.size(); ++f)
        requireVec(a.translation[f], b.translation[f], 1e-4f);
    for (size_t f = 0; f < a.scale.size(); ++f)
        requireVec(a.scale[f], b.scale[f], 1e-4f);
    for (size_t f = 0; f < a.rotation.size(); ++f)
        REQUIRE(std::abs(glm::dot(a.rotation[f], b.rotation[f])) > 0.99999f);
    REQUIRE(a.visibility == b.visibility);
    REQUIRE(a.step == b.step);
}

TEST_CASE("ALA format 1 and 2 round trip every track type", "[alamo]") {
    const Clip src = test::syntheticClip();
    const int version = GENERATE(1, 2);
    const auto bytes = alamo::writeClip(src, {version});
    const Clip c = alamo::readClip(ByteSpan(bytes), "dir/SYN_IDLE_00.ala");
    REQUIRE(c.warnings.empty());
    REQUIRE(c.format == Format::AlamoClip);
    REQUIRE(c.name == "SYN_IDLE_00");
    REQUIRE(c.version == version);
    REQUIRE(c.codec == (version == 1 ? "ala1" : "ala2"));
    REQUIRE(c.frameCount == 5);
    REQUIRE(c.fps == 10.0f);
    REQUIRE(c.tracks.size() == 2);
    requireTrackClose(c.tracks[0], src.tracks[0], 5);
    requireTrackClose(c.tracks[1], src.tracks[1], 5);
    // Constant channels come back as the track defaults.
    const BoneTrack& hand = c.tracks[1];
    requireVec(hand.defaultTranslation, {0.5f, 0, 0});
    requireVec(hand.defaultScale, {2, 2, 2});
    REQUIRE(std::abs(glm::dot(hand.defaultRotation, src.tracks[1].rotation[0])) > 0.99999f);
    if (version == 2) {
        // Data chunks in the game's order: 0x100a (translation) then 0x1009 (rotation), then 0x100b.
        const size_t t = findChunk(bytes, 0x100a), r = findChunk(bytes, 0x1009), s = findChunk(bytes, 0x100b);
        REQUIRE(t < r);
        REQUIRE(r < s);
        REQUIRE(s != SIZE_MAX);
        REQUIRE(findChunk(bytes, 0x1004) == SIZE_MAX);
    } else {
        REQUIRE(findChunk(bytes, 0x1009) == SIZE_MAX);
        REQUIRE(findChunk(bytes, 0x1004) != SIZE_MAX);
    }
}

TEST_CASE("ALA format 2 without translation data omits the 0x100a chunk", "[alamo]") {
    Clip src = test::syntheticClip();
    src.tracks[0].translation.clear();
    src.tracks[0].defaultTranslation = {1, 2, 3};
    const auto bytes = alamo::writeClip(src, {2});
    REQUIRE(findChunk(bytes, 0x100a) == SIZE_MAX);
    const Clip c = alamo::readClip(ByteSpan(bytes), "x.ala");
    REQUIRE(!c.tracks[0].hasTranslation());
    requireVec(c.tracks[0].defaultTranslation, {1, 2, 3});
    REQUIRE(c.tracks[0].rotation.size() == 5);
}

// Hand-built format-2 file: checks int16 indices counted in words, 0xFFFF = no track, unsigned
// translation packing, quaternion x,y,z,w order, and default rotation mini 17.
TEST_CASE("ALA format 2 decodes word indices, unsigned packing and quaternion order", "[alamo]") {
    ByteWriter w;
    auto mini = [&](ByteWriter& o, uint8_t t, std::initializer_list<uint8_t> bytesList) {
        o.u8(t);
        o.u8(static_cast<uint8_t>(bytesList.size()));
        for (uint8_t b : bytesList)
            o.u8(b);
    };
    auto f32 = [](float f) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        return std::vector<uint8_t>{uint8_t(u), uint8_t(u >> 8), uint8_t(u >> 16), uint8_t(u >> 24)};
    };
    auto vec3mini = [&](ByteWriter& o, uint8_t t, float x, float y, float z) {
        o.u8(t);
        o.u8(12);
        for (float v : {x, y, z})
            for (uint8_t b : f32(v))
                o.u8(b);
    };
    ByteWriter hdr;
    mini(hdr, 1, {2, 0, 0, 0}); // 2 frames
    hdr.u8(2), hdr.u8(4), hdr.f32le(30.0f);
    mini(hdr, 3, {1, 0, 0, 0});  // 1 bone
    mini(hdr, 11, {8, 0, 0, 0}); // rotation frame size 8 words (bone's quaternion at word 4)
    mini(hdr, 12, {6, 0, 0, 0}); // translation frame size 6 words (bone's vector at word 3)
    mini(hdr, 13, {0, 0, 0, 0});
    ByteWriter bh;
    bh.u8(4), bh.u8(4), bh.cstr("Arm");
    mini(bh, 5, {1, 0, 0, 0});
    mini(bh, 10, {0, 0, 0, 0});
    vec3mini(bh, 6, 10, 20, 30);
    vec3mini(bh, 7, 0.5f, 1, 2);
    vec3mini(bh, 8, 1, 1, 1);
    vec3mini(bh, 9, 0, 0, 0);
    mini(bh, 14, {3, 0});       // translation index: word 3
    mini(bh, 15, {0xFF, 0xFF}); // no scale
    mini(bh, 16, {4, 0});       // rotation index: word 4
    mini(bh, 17, {0, 0, 0, 0, 0, 0, 0xFF, 0x7F});
    ByteWriter tdata, rdata;
    for (int f = 0; f < 2; ++f) {
        tdata.u16le(0xFFFF), tdata.u16le(0xFFFF), tdata.u16le(0xFFFF); // padding bone
        tdata.u16le(uint16_t(40000 + f)), tdata.u16le(2), tdata.u16le(0);
        for (int k = 0; k < 4; ++k)
            rdata.i16le(-1);
        // 180 degrees about X at frame 0 (x = 32767), about Y at frame 1.
        rdata.i16le(f == 0 ? 32767 : 0), rdata.i16le(f == 1 ? 32767 : 0), rdata.i16le(0), rdata.i16le(0);
    }
    auto chunk = [](ByteWriter& o, uint32_t type, const ByteWriter& payload, bool container) {
        o.u32le(type);
        o.u32le(uint32_t(payload.size()) | (container ? 0x80000000u : 0));
        o.bytes(payload.buf.data(), payload.size());
    };
    ByteWriter bone, root;
    chunk(bone, 0x1003, bh, false);
    chunk(root, 0x1001, hdr, false);
    chunk(root, 0x1002, bone, true);
    chunk(root, 0x100a, tdata, false);
    chunk(root, 0x1009, rdata, false);
    chunk(w, 0x1000, root, true);
    const Clip c = alamo::readClip(ByteSpan(w.buf), "hand.ala");
    REQUIRE(c.version == 2);
    REQUIRE(c.tracks.size() == 1);
    const BoneTrack& t = c.tracks[0];
    REQUIRE(t.bone == 1);
    REQUIRE(t.boneName == "Arm");
    REQUIRE(t.translation.size() == 2);
    requireVec(t.translation[0], {10 + 0.5f * 40000, 22, 30}, 1e-2f);
    requireVec(t.translation[1], {10 + 0.5f * 40001, 22, 30}, 1e-2f);
    REQUIRE(t.scale.empty());
    REQUIRE(t.rotation.size() == 2);
    REQUIRE(t.rotation[0].x == Approx(1.0f));
    REQUIRE(t.rotation[0].w == Approx(0.0f).margin(1e-6));
    REQUIRE(t.rotation[1].y == Approx(1.0f));
    REQUIRE(t.defaultRotation.w == Approx(1.0f));
}

TEST_CASE("poses from a written clip match hand-computed matrices", "[alamo][pose]") {
    Model model;
    Bone root, a, b;
    root.name = "Root";
    a.name = "A";
    a.parent = 0;
    a.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 2));
    b.name = "B";
    b.parent = 1;
    b.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 0));
    model.skeleton.bones = {root, a, b};
    Clip clip;
    clip.frameCount = 3;
    clip.fps = 10;
    BoneTrack t;
    t.bone = 1;
    t.boneName = "A";
    t.translation = {{0, 0, 2}, {0, 0, 4}, {0, 0, 2}};
    t.rotation = {glm::quat(1, 0, 0, 0), glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1)),
                  glm::quat(1, 0, 0, 0)};
    t.scale = {{1, 1, 1}, {2, 2, 2}, {1, 1, 1}};
    clip.tracks = {t};
    const int version = GENERATE(1, 2);
    const auto aloBytes = alamo::writeModel(model);
    const auto alaBytes = alamo::writeClip(clip, {version});
    const Model m = alamo::readModel(ByteSpan(aloBytes), "hand.alo");
    const Clip c = alamo::readClip(ByteSpan(alaBytes), "hand.ala");
    ClipBinding bind = bindClip(m.skeleton, c);
    REQUIRE(bind.ok());
    PoseBuffers buf(3);

    // Frame 1: A = T(0,0,4) * Rz(90) * S(2); B = A * T(1,0,0): B sits at (0, 2, 4).
    evaluatePose(m.skeleton, &c, &bind, 1.0f, LoopMode::Once, buf.view());
    const glm::mat4 expectA(glm::vec4(0, 2, 0, 0), glm::vec4(-2, 0, 0, 0), glm::vec4(0, 0, 2, 0),
                            glm::vec4(0, 0, 4, 1));
    requireMat(buf.world[1], expectA, 2e-3f);
    const glm::mat4 expectB(glm::vec4(0, 2, 0, 0), glm::vec4(-2, 0, 0, 0), glm::vec4(0, 0, 2, 0),
                            glm::vec4(0, 2, 4, 1));
    requireMat(buf.world[2], expectB, 2e-3f);

    // Frame 0.5: T(0,0,3) * Rz(45) * S(1.5); B at (1.5 cos45, 1.5 sin45, 3).
    evaluatePose(m.skeleton, &c, &bind, 0.5f, LoopMode::Once, buf.view());
    const float h = 1.5f * std::sqrt(0.5f);
    REQUIRE(buf.world[2][3].x == Approx(h).margin(2e-3));
    REQUIRE(buf.world[2][3].y == Approx(h).margin(2e-3));
    REQUIRE(buf.world[2][3].z == Approx(3.0f).margin(2e-3));

    // Frame 2 repeats frame 0 = the bind pose.
    evaluatePose(m.skeleton, &c, &bind, 2.0f, LoopMode::Once, buf.view());
    requireMat(buf.world[2], glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 2)), 1e-3f);
}

TEST_CASE("the demo model reads back with every feature the viewer shows", "[alamo][demo]") {
    const Document d = demo::loadDemo();
    REQUIRE(d.model);
    REQUIRE(d.clips.size() == 1);
    const Model& m = *d.model;
    REQUIRE(m.warnings.empty());
    REQUIRE(m.skeleton.bones.size() >= 5);
    int skinned = 0, rigid = 0, fc = 0;
    for (const Mesh& mesh : m.meshes) {
        for (const SubMesh& sm : mesh.subMeshes)
            (sm.skinned() ? skinned : rigid)++;
        if (mesh.colorize && istartsWith(mesh.name, "FC_")) ++fc;
        REQUIRE(mesh.bone >= 0);
    }
    REQUIRE(skinned >= 1);
    REQUIRE(rigid >= 1);
    REQUIRE(fc == 1);
    REQUIRE(m.lodLevels().size() == 2);
    REQUIRE(m.altLevels().size() == 2);
    REQUIRE(m.lights.size() == 1);
    REQUIRE(m.dazzles.size() == 2);
    REQUIRE(((m.dazzles[0].colorize && m.dazzles[1].nightOnly) || (m.dazzles[1].colorize && m.dazzles[0].nightOnly)));
    REQUIRE(m.proxies.size() == 1);

    // Size: world-space extent of the rigid/skinned vertices in the bind pose is 2..4 units tall.
    std::vector<glm::mat4> world(m.skeleton.bones.size());
    m.skeleton.bindWorld(world.data());
    float zmin = 1e9f, zmax = -1e9f;
    for (const Mesh& mesh : m.meshes) {
        if (mesh.shadowOrCollision) continue;
        for (const SubMesh& sm : mesh.subMeshes)
            for (const glm::vec3& p : sm.positions) {
                glm::vec3 w = sm.skinned() ? p : glm::vec3(world[mesh.bone] * glm::vec4(p, 1));
                zmin = std::min(zmin, w.z), zmax = std::max(zmax, w.z);
            }
    }
    REQUIRE(zmax - zmin >= 2.0f);
    REQUIRE(zmax - zmin <= 4.0f);

    const Clip& c = *d.clips[0];
    REQUIRE(c.version == 2);
    ClipBinding b = bindClip(m.skeleton, c);
    REQUIRE(b.ok());
    bool visTrack = false;
    for (const auto& t : c.tracks)
        visTrack = visTrack || !t.visibility.empty();
    REQUIRE(visTrack);
    // Loops: the last stored frame repeats the first.
    PoseBuffers p0(m.skeleton.bones.size()), p1(m.skeleton.bones.size());
    evaluatePose(m.skeleton, &c, &b, 0.0f, LoopMode::Once, p0.view());
    evaluatePose(m.skeleton, &c, &b, float(c.frameCount - 1), LoopMode::Once, p1.view());
    for (size_t i = 0; i < m.skeleton.bones.size(); ++i)
        requireMat(p0.world[i], p1.world[i], 1e-3f);
    // ... and it moves in between.
    evaluatePose(m.skeleton, &c, &b, float(c.frameCount / 4), LoopMode::Once, p1.view());
    REQUIRE(std::abs(p1.world[m.skeleton.find("Arm_L")][2].y - p0.world[m.skeleton.find("Arm_L")][2].y) > 0.2f);
}

// ---- bad input ----

static std::string parseErrorOf(const std::vector<uint8_t>& bytes, bool model) {
    try {
        if (model)
            alamo::readModel(ByteSpan(bytes), "bad.alo");
        else
            alamo::readClip(ByteSpan(bytes), "bad.ala");
    } catch (const ParseError& e) {
        return e.what();
    }
    return {};
}

TEST_CASE("the model reader refuses particle .alo files as particle systems", "[alamo]") {
    ByteWriter w;
    w.u32le(0x900);
    w.u32le(0x80000008u);
    w.u32le(0x1);
    w.u32le(0);
    const std::string err = parseErrorOf(w.buf, true);
    REQUIRE(err.find("particle system") != std::string::npos);
    // loadDocument reads it with the particle reader instead (alamo_particle_test.cpp): its id chunk 0x1 is empty.
    REQUIRE_THROWS_WITH(Resolver().read(ByteSpan(w.buf), "fire.alo"), Catch::Contains("0x900/0x1 at offset 8: id chunk holds 0 bytes"));
    // Named as such even when damaged (here: truncated inside the first chunk header).
    const std::vector<uint8_t> cut(w.buf.begin(), w.buf.begin() + 6);
    REQUIRE(parseErrorOf(cut, true).find("particle system") != std::string::npos);
}

TEST_CASE("invalid indices are refused with file, chunk path and offset", "[alamo]") {
    Model src = test::syntheticModel();
    auto bytes = alamo::writeModel(src);

    SECTION("vertex index out of range") {
        const size_t ic = findChunk(bytes, 0x10004);
        bytes[ic + 8] = 9; // first index of the skinned sub-mesh -> 9 >= 4 vertices
        const std::string err = parseErrorOf(bytes, true);
        REQUIRE(err.find("bad.alo: chunk 0x400/0x10000/0x10004 at offset " + std::to_string(ic + 8)) == 0);
    }
    SECTION("bone map entry out of range") {
        const size_t bc = findChunk(bytes, 0x10006);
        bytes[bc + 8] = 3;
        REQUIRE(parseErrorOf(bytes, true).find("0x400/0x10000/0x10006") != std::string::npos);
    }
    SECTION("vertex bone index beyond the bone map") {
        const size_t vc = findChunk(bytes, 0x10007);
        bytes[vc + 8 + 112] = 2; // vertex 0, boneIndices[0]
        REQUIRE(parseErrorOf(bytes, true).find("bone map size") != std::string::npos);
    }
    SECTION("parent not before the bone") {
        const size_t bc = findChunk(bytes, 0x206);
        bytes[bc + 8] = 0; // Root's parent -> 0 (itself)
        REQUIRE(parseErrorOf(bytes, true).find("0x200/0x202/0x206") != std::string::npos);
    }
    SECTION("connection to a missing object") {
        const size_t cc = findChunk(bytes, 0x602);
        bytes[cc + 8 + 2] = 50; // mini 2 value
        REQUIRE(parseErrorOf(bytes, true).find("object index 50") != std::string::npos);
    }
    SECTION("chunk size larger than its parent") {
        const size_t vc = findChunk(bytes, 0x10007);
        bytes[vc + 6] = 0x7F;
        REQUIRE(parseErrorOf(bytes, true).find("0x400/0x10000/0x10007") != std::string::npos);
    }
    SECTION("huge vertex count is refused before allocating") {
        const size_t hc = findChunk(bytes, 0x10001);
        bytes[hc + 8 + 3] = 0x40;
        REQUIRE(parseErrorOf(bytes, true).find("vertex count") != std::string::npos);
    }
}

TEST_CASE("clip indices beyond the frame size are refused", "[alamo]") {
    auto bytes = alamo::writeClip(test::syntheticClip(), {2});
    const size_t hc = findChunk(bytes, 0x1003);
    // Find mini 16 (rotation index) in the first bone header and push it past the frame size.
    size_t p = hc + 8, end = p + (u32at(bytes, hc + 4) & 0x7FFFFFFF);
    bool patched = false;
    while (p < end) {
        if (bytes[p] == 16) {
            bytes[p + 2] = 200;
            patched = true;
        }
        p += 2 + bytes[p + 1];
    }
    REQUIRE(patched);
    REQUIRE(parseErrorOf(bytes, false).find("exceeds the frame size") != std::string::npos);
}

TEST_CASE("every truncation of small synthetic files throws ParseError unless it ends between top-level chunks",
          "[alamo][robust]") {
    const auto alo = alamo::writeModel(test::syntheticModel());
    const auto ala1 = alamo::writeClip(test::syntheticClip(), {1});
    const auto ala2 = alamo::writeClip(test::syntheticClip(), {2});
    for (const auto* f : {&alo, &ala1, &ala2}) {
        const bool model = f == &alo;
        std::vector<size_t> boundaries; // ends of top-level chunks
        for (size_t p = 0; p + 8 <= f->size();) {
            p += 8 + (u32at(*f, p + 4) & 0x7FFFFFFF);
            boundaries.push_back(p);
        }
        size_t loaded = 0;
        for (size_t n = 0; n < f->size(); ++n) {
            std::vector<uint8_t> cut(f->begin(), f->begin() + n);
            const bool boundary = std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end();
            try {
                Resolver().read(ByteSpan(cut), model ? "t.alo" : "t.ala");
                ++loaded;
                REQUIRE(boundary); // only whole top-level chunks can make a valid file
            } catch (const ParseError&) {
            }
        }
        // Cut after the skeleton, after each mesh and after the light: still a model.
        REQUIRE(loaded == (model ? boundaries.size() - 1 : 0));
    }
}

// Sets the value byte(s) of every mini-chunk `mini` inside chunks of `type` (little-endian, low bytes).
static void patchMinis(std::vector<uint8_t>& b, uint32_t type, uint8_t mini, uint32_t value, size_t begin = 0,
                       size_t end = SIZE_MAX) {
    if (end == SIZE_MAX) end = b.size();
    for (size_t p = begin; p + 8 <= end;) {
        const uint32_t t = u32at(b, p), s = u32at(b, p + 4), len = s & 0x7FFFFFFF;
        if (s & 0x80000000u)
            patchMinis(b, type, mini, value, p + 8, p + 8 + len);
        else if (t == type)
            for (size_t q = p + 8; q + 2 <= p + 8 + len; q += 2 + b[q + 1])
                if (b[q] == mini)
                    for (size_t k = 0; k < b[q + 1] && k < 4; ++k)
                        b[q + 2 + k] = uint8_t(value >> (8 * k));
        p += 8 + len;
    }
}

TEST_CASE("format-2 bones may share a data slot; the decoded size stays bounded by the file size", "[alamo]") {
    Clip src = test::syntheticClip();
    BoneTrack extra = src.tracks[0];
    extra.bone = 2;
    extra.boneName = "Hand";
    src.tracks[1] = extra; // two bones with rotation data: rotation frame size 8 words
    auto bytes = alamo::writeClip(src, {2});
    patchMinis(bytes, 0x1001, 11, 4); // a frame now holds one quaternion...
    patchMinis(bytes, 0x1003, 16, 0); // ...which both bones share
    const Clip shared = alamo::readClip(ByteSpan(bytes), "shared.ala");
    REQUIRE(shared.tracks[1].rotation == shared.tracks[0].rotation);

    // 20000 bones sharing one slot of 100000 frames: 32 GB decoded from 1.4 MB.
    ByteWriter hdr, root, file;
    auto mini32 = [](ByteWriter& w, uint8_t t, uint32_t v) {
        w.u8(t);
        w.u8(4);
        w.u32le(v);
    };
    auto chunk = [](ByteWriter& o, uint32_t type, const ByteWriter& payload, bool container) {
        o.u32le(type);
        o.u32le(uint32_t(payload.size()) | (container ? 0x80000000u : 0));
        o.bytes(payload.buf.data(), payload.size());
    };
    const uint32_t bones = 20000, frames = 100000;
    mini32(hdr, 1, frames);
    mini32(hdr, 2, 0x41F00000); // 30.0f
    mini32(hdr, 3, bones);
    mini32(hdr, 11, 4);
    mini32(hdr, 12, 0);
    mini32(hdr, 13, 0);
    chunk(root, 0x1001, hdr, false);
    for (uint32_t i = 0; i < bones; ++i) {
        ByteWriter info, bone;
        mini32(info, 5, 1);
        info.u8(16), info.u8(2), info.u16le(0);
        chunk(bone, 0x1003, info, false);
        chunk(root, 0x1002, bone, true);
    }
    ByteWriter rot;
    for (uint32_t f = 0; f < frames; ++f)
        rot.i16le(0), rot.i16le(0), rot.i16le(0), rot.i16le(32767);
    chunk(root, 0x1009, rot, false);
    chunk(file, 0x1000, root, true);
    REQUIRE(parseErrorOf(file.buf, false).find("would decode to") != std::string::npos);
}

TEST_CASE("dazzles stored as a container of a type-0 data chunk read the same", "[alamo]") {
    AloWriteOptions o;
    o.dazzleContainer = true;
    const auto bytes = alamo::writeModel(test::syntheticModel(), o);
    const size_t dc = findChunk(bytes, 0x604);
    REQUIRE((u32at(bytes, dc + 4) & 0x80000000u) != 0);
    const Model m = alamo::readModel(ByteSpan(bytes), "c.alo");
    REQUIRE(m.warnings.empty());
    REQUIRE(m.dazzles.size() == 2);
    REQUIRE(m.dazzles[0].name == "FC_Blink");
    REQUIRE(m.dazzles[0].hasBias);
    REQUIRE(m.dazzles[0].bias == 0.4f);
    REQUIRE(m.dazzles[0].texSize == 4);
    REQUIRE(m.dazzles[1].name == "Plain");
    REQUIRE(!m.dazzles[1].hasBias);
}

TEST_CASE("geometry nested in its material chunk reads the same as the sibling layout", "[alamo]") {
    AloWriteOptions o;
    o.geometryInMaterial = true;
    const auto nested = alamo::writeModel(test::syntheticModel(), o);
    const Model a = alamo::readModel(ByteSpan(nested), "n.alo");
    const auto flat = alamo::writeModel(test::syntheticModel());
    const Model b = alamo::readModel(ByteSpan(flat), "f.alo");
    REQUIRE(a.warnings.empty());
    REQUIRE(a.meshes.size() == b.meshes.size());
    for (size_t i = 0; i < a.meshes.size(); ++i) {
        REQUIRE(a.meshes[i].subMeshes.size() == b.meshes[i].subMeshes.size());
        for (size_t k = 0; k < a.meshes[i].subMeshes.size(); ++k) {
            const SubMesh &x = a.meshes[i].subMeshes[k], &y = b.meshes[i].subMeshes[k];
            REQUIRE(x.material.shader == y.material.shader);
            REQUIRE(x.positions == y.positions);
            REQUIRE(x.indices == y.indices);
            REQUIRE(x.boneMap == y.boneMap);
            REQUIRE(x.hasCollisionTree == y.hasCollisionTree);
        }
    }
}
