#include "vfs/lookup.h"

#include "w3d/w3d_reader.h"

#include <algorithm>
#include <filesystem>
#include <mutex>

namespace rs::vfs {

static std::mutex gSessionMutex;
static std::shared_ptr<const MountTable> gSession;

void setSessionMount(std::shared_ptr<const MountTable> table) {
    std::lock_guard<std::mutex> lock(gSessionMutex);
    gSession = std::move(table);
}

std::shared_ptr<const MountTable> sessionMount() {
    std::lock_guard<std::mutex> lock(gSessionMutex);
    return gSession;
}

std::string archiveOf(const std::string& path) {
    std::error_code ec;
    for (size_t c = path.find(':'); c != std::string::npos; c = path.find(':', c + 1))
        if (c > 0 && std::filesystem::is_regular_file(path.substr(0, c), ec)) return path.substr(0, c);
    return {};
}

std::shared_ptr<MountTable> tableFor(const std::string& path, std::string* key) {
    namespace fs = std::filesystem;
    auto t = std::make_shared<MountTable>();
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        const fs::path p(path);
        t->add(
            std::make_shared<Folder>(p.has_parent_path() ? p.parent_path().string() : ".", std::string(), false, false),
            "folder");
        if (key) *key = normalizePath(p.filename().string());
    } else {
        const std::string archive = archiveOf(path);
        if (archive.empty()) {
            // A game path ("DATA/ART/MODELS/X.ALO") inside the session's game and mod folders.
            const auto s = sessionMount();
            if (!s || !s->contains(path)) return nullptr;
            if (key) *key = normalizePath(path);
        } else {
            t->add(openArchiveFile(archive), "archive");
            if (key) *key = normalizePath(path.substr(archive.size() + 1));
        }
    }
    if (const auto s = sessionMount())
        for (const Mount& m : s->mounts())
            t->add(m.source, m.role);
    return t;
}

std::string findBeside(const std::string& modelPath, std::string_view name) {
    static std::mutex cacheMutex;
    static std::string cachedPath, cachedKey;
    static std::shared_ptr<const MountTable> cachedSession;
    static std::shared_ptr<MountTable> cached;
    std::shared_ptr<MountTable> t;
    std::string key;
    {
        std::lock_guard<std::mutex> lock(cacheMutex);
        const auto session = sessionMount();
        if (!cached || cachedPath != modelPath || cachedSession != session) {
            cached.reset();
            try {
                cached = tableFor(modelPath, &cachedKey);
            } catch (const ParseError&) {
            }
            std::error_code ec;
            const std::filesystem::path p(modelPath);
            if (!cached && p.has_parent_path() && std::filesystem::is_directory(p.parent_path(), ec)) {
                // A model read elsewhere but named by a path on disk: its folder, then the session mount.
                cached = std::make_shared<MountTable>();
                cached->add(std::make_shared<Folder>(p.parent_path().string(), std::string(), false, false), "folder");
                if (session)
                    for (const Mount& m : session->mounts())
                        cached->add(m.source, m.role);
                cachedKey = normalizePath(p.filename().string());
            }
            cachedPath = modelPath;
            cachedSession = session;
        }
        t = cached;
        key = cachedKey;
    }
    if (!t) return {};
    const Hit* h = t->find(folderOf(key) + normalizePath(name));
    if (!h || t->entry(*h).key == key) return {};
    return t->describe(*h);
}

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

