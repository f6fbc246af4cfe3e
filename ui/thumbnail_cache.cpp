#include "thumbnail_cache.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QImageReader>
#include <QImageWriter>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RIGSCOPE_VERSION
#define RIGSCOPE_VERSION "0"
#endif

namespace rs::thumbs {

namespace {

// g_filename_to_uri's table (glib/gconvert.c, UNSAFE_PATH): bytes kept as they are in a path.
bool keptInPath(unsigned char c) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
    return std::strchr("!$&'()*+,-./:=@_~", c) != nullptr && c != 0;
}

uint32_t crc32(const char* data, size_t n, uint32_t crc = 0) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    crc = ~crc;
    for (size_t i = 0; i < n; ++i)
        crc = table[(crc ^ uint8_t(data[i])) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

void appendBe32(QByteArray& out, uint32_t v) {
    out.append(char(v >> 24)).append(char(v >> 16)).append(char(v >> 8)).append(char(v));
}

QByteArray textChunk(const QByteArray& key, const QByteArray& value) {
    QByteArray body = "tEXt" + key + '\0' + value;
    QByteArray chunk;
    appendBe32(chunk, uint32_t(body.size() - 4));
    chunk += body;
    appendBe32(chunk, crc32(body.constData(), size_t(body.size())));
    return chunk;
}

bool statFile(const std::string& path, int64_t& mtime, int64_t& size) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    mtime = int64_t(st.st_mtime);
    size = int64_t(st.st_size);
    return true;
}

// mkdir -p with mode 0700 for the folders it creates.
bool makeDirs(const QString& dir) {
    const QByteArray d = QFile::encodeName(QDir::cleanPath(dir));
    for (int i = 1; i <= d.size(); ++i) {
        if (i < d.size() && d[i] != '/') continue;
        const QByteArray part = d.left(i);
        if (::mkdir(part.constData(), 0700) != 0 && errno != EEXIST) return false;
    }
    struct stat st {};
    return ::stat(d.constData(), &st) == 0 && S_ISDIR(st.st_mode);
}

uint32_t be32(const QByteArray& b, qsizetype at) {
    return uint32_t(uint8_t(b[at])) << 24 | uint32_t(uint8_t(b[at + 1])) << 16 | uint32_t(uint8_t(b[at + 2])) << 8 |
           uint32_t(uint8_t(b[at + 3]));
}

// The text chunks (tEXt, zTXt, uncompressed and compressed iTXt) before the image data, by key. Read here rather
// than through QImageReader::text, which splits "Thumb::URI" at its first ':'.
QHash<QByteArray, QByteArray> textChunksOf(const QByteArray& png) {
    QHash<QByteArray, QByteArray> out;
    if (png.size() < 8 || png.left(8) != QByteArray("\x89PNG\r\n\x1a\n", 8)) return out;
    auto inflate = [](const QByteArray& z) {
        QByteArray withSize(4, '\0');
        withSize[2] = 1; // expected size hint (64 KiB); qUncompress grows past it
        return qUncompress(withSize + z);
    };
    for (qsizetype at = 8; at + 12 <= png.size();) {
        const uint32_t len = be32(png, at);
        if (len > uint32_t(png.size() - at - 12)) break;
        const QByteArray type = png.mid(at + 4, 4);
        if (type == "IDAT" || type == "IEND") break;
        const QByteArray body = png.mid(at + 8, qsizetype(len));
        const qsizetype nul = body.indexOf('\0');
        if (nul > 0) {
            const QByteArray key = body.left(nul);
            if (type == "tEXt") {
                out.insert(key, body.mid(nul + 1));
            } else if (type == "zTXt" && body.size() > nul + 2) {
                out.insert(key, inflate(body.mid(nul + 2)));
            } else if (type == "iTXt" && body.size() > nul + 3) {
                const bool compressed = body[nul + 1] != 0;
                const qsizetype lang = body.indexOf('\0', nul + 3);
                const qsizetype translated = lang < 0 ? -1 : body.indexOf('\0', lang + 1);
                if (translated >= 0) {
                    const QByteArray text = body.mid(translated + 1);
                    out.insert(key, compressed ? inflate(text) : text);
                }
            }
        }
        at += 12 + qsizetype(len);
    }
    return out;
}

} // namespace

