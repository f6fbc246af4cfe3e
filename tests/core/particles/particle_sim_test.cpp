// Particle simulation: determinism and scrubbing, counts that follow the spawn parameters, tracks, motion,
// emitter chains, the emitter transform, the caller-owned buffer.
#include "alamo/particle_reader.h"
#include "corpus.h"
#include "heap_meter.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "particle_fixtures.h"
#include "particles/particle_sim.h"

#include <catch2/catch.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <cstring>

using namespace rs;

namespace {

ParticleSystem single(const ParticleEmitter& e) {
    ParticleSystem s;
    s.name = "p_test";
    s.emitters = {e};
    return s;
}

size_t liveAt(const ParticleSystem& s, double t, size_t emitter = 0) {
    ParticleSimulator sim(s);
    ParticleBuffer buf(100000, s.emitters.size());
    sim.evaluate(t, {}, buf);
    REQUIRE(buf.live == buf.count);
    return buf.emitters[emitter].count;
}

bool sameParticles(const ParticleBuffer& a, const ParticleBuffer& b) {
    if (a.count != b.count || a.live != b.live) return false;
    for (size_t i = 0; i < a.count; ++i) {
        const SimParticle &x = a.particles[i], &y = b.particles[i];
        if (std::memcmp(&x.position, &y.position, sizeof x.position) || x.size != y.size || x.color != y.color ||
            x.rotation != y.rotation || x.frame != y.frame || x.emitter != y.emitter || x.age != y.age ||
            x.life != y.life || x.velocity != y.velocity)
            return false;
    }
    return true;
}

ParticleSystem randomised() {
    ParticleEmitter e = test::continuousEmitter("smoke", 40, 1.5f);
    e.position.shape = ParticleVolume::Shape::Sphere;
    e.position.sphereRadius = 2.0f;
    e.velocity.shape = ParticleVolume::Shape::Box;
    e.velocity.min = {-1, -1, 2};
    e.velocity.max = {1, 1, 4};
    e.params.gravity = 3.0f;
    e.params.randomLifetime = 0.5f;
    e.params.randomScale = 0.3f;
    e.params.randomColor = {0.2f, 0.1f, 0.0f, 0.0f};
    e.params.randomRotationDirection = true;
    e.rotationSpeed = test::constantTrack(0.5f);
    e.params.inwardAcceleration = 1.0f;
    ParticleSystem s = single(e);
    s.emitters.push_back(test::burstEmitter("sparks", 20, 0.7f, -1, 0.4f));
    s.emitters[1].velocity.shape = ParticleVolume::Shape::Sphere;
    s.emitters[1].velocity.sphereRadius = 5.0f;
    s.emitters[1].velocity.sphereEdge = true;
    return s;
}

} // namespace

TEST_CASE("particle sim: same seed and time give identical particles; another seed differs", "[particles][sim]") {
    const ParticleSystem s = randomised();
    ParticleSimulator sim(s);
    ParticleBuffer a(4096, 2), b(4096, 2), c(4096, 2);
    ParticleSimOptions o;
    o.seed = 42;
    sim.evaluate(3.3, o, a);
    ParticleSimulator other(s);
    other.evaluate(3.3, o, b);
    REQUIRE(a.count > 50);
    REQUIRE(sameParticles(a, b));
    o.seed = 43;
    sim.evaluate(3.3, o, c);
    REQUIRE(c.count == a.count - a.emitters[0].count + c.emitters[0].count);
    REQUIRE(c.particles[0].position != a.particles[0].position);
}

TEST_CASE("particle sim: scrubbing back and forth equals straight evaluation", "[particles][sim]") {
    const ParticleSystem s = randomised();
    ParticleSimulator sim(s);
    ParticleBuffer scrub(4096, 2), fresh(4096, 2);
    const double times[] = {3.0, 0.25, 7.75, 1.5, 3.0, 0.0, 12.125, 2.9};
    for (double t : times) {
        INFO("t = " << t);
        sim.evaluate(t, {}, scrub);
        ParticleSimulator straight(s);
        straight.evaluate(t, {}, fresh);
        REQUIRE(sameParticles(scrub, fresh));
    }
}

