#include "particles/particle_sim.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace rs {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kTwoPi = 6.28318530717958647692f;

inline uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Counter-based stream: the n-th draw depends only on the start state.
struct Rng {
    uint64_t s;
    float next() { // [0, 1)
        s = mix(s);
        return static_cast<float>(s >> 40) * (1.0f / 16777216.0f);
    }
    float range(float lo, float hi) { return lo + (hi - lo) * next(); }
};

inline float finiteOr(float v, float fallback) { return std::isfinite(v) ? v : fallback; }

glm::vec3 sampleVolume(const ParticleVolume& v, Rng& r) {
    switch (v.shape) {
    case ParticleVolume::Shape::Box:
        return {r.range(v.min.x, v.max.x), r.range(v.min.y, v.max.y), r.range(v.min.z, v.max.z)};
    case ParticleVolume::Shape::Cube: {
        const float h = 0.5f * v.sideLength;
        return {r.range(-h, h), r.range(-h, h), r.range(-h, h)};
    }
    case ParticleVolume::Shape::Sphere: {
        // Uniform direction; radius uniform in [0, R] (as the reference), R on the surface.
        const float z = r.range(-1.0f, 1.0f), phi = r.range(0.0f, kTwoPi);
        const float radius = v.sphereEdge ? v.sphereRadius : r.range(0.0f, v.sphereRadius);
        const float s = std::sqrt(std::max(0.0f, 1.0f - z * z));
        return glm::vec3(s * std::cos(phi), s * std::sin(phi), z) * radius;
    }
    case ParticleVolume::Shape::Cylinder: {
        const float phi = r.range(0.0f, kTwoPi);
        const float radius = v.cylinderEdge ? v.cylinderRadius : r.range(0.0f, v.cylinderRadius);
        return {std::cos(phi) * radius, std::sin(phi) * radius, r.range(0.0f, v.cylinderHeight)};
    }
    default:
        return v.point;
    }
}

} // namespace

struct ParticleSimulator::Birth {
    double t = 0;    // spawn time
    double life = 0; // seconds
    glm::vec3 pos0{0.0f}, vel0{0.0f}, acc{0.0f};
    glm::vec3 origin{0.0f}; // emitter translation at birth
    uint64_t rng = 0;       // state for the appearance draws
};

struct ParticleSimulator::Instance {
    uint64_t key = 0;
    double start = 0, stop = kInf; // spawn events at start + delay + k * interval while < stop
    bool onDeath = false;          // one burst at start
    int parentEmitter = -1;
    const Birth* parent = nullptr;
};

struct ParticleSimulator::InstanceSink {
    void* ctx;
    void (*fn)(void*, const Instance&);
    void operator()(const Instance& i) const { fn(ctx, i); }
};
struct ParticleSimulator::BirthSink {
    void* ctx;
    void (*fn)(void*, const Birth&);
    void operator()(const Birth& b) const { fn(ctx, b); }
};

