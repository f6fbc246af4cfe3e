// W3D emitters (chunk 0x500) in the one particle simulator (particle_sim.h): ww3d2's ParticleEmitterClass emission
// and ParticleBufferClass kinematics and keyframes (EA's released Renegade / Generals sources), per particle in
// closed form. What the engine does that this does not (docs/formats/w3d-emitters.md): velocity inherited from a
// moving emitter, the time interpolation of a moving emitter's transform within a frame, the one-time burst an
// application may request, the random tables' slot reuse (each particle here draws its own offsets), and the
// 1/256-turn quantisation of orientations. Line and line-group render modes are drawn from these particles by
// w3d_lines.h.
#include "particles/particle_sim.h"
#include "particles/w3d_lines.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>

namespace rs {

// LERP keyframes over age (held after the last key; the first key's value before it).
glm::vec3 w3dKeyAt(const std::vector<W3dEmitterParams::Key>& keys, float age) {
    if (keys.empty()) return glm::vec3(0.0f);
    if (!(age > keys.front().time)) return keys.front().value;
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
        const auto &a = keys[i], &b = keys[i + 1];
        if (age < b.time) {
            const float span = b.time - a.time;
            const float t = span > 0.0f ? (age - a.time) / span : 1.0f;
            return a.value + (b.value - a.value) * t;
        }
    }
    return keys.back().value;
}

namespace {

constexpr double kTwoPi = 6.28318530717958647692;

inline uint64_t wmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct WRng {
    uint64_t s;
    float unit() { // [0, 1)
        s = wmix(s);
        return static_cast<float>(s >> 40) * (1.0f / 16777216.0f);
    }
    float sym() { return unit() * 2.0f - 1.0f; } // [-1, 1)
};

inline float fin(float v) { return std::isfinite(v) ? v : 0.0f; }
inline glm::vec3 fin(glm::vec3 v) { return {fin(v.x), fin(v.y), fin(v.z)}; }

// Vector3Randomizer::Get_Vector for each class (solid box: U(-1, 1) times the half extents per axis; solid sphere:
// uniform in the ball; hollow sphere: on the surface; solid cylinder: around Z, height centred on the origin).
glm::vec3 randomPoint(const W3dEmitterParams::Randomizer& r, WRng& g) {
    using V = W3dEmitterParams::Volume;
    const glm::vec3 v = fin(r.value);
    switch (r.shape) {
    case V::Box:
        return {g.sym() * v.x, g.sym() * v.y, g.sym() * v.z};
    case V::Sphere:
    case V::HollowSphere: {
        glm::vec3 d(0.0f, 0.0f, 1.0f);
        for (int i = 0; i < 32; ++i) {
            const glm::vec3 p(g.sym(), g.sym(), g.sym());
            const float l2 = glm::dot(p, p);
            if (l2 > 1e-8f && l2 <= 1.0f) {
                d = p / std::sqrt(l2);
                break;
            }
        }
        const float radius = r.shape == V::HollowSphere ? v.x : v.x * std::cbrt(g.unit());
        return d * radius;
    }
    case V::Cylinder: {
        const float a = float(kTwoPi) * g.unit();
        const float radius = v.y * std::sqrt(g.unit());
        return {radius * std::cos(a), radius * std::sin(a), g.sym() * v.x * 0.5f};
    }
    default:
        return glm::vec3(0.0f);
    }
}

glm::vec3 keyAt(const std::vector<W3dEmitterParams::Key>& keys, float age) { return w3dKeyAt(keys, age); }

// Integral over [0, age] of the piecewise-linear x channel (constant before the first and after the last key).
double keyIntegral(const std::vector<W3dEmitterParams::Key>& keys, double age) {
    if (keys.empty() || !(age > 0.0)) return 0.0;
    double sum = 0.0, t = 0.0;
    double v = keys.front().value.x;
    for (size_t i = 0; i < keys.size(); ++i) {
        const double kt = std::max(t, double(keys[i].time));
        const double kv = keys[i].value.x;
        if (kt > t) {
            const double end = std::min(age, kt);
            // value at t is v, at kt is kv (linear); integrate from t to end.
            const double slope = (kv - v) / (kt - t);
            const double ve = v + slope * (end - t);
            sum += (v + ve) * 0.5 * (end - t);
            if (age <= kt) return sum;
        }
        t = kt;
        v = kv;
    }
    return sum + v * (age - t);
}

} // namespace

