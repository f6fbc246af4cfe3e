// Black & White 2 models (.bwm): raw file structure, reader and conversion to the format-neutral model.
//
// Layout (little-endian). Sizes measured on real files; references: openblack/bw2-modding bwm.md,
// FalseIlyu/value_checker (which round-trips game files), ../shared/formats/NOTES.md.
//
//   0x00  char[40] "LiOnHeAdMODEL", NUL padded
//   0x28  u32 size            file size - 0x2C
//   0x2C  u32 magic           0x2B00B1E5
//   0x30  u32 version         5 or 6
//   0x34  u32 metadataSize    vertex data starts at 0x38 + metadataSize
//   0x38  model header (0x80) f32 unknown, vec3 point, vec3 boxMin, vec3 boxMax, vec3 center, f32 height,
//                             f32 radius, u32 unknown, f32 volume,
//                             u32 materials, meshes, bones, entities, unknownPoints, collisionPoints,
//                             f32 unknown[5], u32 vertexCount, strideCount, type (2 model, 3 skin), indexCount
//   0xB8  materials[]         0x1C0: char[64] diffuse, light, growth, specular, animated, normal, type
//         meshes[]            0xDC : u32 faces, indexOffset, indexCount, vertexOffset, vertexCount,
//                                    frame (vec3 axis1, axis2, axis3, position), vec3 center, f32 radius,
//                                    vec3 boxMin, boxMax, vec3 unknown, f32 height, f32 unknown,
//                                    u32 unknown, f32 volume, u32 refCount, u32 unknown, u32 lod, char[64] name,
//                                    u32 unknown[2]
//         materialRefs[]      0x20 : u32 material, indexOffset, indexCount, vertexOffset, vertexCount,
//                                    faceOffset, faceCount, u32 unknown   (sum of refCount, mesh by mesh)
//         bones[]             0x30 : frame
//         entities[]          0x130: frame, char[256] name
//         unknownPoints[]     vec3
//         collisionPoints[]   vec3
//         strides[]           0x88 : u32 n (<= 16), n x (u32 type, u32 format), rest unused
//   data  stride 0: vertexCount records, its elements interleaved; then each further stride:
//         vertexCount records of that stride (planar)
//         u16 indices[indexCount]   (absolute vertex indices; triangle lists for type 2, strips for type 3)
//   v6    u32 n, vec3[n]            trailer (n == vertexCount in real files; meaning unknown)
//
// Stride element types: 0 position, 1 normal, 2 uv, 6 bone index, 7 bone weight (others: skipped).
// Formats: 0 f32 (4), 1 vec2 (8), 2 vec3 (12), 3 u32 (4), 4 u8 (1) — bwm.md swaps 1 and 2.
// A frame's axes, in stored order, are the model's X, Z and Y axes: the default mesh frame is stored
// (1,0,0),(0,0,1),(0,1,0) (identity in that order, a reflection in any other; measured on real files).
#pragma once

#include "common/bytes.h"
#include "scene/model.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rs::bw2 {

constexpr uint32_t kBwmMagic = 0x2B00B1E5;
constexpr size_t kBwmFileHeaderSize = 0x38;
constexpr size_t kBwmModelHeaderSize = 0x80;
constexpr size_t kBwmMaterialSize = 0x1C0;
constexpr size_t kBwmMeshSize = 0xDC;
constexpr size_t kBwmMaterialRefSize = 0x20;
constexpr size_t kBwmFrameSize = 0x30;
constexpr size_t kBwmEntitySize = 0x130;
constexpr size_t kBwmStrideSize = 0x88;
constexpr uint32_t kBwmMaxStrideElements = (kBwmStrideSize - 4) / 8; // 16

enum class StrideType : uint32_t { Position = 0, Normal = 1, Uv = 2, BoneIndex = 6, BoneWeight = 7 };
enum class StrideFormat : uint32_t { F32 = 0, Vec2 = 1, Vec3 = 2, U32 = 3, U8 = 4 };
// Bytes of a stride element format; 0 for an unknown format.
size_t strideFormatSize(uint32_t format);

// How a skin stores its bone indices (decided from the data: indices in range, weights sum to 1).
enum class SkinLayout {
    None,        // no bone indices (static model)
    U8PerIndex,  // one u8 element per index (bwm.md, bwm-blender exporter)
    U32PerIndex, // one u32 element per index
    U8x4Packed,  // one u32 element holding four u8 indices, lowest byte first
};
const char* skinLayoutName(SkinLayout l); // "none", "u8-per-index", "u32-per-index", "u8x4-packed"

struct BwmFrame {
    glm::vec3 axis[3]{{1, 0, 0}, {0, 0, 1}, {0, 1, 0}}; // as stored: model X, Z, Y axes
    glm::vec3 position{0.0f};
    glm::mat4 matrix() const; // columns axis[0], axis[2], axis[1], position
    static BwmFrame fromMatrix(const glm::mat4& m);
};

struct BwmMaterial {
    // Texture slots in file order; type is the material type name (e.g. "_glossy_").
    std::string diffuse, light, growth, specular, animated, normal, type;
    static const char* slotName(int i); // "diffuse", "light", "growth", "specular", "animated", "normal", "type"
    const std::string& slot(int i) const;
    std::string& slot(int i);
};

