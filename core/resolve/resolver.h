// One way to open an asset: a file, "<archive>:<entry>" or a game path, with everything that belongs to it, found
// the way the game finds it (resolve/lookup_rules.h) in a file source that is passed in: the file's own folder or
// archive, over the session's game and mod folders (a mount table; tests pass tables of in-memory files). Nothing
// here is process-wide: caches belong to the resolver and are checked against each file's size and modification
// time.
#pragma once

#include "formats/formats.h"
#include "resolve/lookup_rules.h"
#include "scene/document.h"
#include "vfs/mount.h"

#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rs {

// What the open() calls of one run over files that do not change meanwhile (a check) share: W3D header scans for
// the companion lookups and the companion clips read, each file once. Thread-safe.
struct OpenCache {
    resolve::W3dScanCache scans;
    std::mutex mu;
    std::map<std::string, std::pair<std::shared_ptr<const Clip>, std::string>> clips; // path -> clip, error
};

struct OpenOptions {
    // W3D: the file holding the hierarchy, when the user chose it (empty: looked up).
    std::string w3dHierarchyFile;
    // Read the clips that belong to a model (Alamo <MODEL>_*.ala, W3D clips naming its hierarchy).
    bool companionClips = true;
    // Shared by the calls of one run (null: nothing kept between calls).
    std::shared_ptr<OpenCache> cache;
    // The name messages and Document::path give the file (empty: the path it is opened by), e.g. the file on disk
    // or "<archive>:<entry>" that a game path of the mounted folders resolved to.
    std::string label;
};

// A clip file that belongs to a model: read (clip set) or not readable (error set).
struct ClipFile {
    std::string path;
    std::shared_ptr<const Clip> clip;
    std::string error;
};

// A texture a model names: where the lookup found it (a path for Resolver::readBytes), or "" when missing.
struct TextureRef {
    std::string name;
    std::string path;
};

// A document with what belongs to it.
struct Asset {
    Document document;
    std::string missingHierarchy;       // W3D: the hierarchy the file needs and no file holds
    std::vector<ClipFile> clips;        // companion clips, sorted by path
    std::vector<std::string> libraries; // B&W2: .al libraries beside the model whose bone count fits it
    std::vector<TextureRef> textures;   // every texture name of the model once, in order of first use
    std::vector<std::string> missing;   // what was looked for and not found, one line each
};

class Resolver {
  public:
    // mounted: the session's game and mod folders (null: none). textureDirs: folders the user added, searched for
    // textures after everything else.
    explicit Resolver(std::shared_ptr<const vfs::MountTable> mounted = nullptr,
                      std::vector<std::string> textureDirs = {});

    const std::shared_ptr<const vfs::MountTable>& mounted() const { return mounted_; }
    const std::vector<std::string>& textureDirs() const { return textureDirs_; }

    // The asset at `path` (a file, "<archive>:<entry>", a path MountTable::describe() gave, or a game path of the
    // mounted folders) with its companions. Throws ParseError naming the file when it cannot be read.
    Asset open(const std::string& path, const OpenOptions& options = {}) const;
    // One file, with the W3D hierarchy it needs, and no other companion.
    Document read(const std::string& path, const OpenOptions& options = {}) const;
    // Bytes read elsewhere, named by `path` (its companions are looked up around `path`).
    Document read(ByteSpan bytes, const std::string& path, const OpenOptions& options = {}) const;

    // Clip files that belong to the model at modelPath (paths for read()), sorted.
    std::vector<std::string> companionClips(const std::string& modelPath, OpenCache* cache = nullptr) const;
    // B&W2: .al libraries beside the model (and in sibling folders named *anim*) with boneCount bones, sorted.
    std::vector<std::string> matchingLibraries(const std::string& modelPath, size_t boneCount) const;
    // W3D: the hierarchy the file's models (or, in a clip-only file, its first clip) need and the file does not
    // define itself; "" when it needs none or defines it.
    std::string externalHierarchy(const std::string& path) const;
    // The texture `name` of the model at modelPath in the engine's order, then in textureDirs; "" when missing.
    std::string findTexture(std::string_view name, const std::string& modelPath) const;
    // The file `name` (any case) in the folder of the model at modelPath, in its folder or archive, then the
    // mounted folders; "" when absent or when it is the model itself (models and particles attached to proxies).
    std::string findBeside(const std::string& modelPath, std::string_view name) const;
    // The file a proxy names (Alamo: models and particle systems attached to proxies, `name` = "<base>.alo"): beside
    // the model, then DATA/ART/MODELS/, through its folder or archive and the mounted folders, then in the texture
    // folders. "" when not found; never the model itself.
    std::string findProxyFile(const std::string& modelPath, std::string_view name) const;
    // Files beside the one at `path` whose name ends in `extension` (any case, e.g. ".abk"), in its folder or archive
    // and the mounted folders, sorted by key; never the file itself (AMOS: banks holding the object images).
    std::vector<std::string> filesBeside(const std::string& path, std::string_view extension) const;
    // Bytes of a path this resolver gave (or any path open() takes), at most maxBytes. False when absent.
    bool readBytes(const std::string& path, std::vector<uint8_t>& out, uint64_t maxBytes = uint64_t(512) << 20) const;
    // The same within the size cap of the file's format (formats.h FormatInfo::maxBytes, as info, check and export
    // read): a file on disk through readInputFile; an archive entry refused by the cap of the format its name gives
    // before it is read, and by that of its content after. Throws ParseError naming the file, its size and the cap.
    bool readAssetBytes(const std::string& path, std::vector<uint8_t>& out) const;

