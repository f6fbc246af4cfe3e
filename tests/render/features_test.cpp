// Scene features checked on pixels: hidden shadow meshes, billboards, proxy ALT rules, model lights.
#include "dazzle_rules.h"
#include "render_harness.h"
#include "test_models.h"

#include <catch2/catch.hpp>

#include <cmath>

using rs::render::ViewOptions;
using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

ViewOptions plainOptions() {
    ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.background = kBg;
    return o;
}

QImage render(std::shared_ptr<rs::Model> m, ViewOptions o, float yaw = 20.0f) {
    auto& v = view();
    v.setOptions(o);
    v.setModel(m, {});
    v.setCameraAngles(yaw, 10.0f);
    v.setTime(0.0f);
    return grab();
}

rs::Mesh quadMesh(const char* name, const char* shader, int bone, float size) {
    rs::Mesh m;
    m.name = name;
    rs::parseLodAlt(m.name, m.baseName, m.lod, m.alt);
    m.bone = bone;
    rs::SubMesh sm;
    sm.material.shader = shader;
    // A quad in the bone's XZ plane, facing -Y (the direction billboards turn towards the viewer).
    sm.positions = {{-size, 0, -size}, {size, 0, -size}, {size, 0, size}, {-size, 0, size}};
    sm.normals.assign(4, glm::vec3(0, -1, 0));
    sm.indices = {0, 1, 2, 0, 2, 3};
    m.subMeshes.push_back(sm);
    return m;
}

} // namespace

TEST_CASE("shadow volume meshes are hidden unless asked for", "[render][features]") {
    auto m = makeFigure();
    rs::Mesh shadow = quadMesh("Body_SHD", "MeshShadowVolume.fx", 1, 1.5f);
    shadow.shadowOrCollision = true;
    m->meshes.push_back(shadow);
    ViewOptions o = plainOptions();
    const QImage normal = render(m, o);
    const QImage reference = render(makeFigure(), o);
    CHECK(countChanged(normal, reference) == 0);
    o.showHidden = true;
    const QImage shown = render(m, o);
    CHECK(countChanged(normal, shown) > 300);
}

TEST_CASE("face-camera billboards keep facing the viewer", "[render][features]") {
    auto make = [](int mode) {
        auto m = makeFigure();
        m->meshes.clear(); // only the quad
        rs::Bone b;
        b.name = "Sprite";
        b.parent = 0;
        b.billboard = mode;
        b.bindLocal[3] = glm::vec4(0, 0, 2, 1);
        m->skeleton.bones.push_back(b);
        rs::Mesh quad = quadMesh("Sprite", "alDefault.fx", int(m->skeleton.bones.size()) - 1, 1.0f);
        rs::MaterialParam red;
        red.name = "Diffuse";
        red.type = rs::ParamType::Float4;
        red.value = glm::vec4(1.0f, 0.1f, 0.1f, 1.0f);
        quad.subMeshes[0].material.params.push_back(red);
        m->meshes.push_back(quad);
        // A grey plate under it, symmetric about Z, so the framing is the same for both yaw angles.
        rs::Mesh plate = quadMesh("Plate", "alDefault.fx", 0, 1.6f);
        for (auto& p : plate.subMeshes[0].positions)
            p = glm::vec3(p.x, p.z, 0.0f);
        m->meshes.push_back(plate);
        return m;
    };
    ViewOptions o = plainOptions();
    o.proxies = false;
    o.labels = false;
    // Without billboarding the quad is seen edge-on from the side (yaw 90): almost nothing is drawn.
    auto reds = [](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c(img.pixel(x, y));
                n += c.red() > 60 && c.red() > 2 * c.green() && c.red() > 2 * c.blue();
            }
        return n;
    };
    const int plainFront = reds(render(make(0), o, 180.0f)); // camera on -Y: the quad's front (Alamo culls backs)
    const int plainSide = reds(render(make(0), o, 90.0f));
    CHECK(plainFront > 1000);
    CHECK(plainSide < plainFront / 5);
    // Face-camera (2): about the same area from both sides.
    const int bbFront = reds(render(make(2), o, 0.0f));
    const int bbSide = reds(render(make(2), o, 90.0f));
    INFO("billboard front " << bbFront << " side " << bbSide);
    CHECK(bbFront > 1000);
    CHECK(bbSide > bbFront * 7 / 10);
}

TEST_CASE("ALT proxies with altDecreaseStayHidden stay hidden when the ALT decreases", "[render][features]") {
    for (bool stayHidden : {false, true}) {
        auto m = makeFigure();
        m->proxies[0].altDecreaseStayHidden = stayHidden; // p_smoke_ALT1
        ViewOptions o = plainOptions();
        o.alt = 0;
        o.labels = true; // every label (by default only the selected bone's)
        auto& v = view();
        v.setOptions(o);
        v.setModel(m, {});
        v.setCameraAngles(20.0f, 10.0f);
        o.alt = 1; // increase: shown (its label is drawn)
        v.setOptions(o);
        const QImage up = grab();
        o.alt = 2;
        v.setOptions(o);
        o.alt = 1; // decrease back to 1
        v.setOptions(o);
        const QImage down = grab();
        INFO("stayHidden " << stayHidden);
        if (stayHidden)
            CHECK(countChanged(up, down) > 50);
        else
            CHECK(countChanged(up, down) == 0);
    }
}

