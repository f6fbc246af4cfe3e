#include "resolve/resolver.h"

#include "bw2/al.h"
#include "common/error.h"
#include "common/file_read.h"
#include "common/warnings.h"
#include "resolve/lookup_rules.h"
#include "texture/texture.h"
#include "w3d/w3d_aggregate.h"

#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace rs {

namespace fs = std::filesystem;
using vfs::Hit;
using vfs::MountTable;
using vfs::normalizePath;

namespace {

constexpr size_t kListings = 1024; // folder listings kept (the least recently used one goes)

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool directory(const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string parentOf(const std::string& path) {
    const fs::path p(path);
    return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

// The archive file of "<archive>:<entry>": the shortest prefix ending before a ':' that is a regular file.
std::string archiveOf(const std::string& path) {
    for (size_t c = path.find(':'); c != std::string::npos; c = path.find(':', c + 1))
        if (c > 0 && isRegularFile(path.substr(0, c))) return path.substr(0, c);
    return {};
}

} // namespace

std::string fileStamp(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return std::to_string(uint64_t(st.st_size)) + ":" + std::to_string(int64_t(st.st_mtim.tv_sec)) + "." +
           std::to_string(int64_t(st.st_mtim.tv_nsec));
}

// A folder's stamp for the listing caches, as fileStamp. `racy` is set when the folder changed so recently (its
// mtime within kRacyWindow of now, either way) that a file added in the same timestamp tick would leave the stamp
// as it is (file systems stamp with a coarse clock: a few ms on Linux, 2 s on FAT): such a listing is used once
// and not kept (the "racy clean" rule of git's index).
static std::string folderStamp(const std::string& dir, bool& racy) {
    constexpr int64_t kRacyWindowNs = 2'000'000'000;
    racy = false;
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return {};
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const int64_t age = (int64_t(now.tv_sec) - int64_t(st.st_mtim.tv_sec)) * 1'000'000'000 +
                        (int64_t(now.tv_nsec) - int64_t(st.st_mtim.tv_nsec));
    racy = age < kRacyWindowNs && age > -kRacyWindowNs;
    return std::to_string(uint64_t(st.st_size)) + ":" + std::to_string(int64_t(st.st_mtim.tv_sec)) + "." +
           std::to_string(int64_t(st.st_mtim.tv_nsec));
}

// --- case-insensitive folder search, with listings cached while the folder's stamp holds -------------------------

namespace {
struct Listing {
    std::string stamp;
    std::map<std::string, std::string> files, dirs; // lower-case name -> smallest matching name
    uint64_t used = 0;
};
std::mutex gListingMutex;
std::map<std::string, Listing> gListings;
uint64_t gListingClock = 0;
} // namespace

// The entry of `dir` named `name` in any case (the smallest such name); "" when none.
static std::string childNoCase(const std::string& dir, const std::string& name, bool wantDir) {
    bool racy = false;
    const std::string stamp = folderStamp(dir, racy);
    if (stamp.empty()) return {};
    const std::string want = lower(name);
    std::lock_guard<std::mutex> lock(gListingMutex);
    auto it = gListings.find(dir);
    if (it == gListings.end() || it->second.stamp != stamp || racy) {
        Listing l;
        l.stamp = racy ? std::string() : stamp; // a racy listing never matches a later stamp
        std::error_code ec;
        for (fs::directory_iterator d(dir, ec), end; !ec && d != end; d.increment(ec)) {
            const std::string fn = d->path().filename().string();
            std::error_code tec;
            const bool dir = d->is_directory(tec), file = !dir && d->is_regular_file(tec);
            if (!dir && !file) continue;
            std::string& slot = (dir ? l.dirs : l.files)[lower(fn)];
            if (slot.empty() || fn < slot) slot = fn;
        }
        if (it == gListings.end() && gListings.size() >= kListings)
            gListings.erase(std::min_element(gListings.begin(), gListings.end(), [](const auto& a, const auto& b) {
                return a.second.used < b.second.used;
            }));
        it = gListings.insert_or_assign(dir, std::move(l)).first;
    }
    it->second.used = ++gListingClock;
    const auto& names = wantDir ? it->second.dirs : it->second.files;
    const auto f = names.find(want);
    return f == names.end() ? std::string() : (fs::path(dir) / f->second).string();
}

// A relative folder path ("Data/Art/Textures") below `base`, each part in any case; "" when absent.
static std::string subdirNoCase(const std::string& base, const std::string& rel) {
    std::string cur = base;
    size_t start = 0;
    while (start <= rel.size() && !cur.empty()) {
        size_t slash = rel.find('/', start);
        if (slash == std::string::npos) slash = rel.size();
        if (slash > start) cur = childNoCase(cur, rel.substr(start, slash - start), true);
        start = slash + 1;
    }
    return cur;
}

// --- the resolver ------------------------------------------------------------------------------------------------

template <class V>
template <class Make>
V Resolver::StampCache<V>::get(const std::string& id, const std::string& stamp, Make make) const {
    if (stamp.empty()) return make();
    std::promise<V> promise;
    std::shared_future<V> value, previous; // previous: the value a remake replaces (with an interval)
    uint64_t serial = 0;
    {
        std::lock_guard<std::mutex> lock(mu_);
        Slot& slot = slots_[id];
        const auto now = std::chrono::steady_clock::now();
        const bool settled =
            slot.value.valid() && slot.value.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
        if (slot.value.valid() && slot.stamp == stamp) {
            slot.used = ++clock_;
            value = slot.value;
        } else if (slot.value.valid() && interval_ > 0 && (slot.remakes >= 1 || !settled) &&
                   std::chrono::duration<double>(now - slot.madeAt).count() < interval_) {
            // Changed again soon after being made again (or while being made): the last value stands until the
            // interval has passed.
            slot.used = ++clock_;
            value = slot.value;
            kept_.insert(id);
        } else {
            if (slot.value.valid()) ++slot.remakes;
            if (settled && interval_ > 0) previous = slot.value;
            slot.madeAt = now;
            slot.stamp = stamp;
            slot.value = promise.get_future().share();
            slot.used = serial = ++clock_;
            slot.serial = serial;
            ++made_;
            if (slots_.size() > capacity_) { // the one used longest ago goes (never the one being made)
                auto oldest = slots_.end();
                for (auto it = slots_.begin(); it != slots_.end(); ++it)
                    if (it->first != id && (oldest == slots_.end() || it->second.used < oldest->second.used))
                        oldest = it;
                if (oldest != slots_.end()) slots_.erase(oldest);
            }
        }
    }
    if (!serial) return value.get(); // made by another thread (or before): its value or its exception
    try {
        V v = make();
        promise.set_value(v);
        return v;
    } catch (...) {
        promise.set_exception(std::current_exception()); // for the threads waiting on it
        std::lock_guard<std::mutex> lock(mu_);
        const auto it = slots_.find(id);
        if (it != slots_.end() && it->second.serial == serial) {
            // With an interval, the value made before stands when a remake fails (a file caught half-written):
            // the id is changing. Else the slot goes and the next call tries again.
            if (previous.valid()) {
                try {
                    V v = previous.get();
                    it->second.value = previous;
                    kept_.insert(id);
                    return v;
                } catch (...) {
                }
            }
            // With an interval (the tables), the failure stands for this stamp: a file caught half-written is
            // not parsed again by every lookup until it changes again (a rewritten archive: once per stamp, and
            // the interval's rule after that). Without one, the slot goes and the next call tries again.
            if (interval_ > 0)
                kept_.insert(id);
            else
                slots_.erase(it);
        }
        throw;
    }
}

Resolver::Resolver(std::shared_ptr<const MountTable> mounted, std::vector<std::string> textureDirs)
    : mounted_(std::move(mounted)), textureDirs_(std::move(textureDirs)) {}

std::shared_ptr<const MountTable> Resolver::tableOver(std::shared_ptr<vfs::Source> own) const {
    const std::string role = own->kind() == "folder" ? "folder" : "archive";
    return MountTable::overlay(std::move(own), role, mounted_);
}

Resolver::Place Resolver::placeOf(const std::string& path) const {
    Place p;
    auto folderTable = [&](const std::string& dir) {
        // No remake interval for folders (that is for archives rewritten in place); a racy folder stamp is not
        // kept (folderStamp), so a file written in the stamp's own tick is found by the next lookup.
        bool racy = false;
        const std::string stamp = folderStamp(dir, racy);
        auto make = [&] { return tableOver(std::make_shared<vfs::Folder>(dir, std::string(), false, false)); };
        return folders_.get("dir:" + dir, racy ? std::string() : stamp, make);
    };
    if (isRegularFile(path)) {
        p.diskPath = path;
        // A file of the mounted folders is looked up by its game path there (its art root and the mount's archives
        // count), not by its name in a table of its own folder.
        if (const vfs::Entry* e = mounted_ ? mounted_->findDescribed(path) : nullptr) {
            p.key = e->key;
            p.table = mounted_;
            return p;
        }
        p.key = normalizePath(fs::path(path).filename().string());
        p.table = folderTable(parentOf(path));
        return p;
    }
    if (const std::string archive = archiveOf(path); !archive.empty()) {
        p.key = normalizePath(path.substr(archive.size() + 1));
        p.table = tables_.get("archive:" + archive, fileStamp(archive),
                              [&] { return tableOver(vfs::openArchiveFile(archive)); });
        return p;
    }
    if (mounted_) {
        if (mounted_->contains(path)) {
            p.key = normalizePath(path);
            p.table = mounted_;
            return p;
        }
        if (const vfs::Entry* e = mounted_->findDescribed(path)) {
            p.key = e->key;
            p.table = mounted_;
            return p;
        }
    }
    // A file named by a path on disk that is not there (read elsewhere): its folder, then the mounted folders.
    const fs::path fp(path);
    if (fp.has_parent_path() && directory(fp.parent_path().string())) {
        p.key = normalizePath(fp.filename().string());
        p.table = folderTable(fp.parent_path().string());
    }
    return p;
}

w3d::HierarchyLookup Resolver::hierarchyLookup(const Place& place, const OpenOptions& options) const {
    return [this, place,
            chosen = options.w3dHierarchyFile](const std::string& name) -> std::optional<w3d::HierarchyFile> {
        // The hierarchies of the file `label`, parsed once while its stamp holds.
        auto parsed = [&](const std::string& label, const std::string& stamp, auto bytes) {
            return hierarchies_.get(label, stamp, [&] {
                const std::vector<uint8_t> b = bytes();
                return std::make_shared<const std::vector<w3d::Hierarchy>>(
                    w3d::readFile(ByteSpan(b), label).hierarchies);
            });
        };
        auto onDisk = [&](const std::string& file) -> std::optional<w3d::HierarchyFile> {
            return w3d::HierarchyFile{file, parsed(file, fileStamp(file), [&] { return readFileBytes(file); })};
        };
        if (!chosen.empty()) return onDisk(chosen);
        if (place.table)
            if (const Hit* h = resolve::findW3dHierarchy(*place.table, name, place.key)) {
                const vfs::Entry& e = place.table->entry(*h);
                if (e.key != place.key) {
                    if (!e.diskPath.empty()) return onDisk(e.diskPath);
                    const std::string label = place.table->describe(*h);
                    const std::string stamp = "entry:" + std::to_string(e.offset) + ":" + std::to_string(e.size) + ":" +
                                              fileStamp(place.table->mountOf(*h).source->label());
                    return w3d::HierarchyFile{label, parsed(label, stamp, [&] {
                                                  const vfs::EntryBytes b = place.table->read(*h);
                                                  return std::vector<uint8_t>(b.span.data, b.span.data + b.span.size);
                                              })};
                }
            }
        // SAGE layout on disk: skeletons in <...>/art/w3d/<first two letters of the name>/.
        if (!place.diskPath.empty() && name.size() >= 2) {
            for (fs::path dir = fs::absolute(fs::path(parentOf(place.diskPath))); !dir.empty();
                 dir = dir.parent_path()) {
                if (lower(dir.filename().string()) == "w3d" && lower(dir.parent_path().filename().string()) == "art") {
                    const std::string sub = childNoCase(dir.string(), name.substr(0, 2), true);
                    const std::string f = sub.empty() ? std::string() : childNoCase(sub, name + ".w3d", false);
                    if (!f.empty() && fs::absolute(f) != fs::absolute(place.diskPath)) return onDisk(f);
                    break;
                }
                if (dir == dir.parent_path()) break;
            }
        }
        return std::nullopt;
    };
}

// `rel` ("Sub/Part.w3x", "../Shared/X.w3x") joined to the folder `dir` ("" or ending in '/'), "." and ".." parts
// resolved lexically; nullopt when ".." climbs above the root (refused rather than guessed).
static std::optional<std::string> joinRelative(const std::string& dir, const std::string& rel) {
    std::vector<std::string> parts;
    auto push = [&](const std::string& path) {
        size_t start = 0;
        while (start <= path.size()) {
            size_t slash = path.find('/', start);
            if (slash == std::string::npos) slash = path.size();
            const std::string part = path.substr(start, slash - start);
            start = slash + 1;
            if (part.empty() || part == ".") continue;
            if (part == "..") {
                if (parts.empty()) return false;
                parts.pop_back();
            } else {
                parts.push_back(part);
            }
        }
        return true;
    };
    if (!push(dir) || !push(rel) || parts.empty()) return std::nullopt;
    std::string out = dir.rfind('/', 0) == 0 ? "/" : "";
    for (size_t i = 0; i < parts.size(); ++i)
        out += (i ? "/" : "") + parts[i];
    return out;
}

w3x::Lookup Resolver::w3xLookup(const Place& place, const std::string& mainLabel) const {
    // Where a file was found, as handed back to `include` (Source::where): its table key, a newline, its path on
    // disk (either may be empty).
    auto whereOf = [](const std::string& key, const std::string& disk) { return key + "\n" + disk; };
    // The file being loaded, when a lookup leads back to it: named by its label, not read again (loadSet knows it).
    const w3x::Source self{mainLabel, nullptr, whereOf(place.key, place.diskPath), nullptr};
    // A file parsed once while its stamp holds (an empty stamp: parsed each time).
    auto parsedSource = [this](const std::string& label, const std::string& stamp, const std::string& where,
                               auto bytes) -> w3x::Source {
        auto file = w3xFiles_.get(label, stamp, [&] {
            const std::vector<uint8_t> b = bytes();
            return std::make_shared<const w3x::File>(w3x::readFile(ByteSpan(b), label));
        });
        return w3x::Source{label, nullptr, where, std::move(file)};
    };
    auto readDisk = [](const std::string& f) { return readFile(f, w3x::kMaxFileBytes, "W3X file"); };
    // The file at key k of the place's table (bounded by the W3X size cap); nullopt when absent.
    auto fromTable = [place, self, whereOf, parsedSource,
                      readDisk](const std::string& k) -> std::optional<w3x::Source> {
        if (!place.table) return std::nullopt;
        const Hit* h = place.table->find(k);
        if (!h) return std::nullopt;
        const vfs::Entry& e = place.table->entry(*h);
        if (e.key == place.key) return self;
        const std::string label = e.diskPath.empty() ? place.table->describe(*h) : e.diskPath;
        if (!e.diskPath.empty())
            return parsedSource(label, fileStamp(e.diskPath), whereOf(e.key, e.diskPath),
                                [&] { return readDisk(e.diskPath); });
        if (e.size > w3x::kMaxFileBytes)
            throw ParseError(label, {}, ParseError::kNoOffset,
                             "W3X file of " + std::to_string(e.size) + " bytes refused (larger than " +
                                 std::to_string(w3x::kMaxFileBytes) + ")");
        const std::string stamp = "entry:" + std::to_string(e.offset) + ":" + std::to_string(e.size) + ":" +
                                  fileStamp(place.table->mountOf(*h).source->label());
        return parsedSource(label, stamp, whereOf(e.key, ""), [&] {
            const vfs::EntryBytes b = place.table->read(*h);
            return std::vector<uint8_t>(b.span.data, b.span.data + b.span.size);
        });
    };
    // A file on disk ("" : nullopt); the file being loaded stands for itself.
    auto onDisk = [place, self, whereOf, parsedSource, readDisk](const std::string& f) -> std::optional<w3x::Source> {
        if (f.empty()) return std::nullopt;
        if (!place.diskPath.empty() && fs::absolute(f) == fs::absolute(place.diskPath)) return self;
        return parsedSource(f, fileStamp(f), whereOf("", f), [&] { return readDisk(f); });
    };
    // A file named `rel` (a file name or a path below the art folder): the table's candidates, then on disk the
    // SAGE art layout above the file: <...>/Art/<first two letters>/<name> and <...>/Art/<rel>.
    auto locate = [place, fromTable, onDisk](const std::string& rel) -> std::optional<w3x::Source> {
        for (const std::string& k : resolve::w3xIncludeCandidates(rel, place.key))
            if (auto s = fromTable(k)) return s;
        if (place.diskPath.empty()) return std::nullopt;
        const std::string norm = normalizePath(rel);
        const std::string file = fs::path(std::string(rel)).filename().string();
        for (fs::path dir = fs::absolute(fs::path(parentOf(place.diskPath))); !dir.empty(); dir = dir.parent_path()) {
            if (lower(dir.filename().string()) == "art") {
                if (file.size() >= 2)
                    if (const std::string sub = childNoCase(dir.string(), file.substr(0, 2), true); !sub.empty())
                        if (auto s = onDisk(childNoCase(sub, file, false))) return s;
                const size_t slash = norm.rfind('/');
                if (slash != std::string::npos) {
                    const std::string sub = subdirNoCase(dir.string(), std::string(rel).substr(0, slash));
                    if (!sub.empty())
                        if (auto s = onDisk(childNoCase(sub, std::string(rel).substr(slash + 1), false))) return s;
                }
                break;
            }
            if (dir == dir.parent_path()) break;
        }
        return std::nullopt;
    };
    // `rel` relative to the folder of the file found at `from` (Source::where; "" the file being loaded): that
    // folder's key in the table, then that folder on disk (each part in any case).
    auto relative = [place, whereOf, fromTable, onDisk](const std::string& rel,
                                                        const std::string& from) -> std::optional<w3x::Source> {
        const std::string where = from.empty() ? whereOf(place.key, place.diskPath) : from;
        const size_t nl = where.find('\n');
        const std::string key = where.substr(0, nl), disk = nl == std::string::npos ? "" : where.substr(nl + 1);
        if (!key.empty())
            if (const auto k = joinRelative(resolve::folderOf(key), normalizePath(rel)))
                if (auto s = fromTable(*k)) return s;
        if (disk.empty()) return std::nullopt;
        const std::string dir = fs::absolute(fs::path(parentOf(disk))).string();
        const auto path = joinRelative(dir, rel);
        if (!path) return std::nullopt;
        // Each part in any case, from the filesystem root down.
        fs::path cur = fs::path(*path).root_path();
        const fs::path rest = fs::path(*path).relative_path();
        for (auto it = rest.begin(); it != rest.end(); ++it) {
            const bool last = std::next(it) == rest.end();
            const std::string found = childNoCase(cur.string(), it->string(), !last);
            if (found.empty()) return std::nullopt;
            cur = found;
        }
        return onDisk(cur.string());
    };
    w3x::Lookup l;
    // "ART:"/"DATA:" sources through the SAGE art layout (locate); others relative to the including file first.
    l.include = [locate, relative](const std::string& source, const std::string& from) -> std::optional<w3x::Source> {
        std::string rel = source;
        std::replace(rel.begin(), rel.end(), '\\', '/');
        const size_t colon = rel.find(':');
        if (colon != std::string::npos && colon > 1) return locate(rel.substr(colon + 1)); // "ART:" (not "C:")
        if (auto s = relative(rel, from)) return s;
        return locate(rel);
    };
    l.declaration = [place, locate, fromTable](const std::string& kind,
                                               const std::string& id) -> std::optional<w3x::Source> {
        auto declares = [&](const w3x::Source& s) {
            if (!s.parsed) return false; // the file being loaded
            const w3x::File& f = *s.parsed;
            auto any = [&](const auto& list, auto name) {
                return std::any_of(list.begin(), list.end(), [&](const auto& x) { return iequals(name(x), id); });
            };
            if (kind == "W3DHierarchy") return any(f.hierarchies, [](const w3d::Hierarchy& h) { return h.name; });
            if (kind == "W3DMesh") return any(f.meshes, [](const w3d::RawMesh& m) { return m.fullName(); });
            if (kind == "W3DCollisionBox") return any(f.boxes, [](const w3d::Box& b) { return b.name; });
            if (kind == "W3DContainer") return any(f.containers, [](const w3d::Hlod& h) { return h.name; });
            if (kind == "Texture") return any(f.textures, [](const w3x::TextureDecl& t) { return t.id; });
            return false;
        };
        // The cheap scan of an entry's bytes, before parsing it (the files beside may be many and large).
        auto scanned = [&](const std::string& k) {
            const Hit* h = place.table->find(k);
            if (!h || place.table->entry(*h).size > w3x::kMaxFileBytes) return false;
            const vfs::EntryBytes b = place.table->read(*h);
            for (const auto& [kk, i] : w3x::scanDeclarations(b.span).declarations)
                if (kk == kind && iequals(i, id)) return true;
            return false;
        };
        for (const std::string& name : resolve::w3xDeclarationFiles(kind, id))
            if (auto s = locate(name); s && declares(*s)) return s;
        // Any .w3x beside that declares it, those sharing the longest prefix with the id first (at most 64).
        if (!place.table) return std::nullopt;
        std::vector<std::pair<size_t, std::string>> beside;
        const std::string want = normalizePath(id);
        for (const std::string& k : place.table->list(resolve::folderOf(place.key))) {
            if (k == place.key || k.size() < 4 || k.compare(k.size() - 4, 4, ".W3X") != 0) continue;
            const std::string name = k.substr(resolve::folderOf(k).size());
            size_t common = 0;
            while (common < name.size() && common < want.size() && name[common] == want[common])
                ++common;
            beside.emplace_back(common, k);
        }
        std::stable_sort(beside.begin(), beside.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        if (beside.size() > 64) beside.resize(64);
        for (const auto& [common, k] : beside) {
            std::optional<w3x::Source> s;
            try {
                if (!scanned(k)) continue;
                s = fromTable(k);
            } catch (const ParseError&) {
                continue;
            }
            if (s && declares(*s)) return s;
        }
        return std::nullopt;
    };
    return l;
}

// Bytes of the file at `place` (a file on disk is read bounded by its format's size cap).
static std::vector<uint8_t> placeBytes(const Resolver::Place& place, const std::string& path) {
    if (!place.diskPath.empty()) return readInputFile(place.diskPath);
    const Hit* h = place.table->find(place.key);
    if (!h)
        throw ParseError(path, {}, ParseError::kNoOffset,
                         place.table->mounts().size() > 1 || place.table->mounts().empty()
                             ? "not found in the mounted game and mod folders"
                             : "no such entry in the archive");
    const vfs::Entry& e = place.table->entry(*h);
    if (!e.diskPath.empty()) return readInputFile(e.diskPath);
    const vfs::EntryBytes b = place.table->read(*h);
    return std::vector<uint8_t>(b.span.data, b.span.data + b.span.size);
}

// W3D sub-objects the file does not hold (markers of kind "aggregate": w3d/w3d_aggregate.h) from the files ww3d2
// loads for them on demand, "<name up to its first '.'>.w3d" beside the model (its folder or archive, then the mounted
// folders), attached at their bones. Sub-objects not found stay markers and are named in the model's warnings. Files
// read for sub-objects have their own sub-objects attached too, at most kMaxPartDepth files deep (a file naming
// itself through another stops there) and kMaxParts attachments a model.
static thread_local int partDepth = 0;
static void attachAggregateParts(const Resolver& r, Document& d, const std::string& path) {
    constexpr int kMaxPartDepth = 4;
    constexpr int kMaxParts = 256;
    if (d.format != Format::W3d || !d.model) return;
    Model& m = *d.model;
    if (std::none_of(m.markers.begin(), m.markers.end(), [](const Marker& mk) { return mk.kind == "aggregate"; }))
        return;
    std::map<std::string, std::pair<std::shared_ptr<const Model>, std::string>> files; // file -> model, label/error
    std::vector<Marker> kept;
    std::vector<Marker> pending;
    for (Marker& mk : m.markers)
        (mk.kind == "aggregate" ? pending : kept).push_back(std::move(mk));
    m.markers = std::move(kept);
    int attached = 0;
    std::set<std::string> warned;
    for (Marker& mk : pending) {
        const std::string file = w3d::objectFileName(mk.name);
        std::string why;
        bool done = false;
        if (file.empty()) {
            why = "it names no file";
        } else if (partDepth >= kMaxPartDepth || attached >= kMaxParts) {
            why =
                partDepth >= kMaxPartDepth
                    ? "sub-objects nest deeper than " + std::to_string(kMaxPartDepth) + " files (not followed further)"
                    : "more than " + std::to_string(kMaxParts) + " sub-objects from other files";
        } else {
            auto it = files.find(lower(file));
            if (it == files.end()) {
                std::pair<std::shared_ptr<const Model>, std::string> got;
                const std::string found = r.findBeside(path, file);
                if (found.empty()) {
                    got.second = file + " was not found beside it or in the mounted folders";
                } else {
                    ++partDepth;
                    try {
                        OpenOptions o;
                        o.companionClips = false;
                        Document sub = r.read(found, o);
                        got.first = sub.model;
                        got.second = found;
                        if (!sub.model) got.second = found + " holds no model";
                    } catch (const std::exception& e) {
                        got.second = e.what();
                    }
                    --partDepth;
                }
                it = files.emplace(lower(file), std::move(got)).first;
            }
            const auto& [part, label] = it->second;
            if (part && w3d::attachPart(m, *part, mk.name, mk.bone)) {
                done = true;
                ++attached;
                if (warned.insert(label).second) // the part file's own problems, once
                    for (const std::string& w : part->warnings)
                        pushWarning(m.warnings, w);
            } else {
                why = part ? label + " does not hold it" : label;
            }
        }
        // The reader's line for this sub-object ("... references 'X', which this file does not contain ...") is
        // replaced by what the lookup found.
        const std::string readerLine = "references '" + mk.name + "', which this file does not contain";
        m.warnings.erase(std::remove_if(m.warnings.begin(), m.warnings.end(),
                                        [&](const std::string& w) { return w.find(readerLine) != std::string::npos; }),
                         m.warnings.end());
        if (!done) {
            pushWarning(m.warnings, "aggregate sub-object '" + mk.name +
                                        "' is not in this file and was not loaded: " + why + " (shown as a marker)");
            m.markers.push_back(std::move(mk));
        }
    }
}

Document Resolver::read(ByteSpan bytes, const std::string& path, const OpenOptions& options) const {
    const Place place = placeOf(path);
    const std::string& label = options.label.empty() ? path : options.label;
    ReadContext c{label, hierarchyLookup(place, options), w3xLookup(place, label)};
    Document d = readDocument(bytes, c);
    attachAggregateParts(*this, d, path);
    if (d.model) d.model->sourcePath = label;
    return d;
}

Document Resolver::read(const std::string& path, const OpenOptions& options) const {
    try {
        const Place place = placeOf(path);
        // Neither a regular file, an archive entry nor a game path of the mounted folders: refused by name as
        // readInputFile refuses it (missing, a folder, a FIFO, a device), not as an entry missing from a table.
        if (!place.table || (place.diskPath.empty() && place.table != mounted_ && archiveOf(path).empty()))
            (void)readInputFile(path);
        if (!place.table) throw ParseError(path, {}, ParseError::kNoOffset, "no such file");
        const std::vector<uint8_t> bytes = placeBytes(place, path);
        const std::string& label = options.label.empty() ? path : options.label;
        Document d =
            readDocument(ByteSpan(bytes), ReadContext{label, hierarchyLookup(place, options), w3xLookup(place, label)});
        attachAggregateParts(*this, d, path);
        if (d.model) d.model->sourcePath = label;
        return d;
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset, "out of memory while loading the file");
    }
}

Asset Resolver::open(const std::string& path, const OpenOptions& options) const {
    Asset a;
    a.document = read(path, options);
    const Document& d = a.document;
    const unsigned companions = formatInfo(d.format).companions;
    if (d.format == Format::W3d) {
        const std::string need = externalHierarchy(path);
        if (!need.empty() && (!d.model || lower(need) != lower(d.model->skeleton.name))) {
            a.missingHierarchy = need;
            a.missing.push_back("hierarchy " + need);
        }
    }
    if (d.model && d.format == Format::W3d)
        for (const Marker& mk : d.model->markers)
            if (mk.kind == "aggregate")
                a.missing.push_back("object " + mk.name + " (" + w3d::objectFileName(mk.name) + ")");
    if (d.model && options.companionClips && (companions & kCompanionClips))
        for (const std::string& c : companionClips(path, options.cache.get())) {
            ClipFile cf{c, nullptr, {}};
            try {
                if (options.cache) {
                    std::lock_guard<std::mutex> lock(options.cache->mu);
                    const auto it = options.cache->clips.find(c);
                    if (it != options.cache->clips.end()) {
                        cf.clip = it->second.first;
                        cf.error = it->second.second;
                        a.clips.push_back(std::move(cf));
                        continue;
                    }
                }
                OpenOptions clipOptions;
                clipOptions.companionClips = false;
                Document cd = read(c, clipOptions);
                if (!cd.clips.empty()) cf.clip = cd.clips.front();
            } catch (const std::exception& e) {
                cf.error = e.what();
            }
            if (options.cache) {
                std::lock_guard<std::mutex> lock(options.cache->mu);
                options.cache->clips.emplace(c, std::make_pair(cf.clip, cf.error));
            }
            a.clips.push_back(std::move(cf));
        }
    if (d.model && (companions & kCompanionLibraries))
        a.libraries = matchingLibraries(path, d.model->skeleton.bones.size());
    if (d.model && (companions & kCompanionTextures)) {
        std::set<std::string> seen;
        for (const Mesh& m : d.model->meshes)
            for (const SubMesh& s : m.subMeshes)
                for (const MaterialParam& p : s.material.params)
                    if (p.type == ParamType::Texture && !p.texture.empty() && seen.insert(lower(p.texture)).second) {
                        a.textures.push_back({p.texture, findTexture(p.texture, path)});
                        if (a.textures.back().path.empty()) a.missing.push_back("texture " + p.texture);
                    }
    }
    return a;
}

std::vector<std::string> Resolver::companionClips(const std::string& modelPath, OpenCache* cache) const {
    std::vector<std::string> out;
    Place p;
    try {
        p = placeOf(modelPath);
    } catch (const ParseError&) {
    }
    if (!p.table) return out; // a file of the mounted folders: by its game path there (placeOf)
    for (const std::string& k : resolve::companionClips(*p.table, p.key, cache ? &cache->scans : nullptr))
        out.push_back(p.table->describe(*p.table->find(k)));
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> Resolver::matchingLibraries(const std::string& modelPath, size_t boneCount) const {
    std::vector<std::string> out;
    auto consider = [&](const std::string& described, ByteSpan bytes) {
        try {
            if (bw2::peekAlBoneCount(bytes, described) == boneCount) out.push_back(described);
        } catch (const std::exception&) {
        }
    };
    Place p;
    try {
        p = placeOf(modelPath);
    } catch (const std::exception&) { // the model's archive cannot be opened: nothing found through it
    }
    if (p.table)
        for (const std::string& k : resolve::animationLibraries(*p.table, p.key)) {
            const Hit* h = p.table->find(k);
            try {
                const vfs::EntryBytes b = p.table->read(*h);
                consider(p.table->describe(*h), b.span);
            } catch (const std::exception&) {
            }
        }
    if (!p.diskPath.empty()) {
        // B&W2 keeps libraries in sibling folders of the models' folder named *anim*.
        const std::string dir = parentOf(p.diskPath);
        std::error_code ec;
        for (fs::directory_iterator
                 it(fs::path(dir).has_parent_path() ? fs::path(dir).parent_path() : fs::path(".."), ec),
             end;
             !ec && it != end; it.increment(ec)) {
            if (!it->is_directory(ec) || lower(it->path().filename().string()).find("anim") == std::string::npos)
                continue;
            for (fs::directory_iterator f(it->path(), ec), fend; !ec && f != fend; f.increment(ec)) {
                if (!f->is_regular_file(ec) || lower(f->path().extension().string()) != ".al") continue;
                try {
                    const std::vector<uint8_t> bytes = readFileBytes(f->path().string());
                    consider(f->path().string(), ByteSpan(bytes));
                } catch (const std::exception&) {
                }
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string Resolver::externalHierarchy(const std::string& path) const {
    w3d::HeaderScan scan;
    try {
        const Place p = placeOf(path);
        if (!p.table) return {};
        if (!p.diskPath.empty()) {
            const std::vector<uint8_t> bytes = readInputFile(p.diskPath);
            scan = w3d::scanHeaders(ByteSpan(bytes));
        } else if (const Hit* h = p.table->find(p.key)) {
            scan = w3d::scanHeaders(p.table->read(*h).span);
        }
    } catch (const std::exception&) {
        return {};
    }
    std::string need = scan.modelHierarchy;
    if (need.empty() && scan.hierarchies.empty() && !scan.clipHierarchies.empty()) need = scan.clipHierarchies.front();
    for (const std::string& h : scan.hierarchies)
        if (lower(h) == lower(need)) return {};
    return need;
}

std::string Resolver::findTexture(std::string_view rawName, const std::string& modelPath) const {
    std::string name(rawName);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
        name.pop_back();
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
        name.erase(name.begin());
    const size_t cut = name.find_last_of("/\\");
    const std::string file = cut == std::string::npos ? name : name.substr(cut + 1);
    if (file.empty()) return {};
    Place p;
    try {
        p = placeOf(modelPath);
    } catch (const std::exception&) {
    }
    auto fromTable = [&]() -> std::string {
        if (!p.table) return {};
        // A file of the mounted folders is looked up by its game path there (its art root counts: placeOf).
        const Hit* h = resolve::findTexture(*p.table, name, p.key);
        return h ? p.table->describe(*h) : std::string();
    };
    // The game's order (mod over game, loose over archives) first for a model inside an archive and whenever game
    // or mod folders are mounted: a folder search on disk would find a game's loose file before the mod's override.
    const bool tableFirst = p.diskPath.empty() || mounted_ != nullptr;
    if (tableFirst)
        if (std::string t = fromTable(); !t.empty()) return t;
    // Folders on disk: the user's texture folders, the model's folder, and for it and four of its ancestors
    // Textures/, Art/Textures/, Data/Art/Textures/, compiledtextures/<xx>/, art/compiledtextures/<xx>/.
    std::vector<std::string> dirs;
    auto add = [&](const std::string& d) {
        if (d.empty() || !directory(d)) return;
        const std::string n = fs::path(d).lexically_normal().string();
        if (std::find(dirs.begin(), dirs.end(), n) == dirs.end()) dirs.push_back(n);
    };
    for (const std::string& d : textureDirs_)
        add(d);
    if (!modelPath.empty() && (!p.diskPath.empty() || p.table == nullptr || !tableFirst)) {
        const std::string two = lower(file.substr(0, std::min<size_t>(2, file.size())));
        std::error_code ec;
        fs::path dir = fs::absolute(parentOf(modelPath), ec);
        if (!ec) add(dir.string());
        for (int up = 0; up <= 4 && !ec && !dir.empty(); ++up) {
            for (const char* rel : {"Textures", "Art/Textures", "Data/Art/Textures"})
                add(subdirNoCase(dir.string(), rel));
            if (two.size() == 2) {
                add(subdirNoCase(dir.string(), "compiledtextures/" + two));
                add(subdirNoCase(dir.string(), "art/compiledtextures/" + two));
                add(subdirNoCase(dir.string(), "art/" + two)); // the C&C 3 / RA3 SDK: Art/<xx>/ (W3X art)
            }
            if (!dir.has_parent_path() || dir.parent_path() == dir) break;
            dir = dir.parent_path();
        }
    }
    std::vector<std::string> candidates{file};
    const size_t dot = file.rfind('.');
    const std::string stem = dot == std::string::npos ? file : file.substr(0, dot);
    for (const char* ext : {".dds", ".tga", ".png"})
        if (lower(stem + ext) != lower(file)) candidates.push_back(stem + ext);
    for (const std::string& c : candidates)
        for (const std::string& d : dirs)
            if (std::string f = childNoCase(d, c, false); !f.empty()) return f;
    return tableFirst ? std::string() : fromTable();
}

std::string Resolver::findBeside(const std::string& modelPath, std::string_view name) const {
    Place p;
    try {
        p = placeOf(modelPath);
    } catch (const std::exception&) {
    }
    if (!p.table) return {};
    const Hit* h = p.table->find(resolve::folderOf(p.key) + normalizePath(name));
    if (!h || p.table->entry(*h).key == p.key) return {};
    return p.table->describe(*h);
}

std::string Resolver::findProxyFile(const std::string& modelPath, std::string_view name) const {
    Place p;
    try {
        p = placeOf(modelPath);
    } catch (const std::exception&) {
    }
    if (p.table)
        for (const std::string& key :
             {resolve::folderOf(p.key) + normalizePath(name), std::string("DATA/ART/MODELS/") + normalizePath(name)})
            if (const Hit* h = p.table->find(key); h && p.table->entry(*h).key != p.key) return p.table->describe(*h);
    for (const std::string& d : textureDirs_)
        if (std::string f = childNoCase(d, std::string(name), false); !f.empty() && f != modelPath) return f;
    return {};
}

std::vector<std::string> Resolver::filesBeside(const std::string& path, std::string_view extension) const {
    std::vector<std::string> out;
    Place p;
    try {
        p = placeOf(path);
    } catch (const std::exception&) {
    }
    if (!p.table) return out;
    const std::string ext = normalizePath(extension);
    for (const std::string& k : p.table->list(resolve::folderOf(p.key)))
        if (k != p.key && k.size() > ext.size() && k.compare(k.size() - ext.size(), ext.size(), ext) == 0)
            out.push_back(p.table->describe(*p.table->find(k)));
    return out;
}

bool Resolver::readAssetBytes(const std::string& path, std::vector<uint8_t>& out) const {
    try {
        if (isRegularFile(path)) {
            out = readInputFile(path);
            return true;
        }
        const Place p = placeOf(path);
        if (!p.table) return false;
        const Hit* h = p.table->find(p.key);
        if (!h) return false;
        const vfs::Entry& e = p.table->entry(*h);
        if (!e.diskPath.empty()) {
            out = readInputFile(e.diskPath);
            return true;
        }
        auto capOf = [&](ByteSpan head) {
            const Format f = isTexture(head, path) ? Format::Texture : detectFormat(head, path);
            return std::pair<uint64_t, const FormatInfo*>(
                f == Format::Unknown ? uint64_t(kMaxInputBytes) : formatInfo(f).maxBytes, &formatInfo(f));
        };
        auto refuse = [&](uint64_t cap, const FormatInfo& f) {
            throw ParseError(path, {}, ParseError::kNoOffset,
                             "entry of " + std::to_string(e.size) + " bytes is larger than any " +
                                 std::string(f.description) + " this viewer reads (at most " +
                                 std::to_string(cap >> 20) + " MiB)");
        };
        if (const auto [cap, f] = capOf(ByteSpan()); e.size > cap) refuse(cap, *f);
        const vfs::EntryBytes b = p.table->read(*h);
        if (const auto [cap, f] = capOf(b.span); b.span.size > cap) refuse(cap, *f);
        out.assign(b.span.data, b.span.data + b.span.size);
        return true;
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset, "out of memory while reading");
    }
}

bool Resolver::readBytes(const std::string& path, std::vector<uint8_t>& out, uint64_t maxBytes) const {
    try {
        if (isRegularFile(path)) {
            out = readFile(path, maxBytes);
            return true;
        }
        const Place p = placeOf(path);
        if (!p.table) return false;
        const Hit* h = p.table->find(p.key);
        if (!h) return false;
        const vfs::Entry& e = p.table->entry(*h);
        if (!e.diskPath.empty()) {
            out = readFile(e.diskPath, maxBytes);
            return true;
        }
        if (e.size > maxBytes)
            throw ParseError(path, {}, ParseError::kNoOffset,
                             "entry of " + std::to_string(e.size) + " bytes is larger than " +
                                 std::to_string(maxBytes));
        const vfs::EntryBytes b = p.table->read(*h);
        out.assign(b.span.data, b.span.data + b.span.size);
        return true;
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset, "out of memory while reading");
    }
}

} // namespace rs
