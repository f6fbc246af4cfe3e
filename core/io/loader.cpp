#include "io/loader.h"

#include "alamo/alamo_reader.h"
#include "amal/amal_bank.h"
#include "bw2/al.h"
#include "bw2/bwm.h"
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

static std::string extensionLower(const std::string& path) {
    return toLower(fs::path(path).extension().string());
}

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

static Document loadDocumentUnguarded(ByteSpan bytes, const std::string& path);

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
    static const std::map<std::string, std::string> names = {
        {"alo", "Alamo model"}, {"alo-particle", "Alamo file"},   {"ala", "Alamo clip"}, {"w3d", "W3D file"},
        {"bwm", "B&W2 model"},  {"al", "B&W2 animation library"}, {"amal", "AMOS file"}, {"texture", "texture"}};
    const auto it = names.find(format);
    const uint64_t cap = std::max<uint64_t>(maxFileBytes(format), head.size());
    return readFile(path, cap, it != names.end() ? it->second : format + " file");
}

Document loadDocument(const std::string& path) {
    try {
        std::vector<uint8_t> bytes = readInputFile(path);
        return loadDocument(ByteSpan(bytes), path);
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset, "out of memory while loading the file");
    }
}

Document loadDocument(ByteSpan bytes, const std::string& path) {
    try {
        return loadDocumentUnguarded(bytes, path);
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset,
                         "out of memory while loading the file (" + std::to_string(bytes.size) + " bytes)");
    }
}

static Document loadDocumentUnguarded(ByteSpan bytes, const std::string& path) {
    Document d;
    d.path = path;
    d.format = detectFormat(bytes, path);
    if (d.format == "alo") {
        d.model = std::make_shared<Model>(alamo::readModel(bytes, path));
    } else if (d.format == "alo-particle") {
        throw ParseError(path, hex(bytes.data[0] | bytes.data[1] << 8), 0,
                         "this .alo is an Alamo particle system, not a model; particle systems are not supported");
    } else if (d.format == "w3d") {
        d = w3d::loadSet(bytes, path);
    } else if (d.format == "w3d-shockwave") {
        throw ParseError(path, {}, 0,
                         "this .w3d is a Shockwave 3D (Macromedia Director / Intel IFX) scene, not a Westwood W3D model; "
                         "Shockwave 3D files are not supported");
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
    if (extensionLower(modelPath) == ".w3d") return w3d::findCompanionClips(modelPath);
    std::vector<std::string> out;
    std::error_code ec;
    fs::path p(modelPath);
    fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    const std::string stem = toLower(p.stem().string()) + "_";
    const std::string ext = extensionLower(modelPath);
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string name = it->path().filename().string();
        const std::string lower = toLower(name);
        if (ext == ".alo" && extensionLower(name) == ".ala" && lower.rfind(stem, 0) == 0)
            out.push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace rs
