// Westwood W3D chunk layer: chunk ids and a bounds-checked chunk cursor.
//
//   file    := chunk*
//   chunk   := u32 id | u32 size | payload[size & 0x7FFFFFFF]
//   payload := data bytes, or chunk* when the id is a container id
//
// Bit 31 of size ("has sub-chunks") is NOT trusted: many real files (Renegade editor models, some BFME
// skeletons) leave it clear on containers, and some exporters set it on data chunks (0x284). Whether a
// payload holds sub-chunks is decided by the chunk id and the parent (see isContainer()).
//
// Truncation: a chunk whose payload runs past the end of the FILE is clipped to the bytes present and
// marked truncated (the reader keeps what is whole and reports the rest).
//
// A chunk that runs past the end of its complete parent is read as the engine reads it (ww3d2 chunkio.cpp,
// ChunkLoadClass): by its own size, from the bytes that follow. The engine ends a parent only when the sizes of
// the children it closed add up to exactly the parent's size, and otherwise reads the next child header from
// wherever the file position is; so after such a child the parent goes on reading chunks, past its declared end,
// until they add up or the file ends, and every enclosing chunk resumes at that file position. Each such read
// gives a warning (file, chunk path, offset; at most kOverrunWarnings, then one summary). A child that runs past
// the end of the FILE as well stays a ParseError ("chunk size N exceeds the M bytes left in its parent"): the
// engine's read of it fails.
#pragma once

#include "common/bytes.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs::w3d {

namespace id {
enum : uint32_t {
    Mesh = 0x0,
    Vertices = 0x2,
    VertexNormals = 0x3,
    MeshUserText = 0xC,
    VertexInfluences = 0xE,
    MeshHeader3 = 0x1F,
    Triangles = 0x20,
    VertexShadeIndices = 0x22,
    PrelitUnlit = 0x23,
    PrelitVertex = 0x24,
    PrelitLightmapMultiPass = 0x25,
    PrelitLightmapMultiTexture = 0x26,
    MaterialInfo = 0x28,
    Shaders = 0x29,
    VertexMaterials = 0x2A,
    VertexMaterial = 0x2B,
    VertexMaterialName = 0x2C,
    VertexMaterialInfo = 0x2D,
    VertexMapperArgs0 = 0x2E,
    VertexMapperArgs1 = 0x2F,
    Textures = 0x30,
    Texture = 0x31,
    TextureName = 0x32,
    TextureInfo = 0x33,
    MaterialPass = 0x38,
    VertexMaterialIds = 0x39,
    ShaderIds = 0x3A,
    Dcg = 0x3B,
    Dig = 0x3C,
    Scg = 0x3E,
    ShaderMaterialId = 0x3F,
    TextureStage = 0x48,
    TextureIds = 0x49,
    StageTexcoords = 0x4A,
    PerFaceTexcoordIds = 0x4B,
    ShaderMaterials = 0x50,
    ShaderMaterial = 0x51,
    ShaderMaterialHeader = 0x52,
    ShaderMaterialProperty = 0x53,
    Deform = 0x58,
    Tangents = 0x60,
    Bitangents = 0x61,
    Ps2Shaders = 0x80,
    AabTree = 0x90,
    Hierarchy = 0x100,
    HierarchyHeader = 0x101,
    Pivots = 0x102,
    PivotFixups = 0x103,
    Animation = 0x200,
    AnimationHeader = 0x201,
    AnimationChannel = 0x202,
    BitChannel = 0x203,
    CompressedAnimation = 0x280,
    CompressedAnimationHeader = 0x281,
    CompressedAnimationChannel = 0x282,
    CompressedBitChannel = 0x283,
    MotionChannel = 0x284,
    MorphAnimation = 0x2C0,
    HModel = 0x300,
    HModelHeader = 0x301,
    HModelNode = 0x302,
    HModelCollisionNode = 0x303,
    HModelSkinNode = 0x304,
    HModelAuxData = 0x305,
    HModelShadowNode = 0x306,
    LodModel = 0x400,
    Collection = 0x420,
    CollectionHeader = 0x421,
    CollectionObjName = 0x422,
    Placeholder = 0x423,
    TransformNode = 0x424,
    Points = 0x440,
    Light = 0x460,
    Emitter = 0x500,
    Aggregate = 0x600,
    Hlod = 0x700,
    HlodHeader = 0x701,
    HlodLodArray = 0x702,
    HlodSubObjectArrayHeader = 0x703,
    HlodSubObject = 0x704,
    HlodAggregateArray = 0x705,
    HlodProxyArray = 0x706,
    Box = 0x740,
    Sphere = 0x741,
    Ring = 0x742,
    NullObject = 0x750,
    Lightscape = 0x800,
    Dazzle = 0x900,
    SoundRObj = 0xA00,
    ShdMesh = 0xB00,
    Vertices2 = 0xC00,
    Normals2 = 0xC01,
};
} // namespace id

// True for ids whose payload is a list of sub-chunks (at any depth where the id occurs).
bool isContainer(uint32_t chunkId);

