// Edits (issue 39 items 3 and 5, core/edit/edits.h): each edit kind on a writer-made file and a corpus file; the
// edited value changes on read-back by the reader, every other byte outside the edited nodes and their
// ancestors' size fields stays; undo restores the bytes read; a bone rename reaches the companion files.
#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "bw2/bw2_writer.h"
#include "bw2/bwm.h"
#include "bw2_fixtures.h"
#include "common/file_read.h"
#include "corpus.h"
#include "demo/demo_model.h"
#include "edit/edits.h"
#include "edit_expect.h"
#include "formats/formats.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace rs;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<const std::vector<uint8_t>> shared(std::vector<uint8_t> b) {
    return std::make_shared<const std::vector<uint8_t>>(std::move(b));
}

EditOp op(EditOp::Kind k, std::string target, std::string name, std::string value) {
    EditOp o;
    o.kind = k;
    o.target = std::move(target);
    o.name = std::move(name);
    o.value = std::move(value);
    return o;
}

// Applies `o` to a fresh set holding `bytes` as `label`; checks the dry run changes nothing and lists the same
// changes, that the bytes written are the original with only the edited payloads and the size fields above them
// changed, and that undo gives the original back and redo the edit again. Returns the bytes written.
std::vector<uint8_t> editAndCheck(const std::vector<uint8_t>& bytes, const std::string& label, const EditOp& o,
                                  size_t expectChanges) {
    INFO(describeEdit(o));
    edit::EditSet set;
    edit::EditFile& f = set.add(label, shared(bytes));
    const edit::Step dry = set.apply(label, o, false);
    REQUIRE(dry.changes.size() == expectChanges);
    REQUIRE_FALSE(set.find(label)->dirty());
    REQUIRE(set.find(label)->written() == bytes);
    const edit::Step step = set.apply(label, o, true);
    REQUIRE(step.changes.size() == expectChanges);
    for (size_t i = 0; i < expectChanges; ++i) {
        CHECK(step.changes[i].path == dry.changes[i].path);
        CHECK(step.changes[i].after == dry.changes[i].after);
    }
    REQUIRE(set.find(label)->dirty() == (expectChanges > 0));
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> edits;
    for (const edit::Change& c : step.changes)
        if (!c.node.empty()) edits.push_back({c.offset, *c.payloadAfter});
    const std::vector<uint8_t> got = set.find(label)->written();
    const SourceTree fresh = sourceTree(f.format, shared(bytes), label);
    REQUIRE(got == test::expectedAfter(bytes, fresh, edits));
    set.undo(step);
    REQUIRE_FALSE(set.find(label)->dirty());
    REQUIRE(set.find(label)->written() == bytes);
    set.redo(step);
    REQUIRE(set.find(label)->written() == got);
    return got;
}

const MaterialParam* param(const Model& m, const std::string& mesh, const std::string& name) {
    for (const Mesh& x : m.meshes)
        if (x.name == mesh)
            for (const SubMesh& sm : x.subMeshes)
                if (const MaterialParam* p = sm.material.find(name)) return p;
    return nullptr;
}

} // namespace

