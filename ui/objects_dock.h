// Objects panel: the game objects of the mounted game and mod folders (core/objects ObjectDb), with their type,
// side (EaW <Affiliation>, SAGE `Side`) and parent, and a filter box (substring of any column, case-insensitive).
// Indexing runs on a worker thread each time the folders are mounted; a newer mount discards an older result.
// Double-click (or Enter) asks to open the object (MainWindow::openObject).
// SAGE mounts also list their particle systems (ParticleSystem.ini / FXParticleSystem.ini, type "ParticleSystem"):
// double-click (or Enter) on one asks to play it on its own (particleSystemRequested).
// Below the list, while a group object (a SAGE horde, an EaW squadron or company: no model of its own) is open, its
// members and the ranks of its formation (RankInfo): double-click (or Enter) opens a member.
// A mount without an object database that holds one a few folders down (a mod laid out as sources) names those
// folders, with a button that mounts them together (mountRequested).
#pragma once

#include "objects/mod_layout.h"
#include "objects/object_db.h"
#include "objects/sage_fx.h"
#include "vfs/mount.h"

#include <QDockWidget>
#include <QFutureWatcher>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
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
    // The particle systems and FXLists of a SAGE mount (null otherwise), listed as "ParticleSystem" rows.
    std::shared_ptr<const objects::SageFxLibrary> fxLibrary() const { return fx_; }

    void setFilter(const QString& text);
    int visibleCount() const;      // objects passing the filter
    QString nameAt(int row) const; // the row-th object passing the filter, in list order
    QString statusText() const;    // "N objects in F files; ...; n shown" below the list (n while filtered)

    // The members and ranks of the group object `object` (hidden when both are empty).
    void setGroup(const QString& object, const std::vector<objects::Member>& members,
                  const std::vector<objects::Rank>& ranks);
    void clearGroup() { setGroup(QString(), {}, {}); }
    QStringList groupMembers() const; // the member objects listed, in order
    QStringList groupRanks() const;   // one line per rank: "rank N: TYPE at (x, y) (x, y) ..."
    // Folders to mount instead of the mounted ones (a mod laid out as sources); empty when none were found.
    QStringList layoutFolders() const;

  signals:
    void objectRequested(const QString& name);
    // A "ParticleSystem" row was opened: play that system of fxLibrary() on its own.
    void particleSystemRequested(const QString& name);
    // The user asked to mount these folders as the mod (in this order, the first winning).
    void mountRequested(const QStringList& modFolders);
    // The list now shows the objects of a new mount (count may be 0).
    void indexed(int count);

  private:
    struct Loaded {
        std::shared_ptr<const vfs::MountTable> table;
        std::shared_ptr<const objects::ObjectDb> db;
        std::shared_ptr<const objects::SageFxLibrary> fx; // SAGE mounts
        objects::ModLayout layout; // when the mount has no database
        QString error;
    };
    void showLoaded();
    void updateCounts(); // the title ("Objects (n of N)") and the status line follow the filter

    QStandardItemModel* model_;
    QSortFilterProxyModel* proxy_;
    QTreeView* view_;
    QLineEdit* filter_;
    QLabel* status_;
    QPushButton* mountLayout_;
    QLabel* groupTitle_;
    QTreeWidget* group_;
    objects::ModLayout layout_;
    QFutureWatcher<Loaded> watcher_;
    std::shared_ptr<const vfs::MountTable> table_, pending_;
    std::shared_ptr<const objects::ObjectDb> db_;
    std::shared_ptr<const objects::SageFxLibrary> fx_;
    bool indexing_ = false;
};

} // namespace rs::ui
