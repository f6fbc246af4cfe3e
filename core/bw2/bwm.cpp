#include "bw2/bwm.h"
#include "common/warnings.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace rs::bw2 {

static_assert(kBwmFileHeaderSize == 40 + 4 * 4, "file header");
static_assert(kBwmModelHeaderSize == 17 * 4 + 6 * 4 + 5 * 4 + 4 * 4, "model header");
static_assert(kBwmMaterialSize == 7 * 64, "material");
static_assert(kBwmMeshSize == 5 * 4 + 12 * 4 + 15 * 4 + 5 * 4 + 64 + 2 * 4, "mesh description");
static_assert(kBwmMaterialRefSize == 8 * 4, "material reference");
static_assert(kBwmFrameSize == 12 * 4, "frame");
static_assert(kBwmEntitySize == kBwmFrameSize + 256, "entity");
static_assert(kBwmStrideSize == 0x88 && 4 + kBwmMaxStrideElements * 8 <= kBwmStrideSize, "stride");

size_t strideFormatSize(uint32_t format) {
    switch (format) {
    case 0:
        return 4;
    case 1:
        return 8;
    case 2:
        return 12;
    case 3:
        return 4;
    case 4:
        return 1;
    default:
        return 0;
    }
}

const char* skinLayoutName(SkinLayout l) {
    switch (l) {
    case SkinLayout::None:
        return "none";
    case SkinLayout::U8PerIndex:
        return "u8-per-index";
    case SkinLayout::U32PerIndex:
        return "u32-per-index";
    case SkinLayout::U8x4Packed:
        return "u8x4-packed";
    }
    return "none";
}

glm::mat4 BwmFrame::matrix() const {
    glm::mat4 m(1.0f);
    m[0] = glm::vec4(axis[0], 0.0f);
    m[1] = glm::vec4(axis[2], 0.0f);
    m[2] = glm::vec4(axis[1], 0.0f);
    m[3] = glm::vec4(position, 1.0f);
    return m;
}

BwmFrame BwmFrame::fromMatrix(const glm::mat4& m) {
    BwmFrame f;
    f.axis[0] = glm::vec3(m[0]);
    f.axis[1] = glm::vec3(m[2]);
    f.axis[2] = glm::vec3(m[1]);
    f.position = glm::vec3(m[3]);
    return f;
}

const char* BwmMaterial::slotName(int i) {
    static const char* names[7] = {"diffuse", "light", "growth", "specular", "animated", "normal", "type"};
    return (i >= 0 && i < 7) ? names[i] : "";
}

const std::string& BwmMaterial::slot(int i) const { return const_cast<BwmMaterial*>(this)->slot(i); }

std::string& BwmMaterial::slot(int i) {
    switch (i) {
    case 0:
        return diffuse;
    case 1:
        return light;
    case 2:
        return growth;
    case 3:
        return specular;
    case 4:
        return animated;
    case 5:
        return normal;
    default:
        return type;
    }
}

size_t BwmStride::size() const {
    size_t n = 0;
    for (const auto& e : elements)
        n += strideFormatSize(e.format);
    return n;
}

