// The states a viewer offers for an assembled object, and a state loaded into models (no Qt).
//
// Empire at War / Forces of Corruption (hardpoints attach their Model_To_Attach at their Attachment_Bone):
//   "intact"                     the hull with every attached hardpoint model, the hull's clips
//   "HP_X destroyed"             one per hardpoint with a model: that attachment hidden
//   "damaged"                    every attachment hidden and the hull at its highest ALT level
//   "dying: DAMAGE → CLONE"      one per Death_Clone: the clone object's model with its clips (its DIE clip)
// SAGE (every Draw module draws at once): one state per flag set of the modules' DefaultModelConditionState /
// ModelConditionState / IdleAnimationState / AnimationState, in definition order, each flag set once. For a state's
// flags each module shows the model state selectState() picks (its model, hidden and shown sub-objects) and the
// animations of the animation state it picks (else of the model state). The first module with a model is the main
// model; the other modules' models hang at its root.
#pragma once

#include "objects/model_probe.h"
#include "objects/object_model.h"
#include "particles/particle_system.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <memory>
#include <string>
#include <vector>

namespace rs {
class Resolver;
}
namespace rs::vfs {
class MountTable;
}

namespace rs::objects {

class ObjectDb;

struct StateModel {
    std::string role;  // "hardpoint HP_X", "ModuleTag_Bib", ...
    std::string model; // as written
    std::string key;   // game path, "" when not found
    std::string bone;  // bone of the main model it hangs from; "" = the root
};

// EaW/FoC: what a hardpoint shows only once it is destroyed, as the engine does: the hull's mesh its Damage_Decal
// names (a scorch decal over the hull) and the proxies on the bone its Damage_Particles names (fire, sparks).
struct DamagePart {
    std::string hardpoint;
    std::string decal;        // mesh name, "" when none
    std::string particleBone; // bone name, "" when none
    bool destroyed = false;   // shown (destroyed in this state) or hidden (standing)
};

// SAGE: a particle system a draw module's state names at a bone (`ParticleSysBone = BONE SYSTEM`).
struct StateParticles {
    std::string bone;   // as written; "NONE": the object's origin
    std::string system; // as written
    std::string module; // the draw module's tag
};

struct ObjectState {
    std::string label;              // shown in the state selector
    std::vector<std::string> flags; // SAGE condition flags (upper case); empty for EaW states
    std::string object;             // the object whose model is shown (the death clone for "dying")
    StateModel main;                // the main model (key "" when none was found)
    std::vector<StateModel> attachments;
    std::vector<std::string> hidden, shown; // sub-objects (mesh names, "SUB" matches "MODEL.SUB")
    std::vector<std::string> clips;         // clip keys on the timeline, the state's animation first
    bool highestAlt = false;                // show the main model's highest ALT level (EaW "damaged")
    std::vector<DamagePart> damage;         // EaW: every hardpoint's damage-only parts of the main model
    std::vector<std::string> missing;       // one line per reference of this state that was not found
    std::vector<StateParticles> particles;  // SAGE: the particle systems of the states the modules pick
};

// The states of `o` (assembled from `db` over `table`, with `probe`). Never throws: a death clone that cannot be
// assembled gives a state with its reason in `missing`. At least one state (the first is the intact/default one).
// EaW: one "HP_X destroyed" state per hardpoint that attaches a model or whose damage-only parts (DamagePart) the
// hull has; the intact state hides every damage-only part, "HP_X destroyed" shows X's, "damaged" shows them all.
std::vector<ObjectState> objectStates(const ObjectDb& db, const vfs::MountTable& table, const AssembledObject& o,
                                      const ModelProbe& probe);

struct LoadedAttachment {
    std::shared_ptr<const Model> model;
    int bone = -1;     // bone of the main model (0 for the root)
    std::string label; // "HP_Escort_Turbo_FC (EV_ESCORTTURRET1.ALO)"
};

struct LoadedParticles {
    std::string bone, system;                         // as the state names them
    int boneIndex = -1;                               // bone of the main model; -1: the origin (NONE or not found)
    std::shared_ptr<const ParticleSystem> definition; // null when no mounted INI defines it
};

struct LoadedClip {
    std::string path; // game path of the clip file
    std::shared_ptr<const Clip> clip;
};

struct LoadedState {
    std::shared_ptr<Model> model; // the main model, hidden/shown sub-objects applied; null when not loadable
    std::string path;             // its game path (what the view resolves textures and proxies from)
    std::vector<LoadedAttachment> attachments;
    std::vector<LoadedClip> clips;
    std::vector<LoadedParticles> particles; // SAGE: the state's particle systems (definitions from the mounted INI)
    std::vector<std::string> missing;       // the state's missing references and every load problem, one line each
    // W3D: the skeleton (hierarchy) the main model needs and no file holds ("" when none is missing). The model is
    // then not posed: its skinned parts fold up at the origin, so `model` is null (the file view's notice says why).
    std::string missingHierarchy;
    std::string modelKey; // the main model's game path, also when it is not shown (missingHierarchy)
};

// Loads a state's models and clips through `resolver` (thread-safe: a worker may call it), the main model as a file
// is opened (Resolver::open, its hierarchy looked up by the same rules; w3dHierarchyFile: the file the user chose for
// it, "" to look it up). Never throws.
LoadedState loadState(const Resolver& resolver, const ObjectState& state, const std::string& w3dHierarchyFile = {});

// The state `query` names, as --state takes it: its number from 0, its label (case-insensitive), or its label without
// the kind in parentheses ("MOVING" for "MOVING (animation)", case-insensitive). -1 when none or several match; then
// `why` says so, listing the states (none) or the candidates (several).
int findState(const std::vector<ObjectState>& states, const std::string& query, std::string* why = nullptr);

// The kind of map an EaW/FoC state's model is drawn on, from the tag it came from: a Space_Model_Name on a space
// map, a Land_Model_Name on a land map (each with that map's lights); Unknown for other tags and SAGE objects.
enum class MapKind { Unknown, Land, Space };
MapKind mapKindOf(const ObjectState& state);

} // namespace rs::objects
