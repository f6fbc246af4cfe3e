// AMAL bank reader: synthetic banks from the project's writer, containers (.abk, AmBs, .AMOS),
// bad input (truncation, bit flips, hostile counts) and the corpus.
#include "amal/amal_bank.h"
#include "amal/amal_play.h"
#include "amal/amal_sim.h"
#include "amal/amal_writer.h"
#include "corpus.h"
#include "format_catch.h"
#include "resolve/resolver.h"

#include <catch2/catch.hpp>

#include <map>

using namespace rs;
using namespace rs::amal;

namespace {

BankSpec sampleSpec() {
    BankSpec s;
    MovementSpec a;
    a.name = "Swoop";
    a.speed = 3;
    a.x = {moveByte(5), moveByte(-64), pauseByte(3), moveByte(63)};
    a.y = {pauseByte(1), moveByte(-2), moveByte(7), moveByte(1), moveByte(1), moveByte(1)};
    MovementSpec empty;
    empty.defined = false;
    MovementSpec b;
    b.name = "Line";
    b.speed = 1;
    b.x = {moveByte(1), moveByte(1)};
    b.y = {moveByte(2), moveByte(2)};
    s.movements = {a, empty, b};
    s.programs = {"Move 10,0,5~Let A=2~", "", "Loop: Let X=X+1 ; Jump Loop"};
    s.environment = "Bob off~Screen 0~";
    return s;
}

void checkSample(const Bank& b) {
    REQUIRE(b.movementSlots == 3);
    CHECK(b.definedMovements() == 2);
    const Movement* a = b.movement(1);
    REQUIRE(a);
    CHECK(a->name == "Swoop");
    CHECK(a->speed == 3);
    CHECK(a->xSteps == std::vector<uint8_t>{0x05, 0x40, 0x82, 0x3F});
    CHECK(a->ySteps.size() == 6);
    CHECK(streamSum(a->xSteps) == 5 - 64 + 63);
    CHECK(streamSteps(a->xSteps) == 6);
    CHECK(streamSum(a->ySteps) == 8);
    CHECK(b.movement(2) == nullptr);
    CHECK(b.movements[1].name == "Empty");
    REQUIRE(b.movement(3));
    CHECK(b.movement(3)->name == "Line");
    CHECK(b.movement(4) == nullptr);
    REQUIRE(b.programSlots == 3);
    CHECK(b.programs[0].text == "Move 10,0,5~Let A=2~");
    CHECK(b.programs[1].text.empty());
    CHECK(b.programs[2].text == "Loop: Let X=X+1 ; Jump Loop");
    CHECK(b.environment == "Bob off~Screen 0~");
    CHECK(b.warnings.empty());
}

std::vector<uint8_t> sampleSource() {
    return writeAmosSource({writeImageBank(3, 5), writeAmalBank(sampleSpec()), writeMemoryBank(6, "Pac.Pic.", 40)}, 30);
}

// Truncation at every byte and bit flips: the reader either succeeds or throws ParseError.
void hammer(const std::vector<uint8_t>& data, const std::string& name, int flips) {
    for (size_t n = 0; n < data.size(); n += (data.size() > 4000 ? 7 : 1)) {
        std::vector<uint8_t> cut(data.begin(), data.begin() + long(n));
        try {
            BankFile f = readBankFile(ByteSpan(cut), name);
            for (const auto& b : f.amalBanks)
                for (const auto& p : b.programs)
                    (void)compile(p.text, true);
        } catch (const ParseError& e) {
            CHECK(e.file() == name);
        }
    }
    uint32_t s = 0xC0FFEE;
    for (int k = 0; k < flips; ++k) {
        std::vector<uint8_t> bad = data;
        for (int f = 0; f < 4; ++f) {
            s = s * 1664525u + 1013904223u;
            bad[(s >> 8) % bad.size()] ^= uint8_t(1u << (s & 7));
        }
        try {
            BankFile f = readBankFile(ByteSpan(bad), name);
            for (const auto& b : f.amalBanks) {
                for (const auto& m : b.movements)
                    if (m.defined) (void)playMovement(m, true, 0, 0, 5000);
                for (const auto& p : b.programs) {
                    SimOptions o;
                    o.ticks = 50;
                    SimResult r = simulate(p.text, &b, o);
                    CHECK(r.runtimeError.empty());
                }
            }
        } catch (const ParseError& e) {
            CHECK(e.file() == name);
        }
    }
}

} // namespace

