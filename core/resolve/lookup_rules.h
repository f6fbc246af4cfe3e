// Where the games look for what a model refers to, as keys of a mount table (normalizePath() game paths such as
// "DATA/ART/MODELS/UNIT.ALO"). Pure rules over a table: no file system, no cache (the resolver adds those).
#pragma once

#include "vfs/mount.h"

#include <string>
#include <string_view>
#include <vector>

namespace rs::resolve {

// "DATA/ART/MODELS/" for "DATA/ART/MODELS/X.ALO"; "" for a key without folder.
std::string folderOf(std::string_view key);

// Keys tried for texture `name` (a file name or game path) referenced by the model at `modelKey`, in order:
// the model's folder, DATA/ART/TEXTURES/, ART/TEXTURES/, ART/COMPILEDTEXTURES/<first two letters>/,
// COMPILEDTEXTURES/<xx>/, then the path as written; each with the stored extension first, then the other of
// .TGA / .DDS (the games ship .dds for textures named .tga), then .PNG (textures a modder converted).
std::vector<std::string> textureCandidates(std::string_view name, std::string_view modelKey);
// The first candidate the table holds; null when none.
const vfs::Hit* findTexture(const vfs::MountTable& t, std::string_view name, std::string_view modelKey);

// W3D hierarchy `name`: `<name>.W3D` next to the model, then ART/W3D/<first two letters>/, then ART/W3D/.
const vfs::Hit* findW3dHierarchy(const vfs::MountTable& t, std::string_view name, std::string_view modelKey);

// Clips that belong to the model, as keys, sorted: Alamo <MODEL>_*.ALA next to it (a clip that also starts with
// a longer model's name beside it, <MODEL>_D_DIE_00.ALA for <MODEL>_D.ALO, is that model's); W3D .W3D files next to it (and
// in its ART/W3D/<xx>/ folder) whose clip header names the model's hierarchy.
std::vector<std::string> companionClips(const vfs::MountTable& t, std::string_view modelKey);

// B&W2 animation libraries (.AL) next to a .BWM model, sorted.
std::vector<std::string> animationLibraries(const vfs::MountTable& t, std::string_view modelKey);

} // namespace rs::resolve
