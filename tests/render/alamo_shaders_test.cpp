// The Alamo .fx implementations against the formulas of the game's shader sources, evaluated on the CPU here
// (independent of the GLSL): a writer-made model with one quad per case (the shader, chosen parameters and solid
// textures written beside it), the land light preset with the sun at a chosen angle, the centre of the quad
// sampled. The light rig's inputs (directions, colours) come from render/lights.h; the spherical-harmonic
// irradiance is projected here on its own.
//
// The quad faces the camera and has a flat normal, so the engine's per-vertex terms are the same at every pixel.
// Specular terms are switched off (normal-map or base alpha 0, Specular 0): they depend on the eye position.
// Tolerance: 4/255 per channel (8-bit framebuffer and texture quantisation).
#include "render_harness.h"

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "formats/shader_registry.h"
#include "lights.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

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

// A solid 8x8 TGA (uncompressed 32-bit BGRA). `right`: a second colour for the right half (u >= 0.5).
void writeTga(const QString& path, V4 rgba, std::optional<V4> right = {}) {
    QByteArray b(18, '\0');
    b[2] = 2;
    b[12] = 8;
    b[14] = 8;
    b[16] = 32;
    b[17] = 8 | 0x20; // 8 alpha bits, top-left origin
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const V4 c = (right && x >= 4) ? *right : rgba;
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

// A 2x2 quad in the XZ plane facing -Y (towards the camera at yaw 0), tangent +X, binormal +Z.
std::shared_ptr<rs::Model> quadModel(const std::string& shader, std::vector<rs::MaterialParam> params,
                                     bool colors = false) {
    rs::Model m;
    m.format = rs::Format::AlamoModel;
    rs::Bone root;
    root.name = "Root";
    m.skeleton.bones.push_back(root);
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
    if (colors) sm.colors.assign(4, V4(1.0f));
    sm.indices = {0, 1, 2, 0, 2, 3};
    mesh.boundsMin = V3(-1, 0, -1);
    mesh.boundsMax = V3(1, 0, 1);
    mesh.subMeshes.push_back(sm);
    m.meshes.push_back(mesh);
    // Through the project's writer and reader: the model the view draws is a real .alo.
    const std::vector<uint8_t> bytes = rs::alamo::writeModel(m);
    return std::make_shared<rs::Model>(rs::alamo::readModel(rs::ByteSpan(bytes.data(), bytes.size()), "quad.alo"));
}

struct Shot {
    QImage img;
    QRect box;
    QColor at(float u, float v) const { // u, v in 0..1 across the quad's box (v down)
        return img.pixelColor(box.left() + int(u * float(box.width() - 1)), box.top() + int(v * float(box.height() - 1)));
    }
};

Shot render(std::shared_ptr<rs::Model> m, const QString& dir, float time = 0.0f, ViewOptions o = {}) {
    o.grid = false;
    o.dazzles = false;
    o.background = kBg;
    o.lightPreset = 0;
    o.sunAzimuth = 20.0f;
    o.sunElevation = 35.0f;
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
    const float pi = 3.14159265f, A[9] = {pi, 2 * pi / 3, 2 * pi / 3, 2 * pi / 3, pi / 4, pi / 4, pi / 4, pi / 4, pi / 4};
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
    for (const char* s : {"MeshBumpColorize.fx", "RSkinBumpColorize.fx", "MeshGloss.fx", "RSkinGloss.fx",
                          "MeshGlossColorize.fx", "RSkinGlossColorize.fx", "MeshAlpha.fx", "RSkinAlpha.fx",
                          "MeshAdditive.fx", "MeshShield.fx", "Skydome.fx", "Planet.fx"})
        CHECK(rs::alamoShaderInfo(s).fidelity == rs::ShaderFidelity::EngineFormula);
    for (const char* s : {"MeshShadowVolume.fx", "RSkinShadowVolume.fx", "MeshCollision.fx"})
        CHECK(rs::alamoShaderInfo(s).fidelity == rs::ShaderFidelity::NotDrawn);
}

TEST_CASE("MeshBumpColorize: colorized base, dot3 sun, SH fill light", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.6f, 0.5f, 0.4f, 0.5f), normal(0.55f, 0.65f, 0.85f, 0.0f);
    writeTga(dir.path() + "/b.tga", base);
    writeTga(dir.path() + "/n.tga", normal);
    const V4 diffuse(0.9f, 0.8f, 0.7f, 1), emissive(0.05f, 0.02f, 0.0f, 1);
    auto m = quadModel("MeshBumpColorize.fx", {tex("BaseTexture", "b.tga"), tex("NormalTexture", "n.tga"),
                                               param("Diffuse", diffuse), param("Emissive", emissive),
                                               param("Colorization", V4(0, 1, 0, 1))});
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
        auto m = quadModel("MeshGloss.fx", {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse),
                                            param("Emissive", emissive)});
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), diff * V3(q8(base)) * 2.0f, "MeshGloss");
    }
    {
        auto m = quadModel("alDefault.fx", {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse),
                                            param("Emissive", emissive)});
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), diff * V3(q8(base)) * 2.0f, "alDefault");
    }
    const V4 mb = q8(masked);
    const V3 surface = glm::mix(V3(mb), faction() * V3(mb), mb.a);
    for (const char* shader : {"MeshGlossColorize.fx", "RSkinGlossColorize.fx"}) {
        auto m = quadModel(shader, {tex("BaseTexture", "m.tga"), tex("GlossTexture", "g.tga"), param("Diffuse", diffuse),
                                    param("Emissive", emissive)});
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), surface * diff * 2.0f, shader); // + spec * gloss.r (0)
    }
}

TEST_CASE("MeshAlpha blends 2x lit texture by texture alpha x Diffuse alpha", "[render][alamo]") {
    QTemporaryDir dir;
    const V4 base(0.9f, 0.6f, 0.2f, 0.7f), diffuse(0.7f, 0.7f, 0.8f, 0.6f);
    writeTga(dir.path() + "/b.tga", base);
    auto m = quadModel("MeshAlpha.fx", {tex("BaseTexture", "b.tga"), param("Diffuse", diffuse),
                                        param("Specular", V4(0, 0, 0, 1))});
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
    auto m = quadModel("MeshAdditive.fx", {tex("BaseTexture", "b.tga"), param("Color", color),
                                           param("UVScrollRate", V4(0.5f, 0, 0, 0))});
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
