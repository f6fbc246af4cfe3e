// What a dazzle shows at a time and in a faction colour (GLM only, no Qt): shared by the desktop's dazzle layer
// (render/dazzles.cpp) and the web page (web/src/rigscope_web.cpp).
#pragma once

#include "scene/model.h"

#include <glm/glm.hpp>

namespace rs::render {

// Dazzle brightness 0..1 at time t (seconds): a sine pulse per period, 1 when it does not blink.
float dazzleBlink(const rs::Dazzle& dz, float t);

// The dazzle's colour: its own, or for a faction-coloured one (the colorize flag or an FC_ name) its saturation and
// value with the faction colour's hue (an achromatic faction colour gives hue 0). factionColor: rgb 0..1.
glm::vec3 dazzleColor(const rs::Dazzle& dz, const glm::vec3& factionColor);

// The dazzle's cell of its texture atlas (texSize x texSize cells, texX/texY clamped into it) as dazzle.vert's
// dazzleRect: (u0, v0 + cell, u0 + cell, v0) in the file's convention (v down from the image top).
glm::vec4 dazzleRect(const rs::Dazzle& dz);

} // namespace rs::render
