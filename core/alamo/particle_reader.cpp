#include "alamo/particle_reader.h"

#include "alamo/alamo_chunks.h"
#include "common/warnings.h"

#include <cmath>
#include <cstring>

namespace rs::alamo {

namespace {

using K = ParticlePropertyDef::Kind;
#define RS_PROP(id, name, kind, field)                                                                                 \
    ParticlePropertyDef { id, name, kind, offsetof(ParticleEmitterParams, field) }

} // namespace

const std::vector<ParticlePropertyDef>& particlePropertyTable() {
    static const std::vector<ParticlePropertyDef> kTable = {
        RS_PROP(0x04, "blend_mode", K::U32, blendMode),
        RS_PROP(0x05, "triangles_minus_one", K::U32, trianglesMinusOne),
        RS_PROP(0x07, "use_bursts", K::Bool, useBursts),
        RS_PROP(0x43, "use_link_strength", K::Bool, useLinkStrength),
        RS_PROP(0x08, "link_to_system", K::Bool, linkToSystem),
        RS_PROP(0x09, "inward_speed", K::F32, inwardSpeed),
        RS_PROP(0x0A, "acceleration", K::Vec3, acceleration),
        RS_PROP(0x0C, "gravity", K::F32, gravity),
        RS_PROP(0x0F, "lifetime", K::F32, lifetime),
        RS_PROP(0x12, "random_scale", K::F32, randomScale),
        RS_PROP(0x13, "random_lifetime", K::F32, randomLifetime),
        RS_PROP(0x10, "texture_frames", K::U32, textureFrames),
        RS_PROP(0x14, "emitter_index", K::U32, emitterIndex),
        RS_PROP(0x17, "random_rotation_variance", K::F32, randomRotationVariance),
        RS_PROP(0x0B, "inward_acceleration", K::F32, inwardAcceleration),
        RS_PROP(0x23, "random_rotation_direction", K::Bool, randomRotationDirection),
        RS_PROP(0x24, "initial_delay", K::F32, initialDelay),
        RS_PROP(0x25, "burst_delay", K::F32, burstDelay),
        RS_PROP(0x26, "particles_per_burst", K::U32, particlesPerBurst),
        RS_PROP(0x27, "burst_count", K::I32, burstCount),
        RS_PROP(0x28, "parent_link_strength", K::F32, parentLinkStrength),
        RS_PROP(0x2A, "particles_per_second", K::U32, particlesPerSecond),
        RS_PROP(0x2C, "random_color", K::Vec4, randomColor),
        RS_PROP(0x2D, "color_add_grayscale", K::Bool, colorAddGrayscale),
        RS_PROP(0x2E, "world_oriented", K::Bool, worldOriented),
        RS_PROP(0x2F, "ground_behavior", K::U32, groundBehavior),
        RS_PROP(0x30, "bounciness", K::F32, bounciness),
        RS_PROP(0x31, "affected_by_wind", K::Bool, affectedByWind),
        RS_PROP(0x32, "freeze_time", K::F32, freezeTime),
        RS_PROP(0x33, "skip_time", K::F32, skipTime),
        RS_PROP(0x34, "emit_from_mesh", K::U32, emitFromMesh),
        RS_PROP(0x35, "object_space_acceleration", K::Bool, objectSpaceAcceleration),
        RS_PROP(0x3B, "heat_particle", K::Bool, heatParticle),
        RS_PROP(0x3C, "emit_from_mesh_offset", K::F32, emitFromMeshOffset),
        RS_PROP(0x3D, "weather_particle", K::Bool, weatherParticle),
        RS_PROP(0x3E, "weather_cube_size", K::F32, weatherCubeSize),
        RS_PROP(0x40, "weather_fadeout_distance", K::F32, weatherFadeoutDistance),
        RS_PROP(0x41, "has_tail", K::Bool, hasTail),
        RS_PROP(0x42, "tail_size", K::F32, tailSize),
        RS_PROP(0x46, "no_depth_test", K::Bool, noDepthTest),
        RS_PROP(0x47, "weather_cube_distance", K::F32, weatherCubeDistance),
        RS_PROP(0x48, "random_rotation", K::Bool, randomRotation),
    };
    return kTable;
}
#undef RS_PROP

namespace {

constexpr size_t kVolumeBytes = 64;
constexpr int kTrackCount = 7;

class ParticleReader {
  public:
    ParticleReader(ByteSpan bytes, const std::string& file) : bytes_(bytes), file_(file) {}

