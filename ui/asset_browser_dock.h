// Asset browser: every model, clip and texture of the mounted game and mod folders (core vfs) as a tree by folder,
// with the source that provides it and the sources it overrides (asset_tree_model.h); a filter box (substring, or
// a glob with * and ?) that filters without creating widgets or items; double-click opens a model or clip.
// File -> Open game or mod folder... mounts folders (remembered between runs). The grid button shows a picture of
// every asset passing the filter, under the folder chosen in the tree (asset_grid_view.h).
#pragma once

#include "vfs/mount.h"

#include <QDockWidget>
#include <QModelIndex>
#include <QString>

#include <memory>

class QLineEdit;
class QTreeView;
class QLabel;
class QSplitter;
class QToolButton;

namespace rs::ui {

class AssetTreeModel;
class AssetGridView;

class AssetBrowserDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit AssetBrowserDock(QWidget* parent = nullptr);

    // Mounts the game folders and mod folders (vfs::mountInstall), makes them the session mount (references of
    // opened files are found through them) and lists their assets. Remembered in QSettings when remember.
    void mountFolders(const QStringList& games, const QStringList& mods, bool remember = true);
    // Lists one archive's (.meg/.big) content without changing the session mount.
    void showArchive(const QString& path);
    // Asks for a folder; a mod folder is stacked over the mounted game, a game folder replaces the mount. True when
    // a folder was chosen and mounted.
    bool openFolderDialog();
    // Re-mounts the folders remembered from the last run (no-op when none).
    void restore();

    void setFilter(const QString& text);
    // Assets passing the filter (files, not folders).
    int visibleCount() const;
    // The loadable path ("<archive>:<entry>" or a file on disk) of the row-th asset passing the filter, in path
    // order, and its index in the tree view's model.
    QString pathAt(int row) const;
    QModelIndex indexAt(int row) const;
    // Grid mode: the tree (which scopes the grid to a folder) above the grid of pictures. Remembered.
    void setGridMode(bool on);
    bool gridMode() const;
    AssetGridView* grid() const { return grid_; } // null until grid mode is first used
    // What the last mountFolders mounted, for the status bar: "Mounted mod ICW over Star Wars: Empire at War:
    // 12,345 files" (empty before any).
    QString mountSummary() const { return mountSummary_; }
    const QStringList& games() const { return games_; }
    const QStringList& mods() const { return mods_; }

  signals:
    // Game and mod folders were mounted: the window opens files through them from now on.
    void mounted(std::shared_ptr<const vfs::MountTable> table);
    // A model or clip was double-clicked: open it with MainWindow::openFile.
    void openRequested(const QString& path);

  protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

  private:
    void setTable(std::shared_ptr<const vfs::MountTable> table, const QString& title);
    void expandSmallResults();
    void updateCounts(); // the title ("Assets (n of N)") and the status line follow the filter
    static constexpr size_t kExpandLimit = 500;
    AssetTreeModel* model_;
    QTreeView* view_;
    QLineEdit* filter_;
    QLabel* status_;
    QSplitter* split_;
    QToolButton* gridButton_;
    AssetGridView* grid_ = nullptr;
    std::shared_ptr<const vfs::MountTable> table_;
    QStringList games_, mods_;
    QString mountSummary_;
    QString statusBase_;       // what is listed, without the filter's count
    bool nameSized_ = false;   // the user resized the Name column: it no longer follows the panel's width
    bool fittingName_ = false; // a resize of the Name column by eventFilter, not by the user
};

} // namespace rs::ui
