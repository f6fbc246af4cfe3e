#include "w3d/w3d_reader.h"
#include "w3d/w3d_fx.h"
#include "w3d/w3d_mapper.h"

#include "common/warnings.h"
#include "w3d/w3d_anim.h"
#include "w3d/w3d_chunks.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <map>

namespace rs::w3d {

// Vertex arrays are copied straight from the file: W3dVectorStruct / W3dTexCoordStruct layouts.
static_assert(sizeof(glm::vec3) == 12 && sizeof(glm::vec2) == 8, "packed float vectors expected");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the W3D reader copies little-endian float arrays directly"
#endif

// ---------------------------------------------------------------------------------------------
// Small readers

static glm::vec3 vec3(ByteReader& r) {
    float x = r.f32le(), y = r.f32le(), z = r.f32le();
    return {x, y, z};
}

static glm::u8vec4 rgba(ByteReader& r) {
    uint8_t c0 = r.u8(), c1 = r.u8(), c2 = r.u8(), c3 = r.u8();
    return {c0, c1, c2, c3};
}

// Random-access iterator decoding one little-endian T (floats, u32s, u16s or bytes, no padding) from every
// `Stride` bytes of the file, so that vector(first, last) allocates once and constructs each element once (no
// value-initialising pass first). Little-endian host (x86/ARM LE), as everywhere in core/.
template <class T, size_t Stride = sizeof(T)> struct PodIt {
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = T;
    const uint8_t* p;
    T operator*() const {
        T v;
        std::memcpy(static_cast<void*>(&v), p, sizeof(T));
        return v;
    }
    PodIt& operator++() { return p += Stride, *this; }
    PodIt& operator--() { return p -= Stride, *this; }
    PodIt operator++(int) {
        PodIt t = *this;
        p += Stride;
        return t;
    }
    PodIt& operator+=(difference_type n) { return p += difference_type(Stride) * n, *this; }
    PodIt operator+(difference_type n) const { return {p + difference_type(Stride) * n}; }
    difference_type operator-(const PodIt& o) const { return (p - o.p) / difference_type(Stride); }
    bool operator==(const PodIt& o) const { return p == o.p; }
    bool operator!=(const PodIt& o) const { return p != o.p; }
    bool operator<(const PodIt& o) const { return p < o.p; }
};
static_assert(sizeof(glm::vec3) == 12 && sizeof(glm::vec2) == 8 && sizeof(glm::u8vec4) == 4, "packed GLM vectors");
static_assert(sizeof(VertexInfluence) == 8 && offsetof(VertexInfluence, bone2) == 2 &&
                  offsetof(VertexInfluence, weight) == 4 && offsetof(VertexInfluence, weight2) == 6,
              "VertexInfluence mirrors W3dVertInfStruct's first 8 bytes");

// `count` items of `size` bytes on disk (checked against the chunk first), each decoded into T from its first
// sizeof(T) bytes.
template <class T, size_t Size = sizeof(T)>
static std::vector<T> readPods(ByteReader& r, uint64_t count, const char* what) {
    static_assert(sizeof(T) <= Size, "element larger than its record");
    r.needCount(count, Size, what);
    const uint8_t* p = r.cur();
    r.skip(size_t(count) * Size);
    return std::vector<T>(PodIt<T, Size>{p}, PodIt<T, Size>{p + size_t(count) * Size});
}

// The vertex indices of W3dTriStruct records (32 bytes: u32 vindex[3], u32 attributes, vec3 normal, f32
// distance) at `p`, as one flat sequence (element i = vindex[i % 3] of triangle i / 3).
struct TriIndexIt {
    using iterator_category = std::random_access_iterator_tag;
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const uint32_t*;
    using reference = uint32_t;
    const uint8_t* p;
    size_t i;
    uint32_t operator*() const {
        uint32_t v;
        std::memcpy(&v, p + (i / 3) * 32 + 4 * (i % 3), 4);
        return v;
    }
    TriIndexIt& operator++() { return ++i, *this; }
    TriIndexIt& operator--() { return --i, *this; }
    TriIndexIt operator++(int) { return {p, i++}; }
    TriIndexIt& operator+=(difference_type n) { return i += size_t(n), *this; }
    TriIndexIt operator+(difference_type n) const { return {p, i + size_t(n)}; }
    difference_type operator-(const TriIndexIt& o) const { return difference_type(i) - difference_type(o.i); }
    bool operator==(const TriIndexIt& o) const { return i == o.i; }
    bool operator!=(const TriIndexIt& o) const { return i != o.i; }
    bool operator<(const TriIndexIt& o) const { return i < o.i; }
};

static std::vector<glm::vec3> readVec3s(ByteReader& r, uint64_t count, const char* what) {
    return readPods<glm::vec3>(r, count, what);
}

static std::vector<glm::vec2> readVec2s(ByteReader& r, uint64_t count, const char* what) {
    return readPods<glm::vec2>(r, count, what);
}

static std::vector<uint32_t> readU32List(ByteReader& r) {
    if (r.remaining() % 4 != 0) r.fail("list of u32 with " + std::to_string(r.remaining()) + " bytes");
    return readPods<uint32_t>(r, r.remaining() / 4, "u32");
}

// "one for the whole mesh" or "one per item" lists (vertex material / shader / texture ids).
static void checkIdList(const ByteReader& r, const std::vector<uint32_t>& ids, uint32_t perItem, const char* what) {
    if (ids.size() != 1 && ids.size() != perItem)
        r.failAt(0, std::string(what) + ": " + std::to_string(ids.size()) + " entries, expected 1 or " +
                        std::to_string(perItem));
}

static void warn(std::vector<std::string>& w, const Cursor& cur, const Chunk& c, const std::string& msg) {
    pushWarning(w, "chunk " + cur.pathOf(c) + " at offset " + std::to_string(c.offset) + ": " + msg);
}

bool isShockwave3D(ByteSpan b) {
    if (b.size >= 3 && std::memcmp(b.data, "IFX", 3) == 0) return true;
    if (b.size >= 4 && (std::memcmp(b.data, "XFIR", 4) == 0 || std::memcmp(b.data, "RIFX", 4) == 0)) return true;
    if (b.size >= 12) {
        const char* k = reinterpret_cast<const char*>(b.data + 8);
        if (std::memcmp(k, "FGDM", 4) == 0 || std::memcmp(k, "MDGF", 4) == 0 || std::memcmp(k, "FGDC", 4) == 0 ||
            std::memcmp(k, "CDGF", 4) == 0)
            return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Hierarchy

static Hierarchy readHierarchy(const Cursor& parent, const Chunk& c, std::vector<std::string>& warnings) {
    Hierarchy h;
    Cursor cur = parent.children(c);
    Chunk k;
    bool haveHeader = false, havePivots = false;
    uint32_t numPivots = 0;
    uint64_t numPivotsAt = c.offset;
    std::string headerPath = parent.pathOf(c);
    while (cur.next(k)) {
        if (k.truncated) continue;
        ByteReader r = cur.data(k);
        if (k.id == id::HierarchyHeader) {
            h.version = r.u32le();
            h.name = r.fixedString(kNameLen);
            numPivotsAt = r.absOffset();
            headerPath = cur.pathOf(k);
            numPivots = r.u32le();
            h.center = vec3(r);
            haveHeader = true;
        } else if (k.id == id::Pivots) {
            if (!haveHeader) r.fail("pivots before the hierarchy header");
            const bool pre30 = h.version < 0x30000u;
            const uint64_t stored = pre30 ? (numPivots > 0 ? numPivots - 1 : 0) : numPivots;
            r.needCount(stored, 60, "pivot");
            if (pre30) { // before W3D 3.0 the root pivot is implicit
                Pivot root;
                root.name = "RootTransform";
                h.pivots.push_back(root);
            }
            for (uint64_t i = 0; i < stored; ++i) {
                const size_t at = r.pos();
                Pivot p;
                p.name = r.fixedString(kNameLen);
                p.parent = r.u32le();
                p.translation = vec3(r);
                p.euler = vec3(r);
                float x = r.f32le(), y = r.f32le(), z = r.f32le(), w = r.f32le();
                p.rotation = glm::quat(w, x, y, z);
                if (pre30 && p.parent != 0xFFFFFFFFu)
                    p.parent += 1;
                else if (pre30)
                    p.parent = 0;
                const size_t index = h.pivots.size();
                if (!std::isfinite(glm::dot(p.translation, p.translation)) ||
                    !std::isfinite(glm::dot(p.rotation, p.rotation)))
                    r.failAt(at, "pivot " + std::to_string(index) + " '" + p.name + "' has non-finite values");
                if (p.parent == 0xFFFFFFFFu) {
                    if (index != 0)
                        pushWarning(warnings, "hierarchy " + h.name + ": pivot " + std::to_string(index) + " '" +
                                                  p.name + "' has no parent; treated as a second root");
                } else if (p.parent >= index) {
                    r.failAt(at, "pivot " + std::to_string(index) + " '" + p.name + "' has parent " +
                                     std::to_string(p.parent) + (p.parent == index ? " (itself)" : "") +
                                     "; parents must come before their children");
                }
                h.pivots.push_back(p);
            }
            havePivots = true;
        } else if (k.id == id::PivotFixups) {
            h.fixupCount = k.payload.size / 48;
        }
    }
    if (!haveHeader) {
        if (c.truncated)
            throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, "hierarchy truncated before its header");
        throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, "hierarchy without header 0x101");
    }
    if (!havePivots && numPivots > 0)
        throw ParseError(parent.fileName(), headerPath, numPivotsAt,
                         "hierarchy " + h.name + " declares " + std::to_string(numPivots) + " pivots but has no 0x102" +
                             (c.truncated ? " (file truncated)" : ""));
    if (!h.pivots.empty() && h.pivots[0].parent != 0xFFFFFFFFu)
        throw ParseError(parent.fileName(), parent.pathOf(c), c.offset,
                         "hierarchy " + h.name + ": pivot 0 must be the root (parent 0xFFFFFFFF)");
    return h;
}

Skeleton toSkeleton(const Hierarchy& h) {
    Skeleton s;
    s.name = h.name;
    s.bones.reserve(h.pivots.size());
    for (size_t i = 0; i < h.pivots.size(); ++i) {
        const Pivot& p = h.pivots[i];
        Bone b;
        b.name = p.name;
        b.parent = (p.parent == 0xFFFFFFFFu) ? -1 : int(p.parent);
        if (i != 0) { // EA htree: pivot 0 carries the object transform, its base pose is not used
            // As htree.cpp read_pivots: Build_Matrix3D from the stored quaternion, not renormalised.
            const float n = glm::dot(p.rotation, p.rotation);
            glm::quat q = std::isfinite(n) && n > 1e-12f ? p.rotation : glm::quat(1, 0, 0, 0);
            b.bindLocal = glm::translate(glm::mat4(1.0f), p.translation) * glm::mat4_cast(q);
        }
        s.bones.push_back(b);
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// Meshes

static void readVertexMaterials(const Cursor& parent, const Chunk& c, RawMesh& m) {
    Cursor cur = parent.children(c);
    Chunk k;
    while (cur.next(k)) {
        if (k.truncated || k.id != id::VertexMaterial) continue;
        VertexMaterial vm;
        Cursor inner = cur.children(k);
        Chunk v;
        while (inner.next(v)) {
            if (v.truncated) continue;
            ByteReader r = inner.data(v);
            if (v.id == id::VertexMaterialName) {
                vm.name = r.restAsCString();
            } else if (v.id == id::VertexMaterialInfo) {
                vm.attributes = r.u32le();
                vm.ambient = rgba(r);
                vm.diffuse = rgba(r);
                vm.specular = rgba(r);
                vm.emissive = rgba(r);
                vm.shininess = r.f32le();
                vm.opacity = r.f32le();
                vm.translucency = r.f32le();
            } else if (v.id == id::VertexMapperArgs0) {
                vm.mapperArgs[0] = r.restAsCString();
            } else if (v.id == id::VertexMapperArgs1) {
                vm.mapperArgs[1] = r.restAsCString();
            }
        }
        m.vertexMaterials.push_back(vm);
    }
}

static void readTextures(const Cursor& parent, const Chunk& c, RawMesh& m) {
    Cursor cur = parent.children(c);
    Chunk k;
    while (cur.next(k)) {
        if (k.truncated || k.id != id::Texture) continue;
        TextureRef t;
        Cursor inner = cur.children(k);
        Chunk v;
        while (inner.next(v)) {
            if (v.truncated) continue;
            ByteReader r = inner.data(v);
            if (v.id == id::TextureName) {
                t.name = r.restAsCString();
            } else if (v.id == id::TextureInfo) {
                t.hasInfo = true;
                t.attributes = r.u16le();
                t.animType = r.u16le();
                t.frameCount = r.u32le();
                t.frameRate = r.f32le();
            }
        }
        m.textures.push_back(t);
    }
}

static void readShaderMaterials(const Cursor& parent, const Chunk& c, RawMesh& m) {
    Cursor cur = parent.children(c);
    Chunk k;
    while (cur.next(k)) {
        if (k.truncated || k.id != id::ShaderMaterial) continue;
        ShaderMaterial sm;
        Cursor inner = cur.children(k);
        Chunk v;
        while (inner.next(v)) {
            if (v.truncated) continue;
            ByteReader r = inner.data(v);
            if (v.id == id::ShaderMaterialHeader) {
                sm.number = r.u8();
                sm.typeName = r.fixedString(2 * kNameLen);
            } else if (v.id == id::ShaderMaterialProperty) {
                ShaderMaterialProperty p;
                p.type = r.u32le();
                uint32_t nameLen = r.u32le();
                r.need(nameLen);
                p.name = r.fixedString(nameLen);
                switch (p.type) {
                case 1: {
                    uint32_t len = r.u32le();
                    r.need(len);
                    p.text = r.fixedString(len);
                    break;
                }
                case 2:
                    p.value.x = r.f32le();
                    break;
                case 3:
                    p.value.x = r.f32le();
                    p.value.y = r.f32le();
                    break;
                case 4:
                    p.value = glm::vec4(vec3(r), 0.0f);
                    break;
                case 5: {
                    glm::vec3 v3 = vec3(r);
                    p.value = glm::vec4(v3, r.f32le());
                    break;
                }
                case 6:
                    p.intValue = r.i32le();
                    break;
                case 7:
                    p.intValue = r.u8();
                    break;
                default:
                    r.fail("shader material property '" + p.name + "' has unknown type " + std::to_string(p.type));
                }
                sm.properties.push_back(p);
            }
        }
        m.shaderMaterials.push_back(sm);
    }
}

static void readMaterialPass(const Cursor& parent, const Chunk& c, RawMesh& m) {
    MaterialPass pass;
    Cursor cur = parent.children(c);
    Chunk k;
    while (cur.next(k)) {
        if (k.truncated) continue;
        ByteReader r = cur.data(k);
        switch (k.id) {
        case id::VertexMaterialIds:
            pass.vertexMaterialIds = readU32List(r);
            checkIdList(r, pass.vertexMaterialIds, m.numVertices, "vertex material ids");
            break;
        case id::ShaderIds:
            pass.shaderIds = readU32List(r);
            checkIdList(r, pass.shaderIds, m.numTris, "shader ids");
            break;
        case id::ShaderMaterialId:
            pass.shaderMaterialIds = readU32List(r);
            checkIdList(r, pass.shaderMaterialIds, m.numTris, "shader material ids");
            break;
        case id::Dcg:
            pass.dcg = readPods<glm::u8vec4>(r, m.numVertices, "vertex colour");
            break;
        case id::Dig:
            pass.dig = readPods<glm::u8vec4>(r, m.numVertices, "vertex illumination");
            break;
        case id::StageTexcoords:
            pass.uv = readVec2s(r, m.numVertices, "texture coordinate");
            break;
        case id::TextureStage: {
            TextureStage st;
            Cursor sc = cur.children(k);
            Chunk s;
            while (sc.next(s)) {
                if (s.truncated) continue;
                ByteReader sr = sc.data(s);
                if (s.id == id::TextureIds) {
                    st.textureIds = readU32List(sr);
                    checkIdList(sr, st.textureIds, m.numTris, "texture ids");
                } else if (s.id == id::StageTexcoords) {
                    st.uv = readVec2s(sr, m.numVertices, "texture coordinate");
                }
            }
            pass.stages.push_back(std::move(st));
            break;
        }
        default:
            break; // DIG/SCG (lighting gradients) and per-face texcoord ids are not used by the viewer
        }
    }
    m.passes.push_back(std::move(pass));
}

// Material chunks, at mesh level or inside a prelit wrapper.
static bool readMaterialChunk(const Cursor& cur, const Chunk& k, RawMesh& m) {
    switch (k.id) {
    case id::Shaders: {
        ByteReader r = cur.data(k);
        if (r.remaining() % 16 != 0) r.fail("shader array of " + std::to_string(r.remaining()) + " bytes");
        m.shaders.resize(r.remaining() / 16);
        if (!m.shaders.empty()) std::memcpy(m.shaders.data(), r.cur(), m.shaders.size() * 16);
        return true;
    }
    case id::VertexMaterials:
        readVertexMaterials(cur, k, m);
        return true;
    case id::Textures:
        readTextures(cur, k, m);
        return true;
    case id::MaterialPass:
        readMaterialPass(cur, k, m);
        return true;
    case id::ShaderMaterials:
        readShaderMaterials(cur, k, m);
        return true;
    case id::MaterialInfo:
        return true;
    default:
        return false;
    }
}

// Material ids naming nothing (some third-party exporters write a pass without vertex materials) are
// reported and then treated as "none" (default material); geometry indices are errors instead.
static void validateMaterialIds(RawMesh& m, std::vector<std::string>& warnings) {
    auto check = [&](std::vector<uint32_t>& ids, size_t n, const char* what) {
        for (uint32_t& v : ids)
            if (v != 0xFFFFFFFFu && v >= n) {
                pushWarning(warnings, "mesh " + m.fullName() + " at offset " + std::to_string(m.offset) + ": " + what +
                                          " " + std::to_string(v) + " names nothing (" + std::to_string(n) +
                                          " defined); default material used");
                for (uint32_t& x : ids)
                    if (x >= n) x = 0xFFFFFFFFu;
                return;
            }
    };
    for (MaterialPass& p : m.passes) {
        check(p.vertexMaterialIds, m.vertexMaterials.size(), "vertex material id");
        check(p.shaderIds, m.shaders.size(), "shader id");
        check(p.shaderMaterialIds, m.shaderMaterials.size(), "shader material id");
        for (TextureStage& s : p.stages)
            check(s.textureIds, m.textures.size(), "texture id");
    }
}

static bool readMesh(const Cursor& parent, const Chunk& c, RawMesh& m, std::vector<std::string>& warnings) {
    m.offset = c.offset;
    m.chunkPath = parent.pathOf(c);
    Cursor cur = parent.children(c);
    Chunk k;
    bool haveHeader = false;
    std::vector<RawMesh> prelit; // 4 wrappers (unlit, vertex, multi-pass, multi-texture), made when one is present
    while (cur.next(k)) {
        if (k.truncated && !isContainer(k.id)) continue;
        ByteReader r = cur.data(k);
        if (k.id == id::MeshHeader3) {
            // One header: every per-vertex array and index is read and checked against its counts.
            if (haveHeader) r.fail("second mesh header 0x1F");
            m.version = r.u32le();
            m.attributes = r.u32le();
            m.name = r.fixedString(kNameLen);
            m.container = r.fixedString(kNameLen);
            m.numTris = r.u32le();
            m.numVertices = r.u32le();
            r.skip(4 * 5 + 8); // materials, damage stages, sort level, prelit version, future, channels
            m.boundsMin = vec3(r);
            m.boundsMax = vec3(r);
            haveHeader = true;
            continue;
        }
        if (!haveHeader) r.fail("mesh data before the mesh header 0x1F");
        switch (k.id) {
        case id::Vertices:
            m.positions = readVec3s(r, m.numVertices, "vertex");
            break;
        case id::VertexNormals:
            m.normals = readVec3s(r, m.numVertices, "normal");
            break;
        case id::Vertices2:
            m.positions2 = readVec3s(r, m.numVertices, "second-bone vertex");
            break;
        case id::Normals2:
            m.normals2 = readVec3s(r, m.numVertices, "second-bone normal");
            break;
        case id::Tangents:
            m.tangents = readVec3s(r, m.numVertices, "tangent");
            break;
        case id::Bitangents:
            m.bitangents = readVec3s(r, m.numVertices, "bitangent");
            break;
        case id::MeshUserText:
            m.userText = r.restAsCString();
            break;
        case id::Triangles: {
            // W3dTriStruct (32 bytes): u32 vindex[3], u32 attributes, vec3 normal, f32 distance.
            r.needCount(m.numTris, 32, "triangle");
            const uint8_t* p = r.cur();
            m.indices.assign(TriIndexIt{p, 0}, TriIndexIt{p, size_t(m.numTris) * 3});
            for (size_t i = 0; i < m.indices.size(); ++i)
                if (m.indices[i] >= m.numVertices)
                    r.failAt(r.pos() + (i / 3) * 32 + 4 * (i % 3), "triangle " + std::to_string(i / 3) +
                                                                       " uses vertex " + std::to_string(m.indices[i]) +
                                                                       " of " + std::to_string(m.numVertices));
            r.skip(size_t(m.numTris) * 32);
            break;
        }
        case id::VertexInfluences:
            // W3dVertInfStruct (8 bytes): u16 bone, u16 bone2, u16 weight, u16 weight2 (BFME; pad before).
            m.influences = readPods<VertexInfluence>(r, m.numVertices, "vertex influence");
            break;
        case id::PrelitUnlit:
        case id::PrelitVertex:
        case id::PrelitLightmapMultiPass:
        case id::PrelitLightmapMultiTexture: {
            if (prelit.empty()) prelit.resize(4);
            RawMesh& pm = prelit[k.id - id::PrelitUnlit];
            pm.numVertices = m.numVertices;
            pm.numTris = m.numTris;
            Cursor pc = cur.children(k);
            Chunk p;
            while (pc.next(p)) {
                if (p.truncated && !isContainer(p.id)) continue;
                readMaterialChunk(pc, p, pm);
            }
            break;
        }
        default:
            readMaterialChunk(cur, k, m); // vertex shade indices, AABTree, deform, PS2 shaders: not used
            break;
        }
    }
    if (!haveHeader) {
        pushWarning(warnings, "mesh at offset " + std::to_string(c.offset) + " has no header" +
                                  (c.truncated ? " (file truncated); dropped" : "; dropped"));
        if (!c.truncated) throw ParseError(parent.fileName(), m.chunkPath, c.offset, "mesh without header 0x1F");
        return false;
    }
    if (m.passes.empty() && !prelit.empty()) { // Renegade prelit meshes keep their materials in a wrapper
        for (int pick : {1, 0, 2, 3}) {
            if (prelit[pick].passes.empty()) continue;
            m.vertexMaterials = std::move(prelit[pick].vertexMaterials);
            m.shaders = std::move(prelit[pick].shaders);
            m.textures = std::move(prelit[pick].textures);
            m.passes = std::move(prelit[pick].passes);
            m.prelitVertex = pick == 1;
            break;
        }
    }
    if (m.positions.size() != m.numVertices || m.indices.size() != size_t(m.numTris) * 3) {
        std::string msg = "mesh " + m.fullName() + ": " + std::to_string(m.positions.size()) + "/" +
                          std::to_string(m.numVertices) + " vertices and " + std::to_string(m.indices.size() / 3) +
                          "/" + std::to_string(m.numTris) + " triangles present";
        if (c.truncated) {
            pushWarning(warnings, msg + " (file truncated); mesh dropped");
            return false;
        }
        if (m.numVertices > 0 || m.numTris > 0) throw ParseError(parent.fileName(), m.chunkPath, c.offset, msg);
    }
    validateMaterialIds(m, warnings);
    if (m.positions2.empty() &&
        std::any_of(m.influences.begin(), m.influences.end(), [](const VertexInfluence& v) { return v.weight2 > 0; }))
        pushWarning(warnings,
                    "mesh " + m.fullName() + " at offset " + std::to_string(m.offset) +
                        ": second-bone influences without second-bone vertices (0xC00); the first-bone position "
                        "is used for both");
    if (m.skin() && m.influences.size() != m.numVertices)
        throw ParseError(parent.fileName(), m.chunkPath, c.offset,
                         "skin mesh " + m.fullName() + " has no vertex influences (0xE) for its vertices");
    return true;
}

// Descriptive shader name from the blend settings.
std::string shaderName(const Shader& s) {
    // src: 0 zero, 1 one, 2 src alpha, 3 1-src alpha. dst: 0 zero, 1 one, 2 src colour, 3 1-src colour,
    // 4 src alpha, 5 1-src alpha.
    if (s.destBlend == 0 && (s.srcBlend == 1 || s.srcBlend == 2)) return s.alphaTest ? "w3d:alphatest" : "w3d:opaque";
    if (s.srcBlend == 2 && s.destBlend == 5) return "w3d:alpha";
    if (s.destBlend == 1 && (s.srcBlend == 1 || s.srcBlend == 2)) return "w3d:additive";
    if (s.srcBlend == 0 && s.destBlend == 2) return "w3d:multiply";
    if (s.srcBlend == 1 && s.destBlend == 5) return "w3d:alpha-premultiplied";
    if (s.srcBlend == 1 && s.destBlend == 3) return "w3d:screen";
    return "w3d:blend-src" + std::to_string(s.srcBlend) + "-dst" + std::to_string(s.destBlend);
}

static MaterialParam param(const std::string& name, ParamType t, glm::vec4 v) {
    MaterialParam p;
    p.name = name;
    p.type = t;
    p.value = v;
    return p;
}

static glm::vec4 rgb(glm::u8vec4 c, float a = 1.0f) { return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, a}; }

Material passMaterial(const RawMesh& m, uint32_t shaderId, uint32_t textureId, uint32_t vmatId,
                      uint32_t shaderMaterialId) {
    Material mat;
    if (shaderMaterialId < m.shaderMaterials.size()) {
        const ShaderMaterial& sm = m.shaderMaterials[shaderMaterialId];
        mat.shader = "w3d:fx:" + sm.typeName;
        std::string base;
        for (const ShaderMaterialProperty& p : sm.properties) {
            MaterialParam mp;
            mp.name = p.name;
            switch (p.type) {
            case 1:
                mp.type = ParamType::Texture;
                mp.texture = p.text;
                if (base.empty() || iequals(p.name, "DiffuseTexture")) base = p.text;
                break;
            case 2:
                mp.type = ParamType::Float;
                mp.value = p.value;
                break;
            case 4:
                mp.type = ParamType::Float3;
                mp.value = p.value;
                break;
            case 3:
            case 5:
                mp.type = ParamType::Float4;
                mp.value = p.value;
                break;
            default:
                mp.type = ParamType::Int;
                mp.intValue = p.intValue;
                break;
            }
            mat.params.push_back(mp);
        }
        if (!base.empty() && !mat.find("BaseTexture")) {
            MaterialParam mp;
            mp.name = "BaseTexture";
            mp.type = ParamType::Texture;
            mp.texture = base;
            mat.params.push_back(mp);
        }
        // Neutral aliases of the BFME property names the renderer understands.
        for (const auto& [from, to] : {std::pair<const char*, const char*>{"NormalMap", "NormalTexture"},
                                       {"DiffuseColor", "Diffuse"},
                                       {"SpecularColor", "Specular"},
                                       {"SpecularExponent", "Shininess"}}) {
            const MaterialParam* src = mat.find(from);
            if (src && !mat.find(to)) {
                MaterialParam alias = *src;
                alias.name = to;
                mat.params.push_back(alias);
            }
        }
        return mat;
    }
    mat.shader = shaderId < m.shaders.size() ? shaderName(m.shaders[shaderId]) : "w3d:opaque";
    if (vmatId < m.vertexMaterials.size()) {
        const VertexMaterial& vm = m.vertexMaterials[vmatId];
        mat.params.push_back(param("Diffuse", ParamType::Float4, rgb(vm.diffuse, vm.opacity)));
        mat.params.push_back(param("Ambient", ParamType::Float3, rgb(vm.ambient)));
        mat.params.push_back(param("Specular", ParamType::Float3, rgb(vm.specular)));
        mat.params.push_back(param("Emissive", ParamType::Float3, rgb(vm.emissive)));
        mat.params.push_back(param("Shininess", ParamType::Float, glm::vec4(vm.shininess, 0, 0, 0)));
        mat.params.push_back(param("Opacity", ParamType::Float, glm::vec4(vm.opacity, 0, 0, 0)));
    }
    if (textureId < m.textures.size()) {
        MaterialParam mp;
        mp.name = "BaseTexture";
        mp.type = ParamType::Texture;
        mp.texture = m.textures[textureId].name;
        mat.params.push_back(mp);
    }
    return mat;
}

W3dPassState passState(const RawMesh& m, uint32_t shaderId, uint32_t vmatId, uint32_t texture0, uint32_t texture1) {
    W3dPassState st;
    if (shaderId < m.shaders.size()) {
        const Shader& f = m.shaders[shaderId];
        W3dShaderBits& b = st.shader;
        b.depthCompare = f.depthCompare;
        b.depthMask = f.depthMask;
        b.colorMask = 1; // COLOR_WRITE_ENABLE whatever the file says (Convert_Shader)
        b.srcBlend = f.srcBlend;
        b.destBlend = f.destBlend;
        b.fogFunc = f.fogFunc;
        b.priGradient = f.priGradient;
        b.secGradient = f.secGradient;
        b.texturing = f.texturing;
        b.detailColorFunc = f.detailColorFunc;
        b.detailAlphaFunc = f.detailAlphaFunc;
        b.alphaTest = f.alphaTest;
        // The tools write the detail functions; ww3d2 copies them into the post-detail ones it draws with.
        b.postDetailColorFunc = f.detailColorFunc;
        b.postDetailAlphaFunc = f.detailAlphaFunc;
    }
    if (vmatId < m.vertexMaterials.size()) {
        const VertexMaterial& vm = m.vertexMaterials[vmatId];
        st.hasVertexMaterial = true;
        auto c3 = [](glm::u8vec4 c) { return glm::vec3(c.r, c.g, c.b) / 255.0f; };
        st.ambient = c3(vm.ambient);
        st.diffuse = c3(vm.diffuse);
        st.specular = c3(vm.specular);
        st.emissive = c3(vm.emissive);
        st.shininess = vm.shininess;
        st.opacity = vm.opacity;
        st.translucency = vm.translucency;
        st.vmatAttributes = vm.attributes;
        st.mappers[0] = parseMapper(int((vm.attributes >> 16) & 0xFFu), vm.mapperArgs[0]);
        st.mappers[1] = parseMapper(int((vm.attributes >> 8) & 0xFFu), vm.mapperArgs[1]);
    } else {
        // No vertex material: VertexMaterialClass defaults (white ambient/diffuse, black specular/emissive).
        st.ambient = st.diffuse = glm::vec3(1.0f);
    }
    st.lighting = !m.prelitVertex;
    if (texture0 < m.textures.size()) st.textures[0] = m.textures[texture0].name;
    if (texture1 < m.textures.size()) st.textures[1] = m.textures[texture1].name;
    // Where it came from (the edits' targets).
    st.shaderIndex = shaderId < m.shaders.size() ? int(shaderId) : -1;
    st.vmatIndex = vmatId < m.vertexMaterials.size() ? int(vmatId) : -1;
    st.textureIndex[0] = texture0 < m.textures.size() ? int(texture0) : -1;
    st.textureIndex[1] = texture1 < m.textures.size() ? int(texture1) : -1;
    return st;
}

// dst = src[remap[i]] for every i (remap empty and `identity`: dst = src, moved when `take`, src then left
// empty). Each element is written once (no value-initialising pass).
template <class T>
static void gather(std::vector<T>& src, bool identity, bool take, const std::vector<uint32_t>& remap,
                   std::vector<T>& dst) {
    if (src.empty()) return;
    if (identity) {
        if (take)
            dst = std::move(src);
        else
            dst = src;
        return;
    }
    dst.clear();
    dst.reserve(remap.size());
    for (uint32_t v : remap)
        dst.push_back(src[v]);
}

static uint32_t pick(const std::vector<uint32_t>& ids, size_t i) {
    if (ids.empty()) return 0xFFFFFFFFu;
    return ids.size() == 1 ? ids[0] : ids[i];
}

// take = true: geometry arrays of m may be moved into the result (m's names and attributes stay).
static Mesh buildMesh(RawMesh& m, bool take, const Skeleton* skeleton, int bone, const std::string& file,
                      std::vector<std::string>* warnings);

Mesh toMesh(const RawMesh& raw, const Skeleton* skeleton, int bone, const std::string& file,
            std::vector<std::string>* warnings) {
    // take = false: raw is only read
    return buildMesh(const_cast<RawMesh&>(raw), false, skeleton, bone, file, warnings);
}

Mesh toMesh(RawMesh&& raw, const Skeleton* skeleton, int bone, const std::string& file,
            std::vector<std::string>* warnings) {
    return buildMesh(raw, true, skeleton, bone, file, warnings);
}

static Mesh buildMesh(RawMesh& m, bool take, const Skeleton* skeleton, int bone, const std::string& file,
                      std::vector<std::string>* warnings) {
    Mesh out;
    out.name = m.name;
    out.baseName = m.name;
    out.hidden = (m.attributes & 0x1000u) != 0;
    out.twoSided = (m.attributes & 0x2000u) != 0; // ww3d2: MeshMatDescClass::Disable_Backface_Culling
    out.collisionEnabled = (m.attributes & 0xFF0u) != 0;
    const uint32_t geometry = m.attributes & 0x00FF0000u;
    out.shadowOrCollision = geometry == 0x00030000u || geometry == 0x00040000u || geometry == 0x00050000u;
    out.boundsMin = m.boundsMin;
    out.boundsMax = m.boundsMax;
    out.bone = bone;
    out.fileVertexCount = m.positions.size();
    out.fileTriangleCount = m.indices.size() / 3;
    out.filePassCount = m.passes.size();
    const bool skin = m.skin() && skeleton && !skeleton->bones.empty();
    // A pivot past the hierarchy: the engine indexes its pivot array unchecked (meshgeometry.cpp
    // get_deformed_vertices); with `warnings` such vertices follow pivot 0, the root, as hlod.cpp Add_Lod_Model
    // places a sub-object whose bone the skeleton lacks.
    const size_t nBones = skin ? skeleton->bones.size() : 0;
    auto pivotOf = [nBones](uint16_t b) { return b < nBones ? b : uint16_t(0); };
    if (skin) {
        size_t bad = 0, first = 0;
        uint16_t firstPivot = 0;
        for (size_t v = 0; v < m.influences.size(); ++v) {
            const VertexInfluence& vi = m.influences[v];
            const bool second = vi.weight2 > 0;
            if (vi.bone < nBones && (!second || vi.bone2 < nBones)) continue;
            if (bad++ == 0) {
                first = v;
                firstPivot = second && vi.bone2 >= nBones ? vi.bone2 : vi.bone;
            }
        }
        if (bad) {
            std::string msg = "skin " + m.fullName() + " vertex " + std::to_string(first) + " uses pivot " +
                              std::to_string(firstPivot) + " but hierarchy " + skeleton->name + " has " +
                              std::to_string(nBones);
            if (!warnings) throw ParseError(file, m.chunkPath, m.offset, msg);
            pushWarning(*warnings, file + ": chunk " + m.chunkPath.str() + " at offset " + std::to_string(m.offset) +
                                       ": " + msg + " (" + std::to_string(bad) + " of " +
                                       std::to_string(m.influences.size()) +
                                       " vertices past the hierarchy); they follow pivot 0, the root");
        }
    }

    // Group triangles by their material in every pass (shader/texture ids may be per triangle, vertex material
    // ids per vertex: a triangle takes its first vertex's).
    MaterialPass* pass = m.passes.empty() ? nullptr : &m.passes[0];
    const size_t nPasses = std::min<size_t>(m.passes.size(), kMaxPasses);
    const size_t nTrisAll = m.indices.size() / 3; // fillMore(key, nTrisAll): the per-mesh ids only
    struct Key {
        uint32_t shader, texture, vmat, sm;
        std::array<uint32_t, 4 * (kMaxPasses - 1) + 1> more; // passes 1..3: shader, texture 0, vmat, texture 1;
                                                             // then pass 0's stage-1 texture
        bool operator<(const Key& o) const {
            return std::tie(shader, texture, vmat, sm, more) < std::tie(o.shader, o.texture, o.vmat, o.sm, o.more);
        }
    };
    auto stageTexture = [&](const MaterialPass& p, size_t stage, size_t t) {
        if (p.stages.size() <= stage) return 0xFFFFFFFFu;
        const std::vector<uint32_t>& ids = p.stages[stage].textureIds;
        return t < nTrisAll || ids.size() <= 1 ? pick(ids, t) : ids[0];
    };
    auto vmatOf = [&](const MaterialPass& p, size_t t) {
        return p.vertexMaterialIds.size() > 1 ? p.vertexMaterialIds[m.indices[t * 3]] : pick(p.vertexMaterialIds, 0);
    };
    auto fillMore = [&](Key& key, size_t t) {
        key.more.fill(0xFFFFFFFFu);
        for (size_t p = 1; p < nPasses; ++p) {
            const MaterialPass& mp = m.passes[p];
            key.more[(p - 1) * 4 + 0] =
                t < nTrisAll || mp.shaderIds.size() <= 1 ? pick(mp.shaderIds, t) : mp.shaderIds[0];
            key.more[(p - 1) * 4 + 1] = stageTexture(mp, 0, t);
            key.more[(p - 1) * 4 + 2] = t < nTrisAll ? vmatOf(mp, t) : pick(mp.vertexMaterialIds, 0);
            key.more[(p - 1) * 4 + 3] = stageTexture(mp, 1, t);
        }
        if (pass) key.more.back() = stageTexture(*pass, 1, t);
    };
    std::map<Key, size_t> groupOf;
    std::vector<Key> keys;
    std::vector<std::vector<uint32_t>> groupTris;
    const size_t nTris = m.indices.size() / 3;
    Key lastKey{};
    size_t lastGroup = SIZE_MAX;
    // No per-triangle or per-vertex id list: every triangle has the key of triangle 0 (one group, no scan).
    bool uniform = true;
    for (size_t p = 0; p < std::max<size_t>(nPasses, pass ? 1 : 0); ++p) {
        const MaterialPass& mp = m.passes[p];
        uniform =
            uniform && mp.shaderIds.size() <= 1 && mp.vertexMaterialIds.size() <= 1 && mp.shaderMaterialIds.size() <= 1;
        for (size_t st = 0; st < std::min<size_t>(mp.stages.size(), 2); ++st)
            uniform = uniform && mp.stages[st].textureIds.size() <= 1;
    }
    for (size_t t = 0; t < (uniform ? std::min<size_t>(nTris, 1) : nTris); ++t) {
        Key key{0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, {}};
        if (pass) {
            key.shader = pick(pass->shaderIds, t);
            key.texture = pass->stages.empty() ? 0xFFFFFFFFu : pick(pass->stages[0].textureIds, t);
            key.vmat = vmatOf(*pass, t);
            key.sm = pick(pass->shaderMaterialIds, t);
        }
        fillMore(key, t);
        if (lastGroup == SIZE_MAX || key < lastKey || lastKey < key) {
            auto it = groupOf.find(key);
            if (it == groupOf.end()) {
                it = groupOf.emplace(key, keys.size()).first;
                keys.push_back(key);
                groupTris.emplace_back();
            }
            lastKey = key;
            lastGroup = it->second;
        }
        if (!uniform) groupTris[lastGroup].push_back(uint32_t(t));
    }
    const bool single = keys.size() <= 1;
    if (single) groupTris.clear(); // one group: every triangle in order, no per-triangle list needed
    if (keys.empty()) {            // vertices without triangles still form one (empty) sub-mesh
        keys.push_back(Key{pass ? pick(pass->shaderIds, 0) : 0xFFFFFFFFu,
                           pass && !pass->stages.empty() ? pick(pass->stages[0].textureIds, 0) : 0xFFFFFFFFu,
                           pass ? pick(pass->vertexMaterialIds, 0) : 0xFFFFFFFFu,
                           pass ? pick(pass->shaderMaterialIds, 0) : 0xFFFFFFFFu,
                           {}});
        fillMore(keys.back(), nTrisAll);
        groupTris.emplace_back();
    }

    std::vector<glm::vec2>* uv0 = nullptr;
    std::vector<glm::vec2>* uv1 = nullptr;
    if (pass) {
        if (!pass->stages.empty() && !pass->stages[0].uv.empty())
            uv0 = &pass->stages[0].uv;
        else if (!pass->uv.empty())
            uv0 = &pass->uv;
        if (pass->stages.size() > 1 && !pass->stages[1].uv.empty()) uv1 = &pass->stages[1].uv;
    }
    // W3D pass state: the UV arrays the stages name (each stored array once), per-pass DCG/DIG as colours.
    std::vector<std::vector<glm::vec2>*> uvArrays;
    std::vector<std::array<int, 2>> uvSource(nPasses, std::array<int, 2>{-1, -1});
    std::vector<std::vector<glm::vec4>> dcgs(nPasses), digs(nPasses);
    for (size_t p = 0; p < nPasses; ++p) {
        MaterialPass& mp = m.passes[p];
        for (size_t st = 0; st < 2; ++st) {
            std::vector<glm::vec2>* a = nullptr;
            if (mp.stages.size() > st && !mp.stages[st].uv.empty())
                a = &mp.stages[st].uv;
            else if (st == 0 && !mp.uv.empty())
                a = &mp.uv;
            if (!a) continue;
            auto it = std::find(uvArrays.begin(), uvArrays.end(), a);
            uvSource[p][st] = int(it - uvArrays.begin());
            if (it == uvArrays.end()) uvArrays.push_back(a);
        }
        for (const glm::u8vec4& c : mp.dcg)
            dcgs[p].push_back(glm::vec4(c) / 255.0f);
        for (const glm::u8vec4& c : mp.dig)
            digs[p].push_back(glm::vec4(glm::vec3(c.r, c.g, c.b) / 255.0f, 1.0f));
    }
    std::vector<glm::vec4> colors;
    if (pass && !pass->dcg.empty()) {
        colors.reserve(pass->dcg.size());
        for (const glm::u8vec4& c : pass->dcg)
            colors.push_back(glm::vec4(c) / 255.0f);
    }

    // One group: every vertex in order (identity remap, no per-vertex map built); several: each group's vertices
    // in first-use order, remap[new] = old.
    std::vector<int> slot(skin ? skeleton->bones.size() : 0, -1);
    std::vector<uint32_t> remap, local(single ? 0 : m.positions.size(), 0xFFFFFFFFu);
    for (size_t g = 0; g < keys.size(); ++g) {
        SubMesh sm;
        sm.material = passMaterial(m, keys[g].shader, keys[g].texture, keys[g].vmat, keys[g].sm);
        if (keys[g].sm < m.shaderMaterials.size()) sm.material.sourceIndex = int(keys[g].sm);
        sm.vertexFormat = skin ? (m.positions2.empty() ? "w3d:skin" : "w3d:skin2") : "w3d:rigid";
        remap.clear();
        if (single) {
            if (take)
                sm.indices = std::move(m.indices);
            else
                sm.indices = m.indices;
        } else {
            std::fill(local.begin(), local.end(), 0xFFFFFFFFu);
            sm.indices.reserve(groupTris[g].size() * 3);
            for (uint32_t t : groupTris[g])
                for (int j = 0; j < 3; ++j) {
                    uint32_t v = m.indices[size_t(t) * 3 + j];
                    if (local[v] == 0xFFFFFFFFu) {
                        local[v] = uint32_t(remap.size());
                        remap.push_back(v);
                    }
                    sm.indices.push_back(local[v]);
                }
        }
        const size_t nOut = single ? m.positions.size() : remap.size();
        const bool all = single && take;
        if (keys[g].sm >= m.shaderMaterials.size()) { // W3D passes (not a BFME shader material)
            const Key& k = keys[g];
            for (size_t p = 0; p < nPasses; ++p) {
                W3dPassState st = p == 0 ? passState(m, k.shader, k.vmat, k.texture, k.more.back())
                                         : passState(m, k.more[(p - 1) * 4], k.more[(p - 1) * 4 + 2],
                                                     k.more[(p - 1) * 4 + 1], k.more[(p - 1) * 4 + 3]);
                for (int stage = 0; stage < 2; ++stage) // no array of its own: the first (UVSource -1 -> 0)
                    st.uvSource[stage] =
                        uvSource[p][size_t(stage)] >= 0 ? uvSource[p][size_t(stage)] : (uvArrays.empty() ? -1 : 0);
                st.hasDcg = !dcgs[p].empty();
                st.hasDig = !digs[p].empty();
                sm.material.w3dPasses.push_back(std::move(st));
            }
            sm.w3dUv.resize(uvArrays.size());
            for (size_t i = 0; i < uvArrays.size(); ++i)
                gather(*uvArrays[i], single, false, remap, sm.w3dUv[i]);
            sm.w3dDcg.resize(nPasses);
            sm.w3dDig.resize(nPasses);
            for (size_t p = 0; p < nPasses; ++p) {
                gather(dcgs[p], single, false, remap, sm.w3dDcg[p]);
                gather(digs[p], single, false, remap, sm.w3dDig[p]);
            }
        }
        // Positions/normals of dual-bone skins are still read below (positions2 fallback): moved last.
        gather(m.tangents, single, all, remap, sm.tangents);
        gather(m.bitangents, single, all, remap, sm.binormals);
        gather(colors, single, single, remap, sm.colors);
        if (uv0) gather(*uv0, single, all, remap, sm.uv0); // stored in OpenGL convention (EA flips V on load for D3D)
        if (uv1) gather(*uv1, single, all, remap, sm.uv1);
        if (skin) {
            sm.space = VertexSpace::Bone;
            std::fill(slot.begin(), slot.end(), -1);
            auto slotOf = [&](uint16_t b) {
                if (slot[b] < 0) {
                    slot[b] = int(sm.boneMap.size());
                    sm.boneMap.push_back(b);
                }
                return uint16_t(slot[b]);
            };
            bool dual = false;
            sm.boneIndices.reserve(nOut);
            sm.boneWeights.reserve(nOut);
            for (size_t i = 0; i < nOut; ++i) {
                const size_t src = single ? i : remap[i];
                const VertexInfluence& vi = m.influences[src];
                float w0 = vi.weight / 100.0f, w1 = vi.weight2 / 100.0f;
                if (!m.exactWeights.empty()) { // W3X: the weights as written (0..1), not rounded to percent
                    w0 = m.exactWeights[src].x;
                    w1 = m.exactWeights[src].y;
                    if ((w0 > 0 || w1 > 0) && std::abs(w0 + w1 - 1.0f) > 0.01f && sm.weightNotes.unnormalised++ == 0) {
                        sm.weightNotes.firstUnnormalised = uint32_t(i);
                        sm.weightNotes.firstSum = (w0 + w1) * 100.0f;
                    }
                    if (!(w0 > 0) && !(w1 > 0)) w0 = 1.0f, w1 = 0.0f;
                } else if ((vi.weight || vi.weight2) && std::abs(int(vi.weight) + int(vi.weight2) - 100) > 1 &&
                           sm.weightNotes.unnormalised++ == 0) {
                    sm.weightNotes.firstUnnormalised = uint32_t(i);
                    sm.weightNotes.firstSum = float(int(vi.weight) + int(vi.weight2));
                }
                if (m.exactWeights.empty() && vi.weight == 0 && vi.weight2 == 0) w0 = 1.0f; // single-bone skin
                const float sum = w0 + w1;
                w0 /= sum;
                w1 /= sum;
                const uint16_t s0 = slotOf(pivotOf(vi.bone));
                const uint16_t s1 = w1 > 0.0f ? slotOf(pivotOf(vi.bone2)) : s0;
                dual = dual || w1 > 0.0f;
                sm.boneIndices.push_back(glm::u16vec4(s0, s1, 0, 0));
                sm.boneWeights.push_back(glm::vec4(w0, w1, 0.0f, 0.0f));
            }
            if (dual) {
                if (m.positions2.empty())
                    gather(m.positions, single, false, remap, sm.positions2);
                else
                    gather(m.positions2, single, all, remap, sm.positions2);
                if (m.normals2.empty())
                    gather(m.normals, single, false, remap, sm.normals2);
                else
                    gather(m.normals2, single, all, remap, sm.normals2);
            }
        }
        gather(m.positions, single, all, remap, sm.positions);
        gather(m.normals, single, all, remap, sm.normals);
        out.subMeshes.push_back(std::move(sm));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// HLOD, boxes, nulls, HModel, collections

static std::vector<SubObject> readSubObjectArray(const Cursor& parent, const Chunk& c, float* maxScreenSize,
                                                 std::vector<std::string>& warnings) {
    std::vector<SubObject> objs;
    Cursor cur = parent.children(c);
    Chunk k;
    bool haveHeader = false;
    uint32_t count = 0;
    while (cur.next(k)) {
        if (k.truncated) continue;
        ByteReader r = cur.data(k);
        if (k.id == id::HlodSubObjectArrayHeader) {
            count = r.u32le();
            float s = r.f32le();
            if (maxScreenSize) *maxScreenSize = s;
            haveHeader = true;
        } else if (k.id == id::HlodSubObject) {
            if (!haveHeader) r.fail("sub-object before the array header 0x703");
            if (objs.size() >= count) r.fail("more sub-objects than the " + std::to_string(count) + " declared");
            SubObject o;
            o.boneAt = r.absOffset();
            o.chunkPath = cur.pathOf(k).str();
            o.bone = r.u32le();
            o.name = r.fixedString(2 * kNameLen);
            objs.push_back(o);
        }
    }
    if (objs.size() != count) {
        std::string msg = std::to_string(objs.size()) + " of " + std::to_string(count) + " sub-objects present";
        if (!c.truncated) throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, msg);
        warn(warnings, parent, c, msg + " (file truncated)");
    }
    return objs;
}

static Hlod readHlod(const Cursor& parent, const Chunk& c, std::vector<std::string>& warnings) {
    Hlod h;
    h.truncated = c.truncated;
    Cursor cur = parent.children(c);
    Chunk k;
    bool haveHeader = false;
    uint32_t lodCount = 0;
    while (cur.next(k)) {
        if (k.truncated && !isContainer(k.id)) continue;
        if (k.id == id::HlodHeader) {
            ByteReader r = cur.data(k);
            h.version = r.u32le();
            lodCount = r.u32le();
            h.name = r.fixedString(kNameLen);
            h.hierarchy = r.fixedString(kNameLen);
            haveHeader = true;
            continue;
        }
        if (!haveHeader) throw ParseError(parent.fileName(), cur.pathOf(k), k.offset, "HLOD data before header 0x701");
        if (k.id == id::HlodLodArray) {
            LodArray a;
            a.objects = readSubObjectArray(cur, k, &a.maxScreenSize, warnings);
            h.lods.push_back(std::move(a));
        } else if (k.id == id::HlodAggregateArray) {
            auto v = readSubObjectArray(cur, k, nullptr, warnings);
            h.aggregates.insert(h.aggregates.end(), v.begin(), v.end());
        } else if (k.id == id::HlodProxyArray) {
            auto v = readSubObjectArray(cur, k, nullptr, warnings);
            h.proxies.insert(h.proxies.end(), v.begin(), v.end());
        }
    }
    if (!haveHeader) throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, "HLOD without header 0x701");
    if (h.lods.size() != lodCount) {
        std::string msg = "HLOD " + h.name + ": " + std::to_string(h.lods.size()) + " of " + std::to_string(lodCount) +
                          " LOD arrays present";
        if (!c.truncated) throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, msg);
        warn(warnings, parent, c, msg + " (file truncated)");
    }
    return h;
}

static HModel readHModel(const Cursor& parent, const Chunk& c) {
    HModel h;
    Cursor cur = parent.children(c);
    Chunk k;
    bool haveHeader = false;
    while (cur.next(k)) {
        if (k.truncated) continue;
        ByteReader r = cur.data(k);
        if (k.id == id::HModelHeader) {
            h.version = r.u32le();
            h.name = r.fixedString(kNameLen);
            h.hierarchy = r.fixedString(kNameLen);
            haveHeader = true;
        } else if (k.id == id::HModelNode || k.id == id::HModelCollisionNode || k.id == id::HModelSkinNode) {
            if (!haveHeader) r.fail("HModel node before header 0x301");
            SubObject o;
            o.name = h.name + "." + r.fixedString(kNameLen);
            o.boneAt = r.absOffset();
            o.bone = r.u16le();
            h.nodes.push_back(o);
        }
    }
    if (!haveHeader) throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, "HModel without header 0x301");
    return h;
}

