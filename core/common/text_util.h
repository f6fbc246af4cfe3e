// Small text helpers shared by the readers and writers (no Qt).
#pragma once

#include <cctype>
#include <cstdint>
#include <string>

namespace rs {

// s without leading and trailing white space (std::isspace in the C locale: space, \t, \n, \v, \f, \r).
inline std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

// UTF-8 text as Latin-1 where it can be (the names MEG archives store): each two-byte sequence of U+0080..U+00FF
// becomes its byte; every other byte is kept as it is.
inline std::string utf8ToLatin1(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = uint8_t(s[i]);
        if ((c == 0xC2 || c == 0xC3) && i + 1 < s.size() && (uint8_t(s[i + 1]) & 0xC0) == 0x80) {
            out.push_back(char(((c & 0x03) << 6) | (uint8_t(s[i + 1]) & 0x3F)));
            ++i;
        } else {
            out.push_back(char(c));
        }
    }
    return out;
}

} // namespace rs
