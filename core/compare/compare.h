// What differs between two models or clips (rigscope-cli diff, File → Compare with…): a structured summary in a
// deterministic order, every difference listed exactly once.
//
// Matching
// - Bones, meshes, parameters, lights, proxies, dazzles, markers and clip tracks are matched by name,
//   case-insensitively as the engines look them up. When a name occurs more than once on a side, its k-th
//   occurrence in A is matched with its k-th occurrence in B and Summary::notes says so.
// - Clips are matched by name without extension and without the model's file stem ("EV_ESCORT_IDLE_00" and
//   "EV_ESCORT2_IDLE_00" both key "idle_00"); when each side holds exactly one clip and they do not match by
//   name, they are compared with each other.
//
// What is listed (category, change)
// - Bone Added/Removed; Reparented (the parent's name differs); Moved (the bind transform relative to the parent
//   differs: descendants that only follow it are not listed); Changed (visible, billboard). Moved and Reparented
//   carry the world bind-pose position distance and rotation angle, and the same for the local transform.
// - Mesh Added/Removed; Changed: "bone", "hidden", "sub-meshes" (count; sub-meshes beyond the shorter list are
//   covered by this row). SubMesh Changed: "vertices", "triangles", "vertex format", "positions" (same vertex
//   count: the largest vertex position distance). Material Changed "shader". Parameter Added/Removed, Changed
//   "type", "value" (beyond Tolerance::value per component), "texture" (names compared case-insensitively).
// - Texture Added/Removed: the set of texture names the model refers to (materials and dazzles).
// - Light/Proxy/Dazzle/Marker Added/Removed and Changed per field.
// - Clip Added/Removed (no clip of the other side pairs with it); Changed "length" (frames or fps differ).
//   Track Added/Removed (a bone animated in one clip only); Changed "motion": the largest difference of the
//   bone's local transform (relative to its parent) over the clip, sampled at every stored frame of either clip
//   (clamped at each clip's last frame): translation distance and rotation angle, each with the time (seconds)
//   of its maximum. An Added/Removed track carries the same figures. With skeletons (models, W3D hierarchies,
//   .al libraries), bones without a track keep their bind transform; without (a lone .ala), only tracks are
//   sampled. A bone that one skeleton lacks is listed once, as a Bone row, not again as a track.
// Rotation angles are in degrees, times in seconds, distances in model units. Scale is not compared.
#pragma once

#include "resolve/resolver.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <limits>
#include <string>
#include <vector>

namespace rs::compare {

struct Tolerance {
    double distance = 1e-3;     // positions, translations (model units)
    double angleDegrees = 0.05; // rotations (16-bit quantised clips differ by less)
    double value = 1e-4;        // material parameters, light and dazzle values (per component)
};

enum class Category { Bone, Mesh, SubMesh, Material, Parameter, Texture, Light, Proxy, Dazzle, Marker, Clip, Track };
enum class Change { Added, Removed, Moved, Reparented, Changed };

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

struct Difference {
    Category category = Category::Bone;
    Change change = Change::Changed;
    // Bone, mesh, light, proxy, dazzle, marker, texture or clip name (A's, or B's when added); "MESH[i]" for a
    // sub-mesh and its material; "MESH[i].PARAM" for a parameter; the bone's name for a track.
    std::string subject;
    std::string field;                     // Changed: what differs (see the list above); "" for other changes
    std::string a, b;                      // values as text ("" on the side that has none)
    double valueA = kNone, valueB = kNone; // numbers behind a and b when they are numbers (counts, seconds, ...)
    // Bone Moved/Reparented: world bind-pose distance and angle; Track: largest over the clip.
    double distance = kNone, angle = kNone;
    double localDistance = kNone, localAngle = kNone; // Bone Moved/Reparented: of the transform to the parent
    double distanceTime = kNone, angleTime = kNone;   // Track: seconds at which each maximum is reached
    int boneA = -1, boneB = -1;                       // Bone, Track: skeleton indices (-1: absent or no skeleton)
    std::string clipA, clipB;                         // Clip, Track: the clips' names
};

// Two clips compared (paired by name, or the only clip of each side).
struct ClipPair {
    std::string nameA, nameB;
    uint32_t framesA = 0, framesB = 0;
    double fpsA = 0, fpsB = 0, secondsA = 0, secondsB = 0;
    // The bone whose local transform differs most over the clip ("" when none differs).
    std::string largestBone;
    double largestDistance = 0, largestDistanceTime = 0;
    std::string largestAngleBone;
    double largestAngle = 0, largestAngleTime = 0;
};

struct Summary {
    std::vector<Difference> differences;
    std::vector<std::string> notes; // how things were matched (repeated names, unpaired clips); not differences
    std::vector<ClipPair> clipPairs;
    bool identical() const { return differences.empty(); }
};

// One side of a comparison: a model (may be null for a clip file) and its clips, with the skeleton the clips
// animate (the model's, or a clip file's own hierarchy; null: none).
struct Side {
    const Model* model = nullptr;
    const Skeleton* skeleton = nullptr;
    std::vector<const Clip*> clips;
    std::string stem; // the file's stem (clip names are matched without it)
};

// An opened asset as a side: its model unless it is a clip file (a skeleton without meshes that holds clips:
// W3D animations with their hierarchy, B&W2 .al libraries), the skeleton of either, the clips inside the file then
// the companion clips that were read. Points into `asset`.
Side sideOf(const Asset& asset);

Summary diff(const Side& a, const Side& b, const Tolerance& tolerance = {});

// Parts of diff(), appending to `out`.
void diffModels(const Model& a, const Model& b, const Tolerance& tolerance, Summary& out);
// bonesListed: the skeletons were compared as Bone rows (tracks of bones one skeleton lacks are not listed again).
void diffClips(const Clip& a, const Skeleton* skeletonA, const Clip& b, const Skeleton* skeletonB,
               const Tolerance& tolerance, bool bonesListed, Summary& out);

const char* categoryName(Category c); // "bone", "mesh", "submesh", ...
const char* changeName(Change c);     // "added", "removed", "moved", "reparented", "changed"
// One line for a person: "bone Arm moved 0.5 (rotated 30.0°)".
std::string describe(const Difference& d);
// The key clips are matched by: lower case, no extension, no leading "<stem>_".
std::string clipKey(const std::string& clipName, const std::string& stem);

} // namespace rs::compare
