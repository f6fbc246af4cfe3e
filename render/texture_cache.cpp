#include "texture_cache.h"

#include "textures.h"

#include "resolve/resolver.h"

#include <QFile>

#include <Qt3DRender/QTexture>

namespace rs::render {

namespace {
constexpr unsigned kCheckerRgba = 0xA8A8A8FFu;
}

QVector4D TextureCache::checkerColor() {
    return QVector4D(float((kCheckerRgba >> 24) & 255u) / 255.0f, float((kCheckerRgba >> 16) & 255u) / 255.0f,
                     float((kCheckerRgba >> 8) & 255u) / 255.0f, float(kCheckerRgba & 255u) / 255.0f);
}

TextureCache::TextureCache(Qt3DCore::QNode* root) {
    // Missing textures: a neutral shade in the view (the material inspector shows what is missing).
    checker_ = solidTexture(kCheckerRgba, root);
    checkerHalf_ = solidTexture((((kCheckerRgba >> 24) / 2u) << 24) | ((((kCheckerRgba >> 16) & 255u) / 2u) << 16) |
                                    ((((kCheckerRgba >> 8) & 255u) / 2u) << 8) | 255u,
                                root);
    white_ = solidTexture(0xFFFFFFFFu, root);
    flatNormal_ = solidTexture(0x8080FFFFu, root);
    clear_ = solidTexture(0x00000000u, root);
}

void TextureCache::reset(const QString& modelPath, std::shared_ptr<const rs::Resolver> resolver) {
    cache_.clear();
    cubes_.clear();
    infos_.clear();
    modelPath_ = modelPath;
    resolver_ = std::move(resolver);
}

namespace {
// The row a use of texture NAME gets in the Textures list, with the path the resolver finds for it from the model's
// folder (empty when none is found).
TextureInfo lookUp(const Resolver& resolver, const QString& modelPath, const std::string& name, const QString& mesh,
                   int subMesh, const QString& parameter) {
    TextureInfo info;
    info.mesh = mesh;
    info.subMesh = subMesh;
    info.parameter = parameter;
    info.name = QString::fromStdString(name);
    info.path = QFile::decodeName(QByteArray::fromStdString(
        resolver.findTexture(info.name.toStdString(), QFile::encodeName(modelPath).toStdString())));
    return info;
}
} // namespace

Qt3DRender::QAbstractTexture* TextureCache::get(const std::string& name, const QString& mesh, int subMesh,
                                                const QString& parameter, Qt3DCore::QNode* owner) {
    TextureInfo info = lookUp(*resolver_, modelPath_, name, mesh, subMesh, parameter);
    if (info.path.isEmpty()) {
        infos_.push_back(info);
        return checker_;
    }
    const QString key = info.path.toLower();
    auto it = cache_.find(key);
    if (it == cache_.end()) {
        Use use;
        QString error;
        const QImage img = decodeTextureFile(*resolver_, info.path, &error, gpuMaxTextureSize());
        // Parented to the first material using it: a texture node created under modelRoot and referenced only
        // by a material built later (the dazzle draw) was never uploaded by Qt3D 6.4 (sampled as the default).
        use.texture = img.isNull() ? nullptr : makeTexture(img, owner);
        use.error = error;
        it = cache_.insert(key, use);
    }
    info.loaded = it->texture != nullptr;
    info.error = it->error;
    infos_.push_back(info);
    return it->texture ? it->texture : checker_;
}

Qt3DRender::QAbstractTexture* TextureCache::getCube(const std::string& name, const QString& mesh, int subMesh,
                                                    const QString& parameter, Qt3DCore::QNode* owner) {
    TextureInfo info = lookUp(*resolver_, modelPath_, name, mesh, subMesh, parameter);
    if (info.path.isEmpty()) {
        infos_.push_back(info);
        return nullptr;
    }
    const QString key = info.path.toLower();
    auto it = cubes_.find(key);
    if (it == cubes_.end()) {
        Use use;
        QImage faces[6];
        if (decodeCubeFile(*resolver_, info.path, faces, &use.error, gpuMaxTextureSize()))
            use.texture = makeCubeTexture(faces, owner);
        it = cubes_.insert(key, use);
    }
    info.loaded = it->texture != nullptr;
    info.error = it->error;
    infos_.push_back(info);
    return it->texture;
}

} // namespace rs::render
