#include "texture_lookup.h"

#include "common/error.h"

namespace rs::gltf {

bool ResolverTextureLookup::find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) {
    const std::string found = resolver_.findTexture(name, modelPath_);
    if (found.empty()) return false;
    if (!resolver_.readBytes(found, bytes))
        throw ParseError(found, {}, ParseError::kNoOffset, "cannot read texture");
    path = found;
    return true;
}

} // namespace rs::gltf
