#include "thumbnail_service.h"

#include "thumbnail_cache.h"
#include "thumbnail_render.h"

#include <QMetaObject>

#include <algorithm>
#include <pthread.h>
#include <sched.h>

namespace rs::ui {

ThumbnailService::ThumbnailService(int threads, int size, QObject* parent)
    : QObject(parent), size_(std::clamp(size, 16, 1024)) {
    for (int i = 0; i < std::max(1, threads); ++i)
        workers_.emplace_back([this] { workerLoop(); });
}

ThumbnailService::~ThumbnailService() {
    {
        std::lock_guard<std::mutex> lk(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_)
        t.join();
}

void ThumbnailService::setCache(std::shared_ptr<const thumbs::ThumbnailCache> cache) {
    std::lock_guard<std::mutex> lk(mutex_);
    cache_ = std::move(cache);
}

void ThumbnailService::setSource(std::shared_ptr<const Resolver> resolver) {
    {
        std::lock_guard<std::mutex> lk(mutex_);
        ++generation_;
        resolver_ = std::move(resolver);
        paths_.clear();
        state_.clear();
        rowIndex_.clear();
        results_.clear();
        starts_.clear();
    }
    images_.clear();
    errors_.clear();
    rowOf_.clear();
    made_.clear();
    arrivals_.clear();
}

void ThumbnailService::setItems(const QStringList& paths) {
    rowOf_.clear();
    rowOf_.reserve(paths.size());
    {
        std::lock_guard<std::mutex> lk(mutex_);
        paths_.clear();
        paths_.reserve(size_t(paths.size()));
        state_.assign(size_t(paths.size()), Pending);
        rowIndex_.clear();
        rowIndex_.reserve(size_t(paths.size()));
        for (int i = 0; i < paths.size(); ++i) {
            const QString& p = paths[i];
            paths_.push_back(p.toStdString());
            rowIndex_.emplace(paths_.back(), i);
            rowOf_.insert(p, i);
            if (images_.contains(p))
                state_[size_t(i)] = Done;
            else if (errors_.contains(p))
                state_[size_t(i)] = Failed;
            else if (working_.count(paths_.back()))
                state_[size_t(i)] = Working;
            else if (made_.contains(p))
                state_[size_t(i)] = Dropped;
        }
    }
    wake_.notify_all();
}

void ThumbnailService::setVisibleRange(int first, int last) {
    {
        std::lock_guard<std::mutex> lk(mutex_);
        first_ = first;
        last_ = last;
    }
    wake_.notify_all();
}

void ThumbnailService::setPaused(bool paused) {
    {
        std::lock_guard<std::mutex> lk(mutex_);
        paused_ = paused;
    }
    wake_.notify_all();
}

QImage ThumbnailService::image(int row) const {
    if (row < 0 || size_t(row) >= paths_.size()) return {};
    return images_.value(QString::fromStdString(paths_[size_t(row)]));
}

bool ThumbnailService::failed(int row) const {
    return row >= 0 && size_t(row) < paths_.size() && errors_.contains(QString::fromStdString(paths_[size_t(row)]));
}

QString ThumbnailService::error(int row) const {
    if (row < 0 || size_t(row) >= paths_.size()) return {};
    return errors_.value(QString::fromStdString(paths_[size_t(row)]));
}

int ThumbnailService::pending() const {
    std::lock_guard<std::mutex> lk(mutex_);
    return int(std::count_if(state_.begin(), state_.end(), [](uint8_t s) { return s == Pending || s == Working; }));
}

bool ThumbnailService::busy() const {
    std::lock_guard<std::mutex> lk(mutex_);
    return !working_.empty() || !results_.empty() || deliverQueued_;
}

QString ThumbnailService::summary() const {
    std::lock_guard<std::mutex> lk(mutex_);
    int n[5] = {};
    for (uint8_t s : state_)
        ++n[s < 5 ? s : 0];
    return QStringLiteral("pending %1 working %2 done %3 failed %4 dropped %5 in-flight %6 results %7 paused %8 "
                          "visible %9..%10")
        .arg(n[0])
        .arg(n[1])
        .arg(n[2])
        .arg(n[3])
        .arg(n[4])
        .arg(working_.size())
        .arg(results_.size())
        .arg(paused_)
        .arg(first_)
        .arg(last_);
}

std::vector<int> ThumbnailService::startOrder() const {
    std::lock_guard<std::mutex> lk(mutex_);
    return starts_;
}

int ThumbnailService::pickLocked() const {
    const int n = int(state_.size());
    if (n == 0 || !resolver_) return -1;
    int first = std::clamp(first_, 0, n - 1), last = std::clamp(last_, -1, n - 1);
    if (last < first) last = first - 1;
    // The visible rows top to bottom, then outwards one row below, one above; pictures dropped from memory are
    // made again only within two screens of the view.
    for (int r = first; r <= last; ++r)
        if (state_[size_t(r)] == Pending || state_[size_t(r)] == Dropped) return r;
    const int margin = std::max(64, 2 * (last - first + 1));
    for (int d = 1; first - d >= 0 || last + d < n; ++d) {
        for (const int r : {last + d, first - d}) {
            if (r < 0 || r >= n) continue;
            const uint8_t s = state_[size_t(r)];
            if (s == Pending || (s == Dropped && d <= margin)) return r;
        }
    }
    return -1;
}

void ThumbnailService::workerLoop() {
#ifdef SCHED_IDLE
    // Background work: the GUI thread (and everything else) runs first, so that the window stays responsive while
    // both cores make pictures.
    sched_param none{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);
#endif
    std::unique_lock<std::mutex> lk(mutex_);
    for (;;) {
        int row = -1;
        wake_.wait(lk, [&] { return stop_ || (!paused_ && (row = pickLocked()) >= 0); });
        if (stop_) return;
        state_[size_t(row)] = Working;
        starts_.push_back(row);
        const std::string path = paths_[size_t(row)];
        ++working_[path];
        const uint64_t generation = generation_;
        const auto resolver = resolver_;
        const auto cache = cache_;
        lk.unlock();

        Result r{generation, path, {}, {}};
        const thumbs::Flavor flavor = thumbs::flavorFor(size_);
        thumbs::SourceId id;
        bool done = false;
        if (cache) {
            id = thumbs::identify(path);
            if (id.valid()) switch (cache->lookup(id, flavor, &r.image)) {
                case thumbs::ThumbnailCache::State::Hit:
                    done = true;
                    break;
                case thumbs::ThumbnailCache::State::Failed:
                    r.error = QStringLiteral("cannot be drawn (recorded in the thumbnail cache)");
                    done = true;
                    break;
                case thumbs::ThumbnailCache::State::Miss:
                    break;
                }
        }
        if (!done) {
            if (resolver) {
                const thumbs::Picture pic = thumbs::renderAsset(*resolver, path, thumbs::flavorPixels(flavor));
                r.image = pic.image;
                r.error = QString::fromStdString(pic.error);
            } else {
                r.error = QStringLiteral("no source");
            }
            if (cache && id.valid()) {
                if (!r.image.isNull())
                    cache->store(id, flavor, r.image);
                else
                    cache->storeFailure(id);
            }
        }
        if (!r.image.isNull()) {
            if (r.image.width() > size_ || r.image.height() > size_)
                r.image = r.image.scaled(size_, size_, Qt::KeepAspectRatio, Qt::SmoothTransformation);
            r.image = r.image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
        } else if (r.error.isEmpty()) {
            r.error = QStringLiteral("nothing to draw");
        }

        lk.lock();
        if (auto it = working_.find(path); it != working_.end() && --it->second <= 0) working_.erase(it);
        if (generation != generation_) continue;
        if (auto it = rowIndex_.find(path); it != rowIndex_.end())
            state_[size_t(it->second)] = r.image.isNull() ? Failed : Done;
        results_.push_back(std::move(r));
        if (!deliverQueued_.exchange(true))
            QMetaObject::invokeMethod(
                this, [this] { deliver(); }, Qt::QueuedConnection);
    }
}

void ThumbnailService::deliver() {
    std::vector<Result> batch;
    uint64_t generation;
    {
        std::lock_guard<std::mutex> lk(mutex_);
        deliverQueued_ = false;
        batch.swap(results_);
        generation = generation_;
    }
    std::vector<int> rows;
    rows.reserve(batch.size());
    for (Result& r : batch) {
        if (r.generation != generation) continue;
        const QString path = QString::fromStdString(r.path);
        made_.insert(path);
        if (r.image.isNull())
            errors_.insert(path, r.error);
        else
            images_.insert(path, std::move(r.image));
        const int row = rowOf_.value(path, -1);
        if (row < 0) continue;
        rows.push_back(row);
        arrivals_.push_back(row);
    }
    if (images_.size() > memoryLimit_) evictFar();
    if (!rows.empty()) emit rowsReady(rows);
    if (pending() == 0) emit idle();
}

void ThumbnailService::evictFar() {
    std::vector<std::pair<int, QString>> byDistance; // distance from the visible rows (unlisted: farthest)
    byDistance.reserve(size_t(images_.size()));
    int first, last;
    {
        std::lock_guard<std::mutex> lk(mutex_);
        first = first_;
        last = last_;
    }
    for (auto it = images_.constBegin(); it != images_.constEnd(); ++it) {
        const int row = rowOf_.value(it.key(), -1);
        const int d = row < 0 ? INT32_MAX : row < first ? first - row : row > last ? row - last : 0;
        byDistance.emplace_back(d, it.key());
    }
    const size_t keep = size_t(memoryLimit_) * 9 / 10;
    std::nth_element(byDistance.begin(), byDistance.begin() + ptrdiff_t(keep), byDistance.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::lock_guard<std::mutex> lk(mutex_);
    for (size_t i = keep; i < byDistance.size(); ++i) {
        images_.remove(byDistance[i].second);
        if (auto it = rowIndex_.find(byDistance[i].second.toStdString()); it != rowIndex_.end())
            state_[size_t(it->second)] = Dropped;
    }
}

} // namespace rs::ui