TEST_CASE("edit: Alamo shader, parameters, bones, meshes, proxies, lights, dazzles on a writer-made model", "[edit]") {
    const Model model = test::syntheticModel();
    const std::vector<uint8_t> orig = alamo::writeModel(model);
    using K = EditOp::Kind;
    // The shader, longer than before: sizes above it grow.
    Model m = alamo::readModel(
        ByteSpan(editAndCheck(orig, "m.alo", op(K::SetShader, "FC_Skin", "", "MeshGloss.fx"), 1)), "m");
    CHECK(m.meshes.at(0).subMeshes.at(0).material.shader == "MeshGloss.fx");
    // Each parameter type.
    m = alamo::readModel(
        ByteSpan(editAndCheck(orig, "m.alo", op(K::SetParam, "FC_Skin", "colorization", "#FF8000"), 1)), "m");
    CHECK(param(m, "FC_Skin", "Colorization")->value == glm::vec4(1, 128 / 255.0f, 0, 1));
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetParam, "FC_Skin#0", "Shininess", "8"), 1)), "m");
    CHECK(param(m, "FC_Skin", "Shininess")->value.x == 8.0f);
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetParam, "", "Tint", "1, 2, 3"), 1)), "m");
    CHECK(param(m, "FC_Skin", "Tint")->value == glm::vec4(1, 2, 3, 0));
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetParam, "FC_Skin", "Passes", "3"), 1)), "m");
    CHECK(param(m, "FC_Skin", "Passes")->intValue == 3);
    m = alamo::readModel(
        ByteSpan(editAndCheck(orig, "m.alo", op(K::SetParam, "FC_Skin", "BaseTexture", "W_NEW_LONGER_NAME.DDS"), 1)),
        "m");
    CHECK(param(m, "FC_Skin", "BaseTexture")->texture == "W_NEW_LONGER_NAME.DDS");
    // Bones.
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::RenameBone, "", "arm", "Upper_Arm"), 1)), "m");
    CHECK(m.skeleton.bones.at(1).name == "Upper_Arm");
    // Hand is written invisible, billboard mode 4 (a 0x206 chunk).
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetBoneVisible, "Hand", "", "1"), 1)), "m");
    CHECK(m.skeleton.bones.at(2).visible);
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetBoneBillboard, "hand", "", "2"), 1)), "m");
    CHECK(m.skeleton.bones.at(2).billboard == 2);
    CHECK_FALSE(m.skeleton.bones.at(2).visible);
    // Already so: no change.
    editAndCheck(orig, "m.alo", op(K::SetBoneVisible, "Hand", "", "false"), 0);
    // Meshes: the rigid mesh is written hidden with collision; shown, and its collision turned off.
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetMeshHidden, "Hull_LOD1_ALT2", "", "false"), 1)),
                         "m");
    for (const Mesh& x : m.meshes)
        if (x.name == "Hull_LOD1_ALT2") CHECK_FALSE(x.hidden);
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetMeshCollision, "Hull_LOD1_ALT2", "", "0"), 1)),
                         "m");
    for (const Mesh& x : m.meshes)
        if (x.name == "Hull_LOD1_ALT2") {
            CHECK_FALSE(x.collisionEnabled);
            CHECK(x.hidden);
        }
    // Proxies, lights, dazzles.
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetProxyTarget, "p_smoke", "", "p_steam"), 1)),
                         "m");
    CHECK(m.proxies.at(1).name == "p_steam");
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetProxyHidden, "p_fire_ALT1", "", "0"), 1)), "m");
    CHECK_FALSE(m.proxies.at(0).hidden);
    // p_smoke is stored without the hidden mini-chunk (not hidden): hiding appends one to its 0x603; showing it
    // again is no change.
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetProxyHidden, "p_smoke", "", "1"), 1)), "m");
    CHECK(m.proxies.at(1).hidden);
    CHECK(m.proxies.at(1).name == "p_smoke");
    editAndCheck(orig, "m.alo", op(K::SetProxyHidden, "p_smoke", "", "0"), 0);
    {
        // Edits after the append find the proxy in the payload as it is now: its target renamed, shown again.
        edit::EditSet set;
        set.add("m.alo", shared(orig));
        set.apply("m.alo", op(K::SetProxyHidden, "p_smoke", "", "1"));
        const edit::Step target = set.apply("m.alo", op(K::SetProxyTarget, "p_smoke", "", "p_steam_longer"));
        REQUIRE(target.changes.size() == 1);
        set.apply("m.alo", op(K::SetProxyHidden, "p_steam_longer", "", "0"));
        Model e = alamo::readModel(ByteSpan(set.find("m.alo")->written()), "m");
        CHECK(e.proxies.at(1).name == "p_steam_longer");
        CHECK_FALSE(e.proxies.at(1).hidden);
        CHECK(e.proxies.at(0).name == "p_fire_ALT1");
        set.undo(target);
        e = alamo::readModel(ByteSpan(set.find("m.alo")->written()), "m");
        CHECK(e.proxies.at(1).name == "p_smoke");
    }
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetLightColor, "Spot", "", "0 1 0"), 1)), "m");
    CHECK(m.lights.at(0).color == glm::vec3(0, 1, 0));
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetLightIntensity, "spot", "", "0.5"), 1)), "m");
    CHECK(m.lights.at(0).intensity == 0.5f);
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetDazzleColor, "Plain", "", "0.5 0.25 1"), 1)),
                         "m");
    CHECK(m.dazzles.at(1).color == glm::vec3(0.5f, 0.25f, 1));
    m = alamo::readModel(ByteSpan(editAndCheck(orig, "m.alo", op(K::SetDazzleRate, "0", "", "7"), 1)), "m");
    CHECK(m.dazzles.at(0).frequency == 7.0f);

    // Refusals name the file and leave it unchanged.
    edit::EditSet set;
    set.add("m.alo", shared(orig));
    CHECK_THROWS_WITH(set.apply("m.alo", op(K::SetParam, "NoSuchMesh", "Tint", "1 2 3")),
                      Catch::Contains("m.alo") && Catch::Contains("NoSuchMesh"));
    CHECK_THROWS_WITH(set.apply("m.alo", op(K::SetParam, "FC_Skin", "Tint", "1 2")), Catch::Contains("3 numbers"));
    CHECK_THROWS_WITH(set.apply("m.alo", op(K::SetParam, "FC_Skin", "Tint", "1 nan 2")), Catch::Contains("3 numbers"));
    CHECK_THROWS_AS(set.apply("m.alo", op(K::SetBoneBillboard, "Hand", "", "x")), EditError);
    CHECK_FALSE(set.find("m.alo")->dirty());
}

