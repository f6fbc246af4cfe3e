// The Materials panel's W3D and B&W2 edits (issue 39 item 3): the scene model records which vertex material, shader
// and texture entries of its mesh a W3D pass uses (W3dPassState::vmatIndex/shaderIndex/textureIndex) and which
// material of the file a sub-mesh is drawn with (Material::sourceIndex); an edit aimed at those entries
// ("MESH#index", "material N") changes the sub-mesh that uses them and no other, on a writer-made and a corpus file.
// Each edit: the bytes written are the original with only the edited payloads and their ancestors' size fields
// changed, undo gives the original back, and the reader reads the new value back.
#include "bw2/bw2_writer.h"
#include "bw2/bwm.h"
#include "bw2_fixtures.h"
#include "common/file_read.h"
#include "corpus.h"
#include "edit/edits.h"
#include "edit_expect.h"
#include "formats/formats.h"
#include "resolve/resolver.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>

using namespace rs;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<const std::vector<uint8_t>> shared(std::vector<uint8_t> b) {
    return std::make_shared<const std::vector<uint8_t>>(std::move(b));
}

EditOp setParam(std::string target, std::string name, std::string value) {
    EditOp o;
    o.kind = EditOp::Kind::SetParam;
    o.target = std::move(target);
    o.name = std::move(name);
    o.value = std::move(value);
    return o;
}

// Applies `o` to `bytes`; checks that exactly `changes` nodes change, that the bytes written are the original with
// only those payloads and their ancestors' size fields changed (computed from the original tree alone), and that
// undo restores the original. Returns the edited bytes.
std::vector<uint8_t> edited(const std::vector<uint8_t>& bytes, const std::string& label, const EditOp& o,
                            size_t changes = 1) {
    INFO(label << ": " << describeEdit(o));
    edit::EditSet set;
    edit::EditFile& f = set.add(label, shared(bytes));
    const edit::Step step = set.apply(label, o, true);
    REQUIRE(step.changes.size() == changes);
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> edits;
    for (const edit::Change& c : step.changes)
        edits.push_back({c.offset, *c.payloadAfter});
    const std::vector<uint8_t> got = set.find(label)->written();
    const SourceTree fresh = sourceTree(f.format, shared(bytes), label);
    REQUIRE(got == test::expectedAfter(bytes, fresh, edits));
    set.undo(step);
    REQUIRE(set.find(label)->written() == bytes);
    return got;
}

Model modelOf(const std::vector<uint8_t>& bytes, const std::string& path) {
    const Document d = Resolver().read(ByteSpan(bytes), path);
    REQUIRE(d.model);
    return *d.model;
}

// A quad of two triangles drawn with two vertex materials, two shaders and two textures (one each): two sub-meshes.
w3d::RawMesh twoMaterialQuad() {
    w3d::RawMesh m = test::testQuad("TWO", "UNIT");
    m.indices = {0, 1, 2, 3, 0, 2}; // triangle 1 starts at vertex 3 (a triangle takes its first vertex's material)
    w3d::VertexMaterial second = m.vertexMaterials[0];
    second.name = "second";
    second.diffuse = {10, 20, 30, 0};
    second.opacity = 1.0f;
    m.vertexMaterials.push_back(second);
    w3d::Shader opaque;
    opaque.texturing = 1;
    m.shaders.push_back(opaque);
    w3d::TextureRef t;
    t.name = "second.tga";
    m.textures.push_back(t);
    w3d::MaterialPass& p = m.passes[0];
    p.vertexMaterialIds = {0, 0, 0, 1};
    p.shaderIds = {0, 1};
    p.stages[0].textureIds = {0, 1};
    return m;
}

const W3dPassState& passOf(const Model& m, size_t sub) {
    return m.meshes.at(0).subMeshes.at(sub).material.w3dPasses.at(0);
}

} // namespace

