// Texture decoding (own DDS/TGA decoders) and lookup conventions; no rendering involved.
#include "dds.h"
#include "scene_view.h"
#include "textures.h"

#include "resolve/resolver.h"
#include "tga.h"

#include <catch2/catch.hpp>

#include <QImage>
#include <Qt3DRender/QAbstractTexture>

#include <memory>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

using namespace rs::render;

namespace {

QByteArray ddsHeader(int w, int h, const char* fourCC, uint32_t pfFlags = 0x4, uint32_t bits = 0, uint32_t rm = 0,
                     uint32_t gm = 0, uint32_t bm = 0, uint32_t am = 0) {
    QByteArray b(128, '\0');
    auto put = [&](int off, uint32_t v) {
        for (int i = 0; i < 4; ++i)
            b[off + i] = char((v >> (8 * i)) & 255);
    };
    b.replace(0, 4, "DDS ");
    put(4, 124);
    put(12, uint32_t(h));
    put(16, uint32_t(w));
    put(76, 32);
    put(80, pfFlags);
    if (fourCC) b.replace(84, 4, fourCC);
    put(88, bits);
    put(92, rm);
    put(96, gm);
    put(100, bm);
    put(104, am);
    return b;
}

void touch(const QString& path) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
}

} // namespace

TEST_CASE("DXT1 block decodes to its palette", "[textures]") {
    QByteArray d = ddsHeader(4, 4, "DXT1");
    // c0 = pure red (0xF800), c1 = pure blue (0x001F); c0 > c1: 4-colour mode.
    // Row 0: indices 0,1,2,3; other rows index 1.
    const uchar block[8] = {0x00, 0xF8, 0x1F, 0x00, 0b11100100, 0x55, 0x55, 0x55};
    d.append(reinterpret_cast<const char*>(block), 8);
    QString err;
    QImage img = decodeDds(d, &err);
    REQUIRE_FALSE(img.isNull());
    CHECK(img.pixel(0, 0) == qRgba(255, 0, 0, 255));
    CHECK(img.pixel(1, 0) == qRgba(0, 0, 255, 255));
    CHECK(img.pixel(2, 0) == qRgba(170, 0, 85, 255)); // 2/3 c0 + 1/3 c1
    CHECK(img.pixel(3, 0) == qRgba(85, 0, 170, 255));
    CHECK(img.pixel(2, 3) == qRgba(0, 0, 255, 255));
}

TEST_CASE("DXT1 three-colour mode has transparent black", "[textures]") {
    QByteArray d = ddsHeader(4, 4, "DXT1");
    const uchar block[8] = {0x1F, 0x00, 0x00, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF}; // c0 < c1, all index 3
    d.append(reinterpret_cast<const char*>(block), 8);
    QImage img = decodeDds(d, nullptr);
    REQUIRE_FALSE(img.isNull());
    CHECK(qAlpha(img.pixel(1, 1)) == 0);
}

TEST_CASE("DXT5 interpolated alpha", "[textures]") {
    QByteArray d = ddsHeader(4, 4, "DXT5");
    // alpha0 = 255, alpha1 = 0 (8-value mode); pixel 0 index 0, pixel 1 index 1, pixel 2 index 2 (6/7*255+1/7*0).
    const uchar block[16] = {255, 0, 0b10001000, 0, 0, 0, 0, 0, 0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0};
    d.append(reinterpret_cast<const char*>(block), 16);
    QImage img = decodeDds(d, nullptr);
    REQUIRE_FALSE(img.isNull());
    CHECK(qAlpha(img.pixel(0, 0)) == 255);
    CHECK(qAlpha(img.pixel(1, 0)) == 0);
    CHECK(qAlpha(img.pixel(2, 0)) == 218);
    CHECK(qGreen(img.pixel(0, 0)) == 255); // colour 0x07E0 = pure green
}