static Collection readCollection(const Cursor& parent, const Chunk& c) {
    Collection col;
    Cursor cur = parent.children(c);
    Chunk k;
    while (cur.next(k)) {
        if (k.truncated) continue;
        ByteReader r = cur.data(k);
        if (k.id == id::CollectionHeader) {
            col.version = r.u32le();
            col.name = r.fixedString(kNameLen);
        } else if (k.id == id::CollectionObjName) {
            col.objects.push_back(r.restAsCString());
        } else if (k.id == id::Placeholder) {
            Collection::Placeholder p;
            r.u32le();
            float f[12];
            for (float& x : f)
                x = r.f32le();
            // MAX 3x4 dump, rows of (x y z) with translation last: column-major GLM.
            for (int row = 0; row < 4; ++row)
                for (int col3 = 0; col3 < 3; ++col3)
                    p.transform[row][col3] = f[row * 3 + col3];
            uint32_t len = r.u32le();
            r.need(len);
            p.name = r.fixedString(len);
            col.placeholders.push_back(p);
        }
    }
    return col;
}

// ---------------------------------------------------------------------------------------------
// File

File readFile(ByteSpan bytes, const std::string& path) {
    File f;
    if (isShockwave3D(bytes))
        throw ParseError(path, {}, 0,
                         "this .w3d is a Shockwave 3D (Macromedia Director / Intel IFX) scene, not a Westwood W3D "
                         "model; Shockwave 3D files are not supported");
    if (bytes.size < 8)
        throw ParseError(path, {}, 0, "file too small for a W3D chunk (" + std::to_string(bytes.size) + " bytes)");
    Cursor top = Cursor::file(bytes, path, &f.warnings);
    Chunk c;
    bool first = true;
    while (top.next(c)) {
        if (first && !isTopLevelId(c.id))
            throw ParseError(path, hex(c.id), 0, "not a Westwood W3D file: unknown top-level chunk id " + hex(c.id));
        first = false;
        switch (c.id) {
        case id::Hierarchy:
            f.hierarchies.push_back(readHierarchy(top, c, f.warnings));
            break;
        case id::Mesh: {
            RawMesh m;
            if (readMesh(top, c, m, f.warnings)) f.meshes.push_back(std::move(m));
            break;
        }
        case id::Hlod:
            f.hlods.push_back(readHlod(top, c, f.warnings));
            break;
        case id::Animation:
        case id::CompressedAnimation: {
            if (c.truncated) {
                warn(f.warnings, top, c, "animation truncated by the end of the file; skipped");
                break;
            }
            Clip clip = c.id == id::Animation ? readAnimation(top, c) : readCompressedAnimation(top, c);
            f.clips.push_back(std::move(clip));
            break;
        }
        case id::Box: {
            if (c.truncated) break;
            ByteReader r = top.data(c);
            Box b;
            b.version = r.u32le();
            b.attributes = r.u32le();
            b.name = r.fixedString(2 * kNameLen);
            b.color.r = r.u8();
            b.color.g = r.u8();
            b.color.b = r.u8();
            r.u8();
            b.center = vec3(r);
            b.extent = vec3(r);
            f.boxes.push_back(b);
            break;
        }
        case id::NullObject: {
            if (c.truncated) break;
            ByteReader r = top.data(c);
            NullObject n;
            n.version = r.u32le();
            n.attributes = r.u32le();
            r.skip(8);
            n.name = r.fixedString(2 * kNameLen);
            f.nulls.push_back(n);
            break;
        }
        case id::Emitter:
            if (c.truncated) {
                warn(f.warnings, top, c, "emitter truncated by the end of the file; skipped");
                break;
            }
            f.emitters.push_back(readEmitter(top, c, f.warnings));
            break;
        case id::Sphere:
            if (c.truncated) {
                warn(f.warnings, top, c, "sphere truncated by the end of the file; skipped");
                break;
            }
            f.spheres.push_back(readSphere(top, c, f.warnings));
            break;
        case id::Ring:
            if (c.truncated) {
                warn(f.warnings, top, c, "ring truncated by the end of the file; skipped");
                break;
            }
            f.rings.push_back(readRing(top, c, f.warnings));
            break;
        case id::Aggregate:
            if (c.truncated) {
                warn(f.warnings, top, c, "aggregate truncated by the end of the file; skipped");
                break;
            }
            f.aggregates.push_back(readAggregate(top, c, f.warnings));
            break;
        case id::HModel:
            f.hmodels.push_back(readHModel(top, c));
            break;
        case id::Collection:
            f.collections.push_back(readCollection(top, c));
            break;
        default:
            warn(f.warnings, top, c,
                 "not supported by this viewer (" + std::to_string(c.declaredSize) + " bytes skipped)");
            break;
        }
    }
    return f;
}

