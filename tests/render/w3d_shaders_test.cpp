// W3D passes against ww3d2's formulas evaluated on the CPU here (independent of the GLSL): a writer-made .w3d quad
// per case (shader bits, vertex material, mapper arguments, DCG/DIG, solid or gridded textures written beside
// it), rendered through the view, pixels sampled and compared with Direct3D 8's fixed-function result as
// ww3d2 configures it (shader.cpp ShaderClass::Apply, mapper.cpp, meshmatdesc.cpp).
//
// Most cases light nothing: an emissive-only vertex material (diffuse and ambient black) makes the lit colour the
// emissive colour whatever the scene's lights, so the blend, stage and mapper formulas are checked alone. One case
// checks the lighting with the view's default light rig (render/lights.cpp) recomputed here.
// Tolerance: 4/255 per channel (8-bit framebuffer and texture quantisation); mapper cases sample only points whose
// mapped coordinates lie at least 0.05 from a cell edge of the 3x3 test grid, or, with the flipbook ramp texture of
// the grid-environment cases, more than a texel from a frame's edge. The mapper formulas are Zero Hour's ww3d2
// (GeneralsMD mapper.cpp: grid Offset/Last, the world-space mappers' Axis, Random's scale, LinearOffset's
// UOffset/VOffset/ClampFix), which the view follows; time-independent mappers (the environment ones) are checked at
// two camera orientations and stored normals instead of two times.
#include "render_harness.h"

#include "formats/shader_registry.h"
#include "lights.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_mapper.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"

#include <QFile>
#include <QTemporaryDir>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <catch2/catch.hpp>

#include <glm/gtc/type_ptr.hpp>

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

// A w x h TGA (32-bit BGRA, top-left origin: row 0 is engine v = 0) coloured by f(u, v) at texel centres.
void writeTga(const QString& path, int w, int h, const std::function<V4(float, float)>& f) {
    QByteArray b(18, '\0');
    b[2] = 2;
    b[12] = char(w & 255);
    b[13] = char(w >> 8);
    b[14] = char(h & 255);
    b[15] = char(h >> 8);
    b[16] = 32;
    b[17] = 8 | 0x20;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const V4 c = f((x + 0.5f) / float(w), (y + 0.5f) / float(h));
            for (int k : {2, 1, 0, 3})
                b.append(char(int(std::lround(glm::clamp(c[k], 0.0f, 1.0f) * 255.0f))));
        }
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(b);
}
void solidTga(const QString& path, V4 c) {
    writeTga(path, 4, 4, [c](float, float) { return c; });
}
V4 q8(V4 c) { return glm::round(glm::clamp(c, 0.0f, 1.0f) * 255.0f) / 255.0f; }

// 3x3 grid of distinct colours (cell (i, j) = column i of u, row j of engine v), 48x48 texels.
V4 gridColor(int i, int j) {
    static const V4 c[9] = {{0.9f, 0.1f, 0.1f, 1}, {0.1f, 0.9f, 0.1f, 1}, {0.1f, 0.1f, 0.9f, 1},
                            {0.9f, 0.9f, 0.1f, 1}, {0.1f, 0.9f, 0.9f, 1}, {0.9f, 0.1f, 0.9f, 1},
                            {0.5f, 0.5f, 0.5f, 1}, {0.9f, 0.6f, 0.2f, 1}, {0.2f, 0.4f, 0.7f, 1}};
    return c[((j % 3 + 3) % 3) * 3 + ((i % 3 + 3) % 3)];
}
void gridTga(const QString& path) {
    writeTga(path, 48, 48, [](float u, float v) { return gridColor(int(u * 3), int(v * 3)); });
}
// Colour of the grid at engine (u, v) (wrapping); nullopt-like flag when within `margin` of a cell edge.
bool gridAt(V2 e, V4& out, float margin = 0.05f) {
    const V2 w = e - glm::floor(e);
    const V2 cell = w * 3.0f;
    const V2 fr = cell - glm::floor(cell);
    if (fr.x < margin * 3 || fr.x > 1 - margin * 3 || fr.y < margin * 3 || fr.y > 1 - margin * 3) return false;
    out = gridColor(int(cell.x), int(cell.y));
    return true;
}

struct PassSpec {
    rs::w3d::Shader shader;
    rs::w3d::VertexMaterial vmat;
    std::string tex0, tex1;
    std::vector<glm::u8vec4> dcg, dig;
    bool stage1Uv = false; // stage 1 has its own UVs (the quad's UVs * 2)
};

rs::w3d::VertexMaterial emissiveMaterial(V3 e, float opacity = 1.0f) {
    rs::w3d::VertexMaterial vm;
    vm.name = "m";
    vm.ambient = {0, 0, 0, 0};
    vm.diffuse = {0, 0, 0, 0};
    vm.emissive = glm::u8vec4(glm::round(e * 255.0f), 0);
    vm.opacity = opacity;
    return vm;
}
V3 e8(V3 e) { return glm::round(e * 255.0f) / 255.0f; }

rs::w3d::Shader shader(int src, int dst, bool texturing = false) {
    rs::w3d::Shader s;
    s.srcBlend = uint8_t(src);
    s.destBlend = uint8_t(dst);
    s.texturing = texturing ? 1 : 0;
    s.depthMask = dst == 0 ? 1 : 0;
    return s;
}

