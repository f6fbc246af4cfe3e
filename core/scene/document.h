// What one file holds: a model (possibly skeleton-only), clips, or both (W3D, .al), or a particle system.
#pragma once

#include "particles/particle_system.h"
#include "scene/clip.h"
#include "common/format_id.h"
#include "scene/model.h"

#include <memory>
#include <string>
#include <vector>

namespace rs {

struct Document {
    std::string path;                          // as opened: a file, "<archive>:<entry>" or a game path
    Format format = Format::Unknown;
    std::shared_ptr<Model> model;              // null for clip-only files
    std::vector<std::shared_ptr<Clip>> clips;  // clips contained in the file
    std::shared_ptr<ParticleSystem> particles; // Alamo particle systems (.alo starting with 0x900)
    std::vector<std::string> warnings;
};

} // namespace rs
