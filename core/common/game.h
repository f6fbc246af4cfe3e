// The games rigscope knows, one enum for the whole tree (no Qt): the mount table (vfs::detectGame) and install
// discovery (games::recogniseFolder) both name games by it.
#pragma once

#include <cstddef>
#include <string>

namespace rs {

// Unknown: a folder no game was recognised in (a mod's folder, a loose art tree).
enum class Game { Unknown, Eaw, Foc, Generals, ZeroHour, Bfme, Bfme2, Rotwk, Cnc3, KanesWrath, Bw2 };

// "eaw", "foc", "generals", "zh", "bfme", "bfme2", "rotwk", "cnc3", "kw", "bw2"; "" for Unknown.
const char* gameId(Game g);
// "Star Wars: Empire at War", ...; "unknown game" for Unknown.
const char* gameName(Game g);
// The game whose gameId is `id` (any case); false (out unchanged) for anything else, "" included.
bool parseGameId(const std::string& id, Game& out);
// Empire at War and Forces of Corruption (Alamo: Data/ with .meg archives); every other game is SAGE or B&W2.
bool isAlamo(Game g);

// Command & Conquer 3 or Kane's Wrath in `dir` (Unknown when neither), by what their launcher runs: the stub
// (CNC3.exe, CNC3EP1.exe), the SkuDef files the stub picks from (CNC3_<language>_<version>.SkuDef,
// CNC3EP1_<language>_<version>.SkuDef; it launches the highest version) and the game those name with set-exe
// (RetailExe/<version>/cnc3game.dat, RetailExe/<version>/cnc3ep1.dat). Any of them is enough, so a copied install
// without its registry keys or without the stub is recognised; Kane's Wrath wins when both games' files are there.
// Names in any case; at most kMaxCnc3Entries entries of dir and of RetailExe/ are looked at.
Game recogniseCnc3(const std::string& dir);
constexpr size_t kMaxCnc3Entries = 4096;

} // namespace rs
