// W3D clips into dense per-frame tracks.
//
//   0x200 ANIMATION
//     0x201 header  {u32 version, name[16], hierarchy[16], u32 numFrames, u32 frameRate}      (44)
//     0x202 channel {u16 first, u16 last, u16 vectorLen, u16 type, u16 pivot, u16 pad,
//                    f32 data[(last-first+1) * vectorLen]}      type X=0 Y=1 Z=2 Q=6 (xyzw)
//     0x203 bits    {u16 first, u16 last, u16 type, u16 pivot, u8 default, bits LSB first}
//   0x280 COMPRESSED_ANIMATION
//     0x281 header  {u32 version, name[16], hierarchy[16], u32 numFrames, u16 frameRate, u16 flavor}
//     0x282 flavor 0 {u32 nKeys, u16 pivot, u8 vectorLen, u8 type, nKeys * {u32 time, f32[vectorLen]}}
//                    time bit 31: "binary movement" - hold the previous key until this one (step)
//     0x282 flavor 1 {u32 numFrames, u16 pivot, u8 vectorLen, u8 type, f32 scale, f32 initial[vectorLen],
//                    per 16-frame block, per component: u8 table index + 8 bytes of 4-bit deltas}
//     0x283 bits    {u32 n, u16 pivot, u8 type, u8 default, n * u32 (bit 31 value, bits 0-30 frame)}
//     0x284 motion  {u8 0, u8 deltaType (0 timecoded, 1 delta-4, 2 delta-8), u8 vectorLen, u8 type,
//                    u16 nKeys, u16 pivot; timecoded: u16 frames[nKeys] (padded to 4 bytes),
//                    f32 values[nKeys * vectorLen]; delta: f32 scale, f32 initial[vectorLen], blocks}
//
// Pose contract (EA htree.cpp): World[i] = World[parent] * Base[i] * T(anim) * R(anim), i.e.
// TrackMode::AdditiveToBind. Outside first..last an uncompressed channel is identity; a bit channel is its
// default. Pivot 0 carries the object transform in the game, so channels on it are ignored (reported).
#include "w3d/w3d_anim.h"
#include "common/warnings.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace rs::w3d {

namespace {

constexpr uint32_t kMaxFrames = 65536;          // frame indices are 16-bit in every uncompressed/motion channel
constexpr uint64_t kMaxDenseSamples = 1u << 22; // frames x animated pivots (~150 MB worst case)
// Decoded size bound. Frames up to the last one a channel stores (uncompressed last, adaptive-delta frame count)
// or keys (timecoded key times) are what the file describes; a header frame count beyond that only repeats the
// final values. Such a clip may decode to at most kDenseBytesPerByte x its chunk's size + kDenseBytesFixed
// (dense arrays: 12 bytes a frame for translation, 16 for rotation, 1 for visibility, 1 for step flags), else it
// is refused before the arrays are allocated. Real clips decode to at most ~6 x their file (the corpus); a frame
// count inflated by corruption decodes to hundreds of times the file.
constexpr uint64_t kDenseBytesPerByte = 16;
constexpr uint64_t kDenseBytesFixed = 64 * 1024;

enum ChannelType : uint32_t { X = 0, Y = 1, Z = 2, XR = 3, YR = 4, ZR = 5, Q = 6 };

struct PivotData {
    std::vector<glm::vec3> t; // dense once any X/Y/Z channel is present (absent axes stay 0)
    std::vector<glm::quat> q;
    std::vector<uint8_t> vis, step;
};

struct Builder {
    Clip clip;
    std::map<uint32_t, PivotData> pivots;
    uint64_t chunkBytes = 0;   // payload size of the clip chunk (the budget's base)
    uint64_t denseBytes = 0;   // bytes of dense arrays allocated so far
    uint32_t storedFrames = 0; // frames the channels describe (storedFrames())
    std::vector<std::string> codecs;
    size_t nonFinite = 0;
    bool rootIgnored = false;
    bool pre30 = false;
    // Channels the game ignores, by (bit channel, type): how many, and their distinct pivots in file order (the
    // first kMaxListedPivots kept, the rest counted). One warning per type in finish(), not one per pivot.
    static constexpr size_t kMaxListedPivots = 32;
    struct Ignored {
        size_t channels = 0, pivots = 0;
        std::vector<uint32_t> listed;
    };
    std::map<std::pair<bool, uint32_t>, Ignored> ignored;

