// rigscope-cli thumbnails over writer-made folders and archives: one PNG per asset under -o at the asked size,
// the contact sheet's layout and content (each cell is its file's own picture), names that would leave -o refused,
// usage errors; a corpus folder when present; -o DIR created when missing, a particle burst alive only between the
// preview's samples drawn, and one asset that cannot be drawn failing no batch unless nothing was drawn (issue 38).
// Without the built rigscope-cli the cases fail.
#include "cli_run.h"
#include "corpus.h"
#include "particle_preview_fixtures.h"
#include "thumbnail_fixtures.h"

#include "alamo/particle_writer.h"
#include "vfs/archive_writer.h"

#include <catch2/catch.hpp>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>
#include <vector>

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

// A PNG decoded to RGBA (libstb); empty when it cannot be read.
struct Rgba {
    int width = 0, height = 0;
    std::vector<uint8_t> px;
    const uint8_t* at(int x, int y) const { return &px[(size_t(y) * size_t(width) + size_t(x)) * 4]; }
};
// Pixels of a PNG with alpha > 0 (libstb); -1 when it cannot be read.
int opaquePixels(const fs::path& p) {
    int w = 0, h = 0, c = 0;
    unsigned char* data = stbi_load(p.string().c_str(), &w, &h, &c, 4);
    if (!data) return -1;
    int n = 0;
    for (int i = 0; i < w * h; ++i)
        n += data[i * 4 + 3] > 0;
    stbi_image_free(data);
    return n;
}

Rgba readPng(const fs::path& p) {
    Rgba out;
    int channels = 0;
    unsigned char* data = stbi_load(p.string().c_str(), &out.width, &out.height, &channels, 4);
    if (!data) return {};
    out.px.assign(data, data + size_t(out.width) * size_t(out.height) * 4);
    stbi_image_free(data);
    return out;
}

} // namespace

TEST_CASE("cli thumbnails of a folder: one PNG per asset at the size asked and a contact sheet", "[thumbnails][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
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
    // Its content: the inputs in the order of their names, cell i at column i % 3, row i / 3; in each cell the
    // file's own thumbnail, centred in the 64 x 64 square 4 pixels in from the cell's corner, drawn over the
    // sheet's background (58, 62, 70).
    const Rgba sheet = readPng(t.root / "sheet.png");
    REQUIRE(sheet.width == 3 * 72);
    REQUIRE(sheet.height == 2 * 87);
    const std::vector<std::string> order = {"Amal/BANK.ABK.png",    "Models/BOX.ALO.png",
                                            "Models/STICK.ALO.png", "Models/STICK_MOVE_00.ALA.png",
                                            "Textures/TWO.DDS.png", "Textures/TWO.TGA.png"};
    const uint8_t background[3] = {58, 62, 70};
    for (size_t i = 0; i < order.size(); ++i) {
        INFO("cell " << i << ": " << order[i]);
        const Rgba thumb = readPng(t.root / "out" / order[i]);
        REQUIRE(thumb.width > 0);
        const int x0 = int(i % 3) * 72 + 4 + (64 - thumb.width) / 2, y0 = int(i / 3) * 87 + 4 + (64 - thumb.height) / 2;
        int worst = 0, drawn = 0;
        for (int y = 0; y < thumb.height; ++y)
            for (int x = 0; x < thumb.width; ++x) {
                const uint8_t* p = thumb.at(x, y);
                const uint8_t* q = sheet.at(x0 + x, y0 + y);
                bool differs = false;
                for (int c = 0; c < 3; ++c) {
                    // The thumbnail composited over the background (source over), as the sheet draws it.
                    const int want = (p[c] * p[3] + background[c] * (255 - p[3]) + 127) / 255;
                    worst = std::max(worst, std::abs(want - int(q[c])));
                    differs = differs || std::abs(int(q[c]) - int(background[c])) > 8;
                }
                drawn += differs;
            }
        CAPTURE(worst, drawn);
        CHECK(worst <= 3);
        // Not an empty cell: the picture covers part of it (the stick's skeleton is the thinnest, a few lines).
        CHECK(drawn > 40);
    }
    // Around the pictures the sheet is background: each cell's top-left corner.
    for (int cell = 0; cell < 6; ++cell) {
        const uint8_t* corner = sheet.at((cell % 3) * 72, (cell / 3) * 87);
        CHECK((corner[0] == 58 && corner[1] == 62 && corner[2] == 70));
    }
    // Nothing else was written beside the output folder.
    std::set<std::string> top;
    for (const auto& e : fs::directory_iterator(t.root))
        top.insert(e.path().filename().string());
    CHECK(top == std::set<std::string>{"out", "sheet.png", "src"});
}

