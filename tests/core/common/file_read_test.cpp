// Bounded reading (common/file_read.h, formats/formats.h readInputFile): folders, FIFOs, devices and oversized files
// refused by name before anything is read, in core and through rigscope-cli; counted warnings; escaped messages.
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "amal/amal_writer.h"
#include "cli_run.h"
#include "heap_meter.h"

#include "common/file_read.h"
#include "common/warnings.h"
#include "format_catch.h"
#include "resolve/resolver.h"

#include "skip.h"
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path dir;
    TempDir() {
        dir = fs::temp_directory_path() / ("rigscope-read-test-" + std::to_string(::getpid()));
        fs::create_directories(dir);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string path(const std::string& name) const { return (dir / name).string(); }
};

void writeFile(const std::string& p, const std::vector<uint8_t>& b) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// A sparse file of `size` zero bytes (no disk space used).
bool makeSparse(const std::string& p, uint64_t size) {
    { std::ofstream f(p, std::ios::binary); }
    return ::truncate(p.c_str(), off_t(size)) == 0;
}

std::string refusal(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const ParseError& e) {
        return e.what();
    }
    return "(no ParseError)";
}

bool printableLine(const std::string& s) {
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7F) return false;
    return true;
}

} // namespace

TEST_CASE("folders, FIFOs and devices are refused by name before opening", "[io][hostile]") {
    TempDir t;
    fs::create_directories(t.path("dir.alo"));
    const std::string fifo = t.path("pipe.alo");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string m = refusal([&] { Resolver().read(t.path("dir.alo")); });
    CHECK(m.find("dir.alo") != std::string::npos);
    CHECK(m.find("is a directory") != std::string::npos);
    // A FIFO with no writer would block open() forever: this returns only because it is never opened.
    m = refusal([&] { Resolver().read(fifo); });
    CHECK(m.find("pipe.alo") != std::string::npos);
    CHECK(m.find("FIFO") != std::string::npos);
    m = refusal([&] { readFileBytes("/dev/zero"); });
    CHECK(m.find("/dev/zero: is a character device") == 0);
    m = refusal([&] { Resolver().read(t.path("missing.alo")); });
    CHECK(m.find("missing.alo: cannot open file: No such file or directory") != std::string::npos);
    CHECK_FALSE(isRegularFile(t.path("dir.alo")));
    CHECK_FALSE(isRegularFile(fifo));
    if (::geteuid() != 0) { // root reads anything
        writeFile(t.path("locked.alo"), {1, 2, 3});
        ::chmod(t.path("locked.alo").c_str(), 0);
        m = refusal([&] { Resolver().read(t.path("locked.alo")); });
        CHECK(m.find("locked.alo: cannot open file: Permission denied") != std::string::npos);
    }
}

TEST_CASE("a 2 GB file of zeros named x.alo is refused by its size, nothing read", "[io][hostile]") {
    TempDir t;
    const std::string big = t.path("x.alo");
    if (!makeSparse(big, uint64_t(2) << 30)) {
        RIGSCOPE_SKIP("cannot make a sparse file in " << t.dir);
    }
    std::string m;
    const int64_t peak = test::peakHeap([&] { m = refusal([&] { Resolver().read(big); }); });
    CHECK(m.find("x.alo: file of 2147483648 bytes (2048.0 MiB) is larger than any Alamo model this viewer reads "
                 "(at most 256.0 MiB)") != std::string::npos);
    CHECK(peak < 64 * 1024);
    CHECK(formatInfo(Format::AlamoModel).maxBytes == uint64_t(256) << 20);
    CHECK(formatInfo(Format::Amal).maxBytes == uint64_t(16) << 20);
    CHECK(formatInfo(Format::Unknown).maxBytes == 0);
    // Under its format's cap, a file is read whole: 1 MiB of zeros as .alo reads, then fails in the reader,
    // naming the file; the per-chunk warnings it causes on the way are counted, not stored.
    const std::string mid = t.path("mid.alo");
    REQUIRE(makeSparse(mid, 1 << 20));
    const int64_t peakMid = test::peakHeap([&] { m = refusal([&] { Resolver().read(mid); }); });
    CHECK(m.find("mid.alo: ") != std::string::npos);
    CHECK(m.find("no skeleton chunk 0x200") != std::string::npos);
    CHECK(peakMid < 3 * (1 << 20));
}

