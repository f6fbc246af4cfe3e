// File > Record...: the open model and a clip to .mp4, .webm, .gif or .webp (format from the file name), at a size
// and frame rate, optionally with a turntable; recorded by SceneRecorder (the path of `rigscope --record`) in a view
// of its own, with a progress dialog whose Cancel stops it. The window stays responsive throughout.
#pragma once

#include "scene_recorder.h"

#include <QDialog>
#include <QString>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressDialog;
class QSpinBox;

namespace rs {
struct Clip;
}
namespace rs::render {
class SceneView;
}

namespace rs::ui {
class MainWindow;

// What to record: settings.duration is filled from the clip (or the turntable).
struct RecordChoice {
    RecordSettings settings;
    std::shared_ptr<const Clip> clip; // null: the bind pose (a turntable is then needed)
};

class RecordDialog : public QDialog {
    Q_OBJECT
  public:
    explicit RecordDialog(MainWindow* window);
    RecordChoice choice() const;

    QLineEdit* file() const { return file_; }
    QSpinBox* widthBox() const { return width_; }
    QSpinBox* heightBox() const { return height_; }
    QSpinBox* fpsBox() const { return fps_; }
    QComboBox* clipBox() const { return clip_; }
    QCheckBox* turntableBox() const { return turntable_; }
    QDoubleSpinBox* turntableSeconds() const { return seconds_; }
    QLabel* summary() const { return summary_; } // "60 frames, 2.00 s, H.264 video" or what is wrong

  private:
    void update();
    std::vector<std::shared_ptr<const Clip>> clips_;
    QLineEdit* file_;
    QSpinBox *width_, *height_, *fps_;
    QComboBox* clip_;
    QCheckBox* turntable_;
    QDoubleSpinBox* seconds_;
    QSpinBox *yaw_, *pitch_;
    QLabel* summary_;
    QPushButton* ok_ = nullptr;
};

// One recording of the window's open model: its Scene panel settings, object attachments and resolver, in a view
// of the recording's size drawn hidden (SceneView::drawHidden: no window appears while it records). Deletes itself
// after finished().
class RecordSession : public QObject {
    Q_OBJECT
  public:
    // nullptr with *error set when the recording cannot start (nothing written).
    static RecordSession* start(MainWindow* window, const RecordChoice& choice, QString* error);
    QProgressDialog* progressDialog() const { return progress_; }
    SceneRecorder* recorder() const { return recorder_; }

  signals:
    void finished(bool ok, bool cancelled, const QString& error);

  private:
    explicit RecordSession(QObject* parent) : QObject(parent) {}
    rs::render::SceneView* view_ = nullptr;
    SceneRecorder* recorder_ = nullptr;
    QProgressDialog* progress_ = nullptr;
};

// The menu entry: the dialog, then the recording; the result in a message box. The folder recorded into is
// remembered for the next recording.
void recordDialog(MainWindow* window);
// The dialog's first file: <model stem>.mp4 in the folder last recorded into, else the user's Videos folder (never
// the model's folder: that is the game's or mod's Data/Art/Models).
QString defaultRecordPath(const QString& modelPath);

} // namespace rs::ui
