// .ALA clip reader, formats 1 and 2.
//
//   0x1000 animation (C)
//     0x1001 header minis: 1 u32 frames, 2 f32 fps, 3 u32 bones,
//                          [11 u32 rotationFrameSize, 12 translationFrameSize, 13 scaleFrameSize]  <- format 2
//     0x1002 bone (C), one per animated bone
//       0x1003 minis: 4 name, 5 u32 index, 10 u32 unknown, 6 f32[3] translationOffset,
//                     7 translationScale, 8 scaleOffset, 9 scaleScale,
//                     [14 i16 translationIndex, 15 scaleIndex, 16 rotationIndex (0xFFFF = none),
//                      17 i16[4] default rotation]                                     <- format 2
//       0x1004 u16[3*frames] translation   0x1005 u16[3*frames] scale               <- format 1
//       0x1006 i16[4*frames] rotation, or i16[4] constant rotation                  <- format 1
//       0x1007 visibility bits, 0x1008 step bits (LSB first, (frames+7)/8 bytes)
//     0x100a u16 translations[frames][translationFrameSize]                         <- format 2,
//     0x1009 i16 rotations   [frames][rotationFrameSize]                               absent when
//     0x100b u16 scales      [frames][scaleFrameSize]                                  frame size is 0
//
// Frame sizes and indices count 16-bit words. Unpacking: v = offset + u16 * scale (per component);
// q = quat(w, x, y, z) of i16 / 32767. Local transform of a listed bone = T * R * S (Replace).
#include "alamo/alamo_reader.h"
#include "common/warnings.h"

#include "alamo/alamo_chunks.h"

#include <cmath>
#include <filesystem>

namespace rs::alamo {

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

struct BoneInfo {
    size_t track = 0;
    uint32_t idxT = kNone, idxS = kNone, idxR = kNone; // format 2, in words
    glm::vec3 tOffset{0.0f}, tScale{0.0f}, sOffset{1.0f}, sScale{0.0f};
    Chunk chunk;
};

inline uint16_t loadU16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

inline glm::quat unpackQuat(const uint8_t* p, bool& degenerate) {
    const float k = 1.0f / 32767.0f;
    glm::quat q(float(int16_t(loadU16(p + 6))) * k, float(int16_t(loadU16(p))) * k, float(int16_t(loadU16(p + 2))) * k,
                float(int16_t(loadU16(p + 4))) * k);
    // Kept as stored (alo-viewer hands the i16 / 32767 quaternion to D3DXMatrixTransformation unnormalised);
    // a (near) zero quaternion becomes identity.
    const float len2 = glm::dot(q, q);
    if (!(len2 > 1e-8f)) {
        degenerate = true;
        return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    }
    return q;
}

inline glm::vec3 unpackVec(const uint8_t* p, const glm::vec3& offset, const glm::vec3& scale) {
    return offset + glm::vec3(float(loadU16(p)), float(loadU16(p + 2)), float(loadU16(p + 4))) * scale;
}

class AlaReader {
  public:
    AlaReader(ByteSpan bytes, const std::string& file) : bytes_(bytes), file_(file) {}

