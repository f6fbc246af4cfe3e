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

struct LoadOptions {
    // W3D: the file holding the hierarchy, when the user chose it (empty: findW3dHierarchyFile).
    std::string w3dHierarchyFile;
};

// Reads and parses a file. Throws ParseError (file, chunk path, offset) on malformed input.
Document loadDocument(const std::string& path, const LoadOptions& options = {});
Document loadDocument(ByteSpan bytes, const std::string& path, const LoadOptions& options = {});

// W3D: the file holding hierarchy `name` for the model at modelPath: `<name>.w3d` next to it, else in the SAGE
// layout `art/w3d/<first two letters of name>/<name>.w3d` under the nearest `art/w3d` folder above the model
// (every name compared case-insensitively). Empty when not found.
std::string findW3dHierarchyFile(const std::string& modelPath, const std::string& name);

// W3D: the hierarchy the file's models (or, in a clip-only file, its first clip) need and the file does not
// define itself; empty when it needs none or defines it.
std::string w3dExternalHierarchy(const std::string& path);

// Clip files next to a model that belong to it by the format's naming convention
// (Alamo: <MODEL>_<CLIP>_<NN>.ala; W3D: .w3d files whose clip header names the model's hierarchy).
// Sorted by file name.
std::vector<std::string> findCompanionClips(const std::string& modelPath);

} // namespace rs
