#include "w3d/w3d_fx.h"

#include "common/error.h"
#include "common/warnings.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rs::w3d {

namespace {

glm::vec3 v3(ByteReader& r) {
    const float x = r.f32le(), y = r.f32le(), z = r.f32le();
    return {x, y, z};
}
glm::vec2 v2(ByteReader& r) {
    const float x = r.f32le(), y = r.f32le();
    return {x, y};
}
glm::u8vec4 rgba(ByteReader& r) {
    const uint8_t a = r.u8(), b = r.u8(), c = r.u8(), d = r.u8();
    return {a, b, c, d};
}
Shader shader(ByteReader& r) {
    Shader s;
    r.need(16);
    std::memcpy(&s, r.cur(), 16);
    r.skip(16);
    return s;
}
EmitterRandomizer randomizer(ByteReader& r) {
    EmitterRandomizer z;
    z.classId = r.u32le();
    z.value = v3(r);
    r.skip(16);
    return z;
}
glm::vec3 rgb(glm::u8vec4 c) { return glm::vec3(c) / 255.0f; }

void note(std::vector<std::string>& w, const Cursor& cur, const Chunk& c, const std::string& msg) {
    pushWarning(w, cur.fileName() + ": chunk " + cur.pathOf(c).str() + " at offset " + std::to_string(c.offset) + ": " +
                       msg);
}

// Count keys of `size` bytes after the start key: n + 1 keys must fit in what is left.
void readKeyList(ByteReader& r, uint64_t count, std::vector<EmitterKey>& out, const char* what, bool color) {
    r.needCount(count, 8, what);
    out.reserve(size_t(count));
    for (uint64_t i = 0; i < count; ++i) {
        EmitterKey k;
        k.time = r.f32le();
        if (color)
            k.value = rgb(rgba(r));
        else
            k.value = glm::vec3(r.f32le(), 0.0f, 0.0f);
        out.push_back(k);
    }
    if (!out.empty()) out.front().time = 0.0f; // the start key: the engine ignores its time
}

void readKeyChunk(ByteReader r, EmitterKeyChannel& ch, size_t headerSize, bool hasOrientation) {
    const uint32_t n = r.u32le();
    ch.random = r.f32le();
    if (hasOrientation) ch.orientationRandom = r.f32le();
    r.skip(headerSize - (hasOrientation ? 12 : 8));
    if (n == 0xFFFFFFFFu) r.fail("keyframe count 4294967295 (the start key and n more are stored)");
    readKeyList(r, uint64_t(n) + 1, ch.keys, "keyframe", false);
    ch.present = true;
}

template <class T> T readValue(ByteReader& r);
template <> glm::vec3 readValue<glm::vec3>(ByteReader& r) { return v3(r); }
template <> glm::vec2 readValue<glm::vec2>(ByteReader& r) { return v2(r); }
template <> float readValue<float>(ByteReader& r) { return r.f32le(); }
template <> AlphaVector readValue<AlphaVector>(ByteReader& r) {
    AlphaVector a;
    const float x = r.f32le(), y = r.f32le(), z = r.f32le(), w = r.f32le();
    a.angle = glm::quat(w, x, y, z);
    a.intensity = r.f32le();
    return a;
}
template <class T> constexpr size_t valueSize();
template <> constexpr size_t valueSize<glm::vec3>() { return 12; }
template <> constexpr size_t valueSize<glm::vec2>() { return 8; }
template <> constexpr size_t valueSize<float>() { return 4; }
template <> constexpr size_t valueSize<AlphaVector>() { return 20; }

// PrimitiveAnimationChannelClass::Load: chunk 0x03150809 of micro-chunks {u8 id, u8 size, data}; id 1 = a key.
template <class T> void readChannel(const Cursor& cur, const Chunk& c, std::vector<PrimitiveKey<T>>& out) {
    Cursor ch = cur.children(c);
    Chunk v;
    out.clear();
    while (ch.next(v)) {
        if (v.id != fxid::PrimitiveChannelVariables) continue;
        ByteReader r = ch.data(v);
        out.reserve(r.remaining() / (2 + valueSize<T>() + 4)); // at most one key per key-sized micro-chunk
        while (!r.atEnd()) {
            const uint8_t id = r.u8();
            const uint8_t size = r.u8();
            ByteReader m = r.sub(size); // advances r past the micro-chunk
            if (id != 1) continue;
            if (size < valueSize<T>() + 4)
                m.fail("key micro-chunk of " + std::to_string(size) + " bytes (a key is " +
                       std::to_string(valueSize<T>() + 4) + ")");
            PrimitiveKey<T> k;
            k.value = readValue<T>(m);
            k.time = m.f32le();
            out.push_back(k);
        }
    }
}

template <class T> T lerpKeys(const std::vector<PrimitiveKey<T>>& k, float t) {
    const KeySpan<T> s = findKeySpan(k, t);
    return s.held ? s.a->value : s.a->value + (s.b->value - s.a->value) * s.p;
}

} // namespace

