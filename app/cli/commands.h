// rigscope-cli sub-commands. Each format contributes its `info` writer in its own file.
#pragma once

#include "io/loader.h"
#include "json.h"
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
void infoW3d(const Document& doc, Json& j);
void infoAlamoText(const Document& doc, std::string& text);
// A material parameter as JSON: number, [x,y,z(,w)] or the texture name.
void writeParamValue(Json& j, const MaterialParam& p);

void infoGenericText(const Document& doc, std::string& text);
// Black & White 2 (.bwm, .al): re-reads doc.path for the raw file structure (info_bw2.cpp).
void infoBwm(const Document& doc, Json& j);
void infoAl(const Document& doc, Json& j);

// Dispatch for formats whose info is not a plain Document (e.g. AMAL banks). Returns false when
// the format is not one of them.
// rigscope-cli amal --json FILE (--movement N | --program N) [--ticks T]
int cmdAmal(const std::vector<std::string>& args);

// Game folders and archives (cli_vfs.cpp): `ls`, `extract`, and --game/--mod + ARCHIVE:PATH inputs.
struct GameMount {
    std::vector<std::string> games, mods;
    std::shared_ptr<vfs::MountTable> table; // null without --game/--mod until loadInput
};
int cmdLs(std::vector<std::string> args);
int cmdExtract(std::vector<std::string> args);
bool wantsHelp(const std::vector<std::string>& args);
// True for ARCHIVE:PATH (a prefix ending before a ':' is an existing file).
bool isArchivePath(const std::string& arg);
// Removes --game DIR / --mod DIR from args and mounts them.
void takeMountOptions(std::vector<std::string>& args, GameMount& m);
// Loads a file on disk, ARCHIVE:PATH, or a game path inside the mounted folders; m.table becomes the table
// the input's references are looked up in, *key its game path.
Document loadInput(const std::string& arg, GameMount& m, std::string* key = nullptr);
// The table loadInput loads from (also m.table): the input's own archive or folder over m's mounts. Nothing is
// parsed; a loose file is refused by name first when missing, not a regular file, or over its format's cap.
std::shared_ptr<vfs::MountTable> mountInput(const std::string& arg, GameMount& m, std::string* key = nullptr);
// The bytes of a document loaded by loadInput (a file, or "<archive>:<entry>" as Document::path names it).
std::vector<uint8_t> readInputBytes(const std::string& path);
// {"textures":[{name,found,source,role,overrides}],"clips":[...],"hierarchy":...,"warnings":[...]}
void writeResolved(const Document& doc, const std::string& key, const GameMount& m, Json& j);
// `name` as a relative path under an output folder; "" when it would leave it (".." or a drive letter / ':').
// A leading separator is the archive's root and anchors at the output folder.
std::string safeRelativePath(const std::string& name);
// Alamo particle systems (cli_particles.cpp).
void infoParticles(const Document& doc, Json& j);
void infoParticlesText(const Document& doc, std::string& text);
// rigscope-cli particles --json FILE --time T [--seed N] [--no-skip] [--max N]
int cmdParticles(const std::vector<std::string>& args);
// rigscope-cli export ... (cli_export.cpp)
int cmdExport(std::vector<std::string> args);

// Game object databases (cli_objects.cpp): rigscope-cli objects / object NAME, with --game/--mod.
int cmdObjects(std::vector<std::string> args);
int cmdObject(std::vector<std::string> args);

// `info` of a .dds/.tga texture (info_texture.cpp): false when the file is not one.
bool infoTexture(ByteSpan bytes, const std::string& path, bool json, std::string& out);

bool infoSpecial(const std::string& format, const std::string& path, bool json, std::string& out);

} // namespace rs::cli
