// core/objects on the real mod folders of games/ (OBJECTS.md): every chosen object assembles with the parts this
// test reads on its own from the XML / INI text (plain regular expressions, not the readers under test).
#include "corpus.h"
#include "objects/object_db.h"
#include "scene/model.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace rs;
using namespace rs::objects;

namespace {

std::string eawDir() { return rs::test::corpusDir() + "/games/Delta730+Imperial_Civil_War"; }
std::string sageDir() { return rs::test::corpusDir() + "/games/SymoniusGit+TROWMod"; }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string up(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string trimmed(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The text of the XML element <TYPE Name="NAME"> ... </TYPE>, comments removed.
std::string xmlBlock(const std::string& file, const std::string& name) {
    const std::string text = std::regex_replace(slurp(file), std::regex("<!--[\\s\\S]*?-->"), "");
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("<(\\w+)\\s+Name=\"" + name + "\"\\s*>")));
    const size_t end = text.find("</" + m[1].str() + ">", size_t(m.position(0)));
    REQUIRE(end != std::string::npos);
    return text.substr(size_t(m.position(0)), end - size_t(m.position(0)));
}

std::vector<std::pair<std::string, std::string>> xmlTags(const std::string& block, const std::string& pattern) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::regex re("<(" + pattern + ")>([^<]*)</\\1>", std::regex::icase);
    for (std::sregex_iterator it(block.begin(), block.end(), re), end; it != end; ++it)
        out.emplace_back((*it)[1].str(), trimmed((*it)[2].str()));
    return out;
}

std::vector<std::string> listItems(const std::string& v) {
    std::vector<std::string> out;
    const std::regex re("[^,\\s]+");
    for (std::sregex_iterator it(v.begin(), v.end(), re), end; it != end; ++it)
        out.push_back(it->str());
    return out;
}

struct EawExpect {
    const char* name;
    const char* file;
};

const EawExpect kEaw[] = {
    {"Combat_Escort_Carrier", "Pentastar_Space.xml"},
    {"Combat_Escort_Carrier_Death_Clone", "Pentastar_Space.xml"},
    {"Escort_Carrier", "Remnant_Space_Units.xml"},
    {"Escort_Carrier_Death_Clone", "Remnant_Space_Units.xml"},
    {"Visvia", "EotH_Space_Units.xml"},
    {"Crimson_Victory", "Remnant_Space_Units.xml"},
    {"Generic_Victory_Destroyer", "SharedSpaceTriangles.xml"},
    {"Freerunner", "GroundVehicles.xml"},
    {"T4B_Tank", "GroundVehicles.xml"},
    {"T4B_Death_Clone", "GroundVehicles.xml"},
    {"MMT", "Eoth_Vehicles.xml"},
    {"MMT_Death_Clone", "Eoth_Vehicles.xml"},
    {"Flame_Tank", "Eoth_Vehicles.xml"},
    {"Flame_Death_Clone", "Eoth_Vehicles.xml"},
};

// Model_To_Attach and Attachment_Bone of a hardpoint, read from the copied hardpoint files.
std::pair<std::string, std::string> hardpointText(const std::string& name) {
    for (const char* f : {"HardPoints_IR.xml", "HardPoints_NR.xml", "Hardpoints_EotH.xml"}) {
        const std::string text = slurp(eawDir() + "/Data/XML/" + f);
        const size_t at = text.find("Name=\"" + name + "\"");
        if (at == std::string::npos) continue;
        const std::string block = text.substr(at, text.find("</HardPoint>", at) - at);
        std::string model, bone;
        for (const auto& [t, v] : xmlTags(block, "Model_To_Attach"))
            model = v;
        for (const auto& [t, v] : xmlTags(block, "Attachment_Bone"))
            bone = v;
        return {model, bone};
    }
    return {"?", "?"};
}

const Part* part(const AssembledObject& o, const std::string& role) {
    for (const Part& p : o.parts)
        if (iequals(p.role, role)) return &p;
    return nullptr;
}

