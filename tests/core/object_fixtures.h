// Fake game installs with object definitions for the viewer's object tests, written with the project's own writers.
//
// EawObjectInstall (an EaW mod folder, valid mounted alone):
//   Data/XML/GameObjectFiles.xml -> Ships.xml; Data/XML/HardPointDataFiles.xml -> HardPoints.xml
//   Ships.xml: SpaceUnit Test_Cruiser (Affiliation Empire): Space_Model_Name TEST_HULL.ALO, HardPoints HP_Turret,
//              Death_Clone Damage_Normal, Test_Cruiser_Death
//              SpaceUnit Test_Cruiser_Death: Space_Model_Name TEST_HULL_D.ALO (+ TEST_HULL_D_DIE_00.ALA)
//              SpaceUnit Broken_Ship: Space_Model_Name MISSING.ALO, HardPoints HP_Nowhere
//   HardPoints.xml: HP_Turret (Model_To_Attach TEST_TURRET.ALO, Attachment_Bone HP_Bone),
//                   HP_Nowhere (Model_To_Attach TEST_TURRET.ALO, Attachment_Bone No_Such_Bone)
//   Data/Art/Models: TEST_HULL.ALO (bones Root, HP_Bone at (0, 3, 0); a grey box at the root),
//                    TEST_TURRET.ALO (bone Root; a red box, kTurretRed), TEST_HULL_D.ALO (a grey box).
// addSageObjects(FakeInstall::bfme2): data/ini/object/test.ini with Object TestUnit: one W3DScriptedModelDraw with
//   DefaultModelConditionState (Model UNIT_SKN, HideSubObject QUAD, Animation TEST_SKL.TEST_IDLA) and
//   ModelConditionState DAMAGED (Model UNIT_D, HideSubObject SKIN (and QUAD, copied from the default state),
//   Animation TEST_SKL.TEST_DIE), and the files
//   art/w3d/un/unit_d.w3d (meshes UNIT_D.QUAD, UNIT_D.SKIN on TEST_SKL) and art/w3d/te/test_die.w3d (a clip).
// EawDecalInstall and SageSourceMod: see there.
#pragma once

#include "alamo/alamo_writer.h"
#include "vfs_fixtures.h"
#include "w3d_fixtures.h"

#include <glm/gtc/matrix_transform.hpp>

#include <filesystem>
#include <string>

namespace rs::test {

inline constexpr glm::vec4 kTurretRed{0.95f, 0.08f, 0.05f, 1.0f};

// A box mesh lo..hi on `bone` with one MeshGloss sub-mesh of that diffuse colour.
inline Mesh objectBox(const std::string& name, int bone, glm::vec3 lo, glm::vec3 hi, glm::vec4 diffuse) {
    Mesh m;
    m.name = name;
    m.baseName = name;
    m.bone = bone;
    SubMesh sm;
    sm.material.shader = "MeshGloss.fx";
    sm.vertexFormat = "alD3dVertN";
    MaterialParam p;
    p.name = "Diffuse";
    p.type = ParamType::Float4;
    p.value = diffuse;
    sm.material.params.push_back(p);
    const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                            {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {3, 0, 4, 7}};
    const glm::vec3 normals[6] = {{0, 0, -1}, {0, 0, 1}, {0, -1, 0}, {0, 1, 0}, {1, 0, 0}, {-1, 0, 0}};
    for (int f = 0; f < 6; ++f) {
        const uint32_t base = uint32_t(sm.positions.size());
        for (int k = 0; k < 4; ++k) {
            sm.positions.push_back(c[faces[f][k]]);
            sm.normals.push_back(normals[f]);
            sm.uv0.push_back({0, 0});
        }
        for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u})
            sm.indices.push_back(base + i);
    }
    m.subMeshes.push_back(sm);
    return m;
}