TEST_CASE("cli thumbnails of an archive: entry names as paths under -o, names leaving it refused", "[thumbnails][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
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
    CHECK(r.status == 0); // the refused name is listed; the others are drawn (issue 38: one item fails no batch)
    CHECK(r.out.find("3 thumbnails written") != std::string::npos);
    CHECK(r.out.find("failed: ") != std::string::npos);
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

TEST_CASE("cli thumbnails: broken files are listed (exit 0 when others were drawn), usage errors exit 2",
          "[thumbnails][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    Tmp t;
    test::writeFile(t.root / "src" / "GOOD.ALO", alamo::writeModel(test::boxModel({1, 1, 1})));
    test::writeFile(t.root / "src" / "BAD.ALO", {0, 2, 0, 0, 7, 7, 7, 7});
    fs::create_directories(t.root / "out");
    const auto r = cli("thumbnails " + q(t.root / "src") + " -o " + q(t.root / "out"));
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("1 thumbnails written") != std::string::npos);
    CHECK(r.out.find("failed: ") != std::string::npos);
    CHECK(r.out.find("BAD.ALO") != std::string::npos);
    CHECK(filesUnder(t.root / "out") == std::set<std::string>{"GOOD.ALO.png"});
    CHECK(cli("thumbnails " + q(t.root / "src")).status == 2);                                  // no -o
    CHECK(cli("thumbnails " + q(t.root / "nothing") + " -o " + q(t.root / "out")).status == 2); // no source
    CHECK(cli("thumbnails " + q(t.root / "src") + " -o " + q(t.root / "out") + " --size 5").status == 2);
}

TEST_CASE("cli thumbnails of a corpus folder", "[thumbnails][cli][corpus]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
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

TEST_CASE("cli thumbnails: -o DIR is created, a late particle burst is drawn, one bad file fails no batch",
          "[thumbnails][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    Tmp t;
    test::writeFile(t.root / "src" / "BOX.ALO", alamo::writeModel(test::boxModel({1, 1, 1})));
    test::writeFile(t.root / "src" / "PE_FLASH.ALO", alamo::writeParticleSystem(test::flashSystem()));
    const fs::path out = t.root / "new" / "deeper" / "thumbs";
    REQUIRE_FALSE(fs::exists(t.root / "new"));
    auto r = cli("thumbnails " + q(t.root / "src") + " -o " + q(out) + " --size 64");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("2 thumbnails written to " + out.string() + ", 0 skipped, 0 failed") != std::string::npos);
    CHECK(fs::is_directory(out));
    CHECK(opaquePixels(out / "BOX.ALO.png") > 100);
    CHECK(opaquePixels(out / "PE_FLASH.ALO.png") > 50); // the flash's six soft sprites

    // A broken file among good ones: listed as failed, the batch still succeeds.
    test::writeFile(t.root / "src" / "BAD.ALO", {0, 2, 0, 0, 7, 7, 7, 7});
    r = cli("thumbnails " + q(t.root / "src") + " -o " + q(out) + " --size 64");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("2 thumbnails written to " + out.string() + ", 0 skipped, 1 failed") != std::string::npos);
    CHECK(r.out.find("failed: ") != std::string::npos);
    CHECK(r.out.find("BAD.ALO") != std::string::npos);

    // Nothing drawn at all: exit 1.
    test::writeFile(t.root / "bad" / "BAD.ALO", {0, 2, 0, 0, 7, 7, 7, 7});
    r = cli("thumbnails " + q(t.root / "bad") + " -o " + q(t.root / "bad_out"));
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("0 thumbnails written") != std::string::npos);

    // -o naming a file: refused naming it, nothing drawn; a mistyped SOURCE makes no folder.
    test::writeFile(t.root / "afile", {1});
    r = cli("thumbnails " + q(t.root / "src") + " -o " + q(t.root / "afile"));
    CHECK(r.status == 1);
    CHECK(r.out.find(t.root.string() + "/afile: not a folder") != std::string::npos);
    r = cli("thumbnails " + q(t.root / "nosuch") + " -o " + q(t.root / "never"));
    CHECK(r.status == 2);
    CHECK_FALSE(fs::exists(t.root / "never"));
}
