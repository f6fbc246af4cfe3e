// .ALO model reader.
//
//   0x200 skeleton (C)
//     0x201 header: u32 nBones, zero padded to 128
//     0x202 bone (C), nBones times
//       0x203 name (cstring)
//       0x205 i32 parent, u32 visible,                 f32[12] matrix (3 rows of 4)
//    or 0x206 i32 parent, u32 visible, u32 billboard, f32[12] matrix
//   0x400 mesh (C)                                     } meshes and lights in any order;
//     0x401 name, 0x402 info (u32 nMaterials, f32[6] bounds, u32 unused, u32 hidden, u32 collision, pad to 128)
//     { 0x10100 material (C): 0x10101 shader name, 0x10102..0x10106 params (minis 1 name, 2 value)
//       0x10000 geometry (C): 0x10001 header (u32 nVertices, u32 nTriangles, pad to 128)
//                             0x10002 vertex format (cstring), 0x10004 u16 indices[3*nTriangles]
//                             0x10005 vertices (128 B) | 0x10007 vertices (144 B)
//                             0x10006 u32 boneMap[]  (optional: skinned sub-mesh)
//                             0x1200 collision tree (C): 0x1201 minis 0 min,1 max,2 nNodes,3 nTris;
//                                    0x1202 nodes (10 B), 0x1203 u16 triangles } per sub-mesh
//                             (0x10000 nested inside its 0x10100 is accepted too)
//   0x1300 light (C): 0x1301 name, 0x1302 info (u32 type, f32[3] color, f32 intensity, f32[4])
//   0x600 connections (C)                              } object index = order of 0x400 and 0x1300 chunks
//     0x601 minis 1 nObjects, 4 nProxies, [9 nDazzles]
//     0x602 minis 2 object, 3 bone
//     0x603 minis 5 name, 6 bone, [7 hidden], [8 altDecreaseStayHidden]
//     0x604 minis 0 color,1 position,2 radius,3 texX,4 texY,6 texSize,5 texture,7 frequency,8 phase,
//                 9 nightOnly,10 bone,11 name,12 hidden,[13 bias]
//          (or a container holding one type-0 data chunk of these minis)
#include "alamo/alamo_reader.h"
#include "common/warnings.h"

#include "alamo/alamo_chunks.h"

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <optional>
#include <type_traits>

namespace rs::alamo {

namespace {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the vertex decoder copies little-endian records directly"
#endif

// On-disk vertex records (little-endian, packed floats/u32).
struct DiskVertex144 {
    float position[3], normal[3], uv[4][2], tangent[3], binormal[3], color[4], unused[4];
    uint32_t bone[4];
    float weight[4];
};
struct DiskVertex128 {
    float position[3], normal[3], uv[4][2], tangent[3], binormal[3], color[4];
    uint32_t bone[4];
    float weight[4];
};
static_assert(sizeof(DiskVertex144) == 144, "0x10007 vertex is 144 bytes");
static_assert(sizeof(DiskVertex128) == 128, "0x10005 vertex is 128 bytes");

struct DiskCollisionNode {
    uint8_t min[3], max[3];
    uint16_t primitiveCount, link;
};
static_assert(sizeof(DiskCollisionNode) == 10, "0x1202 node is 10 bytes");

// Which optional attributes a vertex format string asks for ("alD3dVertNU2U3U3C", "alD3dVertB4I4NU2").
struct FormatHints {
    bool color = false;
    bool weights = false; // B4: blended weights are used; otherwise one bone per vertex (RSkin)
};

FormatHints parseFormat(const std::string& f) {
    FormatHints h;
    std::string s = f;
    const std::string prefix = "alD3dVert";
    if (istartsWith(s, prefix)) s = s.substr(prefix.size());
    for (size_t i = 0; i < s.size();) {
        size_t j = i + 1;
        while (j < s.size() && !std::isupper(static_cast<unsigned char>(s[j])))
            ++j;
        const std::string tok = s.substr(i, j - i);
        if (tok == "C") h.color = true;
        if (tok == "B4") h.weights = true;
        i = j;
    }
    return h;
}

// One object (mesh or light) in file order, for 0x602 object indices.
struct ObjectRef {
    bool light;
    size_t index;
};

struct RawConnections {
    bool present = false;
    uint32_t nObjects = 0, nProxies = 0, nDazzles = 0;
    bool haveDazzleCount = false;
    std::vector<std::pair<Connection, size_t>> objects; // with the chunk header offset
};

class AloReader {
  public:
    AloReader(ByteSpan bytes, const std::string& file) : bytes_(bytes), file_(file) {}