Emitter readEmitter(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings) {
    Emitter e;
    e.offset = c.offset;
    e.chunkPath = cur.pathOf(c).str();
    Cursor k = cur.children(c);
    Chunk s;
    bool header = false, info = false;
    while (k.next(s)) {
        ByteReader r = k.data(s);
        switch (s.id) {
        case fxid::EmitterHeader:
            e.version = r.u32le();
            e.name = r.fixedString(kNameLen);
            header = true;
            break;
        case fxid::EmitterUserData: {
            e.hasUserData = true;
            e.userType = r.u32le();
            const uint32_t n = r.u32le();
            r.skip(4); // the struct's char StringParam[1], padded: the engine reads 12 bytes, then the string
            r.need(n);
            e.userString = r.fixedString(n);
            break;
        }
        case fxid::EmitterInfo:
            e.texture = r.fixedString(260);
            e.startSize = r.f32le();
            e.endSize = r.f32le();
            e.lifetime = r.f32le();
            e.emissionRate = r.f32le();
            e.maxEmissions = r.f32le();
            e.velocityRandom = r.f32le();
            e.positionRandom = r.f32le();
            e.fadeTime = r.f32le();
            e.gravity = r.f32le();
            e.elasticity = r.f32le();
            e.velocity = v3(r);
            e.acceleration = v3(r);
            e.startColor = rgba(r);
            e.endColor = rgba(r);
            info = true;
            break;
        case fxid::EmitterInfoV2:
            e.hasInfoV2 = true;
            e.burstSize = r.u32le();
            e.creationVolume = randomizer(r);
            e.velocityRandomizer = randomizer(r);
            e.outwardVelocity = r.f32le();
            e.velocityInherit = r.f32le();
            e.shader = shader(r);
            e.renderMode = r.u32le();
            e.frameMode = r.u32le();
            r.skip(24);
            break;
        case fxid::EmitterProps: {
            e.hasProps = true;
            const uint32_t nc = r.u32le(), no = r.u32le(), ns = r.u32le();
            e.colorRandom = rgba(r);
            e.opacityRandom = r.f32le();
            e.sizeRandom = r.f32le();
            r.skip(16);
            // The engine allocates count - 1 keys and reads the start key even for a count of 0 (it then writes
            // through an array of 2^32 - 1 keys): such a chunk is refused.
            if (nc == 0 || no == 0 || ns == 0)
                r.failAt(0, "keyframe count 0 (colour " + std::to_string(nc) + ", opacity " + std::to_string(no) +
                                ", size " + std::to_string(ns) + "): each count includes the start key");
            readKeyList(r, nc, e.colorKeys, "colour keyframe", true);
            readKeyList(r, no, e.opacityKeys, "opacity keyframe", false);
            readKeyList(r, ns, e.sizeKeys, "size keyframe", false);
            break;
        }
        case fxid::EmitterLineProperties:
            e.hasLineProperties = true;
            e.lineFlags = r.u32le();
            e.lineSubdivision = r.u32le();
            e.lineNoise = r.f32le();
            e.lineMergeAbort = r.f32le();
            e.lineTextureTile = r.f32le();
            e.lineUPerSec = r.f32le();
            e.lineVPerSec = r.f32le();
            r.skip(36);
            break;
        case fxid::EmitterRotationKeys:
            readKeyChunk(r, e.rotation, 16, true);
            break;
        case fxid::EmitterFrameKeys:
            readKeyChunk(r, e.frame, 16, false);
            break;
        case fxid::EmitterBlurTimeKeys:
            readKeyChunk(r, e.blurTime, 12, false);
            break;
        case fxid::EmitterExtraInfo:
            e.hasExtraInfo = true;
            e.futureStartTime = r.f32le();
            r.skip(36);
            break;
        default:
            note(warnings, k, s,
                 "emitter sub-chunk not understood (" + std::to_string(s.declaredSize) + " bytes kept unread)");
            break;
        }
    }
    if (!header || !info)
        throw ParseError(cur.fileName(), cur.pathOf(c), c.offset,
                         std::string("emitter without its ") + (header ? "info chunk 0x503" : "header chunk 0x501") +
                             " (ww3d2 refuses to load it)");
    if (e.version > 0x10000 && (!e.hasInfoV2 || !e.hasProps))
        throw ParseError(cur.fileName(), cur.pathOf(c), c.offset,
                         "emitter version " + std::to_string(e.version >> 16) + "." +
                             std::to_string(e.version & 0xFFFF) + " without its " +
                             (e.hasInfoV2 ? "properties chunk 0x505" : "info v2 chunk 0x504") +
                             " (ww3d2 refuses to load it)");
    return e;
}