// A 2x2 quad in the XZ plane facing -Y (the camera at yaw 180), UVs (0,0)..(1,1) in engine convention with u along
// +X and engine v along -Z (v = 0 at the top of the screen).
std::shared_ptr<rs::Model> quadModel(const std::vector<PassSpec>& passes, const QString& dir,
                                     V3 normal = V3(0, -1, 0)) {
    rs::w3d::RawMesh m;
    m.name = "QUAD";
    m.attributes = 0x00002000u; // two-sided: what the test sees does not depend on the winding
    m.positions = {{-1, 0, 1}, {1, 0, 1}, {1, 0, -1}, {-1, 0, -1}};
    m.normals.assign(4, glm::normalize(normal)); // the stored normal (texgen input), not necessarily the face's
    m.indices = {0, 1, 2, 0, 2, 3};
    m.boundsMin = {-1, 0, -1};
    m.boundsMax = {1, 0, 1};
    const std::vector<V2> engineUv = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (const PassSpec& ps : passes) {
        rs::w3d::MaterialPass p;
        p.vertexMaterialIds = {uint32_t(m.vertexMaterials.size())};
        m.vertexMaterials.push_back(ps.vmat);
        p.shaderIds = {uint32_t(m.shaders.size())};
        m.shaders.push_back(ps.shader);
        p.dcg = ps.dcg;
        p.dig = ps.dig;
        for (int st = 0; st < 2; ++st) {
            const std::string& t = st == 0 ? ps.tex0 : ps.tex1;
            if (t.empty()) continue;
            rs::w3d::TextureStage s;
            rs::w3d::TextureRef ref;
            ref.name = t;
            s.textureIds = {uint32_t(m.textures.size())};
            m.textures.push_back(ref);
            if (st == 0 || ps.stage1Uv)
                for (V2 e : engineUv)
                    s.uv.push_back(V2(e.x, 1.0f - e.y) * (st == 1 ? 2.0f : 1.0f)); // stored as OpenGL V
            p.stages.push_back(s);
        }
        m.passes.push_back(p);
    }
    rs::w3d::ChunkWriter cw(false);
    rs::w3d::writeMesh(cw, m);
    const std::vector<uint8_t> bytes = cw.take();
    QFile f(dir + "/quad.w3d");
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    rs::Document d = rs::w3d::loadSet(rs::ByteSpan(bytes.data(), bytes.size()), (dir + "/quad.w3d").toStdString());
    REQUIRE(d.model);
    REQUIRE(d.model->meshes.size() == 1);
    const rs::ShaderInfo info =
        rs::shaderInfo(rs::Format::W3d, d.model->meshes[0], d.model->meshes[0].subMeshes[0].material);
    REQUIRE(info.impl == rs::ShaderImpl::W3d);
    return d.model;
}

struct Shot {
    QImage img;
    QRect box;
    QColor at(float u, float v) const { // engine (u, v) across the quad
        return img.pixelColor(box.left() + int(u * float(box.width() - 1) + 0.5f),
                              box.top() + int(v * float(box.height() - 1) + 0.5f));
    }
    QPoint pixel(float u, float v) const {
        return {box.left() + int(u * float(box.width() - 1) + 0.5f),
                box.top() + int(v * float(box.height() - 1) + 0.5f)};
    }
};

// Renders; the quad's box is found with a solid opaque reference first when `reference` (the quad may be
// invisible or background-coloured in the case itself).
// The quad of `m` (its files in `dir`) at `time`, seen from (yaw, pitch) degrees, on the background kBg.
QImage renderAt(std::shared_ptr<rs::Model> m, const QString& dir, float time, float yaw, float pitch) {
    ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.background = kBg;
    auto& v = view();
    v.setOptions(o);
    v.setModel(m, dir + "/quad.w3d");
    v.setCameraAngles(yaw, pitch);
    v.setTime(time);
    const QImage img = grab();
    REQUIRE(!img.isNull());
    return img;
}
QRect quadBox(const QString& dir);
Shot render(std::shared_ptr<rs::Model> m, const QString& dir, float time = 0.0f) {
    Shot s;
    s.img = renderAt(std::move(m), dir, time, 180.0f, 0.0f);
    s.box = quadBox(dir);
    return s;
}
QRect quadBox(const QString& dir) {
    static QRect box;
    if (box.isValid()) return box;
    QTemporaryDir d2;
    auto m = quadModel({PassSpec{shader(1, 0), emissiveMaterial(V3(1)), "", "", {}, {}, false}}, d2.path());
    box = foreground(renderAt(m, d2.path(), 0.0f, 180.0f, 0.0f), kBg, 2);
    REQUIRE(box.width() > 40);
    REQUIRE(box.height() > 40);
    (void)dir;
    return box;
}

V3 bg() { return V3(kBg.redF(), kBg.greenF(), kBg.blueF()); }

void checkPixel(const QColor& got, V3 want, const std::string& what) {
    const V3 w = glm::clamp(want, 0.0f, 1.0f) * 255.0f;
    INFO(what << ": got " << got.red() << "," << got.green() << "," << got.blue() << " want " << w.x << "," << w.y
              << "," << w.z);
    CHECK(std::abs(got.red() - w.x) <= kTol);
    CHECK(std::abs(got.green() - w.y) <= kTol);
    CHECK(std::abs(got.blue() - w.z) <= kTol);
}

// D3D blend factors of ww3d2's tables (Generals: srcBlendLUT, dstBlendLUT).
V3 srcFactor(int s, V4 src, V3 dst) {
    switch (s) {
    case 0:
        return V3(0);
    case 2:
        return V3(src.a);
    case 3:
        return dst; // D3DBLEND_DESTCOLOR
    default:
        return V3(1);
    }
}
V3 dstFactor(int d, V4 src) {
    switch (d) {
    case 1:
        return V3(1);
    case 2:
        return V3(src);
    case 3:
        return V3(1) - V3(src);
    case 4:
        return V3(src.a);
    case 5:
        return V3(1 - src.a);
    default:
        return V3(0);
    }
}
V3 blend(int s, int d, V4 src, V3 dst) {
    return glm::clamp(V3(src) * srcFactor(s, src, dst) + dst * dstFactor(d, src), 0.0f, 1.0f);
}

} // namespace

TEST_CASE("W3D blend modes: every ShaderClass source and destination factor", "[render][w3d]") {
    const V3 e(0.8f, 0.5f, 0.25f);
    const float opacity = 0.6f;
    const V4 src(e8(e), opacity);
    for (int s = 0; s < 4; ++s)
        for (int d = 0; d < 6; ++d) {
            if (s != 1 && d != 0 && !(s == 2 && d == 5) && !(s == 0 && d == 2)) continue; // one axis at a time
            QTemporaryDir dir;
            auto m =
                quadModel({PassSpec{shader(s, d), emissiveMaterial(e, opacity), "", "", {}, {}, false}}, dir.path());
            const Shot shot = render(m, dir.path());
            checkPixel(shot.at(0.5f, 0.5f), blend(s, d, src, bg()),
                       "src " + std::to_string(s) + " dst " + std::to_string(d));
        }
}

