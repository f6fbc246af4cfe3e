// rigscope-cli check: exit status, text, JSON and SARIF (validated against the published SARIF 2.1.0 schema), and
// the corpus mod folders.
#include "check/check_fixtures.h"
#include "cli_run.h"
#include "corpus.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace rs::test;
using Defect = CheckMod::Defect;

namespace {

std::string q(const std::string& s) { return "'" + s + "'"; }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("check: clean mod exits 0, a planted error exits 1, usage errors exit 2") {
    REQUIRE(cliBuilt());
    CheckMod clean;
    CliRun r = runCli("check --mod " + q(clean.mod), Stderr::Merge, 120);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(runCli("check --mod " + q(clean.mod) + " --fail-on info", Stderr::Drop, 120).status == 0);

    CheckMod bad(Defect::ShadowOpen);
    r = runCli("check --mod " + q(bad.mod), Stderr::Drop, 120);
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Contains("error limit.shadow-not-closed"));
    CHECK_THAT(r.out, Catch::Contains("mesh Shadow sub-mesh 0"));

    CheckMod warn(Defect::TextureMissing); // over its (bare) game: the missing texture is judged, a warning
    const std::string withGame = " --game " + q(warn.game) + " --mod " + q(warn.mod);
    CHECK(runCli("check" + withGame, Stderr::Drop, 120).status == 0);
    CHECK(runCli("check" + withGame + " --fail-on warning", Stderr::Drop, 120).status == 1);

    CHECK(runCli("check", Stderr::Drop, 30).status == 2);
    CHECK(runCli("check --mod " + q(clean.mod) + " --fail-on bogus", Stderr::Drop, 30).status == 2);
    CHECK(runCli("check --mod " + q(clean.mod) + " --json --sarif x.sarif", Stderr::Drop, 30).status == 2);
    CHECK(runCli("check --help", Stderr::Drop, 30).status == 0);
}

TEST_CASE("check: --json lists findings with id, level, file and location") {
    REQUIRE(cliBuilt());
    CheckMod bad(Defect::ObjectModel);
    const CliRun r = runCli("check --json --game " + q(bad.game) + " --mod " + q(bad.mod), Stderr::Drop, 120);
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::StartsWith("{\"schema\":\"rigscope-check/1\""));
    CHECK_THAT(r.out, Catch::Contains("{\"id\":\"object.model-missing\",\"level\":\"error\",\"file\":"));
    CHECK_THAT(
        r.out,
        Catch::Contains("\"key\":\"DATA/XML/UNITS.XML\",\"location\":{\"line\":3,\"column\":4,\"object\":\"Clean\"}"));
}

TEST_CASE("check: SARIF validates against the SARIF 2.1.0 schema") {
    REQUIRE(cliBuilt());
    // The validator is installed by the build (target sarif_validator); without it this test fails, not skips.
    const std::string prefix = RIGSCOPE_SARIF_PREFIX;
    INFO("SARIF validator under " << prefix << " (target sarif_validator, npm)");
    REQUIRE(std::ifstream(prefix + "/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json").good());
    REQUIRE(std::ifstream(prefix + "/node_modules/ajv/package.json").good());
    // TextureMissing without --game: a ref.base-game note, whose file is the mod's folder.
    for (Defect d : {Defect::None, Defect::ReadError, Defect::ObjectBone, Defect::ArchiveCrc, Defect::Unreferenced,
                     Defect::TextureMissing}) {
        CheckMod m(d);
        const std::string out = m.root.string() + "/out.sarif";
        const CliRun r = runCli("check --mod " + q(m.mod) + " --sarif " + q(out), Stderr::Drop, 120);
        CHECK((r.status == 0 || r.status == 1));
        const std::string sarif = slurp(out);
        INFO(sarif);
        CHECK_THAT(sarif, Catch::Contains("\"version\":\"2.1.0\""));
        const std::string log = m.root.string() + "/validate.txt";
        const int rc = std::system(
            ("node " + q(RIGSCOPE_SARIF_VALIDATE_JS) + " " + q(prefix) + " " + q(out) + " > " + q(log) + " 2>&1")
                .c_str());
        INFO(slurp(log));
        CHECK(rc == 0);
    }
}

