// Where every byte of a file came from: the tree under a document that makes "read, edit, write" lossless
// (docs/ARCHITECTURE.md, "Read, edit, write").
//
// A SourceTree holds the file's original bytes and a tree of nodes whose spans tile them in order: chunks (a
// u32 type + u32 size header, then a payload), mini-chunks (u8 type + u8 size), fields of formats without chunks
// (a name table, a record, an entry's data) and raw bytes (padding, trailing bytes, regions a format's reader
// skips or tolerates). A node's payload is its children laid end to end when it has any, else its own bytes.
//
// Each chunk keeps its size field as stored: the flag bits beside the size (bit 31) and the difference between the
// stored size and the bytes it holds (`sizeDelta`, non-zero only for quirks the readers tolerate: a W3D chunk cut by
// the end of the file, a parent whose child runs past its declared end). Writing re-emits a node that nothing
// below it changed as its original bytes; an edited node gets its new payload, and it and each of its ancestors
// a size field recomputed as (payload bytes + sizeDelta) with the stored flag bits. Everything else is untouched.
#pragma once

#include "common/bytes.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rs {

struct SourceNode {
    enum class Kind : uint8_t {
        Chunk, // 8-byte header: u32 type, u32 size (size & 0x7FFFFFFF, flags in the rest)
        Mini,  // 2-byte header: u8 type, u8 size
        Field, // a named region of a format without chunks (no header)
        Raw,   // bytes kept as they are: padding, trailing bytes, a region no grammar covers (no header)
    };
    Kind kind = Kind::Raw;
    uint32_t type = 0;           // chunk / mini-chunk type
    std::string label;           // Field / Raw: what the bytes are ("name table", "record 3", "trailing bytes")
    uint64_t begin = 0, end = 0; // the whole node (header included) in the original bytes
    uint32_t sizeFlags = 0;      // Chunk: the bits of the stored size field above the size (bit 31)
    int64_t sizeDelta = 0;       // stored size - payload bytes present (0 unless a quirk)
    std::string quirk;           // what the reader tolerates here ("" when nothing); kept by writes
    std::vector<SourceNode> children;

    // Edits (SourceTree::setPayload): a replaced payload, and whether this node or one below it changed.
    std::optional<std::vector<uint8_t>> replaced;
    bool touched = false;

    uint32_t headerSize() const { return kind == Kind::Chunk ? 8u : kind == Kind::Mini ? 2u : 0u; }
    uint64_t payloadBegin() const { return begin + headerSize(); }
    // "0x400", "mini 0x5", or the label.
    std::string segment() const;
};

class SourceTree {
  public:
    SourceTree() = default;
    SourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, std::string label)
        : bytes_(std::move(bytes)), label_(std::move(label)) {}

    const std::string& label() const { return label_; }
    ByteSpan original() const { return bytes_ ? ByteSpan(*bytes_) : ByteSpan(); }
    std::vector<SourceNode>& roots() { return roots_; }
    const std::vector<SourceNode>& roots() const { return roots_; }

    // The file: unchanged nodes copied from the original (adjacent ones in one copy), edited ones re-emitted.
    // Throws std::length_error when an edit makes a size field overflow (a mini-chunk over 255 bytes).
    std::vector<uint8_t> write() const;
    // The file rebuilt from the parsed fields alone, every node visited: headers from type, flags and
    // (payload + sizeDelta), leaves from their spans. Equal to the original exactly when the tree accounts
    // for every byte; the round-trip tests and the fuzz target use it as the proof.
    std::vector<uint8_t> writeEveryNode() const;

    // Path of the innermost node holding `offset` of the original ("0x700/0x704", "record 3"; "" outside).
    std::string pathAt(uint64_t offset) const;
    // The first node (pre-order) whose path is `path` ("0x400/0x10000/0x10001", segments as SourceNode::segment),
    // skipping `nth` earlier matches. Null when none.
    SourceNode* find(std::string_view path, size_t nth = 0);
    // Replaces n's payload (its children are dropped) and marks it and its ancestors for re-emission.
    // n must belong to this tree (std::invalid_argument otherwise).
    void setPayload(SourceNode& n, std::vector<uint8_t> payload);
    // Every setPayload, in order: the node (child indices from the roots), its payload before (nullopt: as read,
    // with the children it had then) and after. Edits (core/edit/edits.h) keep the entries an operation added for
    // undo and redo.
    struct PayloadChange {
        std::vector<uint32_t> node;
        std::optional<std::vector<uint8_t>> before, after;
        std::vector<SourceNode> childrenBefore; // the node's children before (setPayload drops them)
    };
    const std::vector<PayloadChange>& journal() const { return journal_; }
    // A node's payload as it would be written now (its replacement, or its children or bytes as read).
    std::vector<uint8_t> payloadOf(const SourceNode& n) const;
    // The node at child indices `index` from the roots; null when there is none.
    SourceNode* at(const std::vector<uint32_t>& index);
    // Undo/redo: gives the node at `index` the payload `payload` (nullopt: its bytes as read, with `children`
    // put back) and recomputes which nodes are marked for re-emission. Not journalled. std::invalid_argument
    // when there is no such node.
    void restorePayload(const std::vector<uint32_t>& index, std::optional<std::vector<uint8_t>> payload,
                        std::vector<SourceNode> children = {});
    // Whether any node is replaced (the tree writes something other than the original).
    bool edited() const;
    // Every quirk, one line each: "<path> at offset N: <quirk>".
    std::vector<std::string> quirks() const;
    // Nodes in all (a measure for tests and benches).
    size_t nodeCount() const;
    // Bytes the tree holds as Raw nodes (not covered by a chunk or field grammar).
    uint64_t rawBytes() const;

  private:
    std::shared_ptr<const std::vector<uint8_t>> bytes_;
    std::string label_;
    std::vector<SourceNode> roots_;
    std::vector<PayloadChange> journal_;
};