// True when `id` is a chunk id that may start a Westwood W3D file.
bool isTopLevelId(uint32_t chunkId);

struct Chunk {
    uint32_t id = 0;
    uint32_t declaredSize = 0; // payload size as stored (high bit removed)
    bool highBit = false;      // bit 31 of the stored size
    bool truncated = false;    // payload clipped at the end of the file
    uint64_t offset = 0;       // absolute offset of the chunk header
    ByteSpan payload;          // bytes present
    uint64_t payloadOffset() const { return offset + 8; }
};

// Iterates the chunks of one payload. `warnings` (may be null) receives truncation reports.
class Cursor {
  public:
    static constexpr size_t kOverrunWarnings = 3; // chunks read past their parent's end reported one by one

    // `file` is not copied: it must outlive the cursor and the readers it hands out.
    Cursor(ByteSpan range, uint64_t rangeOffset, bool endsAtFileEnd, const std::string& file,
           const ChunkPath& parentPath, std::vector<std::string>* warnings);

    // Whole file.
    static Cursor file(ByteSpan bytes, const std::string& file, std::vector<std::string>* warnings);

    // Next chunk, false at the end of the range. Throws ParseError on a chunk that overruns a complete parent.
    bool next(Chunk& out);
    // Sub-chunks of c.
    Cursor children(const Chunk& c) const;
    // Reader over c's payload (errors name c's path and absolute offsets).
    ByteReader data(const Chunk& c) const;
    // "0x0/0x38/0x48" style path of c (formatted when converted to a string).
    ChunkPath pathOf(const Chunk& c) const { return parentPath_.child(c.id); }
    const std::string& fileName() const { return *file_; }
    std::vector<std::string>* warnings() const { return warnings_; }
    const ChunkPath& parentPath() const { return parentPath_; }

  private:
    // The file as one stream, shared by a cursor and every cursor made from it by children().
    struct Stream {
        ByteSpan file;
        uint64_t resumeAt = 0; // where the engine's file position is after a chunk read past its parent's end
        int resumeDepth = 0;   // depth of the cursor that moved it: only cursors above that depth resume there
        size_t overruns = 0;   // chunks read past their parent's end so far
    };
    bool nextPastEnd(Chunk& out); // next chunk header read at the stream position (engine semantics)
    void noteOverrun(const Chunk& c, const std::string& what);
    // The engine's file position moved to `to` by a read of this cursor past its range: the cursors above
    // this one resume there.
    void moveStream(uint64_t to);

    ByteSpan range_;
    uint64_t base_;
    bool endsAtFileEnd_;
    uint64_t pos_ = 0;               // sum of the declared sizes (header included) of the chunks returned so far
    std::shared_ptr<Stream> stream_; // null for a cursor made by the constructor: no reads past the range
    int depth_ = 0;                  // 0 for the file's cursor, its children's 1, ...
    const std::string* file_;
    ChunkPath parentPath_;
    std::vector<std::string>* warnings_;
};

} // namespace rs::w3d

#include "common/edit_op.h"
#include "common/source_tree.h"

namespace rs::w3d {

// The source tree of a W3D file, by the rules of Cursor above: containers by id (isContainer), the high bit of
// the size kept as stored but not trusted; a child larger than its parent's rest is read by its own size (the
// parent's stored size is kept as a quirk: it is short by the overrun), a chunk cut by the end of the file keeps
// its declared size, and a container payload that is not a list of chunks stays data. Chunks of unknown ids are
// leaves. Never throws on bad input.
SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label);

// Texture names equal to `from` (ASCII case ignored): texture name chunks 0x32 (payload: name + NUL) and the
// string properties (type 1: a texture) of shader material property chunks 0x53 (u32 type, u32 name length,
// name, u32 text length, text + NUL). With apply, each becomes `to` (CP-1252 bytes); lengths and chunk sizes
// follow. Returns the changes (made, or that would be made).
std::vector<TextEdit> renameTexture(SourceTree& tree, const std::string& from, const std::string& to, bool apply);

// One edit (common/edit_op.h): a bone rename (hierarchy pivot names, char[16] in 0x102; clips and HLOD
// sub-objects name pivots by index, so they do not change); SetShader: the FX shader name of shader materials
// (0x52, char[32]); SetParam on a mesh's material (target "MESH" or "MESH#k", or a vertex material's name):
// shader bits by W3dShaderStruct field name (DepthCompare ... PostDetailAlphaFunc, 0x29), vertex material
// colours Ambient/Diffuse/Specular/Emissive (R G B 0..255 or #RRGGBB) and Shininess/Opacity/Translucency (0x2D),
// shader material properties by name (0x53: texture, float, float2..4, int, bool); SetMeshTwoSided: bit 0x2000
// of a mesh header's attributes (0x1F). EditError naming the file when nothing matches or a value does not parse
// or fit.
std::vector<TextEdit> applyEdit(SourceTree& tree, const EditOp& op, bool apply);

} // namespace rs::w3d
