#include "textures.h"

#include "dds.h"
#include "scene_view.h"
#include "tga.h"

#include "vfs/lookup.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QUrl>
#include <Qt3DCore/qabstractfunctor.h>
#include <Qt3DRender/QAbstractTextureImage>
#include <Qt3DRender/QPaintedTextureImage>
#include <Qt3DRender/QTexture>
#include <Qt3DRender/QTextureImageData>
#include <Qt3DRender/QTextureImageDataGenerator>
#include <Qt3DRender/QTextureWrapMode>

namespace rs::render {

namespace {
// Case-insensitive index of one folder's files and sub-folders (lower-case name -> name as stored), rebuilt when
// the folder's modification time changes; a listing taken within a second of the folder's last change is not
// reused (the clock's resolution could hide a change made right after it). Every texture of a model asks the same few
// folders for several candidate names; listing a folder for each question was most of the CPU of switching models.
struct DirIndex {
    QDateTime modified;
    bool settled = false; // listed more than a second after the folder's last change
    QHash<QString, QString> files, dirs;
};
std::mutex gDirMutex;
QHash<QString, DirIndex> gDirs; // by folder path as given
constexpr int kMaxIndexedDirs = 4096;
} // namespace

// Child of dir whose name equals name case-insensitively; empty when none. Only what the filter asks for: a
// texture named "." or ".." is not the folder itself.
QString childCI(const QString& dir, const QString& name, QDir::Filters filter) {
    if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String("..")) return {};
    const QFileInfo dinfo(dir);
    if (!dinfo.isDir()) return {};
    const bool files = filter & QDir::Files;
    const QDir d(dir);
    const QFileInfo direct(d.filePath(name));
    if (files ? direct.isFile() : direct.isDir()) return d.filePath(name);
    const QDateTime modified = dinfo.lastModified();
    std::lock_guard<std::mutex> lock(gDirMutex);
    auto it = gDirs.find(dir);
    if (it == gDirs.end() || it->modified != modified || !it->settled) {
        if (gDirs.size() >= kMaxIndexedDirs) gDirs.clear();
        DirIndex idx;
        idx.modified = modified;
        idx.settled = modified.msecsTo(QDateTime::currentDateTimeUtc()) > 1000;
        for (const QString& e : d.entryList(QDir::Files | QDir::NoDotAndDotDot))
            idx.files.insert(e.toLower(), e);
        for (const QString& e : d.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            idx.dirs.insert(e.toLower(), e);
        it = gDirs.insert(dir, std::move(idx));
    }
    const QHash<QString, QString>& names = files ? it->files : it->dirs;
    const auto hit = names.constFind(name.toLower());
    return hit == names.constEnd() ? QString() : d.filePath(*hit);
}

static QString subdirCI(const QString& dir, const QStringList& path) {
    QString cur = dir;
    for (const QString& part : path) {
        cur = childCI(cur, part, QDir::Dirs);
        if (cur.isEmpty()) return {};
    }
    return cur;
}

static QString baseFileName(const QString& name) {
    QString n = name;
    n.replace('\\', '/');
    const int slash = n.lastIndexOf('/');
    return slash >= 0 ? n.mid(slash + 1) : n;
}

QStringList textureSearchDirs(const QString& textureName, const QString& modelPath, const QStringList& extraDirs) {
    QStringList dirs;
    auto add = [&](const QString& d) {
        if (!d.isEmpty() && QFileInfo(d).isDir() && !dirs.contains(QDir::cleanPath(d))) dirs << QDir::cleanPath(d);
    };
    for (const QString& d : extraDirs)
        add(d);
    if (modelPath.isEmpty()) return dirs;
    const QString file = baseFileName(textureName);
    const QString two = file.left(2).toLower();
    QString dir = QFileInfo(modelPath).absolutePath();
    add(dir);
    for (int level = 0; level < 5 && !dir.isEmpty(); ++level) {
        add(subdirCI(dir, {"Textures"}));
        add(subdirCI(dir, {"Art", "Textures"}));
        add(subdirCI(dir, {"Data", "Art", "Textures"}));
        if (two.size() == 2) {
            add(subdirCI(dir, {"compiledtextures", two}));
            add(subdirCI(dir, {"art", "compiledtextures", two}));
        }
        QDir up(dir);
        if (!up.cdUp()) break;
        if (up.absolutePath() == dir) break;
        dir = up.absolutePath();
    }
    return dirs;
}

// The table of the last model whose textures were looked up (its archive or folder + the session mount).
static std::mutex gTableMutex;
static std::string gTablePath;
static std::shared_ptr<const vfs::MountTable> gTableSession;
static std::shared_ptr<vfs::MountTable> gTable;
static std::string gTableKey;

static std::shared_ptr<vfs::MountTable> tableForModel(const std::string& modelPath, std::string& key) {
    std::lock_guard<std::mutex> lock(gTableMutex);
    const auto session = vfs::sessionMount();
    if (!gTable || gTablePath != modelPath || gTableSession != session) {
        gTable.reset();
        try {
            gTable = vfs::tableFor(modelPath, &gTableKey);
        } catch (const ParseError&) {
        }
        gTablePath = modelPath;
        gTableSession = session;
    }
    key = gTableKey;
    return gTable;
}

QString resolveTexture(const QString& name, const QString& modelPath, const QStringList& extraDirs) {
    const QString file = baseFileName(name.trimmed());
    if (file.isEmpty()) return {};
    const QFileInfo fi(file);
    const QString stem = fi.completeBaseName();
    QStringList candidates{file};
    for (const char* ext : {".dds", ".tga", ".png"}) {
        const QString c = stem + ext;
        if (c.compare(file, Qt::CaseInsensitive) != 0) candidates << c;
    }
    auto fromTable = [&]() -> QString {
        std::string key;
        if (const auto t = tableForModel(modelPath.toStdString(), key))
            if (const vfs::Hit* h = vfs::resolveTexture(*t, name.trimmed().toStdString(), key))
                return QString::fromStdString(t->describe(*h));
        return {};
    };
    // The game's order (mod over game, loose over archives) first for a model inside an archive and whenever game
    // or mod folders are mounted: a folder search on disk would find a game's loose file before the mod's override.
    const bool tableFirst = !QFileInfo(modelPath).isFile() || vfs::sessionMount() != nullptr;
    if (tableFirst)
        if (QString p = fromTable(); !p.isEmpty()) return p;
    const QStringList dirs = textureSearchDirs(file, modelPath, extraDirs);
    for (const QString& c : candidates)
        for (const QString& d : dirs) {
            const QString p = childCI(d, c, QDir::Files);
            if (!p.isEmpty()) return p;
        }
    return tableFirst ? QString() : fromTable();
}

static void setSampling(Qt3DRender::QAbstractTexture* t) {
    t->setMinificationFilter(Qt3DRender::QAbstractTexture::Linear);
    t->setMagnificationFilter(Qt3DRender::QAbstractTexture::Linear);
    t->wrapMode()->setX(Qt3DRender::QTextureWrapMode::Repeat);
    t->wrapMode()->setY(Qt3DRender::QTextureWrapMode::Repeat);
}

namespace {
// Uploads a decoded image as RGBA8 (not premultiplied: alpha is a mask, not coverage).
class ImageGenerator : public Qt3DRender::QTextureImageDataGenerator {
  public:
    ImageGenerator(QImage img, quint64 id) : img_(std::move(img)), id_(id) {}
    Qt3DRender::QTextureImageDataPtr operator()() override {
        auto data = Qt3DRender::QTextureImageDataPtr::create();
        data->setImage(img_);
        return data;
    }
    bool operator==(const Qt3DRender::QTextureImageDataGenerator& other) const override {
        const auto* o = Qt3DCore::functor_cast<ImageGenerator>(&other);
        return o && o->id_ == id_;
    }
    QT3D_FUNCTOR(ImageGenerator)
  private:
    QImage img_;
    quint64 id_;
};

class DecodedImage : public Qt3DRender::QAbstractTextureImage {
  public:
    DecodedImage(QImage img, Qt3DCore::QNode* parent) : Qt3DRender::QAbstractTextureImage(parent) {
        static quint64 next = 1;
        gen_ = Qt3DRender::QTextureImageDataGeneratorPtr(new ImageGenerator(std::move(img), next++));
    }

