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

// Largest file read for a format id of detectFormat ("texture" for .dds/.tga), in bytes: Alamo, W3D and B&W2
// 256 MiB (the largest real files are a few MB), AMOS banks and sources 16 MiB (Amiga-era memory), textures
// 512 MiB (16384^2 DXT5 with its mips is 341 MiB), anything unrecognised 0 (refused after its first bytes).
uint64_t maxFileBytes(const std::string& format);

// Reads a file to load: only a regular file (checked with stat before it is opened: folders, FIFOs and devices
// are refused by name), its first bytes to detect the format, then the whole file unless it exceeds
// maxFileBytes(format). Throws ParseError naming the file.
std::vector<uint8_t> readInputFile(const std::string& path);

struct LoadOptions {
    // W3D: the file holding the hierarchy, when the user chose it (empty: findW3dHierarchyFile).
    std::string w3dHierarchyFile;
};

// Reads (readInputFile) and parses a file, or an entry "<archive>:<path>". Throws ParseError (file, chunk path,
// offset) on malformed input, and on running out of memory (std::bad_alloc anywhere in the load becomes a
// ParseError naming the file).
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
