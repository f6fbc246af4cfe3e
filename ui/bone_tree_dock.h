// Bone tree dock: the skeleton as a tree with what each bone carries (meshes, lights, proxies, dazzles,
// markers), a checkbox per bone to hide/show it, and the selected bone's local/world transform and its
// animated values at the current frame.
#pragma once

#include "common/edit_op.h"
#include "scene/clip.h"
#include "scene/model.h"
#include "scene/pose.h"
#include "view_settings.h"

#include <QDockWidget>

#include <functional>
#include <memory>
#include <vector>

class QMenu;
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

    // Editing (docs/EDITING.md; the window applies each edit to the file through its edit session, undoable). A
    // bone's name is edited in place (F2, or Rename in the row's menu): the name typed is what
    // boneRenameRequested carries. editMenu(item) holds what the row's object can change, and right-click opens
    // it: a bone's "Visible by default" and billboard mode; a mesh's "Hidden" and "Collision" (W3D: "Two-sided",
    // its header's W3D_MESH_FLAG_TWO_SIDED); a proxy's target
    // and "Hidden"; a light's colour and intensity; a dazzle's colour and rate. Each emits editRequested with its
    // operation (targets as the file stores the names). Null for a row of no editable object; the caller owns it.
    QMenu* editMenu(QTreeWidgetItem* item, QWidget* parent = nullptr);
    // Opens the in-place editor of bone `bone`'s name; false when there is no such bone.
    bool renameBone(int bone);
    // Replace the value and colour dialogs (tests): the text entered from `current` (a null QString: cancelled),
    // the colour chosen from `start` (invalid: cancelled).
    void setValuePrompt(std::function<QString(const QString& what, const QString& current)> p) {
        valuePrompt_ = std::move(p);
    }
    void setColourPicker(std::function<QColor(const QColor& start)> p) { colourPicker_ = std::move(p); }

  signals:
    void boneSelected(int bone); // -1 = none
    void boneHiddenChanged(int bone, bool hidden);
    // The user renamed a bone: `from` as the file stores it (CP-1252 bytes), `to` as typed.
    void boneRenameRequested(const QByteArray& from, const QString& to);
    // An edit from a row's menu (bone visibility and billboard, mesh flags, proxy, light and dazzle values).
    void editRequested(const rs::EditOp& op);

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
    QString prompt(const QString& what, const QString& current);
    std::function<QString(const QString&, const QString&)> valuePrompt_;
    std::function<QColor(const QColor&)> colourPicker_;
    bool userSized_ = false; // the user resized the Bone column: it no longer follows its content
    bool fitting_ = false;   // a resize by fitColumns, not by the user
};

} // namespace rs::ui
