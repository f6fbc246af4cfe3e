// Mount table: game and mod folders stacked in each game's lookup order (no Qt).
//
// Alamo (Empire at War, Forces of Corruption), from highest to lowest priority:
//   mod loose files under Data/ > mod archives (the mod's Data/MegaFiles.xml, as below) > the game's loose files >
//   the game's archives > (FoC given with EaW) EaW's archives > EaW's loose files.
//   Per folder the archives form the engine's "master MEG", built in load order with later entries replacing
//   earlier ones: the archives listed in Data/MegaFiles.xml in file order, then Data/Patch.meg, Data/Patch2.meg
//   and Data/64Patch.meg, loaded whether listed or not; FoC loads EaW's master MEG first, then its own.
//   Reference: AlamoEngine-Tools/ModVerify, src/PetroglyphTools/PG.StarWarsGame.Engine/IO/Repositories/
//   FocGameRepository.cs (the constructor's load order, AddMegFiles with replaceExisting; FindFile: mods, game
//   folder, master MEG, then the EaW "fallback" folder) and its tests MasterMeg_EawPatch2OverridesEawPatch,
//   MasterMeg_PatchSlotsOverrideMegaFilesXml_64PatchWinsOverall, MasterMeg_FocPatchOverridesEaw64Patch.
//   Not reproduced: there a mod's MegaFiles.xml replaces the game's and each archive it names is looked up
//   mod-first; here a mod's own archives are mounted over the game's, which gives the same winner for the usual
//   mod that lists the game's archives plus its own.
// SAGE (Generals, Zero Hour, BFME, BFME2, RotWK), per folder:
//   loose files > the folder's *.big archives in the order of their lower-cased names, then those of its
//   sub-folders (each folder's before its sub-folders'); the first archive loaded keeps a name. Reference: EA's
//   released Generals/Zero Hour source, ArchiveFileSystem::loadIntoDirectoryTree and
//   Win32BIGFileSystem::loadBigFilesFromDirectory (overwrite = FALSE; file names in a std::set of tolower-folded
//   names), as OpenSAGE's loader reproduces it (GetBigFilesSage: "every archive of a directory, lower-fold-sorted,
//   before any archive of a subdirectory").
// Folders: mods over games (the first mod given wins), and the expansion over its base game (FoC over EaW,
// Zero Hour over Generals, RotWK over BFME2 over BFME) whatever order the games are given in.
//
// Lookup by name is one hash probe: O(1) on average, whatever the number of mounted sources.
#pragma once

#include "common/game.h"
#include "vfs/archive.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rs::vfs {

struct Detected {
    Game game = Game::Unknown;
    bool alamoLayout = false; // Data/ (+ MegaFiles.xml) layout; false: SAGE layout (*.big in the folder)
    bool mod = false;         // no game executable: a mod folder to stack over a game
    std::string why;          // which files decided it
};
// Recognises a folder from its content: the game's executable, its archive names, Data/MegaFiles.xml.
Detected detectGame(const std::string& dir);

// Archive paths listed in <dir>/Data/MegaFiles.xml, in file order (as written, e.g. "Data\Config.meg").
std::vector<std::string> readMegaFilesXml(const std::string& dir, std::vector<std::string>* warnings = nullptr);

struct Mount {
    std::shared_ptr<Source> source;
    std::string role; // "mod loose", "mod archive", "game loose", "game archive", "archive", "folder"
};

// One place an entry name is found.
struct Hit {
    uint32_t mount = 0; // index in MountTable::mounts() (lower = higher priority)
    uint32_t entry = 0; // index in that source's entries()
};

