// Particle systems in the view: a corpus system alone is drawn and changes over time, blend modes differ, systems
// named by proxies follow the ALT rules and the proxy bone's animation, and the Particles toggle removes them.
#include "render_harness.h"
#include "test_models.h"

#include "alamo/alamo_writer.h"
#include "alamo/particle_writer.h"
#include "frame_graph.h"
#include "particle_fixtures.h"
#include "particles.h"
#include "resolve/resolver.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include "skip.h"
#include <Qt3DExtras/Qt3DWindow>
#include <catch2/catch.hpp>

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

rs::render::ViewOptions plainOptions() {
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.labels = false;
    o.background = kBg;
    return o;
}

// Writes system with the project's writer and reads it back like the viewer does.
std::shared_ptr<const rs::ParticleSystem> writeAndLoad(const rs::ParticleSystem& s, const QString& file) {
    const std::vector<uint8_t> bytes = rs::alamo::writeParticleSystem(s);
    QFile f(file);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();
    rs::Document doc = rs::Resolver().read(file.toStdString());
    REQUIRE(doc.particles);
    return doc.particles;
}

// A steady cloud: 40 particles a second living 1 s, born in a 2-unit box, size 0.8, colour c with alpha a.
rs::ParticleSystem cloud(rs::ParticleBlend blend, glm::vec3 c, float a) {
    rs::ParticleSystem s;
    s.name = "p_test_cloud";
    rs::ParticleEmitter e = continuousEmitter("cloud", 40, 1.0f);
    e.colorTexture = "p_test_missing_texture.tga";
    e.blend = blend;
    e.params.blendMode = uint32_t(blend);
    e.position.shape = rs::ParticleVolume::Shape::Box;
    e.position.rawShape = 1;
    e.position.min = {-1.0f, -1.0f, -1.0f};
    e.position.max = {1.0f, 1.0f, 1.0f};
    e.size = constantTrack(0.8f);
    e.red = constantTrack(c.r);
    e.green = constantTrack(c.g);
    e.blue = constantTrack(c.b);
    e.alpha = constantTrack(a);
    s.emitters = {e};
    return s;
}

QImage shotAlone(std::shared_ptr<const rs::ParticleSystem> s, const QString& path, float t,
                 rs::render::ViewOptions o = plainOptions()) {
    auto& v = view();
    v.setOptions(o);
    v.setParticleSystem(std::move(s), path);
    v.setCameraAngles(30.0f, 20.0f);
    v.setTime(t);
    return grab();
}

// model (a figure with particle proxies) with options, proxy markers off, and clip, seen from the front at t.
QImage shotFigure(std::shared_ptr<rs::Model> model, const QString& path, rs::render::ViewOptions o,
                  std::shared_ptr<rs::Clip> clip, float t) {
    auto& v = view();
    o.proxies = false;
    v.setOptions(o);
    v.setModel(std::move(model), path);
    v.setClip(std::move(clip));
    v.setCameraAngles(0.0f, 0.0f);
    v.setTime(t);
    return grab();
}

} // namespace

TEST_CASE("a corpus particle system alone is visible and changes over time", "[render][particles][corpus]") {
    const std::string root = corpusRoot();
    const QString file =
        QString::fromStdString(root) + "/alamo/Delta730+Imperial_Civil_War/Data/Art/Models/P_ELECTRICALSTATIC.ALO";
    if (root.empty() || !QFileInfo::exists(file)) {
        RIGSCOPE_SKIP("P_ELECTRICALSTATIC.ALO not in the corpus");
    }
    rs::Document doc = rs::Resolver().read(file.toStdString());
    REQUIRE(doc.particles);
    const QImage a = shotAlone(doc.particles, file, 0.5f);
    const int drawnA = view().particlesDrawn();
    const QImage b = shotAlone(doc.particles, file, 1.5f);
    const int drawnB = view().particlesDrawn();
    REQUIRE_FALSE(a.isNull());
    REQUIRE_FALSE(b.isNull());
    INFO("drawn " << drawnA << " / " << drawnB << ", lit " << countDifferent(a, kBg) << " / " << countDifferent(b, kBg)
                  << ", changed " << countChanged(a, b));
    CHECK(drawnA > 0);
    CHECK(drawnB > 0);
    CHECK(countDifferent(a, kBg) > 150);
    CHECK(countDifferent(b, kBg) > 150);
    CHECK(countChanged(a, b) > 100);
    // Same time, same picture (the simulation is deterministic).
    const QImage a2 = shotAlone(doc.particles, file, 0.5f);
    CHECK(countChanged(a, a2, 8) == 0);
    // The texture lives in the game's archives: soft sprites drawn, the texture reported as missing.
    bool reported = false;
    for (const rs::render::TextureInfo& t : view().textures())
        if (t.parameter == "ParticleTexture" && t.path.isEmpty()) reported = true;
    CHECK(reported);
    // The Particles toggle removes them.
    rs::render::ViewOptions off = plainOptions();
    off.particles = false;
    const QImage none = shotAlone(doc.particles, file, 0.5f, off);
    CHECK(countDifferent(none, kBg) < 40);
    CHECK(view().particlesDrawn() == 0);
}