TEST_CASE("material edits: a W3D sub-mesh's vertex material, shader bits and texture by the entries it uses",
          "[edit][materials]") {
    w3d::ChunkWriter cw;
    w3d::writeMesh(cw, twoMaterialQuad());
    const std::vector<uint8_t> w = cw.take();
    const Model before = modelOf(w, "two.w3d");
    REQUIRE(before.meshes.size() == 1);
    REQUIRE(before.meshes[0].subMeshes.size() == 2);
    // Which sub-mesh uses which entry (the reader's grouping order is its own: find them).
    size_t a = 0, b = 1;
    if (passOf(before, 0).vmatIndex == 1) std::swap(a, b);
    CHECK(passOf(before, a).vmatIndex == 0);
    CHECK(passOf(before, a).shaderIndex == 0);
    CHECK(passOf(before, a).textureIndex[0] == 0);
    CHECK(passOf(before, a).textureIndex[1] == -1);
    CHECK(passOf(before, b).vmatIndex == 1);
    CHECK(passOf(before, b).shaderIndex == 1);
    CHECK(passOf(before, b).textureIndex[0] == 1);
    CHECK(passOf(before, b).textures[0] == "second.tga");
    CHECK(before.meshes[0].subMeshes[0].material.sourceIndex == -1); // no FX shader material

    // Sub-mesh b's diffuse, as the panel's colour picker sends it (#rrggbb); a's stays.
    const std::string vmat = "TWO#" + std::to_string(passOf(before, b).vmatIndex);
    Model m = modelOf(edited(w, "two.w3d", setParam(vmat, "Diffuse", "#ff8000")), "two.w3d");
    CHECK(passOf(m, b).diffuse == glm::vec3(1.0f, 128 / 255.0f, 0.0f));
    CHECK(passOf(m, a).diffuse == passOf(before, a).diffuse);
    m = modelOf(edited(w, "two.w3d", setParam(vmat, "Emissive", "1 2 3")), "two.w3d");
    CHECK(passOf(m, b).emissive == glm::vec3(1, 2, 3) / 255.0f);
    m = modelOf(edited(w, "two.w3d", setParam(vmat, "Shininess", "7.5")), "two.w3d");
    CHECK(passOf(m, b).shininess == 7.5f);
    CHECK(passOf(m, a).shininess == passOf(before, a).shininess);

    // Shader bits of b's shader (as the panel's choices send them: the value's number).
    const std::string shader = "TWO#" + std::to_string(passOf(before, b).shaderIndex);
    m = modelOf(edited(w, "two.w3d", setParam(shader, "DepthCompare", "7")), "two.w3d");
    CHECK(passOf(m, b).shader.depthCompare == 7);
    CHECK(passOf(m, a).shader.depthCompare == passOf(before, a).shader.depthCompare);
    m = modelOf(edited(w, "two.w3d", setParam(shader, "AlphaTest", "1")), "two.w3d");
    CHECK(passOf(m, b).shader.alphaTest == 1);
    m = modelOf(edited(w, "two.w3d", setParam(shader, "DestBlend", "5")), "two.w3d");
    CHECK(passOf(m, b).shader.destBlend == 5);
    CHECK(passOf(m, a).shader.destBlend == passOf(before, a).shader.destBlend);

    // b's texture entry alone (a longer name: the chunk and the mesh grow); a rename would touch every reference.
    const std::string tex = "TWO#" + std::to_string(passOf(before, b).textureIndex[0]);
    m = modelOf(edited(w, "two.w3d", setParam(tex, "Texture", "a_longer_texture_name.dds")), "two.w3d");
    CHECK(passOf(m, b).textures[0] == "a_longer_texture_name.dds");
    CHECK(passOf(m, a).textures[0] == "quad.tga");

    // Refused, nothing changed: an entry the mesh has not, a value out of range, an empty name.
    edit::EditSet set;
    set.add("two.w3d", shared(w));
    CHECK_THROWS_WITH(set.apply("two.w3d", setParam("TWO#5", "Texture", "x.dds")), Catch::Contains("no material"));
    CHECK_THROWS_WITH(set.apply("two.w3d", setParam(shader, "SrcBlend", "256")), Catch::Contains("0..255"));
    CHECK_THROWS_WITH(set.apply("two.w3d", setParam(tex, "Texture", "")), Catch::Contains("empty"));
    CHECK_FALSE(set.find("two.w3d")->dirty());
}

TEST_CASE("material edits: a B&W2 sub-mesh's texture slot by its material and the parameter the panel shows",
          "[edit][materials]") {
    const std::vector<uint8_t> w = bw2::writeBwm(test::bw2fx::staticModel(6));
    const Model before = modelOf(w, "s.bwm");
    const bw2::BwmFile file = bw2::parseBwm(ByteSpan(w), "s.bwm");
    // Each sub-mesh names the material its reference names.
    REQUIRE(before.meshes.size() == file.meshes.size());
    for (size_t mi = 0; mi < file.meshes.size(); ++mi)
        for (size_t ri = 0; ri < file.meshes[mi].refs.size(); ++ri)
            CHECK(before.meshes[mi].subMeshes.at(ri).material.sourceIndex == int(file.meshes[mi].refs[ri].material));
    const Material& mat = before.meshes.at(0).subMeshes.at(0).material;
    REQUIRE(mat.sourceIndex >= 0);
    REQUIRE(mat.find("BaseTexture"));
    const std::string target = "material " + std::to_string(mat.sourceIndex);
    const std::vector<uint8_t> got = edited(w, "s.bwm", setParam(target, "BaseTexture", "t_new_diffuse.dds"));
    CHECK(bw2::parseBwm(ByteSpan(got), "s.bwm").materials.at(size_t(mat.sourceIndex)).slot(0) == "t_new_diffuse.dds");
    CHECK(modelOf(got, "s.bwm").meshes.at(0).subMeshes.at(0).material.find("BaseTexture")->texture ==
          "t_new_diffuse.dds");
    // The slot's own name still works; another material's slot stays.
    const std::vector<uint8_t> got2 = edited(w, "s.bwm", setParam(target, "diffuse", "t_other.dds"));
    const bw2::BwmFile after = bw2::parseBwm(ByteSpan(got2), "s.bwm");
    for (size_t i = 0; i < after.materials.size(); ++i)
        if (int(i) != mat.sourceIndex) CHECK(after.materials[i].slot(0) == file.materials[i].slot(0));
}

