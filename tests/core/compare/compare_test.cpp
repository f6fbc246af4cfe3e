// core/compare: writer-made pairs with one known difference each; every difference is reported once with its
// figures, identical inputs give none.
#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "bw2_fixtures.h"
#include "compare/compare.h"
#include "compare_fixtures.h"
#include "corpus.h"
#include "resolve/resolver.h"
#include "skip.h"

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <unistd.h>

using namespace rs;
using namespace rs::compare;
using Catch::Detail::Approx;

namespace {

// Through the writer and the reader, as a file would be.
Model written(const Model& m) {
    const auto bytes = alamo::writeModel(m);
    return alamo::readModel(ByteSpan(bytes), "SYN.ALO");
}
Clip written(const Clip& c, const char* name = "SYN_IDLE_00.ALA") {
    const auto bytes = alamo::writeClip(c);
    return alamo::readClip(ByteSpan(bytes), name);
}

Summary modelDiff(const Model& a, const Model& b) {
    Side sa, sb;
    sa.model = &a;
    sa.skeleton = &a.skeleton;
    sb.model = &b;
    sb.skeleton = &b.skeleton;
    return diff(sa, sb);
}

Summary clipDiff(const Model& m, const Clip& a, const Clip& b) {
    Side sa, sb;
    sa.model = &m;
    sa.skeleton = &m.skeleton;
    sa.clips = {&a};
    sa.stem = "SYN";
    sb = sa;
    sb.clips = {&b};
    return diff(sa, sb);
}

std::string dump(const Summary& s) {
    std::string out;
    for (const Difference& d : s.differences)
        out += describe(d) + "\n";
    return out;
}

// The one row matching; fails when there is none or more than one.
const Difference& only(const Summary& s, Category c, Change ch, const std::string& subject,
                       const std::string& field = {}) {
    INFO(dump(s));
    const Difference* hit = nullptr;
    int n = 0;
    for (const Difference& d : s.differences)
        if (d.category == c && d.change == ch && d.subject == subject && d.field == field) {
            hit = &d;
            ++n;
        }
    REQUIRE(n == 1);
    return *hit;
}

// A folder of its own under the temporary directory, removed at the end.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& tag) {
        path = std::filesystem::temp_directory_path() / ("rigscope-compare-" + tag + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

// The W3D unit written to A/ as it is and to B/ with `changes`, each opened as the viewer and the CLI open it
// (hierarchy and companion clip found beside it), then compared.
struct W3dPair {
    TempDir dir{"w3d"};
    Asset a, b;
    Summary summary;
    explicit W3dPair(const test::W3dChanges& changes) {
        const Resolver r;
        a = r.open(test::writeW3dUnit(dir.path / "A"));
        b = r.open(test::writeW3dUnit(dir.path / "B", changes));
        summary = diff(sideOf(a), sideOf(b));
    }
};

// The changes with one of them made.
test::W3dChanges one(bool test::W3dChanges::*change) {
    test::W3dChanges c;
    c.*change = true;
    return c;
}

// How many rows of a category there are.
size_t countOf(const Summary& s, Category c) {
    return size_t(std::count_if(s.differences.begin(), s.differences.end(),
                                [&](const Difference& d) { return d.category == c; }));
}

} // namespace

TEST_CASE("identical written models and clips have no differences", "[compare]") {
    const Model a = written(test::syntheticModel()), b = written(test::syntheticModel());
    const Summary s = modelDiff(a, b);
    INFO(dump(s));
    CHECK(s.identical());
    CHECK(s.notes.empty());
    const Clip c = written(test::syntheticClip()), d = written(test::syntheticClip());
    const Summary t = clipDiff(a, c, d);
    INFO(dump(t));
    CHECK(t.identical());
    REQUIRE(t.clipPairs.size() == 1);
    CHECK(t.clipPairs[0].framesA == 5);
    CHECK(t.clipPairs[0].largestBone.empty());
}

TEST_CASE("a bone moved in the bind pose is reported once with its distance, not its children", "[compare]") {
    Model m = test::syntheticModel();
    m.skeleton.bones[1].bindLocal =
        glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 0.5f)) * m.skeleton.bones[1].bindLocal;
    const Summary s = modelDiff(written(test::syntheticModel()), written(m));
    REQUIRE(s.differences.size() == 1);
    const Difference& d = only(s, Category::Bone, Change::Moved, "Arm");
    CHECK(d.distance == Approx(0.5).margin(1e-5));
    CHECK(d.localDistance == Approx(0.5).margin(1e-5));
    CHECK(d.angle == Approx(0).margin(0.01));
    CHECK(d.boneA == 1);
    CHECK(d.boneB == 1);
}

