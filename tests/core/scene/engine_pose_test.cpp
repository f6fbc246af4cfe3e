// Poses match the engines' semantics (issue 15): decoded quaternions are used as the file gives them, matrices
// are built with ww3d2's Build_Matrix3D / D3DX's rotation form. The expected values come from engine_ref.cpp,
// which decodes the channel bytes itself and composes per htree.cpp in double precision.
#include "corpus.h"
#include "engine_ref.h"

#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace rs;
using namespace rs::test::engine;

namespace {

struct PoseError {
    double translation = 0; // largest |t - t_ref| / rig size (largest |t_ref| in the frame)
    double linear = 0;      // largest |3x3 - 3x3_ref| element
    double rigSize = 0;
    std::string worstBone;
};

PoseError compare(const std::vector<RefBone>& ref, const PoseBuffers& buf) {
    PoseError e;
    for (const RefBone& b : ref)
        e.rigSize =
            std::max(e.rigSize, std::sqrt(b.world.m[0][3] * b.world.m[0][3] + b.world.m[1][3] * b.world.m[1][3] +
                                          b.world.m[2][3] * b.world.m[2][3]));
    const double size = std::max(e.rigSize, 1e-6);
    for (size_t i = 0; i < ref.size(); ++i) {
        const glm::mat4& w = buf.world[i]; // column-major: w[col][row]
        double dt = 0, dl = 0;
        for (int r = 0; r < 3; ++r) {
            dt += (w[3][r] - ref[i].world.m[r][3]) * (w[3][r] - ref[i].world.m[r][3]);
            for (int c = 0; c < 3; ++c)
                dl = std::max(dl, std::fabs(w[c][r] - ref[i].world.m[r][c]));
        }
        dt = std::sqrt(dt) / size;
        if (dt > e.translation) e.translation = dt, e.worstBone = ref[i].name;
        e.linear = std::max(e.linear, dl);
    }
    return e;
}

// The same measure between two reference poses (to show the check separates the semantics): the larger of the
// translation gap (relative to the rig size) and the 3x3 gap (absolute).
double semanticsGap(const std::vector<RefBone>& a, const std::vector<RefBone>& b) {
    double size = 1e-6, gap = 0, lin = 0;
    for (const RefBone& r : a)
        size = std::max(size, std::hypot(r.world.m[0][3], r.world.m[1][3], r.world.m[2][3]));
    for (size_t i = 0; i < a.size(); ++i) {
        gap = std::max(gap, std::hypot(a[i].world.m[0][3] - b[i].world.m[0][3], a[i].world.m[1][3] - b[i].world.m[1][3],
                                       a[i].world.m[2][3] - b[i].world.m[2][3]));
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                lin = std::max(lin, std::fabs(a[i].world.m[r][c] - b[i].world.m[r][c]));
    }
    return std::max(gap / size, lin);
}

struct Loaded {
    Document doc;
    std::shared_ptr<Clip> clip;
    ClipBinding binding;
};

Loaded loadW3dSet(const std::string& path) {
    Loaded l;
    l.doc = Resolver().read(path);
    REQUIRE(l.doc.model);
    REQUIRE(!l.doc.clips.empty());
    l.clip = l.doc.clips.front();
    l.binding = bindClip(l.doc.model->skeleton, *l.clip);
    REQUIRE(l.binding.ok());
    return l;
}

PoseBuffers poseAt(const Loaded& l, uint32_t f) {
    PoseBuffers buf(l.doc.model->skeleton.bones.size());
    evaluatePose(l.doc.model->skeleton, l.clip.get(), &l.binding, float(f), LoopMode::Once, buf.view());
    return buf;
}

int boneIndex(const std::vector<RefBone>& ref, const std::string& name) {
    for (size_t i = 0; i < ref.size(); ++i)
        if (ref[i].name == name) return int(i);
    FAIL("no bone " << name);
    return -1;
}

double norm(const Quat& q) { return std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); }

} // namespace

TEST_CASE("engine reference: Build_Matrix3D of a non-unit quaternion is not a pure rotation", "[pose][engine]") {
    const Quat q{0.0, 0.0, std::sin(0.3) * 0.99, std::cos(0.3) * 0.99}; // |q| = 0.99, about z
    const Mat34 m = buildMatrix3D(q);
    // 1 - 2 z^2 = 1 - 2 (0.99 sin 0.3)^2 and 2 z w = 0.99^2 sin 0.6: columns shrink by 0.99^2 off the axis.
    REQUIRE(m.m[0][0] == Approx(1.0 - 2.0 * std::pow(0.99 * std::sin(0.3), 2)).epsilon(1e-12));
    REQUIRE(m.m[1][0] == Approx(0.99 * 0.99 * std::sin(0.6)).epsilon(1e-12));
    REQUIRE(m.m[2][2] == 1.0);
    const double col0 = std::hypot(m.m[0][0], m.m[1][0]);
    REQUIRE(col0 != Approx(1.0).epsilon(1e-4));
    // rigscope's pose composes the same form: a one-bone replace track with that quaternion.
    Skeleton sk;
    sk.bones.resize(1);
    Clip c;
    c.frameCount = 1;
    BoneTrack t;
    t.bone = 0;
    t.rotation = {glm::quat(float(q.w), float(q.x), float(q.y), float(q.z))};
    c.tracks.push_back(t);
    ClipBinding b = bindClip(sk, c);
    PoseBuffers buf(1);
    evaluatePose(sk, &c, &b, 0.0f, LoopMode::Once, buf.view());
    for (int r = 0; r < 3; ++r)
        for (int col = 0; col < 3; ++col)
            REQUIRE(buf.world[0][col][r] == Approx(m.m[r][col]).margin(1e-6));
}