TEST_CASE("material edits corpus: a real W3D mesh's vertex material, shader and texture; a real .bwm's slot",
          "[edit][materials][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    size_t files = 0;
    for (const char* rel : {"/w3d/electronicarts+CnC_Renegade/Code/Tools/LevelEdit/res/carmarker.w3d",
                            "/w3d/electronicarts+CnC_Renegade/Code/Tools/LevelEdit/res/buildingicon.w3d",
                            "/w3d/TheAssemblyArmada+Thyme/tests/data/models/cube.w3d",
                            "/w3d/sage-team+W3D-Tools/test/gumaarms_skn.w3d"}) {
        const std::string path = test::corpusDir() + rel;
        if (!fs::exists(path)) continue;
        const std::vector<uint8_t> orig = readFile(path, kMaxInputBytes);
        const Model before = modelOf(orig, path);
        // The first sub-mesh whose pass uses a vertex material, a shader and a texture.
        const Mesh* mesh = nullptr;
        size_t sub = 0;
        for (const Mesh& x : before.meshes)
            for (size_t s = 0; s < x.subMeshes.size() && !mesh; ++s) {
                const auto& ps = x.subMeshes[s].material.w3dPasses;
                if (!ps.empty() && ps[0].vmatIndex >= 0 && ps[0].shaderIndex >= 0) {
                    mesh = &x;
                    sub = s;
                }
            }
        if (!mesh) continue;
        const W3dPassState p = mesh->subMeshes[sub].material.w3dPasses[0];
        auto after = [&](const std::vector<uint8_t>& b) -> W3dPassState {
            const Model m = modelOf(b, path);
            for (const Mesh& x : m.meshes)
                if (x.name == mesh->name) return x.subMeshes.at(sub).material.w3dPasses.at(0);
            FAIL("mesh " << mesh->name << " gone");
            return {};
        };
        const std::string vm = mesh->name + "#" + std::to_string(p.vmatIndex);
        const glm::vec3 newDiffuse = p.diffuse.x > 0.5f ? glm::vec3(0.0f) : glm::vec3(1.0f);
        CHECK(after(edited(orig, path, setParam(vm, "Diffuse", newDiffuse.x > 0 ? "255 255 255" : "0 0 0"))).diffuse ==
              newDiffuse);
        const int dc = p.shader.depthCompare == 7 ? 3 : 7;
        CHECK(after(edited(
                        orig, path,
                        setParam(mesh->name + "#" + std::to_string(p.shaderIndex), "DepthCompare", std::to_string(dc))))
                  .shader.depthCompare == dc);
        if (p.textureIndex[0] >= 0)
            CHECK(
                after(edited(orig, path,
                             setParam(mesh->name + "#" + std::to_string(p.textureIndex[0]), "Texture", "rs_edit.dds")))
                    .textures[0] == "rs_edit.dds");
        std::cout << "material edits corpus: " << path << " mesh " << mesh->name << ": diffuse, depth compare"
                  << (p.textureIndex[0] >= 0 ? " and texture" : "") << " edited\n";
        ++files;
    }
    CHECK(files >= 1);

    const std::string bwm = test::corpusDir() + "/bw2/WilliamESE+bw2ModelEditor/Models/m_norse_chieftains_grave.bwm";
    if (!fs::exists(bwm)) RIGSCOPE_SKIP("corpus lacks " << bwm);
    const std::vector<uint8_t> orig = readFile(bwm, kMaxInputBytes);
    const Model before = modelOf(orig, bwm);
    const Material& mat = before.meshes.at(0).subMeshes.at(0).material;
    REQUIRE(mat.sourceIndex >= 0);
    const std::vector<uint8_t> got =
        edited(orig, bwm, setParam("material " + std::to_string(mat.sourceIndex), "BaseTexture", "rs_edit.dds"));
    CHECK(bw2::parseBwm(ByteSpan(got), bwm).materials.at(size_t(mat.sourceIndex)).slot(0) == "rs_edit.dds");
    CHECK(modelOf(got, bwm).meshes.at(0).subMeshes.at(0).material.find("BaseTexture")->texture == "rs_edit.dds");
}