// The hull: Root and HP_Bone (0, 3, 0), a grey box at the root. withTurretAtBone: the turret's box baked in on
// HP_Bone (the reference picture of "the turret at its bone").
inline Model objectHull(bool withTurretAtBone = false) {
    Model m;
    m.format = Format::AlamoModel;
    Bone root;
    root.name = "Root";
    Bone hp;
    hp.name = "HP_Bone";
    hp.parent = 0;
    hp.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0, 3, 0));
    m.skeleton.bones = {root, hp};
    m.meshes.push_back(objectBox("Hull", 0, {-1.2f, -1.2f, -0.4f}, {1.2f, 1.2f, 0.4f}, {0.6f, 0.6f, 0.6f, 1}));
    if (withTurretAtBone)
        m.meshes.push_back(objectBox("Turret", 1, {-0.6f, -0.6f, -0.6f}, {0.6f, 0.6f, 0.6f}, kTurretRed));
    return m;
}

inline Model objectTurret() {
    Model m;
    m.format = Format::AlamoModel;
    Bone root;
    root.name = "Root";
    m.skeleton.bones = {root};
    m.meshes.push_back(objectBox("Turret", 0, {-0.6f, -0.6f, -0.6f}, {0.6f, 0.6f, 0.6f}, kTurretRed));
    return m;
}

