// BFME's NormalMapped.fx (render/shaders_w3d_fx.cpp) against its formula evaluated on the CPU here (independent of
// the GLSL): a writer-made .w3d quad with a NormalMapped.fx shader material (textures written beside it, tangent
// frame in chunks 0x60/0x61 or none), rendered through the view, pixels sampled and compared with
//   colour = tex * saturate(Ambient * AmbientColor * 0.5) * 2
//          + sum over lights of LightColor * [N.L > 0] (tex * DiffuseColor * N.L + SpecularColor * [N.H > 0] pow(N.H,
//          e))
// with N the normal map texel (tex * 2 - 1, xy * BumpScale, normalised) in the frame (-binormal, -tangent, normal),
// L towards each light and H the per-vertex unit half vector, interpolated; alpha test at 0x60.
// The light environment is the view's default W3D rig (render/lights.cpp uploadLights without model lights, the
// scene ambient of scene_view.cpp), recomputed here. Tolerance 4/255 per channel (8-bit framebuffer and texels).
#include "render_harness.h"

#include "formats/shader_registry.h"
#include "lights.h"
#include "texture/texture_writer.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"

#include <QFile>
#include <QTemporaryDir>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

using rs::render::ViewOptions;
using namespace rs::test;

namespace {

const QColor kBg(20, 24, 30);
constexpr int kTol = 4;
using V2 = glm::vec2;
using V3 = glm::vec3;
using V4 = glm::vec4;

// The quad: 2x2 in the XZ plane facing -Y (the camera at yaw 180 looks along +Y), engine u along +X, engine v along
// -Z. Stored UVs are the file's (OpenGL v = 1 - engine v), so dP/du = +X, dP/dv = +Z: the frame BFME's tools write
// is tangent = -dP/dv = -Z, binormal = +X, and the shader's basis is x = -binormal, y = -tangent, z = normal.
const V3 kNormal(0, -1, 0), kTangent(0, 0, -1), kBinormal(1, 0, 0);
const V3 kFx = -kBinormal, kFy = -kTangent, kFz = kNormal;
V3 toFrame(V3 w) { return V3(glm::dot(w, kFx), glm::dot(w, kFy), glm::dot(w, kFz)); }
// Four triangles around a centre vertex (4): the centre pixel takes that vertex's terms as they are.
const V3 kCentre(0, 0, 0), kCorner0(-1, 0, 1);

// A w x h TGA (32-bit, rows stored top first: row 0 is engine v = 0) coloured by f(u, v) at texel centres, made by
// the project's TGA writer.
void writeTga(const QString& path, int w, int h, const std::function<V4(float, float)>& f) {
    rs::Image img;
    img.width = w;
    img.height = h;
    img.hasAlpha = true;
    img.rgba.resize(size_t(w) * size_t(h) * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const V4 c = f((x + 0.5f) / float(w), (y + 0.5f) / float(h));
            for (int k = 0; k < 4; ++k)
                img.rgba[(size_t(y) * size_t(w) + size_t(x)) * 4 + size_t(k)] =
                    uint8_t(std::lround(glm::clamp(c[k], 0.0f, 1.0f) * 255.0f));
        }
    const std::vector<uint8_t> b = rs::writeTga(img, rs::TgaKind::TrueColour32, false, true);
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
}
// Left half (u < 0.5) one colour, right half another (8x8 texels).
void halvesTga(const QString& path, V4 left, V4 right) {
    writeTga(path, 8, 8, [&](float u, float) { return u < 0.5f ? left : right; });
}
V4 q8(V4 c) { return glm::round(glm::clamp(c, 0.0f, 1.0f) * 255.0f) / 255.0f; }
// Texel of a tangent-space normal (the frame's x, y, z) and the normal the shader decodes from it.
V4 normalTexel(V3 t) { return V4(glm::normalize(t) * 0.5f + 0.5f, 1.0f); }
V3 decoded(V4 texel, float bumpScale) {
    V3 n = V3(q8(texel)) * 2.0f - 1.0f;
    n.x *= bumpScale;
    n.y *= bumpScale;
    return glm::normalize(n);
}

struct Fx {
    std::string typeName = "NormalMapped.fx"; // C&C 3: ObjectsGDI.fx, ObjectsNOD.fx, ObjectsGeneric.fx
    std::string specMap, recolorTexture;      // Objects: written when named
    float envMult = 1.0f;                     // ObjectsGeneric: EnvMult
    std::string diffuseTexture = "d.tga", normalMap = "n.tga";
    float bumpScale = 1.0f;
    V3 ambient{0.4f}, diffuse{1.0f}, specular{0.0f};
    float exponent = 50.0f;
    bool alphaTest = false;
    bool storeFrame = true; // write chunks 0x60/0x61
    bool skinned = false;   // a skin on a bone turned 90 degrees about Z, its vertices in that bone's space
};

// Rz(-90 degrees): world to the skin bone's space.
V3 toBone(V3 w) { return V3(w.y, -w.x, w.z); }

rs::w3d::ShaderMaterialProperty prop(const char* name, uint32_t type) {
    rs::w3d::ShaderMaterialProperty p;
    p.name = name;
    p.type = type;
    return p;
}

std::shared_ptr<rs::Model> quadModel(const Fx& fx, const QString& dir) {
    rs::w3d::RawMesh m;
    m.name = "QUAD";
    m.attributes = 0x00002000u; // two-sided: what the test sees does not depend on the winding
    m.positions = {{-1, 0, 1}, {1, 0, 1}, {1, 0, -1}, {-1, 0, -1}, kCentre};
    m.normals.assign(5, kNormal);
    m.indices = {0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4};
    m.boundsMin = {-1, 0, -1};
    m.boundsMax = {1, 0, 1};
    if (fx.storeFrame) {
        m.tangents.assign(5, kTangent);
        m.bitangents.assign(5, kBinormal);
    }
    rs::w3d::ShaderMaterial sm;
    sm.typeName = fx.typeName;
    auto texture = [&](const char* name, const std::string& file) {
        auto p = prop(name, 1);
        p.text = file;
        sm.properties.push_back(p);
    };
    auto colour = [&](const char* name, V3 c) {
        auto p = prop(name, 5);
        p.value = V4(c, 1.0f);
        sm.properties.push_back(p);
    };
    auto number = [&](const char* name, float v) {
        auto p = prop(name, 2);
        p.value.x = v;
        sm.properties.push_back(p);
    };
    texture("DiffuseTexture", fx.diffuseTexture);
    texture("NormalMap", fx.normalMap);
    if (!fx.specMap.empty()) texture("SpecMap", fx.specMap);
    if (!fx.recolorTexture.empty()) texture("RecolorTexture", fx.recolorTexture);
    number("EnvMult", fx.envMult);
    number("BumpScale", fx.bumpScale);
    colour("AmbientColor", fx.ambient);
    colour("DiffuseColor", fx.diffuse);
    colour("SpecularColor", fx.specular);
    number("SpecularExponent", fx.exponent);
    auto at = prop("AlphaTestEnable", 7);
    at.intValue = fx.alphaTest ? 1 : 0;
    sm.properties.push_back(at);
    m.shaderMaterials = {sm};
    rs::w3d::MaterialPass p;
    p.shaderMaterialIds = {0};
    for (V2 e : std::vector<V2>{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5f, 0.5f}})
        p.uv.push_back(V2(e.x, 1.0f - e.y));
    m.passes = {p};
    rs::w3d::ChunkWriter cw(false);
    if (fx.skinned) {
        rs::w3d::Hierarchy h;
        h.version = 0x40001;
        h.name = "QUAD_SKL";
        rs::w3d::Pivot root, bone;
        root.name = "RootTransform";
        bone.name = "TURNED";
        bone.parent = 0;
        bone.rotation = glm::angleAxis(glm::radians(90.0f), V3(0, 0, 1));
        h.pivots = {root, bone};
        rs::w3d::writeHierarchy(cw, h);
        m.container = "UNIT";
        m.attributes |= 0x00020000u; // skin
        m.influences.assign(m.positions.size(), rs::w3d::VertexInfluence{1, 0, 0, 0});
        for (auto* a : {&m.positions, &m.normals, &m.tangents, &m.bitangents})
            for (V3& v : *a)
                v = toBone(v);
        m.boundsMin = glm::min(toBone(V3(-1, 0, -1)), toBone(V3(1, 0, 1)));
        m.boundsMax = glm::max(toBone(V3(-1, 0, -1)), toBone(V3(1, 0, 1)));
        rs::w3d::writeMesh(cw, m);
        rs::w3d::Hlod hlod;
        hlod.name = "UNIT";
        hlod.hierarchy = "QUAD_SKL";
        rs::w3d::LodArray lod;
        lod.maxScreenSize = 3.0e38f;
        lod.objects = {{0, "UNIT.QUAD"}};
        hlod.lods = {lod};
        rs::w3d::writeHlod(cw, hlod);
    } else {
        rs::w3d::writeMesh(cw, m);
    }
    const std::vector<uint8_t> bytes = cw.take();
    QFile f(dir + "/quad.w3d");
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    rs::Document d = rs::w3d::loadSet(rs::ByteSpan(bytes.data(), bytes.size()), (dir + "/quad.w3d").toStdString());
    REQUIRE(d.model);
    REQUIRE(d.model->meshes.size() == 1);
    const rs::Mesh& mesh = d.model->meshes[0];
    REQUIRE(mesh.subMeshes.size() == 1);
    REQUIRE(mesh.subMeshes[0].tangents.size() == (fx.storeFrame ? 5u : 0u));
    REQUIRE(mesh.subMeshes[0].skinned() == fx.skinned);
    return d.model;
}

