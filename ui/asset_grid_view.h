// The Assets panel's grid mode: a picture of every asset passing the filter (under the folder chosen in the tree),
// made in the background by a ThumbnailService (nearest the visible rows first, through the freedesktop cache), a
// placeholder naming the kind until it arrives. The grid is a flat list model over the tree model's visible assets
// (no item objects); the view reports the rows on screen to the service on every scroll and resize.
#pragma once

#include "vfs/mount.h"

#include <QAbstractListModel>
#include <QListView>

#include <memory>
#include <string>

class QFontMetrics;

namespace rs::ui {

class AssetTreeModel;
class ThumbnailService;

// The lines a grid cell shows of a file name in `width` pixels: the name on one line when it fits, else broken over
// two lines (after a '_', '-', '.' or space when one is near the end of the first), else two lines with the middle
// left out: the first line the name's start, the second "…" and the name's end with the whole extension
// ("BC_GARRISON_TOWE" / "…R_TOP.ALO"). The full name is the cell's tooltip.
QStringList gridCellLines(const QString& name, const QFontMetrics& metrics, int width);

class AssetGridModel : public QAbstractListModel {
    Q_OBJECT
  public:
    AssetGridModel(AssetTreeModel* tree, ThumbnailService* service, QObject* parent = nullptr);

    // Only the assets under this folder key prefix ("" = all); follows the tree model's filter.
    void setScope(const std::string& prefix);
    const std::string& scope() const { return scope_; }
    QString pathAt(int row) const;
    // Lists the tree model's visible assets under the scope again (done on its every reset).
    void refresh();

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

  private:
    AssetTreeModel* tree_;
    ThumbnailService* service_;
    std::string scope_;
    size_t first_ = 0, count_ = 0; // the tree model's visible assets [first_, first_ + count_)
};

class AssetGridView : public QListView {
    Q_OBJECT
  public:
    // threads: the service's workers. size: the pictures' larger side in pixels.
    explicit AssetGridView(AssetTreeModel* tree, QWidget* parent = nullptr, int threads = 2, int size = 96);
    ~AssetGridView() override;

    // A new mount (or archive shown): pictures are made from it; work for the old one is cancelled.
    void setTable(std::shared_ptr<const vfs::MountTable> table);
    void setScope(const std::string& prefix);
    AssetGridModel* gridModel() const { return model_; }
    ThumbnailService* service() const { return service_; }
    // The rows on screen (first > last when none), as last reported to the service.
    int firstVisible() const { return first_; }
    int lastVisible() const { return last_; }

  signals:
    void openRequested(const QString& path);

  protected:
    void resizeEvent(QResizeEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;

  private:
    void reportVisible();
    ThumbnailService* service_;
    AssetGridModel* model_;
    int first_ = 0, last_ = -1;
    int pictureSize_;
};

} // namespace rs::ui