TEST_CASE("uncompressed 32-bit DDS uses the channel masks", "[textures]") {
    QByteArray d = ddsHeader(2, 1, nullptr, 0x41, 32, 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000);
    const uchar px[8] = {10, 20, 30, 40, 50, 60, 70, 80}; // BGRA little-endian
    d.append(reinterpret_cast<const char*>(px), 8);
    QImage img = decodeDds(d, nullptr);
    REQUIRE_FALSE(img.isNull());
    CHECK(img.pixel(0, 0) == qRgba(30, 20, 10, 40));
    CHECK(img.pixel(1, 0) == qRgba(70, 60, 50, 80));
}

TEST_CASE("bad DDS files are refused with a reason", "[textures]") {
    QString err;
    CHECK(decodeDds(QByteArray("DDS "), &err).isNull());
    CHECK_FALSE(err.isEmpty());
    QByteArray truncated = ddsHeader(64, 64, "DXT5");
    truncated.append(QByteArray(100, '\0'));
    CHECK(decodeDds(truncated, &err).isNull());
    CHECK(err.contains("truncated"));
    CHECK(decodeDds(ddsHeader(4, 4, "ATI2"), &err).isNull());
    CHECK(err.contains("ATI2"));
    CHECK(decodeDds(ddsHeader(100000, 4, "DXT1"), &err).isNull());
}

TEST_CASE("TGA raw and RLE, both orientations", "[textures]") {
    // 2x2, 24-bit, bottom-up raw: rows stored bottom first.
    QByteArray raw(18, '\0');
    raw[2] = 2;
    raw[12] = 2;
    raw[14] = 2;
    raw[16] = 24;
    const uchar px[12] = {0, 0, 255, 0, 255, 0, /* bottom row: red, green */ 255, 0, 0, 255, 255, 255};
    raw.append(reinterpret_cast<const char*>(px), 12);
    QImage img = decodeTga(raw, nullptr);
    REQUIRE_FALSE(img.isNull());
    CHECK(img.pixel(0, 1) == qRgb(255, 0, 0));
    CHECK(img.pixel(1, 1) == qRgb(0, 255, 0));
    CHECK(img.pixel(0, 0) == qRgb(0, 0, 255));
    CHECK(img.pixel(1, 0) == qRgb(255, 255, 255));
    // RLE, 32-bit, top-down: one run packet of 4 pixels.
    QByteArray rle(18, '\0');
    rle[2] = 10;
    rle[12] = 2;
    rle[14] = 2;
    rle[16] = 32;
    rle[17] = 0x28; // top-left origin, 8 alpha bits
    const uchar packet[5] = {0x83, 1, 2, 3, 4};
    rle.append(reinterpret_cast<const char*>(packet), 5);
    img = decodeTga(rle, nullptr);
    REQUIRE_FALSE(img.isNull());
    CHECK(img.pixel(1, 1) == qRgba(3, 2, 1, 4));
    QString err;
    CHECK(decodeTga(rle.left(20), &err).isNull());
    CHECK(err.contains("truncated"));
}

// The view's texture lookup: the window's resolver (core/resolve/resolver.h) with the texture folders given.
static QString findTexture(const char* name, const QString& model, const QStringList& dirs = {}) {
    std::vector<std::string> d;
    for (const QString& s : dirs)
        d.push_back(s.toStdString());
    return QString::fromStdString(rs::Resolver(nullptr, d).findTexture(name, model.toStdString()));
}

