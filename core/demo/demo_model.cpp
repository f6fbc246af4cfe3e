#include "demo/demo_model.h"

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>

namespace rs::demo {

namespace {

constexpr float kPi = 3.14159265358979f;

enum BoneId { Root, Body, Turret, Barrel, ArmL, ArmR, Lamp, Antenna, Beacon, BoneCount };

// Appends geometry to a sub-mesh. palette >= 0 makes the vertices skinned to that bone-map entry.
struct Builder {
    SubMesh& sm;
    int palette = -1;
    glm::vec4 color{1.0f};

    void vertex(const glm::vec3& p, const glm::vec3& n, const glm::vec2& uv, const glm::vec3& t) {
        sm.positions.push_back(p);
        sm.normals.push_back(n);
        sm.uv0.push_back(uv);
        sm.uv1.push_back(uv);
        sm.tangents.push_back(t);
        sm.binormals.push_back(glm::cross(n, t));
        sm.colors.push_back(color);
        if (palette >= 0) {
            sm.boneIndices.push_back(glm::u16vec4(static_cast<uint16_t>(palette), 0, 0, 0));
            sm.boneWeights.push_back(glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
        }
    }
    void quad(uint32_t a) { sm.indices.insert(sm.indices.end(), {a, a + 1, a + 2, a, a + 2, a + 3}); }

    // Axis-aligned box; faces wound counter-clockwise seen from outside.
    void box(const glm::vec3& lo, const glm::vec3& hi) {
        const glm::vec3 c = (lo + hi) * 0.5f, h = (hi - lo) * 0.5f;
        const glm::vec3 X(1, 0, 0), Y(0, 1, 0), Z(0, 0, 1);
        const glm::vec3 faces[6][2] = {{X, Y}, {-X, -Y}, {Y, -X}, {-Y, X}, {Z, X}, {-Z, -X}};
        for (const auto& f : faces) {
            const glm::vec3 n = f[0], t = f[1], b = glm::cross(n, t);
            const float hn = glm::dot(glm::abs(n), h), ht = glm::dot(glm::abs(t), h), hb = glm::dot(glm::abs(b), h);
            const glm::vec3 fc = c + n * hn;
            const uint32_t base = static_cast<uint32_t>(sm.positions.size());
            vertex(fc - t * ht - b * hb, n, {0, 0}, t);
            vertex(fc + t * ht - b * hb, n, {1, 0}, t);
            vertex(fc + t * ht + b * hb, n, {1, 1}, t);
            vertex(fc - t * ht + b * hb, n, {0, 1}, t);
            quad(base);
        }
    }

    // Elliptic prism of `segments` sides around axis w from origin to origin + w*length; (u, v, w) right-handed.
    void prism(const glm::vec3& origin, const glm::vec3& u, const glm::vec3& v, const glm::vec3& w, float ru, float rv,
               float length, int segments) {
        for (int i = 0; i < segments; ++i) {
            const float a0 = 2 * kPi * i / segments, a1 = 2 * kPi * (i + 1) / segments;
            auto ring = [&](float a) { return origin + u * (std::cos(a) * ru) + v * (std::sin(a) * rv); };
            auto normal = [&](float a) { return glm::normalize(u * (std::cos(a) / ru) + v * (std::sin(a) / rv)); };
            const glm::vec3 p0 = ring(a0), p1 = ring(a1);
            const glm::vec3 t = glm::normalize(p1 - p0);
            const uint32_t base = static_cast<uint32_t>(sm.positions.size());
            const float s0 = float(i) / segments, s1 = float(i + 1) / segments;
            vertex(p0, normal(a0), {s0, 0}, t);
            vertex(p1, normal(a1), {s1, 0}, t);
            vertex(p1 + w * length, normal(a1), {s1, 1}, t);
            vertex(p0 + w * length, normal(a0), {s0, 1}, t);
            quad(base);
        }
        for (int cap = 0; cap < 2; ++cap) {
            const glm::vec3 n = cap ? w : -w, off = cap ? w * length : glm::vec3(0.0f);
            const uint32_t centre = static_cast<uint32_t>(sm.positions.size());
            vertex(origin + off, n, {0.5f, 0.5f}, u);
            for (int i = 0; i < segments; ++i) {
                const float a = 2 * kPi * i / segments;
                vertex(origin + off + u * (std::cos(a) * ru) + v * (std::sin(a) * rv), n,
                       {0.5f + 0.5f * std::cos(a), 0.5f + 0.5f * std::sin(a)}, u);
            }
            for (int i = 0; i < segments; ++i) {
                const uint32_t a = centre + 1 + i, b = centre + 1 + (i + 1) % segments;
                if (cap)
                    sm.indices.insert(sm.indices.end(), {centre, a, b});
                else
                    sm.indices.insert(sm.indices.end(), {centre, b, a});
            }
        }
    }
};

MaterialParam f4(const char* name, glm::vec4 v) {
    MaterialParam p;
    p.name = name;
    p.type = ParamType::Float4;
    p.value = v;
    return p;
}

MaterialParam f1(const char* name, float v) {
    MaterialParam p;
    p.name = name;
    p.type = ParamType::Float;
    p.value = glm::vec4(v, 0, 0, 0);
    return p;
}

SubMesh gloss(const glm::vec3& diffuse, const char* shader = "MeshGloss.fx") {
    SubMesh sm;
    sm.material.shader = shader;
    sm.vertexFormat = "alD3dVertNU2";
    sm.material.params = {f4("Diffuse", glm::vec4(diffuse, 1.0f)), f4("Specular", glm::vec4(0.6f, 0.6f, 0.6f, 1.0f)),
                          f1("Shininess", 24.0f)};
    return sm;
}

Mesh mesh(const char* name, int bone, SubMesh sm) {
    Mesh m;
    m.name = name;
    m.bone = bone;
    if (!sm.positions.empty()) {
        m.boundsMin = m.boundsMax = sm.positions[0];
        for (const auto& p : sm.positions)
            m.boundsMin = glm::min(m.boundsMin, p), m.boundsMax = glm::max(m.boundsMax, p);
    }
    m.subMeshes.push_back(std::move(sm));
    return m;
}

Bone bone(const char* name, int parent, glm::vec3 t, int billboard = 0) {
    Bone b;
    b.name = name;
    b.parent = parent;
    b.bindLocal = glm::translate(glm::mat4(1.0f), t);
    b.billboard = billboard;
    return b;
}

const glm::vec3 kBind[BoneCount] = {{0, 0, 0},         {0, 0, 1.0f},        {0, 0, 1.0f},
                                    {0, 0.4f, 0.25f},  {-0.75f, 0, 0.9f},   {0.75f, 0, 0.9f},
                                    {0, -0.25f, 0.5f}, {0.3f, -0.3f, 0.5f}, {0, 0, 0.6f}};

} // namespace

Model demoModelSource() {
    Model m;
    m.format = Format::AlamoModel;
    const char* names[BoneCount] = {"Root", "Body", "Turret", "Barrel", "Arm_L", "Arm_R", "Lamp", "Antenna", "Beacon"};
    const int parents[BoneCount] = {-1, Root, Body, Turret, Body, Body, Turret, Turret, Antenna};
    for (int i = 0; i < BoneCount; ++i)
        m.skeleton.bones.push_back(bone(names[i], parents[i], kBind[i]));

    // Skinned limbs in model space: arms follow Arm_L/Arm_R, legs stay with Root.
    {
        SubMesh sm;
        sm.material.shader = "RSkinGlossColorize.fx";
        sm.vertexFormat = "alD3dVertRSkinNU2";
        sm.material.params = {f4("Diffuse", {0.55f, 0.58f, 0.62f, 1}), f4("Specular", {0.5f, 0.5f, 0.5f, 1}),
                              f1("Shininess", 16.0f), f4("Colorization", {0.2f, 0.4f, 1.0f, 1})};
        sm.boneMap = {ArmL, ArmR, Root};
        Builder b{sm};
        b.palette = 0;
        b.box({-0.9f, -0.14f, 1.0f}, {-0.6f, 0.14f, 1.95f});
        b.palette = 1;
        b.box({0.6f, -0.14f, 1.0f}, {0.9f, 0.14f, 1.95f});
        b.palette = 2;
        b.box({-0.5f, -0.16f, 0.1f}, {-0.18f, 0.16f, 1.05f});
        b.box({0.18f, -0.16f, 0.1f}, {0.5f, 0.16f, 1.05f});
        b.box({-0.55f, -0.2f, 0.0f}, {-0.13f, 0.4f, 0.12f});
        b.box({0.13f, -0.2f, 0.0f}, {0.55f, 0.4f, 0.12f});
        m.meshes.push_back(mesh("Limbs", Root, std::move(sm)));
    }
    // Body in two levels of detail (higher number = more detail), rigid on Body.
    {
        SubMesh sm = gloss({0.35f, 0.45f, 0.6f});
        Builder{sm}.box({-0.6f, -0.4f, 0.0f}, {0.6f, 0.4f, 1.0f});
        m.meshes.push_back(mesh("Body_LOD0", Body, std::move(sm)));
        SubMesh hi = gloss({0.35f, 0.45f, 0.6f});
        Builder{hi}.prism({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 0.65f, 0.45f, 1.0f, 16);
        m.meshes.push_back(mesh("Body_LOD1", Body, std::move(hi)));
    }
    // Faction stripe: colourised because of its FC_ name (the renderer replaces Color).
    {
        SubMesh sm = gloss({1, 1, 1}, "MeshGlossColorize.fx");
        sm.material.params.push_back(f4("Color", {1, 1, 1, 1}));
        Builder{sm}.prism({0, 0, 0.55f}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 0.68f, 0.48f, 0.15f, 16);
        m.meshes.push_back(mesh("FC_Stripe", Body, std::move(sm)));
    }
    // Turret: intact (ALT0) and damaged (ALT1).
    {
        SubMesh sm = gloss({0.7f, 0.68f, 0.6f});
        Builder{sm}.box({-0.45f, -0.45f, 0.0f}, {0.45f, 0.4f, 0.5f});
        m.meshes.push_back(mesh("Turret_ALT0", Turret, std::move(sm)));
        SubMesh dmg = gloss({0.3f, 0.25f, 0.22f});
        Builder bd{dmg};
        bd.box({-0.45f, -0.45f, 0.0f}, {0.45f, 0.4f, 0.3f});
        bd.box({-0.45f, -0.45f, 0.3f}, {0.0f, 0.1f, 0.45f});
        m.meshes.push_back(mesh("Turret_ALT1", Turret, std::move(dmg)));
    }
    {
        SubMesh sm = gloss({0.2f, 0.2f, 0.22f});
        Builder{sm}.prism({0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {0, 1, 0}, 0.09f, 0.09f, 0.8f, 12);
        m.meshes.push_back(mesh("Barrel", Barrel, std::move(sm)));
    }
    {
        SubMesh sm = gloss({0.8f, 0.8f, 0.8f});
        Builder{sm}.box({-0.03f, -0.03f, 0.0f}, {0.03f, 0.03f, 0.6f});
        m.meshes.push_back(mesh("Antenna", Antenna, std::move(sm)));
    }
    // Additive lamp glow with vertex colours.
    {
        SubMesh sm;
        sm.material.shader = "MeshAdditive.fx";
        sm.vertexFormat = "alD3dVertNU2C";
        sm.material.params = {f4("Color", {1.0f, 0.85f, 0.5f, 1.0f})};
        Builder b{sm};
        b.color = {1.0f, 0.9f, 0.6f, 1.0f};
        b.box({-0.12f, -0.12f, 0.0f}, {0.12f, 0.12f, 0.15f});
        m.meshes.push_back(mesh("Lamp_Glow", Lamp, std::move(sm)));
    }
    // Collision hull: not drawn in game; carries a one-leaf collision tree.
    {
        SubMesh sm;
        sm.material.shader = "MeshCollision.fx";
        sm.vertexFormat = "alD3dVertN";
        sm.material.params = {f4("Color", {0, 0, 1, 0.5f})};
        Builder{sm}.box({-0.9f, -0.5f, -1.0f}, {0.9f, 0.5f, 1.6f});
        sm.hasCollisionTree = true;
        sm.collision.boxMin = {-0.9f, -0.5f, -1.0f};
        sm.collision.boxMax = {0.9f, 0.5f, 1.6f};
        sm.collision.nodes.push_back({{0, 0, 0}, {255, 255, 255}, 12, 0});
        for (uint16_t t = 0; t < 12; ++t)
            sm.collision.triangles.push_back(t);
        Mesh c = mesh("Collision", Body, std::move(sm));
        c.hidden = true;
        c.collisionEnabled = true;
        m.meshes.push_back(std::move(c));
    }
    {
        Light l;
        l.name = "Lamp_Light";
        l.type = static_cast<int>(LightType::Omni);
        l.color = {1.0f, 0.85f, 0.6f};
        l.intensity = 1.5f;
        l.farAttenuationEnd = 8.0f;
        l.farAttenuationStart = 3.0f;
        l.bone = Lamp;
        m.lights.push_back(l);
    }
    {
        Dazzle d;
        d.name = "FC_Beacon";
        d.color = {1.0f, 0.2f, 0.2f};
        d.radius = 0.25f;
        // No texture: the demo ships no art, and the render layer draws a dazzle without one as a round glow.
        d.frequency = 1.0f;
        d.hasBias = true;
        d.bias = 0.5f;
        d.bone = Beacon;
        m.dazzles.push_back(d);
        Dazzle n;
        n.name = "NightLamp";
        n.color = {1.0f, 0.9f, 0.6f};
        n.position = {0.0f, 0.0f, 0.2f};
        n.radius = 0.35f;
        n.nightOnly = true;
        n.bone = Lamp;
        m.dazzles.push_back(n);
    }
    {
        Proxy p;
        p.name = "p_smoke_ALT1";
        p.bone = Barrel;
        p.altDecreaseStayHidden = true;
        m.proxies.push_back(p);
    }
    return m;
}

Clip demoClipSource() {
    Clip c;
    c.format = Format::AlamoClip;
    c.name = "RIGSCOPE_DEMO_IDLE_00";
    c.frameCount = 31;
    c.fps = 15.0f;
    const uint32_t n = c.frameCount;
    const char* names[BoneCount] = {"Root", "Body", "Turret", "Barrel", "Arm_L", "Arm_R", "Lamp", "Antenna", "Beacon"};
    auto track = [&](int b) {
        BoneTrack t;
        t.bone = b;
        t.boneName = names[b];
        t.defaultTranslation = kBind[b];
        return t;
    };
    auto phase = [&](uint32_t f) { return 2.0f * kPi * float(f) / float(n - 1); };

    BoneTrack body = track(Body); // bob twice per loop
    for (uint32_t f = 0; f < n; ++f)
        body.translation.push_back(kBind[Body] + glm::vec3(0, 0, 0.05f * std::sin(2 * phase(f))));
    BoneTrack turret = track(Turret); // yaw +-30 degrees
    for (uint32_t f = 0; f < n; ++f)
        turret.rotation.push_back(glm::angleAxis(glm::radians(30.0f) * std::sin(phase(f)), glm::vec3(0, 0, 1)));
    BoneTrack barrel = track(Barrel); // recoil: snaps back at frame 6 (step bit on 5), recovers by 10
    barrel.step.assign(n, 0);
    barrel.step[5] = 1;
    for (uint32_t f = 0; f < n; ++f) {
        float r = (f >= 6 && f < 10) ? 0.15f * float(10 - f) / 4.0f : 0.0f;
        barrel.translation.push_back(kBind[Barrel] - glm::vec3(0, r, 0));
    }
    barrel.rotation = {glm::quat(1, 0, 0, 0)};
    BoneTrack armL = track(ArmL), armR = track(ArmR); // swing +-35 degrees about X, opposite phase
    for (uint32_t f = 0; f < n; ++f) {
        const float a = glm::radians(35.0f) * std::sin(phase(f));
        armL.rotation.push_back(glm::angleAxis(a, glm::vec3(1, 0, 0)));
        armR.rotation.push_back(glm::angleAxis(-a, glm::vec3(1, 0, 0)));
    }
    BoneTrack antenna = track(Antenna); // stretches and blinks out for frames 12..17
    for (uint32_t f = 0; f < n; ++f) {
        antenna.scale.push_back(glm::vec3(1, 1, 1 + 0.25f * std::sin(phase(f))));
        antenna.visibility.push_back(f >= 12 && f <= 17 ? 0 : 1);
    }
    c.tracks = {body, turret, barrel, armL, armR, antenna};
    return c;
}

std::vector<uint8_t> demoAloBytes() { return alamo::writeModel(demoModelSource()); }
std::vector<uint8_t> demoAlaBytes() { return alamo::writeClip(demoClipSource()); }

Document loadDemo() {
    Document d;
    d.path = "rigscope-demo.alo";
    d.format = Format::AlamoModel;
    const std::vector<uint8_t> alo = demoAloBytes(), ala = demoAlaBytes();
    d.model = std::make_shared<Model>(alamo::readModel(ByteSpan(alo), d.path));
    d.model->sourcePath.clear();
    d.clips.push_back(std::make_shared<Clip>(alamo::readClip(ByteSpan(ala), "RIGSCOPE_DEMO_IDLE_00.ala")));
    return d;
}

} // namespace rs::demo
