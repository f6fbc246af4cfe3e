#include "w3d/w3d_writer.h"

#include "w3d/w3d_anim.h"
#include "w3d/w3d_chunks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace rs::w3d {

void ChunkWriter::begin(uint32_t chunkId) {
    open_.push_back({w.size(), chunkId});
    w.u32le(chunkId);
    w.u32le(0);
}

void ChunkWriter::end() {
    Open o = open_.back();
    open_.pop_back();
    uint32_t size = uint32_t(w.size() - o.at - 8);
    if (containerBit_ && isContainer(o.id)) size |= 0x80000000u;
    w.patchU32le(o.at + 4, size);
}

static void vec3(ByteWriter& w, const glm::vec3& v) {
    w.f32le(v.x);
    w.f32le(v.y);
    w.f32le(v.z);
}

static void vec3Chunk(ChunkWriter& cw, uint32_t id, const std::vector<glm::vec3>& v) {
    if (v.empty()) return;
    cw.begin(id);
    for (const auto& x : v)
        vec3(cw.w, x);
    cw.end();
}

static void u32Chunk(ChunkWriter& cw, uint32_t id, const std::vector<uint32_t>& v) {
    if (v.empty()) return;
    cw.begin(id);
    for (uint32_t x : v)
        cw.w.u32le(x);
    cw.end();
}

static void uvChunk(ChunkWriter& cw, const std::vector<glm::vec2>& v) {
    if (v.empty()) return;
    cw.begin(id::StageTexcoords);
    for (const auto& x : v) {
        cw.w.f32le(x.x);
        cw.w.f32le(x.y);
    }
    cw.end();
}

static void stringChunk(ChunkWriter& cw, uint32_t id, const std::string& s) {
    cw.begin(id);
    cw.w.cstr(s);
    cw.end();
}

void setStoredSize(std::vector<uint8_t>& file, size_t chunkOffset, uint32_t payloadSize) {
    if (chunkOffset + 8 > file.size() || payloadSize > 0x7FFFFFFFu)
        throw std::invalid_argument("setStoredSize: no chunk header at that offset, or a size over 31 bits");
    uint8_t* p = file.data() + chunkOffset + 4;
    const uint32_t stored = (uint32_t(p[3] & 0x80u) << 24) | payloadSize;
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(stored >> (8 * i));
}

void writeHierarchy(ChunkWriter& cw, const Hierarchy& h) {
    cw.begin(id::Hierarchy);
    cw.begin(id::HierarchyHeader);
    cw.w.u32le(h.version);
    cw.w.fixedString(h.name, kNameLen);
    cw.w.u32le(uint32_t(h.pivots.size()));
    vec3(cw.w, h.center);
    cw.end();
    cw.begin(id::Pivots);
    for (const Pivot& p : h.pivots) {
        cw.w.fixedString(p.name, kNameLen);
        cw.w.u32le(p.parent);
        vec3(cw.w, p.translation);
        vec3(cw.w, p.euler);
        cw.w.f32le(p.rotation.x);
        cw.w.f32le(p.rotation.y);
        cw.w.f32le(p.rotation.z);
        cw.w.f32le(p.rotation.w);
    }
    cw.end();
    cw.end();
}

