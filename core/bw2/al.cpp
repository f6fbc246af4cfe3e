#include "bw2/al.h"
#include "common/warnings.h"


#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rs::bw2 {

static_assert(kAlHeaderSize == 4 + 4 + 64 + 4 * 4 + 2 * 4, "al header");
static_assert(kAlBoneSize == 32 + 4, "al bone");
static_assert(kAlAnimHeaderSize == 4 + 4 + 64 + 3 * 4 + 2 * 4 + 3 * 4 + 3 * 4 + 4 + 6 * 4, "animation header");
static_assert(kAlEventSize == 8 + 16 * 4, "animation event");

namespace {

glm::i16vec3 readS16x3(ByteReader& r) {
    glm::i16vec3 v;
    v.x = r.i16le();
    v.y = r.i16le();
    v.z = r.i16le();
    return v;
}

std::string idx(const char* what, size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

AlAnimHeader readAnimHeader(ByteReader& r) {
    AlAnimHeader h;
    const size_t at = r.pos();
    h.magic = r.u32le();
    if (h.magic != kAlMagic) r.failAt(at, "animation header magic " + hex(h.magic) + " (expected 0xfec)");
    h.version = r.u32le();
    h.name = r.fixedString(64);
    h.type = r.u32le();
    h.eventStringSize = r.u32le();
    h.offsetBlockSize = r.u32le();
    h.unknown1[0] = r.u32le();
    h.unknown1[1] = r.u32le();
    h.eventCount = r.u32le();
    h.boneCount = r.u32le();
    h.frameCount = r.u32le();
    h.samplingRate = r.f32le();
    h.duration = r.f32le();
    h.distance = r.f32le();
    h.cyclic = r.u8() != 0;
    h.hierarchical = r.u8() != 0;
    h.flags = r.u16le();
    for (auto& u : h.unknown2)
        u = r.u32le();
    return h;
}

// NUL-terminated string at [begin, end) of the buffer; fails naming fieldAt when it does not fit.
std::string stringAt(const ByteReader& r, size_t begin, size_t end, size_t fieldAt, const char* what) {
    if (begin >= end) r.failAt(fieldAt, std::string(what) + " offset outside the animation's event strings");
    const char* p = reinterpret_cast<const char*>(r.data() + begin);
    size_t n = 0;
    while (begin + n < end && p[n] != 0)
        ++n;
    if (begin + n >= end) r.failAt(fieldAt, std::string(what) + " is not NUL-terminated inside the event strings");
    return std::string(p, n);
}

} // namespace

glm::mat4 AlEvent::matrix() const {
    glm::mat4 m;
    for (int row = 0; row < 4; ++row)
        for (int c = 0; c < 4; ++c)
            m[row][c] = transform[row * 4 + c];
    return m;
}

glm::quat decompressRotation(const glm::i16vec3& v) {
    const float k = 1.0f / 32767.0f;
    float x = float(v.x) * k, y = float(v.y) * k, z = float(v.z) * k;
    float w2 = 1.0f - (x * x + y * y + z * z);
    return glm::quat(w2 > 0.0f ? std::sqrt(w2) : 0.0f, x, y, z);
}

glm::i16vec3 compressRotation(glm::quat q) {
    q = glm::normalize(q);
    if (q.w < 0.0f) q = -q;
    auto c = [](float f) { return int16_t(std::lround(std::clamp(f, -1.0f, 1.0f) * 32767.0f)); };
    return glm::i16vec3(c(q.x), c(q.y), c(q.z));
}

AlFile parseAl(ByteSpan bytes, const std::string& file) {
    AlFile f;
    ByteReader r(bytes, file, "header");
    if (bytes.size < 4 || r.u32le() != kAlMagic) r.failAt(0, "not a Black & White 2 animation library (magic 0xFEC)");
    f.unknown = r.u32le();
    f.name = r.fixedString(64);
    const size_t metaOffsetAt = r.pos();
    f.metadataOffset = r.u32le();
    f.size = r.u32le();
    f.animationOffset = r.u32le();
    const size_t countAt = r.pos();
    const uint32_t animCount = r.u32le();
    f.unknown2[0] = r.f32le();
    f.unknown2[1] = r.f32le();
    if (uint64_t(f.size) + kAlHeaderSize != bytes.size)
        pushWarning(f.warnings, "size field " + std::to_string(f.size) + " does not match the file size " +
                             std::to_string(bytes.size) + " - 96");

    const uint64_t metaAt = uint64_t(kAlHeaderSize) + f.metadataOffset;
    if (metaAt > bytes.size)
        r.failAt(metaOffsetAt, "metadata offset " + std::to_string(f.metadataOffset) + " past the end of the file");

    // Armature: [0x60, metaAt)
    {
        ByteReader ar(ByteSpan(bytes.data + kAlHeaderSize, size_t(metaAt - kAlHeaderSize)), file, "armature",
                      kAlHeaderSize);
        const size_t countPos = ar.pos();
        uint32_t nb = ar.u32le();
        f.armatureUnknown = ar.u32le();
        ar.needCount(nb, kAlBoneSize, "bone");
        f.bones.resize(nb);
        for (size_t i = 0; i < nb; ++i) {
            ar.setContext("armature/" + idx("bones", i));
            AlBone& b = f.bones[i];
            b.name = ar.fixedString(32);
            const size_t parentAt = ar.pos();
            b.parent = ar.i32le();
            if (b.parent == int32_t(i)) ar.failAt(parentAt, "bone " + std::to_string(i) + " is its own parent");
            if (b.parent < -1 || b.parent >= int32_t(i))
                ar.failAt(parentAt, "parent " + std::to_string(b.parent) + " of bone " + std::to_string(i) +
                                        " is not an earlier bone (-1 or 0.." + std::to_string(int(i) - 1) + ")");
        }
        (void)countPos;
        f.armatureExtra.assign(ar.cur(), ar.cur() + ar.remaining());
    }

    // Metadata table
    r.seek(size_t(metaAt));
    r.setContext("metadata");
    if (animCount > (bytes.size - size_t(metaAt)) / kAlMetadataSize)
        r.failAt(countAt, "animation count " + std::to_string(animCount) + " exceeds the " +
                              std::to_string(bytes.size - size_t(metaAt)) + " bytes after the metadata offset");
    f.animations.resize(animCount);
    std::vector<size_t> offsetFieldAt(animCount);
    for (size_t i = 0; i < animCount; ++i) {
        r.setContext(idx("metadata", i));
        f.animations[i].meta = readAnimHeader(r);
        offsetFieldAt[i] = r.pos();
        f.animations[i].offset = r.u32le();
    }

    for (size_t ai = 0; ai < animCount; ++ai) {
        AlAnimation& a = f.animations[ai];
        const std::string ctx = idx("animations", ai);
        if (uint64_t(a.offset) + kAlAnimHeaderSize > bytes.size)
            throw ParseError(file, idx("metadata", ai), offsetFieldAt[ai],
                             "animation offset " + std::to_string(a.offset) + " past the end of the file");
        ByteReader ar(ByteSpan(bytes.data, bytes.size), file, ctx + "/header");
        ar.seek(a.offset);
        a.header = readAnimHeader(ar);
        const AlAnimHeader& h = a.header;
        if (h.name != a.meta.name || h.frameCount != a.meta.frameCount || h.boneCount != a.meta.boneCount ||
            h.eventCount != a.meta.eventCount)
            pushWarning(f.warnings, "animation " + std::to_string(ai) + " (" + h.name +
                                 "): metadata table and animation header disagree; the animation header is used");
        if (h.version != 9)
            pushWarning(f.warnings, "animation " + std::to_string(ai) + ": version " + std::to_string(h.version) +
                                 " (9 known)");
        if (h.boneCount != f.bones.size())
            pushWarning(f.warnings, "animation " + std::to_string(ai) + " (" + h.name + ") has " +
                                 std::to_string(h.boneCount) + " bones, the armature " +
                                 std::to_string(f.bones.size()));

        // Events and their strings
        ar.setContext(ctx + "/events");
        ar.needCount(h.eventCount, kAlEventSize, "event");
        std::vector<std::array<uint32_t, 2>> nameOffsets(h.eventCount);
        std::vector<size_t> eventAt(h.eventCount);
        a.events.resize(h.eventCount);
        for (size_t e = 0; e < h.eventCount; ++e) {
            eventAt[e] = ar.pos();
            nameOffsets[e][0] = ar.u32le();
            nameOffsets[e][1] = ar.u32le();
            for (float& v : a.events[e].transform)
                v = ar.f32le();
        }
        ar.setContext(ctx + "/eventStrings");
        const size_t stringsBegin = ar.pos();
        ar.need(h.eventStringSize);
        const size_t stringsEnd = stringsBegin + h.eventStringSize;
        for (size_t e = 0; e < h.eventCount; ++e) {
            auto in = [&](uint32_t rel, size_t fieldAt, const char* what) {
                uint64_t abs = uint64_t(a.offset) + rel;
                if (abs < stringsBegin || abs >= stringsEnd)
                    ar.failAt(fieldAt, std::string(what) + " offset " + std::to_string(rel) +
                                           " outside the event strings of the animation");
                return stringAt(ar, size_t(abs), stringsEnd, fieldAt, what);
            };
            ar.setContext(ctx + "/" + idx("events", e));
            a.events[e].bone = in(nameOffsets[e][0], eventAt[e], "bone name");
            a.events[e].name = in(nameOffsets[e][1], eventAt[e] + 4, "event name");
        }
        ar.seek(stringsEnd);

        // Unknown block
        ar.setContext(ctx + "/unknownBlock");
        uint32_t n = ar.u32le();
        for (float& v : a.unknownFloats)
            v = ar.f32le();
        ar.needCount(n, 1, "unknown block byte");
        a.unknownBlock.assign(ar.cur(), ar.cur() + n);
        ar.skip(n);

        // Offset block
        ar.setContext(ctx + "/offsetBlock");
        const size_t obAt = ar.pos();
        if (uint64_t(h.frameCount) * 8 > h.offsetBlockSize)
            ar.failAt(obAt, "offset block of " + std::to_string(h.offsetBlockSize) + " bytes is smaller than " +
                                std::to_string(h.frameCount) + " frames x 8");
        ar.need(h.offsetBlockSize);
        a.frameOffsets.resize(h.frameCount);
        for (auto& fo : a.frameOffsets) {
            fo[0] = ar.u32le();
            fo[1] = ar.u32le();
        }
        const size_t rest = h.offsetBlockSize - size_t(h.frameCount) * 8;
        a.offsetBlockRest.assign(ar.cur(), ar.cur() + rest);
        ar.skip(rest);

        // Keyframe block
        ar.setContext(ctx + "/keyframes");
        a.rotationsPerFrame = ar.u32le();
        a.positionsPerFrame = ar.u32le();
        for (auto& b : a.unknown32)
            b = ar.u8();
        a.posComp = ar.vec3le();
        a.point = ar.vec3le();
        ar.needCount(h.boneCount, 28, "frame-zero bone");
        a.frameZeroRotations.resize(h.boneCount);
        a.frameZeroPositions.resize(h.boneCount);
        for (auto& q : a.frameZeroRotations) {
            float x = ar.f32le(), y = ar.f32le(), z = ar.f32le(), w = ar.f32le();
            q = glm::quat(w, x, y, z);
        }
        for (auto& p : a.frameZeroPositions)
            p = ar.vec3le();
        const uint64_t later = h.frameCount > 0 ? h.frameCount - 1 : 0;
        const uint64_t n0 = later * a.rotationsPerFrame, n1 = later * a.positionsPerFrame;
        ar.needCount(n0, 6, "compressed rotation");
        a.first.resize(size_t(n0));
        for (auto& v : a.first)
            v = readS16x3(ar);
        ar.needCount(n1, 6, "compressed second-block entry");
        a.second.resize(size_t(n1));
        for (auto& v : a.second)
            v = readS16x3(ar);
    }
    return f;
}

AlDecodeStatus decodeStatus(const AlAnimation& a, size_t armatureBones, bool interpret) {
    AlDecodeStatus s;
    const uint32_t frames = a.header.frameCount;
    s.decoded = {"header", "events (bone, name, transform)",
                 "frame 0: rotation (float quaternion x,y,z,w) and position per bone"};
    s.rotationsInterpreted =
        interpret && frames > 1 && a.rotationsPerFrame == a.header.boneCount && a.header.boneCount > 0;
    if (frames > 1) {
        if (s.rotationsInterpreted)
            s.interpreted.push_back("rotations of frames 1.." + std::to_string(frames - 1) +
                                    ": first block as one compressed quaternion per bone in bone order "
                                    "(s16 x,y,z / 32767, w reconstructed >= 0)");
        else
            s.notDecoded.push_back("rotations of frames 1.." + std::to_string(frames - 1) + " (" +
                                   std::to_string(a.rotationsPerFrame) + " compressed entries a frame for " +
                                   std::to_string(a.header.boneCount) + " bones): frame 0 held");
        s.notDecoded.push_back("positions of frames 1.." + std::to_string(frames - 1) + " (second block, " +
                               std::to_string(a.positionsPerFrame) + " entries a frame): frame 0 held");
    }
    if (frames > 2 && a.positionsPerFrame > 0)
        s.ambiguous.push_back(
            "frames 2.." + std::to_string(frames - 1) + ": the second compressed block is not empty (" +
            std::to_string(a.positionsPerFrame) +
            " entries a frame, unk2[1]), so where these frames' compressed entries lie differs between the two public "
            "layouts (bw2-modding al.md: its ImHex pattern stores the first block for every frame and then the "
            "second, which is read here; its prose stores both blocks frame by frame); frame 1 is the same in both");
    s.notDecoded.push_back("event times (not stored with the events)");
    s.notDecoded.push_back("offset block (" + std::to_string(a.frameOffsets.size()) +
                           " pairs, one a frame), unknown block (" + std::to_string(a.unknownBlock.size()) + " bytes)");
    (void)armatureBones;
    return s;
}

Model armatureModel(const AlFile& f, const std::string& file) {
    Model m;
    m.format = Format::Bw2Library;
    m.sourcePath = file;
    for (const auto& b : f.bones) {
        Bone bone;
        bone.name = b.name;
        bone.parent = b.parent;
        m.skeleton.bones.push_back(std::move(bone));
    }
    m.warnings = f.warnings;
    pushWarning(m.warnings, "the armature stores no bind pose: bones sit at the origin until a clip or a .bwm skin "
                         "gives them one");
    return m;
}

Clip toClip(const AlFile& f, size_t ai, const AlReadOptions& opt) {
    const AlAnimation& a = f.animations.at(ai);
    const AlAnimHeader& h = a.header;
    Clip c;
    c.format = Format::Bw2Library;
    c.name = h.name;
    c.hierarchyName = f.name;
    c.version = int(h.version);
    c.frameCount = h.frameCount;
    if (std::isfinite(h.samplingRate) && h.samplingRate > 0.0f && h.samplingRate < 10000.0f) {
        c.fps = h.samplingRate;
    } else {
        c.fps = 30.0f;
        pushWarning(c.warnings, "sampling rate " + std::to_string(h.samplingRate) + " is not usable; 30 fps assumed");
    }
    AlDecodeStatus st = decodeStatus(a, f.bones.size(), opt.interpretCompressed);
    c.codec =
        st.rotationsInterpreted
            ? "al: frame 0 exact; frames 1..N-1 rotations interpreted, positions held at frame 0"
            : (h.frameCount > 1 ? "al: frame 0 exact; frames 1..N-1 not decoded (frame 0 held)" : "al: frame 0 exact");
    if (!h.hierarchical)
        pushWarning(c.warnings, "animation is not flagged hierarchical; its frame-0 transforms are applied as "
                             "parent-relative anyway");
    for (const auto& s : st.interpreted)
        pushWarning(c.warnings, "interpretation: " + s);
    for (const auto& s : st.notDecoded)
        pushWarning(c.warnings, "not decoded: " + s);
    for (const auto& s : st.ambiguous)
        pushWarning(c.warnings, "ambiguous: " + s);

    const size_t nb = std::min<size_t>(h.boneCount, f.bones.size());
    const size_t frames = h.frameCount;
    for (size_t b = 0; b < nb; ++b) {
        BoneTrack t;
        t.bone = int(b);
        t.boneName = f.bones[b].name;
        t.mode = TrackMode::Replace;
        t.translation = {a.frameZeroPositions[b]};
        glm::quat q0 = a.frameZeroRotations[b];
        float len = glm::length(q0);
        q0 = (std::isfinite(len) && len > 1e-6f) ? q0 / len : glm::quat(1, 0, 0, 0);
        if (st.rotationsInterpreted) {
            t.rotation.resize(frames);
            t.rotation[0] = q0;
            for (size_t fr = 1; fr < frames; ++fr)
                t.rotation[fr] = decompressRotation(a.first[(fr - 1) * a.rotationsPerFrame + b]);
        } else {
            t.rotation = {q0};
        }
        t.defaultTranslation = a.frameZeroPositions[b];
        t.defaultRotation = q0;
        c.tracks.push_back(std::move(t));
    }
    for (const auto& e : a.events) {
        ClipEvent ev;
        ev.name = e.name;
        ev.boneName = e.bone;
        ev.frameKnown = false;
        ev.frame = 0.0f;
        ev.transform = e.matrix();
        c.events.push_back(std::move(ev));
    }
    return c;
}

uint32_t peekAlBoneCount(ByteSpan bytes, const std::string& file) {
    ByteReader r(bytes, file, "header");
    if (bytes.size < 4 || r.u32le() != kAlMagic) r.failAt(0, "not a Black & White 2 animation library (magic 0xFEC)");
    r.seek(kAlHeaderSize);
    r.setContext("armature");
    return r.u32le();
}

static bool readerName(const std::string& n, size_t i) { return n == "bone_" + std::to_string(i); }

bool libraryFits(const Model& skin, const Skeleton& armature, std::string* why) {
    const auto& sb = skin.skeleton.bones;
    if (sb.size() != armature.bones.size()) {
        if (why)
            *why = "bone counts differ: skin " + std::to_string(sb.size()) + ", library " +
                   std::to_string(armature.bones.size());
        return false;
    }
    for (size_t i = 0; i < sb.size(); ++i) {
        if (readerName(sb[i].name, i)) continue;
        if (!iequals(sb[i].name, armature.bones[i].name)) {
            if (why)
                *why = "bone " + std::to_string(i) + " is " + sb[i].name + " in the skin, " + armature.bones[i].name +
                       " in the library";
            return false;
        }
    }
    if (why) why->clear();
    return true;
}

Model applyLibrary(const Model& skin, const Skeleton& armature) {
    std::string why;
    if (!libraryFits(skin, armature, &why)) throw std::invalid_argument("library does not fit the skin: " + why);
    Model m = skin;
    const size_t n = armature.bones.size();
    std::vector<glm::mat4> world(n);
    skin.skeleton.bindWorld(world.data());
    for (size_t i = 0; i < n; ++i) {
        Bone& b = m.skeleton.bones[i];
        b.name = armature.bones[i].name;
        int p = armature.bones[i].parent;
        b.parent = (p >= 0 && size_t(p) < i) ? p : -1;
        b.bindLocal = b.parent >= 0 ? glm::inverse(world[size_t(b.parent)]) * world[i] : world[i];
    }
    return m;
}

} // namespace rs::bw2
