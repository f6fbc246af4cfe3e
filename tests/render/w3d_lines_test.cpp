// W3D emitters in their line modes, drawn as ww3d2 draws them (part_buf.cpp, particles/w3d_lines.h): render mode 2
// is one ribbon through the particles in birth order, modes 3/4 (line groups) draw each particle as a streak from
// its position back along its velocity for its blur time, the tail black for an additive untextured emitter.
// Writer-made files holding one green additive emitter at the model origin, seen from above; the same emitter in
// quad mode (1) is the comparison.
#include "render_harness.h"

#include "orbit_camera.h"
#include "resolve/resolver.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

// The emitter: green, additive, no texture, moving along +X at 2 units a second, 5 s lives (maxEmissions > 0: that
// many particles in all).
rs::w3d::Emitter greenEmitter(uint32_t renderMode, float rate, float size, float maxEmissions = 0.0f) {
    rs::w3d::Emitter e;
    e.name = "STREAK";
    e.lifetime = 5.0f;
    e.emissionRate = rate;
    e.velocity = {2.0f, 0.0f, 0.0f};
    e.hasInfoV2 = e.hasProps = true;
    e.burstSize = 1;
    e.maxEmissions = maxEmissions;
    e.shader.srcBlend = 1;
    e.shader.destBlend = 1; // additive
    e.renderMode = renderMode;
    e.colorKeys = {{0.0f, {0.0f, 1.0f, 0.0f}}};
    e.opacityKeys = {{0.0f, {1.0f, 0, 0}}};
    e.sizeKeys = {{0.0f, {size, 0, 0}}};
    return e;
}

// Green pixels (the emitter's) in an image: green well above the background, red not.
bool green(QRgb p) { return qGreen(p) > kBg.green() + 60 && qRed(p) < 120; }
QRect greenBox(const QImage& img, int* count = nullptr) {
    QRect box;
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (green(img.pixel(x, y))) {
                box = box.united(QRect(x, y, 1, 1));
                ++n;
            }
    if (count) *count = n;
    return box;
}
// Fraction of the columns of box that hold a green pixel.
double columnsCovered(const QImage& img, const QRect& box) {
    if (box.isEmpty()) return 0.0;
    int covered = 0;
    for (int x = box.left(); x <= box.right(); ++x)
        for (int y = box.top(); y <= box.bottom(); ++y)
            if (green(img.pixel(x, y))) {
                ++covered;
                break;
            }
    return double(covered) / double(box.width());
}

// Shows the emitter alone (at the model origin) at time t, from above.
QImage showAt(QTemporaryDir& dir, const rs::w3d::Emitter& e, double t, size_t* drawn) {
    rs::w3d::ChunkWriter cw;
    rs::w3d::writeEmitter(cw, e);
    // The view frames meshes: an invisible one (degenerate triangles) spanning x -1..3, y -1..1 around the path.
    rs::w3d::RawMesh frame = testQuad("FRAME", "UNIT");
    frame.positions = {{-1, -1, 0}, {3, -1, 0}, {3, 1, 0}, {-1, 1, 0}};
    frame.boundsMin = {-1, -1, 0};
    frame.boundsMax = {3, 1, 0};
    frame.indices = {0, 0, 0, 2, 2, 2};
    rs::w3d::writeMesh(cw, frame);
    const std::vector<uint8_t> bytes = cw.take();
    const QString path = dir.filePath(QStringLiteral("lines_%1.w3d").arg(e.renderMode));
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    const rs::Document doc = rs::Resolver().read(path.toStdString());
    REQUIRE(doc.model);
    REQUIRE(doc.model->particles.size() == 1);
    auto& v = view();
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.labels = false;
    o.markers = false;
    o.showSkeleton = false;
    o.background = kBg;
    v.setOptions(o);
    v.setModel(doc.model, path);
    v.setCameraAngles(0.0f, rs::render::OrbitCamera::kMaxPitch); // from above, framed on the particles
    v.setTime(float(t));
    QImage img = grab();
    if (qEnvironmentVariableIsSet("RIGSCOPE_TEST_DUMP"))
        img.save(qEnvironmentVariable("RIGSCOPE_TEST_DUMP") + QStringLiteral("/w3d_lines_%1.png").arg(e.renderMode));
    *drawn = v.particlesDrawn();
    v.setModel(nullptr, QString());
    return img;
}

} // namespace

