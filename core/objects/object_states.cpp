#include "objects/object_states.h"

#include "objects/object_db.h"
#include "objects/sage_fx.h"
#include "resolve/resolver.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <sstream>

namespace rs::objects {

namespace {

std::string upper(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// The main model of an EaW object: the first of the model tags the game draws the unit with.
const Part* eawMain(const AssembledObject& o) {
    for (const char* tag :
         {"SPACE_MODEL_NAME", "LAND_MODEL_NAME", "MODEL_NAME", "TACTICAL_MODEL_NAME", "GALACTIC_MODEL_NAME"})
        for (const Part& p : o.parts)
            if (p.attachTo.empty() && upper(p.role) == tag) return &p;
    return nullptr;
}

StateModel stateModel(const Part& p) { return {p.role, p.model, p.key, p.bone}; }

void eawStates(const ObjectDb& db, const AssembledObject& o, const ModelProbe& probe, std::vector<ObjectState>& out) {
    ObjectState intact;
    intact.label = "intact";
    intact.object = o.name;
    if (const Part* m = eawMain(o)) {
        intact.main = stateModel(*m);
        intact.clips = m->clips;
        if (!m->found) intact.missing.push_back("model " + m->model + " (" + m->role + ") not found");
    } else {
        intact.missing.push_back("no model tag (Space_Model_Name, Land_Model_Name, ...)");
    }
    // Damage-only parts of the hull, per hardpoint (those the hull has: the others are unresolved references).
    const ModelFacts hull = intact.main.key.empty() || !probe ? ModelFacts{} : probe(intact.main.key);
    for (const Hardpoint& hp : o.hardpoints) {
        DamagePart d;
        d.hardpoint = hp.name;
        if (!hp.damageDecal.empty() && hull.hasSubObject(hp.damageDecal)) d.decal = hp.damageDecal;
        if (!hp.damageParticles.empty() && hull.hasProxyAt(hp.damageParticles)) d.particleBone = hp.damageParticles;
        if (!d.decal.empty() || !d.particleBone.empty()) intact.damage.push_back(std::move(d));
    }
    auto destroy = [](ObjectState& s, const std::string& hardpoint) {
        for (DamagePart& d : s.damage)
            if (hardpoint.empty() || iequals(d.hardpoint, hardpoint)) d.destroyed = true;
    };
    std::vector<const Part*> attached;
    for (const Part& p : o.parts) {
        if (p.attachTo.empty()) continue;
        attached.push_back(&p);
        if (!p.found)
            intact.missing.push_back("model " + p.model + " (" + p.role + " Model_To_Attach) not found");
        else if (!p.boneFound)
            intact.missing.push_back("bone " + (p.bone.empty() ? std::string("(none)") : p.bone) + " (" + p.role +
                                     " Attachment_Bone) not in " + p.attachTo);
        else
            intact.attachments.push_back(stateModel(p));
    }
    for (const Hardpoint& hp : o.hardpoints)
        if (!hp.defined) intact.missing.push_back("hardpoint " + hp.name + " not defined in the hardpoint files");
    out.push_back(intact);

    // One state per hardpoint destroyed (in the object's hardpoint order): its attachment gone, its damage parts shown.
    std::vector<std::string> destroyable;
    for (const Hardpoint& hp : o.hardpoints) {
        const bool attaches = std::any_of(attached.begin(), attached.end(),
                                          [&](const Part* p) { return iequals(p->role, "hardpoint " + hp.name); });
        const bool damage = std::any_of(intact.damage.begin(), intact.damage.end(),
                                        [&](const DamagePart& d) { return iequals(d.hardpoint, hp.name); });
        if (attaches || damage) destroyable.push_back(hp.name);
    }
    for (const Part* p : attached) // attachments that are no hardpoint of the list (none today) keep their state
        if (p->role.rfind("hardpoint ", 0) != 0) destroyable.push_back(p->role);
    for (const std::string& hp : destroyable) {
        ObjectState s = intact;
        s.label = hp + " destroyed";
        s.attachments.erase(std::remove_if(s.attachments.begin(), s.attachments.end(),
                                           [&](const StateModel& a) {
                                               return iequals(a.role, "hardpoint " + hp) || iequals(a.role, hp);
                                           }),
                            s.attachments.end());
        destroy(s, hp);
        out.push_back(std::move(s));
    }
    if (!o.hardpoints.empty() || intact.main.key.size()) {
        ObjectState s = intact;
        s.label = "damaged";
        s.attachments.clear();
        s.highestAlt = true;
        destroy(s, {});
        out.push_back(std::move(s));
    }
    for (const auto& [damage, clone] : o.deathClones) {
        ObjectState s;
        s.label = "dying: " + damage + " \u2192 " + clone;
        s.object = clone;
        try {
            const AssembledObject c = db.assemble(clone, probe);
            if (const Part* m = eawMain(c)) {
                s.main = stateModel(*m);
                s.clips = m->clips;
                if (!m->found) s.missing.push_back("model " + m->model + " of death clone " + clone + " not found");
            } else {
                s.missing.push_back("death clone " + clone + " (" + c.type + ") names no model");
            }
        } catch (const std::exception& e) {
            s.missing.push_back("death clone " + clone + ": " + e.what());
        }
        out.push_back(std::move(s));
    }
}

void sageStates(const vfs::MountTable& table, const AssembledObject& o, std::vector<ObjectState>& out) {
    // Every flag set of the modules' states, once, in definition order.
    std::vector<std::vector<std::string>> sets;
    std::vector<std::string> labels;
    for (const DrawModule& d : o.draws)
        for (const DrawState& st : d.states) {
            if (st.kind == DrawState::Kind::Transition) continue;
            std::vector<std::vector<std::string>> fs = st.flagSets;
            if (fs.empty()) fs.push_back({});
            for (const auto& f : fs) {
                if (std::find(sets.begin(), sets.end(), f) != sets.end()) continue;
                std::string label;
                for (const std::string& x : f)
                    label += (label.empty() ? "" : " ") + x;
                if (label.empty()) label = "default";
                if (st.kind == DrawState::Kind::Animation || st.kind == DrawState::Kind::Idle) label += " (animation)";
                sets.push_back(f);
                labels.push_back(label);
            }
        }
    if (sets.empty()) {
        sets.push_back({});
        labels.push_back("default");
    }
    for (size_t i = 0; i < sets.size(); ++i) {
        ObjectState s;
        s.label = labels[i];
        s.flags = sets[i];
        s.object = o.name;
        bool haveMain = false;
        for (const DrawModule& d : o.draws) {
            const int mi = selectState(d, sets[i], false);
            const int ai = selectState(d, sets[i], true);
            const DrawState* ms = mi >= 0 ? &d.states[size_t(mi)] : nullptr;
            const DrawState* as = ai >= 0 ? &d.states[size_t(ai)] : nullptr;
            if (ms && !ms->model.empty() && upper(ms->model) != "NONE") {
                StateModel m{d.tag + " " + drawStateKindName(ms->kind) + " state", ms->model,
                             findModelKey(table, ms->model, false), ""};
                if (m.key.empty()) s.missing.push_back("model " + ms->model + " (" + d.tag + ") not found");
                if (!haveMain) {
                    s.main = m;
                    haveMain = true;
                    s.hidden = ms->hidden;
                    s.shown = ms->shown;
                    if (as && as != ms) {
                        s.hidden.insert(s.hidden.end(), as->hidden.begin(), as->hidden.end());
                        s.shown.insert(s.shown.end(), as->shown.begin(), as->shown.end());
                    }
                } else if (!m.key.empty()) {
                    s.attachments.push_back(m);
                }
            }
            // The particle systems of the model state and of the animation state picked (a module of effects
            // alone, Model = None, names them in its AnimationStates: BFME's DustEffects).
            for (const DrawState* st : {ms, as != ms ? as : nullptr})
                if (st)
                    for (const std::string& psb : st->particleSysBones) {
                        std::istringstream words(psb);
                        StateParticles sp;
                        words >> sp.bone >> sp.system;
                        sp.module = d.tag;
                        if (!sp.system.empty()) s.particles.push_back(std::move(sp));
                    }
            const std::vector<AnimationRef>* anims =
                as && !as->animations.empty() ? &as->animations : (ms ? &ms->animations : nullptr);
            if (anims)
                for (const AnimationRef& a : *anims) {
                    if (a.clipKey.empty())
                        s.missing.push_back("clip " + a.name + " (" + d.tag + ") not found");
                    else if (std::find(s.clips.begin(), s.clips.end(), a.clipKey) == s.clips.end())
                        s.clips.push_back(a.clipKey);
                }
        }
        if (!haveMain) s.missing.push_back("no draw module shows a model in this state");
        out.push_back(std::move(s));
    }
}

bool meshIs(const std::string& mesh, const std::string& name) {
    if (iequals(mesh, name)) return true;
    const size_t dot = mesh.find('.');
    return dot != std::string::npos && iequals(mesh.substr(dot + 1), name);
}

std::string trimmed(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\"");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\"") - b + 1);
}

} // namespace