TEST_CASE("edit: a bone rename carried into the clips beside the model and the EaW XML, and a clip frame rate",
          "[edit]") {
    const fs::path dir = fs::temp_directory_path() / "rigscope_edit_companions";
    fs::remove_all(dir);
    fs::create_directories(dir / "Data/Art/Models");
    fs::create_directories(dir / "Data/XML");
    const fs::path models = dir / "Data/Art/Models";
    auto put = [](const fs::path& p, const std::vector<uint8_t>& b) {
        std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), long(b.size()));
    };
    auto putText = [](const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; };
    const std::vector<uint8_t> model = alamo::writeModel(test::syntheticModel());
    const std::vector<uint8_t> clip = alamo::writeClip(test::syntheticClip());
    put(models / "EV_TEST.ALO", model);
    put(models / "EV_TEST_WALK_00.ALA", clip);
    put(models / "OTHER_WALK_00.ALA", clip); // names Arm too, but belongs to another model
    putText(dir / "Data/XML/GAMEOBJECTFILES.XML",
            "<?xml version=\"1.0\"?>\n<Game_Object_Files>\n\t<File>UNITS.XML</File>\n</Game_Object_Files>\n");
    const std::string units = "<?xml version=\"1.0\"?>\n<Units>\n"
                              "\t<SpaceUnit Name=\"Test\">\n\t\t<Space_Model_Name>EV_TEST.ALO</Space_Model_Name>\n"
                              "\t\t<Attachment_Bone>Arm</Attachment_Bone>\n\t\t<Text>Arm</Text>\n\t</SpaceUnit>\n"
                              "\t<SpaceUnit Name=\"Other\">\n\t\t<Space_Model_Name>OTHER.ALO</Space_Model_Name>\n"
                              "\t\t<Attachment_Bone>Arm</Attachment_Bone>\n\t</SpaceUnit>\n</Units>\n";
    putText(dir / "Data/XML/UNITS.XML", units);

    auto table = std::make_shared<vfs::MountTable>(vfs::mountInstall({}, {dir.string()}));
    const Resolver resolver(table);
    const std::string path = (models / "EV_TEST.ALO").string();
    const std::vector<std::string> companions = edit::boneCompanions(&resolver, path, "ARM");
    REQUIRE(companions.size() == 2);
    CHECK(companions[0].find("EV_TEST_WALK_00.ALA") != std::string::npos);
    CHECK(companions[1].find("UNITS.XML") != std::string::npos);

    edit::EditSet set(&resolver);
    const edit::Step step = set.apply(path, op(EditOp::Kind::RenameBone, "", "ARM", "Upper_Arm"));
    REQUIRE(step.files().size() == 3);
    // The model and the clip read back with the new name; the XML changes in one line, in the right object.
    const Model m = alamo::readModel(ByteSpan(set.find(path)->written()), "m");
    CHECK(m.skeleton.bones.at(1).name == "Upper_Arm");
    const edit::EditFile& c = *set.find(companions[0]);
    const std::vector<uint8_t> clipOut = c.written();
    Document cd = Resolver().read(ByteSpan(clipOut), "EV_TEST_WALK_00.ALA");
    REQUIRE(cd.clips.size() == 1);
    CHECK(cd.clips[0]->tracks.at(0).boneName == "Upper_Arm");
    CHECK(cd.clips[0]->tracks.at(1).boneName == "HAND");
    const std::vector<uint8_t> xmlOut = set.find(companions[1])->written();
    std::string want = units;
    want.replace(want.find("<Attachment_Bone>Arm<") + 17, 3, "Upper_Arm");
    CHECK(std::string(xmlOut.begin(), xmlOut.end()) == want);
    // Undo restores all three.
    set.undo(step);
    CHECK(set.dirtyFiles().empty());
    CHECK(set.find(path)->written() == model);
    CHECK(set.find(companions[0])->written() == clip);

    // Frame rate of a clip: the header's mini-chunk only.
    const std::vector<uint8_t> rated = editAndCheck(clip, "c.ala", op(EditOp::Kind::SetClipRate, "", "", "24"), 1);
    cd = Resolver().read(ByteSpan(rated), "c.ala");
    CHECK(cd.clips.at(0)->fps == 24.0f);
    fs::remove_all(dir);
}

