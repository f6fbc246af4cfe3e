// Shared by the texture fuzz targets: decode and probe must agree, and the decoded image must stay within the
// bound texture/texture.h promises (at most 256 bytes of RGBA per input byte, plus a 4x4 block's worth).
#pragma once

#include "fuzz_common.h"
#include "texture/texture.h"

namespace rs::fuzz {

inline void exerciseTexture(Image (*decode)(ByteSpan, const std::string&),
                            TextureInfo (*probe)(ByteSpan, const std::string&), const uint8_t* data, size_t size,
                            const char* name) {
    bool probed = false;
    TextureInfo info;
    try {
        info = probe(ByteSpan(data, size), name);
        probed = true;
    } catch (const ParseError&) {
    }
    try {
        const Image img = decode(ByteSpan(data, size), name);
        if (!probed) violated("texture", "decoded what probe refused");
        if (img.width != info.width || img.height != info.height)
            violated("texture", "probe and decode disagree on the size");
        if (img.width < 1 || img.height < 1 || img.width > kMaxTextureDim || img.height > kMaxTextureDim)
            violated("texture", "size out of range");
        if (img.rgba.size() != size_t(img.width) * size_t(img.height) * 4) violated("texture", "buffer size");
        if (img.rgba.size() > 256 * size + 64) violated("texture", "image larger than 256 bytes per input byte");
    } catch (const ParseError&) {
    }
}

} // namespace rs::fuzz
