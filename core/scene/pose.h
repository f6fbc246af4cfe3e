// Pose evaluation: local and world transforms of every bone at a frame, with caller-owned buffers.
//
// Usage:
//   ClipBinding b = bindClip(model.skeleton, clip);      // once per (skeleton, clip); validates names
//   PoseBuffers buf(model.skeleton.bones.size());        // once per instance
//   evaluatePose(model.skeleton, &clip, &b, frame, LoopMode::Loop, buf.view());  // per frame, no allocation
#pragma once

#include "scene/clip.h"
#include "scene/model.h"

#include <string>
#include <vector>

namespace rs {

enum class LoopMode { Loop, Once, PingPong };

// Per-bone sampling plan compiled by bindClip: evaluatePose reads it instead of the tracks' vectors.
// A channel is either per-frame data (pointer into the clip, index clamped to last) or a constant (pointer null,
// value in the matching *Const field: a one-entry channel, the track's default, or identity for additive tracks).
struct BoneSamplePlan {
    const glm::vec3* t = nullptr;
    const glm::quat* r = nullptr;
    const glm::vec3* s = nullptr;
    const uint8_t* visibility = nullptr; // null: the bone's own flag
    const uint8_t* step = nullptr;       // null: no step bits
    uint32_t tLast = 0, rLast = 0, sLast = 0, visLast = 0, stepLast = 0;
    glm::vec3 tConst{0.0f};
    glm::quat rConst{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 sConst{1.0f};
    uint8_t kind = 0; // 0 no track (bind pose), 1 replace, 2 additive to bind
};

// Which track animates which skeleton bone.
struct ClipBinding {
    std::vector<int> trackForBone;     // per skeleton bone: track index or -1
    std::vector<std::string> problems; // tracks that could not be bound (index out of range, name mismatch)
    bool ok() const { return problems.empty(); }

    // Compiled plan (one entry per bone). It points into the clip given to bindClip and is used only for that
    // Clip object with the same tracks array; evaluatePose samples the tracks directly for any other clip.
    // Rebind after changing a clip's track data in place.
    std::vector<BoneSamplePlan> plan;
    const Clip* planClip = nullptr;
    const BoneTrack* planTracks = nullptr;
    size_t planTrackCount = 0;
};

// Binds tracks by BoneTrack::bone and checks BoneTrack::boneName (case-insensitive) when both are named.
// A clip naming a hierarchy (Clip::hierarchyName) other than a named skeleton (Skeleton::name) is a problem.
// A track whose index is out of range or whose name disagrees is reported in problems; if the name
// matches another bone, the track is bound to that bone instead (and still reported).
ClipBinding bindClip(const Skeleton& skeleton, const Clip& clip);

// Wraps a continuous frame position into [0, frameCount-1] for the loop mode.
// Loop: period frameCount-1 (the last stored frame repeats the first). Once: clamp. PingPong: bounce.
float wrapFrame(float frame, uint32_t frameCount, LoopMode mode);

struct PoseView {
    glm::mat4* local = nullptr; // bones.size()
    glm::mat4* world = nullptr; // bones.size()
    uint8_t* visible = nullptr; // bones.size(): effective visibility (own flag/track and all ancestors)
};

struct PoseBuffers {
    std::vector<glm::mat4> local, world;
    std::vector<uint8_t> visible;
    explicit PoseBuffers(size_t n = 0) { resize(n); }
    void resize(size_t n) {
        local.assign(n, glm::mat4(1.0f));
        world.assign(n, glm::mat4(1.0f));
        visible.assign(n, 1);
    }
    PoseView view() { return {local.data(), world.data(), visible.data()}; }
};

// Evaluates the pose at a (possibly fractional) frame. clip/binding may be null (bind pose).
// frame is wrapped with wrapFrame(). Translation/scale lerp, rotation shortest-path slerp, no
// interpolation across a step bit, visibility is taken from the lower frame. Allocation-free.
void evaluatePose(const Skeleton& skeleton, const Clip* clip, const ClipBinding* binding, float frame, LoopMode mode,
                  PoseView out);

// Samples one track at an integer frame into a local matrix (Replace mode ignores bind).
glm::mat4 sampleTrackLocal(const BoneTrack& t, const glm::mat4& bindLocal, uint32_t frame0, uint32_t frame1,
                           float alpha);

// Shortest-path spherical interpolation as evaluatePose uses it (polynomial, no trigonometric calls; weights
// within 2e-5 of exact, 1e-6 for rotations less than 120 degrees apart). Like ww3d2's Fast_Slerp, the inputs
// are used as given (not renormalised: decoded quaternions may be slightly off unit length), the result is
// not renormalised, and where dot(a, b) >= 1 the interpolation is linear. t = 0 returns a exactly.
glm::quat slerpQuat(const glm::quat& a, const glm::quat& b, float t);

// Skin palette for one sub-mesh: palette[i] = world[boneMap[i]] * inverseBind[i].
// inverseBind comes from skinInverseBind(); out must hold boneMap.size() entries.
void skinInverseBind(const Skeleton& skeleton, const SubMesh& sm, std::vector<glm::mat4>& out);
void skinPalette(const SubMesh& sm, const glm::mat4* inverseBind, const glm::mat4* world, glm::mat4* out);

} // namespace rs
