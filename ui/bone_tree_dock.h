// Bone tree dock: the skeleton as a tree with what each bone carries (meshes, lights, proxies, dazzles,
// markers), a checkbox per bone to hide/show it, and the selected bone's local/world transform and its
// animated values at the current frame.
#pragma once

#include "scene/clip.h"
#include "scene/model.h"
#include "scene/pose.h"
#include "view_settings.h"

#include <QDockWidget>

#include <memory>
#include <vector>

class QPlainTextEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace rs::ui {

class BoneTreeDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit BoneTreeDock(QWidget* parent = nullptr);

    void setModel(std::shared_ptr<const Model> model);
    void setClip(std::shared_ptr<const Clip> clip);
    // Marks each proxy's entry with the particle system it names and whether the view found it.
    void setProxyParticles(const std::vector<ProxyParticles>& systems);
    QTreeWidgetItem* itemForProxy(int proxy) const;
    // Marks the bones a game object hangs models at (call after setModel): the bone's "Attached" column starts with
    // "← LABEL" and a child row names it (label: "HP_Escort_Turbo_FC (EV_ESCORTTURRET1.ALO)").
    void setObjectAttachments(const std::vector<std::pair<int, QString>>& boneLabels);
    // The "← LABEL" texts shown, in call order.
    QStringList objectAttachmentTexts() const { return attachmentTexts_; }
    // Updates the details of the selected bone for this (continuous) frame position.
    void setFrame(float position, LoopMode mode);

    // The clip frame the details are evaluated at (the position wrapped for the mode).
    float frame() const { return clip_ ? wrapFrame(position_, clip_->frameCount, mode_) : 0.0f; }
    int selectedBone() const { return selected_; }
    void selectBone(int bone);
    QTreeWidget* tree() const { return tree_; }
    QTreeWidgetItem* itemForBone(int bone) const;
    QString detailsText() const;

  signals:
    void boneSelected(int bone); // -1 = none
    void boneHiddenChanged(int bone, bool hidden);

  protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

  private:
    void refreshDetails();
    void fitColumns(); // the Bone column from its content, the Attached column the rest

    QTreeWidget* tree_;
    QPlainTextEdit* details_;
    std::shared_ptr<const Model> model_;
    std::shared_ptr<const Clip> clip_;
    ClipBinding binding_;
    PoseBuffers pose_;
    std::vector<QTreeWidgetItem*> boneItems_;
    std::vector<QTreeWidgetItem*> proxyItems_;
    QStringList attachmentTexts_; // per Model::proxies entry (null: proxy on no valid bone)
    float position_ = 0.0f;
    LoopMode mode_ = LoopMode::Loop;
    int selected_ = -1;
    bool userSized_ = false; // the user resized the Bone column: it no longer follows its content
    bool fitting_ = false;   // a resize by fitColumns, not by the user
};

} // namespace rs::ui
