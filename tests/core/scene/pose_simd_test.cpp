// The optimised pose path (polynomial slerp, SSE passes) against a straightforward GLM reference.
#include "scene/pose.h"

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <random>

using namespace rs;

namespace {

glm::quat slerpReference(glm::quat a, glm::quat b, float t) {
    double d = double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z + double(a.w) * b.w;
    if (d < 0) b = -b, d = -d;
    if (d > 1.0 - 1e-12) return a;
    const double th = std::acos(d), s = std::sin(th);
    const double wa = std::sin((1 - t) * th) / s, wb = std::sin(t * th) / s;
    return glm::quat(float(wa * a.w + wb * b.w), float(wa * a.x + wb * b.x), float(wa * a.y + wb * b.y),
                     float(wa * a.z + wb * b.z));
}

template <class T> const T& atRef(const std::vector<T>& v, uint32_t f) {
    return v.size() == 1 ? v[0] : v[std::min<size_t>(f, v.size() - 1)];
}

// Naive per-bone evaluation with glm::mat4 products, as the contract in pose.h/clip.h describes.
void referencePose(const Skeleton& s, const Clip& c, const ClipBinding& b, float frame, std::vector<glm::mat4>& world,
                   std::vector<uint8_t>& vis) {
    const float f = wrapFrame(frame, c.frameCount, LoopMode::Loop);
    const uint32_t f0 = uint32_t(f), f1 = std::min(f0 + 1, c.frameCount - 1);
    const float alpha = f - float(f0);
    world.assign(s.bones.size(), glm::mat4(1.0f));
    vis.assign(s.bones.size(), 1);
    for (size_t i = 0; i < s.bones.size(); ++i) {
        const Bone& bone = s.bones[i];
        glm::mat4 local = bone.bindLocal;
        bool v = bone.visible;
        if (b.trackForBone[i] >= 0) {
            const BoneTrack& t = c.tracks[size_t(b.trackForBone[i])];
            const bool add = t.mode == TrackMode::AdditiveToBind;
            const float a = (!t.step.empty() && atRef(t.step, f0)) ? 0.0f : alpha;
            glm::vec3 tr = add ? glm::vec3(0) : t.defaultTranslation, sc = add ? glm::vec3(1) : t.defaultScale;
            glm::quat q = add ? glm::quat(1, 0, 0, 0) : t.defaultRotation;
            if (t.hasTranslation()) tr = glm::mix(atRef(t.translation, f0), atRef(t.translation, f1), a);
            if (t.hasRotation()) q = slerpReference(atRef(t.rotation, f0), atRef(t.rotation, f1), a);
            if (t.hasScale()) sc = glm::mix(atRef(t.scale, f0), atRef(t.scale, f1), a);
            glm::mat4 m = glm::translate(glm::mat4(1.0f), tr) * glm::mat4_cast(q) * glm::scale(glm::mat4(1.0f), sc);
            local = add ? bone.bindLocal * m : m;
            if (!t.visibility.empty()) v = atRef(t.visibility, f0) != 0;
        }
        const int p = bone.parent;
        world[i] = p >= 0 ? world[size_t(p)] * local : local;
        vis[i] = p >= 0 ? (v && vis[size_t(p)]) : v;
    }
}

glm::quat randomQuat(std::mt19937& rng) {
    std::normal_distribution<float> n;
    return glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
}

} // namespace

