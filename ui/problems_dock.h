// View -> Problems: the asset checker (core/check) for the mounted game and mod folders or for the open file, in
// the background with a progress bar; findings grouped by file or by check id, filtered by level and by text (every
// word of the filter box found, case-insensitive, in the id, file, game path, location or message). The counts shown
// (the dock's title, which is its tab's, and the summary line) follow the filters. Double-clicking a finding
// asks the window to open its file and select the bone, texture, mesh or sub-mesh it names; an object.* finding (its
// file is an XML or INI definition file) asks to open the object it names, and one naming no object (a definition
// file missing or malformed) or a ref.base-game note (references left to a game that is not mounted) opens nothing.
#pragma once

#include "check/check.h"

#include <QDockWidget>
#include <QFutureWatcher>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
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
    // Starts a check of these files (what the window just saved); a running check is cancelled first.
    void checkFiles(const QStringList& files);
    bool running() const { return watcher_.isRunning(); }
    const check::Report& report() const { return report_; }
    QTreeWidget* tree() const { return tree_; }
    QComboBox* levelFilter() const { return level_; }
    QLineEdit* textFilter() const { return filter_; }
    QComboBox* grouping() const { return group_; } // 0: by file, 1: by check id
    QProgressBar* progressBar() const { return progress_; }
    QLabel* summary() const { return summary_; }
    // Shows only the findings whose id, file, game path, location or message hold every word of `text`.
    void setFilter(const QString& text);
    // Groups the list by check id (true) or by file (false).
    void setGroupByCheck(bool on);
    // Findings passing the level and text filters (what the list shows).
    size_t shownCount() const { return shown_; }

  signals:
    // A finding was double-clicked: open `file`, then select `bone` / `material` when not empty, or else the
    // sub-mesh `subMesh` of `mesh` (the mesh itself for -1) when `mesh` is not empty.
    void openRequested(const QString& file, const QString& bone, const QString& material, const QString& mesh,
                       int subMesh);
    // An object.* finding naming an object was double-clicked: open that object.
    void objectRequested(const QString& object);
    void finished();

  private:
    void startCheck(bool mount, const QStringList& files);
    void showReport();
    void activate(QTreeWidgetItem* item);
    bool passes(const check::Finding& f, check::Level minLevel, const QStringList& words) const;

    std::shared_ptr<const Resolver> resolver_;
    QString current_;
    QPushButton *checkMount_, *checkFile_, *cancel_;
    QComboBox *level_, *group_;
    QLineEdit* filter_;
    QProgressBar* progress_;
    QLabel* summary_;
    QTreeWidget* tree_;
    QFutureWatcher<check::Report> watcher_;
    std::shared_ptr<std::atomic<bool>> cancelFlag_;
    check::Report report_;
    bool checked_ = false; // a report was shown (the title counts it)
    size_t shown_ = 0;
    bool inFront_ = false;   // shown and, when tabified, its tab selected (QDockWidget::visibilityChanged)
    bool behindTab_ = false; // View -> Problems was unchecked while the dock was open behind another tab
};

} // namespace rs::ui