TEST_CASE("a bone rotated in the bind pose is reported with its angle", "[compare]") {
    Model m = test::syntheticModel();
    m.skeleton.bones[1].bindLocal =
        m.skeleton.bones[1].bindLocal * glm::rotate(glm::mat4(1.0f), glm::radians(30.0f), glm::vec3(1, 0, 0));
    const Summary s = modelDiff(written(test::syntheticModel()), written(m));
    REQUIRE(s.differences.size() == 1);
    const Difference& d = only(s, Category::Bone, Change::Moved, "Arm");
    CHECK(d.angle == Approx(30).margin(0.01));
    CHECK(d.localAngle == Approx(30).margin(0.01));
    CHECK(d.distance == Approx(0).margin(1e-5));
}

TEST_CASE("bones added, removed and reparented are each reported once", "[compare]") {
    Model b = test::syntheticModel();
    Bone extra;
    extra.name = "Extra";
    extra.parent = 0;
    b.skeleton.bones.push_back(extra);
    b.skeleton.bones[2].parent = 0; // Hand under Root instead of Arm
    const Model a = written(test::syntheticModel()), bw = written(b);
    const Summary s = modelDiff(a, bw);
    REQUIRE(s.differences.size() == 2);
    CHECK(only(s, Category::Bone, Change::Added, "Extra").boneB == 3);
    const Difference& r = only(s, Category::Bone, Change::Reparented, "Hand", "parent");
    CHECK(r.a == "Arm");
    CHECK(r.b == "Root");
    // World bind position: Hand at Arm's (1,2,3) + Arm's rotation of (0.5,0,0) = (1,2.5,3) -> at (0.5,0,0) now.
    CHECK(r.distance == Approx(glm::length(glm::vec3(1, 2.5f, 3) - glm::vec3(0.5f, 0, 0))).margin(1e-4));
    CHECK(r.angle == Approx(90).margin(0.01));

    const Summary back = modelDiff(bw, a);
    CHECK(only(back, Category::Bone, Change::Removed, "Extra").boneA == 3);
}

TEST_CASE("bone names match case-insensitively; repeated names are matched in order with a note", "[compare]") {
    Model b = test::syntheticModel();
    b.skeleton.bones[1].name = "ARM";
    CHECK(modelDiff(written(test::syntheticModel()), written(b)).identical());

    Model a = test::syntheticModel(), c = test::syntheticModel();
    a.skeleton.bones[2].name = "Arm"; // Arm twice
    c.skeleton.bones[2].name = "arm";
    c.skeleton.bones[2].bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0.75f, 0, 0));
    const Summary s = modelDiff(a, c);
    REQUIRE(s.differences.size() == 1);
    const Difference& d = only(s, Category::Bone, Change::Moved, "Arm");
    CHECK(d.boneA == 2);
    CHECK(d.localDistance == Approx(0.25).margin(1e-6));
    REQUIRE(s.notes.size() == 1);
    CHECK(s.notes[0].find("repeats (2 in A, 2 in B)") != std::string::npos);
}

