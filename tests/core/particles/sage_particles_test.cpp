// SAGE particle systems: the INI reader (objects/sage_fx.h) and the simulation (particles/sage_sim.cpp) against an
// independent frame-by-frame evaluation of the engine's update (Zero Hour's ParticleSystem::update and
// Particle::update, written here as a plain loop over frames).
#include "cli_run.h"
#include "corpus.h"
#include "objects/sage_fx.h"
#include "particles/particle_sim.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unistd.h>

using namespace rs;

namespace {

objects::SageFxLibrary readText(const std::string& text, const std::string& key = "data/ini/test.ini") {
    objects::SageFxLibrary lib;
    lib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()), key);
    return lib;
}

std::string readAll(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

const char* kSeeded = R"(ParticleSystem TestSmoke
  Priority = WEAPON_EXPLOSION
  Shader = ALPHA
  Type = PARTICLE
  ParticleName = EXSmoke.tga
  AngleZ = 0.30 0.30
  AngularRateZ = 0.10 0.10
  AngularDamping = 0.95 0.95
  VelocityDamping = 0.90 0.90
  Gravity = -0.1
  Lifetime = 40.00 40.00
  SystemLifetime = 20
  Size = 2.00 2.00
  StartSizeRate = 0.25 0.25
  SizeRate = 0.50 0.50
  SizeRateDamping = 0.90 0.90
  Alpha1 = 0.20 0.20 0
  Alpha2 = 1.00 1.00 5
  Alpha3 = 0.50 0.50 20
  Alpha4 = 0.00 0.00 35
  Color1 = R:255 G:0 B:0 0
  Color2 = R:0 G:255 B:0 10
  Color3 = R:0 G:0 B:255 30
  ColorScale = 0.00 0.00
  BurstDelay = 4.00 4.00
  BurstCount = 2.00 2.00
  InitialDelay = 3.00 3.00
  DriftVelocity = X:0.05 Y:0.00 Z:0.10
  VelocityType = ORTHO
  VelOrthoX = 1.00 1.00
  VelOrthoY = 0.50 0.50
  VelOrthoZ = 2.00 2.00
  VolumeType = POINT
  WindMotion = Unused
End
)";

// The engine's update, frame by frame, for a template with constant ranges, a point volume and ortho velocity.
struct RefParticle {
    glm::vec3 pos{0}, vel{0};
    float size = 0, sizeRate = 0, angle = 0, angRate = 0, alpha = 0, alphaRate = 0;
    glm::vec3 color{0}, colorRate{0};
    int alphaTarget = 1, colorTarget = 1;
    uint32_t created = 0, lifeLeft = 0;
};