TEST_CASE("W3D alpha test: alpha reference 0x60, greater-or-equal", "[render][w3d]") {
    QTemporaryDir dir;
    // left half alpha 0.35 (89 < 96: discarded), right half alpha 0.40 (102: kept)
    writeTga(dir.path() + "/a.tga", 8, 8,
             [](float u, float) { return V4(0.2f, 0.7f, 0.4f, u < 0.5f ? 0.35f : 0.40f); });
    rs::w3d::Shader s = shader(1, 0, true);
    s.alphaTest = 1;
    auto m = quadModel({PassSpec{s, emissiveMaterial(V3(1)), "a.tga", "", {}, {}, false}}, dir.path());
    const Shot shot = render(m, dir.path());
    checkPixel(shot.at(0.2f, 0.5f), bg(), "alpha 0.35 discarded");
    checkPixel(shot.at(0.8f, 0.5f), V3(q8(V4(0.2f, 0.7f, 0.4f, 1))), "alpha 0.40 kept (texture * emissive white)");
    // without the alpha test both halves draw
    rs::w3d::Shader off = shader(1, 0, true);
    QTemporaryDir dir2;
    writeTga(dir2.path() + "/a.tga", 8, 8,
             [](float u, float) { return V4(0.2f, 0.7f, 0.4f, u < 0.5f ? 0.35f : 0.40f); });
    const Shot shot2 = render(
        quadModel({PassSpec{off, emissiveMaterial(V3(1)), "a.tga", "", {}, {}, false}}, dir2.path()), dir2.path());
    checkPixel(shot2.at(0.2f, 0.5f), V3(q8(V4(0.2f, 0.7f, 0.4f, 1))), "no alpha test");
}

TEST_CASE("W3D primary gradient and post-detail colour/alpha functions of the two texture stages", "[render][w3d]") {
    const V4 t0 = q8(V4(0.6f, 0.3f, 0.8f, 0.7f)), t1 = q8(V4(0.3f, 0.5f, 0.2f, 0.4f));
    const V3 e = e8(V3(0.5f, 0.8f, 0.6f));
    const V4 D(e, 1.0f);
    auto sat = [](V3 v) { return glm::clamp(v, 0.0f, 1.0f); };
    // Primary gradient with texturing (stage 0 only)
    for (int pri : {0, 1, 2, 5}) {
        QTemporaryDir dir;
        solidTga(dir.path() + "/t0.tga", t0);
        rs::w3d::Shader s = shader(1, 0, true);
        s.priGradient = uint8_t(pri);
        const Shot shot =
            render(quadModel({PassSpec{s, emissiveMaterial(e), "t0.tga", "", {}, {}, false}}, dir.path()), dir.path());
        V3 want = pri == 0 ? V3(t0) : pri == 2 ? sat(V3(t0) + e) : pri == 5 ? sat(2.0f * V3(t0) * e) : V3(t0) * e;
        checkPixel(shot.at(0.5f, 0.5f), want, "primary gradient " + std::to_string(pri));
    }
    // Texturing off: the diffuse (here the emissive) colour
    {
        QTemporaryDir dir;
        const Shot shot =
            render(quadModel({PassSpec{shader(1, 0, false), emissiveMaterial(e), "", "", {}, {}, false}}, dir.path()),
                   dir.path());
        checkPixel(shot.at(0.5f, 0.5f), e, "texturing off");
    }
    // Stage 1 colour functions on cur = T0 * D
    const V4 cur = t0 * D;
    for (int f = 1; f <= 12; ++f) {
        V3 c(cur), T(t1);
        switch (f) {
        case 1:
            c = T;
            break;
        case 2:
            c = T * V3(cur);
            break;
        case 3:
            c = T + V3(cur) - T * V3(cur);
            break;
        case 4:
            c = T + V3(cur);
            break;
        case 5:
            c = T - V3(cur);
            break;
        case 6:
            c = V3(cur) - T;
            break;
        case 7:
            c = T * t1.a + V3(cur) * (1 - t1.a);
            break;
        case 8:
            c = T * cur.a + V3(cur) * (1 - cur.a);
            break;
        case 9:
            c = T + V3(cur) - 0.5f;
            break;
        case 10:
            c = 2.0f * (T + V3(cur) - 0.5f);
            break;
        case 11:
            c = 2.0f * T * V3(cur);
            break;
        case 12:
            c = V3(cur) + cur.a * T;
            break;
        }
        QTemporaryDir dir;
        solidTga(dir.path() + "/t0.tga", t0);
        solidTga(dir.path() + "/t1.tga", t1);
        rs::w3d::Shader s = shader(1, 0, true);
        s.detailColorFunc = uint8_t(f);
        const Shot shot = render(
            quadModel({PassSpec{s, emissiveMaterial(e), "t0.tga", "t1.tga", {}, {}, false}}, dir.path()), dir.path());
        checkPixel(shot.at(0.5f, 0.5f), sat(c), "detail colour function " + std::to_string(f));
    }
    // Stage 1 alpha functions, seen through src-alpha / inv-src-alpha blending
    for (int f = 1; f <= 3; ++f) {
        const float a = f == 1 ? t1.a : f == 2 ? t1.a * cur.a : t1.a + cur.a - t1.a * cur.a;
        QTemporaryDir dir;
        solidTga(dir.path() + "/t0.tga", t0);
        solidTga(dir.path() + "/t1.tga", t1);
        rs::w3d::Shader s = shader(2, 5, true);
        s.detailAlphaFunc = uint8_t(f);
        const Shot shot = render(
            quadModel({PassSpec{s, emissiveMaterial(e), "t0.tga", "t1.tga", {}, {}, false}}, dir.path()), dir.path());
        checkPixel(shot.at(0.5f, 0.5f), blend(2, 5, V4(V3(cur), a), bg()),
                   "detail alpha function " + std::to_string(f));
    }
}

namespace {
// Engine (u, v) of a stage-0 coordinate `e` after mapper `type` with `args` at time t (mapper.cpp).
using MapFn = std::function<V2(V2 e, float t)>;

void checkMapper(int type, const std::string& args, const MapFn& map, float t0, float t1) {
    for (float t : {t0, t1}) {
        QTemporaryDir dir;
        gridTga(dir.path() + "/g.tga");
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = uint32_t(type) << 16;
        vm.mapperArgs[0] = args;
        auto m = quadModel({PassSpec{shader(1, 0, true), vm, "g.tga", "", {}, {}, false}}, dir.path());
        const Shot shot = render(m, dir.path(), t);
        int checked = 0;
        for (float v = 0.1f; v < 0.95f; v += 0.1f)
            for (float u = 0.1f; u < 0.95f; u += 0.1f) {
                V4 want;
                if (!gridAt(map(V2(u, v), t), want)) continue;
                ++checked;
                checkPixel(shot.at(u, v), V3(want),
                           std::string(rs::w3d::mapperName(type)) + " t=" + std::to_string(t) +
                               " u=" + std::to_string(u) + " v=" + std::to_string(v));
            }
        INFO("points away from cell edges at t=" << t);
        CHECK(checked >= 10);
    }
}
float fr(float x) { return x - std::floor(x); }
} // namespace

