// Texture file lookup for the exporter, behind a small interface so that another source (e.g. the virtual file
// system over game archives) can stand in for the plain folder search.
#pragma once

#include "vfs/mount.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs::gltf {

class TextureLookup {
  public:
    virtual ~TextureLookup() = default;
    // Finds the texture a material names (as stored, possibly with a folder part and any case). On success fills
    // `path` (for messages) and `bytes` (the whole file) and returns true; false when no file is found.
    // Throws only for a file that exists but cannot be read.
    virtual bool find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) = 0;
};

// Folder search, no core dependency. Candidate names: the stored file name, then the same stem with the other of
// .dds/.tga. Folders, in order: extraDirs, the model's folder, and for the model folder and each of its ancestors
// (four levels up) Textures/, Art/Textures/, Data/Art/Textures/, compiledtextures/<xx>/ and
// art/compiledtextures/<xx>/ (SAGE layout, xx = first two letters of the texture name). Every folder and file
// name matches case-insensitively; only regular files are taken.
class FolderTextureLookup : public TextureLookup {
  public:
    FolderTextureLookup(const std::string& modelPath, std::vector<std::string> extraDirs = {});
    bool find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) override;

    // The folders searched for `name`, existing ones only, in search order (exposed for tests).
    std::vector<std::string> searchDirs(const std::string& name) const;

  private:
    std::string modelDir_;
    std::vector<std::string> extraDirs_;
};

// Textures through core's mount table, found as the viewer finds them (render/textures.cpp): the game's lookup
// (vfs::resolveTexture: the model's folder, DATA/ART/TEXTURES/, ART/COMPILEDTEXTURES/<xx>/, ...; per name the
// winning source: mod loose > mod archives > game loose > game archives) and the folder search on disk
// (`fallback`, e.g. FolderTextureLookup with the preferences' folders). tableFirst: the mount table is asked first;
// the viewer does so for a model inside an archive and whenever game or mod folders are mounted, otherwise the
// folders on disk come first. `path` of a hit is MountTable::describe() ("<archive>:<entry>" or the file on disk).
class MountTextureLookup : public TextureLookup {
  public:
    MountTextureLookup(std::shared_ptr<const vfs::MountTable> table, std::string modelKey,
                       std::unique_ptr<TextureLookup> fallback = nullptr, bool tableFirst = true);
    bool find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) override;

  private:
    bool findInTable(const std::string& name, std::string& path, std::vector<uint8_t>& bytes);
    std::shared_ptr<const vfs::MountTable> table_;
    std::string modelKey_;
    std::unique_ptr<TextureLookup> fallback_;
    bool tableFirst_;
};

// The lookup the viewer uses for a model at `modelPath` (a file on disk or "<archive>:<entry>"): its own folder or
// archive over the session's game/mod folders (vfs::tableFor), table first when the model is not a file on disk or
// a session mount exists, with FolderTextureLookup(modelPath, extraDirs) as the disk search.
std::unique_ptr<TextureLookup> viewerTextureLookup(const std::string& modelPath,
                                                   std::vector<std::string> extraDirs = {});

} // namespace rs::gltf