TEST_CASE("additive particles differ from alpha-blended ones", "[render][particles]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const glm::vec3 c(0.9f, 0.5f, 0.1f);
    auto additive = writeAndLoad(cloud(rs::ParticleBlend::Additive, c, 0.5f), dir.filePath("p_add.alo"));
    auto alpha = writeAndLoad(cloud(rs::ParticleBlend::Alpha, c, 0.5f), dir.filePath("p_alpha.alo"));
    REQUIRE(additive->emitters[0].blend == rs::ParticleBlend::Additive);
    REQUIRE(alpha->emitters[0].blend == rs::ParticleBlend::Alpha);
    const QImage add = shotAlone(additive, dir.filePath("p_add.alo"), 2.0f);
    const QImage blend = shotAlone(alpha, dir.filePath("p_alpha.alo"), 2.0f);
    REQUIRE_FALSE(add.isNull());
    REQUIRE_FALSE(blend.isNull());
    const int changed = countChanged(add, blend, 16);
    INFO("lit " << countDifferent(add, kBg) << " / " << countDifferent(blend, kBg) << ", changed " << changed);
    CHECK(countDifferent(add, kBg) > 300);
    CHECK(countDifferent(blend, kBg) > 300);
    CHECK(changed > 200);
    // Additive only adds light: overlapping sprites saturate towards white; alpha blending never exceeds the
    // particle colour (blue 0.1 * 255 over a background of blue 60 stays at or below 60).
    int addMaxB = 0, blendMaxB = 0, addMaxR = 0;
    for (int y = 0; y < add.height(); ++y)
        for (int x = 0; x < add.width(); ++x) {
            addMaxB = std::max(addMaxB, qBlue(add.pixel(x, y)));
            addMaxR = std::max(addMaxR, qRed(add.pixel(x, y)));
            blendMaxB = std::max(blendMaxB, qBlue(blend.pixel(x, y)));
        }
    INFO("max blue additive " << addMaxB << ", alpha " << blendMaxB << "; max red additive " << addMaxR);
    CHECK(blendMaxB <= kBg.blue() + 4);
    CHECK(addMaxB > kBg.blue() + 10);
    CHECK(addMaxR > 200);
}

TEST_CASE("ALT level with particle proxies differs from ALT0 where the proxies are", "[render][particles][corpus]") {
    const std::string root = corpusRoot();
    const QString file =
        QString::fromStdString(root) + "/alamo/Delta730+Imperial_Civil_War/Data/Art/Models/RV_T2BTANK.ALO";
    if (root.empty() || !QFileInfo::exists(file)) {
        RIGSCOPE_SKIP("RV_T2BTANK.ALO not in the corpus");
    }
    rs::Document doc = rs::Resolver().read(file.toStdString());
    REQUIRE(doc.model);
    auto& v = view();
    auto shot = [&](int alt, bool particles) {
        rs::render::ViewOptions o = plainOptions();
        o.proxies = false; // no markers or labels: only particles differ
        o.alt = alt;
        o.particles = particles;
        v.setOptions(o);
        v.setModel(doc.model, file);
        v.setCameraAngles(30.0f, 20.0f);
        v.setTime(1.0f);
        return grab();
    };
    // The tank names p_electricalstatic (ALT1, ALT2) and p_electricalstatic2 (ALT2), found beside it.
    int found = 0;
    for (const rs::render::ParticleInfo& p : v.particleSystems())
        found += p.emitters > 0 ? 1 : 0;
    const QImage alt1 = shot(1, true);
    found = 0;
    for (const rs::render::ParticleInfo& p : v.particleSystems())
        if (p.name.startsWith("p_electricalstatic", Qt::CaseInsensitive)) {
            CHECK_FALSE(p.file.isEmpty());
            CHECK(p.emitters > 0);
            ++found;
        }
    CHECK(found == 3);
    const int drawnAlt1 = v.particlesDrawn();
    const QImage alt1Off = shot(1, false);
    const QImage alt0 = shot(0, true);
    const int drawnAlt0 = v.particlesDrawn();
    const QImage alt0Off = shot(0, false);
    REQUIRE_FALSE(alt1.isNull());
    INFO("drawn ALT1 " << drawnAlt1 << ", ALT0 " << drawnAlt0 << "; changed ALT1 " << countChanged(alt1, alt1Off)
                       << ", ALT0 " << countChanged(alt0, alt0Off));
    CHECK(drawnAlt1 > 0);
    CHECK(drawnAlt0 == 0); // ALT0 has no particle proxies
    CHECK(countChanged(alt1, alt1Off, 16) > 30);
    CHECK(countChanged(alt0, alt0Off, 16) == 0);
    // Where ALT1 differs from ALT0 includes where its particles are.
    const QRect sparks = changedBox(alt1, alt1Off, 16);
    const QRect altDiff = changedBox(alt1, alt0, 16);
    CHECK(altDiff.intersects(sparks));
}