const Ref* ref(const AssembledObject& o, const std::string& kind, const std::string& name) {
    for (const Ref& r : o.refs)
        if (r.kind == kind && iequals(r.name, name)) return &r;
    return nullptr;
}

std::vector<std::string> baseNames(const std::vector<std::string>& keys) {
    std::vector<std::string> out;
    for (const std::string& k : keys)
        out.push_back(k.substr(k.rfind('/') + 1));
    return out;
}

} // namespace

TEST_CASE("objects corpus: every EaW object of OBJECTS.md assembles with the parts its XML names") {
    RIGSCOPE_REQUIRE_CORPUS("games");
    const vfs::MountTable t = vfs::mountInstall({}, {eawDir()});
    const auto db = ObjectDb::load(t);
    REQUIRE(db->family() == ObjectDb::Family::Alamo);
    CHECK(db->errors().empty());
    CHECK(db->filesMissing().size() == 116 + 6); // of 122 object files and 9 hardpoint files, 6 and 3 were copied
    const ModelProbe probe = documentProbe(t);
    for (const EawExpect& e : kEaw) {
        INFO(e.name);
        const std::string block = xmlBlock(eawDir() + "/Data/XML/" + e.file, e.name);
        const AssembledObject o = db->assemble(e.name, probe);
        CHECK(o.pos.file == vfs::normalizePath(std::string("DATA/XML/") + e.file));
        // Model tags written in the object itself.
        for (const auto& [tag, value] : xmlTags(block, "\\w*Model_Name")) {
            if (value.empty()) continue;
            const Part* p = part(o, tag);
            REQUIRE(p);
            CHECK(iequals(p->model, value));
        }
        // Hardpoints: the object's own list, else the parent's.
        std::vector<std::string> hps;
        std::string hpBlock = block;
        if (xmlTags(block, "HardPoints").empty()) {
            for (const auto& [t2, parent] : xmlTags(block, "Variant_Of_Existing_Type"))
                for (const EawExpect& p : kEaw)
                    if (p.name == parent) hpBlock = xmlBlock(eawDir() + "/Data/XML/" + p.file, parent);
        }
        for (const auto& [tag, value] : xmlTags(hpBlock, "HardPoints"))
            for (const std::string& n : listItems(value))
                if (std::find(hps.begin(), hps.end(), n) == hps.end()) hps.push_back(n);
        REQUIRE(o.hardpoints.size() == hps.size());
        for (size_t i = 0; i < hps.size(); ++i) {
            CHECK(o.hardpoints[i].name == hps[i]);
            const auto [model, bone] = hardpointText(hps[i]);
            CHECK(o.hardpoints[i].model == model);
            CHECK(o.hardpoints[i].attachmentBone == bone);
            if (!model.empty()) {
                const Part* p = part(o, "hardpoint " + hps[i]);
                REQUIRE(p);
                CHECK(p->found);
                CHECK(p->bone == bone);
                CHECK(p->boneFound);
            }
        }
    }

    // The facts OBJECTS.md lists.
    const AssembledObject cec = db->assemble("Combat_Escort_Carrier", probe);
    CHECK(cec.hardpoints.size() == 7);
    CHECK(part(cec, "hardpoint HP_Escort_Turbo_FC")->key == "DATA/ART/MODELS/EV_ESCORTTURRET1.ALO");
    CHECK(ref(cec, "bone", "MUZZLEB_00")->found); // in the turret, not in the hull
    CHECK(cec.deathClones ==
          std::vector<std::pair<std::string, std::string>>{{"Damage_Normal", "Combat_Escort_Carrier_Death_Clone"}});
    CHECK(ref(cec, "object", "Combat_Escort_Carrier_Death_Clone")->found);
    CHECK(baseNames(part(db->assemble("Combat_Escort_Carrier_Death_Clone", probe), "Space_Model_Name")->clips) ==
          std::vector<std::string>{"EV_ESCORT_D_DIE_00.ALA"});
    CHECK(baseNames(part(db->assemble("Escort_Carrier_Death_Clone", probe), "Space_Model_Name")->clips) ==
          std::vector<std::string>{"EV_ESCORT_DIE_DIE_00.ALA"});
    const AssembledObject ec = db->assemble("Escort_Carrier", probe);
    CHECK(part(ec, "Space_Model_Name")->key == "DATA/ART/MODELS/ESCORT_CARRIER.ALO");
    CHECK(ec.hardpoints.size() == 5);
    const AssembledObject visvia = db->assemble("Visvia", probe);
    CHECK(visvia.hardpoints.size() == 13);
    int turrets = 0;
    for (const Part& p : visvia.parts)
        turrets += !p.attachTo.empty() && p.found && p.boneFound;
    CHECK(turrets == 4);
    for (const char* b : {"MUZZLEA_00", "MUZZLEB_00", "MUZZLEC_00", "MUZZLED_00"})
        CHECK(ref(visvia, "bone", b)->found);
    CHECK_FALSE(ref(visvia, "object", "Large_Explosion_Space")->found);
    const AssembledObject cv = db->assemble("Crimson_Victory", probe);
    CHECK(cv.inheritance == std::vector<std::string>{"Generic_Victory_Destroyer"});
    CHECK(cv.hardpoints.size() == 17);
    CHECK(part(cv, "Space_Model_Name")->model == "EV_13x.alo");
    CHECK(cv.deathClones.size() == 1); // inherited
    CHECK(db->assemble("Generic_Victory_Destroyer", probe).hardpoints.size() == 21);
    CHECK(db->assemble("Freerunner", probe).hardpoints.size() >= 3);
    const AssembledObject t4b = db->assemble("T4B_Tank", probe);
    CHECK(part(t4b, "terrain Arctic")->key == "DATA/ART/MODELS/RV_T4B_S.ALO");
    CHECK(baseNames(part(t4b, "terrain Arctic")->clips).size() == 3);
    for (const char* b : {"MuzzleB_00", "MuzzleB_01", "MuzzleB_02"})
        CHECK(ref(t4b, "bone", b)->found);
    CHECK(iequals(part(db->assemble("T4B_Death_Clone", probe), "Land_Model_Name")->model, "T4B_D.ALO"));
    CHECK(baseNames(part(db->assemble("MMT", probe), "Land_Model_Name")->clips) ==
          std::vector<std::string>{"CV_MEGAMASERTANK_ATTACK_00.ALA"});
    const AssembledObject flame = db->assemble("Flame_Tank", probe);
    CHECK(baseNames(part(flame, "Land_Model_Name")->clips).size() == 5);
    CHECK(part(flame, "Flame_Emitter_Model_Name")->key == "DATA/ART/MODELS/P_FLAMETHROWER00.ALO");
    CHECK(db->assemble("Flame_Death_Clone", probe).inheritance == std::vector<std::string>{"Flame_Tank"});
}

