// SkinPalette: the combined skeleton's pose at the current frame and the bone palette the shaders read.
//
// Palette layout (one std140 uniform block BonePalette { mat4 bones[kMaxPalette]; }, one buffer shared by
// every pass): [0,N) bone world (billboarded), [N,2N) world * inverse bind, 2N identity. Slots past
// kMaxPalette are dropped (the builders clamp their slot indices). A frame writes the matrices into one byte
// array and hands it to the buffer: one copy per frame.
// Visibility per bone = the clip's visibility and no user override on the bone or an ancestor.
#pragma once

#include "scene/clip.h"
#include "scene/model.h"
#include "scene/pose.h"

#include <QByteArray>

#include <functional>
#include <vector>

namespace Qt3DCore {
class QBuffer;
class QNode;
} // namespace Qt3DCore

namespace rs::render {

struct GlobalParam;

class SkinPalette {
  public:
    // The buffer is owned by root and bound to uniform (the frame graph's "BonePalette").
    SkinPalette(Qt3DCore::QNode* root, GlobalParam& uniform);

    // New combined skeleton: bind pose, every bone visible, no user overrides.
    void setSkeleton(const rs::Skeleton& skeleton);
    const rs::Skeleton& skeleton() const { return skeleton_; }
    int identitySlot() const { return int(skeleton_.bones.size()) * 2; }

    // Poses the skeleton at frame (clip may be null: bind pose) and uploads the palette. billboard maps a bone's
    // world matrix for its billboard mode (called for bones with mode != 0 only).
    using Billboard = std::function<glm::mat4(int mode, const glm::mat4& world)>;
    void evaluate(const rs::Clip* clip, const rs::ClipBinding* binding, float frame, const Billboard& billboard);
    // Uploads an identity palette (no model).
    void clear();

    const rs::PoseBuffers& pose() const { return pose_; }
    const std::vector<glm::mat4>& inverseBind() const { return inverseBind_; }
    const std::vector<uint8_t>& visible() const { return visible_; } // effective, incl. user overrides

    void setUserHidden(int bone, bool hidden);
    bool userHidden(int bone) const;

  private:
    void write(size_t slot, const glm::mat4& m);
    rs::Skeleton skeleton_;
    std::vector<glm::mat4> inverseBind_;
    rs::PoseBuffers pose_;
    std::vector<uint8_t> visible_, userHidden_, userEff_;
    Qt3DCore::QBuffer* buffer_ = nullptr;
    QByteArray bytes_;
};

} // namespace rs::render
