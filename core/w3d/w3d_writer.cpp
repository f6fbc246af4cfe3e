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

// ---------------------------------------------------------------------------------------------
// Effect objects (w3d_fx.h)

static uint8_t byteOf(float v) { // colour 0..1 to the stored byte (rounded)
    const float c = std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f;
    return uint8_t(c);
}

static void writeShader(ByteWriter& w, const Shader& s) { w.bytes(&s, sizeof s); }

static void writeRandomizer(ByteWriter& w, const EmitterRandomizer& r) {
    w.u32le(r.classId);
    vec3(w, r.value);
    w.zeros(16);
}

static void writeKeys(ByteWriter& w, const std::vector<EmitterKey>& k, bool color) {
    for (const EmitterKey& e : k) {
        w.f32le(e.time);
        if (color) {
            w.u8(byteOf(e.value.x));
            w.u8(byteOf(e.value.y));
            w.u8(byteOf(e.value.z));
            w.u8(0);
        } else {
            w.f32le(e.value.x);
        }
    }
}

static void writeKeyChunk(ChunkWriter& cw, uint32_t chunkId, const EmitterKeyChannel& ch, size_t headerSize,
                          bool orientation) {
    if (!ch.present) return;
    cw.begin(chunkId);
    cw.w.u32le(ch.keys.empty() ? 0 : uint32_t(ch.keys.size() - 1));
    cw.w.f32le(ch.random);
    if (orientation) cw.w.f32le(ch.orientationRandom);
    cw.w.zeros(headerSize - (orientation ? 12 : 8));
    if (ch.keys.empty()) {
        cw.w.zeros(8);
    } else {
        writeKeys(cw.w, ch.keys, false);
    }
    cw.end();
}

void writeEmitter(ChunkWriter& cw, const Emitter& e) {
    cw.begin(id::Emitter);
    cw.begin(0x501);
    cw.w.u32le(e.version);
    cw.w.fixedString(e.name, kNameLen);
    cw.end();
    if (e.hasUserData) {
        cw.begin(0x502);
        cw.w.u32le(e.userType);
        cw.w.u32le(e.userString.empty() ? 0 : uint32_t(e.userString.size() + 1));
        cw.w.zeros(4);
        if (!e.userString.empty()) cw.w.cstr(e.userString);
        cw.end();
    }
    cw.begin(0x503);
    cw.w.fixedString(e.texture, 260);
    for (float f : {e.startSize, e.endSize, e.lifetime, e.emissionRate, e.maxEmissions, e.velocityRandom,
                    e.positionRandom, e.fadeTime, e.gravity, e.elasticity})
        cw.w.f32le(f);
    vec3(cw.w, e.velocity);
    vec3(cw.w, e.acceleration);
    cw.w.bytes(&e.startColor, 4);
    cw.w.bytes(&e.endColor, 4);
    cw.end();
    if (e.version > 0x10000) {
        cw.begin(0x504);
        cw.w.u32le(e.burstSize);
        writeRandomizer(cw.w, e.creationVolume);
        writeRandomizer(cw.w, e.velocityRandomizer);
        cw.w.f32le(e.outwardVelocity);
        cw.w.f32le(e.velocityInherit);
        writeShader(cw.w, e.shader);
        cw.w.u32le(e.renderMode);
        cw.w.u32le(e.frameMode);
        cw.w.zeros(24);
        cw.end();
        cw.begin(0x505);
        cw.w.u32le(uint32_t(e.colorKeys.size()));
        cw.w.u32le(uint32_t(e.opacityKeys.size()));
        cw.w.u32le(uint32_t(e.sizeKeys.size()));
        cw.w.bytes(&e.colorRandom, 4);
        cw.w.f32le(e.opacityRandom);
        cw.w.f32le(e.sizeRandom);
        cw.w.zeros(16);
        writeKeys(cw.w, e.colorKeys, true);
        writeKeys(cw.w, e.opacityKeys, false);
        writeKeys(cw.w, e.sizeKeys, false);
        cw.end();
    }
    if (e.hasLineProperties) {
        cw.begin(0x509);
        cw.w.u32le(e.lineFlags);
        cw.w.u32le(e.lineSubdivision);
        for (float f : {e.lineNoise, e.lineMergeAbort, e.lineTextureTile, e.lineUPerSec, e.lineVPerSec})
            cw.w.f32le(f);
        cw.w.zeros(36);
        cw.end();
    }
    writeKeyChunk(cw, 0x50A, e.rotation, 16, true);
    writeKeyChunk(cw, 0x50B, e.frame, 16, false);
    writeKeyChunk(cw, 0x50C, e.blurTime, 12, false);
    if (e.hasExtraInfo) {
        cw.begin(0x50D);
        cw.w.f32le(e.futureStartTime);
        cw.w.zeros(36);
        cw.end();
    }
    cw.end();
}

