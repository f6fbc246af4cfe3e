#include "resolve/lookup_rules.h"

#include "common/error.h"
#include "common/file_read.h"
#include "w3d/w3d_reader.h"
#include "w3x/w3x_reader.h"

#include <algorithm>
#include <optional>

namespace rs::resolve {

using vfs::Hit;
using vfs::MountTable;
using vfs::normalizePath;

std::string folderOf(std::string_view key) {
    const std::string k = normalizePath(key);
    const size_t slash = k.rfind('/');
    return slash == std::string::npos ? std::string() : k.substr(0, slash + 1);
}

static std::string baseName(const std::string& key) {
    const size_t slash = key.rfind('/');
    return slash == std::string::npos ? key : key.substr(slash + 1);
}

static std::string stemOf(const std::string& file) {
    const size_t dot = file.rfind('.');
    return dot == std::string::npos ? file : file.substr(0, dot);
}

static std::string extOf(const std::string& file) {
    const size_t dot = file.rfind('.');
    return dot == std::string::npos ? std::string() : file.substr(dot);
}

std::string artRootOf(std::string_view modelKey) {
    const std::string k = normalizePath(modelKey);
    const size_t at = k.rfind("/ART/W3D/");
    return at == std::string::npos ? std::string() : k.substr(0, at + 1);
}

std::vector<std::string> textureCandidates(std::string_view name, std::string_view modelKey) {
    const std::string key = normalizePath(name);
    const std::string file = baseName(key);
    std::vector<std::string> out;
    if (file.empty()) return out;
    std::vector<std::string> files{file};
    for (const char* ext : {".DDS", ".TGA", ".PNG"})
        if (stemOf(file) + ext != file) files.push_back(stemOf(file) + ext);
    std::vector<std::string> dirs{folderOf(modelKey), "DATA/ART/TEXTURES/", "ART/TEXTURES/"};
    const std::string root = artRootOf(modelKey);
    if (file.size() >= 2) {
        const std::string two = file.substr(0, 2);
        dirs.push_back("ART/COMPILEDTEXTURES/" + two + "/");
        dirs.push_back("COMPILEDTEXTURES/" + two + "/");
        if (!root.empty()) {
            dirs.push_back(root + "ART/COMPILEDTEXTURES/" + two + "/");
            dirs.push_back(root + "ART/TEXTURES/");
        }
        dirs.push_back("ART/TEXTURES/" + two + "/");
        if (!root.empty()) dirs.push_back(root + "ART/TEXTURES/" + two + "/");
        dirs.push_back("ART/" + two + "/"); // the C&C 3 / RA3 SDK's source layout (W3X art beside its textures)
    } else if (!root.empty()) {
        dirs.push_back(root + "ART/TEXTURES/");
    }
    for (const std::string& d : dirs)
        for (const std::string& f : files)
            if (std::find(out.begin(), out.end(), d + f) == out.end()) out.push_back(d + f);
    if (key != file && std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
    return out;
}

const Hit* findTexture(const MountTable& t, std::string_view name, std::string_view modelKey) {
    for (const std::string& c : textureCandidates(name, modelKey))
        if (const Hit* h = t.find(c)) return h;
    return nullptr;
}

std::vector<std::string> shaderCandidates(std::string_view name) {
    std::string base = normalizePath(name);
    const size_t slash = base.rfind('/');
    const size_t dot = base.rfind('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) base.resize(dot);
    std::vector<std::string> out;
    if (base.empty() || base.back() == '/') return out;
    for (const char* ext : {".FX", ".FXO", ".FXH"})
        for (const char* dir : {"", "DATA/ART/SHADERS/", "DATA/ART/SHADERS/TERRAIN/", "DATA/ART/SHADERS/ENGINE/"})
            out.push_back(std::string(dir) + base + ext);
    return out;
}

const Hit* findShader(const MountTable& t, std::string_view name) {
    for (const std::string& c : shaderCandidates(name))
        if (const Hit* h = t.find(c)) return h;
    return nullptr;
}

const Hit* findW3dHierarchy(const MountTable& t, std::string_view name, std::string_view modelKey) {
    const std::string file = normalizePath(name) + ".W3D";
    std::vector<std::string> c{folderOf(modelKey) + file};
    // The game's folders, then the same below the model's art root (a mod's working tree: ARTS/ART/W3D/KU/ for a
    // skin in ARTS/ART/W3D/MU/), as the texture lookup does.
    std::vector<std::string> roots{""};
    if (std::string root = artRootOf(modelKey); !root.empty()) roots.push_back(std::move(root));
    for (const std::string& r : roots) {
        if (file.size() >= 6) c.push_back(r + "ART/W3D/" + file.substr(0, 2) + "/" + file);
        c.push_back(r + "ART/W3D/" + file);
    }
    for (const std::string& k : c)
        if (const Hit* h = t.find(k)) return h;
    return nullptr;
}

std::vector<std::string> w3xIncludeCandidates(std::string_view rel, std::string_view modelKey) {
    const std::string key = normalizePath(rel);
    const std::string file = baseName(key);
    std::vector<std::string> out;
    if (file.empty()) return out;
    auto add = [&](const std::string& k) {
        if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    };
    const std::string model = normalizePath(modelKey);
    add(folderOf(model) + file);
    const std::string two = file.size() >= 2 ? file.substr(0, 2) + "/" : std::string();
    add("ART/" + two + file);
    const size_t art = model.rfind("ART/");
    if (art != std::string::npos && (art == 0 || model[art - 1] == '/')) add(model.substr(0, art + 4) + two + file);
    if (key != file) add(key);
    return out;
}

std::vector<std::string> w3xDeclarationFiles(std::string_view kind, std::string_view id) {
    const std::string k(kind), n = normalizePath(id);
    std::vector<std::string> out;
    if (n.empty() || n.find('/') != std::string::npos) return out;
    if (k == "W3DMesh" || k == "W3DCollisionBox") {
        out.push_back(n + ".W3X");
        const size_t dot = n.find('.');
        if (dot != std::string::npos && dot > 0) out.push_back(n.substr(0, dot) + ".W3X");
    } else if (k == "W3DHierarchy") {
        out = {n + ".W3X", n + "_SKL.W3X", n + "_HRC.W3X"};
    } else if (k == "W3DContainer") {
        out = {n + ".W3X", n + "_CTR.W3X"};
    }
    return out;
}

// The header scan of an entry: a loose file's headers are read with seeks, an archive entry is mapped.
static w3d::HeaderScan scanEntry(const MountTable& t, const Hit& h) {
    const vfs::EntryBytes b = t.read(h);
    return w3d::scanHeaders(b.span);
}

std::shared_ptr<const W3dScanCache::Scan> W3dScanCache::scan(const MountTable& t, const std::string& key) {
    const Hit* hit = t.find(key);
    const std::string id = hit ? t.describe(*hit) : key; // the file itself, whichever table names it
    {
        std::lock_guard<std::mutex> lock(mu_);
        const auto it = scans_.find(id);
        if (it != scans_.end()) return it->second;
    }
    auto s = std::make_shared<Scan>();
    if (hit) {
        try {
            w3d::HeaderScan hs = scanEntry(t, *hit);
            s->ok = true;
            s->modelHierarchy = std::move(hs.modelHierarchy);
            s->hierarchies = std::move(hs.hierarchies);
            s->clipHierarchies = std::move(hs.clipHierarchies);
        } catch (const ParseError&) {
        }
    }
    std::lock_guard<std::mutex> lock(mu_);
    return scans_.emplace(id, std::move(s)).first->second; // a scan another thread kept first wins
}

std::vector<std::string> companionClips(const MountTable& t, std::string_view modelKey, W3dScanCache* cache) {
    const std::string key = normalizePath(modelKey);
    const std::string folder = folderOf(key), file = baseName(key), ext = extOf(file);
    std::vector<std::string> out;
    if (ext == ".ALO") {
        // <MODEL>_*.ALA, each clip kept only for the longest model name it starts with (EV_ESCORT_D_DIE_00.ALA
        // belongs to EV_ESCORT_D.ALO, not to EV_ESCORT.ALO).
        const std::string prefix = folder + stemOf(file) + "_";
        const std::vector<std::string> names = t.list(prefix); // O(log n + k): not the whole folder per model
        std::vector<std::string> longer; // other models of the folder whose name extends this one's, with '_'
        for (const std::string& k : names)
            if (extOf(k) == ".ALO" && k != key && stemOf(k).size() + 1 > prefix.size() &&
                k.compare(0, prefix.size(), prefix) == 0)
                longer.push_back(stemOf(k) + "_");
        for (const std::string& k : names)
            if (k.compare(0, prefix.size(), prefix) == 0 && extOf(k) == ".ALA" &&
                std::none_of(longer.begin(), longer.end(),
                             [&](const std::string& l) { return k.compare(0, l.size(), l) == 0; }))
                out.push_back(k);
    } else if (ext == ".W3D") {
        const Hit* self = t.find(key);
        if (!self) return out;
        // The headers of entry k: from the run's cache, else scanned now (null when unreadable).
        auto headers = [&](const std::string& k) -> std::shared_ptr<const W3dScanCache::Scan> {
            if (cache) {
                auto s = cache->scan(t, k);
                return s->ok ? s : nullptr;
            }
            const Hit* h = t.find(k);
            if (!h) return nullptr;
            try {
                w3d::HeaderScan hs = scanEntry(t, *h);
                auto s = std::make_shared<W3dScanCache::Scan>();
                s->ok = true;
                s->modelHierarchy = std::move(hs.modelHierarchy);
                s->hierarchies = std::move(hs.hierarchies);
                s->clipHierarchies = std::move(hs.clipHierarchies);
                return s;
            } catch (const ParseError&) {
                return nullptr;
            }
        };
        const auto s = headers(key);
        if (!s) return out;
        std::string hier = s->modelHierarchy;
        if (hier.empty() && !s->hierarchies.empty()) hier = s->hierarchies.front();
        if (hier.empty()) return out;
        std::vector<std::string> folders{folder};
        if (hier.size() >= 2) folders.push_back("ART/W3D/" + normalizePath(hier.substr(0, 2)) + "/");
        if (folders.size() == 2 && folders[1] == folders[0]) folders.pop_back();
        for (const std::string& f : folders) {
            for (const std::string& k : t.list(f)) {
                if (k == key || extOf(k) != ".W3D") continue;
                if (const auto ks = headers(k))
                    for (const std::string& h : ks->clipHierarchies)
                        if (normalizePath(h) == normalizePath(hier)) {
                            out.push_back(k);
                            break;
                        }
            }
        }
    } else if (ext == ".W3X") {
        // The declarations of entry k (a loose file: its first 64 KiB, where the declarations' headers are).
        auto scanOf = [&](const std::string& k, bool whole) -> std::optional<w3x::DeclarationScan> {
            const Hit* h = t.find(k);
            if (!h) return std::nullopt;
            try {
                const vfs::Entry& e = t.entry(*h);
                if (!e.diskPath.empty()) {
                    const std::vector<uint8_t> b =
                        whole ? readFile(e.diskPath, w3x::kMaxFileBytes) : readFileHead(e.diskPath, 64 * 1024);
                    return w3x::scanDeclarations(ByteSpan(b));
                }
                return w3x::scanDeclarations(t.read(*h).span);
            } catch (const std::exception&) {
                return std::nullopt;
            }
        };
        const auto self = scanOf(key, true);
        if (!self) return out;
        std::string hier = self->containerHierarchy;
        for (const auto& [kind, id] : self->declarations)
            if (hier.empty() && kind == "W3DHierarchy") hier = id;
        if (hier.empty()) return out;
        for (const std::string& k : t.list(folder)) {
            if (k == key || extOf(k) != ".W3X") continue;
            if (const auto ks = scanOf(k, false))
                for (const std::string& h : ks->clipHierarchies)
                    if (normalizePath(h) == normalizePath(hier)) {
                        out.push_back(k);
                        break;
                    }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<std::string> animationLibraries(const MountTable& t, std::string_view modelKey) {
    std::vector<std::string> out;
    for (const std::string& k : t.list(folderOf(modelKey)))
        if (extOf(k) == ".AL") out.push_back(k);
    return out;
}

} // namespace rs::resolve