TEST_CASE("edit: SAGE INI ParticleSysBone follows a W3D pivot rename", "[edit]") {
    const fs::path dir = fs::temp_directory_path() / "rigscope_edit_sage";
    fs::remove_all(dir);
    fs::create_directories(dir / "Art/W3D");
    fs::create_directories(dir / "Data/INI/Object");
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy("UNIT"));
    const std::vector<uint8_t> skl = cw.take();
    std::ofstream(dir / "Art/W3D/UNIT.W3D", std::ios::binary)
        .write(reinterpret_cast<const char*>(skl.data()), long(skl.size()));
    const std::string ini =
        "Object Tank\n  Draw = W3DModelDraw ModuleTag_01\n    DefaultConditionState\n"
        "      Model = UNIT\n      ParticleSysBone = ARM SmokeTrail ; ARM here\n    End\n  End\nEnd\n"
        "Object Other\n  Draw = W3DModelDraw ModuleTag_01\n    DefaultConditionState\n"
        "      Model = OTHER\n      ParticleSysBone = ARM SmokeTrail\n    End\n  End\nEnd\n";
    std::ofstream(dir / "Data/INI/Object/Tank.ini", std::ios::binary) << ini;
    auto table = std::make_shared<vfs::MountTable>(vfs::mountInstall({}, {dir.string()}));
    const Resolver resolver(table);
    const std::string path = (dir / "Art/W3D/UNIT.W3D").string();
    edit::EditSet set(&resolver);
    const edit::Step step = set.apply(path, op(EditOp::Kind::RenameBone, "", "arm", "GUN"));
    REQUIRE(step.files().size() == 2);
    const std::vector<uint8_t> w = set.find(path)->written();
    REQUIRE(w.size() == skl.size());
    CHECK(w3d::readFile(ByteSpan(w), "UNIT.W3D").hierarchies.at(0).pivots.at(2).name == "GUN");
    const std::vector<uint8_t> iniOut = set.find(step.files()[1])->written();
    std::string want = ini;
    want.replace(want.find("= ARM") + 2, 3, "GUN");
    CHECK(std::string(iniOut.begin(), iniOut.end()) == want);
    fs::remove_all(dir);
}

TEST_CASE("edit: W3D vertex material colours, shader bits, FX shaders and properties, pivots, and B&W2 texture slots",
          "[edit]") {
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    w3d::writeMesh(cw, test::testQuad("A", "UNIT"));
    const std::vector<uint8_t> w = cw.take();
    using K = EditOp::Kind;
    std::vector<uint8_t> got = editAndCheck(w, "q.w3d", op(K::SetParam, "A", "Diffuse", "10 20 30"), 1);
    const w3d::File f = w3d::readFile(ByteSpan(got), "q.w3d");
    CHECK(f.meshes.at(0).vertexMaterials.at(0).diffuse == glm::u8vec4(10, 20, 30, 0));
    got = editAndCheck(w, "q.w3d", op(K::SetParam, "mat", "Opacity", "0.25"), 1);
    CHECK(w3d::readFile(ByteSpan(got), "q.w3d").meshes.at(0).vertexMaterials.at(0).opacity == 0.25f);
    got = editAndCheck(w, "q.w3d", op(K::SetParam, "A#0", "DepthMask", "0"), 1);
    CHECK(w3d::readFile(ByteSpan(got), "q.w3d").meshes.at(0).shaders.at(0).depthMask == 0);
    got = editAndCheck(w, "q.w3d", op(K::RenameBone, "", "body", "TORSO"), 1);
    CHECK(w3d::readFile(ByteSpan(got), "q.w3d").hierarchies.at(0).pivots.at(1).name == "TORSO");
    edit::EditSet set;
    set.add("q.w3d", shared(w));
    CHECK_THROWS_WITH(set.apply("q.w3d", op(K::RenameBone, "", "body", "A_NAME_OF_20_CHARS__")),
                      Catch::Contains("16-byte"));
    CHECK_THROWS_WITH(set.apply("q.w3d", op(K::SetParam, "A", "Diffuse", "300 0 0")), Catch::Contains("0..255"));

    // A BFME-style mesh with an FX shader material: its shader name and properties.
    w3d::RawMesh fx = test::testQuad("FX", "UNIT");
    w3d::ShaderMaterial sm;
    sm.typeName = "NormalMapped.fx";
    w3d::ShaderMaterialProperty tex, bump, spec;
    tex.type = 1;
    tex.name = "DiffuseTexture";
    tex.text = "QUAD.TGA";
    bump.type = 2;
    bump.name = "BumpScale";
    bump.value.x = 1.0f;
    spec.type = 5;
    spec.name = "SpecularColor";
    spec.value = {1, 1, 1, 1};
    sm.properties = {tex, bump, spec};
    fx.shaderMaterials = {sm};
    w3d::ChunkWriter cf;
    w3d::writeMesh(cf, fx);
    const std::vector<uint8_t> fxw = cf.take();
    got = editAndCheck(fxw, "fx.w3d", op(K::SetShader, "FX", "normalmapped.fx", "BumpMapped_Long_Name.fx"), 1);
    CHECK(w3d::readFile(ByteSpan(got), "fx.w3d").meshes.at(0).shaderMaterials.at(0).typeName ==
          "BumpMapped_Long_Name.fx");
    got = editAndCheck(fxw, "fx.w3d", op(K::SetParam, "FX", "BumpScale", "2.5"), 1);
    CHECK(w3d::readFile(ByteSpan(got), "fx.w3d").meshes.at(0).shaderMaterials.at(0).properties.at(1).value.x == 2.5f);
    got = editAndCheck(fxw, "fx.w3d", op(K::SetParam, "FX", "SpecularColor", "0.5 0.25 0 1"), 1);
    CHECK(w3d::readFile(ByteSpan(got), "fx.w3d").meshes.at(0).shaderMaterials.at(0).properties.at(2).value ==
          glm::vec4(0.5f, 0.25f, 0, 1));
    got = editAndCheck(fxw, "fx.w3d", op(K::SetParam, "FX", "DiffuseTexture", "grass_longer.dds"), 1);
    CHECK(w3d::readFile(ByteSpan(got), "fx.w3d").meshes.at(0).shaderMaterials.at(0).properties.at(0).text ==
          "grass_longer.dds");

    const std::vector<uint8_t> b = bw2::writeBwm(test::bw2fx::staticModel(6));
    got = editAndCheck(b, "s.bwm", op(K::SetParam, "material 1", "specular", "t_spec.dds"), 1);
    CHECK(bw2::parseBwm(ByteSpan(got), "s.bwm").materials.at(1).slot(3) == "t_spec.dds");
}

