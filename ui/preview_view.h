// Software preview: a QPainter projection of the posed model (flat-shaded triangles, grid, skeleton,
// lights, dazzles, proxies). Used when the Qt3D SceneView is not part of the build; needs no OpenGL.
#pragma once

#include "model_view.h"

#include <QWidget>

#include <vector>

namespace rs::ui {

class PreviewWidget;

class PreviewView : public ModelView {
    Q_OBJECT
  public:
    explicit PreviewView(QObject* parent = nullptr);
    ~PreviewView() override;

    QWidget* widget() override;
    QString backendName() const override { return QStringLiteral("software preview"); }
    void setModel(std::shared_ptr<const Model> model) override;
    void setClip(std::shared_ptr<const Clip> clip) override;
    void setFrame(float frame, LoopMode mode) override;
    void setSettings(const ViewSettings& settings) override;
    void setResolver(std::shared_ptr<const Resolver>) override {}
    void setHighlightedBone(int bone) override;
    int highlightedBone() const override { return highlight_; }
    void setBoneHidden(int bone, bool hidden) override;
    bool boneHidden(int bone) const override;
    void frameModel() override;
    std::shared_ptr<const void> cameraState() const override;
    void setCameraState(const std::shared_ptr<const void>& state) override;
    void capture(std::function<void(const QImage&)> done) override;

    // Draws the scene into any paint device of the given size.
    void paint(QPainter& p, QSize size);
    void orbit(float dYaw, float dPitch);
    void pan(float dx, float dy);
    void zoom(float factor);
    // Width of the skeleton's lines and dots relative to the window's (thumbnails drawn at twice their size).
    void setOverlayScale(float s) { overlayScale_ = s; }

  private:
    struct Tri {
        float depth;
        QPointF p[3];
        QColor color;
    };
    void updatePose();
    void requestUpdate(); // repaints the widget, when there is one
    bool meshShown(const Mesh& m) const;
    glm::mat4 viewProj(QSize size, glm::vec3* eye) const;

    PreviewWidget* widget_ = nullptr;
    std::shared_ptr<const Model> model_;
    std::shared_ptr<const Clip> clip_;
    ClipBinding binding_;
    PoseBuffers pose_;
    std::vector<std::vector<glm::mat4>> inverseBind_; // per mesh*subMesh (flattened by offset)
    std::vector<size_t> subMeshOffset_;
    std::vector<glm::mat4> palette_;
    std::vector<glm::vec3> worldPos_;
    std::vector<Tri> tris_;
    std::vector<uint8_t> userHidden_;
    ViewSettings settings_;
    int highlight_ = -1;
    float frame_ = 0.0f;
    float overlayScale_ = 1.0f;
    LoopMode mode_ = LoopMode::Loop;
    glm::vec3 target_{0.0f};
    float distance_ = 10.0f, yaw_ = 0.8f, pitch_ = 0.35f, radius_ = 1.0f;
};

} // namespace rs::ui