std::vector<RefParticle> engineReference(const SageEmitterParams& s, uint32_t lastFrame) {
    std::vector<RefParticle> live;
    uint32_t delayLeft = uint32_t(s.initialDelay.lo), burstLeft = 0, sysLeft = s.systemLifetime;
    const bool forever = s.systemLifetime == 0;
    float bonus = 0;
    auto alphaRate = [&](const RefParticle& p) {
        if (s.alpha[p.alphaTarget].frame == 0) return 0.0f;
        return (s.alpha[p.alphaTarget].value.lo - s.alpha[p.alphaTarget - 1].value.lo) /
               float(s.alpha[p.alphaTarget].frame - s.alpha[p.alphaTarget - 1].frame);
    };
    auto colorRate = [&](const RefParticle& p) {
        if (s.color[p.colorTarget].frame == 0) return glm::vec3(0);
        return (s.color[p.colorTarget].rgb - s.color[p.colorTarget - 1].rgb) /
               float(s.color[p.colorTarget].frame - s.color[p.colorTarget - 1].frame);
    };
    for (uint32_t frame = 0; frame <= lastFrame; ++frame) {
        if (delayLeft) {
            --delayLeft;
            continue;
        }
        if (forever || sysLeft > 0) {
            if (burstLeft == 0) {
                for (int i = 0; i < int(s.burstCount.lo); ++i) {
                    RefParticle p;
                    p.vel = {s.velOrtho[0].lo, s.velOrtho[1].lo, s.velOrtho[2].lo};
                    p.size = s.size.lo + bonus;
                    bonus = std::min(bonus + s.startSizeRate.lo, 50.0f);
                    p.sizeRate = s.sizeRate.lo;
                    p.angle = s.angleZ.lo;
                    p.angRate = s.angularRateZ.lo;
                    p.alpha = s.alpha[0].value.lo;
                    p.color = s.color[0].rgb;
                    p.created = frame;
                    p.lifeLeft = uint32_t(s.lifetime.lo);
                    p.alphaRate = alphaRate(p);
                    p.colorRate = colorRate(p);
                    live.push_back(p);
                }
                burstLeft = uint32_t(s.burstDelay.lo);
            } else {
                --burstLeft;
            }
        }
        std::vector<RefParticle> kept;
        for (RefParticle p : live) {
            p.vel.z += s.gravity;
            p.vel *= s.velocityDamping.lo;
            p.pos += p.vel + s.drift;
            p.angle += p.angRate;
            p.angRate *= s.angularDamping.lo;
            p.size += p.sizeRate;
            p.sizeRate *= s.sizeRateDamping.lo;
            p.alpha += p.alphaRate;
            if (p.alphaTarget < 8 && s.alpha[p.alphaTarget].frame) {
                if (frame - p.created >= s.alpha[p.alphaTarget].frame) {
                    p.alpha = s.alpha[p.alphaTarget].value.lo;
                    ++p.alphaTarget;
                    p.alphaRate = p.alphaTarget < 8 ? alphaRate(p) : 0.0f;
                }
            } else {
                p.alphaRate = 0;
            }
            p.alpha = std::clamp(p.alpha, 0.0f, 1.0f);
            p.color += p.colorRate;
            if (p.colorTarget < 8 && s.color[p.colorTarget].frame) {
                if (frame - p.created >= s.color[p.colorTarget].frame) {
                    ++p.colorTarget;
                    p.colorRate = p.colorTarget < 8 ? colorRate(p) : glm::vec3(0);
                }
            } else {
                p.colorRate = glm::vec3(0);
            }
            p.color = glm::min(glm::max(p.color, glm::vec3(0.0f, -1e30f, 0.0f)), glm::vec3(1.0f));
            if (p.lifeLeft && --p.lifeLeft == 0) continue;
            if (p.alpha < 0.02f) continue; // ALPHA: invisible
            kept.push_back(p);
        }
        live = kept;
        if (!forever && sysLeft) --sysLeft;
    }
    return live;
}

} // namespace

TEST_CASE("SAGE particle INI: a flat ParticleSystem is read field by field", "[sage-particles]") {
    const objects::SageFxLibrary lib = readText(kSeeded);
    REQUIRE(lib.errors.empty());
    const auto sys = lib.find("testsmoke");
    REQUIRE(sys);
    REQUIRE(sys->emitters.size() == 1);
    const ParticleEmitter& e = sys->emitters[0];
    REQUIRE(e.sage);
    const SageEmitterParams& s = *e.sage;
    CHECK(s.shader == SageEmitterParams::Shader::Alpha);
    CHECK(e.blend == ParticleBlend::Alpha);
    CHECK(e.colorTexture == "EXSmoke.tga");
    CHECK(s.lifetime.lo == 40.0f);
    CHECK(s.systemLifetime == 20);
    CHECK(s.alpha[2].value.lo == 0.5f);
    CHECK(s.alpha[2].frame == 20);
    CHECK(s.color[1].rgb.g == 1.0f);
    CHECK(s.color[1].frame == 10);
    CHECK(s.drift.z == Approx(0.1f));
    CHECK(s.velocityType == SageEmitterParams::Velocity::Ortho);
    CHECK(s.velOrtho[2].lo == 2.0f);
    CHECK(s.gravity == Approx(-0.1f));
}

TEST_CASE("SAGE particles: a seeded system matches the engine's frame-by-frame update", "[sage-particles]") {
    const objects::SageFxLibrary lib = readText(kSeeded);
    const auto sys = lib.find("TestSmoke");
    REQUIRE(sys);
    const SageEmitterParams& s = *sys->emitters[0].sage;
    ParticleSimulator sim(*sys);
    ParticleBuffer buf(4096, sys->emitters.size());
    ParticleSimOptions o;
    o.seed = 7;
    for (const uint32_t frame : {3u, 4u, 10u, 17u, 30u, 51u, 64u}) {
        sim.evaluate(double(frame) / 30.0 + 0.001, o, buf);
        const std::vector<RefParticle> ref = engineReference(s, frame);
        INFO("frame " << frame);
        REQUIRE(buf.count == ref.size());
        REQUIRE(buf.live == ref.size());
        for (size_t i = 0; i < ref.size(); ++i) {
            const SimParticle& p = buf.particles[i];
            const RefParticle& r = ref[i];
            INFO("particle " << i);
            CHECK(p.position.x == Approx(r.pos.x).margin(1e-4));
            CHECK(p.position.y == Approx(r.pos.y).margin(1e-4));
            CHECK(p.position.z == Approx(r.pos.z).margin(1e-4));
            CHECK(p.size == Approx(r.size).margin(1e-4));
            CHECK(p.rotation == Approx(r.angle).margin(1e-4));
            CHECK(p.color.a == Approx(r.alpha).margin(1e-4));
            CHECK(p.color.r == Approx(r.color.r).margin(1e-4));
            CHECK(p.color.g == Approx(r.color.g).margin(1e-4));
            CHECK(p.color.b == Approx(r.color.b).margin(1e-4));
        }
    }
    // Before the initial delay nothing; the system stops bursting after SystemLifetime and its last particles die.
    sim.evaluate(2.0 / 30.0, o, buf);
    CHECK(buf.count == 0);
    sim.evaluate(70.0 / 30.0, o, buf);
    CHECK(buf.count == 0);
}

