// Particles drawn from W3D emitters (a writer-made .w3d with an emitter on a bone) and from a SAGE particle system
// shown on its own (as the Objects panel plays one): pixels where the simulation puts the particles, none with the
// Particles toggle off, and a system that has not emitted yet draws nothing.
#include "render_harness.h"

#include "objects/sage_fx.h"
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

// Red additive sprites rising from BODY: 20 a second, 2 s lives, size 0.6, no texture file.
std::vector<uint8_t> emitterUnit(float rate) {
    rs::w3d::ChunkWriter cw;
    rs::w3d::writeHierarchy(cw, testHierarchy());
    rs::w3d::Emitter e;
    e.name = "SMOKE";
    e.texture = "w3d_test_missing.tga";
    e.lifetime = 2.0f;
    e.emissionRate = rate;
    e.velocity = {0.0f, 0.0f, 1.0f};
    e.hasInfoV2 = e.hasProps = true;
    e.burstSize = 1;
    e.creationVolume = {0, {0.3f, 0.3f, 0.3f}};
    e.shader.srcBlend = 1;
    e.shader.destBlend = 1;
    e.colorKeys = {{0.0f, {1.0f, 0.2f, 0.1f}}};
    e.opacityKeys = {{0.0f, {1.0f, 0, 0}}};
    e.sizeKeys = {{0.0f, {0.6f, 0, 0}}};
    rs::w3d::writeEmitter(cw, e);
    // A small quad so that the model frames around the body (the emitter alone has no extent).
    rs::w3d::writeMesh(cw, testQuad("PLATE", "UNIT"));
    rs::w3d::Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    rs::w3d::LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "UNIT.PLATE"}};
    h.lods = {lod};
    h.aggregates = {{1, "SMOKE"}};
    rs::w3d::writeHlod(cw, h);
    return cw.take();
}

} // namespace

TEST_CASE("a W3D emitter on a bone draws its particles; the Particles toggle removes them",
          "[render][particles][w3d]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("unit.w3d");
    const std::vector<uint8_t> bytes = emitterUnit(20.0f);
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    const rs::Document doc = rs::Resolver().read(path.toStdString());
    REQUIRE(doc.model);
    REQUIRE(doc.model->particles.size() == 1);
    auto& v = view();
    rs::render::ViewOptions o = plainOptions();
    v.setOptions(o);
    v.setModel(doc.model, path);
    v.setCameraAngles(30.0f, 15.0f);
    const QList<rs::render::ParticleInfo> listed = v.particleSystems();
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].name == QStringLiteral("SMOKE"));
    CHECK(listed[0].emitters == 1);
    CHECK(listed[0].bone == 1);

    v.setTime(0.02f); // before the first emission (50 ms): the plate alone
    const QImage before = grab();
    CHECK(v.particlesDrawn() == 0);
    v.setTime(1.5f);
    const QImage during = grab();
    REQUIRE_FALSE(before.isNull());
    REQUIRE_FALSE(during.isNull());
    CHECK(v.particlesDrawn() == 30); // emissions at 0.05 s .. 1.5 s, all alive (2 s lives)
    const int changed = countChanged(before, during, 24);
    // The sprites are red and additive: the pixels they add are redder than the background.
    int redder = 0;
    for (int y = 0; y < during.height(); ++y)
        for (int x = 0; x < during.width(); ++x)
            if (qRed(during.pixel(x, y)) > qRed(before.pixel(x, y)) + 40) ++redder;
    INFO("changed " << changed << ", redder " << redder);
    CHECK(changed > 150);
    CHECK(redder > 150);

    o.particles = false;
    v.setOptions(o);
    const QImage off = grab();
    REQUIRE_FALSE(off.isNull());
    CHECK(v.particlesDrawn() == 0);
    CHECK(countChanged(before, off, 24) < 20);
    v.setModel(nullptr, QString());
}

TEST_CASE("a SAGE particle system played on its own draws its particles", "[render][particles][sage]") {
    const std::string text = R"(ParticleSystem TestGlow
  Priority = ALWAYS_RENDER
  Shader = ADDITIVE
  Type = PARTICLE
  ParticleName = sage_test_missing.tga
  Lifetime = 60.00 60.00
  SystemLifetime = 0
  Size = 3.00 3.00
  Alpha1 = 1.00 1.00 0
  Color1 = R:40 G:255 B:60 0
  BurstDelay = 2.00 2.00
  BurstCount = 1.00 1.00
  InitialDelay = 10.00 10.00
  VelocityType = ORTHO
  VelOrthoX = 0.10 0.10
  VelOrthoY = 0.00 0.00
  VelOrthoZ = 0.20 0.20
  VolumeType = POINT
End
)";
    rs::objects::SageFxLibrary lib;
    lib.readFile(rs::ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()),
                 "data/ini/particlesystem.ini");
    REQUIRE(lib.errors.empty());
    const std::shared_ptr<const rs::ParticleSystem> sys = lib.find("TestGlow");
    REQUIRE(sys);
    auto& v = view();
    v.setOptions(plainOptions());
    v.setParticleSystem(sys, QStringLiteral("data/ini/particlesystem.ini"));
    v.setCameraAngles(30.0f, 20.0f);
    v.setTime(0.2f); // frame 6: before the initial delay of 10 frames
    const QImage before = grab();
    CHECK(v.particlesDrawn() == 0);
    v.setTime(1.0f); // frame 30: bursts at frames 10, 13, ..., 28 (every BurstDelay + 1 frames)
    const QImage during = grab();
    REQUIRE_FALSE(before.isNull());
    REQUIRE_FALSE(during.isNull());
    CHECK(v.particlesDrawn() == 7);
    int greener = 0;
    for (int y = 0; y < during.height(); ++y)
        for (int x = 0; x < during.width(); ++x)
            if (qGreen(during.pixel(x, y)) > qGreen(before.pixel(x, y)) + 40) ++greener;
    INFO("lit " << countDifferent(during, kBg) << ", greener " << greener);
    CHECK(countDifferent(before, kBg) < 10);
    CHECK(greener > 100);
    v.setParticleSystem(nullptr, QString());
}
