// Black & White 2 .stuff archives (core/vfs/stuff.cpp) made by the project's writer: listed, read, mounted, the
// .bwm/.al inside opened with their companions, malformed directories refused by name; the .al ambiguity note.
#include "bw2_fixtures.h"

#include "bw2/bw2_writer.h"
#include "cli_run.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "vfs/archive.h"
#include "vfs/archive_writer.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace rs;
namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> bytesOf(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

std::vector<vfs::WriteEntry> entries() {
    return {{"Data\\Art\\readme.txt", bytesOf("hello")},
            {"Data\\Models\\creature.bwm", bw2::writeBwm(test::bw2fx::skinModel(bw2::SkinLayout::U8PerIndex))},
            {"Data\\Models\\creature.al", bw2::writeAl(test::bw2fx::library())},
            {"Data\\empty.bin", {}}};
}

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

std::string refusal(const std::vector<uint8_t>& b) {
    try {
        vfs::openArchiveCopy(ByteSpan(b), "Everything.stuff");
    } catch (const ParseError& e) {
        CHECK(e.file() == "Everything.stuff");
        return e.what();
    }
    FAIL("not refused");
    return {};
}

} // namespace

TEST_CASE("stuff: writer-made archive lists and reads its entries", "[vfs][stuff]") {
    const std::vector<uint8_t> b = vfs::writeStuff(entries(), 0x1234);
    // Layout: data from 0, the directory after it, its offset in the last 4 bytes.
    uint32_t dir = 0;
    std::memcpy(&dir, b.data() + b.size() - 4, 4);
    CHECK(b.size() == size_t(dir) + 4 * 268 + 4);
    CHECK(std::memcmp(b.data(), "hello", 5) == 0);
    const auto a = vfs::openArchiveCopy(ByteSpan(b), "Everything.stuff");
    CHECK(a->kind() == "stuff");
    REQUIRE(a->entries().size() == 4);
    CHECK(a->warnings().empty());
    const vfs::Entry* e = a->find("data/art/README.TXT");
    REQUIRE(e);
    CHECK(e->name == "Data\\Art\\readme.txt");
    CHECK(e->offset == 0);
    CHECK(e->size == 5);
    CHECK(e->extra == 0x1234);
    const vfs::EntryBytes r = a->read(*e);
    CHECK(std::string(reinterpret_cast<const char*>(r.span.data), r.span.size) == "hello");
    const vfs::Entry* empty = a->find("DATA/EMPTY.BIN");
    REQUIRE(empty);
    CHECK(empty->size == 0);
    // An empty archive: no entries, the directory at 0.
    const std::vector<uint8_t> none = vfs::writeStuff({});
    CHECK(none.size() == 4);
    CHECK(vfs::openArchiveCopy(ByteSpan(none), "x.STUFF")->entries().empty());
    // Names of 256 bytes do not fit.
    CHECK_THROWS_AS(vfs::writeStuff({{std::string(256, 'a'), {}}}), std::invalid_argument);
}

TEST_CASE("stuff: malformed directories are refused by name", "[vfs][stuff][hostile]") {
    const std::vector<uint8_t> good = vfs::writeStuff(entries());
    uint32_t dir = 0;
    std::memcpy(&dir, good.data() + good.size() - 4, 4);
    const size_t tail = good.size() - 4;

    CHECK(refusal({1, 2}).find("too small for a .stuff archive") != std::string::npos);
    std::vector<uint8_t> b = good;
    put32(b, tail, uint32_t(tail + 1));
    CHECK(refusal(b).find("directory offset " + std::to_string(tail + 1) + " is past the directory's end") !=
          std::string::npos);
    b = good;
    put32(b, tail, dir + 1);
    CHECK(refusal(b).find("is not a whole number of 268-byte entries") != std::string::npos);
    // Entry 1's size running into the directory; entry 2's offset past the end; a negative size.
    b = good;
    put32(b, dir + 268 + 256 + 4, dir);
    std::string e = refusal(b);
    CHECK(e.find("entry 1 (Data\\Models\\creature.bwm)") != std::string::npos);
    CHECK(e.find("overlaps the directory (at " + std::to_string(dir) + ")") != std::string::npos);
    CHECK(e.find("offset " + std::to_string(dir + 268 + 256)) != std::string::npos); // where the field is
    b = good;
    put32(b, dir + 2 * 268 + 256, uint32_t(b.size()));
    CHECK(refusal(b).find("exceeds the archive") != std::string::npos);
    b = good;
    put32(b, dir + 2 * 268 + 256 + 4, 0xFFFFFFF0u);
    CHECK(refusal(b).find("negative offset") != std::string::npos);
    // A name without its NUL, an empty name.
    b = good;
    std::memset(b.data() + dir, 'x', 256);
    CHECK(refusal(b).find("entry 0: name has no terminating NUL") != std::string::npos);
    b = good;
    b[dir + 268] = 0;
    CHECK(refusal(b).find("entry 1 has an empty name") != std::string::npos);
    // A count too large: a directory of more than kMaxStuffEntries entries (a sparse file of zeros, refused
    // before any entry is read).
    const fs::path sparse = fs::temp_directory_path() / "rigscope_stuff_many.stuff";
    { std::ofstream(sparse, std::ios::binary | std::ios::trunc); }
    fs::resize_file(sparse, (vfs::kMaxStuffEntries + 1) * 268 + 4);
    try {
        vfs::openArchiveFile(sparse.string());
        FAIL("not refused");
    } catch (const ParseError& err) {
        CHECK(err.file() == sparse.string());
        CHECK(std::string(err.what()).find("directory of 1000001 entries refused") != std::string::npos);
    }
    fs::remove(sparse);
}