TEST_CASE("SAGE particles: ColorScale, additive invisibility and lifetime 0", "[sage-particles]") {
    const std::string text = R"(ParticleSystem Glow
  Shader = ADDITIVE
  Lifetime = 0 0
  Size = 1 1
  Color1 = R:255 G:255 B:255 0
  ColorScale = -25.5 -25.5
  BurstDelay = 1000 1000
  BurstCount = 1 1
End
)";
    const objects::SageFxLibrary lib = readText(text);
    REQUIRE(lib.errors.empty());
    const auto sys = lib.find("Glow");
    ParticleSimulator sim(*sys);
    ParticleBuffer buf(16, 1);
    // Colour after n updates: 1 - 0.1 n per channel; removed once r + g + b <= 0.06 (n = 10: 0 each).
    sim.evaluate(4.0 / 30.0, {}, buf); // 5 updates
    REQUIRE(buf.count == 1);
    CHECK(buf.particles[0].color.r == Approx(0.5f).margin(1e-5));
    CHECK(buf.particles[0].color.a == 1.0f); // additive: colour alone
    sim.evaluate(8.0 / 30.0, {}, buf);       // 9 updates: 0.1 each, sum 0.3
    CHECK(buf.count == 1);
    sim.evaluate(9.0 / 30.0, {}, buf); // 10 updates: 0
    CHECK(buf.count == 0);
}

TEST_CASE("SAGE particle INI: hostile values are refused with file, line and column", "[sage-particles]") {
    const std::string text = "ParticleSystem Bad\n"
                             "  Size = abc 1\n"
                             "  Lifetime = 10\n"
                             "  Color1 = R:300 G:0 B:0 0\n"
                             "  DriftVelocity = X:1 Y:nan Z:0\n"
                             "  Bogus = 12\n"
                             "  Shader = SPARKLY\n"
                             "  BurstCount = 1e30 1e30\n"
                             "End\n";
    const objects::SageFxLibrary lib = readText(text, "data/ini/bad.ini");
    REQUIRE(lib.errors.size() == 5);
    CHECK(lib.errors[0].find("data/ini/bad.ini") != std::string::npos);
    CHECK(lib.errors[0].find("line 2, column 3") != std::string::npos);
    CHECK(lib.errors[0].find("not a number") != std::string::npos);
    CHECK(lib.errors[1].find("line 3") != std::string::npos);
    CHECK(lib.errors[2].find("colour component") != std::string::npos);
    CHECK(lib.errors[3].find("line 5") != std::string::npos);
    CHECK(lib.errors[4].find("SPARKLY") != std::string::npos);
    const auto sys = lib.find("Bad");
    REQUIRE(sys);
    const ParticleEmitter& e = sys->emitters[0];
    CHECK(e.sage->size.lo == 0.0f); // refused: default kept
    REQUIRE(e.unknown.size() == 1);
    CHECK(std::string(e.unknown[0].bytes.begin(), e.unknown[0].bytes.end()) == "Bogus = 12");
    CHECK(e.unknown[0].offset == 6);
    bool warned = false;
    for (const std::string& w : sys->warnings)
        warned |= w.find("field Bogus at data/ini/bad.ini:6:3 not understood") != std::string::npos;
    CHECK(warned);
    // A billion particles a burst: the simulation stops at its budget and says so.
    ParticleSimulator sim(*sys);
    ParticleBuffer buf(64, 1);
    ParticleSimOptions o;
    o.maxBirths = 10000;
    sim.evaluate(1.0, o, buf);
    CHECK(buf.truncated);
}

