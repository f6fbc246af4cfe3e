// DirectDraw Surface cube maps (caps2 CUBEMAP): the top mip level of each of the six faces, for environment maps
// (C&C 3's ObjectsGenericEnvMap.fx EnvironmentTexture). Same header checks, bounds and refusals as decodeDds
// (texture.h): every face's mip chain is checked to lie in the file before a pixel is decoded.
#pragma once

#include "texture/texture.h"

#include <array>
#include <string>

namespace rs {

// Faces in the file's (Direct3D's) order: +X, -X, +Y, -Y, +Z, -Z. Each face's row 0 is its top (Direct3D's v = 0),
// which is also the first row OpenGL reads for that face: both APIs select faces and their (s, t) by the same table,
// so the faces upload as stored and a direction samples the same texel in both.
struct CubeImage {
    std::array<Image, 6> faces;
};

// True when bytes start with the DDS magic and a header whose caps2 has the CUBEMAP flag (nothing else checked).
bool isDdsCube(ByteSpan bytes);
// The six faces; throws ParseError (name, field, offset) for a file decodeDds refuses, one that is not a cube map,
// a cube with fewer than six faces, or faces that are not square.
CubeImage decodeDdsCube(ByteSpan bytes, const std::string& name);

} // namespace rs