    // Where a path is looked up: its own folder or archive over the mounted folders, and its key there.
    struct Place {
        std::shared_ptr<const vfs::MountTable> table;
        std::string key;
        std::string diskPath; // the file on disk, when it is one
    };
    // Null table when the path is none of the kinds open() takes. A file on disk that the mounted folders hold
    // (MountTable::findDescribed) is looked up by its game path in them; any other file and an archive entry through
    // a table of its folder or archive over the mounted folders (MountTable::overlay), made once per folder or
    // archive while its stamp holds.
    Place placeOf(const std::string& path) const;
    // How many such folder and archive tables this resolver has made (tests, benchmarks).
    size_t tablesMade() const { return tables_.made() + folders_.made(); }
    // An archive whose stamp changes again within kRemakeInterval of being re-read is not read again meanwhile: the
    // table made last is used (a modding tool rewriting an archive throughout a check costs one re-read, not one
    // per stamp). The archives for which that happened (folders have no interval: see folderStamp).
    std::vector<std::string> changing() const { return tables_.kept(); } // archives only: folders are listed again
    static constexpr double kRemakeInterval = 5.0;                       // seconds

  private:
    w3d::HierarchyLookup hierarchyLookup(const Place& place, const OpenOptions& options) const;
    // W3X: Includes and declarations (w3x::Lookup) found around `place` (resolve::w3xIncludeCandidates, the SAGE
    // art layout on disk: <...>/Art/<xx>/, then the .w3x files beside that declare what is asked for).
    // Relative Includes are resolved from the including file's folder (in the table, then on disk); files read for
    // Includes and declarations are parsed once while their stamp holds (w3xFiles_). `label`: the loaded file's.
    w3x::Lookup w3xLookup(const Place& place, const std::string& label) const;
    std::shared_ptr<const vfs::MountTable> tableOver(std::shared_ptr<vfs::Source> own) const;

    // A value per id made once while the id's stamp holds: a thread asking while another makes it waits for that
    // one. At most `capacity` ids are kept; the one used longest ago goes. Nothing is kept for an empty stamp or
    // when making throws. Thread-safe.
    // With a minimum interval (seconds, > 0): an id made again once is not made again before that interval has
    // passed since; its last value is returned meanwhile (and the id listed by kept()).
    template <class V> class StampCache {
      public:
        explicit StampCache(size_t capacity, double minRemakeInterval = 0)
            : capacity_(capacity), interval_(minRemakeInterval) {}
        template <class Make> V get(const std::string& id, const std::string& stamp, Make make) const;
        size_t made() const {
            std::lock_guard<std::mutex> lock(mu_);
            return made_;
        }
        std::vector<std::string> kept() const {
            std::lock_guard<std::mutex> lock(mu_);
            return std::vector<std::string>(kept_.begin(), kept_.end());
        }

      private:
        struct Slot {
            std::string stamp;
            std::shared_future<V> value;
            uint64_t used = 0, serial = 0;
            unsigned remakes = 0;                         // times made again for a new stamp
            std::chrono::steady_clock::time_point madeAt; // when last made
        };
        size_t capacity_;
        double interval_ = 0;
        mutable std::set<std::string> kept_;
        mutable std::mutex mu_;
        mutable std::map<std::string, Slot> slots_;
        mutable uint64_t clock_ = 0;
        mutable size_t made_ = 0;
    };

    std::shared_ptr<const vfs::MountTable> mounted_;
    std::vector<std::string> textureDirs_;

    StampCache<std::shared_ptr<const vfs::MountTable>> tables_{1024, kRemakeInterval}; // by "archive:" path
    StampCache<std::shared_ptr<const vfs::MountTable>> folders_{1024};                 // by "dir:" path
    StampCache<std::shared_ptr<const std::vector<w3d::Hierarchy>>> hierarchies_{1024}; // by hierarchy file label
    StampCache<std::shared_ptr<const w3x::File>> w3xFiles_{256}; // W3X files read for another's Includes, by label

  public:
    // How many W3X files the Includes and declaration lookups parsed (not taken from the cache) (tests, benchmarks).
    size_t w3xFilesParsed() const { return w3xFiles_.made(); }
};

// "size:mtime" of a file on disk ("" when it cannot be read): what the resolver's caches are checked against.
std::string fileStamp(const std::string& path);

} // namespace rs