TEST_CASE("edit corpus: a real Alamo model's shader, parameter and bone (with its clips)", "[edit][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    const std::string dir = test::corpusDir() + "/alamo/Delta730+Imperial_Civil_War/Data/Art/Models";
    const std::string path = dir + "/EOTH_PHALANXSOLD.ALO";
    if (!fs::exists(path)) RIGSCOPE_SKIP("corpus lacks " << path);
    const std::vector<uint8_t> orig = readFile(path, kMaxInputBytes);
    using K = EditOp::Kind;
    Model m =
        alamo::readModel(ByteSpan(editAndCheck(orig, path, op(K::SetShader, "Sphere01", "", "MeshShiny.fx"), 1)), path);
    for (const Mesh& x : m.meshes)
        if (x.name == "Sphere01") CHECK(x.subMeshes.at(0).material.shader == "MeshShiny.fx");
    m = alamo::readModel(ByteSpan(editAndCheck(orig, path, op(K::SetParam, "Sphere01", "Diffuse", "0.5 0.5 0.5 1"), 1)),
                         path);
    CHECK(param(m, "Sphere01", "Diffuse")->value == glm::vec4(0.5f, 0.5f, 0.5f, 1));
    m = alamo::readModel(ByteSpan(editAndCheck(orig, path, op(K::RenameBone, "", "B_Head", "B_Head_Renamed"), 1)),
                         path);
    bool renamed = false;
    for (const Bone& b : m.skeleton.bones)
        renamed = renamed || b.name == "B_Head_Renamed";
    CHECK(renamed);
    // With the resolver: the clips beside it that name the bone change too, and read back with the new name.
    const Resolver resolver;
    edit::EditSet set(&resolver);
    const edit::Step step = set.apply(path, op(K::RenameBone, "", "B_Head", "B_Head_Renamed"));
    size_t clips = 0;
    for (const std::string& f : step.files()) {
        if (f == path) continue;
        const Document d = Resolver().read(ByteSpan(set.find(f)->written()), f);
        REQUIRE(d.clips.size() == 1);
        bool named = false;
        for (const BoneTrack& t : d.clips[0]->tracks)
            named = named || t.boneName == "B_Head_Renamed";
        CHECK(named);
        ++clips;
    }
    CHECK(clips >= 1);
    std::cout << "edit corpus: " << path << ": bone renamed in the model and " << clips << " clips\n";
}

TEST_CASE("edit corpus: a real W3D hierarchy's pivot renamed", "[edit][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    const std::string path = test::corpusDir() + "/w3d/sage-team+W3D-Tools/test/gumaarms_skl.w3d";
    if (!fs::exists(path)) RIGSCOPE_SKIP("corpus lacks " << path);
    const std::vector<uint8_t> orig = readFile(path, kMaxInputBytes);
    const w3d::File before = w3d::readFile(ByteSpan(orig), path);
    REQUIRE(before.hierarchies.size() == 1);
    const std::string old = before.hierarchies[0].pivots.at(1).name;
    const std::vector<uint8_t> got = editAndCheck(orig, path, op(EditOp::Kind::RenameBone, "", old, "RS_RENAMED"), 1);
    CHECK(w3d::readFile(ByteSpan(got), path).hierarchies.at(0).pivots.at(1).name == "RS_RENAMED");
}

