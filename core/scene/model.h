// Format-neutral model: what every reader (Alamo, W3D, B&W2) produces and the render layer consumes.
//
// Conventions
// - Matrices are GLM column-major; transforms compose as world = parentWorld * local.
// - Bones are ordered so that parent < index (readers validate or reorder; parent -1 = root).
// - A SubMesh is drawn with one material. Skinned sub-meshes carry per-vertex indices into
//   SubMesh::boneMap (skeleton bone indices) plus weights. The skin palette entry i is
//       world[boneMap[i]] * inverseBind[i]
//   inverseBind is inverse(bindWorld) for vertices stored in model space (Alamo, B&W2) and identity
//   for vertices stored in bone space (W3D). Rigid sub-meshes (empty boneMap) follow Mesh::bone.
#pragma once

#include "common/format_id.h"
#include "common/movable.h"
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs {

struct ParticleSystem;
struct MarkerFx; // w3d/w3d_fx.h

enum class BillboardMode : int {
    None = 0,
    Parallel = 1,
    FaceCamera = 2,
    ZAxisView = 3,
    ZAxisLight = 4,
    ZAxisWind = 5,
    SunlightGlow = 6,
    Sun = 7,
};

struct Bone {
    RS_NOEXCEPT_MOVABLE(Bone)
    std::string name;
    int parent = -1;           // index of parent bone, -1 for a root
    glm::mat4 bindLocal{1.0f}; // relative to parent
    bool visible = true;       // initial visibility of what is attached to it (and children)
    int billboard = 0;         // BillboardMode value as stored in the file
};

struct Skeleton {
    std::string name; // hierarchy name when the format names it (W3D); empty otherwise
    std::vector<Bone> bones;
    int find(const std::string& name) const; // case-insensitive; -1 if absent
    // bindWorld[i] = bindWorld[parent] * bindLocal[i]. out must hold bones.size() entries.
    void bindWorld(glm::mat4* out) const;
};

enum class ParamType { Int, Float, Float3, Float4, Texture };

// "int", "float", "float3", "float4", "texture" (as the CLI, the inspector and the diff print it).
const char* paramTypeName(ParamType t);

struct MaterialParam {
    RS_NOEXCEPT_MOVABLE(MaterialParam)
    std::string name;
    ParamType type = ParamType::Float;
    int32_t intValue = 0;  // Int
    glm::vec4 value{0.0f}; // Float (x), Float3 (xyz), Float4
    std::string texture;   // Texture: file name as stored
};

// W3D material state of one pass, as ww3d2 uses it (ShaderClass, VertexMaterialClass, TextureMapperClass).
// Enumerations keep the file's values (see w3d_file.h / shader.h of EA's released ww3d2):
//   depthCompare 0 never, 1 less, 2 equal, 3 lequal, 4 greater, 5 notequal, 6 gequal, 7 always
//   srcBlend 0 zero, 1 one, 2 src alpha, 3 (ONE_MINUS_SRC_ALPHA in the enum; Generals' table sets DESTCOLOR)
//   destBlend 0 zero, 1 one, 2 src colour, 3 1-src colour, 4 src alpha, 5 1-src alpha
//   priGradient 0 disable (decal), 1 modulate, 2 add, 3 bumpenvmap, 4 bumpenvmap luminance, 5 modulate2x
//   detailColorFunc 0 disable, 1 detail, 2 scale, 3 invscale, 4 add, 5 sub, 6 subr, 7 blend, 8 detailblend,
//                   9 addsigned, 10 addsigned2x, 11 scale2x, 12 modalphaaddcolor
//   detailAlphaFunc 0 disable, 1 detail, 2 scale, 3 invscale
struct W3dShaderBits {
    uint8_t depthCompare = 3, depthMask = 1, colorMask = 1, srcBlend = 1, destBlend = 0, fogFunc = 0, priGradient = 1,
            secGradient = 0, texturing = 0, detailColorFunc = 0, detailAlphaFunc = 0, alphaTest = 0,
            postDetailColorFunc = 0, postDetailAlphaFunc = 0;
};

// Texture mapper of one stage (W3DVERTMAT_STAGEn_MAPPING_*), with its argument text as stored and the arguments
// ww3d2 reads from it (mapper.cpp defaults where the text has none; see w3d::parseMapperArgs).
enum class W3dMapperType : int {
    UV = 0,
    Environment = 1,
    CheapEnvironment = 2,
    Screen = 3,
    LinearOffset = 4,
    Silhouette = 5,
    Scale = 6,
    Grid = 7,
    Rotate = 8,
    SineLinearOffset = 9,
    StepLinearOffset = 10,
    ZigzagLinearOffset = 11,
    WsClassicEnv = 12,
    WsEnvironment = 13,
    GridClassicEnv = 14,
    GridEnvironment = 15,
    Random = 16,
    Edge = 17,
    BumpEnv = 18,
    GridWsClassicEnv = 19,
    GridWsEnvironment = 20,
};
struct W3dMapper {
    int type = 0;                                             // W3dMapperType value as stored (unknown values kept)
    std::string args;                                         // the stored key=value text
    glm::vec2 scale{1.0f};                                    // UScale, VScale
    glm::vec2 perSec{0.0f};                                   // UPerSec, VPerSec
    glm::vec2 offset{0.0f};                                   // UOffset, VOffset (linear offset start)
    bool clampFix = false;                                    // ClampFix
    float fps = 1.0f;                                         // FPS (grid: 1, random: 0)
    int log2Width = 1, last = 0, frameOffset = 0;             // Log2Width, Last, Offset (grid)
    float speed = 0.1f;                                       // Speed (rotate, Hz)
    glm::vec2 center{0.0f};                                   // UCenter, VCenter
    glm::vec3 uafp{1.0f, 1.0f, 0.0f}, vafp{1.0f, 1.0f, 0.0f}; // UAmp/UFreq/UPhase, VAmp/VFreq/VPhase
    glm::vec2 step{0.0f};                                     // UStep, VStep
    float sps = 0.0f;                                         // SPS
    float period = 0.0f;                                      // Period (zigzag, seconds)
    float vStart = 0.0f;                                      // VStart (edge)
    bool useReflect = false;                                  // UseReflect (edge)
    int axis = 2;                                             // Axis (WS environment: 0 X, 1 Y, 2 Z)
    float bumpRotation = 0.0f, bumpScale = 1.0f;              // BumpRotation (Hz), BumpScale
};

struct W3dPassState {
    W3dShaderBits shader;
    // Vertex material (VertexMaterialClass): colours 0..1; opacity is the diffuse alpha.
    bool hasVertexMaterial = false;
    glm::vec3 ambient{1.0f}, diffuse{1.0f}, specular{0.0f}, emissive{0.0f};
    float shininess = 1.0f, opacity = 1.0f, translucency = 0.0f;
    uint32_t vmatAttributes = 0;
    bool lighting = true;                // D3DRS_LIGHTING (off for vertex-prelit meshes)
    std::string textures[2];             // stage 0 and 1 texture names (empty: none)
    W3dMapper mappers[2];                // stage 0 and 1
    int uvSource[2] = {0, 1};            // UV array per stage (SubMesh::w3dUv index; -1 none)
    bool hasDcg = false, hasDig = false; // the pass has per-vertex DCG / DIG arrays (SubMesh::w3dColors)
    // Where the pass's state is stored in its mesh chunk, for edits (EditOp target "MESH#index"): its vertex
    // material's index in 0x2A, its shader's in 0x29, its stage 0/1 textures' in 0x1F; -1 where it has none.
    int vmatIndex = -1, shaderIndex = -1;
    int textureIndex[2] = {-1, -1};
};

struct Material {
    std::string shader; // e.g. "MeshBumpColorize.fx", W3D/B&W2 readers synthesise a descriptive name
    std::vector<MaterialParam> params;
    std::vector<W3dPassState> w3dPasses; // W3D: every pass (up to 4) of the sub-mesh, in drawing order
    // The file's own material the sub-mesh is drawn with, for edits: W3D its shader material's index in the mesh's
    // 0x50 list (EditOp target "MESH#index"), B&W2 the model's material ("material index"); -1: none or another
    // format (Alamo edits name the sub-mesh itself).
    int sourceIndex = -1;
    const MaterialParam* find(const std::string& name) const; // case-insensitive
};

// Alamo collision tree (0x1200), kept as stored.
struct CollisionTree {
    RS_NOEXCEPT_MOVABLE(CollisionTree)
    glm::vec3 boxMin{0.0f}, boxMax{0.0f};
    struct Node {
        uint8_t min[3], max[3];
        uint16_t primitiveCount, link;
    };
    std::vector<Node> nodes;
    std::vector<uint16_t> triangles;
};

enum class VertexSpace { Model, Bone };

struct SubMesh {
    RS_NOEXCEPT_MOVABLE(SubMesh)
    Material material;
    std::string vertexFormat;         // e.g. "alD3dVertRSkinNU2"
    std::vector<glm::vec3> positions; // required; size = vertex count
    std::vector<glm::vec3> normals;   // empty or vertex count
    std::vector<glm::vec2> uv0;       // empty or vertex count; V already in OpenGL convention (v' = 1 - v)
    std::vector<glm::vec2> uv1;       // second set (optional)
    std::vector<glm::vec3> tangents;  // optional
    std::vector<glm::vec3> binormals; // optional
    std::vector<glm::vec4> colors;    // optional, RGBA 0..1
    // W3D: per-stage UV arrays (V in OpenGL convention) named by W3dPassState::uvSource, and per pass the vertex
    // colours DCG (rgba) and DIG (rgb, a = 1), empty when the pass has none. Sizes are 0 or the vertex count.
    std::vector<std::vector<glm::vec2>> w3dUv;
    std::vector<std::vector<glm::vec4>> w3dDcg, w3dDig;
    std::vector<glm::u16vec4> boneIndices; // indices into boneMap; empty when rigid
    std::vector<glm::vec4> boneWeights;    // sums to 1; empty when rigid
    // Optional second-influence position/normal (W3D BFME dual-bone skins: in bone space of influence 1).
    std::vector<glm::vec3> positions2, normals2;
    std::vector<uint32_t> indices; // triangle list, every index < vertex count
    std::vector<int> boneMap;      // skeleton bone per palette entry; empty = rigid
    // Skin weights as the file stores them where they differ from what is drawn (boneWeights), for checks
    // (core/check limit.skin-weights). `blended`: Alamo RSkin vertex formats (one bone per vertex, the first) whose
    // stored weights give a second bone an influence, which the engine ignores. `unnormalised`: stored weights that
    // do not add up to one (Alamo B4 formats: |sum - 1| > 0.01; W3D: percentages with |sum - 100| > 1, 0/0 meaning
    // one bone), normalised on read. first*: the first such vertex of the sub-mesh (valid when its count is > 0).
    struct WeightNotes {
        uint32_t blended = 0, firstBlended = 0;
        uint32_t unnormalised = 0, firstUnnormalised = 0;
        float firstSum = 0; // the stored sum of the first unnormalised vertex (W3D: percent)
    } weightNotes;
    VertexSpace space = VertexSpace::Model;
    bool hasCollisionTree = false;
    CollisionTree collision;

    size_t vertexCount() const { return positions.size(); }
    size_t triangleCount() const { return indices.size() / 3; }
    bool skinned() const { return !boneMap.empty(); }
};

struct Mesh {
    RS_NOEXCEPT_MOVABLE(Mesh)
    std::string name;
    std::string baseName; // name with _LOD<n>/_ALT<n> removed (Alamo) or HLOD base
    int lod = -1;         // -1 when the name/HLOD carries none
    int alt = -1;         // -1 when none
    bool hidden = false;
    bool collisionEnabled = false;
    bool shadowOrCollision = false; // not drawn in game (shadow volumes, collision meshes)
    bool colorize = false;          // FC_ name or a Colorization parameter
    bool twoSided = false;          // both faces drawn although the format culls back faces (W3D_MESH_FLAG_TWO_SIDED)
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};
    int bone = -1; // bone this mesh is connected to (-1: root / model space)
    std::vector<SubMesh> subMeshes;
    // W3D: the mesh as the file stores it, before the split into sub-meshes by material (the engine's buffers hold
    // it whole; core/check limit.w3d-*): vertices, triangles and material passes. 0 when not a W3D mesh.
    size_t fileVertexCount = 0, fileTriangleCount = 0, filePassCount = 0;
};

