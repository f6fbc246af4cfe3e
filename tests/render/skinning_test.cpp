// Skinning paths of the mesh shader: model-space (Alamo) and bone-space (W3D) palettes, dual-bone
// (BFME) second positions, and W3D-sized palettes indexing bones beyond 24.
#include "render_harness.h"
#include "test_models.h"

#include <catch2/catch.hpp>

#include <glm/gtc/matrix_transform.hpp>

using namespace rs::test;

namespace {

QImage shotOf(std::shared_ptr<rs::Model> m, std::shared_ptr<rs::Clip> clip, float t) {
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    auto& v = view();
    v.setOptions(o);
    v.setModel(m, {});
    v.setClip(clip);
    v.setCameraAngles(20.0f, 10.0f);
    v.setTime(t);
    return grab();
}

rs::SubMesh& armOf(rs::Model& m) {
    for (rs::Mesh& mesh : m.meshes)
        if (mesh.name == "Arm") return mesh.subMeshes[0];
    FAIL("no Arm mesh");
    return m.meshes[0].subMeshes[0];
}

// Moves the arm's vertices into the space of their bone (W3D convention).
void toBoneSpace(rs::Model& m) {
    rs::SubMesh& arm = armOf(m);
    std::vector<glm::mat4> bind(m.skeleton.bones.size());
    m.skeleton.bindWorld(bind.data());
    for (size_t v = 0; v < arm.positions.size(); ++v) {
        const glm::mat4 inv = glm::inverse(bind[size_t(arm.boneMap[arm.boneIndices[v][0]])]);
        arm.positions[v] = glm::vec3(inv * glm::vec4(arm.positions[v], 1.0f));
        arm.normals[v] = glm::normalize(glm::mat3(inv) * arm.normals[v]);
    }
    arm.space = rs::VertexSpace::Bone;
}

} // namespace

TEST_CASE("bone-space skin matches the model-space skin", "[render][skinning]") {
    auto clip = makeArmClip();
    auto modelSpace = makeFigure();
    auto boneSpace = makeFigure();
    toBoneSpace(*boneSpace);
    for (float t : {0.0f, 0.4f}) {
        const QImage a = shotOf(modelSpace, clip, t);
        const QImage b = shotOf(boneSpace, clip, t);
        INFO("t = " << t);
        CHECK(countChanged(a, b, 24) < 30);
    }
}

TEST_CASE("dual-bone skin blends the second position", "[render][skinning]") {
    auto clip = makeArmClip();
    auto base = makeFigure();
    toBoneSpace(*base);
    // Same geometry through two influences: weights 0.5/0.5 on the same bone and identical second positions.
    auto dual = makeFigure();
    toBoneSpace(*dual);
    base->format = dual->format = rs::Format::W3d; // dual-bone skins are W3D's: both through the generic program
    rs::SubMesh& arm = armOf(*dual);
    arm.positions2 = arm.positions;
    arm.normals2 = arm.normals;
    for (size_t v = 0; v < arm.positions.size(); ++v) {
        arm.boneIndices[v][1] = arm.boneIndices[v][0];
        arm.boneWeights[v] = glm::vec4(0.5f, 0.5f, 0.0f, 0.0f);
    }
    CHECK(countChanged(shotOf(base, clip, 0.4f), shotOf(dual, clip, 0.4f), 24) < 30);
    // Second positions pushed 1 unit along +Z at half weight lift the arm by 0.5: pixels change.
    for (auto& p : arm.positions2)
        p.z += 1.0f;
    CHECK(countChanged(shotOf(base, clip, 0.4f), shotOf(dual, clip, 0.4f), 24) > 200);
}

TEST_CASE("palettes reach bones beyond the Alamo limit of 24", "[render][skinning]") {
    // 120 extra bones in a chain before the arm bone: the arm's palette entry is far into the array.
    auto m = makeFigure();
    auto plain = makeFigure();
    std::vector<rs::Bone> bones = m->skeleton.bones;
    const int extra = 120;
    for (int i = 0; i < extra; ++i) {
        rs::Bone b;
        b.name = "Pad" + std::to_string(i);
        b.parent = 0;
        bones.push_back(b);
    }
    rs::Bone arm2 = bones[2];
    arm2.name = "Arm2";
    bones.push_back(arm2); // same bind as Arm, index 5 + extra
    m->skeleton.bones = bones;
    const int arm2Index = int(bones.size()) - 1;
    armOf(*m).boneMap = {1, arm2Index};
    auto clip = makeArmClip();
    clip->tracks[0].bone = arm2Index;
    clip->tracks[0].boneName = "Arm2";
    const QImage a = shotOf(plain, makeArmClip(), 0.4f), b = shotOf(m, clip, 0.4f);
    if (qEnvironmentVariableIsSet("RIGSCOPE_TEST_DUMP")) {
        a.save(qEnvironmentVariable("RIGSCOPE_TEST_DUMP") + "/palette_a.png");
        b.save(qEnvironmentVariable("RIGSCOPE_TEST_DUMP") + "/palette_b.png");
    }
    CHECK(countChanged(a, b, 24) < 30);
}