template <class T> static void writeValue(ByteWriter& w, const T& v);
template <> void writeValue<glm::vec3>(ByteWriter& w, const glm::vec3& v) { vec3(w, v); }
template <> void writeValue<glm::vec2>(ByteWriter& w, const glm::vec2& v) {
    w.f32le(v.x);
    w.f32le(v.y);
}
template <> void writeValue<float>(ByteWriter& w, const float& v) { w.f32le(v); }
template <> void writeValue<AlphaVector>(ByteWriter& w, const AlphaVector& v) {
    w.f32le(v.angle.x);
    w.f32le(v.angle.y);
    w.f32le(v.angle.z);
    w.f32le(v.angle.w);
    w.f32le(v.intensity);
}

// PrimitiveAnimationChannelClass::Save: chunk `id` > chunk 0x03150809 > one micro-chunk {1, size} per key.
template <class T> static void writeChannel(ChunkWriter& cw, uint32_t chunkId, const std::vector<PrimitiveKey<T>>& k) {
    if (k.empty()) return;
    cw.begin(chunkId);
    cw.begin(0x03150809);
    for (const PrimitiveKey<T>& key : k) {
        ByteWriter v;
        writeValue(v, key.value);
        v.f32le(key.time);
        cw.w.u8(1);
        cw.w.u8(uint8_t(v.buf.size()));
        cw.w.bytes(v.buf.data(), v.buf.size());
    }
    cw.end();
    cw.end();
}

void writeSphere(ChunkWriter& cw, const Sphere& s) {
    cw.begin(id::Sphere);
    cw.begin(1);
    cw.w.u32le(s.version);
    cw.w.u32le(s.flags);
    cw.w.fixedString(s.name, 2 * kNameLen);
    vec3(cw.w, s.center);
    vec3(cw.w, s.extent);
    cw.w.f32le(s.duration);
    vec3(cw.w, s.color);
    cw.w.f32le(s.alpha);
    vec3(cw.w, s.scale);
    writeValue(cw.w, s.vector);
    cw.w.fixedString(s.texture, 2 * kNameLen);
    writeShader(cw.w, s.shader);
    cw.end();
    writeChannel(cw, 2, s.colorKeys);
    writeChannel(cw, 3, s.alphaKeys);
    writeChannel(cw, 4, s.scaleKeys);
    writeChannel(cw, 5, s.vectorKeys);
    cw.end();
}

void writeRing(ChunkWriter& cw, const Ring& r) {
    cw.begin(id::Ring);
    cw.begin(1);
    cw.w.u32le(r.version);
    cw.w.u32le(r.flags);
    cw.w.fixedString(r.name, 2 * kNameLen);
    vec3(cw.w, r.center);
    vec3(cw.w, r.extent);
    cw.w.f32le(r.duration);
    vec3(cw.w, r.color);
    cw.w.f32le(r.alpha);
    for (const glm::vec2& v : {r.innerScale, r.outerScale, r.innerExtent, r.outerExtent})
        writeValue(cw.w, v);
    cw.w.fixedString(r.texture, 2 * kNameLen);
    writeShader(cw.w, r.shader);
    cw.w.i32le(r.textureTiles);
    cw.end();
    writeChannel(cw, 2, r.colorKeys);
    writeChannel(cw, 3, r.alphaKeys);
    writeChannel(cw, 4, r.innerScaleKeys);
    writeChannel(cw, 5, r.outerScaleKeys);
    cw.end();
}

void writeAggregate(ChunkWriter& cw, const Aggregate& a) {
    cw.begin(id::Aggregate);
    cw.begin(0x601);
    cw.w.u32le(a.version ? a.version : 0x10003);
    cw.w.fixedString(a.name, kNameLen);
    cw.end();
    cw.begin(0x602);
    cw.w.fixedString(a.baseModel, 2 * kNameLen);
    cw.w.u32le(uint32_t(a.subObjects.size()));
    for (const Aggregate::Sub& s : a.subObjects) {
        cw.w.fixedString(s.object, 2 * kNameLen);
        cw.w.fixedString(s.bone, 2 * kNameLen);
    }
    cw.end();
    if (a.hasClassInfo) {
        cw.begin(0x604);
        cw.w.u32le(a.originalClassId);
        cw.w.u32le(a.flags);
        cw.w.zeros(12);
        cw.end();
    }
    cw.end();
}

} // namespace rs::w3d