TEST_CASE("W3D mappers: linear offset, step, zigzag, sine, rotate, scale, grid at two times", "[render][w3d]") {
    checkMapper(
        4, "UPerSec=0.3\nVPerSec=-0.2\nUScale=1.0", [](V2 e, float t) { return e + V2(fr(-0.3f * t), fr(0.2f * t)); },
        0.5f, 1.7f);
    checkMapper(
        10, "UStep=0.25\nVStep=0.125\nSPS=2",
        [](V2 e, float t) {
            const float n = std::floor(2.0f * t + 1e-4f);
            return e + V2(fr(0.25f * n), fr(0.125f * n));
        },
        0.3f, 1.2f);
    checkMapper(
        11, "UPerSec=0.4\nVPerSec=0.2\nPeriod=2",
        [](V2 e, float t) {
            const float r = std::fmod(t, 2.0f);
            const float tt = r > 1.0f ? 2.0f - r : r;
            return e + V2(0.4f, 0.2f) * tt;
        },
        0.6f, 1.5f);
    checkMapper(
        9, "UAmp=0.2\nUFreq=0.5\nUPhase=0.25\nVAmp=0.1\nVFreq=1\nVPhase=0",
        [](V2 e, float t) {
            const float a = 2.0f * 3.14159265f * t;
            return e + V2(0.2f * std::sin(0.5f * a + 0.25f * 3.14159265f), 0.1f * std::sin(a));
        },
        0.2f, 0.9f);
    checkMapper(
        8, "Speed=0.1\nUCenter=0.5\nVCenter=0.5\nUScale=1\nVScale=1",
        [](V2 e, float t) {
            const float a = std::fmod(2.0f * 3.14159265f * 0.1f * t, 2.0f * 3.14159265f);
            const float c = std::cos(a), s = std::sin(a);
            const V2 d = e - V2(0.5f);
            return V2(c * d.x - s * d.y + 0.5f, s * d.x + c * d.y + 0.5f);
        },
        0.7f, 2.1f);
    checkMapper(
        6, "UScale=2\nVScale=1.5", [](V2 e, float) { return e * V2(2.0f, 1.5f); }, 0.0f, 3.0f);
    // Grid: 4 fps, 2x2 frames of the (wrapping) texture: frame offset (x, y) / 2
    checkMapper(
        7, "FPS=4\nLog2Width=1",
        [](V2 e, float t) {
            const float ms = t * 1000.0f;
            const int frame = int(std::floor(ms / 250.0f)) % 4;
            return e + V2(float(frame & 1), float(frame >> 1)) * 0.5f;
        },
        0.3f, 0.55f);
}

TEST_CASE("W3D mappers: environment (normal and reflection) and screen", "[render][w3d]") {
    // The quad faces the camera: camera-space normal and (centre) reflection point at the viewer; texgen
    // 0.5 * xy + 0.5 gives the middle cell of the grid.
    for (int type : {1, 2}) {
        QTemporaryDir dir;
        gridTga(dir.path() + "/g.tga");
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = uint32_t(type) << 16;
        const Shot shot =
            render(quadModel({PassSpec{shader(1, 0, true), vm, "g.tga", "", {}, {}, false}}, dir.path()), dir.path());
        checkPixel(shot.at(0.5f, 0.5f), V3(gridColor(1, 1)), rs::w3d::mapperName(type));
    }
    // Screen: u = UScale * ndc.x + offset, v = VScale * ndc.y + offset (ScreenMapperClass), per pixel.
    for (float t : {0.25f, 1.0f}) {
        QTemporaryDir dir;
        gridTga(dir.path() + "/g.tga");
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = 3u << 16;
        vm.mapperArgs[0] = "UScale=0.5\nVScale=0.5\nUPerSec=0.2";
        const Shot shot = render(quadModel({PassSpec{shader(1, 0, true), vm, "g.tga", "", {}, {}, false}}, dir.path()),
                                 dir.path(), t);
        int checked = 0;
        for (float v = 0.1f; v < 0.95f; v += 0.1f)
            for (float u = 0.1f; u < 0.95f; u += 0.1f) {
                const QPoint p = shot.pixel(u, v);
                const float nx = (p.x() + 0.5f) / float(shot.img.width()) * 2 - 1;
                const float ny = 1 - (p.y() + 0.5f) / float(shot.img.height()) * 2;
                V4 want;
                if (!gridAt(V2(0.5f * nx + fr(-0.2f * t), 0.5f * ny), want)) continue;
                ++checked;
                checkPixel(shot.img.pixelColor(p), V3(want), "screen t=" + std::to_string(t));
            }
        CHECK(checked >= 10);
    }
}

TEST_CASE("W3D vertex colours: DCG and DIG through meshmatdesc's rules", "[render][w3d]") {
    const glm::u8vec4 dcg(204, 102, 51, 255), dig(128, 255, 64, 0);
    const V3 c = V3(dcg) / 255.0f;
    // Emissive-only material: the array premultiplied by the emissive colour, drawn unlit.
    {
        QTemporaryDir dir;
        const V3 e(0.5f, 1.0f, 1.0f);
        const Shot shot =
            render(quadModel({PassSpec{shader(1, 0), emissiveMaterial(e), "", "", {4, dcg}, {}, false}}, dir.path()),
                   dir.path());
        checkPixel(shot.at(0.5f, 0.5f), c * e8(e), "DCG * emissive, unlit");
    }
    {
        QTemporaryDir dir;
        const V3 e(1.0f);
        const Shot shot = render(
            quadModel({PassSpec{shader(1, 0), emissiveMaterial(e), "", "", {4, dcg}, {4, dig}, false}}, dir.path()),
            dir.path());
        checkPixel(shot.at(0.5f, 0.5f), c * V3(dig) / 255.0f, "DCG * DIG");
    }
    // Lit, diffuse-only material: diffuse from the array (times the material diffuse), lights of the view.
    {
        QTemporaryDir dir;
        rs::w3d::VertexMaterial vm;
        vm.name = "lit";
        vm.ambient = {0, 0, 0, 0};
        vm.diffuse = {255, 255, 255, 0};
        vm.emissive = {0, 0, 0, 0};
        vm.specular = {0, 0, 0, 0};
        const Shot shot =
            render(quadModel({PassSpec{shader(1, 0), vm, "", "", {4, dcg}, {}, false}}, dir.path()), dir.path());
        // The default rig (render/lights.cpp uploadLights, no model lights, Z up): key light 0.85 along
        // keyLightDirection, fills 0.35 and 0.25; each adds colour * max(N.L, 0) with L towards the light.
        const V3 up(0, 0, 1), side(1, 0, 0), fwd(0, 1, 0), n(0, -1, 0);
        const V3 dirs[3] = {rs::render::keyLightDirection(true), glm::normalize(side * 0.7f - fwd * 0.3f - up * 0.3f),
                            glm::normalize(fwd * 0.8f - up * 0.5f)};
        const float col[3] = {0.85f, 0.35f, 0.25f};
        float lit = 0;
        for (int i = 0; i < 3; ++i)
            lit += col[i] * std::max(0.0f, glm::dot(n, -dirs[i]));
        checkPixel(shot.at(0.5f, 0.5f), glm::clamp(c * lit, 0.0f, 1.0f), "DCG diffuse, lit");
    }
}

