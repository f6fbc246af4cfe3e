// Dispatch between the texture decoders: DDS by magic, TGA by extension (TGA has no magic).
#include "texture/texture.h"

#include <cstring>

namespace rs {

namespace {

bool hasDdsMagic(ByteSpan bytes) { return bytes.size >= 4 && std::memcmp(bytes.data, "DDS ", 4) == 0; }

bool endsWith(const std::string& name, const char* ext) {
    if (name.size() < 4) return false;
    std::string e = name.substr(name.size() - 4);
    for (char& c : e)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return e == ext;
}
bool isDds(ByteSpan bytes, const std::string& name) { return hasDdsMagic(bytes) || endsWith(name, ".dds"); }
bool endsWithTga(const std::string& name) { return endsWith(name, ".tga"); }

[[noreturn]] void refuse(const std::string& name) {
    throw ParseError(name, "magic", 0, "not a texture this viewer decodes (no DDS magic, not named .dds or .tga)");
}

} // namespace

bool isTexture(ByteSpan bytes, const std::string& name) { return isDds(bytes, name) || endsWithTga(name); }

Image decodeTexture(ByteSpan bytes, const std::string& name) {
    if (isDds(bytes, name)) return decodeDds(bytes, name);
    if (endsWithTga(name)) return decodeTga(bytes, name);
    refuse(name);
}

TextureInfo probeTexture(ByteSpan bytes, const std::string& name) {
    if (isDds(bytes, name)) return probeDds(bytes, name);
    if (endsWithTga(name)) return probeTga(bytes, name);
    refuse(name);
}

} // namespace rs