TEST_CASE("amal bank: writer round trip (.abk)", "[amal][bank]") {
    std::vector<uint8_t> abk = writeAmalBank(sampleSpec());
    BankFile f = readBankFile(ByteSpan(abk), "sample.abk");
    CHECK(f.container == "abk");
    REQUIRE(f.amalBanks.size() == 1);
    CHECK(f.amalBanks[0].number == 4);
    CHECK(f.amalBanks[0].payloadOffset == 20);
    checkSample(f.amalBanks[0]);
    CHECK(f.otherBanks.empty());
    CHECK(f.warnings.empty());
    CHECK(detectFormat(ByteSpan(abk), "sample.abk") == Format::Amal);
    Document d = Resolver().read(ByteSpan(abk), "sample.abk");
    CHECK(d.format == Format::Amal);
    CHECK_FALSE(d.model);
}

TEST_CASE("amal bank: .AMOS source and AmBs bank lists; other banks listed and skipped", "[amal][bank]") {
    std::vector<uint8_t> src = sampleSource();
    BankFile f = readBankFile(ByteSpan(src), "game.AMOS");
    CHECK(f.container == "amos");
    REQUIRE(f.amalBanks.size() == 1);
    checkSample(f.amalBanks[0]);
    // 16 header + 4 length + 30 code + 4 "AmBs" + 2 count, then the image bank.
    REQUIRE(f.otherBanks.size() == 2);
    CHECK(f.otherBanks[0].kind == "AmSp");
    CHECK(f.otherBanks[0].offset == 56);
    CHECK(f.otherBanks[0].images == 3);
    CHECK(f.otherBanks[0].length == 6 + 3 * (10 + 20) + 64);
    CHECK(f.amalBanks[0].offset == 56 + 6 + 3 * 30 + 64);
    CHECK(f.otherBanks[1].kind == "AmBk");
    CHECK(f.otherBanks[1].type == "Pac.Pic.");
    CHECK(f.otherBanks[1].number == 6);
    CHECK(f.warnings.empty());

    std::vector<uint8_t> list = {'A', 'm', 'B', 's', 0, 2};
    for (auto b : {writeMemoryBank(3, "Data", 10), writeAmalBank(sampleSpec())})
        list.insert(list.end(), b.begin(), b.end());
    BankFile g = readBankFile(ByteSpan(list), "all.abk");
    CHECK(g.container == "banks");
    REQUIRE(g.amalBanks.size() == 1);
    checkSample(g.amalBanks[0]);
}

TEST_CASE("amal bank: files without an Amal bank say so", "[amal][bank]") {
    std::vector<uint8_t> sprites = writeImageBank(2, 4);
    BankFile f = readBankFile(ByteSpan(sprites), "sprites.abk");
    CHECK(f.amalBanks.empty());
    try {
        requireAmalBank(f);
        FAIL("no exception");
    } catch (const ParseError& e) {
        CHECK(e.file() == "sprites.abk");
        CHECK(e.message().find("no Amal bank") != std::string::npos);
        CHECK(e.message().find("Sprites bank (2 images)") != std::string::npos);
    }
    std::vector<uint8_t> bare = writeAmosSource({}, 8);
    BankFile g = readBankFile(ByteSpan(bare), "plain.AMOS");
    CHECK(g.amalBanks.empty());
    CHECK_THROWS_AS(requireAmalBank(g), ParseError);
    CHECK_THROWS_AS(Resolver().read(ByteSpan(bare), "plain.AMOS"), ParseError);
    const std::vector<uint8_t> junk = {'X', 'Y', 'Z', 0, 1, 2, 3, 4};
    CHECK_THROWS_AS(readBankFile(ByteSpan(junk), "junk.abk"), ParseError);
}

TEST_CASE("amal bank: damaged header length is tolerated with a warning", "[amal][bank]") {
    std::vector<uint8_t> abk = writeAmalBank(sampleSpec());
    abk[8] = 0x8F; // length far beyond the file (a ripped/truncated bank header)
    BankFile f = readBankFile(ByteSpan(abk), "ripped.abk");
    REQUIRE(f.amalBanks.size() == 1);
    checkSample(f.amalBanks[0]);
    REQUIRE(f.warnings.size() == 1);
    CHECK(f.warnings[0].find("length field") != std::string::npos);
}

