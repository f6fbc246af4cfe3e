// core/common/game: the one Game enum's ids and names, and C&C 3 / Kane's Wrath recognised by what their launcher
// runs (the stub, its SkuDef files, RetailExe/<version>/<game>.dat) in writer-made folders.
#include "common/game.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rs;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("rs_game_" + std::to_string(getpid()) + "_" + std::to_string(counter()++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
    fs::path touch(const std::string& rel) const {
        const fs::path p = path / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << "x";
        return p;
    }
};

} // namespace

TEST_CASE("game: ids round-trip, names, Unknown has no id", "[game]") {
    for (Game g : {Game::Eaw, Game::Foc, Game::Generals, Game::ZeroHour, Game::Bfme, Game::Bfme2, Game::Rotwk,
                   Game::Cnc3, Game::KanesWrath, Game::Bw2}) {
        Game back = Game::Unknown;
        INFO(gameId(g));
        REQUIRE(parseGameId(gameId(g), back));
        CHECK(back == g);
        CHECK(std::string(gameName(g)) != "unknown game");
    }
    Game out = Game::Bw2;
    CHECK(parseGameId("KW", out));
    CHECK(out == Game::KanesWrath);
    CHECK_FALSE(parseGameId("", out));
    CHECK_FALSE(parseGameId("cnc4", out));
    CHECK(out == Game::KanesWrath); // unchanged
    CHECK(std::string(gameId(Game::Unknown)).empty());
    CHECK(std::string(gameName(Game::KanesWrath)) == "Command & Conquer 3: Kane's Wrath");
    CHECK(isAlamo(Game::Eaw));
    CHECK(isAlamo(Game::Foc));
    CHECK_FALSE(isAlamo(Game::KanesWrath));
    CHECK_FALSE(isAlamo(Game::Unknown));
}

TEST_CASE("game: C&C 3 and Kane's Wrath by the stub, the SkuDef files or the RetailExe game", "[game]") {
    struct Case {
        const char* file;
        Game want;
    };
    for (const Case& c :
         {Case{"cnc3ep1.exe", Game::KanesWrath}, Case{"CNC3EP1.EXE", Game::KanesWrath},
          Case{"CNC3EP1_english_1.2.SkuDef", Game::KanesWrath}, Case{"RetailExe/1.2/cnc3ep1.dat", Game::KanesWrath},
          Case{"RETAILEXE/1.3/CNC3EP1.DAT", Game::KanesWrath}, Case{"CNC3.exe", Game::Cnc3},
          Case{"CNC3_english_1.9.SkuDef", Game::Cnc3}, Case{"RetailExe/1.9/cnc3game.dat", Game::Cnc3},
          Case{"cnc3ep1.dat", Game::Unknown},           // the game outside RetailExe/<version>/
          Case{"RetailExe/cnc3ep1.dat", Game::Unknown}, // no version folder
          Case{"CNC3EP1_english_1.2.txt", Game::Unknown}, Case{"cnc3ep1.exe.bak", Game::Unknown},
          Case{"lotrbfme2.exe", Game::Unknown}}) {
        TempDir d;
        d.touch(c.file);
        INFO(c.file);
        CHECK(recogniseCnc3(d.path.string()) == c.want);
    }
    // Both games' files in one folder: Kane's Wrath (its SkuDef adds C&C 3's configuration).
    TempDir both;
    both.touch("CNC3_english_1.9.SkuDef");
    both.touch("RetailExe/1.2/cnc3ep1.dat");
    CHECK(recogniseCnc3(both.path.string()) == Game::KanesWrath);
    // A missing folder, or a file given as the folder: nothing.
    CHECK(recogniseCnc3((both.path / "nope").string()) == Game::Unknown);
    CHECK(recogniseCnc3(both.touch("cnc3ep1.exe.txt").string()) == Game::Unknown);
}