TEST_CASE("vertex and triangle counts per sub-mesh, and sub-mesh counts", "[compare]") {
    Model b = test::syntheticModel();
    SubMesh& sm = b.meshes[0].subMeshes[0];
    for (auto* v : {&sm.positions, &sm.normals, &sm.tangents, &sm.binormals})
        v->pop_back();
    sm.uv0.pop_back();
    sm.uv1.pop_back();
    sm.colors.pop_back();
    sm.boneIndices.pop_back();
    sm.boneWeights.pop_back();
    sm.indices = {0, 1, 2};
    b.meshes[1].subMeshes.push_back(b.meshes[1].subMeshes[0]);
    const Summary s = modelDiff(written(test::syntheticModel()), written(b));
    INFO(dump(s));
    REQUIRE(s.differences.size() == 3);
    const Difference& v = only(s, Category::SubMesh, Change::Changed, "FC_Skin[0]", "vertices");
    CHECK(v.valueA == 4);
    CHECK(v.valueB == 3);
    const Difference& t = only(s, Category::SubMesh, Change::Changed, "FC_Skin[0]", "triangles");
    CHECK(t.valueA == 2);
    CHECK(t.valueB == 1);
    const Difference& n = only(s, Category::Mesh, Change::Changed, "Hull_LOD1_ALT2", "sub-meshes");
    CHECK(n.valueA == 2);
    CHECK(n.valueB == 3);
}

TEST_CASE("moved vertices with the same count give the largest distance", "[compare]") {
    Model b = test::syntheticModel();
    b.meshes[1].subMeshes[0].positions[2].z += 0.25f;
    const Summary s = modelDiff(written(test::syntheticModel()), written(b));
    REQUIRE(s.differences.size() == 1);
    CHECK(only(s, Category::SubMesh, Change::Changed, "Hull_LOD1_ALT2[0]", "positions").distance ==
          Approx(0.25).margin(1e-5));
}

TEST_CASE("meshes added and removed", "[compare]") {
    Model b = test::syntheticModel();
    b.meshes.erase(b.meshes.begin() + 1);
    const Summary s = modelDiff(written(test::syntheticModel()), written(b));
    REQUIRE(s.differences.size() == 1);
    CHECK(only(s, Category::Mesh, Change::Removed, "Hull_LOD1_ALT2").a == "2 sub-meshes");
    CHECK(modelDiff(written(b), written(test::syntheticModel())).differences.size() == 1);
}

TEST_CASE("shader and parameter differences, with a tolerance", "[compare]") {
    Model b = test::syntheticModel();
    Material& m = b.meshes[0].subMeshes[0].material;
    m.shader = "RSkinGloss.fx";
    m.params[1].value.x = 40.0f;          // Shininess 32.5 -> 40
    m.params[2].value.y += 1e-6f;         // Tint: within the tolerance
    m.params[0].intValue = 3;             // Passes -7 -> 3
    m.params[4].texture = "w_test.tga";   // same name, other case
    m.params.erase(m.params.begin() + 3); // Colorization removed
    MaterialParam spec;
    spec.name = "SpecularTexture";
    spec.type = ParamType::Texture;
    spec.texture = "W_SPEC.DDS";
    m.params.push_back(spec);
    const Summary s = modelDiff(written(test::syntheticModel()), written(b));
    INFO(dump(s));
    const Difference& sh = only(s, Category::Material, Change::Changed, "FC_Skin[0]", "shader");
    CHECK(sh.a == "RSkinBumpColorize.fx");
    CHECK(sh.b == "RSkinGloss.fx");
    const Difference& f = only(s, Category::Parameter, Change::Changed, "FC_Skin[0].Shininess", "value");
    CHECK(f.valueA == Approx(32.5));
    CHECK(f.valueB == Approx(40));
    const Difference& i = only(s, Category::Parameter, Change::Changed, "FC_Skin[0].Passes", "value");
    CHECK(i.valueA == -7);
    CHECK(i.valueB == 3);
    CHECK(only(s, Category::Parameter, Change::Removed, "FC_Skin[0].Colorization").a == "(1, 0, 0.5, 1)");
    CHECK(only(s, Category::Parameter, Change::Added, "FC_Skin[0].SpecularTexture").b == "W_SPEC.DDS");
    // The model now also needs W_SPEC.DDS: the texture set.
    only(s, Category::Texture, Change::Added, "W_SPEC.DDS");
    CHECK(s.differences.size() == 6);
}