    ParticleSystem read() {
        ParticleSystem sys;
        sys.sourcePath = file_;
        ChunkCursor top(bytes_, file_, 0, bytes_.size, {});
        Chunk root;
        if (!top.next(root)) throw ParseError(file_, {}, 0, "empty file: no particle system chunk");
        if (root.type == 0x1500)
            top.fail(root, "Alamo particle system format 2 (chunk 0x1500) is not supported; only format 1 (0x900)");
        if (root.type != 0x900)
            top.fail(root, "not an Alamo particle system: expected chunk 0x900, found " + hex(root.type));
        Chunk extra;
        if (top.next(extra)) top.fail(extra, "data after the particle system chunk");

        ChunkCursor cur = top.children(root);
        Chunk c;
        bool haveName = false, haveId = false, haveEmitters = false;
        while (cur.next(c)) {
            switch (c.type) {
            case 0x0000:
                once(cur, c, haveName);
                sys.name = cur.data(c).restAsCString();
                break;
            case 0x0001: {
                once(cur, c, haveId);
                ByteReader r = cur.data(c);
                if (r.size() != 4) cur.fail(c, "id chunk holds " + std::to_string(r.size()) + " bytes, expected 4");
                sys.id = r.u32le();
                break;
            }
            case 0x0800: {
                once(cur, c, haveEmitters);
                ChunkCursor ec = cur.children(c);
                Chunk e;
                while (ec.next(e)) {
                    if (e.type != 0x0700) ec.fail(e, "expected an emitter chunk 0x700, found " + hex(e.type));
                    sys.emitters.push_back(readEmitter(ec, e));
                }
                break;
            }
            case 0x0002: {
                once(cur, c, sys.hasLeaveParticles);
                ByteReader r = cur.data(c);
                if (r.size() != 1)
                    cur.fail(c, "leave-particles chunk holds " + std::to_string(r.size()) + " bytes, expected 1");
                sys.leaveParticles = r.u8() != 0;
                break;
            }
            default: {
                ParticleUnknown u;
                u.chunk = c.type;
                u.offset = c.begin;
                if (!c.container) u.bytes.assign(bytes_.data + c.begin, bytes_.data + c.end);
                sys.unknown.push_back(std::move(u));
                sys.warnings.push_back("unknown chunk " + c.path + " (" + std::to_string(c.size()) +
                                       " bytes) kept, not interpreted");
            }
            }
        }
        if (!haveName) throw ParseError(file_, root.path, root.header, "particle system has no name chunk 0x0");
        if (!haveEmitters)
            throw ParseError(file_, root.path, root.header, "particle system has no emitters chunk 0x800");
        checkLinks(sys);
        std::vector<bool> unknownMini(256, false);
        std::string minis;
        for (const ParticleEmitter& e : sys.emitters)
            for (const ParticleUnknown& u : e.unknown) {
                if (u.mini < 0) {
                    sys.warnings.push_back("emitter \"" + e.name + "\": unknown chunk " + hex(u.chunk) +
                                           " kept, not interpreted");
                } else if (!unknownMini[u.mini]) {
                    unknownMini[u.mini] = true;
                    minis += (minis.empty() ? "" : ", ") + hex(uint32_t(u.mini));
                }
            }
        if (!minis.empty())
            sys.warnings.push_back(std::string(kUnknownMiniChunksWarning) + " (kept raw, see \"unknown\"): " + minis);
        for (std::string& w : repeats_.lines())
            sys.warnings.push_back(std::move(w));
        for (size_t i = 0; i < sys.emitters.size(); ++i)
            for (const std::string& n : sys.emitters[i].notSimulated)
                sys.warnings.push_back(notSimulatedWarning(i, sys.emitters[i], n));
        return sys;
    }

  private:
    WarningLog repeats_; // property mini-chunks given twice in one emitter

    void once(const ChunkCursor& cur, const Chunk& c, bool& seen) {
        if (seen) cur.fail(c, "chunk " + hex(c.type) + " appears twice");
        seen = true;
    }