void writeMesh(ChunkWriter& cw, const RawMesh& m, uint32_t materialWrapper) {
    ByteWriter& w = cw.w;
    cw.begin(id::Mesh);
    cw.begin(id::MeshHeader3);
    w.u32le(m.version ? m.version : 0x40002);
    w.u32le(m.attributes);
    w.fixedString(m.name, kNameLen);
    w.fixedString(m.container, kNameLen);
    w.u32le(uint32_t(m.indices.size() / 3));
    w.u32le(uint32_t(m.positions.size()));
    w.u32le(uint32_t(m.vertexMaterials.size()));
    w.zeros(4 * 5);
    w.u32le(m.normals.empty() ? 1 : 3); // vertex channels
    w.u32le(1);                         // face channels
    vec3(w, m.boundsMin);
    vec3(w, m.boundsMax);
    vec3(w, (m.boundsMin + m.boundsMax) * 0.5f);
    w.f32le(glm::length(m.boundsMax - m.boundsMin) * 0.5f);
    cw.end();
    if (!m.userText.empty()) stringChunk(cw, id::MeshUserText, m.userText);
    vec3Chunk(cw, id::Vertices, m.positions);
    vec3Chunk(cw, id::VertexNormals, m.normals);
    vec3Chunk(cw, id::Tangents, m.tangents);
    vec3Chunk(cw, id::Bitangents, m.bitangents);
    cw.begin(id::Triangles);
    for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        w.u32le(m.indices[t]);
        w.u32le(m.indices[t + 1]);
        w.u32le(m.indices[t + 2]);
        w.u32le(0);
        w.zeros(16);
    }
    cw.end();
    if (!m.influences.empty()) {
        cw.begin(id::VertexInfluences);
        for (const VertexInfluence& vi : m.influences) {
            w.u16le(vi.bone);
            w.u16le(vi.bone2);
            w.u16le(vi.weight);
            w.u16le(vi.weight2);
        }
        cw.end();
    }
    vec3Chunk(cw, id::Vertices2, m.positions2);
    vec3Chunk(cw, id::Normals2, m.normals2);
    if (materialWrapper) cw.begin(materialWrapper);
    cw.begin(id::MaterialInfo);
    w.u32le(uint32_t(m.passes.size()));
    w.u32le(uint32_t(m.vertexMaterials.size()));
    w.u32le(uint32_t(m.shaders.size()));
    w.u32le(uint32_t(m.textures.size()));
    cw.end();
    if (!m.shaders.empty()) {
        cw.begin(id::Shaders);
        w.bytes(m.shaders.data(), m.shaders.size() * sizeof(Shader));
        cw.end();
    }
    if (!m.vertexMaterials.empty()) {
        cw.begin(id::VertexMaterials);
        for (const VertexMaterial& vm : m.vertexMaterials) {
            cw.begin(id::VertexMaterial);
            stringChunk(cw, id::VertexMaterialName, vm.name);
            cw.begin(id::VertexMaterialInfo);
            w.u32le(vm.attributes);
            for (const glm::u8vec4& c : {vm.ambient, vm.diffuse, vm.specular, vm.emissive})
                w.bytes(&c[0], 4);
            w.f32le(vm.shininess);
            w.f32le(vm.opacity);
            w.f32le(vm.translucency);
            cw.end();
            if (!vm.mapperArgs[0].empty()) stringChunk(cw, id::VertexMapperArgs0, vm.mapperArgs[0]);
            if (!vm.mapperArgs[1].empty()) stringChunk(cw, id::VertexMapperArgs1, vm.mapperArgs[1]);
            cw.end();
        }
        cw.end();
    }
    if (!m.textures.empty()) {
        cw.begin(id::Textures);
        for (const TextureRef& t : m.textures) {
            cw.begin(id::Texture);
            stringChunk(cw, id::TextureName, t.name);
            if (t.hasInfo) {
                cw.begin(id::TextureInfo);
                w.u16le(t.attributes);
                w.u16le(t.animType);
                w.u32le(t.frameCount);
                w.f32le(t.frameRate);
                cw.end();
            }
            cw.end();
        }
        cw.end();
    }
    if (!m.shaderMaterials.empty()) {
        cw.begin(id::ShaderMaterials);
        for (const ShaderMaterial& sm : m.shaderMaterials) {
            cw.begin(id::ShaderMaterial);
            cw.begin(id::ShaderMaterialHeader);
            w.u8(sm.number);
            w.fixedString(sm.typeName, 2 * kNameLen);
            w.u32le(0);
            cw.end();
            for (const ShaderMaterialProperty& p : sm.properties) {
                cw.begin(id::ShaderMaterialProperty);
                w.u32le(p.type);
                w.u32le(uint32_t(p.name.size() + 1));
                w.cstr(p.name);
                switch (p.type) {
                case 1:
                    w.u32le(uint32_t(p.text.size() + 1));
                    w.cstr(p.text);
                    break;
                case 2:
                    w.f32le(p.value.x);
                    break;
                case 3:
                    w.f32le(p.value.x), w.f32le(p.value.y);
                    break;
                case 4:
                    vec3(w, glm::vec3(p.value));
                    break;
                case 5:
                    vec3(w, glm::vec3(p.value)), w.f32le(p.value.w);
                    break;
                case 6:
                    w.i32le(p.intValue);
                    break;
                default:
                    w.u8(uint8_t(p.intValue));
                    break;
                }
                cw.end();
            }
            cw.end();
        }
        cw.end();
    }
    for (const MaterialPass& p : m.passes) {
        cw.begin(id::MaterialPass);
        u32Chunk(cw, id::VertexMaterialIds, p.vertexMaterialIds);
        u32Chunk(cw, id::ShaderIds, p.shaderIds);
        if (!p.dcg.empty()) {
            cw.begin(id::Dcg);
            for (const auto& c : p.dcg)
                w.bytes(&c[0], 4);
            cw.end();
        }
        if (!p.dig.empty()) {
            cw.begin(id::Dig);
            for (const auto& c : p.dig)
                w.bytes(&c[0], 4);
            cw.end();
        }
        u32Chunk(cw, id::ShaderMaterialId, p.shaderMaterialIds);
        uvChunk(cw, p.uv);
        for (const TextureStage& s : p.stages) {
            cw.begin(id::TextureStage);
            u32Chunk(cw, id::TextureIds, s.textureIds);
            uvChunk(cw, s.uv);
            cw.end();
        }
        cw.end();
    }
    if (materialWrapper) cw.end();
    cw.end();
}

