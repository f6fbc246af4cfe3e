// Alamo particle systems: every corpus file against an independent chunk walk, writer round trips, refusals of
// damaged input with file, chunk path and offset.
#include "alamo/particle_reader.h"
#include "alamo/particle_writer.h"
#include "corpus.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "particle_fixtures.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>

using namespace rs;

namespace {

std::vector<std::string> particleFiles() {
    std::vector<std::string> out;
    for (const std::string& f : test::corpusFiles("alamo", {".alo"})) {
        const std::vector<uint8_t> b = readFileBytes(f);
        if (b.size() >= 4 && b[0] == 0x00 && b[1] == 0x09 && b[2] == 0 && b[3] == 0) out.push_back(f);
    }
    return out;
}

// Independent of the reader: walk 0x900 -> 0x800 -> 0x700 and collect the texture strings of each emitter.
struct Walked {
    std::string name;
    std::vector<std::string> colour, bump; // per emitter ("" when no 0x45)
};
uint32_t le32(const std::vector<uint8_t>& b, size_t o) {
    return b.at(o) | b.at(o + 1) << 8 | b.at(o + 2) << 16 | uint32_t(b.at(o + 3)) << 24;
}
Walked walk(const std::vector<uint8_t>& b) {
    Walked w;
    auto str = [&](size_t o, size_t n) {
        std::string s(reinterpret_cast<const char*>(b.data() + o), n);
        return s.substr(0, s.find('\0'));
    };
    const size_t rootEnd = 8 + (le32(b, 4) & 0x7FFFFFFF);
    for (size_t o = 8; o < rootEnd;) {
        const uint32_t t = le32(b, o), n = le32(b, o + 4) & 0x7FFFFFFF;
        if (t == 0) w.name = str(o + 8, n);
        if (t == 0x800)
            for (size_t e = o + 8; e < o + 8 + n;) {
                const uint32_t en = le32(b, e + 4) & 0x7FFFFFFF;
                REQUIRE(le32(b, e) == 0x700);
                std::string colour, bump;
                for (size_t c = e + 8; c < e + 8 + en;) {
                    const uint32_t ct = le32(b, c), cn = le32(b, c + 4) & 0x7FFFFFFF;
                    if (ct == 0x03) colour = str(c + 8, cn);
                    if (ct == 0x45) bump = str(c + 8, cn);
                    c += 8 + cn;
                }
                w.colour.push_back(colour);
                w.bump.push_back(bump);
                e += 8 + en;
            }
        o += 8 + n;
    }
    return w;
}

void requireSameTrack(const ParticleTrack& a, const ParticleTrack& b) {
    REQUIRE(a.interp == b.interp);
    REQUIRE(a.rawInterp == b.rawInterp);
    REQUIRE(a.keys.size() == b.keys.size());
    for (size_t i = 0; i < a.keys.size(); ++i)
        REQUIRE(a.keys[i] == b.keys[i]);
}
void requireSameVolume(const ParticleVolume& a, const ParticleVolume& b) {
    REQUIRE(a.shape == b.shape);
    REQUIRE(a.rawShape == b.rawShape);
    REQUIRE(a.min == b.min);
    REQUIRE(a.max == b.max);
    REQUIRE(a.sideLength == b.sideLength);
    REQUIRE(a.sphereRadius == b.sphereRadius);
    REQUIRE(a.sphereEdge == b.sphereEdge);
    REQUIRE(a.cylinderRadius == b.cylinderRadius);
    REQUIRE(a.cylinderEdge == b.cylinderEdge);
    REQUIRE(a.cylinderHeight == b.cylinderHeight);
    REQUIRE(a.point == b.point);
}
// Field by field (bytes, so NaN payloads count) through the property table; the struct has padding.
void requireSameParams(const ParticleEmitterParams& a, const ParticleEmitterParams& b) {
    static const size_t kSize[] = {1, 4, 4, 4, 12, 16};
    for (const alamo::ParticlePropertyDef& d : alamo::particlePropertyTable()) {
        INFO("property " << d.name);
        REQUIRE(std::memcmp(reinterpret_cast<const char*>(&a) + d.offset, reinterpret_cast<const char*>(&b) + d.offset,
                            kSize[int(d.kind)]) == 0);
    }
}
void requireSame(const ParticleSystem& a, const ParticleSystem& b) {
    REQUIRE(a.name == b.name);
    REQUIRE(a.id == b.id);
    REQUIRE(a.hasLeaveParticles == b.hasLeaveParticles);
    REQUIRE(a.leaveParticles == b.leaveParticles);
    REQUIRE(a.emitters.size() == b.emitters.size());
    for (size_t i = 0; i < a.emitters.size(); ++i) {
        const ParticleEmitter &x = a.emitters[i], &y = b.emitters[i];
        INFO("emitter " << i);
        REQUIRE(x.name == y.name);
        REQUIRE(x.colorTexture == y.colorTexture);
        REQUIRE(x.bumpTexture == y.bumpTexture);
        REQUIRE(x.blend == y.blend);
        requireSameParams(x.params, y.params);
        requireSameVolume(x.velocity, y.velocity);
        requireSameVolume(x.lifetimeGroup, y.lifetimeGroup);
        requireSameVolume(x.position, y.position);
        for (auto t : {&ParticleEmitter::red, &ParticleEmitter::green, &ParticleEmitter::blue, &ParticleEmitter::alpha,
                       &ParticleEmitter::size, &ParticleEmitter::frame, &ParticleEmitter::rotationSpeed})
            requireSameTrack(x.*t, y.*t);
        REQUIRE(x.spawnOnDeath == y.spawnOnDeath);
        REQUIRE(x.spawnDuringLife == y.spawnDuringLife);
        REQUIRE(x.unknown.size() == y.unknown.size());
        for (size_t u = 0; u < x.unknown.size(); ++u) {
            REQUIRE(x.unknown[u].chunk == y.unknown[u].chunk);
            REQUIRE(x.unknown[u].mini == y.unknown[u].mini);
            REQUIRE(x.unknown[u].bytes == y.unknown[u].bytes);
        }
    }
}

std::string errorOf(const std::vector<uint8_t>& b) {
    try {
        alamo::readParticleSystem(ByteSpan(b), "fx.alo");
    } catch (const ParseError& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("corpus: every particle system loads; emitters and textures match an independent chunk walk",
          "[alamo][particles][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    const auto files = particleFiles();
    REQUIRE(files.size() >= 18);
    size_t emitters = 0, links = 0;
    for (const std::string& f : files) {
        INFO(f);
        const std::vector<uint8_t> bytes = readFileBytes(f);
        const Document d = Resolver().read(ByteSpan(bytes), f);
        REQUIRE(d.format == Format::AlamoParticles);
        REQUIRE(d.particles);
        const ParticleSystem& s = *d.particles;
        const Walked w = walk(bytes);
        REQUIRE(s.name == w.name);
        REQUIRE(s.emitters.size() == w.colour.size());
        for (size_t i = 0; i < s.emitters.size(); ++i) {
            const ParticleEmitter& e = s.emitters[i];
            REQUIRE(e.colorTexture == w.colour[i]);
            REQUIRE(e.bumpTexture == w.bump[i]);
            REQUIRE(e.blend != ParticleBlend::Unknown);
            REQUIRE(e.params.lifetime > 0.0f);
            for (const ParticleTrack* t : {&e.red, &e.green, &e.blue, &e.alpha})
                for (const glm::vec2& k : t->keys)
                    REQUIRE((k.y >= 0.0f && k.y <= 1.0f));
            if (e.spawnDuringLife >= 0 || e.spawnOnDeath >= 0) ++links;
        }
        emitters += s.emitters.size();
    }
    REQUIRE(emitters == 67); // measured with an independent script over the 18 files
    REQUIRE(links >= 1);     // one emitter spawns another during its particles' life
}

TEST_CASE("corpus: particle systems survive write -> read unchanged", "[alamo][particles][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    for (const std::string& f : particleFiles()) {
        INFO(f);
        const ParticleSystem a = alamo::readParticleSystem(ByteSpan(readFileBytes(f)), f);
        const std::vector<uint8_t> bytes = alamo::writeParticleSystem(a);
        const ParticleSystem b = alamo::readParticleSystem(ByteSpan(bytes), "rewritten.alo");
        requireSame(a, b);
    }
}

TEST_CASE("corpus: P_GRENADE_SMOKE decodes to the values read by hand from its hex dump",
          "[alamo][particles][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    std::string path;
    for (const std::string& f : particleFiles())
        if (f.find("P_GRENADE_SMOKE.ALO") != std::string::npos) path = f;
    if (path.empty()) {
        RIGSCOPE_SKIP("P_GRENADE_SMOKE.ALO not in the corpus");
    }
    const ParticleSystem s = alamo::readParticleSystem(ByteSpan(readFileBytes(path)), path);
    REQUIRE(s.name == "p_grenade_smoke");
    REQUIRE(s.emitters.size() == 1);
    const ParticleEmitter& e = s.emitters[0];
    REQUIRE(e.name == "Smoke");
    REQUIRE(e.blend == ParticleBlend::Alpha);
    REQUIRE(e.params.particlesPerSecond == 100);
    REQUIRE(e.params.gravity == -5.0f);
    REQUIRE(e.params.inwardSpeed == 2.0f);
    REQUIRE(e.params.initialDelay == Approx(0.1f));
    REQUIRE(e.params.burstCount == -1);
    REQUIRE(e.velocity.shape == ParticleVolume::Shape::Sphere);
    REQUIRE(e.velocity.sphereRadius == 2.0f);
    REQUIRE(e.position.shape == ParticleVolume::Shape::Sphere);
    REQUIRE(e.position.sphereRadius == Approx(0.1f));
    // alpha: 0 -> 140/255 at t = 0.201 -> 0; size 5 -> 7 linear; frame 1 -> 2 step.
    REQUIRE(e.alpha.keys.size() == 3);
    REQUIRE(e.alpha.keys[1].x == Approx(0.201f).epsilon(0.01));
    REQUIRE(e.alpha.keys[1].y == Approx(140.0f / 255.0f));
    REQUIRE(e.red.keys.front().y == Approx(101.0f / 255.0f));
    REQUIRE(e.size.keys.front().y == 5.0f);
    REQUIRE(e.size.keys.back().y == 7.0f);
    REQUIRE(e.frame.interp == ParticleTrack::Interp::Step);
    REQUIRE(s.hasLeaveParticles);
    // Unknown minis are kept raw (0x49 holds 00 d4 08 01 here) and said so.
    bool found = false;
    for (const ParticleUnknown& u : e.unknown)
        if (u.mini == 0x49) {
            found = true;
            REQUIRE(u.bytes == std::vector<uint8_t>{0x00, 0xd4, 0x08, 0x01});
        }
    REQUIRE(found);
    REQUIRE(!s.warnings.empty());
}

TEST_CASE("particle writer -> reader round trip keeps every field", "[alamo][particles]") {
    const ParticleSystem a = test::chainFixture();
    const std::vector<uint8_t> bytes = alamo::writeParticleSystem(a);
    const ParticleSystem b = alamo::readParticleSystem(ByteSpan(bytes), "chain.alo");
    requireSame(a, b);
    REQUIRE(b.emitters[0].spawnDuringLife == 1);
    REQUIRE(b.emitters[0].spawnOnDeath == 2);
    REQUIRE(b.emitters[1].red.keys[1] == glm::vec2(0.25f, 51.0f / 255.0f));
    REQUIRE(b.emitters[0].unknown.size() == 1);
    REQUIRE(b.emitters[0].unknown[0].mini == 0x49);
}

TEST_CASE("damaged particle systems are refused with file, chunk path and offset", "[alamo][particles]") {
    const ParticleSystem good = test::chainFixture();
    const std::vector<uint8_t> bytes = alamo::writeParticleSystem(good);

    SECTION("every truncation is a ParseError") {
        for (size_t n = 0; n < bytes.size(); ++n) {
            INFO("length " << n);
            const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
            REQUIRE(!errorOf(cut).empty());
        }
    }
    SECTION("bit flips load or give a ParseError, nothing else") {
        std::mt19937 rng(7);
        for (int i = 0; i < 3000; ++i) {
            std::vector<uint8_t> b = bytes;
            for (int f = 0; f < 1 + i % 3; ++f)
                b[rng() % b.size()] ^= uint8_t(1u << (rng() % 8));
            try {
                const ParticleSystem s = alamo::readParticleSystem(ByteSpan(b), "flip.alo");
                REQUIRE(s.emitters.size() <= good.emitters.size());
            } catch (const ParseError&) {
            }
        }
    }
    SECTION("a spawn link to a missing emitter names the 0x36 chunk") {
        ParticleSystem s = good;
        s.emitters[0].spawnOnDeath = 7;
        const std::string err = errorOf(alamo::writeParticleSystem(s));
        REQUIRE(err.find("fx.alo") == 0);
        REQUIRE(err.find("0x900/0x800/0x700/0x36") != std::string::npos);
        REQUIRE(err.find("spawns emitter 7") != std::string::npos);
    }
    SECTION("spawn links forming a cycle are refused") {
        ParticleSystem s = good;
        s.emitters[1].spawnDuringLife = 0;
        REQUIRE(errorOf(alamo::writeParticleSystem(s)).find("cycle") != std::string::npos);
    }
    SECTION("a colour key above 255, a key out of order, a wrong mini size") {
        std::vector<uint8_t> b = bytes;
        // The first colour key of emitter 1: find "05 08" + value 51 (0x33).
        const uint8_t pat[] = {0x05, 0x08, 0x33, 0x00, 0x00, 0x00};
        auto at = std::search(b.begin(), b.end(), std::begin(pat), std::end(pat));
        REQUIRE(at != b.end());
        const size_t off = size_t(at - b.begin());
        std::vector<uint8_t> big = b;
        big[off + 3] = 0x01; // 0x133
        std::string err = errorOf(big);
        REQUIRE(err.find("exceeds 255") != std::string::npos);
        REQUIRE(err.find("at offset " + std::to_string(off + 2)) != std::string::npos);
        std::vector<uint8_t> late = b;
        const float t = 1.5f;
        std::memcpy(&late[off + 6], &t, 4);
        REQUIRE(errorOf(late).find("track key time") != std::string::npos);
        std::vector<uint8_t> size = b;
        size[off + 1] = 0x07;
        REQUIRE(!errorOf(size).empty());
    }
    SECTION("format 2 (0x1500) and other roots are refused clearly") {
        std::vector<uint8_t> b = bytes;
        b[1] = 0x15;
        REQUIRE(errorOf(b).find("format 2") != std::string::npos);
        b[1] = 0x02;
        REQUIRE(errorOf(b).find("expected chunk 0x900") != std::string::npos);
    }
}