TEST_CASE("a parameter's type change and a texture renamed", "[compare]") {
    Model b = test::syntheticModel();
    Material& m = b.meshes[0].subMeshes[0].material;
    m.params[1].type = ParamType::Int; // Shininess float -> int
    m.params[1].intValue = 32;
    m.params[4].texture = "W_OTHER.TGA";
    const Summary s = modelDiff(written(test::syntheticModel()), written(b));
    INFO(dump(s));
    const Difference& t = only(s, Category::Parameter, Change::Changed, "FC_Skin[0].Shininess", "type");
    CHECK(t.a == "float 32.5");
    CHECK(t.b == "int 32");
    const Difference& x = only(s, Category::Parameter, Change::Changed, "FC_Skin[0].BaseTexture", "texture");
    CHECK(x.a == "W_TEST.TGA");
    CHECK(x.b == "W_OTHER.TGA");
    only(s, Category::Texture, Change::Removed, "W_TEST.TGA");
    only(s, Category::Texture, Change::Added, "W_OTHER.TGA");
    CHECK(s.differences.size() == 4);
}

TEST_CASE("lights, proxies and dazzles", "[compare]") {
    Model b = test::syntheticModel();
    b.lights[0].intensity = 3.0f;
    b.proxies.erase(b.proxies.begin());
    Proxy p;
    p.name = "p_new";
    p.bone = 0;
    b.proxies.push_back(p);
    b.dazzles[1].position = {0, 0, 2};
    b.dazzles[0].bone = 1;
    const Summary s = modelDiff(written(test::syntheticModel()), written(b));
    INFO(dump(s));
    const Difference& l = only(s, Category::Light, Change::Changed, "Spot", "intensity");
    CHECK(l.valueA == Approx(2));
    CHECK(l.valueB == Approx(3));
    only(s, Category::Proxy, Change::Removed, "p_fire_ALT1");
    only(s, Category::Proxy, Change::Added, "p_new");
    CHECK(only(s, Category::Dazzle, Change::Changed, "Plain", "position").distance == Approx(2).margin(1e-5));
    const Difference& db = only(s, Category::Dazzle, Change::Changed, "FC_Blink", "bone");
    CHECK(db.a == "Hand");
    CHECK(db.b == "Arm");
    CHECK(s.differences.size() == 5);
}

TEST_CASE("clip lengths: frames, fps and seconds", "[compare]") {
    const Model m = written(test::syntheticModel());
    Clip b = test::syntheticClip();
    b.frameCount = 9;
    for (BoneTrack& t : b.tracks) {
        auto extend = [](auto& v) {
            if (v.size() == 5)
                while (v.size() < 9)
                    v.push_back(v.back());
        };
        extend(t.translation);
        extend(t.rotation);
        extend(t.scale);
        extend(t.visibility);
        extend(t.step);
    }
    const Summary s = clipDiff(m, written(test::syntheticClip()), written(b));
    INFO(dump(s));
    REQUIRE(s.differences.size() == 1);
    const Difference& d = only(s, Category::Clip, Change::Changed, "SYN_IDLE_00", "length");
    CHECK(d.valueA == Approx(0.4));
    CHECK(d.valueB == Approx(0.8));
    CHECK(d.a == "5 frames at 10 fps (0.4 s)");
    CHECK(d.b == "9 frames at 10 fps (0.8 s)");
}

TEST_CASE("a track's largest difference over the clip and its time", "[compare]") {
    const Model m = written(test::syntheticModel());
    Clip b = test::syntheticClip();
    // Arm: +30 degrees about Z at frame 2 only (0.2 s), and 0.75 units further along X at frame 3 (0.3 s).
    b.tracks[0].rotation[2] = glm::angleAxis(glm::radians(70.0f), glm::vec3(0, 0, 1));
    b.tracks[0].translation[3].x += 0.75f;
    const Summary s = clipDiff(m, written(test::syntheticClip()), written(b));
    INFO(dump(s));
    REQUIRE(s.differences.size() == 1);
    const Difference& d = only(s, Category::Track, Change::Changed, "Arm", "motion");
    CHECK(d.angle == Approx(30).margin(0.1)); // 16-bit quantised rotations
    CHECK(d.angleTime == Approx(0.2));
    CHECK(d.distance == Approx(0.75).margin(0.01));
    CHECK(d.distanceTime == Approx(0.3));
    CHECK(d.boneA == 1);
    REQUIRE(s.clipPairs.size() == 1);
    CHECK(s.clipPairs[0].largestAngleBone == "Arm");
    CHECK(s.clipPairs[0].largestAngleTime == Approx(0.2));
}