static void subObjectArray(ChunkWriter& cw, uint32_t chunkId, float maxScreenSize, const std::vector<SubObject>& v) {
    cw.begin(chunkId);
    cw.begin(id::HlodSubObjectArrayHeader);
    cw.w.u32le(uint32_t(v.size()));
    cw.w.f32le(maxScreenSize);
    cw.end();
    for (const SubObject& o : v) {
        cw.begin(id::HlodSubObject);
        cw.w.u32le(o.bone);
        cw.w.fixedString(o.name, 2 * kNameLen);
        cw.end();
    }
    cw.end();
}

void writeHlod(ChunkWriter& cw, const Hlod& h) {
    cw.begin(id::Hlod);
    cw.begin(id::HlodHeader);
    cw.w.u32le(h.version ? h.version : 0x10000);
    cw.w.u32le(uint32_t(h.lods.size()));
    cw.w.fixedString(h.name, kNameLen);
    cw.w.fixedString(h.hierarchy, kNameLen);
    cw.end();
    for (const LodArray& a : h.lods)
        subObjectArray(cw, id::HlodLodArray, a.maxScreenSize, a.objects);
    if (!h.aggregates.empty()) subObjectArray(cw, id::HlodAggregateArray, 0.0f, h.aggregates);
    if (!h.proxies.empty()) subObjectArray(cw, id::HlodProxyArray, 0.0f, h.proxies);
    cw.end();
}

void writeBox(ChunkWriter& cw, const Box& b) {
    cw.begin(id::Box);
    cw.w.u32le(b.version ? b.version : 0x10000);
    cw.w.u32le(b.attributes);
    cw.w.fixedString(b.name, 2 * kNameLen);
    cw.w.u8(b.color.r);
    cw.w.u8(b.color.g);
    cw.w.u8(b.color.b);
    cw.w.u8(0);
    vec3(cw.w, b.center);
    vec3(cw.w, b.extent);
    cw.end();
}

void writeNull(ChunkWriter& cw, const NullObject& n) {
    cw.begin(id::NullObject);
    cw.w.u32le(n.version ? n.version : 0x10000);
    cw.w.u32le(n.attributes);
    cw.w.zeros(8);
    cw.w.fixedString(n.name, 2 * kNameLen);
    cw.end();
}

void writeHModel(ChunkWriter& cw, const HModel& h) {
    cw.begin(id::HModel);
    cw.begin(id::HModelHeader);
    cw.w.u32le(h.version ? h.version : 0x40002);
    cw.w.fixedString(h.name, kNameLen);
    cw.w.fixedString(h.hierarchy, kNameLen);
    cw.w.u16le(uint16_t(h.nodes.size()));
    cw.w.zeros(2);
    cw.end();
    for (const SubObject& o : h.nodes) {
        cw.begin(id::HModelNode);
        const size_t dot = o.name.find('.');
        cw.w.fixedString(dot == std::string::npos ? o.name : o.name.substr(dot + 1), kNameLen);
        cw.w.u16le(uint16_t(o.bone));
        cw.end();
    }
    cw.end();
}

