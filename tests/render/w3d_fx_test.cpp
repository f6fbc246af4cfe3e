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
#include "fx_uniforms.h"
#include "games/discovery.h"
#include "lights.h"
#include "resolve/resolver.h"
#include "skip.h"
#include "texture/texture_writer.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMatrix4x4>
#include <QProcess>
#include <QTemporaryDir>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <catch2/catch.hpp>

#include <algorithm>
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
    // C&C 3's BasicW3D/DefaultW3D family: none of the properties above (objectsProps false), these instead, and
    // vertex colours (corners 0-3, then the centre) when not empty.
    bool objectsProps = true;
    std::vector<rs::w3d::ShaderMaterialProperty> extra;
    std::vector<V4> colors;
    // A second mesh behind the quad (y = +1, 4 x 4, DefaultW3D.fx with Texture_0 "back.tga"): what a distortion
    // shader moves.
    bool backdrop = false;
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
    if (fx.objectsProps) {
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
    }
    for (const auto& e : fx.extra)
        sm.properties.push_back(e);
    m.shaderMaterials = {sm};
    rs::w3d::MaterialPass p;
    for (V4 c : fx.colors)
        p.dcg.push_back(glm::u8vec4(glm::round(glm::clamp(c, 0.0f, 1.0f) * 255.0f)));
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
        if (fx.backdrop) {
            rs::w3d::RawMesh back = m;
            back.name = "BACK";
            back.positions = {{-2, 1, 2}, {2, 1, 2}, {2, 1, -2}, {-2, 1, -2}, {0, 1, 0}};
            back.tangents.clear();
            back.bitangents.clear();
            back.boundsMin = {-2, 1, -2};
            back.boundsMax = {2, 1, 2};
            rs::w3d::ShaderMaterial bm;
            bm.typeName = "DefaultW3D.fx";
            auto t = prop("Texture_0", 1);
            t.text = "back.tga";
            bm.properties = {t};
            back.shaderMaterials = {bm};
            back.passes[0].dcg.clear();
            rs::w3d::writeMesh(cw, back);
        }
    }
    const std::vector<uint8_t> bytes = cw.take();
    QFile f(dir + "/quad.w3d");
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    rs::Document d = rs::w3d::loadSet(rs::ByteSpan(bytes.data(), bytes.size()), (dir + "/quad.w3d").toStdString());
    REQUIRE(d.model);
    REQUIRE(d.model->meshes.size() == (fx.backdrop ? 2u : 1u));
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

// kanesWrath: shown with Kane's Wrath mounted (ViewOptions::kanesWrath).
Shot render(const std::shared_ptr<rs::Model>& m, const QString& dir, QRect box = {}, bool kanesWrath = false) {
    ViewOptions o;
    o.kanesWrath = kanesWrath;
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
    bool envCube = false; // ObjectsGenericEnvMap with its cube: the reflected direction's texel instead of ambient
    V4 envTexel{0.0f};
};

// kanesWrath: Kane's Wrath's Objects.fxh house colour, lerp(colour, RecolorColor, spec.z) after the
// self-illumination mix (no RecolorTexture).
V3 objects(const ObjectsConst& k, float envMult, const ObjectsTexels& t, V3 eye, const Blend& at = kAtCentre,
           bool kanesWrath = false) {
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
        c += envMult * (t.envCube ? V3(q8(t.envTexel)) : glm::clamp(kSceneAmbient, 0.0f, 1.0f)) * st.y * k.specular;
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
    if (kanesWrath) c = glm::mix(c, V3(kFaction.redF(), kFaction.greenF(), kFaction.blueF()), selfIllumination);
    if (t.recolor && !kanesWrath) {
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
    other.typeName = "WaterShader.fx";
    const auto m = quadModel(other, dir.path());
    const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, m->meshes[0], m->meshes[0].subMeshes[0].material);
    CHECK(info.impl == rs::ShaderImpl::Generic);
    CHECK(info.note.find("WaterShader.fx") != std::string::npos);
    // Why it is not drawn by its formula: the map's water grid and bindings (the dump's WaterDefault.fxh, the SDK
    // binary's SasBindAddress list).
    CHECK(info.note.find("normal's z as the terrain height") != std::string::npos);
    CHECK(info.note.find("WaterDraw") != std::string::npos);
    CHECK(info.note.find("Terrain.EnvironmentTexture") != std::string::npos);
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

// ---------------------------------------------------------------------------------------------------------------
// C&C 3's BasicW3D.fxh (Infantry.fx, BasicW3D.fx, Tree.fx) and DefaultW3D.fxh (render/glsl/w3x_basic.vert) against
// their technique Default evaluated here, per vertex then interpolated (Gouraud), then per pixel:
//   per vertex (VC the vertex colour): light i: y = max(N.L, 0), z = N.L < 0 or N.H < 0 ? 0 : pow(N.H, Shininess)
//   with H = normalize(L + E); D0 = C0 y0 ColorDiffuse VC / 2, S0 = C0 z0 ColorSpecular / 2 (unclamped);
//   COLOR0 = saturate(((ColorEmissive + ambient ColorAmbient + (C1 y1 + C2 y2) ColorDiffuse) VC / 2, Opacity VC.a));
//   COLOR1 = saturate((C1 z1 + C2 z2) ColorSpecular / 2)
//   per pixel: c = COLOR0 + D0 + COLOR1 + S0; c *= tex; Infantry: lerp(c, recolor.rgb RecolorColor / 2, recolor.a);
//   DefaultW3D with two textures, mode 1: c.rgb *= 2 secondary; then c.rgb *= 2.
namespace {

struct Basic {
    V3 ambient{1.0f}, diffuse{1.0f}, specular{0.0f}, emissive{0.0f};
    float shininess = 1.0f, opacity = 1.0f;
};
struct BasicVs {
    V4 c0{0.0f};
    V3 c1{0.0f}, d0{0.0f}, s0{0.0f};
};

BasicVs basicVs(const Basic& k, V4 vc, V3 p, V3 eye) {
    const std::vector<Light> l = rig();
    const V3 e = glm::normalize(eye - p);
    V3 d(0.0f), sp(0.0f);
    BasicVs o;
    for (int i = 0; i < 3; ++i) {
        const float ndl = glm::dot(kNormal, l[i].toward), ndh = glm::dot(kNormal, glm::normalize(l[i].toward + e));
        const float y = std::max(ndl, 0.0f), z = (ndl < 0.0f || ndh < 0.0f) ? 0.0f : std::pow(ndh, k.shininess);
        if (i == 0) {
            o.d0 = l[0].colour * y * k.diffuse * V3(vc) / 2.0f;
            o.s0 = l[0].colour * z * k.specular / 2.0f;
        } else {
            d += l[i].colour * y;
            sp += l[i].colour * z;
        }
    }
    o.c0 = glm::clamp(V4((k.emissive + kSceneAmbient * k.ambient + d * k.diffuse) * V3(vc) / 2.0f, k.opacity * vc.w),
                      0.0f, 1.0f);
    o.c1 = glm::clamp(sp * k.specular / 2.0f, 0.0f, 1.0f);
    return o;
}

// The vertex stage at a point of the quad: each vertex's outputs blended (vertex colours by position).
BasicVs basicAt(const Basic& k, const std::function<V4(V3)>& colourAt, V3 eye, const Blend& at) {
    BasicVs o;
    for (const auto& [w, p] : at) {
        const BasicVs v = basicVs(k, V4(q8(colourAt(p))), p, eye);
        o.c0 += w * v.c0;
        o.c1 += w * v.c1;
        o.d0 += w * v.d0;
        o.s0 += w * v.s0;
    }
    return o;
}

V4 basicPs(const BasicVs& v, V4 tex, const V4* recolor = nullptr) {
    V4 c = v.c0;
    c += V4(v.d0 + v.c1 + v.s0, 0.0f);
    c *= q8(tex);
    if (recolor) {
        const V4 rc = q8(*recolor);
        const V3 faction(kFaction.redF(), kFaction.greenF(), kFaction.blueF());
        c = V4(glm::mix(V3(c), V3(rc) * faction / 2.0f, rc.w), c.w);
    }
    return V4(V3(c) * 2.0f, c.w);
}

rs::w3d::ShaderMaterialProperty textureProp(const char* name, const std::string& file) {
    auto p = prop(name, 1);
    p.text = file;
    return p;
}
rs::w3d::ShaderMaterialProperty colourProp(const char* name, V3 c) {
    auto p = prop(name, 5);
    p.value = V4(c, 0.0f);
    return p;
}
rs::w3d::ShaderMaterialProperty numberProp(const char* name, float v) {
    auto p = prop(name, 2);
    p.value.x = v;
    return p;
}
rs::w3d::ShaderMaterialProperty intProp(const char* name, int v, uint32_t type = 6) {
    auto p = prop(name, type);
    p.intValue = v;
    return p;
}
std::vector<rs::w3d::ShaderMaterialProperty> basicProps(const Basic& k) {
    return {colourProp("ColorAmbient", k.ambient),   colourProp("ColorDiffuse", k.diffuse),
            colourProp("ColorSpecular", k.specular), numberProp("Shininess", k.shininess),
            colourProp("ColorEmissive", k.emissive), textureProp("Texture_0", "d.tga")};
}

// Vertex colours of the quad: corners 0-3 then the centre; colourOf gives them by position.
const std::vector<V3> kQuadVertices = {{-1, 0, 1}, {1, 0, 1}, {1, 0, -1}, {-1, 0, -1}, kCentre};
const std::vector<V4> kVertexColours = {
    {1.0f, 0.5f, 0.5f, 1.0f}, {0.5f, 1.0f, 0.5f, 1.0f}, {0.5f, 0.5f, 1.0f, 1.0f}, {1.0f, 1.0f, 0.4f, 1.0f}, V4(1.0f)};
V4 colourOf(V3 p) {
    for (size_t i = 0; i < kQuadVertices.size(); ++i)
        if (glm::length(kQuadVertices[i] - p) < 1e-4f) return kVertexColours[i];
    return V4(1.0f);
}

} // namespace

TEST_CASE("C&C 3 BasicW3D-family and DefaultW3D shaders are drawn by their formula, saying so", "[render][w3x][fx]") {
    QTemporaryDir dir;
    for (const char* name : {"Infantry.fx", "BasicW3D.fx", "Tree.fx", "DefaultW3D.fx", "DefaultW3DNoFogNoCloud.fx"}) {
        Fx fx;
        fx.typeName = name;
        fx.objectsProps = false;
        fx.extra = basicProps(Basic{});
        const auto m = quadModel(fx, dir.path());
        const rs::Material& mat = m->meshes[0].subMeshes[0].material;
        const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, m->meshes[0], mat);
        INFO(name << ": " << info.implementation);
        CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
        CHECK(info.implementation.find(name) == 0);
        CHECK(info.note.find("cloud layer") != std::string::npos);
        const rs::render::FxBinding b = rs::render::fxBinding(m->meshes[0], mat, info.impl);
        CHECK(b.program == "w3x_basic");
    }
    // DefaultW3D asking for clamped sampling is said to be approximated.
    Fx clamp;
    clamp.typeName = "DefaultW3D.fx";
    clamp.objectsProps = false;
    auto flags = prop("Sampler_ClampU_ClampV_NoMip_0", 4);
    flags.value = V4(1.0f, 0.0f, 0.0f, 0.0f);
    clamp.extra = {flags};
    const auto m = quadModel(clamp, dir.path());
    const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, m->meshes[0], m->meshes[0].subMeshes[0].material);
    CHECK(info.fidelity == rs::ShaderFidelity::Approximation);
    CHECK(info.note.find("Sampler_ClampU_ClampV_NoMip_0") != std::string::npos);
}