TEST_CASE("engine reference: slerp of non-unit quaternions is not renormalised, linear where dot >= 1",
          "[pose][engine]") {
    const glm::quat a = 0.98f * glm::angleAxis(0.2f, glm::vec3(0, 0, 1)),
                    b = 0.98f * glm::angleAxis(0.9f, glm::vec3(0, 0, 1));
    const Quat ra{a.x, a.y, a.z, a.w}, rb{b.x, b.y, b.z, b.w};
    for (float t : {0.25f, 0.5f, 0.75f}) {
        const glm::quat got = slerpQuat(a, b, t);
        const Quat want = slerp(ra, rb, t);
        REQUIRE(got.x == Approx(want.x).margin(2e-5));
        REQUIRE(got.z == Approx(want.z).margin(2e-5));
        REQUIRE(got.w == Approx(want.w).margin(2e-5));
        REQUIRE(glm::length(got) < 0.99f); // not renormalised
    }
    // |q| slightly above 1 and nearly parallel: dot > 1, ww3d2 lerps.
    const glm::quat c = 1.01f * glm::angleAxis(0.01f, glm::vec3(1, 0, 0)),
                    d = 1.01f * glm::angleAxis(0.03f, glm::vec3(1, 0, 0));
    REQUIRE(glm::dot(c, d) > 1.0f);
    const glm::quat mid = slerpQuat(c, d, 0.5f);
    REQUIRE(mid.x == Approx(0.5f * (c.x + d.x)).margin(1e-7));
    REQUIRE(mid.w == Approx(0.5f * (c.w + d.w)).margin(1e-7));
}

TEST_CASE("W3D corpus: auelladan_dieb frame 73 (ROOT DUMMY |q| = 0.99912) matches ww3d2", "[w3d][corpus][engine]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    const std::string path =
        test::corpusDir() + "/w3d/OpenSAGE+OpenSAGE.BlenderPlugin/tests/cases/elladan/auelladan_dieb.w3d";
    const W3dRef ref = loadW3dRef(path);
    REQUIRE(ref.error.empty());
    REQUIRE(ref.frames == 146);
    const std::vector<RefBone> want = ref.pose(73);
    const int root = boneIndex(want, "ROOT DUMMY"), arrow = boneIndex(want, "ARROW");
    const W3dPivotSample s = ref.sample(uint32_t(root), 73);
    REQUIRE(s.hasQ);
    REQUIRE(norm(s.q) == Approx(0.99912).margin(5e-6)); // the delta-8 stream drifts off unit length

    Loaded l = loadW3dSet(path);
    REQUIRE(l.doc.model->skeleton.bones.size() == want.size());
    const glm::quat& q = l.clip->tracks[size_t(l.binding.trackForBone[size_t(root)])].rotation[73];
    REQUIRE(q.x == Approx(s.q.x).margin(1e-6)); // stored as decoded, not renormalised
    REQUIRE(q.y == Approx(s.q.y).margin(1e-6));
    REQUIRE(q.z == Approx(s.q.z).margin(1e-6));
    REQUIRE(q.w == Approx(s.q.w).margin(1e-6));

    const PoseBuffers buf = poseAt(l, 73);
    const PoseError e = compare(want, buf);
    INFO("rig size " << e.rigSize << " worst " << e.worstBone << " " << e.translation << " linear " << e.linear);
    REQUIRE(e.translation <= 1e-5);
    REQUIRE(e.linear <= 1e-5);
    for (int r = 0; r < 3; ++r)
        REQUIRE(buf.world[size_t(arrow)][3][r] == Approx(want[size_t(arrow)].world.m[r][3]).margin(1e-5 * e.rigSize));
    // Renormalising (rigscope before issue 15) is off by more than the 1e-3 tolerance of the corpus-wide check.
    REQUIRE(semanticsGap(want, ref.pose(73, RefOptions{true})) > 1e-3);
}

