// SAGE particle systems in the one particle simulator (particle_sim.h): the Generals / Zero Hour engine's
// ParticleSystem::update and Particle::update (EA's Zero Hour source, GameClient/System/ParticleSys.cpp), per
// particle in closed form over the number of updates it has had. What the engine does that this does not
// (docs/formats/sage-particles.md): the inter-frame emission adjustment of a moving system, terrain
// (IsEmitAboveGroundOnly), IsParticleUpTowardsEmitter, PerParticleAttachedSystem, the particle count limits and LOD.
#include "particles/particle_sim.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rs {

namespace {

constexpr double kTwoPiD = 6.28318530717958647692;
constexpr uint32_t kNoDeath = 0xFFFFFFFFu;

inline uint64_t smix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct SRng {
    uint64_t s;
    float next() {
        s = smix(s);
        return static_cast<float>(s >> 40) * (1.0f / 16777216.0f);
    }
    float real(float lo, float hi) { return lo + (hi - lo) * next(); }
    // GameClientRandomVariable::getValue: the low value when the range is empty.
    float value(const SageRange& r) { return r.lo == r.hi ? r.lo : real(r.lo, r.hi); }
};

inline float fin(float v) { return std::isfinite(v) ? v : 0.0f; }
// (UnsignedInt) of a drawn real: truncated; negative, NaN and huge values clamp (the engine's cast is undefined).
inline uint32_t toFrames(float v) {
    if (!(v > 0.0f)) return 0;
    return v >= 4.0e9f ? 4000000000u : static_cast<uint32_t>(v);
}
// REAL_TO_INT (a truncating cast), at least 0, at most the budget.
inline int64_t toCount(float v) {
    if (!(v > 0.0f)) return 0;
    return v >= 1.0e9f ? 1000000000 : static_cast<int64_t>(v);
}

// ParticleInfo: what generateParticleInfo draws for one particle.
struct Info {
    glm::vec3 pos{0.0f}, vel{0.0f}, emitterPos{0.0f};
    float velDamping = 0, angularDamping = 0, angle = 0, angularRate = 0;
    uint32_t lifetime = 0;
    float size = 0, sizeRate = 0, sizeRateDamping = 0;
    float alpha[SageEmitterParams::kKeys] = {};
    float colorScale = 0;     // per frame, 0..1 units (the file's value / 255)
    float windRandomness = 1; // U(0.7, 1.3)
};

glm::vec3 pointOnUnitSphere(SRng& r) {
    for (int i = 0; i < 64; ++i) {
        const glm::vec3 p(r.real(-1, 1), r.real(-1, 1), r.real(-1, 1));
        if (p != glm::vec3(0.0f)) return glm::normalize(p);
    }
    return {0.0f, 0.0f, 1.0f};
}

glm::vec3 volumePosition(const SageEmitterParams& s, SRng& r) {
    using V = SageEmitterParams::Volume;
    switch (s.volumeType) {
    case V::Cylinder: {
        const float angle = r.real(0.0f, float(kTwoPiD));
        const float radius = s.hollow ? s.cylinderRadius : r.real(0.0f, s.cylinderRadius);
        const float half = s.cylinderLength / 2.0f;
        return {radius * std::cos(angle), radius * std::sin(angle), r.real(-half, half)};
    }
    case V::Sphere: {
        const float radius = s.hollow ? s.sphereRadius : r.real(0.0f, s.sphereRadius);
        return pointOnUnitSphere(r) * radius;
    }
    case V::Box: {
        const glm::vec3 h = s.boxHalfSize;
        if (!s.hollow) return {r.real(-h.x, h.x), r.real(-h.y, h.y), r.real(-h.z, h.z)};
        // A face chosen uniformly (GameClientRandomValue(0, 6) is inclusive: the engine's 7th value 6 lands on
        // side % 3 == 0, the top, so the top is twice as likely; kept). The engine's +X face uses halfSize.y, kept.
        const int side = std::min(6, int(r.next() * 7.0f));
        if (side % 3 == 0) return {r.real(-h.x, h.x), r.real(-h.y, h.y), side == 0 ? -h.z : h.z};
        if (side % 3 == 1) return {side == 1 ? -h.x : h.y, r.real(-h.y, h.y), r.real(-h.z, h.z)};
        return {r.real(-h.x, h.x), side == 2 ? -h.y : h.y, r.real(-h.z, h.z)};
    }
    case V::Line:
        return s.lineStart + (s.lineEnd - s.lineStart) * r.real(0.0f, 1.0f);
    default:
        return glm::vec3(0.0f);
    }
}

glm::vec3 safeNormalize(glm::vec3 v) {
    const float l = glm::length(v);
    return l > 0.0f && std::isfinite(l) ? v / l : glm::vec3(0.0f);
}

glm::vec3 emissionVelocity(const SageEmitterParams& s, const glm::vec3& pos, SRng& r) {
    using T = SageEmitterParams::Velocity;
    switch (s.velocityType) {
    case T::Ortho:
        return {r.value(s.velOrtho[0]), r.value(s.velOrtho[1]), r.value(s.velOrtho[2])};
    case T::Cylindrical: {
        const float radial = r.value(s.velCylRadial), angle = r.real(0.0f, float(kTwoPiD));
        return {radial * std::cos(angle), radial * std::sin(angle), r.value(s.velCylNormal)};
    }
    case T::Outward: {
        const float speed = r.value(s.velOutward), other = r.value(s.velOutwardOther);
        using V = SageEmitterParams::Volume;
        switch (s.volumeType) {
        case V::Cylinder: {
            const glm::vec3 d = safeNormalize(glm::vec3(pos.x, pos.y, 0.0f));
            return {speed * d.x, speed * d.y, other};
        }
        case V::Box:
        case V::Sphere:
            return safeNormalize(pos) * speed;
        case V::Line: {
            const glm::vec3 along = safeNormalize(s.lineEnd - s.lineStart);
            const glm::vec3 perp = glm::cross(glm::vec3(0, 0, 1), along);
            const glm::vec3 up = glm::cross(along, perp);
            return speed * perp + other * up;
        }
        default:
            return pointOnUnitSphere(r) * speed;
        }
    }
    case T::Spherical:
        return pointOnUnitSphere(r) * r.value(s.velSpherical);
    case T::Hemispherical: {
        // The engine reads the spherical speed here (m_emissionVelocity.spherical.speed of the union, which
        // shares its storage with hemispherical.speed): the same value.
        const float speed = r.value(s.velHemispherical);
        for (int i = 0; i < 64; ++i) {
            const glm::vec3 v(r.real(-1, 1), r.real(-1, 1), r.real(0, 1));
            if (v != glm::vec3(0.0f)) return glm::normalize(v) * speed;
        }
        return {0.0f, 0.0f, speed};
    }
    default:
        return glm::vec3(0.0f);
    }
}

// The accumulated size bonus before particle `index` of a system (m_accumulatedSizeBonus: each particle's draw of
// StartSizeRate added after it, then capped at MAX_SIZE_BONUS = 50). Constant rates in closed form; random ones are
// summed from particle 0 (the draws of particle i come from rngOf(i)).
template <class RngOf> float sizeBonus(const SageRange& rate, uint64_t index, RngOf rngOf) {
    if (rate.lo == rate.hi) {
        const double s = fin(rate.lo), v = s * double(index);
        return s > 0 ? float(std::min(v, 50.0)) : float(v);
    }
    float bonus = 0.0f;
    const uint64_t n = std::min<uint64_t>(index, 1u << 20);
    for (uint64_t i = 0; i < n; ++i) {
        SRng r = rngOf(i);
        bonus += r.value(rate);
        if (bonus != 0.0f) bonus = std::min(bonus, 50.0f);
    }
    return bonus;
}

Info drawInfo(const SageEmitterParams& s, SRng r, float bonus, const glm::mat4* m) {
    Info in;
    in.pos = volumePosition(s, r);
    in.vel = emissionVelocity(s, in.pos, r);
    if (m) {
        in.pos = glm::vec3(*m * glm::vec4(in.pos, 1.0f));
        in.vel = glm::mat3(*m) * in.vel;
        in.emitterPos = glm::vec3((*m)[3]);
    }
    in.velDamping = r.value(s.velocityDamping);
    in.angularDamping = r.value(s.angularDamping);
    in.angle = r.value(s.angleZ);
    in.angularRate = r.value(s.angularRateZ);
    in.lifetime = toFrames(r.value(s.lifetime));
    in.size = r.value(s.size) + bonus;
    in.sizeRate = r.value(s.sizeRate);
    in.sizeRateDamping = r.value(s.sizeRateDamping);
    for (int k = 0; k < SageEmitterParams::kKeys; ++k)
        in.alpha[k] = r.value(s.alpha[k].value);
    in.colorScale = r.value(s.colorScale) / 255.0f;
    in.windRandomness = r.real(0.7f, 1.3f);
    return in;
}

// 1 + d + ... + d^(n-1) and d + ... + d^n.
inline double geomFrom0(double d, double n) { return d == 1.0 ? n : (1.0 - std::pow(d, n)) / (1.0 - d); }
inline double geomFrom1(double d, double n) { return d * geomFrom0(d, n); }

// clamp(x + k * step) per channel: exact for k steps of `x += step; clamp` from x within the bounds (a monotone walk
// stops at the bound it reaches).
inline float walk(float x, float step, double k, float lo, float hi) {
    return std::clamp(float(double(x) + double(step) * k), lo, hi);
}

// Rate to the next key (computeAlphaRate / computeColorRate): 0 past the keys or when the next key's frame is 0;
// a zero frame difference (the engine divides by zero) also gives 0.
template <class K> float keyRate(const K& keys, int t, float a, float b) {
    if (t >= SageEmitterParams::kKeys || keys[t].frame == 0) return 0.0f;
    const uint32_t span = keys[t].frame - keys[t - 1].frame; // unsigned, as the engine subtracts
    return span ? (b - a) / float(span) : 0.0f;
}

struct Shaded {
    glm::vec4 color{1.0f};
    uint32_t death = kNoDeath; // first update after which the particle is removed as invisible
};

// Alpha and colour after n updates (Particle::update), and the first update <= n at which isInvisible() held.
Shaded shadeSage(const SageEmitterParams& s, const Info& in, uint32_t n) {
    using Sh = SageEmitterParams::Shader;
    Shaded out;
    const auto& ak = s.alpha;
    const auto& ck = s.color;
    constexpr int K = SageEmitterParams::kKeys;
    // Alpha (not updated for ADDITIVE).
    float a = in.alpha[0];
    if (s.shader != Sh::Additive) {
        int t = 1;
        float rate = keyRate(ak, t, in.alpha[0], in.alpha[1]);
        uint32_t done = 0; // updates applied; the next has elapsed frame `done`
        a = std::clamp(a, 0.0f, 1.0f);
        auto invisibleAt = [&](float start, float step, uint32_t from, uint32_t count) {
            // first update in [from + 1, from + count] after which alpha < 0.02 (ALPHA only)
            if (s.shader != Sh::Alpha || out.death != kNoDeath || count == 0) return;
            if (step >= 0.0f) {
                if (walk(start, step, 1, 0, 1) < 0.02f) out.death = from + 1;
                return;
            }
            double k = std::ceil((0.02 - double(start)) / double(step));
            k = std::max(1.0, k);
            while (k > 1 && walk(start, step, k - 1, 0, 1) < 0.02f)
                --k;
            while (k <= count && !(walk(start, step, k, 0, 1) < 0.02f))
                ++k;
            if (k <= count) out.death = from + uint32_t(k);
        };
        while (done < n) {
            if (t < K && ak[t].frame != 0) {
                const uint32_t snap = std::max(done, ak[t].frame); // elapsed frame of the update that snaps
                if (snap >= n) {
                    invisibleAt(a, rate, done, n - done);
                    a = walk(a, rate, n - done, 0, 1);
                    done = n;
                } else {
                    invisibleAt(a, rate, done, snap - done);
                    a = std::clamp(in.alpha[t], 0.0f, 1.0f);
                    if (s.shader == Sh::Alpha && out.death == kNoDeath && a < 0.02f) out.death = snap + 1;
                    done = snap + 1;
                    ++t;
                    rate = t < K ? keyRate(ak, t, in.alpha[t - 1], in.alpha[t]) : 0.0f;
                }
            } else {
                invisibleAt(a, 0.0f, done, n - done);
                done = n;
            }
        }
    }
    // Colour: rate to the target key plus ColorScale every update; red and blue clamped to [0, 1], green only
    // from above (the engine's lower clamp of green tests red).
    glm::vec3 c = ck[0].rgb;
    const float big = 3.0e38f;
    const glm::vec3 lo(0.0f, -big, 0.0f), hi(1.0f);
    int t = 1;
    auto crate = [&](int tt) {
        return glm::vec3(keyRate(ck, tt, ck[tt - 1].rgb.r, tt < K ? ck[tt].rgb.r : 0.0f),
                         keyRate(ck, tt, ck[tt - 1].rgb.g, tt < K ? ck[tt].rgb.g : 0.0f),
                         keyRate(ck, tt, ck[tt - 1].rgb.b, tt < K ? ck[tt].rgb.b : 0.0f));
    };
    glm::vec3 rate = crate(1);
    uint32_t done = 0;
    auto step = [&](const glm::vec3& st, double k) {
        for (int i = 0; i < 3; ++i)
            c[i] = walk(c[i], st[i], k, lo[i], hi[i]);
    };
    const bool colourDeath = s.shader == Sh::Additive || s.shader == Sh::Multiply;
    auto invisibleColour = [&]() {
        return s.shader == Sh::Additive ? (c.r + c.g + c.b) <= 0.06f : (c.r * c.g * c.b) > 0.95f;
    };
    while (done < n) {
        if (t < K && ck[t].frame != 0) {
            const uint32_t sw = std::max(done, ck[t].frame);
            if (sw >= n) {
                step(rate + glm::vec3(in.colorScale), n - done);
                done = n;
            } else {
                step(rate + glm::vec3(in.colorScale), sw - done + 1);
                done = sw + 1;
                ++t;
                rate = t < K ? crate(t) : glm::vec3(0.0f);
                if (colourDeath && out.death == kNoDeath && (t >= K || ck[t].frame == 0) && invisibleColour())
                    out.death = done;
            }
        } else {
            // Past the keys: ColorScale alone each update; the first update is checked, then the rest one by one
            // when the colour still moves (bounded by n).
            if (colourDeath && out.death == kNoDeath && in.colorScale != 0.0f) {
                while (done < n) {
                    step(glm::vec3(in.colorScale), 1);
                    ++done;
                    if (invisibleColour()) {
                        out.death = done;
                        step(glm::vec3(in.colorScale), n - done);
                        done = n;
                    }
                }
            } else {
                step(glm::vec3(in.colorScale), n - done);
                if (colourDeath && out.death == kNoDeath && invisibleColour()) out.death = done + 1;
                done = n;
            }
        }
    }
    if (s.shader == Sh::None) out.death = std::min(out.death, 1u); // isInvisible's fall-through: removed at once
    // Additive particles are drawn by colour alone (the engine never updates their alpha).
    out.color = glm::vec4(c, s.shader == Sh::Additive ? 1.0f : a);
    return out;
}

// Wind angle of each active update 0..count-1 (updateWindMotion, run before the particles of that update).
void windAngles(const SageEmitterParams& s, uint64_t key, uint32_t count, std::vector<float>& out) {
    out.assign(count, 0.0f);
    SRng r{smix(key ^ 0x57494E44ull)};
    float start = r.real(s.windStartAngleMin, s.windStartAngleMax);
    float end = r.real(s.windEndAngleMin, s.windEndAngleMax);
    float angle = r.real(start, end);
    float change = 0.15f; // ParticleSystemInfo's m_windAngleChange (not read from INI)
    bool toEnd = true;
    for (uint32_t i = 0; i < count; ++i) {
        if (s.wind == SageEmitterParams::Wind::PingPong) {
            const float half = (end - start) / 2.0f;
            const float diff = std::fabs(half - angle + start);
            float ch = half != 0.0f ? (1.0f - diff / half) * change : change;
            if (!(ch >= 0.005f)) ch = 0.005f;
            if (toEnd) {
                angle += ch;
                if (angle >= end) {
                    toEnd = false;
                    change = r.real(s.windAngleChangeMin, s.windAngleChangeMax);
                    start = r.real(s.windStartAngleMin, s.windStartAngleMax);
                    end = r.real(s.windEndAngleMin, s.windEndAngleMax);
                }
            } else {
                angle -= ch;
                if (angle <= start) {
                    toEnd = true;
                    change = r.real(s.windAngleChangeMin, s.windAngleChangeMax);
                    start = r.real(s.windStartAngleMin, s.windStartAngleMax);
                    end = r.real(s.windEndAngleMin, s.windEndAngleMax);
                }
            }
        } else if (s.wind == SageEmitterParams::Wind::Circular) {
            if (change == 0.0f) change = r.real(s.windAngleChangeMin, s.windAngleChangeMax);
            angle += change;
            if (angle > float(kTwoPiD))
                angle -= float(kTwoPiD);
            else if (angle < 0.0f)
                angle += float(kTwoPiD);
        }
        if (!std::isfinite(angle)) angle = 0.0f;
        out[i] = angle;
    }
}

} // namespace

