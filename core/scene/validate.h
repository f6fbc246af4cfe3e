// Contract checks for what readers produce (model.h, clip.h). Used by the fuzz targets and the mutation
// and hostile-input tests: a reader must either throw ParseError or return data that passes these checks.
#pragma once

#include "scene/clip.h"
#include "scene/model.h"

#include <string>

namespace rs {

// First violated contract of model.h, or "" when none:
// parent < index (or -1); per-vertex arrays empty or vertex-count long; indices a multiple of 3 and < vertex
// count; skinned vertices index into boneMap; boneMap, Mesh::bone, lights/proxies/dazzles/markers name an
// existing bone (or -1). Values (NaN, huge floats) are not judged: only what indexes memory.
std::string checkModel(const Model& m);

// First violated contract of clip.h, or "": every channel (visibility and step included) holds 0, 1 or
// frameCount entries.
std::string checkClip(const Clip& c);

} // namespace rs
