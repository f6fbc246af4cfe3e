#include "tga.h"

#include "dds.h"

namespace rs::render {

QImage decodeTga(const QByteArray& bytes, QString* error, const QString& name) {
    return decodeWith(&rs::decodeTga, bytes, error, name);
}

} // namespace rs::render
