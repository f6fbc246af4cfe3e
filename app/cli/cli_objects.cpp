// rigscope-cli objects / object: the game object database of mounted game and mod folders (core/objects).
//   objects --game G [--mod M] [--json]          every object: name, type, parent, file:line
//   object NAME --game G [--mod M] [--json]      the object assembled: models and the bones they attach to,
//                                                states with their models and animations, hidden sub-objects,
//                                                members (hordes, squadrons), and every reference that did not
//                                                resolve; the text lists the viewer's states (--state)
// Several --mod folders stack (the first wins): a mod laid out as sources is its definitions' folder and its art's.
// JSON of `object`: {"name","type","family","file","line","inheritance":[...],
//   "parts":[{"role","model","key","found","attachTo","bone","boneFound","clips":[...]}],
//   "hardpoints":[{"name","defined","type","model","attachmentBone","collisionMesh","damageParticles",
//                  "damageDecal","fireBones":[...]}],
//   "deathClones":[{"damage","object"}], "terrainModels":[{"terrain","model"}],
//   "draws":[{"type","tag","staticModelLod","states":[{"kind","flags":[[...]],"name","model","modelFromDefault",
//             "textures":[[old,new]],"animations":[{"block","name","hierarchy","clip","first","last","mode",
//             "priority","clipKey"}],"hidden":[...],"shown":[...],"particleSysBones":[...]}]}],
//   "members":[{"object","count","where","found"}], "ranks":[{"number","unitType","positions":[[x,y]]}],
//   "upgradeHidden":[...],"upgradeShown":[...],"upgradeTextures":[[old,new]],
//   "refs":[{"kind","name","where","key","found","optional","file","line"}], "unresolved":[same as refs],
//   "warnings":[...], "errors":[...database errors...]}
#include "commands.h"
#include "objects/mod_layout.h"
#include "objects/object_db.h"
#include "objects/object_states.h"

#include <iostream>

