// `rigscope-cli info TEXTURE` for .dds and .tga files. JSON fields:
//   format      DDS "DXT1".."DXT5", "RGBA32", "L8", ...; TGA "TGA-truecolour32-RLE", ... (texture/texture.h)
//   width, height, mipCount
//   hasAlpha    the format carries alpha (DXT1: its top level uses the transparent colour)
//   alphaUsed   some decoded pixel of the top level has alpha < 255
//   rgbaFnv1a   FNV-1a 64 of the decoded top level (RGBA8, rows top first), 16 hex digits
// The whole top level is decoded, so a texture that prints here is one the viewer can decode.
#include "commands.h"

#include "texture/texture.h"

#include <cstdio>

namespace rs::cli {

bool infoTexture(ByteSpan bytes, const std::string& path, bool json, std::string& out) {
    if (!isTexture(bytes, path)) return false;
    const TextureInfo info = probeTexture(bytes, path);
    const Image img = decodeTexture(bytes, path);
    uint64_t h = 14695981039346656037ull;
    for (uint8_t b : img.rgba)
        h = (h ^ b) * 1099511628211ull;
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(h));
    if (json) {
        Json j;
        j.beginObject()
            .kv("format", info.format)
            .kv("width", info.width)
            .kv("height", info.height)
            .kv("mipCount", info.mipCount)
            .kv("hasAlpha", info.hasAlpha)
            .kv("alphaUsed", img.hasAlpha)
            .kv("rgbaFnv1a", std::string(hash))
            .endObject();
        out = j.out;
    } else {
        out = path + ": texture " + info.format + ", " + std::to_string(info.width) + "x" +
              std::to_string(info.height) + ", " + std::to_string(info.mipCount) + " mip level" +
              (info.mipCount == 1 ? "" : "s") + ", " + (info.hasAlpha ? "alpha" : "no alpha") +
              (info.hasAlpha && !img.hasAlpha ? " (all texels opaque)" : "");
    }
    return true;
}

} // namespace rs::cli
