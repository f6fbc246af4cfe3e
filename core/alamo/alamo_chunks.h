// Alamo chunk files (.alo, .ala): chunks and mini-chunks over a byte span.
//
//   chunk      : u32 type | u32 size | payload[size & 0x7FFFFFFF]
//                bit 31 of size set = payload is a list of sub-chunks (container)
//   mini-chunk : u8 type | u8 size | payload[size]      (only inside data chunks known to hold them)
//
// Every size is checked against the bytes left in the parent. Chunk paths ("0x400/0x10000/0x10007")
// and absolute file offsets go into every ParseError.
#pragma once

#include "common/bytes.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>

namespace rs::alamo {

struct Chunk {
    uint32_t type = 0;
    bool container = false;
    size_t header = 0; // absolute offset of the chunk header
    size_t begin = 0;  // absolute offset of the payload
    size_t end = 0;    // one past the payload
    ChunkPath path;    // "0x400/0x10000/0x10007" when formatted
    size_t size() const { return end - begin; }
};

// Iterates the chunks laid end to end in [begin, end) of a file buffer.
class ChunkCursor {
  public:
    ChunkCursor(ByteSpan file, const std::string& fileName, size_t begin, size_t end, const ChunkPath& parentPath)
        : file_(file), name_(&fileName), pos_(begin), end_(end), parent_(parentPath) {}

    // Reads the next chunk header; false at the end. Throws on a truncated header or a size larger
    // than the bytes left in the parent.
    bool next(Chunk& c);
    // The chunks inside a container chunk; throws if c is a data chunk.
    ChunkCursor children(const Chunk& c) const;
    // A reader over a data chunk's payload; throws if c is a container.
    ByteReader data(const Chunk& c) const;
    [[noreturn]] void fail(const Chunk& c, const std::string& msg) const;
    const std::string& fileName() const { return *name_; }
    const ChunkPath& parentPath() const { return parent_; }

  private:
    ByteSpan file_;
    const std::string* name_;
    size_t pos_, end_;
    ChunkPath parent_;
};

// Iterates the mini-chunks of a data chunk. Each mini's payload comes as its own ByteReader whose
// context is the chunk path, so reads past a mini's end name the chunk and offset.
class MiniCursor {
  public:
    explicit MiniCursor(ByteReader r) : r_(std::move(r)) {}
    bool next(uint8_t& type, ByteReader& payload);
    const ByteReader& reader() const { return r_; }

  private:
    ByteReader r_;
};

// Typed mini payloads: the size must match exactly.
uint32_t miniU32(ByteReader& m, uint8_t type);
float miniF32(ByteReader& m, uint8_t type);
glm::vec3 miniVec3(ByteReader& m, uint8_t type);
glm::vec4 miniVec4(ByteReader& m, uint8_t type);
std::string miniString(ByteReader& m);

} // namespace rs::alamo

#include "common/edit_op.h"
#include "common/source_tree.h"

#include <memory>
#include <vector>

namespace rs::alamo {

// The source tree of an Alamo chunk file (.alo model or particle system, .ala clip): a chunk with bit 31 of its
// size set holds chunks, any other holds data; a data chunk whose payload divides exactly into mini-chunks
// (u8 type, u8 size, payload) is kept as its mini-chunks (repeats and order as stored). Bytes the grammar
// cannot place (a size past the parent's end, fewer than 8 bytes left) are one Raw node naming the quirk.
// Never throws on bad input.
SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label);

// Texture names equal to `from` (ASCII case ignored): the value mini-chunk (type 2) of every texture parameter
// chunk 0x10105 of a material. With apply, each becomes `to` (CP-1252 bytes) + NUL; the chunk sizes follow.
// Returns the changes (made, or that would be made).
std::vector<TextEdit> renameTexture(SourceTree& tree, const std::string& from, const std::string& to, bool apply);

// One edit (common/edit_op.h) of a model, particle system or clip: sub-mesh shaders (0x10101) and parameters
// (0x10102..0x10106 value mini 2), bone names (0x203; a clip's 0x1003 mini 4), visibility and billboard mode
// (0x205/0x206), mesh hidden/collision (0x402), proxy name and hidden (0x603 minis 5, 7), light colour and
// intensity (0x1302), dazzle colour and rate (0x604 minis 0, 7), clip frame rate (0x1001 mini 2). Values that
// are already the new ones are no change. EditError naming the file when the target is not found (a bone rename
// that names nothing is no change) or a value does not parse or fit; nothing is changed then.
std::vector<TextEdit> applyEdit(SourceTree& tree, const EditOp& op, bool apply);

} // namespace rs::alamo
