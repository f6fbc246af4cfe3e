// Names stored in the games' files (bones, meshes, materials, textures, clips, events, ...) are Windows code page
// 1252 bytes. Everything rigscope writes as UTF-8 (glTF, JSON, Qt text) converts them here first.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rs {

// Unicode code point of CP-1252 byte b: 0x00-0x7F and 0xA0-0xFF map to themselves; 0x80-0x9F to the Windows
// table (0x80 U+20AC, 0x8A U+0160, 0x99 U+2122, ...), its five undefined bytes 0x81, 0x8D, 0x8F, 0x90 and 0x9D
// to U+0081, U+008D, U+008F, U+0090 and U+009D as Windows' MultiByteToWideChar does.
char32_t cp1252CodePoint(uint8_t b);

// Every byte of s read as CP-1252, encoded as UTF-8 (always valid UTF-8; ASCII is unchanged, a NUL stays NUL).
std::string cp1252ToUtf8(std::string_view s);

// A path or file name from the operating system or an archive: kept when it is valid UTF-8 already, else read
// as CP-1252 (names inside Petroglyph and EA archives).
std::string pathToUtf8(std::string_view s);

// UTF-8 text as CP-1252 bytes (what the games' files store); false when s is not valid UTF-8 or holds a
// character CP-1252 lacks (out is then unspecified).
bool utf8ToCp1252(std::string_view s, std::string& out);
// True when s is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool isValidUtf8(std::string_view s);

} // namespace rs
