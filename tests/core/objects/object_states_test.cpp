// core/objects, what a viewer shows of an object (issue 38): damage-only parts of EaW hardpoints (Damage_Decal
// meshes, proxies on Damage_Particles bones) in their states, group objects' members and ranks, a SAGE skin whose
// skeleton is in another art folder opened through the resolver as a file is, a missing skeleton named, --state
// names without their kind, and a mod laid out as sources (its folders named, mounted together with several --mod).
#include "cli_run.h"
#include "corpus.h"
#include "object_fixtures.h"
#include "objects/mod_layout.h"
#include "objects/object_db.h"
#include "objects/object_states.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

using namespace rs;
using namespace rs::objects;
using rs::test::EawDecalInstall;
using rs::test::FakeInstall;
using rs::test::SageSourceMod;

namespace {

std::vector<std::string> labels(const std::vector<ObjectState>& states) {
    std::vector<std::string> out;
    for (const ObjectState& s : states)
        out.push_back(s.label);
    return out;
}

const ObjectState& stateNamed(const std::vector<ObjectState>& states, const std::string& label) {
    for (const ObjectState& s : states)
        if (s.label == label) return s;
    FAIL("no state " << label);
    return states.front();
}

bool meshHidden(const Model& m, const std::string& name) {
    for (const Mesh& mesh : m.meshes)
        if (iequals(mesh.name, name)) return mesh.hidden;
    FAIL("no mesh " << name);
    return false;
}

bool proxyHidden(const Model& m, const std::string& name) {
    for (const Proxy& p : m.proxies)
        if (iequals(p.name, name)) return p.hidden;
    FAIL("no proxy " << name);
    return false;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v)
        s += x + "\n";
    return s;
}

} // namespace

TEST_CASE("objects: a hardpoint's Damage_Decal mesh and Damage_Particles proxies show only once it is destroyed") {
    EawDecalInstall inst;
    const auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {inst.root()}));
    const Resolver resolver(table);
    const auto db = ObjectDb::load(*table);
    const ModelProbe probe = documentProbe(*table);
    const AssembledObject o = db->assemble("Decal_Cruiser", probe);
    for (const Ref& r : o.refs) // the decals are meshes of the hull, not bones: found
        if (r.where.find("Damage_") != std::string::npos) CHECK(r.found);
    const auto states = objectStates(*db, *table, o, probe);
    // HP_Deck attaches no model but has damage parts in the hull: it has a destroyed state too.
    CHECK(labels(states) == std::vector<std::string>{"intact", "HP_Turret destroyed", "HP_Deck destroyed", "damaged"});

    struct Expect {
        const char* state;
        bool turretBlast, deckBlast, deckFire; // hidden?
        size_t attachments;
    };
    for (const Expect& e :
         {Expect{"intact", true, true, true, 1}, Expect{"HP_Turret destroyed", false, true, true, 0},
          Expect{"HP_Deck destroyed", true, false, false, 1}, Expect{"damaged", false, false, false, 0}}) {
        INFO(e.state);
        const LoadedState ls = loadState(resolver, stateNamed(states, e.state));
        INFO(joined(ls.missing));
        REQUIRE(ls.model);
        CHECK(ls.missing.empty());
        CHECK(meshHidden(*ls.model, "HP_Turret_Blast") == e.turretBlast);
        CHECK(meshHidden(*ls.model, "HP_Deck_Blast") == e.deckBlast);
        CHECK(proxyHidden(*ls.model, "P_DECK_FIRE") == e.deckFire);
        CHECK_FALSE(meshHidden(*ls.model, "Hull"));
        CHECK(ls.attachments.size() == e.attachments);
    }
}

