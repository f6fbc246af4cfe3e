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
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace rs {

// Largest RGBA8 image per input byte: DDS DXT1 (16 texels in 8 bytes) 8; TGA 8-bit RLE (128 texels in 2 bytes)
// 256. Malformed files are held to the same bound as valid ones: nothing is allocated beyond it.
constexpr uint64_t kDdsDecodedBytesPerByte = 8, kTgaDecodedBytesPerByte = 256;

// Largest width or height accepted (the renderer further refuses textures above the GPU's maximum).
constexpr int kMaxTextureDim = 16384;

// An allocator that leaves new elements of a resize() uninitialised (copies and explicit values are constructed as
// usual): the decoders write every byte of the image they size, so zero-filling it first would be a wasted pass.
template <class T> struct UninitAllocator : std::allocator<T> {
    template <class U> struct rebind { using other = UninitAllocator<U>; };
    UninitAllocator() = default;
    template <class U> UninitAllocator(const UninitAllocator<U>&) noexcept {}
    template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
using PixelBytes = std::vector<std::uint8_t, UninitAllocator<std::uint8_t>>;

// RGBA8, 4 bytes per pixel, rows top to bottom (row 0 = image top). hasAlpha: some pixel has alpha < 255.
// Whoever resizes rgba writes every byte of it (resize leaves new bytes uninitialised; see PixelBytes).
struct Image {
    int width = 0, height = 0;
    PixelBytes rgba;
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