TEST_CASE("particles on a proxy follow the bone's animation and the ALT rules", "[render][particles]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // makeFigure's proxy p_smoke_ALT1 (Head) names P_SMOKE.ALO; add p_follow on the arm, whose clip swings it up.
    rs::ParticleSystem smoke = cloud(rs::ParticleBlend::Additive, {0.2f, 1.0f, 0.3f}, 1.0f);
    smoke.name = "p_smoke";
    smoke.emitters[0].position.min = {-0.3f, -0.3f, -0.3f};
    smoke.emitters[0].position.max = {0.3f, 0.3f, 0.3f};
    writeAndLoad(smoke, dir.filePath("P_SMOKE.ALO"));
    rs::ParticleSystem follow = cloud(rs::ParticleBlend::Additive, {1.0f, 0.2f, 1.0f}, 1.0f);
    follow.name = "p_follow";
    follow.emitters[0].params.lifetime = 0.05f;
    follow.emitters[0].params.particlesPerSecond = 400;
    follow.emitters[0].position.shape = rs::ParticleVolume::Shape::Point;
    follow.emitters[0].position.rawShape = 0;
    follow.emitters[0].position.point = {1.6f, 0.0f, 0.0f}; // towards the arm's tip
    writeAndLoad(follow, dir.filePath("p_follow.alo"));

    auto model = makeFigure();
    int arm = -1;
    for (size_t b = 0; b < model->skeleton.bones.size(); ++b)
        if (model->skeleton.bones[b].name == "Arm") arm = int(b);
    REQUIRE(arm >= 0);
    rs::Proxy px;
    px.name = "p_follow";
    px.bone = arm;
    model->proxies.push_back(px);
    const QString path = dir.filePath("figure.alo");
    auto& v = view();
    auto shot = [&](int alt, bool particles, float t) {
        rs::render::ViewOptions o = plainOptions();
        o.alt = alt;
        o.particles = particles;
        return shotFigure(model, path, o, makeArmClip(), t);
    };
    const QList<rs::render::ParticleInfo> infos = v.particleSystems();
    // Arm down (t = 0) and up (t = 1 s): the p_follow particles move up with the arm's tip.
    const QImage down = shot(0, true, 0.0f), downOff = shot(0, false, 0.0f);
    const QImage up = shot(0, true, 0.99f), upOff = shot(0, false, 0.99f);
    const QRect boxDown = changedBox(down, downOff, 16), boxUp = changedBox(up, upOff, 16);
    INFO("particles down " << boxDown.x() << "," << boxDown.y() << " " << boxDown.width() << "x" << boxDown.height()
                           << "; up " << boxUp.x() << "," << boxUp.y() << " " << boxUp.width() << "x"
                           << boxUp.height());
    REQUIRE_FALSE(boxDown.isEmpty());
    REQUIRE_FALSE(boxUp.isEmpty());
    CHECK(boxUp.center().y() < boxDown.center().y() - 20);
    // p_smoke_ALT1 draws at ALT1 only, above the head.
    const QImage alt1 = shot(1, true, 0.0f), alt1Off = shot(1, false, 0.0f);
    const int greenAlt1 = countChanged(alt1, alt1Off, 16) - countChanged(down, downOff, 16);
    INFO("extra changed pixels at ALT1 " << greenAlt1);
    CHECK(greenAlt1 > 50);
    // The bone tree's facts: which proxy carries which system, and whether it was found.
    bool smokeFound = false, followFound = false;
    for (const rs::render::ParticleInfo& p : v.particleSystems()) {
        if (p.name == "p_smoke_ALT1") smokeFound = !p.file.isEmpty() && p.emitters == 1;
        if (p.name == "p_follow") followFound = !p.file.isEmpty() && p.bone == arm;
    }
    CHECK(smokeFound);
    CHECK(followFound);
}

TEST_CASE("particle loop length covers bursts and lifetimes", "[render][particles]") {
    rs::ParticleSystem s;
    s.emitters = {burstEmitter("b", 3, 0.5f, 4, 1.0f)}; // last burst at 1.5 s, lives 1 s
    CHECK(rs::render::particleLoopSeconds(s) == Approx(2.5f));
    s.emitters = {continuousEmitter("c", 10, 3.0f)};
    CHECK(rs::render::particleLoopSeconds(s) == Approx(6.0f));
    s.emitters = {continuousEmitter("c", 10, 1e30f)};
    CHECK(rs::render::particleLoopSeconds(s) == Approx(20.0f));
}