TEST_CASE("repeated reader warnings are one line per kind with a count", "[io][alamo]") {
    std::vector<uint8_t> b = alamo::writeModel(test::syntheticModel());
    const size_t n = 100000;
    b.resize(b.size() + 8 * n, 0); // 100,000 empty chunks of type 0
    Document d;
    const int64_t peak = test::peakHeap([&] { d = Resolver().read(ByteSpan(b), "zeros.alo"); });
    REQUIRE(d.model);
    size_t lines = 0;
    for (const std::string& w : d.model->warnings)
        if (w.find("skipped unknown top-level chunk") == 0) {
            ++lines;
            CHECK(w == "skipped unknown top-level chunk 0x0, 0x0, 0x0 and 99997 more (100000 in all)");
        }
    CHECK(lines == 1);
    CHECK(peak < int64_t(b.size()) * 4); // was ~11 x the file size in warning strings

    WarningLog log;
    log.add("gap");
    log.add("gap");
    log.add("one", "here");
    CHECK(log.lines() == std::vector<std::string>{"gap (2 times)", "one here"});
}

TEST_CASE("messages escape non-printable bytes", "[io][hostile]") {
    const ParseError e("a\x1b]0;owned\x07.alo", "0x400", 12, "type \"\x1b]0;title\x07\" \xff ok \xc3\xa9");
    const std::string w = e.what();
    CHECK(printableLine(w));
    CHECK(w == "a\\x1B]0;owned\\x07.alo: chunk 0x400 at offset 12: type \"\\x1B]0;title\\x07\" \\xFF ok \xc3\xa9");
    CHECK(e.file() == "a\x1b]0;owned\x07.alo"); // accessors keep the bytes
    CHECK(printable("\xc2\x9b"
                    "2J") == "\\xC2\\x9B2J"); // C1 CSI in UTF-8 form
    const ParseError f("f.w3d", "", ParseError::kNoOffset, "hierarchy X not found");
    CHECK(std::string(f.what()) == "f.w3d: hierarchy X not found");
    const ParseError g("t.tga", "width", 12, "bad");
    CHECK(std::string(g.what()) == "t.tga: field width at offset 12: bad");
}

// Address space given to rigscope-cli in the hostile-input tests: a valid corpus model loads within it (checked
// below), a whole 2 GB file cannot.
constexpr int kCliAddressSpaceMiB = 128;

TEST_CASE("rigscope-cli refuses a folder, a FIFO and a 2 GB sparse file with a message naming them",
          "[io][cli][hostile]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    TempDir t;
    fs::create_directories(t.path("dir.alo"));
    const std::string fifo = t.path("pipe.alo");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const bool sparse = makeSparse(t.path("zeros.alo"), uint64_t(2) << 30);
    struct Case {
        std::string file, expect;
    };
    std::vector<Case> cases = {{t.path("dir.alo"), "dir.alo: is a directory, not a file"},
                               {fifo, "pipe.alo: is a FIFO (named pipe), not a file"}};
    if (sparse) cases.push_back({t.path("zeros.alo"), "zeros.alo: file of 2147483648 bytes"});
    for (const Case& c : cases)
        for (const char* cmd : {"info", "info --json", "pose --json"}) {
            INFO(cmd << " " << c.file);
            // `timeout` only guards the test suite against a hang (a FIFO opened for reading blocks forever). The
            // CLI runs with 128 MiB of address space: reading the 2 GB file, or any large part of it, would fail
            // with an out-of-memory message instead of the size refusal expected here.
            const test::CliRun r =
                test::runCli(std::string(cmd) + " '" + c.file + "'", test::Stderr::Merge, 30, kCliAddressSpaceMiB);
            CHECK(r.status == 1);
            CHECK(r.out.find(c.expect) != std::string::npos);
        }
    // Control: a valid model loads within the same limit, so the refusals above are not the limit's doing.
    writeFile(t.path("ok.alo"), alamo::writeModel(test::syntheticModel()));
    const test::CliRun ok = test::runCli("info '" + t.path("ok.alo") + "'", test::Stderr::Merge, 30, kCliAddressSpaceMiB);
    CHECK(ok.status == 0);
    CHECK(ok.out.find("ok.alo") != std::string::npos);
    // A bank type holding a terminal escape sequence reaches neither stdout nor stderr raw.
    amal::BankSpec s;
    s.programs = {"M 1,1,1"};
    std::vector<uint8_t> bank = amal::writeAmalBank(s);
    const std::string evil = t.path("evil.abk");
    const uint8_t type[8] = {0x1b, ']', '0', ';', 'X', 0x07, ' ', ' '};
    std::copy(type, type + 8, bank.begin() + 12); // AmBk, u16 number, u16 flags, u32 length, 8-byte type
    writeFile(evil, bank);
    const test::CliRun r = test::runCli("info '" + evil + "'", test::Stderr::Merge);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find('\x07') == std::string::npos);
    CHECK(r.out.find("\\x1B]0;X\\x07") != std::string::npos);
}