TEST_CASE("particle sim: integration states kept between frames give the output of a cold evaluation",
          "[particles][sim][attraction]") {
    const ParticleSystem s = randomised(); // emitter 0 has inward acceleration: integrated motion
    ParticleSimulator sim(s);
    ParticleBuffer warm(4096, 2);
    ParticleSimOptions o;
    // Playback at 60 fps, then a different emitter transform at the same times (another clip: other births).
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1)
            o.emitterTransform = [](double t) {
                glm::mat4 m(1.0f);
                m[3] = glm::vec4(float(t), 2.0f, 0.5f * float(t), 1.0f);
                return m;
            };
        for (int f = 0; f <= 180; ++f) {
            const double t = f / 60.0;
            INFO("pass " << pass << ", t = " << t);
            sim.evaluate(t, o, warm);
            ParticleBuffer cold(4096, 2); // nothing kept: integrated from birth
            sim.evaluate(t, o, cold);
            REQUIRE(cold.attraction.generation == 1);
            REQUIRE(sameParticles(warm, cold));
        }
    }
    // The warm buffer did keep states (the fast path ran): entries from the last frame with whole steps.
    REQUIRE(warm.attraction.entries.size() == 8192); // a power of two >= 2 x 4096
    int kept = 0;
    for (const AttractionCache::Entry& e : warm.attraction.entries)
        kept += e.generation == warm.attraction.generation && e.steps > 0;
    CHECK(kept > 20);
}

TEST_CASE("particle sim: the live count follows rate x time, lifetime and delay", "[particles][sim]") {
    ParticleEmitter e = test::continuousEmitter("rate", 10, 2.0f);
    const ParticleSystem s = single(e);
    REQUIRE(liveAt(s, -0.5) == 0);
    REQUIRE(liveAt(s, 0.0) == 1);   // the first particle is born at 0
    REQUIRE(liveAt(s, 0.55) == 6);  // born at 0, 0.1, ..., 0.5
    REQUIRE(liveAt(s, 1.95) == 20); // 0 .. 1.9
    REQUIRE(liveAt(s, 5.05) == 20); // steady state: rate x lifetime (born 3.1 .. 5.0)
    REQUIRE(liveAt(s, 1000.05) == 20);
    e.params.initialDelay = 1.0f;
    const ParticleSystem delayed = single(e);
    REQUIRE(liveAt(delayed, 0.95) == 0);
    REQUIRE(liveAt(delayed, 1.25) == 3);
    e.params.particlesPerSecond = 0;
    REQUIRE(liveAt(single(e), 3.0) == 0);
}

TEST_CASE("particle sim: bursts give particles_per_burst every burst_delay for burst_count bursts",
          "[particles][sim]") {
    const ParticleSystem s = single(test::burstEmitter("burst", 5, 1.0f, 3, 0.5f));
    REQUIRE(liveAt(s, 0.2) == 5);
    REQUIRE(liveAt(s, 0.7) == 0);
    REQUIRE(liveAt(s, 1.2) == 5);
    REQUIRE(liveAt(s, 2.2) == 5);
    REQUIRE(liveAt(s, 3.2) == 0); // 3 bursts only
    const ParticleSystem unlimited = single(test::burstEmitter("burst", 5, 1.0f, -1, 0.5f));
    REQUIRE(liveAt(unlimited, 10.2) == 5);
    const ParticleSystem overlap = single(test::burstEmitter("burst", 7, 0.25f, -1, 1.0f));
    REQUIRE(liveAt(overlap, 5.1) == 28); // 4 bursts alive at a time
}

TEST_CASE("particle sim: random lifetime stretches lives within [L, L (1 + r)]", "[particles][sim]") {
    ParticleEmitter e = test::continuousEmitter("var", 50, 1.0f);
    e.params.randomLifetime = 0.5f;
    const ParticleSystem s = single(e);
    ParticleSimulator sim(s);
    ParticleBuffer buf(10000, 1);
    sim.evaluate(10.01, {}, buf);
    // Born in (8.51, 10.01]: between 50 (all living 1 s) and 75 (all living 1.5 s), strictly inside for a spread.
    REQUIRE(buf.count > 55);
    REQUIRE(buf.count < 72);
    float lo = 10, hi = 0;
    for (size_t i = 0; i < buf.count; ++i) {
        lo = std::min(lo, buf.particles[i].life);
        hi = std::max(hi, buf.particles[i].life);
        REQUIRE(buf.particles[i].age < buf.particles[i].life);
    }
    REQUIRE(lo >= 1.0f);
    REQUIRE(hi <= 1.5f);
    REQUIRE(hi - lo > 0.3f);
}