struct Shot {
    QImage img;
    QRect box;
    QColor at(float u, float v) const { // engine (u, v) across the quad
        return img.pixelColor(box.left() + int(u * float(box.width() - 1) + 0.5f),
                              box.top() + int(v * float(box.height() - 1) + 0.5f));
    }
};

Shot render(const std::shared_ptr<rs::Model>& m, const QString& dir, QRect box = {}) {
    ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.background = kBg;
    auto& v = view();
    v.setOptions(o);
    v.setModel(m, dir + "/quad.w3d");
    v.setCameraAngles(180.0f, 0.0f);
    Shot s;
    s.img = grab();
    REQUIRE(!s.img.isNull());
    s.box = box.isValid() ? box : foreground(s.img, kBg, 2);
    REQUIRE(s.box.width() > 40);
    REQUIRE(s.box.height() > 40);
    return s;
}

V3 eyeOfView() { // the quad's mesh has no bone: world = model space
    const QVector3D e = view().window()->camera()->position();
    return V3(e.x(), e.y(), e.z());
}

// The view's default W3D light rig (render/lights.cpp uploadLights, no model lights, Z up) and scene ambient
// (scene_view.cpp): colour and the unit vector towards each light.
struct Light {
    V3 toward, colour;
};
std::vector<Light> rig() {
    const V3 up(0, 0, 1), side(1, 0, 0), fwd(0, 1, 0);
    const V3 dirs[3] = {rs::render::keyLightDirection(true), glm::normalize(side * 0.7f - fwd * 0.3f - up * 0.3f),
                        glm::normalize(fwd * 0.8f - up * 0.5f)};
    const float col[3] = {0.85f, 0.35f, 0.25f};
    std::vector<Light> l;
    for (int i = 0; i < 3; ++i)
        l.push_back({-dirs[i], V3(col[i])});
    return l;
}
const V3 kSceneAmbient(0.22f, 0.22f, 0.25f);

