// rigscope's asset checker (no Qt): every asset a mount resolves (or the files and folders given) read through the
// Resolver on several threads, and each problem reported as a Finding with a stable id, a level, the file and where
// in it. The ids, their levels and the source each engine limit is taken from are listed by catalog() and documented
// in docs/CHECKS.md (with the JSON schema of `rigscope-cli check --json`).
//
// What is checked:
//   read.*     every error and warning the readers give (chunk path, byte offset);
//   model.*    textures not found in the engine's lookup order, unknown shaders, proxies whose file is missing, W3D
//              skins without their hierarchy, clips beside a model that do not fit its skeleton;
//   limit.*    engine limits (vertices and triangles per Alamo sub-mesh and per W3D mesh, bones per skinned
//              sub-mesh, skin weights, shadow meshes that are not closed, shadow and collision meshes with several
//              materials, texture sizes);
//   archive.*  duplicate names, CRC mismatches, names the engine cannot look up;
//   object.*   EaW XML and SAGE INI objects: models, bones, clips, hardpoints, particle systems, textures and
//              parents that do not resolve, malformed definition files;
//   unref.file files nothing refers to (information; whole mounts only);
//   ref.base-game when the mount holds mods but no game: the references the mod does not hold (textures, proxies,
//              hierarchies, objects' models, clips, parents, hardpoints, particles, definition files), which the base
//              game may provide, as one note per check id instead of one finding each.
#pragma once

#include "resolve/resolver.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rs::check {

enum class Level { Info = 0, Warning = 1, Error = 2 };
const char* levelName(Level l); // "info", "warning", "error"
// "info", "warning", "error" (also "note" for info); false when none of them.
bool parseLevel(std::string_view s, Level& out);

// Where in a file a finding is. Binary files: chunk path (or field) and byte offset; text files: line and column;
// models also name the mesh, sub-mesh, bone or material, so that a viewer can select them.
struct Location {
    std::string chunk;                       // "0x400/0x10100" or a field ("file table record 3"); "" when none
    uint64_t offset = ~uint64_t(0);          // byte offset, ~0 when none
    int line = 0, column = 0;                // 1-based; 0 when none
    std::string mesh;                        // mesh name, "" when none
    int subMesh = -1;                        // sub-mesh index in the mesh, -1 when none
    std::string bone;                        // bone name, "" when none
    std::string material;                    // shader or texture name, "" when none
    std::string object;                      // object.*: the object the finding is about, "" when none
    bool hasOffset() const { return offset != ~uint64_t(0); }
    std::string str() const;                 // "chunk 0x400 at offset 12", "line 3, column 5", "mesh X sub-mesh 0"
};

struct Finding {
    std::string id;      // catalog id, e.g. "model.texture-missing"
    Level level = Level::Warning;
    std::string file;    // the file as the resolver names it: a path on disk or "<archive>:<entry>"
    std::string key;     // its game path in the mount ("DATA/ART/MODELS/X.ALO"), "" when not in one
    Location where;
    std::string message; // one line naming what is wrong
    // What a reference finding names (the texture, proxy, hierarchy, clip, model, object or definition file not
    // found), "" for other findings; for ref.base-game, the id of the findings it stands for.
    std::string subject;
};

struct CheckInfo {
    const char* id;
    Level level;
    const char* title;  // one line
    const char* source; // where the rule or limit comes from
};
const std::vector<CheckInfo>& catalog();
const CheckInfo* findCheck(std::string_view id);

struct Options {
    unsigned threads = 0;     // 0: std::thread::hardware_concurrency()
    bool unreferenced = true; // report files nothing refers to (checkMount only)
    bool objects = true;      // check the object database (checkMount only)
    // Share what the files of the run have in common: W3D header scans and companion clips (Resolver OpenCache)
    // and the models' facts for the object pass. False: each file looked at alone (for comparisons).
    bool runCache = true;
    // Called after each file, from the worker threads, one call at a time: files done, files in all.
    std::function<void(size_t done, size_t total)> progress;
    const std::atomic<bool>* cancel = nullptr; // set to stop early (Report::cancelled)
};

struct Report {
    std::vector<Finding> findings; // sorted by file, then position, then id
    size_t files = 0;              // files examined
    uint64_t bytes = 0;            // their sizes
    double seconds = 0;
    unsigned threads = 1;
    bool cancelled = false;
    size_t leftToBaseGame = 0; // references summarised by the ref.base-game notes (a mod checked without its game)
    size_t count(Level l) const;
    bool reaches(Level l) const; // a finding at level l or above
};

// Every asset of the resolver's mount (models, clips, particle systems, textures, archives), its object database,
// and the files nothing refers to. An empty report when the resolver has no mount.
Report checkMount(const Resolver& resolver, const Options& options = {});
// The given files and folders (a folder: every file under it; a .meg/.big: the archive and its entries), each
// opened through the resolver, so that what they refer to is found beside them and in the mount.
Report checkPaths(const Resolver& resolver, const std::vector<std::string>& paths, const Options& options = {});

} // namespace rs::check