TEST_CASE("a track in one clip only, with its difference to the bind pose", "[compare]") {
    const Model m = written(test::syntheticModel());
    Clip b = test::syntheticClip();
    b.tracks.pop_back(); // Hand no longer animated: it keeps its bind transform
    const Summary s = clipDiff(m, written(test::syntheticClip()), written(b));
    INFO(dump(s));
    REQUIRE(s.differences.size() == 1);
    const Difference& d = only(s, Category::Track, Change::Removed, "HAND");
    // A's Hand is rotated 45 degrees about X throughout (constant track) and scaled 2: the rotation differs by 45.
    CHECK(d.angle == Approx(45).margin(0.1));
    CHECK(d.distance == Approx(0).margin(1e-3));
    CHECK(d.boneA == 2);
}

TEST_CASE("two lone clips without a skeleton are paired and compared by their tracks", "[compare]") {
    Clip b = test::syntheticClip();
    b.tracks[0].translation[1].y += 0.5f;
    const Clip ca = written(test::syntheticClip(), "RUN.ALA"), cb = written(b, "WALK.ALA");
    Side sa, sb;
    sa.clips = {&ca};
    sb.clips = {&cb};
    const Summary s = diff(sa, sb);
    INFO(dump(s));
    REQUIRE(s.differences.size() == 1);
    const Difference& d = only(s, Category::Track, Change::Changed, "Arm", "motion");
    CHECK(d.distance == Approx(0.5).margin(0.01));
    CHECK(d.distanceTime == Approx(0.1));
    CHECK(d.clipA == "RUN");
    CHECK(d.clipB == "WALK");
    CHECK(d.boneA == -1);
    REQUIRE(s.notes.size() == 1);
    CHECK(s.notes[0].find("the only clip on each side") != std::string::npos);
}

TEST_CASE("clips of two models are paired by name without the model's stem", "[compare]") {
    CHECK(clipKey("EV_ESCORT_IDLE_00.ALA", "EV_ESCORT") == "idle_00");
    CHECK(clipKey("ev_escort2_idle_00", "EV_ESCORT2") == "idle_00");
    CHECK(clipKey("HUCHARI_SKL.HUCHARI_IDL", "") == "huchari_skl.huchari_idl");
    const Model m = written(test::syntheticModel());
    const Clip idle = written(test::syntheticClip(), "A_IDLE_00.ALA");
    const Clip move = written(test::syntheticClip(), "A_MOVE_00.ALA");
    const Clip idle2 = written(test::syntheticClip(), "B_IDLE_00.ALA");
    const Clip die = written(test::syntheticClip(), "B_DIE_00.ALA");
    Side sa, sb;
    sa.model = sb.model = &m;
    sa.skeleton = sb.skeleton = &m.skeleton;
    sa.stem = "A";
    sb.stem = "B";
    sa.clips = {&idle, &move};
    sb.clips = {&idle2, &die};
    const Summary s = diff(sa, sb);
    INFO(dump(s));
    REQUIRE(s.differences.size() == 2);
    CHECK(s.differences[0].change == Change::Removed);
    CHECK(s.differences[0].subject == "A_MOVE_00");
    CHECK(s.differences[1].change == Change::Added);
    CHECK(s.differences[1].subject == "B_DIE_00");
    REQUIRE(s.clipPairs.size() == 1);
    CHECK(s.clipPairs[0].nameA == "A_IDLE_00");
    CHECK(s.clipPairs[0].nameB == "B_IDLE_00");
}