TEST_CASE("check: a mod without --game: references it does not hold are notes, and the summary counts them") {
    REQUIRE(cliBuilt());
    CheckMod m(Defect::ObjectModel); // Clean's Space_Model_Name GONE.ALO: the base game's, or missing
    CliRun r = runCli("check --mod " + q(m.mod), Stderr::Merge, 120);
    INFO(r.out);
    CHECK(r.status == 0); // a note does not fail the check
    CHECK_THAT(r.out, Catch::Contains("info ref.base-game " + m.mod +
                                      ": 1 reference (object.model-missing, 1 name) to what the mod does not define "
                                      "or ship, which the base game may provide; mount the game to check them. E.g. "
                                      "GONE.ALO (Clean, DATA/XML/UNITS.XML:3)\n"));
    CHECK_THAT(r.out, Catch::Contains("no game mounted: 1 reference the mod does not hold is left to the base game "
                                      "(ref.base-game notes); add --game DIR to check them\n"));
    CHECK_THAT(r.out, !Catch::Contains("object.model-missing " + m.mod));
    r = runCli("check --json --mod " + q(m.mod), Stderr::Drop, 120);
    CHECK_THAT(r.out, Catch::Contains("\"subject\":\"object.model-missing\""));
    // With the game mounted the same reference is an error, and nothing is left to the game.
    r = runCli("check --game " + q(m.game) + " --mod " + q(m.mod), Stderr::Merge, 120);
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Contains("error object.model-missing "));
    CHECK_THAT(r.out, !Catch::Contains("ref.base-game"));
    CHECK_THAT(r.out, !Catch::Contains("no game mounted"));
}

// The corpus mod folders: the counts per id that docs/CHECKS.md's table judges (a change shows up here first).
TEST_CASE("check: corpus mod folders") {
    RIGSCOPE_REQUIRE_CORPUS("games");
    REQUIRE(cliBuilt());
    for (const char* mod : {"Delta730+Imperial_Civil_War", "SymoniusGit+TROWMod"}) {
        const std::string dir = corpusDir() + "/games/" + mod;
        const CliRun r = runCli("check --json --mod " + q(dir), Stderr::Drop, 300);
        INFO(mod);
        CHECK(r.status == 1); // both hold errors: bones their own models do not have, a definition error, ...
        // References the mods do not hold (the base game is not mounted) are notes, one per check id.
        CHECK_THAT(r.out, Catch::Contains("\"id\":\"ref.base-game\",\"level\":\"info\""));
        CHECK_THAT(r.out, !Catch::Contains("\"id\":\"object.model-missing\""));
        CHECK_THAT(r.out, !Catch::Contains("\"id\":\"model.texture-missing\""));
        CHECK_THAT(r.out, Catch::Contains("\"findings\":["));
        CHECK_THAT(r.out, !Catch::Contains("\"id\":\"read.error\""));
        CHECK_THAT(r.out, !Catch::Contains("\"id\":\"model.shader-unknown\"")); // .FXO names are stock shaders
        // The ModVerify checks of issue 43: ICW's 124 object icons name MT_COMMANDBAR.mtd, which the copy does not
        // hold (a base-game note); neither copy holds SFX events, GUI dialogs or command bar components.
        if (std::string(mod) == "Delta730+Imperial_Civil_War")
            CHECK_THAT(r.out, Catch::Contains("124 references (commandbar.icon-missing, 89 names)"));
        else // the command sets and mapped images TROW names; the copy defines none of them
            CHECK_THAT(r.out, Catch::Contains("59 references (ini.commandset-missing, 51 names)"));
        for (const char* id : {"sfx.sample-missing", "gui.texture-missing", "commandbar.model-missing"})
            CHECK_THAT(r.out, !Catch::Contains(std::string("\"id\":\"") + id + "\""));
    }
}

