#include "common/bytes.h"

#include <catch2/catch.hpp>

using namespace rs;

TEST_CASE("ByteReader reads little and big endian and refuses to overrun", "[bytes]") {
    const uint8_t d[] = {0x01, 0x02, 0x03, 0x04, 0xAA};
    ByteReader r(ByteSpan(d, sizeof d), "f.bin", "0x400", 100);
    REQUIRE(r.u16le() == 0x0201);
    REQUIRE(r.u16be() == 0x0304);
    REQUIRE(r.remaining() == 1);
    try {
        r.u32le();
        FAIL("expected ParseError");
    } catch (const ParseError& e) {
        REQUIRE(e.file() == "f.bin");
        REQUIRE(e.chunkPath() == "0x400");
        REQUIRE(e.offset() == 104);
        REQUIRE(std::string(e.what()).find("f.bin: chunk 0x400 at offset 104") == 0);
    }
}

TEST_CASE("needCount rejects counts larger than the bytes left without overflow", "[bytes]") {
    const uint8_t d[16] = {};
    ByteReader r(ByteSpan(d, sizeof d), "f.bin");
    REQUIRE_NOTHROW(r.needCount(4, 4, "items"));
    REQUIRE_THROWS_AS(r.needCount(5, 4, "items"), ParseError);
    REQUIRE_THROWS_AS(r.needCount(0x7FFFFFFFFFFFFFFFull, 144, "vertices"), ParseError);
}

TEST_CASE("ByteWriter round trips through ByteReader", "[bytes]") {
    ByteWriter w;
    w.u32le(0xDEADBEEF);
    w.f32le(1.5f);
    w.fixedString("name", 8);
    w.u32be(7);
    ByteReader r(ByteSpan(w.buf), "mem");
    REQUIRE(r.u32le() == 0xDEADBEEF);
    REQUIRE(r.f32le() == 1.5f);
    REQUIRE(r.fixedString(8) == "name");
    REQUIRE(r.u32be() == 7);
    REQUIRE(r.atEnd());
}
