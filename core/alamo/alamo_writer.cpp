#include "alamo/alamo_writer.h"

#include "alamo/chunk_writer.h"
#include "common/bytes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rs::alamo {

namespace {

// Mini-chunks into a payload buffer.
struct Minis {
    ByteWriter w;
    void raw(uint8_t type, const ByteWriter& v) {
        if (v.size() > 255)
            throw std::invalid_argument("mini-chunk " + std::to_string(type) + " larger than 255 bytes");
        w.u8(type);
        w.u8(static_cast<uint8_t>(v.size()));
        w.bytes(v.buf.data(), v.size());
    }
    void u32(uint8_t type, uint32_t v) {
        ByteWriter b;
        b.u32le(v);
        raw(type, b);
    }
    void u16(uint8_t type, uint16_t v) {
        ByteWriter b;
        b.u16le(v);
        raw(type, b);
    }
    void f32(uint8_t type, float v) {
        ByteWriter b;
        b.f32le(v);
        raw(type, b);
    }
    void vec(uint8_t type, const float* p, int n) {
        ByteWriter b;
        for (int i = 0; i < n; ++i)
            b.f32le(p[i]);
        raw(type, b);
    }
    void str(uint8_t type, const std::string& s) {
        ByteWriter b;
        b.cstr(s);
        raw(type, b);
    }
};

void vec3(ByteWriter& w, const glm::vec3& v) {
    w.f32le(v.x);
    w.f32le(v.y);
    w.f32le(v.z);
}

template <class T> T get(const std::vector<T>& v, size_t i, T fallback) { return i < v.size() ? v[i] : fallback; }

void checkBone(int bone, const Model& m, const std::string& what) {
    if (bone < 0 || static_cast<size_t>(bone) >= m.skeleton.bones.size())
        throw std::invalid_argument(what + " refers to bone " + std::to_string(bone) + " outside the skeleton");
}

void writeMaterial(ChunkWriter& cw, const Material& mat) {
    cw.begin(0x10100);
    cw.stringChunk(0x10101, mat.shader);
    for (const MaterialParam& p : mat.params) {
        Minis m;
        m.str(1, p.name);
        uint32_t type = 0x10103;
        switch (p.type) {
        case ParamType::Int:
            type = 0x10102, m.u32(2, static_cast<uint32_t>(p.intValue));
            break;
        case ParamType::Float:
            type = 0x10103, m.f32(2, p.value.x);
            break;
        case ParamType::Float3:
            type = 0x10104, m.vec(2, &p.value.x, 3);
            break;
        case ParamType::Texture:
            type = 0x10105, m.str(2, p.texture);
            break;
        case ParamType::Float4:
            type = 0x10106, m.vec(2, &p.value.x, 4);
            break;
        }
        cw.dataChunk(type, m.w);
    }
}

void writeGeometry(ChunkWriter& cw, const SubMesh& sm, const Model& model, const AloWriteOptions& o) {
    const size_t nv = sm.vertexCount();
    if (sm.indices.size() % 3 != 0) throw std::invalid_argument("index count is not a multiple of 3");
    cw.begin(0x10000);
    ByteWriter h;
    h.u32le(static_cast<uint32_t>(nv));
    h.u32le(static_cast<uint32_t>(sm.triangleCount()));
    h.zeros(120);
    cw.dataChunk(0x10001, h);
    cw.stringChunk(0x10002, sm.vertexFormat);

    cw.begin(o.vertices10005 ? 0x10005 : 0x10007);
    ByteWriter& w = cw.w;
    for (size_t i = 0; i < nv; ++i) {
        vec3(w, sm.positions[i]);
        vec3(w, get(sm.normals, i, glm::vec3(0.0f)));
        const glm::vec2 uv0 = get(sm.uv0, i, glm::vec2(0.0f, 1.0f));
        const glm::vec2 uv1 = get(sm.uv1, i, glm::vec2(0.0f, 1.0f));
        w.f32le(uv0.x);
        w.f32le(1.0f - uv0.y);
        w.f32le(uv1.x);
        w.f32le(1.0f - uv1.y);
        w.zeros(16); // texture coordinate sets 2 and 3
        vec3(w, get(sm.tangents, i, glm::vec3(0.0f)));
        vec3(w, get(sm.binormals, i, glm::vec3(0.0f)));
        const glm::vec4 c = get(sm.colors, i, glm::vec4(1.0f));
        for (int k = 0; k < 4; ++k)
            w.f32le(c[k]);
        if (!o.vertices10005) w.zeros(16); // unused float4
        const glm::u16vec4 b = sm.skinned() ? get(sm.boneIndices, i, glm::u16vec4(0)) : glm::u16vec4(0);
        const glm::vec4 wt = sm.skinned() ? get(sm.boneWeights, i, glm::vec4(1, 0, 0, 0)) : glm::vec4(1, 0, 0, 0);
        for (int k = 0; k < 4; ++k)
            w.u32le(b[k]);
        for (int k = 0; k < 4; ++k)
            w.f32le(wt[k]);
    }
    cw.end(false);

    cw.begin(0x10004);
    for (uint32_t idx : sm.indices) {
        if (idx > 0xFFFF || idx >= nv) throw std::invalid_argument("index " + std::to_string(idx) + " not writable");
        w.u16le(static_cast<uint16_t>(idx));
    }
    cw.end(false);

    if (sm.skinned()) {
        cw.begin(0x10006);
        for (int b : sm.boneMap) {
            checkBone(b, model, "bone map");
            w.u32le(static_cast<uint32_t>(b));
        }
        cw.end(false);
    }
    if (sm.hasCollisionTree) {
        const CollisionTree& t = sm.collision;
        cw.begin(0x1200);
        Minis h2;
        h2.vec(0, &t.boxMin.x, 3);
        h2.vec(1, &t.boxMax.x, 3);
        h2.u32(2, static_cast<uint32_t>(t.nodes.size()));
        h2.u32(3, static_cast<uint32_t>(t.triangles.size()));
        cw.dataChunk(0x1201, h2.w);
        cw.begin(0x1202);
        for (const auto& n : t.nodes) {
            for (uint8_t v : n.min)
                w.u8(v);
            for (uint8_t v : n.max)
                w.u8(v);
            w.u16le(n.primitiveCount);
            w.u16le(n.link);
        }
        cw.end(false);
        cw.begin(0x1203);
        for (uint16_t tri : t.triangles)
            w.u16le(tri);
        cw.end(false);
        cw.end(true);
    }
    cw.end(true);
}

void writeMesh(ChunkWriter& cw, const Mesh& mesh, const Model& model, const AloWriteOptions& o) {
    cw.begin(0x400);
    cw.stringChunk(0x401, mesh.name);
    ByteWriter info;
    info.u32le(static_cast<uint32_t>(mesh.subMeshes.size()));
    vec3(info, mesh.boundsMin);
    vec3(info, mesh.boundsMax);
    info.u32le(0);
    info.u32le(mesh.hidden ? 1 : 0);
    info.u32le(mesh.collisionEnabled ? 1 : 0);
    info.zeros(128 - info.size());
    cw.dataChunk(0x402, info);
    for (const SubMesh& sm : mesh.subMeshes) {
        writeMaterial(cw, sm.material); // leaves 0x10100 open
        if (o.geometryInMaterial) writeGeometry(cw, sm, model, o);
        cw.end(true);
        if (!o.geometryInMaterial) writeGeometry(cw, sm, model, o);
    }
    cw.end(true);
}

void writeLight(ChunkWriter& cw, const Light& l) {
    cw.begin(0x1300);
    cw.stringChunk(0x1301, l.name);
    ByteWriter info;
    info.u32le(static_cast<uint32_t>(l.type));
    vec3(info, l.color);
    info.f32le(l.intensity);
    info.f32le(l.farAttenuationEnd);
    info.f32le(l.farAttenuationStart);
    info.f32le(l.hotspotSize);
    info.f32le(l.falloffSize);
    cw.dataChunk(0x1302, info);
    cw.end(true);
}

} // namespace