  protected:
    Qt3DRender::QTextureImageDataGeneratorPtr dataGenerator() const override { return gen_; }

  private:
    Qt3DRender::QTextureImageDataGeneratorPtr gen_;
};
} // namespace

QImage decodeTextureFile(const QString& path, QString* error, int maxDim) {
    QByteArray bytes;
    std::vector<uint8_t> entry;
    std::shared_ptr<vfs::MountTable> table;
    {
        std::lock_guard<std::mutex> lock(gTableMutex);
        table = gTable;
    }
    const QFileInfo fi(path);
    bool fromArchive = false;
    try {
        fromArchive = !fi.exists() && table && vfs::readDescribed(*table, path.toStdString(), entry);
    } catch (const ParseError& e) { // encrypted or compressed entry
        if (error) *error = QString::fromStdString(e.what());
        return {};
    }
    if (fromArchive) {
        bytes = QByteArray(reinterpret_cast<const char*>(entry.data()), qsizetype(entry.size()));
    } else {
        // Checked before opening: a FIFO would block open(), a folder has no bytes.
        if (!fi.isFile()) {
            if (error) *error = path + ": " + (fi.exists() ? "not a regular file" : "no such file");
            return {};
        }
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            if (error) *error = "cannot open " + path;
            return {};
        }
        // Cap: a 16384^2 DXT5 with its mip chain is 341 MiB; larger texture files are refused unread.
        if (f.size() > (qint64(512) << 20)) {
            if (error) *error = path + ": texture file larger than 512 MiB";
            return {};
        }
        try {
            bytes = f.readAll();
        } catch (const std::bad_alloc&) {
            if (error) *error = path + ": out of memory";
            return {};
        }
    }
    const rs::ByteSpan span(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size()));
    const std::string label = path.toStdString();
    if (rs::isTexture(span, label)) {
        // Header first: a texture the GPU cannot hold is refused before its pixels are decoded.
        try {
            const rs::TextureInfo info = rs::probeTexture(span, label);
            if (maxDim > 0 && (info.width > maxDim || info.height > maxDim)) {
                if (error)
                    *error = QString("%1: %2x%3 is larger than this GPU's maximum texture size %4")
                                 .arg(path)
                                 .arg(info.width)
                                 .arg(info.height)
                                 .arg(maxDim);
                return {};
            }
        } catch (const rs::ParseError& e) {
            if (error) *error = QString::fromStdString(e.what());
            return {};
        }
        return decodeWith(&rs::decodeTexture, bytes, error, path);
    }
    QImage img;
    const QByteArray suffix = fi.suffix().toLower().toLatin1();
    if (!img.loadFromData(bytes, suffix.isEmpty() ? nullptr : suffix.constData()) && !img.loadFromData(bytes)) {
        if (error) *error = "unreadable image " + fi.fileName();
        return {};
    }
    if (maxDim > 0 && (img.width() > maxDim || img.height() > maxDim)) {
        if (error) *error = QString("%1: larger than this GPU's maximum texture size %2").arg(path).arg(maxDim);
        return {};
    }
    return img.convertToFormat(QImage::Format_ARGB32);
}

