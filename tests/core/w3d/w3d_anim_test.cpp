// W3D clips: writer -> decoder round trips for every codec, bit channels, pose against hand-computed matrices.
#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "w3d/w3d_anim.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace rs;
using namespace rs::w3d;

static Clip roundTrip(const ClipSpec& spec) {
    ChunkWriter cw;
    writeClip(cw, spec);
    std::vector<uint8_t> bytes = cw.take();
    File f = readFile(ByteSpan(bytes), "clip.w3d");
    REQUIRE(f.clips.size() == 1);
    return f.clips[0];
}

static const BoneTrack& trackOf(const Clip& c, int pivot) {
    for (const BoneTrack& t : c.tracks)
        if (t.bone == pivot) return t;
    FAIL("no track for pivot " << pivot);
    return c.tracks.front();
}

static std::vector<float> sine(uint32_t frames, float amp, float phase) {
    std::vector<float> v(frames);
    for (uint32_t f = 0; f < frames; ++f)
        v[f] = amp * std::sin(0.13f * f + phase) + 0.3f * f / frames;
    return v;
}

static std::vector<float> quatStream(uint32_t frames, glm::vec3 axis) {
    std::vector<float> v;
    for (uint32_t f = 0; f < frames; ++f) {
        glm::quat q = glm::angleAxis(0.05f * f, glm::normalize(axis));
        v.insert(v.end(), {q.x, q.y, q.z, q.w});
    }
    return v;
}

TEST_CASE("W3D uncompressed channels: values, identity outside first..last, bit channel defaults", "[w3d][anim]") {
    ClipSpec s;
    s.name = "WAVE";
    s.hierarchy = "TEST_SKL";
    s.frames = 6;
    s.fps = 15;
    ChannelSpec x;
    x.pivot = 1;
    x.type = 0;
    x.first = 1;
    x.values = {1, 2, 3};
    ChannelSpec q;
    q.pivot = 2;
    q.type = 6;
    glm::quat r = glm::angleAxis(glm::radians(60.0f), glm::vec3(0, 1, 0));
    for (int f = 0; f < 6; ++f)
        q.values.insert(q.values.end(), {2 * r.x, 2 * r.y, 2 * r.z, 2 * r.w}); // unnormalised
    BitChannelSpec vis;
    vis.pivot = 3;
    vis.first = 2;
    vis.defaultValue = 1;
    vis.bits = {0, 0, 1};
    s.channels = {x, q};
    s.bitChannels = {vis};
    Clip c = roundTrip(s);
    REQUIRE(c.format == Format::W3d);
    REQUIRE(c.name == "WAVE");
    REQUIRE(c.hierarchyName == "TEST_SKL");
    REQUIRE(c.codec == "uncompressed");
    REQUIRE(c.frameCount == 6);
    REQUIRE(c.fps == 15.0f);
    const BoneTrack& t1 = trackOf(c, 1);
    REQUIRE(t1.mode == TrackMode::AdditiveToBind);
    REQUIRE(t1.translation.size() == 6);
    REQUIRE(t1.translation[0].x == 0.0f); // before first: identity
    REQUIRE(t1.translation[2].x == 2.0f);
    REQUIRE(t1.translation[4].x == 0.0f); // after last: identity
    REQUIRE(t1.rotation.empty());
    const BoneTrack& t2 = trackOf(c, 2);
    REQUIRE(t2.rotation.size() == 6);
    // Kept as the file gives it (ww3d2 does not renormalise decoded quaternions): twice the unit quaternion.
    REQUIRE(t2.rotation[3].x == 2 * r.x);
    REQUIRE(t2.rotation[3].y == 2 * r.y);
    REQUIRE(t2.rotation[3].z == 2 * r.z);
    REQUIRE(t2.rotation[3].w == 2 * r.w);
    const BoneTrack& t3 = trackOf(c, 3);
    REQUIRE(t3.visibility == std::vector<uint8_t>{1, 1, 0, 0, 1, 1});
}