TEST_CASE("Infantry.fx: per-vertex lights, vertex colours and house colour by the formula", "[render][w3x][fx]") {
    QTemporaryDir dir;
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", normalTexel(V3(0, 0, 1)), normalTexel(V3(0, 0, 1)));
    // House colour: left half none (alpha 0), right half 70% recoloured with a light mask.
    const V4 rcL(0.0f, 0.0f, 0.0f, 0.0f), rcR(0.9f, 0.8f, 0.9f, 0.7f);
    halvesTga(dir.path() + "/hc.tga", rcL, rcR);
    Basic k;
    k.ambient = V3(0.9f, 0.8f, 1.0f);
    k.diffuse = V3(0.8f, 0.9f, 0.7f);
    k.specular = V3(0.6f, 0.5f, 0.4f);
    k.emissive = V3(0.05f, 0.0f, 0.1f);
    k.shininess = 6.0f;
    Fx fx;
    fx.typeName = "Infantry.fx";
    fx.objectsProps = false;
    fx.extra = basicProps(k);
    fx.colors = kVertexColours;
    const Shot plain = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const V4 centre = basicPs(basicAt(k, colourOf, eye, kAtCentre), kTex);
    const V4 left = basicPs(basicAt(k, colourOf, eye, kLeftMiddle), kTex);
    REQUIRE(glm::length(V3(centre) - V3(left)) > 0.05f); // the vertex colours show in the formula itself
    checkPixel(plain.at(0.5f, 0.5f), V3(centre), "centre vertex");
    checkPixel(plain.at(0.25f, 0.5f), V3(left), "between the centre and the left corners");
    checkPixel(plain.at(0.25f, 0.25f), V3(basicPs(basicAt(k, colourOf, eye, kHalfwayToCorner0), kTex)),
               "half-way to corner 0");
    // With a RecolorTexture: its alpha blends towards the mask times the faction colour, halved before the x2.
    fx.extra.push_back(textureProp("RecolorTexture", "hc.tga"));
    const Shot house = render(quadModel(fx, dir.path()), dir.path(), plain.box);
    const V4 right = basicPs(basicAt(k, colourOf, eye, kRightMiddle), kTex, &rcR);
    REQUIRE(right.z > right.x + 0.1f); // the faction's blue shows
    checkPixel(house.at(0.25f, 0.5f), V3(basicPs(basicAt(k, colourOf, eye, kLeftMiddle), kTex, &rcL)),
               "house colour mask alpha 0");
    checkPixel(house.at(0.75f, 0.5f), V3(right), "house colour mask alpha 0.7");
    // A RecolorTexture named and not found (the corpus infantry's HC_ texture is not public): no house colour (the
    // transparent stand-in once held uninitialised bytes, which drew stripes of the faction colour).
    fx.extra.back() = textureProp("RecolorTexture", "missing.tga");
    const Shot missing = render(quadModel(fx, dir.path()), dir.path(), plain.box);
    CHECK(meanDifference(missing.img, plain.img) < 0.5);
    checkPixel(missing.at(0.75f, 0.5f), V3(basicPs(basicAt(k, colourOf, eye, kRightMiddle), kTex)),
               "house colour texture not found");
}

TEST_CASE("DefaultW3D.fx: second texture, UV mapper, vertex house colour and alpha blending by the formula",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 texL(0.8f, 0.6f, 0.4f, 1.0f), texR(0.3f, 0.5f, 0.9f, 1.0f);
    halvesTga(dir.path() + "/d.tga", texL, texR);
    const V4 secondary(0.7f, 0.9f, 0.6f, 1.0f);
    halvesTga(dir.path() + "/s.tga", secondary, secondary);
    halvesTga(dir.path() + "/n.tga", normalTexel(V3(0, 0, 1)), normalTexel(V3(0, 0, 1)));
    Basic k;
    k.ambient = V3(0.7f);
    k.diffuse = V3(0.6f, 0.7f, 0.8f);
    k.specular = V3(0.3f);
    k.shininess = 10.0f;
    Fx fx;
    fx.typeName = "DefaultW3D.fx";
    fx.objectsProps = false;
    fx.extra = basicProps(k);
    fx.extra.push_back(textureProp("Texture_1", "s.tga"));
    fx.extra.push_back(intProp("NumTextures", 2));
    fx.extra.push_back(intProp("SecondaryTextureBlendMode", 1)); // modulate 2x
    // Mapper 1 with the U scale -1: engine u -> -u, so the left half of the quad shows the right half's texels.
    fx.extra.push_back(intProp("TexCoordMapper_0", 1));
    auto transform = prop("TexCoordTransform_0", 5);
    transform.value = V4(-1.0f, 1.0f, 0.0f, 0.0f);
    fx.extra.push_back(transform);
    fx.extra.push_back(intProp("UseRecolorColors", 1, 7));
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const V3 faction(kFaction.redF(), kFaction.greenF(), kFaction.blueF());
    // The vertex colour (white: none stored) times lerp(RecolorColor, 1, 0.25), before lighting.
    const auto houseTint = [&](V3) { return V4(glm::mix(faction, V3(1.0f), 0.25f), 1.0f); };
    auto pixel = [&](const Blend& at, V4 tex) {
        const BasicVs v = basicAt(k, houseTint, eye, at);
        V4 c = v.c0 + V4(v.d0 + v.c1 + v.s0, 0.0f);
        c *= q8(tex);
        c = V4(V3(c) * V3(q8(secondary)) * 2.0f, c.w);
        return V4(V3(c) * 2.0f, c.w);
    };
    const V4 left = pixel(kLeftMiddle, texR), right = pixel(kRightMiddle, texL);
    REQUIRE(std::abs(left.x - right.x) > 0.1f);
    checkPixel(s.at(0.25f, 0.5f), V3(left), "left half: mirrored U reads the right texels");
    checkPixel(s.at(0.75f, 0.5f), V3(right), "right half: mirrored U reads the left texels");
    // BlendMode 1 with Opacity 0.4: SRCALPHA/INVSRCALPHA over the background.
    fx.extra.push_back(intProp("BlendMode", 1));
    fx.extra.push_back(numberProp("Opacity", 0.4f));
    const Shot blended = render(quadModel(fx, dir.path()), dir.path(), s.box);
    const V3 bg(kBg.redF(), kBg.greenF(), kBg.blueF());
    Basic kb = k;
    kb.opacity = 0.4f;
    const BasicVs v = basicAt(kb, houseTint, eye, kLeftMiddle);
    const float alpha = (v.c0.w * q8(texR).w);
    REQUIRE(alpha == Approx(0.4f).margin(0.01f));
    checkPixel(blended.at(0.25f, 0.5f), glm::mix(bg, glm::clamp(V3(left), 0.0f, 1.0f), alpha),
               "alpha-blended at Opacity 0.4");
}

// DefaultW3D's video mapper (TexCoordMapper_0 2): frame = fmod(Time * FPS + FrameOffset, LastFrame) (the timeline at
// 0: the offset), the UV moved by the frame's cell (frame mod per row, floor(frame / per row)) / per row in the
// engine's orientation. With 2 frames a row, frame 1 moves u by a half (the halves swap), frame 2 moves v by a half
// (left and right halves stay).
TEST_CASE("DefaultW3D.fx: the video texture mapper picks the frame's cell", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 texL(0.8f, 0.6f, 0.4f, 1.0f), texR(0.3f, 0.5f, 0.9f, 1.0f);
    halvesTga(dir.path() + "/d.tga", texL, texR);
    halvesTga(dir.path() + "/n.tga", normalTexel(V3(0, 0, 1)), normalTexel(V3(0, 0, 1)));
    Basic k;
    k.ambient = V3(0.8f);
    Fx fx;
    fx.typeName = "DefaultW3D.fx";
    fx.objectsProps = false;
    fx.extra = basicProps(k);
    fx.extra.push_back(intProp("TexCoordMapper_0", 2));
    auto video = prop("TextureAnimation_FPS_NumPerRow_LastFrame_FrameOffset_0", 5);
    video.value = V4(0.0f, 2.0f, 4.0f, 1.0f);
    fx.extra.push_back(video);
    const Shot frame1 = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const auto white = [](V3) { return V4(1.0f); }; // no vertex colours stored
    auto pixel = [&](const Blend& at, V4 tex) { return V3(basicPs(basicAt(k, white, eye, at), tex)); };
    REQUIRE(std::abs(pixel(kLeftMiddle, texL).x - pixel(kLeftMiddle, texR).x) > 0.1f);
    checkPixel(frame1.at(0.25f, 0.5f), pixel(kLeftMiddle, texR), "frame 1: u moved by a half, left shows right");
    checkPixel(frame1.at(0.75f, 0.5f), pixel(kRightMiddle, texL), "frame 1: right shows left");
    fx.extra.back().value = V4(0.0f, 2.0f, 4.0f, 2.0f);
    const Shot frame2 = render(quadModel(fx, dir.path()), dir.path(), frame1.box);
    checkPixel(frame2.at(0.25f, 0.5f), pixel(kLeftMiddle, texL), "frame 2: the second row, left stays left");
    checkPixel(frame2.at(0.75f, 0.5f), pixel(kRightMiddle, texR), "frame 2: right stays right");
}

TEST_CASE("Tree.fx: vertices above SwayStartHeight sway by the formula's phase", "[render][w3x][fx]") {
    QTemporaryDir dir;
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", normalTexel(V3(0, 0, 1)), normalTexel(V3(0, 0, 1)));
    Fx fx;
    fx.typeName = "Tree.fx";
    fx.objectsProps = false;
    fx.extra = basicProps(Basic{});
    // Every vertex far above the start height: the whole quad moves by SwayStrength * sin(Time + phase).
    fx.extra.push_back(numberProp("SwayStartHeight", -100.0f));
    fx.extra.push_back(numberProp("SwayStartRadius", 0.01f));
    fx.extra.push_back(numberProp("SwayStrength", 0.5f));
    Fx still = fx;
    still.extra.back() = numberProp("SwayStrength", 0.0f);
    const Shot rest = render(quadModel(still, dir.path()), dir.path());
    const Shot moved = render(quadModel(fx, dir.path()), dir.path());
    // The phase: the pivot (the mesh's bone, at the origin) gives seed 0, fraction frac(3 x 3 / 16) = 9 / 16: the
    // table's entry 9 (0.599556, 0.096453) x 20; the timeline at 0.
    const glm::vec2 phase = glm::vec2(0.599556f, 0.096453f) * 20.0f;
    const float dx = 0.5f * std::sin(phase.x);
    REQUIRE(std::abs(dx) > 0.2f);
    // Screen x = f X / Z + cx: the centre's shift over the width is dx / 2 (the quad is 2 wide) whatever the depth
    // change dy makes of the scale.
    const double cx = rest.box.center().x();
    const double shift = (moved.box.center().x() - cx) / double(moved.box.width());
    INFO("shift " << shift << " want " << dx / 2.0f << " (" << rest.box.width() << " -> " << moved.box.width() << ")");
    CHECK(std::abs(shift - dx / 2.0) < 0.02);
    // Further away (dy = 0.5 sin(phase.y) > 0 along the view): smaller.
    CHECK(moved.box.width() < rest.box.width());
}

