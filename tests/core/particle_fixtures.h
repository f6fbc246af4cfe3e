// Particle systems built in code for the tests (written with alamo/particle_writer.h where a file is needed).
#pragma once

#include "particles/particle_system.h"

namespace rs::test {

inline ParticleTrack constantTrack(float v, ParticleTrack::Interp in = ParticleTrack::Interp::Linear) {
    ParticleTrack t;
    t.interp = in;
    t.rawInterp = static_cast<uint32_t>(in);
    t.keys = {{0.0f, v}, {1.0f, v}};
    return t;
}

// A point emitter at the origin, no velocity: white, opaque, size 1, frame 0, no rotation.
inline ParticleEmitter pointEmitter(const std::string& name, float lifetime) {
    ParticleEmitter e;
    e.name = name;
    e.colorTexture = "p_particle_master.tga";
    e.blend = ParticleBlend::Additive;
    e.params.blendMode = 1;
    e.params.lifetime = lifetime;
    e.params.textureFrames = 1;
    e.red = e.green = e.blue = e.alpha = constantTrack(1.0f);
    e.size = constantTrack(1.0f);
    e.frame = constantTrack(0.0f, ParticleTrack::Interp::Step);
    e.rotationSpeed = constantTrack(0.0f);
    e.hasSpawnLinks = true;
    return e;
}

inline ParticleEmitter continuousEmitter(const std::string& name, uint32_t perSecond, float lifetime) {
    ParticleEmitter e = pointEmitter(name, lifetime);
    e.params.particlesPerSecond = perSecond;
    return e;
}

inline ParticleEmitter burstEmitter(const std::string& name, uint32_t perBurst, float delay, int32_t bursts,
                                    float lifetime) {
    ParticleEmitter e = pointEmitter(name, lifetime);
    e.params.useBursts = true;
    e.params.particlesPerBurst = perBurst;
    e.params.burstDelay = delay;
    e.params.burstCount = bursts;
    return e;
}

// Emitter 0 ("parent"): one particle at t = 0 living 2 s, moving +X at 1 unit/s; during its life it runs
// emitter 1 ("trail", 10/s, 0.5 s, red 0 -> 0.2 at t = 0.25 -> 1), on its death emitter 2 ("debris", one burst of 4).
inline ParticleSystem chainFixture() {
    ParticleSystem s;
    s.name = "p_test_chain";
    s.hasLeaveParticles = true;
    ParticleEmitter parent = burstEmitter("parent", 1, 1.0f, 1, 2.0f);
    parent.velocity.shape = ParticleVolume::Shape::Point;
    parent.velocity.point = {1.0f, 0.0f, 0.0f};
    parent.spawnDuringLife = 1;
    parent.spawnOnDeath = 2;
    parent.bumpTexture = "p_particle_depth_master.tga";
    ParticleUnknown u;
    u.chunk = 0x02;
    u.mini = 0x49;
    u.bytes = {1, 2, 3, 4};
    parent.unknown.push_back(u);
    ParticleEmitter trail = continuousEmitter("trail", 10, 0.5f);
    trail.red.keys = {{0.0f, 0.0f}, {0.25f, 51.0f / 255.0f}, {1.0f, 1.0f}};
    ParticleEmitter debris = burstEmitter("debris", 4, 1.0f, 1, 1.0f);
    s.emitters = {parent, trail, debris};
    return s;
}

} // namespace rs::test
