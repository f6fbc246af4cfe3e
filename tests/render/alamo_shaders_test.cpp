// The Alamo .fx implementations against the formulas of the game's shader sources, evaluated on the CPU here
// (independent of the GLSL): a writer-made model with one quad per case (the shader, chosen parameters and solid
// textures written beside it), the land light preset with the sun at a chosen angle, the centre of the quad
// sampled. The light rig's inputs (directions, colours) come from render/lights.h; the spherical-harmonic
// irradiance is projected here on its own (one case builds the Space preset's rig from its documented values).
// RSkin* names are drawn on skinned vertices (see quadModel); a table runs each Mesh, RSkin and BatchMesh name
// through the formula of the .fx its registry entry follows, and a test checks that every drawn name of the
// registry (alamoShaderNames) has a pixel case.
//
// The quad faces the camera and has a flat normal, so the engine's per-vertex terms are the same at every pixel.
// Specular terms are switched off (normal-map or base alpha 0, Specular 0) except in the specular cases, which take
// the eye from the view's camera (per-vertex terms at the quad's corners, the centre pixel their mean). One RSkin
// case draws skinned vertices posed by a clip and samples where the turned bone's part lands.
// Tolerance: 4/255 per channel (8-bit framebuffer and texture quantisation).
#include "render_harness.h"

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "formats/material_policy.h"
#include "formats/shader_registry.h"
#include "lights.h"
#include "scene/clip.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

using rs::render::ViewOptions;
using namespace rs::test;

namespace {

const QColor kBg(20, 24, 30);
constexpr int kTol = 4;
const float kYaw = 180.0f; // the camera on -Y, facing the quad

using V3 = glm::vec3;
using V4 = glm::vec4;

// A solid 8x8 TGA (uncompressed 32-bit BGRA). `right`: a second colour for the right half (u >= 0.5), or with
// `rows`, for the lower half of the image.
void writeTga(const QString& path, V4 rgba, std::optional<V4> right = {}, bool rows = false) {
    QByteArray b(18, '\0');
    b[2] = 2;
    b[12] = 8;
    b[14] = 8;
    b[16] = 32;
    b[17] = 8 | 0x20; // 8 alpha bits, top-left origin
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const V4 c = (right && (rows ? y >= 4 : x >= 4)) ? *right : rgba;
            for (int k : {2, 1, 0, 3})
                b.append(char(int(std::lround(glm::clamp(c[k], 0.0f, 1.0f) * 255.0f))));
        }
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(b);
}
V4 q8(V4 c) { return glm::round(glm::clamp(c, 0.0f, 1.0f) * 255.0f) / 255.0f; } // as stored in the texture

rs::MaterialParam param(const char* name, V4 v, rs::ParamType t = rs::ParamType::Float4) {
    rs::MaterialParam p;
    p.name = name;
    p.type = t;
    p.value = v;
    return p;
}
rs::MaterialParam tex(const char* name, const char* file) {
    rs::MaterialParam p;
    p.name = name;
    p.type = rs::ParamType::Texture;
    p.texture = file;
    return p;
}

// A 2x2 quad in the XZ plane facing -Y (towards the camera at yaw 0), tangent +X, binormal +Z. An RSkin* shader
// gets skinned vertices (alD3dVertRSkinNU2[C], model space, bone map {Root, Skin}, every vertex on Skin, a child
// bone away from the origin), drawn through the bone palette in the bind pose.
// `m` through the project's Alamo writer and reader: the model the view draws is a real .alo.
std::shared_ptr<rs::Model> throughAlo(const rs::Model& m) {
    const std::vector<uint8_t> bytes = rs::alamo::writeModel(m);
    return std::make_shared<rs::Model>(rs::alamo::readModel(rs::ByteSpan(bytes.data(), bytes.size()), "quad.alo"));
}

std::shared_ptr<rs::Model> quadModel(const std::string& shader, std::vector<rs::MaterialParam> params,
                                     bool colors = false, V4 vertexColor = V4(1.0f)) {
    const bool skinned = shader.rfind("RSkin", 0) == 0;
    rs::Model m;
    m.format = rs::Format::AlamoModel;
    rs::Bone root;
    root.name = "Root";
    m.skeleton.bones.push_back(root);
    if (skinned) {
        rs::Bone skin;
        skin.name = "Skin";
        skin.parent = 0;
        skin.bindLocal = glm::translate(glm::mat4(1.0f), V3(0.3f, 0, 0.2f));
        m.skeleton.bones.push_back(skin);
    }
    rs::Mesh mesh;
    mesh.name = "Quad";
    mesh.baseName = "Quad";
    mesh.bone = 0;
    rs::SubMesh sm;
    sm.material.shader = shader;
    sm.material.params = std::move(params);
    sm.vertexFormat = colors ? "alD3dVertNU2C" : "alD3dVertNU2U3U3";
    sm.positions = {{-1, 0, -1}, {1, 0, -1}, {1, 0, 1}, {-1, 0, 1}};
    sm.normals.assign(4, V3(0, -1, 0));
    sm.tangents.assign(4, V3(1, 0, 0));
    sm.binormals.assign(4, V3(0, 0, 1));
    sm.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    if (colors) sm.colors.assign(4, vertexColor);
    if (skinned) {
        sm.vertexFormat = colors ? "alD3dVertRSkinNU2C" : "alD3dVertRSkinNU2";
        sm.boneMap = {0, 1};
        sm.boneIndices.assign(4, glm::u16vec4(1, 0, 0, 0));
        sm.boneWeights.assign(4, V4(1, 0, 0, 0));
    }
    sm.indices = {0, 1, 2, 0, 2, 3};
    mesh.boundsMin = V3(-1, 0, -1);
    mesh.boundsMax = V3(1, 0, 1);
    mesh.subMeshes.push_back(sm);
    m.meshes.push_back(mesh);
    auto read = throughAlo(m);
    if (skinned) {
        REQUIRE(read->meshes.size() == 1);
        const rs::SubMesh& r = read->meshes[0].subMeshes[0];
        REQUIRE(r.skinned());
        REQUIRE(r.boneIndices.size() == 4);
        REQUIRE(r.boneIndices[0].x == 1);
        REQUIRE(r.colors.size() == (colors ? 4u : 0u));
    }
    return read;
}

struct Shot {
    QImage img;
    QRect box;
    QColor at(float u, float v) const { // u, v in 0..1 across the quad's box (v down)
        return img.pixelColor(box.left() + int(u * float(box.width() - 1)),
                              box.top() + int(v * float(box.height() - 1)));
    }
};

// The lights: the view's preset (0 Land, 1 Space) and sun angles (degrees); the Land preset with the sun at
// 20, 35 unless a case says otherwise.
struct Lighting {
    int preset = 0;
    float azimuth = 20.0f, elevation = 35.0f;
};

Shot render(std::shared_ptr<rs::Model> m, const QString& dir, float time = 0.0f, ViewOptions o = {},
            Lighting light = {}) {
    o.grid = false;
    o.dazzles = false;
    o.background = kBg;
    o.lightPreset = light.preset;
    o.sunAzimuth = light.azimuth;
    o.sunElevation = light.elevation;
    o.factionColor = QColor(200, 60, 30);
    auto& v = view();
    v.setOptions(o);
    v.setModel(m, dir + "/quad.alo");
    v.setCameraAngles(kYaw, 0.0f);
    v.setTime(time);
    Shot s;
    s.img = grab();
    REQUIRE(!s.img.isNull());
    s.box = foreground(s.img, kBg, 2);
    return s;
}

// ---- CPU evaluation of the engine's lighting (AlamoEngine.fxh) ----
struct Rig {
    rs::render::AlamoLightRig r = rs::render::alamoLightRig(rs::render::LightPreset::Land, 20.0f, 35.0f);
};
// Irradiance of directional lights + ambient at normal n: the nine-coefficient SH projection, convolved with the
// clamped cosine (A0 = pi, A1 = 2pi/3, A2 = pi/4; a light straight on gives about its colour), evaluated at n;
// ambient adds to every direction.
V3 shIrradiance(const std::vector<rs::render::AlamoLight>& lights, V3 ambient, V3 n) {
    auto basis = [](V3 d, float* y) {
        y[0] = 0.282095f;
        y[1] = 0.488603f * d.y;
        y[2] = 0.488603f * d.z;
        y[3] = 0.488603f * d.x;
        y[4] = 1.092548f * d.x * d.y;
        y[5] = 1.092548f * d.y * d.z;
        y[6] = 0.315392f * (3 * d.z * d.z - 1);
        y[7] = 1.092548f * d.x * d.z;
        y[8] = 0.546274f * (d.x * d.x - d.y * d.y);
    };
    const float pi = 3.14159265f,
                A[9] = {pi, 2 * pi / 3, 2 * pi / 3, 2 * pi / 3, pi / 4, pi / 4, pi / 4, pi / 4, pi / 4};
    float yn[9];
    basis(n, yn);
    V3 e = ambient;
    for (const auto& l : lights) {
        float yl[9];
        basis(l.toward, yl);
        for (int k = 0; k < 9; ++k)
            e += l.color * (A[k] * yl[k] * yn[k]);
    }
    return e;
}
V3 sphAll(const Rig& g, V3 n) { return shIrradiance({g.r.sun, g.r.fill1, g.r.fill2}, g.r.ambient, n); }
V3 sphFill(const Rig& g, V3 n) { return shIrradiance({g.r.fill1, g.r.fill2}, g.r.ambient, n); }
V3 sat(V3 v) { return glm::clamp(v, 0.0f, 1.0f); }
V3 faction() { return V3(200, 60, 30) / 255.0f; }
V3 bg() { return V3(kBg.redF(), kBg.greenF(), kBg.blueF()); }

void checkPixel(const QColor& got, V3 want, const char* what) {
    const V3 w = glm::clamp(want, 0.0f, 1.0f) * 255.0f;
    INFO(what << ": got " << got.red() << "," << got.green() << "," << got.blue() << " want " << w.x << "," << w.y
              << "," << w.z);
    CHECK(std::abs(got.red() - w.x) <= kTol);
    CHECK(std::abs(got.green() - w.y) <= kTol);
    CHECK(std::abs(got.blue() - w.z) <= kTol);
}

const V3 kN(0, -1, 0), kT(1, 0, 0), kB(0, 0, 1);

} // namespace

TEST_CASE("every Alamo shader of the corpus has an implementation", "[render][alamo]") {
    for (const char* s : {"MeshBumpColorize.fx",
                          "RSkinBumpColorize.fx",
                          "MeshGloss.fx",
                          "RSkinGloss.fx",
                          "MeshGlossColorize.fx",
                          "RSkinGlossColorize.fx",
                          "MeshAlpha.fx",
                          "RSkinAlpha.fx",
                          "MeshAdditive.fx",
                          "MeshShield.fx",
                          "Skydome.fx",
                          "Planet.fx",
                          "MeshBumpReflectColorize.fx",
                          "RSkinBumpReflectColorize.fx",
                          "MeshAlphaGloss.fx",
                          "RSkinAlphaGloss.fx",
                          "MeshAdditiveVColor.fx",
                          "RSkinAdditiveVColor.fx",
                          "MeshAdditiveOffset.fx",
                          "MeshSolidColor.fx",
                          "MeshAlphaScroll.fx",
                          "BatchMeshGloss.fx",
                          "BatchMeshAlpha.fx",
                          "TerrainMeshBump.fx",
                          "TerrainMeshGloss.fx",
                          "Nebula.fx",
                          "Tree.fx",
                          "Grass.fx"})
        CHECK(rs::alamoShaderInfo(s).fidelity == rs::ShaderFidelity::EngineFormula);
    for (const char* s : {"MeshShadowVolume.fx", "RSkinShadowVolume.fx", "MeshCollision.fx", "MeshLightVisualize.fx"})
        CHECK(rs::alamoShaderInfo(s).fidelity == rs::ShaderFidelity::NotDrawn);
}