TEST_CASE("particle sim: tracks, gravity, rotation speed and atlas frames at known ages", "[particles][sim]") {
    ParticleEmitter e = test::burstEmitter("one", 1, 1.0f, 1, 2.0f);
    e.red.keys = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    e.alpha.keys = {{0.0f, 1.0f}, {0.5f, 0.0f}, {1.0f, 0.0f}};
    e.size.keys = {{0.0f, 2.0f}, {1.0f, 6.0f}};
    e.rotationSpeed = test::constantTrack(0.25f); // revolutions per second
    e.params.textureFrames = 16;                  // 4 x 4 atlas
    e.frame.keys = {{0.0f, 0.0f}, {1.0f, 20.0f}};
    e.frame.interp = ParticleTrack::Interp::Linear;
    e.params.gravity = 10.0f;
    e.velocity.point = {1.0f, 0.0f, 0.0f};
    const ParticleSystem s = single(e);
    ParticleSimulator sim(s);
    REQUIRE(sim.atlasGrid(0) == 4);
    ParticleBuffer buf(8, 1);
    sim.evaluate(0.5, {}, buf); // t = 0.25
    REQUIRE(buf.count == 1);
    const SimParticle& p = buf.particles[0];
    REQUIRE(p.color.r == Approx(0.25f));
    REQUIRE(p.color.a == Approx(0.5f));
    REQUIRE(p.size == Approx(3.0f));
    REQUIRE(p.rotation == Approx(0.25 * 0.5 * 2 * M_PI));
    REQUIRE(p.frame == 5); // round(5.0)
    REQUIRE(p.position.x == Approx(0.5f));
    REQUIRE(p.position.z == Approx(-0.5f * 10.0f * 0.25f)); // -g a^2 / 2
    REQUIRE(p.velocity.z == Approx(-5.0f));
    REQUIRE(atlasRect(5, 4) == glm::vec4(0.25f, 0.25f, 0.25f, 0.25f)); // column 1, row 1
    REQUIRE(atlasRect(3, 4) == glm::vec4(0.75f, 0.0f, 0.25f, 0.25f));
    sim.evaluate(1.9, {}, buf); // t = 0.95: frame round(19) = 19 -> wraps to 3 in a 16-frame atlas
    REQUIRE(buf.particles[0].frame == 3);
    REQUIRE(buf.particles[0].color.a == 0.0f);
}

TEST_CASE("particle sim: smooth and step tracks integrate exactly", "[particles][sim]") {
    ParticleTrack t;
    t.interp = ParticleTrack::Interp::Smooth;
    t.keys = {{0.0f, 0.0f}, {1.0f, 2.0f}};
    REQUIRE(t.sample(0.5f) == Approx(1.0f));
    REQUIRE(t.sample(0.25f) == Approx(2.0f * (0.0625f * (3 - 0.5f))));
    REQUIRE(t.integral(1.0f) == Approx(1.0f));
    t.interp = ParticleTrack::Interp::Step;
    REQUIRE(t.sample(0.99f) == 0.0f);
    REQUIRE(t.integral(1.0f) == 0.0f);
    t.interp = ParticleTrack::Interp::Linear;
    t.keys = {{0.0f, 1.0f}, {0.5f, 3.0f}, {1.0f, 3.0f}};
    REQUIRE(t.integral(0.5f) == Approx(1.0f));
    REQUIRE(t.integral(1.0f) == Approx(2.5f));
}

TEST_CASE("particle sim: spawn-during-life follows the parent particle, spawn-on-death bursts where it dies",
          "[particles][sim]") {
    const ParticleSystem s = test::chainFixture();
    ParticleSimulator sim(s);
    REQUIRE(sim.topLevel(0));
    REQUIRE(!sim.topLevel(1));
    REQUIRE(!sim.topLevel(2));
    ParticleBuffer buf(1000, 3);
    sim.evaluate(1.05, {}, buf);
    REQUIRE(buf.emitters[0].count == 1);
    REQUIRE(buf.particles[0].position.x == Approx(1.05f));
    REQUIRE(buf.emitters[1].count == 5); // trail particles born at 0.6 .. 1.0 live 0.5 s
    for (uint32_t i = 0; i < buf.emitters[1].count; ++i) {
        const SimParticle& p = buf.particles[buf.emitters[1].begin + i];
        REQUIRE(p.emitter == 1);
        // Each was born where the parent was (x = birth time) and does not move.
        REQUIRE(p.position.x == Approx(1.05f - p.age).margin(1e-5));
        REQUIRE(p.color.r == Approx(std::min(1.0f, p.age / 0.5f < 0.25f ? 0.8f * p.age / 0.5f
                                                                        : 0.2f + (p.age / 0.5f - 0.25f) / 0.75f * 0.8f))
                                 .margin(1e-4));
    }
    REQUIRE(buf.emitters[2].count == 0); // the parent is alive
    sim.evaluate(2.35, {}, buf);         // the parent died at 2.0
    REQUIRE(buf.emitters[0].count == 0);
    REQUIRE(buf.emitters[1].count == 1); // only the one born at 1.9: spawning stopped with the parent
    REQUIRE(buf.emitters[2].count == 4); // the death burst
    for (uint32_t i = 0; i < 4; ++i) {
        const SimParticle& p = buf.particles[buf.emitters[2].begin + i];
        REQUIRE(p.position.x == Approx(2.0f));
        REQUIRE(p.age == Approx(0.35f));
    }
    sim.evaluate(3.05, {}, buf);
    REQUIRE(buf.count == 0);
}

