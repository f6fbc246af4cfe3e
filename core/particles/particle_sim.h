// Deterministic particle simulation: the live particles of a ParticleSystem at a time, in closed form per particle.
//
// Contract:
// - Same system, seed, time and emitter transform => bit-identical output, whatever was evaluated before
//   (there is no state between calls: scrubbing back and forth equals straight evaluation).
// - Every particle is identified by (emitter instance, spawn event k, member j of a burst); its randomness comes
//   from a hash of those and the seed, its motion from its birth values (p(a) = p0 + v0 a + acc a^2 / 2), so
//   evaluating time T costs O(particles alive at T), not O(T).
// - evaluate() does not allocate: it writes into a caller-owned ParticleBuffer sized once (whose AttractionCache is
//   allocated once, by the first evaluation that integrates an inward-accelerated particle).
// Model (docs/formats/alamo-particles.md has the derivation and what is not simulated):
// - a top-level emitter starts at time -skipTime (option) and spawns `particles_per_second` particles a second, or
//   `particles_per_burst` every `burst_delay` seconds for `burst_count` bursts, after `initial_delay`;
// - an emitter named by another's spawn-during-life link runs once per parent particle, from its birth to its
//   death, at the parent particle's position; one named by a spawn-on-death link bursts once where a parent
//   particle dies;
// - particles live lifetime * (1 + U(0, random_lifetime)) seconds; colour, size, frame and rotation follow the
//   tracks over the normalised life.
// SAGE emitters (ParticleEmitter::sage) follow the Generals / Zero Hour engine instead (sage_sim.cpp,
// docs/formats/sage-particles.md): the system updates once a frame (kSageFramesPerSecond), after InitialDelay
// frames it bursts BurstCount particles every BurstDelay + 1 frames while SystemLifetime lasts, and a particle after
// n updates is where n steps of Particle::update put it (velocity damping, gravity, drift, size rate and its damping,
// angular rate and its damping, alpha and colour keys with ColorScale), computed in closed form per particle; wind
// steps frame by frame. The state at time T is the state after the update of frame floor(T * 30).
// W3D emitters (ParticleEmitter::w3d) follow ww3d2 (w3d_sim.cpp, W3dEmitterParams): emissions every interval,
// closed-form kinematics, keyframes over age with per-particle random offsets.
#pragma once

#include "particles/particle_system.h"

#include <glm/mat4x4.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace rs {

// One live particle, world space (the emitter transform applied).
struct SimParticle {
    glm::vec3 position{0.0f};
    float size = 0.0f;     // full quad width (world units)
    glm::vec4 color{1.0f}; // rgba 0..1 (tracks + random colour, saturated)
    glm::vec3 velocity{0.0f};
    float rotation = 0.0f; // radians, counter-clockwise around the view axis (world Z when world oriented)
    uint32_t frame = 0;    // texture atlas frame: column frame % grid, row frame / grid (grid = atlasGrid())
    uint32_t emitter = 0;  // index into ParticleSystem::emitters
    float age = 0.0f;      // seconds since birth
    float life = 0.0f;     // this particle's lifetime, seconds
};

// Texture rectangle of an atlas frame: (u0, v0, width, height) in texture coordinates, frames row by row from the
// top-left (D3D convention, v down; flip v for OpenGL as for model textures).
inline glm::vec4 atlasRect(uint32_t frame, uint32_t grid) {
    const float g = grid ? static_cast<float>(grid) : 1.0f, step = 1.0f / g;
    const uint32_t n = grid ? grid : 1;
    return {static_cast<float>(frame % n) * step, static_cast<float>((frame / n) % n) * step, step, step};
}

// Integration states of inward-accelerated particles kept from one evaluate() to the next (inside the caller-owned
// ParticleBuffer): a particle's position and velocity at its last whole integration step, so that the next frame
// continues from there instead of integrating again from birth. Exact: the steps lie on the same grid from birth,
// and an entry is found only for the same particle born with the same values (a hash of its birth state), so the
// output stays bit-identical to an evaluation with an empty cache.
struct AttractionCache {
    struct Entry {
        uint64_t key = 0;        // hash of the emitter, the particle's identity, its birth state and the step
        uint32_t generation = 0; // evaluation that last used it (0: never)
        int32_t steps = 0;       // whole steps integrated
        glm::vec3 pos{0.0f}, vel{0.0f};
    };
    // A power of two, twice the buffer's capacity within these bounds (1.3 MB at most: it stays in cache; beyond
    // ~16,000 integrated particles the rest are integrated from birth), allocated at the first integration.
    static constexpr size_t kMinEntries = 1024, kMaxEntries = 32768;
    static constexpr int kProbes = 8;
    std::vector<Entry> entries;
    uint32_t generation = 0; // evaluations so far; entries unused for two of them are free
    size_t capacity = 0;     // the buffer's particle capacity (set by evaluate)
};

