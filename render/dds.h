// QImage wrappers over core's texture decoders (core/texture/texture.h: layouts, bounds, refusals).
#pragma once

#include "texture/texture.h"

#include <QByteArray>
#include <QImage>
#include <QString>

namespace rs::render {

// Top mip level as ARGB32 (not premultiplied), row 0 = image top; null image + *error (the ParseError's
// one-line message, naming `name`) on failure, including running out of memory.
QImage decodeDds(const QByteArray& bytes, QString* error, const QString& name = QStringLiteral("texture.dds"));

// core's RGBA8 image as ARGB32.
QImage toQImage(const rs::Image& img);

// Runs one of core's decoders over bytes (shared by the DDS and TGA wrappers).
QImage decodeWith(rs::Image (*decode)(rs::ByteSpan, const std::string&), const QByteArray& bytes, QString* error,
                  const QString& name);

} // namespace rs::render
