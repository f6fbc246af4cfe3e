#include "alamo/particle_writer.h"

#include "alamo/chunk_writer.h"
#include "alamo/particle_reader.h"
#include "common/bytes.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace rs::alamo {

namespace {

uint8_t colourByte(float v) {
    if (!(v >= 0.0f && v <= 1.0f)) throw std::invalid_argument("colour track value outside 0..1");
    return static_cast<uint8_t>(std::lround(v * 255.0f));
}

void writeTrack(ChunkWriter& cw, const ParticleTrack& t, bool colour) {
    if (t.keys.size() < 2 || t.keys.front().x != 0.0f || t.keys.back().x != 1.0f)
        throw std::invalid_argument("particle track needs keys at t = 0 and t = 1");
    cw.begin(0x00);
    for (int end = 0; end < 2; ++end) {
        const float v = end == 0 ? t.keys.front().y : t.keys.back().y;
        if (colour) {
            const uint8_t b = colourByte(v);
            cw.mini(end == 0 ? 2 : 3, &b, 1);
        } else {
            cw.mini(end == 0 ? 2 : 3, &v, 4);
        }
    }
    const uint32_t interp = t.rawInterp;
    cw.mini(4, &interp, 4);
    cw.end(false);
    cw.begin(0x01);
    for (size_t i = 1; i + 1 < t.keys.size(); ++i) {
        uint8_t key[8];
        if (colour) {
            const uint32_t raw = colourByte(t.keys[i].y);
            std::memcpy(key, &raw, 4);
        } else {
            std::memcpy(key, &t.keys[i].y, 4);
        }
        std::memcpy(key + 4, &t.keys[i].x, 4);
        cw.mini(5, key, 8);
    }
    cw.end(false);
}

void writeVolume(ChunkWriter& cw, const ParticleVolume& v) {
    cw.begin(0x1100);
    cw.begin(0x1101);
    ByteWriter& w = cw.w;
    w.u32le(v.rawShape);
    for (float f : {v.min.x, v.min.y, v.min.z, v.max.x, v.max.y, v.max.z, v.sideLength, v.sphereRadius})
        w.f32le(f);
    w.u32le(v.sphereEdge ? 1 : 0);
    w.f32le(v.cylinderRadius);
    w.u32le(v.cylinderEdge ? 1 : 0);
    w.f32le(v.cylinderHeight);
    for (float f : {v.point.x, v.point.y, v.point.z})
        w.f32le(f);
    cw.end(false);
    cw.end(true);
}

void writeEmitter(ChunkWriter& cw, const ParticleEmitter& e) {
    cw.begin(0x700);
    cw.begin(0x02);
    const auto* base = reinterpret_cast<const unsigned char*>(&e.params);
    for (const ParticlePropertyDef& d : particlePropertyTable()) {
        const unsigned char* p = base + d.offset;
        switch (d.kind) {
        case ParticlePropertyDef::Kind::Bool: {
            bool b;
            std::memcpy(&b, p, sizeof b);
            const uint8_t v = b ? 1 : 0;
            cw.mini(d.id, &v, 1);
            break;
        }
        case ParticlePropertyDef::Kind::U32:
        case ParticlePropertyDef::Kind::I32:
        case ParticlePropertyDef::Kind::F32:
            cw.mini(d.id, p, 4);
            break;
        case ParticlePropertyDef::Kind::Vec3:
            cw.mini(d.id, p, 12);
            break;
        case ParticlePropertyDef::Kind::Vec4:
            cw.mini(d.id, p, 16);
            break;
        }
    }
    for (const ParticleUnknown& u : e.unknown)
        if (u.chunk == 0x02 && u.mini >= 0) cw.mini(static_cast<uint8_t>(u.mini), u.bytes.data(), u.bytes.size());
    cw.end(false);
    cw.stringChunk(0x03, e.colorTexture);
    cw.stringChunk(0x16, e.name);
    cw.begin(0x29);
    for (const ParticleVolume* v : {&e.velocity, &e.lifetimeGroup, &e.position})
        writeVolume(cw, *v);
    cw.end(true);
    cw.begin(0x01);
    const ParticleTrack* tracks[] = {&e.red, &e.green, &e.blue, &e.alpha, &e.size, &e.frame, &e.rotationSpeed};
    for (int i = 0; i < 7; ++i)
        writeTrack(cw, *tracks[i], i < 4);
    cw.end(true);
    if (e.hasSpawnLinks || e.spawnOnDeath != -1 || e.spawnDuringLife != -1) {
        cw.begin(0x36);
        cw.mini(0x37, &e.spawnOnDeath, 4);
        cw.mini(0x39, &e.spawnDuringLife, 4);
        cw.end(false);
    }
    if (!e.bumpTexture.empty()) cw.stringChunk(0x45, e.bumpTexture);
    for (const ParticleUnknown& u : e.unknown)
        if (u.mini < 0) {
            cw.begin(u.chunk);
            cw.w.bytes(u.bytes.data(), u.bytes.size());
            cw.end(false);
        }
    cw.end(true);
}

} // namespace

std::vector<uint8_t> writeParticleSystem(const ParticleSystem& s) {
    ChunkWriter cw;
    cw.begin(0x900);
    cw.stringChunk(0x0000, s.name);
    cw.begin(0x0001);
    cw.w.u32le(s.id);
    cw.end(false);
    cw.begin(0x0800);
    for (const ParticleEmitter& e : s.emitters)
        writeEmitter(cw, e);
    cw.end(true);
    if (s.hasLeaveParticles) {
        cw.begin(0x0002);
        cw.w.u8(s.leaveParticles ? 1 : 0);
        cw.end(false);
    }
    for (const ParticleUnknown& u : s.unknown) {
        cw.begin(u.chunk);
        cw.w.bytes(u.bytes.data(), u.bytes.size());
        cw.end(false);
    }
    cw.end(true);
    return std::move(cw.w.buf);
}

} // namespace rs::alamo