TEST_CASE("particle proxies follow the hidden and altDecreaseStayHidden rules", "[render][particles]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    rs::ParticleSystem smoke = cloud(rs::ParticleBlend::Additive, {0.2f, 1.0f, 0.3f}, 1.0f);
    smoke.name = "p_smoke";
    writeAndLoad(smoke, dir.filePath("p_smoke.alo"));
    const QString path = dir.filePath("figure.alo");
    auto& v = view();
    auto drawnAt = [&](const std::shared_ptr<rs::Model>& m, std::initializer_list<int> alts, bool showHidden) {
        rs::render::ViewOptions o = plainOptions();
        o.showHidden = showHidden;
        o.alt = 0;
        v.setOptions(o);
        v.setModel(m, path);
        for (int alt : alts) {
            o.alt = alt;
            v.setOptions(o);
        }
        v.setTime(1.0f);
        return v.particlesDrawn();
    };
    auto model = makeFigure(); // proxy p_smoke_ALT1 on Head
    REQUIRE(model->proxies.size() == 1);
    CHECK(drawnAt(model, {1}, false) > 10);
    CHECK(drawnAt(model, {0}, false) == 0);
    CHECK(drawnAt(model, {2}, false) == 0);
    CHECK(drawnAt(model, {2, 1}, false) > 10); // lowering the level shows it again...
    model->proxies[0].altDecreaseStayHidden = true;
    CHECK(drawnAt(model, {1}, false) > 10);
    CHECK(drawnAt(model, {2, 1}, false) == 0); // ...unless it stays hidden when the level decreases
    model->proxies[0].altDecreaseStayHidden = false;
    model->proxies[0].hidden = true;
    CHECK(drawnAt(model, {1}, false) == 0);
    CHECK(drawnAt(model, {1}, true) > 10);
}

TEST_CASE("a proxy's particle system is found through the mounted game archives", "[render][particles][vfs]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    rs::ParticleSystem smoke = cloud(rs::ParticleBlend::Additive, {0.2f, 1.0f, 0.3f}, 1.0f);
    smoke.name = "p_smoke";
    const std::vector<uint8_t> bytes = rs::alamo::writeParticleSystem(smoke);
    const std::vector<uint8_t> meg = rs::vfs::writeMeg(2, {{"DATA\\ART\\MODELS\\P_SMOKE.ALO", bytes}});
    const QString megPath = dir.filePath("Particles.meg");
    {
        QFile f(megPath);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(meg.data()), qint64(meg.size()));
    }
    QDir(dir.path()).mkpath("models");
    const QString path = dir.filePath("models/figure.alo"); // nothing beside it
    {
        const std::vector<uint8_t> model = rs::alamo::writeModel(*makeFigure());
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(model.data()), qint64(model.size()));
    }
    auto& v = view();
    rs::render::ViewOptions o = plainOptions();
    o.alt = 1;
    v.setOptions(o);
    v.setModel(makeFigure(), path);
    REQUIRE(v.particleSystems().size() == 1);
    CHECK(v.particleSystems()[0].file.isEmpty()); // not mounted yet: not found
    CHECK(v.particlesDrawn() == 0);
    o.resolver = std::make_shared<const rs::Resolver>(
        std::make_shared<const rs::vfs::MountTable>(rs::vfs::mountSingle(megPath.toStdString())));
    v.setOptions(o);
    v.setModel(makeFigure(), path);
    v.setTime(1.0f);
    const QList<rs::render::ParticleInfo> infos = v.particleSystems();
    const int drawn = v.particlesDrawn();
    v.setOptions(plainOptions());
    REQUIRE(infos.size() == 1);
    INFO(infos[0].file.toStdString() << " " << infos[0].error.toStdString());
    CHECK(infos[0].file.contains("Particles.meg", Qt::CaseInsensitive));
    CHECK(infos[0].emitters == 1);
    CHECK(drawn > 10);
}

TEST_CASE("particles keep running when the model's clip loops during playback", "[render][particles]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    rs::ParticleSystem smoke = cloud(rs::ParticleBlend::Additive, {0.2f, 1.0f, 0.3f}, 1.0f);
    smoke.name = "p_smoke";
    smoke.emitters[0].params.particlesPerSecond = 20;
    smoke.emitters[0].params.lifetime = 5.0f;
    writeAndLoad(smoke, dir.filePath("p_smoke.alo"));
    auto& v = view();
    rs::render::ViewOptions o = plainOptions();
    o.alt = 1; // p_smoke_ALT1
    v.setOptions(o);
    v.setModel(makeFigure(), dir.filePath("figure.alo"));
    v.setClip(makeArmClip()); // 1 s loop (frames 0..10 at 10 fps)
    // Playback as the timeline drives it: small steps of the wrapped frame position, 1.5 s in all.
    int drawnEarly = 0;
    for (int step = 0; step <= 30; ++step) {
        v.setFrame(std::fmod(float(step) * 0.5f, 10.0f));
        if (step == 10) drawnEarly = v.particlesDrawn(); // 0.5 s
    }
    const int drawnAfterLoop = v.particlesDrawn(); // pose at 0.5 s of its second loop, particles at 1.5 s
    INFO("drawn at 0.5 s " << drawnEarly << ", after the loop " << drawnAfterLoop);
    CHECK(drawnAfterLoop >= drawnEarly + 15);
    // A jump (scrub) puts the particles back on the pose time.
    v.setFrame(5.0f);
    v.setFrame(2.0f);
    const int drawnScrub = v.particlesDrawn();
    v.setModel(makeFigure(), dir.filePath("figure.alo"));
    v.setClip(makeArmClip());
    v.setFrame(2.0f);
    CHECK(drawnScrub == v.particlesDrawn());
}