Sphere readSphere(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings) {
    Sphere s;
    Cursor k = cur.children(c);
    Chunk x;
    bool def = false;
    while (k.next(x)) {
        switch (x.id) {
        case fxid::PrimitiveDefinition: {
            ByteReader r = k.data(x);
            s.version = r.u32le();
            s.flags = r.u32le();
            s.name = r.fixedString(2 * kNameLen);
            s.center = v3(r);
            s.extent = v3(r);
            s.duration = r.f32le();
            s.color = v3(r);
            s.alpha = r.f32le();
            s.scale = v3(r);
            s.vector = readValue<AlphaVector>(r);
            s.texture = r.fixedString(2 * kNameLen);
            s.shader = shader(r);
            def = true;
            break;
        }
        case 2:
            readChannel(k, x, s.colorKeys);
            break;
        case 3:
            readChannel(k, x, s.alphaKeys);
            break;
        case 4:
            readChannel(k, x, s.scaleKeys);
            break;
        case 5:
            readChannel(k, x, s.vectorKeys);
            break;
        default:
            note(warnings, k, x, "sphere sub-chunk not understood");
            break;
        }
    }
    if (!def) throw ParseError(cur.fileName(), cur.pathOf(c), c.offset, "sphere without its definition chunk 1");
    return s;
}

Ring readRing(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings) {
    Ring g;
    Cursor k = cur.children(c);
    Chunk x;
    bool def = false;
    while (k.next(x)) {
        switch (x.id) {
        case fxid::PrimitiveDefinition: {
            ByteReader r = k.data(x);
            g.version = r.u32le();
            g.flags = r.u32le();
            g.name = r.fixedString(2 * kNameLen);
            g.center = v3(r);
            g.extent = v3(r);
            g.duration = r.f32le();
            g.color = v3(r);
            g.alpha = r.f32le();
            g.innerScale = v2(r);
            g.outerScale = v2(r);
            g.innerExtent = v2(r);
            g.outerExtent = v2(r);
            g.texture = r.fixedString(2 * kNameLen);
            g.shader = shader(r);
            g.textureTiles = r.i32le();
            def = true;
            break;
        }
        case 2:
            readChannel(k, x, g.colorKeys);
            break;
        case 3:
            readChannel(k, x, g.alphaKeys);
            break;
        case 4:
            readChannel(k, x, g.innerScaleKeys);
            break;
        case 5:
            readChannel(k, x, g.outerScaleKeys);
            break;
        default:
            note(warnings, k, x, "ring sub-chunk not understood");
            break;
        }
    }
    if (!def) throw ParseError(cur.fileName(), cur.pathOf(c), c.offset, "ring without its definition chunk 1");
    return g;
}

