// core/objects: object databases of writer-made fake installs (mod over game, a mod alone), state selection, and
// malformed, truncated and cyclic definition files.
#include "cli_run.h"
#include "objects/eaw_xml.h"
#include "objects/object_db.h"
#include "objects/object_states.h"
#include "objects/sage_ini.h"
#include "vfs/mount.h"
#include "vfs_fixtures.h"

#include <catch2/catch.hpp>

using namespace rs;
using namespace rs::objects;
using rs::test::FakeInstall;
using rs::test::textBytes;
namespace fs = std::filesystem;

namespace {

ByteSpan span(const std::string& s) { return ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

const Ref* findRef(const AssembledObject& o, const std::string& kind, const std::string& name) {
    for (const Ref& r : o.refs)
        if (r.kind == kind && iequals(r.name, name)) return &r;
    return nullptr;
}

const Part* findPart(const AssembledObject& o, const std::string& role) {
    for (const Part& p : o.parts)
        if (p.role == role) return &p;
    return nullptr;
}

// EaW game (FakeInstall: Models.meg holds W_UNIT.ALO with bones Root/Arm/Hand and its clips) plus object XML;
// the mod replaces Units.xml and adds a variant whose parent lives in the game's Base.xml.
struct EawObjects {
    FakeInstall inst;
    EawObjects() {
        const fs::path g(inst.eaw), m(inst.eawMod);
        FakeInstall::write(g / "Data/XML/GameObjectFiles.xml",
                           textBytes("<?xml version=\"1.0\"?>\n<Game_Object_Files>\n <File>Units.xml</File>\n"
                                     " <!-- a comment -->\n <File>Base.xml</File>\n <File>Gone.xml</File>\n"
                                     "</Game_Object_Files>\n"));
        FakeInstall::write(g / "Data/XML/HardPointDataFiles.xml",
                           textBytes("<Hard_Point_Files><File>HardPoints.xml</File></Hard_Point_Files>"));
        FakeInstall::write(g / "Data/XML/Units.xml",
                           textBytes("<Units>\n  <SpaceUnit Name=\"Tank\"><Space_Model_Name>W_UNIT.ALO"
                                     "</Space_Model_Name></SpaceUnit>\n</Units>\n"));
        FakeInstall::write(g / "Data/XML/Base.xml",
                           textBytes("<Base>\n stray text\n <GroundVehicle Name=\"Base_Walker\">\n"
                                     "  <LAND_MODEL_NAME> w_unit.alo </LAND_MODEL_NAME>\n"
                                     "  <HardPoints>HP_Gun, HP_Gun,\n HP_Missing</HardPoints>\n"
                                     "  <Death_Clone>Damage_Normal, Walker_Death</Death_Clone>\n"
                                     " </GroundVehicle>\n</Base>\n"));
        FakeInstall::write(g / "Data/XML/HardPoints.xml",
                           textBytes("<HardPoints>\n <HardPoint Name=\"HP_Gun\">\n"
                                     "  <Model_To_Attach>W_UNIT.ALO</Model_To_Attach>\n"
                                     "  <Attachment_Bone>Arm</Attachment_Bone>\n"
                                     "  <Fire_Bone_A>Hand</Fire_Bone_A><Fire_Bone_B>NoSuchBone</Fire_Bone_B>\n"
                                     " </HardPoint>\n</HardPoints>\n"));
        // The mod: its own Units.xml (a new Tank model, a variant of the game's Base_Walker).
        FakeInstall::write(m / "Data/XML/GameObjectFiles.xml",
                           textBytes("<Game_Object_Files><File>Units.xml</File><File>Base.xml</File>"
                                     "</Game_Object_Files>"));
        FakeInstall::write(m / "Data/XML/Units.xml",
                           textBytes("<Units>\n  <SpaceUnit Name=\"Tank\"><Space_Model_Name>MOD_TANK.ALO"
                                     "</Space_Model_Name></SpaceUnit>\n"
                                     "  <GroundVehicle Name=\"Mod_Walker\">\n"
                                     "   <Variant_Of_Existing_Type>Base_Walker</Variant_Of_Existing_Type>\n"
                                     "  </GroundVehicle>\n</Units>\n"));
    }
};

} // namespace

TEST_CASE("objects: EaW mod over game: files, variants, hardpoints, bones and clips") {
    EawObjects f;
    const vfs::MountTable t = vfs::mountInstall({f.inst.eaw}, {f.inst.eawMod});
    const auto db = ObjectDb::load(t);
    REQUIRE(db->family() == ObjectDb::Family::Alamo);
    REQUIRE(db->find("tank"));
    REQUIRE(db->find("MOD_WALKER"));
    CHECK(db->find("Base_Walker")->type == "GroundVehicle");
    CHECK(db->errors().empty());

    // The mod's Units.xml wins over the game's.
    const ModelProbe probe = documentProbe(t);
    const AssembledObject tank = db->assemble("Tank", probe);
    REQUIRE(findPart(tank, "Space_Model_Name"));
    CHECK(findPart(tank, "Space_Model_Name")->model == "MOD_TANK.ALO");
    CHECK_FALSE(findPart(tank, "Space_Model_Name")->found);
    REQUIRE(tank.unresolved().size() == 1);
    CHECK(tank.unresolved()[0]->name == "MOD_TANK.ALO");

    // The variant inherits model, hardpoints and death clone from the game's parent.
    const AssembledObject w = db->assemble("Mod_Walker", probe);
    CHECK(w.inheritance == std::vector<std::string>{"Base_Walker"});
    const Part* land = findPart(w, "LAND_MODEL_NAME");
    REQUIRE(land);
    CHECK(land->key == "DATA/ART/MODELS/W_UNIT.ALO");
    CHECK(land->clips.size() == 2);    // W_UNIT_IDLE_00, W_UNIT_WALK_00 (not W_OTHER_*)
    REQUIRE(w.hardpoints.size() == 2); // HP_Gun listed twice counts once
    CHECK(w.warnings.size() == 1);
    CHECK(w.hardpoints[0].defined);
    CHECK_FALSE(w.hardpoints[1].defined);
    const Part* gun = findPart(w, "hardpoint HP_Gun");
    REQUIRE(gun);
    CHECK(gun->bone == "Arm");
    CHECK(gun->boneFound);
    CHECK(findRef(w, "bone", "Hand")->found);
    CHECK_FALSE(findRef(w, "bone", "NoSuchBone")->found);
    CHECK_FALSE(findRef(w, "hardpoint", "HP_Missing")->found);
    CHECK_FALSE(findRef(w, "object", "Walker_Death")->found);
    REQUIRE(w.deathClones.size() == 1);
    CHECK(w.deathClones[0].first == "Damage_Normal");
}

TEST_CASE("objects: EaW mod folder alone lists objects whose parent and models are in the game") {
    EawObjects f;
    const vfs::MountTable t = vfs::mountInstall({}, {f.inst.eawMod});
    const auto db = ObjectDb::load(t);
    REQUIRE(db->family() == ObjectDb::Family::Alamo);
    REQUIRE(db->find("Mod_Walker"));
    CHECK(db->filesMissing() == std::vector<std::string>{"DATA/XML/BASE.XML", "DATA/XML/HARDPOINTDATAFILES.XML"});
    const AssembledObject w = db->assemble("Mod_Walker", documentProbe(t));
    const Ref* parent = findRef(w, "object", "Base_Walker");
    REQUIRE(parent);
    CHECK_FALSE(parent->found);
    CHECK(w.parts.empty());
}

TEST_CASE("objects: malformed, truncated and cyclic XML") {
    SECTION("a malformed file names file, line and column and keeps what came before") {
        const std::string xml = "<Units>\n <A Name=\"One\"><Model_Name>x.alo</Model_Name></A>\n"
                                " <B Name=\"Two\">\n  <Oops></oops>\n </B>\n <C Name=\"Three\"/>\n</Units>\n";
        const XmlFile x = parseObjectXml(span(xml), "DATA/XML/BAD.XML");
        CHECK(x.failed);
        CHECK(x.error.find("DATA/XML/BAD.XML: field line 4, column") == 0);
        REQUIRE(x.objects.size() >= 1);
        CHECK(x.objects[0].name == "One");
    }
    SECTION("truncated") {
        const std::string xml = "<Units>\n <A Name=\"One\"><Model_Name>x.alo</Model_Name></A>\n <B Name=\"Tw";
        const XmlFile x = parseObjectXml(span(xml), "T.XML");
        CHECK(x.failed);
        CHECK(x.error.find("line 3") != std::string::npos);
        CHECK(x.objects.size() == 1);
    }
    SECTION("entities are not expanded and no DTD is followed") {
        const std::string xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\">"
                                "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
                                "<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                                "<R><U Name=\"E\"><Model_Name>&b;&x;&amp;</Model_Name></U></R>";
        const XmlFile x = parseObjectXml(span(xml), "E.XML");
        CHECK_FALSE(x.failed);
        REQUIRE(x.objects.size() == 1);
        CHECK(x.objects[0].fields[0].value == "&b;&x;&");
    }
    SECTION("case-insensitive tags and attributes, comments anywhere") {
        const std::string xml = "<R><!--c--><SpaceUnit name=\"S\"><!--c--><space_model_name>m.alo<!--c-->"
                                "</space_model_name></SpaceUnit></R>";
        const XmlFile x = parseObjectXml(span(xml), "C.XML");
        REQUIRE(x.objects.size() == 1);
        REQUIRE(x.objects[0].last("SPACE_MODEL_NAME"));
        CHECK(x.objects[0].last("SPACE_MODEL_NAME")->value == "m.alo");
    }
    SECTION("the database loads past a malformed file and refuses an inheritance cycle by name") {
        FakeInstall inst;
        const fs::path g(inst.eaw);
        FakeInstall::write(g / "Data/XML/GameObjectFiles.xml",
                           textBytes("<F><File>Bad.xml</File><File>Good.xml</File></F>"));
        FakeInstall::write(g / "Data/XML/Bad.xml", textBytes("<R>\n<U Name=\"Broken\">\n<X></Y>\n</U></R>"));
        FakeInstall::write(
            g / "Data/XML/Good.xml",
            textBytes("<R><U Name=\"Loop_A\"><Variant_Of_Existing_Type>Loop_B"
                      "</Variant_Of_Existing_Type></U>\n<U Name=\"Loop_B\"><Variant_Of_Existing_Type>"
                      "loop_a</Variant_Of_Existing_Type></U>\n<U Name=\"Self\"><Variant_Of_Existing_Type>"
                      "Self</Variant_Of_Existing_Type></U><U Name=\"Fine\"/></R>"));
        const vfs::MountTable t = vfs::mountInstall({inst.eaw}, {});
        const auto db = ObjectDb::load(t);
        CHECK(db->find("Fine"));
        CHECK(db->find("Loop_A"));
        bool badReported = false, cycleReported = false;
        for (const std::string& e : db->errors()) {
            badReported = badReported || e.find("DATA/XML/BAD.XML: field line 3, column") == 0;
            cycleReported =
                cycleReported || e.find("object Self refused: it inherits from itself") != std::string::npos;
        }
        CHECK(badReported);
        CHECK(cycleReported);
        CHECK_THROWS_WITH(db->assemble("Loop_A", documentProbe(t)),
                          Catch::Contains("Loop_A refused: it inherits from itself (Loop_A -> Loop_B -> Loop_A)"));
        CHECK_THROWS_WITH(db->assemble("Nobody", documentProbe(t)), Catch::Contains("no object of that name"));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// SAGE

namespace {

const char* kUnitIni = R"(; a unit
#define MY_MODEL UNIT_SKN
Object TestUnit
  Draw = W3DScriptedModelDraw ModuleTag_Draw
    StaticModelLODMode = yes
    DefaultModelConditionState
      Model = MY_MODEL   // macro
      HideSubObject = QUAD
    End
    ModelConditionState = DAMAGED
      Texture = a.tga b.tga
    End
    ModelConditionState = REALLYDAMAGED SNOW
      Model = NoSuchModel
    End
    IdleAnimationState
      StateName = Idle
      Animation = IDLA
        AnimationName = TEST_SKL.TEST_IDLA 0 2
        AnimationMode = ONCE
        AnimationPriority = 7
      End
    End
    AnimationState = MOVING
      Animation
        AnimationName = TEST_SKL.TEST_MISSING
        AnimationMode = LOOP
      End
      BeginScript
        CurDrawableHideSubObject("SKIN")
        CurDrawableShowSubObjectPermanently("Nope")
      EndScript
    End
    TransitionState = TRANS_A
    End
  End
  #include "..\includes\extra.inc"
  Behavior = SubObjectsUpgrade ModuleTag_Up
    HideSubObjects = QUAD Gone
    UpgradeTexture = a.tga 0 c.tga
  End
End

ChildObject TestChild TestUnit
  Draw = W3DScriptedModelDraw ModuleTag_Draw
    DefaultModelConditionState
      Model = UNIT_SKN
    End
  End
End
)";

const char* kExtraInc = R"(  Draw = W3DScriptedModelDraw ModuleTag_Extra
    DefaultModelConditionState
      Model = None
    End
  End
)";

struct SageObjects {
    FakeInstall inst;
    SageObjects() {
        const fs::path g(inst.bfme2), m(inst.bfme2Mod);
        FakeInstall::write(g / "data/ini/object/units/test.ini", textBytes(kUnitIni));
        FakeInstall::write(g / "data/ini/object/includes/extra.inc", textBytes(kExtraInc));
        // The mod replaces the game's test.ini: TestUnit's default model differs.
        std::string modIni = kUnitIni;
        modIni.replace(modIni.find("#define MY_MODEL UNIT_SKN"), 25, "#define MY_MODEL MOD_SKN  ");
        FakeInstall::write(m / "data/ini/object/units/test.ini", textBytes(modIni));
    }
};

} // namespace

TEST_CASE("objects: SAGE INI objects, draw states, animations and sub-objects through a fake install") {
    SageObjects f;
    const vfs::MountTable t = vfs::mountInstall({f.inst.bfme2}, {});
    const auto db = ObjectDb::load(t);
    REQUIRE(db->family() == ObjectDb::Family::Sage);
    INFO(db->errors().size());
    CHECK(db->errors().empty());
    REQUIRE(db->objects().size() == 2);
    const AssembledObject o = db->assemble("testunit", documentProbe(t));
    REQUIRE(o.draws.size() == 2); // the included module too
    const DrawModule& d = o.draws[0];
    CHECK(d.staticModelLod);
    REQUIRE(d.states.size() == 6);
    CHECK(d.states[0].model == "UNIT_SKN");
    CHECK(d.states[1].model == "UNIT_SKN"); // copied from the default state
    CHECK(d.states[1].modelFromDefault);
    CHECK(d.states[1].hidden == std::vector<std::string>{"QUAD"});
    CHECK(d.states[1].textureSwaps.size() == 1);
    const DrawState& idle = d.states[3];
    CHECK(idle.kind == DrawState::Kind::Idle);
    REQUIRE(idle.animations.size() == 1);
    CHECK(idle.animations[0].hierarchy == "TEST_SKL");
    CHECK(idle.animations[0].clip == "TEST_IDLA");
    CHECK(idle.animations[0].firstFrame == 0);
    CHECK(idle.animations[0].lastFrame == 2);
    CHECK(idle.animations[0].mode == "ONCE");
    CHECK(idle.animations[0].priority == 7);
    CHECK(idle.animations[0].clipKey == "ART/W3D/TE/TEST_IDLA.W3D");
    CHECK(d.states[4].hidden == std::vector<std::string>{"SKIN"});
    CHECK(d.states[4].shown == std::vector<std::string>{"Nope"});
    CHECK(d.states[5].kind == DrawState::Kind::Transition);
    CHECK(d.states[5].stateName == "TRANS_A");

    CHECK(findRef(o, "model", "UNIT_SKN")->found);
    CHECK_FALSE(findRef(o, "model", "NoSuchModel")->found);
    CHECK(findRef(o, "lod-model", "UNIT_SKNM")->optional);
    CHECK(findRef(o, "clip", "TEST_SKL.TEST_IDLA")->found);
    CHECK_FALSE(findRef(o, "clip", "TEST_SKL.TEST_MISSING")->found);
    CHECK(findRef(o, "sub-object", "QUAD")->found);
    CHECK(findRef(o, "sub-object", "SKIN")->found);
    CHECK_FALSE(findRef(o, "sub-object", "Nope")->found);
    CHECK_FALSE(findRef(o, "sub-object", "Gone")->found);
    CHECK(o.upgradeHidden == std::vector<std::string>{"QUAD", "Gone"});
    CHECK(o.upgradeTextures.size() == 1);

    // ChildObject: the module with the parent's tag is replaced, the others are inherited.
    const AssembledObject c = db->assemble("TestChild", documentProbe(t));
    CHECK(c.inheritance == std::vector<std::string>{"TestUnit"});
    REQUIRE(c.draws.size() == 2);
    CHECK(c.draws[0].states.size() == 1);
    CHECK(c.upgradeHidden.size() == 2);

    // The mod over the game: its test.ini wins.
    const vfs::MountTable tm = vfs::mountInstall({f.inst.bfme2}, {f.inst.bfme2Mod});
    const AssembledObject om = ObjectDb::load(tm)->assemble("TestUnit", documentProbe(tm));
    CHECK(om.draws[0].states[0].model == "MOD_SKN");
    CHECK_FALSE(findRef(om, "model", "MOD_SKN")->found);
    // The mod alone: its include is missing (named), the objects load.
    const vfs::MountTable alone = vfs::mountInstall({}, {f.inst.bfme2Mod});
    const auto dbAlone = ObjectDb::load(alone);
    CHECK(dbAlone->objects().size() == 2);
    REQUIRE(dbAlone->errors().size() == 1);
    CHECK(dbAlone->errors()[0].find("extra.inc") != std::string::npos);
}

TEST_CASE("objects: state selection follows W3DModelDraw's SparseMatchFinder") {
    IniContext ctx;
    const std::string ini = "Object O\n Draw = W3DModelDraw M\n"
                            "  DefaultConditionState\n   Model = D\n  End\n"
                            "  ConditionState = FRONTCRUSHED\n   Model = F\n  End\n"
                            "  ConditionState = FRONTCRUSHED BACKCRUSHED\n   Model = FB\n  End\n"
                            "  AliasConditionState = RUBBLE\n"
                            "  ConditionState = DAMAGED SNOW\n   Model = DS\n  End\n"
                            "  ConditionState = DAMAGED NIGHT\n   Model = DN\n  End\n"
                            "  IgnoreConditionStates = SELECTED\n"
                            " End\nEnd\n";
    const auto top = parseIni(span(ini), "X.INI", ctx);
    REQUIRE(top.size() == 1);
    const DrawModule m = readDrawModule(top[0].children[0]);
    REQUIRE(m.states.size() == 5);
    auto model = [&](std::vector<std::string> flags) {
        const int i = selectState(m, flags);
        return i < 0 ? std::string("-") : m.states[size_t(i)].model;
    };
    CHECK(model({}) == "D");
    CHECK(model({"SELECTED"}) == "D");     // ignored flags are cleared from the query
    CHECK(model({"FRONTCRUSHED"}) == "F"); // fewer extraneous bits wins the tie
    CHECK(model({"FRONTCRUSHED", "BACKCRUSHED"}) == "FB");
    CHECK(model({"rubble"}) == "FB");  // an alias set; names are case-insensitive
    CHECK(model({"DAMAGED"}) == "DS"); // equal tie: the earlier state keeps it
    CHECK(model({"DAMAGED", "NIGHT"}) == "DN");
    CHECK(model({"SNOW", "NIGHT"}) == "DS"); // a state needing flags the query lacks can still win
    CHECK(model({"UNKNOWN"}) == "D");
}

TEST_CASE("objects: malformed, truncated and cyclic INI") {
    SECTION("unclosed block at the end of the file, stray End, line and column") {
        IniContext ctx;
        const std::string ini = "End\nObject A\n  Draw = W3DModelDraw M\n    DefaultConditionState\n";
        const auto top = parseIni(span(ini), "DATA/INI/OBJECT/A.INI", ctx);
        REQUIRE(top.size() == 1);
        CHECK(top[0].values == std::vector<std::string>{"A"});
        REQUIRE(ctx.errors.size() == 3);
        CHECK(ctx.errors[0].find("DATA/INI/OBJECT/A.INI: field line 4, column 5: block DefaultConditionState not "
                                 "closed") == 0);
        CHECK(ctx.errors[2].find("line 2, column 1: block Object not closed") != std::string::npos);
    }
    SECTION("an object that is not closed before the next one is closed there") {
        IniContext ctx;
        const std::string ini = "Object A\n  Scale = 1\nObject B\nEnd\n";
        const auto top = parseIni(span(ini), "A.INI", ctx);
        CHECK(top.size() == 2);
        CHECK(ctx.errors.size() == 1);
    }
    SECTION("include loop, include leaving the mount, missing include, macro cycle") {
        FakeInstall inst;
        const fs::path g(inst.bfme2);
        FakeInstall::write(g / "data/ini/object/a.ini",
                           textBytes("#define LOOP1 LOOP2\n#define LOOP2 LOOP1\nObject A\n"
                                     "  #include \"inc/self.inc\"\n"
                                     "  #include \"..\\..\\..\\..\\..\\home\\user\\.ssh\\id_rsa\"\n"
                                     "  #include \"inc/none.inc\"\n  Value = LOOP1\nEnd\nObject B\nEnd\n"));
        FakeInstall::write(g / "data/ini/object/inc/self.inc", textBytes("  #include \"self.inc\"\n"));
        const vfs::MountTable t = vfs::mountInstall({inst.bfme2}, {});
        const auto db = ObjectDb::load(t);
        CHECK(db->objects().size() == 2);
        std::string all;
        for (const std::string& e : db->errors())
            all += e + "\n";
        CHECK_THAT(all, Catch::Contains("include loop DATA/INI/OBJECT/A.INI -> DATA/INI/OBJECT/INC/SELF.INC -> "
                                        "DATA/INI/OBJECT/INC/SELF.INC"));
        CHECK_THAT(all, Catch::Contains("home\\user\\.ssh\\id_rsa\" refused: it leaves the mounted folders"));
        CHECK_THAT(all, Catch::Contains("DATA/INI/OBJECT/INC/NONE.INC not found"));
        CHECK_THAT(all, Catch::Contains("macro LOOP1 refers to itself (cycle)"));
        CHECK_THAT(all, Catch::Contains("DATA/INI/OBJECT/A.INI: field line 5, column 3"));
    }
    SECTION("a ChildObject that is its own ancestor is refused by name") {
        FakeInstall inst;
        FakeInstall::write(fs::path(inst.bfme2) / "data/ini/object/c.ini",
                           textBytes("ChildObject X Y\nEnd\nChildObject Y X\nEnd\n"));
        const vfs::MountTable t = vfs::mountInstall({inst.bfme2}, {});
        const auto db = ObjectDb::load(t);
        CHECK(db->objects().size() == 2);
        CHECK_THROWS_WITH(db->assemble("X", documentProbe(t)), Catch::Contains("X refused: it inherits from itself"));
    }
    SECTION("truncated in a script") {
        IniContext ctx;
        const std::string ini = "Object A\n Draw = W3DScriptedModelDraw M\n  AnimationState = X\n   BeginScript\n"
                                "    CurDrawableHideSubObject(\"V1\")\n";
        const auto top = parseIni(span(ini), "S.INI", ctx);
        REQUIRE(top.size() == 1);
        CHECK(ctx.errors.size() == 4);
        const DrawModule d = readDrawModule(top[0].children[0]);
        REQUIRE(d.states.size() == 1);
        CHECK(d.states[0].hidden == std::vector<std::string>{"V1"});
    }
}

TEST_CASE("objects: rigscope-cli objects and object over a fake install") {
    REQUIRE(rs::test::cliBuilt());
    EawObjects f;
    const std::string mount = " --game '" + f.inst.eaw + "' --mod '" + f.inst.eawMod + "'";
    const auto list = rs::test::runCli("objects --json" + mount, rs::test::Stderr::Drop, 60);
    CHECK(list.status == 0);
    CHECK_THAT(list.out, Catch::Contains("{\"name\":\"Mod_Walker\",\"type\":\"GroundVehicle\",\"parent\":"
                                         "\"Base_Walker\",\"file\":\"DATA/XML/UNITS.XML\",\"line\":3}"));
    const auto one = rs::test::runCli("object Mod_Walker --json" + mount, rs::test::Stderr::Drop, 60);
    CHECK(one.status == 0);
    CHECK_THAT(one.out, Catch::Contains("\"role\":\"hardpoint HP_Gun\",\"model\":\"W_UNIT.ALO\",\"key\":"
                                        "\"DATA/ART/MODELS/W_UNIT.ALO\",\"found\":true,\"attachTo\":\"w_unit.alo\","
                                        "\"bone\":\"Arm\",\"boneFound\":true"));
    CHECK_THAT(one.out,
               Catch::Contains("{\"kind\":\"hardpoint\",\"name\":\"HP_Missing\",\"where\":\"HardPoints\",\"key\":"
                               "\"\",\"found\":false"));
    const auto missing = rs::test::runCli("object Nobody" + mount, rs::test::Stderr::Merge, 60);
    CHECK(missing.status == 1);
    CHECK_THAT(missing.out, Catch::Contains("Nobody: no object of that name"));
    const auto usage = rs::test::runCli("objects", rs::test::Stderr::Merge, 60);
    CHECK(usage.status == 2);
}

TEST_CASE("objects: an EaW state's map kind comes from its model tag (the light preset it opens with)") {
    rs::objects::ObjectState s;
    s.main.role = "Space_Model_Name";
    CHECK(rs::objects::mapKindOf(s) == rs::objects::MapKind::Space);
    s.main.role = "LAND_MODEL_NAME"; // tags are case-insensitive
    CHECK(rs::objects::mapKindOf(s) == rs::objects::MapKind::Land);
    s.main.role = "Galactic_Model_Name";
    CHECK(rs::objects::mapKindOf(s) == rs::objects::MapKind::Unknown);
    s.main.role = "ModuleTag_01 state DAMAGED"; // SAGE
    CHECK(rs::objects::mapKindOf(s) == rs::objects::MapKind::Unknown);
}
