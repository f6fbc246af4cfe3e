// Westwood W3D reader (Renegade, Generals, BFME 1/2): hierarchies, meshes, HLODs, boxes, null objects,
// Renegade HModels/collections and every clip codec, into the format-neutral model.
//
//   0x100 HIERARCHY   0x101 header {u32 version, name[16], u32 numPivots, vec3 center}
//                     0x102 pivots  60 bytes each {name[16], u32 parent, vec3 T, vec3 euler, quat xyzw}
//                     0x103 fixups  48 bytes each (exporter only; counted, not used)
//   0x0   MESH        0x1F header3 (116) 0x2 vertices 0x3 normals 0x20 triangles (32 each)
//                     0xE influences (8 per vertex) 0x28 material info 0x29 shaders (16 each)
//                     0x2A vertex materials > 0x2B > {0x2C name, 0x2D info (32)}
//                     0x30 textures > 0x31 > {0x32 name, 0x33 info}
//                     0x38 pass > {0x39 vmat ids, 0x3A shader ids, 0x3B DCG, 0x3F shader-material ids,
//                                  0x4A uv (BFME), 0x48 stage > {0x49 texture ids, 0x4A uv}}
//                     BFME: 0x50 shader materials > 0x51 > {0x52 header, 0x53 property}
//                           0x60 tangents 0x61 bitangents 0xC00/0xC01 second-bone vertices/normals
//   0x700 HLOD        0x701 header {u32 version, u32 lodCount, name[16], hierarchy[16]}
//                     0x702 lod array > {0x703 {u32 count, f32 maxScreenSize}, 0x704 {u32 bone, name[32]}*}
//                     0x705 aggregates / 0x706 proxies: same layout as a lod array
//   0x740 BOX (68)  0x750 NULL (48)  0x300 HMODEL  0x420 COLLECTION
//   0x500 EMITTER, 0x741 SPHERE, 0x742 RING, 0x600 AGGREGATE: see w3d_fx.h
//   0x200 ANIMATION, 0x280 COMPRESSED_ANIMATION: see w3d_anim.cpp.
#pragma once

#include "common/bytes.h"
#include "common/movable.h"
#include "scene/document.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rs::w3d {

constexpr size_t kNameLen = 16;
constexpr size_t kMaxPasses = 4; // MeshMatDescClass::MAX_PASSES; further passes are not drawn

