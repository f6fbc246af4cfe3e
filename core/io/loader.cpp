#include "io/loader.h"

#include "alamo/alamo_reader.h"
#include "alamo/particle_reader.h"
#include "amal/amal_bank.h"
#include "bw2/al.h"
#include "bw2/bwm.h"
#include "vfs/lookup.h"
#include "common/file_read.h"
#include "texture/texture.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_reader.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>

namespace rs {

namespace fs = std::filesystem;

static const char* const kShockwaveRefusal =
    "this .w3d is a Shockwave 3D (Macromedia Director / Intel IFX) scene, not a Westwood W3D model; "
    "Shockwave 3D files are not supported";

static std::string extensionLower(const std::string& path) { return toLower(fs::path(path).extension().string()); }

std::string detectFormat(ByteSpan bytes, const std::string& path) {
    const std::string ext = extensionLower(path);
    if (ext == ".w3d") return w3d::isShockwave3D(bytes) ? "w3d-shockwave" : "w3d";
    if (bytes.size >= 8) {
        uint32_t id = uint32_t(bytes.data[0]) | uint32_t(bytes.data[1]) << 8 | uint32_t(bytes.data[2]) << 16 |
                      uint32_t(bytes.data[3]) << 24;
        if (id == 0x200 && ext != ".w3d") return "alo";
        if (id == 0x900 || id == 0x1500) return "alo-particle";
        if (id == 0x1000) return "ala";
        if (id == bw2::kAlMagic && ext != ".w3d") return "al";
    }
    // AMOS banks (.abk) and sources (.AMOS): the reader says clearly when no Amal bank is inside.
    if (amal::looksLikeAmosContainer(bytes)) return "amal";
    if (bytes.size >= 13 && std::memcmp(bytes.data, "LiOnHeAdMODEL", 13) == 0) return "bwm";
    // .bwm without the signature (e.g. KotOR walkmeshes): the bwm reader refuses it with a clear message.
    if (ext == ".bwm") return "bwm";
    if (ext == ".al") return "al";
    if (ext == ".alo") return "alo";
    if (ext == ".ala") return "ala";
    if (ext == ".abk") return "amal";
    if (bytes.size >= 16) {
        // W3D without its extension: a known top-level container whose first sub-chunk is its header.
        auto u32 = [&](size_t o) {
            return uint32_t(bytes.data[o]) | uint32_t(bytes.data[o + 1]) << 8 | uint32_t(bytes.data[o + 2]) << 16 |
                   uint32_t(bytes.data[o + 3]) << 24;
        };
        const uint32_t top = u32(0), sub = u32(8);
        if ((top == w3d::id::Mesh && sub == w3d::id::MeshHeader3) ||
            (top == w3d::id::Hierarchy && sub == w3d::id::HierarchyHeader) ||
            (top == w3d::id::CompressedAnimation && sub == w3d::id::CompressedAnimationHeader) ||
            (top == w3d::id::Hlod && sub == w3d::id::HlodHeader))
            return "w3d";
    }
    return "";
}

static Document loadDocumentUnguarded(ByteSpan bytes, const std::string& path, const LoadOptions& options);

uint64_t maxFileBytes(const std::string& format) {
    constexpr uint64_t MiB = uint64_t(1) << 20;
    if (format == "alo" || format == "alo-particle" || format == "ala" || format == "w3d" || format == "bwm" ||
        format == "al")
        return 256 * MiB;
    if (format == "amal") return 16 * MiB;
    if (format == "texture") return 512 * MiB;
    if (format == "w3d-shockwave") return 64; // refused by its header: no need for more
    return 0;
}

std::vector<uint8_t> readInputFile(const std::string& path) {
    const std::vector<uint8_t> head = readFileHead(path, 64);
    const ByteSpan h(head);
    const std::string format = isTexture(h, path) ? "texture" : detectFormat(h, path);
    if (format.empty()) throw ParseError(path, {}, 0, "unrecognised file format");
    // Known from its first bytes: say what the file is rather than refuse it by its size.
    if (format == "w3d-shockwave") throw ParseError(path, {}, 0, kShockwaveRefusal);
    static const std::map<std::string, std::string> names = {
        {"alo", "Alamo model"}, {"alo-particle", "Alamo file"},   {"ala", "Alamo clip"}, {"w3d", "W3D file"},
        {"bwm", "B&W2 model"},  {"al", "B&W2 animation library"}, {"amal", "AMOS file"}, {"texture", "texture"}};
    const auto it = names.find(format);
    const uint64_t cap = std::max<uint64_t>(maxFileBytes(format), head.size());
    return readFile(path, cap, it != names.end() ? it->second : format + " file");
}

Document loadDocument(const std::string& path, const LoadOptions& options) {
    try {
        std::error_code ec;
        if (!fs::exists(path, ec) || vfs::sessionMount()) {
            // "<archive>:<entry>", or references looked up through the session's game folders (vfs/lookup.h).
            std::string key;
            if (auto t = vfs::tableFor(path, &key)) {
                const vfs::Hit* h = t->find(key);
                if (!h) throw ParseError(path, {}, ParseError::kNoOffset, "no such entry in the archive");
                const vfs::EntryBytes b = t->read(*h);
                return vfs::loadDocument(*t, b.span, path, key);
            }
        }
        std::vector<uint8_t> bytes = readInputFile(path);
        return loadDocument(ByteSpan(bytes), path, options);
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset, "out of memory while loading the file");
    }
}

