#include "scene/pose.h"

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>

using namespace rs;

static Skeleton twoBones() {
    Skeleton s;
    Bone root;
    root.name = "Root";
    Bone arm;
    arm.name = "Arm";
    arm.parent = 0;
    arm.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 2));
    s.bones = {root, arm};
    return s;
}

static void requireNear(const glm::mat4& a, const glm::mat4& b, float eps = 1e-5f) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) REQUIRE(a[c][r] == Approx(b[c][r]).margin(eps));
}

TEST_CASE("bind pose composes parent * local", "[pose]") {
    Skeleton s = twoBones();
    s.bones[0].bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 0));
    PoseBuffers buf(2);
    evaluatePose(s, nullptr, nullptr, 0.0f, LoopMode::Loop, buf.view());
    requireNear(buf.world[1], glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 2)));
}

TEST_CASE("replace track lerps translation and slerps rotation", "[pose]") {
    Skeleton s = twoBones();
    Clip c;
    c.frameCount = 3;
    c.fps = 10;
    BoneTrack t;
    t.bone = 1;
    t.boneName = "arm";
    t.translation = {{0, 0, 0}, {2, 0, 0}, {0, 0, 0}};
    t.rotation = {glm::quat(1, 0, 0, 0), glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1)), glm::quat(1, 0, 0, 0)};
    c.tracks.push_back(t);
    ClipBinding b = bindClip(s, c);
    REQUIRE(b.ok());
    PoseBuffers buf(2);
    evaluatePose(s, &c, &b, 0.5f, LoopMode::Loop, buf.view());
    glm::mat4 expect = glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 0)) *
                       glm::mat4_cast(glm::angleAxis(glm::radians(45.0f), glm::vec3(0, 0, 1)));
    requireNear(buf.world[1], expect);
}

TEST_CASE("shortest-path slerp flips a negated quaternion", "[pose]") {
    Skeleton s = twoBones();
    Clip c;
    c.frameCount = 2;
    BoneTrack t;
    t.bone = 1;
    glm::quat q = glm::angleAxis(glm::radians(10.0f), glm::vec3(1, 0, 0));
    t.rotation = {q, -glm::angleAxis(glm::radians(30.0f), glm::vec3(1, 0, 0))};
    c.tracks.push_back(t);
    ClipBinding b = bindClip(s, c);
    PoseBuffers buf(2);
    evaluatePose(s, &c, &b, 0.5f, LoopMode::Once, buf.view());
    requireNear(buf.local[1], glm::mat4_cast(glm::angleAxis(glm::radians(20.0f), glm::vec3(1, 0, 0))));
}

TEST_CASE("step bit holds the value, visibility hides children", "[pose]") {
    Skeleton s = twoBones();
    Bone hand;
    hand.name = "Hand";
    hand.parent = 1;
    s.bones.push_back(hand);
    Clip c;
    c.frameCount = 3;
    BoneTrack t;
    t.bone = 1;
    t.translation = {{0, 0, 0}, {4, 0, 0}, {0, 0, 0}};
    t.step = {1, 0, 0};
    t.visibility = {1, 0, 1};
    c.tracks.push_back(t);
    ClipBinding b = bindClip(s, c);
    PoseBuffers buf(3);
    evaluatePose(s, &c, &b, 0.75f, LoopMode::Once, buf.view());
    REQUIRE(buf.world[1][3].x == Approx(0.0f));
    REQUIRE(buf.visible[2] == 1);
    evaluatePose(s, &c, &b, 1.5f, LoopMode::Once, buf.view());
    REQUIRE(buf.world[1][3].x == Approx(2.0f));
    REQUIRE(buf.visible[1] == 0);
    REQUIRE(buf.visible[2] == 0);
    REQUIRE(buf.visible[0] == 1);
}

TEST_CASE("additive tracks apply on top of the bind pose", "[pose]") {
    Skeleton s = twoBones();
    Clip c;
    c.frameCount = 2;
    BoneTrack t;
    t.bone = 1;
    t.mode = TrackMode::AdditiveToBind;
    t.translation = {{1, 0, 0}};
    c.tracks.push_back(t);
    ClipBinding b = bindClip(s, c);
    PoseBuffers buf(2);
    evaluatePose(s, &c, &b, 0.0f, LoopMode::Loop, buf.view());
    requireNear(buf.world[1], glm::translate(glm::mat4(1.0f), glm::vec3(1, 0, 2)));
}

TEST_CASE("loop wraps with the last frame repeating the first", "[pose]") {
    REQUIRE(wrapFrame(4.0f, 5, LoopMode::Loop) == Approx(0.0f));
    REQUIRE(wrapFrame(5.5f, 5, LoopMode::Loop) == Approx(1.5f));
    REQUIRE(wrapFrame(-0.5f, 5, LoopMode::Loop) == Approx(3.5f));
    REQUIRE(wrapFrame(9.0f, 5, LoopMode::Once) == Approx(4.0f));
    REQUIRE(wrapFrame(5.0f, 5, LoopMode::PingPong) == Approx(3.0f));
    REQUIRE(wrapFrame(3.0f, 1, LoopMode::Loop) == Approx(0.0f));
}

TEST_CASE("binding reports index/name mismatches and rebinds by name", "[pose]") {
    Skeleton s = twoBones();
    Clip c;
    c.frameCount = 1;
    BoneTrack t;
    t.bone = 0;
    t.boneName = "ARM";
    c.tracks.push_back(t);
    BoneTrack u;
    u.bone = 7;
    c.tracks.push_back(u);
    ClipBinding b = bindClip(s, c);
    REQUIRE(b.problems.size() == 2);
    REQUIRE(b.trackForBone[1] == 0);
    REQUIRE(b.trackForBone[0] == -1);
}

TEST_CASE("LOD/ALT tags are stripped anywhere in a name", "[model]") {
    std::string base;
    int lod, alt;
    parseLodAlt("Building_LOD2_ALT1", base, lod, alt);
    REQUIRE(base == "Building");
    REQUIRE(lod == 2);
    REQUIRE(alt == 1);
    parseLodAlt("Tower_alt3_Top_lod0", base, lod, alt);
    REQUIRE(base == "Tower_Top");
    REQUIRE(lod == 0);
    REQUIRE(alt == 3);
    parseLodAlt("FC_Flag", base, lod, alt);
    REQUIRE(base == "FC_Flag");
    REQUIRE(lod == -1);
    REQUIRE(alt == -1);
}
