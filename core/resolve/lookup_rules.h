// Where the games look for what a model refers to, as keys of a mount table (normalizePath() game paths such as
// "DATA/ART/MODELS/UNIT.ALO"). Pure rules over a table: no file system, no cache (the resolver adds those).
#pragma once

#include "vfs/mount.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace rs::resolve {

// "DATA/ART/MODELS/" for "DATA/ART/MODELS/X.ALO"; "" for a key without folder.
std::string folderOf(std::string_view key);

// The folder a SAGE model's archive root was unpacked to in a mod's working tree: "ARTS/" for
// "ARTS/ART/W3D/KB/X.W3D" (a top folder that a build packs into one .big whose entries start with ART/), "" when
// the model is not under <folder>/ART/W3D/.
std::string artRootOf(std::string_view modelKey);

// Keys tried for texture `name` (a file name or game path) referenced by the model at `modelKey`, in order:
// the model's folder; the engines' folders: DATA/ART/TEXTURES/ (Alamo), ART/TEXTURES/ (Generals W3DFileSystem
// TGA_DIR_PATH; OpenSAGE's Generals/BFME path resolver), ART/COMPILEDTEXTURES/<first two letters>/ (BFME II and
// RotWK, OpenSAGE's Bfme2TexturePathResolver), COMPILEDTEXTURES/<xx>/; the same below the model's art root
// (artRootOf: <root>ART/COMPILEDTEXTURES/<xx>/, <root>ART/TEXTURES/); then ART/TEXTURES/<xx>/ and
// <root>ART/TEXTURES/<xx>/ (the BFME II mod SDK's source layout, which its asset builder compiles into
// ART/COMPILEDTEXTURES/<xx>/); ART/<xx>/ (the C&C 3 SDK's: W3X art beside its textures); then the path as written. Each with the stored extension first, then the other of
// .TGA / .DDS (the games ship .dds for textures named .tga), then .PNG (textures a modder converted).
std::vector<std::string> textureCandidates(std::string_view name, std::string_view modelKey);
// The first candidate the table holds; null when none.
const vfs::Hit* findTexture(const vfs::MountTable& t, std::string_view name, std::string_view modelKey);

// Keys tried for Alamo shader `name` (as a material names it, "MeshGloss.fx"), in the engine's order: the
// extension dropped (with any folder kept), then for each of .FX, .FXO, .FXH (the outer loop: a .fx anywhere wins over
// a .fxo) the name as written, DATA/ART/SHADERS/, DATA/ART/SHADERS/TERRAIN/, DATA/ART/SHADERS/ENGINE/. Each key is
// looked up in the mount's order (mod folders, game folders, archives). Reference: ModVerify EffectsRepository
// (LookupPaths, ShaderExtensions, StripFileName; "ENGINE" is not coded in the engine, .fxh is tolerated) and its
// tests (Extension_FxInDeepestDir_BeatsFxoAtBare, Directory_BareBeatsShaders_SameExtension); alo-viewer
// Assets::LoadShader (Data\Art\Shaders\, .fx then .fxo). DATA/SHADERS/ is not a lookup folder: mods keep the
// game's HLSL sources there, which the engine does not read.
std::vector<std::string> shaderCandidates(std::string_view name);
// The first candidate the table holds; null when none.
const vfs::Hit* findShader(const vfs::MountTable& t, std::string_view name);

// W3D hierarchy `name`: `<name>.W3D` next to the model, then ART/W3D/<first two letters>/, then ART/W3D/, then the
// same two below the model's art root (artRootOf: <root>ART/W3D/<xx>/, <root>ART/W3D/).
const vfs::Hit* findW3dHierarchy(const vfs::MountTable& t, std::string_view name, std::string_view modelKey);

// W3X (the SAGE art layout of C&C 3, Kane's Wrath, RA3 and the BFME II SDK: Art/<first two letters>/<FILE>):
// keys tried for the file an <Include source="ART:NAME"/> names (`rel`: the source without its "ART:" prefix) from
// the file at modelKey: beside it, ART/<xx>/, below the model's art root (<root>ART/<xx>/ for a key holding
// ".../ART/..."), then the path as written.
std::vector<std::string> w3xIncludeCandidates(std::string_view rel, std::string_view modelKey);
// File names (no folder) that may declare element `kind` with id `id`, by the SDK's naming: W3DMesh and
// W3DCollisionBox "<NAME>.<SUB>" in <NAME>.<SUB>.W3X, then <NAME>.W3X (the skin or model file holding them);
// W3DHierarchy H in H.W3X, H_SKL.W3X, H_HRC.W3X; W3DContainer C in C.W3X, C_CTR.W3X.
std::vector<std::string> w3xDeclarationFiles(std::string_view kind, std::string_view id);

// W3D header scans (w3d::scanHeaders) of a table's entries, kept for the lookups of one run over files that do not
// change meanwhile (a check): each file is scanned once instead of once per model beside it. Thread-safe.
class W3dScanCache {
  public:
    struct Scan {
        bool ok = false; // false: the headers could not be read
        std::string modelHierarchy;
        std::vector<std::string> hierarchies, clipHierarchies;
    };
    // The scan of entry `key` of table `t` (scanned on first use).
    std::shared_ptr<const Scan> scan(const vfs::MountTable& t, const std::string& key);

  private:
    std::mutex mu_;
    std::map<std::string, std::shared_ptr<const Scan>> scans_; // by MountTable::describe() of the entry
};

// Clips that belong to the model, as keys, sorted: Alamo <MODEL>_*.ALA next to it (a clip that also starts with
// a longer model's name beside it, <MODEL>_D_DIE_00.ALA for <MODEL>_D.ALO, is that model's); W3D .W3D files next to it
// (and in its ART/W3D/<xx>/ folder) whose clip header names the model's hierarchy; W3X .W3X files next to it whose
// W3DAnimation names the hierarchy of the model's W3DContainer (or the W3DHierarchy it declares). `cache` (optional): header scans
// shared with other lookups of the same run.
std::vector<std::string> companionClips(const vfs::MountTable& t, std::string_view modelKey,
                                        W3dScanCache* cache = nullptr);

// B&W2 animation libraries (.AL) next to a .BWM model, sorted.
std::vector<std::string> animationLibraries(const vfs::MountTable& t, std::string_view modelKey);

} // namespace rs::resolve
