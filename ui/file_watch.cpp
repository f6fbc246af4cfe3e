#include "file_watch.h"

#include "common/file_read.h"
#include "texture/texture.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>

#include <utility>

namespace rs::ui {

namespace {
// The largest texture file read to see whether it is complete (as the texture reader's budget).
constexpr uint64_t kMaxTextureBytes = 256ull << 20;
} // namespace

bool textureFileComplete(const QString& file, QString* why) {
    if (why) why->clear();
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix != QLatin1String("dds") && suffix != QLatin1String("tga")) return true;
    try {
        const std::string f = QFile::encodeName(file).toStdString();
        const std::vector<uint8_t> bytes = readFile(f, kMaxTextureBytes, "texture");
        decodeTexture(ByteSpan(bytes), f);
        return true;
    } catch (const std::exception& e) {
        if (why) *why = QString::fromStdString(e.what());
        return false;
    }
}

FileWatch::FileWatch(QObject* parent) : QObject(parent), fs_(new QFileSystemWatcher(this)) {
    settle_.setSingleShot(true);
    retryTimer_.setSingleShot(true);
    connect(fs_, &QFileSystemWatcher::fileChanged, this, &FileWatch::onNotice);
    connect(fs_, &QFileSystemWatcher::directoryChanged, this, &FileWatch::onFolderNotice);
    connect(&poll_, &QTimer::timeout, this, &FileWatch::onNotice);
    connect(&settle_, &QTimer::timeout, this, &FileWatch::check);
    connect(&retryTimer_, &QTimer::timeout, this, [this] {
        QStringList due;
        for (const QString& f : order_)
            if (retryDue_.contains(f) && !seen_.contains(f)) due << f; // a changed file comes by the settle path
        retryDue_.clear();
        if (!due.isEmpty()) emit changed(due);
    });
    poll_.start(1000);
}

FileWatch::~FileWatch() = default;

void FileWatch::setPollMs(int ms) {
    if (ms <= 0)
        poll_.stop();
    else
        poll_.start(ms);
}

void FileWatch::setFiles(const QStringList& files) {
    order_.clear();
    QHash<QString, FileStamp> base;
    for (const QString& f : files) {
        if (f.isEmpty() || base.contains(f)) continue;
        order_ << f;
        base.insert(f, stampOf(f));
    }
    baseline_ = std::move(base);
    seen_.clear();
    for (auto it = retries_.begin(); it != retries_.end();)
        it = baseline_.contains(it.key()) ? std::next(it) : retries_.erase(it);
    retryDue_.clear();
    settle_.stop();
    if (!fs_->files().isEmpty()) fs_->removePaths(fs_->files());
    if (!fs_->directories().isEmpty()) fs_->removePaths(fs_->directories());
    rewatch();
}

void FileWatch::setFolders(const QStringList& folders) {
    folders_.clear();
    for (const QString& d : folders) {
        const QString abs = QFileInfo(d).absoluteFilePath();
        if (!d.isEmpty() && !folders_.contains(abs)) folders_ << abs;
    }
    folderMoved_ = false;
    rewatch();
}

void FileWatch::onFolderNotice(const QString& dir) {
    if (folders_.contains(dir)) {
        folderMoved_ = true;
        settle_.start(settleMs_);
    }
    onNotice();
}

void FileWatch::acknowledge(const QStringList& files) {
    for (const QString& f : files)
        if (baseline_.contains(f)) {
            baseline_[f] = stampOf(f);
            seen_.remove(f);
        }
}

void FileWatch::retry(const QString& file) {
    if (!baseline_.contains(file)) return;
    const int n = ++retries_[file];
    if (n > maxRetries_) {
        retries_.remove(file);
        emit gaveUp(file);
        return;
    }
    retryDue_.insert(file);
    retryTimer_.start(retryMs_);
}

void FileWatch::rewatch() {
    QStringList addFiles, addDirs;
    const QStringList watchedFiles = fs_->files(), watchedDirs = fs_->directories();
    for (const QString& f : order_) {
        const QFileInfo fi(f);
        if (fi.isFile() && !watchedFiles.contains(f) && !addFiles.contains(f)) addFiles << f;
        const QString dir = fi.absolutePath();
        if (QFileInfo(dir).isDir() && !watchedDirs.contains(dir) && !addDirs.contains(dir)) addDirs << dir;
    }
    for (const QString& dir : folders_)
        if (QFileInfo(dir).isDir() && !watchedDirs.contains(dir) && !addDirs.contains(dir)) addDirs << dir;
    if (!addFiles.isEmpty()) fs_->addPaths(addFiles);
    if (!addDirs.isEmpty()) fs_->addPaths(addDirs);
}

void FileWatch::onNotice() {
    // A notice or a poll: any stamp that moved starts (or restarts) the settle time.
    bool moved = false;
    for (const QString& f : order_) {
        const FileStamp now = stampOf(f);
        auto s = seen_.find(f);
        if (s == seen_.end()) {
            if (now != baseline_.value(f)) {
                seen_.insert(f, now);
                moved = true;
            }
        } else if (*s != now) {
            *s = now;
            moved = true;
        }
    }
    rewatch();
    if (moved) settle_.start(settleMs_);
}

void FileWatch::check() {
    // The settle time passed since the last movement: what still moved waits again; the rest is delivered.
    bool moved = false;
    for (auto it = seen_.begin(); it != seen_.end(); ++it) {
        const FileStamp now = stampOf(it.key());
        if (now != it.value()) {
            it.value() = now;
            moved = true;
        }
    }
    rewatch();
    if (moved) {
        settle_.start(settleMs_);
        return;
    }
    QStringList ready;
    for (const QString& f : order_) {
        auto s = seen_.find(f);
        if (s == seen_.end()) continue;
        if (s->size < 0) continue;      // gone: waits for the file to come back (a new stamp restarts the cycle)
        if (*s == baseline_.value(f)) { // written back as it was (same size and time): nothing changed
            seen_.erase(s);
            continue;
        }
        baseline_[f] = *s;
        seen_.erase(s);
        retryDue_.remove(f);
        ready << f;
    }
    if (!ready.isEmpty()) emit changed(ready);
    if (std::exchange(folderMoved_, false)) emit foldersChanged();
}

} // namespace rs::ui
