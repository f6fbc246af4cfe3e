// Texture files for the exporter, behind a small interface so that a test can stand in its own source.
#pragma once

#include "resolve/resolver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs::gltf {

class TextureLookup {
  public:
    virtual ~TextureLookup() = default;
    // Finds the texture a material names (as stored, possibly with a folder part and any case). On success fills
    // `path` (for messages) and `bytes` (the whole file) and returns true; false when no file is found.
    // Throws ParseError only for a file that exists but cannot be read.
    virtual bool find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) = 0;
};

// Textures found as the viewer finds them: Resolver::findTexture for the model at modelPath (the game's order
// through the model's folder or archive and the mounted folders, then the folders on disk and the resolver's
// texture folders).
class ResolverTextureLookup : public TextureLookup {
  public:
    ResolverTextureLookup(const Resolver& resolver, std::string modelPath)
        : resolver_(resolver), modelPath_(std::move(modelPath)) {}
    bool find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) override;

  private:
    const Resolver& resolver_;
    std::string modelPath_;
};

} // namespace rs::gltf