    void ignore(bool bit, uint32_t type, uint32_t pivot) {
        Ignored& i = ignored[{bit, type}];
        ++i.channels;
        if (std::find(i.listed.begin(), i.listed.end(), pivot) != i.listed.end()) return;
        ++i.pivots; // a pivot past the listed ones is counted again when it repeats: a bound, not a census
        if (i.listed.size() < kMaxListedPivots) i.listed.push_back(pivot);
    }

    void addCodec(const std::string& c) {
        if (std::find(codecs.begin(), codecs.end(), c) == codecs.end()) codecs.push_back(c);
    }

    // Pivot slot; nullptr when the channel is to be ignored (pivot 0).
    PivotData* pivot(uint32_t p, const ByteReader& r) {
        if (pre30) p += 1;
        if (p == 0) {
            rootIgnored = true;
            return nullptr;
        }
        auto it = pivots.find(p);
        if (it == pivots.end()) {
            if (uint64_t(pivots.size() + 1) * clip.frameCount > kMaxDenseSamples)
                r.fail("clip animates too many pivots for its " + std::to_string(clip.frameCount) + " frames");
            it = pivots.emplace(p, PivotData{}).first;
        }
        return &it->second;
    }

    // Sizes `v` to frameCount entries of `init` unless already sized; refuses (ParseError via r) a clip whose
    // dense arrays would exceed the decoded size bound.
    template <class T> void dense(std::vector<T>& v, const T& init, const ByteReader& r) {
        if (!v.empty()) return;
        const uint64_t add = uint64_t(clip.frameCount) * sizeof(T);
        const uint64_t limit = kDenseBytesPerByte * chunkBytes + kDenseBytesFixed;
        if (clip.frameCount > storedFrames && denseBytes + add > limit)
            r.fail("clip " + clip.name + " declares " + std::to_string(clip.frameCount) +
                   " frames but its channels describe " + std::to_string(storedFrames) +
                   "; dense tracks would exceed " + std::to_string(limit) + " bytes (" +
                   std::to_string(kDenseBytesPerByte) + " x the " + std::to_string(chunkBytes) + "-byte clip chunk + " +
                   std::to_string(kDenseBytesFixed) + ")");
        denseBytes += add;
        v.assign(clip.frameCount, init);
    }
    void denseFor(PivotData& d, uint32_t type, const ByteReader& r) {
        if (type == Q)
            dense(d.q, glm::quat(1, 0, 0, 0), r);
        else
            dense(d.t, glm::vec3(0.0f), r);
    }

    float finite(float v) {
        if (std::isfinite(v)) return v;
        ++nonFinite;
        return 0.0f;
    }
    // The quaternion as the file gives it (ww3d2 keeps decoded values unnormalised: adaptive-delta streams drift
    // off unit length by up to ~1.3 %, and the engine builds its matrices from them as they are); identity only
    // when a component is not finite or the quaternion is (near) zero.
    glm::quat finiteQuat(float x, float y, float z, float w) {
        glm::quat q(w, x, y, z);
        float n = glm::dot(q, q);
        if (!std::isfinite(n) || n < 1e-12f) {
            ++nonFinite;
            return glm::quat(1, 0, 0, 0);
        }
        return q;
    }

