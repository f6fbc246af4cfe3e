#include "dds.h"

#include <new>

namespace rs::render {

QImage toQImage(const rs::Image& img) {
    QImage out(img.width, img.height, QImage::Format_ARGB32);
    if (out.isNull()) return out;
    for (int y = 0; y < img.height; ++y) {
        const uint8_t* p = img.rgba.data() + size_t(y) * size_t(img.width) * 4;
        QRgb* o = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < img.width; ++x, p += 4)
            o[x] = qRgba(p[0], p[1], p[2], p[3]);
    }
    return out;
}

QImage decodeWith(rs::Image (*decode)(rs::ByteSpan, const std::string&), const QByteArray& bytes, QString* error,
                  const QString& name) {
    const std::string label = name.toStdString();
    try {
        const rs::Image img =
            decode(rs::ByteSpan(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size())), label);
        QImage out = toQImage(img);
        if (out.isNull() && error)
            *error = name + ": out of memory for " + QString::number(img.width) + "x" + QString::number(img.height) +
                     " pixels";
        return out;
    } catch (const rs::ParseError& e) {
        if (error) *error = QString::fromStdString(e.what());
    } catch (const std::bad_alloc&) {
        if (error) *error = name + ": out of memory";
    }
    return {};
}

QImage decodeDds(const QByteArray& bytes, QString* error, const QString& name) {
    return decodeWith(&rs::decodeDds, bytes, error, name);
}

} // namespace rs::render