// ObjectsAlien.fx (Objects.fxh with OBJECTS_ALIEN, glsl/w3x_objects.frag): the alien constants (BumpScale 1.5,
// AmbientColor 1, DiffuseColor 1, SpecularColor (0.788, 0.761, 1), SpecularExponent 15); the reflection texture (one
// colour here, so its scrolled coordinate does not matter) times EnvMult * spec.y * SpecularColor * 6 multiplies
// light 0's term; house colour adds spec.z * RecolorColor (AlienPulseFactor 1) with Kane's Wrath mounted.
TEST_CASE("ObjectsAlien.fx: alien constants, the reflection on light 0 and the added house colour (Kane's Wrath)",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 flat = normalTexel(V3(0, 0, 1));
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", flat, flat);
    const V4 specL(1.0f, 0.8f, 0.0f, 1.0f), specR(0.3f, 0.4f, 0.6f, 1.0f);
    halvesTga(dir.path() + "/s.tga", specL, specR);
    const V4 envTexel(0.2f, 0.25f, 0.3f, 1.0f);
    halvesTga(dir.path() + "/e.tga", envTexel, envTexel);
    Fx fx;
    fx.typeName = "ObjectsAlien.fx";
    fx.specMap = "s.tga";
    fx.envMult = 0.3f;
    fx.diffuse = V3(0.1f); // the file's constants are not the effect's
    fx.extra = {textureProp("EnvironmentTexture", "e.tga")};
    const auto model = quadModel(fx, dir.path());
    const rs::ShaderInfo info =
        rs::shaderInfo(rs::Format::W3x, model->meshes[0], model->meshes[0].subMeshes[0].material);
    CHECK(info.impl == rs::ShaderImpl::W3xObjectsAlien);
    CHECK(info.fidelity == rs::ShaderFidelity::Approximation);
    CHECK(info.note.find("AlienPulseFactor") != std::string::npos);
    const Shot s = render(model, dir.path(), {}, true); // Kane's Wrath: house colour by spec.z
    const V3 eye = eyeOfView();
    const ObjectsConst k{1.5f, V3(1.0f), V3(1.0f), V3(0.788f, 0.761f, 1.0f), 15.0f};
    auto alien = [&](V4 spec, const Blend& at) {
        const std::vector<Light> l = rig();
        const V3 base = V3(q8(kTex));
        const V3 n(0, 0, 1);
        const V3 color0 = glm::clamp(
            (kSceneAmbient * k.ambient + l[2].colour * std::max(0.0f, glm::dot(kNormal, l[2].toward)) * k.diffuse) /
                2.0f,
            0.0f, 1.0f);
        V3 c = color0 * base * 2.0f;
        const V4 st = q8(spec);
        const V3 env = V3(q8(envTexel)) * fx.envMult * st.y * k.specular * 6.0f;
        const V3 specular = 3.0f * k.specular * st.x;
        V3 h(0.0f);
        for (const auto& [w, p] : at)
            h += w * halfAt(l[0], p, eye);
        auto lit = [&](float ndl, float ndh) {
            return glm::vec2(std::max(ndl, 0.0f), (ndl < 0.0f || ndh < 0.0f) ? 0.0f : std::pow(ndh, k.exponent));
        };
        const glm::vec2 l0 = lit(glm::dot(n, toFrame(l[0].toward)), glm::dot(n, h));
        c += l[0].colour * env * (base * k.diffuse * l0.x + specular * l0.y);
        const glm::vec2 l1 = lit(glm::dot(n, toFrame(l[1].toward)), glm::dot(n, h));
        c += l[1].colour * base * k.diffuse * l1.x;
        c += st.z * V3(kFaction.redF(), kFaction.greenF(), kFaction.blueF());
        return glm::clamp(c, 0.0f, 1.0f);
    };
    const V3 left = alien(specL, kLeftMiddle), right = alien(specR, kRightMiddle);
    INFO("left " << left.x << "," << left.y << "," << left.z << " right " << right.x << "," << right.y << ","
                 << right.z);
    REQUIRE(right.z - right.x > left.z - left.x + 0.1f); // the added faction blue
    checkPixel(s.at(0.25f, 0.5f), left, "alien, reflection and specular, no self-illumination");
    checkPixel(s.at(0.75f, 0.5f), right, "alien, self-illumination 0.6 adds the house colour");
}

// Tiberium.fx (glsl/w3x_tiberium.vert) against technique Default_U evaluated here: COLOR0 = saturate((ambient +
// AmbientColor) / 2, glow^2); colour = COLOR0 * base + 0.4 * sum_i C0 (base DiffuseColor lit_i.y + SpecMult
// SpecularColor spec.x lit_i.z) * (6 EnvMult env spec.y SpecularColor + 0.75) + TimeGlowStrength glow^2 glowTexel,
// env the scene ambient (the EnvMap cube's stand-in), glow from the effect's random table at the timeline's 0.
TEST_CASE("Tiberium.fx: per-pixel lights in light 0's colour, spec map and the crystal glow by the formula",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 nl = normalTexel(kTiltLeft), nr = normalTexel(kTiltRight);
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", nl, nr);
    const V4 spec(0.7f, 0.5f, 0.0f, 1.0f), glowTexel(0.2f, 0.6f, 0.3f, 1.0f);
    halvesTga(dir.path() + "/s.tga", spec, spec);
    halvesTga(dir.path() + "/g.tga", glowTexel, glowTexel);
    Fx fx;
    fx.typeName = "Tiberium.fx";
    fx.objectsProps = false;
    const float bump = 0.8f, exponent = 20.0f, specMult = 2.0f, envMult = 0.7f, ratio = 1.5f;
    const V3 ambient(0.3f, 0.35f, 0.4f), diffuse(0.9f, 1.0f, 0.8f), specular(0.5f, 0.6f, 0.7f), strength(0.8f);
    fx.extra = {textureProp("DiffuseMap", "d.tga"),
                textureProp("NormalMap", "n.tga"),
                textureProp("SpecMap", "s.tga"),
                textureProp("TimeGlowTexture", "g.tga"),
                numberProp("TexCoordTransform_Normal", 1.0f),
                numberProp("TexCoordTransform_Spec", 1.0f),
                numberProp("BumpScale", bump),
                colourProp("AmbientColor", ambient),
                colourProp("DiffuseColor", diffuse),
                colourProp("SpecularColor", specular),
                numberProp("SpecularExponent", exponent),
                numberProp("SpecMult", specMult),
                numberProp("EnvMult", envMult),
                colourProp("TimeGlowStrength", strength),
                numberProp("TimeGlowActiveRatio", ratio)};
    const auto model = quadModel(fx, dir.path());
    const rs::ShaderInfo info =
        rs::shaderInfo(rs::Format::W3x, model->meshes[0], model->meshes[0].subMeshes[0].material);
    CHECK(info.impl == rs::ShaderImpl::W3xTiberium);
    CHECK(info.note.find("EnvMap") != std::string::npos);
    const Shot s = render(model, dir.path());
    const V3 eye = eyeOfView();
    // The glow at Time 0: offset = table[frac(seed * 11 / 16 + 3 * 3 / 16) * 16].x * 20 with seed = 1 * 255 (no
    // vertex colours: alpha 1; the pivot at the origin): frac(175.875) = 0.875, entry 14.
    const float offset = 0.826938f * 20.0f;
    const float g = glm::clamp(std::sin(offset) * 0.5f - 0.5f + ratio, 0.0f, 1.0f) / ratio;
    const float glow = g * g;
    REQUIRE(glow > 0.05f);
    auto tib = [&](V4 normalTexelValue, const Blend& at) {
        const std::vector<Light> l = rig();
        const V3 base = V3(q8(kTex));
        const V3 n = decoded(normalTexelValue, bump);
        const V4 st = q8(spec);
        const V3 env = envMult * glm::clamp(kSceneAmbient, 0.0f, 1.0f) * st.y * specular;
        const V3 sp = specMult * specular * st.x;
        V3 h(0.0f);
        for (const auto& [w, p] : at)
            h += w * halfAt(l[0], p, eye);
        V3 sum(0.0f);
        for (int i = 0; i < 3; ++i) {
            const float ndl = glm::dot(n, toFrame(l[i].toward)), ndh = glm::dot(n, h);
            const float y = std::max(ndl, 0.0f), z = (ndl < 0.0f || ndh < 0.0f) ? 0.0f : std::pow(ndh, exponent);
            sum += l[0].colour * (base * diffuse * y + sp * z);
        }
        const V3 color0 = glm::clamp((kSceneAmbient + ambient) / 2.0f, 0.0f, 1.0f);
        return glm::clamp(color0 * base + sum * 0.4f * (env * 6.0f + 0.75f) + strength * glow * V3(q8(glowTexel)), 0.0f,
                          1.0f);
    };
    const V3 left = tib(nl, kLeftMiddle), right = tib(nr, kRightMiddle);
    REQUIRE(std::abs(left.x - right.x) > 0.03f);
    checkPixel(s.at(0.25f, 0.5f), left, "Tiberium, normal tilted towards the key light");
    checkPixel(s.at(0.75f, 0.5f), right, "Tiberium, normal tilted away");
}

// The corpus's C&C 3 infantry (the Kane's Wrath SDK's EULorWar_SKN.W3X, Infantry.fx): drawn by BasicW3D.fxh's formula
// with house colour, and every constant the file sets is one of the parameters the SDK's Infantry.fx binary declares
// (BasicW3D.fxh with SUPPORT_RECOLORING), so that none is silently ignored.
TEST_CASE("corpus C&C 3 infantry: Infantry.fx by BasicW3D.fxh's formula, its constants all known",
          "[render][w3x][fx][corpus]") {
    const std::string root = corpusRoot();
    const QString model =
        QString::fromStdString(root) + "/w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU/EULorWar_SKN.W3X";
    if (root.empty() || !QFileInfo::exists(model)) RIGSCOPE_SKIP("EULorWar_SKN.W3X not in the corpus");
    rs::Document doc = rs::Resolver().read(model.toStdString());
    REQUIRE(doc.model);
    int drawn = 0;
    for (const rs::Mesh& mesh : doc.model->meshes)
        for (const rs::SubMesh& sm : mesh.subMeshes) {
            const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, mesh, sm.material);
            if (info.impl == rs::ShaderImpl::Hidden) continue;
            INFO(mesh.name << ": " << sm.material.shader << " -> " << info.implementation);
            CHECK(info.impl == rs::ShaderImpl::W3xInfantry);
            CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
            for (const rs::MaterialParam& p : sm.material.params) {
                INFO("constant " << p.name);
                bool known = false;
                for (const char* n : {"ColorAmbient", "ColorDiffuse", "ColorSpecular", "Shininess", "ColorEmissive",
                                      "Opacity", "Texture_0", "RecolorTexture", "DepthWriteEnable", "AlphaTestEnable",
                                      "CullingEnable", "BlendMode", "BaseTexture" /* the reader's alias */})
                    known = known || rs::iequals(p.name, n);
                CHECK(known);
            }
            const rs::render::FxBinding b = rs::render::fxBinding(mesh, sm.material, info.impl);
            CHECK(b.program == "w3x_basic");
            CHECK(std::find(b.defines.begin(), b.defines.end(), "RECOLOR") != b.defines.end());
            ++drawn;
        }
    CHECK(drawn == 1);
    ViewOptions o;
    o.grid = false;
    o.background = kBg;
    view().setOptions(o);
    view().setModel(doc.model, model);
    const QImage img = grab();
    REQUIRE_FALSE(img.isNull());
    CHECK(countDifferent(img, kBg) > 1000);
    CHECK(view().bindingProblems().isEmpty());
}