TEST_CASE("SAGE particle INI: Zero Hour's ParticleSystem.ini and FXList.ini", "[sage-particles][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("sage-fx");
    const std::string dir = rs::test::corpusDir() + "/sage-fx/commy2+zerohour/Data/INI/";
    objects::SageFxLibrary lib;
    const std::string ps = readAll(dir + "ParticleSystem.ini"), fx = readAll(dir + "FXList.ini");
    lib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(ps.data()), ps.size()), "data/ini/particlesystem.ini");
    lib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(fx.data()), fx.size()), "data/ini/fxlist.ini");
    CHECK(lib.errors.empty());
    if (!lib.errors.empty()) WARN(lib.errors.front());
    CHECK(lib.systemCount() == 1087);
    CHECK(lib.fxListCount() == 429); // 431 definitions, two names defined twice (the later one stands)
    // Two FXLists defined again, and five Offsets of FX_AsianTVStationDeath written "Y:15:" (read as the engine's
    // sscanf reads them, with a warning).
    REQUIRE(lib.warnings.size() == 7);
    CHECK(lib.warnings[0].find("FX_GattlingExplosionOneFinal defined again") != std::string::npos);
    CHECK(lib.warnings[1].find("fxlist.ini:2590:5: Offset: stray ':' after 15 ignored") != std::string::npos);
    const auto jet = lib.find("JetContrailThin");
    REQUIRE(jet);
    const SageEmitterParams& s = *jet->emitters[0].sage;
    CHECK(s.type == SageEmitterParams::Type::Streak);
    CHECK(s.volumeType == SageEmitterParams::Volume::Line);
    CHECK(s.lineStart.x == 8.0f);
    CHECK(s.velOrtho[0].lo == -2.0f);
    CHECK(s.color[3].rgb.r == Approx(32.0f / 255.0f));
    const objects::FxList* l = lib.fxList("WeaponFX_ToxinShellWeapon");
    REQUIRE(l);
    REQUIRE(l->nuggets.size() == 1);
    CHECK(l->nuggets[0].system == "ToxicShellExplosion");
    CHECK(lib.find(l->nuggets[0].system));
    // JetContrailThin: one particle every 4 frames from frame 0, living 75 frames: 4 after the update of frame 15.
    {
        ParticleSimulator sim(*jet);
        ParticleBuffer buf(64, 1);
        sim.evaluate(0.5, {}, buf);
        CHECK(buf.count == 4);
    }
    // Every system simulates within its budget at a few times.
    size_t withParticles = 0;
    for (const std::string& name : lib.systemNames()) {
        const auto sys = lib.find(name);
        ParticleSimulator sim(*sys);
        ParticleBuffer buf(20000, sys->emitters.size());
        bool any = false;
        for (double t : {0.5, 2.0})
            sim.evaluate(t, {}, buf), any |= buf.count > 0;
        withParticles += any;
    }
    // Most show particles within 2 s; the others start late (scripted sequences with InitialDelay of hundreds of
    // frames), end early, or lose every particle at its first update (ALPHA with alpha < 0.02 after it, as the
    // engine's isInvisible() removes them).
    CHECK(withParticles * 5 > lib.systemCount() * 4);
}

TEST_CASE("SAGE particle INI: BFME II's FXParticleSystem modules", "[sage-particles][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("games/SymoniusGit+TROWMod");
    const std::string dir = rs::test::corpusDir() + "/games/SymoniusGit+TROWMod/data/ini/";
    objects::SageFxLibrary lib;
    const std::string fxp = readAll(dir + "fxparticlesystem.ini"), fxl = readAll(dir + "fxlist.ini");
    lib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(fxp.data()), fxp.size()), "data/ini/fxparticlesystem.ini");
    lib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(fxl.data()), fxl.size()), "data/ini/fxlist.ini");
    // The one error of these files: FX_GandalfBlastSmall's first ParticleSystem nugget has its Name commented out.
    REQUIRE(lib.errors.size() == 1);
    CHECK(lib.errors[0].find("fxlist.ini: field line 4195, column 3: ParticleSystem nugget without a Name") !=
          std::string::npos);
    CHECK(lib.systemCount() > 1900);
    const auto dust = lib.find("AngBuildingContructDust");
    REQUIRE(dust);
    const SageEmitterParams& s = *dust->emitters[0].sage;
    CHECK(s.shader == SageEmitterParams::Shader::Alpha);
    CHECK(s.lifetime.lo == 75.0f);
    CHECK(s.systemLifetime == 2500);
    CHECK(s.size.hi == 10.0f);
    CHECK(s.color[0].rgb.r == Approx(213.0f / 255.0f));
    CHECK(s.color[2].frame == 75);
    CHECK(s.alpha[1].value.hi == Approx(0.35f));
    CHECK(s.sizeRate.lo == 10.0f);
    CHECK(s.velocityDamping.hi == Approx(0.95f));
    CHECK(s.drift.z == Approx(0.5f));
    CHECK(s.velocityType == SageEmitterParams::Velocity::Ortho);
    CHECK(s.velOrtho[1].hi == Approx(0.5f));
    CHECK(s.volumeType == SageEmitterParams::Volume::Box);
    CHECK(s.hollow);
    CHECK(s.boxHalfSize.y == 70.0f);
    const objects::FxList* l = lib.fxList("FX_PallandoFlash");
    REQUIRE(l);
    REQUIRE(l->nuggets.size() == 3);
    CHECK(l->nuggets[0].system == "PallandoFinalLight");
    CHECK(l->nuggets[0].offset.z == 60.0f);
    CHECK(l->nuggets[2].kind == "Sound");
}

