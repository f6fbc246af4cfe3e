#include "texture_lookup.h"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>

#include <cstring>

#ifdef RIGSCOPE_HAVE_SCENE_VIEW
#include "scene_view.h"
#endif

namespace rs::ui {

QStringList textureSearchDirs(const QString& modelPath, const QStringList& userDirs) {
    QStringList dirs;
    if (!modelPath.isEmpty()) {
        const QDir d = QFileInfo(modelPath).absoluteDir();
        dirs << d.absolutePath() << d.absoluteFilePath(QStringLiteral("../Textures"))
             << d.absoluteFilePath(QStringLiteral("../../Textures"));
    }
    dirs << userDirs;
    QStringList out;
    for (const QString& s : dirs) {
        const QString c = QDir::cleanPath(s);
        if (!out.contains(c) && QFileInfo(c).isDir()) out << c;
    }
    return out;
}

static QString findInDir(const QString& dir, const QString& fileName) {
    const QString direct = QDir(dir).filePath(fileName);
    if (QFileInfo::exists(direct)) return direct;
    const QStringList entries = QDir(dir).entryList(QDir::Files);
    for (const QString& e : entries)
        if (e.compare(fileName, Qt::CaseInsensitive) == 0) return QDir(dir).filePath(e);
    return {};
}

QString resolveTexture(const QString& name, const QStringList& dirs) {
    QString base = name.trimmed();
    base.replace(QLatin1Char('\\'), QLatin1Char('/'));
    base = base.section(QLatin1Char('/'), -1);
    if (base.isEmpty()) return {};
    QStringList candidates{base};
    const QString stem = QFileInfo(base).completeBaseName();
    const QString suffix = QFileInfo(base).suffix().toLower();
    if (suffix == QLatin1String("tga")) candidates << stem + QStringLiteral(".dds");
    else if (suffix == QLatin1String("dds")) candidates << stem + QStringLiteral(".tga");
    for (const QString& dir : dirs)
        for (const QString& c : candidates)
            if (QString f = findInDir(dir, c); !f.isEmpty()) return f;
    return {};
}

QString resolveModelTexture(const QString& name, const QString& modelPath, const QStringList& userDirs) {
#ifdef RIGSCOPE_HAVE_SCENE_VIEW
    return render::resolveTexture(name, modelPath, userDirs);
#else
    return resolveTexture(name, textureSearchDirs(modelPath, userDirs));
#endif
}

namespace {
uint32_t rd32(const uchar* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

QRgb rgb565(uint16_t c) {
    const int r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    return qRgb(r * 255 / 31, g * 255 / 63, b * 255 / 31);
}

void decodeColorBlock(const uchar* b, QRgb out[16], bool dxt1) {
    const uint16_t c0 = uint16_t(b[0] | b[1] << 8), c1 = uint16_t(b[2] | b[3] << 8);
    QRgb pal[4];
    pal[0] = rgb565(c0);
    pal[1] = rgb565(c1);
    auto mix = [](QRgb a, QRgb c, int wa, int wc, int d) {
        return qRgba((qRed(a) * wa + qRed(c) * wc) / d, (qGreen(a) * wa + qGreen(c) * wc) / d,
                     (qBlue(a) * wa + qBlue(c) * wc) / d, 255);
    };
    if (c0 > c1 || !dxt1) {
        pal[2] = mix(pal[0], pal[1], 2, 1, 3);
        pal[3] = mix(pal[0], pal[1], 1, 2, 3);
    } else {
        pal[2] = mix(pal[0], pal[1], 1, 1, 2);
        pal[3] = qRgba(0, 0, 0, 0);
    }
    const uint32_t bits = rd32(b + 4);
    for (int i = 0; i < 16; ++i) out[i] = pal[(bits >> (2 * i)) & 3];
}
} // namespace

QImage decodeDds(const QByteArray& data) {
    const auto* p = reinterpret_cast<const uchar*>(data.constData());
    const qsizetype n = data.size();
    if (n < 128 || std::memcmp(p, "DDS ", 4) != 0 || rd32(p + 4) != 124) return {};
    const uint32_t height = rd32(p + 12), width = rd32(p + 16);
    if (width == 0 || height == 0 || width > 16384 || height > 16384) return {};
    const uint32_t pfFlags = rd32(p + 80), fourCC = rd32(p + 84), bpp = rd32(p + 88);
    const uchar* src = p + 128;
    const qsizetype avail = n - 128;
    QImage img(int(width), int(height), QImage::Format_ARGB32);
    if (pfFlags & 0x4) { // FOURCC
        int kind = 0;
        if (fourCC == 0x31545844) kind = 1;      // DXT1
        else if (fourCC == 0x33545844) kind = 3; // DXT3
        else if (fourCC == 0x35545844) kind = 5; // DXT5
        if (!kind) return {};
        const qsizetype blockSize = kind == 1 ? 8 : 16;
        const qsizetype bw = (width + 3) / 4, bh = (height + 3) / 4;
        if (bw * bh * blockSize > avail) return {};
        for (qsizetype by = 0; by < bh; ++by)
            for (qsizetype bx = 0; bx < bw; ++bx) {
                const uchar* blk = src + (by * bw + bx) * blockSize;
                QRgb px[16];
                decodeColorBlock(blk + (kind == 1 ? 0 : 8), px, kind == 1);
                int alpha[16];
                for (int i = 0; i < 16; ++i) alpha[i] = qAlpha(px[i]);
                if (kind == 3) {
                    for (int i = 0; i < 16; ++i) alpha[i] = ((blk[i / 2] >> (4 * (i & 1))) & 15) * 17;
                } else if (kind == 5) {
                    int a[8];
                    a[0] = blk[0];
                    a[1] = blk[1];
                    for (int i = 2; i < 8; ++i)
                        a[i] = a[0] > a[1] ? ((8 - i) * a[0] + (i - 1) * a[1]) / 7
                               : i < 6     ? ((6 - i) * a[0] + (i - 1) * a[1]) / 5
                               : i == 6    ? 0
                                           : 255;
                    uint64_t bits = 0;
                    for (int i = 0; i < 6; ++i) bits |= uint64_t(blk[2 + i]) << (8 * i);
                    for (int i = 0; i < 16; ++i) alpha[i] = a[(bits >> (3 * i)) & 7];
                }
                for (int i = 0; i < 16; ++i) {
                    const qsizetype x = bx * 4 + i % 4, y = by * 4 + i / 4;
                    if (x < width && y < height)
                        img.setPixel(int(x), int(y), qRgba(qRed(px[i]), qGreen(px[i]), qBlue(px[i]), alpha[i]));
                }
            }
        return img;
    }
    if ((pfFlags & 0x40) && (bpp == 32 || bpp == 24)) { // RGB
        const uint32_t rm = rd32(p + 92), gm = rd32(p + 96), bm = rd32(p + 100), am = (pfFlags & 0x1) ? rd32(p + 104) : 0;
        const qsizetype stride = qsizetype(width) * (bpp / 8);
        if (stride * height > avail) return {};
        auto chan = [](uint32_t v, uint32_t mask) -> int {
            if (!mask) return 255;
            int shift = 0;
            while (!((mask >> shift) & 1)) ++shift;
            const uint32_t max = mask >> shift;
            return int(((v & mask) >> shift) * 255 / max);
        };
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x) {
                const uchar* q = src + y * stride + x * (bpp / 8);
                const uint32_t v = bpp == 32 ? rd32(q) : uint32_t(q[0] | q[1] << 8 | q[2] << 16);
                img.setPixel(int(x), int(y), qRgba(chan(v, rm), chan(v, gm), chan(v, bm), am ? chan(v, am) : 255));
            }
        return img;
    }
    return {};
}

QImage loadThumbnail(const QString& path, int maxSide) {
    QImage img;
    if (QFileInfo(path).suffix().compare(QLatin1String("dds"), Qt::CaseInsensitive) == 0) {
        QFile f(path);
        if (f.size() > (qint64(256) << 20) || !f.open(QIODevice::ReadOnly)) return {};
        img = decodeDds(f.readAll());
    } else {
        QImageReader r(path);
        r.setAutoTransform(false);
        img = r.read();
    }
    if (img.isNull()) return {};
    if (img.width() > maxSide || img.height() > maxSide)
        img = img.scaled(maxSide, maxSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return img;
}

} // namespace rs::ui