std::vector<ObjectState> objectStates(const ObjectDb& db, const vfs::MountTable& table, const AssembledObject& o,
                                      const ModelProbe& probe) {
    std::vector<ObjectState> out;
    if (o.family == "alamo")
        eawStates(db, o, probe, out);
    else
        sageStates(table, o, out);
    if (out.empty()) {
        ObjectState s;
        s.label = "default";
        s.object = o.name;
        out.push_back(s);
    }
    return out;
}

LoadedState loadState(const Resolver& resolver, const ObjectState& state, const std::string& w3dHierarchyFile) {
    LoadedState out;
    out.missing = state.missing;
    out.modelKey = state.main.key;
    if (!state.main.key.empty()) {
        try {
            OpenOptions options;
            options.w3dHierarchyFile = w3dHierarchyFile;
            Asset a = resolver.open(state.main.key, options);
            if (!a.missingHierarchy.empty()) {
                // Not posed without its skeleton: nothing to show (the caller says why).
                out.missingHierarchy = a.missingHierarchy;
            } else if (a.document.model) {
                out.model = std::make_shared<Model>(*a.document.model);
                out.path = state.main.key;
            } else {
                out.missing.push_back(state.main.key + ": holds no model");
            }
            for (const std::string& m : a.missing)
                out.missing.push_back(m);
        } catch (const std::exception& e) {
            out.missing.push_back(e.what());
        }
    }
    if (!out.model) return out;
    Model& m = *out.model;
    // Damage-only parts: hidden while their hardpoint stands, shown once it is destroyed.
    for (const DamagePart& d : state.damage) {
        if (!d.decal.empty())
            for (Mesh& mesh : m.meshes)
                if (meshIs(mesh.name, d.decal)) mesh.hidden = !d.destroyed;
        if (!d.particleBone.empty())
            for (Proxy& p : m.proxies)
                if (p.bone >= 0 && size_t(p.bone) < m.skeleton.bones.size() &&
                    iequals(m.skeleton.bones[size_t(p.bone)].name, d.particleBone))
                    p.hidden = !d.destroyed;
    }
    for (const auto* list : {&state.hidden, &state.shown})
        for (const std::string& raw : *list) {
            const std::string n = trimmed(raw);
            bool any = false;
            for (Mesh& mesh : m.meshes)
                if (meshIs(mesh.name, n)) {
                    mesh.hidden = list == &state.hidden;
                    any = true;
                }
            if (!any) out.missing.push_back("sub-object " + n + " not in " + state.main.model);
        }
    for (const StateModel& a : state.attachments) {
        int bone = -1;
        if (a.bone.empty())
            bone = m.skeleton.bones.empty() ? -1 : 0;
        else
            for (size_t i = 0; i < m.skeleton.bones.size() && bone < 0; ++i)
                if (iequals(m.skeleton.bones[i].name, a.bone)) bone = int(i);
        if (bone < 0) {
            out.missing.push_back("bone " + a.bone + " for " + a.model + " not in " + state.main.model);
            continue;
        }
        try {
            const Document d = resolver.read(a.key);
            if (!d.model) {
                out.missing.push_back(a.key + ": holds no model");
                continue;
            }
            const std::string role = a.role.rfind("hardpoint ", 0) == 0 ? a.role.substr(10) : a.role;
            out.attachments.push_back({d.model, bone, role + " (" + a.model + ")"});
        } catch (const std::exception& e) {
            out.missing.push_back(e.what());
        }
    }
    if (!state.particles.empty()) {
        // The mounted game's particle definitions, read once per mount table (the window keeps one while mounted).
        static std::mutex cacheMutex;
        static std::weak_ptr<const vfs::MountTable> cachedTable;
        static std::shared_ptr<const SageFxLibrary> cachedLib;
        std::shared_ptr<const SageFxLibrary> lib;
        if (const auto& table = resolver.mounted()) {
            std::lock_guard<std::mutex> lock(cacheMutex);
            if (cachedTable.lock() != table || !cachedLib) {
                cachedLib = loadSageFx(*table);
                cachedTable = table;
            }
            lib = cachedLib;
        }
        for (const StateParticles& p : state.particles) {
            LoadedParticles lp;
            lp.bone = p.bone;
            lp.system = p.system;
            if (!iequals(p.bone, "NONE")) {
                for (size_t i = 0; i < m.skeleton.bones.size() && lp.boneIndex < 0; ++i)
                    if (iequals(m.skeleton.bones[i].name, p.bone)) lp.boneIndex = int(i);
                if (lp.boneIndex < 0)
                    out.missing.push_back("bone " + p.bone + " for particle system " + p.system + " not in " +
                                          state.main.model);
            }
            lp.definition = lib ? lib->find(p.system) : nullptr;
            if (!lp.definition)
                out.missing.push_back("particle system " + p.system + " (" + p.module + ") " +
                                      (lib ? "not defined in the mounted INI files" : "not read: no game mounted"));
            out.particles.push_back(std::move(lp));
        }
    }
    for (const std::string& key : state.clips) {
        try {
            const Document d = resolver.read(key);
            if (d.clips.empty()) out.missing.push_back(key + ": holds no clip");
            for (const auto& c : d.clips)
                out.clips.push_back({key, c});
        } catch (const std::exception& e) {
            out.missing.push_back(e.what());
        }
    }
    return out;
}