namespace {

struct SageExpect {
    const char* name;
    const char* file;
    bool ownDraw; // defines Draw modules itself
};

const SageExpect kSage[] = {
    {"MordorRhunImmortal", "units/mordor/rhunimmortal.ini", true},
    {"MordorRhunImmortal_Summoned", "units/mordor/rhunimmortal.ini", false},
    {"MordorRhunImmortalHorde", "hordes/mordor/mordorhordes.ini", true},
    {"MordorRhunImmortalHorde_Summoned", "hordes/mordor/mordorhordes.ini", false},
    {"AngmarDarkDunedain", "units/angmar/angmardarkdunedain.ini", true},
    {"AngmarHwaldar", "units/angmar/angmarhwaldir.ini", true},
    {"AngmarTrollSling", "units/angmar/angmartrollsling.ini", true},
    {"AngmarTrollSlingFortress", "units/angmar/angmartrollsling.ini", true},
    {"AngmarBarracks", "structures/angmar/angmarbarracks.ini", true},
    {"AngmarWallGateSmall", "structures/angmar/angmarcastlewalls.ini", true},
    {"AngmarWallGateCarnDum", "structures/angmar/angmarcastlewalls.ini", false},
    {"AngmarForgeWorks", "structures/angmar/angmarforgeworks.ini", true},
};

// The object's lines (comments removed), from its header to the next definition.
std::vector<std::string> iniBlock(const std::string& file, const std::string& name) {
    std::istringstream in(slurp(file));
    std::vector<std::string> out;
    std::string line;
    bool inside = false;
    const std::regex header("^\\s*(Object|ChildObject|ObjectReskin)\\s+(\\S+).*", std::regex::icase);
    while (std::getline(in, line)) {
        for (const char* c : {";", "//"})
            if (const size_t p = line.find(c); p != std::string::npos) line.erase(p);
        std::smatch m;
        if (std::regex_match(line, m, header)) {
            if (inside) break;
            inside = m[2].str() == name;
        }
        if (inside) out.push_back(line);
    }
    return out;
}

std::set<std::string> iniValues(const std::vector<std::string>& lines, const std::string& key) {
    std::set<std::string> out;
    const std::regex re("^\\s*" + key + "\\s*=\\s*(\\S+).*", std::regex::icase);
    for (const std::string& l : lines) {
        std::smatch m;
        if (std::regex_match(l, m, re) && up(m[1].str()) != "NONE") out.insert(up(m[1].str()));
    }
    return out;
}

bool w3dOnDisk(const std::string& name) {
    static std::set<std::string> files;
    if (files.empty())
        for (const std::string& f : rs::test::corpusFiles("games/SymoniusGit+TROWMod", {".w3d"}))
            files.insert(up(f.substr(f.rfind('/') + 1)));
    return files.count(up(name) + ".W3D") > 0;
}

} // namespace

