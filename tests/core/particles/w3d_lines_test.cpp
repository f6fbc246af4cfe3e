// W3D line render modes (particles/w3d_lines.h) against ww3d2's rules written out here: mode 2 joins consecutive
// particles with the start size as width; line groups run from the position back along the velocity for the blur
// time (keys over age), the tail coloured by the shader (Determine_Tail_Diffuse).
#include "particles/w3d_lines.h"

#include <catch2/catch.hpp>

using namespace rs;

namespace {

ParticleEmitter lineEmitter(uint32_t mode, ParticleBlend blend, const std::string& texture = "") {
    ParticleEmitter e;
    e.blend = blend;
    e.colorTexture = texture;
    W3dEmitterParams w;
    w.renderMode = mode;
    w.size = {{0.0f, {0.25f, 0, 0}}, {1.0f, {2.0f, 0, 0}}};
    w.blurTime = {{0.0f, {0.1f, 0, 0}}, {2.0f, {0.5f, 0, 0}}};
    e.w3d = w;
    return e;
}

std::vector<SimParticle> particles() {
    std::vector<SimParticle> p(3);
    for (int i = 0; i < 3; ++i) {
        p[size_t(i)].position = {float(i), 1.0f, 0.0f};
        p[size_t(i)].velocity = {0.0f, 2.0f, 4.0f};
        p[size_t(i)].size = 0.5f + float(i);
        p[size_t(i)].age = float(i); // 0, 1, 2 s
        p[size_t(i)].color = {0.1f * float(i), 0.5f, 1.0f, 0.75f};
    }
    return p;
}

} // namespace

TEST_CASE("W3D line mode 2: consecutive particles joined, the start size wide, the older point's colour",
          "[particles][w3d]") {
    const std::vector<SimParticle> p = particles();
    std::vector<W3dLineSegment> s;
    w3dLineSegments(lineEmitter(2, ParticleBlend::Additive), p.data(), p.size(), s);
    REQUIRE(s.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(s[i].head == p[i].position);
        CHECK(s[i].tail == p[i + 1].position);
        CHECK(s[i].width == 0.25f); // the first size key, not the particle's size
        CHECK(s[i].color == p[i].color);
        CHECK(s[i].tailColor == W3dTailColor::Head);
    }
    s.clear();
    w3dLineSegments(lineEmitter(2, ParticleBlend::Additive), p.data(), 1, s);
    CHECK(s.empty()); // one particle: no segment
    w3dLineSegments(lineEmitter(1, ParticleBlend::Additive), p.data(), p.size(), s);
    CHECK(s.empty()); // quads: not a line emitter
    CHECK_FALSE(w3dDrawsLines(lineEmitter(1, ParticleBlend::Additive)));
    CHECK_FALSE(w3dDrawsLines(ParticleEmitter{}));
}

TEST_CASE("W3D line groups: tail = position - velocity * blur time(age); tail colour by the shader",
          "[particles][w3d]") {
    const std::vector<SimParticle> p = particles();
    for (uint32_t mode : {3u, 4u}) {
        std::vector<W3dLineSegment> s;
        w3dLineSegments(lineEmitter(mode, ParticleBlend::Alpha), p.data(), p.size(), s);
        REQUIRE(s.size() == 3);
        const float blur[3] = {0.1f, 0.3f, 0.5f}; // keys 0.1 at 0 s, 0.5 at 2 s: linear between
        for (size_t i = 0; i < 3; ++i) {
            CHECK(s[i].head == p[i].position);
            const glm::vec3 want = p[i].position - p[i].velocity * blur[i];
            CHECK(glm::distance(s[i].tail, want) < 1e-5f);
            CHECK(s[i].width == p[i].size);
            CHECK(s[i].tailColor == W3dTailColor::HeadAlphaZero);
        }
    }
    CHECK(w3dTailColor(lineEmitter(3, ParticleBlend::Additive)) == W3dTailColor::Black);
    CHECK(w3dTailColor(lineEmitter(3, ParticleBlend::Modulate)) == W3dTailColor::White);
    CHECK(w3dTailColor(lineEmitter(3, ParticleBlend::Opaque)) == W3dTailColor::Head);
    CHECK(w3dTailColor(lineEmitter(3, ParticleBlend::Additive, "spark.tga")) == W3dTailColor::Head); // textured
    // No blur-time keys: the engine's blur time is 0, the streak has no length.
    ParticleEmitter none = lineEmitter(3, ParticleBlend::Additive);
    none.w3d->blurTime.clear();
    std::vector<W3dLineSegment> s;
    w3dLineSegments(none, p.data(), p.size(), s);
    REQUIRE(s.size() == 3);
    CHECK(s[0].tail == s[0].head);
}
