// Format detection and loading of any supported file into the format-neutral model.
#pragma once

#include "common/bytes.h"
#include "particles/particle_system.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <memory>
#include <string>
#include <vector>

namespace rs {

// Content-based detection (extension only breaks ties). Ids: "alo", "alo-particle", "ala", "w3d", "w3d-shockwave",
// "bwm", "al", "amal", or "" when unknown.
std::string detectFormat(ByteSpan bytes, const std::string& path);

// What one file holds: a model (possibly skeleton-only), clips, or both (W3D, .al), or a particle system
// ("alo-particle": model null, no clips).
struct Document {
    std::string path;
    std::string format;
    std::shared_ptr<Model> model;              // null for clip-only files
    std::vector<std::shared_ptr<Clip>> clips;  // clips contained in the file
    std::shared_ptr<ParticleSystem> particles; // Alamo particle systems (.alo starting with 0x900)
    std::vector<std::string> warnings;
};

// Reads and parses a file. Throws ParseError (file, chunk path, offset) on malformed input.
Document loadDocument(const std::string& path);
Document loadDocument(ByteSpan bytes, const std::string& path);

// Clip files next to a model that belong to it by the format's naming convention
// (Alamo: <MODEL>_<CLIP>_<NN>.ala; W3D: .w3d files whose clip header names the model's hierarchy).
// Sorted by file name.
std::vector<std::string> findCompanionClips(const std::string& modelPath);

} // namespace rs