TEST_CASE("objects: group objects list their members (EaW squadrons, SAGE hordes with their RankInfo formation)") {
    EawDecalInstall eaw;
    const vfs::MountTable t = vfs::mountInstall({}, {eaw.root()});
    const auto db = ObjectDb::load(t);
    const ModelProbe probe = documentProbe(t);
    const AssembledObject sq = db->assemble("Test_Squadron", probe);
    REQUIRE(sq.members.size() == 2);
    CHECK(sq.members[0].object == "Decal_Cruiser");
    CHECK(sq.members[0].count == 2);
    CHECK(sq.members[0].found);
    CHECK(sq.members[0].where == "Squadron_Units");
    CHECK(sq.members[1].object == "Missing_Fighter");
    CHECK(sq.members[1].count == 1);
    CHECK_FALSE(sq.members[1].found);
    const auto sqStates = objectStates(*db, t, sq, probe);
    REQUIRE(sqStates.size() == 1);
    CHECK(sqStates[0].main.key.empty());

    for (const auto layout : {SageSourceMod::Layout::Arts, SageSourceMod::Layout::Sources}) {
        SageSourceMod mod(layout);
        const vfs::MountTable st = vfs::mountInstall({}, {mod.defs(), mod.art()});
        const auto sdb = ObjectDb::load(st);
        REQUIRE(sdb->family() == ObjectDb::Family::Sage);
        const AssembledObject h = sdb->assemble("MuHorde", documentProbe(st));
        REQUIRE(h.members.size() == 1);
        CHECK(h.members[0].object == "MuUnit");
        CHECK(h.members[0].count == 6); // HORDE_SIZE expanded in the Sources layout
        CHECK(h.members[0].found);
        CHECK(h.members[0].where == "HordeContain InitialPayload");
        REQUIRE(h.ranks.size() == 2);
        CHECK(h.ranks[0].number == 1);
        CHECK(h.ranks[0].unitType == "MuUnit");
        CHECK(h.ranks[0].positions == std::vector<std::pair<float, float>>{{40, 0}, {40, 15}, {40, -15}});
        CHECK(h.ranks[1].number == 2);
        CHECK(h.ranks[1].positions == std::vector<std::pair<float, float>>{{10, 0}, {10, 15}, {10, -15}});
        const auto hs = objectStates(*sdb, st, h, documentProbe(st));
        REQUIRE(hs.size() == 1);
        CHECK(hs[0].main.key.empty());
    }
}

TEST_CASE("objects: a SAGE skin whose skeleton is in another art folder opens as an object as it does as a file") {
    // TROW's layout: the mod's art below arts/ (art root ARTS/), the skin in w3d/mu/, its hierarchy in w3d/ku/.
    SageSourceMod mod(SageSourceMod::Layout::Arts);
    const auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {mod.root()}));
    const Resolver resolver(table);
    const auto db = ObjectDb::load(*table);
    REQUIRE(db->family() == ObjectDb::Family::Sage);
    const ModelProbe probe = documentProbe(*table);
    const auto states = objectStates(*db, *table, db->assemble("MuUnit", probe), probe);
    REQUIRE(states.size() == 2);
    CHECK(states[0].main.key == "ARTS/ART/W3D/MU/MUSK_SKN.W3D");
    // As a file on disk (the file view) ...
    const Asset file = resolver.open(mod.art() + "/art/w3d/mu/musk_skn.w3d");
    CHECK(file.missingHierarchy.empty());
    REQUIRE(file.document.model);
    CHECK(file.document.model->skeleton.bones.size() == 4);
    // ... and as the object's part, by its game path: the same skeleton, posed.
    const LoadedState ls = loadState(resolver, states[0]);
    INFO(joined(ls.missing));
    CHECK(ls.missingHierarchy.empty());
    REQUIRE(ls.model);
    CHECK(iequals(ls.model->skeleton.name, "KUSK_SKL"));
    CHECK(ls.model->skeleton.bones.size() == 4);
    CHECK(ls.missing.empty());
    const LoadedState moving = loadState(resolver, states[1]);
    REQUIRE(moving.clips.size() == 1);
    CHECK(moving.clips[0].path == "ARTS/ART/W3D/KU/KUSK_WALK.W3D");

    // A skeleton no mounted folder holds: named, and no folded-up model handed over as if it were the model.
    const auto lost = objectStates(*db, *table, db->assemble("LostUnit", probe), probe);
    const LoadedState none = loadState(resolver, lost[0]);
    CHECK(none.missingHierarchy == "GONE_SKL");
    CHECK(none.modelKey == "ARTS/ART/W3D/LO/LOST_SKN.W3D");
    CHECK_FALSE(none.model);
    // The file the user chose for it ("Choose skeleton file…") poses the model.
    w3d::ChunkWriter gone;
    w3d::writeHierarchy(gone, rs::test::testHierarchy("GONE_SKL"));
    const std::string goneFile = mod.root() + "/elsewhere_gone_skl.w3d";
    FakeInstall::write(goneFile, gone.take());
    const LoadedState chosen = loadState(resolver, lost[0], goneFile);
    CHECK(chosen.missingHierarchy.empty());
    REQUIRE(chosen.model);
    CHECK(chosen.model->skeleton.bones.size() == 4);
}

TEST_CASE("objects: the corpus's MordorRhunImmortal (skin in w3d/mu, skeleton KUMORG_SKL in w3d/ku) is posed") {
    RIGSCOPE_REQUIRE_CORPUS("games");
    const auto table = std::make_shared<const vfs::MountTable>(
        vfs::mountInstall({}, {rs::test::corpusDir() + "/games/SymoniusGit+TROWMod"}));
    const Resolver resolver(table);
    const auto db = ObjectDb::load(*table);
    const ModelProbe probe = documentProbe(*table);
    const auto states = objectStates(*db, *table, db->assemble("MordorRhunImmortal", probe), probe);
    const LoadedState ls = loadState(resolver, states.front());
    INFO(joined(ls.missing));
    CHECK(ls.missingHierarchy.empty());
    REQUIRE(ls.model);
    CHECK(iequals(ls.model->skeleton.name, "KUMORG_SKL"));
    CHECK(ls.model->skeleton.bones.size() > 10);
    for (const std::string& m : ls.missing)
        CHECK(m.find("hierarchy") == std::string::npos);
}