TEST_CASE("W3D timecoded channels interpolate between keys, binary movement steps", "[w3d][anim]") {
    ClipSpec s;
    s.name = "TC";
    s.hierarchy = "TEST_SKL";
    s.version = 0x1;
    s.frames = 11;
    s.codec = ClipCodec::Timecoded;
    ChannelSpec y;
    y.pivot = 2;
    y.type = 1;
    y.keyFrames = {0, 4, 8};
    y.binary = {0, 0, 1};
    y.values = {0, 8, -4};
    ChannelSpec q;
    q.pivot = 2;
    q.type = 6;
    q.keyFrames = {0, 10};
    glm::quat a(1, 0, 0, 0), b = glm::angleAxis(glm::radians(100.0f), glm::vec3(0, 0, 1));
    q.values = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    BitChannelSpec vis;
    vis.pivot = 1;
    vis.defaultValue = 1;
    vis.keyFrames = {3, 7};
    vis.bits = {0, 1};
    s.channels = {y, q};
    s.bitChannels = {vis};
    Clip c = roundTrip(s);
    REQUIRE(c.codec == "timecoded");
    const BoneTrack& t = trackOf(c, 2);
    REQUIRE(t.translation[2].y == Approx(4.0f)); // halfway 0 -> 8
    REQUIRE(t.translation[4].y == Approx(8.0f));
    REQUIRE(t.translation[6].y == Approx(8.0f)); // held: key 8 is a binary movement
    REQUIRE(t.translation[8].y == Approx(-4.0f));
    REQUIRE(t.translation[10].y == Approx(-4.0f)); // after the last key: held
    REQUIRE(t.step.size() == 11);
    REQUIRE(t.step[7] == 1);
    REQUIRE(t.step[3] == 0);
    glm::quat mid = t.rotation[5];
    REQUIRE(glm::angle(mid) == Approx(glm::radians(50.0f)).margin(1e-4));
    const BoneTrack& v = trackOf(c, 1);
    REQUIRE(v.visibility == std::vector<uint8_t>{1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1});
}

TEST_CASE("W3D adaptive delta: encoder -> decoder round trip (4-bit flavor 1, motion delta-4/8)", "[w3d][anim]") {
    const uint32_t frames = 70;
    for (ClipCodec codec : {ClipCodec::AdaptiveDelta, ClipCodec::MotionDelta4, ClipCodec::MotionDelta8}) {
        ClipSpec s;
        s.name = "AD";
        s.hierarchy = "TEST_SKL";
        s.version = codec == ClipCodec::AdaptiveDelta ? 0x1 : 0x10000;
        s.frames = frames;
        s.codec = codec;
        ChannelSpec x;
        x.pivot = 1;
        x.type = 0;
        x.values = sine(frames, 2.0f, 0.0f);
        ChannelSpec z;
        z.pivot = 1;
        z.type = 2;
        z.values = sine(frames, 0.01f, 1.0f); // small range: fine table entries
        ChannelSpec q;
        q.pivot = 3;
        q.type = 6;
        q.values = quatStream(frames, {1, 2, 3});
        s.channels = {x, z, q};
        Clip c = roundTrip(s);
        const char* expect = codec == ClipCodec::AdaptiveDelta  ? "adaptive-delta"
                             : codec == ClipCodec::MotionDelta4 ? "motion-delta4"
                                                                : "motion-delta8";
        REQUIRE(c.codec == expect);
        const float tol = codec == ClipCodec::MotionDelta8 ? 2e-3f : 3e-2f;
        const BoneTrack& t = trackOf(c, 1);
        float errX = 0, errZ = 0, errQ = 0;
        for (uint32_t f = 0; f < frames; ++f) {
            errX = std::max(errX, std::fabs(t.translation[f].x - x.values[f]));
            errZ = std::max(errZ, std::fabs(t.translation[f].z - z.values[f]));
        }
        const BoneTrack& r = trackOf(c, 3);
        float errLen = 0; // decoded quaternions are kept as the deltas give them (not renormalised, as ww3d2)
        for (uint32_t f = 0; f < frames; ++f) {
            glm::quat want(q.values[f * 4 + 3], q.values[f * 4], q.values[f * 4 + 1], q.values[f * 4 + 2]);
            errQ = std::max(errQ, 1.0f - std::fabs(glm::dot(want, glm::normalize(r.rotation[f]))));
            errLen = std::max(errLen, std::fabs(glm::length(r.rotation[f]) - 1.0f));
        }
        REQUIRE(r.rotation[0] == glm::quat(q.values[3], q.values[0], q.values[1], q.values[2])); // initial as stored
        INFO("codec " << expect << " errX " << errX << " errZ " << errZ << " errQ " << errQ << " errLen " << errLen);
        REQUIRE(errLen < 0.02f);
        REQUIRE(t.translation[0].x == x.values[0]); // frame 0 is stored exactly
        REQUIRE(errX < tol);
        REQUIRE(errZ < tol * 0.05f);
        REQUIRE(errQ < 1e-3f);
    }
}