TEST_CASE("MeshBumpColorize: colorized base, dot3 sun, SH fill light", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.6f, 0.5f, 0.4f, 0.5f), normal(0.55f, 0.65f, 0.85f, 0.0f);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/n.tga", normal);
    const V4 diffuse(0.9f, 0.8f, 0.7f, 1), emissive(0.05f, 0.02f, 0.0f, 1);
    auto m = quadModel("MeshBumpColorize.fx",
                       {tex("BaseTexture", "b.tga"), tex("NormalTexture", "n.tga"), param("Diffuse", diffuse),
                        param("Emissive", emissive), param("Colorization", V4(0, 1, 0, 1))});
    const Shot s = render(m, dir.path());
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V4 b = q8(base), nt = q8(normal);
    const V3 surface = glm::mix(V3(b), faction() * V3(b), b.a);
    const V3 L = g.r.sun.toward;
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    const V3 n = 2.0f * (V3(nt) - 0.5f);
    const float ndotl = glm::clamp(glm::dot(n, lt), 0.0f, 1.0f);
    const V3 diff = sat(sphFill(g, kN) * V3(diffuse) + V3(emissive));
    const V3 want = surface * (ndotl * V3(diffuse) * g.r.sun.color + diff) * 2.0f; // + spec * normal alpha (0)
    checkPixel(s.at(0.5f, 0.5f), want, "MeshBumpColorize");
}

TEST_CASE("MeshGloss, MeshGlossColorize, alDefault, RSkinGlossColorize: 2x diffuse with SPH_LIGHT_ALL",
          "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.7f, 0.45f, 0.3f, 0.0f), masked(0.7f, 0.45f, 0.3f, 0.6f);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/m.tga", masked);
    writeTga(dir.path() + "/g.tga", V4(0, 0, 0, 1));
    const V4 diffuse(0.8f, 0.9f, 1.0f, 1), emissive(0.02f, 0.04f, 0.06f, 1);
    Rig g;
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN) + V3(emissive));
    {
        auto m = quadModel("MeshGloss.fx",
                           {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Emissive", emissive)});
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), diff * V3(q8(base)) * 2.0f, "MeshGloss");
    }
    {
        auto m = quadModel("alDefault.fx",
                           {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Emissive", emissive)});
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), diff * V3(q8(base)) * 2.0f, "alDefault");
    }
    const V4 mb = q8(masked);
    const V3 surface = glm::mix(V3(mb), faction() * V3(mb), mb.a);
    for (const char* shader : {"MeshGlossColorize.fx", "RSkinGlossColorize.fx"}) {
        auto m = quadModel(shader, {tex("BaseTexture", "m.tga"), tex("GlossTexture", "g.tga"),
                                    param("Diffuse", diffuse), param("Emissive", emissive)});
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), surface * diff * 2.0f, shader); // + spec * gloss.r (0)
    }
}

TEST_CASE("MeshAlpha blends 2x lit texture by texture alpha x Diffuse alpha", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.9f, 0.6f, 0.2f, 0.7f), diffuse(0.7f, 0.7f, 0.8f, 0.6f);
    writeTga(dir.path() + "/b.tga", base);
    auto m = quadModel("MeshAlpha.fx",
                       {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Specular", V4(0, 0, 0, 1))});
    Rig g;
    const V4 b = q8(base);
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN));
    const V3 src = glm::min(V3(b) * diff * 2.0f, V3(1.0f));
    const float a = b.a * diffuse.a;
    checkPixel(render(m, dir.path()).at(0.5f, 0.5f), src * a + bg() * (1.0f - a), "MeshAlpha");
}

TEST_CASE("MeshAdditive adds texture x Color, scrolled by UVScrollRate with the timeline", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 left(0.8f, 0.2f, 0.1f, 1), right(0.1f, 0.3f, 0.9f, 1), color(0.5f, 0.9f, 0.7f, 1);
    writeTga(dir.path() + "/b.tga", left, right);
    auto m = quadModel("MeshAdditive.fx",
                       {tex("BaseTexture", "b.tga"), param("Color", color), param("UVScrollRate", V4(0.5f, 0, 0, 0))});
    // u = 0.25 shows the left half at t = 0, the right half at t = 1 s (u + 0.5).
    checkPixel(render(m, dir.path(), 0.0f).at(0.25f, 0.5f), bg() + V3(q8(left)) * V3(color), "MeshAdditive t=0");
    checkPixel(render(m, dir.path(), 1.0f).at(0.25f, 0.5f), bg() + V3(q8(right)) * V3(color), "MeshAdditive t=1");
}

TEST_CASE("MeshShield: base x wave x colour x edge term, added", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.6f, 0.7f, 0.9f, 1), wave(0.8f, 0.8f, 0.5f, 1), color(0.5f, 0.6f, 1.0f, 1);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/w.tga", wave);
    writeTga(dir.path() + "/d.tga", V4(0.3f, 0.1f, 0, 1));
    auto m = quadModel("MeshShield.fx",
                       {tex("BaseTexture", "b.tga"), tex("WaveTexture", "w.tga"), tex("DistortionTexture", "d.tga"),
                        param("Color", color), param("EdgeBrightness", V4(0.3f, 0, 0, 0), rs::ParamType::Float)},
                       true);
    // Object-space normal z = 0 (the quad's normal is -Y): saturate(0 + EdgeBrightness).
    const V3 diff = V3(color) * 0.3f;
    checkPixel(render(m, dir.path(), 0.5f).at(0.5f, 0.5f), bg() + V3(q8(base)) * V3(q8(wave)) * diff, "MeshShield");
}

TEST_CASE("Skydome: base under the cloud layer, lit by SPH_LIGHT_ALL of the inverted normal", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.3f, 0.5f, 0.8f, 1), cloud(0.9f, 0.9f, 0.9f, 0.4f);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/c.tga", cloud);
    auto m = quadModel("Skydome.fx", {tex("BaseTexture", "b.tga"), tex("CloudTexture", "c.tga")}, true);
    Rig g;
    const V3 diff = sat(sphAll(g, -kN));
    const V4 c = q8(cloud);
    const V3 surface = glm::mix(V3(q8(base)), V3(c), c.a);
    checkPixel(render(m, dir.path()).at(0.5f, 0.5f), surface * diff * 2.0f, "Skydome");
}

TEST_CASE("Planet: bump-lit surface, fill light, clouds over it", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.2f, 0.5f, 0.3f, 0.0f), normal(0.5f, 0.6f, 0.9f, 0.0f), cloud(1.0f, 1.0f, 1.0f, 0.3f);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/n.tga", normal);
    writeTga(dir.path() + "/c.tga", cloud);
    writeTga(dir.path() + "/cn.tga", V4(0.5f, 0.5f, 1.0f, 1));
    auto m = quadModel("Planet.fx", {tex("BaseTexture", "b.tga"), tex("NormalTexture", "n.tga"),
                                     tex("CloudTexture", "c.tga"), tex("CloudNormalTexture", "cn.tga")});
    Rig g;
    const V3 L = g.r.sun.toward;
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    const V3 diff = sat(sphFill(g, kN));
    const float ndotl = glm::clamp(glm::dot(2.0f * (V3(q8(normal)) - 0.5f), lt), 0.0f, 1.0f);
    const float cloudNdotl = glm::clamp(glm::dot(2.0f * (V3(q8(V4(0.5f, 0.5f, 1, 1))) - 0.5f), lt), 0.0f, 1.0f);
    const V4 c = q8(cloud);
    const V3 cloudLit = (V3(c) * cloudNdotl * g.r.sun.color + diff) * 2.0f;
    const V3 planet = V3(q8(base)) * (ndotl * g.r.sun.color + diff) * 2.0f; // Atmosphere.a * 0 rgb: no rim colour
    checkPixel(render(m, dir.path()).at(0.5f, 0.5f), glm::mix(planet, cloudLit, c.a), "Planet");
}

namespace {

// The camera position of the last render (the view's Qt3D camera; the quad's bone is the identity, so world =
// model space).
V3 eyeOfView() {
    const QVector3D e = view().window()->camera()->position();
    return V3(e.x(), e.y(), e.z());
}
// The quad's corners 0 (-1, 0, -1) and 2 (1, 0, 1): the centre pixel lies on their shared diagonal, half-way (the
// quad faces the camera, so the interpolation is linear across it), and gets the mean of their per-vertex terms.
const V3 kCorner0(-1, 0, -1), kCorner2(1, 0, 1);

// Compute_Specular_Light (AlamoEngine.fxh): pow(max(0, N.H), 16) * DIR_LIGHT_SPECULAR_0 at a vertex.
V3 vertexSpecular(const Rig& g, V3 p, V3 eye) {
    const V3 E = glm::normalize(eye - p), H = glm::normalize(E + g.r.sun.toward);
    return std::pow(std::max(0.0f, glm::dot(kN, H)), 16.0f) * g.r.specular;
}

} // namespace

TEST_CASE("MeshGloss specular: per-vertex Blinn term x Specular, masked by base alpha", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.2f, 0.15f, 0.1f, 0.8f), diffuse(0.3f, 0.3f, 0.3f, 1), specular(0.9f, 0.7f, 0.5f, 1);
    writeTga(dir.path() + "/b.tga", base);
    auto m = quadModel("MeshGloss.fx",
                       {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Specular", specular)});
    const Shot s = render(m, dir.path());
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    const V3 spec0 = sat(V3(specular) * vertexSpecular(g, kCorner0, eye));
    const V3 spec2 = sat(V3(specular) * vertexSpecular(g, kCorner2, eye));
    const V3 specAtCentre = 0.5f * (spec0 + spec2);
    REQUIRE(specAtCentre.x > 0.1f); // the term is visible at this sun and eye
    const V4 b = q8(base);
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN));
    checkPixel(s.at(0.5f, 0.5f), diff * V3(b) * 2.0f + specAtCentre * b.a, "MeshGloss specular");
    // Without the gloss mask (base alpha 0) the same pixel has no highlight.
    writeTga(dir.path() + "/b0.tga", V4(V3(base), 0.0f));
    auto m0 = quadModel("MeshGloss.fx",
                        {tex("BaseTexture", "b0.tga"), param("Diffuse", diffuse), param("Specular", specular)});
    checkPixel(render(m0, dir.path()).at(0.5f, 0.5f), diff * V3(b) * 2.0f, "MeshGloss, gloss mask 0");
}

TEST_CASE("MeshAlphaGloss: 2x lit texture + specular x gloss texture red, blended by alpha", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.5f, 0.4f, 0.3f, 0.7f), gloss(0.6f, 0.1f, 0.1f, 1), diffuse(0.6f, 0.6f, 0.7f, 0.8f),
        specular(0.8f, 0.8f, 0.6f, 1);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/g.tga", gloss);
    auto m = quadModel("MeshAlphaGloss.fx", {tex("BaseTexture", "b.tga"), tex("GlossTexture", "g.tga"),
                                             param("Diffuse", diffuse), param("Specular", specular)});
    const Shot s = render(m, dir.path());
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    const V3 spec = 0.5f * (sat(V3(specular) * vertexSpecular(g, kCorner0, eye)) +
                            sat(V3(specular) * vertexSpecular(g, kCorner2, eye)));
    const V4 b = q8(base);
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN));
    const V3 src = glm::min(diff * V3(b) * 2.0f + spec * q8(gloss).r, V3(1.0f));
    const float a = diffuse.a * b.a;
    checkPixel(s.at(0.5f, 0.5f), src * a + bg() * (1.0f - a), "MeshAlphaGloss");
}

