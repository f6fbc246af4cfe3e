// Writers for Black & White 2 .bwm models and .al animation libraries, following the layouts in bwm.h
// and al.h. Used to make the synthetic fixtures (no real .al or skinned .bwm is public).
#pragma once

#include "bw2/al.h"
#include "bw2/bwm.h"

#include <cstdint>
#include <vector>

namespace rs::bw2 {

// Strides for a vertex with position, normal and uvCount uvs in stride 0, plus for skins the influence
// strides of the layout: U8PerIndex / U32PerIndex: four index strides and four weight strides
// (the bwm-blender exporter's arrangement); U8x4Packed: one u32 index stride and four weight strides.
std::vector<BwmStride> makeStrides(size_t uvCount, SkinLayout layout);

// Serialises f. Counts, size and metadataSize are computed from the vectors; vertex data is encoded from
// positions/normals/uvs/boneIndices/boneWeights according to f.strides (f.skinLayout says whether a u32
// index element packs four u8 indices). Elements of unknown type are written as zeros.
// Throws std::invalid_argument when a vector is shorter than the strides need.
std::vector<uint8_t> writeBwm(const BwmFile& f);

// Serialises an animation library. Offsets (metadata, animations, event strings), sizes and counts are
// computed; the metadata copy of each header has eventStringSize and offsetBlockSize 0 as in game files.
// first/second must hold (frameCount - 1) * rotationsPerFrame / positionsPerFrame entries.
std::vector<uint8_t> writeAl(const AlFile& f);

} // namespace rs::bw2
