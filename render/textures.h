// Texture lookup and loading for the render layer.
#pragma once

#include <QImage>

#include <memory>
#include <QString>
#include <QStringList>

namespace Qt3DCore {
class QNode;
}
namespace Qt3DRender {
class QAbstractTexture;
}

namespace rs::vfs {
class MountTable;
}

namespace rs::render {

// Game and mod folders mounted by the viewer (core vfs): textures not found on disk are then looked up through
// them the way the game does (vfs::resolveTextureFor) and read from their archives; resolveTexture returns
// "<archive>:<entry>" for those, which decodeTextureFile reads. Null (the default): disk only. Thread-safe.
void setTextureMount(std::shared_ptr<const vfs::MountTable> table);
std::shared_ptr<const vfs::MountTable> textureMount();

// Directories searched for a model's textures, in order: extraDirs, the model's folder, and for every
// ancestor (up to four levels): Textures/, Art/Textures/, Data/Art/Textures/, compiledtextures/<xx>/ and
// art/compiledtextures/<xx>/ (W3D: xx = first two letters of the texture name). Sub-folder names match
// case-insensitively; folders that do not exist are left out.
QStringList textureSearchDirs(const QString& textureName, const QString& modelPath, const QStringList& extraDirs);

// Decodes a texture file on the CPU: DDS with the project's decoder (dds.h), anything else through QImage
// (TGA, PNG, ...). Null image and *error set when the file cannot be read or decoded.
QImage decodeTextureFile(const QString& path, QString* error);

// GPU texture (RGBA8, mipmapped) for a decoded image; uploaded bottom row first so that the image top is at
// v = 1, matching core's uv0 convention.
Qt3DRender::QAbstractTexture* makeTexture(const QImage& image, Qt3DCore::QNode* parent);
// 64x64 magenta/black checker shown for missing textures.
Qt3DRender::QAbstractTexture* checkerTexture(Qt3DCore::QNode* parent);
// 1x1 texture of one colour (neutral stand-in when a material names no texture).
Qt3DRender::QAbstractTexture* solidTexture(unsigned rgba, Qt3DCore::QNode* parent);

} // namespace rs::render