TEST_CASE("particle sim: particles are born on the animated emitter; link_to_system keeps them attached",
          "[particles][sim]") {
    ParticleEmitter e = test::continuousEmitter("moving", 10, 1.0f);
    e.position.point = {0.0f, 1.0f, 0.0f};
    ParticleSimOptions o;
    o.emitterTransform = [](double t) {
        glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(float(10.0 * t), 0.0f, 0.0f));
        return glm::rotate(m, float(M_PI / 2), glm::vec3(0, 0, 1)); // local +Y -> world -X
    };
    ParticleBuffer buf(100, 1);
    {
        const ParticleSystem s = single(e);
        ParticleSimulator sim(s);
        sim.evaluate(2.05, o, buf);
        REQUIRE(buf.count == 10);
        for (size_t i = 0; i < buf.count; ++i) {
            const SimParticle& p = buf.particles[i];
            REQUIRE(p.position.x == Approx(10.0f * (2.05f - p.age) - 1.0f).margin(1e-4));
            REQUIRE(p.position.y == Approx(0.0f).margin(1e-5));
        }
    }
    e.params.linkToSystem = true;
    const ParticleSystem linked = single(e);
    ParticleSimulator sim(linked);
    sim.evaluate(2.05, o, buf);
    for (size_t i = 0; i < buf.count; ++i)
        REQUIRE(buf.particles[i].position.x == Approx(20.5f - 1.0f));
}

TEST_CASE("particle sim: the caller's buffer bounds the output; evaluate does not allocate", "[particles][sim]") {
    const ParticleSystem s = single(test::continuousEmitter("many", 100, 1.0f));
    ParticleSimulator sim(s);
    ParticleBuffer buf(30, 1);
    const SimParticle* before = buf.particles.data();
    sim.evaluate(5.005, {}, buf);
    REQUIRE(buf.live == 100);
    REQUIRE(buf.count == 30);
    REQUIRE(buf.emitters[0].count == 30);
    REQUIRE(buf.particles.data() == before);
    REQUIRE(buf.particles.size() == 30);
    if (test::heapMeterActive()) {
        const ParticleSystem chain = test::chainFixture();
        ParticleSimulator c(chain);
        ParticleBuffer b(1000, 3);
        REQUIRE(test::peakHeap([&] { c.evaluate(2.35, {}, b); }) == 0);
    }
}

TEST_CASE("particle sim: maxBirths bounds the births of one evaluation and says so", "[particles][sim]") {
    const ParticleSystem s = single(test::continuousEmitter("many", 100, 1.0f));
    ParticleSimulator sim(s);
    ParticleBuffer all(200, 1), capped(200, 1);
    sim.evaluate(5.005, {}, all);
    REQUIRE(all.live == 100);
    REQUIRE_FALSE(all.truncated);
    ParticleSimOptions o;
    o.maxBirths = 40; // the window holds ~100 births (one lifetime at 100/s, plus the events around it)
    sim.evaluate(5.005, o, capped);
    REQUIRE(capped.truncated);
    REQUIRE(capped.live <= 40);
    REQUIRE(capped.live > 30);
    REQUIRE(capped.count == capped.live);
    // The births made are the same particles as without the bound (the first in the window, in order).
    for (size_t i = 0; i < capped.count; ++i)
        REQUIRE(capped.particles[i].position == all.particles[i].position);
    o.maxBirths = -5; // clamped to none
    sim.evaluate(5.005, o, capped);
    REQUIRE(capped.count == 0);
    REQUIRE(capped.truncated);
}