TEST_CASE("check: a baseline accepts the findings a mod lived with and fails only on new ones; SARIF marks them") {
    REQUIRE(cliBuilt());
    CheckMod m(Defect::ObjectModel);
    const std::string mount = " --game " + q(m.game) + " --mod " + q(m.mod);
    const std::string base = m.root.string() + "/baseline.json";
    CliRun r = runCli("check" + mount + " --baseline-write " + q(base), Stderr::Merge, 120);
    INFO(r.out);
    CHECK(r.status == 1); // writing a baseline does not hide today's errors
    CHECK_THAT(slurp(base), Catch::Contains("\"id\": \"object.model-missing\""));

    // The definition moved two lines down: still the same finding.
    const std::string units = m.mod + "/Data/XML/Units.xml";
    std::string xml = slurp(units);
    const size_t firstLine = xml.find('\n');
    REQUIRE(firstLine != std::string::npos);
    xml.insert(firstLine + 1, "<!-- moved -->\n<!-- down -->\n");
    std::ofstream(units, std::ios::binary) << xml;
    r = runCli("check" + mount + " --baseline " + q(base), Stderr::Merge, 120);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("error (baseline) object.model-missing"));
    CHECK_THAT(r.out, Catch::Contains("0 new,"));

    // A new defect: a truncated model. Only it fails.
    std::ofstream(m.mod + "/Data/Art/Models/BROKEN2.ALO", std::ios::binary) << std::string("\x00\x02\x00\x00\x07", 5);
    const std::string sarif = m.root.string() + "/out.sarif";
    r = runCli("check" + mount + " --baseline " + q(base) + " --sarif " + q(sarif), Stderr::Merge, 120);
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Contains("(new) read."));
    CHECK_THAT(r.out, Catch::Contains("BROKEN2.ALO"));
    CHECK_THAT(r.out, Catch::Contains("error (baseline) object.model-missing"));
    const std::string s = slurp(sarif);
    CHECK_THAT(s, Catch::Contains("\"baselineState\":\"new\""));
    CHECK_THAT(s, Catch::Contains("\"baselineState\":\"unchanged\""));
    const std::string prefix = RIGSCOPE_SARIF_PREFIX, log = m.root.string() + "/validate.txt";
    const int rc = std::system(
        ("node " + q(RIGSCOPE_SARIF_VALIDATE_JS) + " " + q(prefix) + " " + q(sarif) + " > " + q(log) + " 2>&1")
            .c_str());
    INFO(slurp(log));
    CHECK(rc == 0); // the SARIF 2.1.0 schema accepts baselineState

    // A suppressions file in the mod, with its reason: the new read error no longer fails, and says why.
    std::ofstream(m.mod + "/rigscope-check.json")
        << "{\"suppress\": [{\"id\": \"read.*\", \"file\": \"*BROKEN2.ALO\", \"reason\": \"work in progress\"}]}";
    r = runCli("check" + mount + " --baseline " + q(base) + " --json", Stderr::Drop, 120);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"suppressed\":\"work in progress\""));
    // A broken suppressions file stops the check, named.
    std::ofstream(m.mod + "/rigscope-check.json") << "{\"suppress\": [{\"id\": \"read.*\"}]}";
    r = runCli("check" + mount, Stderr::Merge, 120);
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Catch::Contains("rigscope-check.json"));
    CHECK_THAT(r.out, Catch::Contains("no \"reason\""));
}

TEST_CASE("games: lists the games and mods of a fake home, and --mod-id mounts a mod with its game") {
    REQUIRE(cliBuilt());
    CheckMod m(Defect::None);
    namespace fs = std::filesystem;
    const fs::path home = m.root / "home";
    const fs::path common = home / ".local/share/Steam/steamapps/common/Gold";
    fs::create_directories(common / "corruption");
    std::ofstream(common / "corruption/swfoc.exe") << "x";
    fs::create_directories(common / "corruption/Data");
    const fs::path ws = home / ".local/share/Steam/steamapps/workshop/content/32470/777";
    fs::create_directories(ws.parent_path());
    fs::create_directory_symlink(m.mod, ws);
    std::ofstream(m.mod + "/modinfo.json") << "{\"name\": \"Clean Mod\", \"version\": \"2.0.0\"}";
    CliRun r = runCli("games --json --home " + q(home.string()), Stderr::Drop, 60);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("{\"schema\":\"rigscope-games/1\""));
    CHECK_THAT(r.out, Catch::Contains("\"id\":\"foc\""));
    CHECK_THAT(r.out, Catch::Contains("\"id\":\"777\",\"name\":\"Clean Mod\",\"version\":\"2.0.0\""));
    // --mod-id 777 mounts the mod over FoC found in the same home: the command's HOME is the fake one.
    const char* oldHome = std::getenv("HOME");
    const std::string saved = oldHome ? oldHome : "";
    ::setenv("HOME", home.c_str(), 1);
    r = runCli("objects --mod-id 777 --json", Stderr::Merge, 60);
    const CliRun unknown = runCli("objects --mod-id 778", Stderr::Merge, 60);
    const CliRun auto_ = runCli("objects --game auto --json", Stderr::Merge, 60);
    if (oldHome)
        ::setenv("HOME", saved.c_str(), 1);
    else
        ::unsetenv("HOME");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("\"Clean\""));
    CHECK(unknown.status == 2);
    CHECK_THAT(unknown.out, Catch::Contains("--mod-id 778: no Workshop or local mod with that id was found"));
    INFO(auto_.out);
    CHECK(auto_.status == 1); // the remembered FoC, mounted: a bare game has no object database, named
    CHECK_THAT(auto_.out, Catch::Contains("Gold/corruption: no object database"));
}