TEST_CASE("MeshBumpReflectColorize: dot3 sun + fill, sky reflection x Specular x normal-map alpha", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.5f, 0.45f, 0.4f, 0.0f), normal(0.5f, 0.6f, 0.9f, 0.75f), specular(0.6f, 0.7f, 0.8f, 1);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/n.tga", normal);
    auto m = quadModel("MeshBumpReflectColorize.fx",
                       {tex("BaseTexture", "b.tga"), tex("NormalTexture", "n.tga"), param("Specular", specular)});
    const Shot s = render(m, dir.path());
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    // Per-vertex world reflection vector -v + 2 (v.n) n, interpolated, then looked up as a cube-map direction.
    auto refl = [&](V3 p) {
        const V3 v = glm::normalize(eye - p);
        return glm::normalize(-v + 2.0f * glm::dot(v, kN) * kN);
    };
    const V3 r = glm::normalize(0.5f * (refl(kCorner0) + refl(kCorner2)));
    const V3 sky = sat(sphAll(g, r)); // the light set-up's irradiance stands for the map's sky cube
    const V4 nt = q8(normal);
    const V3 L = g.r.sun.toward;
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    const float ndotl = glm::clamp(glm::dot(2.0f * (V3(nt) - 0.5f), lt), 0.0f, 1.0f);
    const V3 diff = sat(sphFill(g, kN));
    const V3 want = V3(q8(base)) * (ndotl * g.r.sun.color + diff) * 2.0f + sky * V3(specular) * nt.a;
    REQUIRE(glm::length(sky * V3(specular) * nt.a) > 0.1f); // the reflection is a visible part of the pixel
    checkPixel(s.at(0.5f, 0.5f), want, "MeshBumpReflectColorize");
}

TEST_CASE("MeshAdditiveVColor adds texture x vertex colour, scrolled with the timeline", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 left(0.7f, 0.3f, 0.2f, 1), right(0.2f, 0.4f, 0.8f, 1), vc(0.4f, 0.8f, 0.6f, 1);
    writeTga(dir.path() + "/b.tga", left, right);
    auto m = quadModel("MeshAdditiveVColor.fx",
                       {tex("BaseTexture", "b.tga"), param("UVScrollRate", V4(0.25f, 0, 0, 0))}, true, vc);
    // u = 0.25: left half at t = 0, right half at t = 2 s (u + 0.5).
    checkPixel(render(m, dir.path(), 0.0f).at(0.25f, 0.5f), bg() + V3(q8(left)) * V3(vc), "AdditiveVColor t=0");
    checkPixel(render(m, dir.path(), 2.0f).at(0.25f, 0.5f), bg() + V3(q8(right)) * V3(vc), "AdditiveVColor t=2");
}

TEST_CASE("MeshAdditiveOffset adds texture x Color at UV + UVOffset", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 left(0.6f, 0.2f, 0.2f, 1), right(0.1f, 0.5f, 0.3f, 1), color(0.9f, 0.8f, 0.5f, 1);
    writeTga(dir.path() + "/b.tga", left, right);
    auto m = quadModel("MeshAdditiveOffset.fx",
                       {tex("BaseTexture", "b.tga"), param("Color", color), param("UVOffset", V4(0.5f, 0, 0, 0))});
    const Shot s = render(m, dir.path(), 3.0f); // no time term: the offset alone moves the texture
    checkPixel(s.at(0.25f, 0.5f), bg() + V3(q8(right)) * V3(color), "AdditiveOffset u=0.25");
    checkPixel(s.at(0.75f, 0.5f), bg() + V3(q8(left)) * V3(color), "AdditiveOffset u=0.75");
}

TEST_CASE("MeshSolidColor draws Color unlit", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 color(0.2f, 0.6f, 0.3f, 1);
    auto m = quadModel("MeshSolidColor.fx", {param("Color", color)});
    checkPixel(render(m, dir.path()).at(0.5f, 0.5f), V3(color), "MeshSolidColor");
}

TEST_CASE("shadow-volume, collision and light-visualize shaders are hidden by default, by their name alone",
          "[render][alamo]") {
    QTemporaryDir dir;
    writeTga(dir.path() + "/b.tga", V4(0.9f, 0.9f, 0.9f, 1));
    for (const char* shader :
         {"MeshShadowVolume.fx", "RSkinShadowVolume.fx", "MeshCollision.fx", "MeshLightVisualize.fx"}) {
        INFO(shader);
        auto m = quadModel(shader, {tex("BaseTexture", "b.tga")});
        if (std::string(shader) == "MeshLightVisualize.fx")
            REQUIRE_FALSE(m->meshes[0].shadowOrCollision); // the shader name, not the mesh flag, hides this one
        const Shot hidden = render(m, dir.path());
        CHECK(countDifferent(hidden.img, kBg, 2) == 0);
        ViewOptions o;
        o.showHidden = true;
        const Shot shown = render(m, dir.path(), 0.0f, o);
        CHECK(countDifferent(shown.img, kBg, 2) > 1000);
    }
}

TEST_CASE("a MeshLightVisualize sub-mesh beside a drawn one is hidden in the view, as the export leaves it out",
          "[render][alamo]") {
    QTemporaryDir dir;
    writeTga(dir.path() + "/b.tga", V4(0.9f, 0.9f, 0.9f, 1));
    // One mesh, two sub-meshes: a MeshGloss quad on the left, a MeshLightVisualize quad on the right.
    rs::Model src;
    src.format = rs::Format::AlamoModel;
    rs::Bone root;
    root.name = "Root";
    src.skeleton.bones.push_back(root);
    rs::Mesh mesh;
    mesh.name = mesh.baseName = "Hull";
    mesh.bone = 0;
    for (const char* shader : {"MeshGloss.fx", "MeshLightVisualize.fx"}) {
        const float x0 = mesh.subMeshes.empty() ? -1.0f : 0.2f;
        rs::SubMesh sm;
        sm.material.shader = shader;
        sm.material.params = {tex("BaseTexture", "b.tga")};
        sm.vertexFormat = "alD3dVertNU2U3U3";
        sm.positions = {{x0, 0, -0.4f}, {x0 + 0.8f, 0, -0.4f}, {x0 + 0.8f, 0, 0.4f}, {x0, 0, 0.4f}};
        sm.normals.assign(4, V3(0, -1, 0));
        sm.tangents.assign(4, V3(1, 0, 0));
        sm.binormals.assign(4, V3(0, 0, 1));
        sm.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        sm.indices = {0, 1, 2, 0, 2, 3};
        mesh.subMeshes.push_back(sm);
    }
    mesh.boundsMin = V3(-1, 0, -0.4f);
    mesh.boundsMax = V3(1, 0, 0.4f);
    src.meshes.push_back(mesh);
    auto m = throughAlo(src);
    REQUIRE(m->meshes.size() == 1);
    REQUIRE(m->meshes[0].subMeshes.size() == 2);
    // The one policy the export reads (core/formats/material_policy.h) hides the second sub-mesh.
    CHECK(rs::materialPolicy(m->format, m->meshes[0], m->meshes[0].subMeshes[1].material).hiddenByDefault);
    ViewOptions o;
    o.showHidden = true;
    const Shot both = render(m, dir.path(), 0.0f, o);
    const Shot shown = render(m, dir.path());
    REQUIRE(both.box.width() > 60);
    // Drawn with "show hidden": the box spans both quads (2 x 0.8 units); by default only the left quad
    // (0.8 x 0.8) is drawn. The camera frames what is drawn, so the boxes are compared by their shape.
    INFO("both " << both.box.width() << "x" << both.box.height() << ", default " << shown.box.width() << "x"
                 << shown.box.height());
    REQUIRE(shown.box.height() > 20);
    CHECK(float(both.box.width()) > 2.0f * float(both.box.height()));
    CHECK(float(shown.box.width()) < 1.3f * float(shown.box.height()));
}

namespace {
bool near(const QColor& got, V3 want) {
    const V3 w = glm::clamp(want, 0.0f, 1.0f) * 255.0f;
    return std::abs(got.red() - w.x) <= kTol && std::abs(got.green() - w.y) <= kTol &&
           std::abs(got.blue() - w.z) <= kTol;
}
} // namespace

TEST_CASE("MeshAlphaScroll: fixed-function lit texture, blended, scrolled by UVScrollRate with the timeline",
          "[render][alamo]") {
    QTemporaryDir dir;
    const V4 left(0.8f, 0.5f, 0.3f, 0.9f), right(0.3f, 0.6f, 0.8f, 0.5f), diffuse(0.7f, 0.8f, 0.9f, 0.8f),
        emissive(0.05f, 0.05f, 0.0f, 1);
    writeTga(dir.path() + "/b.tga", left, right);
    auto m = quadModel("MeshAlphaScroll.fx", {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse),
                                              param("Emissive", emissive), param("UVScrollRate", V4(0.1f, 0, 0, 0))});
    Rig g;
    // Direct3D lighting: emissive + ambient x material ambient + sum of diffuse x max(N.L, 0), per vertex, saturated.
    V3 lit = V3(emissive) + V3(diffuse) * g.r.ambient;
    for (const auto* l : {&g.r.sun, &g.r.fill1, &g.r.fill2})
        lit += V3(diffuse) * l->color * std::max(0.0f, glm::dot(kN, l->toward));
    lit = sat(lit);
    auto want = [&](V4 texel) {
        const V4 b = q8(texel);
        const V3 src = glm::min(V3(b) * lit * 2.0f, V3(1.0f));
        const float a = b.a * diffuse.a;
        return src * a + bg() * (1.0f - a);
    };
    // u = 0.25: the left half at t = 0, the right half at t = 5 s (u + 0.5).
    checkPixel(render(m, dir.path(), 0.0f).at(0.25f, 0.5f), want(left), "MeshAlphaScroll t=0");
    checkPixel(render(m, dir.path(), 5.0f).at(0.25f, 0.5f), want(right), "MeshAlphaScroll t=5");
}

TEST_CASE("MeshShield scrolls its base texture by BaseUVScrollRate with the timeline", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 top(0.7f, 0.3f, 0.2f, 1), bottom(0.2f, 0.5f, 0.7f, 1), wave(0.9f, 0.9f, 0.9f, 1), color(1, 1, 1, 1);
    writeTga(dir.path() + "/b.tga", top, bottom, true);
    writeTga(dir.path() + "/w.tga", wave);
    writeTga(dir.path() + "/d.tga", V4(0, 0, 0, 1)); // no distortion
    auto m = quadModel("MeshShield.fx",
                       {tex("BaseTexture", "b.tga"), tex("WaveTexture", "w.tga"), tex("DistortionTexture", "d.tga"),
                        param("Color", color), param("EdgeBrightness", V4(0.5f, 0, 0, 0), rs::ParamType::Float),
                        param("BaseUVScale", V4(1, 0, 0, 0), rs::ParamType::Float),
                        param("BaseUVScrollRate", V4(0.25f, 0, 0, 0), rs::ParamType::Float),
                        param("WaveUVScrollRate", V4(0, 0, 0, 0), rs::ParamType::Float)},
                       true);
    auto want = [&](V4 texel) { return bg() + V3(q8(texel)) * V3(q8(wave)) * 0.5f; };
    // The upper quarter of the quad shows one half of the texture at t = 0 and the other after 2 s (v + 0.5).
    const QColor at0 = render(m, dir.path(), 0.0f).at(0.5f, 0.25f);
    const QColor at2 = render(m, dir.path(), 2.0f).at(0.5f, 0.25f);
    const QColor at4 = render(m, dir.path(), 4.0f).at(0.5f, 0.25f);
    INFO("t=0 " << at0.red() << "," << at0.green() << "," << at0.blue() << "; t=2 " << at2.red() << "," << at2.green()
                << "," << at2.blue());
    const bool topFirst = near(at0, want(top));
    CHECK((topFirst || near(at0, want(bottom))));
    CHECK(near(at2, want(topFirst ? bottom : top)));
    CHECK(near(at4, want(topFirst ? top : bottom))); // a whole turn of the texture later
}

