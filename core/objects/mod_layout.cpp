#include "objects/mod_layout.h"

#include "vfs/mount.h"

#include <algorithm>
#include <map>

namespace rs::objects {

namespace {

// The prefix of `key` before the first occurrence of `part` that starts a path segment ("" when the part starts the
// key); false when none does.
bool prefixBefore(const std::string& key, const std::string& part, std::string& prefix) {
    for (size_t at = key.find(part); at != std::string::npos; at = key.find(part, at + 1))
        if (at == 0 || key[at - 1] == '/') {
            prefix = key.substr(0, at);
            return true;
        }
    return false;
}

size_t depthOf(const std::string& prefix) { return size_t(std::count(prefix.begin(), prefix.end(), '/')); }

} // namespace

ModLayout findModLayout(const vfs::MountTable& table, int maxDepth) {
    // Folder on disk -> depth below its mount, for definitions and art.
    std::map<std::string, size_t> defs, art;
    const size_t limit = size_t(std::max(0, maxDepth));
    table.forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
        if (hits.empty()) return;
        std::string prefix;
        std::map<std::string, size_t>* into = nullptr;
        if ((prefixBefore(key, "DATA/XML/GAMEOBJECTFILES.XML", prefix) && prefix.size() + 28 == key.size()) ||
            prefixBefore(key, "DATA/INI/", prefix))
            into = &defs;
        else if (prefixBefore(key, "ART/W3D/", prefix) || prefixBefore(key, "ART/TEXTURES/", prefix) ||
                 prefixBefore(key, "ART/COMPILEDTEXTURES/", prefix))
            into = &art;
        if (!into || prefix.empty() || depthOf(prefix) > limit) return;
        // "MOD/BIG/" of a key whose SAGE art root is "MOD/BIG/DATA/": the definitions' folder counts (EaW art).
        if (into == &art && prefix.size() >= 5 && prefix.compare(prefix.size() - 5, 5, "DATA/") == 0)
            prefix.resize(prefix.size() - 5);
        if (prefix.empty()) return;
        const vfs::Mount& mount = table.mountOf(hits.front());
        const vfs::Entry& e = table.entry(hits.front());
        if (mount.source->kind() != "folder" || e.name.size() < prefix.size() ||
            vfs::normalizePath(e.name.substr(0, prefix.size())) != prefix)
            return;
        std::string folder = mount.source->label();
        if (!folder.empty() && folder.back() != '/') folder += '/';
        folder += e.name.substr(0, prefix.size() - 1);
        into->emplace(folder, depthOf(prefix));
    });
    auto ordered = [](const std::map<std::string, size_t>& m) {
        std::vector<std::pair<size_t, std::string>> v;
        for (const auto& [f, d] : m)
            v.emplace_back(d, f);
        std::sort(v.begin(), v.end());
        std::vector<std::string> out;
        for (const auto& [d, f] : v)
            out.push_back(f);
        return out;
    };
    ModLayout out;
    out.definitionFolders = ordered(defs);
    for (const std::string& f : ordered(art))
        if (std::find(out.definitionFolders.begin(), out.definitionFolders.end(), f) == out.definitionFolders.end())
            out.artFolders.push_back(f);
    return out;
}

std::string noObjectDatabaseMessage(const ModLayout& layout) {
    std::string s = "no object database (neither Data/XML/GameObjectFiles.xml nor data/ini/object/ at the top of the "
                    "mounted folders)";
    if (layout.definitionFolders.empty()) {
        if (!layout.artFolders.empty()) {
            s += "; art was found in ";
            for (size_t i = 0; i < layout.artFolders.size(); ++i)
                s += (i ? ", " : "") + layout.artFolders[i];
            s += " but no definitions";
        }
        return s;
    }
    auto join = [](const std::vector<std::string>& v) {
        std::string j;
        for (size_t i = 0; i < v.size(); ++i)
            j += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
        return j;
    };
    s += "; the definitions are in " + join(layout.definitionFolders);
    if (!layout.artFolders.empty()) s += " and the art in " + join(layout.artFolders);
    s += ": mount them together with";
    for (const auto* list : {&layout.definitionFolders, &layout.artFolders})
        for (const std::string& f : *list)
            s += " --mod " + f;
    return s;
}

} // namespace rs::objects
