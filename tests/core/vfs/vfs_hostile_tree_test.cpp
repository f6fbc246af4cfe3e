// Issue 44: archives that change while they are read, and mod trees a hostile (or careless) mod can ship: symlink
// loops, links leading out of the mod, 50,000 files in a folder, 200-deep folders (past PATH_MAX: unreadable even
// as root), invalid UTF-8 names, unreadable folders, files and archives replaced while a check runs. Every input is
// made here; each case finishes within 5 s and names what it could not read.
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "check/check.h"
#include "cli_run.h"
#include "heap_meter.h"
#include "objects/object_db.h"
#include "resolve/resolver.h"
#include "skip.h"
#include "vfs/archive.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace rs;
using namespace rs::vfs;
namespace fs = std::filesystem;

namespace {

struct TempTree {
    fs::path root;
    TempTree() {
        static std::atomic<int> n{0};
        root = fs::temp_directory_path() / ("rigscope_tree_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~TempTree() {
        // rm walks with openat: it removes trees deeper than PATH_MAX, which std::filesystem::remove_all cannot.
        const std::string cmd = "chmod -R u+rwx '" + root.string() + "' 2>/dev/null; rm -rf '" + root.string() + "'";
        if (std::system(cmd.c_str()) != 0) {
        }
    }
    void write(const fs::path& rel, const std::vector<uint8_t>& bytes) const {
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    void write(const fs::path& rel, const std::string& text) const {
        write(rel, std::vector<uint8_t>(text.begin(), text.end()));
    }
};

std::vector<uint8_t> model() { return alamo::writeModel(test::syntheticModel()); }

// Each case must finish within 5 s; sanitizer builds (ASan + UBSan, Debug) run several times slower, so they get
// four times that.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kSeconds = 20.0;
#else
constexpr double kSeconds = 5.0;
#endif

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v)
        s += x + "\n";
    return s;
}

std::vector<WriteEntry> manyEntries(int n) {
    std::vector<WriteEntry> es;
    for (int i = 0; i < n; ++i)
        es.push_back({"DATA\\ART\\TEXTURES\\T" + std::to_string(i) + ".DDS", {uint8_t(i), 1, 2}});
    return es;
}

// 200 folders, each inside the last, named with 30 characters: the path passes PATH_MAX (4096) near depth 130, so
// the deepest folders cannot be opened by path, root or not. A model lies at depth 10 and at depth 199.
void deepTree(const fs::path& base) {
    fs::create_directories(base);
    int fd = ::open(base.c_str(), O_RDONLY | O_DIRECTORY);
    REQUIRE(fd >= 0);
    const std::vector<uint8_t> m = model();
    for (int i = 0; i < 200; ++i) {
        char name[40];
        std::snprintf(name, sizeof name, "level_%03d_abcdefghijklmnopqrstu", i);
        REQUIRE(::mkdirat(fd, name, 0755) == 0);
        const int next = ::openat(fd, name, O_RDONLY | O_DIRECTORY);
        ::close(fd);
        REQUIRE(next >= 0);
        fd = next;
        if (i == 10 || i == 199) {
            const int f = ::openat(fd, i == 10 ? "SHALLOW.ALO" : "DEEP.ALO", O_WRONLY | O_CREAT | O_TRUNC, 0644);
            REQUIRE(f >= 0);
            REQUIRE(::write(f, m.data(), m.size()) == ssize_t(m.size()));
            ::close(f);
        }
    }
    ::close(fd);
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------
// Archives that change while they are read

TEST_CASE("hostile tree: an archive truncated between open and index parse is reported as changed", "[vfs][hostile]") {
    TempTree t;
    for (const auto& [name, bytes] :
         {std::pair<std::string, std::vector<uint8_t>>{"big.big", writeBig(manyEntries(30000))},
          {"meg.meg", writeMeg(2, manyEntries(30000))},
          {"meg3.meg", writeMeg(3, manyEntries(30000))}}) {
        INFO(name);
        t.write(name, bytes);
        const std::string p = (t.root / name).string();
        // The index of 30,000 entries is larger than the first block read: it is read in several steps.
        const auto whole = openArchiveFile(p);
        CHECK(whole->entries().size() == 30000);
        CHECK(whole->entries().size() == openArchiveCopy(ByteSpan(bytes), name)->entries().size());
        for (uint64_t cut : {uint64_t(10), uint64_t(4096), uint64_t(bytes.size() / 3), uint64_t(bytes.size() - 1)}) {
            const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
            REQUIRE(fd >= 0);
            std::shared_ptr<const int> handle(new int(fd), [](const int* q) {
                ::close(*q);
                delete q;
            });
            fs::resize_file(p, cut); // after open and fstat (the size passed), before the index is read
            try {
                openArchiveDescriptor(handle, bytes.size(), p);
                FAIL("no error for an archive truncated to " << cut);
            } catch (const ParseError& e) {
                CHECK_THAT(e.what(),
                           Catch::StartsWith(p) && Catch::Contains("archive changed while it was read: it had " +
                                                                   std::to_string(bytes.size()) +
                                                                   " bytes when opened, now " + std::to_string(cut)));
            }
            t.write(name, bytes);
        }
    }
}

TEST_CASE("hostile tree: an archive truncated and rewritten while it is opened never crashes", "[vfs][hostile]") {
    TempTree t;
    const std::vector<uint8_t> bytes = writeBig(manyEntries(60000));
    const std::string p = (t.root / "busy.big").string();
    t.write("busy.big", bytes);
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        for (int i = 0; !stop; ++i) {
            std::error_code ec;
            fs::resize_file(p, (i % 3 == 0) ? 100 : (i % 3 == 1) ? bytes.size() / 2 : bytes.size(), ec);
            if (i % 3 == 2) {
                std::ofstream(p, std::ios::binary | std::ios::in | std::ios::out)
                    .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
            }
        }
    });
    const auto t0 = std::chrono::steady_clock::now();
    int opened = 0, refused = 0;
    while (since(t0) < 1.5) {
        try {
            const auto a = openArchiveFile(p);
            ++opened;
            for (const Entry* e : {&a->entries().front(), &a->entries().back()}) {
                try {
                    a->read(*e);
                } catch (const ParseError&) {
                }
            }
        } catch (const ParseError& e) {
            ++refused;
            CHECK_THAT(e.what(), Catch::StartsWith(p));
        }
    }
    stop = true;
    writer.join();
    CHECK(opened + refused > 3);
}

