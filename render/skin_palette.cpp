#include "skin_palette.h"

#include "qt3d_helpers.h"
#include "shaders.h"

#include <Qt3DCore/QBuffer>

#include <cstring>

namespace rs::render {

SkinPalette::SkinPalette(Qt3DCore::QNode* root, GlobalParam& uniform) {
    buffer_ = new Qt3DCore::QBuffer(root);
    buffer_->setUsage(Qt3DCore::QBuffer::DynamicDraw);
    bytes_ = QByteArray(qsizetype(shaders::kMaxPalette) * 64, '\0');
    write(0, glm::mat4(1.0f));
    buffer_->setData(bytes_);
    uniform.set(QVariant::fromValue(buffer_));
}

void SkinPalette::setSkeleton(const rs::Skeleton& skeleton) {
    skeleton_ = skeleton;
    const size_t N = skeleton_.bones.size();
    std::vector<glm::mat4> bind(N);
    skeleton_.bindWorld(bind.data());
    inverseBind_.resize(N);
    for (size_t b = 0; b < N; ++b)
        inverseBind_[b] = glm::inverse(bind[b]);
    pose_.resize(N);
    visible_.assign(N, 1);
    userHidden_.assign(N, 0);
    userEff_.assign(N, 1);
}

void SkinPalette::write(size_t slot, const glm::mat4& m) {
    if (slot >= size_t(shaders::kMaxPalette)) return; // slots past the palette are clamped by the builders
    static_assert(sizeof(glm::mat4) == 64, "std140 mat4: 16 floats, column-major like glm");
    std::memcpy(bytes_.data() + slot * 64, &m, 64);
}

void SkinPalette::clear() {
    write(0, glm::mat4(1.0f));
    buffer_->setData(bytes_);
}

void SkinPalette::evaluate(const rs::Clip* clip, const rs::ClipBinding* binding, float frame,
                           const Billboard& billboard) {
    const size_t N = skeleton_.bones.size();
    rs::evaluatePose(skeleton_, clip, clip ? binding : nullptr, frame, rs::LoopMode::Loop, pose_.view());
    for (size_t b = 0; b < N; ++b) {
        const int p = skeleton_.bones[b].parent;
        const bool userOff = userHidden_[b] || (p >= 0 && size_t(p) < b && !userEff_[size_t(p)]);
        userEff_[b] = userOff ? 0 : 1;
        visible_[b] = pose_.visible[b] && !userOff;
    }
    for (size_t b = 0; b < N; ++b) {
        const int mode = skeleton_.bones[b].billboard;
        const glm::mat4 w = mode != 0 && billboard ? billboard(mode, pose_.world[b]) : pose_.world[b];
        write(b, w);
        write(N + b, w * inverseBind_[b]);
    }
    write(2 * N, glm::mat4(1.0f));
    buffer_->setData(bytes_);
}

void SkinPalette::setUserHidden(int bone, bool hidden) {
    if (bone < 0 || size_t(bone) >= userHidden_.size()) return;
    userHidden_[size_t(bone)] = hidden ? 1 : 0;
}

bool SkinPalette::userHidden(int bone) const {
    return bone >= 0 && size_t(bone) < userHidden_.size() && userHidden_[size_t(bone)];
}

} // namespace rs::render