TEST_CASE("W3D two-pass material: opaque base, then multiply and additive passes in order", "[render][w3d]") {
    const V3 a = e8(V3(0.8f, 0.6f, 0.4f)), b = e8(V3(0.5f, 0.25f, 1.0f)), c = e8(V3(0.1f, 0.2f, 0.05f));
    rs::w3d::Shader mul = shader(0, 2); // zero / src colour: dst * src
    mul.depthCompare = 3;
    rs::w3d::Shader add = shader(1, 1);
    {
        QTemporaryDir dir;
        auto m = quadModel({PassSpec{shader(1, 0), emissiveMaterial(a), "", "", {}, {}, false},
                            PassSpec{mul, emissiveMaterial(b), "", "", {}, {}, false}},
                           dir.path());
        REQUIRE(m->meshes[0].subMeshes[0].material.w3dPasses.size() == 2);
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), a * b, "base * multiply pass");
    }
    {
        QTemporaryDir dir;
        auto m = quadModel({PassSpec{shader(1, 0), emissiveMaterial(a), "", "", {}, {}, false},
                            PassSpec{mul, emissiveMaterial(b), "", "", {}, {}, false},
                            PassSpec{add, emissiveMaterial(c), "", "", {}, {}, false}},
                           dir.path());
        checkPixel(render(m, dir.path()).at(0.5f, 0.5f), glm::clamp(a * b + c, 0.0f, 1.0f), "three passes in order");
    }
}

TEST_CASE("W3D mappers: edge (V scrolling), grid environment and world-space environment", "[render][w3d]") {
    // Edge: u from the camera-space normal's z (facing the camera: 0.5 * -1 + 0.5 = 0), v = frac(VStart + VPerSec
    // * t) (EdgeMapperClass); a texture of three horizontal bands (colour by engine v only) shows the band of v.
    for (float t : {0.2f, 1.3f}) {
        QTemporaryDir dir;
        writeTga(dir.path() + "/s.tga", 48, 48, [](float, float v) { return gridColor(0, int(v * 3)); });
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = 17u << 16;
        vm.mapperArgs[0] = "VPerSec=0.5\nVStart=0.1";
        const Shot shot = render(quadModel({PassSpec{shader(1, 0, true), vm, "s.tga", "", {}, {}, false}}, dir.path()),
                                 dir.path(), t);
        const float v = fr(0.1f + 0.5f * t);
        V4 want;
        REQUIRE(gridAt(V2(0.15f, v), want)); // column 0: the bands are column 0 of the grid
        checkPixel(shot.at(0.5f, 0.5f), V3(want), "edge t=" + std::to_string(t));
    }
    // GridClassicEnvironment, 2x2 frames at 4 fps: (del * n.xy + offset + del), del = 0.25; n.xy = 0 here.
    for (float t : {0.1f, 0.6f}) {
        QTemporaryDir dir;
        gridTga(dir.path() + "/g.tga");
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = 14u << 16;
        vm.mapperArgs[0] = "FPS=4\nLog2Width=1";
        const Shot shot = render(quadModel({PassSpec{shader(1, 0, true), vm, "g.tga", "", {}, {}, false}}, dir.path()),
                                 dir.path(), t);
        const int frame = int(std::floor(t * 1000.0f / 250.0f)) % 4;
        V4 want;
        REQUIRE(gridAt(V2(float(frame & 1), float(frame >> 1)) * 0.5f + 0.25f, want));
        checkPixel(shot.at(0.5f, 0.5f), V3(want), "grid environment t=" + std::to_string(t));
    }
    // World-space environment, Axis=Y: (0.5 * r.x + 0.5, 0.5 * r.z + 0.5) of the world reflection vector, which at
    // the centre points back at the camera along -Y: the middle cell.
    for (int type : {12, 13}) {
        QTemporaryDir dir;
        gridTga(dir.path() + "/g.tga");
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = uint32_t(type) << 16;
        vm.mapperArgs[0] = "Axis=Y";
        const Shot shot =
            render(quadModel({PassSpec{shader(1, 0, true), vm, "g.tga", "", {}, {}, false}}, dir.path()), dir.path());
        checkPixel(shot.at(0.5f, 0.5f), V3(gridColor(1, 1)), rs::w3d::mapperName(type));
    }
}

// ww3d2 culls back faces (D3DCULL_CW: a triangle whose corners turn clockwise on screen is not drawn) unless the
// mesh header is W3D_MESH_FLAG_TWO_SIDED (MeshMatDescClass::Disable_Backface_Culling). The test quad's corners
// turn clockwise seen from yaw 180 and counter-clockwise from yaw 0.
TEST_CASE("W3D back faces: culled unless the mesh is two-sided", "[render][w3d]") {
    QTemporaryDir dir;
    ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.background = kBg;
    auto seen = [&](bool twoSided, float yaw) {
        auto m = quadModel({PassSpec{shader(1, 0), emissiveMaterial(V3(0.9f, 0.5f, 0.1f)), "", "", {}, {}, false}},
                           dir.path());
        m->meshes[0].twoSided = twoSided;
        auto& v = view();
        v.setOptions(o);
        v.setModel(m, dir.path() + "/quad.w3d");
        v.setCameraAngles(yaw, 0.0f);
        const QImage img = grab();
        REQUIRE(!img.isNull());
        return foreground(img, kBg, 2).width() > 40;
    };
    CHECK(seen(true, 180.0f));
    CHECK(seen(true, 0.0f));
    CHECK_FALSE(seen(false, 180.0f)); // its back
    CHECK(seen(false, 0.0f));         // its front
}

