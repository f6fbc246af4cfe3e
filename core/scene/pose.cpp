#include "scene/pose.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>

namespace rs {

ClipBinding bindClip(const Skeleton& skeleton, const Clip& clip) {
    ClipBinding b;
    const int n = static_cast<int>(skeleton.bones.size());
    b.trackForBone.assign(skeleton.bones.size(), -1);
    if (!clip.hierarchyName.empty() && !skeleton.name.empty() && !iequals(clip.hierarchyName, skeleton.name))
        b.problems.push_back("clip '" + clip.name + "' is for hierarchy '" + clip.hierarchyName +
                             "', not for '" + skeleton.name + "'");
    for (size_t ti = 0; ti < clip.tracks.size(); ++ti) {
        const BoneTrack& t = clip.tracks[ti];
        int bone = t.bone;
        bool indexOk = bone >= 0 && bone < n;
        if (indexOk && !t.boneName.empty() && !iequals(skeleton.bones[bone].name, t.boneName)) {
            int byName = skeleton.find(t.boneName);
            b.problems.push_back("track " + std::to_string(ti) + " names bone '" + t.boneName + "' but bone " +
                                 std::to_string(bone) + " is '" + skeleton.bones[bone].name + "'");
            bone = byName;
            indexOk = bone >= 0;
        } else if (!indexOk) {
            int byName = t.boneName.empty() ? -1 : skeleton.find(t.boneName);
            b.problems.push_back("track " + std::to_string(ti) + " bone index " + std::to_string(t.bone) +
                                 " out of range (" + std::to_string(n) + " bones)");
            bone = byName;
            indexOk = bone >= 0;
        }
        if (indexOk) b.trackForBone[bone] = static_cast<int>(ti);
    }
    return b;
}

float wrapFrame(float frame, uint32_t frameCount, LoopMode mode) {
    if (frameCount <= 1 || !std::isfinite(frame)) return 0.0f;
    const float last = static_cast<float>(frameCount - 1);
    switch (mode) {
    case LoopMode::Once:
        return frame < 0.0f ? 0.0f : (frame > last ? last : frame);
    case LoopMode::PingPong: {
        float p = std::fmod(frame, 2.0f * last);
        if (p < 0.0f) p += 2.0f * last;
        return p <= last ? p : 2.0f * last - p;
    }
    case LoopMode::Loop:
    default: {
        float p = std::fmod(frame, last);
        if (p < 0.0f) p += last;
        return p;
    }
    }
}

template <class T> static inline const T& at(const std::vector<T>& v, uint32_t f) {
    return v.size() == 1 ? v[0] : v[f < v.size() ? f : v.size() - 1];
}

static inline glm::quat nlerpSlerp(glm::quat a, glm::quat b, float t) {
    float d = glm::dot(a, b);
    if (d < 0.0f) {
        b = -b;
        d = -d;
    }
    if (d > 0.9995f) return glm::normalize(a * (1.0f - t) + b * t);
    float th = std::acos(d);
    float s = std::sin(th);
    return (a * std::sin((1.0f - t) * th) + b * std::sin(t * th)) / s;
}

// a * b for affine matrices (last row 0,0,0,1), as every local and world transform here is.
static inline glm::mat4 affineMul(const glm::mat4& a, const glm::mat4& b) {
    glm::mat4 o;
    for (int c = 0; c < 4; ++c)
        o[c] = a[0] * b[c].x + a[1] * b[c].y + a[2] * b[c].z;
    o[3] += a[3];
    return o;
}

static inline glm::mat4 composeTRS(const glm::vec3& t, const glm::quat& r, const glm::vec3& s) {
    glm::mat3 m = glm::mat3_cast(r);
    glm::mat4 o(1.0f);
    o[0] = glm::vec4(m[0] * s.x, 0.0f);
    o[1] = glm::vec4(m[1] * s.y, 0.0f);
    o[2] = glm::vec4(m[2] * s.z, 0.0f);
    o[3] = glm::vec4(t, 1.0f);
    return o;
}

static inline glm::mat4 sampleLocal(const BoneTrack& t, const glm::mat4& bindLocal, uint32_t f0, uint32_t f1,
                                    float alpha) {
    const bool additive = t.mode == TrackMode::AdditiveToBind;
    glm::vec3 tr = additive ? glm::vec3(0.0f) : t.defaultTranslation;
    glm::quat rot = additive ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : t.defaultRotation;
    glm::vec3 sc = additive ? glm::vec3(1.0f) : t.defaultScale;
    if (!t.translation.empty()) tr = glm::mix(at(t.translation, f0), at(t.translation, f1), alpha);
    if (!t.rotation.empty())
        rot = alpha == 0.0f ? at(t.rotation, f0) : nlerpSlerp(at(t.rotation, f0), at(t.rotation, f1), alpha);
    if (!t.scale.empty()) sc = glm::mix(at(t.scale, f0), at(t.scale, f1), alpha);
    glm::mat4 m = composeTRS(tr, rot, sc);
    return additive ? bindLocal * m : m;
}

glm::mat4 sampleTrackLocal(const BoneTrack& t, const glm::mat4& bindLocal, uint32_t f0, uint32_t f1, float alpha) {
    return sampleLocal(t, bindLocal, f0, f1, alpha);
}

void evaluatePose(const Skeleton& skeleton, const Clip* clip, const ClipBinding* binding, float frame, LoopMode mode,
                  PoseView out) {
    const size_t n = skeleton.bones.size();
    uint32_t f0 = 0, f1 = 0;
    float alpha = 0.0f;
    if (clip && binding && clip->frameCount > 0) {
        float f = wrapFrame(frame, clip->frameCount, mode);
        f0 = static_cast<uint32_t>(f);
        if (f0 > clip->frameCount - 1) f0 = clip->frameCount - 1;
        f1 = f0 + 1 < clip->frameCount ? f0 + 1 : f0;
        alpha = f - static_cast<float>(f0);
    }
    const bool animated = clip && binding && binding->trackForBone.size() == n;
    for (size_t i = 0; i < n; ++i) {
        const Bone& b = skeleton.bones[i];
        int ti = animated ? binding->trackForBone[i] : -1;
        bool vis = b.visible;
        if (ti >= 0) {
            const BoneTrack& t = clip->tracks[static_cast<size_t>(ti)];
            float a = (!t.step.empty() && at(t.step, f0)) ? 0.0f : alpha;
            out.local[i] = sampleLocal(t, b.bindLocal, f0, f1, a);
            if (!t.visibility.empty()) vis = at(t.visibility, f0) != 0;
        } else {
            out.local[i] = b.bindLocal;
        }
        const int p = b.parent;
        if (p >= 0 && static_cast<size_t>(p) < i) {
            out.world[i] = affineMul(out.world[p], out.local[i]);
            if (out.visible) out.visible[i] = vis && out.visible[p];
        } else {
            out.world[i] = out.local[i];
            if (out.visible) out.visible[i] = vis;
        }
    }
}

void skinInverseBind(const Skeleton& skeleton, const SubMesh& sm, std::vector<glm::mat4>& out) {
    out.assign(sm.boneMap.size(), glm::mat4(1.0f));
    if (sm.space == VertexSpace::Bone) return;
    std::vector<glm::mat4> bind(skeleton.bones.size());
    skeleton.bindWorld(bind.data());
    for (size_t i = 0; i < sm.boneMap.size(); ++i) {
        int b = sm.boneMap[i];
        if (b >= 0 && static_cast<size_t>(b) < bind.size()) out[i] = glm::inverse(bind[b]);
    }
}

void skinPalette(const SubMesh& sm, const glm::mat4* inverseBind, const glm::mat4* world, glm::mat4* out) {
    for (size_t i = 0; i < sm.boneMap.size(); ++i)
        out[i] = world[sm.boneMap[i]] * inverseBind[i];
}

} // namespace rs