    Clip finish(const std::string& fallbackCodec) {
        for (auto& [p, d] : pivots) {
            BoneTrack t;
            t.bone = int(p);
            t.mode = TrackMode::AdditiveToBind;
            t.translation = std::move(d.t);
            t.rotation = std::move(d.q);
            t.visibility = std::move(d.vis);
            if (std::find(d.step.begin(), d.step.end(), uint8_t(1)) != d.step.end()) t.step = std::move(d.step);
            if (t.translation.empty() && t.rotation.empty() && t.visibility.empty()) continue;
            clip.tracks.push_back(std::move(t));
        }
        std::string codec;
        for (const std::string& c : codecs)
            codec += (codec.empty() ? "" : "+") + c;
        clip.codec = codec.empty() ? fallbackCodec : codec;
        if (nonFinite)
            pushWarning(clip.warnings, 
                std::to_string(nonFinite) +
                " non-finite channel values (or zero quaternions) replaced by identity (0 / unit quaternion)");
        for (const auto& [key, i] : ignored) {
            const auto [bit, type] = key;
            std::string w = std::string(bit ? "bit channel type " : "channel type ") + std::to_string(type);
            if (!bit) w += type <= ZR ? " (Euler angle, unused by the game)" : " (unknown)";
            if (i.pivots == 1) {
                w += " on pivot " + std::to_string(i.listed.front());
            } else {
                w += " on " + std::to_string(i.pivots) + " pivots";
                if (i.channels != i.pivots) w += " (" + std::to_string(i.channels) + " channels)";
            }
            w += " ignored";
            if (i.pivots > 1) {
                for (size_t k = 0; k < i.listed.size(); ++k)
                    w += (k ? ", " : ": ") + std::to_string(i.listed[k]);
                if (i.pivots > i.listed.size()) w += " and " + std::to_string(i.pivots - i.listed.size()) + " more";
            }
            pushWarning(clip.warnings, w);
        }
        if (rootIgnored)
            pushWarning(clip.warnings, 
                "channels on pivot 0 (the root, which carries the object transform) are ignored, as "
                "in the game");
        return std::move(clip);
    }
};

void readHeaderCommon(ByteReader& r, Builder& b) {
    b.clip.version = int(r.u32le());
    b.clip.name = r.fixedString(16);
    b.clip.hierarchyName = r.fixedString(16);
    b.clip.frameCount = r.u32le();
    if (b.clip.frameCount > kMaxFrames)
        r.fail("frame count " + std::to_string(b.clip.frameCount) + " exceeds " + std::to_string(kMaxFrames));
}

void setFps(Builder& b, uint32_t fps) {
    if (fps == 0) {
        pushWarning(b.clip.warnings, "frame rate 0 in the header; playing at 30 fps");
        b.clip.fps = 30.0f;
    } else {
        b.clip.fps = float(fps);
    }
}

// Checks the channel type/vector length pair; returns false (with a warning) for types the game ignores.
bool channelKind(ByteReader& r, Builder& b, uint32_t type, uint32_t vectorLen, uint32_t pivot) {
    if (type <= Z) {
        if (vectorLen != 1) r.fail("translation channel with vector length " + std::to_string(vectorLen));
        return true;
    }
    if (type == Q) {
        if (vectorLen != 4) r.fail("quaternion channel with vector length " + std::to_string(vectorLen));
        return true;
    }
    if (vectorLen == 0 || vectorLen > 4) r.fail("channel vector length " + std::to_string(vectorLen));
    b.ignore(false, type, pivot);
    return false;
}

// Frames the channels of clip chunk c describe: the largest of (last stored frame + 1) over uncompressed and
// bit channels, adaptive-delta frame counts, and (last key time + 1) over timecoded channels. Reads channel
// headers only; channels too short to say are skipped and a malformed chunk ends the scan (the decoder
// reports them). No warnings, no exceptions.
uint32_t storedFrames(const Cursor& parent, const Chunk& c) {
    Cursor cur(c.payload, c.payloadOffset(), c.truncated, parent.fileName(), {}, nullptr);
    Chunk k;
    uint32_t flavor = 0, frames = 0;
    auto u16 = [](const ByteSpan& b, uint64_t o) {
        return o + 2 <= b.size ? uint32_t(b.data[o]) | uint32_t(b.data[o + 1]) << 8 : 0u;
    };
    auto u32 = [](const ByteSpan& b, uint64_t o) {
        return o + 4 <= b.size ? uint32_t(b.data[o]) | uint32_t(b.data[o + 1]) << 8 | uint32_t(b.data[o + 2]) << 16 |
                                     uint32_t(b.data[o + 3]) << 24
                               : 0u;
    };
    auto upTo = [&](uint64_t n) { frames = uint32_t(std::min<uint64_t>(std::max<uint64_t>(frames, n), kMaxFrames)); };
    for (;;) {
        try {
            if (!cur.next(k)) break;
        } catch (const ParseError&) {
            break;
        }
        const ByteSpan& p = k.payload;
        switch (k.id) {
        case id::CompressedAnimationHeader:
            flavor = u16(p, 42);
            break;
        case id::AnimationChannel:
        case id::BitChannel:
            if (p.size >= 4) upTo(uint64_t(u16(p, 2)) + 1);
            break;
        case id::CompressedAnimationChannel:
            if (p.size < 8) break;
            if (flavor == 1) {
                upTo(u32(p, 0));
            } else if (const uint32_t n = u32(p, 0); n > 0) {
                const uint64_t at = 8 + uint64_t(n - 1) * (4 + 4 * uint64_t(p.data[6]));
                if (at + 4 <= p.size) upTo(uint64_t(u32(p, at) & 0x7FFFFFFFu) + 1);
            }
            break;
        case id::CompressedBitChannel:
            if (const uint32_t n = u32(p, 0); n > 0 && 8 + uint64_t(n) * 4 <= p.size)
                upTo(uint64_t(u32(p, 8 + uint64_t(n - 1) * 4) & 0x7FFFFFFFu) + 1);
            break;
        case id::MotionChannel:
            if (p.size >= 8) {
                const uint32_t n = u16(p, 4);
                if (p.data[1] != 0)
                    upTo(n); // delta-4/delta-8: n frames
                else if (n > 0 && 8 + uint64_t(n) * 2 <= p.size)
                    upTo(uint64_t(u16(p, 8 + uint64_t(n - 1) * 2)) + 1);
            }
            break;
        default:
            break;
        }
    }
    return frames;
}

// Stores the decoded value of `type` at frame f (the array is sized: Builder::denseFor).
inline void store(PivotData& d, Builder& b, uint32_t type, uint32_t f, const float* v) {
    if (type == Q)
        d.q[f] = b.finiteQuat(v[0], v[1], v[2], v[3]);
    else
        d.t[f][type] = b.finite(v[0]);
}

// Stores v at frames [from, to) (from < to): converted once, non-finite values counted per frame as store() does.
void fill(PivotData& d, Builder& b, uint32_t type, uint32_t from, uint32_t to, const float* v) {
    const size_t before = b.nonFinite;
    if (type == Q) {
        const glm::quat q = b.finiteQuat(v[0], v[1], v[2], v[3]);
        std::fill(d.q.begin() + from, d.q.begin() + to, q);
    } else {
        const float x = b.finite(v[0]);
        for (uint32_t f = from; f < to; ++f)
            d.t[f][type] = x;
    }
    if (b.nonFinite != before) b.nonFinite += to - from - 1;
}

// Dense values from keys at integer frames (vectorLen floats a key); lerp / shortest-arc slerp between
// keys, `hold[k]` = key k+1 is a binary movement (key k's value is held until key k+1). Frame f takes
// the last key k with times[k] <= f (key 0 before the first key, the last key after it).
void denseFromKeys(PivotData& d, Builder& b, uint32_t type, uint32_t vectorLen, const std::vector<uint32_t>& times,
                   const std::vector<float>& vals, const std::vector<uint8_t>& binary, const ByteReader& r) {
    const uint32_t n = b.clip.frameCount;
    if (n == 0) return;
    b.denseFor(d, type, r);
    const size_t nk = times.size();
    const uint32_t first = std::min(times[0], n);
    if (first > 0) fill(d, b, type, 0, first, &vals[0]);
    for (size_t k = 0; k < nk; ++k) {
        const uint32_t lo = std::min(times[k], n), hi = k + 1 < nk ? std::min(times[k + 1], n) : n;
        if (lo >= hi) continue;
        const float* v0 = &vals[k * vectorLen];
        if (k + 1 >= nk) {
            fill(d, b, type, lo, hi, v0);
            continue;
        }
        if (binary[k + 1]) {
            fill(d, b, type, lo, hi, v0);
            b.dense(d.step, uint8_t(0), r);
            std::fill(d.step.begin() + lo, d.step.begin() + hi, uint8_t(1));
            continue;
        }
        const float* v1 = &vals[(k + 1) * vectorLen];
        const float span = float(times[k + 1] - times[k]);
        if (type != Q) {
            for (uint32_t f = lo; f < hi; ++f) {
                const float t = float(f - times[k]) / span;
                d.t[f][type] = b.finite(v0[0] + (v1[0] - v0[0]) * t);
            }
            continue;
        }
        // glm::slerp(q0, q1, t) with its per-segment terms (dot, acos, sin of the angle) computed once;
        // per frame the same float operations in the same order, so results are identical.
        const glm::quat q0(v0[3], v0[0], v0[1], v0[2]);
        glm::quat q1(v1[3], v1[0], v1[1], v1[2]);
        if (glm::dot(q0, q1) < 0.0f) q1 = -q1;
        glm::quat z = q1;
        float cosTheta = glm::dot(q0, q1);
        if (cosTheta < 0.0f) { // glm::slerp's own check (NaN-safe mirror of it)
            z = -q1;
            cosTheta = -cosTheta;
        }
        const bool linear = cosTheta > 1.0f - glm::epsilon<float>();
        const float angle = linear ? 0.0f : std::acos(cosTheta);
        const float sinAngle = linear ? 1.0f : std::sin(angle);
        for (uint32_t f = lo; f < hi; ++f) {
            const float t = float(f - times[k]) / span;
            glm::quat q;
            if (linear)
                q = glm::quat(glm::mix(q0.w, z.w, t), glm::mix(q0.x, z.x, t), glm::mix(q0.y, z.y, t),
                              glm::mix(q0.z, z.z, t));
            else
                q = (std::sin((1.0f - t) * angle) * q0 + std::sin(t * angle) * z) / sinAngle;
            d.q[f] = b.finiteQuat(q.x, q.y, q.z, q.w);
        }
    }
}

// Dense values from a decoded per-frame stream of `frames` frames (>= 1); the last frame holds after it.
void denseFromStream(PivotData& d, Builder& b, uint32_t type, uint32_t vectorLen, uint32_t frames,
                     const std::vector<float>& vals, const ByteReader& r) {
    const uint32_t n = b.clip.frameCount;
    if (n == 0) return;
    b.denseFor(d, type, r);
    const uint32_t m = std::min(n, frames);
    for (uint32_t f = 0; f < m; ++f)
        store(d, b, type, f, &vals[size_t(f) * vectorLen]);
    if (m < n) fill(d, b, type, m, n, &vals[size_t(frames - 1) * vectorLen]);
}

} // namespace

