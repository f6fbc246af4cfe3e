// View -> Problems: the asset checker (core/check) for the mounted game and mod folders or for the open file, in
// the background with a progress bar; findings grouped by file and filterable by level. Double-clicking a finding
// asks the window to open its file and select the bone, texture, mesh or sub-mesh it names; an object.* finding (its
// file is an XML or INI definition file) asks to open the object it names, and one naming no object (a definition
// file missing or malformed) opens nothing.
#pragma once

#include "check/check.h"

#include <QDockWidget>
#include <QFutureWatcher>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace rs::ui {

class ProblemsDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit ProblemsDock(QWidget* parent = nullptr);
    ~ProblemsDock() override;

    // Where assets are looked up (the window's resolver, replaced when the mount changes).
    void setResolver(std::shared_ptr<const Resolver> resolver);
    // The file open in the window ("" when none): what "Check open file" checks.
    void setCurrentFile(const QString& path);
    // Starts a check of the mounted folders (mount = true) or of the open file; a running check is cancelled first.
    void runCheck(bool mount);
    bool running() const { return watcher_.isRunning(); }
    const check::Report& report() const { return report_; }
    QTreeWidget* tree() const { return tree_; }
    QComboBox* levelFilter() const { return level_; }
    QProgressBar* progressBar() const { return progress_; }

  signals:
    // A finding was double-clicked: open `file`, then select `bone` / `material` when not empty, or else the
    // sub-mesh `subMesh` of `mesh` (the mesh itself for -1) when `mesh` is not empty.
    void openRequested(const QString& file, const QString& bone, const QString& material, const QString& mesh,
                       int subMesh);
    // An object.* finding naming an object was double-clicked: open that object.
    void objectRequested(const QString& object);
    void finished();

  private:
    void showReport();
    void activate(QTreeWidgetItem* item);

    std::shared_ptr<const Resolver> resolver_;
    QString current_;
    QPushButton *checkMount_, *checkFile_, *cancel_;
    QComboBox* level_;
    QProgressBar* progress_;
    QLabel* summary_;
    QTreeWidget* tree_;
    QFutureWatcher<check::Report> watcher_;
    std::shared_ptr<std::atomic<bool>> cancelFlag_;
    check::Report report_;
    bool inFront_ = false;   // shown and, when tabified, its tab selected (QDockWidget::visibilityChanged)
    bool behindTab_ = false; // View -> Problems was unchecked while the dock was open behind another tab
};

} // namespace rs::ui