// ---------------------------------------------------------------------------------------------
// Assembly

// Hierarchy `name` from the file itself or from the file `lookup` supplies. False when absent.
static bool locateHierarchy(const File& f, const std::string& name, Hierarchy& out, std::vector<std::string>& warnings,
                            const HierarchyLookup& lookup) {
    for (const Hierarchy& h : f.hierarchies)
        if (name.empty() || iequals(h.name, name)) {
            out = h;
            return true;
        }
    if (name.empty()) return false;
    std::optional<HierarchyFile> found;
    try {
        if (lookup) found = lookup(name);
    } catch (const ParseError& e) {
        pushWarning(warnings, "hierarchy file unreadable: " + std::string(e.what()));
        return false;
    }
    if (!found || !found->hierarchies) {
        pushWarning(warnings,
                    "hierarchy " + name + " not found (looked for " + name + ".w3d next to the file" +
                        (lookup ? std::string(" and where the mounted game keeps skeletons)") : std::string(")")));
        return false;
    }
    for (const Hierarchy& h : *found->hierarchies)
        if (iequals(h.name, name)) {
            out = h;
            return true;
        }
    pushWarning(warnings, found->label + " holds no hierarchy named " + name);
    return false;
}

// iequals(m.fullName(), s) || iequals(m.name, s), without building the full name.
static bool namesMesh(const RawMesh& m, const std::string& s) {
    auto ieq = [](const char* a, const char* b, size_t n) {
        for (size_t i = 0; i < n; ++i)
            if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
                return false;
        return true;
    };
    if (s.size() == m.name.size() && ieq(s.data(), m.name.data(), s.size())) return true;
    const size_t c = m.container.size();
    return c > 0 && s.size() == c + 1 + m.name.size() && s[c] == '.' && ieq(s.data(), m.container.data(), c) &&
           ieq(s.data() + c + 1, m.name.data(), m.name.size());
}

