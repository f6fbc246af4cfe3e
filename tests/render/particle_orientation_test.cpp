// World-oriented particles (Alamo emitter property 0x2E, ORIENT 1 of render/glsl/particle.vert): the quad lies in
// the world XY plane, as the engine's XY-aligned renderer builds it (corners (+-size, +-size, 0) turned about world
// Z, then moved to the particle), so seen from a camera pitched p degrees above the horizon its height on screen is
// sin(p) (= cos of the angle between its normal, +Z, and the view axis) of a camera-facing quad's, its width the
// same. One opaque particle with a solid texture (sharp edges), measured in pixels against that formula and against
// the quad's corners projected by the view's own camera (render/orbit_camera.h project). The page's check of the
// shared program is in web/tests/browser_test.mjs.
#include "render_harness.h"

#include "alamo/particle_writer.h"
#include "orbit_camera.h"
#include "particle_fixtures.h"
#include "resolve/resolver.h"
#include "texture/texture_writer.h"

#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

void writeBytes(const QString& path, const std::vector<uint8_t>& b) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(b.data()), qint64(b.size()));
}

// One opaque white particle of size 1 at the origin, still, living 20 s, world-oriented or camera-facing, its
// texture a solid white TGA written beside it.
std::shared_ptr<const rs::ParticleSystem> flatParticle(const QString& dir, bool worldOriented) {
    rs::Image img;
    img.width = img.height = 4;
    img.hasAlpha = true;
    img.rgba.assign(4 * 4 * 4, 255);
    writeBytes(dir + "/p_flat_white.tga", rs::writeTga(img, rs::TgaKind::TrueColour32, false, true));
    rs::ParticleSystem s;
    s.name = worldOriented ? "p_flat_world" : "p_flat_facing";
    rs::ParticleEmitter e = burstEmitter("flat", 1, 30.0f, 1, 20.0f);
    e.colorTexture = "p_flat_white.tga";
    e.blend = rs::ParticleBlend::Opaque;
    e.params.blendMode = 0;
    e.params.worldOriented = worldOriented;
    s.emitters = {e};
    const QString file = dir + "/" + QString::fromStdString(s.name) + ".alo";
    writeBytes(file, rs::alamo::writeParticleSystem(s));
    rs::Document doc = rs::Resolver().read(file.toStdString());
    REQUIRE(doc.particles);
    REQUIRE(doc.particles->emitters.at(0).params.worldOriented == worldOriented);
    return doc.particles;
}

struct Extent {
    int width = 0, height = 0; // lit pixels along the row and the column through the particle's centre
    QPointF centre;
};

Extent measure(const QImage& img, QPointF centre) {
    auto lit = [&](int x, int y) {
        const QColor c = img.pixelColor(x, y);
        return std::abs(c.red() - kBg.red()) + std::abs(c.green() - kBg.green()) + std::abs(c.blue() - kBg.blue()) > 60;
    };
    Extent e;
    e.centre = centre;
    const int cx = int(std::lround(centre.x())), cy = int(std::lround(centre.y()));
    for (int y = 0; y < img.height(); ++y)
        e.height += lit(cx, y) ? 1 : 0;
    for (int x = 0; x < img.width(); ++x)
        e.width += lit(x, cy) ? 1 : 0;
    return e;
}

} // namespace

TEST_CASE("world-oriented particles lie in the world XY plane: foreshortened by the camera's pitch",
          "[render][particles][orientation]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto world = flatParticle(dir.path(), true), facing = flatParticle(dir.path(), false);
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.labels = false;
    o.background = kBg;
    auto& v = view();
    v.setOptions(o);
    for (float pitch : {30.0f, 60.0f}) {
        auto shot = [&](std::shared_ptr<const rs::ParticleSystem> s, const char* name) {
            v.setParticleSystem(std::move(s), dir.filePath(name));
            v.setCameraAngles(0.0f, pitch);
            v.setTime(1.0f);
            const QImage img = grab();
            REQUIRE(!img.isNull());
            glm::vec2 c;
            REQUIRE(v.orbitCamera().project(glm::vec3(0.0f), float(img.width()), float(img.height()), c));
            return std::make_pair(img, measure(img, QPointF(c.x, c.y)));
        };
        const auto [fImg, f] = shot(facing, "p_flat_facing.alo");
        const auto [wImg, w] = shot(world, "p_flat_world.alo");
        // The world quad's corners through the view's camera: its extent along the centre's column and row.
        const rs::render::OrbitCamera cam = v.orbitCamera();
        glm::vec2 front, back, left, right;
        REQUIRE(cam.project(glm::vec3(0.0f, -0.5f, 0.0f), float(wImg.width()), float(wImg.height()), front));
        REQUIRE(cam.project(glm::vec3(0.0f, 0.5f, 0.0f), float(wImg.width()), float(wImg.height()), back));
        REQUIRE(cam.project(glm::vec3(-0.5f, 0.0f, 0.0f), float(wImg.width()), float(wImg.height()), left));
        REQUIRE(cam.project(glm::vec3(0.5f, 0.0f, 0.0f), float(wImg.width()), float(wImg.height()), right));
        const float projectedHeight = std::abs(front.y - back.y), projectedWidth = std::abs(right.x - left.x);
        const double ratio = double(w.height) / double(std::max(f.height, 1));
        const double want = std::sin(glm::radians(double(pitch)));
        INFO("pitch " << pitch << ": world quad " << w.width << " x " << w.height << " px, camera-facing " << f.width
                      << " x " << f.height << " px; height ratio " << ratio << ", sin(pitch) " << want
                      << "; corners projected " << projectedWidth << " x " << projectedHeight << " px");
        REQUIRE(f.height > 30);
        CHECK(std::abs(ratio - want) <= 0.1 * want);
        CHECK(std::abs(w.width - f.width) <= std::max(2.0, 0.1 * f.width));
        CHECK(std::abs(w.height - projectedHeight) <= 2.0f);
        CHECK(std::abs(w.width - projectedWidth) <= 2.0f);
    }
}
