// Issue 38 (what a new user hit): `export --batch -o DIR` creates a folder that does not exist yet (thumbnails:
// thumbnails_cli_test.cpp); the preview moment of a particle system whose particles are alive only between the
// moments it samples; `info` of an archive says it is one and points to `rigscope-cli ls`. Writer-made fixtures.
#include "cli_run.h"
#include "particle_preview_fixtures.h"
#include "thumbnail_fixtures.h"

#include "particles/particle_preview.h"
#include "vfs/archive_writer.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;

namespace {

test::CliRun cli(const std::string& args) { return test::runCli(args, test::Stderr::Merge, 300); }
std::string q(const fs::path& s) { return "'" + s.string() + "'"; }

struct Tmp {
    fs::path root;
    Tmp() {
        static int n = 0;
        root = fs::temp_directory_path() /
               ("rigscope_batch_out_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~Tmp() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
};

} // namespace

TEST_CASE("particle preview time: a burst alive only between the samples is found", "[thumbnails][particles]") {
    const ParticleSystem s = test::flashSystem();
    REQUIRE(particleLoopSeconds(s) == Approx(1.0f));
    const double t = particlePreviewTime(s);
    // The flash lives from 0.01 s to 0.03 s; the first 1/60 s step inside that is 1/60 s.
    CHECK(t >= 0.01);
    CHECK(t <= 0.03);
}

TEST_CASE("cli export --batch: -o DIR is created with its parents", "[export][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    Tmp t;
    test::writeFile(t.root / "src" / "sub" / "BOX.ALO", alamo::writeModel(test::boxModel({1, 1, 1})));
    const fs::path out = t.root / "gltf" / "new";
    auto r = cli("export --batch " + q(t.root / "src") + " -o " + q(out));
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("1 exported, 0 skipped, 0 failed") != std::string::npos);
    CHECK(fs::file_size(out / "sub" / "BOX.glb") > 100);
    // An archive source too.
    test::writeFile(t.root / "Models.meg",
                    vfs::writeMeg(2, {{"DATA\\ART\\MODELS\\A.ALO", alamo::writeModel(test::boxModel({1, 1, 1}))}}));
    r = cli("export --batch " + q(t.root / "Models.meg") + " -o " + q(t.root / "from_meg" / "x"));
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(fs::exists(t.root / "from_meg" / "x" / "DATA" / "ART" / "MODELS" / "A.glb"));
    // A bad source leaves no folder behind.
    r = cli("export --batch " + q(t.root / "nosuch") + " -o " + q(t.root / "never"));
    CHECK(r.status == 2);
    CHECK_FALSE(fs::exists(t.root / "never"));
}

TEST_CASE("cli info of an archive says it is one and points to ls", "[vfs][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    Tmp t;
    const std::vector<uint8_t> box = alamo::writeModel(test::boxModel({1, 1, 1}));
    test::writeFile(t.root / "Cinematics.meg",
                    vfs::writeMeg(3, {{"DATA\\ART\\MODELS\\A.ALO", box}, {"DATA\\ART\\MODELS\\B.ALO", box}}));
    test::writeFile(t.root / "old.meg", vfs::writeMeg(1, {{"DATA\\ART\\MODELS\\A.ALO", box}}));
    test::writeFile(t.root / "W3D.big", vfs::writeBig({{"art\\w3d\\a.w3d", {1, 2, 3}}}));
    // A .big renamed: recognised by its signature.
    test::writeFile(t.root / "renamed.dat", vfs::writeBig({{"art\\w3d\\a.w3d", {1, 2, 3}}}));
    struct Want {
        const char* file;
        const char* what;
    };
    for (const Want& w :
         {Want{"Cinematics.meg", "a MEG version 3 archive of 2 files"},
          Want{"old.meg", "a MEG version 1 archive of 1 file,"}, Want{"W3D.big", "a BIGF archive of 1 file,"},
          Want{"renamed.dat", "a BIGF archive of 1 file,"}}) {
        const std::string path = (t.root / w.file).string();
        const auto r = cli("info " + q(path));
        INFO(r.out);
        CHECK(r.status == 1);
        CHECK(r.out.find(w.what) != std::string::npos);
        CHECK(r.out.find("`rigscope-cli ls " + path + "`") != std::string::npos);
        CHECK(r.out.find(path + ":PATH") != std::string::npos);
        CHECK(r.out.find("unrecognised") == std::string::npos);
        CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    }
    // Its entries still open as ARCHIVE:PATH.
    const auto r = cli("info " + q((t.root / "Cinematics.meg").string() + ":DATA/ART/MODELS/A.ALO"));
    INFO(r.out);
    CHECK(r.status == 0);
    // A malformed archive says what is wrong with it, not "unrecognised file format".
    test::writeFile(t.root / "broken.meg", {0xFF, 0xFF, 0xFF, 0xFF, 0x3F, 0x7A, 0x3F, 0x3F, 9, 9});
    const auto b = cli("info " + q(t.root / "broken.meg"));
    INFO(b.out);
    CHECK(b.status == 1);
    CHECK(b.out.find("broken.meg") != std::string::npos);
    CHECK(b.out.find("unrecognised") == std::string::npos);
}