    ParticleEmitter readEmitter(const ChunkCursor& parent, const Chunk& ec) {
        ParticleEmitter e;
        ChunkCursor cur = parent.children(ec);
        Chunk c;
        bool props = false, tex = false, name = false, vols = false, tracks = false, spawn = false, bump = false;
        while (cur.next(c)) {
            switch (c.type) {
            case 0x02:
                once(cur, c, props);
                readProperties(cur, c, e);
                break;
            case 0x03:
                once(cur, c, tex);
                e.colorTexture = cur.data(c).restAsCString();
                break;
            case 0x16:
                once(cur, c, name);
                e.name = cur.data(c).restAsCString();
                break;
            case 0x29:
                once(cur, c, vols);
                readVolumes(cur, c, e);
                break;
            case 0x01:
                once(cur, c, tracks);
                readTracks(cur, c, e);
                break;
            case 0x36:
                once(cur, c, spawn);
                readSpawn(cur, c, e);
                break;
            case 0x45:
                once(cur, c, bump);
                e.bumpTexture = cur.data(c).restAsCString();
                break;
            default: {
                ParticleUnknown u;
                u.chunk = c.type;
                u.offset = c.begin;
                if (!c.container) u.bytes.assign(bytes_.data + c.begin, bytes_.data + c.end);
                e.unknown.push_back(std::move(u));
            }
            }
        }
        if (!props) parent.fail(ec, "emitter has no properties chunk 0x02");
        if (!tex) parent.fail(ec, "emitter has no colour texture chunk 0x03");
        if (!vols) parent.fail(ec, "emitter has no volumes chunk 0x29");
        if (!tracks) parent.fail(ec, "emitter has no tracks chunk 0x01");
        e.hasSpawnLinks = spawn;
        describeUnsimulated(e);
        return e;
    }

    // Mini-chunks are applied in file order, so a property given twice keeps its last value: the engine's reader
    // (as alo-viewer's ReadProperties reproduces it) assigns each mini-chunk's value as it meets it. Each repeat
    // is reported (file, chunk path, offset of the repeated mini-chunk's payload).
    void readProperties(const ChunkCursor& cur, const Chunk& c, ParticleEmitter& e) {
        const auto& table = particlePropertyTable();
        std::vector<bool> seen(256, false);
        MiniCursor mc(cur.data(c));
        uint8_t id;
        ByteReader m(ByteSpan(), file_);
        auto* base = reinterpret_cast<unsigned char*>(&e.params);
        while (mc.next(id, m)) {
            if (seen[id])
                repeats_.add(file_ + ": property mini-chunk repeated; its last value is used, as the engine reads "
                                     "mini-chunks in order:",
                             hex(id) + " in chunk " + c.path.str() + " at offset " + std::to_string(m.absOffset()));
            seen[id] = true;
            const ParticlePropertyDef* def = nullptr;
            for (const auto& d : table)
                if (d.id == id) def = &d;
            if (!def) {
                ParticleUnknown u;
                u.chunk = 0x02;
                u.mini = id;
                u.offset = m.absOffset();
                u.bytes.assign(m.cur(), m.cur() + m.remaining());
                e.unknown.push_back(std::move(u));
                continue;
            }
            void* dst = base + def->offset;
            switch (def->kind) {
            case K::Bool: {
                if (m.remaining() != 1)
                    m.fail("mini-chunk " + std::to_string(id) + " holds " + std::to_string(m.remaining()) +
                           " bytes, expected 1");
                const bool v = m.u8() != 0;
                std::memcpy(dst, &v, sizeof v);
                break;
            }
            case K::U32:
            case K::I32: {
                const uint32_t v = miniU32(m, id);
                std::memcpy(dst, &v, 4);
                break;
            }
            case K::F32: {
                const float v = miniF32(m, id);
                std::memcpy(dst, &v, 4);
                break;
            }
            case K::Vec3: {
                const glm::vec3 v = miniVec3(m, id);
                std::memcpy(dst, &v, sizeof v);
                break;
            }
            case K::Vec4: {
                const glm::vec4 v = miniVec4(m, id);
                std::memcpy(dst, &v, sizeof v);
                break;
            }
            }
        }
        e.blend = e.params.blendMode <= 13 ? static_cast<ParticleBlend>(e.params.blendMode) : ParticleBlend::Unknown;
    }

    ParticleVolume readVolume(ByteReader& r) {
        ParticleVolume v;
        v.rawShape = r.u32le();
        v.shape = v.rawShape <= 4 ? static_cast<ParticleVolume::Shape>(v.rawShape) : ParticleVolume::Shape::Unknown;
        v.min = r.vec3le();
        v.max = r.vec3le();
        v.sideLength = r.f32le();
        v.sphereRadius = r.f32le();
        v.sphereEdge = r.u32le() != 0;
        v.cylinderRadius = r.f32le();
        v.cylinderEdge = r.u32le() != 0;
        v.cylinderHeight = r.f32le();
        v.point = r.vec3le();
        return v;
    }