TEST_CASE("hostile tree: an archive rewritten throughout is re-read at most once per interval", "[vfs][hostile]") {
    TempTree t;
    std::vector<WriteEntry> es = manyEntries(2000);
    t.write("a.big", writeBig(es));
    const std::string p = (t.root / "a.big").string();
    const Resolver r;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 40; ++i) {
        es[0].data.assign(size_t(i % 7 + 1), uint8_t(i)); // another size: another stamp
        t.write("a.big", writeBig(es));
        const Resolver::Place pl = r.placeOf(p + ":DATA/ART/TEXTURES/T5.DDS");
        REQUIRE(pl.table);
        CHECK(pl.table->contains("DATA/ART/TEXTURES/T5.DDS"));
    }
    const double s = since(t0);
    if (s < Resolver::kRemakeInterval) {
        CHECK(r.tablesMade() == 2); // made, and made again once
        CHECK(r.changing() == std::vector<std::string>{"archive:" + p});
    }
    CHECK(s < kSeconds);
}

// ---------------------------------------------------------------------------------------------------------------
// Mod trees

TEST_CASE("hostile tree: symlink loops are not followed and are named", "[vfs][hostile]") {
    TempTree t;
    t.write("Data/Art/Models/REAL.ALO", model());
    fs::create_directory_symlink(t.root / "Data", t.root / "Data/Art/loop");                // a folder loop
    fs::create_symlink(t.root / "Data/Art/Models/B.ALO", t.root / "Data/Art/Models/A.ALO"); // a file loop
    fs::create_symlink(t.root / "Data/Art/Models/A.ALO", t.root / "Data/Art/Models/B.ALO");
    const auto t0 = std::chrono::steady_clock::now();
    const Folder f(t.root.string());
    CHECK(since(t0) < kSeconds);
    CHECK(f.find("DATA/ART/MODELS/REAL.ALO"));
    CHECK_FALSE(f.find("DATA/ART/MODELS/A.ALO"));
    CHECK(f.entries().size() == 1);
    CHECK_THAT(joined(f.unreadable()), Catch::Contains("A.ALO: link cannot be followed (Too many levels of symbolic "
                                                       "links)"));
}

