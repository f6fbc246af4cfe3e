// Timeline dock: clip selector, transport (play/pause, stop, step, first/last), loop mode, speed, and a
// scrub slider marked where step/visibility keys change and where clip events fire.
#pragma once

#include "common/edit_op.h"
#include "scene/clip.h"
#include "scene/pose.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QSlider>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QMenu;
class QDoubleSpinBox;
class QLabel;
class QToolButton;

namespace rs::ui {

// A slider that draws marks above its groove.
class MarkedSlider : public QSlider {
    Q_OBJECT
  public:
    enum class Mark { Step, Visibility, Event };
    explicit MarkedSlider(QWidget* parent = nullptr);
    void setMarks(std::vector<std::pair<int, Mark>> marks);
    const std::vector<std::pair<int, Mark>>& marks() const { return marks_; }

  protected:
    void paintEvent(QPaintEvent* e) override;

  private:
    std::vector<std::pair<int, Mark>> marks_;
};

// Frames of a clip where a track's step bit is set, a visibility channel changes, or an event fires
// (only events whose time the file stores: ClipEvent::frameKnown).
std::vector<std::pair<int, MarkedSlider::Mark>> clipMarks(const Clip& clip);

// What the timeline shows under the slider besides marks: events whose time is not stored (listed by name
// and bone, never placed on the slider), the codec, and the clip's warnings (e.g. which frames are an
// interpretation of undocumented data). Empty when there is nothing to say beyond the codec.
QString clipNotes(const Clip& clip);

class TimelineDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit TimelineDock(QWidget* parent = nullptr);

    // Clip selector entries (index 0 is always "(bind pose)"; "Open clip…" is appended).
    void setClipEntries(const QStringList& names, int current);
    int currentClipEntry() const;
    // The clip being played (null = bind pose). Resets the frame to 0 and keeps the play state.
    void setClip(std::shared_ptr<const Clip> clip);
    const Clip* clip() const { return clip_.get(); }

    float position() const { return pos_; } // continuous, unwrapped
    float displayFrame() const;             // wrapped into [0, frameCount-1]
    void setPosition(float frame);          // emits frameChanged
    LoopMode loopMode() const { return mode_; }
    void setLoopMode(LoopMode mode);
    double speed() const;
    void setSpeed(double s);
    bool playing() const { return timer_.isActive(); }
    MarkedSlider* slider() const { return slider_; }
    QLabel* notesLabel() const { return notes_; } // clipNotes() of the current clip; hidden when empty
    QComboBox* clipCombo() const { return clipCombo_; }
    QDoubleSpinBox* speedBox() const { return speedSpin_; }
    QToolButton* lastFrameButton() const { return lastBtn_; }

    // The clip's Edit menu (the "Edit" button beside the speed): "Frame rate…", "Trim to frames…" (first..last,
    // from 0) and "Rename clip…", each asking for the value and emitting clipEditRequested (the window applies it to
    // the clip's file, undoable; docs/EDITING.md). The actions are named clipRate, clipTrim and clipRename.
    QMenu* clipEditMenu() const { return editMenu_; }
    // Replaces the value dialog (tests): the text entered from `current` (a null QString: cancelled).
    void setValuePrompt(std::function<QString(const QString& what, const QString& current)> p) {
        valuePrompt_ = std::move(p);
    }

  public slots:
    void play();
    void pause();
    void togglePlay();
    void stop();
    void stepFrames(int delta);
    void firstFrame();
    void lastFrame();

  signals:
    void clipEntryChosen(int index); // index into the names given to setClipEntries (0 = bind pose)
    void openClipRequested();
    void frameChanged(float position, rs::LoopMode mode);
    void playingChanged(bool playing);
    // A clip edit from the Edit menu (SetClipRate, TrimClip, RenameClip) for the clip shown.
    void clipEditRequested(const rs::EditOp& op);

  private:
    void tick();
    void refreshLabels();
    LoopMode effectiveMode() const; // the mode the pose is evaluated with (see displayFrame)
    uint32_t frameCount() const { return clip_ ? clip_->frameCount : 0; }

    std::shared_ptr<const Clip> clip_;
    QComboBox* clipCombo_;
    QToolButton *playBtn_, *stopBtn_, *firstBtn_, *prevBtn_, *nextBtn_, *lastBtn_;
    QComboBox* modeCombo_;
    QDoubleSpinBox* speedSpin_;
    MarkedSlider* slider_;
    QLabel* label_;
    QLabel* notes_;
    QTimer timer_;
    QElapsedTimer clock_;
    float pos_ = 0.0f;
    LoopMode mode_ = LoopMode::Loop;
    bool updatingSlider_ = false;
    int clipEntryCount_ = 0;
    QToolButton* editBtn_ = nullptr;
    QMenu* editMenu_ = nullptr;
    std::function<QString(const QString&, const QString&)> valuePrompt_;
    QString prompt(const QString& what, const QString& current);
};

} // namespace rs::ui