    void readVolumes(const ChunkCursor& parent, const Chunk& c, ParticleEmitter& e) {
        ParticleVolume* dst[3] = {&e.velocity, &e.lifetimeGroup, &e.position};
        ChunkCursor cur = parent.children(c);
        Chunk g;
        int n = 0;
        while (cur.next(g)) {
            if (g.type != 0x1100) cur.fail(g, "expected a volume chunk 0x1100, found " + hex(g.type));
            if (n == 3) cur.fail(g, "more than 3 volume chunks");
            ChunkCursor inner = cur.children(g);
            Chunk d;
            if (!inner.next(d) || d.type != 0x1101) cur.fail(g, "volume chunk has no 0x1101 data chunk");
            ByteReader r = inner.data(d);
            if (r.size() != kVolumeBytes)
                inner.fail(d, "volume data holds " + std::to_string(r.size()) + " bytes, expected 64");
            *dst[n++] = readVolume(r);
            Chunk more;
            if (inner.next(more)) inner.fail(more, "unexpected chunk after the volume data");
        }
        if (n != 3) parent.fail(c, "expected 3 volume chunks, found " + std::to_string(n));
    }

    static bool validTime(float t) { return std::isfinite(t) && t >= 0.0f && t <= 1.0f; }

    void readTracks(const ChunkCursor& parent, const Chunk& c, ParticleEmitter& e) {
        ParticleTrack* dst[kTrackCount] = {&e.red, &e.green, &e.blue, &e.alpha, &e.size, &e.frame, &e.rotationSpeed};
        ChunkCursor cur = parent.children(c);
        Chunk h, k;
        for (int i = 0; i < kTrackCount; ++i) {
            const bool colour = i < 4;
            if (!cur.next(h) || h.type != 0x00)
                parent.fail(c, "track " + std::to_string(i) + ": expected a track header chunk 0x0");
            ParticleTrack t;
            t.keys.clear();
            float first = 0, last = 0;
            bool haveFirst = false, haveLast = false, haveInterp = false;
            MiniCursor hm(cur.data(h));
            uint8_t id;
            ByteReader m(ByteSpan(), file_);
            while (hm.next(id, m)) {
                if (id == 2 || id == 3) {
                    float v;
                    if (colour) {
                        if (m.remaining() != 1)
                            m.fail("colour track end mini-chunk holds " + std::to_string(m.remaining()) +
                                   " bytes, expected 1");
                        v = m.u8() / 255.0f;
                    } else {
                        v = miniF32(m, id);
                    }
                    (id == 2 ? first : last) = v;
                    (id == 2 ? haveFirst : haveLast) = true;
                } else if (id == 4) {
                    t.rawInterp = miniU32(m, id);
                    t.interp = t.rawInterp <= 2 ? static_cast<ParticleTrack::Interp>(t.rawInterp)
                                                : ParticleTrack::Interp::Unknown;
                    haveInterp = true;
                } else {
                    m.fail("unexpected mini-chunk " + std::to_string(id) + " in a track header");
                }
            }
            if (!haveFirst || !haveLast || !haveInterp)
                cur.fail(h, "track " + std::to_string(i) + " header lacks its first, last or interpolation mini-chunk");
            t.keys.push_back({0.0f, first});
            if (!cur.next(k) || k.type != 0x01)
                parent.fail(c, "track " + std::to_string(i) + ": expected a key chunk 0x1");
            MiniCursor km(cur.data(k));
            while (km.next(id, m)) {
                if (id != 5) m.fail("unexpected mini-chunk " + std::to_string(id) + " in a track key list");
                if (m.remaining() != 8)
                    m.fail("track key mini-chunk holds " + std::to_string(m.remaining()) + " bytes, expected 8");
                float v;
                if (colour) {
                    const uint32_t raw = m.u32le();
                    if (raw > 255) m.failAt(m.pos() - 4, "colour key value " + std::to_string(raw) + " exceeds 255");
                    v = raw / 255.0f;
                } else {
                    v = m.f32le();
                }
                const float time = m.f32le();
                if (!validTime(time) || time < t.keys.back().x)
                    m.failAt(m.pos() - 4, "track key time " + std::to_string(time) +
                                              " outside [previous key, 1] (keys must be ordered within the life)");
                t.keys.push_back({time, v});
            }
            t.keys.push_back({1.0f, last});
            *dst[i] = std::move(t);
        }
        Chunk more;
        if (cur.next(more)) cur.fail(more, "unexpected chunk after the 7 tracks");
    }

