// MEG and BIG readers and writers: round trips, corpus archives with the contents their own projects' tests
// expect, hostile archives.
#include "corpus.h"

#include "vfs/archive.h"
#include "vfs/archive_writer.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <unistd.h>

using namespace rs;
using namespace rs::vfs;
using rs::test::corpusDir;

namespace {

std::vector<uint8_t> bytesOf(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::string text(const Source& src, const std::string& name) {
    const Entry* e = src.find(name);
    if (!e) return "<missing " + name + ">";
    EntryBytes b = src.read(*e);
    return std::string(reinterpret_cast<const char*>(b.span.data), b.span.size);
}

std::string errorOf(ByteSpan bytes, const std::string& label) {
    try {
        openArchiveCopy(bytes, label);
    } catch (const ParseError& e) {
        return e.what();
    }
    return {};
}

std::vector<WriteEntry> sampleEntries() {
    return {{"DATA\\ART\\MODELS\\UNIT.ALO", bytesOf("model bytes")},
            {"DATA\\ART\\TEXTURES\\UNIT.DDS", bytesOf("texture")},
            {"DATA\\XML\\EMPTY.XML", {}},
            {"DATA\\ART\\MODELS\\UNIT_IDLE_00.ALA", bytesOf(std::string(1000, 'x'))}};
}

} // namespace

TEST_CASE("normalizePath folds case and separators", "[vfs]") {
    CHECK(normalizePath("Data\\Art/models\\\\x.alo") == "DATA/ART/MODELS/X.ALO");
    CHECK(normalizePath("./art/w3d/ab/abc.w3d") == "ART/W3D/AB/ABC.W3D");
    CHECK(normalizePath("/test/hello.txt") == "TEST/HELLO.TXT");
}

TEST_CASE("crc32 is zlib's", "[vfs]") {
    CHECK(crc32("123456789", 9) == 0xCBF43926u);
    CHECK(crc32("TEST.TXT", 8) == 0xD0C87709u); // stored in PetroglyphTools' v1_1_file_data.meg
}

TEST_CASE("MEG v1/v2/v3 and BIG writers round trip through the readers", "[vfs]") {
    const auto entries = sampleEntries();
    for (int v : {1, 2, 3}) {
        INFO("MEG version " << v);
        auto a = openArchiveCopy(ByteSpan(writeMeg(v, entries)), "t.meg");
        CHECK(a->kind() == "meg" + std::to_string(v));
        REQUIRE(a->entries().size() == entries.size());
        CHECK(a->warnings().empty());
        for (const auto& we : entries) {
            const Entry* e = a->find(we.name);
            REQUIRE(e);
            CHECK(e->crc == crc32(we.name.data(), we.name.size()));
            EntryBytes b = a->read(*e);
            CHECK(std::vector<uint8_t>(b.span.data, b.span.data + b.span.size) == we.data);
        }
        CHECK(a->find("data/art/models/unit.alo"));
        CHECK(text(*a, "Data/Art/Models/Unit_Idle_00.ala") == std::string(1000, 'x'));
        CHECK_FALSE(a->find("DATA/ART/MODELS/NOPE.ALO"));
        // Records are sorted by CRC.
        for (size_t i = 1; i < a->entries().size(); ++i)
            CHECK(a->entries()[i - 1].crc <= a->entries()[i].crc);
    }
    for (const char* magic : {"BIGF", "BIG4"}) {
        auto a = openArchiveCopy(ByteSpan(writeBig(entries, magic)), "t.big");
        CHECK(a->kind() == (std::string(magic) == "BIGF" ? "bigf" : "big4"));
        REQUIRE(a->entries().size() == entries.size());
        CHECK(a->warnings().empty());
        CHECK(text(*a, "data/art/textures/unit.dds") == "texture");
        CHECK(a->entries()[0].name == "DATA\\ART\\MODELS\\UNIT.ALO");
    }
}

TEST_CASE("MEG names are Latin-1 on disk and UTF-8 in the listing", "[vfs]") {
    auto bytes = writeMeg(1, {{"TEST\xC3\xBC.TXT", bytesOf("123")}});
    // 9 bytes on disk: TEST, 0xFC, .TXT
    CHECK(bytes[8] == 9);
    CHECK(bytes[14] == 0xFC);
    auto a = openArchiveCopy(ByteSpan(bytes), "l.meg");
    REQUIRE(a->entries().size() == 1);
    CHECK(a->entries()[0].name == "TEST\xC3\xBC.TXT");
    CHECK(a->warnings().empty()); // CRC over the Latin-1 bytes
}

TEST_CASE("corpus MEG archives list and read what PetroglyphTools' tests expect", "[vfs][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("archives");
    const std::string dir = corpusDir() + "/archives/AlamoEngine-Tools+PetroglyphTools/PG.StarWarsGame.Files.MEG/"
                                          "PG.StarWarsGame.Files.MEG.Test/Resources/Files/";
    auto empty = openArchiveFile(dir + "v1_empty.meg");
    CHECK(empty->kind() == "meg1");
    CHECK(empty->entries().empty());

    auto one = openArchiveFile(dir + "v1_1_file_data.meg");
    REQUIRE(one->entries().size() == 1);
    CHECK(text(*one, "test.txt") == "123");

    auto zero = openArchiveFile(dir + "v1_2_files_empty.meg");
    REQUIRE(zero->entries().size() == 2);
    CHECK(zero->find("C:\\1.TXT")->size == 0);
    CHECK(zero->find("c:/2.txt")->size == 0);
    CHECK(zero->warnings().empty());

    auto latin = openArchiveFile(dir + "v1_2_files_with_extended_ascii_name.meg");
    REQUIRE(latin->entries().size() == 2);
    CHECK(text(*latin, "TEST\xC3\xBC.TXT") == "123");
    CHECK(text(*latin, "TEST\xC3\xA4.TXT") == "123");
    CHECK(latin->warnings().empty());

    for (const char* f : {"v2_2_files_data.meg", "v3n_2_files_data.meg"}) {
        INFO(f);
        auto a = openArchiveFile(dir + f);
        CHECK(a->kind() == (f[1] == '2' ? "meg2" : "meg3"));
        REQUIRE(a->entries().size() == 2);
        CHECK(text(*a, "A.TXT") == "123");
        CHECK(text(*a, "b.txt") == "123");
        CHECK(a->warnings().empty());
    }
}

TEST_CASE("corpus BIG archives list and read what OpenSAGE's and bfme2-modding-utils' tests expect", "[vfs][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("archives");
    auto t =
        openArchiveFile(corpusDir() + "/archives/OpenSAGE+OpenSAGE/src/OpenSage.Game.Tests/Data/Big/Assets/test.big");
    CHECK(t->kind() == "bigf");
    REQUIRE(t->entries().size() == 2);
    CHECK(t->entries()[0].name == "a.txt");
    CHECK(t->entries()[1].name == "c.txt");
    CHECK(text(*t, "a.txt") == "This is sample A");
    CHECK(text(*t, "C.TXT") == "This is sample C");
    CHECK(t->warnings().empty());

    auto m = openArchiveFile(corpusDir() +
                             "/archives/DarkAtra+bfme2-modding-utils/big/src/test/resources/test/multiple-files.big");
    REQUIRE(m->entries().size() == 2);
    CHECK(m->entries()[0].name == "/test/hello.txt");
    CHECK(m->find("test\\hello.txt")->size == 592);
    const std::string hello = text(*m, "/test/hello.txt");
    CHECK(hello.rfind("Lorem ipsum dolor sit amet", 0) == 0);
    CHECK(text(*m, "/test/world.txt") == "content of world\n");
}

TEST_CASE("encrypted MEG v3 archives and entries are refused naming the archive", "[vfs][hostile]") {
    auto bytes = writeMeg(3, sampleEntries());
    auto enc = bytes;
    enc[3] = 0x8F;
    const std::string err = errorOf(ByteSpan(enc), "Enc.meg");
    CHECK(err.find("Enc.meg") != std::string::npos);
    CHECK(err.find("encrypted") != std::string::npos);
    // Record flags: first record at 24 + name table.
    uint32_t nameTable = bytes[20] | bytes[21] << 8;
    bytes[24 + nameTable] = 1;
    auto a = openArchiveCopy(ByteSpan(bytes), "Flag.meg");
    const Entry& e = a->entries()[0];
    CHECK(e.flags == 1);
    CHECK_THROWS_WITH(a->read(e), Catch::Contains("Flag.meg") && Catch::Contains("encrypted"));
    CHECK_NOTHROW(a->read(a->entries()[1]));
}

TEST_CASE("compressed BIG entries are refused clearly, others stay readable", "[vfs][hostile]") {
    std::vector<uint8_t> refpack = {0x10, 0xFB, 0x00, 0x00, 0x05, 0xE0};
    auto a = openArchiveCopy(ByteSpan(writeBig({{"art\\a.w3d", refpack}, {"art\\b.w3d", bytesOf("plain")}}, "BIG4")),
                             "C.big");
    CHECK_THROWS_WITH(a->read(*a->find("art/a.w3d")), Catch::Contains("C.big") && Catch::Contains("compressed"));
    CHECK(text(*a, "art/b.w3d") == "plain");
}

TEST_CASE("duplicate names, overlaps and CRC mismatches are warnings; the rest stays readable", "[vfs][hostile]") {
    auto bytes = writeMeg(1, {{"A.TXT", bytesOf("one")}, {"A.TXT", bytesOf("two")}, {"B.TXT", bytesOf("bbb")}});
    auto a = openArchiveCopy(ByteSpan(bytes), "D.meg");
    bool dup = false;
    for (const auto& w : a->warnings())
        dup |= w.find("duplicate entry name A.TXT") != std::string::npos;
    CHECK(dup);
    CHECK(text(*a, "A.TXT") == "one");
    // Corrupt a CRC and point B's offset into A's data.
    const size_t rec = 8 + 3 * 7;
    for (int k = 0; k < 3; ++k) {
        const size_t r = rec + 20 * size_t(k);
        const uint32_t nameIndex = bytes[r + 16];
        if (nameIndex == 2) {
            bytes[r] ^= 0xFF;
            bytes[r + 12] = uint8_t(bytes[r + 12] - 1);
        }
    }
    auto b = openArchiveCopy(ByteSpan(bytes), "D.meg");
    std::string all;
    for (const auto& w : b->warnings())
        all += w + "\n";
    CHECK(all.find("does not match name B.TXT") != std::string::npos);
    CHECK(all.find("overlaps") != std::string::npos);
    CHECK(text(*b, "B.TXT") == "obb"); // last byte of "two", then B's own
}

TEST_CASE("hostile index fields give a ParseError naming archive, field and offset", "[vfs][hostile]") {
    auto meg = writeMeg(1, sampleEntries());
    auto huge = meg;
    huge[0] = huge[1] = huge[2] = 0xFF, huge[3] = 0x7F;
    std::string e = errorOf(ByteSpan(huge), "H.meg");
    INFO(e);
    CHECK(e.find("H.meg: field name table at offset 8") != std::string::npos);
    CHECK(e.find("name count 2147483647") != std::string::npos);

    auto off = writeMeg(2, sampleEntries());
    const size_t rec = 20 + 4 * 2 + sampleEntries()[0].name.size() + sampleEntries()[1].name.size() +
                       sampleEntries()[2].name.size() + sampleEntries()[3].name.size();
    off[rec + 12] = off[rec + 13] = off[rec + 14] = 0xFF; // offset of the first record
    e = errorOf(ByteSpan(off), "O.meg");
    CHECK(e.find("O.meg: field file table at offset " + std::to_string(rec + 12)) != std::string::npos);
    CHECK(e.find("exceeds the archive size") != std::string::npos);

    auto big = writeBig(sampleEntries());
    big[8] = 0x10; // count 0x10000004
    e = errorOf(ByteSpan(big), "B.big");
    CHECK(e.find("B.big: field index at offset 8: entry count") != std::string::npos);
    auto noNul = writeBig({{"abc", {}}});
    noNul.resize(16 + 8 + 3);
    e = errorOf(ByteSpan(noNul), "N.big");
    CHECK(e.find("no terminating NUL") != std::string::npos);
}

TEST_CASE("truncated, bit-flipped and overwritten archives never crash", "[vfs][hostile]") {
    std::vector<std::vector<uint8_t>> seeds = {writeMeg(1, sampleEntries()), writeMeg(2, sampleEntries()),
                                               writeMeg(3, sampleEntries()), writeBig(sampleEntries()),
                                               writeBig(sampleEntries(), "BIG4")};
    std::mt19937 rng(1234);
    int opened = 0, refused = 0;
    for (const auto& seed : seeds) {
        std::vector<std::vector<uint8_t>> mutants;
        for (size_t cut = 0; cut < seed.size(); cut += 3)
            mutants.emplace_back(seed.begin(), seed.begin() + long(cut));
        for (int k = 0; k < 300; ++k) {
            auto m = seed;
            m[rng() % std::min<size_t>(m.size(), 200)] ^= uint8_t(1u << (rng() % 8));
            mutants.push_back(std::move(m));
        }
        for (int k = 0; k < 100; ++k) {
            auto m = seed;
            const size_t at = rng() % (m.size() - 4);
            const uint32_t v = k % 2 ? 0xFFFFFFFFu : 0x7FFFFFF0u;
            for (int b = 0; b < 4; ++b)
                m[at + size_t(b)] = uint8_t(v >> (8 * b));
            mutants.push_back(std::move(m));
        }
        for (const auto& m : mutants) {
            try {
                auto a = openArchiveCopy(ByteSpan(m), "m.arc");
                for (const Entry& e : a->entries()) {
                    REQUIRE(e.offset + e.size <= m.size());
                    try {
                        a->read(e);
                    } catch (const ParseError&) {
                    }
                }
                ++opened;
            } catch (const ParseError& e) {
                CHECK(std::string(e.what()).rfind("m.arc: ", 0) == 0);
                ++refused;
            }
        }
    }
    CHECK(opened > 0);
    CHECK(refused > 0);
}

TEST_CASE("an archive file truncated after it was opened gives ParseErrors, not SIGBUS", "[vfs][hostile]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("rigscope_vfs_trunc_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    // Three 64 KiB entries: truncating to the middle of the second leaves the first readable.
    std::vector<WriteEntry> es;
    for (int i = 0; i < 3; ++i)
        es.push_back({"DATA\\E" + std::to_string(i) + ".BIN", std::vector<uint8_t>(65536, uint8_t('a' + i))});
    for (const auto& [name, bytes] : {std::pair<std::string, std::vector<uint8_t>>{"t.meg", writeMeg(2, es)},
                                      {"t.big", writeBig(es, "BIGF")}}) {
        INFO(name);
        const fs::path p = dir / name;
        std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        const auto a = openArchiveFile(p.string());
        const Entry* e0 = a->find("DATA/E0.BIN");
        const Entry* e1 = a->find("DATA/E1.BIN");
        const Entry* e2 = a->find("DATA/E2.BIN");
        REQUIRE((e0 && e1 && e2));
        fs::resize_file(p, e1->offset + e1->size / 2);
        const EntryBytes b0 = a->read(*e0); // wholly before the new end
        REQUIRE(b0.span.size == 65536);
        CHECK(b0.span.data[0] == 'a');
        CHECK(b0.span.data[65535] == 'a');
        for (const Entry* e : {e1, e2}) {
            try {
                a->read(*e);
                FAIL("read past the new end of the file did not throw");
            } catch (const ParseError& err) {
                const std::string w = err.what();
                CHECK(w.find(p.string()) != std::string::npos);
                CHECK(w.find(e->name) != std::string::npos);
                CHECK(w.find("shorter than when it was opened") != std::string::npos);
            }
        }
        fs::resize_file(p, 0); // emptied: every entry refused, the process lives on
        CHECK_THROWS_AS(a->read(*e0), ParseError);
    }
    fs::remove_all(dir);
}
