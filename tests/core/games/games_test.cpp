// core/games: VDF, game and mod discovery in fake home folders (Steam native and Flatpak, two libraries, a Proton
// prefix, Wine and Bottles prefixes, Workshop mods with dependencies and a cycle), eaw.modinfo's dependency
// flattening test cases, the mount a command line asks for, and broken VDF/JSON named.
#include "games_fixtures.h"

#include "common/error.h"
#include "games/discovery.h"
#include "games/vdf.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rs;
using namespace rs::games;
using rs::test::buildComputer;
using rs::test::Home;
using rs::test::modinfo;

namespace {

const GameInstall* game(const Discovery& d, Game g) {
    for (const GameInstall& x : d.games)
        if (x.game == g) return &x;
    return nullptr;
}

std::vector<std::string> ids(const ModStack& s) {
    std::vector<std::string> out;
    for (const ModInfo* m : s.order)
        out.push_back(m->id);
    return out;
}

} // namespace

TEST_CASE("games: VDF pairs, blocks, escapes, comments; hostile VDF refused with line and column", "[games]") {
    const VdfNode n = parseVdf("\xEF\xBB\xBF// a comment\n\"LibraryFolders\" {\n \"1\" \"D:\\\\Games\\\"x\\\"\"\n"
                               " bare value\n \"sub\" { \"k\" \"v\" }\n}\n",
                               "lf.vdf");
    const VdfNode* lf = n.find("libraryfolders");
    REQUIRE(lf);
    CHECK(lf->block);
    CHECK(lf->get("1") == "D:\\Games\"x\"");
    CHECK(lf->get("BARE") == "value");
    CHECK(lf->find("sub")->get("k") == "v");
    CHECK(lf->find("sub")->line == 5);

    auto refused = [](const std::string& text, const std::string& what) {
        try {
            parseVdf(text, "bad.vdf");
            FAIL("accepted: " << text.substr(0, 40));
        } catch (const ParseError& e) {
            INFO(e.what());
            CHECK_THAT(e.what(), Catch::StartsWith("bad.vdf: "));
            CHECK_THAT(e.what(), Catch::Contains(what));
        }
    };
    refused("\"a\" {\n \"b\" \"c\"\n", "line 1, column 1: block \"a\" is not closed");
    refused("\"a\" \"b\"\n}\n", "line 2, column 1: '}' without a matching '{'");
    refused("\"a\" \"unterminated\n", "line 1, column 5: string not closed");
    refused("\"a\"", "has no value");
    refused(std::string(40, '"') + "k" + std::string(1000, '{'), "");
    std::string deep;
    for (int i = 0; i < 40; ++i)
        deep += "\"k\" {\n";
    refused(deep, "nested deeper than 32");
    refused(std::string(kMaxVdfBytes + 1, ' '), "more than a VDF file may hold");
}

