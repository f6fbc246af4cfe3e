#include "scene_recorder.h"

#include "scene_view.h"
#include "video_writer.h"

#include <QFile>
#include <QImage>
#include <QPointer>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace rs::ui {

namespace {
constexpr size_t kQueued = 3; // frames waiting for the encoder at most
}

double recordDuration(double clipDuration, double turntable) {
    return turntable > 0.0 ? turntable : std::max(0.0, clipDuration);
}

// Owns the writer once started; encodes the queued frames in order, then finishes (or aborts).
struct SceneRecorder::Worker {
    std::unique_ptr<rs::record::VideoWriter> writer;
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<QImage> queue;
    bool last = false; // no frame after those queued
    std::atomic<bool> cancelled{false};
    std::thread thread;
    QPointer<SceneRecorder> owner;

    void run(int total, bool gif) {
        bool ok = false, wasCancelled = false;
        QString error;
        try {
            for (int k = 0;; ++k) {
                QImage img;
                {
                    std::unique_lock<std::mutex> lock(mutex);
                    wake.wait(lock, [&] { return cancelled || !queue.empty() || last; });
                    if (cancelled) break;
                    if (queue.empty()) break; // last, all encoded
                    img = std::move(queue.front());
                    queue.pop_front();
                }
                writer->addFrame(img.constBits(), size_t(img.bytesPerLine()));
                report(k + 1, true);
            }
            if (cancelled) {
                writer->abort();
                wasCancelled = true;
            } else {
                // Steps past the frames: the GIF's palette mapping, one per frame.
                ok = writer->finish([&](int done, int) {
                    if (cancelled) return false;
                    if (gif) report(total + done, false);
                    return true;
                });
                wasCancelled = !ok;
            }
        } catch (const std::exception& e) {
            error = QString::fromLocal8Bit(e.what());
        }
        writer.reset(); // an unfinished writer removes its temporary file
        QMetaObject::invokeMethod(
            owner.data(),
            [o = owner, ok, wasCancelled, error] {
                if (o) o->workerDone(ok, wasCancelled, error);
            },
            Qt::QueuedConnection);
    }

    void report(int steps, bool room) {
        QMetaObject::invokeMethod(
            owner.data(),
            [o = owner, steps, room] {
                if (o) o->workerReport(steps, room);
            },
            Qt::QueuedConnection);
    }

    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            cancelled = true;
        }
        wake.notify_all();
        if (thread.joinable()) thread.join();
    }
};

SceneRecorder::SceneRecorder(rs::render::SceneView* view, const RecordSettings& settings, QObject* parent)
    : QObject(parent), view_(view), settings_(settings) {}

SceneRecorder::~SceneRecorder() {
    if (worker_) worker_->stop();
}

int SceneRecorder::stepTotal() const {
    const auto c = rs::record::containerOf(QFile::encodeName(settings_.out).toStdString());
    return total_ + (c == rs::record::Container::Gif ? total_ : 0);
}

QString SceneRecorder::start() {
    if (worker_) return tr("a recording is already running");
    const std::string out = QFile::encodeName(settings_.out).toStdString();
    const auto container = rs::record::containerOf(out);
    if (!container) return tr("%1: the file name must end in .mp4, .webm, .gif or .webp").arg(settings_.out);
    total_ = rs::record::frameCount(settings_.duration, settings_.fps);
    if (settings_.duration <= 0.0 || total_ < 1)
        return tr("nothing moves: the model has no clip to record (pick a clip or a turntable)");
    auto worker = std::make_unique<Worker>();
    try {
        worker->writer = std::make_unique<rs::record::VideoWriter>(
            out, rs::record::VideoSpec{*container, settings_.width, settings_.height, settings_.fps});
    } catch (const std::exception& e) {
        return QString::fromLocal8Bit(e.what());
    }
    worker->owner = this;
    worker_ = std::move(worker);
    worker_->thread = std::thread(
        [w = worker_.get(), total = total_, gif = *container == rs::record::Container::Gif] { w->run(total, gif); });
    next_ = 0;
    if (settings_.turntable > 0.0) view_->setFixedOrbit(true); // the model keeps its size as it turns
    captureFrame(0);
    return {};
}

void SceneRecorder::cancel() {
    if (!worker_ || ended_) return;
    {
        std::lock_guard<std::mutex> lock(worker_->mutex);
        worker_->cancelled = true;
    }
    worker_->wake.notify_all();
}

void SceneRecorder::captureFrame(int k) {
    if (ended_ || worker_->cancelled) return;
    const double t = rs::record::frameTime(k, settings_.fps);
    view_->setTime(float(t));
    float yaw = settings_.yaw;
    if (settings_.turntable > 0.0) yaw += float(360.0 * t / settings_.turntable);
    view_->setCameraAngles(yaw, settings_.pitch);
    QPointer<SceneRecorder> self(this);
    auto done = [self, k](const QImage& img) {
        if (self) self->frameCaptured(k, img);
    };
    // The first frame waits until every shader program and texture is loaded; the next ones are the next frame.
    if (k == 0)
        view_->capture(done);
    else
        view_->captureNext(done);
}

void SceneRecorder::frameCaptured(int k, const QImage& image) {
    if (ended_ || worker_->cancelled) return;
    if (image.isNull()) {
        cancel();
        ended_ = true;
        worker_->stop();
        emit finished(false, false, tr("%1: frame %2 could not be captured").arg(settings_.out).arg(k));
        return;
    }
    QImage img = image;
    if (img.width() != settings_.width || img.height() != settings_.height)
        img = img.scaled(settings_.width, settings_.height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    img = img.convertToFormat(QImage::Format_RGBA8888);
    bool room = true;
    {
        std::lock_guard<std::mutex> lock(worker_->mutex);
        worker_->queue.push_back(std::move(img));
        if (k + 1 == total_) worker_->last = true;
        room = worker_->queue.size() < kQueued;
    }
    worker_->wake.notify_all();
    next_ = k + 1;
    if (next_ >= total_) return;
    if (room)
        captureFrame(next_);
    else
        waitingRoom_ = true;
}

void SceneRecorder::workerReport(int encoded, bool room) {
    if (ended_) return;
    emit progress(encoded, stepTotal());
    if (room && waitingRoom_) {
        waitingRoom_ = false;
        captureFrame(next_);
    }
}

void SceneRecorder::workerDone(bool ok, bool cancelled, const QString& error) {
    if (ended_) return;
    ended_ = true;
    if (worker_->thread.joinable()) worker_->thread.join();
    emit finished(ok, cancelled, error);
}

} // namespace rs::ui