enum class LightType { Omni = 0, Directional = 1, Spot = 2 };

struct Light {
    RS_NOEXCEPT_MOVABLE(Light)
    std::string name;
    int type = 0; // LightType value as stored
    glm::vec3 color{1.0f};
    float intensity = 1.0f;
    float farAttenuationEnd = 0.0f;
    float farAttenuationStart = 0.0f;
    float hotspotSize = 0.0f; // radians
    float falloffSize = 0.0f; // radians
    int bone = -1;
};

struct Proxy {
    std::string name;
    int bone = -1;
    bool hidden = false;
    bool altDecreaseStayHidden = false;
    int alt = -1; // parsed from the name's _ALT<n>, -1 if none
};

struct Dazzle {
    RS_NOEXCEPT_MOVABLE(Dazzle)
    std::string name;
    glm::vec3 color{1.0f};
    glm::vec3 position{0.0f}; // relative to bone
    float radius = 1.0f;
    int texX = 0, texY = 0, texSize = 1;
    std::string texture;
    float frequency = 0.0f;
    float phase = 0.0f;
    bool nightOnly = false;
    int bone = -1;
    bool hidden = false;
    bool hasBias = false;
    float bias = 1.0f;
    bool colorize = false; // FC_ name
};

// A named attachment point (W3D boxes/nulls, B&W2 entities, ...), drawn as a labelled marker.
struct Marker {
    RS_NOEXCEPT_MOVABLE(Marker)
    std::string name;
    std::string kind; // "box", "null", "entity", ...
    int bone = -1;
    glm::mat4 transform{1.0f}; // relative to bone
    glm::vec3 extent{0.0f};    // half size for boxes
    // W3D/W3X boxes (kind "box"): collision boxes, drawn as the collision overlay (View > Collision), not with the
    // markers. axisAligned (W3D_BOX_ATTRIBUTE_ALIGNED): ww3d2's AABoxRenderObjClass keeps the model's axes and
    // follows only its bone's translation; otherwise (OBBoxRenderObjClass) the box turns with the bone.
    // color: the box's stored colour (0..1).
    bool axisAligned = false;
    glm::vec3 color{0.0f};
    // W3D spheres and rings (kind "sphere"/"ring"): their definition with its keyframed colour, alpha and scale,
    // drawn animated (w3d::sphereState/ringState); null for other markers.
    std::shared_ptr<const MarkerFx> fx;
};