ParticleSimulator::ParticleSimulator(const ParticleSystem& system) : sys_(system), plans_(system.emitters.size()) {
    const int n = static_cast<int>(plans_.size());
    for (int i = 0; i < n; ++i) {
        const ParticleEmitter& e = system.emitters[i];
        const ParticleEmitterParams& p = e.params;
        Plan& pl = plans_[i];
        pl.delay = std::max(0.0f, finiteOr(p.initialDelay, 0.0f));
        if (p.useBursts) {
            pl.perEvent = p.particlesPerBurst;
            const float d = finiteOr(p.burstDelay, 0.0f);
            pl.interval = d > 0.0f ? d : 1.0;
            pl.maxEvents = d > 0.0f ? (p.burstCount > 0 ? p.burstCount : -1) : 1;
        } else {
            pl.perEvent = p.particlesPerSecond > 0 ? 1 : 0;
            pl.interval = p.particlesPerSecond > 0 ? 1.0 / p.particlesPerSecond : 0.0;
        }
        const float life = std::max(0.0f, finiteOr(p.lifetime, 0.0f));
        const float var = std::max(0.0f, finiteOr(p.randomLifetime, 0.0f));
        pl.maxLife = double(life) * (1.0 + var);
        if (!std::isfinite(pl.maxLife)) pl.maxLife = 0;
        uint32_t frames = std::max<uint32_t>(1, p.textureFrames);
        pl.grid = static_cast<uint32_t>(std::ceil(std::sqrt(double(frames))));
        pl.sizeVar = std::clamp(finiteOr(p.randomScale, 0.0f), 0.0f, 1.0f) * 0.5f;
    }
    for (int i = 0; i < n; ++i) {
        const ParticleEmitter& e = system.emitters[i];
        if (!e.sage) continue;
        // SAGE: lifetimes in frames; 0 (or a range reaching below 1) lives until invisible: no bound.
        const SageRange& l = e.sage->lifetime;
        const float lo = std::min(l.lo, l.hi), hi = std::max(l.lo, l.hi);
        plans_[i].maxLife =
            (std::isfinite(hi) && lo >= 1.0f) ? double(std::min(hi, 4.0e9f)) / kSageFramesPerSecond : kInf;
    }
    for (int i = 0; i < n; ++i) {
        const ParticleEmitter& e = system.emitters[i];
        if (!e.w3d) continue;
        const float life = finiteOr(e.w3d->lifetime, 0.0f);
        plans_[i].maxLife = life > 0.0f ? double(life) : 0.0;
        plans_[i].grid = std::clamp<uint32_t>(e.w3d->grid, 1, 16);
    }
    for (int i = 0; i < n; ++i) {
        const ParticleEmitter& e = system.emitters[i];
        if (e.sage || e.w3d) continue;
        if (e.spawnDuringLife >= 0 && e.spawnDuringLife < n && e.spawnDuringLife != i) {
            plans_[i].birthChildren.push_back(e.spawnDuringLife);
            plans_[e.spawnDuringLife].parents.push_back({i, false});
        }
        if (e.spawnOnDeath >= 0 && e.spawnOnDeath < n && e.spawnOnDeath != i) {
            plans_[i].deathChildren.push_back(e.spawnOnDeath);
            plans_[e.spawnOnDeath].parents.push_back({i, true});
        }
    }
    // reach[e] = longest a descendant may live after a particle of e dies. The reader refuses cycles; a hand-built
    // system with one gets its links through the cycle cut (state 1 = on the stack).
    std::vector<int> state(n, 0);
    std::function<void(int)> visit = [&](int i) {
        state[i] = 1;
        double reach = 0;
        for (auto* list : {&plans_[i].birthChildren, &plans_[i].deathChildren})
            for (auto it = list->begin(); it != list->end();) {
                if (state[*it] == 1) {
                    it = list->erase(it);
                    continue;
                }
                if (state[*it] == 0) visit(*it);
                reach = std::max(reach, plans_[*it].maxLife + plans_[*it].reach);
                ++it;
            }
        plans_[i].reach = reach;
        state[i] = 2;
    };
    for (int i = 0; i < n; ++i)
        if (state[i] == 0) visit(i);
    for (Plan& pl : plans_)
        pl.parents.clear();
    for (int i = 0; i < n; ++i) {
        for (int c : plans_[i].birthChildren)
            plans_[c].parents.push_back({i, false});
        for (int c : plans_[i].deathChildren)
            plans_[c].parents.push_back({i, true});
    }
    for (int i = 0; i < n; ++i)
        plans_[i].topLevel =
            plans_[i].parents.empty() && !(system.emitters[i].sage && system.emitters[i].sage->slaveOf >= 0);
}

