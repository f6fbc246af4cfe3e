// Material inspector: meshes -> sub-meshes (shader, vertex format, counts) -> parameters (type, value,
// colour swatches) and textures (resolved path or "missing", thumbnail).
#pragma once

#include "common/edit_op.h"
#include "resolve/resolver.h"
#include "scene/model.h"

#include <QDockWidget>
#include <QFutureWatcher>
#include <QHash>
#include <QImage>
#include <QThreadPool>

#include <functional>
#include <memory>

class QSplitter;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rs::ui {

class MaterialDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit MaterialDock(QWidget* parent = nullptr);
    ~MaterialDock() override;

    // resolver: where its textures are found (null: the one given before).
    void setModel(std::shared_ptr<const Model> model, std::shared_ptr<const Resolver> resolver);
    // The same file's model after an edit (undo, redo): the rows whose values changed are updated in place, the
    // others, the selection, the scroll position and the column widths stay; texture names resolved before are not
    // looked up again and only new texture files are decoded. Falls back to setModel (and returns false) when rows
    // come or go, or the model is another file's.
    bool updateModel(std::shared_ptr<const Model> model);
    // Rows the last updateModel changed (tests, benches).
    int lastUpdatedRows() const { return lastUpdatedRows_; }
    QTreeWidget* tree() const { return tree_; }
    // Texture name as stored -> resolved file ("" when missing), for the current model.
    const QHash<QString, QString>& resolvedTextures() const { return resolved_; }
    int missingTextureCount() const;
    // True once every thumbnail of the current model has been decoded and applied.
    bool thumbnailsReady() const { return thumbnailsReady_; }
    // While held, setModel() lists the model at once but decodes no thumbnail: the main window holds them
    // until the 3D view has presented the new model (decoding them competes with the view's first frames for
    // the CPU). Releasing starts the decode that was held.
    void holdThumbnails(bool hold);
    // Selects (and previews) the first texture that was found; false when there is none.
    bool selectFirstFoundTexture();
    // Selects (and previews) the first texture parameter naming storedName; false when there is none.
    bool selectTexture(const QString& storedName);
    // Selects the row of sub-mesh `subMesh` of the first mesh named `mesh` (as stored; the mesh's own row for -1);
    // false when the model has no such mesh or sub-mesh.
    bool selectSubMesh(const QString& mesh, int subMesh);
    QLabel* preview() const { return preview_; }
    // The current row as child indices from the top (empty: none), and back after the model was shown again.
    QList<int> currentItemPath() const;
    void setCurrentItemPath(const QList<int>& path);
    // The names the texture editor offers (the mounted textures and those beside the model), asked for when an
    // editor opens.
    void setTextureChoices(std::function<QStringList()> choices) { textureChoices_ = std::move(choices); }
    QStringList textureChoices() const { return textureChoices_ ? textureChoices_() : QStringList(); }
    // The open document's bytes as they are now (edited or as read; empty: not available). W3D rows whose values
    // the scene model does not keep (the shader fields ColorMask, PostDetailColorFunc, PostDetailAlphaFunc, which
    // ww3d2 replaces when it loads) are read from them; without them those rows are not listed.
    void setSourceBytes(std::function<std::vector<uint8_t>()> bytes) { sourceBytes_ = std::move(bytes); }
    // Opens the editor of an editable row's value (what double-click and F2 do): a texture's name (with the
    // mounted textures offered), a parameter's numbers, a sub-mesh's shader (the registry's shaders for the format,
    // or any name). False on another row.
    bool editTexture(QTreeWidgetItem* item);
    // A colour parameter's row: the colour picker, then editRequested; false on another row or when cancelled.
    bool pickColour(QTreeWidgetItem* item);
    // Replaces QColorDialog (tests): the colour chosen from `start` (invalid: cancelled).
    void setColourPicker(std::function<QColor(const QColor& start, bool alpha)> p) { colourPicker_ = std::move(p); }
    // The shaders offered for the open model's format (formats/shader_registry.h).
    QStringList shaderChoices() const;

  signals:
    void thumbnailsLoaded();
    // The user renamed a texture in the editor: `from` as the file stores it (CP-1252 bytes), `to` as typed.
    void textureRenameRequested(const QByteArray& from, const QString& to);
    // A parameter or shader edited in place (EditOp::SetParam / SetShader, target "MESH#submesh").
    void editRequested(const rs::EditOp& op);

  protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

  private:
    void showPreview(QTreeWidgetItem* item);

    QTreeWidget* tree_;
    QLabel* preview_;
    QSplitter* split_ = nullptr;
    bool splitMoved_ = false;  // the user dragged the handle: keep their sizes
    bool previewOpen_ = false; // a texture was selected: the preview takes 2/5 of the panel, else one line
    void fitSplit();
    void fitColumns(); // Item and Type from their content, Value the rest
    std::shared_ptr<const Model> model_;
    std::shared_ptr<const Resolver> resolver_ = std::make_shared<Resolver>();
    QHash<QString, QString> resolved_;
    QHash<QString, QImage> thumbs_;
    QThreadPool pool_; // thumbnails decode on their own thread
    QFutureWatcher<QHash<QString, QImage>> watcher_;
    int generation_ = 0;
    bool thumbnailsReady_ = true;
    bool holdThumbnails_ = false;
    std::function<QStringList()> textureChoices_;
    std::function<std::vector<uint8_t>()> sourceBytes_;
    std::function<QColor(const QColor&, bool)> colourPicker_;
    QStringList heldDecode_; // files to decode once released (empty: nothing held)
    void startDecode(const QStringList& files);
    // The rows of model_ under root (meshes, sub-meshes, parameters); texture files to decode added to toDecode.
    void buildRows(QTreeWidgetItem* root, QStringList& toDecode);
    int lastUpdatedRows_ = 0;
};

} // namespace rs::ui
