// Truevision TGA decoder (Qt's plugin only reads files with the TGA 2.0 footer; game files often lack it).
//
//   0  u8 idLength, u8 colorMapType, u8 imageType (1/2/3 raw, 9/10/11 RLE: colour-mapped, true-colour, grey)
//   3  colour map spec: u16 firstEntry, u16 length, u8 entryBits
//   8  image spec: u16 xOrigin, u16 yOrigin, u16 width, u16 height, u8 bitsPerPixel, u8 descriptor
//      (bits 0-3 alpha bits, bit 4 right-to-left, bit 5 top-to-bottom)
//   18 image id (idLength bytes), colour map, pixel data (RLE packets: u8 header, bit 7 = run, count = low 7 + 1)
#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

namespace rs::render {

// ARGB32 (not premultiplied), row 0 = image top; null image + error on failure.
QImage decodeTga(const QByteArray& bytes, QString* error);

} // namespace rs::render
