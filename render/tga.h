// QImage wrapper over core's TGA decoder (core/texture/tga.cpp). Qt's own TGA plugin only reads files with the
// TGA 2.0 footer; game files often lack it.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

namespace rs::render {

// ARGB32 (not premultiplied), row 0 = image top; null image + *error on failure.
QImage decodeTga(const QByteArray& bytes, QString* error, const QString& name = QStringLiteral("texture.tga"));

} // namespace rs::render