TEST_CASE("objects: --state names a state by number, label, or label without its kind") {
    std::vector<ObjectState> states(5);
    states[0].label = "default";
    states[1].label = "DAMAGED";
    states[2].label = "MOVING (animation)";
    states[3].label = "ATTACKING (animation)";
    states[4].label = "ATTACKING (model)";
    std::string why;
    CHECK(findState(states, "2", &why) == 2);
    CHECK(findState(states, "damaged", &why) == 1);
    CHECK(findState(states, "MOVING (animation)", &why) == 2);
    CHECK(findState(states, "MOVING", &why) == 2);
    CHECK(findState(states, "moving", &why) == 2);
    CHECK(findState(states, " Moving ", &why) == 2);
    CHECK(findState(states, "ATTACKING", &why) == -1);
    CHECK(why == "state ATTACKING is ambiguous: ATTACKING (animation), ATTACKING (model)");
    CHECK(findState(states, "attacking (model)", &why) == 4);
    CHECK(findState(states, "FLYING", &why) == -1);
    CHECK(why == "no state FLYING (states: default, DAMAGED, MOVING (animation), ATTACKING (animation), ATTACKING "
                 "(model))");
    CHECK(findState(states, "5", &why) == -1);
    CHECK(findState(states, "", &why) == -1);
}

TEST_CASE("objects: a mod laid out as sources names the folders to mount; several --mod make the mod") {
    SageSourceMod mod(SageSourceMod::Layout::Sources);
    const vfs::MountTable whole = vfs::mountInstall({}, {mod.root()});
    CHECK(ObjectDb::load(whole)->family() == ObjectDb::Family::None);
    const ModLayout layout = findModLayout(whole);
    CHECK(layout.definitionFolders == std::vector<std::string>{mod.defs()});
    CHECK(layout.artFolders == std::vector<std::string>{mod.art()});
    const std::string msg = noObjectDatabaseMessage(layout);
    CHECK_THAT(msg, Catch::Contains("mount them together with --mod " + mod.defs() + " --mod " + mod.art()));
    // Too deep to look at: nothing named.
    CHECK(findModLayout(whole, 1).empty());

    const auto stacked = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {mod.defs(), mod.art()}));
    const auto db = ObjectDb::load(*stacked);
    REQUIRE(db->family() == ObjectDb::Family::Sage);
    CHECK(db->objects().size() == 3);
    const ModelProbe probe = documentProbe(*stacked);
    const auto states = objectStates(*db, *stacked, db->assemble("MuUnit", probe), probe);
    const LoadedState ls = loadState(Resolver(stacked), states[0]);
    REQUIRE(ls.model);
    CHECK(ls.model->skeleton.bones.size() == 4);

    // rigscope-cli: the message with the folders, then the mod made of both; `object` lists its states.
    REQUIRE(rs::test::cliBuilt());
    const auto none = rs::test::runCli("objects --mod '" + mod.root() + "'", rs::test::Stderr::Merge, 60);
    CHECK(none.status == 1);
    CHECK_THAT(none.out, Catch::Contains("--mod " + mod.defs() + " --mod " + mod.art()));
    const std::string mounts = " --mod '" + mod.defs() + "' --mod '" + mod.art() + "'";
    const auto list = rs::test::runCli("objects" + mounts, rs::test::Stderr::Drop, 60);
    CHECK(list.status == 0);
    CHECK_THAT(list.out, Catch::Contains("MuHorde\tObject"));
    const auto unit = rs::test::runCli("object MuUnit" + mounts, rs::test::Stderr::Drop, 60);
    CHECK(unit.status == 0);
    CHECK_THAT(unit.out,
               Catch::Contains("  states (2):\n    0  default: MUSK_SKN, 1 clip(s)\n    1  MOVING (animation): "
                               "MUSK_SKN, 1 clip(s)\n"));
    const auto horde = rs::test::runCli("object MuHorde" + mounts, rs::test::Stderr::Drop, 60);
    CHECK(horde.status == 0);
    CHECK_THAT(horde.out, Catch::Contains("  member MuUnit x6 (HordeContain InitialPayload)\n"));
    CHECK_THAT(horde.out, Catch::Contains("  rank 1 MuUnit: (40, 0) (40, 15) (40, -15)\n"));
    CHECK_THAT(horde.out, Catch::Contains("    0  default: no model\n"));
}