TEST_CASE("heat-distortion emitters are listed as not drawn", "[render][particles]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    rs::ParticleSystem s = cloud(rs::ParticleBlend::Additive, {1.0f, 1.0f, 1.0f}, 1.0f);
    rs::ParticleEmitter heat = s.emitters[0];
    heat.name = "shimmer";
    heat.blend = rs::ParticleBlend::Heat;
    heat.params.blendMode = 10;
    s.emitters.push_back(heat);
    auto sys = writeAndLoad(s, dir.filePath("p_heat.alo"));
    auto& v = view();
    v.setOptions(plainOptions());
    v.setParticleSystem(sys, dir.filePath("p_heat.alo"));
    v.setTime(1.0f);
    const QList<rs::render::ParticleInfo> infos = v.particleSystems();
    REQUIRE(infos.size() == 1);
    CHECK(infos[0].emitters == 2);
    REQUIRE(infos[0].notDrawn.size() == 1);
    CHECK(infos[0].notDrawn[0].contains("shimmer"));
    CHECK(infos[0].notDrawn[0].contains("heat"));
    // Only the additive emitter's particles are drawn (40 a second, 1 s lives).
    CHECK(v.particlesDrawn() > 30);
    CHECK(v.particlesDrawn() <= 41);
}

TEST_CASE("alpha-blended particles are drawn far to near", "[render][particles]") {
    // A stream along +Y: 4 particles a second living 1 s at 3 units a second, size 2, alpha 0.85; blue when born,
    // red when old. Seen along the stream from +Y, the old (red) particles are nearest; from -Y the young (blue)
    // ones. Drawn far to near, the nearest colour covers the middle of the image from either side; any fixed
    // order (e.g. birth order) puts the far colour on top from one of the two sides.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    rs::ParticleSystem s;
    s.name = "p_test_stream";
    rs::ParticleEmitter e = continuousEmitter("stream", 4, 1.0f);
    e.colorTexture = "p_test_missing_texture.tga";
    e.blend = rs::ParticleBlend::Alpha;
    e.params.blendMode = uint32_t(rs::ParticleBlend::Alpha);
    e.velocity.point = {0.0f, 3.0f, 0.0f};
    e.size = constantTrack(2.0f);
    e.red.keys = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    e.green = constantTrack(0.0f);
    e.blue.keys = {{0.0f, 1.0f}, {1.0f, 0.0f}};
    e.alpha = constantTrack(0.85f);
    s.emitters = {e};
    const QString path = dir.filePath("p_test_stream.alo");
    auto sys = writeAndLoad(s, path);
    auto& v = view();
    auto middle = [&](float yaw) {
        v.setOptions(plainOptions());
        v.setParticleSystem(sys, path);
        v.setCameraAngles(yaw, 0.0f);
        v.setTime(2.1f);
        const QImage img = grab();
        REQUIRE_FALSE(img.isNull());
        REQUIRE(v.particlesDrawn() >= 3);
        // Mean colour of the middle 9x9 pixels.
        long r = 0, b = 0;
        for (int y = img.height() / 2 - 4; y <= img.height() / 2 + 4; ++y)
            for (int x = img.width() / 2 - 4; x <= img.width() / 2 + 4; ++x) {
                r += qRed(img.pixel(x, y));
                b += qBlue(img.pixel(x, y));
            }
        return std::make_pair(r / 81, b / 81);
    };
    const auto fromPlusY = middle(0.0f);    // old (red) particles nearest
    const auto fromMinusY = middle(180.0f); // young (blue) particles nearest
    INFO("from +Y r " << fromPlusY.first << " b " << fromPlusY.second << "; from -Y r " << fromMinusY.first << " b "
                      << fromMinusY.second);
    CHECK(fromPlusY.first > fromPlusY.second + 40);
    CHECK(fromMinusY.second > fromMinusY.first + 40);
}

