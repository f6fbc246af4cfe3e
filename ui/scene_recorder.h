// SceneRecorder: records a SceneView to a video or animated image (rigscope_record's VideoWriter), the one path of
// File > Record... and of the headless `rigscope --record`.
//
// Frame k is drawn at clip time k / fps (looping the clip) and, with a turntable, camera yaw
// yaw + 360 * (k / fps) / turntable degrees, on a fixed orbit (SceneView::setFixedOrbit): each frame is set, rendered
// and captured before the next, never sampled in real time, so a recording is the same on a slow machine. Frames are
// encoded on a worker thread (at most a few frames queued) while the next one renders; the event loop keeps running
// throughout.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace rs::render {
class SceneView;
}

namespace rs::ui {

struct RecordSettings {
    QString out; // .mp4, .webm, .gif or .webp
    int width = 800, height = 600;
    int fps = 30;
    double duration = 0.0;  // seconds recorded (see recordDuration)
    double turntable = 0.0; // > 0: seconds per camera turn of 360 degrees
    float yaw = 35.0f, pitch = 20.0f;
};

// The turntable's period when there is one, else the clip's duration (0 without a clip: nothing to record).
double recordDuration(double clipDuration, double turntable);

class SceneRecorder : public QObject {
    Q_OBJECT
  public:
    // view: model, clip and options already set; its window shown or drawn hidden (SceneView::drawHidden: a window
    // merely hidden does not render). Frames of another size than the settings' (a window manager that would not
    // size a shown window) are scaled to it.
    SceneRecorder(rs::render::SceneView* view, const RecordSettings& settings, QObject* parent = nullptr);
    ~SceneRecorder() override; // cancels a recording still running and waits for the encoder thread

    // Opens the output (temporary file beside it) and starts. Returns an error (nothing started, nothing written)
    // or an empty string; then finished() comes exactly once.
    QString start();
    void cancel(); // finished(false, true, "") follows; the temporary file is removed

    int frameTotal() const { return total_; }
    int stepTotal() const; // progress() steps: frames, plus once more for a GIF's palette mapping
    int fpsUsed() const { return settings_.fps; }

  signals:
    void progress(int step, int steps); // a frame encoded (or mapped to the GIF palette)
    void finished(bool ok, bool cancelled, const QString& error);

  private:
    void captureFrame(int k);
    void frameCaptured(int k, const QImage& image);
    void workerReport(int encoded, bool room);
    void workerDone(bool ok, bool cancelled, const QString& error);

    struct Worker;
    rs::render::SceneView* view_;
    RecordSettings settings_;
    int total_ = 0;
    int next_ = 0;             // next frame to capture
    bool waitingRoom_ = false; // frame next_ waits for the encoder's queue to shrink
    bool ended_ = false;
    std::unique_ptr<Worker> worker_;
};

} // namespace rs::ui