struct EawObjectInstall {
    std::filesystem::path dir;
    std::string root() const { return dir.string(); }
    EawObjectInstall(const EawObjectInstall&) = delete;
    EawObjectInstall& operator=(const EawObjectInstall&) = delete;
    ~EawObjectInstall() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    EawObjectInstall() {
        static std::atomic<int> n{0};
        dir = std::filesystem::temp_directory_path() /
              ("rigscope_objects_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::remove_all(dir);
        const std::filesystem::path r(dir);
        FakeInstall::write(r / "Data/XML/GameObjectFiles.xml",
                           textBytes("<Game_Object_Files><File>Ships.xml</File></Game_Object_Files>"));
        FakeInstall::write(r / "Data/XML/HardPointDataFiles.xml",
                           textBytes("<Hard_Point_Files><File>HardPoints.xml</File></Hard_Point_Files>"));
        FakeInstall::write(r / "Data/XML/Ships.xml",
                           textBytes("<Ships>\n"
                                     " <SpaceUnit Name=\"Test_Cruiser\">\n"
                                     "  <Affiliation>Empire</Affiliation>\n"
                                     "  <Space_Model_Name>TEST_HULL.ALO</Space_Model_Name>\n"
                                     "  <HardPoints>HP_Turret</HardPoints>\n"
                                     "  <Death_Clone>Damage_Normal, Test_Cruiser_Death</Death_Clone>\n"
                                     " </SpaceUnit>\n"
                                     " <SpaceUnit Name=\"Test_Cruiser_Death\">\n"
                                     "  <Space_Model_Name>TEST_HULL_D.ALO</Space_Model_Name>\n"
                                     " </SpaceUnit>\n"
                                     " <SpaceUnit Name=\"Broken_Ship\">\n"
                                     "  <Space_Model_Name>MISSING.ALO</Space_Model_Name>\n"
                                     "  <HardPoints>HP_Nowhere</HardPoints>\n"
                                     " </SpaceUnit>\n"
                                     "</Ships>\n"));
        FakeInstall::write(r / "Data/XML/HardPoints.xml",
                           textBytes("<HardPoints>\n"
                                     " <HardPoint Name=\"HP_Turret\">\n"
                                     "  <Type>HARD_POINT_WEAPON_LASER</Type>\n"
                                     "  <Model_To_Attach>TEST_TURRET.ALO</Model_To_Attach>\n"
                                     "  <Attachment_Bone>HP_Bone</Attachment_Bone>\n"
                                     " </HardPoint>\n"
                                     " <HardPoint Name=\"HP_Nowhere\">\n"
                                     "  <Model_To_Attach>TEST_TURRET.ALO</Model_To_Attach>\n"
                                     "  <Attachment_Bone>No_Such_Bone</Attachment_Bone>\n"
                                     " </HardPoint>\n"
                                     "</HardPoints>\n"));
        const std::filesystem::path models = r / "Data/Art/Models";
        FakeInstall::write(models / "TEST_HULL.ALO", alamo::writeModel(objectHull()));
        FakeInstall::write(models / "TEST_TURRET.ALO", alamo::writeModel(objectTurret()));
        FakeInstall::write(models / "TEST_HULL_D.ALO", alamo::writeModel(objectHull()));
        Clip die = syntheticClip();
        die.name = "TEST_HULL_D_DIE_00";
        for (auto& t : die.tracks)
            t.boneName = "Root";
        die.tracks.resize(1);
        FakeInstall::write(models / "TEST_HULL_D_DIE_00.ALA", alamo::writeClip(die));
    }
};

inline constexpr glm::vec4 kDecalBlue{0.05f, 0.1f, 0.95f, 1.0f};

// An EaW mod whose hull has damage-only parts (issue 38), valid mounted alone:
//   Decal_Cruiser: Space_Model_Name DECAL_HULL.ALO, HardPoints HP_Turret, HP_Deck
//     HP_Turret: Model_To_Attach TEST_TURRET.ALO at HP_Bone, Damage_Decal HP_Turret_Blast
//     HP_Deck: no model, Damage_Decal HP_Deck_Blast, Damage_Particles HP_Deck_Emit
//   DECAL_HULL.ALO: objectHull() plus bone HP_Deck_Emit (1.5, 0, 0) with proxy P_DECK_FIRE, and two blue
//     (kDecalBlue) decal boxes over the hull: HP_Turret_Blast at x -1 .. -0.2 and HP_Deck_Blast at x 0.2 .. 1.
//   Test_Squadron (a squadron, no model): Squadron_Units Decal_Cruiser, Decal_Cruiser, Missing_Fighter.
struct EawDecalInstall {
    std::filesystem::path dir;
    std::string root() const { return dir.string(); }
    EawDecalInstall(const EawDecalInstall&) = delete;
    EawDecalInstall& operator=(const EawDecalInstall&) = delete;
    ~EawDecalInstall() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    EawDecalInstall() {
        static std::atomic<int> n{0};
        dir = std::filesystem::temp_directory_path() /
              ("rigscope_decals_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::remove_all(dir);
        const std::filesystem::path r(dir);
        FakeInstall::write(r / "Data/XML/GameObjectFiles.xml",
                           textBytes("<Game_Object_Files><File>Ships.xml</File></Game_Object_Files>"));
        FakeInstall::write(r / "Data/XML/HardPointDataFiles.xml",
                           textBytes("<Hard_Point_Files><File>HardPoints.xml</File></Hard_Point_Files>"));
        FakeInstall::write(
            r / "Data/XML/Ships.xml",
            textBytes("<Ships>\n"
                      " <SpaceUnit Name=\"Decal_Cruiser\">\n"
                      "  <Space_Model_Name>DECAL_HULL.ALO</Space_Model_Name>\n"
                      "  <HardPoints>HP_Turret, HP_Deck</HardPoints>\n"
                      " </SpaceUnit>\n"
                      " <Squadron Name=\"Test_Squadron\">\n"
                      "  <Squadron_Units>Decal_Cruiser, Decal_Cruiser, Missing_Fighter</Squadron_Units>\n"
                      " </Squadron>\n"
                      "</Ships>\n"));
        FakeInstall::write(r / "Data/XML/HardPoints.xml",
                           textBytes("<HardPoints>\n"
                                     " <HardPoint Name=\"HP_Turret\">\n"
                                     "  <Model_To_Attach>TEST_TURRET.ALO</Model_To_Attach>\n"
                                     "  <Attachment_Bone>HP_Bone</Attachment_Bone>\n"
                                     "  <Damage_Decal>HP_Turret_Blast</Damage_Decal>\n"
                                     " </HardPoint>\n"
                                     " <HardPoint Name=\"HP_Deck\">\n"
                                     "  <Model_To_Attach></Model_To_Attach>\n"
                                     "  <Damage_Decal>HP_Deck_Blast</Damage_Decal>\n"
                                     "  <Damage_Particles>HP_Deck_Emit</Damage_Particles>\n"
                                     " </HardPoint>\n"
                                     "</HardPoints>\n"));
        Model hull = objectHull();
        Bone emitter;
        emitter.name = "HP_Deck_Emit";
        emitter.parent = 0;
        emitter.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(1.5f, 0, 0));
        hull.skeleton.bones.push_back(emitter);
        hull.meshes.push_back(objectBox("HP_Turret_Blast", 0, {-1.0f, -1.0f, 0.4f}, {-0.2f, 1.0f, 0.5f}, kDecalBlue));
        hull.meshes.push_back(objectBox("HP_Deck_Blast", 0, {0.2f, -1.0f, 0.4f}, {1.0f, 1.0f, 0.5f}, kDecalBlue));
        Proxy fire;
        fire.name = "P_DECK_FIRE";
        fire.bone = 2;
        hull.proxies.push_back(fire);
        const std::filesystem::path models = r / "Data/Art/Models";
        FakeInstall::write(models / "DECAL_HULL.ALO", alamo::writeModel(hull));
        FakeInstall::write(models / "TEST_TURRET.ALO", alamo::writeModel(objectTurret()));
    }
};

// A SAGE mod as a modder's working tree (issue 38), written with the project's writers:
//   Layout::Arts (as SymoniusGit/TROWMod): ROOT/data/ini/object/units.ini, W3D files under ROOT/arts/art/w3d/<xx>/
//   Layout::Sources (as FuryslavBoytcov/rotwk_evilmod): ROOT/mod/big/data/ini/object/units.ini and
//     ROOT/mod/big/data/ini/gamedata.ini, W3D files under ROOT/mod/asis/art/w3d/<xx>/
// The quads' texture is art/compiledtextures/qu/quad.dds (grey).
// Objects: MuUnit (Model MUSK_SKN: a skin in w3d/mu/ on hierarchy KUSK_SKL, which is in w3d/ku/; AnimationState
// MOVING with KUSK_SKL.KUSK_WALK in w3d/ku/), MuHorde (Model = None; HordeContain InitialPayload MuUnit
// HORDE_SIZE (6, a macro of gamedata.ini in the Sources layout, else written as 6); RankInfo ranks 1 and 2 of three
// positions each) and LostUnit (Model LOST_SKN in w3d/lo/, on hierarchy GONE_SKL that no file holds).
struct SageSourceMod {
    enum class Layout { Arts, Sources };
    std::filesystem::path dir;
    Layout layout;
    std::string root() const { return dir.string(); }
    std::string defs() const { return (layout == Layout::Arts ? dir : dir / "mod/big").string(); }
    std::string art() const { return (layout == Layout::Arts ? dir / "arts" : dir / "mod/asis").string(); }
    SageSourceMod(const SageSourceMod&) = delete;
    SageSourceMod& operator=(const SageSourceMod&) = delete;
    ~SageSourceMod() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    explicit SageSourceMod(Layout l) : layout(l) {
        static std::atomic<int> n{0};
        dir = std::filesystem::temp_directory_path() /
              ("rigscope_sagesrc_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::remove_all(dir);
        const std::filesystem::path d(defs()), a(art());
        const bool macro = l == Layout::Sources;
        if (macro) FakeInstall::write(d / "data/ini/gamedata.ini", textBytes("#define HORDE_SIZE 6\n"));
        FakeInstall::write(d / "data/ini/object/units.ini",
                           textBytes(std::string("Object MuUnit\n"
                                                 "  Draw = W3DScriptedModelDraw ModuleTag_Draw\n"
                                                 "    DefaultModelConditionState\n"
                                                 "      Model = MUSK_SKN\n"
                                                 "    End\n"
                                                 "    AnimationState = MOVING\n"
                                                 "      Animation = Walk\n"
                                                 "        AnimationName = KUSK_SKL.KUSK_WALK\n"
                                                 "      End\n"
                                                 "    End\n"
                                                 "  End\n"
                                                 "End\n"
                                                 "Object MuHorde\n"
                                                 "  Draw = W3DScriptedModelDraw ModuleTag_Draw\n"
                                                 "    DefaultModelConditionState\n"
                                                 "      Model = None\n"
                                                 "    End\n"
                                                 "  End\n"
                                                 "  Behavior = HordeContain ModuleTag_HordeContain\n"
                                                 "    InitialPayload = MuUnit ") +
                                     (macro ? "HORDE_SIZE" : "6") +
                                     "\n"
                                     "    RankInfo = RankNumber:1 UnitType:MuUnit Position:X:40 Y:0 Position:X:40 "
                                     "Y:15 Position:X:40 Y:-15\n"
                                     "    RankInfo = RankNumber:2 UnitType:MuUnit Position:X:10 Y:0 Leader 1 0 "
                                     "Position:X:10 Y:15 Leader 1 1 Position: X:10 Y:-15\n"
                                     "  End\n"
                                     "End\n"
                                     "Object LostUnit\n"
                                     "  Draw = W3DScriptedModelDraw ModuleTag_Draw\n"
                                     "    DefaultModelConditionState\n"
                                     "      Model = LOST_SKN\n"
                                     "    End\n"
                                     "  End\n"
                                     "End\n"));
        auto skin = [](const std::string& container, const std::string& hierarchy) {
            w3d::ChunkWriter w;
            w3d::RawMesh quad = testQuad("QUAD", container);
            w3d::RawMesh sk = testQuad("SKIN", container);
            sk.attributes = 0x00020000;
            sk.influences = {{2, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}, {2, 3, 30, 70}};
            sk.positions2 = sk.positions;
            sk.normals2 = sk.normals;
            w3d::writeMesh(w, quad);
            w3d::writeMesh(w, sk);
            w3d::writeHlod(w, oneLodHlod(container, hierarchy, {{1, container + ".QUAD"}, {0, container + ".SKIN"}}));
            return w.take();
        };
        Image grey; // the quads' texture, so that nothing but what a test is about is missing
        grey.width = grey.height = 4;
        for (int i = 0; i < 16; ++i)
            grey.rgba.insert(grey.rgba.end(), {128, 128, 128, 255});
        FakeInstall::write(a / "art/compiledtextures/qu/quad.dds", writeDdsRgba(grey));
        FakeInstall::write(a / "art/w3d/mu/musk_skn.w3d", skin("MUSK_SKN", "KUSK_SKL"));
        FakeInstall::write(a / "art/w3d/lo/lost_skn.w3d", skin("LOST_SKN", "GONE_SKL"));
        w3d::ChunkWriter skl;
        w3d::writeHierarchy(skl, testHierarchy("KUSK_SKL"));
        FakeInstall::write(a / "art/w3d/ku/kusk_skl.w3d", skl.take());
        w3d::ChunkWriter clip;
        w3d::ClipSpec c;
        c.name = "KUSK_WALK";
        c.hierarchy = "KUSK_SKL";
        c.frames = 3;
        w3d::ChannelSpec x;
        x.pivot = 1;
        x.type = 0;
        x.values = {0, 1, 0};
        c.channels = {x};
        w3d::writeClip(clip, c);
        FakeInstall::write(a / "art/w3d/ku/kusk_walk.w3d", clip.take());
    }
};

inline void addSageObjects(const std::string& bfme2) {
    const std::filesystem::path g(bfme2);
    FakeInstall::write(g / "data/ini/object/test.ini", textBytes(R"(Object TestUnit
  Side = Mordor
  Draw = W3DScriptedModelDraw ModuleTag_Draw
    DefaultModelConditionState
      Model = UNIT_SKN
      HideSubObject = QUAD
      Animation = IDLE
        AnimationName = TEST_SKL.TEST_IDLA
      End
    End
    ModelConditionState = DAMAGED
      Model = UNIT_D
      HideSubObject = SKIN
      Animation = DIE
        AnimationName = TEST_SKL.TEST_DIE
      End
    End
  End
End
)"));
    w3d::ChunkWriter skin;
    w3d::writeMesh(skin, testQuad("QUAD", "UNIT_D"));
    w3d::writeMesh(skin, testQuad("SKIN", "UNIT_D"));
    w3d::Hlod h = rs::test::oneLodHlod("UNIT_D", "TEST_SKL", {{1, "UNIT_D.QUAD"}, {2, "UNIT_D.SKIN"}});
    w3d::writeHlod(skin, h);
    FakeInstall::write(g / "art/w3d/un/unit_d.w3d", skin.take());
    w3d::ChunkWriter clip;
    w3d::ClipSpec c;
    c.name = "TEST_DIE";
    c.hierarchy = "TEST_SKL";
    c.frames = 5;
    w3d::ChannelSpec x;
    x.pivot = 1;
    x.type = 0;
    x.values = {0, 1, 2, 3, 4};
    c.channels = {x};
    w3d::writeClip(clip, c);
    FakeInstall::write(g / "art/w3d/te/test_die.w3d", clip.take());
}

} // namespace rs::test
