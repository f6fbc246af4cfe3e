// w3x::looksLikeW3x, apart from the reader so that builds without pugixml (the WebAssembly build) still tell a
// W3X file from others and name why they cannot read it.
#include "w3x/w3x_reader.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace rs::w3x {

bool looksLikeW3x(ByteSpan b) {
    size_t i = 0;
    const size_t n = std::min<size_t>(b.size, 1024);
    if (n >= 3 && b.data[0] == 0xEF && b.data[1] == 0xBB && b.data[2] == 0xBF) i = 3;
    // Skip whitespace, the XML declaration, comments and processing instructions.
    while (i < n) {
        while (i < n && std::isspace(b.data[i]))
            ++i;
        if (i + 1 < n && b.data[i] == '<' && (b.data[i + 1] == '?' || b.data[i + 1] == '!')) {
            const uint8_t* e = static_cast<const uint8_t*>(std::memchr(b.data + i, '>', n - i));
            if (!e) return false;
            i = size_t(e - b.data) + 1;
            continue;
        }
        break;
    }
    static const char kRoot[] = "<AssetDeclaration";
    return i + sizeof kRoot - 1 <= n && std::memcmp(b.data + i, kRoot, sizeof kRoot - 1) == 0;
}

} // namespace rs::w3x
