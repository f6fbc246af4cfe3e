// The formats rigscope reads, as ids (their names, extensions, MIME types and readers: formats/formats.h).
#pragma once

#include <cstdint>

namespace rs {

enum class Format : uint8_t {
    Unknown,
    AlamoModel,     // .alo starting with chunk 0x200
    AlamoParticles, // .alo starting with chunk 0x900 or 0x1500
    AlamoClip,      // .ala
    W3d,            // Westwood/EA .w3d
    W3dShockwave,   // Macromedia Director's Shockwave 3D named .w3d (refused by name)
    Bw2Model,       // Black & White 2 .bwm
    Bw2Library,     // Black & White 2 .al animation library
    Amal,           // AMOS bank (.abk) or source (.amos) holding an Amal bank
    Texture,        // .dds, .tga
    Meg,            // Petroglyph archive
    Big,            // EA archive
    W3x,            // SAGE W3X art (XML AssetDeclaration: C&C3, Kane's Wrath, RA3, the BFME II mod SDK)
    Stuff,          // Black & White 2 .stuff archive
};

// The model-space axis that points up in a format's files.
enum class UpAxis { Z, Y };

} // namespace rs
