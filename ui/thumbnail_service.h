// Thumbnails for the asset grid, made in the background: a pool of worker threads (two by default, one per core of
// the machines rigscope targets) takes the pending item nearest the visible rows each time it is free, so that
// scrolling re-orders the work at once; the freedesktop cache (thumbnail_cache.h) is looked up first and stored
// to after drawing (thumbnail_render.h). Results arrive on the GUI thread in batches (rowsReady).
//
// Items are loadable paths (a file or "<archive>:<entry>") in the grid's order. setItems (a new filter or folder)
// keeps the pictures already made for paths still listed; setSource (a new mount) drops everything and discards
// results still being made. At most memoryLimit pictures are kept in memory: the ones farthest from the visible
// rows are dropped and made again (from the disk cache) when their rows come near the view.
#pragma once

#include "resolve/resolver.h"

#include <QHash>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace rs::thumbs {
class ThumbnailCache;
}

namespace rs::ui {

class ThumbnailService : public QObject {
    Q_OBJECT
  public:
    // threads: workers (at least 1). size: the pictures' larger side in pixels.
    explicit ThumbnailService(int threads = 2, int size = 96, QObject* parent = nullptr);
    ~ThumbnailService() override;

    // The freedesktop cache to use (null: none, every picture is drawn).
    void setCache(std::shared_ptr<const thumbs::ThumbnailCache> cache);
    // A new mount: forgets every picture and cancels the work under way (results still being made are dropped).
    void setSource(std::shared_ptr<const Resolver> resolver);
    // The grid's items, in row order.
    void setItems(const QStringList& paths);
    // The rows on screen (inclusive; first > last: none). Work starts there and spreads outwards.
    void setVisibleRange(int first, int last);
    void setMemoryLimit(int pictures) { memoryLimit_ = std::max(16, pictures); }
    // Stops handing out work (the workers finish their current item) until resumed.
    void setPaused(bool paused);

    int size() const { return size_; }
    int rowCount() const { return int(paths_.size()); }
    // The picture of row (null while not made, or when it cannot be drawn: see failed()).
    QImage image(int row) const;
    bool failed(int row) const;
    QString error(int row) const;
    // Rows whose picture arrived, in order of arrival since the last setSource (for tests and benchmarks).
    const std::vector<int>& arrivalOrder() const { return arrivals_; }
    // Rows in the order the workers started them since the last setSource.
    std::vector<int> startOrder() const;
    int pending() const; // items not made yet (queued or being made)
    // Some item is being made or made and not delivered yet (false once paused and drained).
    bool busy() const;
    // "pending P working W done D failed F dropped R in-flight I results Q" (test messages).
    QString summary() const;

  signals:
    // Pictures of these rows arrived (one signal per batch).
    void rowsReady(const std::vector<int>& rows);
    // Every listed item has a picture or failed.
    void idle();

  private:
    enum State : uint8_t { Pending, Working, Done, Failed, Dropped };
    struct Result {
        uint64_t generation;
        std::string path;
        QImage image;
        QString error;
    };
    void workerLoop();
    int pickLocked() const; // row to make next, -1 when none
    void deliver();
    void evictFar();

    const int size_;
    std::vector<std::thread> workers_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false, paused_ = false;
    uint64_t generation_ = 0;
    std::shared_ptr<const Resolver> resolver_;
    std::shared_ptr<const thumbs::ThumbnailCache> cache_;
    std::vector<std::string> paths_;                // by row
    std::vector<uint8_t> state_;                    // by row
    std::unordered_map<std::string, int> working_;  // paths being made -> count
    std::unordered_map<std::string, int> rowIndex_; // path -> row
    int first_ = 0, last_ = -1;
    std::vector<Result> results_;
    std::vector<int> starts_;
    std::atomic<bool> deliverQueued_{false};

    // GUI thread only.
    QHash<QString, QImage> images_;  // by path
    QHash<QString, QString> errors_; // paths that cannot be drawn
    QHash<QString, int> rowOf_;
    QSet<QString> made_; // made once since the last setSource (dropped ones are made again only near the view)
    std::vector<int> arrivals_;
    int memoryLimit_ = 2000;
};

} // namespace rs::ui