Document loadDocument(ByteSpan bytes, const std::string& path, const LoadOptions& options) {
    try {
        return loadDocumentUnguarded(bytes, path, options);
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset,
                         "out of memory while loading the file (" + std::to_string(bytes.size) + " bytes)");
    }
}

// Entry of dir whose name equals `name` case-insensitively (the smallest such name), or empty.
static fs::path findEntryNoCase(const fs::path& dir, const std::string& name, bool wantDir) {
    const std::string want = toLower(name);
    std::error_code ec;
    fs::path found;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string fn = it->path().filename().string();
        if (toLower(fn) != want) continue;
        if (wantDir ? !it->is_directory(ec) : !it->is_regular_file(ec)) continue;
        if (found.empty() || fn < found.filename().string()) found = it->path();
    }
    return found;
}

std::string findW3dHierarchyFile(const std::string& modelPath, const std::string& name) {
    if (name.empty()) return {};
    const fs::path modelDir = fs::path(modelPath).has_parent_path() ? fs::path(modelPath).parent_path() : fs::path(".");
    if (std::string sib = w3d::findSibling(modelDir.string(), name); !sib.empty()) return sib;
    // SAGE layout: <...>/art/w3d/<xx>/<name>.w3d, xx = the first two letters of the name.
    if (name.size() < 2) return {};
    std::error_code ec;
    fs::path dir = fs::absolute(modelDir, ec);
    if (ec) return {};
    for (; !dir.empty(); dir = dir.parent_path()) {
        if (toLower(dir.filename().string()) == "w3d" && toLower(dir.parent_path().filename().string()) == "art") {
            const fs::path sub = findEntryNoCase(dir, name.substr(0, 2), true);
            if (sub.empty()) return {};
            const fs::path f = findEntryNoCase(sub, name + ".w3d", false);
            return f.empty() ? std::string() : f.string();
        }
        if (dir == dir.parent_path()) break;
    }
    return {};
}

std::string w3dExternalHierarchy(const std::string& path) {
    w3d::HeaderScan scan;
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        scan = w3d::scanHeaders(path);
    } else { // "<archive>:<entry>" or a game path of the session mount
        try {
            std::string key;
            if (const auto t = vfs::tableFor(path, &key))
                if (const vfs::Hit* h = t->find(key)) scan = w3d::scanHeaders(t->read(*h).span);
        } catch (const std::exception&) {
        }
    }
    std::string need = scan.modelHierarchy;
    if (need.empty() && scan.hierarchies.empty() && !scan.clipHierarchies.empty()) need = scan.clipHierarchies.front();
    for (const std::string& h : scan.hierarchies)
        if (toLower(h) == toLower(need)) return {};
    return need;
}

static Document loadDocumentUnguarded(ByteSpan bytes, const std::string& path, const LoadOptions& options) {
    Document d;
    d.path = path;
    d.format = detectFormat(bytes, path);
    if (d.format == "alo") {
        d.model = std::make_shared<Model>(alamo::readModel(bytes, path));
    } else if (d.format == "alo-particle") {
        d.particles = std::make_shared<ParticleSystem>(alamo::readParticleSystem(bytes, path));
        d.warnings = d.particles->warnings;
    } else if (d.format == "w3d") {
        // A skeleton the user chose, else next to the file and in the SAGE art/w3d/<xx>/ layout.
        d = options.w3dHierarchyFile.empty() ? w3d::loadSet(bytes, path)
                                             : w3d::loadSet(bytes, path, options.w3dHierarchyFile);
    } else if (d.format == "w3d-shockwave") {
        throw ParseError(path, {}, 0, kShockwaveRefusal);
    } else if (d.format == "ala") {
        d.clips.push_back(std::make_shared<Clip>(alamo::readClip(bytes, path)));
    } else if (d.format == "amal") {
        // No Model: the 2D AMAL view reads the bank itself (amal/amal_bank.h). Validate it here.
        const amal::BankFile f = amal::readBankFile(bytes, path);
        const amal::Bank& b = amal::requireAmalBank(f);
        d.warnings = f.warnings;
        d.warnings.insert(d.warnings.end(), b.warnings.begin(), b.warnings.end());
    } else if (d.format == "bwm") {
        d.model = std::make_shared<Model>(bw2::readBwm(bytes, path));
    } else if (d.format == "al") {
        bw2::AlFile al = bw2::parseAl(bytes, path);
        d.model = std::make_shared<Model>(bw2::armatureModel(al, path));
        for (size_t i = 0; i < al.animations.size(); ++i)
            d.clips.push_back(std::make_shared<Clip>(bw2::toClip(al, i)));
    } else {
        throw ParseError(path, {}, 0, "unrecognised file format");
    }
    return d;
}

std::vector<std::string> findCompanionClips(const std::string& modelPath) {
    // The model's folder (or archive) over the session's game folders: the game's lookup (vfs/lookup.h).
    // Clips are returned as loadDocument paths: files on disk, or "<archive>:<entry>".
    std::string key;
    std::vector<std::string> out;
    std::shared_ptr<vfs::MountTable> t;
    try {
        t = vfs::tableFor(modelPath, &key);
    } catch (const ParseError&) {
    }
    if (!t) return out;
    for (const std::string& k : vfs::companionClips(*t, key))
        out.push_back(t->describe(*t->find(k)));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace rs