// Caller-owned output: allocated once (capacity particles), reused every frame.
struct ParticleBuffer {
    struct Range {
        uint32_t begin = 0, count = 0;
    };
    std::vector<SimParticle> particles; // capacity slots; [0, count) valid
    std::vector<Range> emitters;        // per emitter: its particles, contiguous, in emitter order
    size_t count = 0;                   // particles written
    size_t live = 0;                    // particles alive at the time (> count when the capacity was too small)
    bool truncated = false; // a work bound was hit (kMaxEventsPerInstance, kMaxBirthsPerEvaluate): output incomplete
    AttractionCache attraction; // see AttractionCache (allocated once, the first time a particle is integrated)

    ParticleBuffer() = default;
    ParticleBuffer(size_t capacity, size_t emitterCount) : particles(capacity), emitters(emitterCount) {}
};

struct ParticleSimOptions {
    uint64_t seed = 1;
    bool applySkipTime = true; // top-level emitters start skip_time seconds early (property 0x33)
    // Emitter (proxy bone) to world at a time in seconds; empty = identity. Called at particle births (and at the
    // evaluated time for link_to_system emitters).
    std::function<glm::mat4(double)> emitterTransform;
    float attractionStep = 1.0f / 30.0f; // fixed integration step for inward acceleration (0x0B), seconds
    // Births one evaluate() may make (clamped to [0, ParticleSimulator::kMaxBirthsPerEvaluate]); beyond it the rest
    // are skipped and out.truncated is set. Lower it to bound the cost of a frame more tightly (the fuzz target).
    int64_t maxBirths = std::numeric_limits<int64_t>::max();
};

class ParticleSimulator {
  public:
    // Work bounds against hostile files (rates of billions a second, lifetimes of 1e30 s, deep chains): beyond them
    // the oldest spawn events of an instance, then any further births, are skipped and out.truncated is set.
    static constexpr int64_t kMaxEventsPerInstance = 1 << 20;
    static constexpr int64_t kMaxBirthsPerEvaluate = 1 << 22;
    // Inward-acceleration integration uses at most this many steps a particle (longer lives: longer steps).
    static constexpr int64_t kMaxIntegrationSteps = 64;

    // Keeps a reference to `system` (it must outlive the simulator). Precomputes the spawn plan.
    explicit ParticleSimulator(const ParticleSystem& system);

    // The live particles at `time` (seconds since the system started) into `out` (resized never: particles beyond
    // out.particles.size() are counted in out.live but not written). out.emitters must hold one Range per emitter.
    void evaluate(double time, const ParticleSimOptions& options, ParticleBuffer& out) const;

    // Grid of the emitter's texture atlas: ceil(sqrt(texture_frames)), at least 1.
    uint32_t atlasGrid(size_t emitter) const { return plans_[emitter].grid; }
    // True for emitters started by the system itself (not by another emitter's particles).
    bool topLevel(size_t emitter) const { return plans_[emitter].topLevel; }
    // Longest a particle of the emitter can live, seconds.
    double maxLife(size_t emitter) const { return plans_[emitter].maxLife; }

    struct Instance;
    struct Birth;

  private:
    struct Plan {
        double interval = 0;    // seconds between spawn events (0: no events)
        uint32_t perEvent = 0;  // particles per event
        int64_t maxEvents = -1; // -1 unlimited
        double delay = 0;       // first event after the instance start
        double maxLife = 0;
        double reach = 0; // how long after a particle's death its descendants may still live
        bool topLevel = true;
        uint32_t grid = 1;
        float sizeVar = 0; // randomScale / 2
        std::vector<int> birthChildren, deathChildren;
        std::vector<std::pair<int, bool>> parents; // (emitter, on death)
    };
    struct InstanceSink;
    struct BirthSink;
    struct Budget {
        int64_t births = kMaxBirthsPerEvaluate; // set from ParticleSimOptions::maxBirths
        bool truncated = false;
    };

    void forEachInstance(int e, double time, const ParticleSimOptions& o, Budget& budget,
                         const InstanceSink& sink) const;
    void forEachBirth(int e, const Instance& inst, double time, double window, const ParticleSimOptions& o,
                      Budget& budget, const BirthSink& sink) const;
    Birth makeBirth(int e, const Instance& inst, int64_t k, uint32_t j, const ParticleSimOptions& o) const;
    glm::vec3 positionAt(int e, const Birth& b, double time, const ParticleSimOptions& o,
                         AttractionCache* cache = nullptr) const;
    void shade(int e, const Birth& b, double time, const ParticleSimOptions& o, SimParticle& p,
               AttractionCache* cache) const;
    // SAGE emitters (ParticleEmitter::sage, sage_sim.cpp): the engine's per-frame update in closed form.
    void evaluateSage(int e, double time, const ParticleSimOptions& o, Budget& budget, ParticleBuffer& out) const;
    // W3D emitters (ParticleEmitter::w3d, w3d_sim.cpp): ww3d2's emission and kinematics in closed form.
    void evaluateW3d(int e, double time, const ParticleSimOptions& o, Budget& budget, ParticleBuffer& out) const;

    const ParticleSystem& sys_;
    std::vector<Plan> plans_;
};

} // namespace rs
