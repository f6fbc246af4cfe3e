// Format detection and loading of any supported file into the format-neutral model.
#pragma once

#include "common/bytes.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <memory>
#include <string>
#include <vector>

namespace rs {

// Content-based detection (extension only breaks ties). Ids: "alo", "alo-particle", "ala", "w3d", "w3d-shockwave",
// "bwm", "al", "amal", or "" when unknown.
std::string detectFormat(ByteSpan bytes, const std::string& path);

// What one file holds: a model (possibly skeleton-only), clips, or both (W3D, .al).
struct Document {
    std::string path;
    std::string format;
    std::shared_ptr<Model> model;              // null for clip-only files
    std::vector<std::shared_ptr<Clip>> clips;  // clips contained in the file
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

// Reads (readInputFile) and parses a file. Throws ParseError (file, chunk path, offset) on malformed input, and on
// running out of memory (std::bad_alloc anywhere in the load becomes a ParseError naming the file).
Document loadDocument(const std::string& path);
Document loadDocument(ByteSpan bytes, const std::string& path);

// Clip files next to a model that belong to it by the format's naming convention
// (Alamo: <MODEL>_<CLIP>_<NN>.ala; W3D: .w3d files whose clip header names the model's hierarchy).
// Sorted by file name.
std::vector<std::string> findCompanionClips(const std::string& modelPath);

} // namespace rs
