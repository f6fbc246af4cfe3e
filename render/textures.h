// Texture lookup and loading for the render layer.
#pragma once

#include <QString>
#include <QStringList>

namespace Qt3DCore {
class QNode;
}
namespace Qt3DRender {
class QAbstractTexture;
}

namespace rs::render {

// Directories searched for a model's textures, in order: extraDirs, the model's folder, and for every
// ancestor (up to four levels): Textures/, Art/Textures/, Data/Art/Textures/, compiledtextures/<xx>/ and
// art/compiledtextures/<xx>/ (W3D: xx = first two letters of the texture name). Sub-folder names match
// case-insensitively; folders that do not exist are left out.
QStringList textureSearchDirs(const QString& textureName, const QString& modelPath, const QStringList& extraDirs);

// Whether a resolved texture file is a DDS (uploaded as stored: top row first, so the shader flips V).
bool isDds(const QString& path);

// A GPU texture for a resolved file (DDS through Qt3D's loader, other formats through QImage).
Qt3DRender::QAbstractTexture* loadTexture(const QString& path, Qt3DCore::QNode* parent);
// 64x64 magenta/black checker shown for missing textures.
Qt3DRender::QAbstractTexture* checkerTexture(Qt3DCore::QNode* parent);
// 1x1 texture of one colour (neutral stand-in when a material names no texture).
Qt3DRender::QAbstractTexture* solidTexture(unsigned rgba, Qt3DCore::QNode* parent);

} // namespace rs::render
