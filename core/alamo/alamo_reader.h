// Petroglyph Alamo readers: .ALO models and .ALA clips (formats 1 and 2).
#pragma once

#include "common/bytes.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <string>

namespace rs::alamo {

// Parses an .ALO model. Throws ParseError naming file, chunk path and offset.
// A particle system (.alo starting with 0x900 or 0x1500) is refused with a message saying so.
Model readModel(ByteSpan bytes, const std::string& file);

// Parses an .ALA clip (format 1 or 2, detected from 0x1001). Clip::version is 1 or 2.
Clip readClip(ByteSpan bytes, const std::string& file);

} // namespace rs::alamo