// Unit half vector of light l and the eye at vertex p, in the frame.
V3 halfAt(const Light& l, V3 p, V3 eye) { return glm::normalize(toFrame(glm::normalize(eye - p) + l.toward)); }

// A point of the quad as the vertices it is interpolated from: (weight, vertex position).
using Blend = std::vector<std::pair<float, V3>>;
const Blend kAtCentre = {{1.0f, kCentre}};
const Blend kHalfwayToCorner0 = {{0.5f, kCentre}, {0.5f, kCorner0}};
// Engine (0.25, 0.5) and (0.75, 0.5): half-way from the centre to the middle of the left and right edges.
const Blend kLeftMiddle = {{0.5f, kCentre}, {0.25f, V3(-1, 0, 1)}, {0.25f, V3(-1, 0, -1)}};
const Blend kRightMiddle = {{0.5f, kCentre}, {0.25f, V3(1, 0, 1)}, {0.25f, V3(1, 0, -1)}};

// The formula at a point of the quad: the per-vertex unit half vectors blended there, not renormalised (the quad
// faces the camera: the interpolation is linear across it).
V3 normalMapped(const Fx& fx, V4 texel, V3 n, V3 eye, const Blend& at = kAtCentre) {
    const V3 tex = V3(q8(texel));
    V3 c = tex * glm::clamp(kSceneAmbient * fx.ambient * 0.5f, 0.0f, 1.0f) * 2.0f;
    for (const Light& l : rig()) {
        const float ndl = glm::dot(n, toFrame(l.toward));
        if (ndl <= 0.0f) continue;
        V3 h(0.0f);
        for (const auto& [w, p] : at)
            h += w * halfAt(l, p, eye);
        const float ndh = glm::dot(n, h);
        const float s = ndh > 0.0f ? std::pow(ndh, fx.exponent) : 0.0f;
        c += l.colour * (tex * fx.diffuse * ndl + fx.specular * s);
    }
    return glm::clamp(c, 0.0f, 1.0f);
}

