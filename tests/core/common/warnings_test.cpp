// Reader warnings stay bounded however often a damaged file repeats a problem (common/warnings.h pushWarning).
#include "common/warnings.h"
#include "formats/formats.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

using namespace rs;

TEST_CASE("pushWarning keeps the first lines and counts the rest", "[warnings]") {
    std::vector<std::string> w;
    for (size_t i = 0; i < kMaxListedWarnings; ++i)
        pushWarning(w, "w" + std::to_string(i));
    CHECK(w.size() == kMaxListedWarnings);
    CHECK(w.back() == "w" + std::to_string(kMaxListedWarnings - 1));
    pushWarning(w, "more");
    REQUIRE(w.size() == kMaxListedWarnings + 1);
    CHECK(w.back() == "1 further warnings not listed");
    for (int i = 0; i < 999; ++i)
        pushWarning(w, "more");
    CHECK(w.size() == kMaxListedWarnings + 1);
    CHECK(w.back() == "1000 further warnings not listed");
}

TEST_CASE("a W3D file with 100,000 unknown chunks gives a bounded warning list", "[warnings][w3d][hostile]") {
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy()); // a W3D file starts with a known chunk
    for (int i = 0; i < 100000; ++i) {
        cw.begin(0x7FFF0000u); // no W3D chunk has this id
        cw.end();
    }
    const std::vector<uint8_t> bytes = cw.take();
    const Document d = readDocument(ByteSpan(bytes), ReadContext{"unknown.w3d", {}});
    std::vector<std::string> all = d.warnings;
    if (d.model) all.insert(all.end(), d.model->warnings.begin(), d.model->warnings.end());
    CHECK(all.size() <= kMaxListedWarnings + 2);
    REQUIRE_FALSE(all.empty());
    bool counted = false;
    for (const std::string& s : all)
        counted = counted || s.find("further warnings not listed") != std::string::npos;
    CHECK(counted);
}