TEST_CASE("W3D adaptive delta decoder follows the table and nibble order", "[w3d][anim]") {
    const float* table = adaptiveDeltaTable();
    REQUIRE(table[8] == 1.0f);
    REQUIRE(table[0] == Approx(1e-8f));
    REQUIRE(table[16] == 1.0f);
    REQUIRE(table[16 + 120] == Approx(1.0f - std::sin(glm::radians(45.0f))));
    // Hand-made packet: index 8 (x1), deltas +1, -1, +7, -8 (low nibble first), scale 0.5.
    std::vector<uint8_t> packet = {8, 0xF1, 0x87, 0, 0, 0, 0, 0, 0};
    ByteReader r(ByteSpan(packet), "mem");
    float initial = 10.0f;
    std::vector<float> out;
    decodeAdaptiveDelta(r, 5, 1, 4, 0.5f, &initial, out);
    REQUIRE(out == std::vector<float>{10.0f, 10.5f, 10.0f, 13.5f, 9.5f});
    std::vector<uint8_t> p8(17, 0x80);
    p8[0] = 8;
    p8[1] = 0x80 ^ 0x10; // +16 -> 16/16 * scale
    p8[2] = 0x80 ^ 0xF0; // -16
    ByteReader r8(ByteSpan(p8), "mem");
    decodeAdaptiveDelta(r8, 3, 1, 8, 2.0f, &initial, out);
    REQUIRE(out == std::vector<float>{10.0f, 12.0f, 10.0f});
}

TEST_CASE("W3D motion timecoded channels and combined codec names", "[w3d][anim]") {
    ClipSpec s;
    s.name = "MIX";
    s.hierarchy = "TEST_SKL";
    s.version = 0x10000;
    s.frames = 5;
    s.codec = ClipCodec::MotionTimecoded;
    ChannelSpec x;
    x.pivot = 2;
    x.type = 0;
    x.keyFrames = {0, 2, 4}; // odd key count: 2 bytes of padding
    x.values = {0, 1, 5};
    s.channels = {x};
    ChunkWriter cw;
    writeClip(cw, s);
    std::vector<uint8_t> bytes = cw.take();
    Clip c = readFile(ByteSpan(bytes), "m.w3d").clips[0];
    REQUIRE(c.codec == "motion-timecoded");
    const BoneTrack& t = trackOf(c, 2);
    REQUIRE(t.translation[1].x == Approx(0.5f));
    REQUIRE(t.translation[3].x == Approx(3.0f));
}

TEST_CASE("W3D pose: EA formula World = World[parent] * T(pivot) * R(pivot) * T(anim) * R(anim)", "[w3d][anim]") {
    ChunkWriter cw;
    writeHierarchy(cw, rs::test::testHierarchy());
    ClipSpec s;
    s.name = "POSE";
    s.hierarchy = "TEST_SKL";
    s.frames = 3;
    ChannelSpec x;
    x.pivot = 1;
    x.type = 0;
    x.values = {0, 2, 0};
    ChannelSpec q;
    q.pivot = 2;
    q.type = 6;
    glm::quat r = glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0));
    q.first = 1;
    q.values = {r.x, r.y, r.z, r.w};
    ChannelSpec root;
    root.pivot = 0; // ignored, as in the game
    root.type = 2;
    root.values = {9, 9, 9};
    s.channels = {x, q, root};
    writeClip(cw, s);
    std::vector<uint8_t> bytes = cw.take();
    Document d = Resolver().read(ByteSpan(bytes), "pose.w3d");
    REQUIRE(d.model);
    REQUIRE(d.clips.size() == 1);
    const Skeleton& sk = d.model->skeleton;
    const Clip& c = *d.clips[0];
    REQUIRE(!c.warnings.empty()); // the pivot-0 channel is reported
    ClipBinding b = bindClip(sk, c);
    REQUIRE(b.ok());
    PoseBuffers buf(sk.bones.size());
    evaluatePose(sk, &c, &b, 1.0f, LoopMode::Once, buf.view());
    // Root: identity despite its channel.
    REQUIRE(buf.world[0] == glm::mat4(1.0f));
    // BODY: T(1,2,3) Rz90 T(2,0,0): the animated X offset is along BODY's rotated X = world +Y.
    glm::vec3 body(buf.world[1][3]);
    REQUIRE(body.x == Approx(1.0f));
    REQUIRE(body.y == Approx(4.0f));
    REQUIRE(body.z == Approx(3.0f));
    // ARM: World[BODY] * T(0,1,0) * Rx90 (anim): position (1,4,3) + Rz90*(0,1,0) = (0,4,3);
    // its Y axis: Rz90 * Rx90 * Y = Rz90 * Z = Z.
    glm::vec3 arm(buf.world[2][3]);
    REQUIRE(arm.x == Approx(0.0f).margin(1e-5));
    REQUIRE(arm.y == Approx(4.0f));
    REQUIRE(arm.z == Approx(3.0f));
    REQUIRE(buf.world[2][1].z == Approx(1.0f));
    // HAND: World[ARM] * T(0,0,2) * Rx90: offset (0,0,2) along ARM's Z = Rz90*Rx90*Z = Rz90*(-Y) = (+1,0,0)*2.
    glm::vec3 hand(buf.world[3][3]);
    REQUIRE(hand.x == Approx(2.0f));
    REQUIRE(hand.y == Approx(4.0f));
    REQUIRE(hand.z == Approx(3.0f).margin(1e-5));
    // Frame 0: the channel values are identity there, so the pose is the bind pose.
    evaluatePose(sk, &c, &b, 0.0f, LoopMode::Once, buf.view());
    PoseBuffers bind(sk.bones.size());
    evaluatePose(sk, nullptr, nullptr, 0.0f, LoopMode::Once, bind.view());
    for (size_t i = 0; i < sk.bones.size(); ++i)
        for (int col = 0; col < 4; ++col)
            for (int row = 0; row < 4; ++row)
                REQUIRE(buf.world[i][col][row] == Approx(bind.world[i][col][row]).margin(1e-6));
}