TEST_CASE("games: Steam libraries, Flatpak, Proton/Wine/Bottles prefixes and Workshop mods are found", "[games]") {
    Home h("computer");
    buildComputer(h);
    DiscoverOptions o;
    o.home = h.path.string();
    const Discovery d = discover(o);
    INFO([&] {
        std::string s;
        for (const auto& p : d.problems)
            s += p + "\n";
        return s;
    }());
    // ~/.steam/steam and ~/.local/share/Steam are one root; the Flatpak one is another; two libraries natively.
    CHECK(d.steamRoots.size() == 2);
    CHECK(d.libraries.size() == 3);
    const GameInstall* foc = game(d, Game::Foc);
    const GameInstall* eaw = game(d, Game::Eaw);
    REQUIRE(foc);
    REQUIRE(eaw);
    const fs::path gold = h.path / ".local/share/Steam/steamapps/common/Star Wars Empire at War";
    CHECK(foc->store == "steam");
    // FoC mounts its own folder, then EaW's GameData (the engine's fallback).
    REQUIRE(foc->mountFolders.size() == 2);
    CHECK(fs::equivalent(foc->mountFolders[0], gold / "corruption"));
    CHECK(fs::equivalent(foc->mountFolders[1], gold / "GameData"));
    REQUIRE(eaw->mountFolders.size() == 1);
    const GameInstall* zh = game(d, Game::ZeroHour);
    REQUIRE(zh);
    CHECK(zh->store == "steam-flatpak");
    REQUIRE(zh->mountFolders.size() == 2);
    CHECK(fs::path(zh->mountFolders[1]).filename() == "CnC Generals");
    CHECK(game(d, Game::Generals));
    const GameInstall* b2 = game(d, Game::Bfme2);
    REQUIRE(b2);
    CHECK(b2->store == "proton");
    CHECK(fs::path(b2->prefix).filename() == "pfx");
    REQUIRE(game(d, Game::Bw2));
    CHECK(game(d, Game::Bw2)->store == "wine");
    REQUIRE(game(d, Game::Cnc3));
    CHECK(game(d, Game::Cnc3)->store == "bottles");
    CHECK(d.games.size() == 7);

    // Mods: six Workshop folders (one with a variant) and the local one.
    const ModInfo* alpha = findMod(d, "100");
    REQUIRE(alpha);
    CHECK(alpha->name == "Alpha");
    CHECK(alpha->version == "1.2.0");
    CHECK(alpha->summary == "the first");
    CHECK(alpha->source == "workshop");
    CHECK(findMod(d, "alpha") == alpha); // by name, any case
    const ModInfo* gold2 = findMod(d, "200/Gold-modinfo.json");
    REQUIRE(gold2);
    CHECK(gold2->name == "Beta Gold");
    CHECK(gold2->version == "1.2.0"); // inherited from the main modinfo.json
    REQUIRE(findMod(d, "600"));
    CHECK(findMod(d, "600")->name == "600");
    CHECK_FALSE(findMod(d, "600")->hasModinfo);
    const ModInfo* local = findMod(d, "LocalMod");
    REQUIRE(local);
    CHECK(local->source == "local");
    CHECK(local->name == "Local Mod");
    CHECK(d.mods.size() == 8);

    CHECK(ids(resolveMod(d, *alpha)) == std::vector<std::string>{"100", "200"});
    CHECK(resolveMod(d, *alpha).ok());
    const ModStack cycle = resolveMod(d, *findMod(d, "300"));
    REQUIRE(cycle.problems.size() == 1);
    CHECK_THAT(cycle.problems[0],
               Catch::Contains("dependency cycle: \"Gamma\" (300) -> \"Delta\" (400) -> \"Gamma\" (300)"));
    const ModStack missing = resolveMod(d, *findMod(d, "Epsilon"));
    REQUIRE(missing.problems.size() == 1);
    CHECK_THAT(missing.problems[0], Catch::Contains("depends on Workshop mod 999, which is not installed"));

    // One action: a mod with its dependencies and its game, first wins.
    const MountChoice c = resolveMountArgs({}, {}, {"100"}, o);
    CHECK(c.problems.empty());
    REQUIRE(c.mods.size() == 2);
    CHECK(fs::path(c.mods[0]).filename() == "100");
    CHECK(fs::path(c.mods[1]).filename() == "200");
    CHECK(c.games == foc->mountFolders);
    // Remembered: the game of the last choice is what "--game auto" picks.
    std::string g, m;
    REQUIRE(recallChoice(h.path.string(), g, m));
    CHECK(g == "foc");
    CHECK(m == "100");
    rememberChoice(h.path.string(), "zh", "");
    CHECK(resolveMountArgs({"auto"}, {}, {}, o).games == zh->mountFolders);
    CHECK(resolveMountArgs({"bfme2"}, {"Alpha"}, {}, o).games == b2->mountFolders);
    const MountChoice bad = resolveMountArgs({"ra3"}, {"Nobody"}, {"12345"}, o);
    CHECK(bad.problems.size() == 3);
    CHECK(resolveMountArgs({"./nosuch"}, {}, {}, o).problems ==
          std::vector<std::string>{"--game ./nosuch: not a folder"});
}

