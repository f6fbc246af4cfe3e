// The built-in demo: a small walker with a turret, made with the project's own Alamo writer (no
// third-party data) and read back through the Alamo readers, so it exercises the same path as a file.
//
// Z is up, the figure faces +Y, about 3 units tall. It holds: a skinned sub-mesh (limbs, bone map of
// 3 bones), rigid parts, two LODs of the body (Body_LOD0/Body_LOD1), two ALTs of the turret
// (Turret_ALT0/Turret_ALT1), an FC_ mesh, an additive glow, a collision mesh with a collision tree,
// an omni light, two dazzles (FC_Beacon with bias, NightLamp night-only), a proxy, and a looping
// format-2 clip (31 frames at 15 fps, last frame = first) with rotation, translation, scale,
// visibility and step tracks.
#pragma once

#include "scene/document.h"

#include <cstdint>
#include <vector>

namespace rs::demo {

// Model and clip as the writer builds them (before writing).
Model demoModelSource();
Clip demoClipSource();

// The written files.
std::vector<uint8_t> demoAloBytes();
std::vector<uint8_t> demoAlaBytes();

// Both read back: Document{path "rigscope-demo.alo", Format::AlamoModel, model, clips = {idle clip}}.
Document loadDemo();

} // namespace rs::demo
