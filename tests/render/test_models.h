// Models built in code for render tests (no file reader involved).
#pragma once

#include "scene/clip.h"
#include "scene/model.h"

#include <memory>
#include <string>

namespace rs::test {

// A small articulated figure, Z up, about 4 units tall:
//   bones  Root, Body, Arm (pivot at the shoulder, +X), Head, Beacon (above the head)
//   meshes Body_LOD0 (narrow grey box) / Body_LOD1 (wide grey box), Arm (skinned: shoulder vertices on Body,
//          the rest on Arm), Hat_ALT0 (green) / Hat_ALT1 (red, flat), FC_Flag (Color parameter = faction colour)
//   dazzles FC_Beacon (frequency 1, bias 0.5: on at t = 0.25 s, off at t = 0.75 s), NightLamp (night only)
//   proxy  p_smoke_ALT1 on Head
// baseTexture: when non-empty, Body meshes name it as BaseTexture.
std::shared_ptr<rs::Model> makeFigure(const std::string& baseTexture = {});

// 11 frames at 10 fps: the arm rotates from 0 to -90 degrees about Y (it swings up).
std::shared_ptr<rs::Clip> makeArmClip();

} // namespace rs::test