class MountTable {
  public:
    // Adds a source below every source added before it (not to an overlay()).
    void add(std::shared_ptr<Source> source, std::string role);
    // `own` over every source of `base`: the table that add(own, role) and then add() of each of base's mounts in
    // order would give (the same mounts(), hits, find(), list(), describe(), findDescribed(), size() and source
    // warnings), without copying base's index. Only own's entries are indexed (each followed by base's hits for its
    // name); every other name is looked up in base, which must not change meanwhile. For a file outside the mounted
    // folders: its folder or archive over them (Resolver::placeOf).
    static std::shared_ptr<const MountTable> overlay(std::shared_ptr<Source> own, std::string role,
                                                     std::shared_ptr<const MountTable> base);
    const std::vector<Mount>& mounts() const { return mounts_; }
    const Entry& entry(const Hit& h) const { return mounts_[h.mount].source->entries()[h.entry]; }
    const Mount& mountOf(const Hit& h) const { return mounts_[h.mount]; }

    // Every source holding `path` (any case, either separator), winner first, then those it overrides.
    // Empty when absent. Within one source only the first of duplicate names counts.
    const std::vector<Hit>* findAll(std::string_view path) const;
    const Hit* find(std::string_view path) const;
    bool contains(std::string_view path) const { return find(path) != nullptr; }
    EntryBytes read(const Hit& h) const { return mounts_[h.mount].source->read(entry(h)); }
    // Reads the winner for `path`; throws ParseError naming the path when nothing holds it.
    EntryBytes read(std::string_view path) const;
    // "<source label>:<entry name>", how a hit is shown and reloaded (loose files: the path on disk).
    std::string describe(const Hit& h) const;
    // The entry a describe() string names ("<archive>:<entry>" of a mounted archive, or a loose file's path
    // inside a mounted folder); null when none.
    const Entry* findDescribed(std::string_view described, const Source** source = nullptr) const;
    // Game path of `path`: "<archive>:<entry>" -> the entry's key; a file under a mounted folder -> its path
    // relative to that folder's root; anything else -> its file name alone.
    std::string keyFor(std::string_view path) const;

    size_t size() const { return index_.size() + baseOnly_; }
    // Keys of the entries directly inside `folder` (a key prefix ending in '/', or "" for the top), sorted; any
    // other prefix lists the entries of its folder whose names start with it. O(log n + k) after a one-time sort
    // of the keys. Thread-safe.
    std::vector<std::string> list(std::string_view folder) const;
    // Every distinct name once (unordered), with its hits.
    void forEach(const std::function<void(const std::string& key, const std::vector<Hit>& hits)>& fn) const;

    // Sources' own warnings plus mount problems (missing archives listed in MegaFiles.xml, unreadable archives).
    std::vector<std::string> warnings;

  private:
    std::vector<std::string> listOwn(const std::string& prefix) const;

    std::vector<Mount> mounts_;
    std::unordered_map<std::string, std::vector<Hit>> index_; // an overlay: own's names only
    // overlay(): the table below own (its hits are ours with mount + 1), the number of its names own does not hold,
    // and its hits for names own does not hold, shifted, made on first lookup (node-based: pointers stay valid).
    std::shared_ptr<const MountTable> base_;
    size_t baseOnly_ = 0;
    struct Shifted {
        std::mutex mu;
        std::unordered_map<std::string, std::vector<Hit>> hits;
    };
    std::shared_ptr<Shifted> shifted_;
    mutable std::vector<const std::string*> sorted_; // keys of index_, sorted; rebuilt after add()
    std::shared_ptr<std::mutex> sortMutex_ = std::make_shared<std::mutex>(); // guards sorted_ (list() is const)
};

// Mounts game folders and mod folders in the games' lookup order (see top). Unreadable archives become
// warnings, not errors. A folder whose game is unknown is mounted by its layout: Data/ -> Alamo, else SAGE.
MountTable mountInstall(const std::vector<std::string>& gameDirs, const std::vector<std::string>& modDirs);

// A single archive (.meg/.big) or folder as a mount table of one source.
MountTable mountSingle(const std::string& path);

// Glob over normalised (upper-case) keys: '*' any run of characters (also across '/'), '?' one character.
bool globMatch(std::string_view pattern, std::string_view key);

} // namespace rs::vfs
