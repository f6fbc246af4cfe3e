// Lights: the default three-light rig, or the model's own lights (up to three, bone-attached) with a dimmer key
// light, written to the shared light uniforms.
#pragma once

#include "scene/model.h"

#include <glm/glm.hpp>

#include <array>
#include <utility>
#include <vector>

namespace rs::render {

struct SharedUniforms;

// Direction the key light travels (z-up models: Alamo, W3D; y-up: B&W2).
glm::vec3 keyLightDirection(bool zUp);

// Ambient light of the generic and W3D programs (the view's "ambientColor").
constexpr glm::vec3 kViewAmbient{0.22f, 0.22f, 0.25f};

// The view's lights, at most 4, as the shaders take them: (xyz position with w = 1, or direction of travel with
// w = 0; rgb colour * intensity with a = 1 / range, 0 = infinite). The default three-light rig, or with
// useModelLights the model's own lights (bone-attached, visible ones) after a dimmer key light. GLM only (no Qt).
std::vector<std::pair<glm::vec4, glm::vec4>> viewLights(const rs::Model* model, const std::vector<glm::mat4>& world,
                                                        const std::vector<uint8_t>& visible, bool useModelLights,
                                                        bool zUp);

// model may be null. world/visible: the pose of the model's bones. useModelLights: the "lights" view option.
void uploadLights(SharedUniforms& u, const rs::Model* model, const std::vector<glm::mat4>& world,
                  const std::vector<uint8_t>& visible, bool useModelLights, bool zUp);

// The Alamo engine's light set-up (AlamoEngine.fxh; alo-viewer's environment): a directional sun (DIR_LIGHT_*_0,
// per pixel in the bump shaders), two directional fill lights and an ambient colour, which reach the shaders only
// as spherical-harmonic irradiance matrices (SPH_LIGHT_FILL: fills + ambient; SPH_LIGHT_ALL: sun + fills + ambient;
// Ramamoorthi & Hanrahan 2001, E(n) = (n,1)^T M (n,1) per colour channel).
enum class LightPreset { Land = 0, Space = 1 };
struct AlamoLight {
    glm::vec3 toward{0, 0, 1}; // unit vector from the surface towards the light
    glm::vec3 color{0.0f};     // colour * intensity
};
struct AlamoLightRig {
    AlamoLight sun, fill1, fill2;
    glm::vec3 ambient{0.0f};
    glm::vec3 specular{1.0f};                     // DIR_LIGHT_SPECULAR_0
    std::array<glm::mat4, 3> sphAll{}, sphFill{}; // per channel r, g, b (symmetric)
};
// Direction towards a light at a compass angle (degrees; 0 = the light stands on -Y, 90 = on +X) and an elevation
// above the horizon (degrees), Z up: the angles of alo-viewer's environment dialog.
glm::vec3 alamoLightToward(float azimuthDegrees, float elevationDegrees);
// The rig of a preset with the sun at the given angles. Land: alo-viewer's default environment (sun white x 0.5,
// blue fills x 0.5 at 210 and 120 degrees, 10 degrees below the horizon, ambient 0.1). Space: a brighter sun,
// dimmer fills and ambient (the game takes each map's values from its environment; these are rigscope's).
AlamoLightRig alamoLightRig(LightPreset preset, float sunAzimuthDegrees, float sunElevationDegrees);
// Irradiance matrices of directional lights plus an ambient colour (added to the constant term).
std::array<glm::mat4, 3> shIrradianceMatrices(const AlamoLight* lights, int count, glm::vec3 ambient);
// Writes the rig to the shared uniforms (sunToward, sunDiffuse, sunSpecular, sphAll[0], sphFill[0]) and, for the
// fixed-function techniques, alamoLights[0]: towards the sun, fill 1, fill 2 (xyz), their colours, the ambient.
void uploadAlamoLights(SharedUniforms& u, const AlamoLightRig& rig);

} // namespace rs::render