    Model read() {
        model_.format = Format::AlamoModel;
        model_.sourcePath = file_;
        if (bytes_.size >= 4) { // checked before any size so that a damaged particle file is named as such
            const uint32_t id =
                bytes_.data[0] | bytes_.data[1] << 8 | bytes_.data[2] << 16 | uint32_t(bytes_.data[3]) << 24;
            if (id == 0x900 || id == 0x1500)
                throw ParseError(
                    file_, hex(id), 0,
                    "this .alo is an Alamo particle system, not a model (read it with readParticleSystem)");
        }
        ChunkCursor top(bytes_, file_, 0, bytes_.size, {});
        Chunk c;
        bool first = true, haveSkeleton = false;
        while (top.next(c)) {
            first = false;
            switch (c.type) {
            case 0x200:
                if (haveSkeleton) top.fail(c, "second skeleton chunk");
                haveSkeleton = true;
                readSkeleton(top, c);
                break;
            case 0x400:
                objects_.push_back({false, model_.meshes.size()});
                readMesh(top, c);
                break;
            case 0x1300:
                objects_.push_back({true, model_.lights.size()});
                readLight(top, c);
                break;
            case 0x600:
                if (conns_.present) top.fail(c, "second connections chunk");
                readConnections(top, c);
                break;
            default:
                warn_.add("skipped unknown top-level chunk", c.path);
            }
        }
        if (first) throw ParseError(file_, {}, 0, "empty file: no Alamo chunks");
        if (!haveSkeleton) throw ParseError(file_, {}, ParseError::kNoOffset, "no skeleton chunk 0x200: not an Alamo model");
        resolveConnections();
        model_.warnings = warn_.lines();
        return std::move(model_);
    }

