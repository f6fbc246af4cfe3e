// W3D clip decoding (internal to core/w3d): 0x200 uncompressed and 0x280 compressed animations into
// dense per-frame rs::Clip tracks (TrackMode::AdditiveToBind).
#pragma once

#include "scene/clip.h"
#include "w3d/w3d_chunks.h"

#include <string>
#include <vector>

namespace rs::w3d {

// 0x200: header 0x201, channels 0x202 (X/Y/Z/Q, first..last, identity outside), bit channels 0x203.
Clip readAnimation(const Cursor& parent, const Chunk& c);
// 0x280: header 0x281 (flavor 0 timecoded, 1 adaptive delta), channels 0x282, timecoded bit
// channels 0x283, BFME2 motion channels 0x284 (timecoded, delta-4, delta-8).
Clip readCompressedAnimation(const Cursor& parent, const Chunk& c);

// Adaptive-delta filter table: table[i] = 10^(i-8) for i < 16, 1 - sin(90deg * (i-16)/240) after.
const float* adaptiveDeltaTable();

// Decodes one adaptive-delta stream (after the initial values): `numFrames` frames of `vectorLen`
// components, packets of 1 table-index byte + 16 deltas of `bits` (4 or 8) bits per 16-frame block and
// component. out receives numFrames * vectorLen floats. Throws ParseError (via r) when data is short.
void decodeAdaptiveDelta(ByteReader& r, uint32_t numFrames, int vectorLen, int bits, float scale, const float* initial,
                         std::vector<float>& out);

} // namespace rs::w3d
