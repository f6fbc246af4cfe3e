// Format-neutral animation clip: dense per-frame tracks per bone.
//
// Every reader decodes its codec into per-frame samples (frame 0 .. frameCount-1), so pose evaluation
// is codec-independent. A track array holds either frameCount entries, exactly 1 entry (constant) or
// none (channel absent).
//
// How a track sets a bone's local transform:
// - Replace (Alamo, B&W2): local = T * R * S, with T/R/S from the track, absent channels from the
//   track's constants (defaultTranslation/defaultRotation/defaultScale).
// - AdditiveToBind (W3D): local = bindLocal * T * R, absent channels are identity.
// Bones with no track keep their bind local transform.
// Rotations are kept as decoded, like the engines (ww3d2 Build_Matrix3D, D3DXMatrixTransformation): R is built
// with the 1 - 2(y^2 + z^2) form, which for a quaternion off unit length is not a pure rotation.
#pragma once

#include "common/format_id.h"
#include "common/movable.h"
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rs {

enum class TrackMode { Replace, AdditiveToBind };

struct BoneTrack {
    RS_NOEXCEPT_MOVABLE(BoneTrack)
    int bone = -1;          // bone index in the target skeleton as stored in the clip
    std::string boneName;   // as stored (may be empty when the format has no names)
    TrackMode mode = TrackMode::Replace;
    std::vector<glm::vec3> translation;
    std::vector<glm::quat> rotation; // as the file gives it (not renormalised; finite, not zero)
    std::vector<glm::vec3> scale;
    glm::vec3 defaultTranslation{0.0f};
    glm::quat defaultRotation{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 defaultScale{1.0f};
    // One byte per frame (0/1); empty = channel absent.
    std::vector<uint8_t> visibility;
    // step[f] = 1: hold frame f's value until f+1 (no interpolation across it).
    std::vector<uint8_t> step;

    bool hasTranslation() const { return !translation.empty(); }
    bool hasRotation() const { return !rotation.empty(); }
    bool hasScale() const { return !scale.empty(); }
};

struct ClipEvent {
    RS_NOEXCEPT_MOVABLE(ClipEvent)
    float frame = 0.0f;
    std::string name;
    std::string boneName;
    bool frameKnown = true;     // false when the file stores no time for the event (frame is then 0)
    glm::mat4 transform{1.0f};  // transform stored with the event (identity when the format has none)
};

struct Clip {
    Format format = Format::Unknown; // the format of the file it was read from
    std::string name;
    std::string hierarchyName; // skeleton the clip was made for, when the format names it
    std::string codec;         // e.g. "ala1", "ala2", "uncompressed", "timecoded", "adaptive-delta"
    int version = 0;
    uint32_t frameCount = 0;   // frames as stored; the last frame repeats the first for looping
    float fps = 30.0f;
    std::vector<BoneTrack> tracks;
    std::vector<ClipEvent> events;
    std::vector<std::string> warnings;

    // Seconds from frame 0 to the last stored frame.
    float duration() const { return frameCount > 1 && fps > 0 ? float(frameCount - 1) / fps : 0.0f; }
};

} // namespace rs