const float* adaptiveDeltaTable() {
    static const std::vector<float> table = [] {
        std::vector<float> t(256);
        for (int i = 0; i < 16; ++i)
            t[i] = float(std::pow(10.0, i - 8));
        for (int i = 0; i < 240; ++i)
            t[16 + i] = float(1.0 - std::sin(glm::radians(90.0 * i / 240.0)));
        return t;
    }();
    return table.data();
}

void decodeAdaptiveDelta(ByteReader& r, uint32_t numFrames, int vectorLen, int bits, float scale, const float* initial,
                         std::vector<float>& out) {
    const float* table = adaptiveDeltaTable();
    const size_t packet = 1 + size_t(bits) * 2;
    const uint64_t blocks = numFrames > 1 ? (uint64_t(numFrames) - 1 + 15) / 16 : 0;
    r.needCount(blocks * uint64_t(vectorLen), packet, "adaptive-delta packet");
    const uint8_t* data = r.cur();
    r.skip(size_t(blocks) * vectorLen * packet);
    const float unit = bits == 8 ? scale / 16.0f : scale;
    out.resize(size_t(numFrames) * vectorLen);
    for (int c = 0; c < vectorLen && numFrames > 0; ++c)
        out[c] = initial[c];
    for (uint32_t f = 1; f < numFrames; ++f) {
        const uint32_t b = (f - 1) / 16, j = (f - 1) % 16;
        for (int c = 0; c < vectorLen; ++c) {
            const uint8_t* p = data + (size_t(b) * vectorLen + c) * packet;
            int delta;
            if (bits == 4) {
                int nib = (j & 1) ? (p[1 + j / 2] >> 4) : (p[1 + j / 2] & 0xF);
                delta = nib >= 8 ? nib - 16 : nib;
            } else {
                delta = int(int8_t(uint8_t(p[1 + j] ^ 0x80)));
            }
            out[size_t(f) * vectorLen + c] = out[size_t(f - 1) * vectorLen + c] + float(delta) * table[p[0]] * unit;
        }
    }
}