TEST_CASE("stuff: the .bwm inside opens with its animation library; mounted as an archive", "[vfs][stuff]") {
    const fs::path dir = fs::temp_directory_path() / "rigscope_stuff_test";
    fs::remove_all(dir);
    fs::create_directories(dir / "Data");
    const fs::path path = dir / "Data" / "Everything.stuff";
    const std::vector<uint8_t> b = vfs::writeStuff(entries());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    const Resolver res;
    const Asset a = res.open(path.string() + ":Data\\Models\\creature.bwm");
    REQUIRE(a.document.model);
    CHECK(a.document.format == Format::Bw2Model);
    REQUIRE(a.libraries.size() == 1);
    CHECK(a.libraries[0] == path.string() + ":Data\\Models\\creature.al");
    const Document al = res.read(a.libraries[0]);
    CHECK(al.format == Format::Bw2Library);
    CHECK(al.clips.size() == 2);
    const vfs::MountTable t = vfs::mountSingle(path.string());
    CHECK(t.find("data/models/creature.al") != nullptr);
    CHECK(formatInfo(Format::Stuff).extensions.size() == 1);
    CHECK(detectFormat(ByteSpan(b), "Everything.stuff") == Format::Unknown); // an archive, not a document

#ifdef RIGSCOPE_CLI
    if (test::cliBuilt()) {
        const test::CliRun ls = test::runCli("ls '" + path.string() + "'", test::Stderr::Merge);
        INFO(ls.out);
        CHECK(ls.status == 0);
        CHECK(ls.out.find("Data\\Models\\creature.al") != std::string::npos);
        CHECK(ls.out.find("creature.bwm") != std::string::npos);
        const test::CliRun bad = test::runCli("ls '" + (dir / "missing.stuff").string() + "'", test::Stderr::Merge);
        CHECK(bad.status != 0);
    }
#endif
    fs::remove_all(dir);
}

TEST_CASE("al: a non-empty second compressed block makes frames 2..N-1 ambiguous, said in the clip's notes", "[bw2]") {
    const std::vector<uint8_t> bytes = bw2::writeAl(test::bw2fx::library());
    const Document d = Resolver().read(ByteSpan(bytes), "creature.al");
    REQUIRE(d.clips.size() == 2);
    // a_walk: 5 frames, one second-block entry a frame.
    bool said = false;
    for (const std::string& w : d.clips[0]->warnings)
        said |= w.find("ambiguous: frames 2..4: the second compressed block is not empty (1 entries a frame") == 0;
    CHECK(said);
    // a_idle: its second block is empty: nothing ambiguous.
    for (const std::string& w : d.clips[1]->warnings)
        CHECK(w.find("ambiguous") == std::string::npos);
    const bw2::AlFile f = bw2::parseAl(ByteSpan(bytes), "creature.al");
    CHECK(bw2::decodeStatus(f.animations[0], 4).ambiguous.size() == 1);
    CHECK(bw2::decodeStatus(f.animations[1], 4).ambiguous.empty());
}
