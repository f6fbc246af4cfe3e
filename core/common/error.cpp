#include "common/error.h"

#include "common/bytes.h"

#include <cstdio>

namespace rs {

std::string printable(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    auto esc = [&](unsigned char c) {
        char b[8];
        std::snprintf(b, sizeof b, "\\x%02X", c);
        out += b;
    };
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += char(c);
            ++i;
            continue;
        }
        // Length and minimum code point of a UTF-8 sequence starting with c (0: not a lead byte).
        const size_t n = c >= 0xC2 && c <= 0xDF ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
        bool ok = n != 0 && i + n <= s.size();
        uint32_t cp = n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
        for (size_t k = 1; ok && k < n; ++k) {
            const unsigned char d = static_cast<unsigned char>(s[i + k]);
            ok = (d & 0xC0) == 0x80;
            cp = cp << 6 | (d & 0x3F);
        }
        // Overlong forms, surrogates, beyond U+10FFFF and the C1 controls U+0080..U+009F are escaped.
        if (ok)
            ok = !(n == 3 && cp < 0x800) && !(n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
                 !(cp >= 0xD800 && cp <= 0xDFFF) && !(cp >= 0x80 && cp <= 0x9F);
        if (!ok) {
            esc(c);
            ++i;
            continue;
        }
        out.append(s, i, n);
        i += n;
    }
    return out;
}

static std::string composeMessage(const std::string& file, const std::string& path, uint64_t offset,
                                  const std::string& message) {
    std::string s = file.empty() ? std::string("<memory>") : printable(file);
    s += ": ";
    if (!path.empty()) s += (path.rfind("0x", 0) == 0 ? "chunk " : "field ") + printable(path) + " ";
    if (offset != ParseError::kNoOffset)
        s += "at offset " + std::to_string(offset) + ": ";
    else if (!path.empty())
        s.back() = ':', s += ' ';
    s += printable(message);
    return s;
}

ParseError::ParseError(std::string file, std::string chunkPath, uint64_t offset, std::string message)
    : std::runtime_error(composeMessage(file, chunkPath, offset, message)), file_(std::move(file)),
      chunkPath_(std::move(chunkPath)), offset_(offset), message_(std::move(message)) {}

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%X", v);
    return b;
}

} // namespace rs