TEST_CASE("hostile tree: links leading out of the mod are listed, flagged, never read, and reported by check",
          "[vfs][hostile]") {
    TempTree outside, t;
    outside.write("passwd", "<Units><SpaceUnit Name=\"Outside_Secret\"/></Units>\nroot:x:0:0:root:/root:/bin/bash\n");
    t.write("Data/XML/GameObjectFiles.xml", "<F><File>Units.xml</File><File>X.xml</File></F>");
    t.write("Data/XML/Units.xml", "<Units><SpaceUnit Name=\"Inside_Ship\"/></Units>");
    fs::create_directories(t.root / "Data/Art/Models");
    fs::create_symlink(outside.root / "passwd", t.root / "Data/XML/X.xml");
    fs::create_symlink(outside.root / "passwd", t.root / "Data/Art/Models/PASSWD.ALO");
    fs::create_symlink(t.root / "Data/XML/Units.xml", t.root / "Data/XML/Inside.xml"); // a link inside: read
    auto table = std::make_shared<const MountTable>(mountInstall({}, {t.root.string()}));
    const Hit* x = table->find("DATA/XML/X.XML");
    REQUIRE(x);
    CHECK(table->entry(*x).linkOutside);
    CHECK(table->entry(*x).linkTarget == fs::canonical(outside.root / "passwd").string());
    CHECK_FALSE(table->entry(*table->find("DATA/XML/INSIDE.XML")).linkOutside);
    CHECK_THROWS_WITH(table->read(*x), Catch::Contains("link leading out of the mounted folder"));
    const auto db = objects::ObjectDb::load(*table);
    CHECK(db->find("Inside_Ship"));
    CHECK_FALSE(db->find("Outside_Secret"));
    CHECK_THAT(joined(db->errors()), Catch::Contains("X.xml: link leading out of the mounted folder"));

    const Resolver r(table);
    check::Options o;
    o.threads = 1;
    const check::Report rep = check::checkMount(r, o);
    int links = 0;
    for (const check::Finding& f : rep.findings)
        if (f.id == "read.link-outside") {
            ++links;
            CHECK(f.level == check::Level::Info);
            CHECK_THAT(f.message, Catch::Contains("link leading out of the folder (to " +
                                                  fs::canonical(outside.root / "passwd").string()));
        }
    CHECK(links == 2);
    for (const check::Finding& f : rep.findings)
        CHECK(f.message.find("root:x:0") == std::string::npos);
}