TEST_CASE("a bone one skeleton lacks is listed once, not again for its track", "[compare]") {
    Model mb = test::syntheticModel();
    mb.skeleton.bones.pop_back(); // no Hand
    mb.meshes[1].bone = 1;
    mb.dazzles[0].bone = 1;
    mb.proxies[1].bone = 1;
    mb.meshes[0].subMeshes[0].boneMap = {1, 1};
    const Model a = written(test::syntheticModel()), b = written(mb);
    Clip cb = test::syntheticClip();
    cb.tracks.pop_back();
    const Clip ca = written(test::syntheticClip()), cbw = written(cb);
    Side sa, sb;
    sa.model = &a;
    sa.skeleton = &a.skeleton;
    sa.clips = {&ca};
    sb.model = &b;
    sb.skeleton = &b.skeleton;
    sb.clips = {&cbw};
    const Summary s = diff(sa, sb);
    INFO(dump(s));
    only(s, Category::Bone, Change::Removed, "Hand");
    for (const Difference& d : s.differences)
        CHECK(d.category != Category::Track);
}

TEST_CASE("the order of differences is the same on every run and follows A", "[compare]") {
    Model b = test::syntheticModel();
    b.lights[0].intensity = 3.0f;
    b.skeleton.bones[1].bindLocal[3].x += 1.0f;
    b.meshes[0].subMeshes[0].material.shader = "X.fx";
    const Model a = written(test::syntheticModel()), bw = written(b);
    const Summary s = modelDiff(a, bw), t = modelDiff(a, bw);
    REQUIRE(s.differences.size() == 3);
    CHECK(dump(s) == dump(t));
    CHECK(s.differences[0].category == Category::Bone);
    CHECK(s.differences[1].category == Category::Material);
    CHECK(s.differences[2].category == Category::Light);
}

// W3D pairs made by the project's W3D writer (tests/core/compare_fixtures.h): a hierarchy file, an HLOD with one
// mesh and a companion clip on each side, opened through the resolver.

TEST_CASE("W3D: identical written sets have no differences and pair their clip", "[compare][w3d]") {
    const W3dPair p({});
    INFO(dump(p.summary));
    REQUIRE(p.a.document.model);
    REQUIRE(p.a.clips.size() == 1);
    CHECK(p.summary.identical());
    CHECK(p.summary.notes.empty());
    REQUIRE(p.summary.clipPairs.size() == 1);
    CHECK(p.summary.clipPairs[0].framesA == 5);
    CHECK(p.summary.clipPairs[0].framesB == 5);
    CHECK(p.summary.clipPairs[0].largestBone.empty());
}

TEST_CASE("W3D: a bone moved in the hierarchy is reported once with its distance", "[compare][w3d]") {
    const W3dPair p(one(&test::W3dChanges::moveHand));
    INFO(dump(p.summary));
    REQUIRE(p.summary.differences.size() == 1);
    const Difference& d = only(p.summary, Category::Bone, Change::Moved, "HAND");
    CHECK(d.localDistance == Approx(0.5).margin(1e-5));
    CHECK(d.distance == Approx(0.5).margin(1e-5)); // a translation along the parent's axes keeps its length
    CHECK(d.angle == Approx(0).margin(0.01));
    CHECK(d.boneA == 3);
    CHECK(d.boneB == 3);
}

TEST_CASE("W3D: a bone added to the hierarchy is reported once", "[compare][w3d]") {
    const W3dPair p(one(&test::W3dChanges::addBone));
    INFO(dump(p.summary));
    REQUIRE(p.summary.differences.size() == 1);
    CHECK(only(p.summary, Category::Bone, Change::Added, "EXTRA").boneB == 4);
}

TEST_CASE("W3D: a mesh's vertex count changed is reported once, with the counts", "[compare][w3d]") {
    const W3dPair p(one(&test::W3dChanges::addVertex));
    INFO(dump(p.summary));
    REQUIRE(p.summary.differences.size() == 1);
    const Difference& d = p.summary.differences[0];
    CHECK(d.category == Category::SubMesh);
    CHECK(d.change == Change::Changed);
    CHECK(d.field == "vertices");
    CHECK(d.subject.find("QUAD") != std::string::npos);
    CHECK(d.valueA == 4);
    CHECK(d.valueB == 5);
}