    void readSpawn(const ChunkCursor& cur, const Chunk& c, ParticleEmitter& e) {
        MiniCursor mc(cur.data(c));
        uint8_t id;
        ByteReader m(ByteSpan(), file_);
        bool death = false, life = false;
        while (mc.next(id, m)) {
            if (id == 0x37 && !death) {
                e.spawnOnDeath = static_cast<int32_t>(miniU32(m, id));
                death = true;
            } else if (id == 0x39 && !life) {
                e.spawnDuringLife = static_cast<int32_t>(miniU32(m, id));
                life = true;
            } else {
                m.fail("unexpected or repeated mini-chunk " + std::to_string(id) + " in the spawn chunk");
            }
        }
        spawnOffsets_.push_back(c.header);
        spawnPaths_.push_back(c.path);
    }

    // Spawn links must name another emitter, and following them must never come back (the simulation recurses).
    void checkLinks(const ParticleSystem& sys) {
        const int n = static_cast<int>(sys.emitters.size());
        size_t linkChunk = 0;
        for (int i = 0; i < n; ++i) {
            const ParticleEmitter& e = sys.emitters[i];
            if (!e.hasSpawnLinks) continue;
            for (int32_t target : {e.spawnOnDeath, e.spawnDuringLife})
                if (target != -1 && (target < 0 || target >= n || target == i))
                    throw ParseError(file_, spawnPaths_[linkChunk], spawnOffsets_[linkChunk],
                                     "emitter " + std::to_string(i) + " spawns emitter " + std::to_string(target) +
                                         " (valid: another of the " + std::to_string(n) + " emitters or -1)");
            ++linkChunk;
        }
        // Cycle check: depth-first colouring.
        std::vector<int> state(n, 0);
        for (int i = 0; i < n; ++i)
            if (state[i] == 0 && cyclic(sys, i, state))
                throw ParseError(file_, "0x900/0x800", 0,
                                 "emitter spawn links form a cycle through emitter " + std::to_string(i));
    }
    static bool cyclic(const ParticleSystem& sys, int i, std::vector<int>& state) {
        state[i] = 1;
        for (int32_t t : {sys.emitters[i].spawnOnDeath, sys.emitters[i].spawnDuringLife}) {
            if (t < 0) continue;
            if (state[t] == 1) return true;
            if (state[t] == 0 && cyclic(sys, t, state)) return true;
        }
        state[i] = 2;
        return false;
    }

    static void describeUnsimulated(ParticleEmitter& e) {
        const ParticleEmitterParams& p = e.params;
        auto add = [&](const std::string& s) { e.notSimulated.push_back(s); };
        if (e.blend == ParticleBlend::Unknown) add("blend mode " + std::to_string(p.blendMode) + " unknown");
        if (p.emitFromMesh != 0)
            add("emits from the proxy's mesh (mode " + std::to_string(p.emitFromMesh) +
                "): not simulated, particles start in the position volume");
        if (p.groundBehavior != 0) add("ground behaviour " + std::to_string(p.groundBehavior) + ": no ground, ignored");
        if (p.affectedByWind) add("affected by wind: no wind, ignored");
        if (p.weatherParticle) add("weather particle: ignored");
        if (p.freezeTime != 0.0f) add("freeze time (meaning unknown): ignored");
        if (e.position.shape == ParticleVolume::Shape::Unknown)
            add("position volume shape " + std::to_string(e.position.rawShape) + " unknown: sampled as its point");
        if (e.velocity.shape == ParticleVolume::Shape::Unknown)
            add("velocity volume shape " + std::to_string(e.velocity.rawShape) + " unknown: sampled as its point");
        for (const ParticleTrack* t : {&e.red, &e.green, &e.blue, &e.alpha, &e.size, &e.frame, &e.rotationSpeed})
            if (t->interp == ParticleTrack::Interp::Unknown) {
                add("track interpolation " + std::to_string(t->rawInterp) + " unknown: sampled linearly");
                break;
            }
    }

    ByteSpan bytes_;
    const std::string& file_;
    std::vector<size_t> spawnOffsets_;
    std::vector<std::string> spawnPaths_;
};

} // namespace

ParticleSystem readParticleSystem(ByteSpan bytes, const std::string& file) {
    return ParticleReader(bytes, file).read();
}

} // namespace rs::alamo