static std::string pastPivots(const SubObject& o, const Skeleton& sk, const std::string& what) {
    return what + " is attached to pivot " + std::to_string(o.bone) + " but hierarchy " + sk.name + " has " +
           std::to_string(sk.bones.size()) + " pivots";
}

// The pivot o is attached to; -1 without a skeleton. A pivot past the skeleton is a ParseError.
static int checkedBone(const SubObject& o, const Skeleton& sk, const std::string& what, const std::string& file) {
    if (sk.bones.empty()) return -1;
    if (o.bone >= sk.bones.size()) throw ParseError(file, "bone", o.boneAt, pastPivots(o, sk, what));
    return int(o.bone);
}

// Where the engine reports a pivot past the skeleton and goes on (hlod.cpp): one line per outcome in `log`
// (kind: file, hierarchy and what the engine does; details: the sub-object, its chunk and its bone field's offset).
static void warnPastPivots(WarningLog& log, const SubObject& o, const Skeleton& sk, const std::string& what,
                           const std::string& file, const std::string& outcome) {
    log.add(file + ": HLOD " + what + " attached to a pivot past the " + std::to_string(sk.bones.size()) +
                " of hierarchy " + sk.name + " " + outcome + ", as the engine does:",
            o.name + " (pivot " + std::to_string(o.bone) + ") in " +
                (o.chunkPath.empty() ? std::string("field bone") : "chunk " + o.chunkPath) + " at offset " +
                std::to_string(o.boneAt));
}