  private:
    // ---- skeleton ----
    void readSkeleton(ChunkCursor& parent, const Chunk& sc) {
        ChunkCursor cur = parent.children(sc);
        Chunk c;
        bool haveHeader = false;
        uint32_t declared = 0;
        auto& bones = model_.skeleton.bones;
        while (cur.next(c)) {
            if (c.type == 0x201) {
                ByteReader r = cur.data(c);
                declared = r.u32le();
                // Each bone needs at least a 0x202 header, a 0x203 and a 0x205 header: 24 bytes.
                if (declared > (sc.end - c.end) / 24)
                    cur.fail(c, "bone count " + std::to_string(declared) + " exceeds what the skeleton chunk can hold");
                bones.reserve(declared);
                haveHeader = true;
            } else if (c.type == 0x202) {
                if (!haveHeader) cur.fail(c, "bone chunk before the 0x201 skeleton header");
                bones.push_back(readBone(cur, c, bones.size()));
            } else {
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveHeader) parent.fail(sc, "skeleton without a 0x201 header");
        if (bones.size() != declared)
            parent.fail(sc, "skeleton header declares " + std::to_string(declared) + " bones, found " +
                                std::to_string(bones.size()));
    }

    Bone readBone(ChunkCursor& parent, const Chunk& bc, size_t index) {
        ChunkCursor cur = parent.children(bc);
        Chunk c;
        Bone b;
        bool haveName = false, haveData = false;
        while (cur.next(c)) {
            if (c.type == 0x203) {
                b.name = cur.data(c).restAsCString();
                haveName = true;
            } else if (c.type == 0x205 || c.type == 0x206) {
                ByteReader r = cur.data(c);
                b.parent = r.i32le();
                b.visible = r.u32le() != 0;
                b.billboard = c.type == 0x206 ? static_cast<int>(r.u32le()) : 0;
                float f[12];
                for (float& v : f)
                    v = r.f32le();
                glm::mat4 m(1.0f);
                for (int row = 0; row < 3; ++row)
                    for (int col = 0; col < 4; ++col)
                        m[col][row] = f[row * 4 + col];
                b.bindLocal = m;
                if (b.parent < -1 || (b.parent >= 0 && static_cast<size_t>(b.parent) >= index))
                    cur.fail(c, "bone " + std::to_string(index) + " has parent " + std::to_string(b.parent) +
                                    " (must be -1 or a smaller bone index)");
                haveData = true;
            } else {
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveName || !haveData) parent.fail(bc, "bone " + std::to_string(index) + " lacks its name or data chunk");
        return b;
    }

    // ---- meshes ----
    void readMesh(ChunkCursor& parent, const Chunk& mc) {
        ChunkCursor cur = parent.children(mc);
        Chunk c;
        Mesh mesh;
        uint32_t nMaterials = 0;
        bool haveInfo = false;
        std::vector<bool> hasGeometry;
        while (cur.next(c)) {
            switch (c.type) {
            case 0x401:
                mesh.name = cur.data(c).restAsCString();
                break;
            case 0x402: {
                ByteReader r = cur.data(c);
                nMaterials = r.u32le();
                mesh.boundsMin = r.vec3le();
                mesh.boundsMax = r.vec3le();
                r.u32le(); // unused
                mesh.hidden = r.u32le() != 0;
                mesh.collisionEnabled = r.u32le() != 0;
                haveInfo = true;
                break;
            }
            case 0x10100:
                mesh.subMeshes.emplace_back();
                hasGeometry.push_back(false);
                if (readMaterial(cur, c, mesh.subMeshes.back())) hasGeometry.back() = true;
                break;
            case 0x10000:
                if (mesh.subMeshes.empty() || hasGeometry.back())
                    cur.fail(c, "sub-mesh geometry without a preceding 0x10100 material");
                hasGeometry.back() = true;
                readGeometry(cur, c, mesh.subMeshes.back());
                break;
            default:
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveInfo) parent.fail(mc, "mesh '" + mesh.name + "' has no 0x402 info chunk");
        if (nMaterials != mesh.subMeshes.size())
            warn_.add("mesh '" + mesh.name + "' declares " + std::to_string(nMaterials) +
                                      " materials but holds " + std::to_string(mesh.subMeshes.size()));
        for (size_t i = 0; i < hasGeometry.size(); ++i)
            if (!hasGeometry[i])
                warn_.add("mesh '" + mesh.name + "' sub-mesh " + std::to_string(i) +
                                          " has a material but no geometry");
        parseLodAlt(mesh.name, mesh.baseName, mesh.lod, mesh.alt);
        bool anyDrawn = false;
        for (const SubMesh& sm : mesh.subMeshes) {
            const std::string sh = toLower(sm.material.shader);
            if (sh.find("shadowvolume") == std::string::npos && sh.find("collision") == std::string::npos)
                anyDrawn = true;
            if (sm.material.find("Colorization")) mesh.colorize = true;
        }
        mesh.shadowOrCollision = !mesh.subMeshes.empty() && !anyDrawn;
        if (istartsWith(mesh.name, "FC_")) mesh.colorize = true;
        model_.meshes.push_back(std::move(mesh));
    }

    // Returns true when the geometry was nested in the material chunk (some exporters' layout; game files
    // store 0x10000 as the next sibling).
    bool readMaterial(ChunkCursor& parent, const Chunk& mc, SubMesh& sm) {
        ChunkCursor cur = parent.children(mc);
        Chunk c;
        Material& mat = sm.material;
        bool nestedGeometry = false;
        while (cur.next(c)) {
            if (c.type == 0x10101) {
                mat.shader = cur.data(c).restAsCString();
                continue;
            }
            if (c.type == 0x10000) {
                if (nestedGeometry) cur.fail(c, "second geometry chunk in one material");
                readGeometry(cur, c, sm);
                nestedGeometry = true;
                continue;
            }
            if (c.type < 0x10102 || c.type > 0x10106) {
                warn_.add("skipped unknown chunk", c.path);
                continue;
            }
            MaterialParam p;
            bool haveName = false, haveValue = false;
            MiniCursor minis(cur.data(c));
            uint8_t t;
            ByteReader m(ByteSpan(), file_);
            while (minis.next(t, m)) {
                if (t == 1) {
                    p.name = miniString(m);
                    haveName = true;
                } else if (t == 2) {
                    haveValue = true;
                    switch (c.type) {
                    case 0x10102:
                        p.type = ParamType::Int;
                        p.intValue = static_cast<int32_t>(miniU32(m, t));
                        break;
                    case 0x10103:
                        p.type = ParamType::Float;
                        p.value = glm::vec4(miniF32(m, t), 0.0f, 0.0f, 0.0f);
                        break;
                    case 0x10104:
                        p.type = ParamType::Float3;
                        p.value = glm::vec4(miniVec3(m, t), 0.0f);
                        break;
                    case 0x10105:
                        p.type = ParamType::Texture;
                        p.texture = miniString(m);
                        break;
                    default:
                        p.type = ParamType::Float4;
                        p.value = miniVec4(m, t);
                    }
                } else {
                    warn_.add("skipped unknown mini-chunk", std::to_string(t) + " in " + c.path);
                }
            }
            if (!haveName || !haveValue) cur.fail(c, "shader parameter lacks its name or value mini-chunk");
            mat.params.push_back(std::move(p));
        }
        return nestedGeometry;
    }

    // SubMesh::weightNotes for vertex i as stored.
    template <class DiskVertex>
    static void noteWeights(const DiskVertex& v, uint32_t i, const FormatHints& hints, SubMesh::WeightNotes& n) {
        if (!hints.weights) {
            for (int k = 1; k < 4; ++k)
                if (v.weight[k] > 0.0f && v.bone[k] != v.bone[0]) {
                    if (n.blended++ == 0) n.firstBlended = i;
                    break;
                }
            return;
        }
        const float sum = v.weight[0] + v.weight[1] + v.weight[2] + v.weight[3];
        if (std::isfinite(sum) && std::fabs(sum - 1.0f) > 0.01f && n.unnormalised++ == 0) {
            n.firstUnnormalised = i;
            n.firstSum = sum;
        }
    }

    // Decodes n full-layout vertices. Skinned sub-meshes (non-empty boneMap) get bone indices and weights,
    // validated against the bone map; RSkin formats (no B4 weights) bind each vertex to boneIndices[0].
    template <class DiskVertex>
    void decodeVertices(const uint8_t* p, uint32_t n, SubMesh& sm, const FormatHints& hints, const Chunk& vc) {
        static_assert(std::is_trivially_copyable<DiskVertex>::value, "memcpy decode");
        const bool skinned = !sm.boneMap.empty();
        const size_t mapSize = sm.boneMap.size();
        sm.positions.resize(n);
        sm.normals.resize(n);
        sm.uv0.resize(n);
        sm.uv1.resize(n);
        sm.tangents.resize(n);
        sm.binormals.resize(n);
        if (hints.color) sm.colors.resize(n);
        if (skinned) sm.boneIndices.reserve(n), sm.boneWeights.reserve(n);
        glm::vec3 *pos = sm.positions.data(), *nor = sm.normals.data(), *tan = sm.tangents.data(),
                  *bin = sm.binormals.data();
        glm::vec2 *uv0 = sm.uv0.data(), *uv1 = sm.uv1.data();
        glm::vec4* col = sm.colors.data();
        DiskVertex v;
        for (uint32_t i = 0; i < n; ++i, p += sizeof(DiskVertex)) {
            std::memcpy(&v, p, sizeof v);
            pos[i] = glm::vec3(v.position[0], v.position[1], v.position[2]);
            nor[i] = glm::vec3(v.normal[0], v.normal[1], v.normal[2]);
            uv0[i] = glm::vec2(v.uv[0][0], 1.0f - v.uv[0][1]);
            uv1[i] = glm::vec2(v.uv[1][0], 1.0f - v.uv[1][1]);
            tan[i] = glm::vec3(v.tangent[0], v.tangent[1], v.tangent[2]);
            bin[i] = glm::vec3(v.binormal[0], v.binormal[1], v.binormal[2]);
            if (col) col[i] = glm::vec4(v.color[0], v.color[1], v.color[2], v.color[3]);
            if (!skinned) continue;
            glm::vec4 w = hints.weights ? glm::vec4(v.weight[0], v.weight[1], v.weight[2], v.weight[3])
                                        : glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
            noteWeights(v, i, hints, sm.weightNotes);
            glm::u16vec4 b(0);
            for (int k = 0; k < 4; ++k) {
                if (k > 0 && w[k] == 0.0f) continue; // unused influence: index 0
                if (v.bone[k] >= mapSize)
                    throw ParseError(file_, vc.path,
                                     vc.begin + size_t(i) * sizeof(DiskVertex) + offsetof(DiskVertex, bone) + 4 * k,
                                     "vertex " + std::to_string(i) + " bone index " + std::to_string(v.bone[k]) +
                                         " >= bone map size " + std::to_string(mapSize));
                b[k] = static_cast<uint16_t>(v.bone[k]);
            }
            const float sum = w.x + w.y + w.z + w.w;
            if (!(sum > 1e-6f) || !std::isfinite(sum))
                throw ParseError(file_, vc.path, vc.begin + size_t(i) * sizeof(DiskVertex),
                                 "vertex " + std::to_string(i) + " has no usable bone weight");
            sm.boneIndices.push_back(b);
            sm.boneWeights.push_back(w / sum);
        }
    }

    void readGeometry(ChunkCursor& parent, const Chunk& gc, SubMesh& sm) {
        ChunkCursor cur = parent.children(gc);
        Chunk c;
        bool haveHeader = false, haveVertices = false, haveIndices = false;
        uint32_t nVerts = 0, nTris = 0;
        Chunk vertexChunk, indexChunk;
        while (cur.next(c)) {
            switch (c.type) {
            case 0x10001: {
                ByteReader r = cur.data(c);
                nVerts = r.u32le();
                nTris = r.u32le();
                haveHeader = true;
                break;
            }
            case 0x10002:
                sm.vertexFormat = cur.data(c).restAsCString();
                break;
            case 0x10004: {
                if (!haveHeader) cur.fail(c, "index buffer before the 0x10001 header");
                if (haveIndices) cur.fail(c, "second index buffer");
                ByteReader r = cur.data(c);
                const uint64_t n = uint64_t(nTris) * 3;
                r.needCount(n, 2, "index");
                if (r.remaining() != n * 2)
                    warn_.add(c.path + ": index buffer holds " + std::to_string(r.remaining()) +
                                              " bytes, header says " + std::to_string(n * 2));
                sm.indices.resize(n);
                const uint8_t* p = r.cur();
                for (size_t i = 0; i < n; ++i)
                    sm.indices[i] = uint32_t(p[2 * i]) | uint32_t(p[2 * i + 1]) << 8;
                haveIndices = true;
                indexChunk = c;
                break;
            }
            case 0x10005:
            case 0x10007: {
                if (!haveHeader) cur.fail(c, "vertex buffer before the 0x10001 header");
                if (haveVertices) cur.fail(c, "second vertex buffer");
                ByteReader r = cur.data(c);
                const size_t stride = c.type == 0x10007 ? sizeof(DiskVertex144) : sizeof(DiskVertex128);
                r.needCount(nVerts, stride, "vertex");
                if (r.remaining() != size_t(nVerts) * stride)
                    warn_.add(c.path + ": " + std::to_string(r.remaining() - size_t(nVerts) * stride) +
                                              " bytes after the declared vertices");
                haveVertices = true;
                vertexChunk = c;
                break;
            }
            case 0x10006: {
                ByteReader r = cur.data(c);
                if (r.remaining() % 4 != 0) cur.fail(c, "bone map size is not a multiple of 4");
                const size_t n = r.remaining() / 4;
                if (n == 0 || n > 0xFFFF) cur.fail(c, "bone map with " + std::to_string(n) + " entries");
                sm.boneMap.resize(n);
                for (size_t i = 0; i < n; ++i) {
                    uint32_t b = r.u32le();
                    if (b >= model_.skeleton.bones.size())
                        r.failAt(r.pos() - 4, "bone map entry " + std::to_string(i) + " = " + std::to_string(b) +
                                                  " but the skeleton has " +
                                                  std::to_string(model_.skeleton.bones.size()) + " bones");
                    sm.boneMap[i] = static_cast<int>(b);
                }
                break;
            }
            case 0x1200:
                if (sm.hasCollisionTree) cur.fail(c, "second collision tree");
                readCollision(cur, c, sm.collision);
                sm.hasCollisionTree = true;
                break;
            default:
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveHeader) parent.fail(gc, "sub-mesh geometry without a 0x10001 header");
        if (!haveVertices && nVerts > 0) parent.fail(gc, "sub-mesh declares vertices but has no vertex buffer");
        if (!haveIndices && nTris > 0) parent.fail(gc, "sub-mesh declares triangles but has no index buffer");
        for (size_t i = 0; i < sm.indices.size(); ++i)
            if (sm.indices[i] >= nVerts)
                throw ParseError(file_, indexChunk.path, indexChunk.begin + 2 * i,
                                 "index " + std::to_string(sm.indices[i]) + " >= vertex count " +
                                     std::to_string(nVerts));
        // Decoded last: the format string and the bone map (either order in the file) decide what is kept.
        const FormatHints hints = parseFormat(sm.vertexFormat);
        const uint8_t* vp = bytes_.data + vertexChunk.begin;
        if (!haveVertices) nVerts = 0;
        if (vertexChunk.type == 0x10007)
            decodeVertices<DiskVertex144>(vp, nVerts, sm, hints, vertexChunk);
        else
            decodeVertices<DiskVertex128>(vp, nVerts, sm, hints, vertexChunk);
        // Skinned vertices are in model space: skin = animatedWorld[map[i]] * inverse(bindWorld[map[i]]).
        sm.space = VertexSpace::Model;
    }

    void readCollision(ChunkCursor& parent, const Chunk& tc, CollisionTree& tree) {
        ChunkCursor cur = parent.children(tc);
        Chunk c;
        bool haveHeader = false;
        uint32_t nNodes = 0, nTris = 0;
        while (cur.next(c)) {
            if (c.type == 0x1201) {
                MiniCursor minis(cur.data(c));
                uint8_t t;
                ByteReader m(ByteSpan(), file_);
                while (minis.next(t, m)) {
                    if (t == 0)
                        tree.boxMin = miniVec3(m, t);
                    else if (t == 1)
                        tree.boxMax = miniVec3(m, t);
                    else if (t == 2)
                        nNodes = miniU32(m, t);
                    else if (t == 3)
                        nTris = miniU32(m, t);
                }
                haveHeader = true;
            } else if (c.type == 0x1202) {
                if (!haveHeader) cur.fail(c, "collision nodes before the 0x1201 header");
                ByteReader r = cur.data(c);
                r.needCount(nNodes, sizeof(DiskCollisionNode), "collision node");
                tree.nodes.resize(nNodes);
                for (auto& n : tree.nodes) {
                    for (auto& v : n.min)
                        v = r.u8();
                    for (auto& v : n.max)
                        v = r.u8();
                    n.primitiveCount = r.u16le();
                    n.link = r.u16le();
                }
            } else if (c.type == 0x1203) {
                if (!haveHeader) cur.fail(c, "collision triangles before the 0x1201 header");
                ByteReader r = cur.data(c);
                r.needCount(nTris, 2, "collision triangle");
                tree.triangles.resize(nTris);
                for (auto& t : tree.triangles)
                    t = r.u16le();
            } else {
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveHeader) parent.fail(tc, "collision tree without a 0x1201 header");
        for (size_t i = 0; i < tree.nodes.size(); ++i) {
            const auto& n = tree.nodes[i];
            const bool ok = n.primitiveCount > 0 ? size_t(n.link) + n.primitiveCount <= tree.triangles.size()
                                                 : size_t(n.link) + 1 < tree.nodes.size();
            if (!ok) {
                warn_.add(tc.path + ": collision node " + std::to_string(i) + " links out of range");
                break;
            }
        }
    }

    // ---- lights ----
    void readLight(ChunkCursor& parent, const Chunk& lc) {
        ChunkCursor cur = parent.children(lc);
        Chunk c;
        Light l;
        bool haveInfo = false;
        while (cur.next(c)) {
            if (c.type == 0x1301) {
                l.name = cur.data(c).restAsCString();
            } else if (c.type == 0x1302) {
                ByteReader r = cur.data(c);
                l.type = static_cast<int>(r.u32le());
                l.color = r.vec3le();
                l.intensity = r.f32le();
                l.farAttenuationEnd = r.f32le();
                l.farAttenuationStart = r.f32le();
                l.hotspotSize = r.f32le();
                l.falloffSize = r.f32le();
                haveInfo = true;
            } else {
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveInfo) parent.fail(lc, "light '" + l.name + "' has no 0x1302 info chunk");
        model_.lights.push_back(std::move(l));
    }

    // ---- connections ----
    int checkBone(uint32_t bone, const Chunk& c, const char* what) {
        if (bone >= model_.skeleton.bones.size())
            throw ParseError(file_, c.path, c.header,
                             std::string(what) + " bone index " + std::to_string(bone) + " but the skeleton has " +
                                 std::to_string(model_.skeleton.bones.size()) + " bones");
        return static_cast<int>(bone);
    }

    void readConnections(ChunkCursor& parent, const Chunk& cc) {
        conns_.present = true;
        ChunkCursor cur = parent.children(cc);
        Chunk c;
        uint8_t t;
        ByteReader m(ByteSpan(), file_);
        size_t nObjectChunks = 0, nProxyChunks = 0, nDazzleChunks = 0;
        bool haveHeader = false;
        while (cur.next(c)) {
            switch (c.type) {
            case 0x601: {
                MiniCursor minis(cur.data(c));
                while (minis.next(t, m)) {
                    if (t == 1)
                        conns_.nObjects = miniU32(m, t);
                    else if (t == 4)
                        conns_.nProxies = miniU32(m, t);
                    else if (t == 9) {
                        conns_.nDazzles = miniU32(m, t);
                        conns_.haveDazzleCount = true;
                    }
                }
                haveHeader = true;
                break;
            }
            case 0x602: {
                MiniCursor minis(cur.data(c));
                bool haveObject = false, haveBone = false;
                uint32_t object = 0, bone = 0;
                while (minis.next(t, m)) {
                    if (t == 2) {
                        object = miniU32(m, t);
                        haveObject = true;
                    } else if (t == 3) {
                        bone = miniU32(m, t);
                        haveBone = true;
                    }
                }
                if (!haveObject || !haveBone) cur.fail(c, "object connection lacks its object or bone mini-chunk");
                if (object > 0x7FFFFFFF) cur.fail(c, "object index " + std::to_string(object) + " out of range");
                Connection conn;
                conn.object = static_cast<int>(object);
                conn.bone = checkBone(bone, c, "object connection");
                model_.connections.push_back(conn);
                conns_.objects.push_back({conn, c.header});
                ++nObjectChunks;
                break;
            }
            case 0x603: {
                MiniCursor minis(cur.data(c));
                Proxy p;
                bool haveName = false, haveBone = false;
                while (minis.next(t, m)) {
                    if (t == 5) {
                        p.name = miniString(m);
                        haveName = true;
                    } else if (t == 6) {
                        p.bone = checkBone(miniU32(m, t), c, "proxy");
                        haveBone = true;
                    } else if (t == 7)
                        p.hidden = miniU32(m, t) != 0;
                    else if (t == 8)
                        p.altDecreaseStayHidden = miniU32(m, t) != 0;
                }
                if (!haveName || !haveBone) cur.fail(c, "proxy lacks its name or bone mini-chunk");
                std::string base;
                int lod = -1;
                parseLodAlt(p.name, base, lod, p.alt);
                model_.proxies.push_back(std::move(p));
                ++nProxyChunks;
                break;
            }
            case 0x604: {
                // Usually a data chunk of minis; GlyphXTools' viewer reads a container holding one data
                // chunk (type 0) of the same minis. The size bit tells which.
                Chunk dc = c;
                ChunkCursor* owner = &cur;
                std::optional<ChunkCursor> inner;
                if (c.container) {
                    inner.emplace(cur.children(c));
                    if (!inner->next(dc) || dc.container) cur.fail(c, "dazzle container without a data chunk");
                    owner = &*inner;
                    Chunk extra;
                    if (inner->next(extra)) warn_.add("skipped chunk", extra.path);
                }
                MiniCursor minis(owner->data(dc));
                Dazzle d;
                bool haveBone = false;
                while (minis.next(t, m)) {
                    switch (t) {
                    case 0:
                        d.color = miniVec3(m, t);
                        break;
                    case 1:
                        d.position = miniVec3(m, t);
                        break;
                    case 2:
                        d.radius = miniF32(m, t);
                        break;
                    case 3:
                        d.texX = static_cast<int>(miniU32(m, t));
                        break;
                    case 4:
                        d.texY = static_cast<int>(miniU32(m, t));
                        break;
                    case 5:
                        d.texture = miniString(m);
                        break;
                    case 6:
                        d.texSize = static_cast<int>(miniU32(m, t));
                        break;
                    case 7:
                        d.frequency = miniF32(m, t);
                        break;
                    case 8:
                        d.phase = miniF32(m, t);
                        break;
                    case 9:
                        d.nightOnly = miniU32(m, t) != 0;
                        break;
                    case 10:
                        d.bone = checkBone(miniU32(m, t), c, "dazzle");
                        haveBone = true;
                        break;
                    case 11:
                        d.name = miniString(m);
                        break;
                    case 12:
                        d.hidden = miniU32(m, t) != 0;
                        break;
                    case 13:
                        d.bias = miniF32(m, t);
                        d.hasBias = true;
                        break;
                    default:
                        warn_.add("skipped unknown mini-chunk", std::to_string(t) + " in " + c.path);
                    }
                }
                if (!haveBone) cur.fail(c, "dazzle lacks its bone mini-chunk");
                d.colorize = istartsWith(d.name, "FC_");
                model_.dazzles.push_back(std::move(d));
                ++nDazzleChunks;
                break;
            }
            default:
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveHeader) parent.fail(cc, "connections without a 0x601 header");
        if (conns_.nObjects != nObjectChunks || conns_.nProxies != nProxyChunks ||
            (conns_.haveDazzleCount && conns_.nDazzles != nDazzleChunks))
            warn_.add(cc.path + ": header counts (" + std::to_string(conns_.nObjects) + " objects, " +
                                      std::to_string(conns_.nProxies) + " proxies) differ from the chunks found (" +
                                      std::to_string(nObjectChunks) + ", " + std::to_string(nProxyChunks) + ")");
    }

    void resolveConnections() {
        for (const auto& oc : conns_.objects) {
            const Connection& conn = oc.first;
            if (static_cast<size_t>(conn.object) >= objects_.size())
                throw ParseError(file_, "0x600/0x602", oc.second,
                                 "object index " + std::to_string(conn.object) + " but the file has " +
                                     std::to_string(objects_.size()) + " meshes and lights");
            const ObjectRef& o = objects_[static_cast<size_t>(conn.object)];
            if (o.light)
                model_.lights[o.index].bone = conn.bone;
            else
                model_.meshes[o.index].bone = conn.bone;
        }
    }

    ByteSpan bytes_;
    const std::string& file_;
    Model model_;
    WarningLog warn_; // one line per kind in model_.warnings
    std::vector<ObjectRef> objects_;
    RawConnections conns_;
};

} // namespace

Model readModel(ByteSpan bytes, const std::string& file) { return AloReader(bytes, file).read(); }

} // namespace rs::alamo
