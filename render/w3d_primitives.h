// W3D spheres (0x741) and rings (0x742) drawn as ww3d2 draws them (SphereRenderObjClass / RingRenderObjClass in the
// released Renegade and Zero Hour sources): solid geometry whose colour, alpha and size follow the primitive's
// keyframes (w3d::sphereState / ringState, looping when the flag says so), blended by the primitive's shader.
//
// Contract
// - One entity per sphere or ring marker of the model (Marker::fx); its triangles are rebuilt in world space by
//   update() at the effect clock's time (the view's particle time): a sphere is a 24 x 16 UV sphere of radii
//   extent * scale around its centre on its bone; a ring an annulus of 48 segments in the bone's XY plane (inner and
//   outer radii per axis from extent * scale), turned to face the camera when its camera-aligned flag is set.
// - Colour per the shader's blend (w3d::Shader): src ONE / dst ONE (additive) adds colour * alpha; src SRC_ALPHA /
//   dst ONE_MINUS_SRC_ALPHA blends colour over by alpha; src ZERO / dst SRC_COLOR (modulate) multiplies; otherwise
//   opaque (colour, depth written). The depth test always applies; additive and alpha write no depth.
// - Approximated (listed by notDrawn()): textures (the surfaces are drawn untextured), the sphere's alpha vector
//   (its per-vertex alpha falloff) and ring texture tiling.
#pragma once

#include "scene/model.h"

#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace Qt3DCore {
class QBuffer;
class QEntity;
class QNode;
class QAttribute;
} // namespace Qt3DCore
namespace Qt3DRender {
class QEffect;
class QGeometryRenderer;
} // namespace Qt3DRender

namespace rs::render {

namespace fx {
class OnDemandProgram;
}

class W3dPrimitives {
  public:
    explicit W3dPrimitives(Qt3DCore::QNode* root);
    ~W3dPrimitives();

    // One entity per sphere/ring marker of `model` under parent (identitySlot: the palette's identity slot).
    void build(Qt3DCore::QEntity* parent, const rs::Model& model, int identitySlot);
    void reset(); // the entities went with their parent

    // World transform of a main-model bone (-1: identity) now.
    using BoneWorld = std::function<glm::mat4(int bone)>;
    // Rebuilds every primitive at `seconds` on the effect clock; shown(its bone) false (or !enabled) hides it.
    void update(double seconds, const BoneWorld& boneWorld, const glm::vec3& eye,
                const std::function<bool(int bone)>& shown);
    void setEnabled(bool on);

    size_t count() const { return items_.size(); } // primitives built
    size_t drawn() const { return drawn_; }        // primitives drawn at the last update()
    QStringList notDrawn() const { return notDrawn_; }

  private:
    struct Item {
        std::shared_ptr<const rs::MarkerFx> fx;
        int bone = -1;
        glm::mat4 local{1.0f}; // marker transform (relative to the bone)
        Qt3DCore::QEntity* entity = nullptr;
        Qt3DCore::QBuffer* buffer = nullptr;
        int kind = 0; // 0 opaque, 1 additive, 2 alpha, 3 modulate
        bool enabled = false;
    };
    Qt3DRender::QEffect* effect(int kind);

    Qt3DCore::QNode* root_ = nullptr;
    std::unique_ptr<fx::OnDemandProgram> program_;
    std::map<int, Qt3DRender::QEffect*> effects_;
    std::vector<Item> items_;
    QStringList notDrawn_;
    uint16_t identitySlot_ = 0;
    size_t drawn_ = 0;
    bool enabled_ = true;
};

} // namespace rs::render