void writeCollection(ChunkWriter& cw, const Collection& c) {
    cw.begin(id::Collection);
    cw.begin(id::CollectionHeader);
    cw.w.u32le(c.version ? c.version : 0x40002);
    cw.w.fixedString(c.name, kNameLen);
    cw.w.u32le(uint32_t(c.objects.size()));
    cw.w.zeros(8);
    cw.end();
    for (const std::string& o : c.objects)
        stringChunk(cw, id::CollectionObjName, o);
    for (const Collection::Placeholder& p : c.placeholders) {
        cw.begin(id::Placeholder);
        cw.w.u32le(0x10000);
        for (int row = 0; row < 4; ++row)
            for (int col = 0; col < 3; ++col)
                cw.w.f32le(p.transform[row][col]);
        cw.w.u32le(uint32_t(p.name.size() + 1));
        cw.w.cstr(p.name);
        cw.end();
    }
    cw.end();
}

// ---------------------------------------------------------------------------------------------
// Adaptive delta

AdaptiveDeltaStream encodeAdaptiveDelta(const std::vector<float>& values, uint32_t frames, int vectorLen, int bits) {
    const float* table = adaptiveDeltaTable();
    AdaptiveDeltaStream s;
    const int qmin = bits == 4 ? -8 : -128, qmax = bits == 4 ? 7 : 127;
    const float unitDiv = bits == 8 ? 16.0f : 1.0f;
    s.initial.assign(values.begin(), values.begin() + vectorLen);
    float maxStep = 0.0f;
    for (uint32_t f = 1; f < frames; ++f)
        for (int c = 0; c < vectorLen; ++c)
            maxStep =
                std::max(maxStep, std::fabs(values[size_t(f) * vectorLen + c] - values[size_t(f - 1) * vectorLen + c]));
    // table[16] == 1: the largest step fits the largest quantised delta at index 16.
    s.scale = maxStep > 0.0f ? maxStep * unitDiv / float(qmax) : 1.0f;
    const size_t packet = 1 + size_t(bits) * 2;
    const uint32_t blocks = (frames + 15) / 16;
    s.packets.assign(size_t(blocks) * vectorLen * packet, 0);
    std::vector<float> recon(s.initial);
    for (uint32_t b = 0; b < blocks; ++b) {
        for (int c = 0; c < vectorLen; ++c) {
            uint8_t* p = &s.packets[(size_t(b) * vectorLen + c) * packet];
            int bestIdx = 16;
            float bestErr = INFINITY;
            int q[16] = {0}, bestQ[16] = {0};
            for (int idx = 0; idx < 256; ++idx) {
                const float step = table[idx] * s.scale / unitDiv;
                if (!(step > 0.0f)) continue;
                float prev = recon[c], err = 0.0f;
                for (int j = 0; j < 16; ++j) {
                    const uint32_t f = b * 16 + uint32_t(j) + 1;
                    if (f >= frames) {
                        q[j] = 0;
                        continue;
                    }
                    const float target = values[size_t(f) * vectorLen + c];
                    int qi = int(std::lround((target - prev) / step));
                    qi = std::clamp(qi, qmin, qmax);
                    q[j] = qi;
                    prev += float(qi) * step;
                    err = std::max(err, std::fabs(prev - target));
                }
                if (err < bestErr) {
                    bestErr = err;
                    bestIdx = idx;
                    std::copy(q, q + 16, bestQ);
                }
            }
            p[0] = uint8_t(bestIdx);
            const float step = table[bestIdx] * s.scale / unitDiv;
            for (int j = 0; j < 16; ++j) {
                if (bits == 4) {
                    const uint8_t nib = uint8_t(bestQ[j] & 0xF);
                    p[1 + j / 2] |= (j & 1) ? uint8_t(nib << 4) : nib;
                } else {
                    p[1 + j] = uint8_t(int8_t(bestQ[j])) ^ 0x80;
                }
                recon[c] += float(bestQ[j]) * step; // same arithmetic as the decoder
            }
        }
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// Clips

static int vectorLenOf(uint8_t type) { return type == 6 ? 4 : 1; }

void writeClip(ChunkWriter& cw, const ClipSpec& c) {
    ByteWriter& w = cw.w;
    const bool compressed = c.codec != ClipCodec::Uncompressed;
    cw.begin(compressed ? id::CompressedAnimation : id::Animation);
    cw.begin(compressed ? id::CompressedAnimationHeader : id::AnimationHeader);
    w.u32le(c.version);
    w.fixedString(c.name, kNameLen);
    w.fixedString(c.hierarchy, kNameLen);
    w.u32le(c.frames);
    if (compressed) {
        w.u16le(uint16_t(c.fps));
        w.u16le(c.codec == ClipCodec::AdaptiveDelta ? 1 : 0);
    } else {
        w.u32le(c.fps);
    }
    cw.end();
    for (const ChannelSpec& ch : c.channels) {
        const int vl = vectorLenOf(ch.type);
        switch (c.codec) {
        case ClipCodec::Uncompressed: {
            cw.begin(id::AnimationChannel);
            const uint32_t n = uint32_t(ch.values.size() / vl);
            w.u16le(ch.first);
            w.u16le(uint16_t(ch.first + n - 1));
            w.u16le(uint16_t(vl));
            w.u16le(ch.type);
            w.u16le(ch.pivot);
            w.u16le(0);
            for (float v : ch.values)
                w.f32le(v);
            cw.end();
            break;
        }
        case ClipCodec::Timecoded: {
            cw.begin(id::CompressedAnimationChannel);
            w.u32le(uint32_t(ch.keyFrames.size()));
            w.u16le(ch.pivot);
            w.u8(uint8_t(vl));
            w.u8(ch.type);
            for (size_t k = 0; k < ch.keyFrames.size(); ++k) {
                const bool bin = k < ch.binary.size() && ch.binary[k];
                w.u32le(ch.keyFrames[k] | (bin ? 0x80000000u : 0u));
                for (int j = 0; j < vl; ++j)
                    w.f32le(ch.values[k * vl + j]);
            }
            cw.end();
            break;
        }
        case ClipCodec::MotionTimecoded: {
            cw.begin(id::MotionChannel);
            w.u8(0);
            w.u8(0);
            w.u8(uint8_t(vl));
            w.u8(ch.type);
            w.u16le(uint16_t(ch.keyFrames.size()));
            w.u16le(ch.pivot);
            for (uint32_t f : ch.keyFrames)
                w.u16le(uint16_t(f));
            if (ch.keyFrames.size() % 2) w.u16le(0);
            for (float v : ch.values)
                w.f32le(v);
            cw.end();
            break;
        }
        case ClipCodec::AdaptiveDelta:
        case ClipCodec::MotionDelta4:
        case ClipCodec::MotionDelta8: {
            const uint32_t frames = uint32_t(ch.values.size() / vl);
            const int bits = c.codec == ClipCodec::MotionDelta8 ? 8 : 4;
            AdaptiveDeltaStream s = encodeAdaptiveDelta(ch.values, frames, vl, bits);
            if (c.codec == ClipCodec::AdaptiveDelta) {
                cw.begin(id::CompressedAnimationChannel);
                w.u32le(frames);
                w.u16le(ch.pivot);
                w.u8(uint8_t(vl));
                w.u8(ch.type);
            } else {
                cw.begin(id::MotionChannel);
                w.u8(0);
                w.u8(bits == 4 ? 1 : 2);
                w.u8(uint8_t(vl));
                w.u8(ch.type);
                w.u16le(uint16_t(frames));
                w.u16le(ch.pivot);
            }
            w.f32le(s.scale);
            for (float v : s.initial)
                w.f32le(v);
            w.bytes(s.packets.data(), s.packets.size());
            if (c.codec == ClipCodec::AdaptiveDelta) w.zeros(3); // as the reference exporter writes
            cw.end();
            break;
        }
        }
    }
    for (const BitChannelSpec& b : c.bitChannels) {
        if (!compressed) {
            cw.begin(id::BitChannel);
            w.u16le(b.first);
            w.u16le(uint16_t(b.first + b.bits.size() - 1));
            w.u16le(0);
            w.u16le(b.pivot);
            w.u8(b.defaultValue);
            std::vector<uint8_t> packed((b.bits.size() + 7) / 8, 0);
            for (size_t i = 0; i < b.bits.size(); ++i)
                if (b.bits[i]) packed[i / 8] |= uint8_t(1u << (i % 8));
            w.bytes(packed.data(), packed.size());
        } else {
            cw.begin(id::CompressedBitChannel);
            w.u32le(uint32_t(b.keyFrames.size()));
            w.u16le(b.pivot);
            w.u8(0);
            w.u8(b.defaultValue);
            for (size_t k = 0; k < b.keyFrames.size(); ++k)
                w.u32le(b.keyFrames[k] | (b.bits[k] ? 0x80000000u : 0u));
        }
        cw.end();
    }
    cw.end();
}

} // namespace rs::w3d