ParticleSimulator::Birth ParticleSimulator::makeBirth(int ei, const Instance& inst, int64_t k, uint32_t j,
                                                      const ParticleSimOptions& o) const {
    const ParticleEmitter& e = sys_.emitters[ei];
    const ParticleEmitterParams& p = e.params;
    const Plan& pl = plans_[ei];
    Birth b;
    b.t = inst.onDeath ? inst.start : inst.start + pl.delay + double(k) * pl.interval;
    Rng r{mix(inst.key ^ mix(uint64_t(k) * 0x100000001B3ull + j))};
    b.rng = mix(r.s ^ 0xA5A5A5A5A5A5A5A5ull);
    const float life = std::max(0.0f, finiteOr(p.lifetime, 0.0f));
    b.life = double(life) * (1.0 + double(r.next()) * std::max(0.0f, finiteOr(p.randomLifetime, 0.0f)));

    const bool moving = static_cast<bool>(o.emitterTransform);
    const glm::mat4 m = moving ? o.emitterTransform(b.t) : glm::mat4(1.0f);
    b.origin = glm::vec3(m[3]);
    b.pos0 = sampleVolume(e.position, r);
    glm::vec3 v = sampleVolume(e.velocity, r);
    if (moving) {
        b.pos0 = glm::vec3(m * glm::vec4(b.pos0, 1.0f));
        v = glm::mat3(m) * v;
    }
    if (inst.parent) {
        const Birth& pb = *inst.parent;
        b.pos0 += positionAt(inst.parentEmitter, pb, b.t, o) - b.origin;
        if (!inst.onDeath && p.useLinkStrength && p.parentLinkStrength != 0.0f) {
            const float age = static_cast<float>(b.t - pb.t);
            v += (pb.vel0 + pb.acc * age) * p.parentLinkStrength;
        }
    }
    if (p.inwardSpeed != 0.0f) {
        const glm::vec3 d = b.pos0 - b.origin;
        const float len = glm::length(d);
        v = len > 0.0f ? d * (p.inwardSpeed / len) : glm::vec3(0.0f);
    }
    b.vel0 = v;
    glm::vec3 acc = p.acceleration + glm::vec3(0.0f, 0.0f, -p.gravity);
    if (p.objectSpaceAcceleration && moving) acc = glm::mat3(m) * acc;
    b.acc = acc;
    return b;
}

namespace {

// Folds the bit patterns of n floats into h, two at a time.
uint64_t hashFloats(uint64_t h, const float* f, size_t n) {
    for (size_t i = 0; i < n; i += 2) {
        uint32_t a = 0, b = 0;
        std::memcpy(&a, f + i, 4);
        if (i + 1 < n) std::memcpy(&b, f + i + 1, 4);
        h = mix(h ^ (uint64_t(a) << 32 | b));
    }
    return h;
}

// The entry for key (found: same key) or a free one to fill (key differs), or null when the probed slots are taken.
AttractionCache::Entry* cacheSlot(AttractionCache& c, uint64_t key, size_t capacity) {
    if (c.entries.empty()) {
        size_t n = AttractionCache::kMinEntries;
        while (n < 2 * capacity && n < AttractionCache::kMaxEntries)
            n *= 2;
        c.entries.resize(n);
    }
    const size_t mask = c.entries.size() - 1;
    AttractionCache::Entry* free = nullptr;
    for (int i = 0; i < AttractionCache::kProbes; ++i) {
        AttractionCache::Entry& e = c.entries[(size_t(mix(key)) + size_t(i)) & mask];
        if (e.generation != 0 && e.key == key) return &e;
        if (!free && (e.generation == 0 || e.generation + 2 <= c.generation)) free = &e;
    }
    return free;
}

} // namespace

