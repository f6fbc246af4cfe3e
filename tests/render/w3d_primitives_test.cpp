// W3D spheres and rings (chunks 0x741 / 0x742) drawn as ww3d2 draws them: a writer-made .w3d holding an additive
// sphere whose colour, alpha and scale are keyframed and an alpha-blended ring whose outer scale grows; the frames at
// several times differ where the keys say (a bigger, brighter sphere; a wider ring), and nothing is drawn with the
// Particles toggle off.
#include "render_harness.h"

#include "resolve/resolver.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

rs::render::ViewOptions plainOptions() {
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.labels = false;
    o.markers = false;
    o.showSkeleton = false;
    o.background = kBg;
    return o;
}

// A unit with a small plate (framing), an additive looping sphere on BODY (2 s: scale 0.3 -> 1.2 at 1 s, colour
// dark red -> bright green, alpha 0.2 -> 1) and an alpha ring on ARM (outer scale 0.5 -> 2 over 1 s, one-shot).
std::vector<uint8_t> primitivesUnit() {
    rs::w3d::ChunkWriter cw;
    rs::w3d::writeHierarchy(cw, testHierarchy());
    rs::w3d::Sphere s;
    s.version = 0x10000;
    s.flags = 8; // looping
    s.name = "UNIT.BLAST";
    s.extent = {1, 1, 1};
    s.duration = 2.0f;
    s.shader.srcBlend = 1;
    s.shader.destBlend = 1; // additive
    s.colorKeys = {{{0.3f, 0, 0}, 0.0f}, {{0, 1, 0.2f}, 0.5f}};
    s.alphaKeys = {{0.2f, 0.0f}, {1.0f, 0.5f}};
    s.scaleKeys = {{{0.3f, 0.3f, 0.3f}, 0.0f}, {{1.2f, 1.2f, 1.2f}, 0.5f}};
    rs::w3d::writeSphere(cw, s);
    rs::w3d::Ring r;
    r.version = 0x10000;
    r.flags = 0; // one-shot, in the bone's XY plane
    r.name = "UNIT.WAVE";
    r.duration = 1.0f;
    r.color = {1.0f, 1.0f, 0.2f};
    r.alpha = 0.9f;
    r.shader.srcBlend = 2;
    r.shader.destBlend = 5; // alpha
    r.innerExtent = {0.3f, 0.3f};
    r.outerExtent = {1.0f, 1.0f};
    r.outerScaleKeys = {{{0.5f, 0.5f}, 0.0f}, {{2.0f, 2.0f}, 1.0f}};
    rs::w3d::writeRing(cw, r);
    rs::w3d::writeMesh(cw, testQuad("PLATE", "UNIT"));
    rs::w3d::Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    rs::w3d::LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "UNIT.PLATE"}};
    h.lods = {lod};
    h.aggregates = {{1, "BLAST"}, {2, "WAVE"}};
    rs::w3d::writeHlod(cw, h);
    return cw.take();
}

int greener(const QImage& a, const QImage& b, int by) { // pixels whose green rose by more than `by` from a to b
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (qGreen(b.pixel(x, y)) > qGreen(a.pixel(x, y)) + by) ++n;
    return n;
}

} // namespace

TEST_CASE("W3D spheres and rings animate their keyframed colour, alpha and scale", "[render][w3d][fx]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("unit.w3d");
    const std::vector<uint8_t> bytes = primitivesUnit();
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    const rs::Document doc = rs::Resolver().read(path.toStdString());
    REQUIRE(doc.model);
    int withFx = 0;
    for (const rs::Marker& m : doc.model->markers)
        if (m.fx) ++withFx;
    REQUIRE(withFx == 2);
    auto& v = view();
    rs::render::ViewOptions o = plainOptions();
    v.setOptions(o);
    v.setModel(doc.model, path);
    v.setCameraAngles(30.0f, 35.0f);

    o.particles = false;
    v.setOptions(o);
    v.setTime(0.0f);
    const QImage off = grab();
    CHECK(v.primitivesDrawn() == 0);
    o.particles = true;
    v.setOptions(o);
    v.setTime(0.0f);
    const QImage start = grab();
    CHECK(v.primitivesDrawn() == 2);
    v.setTime(1.0f); // sphere at its keys' end (scale 1.2, green, alpha 1); ring at outer scale 2
    const QImage later = grab();
    REQUIRE_FALSE(off.isNull());
    REQUIRE_FALSE(start.isNull());
    REQUIRE_FALSE(later.isNull());
    const int drawnAtStart = countChanged(off, start, 24);
    const int changedOverTime = countChanged(start, later, 24);
    const int green = greener(start, later, 60);
    INFO("drawn at 0 s " << drawnAtStart << ", changed 0 -> 1 s " << changedOverTime << ", greener " << green);
    CHECK(drawnAtStart > 100);             // something is drawn at 0 s (the small dark sphere and the ring)
    CHECK(changedOverTime > drawnAtStart); // the sphere and ring grew
    CHECK(green > 300);                    // the sphere turned bright green
    // Looping sphere: at 2.5 s it is a quarter into its second loop (normalised 0.25: half-way between its first keys,
    // smaller and less green than at 1 s; the one-shot ring stays at its last key).
    v.setTime(2.5f);
    const QImage looped = grab();
    REQUIRE_FALSE(looped.isNull());
    CHECK(greener(looped, later, 60) > 300);
    CHECK(v.primitivesNotDrawn().isEmpty()); // no texture, no alpha vector
    v.setModel(nullptr, QString());
}