void checkPixel(const QColor& got, V3 want, const std::string& what) {
    const V3 w = glm::clamp(want, 0.0f, 1.0f) * 255.0f;
    INFO(what << ": got " << got.red() << "," << got.green() << "," << got.blue() << " want " << w.x << "," << w.y
              << "," << w.z);
    CHECK(std::abs(got.red() - w.x) <= kTol);
    CHECK(std::abs(got.green() - w.y) <= kTol);
    CHECK(std::abs(got.blue() - w.z) <= kTol);
}
float luminance(const QColor& c) { return 0.299f * c.red() + 0.587f * c.green() + 0.114f * c.blue(); }

const V4 kTex(0.8f, 0.7f, 0.6f, 1.0f);
// Normals tilted 30 degrees about the frame's y axis: towards -x (left half) and +x (right half). The key light
// lies on the -x side of the frame (towards it: x = -0.44), so the left half faces it more.
const V3 kTiltLeft(-0.5f, 0.0f, 0.866f), kTiltRight(0.5f, 0.0f, 0.866f);

} // namespace

TEST_CASE("NormalMapped.fx is drawn by its formula, not the generic program", "[render][w3d][fx]") {
    QTemporaryDir dir;
    const auto m = quadModel(Fx{}, dir.path());
    const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3d, m->meshes[0], m->meshes[0].subMeshes[0].material);
    CHECK(info.impl == rs::ShaderImpl::W3dNormalMapped);
    CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
}

TEST_CASE("NormalMapped.fx: a tilted normal map lights the side facing the light brighter, by the formula",
          "[render][w3d][fx]") {
    QTemporaryDir dir;
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    const V4 nl = normalTexel(kTiltLeft), nr = normalTexel(kTiltRight);
    halvesTga(dir.path() + "/n.tga", nl, nr);
    Fx fx;
    fx.diffuse = V3(0.9f, 0.8f, 1.0f);
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const V3 left = normalMapped(fx, kTex, decoded(nl, 1.0f), eye),
             right = normalMapped(fx, kTex, decoded(nr, 1.0f), eye);
    const V3 flat = normalMapped(fx, kTex, V3(0, 0, 1), eye);
    // The formula's own difference between the halves is large enough to see.
    REQUIRE(left.x - right.x > 0.1f);
    checkPixel(s.at(0.25f, 0.5f), left, "normal tilted towards the key light");
    checkPixel(s.at(0.75f, 0.5f), right, "normal tilted away from the key light");
    CHECK(luminance(s.at(0.25f, 0.5f)) > luminance(s.at(0.75f, 0.5f)) + 20.0f);
    CHECK(std::abs(luminance(s.at(0.25f, 0.5f)) - 255.0f * (0.299f * flat.x + 0.587f * flat.y + 0.114f * flat.z)) >
          8.0f);
}

