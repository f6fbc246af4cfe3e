// rigscope-cli sub-commands. Each format contributes its `info` writer in its own file.
#pragma once

#include "formats/formats.h"
#include "json.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <memory>
#include <string>
#include <vector>

namespace rs::cli {

// Usage errors: exit status 2.
struct UsageError {
    std::string message;
};

// Rethrows the exception being handled so that its message names `file`: ParseError and UsageError unchanged
// (they name their file or need none), std::bad_alloc unchanged (main names the file), any other std::exception
// as std::runtime_error("FILE: what()") unless what() already starts with "FILE:". Call only inside a catch.
[[noreturn]] void rethrowNamingFile(const std::string& file);

// info writers: fill `j` (one JSON object) or `text` (readable summary). Throw ParseError on bad input.
void infoAlamo(const Document& doc, Json& j);
// `bytes`: the file's bytes (the HLOD structure is read from them as stored).
void infoW3d(const Document& doc, ByteSpan bytes, Json& j);
void infoAlamoText(const Document& doc, std::string& text);
// A material parameter as JSON: number, [x,y,z(,w)] or the texture name.
void writeParamValue(Json& j, const MaterialParam& p);
// "drawn_by": {"implementation", "fidelity" ("engine formula" | "approximation" | "not drawn"), "note"}: which of
// the render layer's implementations draws the sub-mesh (core/formats/shader_registry.h), as the material inspector.
void drawnBy(Json& j, Format format, const Mesh& mesh, const Material& material);

void infoGenericText(const Document& doc, std::string& text);
// Black & White 2 (.bwm, .al): `bytes` are the file's bytes, read again for the raw file structure (info_bw2.cpp).
void infoBwm(const Document& doc, ByteSpan bytes, Json& j);
void infoAl(const Document& doc, ByteSpan bytes, Json& j);

// rigscope-cli amal --json FILE (--movement N | --program N) [--ticks T]
int cmdAmal(const std::vector<std::string>& args);

// Game folders and archives (cli_vfs.cpp): `ls`, `extract`, and --game/--mod + ARCHIVE:PATH inputs.
// Every input is opened through one Resolver over the --game/--mod mount (core resolve/resolver.h).
struct GameMount {
    std::vector<std::string> games, mods;
    std::shared_ptr<const vfs::MountTable> table; // the --game/--mod folders; null without them
    std::shared_ptr<const Resolver> resolver;     // over `table`; set by takeMountOptions
    const Resolver& res() const;                  // resolver, made without mounts when none was set
};
int cmdLs(std::vector<std::string> args);
int cmdExtract(std::vector<std::string> args);
bool wantsHelp(const std::vector<std::string>& args);
// True for ARCHIVE:PATH (a prefix ending before a ':' is an existing file).
bool isArchivePath(const std::string& arg);
// Sorts the arguments left after the command's own options: --json sets json, other options are usage errors,
// the rest are positional.
void takeJsonAndPositional(const std::vector<std::string>& args, bool& json, std::vector<std::string>& pos);
// Removes --game DIR / --mod DIR from args, mounts them and makes m's resolver over them.
void takeMountOptions(std::vector<std::string>& args, GameMount& m);

// An input opened through the resolver: a file on disk, ARCHIVE:PATH, or a game path inside the mounted folders.
struct Input {
    std::string arg;           // as given (what the resolver is asked about)
    std::string label;         // the file as messages name it: the path on disk or "<archive>:<entry>"
    std::vector<uint8_t> bytes; // the whole file
    Resolver::Place place;     // its own folder or archive over the mounts, and its game path there
};
// Reads an input without parsing it. A loose file is refused by name first when it is missing, a folder, a FIFO,
// a device or over its format's cap (readInputFile); an archive entry or game path that nothing holds is refused
// naming it.
Input readInput(const std::string& arg, const GameMount& m);
// Parses an input read by readInput (resolver -> reader): W3D hierarchies found through the resolver.
Document parseInput(const Input& in, const GameMount& m);
// readInput + parseInput.
Document loadInput(const std::string& arg, const GameMount& m, Input* read = nullptr);
// True when `arg` is opened through a table (an archive entry, or any input when --game/--mod are given): info
// then writes what the input refers to ("resolved").
bool resolvesThroughTable(const std::string& arg, const GameMount& m);
// {"textures":[{name,found,source,role,overrides}],"clips":[...],"hierarchy":...,"warnings":[...]}
void writeResolved(const Document& doc, const Input& in, Json& j);
// `name` as a relative path under an output folder; "" when it would leave it (".." or a drive letter / ':').
// A leading separator is the archive's root and anchors at the output folder.
std::string safeRelativePath(const std::string& name);
// The output folder of a command that writes many files (-o DIR of thumbnails, export --batch): created with its
// parents when it does not exist yet. Throws ParseError naming it when it cannot be (a file of that name, no
// permission, ...).
void makeOutputFolder(const std::string& dir);
// Alamo particle systems (cli_particles.cpp).
void infoParticles(const Document& doc, Json& j);
void infoParticlesText(const Document& doc, std::string& text);
// rigscope-cli particles --json FILE --time T [--seed N] [--no-skip] [--max N]
int cmdParticles(const std::vector<std::string>& args);
// rigscope-cli export ... (cli_export.cpp)
int cmdExport(std::vector<std::string> args);
// rigscope-cli import IN.glb|IN.gltf -o OUT.alo ... (cli_import.cpp)
int cmdImport(std::vector<std::string> args);

// Game object databases (cli_objects.cpp): rigscope-cli objects / object NAME, with --game/--mod.
int cmdObjects(std::vector<std::string> args);
int cmdObject(std::vector<std::string> args);

// rigscope-cli check (cli_check.cpp): the asset checker over --game/--mod or the PATHs given.
int cmdCheck(std::vector<std::string> args);
// rigscope-cli games [--json] [--home DIR] (cli_games.cpp).
int cmdGames(std::vector<std::string> args);

// rigscope-cli thumbnails (cli_thumbnails.cpp): pictures of every asset of a folder, archive or mount.
int cmdThumbnails(std::vector<std::string> args);
// rigscope-cli diff A B (cli_diff.cpp): exit 0 identical, 1 different, 2 usage or read error.
int cmdDiff(std::vector<std::string> args);

// rigscope-cli rewrite FILE... -o DIR [--verify | --check-only] and rigscope-cli pack (cli_rewrite.cpp).
int cmdRewrite(std::vector<std::string> args);
int cmdPack(std::vector<std::string> args);
// rigscope-cli edit INPUT... --rename-texture OLD=NEW... [--dry-run] (-o DIR | --in-place) (cli_rewrite.cpp).
int cmdEdit(std::vector<std::string> args);

// `info` of a .dds/.tga texture (info_texture.cpp): false when the file is not one.
bool infoTexture(ByteSpan bytes, const std::string& path, bool json, std::string& out);

// `info` of formats whose info is not a plain Document (AMAL banks): false when `format` is not one of them.
bool infoSpecial(Format format, ByteSpan bytes, const std::string& path, bool json, std::string& out);

} // namespace rs::cli