// --- C&C 3's effect shaders (glsl/w3x_effects.vert), against the formulas of the dump's AlienShield.fx,
// MuzzleFlash.fx, DistortingObject.fx and ShieldDistortion.fx evaluated here. All are drawn over the background: the
// additive ones add to it (ONE / ONE), the distortion ones move the frame behind.

namespace {
// A 64 x 64 texture whose colour is linear in the engine's (u, v): bilinear sampling inside the texel centres returns
// the function itself (up to 8-bit rounding).
V4 gradient(float u, float v) { return V4(0.2f + 0.6f * u, 0.2f + 0.6f * v, 0.7f - 0.4f * u, 1.0f); }
V3 kBgF() { return V3(kBg.redF(), kBg.greenF(), kBg.blueF()); }
} // namespace

// AlienShield.fx (technique Default_M): COLOR0 = lerp(RecolorColor, 1, 0.25); falloff = pow(1 - N.E, FallOff) per
// vertex, interpolated; colour = COLOR0 x FalloffTexture(falloff, 0) x DiffuseTexture(UV x T.xy) x
// DiffuseTexture(2 x UV x T.xy) x 4 at Time 0, added to the background.
TEST_CASE("AlienShield.fx: house tint, edge falloff texture and two diffuse samples by the formula, added",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 left(0.6f, 0.5f, 0.7f, 1.0f), right(0.8f, 0.9f, 0.5f, 1.0f);
    halvesTga(dir.path() + "/d.tga", left, right);
    // FalloffTexture: linear in u, the same in every row.
    writeTga(dir.path() + "/f.tga", 64, 4,
             [](float u, float) { return V4(0.3f + u, 0.5f + u * 0.5f, 0.2f + 2.0f * u, 1.0f); });
    Fx fx;
    fx.typeName = "AlienShield.fx";
    fx.objectsProps = false;
    const float fallOff = 0.5f;
    auto t = prop("TexCoordTransform_0", 5);
    t.value = V4(1.2f, 1.0f, 0.0f, 0.0f);
    // ColorEmissive is declared by the effect and read nowhere (its compiled constant tables do not name it): the
    // pixel below is the formula without it.
    fx.extra = {textureProp("DiffuseTexture", "d.tga"), textureProp("FalloffTexture", "f.tga"),
                numberProp("FallOff", fallOff), t, colourProp("ColorEmissive", V3(0.2f, 0.2f, 1.0f))};
    const auto model = quadModel(fx, dir.path());
    const rs::ShaderInfo info =
        rs::shaderInfo(rs::Format::W3x, model->meshes[0], model->meshes[0].subMeshes[0].material);
    CHECK(info.impl == rs::ShaderImpl::W3xAlienShield);
    CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
    const rs::render::FxBinding b =
        rs::render::fxBinding(model->meshes[0], model->meshes[0].subMeshes[0].material, info.impl);
    CHECK(b.program == "w3x_effects");
    CHECK(b.states.blend == rs::render::FxBlend::Additive);
    CHECK_FALSE(b.states.depthWrite);
    const Shot s = render(model, dir.path());
    const V3 eye = eyeOfView();
    auto falloffAt = [&](V3 p) {
        return std::pow(std::max(1.0f - glm::dot(kNormal, glm::normalize(eye - p)), 0.0f), fallOff);
    };
    // Half-way from the centre to corner 0: engine UV (0.25, 0.25); UV0 = (0.3, 0.25) on the left half, UV1 =
    // (0.6, 0.5) on the right half.
    const float f = 0.5f * falloffAt(kCentre) + 0.5f * falloffAt(kCorner0);
    REQUIRE(f > 0.02f);
    const V4 fall = q8(V4(0.3f + f, 0.5f + f * 0.5f, 0.2f + 2.0f * f, 1.0f));
    const V3 faction(kFaction.redF(), kFaction.greenF(), kFaction.blueF());
    const V3 tint = glm::clamp(glm::mix(faction, V3(1.0f), 0.25f), 0.0f, 1.0f);
    const V3 shield = glm::clamp(tint * V3(fall) * V3(q8(left)) * V3(q8(right)) * 4.0f, 0.0f, 1.0f);
    checkPixel(s.at(0.25f, 0.25f), glm::clamp(kBgF() + shield, 0.0f, 1.0f), "AlienShield half-way to a corner");
}

// MuzzleFlash.fx (technique Additive_M): the UV turned by TexCoordTransformAngle_0 x Time about the pivot the vertex
// alpha x 100 picks (row vector times [[c, -s], [s, c]]) and by its transpose; colour = vertex colour x
// ColorEmissive x Texture_0(UV0) x Texture_0(UV1), added to the background.
TEST_CASE("MuzzleFlash.fx: counter-rotated samples about the pivot the vertex alpha picks, by the formula",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    writeTga(dir.path() + "/m.tga", 64, 64, gradient);
    const V3 vc(0.9f, 0.8f, 0.7f), emissive(1.0f, 0.9f, 0.8f);
    const float rate = 1.5f, time = 1.0f;
    const V2 pivot0(0.4f, 0.6f), pivot1(0.7f, 0.3f);
    auto flash = [&](float alpha) {
        Fx fx;
        fx.typeName = "MuzzleFlash.fx";
        fx.objectsProps = false;
        fx.colors.assign(5, V4(vc, alpha));
        fx.extra = {textureProp("Texture_0", "m.tga"),
                    colourProp("ColorEmissive", emissive),
                    numberProp("TexCoordTransformAngle_0", rate),
                    numberProp("TexCoordTransformU_0", pivot0.x),
                    numberProp("TexCoordTransformV_0", pivot0.y),
                    numberProp("TexCoordTransformU_1", pivot1.x),
                    numberProp("TexCoordTransformV_1", pivot1.y)};
        return fx;
    };
    const float a = rate * time, c = std::cos(a), sn = std::sin(a);
    auto want = [&](V2 e, float alpha) {
        const float id = std::round(alpha * 255.0f) / 255.0f * 100.0f;
        V2 e0 = e, e1 = e;
        if (id < 2.5f) {
            const V2 pivot = id < 0.5f ? pivot0 : pivot1; // 2: TexCoordTransformU_2/V_2, not used here
            const V2 d = e - pivot;
            e0 = V2(d.x * c + d.y * sn, -d.x * sn + d.y * c) + pivot;
            e1 = V2(d.x * c - d.y * sn, d.x * sn + d.y * c) + pivot;
        }
        const V3 col = glm::clamp(V3(q8(V4(vc, 1.0f))) * emissive, 0.0f, 1.0f);
        // The texture wraps; the points are away from its seams (bilinear sampling there mixes both edges).
        auto at = [](V2 e) {
            const V2 w = glm::fract(e);
            REQUIRE(glm::all(glm::greaterThan(w, V2(0.02f))));
            REQUIRE(glm::all(glm::lessThan(w, V2(0.98f))));
            return V3(q8(gradient(w.x, w.y)));
        };
        return glm::clamp(kBgF() + col * at(e0) * at(e1), 0.0f, 1.0f);
    };
    for (const float alpha : {0.0f, 3.0f / 255.0f, 1.0f}) { // pivot 0, pivot 1, no rotation
        QTemporaryDir sub;
        QFile::copy(dir.path() + "/m.tga", sub.path() + "/m.tga");
        const auto model = quadModel(flash(alpha), sub.path());
        const rs::ShaderInfo info =
            rs::shaderInfo(rs::Format::W3x, model->meshes[0], model->meshes[0].subMeshes[0].material);
        CHECK(info.impl == rs::ShaderImpl::W3xMuzzleFlash);
        Shot s = render(model, sub.path());
        view().setTime(time);
        s.img = grab();
        for (const V2 e : {V2(0.25f, 0.5f), V2(0.5f, 0.3f)}) {
            const V3 w = want(e, alpha);
            checkPixel(s.at(e.x, e.y), w,
                       "MuzzleFlash at alpha " + std::to_string(alpha) + ", engine (" + std::to_string(e.x) + ", " +
                           std::to_string(e.y) + ")");
        }
        view().setTime(0.0f);
    }
    // The rotation shows: pivot 0's result differs from the unrotated one by more than the tolerance.
    REQUIRE(glm::length(want(V2(0.25f, 0.5f), 0.0f) - want(V2(0.25f, 0.5f), 1.0f)) > 0.05f);
}