TEST_CASE("NormalMapped.fx: BumpScale 0 gives the flat-lit result", "[render][w3d][fx]") {
    QTemporaryDir dir;
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", normalTexel(kTiltLeft), normalTexel(kTiltRight));
    halvesTga(dir.path() + "/flat.tga", V4(0.5f, 0.5f, 1.0f, 1.0f), V4(0.5f, 0.5f, 1.0f, 1.0f));
    Fx fx;
    fx.bumpScale = 0.0f;
    fx.ambient = V3(0.6f, 0.5f, 0.4f);
    fx.diffuse = V3(0.7f, 0.9f, 0.8f);
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const V3 flat = normalMapped(fx, kTex, V3(0, 0, 1), eye);
    checkPixel(s.at(0.25f, 0.5f), flat, "BumpScale 0, left half");
    checkPixel(s.at(0.75f, 0.5f), flat, "BumpScale 0, right half");
    // The same image as a flat normal map at BumpScale 1.
    Fx flatFx = fx;
    flatFx.bumpScale = 1.0f;
    flatFx.normalMap = "flat.tga";
    const Shot f = render(quadModel(flatFx, dir.path()), dir.path());
    CHECK(meanDifference(s.img, f.img) < 0.5);
}

TEST_CASE("NormalMapped.fx: specular highlight at the mirror direction, falling off with SpecularExponent",
          "[render][w3d][fx]") {
    QTemporaryDir dir;
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    // First render to learn the eye; the normal map then points along the key light's half vector at the centre.
    halvesTga(dir.path() + "/n.tga", normalTexel(V3(0, 0, 1)), normalTexel(V3(0, 0, 1)));
    Fx fx;
    fx.ambient = V3(0.0f);
    fx.diffuse = V3(0.0f);
    fx.specular = V3(0.5f, 0.4f, 0.3f);
    fx.exponent = 50.0f;
    (void)render(quadModel(Fx{}, dir.path()), dir.path()); // the camera frames the same quad in every case
    const V3 eye = eyeOfView();
    const Light key = rig()[0];
    const V3 mirror = halfAt(key, kCentre, eye);
    // 8 degrees off the mirror direction (turned about the frame's y axis).
    const float a = glm::radians(8.0f);
    const V3 off = glm::normalize(V3(mirror.x * std::cos(a) + mirror.z * std::sin(a), mirror.y,
                                     -mirror.x * std::sin(a) + mirror.z * std::cos(a)));
    const V4 nm = normalTexel(mirror), no = normalTexel(off);
    halvesTga(dir.path() + "/m.tga", nm, nm);
    halvesTga(dir.path() + "/o.tga", no, no);
    Fx at = fx;
    at.normalMap = "m.tga";
    const V3 peak = normalMapped(at, kTex, decoded(nm, 1.0f), eye);
    REQUIRE(peak.x > 0.4f); // 0.85 x 0.5: the full highlight of the key light
    const Shot atMirror = render(quadModel(at, dir.path()), dir.path());
    checkPixel(atMirror.at(0.5f, 0.5f), peak, "normal at the mirror direction");
    // Half-way to a corner the interpolated half vector is shorter than 1 and the highlight dimmer than a per-pixel
    // half vector would make it.
    const V3 between = normalMapped(at, kTex, decoded(nm, 1.0f), eye, kHalfwayToCorner0);
    REQUIRE(between.x < 0.9f * peak.x);
    checkPixel(atMirror.at(0.25f, 0.25f), between, "half-way to corner 0, interpolated half vector");
    Fx away = fx;
    away.normalMap = "o.tga";
    const V3 lower = normalMapped(away, kTex, decoded(no, 1.0f), eye);
    REQUIRE(lower.x < 0.85f * peak.x); // the key light's term x cos(8 deg)^50 = 0.61
    checkPixel(render(quadModel(away, dir.path()), dir.path()).at(0.5f, 0.5f), lower, "8 degrees off, exponent 50");
    Fx soft = away;
    soft.exponent = 5.0f;
    checkPixel(render(quadModel(soft, dir.path()), dir.path()).at(0.5f, 0.5f),
               normalMapped(soft, kTex, decoded(no, 1.0f), eye), "8 degrees off, exponent 5");
}