TEST_CASE("polynomial slerp matches the trigonometric formula", "[pose]") {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    // Weights are within 2e-5 of sin(t*th)/sin(th) for any pair, within 1e-6 once the rotations differ by less
    // than 120 degrees (dot >= 0.5): what neighbouring frames of real clips do.
    float maxErr = 0.0f, maxErrNear = 0.0f;
    for (int i = 0; i < 40000; ++i) {
        const glm::quat a = randomQuat(rng), b = randomQuat(rng);
        const float t = i < 100 ? float(i) / 99.0f : u01(rng);
        const glm::quat r = slerpQuat(a, b, t), e = slerpReference(a, b, t);
        const float err =
            std::max({std::abs(r.x - e.x), std::abs(r.y - e.y), std::abs(r.z - e.z), std::abs(r.w - e.w)});
        maxErr = std::max(maxErr, err);
        if (std::abs(glm::dot(a, b)) >= 0.5f) maxErrNear = std::max(maxErrNear, err);
    }
    INFO("max component error " << maxErr << ", for dot >= 0.5: " << maxErrNear);
    REQUIRE(maxErr < 4e-5f);
    REQUIRE(maxErrNear < 2e-6f);
    // Ends are exact: t = 0 gives a, t = 1 gives b on the shortest path (sign flipped when needed).
    const glm::quat a = glm::angleAxis(0.3f, glm::vec3(0, 1, 0)), b = -glm::angleAxis(1.2f, glm::vec3(0, 1, 0));
    REQUIRE(slerpQuat(a, b, 0.0f) == a);
    const glm::quat end = slerpQuat(a, b, 1.0f);
    REQUIRE(end.w == Approx(-b.w).margin(1e-6));
    REQUIRE(end.y == Approx(-b.y).margin(1e-6));
}

TEST_CASE("evaluatePose equals the naive GLM evaluation on a mixed rig", "[pose]") {
    // 23 bones (not a multiple of 4), replace and additive tracks, constant and dense channels,
    // step and visibility channels, untracked bones, and a negated quaternion between frames.
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Skeleton s;
    Clip c;
    c.frameCount = 9;
    for (int i = 0; i < 23; ++i) {
        Bone b;
        b.name = "b" + std::to_string(i);
        b.parent = i == 0 ? -1 : int(rng() % unsigned(i));
        b.visible = i != 5;
        b.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(u(rng), u(rng), u(rng))) *
                      glm::mat4_cast(randomQuat(rng)) * glm::scale(glm::mat4(1.0f), glm::vec3(1.0f + 0.2f * u(rng)));
        // Two bind matrices with a non-affine last row (an untracked bone and an additive one): the affine
        // shortcuts must not apply to them or to their children.
        if (i == 10 || i == 12) b.bindLocal[1][3] = 0.05f, b.bindLocal[3][3] = 0.9f;
        s.bones.push_back(b);
        if (i % 7 == 3) continue; // untracked
        BoneTrack t;
        t.bone = i;
        t.mode = i % 3 == 0 ? TrackMode::AdditiveToBind : TrackMode::Replace;
        t.defaultTranslation = glm::vec3(u(rng), u(rng), u(rng));
        t.defaultRotation = randomQuat(rng);
        t.defaultScale = glm::vec3(1.5f);
        const uint32_t nT = i % 4 == 0 ? 0 : (i % 4 == 1 ? 1 : c.frameCount);
        const uint32_t nR = i % 5 == 0 ? 0 : (i % 5 == 1 ? 1 : c.frameCount);
        const uint32_t nS = i % 2 ? c.frameCount : 0;
        for (uint32_t f = 0; f < nT; ++f)
            t.translation.push_back(glm::vec3(u(rng), u(rng), u(rng)));
        glm::quat q = randomQuat(rng);
        for (uint32_t f = 0; f < nR; ++f) {
            q = glm::normalize(q * glm::quat(1.0f, 0.4f * u(rng), 0.4f * u(rng), 0.4f * u(rng)));
            t.rotation.push_back(f % 3 == 2 ? -q : q);
        }
        for (uint32_t f = 0; f < nS; ++f)
            t.scale.push_back(glm::vec3(1.0f + 0.3f * u(rng)));
        if (i % 6 == 2) t.step = {0, 1, 0, 0, 1, 0, 0, 0, 0};
        if (i % 4 == 2) t.visibility = {1, 1, 0, 1, 0, 1, 1, 1, 1};
        c.tracks.push_back(t);
    }
    const ClipBinding b = bindClip(s, c);
    REQUIRE(b.ok());
    REQUIRE(b.plan.size() == s.bones.size());
    // The binding's compiled plan serves c; for another Clip object (a copy) evaluatePose samples the tracks.
    const Clip copy = c;
    PoseBuffers buf(s.bones.size());
    std::vector<glm::mat4> world;
    std::vector<uint8_t> vis;
    for (const Clip* clip : {static_cast<const Clip*>(&c), &copy})
        for (float frame : {0.0f, 0.25f, 1.5f, 2.0f, 3.75f, 4.5f, 7.9f, 8.0f, 11.3f, -2.6f}) {
            evaluatePose(s, clip, &b, frame, LoopMode::Loop, buf.view());
            referencePose(s, c, b, frame, world, vis);
            for (size_t i = 0; i < s.bones.size(); ++i) {
                INFO((clip == &c ? "planned" : "copy") << " frame " << frame << " bone " << i);
                REQUIRE(buf.visible[i] == vis[i]);
                for (int col = 0; col < 4; ++col)
                    for (int row = 0; row < 4; ++row)
                        REQUIRE(buf.world[i][col][row] == Approx(world[i][col][row]).margin(2e-5));
            }
        }
}

