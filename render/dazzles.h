// Dazzles (blinking glow sprites on bones, one instanced draw) and billboarded bones (bone matrices turned to
// face the camera, the light or the wind).
#pragma once

#include "dazzle_rules.h"
#include "qt3d_helpers.h"

#include "scene/model.h"

#include <QByteArray>
#include <QColor>

#include <glm/glm.hpp>

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

class TextureCache;

// Camera-facing variant of a bone's world matrix w for billboard mode (rs::BillboardMode; AloViewer DoBillboard
// semantics, our own math). viewToWorld: the camera's inverse view matrix; lightDir: direction the key light
// travels. Keeps w's translation and axis scales.
glm::mat4 billboardMatrix(int mode, const glm::mat4& w, const glm::mat4& viewToWorld, bool zUp,
                          const glm::vec3& lightDir);

// dazzleBlink and dazzleColor: dazzle_rules.h (GLM only, shared with the web page).

class Dazzles {
  public:
    explicit Dazzles(Qt3DCore::QNode* root); // builds the shared dazzle effect (program on demand)

    // Builds the instanced draw of model's dazzles under parent (one texture: the first that resolves; a round
    // glow when none does). Forget the previous one first with reset().
    void build(Qt3DCore::QEntity* parent, const rs::Model& model, TextureCache& textures, const QColor& factionColor);
    void reset(); // the entity went with its parent
    void setFactionColor(const rs::Model& model, const QColor& factionColor);
    // Per frame: positions from pose (main-model bones), blink at time, visibility, night and hidden rules.
    void update(const rs::Model& model, const std::vector<glm::mat4>& world, const std::vector<uint8_t>& visible,
                float time, bool night, bool showHidden);
    void setEnabled(bool on);

  private:
    fx::OnDemandProgram program_;
    Qt3DRender::QEffect* effect_ = nullptr;
    Qt3DCore::QEntity* entity_ = nullptr;
    Qt3DCore::QBuffer* buffer_ = nullptr;
    QByteArray data_;
    std::vector<glm::vec3> colors_; // after faction colorization
};

} // namespace rs::render
