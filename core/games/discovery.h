// Where the games and their mods are on this computer (no Qt): Steam (native and Flatpak) with every library its
// libraryfolders.vdf lists, Proton/Wine/Lutris/Bottles prefixes for games from other stores, games recognised by
// their files whatever the store, Empire at War Workshop mods and local Mods/ folders with their modinfo.json
// (eaw.modinfo v2.2: name, version, summary, dependencies, *-modinfo.json variants), and the mount a game with a
// mod and its dependencies needs, in the games' order.
//
// Looked at, below DiscoverOptions::home:
//   Steam roots   .steam/steam, .steam/root, .local/share/Steam, .var/app/com.valvesoftware.Steam/.local/share/Steam
//                 (the same folder reached twice through a link counts once)
//   libraries     each root, and every "path" of <root>/steamapps/libraryfolders.vdf (or config/libraryfolders.vdf;
//                 both the 2021+ form "libraryfolders" { "N" { "path" ... } } and the older "N" "path")
//   games         <library>/steamapps/common/<folder>, two levels down
//   Workshop      <library>/steamapps/workshop/content/32470/<id> (Empire at War's app id: EaW and FoC mods)
//   prefixes      <library>/steamapps/compatdata/<id>/pfx, .wine, Games/<name> (Lutris), .local/share/bottles/
//                 bottles/<name> and the Flatpak Bottles' data folder: their drive_c/Program Files (x86),
//                 Program Files, GOG Games and Games, three levels down
//   local mods    <EaW or FoC folder>/Mods/<name>
// Games are recognised by their files (names in any case): swfoc.exe, or a folder "corruption" holding Data/ (Forces
// of Corruption); sweaw.exe, or a folder "GameData" holding Data/ (Empire at War); INIZH.big (Zero Hour);
// generals.exe with INI.big (Generals); lotrbfme.exe, lotrbfme2.exe, lotrbfme2ep1.exe (BFME, BFME II, RotWK);
// C&C 3 and Kane's Wrath by their launcher's files (rs::recogniseCnc3: the stub, its SkuDef files or the RetailExe
// game); white.exe (Black & White 2).
//
// Budgets: at most kMaxFoldersVisited folders are listed per discovery and kMaxModinfoBytes per modinfo file; a
// broken libraryfolders.vdf or modinfo.json is named in `problems` (file, line, column) and the rest goes on.
#pragma once

#include "common/game.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rs::vfs {
class MountTable;
}

