// DirectDraw Surface (.dds) decoder for the top mip level of 2D textures.
//
//   0   "DDS "                      magic
//   4   DDS_HEADER (124 bytes)      size=124, flags, height, width, pitchOrLinearSize, depth, mipMapCount,
//                                   reserved[11], DDS_PIXELFORMAT (32 bytes at offset 76), caps[4], reserved
//   76  DDS_PIXELFORMAT             size=32, flags (4 FOURCC, 0x40 RGB, 0x1 ALPHAPIXELS, 0x20000 LUMINANCE),
//                                   fourCC, rgbBitCount, rMask, gMask, bMask, aMask
//   128 top mip level               DXT1: 8 bytes per 4x4 block; DXT2/3 and DXT4/5: 16 bytes per block;
//                                   uncompressed: rows of rgbBitCount/8 bytes per pixel (masks give channels)
// Supported: DXT1 (with 1-bit alpha), DXT2/DXT3, DXT4/DXT5, uncompressed 8/16/24/32-bit masked RGB(A) and
// luminance. Anything else (DX10 headers, volume textures, cube maps' extra faces) is refused or ignored.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

namespace rs::render {

// Returns the top mip level as ARGB32 (not premultiplied), row 0 = image top; null image + error on failure.
QImage decodeDds(const QByteArray& bytes, QString* error);

} // namespace rs::render