Clip readAnimation(const Cursor& parent, const Chunk& c) {
    Builder b;
    b.clip.format = Format::W3d;
    b.chunkBytes = c.payload.size;
    b.storedFrames = storedFrames(parent, c);
    Cursor cur = parent.children(c);
    Chunk k;
    bool haveHeader = false;
    while (cur.next(k)) {
        ByteReader r = cur.data(k);
        if (k.id == id::AnimationHeader) {
            // A second header would change the frame count under arrays already sized by the first.
            if (haveHeader) r.failAt(0, "second animation header 0x201");
            readHeaderCommon(r, b);
            setFps(b, r.u32le());
            b.pre30 = uint32_t(b.clip.version) < 0x30000u;
            haveHeader = true;
            continue;
        }
        if (k.id != id::AnimationChannel && k.id != id::BitChannel) continue;
        if (!haveHeader) r.fail("channel before the animation header 0x201");
        const uint32_t first = r.u16le(), last = r.u16le();
        if (last < first)
            r.fail("channel last frame " + std::to_string(last) + " before first " + std::to_string(first));
        const uint32_t count = last - first + 1;
        if (k.id == id::AnimationChannel) {
            const uint32_t vectorLen = r.u16le(), type = r.u16le(), pivot = r.u16le();
            r.u16le();
            if (!channelKind(r, b, type, vectorLen, pivot)) continue;
            r.needCount(uint64_t(count) * vectorLen, 4, "channel value");
            PivotData* d = b.pivot(pivot, r);
            if (!d) continue;
            const uint32_t n = b.clip.frameCount;
            if (n > 0) b.denseFor(*d, type, r);
            const float identity[4] = {0.0f, 0.0f, 0.0f, 1.0f};
            if (first > 0) fill(*d, b, type, 0, std::min(first, n), identity);
            float v[4];
            for (uint32_t f = first; f <= last && f < n; ++f) {
                const uint8_t* p = r.cur() + size_t(f - first) * vectorLen * 4;
                for (uint32_t i = 0; i < vectorLen && i < 4; ++i) {
                    uint32_t u = uint32_t(p[i * 4]) | uint32_t(p[i * 4 + 1]) << 8 | uint32_t(p[i * 4 + 2]) << 16 |
                                 uint32_t(p[i * 4 + 3]) << 24;
                    std::memcpy(&v[i], &u, 4);
                }
                store(*d, b, type, f, v);
            }
            if (last + 1 < n) fill(*d, b, type, last + 1, n, identity);
            b.addCodec("uncompressed");
        } else {
            const uint32_t type = r.u16le(), pivot = r.u16le();
            const uint8_t def = r.u8();
            r.need((count + 7) / 8);
            const uint8_t* bits = r.cur();
            if (type > 1) {
                b.ignore(true, type, pivot);
                continue;
            }
            PivotData* d = b.pivot(pivot, r);
            if (!d) continue;
            d->vis.clear(); // a second channel on the pivot replaces the first
            b.dense(d->vis, uint8_t(def ? 1 : 0), r);
            for (uint32_t f = first; f <= last && f < b.clip.frameCount; ++f) {
                const uint32_t i = f - first;
                d->vis[f] = (bits[i / 8] >> (i % 8)) & 1;
            }
        }
    }
    if (!haveHeader) throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, "animation without header 0x201");
    return b.finish("uncompressed");
}

