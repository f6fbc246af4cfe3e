// Writer for Alamo particle systems (format 1, chunk 0x900): the layout read by particle_reader.h. It makes the
// particle fixtures of the tests, fuzz seeds and benchmarks. Every known property mini is written, in the editor's
// order, followed by the emitter's unknown minis (ParticleUnknown with chunk 0x02) and unknown chunks as kept.
// Inputs the format cannot hold (a track without keys at t = 0 and 1, colour values outside 0..1, unknown
// mini-chunks of more than 255 bytes) throw std::invalid_argument.
#pragma once

#include "particles/particle_system.h"

#include <cstdint>
#include <vector>

namespace rs::alamo {

std::vector<uint8_t> writeParticleSystem(const ParticleSystem& system);

} // namespace rs::alamo