namespace {

float loadF32(const uint8_t* p) {
    uint32_t u = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
uint32_t loadU32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

BwmFrame readFrame(ByteReader& r) {
    BwmFrame f;
    for (auto& a : f.axis)
        a = r.vec3le();
    f.position = r.vec3le();
    return f;
}

std::string idx(const char* what, size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

// One stride element as located in the file.
struct ElementRef {
    const uint8_t* first = nullptr; // element of vertex 0
    size_t step = 0;                // bytes from one vertex to the next
    uint64_t absFirst = 0;          // absolute file offset of vertex 0's element
    uint32_t format = 0;
};

struct Influences {
    std::array<uint32_t, 4> index{0, 0, 0, 0};
    glm::vec4 weight{0.0f};
};

// Reads influence k of vertex v for a candidate layout. packed: each u32 element holds four u8 indices.
uint32_t readIndex(const std::vector<ElementRef>& idxEls, bool packed, size_t v, size_t k, uint64_t* absOut) {
    if (packed) {
        const ElementRef& e = idxEls[k / 4];
        const uint8_t* p = e.first + v * e.step + (k % 4);
        if (absOut) *absOut = e.absFirst + v * e.step + (k % 4);
        return *p;
    }
    const ElementRef& e = idxEls[k];
    const uint8_t* p = e.first + v * e.step;
    if (absOut) *absOut = e.absFirst + v * e.step;
    return e.format == uint32_t(StrideFormat::U8) ? *p : loadU32(p);
}

float readWeight(const ElementRef& e, size_t v) {
    const uint8_t* p = e.first + v * e.step;
    return e.format == uint32_t(StrideFormat::U8) ? float(*p) / 255.0f : loadF32(p);
}

struct CandidateResult {
    bool badIndex = false;
    size_t badVertex = 0;
    uint32_t badValue = 0;
    uint64_t badOffset = 0;
    size_t sumFailures = 0;
    bool valid() const { return !badIndex && sumFailures == 0; }
};

CandidateResult checkCandidate(const std::vector<ElementRef>& idxEls, const std::vector<ElementRef>& wEls, bool packed,
                               size_t count, size_t vertexCount, size_t boneCount) {
    CandidateResult res;
    const size_t nw = std::min<size_t>(wEls.size(), 4);
    for (size_t v = 0; v < vertexCount; ++v) {
        float sum = 0.0f;
        for (size_t k = 0; k < count; ++k) {
            float w = k < nw ? readWeight(wEls[k], v) : (nw == 0 && k == 0 ? 1.0f : 0.0f);
            if (!(w >= 0.0f && w <= 1.0001f)) {
                ++res.sumFailures;
                sum = 1.0f;
                break;
            }
            sum += w;
            if (w == 0.0f) continue;
            uint64_t abs = 0;
            uint32_t b = readIndex(idxEls, packed, v, k, &abs);
            if (b >= boneCount && !res.badIndex) {
                res.badIndex = true;
                res.badVertex = v;
                res.badValue = b;
                res.badOffset = abs;
            }
        }
        // Weights beyond the stored indices still count towards the sum.
        for (size_t k = count; k < nw; ++k)
            sum += readWeight(wEls[k], v);
        if (std::fabs(sum - 1.0f) > 1e-3f) ++res.sumFailures;
    }
    return res;
}

} // namespace

void stripToTriangles(const uint16_t* s, size_t n, std::vector<uint32_t>& out) {
    for (size_t i = 0; i + 2 < n; ++i) {
        uint32_t a = s[i], b = s[i + 1], c = s[i + 2];
        if (a == b || b == c || a == c) continue;
        if (i & 1) std::swap(a, b);
        out.push_back(a);
        out.push_back(b);
        out.push_back(c);
    }
}

BwmFile parseBwm(ByteSpan bytes, const std::string& file) {
    BwmFile f;
    ByteReader r(bytes, file, "header");
    static const char kSig[] = "LiOnHeAdMODEL";
    if (bytes.size < 13 || std::memcmp(bytes.data, kSig, 13) != 0) {
        if (bytes.size >= 8 && std::memcmp(bytes.data, "BWM V1.0", 8) == 0)
            r.failAt(0, "this .bwm is a KotOR walkmesh (\"BWM V1.0\"), not a Black & White 2 model");
        r.failAt(0, "not a Black & White 2 model: no \"LiOnHeAdMODEL\" signature (KotOR walkmeshes also use .bwm)");
    }
    r.skip(40);
    f.size = r.u32le();
    const size_t magicAt = r.pos();
    if (r.u32le() != kBwmMagic) r.failAt(magicAt, "bad magic number (expected 0x2B00B1E5)");
    const size_t versionAt = r.pos();
    f.version = r.u32le();
    if (f.version < 5) r.failAt(versionAt, "unsupported version " + std::to_string(f.version) + " (5 and 6 known)");
    if (f.version > 6) pushWarning(f.warnings, "version " + std::to_string(f.version) + " is newer than 6; read as 6");
    f.metadataSize = r.u32le();
    if (uint64_t(f.size) + 0x2C != bytes.size)
        pushWarning(f.warnings, "size field " + std::to_string(f.size) + " does not match the file size " +
                             std::to_string(bytes.size) + " - 44");

    // Model header
    f.unknown1 = r.f32le();
    f.point = r.vec3le();
    f.boxMin = r.vec3le();
    f.boxMax = r.vec3le();
    f.center = r.vec3le();
    f.height = r.f32le();
    f.radius = r.f32le();
    f.unknown2 = r.u32le();
    f.volume = r.f32le();
    uint32_t nMaterials = r.u32le(), nMeshes = r.u32le(), nBones = r.u32le(), nEntities = r.u32le();
    uint32_t nUnknown = r.u32le(), nCollision = r.u32le();
    for (float& u : f.unknown3)
        u = r.f32le();
    f.vertexCount = r.u32le();
    const size_t strideCountAt = r.pos();
    uint32_t nStrides = r.u32le();
    const size_t typeAt = r.pos();
    f.type = r.u32le();
    f.indexCount = r.u32le();
    if (f.type != 2 && f.type != 3)
        r.failAt(typeAt, "unknown model type " + std::to_string(f.type) + " (2 model, 3 skin)");
    if (nStrides == 0) r.failAt(strideCountAt, "no vertex stride declared");

    r.setContext("materials");
    r.needCount(nMaterials, kBwmMaterialSize, "material");
    f.materials.resize(nMaterials);
    for (auto& m : f.materials)
        for (int s = 0; s < 7; ++s)
            m.slot(s) = r.fixedString(64);

    r.setContext("meshes");
    r.needCount(nMeshes, kBwmMeshSize, "mesh description");
    f.meshes.resize(nMeshes);
    uint64_t totalRefs = 0;
    std::vector<uint32_t> refCounts(nMeshes);
    for (size_t i = 0; i < nMeshes; ++i) {
        BwmMesh& m = f.meshes[i];
        m.faceCount = r.u32le();
        m.indexOffset = r.u32le();
        m.indexCount = r.u32le();
        m.vertexOffset = r.u32le();
        m.vertexCount = r.u32le();
        m.frame = readFrame(r);
        m.center = r.vec3le();
        m.radius = r.f32le();
        m.boxMin = r.vec3le();
        m.boxMax = r.vec3le();
        m.unknownPoint = r.vec3le();
        m.height = r.f32le();
        m.unknownFloat = r.f32le();
        m.unknownInt = r.u32le();
        m.volume = r.f32le();
        uint32_t refs = r.u32le();
        m.unknownU2 = r.u32le();
        m.lod = r.u32le();
        m.name = r.fixedString(64);
        m.unknownTail[0] = r.u32le();
        m.unknownTail[1] = r.u32le();
        totalRefs += refs;
        refCounts[i] = refs;
    }

    r.setContext("materialRefs");
    r.needCount(totalRefs, kBwmMaterialRefSize, "material reference");
    for (size_t i = 0; i < nMeshes; ++i) {
        BwmMesh& m = f.meshes[i];
        m.refs.resize(refCounts[i]);
        for (size_t k = 0; k < m.refs.size(); ++k) {
            BwmMaterialRef& ref = m.refs[k];
            const size_t at = r.pos();
            r.setContext(idx("meshes", i) + "/" + idx("materialRefs", k));
            ref.material = r.u32le();
            ref.indexOffset = r.u32le();
            ref.indexCount = r.u32le();
            ref.vertexOffset = r.u32le();
            ref.vertexCount = r.u32le();
            ref.faceOffset = r.u32le();
            ref.faceCount = r.u32le();
            ref.unknown = r.u32le();
            if (ref.material >= nMaterials)
                r.failAt(at, "material " + std::to_string(ref.material) + " out of range (" +
                                 std::to_string(nMaterials) + " materials)");
            if (uint64_t(ref.indexOffset) + ref.indexCount > f.indexCount)
                r.failAt(at + 4, "indices [" + std::to_string(ref.indexOffset) + ", +" +
                                     std::to_string(ref.indexCount) + ") past the " + std::to_string(f.indexCount) +
                                     " indices of the file");
            if (uint64_t(ref.vertexOffset) + ref.vertexCount > f.vertexCount)
                r.failAt(at + 12, "vertices [" + std::to_string(ref.vertexOffset) + ", +" +
                                      std::to_string(ref.vertexCount) + ") past the " + std::to_string(f.vertexCount) +
                                      " vertices of the file");
        }
    }
    {
        // Sub-meshes copy their vertex ranges: bound the total so a small file cannot demand gigabytes.
        uint64_t refVertices = 0, refIndices = 0;
        for (const auto& m : f.meshes)
            for (const auto& ref : m.refs) {
                refVertices += ref.vertexCount;
                refIndices += ref.indexCount;
            }
        if (refVertices > 8 * uint64_t(f.vertexCount) + 65536 || refIndices > 8 * uint64_t(f.indexCount) + 65536)
            throw ParseError(file, "materialRefs",
                             kBwmFileHeaderSize + kBwmModelHeaderSize + nMaterials * kBwmMaterialSize +
                                 nMeshes * kBwmMeshSize,
                             "material references cover " + std::to_string(refVertices) + " vertices and " +
                                 std::to_string(refIndices) + " indices, more than 8 times the file's");
    }
    for (size_t i = 0; i < nMeshes; ++i) {
        const BwmMesh& m = f.meshes[i];
        if (uint64_t(m.indexOffset) + m.indexCount > f.indexCount ||
            uint64_t(m.vertexOffset) + m.vertexCount > f.vertexCount)
            pushWarning(f.warnings, 
                "mesh " + std::to_string(i) + " (" + m.name +
                ") declares index/vertex ranges past the file's counts; its material references are used");
        if (m.lod == 0) pushWarning(f.warnings, "mesh " + std::to_string(i) + " has LOD level 0 (levels start at 1)");
    }

    r.setContext("bones");
    r.needCount(nBones, kBwmFrameSize, "bone");
    f.bones.resize(nBones);
    for (auto& b : f.bones)
        b = readFrame(r);

    r.setContext("entities");
    r.needCount(nEntities, kBwmEntitySize, "entity");
    f.entities.resize(nEntities);
    for (auto& e : f.entities) {
        e.frame = readFrame(r);
        e.name = r.fixedString(256);
    }

    r.setContext("unknownPoints");
    r.needCount(nUnknown, 12, "unknown point");
    f.unknownPoints.resize(nUnknown);
    for (auto& p : f.unknownPoints)
        p = r.vec3le();

    r.setContext("collisionPoints");
    r.needCount(nCollision, 12, "collision point");
    f.collisionPoints.resize(nCollision);
    for (auto& p : f.collisionPoints)
        p = r.vec3le();

    r.setContext("strides");
    r.needCount(nStrides, kBwmStrideSize, "stride");
    f.strides.resize(nStrides);
    for (size_t s = 0; s < nStrides; ++s) {
        r.setContext(idx("strides", s));
        ByteReader sr = r.sub(kBwmStrideSize, idx("strides", s));
        uint32_t n = sr.u32le();
        if (n > kBwmMaxStrideElements)
            sr.failAt(0, std::to_string(n) + " elements (at most " + std::to_string(kBwmMaxStrideElements) + ")");
        f.strides[s].elements.resize(n);
        for (auto& e : f.strides[s].elements) {
            e.type = sr.u32le();
            const size_t fmtAt = sr.pos();
            e.format = sr.u32le();
            if (strideFormatSize(e.format) == 0) sr.failAt(fmtAt, "unknown element format " + std::to_string(e.format));
        }
    }
    if (uint64_t(kBwmFileHeaderSize) + f.metadataSize != r.pos())
        pushWarning(f.warnings, "metadata size " + std::to_string(f.metadataSize) + " does not match the sections read (" +
                             std::to_string(r.pos() - kBwmFileHeaderSize) + ")");

    // Vertex data: stride 0 interleaved, further strides planar.
    const size_t nv = f.vertexCount;
    std::vector<ElementRef> idxEls, wEls;
    bool havePosition = false;
    std::map<uint32_t, bool> skippedTypes;
    for (size_t s = 0; s < nStrides; ++s) {
        const BwmStride& st = f.strides[s];
        const size_t size = st.size();
        r.setContext(idx("vertexData", s));
        r.needCount(nv, size, "vertex");
        const uint8_t* base = r.cur();
        const uint64_t absBase = r.absOffset();
        size_t off = 0;
        for (size_t ei = 0; ei < st.elements.size(); ++ei) {
            const BwmStrideElement& e = st.elements[ei];
            const uint8_t* p = base + off;
            const std::string what = "stride " + std::to_string(s) + " element " + std::to_string(ei);
            auto requireFormat = [&](StrideFormat want) {
                if (e.format != uint32_t(want))
                    r.fail(what + " (type " + std::to_string(e.type) + ") has format " + std::to_string(e.format) +
                           ", expected " + std::to_string(uint32_t(want)));
            };
            switch (e.type) {
            case uint32_t(StrideType::Position):
            case uint32_t(StrideType::Normal): {
                requireFormat(StrideFormat::Vec3);
                auto& dst = e.type == 0 ? f.positions : f.normals;
                if (!dst.empty()) {
                    pushWarning(f.warnings, what + " repeats type " + std::to_string(e.type) + "; ignored");
                    break;
                }
                dst.resize(nv);
                for (size_t v = 0; v < nv; ++v) {
                    const uint8_t* q = p + v * size;
                    dst[v] = glm::vec3(loadF32(q), loadF32(q + 4), loadF32(q + 8));
                }
                if (e.type == 0) havePosition = true;
                break;
            }
            case uint32_t(StrideType::Uv): {
                requireFormat(StrideFormat::Vec2);
                f.uvs.emplace_back(nv);
                auto& dst = f.uvs.back();
                for (size_t v = 0; v < nv; ++v) {
                    const uint8_t* q = p + v * size;
                    dst[v] = glm::vec2(loadF32(q), loadF32(q + 4));
                }
                break;
            }
            case uint32_t(StrideType::BoneIndex):
                if (e.format != uint32_t(StrideFormat::U8) && e.format != uint32_t(StrideFormat::U32))
                    r.fail(what + ": bone index format " + std::to_string(e.format) + " (expected 3 u32 or 4 u8)");
                idxEls.push_back({p, size, absBase + off, e.format});
                break;
            case uint32_t(StrideType::BoneWeight):
                if (e.format != uint32_t(StrideFormat::F32) && e.format != uint32_t(StrideFormat::U8))
                    r.fail(what + ": bone weight format " + std::to_string(e.format) + " (expected 0 f32 or 4 u8)");
                wEls.push_back({p, size, absBase + off, e.format});
                break;
            default:
                if (!skippedTypes[e.type]) {
                    skippedTypes[e.type] = true;
                    pushWarning(f.warnings, "stride element type " + std::to_string(e.type) + " (format " +
                                         std::to_string(e.format) + ") has no known meaning; skipped");
                }
            }
            off += strideFormatSize(e.format);
        }
        r.skip(nv * size);
    }
    if (!havePosition && nv > 0) {
        r.setContext("strides");
        r.fail("no position element (type 0) in the strides");
    }
    if (!havePosition) f.positions.clear();

    // Skin influences: decide the index layout from the data.
    if (!idxEls.empty()) {
        r.setContext("vertexData/boneIndices");
        bool allU8 = true, allU32 = true;
        for (const auto& e : idxEls) {
            allU8 &= e.format == uint32_t(StrideFormat::U8);
            allU32 &= e.format == uint32_t(StrideFormat::U32);
        }
        if (!allU8 && !allU32) r.failAt(r.pos(), "bone index elements mix u8 and u32 formats");
        const size_t boneCount = f.bones.size();
        struct Cand {
            SkinLayout layout;
            bool packed;
            size_t count;
            CandidateResult res;
        };
        std::vector<Cand> cands;
        cands.push_back(
            {allU8 ? SkinLayout::U8PerIndex : SkinLayout::U32PerIndex, false, std::min<size_t>(idxEls.size(), 4), {}});
        if (allU32 && idxEls.size() == 1) cands.push_back({SkinLayout::U8x4Packed, true, 4, {}});
        for (auto& c : cands)
            c.res = checkCandidate(idxEls, wEls, c.packed, c.count, nv, boneCount);
        const size_t nw = std::min<size_t>(wEls.size(), 4);
        const Cand* pick = nullptr;
        for (const auto& c : cands)
            if (c.res.valid() && c.count == nw) {
                pick = &c;
                break;
            }
        if (!pick)
            for (const auto& c : cands)
                if (c.res.valid()) {
                    pick = &c;
                    break;
                }
        if (!pick)
            for (const auto& c : cands)
                if (!c.res.badIndex) {
                    pick = &c;
                    break;
                }
        if (!pick) {
            const auto& res = cands.front().res;
            throw ParseError(file, "vertexData/boneIndices", res.badOffset,
                             "vertex " + std::to_string(res.badVertex) + ": bone index " +
                                 std::to_string(res.badValue) + " out of range (" + std::to_string(boneCount) +
                                 " bones)");
        }
        if (idxEls.size() > 4 && !pick->packed)
            pushWarning(f.warnings, std::to_string(idxEls.size()) + " bone index elements; the first 4 are used");
        f.skinLayout = pick->layout;
        f.influences = uint32_t(pick->count);
        f.boneIndices.resize(nv);
        f.boneWeights.resize(nv);
        size_t normalised = 0, cleared = 0;
        for (size_t v = 0; v < nv; ++v) {
            std::array<uint32_t, 4> ix{0, 0, 0, 0};
            glm::vec4 w(0.0f);
            for (size_t k = 0; k < pick->count; ++k) {
                w[int(k)] = k < nw ? readWeight(wEls[k], v) : (nw == 0 && k == 0 ? 1.0f : 0.0f);
                if (!(w[int(k)] >= 0.0f)) w[int(k)] = 0.0f; // NaN or negative
                ix[k] = readIndex(idxEls, pick->packed, v, k, nullptr);
                if (ix[k] >= boneCount) {
                    ix[k] = 0; // only reached with weight 0 (checked above)
                    w[int(k)] = 0.0f;
                    ++cleared;
                }
            }
            float sum = w.x + w.y + w.z + w.w;
            if (std::fabs(sum - 1.0f) > 1e-3f) {
                ++normalised;
                w = sum > 0.0f ? w / sum : glm::vec4(1, 0, 0, 0);
            }
            f.boneIndices[v] = ix;
            f.boneWeights[v] = w;
        }
        std::string note = std::string("skin bone indices: ") + skinLayoutName(f.skinLayout) + ", " +
                           std::to_string(f.influences) + " influences a vertex (decided from the data)";
        if (cands.size() > 1) {
            for (const auto& c : cands)
                if (&c != pick)
                    note +=
                        std::string("; ") + skinLayoutName(c.layout) +
                        (c.res.valid() ? " also fits" : " rejected (indices out of range or weights not summing to 1)");
        }
        pushWarning(f.warnings, note);
        if (normalised)
            pushWarning(f.warnings, std::to_string(normalised) + " vertices have weights not summing to 1; normalised");
        if (cleared)
            pushWarning(f.warnings, std::to_string(cleared) +
                                 " zero-weight influences had out-of-range bone indices; set to 0");
    } else if (!wEls.empty()) {
        pushWarning(f.warnings, "bone weights without bone indices; ignored");
    }

    r.setContext("indices");
    r.needCount(f.indexCount, 2, "index");
    f.indices.resize(f.indexCount);
    {
        const uint8_t* p = r.cur();
        for (size_t i = 0; i < f.indexCount; ++i)
            f.indices[i] = uint16_t(p[2 * i] | p[2 * i + 1] << 8);
        r.skip(size_t(f.indexCount) * 2);
    }

    if (f.version >= 6) {
        r.setContext("trailer");
        f.hasTrailer = true;
        uint32_t n = r.u32le();
        r.needCount(n, 12, "trailer vec3");
        f.trailer.resize(n);
        const uint8_t* p = r.cur();
        for (size_t i = 0; i < n; ++i, p += 12)
            f.trailer[i] = glm::vec3(loadF32(p), loadF32(p + 4), loadF32(p + 8));
        r.skip(size_t(n) * 12);
    }
    if (!r.atEnd()) pushWarning(f.warnings, std::to_string(r.remaining()) + " bytes after the last section; ignored");
    return f;
}

static Material convertMaterial(const BwmMaterial& m) {
    Material out;
    out.shader = "bwm:" + (m.type.empty() ? std::string("default") : m.type);
    static const char* params[6] = {"BaseTexture",     "LightmapTexture", "GrowthTexture",
                                    "SpecularTexture", "AnimatedTexture", "NormalTexture"};
    for (int s = 0; s < 6; ++s) {
        if (m.slot(s).empty()) continue;
        MaterialParam p;
        p.name = params[s];
        p.type = ParamType::Texture;
        p.texture = m.slot(s);
        out.params.push_back(std::move(p));
    }
    return out;
}

static std::string vertexFormatName(const BwmFile& f) {
    std::string s = "bwm";
    for (size_t i = 0; i < f.strides.size(); ++i) {
        s += i == 0 ? ":" : "|";
        for (size_t k = 0; k < f.strides[i].elements.size(); ++k) {
            const auto& e = f.strides[i].elements[k];
            if (k) s += ",";
            switch (e.type) {
            case 0:
                s += "pos";
                break;
            case 1:
                s += "nrm";
                break;
            case 2:
                s += "uv";
                break;
            case 6:
                s += e.format == 4 ? "bi8" : "bi32";
                break;
            case 7:
                s += e.format == 4 ? "bw8" : "bw";
                break;
            default:
                s += "t" + std::to_string(e.type);
            }
        }
    }
    return s;
}

Model toModel(const BwmFile& f, const std::string& file) {
    Model m;
    m.format = Format::Bw2Model;
    m.sourcePath = file;
    m.warnings = f.warnings;
    const uint64_t indexDataOffset = [&] {
        // Absolute offset of the index array: everything before it has a known size.
        uint64_t o = kBwmFileHeaderSize + kBwmModelHeaderSize + f.materials.size() * kBwmMaterialSize +
                     f.meshes.size() * kBwmMeshSize;
        for (const auto& mesh : f.meshes)
            o += mesh.refs.size() * kBwmMaterialRefSize;
        o += f.bones.size() * kBwmFrameSize + f.entities.size() * kBwmEntitySize +
             (f.unknownPoints.size() + f.collisionPoints.size()) * 12 + f.strides.size() * kBwmStrideSize;
        for (const auto& s : f.strides)
            o += uint64_t(s.size()) * f.vertexCount;
        return o;
    }();

    for (size_t i = 0; i < f.bones.size(); ++i) {
        Bone b;
        b.name = "bone_" + std::to_string(i);
        b.bindLocal = f.bones[i].matrix();
        m.skeleton.bones.push_back(std::move(b));
    }
    std::vector<Material> materials;
    for (const auto& mat : f.materials)
        materials.push_back(convertMaterial(mat));
    const std::string vfmt = vertexFormatName(f);
    const bool skinned = !f.boneIndices.empty() && !f.bones.empty();

    for (size_t mi = 0; mi < f.meshes.size(); ++mi) {
        const BwmMesh& bm = f.meshes[mi];
        Mesh mesh;
        mesh.name = bm.name;
        mesh.baseName = bm.name;
        mesh.lod = bm.lod >= 1 && bm.lod < 1000 ? int(bm.lod) - 1 : -1;
        mesh.boundsMin = bm.boxMin;
        mesh.boundsMax = bm.boxMax;
        for (size_t ri = 0; ri < bm.refs.size(); ++ri) {
            const BwmMaterialRef& ref = bm.refs[ri];
            SubMesh sm;
            sm.material = materials[ref.material];
            sm.material.sourceIndex = int(ref.material);
            sm.vertexFormat = vfmt;
            const size_t v0 = ref.vertexOffset, nv = ref.vertexCount;
            sm.positions.assign(f.positions.begin() + v0, f.positions.begin() + v0 + nv);
            if (!f.normals.empty()) sm.normals.assign(f.normals.begin() + v0, f.normals.begin() + v0 + nv);
            for (size_t u = 0; u < f.uvs.size() && u < 2; ++u) {
                auto& dst = u == 0 ? sm.uv0 : sm.uv1;
                dst.resize(nv);
                for (size_t v = 0; v < nv; ++v)
                    dst[v] = glm::vec2(f.uvs[u][v0 + v].x, 1.0f - f.uvs[u][v0 + v].y);
            }
            // Indices
            const uint16_t* src = f.indices.data() + ref.indexOffset;
            std::vector<uint32_t> tris;
            if (f.skin()) {
                stripToTriangles(src, ref.indexCount, tris);
            } else {
                if (ref.indexCount % 3 != 0)
                    pushWarning(m.warnings, "mesh " + std::to_string(mi) + " reference " + std::to_string(ri) +
                                         ": index count " + std::to_string(ref.indexCount) +
                                         " is not a multiple of 3; the remainder is dropped");
                tris.assign(src, src + ref.indexCount - ref.indexCount % 3);
            }
            sm.indices.resize(tris.size());
            for (size_t k = 0; k < tris.size(); ++k) {
                uint32_t ix = tris[k];
                if (ix < v0 || ix >= v0 + nv) {
                    // Locate the offending index in the file for the error.
                    size_t at = 0;
                    for (size_t q = 0; q < ref.indexCount; ++q)
                        if (src[q] == ix) {
                            at = q;
                            break;
                        }
                    throw ParseError(file, idx("meshes", mi) + "/" + idx("materialRefs", ri),
                                     indexDataOffset + 2 * (uint64_t(ref.indexOffset) + at),
                                     "vertex index " + std::to_string(ix) + " outside the reference's vertices [" +
                                         std::to_string(v0) + ", " + std::to_string(v0 + nv) + ")");
                }
                sm.indices[k] = ix - uint32_t(v0);
            }
            if (skinned) {
                // Palette: the distinct bones this sub-mesh uses, ascending.
                std::vector<int> used;
                for (size_t v = 0; v < nv; ++v)
                    for (uint32_t k = 0; k < 4; ++k)
                        if (f.boneWeights[v0 + v][int(k)] > 0.0f) used.push_back(int(f.boneIndices[v0 + v][k]));
                std::sort(used.begin(), used.end());
                used.erase(std::unique(used.begin(), used.end()), used.end());
                if (used.empty()) used.push_back(0);
                sm.boneMap = used;
                sm.boneIndices.resize(nv);
                sm.boneWeights.resize(nv);
                for (size_t v = 0; v < nv; ++v) {
                    glm::u16vec4 bi(0);
                    for (uint32_t k = 0; k < 4; ++k) {
                        if (f.boneWeights[v0 + v][int(k)] <= 0.0f) continue;
                        int b = int(f.boneIndices[v0 + v][k]);
                        bi[int(k)] = uint16_t(std::lower_bound(used.begin(), used.end(), b) - used.begin());
                    }
                    sm.boneIndices[v] = bi;
                    sm.boneWeights[v] = f.boneWeights[v0 + v];
                }
                sm.space = VertexSpace::Model;
            }
            mesh.subMeshes.push_back(std::move(sm));
        }
        m.meshes.push_back(std::move(mesh));
    }

    for (const auto& e : f.entities) {
        Marker mk;
        mk.name = e.name;
        mk.kind = "entity";
        mk.transform = e.frame.matrix();
        m.markers.push_back(std::move(mk));
    }
    if (!f.collisionPoints.empty()) {
        PointSet ps;
        ps.name = "collision";
        ps.kind = "collision";
        ps.closedLoop = true; // the building footprint outline
        ps.points = f.collisionPoints;
        m.pointSets.push_back(std::move(ps));
    }
    if (!f.unknownPoints.empty()) {
        PointSet ps;
        ps.name = "unknown points";
        ps.kind = "points";
        ps.points = f.unknownPoints;
        m.pointSets.push_back(std::move(ps));
    }
    return m;
}

} // namespace rs::bw2
