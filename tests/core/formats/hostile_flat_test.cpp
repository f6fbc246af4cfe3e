// Hostile fields for the readers of non-chunked formats (B&W2 .bwm/.al little-endian, AMOS banks big-endian),
// built from the project's writers: every aligned 16-bit and 32-bit field of the first 1 KiB set to huge,
// negative and off-by-one-past-the-end values. Complements the owners' targeted tests (bw2_corrupt_test,
// amal_bank_test): each case must throw ParseError (file + offset) or load data that keeps the contracts,
// within bounded heap and CPU time (hostile.h).
#include "amal/amal_writer.h"
#include "bw2_fixtures.h"
#include "hostile.h"

#include <catch2/catch.hpp>

using namespace rs;

namespace {

int sweep(const test::Sample& s, bool bigEndian, int& loaded) {
    int n = 0;
    const size_t limit = std::min<size_t>(s.bytes.size(), 1024);
    const uint32_t size = uint32_t(s.bytes.size());
    for (size_t at = 0; at + 4 <= limit; at += 2) {
        for (uint32_t v : {0x7FFFFFFFu, 0xFFFFFFFFu, 0x80000000u, size, size + 1}) {
            if (at % 4) break; // 32-bit fields on 4-byte boundaries only
            auto m = s.bytes;
            for (int i = 0; i < 4; ++i)
                m[at + i] = uint8_t(v >> (8 * (bigEndian ? 3 - i : i)));
            ++n;
            loaded += test::expectLoadsOrRejects(m, s.name, s.name + ": u32 at " + std::to_string(at) + " = " + hex(v));
        }
        for (uint16_t v : {uint16_t(0xFFFF), uint16_t(0x7FFF), uint16_t(0x8000)}) {
            auto m = s.bytes;
            m[at + (bigEndian ? 0 : 1)] = uint8_t(v >> 8);
            m[at + (bigEndian ? 1 : 0)] = uint8_t(v);
            ++n;
            loaded += test::expectLoadsOrRejects(m, s.name, s.name + ": u16 at " + std::to_string(at) + " = " + hex(v));
        }
    }
    return n;
}

} // namespace

TEST_CASE("hostile B&W2: every 16/32-bit field of .bwm and .al headers set to hostile values", "[bw2][hostile]") {
    using namespace rs::test::bw2fx;
    const std::vector<test::Sample> samples = {{"static6.bwm", bw2::writeBwm(staticModel(6))},
                                               {"static5.bwm", bw2::writeBwm(staticModel(5))},
                                               {"skin_u8.bwm", bw2::writeBwm(skinModel(bw2::SkinLayout::U8PerIndex))},
                                               {"skin_u32.bwm", bw2::writeBwm(skinModel(bw2::SkinLayout::U32PerIndex))},
                                               {"library.al", bw2::writeAl(library())}};
    for (const test::Sample& s : samples) {
        bool ok = false;
        REQUIRE(test::tryLoad(s.bytes, s.name, ok).empty());
        REQUIRE(ok); // the unpatched sample loads
        int loaded = 0;
        const int n = sweep(s, false, loaded);
        INFO(s.name << ": " << n << " cases, " << loaded << " loaded");
        REQUIRE(n > 100);
    }
}

TEST_CASE("hostile AMAL: every 16/32-bit field of a bank set to hostile values", "[amal][hostile]") {
    amal::BankSpec bank;
    amal::MovementSpec mv;
    mv.name = "WALK";
    mv.speed = 2;
    mv.x = {amal::moveByte(3), amal::pauseByte(2), amal::moveByte(-5)};
    mv.y = {amal::moveByte(1)};
    bank.movements = {mv, mv};
    bank.programs = {"Move 10,0,5", "L: M 20,-20,10; J L", "PL 1"};
    const std::vector<test::Sample> samples = {{"bank.abk", amal::writeAmalBank(bank)},
                                               {"source.AMOS", amal::writeAmosSource({amal::writeAmalBank(bank)})}};
    for (const test::Sample& s : samples) {
        bool ok = false;
        REQUIRE(test::tryLoad(s.bytes, s.name, ok).empty());
        REQUIRE(ok);
        int loaded = 0;
        const int n = sweep(s, true, loaded);
        INFO(s.name << ": " << n << " cases, " << loaded << " loaded");
        REQUIRE(n > 50);
    }
}