TEST_CASE("textures are found by the folder conventions, case-insensitively", "[textures]") {
    QTemporaryDir tmp;
    REQUIRE(tmp.isValid());
    const QString root = tmp.path();
    touch(root + "/Data/Art/Models/unit.alo");
    touch(root + "/Data/Art/Textures/UNIT_BODY.DDS");
    touch(root + "/Data/Art/Models/local.tga");
    touch(root + "/art/w3d/eb/ebstables.w3d");
    touch(root + "/art/compiledtextures/eb/ebstables.dds");
    touch(root + "/extra/Custom.tga");
    const QString model = root + "/Data/Art/Models/unit.alo";
    CHECK(findTexture("unit_body.dds", model) == root + "/Data/Art/Textures/UNIT_BODY.DDS");
    CHECK(findTexture("Unit_Body.tga", model) == root + "/Data/Art/Textures/UNIT_BODY.DDS"); // same stem
    CHECK(findTexture("LOCAL.TGA", model) == root + "/Data/Art/Models/local.tga");
    CHECK(findTexture("custom.tga", model, {root + "/extra"}) == root + "/extra/Custom.tga");
    CHECK(findTexture("missing.dds", model).isEmpty());
    CHECK(findTexture("EBStables.tga", root + "/art/w3d/eb/ebstables.w3d") ==
          root + "/art/compiledtextures/eb/ebstables.dds");
    CHECK(findTexture("", model).isEmpty());
}

TEST_CASE("texture lookups accept only regular files", "[textures]") {
    QTemporaryDir tmp;
    REQUIRE(tmp.isValid());
    const QString root = tmp.path();
    touch(root + "/Data/Art/Models/unit.alo");
    QDir().mkpath(root + "/Data/Art/Textures/folder.dds");
    const QString model = root + "/Data/Art/Models/unit.alo";
    CHECK(findTexture(".", model).isEmpty());
    CHECK(findTexture("..", model).isEmpty());
    CHECK(findTexture("folder.dds", model).isEmpty());
    QString err;
    CHECK(decodeTextureFile(rs::Resolver(), root + "/Data/Art/Textures/folder.dds", &err).isNull());
    CHECK(err.contains("folder.dds"));
    CHECK(err.contains("not a regular file"));
}

TEST_CASE("textures above the GPU's maximum size are refused by name before decoding", "[textures]") {
    QTemporaryDir tmp;
    REQUIRE(tmp.isValid());
    const QString path = tmp.path() + "/wide.dds";
    QByteArray d = ddsHeader(64, 4, "DXT1");
    d.append(QByteArray(16 * 8, '\0'));
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(d);
    }
    QString err;
    CHECK_FALSE(decodeTextureFile(rs::Resolver(), path, &err, 64).isNull());
    CHECK(decodeTextureFile(rs::Resolver(), path, &err, 32).isNull());
    CHECK(err.contains("wide.dds"));
    CHECK(err.contains("64x4"));
    CHECK(err.contains("maximum texture size 32"));
    // The real limit is queried once from OpenGL; whatever it is, it lies in 1..rs::kMaxTextureDim.
    CHECK(gpuMaxTextureSize() >= 1);
    CHECK(gpuMaxTextureSize() <= rs::kMaxTextureDim);
}

TEST_CASE("stand-in textures are sampled nearest: one texel fetched, what bilinear gives on a uniform image",
          "[textures]") {
    // The stand-ins (missing texture, no texture named, flat normal) are sampled for every pixel of every mesh
    // whose textures are absent; on software OpenGL a bilinear fetch reads four texels and weights them.
    using F = Qt3DRender::QAbstractTexture::Filter;
    for (unsigned rgba : {0x808080FFu, 0xFFFFFFFFu, 0x8080FFFFu, 0x00000000u}) {
        std::unique_ptr<Qt3DRender::QAbstractTexture> t(solidTexture(rgba, nullptr));
        INFO("stand-in 0x" << std::hex << rgba);
        CHECK(t->minificationFilter() == F::Nearest);
        CHECK(t->magnificationFilter() == F::Nearest);
        CHECK_FALSE(t->generateMipMaps());
    }
    // A real texture keeps its filtering (mipmapped, bilinear).
    QImage img(4, 4, QImage::Format_RGBA8888);
    img.fill(Qt::red);
    std::unique_ptr<Qt3DRender::QAbstractTexture> real(makeTexture(img, nullptr));
    CHECK(real->magnificationFilter() == F::Linear);
    CHECK(real->minificationFilter() == F::LinearMipMapNearest);
}