std::vector<uint8_t> writeModel(const Model& model, const AloWriteOptions& o) {
    ChunkWriter cw;
    const auto& bones = model.skeleton.bones;
    cw.begin(0x200);
    ByteWriter h;
    h.u32le(static_cast<uint32_t>(bones.size()));
    h.zeros(124);
    cw.dataChunk(0x201, h);
    for (size_t i = 0; i < bones.size(); ++i) {
        const Bone& b = bones[i];
        if (b.parent < -1 || (b.parent >= 0 && static_cast<size_t>(b.parent) >= i))
            throw std::invalid_argument("bone " + b.name + " parent must precede it");
        cw.begin(0x202);
        cw.stringChunk(0x203, b.name);
        ByteWriter d;
        d.i32le(b.parent);
        d.u32le(b.visible ? 1 : 0);
        if (!o.bones205) d.u32le(static_cast<uint32_t>(b.billboard));
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                d.f32le(b.bindLocal[c][r]);
        cw.dataChunk(o.bones205 ? 0x205 : 0x206, d);
        cw.end(true);
    }
    cw.end(true);

    // Object order decides 0x602 object indices.
    std::vector<std::pair<uint32_t, int>> conns;
    uint32_t object = 0;
    auto meshes = [&] {
        for (const Mesh& m : model.meshes) {
            writeMesh(cw, m, model, o);
            if (m.bone >= 0) checkBone(m.bone, model, "mesh " + m.name), conns.push_back({object, m.bone});
            ++object;
        }
    };
    auto lights = [&] {
        for (const Light& l : model.lights) {
            writeLight(cw, l);
            if (l.bone >= 0) checkBone(l.bone, model, "light " + l.name), conns.push_back({object, l.bone});
            ++object;
        }
    };
    if (o.lightsFirst)
        lights(), meshes();
    else
        meshes(), lights();

    cw.begin(0x600);
    Minis hdr;
    hdr.u32(1, static_cast<uint32_t>(conns.size()));
    hdr.u32(4, static_cast<uint32_t>(model.proxies.size()));
    if (o.dazzleCount) hdr.u32(9, static_cast<uint32_t>(model.dazzles.size()));
    cw.dataChunk(0x601, hdr.w);
    for (const auto& c : conns) {
        Minis m;
        m.u32(2, c.first);
        m.u32(3, static_cast<uint32_t>(c.second));
        cw.dataChunk(0x602, m.w);
    }
    for (const Proxy& p : model.proxies) {
        checkBone(p.bone, model, "proxy " + p.name);
        Minis m;
        m.str(5, p.name);
        m.u32(6, static_cast<uint32_t>(p.bone));
        if (p.hidden) m.u32(7, 1);
        if (p.altDecreaseStayHidden) m.u32(8, 1);
        cw.dataChunk(0x603, m.w);
    }
    for (const Dazzle& d : model.dazzles) {
        checkBone(d.bone, model, "dazzle " + d.name);
        Minis m;
        m.vec(0, &d.color.x, 3);
        m.vec(1, &d.position.x, 3);
        m.f32(2, d.radius);
        m.u32(3, static_cast<uint32_t>(d.texX));
        m.u32(4, static_cast<uint32_t>(d.texY));
        m.u32(6, static_cast<uint32_t>(d.texSize)); // the game writes 6 before 5
        m.str(5, d.texture);
        m.f32(7, d.frequency);
        m.f32(8, d.phase);
        m.u32(9, d.nightOnly ? 1 : 0);
        m.u32(10, static_cast<uint32_t>(d.bone));
        m.str(11, d.name);
        m.u32(12, d.hidden ? 1 : 0);
        if (d.hasBias) m.f32(13, d.bias);
        if (o.dazzleContainer) {
            cw.begin(0x604);
            cw.dataChunk(0, m.w);
            cw.end(true);
        } else {
            cw.dataChunk(0x604, m.w);
        }
    }
    cw.end(true);
    return std::move(cw.w.buf);
}