namespace {
std::atomic<int> knownMaxTextureSize{0};
}

void setGpuMaxTextureSize(int size) {
    if (size > 0) knownMaxTextureSize.store(size);
}

int gpuMaxTextureSize() {
    static const int size = [] {
        bool ok = false;
        const int forced = qEnvironmentVariableIntValue("RIGSCOPE_GL_MAX_TEXTURE_SIZE", &ok);
        if (ok && forced > 0) return forced;
        GLint v = knownMaxTextureSize.load();
        if (v <= 0) {
            QOpenGLContext ctx;
            QOffscreenSurface surface;
            surface.create();
            if (ctx.create() && ctx.makeCurrent(&surface)) {
                ctx.functions()->glGetIntegerv(GL_MAX_TEXTURE_SIZE, &v);
                ctx.doneCurrent();
            }
        }
        return v > 0 ? std::min<int>(v, rs::kMaxTextureDim) : rs::kMaxTextureDim;
    }();
    return size;
}

Qt3DRender::QAbstractTexture* makeTexture(const QImage& image, Qt3DCore::QNode* parent) {
    auto* t = new Qt3DRender::QTexture2D(parent);
    // Row 0 of the image is its top; core's uv0 puts the image top at v = 1, so upload bottom row first.
    t->addTextureImage(new DecodedImage(image.mirrored(false, true), t));
    t->setFormat(Qt3DRender::QAbstractTexture::RGBA8_UNorm);
    t->setGenerateMipMaps(true);
    setSampling(t);
    t->setMinificationFilter(Qt3DRender::QAbstractTexture::LinearMipMapNearest);
    return t;
}

namespace {
class CheckerImage : public Qt3DRender::QPaintedTextureImage {
  public:
    CheckerImage(QColor a, QColor b, int cells, Qt3DCore::QNode* parent)
        : Qt3DRender::QPaintedTextureImage(parent), a_(a), b_(b), cells_(cells) {
        setSize(QSize(64, 64));
    }

  protected:
    void paint(QPainter* p) override {
        const int n = cells_ > 0 ? cells_ : 1;
        const int s = 64 / n;
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                p->fillRect(x * s, y * s, s, s, ((x + y) & 1) ? b_ : a_);
    }

  private:
    QColor a_, b_;
    int cells_;
};
} // namespace

Qt3DRender::QAbstractTexture* checkerTexture(Qt3DCore::QNode* parent) {
    auto* t = new Qt3DRender::QTexture2D(parent);
    t->addTextureImage(new CheckerImage(QColor(255, 0, 255), QColor(20, 20, 20), 8, t));
    setSampling(t);
    t->setMinificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    t->setMagnificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    return t;
}

Qt3DRender::QAbstractTexture* solidTexture(unsigned rgba, Qt3DCore::QNode* parent) {
    auto* t = new Qt3DRender::QTexture2D(parent);
    const QColor c(int(rgba >> 24) & 255, int(rgba >> 16) & 255, int(rgba >> 8) & 255, int(rgba) & 255);
    t->addTextureImage(new CheckerImage(c, c, 1, t));
    setSampling(t);
    return t;
}

} // namespace rs::render