TEST_CASE("W3D: a texture changed is the material's texture and the texture set, each once", "[compare][w3d]") {
    const W3dPair p(one(&test::W3dChanges::otherTexture));
    INFO(dump(p.summary));
    REQUIRE(p.summary.differences.size() == 3);
    REQUIRE(countOf(p.summary, Category::Parameter) == 1);
    const Difference& t = p.summary.differences[0];
    CHECK(t.category == Category::Parameter);
    CHECK(t.change == Change::Changed);
    CHECK(t.field == "texture");
    CHECK(t.subject.find("QUAD") != std::string::npos);
    CHECK(t.a == "quad.tga");
    CHECK(t.b == "other.tga");
    only(p.summary, Category::Texture, Change::Removed, "quad.tga");
    only(p.summary, Category::Texture, Change::Added, "other.tga");
}

TEST_CASE("W3D: a clip's length changed is reported once, its held frames add no motion", "[compare][w3d]") {
    const W3dPair p(one(&test::W3dChanges::longerClip));
    INFO(dump(p.summary));
    REQUIRE(p.summary.differences.size() == 1);
    REQUIRE(p.summary.clipPairs.size() == 1);
    const std::string name = p.summary.clipPairs[0].nameA;
    const Difference& d = only(p.summary, Category::Clip, Change::Changed, name, "length");
    CHECK(d.a == "5 frames at 15 fps (0.267 s)");
    CHECK(d.b == "9 frames at 15 fps (0.533 s)");
    CHECK(p.summary.clipPairs[0].largestBone.empty());
}

TEST_CASE("W3D: a bone's largest difference over the clip, with its time", "[compare][w3d]") {
    const W3dPair p(one(&test::W3dChanges::armFurther));
    INFO(dump(p.summary));
    REQUIRE(p.summary.differences.size() == 1);
    const Difference& d = only(p.summary, Category::Track, Change::Changed, "ARM", "motion");
    CHECK(d.distance == Approx(0.6).margin(1e-4));
    CHECK(d.distanceTime == Approx(2.0 / 15.0));
    CHECK(d.angle == Approx(0).margin(0.01));
    CHECK(d.boneA == 2);
    REQUIRE(p.summary.clipPairs.size() == 1);
    CHECK(p.summary.clipPairs[0].largestBone == "ARM");
    CHECK(p.summary.clipPairs[0].largestDistance == Approx(0.6).margin(1e-4));
    CHECK(p.summary.clipPairs[0].largestDistanceTime == Approx(2.0 / 15.0));
}

TEST_CASE("W3D: every change at once, each reported exactly once", "[compare][w3d]") {
    const W3dPair p({true, true, true, true, true, true});
    const Summary& s = p.summary;
    INFO(dump(s));
    CHECK(only(s, Category::Bone, Change::Moved, "HAND").distance == Approx(0.5).margin(1e-5));
    only(s, Category::Bone, Change::Added, "EXTRA");
    CHECK(countOf(s, Category::Bone) == 2);
    REQUIRE(countOf(s, Category::SubMesh) == 1);
    REQUIRE(countOf(s, Category::Parameter) == 1);
    only(s, Category::Texture, Change::Removed, "quad.tga");
    only(s, Category::Texture, Change::Added, "other.tga");
    REQUIRE(s.clipPairs.size() == 1);
    only(s, Category::Clip, Change::Changed, s.clipPairs[0].nameA, "length");
    CHECK(only(s, Category::Track, Change::Changed, "ARM", "motion").distance == Approx(0.6).margin(1e-4));
    CHECK(s.differences.size() == 8);
    // The order is fixed: bones, the mesh, its material, the texture set, then the clip.
    CHECK(s.differences.front().category == Category::Bone);
    CHECK(s.differences.back().category == Category::Track);
    // No row twice.
    std::set<std::string> rows;
    for (const Difference& d : s.differences)
        CHECK(rows.insert(std::string(categoryName(d.category)) + "|" + changeName(d.change) + "|" + d.subject + "|" +
                          d.field)
                  .second);
}