TEST_CASE("hostile tree: 50,000 files in one folder are listed and checked in time", "[vfs][hostile]") {
    TempTree t;
    t.write("Data/XML/GameObjectFiles.xml", "<F><File>Units.xml</File></F>");
    t.write("Data/XML/Units.xml", "<Units><SpaceUnit Name=\"Plain_Ship\"/></Units>");
    const fs::path dir = t.root / "Data/Art/Clutter";
    fs::create_directories(dir);
    for (int i = 0; i < 50000; ++i) {
        const int fd = ::open((dir / ("f" + std::to_string(i) + ".txt")).c_str(), O_WRONLY | O_CREAT, 0644);
        REQUIRE(fd >= 0);
        ::close(fd);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const int64_t peak = test::peakHeap([&] {
        const MountTable table = mountInstall({}, {t.root.string()});
        CHECK(table.size() == 50002);
        CHECK(table.list("DATA/ART/CLUTTER/").size() == 50000);
        CHECK(objects::ObjectDb::load(table)->find("Plain_Ship"));
    });
    CHECK(since(t0) < kSeconds);
    if (test::heapMeterActive()) CHECK(peak < (int64_t(512) << 20));
}

TEST_CASE("hostile tree: 200-deep folders: the folders past PATH_MAX are named, the rest is read", "[vfs][hostile]") {
    TempTree t;
    deepTree(t.root / "deep");
    t.write("TOP.ALO", model());
    const auto t0 = std::chrono::steady_clock::now();
    const FolderWalk walk = walkFolder(t.root.string());
    CHECK(since(t0) < kSeconds);
    bool shallow = false, deep = false;
    for (const WalkedFile& f : walk.files) {
        shallow |= fs::path(f.path).filename() == "SHALLOW.ALO";
        deep |= fs::path(f.path).filename() == "DEEP.ALO";
    }
    CHECK(shallow);
    CHECK_FALSE(deep);
    REQUIRE(walk.unreadable.size() == 1);
    CHECK_THAT(walk.unreadable[0], Catch::Contains("level_1") && Catch::Contains("cannot be read (File name too "
                                                                                 "long)"));

    // check PATH: the unreadable folder is an error finding (exit 1 from the CLI), and the others are checked.
    const Resolver r;
    check::Options o;
    o.threads = 1;
    const check::Report rep = check::checkPaths(r, {t.root.string()}, o);
    CHECK(rep.files == 2); // TOP.ALO and SHALLOW.ALO
    int unreadable = 0;
    for (const check::Finding& f : rep.findings)
        unreadable += f.id == "read.unreadable-folder" && f.level == check::Level::Error;
    CHECK(unreadable == 1);

    REQUIRE(test::cliBuilt());
    const auto cli = test::runCli("check '" + t.root.string() + "'", test::Stderr::Merge, 60);
    CHECK(cli.status == 1);
    CHECK_THAT(cli.out, Catch::Contains("read.unreadable-folder"));
    // export --batch: the unreadable folder is a failure, the readable models are exported.
    TempTree out;
    const auto ex = test::runCli("export --batch '" + t.root.string() + "' -o '" + out.root.string() + "'",
                                 test::Stderr::Merge, 120);
    CHECK(ex.status == 1);
    CHECK_THAT(ex.out, Catch::Contains("2 exported, 0 skipped, 1 failed") &&
                           Catch::Contains("cannot be read (File name too long)"));
}

TEST_CASE("hostile tree: a folder without read permission is named and counted as failed (not as root)",
          "[vfs][hostile]") {
    if (::geteuid() == 0)
        RIGSCOPE_SKIP("running as root, who reads a folder of mode 0311 anyway; the 200-deep case covers an "
                      "unreadable folder for root");
    TempTree t;
    t.write("A.ALO", model());
    t.write("locked/B.ALO", model());
    t.write("zlast/C.ALO", model());
    fs::permissions(t.root / "locked", fs::perms(0311));
    const FolderWalk walk = walkFolder(t.root.string());
    CHECK(walk.files.size() == 2);
    REQUIRE(walk.unreadable.size() == 1);
    CHECK_THAT(walk.unreadable[0], Catch::Contains("locked: folder cannot be read (Permission denied)"));
    const Folder f(t.root.string());
    CHECK(f.unreadable().size() == 1);
    CHECK(f.find("ZLAST/C.ALO"));
}

TEST_CASE("hostile tree: invalid UTF-8 names are listed, checked and printed escaped", "[vfs][hostile]") {
    TempTree t;
    t.write("Data/Art/Models/BAD\xff\xfe\x1b]0;X\x07.ALO", model());
    t.write("Data/Art/Models/GOOD.ALO", model());
    const Folder f(t.root.string());
    CHECK(f.entries().size() == 2);
    auto table = std::make_shared<const MountTable>(mountInstall({}, {t.root.string()}));
    const Resolver r(table);
    check::Options o;
    o.threads = 1;
    const check::Report rep = check::checkMount(r, o);
    CHECK(rep.files == 2);
    REQUIRE(test::cliBuilt());
    const auto cli = test::runCli("check --mod '" + t.root.string() + "'", test::Stderr::Merge, 60);
    CHECK(cli.out.find('\x1b') == std::string::npos);
    CHECK(cli.out.find('\x07') == std::string::npos);
    CHECK((cli.status == 0 || cli.status == 1));
}

TEST_CASE("hostile tree: files and an archive replaced while the check runs", "[vfs][hostile]") {
    TempTree t;
    const std::vector<uint8_t> m = model();
    for (int i = 0; i < 40; ++i)
        t.write("Data/Art/Models/M" + std::to_string(i) + ".ALO", m);
    std::vector<WriteEntry> es = manyEntries(3000);
    es.push_back({"DATA\\ART\\MODELS\\IN_ARCHIVE.ALO", m});
    t.write("Data/Models.meg", writeMeg(2, es));
    t.write("Data/MegaFiles.xml", "<Mega_Files><File>Data\\Models.meg</File></Mega_Files>");
    auto table = std::make_shared<const MountTable>(mountInstall({}, {t.root.string()}));
    std::atomic<bool> stop{false};
    std::thread replacer([&] {
        for (int i = 0; !stop; ++i) {
            // A model replaced by another file (rename over it), and by a truncated one; the archive rewritten.
            const fs::path p = t.root / ("Data/Art/Models/M" + std::to_string(i % 40) + ".ALO");
            const fs::path tmp = p.string() + ".new";
            std::ofstream(tmp, std::ios::binary)
                .write(reinterpret_cast<const char*>(m.data()), std::streamsize(i % 2 ? m.size() : m.size() / 3));
            std::error_code ec;
            fs::rename(tmp, p, ec);
            es[0].data.assign(size_t(i % 5 + 1), 7);
            const std::vector<uint8_t> meg = writeMeg(2, es);
            std::ofstream(t.root / "Data/Models.meg", std::ios::binary)
                .write(reinterpret_cast<const char*>(meg.data()), std::streamsize(meg.size()));
        }
    });
    const Resolver r(table);
    check::Options o;
    o.threads = 2;
    const auto t0 = std::chrono::steady_clock::now();
    const check::Report rep = check::checkMount(r, o);
    const double seconds = since(t0);
    stop = true;
    replacer.join();
    CHECK(seconds < kSeconds);
    CHECK(rep.files >= 41);
    // The archive's table: made, made again once, and once more per kRemakeInterval the check lasted (plus a first
    // read that may catch the archive half-written, before any table stands; a loaded machine can see two such
    // reads, hence 6): not once per stamp (26-30 before).
    CHECK(r.tablesMade() <= 6 + size_t(seconds / Resolver::kRemakeInterval));
}
