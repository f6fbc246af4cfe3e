// The asset checker on writer-made mods (issue 38): where an Alamo shader is looked up (model.shader-unknown), a mod
// checked without its base game (ref.base-game notes instead of one finding per reference the game may satisfy),
// and the wording of limit.shadow-not-closed / limit.shadow-non-manifold and read.warning.
#include "check/check.h"
#include "check_fixtures.h"
#include "formats/shader_registry.h"
#include "resolve/lookup_rules.h"

#include <catch2/catch.hpp>

#include <sstream>

using namespace rs;
using namespace rs::test;
using Defect = CheckMod::Defect;

namespace {

check::Report checkMount(const std::vector<std::string>& games, const std::string& mod) {
    auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall(games, {mod}));
    const Resolver r(table);
    check::Options o;
    o.threads = 2;
    return check::checkMount(r, o);
}

std::string dump(const check::Report& r) {
    std::ostringstream s;
    for (const auto& f : r.findings)
        s << check::levelName(f.level) << " " << f.id << " " << f.file << " [" << f.where.str() << "] " << f.message
          << "\n";
    return s.str();
}

std::vector<check::Finding> withId(const check::Report& r, const std::string& id) {
    std::vector<check::Finding> out;
    for (const auto& f : r.findings)
        if (f.id == id) out.push_back(f);
    return out;
}

// CLEAN.ALO of the mod rewritten with `edit` applied to the clean model.
template <class Edit> void rewriteModel(const CheckMod& m, Edit edit) {
    Model model = CheckMod::cleanModel(Defect::None);
    edit(model);
    FakeInstall::write(std::filesystem::path(m.mod) / "Data/Art/Models/CLEAN.ALO", alamo::writeModel(model));
}

const std::vector<uint8_t> kFx = textBytes("technique t0 { pass p0 {} }\n");

} // namespace

// ---------------------------------------------------------------------------------------------------------------
// model.shader-unknown: the engine's lookup (resolve::shaderCandidates), and the shader registry's stock shaders.

TEST_CASE("check: shaders the shader registry knows are stock shaders, never unknown") {
    CheckMod m;
    for (const char* shader : {"MeshAdditiveVColor.fx", "MeshBumpReflectColorize.fx", "RSkinGloss.fxo",
                               "meshbumplight.FX", "MeshShadowVolume", "Grass.fx"}) {
        INFO(shader);
        rewriteModel(m, [&](Model& model) { model.meshes[0].subMeshes[0].material.shader = shader; });
        const check::Report r = checkMount({m.game}, m.mod);
        INFO(dump(r));
        CHECK(withId(r, "model.shader-unknown").empty());
        CHECK(isStockAlamoShader(shader));
    }
    CHECK_FALSE(isStockAlamoShader("MeshFancy.fx"));
    CHECK_FALSE(isStockAlamoShader("Dev/MeshGloss.fx")); // a folder of its own: the mod's
}

TEST_CASE("check: a mod's shader is looked up where the engine looks, in the mount's order") {
    CheckMod m(Defect::ShaderUnknown); // Hull's shader MeshFancy.fx
    const std::filesystem::path mod(m.mod), game(m.game);
    const std::string unknown = "shader MeshFancy.fx is no stock shader and is not found where the engine looks (as "
                                "named, DATA/ART/SHADERS/, .../TERRAIN/, .../ENGINE/; .fx, .fxo, .fxh)";

    SECTION("shipped nowhere: a finding") {
        const check::Report r = checkMount({m.game}, m.mod);
        const auto f = withId(r, "model.shader-unknown");
        INFO(dump(r));
        REQUIRE(f.size() == 1);
        CHECK(f[0].message == unknown);
        CHECK(f[0].where.material == "MeshFancy.fx");
    }
    SECTION("only in Data/Shaders/ (where mods keep HLSL sources, which the engine does not read): a finding that "
            "says so") {
        FakeInstall::write(mod / "Data/Shaders/MeshFancy.fx", kFx);
        const auto f = withId(checkMount({m.game}, m.mod), "model.shader-unknown");
        REQUIRE(f.size() == 1);
        CHECK(f[0].message ==
              unknown + "; DATA/SHADERS/MESHFANCY.FX is not where the engine looks (DATA/ART/SHADERS/ is)");
    }
    SECTION("in the mod's Data/Art/Shaders/: found") {
        FakeInstall::write(mod / "Data/Art/Shaders/MeshFancy.fx", kFx);
        const check::Report r = checkMount({m.game}, m.mod);
        INFO(dump(r));
        CHECK(withId(r, "model.shader-unknown").empty());
    }
    SECTION("compiled (.fxo) in Data/Art/Shaders/Terrain/: found") {
        FakeInstall::write(mod / "Data/Art/Shaders/Terrain/MESHFANCY.FXO", kFx);
        CHECK(withId(checkMount({m.game}, m.mod), "model.shader-unknown").empty());
    }
    SECTION("in an archive of the game's master MEG: found") {
        FakeInstall::write(game / "Data/Shaders.meg", vfs::writeMeg(1, {{"DATA\\ART\\SHADERS\\MESHFANCY.FX", kFx}}));
        FakeInstall::write(game / "Data/MegaFiles.xml",
                           textBytes("<Mega_Files>\n <File>Data\\Shaders.meg</File>\n</Mega_Files>\n"));
        CHECK(withId(checkMount({m.game}, m.mod), "model.shader-unknown").empty());
    }
}