namespace {

// A quad of half-size h in the XZ plane at depth y (the camera looks along +Y), facing the camera.
rs::Mesh quadAt(const char* name, const std::string& shader, std::vector<rs::MaterialParam> params, float y, float h,
                std::optional<V4> vertexColor = {}) {
    rs::Mesh mesh;
    mesh.name = name;
    mesh.baseName = name;
    mesh.bone = 0;
    rs::SubMesh sm;
    sm.material.shader = shader;
    sm.material.params = std::move(params);
    sm.vertexFormat = vertexColor ? "alD3dVertNU2C" : "alD3dVertNU2U3U3";
    sm.positions = {{-h, y, -h}, {h, y, -h}, {h, y, h}, {-h, y, h}};
    sm.normals.assign(4, V3(0, -1, 0));
    sm.tangents.assign(4, V3(1, 0, 0));
    sm.binormals.assign(4, V3(0, 0, 1));
    sm.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    if (vertexColor) sm.colors.assign(4, *vertexColor);
    sm.indices = {0, 1, 2, 0, 2, 3};
    mesh.boundsMin = V3(-h, y, -h);
    mesh.boundsMax = V3(h, y, h);
    mesh.subMeshes.push_back(sm);
    return mesh;
}

// The RSkin form of a quadAt mesh: skinned vertices (model space, bone map {Root}, one bone per vertex).
rs::Mesh skinned(rs::Mesh mesh, const std::string& shader) {
    rs::SubMesh& sm = mesh.subMeshes[0];
    sm.material.shader = shader;
    sm.vertexFormat = sm.colors.empty() ? "alD3dVertRSkinNU2" : "alD3dVertRSkinNU2C";
    sm.boneMap = {0};
    sm.boneIndices.assign(sm.positions.size(), glm::u16vec4(0));
    sm.boneWeights.assign(sm.positions.size(), V4(1, 0, 0, 0));
    return mesh;
}

std::shared_ptr<rs::Model> modelOf(std::vector<rs::Mesh> meshes) {
    rs::Model m;
    m.format = rs::Format::AlamoModel;
    rs::Bone root;
    root.name = "Root";
    m.skeleton.bones.push_back(root);
    m.meshes = std::move(meshes);
    return throughAlo(m);
}

// Column of the middle row where the picture turns from closer-to-a to closer-to-b (scanning left to right
// inside [x0, x1)); -1 when it does not.
int edgeColumn(const QImage& img, int row, int x0, int x1, QColor a, QColor b) {
    auto dist = [](QColor p, QColor q) {
        return std::abs(p.red() - q.red()) + std::abs(p.green() - q.green()) + std::abs(p.blue() - q.blue());
    };
    for (int x = x0; x < x1; ++x) {
        const QColor p = img.pixelColor(x, row);
        if (dist(p, b) < dist(p, a)) return x;
    }
    return -1;
}

} // namespace

TEST_CASE("MeshHeat and RSkinHeat displace the scene behind them by the heat formula, through a copy of the frame",
          "[render][alamo]") {
    // RSkinHeat is routed like MeshHeat (the same implementation, its skinned variant) and drawn on skinned
    // vertices; the displacement, not pixel values, is checked (the engine's distortion pass is not public).
    const std::string shader = GENERATE(std::string("MeshHeat.fx"), std::string("RSkinHeat.fx"));
    INFO(shader);
    const rs::ShaderInfo info = rs::alamoShaderInfo(shader), meshHeat = rs::alamoShaderInfo("MeshHeat.fx");
    CHECK(info.impl == rs::ShaderImpl::AlamoHeat);
    CHECK(info.fidelity == meshHeat.fidelity);
    CHECK(info.skinnedVariant == (shader == "RSkinHeat.fx"));
    QTemporaryDir dir;
    const V4 left(0.9f, 0.2f, 0.1f, 1), right(0.1f, 0.3f, 0.9f, 1);
    writeTga(dir.path() + "/b.tga", left, right);
    writeTga(dir.path() + "/d.tga", V4(0.75f, 0.5f, 0.5f, 1)); // r - 0.5 = +0.25: the picture moves left
    auto make = [&](float alpha) {
        rs::Mesh heat = quadAt("Heat", shader, {tex("DistortionTexture", "d.tga")}, -0.5f, 0.5f, V4(1, 1, 1, alpha));
        if (info.skinnedVariant) heat = skinned(heat, shader);
        auto m = modelOf({quadAt("Back", "MeshAdditive.fx", {tex("BaseTexture", "b.tga")}, 0.5f, 1.0f), heat});
        REQUIRE(m->meshes.size() == 2);
        REQUIRE(m->meshes[1].subMeshes[0].skinned() == info.skinnedVariant);
        return m;
    };
    const Shot still = render(make(0.0f), dir.path()); // vertex alpha 0: no displacement
    const Shot heat = render(make(1.0f), dir.path());
    REQUIRE(still.img.size() == heat.img.size());
    REQUIRE(still.box.width() > 60);
    const QColor a = QColor::fromRgbF(bg().x + q8(left).x, bg().y + q8(left).y, bg().z + q8(left).z);
    const QColor b = QColor::fromRgbF(std::min(1.0f, bg().x + q8(right).x), std::min(1.0f, bg().y + q8(right).y),
                                      std::min(1.0f, bg().z + q8(right).z));
    const int row = still.box.center().y();
    const int e0 = edgeColumn(still.img, row, still.box.left() + 2, still.box.right() - 2, a, b);
    const int e1 = edgeColumn(heat.img, row, still.box.left() + 2, still.box.right() - 2, a, b);
    REQUIRE(e0 > 0);
    REQUIRE(e1 > 0);
    // The split is at the back quad's centre, behind the heat quad, without heat.
    CHECK(std::abs(e0 - still.box.center().x()) <= 4);
    // (r - 0.5) x 2 x alpha x 0.04 of the view's width: each pixel shows the frame that many pixels to its right.
    const float shift = 0.25f * 2.0f * 1.0f * 0.04f * float(heat.img.width());
    INFO("edge without heat " << e0 << ", with heat " << e1 << ", expected shift " << shift);
    CHECK(std::abs(float(e0 - e1) - shift) <= 1.5f);
    // Outside the heat quad nothing moves: the same row left of it is unchanged.
    CHECK(heat.img.pixelColor(still.box.left() + 3, row) == still.img.pixelColor(still.box.left() + 3, row));
}

TEST_CASE("TerrainMeshBump: dot3 sun with the back-side wrap (-0.25 x N.L), fill light", "[render][alamo]") {
    QTemporaryDir dir;
    // A normal-map texel facing away from the sun: N.L < 0, which the .fx turns into -0.25 x N.L.
    const V4 base(0.6f, 0.5f, 0.3f, 0.0f), normal(0.2f, 0.1f, 0.5f, 1.0f), diffuse(0.9f, 0.9f, 0.8f, 1),
        emissive(0.02f, 0.03f, 0.0f, 1);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/n.tga", normal);
    auto m = quadModel("TerrainMeshBump.fx", {tex("BaseTexture", "b.tga"), tex("NormalTexture", "n.tga"),
                                              param("Diffuse", diffuse), param("Emissive", emissive)});
    Rig g;
    const V3 L = g.r.sun.toward;
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    float ndotl = glm::dot(2.0f * (V3(q8(normal)) - 0.5f), lt);
    REQUIRE(ndotl < -0.1f); // the case under test
    ndotl = -0.25f * ndotl;
    const V3 diff = sat(sphFill(g, kN) * V3(diffuse) + V3(emissive));
    const V3 want = V3(q8(base)) * (ndotl * V3(diffuse) * g.r.sun.color + diff) * 2.0f; // + spec x base alpha (0)
    checkPixel(render(m, dir.path()).at(0.5f, 0.5f), want, "TerrainMeshBump");
}

TEST_CASE("TerrainMeshGloss: 2x diffuse + 2x specular x base alpha", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.25f, 0.2f, 0.15f, 0.6f), diffuse(0.5f, 0.5f, 0.5f, 1), specular(0.5f, 0.4f, 0.3f, 1);
    writeTga(dir.path() + "/b.tga", base);
    auto m = quadModel("TerrainMeshGloss.fx",
                       {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Specular", specular)});
    const Shot s = render(m, dir.path());
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    const V3 spec = 0.5f * (sat(V3(specular) * vertexSpecular(g, kCorner0, eye)) +
                            sat(V3(specular) * vertexSpecular(g, kCorner2, eye)));
    const V4 b = q8(base);
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN));
    checkPixel(s.at(0.5f, 0.5f), diff * V3(b) * 2.0f + spec * b.a * 2.0f, "TerrainMeshGloss");
}

TEST_CASE("Nebula: vertex colour x view-angle term, texture scrolled by 3 x UVScrollRate, vertices wobble with time",
          "[render][alamo]") {
    QTemporaryDir dir;
    const V4 left(0.6f, 0.3f, 0.2f, 1), right(0.2f, 0.4f, 0.6f, 1), vc(0.3f, 0.25f, 0.2f, 1);
    writeTga(dir.path() + "/b.tga", left, right);
    auto still = quadModel("Nebula.fx",
                           {tex("BaseTexture", "b.tga"), param("UVScrollRate", V4(1.0f / 6.0f, 0, 0, 0)),
                            param("DistortionScale", V4(0, 0, 0, 0), rs::ParamType::Float)},
                           true, vc);
    // The quad faces the camera: view-space normal z = 1, so the colour is saturate(vc x (1 x 2 + 0.1)).
    const V3 diff = sat(V3(vc) * 2.1f);
    checkPixel(render(still, dir.path(), 0.0f).at(0.25f, 0.5f), bg() + V3(q8(left)) * diff, "Nebula t=0");
    checkPixel(render(still, dir.path(), 1.0f).at(0.25f, 0.5f), bg() + V3(q8(right)) * diff, "Nebula t=1 (u + 0.5)");
    // Wobble: SFreq 0, TFreq 0.25: every vertex moves by DistortionScale x sin(2 x 3.14 x 0.25 t) on each axis:
    // nothing at t = 0, about 0.2 right, 0.2 away and 0.2 up at t = 1.
    auto wobbly = quadModel("Nebula.fx",
                            {tex("BaseTexture", "b.tga"), param("SFreq", V4(0, 0, 0, 0), rs::ParamType::Float),
                             param("TFreq", V4(0.25f, 0, 0, 0), rs::ParamType::Float),
                             param("DistortionScale", V4(0.2f, 0, 0, 0), rs::ParamType::Float)},
                            true, vc);
    const Shot a = render(wobbly, dir.path(), 0.0f), b = render(wobbly, dir.path(), 1.0f);
    const float s = 0.2f * std::sin(2.0f * 3.14f * 0.25f);
    INFO("box at t=0 " << a.box.x() << "," << a.box.y() << " " << a.box.width() << "x" << a.box.height() << "; t=1 "
                       << b.box.x() << "," << b.box.y() << " " << b.box.width() << "x" << b.box.height());
    REQUIRE(a.box.width() > 100);
    // At t = 1 the quad is s farther away: its pixels per world unit are its new width / 2 (the quad is 2 wide; the
    // top may leave the window, the sides and the bottom do not). The view centre (the quad's centre at t = 0) is
    // where world x = 0, z = 0 project at any depth.
    const float ppu1 = float(b.box.width()) / 2.0f;
    const float cx = float(a.box.left() + a.box.right()) / 2.0f, cy = float(a.box.top() + a.box.bottom()) / 2.0f;
    CHECK(std::abs(float(b.box.left() + b.box.right()) / 2.0f - (cx + s * ppu1)) <= 2.0f); // moved right by s
    CHECK(std::abs(float(b.box.bottom()) - (cy + (1.0f - s) * ppu1)) <= 2.0f);             // and up by s
    CHECK(b.box.width() < a.box.width());                                                  // 0.2 farther away
}