Aggregate readAggregate(const Cursor& cur, const Chunk& c, std::vector<std::string>& warnings) {
    Aggregate a;
    Cursor k = cur.children(c);
    Chunk x;
    bool header = false;
    while (k.next(x)) {
        ByteReader r = k.data(x);
        switch (x.id) {
        case fxid::AggregateHeader:
            a.version = r.u32le();
            a.name = r.fixedString(kNameLen);
            header = true;
            break;
        case fxid::AggregateInfo: {
            a.baseModel = r.fixedString(2 * kNameLen);
            const uint32_t n = r.u32le();
            r.needCount(n, 64, "aggregate sub-object");
            a.subObjects.reserve(n);
            for (uint32_t i = 0; i < n; ++i) {
                Aggregate::Sub s;
                s.object = r.fixedString(2 * kNameLen);
                s.bone = r.fixedString(2 * kNameLen);
                a.subObjects.push_back(std::move(s));
            }
            break;
        }
        case fxid::TextureReplacerInfo: {
            // ww3d2 (Renegade and Zero Hour agg_def.cpp, AggregateDefClass::Load_W3D) reads the header's count and
            // applies nothing ("Obsolete texture replacement chunk"): the replacers are named here, not applied.
            // {u32 count} + count x W3dTextureReplacerStruct (mesh path 15 x 32, bone path 15 x 32, old texture 260,
            // new texture 260, W3dTextureInfoStruct 12).
            a.hasTextureReplacers = true;
            if (r.remaining() < 4) break; // as the engine: a short header is skipped
            const uint32_t n = r.u32le();
            if (n == 0) break;
            constexpr size_t kReplacer = 15 * 32 * 2 + 260 * 2 + 12;
            std::string names;
            uint32_t whole = 0;
            for (; whole < n && r.remaining() >= kReplacer && whole < 8; ++whole) {
                r.skip(15 * 32 * 2);
                const std::string from = r.fixedString(260), to = r.fixedString(260);
                r.skip(12);
                names += (whole ? ", " : "") + (from.empty() ? std::string("?") : from) + " -> " +
                         (to.empty() ? std::string("?") : to);
            }
            note(warnings, k, x,
                 "aggregate " + a.name + ": " + std::to_string(n) + " texture replacer(s)" +
                     (names.empty() ? "" : " (" + names + ")") +
                     " not applied: ww3d2 reads chunk 0x603 as obsolete and applies none (agg_def.cpp)");
            break;
        }
        case fxid::AggregateClassInfo:
            a.hasClassInfo = true;
            a.originalClassId = r.u32le();
            a.flags = r.u32le();
            break;
        default:
            note(warnings, k, x, "aggregate sub-chunk not understood");
            break;
        }
    }
    if (!header) throw ParseError(cur.fileName(), cur.pathOf(c), c.offset, "aggregate without its header chunk 0x601");
    return a;
}

// ---------------------------------------------------------------------------------------------
// Simulation parameters

static W3dEmitterParams::Randomizer toRandomizer(const EmitterRandomizer& r) {
    W3dEmitterParams::Randomizer z;
    z.rawClass = r.classId;
    z.shape = r.classId <= 3 ? W3dEmitterParams::Volume(r.classId) : W3dEmitterParams::Volume::Unknown;
    z.value = r.value;
    return z;
}

static std::vector<W3dEmitterParams::Key> toKeys(const std::vector<EmitterKey>& k) {
    std::vector<W3dEmitterParams::Key> out;
    out.reserve(k.size());
    for (const EmitterKey& e : k)
        out.push_back({e.time, e.value});
    return out;
}