glm::vec3 ParticleSimulator::positionAt(int ei, const Birth& b, double time, const ParticleSimOptions& o,
                                        AttractionCache* cache) const {
    const ParticleEmitterParams& p = sys_.emitters[ei].params;
    const double a = std::clamp(time - b.t, 0.0, b.life);
    glm::vec3 pos;
    if (p.inwardAcceleration == 0.0f || !std::isfinite(p.inwardAcceleration)) {
        const float af = static_cast<float>(a);
        pos = b.pos0 + b.vel0 * af + b.acc * (0.5f * af * af);
    } else {
        // Attraction depends on the position: semi-implicit Euler with a fixed step from birth (deterministic).
        double h = o.attractionStep > 0.0f && std::isfinite(o.attractionStep) ? o.attractionStep : 1.0 / 30.0;
        bool grid = true; // steps fall on the grid h, 2h, ... from birth (else h depends on the age: no cache)
        if (a / h > double(kMaxIntegrationSteps)) {
            h = a / double(kMaxIntegrationSteps);
            grid = false;
        }
        const int64_t steps = std::min<int64_t>(static_cast<int64_t>(a / h), kMaxIntegrationSteps);
        pos = b.pos0;
        glm::vec3 vel = b.vel0;
        int64_t done = 0;
        AttractionCache::Entry* slot = nullptr;
        uint64_t key = 0;
        if (cache && grid) {
            const float birth[14] = {b.pos0.x,
                                     b.pos0.y,
                                     b.pos0.z,
                                     b.vel0.x,
                                     b.vel0.y,
                                     b.vel0.z,
                                     b.acc.x,
                                     b.acc.y,
                                     b.acc.z,
                                     b.origin.x,
                                     b.origin.y,
                                     b.origin.z,
                                     p.inwardAcceleration,
                                     0.0f};
            uint64_t bt = 0, bh = 0;
            std::memcpy(&bt, &b.t, 8);
            std::memcpy(&bh, &h, 8);
            key = hashFloats(mix(b.rng ^ mix(uint64_t(ei) + 1) ^ mix(bt ^ mix(bh))), birth, 14);
            slot = cacheSlot(*cache, key, cache->capacity);
            if (slot && slot->key == key && slot->steps <= steps) {
                pos = slot->pos;
                vel = slot->vel;
                done = slot->steps;
            }
        }
        auto step = [&](float dt) {
            glm::vec3 acc = b.acc;
            const glm::vec3 d = pos - b.origin;
            const float len = glm::length(d);
            if (len > 0.0f) acc -= d * (p.inwardAcceleration / len);
            vel += acc * dt;
            pos += vel * dt;
        };
        for (int64_t i = done; i < steps; ++i)
            step(static_cast<float>(h));
        if (slot) {
            slot->key = key;
            slot->generation = cache->generation;
            slot->steps = static_cast<int32_t>(steps);
            slot->pos = pos;
            slot->vel = vel;
        }
        step(static_cast<float>(a - double(steps) * h));
    }
    if (p.linkToSystem && o.emitterTransform) pos += glm::vec3(o.emitterTransform(time)[3]) - b.origin;
    return pos;
}