TEST_CASE("Tree: 2x lit texture, alpha test at 128/255, bent by BendScale x z^2 along the default wind",
          "[render][alamo]") {
    QTemporaryDir dir;
    const V4 leaf(0.3f, 0.5f, 0.2f, 0.8f), gap(0.3f, 0.5f, 0.2f, 0.4f), diffuse(0.8f, 0.9f, 0.7f, 1);
    writeTga(dir.path() + "/b.tga", leaf, gap); // right half below the alpha reference
    auto make = [&](float bend) {
        return quadModel("Tree.fx",
                         {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Specular", V4(0, 0, 0, 1)),
                          param("BendScale", V4(bend, 0, 0, 0), rs::ParamType::Float)});
    };
    const Shot s = render(make(0.0f), dir.path());
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN));
    checkPixel(s.at(0.25f, 0.5f), diff * V3(q8(leaf)) * 2.0f, "Tree, alpha 0.8 (drawn, no blending)");
    const QColor cut = s.img.pixelColor(s.box.left() + s.box.width() * 3 / 4, s.box.center().y());
    CHECK(near(cut, bg())); // alpha 0.4: discarded
    // BendScale 20: every corner of the quad is at z = +-1, so the whole quad moves 20 x 1 x 0.01 = 0.2 along +X.
    // (The sliver at the right edge is the wrapped texture filter reading the left, opaque texels.)
    const Shot bent = render(make(20.0f), dir.path());
    INFO("box " << s.box.x() << "," << s.box.y() << " " << s.box.width() << "x" << s.box.height() << "; bent "
                << bent.box.x() << "," << bent.box.y() << " " << bent.box.width() << "x" << bent.box.height());
    const float ppu = float(s.box.width()) / 2.0f; // the quad is 2 units wide
    CHECK(std::abs(float(bent.box.left() - s.box.left()) - 0.2f * ppu) <= 1.5f);
    CHECK(std::abs(float(bent.box.right() - s.box.right()) - 0.2f * ppu) <= 1.5f);
    CHECK(bent.box.top() == s.box.top());
}

TEST_CASE("Grass: billboard turned to the camera about its clump centre, colour swaying with the timeline",
          "[render][alamo]") {
    QTemporaryDir dir;
    const V4 left(0.5f, 0.6f, 0.4f, 1), right(0.3f, 0.3f, 0.6f, 1), d0(0.3f, 0.6f, 0.2f, 1), d1(0.6f, 0.4f, 0.1f, 1);
    writeTga(dir.path() + "/b.tga", left, right);
    rs::Mesh mesh = quadAt("Grass", "Grass.fx",
                           {tex("BaseTexture", "b.tga"), param("Diffuse", d0), param("Diffuse1", d1)}, 0.0f, 1.0f);
    mesh.subMeshes[0].vertexFormat = "alD3dVertGrass";
    mesh.subMeshes[0].uv1.assign(4, glm::vec2(0.0f, 1.0f)); // clump centre (0, 0) (V is stored flipped)
    auto m = modelOf({mesh});
    REQUIRE(m->meshes.size() == 1);
    INFO("read: " << m->meshes[0].subMeshes[0].vertexFormat << " uv1 " << m->meshes[0].subMeshes[0].uv1.size()
                  << " positions " << m->meshes[0].subMeshes[0].positions.size() << " hidden " << m->meshes[0].hidden
                  << " shadow " << m->meshes[0].shadowOrCollision);
    Rig g;
    const V3 up(0, 0, 1);
    // anim = 0.5 + 0.5 sin(6.28 frac(0.125 t + (x + y) / 20)) per vertex (no wind: time scale 0.125); the centre
    // pixel is the mean of corners 0 (x = -1) and 2 (x = 1).
    auto colourAt = [&](float t) {
        V3 sum(0.0f);
        for (float x : {-1.0f, 1.0f}) {
            const float ph = 0.125f * t + x / 20.0f;
            const float anim = 0.5f + 0.5f * std::sin(6.28f * (ph - std::floor(ph)));
            sum += sat(sphAll(g, up) * glm::mix(V3(d0), V3(d1), anim));
        }
        return 0.5f * sum;
    };
    // Billboarding: the view looks along +Y, so the quad's +X turns to world -X: the texture's right half shows on
    // the left.
    const Shot s0 = render(m, dir.path(), 0.0f);
    INFO("box " << s0.box.x() << "," << s0.box.y() << " " << s0.box.width() << "x" << s0.box.height());
    checkPixel(s0.at(0.25f, 0.5f), V3(q8(right)) * 2.0f * colourAt(0.0f), "Grass t=0, left of the view");
    const Shot s2 = render(m, dir.path(), 2.0f);
    checkPixel(s2.at(0.25f, 0.5f), V3(q8(right)) * 2.0f * colourAt(2.0f), "Grass t=2, left of the view");
    checkPixel(s2.at(0.75f, 0.5f), V3(q8(left)) * 2.0f * colourAt(2.0f), "Grass t=2, right of the view");
}

TEST_CASE("MeshOccludedUnit, RSkinOccludedUnit: Color blended only where the mesh is behind what is drawn, once "
          "per pixel",
          "[render][alamo]") {
    const std::string shader = GENERATE(std::string("MeshOccludedUnit.fx"), std::string("RSkinOccludedUnit.fx"));
    INFO(shader);
    const bool skin = shader == "RSkinOccludedUnit.fx"; // the ghosts on skinned vertices
    QTemporaryDir dir;
    writeTga(dir.path() + "/w.tga", V4(0.6f, 0.6f, 0.6f, 0.0f));
    auto make = [&](V4 color) {
        rs::Mesh g1 = quadAt("Ghost", shader, {param("Color", color)}, 0.5f, 1.0f),
                 g2 = quadAt("Ghost2", shader, {param("Color", color)}, 0.8f, 1.0f);
        if (skin) g1 = skinned(g1, shader), g2 = skinned(g2, shader);
        auto m = modelOf({quadAt("Front", "MeshGloss.fx", {tex("BaseTexture", "w.tga")}, -0.5f, 0.5f), g1, g2});
        REQUIRE(m->meshes.size() == 3);
        REQUIRE(m->meshes[1].subMeshes[0].skinned() == skin);
        return m;
    };
    const V4 color(0.9f, 0.1f, 0.2f, 0.5f);
    const Shot plain = render(make(V4(V3(color), 0.0f)), dir.path()); // alpha 0: the front quad alone shows
    const Shot ghost = render(make(color), dir.path());
    REQUIRE(plain.box.width() > 60);
    const QPoint centre = plain.box.center();
    const QColor f = plain.img.pixelColor(centre);
    const V3 front(f.redF(), f.greenF(), f.blueF());
    REQUIRE(glm::length(front - bg()) > 0.2f); // the front quad is there
    // Behind the front quad: blended once (two occluded quads overlap there; the stencil lets only one through).
    checkPixel(ghost.img.pixelColor(centre), V3(color) * color.a + front * (1.0f - color.a), "occluded, behind");
    // Beside the front quad nothing is nearer: nothing drawn.
    checkPixel(ghost.img.pixelColor(plain.box.left() - 10, centre.y()), bg(), "not occluded");
}

TEST_CASE("MeshBumpColorize: per-pixel sun specular x Specular, masked by the normal map's alpha (gloss)",
          "[render][alamo]") {
    // bump_spec_colorize_ps_main (sph_t2): + m_light0Specular x Specular x pow(saturate(n.h), 16) x normal alpha, h
    // the tangent-space half vector computed per vertex (normalize(normalize(eye - p) + L) in the (T, B, N) frame),
    // interpolated and not renormalised. The normal-map texel is chosen along the half vector at the centre pixel
    // (the mean of corners 0 and 2: the quad faces the camera), so the highlight peaks there.
    QTemporaryDir dir;
    const V4 base(0.25f, 0.2f, 0.15f, 0.0f), diffuse(0.4f, 0.4f, 0.4f, 1), specular(0.7f, 0.6f, 0.5f, 1);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/flat.tga", V4(0.5f, 0.5f, 1.0f, 0.0f));
    auto make = [&](const char* normalMap) {
        return quadModel("MeshBumpColorize.fx", {tex("BaseTexture", "b.tga"), tex("NormalTexture", normalMap),
                                                 param("Diffuse", diffuse), param("Specular", specular)});
    };
    REQUIRE(render(make("flat.tga"), dir.path()).box.width() > 40); // places the camera: the eye for the texel
    Rig g;
    const V3 eye = eyeOfView(), L = g.r.sun.toward;
    auto tangentHalf = [&](V3 p) {
        const V3 H = glm::normalize(glm::normalize(eye - p) + L);
        return glm::normalize(V3(glm::dot(H, kT), glm::dot(H, kB), glm::dot(H, kN)));
    };
    const V3 h = 0.5f * (tangentHalf(kCorner0) + tangentHalf(kCorner2));
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    const V3 diff = sat(sphFill(g, kN) * V3(diffuse));
    auto want = [&](V4 texel) {
        const V4 nt = q8(texel);
        const V3 n = 2.0f * (V3(nt) - 0.5f);
        const float ndotl = glm::clamp(glm::dot(n, lt), 0.0f, 1.0f);
        const float ndoth = glm::clamp(glm::dot(n, h), 0.0f, 1.0f);
        const V3 lit = V3(q8(base)) * (ndotl * V3(diffuse) * g.r.sun.color + diff) * 2.0f;
        return std::make_pair(lit, g.r.specular * V3(specular) * std::pow(ndoth, 16.0f) * nt.a);
    };
    const V3 toward = 0.5f * glm::normalize(h) + 0.5f;
    for (float gloss : {0.85f, 0.4f, 0.0f}) {
        const V4 texel(toward, gloss);
        const std::string file = "n" + std::to_string(int(gloss * 100)) + ".tga";
        writeTga(dir.path() + "/" + QString::fromStdString(file), texel);
        const auto [lit, spec] = want(texel);
        INFO("gloss " << gloss << ": lit " << lit.x << "," << lit.y << "," << lit.z << " + specular " << spec.x << ","
                      << spec.y << "," << spec.z);
        if (gloss > 0.8f) REQUIRE(spec.x > 0.3f); // a highlight that dominates the pixel
        REQUIRE(glm::all(glm::lessThan(lit + spec, V3(0.97f))));
        checkPixel(render(make(file.c_str()), dir.path()).at(0.5f, 0.5f), lit + spec, "MeshBumpColorize gloss");
    }
}

namespace {
// Pixel of world point p in the last capture (size `size`): the view's camera.
QPoint projectOfView(V3 p, QSize size) {
    Qt3DRender::QCamera* c = view().window()->camera();
    const QVector3D q = c->projectionMatrix().map(c->viewMatrix().map(QVector3D(p.x, p.y, p.z)));
    return {int(std::floor((q.x() * 0.5f + 0.5f) * float(size.width()))),
            int(std::floor((0.5f - q.y() * 0.5f) * float(size.height())))};
}
} // namespace