TEST_CASE("check: shaderCandidates follows the engine's order: extension first, then the folders") {
    const std::vector<std::string> c = resolve::shaderCandidates("MeshFancy.fx");
    REQUIRE(c.size() == 12);
    CHECK(c[0] == "MESHFANCY.FX");
    CHECK(c[1] == "DATA/ART/SHADERS/MESHFANCY.FX");
    CHECK(c[2] == "DATA/ART/SHADERS/TERRAIN/MESHFANCY.FX");
    CHECK(c[3] == "DATA/ART/SHADERS/ENGINE/MESHFANCY.FX");
    CHECK(c[4] == "MESHFANCY.FXO");
    CHECK(c[11] == "DATA/ART/SHADERS/ENGINE/MESHFANCY.FXH");
    CHECK(resolve::shaderCandidates("Dev\\Glow")[1] == "DATA/ART/SHADERS/DEV/GLOW.FX");
    CHECK(resolve::shaderCandidates("").empty());
}

// ---------------------------------------------------------------------------------------------------------------
// A mod checked without its base game.

namespace {

// Four objects of a BFME II mod whose clips (and one model) live in the base game: 4 clip references (3 names), one
// model reference. Each object is 13 lines: its Animation block at line 7 of it, its default state at line 3.
void addBaseGameObjects(const SageCheckMod& m) {
    std::string ini;
    const char* clips[] = {"GUBASE_SKL.GUBASE_IDLA", "GUBASE_SKL.GUBASE_IDLB", "GUBASE_SKL.GUBASE_IDLA",
                           "GUBASE_SKL.GUBASE_RUNA"};
    for (int i = 0; i < 4; ++i)
        ini += "Object GuBase" + std::to_string(i) +
               "\n"
               "  Draw = W3DScriptedModelDraw ModuleTag_Draw\n"
               "    DefaultModelConditionState\n"
               "      Model = " +
               std::string(i == 3 ? "GUBASE_SKN" : "KBUNIT_SKN") +
               "\n"
               "    End\n"
               "    IdleAnimationState\n"
               "      Animation = IDLA\n"
               "        AnimationName = " +
               clips[i] +
               "\n"
               "      End\n"
               "    End\n"
               "  End\n"
               "End\n\n";
    FakeInstall::write(std::filesystem::path(m.mod) / "data/ini/object/basegame.ini", textBytes(ini));
}

} // namespace

TEST_CASE("check: a mod without its game: references it does not hold are one ref.base-game note per check id") {
    SageCheckMod m;
    addBaseGameObjects(m);

    // Without the game: no error, no warning; one note per id, with the count, the names and examples.
    const check::Report alone = checkMount({}, m.mod);
    INFO(dump(alone));
    CHECK_FALSE(alone.reaches(check::Level::Warning));
    const auto notes = withId(alone, "ref.base-game");
    REQUIRE(notes.size() == 2);
    CHECK(alone.leftToBaseGame == 5); // 4 clips + 1 model
    CHECK(alone.findings.size() == 2);
    const check::Finding& clips = notes[0].subject == "object.clip-missing" ? notes[0] : notes[1];
    const check::Finding& models = notes[0].subject == "object.clip-missing" ? notes[1] : notes[0];
    CHECK(clips.level == check::Level::Info);
    CHECK(clips.file == m.mod);
    CHECK(clips.message ==
          "4 references (object.clip-missing, 3 names) to what the mod does not define or ship, which the base game "
          "may provide; mount the game to check them. E.g. GUBASE_SKL.GUBASE_IDLA (GuBase0, "
          "DATA/INI/OBJECT/BASEGAME.INI:7); GUBASE_SKL.GUBASE_IDLB (GuBase1, DATA/INI/OBJECT/BASEGAME.INI:20); "
          "GUBASE_SKL.GUBASE_RUNA (GuBase3, DATA/INI/OBJECT/BASEGAME.INI:46)");
    CHECK(models.subject == "object.model-missing");
    CHECK(models.message == "1 reference (object.model-missing, 1 name) to what the mod does not define or ship, "
                            "which the base game may provide; mount the game to check them. E.g. GUBASE_SKN "
                            "(GuBase3, DATA/INI/OBJECT/BASEGAME.INI:42)");

    // With the game mounted (which does not hold them either): each is an error where it is written.
    const check::Report withGame = checkMount({m.game}, m.mod);
    INFO(dump(withGame));
    CHECK(withId(withGame, "ref.base-game").empty());
    CHECK(withGame.leftToBaseGame == 0);
    const auto clipErrors = withId(withGame, "object.clip-missing");
    REQUIRE(clipErrors.size() == 4);
    for (const auto& f : clipErrors) {
        CHECK(f.level == check::Level::Error);
        CHECK(f.key == "DATA/INI/OBJECT/BASEGAME.INI");
    }
    CHECK(withId(withGame, "object.model-missing").size() == 1);
}

