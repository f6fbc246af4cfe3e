// Writers for Alamo .ALO models and .ALA clips (formats 1 and 2), from the format-neutral model and clip.
// They make every synthetic fixture and the built-in demo; layouts are those read by alamo_reader.h.
// Inputs the format cannot hold (indices >= 65536, strings longer than a mini-chunk, bad bone
// references) throw std::invalid_argument.
#pragma once

#include "scene/clip.h"
#include "scene/model.h"

#include <cstdint>
#include <vector>

namespace rs::alamo {

struct AloWriteOptions {
    bool bones205 = false;           // 0x205 bone chunks (no billboard field) instead of 0x206
    bool vertices10005 = false;      // 0x10005 (128 B) vertices instead of 0x10007 (144 B)
    bool lightsFirst = false;        // 0x1300 chunks before the 0x400 chunks (object indices follow file order)
    bool dazzleCount = true;         // the optional 0x601 mini-chunk 9 (dazzle count)
    bool geometryInMaterial = false; // 0x10000 inside 0x10100 instead of as its next sibling (as some tools write)
    bool dazzleContainer = false;    // 0x604 as a container of one type-0 data chunk (GlyphXTools viewer layout)
};

// Meshes/lights connect to Mesh::bone / Light::bone (a 0x602 chunk for each bone >= 0);
// Model::connections is ignored. Dazzle bias is written only when Dazzle::hasBias.
std::vector<uint8_t> writeModel(const Model& model, const AloWriteOptions& options = {});

struct AlaWriteOptions {
    int version = 2; // 1 or 2
};

// A track channel is animated when it holds Clip::frameCount samples; one sample (or none, using the
// track default) makes it constant. Values are quantised as the format stores them (16 bits).
std::vector<uint8_t> writeClip(const Clip& clip, const AlaWriteOptions& options = {});

} // namespace rs::alamo
