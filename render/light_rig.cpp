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

} // namespace rs::render
