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

glm::vec3 alamoLightToward(float azimuthDegrees, float elevationDegrees) {
    const float a = glm::radians(azimuthDegrees - 90.0f), t = glm::radians(elevationDegrees);
    return glm::vec3(std::cos(a) * std::cos(t), std::sin(a) * std::cos(t), std::sin(t));
}

std::array<glm::mat4, 3> shIrradianceMatrices(const AlamoLight* lights, int count, glm::vec3 ambient) {
    // Nine real SH coefficients per channel of the lights (a delta light of colour c towards d: c * Y_lm(d)),
    // then the quadratic form of the cosine-convolved irradiance.
    float L[3][9] = {};
    for (int i = 0; i < count; ++i) {
        const glm::vec3 d = lights[i].toward;
        const float y[9] = {0.282095f,
                            0.488603f * d.y,
                            0.488603f * d.z,
                            0.488603f * d.x,
                            1.092548f * d.x * d.y,
                            1.092548f * d.y * d.z,
                            0.315392f * (3.0f * d.z * d.z - 1.0f),
                            1.092548f * d.x * d.z,
                            0.546274f * (d.x * d.x - d.y * d.y)};
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 9; ++k)
                L[c][k] += lights[i].color[c] * y[k];
    }
    const float c1 = 0.429043f, c2 = 0.511664f, c3 = 0.743125f, c4 = 0.886227f, c5 = 0.247708f;
    std::array<glm::mat4, 3> m{};
    for (int c = 0; c < 3; ++c) {
        const float* k = L[c];
        const float rows[4][4] = {{c1 * k[8], c1 * k[4], c1 * k[7], c2 * k[3]},
                                  {c1 * k[4], -c1 * k[8], c1 * k[5], c2 * k[1]},
                                  {c1 * k[7], c1 * k[5], c3 * k[6], c2 * k[2]},
                                  {c2 * k[3], c2 * k[1], c2 * k[2], c4 * k[0] - c5 * k[6] + ambient[c]}};
        for (int r = 0; r < 4; ++r)
            for (int col = 0; col < 4; ++col)
                m[size_t(c)][col][r] = rows[r][col];
    }
    return m;
}

AlamoLightRig alamoLightRig(LightPreset preset, float sunAzimuthDegrees, float sunElevationDegrees) {
    AlamoLightRig r;
    r.sun.toward = alamoLightToward(sunAzimuthDegrees, sunElevationDegrees);
    r.fill1.toward = alamoLightToward(210.0f, -10.0f);
    r.fill2.toward = alamoLightToward(120.0f, -10.0f);
    if (preset == LightPreset::Space) {
        r.sun.color = glm::vec3(1.0f, 0.97f, 0.92f) * 0.7f;
        r.fill1.color = r.fill2.color = glm::vec3(0.2f, 0.22f, 0.35f) * 0.5f;
        r.ambient = glm::vec3(0.05f);
    } else {
        r.sun.color = glm::vec3(1.0f) * 0.5f;
        r.fill1.color = r.fill2.color = glm::vec3(0.25f, 0.25f, 0.5f) * 0.5f;
        r.ambient = glm::vec3(0.1f);
    }
    r.specular = glm::vec3(1.0f);
    const AlamoLight all[3] = {r.sun, r.fill1, r.fill2};
    r.sphAll = shIrradianceMatrices(all, 3, r.ambient);
    r.sphFill = shIrradianceMatrices(all + 1, 2, r.ambient);
    return r;
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