// MuzzleFlash.fx's technique Multiply_M (the W3X FXShader's TechniqueIndex 1, kept by the reader as the integer
// parameter TechniqueIndex): the same colour, multiplied into the frame (DESTCOLOR / ZERO). Over a bright background,
// so that the product is far from the additive result and from the background itself.
TEST_CASE("MuzzleFlash.fx Multiply_M: the counter-rotated samples multiplied into the frame, by the formula",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    writeTga(dir.path() + "/m.tga", 64, 64, gradient);
    const V3 vc(0.9f, 0.8f, 0.7f), emissive(1.0f, 0.9f, 0.8f);
    const float rate = 1.5f, time = 1.0f;
    const V2 pivot0(0.4f, 0.6f);
    const QColor bright(230, 210, 190);
    const V3 brightF(bright.redF(), bright.greenF(), bright.blueF());
    auto flash = [&](int technique) {
        Fx fx;
        fx.typeName = "MuzzleFlash.fx";
        fx.objectsProps = false;
        fx.colors.assign(5, V4(vc, 0.0f)); // vertex alpha 0: pivot 0
        fx.extra = {textureProp("Texture_0", "m.tga"), colourProp("ColorEmissive", emissive),
                    numberProp("TexCoordTransformAngle_0", rate), numberProp("TexCoordTransformU_0", pivot0.x),
                    numberProp("TexCoordTransformV_0", pivot0.y)};
        auto t = prop("TechniqueIndex", 6);
        t.intValue = technique;
        fx.extra.push_back(t);
        return fx;
    };
    const float a = rate * time, c = std::cos(a), sn = std::sin(a);
    auto product = [&](V2 e) { // vertex colour x ColorEmissive x Texture_0(UV0) x Texture_0(UV1)
        const V2 d = e - pivot0;
        const V2 e0 = V2(d.x * c + d.y * sn, -d.x * sn + d.y * c) + pivot0;
        const V2 e1 = V2(d.x * c - d.y * sn, d.x * sn + d.y * c) + pivot0;
        auto at = [](V2 e) {
            const V2 w = glm::fract(e);
            REQUIRE(glm::all(glm::greaterThan(w, V2(0.02f))));
            REQUIRE(glm::all(glm::lessThan(w, V2(0.98f))));
            return V3(q8(gradient(w.x, w.y)));
        };
        return glm::clamp(glm::clamp(V3(q8(V4(vc, 1.0f))) * emissive, 0.0f, 1.0f) * at(e0) * at(e1), 0.0f, 1.0f);
    };
    for (const int technique : {1, 3, 0}) { // Multiply_M, _Multiply_L, Additive_M
        QTemporaryDir sub;
        QFile::copy(dir.path() + "/m.tga", sub.path() + "/m.tga");
        const auto model = quadModel(flash(technique), sub.path());
        const rs::Material& mat = model->meshes[0].subMeshes[0].material;
        const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, model->meshes[0], mat);
        INFO(info.implementation);
        CHECK(info.impl == rs::ShaderImpl::W3xMuzzleFlash);
        CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
        const bool multiply = technique != 0;
        CHECK(info.implementation.find(multiply ? "Multiply_" : "Additive_M") != std::string::npos);
        CHECK(rs::render::fxBinding(model->meshes[0], mat, info.impl).states.blend ==
              (multiply ? rs::render::FxBlend::Multiply : rs::render::FxBlend::Additive));
        ViewOptions o;
        o.grid = false;
        o.dazzles = false;
        o.background = bright;
        view().setOptions(o);
        view().setModel(model, sub.path() + "/quad.w3d");
        view().setCameraAngles(180.0f, 0.0f);
        view().setTime(time);
        Shot s;
        s.img = grab();
        s.box = foreground(s.img, bright, 2);
        if (!multiply) { // added to a bright frame: saturates towards white, so only the box is taken from here
            view().setTime(0.0f);
            continue;
        }
        REQUIRE(s.box.width() > 40);
        for (const V2 e : {V2(0.25f, 0.5f), V2(0.5f, 0.3f)}) {
            const V3 want = brightF * product(e);
            REQUIRE(glm::length(want - brightF) > 0.15f); // the product shows
            checkPixel(s.at(e.x, e.y), want,
                       "MuzzleFlash technique " + std::to_string(technique) + " at engine (" + std::to_string(e.x) +
                           ", " + std::to_string(e.y) + ")");
        }
        view().setTime(0.0f);
    }
    // An index the SDK effect does not have: drawn by Additive_M, said.
    const auto odd = quadModel(flash(7), dir.path());
    const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, odd->meshes[0], odd->meshes[0].subMeshes[0].material);
    CHECK(info.fidelity == rs::ShaderFidelity::Approximation);
    CHECK(info.note.find("TechniqueIndex 7") != std::string::npos);
}

namespace {
// The column, in the row through the middle of the shot, where the backdrop's dark left half meets its bright right
// half (the first pixel brighter than half-way between the row's extremes), scanning the middle half of the box.
int boundaryColumn(const Shot& s) {
    const int y = s.box.center().y();
    const int x0 = s.box.left() + s.box.width() / 4, x1 = s.box.right() - s.box.width() / 4;
    float lo = 1e9f, hi = -1e9f;
    for (int x = x0; x <= x1; ++x) {
        lo = std::min(lo, luminance(s.img.pixelColor(x, y)));
        hi = std::max(hi, luminance(s.img.pixelColor(x, y)));
    }
    REQUIRE(hi - lo > 60.0f);
    for (int x = x0; x <= x1; ++x)
        if (luminance(s.img.pixelColor(x, y)) > (lo + hi) / 2.0f) return x;
    return -1;
}
} // namespace

// DistortingObject.fx and ShieldDistortion.fx: the view-space normal written to the distortion buffer as
// (n x 0.5 + 0.5, alpha) over its neutral 0.5, then PostFX_Distortion samples the frame at uv + (buffer x 2 - 1) x
// 0.08: a backdrop's vertical edge behind the quad appears moved by -alpha x clamp(n.x x 0.5 + 0.5) x 2 - 1) x 0.08
// of the window's width. Measured against a flat normal map (nothing moves).
TEST_CASE("DistortingObject.fx and ShieldDistortion.fx move the frame behind by the formula", "[render][w3x][fx]") {
    struct Case {
        const char* shader;
        float bumpScale;
        bool shield;
    };
    for (const Case k : {Case{"DistortingObject.fx", 1.0f, false}, Case{"ShieldDistortion.fx", 2.0f, true}}) {
        auto shot = [&](V3 tilt, rs::ShaderInfo* info) {
            QTemporaryDir dir;
            halvesTga(dir.path() + "/back.tga", V4(0.05f, 0.05f, 0.05f, 1.0f), V4(1.0f));
            halvesTga(dir.path() + "/n.tga", normalTexel(tilt), normalTexel(tilt));
            halvesTga(dir.path() + "/f.tga", V4(0.5f, 0.6f, 0.7f, 1.0f), V4(0.5f, 0.6f, 0.7f, 1.0f));
            Fx fx;
            fx.typeName = k.shader;
            fx.objectsProps = false;
            fx.backdrop = true;
            fx.extra = {textureProp("NormalMap", "n.tga"), numberProp("BumpScale", k.bumpScale)};
            if (k.shield) {
                // FallOff -0.5: pow(1 - N.E, -0.5) is above 1 everywhere on a quad facing the camera, saturated to 1.
                fx.extra.push_back(textureProp("FalloffTexture", "f.tga"));
                fx.extra.push_back(numberProp("FallOff", -0.5f));
            }
            const auto model = quadModel(fx, dir.path());
            if (info) *info = rs::shaderInfo(rs::Format::W3x, model->meshes[0], model->meshes[0].subMeshes[0].material);
            return render(model, dir.path());
        };
        INFO(k.shader);
        rs::ShaderInfo info;
        const Shot flat = shot(V3(0, 0, 1), nullptr);
        const Shot tilted = shot(kTiltRight, &info);
        CHECK(info.impl == (k.shield ? rs::ShaderImpl::W3xShieldDistortion : rs::ShaderImpl::W3xDistortingObject));
        CHECK(info.fidelity == rs::ShaderFidelity::Approximation);
        CHECK(info.note.find("copy of the frame") != std::string::npos);
        REQUIRE(flat.box == tilted.box);
        // The normal in view space: the frame (x, y, z) = (-binormal, -tangent, normal) in the world, then View.
        V3 n = V3(q8(normalTexel(kTiltRight))) * 2.0f - 1.0f;
        n.x *= k.bumpScale;
        n.y *= k.bumpScale;
        if (!k.shield) n = glm::normalize(n); // ShieldDistortion does not renormalise
        const V3 world = n.x * kFx + n.y * kFy + n.z * kFz;
        const QMatrix4x4 vm = view().window()->camera()->viewMatrix();
        const QVector3D vn = vm.mapVector(QVector3D(world.x, world.y, world.z));
        const float buffer = glm::clamp(vn.x() * 0.5f + 0.5f, 0.0f, 1.0f);
        const V3 fall = V3(q8(V4(0.5f, 0.6f, 0.7f, 1.0f)));
        const float alpha = k.shield ? 1.0f * (fall.x + fall.y + fall.z) * 0.3f : 1.0f;
        const float offset = (buffer * 2.0f - 1.0f) * alpha * 0.08f; // of the window's width
        const float want = -offset * float(tilted.img.width());
        REQUIRE(std::abs(want) > 10.0f);
        const int moved = boundaryColumn(tilted) - boundaryColumn(flat);
        INFO("edge moved " << moved << " px, formula " << want);
        CHECK(std::abs(float(moved) - want) <= 2.0f);
    }
}

// The corpus's shield (MetaMod's FXSHLDABILITY meshes): AlienShield.fx and ShieldDistortion.fx drawn by their formulas.
TEST_CASE("corpus C&C 3 shield: AlienShield.fx and ShieldDistortion.fx by their formulas",
          "[render][w3x][fx][corpus]") {
    const std::string root = corpusRoot();
    const QString dir = QString::fromStdString(root) + "/w3x/MetaIdea+cnc3-metamod/MetaMod-KW/Art/shield/";
    int seen = 0;
    for (const char* name : {"FXSHLDABILITY.DIFFUSEMod.w3x", "FXSHLDABILITY.DISTORTIONMod.w3x"}) {
        const QString model = dir + name;
        if (root.empty() || !QFileInfo::exists(model)) RIGSCOPE_SKIP("MetaMod's shield not in the corpus");
        rs::Document doc = rs::Resolver().read(model.toStdString());
        REQUIRE(doc.model);
        for (const rs::Mesh& mesh : doc.model->meshes)
            for (const rs::SubMesh& sm : mesh.subMeshes) {
                const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, mesh, sm.material);
                INFO(name << " " << mesh.name << ": " << sm.material.shader << " -> " << info.implementation);
                CHECK(
                    (info.impl == rs::ShaderImpl::W3xAlienShield || info.impl == rs::ShaderImpl::W3xShieldDistortion));
                ++seen;
            }
        ViewOptions o;
        o.grid = false;
        o.background = kBg;
        view().setOptions(o);
        view().setModel(doc.model, model);
        const QImage img = grab();
        REQUIRE_FALSE(img.isNull());
        CHECK(view().bindingProblems().isEmpty());
    }
    CHECK(seen >= 2);
}

