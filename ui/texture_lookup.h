// Texture file lookup and thumbnails for the material inspector.
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

namespace rs::ui {

// Folders searched for a model's textures, in order: the model's folder, ../Textures (the
// Data/Art/Models -> Data/Art/Textures convention), ../../Textures, then the user's folders.
QStringList textureSearchDirs(const QString& modelPath, const QStringList& userDirs);

// Finds `name` (as stored in a material, may contain a path) case-insensitively in dirs; tries the other
// of .dds/.tga too (Alamo materials name .tga files that ship as .dds). Empty when not found.
QString resolveTexture(const QString& name, const QStringList& dirs);

// What the material inspector shows for a texture name: render's resolver (the same lookup the 3D view
// uses) when it is part of the build, else resolveTexture over textureSearchDirs().
QString resolveModelTexture(const QString& name, const QString& modelPath, const QStringList& userDirs);

// Decodes an image for display: formats Qt reads (TGA, PNG, ...) plus DDS (DXT1/3/5, 24/32-bit
// uncompressed; top mip level only), scaled to fit maxSide. Null image when unreadable.
QImage loadThumbnail(const QString& path, int maxSide);

// DDS top-level decoder (bounds-checked). Null image when the data is not a supported DDS.
QImage decodeDds(const QByteArray& data);

} // namespace rs::ui
