// Particle workloads shared by the particle benches (particle_sim_bench, sage_bench): the same emitters, so that their
// figures compare.
#pragma once

#include "particles/particle_system.h"

#include <string>
#include <vector>

namespace rs::bench {

inline ParticleTrack track(std::vector<glm::vec2> keys, ParticleTrack::Interp in = ParticleTrack::Interp::Linear) {
    ParticleTrack t;
    t.interp = in;
    t.keys = std::move(keys);
    return t;
}

// An Alamo emitter using most of what the simulation computes: sphere births, box velocities, gravity, random colour
// and size, 3-key colour/size tracks, rotation speed, 16-frame atlas (perSecond * life live particles).
inline ParticleEmitter richEmitter(uint32_t perSecond, float life) {
    ParticleEmitter e;
    e.name = "rich";
    e.params.particlesPerSecond = perSecond;
    e.params.lifetime = life;
    e.params.gravity = 2.0f;
    e.params.randomScale = 0.3f;
    e.params.randomColor = {0.1f, 0.1f, 0.05f, 0.0f};
    e.params.randomRotationDirection = true;
    e.params.textureFrames = 16;
    e.position.shape = ParticleVolume::Shape::Sphere;
    e.position.sphereRadius = 3.0f;
    e.velocity.shape = ParticleVolume::Shape::Box;
    e.velocity.min = {-2, -2, 4};
    e.velocity.max = {2, 2, 8};
    e.red = track({{0, 1}, {0.3f, 0.8f}, {1, 0.2f}});
    e.green = track({{0, 0.9f}, {0.3f, 0.5f}, {1, 0.1f}});
    e.blue = track({{0, 0.2f}, {1, 0.0f}});
    e.alpha = track({{0, 0}, {0.1f, 1}, {1, 0}}, ParticleTrack::Interp::Smooth);
    e.size = track({{0, 1}, {0.5f, 4}, {1, 6}});
    e.frame = track({{0, 0}, {1, 15}}, ParticleTrack::Interp::Step);
    e.rotationSpeed = track({{0, 0.5f}, {1, 0.1f}});
    return e;
}

// A SAGE system (ParticleSystem INI) using most of Zero Hour's update: 167 a frame living 60 frames (~10,000 live),
// sphere volume, outward velocity, damping, gravity, drift, size rate, 4 alpha and 3 colour keys, colour scale.
inline const char* sageSmokeIni() {
    return "ParticleSystem BenchSmoke\n  Shader = ALPHA\n  Type = PARTICLE\n"
           "  ParticleName = EXSmoke.tga\n  AngleZ = 0 6.28\n  AngularRateZ = -0.05 0.05\n"
           "  AngularDamping = 0.98 0.99\n  VelocityDamping = 0.95 0.97\n  Gravity = -0.02\n"
           "  Lifetime = 60 60\n  Size = 2 4\n  SizeRate = 0.2 0.4\n"
           "  SizeRateDamping = 0.95 0.97\n  Alpha1 = 0 0 0\n  Alpha2 = 0.8 1 10\n"
           "  Alpha3 = 0.5 0.6 40\n  Alpha4 = 0.05 0.05 59\n"
           "  Color1 = R:255 G:200 B:100 0\n  Color2 = R:120 G:120 B:120 20\n"
           "  Color3 = R:40 G:40 B:40 59\n  ColorScale = -0.5 0.5\n  BurstDelay = 0 0\n"
           "  BurstCount = 167 167\n  InitialDelay = 0 0\n  DriftVelocity = X:0.1 Y:0 Z:0.2\n"
           "  VelocityType = OUTWARD\n  VelOutward = 0.5 1.5\n  VelOutwardOther = 0 0\n"
           "  VolumeType = SPHERE\n  VolSphereRadius = 3\n  WindMotion = Unused\nEnd\n";
}

} // namespace rs::bench