// ---------------------------------------------------------------------------------------------------------------
// The rest of C&C 3's Objects family and Simple.fx (issue 42): ObjectsAlienIonHull.fx, ObjectsAlienBuildup.fx,
// ObjectsGenericEnvMap.fx, Simple.fx, and the house colour of C&C 3 against Kane's Wrath. The formulas, evaluated
// here on the CPU (Objects.fxh as the public dump states it, Simple.fx as its compiled shader reads):
//   alien: c = COLOR0 tex 2; env = EnvironmentTexture * EnvMult * spec.y * SpecularColor * 6, specular
//   3 SpecularColor spec.x; ion hull: env = EnvironmentTexture * spec.y * SpecularColor * 12, specular SpecularColor;
//   c += C0 env (tex lit0.y + specular lit0.z) + C1 tex lit1.y; ion hull: c += ion(uv + t) ion(2 uv + t) 3;
//   C&C 3 house colour: c += RecolorTexture.rgb RecolorColor pulse; Kane's Wrath: c += spec.z RecolorColor pulse;
//   build-up: threshold = BuildUpMap(uv1).a * fraction (1); c += threshold <= 0.25 ? BuildUpMap(3 uv + t).rgb : 0;
//   threshold < 0.21 clipped.
//   Simple: Texture_0(uv TexCoordTransform_0.xy + t .zw) * ColorEmissive.
namespace {

const ObjectsConst kAlien{1.5f, V3(1.0f), V3(1.0f), V3(0.788f, 0.761f, 1.0f), 15.0f};

struct AlienCase {
    float envMult = 1.0f;
    V4 spec{0.0f}, env{0.0f};
    bool ionHull = false;
    V4 ion{0.0f};
    bool recolor = false; // C&C 3: RecolorTexture
    V4 recolorTexel{0.0f};
    bool kanesWrath = false; // house colour by spec.z
    bool buildupWarp = false;
    V4 warp{0.0f};
};

V3 alienFormula(const AlienCase& a, V3 eye, const Blend& at) {
    const ObjectsConst& k = kAlien;
    const std::vector<Light> l = rig();
    const V3 base = V3(q8(kTex));
    const V3 n(0, 0, 1);
    const V3 color0 = glm::clamp(
        (kSceneAmbient * k.ambient + l[2].colour * std::max(0.0f, glm::dot(kNormal, l[2].toward)) * k.diffuse) / 2.0f,
        0.0f, 1.0f);
    V3 c = color0 * base * 2.0f;
    const V4 st = q8(a.spec);
    V3 env, specular;
    if (a.ionHull) {
        env = V3(q8(a.env)) * st.y * k.specular * 12.0f;
        specular = k.specular;
    } else {
        env = V3(q8(a.env)) * a.envMult * st.y * k.specular * 6.0f;
        specular = 3.0f * k.specular * st.x;
    }
    V3 h(0.0f);
    for (const auto& [w, p] : at)
        h += w * halfAt(l[0], p, eye);
    auto lit = [&](float ndl, float ndh) {
        return glm::vec2(std::max(ndl, 0.0f), (ndl < 0.0f || ndh < 0.0f) ? 0.0f : std::pow(ndh, k.exponent));
    };
    const glm::vec2 l0 = lit(glm::dot(n, toFrame(l[0].toward)), glm::dot(n, h));
    c += l[0].colour * env * (base * k.diffuse * l0.x + specular * l0.y);
    const glm::vec2 l1 = lit(glm::dot(n, toFrame(l[1].toward)), glm::dot(n, h));
    c += l[1].colour * base * k.diffuse * l1.x;
    if (a.ionHull) c += V3(q8(a.ion)) * V3(q8(a.ion)) * 3.0f;
    const V3 faction(kFaction.redF(), kFaction.greenF(), kFaction.blueF());
    if (a.kanesWrath) c += st.z * faction;
    if (a.recolor && !a.kanesWrath) c += V3(q8(a.recolorTexel)) * faction;
    if (a.buildupWarp) c += V3(q8(a.warp));
    return glm::clamp(c, 0.0f, 1.0f);
}

std::shared_ptr<rs::Model> alienQuad(const char* typeName, const QString& dir,
                                     std::vector<rs::w3d::ShaderMaterialProperty> extra, float envMult = 1.0f) {
    Fx fx;
    fx.typeName = typeName;
    fx.specMap = "s.tga";
    fx.envMult = envMult;
    fx.diffuse = V3(0.1f); // the file's constants are not the effect's
    fx.extra = std::move(extra);
    fx.extra.push_back(textureProp("EnvironmentTexture", "e.tga"));
    return quadModel(fx, dir);
}

void alienTextures(const QString& dir, V4 specL, V4 specR, V4 env) {
    const V4 flat = normalTexel(V3(0, 0, 1));
    halvesTga(dir + "/d.tga", kTex, kTex);
    halvesTga(dir + "/n.tga", flat, flat);
    halvesTga(dir + "/s.tga", specL, specR);
    halvesTga(dir + "/e.tga", env, env);
}

} // namespace

TEST_CASE("The rest of the C&C 3 Objects family and Simple.fx are drawn by formula, saying what stands in",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    struct Want {
        const char* name;
        rs::ShaderImpl impl;
        const char* program;
        const char* define;
        rs::ShaderFidelity fidelity = rs::ShaderFidelity::Approximation;
    };
    for (const Want& w :
         {Want{"ObjectsAlienIonHull.fx", rs::ShaderImpl::W3xObjectsAlien, "w3x_objects", "ION_HULL"},
          Want{"ObjectsAlienBuildup.fx", rs::ShaderImpl::W3xObjectsAlien, "w3x_objects", "BUILDUP"},
          Want{"ObjectsGenericEnvMap.fx", rs::ShaderImpl::W3xObjectsGeneric, "w3x_objects", nullptr},
          // Simple.fx's UV offset is Time x zw (the dump's source and the SDK binary's preshader).
          Want{"Simple.fx", rs::ShaderImpl::W3xDefaultW3d, "w3x_basic", "SIMPLE", rs::ShaderFidelity::EngineFormula}}) {
        Fx fx;
        fx.typeName = w.name;
        const auto m = quadModel(fx, dir.path());
        const rs::Material& mat = m->meshes[0].subMeshes[0].material;
        const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, m->meshes[0], mat);
        INFO(w.name << ": " << info.implementation << " / " << info.note);
        CHECK(info.impl == w.impl);
        CHECK(info.implementation.find(w.name) == 0);
        CHECK(info.fidelity == w.fidelity);
        CHECK_FALSE(info.note.empty());
        const rs::render::FxBinding b = rs::render::fxBinding(m->meshes[0], mat, info.impl);
        CHECK(b.program == w.program);
        if (w.define) CHECK(std::find(b.defines.begin(), b.defines.end(), w.define) != b.defines.end());
        CHECK(std::find(b.defines.begin(), b.defines.end(), "DEFAULT_W3D") == b.defines.end());
    }
    // ObjectsGenericEnvMap names the material's cube, and says it is not loaded.
    Fx env;
    env.typeName = "ObjectsGenericEnvMap.fx";
    env.extra = {textureProp("EnvironmentTexture", "sky_cube.dds")};
    const auto m = quadModel(env, dir.path());
    const rs::ShaderInfo info = rs::shaderInfo(rs::Format::W3x, m->meshes[0], m->meshes[0].subMeshes[0].material);
    CHECK(info.note.find("the material's sky_cube.dds (a DDS cube map") != std::string::npos);
    CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
    // House colour: C&C 3's GDI reads RecolorTexture; Kane's Wrath's the spec map's z (no RecolorTexture slot);
    // ObjectsGeneric has none (its compiled effect has no RecolorColor) and neither has the build-up.
    Fx gdi;
    gdi.typeName = "ObjectsGDI.fx";
    gdi.recolorTexture = "hc.tga";
    const auto g = quadModel(gdi, dir.path());
    const rs::Material& gm = g->meshes[0].subMeshes[0].material;
    auto has = [](const rs::render::FxBinding& b, const char* d) {
        return std::find(b.defines.begin(), b.defines.end(), d) != b.defines.end();
    };
    const auto cnc3 = rs::render::fxBinding(g->meshes[0], gm, rs::ShaderImpl::W3xObjectsGdi, false);
    const auto kw = rs::render::fxBinding(g->meshes[0], gm, rs::ShaderImpl::W3xObjectsGdi, true);
    CHECK(has(cnc3, "RECOLOR"));
    CHECK_FALSE(has(cnc3, "HOUSE_SELFILLUM"));
    CHECK(has(kw, "HOUSE_SELFILLUM"));
    CHECK(has(kw, "SPECMAP")); // read for its z even when the material names none (a black one)
    CHECK_FALSE(has(kw, "RECOLOR"));
    gdi.typeName = "ObjectsGeneric.fx";
    const auto gen = quadModel(gdi, dir.path());
    for (bool k : {false, true}) {
        const auto b = rs::render::fxBinding(gen->meshes[0], gen->meshes[0].subMeshes[0].material,
                                             rs::ShaderImpl::W3xObjectsGeneric, k);
        CHECK_FALSE(has(b, "RECOLOR"));
        CHECK_FALSE(has(b, "HOUSE_SELFILLUM"));
    }
}

TEST_CASE("ObjectsAlien.fx in C&C 3: house colour by RecolorTexture x RecolorColor, none without it",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 specL(1.0f, 0.8f, 0.0f, 1.0f), specR(0.3f, 0.4f, 0.6f, 1.0f), env(0.2f, 0.25f, 0.3f, 1.0f);
    alienTextures(dir.path(), specL, specR, env);
    const V4 rcL(0.0f, 0.0f, 0.0f, 1.0f), rcR(0.5f, 0.5f, 0.5f, 1.0f);
    halvesTga(dir.path() + "/hc.tga", rcL, rcR);
    // Without a RecolorTexture: no house colour even where spec.z is 0.6 (Kane's Wrath would add it).
    const Shot none = render(alienQuad("ObjectsAlien.fx", dir.path(), {}, 0.3f), dir.path());
    const V3 eye = eyeOfView();
    AlienCase l{0.3f, specL, env}, r{0.3f, specR, env};
    checkPixel(none.at(0.25f, 0.5f), alienFormula(l, eye, kLeftMiddle), "C&C 3 alien, no recolour texture, left");
    checkPixel(none.at(0.75f, 0.5f), alienFormula(r, eye, kRightMiddle), "C&C 3 alien, no recolour texture, right");
    const Shot kw = render(alienQuad("ObjectsAlien.fx", dir.path(), {}, 0.3f), dir.path(), none.box, true);
    AlienCase rk = r;
    rk.kanesWrath = true;
    REQUIRE(alienFormula(rk, eye, kRightMiddle).z > alienFormula(r, eye, kRightMiddle).z + 0.1f);
    checkPixel(kw.at(0.75f, 0.5f), alienFormula(rk, eye, kRightMiddle), "Kane's Wrath alien: spec.z house colour");
    // With one: the texture's colour times the faction's, added.
    const Shot rc = render(alienQuad("ObjectsAlien.fx", dir.path(), {textureProp("RecolorTexture", "hc.tga")}, 0.3f),
                           dir.path(), none.box);
    l.recolor = r.recolor = true;
    l.recolorTexel = rcL;
    r.recolorTexel = rcR;
    const V3 want = alienFormula(r, eye, kRightMiddle);
    REQUIRE(want.z > alienFormula(AlienCase{0.3f, specR, env}, eye, kRightMiddle).z + 0.1f);
    checkPixel(rc.at(0.25f, 0.5f), alienFormula(l, eye, kLeftMiddle), "C&C 3 alien, black recolour texel");
    checkPixel(rc.at(0.75f, 0.5f), want, "C&C 3 alien, grey recolour texel x faction");
}

TEST_CASE("ObjectsGDI.fx with Kane's Wrath mounted: house colour by the spec map's self-illumination",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 flat = normalTexel(V3(0, 0, 1));
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", flat, flat);
    const V4 specL(1.0f, 0.8f, 0.0f, 1.0f), specR(0.2f, 0.0f, 0.5f, 1.0f);
    halvesTga(dir.path() + "/s.tga", specL, specR);
    halvesTga(dir.path() + "/hc.tga", V4(0.9f, 0.9f, 0.9f, 0.6f), V4(0.9f, 0.9f, 0.9f, 0.6f));
    Fx fx;
    fx.typeName = "ObjectsGDI.fx";
    fx.specMap = "s.tga";
    fx.recolorTexture = "hc.tga"; // not read by Kane's Wrath's Objects.fxh
    const Shot s = render(quadModel(fx, dir.path()), dir.path(), {}, true);
    const V3 eye = eyeOfView();
    ObjectsTexels l{kTex, flat, true, specL}, r{kTex, flat, true, specR};
    const V3 wantR = objects(kGdi, 1.0f, r, eye, kRightMiddle, true);
    REQUIRE(wantR.z > objects(kGdi, 1.0f, r, eye, kRightMiddle).z + 0.1f);
    checkPixel(s.at(0.25f, 0.5f), objects(kGdi, 1.0f, l, eye, kLeftMiddle, true), "KW GDI, spec.z 0: no house colour");
    checkPixel(s.at(0.75f, 0.5f), wantR, "KW GDI, spec.z 0.5: half way to the faction colour");
}

