// rigscope-cli ls / extract / info / pose over the fake game install (vfs_fixtures.h) and hostile archives.
#include "cli_run.h"
#include "vfs_fixtures.h"

#include "format_catch.h"
#include "resolve/resolver.h"

#include <catch2/catch.hpp>

using namespace rs;
namespace fs = std::filesystem;

namespace {

test::CliRun cli(const std::string& args) { return test::runCli(args, test::Stderr::Merge); }
std::string q(const std::string& s) { return "'" + s + "'"; }

} // namespace

TEST_CASE("cli ls shows source, overrides and overridden-by", "[vfs][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    test::FakeInstall fi;
    auto all = cli("ls --json --game " + q(fi.eaw) + " --mod " + q(fi.eawMod) + " '*w_test*'");
    REQUIRE(all.status == 0);
    INFO(all.out);
    CHECK(all.out.find("\"name\":\"Data/Art/Textures/W_TEST.dds\",\"size\":10,\"source\":\"" + fi.eawMod +
                       "\",\"role\":\"mod loose\"") != std::string::npos);
    CHECK(all.out.find("Textures.meg:DATA\\\\ART\\\\TEXTURES\\\\W_TEST.DDS\",\"role\":\"game archive\"") !=
          std::string::npos);
    CHECK(all.out.find("W_UNIT") == std::string::npos); // glob

    auto one = cli("ls " + q(fi.eaw + "/Data/Textures.meg") + " --game " + q(fi.eaw) + " --mod " + q(fi.eawMod));
    REQUIRE(one.status == 0);
    INFO(one.out);
    CHECK(one.out.find("11\t" + fi.eaw + "/Data/Textures.meg\tDATA\\ART\\TEXTURES\\W_DAZZLE.DDS\toverridden-by " +
                       fi.eaw + "/Data/Patch.meg:DATA\\ART\\TEXTURES\\W_DAZZLE.DDS\n") != std::string::npos);
    CHECK(one.out.find("W_TEST.DDS\toverridden-by " + fi.eawMod + "/Data/Art/Textures/W_TEST.dds") !=
          std::string::npos);
    CHECK(one.out.find("W_UNIT") == std::string::npos); // only Textures.meg's entries

    CHECK(cli("ls --help").out.find("Usage: rigscope-cli ls") == 0);
    CHECK(cli("extract --help").out.find("Usage: rigscope-cli extract") == 0);
    CHECK(cli("ls").status == 2);
}

TEST_CASE("cli info finds an Alamo model's textures (mod override) and clips by game path", "[vfs][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    test::FakeInstall fi;
    auto r = cli("info --json --game " + q(fi.eaw) + " --mod " + q(fi.eawMod) + " Data/Art/Models/W_UNIT.ALO");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"format\":\"alo\"") != std::string::npos);
    CHECK(r.out.find("{\"name\":\"W_TEST.TGA\",\"found\":true,\"source\":\"" + fi.eawMod +
                     "/Data/Art/Textures/W_TEST.dds\",\"role\":\"mod loose\",\"overrides\":[{\"source\":\"" + fi.eaw +
                     "/Data/Textures.meg:DATA\\\\ART\\\\TEXTURES\\\\W_TEST.DDS\"") != std::string::npos);
    CHECK(r.out.find("Patch.meg:DATA\\\\ART\\\\TEXTURES\\\\W_DAZZLE.DDS") != std::string::npos);
    CHECK(r.out.find("\"clips\":[\"" + fi.eaw + "/Data/Models.meg:DATA\\\\ART\\\\MODELS\\\\W_UNIT_IDLE_00.ALA\",\"" +
                     fi.eaw + "/Data/Models.meg:DATA\\\\ART\\\\MODELS\\\\W_UNIT_WALK_00.ALA\"]") != std::string::npos);

    // ARCHIVE:PATH without --game: the model and its clips from the archive itself, textures not there.
    auto a = cli("info --json " + q(fi.eaw + "/Data/Models.meg:data\\art\\models\\w_unit.alo"));
    INFO(a.out);
    REQUIRE(a.status == 0);
    CHECK(a.out.find("{\"name\":\"W_TEST.TGA\",\"found\":false}") != std::string::npos);
    CHECK(a.out.find("W_UNIT_WALK_00.ALA\"]") != std::string::npos);

    auto missing = cli("info --game " + q(fi.eaw) + " DATA/ART/MODELS/NOPE.ALO");
    CHECK(missing.status == 1);
    CHECK(missing.out.find("DATA/ART/MODELS/NOPE.ALO") != std::string::npos);
}