// Pivot of an HLOD LOD sub-object: one past the skeleton is pivot 0, the root, as HLodClass::Add_Lod_Model
// places it ("Please re-export!").
static int lodBone(const SubObject& o, const Skeleton& sk, const std::string& file, WarningLog& log) {
    if (sk.bones.empty()) return -1;
    if (o.bone < sk.bones.size()) return int(o.bone);
    warnPastPivots(log, o, sk, "sub-objects", file, "are placed at pivot 0, the root");
    return 0;
}

static std::string afterDot(const std::string& s) {
    size_t d = s.find('.');
    return d == std::string::npos ? s : s.substr(d + 1);
}

// A box as ww3d2 makes it (boxrobj.cpp): W3D_BOX_ATTRIBUTE_ALIGNED (2) gives an AABoxRenderObjClass, which keeps the
// model's axes and follows only its bone's translation; otherwise an OBBoxRenderObjClass, which turns with the bone.
static Marker boxMarker(const Box& b, int bone) {
    Marker mk;
    mk.name = afterDot(b.name);
    mk.kind = "box";
    mk.bone = bone;
    mk.transform = glm::translate(glm::mat4(1.0f), b.center);
    mk.extent = b.extent;
    mk.axisAligned = (b.attributes & 2u) != 0;
    mk.color = glm::vec3(b.color) / 255.0f;
    return mk;
}