    Clip read() {
        clip_.format = Format::AlamoClip;
        clip_.name = std::filesystem::path(file_).stem().string();
        ChunkCursor top(bytes_, file_, 0, bytes_.size, {});
        Chunk root;
        if (!top.next(root)) throw ParseError(file_, {}, 0, "empty file: no Alamo chunks");
        if (root.type != 0x1000) top.fail(root, "not an Alamo animation: first chunk is not 0x1000");
        ChunkCursor cur = top.children(root);
        Chunk c;
        bool haveHeader = false;
        Chunk dataT, dataR, dataS;
        bool haveT = false, haveR = false, haveS = false;
        while (cur.next(c)) {
            switch (c.type) {
            case 0x1001:
                if (haveHeader) cur.fail(c, "second animation header");
                readHeader(cur, c);
                haveHeader = true;
                break;
            case 0x1002:
                if (!haveHeader) cur.fail(c, "bone animation before the 0x1001 header");
                readBone(cur, c);
                break;
            case 0x100a:
                if (haveT) cur.fail(c, "second translation data chunk");
                dataT = c, haveT = true;
                break;
            case 0x1009:
                if (haveR) cur.fail(c, "second rotation data chunk");
                dataR = c, haveR = true;
                break;
            case 0x100b:
                if (haveS) cur.fail(c, "second scale data chunk");
                dataS = c, haveS = true;
                break;
            default:
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveHeader) top.fail(root, "animation without a 0x1001 header");
        if (clip_.tracks.size() != numBones_)
            warn_.add("header declares " + std::to_string(numBones_) + " animated bones, found " +
                                     std::to_string(clip_.tracks.size()));
        if (Chunk tail; top.next(tail)) warn_.add("skipped chunk " + tail.path + " after 0x1000");
        if (clip_.version == 2) {
            decodeBlock(cur, haveT ? &dataT : nullptr, frameT_, 3, "translation", root, &BoneInfo::idxT,
                        [](BoneTrack& t, BoneInfo& b, uint32_t f, const uint8_t* p) {
                            t.translation[f] = unpackVec(p, b.tOffset, b.tScale);
                        });
            decodeBlock(cur, haveR ? &dataR : nullptr, frameR_, 4, "rotation", root, &BoneInfo::idxR,
                        [this](BoneTrack& t, BoneInfo&, uint32_t f, const uint8_t* p) {
                            t.rotation[f] = unpackQuat(p, degenerate_);
                        });
            decodeBlock(cur, haveS ? &dataS : nullptr, frameS_, 3, "scale", root, &BoneInfo::idxS,
                        [](BoneTrack& t, BoneInfo& b, uint32_t f, const uint8_t* p) {
                            t.scale[f] = unpackVec(p, b.sOffset, b.sScale);
                        });
        } else if (haveT || haveR || haveS) {
            warn_.add("format-1 clip holds format-2 data chunks; ignored");
        }
        if (degenerate_) warn_.add("zero-length rotation quaternions replaced by identity");
        clip_.warnings = warn_.lines();
        return std::move(clip_);
    }

  private:
    void readHeader(ChunkCursor& cur, const Chunk& c) {
        MiniCursor minis(cur.data(c));
        uint8_t t;
        ByteReader m(ByteSpan(), file_);
        bool haveFrames = false, haveFps = false, haveBones = false;
        bool have11 = false, have12 = false, have13 = false;
        while (minis.next(t, m)) {
            switch (t) {
            case 1:
                clip_.frameCount = miniU32(m, t), haveFrames = true;
                break;
            case 2:
                clip_.fps = miniF32(m, t), haveFps = true;
                break;
            case 3:
                numBones_ = miniU32(m, t), haveBones = true;
                break;
            case 11:
                frameR_ = miniU32(m, t), have11 = true;
                break;
            case 12:
                frameT_ = miniU32(m, t), have12 = true;
                break;
            case 13:
                frameS_ = miniU32(m, t), have13 = true;
                break;
            default:
                warn_.add("skipped unknown mini-chunk", std::to_string(t) + " in " + c.path);
            }
        }
        if (!haveFrames || !haveFps || !haveBones) cur.fail(c, "header lacks frames, fps or bone count");
        if (have11 || have12 || have13) {
            if (!(have11 && have12 && have13)) cur.fail(c, "format-2 header lacks one of the frame sizes 11/12/13");
            clip_.version = 2;
        } else {
            clip_.version = 1;
        }
        clip_.codec = clip_.version == 2 ? "ala2" : "ala1";
        if (!(clip_.fps > 0.0f) || !std::isfinite(clip_.fps))
            warn_.add("fps " + std::to_string(clip_.fps) + " is not a positive number");
        // Each bone chunk is at least 8 bytes: bounds the reservation below.
        if (numBones_ > (bytes_.size - c.end) / 8)
            cur.fail(c, "bone count " + std::to_string(numBones_) + " exceeds what the file can hold");
        clip_.tracks.reserve(numBones_);
        bones_.reserve(numBones_);
    }

    // A bit track of (frames+7)/8 bytes into one byte per frame.
    void readBits(ChunkCursor& cur, const Chunk& c, std::vector<uint8_t>& out) {
        ByteReader r = cur.data(c);
        const uint64_t bytes = (uint64_t(clip_.frameCount) + 7) / 8;
        r.needCount(bytes, 1, "bit-track byte");
        out.resize(clip_.frameCount);
        const uint8_t* p = r.cur();
        for (uint32_t f = 0; f < clip_.frameCount; ++f)
            out[f] = (p[f >> 3] >> (f & 7)) & 1;
    }

    // Format-1 per-bone data chunk of frames * elemSize bytes.
    const uint8_t* frameData(ChunkCursor& cur, const Chunk& c, size_t elemSize, const char* what) {
        ByteReader r = cur.data(c);
        r.needCount(clip_.frameCount, elemSize, what);
        if (r.remaining() != size_t(clip_.frameCount) * elemSize)
            warn_.add(c.path + ": " + std::to_string(r.remaining()) + " bytes for " +
                                     std::to_string(clip_.frameCount) + " frames of " + what);
        return r.cur();
    }

    static uint32_t readIndex(ByteReader& m, uint8_t t) {
        if (m.remaining() == 2) {
            uint16_t v = m.u16le();
            return v == 0xFFFF ? kNone : v;
        }
        if (m.remaining() == 4) return m.u32le();
        m.fail("mini-chunk " + std::to_string(t) + " holds " + std::to_string(m.remaining()) +
               " bytes, expected a 16-bit index");
    }

    void readBone(ChunkCursor& parent, const Chunk& bc) {
        ChunkCursor cur = parent.children(bc);
        Chunk c;
        BoneTrack track;
        BoneInfo info;
        info.track = clip_.tracks.size();
        info.chunk = bc;
        bool haveHeader = false;
        const uint32_t n = clip_.frameCount;
        while (cur.next(c)) {
            if (!haveHeader && c.type != 0x1003) cur.fail(c, "bone data before the 0x1003 bone header");
            switch (c.type) {
            case 0x1003: {
                if (haveHeader) cur.fail(c, "second bone header");
                haveHeader = true;
                MiniCursor minis(cur.data(c));
                uint8_t t;
                ByteReader m(ByteSpan(), file_);
                bool haveIndex = false;
                while (minis.next(t, m)) {
                    switch (t) {
                    case 4:
                        track.boneName = miniString(m);
                        break;
                    case 5: {
                        uint32_t idx = miniU32(m, t);
                        if (idx > 0x7FFFFFFF) cur.fail(c, "bone index " + std::to_string(idx) + " out of range");
                        track.bone = static_cast<int>(idx);
                        haveIndex = true;
                        break;
                    }
                    case 6:
                        info.tOffset = miniVec3(m, t);
                        break;
                    case 7:
                        info.tScale = miniVec3(m, t);
                        break;
                    case 8:
                        info.sOffset = miniVec3(m, t);
                        break;
                    case 9:
                        info.sScale = miniVec3(m, t);
                        break;
                    case 10:
                        break; // unknown u32, always present, meaning not known
                    case 14:
                        info.idxT = readIndex(m, t);
                        break;
                    case 15:
                        info.idxS = readIndex(m, t);
                        break;
                    case 16:
                        info.idxR = readIndex(m, t);
                        break;
                    case 17: {
                        if (m.remaining() != 8) m.fail("default rotation mini-chunk 17 is not 8 bytes");
                        track.defaultRotation = unpackQuat(m.cur(), degenerate_);
                        break;
                    }
                    default:
                        warn_.add("skipped unknown mini-chunk", std::to_string(t) + " in " + c.path);
                    }
                }
                if (!haveIndex) cur.fail(c, "bone header lacks the bone index (mini-chunk 5)");
                break;
            }
            case 0x1004:
            case 0x1005: {
                if (clip_.version != 1) cur.fail(c, "format-1 data chunk in a format-2 clip");
                const uint8_t* p = frameData(cur, c, 6, c.type == 0x1004 ? "translation" : "scale");
                auto& out = c.type == 0x1004 ? track.translation : track.scale;
                const glm::vec3& off = c.type == 0x1004 ? info.tOffset : info.sOffset;
                const glm::vec3& sc = c.type == 0x1004 ? info.tScale : info.sScale;
                out.resize(n);
                for (uint32_t f = 0; f < n; ++f)
                    out[f] = unpackVec(p + 6 * size_t(f), off, sc);
                break;
            }
            case 0x1006: {
                if (clip_.version != 1) cur.fail(c, "format-1 data chunk in a format-2 clip");
                if (c.size() == 8) { // one quaternion: constant rotation
                    track.defaultRotation = unpackQuat(bytes_.data + c.begin, degenerate_);
                    break;
                }
                const uint8_t* p = frameData(cur, c, 8, "rotation");
                track.rotation.resize(n);
                for (uint32_t f = 0; f < n; ++f)
                    track.rotation[f] = unpackQuat(p + 8 * size_t(f), degenerate_);
                break;
            }
            case 0x1007:
                readBits(cur, c, track.visibility);
                break;
            case 0x1008:
                readBits(cur, c, track.step);
                break;
            default:
                warn_.add("skipped unknown chunk", c.path);
            }
        }
        if (!haveHeader) parent.fail(bc, "bone animation without a 0x1003 header");
        // Replace-mode constants: offsets stand in for absent channels.
        track.mode = TrackMode::Replace;
        track.defaultTranslation = info.tOffset;
        track.defaultScale = info.sOffset;
        if (clip_.version == 2) {
            auto check = [&](uint32_t idx, uint32_t frameSize, uint32_t width, const char* what) {
                if (idx != kNone && (uint64_t(idx) + width > frameSize))
                    parent.fail(bc, std::string(what) + " index " + std::to_string(idx) + " + " +
                                        std::to_string(width) + " exceeds the frame size " + std::to_string(frameSize) +
                                        " (words)");
            };
            check(info.idxT, frameT_, 3, "translation");
            check(info.idxR, frameR_, 4, "rotation");
            check(info.idxS, frameS_, 3, "scale");
        }
        clip_.tracks.push_back(std::move(track));
        bones_.push_back(info);
    }

    // Format 2: decodes one interleaved data chunk (frames x frameSize words) into the tracks that index it.
    template <class Fn>
    void decodeBlock(ChunkCursor& cur, const Chunk* c, uint32_t frameSize, uint32_t width, const char* what,
                     const Chunk& root, uint32_t BoneInfo::*idx, Fn&& store) {
        size_t used = 0;
        for (const BoneInfo& b : bones_)
            used += b.*idx != kNone;
        if (used == 0 || clip_.frameCount == 0) return;
        // Bones may share a slot (an exporter may deduplicate), so the decoded size is not bounded by the
        // data chunk alone: cap it at a fixed multiple of the file size.
        const uint64_t decoded =
            uint64_t(used) * clip_.frameCount * (width == 4 ? sizeof(glm::quat) : sizeof(glm::vec3));
        decodedBytes_ += decoded;
        const uint64_t budget = 32 * uint64_t(bytes_.size) + (16u << 20);
        if (decodedBytes_ > budget)
            cur.fail(root, std::to_string(used) + " bones x " + std::to_string(clip_.frameCount) + " frames of " +
                               what + " would decode to " + std::to_string(decodedBytes_) + " bytes, more than " +
                               std::to_string(budget) + " for a file of " + std::to_string(bytes_.size) + " bytes");
        if (!c) cur.fail(root, std::string("bones index ") + what + " data but the clip has no " + what + " chunk");
        ByteReader r = cur.data(*c);
        const uint64_t words = uint64_t(clip_.frameCount) * frameSize;
        r.needCount(words, 2, what);
        if (r.remaining() != words * 2)
            warn_.add(c->path + ": " + std::to_string(r.remaining()) + " bytes, expected " +
                                     std::to_string(words * 2));
        const uint8_t* base = r.cur();
        const size_t stride = size_t(frameSize) * 2;
        for (BoneInfo& b : bones_) {
            if (b.*idx == kNone) continue;
            BoneTrack& t = clip_.tracks[b.track];
            if (width == 4)
                t.rotation.resize(clip_.frameCount);
            else if (idx == &BoneInfo::idxT)
                t.translation.resize(clip_.frameCount);
            else
                t.scale.resize(clip_.frameCount);
            const uint8_t* p = base + size_t(b.*idx) * 2;
            for (uint32_t f = 0; f < clip_.frameCount; ++f, p += stride)
                store(t, b, f, p);
        }
    }

    ByteSpan bytes_;
    const std::string& file_;
    Clip clip_;
    WarningLog warn_; // one line per kind in clip_.warnings
    std::vector<BoneInfo> bones_;
    uint32_t numBones_ = 0, frameR_ = 0, frameT_ = 0, frameS_ = 0;
    bool degenerate_ = false;
    uint64_t decodedBytes_ = 0;
};

} // namespace

Clip readClip(ByteSpan bytes, const std::string& file) { return AlaReader(bytes, file).read(); }

} // namespace rs::alamo
