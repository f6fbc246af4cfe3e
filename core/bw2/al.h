// Black & White 2 animation libraries (.al): raw structure, reader, conversion to skeleton + clips, and
// pairing with a .bwm skin.
//
// Layout (little-endian), following the ImHex pattern of openblack/bw2-modding al.md (which matches
// FalseIlyu/value_checker, a reader run over the game's files) rather than its prose:
//
//   0x00  u32 magic 0xFEC, u32 unknown (0xFFFF0002), char[64] name
//   0x48  u32 metadataOffset   metadata table at 0x60 + metadataOffset
//   0x4C  u32 size             file size - 0x60
//   0x50  u32 animationOffset  (kept as stored)
//   0x54  u32 animationCount
//   0x58  f32 unknown[2]
//   0x60  armature: u32 boneCount, u32 unknown, boneCount x (char[32] name, s32 parent),
//         unknown bytes up to 0x60 + metadataOffset
//   meta  animationCount x (animation header 0x90, u32 absolute offset of the animation)
//   animation header (0x90): u32 magic 0xFEC, u32 version (9), char[64] name, u32 type (3), u32 eventStringSize,
//         u32 offsetBlockSize, u32 unknown[2], u32 eventCount, u32 boneCount, u32 frameCount, f32 samplingRate,
//         f32 duration, f32 distance, u8 cyclic, u8 hierarchical, u16 flags, u32 unknown[6]
//   animation (at its offset):
//         header (0x90)
//         events[eventCount] (0x48): u32 boneNameOffset, u32 eventNameOffset (from the animation's start),
//                                    f32[16] transform (rows: axis, axis, axis, translation)
//         strings[eventStringSize]   NUL-terminated bone and event names
//         u32 n, f32[3] unknown, u8[n] unknown
//         offset block[offsetBlockSize]: frameCount x u32[2], rest unknown
//         u32 rotationsPerFrame (n0), u32 positionsPerFrame (n1), u8[32] unknown, vec3 posComp, vec3 point
//         frame 0: boneCount x f32 quaternion (x, y, z, w), boneCount x vec3 position
//         s16[3] first [(frameCount - 1) x n0]   then   s16[3] second[(frameCount - 1) x n1]
//
// What is decoded and what is not (see AlDecodeStatus): header, armature, metadata, events and the
// frame-zero pose are read as stored. The compressed frames 1..N-1 are parsed (sizes validated, values
// kept raw). When n0 equals the bone count, rotations of frames 1..N-1 are *interpreted* as one compressed
// quaternion per bone in bone order (x, y, z / 32767, w = sqrt(1 - x^2 - y^2 - z^2)); this is not
// documented publicly and is labelled as an interpretation everywhere. Positions of frames 1..N-1 are not
// decoded: frame 0 is held.
#pragma once

#include "common/bytes.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rs::bw2 {

constexpr uint32_t kAlMagic = 0xFEC;
constexpr size_t kAlHeaderSize = 0x60;
constexpr size_t kAlBoneSize = 0x24;
constexpr size_t kAlAnimHeaderSize = 0x90;
constexpr size_t kAlMetadataSize = kAlAnimHeaderSize + 4;
constexpr size_t kAlEventSize = 0x48;

struct AlBone {
    std::string name;
    int32_t parent = -1;
};

struct AlAnimHeader {
    uint32_t magic = kAlMagic, version = 9;
    std::string name;
    uint32_t type = 3, eventStringSize = 0, offsetBlockSize = 0;
    uint32_t unknown1[2]{0, 0};
    uint32_t eventCount = 0, boneCount = 0, frameCount = 0;
    float samplingRate = 30.0f, duration = 0.0f, distance = 0.0f;
    bool cyclic = false, hierarchical = true;
    uint16_t flags = 0;
    uint32_t unknown2[6]{0, 0, 0, 0, 0, 0};
};

