#include "dds.h"

#include <cstdint>
#include <cstring>

namespace rs::render {

namespace {

uint32_t u32(const uchar* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint16_t u16(const uchar* p) { return uint16_t(p[0] | p[1] << 8); }

QRgb rgb565(uint16_t c) {
    const int r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    return qRgb((r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2));
}

// Colour block (8 bytes); dxt1 enables the 3-colour + transparent mode.
void colorBlock(const uchar* b, bool dxt1, QRgb out[16]) {
    const uint16_t c0 = u16(b), c1 = u16(b + 2);
    QRgb pal[4];
    pal[0] = rgb565(c0);
    pal[1] = rgb565(c1);
    auto mix = [](QRgb a, QRgb c, int wa, int wc, int div) {
        return qRgb((qRed(a) * wa + qRed(c) * wc) / div, (qGreen(a) * wa + qGreen(c) * wc) / div,
                    (qBlue(a) * wa + qBlue(c) * wc) / div);
    };
    if (!dxt1 || c0 > c1) {
        pal[2] = mix(pal[0], pal[1], 2, 1, 3);
        pal[3] = mix(pal[0], pal[1], 1, 2, 3);
    } else {
        pal[2] = mix(pal[0], pal[1], 1, 1, 2);
        pal[3] = qRgba(0, 0, 0, 0);
    }
    const uint32_t bits = u32(b + 4);
    for (int i = 0; i < 16; ++i)
        out[i] = pal[(bits >> (2 * i)) & 3];
}

int maskShift(uint32_t m) {
    int s = 0;
    while (m && !(m & 1)) {
        m >>= 1;
        ++s;
    }
    return s;
}

int channel(uint32_t v, uint32_t mask) {
    if (!mask) return -1;
    const uint32_t x = (v & mask) >> maskShift(mask);
    const uint32_t max = mask >> maskShift(mask);
    return max ? int((x * 255 + max / 2) / max) : 0;
}

} // namespace

QImage decodeDds(const QByteArray& bytes, QString* error) {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return QImage();
    };
    if (bytes.size() < 128 || std::memcmp(bytes.constData(), "DDS ", 4) != 0) return fail("not a DDS file");
    const uchar* d = reinterpret_cast<const uchar*>(bytes.constData());
    const uint32_t height = u32(d + 12), width = u32(d + 16);
    if (width == 0 || height == 0 || width > 16384 || height > 16384)
        return fail(QString("DDS size %1x%2 out of range").arg(width).arg(height));
    const uchar* pf = d + 76;
    const uint32_t pfFlags = u32(pf + 4), fourCC = u32(pf + 8), bitCount = u32(pf + 12);
    const uchar* data = d + 128;
    const qint64 avail = bytes.size() - 128;
    QImage img(int(width), int(height), QImage::Format_ARGB32);
    if (img.isNull()) return fail("out of memory");
    if (pfFlags & 0x4) {
        char cc[5] = {char(fourCC), char(fourCC >> 8), char(fourCC >> 16), char(fourCC >> 24), 0};
        int kind = 0; // 1 DXT1, 3 DXT2/3, 5 DXT4/5
        if (!std::strcmp(cc, "DXT1"))
            kind = 1;
        else if (!std::strcmp(cc, "DXT2") || !std::strcmp(cc, "DXT3"))
            kind = 3;
        else if (!std::strcmp(cc, "DXT4") || !std::strcmp(cc, "DXT5"))
            kind = 5;
        else
            return fail(QString("unsupported DDS compression '%1'").arg(QString::fromLatin1(cc)));
        const qint64 bw = (width + 3) / 4, bh = (height + 3) / 4;
        const qint64 blockBytes = kind == 1 ? 8 : 16;
        if (bw * bh * blockBytes > avail) return fail("DDS data truncated");
        QRgb px[16];
        for (qint64 by = 0; by < bh; ++by)
            for (qint64 bx = 0; bx < bw; ++bx) {
                const uchar* blk = data + (by * bw + bx) * blockBytes;
                int alpha[16];
                for (int& a : alpha)
                    a = 255;
                if (kind == 3) {
                    for (int i = 0; i < 16; ++i) {
                        const int nib = (blk[i / 2] >> ((i & 1) * 4)) & 15;
                        alpha[i] = nib * 17;
                    }
                    blk += 8;
                } else if (kind == 5) {
                    const int a0 = blk[0], a1 = blk[1];
                    int pal[8] = {a0, a1};
                    if (a0 > a1)
                        for (int i = 2; i < 8; ++i)
                            pal[i] = ((8 - i) * a0 + (i - 1) * a1) / 7;
                    else {
                        for (int i = 2; i < 6; ++i)
                            pal[i] = ((6 - i) * a0 + (i - 1) * a1) / 5;
                        pal[6] = 0;
                        pal[7] = 255;
                    }
                    uint64_t bits = 0;
                    for (int i = 0; i < 6; ++i)
                        bits |= uint64_t(blk[2 + i]) << (8 * i);
                    for (int i = 0; i < 16; ++i)
                        alpha[i] = pal[(bits >> (3 * i)) & 7];
                    blk += 8;
                }
                colorBlock(blk, kind == 1, px);
                for (int i = 0; i < 16; ++i) {
                    const qint64 x = bx * 4 + (i & 3), y = by * 4 + (i >> 2);
                    if (x >= width || y >= height) continue;
                    const QRgb c = px[i];
                    const int a = kind == 1 ? qAlpha(c) : alpha[i];
                    reinterpret_cast<QRgb*>(img.scanLine(int(y)))[x] = qRgba(qRed(c), qGreen(c), qBlue(c), a);
                }
            }
        return img;
    }
    if (!(pfFlags & (0x40 | 0x20000 | 0x2))) return fail("unsupported DDS pixel format");
    if (bitCount != 8 && bitCount != 16 && bitCount != 24 && bitCount != 32)
        return fail(QString("unsupported DDS bit count %1").arg(bitCount));
    const qint64 bpp = bitCount / 8;
    const qint64 pitch = qint64(width) * bpp;
    if (pitch * height > avail) return fail("DDS data truncated");
    const uint32_t rm = u32(pf + 16), gm = u32(pf + 20), bm = u32(pf + 24);
    const uint32_t am = (pfFlags & 0x1) || (pfFlags & 0x2) ? u32(pf + 28) : 0;
    const bool lum = pfFlags & 0x20000;
    for (uint32_t y = 0; y < height; ++y) {
        QRgb* out = reinterpret_cast<QRgb*>(img.scanLine(int(y)));
        const uchar* row = data + qint64(y) * pitch;
        for (uint32_t x = 0; x < width; ++x) {
            uint32_t v = 0;
            for (qint64 k = 0; k < bpp; ++k)
                v |= uint32_t(row[qint64(x) * bpp + k]) << (8 * k);
            const int a = am ? channel(v, am) : 255;
            if (lum) {
                const int l = channel(v, rm ? rm : 0xFF);
                out[x] = qRgba(l, l, l, a);
            } else {
                const int r = channel(v, rm), g = channel(v, gm), b = channel(v, bm);
                out[x] = qRgba(r < 0 ? 0 : r, g < 0 ? 0 : g, b < 0 ? 0 : b, a);
            }
        }
    }
    return img;
}

} // namespace rs::render
