// W3D effect objects as ww3d2 reads them (EA's released Renegade / Generals sources: part_ldr.cpp, sphereobj.cpp,
// ringobj.cpp, agg_def.cpp): particle emitters, spheres, rings and aggregates. All reads are bounds-checked; a
// malformed chunk throws ParseError naming the file, the chunk path and the byte offset.
//
//   0x500 EMITTER   0x501 header {u32 version, name[16]}
//                   0x502 user data {u32 type, u32 string size, 4 bytes (the struct's padded char[1])} + string
//                   0x503 info (332) {texture[260], f32 startSize, endSize, lifetime, emissionRate, maxEmissions,
//                                     velocityRandom, positionRandom, fadeTime, gravity, elasticity,
//                                     vec3 velocity, vec3 acceleration, rgba startColor, rgba endColor}
//                   0x504 info v2 (124) {u32 burstSize, randomizer creation, randomizer velocity, f32 outwardVel,
//                                     f32 velInherit, shader (16), u32 renderMode, u32 frameMode, u32 reserved[6]}
//                         randomizer (32) {u32 classId (0 box, 1 sphere, 2 hollow sphere, 3 cylinder), f32 v1..v3,
//                                          u32 reserved[4]}
//                   0x505 props (40 + keys) {u32 colorKeys, opacityKeys, sizeKeys, rgba colorRandom,
//                                     f32 opacityRandom, f32 sizeRandom, u32 reserved[4]} then colorKeys x {f32 time,
//                                     rgba}, opacityKeys x {f32 time, f32}, sizeKeys x {f32 time, f32}; each count
//                                     includes the start key (its time ignored: age 0)
//                   0x509 line properties (64)   0x50A rotation keys {u32 n, f32 random, f32 orientationRandom,
//                   u32 reserved} + (n + 1) x {f32 time, f32 turns/s}   0x50B frame keys {u32 n, f32 random,
//                   u32 reserved[2]} + (n + 1) keys   0x50C blur-time keys {u32 n, f32 random, u32 reserved} +
//                   (n + 1) keys   0x50D extra info {f32 futureStartTime, u32 pad[9]}
//   0x741 SPHERE    sub-chunks: 1 definition (164) {u32 version, u32 flags, name[32], vec3 center, vec3 extent,
//                   f32 duration, vec3 color, f32 alpha, vec3 scale, {quat xyzw, f32 intensity} vector,
//                   texture[32], shader (16)}; 2 colour, 3 alpha, 4 scale, 5 vector channels
//   0x742 RING      sub-chunks: 1 definition (168) {u32 version, u32 flags, name[32], vec3 center, vec3 extent,
//                   f32 duration, vec3 color, f32 alpha, vec2 innerScale, vec2 outerScale, vec2 innerExtent,
//                   vec2 outerExtent, texture[32], shader (16), i32 textureTiles}; 2 colour, 3 alpha, 4 inner
//                   scale, 5 outer scale channels
//                   channel := chunk 0x03150809 holding micro-chunks {u8 id (1 = key), u8 size, value then f32 time}
//   0x600 AGGREGATE 0x601 header {u32 version, name[16]}  0x602 info {baseModel[32], u32 count} + count x
//                   {subObject[32], bone[32]}  0x603 texture replacers, 0x604 class info (kept as counts)
#pragma once

#include "common/bytes.h"
#include "particles/particle_system.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_reader.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs::w3d {

namespace fxid {
enum : uint32_t {
    EmitterHeader = 0x501,
    EmitterUserData = 0x502,
    EmitterInfo = 0x503,
    EmitterInfoV2 = 0x504,
    EmitterProps = 0x505,
    EmitterLineProperties = 0x509,
    EmitterRotationKeys = 0x50A,
    EmitterFrameKeys = 0x50B,
    EmitterBlurTimeKeys = 0x50C,
    EmitterExtraInfo = 0x50D,
    AggregateHeader = 0x601,
    AggregateInfo = 0x602,
    TextureReplacerInfo = 0x603,
    AggregateClassInfo = 0x604,
    PrimitiveDefinition = 1,
    PrimitiveChannelVariables = 0x03150809,
};
}

// Readers of one top-level chunk (c from `cur`). Throw ParseError on malformed data.
Emitter readEmitter(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings);
Sphere readSphere(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings);
Ring readRing(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings);
Aggregate readAggregate(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings);

// The emitter as the simulation runs it (ParticleEmitter::w3d), with what the renderer needs (blend from the shader,
// texture, frame grid) and what is not simulated listed. Version 1 emitters (no 0x504/0x505) are converted as
// ParticleEmitterDefClass::Convert_To_Ver2 does.
ParticleSystem toParticleSystem(const Emitter& e, const std::string& sourcePath);

// Where normalised time t falls among the keys k (not empty), as LERPAnimationChannelClass::Evaluate searches them
// (stateless: from key 0 each time): `a` and `b` the keys around t and `p` the fraction of the way from a to b
// (0 when they share a time or the span is not finite); `held` when t is at or past the last key's time, or not a
// number: then a == b == the last key and p == 0. Every channel's interpolation starts from this search.
template <class T> struct KeySpan {
    const PrimitiveKey<T>* a = nullptr;
    const PrimitiveKey<T>* b = nullptr;
    float p = 0.0f;
    bool held = true;
};
template <class T> KeySpan<T> findKeySpan(const std::vector<PrimitiveKey<T>>& k, float t) {
    const size_t n = k.size();
    KeySpan<T> s;
    s.a = s.b = &k[n - 1];
    if (!(t < k[n - 1].time)) return s;
    s.held = false;
    s.a = &k[0];
    for (size_t i = 0; i + 1 < n; ++i)
        if (t < k[i + 1].time) {
            s.a = &k[i];
            s.b = &k[i + 1];
            break;
        }
    const float span = s.b->time - s.a->time;
    s.p = span != 0.0f && std::isfinite(span) ? (t - s.a->time) / span : 0.0f;
    return s;
}

// The LERP channel value at normalised time t (LERPAnimationChannelClass::Evaluate: held before the first key's
// successor is reached from key 0, linear between keys, the last key's value from its time on).
glm::vec3 evaluateKeys(const std::vector<PrimitiveKey<glm::vec3>>& k, float t);
glm::vec2 evaluateKeys(const std::vector<PrimitiveKey<glm::vec2>>& k, float t);
float evaluateKeys(const std::vector<PrimitiveKey<float>>& k, float t);

// Normalised animation time after `seconds` (SphereRenderObjClass::animate): seconds / duration, wrapped into
// [0, 1] when looping; 1 when the duration is not positive.
float primitiveTime(float seconds, float duration, bool looping);

struct PrimitiveState {
    glm::vec3 color{0.0f};
    float alpha = 1.0f;
    glm::vec3 scale{1.0f};                          // sphere: per axis; ring: (inner.x, inner.y, 0)
    glm::vec2 innerRadius{0.0f}, outerRadius{0.0f}; // ring: extent * scale
};
// The sphere's colour, alpha and radii (extent * scale) at `seconds`: channel values where the channel has keys,
// the definition's defaults otherwise.
PrimitiveState sphereState(const Sphere& s, float seconds);
PrimitiveState ringState(const Ring& r, float seconds);

} // namespace rs::w3d

namespace rs {
// What a W3D sphere or ring marker (Marker::fx) draws: one of the two definitions, as read.
struct MarkerFx {
    std::shared_ptr<const w3d::Sphere> sphere;
    std::shared_ptr<const w3d::Ring> ring;
};
} // namespace rs