TEST_CASE("cli pose takes a model and clip from the game's archives", "[vfs][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    test::FakeInstall fi;
    auto r = cli("pose --json --game " + q(fi.eaw) +
                 " DATA/ART/MODELS/W_UNIT.ALO --clip DATA/ART/MODELS/W_UNIT_IDLE_00.ALA --frame 0");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("{\"name\":\"Arm\",\"world\":[") != std::string::npos);
    // The same through the loose model + archive clip syntax.
    auto b = cli("pose --json " + q(fi.eaw + "/Data/Models.meg:DATA/ART/MODELS/W_UNIT.ALO") + " --clip " +
                 q(fi.eaw + "/Data/Models.meg:DATA/ART/MODELS/W_UNIT_IDLE_00.ALA") + " --frame 0");
    REQUIRE(b.status == 0);
    CHECK(b.out == r.out);
}

TEST_CASE("cli info finds a SAGE skin's skeleton in art/w3d/<xx>/ and the mod's texture", "[vfs][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    test::FakeInstall fi;
    auto r =
        cli("info --json --game " + q(fi.bfme2) + " --mod " + q(fi.bfme2Mod) + " art\\\\w3d\\\\un\\\\unit_skn.w3d");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"hierarchy\":\"" + fi.bfme2 + "/W3D.big:art\\\\w3d\\\\te\\\\test_skl.w3d\"") !=
          std::string::npos);
    CHECK(r.out.find("{\"name\":\"quad.tga\",\"found\":true,\"source\":\"" + fi.bfme2Mod +
                     "/mod.big:art\\\\compiledtextures\\\\qu\\\\quad.dds\"") != std::string::npos);
    CHECK(r.out.find("\"clips\":[\"" + fi.bfme2 + "/W3D.big:art\\\\w3d\\\\te\\\\test_idla.w3d\"]") !=
          std::string::npos);
    CHECK(r.out.find("not found") == std::string::npos);
}

TEST_CASE("cli extract writes entries under DIR only; the SAGE layout on disk still finds skeletons", "[vfs][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    test::FakeInstall fi;
    const fs::path out = fi.root / "out" / "inner";
    auto r = cli("extract " + q(fi.bfme2 + "/W3D.big") + " '*' -o " + q(out.string()));
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("3 written, 0 refused") != std::string::npos);
    Document d = Resolver().read((out / "art" / "w3d" / "un" / "unit_skn.w3d").string());
    REQUIRE(d.model);
    CHECK(d.model->skeleton.bones.size() == 4); // from ../te/test_skl.w3d

    const std::vector<uint8_t> x = test::textBytes("x");
    test::FakeInstall::write(fi.root / "evil.meg", vfs::writeMeg(1, {{"..\\..\\EVIL1.TXT", x},
                                                                     {"C:\\EVIL2.TXT", x},
                                                                     {"OK\\..\\..\\EVIL3.TXT", x},
                                                                     {"D:EVIL4.TXT", x},
                                                                     {"\\ROOTED.TXT", x},
                                                                     {"OK\\GOOD.TXT", x}}));
    auto e = cli("extract " + q((fi.root / "evil.meg").string()) + " '*' -o " + q(out.string()));
    INFO(e.out);
    CHECK(e.status == 1);
    CHECK(e.out.find("2 written, 4 refused") != std::string::npos);
    CHECK(e.out.find("entry ..\\..\\EVIL1.TXT refused") != std::string::npos);
    CHECK(fs::exists(out / "OK" / "GOOD.TXT"));
    CHECK(fs::exists(out / "ROOTED.TXT"));
    for (const char* f : {"EVIL1.TXT", "EVIL2.TXT", "EVIL3.TXT", "EVIL4.TXT"}) {
        CHECK_FALSE(fs::exists(fi.root / f));
        CHECK_FALSE(fs::exists(fi.root / "out" / f));
        CHECK_FALSE(fs::exists(out / f));
    }
}