void ParticleSimulator::evaluateSage(int ei, double time, const ParticleSimOptions& o, Budget& budget,
                                     ParticleBuffer& out) const {
    const ParticleEmitter& emitter = sys_.emitters[ei];
    const SageEmitterParams& me = *emitter.sage;
    // A slave is driven by its master's bursts (mergeRelatedParticleSystems); its own schedule is unused.
    const int masterIndex = me.slaveOf >= 0 && me.slaveOf < int(sys_.emitters.size()) &&
                                    sys_.emitters[me.slaveOf].sage && sys_.emitters[me.slaveOf].sage->slaveOf < 0
                                ? me.slaveOf
                                : (me.slaveOf >= 0 ? -2 : ei);
    if (masterIndex == -2) return; // a slave without a master emits nothing (as the engine: it never bursts itself)
    const SageEmitterParams& ms = *sys_.emitters[masterIndex].sage;
    const bool isSlave = masterIndex != ei;
    bool hasSlave = false;
    int slaveIndex = -1;
    for (size_t k = 0; k < sys_.emitters.size(); ++k)
        if (sys_.emitters[k].sage && sys_.emitters[k].sage->slaveOf == masterIndex && int(k) != masterIndex) {
            hasSlave = true;
            slaveIndex = int(k);
            break;
        }
    if (isSlave && slaveIndex != ei) return; // only the first slave is the engine's (one slave system a master)
    if (!(time >= 0.0) || !std::isfinite(time)) return;
    const double framesD = std::floor(time * kSageFramesPerSecond + 1e-9);
    if (framesD > 4.0e9) return;
    const uint32_t U = uint32_t(framesD); // updates 0..U have run

    const uint64_t key = smix(o.seed ^ smix(uint64_t(masterIndex) + 0x5A6E5A6Eull));
    SRng sysRng{smix(key ^ 1)};
    const uint32_t delay = toFrames(sysRng.value(ms.initialDelay));
    if (U < delay) return;
    const uint32_t A = U - delay; // the last active update's index

    // Longest life in frames (0: unbounded) of the particles evaluated here.
    const SageEmitterParams& lifeOf = isSlave ? me : ms;
    const float lmin = std::min(lifeOf.lifetime.lo, lifeOf.lifetime.hi);
    const float lmax = std::max(lifeOf.lifetime.lo, lifeOf.lifetime.hi);
    const uint64_t maxLife = (lmin >= 1.0f && std::isfinite(lmax)) ? uint64_t(toFrames(lmax)) : 0;

    std::vector<float> wind;
    std::vector<glm::dvec2> windDir; // (cos, sin) of each active update's wind angle
    if (me.wind != SageEmitterParams::Wind::Unused) {
        windAngles(me, isSlave ? smix(key ^ 7) : key, A + 1, wind);
        windDir.resize(wind.size());
        for (size_t i = 0; i < wind.size(); ++i)
            windDir[i] = {std::cos(double(wind[i])), std::sin(double(wind[i]))};
    }

    auto burstRng = [&](uint64_t b) { return SRng{smix(key ^ smix(b * 0x100000001B3ull + 0xB0))}; };
    auto particleRng = [&](uint64_t b, uint64_t j, uint64_t part) {
        return SRng{smix(key ^ smix(smix(b + 0x9E37) ^ (j * 0x2545F4914F6CDD1Dull) ^ (part << 60)))};
    };
    // Size bonus streams: particle ordinal i of the master system draws StartSizeRate from this.
    auto bonusRng = [&](uint64_t which) {
        return [&, which](uint64_t i) { return SRng{smix(key ^ smix(i * 3 + which + 0x51A))}; };
    };

    const bool constSchedule = ms.burstDelay.constant() && ms.burstCount.constant();
    uint64_t b = 0, a = 0, ordinal = 0; // burst, its active index, particles before it
    if (constSchedule && maxLife > 0) {
        const uint64_t period = uint64_t(toFrames(ms.burstDelay.lo)) + 1;
        const uint64_t first = A > maxLife ? (A - maxLife) / period : 0;
        b = first;
        a = first * period;
        ordinal = first * uint64_t(toCount(ms.burstCount.lo));
    }
    int64_t bursts = 0;
    for (; a <= A; ++b) {
        if (ms.systemLifetime != 0 && a >= ms.systemLifetime) break;
        if (++bursts > kMaxEventsPerInstance) {
            budget.truncated = true;
            break;
        }
        SRng br = burstRng(b);
        const int64_t count = toCount(br.value(ms.burstCount));
        const uint64_t next = a + uint64_t(toFrames(br.value(ms.burstDelay))) + 1;
        const uint64_t n64 = uint64_t(A) - a + 1; // updates a particle of this burst has had
        const bool maybeAlive = maxLife == 0 || n64 < maxLife;
        if (maybeAlive && count > 0) {
            const uint32_t n = uint32_t(std::min<uint64_t>(n64, 0xFFFFFFFEu));
            const double birthTime = double(delay + a) / kSageFramesPerSecond;
            const glm::mat4 m = o.emitterTransform ? o.emitterTransform(birthTime) : glm::mat4(1.0f);
            const glm::mat4* mp = o.emitterTransform ? &m : nullptr;
            for (int64_t j = 0; j < count; ++j) {
                if (--budget.births < 0) {
                    budget.truncated = true;
                    return;
                }
                const uint64_t i = ordinal + uint64_t(j);
                Info in;
                if (!isSlave) {
                    const uint64_t g = hasSlave ? 2 * i : i; // the merge draws a second master info per particle
                    in = drawInfo(ms, particleRng(b, j, 0), sizeBonus(ms.startSizeRate, g, bonusRng(0)), mp);
                } else {
                    Info mi =
                        drawInfo(ms, particleRng(b, j, 1), sizeBonus(ms.startSizeRate, 2 * i + 1, bonusRng(0)), mp);
                    const Info si = drawInfo(me, particleRng(b, j, 2), sizeBonus(me.startSizeRate, i, bonusRng(1)), mp);
                    mi.lifetime = si.lifetime;
                    mi.size *= si.size;
                    mi.sizeRate *= si.sizeRate;
                    mi.sizeRateDamping *= si.sizeRateDamping;
                    mi.angle = si.angle;
                    mi.angularRate = si.angularRate;
                    mi.angularDamping = si.angularDamping;
                    std::copy(std::begin(si.alpha), std::end(si.alpha), std::begin(mi.alpha));
                    mi.colorScale = si.colorScale;
                    mi.pos += me.slavePosOffset;
                    in = mi;
                }
                if (in.lifetime != 0 && n >= in.lifetime) continue; // removed by its n-th update
                const Shaded sh = shadeSage(me, in, n);
                if (sh.death <= n) continue;
                ++out.live;
                if (out.count >= out.particles.size()) continue;
                SimParticle& p = out.particles[out.count++];
                const double dn = double(n);
                const double d = fin(in.velDamping);
                const double g1 = geomFrom1(d, dn);
                const double sumG1 = d == 1.0 ? dn * (dn + 1.0) / 2.0 : d / (1.0 - d) * (dn - g1);
                const glm::dvec3 grav(0.0, 0.0, double(fin(me.gravity)));
                const glm::dvec3 v0(in.vel), p0(in.pos), drift(me.drift);
                glm::dvec3 pos = p0 + drift * dn + v0 * g1 + grav * sumG1;
                const glm::dvec3 vel = v0 * std::pow(d, dn) + grav * g1;
                if (!wind.empty()) {
                    // doWindMotion after each update: a push along the system's wind angle, full within
                    // windFullDistance of the system, none beyond windZeroDistance.
                    glm::dvec3 w(0.0);
                    const glm::dvec3 origin(in.emitterPos);
                    const double full = me.windFullDistance, zero = me.windZeroDistance;
                    // The engine's recurrence itself (v = (v + g) d; p += v + drift; then the push), exact.
                    glm::dvec3 vk = v0, pk = p0;
                    for (uint32_t k = 1; k <= n; ++k) {
                        vk = (vk + grav) * d;
                        pk += vk + drift;
                        const double dist = glm::length(pk - origin);
                        if (dist < zero) {
                            double f = double(me.windStrength) * in.windRandomness;
                            if (dist > full && zero > full) f *= 1.0 - (dist - full) / (zero - full);
                            const glm::dvec2 dir = windDir[std::min<size_t>(size_t(a + k - 1), windDir.size() - 1)];
                            const glm::dvec3 push(dir.x * f, dir.y * f, 0.0);
                            pk += push;
                            w += push;
                        }
                    }
                    pos += w;
                }
                p.position = glm::vec3(pos);
                p.velocity = glm::vec3(vel) * float(kSageFramesPerSecond); // units a second
                p.size = float(double(in.size) + double(in.sizeRate) * geomFrom0(fin(in.sizeRateDamping), dn));
                p.rotation = float(double(in.angle) + double(in.angularRate) * geomFrom0(fin(in.angularDamping), dn));
                p.color = sh.color;
                p.frame = 0;
                p.emitter = uint32_t(ei);
                p.age = float((dn - 1.0) / kSageFramesPerSecond); // seconds since the update that made it
                p.life = in.lifetime ? float(double(in.lifetime) / kSageFramesPerSecond) : 0.0f;
            }
        }
        ordinal += uint64_t(count);
        a = next;
    }
}

} // namespace rs
