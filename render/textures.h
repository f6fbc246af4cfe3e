// Texture lookup and loading for the render layer.
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

namespace rs {
class Resolver;
}
namespace Qt3DCore {
class QNode;
}
namespace Qt3DRender {
class QAbstractTexture;
}

namespace rs::render {

// Decodes a texture on the CPU: DDS and TGA with core's decoders (dds.h, tga.h), anything else through QImage
// (PNG, ...). `path` is what Resolver::findTexture gave (a file, "<archive>:<entry>"), read with
// Resolver::readBytes (only regular files are opened). Null image and *error (naming the file) set when the file
// cannot be read or decoded, or when maxDim > 0 and the image is wider or taller than maxDim.
QImage decodeTextureFile(const rs::Resolver& resolver, const QString& path, QString* error, int maxDim = 0);

// GL_MAX_TEXTURE_SIZE of this machine's OpenGL (queried once, on the first call, with an offscreen context; call it
// from the GUI thread). RIGSCOPE_GL_MAX_TEXTURE_SIZE overrides it (tests). rs::kMaxTextureDim when unknown.
int gpuMaxTextureSize();
// Tells gpuMaxTextureSize the value when it is known already (Qt3D's render capabilities queried it with their
// own context), so that it makes no GL context of its own. Only before gpuMaxTextureSize's first call.
void setGpuMaxTextureSize(int size);

// GPU texture (RGBA8, mipmapped) for a decoded image; uploaded bottom row first so that the image top is at
// v = 1, matching core's uv0 convention.
Qt3DRender::QAbstractTexture* makeTexture(const QImage& image, Qt3DCore::QNode* parent);
// A DDS cube map (core/texture/dds_cube.h) read through the resolver as decodeTextureFile reads a texture: the six
// faces (+X, -X, +Y, -Y, +Z, -Z, row 0 each face's top) as ARGB32, or false with *error naming the file (not
// found, not a cube map, malformed, a face larger than maxDim).
bool decodeCubeFile(const rs::Resolver& resolver, const QString& path, QImage (&faces)[6], QString* error,
                    int maxDim = 0);
// GPU cube texture (RGBA8, linear, clamped: ObjectsGenericEnvMap.fx's sampler) of six faces, each uploaded as
// stored (OpenGL's cube faces take row 0 at t = 0 as Direct3D's take it at v = 0).
Qt3DRender::QAbstractTexture* makeCubeTexture(const QImage (&faces)[6], Qt3DCore::QNode* parent);
// 64x64 magenta/black checker shown for missing textures.
Qt3DRender::QAbstractTexture* checkerTexture(Qt3DCore::QNode* parent);
// 1x1 texture of one colour (neutral stand-in when a material names no texture).
Qt3DRender::QAbstractTexture* solidTexture(unsigned rgba, Qt3DCore::QNode* parent);

} // namespace rs::render