TEST_CASE("edit: patch files and arguments", "[edit]") {
    const edit::Patch p = edit::parsePatch(R"({"files": ["*.alo"], "edits": [
        {"op": "rename-texture", "from": "A.DDS", "to": "B.DDS"},
        {"op": "set", "target": "HULL", "param": "Diffuse", "value": [1, 0.5, 0, 1]},
        {"op": "shader", "to": "MeshGloss.fx"},
        {"op": "bone-visible", "target": "B_Gun", "value": false},
        {"op": "rename-bone", "from": "Root", "to": "Base"}]})",
                                           "p.json");
    REQUIRE(p.files == std::vector<std::string>{"*.alo"});
    REQUIRE(p.ops.size() == 5);
    CHECK(p.ops[1].kind == EditOp::Kind::SetParam);
    CHECK(p.ops[1].value == "1 0.5 0 1");
    CHECK(p.ops[2].kind == EditOp::Kind::SetShader);
    CHECK(p.ops[3].value == "0");
    CHECK(p.ops[4].name == "Root");
    CHECK_THROWS_WITH(edit::parsePatch("{\"edits\": [\n  {\"op\": \"set\",,}]}", "p.json"),
                      Catch::StartsWith("p.json:2:16:"));
    CHECK_THROWS_WITH(edit::parsePatch("{\"edits\": [{\"op\": \"explode\"}]}", "p.json"),
                      Catch::Contains("unknown op"));
    CHECK_THROWS_WITH(edit::parsePatch("{\"edits\": [{\"op\": \"set\", \"param\": \"X\"}]}", "p.json"),
                      Catch::Contains("\"value\" is needed"));
    CHECK_THROWS_WITH(
        edit::parsePatch("{\"edits\": [{\"op\": \"set\", \"param\": \"X\", \"value\": 1, \"x\": 2}]}", "p.json"),
        Catch::Contains("unknown field \"x\""));
    CHECK_THROWS_WITH(edit::parsePatch(std::string(100000, '['), "p.json"), Catch::Contains("nested deeper"));
    CHECK_THROWS_WITH(
        edit::parsePatch("{\"edits\": [{\"op\": \"set\", \"param\": \"X\", \"value\": {\"a\": 1}}]}", "p.json"),
        Catch::Contains("edits[0]"));
    // Clip trim (frames first..last) and clip rename.
    const edit::Patch c = edit::parsePatch(
        R"({"edits": [{"op": "clip-trim", "first": 5, "last": 20}, {"op": "clip-rename", "value": "RUN"}]})", "c.json");
    REQUIRE(c.ops.size() == 2);
    CHECK(c.ops[0].kind == EditOp::Kind::TrimClip);
    CHECK(c.ops[0].first == 5);
    CHECK(c.ops[0].last == 20);
    CHECK(c.ops[1].kind == EditOp::Kind::RenameClip);
    CHECK(c.ops[1].value == "RUN");
    CHECK_THROWS_WITH(edit::parsePatch(R"({"edits": [{"op": "clip-trim", "first": 5, "last": 2}]})", "c.json"),
                      Catch::Contains("after"));
    CHECK_THROWS_WITH(edit::parsePatch(R"({"edits": [{"op": "clip-trim", "first": -1, "last": 2}]})", "c.json"),
                      Catch::Contains("frame number"));
    CHECK_THROWS_WITH(
        edit::parsePatch(R"({"edits": [{"op": "clip-trim", "first": 1, "last": 2, "value": 3}]})", "c.json"),
        Catch::Contains("unknown field"));
    CHECK_THROWS_AS(edit::parsePatch("[]", "p.json"), EditError);
    CHECK_THROWS_AS(edit::parsePatch("", "p.json"), EditError);

    EditOp s = edit::parseSetArg("HULL#1.Diffuse=1 0 0 1");
    CHECK(s.target == "HULL#1");
    CHECK(s.name == "Diffuse");
    s = edit::parseSetArg(".shader=MeshGloss.fx");
    CHECK(s.kind == EditOp::Kind::SetShader);
    CHECK(s.target.empty());
    CHECK_THROWS_AS(edit::parseSetArg("Diffuse=1"), EditError);
    CHECK_THROWS_AS(edit::parseRenameArg(EditOp::Kind::RenameBone, "A="), EditError);
}

