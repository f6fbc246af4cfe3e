// Synthetic Alamo fixtures for tests, built in memory with the project's writer.
#pragma once

#include "scene/clip.h"
#include "scene/model.h"

#include <glm/gtc/matrix_transform.hpp>

namespace rs::test {

// Three bones (Root, Arm rotated 90 degrees about Z and raised, Hand billboarded and hidden), a skinned
// mesh with every vertex attribute and all five parameter types, a rigid LOD/ALT mesh with a collision
// tree, a spot light, two proxies, two dazzles (with and without bias).
inline Model syntheticModel() {
    Model m;
    m.format = Format::AlamoModel;
    Bone root;
    root.name = "Root";
    Bone arm;
    arm.name = "Arm";
    arm.parent = 0;
    arm.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)) *
                    glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), glm::vec3(0, 0, 1));
    Bone hand;
    hand.name = "Hand";
    hand.parent = 1;
    hand.visible = false;
    hand.billboard = 4;
    hand.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f, 0, 0));
    m.skeleton.bones = {root, arm, hand};

    Mesh skin;
    skin.name = "FC_Skin";
    skin.bone = 0;
    skin.boundsMin = {-1, -1, 0};
    skin.boundsMax = {1, 1, 2};
    SubMesh sm;
    sm.material.shader = "RSkinBumpColorize.fx";
    sm.vertexFormat = "alD3dVertB4I4NU2U3U3C";
    auto param = [](const char* n, ParamType t, glm::vec4 v, int i = 0, const char* tex = "") {
        MaterialParam p;
        p.name = n;
        p.type = t;
        p.value = v;
        p.intValue = i;
        p.texture = tex;
        return p;
    };
    sm.material.params = {param("Passes", ParamType::Int, {}, -7),
                          param("Shininess", ParamType::Float, {32.5f, 0, 0, 0}),
                          param("Tint", ParamType::Float3, {0.25f, 0.5f, 0.75f, 0}),
                          param("Colorization", ParamType::Float4, {1, 0, 0.5f, 1}),
                          param("BaseTexture", ParamType::Texture, {}, 0, "W_TEST.TGA")};
    for (int i = 0; i < 4; ++i) {
        float f = float(i);
        sm.positions.push_back({f, f * 2, f * 3});
        sm.normals.push_back(glm::normalize(glm::vec3(1, f, 0)));
        sm.uv0.push_back({0.25f * f, 0.5f});
        sm.uv1.push_back({0.125f, 0.25f * f});
        sm.tangents.push_back({0, 1, 0});
        sm.binormals.push_back({0, 0, 1});
        sm.colors.push_back({f / 4, 0.5f, 1, 1});
        sm.boneIndices.push_back(glm::u16vec4(i % 2, i < 2 ? 0 : (i + 1) % 2, 0, 0)); // unused slots 0
        sm.boneWeights.push_back(i < 2 ? glm::vec4(1, 0, 0, 0) : glm::vec4(0.75f, 0.25f, 0, 0));
    }
    sm.indices = {0, 1, 2, 0, 2, 3};
    sm.boneMap = {1, 2};
    skin.subMeshes.push_back(sm);
    m.meshes.push_back(skin);

    Mesh rigid;
    rigid.name = "Hull_LOD1_ALT2";
    rigid.bone = 2;
    rigid.hidden = true;
    rigid.collisionEnabled = true;
    SubMesh r;
    r.material.shader = "MeshGloss.fx";
    r.vertexFormat = "alD3dVertNU2";
    r.material.params = {param("Diffuse", ParamType::Float4, {0.5f, 0.5f, 0.5f, 1})};
    r.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    r.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    r.uv0 = {{0, 1}, {1, 1}, {0, 0}};
    r.indices = {0, 1, 2};
    r.hasCollisionTree = true;
    r.collision.boxMin = {0, 0, 0};
    r.collision.boxMax = {1, 1, 0};
    r.collision.nodes.push_back({{0, 0, 0}, {255, 255, 255}, 1, 0});
    r.collision.triangles = {0};
    rigid.subMeshes.push_back(r);
    SubMesh shadow; // 0 vertices, 0 triangles
    shadow.material.shader = "MeshShadowVolume.fx";
    shadow.vertexFormat = "alD3dVertN";
    rigid.subMeshes.push_back(shadow);
    m.meshes.push_back(rigid);

    Light l;
    l.name = "Spot";
    l.type = 2;
    l.color = {1, 0.5f, 0.25f};
    l.intensity = 2;
    l.farAttenuationEnd = 100;
    l.farAttenuationStart = 50;
    l.hotspotSize = 0.5f;
    l.falloffSize = 0.75f;
    l.bone = 1;
    m.lights.push_back(l);

    Proxy p1;
    p1.name = "p_fire_ALT1";
    p1.bone = 1;
    p1.hidden = true;
    p1.altDecreaseStayHidden = true;
    Proxy p2;
    p2.name = "p_smoke";
    p2.bone = 2;
    m.proxies = {p1, p2};

    Dazzle d1;
    d1.name = "FC_Blink";
    d1.color = {0.1f, 0.2f, 0.3f};
    d1.position = {1, 2, 3};
    d1.radius = 4;
    d1.texX = 1;
    d1.texY = 2;
    d1.texSize = 4;
    d1.texture = "W_Dazzle.dds";
    d1.frequency = 2.5f;
    d1.phase = 0.25f;
    d1.nightOnly = true;
    d1.bone = 2;
    d1.hidden = true;
    d1.hasBias = true;
    d1.bias = 0.4f;
    Dazzle d2;
    d2.name = "Plain";
    d2.bone = 0;
    m.dazzles = {d1, d2};
    return m;
}

// Clip for syntheticModel(): every track type. frames = 5 (last = first).
inline Clip syntheticClip() {
    Clip c;
    c.format = Format::AlamoClip;
    c.frameCount = 5;
    c.fps = 10;
    BoneTrack arm;
    arm.bone = 1;
    arm.boneName = "Arm";
    for (int f = 0; f < 5; ++f) {
        const float k = f == 4 ? 0.0f : float(f);
        arm.translation.push_back({1 + k, 2, 3 - k});
        arm.rotation.push_back(glm::angleAxis(glm::radians(20.0f * k), glm::vec3(0, 0, 1)));
        arm.scale.push_back({1, 1 + 0.5f * k, 1});
    }
    arm.step = {0, 1, 0, 0, 0};
    BoneTrack hand;
    hand.bone = 2;
    hand.boneName = "HAND";
    hand.defaultTranslation = {0.5f, 0, 0};
    hand.defaultScale = {2, 2, 2};
    hand.rotation = {glm::angleAxis(glm::radians(45.0f), glm::vec3(1, 0, 0))}; // constant
    hand.visibility = {1, 0, 0, 1, 1};
    c.tracks = {arm, hand};
    return c;
}

} // namespace rs::test