namespace rs::cli {

using namespace rs::objects;

namespace {

std::shared_ptr<const ObjectDb> loadDb(std::vector<std::string>& args, GameMount& m, bool& json,
                                       std::vector<std::string>& pos) {
    takeMountOptions(args, m);
    takeJsonAndPositional(args, json, pos);
    if (!m.table) throw UsageError{"needs --game DIR and/or --mod DIR"};
    auto db = ObjectDb::load(*m.table);
    if (db->family() == ObjectDb::Family::None) // a mod laid out as sources: which folders make it
        throw ParseError(m.mods.empty() ? m.games[0] : m.mods[0], "", ParseError::kNoOffset,
                         noObjectDatabaseMessage(findModLayout(*m.table)));
    return db;
}

void strings(Json& j, const std::string& k, const std::vector<std::string>& v) {
    j.key(k).beginArray();
    for (const auto& s : v)
        j.value(s);
    j.endArray();
}

void pairs(Json& j, const std::string& k, const std::vector<std::pair<std::string, std::string>>& v) {
    j.key(k).beginArray();
    for (const auto& p : v)
        j.beginArray().value(p.first).value(p.second).endArray();
    j.endArray();
}

void writeRef(Json& j, const Ref& r) {
    j.beginObject()
        .kv("kind", r.kind)
        .kv("name", r.name)
        .kv("where", r.where)
        .kv("key", r.key)
        .kv("found", r.found)
        .kv("optional", r.optional)
        .kv("file", r.pos.file)
        .kv("line", r.pos.line)
        .endObject();
}

} // namespace

int cmdObjects(std::vector<std::string> args) {
    GameMount m;
    bool json = false;
    std::vector<std::string> pos;
    auto db = loadDb(args, m, json, pos);
    if (!pos.empty()) throw UsageError{"objects takes no argument (did you mean 'object NAME'?)"};
    if (json) {
        Json j;
        j.beginObject().kv("family", db->family() == ObjectDb::Family::Alamo ? "alamo" : "sage");
        j.key("objects").beginArray();
        for (const ObjectSummary& o : db->objects())
            j.beginObject()
                .kv("name", o.name)
                .kv("type", o.type)
                .kv("parent", o.parent)
                .kv("file", o.pos.file)
                .kv("line", o.pos.line)
                .endObject();
        j.endArray();
        strings(j, "errors", db->errors());
        strings(j, "filesMissing", db->filesMissing());
        strings(j, "warnings", db->warnings().lines());
        j.endObject();
        std::cout << j.out << "\n";
        return 0;
    }
    for (const ObjectSummary& o : db->objects())
        std::cout << printable(o.name) << "\t" << printable(o.type) << "\t"
                  << (o.parent.empty() ? "-" : printable(o.parent)) << "\t" << printable(o.pos.str()) << "\n";
    std::cerr << db->objects().size() << " objects in " << db->filesRead().size() << " files";
    if (!db->filesMissing().empty()) std::cerr << "; " << db->filesMissing().size() << " listed files missing";
    std::cerr << "\n";
    for (const std::string& e : db->errors())
        std::cerr << "error: " << printable(e) << "\n";
    return 0;
}

int cmdObject(std::vector<std::string> args) {
    GameMount m;
    bool json = false;
    std::vector<std::string> pos;
    auto db = loadDb(args, m, json, pos);
    if (pos.size() != 1) throw UsageError{"object takes one NAME"};
    if (pos[0].find_first_not_of(" \t\r\n") == std::string::npos)
        throw UsageError{"object needs a NAME (an empty name was given)"};
    const ModelProbe probe = documentProbe(*m.table);
    const AssembledObject o = db->assemble(pos[0], probe);
    const auto unresolved = o.unresolved();
    if (!json) {
        std::cout << printable(o.name) << " (" << printable(o.type) << ", " << printable(o.pos.str()) << ")\n";
        for (const std::string& p : o.inheritance)
            std::cout << "  inherits " << printable(p) << "\n";
        for (const Part& p : o.parts) {
            std::cout << "  " << printable(p.role) << ": " << printable(p.model) << (p.found ? "" : " (missing)");
            if (!p.attachTo.empty())
                std::cout << " at " << printable(p.attachTo) << ":" << printable(p.bone)
                          << (p.boneFound ? "" : " (bone missing)");
            std::cout << "\n";
        }
        for (const DrawModule& d : o.draws)
            std::cout << "  draw " << printable(d.type) << " " << printable(d.tag) << ": " << d.states.size()
                      << " states\n";
        for (const Member& mb : o.members)
            std::cout << "  member " << printable(mb.object)
                      << (mb.count > 0 ? " x" + std::to_string(mb.count) : std::string()) << " (" << printable(mb.where)
                      << ")" << (mb.found ? "" : " (not defined)") << "\n";
        for (const Rank& r : o.ranks) {
            std::cout << "  rank " << r.number << " " << printable(r.unitType) << ":";
            for (const auto& [x, y] : r.positions)
                std::cout << " (" << x << ", " << y << ")";
            std::cout << "\n";
        }
        // The states the viewer offers (--state takes the label, the label without its kind, or the number).
        const std::vector<ObjectState> states = objectStates(*db, *m.table, o, probe);
        std::cout << "  states (" << states.size() << "):\n";
        for (size_t i = 0; i < states.size(); ++i) {
            const ObjectState& st = states[i];
            std::cout << "    " << i << "  " << printable(st.label) << ": "
                      << (st.main.model.empty() ? std::string("no model") : printable(st.main.model));
            if (!st.attachments.empty()) std::cout << ", " << st.attachments.size() << " attached";
            if (!st.clips.empty()) std::cout << ", " << st.clips.size() << " clip(s)";
            std::cout << "\n";
        }
        for (const Ref* r : unresolved)
            std::cout << "  unresolved " << r->kind << " " << printable(r->name) << " (" << printable(r->where)
                      << ")\n";
        for (const std::string& w : o.warnings)
            std::cout << "  warning " << printable(w) << "\n";
        return 0;
    }
    Json j;
    j.beginObject()
        .kv("name", o.name)
        .kv("type", o.type)
        .kv("family", o.family)
        .kv("file", o.pos.file)
        .kv("line", o.pos.line);
    strings(j, "inheritance", o.inheritance);
    j.key("parts").beginArray();
    for (const Part& p : o.parts) {
        j.beginObject()
            .kv("role", p.role)
            .kv("model", p.model)
            .kv("key", p.key)
            .kv("found", p.found)
            .kv("attachTo", p.attachTo)
            .kv("bone", p.bone)
            .kv("boneFound", p.boneFound);
        strings(j, "clips", p.clips);
        j.endObject();
    }
    j.endArray();
    j.key("hardpoints").beginArray();
    for (const Hardpoint& h : o.hardpoints) {
        j.beginObject()
            .kv("name", h.name)
            .kv("defined", h.defined)
            .kv("type", h.type)
            .kv("model", h.model)
            .kv("attachmentBone", h.attachmentBone)
            .kv("collisionMesh", h.collisionMesh)
            .kv("damageParticles", h.damageParticles)
            .kv("damageDecal", h.damageDecal);
        strings(j, "fireBones", h.fireBones);
        j.endObject();
    }
    j.endArray();
    pairs(j, "deathClones", o.deathClones);
    pairs(j, "terrainModels", o.terrainModels);
    j.key("draws").beginArray();
    for (const DrawModule& d : o.draws) {
        j.beginObject().kv("type", d.type).kv("tag", d.tag).kv("staticModelLod", d.staticModelLod);
        j.key("states").beginArray();
        for (const DrawState& s : d.states) {
            j.beginObject().kv("kind", drawStateKindName(s.kind));
            j.key("flags").beginArray();
            for (const auto& set : s.flagSets) {
                j.beginArray();
                for (const std::string& f : set)
                    j.value(f);
                j.endArray();
            }
            j.endArray();
            j.kv("name", s.stateName).kv("model", s.model).kv("modelFromDefault", s.modelFromDefault);
            pairs(j, "textures", s.textureSwaps);
            j.key("animations").beginArray();
            for (const AnimationRef& a : s.animations)
                j.beginObject()
                    .kv("block", a.blockName)
                    .kv("name", a.name)
                    .kv("hierarchy", a.hierarchy)
                    .kv("clip", a.clip)
                    .kv("first", a.firstFrame)
                    .kv("last", a.lastFrame)
                    .kv("mode", a.mode)
                    .kv("priority", a.priority)
                    .kv("clipKey", a.clipKey)
                    .endObject();
            j.endArray();
            strings(j, "hidden", s.hidden);
            strings(j, "shown", s.shown);
            strings(j, "particleSysBones", s.particleSysBones);
            j.endObject();
        }
        j.endArray().endObject();
    }
    j.endArray();
    j.key("members").beginArray();
    for (const Member& mb : o.members)
        j.beginObject()
            .kv("object", mb.object)
            .kv("count", mb.count)
            .kv("where", mb.where)
            .kv("found", mb.found)
            .endObject();
    j.endArray();
    j.key("ranks").beginArray();
    for (const Rank& r : o.ranks) {
        j.beginObject().kv("number", r.number).kv("unitType", r.unitType);
        j.key("positions").beginArray();
        for (const auto& [x, y] : r.positions)
            j.beginArray().value(double(x)).value(double(y)).endArray();
        j.endArray().endObject();
    }
    j.endArray();
    strings(j, "upgradeHidden", o.upgradeHidden);
    strings(j, "upgradeShown", o.upgradeShown);
    pairs(j, "upgradeTextures", o.upgradeTextures);
    j.key("refs").beginArray();
    for (const Ref& r : o.refs)
        writeRef(j, r);
    j.endArray();
    j.key("unresolved").beginArray();
    for (const Ref* r : unresolved)
        writeRef(j, *r);
    j.endArray();
    strings(j, "warnings", o.warnings);
    strings(j, "errors", db->errors());
    j.endObject();
    std::cout << j.out << "\n";
    return 0;
}

} // namespace rs::cli
