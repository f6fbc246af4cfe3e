#include "tga.h"

#include <vector>

namespace rs::render {

QImage decodeTga(const QByteArray& bytes, QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return QImage();
    };
    const qint64 size = bytes.size();
    if (size < 18) return fail("TGA header truncated");
    const uchar* d = reinterpret_cast<const uchar*>(bytes.constData());
    const int idLength = d[0], cmapType = d[1], type = d[2];
    const int cmapFirst = d[3] | d[4] << 8, cmapLength = d[5] | d[6] << 8, cmapBits = d[7];
    const int width = d[12] | d[13] << 8, height = d[14] | d[15] << 8, bpp = d[16], desc = d[17];
    const int base = type & 7;
    const bool rle = type & 8;
    if (base < 1 || base > 3 || (type & ~0xB)) return fail(QString("unsupported TGA image type %1").arg(type));
    if (width == 0 || height == 0) return fail("TGA has no pixels");
    if (base == 2 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32) return fail("unsupported TGA depth");
    if ((base == 1 || base == 3) && bpp != 8 && !(base == 3 && bpp == 16)) return fail("unsupported TGA depth");
    qint64 pos = 18 + idLength;
    std::vector<QRgb> palette;
    auto pixelFrom = [&](const uchar* p, int bits) -> QRgb {
        switch (bits) {
        case 15:
        case 16: {
            const int v = p[0] | p[1] << 8;
            const int r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
            return qRgba(r << 3 | r >> 2, g << 3 | g >> 2, b << 3 | b >> 2,
                         bits == 16 && !(v & 0x8000) && (desc & 15) ? 0 : 255);
        }
        case 24:
            return qRgb(p[2], p[1], p[0]);
        case 32:
            return qRgba(p[2], p[1], p[0], (desc & 15) ? p[3] : 255);
        default:
            return qRgb(p[0], p[0], p[0]);
        }
    };
    if (cmapType == 1) {
        const int eb = (cmapBits + 7) / 8;
        if (eb < 2 || eb > 4) return fail("unsupported TGA colour map depth");
        if (pos + qint64(cmapLength) * eb > size) return fail("TGA colour map truncated");
        for (int i = 0; i < cmapLength; ++i)
            palette.push_back(pixelFrom(d + pos + qint64(i) * eb, cmapBits == 32 ? 32 : cmapBits));
        pos += qint64(cmapLength) * eb;
    } else if (base == 1) {
        return fail("colour-mapped TGA without a colour map");
    }
    const int pb = (bpp + 7) / 8;
    QImage img(width, height, QImage::Format_ARGB32);
    if (img.isNull()) return fail("out of memory");
    auto decodePixel = [&](const uchar* p) -> QRgb {
        if (base == 1) {
            const int idx = (pb == 2 ? (p[0] | p[1] << 8) : p[0]) - cmapFirst;
            return idx >= 0 && size_t(idx) < palette.size() ? palette[size_t(idx)] : qRgb(0, 0, 0);
        }
        if (base == 3) return bpp == 16 ? qRgba(p[0], p[0], p[0], p[1]) : qRgb(p[0], p[0], p[0]);
        return pixelFrom(p, bpp);
    };
    const qint64 total = qint64(width) * height;
    qint64 n = 0;
    auto put = [&](QRgb c) {
        const int x0 = int(n % width), y0 = int(n / width);
        const int x = (desc & 0x10) ? width - 1 - x0 : x0;
        const int y = (desc & 0x20) ? y0 : height - 1 - y0;
        reinterpret_cast<QRgb*>(img.scanLine(y))[x] = c;
        ++n;
    };
    if (!rle) {
        if (pos + total * pb > size) return fail("TGA pixel data truncated");
        for (qint64 i = 0; i < total; ++i)
            put(decodePixel(d + pos + i * pb));
        return img;
    }
    while (n < total) {
        if (pos >= size) return fail("TGA RLE data truncated");
        const int h = d[pos++];
        const qint64 count = std::min<qint64>((h & 0x7F) + 1, total - n);
        if (h & 0x80) {
            if (pos + pb > size) return fail("TGA RLE data truncated");
            const QRgb c = decodePixel(d + pos);
            pos += pb;
            for (qint64 i = 0; i < count; ++i)
                put(c);
        } else {
            if (pos + count * pb > size) return fail("TGA RLE data truncated");
            for (qint64 i = 0; i < count; ++i)
                put(decodePixel(d + pos + i * pb));
            pos += count * pb;
        }
    }
    return img;
}

} // namespace rs::render