// The view is told Kane's Wrath by the mounted folders, as the window tells it (ui/scene_view_adapter.cpp:
// ViewOptions::kanesWrath = Kane's Wrath among games::mountedGames of the resolver's table): a writer-made game folder
// with CNC3EP1.exe and its archive in Core/1.2/ gives Kane's Wrath's house colour, the same folder with CNC3.exe
// C&C 3's (the RecolorTexture).
TEST_CASE("A mounted Kane's Wrath folder (CNC3EP1.exe) draws KW's house colour, a C&C 3 one C&C 3's",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 flat = normalTexel(V3(0, 0, 1));
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", flat, flat);
    const V4 specL(1.0f, 0.8f, 0.0f, 1.0f), specR(0.2f, 0.0f, 0.5f, 1.0f), hc(0.2f, 0.2f, 0.2f, 0.6f);
    halvesTga(dir.path() + "/s.tga", specL, specR);
    halvesTga(dir.path() + "/hc.tga", hc, hc);
    Fx fx;
    fx.typeName = "ObjectsGDI.fx";
    fx.specMap = "s.tga";
    fx.recolorTexture = "hc.tga";
    const auto model = quadModel(fx, dir.path());
    // The game folder: the launcher stub and one archive where the games keep theirs.
    auto gameFolder = [](const QString& root, const char* stub) {
        QDir().mkpath(root + "/Core/1.2");
        QFile(root + "/" + stub).open(QIODevice::WriteOnly);
        const std::string ini = "Object X\nEnd\n";
        const auto big = rs::vfs::writeBig({{"data\\ini\\x.ini", std::vector<uint8_t>(ini.begin(), ini.end())}});
        QFile f(root + "/Core/1.2/patch2.big");
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(big.data()), qint64(big.size()));
    };
    auto kanesWrathOf = [](const QString& root) {
        const rs::vfs::MountTable t = rs::vfs::mountInstall({root.toStdString()}, {});
        REQUIRE(t.find("data/ini/x.ini"));
        const std::vector<rs::Game> g = rs::games::mountedGames(&t);
        return std::find(g.begin(), g.end(), rs::Game::KanesWrath) != g.end();
    };
    QTemporaryDir kwDir, cnc3Dir;
    gameFolder(kwDir.path(), "CNC3EP1.exe");
    gameFolder(cnc3Dir.path(), "CNC3.exe");
    const bool kw = kanesWrathOf(kwDir.path());
    const bool cnc3 = kanesWrathOf(cnc3Dir.path());
    CHECK(kw);
    CHECK_FALSE(cnc3);
    const Shot k = render(model, dir.path(), {}, kw);
    const Shot c = render(model, dir.path(), k.box, cnc3);
    const V3 eye = eyeOfView();
    const ObjectsTexels r{kTex, flat, true, specR, true, hc};
    const V3 wantKw = objects(kGdi, 1.0f, r, eye, kRightMiddle, true);
    const V3 wantCnc3 = objects(kGdi, 1.0f, r, eye, kRightMiddle, false);
    REQUIRE(glm::length(wantKw - wantCnc3) > 0.1f); // the two formulas differ where the pixel is read
    checkPixel(k.at(0.75f, 0.5f), wantKw, "Kane's Wrath folder: house colour by spec.z");
    checkPixel(c.at(0.75f, 0.5f), wantCnc3, "C&C 3 folder: house colour by RecolorTexture");
}

TEST_CASE("ObjectsAlienIonHull.fx: reflection x 12 without the spec mask, and the ion texture squared x 3",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 specL(0.0f, 0.8f, 0.0f, 1.0f), specR(1.0f, 0.3f, 0.6f, 1.0f), env(0.2f, 0.25f, 0.3f, 1.0f);
    alienTextures(dir.path(), specL, specR, env);
    const V4 ion(0.3f, 0.2f, 0.15f, 1.0f);
    halvesTga(dir.path() + "/ion.tga", ion, ion); // one colour: the scrolled coordinates do not matter
    const Shot s = render(alienQuad("ObjectsAlienIonHull.fx", dir.path(), {textureProp("IonHullTexture", "ion.tga")},
                                    0.3f /* not read by the ion hull */),
                          dir.path());
    const V3 eye = eyeOfView();
    AlienCase l{0.3f, specL, env, true, ion}, r{0.3f, specR, env, true, ion};
    const V3 wl = alienFormula(l, eye, kLeftMiddle), wr = alienFormula(r, eye, kRightMiddle);
    INFO("left " << wl.x << "," << wl.y << "," << wl.z << " right " << wr.x << "," << wr.y << "," << wr.z);
    checkPixel(s.at(0.25f, 0.5f), wl, "ion hull, reflection 0.8, no specular mask");
    checkPixel(s.at(0.75f, 0.5f), wr, "ion hull, reflection 0.3");
    // Without the ion texture the sum drops by ion^2 x 3.
    const Shot bare = render(alienQuad("ObjectsAlienIonHull.fx", dir.path(), {}, 0.3f), dir.path(), s.box);
    l.ion = V4(0.0f);
    checkPixel(bare.at(0.25f, 0.5f), alienFormula(l, eye, kLeftMiddle), "ion hull without IonHullTexture");
}

TEST_CASE("ObjectsAlienBuildup.fx: the warp where the build-up map's alpha is at most 0.25, clipped below 0.21",
          "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 spec(1.0f, 0.5f, 0.6f, 1.0f), env(0.3f, 0.3f, 0.35f, 1.0f);
    alienTextures(dir.path(), spec, spec, env);
    // Same colour both halves (the warp samples at 3 uv + Time / 5); alpha 0.23 left (warp shown), 0.6 right.
    const V4 warp(0.25f, 0.1f, 0.4f, 0.23f), built(0.25f, 0.1f, 0.4f, 0.6f);
    halvesTga(dir.path() + "/bu.tga", warp, built);
    const Shot s = render(alienQuad("ObjectsAlienBuildup.fx", dir.path(),
                                    {textureProp("BuildUpMap", "bu.tga"), textureProp("RecolorTexture", "bu.tga")}),
                          dir.path());
    const V3 eye = eyeOfView();
    AlienCase l{1.0f, spec, env}, r{1.0f, spec, env}; // no house colour: the effect has no RecolorColor
    l.buildupWarp = true;
    l.warp = warp;
    checkPixel(s.at(0.25f, 0.5f), alienFormula(l, eye, kLeftMiddle), "build-up: alpha 0.23, the warp added");
    checkPixel(s.at(0.75f, 0.5f), alienFormula(r, eye, kRightMiddle), "build-up: alpha 0.6, built");
    // Alpha 0.1 on the left: clipped, the background shows there.
    halvesTga(dir.path() + "/bu.tga", V4(0.25f, 0.1f, 0.4f, 0.1f), built);
    const Shot clipped = render(alienQuad("ObjectsAlienBuildup.fx", dir.path(), {textureProp("BuildUpMap", "bu.tga")}),
                                dir.path(), s.box);
    const QColor bg = clipped.at(0.25f, 0.5f);
    CHECK(std::abs(bg.red() - kBg.red()) <= kTol);
    CHECK(std::abs(bg.green() - kBg.green()) <= kTol);
    CHECK(std::abs(bg.blue() - kBg.blue()) <= kTol);
    checkPixel(clipped.at(0.75f, 0.5f), alienFormula(r, eye, kRightMiddle), "build-up: the built half stays");
}

// The built fraction is the view's (ViewOptions::buildFraction: the Scene panel's "Built", --build-fraction):
// threshold = BuildUpMap alpha x fraction. With alpha 0.6: at 1 built (0.6), at 0.4 the warp (0.24 <= 0.25, not below
// 0.21), at 0.3 clipped (0.18). Changed on a shown model, the materials follow without a rebuild.
TEST_CASE("ObjectsAlienBuildup.fx: the view's built fraction at 1, 0.4 and 0.3, by the formula", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 spec(1.0f, 0.5f, 0.6f, 1.0f), env(0.3f, 0.3f, 0.35f, 1.0f);
    alienTextures(dir.path(), spec, spec, env);
    const V4 map(0.25f, 0.1f, 0.4f, 0.6f);
    halvesTga(dir.path() + "/bu.tga", map, map);
    const auto model = alienQuad("ObjectsAlienBuildup.fx", dir.path(), {textureProp("BuildUpMap", "bu.tga")});
    const Shot built = render(model, dir.path());
    const V3 eye = eyeOfView();
    AlienCase plain{1.0f, spec, env}, warped{1.0f, spec, env};
    warped.buildupWarp = true;
    warped.warp = map;
    REQUIRE(glm::length(alienFormula(warped, eye, kLeftMiddle) - alienFormula(plain, eye, kLeftMiddle)) > 0.1f);
    checkPixel(built.at(0.25f, 0.5f), alienFormula(plain, eye, kLeftMiddle), "build-up at 1: built");
    ViewOptions o = view().options();
    for (const float fraction : {0.4f, 0.3f}) {
        o.buildFraction = fraction;
        view().setOptions(o); // the shown model: its uniform changes
        Shot s = built;
        s.img = grab();
        const float threshold = q8(map).a * fraction;
        if (threshold < 0.21f) { // clipped: the background shows
            const QColor bg = s.at(0.25f, 0.5f);
            CHECK(std::abs(bg.red() - kBg.red()) <= kTol);
            CHECK(std::abs(bg.green() - kBg.green()) <= kTol);
            CHECK(std::abs(bg.blue() - kBg.blue()) <= kTol);
            CHECK(fraction == 0.3f);
        } else {
            REQUIRE(threshold <= 0.25f);
            checkPixel(s.at(0.25f, 0.5f), alienFormula(warped, eye, kLeftMiddle), "build-up at 0.4: the warp");
            checkPixel(s.at(0.75f, 0.5f), alienFormula(warped, eye, kRightMiddle), "build-up at 0.4, right");
        }
    }
    // A model opened while the fraction is 0.4 is built with it.
    o.buildFraction = 0.4f;
    view().setOptions(o);
    view().setModel(alienQuad("ObjectsAlienBuildup.fx", dir.path(), {textureProp("BuildUpMap", "bu.tga")}),
                    dir.path() + "/quad.w3d");
    view().setCameraAngles(180.0f, 0.0f);
    Shot fresh = built;
    fresh.img = grab();
    checkPixel(fresh.at(0.25f, 0.5f), alienFormula(warped, eye, kLeftMiddle), "build-up at 0.4 on a new model");
    o.buildFraction = 1.0f;
    view().setOptions(o);
}