TEST_CASE("games: eaw.modinfo dependency flattening (breadth first, duplicates removed, cycles named)", "[games]") {
    // The specification's test cases: A is loaded; "A : B, C" lists A's dependencies.
    // The order and the problems (the stack points into its Discovery, which lives only in here).
    struct Result {
        std::vector<std::string> order, problems;
        bool ok() const { return problems.empty(); }
    };
    auto run = [](const std::vector<std::pair<std::string, std::vector<std::string>>>& graph) {
        Discovery d;
        for (const auto& [name, deps] : graph) {
            ModInfo m;
            m.id = name;
            m.name = name;
            m.source = "workshop";
            m.folder = "/mods/" + name;
            for (const auto& dep : deps)
                m.dependencies.push_back({1, dep});
            d.mods.push_back(m);
        }
        const ModStack s = resolveMod(d, *findMod(d, "A"));
        return Result{ids(s), s.problems};
    };
    using G = std::vector<std::pair<std::string, std::vector<std::string>>>;
    using V = std::vector<std::string>;
    CHECK(run(G{{"A", {"B", "C"}}, {"B", {"D"}}, {"C", {"E"}}, {"D", {}}, {"E", {}}}).order ==
          V{"A", "B", "C", "D", "E"});
    CHECK(run(G{{"A", {"C", "B"}}, {"B", {"D"}}, {"C", {"E"}}, {"D", {}}, {"E", {}}}).order ==
          V{"A", "C", "B", "E", "D"});
    CHECK(run(G{{"A", {"B", "C"}}, {"B", {"D"}}, {"C", {"D"}}, {"D", {"E"}}, {"E", {}}}).order ==
          V{"A", "B", "C", "D", "E"});
    CHECK(run(G{{"A", {"B", "C", "D"}}, {"B", {"E"}}, {"C", {"E"}}, {"D", {"E"}}, {"E", {}}}).order ==
          V{"A", "B", "C", "D", "E"});
    CHECK(run(G{{"A", {"B", "C"}}, {"B", {"E"}}, {"C", {"D"}}, {"E", {"D"}}, {"D", {}}}).order ==
          V{"A", "B", "C", "E", "D"});
    CHECK_FALSE(run(G{{"A", {"A"}}}).ok());
    CHECK_FALSE(run(G{{"A", {"B"}}, {"B", {"A"}}}).ok());
    const auto c = run(G{{"A", {"B"}}, {"B", {"C", "D"}}, {"C", {}}, {"D", {"E"}}, {"E", {"A"}}});
    REQUIRE(c.problems.size() == 1);
    CHECK_THAT(c.problems[0], Catch::Contains("(A) -> \"B\" (B) -> \"D\" (D) -> \"E\" (E) -> \"A\" (A)"));
}

TEST_CASE("games: a broken libraryfolders.vdf or modinfo.json is named and the rest is still found", "[games]") {
    Home h("broken");
    const fs::path steam = ".local/share/Steam";
    h.file(steam / "steamapps/libraryfolders.vdf", "\"libraryfolders\"\n{\n\t\"1\"\n\t{\n\t\t\"path\" \"x\n");
    h.file(steam / "steamapps/common/Gold/corruption/swfoc.exe");
    const fs::path ws = steam / "steamapps/workshop/content/32470";
    h.file(ws / "1/modinfo.json", "{\n  \"name\": \"Broken\",\n  \"version\": 1.0,,\n}\n");
    h.file(ws / "2/modinfo.json", "{\"summary\": \"no name\"}");
    h.file(ws / "3/modinfo.json", std::string(200, '[') + std::string(200, ']'));
    h.file(ws / "4/modinfo.json", modinfo("Fine"));
    DiscoverOptions o;
    o.home = h.path.string();
    const Discovery d = discover(o);
    std::string all;
    for (const auto& p : d.problems)
        all += p + "\n";
    INFO(all);
    CHECK_THAT(all, Catch::Contains("libraryfolders.vdf: line 5, column 10: string not closed"));
    CHECK_THAT(all, Catch::Contains("1/modinfo.json: line 3, column 18: not valid JSON"));
    CHECK_THAT(all, Catch::Contains("2/modinfo.json: no \"name\""));
    CHECK_THAT(all, Catch::Contains("3/modinfo.json: nested deeper than 64"));
    CHECK(game(d, Game::Foc));
    REQUIRE(findMod(d, "4"));
    CHECK(findMod(d, "4")->name == "Fine");
    REQUIRE(findMod(d, "1")); // listed, named after its folder
    CHECK_FALSE(findMod(d, "1")->hasModinfo);
}
