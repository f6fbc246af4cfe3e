#include "lights.h"

#include "frame_graph.h"

#include <QVariantList>

#include <cmath>

namespace rs::render {

void uploadLights(SharedUniforms& u, const rs::Model* model, const std::vector<glm::mat4>& world,
                  const std::vector<uint8_t>& visible, bool useModelLights, bool zUp) {
    QVariantList pos, col;
    const std::vector<std::pair<glm::vec4, glm::vec4>> lights = viewLights(model, world, visible, useModelLights, zUp);
    for (const auto& l : lights) {
        pos.push_back(toQ4(l.first));
        col.push_back(toQ4(l.second));
    }
    while (pos.size() < 4) {
        pos.push_back(QVector4D(0, 0, -1, 0));
        col.push_back(QVector4D(0, 0, 0, 0));
    }
    u.lightPosition.set(pos);
    u.lightColor.set(col);
    u.lightCount.set(int(lights.size()));
}

void uploadAlamoLights(SharedUniforms& u, const AlamoLightRig& rig) {
    auto rows = [](const std::array<glm::mat4, 3>& m) {
        QVariantList l;
        for (const glm::mat4& x : m)
            for (int c = 0; c < 4; ++c)
                l.push_back(toQ4(x[c]));
        return l;
    };
    u.sunToward.set(QVector3D(rig.sun.toward.x, rig.sun.toward.y, rig.sun.toward.z));
    u.sunDiffuse.set(QVector3D(rig.sun.color.x, rig.sun.color.y, rig.sun.color.z));
    u.sunSpecular.set(QVector3D(rig.specular.x, rig.specular.y, rig.specular.z));
    u.sphAll.set(rows(rig.sphAll));
    u.sphFill.set(rows(rig.sphFill));
    QVariantList ff;
    for (const AlamoLight* l : {&rig.sun, &rig.fill1, &rig.fill2})
        ff.push_back(QVector4D(l->toward.x, l->toward.y, l->toward.z, 0.0f));
    for (const AlamoLight* l : {&rig.sun, &rig.fill1, &rig.fill2})
        ff.push_back(QVector4D(l->color.x, l->color.y, l->color.z, 1.0f));
    ff.push_back(QVector4D(rig.ambient.x, rig.ambient.y, rig.ambient.z, 1.0f));
    u.alamoLights.set(ff);
}

} // namespace rs::render