// Emitters draw in the system's order (the engine's: one draw per system in creation order), whatever order Qt3D
// gathers the entities in. Four emitters of one particle each at the origin, the soft round sprite (no texture):
// alpha red at alpha 1, additive green, alpha blue at alpha 0.5, additive red at alpha 0.2. The sprite's own alpha
// s at the middle of the picture is measured from the red emitter drawn alone (red = bg + s (255 - bg)); the four
// in their order then give, channel by channel, blend(blue, 0.5 s) over (red over bg at s, plus green s), plus
// red 0.2 s. The reverse order gives a colour at least 20/255 away (checked), as would most others.
TEST_CASE("emitters draw in the system's order", "[render][particles]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto one = [](const char* name, rs::ParticleBlend blend, glm::vec3 c, float a) {
        rs::ParticleEmitter e = burstEmitter(name, 1, 1.0f, 1, 10.0f);
        e.colorTexture = "p_test_missing_texture.tga";
        e.blend = blend;
        e.params.blendMode = uint32_t(blend);
        e.size = constantTrack(2.0f);
        e.red = constantTrack(c.r);
        e.green = constantTrack(c.g);
        e.blue = constantTrack(c.b);
        e.alpha = constantTrack(a);
        return e;
    };
    const std::vector<rs::ParticleEmitter> four = {one("red", rs::ParticleBlend::Alpha, {1, 0, 0}, 1.0f),
                                                   one("green", rs::ParticleBlend::Additive, {0, 1, 0}, 1.0f),
                                                   one("blue", rs::ParticleBlend::Alpha, {0, 0, 1}, 0.5f),
                                                   one("glow", rs::ParticleBlend::Additive, {1, 0, 0}, 0.2f)};
    // Mean colour (0..1) of the middle 5x5 pixels with the emitters `ems`, from yaw.
    auto middle = [&](const std::vector<rs::ParticleEmitter>& ems, const char* file, float yaw) {
        rs::ParticleSystem s;
        s.name = "p_test_order";
        s.emitters = ems;
        const QString path = dir.filePath(file);
        auto sys = writeAndLoad(s, path);
        auto& v = view();
        v.setOptions(plainOptions());
        v.setParticleSystem(sys, path);
        v.setCameraAngles(yaw, 20.0f);
        v.setTime(0.5f);
        const QImage img = grab();
        REQUIRE_FALSE(img.isNull());
        REQUIRE(v.particlesDrawn() == int(ems.size()));
        glm::vec3 c(0.0f);
        for (int y = img.height() / 2 - 2; y <= img.height() / 2 + 2; ++y)
            for (int x = img.width() / 2 - 2; x <= img.width() / 2 + 2; ++x)
                c += glm::vec3(qRed(img.pixel(x, y)), qGreen(img.pixel(x, y)), qBlue(img.pixel(x, y)));
        return c / (25.0f * 255.0f);
    };
    const glm::vec3 bg(kBg.redF(), kBg.greenF(), kBg.blueF());
    for (const float yaw : {30.0f, 210.0f}) {
        const float s = (middle({four[0]}, "p_red.alo", yaw).r - bg.r) / (1.0f - bg.r);
        REQUIRE(s > 0.2f);
        auto over = [](glm::vec3 dst, glm::vec3 c, float a) { return c * a + dst * (1.0f - a); };
        auto add = [](glm::vec3 dst, glm::vec3 c, float a) { return glm::min(dst + c * a, glm::vec3(1.0f)); };
        const glm::vec3 inOrder =
            add(over(add(over(bg, {1, 0, 0}, s), {0, 1, 0}, s), {0, 0, 1}, 0.5f * s), {1, 0, 0}, 0.2f * s);
        const glm::vec3 reversed =
            over(add(over(add(bg, {1, 0, 0}, 0.2f * s), {0, 0, 1}, 0.5f * s), {0, 1, 0}, s), {1, 0, 0}, s);
        const glm::vec3 got = middle(four, "p_order.alo", yaw);
        INFO("yaw " << yaw << ": sprite alpha " << s << "; middle " << got.r * 255 << ", " << got.g * 255 << ", "
                    << got.b * 255 << "; in order " << inOrder.r * 255 << ", " << inOrder.g * 255 << ", "
                    << inOrder.b * 255 << "; reversed " << reversed.r * 255 << ", " << reversed.g * 255 << ", "
                    << reversed.b * 255);
        REQUIRE(glm::length(inOrder - reversed) * 255.0f > 20.0f);
        CHECK(glm::all(glm::lessThanEqual(glm::abs(got - inOrder), glm::vec3(6.0f / 255.0f))));
    }
}

