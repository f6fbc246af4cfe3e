#include "textures.h"

#include "dds.h"
#include "scene_view.h"
#include "texture/dds_cube.h"
#include "tga.h"

#include "resolve/resolver.h"

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

QImage decodeTextureFile(const rs::Resolver& resolver, const QString& path, QString* error, int maxDim) {
    QByteArray bytes;
    const QFileInfo fi(path);
    try {
        // Cap: a 16384^2 DXT5 with its mip chain is 341 MiB; larger texture files are refused unread.
        std::vector<uint8_t> data;
        if (!resolver.readBytes(QFile::encodeName(path).toStdString(), data, uint64_t(512) << 20)) {
            if (error) *error = path + ": " + (fi.exists() ? "not a regular file" : "no such file");
            return {};
        }
        bytes = QByteArray(reinterpret_cast<const char*>(data.data()), qsizetype(data.size()));
    } catch (const ParseError& e) { // unreadable, too large, an encrypted or compressed entry
        if (error) *error = QString::fromStdString(e.what());
        return {};
    } catch (const std::bad_alloc&) {
        if (error) *error = path + ": out of memory";
        return {};
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

bool decodeCubeFile(const rs::Resolver& resolver, const QString& path, QImage (&faces)[6], QString* error, int maxDim) {
    try {
        std::vector<uint8_t> data;
        if (!resolver.readBytes(QFile::encodeName(path).toStdString(), data, uint64_t(512) << 20)) {
            if (error) *error = path + ": " + (QFileInfo::exists(path) ? "not a regular file" : "no such file");
            return false;
        }
        const rs::ByteSpan span(data);
        if (!rs::isDdsCube(span)) {
            if (error) *error = path + ": not a DDS cube map (the effect samples a cube)";
            return false;
        }
        const rs::TextureInfo info = rs::probeDds(span, path.toStdString());
        if (maxDim > 0 && info.width > maxDim) {
            if (error)
                *error = QString("%1: cube faces of %2x%2 are larger than this GPU's maximum texture size %3")
                             .arg(path)
                             .arg(info.width)
                             .arg(maxDim);
            return false;
        }
        const rs::CubeImage cube = rs::decodeDdsCube(span, path.toStdString());
        for (size_t f = 0; f < 6; ++f)
            faces[f] = toQImage(cube.faces[f]);
        return true;
    } catch (const rs::ParseError& e) {
        if (error) *error = QString::fromStdString(e.what());
    } catch (const std::bad_alloc&) {
        if (error) *error = path + ": out of memory";
    }
    return false;
}

Qt3DRender::QAbstractTexture* makeCubeTexture(const QImage (&faces)[6], Qt3DCore::QNode* parent) {
    auto* t = new Qt3DRender::QTextureCubeMap(parent);
    static const Qt3DRender::QAbstractTexture::CubeMapFace kFaces[6] = {
        Qt3DRender::QAbstractTexture::CubeMapPositiveX, Qt3DRender::QAbstractTexture::CubeMapNegativeX,
        Qt3DRender::QAbstractTexture::CubeMapPositiveY, Qt3DRender::QAbstractTexture::CubeMapNegativeY,
        Qt3DRender::QAbstractTexture::CubeMapPositiveZ, Qt3DRender::QAbstractTexture::CubeMapNegativeZ};
    for (int f = 0; f < 6; ++f) {
        auto* image = new DecodedImage(faces[f], t);
        image->setFace(kFaces[f]);
        t->addTextureImage(image);
    }
    t->setFormat(Qt3DRender::QAbstractTexture::RGBA8_UNorm);
    t->setMinificationFilter(Qt3DRender::QAbstractTexture::Linear);
    t->setMagnificationFilter(Qt3DRender::QAbstractTexture::Linear);
    t->wrapMode()->setX(Qt3DRender::QTextureWrapMode::ClampToEdge);
    t->wrapMode()->setY(Qt3DRender::QTextureWrapMode::ClampToEdge);
    t->wrapMode()->setZ(Qt3DRender::QTextureWrapMode::ClampToEdge);
    return t;
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
        // Source, not the default SourceOver: a transparent stand-in (clear()) must replace the painter's image
        // memory, which QPaintedTextureImage does not clear; blended over it, it left that memory's bytes.
        p->setCompositionMode(QPainter::CompositionMode_Source);
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
    // Every texel is the same: nearest sampling returns exactly what bilinear does, and a software rasterizer
    // fetches one texel instead of four and skips the weights (the stand-ins are sampled for every pixel of
    // every mesh whose textures the corpus does not ship).
    t->setMinificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    t->setMagnificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    return t;
}

} // namespace rs::render