TEST_CASE("NormalMapped.fx: AlphaTestEnable cuts pixels whose texture alpha is below 0x60", "[render][w3d][fx]") {
    QTemporaryDir dir;
    // Left half alpha 100/255 (kept), right half 90/255 (cut); 0x60 = 96.
    const V4 keep(0.8f, 0.7f, 0.6f, 100.0f / 255.0f), cut(0.8f, 0.7f, 0.6f, 90.0f / 255.0f);
    halvesTga(dir.path() + "/d.tga", keep, cut);
    halvesTga(dir.path() + "/n.tga", normalTexel(V3(0, 0, 1)), normalTexel(V3(0, 0, 1)));
    Fx fx;
    const Shot whole = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const V3 lit = normalMapped(fx, keep, V3(0, 0, 1), eye);
    // Without the alpha test the effect is opaque: both halves drawn, unblended.
    checkPixel(whole.at(0.25f, 0.5f), lit, "no alpha test, alpha 100");
    checkPixel(whole.at(0.75f, 0.5f), lit, "no alpha test, alpha 90");
    fx.alphaTest = true;
    const Shot tested = render(quadModel(fx, dir.path()), dir.path(), whole.box);
    checkPixel(tested.at(0.25f, 0.5f), lit, "alpha test, alpha 100 kept");
    const V3 bg(kBg.redF(), kBg.greenF(), kBg.blueF());
    checkPixel(tested.at(0.75f, 0.5f), bg, "alpha test, alpha 90 cut");
}

TEST_CASE("NormalMapped.fx without a stored tangent frame: derived from the UVs, the same look", "[render][w3d][fx]") {
    QTemporaryDir dir;
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    const V4 nl = normalTexel(kTiltLeft), nr = normalTexel(kTiltRight);
    halvesTga(dir.path() + "/n.tga", nl, nr);
    Fx fx;
    fx.storeFrame = false;
    const auto m = quadModel(fx, dir.path());
    const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3d, m->meshes[0], m->meshes[0].subMeshes[0].material);
    CHECK(info.fidelity == rs::ShaderFidelity::Approximation);
    CHECK(info.note.find("derived from the UVs") != std::string::npos);
    const Shot s = render(m, dir.path());
    const V3 eye = eyeOfView();
    checkPixel(s.at(0.25f, 0.5f), normalMapped(fx, kTex, decoded(nl, 1.0f), eye), "derived frame, left half");
    checkPixel(s.at(0.75f, 0.5f), normalMapped(fx, kTex, decoded(nr, 1.0f), eye), "derived frame, right half");
}

TEST_CASE("NormalMapped.fx on a skin: the tangent frame turns with its bone", "[render][w3d][fx]") {
    // The skin's vertices, normals, tangents and binormals are stored in the space of a bone turned 90 degrees
    // about Z; posed, the quad and its frame are the rigid quad's, and so is the lighting. A frame left in bone
    // space would light the tilted halves differently.
    QTemporaryDir dir;
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    const V4 nl = normalTexel(kTiltLeft), nr = normalTexel(kTiltRight);
    halvesTga(dir.path() + "/n.tga", nl, nr);
    Fx fx;
    fx.skinned = true;
    fx.specular = V3(0.3f);
    fx.exponent = 8.0f;
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    checkPixel(s.at(0.25f, 0.5f), normalMapped(fx, kTex, decoded(nl, 1.0f), eye, kLeftMiddle), "skin, left half");
    checkPixel(s.at(0.75f, 0.5f), normalMapped(fx, kTex, decoded(nr, 1.0f), eye, kRightMiddle), "skin, right half");
}