namespace {

// Trims `bytes` (an Alamo clip) to frames first..last through editAndCheck (the bytes outside the cut chunks and
// their ancestors' sizes unchanged, undo/redo) and checks every decoded value of the result against the original's
// frame first + f.
void trimAndCompare(const std::vector<uint8_t>& bytes, const std::string& label, uint32_t first, uint32_t last) {
    EditOp o;
    o.kind = EditOp::Kind::TrimClip;
    o.first = first;
    o.last = last;
    size_t changes = 0;
    {
        edit::EditSet dry;
        dry.add(label, shared(bytes));
        changes = dry.apply(label, o, false).changes.size();
    }
    REQUIRE(changes >= 2); // the frame count and at least one data chunk
    const std::vector<uint8_t> out = editAndCheck(bytes, label, o, changes);
    const Document a = Resolver().read(ByteSpan(bytes), label), b = Resolver().read(ByteSpan(out), label);
    REQUIRE(a.clips.size() == 1);
    REQUIRE(b.clips.size() == 1);
    const Clip &ca = *a.clips[0], &cb = *b.clips[0];
    CHECK(cb.frameCount == last - first + 1);
    CHECK(cb.fps == ca.fps);
    CHECK(cb.version == ca.version);
    CHECK(cb.warnings.size() == ca.warnings.size());
    REQUIRE(cb.tracks.size() == ca.tracks.size());
    size_t values = 0;
    for (size_t t = 0; t < ca.tracks.size(); ++t) {
        const BoneTrack &ta = ca.tracks[t], &tb = cb.tracks[t];
        INFO("track " << ta.boneName);
        CHECK(tb.boneName == ta.boneName);
        auto same = [&](const auto& va, const auto& vb) {
            if (va.size() <= 1) {
                CHECK(vb == va); // constant or absent: kept as is
                return;
            }
            REQUIRE(vb.size() == cb.frameCount);
            for (uint32_t f = 0; f < cb.frameCount; ++f, ++values)
                CHECK(vb[f] == va[first + f]);
        };
        same(ta.translation, tb.translation);
        if (cb.frameCount == 1 && cb.version == 1 && ta.rotation.size() > 1) {
            // Format 1 stores one frame of rotation as 8 bytes, which the reader takes for a constant rotation:
            // the same pose.
            CHECK(tb.rotation.empty());
            CHECK(tb.defaultRotation == ta.rotation[first]);
        } else {
            same(ta.rotation, tb.rotation);
        }
        same(ta.scale, tb.scale);
        same(ta.visibility, tb.visibility);
        same(ta.step, tb.step);
        if (!(cb.frameCount == 1 && cb.version == 1 && ta.rotation.size() > 1))
            CHECK(tb.defaultRotation == ta.defaultRotation);
    }
    CHECK(values > 0);
}

} // namespace

TEST_CASE("edit: an Alamo clip trimmed to a frame range, formats 1 and 2", "[edit]") {
    const Clip clip = demo::demoClipSource();
    for (int version : {1, 2}) {
        INFO("format " << version);
        alamo::AlaWriteOptions w;
        w.version = version;
        const std::vector<uint8_t> bytes = alamo::writeClip(clip, w);
        trimAndCompare(bytes, "DEMO_IDLE_00.ALA", 5, 20);  // the antenna's blink (12..17) and the step (5) inside
        trimAndCompare(bytes, "DEMO_IDLE_00.ALA", 13, 13); // one frame
        trimAndCompare(bytes, "DEMO_IDLE_00.ALA", 0, 29);  // the last frame only cut
        // Frames outside the clip, or reversed: refused, nothing changed.
        edit::EditSet set;
        set.add("c.ala", shared(bytes));
        EditOp o;
        o.kind = EditOp::Kind::TrimClip;
        o.first = 3;
        o.last = clip.frameCount;
        CHECK_THROWS_WITH(set.apply("c.ala", o), Catch::Contains("not within the clip's 0..30"));
        o.first = 9, o.last = 8;
        CHECK_THROWS_AS(set.apply("c.ala", o), EditError);
        CHECK(set.dirtyFiles().empty());
        // The whole clip: no change.
        o.first = 0, o.last = clip.frameCount - 1;
        CHECK(set.apply("c.ala", o).changes.empty());
    }
}

TEST_CASE("edit corpus: real Alamo clips trimmed", "[edit][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    const std::vector<std::string> clips = test::corpusFiles("alamo", {".ala"});
    if (clips.empty()) RIGSCOPE_SKIP("corpus has no .ala");
    size_t done = 0;
    for (size_t i = 0; i < clips.size() && done < 6; i += std::max<size_t>(1, clips.size() / 6)) {
        const std::string& path = clips[i];
        INFO(path);
        const std::vector<uint8_t> bytes = readFile(path, kMaxInputBytes);
        const Document d = Resolver().read(ByteSpan(bytes), path);
        if (d.clips.size() != 1 || d.clips[0]->frameCount < 4) continue;
        const uint32_t n = d.clips[0]->frameCount;
        trimAndCompare(bytes, path, n / 4, n - 1 - n / 4);
        ++done;
    }
    CHECK(done > 0);
    std::cout << "edit corpus: " << done << " real Alamo clips trimmed and compared frame by frame\n";
}