std::vector<std::string> textureCandidates(std::string_view name, std::string_view modelKey) {
    const std::string key = normalizePath(name);
    const std::string file = baseName(key);
    std::vector<std::string> out;
    if (file.empty()) return out;
    std::vector<std::string> files{file};
    const std::string ext = extOf(file);
    if (ext == ".TGA")
        files.push_back(stemOf(file) + ".DDS");
    else if (ext == ".DDS")
        files.push_back(stemOf(file) + ".TGA");
    std::vector<std::string> dirs{folderOf(modelKey), "DATA/ART/TEXTURES/", "ART/TEXTURES/"};
    if (file.size() >= 2) {
        const std::string two = file.substr(0, 2);
        dirs.push_back("ART/COMPILEDTEXTURES/" + two + "/");
        dirs.push_back("COMPILEDTEXTURES/" + two + "/");
    }
    for (const std::string& d : dirs)
        for (const std::string& f : files)
            if (std::find(out.begin(), out.end(), d + f) == out.end()) out.push_back(d + f);
    if (key != file && std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
    return out;
}

const Hit* resolveTexture(const MountTable& t, std::string_view name, std::string_view modelKey) {
    for (const std::string& c : textureCandidates(name, modelKey))
        if (const Hit* h = t.find(c)) return h;
    return nullptr;
}

std::string resolveTextureFor(const MountTable& t, std::string_view name, std::string_view modelPath) {
    const Hit* h = resolveTexture(t, name, t.keyFor(modelPath));
    return h ? t.describe(*h) : std::string();
}

bool readDescribed(const MountTable& t, std::string_view described, std::vector<uint8_t>& out) {
    const Source* src = nullptr;
    const Entry* e = t.findDescribed(described, &src);
    if (!e) return false;
    const EntryBytes b = src->read(*e);
    out.assign(b.span.data, b.span.data + b.span.size);
    return true;
}

static std::vector<std::string> hierarchyCandidates(std::string_view name, std::string_view modelKey) {
    const std::string file = normalizePath(name) + ".W3D";
    std::vector<std::string> c{folderOf(modelKey) + file};
    if (file.size() >= 6) c.push_back("ART/W3D/" + file.substr(0, 2) + "/" + file);
    c.push_back("ART/W3D/" + file);
    return c;
}

const Hit* findW3dHierarchy(const MountTable& t, std::string_view name, std::string_view modelKey) {
    for (const std::string& c : hierarchyCandidates(name, modelKey))
        if (const Hit* h = t.find(c)) return h;
    return nullptr;
}

std::vector<std::string> companionClips(const MountTable& t, std::string_view modelKey) {
    const std::string key = normalizePath(modelKey);
    const std::string folder = folderOf(key), file = baseName(key), ext = extOf(file);
    std::vector<std::string> out;
    if (ext == ".ALO") {
        const std::string prefix = folder + stemOf(file) + "_";
        for (const std::string& k : t.list(folder))
            if (k.compare(0, prefix.size(), prefix) == 0 && extOf(k) == ".ALA") out.push_back(k);
    } else if (ext == ".W3D") {
        const Hit* self = t.find(key);
        if (!self) return out;
        const EntryBytes sb = t.read(*self);
        const w3d::HeaderScan s = w3d::scanHeaders(sb.span);
        std::string hier = s.modelHierarchy;
        if (hier.empty() && !s.hierarchies.empty()) hier = s.hierarchies.front();
        if (hier.empty()) return out;
        std::vector<std::string> folders{folder};
        if (hier.size() >= 2) folders.push_back("ART/W3D/" + normalizePath(hier.substr(0, 2)) + "/");
        if (folders.size() == 2 && folders[1] == folders[0]) folders.pop_back();
        for (const std::string& f : folders) {
            for (const std::string& k : t.list(f)) {
                if (k == key || extOf(k) != ".W3D") continue;
                try {
                    const EntryBytes b = t.read(*t.find(k));
                    for (const std::string& h : w3d::scanHeaders(b.span).clipHierarchies)
                        if (normalizePath(h) == normalizePath(hier)) {
                            out.push_back(k);
                            break;
                        }
                } catch (const ParseError&) {
                }
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

Document loadDocument(const MountTable& t, ByteSpan bytes, const std::string& label, std::string_view key) {
    const std::string k = normalizePath(key);
    if (detectFormat(bytes, label) != "w3d") return rs::loadDocument(bytes, label);
    return w3d::loadSet(bytes, label, [&](const std::string& name, std::vector<uint8_t>& out, std::string& where) {
        const Hit* h = findW3dHierarchy(t, name, k);
        if (!h || t.entry(*h).key == k) return false;
        try {
            const EntryBytes b = t.read(*h);
            out.assign(b.span.data, b.span.data + b.span.size);
        } catch (const ParseError&) {
            return false;
        }
        where = t.describe(*h);
        return true;
    });
}

Document loadDocument(const MountTable& t, std::string_view key) {
    const Hit* h = t.find(key);
    if (!h) throw ParseError(std::string(key), {}, 0, "not found in the mounted game and mod folders");
    const EntryBytes b = t.read(*h);
    return loadDocument(t, b.span, t.describe(*h), key);
}

bool globMatch(std::string_view pat, std::string_view s) {
    size_t p = 0, i = 0, star = std::string::npos, mark = 0;
    while (i < s.size()) {
        if (p < pat.size() && (pat[p] == '?' || pat[p] == s[i]))
            ++p, ++i;
        else if (p < pat.size() && pat[p] == '*')
            star = p++, mark = i;
        else if (star != std::string::npos)
            p = star + 1, i = ++mark;
        else
            return false;
    }
    while (p < pat.size() && pat[p] == '*')
        ++p;
    return p == pat.size();
}

} // namespace rs::vfs