namespace rs::games {

constexpr size_t kMaxFoldersVisited = 20000;
constexpr size_t kMaxModinfoBytes = size_t(1) << 20;
constexpr size_t kMaxModinfoDepth = 64;
constexpr const char* kEawWorkshopApp = "32470";

struct GameInstall {
    Game game = Game::Foc;
    std::string root; // the folder recognised
    // The --game folders, in the engine's lookup order, first wins: FoC's own folder then Empire at War's
    // GameData; Zero Hour's then Generals'; RotWK's then BFME II's (vfs::mountInstall stacks them so).
    std::vector<std::string> mountFolders;
    std::string store;   // "steam", "steam-flatpak", "proton", "wine", "lutris", "bottles", "folder"
    std::string library; // the Steam library, "" when none
    std::string prefix;  // the Wine/Proton prefix, "" when none
};

struct ModReference {
    int type = 0;           // 0: a path (relative to the mod's folder or absolute), 1: a Steam Workshop id
    std::string identifier; // the path or the Workshop id
};

struct ModInfo {
    std::string id;      // Workshop id, or the folder's name for a local mod; a variant adds "/<variant file>"
    std::string name;    // modinfo "name", else the folder's name
    std::string version; // modinfo "version", "" when none
    std::string summary;
    std::string folder;    // the mod's folder on disk
    std::string variant;   // "" for the main modinfo.json, else the variant's file name ("Gold-modinfo.json")
    std::string source;    // "workshop" or "local"
    Game game = Game::Foc; // FoC unless steamdata.tags name only EAW, or a local mod of EaW's Mods/
    std::vector<ModReference> dependencies; // as listed, nearest first
    bool hasModinfo = false;
};

struct Discovery {
    std::vector<GameInstall> games;
    std::vector<ModInfo> mods;
    std::vector<std::string> problems; // one line each, naming the file (and line, column) or folder
    std::vector<std::string> steamRoots, libraries, prefixes; // what was found to search
};

struct DiscoverOptions {
    std::string home; // the user's home folder ($HOME when empty)
};

Discovery discover(const DiscoverOptions& options = {});

// A game recognised in `folder` (empty when none): what discover() does for each folder it visits.
std::vector<GameInstall> recogniseFolder(const std::string& folder);

// The games whose folders `table` mounts, each once, in mount order, mods' mounts (role "mod ...") left out: a
// folder recognised as recogniseFolder does, and for an archive the folder holding it or one of the two above it
// (Kane's Wrath keeps its archives in Core/<version>/), so that one archive of a game opened alone
// (vfs::mountSingle) names its game too. Empty for a null table.
std::vector<Game> mountedGames(const vfs::MountTable* table);

// Reads a mod's modinfo.json (and its *-modinfo.json variants, each a ModInfo of its own that inherits what it
// leaves out from the main file). A folder without modinfo.json gives one ModInfo named after the folder.
// Problems (broken JSON, a missing "name", a wrong type) are added to `problems` naming the file.
std::vector<ModInfo> readModFolder(const std::string& folder, const std::string& id, const std::string& source,
                                   Game game, std::vector<std::string>& problems);

// The mods to mount for `mod`, flattened as eaw.modinfo's "Dependency Resolving" says and the game stacks them:
// the mod itself, then its dependencies breadth first (all of a mod's own dependencies before theirs), each once
// (the first place counts). A dependency cycle or a dependency that cannot be found is a problem naming the mods.
struct ModStack {
    std::vector<const ModInfo*> order; // the mod first
    std::vector<std::string> problems;
    bool ok() const { return problems.empty(); }
};
ModStack resolveMod(const Discovery& d, const ModInfo& mod);

// A mod by Workshop id / folder name (id) or by name (any case); null when none. With several (variants), the
// main modinfo's.
const ModInfo* findMod(const Discovery& d, const std::string& idOrName);
// The game a mod runs on among those found (its game; FoC over EaW's folder when the mod is FoC's), or the first
// game when `mod` is null. A remembered game id (recallGame) is preferred when it is among those found.
const GameInstall* pickGame(const Discovery& d, const ModInfo* mod, const std::string& preferredId = {});

// The --game and --mod folders for a game with a mod and its dependencies, first wins.
struct MountChoice {
    std::vector<std::string> games, mods;
    std::vector<std::string> problems;
};
MountChoice mountFor(const Discovery& d, const GameInstall* game, const ModInfo* mod);

// The last mount chosen ("<game id>" and "<mod id>"), kept in <config>/rigscope/last-mount.txt ($XDG_CONFIG_HOME,
// else ~/.config); false when none. Written safely; a write failure is ignored (remembering is a convenience).
void rememberChoice(const std::string& home, const std::string& gameId, const std::string& modId);
bool recallChoice(const std::string& home, std::string& gameId, std::string& modId);

} // namespace rs::games

namespace rs::games {

// The mount a command line asks for. Each --game value is a folder, "auto" (the remembered game when it is found,
// else the first found) or a game id ("foc", "zh", ...); each --mod value a folder or a discovered mod's name; each
// --mod-id a Workshop id or local mod folder name. A named mod brings its dependencies (resolveMod) and, when no
// --game was given, its game. discover() runs only when a value is not a folder. Problems (an unknown game or mod,
// a dependency cycle or a missing dependency) are listed; the caller refuses the command with them.
MountChoice resolveMountArgs(const std::vector<std::string>& gameArgs, const std::vector<std::string>& modArgs,
                             const std::vector<std::string>& modIds, const DiscoverOptions& options = {});

} // namespace rs::games
