// core/common/cp1252.h: the whole CP-1252 table (Windows' 0x80-0x9F, the five undefined bytes as C1 code
// points), UTF-8 encoding, and paths kept when already UTF-8.
#include "common/cp1252.h"

#include <catch2/catch.hpp>

using namespace rs;

TEST_CASE("cp1252CodePoint: the complete table", "[cp1252]") {
    const char32_t high[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                               0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                               0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
    for (int b = 0; b < 256; ++b) {
        INFO("byte " << b);
        const char32_t want = b >= 0x80 && b < 0xA0 ? high[b - 0x80] : char32_t(b);
        CHECK(cp1252CodePoint(uint8_t(b)) == want);
    }
}

TEST_CASE("cp1252ToUtf8: every byte to valid UTF-8", "[cp1252]") {
    CHECK(cp1252ToUtf8("Bone_01") == "Bone_01");
    CHECK(cp1252ToUtf8("\x80") == "\u20AC");
    CHECK(cp1252ToUtf8("\xE9") == "\u00E9");
    CHECK(cp1252ToUtf8("caf\xE9 \x99 \x9F\xFF") == "caf\u00E9 \u2122 \u0178\u00FF");
    CHECK(cp1252ToUtf8("\x81\x8D\x8F\x90\x9D") == "\xC2\x81\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D");
    CHECK(cp1252ToUtf8(std::string_view("a\0b", 3)) == std::string("a\0b", 3));
    std::string all;
    for (int b = 1; b < 256; ++b)
        all += char(b);
    const std::string u = cp1252ToUtf8(all);
    CHECK(isValidUtf8(u));
    CHECK_FALSE(isValidUtf8(all));
}

TEST_CASE("pathToUtf8 keeps UTF-8 paths and converts CP-1252 ones; isValidUtf8", "[cp1252]") {
    CHECK(pathToUtf8("/models/\u00E9t\u00E9.alo") == "/models/\u00E9t\u00E9.alo");
    CHECK(pathToUtf8("/models/\xE9t\xE9.alo") == "/models/\u00E9t\u00E9.alo");
    CHECK(isValidUtf8("\xF0\x9F\x98\x80"));
    CHECK_FALSE(isValidUtf8("\xC0\xAF"));         // overlong
    CHECK_FALSE(isValidUtf8("\xED\xA0\x80"));     // surrogate
    CHECK_FALSE(isValidUtf8("\xF4\x90\x80\x80")); // past U+10FFFF
    CHECK_FALSE(isValidUtf8("\xE2\x82"));         // cut short
}
