// W3D effect objects (emitters 0x500, spheres 0x741, rings 0x742, aggregates 0x600): writer -> reader round trips,
// lossless rewrite, the emitter simulation and the sphere/ring channels against ww3d2's formulas evaluated here,
// placement at bones, and refusals naming the chunk path and offset.
#include "common/error.h"
#include "common/source_tree.h"
#include "particles/particle_sim.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_fx.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <cstring>
#include <memory>

using namespace rs;
using namespace rs::w3d;

namespace {

// A version 2 emitter with every chunk: 10 emissions a second (100 ms), bursts of 2, 1.5 s lives, no randomness.
Emitter fireEmitter() {
    Emitter e;
    e.version = 0x20000;
    e.name = "FIRE";
    e.hasUserData = true;
    e.userType = 0;
    e.userString = "hot";
    e.texture = "fire.tga";
    e.lifetime = 1.5f;
    e.emissionRate = 10.0f;
    e.maxEmissions = 0.0f;
    e.velocity = {1.0f, 0.0f, 2.0f};
    e.acceleration = {0.0f, 0.0f, -4.0f};
    e.hasInfoV2 = true;
    e.burstSize = 2;
    e.creationVolume = {0, glm::vec3(0.0f)};
    e.velocityRandomizer = {0, glm::vec3(0.0f)};
    e.shader.srcBlend = 1;
    e.shader.destBlend = 1; // additive
    e.renderMode = 1;
    e.frameMode = 2; // 4x4
    e.hasProps = true;
    e.colorKeys = {{0.0f, {1.0f, 0.0f, 0.0f}}, {1.0f, {0.0f, 0.0f, 1.0f}}};
    e.opacityKeys = {{0.0f, {1.0f, 0, 0}}, {1.5f, {0.0f, 0, 0}}};
    e.sizeKeys = {{0.0f, {0.5f, 0, 0}}, {1.0f, {1.5f, 0, 0}}};
    e.rotation.present = true;
    e.rotation.keys = {{0.0f, {1.0f, 0, 0}}, {0.5f, {3.0f, 0, 0}}};
    e.frame.present = true;
    e.frame.keys = {{0.0f, {0.0f, 0, 0}}, {1.0f, {8.0f, 0, 0}}};
    e.hasLineProperties = true;
    e.lineFlags = 9;
    e.lineUPerSec = 0.25f;
    e.hasExtraInfo = true;
    e.futureStartTime = 0.0f;
    return e;
}

// The file: the test hierarchy, the emitter, and an HLOD whose aggregate array puts "FIRE" on BODY (pivot 1).
std::vector<uint8_t> emitterFile(const Emitter& e, bool viaAggregateArray = true) {
    ChunkWriter cw;
    writeHierarchy(cw, test::testHierarchy());
    writeEmitter(cw, e);
    Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    if (viaAggregateArray)
        h.aggregates = {{1, e.name}};
    else
        lod.objects = {{1, "UNIT." + e.name}};
    h.lods = {lod};
    writeHlod(cw, h);
    return cw.take();
}

// ww3d2's LERP over age: the first key's value before the second key, linear between keys, held after the last.
glm::dvec3 lerpRef(const std::vector<EmitterKey>& k, double age) {
    for (size_t i = 0; i + 1 < k.size(); ++i)
        if (age < k[i + 1].time) {
            const double t = (age - k[i].time) / (double(k[i + 1].time) - k[i].time);
            return glm::dvec3(k[i].value) + (glm::dvec3(k[i + 1].value) - glm::dvec3(k[i].value)) * t;
        }
    return glm::dvec3(k.back().value);
}

// BODY's world transform in the test hierarchy: T(1, 2, 3) * Rz(90 degrees).
glm::dmat4 bodyWorld() {
    return glm::rotate(glm::translate(glm::dmat4(1.0), glm::dvec3(1, 2, 3)), glm::radians(90.0), glm::dvec3(0, 0, 1));
}

std::shared_ptr<const std::vector<uint8_t>> shared(std::vector<uint8_t> b) {
    return std::make_shared<const std::vector<uint8_t>>(std::move(b));
}

template <class Fn> std::string errorOf(Fn&& fn) {
    try {
        fn();
    } catch (const ParseError& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("W3D emitter: every chunk round-trips through the writer and the reader; rewrite is lossless", "[w3d][fx]") {
    const Emitter in = fireEmitter();
    const std::vector<uint8_t> bytes = emitterFile(in);
    const File f = readFile(ByteSpan(bytes), "fire.w3d");
    REQUIRE(f.emitters.size() == 1);
    const Emitter& e = f.emitters[0];
    CHECK(e.version == 0x20000);
    CHECK(e.name == "FIRE");
    CHECK(e.hasUserData);
    CHECK(e.userString == "hot");
    CHECK(e.texture == "fire.tga");
    CHECK(e.lifetime == 1.5f);
    CHECK(e.emissionRate == 10.0f);
    CHECK(e.velocity == glm::vec3(1, 0, 2));
    CHECK(e.acceleration == glm::vec3(0, 0, -4));
    CHECK(e.burstSize == 2);
    CHECK(e.shader.destBlend == 1);
    CHECK(e.renderMode == 1);
    CHECK(e.frameMode == 2);
    REQUIRE(e.colorKeys.size() == 2);
    CHECK(e.colorKeys[1].time == 1.0f);
    CHECK(e.colorKeys[1].value == glm::vec3(0, 0, 1));
    REQUIRE(e.sizeKeys.size() == 2);
    CHECK(e.sizeKeys[1].value.x == 1.5f);
    REQUIRE(e.rotation.keys.size() == 2);
    CHECK(e.rotation.keys[1].value.x == 3.0f);
    REQUIRE(e.frame.keys.size() == 2);
    CHECK(e.frame.keys[1].value.x == 8.0f);
    CHECK(e.hasLineProperties);
    CHECK(e.lineFlags == 9);
    CHECK(e.lineUPerSec == 0.25f);
    CHECK(e.hasExtraInfo);
    CHECK(e.chunkPath == "0x500");

    // The same bytes again from the reader's values, and from the source tree (payload copy and every node).
    ChunkWriter cw;
    writeHierarchy(cw, f.hierarchies[0]);
    writeEmitter(cw, e);
    writeHlod(cw, f.hlods[0]);
    CHECK(cw.take() == bytes);
    const SourceTree t = w3d::sourceTree(shared(bytes), "fire.w3d");
    CHECK(t.write() == bytes);
    CHECK(t.writeEveryNode() == bytes);
    CHECK(t.quirks().empty());
}

TEST_CASE("W3D emitter on a bone: positions, colours, sizes, rotations, frames at several times (ww3d2 formulas)",
          "[w3d][fx]") {
    const Emitter def = fireEmitter();
    for (bool viaAggregateArray : {true, false}) {
        const std::vector<uint8_t> bytes = emitterFile(def, viaAggregateArray);
        const Document d = loadSet(ByteSpan(bytes), "fire.w3d");
        REQUIRE(d.model);
        REQUIRE(d.model->particles.size() == 1);
        const BoneParticles& bp = d.model->particles[0];
        CHECK(bp.bone == 1); // BODY
        REQUIRE(bp.system);
        REQUIRE(bp.system->emitters.size() == 1);
        const ParticleEmitter& pe = bp.system->emitters[0];
        CHECK(pe.blend == ParticleBlend::Additive);
        CHECK(pe.colorTexture == "fire.tga");
        ParticleSimulator sim(*bp.system);
        CHECK(sim.atlasGrid(0) == 4);
        ParticleBuffer buf(256, 1);
        ParticleSimOptions o;
        const glm::dmat4 M = bodyWorld();
        o.emitterTransform = [&](double) { return glm::mat4(M); };
        for (double T : {0.05, 0.35, 0.95, 1.72, 3.33}) {
            sim.evaluate(T, o, buf);
            // Emissions at k * 0.1 s (k >= 1), 2 particles each, alive while age < 1.5 s.
            std::vector<double> ages;
            for (int k = 1; k * 0.1 <= T + 1e-12; ++k)
                if (T - k * 0.1 < 1.5) ages.push_back(T - k * 0.1), ages.push_back(T - k * 0.1);
            INFO("T = " << T);
            REQUIRE(buf.count == ages.size());
            for (size_t i = 0; i < buf.count; ++i) {
                const SimParticle& p = buf.particles[i];
                const double a = ages[i];
                // Initialize_Particle: p0 = origin, v0 = R * base velocity; then p0 + (v0 + acc a / 2) a.
                const glm::dvec3 v0 = glm::dmat3(M) * glm::dvec3(1, 0, 2);
                const glm::dvec3 acc(0, 0, -4);
                const glm::dvec3 want = glm::dvec3(M[3]) + (v0 + 0.5 * acc * a) * a;
                CHECK(p.position.x == Approx(want.x).margin(1e-4));
                CHECK(p.position.y == Approx(want.y).margin(1e-4));
                CHECK(p.position.z == Approx(want.z).margin(1e-4));
                CHECK(p.age == Approx(a).margin(1e-5));
                const glm::dvec3 c = lerpRef(def.colorKeys, a);
                CHECK(p.color.r == Approx(c.x).margin(1e-4));
                CHECK(p.color.b == Approx(c.z).margin(1e-4));
                CHECK(p.color.a == Approx(lerpRef(def.opacityKeys, a).x).margin(1e-4));
                CHECK(p.size == Approx(lerpRef(def.sizeKeys, a).x).margin(1e-4));
                // Orientation: integral of the rotation speed (1 -> 3 turns/s over 0.5 s, then 3), in radians.
                const double turns = a < 0.5 ? a + 2.0 * a * a : 0.5 + 0.5 + 3.0 * (a - 0.5);
                const double twoPi = 2.0 * 3.14159265358979;
                const double diff = std::remainder(double(p.rotation) - turns * twoPi, twoPi);
                CHECK(std::abs(diff) < 1e-3);
                const double frame = lerpRef(def.frame.keys, a).x;
                if (std::abs(frame - std::round(frame)) > 1e-3) CHECK(p.frame == uint32_t(int(frame)));
            }
        }
    }
}

TEST_CASE("W3D emitter: particle limit, random offsets within their ranges, version 1 conversion", "[w3d][fx]") {
    Emitter e = fireEmitter();
    e.maxEmissions = 5; // 5 particles in all: emissions 1, 2 (2 each) and 3 (1)
    ParticleSystem sys = toParticleSystem(e, "x.w3d");
    ParticleSimulator sim(sys);
    ParticleBuffer buf(64, 1);
    sim.evaluate(0.45, {}, buf);
    CHECK(buf.count == 5);
    sim.evaluate(2.0, {}, buf); // all dead by 1.8 s
    CHECK(buf.count == 0);

    e = fireEmitter();
    e.colorRandom = {51, 0, 0, 0}; // 0.2
    e.sizeRandom = 0.25f;
    e.creationVolume = {0, {2.0f, 1.0f, 0.5f}}; // solid box of half extents (2, 1, 0.5)
    sys = toParticleSystem(e, "x.w3d");
    ParticleSimulator sim2(sys);
    sim2.evaluate(0.95, {}, buf);
    REQUIRE(buf.count == 18);
    bool sizesDiffer = false;
    for (size_t i = 0; i < buf.count; ++i) {
        const SimParticle& p = buf.particles[i];
        const double a = p.age;
        const glm::dvec3 base = glm::dvec3(1, 0, 2) * a + 0.5 * glm::dvec3(0, 0, -4) * a * a;
        CHECK(std::abs(p.position.x - base.x) <= 2.0 + 1e-4);
        CHECK(std::abs(p.position.y - base.y) <= 1.0 + 1e-4);
        CHECK(std::abs(p.position.z - base.z) <= 0.5 + 1e-4);
        const double size = lerpRef(e.sizeKeys, a).x;
        CHECK(std::abs(p.size - size) <= 0.25 + 1e-4);
        sizesDiffer = sizesDiffer || std::abs(p.size - size) > 1e-3;
        CHECK(std::abs(p.color.r - lerpRef(e.colorKeys, a).x) <= 0.2 + 1e-4);
    }
    CHECK(sizesDiffer);

    // Version 1.0: no 0x504/0x505; the start/end colours keyed at FadeTime, the start size, a box of
    // PositionRandom / 1000.
    Emitter v1;
    v1.version = 0x10000;
    v1.name = "OLD";
    v1.texture = "old.tga";
    v1.lifetime = 2.0f;
    v1.emissionRate = 4.0f;
    v1.startSize = 0.75f;
    v1.fadeTime = 1.0f;
    v1.startColor = {255, 255, 255, 255};
    v1.endColor = {0, 0, 0, 0};
    v1.positionRandom = 0.0f;
    ChunkWriter cw;
    writeEmitter(cw, v1);
    const std::vector<uint8_t> bytes = cw.take();
    const File f = readFile(ByteSpan(bytes), "old.w3d");
    REQUIRE(f.emitters.size() == 1);
    CHECK_FALSE(f.emitters[0].hasInfoV2);
    const ParticleSystem s1 = toParticleSystem(f.emitters[0], "old.w3d");
    ParticleSimulator sim1(s1);
    sim1.evaluate(0.6, {}, buf); // one emission at 0.25 s and one at 0.5 s
    REQUIRE(buf.count == 2);
    CHECK(buf.particles[0].size == 0.75f);
    CHECK(buf.particles[0].color.r == Approx(1.0 - 0.35).margin(1e-4));
    CHECK(buf.particles[0].color.a == Approx(1.0 - 0.35).margin(1e-4));
    CHECK(s1.emitters[0].blend == ParticleBlend::Additive);
}

TEST_CASE("W3D sphere and ring: definitions and channels round-trip; colour, alpha and scale at several times",
          "[w3d][fx]") {
    Sphere s;
    s.version = 0x10000;
    s.flags = 8; // looping
    s.name = "UNIT.BLAST";
    s.center = {0, 0, 1};
    s.extent = {2, 2, 2};
    s.duration = 2.0f;
    s.color = {0.5f, 0.5f, 0.5f};
    s.texture = "blast.tga";
    s.shader.destBlend = 1;
    s.colorKeys = {{{1, 0, 0}, 0.0f}, {{0, 1, 0}, 0.5f}, {{0, 0, 1}, 1.0f}};
    s.alphaKeys = {{1.0f, 0.0f}, {0.0f, 1.0f}};
    s.scaleKeys = {{{0.5f, 0.5f, 0.5f}, 0.0f}, {{2, 2, 1}, 0.25f}};
    s.vectorKeys = {{AlphaVector{}, 0.0f}};
    Ring r;
    r.version = 0x10000;
    r.flags = 0; // one-shot
    r.name = "UNIT.WAVE";
    r.duration = 1.0f;
    r.innerExtent = {1, 1};
    r.outerExtent = {2, 2};
    r.textureTiles = 3;
    r.alphaKeys = {{0.0f, 0.0f}, {0.5f, 1.0f}}; // value 0 at time 0, 0.5 at time 1
    r.outerScaleKeys = {{{1, 1}, 0.0f}, {{3, 2}, 1.0f}};
    ChunkWriter cw;
    writeSphere(cw, s);
    writeRing(cw, r);
    const std::vector<uint8_t> bytes = cw.take();
    const File f = readFile(ByteSpan(bytes), "fx.w3d");
    REQUIRE(f.spheres.size() == 1);
    REQUIRE(f.rings.size() == 1);
    const Sphere& S = f.spheres[0];
    CHECK(S.name == "UNIT.BLAST");
    CHECK(S.flags == 8);
    CHECK(S.extent == glm::vec3(2));
    CHECK(S.texture == "blast.tga");
    REQUIRE(S.colorKeys.size() == 3);
    CHECK(S.colorKeys[1].value == glm::vec3(0, 1, 0));
    CHECK(S.colorKeys[1].time == 0.5f);
    REQUIRE(S.scaleKeys.size() == 2);
    REQUIRE(S.vectorKeys.size() == 1);
    const Ring& R = f.rings[0];
    CHECK(R.textureTiles == 3);
    CHECK(R.outerExtent == glm::vec2(2, 2));
    REQUIRE(R.outerScaleKeys.size() == 2);
    CHECK(R.outerScaleKeys[1].value == glm::vec2(3, 2));

    // Sphere: normalised time = seconds / 2, wrapped (looping); colour LERP, alpha LERP, radius = extent * scale.
    for (float sec : {0.0f, 0.3f, 0.5f, 1.2f, 2.6f, 5.0f}) {
        INFO("sphere at " << sec << " s");
        double t = sec / 2.0;
        if (t > 1.0) t = std::fmod(t, 1.0);
        const PrimitiveState st = sphereState(S, sec);
        const glm::dvec3 c =
            t < 0.5 ? glm::dvec3(1 - t / 0.5, t / 0.5, 0) : glm::dvec3(0, 1 - (t - 0.5) / 0.5, (t - 0.5) / 0.5);
        CHECK(st.color.r == Approx(c.x).margin(1e-5));
        CHECK(st.color.g == Approx(c.y).margin(1e-5));
        CHECK(st.color.b == Approx(c.z).margin(1e-5));
        CHECK(st.alpha == Approx(1.0 - t).margin(1e-5));
        const double sc = t < 0.25 ? 0.5 + 1.5 * t / 0.25 : 2.0;
        CHECK(st.outerRadius.x == Approx(2.0 * sc).margin(1e-5));
    }
    // Ring (one-shot): held at the last keys after its duration; inner radius = inner extent * default scale.
    for (float sec : {0.0f, 0.4f, 0.9f, 3.0f}) {
        INFO("ring at " << sec << " s");
        const double t = std::min(1.0, double(sec));
        const PrimitiveState st = ringState(R, sec);
        CHECK(st.alpha == Approx(0.5 * t).margin(1e-5));
        CHECK(st.outerRadius.x == Approx(2.0 * (1 + 2 * t)).margin(1e-5));
        CHECK(st.outerRadius.y == Approx(2.0 * (1 + t)).margin(1e-5));
        CHECK(st.innerRadius.x == Approx(1.0).margin(1e-6));
    }
    // Lossless rewrite of the micro-chunk channels.
    const SourceTree t = w3d::sourceTree(shared(bytes), "fx.w3d");
    CHECK(t.write() == bytes);
    CHECK(t.writeEveryNode() == bytes);
    // In the model: markers of their kind at the origin (nothing places them).
    const Document d = loadSet(ByteSpan(bytes), "fx.w3d");
    REQUIRE(d.model);
    REQUIRE(d.model->markers.size() == 2);
    CHECK(d.model->markers[0].kind == "sphere");
    CHECK(d.model->markers[0].name == "BLAST");
    CHECK(d.model->markers[1].kind == "ring");
}

TEST_CASE("W3D aggregate: sub-objects placed at the bones it names", "[w3d][fx]") {
    ChunkWriter cw;
    writeHierarchy(cw, test::testHierarchy());
    writeMesh(cw, test::testQuad("PLATE", "GUN"));
    Emitter e = fireEmitter();
    e.name = "SPARK";
    writeEmitter(cw, e);
    Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    h.lods = {LodArray{}};
    h.lods[0].maxScreenSize = 3.0e38f;
    writeHlod(cw, h);
    Aggregate a;
    a.name = "UNIT_AGG";
    a.baseModel = "UNIT";
    a.subObjects = {{"SPARK", "ARM"}, {"GUN.PLATE", "HAND"}, {"MISSING", "NOBONE"}};
    a.hasClassInfo = true;
    a.originalClassId = 7;
    writeAggregate(cw, a);
    const std::vector<uint8_t> bytes = cw.take();
    const File f = readFile(ByteSpan(bytes), "agg.w3d");
    REQUIRE(f.aggregates.size() == 1);
    CHECK(f.aggregates[0].baseModel == "UNIT");
    REQUIRE(f.aggregates[0].subObjects.size() == 3);
    CHECK(f.aggregates[0].subObjects[1].bone == "HAND");
    CHECK(f.aggregates[0].originalClassId == 7);
    const Document d = loadSet(ByteSpan(bytes), "agg.w3d");
    REQUIRE(d.model);
    REQUIRE(d.model->particles.size() == 1);
    CHECK(d.model->particles[0].bone == 2); // ARM
    REQUIRE(d.model->meshes.size() == 1);
    CHECK(d.model->meshes[0].bone == 3); // HAND
    bool missingNamed = false, boneNamed = false;
    for (const std::string& w : d.warnings) {
        missingNamed = missingNamed || w.find("'MISSING'") != std::string::npos;
        boneNamed = boneNamed || w.find("'NOBONE'") != std::string::npos;
    }
    for (const std::string& w : d.model->warnings) {
        missingNamed = missingNamed || w.find("'MISSING'") != std::string::npos;
        boneNamed = boneNamed || w.find("'NOBONE'") != std::string::npos;
    }
    CHECK(missingNamed);
    CHECK(boneNamed);
    const SourceTree t = w3d::sourceTree(shared(bytes), "agg.w3d");
    CHECK(t.write() == bytes);
}

TEST_CASE("W3D effects: malformed chunks are refused with the chunk path and offset", "[w3d][fx]") {
    const std::vector<uint8_t> good = emitterFile(fireEmitter());
    const File f = readFile(ByteSpan(good), "fire.w3d");
    (void)f;
    // Locate the props chunk (0x505) inside the emitter.
    size_t emitterAt = 0;
    for (size_t at = 0; at + 8 <= good.size();) {
        uint32_t id, size;
        std::memcpy(&id, &good[at], 4);
        std::memcpy(&size, &good[at + 4], 4);
        if (id == id::Emitter) {
            emitterAt = at;
            break;
        }
        at += 8 + (size & 0x7FFFFFFFu);
    }
    size_t propsAt = 0;
    for (size_t at = emitterAt + 8; at + 8 <= good.size();) {
        uint32_t id, size;
        std::memcpy(&id, &good[at], 4);
        std::memcpy(&size, &good[at + 4], 4);
        if (id == fxid::EmitterProps) {
            propsAt = at;
            break;
        }
        at += 8 + size;
    }
    REQUIRE(propsAt > 0);
    // A colour key count of a billion: refused before anything is allocated.
    std::vector<uint8_t> bad = good;
    const uint32_t huge = 1000000000u;
    std::memcpy(&bad[propsAt + 8], &huge, 4);
    std::string msg = errorOf([&] { readFile(ByteSpan(bad), "bad.w3d"); });
    INFO(msg);
    CHECK(msg.find("0x500/0x505") != std::string::npos);
    CHECK(msg.find("colour keyframe count 1000000000") != std::string::npos);
    // A count of 0 (the engine would write through 2^32 - 1 keys).
    bad = good;
    const uint32_t zero = 0;
    std::memcpy(&bad[propsAt + 16], &zero, 4);
    msg = errorOf([&] { readFile(ByteSpan(bad), "bad.w3d"); });
    CHECK(msg.find("0x500/0x505") != std::string::npos);
    CHECK(msg.find(std::to_string(propsAt + 8)) != std::string::npos);
    CHECK(msg.find("keyframe count 0") != std::string::npos);

    // A sphere key micro-chunk shorter than a key.
    Sphere s;
    s.name = "S";
    s.alphaKeys = {{1.0f, 0.0f}};
    ChunkWriter cw;
    writeSphere(cw, s);
    std::vector<uint8_t> sb = cw.take();
    // Last 10 bytes: micro header {1, 8} + the key; claim 4 bytes and cut the rest from all the sizes.
    REQUIRE(sb[sb.size() - 9] == 8);
    sb[sb.size() - 9] = 4;
    msg = errorOf([&] { readFile(ByteSpan(sb), "s.w3d"); });
    INFO(msg);
    CHECK(msg.find("0x741/0x3/0x3150809") != std::string::npos);
    CHECK(msg.find("key micro-chunk of 4 bytes") != std::string::npos);

    // An emitter without its info chunk.
    ChunkWriter ce;
    ce.begin(id::Emitter);
    ce.begin(fxid::EmitterHeader);
    ce.w.u32le(0x20000);
    ce.w.fixedString("E", 16);
    ce.end();
    ce.end();
    const std::vector<uint8_t> eb = ce.take();
    msg = errorOf([&] { readFile(ByteSpan(eb), "e.w3d"); });
    CHECK(msg.find("emitter without its info chunk 0x503") != std::string::npos);
    CHECK(msg.find("0x500") != std::string::npos);
}
