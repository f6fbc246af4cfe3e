// Everything a model refers to, found through a mount table the way the games find it (no Qt).
//
// Keys are normalizePath() game paths ("DATA/ART/MODELS/UNIT.ALO"). A model given as a file on disk that is
// not inside a mounted folder has no key: pass its file name alone (its folder is then the mount's top).
#pragma once

#include "io/loader.h"
#include "vfs/mount.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rs::vfs {

// "DATA/ART/MODELS/" for "DATA/ART/MODELS/X.ALO"; "" for a key without folder.
std::string folderOf(std::string_view key);

// Keys tried for texture `name` (a file name or game path) referenced by the model at `modelKey`, in order:
// the model's folder, DATA/ART/TEXTURES/, ART/TEXTURES/, ART/COMPILEDTEXTURES/<first two letters>/,
// COMPILEDTEXTURES/<xx>/, then the path as written; each with the stored extension first, then the other
// of .TGA / .DDS (the games ship .dds for textures named .tga).
std::vector<std::string> textureCandidates(std::string_view name, std::string_view modelKey);
// The first candidate the table holds; null when none.
const Hit* resolveTexture(const MountTable& t, std::string_view name, std::string_view modelKey);

// For viewers holding a model path (a file or "<archive>:<entry>"): the texture as a describe() string
// (readable with readDescribed), or "" when the table has none.
std::string resolveTextureFor(const MountTable& t, std::string_view name, std::string_view modelPath);
// Bytes of a describe() string; false when no mounted source holds it.
bool readDescribed(const MountTable& t, std::string_view described, std::vector<uint8_t>& out);

// W3D hierarchy `name`: `<name>.W3D` next to the model, then ART/W3D/<first two letters>/, then ART/W3D/.
const Hit* findW3dHierarchy(const MountTable& t, std::string_view name, std::string_view modelKey);

// Clips that belong to the model, as keys, sorted: Alamo <MODEL>_*.ALA next to it; W3D .W3D files next to it
// (and in its ART/W3D/<xx>/ folder) whose clip header names the model's hierarchy.
std::vector<std::string> companionClips(const MountTable& t, std::string_view modelKey);

// B&W2 animation libraries (.AL) next to a .BWM model, sorted.
std::vector<std::string> animationLibraries(const MountTable& t, std::string_view modelKey);

// The archive file of "<archive>:<entry>" (the shortest prefix ending before a ':' that is a regular file), or ""
// when `path` is not such a path.
std::string archiveOf(const std::string& path);

// The game/mod folders a viewer session has mounted (GUI: File -> Open game or mod folder; null by default).
// rs::loadDocument(path) and rs::findCompanionClips(path) look references up through it, below the archive or
// folder the file itself comes from. Thread-safe.
void setSessionMount(std::shared_ptr<const MountTable> table);
std::shared_ptr<const MountTable> sessionMount();
// The table a file at `path` (on disk or "<archive>:<entry>") is looked up in: its own archive or folder first,
// then the session mount; a game path held by the session mount: the session mount alone. *key receives its game
// path. Null when `path` is none of these.
std::shared_ptr<MountTable> tableFor(const std::string& path, std::string* key);

// The loadDocument path (a file or "<archive>:<entry>") of the file `name` (any case) in the folder of the model at
// modelPath, looked up in tableFor(modelPath): the model's own folder or archive (the folder also when the model
// file itself does not exist), then the session's game/mod folders. "" when absent, or when it is the model itself. (Models attached to proxies, found by name.) The table
// of the last modelPath is kept while the session mount is unchanged, so repeated calls parse no index again.
std::string findBeside(const std::string& modelPath, std::string_view name);

// Loads the entry `key` (its winner) like rs::loadDocument, finding W3D hierarchies through the table.
// Document::path is MountTable::describe() of the entry. Throws ParseError when absent or malformed.
Document loadDocument(const MountTable& t, std::string_view key);
// Same for bytes read elsewhere (e.g. a loose file on disk) whose game path is `key`.
Document loadDocument(const MountTable& t, ByteSpan bytes, const std::string& label, std::string_view key);

// Glob over normalised (upper-case) keys: '*' any run of characters (also across '/'), '?' one character.
bool globMatch(std::string_view pattern, std::string_view key);

} // namespace rs::vfs