TEST_CASE("large particles are drawn at low resolution, behind the model where it hides them",
          "[render][particles][lowres]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto model = makeFigure();
    rs::Proxy px;
    px.name = "p_big";
    px.bone = 0;
    model->proxies.push_back(px);
    const QString path = dir.filePath("figure.alo");
    auto& v = view();
    auto shot = [&](bool lowRes, bool particles) {
        rs::render::ViewOptions o = plainOptions();
        o.particles = particles;
        o.lowResParticles = lowRes;
        return shotFigure(model, path, o, nullptr, 2.0f);
    };
    struct Case {
        rs::ParticleBlend blend;
        float size, alpha;
        int divisor;
    };
    // Particles as tall as the figure around it (some in front of it, some behind), then particles covering the
    // whole view many times over, drawn at an eighth of the resolution.
    for (const Case& k :
         {Case{rs::ParticleBlend::Additive, 3.0f, 0.35f, 4}, Case{rs::ParticleBlend::Alpha, 3.0f, 0.35f, 4},
          Case{rs::ParticleBlend::Alpha, 40.0f, 0.05f, 8}}) {
        const rs::ParticleBlend blend = k.blend;
        rs::ParticleSystem big = cloud(blend, {0.9f, 0.6f, 0.2f}, k.alpha);
        big.name = "p_big";
        big.emitters[0].size = constantTrack(k.size);
        big.emitters[0].position.min = {-2.0f, -2.0f, 0.0f};
        big.emitters[0].position.max = {2.0f, 2.0f, 4.0f};
        writeAndLoad(big, dir.filePath("P_BIG.ALO"));
        const QImage none = shot(true, false);
        const QImage full = shot(false, true);
        CHECK_FALSE(v.particlesLowRes());
        const QImage low = shot(true, true);
        CHECK(v.particlesLowRes());
        CHECK(v.particlesLowResDivisor() == k.divisor);
        REQUIRE_FALSE(none.isNull());
        REQUIRE_FALSE(full.isNull());
        REQUIRE_FALSE(low.isNull());
        // The same picture within the blur of a quarter resolution: particles visible, the figure in front of
        // those behind it (a low-resolution target without the figure's depth would cover it).
        const int lit = countChanged(full, none, 16);
        const int differ = countChanged(low, full, 40);
        const double mean = meanDifference(low, full);
        INFO("blend " << int(blend) << " size " << k.size << ": particles change " << lit
                      << " px; low vs full: " << differ << " px off by > 40, mean difference " << mean);
        CHECK(lit > low.width() * low.height() / 10);
        CHECK(differ < lit / 20);
        CHECK(mean < 3.0);
    }
    // A large modulating emitter beside a large alpha one: modulate has no low-resolution pass, so it stays at full
    // size while the alpha particles go to the low-resolution target (it must not be dropped by both passes).
    {
        rs::ParticleSystem one = cloud(rs::ParticleBlend::Alpha, {0.9f, 0.6f, 0.2f}, 0.35f);
        one.name = "p_big";
        one.emitters[0].size = constantTrack(3.0f);
        writeAndLoad(one, dir.filePath("P_BIG.ALO"));
        const QImage alphaOnly = shot(true, true);
        rs::ParticleSystem two = one;
        rs::ParticleSystem dark = cloud(rs::ParticleBlend::Modulate, {0.1f, 0.1f, 0.1f}, 1.0f);
        dark.emitters[0].name = "dark";
        dark.emitters[0].size = constantTrack(3.0f);
        two.emitters.push_back(dark.emitters[0]);
        writeAndLoad(two, dir.filePath("P_BIG.ALO"));
        // (Not compared with the full-size picture: the low-resolution particles are composited after every
        // full-size transparent draw, so the order of the two emitters differs; see FrameGraph.)
        const QImage low = shot(true, true);
        CHECK(v.particlesLowRes());
        const int darkened = countChanged(low, alphaOnly, 24);
        INFO("alpha + modulate: darkened " << darkened << " px");
        CHECK(darkened > low.width() * low.height() / 20);
    }
    // Small particles stay at full resolution.
    rs::ParticleSystem small = cloud(rs::ParticleBlend::Additive, {0.9f, 0.6f, 0.2f}, 0.35f);
    small.name = "p_big";
    small.emitters[0].size = constantTrack(0.3f);
    writeAndLoad(small, dir.filePath("P_BIG.ALO"));
    shot(true, true);
    CHECK(v.particlesDrawn() > 0);
    CHECK_FALSE(v.particlesLowRes());
}

TEST_CASE("the low-resolution composite covers the tiles its particles reach, not the whole window",
          "[render][particles][lowres]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto model = makeFigure();
    rs::Proxy px;
    px.name = "p_big";
    px.bone = 0;
    model->proxies.push_back(px);
    const QString path = dir.filePath("figure.alo");
    auto& v = view();
    // Large particles at the figure's top right and bottom left only: the composite must cover every pixel they
    // change and leave out most of the window.
    rs::ParticleSystem side = cloud(rs::ParticleBlend::Alpha, {0.9f, 0.6f, 0.2f}, 0.35f);
    side.name = "p_big";
    side.emitters[0].size = constantTrack(0.9f);
    side.emitters[0].position.min = {1.2f, -0.3f, 2.4f};
    side.emitters[0].position.max = {1.6f, 0.3f, 2.8f};
    // A second cloud at the bottom left: the bounds of both together are nearly the whole window.
    side.emitters.push_back(side.emitters[0]);
    side.emitters[1].name = "cloud2";
    side.emitters[1].position.min = {-1.6f, -0.3f, 0.0f};
    side.emitters[1].position.max = {-1.2f, 0.3f, 0.4f};
    writeAndLoad(side, dir.filePath("P_BIG.ALO"));
    // A window of 15 x 12 tiles (the harness's 320x240 is 5 x 4).
    v.window()->resize(960, 720);
    struct Restore {
        rs::render::SceneView& v;
        ~Restore() { v.window()->resize(320, 240); }
    } restore{v};
    auto shot = [&](bool lowRes, bool particles) {
        rs::render::ViewOptions o = plainOptions();
        o.particles = particles;
        o.lowResParticles = lowRes;
        return shotFigure(model, path, o, nullptr, 2.0f);
    };
    const QImage none = shot(true, false);
    const QImage full = shot(false, true);
    const QImage low = shot(true, true);
    REQUIRE(v.particlesLowRes());
    REQUIRE_FALSE(none.isNull());
    REQUIRE_FALSE(full.isNull());
    REQUIRE_FALSE(low.isNull());
    const std::vector<glm::vec4> rects = v.particlesCompositeRects();
    REQUIRE_FALSE(rects.empty());
    double area = 0.0;
    for (const glm::vec4& r : rects)
        area += double(r.z - r.x) * double(r.w - r.y);
    const auto inside = [&](int x, int y, const QImage& img) {
        const float nx = (float(x) + 0.5f) / float(img.width()) * 2.0f - 1.0f;
        const float ny = 1.0f - (float(y) + 0.5f) / float(img.height()) * 2.0f;
        for (const glm::vec4& r : rects)
            if (nx >= r.x && nx <= r.z && ny >= r.y && ny <= r.w) return true;
        return false;
    };
    int lit = 0, outside = 0;
    for (int y = 0; y < full.height(); ++y)
        for (int x = 0; x < full.width(); ++x) {
            const QColor a = full.pixelColor(x, y), b = none.pixelColor(x, y);
            if (std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) <= 16)
                continue;
            ++lit;
            outside += !inside(x, y, full);
        }
    const int differ = countChanged(low, full, 40);
    INFO(rects.size() << " rectangles, " << area / 4.0 << " of the window; particles change " << lit << " px, "
                      << outside << " of them outside; low vs full: " << differ << " px off by > 40");
    CHECK(lit > 500);
    CHECK(outside == 0);
    CHECK(area < 0.5 * 4.0);
    CHECK(differ < lit / 20);
    CHECK(meanDifference(low, full) < 3.0);
}