TEST_CASE("amal bank: a ripped .abk without its AmBk header is read with a warning", "[amal][bank]") {
    std::vector<uint8_t> abk = writeAmalBank(sampleSpec());
    std::vector<uint8_t> raw(abk.begin() + 20, abk.end());
    BankFile f = readBankFile(ByteSpan(raw), "ripped.abk");
    CHECK(f.container == "raw");
    REQUIRE(f.amalBanks.size() == 1);
    Bank b = f.amalBanks[0];
    REQUIRE(b.warnings.size() == 1);
    CHECK(b.warnings[0].find("no AmBk header") != std::string::npos);
    b.warnings.clear();
    checkSample(b);
    CHECK(detectFormat(ByteSpan(raw), "ripped.abk") == Format::Amal);
    // Only .abk files get that reading, and only when it finds something.
    CHECK_THROWS_AS(readBankFile(ByteSpan(raw), "ripped.bin"), ParseError);
    std::vector<uint8_t> zeros(64, 0);
    CHECK_THROWS_AS(readBankFile(ByteSpan(zeros), "zeros.abk"), ParseError);
}

TEST_CASE("amal bank: hostile counts and offsets give errors with offsets", "[amal][bank][bad]") {
    std::vector<uint8_t> abk = writeAmalBank(sampleSpec());
    {
        auto bad = abk;
        bad[24] = 0xFF; // movement count 0xFF03 at payload+4
        try {
            readBankFile(ByteSpan(bad), "count.abk");
            FAIL("no exception");
        } catch (const ParseError& e) {
            CHECK(e.chunkPath() == "Amal/movements");
            CHECK(e.offset() == 26); // after the count word
            CHECK(e.message().find("movement count 65283") != std::string::npos);
        }
    }
    {
        auto bad = abk;
        bad[26] = 0x7F; // offset of movement 1 far outside the bank
        try {
            readBankFile(ByteSpan(bad), "offset.abk");
            FAIL("no exception");
        } catch (const ParseError& e) {
            CHECK(e.chunkPath() == "Amal/movements/1");
            CHECK(e.message().find("past the end") != std::string::npos);
        }
    }
    {
        auto bad = abk;
        const uint32_t progOff = uint32_t(bad[20]) << 24 | uint32_t(bad[21]) << 16 | uint32_t(bad[22]) << 8 | bad[23];
        bad[20 + progOff] = 0x7F; // program count
        try {
            readBankFile(ByteSpan(bad), "progs.abk");
            FAIL("no exception");
        } catch (const ParseError& e) {
            CHECK(e.chunkPath() == "Amal/programs");
            CHECK(e.offset() == 20 + progOff + 2);
            CHECK(e.message().find("program count") != std::string::npos);
        }
    }
    {
        auto bad = writeImageBank(2, 4);
        bad[5] = 0xFF; // 255 images
        CHECK_THROWS_AS(readBankFile(ByteSpan(bad), "img.abk"), ParseError);
    }
    {
        auto bad = sampleSource();
        bad[17] = 0xFF; // code length past the end
        try {
            readBankFile(ByteSpan(bad), "code.AMOS");
            FAIL("no exception");
        } catch (const ParseError& e) {
            CHECK(e.offset() == 16);
        }
    }
}

TEST_CASE("amal bank: truncation and bit flips never crash (synthetic)", "[amal][bank][bad]") {
    hammer(writeAmalBank(sampleSpec()), "sample.abk", 400);
    hammer(sampleSource(), "game.AMOS", 400);
}