int findState(const std::vector<ObjectState>& states, const std::string& rawQuery, std::string* why) {
    const std::string query = trimmed(rawQuery);
    auto list = [&](const std::vector<size_t>& which) {
        std::string l;
        for (size_t i : which)
            l += (l.empty() ? "" : ", ") + states[i].label;
        return l;
    };
    if (!query.empty() && query.size() <= 9 &&
        std::all_of(query.begin(), query.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const size_t n = size_t(std::stoul(query));
        if (n < states.size()) return int(n);
    }
    for (size_t i = 0; i < states.size(); ++i)
        if (iequals(states[i].label, query)) return int(i);
    // The label without its kind: "MOVING (animation)" -> "MOVING".
    std::vector<size_t> hits;
    for (size_t i = 0; i < states.size(); ++i) {
        const std::string& l = states[i].label;
        const size_t open = l.rfind(" (");
        if (open != std::string::npos && !l.empty() && l.back() == ')' && iequals(trimmed(l.substr(0, open)), query))
            hits.push_back(i);
    }
    if (hits.size() == 1) return int(hits.front());
    if (why) {
        std::vector<size_t> all(states.size());
        for (size_t i = 0; i < all.size(); ++i)
            all[i] = i;
        *why = hits.empty() ? "no state " + query + " (states: " + list(all) + ")"
                            : "state " + query + " is ambiguous: " + list(hits);
    }
    return -1;
}

MapKind mapKindOf(const ObjectState& state) {
    const std::string role = upper(state.main.role);
    if (role.rfind("SPACE_MODEL", 0) == 0) return MapKind::Space;
    if (role.rfind("LAND_MODEL", 0) == 0) return MapKind::Land;
    return MapKind::Unknown;
}

} // namespace rs::objects