TEST_CASE("the low-resolution target holds at most a quarter of 1280x720 on larger windows",
          "[render][particles][lowres]") {
    using rs::render::FrameGraph;
    struct Size {
        int w, h, divisor;
    };
    // A quarter up to 1280x720 (what the low-resolution picture is tested against above); larger windows get the
    // smallest divisor whose target fits the budget, so that large particles cost what they cost at 720p.
    for (const Size& s : {Size{320, 240, 4}, Size{1280, 720, 4}, Size{1920, 1080, 6}, Size{2560, 1440, 8},
                          Size{1920, 1200, 7}, Size{3840, 2160, 8}}) {
        const int d = FrameGraph::baseLowResDivisor(s.w, s.h);
        INFO(s.w << "x" << s.h << ": divisor " << d);
        CHECK(d == s.divisor);
        const long pixels = long((s.w + d - 1) / d) * long((s.h + d - 1) / d);
        if (s.w * s.h <= 2560 * 1440) CHECK(pixels <= FrameGraph::kLowResBudgetPixels);
        if (d > FrameGraph::kLowResDivisor) // the smallest such divisor: one less would not fit
            CHECK(long((s.w + d - 2) / (d - 1)) * long((s.h + d - 2) / (d - 1)) > FrameGraph::kLowResBudgetPixels);
        CHECK(2 * d <= FrameGraph::kMaxLowResDivisor); // the coarse target (doubled) stays within the bound
    }
}

TEST_CASE("emitters with a tail draw kites trailing behind the particle", "[render][particles][kites]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // One particle moving at 2 units/s, size 1; the same with a tail of 6 units.
    auto system = [&](bool tail) {
        rs::ParticleSystem s;
        s.name = "p_kite";
        rs::ParticleEmitter e = burstEmitter("spark", 1, 10.0f, 1, 5.0f);
        e.colorTexture = "p_test_missing_texture.tga";
        e.velocity.shape = rs::ParticleVolume::Shape::Point;
        e.velocity.point = {2.0f, 0.0f, 0.0f};
        e.params.hasTail = tail;
        e.params.tailSize = 6.0f;
        s.emitters = {e};
        return writeAndLoad(s, dir.filePath(tail ? "p_kite.alo" : "p_dot.alo"));
    };
    auto dot = system(false), kite = system(true);
    REQUIRE(kite->emitters[0].params.hasTail);
    // Lit pixels' centre (the background is kBg).
    auto centroid = [](const QImage& img) {
        double sx = 0, sy = 0, n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                if (std::abs(c.red() - kBg.red()) + std::abs(c.green() - kBg.green()) +
                        std::abs(c.blue() - kBg.blue()) >
                    30) {
                    sx += x;
                    sy += y;
                    ++n;
                }
            }
        return std::make_pair(QPointF(n > 0 ? sx / n : -1, n > 0 ? sy / n : -1), int(n));
    };
    const auto [a, na] = centroid(shotAlone(dot, dir.filePath("p_dot.alo"), 0.5f));
    const auto [b, nb] = centroid(shotAlone(dot, dir.filePath("p_dot.alo"), 1.0f));
    const auto [t, nt] = centroid(shotAlone(kite, dir.filePath("p_kite.alo"), 1.0f));
    INFO("dot at 0.5 s " << a.x() << "," << a.y() << " (" << na << " px), at 1 s " << b.x() << "," << b.y() << " ("
                         << nb << " px); kite at 1 s " << t.x() << "," << t.y() << " (" << nt << " px)");
    REQUIRE(na > 0);
    REQUIRE(nb > 0);
    REQUIRE(nt > 0);
    const QPointF motion = b - a, shift = t - b;
    REQUIRE(std::hypot(motion.x(), motion.y()) > 3.0);
    CHECK(nt > 2 * nb); // the tail adds area
    // The kite's mass lies behind the particle: opposite to its motion on screen.
    CHECK(QPointF::dotProduct(shift, motion) < 0.0);
    CHECK(std::hypot(shift.x(), shift.y()) > 3.0);
}