TEST_CASE("check: an Alamo mod without its game: missing textures and proxies are notes; real defects stay") {
    CheckMod tex(Defect::TextureMissing);
    const check::Report r = checkMount({}, tex.mod);
    INFO(dump(r));
    CHECK_FALSE(r.reaches(check::Level::Warning));
    const auto notes = withId(r, "ref.base-game");
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].subject == "model.texture-missing");
    CHECK_THAT(notes[0].message, Catch::StartsWith("1 reference (model.texture-missing, 1 name)"));
    CHECK_THAT(notes[0].message, Catch::EndsWith("E.g. GONE.TGA (DATA/ART/MODELS/CLEAN.ALO)"));
    CHECK(withId(checkMount({tex.game}, tex.mod), "model.texture-missing").size() == 1);

    CheckMod bone(Defect::ObjectBone); // the model is the mod's: its missing bone is the mod's defect, game or not
    const check::Report b = checkMount({}, bone.mod);
    INFO(dump(b));
    CHECK(withId(b, "object.bone-missing").size() == 1);
    CHECK(withId(b, "ref.base-game").empty());
}

// ---------------------------------------------------------------------------------------------------------------
// Wording.

TEST_CASE("check: limit.shadow-not-closed counts the open edges; a closed volume of touching parts is not") {
    CheckMod m;
    SECTION("a tetrahedron missing a face: 3 open edges") {
        rewriteModel(m, [](Model& model) { CheckMod::tetrahedron(model.meshes[1].subMeshes[0], false); });
        const auto f = withId(checkMount({m.game}, m.mod), "limit.shadow-not-closed");
        REQUIRE(f.size() == 1);
        CHECK(f[0].level == check::Level::Error);
        CHECK(f[0].message == "shadow volume is not closed: 3 edges border one triangle only (a hole)");
    }
    SECTION("a face turned over: its 3 edges do not pair up") {
        rewriteModel(m, [](Model& model) {
            auto& idx = model.meshes[1].subMeshes[0].indices;
            std::swap(idx[10], idx[11]); // the fourth face 0,3,2 -> 0,2,3
        });
        const auto f = withId(checkMount({m.game}, m.mod), "limit.shadow-not-closed");
        REQUIRE(f.size() == 1);
        CHECK(f[0].message == "shadow volume is not closed: 3 edges' triangles do not pair up in opposite directions "
                              "(flipped or extra faces)");
    }
    SECTION("two closed tetrahedra sharing an edge: closed, 1 edge of four triangles (a warning of its own)") {
        rewriteModel(m, [](Model& model) {
            SubMesh& s = model.meshes[1].subMeshes[0]; // vertices 0..3; the second shares the edge 0-1
            s.positions.insert(s.positions.end(), {{0, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 0, -1}});
            s.normals.resize(s.positions.size(), glm::vec3(0, 0, 1));
            for (uint32_t i : {0u, 2u, 1u, 0u, 1u, 3u, 1u, 2u, 3u, 0u, 3u, 2u})
                s.indices.push_back(4 + i);
        });
        const check::Report r = checkMount({m.game}, m.mod);
        INFO(dump(r));
        CHECK(withId(r, "limit.shadow-not-closed").empty());
        const auto f = withId(r, "limit.shadow-non-manifold");
        REQUIRE(f.size() == 1);
        CHECK(f[0].level == check::Level::Warning);
        CHECK(f[0].where.mesh == "Shadow");
        CHECK(f[0].message ==
              "shadow volume is closed, but 1 edge is shared by more than two triangles (closed parts touching along "
              "an edge)");
    }
}

TEST_CASE("check: read.warning names the file and the place once") {
    SageCheckMod m;
    // The skin's sub-object on pivot 9 of a 4-pivot hierarchy: the reader's warning names the file, the chunk and
    // the offset, which the finding gives as its file and location.
    w3d::ChunkWriter skin;
    w3d::RawMesh q = testQuad("SKIN", "KBUNIT_SKN");
    q.textures[0].name = "kbunit.tga";
    w3d::writeMesh(skin, q);
    w3d::writeHlod(skin, oneLodHlod("KBUNIT_SKN", "KBUNIT_SKL", {{9, "KBUNIT_SKN.SKIN"}}));
    FakeInstall::write(std::filesystem::path(m.mod) / "arts/art/w3d/kb/kbunit_skn.w3d", skin.take());
    const check::Report r = checkMount({m.game}, m.mod);
    INFO(dump(r));
    const auto f = withId(r, "read.warning");
    REQUIRE(f.size() == 1);
    CHECK(f[0].where.chunk == "0x700/0x702/0x704");
    REQUIRE(f[0].where.hasOffset());
    CHECK(f[0].message == "HLOD sub-objects attached to a pivot past the 4 of hierarchy KBUNIT_SKL are placed at pivot "
                          "0, the root, as the engine does: KBUNIT_SKN.SKIN (pivot 9)");
}