TEST_CASE("amal corpus: every Amal bank found and decoded", "[amal][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("amal");
    // name -> {movements, programs}; measured independently (hex dump of the offset tables).
    const std::map<std::string, std::pair<int, int>> expect = {
        {"PLay_Data.Abk", {1, 0}}, {"AMAL_Example_File.Abk", {1, 8}},
        {"Moves.Abk", {15, 0}},    {"LightSpeed.AMOS", {3, 13}},
        {"Amal.Abk", {1, 1}},
    };
    const auto files = rs::test::corpusFiles("amal", {".abk", ".amos"});
    REQUIRE(files.size() == 7);
    int withBank = 0, without = 0;
    for (const auto& path : files) {
        INFO(path);
        const std::string name = std::filesystem::path(path).filename().string();
        std::vector<uint8_t> bytes = readFileBytes(path);
        CHECK(detectFormat(ByteSpan(bytes), path) == Format::Amal);
        BankFile f = readBankFile(ByteSpan(bytes), path);
        auto it = expect.find(name);
        if (it == expect.end()) {
            // Bobs.abk (a sprite bank) and AMAL_5.AMOS (no banks): say so.
            ++without;
            CHECK(f.amalBanks.empty());
            try {
                requireAmalBank(f);
                FAIL("no exception");
            } catch (const ParseError& e) {
                CHECK(e.file() == path);
                CHECK(e.message().find("no Amal bank") != std::string::npos);
            }
            continue;
        }
        ++withBank;
        REQUIRE(f.amalBanks.size() == 1);
        const Bank& b = f.amalBanks[0];
        CHECK(b.number == 4);
        CHECK(b.movementSlots == 48);
        CHECK(b.programSlots == 64);
        CHECK(b.definedMovements() == it->second.first);
        CHECK(b.nonEmptyPrograms() == it->second.second);
        CHECK_FALSE(b.environment.empty());
        if (name == "LightSpeed.AMOS") {
            REQUIRE(f.otherBanks.size() == 3);
            CHECK(f.otherBanks[0].kind == "AmSp");
            CHECK(f.otherBanks[1].kind == "AmIc");
            CHECK(f.otherBanks[2].type == "Pac.Pic.");
            CHECK(b.offset == 0x4B14);
        }
        if (name == "PLay_Data.Abk") {
            const Movement* m = b.movement(1);
            REQUIRE(m);
            CHECK(m->speed == 2);
            CHECK(m->xSteps.size() == 267);
            CHECK(m->ySteps.size() == 260);
            CHECK(streamSteps(m->xSteps) == streamSteps(m->ySteps)); // recorded together: 288 steps
        }
    }
    CHECK(withBank == 5);
    CHECK(without == 2);
}

TEST_CASE("amal corpus: movement paths end where the step sums say", "[amal][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("amal");
    int checked = 0;
    for (const auto& path : rs::test::corpusFiles("amal", {".abk", ".amos"})) {
        std::vector<uint8_t> bytes = readFileBytes(path);
        BankFile f = readBankFile(ByteSpan(bytes), path);
        for (const auto& b : f.amalBanks)
            for (const auto& m : b.movements) {
                if (!m.defined) continue;
                INFO(path << " movement " << m.index);
                // Expand each stream into per-step deltas; PLay stops at the first terminator, X read first.
                auto expand = [](const std::vector<uint8_t>& s) {
                    std::vector<int> d;
                    for (uint8_t c : s) {
                        if (c & 0x80)
                            d.insert(d.end(), size_t((c & 0x7F) + 1), 0);
                        else
                            d.push_back(stepValue(c));
                    }
                    return d;
                };
                const auto dx = expand(m.xSteps), dy = expand(m.ySteps);
                const size_t nx = dx.size(), ny = dy.size();
                const size_t xTaken = nx <= ny ? nx : ny + 1; // when Y ends first, X has made one more step
                const size_t yTaken = std::min(nx, ny);
                int ex = 0, ey = 0;
                for (size_t i = 0; i < xTaken; ++i)
                    ex += dx[i];
                for (size_t i = 0; i < yTaken; ++i)
                    ey += dy[i];
                MovementPath p = playMovement(m, true, 0, 0);
                CHECK(p.points.back().x == ex);
                CHECK(p.points.back().y == ey);
                CHECK(p.steps == int(std::min(nx, ny)));
                CHECK(p.endTick == int(std::min(nx, ny)) * std::max<int>(1, m.speed) + 1);
                if (nx == ny) {
                    CHECK(ex == streamSum(m.xSteps));
                    CHECK(ey == streamSum(m.ySteps));
                }
                // PLay through the simulator gives the same end point.
                SimOptions o;
                o.ticks = p.endTick + 2;
                SimResult r = simulate("PLay " + std::to_string(m.index), &b, o);
                REQUIRE(r.ok());
                CHECK(r.ticks.back().x == ex);
                CHECK(r.ticks.back().y == ey);
                CHECK(r.endTick == p.endTick);
                ++checked;
            }
    }
    CHECK(checked == 21);
}

