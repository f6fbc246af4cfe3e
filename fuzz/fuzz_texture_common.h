// Shared by the texture fuzz targets: decode and probe must agree, and the decoded image must stay within the
// bound texture/texture.h promises (at most 256 bytes of RGBA per input byte, plus a 4x4 block's worth).
#pragma once

#include "fuzz_common.h"
#include "texture/dds_cube.h"
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

// A cube map's six faces: square, of one size, within the texture bounds, their buffers as large as their size says and
// all six within the 256-bytes-per-input-byte bound; the first face is the image decodeDds gives for the same bytes.
inline void exerciseDdsCube(const uint8_t* data, size_t size, const char* name) {
    try {
        const CubeImage cube = decodeDdsCube(ByteSpan(data, size), name);
        size_t total = 0;
        for (const Image& f : cube.faces) {
            if (f.width != cube.faces[0].width || f.height != cube.faces[0].height)
                violated("cube", "faces of different sizes");
            if (f.width != f.height) violated("cube", "a face that is not square");
            if (f.width < 1 || f.width > kMaxTextureDim) violated("cube", "face size out of range");
            if (f.rgba.size() != size_t(f.width) * size_t(f.height) * 4) violated("cube", "face buffer size");
            total += f.rgba.size();
        }
        if (total > 256 * size + 6 * 64) violated("cube", "faces larger than 256 bytes per input byte");
        Image flat;
        try {
            flat = decodeDds(ByteSpan(data, size), name);
        } catch (const ParseError&) {
            violated("cube", "decodeDdsCube read a file decodeDds refuses");
        }
        if (flat.width != cube.faces[0].width || flat.height != cube.faces[0].height || flat.rgba != cube.faces[0].rgba)
            violated("cube", "face +X differs from decodeDds's image");
    } catch (const ParseError&) {
    }
}

} // namespace rs::fuzz
