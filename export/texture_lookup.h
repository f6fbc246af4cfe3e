// Texture file lookup for the exporter, behind a small interface so that another source (e.g. the virtual file
// system over game archives) can stand in for the plain folder search.
#pragma once

#include <cstdint>
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

} // namespace rs::gltf