void ParticleSimulator::evaluateW3d(int ei, double time, const ParticleSimOptions& o, Budget& budget,
                                    ParticleBuffer& out) const {
    const ParticleEmitter& emitter = sys_.emitters[ei];
    const W3dEmitterParams& w = *emitter.w3d;
    if (!(time > 0.0) || !std::isfinite(time)) return;
    const double life = plans_[ei].maxLife;
    if (!(life > 0.0)) return;
    const double interval = std::isfinite(w.interval) && w.interval >= 0.001 ? w.interval : 0.001;
    const uint32_t burst = std::max<uint32_t>(1, w.burst);
    // Emission k (k >= 1) at k * interval; particle n = (k - 1) * burst + j.
    const double lastD = std::floor(time / interval + 1e-9);
    if (lastD < 1.0) return;
    const int64_t last = lastD > 9.0e15 ? int64_t(9.0e15) : int64_t(lastD);
    int64_t first = int64_t(std::max(1.0, std::floor((time - life) / interval) - 1.0));
    if (first > last) return;
    if (w.maxParticles > 0) {
        const int64_t lastAllowed = (w.maxParticles - 1) / int64_t(burst) + 1; // emissions that make a particle
        if (first > lastAllowed) return;
    }
    if (last - first > kMaxEventsPerInstance) {
        first = last - kMaxEventsPerInstance;
        budget.truncated = true;
    }
    const uint64_t key = wmix(o.seed ^ wmix(uint64_t(ei) + 0x3D3D0500ull));
    for (int64_t k = first; k <= last; ++k) {
        const double birth = double(k) * interval;
        const double age = time - birth;
        if (age < 0.0 || age >= life) continue;
        glm::mat4 m(1.0f);
        bool haveM = false;
        for (uint32_t j = 0; j < burst; ++j) {
            const int64_t n = (k - 1) * int64_t(burst) + int64_t(j);
            if (w.maxParticles > 0 && n >= w.maxParticles) break;
            if (budget.births <= 0) {
                budget.truncated = true;
                return;
            }
            --budget.births;
            ++out.live;
            if (out.count >= out.particles.size()) continue;
            if (!haveM) {
                m = o.emitterTransform ? o.emitterTransform(birth) : glm::mat4(1.0f);
                haveM = true;
            }
            WRng g{wmix(key ^ wmix(uint64_t(n) * 0x100000001B3ull + 0x77))};
            // Initialize_Particle: creation point, then velocity randomizer, outward speed, base velocity.
            const glm::vec3 randPos = randomPoint(w.creation, g);
            glm::vec3 vel = randomPoint(w.velocityRandom, g);
            const float out_ = fin(w.outwardVelocity);
            if (out_ != 0.0f) {
                const float l2 = glm::dot(randPos, randPos);
                vel += l2 > 0.0f ? randPos * (out_ / std::sqrt(l2)) : glm::vec3(out_, 0.0f, 0.0f);
            }
            vel += fin(w.velocity);
            const glm::vec3 p0 = glm::vec3(m * glm::vec4(randPos, 1.0f));
            const glm::vec3 v0 = glm::mat3(m) * vel;
            const glm::vec3 acc = fin(w.acceleration);
            const float a = float(age);
            // Per-particle random offsets (the engine's random tables): U(-r, r).
            const glm::vec3 cr = fin(w.colorRandom);
            const glm::vec3 colorOff(g.sym() * cr.x, g.sym() * cr.y, g.sym() * cr.z);
            const float alphaOff = g.sym() * fin(w.opacityRandom);
            const float sizeOff = g.sym() * fin(w.sizeRandom);
            const float rotOff = g.sym() * fin(w.rotationRandom);
            const float orientOff = g.sym() * fin(w.orientationRandom);
            const float frameOff = g.sym() * fin(w.frameRandom);

            SimParticle& p = out.particles[out.count++];
            p.position = p0 + (v0 + 0.5f * acc * a) * a;
            p.velocity = v0 + acc * a;
            const glm::vec3 c = fin(keyAt(w.color, a)) + colorOff;
            const float alpha = fin(keyAt(w.opacity, a).x) + alphaOff;
            p.color = glm::clamp(glm::vec4(c, alpha), 0.0f, 1.0f);
            p.size = std::max(0.0f, fin(keyAt(w.size, a).x) + sizeOff);
            const double turns = keyIntegral(w.rotation, age) + double(rotOff) * age + double(orientOff);
            p.rotation = std::isfinite(turns) ? float(std::fmod(turns, 1.0) * kTwoPi) : 0.0f;
            if (w.frame.empty()) {
                p.frame = 0;
            } else {
                const float f = fin(keyAt(w.frame, a).x) + frameOff;
                p.frame = uint32_t(int64_t(std::clamp(f, -1.0e9f, 1.0e9f)) & 0xFF); // (int) truncates, as the engine
            }
            p.emitter = uint32_t(ei);
            p.age = a;
            p.life = float(life);
        }
    }
}

} // namespace rs