TEST_CASE("RSkinGloss on skinned vertices: a rotated bone's part lands where the pose puts it, lit by its turned "
          "normal",
          "[render][alamo]") {
    // One RSkin sub-mesh (alD3dVertRSkinNU2, model-space vertices, bone map {Root, Flap}): a quad on Root at the
    // left and a flap quad on Flap (pivot x = 0.5) at the right, both facing -Y. A clip turns Flap about Z by
    // 4 degrees a frame (40 degrees at frame 10). MeshGloss's sph_t0 formula (base alpha 0: no specular):
    // saturate(Diffuse x SPH_LIGHT_ALL(world normal) + Emissive) x base x 2, the normal skinned with the vertex.
    QTemporaryDir dir;
    const V4 base(0.6f, 0.55f, 0.45f, 0.0f), diffuse(0.9f, 0.8f, 0.7f, 1), emissive(0.02f, 0.02f, 0.03f, 1);
    writeTga(dir.path() + "/b.tga", base);
    rs::Model src;
    src.format = rs::Format::AlamoModel;
    rs::Bone root, flap;
    root.name = "Root";
    flap.name = "Flap";
    flap.parent = 0;
    flap.bindLocal = glm::translate(glm::mat4(1.0f), V3(0.5f, 0, 0));
    src.skeleton.bones = {root, flap};
    rs::Mesh mesh;
    mesh.name = mesh.baseName = "Skin";
    mesh.bone = 0;
    rs::SubMesh sm;
    sm.material.shader = "RSkinGloss.fx";
    sm.material.params = {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Emissive", emissive)};
    sm.vertexFormat = "alD3dVertRSkinNU2";
    sm.boneMap = {0, 1};
    for (int part = 0; part < 2; ++part) {
        const float x0 = part == 0 ? -1.75f : 0.5f;
        const uint32_t first = uint32_t(sm.positions.size());
        for (V3 p : {V3(x0, 0, -0.75f), V3(x0 + 1.5f, 0, -0.75f), V3(x0 + 1.5f, 0, 0.75f), V3(x0, 0, 0.75f)}) {
            sm.positions.push_back(p);
            sm.normals.push_back(V3(0, -1, 0));
            sm.boneIndices.push_back(glm::u16vec4(uint16_t(part), 0, 0, 0));
            sm.boneWeights.push_back(V4(1, 0, 0, 0));
        }
        for (glm::vec2 uv : {glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(1, 1), glm::vec2(0, 1)})
            sm.uv0.push_back(uv);
        for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u})
            sm.indices.push_back(first + i);
    }
    mesh.subMeshes.push_back(sm);
    mesh.boundsMin = V3(-1.75f, 0, -0.75f);
    mesh.boundsMax = V3(2.0f, 0, 0.75f);
    src.meshes.push_back(mesh);
    auto m = throughAlo(src);
    REQUIRE(m->meshes.size() == 1);
    REQUIRE(m->meshes[0].subMeshes[0].boneMap.size() == 2);
    REQUIRE(rs::alamoShaderInfo("RSkinGloss.fx").skinnedVariant);
    INFO("read: bones " << m->skeleton.bones.size() << " (" << m->skeleton.bones.back().name << "), bone indices "
                        << m->meshes[0].subMeshes[0].boneIndices.size() << ", format "
                        << m->meshes[0].subMeshes[0].vertexFormat);

    auto clip = std::make_shared<rs::Clip>();
    clip->format = rs::Format::Unknown;
    clip->name = "turn";
    clip->frameCount = 12; // looping: frame 10 (t = 1 s) is a frame of its own, not the wrap to frame 0
    clip->fps = 10.0f;
    rs::BoneTrack track;
    track.bone = 1;
    track.boneName = "Flap";
    track.defaultTranslation = V3(0.5f, 0, 0);
    for (int f = 0; f < 12; ++f)
        track.rotation.push_back(glm::angleAxis(glm::radians(4.0f * float(f)), V3(0, 0, 1)));
    clip->tracks.push_back(track);

    auto shot = [&](float t) {
        ViewOptions o;
        o.grid = false;
        o.dazzles = false;
        o.background = kBg;
        o.lightPreset = 0;
        o.sunAzimuth = 20.0f;
        o.sunElevation = 35.0f;
        auto& v = view();
        v.setOptions(o);
        v.setModel(m, dir.path() + "/quad.alo");
        v.setClip(clip);
        INFO("binding problems: " << v.bindingProblems().join("; ").toStdString());
        CHECK(v.bindingProblems().isEmpty());
        v.setCameraAngles(kYaw, 0.0f);
        v.setTime(t);
        const QImage img = grab();
        REQUIRE(!img.isNull());
        return img;
    };
    Rig g;
    auto lit = [&](V3 n) { return sat(V3(diffuse) * sphAll(g, n) + V3(emissive)) * V3(q8(base)) * 2.0f; };
    const float angle = glm::radians(40.0f);
    const glm::mat3 turn = glm::mat3_cast(glm::angleAxis(angle, V3(0, 0, 1)));
    const V3 pivot(0.5f, 0, 0), flapCentre(1.25f, 0, 0), farEnd(1.95f, 0, 0);
    const V3 turnedCentre = pivot + turn * (flapCentre - pivot), turnedNormal = turn * V3(0, -1, 0);
    REQUIRE(glm::length(lit(turnedNormal) - lit(V3(0, -1, 0))) > 0.05f); // the turn changes the lighting visibly

    const QImage still = shot(0.0f);
    checkPixel(still.pixelColor(projectOfView(V3(-1.0f, 0, 0), still.size())), lit(V3(0, -1, 0)), "Root part, t=0");
    checkPixel(still.pixelColor(projectOfView(flapCentre, still.size())), lit(V3(0, -1, 0)), "Flap part, t=0");
    const QImage turned = shot(1.0f); // frame 10: 40 degrees
    if (qEnvironmentVariableIsSet("RIGSCOPE_TEST_DUMP")) {
        still.save(qEnvironmentVariable("RIGSCOPE_TEST_DUMP") + "/rskin_t0.png");
        turned.save(qEnvironmentVariable("RIGSCOPE_TEST_DUMP") + "/rskin_t1.png");
    }
    checkPixel(turned.pixelColor(projectOfView(V3(-1.0f, 0, 0), turned.size())), lit(V3(0, -1, 0)),
               "Root part, t=1 (not moved)");
    checkPixel(turned.pixelColor(projectOfView(turnedCentre, turned.size())), lit(turnedNormal),
               "Flap part, t=1, at its turned centre");
    // Where the flap's far end was, nothing is drawn any more.
    checkPixel(turned.pixelColor(projectOfView(farEnd, turned.size())), bg(), "the flap's old far end, t=1");
}

