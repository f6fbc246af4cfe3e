#include "test_models.h"

#include <glm/gtc/matrix_transform.hpp>

namespace rs::test {

namespace {

rs::Bone bone(const char* name, int parent, glm::vec3 t) {
    rs::Bone b;
    b.name = name;
    b.parent = parent;
    b.bindLocal = glm::translate(glm::mat4(1.0f), t);
    return b;
}

// Axis-aligned box lo..hi as 12 triangles with per-face normals.
void addBox(rs::SubMesh& sm, glm::vec3 lo, glm::vec3 hi, int boneIndexForAll = -1) {
    const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                            {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {3, 0, 4, 7}};
    const glm::vec3 normals[6] = {{0, 0, -1}, {0, 0, 1}, {0, -1, 0}, {0, 1, 0}, {1, 0, 0}, {-1, 0, 0}};
    for (int f = 0; f < 6; ++f) {
        const uint32_t base = uint32_t(sm.positions.size());
        const glm::vec2 uv[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        for (int k = 0; k < 4; ++k) {
            sm.positions.push_back(c[faces[f][k]]);
            sm.normals.push_back(normals[f]);
            sm.uv0.push_back(uv[k]);
            if (boneIndexForAll >= 0) {
                sm.boneIndices.push_back(glm::u16vec4(uint16_t(boneIndexForAll), 0, 0, 0));
                sm.boneWeights.push_back(glm::vec4(1, 0, 0, 0));
            }
        }
        for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u})
            sm.indices.push_back(base + i);
    }
}

rs::MaterialParam float4(const char* name, glm::vec4 v) {
    rs::MaterialParam p;
    p.name = name;
    p.type = rs::ParamType::Float4;
    p.value = v;
    return p;
}

rs::Mesh mesh(const char* name, int boneIndex, const char* shader, glm::vec4 diffuse) {
    rs::Mesh m;
    m.name = name;
    rs::parseLodAlt(m.name, m.baseName, m.lod, m.alt);
    m.bone = boneIndex;
    m.colorize = rs::istartsWith(m.name, "FC_");
    rs::SubMesh sm;
    sm.material.shader = shader;
    sm.material.params.push_back(float4("Diffuse", diffuse));
    m.subMeshes.push_back(sm);
    return m;
}

} // namespace

std::shared_ptr<rs::Model> makeFigure(const std::string& baseTexture) {
    auto m = std::make_shared<rs::Model>();
    m->format = rs::Format::AlamoModel;
    m->skeleton.bones = {bone("Root", -1, {0, 0, 0}), bone("Body", 0, {0, 0, 0}), bone("Arm", 1, {0.5f, 0, 2.0f}),
                         bone("Head", 1, {0, 0, 2.6f}), bone("Beacon", 3, {0, 0, 0.9f})};
    auto body0 = mesh("Body_LOD0", 1, "MeshGloss.fx", {0.75f, 0.75f, 0.75f, 1});
    addBox(body0.subMeshes[0], {-0.4f, -0.4f, 0.0f}, {0.4f, 0.4f, 2.3f});
    auto body1 = mesh("Body_LOD1", 1, "MeshGloss.fx", {0.75f, 0.75f, 0.75f, 1});
    addBox(body1.subMeshes[0], {-0.9f, -0.6f, 0.0f}, {0.9f, 0.6f, 2.3f});
    if (!baseTexture.empty())
        for (rs::Mesh* b : {&body0, &body1}) {
            rs::MaterialParam t;
            t.name = "BaseTexture";
            t.type = rs::ParamType::Texture;
            t.texture = baseTexture;
            b->subMeshes[0].material.params.push_back(t);
        }
    // Skinned arm in model space: shoulder cap on Body (palette 0), the rest on Arm (palette 1).
    auto arm = mesh("Arm", 2, "RSkinGloss.fx", {0.3f, 0.5f, 0.95f, 1});
    rs::SubMesh& as = arm.subMeshes[0];
    addBox(as, {0.4f, -0.2f, 1.8f}, {0.6f, 0.2f, 2.2f}, 0);
    addBox(as, {0.6f, -0.2f, 1.8f}, {2.4f, 0.2f, 2.2f}, 1);
    as.boneMap = {1, 2};
    as.vertexFormat = "alD3dVertRSkinNU2";
    auto hat0 = mesh("Hat_ALT0", 3, "MeshGloss.fx", {0.2f, 0.85f, 0.25f, 1});
    addBox(hat0.subMeshes[0], {-0.35f, -0.35f, 0.0f}, {0.35f, 0.35f, 0.6f});
    auto hat1 = mesh("Hat_ALT1", 3, "MeshGloss.fx", {0.9f, 0.15f, 0.1f, 1});
    addBox(hat1.subMeshes[0], {-0.6f, -0.6f, 0.0f}, {0.6f, 0.6f, 0.2f});
    // Colorized as the game does it: MeshGlossColorize, mask = base alpha (no texture: white, fully colorized).
    auto flag = mesh("FC_Flag", 1, "MeshGlossColorize.fx", {1, 1, 1, 1});
    addBox(flag.subMeshes[0], {-1.6f, -0.05f, 1.2f}, {-0.4f, 0.05f, 2.0f});
    m->meshes = {body0, body1, arm, hat0, hat1, flag};

    rs::Dazzle beacon;
    beacon.name = "FC_Beacon";
    beacon.color = {1.0f, 0.2f, 0.2f};
    beacon.radius = 0.45f;
    beacon.bone = 4;
    beacon.frequency = 1.0f;
    beacon.phase = 0.0f;
    beacon.hasBias = true;
    beacon.bias = 0.5f;
    beacon.colorize = true;
    rs::Dazzle lamp;
    lamp.name = "NightLamp";
    lamp.color = {1.0f, 0.95f, 0.6f};
    lamp.radius = 0.5f;
    lamp.bone = 1;
    lamp.position = {0.0f, 0.6f, 0.8f};
    lamp.nightOnly = true;
    m->dazzles = {beacon, lamp};

    rs::Proxy px;
    px.name = "p_smoke_ALT1";
    px.bone = 3;
    px.alt = 1;
    m->proxies = {px};
    return m;
}

std::shared_ptr<rs::Clip> makeArmClip() {
    auto c = std::make_shared<rs::Clip>();
    c->format = rs::Format::Unknown;
    c->name = "swing";
    c->frameCount = 11;
    c->fps = 10.0f;
    rs::BoneTrack t;
    t.bone = 2;
    t.boneName = "Arm";
    t.defaultTranslation = {0.5f, 0.0f, 2.0f};
    for (int f = 0; f < 11; ++f)
        t.rotation.push_back(glm::angleAxis(glm::radians(-9.0f * float(f)), glm::vec3(0, 1, 0)));
    c->tracks.push_back(t);
    return c;
}

} // namespace rs::test
