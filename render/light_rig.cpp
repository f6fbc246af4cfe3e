// The view's light rig without Qt (lights.h): compiled into the desktop's render layer and the web viewer's module.
#include "lights.h"

#include <cmath>

namespace rs::render {

glm::vec3 keyLightDirection(bool zUp) {
    return zUp ? glm::normalize(glm::vec3(-0.45f, 0.6f, -0.7f)) : glm::normalize(glm::vec3(-0.45f, -0.7f, -0.6f));
}

std::vector<std::pair<glm::vec4, glm::vec4>> viewLights(const rs::Model* model, const std::vector<glm::mat4>& world,
                                                        const std::vector<uint8_t>& visible, bool useModelLights,
                                                        bool zUp) {
    const glm::vec3 up = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
    const glm::vec3 side = glm::vec3(1, 0, 0);
    const glm::vec3 fwd = zUp ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
    std::vector<std::pair<glm::vec4, glm::vec4>> lights;
    const bool modelLights = useModelLights && model && !model->lights.empty();
    lights.push_back(
        {glm::vec4(keyLightDirection(zUp), 0.0f), glm::vec4(glm::vec3(modelLights ? 0.55f : 0.85f), 0.0f)});
    if (!modelLights) {
        lights.push_back(
            {glm::vec4(glm::normalize(side * 0.7f - fwd * 0.3f - up * 0.3f), 0.0f), glm::vec4(glm::vec3(0.35f), 0.0f)});
        lights.push_back({glm::vec4(glm::normalize(fwd * 0.8f - up * 0.5f), 0.0f), glm::vec4(glm::vec3(0.25f), 0.0f)});
    } else {
        for (const rs::Light& l : model->lights) {
            if (lights.size() >= 4) break;
            const bool boneOk = l.bone >= 0 && size_t(l.bone) < model->skeleton.bones.size() &&
                                size_t(l.bone) < world.size() && size_t(l.bone) < visible.size();
            if (boneOk && !visible[size_t(l.bone)]) continue;
            const glm::mat4 w = boneOk ? world[size_t(l.bone)] : glm::mat4(1.0f);
            const glm::vec3 c = l.color * l.intensity;
            if (l.type == int(rs::LightType::Directional)) {
                // A directional light shines along its bone's -Z axis.
                glm::vec3 d = -glm::vec3(w[2]);
                if (glm::length(d) < 1e-6f) d = keyLightDirection(zUp);
                lights.push_back({glm::vec4(glm::normalize(d), 0.0f), glm::vec4(c, 0.0f)});
            } else {
                lights.push_back({glm::vec4(glm::vec3(w[3]), 1.0f),
                                  glm::vec4(c, l.farAttenuationEnd > 0.0f ? 1.0f / l.farAttenuationEnd : 0.0f)});
            }
        }
    }
    return lights;
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

} // namespace rs::render