TEST_CASE("particle sim: hostile parameters stay bounded (huge rates, NaN lifetimes, zero delays)",
          "[particles][sim]") {
    ParticleEmitter e = test::continuousEmitter("flood", 4000000000u, 1.0e30f);
    ParticleSystem s = single(e);
    s.emitters.push_back(test::burstEmitter("zero", 3, 0.0f, -1, NAN));
    s.emitters.push_back(test::burstEmitter("neg", 2, -1.0f, 5, 1.0f));
    ParticleSimulator sim(s);
    ParticleBuffer buf(1000, 3);
    sim.evaluate(1.0e6, {}, buf);
    REQUIRE(buf.truncated);
    REQUIRE(buf.count == 1000);
    REQUIRE(buf.emitters[1].count == 0);
    // A chain multiplies: a million parents a second each running a million children a second. The birth budget
    // ends it (bounded time) and says so.
    ParticleSystem chain = single(test::continuousEmitter("parents", 1000000, 100.0f));
    chain.emitters[0].spawnDuringLife = 1;
    chain.emitters.push_back(test::continuousEmitter("children", 1000000, 100.0f));
    chain.emitters[1].params.inwardAcceleration = 1.0f; // the costly integrated motion, bounded per particle
    ParticleSimulator chainSim(chain);
    ParticleBuffer chainBuf(100, 2);
    chainSim.evaluate(50.0, {}, chainBuf);
    REQUIRE(chainBuf.truncated);
    REQUIRE(chainBuf.count == 100);
    const ParticleSystem neg = single(test::burstEmitter("neg", 2, -1.0f, 5, 1.0f));
    ParticleSimulator negSim(neg);
    ParticleBuffer small(10, 1);
    negSim.evaluate(0.5, {}, small);
    REQUIRE(small.count == 2); // no positive delay: a single burst
    negSim.evaluate(1.5, {}, small);
    REQUIRE(small.count == 0);
}

TEST_CASE("corpus: every particle system simulates to finite particles", "[particles][sim][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    size_t systems = 0;
    for (const std::string& f : test::corpusFiles("alamo", {".alo"})) {
        const std::vector<uint8_t> bytes = readFileBytes(f);
        if (bytes.size() < 4 || bytes[1] != 0x09 || bytes[0] != 0) continue;
        INFO(f);
        ++systems;
        const Document d = Resolver().read(ByteSpan(bytes), f);
        ParticleSimulator sim(*d.particles);
        ParticleBuffer buf(200000, d.particles->emitters.size());
        size_t seen = 0;
        for (double t : {0.05, 0.5, 1.0, 2.5}) {
            sim.evaluate(t, {}, buf);
            REQUIRE(buf.count == buf.live);
            seen += buf.count;
            for (size_t i = 0; i < buf.count; ++i) {
                const SimParticle& p = buf.particles[i];
                REQUIRE(std::isfinite(p.position.x + p.position.y + p.position.z + p.size + p.rotation));
                REQUIRE((p.color.a >= 0.0f && p.color.a <= 1.0f));
                REQUIRE(p.frame < sim.atlasGrid(p.emitter) * sim.atlasGrid(p.emitter));
            }
        }
        REQUIRE(seen > 0);
    }
    REQUIRE(systems >= 18);
}

TEST_CASE("particle sim: size is the size track's world-unit full width, varied by random_scale", "[particles][sim]") {
    // alo-viewer (src/RenderEngine/Particles/ParticleSystem.cpp, SizeModifierPlugins.cpp, DirectX9/
    // ParticleRenderers.cpp): half-extent = key / 2 / (1 + v) * (1 + U(-v, v)), v = random_scale / 2; the quad spans
    // -half..+half. Full width: key * (1 + U(-v, v)) / (1 + v), in [key (1 - v) / (1 + v), key]; no other scale.
    ParticleEmitter e = test::burstEmitter("puffs", 400, 1.0f, 1, 10.0f);
    e.size = test::constantTrack(10.0f);
    e.params.randomScale = 0.5f; // v = 0.25: widths in [6, 10]
    const ParticleSystem s = single(e);
    ParticleSimulator sim(s);
    ParticleBuffer buf(1000, 1);
    sim.evaluate(1.0, {}, buf);
    REQUIRE(buf.count == 400);
    float lo = 1e9f, hi = 0.0f;
    for (size_t i = 0; i < buf.count; ++i) {
        lo = std::min(lo, buf.particles[i].size);
        hi = std::max(hi, buf.particles[i].size);
    }
    CHECK(lo >= 6.0f - 1e-4f);
    CHECK(hi <= 10.0f + 1e-4f);
    CHECK(lo < 6.2f); // the whole range is reached
    CHECK(hi > 9.8f);
    e.params.randomScale = 0.0f;
    const ParticleSystem fixed = single(e);
    ParticleSimulator fixedSim(fixed);
    fixedSim.evaluate(1.0, {}, buf);
    REQUIRE(buf.count == 400);
    CHECK(buf.particles[0].size == Approx(10.0f));
    CHECK(buf.particles[399].size == Approx(10.0f));
}