TEST_CASE("rigscope-cli particles --system simulates a SAGE system of an INI file", "[sage-particles][cli]") {
    if (!rs::test::cliBuilt()) RIGSCOPE_SKIP("rigscope-cli not built");
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("rigscope-sage-cli-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string ini = (dir / "ParticleSystem.ini").string();
    {
        std::ofstream f(ini, std::ios::binary);
        f << kSeeded << "ParticleSystem Broken\n  Size = x 1\nEnd\n";
    }
    // After the update of frame 17: the bursts of active updates 0, 5 and 10 (delay 3), two particles each.
    const rs::test::CliRun r = rs::test::runCli("particles --json \"" + ini + "\" --system testsmoke --time 0.5834",
                                                rs::test::Stderr::Drop, 60);
    CHECK(r.status == 0);
    CHECK(r.out.find("\"format\":\"sage-particle\"") != std::string::npos);
    CHECK(r.out.find("\"live\":6,") != std::string::npos);
    CHECK(r.out.find("field line 37, column 3: field Size of Broken") != std::string::npos); // ini_errors
    const rs::test::CliRun missing =
        rs::test::runCli("particles --json \"" + ini + "\" --system Nope --time 1", rs::test::Stderr::Merge, 60);
    CHECK(missing.status != 0);
    CHECK(missing.out.find("no particle system Nope defined") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("SAGE particles: a SlaveSystem makes one particle with each of its master's", "[sage-particles]") {
    const std::string text = "ParticleSystem Master\n  Shader = ADDITIVE\n  Lifetime = 30 30\n  Size = 3 3\n"
                             "  Color1 = R:255 G:255 B:255 0\n  BurstDelay = 100 100\n  BurstCount = 2 2\n"
                             "  VelocityDamping = 1 1\n  SlaveSystem = Slave\nEnd\n"
                             "ParticleSystem Slave\n  Shader = ADDITIVE\n  Lifetime = 10 10\n  Size = 2 2\n"
                             "  SizeRate = 0 0\n  Color1 = R:255 G:0 B:0 0\n  SlavePosOffset = X:0 Y:0 Z:5\n"
                             "  BurstCount = 50 50\nEnd\n";
    const objects::SageFxLibrary lib = readText(text);
    REQUIRE(lib.errors.empty());
    const auto sys = lib.find("Master");
    REQUIRE(sys->emitters.size() == 2);
    CHECK(sys->emitters[1].sage->slaveOf == 0);
    ParticleSimulator sim(*sys);
    ParticleBuffer buf(256, 2);
    sim.evaluate(5.0 / 30.0, {}, buf); // 6 updates
    REQUIRE(buf.emitters[0].count == 2);
    REQUIRE(buf.emitters[1].count == 2); // the slave's own BurstCount is not used
    for (uint32_t i = 0; i < 2; ++i) {
        const SimParticle& s = buf.particles[buf.emitters[1].begin + i];
        CHECK(s.position == glm::vec3(0.0f, 0.0f, 5.0f));
        CHECK(s.size == Approx(6.0f)); // master size x slave size
        CHECK(s.color == glm::vec4(1.0f, 0.0f, 0.0f, 1.0f));
    }
    sim.evaluate(12.0 / 30.0, {}, buf); // 13 updates: the slave's particles (10 frames) are gone
    CHECK(buf.emitters[0].count == 2);
    CHECK(buf.emitters[1].count == 0);
}