TEST_CASE("W3D line mode: one ribbon through the particles in birth order", "[render][particles][w3d]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // 10 a second, 0.05 wide: at 1.05 s ten particles at x = 0.1, 0.3, ..., 1.9.
    size_t quadsDrawn = 0, lineDrawn = 0;
    const QImage quads = showAt(dir, greenEmitter(1, 10.0f, 0.05f), 1.05, &quadsDrawn);
    const QImage line = showAt(dir, greenEmitter(2, 10.0f, 0.05f), 1.05, &lineDrawn);
    REQUIRE_FALSE(quads.isNull());
    REQUIRE_FALSE(line.isNull());
    CHECK(quadsDrawn == 10);
    CHECK(lineDrawn == 9); // segments between consecutive particles
    const QRect qb = greenBox(quads), lb = greenBox(line);
    const double qc = columnsCovered(quads, qb), lc = columnsCovered(line, lb);
    INFO("quads " << qb.width() << "x" << qb.height() << " covering " << qc << "; line " << lb.width() << "x"
                  << lb.height() << " covering " << lc);
    REQUIRE(!lb.isEmpty());
    // The line runs from the first particle to the last without a gap; the quads are separate dots.
    CHECK(lc > 0.95);
    CHECK(qc < 0.7);
    CHECK(lb.width() > lb.height() * 8); // along X, 0.05 wide
}

TEST_CASE("W3D line groups: streaks back along the velocity for the blur time, black tail when additive",
          "[render][particles][w3d]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // One particle (emitted at 1 s) at x = 2 at 2 s, moving at 2 units a second: blur 0.5 s makes a streak back to
    // x = 1, 0.15 wide.
    for (uint32_t mode : {3u, 4u}) {
        rs::w3d::Emitter e = greenEmitter(mode, 1.0f, 0.15f, 1.0f);
        e.blurTime.present = true;
        e.blurTime.keys = {{0.0f, {0.5f, 0, 0}}};
        size_t drawn = 0;
        const QImage streak = showAt(dir, e, 2.0, &drawn);
        size_t quadDrawn = 0;
        const QImage quad = showAt(dir, greenEmitter(1, 1.0f, 0.15f, 1.0f), 2.0, &quadDrawn);
        REQUIRE_FALSE(streak.isNull());
        REQUIRE_FALSE(quad.isNull());
        CHECK(drawn == 1);
        CHECK(quadDrawn == 1);
        const QRect sb = greenBox(streak), qb = greenBox(quad);
        INFO("mode " << mode << ": streak " << sb.width() << "x" << sb.height() << ", quad " << qb.width() << "x"
                     << qb.height());
        REQUIRE(!sb.isEmpty());
        REQUIRE(!qb.isEmpty());
        CHECK(sb.width() > sb.height() * 3); // a streak along X
        CHECK(sb.width() > qb.width() * 3);  // 1 unit long against a 0.15 sprite
        // Head (the particle, x = 2) green, fading to the black tail: compare the two ends of the streak's middle row.
        const int y = sb.center().y();
        int headSide = 0, tailSide = 0;
        for (int k = 0; k < 4; ++k) {
            headSide = std::max(headSide, qGreen(streak.pixel(sb.left() + k, y)));
            tailSide = std::max(tailSide, qGreen(streak.pixel(sb.right() - k, y)));
        }
        // Which screen side is +X depends on the camera; the quad (at x = 2) tells it.
        const bool headLeft = std::abs(qb.center().x() - sb.left()) < std::abs(qb.center().x() - sb.right());
        const int head = headLeft ? headSide : tailSide, tail = headLeft ? tailSide : headSide;
        INFO("head green " << head << ", tail-end green " << tail);
        CHECK(head > tail + 40);
    }
}
