// Game object definitions, assembled: what an object of Empire at War / Forces of Corruption (XML) or of a SAGE game
// (INI) shows, and every reference that did or did not resolve (no Qt; no model loading here: see model_probe.h).
#pragma once

#include "common/error.h"

#include <string>
#include <utility>
#include <vector>

namespace rs::objects {

// A place in a definition file: its game path (normalizePath key) and 1-based line and column.
struct SourcePos {
    std::string file;
    int line = 0;
    int column = 0;
    std::string str() const; // "FILE:LINE:COLUMN" (or "FILE" when no line)
};

// The one-line ParseError of the project for a place in a text file:
//   "<file>: field line L, column C: <message>"
ParseError errorAt(const SourcePos& pos, const std::string& message);

// One reference from a definition to something else, and whether it was found.
struct Ref {
    std::string kind;  // "model", "bone", "object", "hardpoint", "clip", "sub-object", "file", "lod-model", "include",
                       // "particle-system"
    std::string name;  // as written
    std::string where; // what refers to it ("Space_Model_Name", "hardpoint HP_X Attachment_Bone in EV_X.ALO")
    std::string key;   // the game path it resolved to (files), or "" when none
    bool found = false;
    bool optional = false; // absent is normal (LOD files)
    SourcePos pos;
};

// SAGE: one `Animation` block (or a Generals `Animation = SKL.ANIM` line).
struct AnimationRef {
    std::string blockName;               // "IDLB" of `Animation = IDLB`; "" for a bare `Animation`
    std::string name;                    // "KuMorg_SKL.KUMorg_IDLB" as written
    std::string hierarchy, clip;         // the parts before and after the dot (no dot: hierarchy empty, clip = name)
    int firstFrame = -1, lastFrame = -1; // optional frame range after the name
    std::string mode;                    // AnimationMode (ONCE, LOOP, MANUAL, ...), "" when not given
    int priority = -1;                   // AnimationPriority, -1 when not given
    std::string clipKey;                 // the clip file found (normalizePath key), "" when absent
    SourcePos pos;
};

// SAGE: a DefaultModelConditionState / ModelConditionState / IdleAnimationState / AnimationState / TransitionState.
struct DrawState {
    enum class Kind { Default, Model, Idle, Animation, Transition };
    Kind kind = Kind::Model;
    std::vector<std::vector<std::string>> flagSets; // upper-case condition flags, one set per alternative
    std::string stateName;                          // StateName = ..., or the TransitionState's name
    std::string model;                              // Model = ... ("NONE" kept as written); "" when not given
    bool modelFromDefault = false;                  // model copied from the default state (not given here)
    std::vector<std::pair<std::string, std::string>> textureSwaps; // Texture = OLD NEW
    std::vector<AnimationRef> animations;
    std::vector<std::string> hidden, shown;    // HideSubObject/ShowSubObject and CurDrawable{Hide,Show}SubObject*
    std::vector<std::string> particleSysBones; // "BONE SYSTEM ..." as written
    std::vector<SourcePos> particleSysBonePos; // where each ParticleSysBone line is (parallel)
    std::vector<std::string> flags;            // Flags = ...
    SourcePos pos;
};

const char* drawStateKindName(DrawState::Kind k); // "default", "model", "idle", "animation", "transition"

struct DrawModule {
    std::string type; // W3DScriptedModelDraw, W3DHordeModelDraw, W3DTruckDraw, W3DModelDraw, W3DFloorDraw, ...
    std::string tag;  // ModuleTag_...
    bool staticModelLod = false; // StaticModelLODMode = yes: <model>M / <model>L files for lower LODs
    std::vector<std::string> extraPublicBones;
    std::vector<std::string> ignoreConditionStates; // IgnoreConditionStates (cleared from the query)
    std::vector<DrawState> states;                  // in file order
    SourcePos pos;
};

// A model the object shows, and where it is attached.
struct Part {
    std::string role;  // "Space_Model_Name", "hardpoint HP_X", "terrain Arctic", "ModuleTag_01 state DAMAGED", ...
    std::string model; // as written
    std::string key;   // resolved game path, "" when not found
    bool found = false;
    std::string attachTo; // the model (as written) it hangs on, "" for a top-level model
    std::string bone;     // the bone in attachTo, "" when none
    bool boneFound = false;
    std::vector<std::string> clips; // clip files that belong to the model (Alamo: <MODEL>_<ANIM>_NN.ALA)
};

// EaW/FoC hardpoint as the object uses it.
struct Hardpoint {
    std::string name;
    bool defined = false; // found in the hardpoint files
    std::string type;     // <Type>
    std::string model;    // Model_To_Attach ("" when empty or absent)
    std::string attachmentBone, collisionMesh, damageParticles, damageDecal;
    std::vector<std::string> fireBones; // Fire_Bone_A / Fire_Bone_B
    SourcePos pos;
};

// A member of a group object, which has no model of its own: a SAGE horde's `InitialPayload` (HordeContain,
// HorseHordeContain, ...), an EaW squadron's `Squadron_Units` or company's `Company_Units` (each name once, in order
// of first mention).
struct Member {
    std::string object; // as written
    int count = 0;      // how many (InitialPayload's number; EaW: how often the list names it); 0 when not a number
    std::string where;  // "HordeContain InitialPayload", "Squadron_Units", ...
    bool found = false; // defined in the mounted folders
    SourcePos pos;
};

// SAGE HordeContain `RankInfo = RankNumber:N UnitType:NAME Position:X:x Y:y ...`: where one rank's members stand,
// in the horde's frame as written (X forward, Y to the side).
struct Rank {
    int number = 0;
    std::string unitType;
    std::vector<std::pair<float, float>> positions;
    SourcePos pos;
};

struct AssembledObject {
    std::string family; // "alamo" or "sage"
    std::string name;   // as written in its definition
    std::string type;   // XML element (SpaceUnit, ...) or INI kind (Object, ChildObject, ObjectReskin)
    SourcePos pos;
    std::vector<std::string> inheritance; // its parents, nearest first (Variant_Of_Existing_Type, ChildObject)
    std::vector<Part> parts;              // every model it shows, with attachments
    std::vector<Hardpoint> hardpoints;    // EaW/FoC
    std::vector<std::pair<std::string, std::string>> deathClones;     // (damage type, object)
    std::vector<std::pair<std::string, std::string>> terrainModels;   // Land_Terrain_Model_Mapping (terrain, model)
    std::vector<DrawModule> draws;                                    // SAGE
    std::vector<std::string> upgradeHidden, upgradeShown;             // SubObjectsUpgrade Hide/ShowSubObjects
    std::vector<std::pair<std::string, std::string>> upgradeTextures; // UpgradeTexture = OLD N NEW
    std::vector<Member> members;                                      // group objects: their member objects
    std::vector<Rank> ranks;                                          // SAGE hordes: RankInfo, in file order
    std::vector<Ref> refs;                                            // every reference checked
    std::vector<std::string> warnings;

    std::vector<const Ref*> unresolved() const; // refs not found and not optional
};

// The state a draw module shows for a set of condition flags (upper-case names), the way the engine picks it:
// W3DModelDrawModuleData::findBestInfo (EA's Generals/Zero Hour source, W3DModelDraw.cpp) clears the module's
// IgnoreConditionStates from the query and asks SparseMatchFinder::findBestInfoSlow (Common/SparseMatchFinder.h):
// over the states in definition order and, per state, its flag sets from the last to the first,
//   yes   = |query & set|   (BitFlags::countIntersection)
//   extra = |set \ query|   (BitFlags::countInverseIntersection: ~query & set)
// a candidate wins when yes > bestYes, or yes >= bestYes and extra < bestExtra (start: bestYes 0, bestExtra 999);
// ties keep the earlier state. The default state is the one with an empty set. Only states of kinds `kinds`
// compete (model states, or animation states with the idle state as their default). Returns -1 when none competes.
// (OpenSAGE's W3dModelDraw.FindBestFittingConditionState instead skips states needing flags the query lacks.)
int selectState(const DrawModule& m, const std::vector<std::string>& flags, bool animationStates = false);

} // namespace rs::objects