namespace {

// The view's camera after the last render: view and projection matrices and the eye (the quad's mesh is on no bone,
// so its model space is the world).
struct Cam {
    glm::mat4 view, proj;
    V3 eye;
};
Cam cameraOfView() {
    Qt3DRender::QCamera* c = view().window()->camera();
    Cam k;
    k.view = glm::make_mat4(c->viewMatrix().constData());
    k.proj = glm::make_mat4(c->projectionMatrix().constData());
    const QVector3D e = c->position();
    k.eye = V3(e.x(), e.y(), e.z());
    return k;
}
// Pixel of world point p in a capture of size `size` (the view draws the whole window).
QPoint project(const Cam& k, V3 p, QSize size) {
    const glm::vec4 c = k.proj * k.view * glm::vec4(p, 1.0f);
    const V2 ndc = V2(c) / c.w;
    return {int(std::floor((ndc.x * 0.5f + 0.5f) * float(size.width()))),
            int(std::floor((0.5f - ndc.y * 0.5f) * float(size.height())))};
}

// Direct3D's texgen inputs at a vertex (D3DTSS_TCI_CAMERASPACENORMAL / CAMERASPACEREFLECTIONVECTOR): camera space
// is left-handed (x right, y up, z forward), so the OpenGL view-space z is negated. The reflection is
// 2 (E.N) N - E with E the unit vector from the vertex to the eye.
V3 camNormal(const Cam& k, V3 n) {
    const V3 v = glm::normalize(glm::mat3(k.view) * n);
    return {v.x, v.y, -v.z};
}
V3 camReflection(const Cam& k, V3 p, V3 n) {
    const V3 nv = glm::normalize(glm::mat3(k.view) * n);
    const V3 e = glm::normalize(-V3(k.view * glm::vec4(p, 1.0f)));
    const V3 r = 2.0f * glm::dot(e, nv) * nv - e;
    return {r.x, r.y, -r.z};
}
// The world-space mappers multiply the camera-space vector by the inverse of the view rotation (mapper.cpp
// WSEnvMapperClass / GridWSEnvMapperClass): the world normal, and the reflection in world space.
V3 worldReflection(const Cam& k, V3 p, V3 n) {
    const V3 e = glm::normalize(k.eye - p);
    return 2.0f * glm::dot(e, n) * n - e;
}
// Axis pair of the world-space mappers: Axis=X (y, z), Y (x, z), Z (x, y).
V2 axisPair(V3 w, char axis) { return axis == 'X' ? V2(w.y, w.z) : axis == 'Y' ? V2(w.x, w.z) : V2(w.x, w.y); }

// GridTextureMapperClass's frame at time t (Zero Hour mapper.cpp): FPS > 0, frames counted from Offset, whole
// milliseconds per frame, wrapping at Last (default: every cell of the grid).
int gridFrame(float t, float fps, int log2Width, int offset = 0, int last = 0) {
    const int w = 1 << log2Width;
    if (last == 0) last = w * w;
    const int msPerFrame = int(1000.0f / fps);
    const int ms = int(std::lround(t * 1000.0f));
    return (offset % last + ms / msPerFrame) % last;
}
V2 gridOffset(int frame, int log2Width) {
    const int w = 1 << log2Width;
    return V2(float(frame % w), float(frame / w)) / float(w);
}

// Per-vertex texgen of a mapper, in the engine's (u, v): the camera k, vertex p with stored normal n, time t.
using TexGen = std::function<V2(const Cam& k, V3 p, V3 n, float t)>;

// Flipbook test texture, 64 x 64, for 2 x 2 frames: in frame (i, j) (u in [i/2, (i+1)/2), v likewise) red and
// green ramp from 0 to 1 across the frame and blue names the frame ((1 + i + 2j) / 5). Linear filtering of a
// ramp is exact, so the colour gives the coordinate everywhere but within a texel of a frame's edge.
V4 frameRamp(V2 e) {
    const V2 w = e - glm::floor(e);
    const V2 f = 2.0f * w - glm::floor(2.0f * w);
    const int frame = int(2.0f * w.x) + 2 * int(2.0f * w.y);
    return V4(f.x, f.y, float(1 + frame) / 5.0f, 1.0f);
}
bool frameRampAt(V2 e, V4& out) {
    const V2 w = e - glm::floor(e);
    const V2 f = 2.0f * w - glm::floor(2.0f * w);
    if (f.x < 0.04f || f.x > 0.96f || f.y < 0.04f || f.y > 0.96f) return false;
    out = frameRamp(e);
    return true;
}
void frameRampTga(const QString& path) {
    writeTga(path, 64, 64, [](float u, float v) { return frameRamp(V2(u, v)); });
}

// Renders a one-pass quad (grid texture, or with `ramp` the flipbook ramp, on stage 0, mapper `type` with `args`,
// emissive white: the pixel is the texel) at time t seen from (yaw, pitch) and compares points along the quad's
// diagonal from corner 0 to corner 2 with the grid colour at the interpolated texgen result: a point at s along that
// shared edge of the two triangles gets (1 - s) x corner 0's coordinates + s x corner 2's (perspective-correct
// interpolation is linear in the world along the edge). Returns the number of points compared (grid: those at least
// 0.05 from a cell edge; ramp: those more than a texel from a frame's edge).
int checkTexGen(int type, const std::string& args, V3 normal, float t, float yaw, float pitch, const TexGen& gen,
                const std::string& what, bool ramp = false) {
    QTemporaryDir dir;
    if (ramp)
        frameRampTga(dir.path() + "/g.tga");
    else
        gridTga(dir.path() + "/g.tga");
    rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
    vm.attributes = uint32_t(type) << 16;
    vm.mapperArgs[0] = args;
    auto m = quadModel({PassSpec{shader(1, 0, true), vm, "g.tga", "", {}, {}, false}}, dir.path(), normal);
    const QImage img = renderAt(m, dir.path(), t, yaw, pitch);
    const Cam k = cameraOfView();
    const V3 n = glm::normalize(normal), p0(-1, 0, 1), p2(1, 0, -1);
    const V2 e0 = gen(k, p0, n, t), e2 = gen(k, p2, n, t);
    int checked = 0;
    for (float s = 0.1f; s < 0.95f; s += 0.1f) {
        V4 want;
        const V2 e = (1.0f - s) * e0 + s * e2;
        if (!(ramp ? frameRampAt(e, want) : gridAt(e, want))) continue;
        const QPoint px = project(k, (1.0f - s) * p0 + s * p2, img.size());
        REQUIRE(img.rect().contains(px));
        ++checked;
        checkPixel(img.pixelColor(px), V3(want),
                   what + " t=" + std::to_string(t) + " yaw=" + std::to_string(yaw) +
                       " pitch=" + std::to_string(pitch) + " s=" + std::to_string(s) + " uv=" + std::to_string(e.x) +
                       "," + std::to_string(e.y));
    }
    UNSCOPED_INFO(what << " t=" << t << " yaw=" << yaw << " pitch=" << pitch << ": coordinates " << e0.x << "," << e0.y
                       << " at corner 0, " << e2.x << "," << e2.y << " at corner 2; " << checked << " points compared");
    return checked;
}

} // namespace

