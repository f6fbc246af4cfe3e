// Alamo particle systems (.alo starting with chunk 0x900), format 1. docs/formats/alamo-particles.md has the
// details; chunk and mini-chunk headers as in alamo_chunks.h.
//
//   0x900 particle system (container)
//     0x0000  name, NUL-terminated
//     0x0001  u32 id (0 in every known file)
//     0x0800  emitters (container)
//       0x0700  emitter (container), children in this order:
//         0x02   properties: mini-chunks (id, size, payload), see particlePropertyTable()
//         0x03   colour texture name
//         0x16   emitter name
//         0x29   volumes (container): 3 x 0x1100 (container) holding one 0x1101 of 64 bytes:
//                  u32 shape | f32 min[3] | f32 max[3] | f32 side | f32 sphereRadius | u32 sphereEdge |
//                  f32 cylinderRadius | u32 cylinderEdge | f32 cylinderHeight | f32 point[3]
//                in the order birth velocity, "lifetime" (unused), birth position
//         0x01   tracks (container): 7 x (0x00 minis 2 first, 3 last, 4 u32 interpolation;
//                                         0x01 minis 5 = middle keys (value, f32 time))
//                red, green, blue, alpha (u8 first/last, u32 key values, all / 255), size, frame, rotation speed
//                (f32 first/last and key values)
//         0x36   optional minis 0x37 i32 spawn-on-death emitter, 0x39 i32 spawn-during-life emitter (-1 none)
//         0x45   optional bump texture name
//     0x0002  optional u8 leave particles
//
// A property mini-chunk given twice keeps its last value (warning). Format 2 (0x1500) is refused with a clear
// message (no sample is known). Unknown minis and chunks are kept as
// ParticleUnknown; malformed input throws ParseError (file, chunk path, byte offset).
#pragma once

#include "common/bytes.h"
#include "particles/particle_system.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rs::alamo {

ParticleSystem readParticleSystem(ByteSpan bytes, const std::string& file);

// One known emitter property mini-chunk (0x700/0x02) and where it lives in ParticleEmitterParams.
struct ParticlePropertyDef {
    enum class Kind : uint8_t { Bool, U32, I32, F32, Vec3, Vec4 };
    uint8_t id;
    const char* name; // snake_case, as in `rigscope-cli info --json`
    Kind kind;
    size_t offset; // offsetof(ParticleEmitterParams, field)
};
// Every known property in the order the editor writes them.
const std::vector<ParticlePropertyDef>& particlePropertyTable();

} // namespace rs::alamo