struct Pivot {
    RS_NOEXCEPT_MOVABLE(Pivot)
    std::string name;
    uint32_t parent = 0xFFFFFFFFu; // as stored
    glm::vec3 translation{0.0f};
    glm::vec3 euler{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

struct Hierarchy {
    RS_NOEXCEPT_MOVABLE(Hierarchy)
    uint32_t version = 0;
    std::string name;
    glm::vec3 center{0.0f};
    std::vector<Pivot> pivots; // validated: pivot 0 is the root, every other parent < own index
    size_t fixupCount = 0;
};

struct VertexMaterial {
    RS_NOEXCEPT_MOVABLE(VertexMaterial)
    std::string name;
    uint32_t attributes = 0;
    glm::u8vec4 ambient{255}, diffuse{255}, specular{0}, emissive{0}; // rgb + pad as stored
    float shininess = 1.0f, opacity = 1.0f, translucency = 0.0f;
    std::string mapperArgs[2]; // 0x2E / 0x2F: stage 0 / stage 1 mapper arguments (key=value lines)
};

// W3dShaderStruct, 16 bytes as stored.
struct Shader {
    uint8_t depthCompare = 3, depthMask = 1, colorMask = 0, destBlend = 0, fogFunc = 0, priGradient = 1,
            secGradient = 0, srcBlend = 1, texturing = 0, detailColorFunc = 0, detailAlphaFunc = 0, shaderPreset = 0,
            alphaTest = 0, postDetailColorFunc = 0, postDetailAlphaFunc = 0, pad = 0;
};
static_assert(sizeof(Shader) == 16, "W3dShaderStruct is 16 bytes");

struct TextureRef {
    std::string name;
    bool hasInfo = false;
    uint16_t attributes = 0, animType = 0;
    uint32_t frameCount = 1;
    float frameRate = 0.0f;
};

struct ShaderMaterialProperty {
    uint32_t type = 0; // 1 texture, 2 float, 3 vec2, 4 vec3, 5 vec4, 6 int, 7 bool
    std::string name;
    std::string text;      // texture name
    glm::vec4 value{0.0f}; // float/vector
    int32_t intValue = 0;  // int/bool
};

struct ShaderMaterial {
    uint8_t number = 0;
    std::string typeName; // e.g. "NormalMapped.fx"
    std::vector<ShaderMaterialProperty> properties;
};

struct TextureStage {
    std::vector<uint32_t> textureIds; // 1 (whole mesh) or one per triangle
    std::vector<glm::vec2> uv;        // per vertex
};

struct MaterialPass {
    std::vector<uint32_t> vertexMaterialIds; // 1 or per vertex
    std::vector<uint32_t> shaderIds;         // 1 or per triangle
    std::vector<uint32_t> shaderMaterialIds; // BFME: 1 or per triangle
    std::vector<glm::u8vec4> dcg;            // per-vertex RGBA
    std::vector<glm::u8vec4> dig;            // per-vertex RGB + pad (0x3C)
    std::vector<TextureStage> stages;
    std::vector<glm::vec2> uv; // BFME: texcoords directly in the pass (with shader materials)
};

struct VertexInfluence {
    uint16_t bone = 0, bone2 = 0, weight = 0, weight2 = 0; // weights in percent (BFME), 0/0 = single bone
};

struct RawMesh {
    RS_NOEXCEPT_MOVABLE(RawMesh)
    uint32_t version = 0, attributes = 0;
    std::string name, container;
    uint32_t numTris = 0, numVertices = 0;
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};
    std::string userText;
    std::vector<glm::vec3> positions, normals, positions2, normals2, tangents, bitangents;
    std::vector<uint32_t> indices; // 3 per triangle, validated < numVertices
    std::vector<VertexInfluence> influences;
    std::vector<VertexMaterial> vertexMaterials;
    std::vector<Shader> shaders;
    std::vector<TextureRef> textures;
    std::vector<MaterialPass> passes;
    std::vector<ShaderMaterial> shaderMaterials;
    // W3X: the influence weights as written (x: influence 1, y: influence 2; 0..1), used instead of the percent
    // weights of `influences` when not empty (one per vertex).
    std::vector<glm::vec2> exactWeights;
    uint64_t offset = 0;
    ChunkPath chunkPath;
    bool prelitVertex = false; // materials from the vertex-lit wrapper (0x24): drawn without lighting

    bool skin() const { return (attributes & 0x00FF0000u) == 0x00020000u; }
    std::string fullName() const { return container.empty() ? name : container + "." + name; }
};

struct SubObject {
    uint32_t bone = 0;
    std::string name;           // "CONTAINER.OBJECT"
    uint64_t boneAt = ~0ull;    // absolute offset of the bone field (~0: not stored in the file)
    std::string chunkPath = {}; // "0x700/0x702/0x704" (empty: not stored in the file)
};

struct LodArray {
    float maxScreenSize = 0.0f;
    std::vector<SubObject> objects;
};

struct Hlod {
    uint32_t version = 0;
    std::string name, hierarchy;
    std::vector<LodArray> lods; // as stored: index lodCount-1 is the most detailed
    std::vector<SubObject> aggregates, proxies;
    bool truncated = false;
};

struct Box {
    uint32_t version = 0, attributes = 0;
    std::string name; // "CONTAINER.BOX"
    glm::u8vec3 color{0};
    glm::vec3 center{0.0f}, extent{0.0f};
};

struct NullObject {
    uint32_t version = 0, attributes = 0;
    std::string name;
};

// Renegade hierarchy model: nodes name "<HModelName>.<Object>" attached to a pivot.
struct HModel {
    uint32_t version = 0;
    std::string name, hierarchy;
    std::vector<SubObject> nodes;
};

struct Collection {
    uint32_t version = 0;
    std::string name;
    std::vector<std::string> objects;
    struct Placeholder {
        std::string name;
        glm::mat4 transform{1.0f};
    };
    std::vector<Placeholder> placeholders;
};

// Effect objects (w3d_fx.h has the chunk layouts and the readers).
struct EmitterRandomizer {
    uint32_t classId = 0;
    glm::vec3 value{0.0f};
};

struct EmitterKey {
    float time = 0.0f;
    glm::vec3 value{0.0f}; // colour rgb 0..1 (the file's bytes / 255), or x = the value
};

struct EmitterKeyChannel {
    bool present = false;
    float random = 0.0f;
    float orientationRandom = 0.0f; // rotation keys only
    std::vector<EmitterKey> keys;   // first = the start key (age 0)
};

struct Emitter {
    uint32_t version = 0x20000;
    std::string name;
    bool hasUserData = false;
    uint32_t userType = 0;
    std::string userString;
    // 0x503
    std::string texture;
    float startSize = 0, endSize = 0, lifetime = 0, emissionRate = 0, maxEmissions = 0, velocityRandom = 0,
          positionRandom = 0, fadeTime = 0, gravity = 0, elasticity = 0;
    glm::vec3 velocity{0.0f}, acceleration{0.0f};
    glm::u8vec4 startColor{255}, endColor{255};
    // 0x504
    bool hasInfoV2 = false;
    uint32_t burstSize = 1;
    EmitterRandomizer creationVolume, velocityRandomizer;
    float outwardVelocity = 0, velocityInherit = 0;
    Shader shader;
    uint32_t renderMode = 0, frameMode = 0;
    // 0x505
    bool hasProps = false;
    glm::u8vec4 colorRandom{0};
    float opacityRandom = 0, sizeRandom = 0;
    std::vector<EmitterKey> colorKeys, opacityKeys, sizeKeys; // first = start key
    EmitterKeyChannel rotation, frame, blurTime;              // 0x50A, 0x50B, 0x50C
    bool hasLineProperties = false;
    uint32_t lineFlags = 0, lineSubdivision = 0;
    float lineNoise = 0, lineMergeAbort = 0, lineTextureTile = 0, lineUPerSec = 0, lineVPerSec = 0;
    bool hasExtraInfo = false;
    float futureStartTime = 0;
    uint64_t offset = 0;
    std::string chunkPath;
};

// A LERP channel of a sphere or ring (prim_anim.h KeyClass: value, then f32 time; time normalised over the
// animation's duration).
template <class T> struct PrimitiveKey {
    T value{};
    float time = 0.0f;
};
struct AlphaVector {
    glm::quat angle{1.0f, 0.0f, 0.0f, 0.0f};
    float intensity = 1.0f;
};

struct Sphere {
    uint32_t version = 0, flags = 0; // flags: 1 alpha vector, 2 camera aligned, 4 inverse alpha, 8 looping
    std::string name;                // "CONTAINER.SPHERE"
    glm::vec3 center{0.0f}, extent{1.0f};
    float duration = 0.0f; // seconds
    glm::vec3 color{0.75f};
    float alpha = 1.0f;
    glm::vec3 scale{1.0f};
    AlphaVector vector;
    std::string texture;
    Shader shader;
    std::vector<PrimitiveKey<glm::vec3>> colorKeys, scaleKeys;
    std::vector<PrimitiveKey<float>> alphaKeys;
    std::vector<PrimitiveKey<AlphaVector>> vectorKeys;
};

struct Ring {
    uint32_t version = 0, flags = 0; // flags: 1 camera aligned, 2 looping
    std::string name;
    glm::vec3 center{0.0f}, extent{1.0f};
    float duration = 0.0f;
    glm::vec3 color{0.75f};
    float alpha = 1.0f;
    glm::vec2 innerScale{1.0f}, outerScale{1.0f}, innerExtent{0.5f}, outerExtent{1.0f};
    std::string texture;
    Shader shader;
    int32_t textureTiles = 0;
    std::vector<PrimitiveKey<glm::vec3>> colorKeys;
    std::vector<PrimitiveKey<float>> alphaKeys;
    std::vector<PrimitiveKey<glm::vec2>> innerScaleKeys, outerScaleKeys;
};

struct Aggregate {
    uint32_t version = 0;
    std::string name, baseModel;
    struct Sub {
        std::string object, bone;
    };
    std::vector<Sub> subObjects;
    bool hasTextureReplacers = false, hasClassInfo = false;
    uint32_t originalClassId = 0, flags = 0;
};

// Everything one .w3d file holds, as stored (clips already decoded to dense tracks).
struct File {
    std::vector<Hierarchy> hierarchies;
    std::vector<RawMesh> meshes;
    std::vector<Hlod> hlods;
    std::vector<Box> boxes;
    std::vector<NullObject> nulls;
    std::vector<HModel> hmodels;
    std::vector<Collection> collections;
    std::vector<Clip> clips;
    std::vector<Emitter> emitters;     // 0x500
    std::vector<Sphere> spheres;       // 0x741
    std::vector<Ring> rings;           // 0x742
    std::vector<Aggregate> aggregates; // 0x600
    std::vector<std::string> warnings; // truncation, skipped chunks, ignored channels
};

// True when the bytes are a Shockwave 3D (Director / Intel IFX) scene rather than a Westwood W3D file.
bool isShockwave3D(ByteSpan bytes);

// Parses every top-level chunk. Throws ParseError (file, chunk path, offset) on malformed input;
// a file cut short loads what is whole and lists what is not in File::warnings.
File readFile(ByteSpan bytes, const std::string& path);

// Skeleton of a hierarchy: bindLocal = T(pivot.T) * R(pivot.Q); pivot 0 is the root (EA htree: its
// transform is the object transform, so bindLocal is identity). Skeleton::name = hierarchy name.
Skeleton toSkeleton(const Hierarchy& h);

// Format-neutral mesh. Skins (skeleton required) get VertexSpace::Bone, boneMap = pivots used,
// boneIndices into boneMap; rigid meshes get Mesh::bone = `bone`. Skin vertices naming a pivot the skeleton
// lacks: without `warnings` a ParseError; with it they are bound to pivot 0 (the root) and one line per mesh
// (file, chunk path, offset, how many vertices) is added to *warnings.
Mesh toMesh(const RawMesh& raw, const Skeleton* skeleton, int bone, const std::string& file,
            std::vector<std::string>* warnings = nullptr);
// Same result; moves raw's vertex/index arrays into the mesh instead of copying them (raw keeps its names,
// attributes and materials, its geometry is left unspecified).
Mesh toMesh(RawMesh&& raw, const Skeleton* skeleton, int bone, const std::string& file,
            std::vector<std::string>* warnings = nullptr);

// Descriptive material of pass 0: shader "w3d:opaque", "w3d:alpha", "w3d:additive", ... (or
// "w3d:fx:<name>" for BFME shader materials), params Diffuse/Ambient/Specular/Emissive/Opacity/
// Shininess (vertex material) and BaseTexture (texture name). Shader materials keep their properties
// by name and add BaseTexture/NormalTexture/Diffuse/Specular/Shininess aliases.
Material passMaterial(const RawMesh& raw, uint32_t shaderId, uint32_t textureId, uint32_t vmatId,
                      uint32_t shaderMaterialId);
std::string shaderName(const Shader& s);
// The ww3d2 state of pass `pass` for a triangle group: shader bits (W3dUtilityClass::Convert_Shader: the file's
// detail functions become the post-detail ones), vertex material and its mappers, stage textures. uvSource and
// hasDcg/hasDig are left for the caller (they depend on the sub-mesh's arrays).
W3dPassState passState(const RawMesh& raw, uint32_t shaderId, uint32_t vmatId, uint32_t texture0, uint32_t texture1);

// The hierarchies of the file that holds hierarchy `name`, with a label naming that file (for messages).
struct HierarchyFile {
    std::string label;
    std::shared_ptr<const std::vector<Hierarchy>> hierarchies;
};
// Finds the file holding hierarchy `name` (the resolver: beside the file, in the game's skeleton folders, or the
// file the user chose); nullopt when there is none. Throws ParseError when that file is malformed.
using HierarchyLookup = std::function<std::optional<HierarchyFile>(const std::string& name)>;

// Loads a .w3d and what it needs to be shown: the hierarchy it names (from the file itself, else through
// `lookup`), meshes placed by the HLOD/HModel, boxes/nulls as markers, and the clips it contains. A clip-only
// file also gets its hierarchy as the model (when found). Reads no other file itself.
Document loadSet(ByteSpan bytes, const std::string& path, const HierarchyLookup& lookup = {});

// What loadSet does after reading the file: the same for any File made elsewhere (the W3X reader fills one from
// XML). `format` is written into the document, its model and its clips' owner.
Document assemble(File f, const std::string& path, const HierarchyLookup& lookup, Format format);

// Cheap scan (reads chunk headers only): hierarchy names defined, the hierarchy the file's models use
// (HLOD/HModel), and the hierarchy each clip names.
struct HeaderScan {
    std::vector<std::string> hierarchies;
    std::string modelHierarchy;
    std::vector<std::string> clipHierarchies;
};
HeaderScan scanHeaders(ByteSpan bytes);
// The same over a file that is not in memory: readAt(offset, dst, n) copies n bytes, false when they are not there.
using ReadAt = std::function<bool(uint64_t offset, void* dst, size_t n)>;
HeaderScan scanHeaders(uint64_t size, const ReadAt& readAt);

} // namespace rs::w3d