Document loadSet(ByteSpan bytes, const std::string& path, const HierarchyLookup& lookup) {
    return assemble(readFile(bytes, path), path, lookup, Format::W3d);
}

Document assemble(File f, const std::string& path, const HierarchyLookup& lookup, Format format) {
    Document d;
    d.path = path;
    d.format = format;
    for (Clip& c : f.clips)
        d.clips.push_back(std::make_shared<Clip>(std::move(c)));
    const bool hasModel = !f.meshes.empty() || !f.hlods.empty() || !f.hmodels.empty() || !f.boxes.empty() ||
                          !f.nulls.empty() || !f.hierarchies.empty() || !f.collections.empty() || !f.emitters.empty() ||
                          !f.spheres.empty() || !f.rings.empty() || !f.aggregates.empty();
    auto model = std::make_shared<Model>();
    model->format = format;
    model->sourcePath = path;
    std::vector<std::string>& warnings = model->warnings;
    warnings = f.warnings;

    std::string hierName;
    for (const Hlod& h : f.hlods)
        if (!h.hierarchy.empty()) {
            hierName = h.hierarchy;
            break;
        }
    if (hierName.empty())
        for (const HModel& h : f.hmodels)
            if (!h.hierarchy.empty()) {
                hierName = h.hierarchy;
                break;
            }
    if (!hasModel && !d.clips.empty()) hierName = d.clips.front()->hierarchyName;
    Hierarchy hier;
    if (locateHierarchy(f, hierName, hier, warnings, lookup)) model->skeleton = toSkeleton(hier);
    const Skeleton& sk = model->skeleton;
    if (!hasModel && sk.bones.empty()) {
        d.warnings = std::move(warnings);
        return d; // clip only, hierarchy not found
    }
    bool skinsDropped = false;
    std::vector<uint8_t> used(f.meshes.size(), 0), usedBox(f.boxes.size(), 0), usedNull(f.nulls.size(), 0);
    // Each RawMesh's geometry is moved into the first Mesh made from it; a second reference copies that Mesh
    // (toMesh depends on the bone only through Mesh::bone).
    std::vector<size_t> madeAt(f.meshes.size(), SIZE_MAX);
    model->meshes.reserve(f.meshes.size());
    WarningLog pastPivots; // HLOD sub-objects and aggregates attached to a pivot the skeleton lacks
    // Emitters, spheres and rings placed by name at `bone` (HLOD sub-objects and aggregates, aggregate chunks);
    // those nothing places go to the model origin below.
    std::vector<uint8_t> usedEmitter(f.emitters.size(), 0), usedSphere(f.spheres.size(), 0),
        usedRing(f.rings.size(), 0);
    auto fxNamed = [](const std::string& stored, const std::string& wanted) {
        return iequals(stored, wanted) || iequals(afterDot(stored), afterDot(wanted));
    };
    auto placeFx = [&](const std::string& name, int bone) {
        for (size_t i = 0; i < f.emitters.size(); ++i)
            if (fxNamed(f.emitters[i].name, name)) {
                BoneParticles bp;
                bp.name = f.emitters[i].name;
                bp.bone = bone;
                bp.system = std::make_shared<ParticleSystem>(toParticleSystem(f.emitters[i], path));
                model->particles.push_back(std::move(bp));
                usedEmitter[i] = 1;
                return true;
            }
        for (size_t i = 0; i < f.spheres.size(); ++i)
            if (fxNamed(f.spheres[i].name, name)) {
                Marker mk;
                mk.name = afterDot(f.spheres[i].name);
                mk.kind = "sphere";
                mk.bone = bone;
                mk.transform = glm::translate(glm::mat4(1.0f), f.spheres[i].center);
                mk.extent = f.spheres[i].extent * f.spheres[i].scale;
                auto fx = std::make_shared<MarkerFx>();
                fx->sphere = std::make_shared<const Sphere>(f.spheres[i]);
                mk.fx = std::move(fx);
                model->markers.push_back(mk);
                usedSphere[i] = 1;
                return true;
            }
        for (size_t i = 0; i < f.rings.size(); ++i)
            if (fxNamed(f.rings[i].name, name)) {
                Marker mk;
                mk.name = afterDot(f.rings[i].name);
                mk.kind = "ring";
                mk.bone = bone;
                mk.transform = glm::translate(glm::mat4(1.0f), f.rings[i].center);
                mk.extent = glm::vec3(f.rings[i].outerExtent * f.rings[i].outerScale, 0.0f);
                auto fx = std::make_shared<MarkerFx>();
                fx->ring = std::make_shared<const Ring>(f.rings[i]);
                mk.fx = std::move(fx);
                model->markers.push_back(mk);
                usedRing[i] = 1;
                return true;
            }
        return false;
    };
    // hlod: an HLOD LOD sub-object (a pivot past the skeleton is the root, with a warning); else an HModel node.
    auto place = [&](const SubObject& o, int lod, const std::string& owner, bool hlod) {
        auto boneOf = [&](const std::string& what) {
            return hlod ? lodBone(o, sk, path, pastPivots) : checkedBone(o, sk, what, path);
        };
        bool found = false;
        for (size_t i = 0; i < f.meshes.size(); ++i) {
            if (!namesMesh(f.meshes[i], o.name)) continue;
            int bone = boneOf(owner + " sub-object " + o.name);
            Mesh m;
            if (madeAt[i] == SIZE_MAX) {
                m = toMesh(std::move(f.meshes[i]), &sk, bone, path, &warnings);
                madeAt[i] = model->meshes.size();
            } else {
                m = model->meshes[madeAt[i]];
                m.bone = bone;
            }
            skinsDropped = skinsDropped || (f.meshes[i].skin() && sk.bones.empty());
            m.lod = lod;
            model->meshes.push_back(std::move(m));
            used[i] = 1;
            found = true;
            break;
        }
        for (size_t i = 0; !found && i < f.boxes.size(); ++i)
            if (iequals(f.boxes[i].name, o.name)) {
                model->markers.push_back(boxMarker(f.boxes[i], boneOf(owner + " box " + o.name)));
                usedBox[i] = 1;
                found = true;
            }
        for (size_t i = 0; !found && i < f.nulls.size(); ++i)
            if (iequals(f.nulls[i].name, o.name)) {
                Marker mk;
                mk.name = afterDot(f.nulls[i].name);
                mk.kind = "null";
                mk.bone = boneOf(owner + " null " + o.name);
                model->markers.push_back(mk);
                usedNull[i] = 1;
                found = true;
            }
        if (!found && (!f.emitters.empty() || !f.spheres.empty() || !f.rings.empty())) {
            const bool fx =
                std::any_of(f.emitters.begin(), f.emitters.end(),
                            [&](const Emitter& e) { return fxNamed(e.name, o.name); }) ||
                std::any_of(f.spheres.begin(), f.spheres.end(),
                            [&](const Sphere& e) { return fxNamed(e.name, o.name); }) ||
                std::any_of(f.rings.begin(), f.rings.end(), [&](const Ring& e) { return fxNamed(e.name, o.name); });
            if (fx) found = placeFx(o.name, boneOf(owner + " effect " + o.name));
        }
        if (!found) pushWarning(warnings, owner + " references '" + o.name + "', which this file does not contain");
    };
    for (const Hlod& h : f.hlods) {
        const int n = int(h.lods.size());
        for (int a = 0; a < n; ++a)
            for (const SubObject& o : h.lods[a].objects)
                place(o, n > 1 ? n - 1 - a : -1, "HLOD " + h.name, true);
        for (const SubObject& o : h.aggregates) {
            // HLodClass::Add_Sub_Object_To_Bone adds no aggregate whose pivot the skeleton lacks.
            if (!sk.bones.empty() && o.bone >= sk.bones.size()) {
                warnPastPivots(pastPivots, o, sk, "aggregates", path, "are left out");
                continue;
            }
            const int bone = checkedBone(o, sk, "HLOD " + h.name + " aggregate " + o.name, path);
            if (placeFx(o.name, bone)) continue; // an emitter, sphere or ring of this file
            Marker mk;
            mk.name = o.name;
            mk.kind = "aggregate";
            mk.bone = bone;
            model->markers.push_back(mk);
        }
        for (const SubObject& o : h.proxies) {
            Proxy p;
            p.name = o.name;
            p.bone = checkedBone(o, sk, "HLOD " + h.name + " proxy " + o.name, path);
            model->proxies.push_back(p);
        }
    }
    for (const HModel& h : f.hmodels)
        for (const SubObject& o : h.nodes)
            place(o, -1, "HModel " + h.name, false);
    for (const Collection& c : f.collections) {
        for (const std::string& name : c.objects) {
            SubObject o;
            o.bone = 0xFFFFFFFFu;
            o.name = name;
            bool known = false;
            for (size_t i = 0; i < f.meshes.size(); ++i)
                if (namesMesh(f.meshes[i], name)) {
                    if (!used[i]) {
                        model->meshes.push_back(toMesh(std::move(f.meshes[i]), &sk, -1, path, &warnings));
                        used[i] = 1;
                    }
                    known = true;
                    break;
                }
            if (!known)
                pushWarning(warnings,
                            "collection " + c.name + " references '" + name + "', which this file does not contain");
        }
        for (const Collection::Placeholder& p : c.placeholders) {
            Marker mk;
            mk.name = p.name;
            mk.kind = "placeholder";
            mk.transform = p.transform;
            model->markers.push_back(mk);
        }
    }
    // Aggregates (agg_def.cpp): sub-objects attached to bones of the base model by bone name.
    for (const Aggregate& ag : f.aggregates) {
        for (const Aggregate::Sub& sub : ag.subObjects) {
            const int bone = sk.find(sub.bone);
            if (bone < 0 && !sub.bone.empty())
                pushWarning(warnings, "aggregate " + ag.name + ": sub-object " + sub.object + " names bone '" +
                                          sub.bone + "', which hierarchy " + sk.name +
                                          " lacks (placed at the model origin)");
            if (placeFx(sub.object, bone)) continue;
            bool mesh = false;
            for (size_t i = 0; i < f.meshes.size() && !mesh; ++i)
                if (namesMesh(f.meshes[i], sub.object) && !used[i]) {
                    model->meshes.push_back(toMesh(std::move(f.meshes[i]), &sk, bone, path, &warnings));
                    used[i] = 1;
                    mesh = true;
                }
            if (!mesh) {
                Marker mk;
                mk.name = sub.object;
                mk.kind = "aggregate";
                mk.bone = bone;
                model->markers.push_back(mk);
                pushWarning(warnings, "aggregate " + ag.name + " references '" + sub.object +
                                          "', which this file does not contain (shown as a marker)");
            }
        }
    }
    // Meshes and boxes no HLOD places are shown in model space.
    for (size_t i = 0; i < f.meshes.size(); ++i)
        if (!used[i]) {
            model->meshes.push_back(toMesh(std::move(f.meshes[i]), &sk, -1, path, &warnings));
            skinsDropped = skinsDropped || (f.meshes[i].skin() && sk.bones.empty());
        }
    for (size_t i = 0; i < f.boxes.size(); ++i)
        if (!usedBox[i]) model->markers.push_back(boxMarker(f.boxes[i], -1));
    for (size_t i = 0; i < f.nulls.size(); ++i)
        if (!usedNull[i]) {
            Marker mk;
            mk.name = afterDot(f.nulls[i].name);
            mk.kind = "null";
            model->markers.push_back(mk);
        }
    for (size_t i = 0; i < f.emitters.size(); ++i)
        if (!usedEmitter[i]) placeFx(f.emitters[i].name, -1);
    for (size_t i = 0; i < f.spheres.size(); ++i)
        if (!usedSphere[i]) placeFx(f.spheres[i].name, -1);
    for (size_t i = 0; i < f.rings.size(); ++i)
        if (!usedRing[i]) placeFx(f.rings[i].name, -1);
    for (std::string& w : pastPivots.lines())
        pushWarning(warnings, std::move(w));
    if (skinsDropped)
        pushWarning(warnings,
                    "skinned meshes are shown unskinned (vertices in bone space at the origin): their hierarchy "
                    "was not found");
    d.model = std::move(model);
    return d;
}