struct BwmMaterialRef {
    uint32_t material = 0, indexOffset = 0, indexCount = 0, vertexOffset = 0, vertexCount = 0;
    uint32_t faceOffset = 0, faceCount = 0, unknown = 0;
};

struct BwmMesh {
    uint32_t faceCount = 0, indexOffset = 0, indexCount = 0, vertexOffset = 0, vertexCount = 0;
    BwmFrame frame;
    glm::vec3 center{0.0f};
    float radius = 0.0f;
    glm::vec3 boxMin{0.0f}, boxMax{0.0f};
    glm::vec3 unknownPoint{0.0f};
    float height = 0.0f, unknownFloat = 0.0f;
    uint32_t unknownInt = 0;
    float volume = 0.0f;
    uint32_t unknownU2 = 0;
    uint32_t lod = 1; // LOD level as stored (1 = most detailed)
    std::string name;
    uint32_t unknownTail[2]{0, 0};
    std::vector<BwmMaterialRef> refs;
};

struct BwmEntity {
    BwmFrame frame;
    std::string name;
};

struct BwmStrideElement {
    uint32_t type = 0, format = 0;
};

struct BwmStride {
    std::vector<BwmStrideElement> elements;
    size_t size() const; // bytes per vertex record
};

struct BwmFile {
    // File header
    uint32_t size = 0, version = 6, metadataSize = 0;
    // Model header
    float unknown1 = 0.0f;
    glm::vec3 point{0.0f}, boxMin{0.0f}, boxMax{0.0f}, center{0.0f};
    float height = 0.0f, radius = 0.0f;
    uint32_t unknown2 = 0;
    float volume = 0.0f;
    float unknown3[5]{0, 0, 0, 0, 0};
    uint32_t vertexCount = 0;
    uint32_t type = 2; // 2 model, 3 skin
    uint32_t indexCount = 0;

    std::vector<BwmMaterial> materials;
    std::vector<BwmMesh> meshes;
    std::vector<BwmFrame> bones;
    std::vector<BwmEntity> entities;
    std::vector<glm::vec3> unknownPoints;
    std::vector<glm::vec3> collisionPoints;
    std::vector<BwmStride> strides;

    // Decoded per-vertex data (vertexCount entries each when present).
    std::vector<glm::vec3> positions, normals;
    std::vector<std::vector<glm::vec2>> uvs; // one array per uv element, in stride order, as stored (no V flip)
    std::vector<std::array<uint32_t, 4>> boneIndices; // skins: skeleton bone per influence
    std::vector<glm::vec4> boneWeights;               // skins
    SkinLayout skinLayout = SkinLayout::None;
    uint32_t influences = 0; // influences per vertex stored (<= 4)

    std::vector<uint16_t> indices;
    bool hasTrailer = false; // version >= 6
    std::vector<glm::vec3> trailer;

    std::vector<std::string> warnings;

    bool skin() const { return type == 3; }
};

// Parses a .bwm. Throws ParseError(file, section path, absolute offset, message) on malformed input.
// A file without the "LiOnHeAdMODEL" signature is refused (KotOR walkmeshes share the extension).
BwmFile parseBwm(ByteSpan bytes, const std::string& file);

// Converts to the format-neutral model: one Mesh per mesh description (Mesh::lod = stored lod - 1),
// one SubMesh per material reference (skins: strips converted to triangle lists, degenerate triangles
// skipped), bones as root bones "bone_<i>" with their model-space frames, entities as markers of kind
// "entity", collision points and unknown points as Model::pointSets.
Model toModel(const BwmFile& f, const std::string& file);

inline Model readBwm(ByteSpan bytes, const std::string& file) { return toModel(parseBwm(bytes, file), file); }

// Triangle list from a strip: (s[i], s[i+1], s[i+2]), odd i reversed to keep the winding; triangles
// with two equal indices are skipped. Appends to out.
void stripToTriangles(const uint16_t* strip, size_t n, std::vector<uint32_t>& out);

} // namespace rs::bw2

#include "common/edit_op.h"
#include "common/source_tree.h"

#include <memory>

namespace rs::bw2 {

// The source tree of a .bwm (no chunks): fields at the offsets of the layout above ("file header", "model
// header", "material N" with its seven char[64] slots "diffuse".."type", "mesh N", "material refs", "bones",
// "entities", "unknown points", "collision points", "strides", "vertex data", "indices", "trailer"), gaps as Raw.
// A file parseBwm refuses is one Raw node naming why. Never throws on bad input.
SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label);

// Texture names equal to `from` (ASCII case ignored) in the materials' char[64] slots diffuse .. normal. With
// apply each is written in place: `to` (CP-1252 bytes) and a NUL, the old name's other bytes zeroed, the bytes
// after the old name's NUL kept. std::length_error when `to` does not fit (63 bytes).
std::vector<TextEdit> renameTexture(SourceTree& tree, const std::string& from, const std::string& to, bool apply);
// One edit (common/edit_op.h): SetParam sets a material's texture slot (target "material N" or "N", "" every
// material; name: the slot, "diffuse" ... "type"), written in place in its char[64]; RenameTexture is renameTexture.
// EditError naming the file for anything else, a slot not found or a name that does not fit.
std::vector<TextEdit> applyEdit(SourceTree& tree, const EditOp& op, bool apply);

} // namespace rs::bw2