// The environment mappers take no time (mapper.cpp: ClassicEnvironmentMapperClass, EnvironmentMapperClass,
// WSClassicEnvironmentMapperClass, WSEnvironmentMapperClass compute a fixed texture matrix), so they are checked
// at two camera orientations and two stored normals instead of two times.
TEST_CASE("W3D environment mappers at two orientations: camera-space normal and reflection, world-space both",
          "[render][w3d]") {
    struct View {
        float yaw, pitch;
        V3 normal;
    };
    const View views[2] = {{210.0f, 12.0f, V3(0.0f, -1.0f, 0.0f)}, {140.0f, -18.0f, V3(0.6f, -0.785f, -0.15f)}};
    for (const View& v : views) {
        // CheapEnvironment (ClassicEnvironmentMapperClass): 0.5 x camera-space normal.xy + 0.5.
        CHECK(checkTexGen(
                  2, "", v.normal, 0.0f, v.yaw, v.pitch,
                  [](const Cam& k, V3, V3 n, float) { return 0.5f * V2(camNormal(k, n)) + 0.5f; },
                  "CheapEnvironment") >= 1);
        // Environment (EnvironmentMapperClass, Zero Hour): 0.5 x camera-space reflection.xy + 0.5.
        CHECK(checkTexGen(
                  1, "", v.normal, 0.0f, v.yaw, v.pitch,
                  [](const Cam& k, V3 p, V3 n, float) { return 0.5f * V2(camReflection(k, p, n)) + 0.5f; },
                  "Environment") >= 3);
        // WSClassicEnv, Axis Z (default) and Y: 0.5 x the world normal's axis pair + 0.5.
        CHECK(checkTexGen(
                  12, "Axis=Y", v.normal, 0.0f, v.yaw, v.pitch,
                  [](const Cam&, V3, V3 n, float) { return 0.5f * axisPair(n, 'Y') + 0.5f; }, "WSClassicEnv Y") >= 1);
        // WSEnvironment, Axis X: 0.5 x the world reflection's (y, z) + 0.5.
        CHECK(checkTexGen(
                  13, "Axis=X", v.normal, 0.0f, v.yaw, v.pitch,
                  [](const Cam& k, V3 p, V3 n, float) { return 0.5f * axisPair(worldReflection(k, p, n), 'X') + 0.5f; },
                  "WSEnvironment X") >= 3);
    }
}

TEST_CASE("W3D grid environment mappers: flipbook frame at two times, texgen at a turned view", "[render][w3d]") {
    // 2 x 2 frames at 4 fps (250 ms a frame); del = 0.5 / 2: u = del x vector.x + frame offset + del
    // (Grid[WS][Classic]EnvironmentMapperClass). Times 0.1 s (frame 0) and 0.85 s (frame 3). The flipbook ramp
    // texture: the colour gives the frame (blue) and the coordinate inside it (red, green).
    const float del = 0.25f;
    // A stored normal tilted away from the face (texgen input only): world (0, -0.73, -0.68).
    const V3 normal(0.0f, -0.73f, -0.68f);
    for (float t : {0.1f, 0.85f}) {
        const V2 off = gridOffset(gridFrame(t, 4.0f, 1), 1);
        // GridEnvironment: camera-space reflection.
        CHECK(checkTexGen(
                  15, "FPS=4\nLog2Width=1", normal, t, 200.0f, 10.0f,
                  [&](const Cam& k, V3 p, V3 n, float) { return del * V2(camReflection(k, p, n)) + off + del; },
                  "GridEnvironment", true) >= 5);
        // GridWSClassicEnv, Axis Z: the world normal's (x, y); Offset=1 starts one frame later.
        const V2 off1 = gridOffset(gridFrame(t, 4.0f, 1, 1), 1);
        CHECK(checkTexGen(
                  19, "FPS=4\nLog2Width=1\nOffset=1", normal, t, 200.0f, 10.0f,
                  [&](const Cam&, V3, V3 n, float) { return del * axisPair(n, 'Z') + off1 + del; }, "GridWSClassicEnv",
                  true) >= 5);
        // GridWSEnvironment, Axis Y: the world reflection's (x, z).
        CHECK(checkTexGen(
                  20, "FPS=4\nLog2Width=1\nAxis=Y", normal, t, 165.0f, -12.0f,
                  [&](const Cam& k, V3 p, V3 n, float) {
                      return del * axisPair(worldReflection(k, p, n), 'Y') + off + del;
                  },
                  "GridWSEnvironment", true) >= 5);
    }
}

TEST_CASE("W3D BumpEnv mapper: stage 0's du/dv turn stage 1's coordinates by the rotating bump matrix at two times",
          "[render][w3d]") {
    // BumpEnvTextureMapperClass::Apply: angle = 2 pi BumpRotation t, c = BumpScale cos, s = BumpScale sin,
    // BUMPENVMAT00 = c, 01 = -s, 10 = s, 11 = c; Direct3D's BUMPENVMAP: u' = u + M00 du + M10 dv,
    // v' = v + M01 du + M11 dv. The primary gradient BUMPENVMAP (3) makes stage 0 the bump stage; the post-detail
    // colour function 1 (SELECTARG1: the stage-1 texture) shows stage 1 alone. Stage 0's bump map is solid:
    // du, dv = 2 x (r, g) - 1 as the view reads an 8-bit map (r 0.75, g 0.5: du 0.5, dv 0); stage 1 has its own UVs
    // (the quad's x 2) and the grid.
    const V4 bump = q8(V4(0.75f, 0.5f, 0.5f, 1.0f));
    const float du = bump.r * 2 - 1, dv = bump.g * 2 - 1;
    for (float t : {0.5f, 2.0f}) {
        QTemporaryDir dir;
        solidTga(dir.path() + "/b.tga", bump);
        gridTga(dir.path() + "/g.tga");
        rs::w3d::Shader sh = shader(1, 0, true);
        sh.priGradient = 3;
        sh.detailColorFunc = 1;
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = 18u << 16;
        vm.mapperArgs[0] = "BumpRotation=0.125\nBumpScale=0.4";
        auto m = quadModel({PassSpec{sh, vm, "b.tga", "g.tga", {}, {}, true}}, dir.path());
        const Shot shot = render(m, dir.path(), t);
        const float a = std::fmod(2.0f * 3.14159265f * 0.125f * t, 2.0f * 3.14159265f);
        const float c = 0.4f * std::cos(a), sn = 0.4f * std::sin(a);
        const V2 d(c * du + sn * dv, -sn * du + c * dv);
        int checked = 0;
        for (float v = 0.1f; v < 0.95f; v += 0.1f)
            for (float u = 0.1f; u < 0.95f; u += 0.1f) {
                V4 want;
                if (!gridAt(2.0f * V2(u, v) + d, want)) continue;
                ++checked;
                checkPixel(shot.at(u, v), V3(want),
                           "BumpEnv t=" + std::to_string(t) + " u=" + std::to_string(u) + " v=" + std::to_string(v));
            }
        CHECK(checked >= 10);
    }
}

