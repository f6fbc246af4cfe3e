// File → Compare with…: a second model or clip (B) beside the open one (A) in a second 3D view, the two cameras
// linked (orbiting, panning or zooming either moves both), the window's timeline driving both (B's clip paired
// with A's by name, at the same time in seconds), and the Differences panel listing what differs
// (core/compare/compare.h). Clicking a bone or track row selects the bone in both views; a track row also moves
// the timeline to the time of its largest difference. A clip file as B is shown on A's model and compared with
// A's clip on the timeline. Opening another file as A compares it again with the same B.
#pragma once

#include "compare/compare.h"
#include "main_window.h"
#include "model_view.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>

#include <memory>

class QAction;
class QLabel;
class QSplitter;

namespace rs::ui {

class DifferencesDock;

class CompareSession : public QObject {
    Q_OBJECT
  public:
    // split: the splitter holding the window's view, where B's view is added.
    CompareSession(MainWindow* window, QSplitter* split);
    ~CompareSession() override;

    // Asks for B with a file dialog, then compareWith().
    void chooseFile();
    // Reads B on a worker thread, then shows it beside A with the differences. Needs a model open in the window.
    void compareWith(const QString& path);
    // Back to one view: B's view and the Differences panel go.
    void close();

    bool isLoading() const { return watcher_.isRunning(); }
    bool isComparing() const { return viewB_ != nullptr; }
    QString pathB() const { return pathB_; }
    ModelView* viewB() const { return viewB_.data(); }
    std::shared_ptr<const Clip> clipB() const { return clipB_; }
    DifferencesDock* dock() const { return dock_; }
    QAction* closeAction() const { return closeAction_; }
    // Recomputes the differences against the window's current model (and its clips) and B.
    void refresh();

  signals:
    void compared();                     // B is shown and the differences listed
    void failed(const QString& message); // B could not be read (message names the file) or nothing is open as A

  protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

  private:
    void finishLoad();
    void pickClipB(); // B's clip paired with the clip on the window's timeline
    void linkCameras();
    void showDifference(const compare::Difference& d);
    QString labelA() const; // A's file and clip

    MainWindow* window_;
    QSplitter* split_;
    DifferencesDock* dock_ = nullptr;
    QAction* closeAction_ = nullptr;
    QFutureWatcher<LoadResult> watcher_;
    QString loadingPath_;

    // B as read.
    QString pathB_;
    Document docB_;
    std::vector<std::shared_ptr<const Clip>> clipsB_; // in the file, then companions that were read
    std::shared_ptr<const Model> modelB_;             // shown in B's view (A's model when B is a clip file)
    bool bIsClipFile_ = false;
    std::shared_ptr<const Clip> clipB_;

    QPointer<QWidget> paneB_;   // B's view with its caption, in the splitter; owns viewB_
    QPointer<ModelView> viewB_; // a child of paneB_ created before the view's widget: deleted before it
    QString captionB_;          // B's clip, or why none plays
    bool syncingCamera_ = false;
    bool reframe_ = false; // frame A (and B through the link) once A's view has its new width
    std::vector<QMetaObject::Connection> links_;
};

} // namespace rs::ui
