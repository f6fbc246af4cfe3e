// rigscope-cli thumbnails over writer-made folders and archives: one PNG per asset under -o at the asked size,
// the contact sheet's layout, names that would leave -o refused, usage errors; a corpus folder when present.
#include "cli_run.h"
#include "corpus.h"
#include "thumbnail_fixtures.h"

#include "vfs/archive_writer.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;

namespace {

test::CliRun cli(const std::string& args) { return test::runCli(args, test::Stderr::Merge, 300); }
std::string q(const fs::path& s) { return "'" + s.string() + "'"; }

// Width and height from a PNG's IHDR; {0, 0} when the file is no PNG.
std::pair<uint32_t, uint32_t> pngSize(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    unsigned char h[24] = {};
    if (!f.read(reinterpret_cast<char*>(h), 24) || h[1] != 'P' || h[2] != 'N' || h[3] != 'G' || h[12] != 'I')
        return {0, 0};
    auto be = [&](int at) { return uint32_t(h[at]) << 24 | uint32_t(h[at + 1]) << 16 | uint32_t(h[at + 2]) << 8 | h[at + 3]; };
    return {be(16), be(20)};
}

std::set<std::string> filesUnder(const fs::path& dir) {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out.insert(e.path().lexically_relative(dir).generic_string());
    return out;
}

struct Tmp {
    fs::path root;
    Tmp() {
        static int n = 0;
        root = fs::temp_directory_path() / ("rigscope_thumbs_cli_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~Tmp() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
};

} // namespace

TEST_CASE("cli thumbnails of a folder: one PNG per asset at the size asked and a contact sheet", "[thumbnails][cli]") {
    if (!test::cliBuilt()) return;
    Tmp t;
    test::writeKindsFolder(t.root / "src");
    fs::create_directories(t.root / "out");
    const auto r = cli("thumbnails " + q(t.root / "src") + " -o " + q(t.root / "out") + " --size 64 --threads 2 --sheet " +
                       q(t.root / "sheet.png"));
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("6 thumbnails written") != std::string::npos);
    const std::set<std::string> want = {"Amal/BANK.ABK.png",         "Models/BOX.ALO.png",   "Models/STICK.ALO.png",
                                        "Models/STICK_MOVE_00.ALA.png", "Textures/TWO.DDS.png", "Textures/TWO.TGA.png"};
    CHECK(filesUnder(t.root / "out") == want);
    for (const char* model : {"Models/BOX.ALO.png", "Models/STICK.ALO.png", "Models/STICK_MOVE_00.ALA.png",
                              "Amal/BANK.ABK.png"})
        CHECK(pngSize(t.root / "out" / model) == std::make_pair(64u, 64u));
    CHECK(pngSize(t.root / "out" / "Textures/TWO.TGA.png") == std::make_pair(64u, 32u)); // never scaled up
    // Sheet: cells of (64 + 8) x (64 + 8 + 9 + 6), ceil(sqrt(6 * 87 / 72)) = 3 columns, 2 rows.
    CHECK(pngSize(t.root / "sheet.png") == std::make_pair(3u * 72u, 2u * 87u));
    // Nothing else was written beside the output folder.
    std::set<std::string> top;
    for (const auto& e : fs::directory_iterator(t.root))
        top.insert(e.path().filename().string());
    CHECK(top == std::set<std::string>{"out", "sheet.png", "src"});
}

TEST_CASE("cli thumbnails of an archive: entry names as paths under -o, names leaving it refused", "[thumbnails][cli]") {
    if (!test::cliBuilt()) return;
    Tmp t;
    const std::vector<uint8_t> box = alamo::writeModel(test::boxModel({1, 1, 1}));
    test::writeFile(t.root / "Models.meg",
                    vfs::writeMeg(1, {{"DATA\\ART\\MODELS\\A.ALO", box},
                                      {"DATA\\ART\\MODELS\\B.ALO", box},
                                      {"DATA\\ART\\MODELS\\B_MOVE_00.ALA", alamo::writeClip(test::stickClip())},
                                      {"..\\..\\EVIL.ALO", box},
                                      {"DATA\\README.TXT", {'h', 'i'}}}));
    fs::create_directories(t.root / "a" / "out");
    const auto r = cli("thumbnails " + q(t.root / "Models.meg") + " -o " + q(t.root / "a" / "out") + " --size 100");
    INFO(r.out);
    CHECK(r.status == 1); // the refused name
    CHECK(r.out.find("EVIL.ALO: its name would write outside") != std::string::npos);
    CHECK(filesUnder(t.root / "a" / "out") ==
          std::set<std::string>{"DATA/ART/MODELS/A.ALO.png", "DATA/ART/MODELS/B.ALO.png",
                                "DATA/ART/MODELS/B_MOVE_00.ALA.png"});
    CHECK(pngSize(t.root / "a" / "out" / "DATA/ART/MODELS/A.ALO.png") == std::make_pair(100u, 100u));
    CHECK_FALSE(fs::exists(t.root / "EVIL.ALO.png"));
    CHECK_FALSE(fs::exists(t.root / "a" / "EVIL.ALO.png"));
    std::set<std::string> top;
    for (const auto& e : fs::directory_iterator(t.root))
        top.insert(e.path().filename().string());
    CHECK(top == std::set<std::string>{"Models.meg", "a"});
}

TEST_CASE("cli thumbnails: broken files are listed and exit 1, usage errors exit 2", "[thumbnails][cli]") {
    if (!test::cliBuilt()) return;
    Tmp t;
    test::writeFile(t.root / "src" / "GOOD.ALO", alamo::writeModel(test::boxModel({1, 1, 1})));
    test::writeFile(t.root / "src" / "BAD.ALO", {0, 2, 0, 0, 7, 7, 7, 7});
    fs::create_directories(t.root / "out");
    const auto r = cli("thumbnails " + q(t.root / "src") + " -o " + q(t.root / "out"));
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("1 thumbnails written") != std::string::npos);
    CHECK(r.out.find("failed: ") != std::string::npos);
    CHECK(r.out.find("BAD.ALO") != std::string::npos);
    CHECK(filesUnder(t.root / "out") == std::set<std::string>{"GOOD.ALO.png"});
    CHECK(cli("thumbnails " + q(t.root / "src")).status == 2);                                  // no -o
    CHECK(cli("thumbnails " + q(t.root / "nothing") + " -o " + q(t.root / "out")).status == 2); // no source
    CHECK(cli("thumbnails " + q(t.root / "src") + " -o " + q(t.root / "missing")).status == 2); // no folder
    CHECK(cli("thumbnails " + q(t.root / "src") + " -o " + q(t.root / "out") + " --size 5").status == 2);
}

TEST_CASE("cli thumbnails of a corpus folder", "[thumbnails][cli][corpus]") {
    if (!test::cliBuilt()) return;
    const fs::path dir = fs::path(RIGSCOPE_CORPUS_DIR) / "games" / "Delta730+Imperial_Civil_War";
    if (!fs::is_directory(dir)) RIGSCOPE_SKIP("corpus game not found");
    Tmp t;
    const auto r = cli("thumbnails --mod " + q(dir) + " -o " + q(t.root) + " --size 48 --sheet " + q(t.root / "s.png"));
    INFO(r.out);
    // Particle systems are skipped, not failures.
    CHECK(r.status == 0);
    const std::set<std::string> files = filesUnder(t.root);
    CHECK(files.size() > 30);
    CHECK(files.count("s.png") == 1);
    for (const std::string& f : files)
        if (f != "s.png") CHECK(pngSize(t.root / f).first <= 48);
}