// ---- Table: every drawn shader name of the registry against the CPU formula of the .fx it follows ----
namespace {

// One formula family per .fx (the registry's implementation); each renders `shader` on the writer-made quad
// (RSkin names on skinned vertices, see quadModel) and checks the centre (or a scrolled) pixel.
void bumpColorizeCase(const std::string& shader, const QString& dir) {
    const V4 base(0.6f, 0.5f, 0.4f, 0.5f), normal(0.55f, 0.65f, 0.85f, 0.0f);
    writeTga(dir + "/b.tga", base);
    writeTga(dir + "/n.tga", normal);
    const V4 diffuse(0.9f, 0.8f, 0.7f, 1), emissive(0.05f, 0.02f, 0.0f, 1);
    auto m = quadModel(shader, {tex("BaseTexture", "b.tga"), tex("NormalTexture", "n.tga"), param("Diffuse", diffuse),
                                param("Emissive", emissive), param("Colorization", V4(0, 1, 0, 1))});
    Rig g;
    const V4 b = q8(base), nt = q8(normal);
    const V3 surface = glm::mix(V3(b), faction() * V3(b), b.a);
    const V3 L = g.r.sun.toward;
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    const float ndotl = glm::clamp(glm::dot(2.0f * (V3(nt) - 0.5f), lt), 0.0f, 1.0f);
    const V3 diff = sat(sphFill(g, kN) * V3(diffuse) + V3(emissive));
    checkPixel(render(m, dir).at(0.5f, 0.5f), surface * (ndotl * V3(diffuse) * g.r.sun.color + diff) * 2.0f,
               shader.c_str());
}

// MeshGloss (sph_t0) with its specular term: 2x diffuse + per-vertex Blinn x Specular x base alpha.
void glossCase(const std::string& shader, const QString& dir) {
    const V4 base(0.2f, 0.15f, 0.1f, 0.8f), diffuse(0.3f, 0.3f, 0.3f, 1), specular(0.9f, 0.7f, 0.5f, 1);
    writeTga(dir + "/b.tga", base);
    auto m = quadModel(shader, {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Specular", specular)});
    const Shot s = render(m, dir);
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    const V3 spec = 0.5f * (sat(V3(specular) * vertexSpecular(g, kCorner0, eye)) +
                            sat(V3(specular) * vertexSpecular(g, kCorner2, eye)));
    REQUIRE(spec.x > 0.1f);
    const V4 b = q8(base);
    checkPixel(s.at(0.5f, 0.5f), sat(V3(diffuse) * sphAll(g, kN)) * V3(b) * 2.0f + spec * b.a, shader.c_str());
}

void glossColorizeCase(const std::string& shader, const QString& dir) {
    const V4 masked(0.7f, 0.45f, 0.3f, 0.6f), diffuse(0.8f, 0.9f, 1.0f, 1), emissive(0.02f, 0.04f, 0.06f, 1);
    writeTga(dir + "/m.tga", masked);
    writeTga(dir + "/g.tga", V4(0, 0, 0, 1));
    auto m = quadModel(shader, {tex("BaseTexture", "m.tga"), tex("GlossTexture", "g.tga"), param("Diffuse", diffuse),
                                param("Emissive", emissive)});
    Rig g;
    const V4 mb = q8(masked);
    const V3 surface = glm::mix(V3(mb), faction() * V3(mb), mb.a);
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN) + V3(emissive));
    checkPixel(render(m, dir).at(0.5f, 0.5f), surface * diff * 2.0f, shader.c_str()); // + spec x gloss.r (0)
}

void alphaCase(const std::string& shader, const QString& dir) {
    const V4 base(0.9f, 0.6f, 0.2f, 0.7f), diffuse(0.7f, 0.7f, 0.8f, 0.6f);
    writeTga(dir + "/b.tga", base);
    auto m =
        quadModel(shader, {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Specular", V4(0, 0, 0, 1))});
    Rig g;
    const V4 b = q8(base);
    const V3 src = glm::min(V3(b) * sat(V3(diffuse) * sphAll(g, kN)) * 2.0f, V3(1.0f));
    const float a = b.a * diffuse.a;
    checkPixel(render(m, dir).at(0.5f, 0.5f), src * a + bg() * (1.0f - a), shader.c_str());
}

void alphaGlossCase(const std::string& shader, const QString& dir) {
    const V4 base(0.5f, 0.4f, 0.3f, 0.7f), gloss(0.6f, 0.1f, 0.1f, 1), diffuse(0.6f, 0.6f, 0.7f, 0.8f),
        specular(0.8f, 0.8f, 0.6f, 1);
    writeTga(dir + "/b.tga", base);
    writeTga(dir + "/g.tga", gloss);
    auto m = quadModel(shader, {tex("BaseTexture", "b.tga"), tex("GlossTexture", "g.tga"), param("Diffuse", diffuse),
                                param("Specular", specular)});
    const Shot s = render(m, dir);
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    const V3 spec = 0.5f * (sat(V3(specular) * vertexSpecular(g, kCorner0, eye)) +
                            sat(V3(specular) * vertexSpecular(g, kCorner2, eye)));
    const V4 b = q8(base);
    const V3 src = glm::min(sat(V3(diffuse) * sphAll(g, kN)) * V3(b) * 2.0f + spec * q8(gloss).r, V3(1.0f));
    const float a = diffuse.a * b.a;
    checkPixel(s.at(0.5f, 0.5f), src * a + bg() * (1.0f - a), shader.c_str());
}

void additiveCase(const std::string& shader, const QString& dir) {
    const V4 left(0.8f, 0.2f, 0.1f, 1), right(0.1f, 0.3f, 0.9f, 1), color(0.5f, 0.9f, 0.7f, 1);
    writeTga(dir + "/b.tga", left, right);
    auto m = quadModel(shader,
                       {tex("BaseTexture", "b.tga"), param("Color", color), param("UVScrollRate", V4(0.5f, 0, 0, 0))});
    checkPixel(render(m, dir, 0.0f).at(0.25f, 0.5f), bg() + V3(q8(left)) * V3(color), (shader + " t=0").c_str());
    checkPixel(render(m, dir, 1.0f).at(0.25f, 0.5f), bg() + V3(q8(right)) * V3(color), (shader + " t=1").c_str());
}

void additiveVColorCase(const std::string& shader, const QString& dir) {
    const V4 left(0.7f, 0.3f, 0.2f, 1), right(0.2f, 0.4f, 0.8f, 1), vc(0.4f, 0.8f, 0.6f, 1);
    writeTga(dir + "/b.tga", left, right);
    auto m = quadModel(shader, {tex("BaseTexture", "b.tga"), param("UVScrollRate", V4(0.25f, 0, 0, 0))}, true, vc);
    checkPixel(render(m, dir, 0.0f).at(0.25f, 0.5f), bg() + V3(q8(left)) * V3(vc), (shader + " t=0").c_str());
    checkPixel(render(m, dir, 2.0f).at(0.25f, 0.5f), bg() + V3(q8(right)) * V3(vc), (shader + " t=2").c_str());
}

void additiveOffsetCase(const std::string& shader, const QString& dir) {
    const V4 left(0.6f, 0.2f, 0.2f, 1), right(0.1f, 0.5f, 0.3f, 1), color(0.9f, 0.8f, 0.5f, 1);
    writeTga(dir + "/b.tga", left, right);
    auto m =
        quadModel(shader, {tex("BaseTexture", "b.tga"), param("Color", color), param("UVOffset", V4(0.5f, 0, 0, 0))});
    const Shot s = render(m, dir, 3.0f);
    checkPixel(s.at(0.25f, 0.5f), bg() + V3(q8(right)) * V3(color), (shader + " u=0.25").c_str());
    checkPixel(s.at(0.75f, 0.5f), bg() + V3(q8(left)) * V3(color), (shader + " u=0.75").c_str());
}

void bumpReflectCase(const std::string& shader, const QString& dir) {
    const V4 base(0.5f, 0.45f, 0.4f, 0.0f), normal(0.5f, 0.6f, 0.9f, 0.75f), specular(0.6f, 0.7f, 0.8f, 1);
    writeTga(dir + "/b.tga", base);
    writeTga(dir + "/n.tga", normal);
    auto m =
        quadModel(shader, {tex("BaseTexture", "b.tga"), tex("NormalTexture", "n.tga"), param("Specular", specular)});
    const Shot s = render(m, dir);
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    auto refl = [&](V3 p) {
        const V3 v = glm::normalize(eye - p);
        return glm::normalize(-v + 2.0f * glm::dot(v, kN) * kN);
    };
    const V3 sky = sat(sphAll(g, glm::normalize(0.5f * (refl(kCorner0) + refl(kCorner2)))));
    const V4 nt = q8(normal);
    const V3 L = g.r.sun.toward;
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    const float ndotl = glm::clamp(glm::dot(2.0f * (V3(nt) - 0.5f), lt), 0.0f, 1.0f);
    const V3 want = V3(q8(base)) * (ndotl * g.r.sun.color + sat(sphFill(g, kN))) * 2.0f + sky * V3(specular) * nt.a;
    checkPixel(s.at(0.5f, 0.5f), want, shader.c_str());
}

void alphaScrollCase(const std::string& shader, const QString& dir) {
    const V4 left(0.8f, 0.5f, 0.3f, 0.9f), right(0.3f, 0.6f, 0.8f, 0.5f), diffuse(0.7f, 0.8f, 0.9f, 0.8f),
        emissive(0.05f, 0.05f, 0.0f, 1);
    writeTga(dir + "/b.tga", left, right);
    auto m = quadModel(shader, {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Emissive", emissive),
                                param("UVScrollRate", V4(0.1f, 0, 0, 0))});
    Rig g;
    V3 lit = V3(emissive) + V3(diffuse) * g.r.ambient; // Direct3D fixed-function lighting, per vertex
    for (const auto* l : {&g.r.sun, &g.r.fill1, &g.r.fill2})
        lit += V3(diffuse) * l->color * std::max(0.0f, glm::dot(kN, l->toward));
    lit = sat(lit);
    auto want = [&](V4 texel) {
        const V4 b = q8(texel);
        const float a = b.a * diffuse.a;
        return glm::min(V3(b) * lit * 2.0f, V3(1.0f)) * a + bg() * (1.0f - a);
    };
    checkPixel(render(m, dir, 0.0f).at(0.25f, 0.5f), want(left), (shader + " t=0").c_str());
    checkPixel(render(m, dir, 5.0f).at(0.25f, 0.5f), want(right), (shader + " t=5").c_str());
}

using PixelCase = void (*)(const std::string&, const QString&);
struct TableRow {
    const char* shader;
    PixelCase run;
    rs::ShaderImpl impl; // the registry's implementation the name must be routed to
};
const std::vector<TableRow>& pixelTable() {
    using I = rs::ShaderImpl;
    static const std::vector<TableRow> t = {
        {"MeshBumpColorize.fx", bumpColorizeCase, I::AlamoBumpColorize},
        {"RSkinBumpColorize.fx", bumpColorizeCase, I::AlamoBumpColorize},
        {"MeshGloss.fx", glossCase, I::AlamoGloss},
        {"RSkinGloss.fx", glossCase, I::AlamoGloss},
        {"BatchMeshGloss.fx", glossCase, I::AlamoGloss},
        {"MeshGlossColorize.fx", glossColorizeCase, I::AlamoGlossColorize},
        {"RSkinGlossColorize.fx", glossColorizeCase, I::AlamoGlossColorize},
        {"MeshAlpha.fx", alphaCase, I::AlamoAlpha},
        {"RSkinAlpha.fx", alphaCase, I::AlamoAlpha},
        {"BatchMeshAlpha.fx", alphaCase, I::AlamoAlpha},
        {"MeshAlphaGloss.fx", alphaGlossCase, I::AlamoAlphaGloss},
        {"RSkinAlphaGloss.fx", alphaGlossCase, I::AlamoAlphaGloss},
        {"MeshAdditive.fx", additiveCase, I::AlamoAdditive},
        {"RSkinAdditive.fx", additiveCase, I::AlamoAdditive},
        {"MeshAdditiveVColor.fx", additiveVColorCase, I::AlamoAdditiveVColor},
        {"RSkinAdditiveVColor.fx", additiveVColorCase, I::AlamoAdditiveVColor},
        {"MeshAdditiveOffset.fx", additiveOffsetCase, I::AlamoAdditiveOffset},
        {"RSkinAdditiveOffset.fx", additiveOffsetCase, I::AlamoAdditiveOffset},
        {"MeshBumpReflectColorize.fx", bumpReflectCase, I::AlamoBumpReflectColorize},
        {"RSkinBumpReflectColorize.fx", bumpReflectCase, I::AlamoBumpReflectColorize},
        {"MeshAlphaScroll.fx", alphaScrollCase, I::AlamoAlphaScroll},
        {"RSkinAlphaScroll.fx", alphaScrollCase, I::AlamoAlphaScroll},
    };
    return t;
}
// Drawn names whose pixel test is a TEST_CASE of its own in this file (their set-up is not a single quad, or they
// check more than one formula).
const std::vector<std::string>& ownPixelCases() {
    static const std::vector<std::string> n = {
        "MeshSolidColor.fx", "MeshShield.fx", "TerrainMeshBump.fx",  "TerrainMeshGloss.fx",
        "Grass.fx",          "Tree.fx",       "Nebula.fx",           "Skydome.fx",
        "Planet.fx",         "alDefault.fx",  "MeshOccludedUnit.fx", "RSkinOccludedUnit.fx",
        "MeshHeat.fx",       "RSkinHeat.fx"};
    return n;
}

} // namespace

TEST_CASE("table: each Mesh RSkin and BatchMesh name of a .fx family against that .fx's CPU formula",
          "[render][alamo]") {
    for (const TableRow& row : pixelTable()) {
        DYNAMIC_SECTION(row.shader) {
            const rs::ShaderInfo info = rs::alamoShaderInfo(row.shader);
            CHECK(info.impl == row.impl);
            CHECK(info.fidelity == rs::ShaderFidelity::EngineFormula);
            QTemporaryDir dir;
            row.run(row.shader, dir.path());
        }
    }
}

TEST_CASE("every drawn Alamo shader name of the registry has a pixel test", "[render][alamo]") {
    std::vector<std::string> tested = ownPixelCases();
    for (const TableRow& row : pixelTable())
        tested.push_back(row.shader);
    REQUIRE(rs::alamoShaderNames().size() > 30);
    for (const std::string& name : rs::alamoShaderNames()) {
        INFO(name);
        const rs::ShaderInfo info = rs::alamoShaderInfo(name);
        CHECK(info.impl != rs::ShaderImpl::Generic); // the list names only what the registry implements
        if (info.fidelity == rs::ShaderFidelity::NotDrawn) continue;
        CHECK(std::find(tested.begin(), tested.end(), name) != tested.end());
    }
    // And no pixel case names a shader the registry does not list.
    for (const std::string& name : tested) {
        INFO(name);
        CHECK(std::find(rs::alamoShaderNames().begin(), rs::alamoShaderNames().end(), name) !=
              rs::alamoShaderNames().end());
    }
}

TEST_CASE("Space light preset and a turned sun: the documented preset values through the .fx formulas",
          "[render][alamo]") {
    // The rig is built here from the values render/lights.h documents, not from alamoLightRig: the sun at a compass
    // angle (0 = the light stands on -Y, 90 = on +X) and an elevation, Z up; fills at 210 and 120 degrees, 10
    // degrees below the horizon. Land: sun white x 0.5, fills (0.25, 0.25, 0.5) x 0.5, ambient 0.1. Space: sun
    // (1, 0.97, 0.92) x 0.7, fills (0.2, 0.22, 0.35) x 0.5, ambient 0.05.
    auto toward = [](float az, float el) {
        const float a = glm::radians(az), e = glm::radians(el);
        return V3(std::sin(a) * std::cos(e), -std::cos(a) * std::cos(e), std::sin(e));
    };
    struct CpuRig {
        rs::render::AlamoLight sun, fill1, fill2;
        V3 ambient;
    };
    auto rigOf = [&](Lighting l) {
        CpuRig r;
        r.sun.toward = toward(l.azimuth, l.elevation);
        r.fill1.toward = toward(210.0f, -10.0f);
        r.fill2.toward = toward(120.0f, -10.0f);
        const bool space = l.preset == 1;
        r.sun.color = space ? V3(1.0f, 0.97f, 0.92f) * 0.7f : V3(0.5f);
        r.fill1.color = r.fill2.color = space ? V3(0.2f, 0.22f, 0.35f) * 0.5f : V3(0.25f, 0.25f, 0.5f) * 0.5f;
        r.ambient = V3(space ? 0.05f : 0.1f);
        return r;
    };
    QTemporaryDir dir;
    const V4 base(0.6f, 0.55f, 0.45f, 0.0f), cbase(0.6f, 0.5f, 0.4f, 0.0f), normal(0.55f, 0.65f, 0.85f, 0.0f),
        diffuse(0.9f, 0.8f, 0.7f, 1), emissive(0.02f, 0.02f, 0.03f, 1);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/c.tga", cbase);
    writeTga(dir.path() + "/n.tga", normal);
    auto gloss = quadModel("MeshGloss.fx",
                           {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse), param("Emissive", emissive)});
    auto bump = quadModel("MeshBumpColorize.fx", {tex("BaseTexture", "c.tga"), tex("NormalTexture", "n.tga"),
                                                  param("Diffuse", diffuse), param("Emissive", emissive)});
    // MeshAlphaScroll's fixed-function technique reads the lights themselves (not the SH matrices): opaque texel.
    const V4 ffBase(0.5f, 0.45f, 0.4f, 1.0f);
    writeTga(dir.path() + "/f.tga", ffBase);
    auto fixedFunction = quadModel(
        "MeshAlphaScroll.fx", {tex("BaseTexture", "f.tga"), param("Diffuse", diffuse), param("Emissive", emissive)});
    auto fixedWant = [&](const CpuRig& r) {
        V3 lit = V3(emissive) + V3(diffuse) * r.ambient;
        for (const auto* l : {&r.sun, &r.fill1, &r.fill2})
            lit += V3(diffuse) * l->color * std::max(0.0f, glm::dot(kN, l->toward));
        return glm::min(V3(q8(ffBase)) * sat(lit) * 2.0f, V3(1.0f));
    };
    auto glossWant = [&](const CpuRig& r) {
        const V3 e = shIrradiance({r.sun, r.fill1, r.fill2}, r.ambient, kN);
        return sat(V3(diffuse) * e + V3(emissive)) * V3(q8(base)) * 2.0f;
    };
    auto bumpWant = [&](const CpuRig& r) {
        const V3 L = r.sun.toward;
        const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
        const float ndotl = glm::clamp(glm::dot(2.0f * (V3(q8(normal)) - 0.5f), lt), 0.0f, 1.0f);
        const V3 fill = sat(shIrradiance({r.fill1, r.fill2}, r.ambient, kN) * V3(diffuse) + V3(emissive));
        return V3(q8(cbase)) * (ndotl * V3(diffuse) * r.sun.color + fill) * 2.0f;
    };
    const Lighting landDefault{0, 20.0f, 35.0f}, spaceDefault{1, 20.0f, 35.0f}, spaceTurned{1, 320.0f, 15.0f},
        landTurned{0, 320.0f, 15.0f};
    // The cases differ visibly from each other (more than twice the tolerance on some channel).
    auto apart = [](V3 a, V3 b) {
        const V3 d = glm::abs(a - b) * 255.0f;
        return std::max({d.x, d.y, d.z}) > 2.0f * float(kTol);
    };
    REQUIRE(apart(glossWant(rigOf(landDefault)), glossWant(rigOf(spaceDefault))));
    REQUIRE(apart(bumpWant(rigOf(spaceDefault)), bumpWant(rigOf(spaceTurned))));
    REQUIRE(apart(bumpWant(rigOf(landDefault)), bumpWant(rigOf(landTurned))));
    REQUIRE(apart(fixedWant(rigOf(landDefault)), fixedWant(rigOf(spaceDefault))));
    for (const Lighting& l : {landDefault, spaceDefault, spaceTurned, landTurned}) {
        INFO("preset " << l.preset << ", sun at " << l.azimuth << ", " << l.elevation);
        const CpuRig r = rigOf(l);
        checkPixel(render(gloss, dir.path(), 0.0f, {}, l).at(0.5f, 0.5f), glossWant(r), "MeshGloss (SPH_LIGHT_ALL)");
        checkPixel(render(bump, dir.path(), 0.0f, {}, l).at(0.5f, 0.5f), bumpWant(r),
                   "MeshBumpColorize (per-pixel sun, SPH_LIGHT_FILL)");
        checkPixel(render(fixedFunction, dir.path(), 0.0f, {}, l).at(0.5f, 0.5f), fixedWant(r),
                   "MeshAlphaScroll (fixed-function lights)");
    }
}

namespace {

// Planet.fx (bump_spec), its terms on the quad: the atmosphere (per vertex pow(1 - N.V, AtmospherePower) x 2 x
// Atmosphere.a, adding Atmosphere.rgb x that to the base), the city lights (per vertex saturate(N . -32 L): the
// night side; + base alpha x that x (1 - cloud alpha) x CityColor), the clouds (CloudTexture and
// CloudNormalTexture at UV + (time x CloudScrollRate, 0)) over it. Diffuse 1, Emissive 0, normal-map alpha 0 (no
// specular). `eye`: for the atmosphere's view vector (per vertex at corners 0 and 2, the centre their mean).
struct PlanetInputs {
    V4 base, normal, cloud, atmosphere{0, 0, 0, 1}, city{1, 1, 1, 1};
    float atmospherePower = 4.5f;
};
V3 planetFormula(const PlanetInputs& in, const rs::render::AlamoLightRig& r, V3 eye) {
    const V3 L = r.sun.toward;
    const V3 lt = glm::normalize(V3(glm::dot(L, kT), glm::dot(L, kB), glm::dot(L, kN)));
    const V3 diff = sat(shIrradiance({r.fill1, r.fill2}, r.ambient, kN));
    float atm = 0.0f;
    for (V3 p : {kCorner0, kCorner2})
        atm += 0.5f * std::pow(std::max(1.0f - glm::dot(kN, glm::normalize(eye - p)), 0.0f), in.atmospherePower) *
               2.0f * in.atmosphere.a;
    const float cityLight = glm::clamp(glm::dot(kN, -32.0f * L), 0.0f, 1.0f);
    const V4 b = q8(in.base), c = q8(in.cloud);
    const float ndotl = glm::clamp(glm::dot(2.0f * (V3(q8(in.normal)) - 0.5f), lt), 0.0f, 1.0f);
    const float cloudNdotl = glm::clamp(glm::dot(V3(0, 0, 1), lt), 0.0f, 1.0f); // flat cloud normal map
    const V3 surface = V3(b) + V3(in.atmosphere) * atm;
    V3 planet = surface * (ndotl * r.sun.color + diff) * 2.0f;
    planet += b.a * cityLight * (1.0f - c.a) * V3(in.city);
    const V3 cloudLit = (V3(c) * cloudNdotl * r.sun.color + diff) * 2.0f;
    return glm::mix(planet, cloudLit, c.a);
}

std::shared_ptr<rs::Model> planetModel(const QString& dir, const PlanetInputs& in, float cloudScrollRate,
                                       std::optional<V4> cloudRight = {}) {
    writeTga(dir + "/pb.tga", in.base);
    writeTga(dir + "/pn.tga", in.normal);
    writeTga(dir + "/pc.tga", in.cloud, cloudRight);
    writeTga(dir + "/pcn.tga", V4(0.5f, 0.5f, 1.0f, 1));
    return quadModel("Planet.fx",
                     {tex("BaseTexture", "pb.tga"), tex("NormalTexture", "pn.tga"), tex("CloudTexture", "pc.tga"),
                      tex("CloudNormalTexture", "pcn.tga"), param("Atmosphere", in.atmosphere),
                      param("AtmospherePower", V4(in.atmospherePower, 0, 0, 0), rs::ParamType::Float),
                      param("CityColor", in.city),
                      param("CloudScrollRate", V4(cloudScrollRate, 0, 0, 0), rs::ParamType::Float)});
}

} // namespace

TEST_CASE("Planet: the atmosphere rim term, per vertex from the view angle", "[render][alamo]") {
    QTemporaryDir dir;
    PlanetInputs in;
    in.base = V4(0.2f, 0.25f, 0.2f, 0.0f);
    in.normal = V4(0.5f, 0.6f, 0.9f, 0.0f);
    in.cloud = V4(1, 1, 1, 0.0f); // no clouds
    in.atmosphere = V4(0.3f, 0.45f, 0.9f, 0.8f);
    in.atmospherePower = 0.5f; // a quad facing the camera has N.V near 1: a low power makes the rim term visible
    const Shot s = render(planetModel(dir.path(), in, 0.0f), dir.path());
    REQUIRE(s.box.width() > 40);
    Rig g;
    const V3 eye = eyeOfView();
    const V3 want = planetFormula(in, g.r, eye);
    PlanetInputs none = in;
    none.atmosphere.a = 0.0f;
    INFO("without the atmosphere " << planetFormula(none, g.r, eye).x * 255 << "; with " << want.x * 255);
    REQUIRE(glm::length(want - planetFormula(none, g.r, eye)) * 255.0f > 3.0f * float(kTol)); // visible
    REQUIRE(glm::all(glm::lessThan(want, V3(0.97f))));
    checkPixel(s.at(0.5f, 0.5f), want, "Planet atmosphere");
}

TEST_CASE("Planet: city lights on the night side (sun behind), under the clouds' alpha", "[render][alamo]") {
    QTemporaryDir dir;
    PlanetInputs in;
    in.base = V4(0.15f, 0.2f, 0.25f, 0.8f); // base alpha: the city-light mask
    in.normal = V4(0.5f, 0.6f, 0.9f, 0.0f);
    in.cloud = V4(0.9f, 0.9f, 0.9f, 0.3f);
    in.city = V4(0.9f, 0.6f, 0.2f, 1);
    auto m = planetModel(dir.path(), in, 0.0f);
    // Day: the sun in front of the quad (N.L > 0): no city lights.
    const Lighting day{0, 20.0f, 35.0f}, night{0, 180.0f, 35.0f};
    const auto dayRig = rs::render::alamoLightRig(rs::render::LightPreset::Land, 20.0f, 35.0f);
    const auto nightRig = rs::render::alamoLightRig(rs::render::LightPreset::Land, 180.0f, 35.0f);
    REQUIRE(glm::dot(kN, nightRig.sun.toward) < -0.1f); // the sun is behind the quad
    const Shot d = render(m, dir.path(), 0.0f, {}, day);
    checkPixel(d.at(0.5f, 0.5f), planetFormula(in, dayRig, eyeOfView()), "Planet day side");
    const Shot n = render(m, dir.path(), 0.0f, {}, night);
    const V3 want = planetFormula(in, nightRig, eyeOfView());
    PlanetInputs dark = in;
    dark.base.a = 0.0f;
    REQUIRE(glm::length(want - planetFormula(dark, nightRig, eyeOfView())) > 0.3f); // the city term is visible
    checkPixel(n.at(0.5f, 0.5f), want, "Planet night side, city lights");
}

TEST_CASE("Planet and Skydome: clouds scrolled by CloudScrollRate with the timeline", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 cloudLeft(0.9f, 0.9f, 0.9f, 0.6f), cloudRight(0.3f, 0.4f, 0.8f, 0.2f);
    Rig g;
    {
        PlanetInputs in;
        in.base = V4(0.2f, 0.5f, 0.3f, 0.0f);
        in.normal = V4(0.5f, 0.6f, 0.9f, 0.0f);
        in.cloud = cloudLeft;
        auto m = planetModel(dir.path(), in, 0.25f, cloudRight);
        // u = 0.25: the left half of the cloud texture at t = 0, the right half at t = 2 s (u + 0.5).
        const Shot s0 = render(m, dir.path(), 0.0f);
        checkPixel(s0.at(0.25f, 0.5f), planetFormula(in, g.r, eyeOfView()), "Planet clouds t=0");
        const Shot s2 = render(m, dir.path(), 2.0f);
        in.cloud = cloudRight;
        checkPixel(s2.at(0.25f, 0.5f), planetFormula(in, g.r, eyeOfView()), "Planet clouds t=2");
    }
    {
        // Skydome (sph_t0): (tex + (time x CloudScrollRate, 0)) x CloudScale; base under the cloud by its alpha,
        // x 2 x saturate(SPH_LIGHT_ALL(-N) x vertex colour).
        const V4 base(0.3f, 0.5f, 0.8f, 1);
        writeTga(dir.path() + "/sb.tga", base);
        writeTga(dir.path() + "/sc.tga", cloudLeft, cloudRight);
        auto m = quadModel("Skydome.fx",
                           {tex("BaseTexture", "sb.tga"), tex("CloudTexture", "sc.tga"),
                            param("CloudScrollRate", V4(0.25f, 0, 0, 0), rs::ParamType::Float),
                            param("CloudScale", V4(1, 0, 0, 0), rs::ParamType::Float)},
                           true);
        const V3 diff = sat(sphAll(g, -kN));
        auto want = [&](V4 cloud) {
            const V4 c = q8(cloud);
            return glm::mix(V3(q8(base)), V3(c), c.a) * diff * 2.0f;
        };
        checkPixel(render(m, dir.path(), 0.0f).at(0.25f, 0.5f), want(cloudLeft), "Skydome clouds t=0");
        checkPixel(render(m, dir.path(), 2.0f).at(0.25f, 0.5f), want(cloudRight), "Skydome clouds t=2");
    }
}

TEST_CASE("a missing base texture draws the neutral grey of the stand-in, not white, in the 2x formulas",
          "[render][alamo]") {
    // README: a texture that is not found is drawn in a neutral grey (TextureCache::checkerColor). The .fx formulas
    // double the texture (texture x lighting x 2), so the stand-in there is half that grey: the pixel is the grey x
    // the lighting, as in every other formula, instead of twice it (white under a bright light; issue 38).
    QTemporaryDir dir; // holds no texture: missing_base.tga is not found
    const V4 diffuse(1, 1, 1, 1);
    Rig g;
    const V3 diff = sat(V3(diffuse) * sphAll(g, kN));
    const V3 grey(168.0f / 255.0f); // 0xA8
    for (const char* shader : {"MeshGloss.fx", "alDefault.fx", "MeshAlpha.fx", "MeshGlossColorize.fx"}) {
        auto m = quadModel(shader, {tex("BaseTexture", "missing_base.tga"), param("Diffuse", diffuse),
                                    param("Specular", V4(0, 0, 0, 1))});
        const QColor c = render(m, dir.path()).at(0.5f, 0.5f);
        checkPixel(c, grey * diff, shader);
        CHECK(std::max({c.red(), c.green(), c.blue()}) < 200); // not the white of 2x the grey
        CHECK(std::abs(c.red() - c.blue()) <= kTol);           // grey: no colorization of the stand-in
    }
}