// Object connection as stored (Alamo 0x602): object index counts meshes and lights in file order.
struct Connection {
    int object = -1;
    int bone = -1;
};

// A set of points kept from a file for display as an overlay (B&W2 collision footprint and unknown points).
struct PointSet {
    std::string name;              // e.g. "collision"
    std::string kind;              // "collision", "points"
    bool closedLoop = false;       // points form a closed outline (draw as a loop)
    std::vector<glm::vec3> points; // model space
};

// A particle system the model file itself holds at a bone (W3D emitters placed by an HLOD, an aggregate or
// nothing: the root), drawn like the systems proxies name.
struct BoneParticles {
    std::string name;
    int bone = -1; // -1: model origin
    std::shared_ptr<const ParticleSystem> system;
};

struct Model {
    Format format = Format::Unknown; // the format of the file it was read from
    std::string sourcePath;          // file it was read from (may be empty)
    Skeleton skeleton;
    std::vector<Mesh> meshes;
    std::vector<Light> lights;
    std::vector<Proxy> proxies;
    std::vector<Dazzle> dazzles;
    std::vector<Marker> markers;
    std::vector<Connection> connections;
    std::vector<PointSet> pointSets;      // overlays (may be empty)
    std::vector<BoneParticles> particles; // systems the file holds (W3D emitters)
    std::vector<std::string> warnings;    // non-fatal problems found while reading

    std::vector<int> lodLevels() const; // sorted distinct Mesh::lod values >= 0
    std::vector<int> altLevels() const; // sorted distinct Mesh::alt values >= 0
};

// Splits "_LOD<n>" and "_ALT<n>" (case-insensitive, anywhere in the name) from a mesh name.
// Meshes shown at LOD lodWanted (-1: the most detailed) and ALT altWanted, per base name: the nearest LOD present
// (ties to the more detailed), then the nearest ALT at that LOD (ties to the lower). One flag per Model::meshes.
std::vector<bool> selectLodAlt(const Model& m, int lodWanted, int altWanted);

void parseLodAlt(const std::string& name, std::string& baseName, int& lod, int& alt);

// Case-insensitive helpers shared by readers.
bool iequals(const std::string& a, const std::string& b);
bool istartsWith(const std::string& s, const std::string& prefix);
std::string toLower(std::string s);

} // namespace rs