Clip readCompressedAnimation(const Cursor& parent, const Chunk& c) {
    Builder b;
    b.clip.format = Format::W3d;
    b.chunkBytes = c.payload.size;
    b.storedFrames = storedFrames(parent, c);
    Cursor cur = parent.children(c);
    Chunk k;
    bool haveHeader = false;
    uint32_t flavor = 0;
    std::vector<uint32_t> times;
    std::vector<float> vals;
    std::vector<uint8_t> binary;
    while (cur.next(k)) {
        ByteReader r = cur.data(k);
        if (k.id == id::CompressedAnimationHeader) {
            // A second header would change the frame count under arrays already sized by the first.
            if (haveHeader) r.failAt(0, "second compressed animation header 0x281");
            readHeaderCommon(r, b);
            setFps(b, r.u16le());
            flavor = r.u16le();
            if (flavor > 1) r.fail("unknown compressed animation flavor " + std::to_string(flavor));
            haveHeader = true;
            continue;
        }
        if (k.id != id::CompressedAnimationChannel && k.id != id::CompressedBitChannel && k.id != id::MotionChannel)
            continue;
        if (!haveHeader) r.fail("channel before the compressed animation header 0x281");
        if (k.id == id::CompressedAnimationChannel && flavor == 0) {
            const uint32_t nKeys = r.u32le(), pivot = r.u16le(), vectorLen = r.u8(), type = r.u8();
            if (!channelKind(r, b, type, vectorLen, pivot)) continue;
            if (nKeys == 0) r.fail("timecoded channel without keys");
            r.needCount(nKeys, 4 + 4 * size_t(vectorLen), "timecoded key");
            times.resize(nKeys);
            binary.resize(nKeys);
            vals.resize(size_t(nKeys) * vectorLen);
            for (uint32_t i = 0; i < nKeys; ++i) {
                const uint32_t tc = r.u32le();
                times[i] = tc & 0x7FFFFFFFu;
                binary[i] = (tc >> 31) & 1;
                if (i > 0 && times[i] < times[i - 1])
                    r.failAt(r.pos() - 4, "time code " + std::to_string(times[i]) + " before the previous key's " +
                                              std::to_string(times[i - 1]));
                for (uint32_t j = 0; j < vectorLen; ++j)
                    vals[size_t(i) * vectorLen + j] = r.f32le();
            }
            PivotData* d = b.pivot(pivot, r);
            if (d) denseFromKeys(*d, b, type, vectorLen, times, vals, binary, r);
            b.addCodec("timecoded");
        } else if (k.id == id::CompressedAnimationChannel) { // flavor 1: adaptive delta
            const uint32_t numFrames = r.u32le(), pivot = r.u16le(), vectorLen = r.u8(), type = r.u8();
            const float scale = r.f32le();
            if (!channelKind(r, b, type, vectorLen, pivot)) continue;
            if (numFrames == 0 || numFrames > kMaxFrames)
                r.fail("adaptive-delta channel with " + std::to_string(numFrames) + " frames");
            float initial[4];
            for (uint32_t j = 0; j < vectorLen; ++j)
                initial[j] = r.f32le();
            decodeAdaptiveDelta(r, numFrames, int(vectorLen), 4, scale, initial, vals);
            PivotData* d = b.pivot(pivot, r);
            if (d) denseFromStream(*d, b, type, vectorLen, numFrames, vals, r);
            b.addCodec("adaptive-delta");
        } else if (k.id == id::CompressedBitChannel) {
            const uint32_t n = r.u32le(), pivot = r.u16le(), type = r.u8(), def = r.u8();
            if (n == 0) r.fail("timecoded bit channel without keys");
            r.needCount(n, 4, "bit key");
            times.resize(n);
            binary.resize(n);
            for (uint32_t i = 0; i < n; ++i) {
                const uint32_t v = r.u32le();
                times[i] = v & 0x7FFFFFFFu;
                binary[i] = (v >> 31) & 1;
                if (i > 0 && times[i] < times[i - 1]) r.failAt(r.pos() - 4, "bit key frames out of order");
            }
            if (type > 1) {
                b.ignore(true, type, pivot);
                continue;
            }
            PivotData* d = b.pivot(pivot, r);
            if (!d) continue;
            d->vis.clear();                           // a second channel on the pivot replaces the first
            b.dense(d->vis, uint8_t(def ? 1 : 0), r); // before the first key: the default
            size_t key = 0;
            for (uint32_t f = 0; f < b.clip.frameCount; ++f) {
                while (key < n && times[key] <= f)
                    ++key;
                if (key > 0) d->vis[f] = binary[key - 1];
            }
        } else { // 0x284 BFME2 motion channel
            const uint32_t zero = r.u8(), deltaType = r.u8(), vectorLen = r.u8(), type = r.u8();
            const uint32_t nKeys = r.u16le(), pivot = r.u16le();
            if (zero != 0) r.failAt(0, "motion channel starts with " + std::to_string(zero) + ", expected 0");
            if (deltaType > 2) r.fail("unknown motion channel delta type " + std::to_string(deltaType));
            if (!channelKind(r, b, type, vectorLen, pivot)) continue;
            if (nKeys == 0) r.fail("motion channel without keys");
            PivotData* d = b.pivot(pivot, r);
            if (deltaType == 0) {
                r.needCount(nKeys, 2, "motion time code");
                times.resize(nKeys);
                binary.assign(nKeys, 0);
                for (uint32_t i = 0; i < nKeys; ++i) {
                    times[i] = r.u16le();
                    if (i > 0 && times[i] < times[i - 1]) r.failAt(r.pos() - 2, "motion time codes out of order");
                }
                if (nKeys % 2) r.skip(2);
                r.needCount(uint64_t(nKeys) * vectorLen, 4, "motion key value");
                vals.resize(size_t(nKeys) * vectorLen);
                for (float& v : vals)
                    v = r.f32le();
                if (d) denseFromKeys(*d, b, type, vectorLen, times, vals, binary, r);
                b.addCodec("motion-timecoded");
            } else {
                const float scale = r.f32le();
                float initial[4];
                for (uint32_t j = 0; j < vectorLen; ++j)
                    initial[j] = r.f32le();
                decodeAdaptiveDelta(r, nKeys, int(vectorLen), deltaType == 1 ? 4 : 8, scale, initial, vals);
                if (d) denseFromStream(*d, b, type, vectorLen, nKeys, vals, r);
                b.addCodec(deltaType == 1 ? "motion-delta4" : "motion-delta8");
            }
        }
    }
    if (!haveHeader)
        throw ParseError(parent.fileName(), parent.pathOf(c), c.offset, "compressed animation without header 0x281");
    return b.finish(flavor == 0 ? "timecoded" : "adaptive-delta");
}

} // namespace rs::w3d
