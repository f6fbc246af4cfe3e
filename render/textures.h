// Texture lookup and loading for the render layer.
#pragma once

#include <QDir>

#include <QImage>
#include <QString>
#include <QStringList>

namespace Qt3DCore {
class QNode;
}
namespace Qt3DRender {
class QAbstractTexture;
}

namespace rs::render {

// Textures are looked up the way the game does (core vfs::resolveTexture) in the model's own archive (a model opened
// as "<archive>:<entry>") or folder and the session's game folders (vfs::setSessionMount): first for a model inside
// an archive or while game/mod folders are mounted, after the folders on disk (textureSearchDirs) otherwise.
// resolveTexture then returns "<archive>:<entry>" (or a mounted loose file), which decodeTextureFile reads.
// The exporter uses the same order (export/texture_lookup.h, viewerTextureLookup).

// Directories searched for a model's textures, in order: extraDirs, the model's folder, and for every
// ancestor (up to four levels): Textures/, Art/Textures/, Data/Art/Textures/, compiledtextures/<xx>/ and
// art/compiledtextures/<xx>/ (W3D: xx = first two letters of the texture name). Sub-folder names match
// case-insensitively; folders that do not exist are left out.
// The file (Files) or folder (Dirs) `name` inside dir, compared case-insensitively; empty when none. Folder listings
// are cached per folder while it is unchanged.
QString childCI(const QString& dir, const QString& name, QDir::Filters filter);

QStringList textureSearchDirs(const QString& textureName, const QString& modelPath, const QStringList& extraDirs);

// Decodes a texture file on the CPU: DDS and TGA with core's decoders (dds.h, tga.h), anything else through
// QImage (PNG, ...). Only regular files are opened. Null image and *error (naming the file) set when the file
// cannot be read or decoded, or when maxDim > 0 and the image is wider or taller than maxDim.
QImage decodeTextureFile(const QString& path, QString* error, int maxDim = 0);

// GL_MAX_TEXTURE_SIZE of this machine's OpenGL (queried once, on the first call, with an offscreen context; call it
// from the GUI thread). RIGSCOPE_GL_MAX_TEXTURE_SIZE overrides it (tests). rs::kMaxTextureDim when unknown.
int gpuMaxTextureSize();
// Tells gpuMaxTextureSize the value when it is known already (Qt3D's render capabilities queried it with their
// own context), so that it makes no GL context of its own. Only before gpuMaxTextureSize's first call.
void setGpuMaxTextureSize(int size);

// GPU texture (RGBA8, mipmapped) for a decoded image; uploaded bottom row first so that the image top is at
// v = 1, matching core's uv0 convention.
Qt3DRender::QAbstractTexture* makeTexture(const QImage& image, Qt3DCore::QNode* parent);
// 64x64 magenta/black checker shown for missing textures.
Qt3DRender::QAbstractTexture* checkerTexture(Qt3DCore::QNode* parent);
// 1x1 texture of one colour (neutral stand-in when a material names no texture).
Qt3DRender::QAbstractTexture* solidTexture(unsigned rgba, Qt3DCore::QNode* parent);

} // namespace rs::render