void ParticleSimulator::shade(int ei, const Birth& b, double time, const ParticleSimOptions& o, SimParticle& out,
                              AttractionCache* cache) const {
    const ParticleEmitter& e = sys_.emitters[ei];
    const ParticleEmitterParams& p = e.params;
    const Plan& pl = plans_[ei];
    const double age = time - b.t;
    const float t = b.life > 0 ? static_cast<float>(age / b.life) : 0.0f;
    out.position = positionAt(ei, b, time, o, cache);
    out.velocity = b.vel0 + b.acc * static_cast<float>(age);
    out.age = static_cast<float>(age);
    out.life = static_cast<float>(b.life);
    out.emitter = static_cast<uint32_t>(ei);

    Rng r{b.rng};
    glm::vec4 c(e.red.sample(t), e.green.sample(t), e.blue.sample(t), e.alpha.sample(t));
    const float u0 = r.next(), u1 = r.next(), u2 = r.next(), u3 = r.next();
    const glm::vec4 rc = p.randomColor;
    if (rc != glm::vec4(0.0f)) {
        const glm::vec4 add = p.colorAddGrayscale ? glm::vec4(u0 * rc.r, u0 * rc.r, u0 * rc.r, u3 * rc.a)
                                                  : glm::vec4(u0 * rc.r, u1 * rc.g, u2 * rc.b, u3 * rc.a);
        c += add;
    }
    out.color = glm::clamp(c, glm::vec4(0.0f), glm::vec4(1.0f));

    const float v = pl.sizeVar;
    out.size = e.size.sample(t) * (1.0f + v * (2.0f * r.next() - 1.0f)) / (1.0f + v);

    const float sign = (p.randomRotationDirection && r.next() < 0.5f) ? -1.0f : 1.0f;
    const float uRot = r.next();
    float revs;
    if (p.randomRotation) {
        // Fixed rotation (the reference's reading): fractional part of the rotation track's first value, varied by
        // +-variance / value of itself.
        const float avg = e.rotationSpeed.keys.empty() ? 0.0f : e.rotationSpeed.keys.front().y;
        if (avg > 0.0f) {
            const float frac = avg - std::trunc(avg);
            const float var = std::fabs(p.randomRotationVariance) / avg;
            revs = frac + (2.0f * uRot - 1.0f) * var * frac;
        } else {
            revs = avg;
        }
    } else {
        revs = static_cast<float>(b.life) * e.rotationSpeed.integral(t);
    }
    out.rotation = sign * revs * kTwoPi;

    const uint64_t cells = uint64_t(pl.grid) * pl.grid;
    const float fv = e.frame.sample(t);
    int64_t f = std::isfinite(fv) ? static_cast<int64_t>(std::floor(std::clamp(fv, -1e9f, 1e9f) + 0.5f)) : 0;
    f %= static_cast<int64_t>(cells);
    if (f < 0) f += static_cast<int64_t>(cells);
    out.frame = static_cast<uint32_t>(f);
}

void ParticleSimulator::forEachBirth(int ei, const Instance& inst, double time, double window,
                                     const ParticleSimOptions& o, Budget& budget, const BirthSink& sink) const {
    const ParticleEmitter& e = sys_.emitters[ei];
    const Plan& pl = plans_[ei];
    if (inst.onDeath) {
        // The reference's death creator: one burst of particles_per_burst (bursting) or particles_per_second.
        if (inst.start > time || inst.start < time - window) return;
        const uint32_t n = e.params.useBursts ? e.params.particlesPerBurst : e.params.particlesPerSecond;
        const uint32_t capped = static_cast<uint32_t>(std::min<uint64_t>(n, kMaxEventsPerInstance));
        if (capped < n) budget.truncated = true;
        for (uint32_t j = 0; j < capped; ++j) {
            if (--budget.births < 0) {
                budget.truncated = true;
                return;
            }
            const Birth b = makeBirth(ei, inst, 0, j, o);
            sink(b);
        }
        return;
    }
    if (pl.interval <= 0.0 || pl.perEvent == 0) return;
    const double first = inst.start + pl.delay;
    if (time < first) return;
    const double maxK = 9.0e15;
    double hi = std::floor((time - first) / pl.interval) + 1.0;
    double lo = std::floor((time - window - first) / pl.interval) - 1.0;
    hi = std::clamp(hi, 0.0, maxK);
    lo = std::clamp(lo, 0.0, maxK);
    int64_t kHi = static_cast<int64_t>(hi), kLo = static_cast<int64_t>(lo);
    if (pl.maxEvents >= 0) kHi = std::min(kHi, pl.maxEvents - 1);
    if (kHi - kLo > kMaxEventsPerInstance) {
        kLo = kHi - kMaxEventsPerInstance;
        budget.truncated = true;
    }
    for (int64_t k = kLo; k <= kHi; ++k) {
        const double tk = first + double(k) * pl.interval;
        if (tk > time || tk >= inst.stop) break;
        if (tk < time - window) continue;
        for (uint32_t j = 0; j < pl.perEvent; ++j) {
            if (--budget.births < 0) {
                budget.truncated = true;
                return;
            }
            const Birth b = makeBirth(ei, inst, k, j, o);
            sink(b);
        }
    }
}

