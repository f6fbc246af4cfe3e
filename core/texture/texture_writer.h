// The project's own DDS and TGA writers, for test fixtures and fuzz seeds (not an exporter: no DXT encoder).
#pragma once

#include "texture/texture.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rs {

// Uncompressed 32-bit DDS (A8R8G8B8: BGRA bytes, masks 0xFF0000/0xFF00/0xFF/0xFF000000) with mipCount levels,
// each level a 2x2 box-filtered copy of the previous one. img.rgba must hold width*height*4 bytes.
std::vector<uint8_t> writeDdsRgba(const Image& img, int mipCount = 1);
// Uncompressed 32-bit DDS cube map (caps2 CUBEMAP and all six faces) of six square faces of one size, in the order
// +X, -X, +Y, -Y, +Z, -Z, one mip level each.
std::vector<uint8_t> writeDdsCubeRgba(const Image (&faces)[6]);
// Block-compressed DDS ("DXT1", "DXT3" or "DXT5") around caller-made block data (all levels, largest first).
std::vector<uint8_t> writeDdsBlocks(int width, int height, const std::string& fourCC, int mipCount,
                                    const std::vector<uint8_t>& blocks);

enum class TgaKind { TrueColour24, TrueColour32, Grey8, Mapped8 };
// TGA of the image; rle selects image types 9/10/11; topDown sets descriptor bit 5 (otherwise rows are stored
// bottom first). Mapped8 needs at most 256 distinct colours (throws std::invalid_argument otherwise).
std::vector<uint8_t> writeTga(const Image& img, TgaKind kind, bool rle, bool topDown = false);

} // namespace rs