int flavorPixels(Flavor f) {
    switch (f) {
    case Flavor::Normal:
        return 128;
    case Flavor::Large:
        return 256;
    case Flavor::XLarge:
        return 512;
    case Flavor::XXLarge:
        return 1024;
    }
    return 128;
}

const char* flavorDir(Flavor f) {
    switch (f) {
    case Flavor::Normal:
        return "normal";
    case Flavor::Large:
        return "large";
    case Flavor::XLarge:
        return "x-large";
    case Flavor::XXLarge:
        return "xx-large";
    }
    return "normal";
}

Flavor flavorFor(int size) {
    if (size <= 128) return Flavor::Normal;
    if (size <= 256) return Flavor::Large;
    if (size <= 512) return Flavor::XLarge;
    return Flavor::XXLarge;
}

QByteArray escapePath(const QByteArray& path) {
    static const char hex[] = "0123456789ABCDEF";
    QByteArray out;
    out.reserve(path.size() * 3 / 2);
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        if (keptInPath(c)) {
            out.append(char(c));
        } else {
            out.append('%').append(hex[c >> 4]).append(hex[c & 15]);
        }
    }
    return out;
}

QByteArray fileUri(const QString& path) {
    QFileInfo fi(path);
    QString abs = fi.canonicalFilePath();
    if (abs.isEmpty()) abs = QDir::cleanPath(fi.absoluteFilePath());
    return "file://" + escapePath(QFile::encodeName(abs));
}

SourceId identify(const std::string& path) {
    SourceId id;
    if (statFile(path, id.mtime, id.size)) {
        id.uri = fileUri(QFile::decodeName(QByteArray::fromStdString(path)));
        return id;
    }
    // "<archive>:<entry>": the first ':' whose prefix is a regular file.
    for (size_t colon = path.find(':'); colon != std::string::npos; colon = path.find(':', colon + 1)) {
        const std::string archive = path.substr(0, colon);
        if (!statFile(archive, id.mtime, id.size)) continue;
        std::string entry = path.substr(colon + 1);
        for (char& c : entry) {
            if (c == '\\') c = '/';
            if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
        }
        while (!entry.empty() && entry.front() == '/')
            entry.erase(entry.begin());
        id.uri = fileUri(QFile::decodeName(QByteArray::fromStdString(archive))) + '#' +
                 escapePath(QByteArray::fromStdString(entry));
        return id;
    }
    return SourceId{};
}

QString keyName(const QByteArray& uri) {
    return QString::fromLatin1(QCryptographicHash::hash(uri, QCryptographicHash::Md5).toHex()) + QStringLiteral(".png");
}

QByteArray encodeThumbnailPng(const QImage& image, const SourceId& id) {
    QByteArray png;
    {
        QBuffer buf(&png);
        buf.open(QIODevice::WriteOnly);
        QImageWriter w(&buf, "png");
        if (!w.write(image)) return {};
    }
    // Signature (8) + IHDR (4 length + 4 type + 13 data + 4 CRC): the text chunks go right after IHDR.
    constexpr int kAfterIhdr = 8 + 25;
    if (png.size() < kAfterIhdr || png.mid(12, 4) != "IHDR") return {};
    QByteArray text = textChunk("Thumb::URI", id.uri) +
                      textChunk("Thumb::MTime", QByteArray::number(qlonglong(id.mtime))) +
                      textChunk("Thumb::Size", QByteArray::number(qlonglong(id.size))) +
                      textChunk("Software", "rigscope " RIGSCOPE_VERSION);
    png.insert(kAfterIhdr, text);
    return png;
}

QString pngText(const QByteArray& png, const char* key) {
    return QString::fromUtf8(textChunksOf(png).value(QByteArray(key)));
}

ThumbnailCache::ThumbnailCache(QString root) : root_(root.isEmpty() ? defaultRoot() : std::move(root)) {}

QString ThumbnailCache::defaultRoot() {
    QString base = qEnvironmentVariable("XDG_CACHE_HOME");
    // The standard: a relative $XDG_CACHE_HOME is invalid and ignored.
    if (base.isEmpty() || !QDir::isAbsolutePath(base)) base = QDir::homePath() + QStringLiteral("/.cache");
    return base + QStringLiteral("/thumbnails");
}