struct AlEvent {
    std::string bone, name;
    float transform[16]{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; // as stored, row by row
    glm::mat4 matrix() const; // rows of the stored 4x4 become GLM columns (row-vector convention)
};

struct AlAnimation {
    AlAnimHeader meta;   // copy in the metadata table
    uint32_t offset = 0; // absolute file offset of the animation
    AlAnimHeader header; // header at the animation (authoritative)
    std::vector<AlEvent> events;
    float unknownFloats[3]{0, 0, 0};
    std::vector<uint8_t> unknownBlock;
    std::vector<std::array<uint32_t, 2>> frameOffsets; // frameCount entries (meaning unknown)
    std::vector<uint8_t> offsetBlockRest;              // offsetBlockSize - 8 * frameCount bytes
    uint32_t rotationsPerFrame = 0, positionsPerFrame = 0;
    uint8_t unknown32[32]{};
    glm::vec3 posComp{0.0f}, point{0.0f};
    std::vector<glm::quat> frameZeroRotations; // boneCount
    std::vector<glm::vec3> frameZeroPositions; // boneCount
    std::vector<glm::i16vec3> first;           // (frameCount - 1) * rotationsPerFrame
    std::vector<glm::i16vec3> second;          // (frameCount - 1) * positionsPerFrame
};

struct AlFile {
    uint32_t unknown = 0xFFFF0002;
    std::string name;
    uint32_t metadataOffset = 0, size = 0, animationOffset = 0;
    float unknown2[2]{0, 0};
    uint32_t armatureUnknown = 0;
    std::vector<AlBone> bones;
    std::vector<uint8_t> armatureExtra; // bytes after the bones, up to the metadata table
    std::vector<AlAnimation> animations;
    std::vector<std::string> warnings;
};

// Parses an .al. Throws ParseError(file, section path, absolute offset, message).
AlFile parseAl(ByteSpan bytes, const std::string& file);

// What a clip made from an animation holds as stored, as interpretation, and not at all.
struct AlDecodeStatus {
    bool rotationsInterpreted = false; // frames 1..N-1 rotations from the compressed block (interpretation)
    std::vector<std::string> decoded, interpreted, notDecoded;
    // Readings the public documents disagree on: when the second compressed block is not empty
    // (positionsPerFrame, the header's unk2[1], > 0), where frames 2..N-1 lie depends on the layout (ImHex pattern:
    // the first block for every frame, then the second; the prose: both blocks frame by frame). Frame 1 lies at
    // the same place in both.
    std::vector<std::string> ambiguous;
};
AlDecodeStatus decodeStatus(const AlAnimation& a, size_t armatureBones, bool interpret = true);

struct AlReadOptions {
    bool interpretCompressed = true; // see the header comment; false holds frame 0 for every frame
};

// Skeleton-only model (Format::Bw2Library): names and parents as stored; the file stores no bind pose, so
// bindLocal is identity (a warning says so).
Model armatureModel(const AlFile& f, const std::string& file);
// One clip per animation (Format::Bw2Library): tracks per bone in Replace mode, events with frameKnown = false.
Clip toClip(const AlFile& f, size_t animation, const AlReadOptions& opt = {});

// Quaternion from a compressed (x, y, z) triple: components / 32767, w = sqrt(max(0, 1 - |xyz|^2)).
glm::quat decompressRotation(const glm::i16vec3& v);
// Inverse used by the writer: canonicalises w >= 0.
glm::i16vec3 compressRotation(glm::quat q);

// Bone count from the armature header without parsing the whole file; throws ParseError.
uint32_t peekAlBoneCount(ByteSpan bytes, const std::string& file);

// Pairing with a .bwm skin. A library fits a skin when the bone counts agree and, when the skin's
// bones carry names other than the reader's "bone_<i>", the names agree (case-insensitive).
bool libraryFits(const Model& skin, const Skeleton& armature, std::string* why = nullptr);
// The skin with the armature's names and parents. The bind pose stays the skin's (model-space bone
// frames): bindLocal = inverse(bindWorld[parent]) * bindWorld[i]. Throws std::invalid_argument when the
// library does not fit. Clips from the library then bind by index and name.
Model applyLibrary(const Model& skin, const Skeleton& armature);

} // namespace rs::bw2
