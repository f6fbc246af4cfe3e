// Synthetic W3D fixtures shared by the w3d_*_test.cpp files (made with the project's own writer).
#pragma once

#include "w3d/w3d_writer.h"

#include <glm/gtc/matrix_transform.hpp>

namespace rs::test {

// RootTransform, BODY (T(1,2,3) * Rz(90)), ARM (T(0,1,0)), HAND (T(0,0,2) * Rx(90)).
inline w3d::Hierarchy testHierarchy(const std::string& name = "TEST_SKL") {
    w3d::Hierarchy h;
    h.version = 0x40001;
    h.name = name;
    w3d::Pivot root;
    root.name = "RootTransform";
    w3d::Pivot body;
    body.name = "BODY";
    body.parent = 0;
    body.translation = {1, 2, 3};
    body.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
    w3d::Pivot arm;
    arm.name = "ARM";
    arm.parent = 1;
    arm.translation = {0, 1, 0};
    w3d::Pivot hand;
    hand.name = "HAND";
    hand.parent = 2;
    hand.translation = {0, 0, 2};
    hand.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0));
    h.pivots = {root, body, arm, hand};
    return h;
}

// A quad (4 vertices, 2 triangles) with normals, one pass, one stage, DCG colours.
inline w3d::RawMesh testQuad(const std::string& name, const std::string& container) {
    w3d::RawMesh m;
    m.name = name;
    m.container = container;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    m.indices = {0, 1, 2, 0, 2, 3};
    m.boundsMin = {0, 0, 0};
    m.boundsMax = {1, 1, 0};
    w3d::VertexMaterial vm;
    vm.name = "mat";
    vm.diffuse = {255, 128, 0, 0};
    vm.opacity = 0.5f;
    m.vertexMaterials = {vm};
    w3d::Shader alpha;
    alpha.srcBlend = 2;  // src alpha
    alpha.destBlend = 5; // 1 - src alpha
    alpha.texturing = 1;
    m.shaders = {alpha};
    w3d::TextureRef t;
    t.name = "quad.tga";
    m.textures = {t};
    w3d::MaterialPass p;
    p.vertexMaterialIds = {0};
    p.shaderIds = {0};
    p.dcg = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 128}};
    w3d::TextureStage st;
    st.textureIds = {0};
    st.uv = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    p.stages = {st};
    m.passes = {p};
    return m;
}

// An HLOD over `hierarchy` with one LOD (shown at every size) holding `objects` ({pivot, "CONTAINER.MESH"}).
inline w3d::Hlod oneLodHlod(const std::string& name, const std::string& hierarchy,
                            std::vector<w3d::SubObject> objects) {
    w3d::Hlod h;
    h.name = name;
    h.hierarchy = hierarchy;
    w3d::LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = std::move(objects);
    h.lods = {lod};
    return h;
}

} // namespace rs::test
