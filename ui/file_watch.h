// FileWatch: the files a view shows, watched for changes on disk (live reload, issue 43 item 2).
//
// Contract:
// - A change is delivered once the file has settled: its stamp (size, modification time) seen unchanged over
//   settleMs after the last change. A file a tool writes in two halves, or rewrites through a temporary file and a
//   rename (editors' atomic saves), is delivered once, after its last write.
// - A file that disappears (between an editor's unlink and rename, or deleted) is not delivered until it is back;
//   one deleted for good is never delivered.
// - Changes come from QFileSystemWatcher on the files and on their folders (an atomic rename replaces the watched
//   inode, the folder's notice catches it and the file is watched again), and from a poll every pollMs as a fallback
//   for file systems without notices (network mounts, some containers). Polling stats only the watched files.
// - The receiver of changed() may find a delivered file still incomplete (a parse fails on truncation while the
//   tool is between two writes that the settle time did not cover): it calls retry(file), and the file is
//   delivered again after retryMs if it did not change meanwhile (earlier if it changes), at most maxRetries times
//   in a row; then gaveUp(file) says the file really is as it is (broken, not half-written).
#pragma once

#include "edit_session.h" // FileStamp, stampOf

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

class QFileSystemWatcher;

namespace rs::ui {

// True when the texture file reads and decodes whole; false with *why (the decoder's error naming the file) when it
// does not (a tool may be writing it). A file that is no texture the decoder knows is no texture: true, why empty.
bool textureFileComplete(const QString& file, QString* why);

class FileWatch : public QObject {
    Q_OBJECT
  public:
    explicit FileWatch(QObject* parent = nullptr);
    ~FileWatch() override;

    // Watches exactly these files from now (paths on disk; others, such as "<archive>:<entry>", must be given as the
    // archive). Their current stamps are the baseline: only later changes are delivered. Files that do not exist yet
    // are watched for their appearance. Pending retries of files no longer watched are dropped.
    void setFiles(const QStringList& files);
    QStringList files() const { return order_; }
    // Folders whose entries (a file added, removed, renamed) are watched too: foldersChanged() after they settle.
    // The folders of the watched files are always watched (for atomic renames) but signal only through changed().
    void setFolders(const QStringList& folders);
    // Takes the current stamp of files as the baseline without delivering (after the receiver itself wrote them,
    // e.g. File → Save).
    void acknowledge(const QStringList& files);

    void setSettleMs(int ms) { settleMs_ = ms; }
    void setPollMs(int ms);
    void setRetry(int retryMs, int maxRetries) {
        retryMs_ = retryMs;
        maxRetries_ = maxRetries;
    }
    int settleMs() const { return settleMs_; }

    // The receiver could not use the delivered file (incomplete): deliver it again later (see the contract).
    void retry(const QString& file);
    // The receiver used the delivered file: its retry count starts again.
    void succeeded(const QString& file) { retries_.remove(file); }

  signals:
    // Files whose content changed and settled, in the order setFiles gave them; one signal per settled batch.
    void changed(const QStringList& files);
    // An entry of a folder of setFolders was added, removed or renamed (after the settle time).
    void foldersChanged();
    // A file retried maxRetries times without becoming usable.
    void gaveUp(const QString& file);

  private:
    void onNotice();
    void onFolderNotice(const QString& dir);
    void check();
    void rewatch();

    QFileSystemWatcher* fs_ = nullptr;
    QTimer settle_, poll_, retryTimer_;
    QStringList order_;
    QStringList folders_;
    bool folderMoved_ = false;
    QHash<QString, FileStamp> baseline_; // the stamp last delivered (or taken as baseline)
    QHash<QString, FileStamp> seen_;     // pending: the stamp seen at the last check, not yet settled
    QHash<QString, int> retries_;        // files the receiver asked to retry, and how many times
    QSet<QString> retryDue_;             // retries waiting for retryTimer_
    int settleMs_ = 300;
    int retryMs_ = 400;
    int maxRetries_ = 12;
};

} // namespace rs::ui