ParticleSystem toParticleSystem(const Emitter& e, const std::string& sourcePath) {
    ParticleSystem sys;
    sys.sourcePath = sourcePath;
    sys.format = Format::W3d;
    sys.name = e.name;
    ParticleEmitter pe;
    pe.name = e.name;
    pe.colorTexture = e.texture;
    W3dEmitterParams w;
    // ParticleEmitterClass: EmitRate = (unsigned)(1000 / rate) ms, 1000 ms for a rate <= 0; burst 0 -> 1.
    const float rate = std::isfinite(e.emissionRate) ? e.emissionRate : 0.0f;
    const double ms = rate > 0.0f ? std::floor(1000.0 / double(rate)) : 1000.0;
    w.interval = std::max(ms, 1.0) / 1000.0;
    const float maxE = std::isfinite(e.maxEmissions) ? e.maxEmissions : 0.0f;
    w.maxParticles = maxE >= 1.0f ? int64_t(std::min(maxE, 2.0e9f)) : 0;
    w.lifetime = e.lifetime;
    w.velocity = e.velocity;
    w.acceleration = e.acceleration;
    Shader sh = e.shader;
    if (e.version > 0x10000) {
        w.burst = e.burstSize ? e.burstSize : 1;
        w.creation = toRandomizer(e.creationVolume);
        w.velocityRandom = toRandomizer(e.velocityRandomizer);
        w.outwardVelocity = e.outwardVelocity;
        w.inheritVelocity = e.velocityInherit;
        w.color = toKeys(e.colorKeys);
        w.opacity = toKeys(e.opacityKeys);
        w.size = toKeys(e.sizeKeys);
        w.colorRandom = rgb(e.colorRandom);
        w.opacityRandom = e.opacityRandom;
        w.sizeRandom = e.sizeRandom;
        // Read_Props: a black last colour key with a colour randomizer becomes -random, so that every randomised
        // colour ends black.
        if (w.color.size() > 2 && w.color.back().value == glm::vec3(0.0f) &&
            (w.colorRandom.x > 0 || w.colorRandom.y > 0 || w.colorRandom.z > 0))
            w.color.back().value = -w.colorRandom;
        w.renderMode = e.renderMode;
        w.grid = 1u << std::min<uint32_t>(e.frameMode, 4);
    } else {
        // Convert_To_Ver2: a solid-box creation volume of PositionRandom / 1000, a velocity box of VelocityRandom,
        // start and end colours and opacities keyed at FadeTime, the start size (the additive sprite shader; the
        // engine picks the alpha one instead when the texture has an alpha channel).
        w.creation.value = glm::vec3(e.positionRandom / 1000.0f);
        w.velocityRandom.value = glm::vec3(e.velocityRandom);
        w.color = {{0.0f, rgb(e.startColor)}, {e.fadeTime, rgb(e.endColor)}};
        w.opacity = {{0.0f, glm::vec3(e.startColor.a / 255.0f, 0, 0)},
                     {e.fadeTime, glm::vec3(e.endColor.a / 255.0f, 0, 0)}};
        w.size = {{0.0f, glm::vec3(e.startSize, 0, 0)}};
        sh = Shader{};
        sh.srcBlend = 1;  // one
        sh.destBlend = 1; // one
        pe.notSimulated.push_back("version 1 emitter: additive even where the texture has alpha");
    }
    if (e.rotation.present) {
        w.rotation = toKeys(e.rotation.keys);
        w.rotationRandom = e.rotation.random;
        w.orientationRandom = e.rotation.orientationRandom;
    }
    if (e.frame.present) {
        w.frame = toKeys(e.frame.keys);
        w.frameRandom = e.frame.random;
    }
    // Blend from the shader: destination ONE is additive, SRC_ALPHA / ONE_MINUS_SRC_ALPHA alpha, ZERO / SRC_COLOR
    // modulate, destination ZERO opaque.
    if (sh.destBlend == 1)
        pe.blend = ParticleBlend::Additive;
    else if (sh.destBlend == 5 || sh.srcBlend == 2)
        pe.blend = ParticleBlend::Alpha;
    else if (sh.srcBlend == 0 && sh.destBlend == 2)
        pe.blend = ParticleBlend::Modulate;
    else if (sh.destBlend == 0)
        pe.blend = ParticleBlend::Opaque;
    else {
        pe.blend = ParticleBlend::Alpha;
        pe.notSimulated.push_back("shader blend (source " + std::to_string(sh.srcBlend) + ", destination " +
                                  std::to_string(sh.destBlend) + ") drawn as alpha");
    }
    pe.params.blendMode = uint32_t(pe.blend);
    pe.params.textureFrames = w.grid * w.grid;
    pe.params.lifetime = e.lifetime;
    // Line modes (particles/w3d_lines.h): 2 a line through the particles, 3/4 streaks of blur time.
    if (e.blurTime.present) {
        w.blurTime = toKeys(e.blurTime.keys);
        w.blurTimeRandom = e.blurTime.random;
    }
    w.line.flags = e.lineFlags;
    w.line.subdivision = e.lineSubdivision;
    w.line.noise = e.lineNoise;
    w.line.mergeAbort = e.lineMergeAbort;
    w.line.textureTile = e.lineTextureTile;
    w.line.uPerSec = e.lineUPerSec;
    w.line.vPerSec = e.lineVPerSec;
    if (w.renderMode > 4)
        pe.notSimulated.push_back("render mode " + std::to_string(w.renderMode) + " (unknown: drawn as quads)");
    if (w.renderMode == 2 && e.hasLineProperties &&
        (e.lineSubdivision != 0 || e.lineNoise != 0.0f || e.lineMergeAbort != 0.0f || e.lineTextureTile != 0.0f ||
         e.lineUPerSec != 0.0f || e.lineVPerSec != 0.0f))
        pe.notSimulated.push_back("line properties (subdivision, noise, merging, texture tiling and scrolling)");
    if ((w.renderMode == 3 || w.renderMode == 4) && e.blurTime.present && e.blurTime.random != 0.0f)
        pe.notSimulated.push_back("blur-time random offset");
    if (e.velocityInherit != 0.0f) pe.notSimulated.push_back("velocity inherited from a moving emitter");
    if (e.hasExtraInfo && e.futureStartTime != 0.0f) pe.notSimulated.push_back("future start time");
    if (w.creation.shape == W3dEmitterParams::Volume::Unknown)
        pe.notSimulated.push_back("creation volume class " + std::to_string(w.creation.rawClass) + " (none)");
    if (w.velocityRandom.shape == W3dEmitterParams::Volume::Unknown)
        pe.notSimulated.push_back("velocity randomizer class " + std::to_string(w.velocityRandom.rawClass) + " (none)");
    pe.w3d = std::move(w);
    sys.emitters.push_back(std::move(pe));
    for (const std::string& f : sys.emitters.back().notSimulated)
        sys.warnings.push_back(notSimulatedWarning(0, sys.emitters.back(), f));
    return sys;
}

