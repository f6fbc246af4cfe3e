#include "textures.h"

#include "scene_view.h"

#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QUrl>
#include <Qt3DRender/QPaintedTextureImage>
#include <Qt3DRender/QTexture>
#include <Qt3DRender/QTextureWrapMode>

namespace rs::render {

// Child of dir whose name equals name case-insensitively; empty when none.
static QString childCI(const QString& dir, const QString& name, QDir::Filters filter) {
    QDir d(dir);
    if (!d.exists()) return {};
    if (QFileInfo::exists(d.filePath(name))) return d.filePath(name);
    const QStringList entries = d.entryList(filter | QDir::NoDotAndDotDot);
    for (const QString& e : entries)
        if (e.compare(name, Qt::CaseInsensitive) == 0) return d.filePath(e);
    return {};
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
    for (const QString& d : extraDirs) add(d);
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
    const QStringList dirs = textureSearchDirs(file, modelPath, extraDirs);
    for (const QString& c : candidates)
        for (const QString& d : dirs) {
            const QString p = childCI(d, c, QDir::Files);
            if (!p.isEmpty()) return p;
        }
    return {};
}

bool isDds(const QString& path) { return path.endsWith(".dds", Qt::CaseInsensitive); }

static void setSampling(Qt3DRender::QAbstractTexture* t) {
    t->setMinificationFilter(Qt3DRender::QAbstractTexture::Linear);
    t->setMagnificationFilter(Qt3DRender::QAbstractTexture::Linear);
    t->wrapMode()->setX(Qt3DRender::QTextureWrapMode::Repeat);
    t->wrapMode()->setY(Qt3DRender::QTextureWrapMode::Repeat);
}

Qt3DRender::QAbstractTexture* loadTexture(const QString& path, Qt3DCore::QNode* parent) {
    auto* t = new Qt3DRender::QTextureLoader(parent);
    // Non-DDS images are flipped on upload so that the image's top row lands at v = 1 (core's uv0 is
    // already V-flipped); DDS data is uploaded as stored and the shader flips V instead.
    t->setMirrored(!isDds(path));
    t->setSource(QUrl::fromLocalFile(path));
    setSampling(t);
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
            for (int x = 0; x < n; ++x) p->fillRect(x * s, y * s, s, s, ((x + y) & 1) ? b_ : a_);
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
