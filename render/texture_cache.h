// TextureCache: the textures of the model being shown, each file decoded once, and the record of every texture
// use (found, missing, unreadable) that SceneView::textures() reports.
#pragma once

#include "scene_view.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QVector4D>

#include <memory>
#include <string>

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

class TextureCache {
  public:
    // Creates the stand-in textures (owned by root).
    explicit TextureCache(Qt3DCore::QNode* root);

    // Forgets every texture and record; lookups are then relative to modelPath and extraDirs.
    void reset(const QString& modelPath, std::shared_ptr<const rs::Resolver> resolver);

    // Texture for name used by (mesh, subMesh, parameter): resolved with resolveTexture, decoded once per file,
    // recorded in infos(). Returns checker() when not found or not decodable. owner: the node that owns a newly
    // made texture (the first material using it).
    Qt3DRender::QAbstractTexture* get(const std::string& name, const QString& mesh, int subMesh,
                                      const QString& parameter, Qt3DCore::QNode* owner);
    // The same for a cube map (ObjectsGenericEnvMap.fx's EnvironmentTexture: a DDS cube, decodeCubeFile), recorded
    // in infos() alike; null when not found, not a cube map or not decodable (the caller's stand-in is then drawn).
    Qt3DRender::QAbstractTexture* getCube(const std::string& name, const QString& mesh, int subMesh,
                                          const QString& parameter, Qt3DCore::QNode* owner);
    const QList<TextureInfo>& infos() const { return infos_; }

    Qt3DRender::QAbstractTexture* checker() const { return checker_; } // neutral grey: texture missing
    static QVector4D checkerColor();                                   // its one texel, RGBA 0..1
    // Half of checker()'s grey (alpha 1): the stand-in for a formula that doubles its texture (Alamo's 2x
    // modulate), so that a missing texture shows the same neutral grey there instead of white.
    Qt3DRender::QAbstractTexture* checkerHalf() const { return checkerHalf_; }
    Qt3DRender::QAbstractTexture* white() const { return white_; } // material names no texture
    Qt3DRender::QAbstractTexture* flatNormal() const { return flatNormal_; }
    Qt3DRender::QAbstractTexture* clear() const { return clear_; } // transparent black: optional layer absent

  private:
    struct Use {
        Qt3DRender::QAbstractTexture* texture = nullptr; // null when the file could not be decoded
        QString error;
    };
    QHash<QString, Use> cache_, cubes_; // by resolved path (lower-case)
    QList<TextureInfo> infos_;
    QString modelPath_;
    std::shared_ptr<const rs::Resolver> resolver_;
    Qt3DRender::QAbstractTexture *checker_ = nullptr, *checkerHalf_ = nullptr, *white_ = nullptr,
                                 *flatNormal_ = nullptr, *clear_ = nullptr;
};

} // namespace rs::render