// ---------------------------------------------------------------- clips

namespace {

struct Packed3 {
    bool animated = false;
    glm::vec3 offset{0.0f}, scale{0.0f};
    std::vector<uint16_t> data; // 3 per frame
};

Packed3 pack3(const std::vector<glm::vec3>& v, const glm::vec3& fallback, uint32_t frames) {
    Packed3 p;
    if (v.size() > 1 && v.size() != frames)
        throw std::invalid_argument("track channel holds " + std::to_string(v.size()) + " samples for " +
                                    std::to_string(frames) + " frames");
    if (frames == 0 || v.size() != frames) {
        p.offset = v.size() == 1 || (!v.empty() && frames == 0) ? v[0] : fallback;
        return p;
    }
    p.animated = true;
    glm::vec3 lo = v[0], hi = v[0];
    for (const auto& x : v)
        lo = glm::min(lo, x), hi = glm::max(hi, x);
    p.offset = lo;
    p.scale = (hi - lo) / 65535.0f;
    p.data.reserve(size_t(frames) * 3);
    for (const auto& x : v)
        for (int k = 0; k < 3; ++k) {
            float q = p.scale[k] > 0.0f ? std::round((x[k] - lo[k]) / p.scale[k]) : 0.0f;
            p.data.push_back(static_cast<uint16_t>(std::clamp(q, 0.0f, 65535.0f)));
        }
    return p;
}

void packQuat(ByteWriter& w, glm::quat q) {
    q = glm::normalize(q);
    const float c[4] = {q.x, q.y, q.z, q.w};
    for (float v : c)
        w.i16le(static_cast<int16_t>(std::clamp(std::round(v * 32767.0f), -32767.0f, 32767.0f)));
}

void bits(ChunkWriter& cw, uint32_t type, const std::vector<uint8_t>& v, uint32_t frames) {
    if (v.empty()) return;
    ByteWriter b;
    b.zeros((size_t(frames) + 7) / 8);
    for (uint32_t f = 0; f < frames; ++f)
        if ((v.size() == 1 ? v[0] : (f < v.size() ? v[f] : 0)) != 0) b.buf[f / 8] |= uint8_t(1u << (f % 8));
    cw.dataChunk(type, b);
}

} // namespace