void ParticleSimulator::forEachInstance(int ei, double time, const ParticleSimOptions& o, Budget& budget,
                                        const InstanceSink& sink) const {
    const Plan& pl = plans_[ei];
    if (pl.topLevel) {
        Instance inst;
        inst.key = mix(o.seed ^ mix(uint64_t(ei) + 0x51ED270B27ull));
        const float skip = sys_.emitters[ei].params.skipTime;
        inst.start = (o.applySkipTime && std::isfinite(skip) && skip > 0.0f) ? -double(skip) : 0.0;
        sink(inst);
    }
    for (const std::pair<int, bool>& link : pl.parents) {
        const int parent = link.first;
        const bool onDeath = link.second;
        const double childSpan = pl.maxLife + pl.reach;
        auto onParentBirth = [&](const Birth& pb) {
            const double death = pb.t + pb.life;
            if (pb.t > time || death + childSpan < time) return;
            if (onDeath && death > time) return;
            Instance c;
            c.key = mix(pb.rng ^ mix((uint64_t(ei) << 1) | (onDeath ? 1u : 0u)));
            c.parentEmitter = parent;
            c.parent = &pb;
            c.onDeath = onDeath;
            c.start = onDeath ? death : pb.t;
            c.stop = death;
            sink(c);
        };
        const BirthSink birthSink{&onParentBirth,
                                  [](void* ctx, const Birth& b) { (*static_cast<decltype(onParentBirth)*>(ctx))(b); }};
        const double window = plans_[parent].maxLife + plans_[parent].reach;
        auto onParentInstance = [&](const Instance& pin) {
            forEachBirth(parent, pin, time, window, o, budget, birthSink);
        };
        forEachInstance(parent, time, o, budget, InstanceSink{&onParentInstance, [](void* ctx, const Instance& i) {
                                                                  (*static_cast<decltype(onParentInstance)*>(ctx))(i);
                                                              }});
    }
}

void ParticleSimulator::evaluate(double time, const ParticleSimOptions& o, ParticleBuffer& out) const {
    out.count = 0;
    out.live = 0;
    out.truncated = false;
    if (!std::isfinite(time)) return;
    out.attraction.capacity = out.particles.size();
    if (++out.attraction.generation == 0) { // wrapped: forget every entry rather than mistake old ones for fresh
        out.attraction.entries.assign(out.attraction.entries.size(), AttractionCache::Entry{});
        out.attraction.generation = 1;
    }
    Budget budget;
    budget.births = std::clamp<int64_t>(o.maxBirths, 0, kMaxBirthsPerEvaluate);
    for (int ei = 0; ei < static_cast<int>(plans_.size()); ++ei) {
        const size_t begin = out.count;
        if (sys_.emitters[ei].sage || sys_.emitters[ei].w3d) {
            if (sys_.emitters[ei].sage)
                evaluateSage(ei, time, o, budget, out);
            else
                evaluateW3d(ei, time, o, budget, out);
            if (static_cast<size_t>(ei) < out.emitters.size())
                out.emitters[ei] = {static_cast<uint32_t>(begin), static_cast<uint32_t>(out.count - begin)};
            continue;
        }
        auto onBirth = [&](const Birth& b) {
            if (!(b.t <= time && time < b.t + b.life)) return;
            ++out.live;
            if (out.count < out.particles.size()) shade(ei, b, time, o, out.particles[out.count++], &out.attraction);
        };
        const BirthSink birthSink{&onBirth,
                                  [](void* ctx, const Birth& b) { (*static_cast<decltype(onBirth)*>(ctx))(b); }};
        auto onInstance = [&](const Instance& inst) {
            forEachBirth(ei, inst, time, plans_[ei].maxLife, o, budget, birthSink);
        };
        forEachInstance(ei, time, o, budget, InstanceSink{&onInstance, [](void* ctx, const Instance& i) {
                                                              (*static_cast<decltype(onInstance)*>(ctx))(i);
                                                          }});
        if (static_cast<size_t>(ei) < out.emitters.size())
            out.emitters[ei] = {static_cast<uint32_t>(begin), static_cast<uint32_t>(out.count - begin)};
    }
    out.truncated = budget.truncated;
}

} // namespace rs