TEST_CASE("W3D hostile clip: dense decode is bounded (frames x pivots)", "[w3d][anim]") {
    ClipSpec s;
    s.name = "BIG";
    s.hierarchy = "TEST_SKL";
    s.version = 0x1;
    s.frames = 65536;
    s.codec = ClipCodec::Timecoded;
    for (uint16_t p = 1; p <= 100; ++p) {
        ChannelSpec x;
        x.pivot = p;
        x.type = 0;
        x.keyFrames.push_back(0); // keys reach the last frame: the file describes all 65536 frames
        x.keyFrames.push_back(65535);
        x.values = {1.0f, 2.0f};
        s.channels.push_back(x);
    }
    ChunkWriter cw;
    writeClip(cw, s);
    std::vector<uint8_t> bytes = cw.take();
    try {
        readFile(ByteSpan(bytes), "big.w3d");
        FAIL("no ParseError");
    } catch (const ParseError& e) {
        REQUIRE(e.chunkPath() == "0x280/0x282");
        REQUIRE(e.message().find("too many pivots") != std::string::npos);
    }
    s.frames = 65537;
    s.channels.resize(1);
    ChunkWriter cw2;
    writeClip(cw2, s);
    std::vector<uint8_t> b2 = cw2.take();
    REQUIRE_THROWS_AS(readFile(ByteSpan(b2), "big.w3d"), ParseError);
}

TEST_CASE("W3D hostile clip: a frame count beyond what the channels store is bounded by the chunk size",
          "[w3d][anim]") {
    // 40 pivots, translation X keyed at frames 0 and 29, Q uncompressed over frames 0..29: 30 frames described.
    auto spec = [](ClipCodec codec, uint32_t frames) {
        ClipSpec s;
        s.name = "IDLE";
        s.hierarchy = "TEST_SKL";
        s.version = codec == ClipCodec::Uncompressed ? 0x40001 : 0x1;
        s.frames = frames;
        s.codec = codec;
        for (uint16_t p = 1; p <= 40; ++p) {
            ChannelSpec x;
            x.pivot = p;
            x.type = 0;
            if (codec == ClipCodec::Uncompressed) {
                x.values = sine(30, 1.0f, p);
            } else {
                x.keyFrames.push_back(0);
                x.keyFrames.push_back(29);
                x.values = {0.5f, float(p)};
            }
            s.channels.push_back(x);
        }
        return s;
    };
    for (ClipCodec codec : {ClipCodec::Uncompressed, ClipCodec::Timecoded}) {
        INFO("codec " << int(codec));
        // As stored, and a few frames more (held values): loads.
        for (uint32_t frames : {30u, 31u, 60u}) {
            const Clip c = roundTrip(spec(codec, frames));
            REQUIRE(c.frameCount == frames);
            const BoneTrack& t = trackOf(c, 7);
            REQUIRE(t.translation.size() == frames);
            const float held = codec == ClipCodec::Uncompressed ? 0.0f : 7.0f; // identity / last key held
            if (frames > 30) CHECK(t.translation.back().x == held);
            CHECK(t.translation[29].x == (codec == ClipCodec::Uncompressed ? sine(30, 1.0f, 7)[29] : 7.0f));
        }
        // The header claims 65536 frames: 40 x 65536 x 12 bytes from a ~5 KB chunk. Refused with chunk and offset.
        ChunkWriter cw;
        writeClip(cw, spec(codec, 65536));
        std::vector<uint8_t> bytes = cw.take();
        try {
            readFile(ByteSpan(bytes), "idle.w3d");
            FAIL("no ParseError");
        } catch (const ParseError& e) {
            CHECK(e.file() == "idle.w3d");
            CHECK(e.chunkPath().rfind(codec == ClipCodec::Uncompressed ? "0x200/0x202" : "0x280/0x282", 0) == 0);
            CHECK(e.offset() > 0);
            CHECK(e.offset() < bytes.size());
            CHECK(e.message().find("declares 65536 frames but its channels describe 30") != std::string::npos);
        }
    }
}
