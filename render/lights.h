// Lights: the default three-light rig, or the model's own lights (up to three, bone-attached) with a dimmer key
// light, written to the shared light uniforms.
#pragma once

#include "scene/model.h"

#include <glm/glm.hpp>

#include <vector>

namespace rs::render {

struct SharedUniforms;

// Direction the key light travels (z-up models: Alamo, W3D; y-up: B&W2).
glm::vec3 keyLightDirection(bool zUp);

// model may be null. world/visible: the pose of the model's bones. useModelLights: the "lights" view option.
void uploadLights(SharedUniforms& u, const rs::Model* model, const std::vector<glm::mat4>& world,
                  const std::vector<uint8_t>& visible, bool useModelLights, bool zUp);

} // namespace rs::render