QString ThumbnailCache::pathFor(const QByteArray& uri, Flavor f) const {
    return root_ + '/' + QLatin1String(flavorDir(f)) + '/' + keyName(uri);
}

QString ThumbnailCache::failPathFor(const QByteArray& uri) const {
    return root_ + QStringLiteral("/fail/rigscope-" RIGSCOPE_VERSION "/") + keyName(uri);
}

ThumbnailCache::State ThumbnailCache::lookup(const SourceId& id, Flavor f, QImage* image) const {
    if (!id.valid()) return State::Miss;
    auto read = [](const QString& path) {
        QFile file(path);
        // A thumbnail is small: anything over 64 MiB is not one.
        return file.open(QIODevice::ReadOnly) && file.size() < (qint64(64) << 20) ? file.readAll() : QByteArray();
    };
    auto matches = [&](const QByteArray& png) {
        if (png.isEmpty()) return false;
        const QHash<QByteArray, QByteArray> text = textChunksOf(png);
        if (text.value("Thumb::URI") != id.uri) return false;
        bool ok = false;
        if (text.value("Thumb::MTime").toLongLong(&ok) != id.mtime || !ok) return false;
        const QByteArray size = text.value("Thumb::Size");
        return size.isEmpty() || size.toLongLong() == id.size;
    };
    const QByteArray png = read(pathFor(id.uri, f));
    if (matches(png)) {
        if (!image) return State::Hit;
        QImage img;
        if (img.loadFromData(png, "PNG")) {
            *image = std::move(img);
            return State::Hit;
        }
    }
    if (matches(read(failPathFor(id.uri)))) return State::Failed;
    return State::Miss;
}

bool ThumbnailCache::writeAtomically(const QString& dir, const QString& name, const QByteArray& bytes,
                                     QString* error) const {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (!makeDirs(dir))
        return fail(QStringLiteral("cannot create %1: %2").arg(dir, QString::fromLocal8Bit(std::strerror(errno))));
    static std::atomic<unsigned> counter{0};
    const QByteArray finalName = QFile::encodeName(dir + '/' + name);
    const QByteArray tmp = QFile::encodeName(dir + '/') + '.' + QFile::encodeName(name) + '.' +
                           QByteArray::number(qlonglong(::getpid())) + '.' + QByteArray::number(counter++) + ".tmp";
    const int fd = ::open(tmp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return fail(QStringLiteral("cannot write %1: %2")
                        .arg(QFile::decodeName(tmp), QString::fromLocal8Bit(std::strerror(errno))));
    bool ok = ::fchmod(fd, 0600) == 0;
    for (qsizetype done = 0; ok && done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += n;
    }
    const int savedErrno = errno;
    ok = (::close(fd) == 0) && ok;
    if (ok) ok = ::rename(tmp.constData(), finalName.constData()) == 0;
    if (!ok) {
        const QString why = QString::fromLocal8Bit(std::strerror(savedErrno ? savedErrno : errno));
        ::unlink(tmp.constData());
        return fail(QStringLiteral("cannot write %1: %2").arg(QFile::decodeName(finalName), why));
    }
    return true;
}

bool ThumbnailCache::store(const SourceId& id, Flavor f, const QImage& image, QString* error) const {
    if (!id.valid() || image.isNull()) {
        if (error) *error = QStringLiteral("nothing to store");
        return false;
    }
    const int px = flavorPixels(f);
    QImage img = image;
    if (img.width() > px || img.height() > px) img = img.scaled(px, px, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    const QByteArray png = encodeThumbnailPng(img, id);
    if (png.isEmpty()) {
        if (error) *error = QStringLiteral("cannot encode the PNG");
        return false;
    }
    return writeAtomically(root_ + '/' + QLatin1String(flavorDir(f)), keyName(id.uri), png, error);
}

bool ThumbnailCache::storeFailure(const SourceId& id, QString* error) const {
    if (!id.valid()) return false;
    QImage one(1, 1, QImage::Format_ARGB32);
    one.fill(Qt::transparent);
    const QByteArray png = encodeThumbnailPng(one, id);
    const QString path = failPathFor(id.uri);
    return writeAtomically(QFileInfo(path).path(), keyName(id.uri), png, error);
}

} // namespace rs::thumbs