TEST_CASE("skin palette is world[boneMap] * inverseBind", "[pose]") {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-2.0f, 2.0f);
    std::vector<glm::mat4> world(6), inv(4), out(4);
    for (auto& m : world)
        for (int k = 0; k < 16; ++k)
            m[k / 4][k % 4] = u(rng);
    for (auto& m : inv)
        for (int k = 0; k < 16; ++k)
            m[k / 4][k % 4] = u(rng);
    // Entries 1 and 3 are affine (last row exactly 0, 0, 0, 1: skinPalette's 3-term path), 0 and 2 are not.
    for (size_t i : {size_t(1), size_t(3)})
        inv[i][0][3] = inv[i][1][3] = inv[i][2][3] = 0.0f, inv[i][3][3] = 1.0f;
    SubMesh sm;
    sm.boneMap = {5, 0, 3, 3};
    skinPalette(sm, inv.data(), world.data(), out.data());
    for (size_t i = 0; i < 4; ++i) {
        const glm::mat4 e = world[size_t(sm.boneMap[i])] * inv[i];
        for (int k = 0; k < 16; ++k)
            REQUIRE(out[i][k / 4][k % 4] == Approx(e[k / 4][k % 4]).margin(1e-5));
    }
}

TEST_CASE("skinInverseBind of affine bind matrices is affine and gives an identity palette at bind", "[pose]") {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Skeleton s;
    for (int i = 0; i < 5; ++i) {
        Bone b;
        b.parent = i - 1;
        b.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(u(rng), u(rng), u(rng))) *
                      glm::mat4_cast(randomQuat(rng)) * glm::scale(glm::mat4(1.0f), glm::vec3(1.0f + 0.3f * u(rng)));
        s.bones.push_back(b);
    }
    SubMesh sm;
    sm.space = VertexSpace::Model;
    sm.boneMap = {4, 0, 2};
    std::vector<glm::mat4> inv, out(3);
    skinInverseBind(s, sm, inv);
    PoseBuffers buf(s.bones.size());
    evaluatePose(s, nullptr, nullptr, 0.0f, LoopMode::Loop, buf.view());
    skinPalette(sm, inv.data(), buf.world.data(), out.data());
    for (size_t i = 0; i < 3; ++i) {
        REQUIRE(inv[i][0][3] == 0.0f);
        REQUIRE(inv[i][1][3] == 0.0f);
        REQUIRE(inv[i][2][3] == 0.0f);
        REQUIRE(inv[i][3][3] == 1.0f);
        for (int k = 0; k < 16; ++k)
            REQUIRE(out[i][k / 4][k % 4] == Approx(k / 4 == k % 4 ? 1.0f : 0.0f).margin(1e-5));
    }
}
