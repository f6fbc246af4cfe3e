// The freedesktop thumbnail cache (Thumbnail Managing Standard 0.9), shared by the viewer's asset grid, the
// installed thumbnailer (app/thumbnailer) and file managers, so that each picture is made once.
//
//   $XDG_CACHE_HOME/thumbnails (default ~/.cache/thumbnails)/{normal,large,x-large,xx-large}/MD5(URI).png
//   $XDG_CACHE_HOME/thumbnails/fail/rigscope-<version>/MD5(URI).png     files that cannot be drawn (a 1x1 PNG)
//
// Each PNG carries tEXt chunks Thumb::URI, Thumb::MTime (seconds, as stat's st_mtime), Thumb::Size (bytes) and
// Software. An entry whose URI or MTime (or Size, when stored) differs from the source's is stale: a lookup
// misses and the picture is made again. Files are written to a temporary name in the same folder (0600) and
// renamed; folders are created 0700.
//
// Keys. A file on disk: its canonical absolute path as a file:// URI, escaped like GLib's g_filename_to_uri (the
// bytes A-Z a-z 0-9 ! $ & ' ( ) * + , - . / : = @ _ ~ kept, every other byte as %XX, upper-case hex), so that the
// MD5 is the one GNOME and KDE file managers compute. An entry of a .meg/.big archive ("<archive>:<entry>"):
//   file:///abs/path/Models.meg#DATA/ART/MODELS/W_UNIT.ALO
// the archive's URI, '#', then the entry name with '/' separators, upper case (the mount table's key), escaped
// the same way; its MTime and Size are the archive's.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

#include <cstdint>
#include <string>

namespace rs::thumbs {

enum class Flavor { Normal, Large, XLarge, XXLarge };
int flavorPixels(Flavor f);      // 128, 256, 512, 1024
const char* flavorDir(Flavor f); // "normal", "large", "x-large", "xx-large"
// The smallest flavour at least `size` pixels (xx-large beyond 1024).
Flavor flavorFor(int size);

// What identifies the source of a thumbnail.
struct SourceId {
    QByteArray uri;
    int64_t mtime = 0; // seconds
    int64_t size = 0;  // bytes
    bool valid() const { return !uri.isEmpty(); }
};

// GLib-compatible percent-escaping of a path (see top).
QByteArray escapePath(const QByteArray& path);
// file:// URI of a local path (made absolute and canonical when it exists).
QByteArray fileUri(const QString& path);
// The source id of a file on disk or "<archive>:<entry>" (the archive an existing regular file); invalid when the
// file (or archive) cannot be stat'ed.
SourceId identify(const std::string& path);
// "<32 lower-case hex digits>.png" of the URI.
QString keyName(const QByteArray& uri);

class ThumbnailCache {
  public:
    // root: the "thumbnails" folder; empty: $XDG_CACHE_HOME/thumbnails or ~/.cache/thumbnails.
    explicit ThumbnailCache(QString root = {});
    static QString defaultRoot();
    const QString& root() const { return root_; }

    QString pathFor(const QByteArray& uri, Flavor f) const;
    QString failPathFor(const QByteArray& uri) const;

    enum class State { Miss, Hit, Failed };
    // Hit: `image` holds the cached picture. Failed: a fail entry for this URI and MTime exists. Miss otherwise
    // (absent, unreadable or stale).
    State lookup(const SourceId& id, Flavor f, QImage* image = nullptr) const;
    // Writes the picture (at most the flavour's size; larger images are scaled down). False with `error` set
    // when it cannot be written; nothing is left under the final name then.
    bool store(const SourceId& id, Flavor f, const QImage& image, QString* error = nullptr) const;
    bool storeFailure(const SourceId& id, QString* error = nullptr) const;

  private:
    bool writeAtomically(const QString& dir, const QString& name, const QByteArray& bytes, QString* error) const;
    QString root_;
};

// PNG bytes of `image` with the Thumb:: tEXt chunks of `id`.
QByteArray encodeThumbnailPng(const QImage& image, const SourceId& id);
// The value of a tEXt/zTXt/iTXt chunk `key` of PNG bytes ("" when absent).
QString pngText(const QByteArray& png, const char* key);

} // namespace rs::thumbs