// One change an edit makes (or would make, in a dry run): where, and the text before and after (CP-1252 bytes).
struct TextEdit {
    std::string path;    // the node's path ("0x400/0x10100/0x10105/mini 0x2", "material 0/diffuse")
    uint64_t offset = 0; // the node's offset in the original file
    std::string before, after;
    std::string what = {}; // what the value is ("texture", "shader", "Diffuse", "bone name"); "" for a texture rename
};

// ASCII case-insensitive equality (texture and bone names: the games compare them so).
bool equalsNoCase(std::string_view a, std::string_view b);

// Offset of the first byte where a and b differ (the shorter one's size when it is a prefix of the other);
// nullopt when they are equal.
std::optional<uint64_t> firstDifference(ByteSpan a, ByteSpan b);

// How a chunk file nests (the parts of a format's chunk definitions that the tree builder needs).
struct ChunkGrammar {
    // Whether chunk `type`, stored with size field `rawSize`, under a parent of type `parent` (kNoParent at the
    // top), holds sub-chunks.
    static constexpr uint32_t kNoParent = 0xFFFFFFFFu;
    bool (*container)(uint32_t type, uint32_t rawSize, uint32_t parent) = nullptr;
    // Whether a data chunk may hold mini-chunks (kept as Mini nodes when they tile its payload exactly).
    bool (*minis)(uint32_t type, uint32_t parent) = nullptr;
    // W3D (the engine's chunk loader): a child larger than its parent's rest is read by its own size when the
    // file holds it, and a chunk cut by the end of the file is kept with its declared size. Otherwise (Alamo)
    // such bytes are kept as one Raw node with the quirk named.
    bool engineOverruns = false;
    // A container whose payload is not a list of chunks is kept as data (W3D decides containers by id; the
    // payload is checked). Otherwise the rest is a Raw node with the quirk named.
    bool containerFallsBackToData = false;
};

// Builds the tree of a whole chunk file. Never throws on bad input: whatever the grammar cannot place becomes a
// Raw node naming the quirk, so every file (accepted by its reader or not) has a tree that re-emits it.
SourceTree chunkTree(std::shared_ptr<const std::vector<uint8_t>> bytes, std::string label, const ChunkGrammar& g);

// A tree of one Raw node over the whole file (formats whose fields are not mapped).
SourceTree wholeFileTree(std::shared_ptr<const std::vector<uint8_t>> bytes, std::string label,
                         std::string what = "file");

// Fills `parent` (or the roots) with Field nodes for [begin, end) spans given in order; the gaps between them
// and after the last become Raw nodes labelled `gapLabel`. Spans that overlap or leave [0, size) are clipped.
struct FieldSpan {
    std::string label;
    uint64_t begin = 0, end = 0;
    std::vector<FieldSpan> children; // sub-fields inside [begin, end), same rules
};
std::vector<SourceNode> fieldNodes(const std::vector<FieldSpan>& spans, uint64_t begin, uint64_t end,
                                   const char* gapLabel = "unmapped bytes");

} // namespace rs