TEST_CASE("objects corpus: every SAGE object of OBJECTS.md assembles with the models, states and clips of its INI") {
    RIGSCOPE_REQUIRE_CORPUS("games");
    const vfs::MountTable t = vfs::mountInstall({}, {sageDir()});
    const auto db = ObjectDb::load(t);
    REQUIRE(db->family() == ObjectDb::Family::Sage);
    // The only error: an include the repository does not have.
    REQUIRE(db->errors().size() == 1);
    CHECK(db->errors()[0].find("DEFAULTPOSTERNGATEINVISIBILITYUPDATE.INC not found") != std::string::npos);
    const ModelProbe probe = documentProbe(t);
    for (const SageExpect& e : kSage) {
        INFO(e.name);
        const std::vector<std::string> lines = iniBlock(sageDir() + "/data/ini/object/evilfaction/" + e.file, e.name);
        REQUIRE_FALSE(lines.empty());
        const AssembledObject o = db->assemble(e.name, probe);
        std::set<std::string> models, clips, animStates;
        for (const Part& p : o.parts)
            models.insert(up(p.model));
        for (const DrawModule& d : o.draws)
            for (const DrawState& s : d.states) {
                for (const AnimationRef& a : s.animations)
                    clips.insert(up(a.name));
                if (s.kind == DrawState::Kind::Animation)
                    for (const auto& set : s.flagSets)
                        for (const std::string& f : set)
                            animStates.insert(f);
            }
        for (const std::string& m : iniValues(lines, "Model"))
            CHECK(models.count(m));
        for (const std::string& c : iniValues(lines, "AnimationName"))
            CHECK(clips.count(c));
        for (const std::string& s : iniValues(lines, "AnimationState"))
            CHECK(animStates.count(s));
        if (!e.ownDraw) CHECK_FALSE(o.inheritance.empty());
        // A model is unresolved exactly when no .w3d of that name was copied (searched on disk here).
        for (const Ref& r : o.refs)
            if (r.kind == "model") CHECK(r.found == w3dOnDisk(r.name));
    }

    const AssembledObject ri = db->assemble("MordorRhunImmortal", probe);
    REQUIRE(ri.draws.size() == 2); // the module, then StunDrawModuleSmall.inc's
    CHECK(ri.draws[0].type == "W3DHordeModelDraw");
    size_t anim = 0, trans = 0;
    const DrawState* idle = nullptr;
    for (const DrawState& s : ri.draws[0].states) {
        anim += s.kind == DrawState::Kind::Animation;
        trans += s.kind == DrawState::Kind::Transition;
        if (s.kind == DrawState::Kind::Idle) idle = &s;
    }
    CHECK(anim == 21);
    CHECK(trans == 2);
    REQUIRE(idle);
    REQUIRE(idle->animations.size() == 3);
    CHECK(idle->animations[0].clip == "KUMorg_IDLB");
    CHECK(idle->animations[0].firstFrame == 0);
    CHECK(idle->animations[0].lastFrame == 15);
    CHECK(idle->animations[0].clipKey == "ARTS/ART/W3D/KU/KUMORG_IDLB.W3D");
    CHECK(ref(ri, "model", "MUEastRlGrd_SKN")->key == "ARTS/ART/W3D/MU/MUEASTRLGRD_SKN.W3D");

    const AssembledObject summoned = db->assemble("MordorRhunImmortal_Summoned", probe);
    CHECK(summoned.draws.size() == 2);
    CHECK(summoned.upgradeTextures.size() >= 1);

    const AssembledObject horde = db->assemble("MordorRhunImmortalHorde", probe);
    CHECK(ref(horde, "object", "MordorRhunImmortal")->found);
    CHECK_FALSE(ref(horde, "model", "HordeMarkMUSol")->found);
    CHECK(ref(db->assemble("MordorRhunImmortalHorde_Summoned", probe), "object", "MordorRhunImmortal_Summoned")->found);

    const AssembledObject barracks = db->assemble("AngmarBarracks", probe);
    for (const char* so : {"N_Window", "V1", "V2"})
        CHECK(ref(barracks, "sub-object", so)->found);
    CHECK(ref(barracks, "lod-model", "KBHallM")->found);
    CHECK(ref(barracks, "lod-model", "KBHallL")->found);
    // The engine's pick: DAMAGED -> KBHall_D1; AWAITING_CONSTRUCTION SNOW -> the SNOW build state.
    const DrawModule& bd = barracks.draws[0];
    CHECK(bd.states[size_t(selectState(bd, {"DAMAGED"}))].model == "KBHall_D1");
    CHECK(bd.states[size_t(selectState(bd, {"AWAITING_CONSTRUCTION", "SNOW"}))].textureSwaps.size() == 1);
    CHECK(bd.states[size_t(selectState(bd, {}))].model == "KBHall");
    CHECK(bd.states[size_t(selectState(bd, {"DAMAGED"}, true))].flagSets[0] == std::vector<std::string>{"DAMAGED"});

    const AssembledObject fortress = db->assemble("AngmarTrollSlingFortress", probe);
    CHECK(fortress.draws[0].type == "W3DTruckDraw");
    CHECK(ref(fortress, "model", "KBWallSling_Skn")->found);
    CHECK(ref(fortress, "model", "KBSlingD3")->found);
    CHECK(std::find(fortress.upgradeHidden.begin(), fortress.upgradeHidden.end(), "Forged_Blade") !=
          fortress.upgradeHidden.end());
    const AssembledObject gate = db->assemble("AngmarWallGateSmall", probe);
    CHECK(gate.draws.size() == 3);
    CHECK(db->assemble("AngmarWallGateCarnDum", probe).draws.size() == 3);
    const AssembledObject forge = db->assemble("AngmarForgeWorks", probe);
    std::set<std::string> hidden;
    for (const DrawModule& d : forge.draws)
        for (const DrawState& s : d.states)
            hidden.insert(s.hidden.begin(), s.hidden.end());
    for (const char* so : {"N_Window", "V1", "V2", "FireCards01", "FireCards_2", "N_Glow"})
        CHECK(hidden.count(so));
}
