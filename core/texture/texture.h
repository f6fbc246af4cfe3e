// Texture decoders (DirectDraw Surface, Truevision TGA) over a byte span: standard library only.
//
// Contract shared by every function here:
//  - bounded before allocation: the image size is checked against kMaxTextureDim and against the bytes the
//    file holds (DDS: the whole mip chain of every face; TGA raw: width x height pixels; TGA RLE: at most
//    128 pixels per packet of 1 + pixelBytes bytes) before a pixel buffer is allocated, so a decoded image
//    holds at most 64 x 4 bytes per file byte (8-bit RLE TGA) and decode time is linear in the file size;
//  - malformed input throws rs::ParseError(name, field, absolute byte offset of the field, message); field is
//    e.g. "DDS_HEADER.width" or "TGA packet 12".
#pragma once

#include "common/bytes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs {

// Largest RGBA8 image per input byte: DDS DXT1 (16 texels in 8 bytes) 8; TGA 8-bit RLE (128 texels in 2 bytes)
// 256. Malformed files are held to the same bound as valid ones: nothing is allocated beyond it.
constexpr uint64_t kDdsDecodedBytesPerByte = 8, kTgaDecodedBytesPerByte = 256;

// Largest width or height accepted (the renderer further refuses textures above the GPU's maximum).
constexpr int kMaxTextureDim = 16384;

// RGBA8, 4 bytes per pixel, rows top to bottom (row 0 = image top). hasAlpha: some pixel has alpha < 255.
struct Image {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
    bool hasAlpha = false;
};

// What a texture file declares, without decoding its pixels.
//   format: DDS "DXT1".."DXT5" or "RGBA32", "RGB24", "RGB16", "RGBA16", "L8", "LA16", "A8", ... (channels + bits);
//           TGA "TGA-truecolour24", "TGA-grey8", "TGA-mapped8", with "-RLE" when run-length encoded.
//   mipCount: levels stored (1 without mipmaps; TGA always 1).
//   hasAlpha: the format carries alpha (DXT2-5, an alpha mask, TGA alpha bits; DXT1: the top level uses
//             its transparent colour).
struct TextureInfo {
    std::string format;
    int width = 0, height = 0, mipCount = 0;
    bool hasAlpha = false;
};

// Top mip level (first face of a cube map). DXT1/2/3/4/5, uncompressed 8/16/24/32-bit masked RGB(A),
// luminance and alpha-only. DX10 headers, volume textures, palettes and YUV are refused.
Image decodeDds(ByteSpan bytes, const std::string& name);
// Image types 1/2/3 (colour-mapped, true-colour, grey) and their RLE forms 9/10/11.
Image decodeTga(ByteSpan bytes, const std::string& name);
// DDS by its magic or a .dds name, otherwise TGA when name ends in .tga (any case); anything else is refused.
Image decodeTexture(ByteSpan bytes, const std::string& name);
// Header checks of the decoder (same refusals, same bounds), no pixels decoded except DXT1's alpha scan.
TextureInfo probeTexture(ByteSpan bytes, const std::string& name);
TextureInfo probeDds(ByteSpan bytes, const std::string& name);
TextureInfo probeTga(ByteSpan bytes, const std::string& name);

// True when decodeTexture would pick a decoder (DDS magic, a .dds or .tga name), not that it would succeed.
bool isTexture(ByteSpan bytes, const std::string& name);

} // namespace rs
