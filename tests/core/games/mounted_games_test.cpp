// core/games mountedGames: the games a mount table holds, in writer-made C&C 3 and Kane's Wrath folders (their
// archives in Core/<version>/ as the games keep them), mounted as games, as mods and one archive alone.
#include "games/discovery.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rs;

namespace {

struct Install {
    fs::path root;
    explicit Install(const char* name) {
        root = fs::temp_directory_path() / ("rs_mounted_" + std::to_string(getpid()) + "_" + name);
        fs::remove_all(root);
        fs::create_directories(root / "Core/1.2");
        const std::string ini = "Object X\nEnd\n";
        const auto big = vfs::writeBig({{"data\\ini\\x.ini", std::vector<uint8_t>(ini.begin(), ini.end())}});
        std::ofstream(root / "Core/1.2/patch2.big", std::ios::binary)
            .write(reinterpret_cast<const char*>(big.data()), std::streamsize(big.size()));
    }
    ~Install() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    void touch(const std::string& rel) const {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << "x";
    }
};

} // namespace

TEST_CASE("games: mountedGames names Kane's Wrath from its folder, its archives and one archive alone", "[games]") {
    Install kw("kw");
    kw.touch("CNC3EP1.exe");
    Install cnc3("cnc3");
    cnc3.touch("CNC3.exe");
    Install plain("plain"); // no launcher files: not a game

    const vfs::Detected d = vfs::detectGame(kw.root.string());
    CHECK(d.game == Game::KanesWrath);
    CHECK_FALSE(d.alamoLayout);
    CHECK_FALSE(d.mod);
    CHECK(vfs::detectGame(cnc3.root.string()).game == Game::Cnc3);
    CHECK(vfs::detectGame(plain.root.string()).game == Game::Unknown);

    const vfs::MountTable t = vfs::mountInstall({kw.root.string()}, {});
    REQUIRE(t.find("data/ini/x.ini")); // the archive in Core/1.2/ is mounted
    CHECK(games::mountedGames(&t) == std::vector<Game>{Game::KanesWrath});
    const vfs::MountTable c = vfs::mountInstall({cnc3.root.string()}, {});
    CHECK(games::mountedGames(&c) == std::vector<Game>{Game::Cnc3});
    // One archive of the game opened alone: Core/1.2/ -> Core/ -> the game folder.
    const vfs::MountTable one = vfs::mountSingle((kw.root / "Core/1.2/patch2.big").string());
    CHECK(games::mountedGames(&one) == std::vector<Game>{Game::KanesWrath});
    // A Kane's Wrath folder given as a mod over C&C 3 does not make the mount Kane's Wrath.
    const vfs::MountTable m = vfs::mountInstall({cnc3.root.string()}, {kw.root.string()});
    CHECK(games::mountedGames(&m) == std::vector<Game>{Game::Cnc3});
    const vfs::MountTable p = vfs::mountInstall({plain.root.string()}, {});
    CHECK(games::mountedGames(&p).empty());
    CHECK(games::mountedGames(nullptr).empty());
    // Without the stub, the SkuDef the stub launches still says Kane's Wrath (a copied, registry-less install).
    fs::remove(kw.root / "CNC3EP1.exe");
    kw.touch("CNC3EP1_english_1.2.SkuDef");
    const vfs::MountTable s = vfs::mountInstall({kw.root.string()}, {});
    CHECK(games::mountedGames(&s) == std::vector<Game>{Game::KanesWrath});
}
