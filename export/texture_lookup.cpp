#include "texture_lookup.h"

#include "vfs/lookup.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace rs::gltf {

static std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Entry of `dir` whose name equals `name` case-insensitively (exact match first); empty when none.
static fs::path childNoCase(const fs::path& dir, const std::string& name, bool wantDir) {
    std::error_code ec;
    const fs::path exact = dir / name;
    if (wantDir ? fs::is_directory(exact, ec) : fs::is_regular_file(exact, ec)) return exact;
    const std::string want = lower(name);
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        if (lower(it->path().filename().string()) != want) continue;
        std::error_code e2;
        if (wantDir ? it->is_directory(e2) : it->is_regular_file(e2)) return it->path();
    }
    return {};
}

// Walks a relative folder path ("Data/Art/Textures") below `base` case-insensitively.
static fs::path subdirNoCase(const fs::path& base, const std::string& rel) {
    fs::path cur = base;
    size_t start = 0;
    while (start <= rel.size()) {
        size_t slash = rel.find('/', start);
        if (slash == std::string::npos) slash = rel.size();
        const std::string part = rel.substr(start, slash - start);
        if (!part.empty()) {
            cur = childNoCase(cur, part, true);
            if (cur.empty()) return {};
        }
        start = slash + 1;
    }
    return cur;
}

FolderTextureLookup::FolderTextureLookup(const std::string& modelPath, std::vector<std::string> extraDirs)
    : extraDirs_(std::move(extraDirs)) {
    fs::path p(modelPath);
    modelDir_ = p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

static std::string baseName(const std::string& name) {
    const size_t cut = name.find_last_of("/\\");
    return cut == std::string::npos ? name : name.substr(cut + 1);
}

std::vector<std::string> FolderTextureLookup::searchDirs(const std::string& name) const {
    std::vector<std::string> out;
    std::error_code ec;
    auto add = [&](const fs::path& d) {
        if (d.empty() || !fs::is_directory(d, ec)) return;
        const std::string s = d.lexically_normal().string();
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    };
    for (const auto& d : extraDirs_)
        add(d);
    add(modelDir_);
    const std::string file = baseName(name);
    const std::string two = lower(file.substr(0, std::min<size_t>(2, file.size())));
    fs::path dir = fs::absolute(modelDir_, ec);
    for (int up = 0; up <= 4 && !dir.empty(); ++up) {
        for (const char* rel : {"Textures", "Art/Textures", "Data/Art/Textures"})
            add(subdirNoCase(dir, rel));
        if (!two.empty()) {
            add(subdirNoCase(dir, "compiledtextures/" + two));
            add(subdirNoCase(dir, "art/compiledtextures/" + two));
        }
        if (!dir.has_parent_path() || dir.parent_path() == dir) break;
        dir = dir.parent_path();
    }
    return out;
}

bool FolderTextureLookup::find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) {
    const std::string file = baseName(name);
    if (file.empty() || file == "." || file == "..") return false;
    std::vector<std::string> candidates{file};
    const size_t dot = file.find_last_of('.');
    const std::string stem = dot == std::string::npos ? file : file.substr(0, dot);
    const std::string ext = dot == std::string::npos ? std::string() : lower(file.substr(dot));
    if (ext == ".tga")
        candidates.push_back(stem + ".dds");
    else if (ext == ".dds")
        candidates.push_back(stem + ".tga");
    else if (ext.empty())
        candidates.insert(candidates.end(), {stem + ".dds", stem + ".tga"});
    for (const std::string& dir : searchDirs(name)) {
        for (const std::string& c : candidates) {
            const fs::path hit = childNoCase(dir, c, false);
            if (hit.empty()) continue;
            std::ifstream in(hit, std::ios::binary);
            if (!in) throw std::runtime_error(hit.string() + ": cannot open texture");
            bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            if (in.bad()) throw std::runtime_error(hit.string() + ": cannot read texture");
            path = hit.string();
            return true;
        }
    }
    return false;
}

MountTextureLookup::MountTextureLookup(std::shared_ptr<const vfs::MountTable> table, std::string modelKey,
                                       std::unique_ptr<TextureLookup> fallback, bool tableFirst)
    : table_(std::move(table)), modelKey_(std::move(modelKey)), fallback_(std::move(fallback)),
      tableFirst_(tableFirst) {}

bool MountTextureLookup::findInTable(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) {
    if (!table_) return false;
    const vfs::Hit* h = vfs::resolveTexture(*table_, name, modelKey_);
    if (!h) return false;
    path = table_->describe(*h);
    // Unreadable entries (encrypted, compressed) throw ParseError naming the archive and entry.
    const vfs::EntryBytes b = table_->read(*h);
    bytes.assign(b.span.data, b.span.data + b.span.size);
    return true;
}

bool MountTextureLookup::find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) {
    if (tableFirst_ && findInTable(name, path, bytes)) return true;
    if (fallback_ && fallback_->find(name, path, bytes)) return true;
    return !tableFirst_ && findInTable(name, path, bytes);
}

std::unique_ptr<TextureLookup> viewerTextureLookup(const std::string& modelPath, std::vector<std::string> extraDirs) {
    std::string key;
    std::shared_ptr<vfs::MountTable> table;
    try {
        table = vfs::tableFor(modelPath, &key);
    } catch (const std::exception&) { // an archive that cannot be opened: the disk search alone
    }
    std::error_code ec;
    const bool tableFirst = !fs::is_regular_file(modelPath, ec) || vfs::sessionMount() != nullptr;
    return std::make_unique<MountTextureLookup>(
        std::move(table), key, std::make_unique<FolderTextureLookup>(modelPath, std::move(extraDirs)), tableFirst);
}

} // namespace rs::gltf