// ---------------------------------------------------------------------------------------------------------------
// C&C 3's Objects*.fx (render/glsl/w3x_objects.vert) against Objects.fxh's technique Default evaluated here: the same
// quad, frame and light rig, with
//   COLOR0 = saturate((ambient * AmbientColor + light 2 * max(0, N.L2) * DiffuseColor, 1) / 2)
//   colour = COLOR0 * tex * 2 [+ env * spec.y * SpecularColor]
//          + light 0 * (tex * DiffuseColor * lit.y + specular * lit.z) + light 1 * tex * DiffuseColor * lit.y
//   specular = spec map ? 3 * SpecularColor * spec.x : SpecularColor; then lerp towards tex by spec.z and towards
//   RecolorTexture * RecolorColor by its alpha; env = EnvMult * the scene ambient (the map's cube stand-in).
// GDI's constants are fixed by the effect (BumpScale 1.5, AmbientColor 0.3, DiffuseColor (0.996, 0.98, 0.906),
// SpecularColor 1, SpecularExponent 50), Generic's are the file's.
namespace {

struct ObjectsConst {
    float bump;
    V3 ambient, diffuse, specular;
    float exponent;
};
const ObjectsConst kGdi{1.5f, V3(0.3f), V3(0.996f, 0.98f, 0.906f), V3(1.0f), 50.0f};
const QColor kFaction(40, 110, 255); // ViewOptions' default faction colour

struct ObjectsTexels {
    V4 base, normal;
    bool specMap = false;
    V4 spec{0.0f};
    bool recolor = false;
    V4 recolorTexel{0.0f};
};

V3 objects(const ObjectsConst& k, float envMult, const ObjectsTexels& t, V3 eye, const Blend& at = kAtCentre) {
    const std::vector<Light> l = rig();
    const V3 base = V3(q8(t.base));
    const V3 n = decoded(t.normal, k.bump);
    const V3 color0 = glm::clamp(
        (kSceneAmbient * k.ambient + l[2].colour * std::max(0.0f, glm::dot(kNormal, l[2].toward)) * k.diffuse) / 2.0f,
        0.0f, 1.0f);
    // COLOR0 reaches the pixel stage as an 8-bit colour in Direct3D 9; here as the interpolated float: the
    // tolerance covers the difference.
    V3 c = color0 * base * 2.0f;
    const V3 diffuse = base * k.diffuse;
    V3 specular = k.specular;
    float selfIllumination = 0.0f;
    if (t.specMap) {
        const V4 st = q8(t.spec);
        c += envMult * glm::clamp(kSceneAmbient, 0.0f, 1.0f) * st.y * k.specular;
        specular = 3.0f * k.specular * st.x;
        selfIllumination = st.z;
    }
    V3 h(0.0f);
    for (const auto& [w, p] : at)
        h += w * halfAt(l[0], p, eye);
    auto lit = [&](float ndl, float ndh) {
        return glm::vec2(std::max(ndl, 0.0f), (ndl < 0.0f || ndh < 0.0f) ? 0.0f : std::pow(ndh, k.exponent));
    };
    const glm::vec2 l0 = lit(glm::dot(n, toFrame(l[0].toward)), glm::dot(n, h));
    c += l[0].colour * (diffuse * l0.x + specular * l0.y);
    const glm::vec2 l1 = lit(glm::dot(n, toFrame(l[1].toward)), glm::dot(n, h));
    c += l[1].colour * diffuse * l1.x;
    c = glm::mix(c, base, selfIllumination);
    if (t.recolor) {
        const V4 rc = q8(t.recolorTexel);
        const V3 faction(kFaction.redF(), kFaction.greenF(), kFaction.blueF());
        c = glm::mix(c, V3(rc) * faction, rc.w);
    }
    return glm::clamp(c, 0.0f, 1.0f);
}

} // namespace

TEST_CASE("C&C 3 Objects shaders are drawn by Objects.fxh's formula, saying what stands in for the map",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    for (const char* name : {"ObjectsGDI.fx", "ObjectsNOD.fx", "ObjectsGeneric.fx"}) {
        Fx fx;
        fx.typeName = name;
        const auto m = quadModel(fx, dir.path());
        const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, m->meshes[0], m->meshes[0].subMeshes[0].material);
        INFO(name << ": " << info.implementation);
        CHECK(info.impl != rs::ShaderImpl::Generic);
        CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
        CHECK(info.implementation.find(name) == 0);
        CHECK(info.note.find("environment cube") != std::string::npos);
    }
    Fx other;
    other.typeName = "Tiberium.fx";
    const auto m = quadModel(other, dir.path());
    const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, m->meshes[0], m->meshes[0].subMeshes[0].material);
    CHECK(info.impl == rs::ShaderImpl::Generic);
    CHECK(info.note.find("Tiberium.fx") != std::string::npos);
}

