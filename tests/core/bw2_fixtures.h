// Synthetic Black & White 2 fixtures built with the project's own writer (no real .al or skinned .bwm
// is public).
#pragma once

#include "bw2/al.h"
#include "bw2/bw2_writer.h"
#include "bw2/bwm.h"

#include <glm/gtc/matrix_transform.hpp>

namespace rs::test::bw2fx {

using namespace rs::bw2;

inline BwmFrame frameAt(glm::vec3 p, float yawDeg = 0.0f) {
    return BwmFrame::fromMatrix(glm::translate(glm::mat4(1.0f), p) *
                                glm::rotate(glm::mat4(1.0f), glm::radians(yawDeg), glm::vec3(0, 1, 0)));
}

// Static model: two meshes (LOD 1 and 2), the first with two material references; 3 uv sets,
// an entity, unknown and collision points.
inline BwmFile staticModel(uint32_t version) {
    BwmFile f;
    f.version = version;
    f.type = 2;
    f.boxMin = {-1, 0, -1};
    f.boxMax = {1, 2, 1};
    f.height = 2;
    f.materials.resize(2);
    f.materials[0].diffuse = "t_wall.dds";
    f.materials[0].light = "t_wall_lightmap.dds";
    f.materials[0].type = "_glossy_";
    f.materials[1].diffuse = "t_roof.tga";
    f.materials[1].normal = "t_roof_normal.dds";
    f.materials[1].specular = "t_roof_spec.dds";
    f.materials[1].growth = "t_growth.dds";
    f.materials[1].animated = "t_anim.dds";
    f.materials[1].type = "_tree_";
    // 10 vertices: quad (0..3) and triangle (4..6) of mesh 0, triangle (7..9) of mesh 1.
    const glm::vec3 pos[10] = {{-1, 0, -1}, {1, 0, -1}, {1, 2, -1}, {-1, 2, -1},  {0, 0, 1},
                               {1, 0, 1},   {0, 2, 1},  {0, 1, 0},  {0.5f, 1, 0}, {0.5f, 2, 0}};
    f.strides = makeStrides(3, SkinLayout::None);
    f.uvs.resize(3);
    for (int i = 0; i < 10; ++i) {
        f.positions.push_back(pos[i]);
        f.normals.push_back(glm::normalize(glm::vec3(0.1f * i, 1, 0.2f)));
        for (int u = 0; u < 3; ++u)
            f.uvs[u].push_back(glm::vec2(0.1f * i + u, 0.05f * i));
    }
    f.indices = {0, 1, 2, 0, 2, 3, 4, 5, 6, 7, 8, 9};
    f.meshes.resize(2);
    BwmMesh& a = f.meshes[0];
    a.name = "m_house";
    a.lod = 1;
    a.faceCount = 3;
    a.indexOffset = 0;
    a.indexCount = 9;
    a.vertexOffset = 0;
    a.vertexCount = 7;
    a.boxMin = {-1, 0, -1};
    a.boxMax = {1, 2, 1};
    a.frame = frameAt({0.5f, 0, 0}, 30.0f);
    a.refs.push_back({0, 0, 6, 0, 4, 0, 2, 0});
    a.refs.push_back({1, 6, 3, 4, 3, 2, 1, 0});
    BwmMesh& b = f.meshes[1];
    b.name = "m_house_lod2";
    b.lod = 2;
    b.faceCount = 1;
    b.indexOffset = 9;
    b.indexCount = 3;
    b.vertexOffset = 7;
    b.vertexCount = 3;
    b.refs.push_back({0, 9, 3, 7, 3, 0, 1, 0});
    f.entities.push_back({frameAt({0, 2, 0}, 90.0f), "door"});
    f.unknownPoints = {{1, 2, 3}, {4, 5, 6}};
    f.collisionPoints = {{-1, 0, -1}, {1, 0, -1}, {1, 0, 1}, {-1, 0, 1}};
    if (version >= 6) {
        f.hasTrailer = true;
        for (int i = 0; i < 10; ++i)
            f.trailer.push_back(glm::vec3(i, -i, 0.5f));
    }
    return f;
}

// Skin: 4 bones along +Y, one mesh with two material references stored as triangle strips (the second
// joined to a bridge with degenerate triangles). Influences per vertex use up to 3 bones.
inline BwmFile skinModel(SkinLayout layout, uint32_t version = 6, uint32_t bones = 4) {
    BwmFile f;
    f.version = version;
    f.type = 3;
    f.materials.resize(1);
    f.materials[0].diffuse = "t_body.dds";
    f.materials[0].type = "_skin_";
    for (uint32_t b = 0; b < bones; ++b)
        f.bones.push_back(frameAt({0, float(b), 0}, 10.0f * b));
    f.strides = makeStrides(1, layout);
    f.skinLayout = layout;
    f.uvs.resize(1);
    for (int i = 0; i < 8; ++i) {
        float y = float(i / 2);
        f.positions.push_back({i % 2 ? 0.5f : -0.5f, y, 0});
        f.normals.push_back({0, 0, 1});
        f.uvs[0].push_back({float(i % 2), y / 4});
        std::array<uint32_t, 4> ix{uint32_t(i / 2) % bones, uint32_t(i / 2 + 1) % bones, 2 % bones, 0};
        glm::vec4 w = i % 3 == 0 ? glm::vec4(1, 0, 0, 0)
                                 : (i % 3 == 1 ? glm::vec4(0.5f, 0.5f, 0, 0) : glm::vec4(0.25f, 0.5f, 0.25f, 0));
        f.boneIndices.push_back(ix);
        f.boneWeights.push_back(w);
    }
    // ref 0: strip over vertices 0..3 (2 triangles); ref 1: bridge (3, 4) then strip 4..7.
    f.indices = {0, 1, 2, 3, 3, 4, 4, 5, 6, 7};
    f.meshes.resize(1);
    BwmMesh& m = f.meshes[0];
    m.name = "m_creature";
    m.lod = 1;
    m.faceCount = 4;
    m.indexCount = uint32_t(f.indices.size());
    m.vertexCount = 8;
    m.refs.push_back({0, 0, 4, 0, 4, 0, 2, 0});
    m.refs.push_back({0, 4, 6, 4, 4, 2, 2, 0});
    if (version >= 6) f.hasTrailer = true;
    return f;
}

// Library: 4 bones (Root, Spine, Head, LHAnimEvent01); "a_walk" (5 frames, rotations for every bone each
// frame: interpreted) and "a_idle" (3 frames, 2 rotations a frame: not interpreted), with events.
inline glm::quat walkRotation(size_t bone, size_t frame) {
    return glm::angleAxis(glm::radians(7.0f * float(frame) + 3.0f * float(bone)),
                          glm::normalize(glm::vec3(0.2f, 1, 0.1f * bone)));
}

inline AlFile library() {
    AlFile f;
    f.name = "creature";
    f.animationOffset = 0;
    f.bones = {{"Root", -1}, {"Spine", 0}, {"Head", 1}, {"LHAnimEvent01", 0}};
    f.armatureExtra = {1, 2, 3, 4, 5, 6, 7, 8};
    AlAnimation walk;
    walk.header.name = "a_walk";
    walk.header.frameCount = 5;
    walk.header.samplingRate = 30.0f;
    walk.header.duration = 5.0f / 30.0f;
    walk.header.distance = 1.5f;
    walk.header.cyclic = true;
    walk.header.hierarchical = true;
    walk.meta = walk.header;
    AlEvent e1;
    e1.bone = "LHAnimEvent01";
    e1.name = "::FOOTSTEPS.99";
    e1.transform[12] = 1.0f; // translation (1, 2, 3)
    e1.transform[13] = 2.0f;
    e1.transform[14] = 3.0f;
    AlEvent e2;
    e2.bone = "Head";
    e2.name = "::GROWL.50";
    walk.events = {e1, e2};
    walk.unknownFloats[0] = 0.25f;
    walk.unknownBlock = {9, 8, 7, 6};
    for (uint32_t fr = 0; fr < 5; ++fr)
        walk.frameOffsets.push_back({fr * 24, fr});
    walk.offsetBlockRest = {0, 0, 0, 0, 0, 0, 0, 0};
    walk.rotationsPerFrame = 4;
    walk.positionsPerFrame = 1;
    walk.posComp = {0.01f, 0.01f, 0.01f};
    for (size_t b = 0; b < 4; ++b) {
        walk.frameZeroRotations.push_back(walkRotation(b, 0));
        walk.frameZeroPositions.push_back(glm::vec3(0, b == 0 ? 0.0f : 1.0f, 0.1f * b));
    }
    for (size_t fr = 1; fr < 5; ++fr) {
        for (size_t b = 0; b < 4; ++b)
            walk.first.push_back(compressRotation(walkRotation(b, fr)));
        walk.second.push_back(glm::i16vec3(int16_t(fr), int16_t(-int(fr)), 7));
    }
    AlAnimation idle;
    idle.header.name = "a_idle";
    idle.header.frameCount = 3;
    idle.header.samplingRate = 15.0f;
    idle.header.duration = 0.2f;
    idle.header.cyclic = false;
    idle.meta = idle.header;
    AlEvent e3;
    e3.bone = "Root";
    e3.name = "::BREATHE";
    idle.events = {e3};
    for (uint32_t fr = 0; fr < 3; ++fr)
        idle.frameOffsets.push_back({fr, fr});
    idle.rotationsPerFrame = 2;
    idle.positionsPerFrame = 0;
    for (size_t b = 0; b < 4; ++b) {
        idle.frameZeroRotations.push_back(glm::angleAxis(glm::radians(20.0f * b), glm::vec3(1, 0, 0)));
        idle.frameZeroPositions.push_back(glm::vec3(0.5f * b, 0, 0));
    }
    for (size_t fr = 1; fr < 3; ++fr)
        for (size_t k = 0; k < 2; ++k)
            idle.first.push_back(glm::i16vec3(100, 200, int16_t(fr * 10 + k)));
    f.animations = {walk, idle};
    return f;
}

} // namespace rs::test::bw2fx