std::vector<uint8_t> writeClip(const Clip& clip, const AlaWriteOptions& o) {
    if (o.version != 1 && o.version != 2) throw std::invalid_argument("ALA version must be 1 or 2");
    const uint32_t frames = clip.frameCount;
    const size_t n = clip.tracks.size();
    std::vector<Packed3> T(n), S(n);
    std::vector<bool> R(n);
    uint32_t nT = 0, nR = 0, nS = 0;
    for (size_t i = 0; i < n; ++i) {
        const BoneTrack& t = clip.tracks[i];
        if (t.bone < 0) throw std::invalid_argument("track without a bone index");
        if (t.rotation.size() > 1 && t.rotation.size() != frames)
            throw std::invalid_argument("rotation channel sample count differs from the frame count");
        T[i] = pack3(t.translation, t.defaultTranslation, frames);
        S[i] = pack3(t.scale, t.defaultScale, frames);
        R[i] = frames > 0 && t.rotation.size() == frames;
        nT += T[i].animated, nS += S[i].animated, nR += R[i];
    }
    const uint32_t frameT = 3 * nT, frameR = 4 * nR, frameS = 3 * nS;
    if (o.version == 2 && (frameT > 0xFFFF || frameR > 0xFFFF || frameS > 0xFFFF))
        throw std::invalid_argument("too many animated bones for 16-bit indices");

    ChunkWriter cw;
    cw.begin(0x1000);
    Minis h;
    h.u32(1, frames);
    h.f32(2, clip.fps);
    h.u32(3, static_cast<uint32_t>(n));
    if (o.version == 2) {
        h.u32(11, frameR);
        h.u32(12, frameT);
        h.u32(13, frameS);
    }
    cw.dataChunk(0x1001, h.w);
    uint32_t iT = 0, iR = 0, iS = 0;
    for (size_t i = 0; i < n; ++i) {
        const BoneTrack& t = clip.tracks[i];
        const glm::quat defRot = t.rotation.size() == 1 ? t.rotation[0] : t.defaultRotation;
        cw.begin(0x1002);
        Minis m;
        m.str(4, t.boneName);
        m.u32(5, static_cast<uint32_t>(t.bone));
        m.u32(10, 0);
        m.vec(6, &T[i].offset.x, 3);
        m.vec(7, &T[i].scale.x, 3);
        m.vec(8, &S[i].offset.x, 3);
        m.vec(9, &S[i].scale.x, 3);
        if (o.version == 2) {
            m.u16(14, T[i].animated ? static_cast<uint16_t>(3 * iT++) : 0xFFFF);
            m.u16(15, S[i].animated ? static_cast<uint16_t>(3 * iS++) : 0xFFFF);
            m.u16(16, R[i] ? static_cast<uint16_t>(4 * iR++) : 0xFFFF);
            ByteWriter q;
            packQuat(q, defRot);
            m.raw(17, q);
        }
        cw.dataChunk(0x1003, m.w);
        if (o.version == 1) {
            for (const auto* p : {&T[i], &S[i]}) {
                if (!p->animated) continue;
                cw.begin(p == &T[i] ? 0x1004 : 0x1005);
                for (uint16_t v : p->data)
                    cw.w.u16le(v);
                cw.end(false);
            }
            cw.begin(0x1006);
            if (R[i])
                for (const glm::quat& q : t.rotation)
                    packQuat(cw.w, q);
            else
                packQuat(cw.w, defRot);
            cw.end(false);
        }
        bits(cw, 0x1007, t.visibility, frames);
        bits(cw, 0x1008, t.step, frames);
        cw.end(true);
    }
    if (o.version == 2) {
        // Interleaved per-frame blocks, in the order the game writes them: 0x100a, 0x1009, 0x100b.
        if (frameT > 0) {
            cw.begin(0x100a);
            for (uint32_t f = 0; f < frames; ++f)
                for (size_t i = 0; i < n; ++i)
                    if (T[i].animated)
                        for (int k = 0; k < 3; ++k)
                            cw.w.u16le(T[i].data[size_t(f) * 3 + k]);
            cw.end(false);
        }
        if (frameR > 0) {
            cw.begin(0x1009);
            for (uint32_t f = 0; f < frames; ++f)
                for (size_t i = 0; i < n; ++i)
                    if (R[i]) packQuat(cw.w, clip.tracks[i].rotation[f]);
            cw.end(false);
        }
        if (frameS > 0) {
            cw.begin(0x100b);
            for (uint32_t f = 0; f < frames; ++f)
                for (size_t i = 0; i < n; ++i)
                    if (S[i].animated)
                        for (int k = 0; k < 3; ++k)
                            cw.w.u16le(S[i].data[size_t(f) * 3 + k]);
            cw.end(false);
        }
    }
    cw.end(true);
    return std::move(cw.w.buf);
}

} // namespace rs::alamo