TEST_CASE("amal corpus: programs compile and run within the step limit", "[amal][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("amal");
    int programs = 0;
    for (const auto& path : rs::test::corpusFiles("amal", {".abk", ".amos"})) {
        std::vector<uint8_t> bytes = readFileBytes(path);
        BankFile f = readBankFile(ByteSpan(bytes), path);
        for (const auto& b : f.amalBanks)
            for (const auto& p : b.programs) {
                if (p.text.empty()) continue;
                INFO(path << " program " << p.index);
                CompiledProgram c = compile(p.text, true);
                CHECK(c.error.toString(p.index) == compile("", true).error.toString(p.index));
                SimOptions o;
                o.ticks = 3000;
                o.in.j1 = 8; // joystick right: exercises the input branches
                SimResult r = simulate(c, &b, o);
                CHECK(r.ok());
                CHECK(r.ticks.size() == 3001);
                ++programs;
            }
    }
    CHECK(programs == 22);
}

TEST_CASE("amal corpus: truncation and bit flips never crash", "[amal][corpus][bad]") {
    RIGSCOPE_REQUIRE_CORPUS("amal");
    for (const auto& path : rs::test::corpusFiles("amal", {".abk", ".amos"})) {
        INFO(path);
        hammer(readFileBytes(path), path, 60);
    }
}

TEST_CASE("amal bank: sprite/icon images decoded plane by plane", "[amal][bank]") {
    std::vector<uint8_t> b = writeImageBank(2, 3);
    BankFile f = readBankFile(ByteSpan(b), "spr.abk");
    REQUIRE(f.imageBanks.size() == 1);
    const ImageBank& ib = f.imageBanks[0];
    CHECK_FALSE(ib.icons);
    REQUIRE(ib.images.size() == 2);
    const AmosImage& im = ib.images[0];
    CHECK(im.width() == 16);
    CHECK(im.height == 3);
    CHECK(im.depth == 2);
    // Image 1: plane 0 = $5A (0101 1010), plane 1 = $A5 (1010 0101): colours 2,1,2,1,1,2,1,2.
    CHECK(im.colorAt(0, 0) == 2);
    CHECK(im.colorAt(1, 0) == 1);
    CHECK(im.colorAt(3, 2) == 1);
    CHECK(im.colorAt(5, 1) == 2);
    CHECK(im.colorAt(8, 1) == 2);
    CHECK(im.colorAt(16, 0) == 0); // outside
    CHECK(im.colorAt(-1, 0) == 0);
    // Image 2: plane 0 = $5B (0101 1011), plane 1 = $A4 (1010 0100).
    CHECK(ib.images[1].colorAt(7, 0) == 1);
    CHECK(ib.images[1].colorAt(5, 0) == 2);
    CHECK(ib.palette[1] == 0x111);
}

TEST_CASE("amal writer: image bank with a palette reads back pixel for pixel") {
    std::array<uint16_t, 32> palette{};
    palette[1] = 0x0F0;
    palette[3] = 0x00F;
    ImageSpec a = solidImage(1, 4, 2, 3);
    a.hotX = 5;
    a.hotY = 2;
    const ImageSpec b = solidImage(2, 3, 1, 1);
    const std::vector<uint8_t> bytes = writeAmosSource({writeAmalBank(BankSpec{}), writeImageBank({a, b}, palette)});
    const BankFile f = readBankFile(rs::ByteSpan(bytes), "written.AMOS");
    REQUIRE(f.imageBanks.size() == 1);
    const ImageBank& bank = f.imageBanks[0];
    REQUIRE(bank.images.size() == 2);
    CHECK(bank.palette[1] == 0x0F0);
    CHECK(bank.palette[3] == 0x00F);
    CHECK(bank.images[0].width() == 16);
    CHECK(bank.images[0].height == 4);
    CHECK(bank.images[0].hotX == 5);
    CHECK(bank.images[0].hotY == 2);
    CHECK(bank.images[0].colorAt(0, 0) == 3);
    CHECK(bank.images[0].colorAt(15, 3) == 3);
    CHECK(bank.images[1].width() == 32);
    CHECK(bank.images[1].colorAt(31, 2) == 1);
    CHECK(bank.images[1].colorAt(32, 2) == 0); // outside
}