TEST_CASE("edit: a W3D clip renamed, uncompressed and compressed; Alamo clips refuse (named by their file)", "[edit]") {
    for (const w3d::ClipCodec codec : {w3d::ClipCodec::Uncompressed, w3d::ClipCodec::Timecoded}) {
        w3d::ClipSpec spec;
        spec.name = "WALK";
        spec.hierarchy = "TEST_SKL";
        spec.frames = 4;
        spec.codec = codec;
        if (codec != w3d::ClipCodec::Uncompressed) spec.version = 0x1;
        w3d::ChannelSpec ch;
        ch.pivot = 1;
        ch.type = 0;
        if (codec == w3d::ClipCodec::Uncompressed) {
            ch.values = {0, 1, 2, 3};
        } else {
            ch.keyFrames = {0, 3};
            ch.binary = {0, 0};
            ch.values = {0, 3};
        }
        spec.channels = {ch};
        w3d::ChunkWriter cw;
        w3d::writeClip(cw, spec);
        const std::vector<uint8_t> bytes = cw.take();
        const std::vector<uint8_t> got =
            editAndCheck(bytes, "TEST_SKL.WALK.w3d", op(EditOp::Kind::RenameClip, "", "", "RUN_FAST"), 1);
        CHECK(got.size() == bytes.size()); // a fixed 16-byte field
        const Document d = Resolver().read(ByteSpan(got), "TEST_SKL.WALK.w3d");
        REQUIRE(d.clips.size() == 1);
        CHECK(d.clips[0]->name == "RUN_FAST");
        CHECK(d.clips[0]->hierarchyName == "TEST_SKL");
        edit::EditSet set;
        set.add("c.w3d", shared(bytes));
        CHECK_THROWS_WITH(set.apply("c.w3d", op(EditOp::Kind::RenameClip, "", "", "A_NAME_OF_16_CHR")),
                          Catch::Contains("16-byte"));
    }
    edit::EditSet set;
    set.add("c.ala", shared(demo::demoAlaBytes()));
    CHECK_THROWS_WITH(set.apply("c.ala", op(EditOp::Kind::RenameClip, "", "", "X")), Catch::Contains("file name"));
}

// fuzz/fuzz_rewrite found a 146 KB W3D whose shader list (0x29) an edit took 35 s on (ASan): every entry copied
// the whole list twice. A shader field edit on a list of 9,000 entries changes each entry whose value differs,
// records one change per such entry, and pivots renamed in one 0x102 the same way.
TEST_CASE("edit: a shader field on a 9000-entry W3D shader list and a pivot rename on many pivots", "[edit]") {
    w3d::RawMesh q = test::testQuad("A", "UNIT");
    REQUIRE(q.shaders.size() == 1);
    q.shaders.assign(9000, q.shaders[0]);
    for (size_t k = 0; k < q.shaders.size(); k += 3)
        q.shaders[k].depthCompare = 7; // every third already holds the new value
    w3d::Hierarchy h = test::testHierarchy();
    REQUIRE(h.pivots.size() >= 2);
    const std::string renamed = h.pivots[1].name;
    for (size_t k = 0; k < 500; ++k) {
        w3d::Pivot p = h.pivots[1];
        p.name = k % 2 ? renamed : "OTHER";
        h.pivots.push_back(p);
    }
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, h);
    w3d::writeMesh(cw, q);
    const std::vector<uint8_t> w = cw.take();
    SourceTree t = sourceTree(Format::W3d, shared(w), "big.w3d");
    const std::vector<TextEdit> shaderEdits =
        applyEdit(Format::W3d, t, op(EditOp::Kind::SetParam, "A", "DepthCompare", "7"), true);
    CHECK(shaderEdits.size() == 6000);
    const std::vector<TextEdit> pivotEdits =
        applyEdit(Format::W3d, t, op(EditOp::Kind::RenameBone, "", renamed, "NEWNAME"), true);
    CHECK(pivotEdits.size() == 1 + 250); // the original pivot and the 250 copies of its name
    const std::vector<uint8_t> got = t.write();
    const w3d::File f = w3d::readFile(ByteSpan(got), "big.w3d");
    REQUIRE(f.meshes.at(0).shaders.size() == 9000);
    for (const w3d::Shader& s : f.meshes[0].shaders)
        CHECK(s.depthCompare == 7);
    size_t named = 0;
    for (const w3d::Pivot& p : f.hierarchies.at(0).pivots)
        named += p.name == "NEWNAME";
    CHECK(named == 251);
    CHECK(got.size() == w.size());
}