TEST_CASE("W3D stage-1 mapper: the second texture stage's own linear offset at two times", "[render][w3d]") {
    // Stage 0 white, post-detail colour SELECTARG1: the pixel is stage 1's texel. Stage 1 reads its own UVs (the
    // quad's x 2) through its mapper (W3DVERTMAT_STAGE1_MAPPING, bits 8-15; VERTEX_MAPPER_ARGS1):
    // LinearOffset, offset = frac(-UPerSec t), frac(-VPerSec t).
    for (float t : {0.4f, 1.9f}) {
        QTemporaryDir dir;
        solidTga(dir.path() + "/w.tga", V4(1));
        gridTga(dir.path() + "/g.tga");
        rs::w3d::Shader sh = shader(1, 0, true);
        sh.detailColorFunc = 1;
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = 4u << 8;
        vm.mapperArgs[1] = "UPerSec=0.3\nVPerSec=-0.2";
        auto m = quadModel({PassSpec{sh, vm, "w.tga", "g.tga", {}, {}, true}}, dir.path());
        REQUIRE(m->meshes[0].subMeshes[0].material.w3dPasses[0].mappers[1].type == 4);
        const Shot shot = render(m, dir.path(), t);
        int checked = 0;
        for (float v = 0.1f; v < 0.95f; v += 0.1f)
            for (float u = 0.1f; u < 0.95f; u += 0.1f) {
                V4 want;
                if (!gridAt(2.0f * V2(u, v) + V2(fr(-0.3f * t), fr(0.2f * t)), want)) continue;
                ++checked;
                checkPixel(shot.at(u, v), V3(want),
                           "stage 1 t=" + std::to_string(t) + " u=" + std::to_string(u) + " v=" + std::to_string(v));
            }
        CHECK(checked >= 10);
    }
}

namespace {
// Colours of a capture at a 9 x 9 lattice of the quad, and whether each is (within tolerance) a or b.
enum class Side { A, B, Neither };
Side sideOf(const QColor& p, V3 a, V3 b) {
    auto near = [&](V3 w) {
        const V3 x = w * 255.0f;
        return std::abs(p.red() - x.x) <= kTol && std::abs(p.green() - x.y) <= kTol && std::abs(p.blue() - x.z) <= kTol;
    };
    return near(a) ? Side::A : near(b) ? Side::B : Side::Neither;
}
} // namespace

TEST_CASE("W3D Random mapper: offset drifting by UPerSec within a frame, a new random turn each 1/FPS",
          "[render][w3d]") {
    // RandomTextureMapperClass (Zero Hour): per frame of 1/FPS a random angle and centre (rand4: not reproducible,
    // so not predicted here); u' = c Sx u - s Sy v + fmod(Cu + r UPerSec, 1), v' likewise, r = the time since the
    // frame began (FPS 0: since the start). A texture of two halves in u (a left, b right): shifting u' by 0.5
    // swaps every texel's colour whatever the angle and centre, so a drift of 0.5 within one frame swaps each
    // sampled pixel, and the next frame's jump does not.
    const V3 a = V3(q8(V4(0.9f, 0.2f, 0.1f, 1))), b = V3(q8(V4(0.1f, 0.3f, 0.9f, 1)));
    auto shot = [&](const std::string& args, float t) {
        QTemporaryDir dir;
        writeTga(dir.path() + "/h.tga", 32, 8, [&](float u, float) { return V4(u < 0.5f ? a : b, 1.0f); });
        rs::w3d::VertexMaterial vm = emissiveMaterial(V3(1));
        vm.attributes = 16u << 16;
        vm.mapperArgs[0] = args;
        auto m = quadModel({PassSpec{shader(1, 0, true), vm, "h.tga", "", {}, {}, false}}, dir.path());
        return render(m, dir.path(), t);
    };
    // Counts lattice points classified in both shots (x: classified in the first) and how many of those swap.
    auto compare = [&](const Shot& x, const Shot& y, int& classified, int& swapped, int& same) {
        classified = swapped = same = 0;
        for (int j = 1; j <= 9; ++j)
            for (int i = 1; i <= 9; ++i) {
                const Side sx = sideOf(x.at(i / 10.0f, j / 10.0f), a, b);
                if (sx == Side::Neither) continue;
                ++classified;
                const Side sy = sideOf(y.at(i / 10.0f, j / 10.0f), a, b);
                swapped += sy != Side::Neither && sy != sx;
                same += sy == sx;
            }
    };
    int classified, swapped, same;
    // FPS 0: one random turn for ever; UPerSec 0.25: 2 s later the offset moved by 0.5.
    compare(shot("UPerSec=0.25", 0.3f), shot("UPerSec=0.25", 2.3f), classified, swapped, same);
    CHECK(classified >= 40);
    CHECK(swapped == classified);
    // FPS 0.5: frames of 2 s. 0.2 s and 1.2 s lie in frame 0 (UPerSec 0.5: moved by 0.5), 2.2 s and 3.2 s in frame
    // 1 (the drift restarts from the new frame's centre: moved by 0.5 again).
    const std::string args = "FPS=0.5\nUPerSec=0.5\nUScale=1.5\nVScale=1.5";
    const Shot f0a = shot(args, 0.2f), f0b = shot(args, 1.2f), f1a = shot(args, 2.2f), f1b = shot(args, 3.2f);
    compare(f0a, f0b, classified, swapped, same);
    CHECK(classified >= 30);
    CHECK(swapped == classified);
    compare(f1a, f1b, classified, swapped, same);
    CHECK(classified >= 30);
    CHECK(swapped == classified);
    // Across the frame boundary (1.2 s -> 2.2 s) the picture is neither the same nor the swapped one: a new turn.
    compare(f0b, f1a, classified, swapped, same);
    INFO("across the jump: " << classified << " classified, " << swapped << " swapped, " << same << " same");
    CHECK(swapped < classified * 9 / 10);
    CHECK(same < classified * 9 / 10);
}