// The same control on the command line: rigscope --screenshot --build-fraction F (a headless run of the app).
TEST_CASE("rigscope --screenshot --build-fraction: the alien structure built, rising, or not yet shown",
          "[render][w3x][fx][headless]") {
    QTemporaryDir dir;
    const V4 spec(1.0f, 0.5f, 0.6f, 1.0f), env(0.3f, 0.3f, 0.35f, 1.0f);
    alienTextures(dir.path(), spec, spec, env);
    const V4 map(0.25f, 0.1f, 0.4f, 0.6f);
    halvesTga(dir.path() + "/bu.tga", map, map);
    alienQuad("ObjectsAlienBuildup.fx", dir.path(), {textureProp("BuildUpMap", "bu.tga")}); // writes quad.w3d
    const QColor bg(48, 52, 60);                                                            // ViewOptions::background
    auto shot = [&](const QString& fraction, int* rc = nullptr) {
        const QString out = dir.filePath("b" + fraction + ".png");
        QProcess p;
        QStringList args{"--screenshot", out, "--size", "200x160", "--no-grid", "--yaw", "180", "--pitch", "0"};
        if (!fraction.isEmpty()) args << "--build-fraction" << fraction;
        p.start(QStringLiteral(RIGSCOPE_BIN), args << dir.filePath("quad.w3d"));
        REQUIRE(p.waitForFinished(60000));
        INFO(QString::fromLocal8Bit(p.readAllStandardError()).toStdString());
        if (rc) {
            *rc = p.exitCode();
            return QImage();
        }
        REQUIRE(p.exitCode() == 0);
        return QImage(out).convertToFormat(QImage::Format_RGB32);
    };
    const QImage built = shot(""), rising = shot("0.4"), none = shot("0.1");
    REQUIRE_FALSE(built.isNull());
    CHECK(countDifferent(built, bg) > 2000);        // the quad (threshold 0.6)
    CHECK(countChanged(built, rising, 24) > 1000);  // the warp added (threshold 0.24)
    CHECK(countDifferent(none, bg) == 0);           // clipped everywhere (threshold 0.06)
    CHECK(countChanged(built, shot("1"), 24) == 0); // 1 is the default
    int rc = 0;
    shot("1.5", &rc);
    CHECK(rc != 0);
}

TEST_CASE("ObjectsGenericEnvMap.fx: ObjectsGeneric's formula with the material's constants", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 nl = normalTexel(kTiltLeft), nr = normalTexel(kTiltRight);
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", nl, nr);
    const V4 spec(0.6f, 0.5f, 0.0f, 1.0f);
    halvesTga(dir.path() + "/s.tga", spec, spec);
    Fx fx;
    fx.typeName = "ObjectsGenericEnvMap.fx";
    fx.specMap = "s.tga";
    fx.bumpScale = 0.7f;
    fx.ambient = V3(0.8f, 0.6f, 0.5f);
    fx.diffuse = V3(0.6f, 0.9f, 0.7f);
    fx.specular = V3(0.3f, 0.2f, 0.4f);
    fx.exponent = 12.0f;
    fx.envMult = 0.5f;
    fx.extra = {textureProp("EnvironmentTexture", "sky_cube.dds")};
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    const V3 eye = eyeOfView();
    const ObjectsConst k{fx.bumpScale, fx.ambient, fx.diffuse, fx.specular, fx.exponent};
    checkPixel(s.at(0.25f, 0.5f), objects(k, fx.envMult, {kTex, nl, true, spec}, eye, kLeftMiddle), "env map, left");
    checkPixel(s.at(0.75f, 0.5f), objects(k, fx.envMult, {kTex, nr, true, spec}, eye, kRightMiddle), "env map, right");
}

// ObjectsGenericEnvMap.fx with its cube (a DDS cube map made by the project's writer, one colour a face): the
// reflection is the face that -reflect(eye, normalize(world normal + bump / 2)) points at, evaluated here from the
// per-vertex eye directions interpolated to the point. The quad faces -Y with a flat normal map, so the tangent-space
// bump (0, 0, 1) / 2 tilts the sum towards +Z (the effect adds it to the world normal): the eye's reflection points
// up and back, at the +Z face. Missing the cube (or a 2D texture in its place): the ambient stand-in, listed.
TEST_CASE("ObjectsGenericEnvMap.fx: the material's DDS cube reflected by the formula", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 flat = normalTexel(V3(0, 0, 1));
    halvesTga(dir.path() + "/d.tga", kTex, kTex);
    halvesTga(dir.path() + "/n.tga", flat, flat);
    const V4 spec(0.2f, 0.9f, 0.0f, 1.0f);
    halvesTga(dir.path() + "/s.tga", spec, spec);
    const V4 faceColour[6] = {{0.9f, 0.1f, 0.1f, 1}, {0.1f, 0.9f, 0.1f, 1}, {0.1f, 0.1f, 0.9f, 1},
                              {0.9f, 0.9f, 0.1f, 1}, {0.2f, 0.8f, 0.9f, 1}, {0.9f, 0.3f, 0.8f, 1}};
    rs::Image faces[6];
    for (int f = 0; f < 6; ++f) {
        faces[f].width = faces[f].height = 4;
        faces[f].rgba.resize(64);
        for (size_t i = 0; i < 16; ++i)
            for (int k = 0; k < 4; ++k)
                faces[f].rgba[i * 4 + size_t(k)] = uint8_t(std::lround(faceColour[f][k] * 255.0f));
    }
    const std::vector<uint8_t> dds = rs::writeDdsCubeRgba(faces);
    QFile cubeFile(dir.path() + "/env.dds");
    REQUIRE(cubeFile.open(QIODevice::WriteOnly));
    cubeFile.write(reinterpret_cast<const char*>(dds.data()), qint64(dds.size()));
    cubeFile.close();
    Fx fx;
    fx.typeName = "ObjectsGenericEnvMap.fx";
    fx.specMap = "s.tga";
    fx.ambient = V3(0.5f);
    fx.diffuse = V3(0.7f);
    fx.specular = V3(0.8f, 0.7f, 0.9f);
    fx.exponent = 20.0f;
    fx.envMult = 0.6f;
    fx.extra = {textureProp("EnvironmentTexture", "env.dds")};
    const auto model = quadModel(fx, dir.path());
    const Shot s = render(model, dir.path());
    const V3 eye = eyeOfView();
    const ObjectsConst k{fx.bumpScale, fx.ambient, fx.diffuse, fx.specular, fx.exponent};
    // The face a point reflects: the interpolated eye direction, the world normal plus half the decoded bump.
    auto face = [&](const Blend& at) {
        V3 e(0.0f);
        for (const auto& [w, p] : at)
            e += w * glm::normalize(eye - p);
        const V3 n = glm::normalize(kNormal + decoded(flat, fx.bumpScale) * 0.5f);
        const V3 r = 2.0f * glm::dot(n, e) * n - e; // -reflect(e, n)
        const V3 a = glm::abs(r);
        const int axis = a.x >= a.y && a.x >= a.z ? 0 : a.y >= a.z ? 1 : 2;
        const float major = a[axis], other = std::max(a[(axis + 1) % 3], a[(axis + 2) % 3]);
        REQUIRE(major > other + 0.1f); // away from the cube's edges
        return axis * 2 + (r[axis] < 0.0f ? 1 : 0);
    };
    bool sawCube = false;
    for (const auto& [u, at] : {std::pair<float, const Blend*>{0.25f, &kLeftMiddle}, {0.75f, &kRightMiddle}}) {
        const int f = face(*at);
        CHECK(f == 4); // +Z
        ObjectsTexels t{kTex, flat, true, spec};
        t.envCube = true;
        t.envTexel = faceColour[f];
        const V3 want = objects(k, fx.envMult, t, eye, *at);
        REQUIRE(glm::length(want - objects(k, fx.envMult, {kTex, flat, true, spec}, eye, *at)) > 0.1f);
        checkPixel(s.at(u, 0.5f), want, "env cube at engine u " + std::to_string(u));
        sawCube = true;
    }
    CHECK(sawCube);
    bool listed = false;
    for (const rs::render::TextureInfo& t : view().textures())
        if (t.parameter == "EnvironmentTexture") listed = t.loaded && t.name == "env.dds";
    CHECK(listed);
    // A 2D texture named as the cube: not a cube map, said, and the ambient stand-in drawn.
    writeTga(dir.path() + "/flat.tga", 4, 4, [](float, float) { return V4(1.0f); });
    fx.extra = {textureProp("EnvironmentTexture", "flat.tga")};
    const Shot f2 = render(quadModel(fx, dir.path()), dir.path(), s.box);
    checkPixel(f2.at(0.25f, 0.5f), objects(k, fx.envMult, {kTex, flat, true, spec}, eye, kLeftMiddle),
               "a 2D texture as the cube: the ambient stand-in");
    bool said = false;
    for (const rs::render::TextureInfo& t : view().textures())
        if (t.parameter == "EnvironmentTexture") said = !t.loaded && t.error.contains("not a DDS cube map");
    CHECK(said);
}

TEST_CASE("Simple.fx: unlit Texture_0 x ColorEmissive at the transformed UV", "[render][w3x][fx]") {
    QTemporaryDir dir;
    const V4 left(0.9f, 0.2f, 0.3f, 1.0f), right(0.2f, 0.6f, 0.8f, 1.0f);
    halvesTga(dir.path() + "/d.tga", left, right);
    Fx fx;
    fx.typeName = "Simple.fx";
    fx.objectsProps = false;
    const V3 emissive(0.5f, 0.8f, 1.0f);
    fx.extra = {textureProp("Texture_0", "d.tga"), colourProp("ColorEmissive", emissive)};
    const Shot s = render(quadModel(fx, dir.path()), dir.path());
    checkPixel(s.at(0.25f, 0.5f), V3(q8(left)) * emissive, "simple, left");
    checkPixel(s.at(0.75f, 0.5f), V3(q8(right)) * emissive, "simple, right");
    // TexCoordTransform_0 scale (-1, 1): u -> -u, wrapped: each half shows the other's texel.
    fx.extra.push_back([] {
        auto p = prop("TexCoordTransform_0", 5); // float4
        p.value = V4(-1.0f, 1.0f, 0.0f, 0.0f);
        return p;
    }());
    const Shot flipped = render(quadModel(fx, dir.path()), dir.path(), s.box);
    checkPixel(flipped.at(0.2f, 0.5f), V3(q8(right)) * emissive, "simple, mirrored UV, left shows right");
    checkPixel(flipped.at(0.8f, 0.5f), V3(q8(left)) * emissive, "simple, mirrored UV, right shows left");
    // The offset: uv x (1, 1) + Time x (0.25, 0), Time in seconds (the timeline's). At Time 0 nothing moves; at Time
    // 2 u moves by 0.5 and each half shows the other's texel; at Time 1 by 0.25: engine u 0.4 reads 0.65 (right). The
    // points read away from the halves' bilinear seams (within a texel of u 0.5 and of the wrap at 0/1).
    fx.extra.back().value = V4(1.0f, 1.0f, 0.25f, 0.0f);
    const Shot moving = render(quadModel(fx, dir.path()), dir.path(), s.box);
    checkPixel(moving.at(0.2f, 0.5f), V3(q8(left)) * emissive, "simple, offset at Time 0, left");
    for (const float t : {2.0f, 1.0f}) {
        view().setTime(t);
        Shot m = moving;
        m.img = grab();
        for (const float u : {0.1f, 0.4f, 0.6f}) {
            const float moved = glm::fract(u + t * 0.25f);
            checkPixel(m.at(u, 0.5f), V3(q8(moved < 0.5f ? left : right)) * emissive,
                       "simple, Time " + std::to_string(t) + ", engine u " + std::to_string(u));
        }
    }
    view().setTime(0.0f);
}