// ---------------------------------------------------------------------------------------------
// Sphere and ring animation

glm::vec3 evaluateKeys(const std::vector<PrimitiveKey<glm::vec3>>& k, float t) { return lerpKeys(k, t); }
glm::vec2 evaluateKeys(const std::vector<PrimitiveKey<glm::vec2>>& k, float t) { return lerpKeys(k, t); }
float evaluateKeys(const std::vector<PrimitiveKey<float>>& k, float t) { return lerpKeys(k, t); }

float primitiveTime(float seconds, float duration, bool looping) {
    if (!(duration > 0.0f) || !std::isfinite(duration)) return 1.0f;
    float t = std::max(0.0f, seconds) / duration;
    if (!std::isfinite(t)) return 1.0f;
    if (looping && t > 1.0f) {
        t = std::fmod(t, 1.0f);
        if (t == 0.0f) t = 1.0f; // an exact multiple: the engine's subtraction leaves 1 (not > 1)
    }
    return t;
}

PrimitiveState sphereState(const Sphere& s, float seconds) {
    const float t = primitiveTime(seconds, s.duration, (s.flags & 8u) != 0);
    PrimitiveState st;
    st.color = s.colorKeys.empty() ? s.color : evaluateKeys(s.colorKeys, t);
    st.alpha = s.alphaKeys.empty() ? s.alpha : evaluateKeys(s.alphaKeys, t);
    st.scale = s.scaleKeys.empty() ? s.scale : evaluateKeys(s.scaleKeys, t);
    const glm::vec3 r = s.extent * st.scale;
    st.outerRadius = {r.x, r.y};
    st.innerRadius = {0.0f, 0.0f};
    return st;
}

PrimitiveState ringState(const Ring& g, float seconds) {
    const float t = primitiveTime(seconds, g.duration, (g.flags & 2u) != 0);
    PrimitiveState st;
    st.color = g.colorKeys.empty() ? g.color : evaluateKeys(g.colorKeys, t);
    st.alpha = g.alphaKeys.empty() ? g.alpha : evaluateKeys(g.alphaKeys, t);
    const glm::vec2 in = g.innerScaleKeys.empty() ? g.innerScale : evaluateKeys(g.innerScaleKeys, t);
    const glm::vec2 out = g.outerScaleKeys.empty() ? g.outerScale : evaluateKeys(g.outerScaleKeys, t);
    st.scale = glm::vec3(in, 0.0f);
    st.innerRadius = g.innerExtent * in;
    st.outerRadius = g.outerExtent * out;
    return st;
}

} // namespace rs::w3d