TEST_CASE("ObjectsGDI.fx: GDI's fixed constants and two per-pixel lights, by the formula", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 nl = normalTexel(kTiltLeft), nr = normalTexel(kTiltRight);
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", nl, nr);
    Fx fx;
    fx.typeName = "ObjectsGDI.fx";
    // The file's constants are not the effect's: GDI's are fixed (a file value must not change the look).
    fx.bumpScale = 0.2f;
    fx.diffuse = V3(0.1f);
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const V3 left = objects(kGdi, 1.0f, {kTex, nl}, eye, kLeftMiddle),
             right = objects(kGdi, 1.0f, {kTex, nr}, eye, kRightMiddle);
    REQUIRE(std::abs(left.x - right.x) > 0.05f); // the formula's own difference between the halves
    checkPixel(s.at(0.25f, 0.5f), left, "GDI, normal tilted towards the key light");
    checkPixel(s.at(0.75f, 0.5f), right, "GDI, normal tilted away");
}

TEST_CASE("ObjectsGDI.fx: spec map (specular, reflection, self-illumination) and house colour", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 flat = normalTexel(V3(0, 0, 1));
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", flat, flat);
    // Left: strong specular and reflection, no self-illumination; right: half self-illuminated.
    const V4 specL(1.0f, 0.8f, 0.0f, 1.0f), specR(0.2f, 0.0f, 0.5f, 1.0f);
    halvesTga(dir.path() + "/s.tga", specL, specR);
    // House colour: left half none (alpha 0), right half 60% recoloured with a grey mask.
    const V4 rcL(0.0f, 0.0f, 0.0f, 0.0f), rcR(0.9f, 0.9f, 0.9f, 0.6f);
    halvesTga(dir.path() + "/hc.tga", rcL, rcR);
    Fx fx;
    fx.typeName = "ObjectsGDI.fx";
    fx.specMap = "s.tga";
    const Shot spec = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    ObjectsTexels l{kTex, flat, true, specL}, r{kTex, flat, true, specR};
    checkPixel(spec.at(0.25f, 0.5f), objects(kGdi, 1.0f, l, eye, kLeftMiddle), "spec map, specular + reflection");
    checkPixel(spec.at(0.75f, 0.5f), objects(kGdi, 1.0f, r, eye, kRightMiddle), "spec map, self-illumination 0.5");
    fx.recolorTexture = "hc.tga";
    const Shot house = render(quadModel(fx, dir.path()), dir.path(), spec.box);
    l.recolor = r.recolor = true;
    l.recolorTexel = rcL;
    r.recolorTexel = rcR;
    const V3 want = objects(kGdi, 1.0f, r, eye, kRightMiddle);
    REQUIRE(want.z > want.x + 0.2f); // the faction's blue shows
    checkPixel(house.at(0.25f, 0.5f), objects(kGdi, 1.0f, l, eye, kLeftMiddle), "house colour mask 0");
    checkPixel(house.at(0.75f, 0.5f), want, "house colour mask 0.6");
}

TEST_CASE("ObjectsGeneric.fx: the file's constants", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 nl = normalTexel(kTiltLeft), nr = normalTexel(kTiltRight);
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", nl, nr);
    const V4 spec(0.6f, 0.5f, 0.0f, 1.0f);
    halvesTga(dir.path() + "/s.tga", spec, spec);
    Fx fx;
    fx.typeName = "ObjectsGeneric.fx";
    fx.specMap = "s.tga";
    fx.bumpScale = 0.7f;
    fx.ambient = V3(0.8f, 0.6f, 0.5f);
    fx.diffuse = V3(0.6f, 0.9f, 0.7f);
    fx.specular = V3(0.3f, 0.2f, 0.4f);
    fx.exponent = 12.0f;
    fx.envMult = 0.5f;
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const ObjectsConst k{fx.bumpScale, fx.ambient, fx.diffuse, fx.specular, fx.exponent};
    checkPixel(s.at(0.25f, 0.5f), objects(k, fx.envMult, {kTex, nl, true, spec}, eye, kLeftMiddle), "generic, left");
    checkPixel(s.at(0.75f, 0.5f), objects(k, fx.envMult, {kTex, nr, true, spec}, eye, kRightMiddle), "generic, right");
}
