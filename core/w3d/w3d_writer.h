// W3D writer for the project's own test fixtures (the inverse of w3d_reader / w3d_anim).
//
// Containers get bit 31 of their size set unless `containerBit` is false (many real files leave it
// clear; the reader must not depend on it). Clips are described per channel and encoded with the
// requested codec, including an adaptive-delta encoder (see encodeAdaptiveDelta).
#pragma once

#include "common/bytes.h"
#include "w3d/w3d_reader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs::w3d {

class ChunkWriter {
  public:
    explicit ChunkWriter(bool containerBit = true) : containerBit_(containerBit) {}
    ByteWriter w;
    void begin(uint32_t chunkId); // opens a chunk; its size is patched by end()
    void end();
    std::vector<uint8_t> take() { return std::move(w.buf); }

  private:
    struct Open {
        size_t at;
        uint32_t id;
    };
    std::vector<Open> open_;
    bool containerBit_;
};

// Stores `payloadSize` as the size of the chunk whose header is at `chunkOffset` of `file` (bit 31 kept). Makes
// the files of exporters that grew a child and left the parent's size as it was (BFME II mod HLODs whose 0x700
// is shorter than its 0x702).
void setStoredSize(std::vector<uint8_t>& file, size_t chunkOffset, uint32_t payloadSize);

void writeHierarchy(ChunkWriter& cw, const Hierarchy& h);
// Counts are taken from the arrays. materialWrapper != 0 (0x23-0x26) puts the material chunks inside a
// Renegade prelit wrapper.
void writeMesh(ChunkWriter& cw, const RawMesh& m, uint32_t materialWrapper = 0);
void writeHlod(ChunkWriter& cw, const Hlod& h);
void writeBox(ChunkWriter& cw, const Box& b);
void writeNull(ChunkWriter& cw, const NullObject& n);
void writeHModel(ChunkWriter& cw, const HModel& h);
void writeCollection(ChunkWriter& cw, const Collection& c);
// Effect objects in the layouts w3d_fx.h lists (what ww3d2's Save_W3D methods write). The emitter: header, user
// data (when hasUserData), info, then for version > 1.0 info v2 and props (key counts from the arrays, each list's
// first key the start key), then line properties, rotation, frame, blur-time keys and extra info when present.
// Spheres and rings: the definition chunk 1, then one chunk per channel with keys.
void writeEmitter(ChunkWriter& cw, const Emitter& e);
void writeSphere(ChunkWriter& cw, const Sphere& s);
void writeRing(ChunkWriter& cw, const Ring& r);
void writeAggregate(ChunkWriter& cw, const Aggregate& a);

enum class ClipCodec { Uncompressed, Timecoded, AdaptiveDelta, MotionTimecoded, MotionDelta4, MotionDelta8 };

struct ChannelSpec {
    uint16_t pivot = 0;
    uint8_t type = 0;                // 0 X, 1 Y, 2 Z, 6 Q (x,y,z,w)
    uint16_t first = 0;              // Uncompressed: first frame of `values`
    std::vector<uint32_t> keyFrames; // Timecoded/MotionTimecoded: frame of each key
    std::vector<uint8_t> binary;     // Timecoded: per key, "binary movement" (hold the previous key)
    std::vector<float> values;       // vectorLen floats per frame (Uncompressed, delta codecs) or per key
};

struct BitChannelSpec {
    uint16_t pivot = 0;
    uint8_t defaultValue = 1;
    uint16_t first = 0;              // Uncompressed (0x203): bits[i] is frame first + i
    std::vector<uint8_t> bits;       // 0x203 values, or 0x283 key values
    std::vector<uint32_t> keyFrames; // 0x283: frame of each key
};

struct ClipSpec {
    std::string name, hierarchy;
    uint32_t version = 0x40001; // compressed clips: 0x1 (flavor 0/1) or 0x10000 (motion channels)
    uint32_t frames = 0;
    uint32_t fps = 30;
    ClipCodec codec = ClipCodec::Uncompressed;
    std::vector<ChannelSpec> channels;
    std::vector<BitChannelSpec> bitChannels;
};

void writeClip(ChunkWriter& cw, const ClipSpec& c);

// Adaptive-delta encoding after the reference exporter's method (OpenSAGE.BlenderPlugin
// adaptive_delta.py): frame 0 stored as is, then per 16-frame block and component one table index and 16
// quantised deltas  q = (value - previous) / (scale * table[index] [* 1/16 for 8 bits]).  Improvements
// over the reference: `scale` from the largest frame-to-frame step (not a constant), the table index
// chosen per packet to minimise the error, and deltas taken from the reconstructed previous value (closed
// loop) so quantisation error does not accumulate.
struct AdaptiveDeltaStream {
    float scale = 1.0f;
    std::vector<float> initial;   // vectorLen
    std::vector<uint8_t> packets; // ((frames + 15) / 16) blocks x vectorLen x (1 + 2 * bits) bytes
};
AdaptiveDeltaStream encodeAdaptiveDelta(const std::vector<float>& values, uint32_t frames, int vectorLen, int bits);

} // namespace rs::w3d
