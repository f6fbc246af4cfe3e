// Objects panel: the game objects of the mounted game and mod folders (core/objects ObjectDb), with their type,
// side (EaW <Affiliation>, SAGE `Side`) and parent, and a filter box (substring of any column, case-insensitive).
// Indexing runs on a worker thread each time the folders are mounted; a newer mount discards an older result.
// Double-click (or Enter) asks to open the object (MainWindow::openObject).
#pragma once

#include "objects/object_db.h"
#include "vfs/mount.h"

#include <QDockWidget>
#include <QFutureWatcher>

#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace rs::ui {

class ObjectsDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit ObjectsDock(QWidget* parent = nullptr);
    ~ObjectsDock() override;

    // Indexes the table's objects on a worker thread (null: clears the list).
    void setMount(std::shared_ptr<const vfs::MountTable> table);
    // True from setMount until the list shows that table's objects.
    bool indexing() const { return indexing_; }
    // The database of the listed table (null while none); the table it was loaded from (it must outlive the db).
    std::shared_ptr<const objects::ObjectDb> database() const { return db_; }
    std::shared_ptr<const vfs::MountTable> table() const { return table_; }

    void setFilter(const QString& text);
    int visibleCount() const;      // objects passing the filter
    QString nameAt(int row) const; // the row-th object passing the filter, in list order
    QString statusText() const;    // "N objects in F files; ...; n shown" below the list (n while filtered)

  signals:
    void objectRequested(const QString& name);
    // The list now shows the objects of a new mount (count may be 0).
    void indexed(int count);

  private:
    struct Loaded {
        std::shared_ptr<const vfs::MountTable> table;
        std::shared_ptr<const objects::ObjectDb> db;
        QString error;
    };
    void showLoaded();
    void updateCounts(); // the title ("Objects (n of N)") and the status line follow the filter

    QStandardItemModel* model_;
    QSortFilterProxyModel* proxy_;
    QTreeView* view_;
    QLineEdit* filter_;
    QLabel* status_;
    QFutureWatcher<Loaded> watcher_;
    std::shared_ptr<const vfs::MountTable> table_, pending_;
    std::shared_ptr<const objects::ObjectDb> db_;
    bool indexing_ = false;
};

} // namespace rs::ui
