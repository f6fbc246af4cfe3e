// Overlays: line drawings over or inside the model (skeleton and bone axes, proxy crosses, marker boxes, point
// sets, ground grid) and the name labels of proxies and markers (constant pixel size, one instanced draw).
#pragma once

#include "qt3d_helpers.h"

#include "scene/model.h"

#include <QByteArray>
#include <QMatrix4x4>
#include <QPoint>

#include <functional>
#include <vector>

namespace Qt3DCore {
class QBuffer;
class QEntity;
class QNode;
} // namespace Qt3DCore
namespace Qt3DRender {
class QEffect;
}

namespace rs::render {

struct ViewOptions;

class Overlays {
  public:
    explicit Overlays(Qt3DCore::QNode* root); // builds the shared line and label effects (programs on demand)

    // Builds every overlay of main under parent. skeleton: the combined skeleton (main bones first, proxy model
    // bones drawn orange); identitySlot: the palette's identity slot; radius sizes crosses and the grid, which
    // lies at groundLevel along the up axis.
    void build(Qt3DCore::QEntity* parent, const rs::Model& main, const rs::Skeleton& skeleton, int identitySlot,
               float radius, float groundLevel, bool zUp);
    // Builds the labels of main's proxies and markers under parent (after the other draws of the model).
    void buildLabels(Qt3DCore::QEntity* parent, const rs::Model& main);
    void reset(); // the entities went with their parent

    // Enables each overlay for options; noMeshes: the model draws nothing else, so its skeleton is shown.
    void setEnabled(const ViewOptions& options, bool noMeshes);

    // Labels at the pose: shown for the selected bone, the hovered label, or all when options.labels; proxies
    // only when proxyShown(proxy index), collision boxes when options.pointSets, other markers when options.markers.
    using ProxyShown = std::function<bool(int proxy)>;
    void updateLabels(const std::vector<glm::mat4>& world, const std::vector<uint8_t>& visible,
                      const ProxyShown& proxyShown, const ViewOptions& options, int highlightBone);
    // Label nearest to pos (window pixels, within 24 px) for view-projection vp in a w x h window; -1 = none.
    int labelAt(const QPoint& pos, const QMatrix4x4& vp, float w, float h, const std::vector<glm::mat4>& world,
                const std::vector<uint8_t>& visible) const;
    int hoverLabel() const { return hoverLabel_; }
    void setHoverLabel(int label) { hoverLabel_ = label; }
    int labelsShown() const { return labelsShown_; }

  private:
    struct LineVertex;
    Qt3DCore::QEntity* lineEntity(Qt3DCore::QEntity* parent, const std::vector<LineVertex>& v, Qt3DRender::QEffect* fx);
    void showLabels(); // label entity enabled only while some label is shown

    fx::OnDemandProgram lineProgram_, labelProgram_;
    bool labelsEnabled_ = false;

    Qt3DRender::QEffect *fxLines_ = nullptr, *fxOverlayLines_ = nullptr, *fxLabels_ = nullptr;
    Qt3DCore::QEntity *skeleton_ = nullptr, *markers_ = nullptr, *grid_ = nullptr, *pointSets_ = nullptr;

    struct Label {
        int bone = -1;              // main-model bone, -1 = model origin
        glm::vec3 local{0.0f};      // offset in bone space
        int proxy = -1;             // proxy index (ALT rules), -1 for markers
        bool collision = false;     // a collision box: shown with the collision overlay (options.pointSets)
        bool translateOnly = false; // an axis-aligned box: local is added to the bone's translation, not turned
    };
    std::vector<Label> labels_;
    int hoverLabel_ = -1; // label under the mouse, -1 = none
    int labelsShown_ = 0; // labels drawn after the last updateLabels()
    Qt3DCore::QEntity* labelEntity_ = nullptr;
    Qt3DCore::QBuffer* labelBuffer_ = nullptr;
    QByteArray labelData_;
};

} // namespace rs::render