// ---------------------------------------------------------------------------------------------
// Header scan (seeks over top-level chunks; reads only the header sub-chunks)

// Walks the top-level chunks through readAt(at, dst, n) (false when [at, at + n) is outside the file).
template <class ReadAt> static HeaderScan scanWith(uint64_t size, ReadAt&& readAt) {
    HeaderScan s;
    uint64_t pos = 0;
    auto name = [](const uint8_t* p) {
        size_t n = 0;
        while (n < kNameLen && p[n])
            ++n;
        return std::string(reinterpret_cast<const char*>(p), n);
    };
    for (int guard = 0; pos + 8 <= size && guard < 100000; ++guard) {
        uint8_t h[8];
        if (!readAt(pos, h, 8)) break;
        const uint32_t cid = uint32_t(h[0]) | uint32_t(h[1]) << 8 | uint32_t(h[2]) << 16 | uint32_t(h[3]) << 24;
        const uint32_t len =
            (uint32_t(h[4]) | uint32_t(h[5]) << 8 | uint32_t(h[6]) << 16 | uint32_t(h[7]) << 24) & 0x7FFFFFFFu;
        if (pos == 0 && !isTopLevelId(cid)) break;
        uint8_t sub[8 + 52];
        if (len >= 8 && readAt(pos + 8, sub, std::min<size_t>(sizeof sub, len))) {
            const uint32_t sid =
                uint32_t(sub[0]) | uint32_t(sub[1]) << 8 | uint32_t(sub[2]) << 16 | uint32_t(sub[3]) << 24;
            const bool full = len >= sizeof sub;
            if (cid == id::Hierarchy && sid == id::HierarchyHeader && len >= 8 + 20)
                s.hierarchies.push_back(name(sub + 12));
            if ((cid == id::Animation && sid == id::AnimationHeader) ||
                (cid == id::CompressedAnimation && sid == id::CompressedAnimationHeader))
                if (len >= 8 + 36) s.clipHierarchies.push_back(name(sub + 8 + 20));
            if (cid == id::Hlod && sid == id::HlodHeader && full && s.modelHierarchy.empty())
                s.modelHierarchy = name(sub + 8 + 24);
            if (cid == id::HModel && sid == id::HModelHeader && len >= 8 + 36 && s.modelHierarchy.empty())
                s.modelHierarchy = name(sub + 8 + 20);
        }
        pos += 8 + uint64_t(len);
    }
    return s;
}

HeaderScan scanHeaders(uint64_t size, const ReadAt& readAt) { return scanWith(size, readAt); }

HeaderScan scanHeaders(ByteSpan bytes) {
    return scanWith(bytes.size, [&](uint64_t at, void* dst, size_t n) {
        if (at > bytes.size || n > bytes.size - at) return false;
        std::memcpy(dst, bytes.data + at, n);
        return true;
    });
}

} // namespace rs::w3d