// The generic program (W3D, B&W2, shaders without an implementation) adds the model's own lights; the Alamo .fx
// implementations light with the engine's sun, fill lights and ambient only, as their .fx files do.
TEST_CASE("model lights light the model", "[render][features]") {
    auto m = makeFigure();
    m->format = rs::Format::W3d; // z up like Alamo; drawn by the generic program
    rs::Light l;
    l.name = "RedLamp";
    l.type = int(rs::LightType::Omni);
    l.color = {1.0f, 0.1f, 0.1f};
    l.intensity = 2.0f;
    l.farAttenuationEnd = 6.0f;
    l.bone = 3; // Head
    m->lights.push_back(l);
    ViewOptions o = plainOptions();
    o.lights = true;
    const QImage lit = render(m, o);
    o.lights = false;
    const QImage rig = render(m, o);
    CHECK(countChanged(lit, rig) > 300);
    // The lamp is red: lit pixels gain red relative to the default rig.
    long redGain = 0, greenGain = 0;
    for (int y = 0; y < lit.height(); ++y)
        for (int x = 0; x < lit.width(); ++x) {
            redGain += qRed(lit.pixel(x, y)) - qRed(rig.pixel(x, y));
            greenGain += qGreen(lit.pixel(x, y)) - qGreen(rig.pixel(x, y));
        }
    CHECK(redGain > greenGain + 5000);
    m->format = rs::Format::AlamoModel;
    o.lights = true;
    const QImage alamoLit = render(m, o);
    o.lights = false;
    CHECK(countChanged(alamoLit, render(m, o)) == 0);
}

TEST_CASE("dazzle colours: faction-coloured ones take the faction colour's hue, keep their saturation and value",
          "[render][dazzle]") {
    // render/dazzle_rules.h: shared by the desktop's dazzle layer and the web page.
    rs::Dazzle dz;
    dz.name = "FC_Beacon";
    dz.color = glm::vec3(0.8f, 0.4f, 0.4f); // hue 0, saturation 0.5, value 0.8
    const glm::vec3 blue = rs::render::dazzleColor(dz, glm::vec3(0.0f, 0.0f, 1.0f));
    CHECK(blue.r == Approx(0.4f).margin(1e-5));
    CHECK(blue.g == Approx(0.4f).margin(1e-5));
    CHECK(blue.b == Approx(0.8f).margin(1e-5));
    const glm::vec3 green = rs::render::dazzleColor(dz, glm::vec3(0.2f, 0.6f, 0.2f)); // hue 1/3
    CHECK(green.r == Approx(0.4f).margin(1e-5));
    CHECK(green.g == Approx(0.8f).margin(1e-5));
    CHECK(green.b == Approx(0.4f).margin(1e-5));
    // An achromatic faction colour has no hue: hue 0.
    const glm::vec3 grey = rs::render::dazzleColor(dz, glm::vec3(0.5f));
    CHECK(grey.r == Approx(0.8f).margin(1e-5));
    CHECK(grey.g == Approx(0.4f).margin(1e-5));
    // Neither the colorize flag nor an FC_ name: its own colour.
    dz.name = "Beacon";
    CHECK(rs::render::dazzleColor(dz, glm::vec3(0.0f, 0.0f, 1.0f)) == dz.color);
    dz.colorize = true;
    CHECK(rs::render::dazzleColor(dz, glm::vec3(0.0f, 0.0f, 1.0f)).b == Approx(0.8f).margin(1e-5));
    // Blink: a sine pulse over the period while within the bias, else dark; 1 when it does not blink.
    dz.frequency = 0.0f;
    CHECK(rs::render::dazzleBlink(dz, 3.7f) == 1.0f);
    dz.frequency = 1.0f;
    dz.hasBias = true;
    dz.bias = 0.5f;
    CHECK(rs::render::dazzleBlink(dz, 0.25f) == Approx(std::sin(0.25f * float(M_PI))));
    CHECK(rs::render::dazzleBlink(dz, 0.75f) == 0.0f);
}

TEST_CASE("dazzle atlas cells: texX/texY of a texSize grid, clamped, in the file's v-down convention",
          "[render][dazzle]") {
    // render/dazzle_rules.h dazzleRect: the desktop's dazzle layer and the web page take the cell from here.
    rs::Dazzle dz;
    dz.texSize = 2;
    dz.texX = 1;
    dz.texY = 0;
    CHECK(rs::render::dazzleRect(dz) == glm::vec4(0.5f, 0.5f, 1.0f, 0.0f)); // top-right: u0, v0 + cell, u1, v0
    dz.texSize = 4;
    dz.texX = 9;  // clamped to the last column
    dz.texY = -3; // and the first row
    CHECK(rs::render::dazzleRect(dz) == glm::vec4(0.75f, 0.25f, 1.0f, 0.0f));
    dz.texSize = 0; // no atlas: the whole image
    CHECK(rs::render::dazzleRect(dz) == glm::vec4(0.0f, 1.0f, 1.0f, 0.0f));
}
