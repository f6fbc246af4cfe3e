#include "bw2/bw2_writer.h"

#include <cmath>
#include <stdexcept>

namespace rs::bw2 {

namespace {

void vec3(ByteWriter& w, const glm::vec3& v) {
    w.f32le(v.x);
    w.f32le(v.y);
    w.f32le(v.z);
}

void frame(ByteWriter& w, const BwmFrame& f) {
    for (const auto& a : f.axis)
        vec3(w, a);
    vec3(w, f.position);
}

template <class T> void requireSize(const std::vector<T>& v, size_t n, const char* what) {
    if (v.size() < n)
        throw std::invalid_argument(std::string("writeBwm: ") + what + " has fewer entries than vertices");
}

} // namespace

std::vector<BwmStride> makeStrides(size_t uvCount, SkinLayout layout) {
    std::vector<BwmStride> s(1);
    s[0].elements.push_back({uint32_t(StrideType::Position), uint32_t(StrideFormat::Vec3)});
    s[0].elements.push_back({uint32_t(StrideType::Normal), uint32_t(StrideFormat::Vec3)});
    for (size_t i = 0; i < uvCount; ++i)
        s[0].elements.push_back({uint32_t(StrideType::Uv), uint32_t(StrideFormat::Vec2)});
    auto one = [](StrideType t, StrideFormat f) {
        BwmStride st;
        st.elements.push_back({uint32_t(t), uint32_t(f)});
        return st;
    };
    switch (layout) {
    case SkinLayout::None:
        break;
    case SkinLayout::U8PerIndex:
    case SkinLayout::U32PerIndex:
        for (int i = 0; i < 4; ++i)
            s.push_back(
                one(StrideType::BoneIndex, layout == SkinLayout::U8PerIndex ? StrideFormat::U8 : StrideFormat::U32));
        break;
    case SkinLayout::U8x4Packed:
        s.push_back(one(StrideType::BoneIndex, StrideFormat::U32));
        break;
    }
    if (layout != SkinLayout::None)
        for (int i = 0; i < 4; ++i)
            s.push_back(one(StrideType::BoneWeight, StrideFormat::F32));
    return s;
}

std::vector<uint8_t> writeBwm(const BwmFile& f) {
    ByteWriter w;
    w.fixedString("LiOnHeAdMODEL", 40);
    const size_t sizeAt = w.size();
    w.u32le(0);
    w.u32le(kBwmMagic);
    w.u32le(f.version);
    const size_t metaAt = w.size();
    w.u32le(0);

    w.f32le(f.unknown1);
    vec3(w, f.point);
    vec3(w, f.boxMin);
    vec3(w, f.boxMax);
    vec3(w, f.center);
    w.f32le(f.height);
    w.f32le(f.radius);
    w.u32le(f.unknown2);
    w.f32le(f.volume);
    w.u32le(uint32_t(f.materials.size()));
    w.u32le(uint32_t(f.meshes.size()));
    w.u32le(uint32_t(f.bones.size()));
    w.u32le(uint32_t(f.entities.size()));
    w.u32le(uint32_t(f.unknownPoints.size()));
    w.u32le(uint32_t(f.collisionPoints.size()));
    for (float u : f.unknown3)
        w.f32le(u);
    const size_t nv = f.positions.size();
    w.u32le(uint32_t(nv));
    w.u32le(uint32_t(f.strides.size()));
    w.u32le(f.type);
    w.u32le(uint32_t(f.indices.size()));

    for (const auto& m : f.materials)
        for (int s = 0; s < 7; ++s)
            w.fixedString(m.slot(s), 64);
    for (const auto& m : f.meshes) {
        w.u32le(m.faceCount);
        w.u32le(m.indexOffset);
        w.u32le(m.indexCount);
        w.u32le(m.vertexOffset);
        w.u32le(m.vertexCount);
        frame(w, m.frame);
        vec3(w, m.center);
        w.f32le(m.radius);
        vec3(w, m.boxMin);
        vec3(w, m.boxMax);
        vec3(w, m.unknownPoint);
        w.f32le(m.height);
        w.f32le(m.unknownFloat);
        w.u32le(m.unknownInt);
        w.f32le(m.volume);
        w.u32le(uint32_t(m.refs.size()));
        w.u32le(m.unknownU2);
        w.u32le(m.lod);
        w.fixedString(m.name, 64);
        w.u32le(m.unknownTail[0]);
        w.u32le(m.unknownTail[1]);
    }
    for (const auto& m : f.meshes)
        for (const auto& r : m.refs) {
            w.u32le(r.material);
            w.u32le(r.indexOffset);
            w.u32le(r.indexCount);
            w.u32le(r.vertexOffset);
            w.u32le(r.vertexCount);
            w.u32le(r.faceOffset);
            w.u32le(r.faceCount);
            w.u32le(r.unknown);
        }
    for (const auto& b : f.bones)
        frame(w, b);
    for (const auto& e : f.entities) {
        frame(w, e.frame);
        w.fixedString(e.name, 256);
    }
    for (const auto& p : f.unknownPoints)
        vec3(w, p);
    for (const auto& p : f.collisionPoints)
        vec3(w, p);
    for (const auto& s : f.strides) {
        if (s.elements.size() > kBwmMaxStrideElements)
            throw std::invalid_argument("writeBwm: too many stride elements");
        w.u32le(uint32_t(s.elements.size()));
        for (const auto& e : s.elements) {
            w.u32le(e.type);
            w.u32le(e.format);
        }
        w.zeros(kBwmStrideSize - 4 - 8 * s.elements.size());
    }
    w.patchU32le(metaAt, uint32_t(w.size() - kBwmFileHeaderSize));

    // Vertex data: stride 0 interleaved, the others planar; element occurrences counted per type.
    size_t uvSeen = 0, idxSeen = 0, wSeen = 0;
    const bool packed = f.skinLayout == SkinLayout::U8x4Packed;
    for (const auto& s : f.strides) {
        const size_t uvBase = uvSeen, idxBase = idxSeen, wBase = wSeen;
        for (const auto& e : s.elements) {
            if (e.type == uint32_t(StrideType::Uv)) ++uvSeen;
            if (e.type == uint32_t(StrideType::BoneIndex)) ++idxSeen;
            if (e.type == uint32_t(StrideType::BoneWeight)) ++wSeen;
        }
        if (uvSeen > f.uvs.size()) throw std::invalid_argument("writeBwm: more uv elements than uv arrays");
        for (size_t u = uvBase; u < uvSeen; ++u)
            requireSize(f.uvs[u], nv, "uvs");
        if (idxSeen > idxBase) requireSize(f.boneIndices, nv, "boneIndices");
        if (wSeen > wBase) requireSize(f.boneWeights, nv, "boneWeights");
        for (size_t v = 0; v < nv; ++v) {
            size_t uvK = uvBase, idxK = idxBase, wK = wBase;
            for (const auto& e : s.elements) {
                switch (e.type) {
                case uint32_t(StrideType::Position):
                    vec3(w, f.positions[v]);
                    break;
                case uint32_t(StrideType::Normal):
                    requireSize(f.normals, nv, "normals");
                    vec3(w, f.normals[v]);
                    break;
                case uint32_t(StrideType::Uv):
                    w.f32le(f.uvs[uvK][v].x);
                    w.f32le(f.uvs[uvK][v].y);
                    ++uvK;
                    break;
                case uint32_t(StrideType::BoneIndex): {
                    const auto& bi = f.boneIndices[v];
                    if (packed) {
                        w.u32le(bi[0] | bi[1] << 8 | bi[2] << 16 | bi[3] << 24);
                    } else {
                        uint32_t b = idxK < 4 ? bi[idxK] : 0;
                        if (e.format == uint32_t(StrideFormat::U8))
                            w.u8(uint8_t(b));
                        else
                            w.u32le(b);
                    }
                    ++idxK;
                    break;
                }
                case uint32_t(StrideType::BoneWeight): {
                    float x = wK < 4 ? f.boneWeights[v][int(wK)] : 0.0f;
                    if (e.format == uint32_t(StrideFormat::U8))
                        w.u8(uint8_t(std::lround(x * 255.0f)));
                    else
                        w.f32le(x);
                    ++wK;
                    break;
                }
                default:
                    w.zeros(strideFormatSize(e.format));
                }
            }
        }
    }
    for (uint16_t i : f.indices)
        w.u16le(i);
    if (f.version >= 6) {
        w.u32le(uint32_t(f.trailer.size()));
        for (const auto& p : f.trailer)
            vec3(w, p);
    }
    w.patchU32le(sizeAt, uint32_t(w.size() - 0x2C));
    return w.buf;
}

namespace {

void animHeader(ByteWriter& w, const AlAnimHeader& h, uint32_t eventCount, uint32_t stringSize, uint32_t offsetBlock,
                uint32_t boneCount) {
    w.u32le(kAlMagic);
    w.u32le(h.version);
    w.fixedString(h.name, 64);
    w.u32le(h.type);
    w.u32le(stringSize);
    w.u32le(offsetBlock);
    w.u32le(h.unknown1[0]);
    w.u32le(h.unknown1[1]);
    w.u32le(eventCount);
    w.u32le(boneCount);
    w.u32le(h.frameCount);
    w.f32le(h.samplingRate);
    w.f32le(h.duration);
    w.f32le(h.distance);
    w.u8(h.cyclic ? 1 : 0);
    w.u8(h.hierarchical ? 1 : 0);
    w.u16le(h.flags);
    for (uint32_t u : h.unknown2)
        w.u32le(u);
}

} // namespace

std::vector<uint8_t> writeAl(const AlFile& f) {
    ByteWriter w;
    w.u32le(kAlMagic);
    w.u32le(f.unknown);
    w.fixedString(f.name, 64);
    const size_t metaOffsetAt = w.size();
    w.u32le(0);
    const size_t sizeAt = w.size();
    w.u32le(0);
    w.u32le(f.animationOffset);
    w.u32le(uint32_t(f.animations.size()));
    w.f32le(f.unknown2[0]);
    w.f32le(f.unknown2[1]);

    w.u32le(uint32_t(f.bones.size()));
    w.u32le(f.armatureUnknown);
    for (const auto& b : f.bones) {
        w.fixedString(b.name, 32);
        w.i32le(b.parent);
    }
    w.bytes(f.armatureExtra.data(), f.armatureExtra.size());
    w.patchU32le(metaOffsetAt, uint32_t(w.size() - kAlHeaderSize));

    // Event strings and offset blocks first, to know every animation's size.
    struct Plan {
        std::vector<uint8_t> strings;
        std::vector<std::array<uint32_t, 2>> nameOffsets;
        uint32_t offsetBlock = 0;
        size_t size = 0;
    };
    std::vector<Plan> plans(f.animations.size());
    for (size_t i = 0; i < f.animations.size(); ++i) {
        const AlAnimation& a = f.animations[i];
        Plan& p = plans[i];
        const size_t stringsAt = kAlAnimHeaderSize + a.events.size() * kAlEventSize;
        for (const auto& e : a.events) {
            std::array<uint32_t, 2> o{};
            o[0] = uint32_t(stringsAt + p.strings.size());
            p.strings.insert(p.strings.end(), e.bone.begin(), e.bone.end());
            p.strings.push_back(0);
            o[1] = uint32_t(stringsAt + p.strings.size());
            p.strings.insert(p.strings.end(), e.name.begin(), e.name.end());
            p.strings.push_back(0);
            p.nameOffsets.push_back(o);
        }
        if (a.frameOffsets.size() != a.header.frameCount)
            throw std::invalid_argument("writeAl: frameOffsets must hold frameCount entries");
        p.offsetBlock = uint32_t(a.frameOffsets.size() * 8 + a.offsetBlockRest.size());
        const size_t later = a.header.frameCount > 0 ? a.header.frameCount - 1 : 0;
        if (a.first.size() != later * a.rotationsPerFrame || a.second.size() != later * a.positionsPerFrame)
            throw std::invalid_argument("writeAl: compressed blocks do not match frameCount and per-frame counts");
        if (a.frameZeroRotations.size() != a.frameZeroPositions.size())
            throw std::invalid_argument("writeAl: frame-zero rotations and positions differ in count");
        p.size = stringsAt + p.strings.size() + 16 + a.unknownBlock.size() + p.offsetBlock + 8 + 32 + 24 +
                 a.frameZeroRotations.size() * 28 + (a.first.size() + a.second.size()) * 6;
    }

    size_t at = w.size() + f.animations.size() * kAlMetadataSize;
    for (size_t i = 0; i < f.animations.size(); ++i) {
        const AlAnimation& a = f.animations[i];
        animHeader(w, a.header, uint32_t(a.events.size()), 0, 0, uint32_t(a.frameZeroRotations.size()));
        w.u32le(uint32_t(at));
        at += plans[i].size;
    }
    for (size_t i = 0; i < f.animations.size(); ++i) {
        const AlAnimation& a = f.animations[i];
        const Plan& p = plans[i];
        animHeader(w, a.header, uint32_t(a.events.size()), uint32_t(p.strings.size()), p.offsetBlock,
                   uint32_t(a.frameZeroRotations.size()));
        for (size_t e = 0; e < a.events.size(); ++e) {
            w.u32le(p.nameOffsets[e][0]);
            w.u32le(p.nameOffsets[e][1]);
            for (float v : a.events[e].transform)
                w.f32le(v);
        }
        w.bytes(p.strings.data(), p.strings.size());
        w.u32le(uint32_t(a.unknownBlock.size()));
        for (float v : a.unknownFloats)
            w.f32le(v);
        w.bytes(a.unknownBlock.data(), a.unknownBlock.size());
        for (const auto& fo : a.frameOffsets) {
            w.u32le(fo[0]);
            w.u32le(fo[1]);
        }
        w.bytes(a.offsetBlockRest.data(), a.offsetBlockRest.size());
        w.u32le(a.rotationsPerFrame);
        w.u32le(a.positionsPerFrame);
        w.bytes(a.unknown32, 32);
        vec3(w, a.posComp);
        vec3(w, a.point);
        for (const auto& q : a.frameZeroRotations) {
            w.f32le(q.x);
            w.f32le(q.y);
            w.f32le(q.z);
            w.f32le(q.w);
        }
        for (const auto& p0 : a.frameZeroPositions)
            vec3(w, p0);
        for (const auto& v : a.first) {
            w.i16le(v.x);
            w.i16le(v.y);
            w.i16le(v.z);
        }
        for (const auto& v : a.second) {
            w.i16le(v.x);
            w.i16le(v.y);
            w.i16le(v.z);
        }
    }
    w.patchU32le(sizeAt, uint32_t(w.size() - kAlHeaderSize));
    return w.buf;
}

} // namespace rs::bw2