TEST_CASE("B&W2: a written skin with a bone moved and its texture changed, each reported once", "[compare][bw2]") {
    using namespace test::bw2fx;
    const BwmFile fa = skinModel(SkinLayout::U8PerIndex);
    BwmFile fb = fa;
    fb.bones[3] = frameAt({0, 3.5f, 0}, 30.0f); // (0, 3, 0) -> (0, 3.5, 0), same rotation
    fb.materials[0].diffuse = "t_other.dds";
    const auto ba = writeBwm(fa), bb = writeBwm(fb), ba2 = writeBwm(fa);
    const Model a = readBwm(ByteSpan(ba), "A.BWM"), b = readBwm(ByteSpan(bb), "B.BWM"),
                a2 = readBwm(ByteSpan(ba2), "A2.BWM");
    CHECK(modelDiff(a, a2).identical());
    const Summary s = modelDiff(a, b);
    INFO(dump(s));
    const Difference& bone = only(s, Category::Bone, Change::Moved, "bone_3");
    CHECK(bone.distance == Approx(0.5).margin(1e-4));
    CHECK(bone.angle == Approx(0).margin(0.05));
    // The skin's two material references (sub-meshes) share the material: one row each, and the texture set once.
    for (const char* sub : {"m_creature[0].BaseTexture", "m_creature[1].BaseTexture"}) {
        const Difference& t = only(s, Category::Parameter, Change::Changed, sub, "texture");
        CHECK(t.a == "t_body.dds");
        CHECK(t.b == "t_other.dds");
    }
    only(s, Category::Texture, Change::Removed, "t_body.dds");
    only(s, Category::Texture, Change::Added, "t_other.dds");
    CHECK(s.differences.size() == 5);
}

TEST_CASE("corpus: the stormtrooper and the novatrooper, two variants of one infantry rig", "[compare][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo/Delta730+Imperial_Civil_War");
    const std::string dir = test::corpusDir() + "/alamo/Delta730+Imperial_Civil_War/Data/Art/Models/";
    const Resolver r;
    const Asset a = r.open(dir + "EI_STORMTROOPER.ALO"), b = r.open(dir + "EI_NOVATROOPER.ALO");
    const Summary s = diff(sideOf(a), sideOf(b));
    INFO(dump(s));
    for (const std::string& n : s.notes)
        INFO(n);
    CAPTURE(s.differences.size());
    // Facts read from the files and judged by hand (see the branch's report).
    // No row twice.
    std::set<std::string> rows;
    for (const Difference& d : s.differences)
        CHECK(rows.insert(std::string(categoryName(d.category)) + "|" + changeName(d.change) + "|" + d.subject + "|" +
                          d.field + "|" + d.clipA)
                  .second);
    // The novatrooper carries its gun on B_Gun: Box01 is gone and the muzzle hangs from the gun bone.
    only(s, Category::Bone, Change::Removed, "Box01");
    const Difference& muzzle = only(s, Category::Bone, Change::Reparented, "MuzzleA_00", "parent");
    CHECK(muzzle.a == "Box01");
    CHECK(muzzle.b == "B_Gun");
    // Other meshes and textures: the stormtrooper's LODs against the sand trooper's mesh.
    only(s, Category::Mesh, Change::Removed, "Storm_Trooper_LOD0");
    only(s, Category::Mesh, Change::Added, "Sand_Trooper");
    only(s, Category::Texture, Change::Removed, "EI_TROOPER.DDS");
    only(s, Category::Texture, Change::Added, "EI_NOVATROOPER.dds");
    // The five clips of each pair up by name without the model's name; the novatrooper's are a frame shorter.
    REQUIRE(s.clipPairs.size() == 5);
    const Difference& idle =
        only(s, Category::Clip, Change::Changed, "EI_STORMTROOPER_IDLE_00 / EI_NOVATROOPER_IDLE_00", "length");
    CHECK(idle.a == "30 frames at 30 fps (0.967 s)");
    CHECK(idle.b == "29 frames at 30 fps (0.933 s)");
    // The walk differs most at the calf: 8.5 degrees at the last frame (where the shorter clip has ended).
    for (const ClipPair& p : s.clipPairs)
        if (p.nameA == "EI_STORMTROOPER_MOVE_00") {
            CHECK(p.nameB == "EI_NOVATROOPER_MOVE_00");
            CHECK(p.largestAngleBone == "MuzzleA_00_Flash");
        }
}