TEST_CASE("W3D corpus: gumaarms_wlka frames 15 and 30 (BAT_THIGHL, BAT_CALFL, BAT_CALFR) match ww3d2",
          "[w3d][corpus][engine]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    const std::string path = test::corpusDir() + "/w3d/sage-team+W3D-Tools/test/gumaarms_wlka.w3d";
    const W3dRef ref = loadW3dRef(path);
    REQUIRE(ref.error.empty());
    Loaded l = loadW3dSet(path);
    for (uint32_t f : {15u, 30u}) {
        INFO("frame " << f);
        const std::vector<RefBone> want = ref.pose(f);
        const PoseBuffers buf = poseAt(l, f);
        const PoseError e = compare(want, buf);
        INFO("rig size " << e.rigSize << " worst " << e.worstBone << " " << e.translation << " linear " << e.linear);
        REQUIRE(e.translation <= 1e-5);
        REQUIRE(e.linear <= 1e-5);
        for (const char* name : {"BAT_THIGHL", "BAT_CALFL", "BAT_CALFR"}) {
            const int i = boneIndex(want, name);
            for (int r = 0; r < 3; ++r)
                REQUIRE(buf.world[size_t(i)][3][r] == Approx(want[size_t(i)].world.m[r][3]).margin(1e-5 * e.rigSize));
        }
        // Renormalising would be off by 1.2e-3 (frame 15) and 6.3e-4 (frame 30): far beyond the 1e-5 above.
        REQUIRE(semanticsGap(want, ref.pose(f, RefOptions{true})) > (f == 15 ? 1e-3 : 1e-4));
    }
}

TEST_CASE("W3D and Alamo corpus: every clip matches the engines at its first, middle and last frame",
          "[w3d][alamo][corpus][engine]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    size_t w3dClips = 0, alamoClips = 0;
    double worstT = 0, worstL = 0;
    std::string worst;
    const auto check = [&](const std::string& what, const std::vector<RefBone>& want, const PoseBuffers& buf) {
        const PoseError e = compare(want, buf);
        INFO(what << ": rig size " << e.rigSize << ", worst bone " << e.worstBone << " " << e.translation << ", 3x3 "
                  << e.linear);
        REQUIRE(e.translation <= 1e-3);
        REQUIRE(e.linear <= 1e-3);
        if (e.translation > worstT) worstT = e.translation, worst = what + " " + e.worstBone;
        worstL = std::max(worstL, e.linear);
    };
    for (const std::string& path : test::corpusFiles("w3d", {".w3d"})) {
        Document d;
        try {
            d = Resolver().read(path);
        } catch (const ParseError&) {
            continue; // refusals are covered by the W3D corpus tests
        }
        if (!d.model || d.clips.empty()) continue;
        const W3dRef ref = loadW3dRef(path);
        INFO(path << " " << ref.error);
        REQUIRE(ref.error.empty());
        const Clip& clip = *d.clips.front();
        REQUIRE(clip.frameCount == ref.frames);
        const Skeleton& sk = d.model->skeleton;
        REQUIRE(sk.bones.size() == ref.pivots.size());
        const ClipBinding b = bindClip(sk, clip);
        REQUIRE(b.ok());
        for (uint32_t f : {0u, (clip.frameCount - 1) / 2, clip.frameCount - 1}) {
            PoseBuffers buf(sk.bones.size());
            evaluatePose(sk, &clip, &b, float(f), LoopMode::Once, buf.view());
            check(path + " frame " + std::to_string(f), ref.pose(f), buf);
        }
        ++w3dClips;
    }
    for (const std::string& model : test::corpusFiles("alamo", {".alo"})) {
        Document d;
        try {
            d = Resolver().read(model);
        } catch (const ParseError&) {
            continue; // the particle file
        }
        for (const std::string& clipPath : Resolver().companionClips(model)) {
            INFO(model << " + " << clipPath);
            const Document cd = Resolver().read(clipPath);
            REQUIRE(cd.clips.size() == 1);
            const Clip& clip = *cd.clips.front();
            const ClipBinding b = bindClip(d.model->skeleton, clip);
            if (!b.ok()) continue; // a clip named like the model but made for another rig
            const AlamoRef ref = loadAlamoRef(model, clipPath);
            REQUIRE(ref.error.empty());
            REQUIRE(ref.frames == clip.frameCount);
            REQUIRE(ref.bones.size() == d.model->skeleton.bones.size());
            if (clip.frameCount == 0) continue;
            for (uint32_t f : {0u, (clip.frameCount - 1) / 2, clip.frameCount - 1}) {
                PoseBuffers buf(d.model->skeleton.bones.size());
                evaluatePose(d.model->skeleton, &clip, &b, float(f), LoopMode::Once, buf.view());
                check(clipPath + " frame " + std::to_string(f), ref.pose(f), buf);
            }
            ++alamoClips;
        }
    }
    WARN("engine semantics: " << w3dClips << " W3D clips, " << alamoClips << " Alamo clips; worst translation error "
                              << worstT << " of the rig size (" << worst << "), worst 3x3 error " << worstL);
    REQUIRE(w3dClips >= 15);
    REQUIRE(alamoClips >= 20);
}
