#include "formats/formats.h"

#include "alamo/alamo_chunks.h"
#include "alamo/alamo_reader.h"
#include "alamo/particle_reader.h"
#include "amal/amal_bank.h"
#include "bw2/al.h"
#include "bw2/bwm.h"
#include "common/error.h"
#include "common/file_read.h"
#include "texture/texture.h"
#include "vfs/archive.h"
#include "w3d/w3d_chunks.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

namespace rs {
namespace {

constexpr uint64_t MiB = uint64_t(1) << 20;

const char* const kShockwaveRefusal =
    "this .w3d is a Shockwave 3D (Macromedia Director / Intel IFX) scene, not a Westwood W3D model; "
    "Shockwave 3D files are not supported";

Document readAlamoModel(ByteSpan bytes, const ReadContext& c) {
    Document d;
    d.model = std::make_shared<Model>(alamo::readModel(bytes, c.label));
    return d;
}

Document readAlamoParticles(ByteSpan bytes, const ReadContext& c) {
    Document d;
    d.particles = std::make_shared<ParticleSystem>(alamo::readParticleSystem(bytes, c.label));
    d.warnings = d.particles->warnings;
    return d;
}

Document readAlamoClip(ByteSpan bytes, const ReadContext& c) {
    Document d;
    d.clips.push_back(std::make_shared<Clip>(alamo::readClip(bytes, c.label)));
    return d;
}

Document readW3d(ByteSpan bytes, const ReadContext& c) { return w3d::loadSet(bytes, c.label, c.hierarchy); }

Document readW3x(ByteSpan bytes, const ReadContext& c) { return w3x::loadSet(bytes, c.label, c.w3x); }

Document refuseShockwave(ByteSpan, const ReadContext& c) { throw ParseError(c.label, {}, 0, kShockwaveRefusal); }

Document readBwm(ByteSpan bytes, const ReadContext& c) {
    Document d;
    d.model = std::make_shared<Model>(bw2::readBwm(bytes, c.label));
    return d;
}

Document readAl(ByteSpan bytes, const ReadContext& c) {
    Document d;
    bw2::AlFile al = bw2::parseAl(bytes, c.label);
    d.model = std::make_shared<Model>(bw2::armatureModel(al, c.label));
    for (size_t i = 0; i < al.animations.size(); ++i)
        d.clips.push_back(std::make_shared<Clip>(bw2::toClip(al, i)));
    return d;
}

// No Model: the 2D AMAL view reads the bank itself (amal/amal_bank.h). Validated here.
Document readAmal(ByteSpan bytes, const ReadContext& c) {
    Document d;
    const amal::BankFile f = amal::readBankFile(bytes, c.label);
    const amal::Bank& b = amal::requireAmalBank(f);
    d.warnings = f.warnings;
    d.warnings.insert(d.warnings.end(), b.warnings.begin(), b.warnings.end());
    return d;
}

// B&W2 animation libraries: the fields are not mapped; the file is kept whole.
SourceTree alSource(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    return wholeFileTree(std::move(bytes), label, "animation library");
}

SourceFn sourceOf(Format f) {
    switch (f) {
    case Format::AlamoModel:
    case Format::AlamoParticles:
    case Format::AlamoClip:
        return alamo::sourceTree;
    case Format::W3d:
        return w3d::sourceTree;
    case Format::Bw2Model:
        return bw2::sourceTree;
    case Format::Bw2Library:
        return alSource;
    case Format::Amal:
        return amal::sourceTree;
    case Format::Meg:
    case Format::Big:
        return vfs::archiveSourceTree;
    default:
        return nullptr;
    }
}

const MimeType kAlamoMime{"model/x-alamo",
                          "Petroglyph Alamo model",
                          {"*.alo"},
                          {{"little32", 0, "0x00000200"}, {"little32", 0, "0x00000900"}, {"little32", 0, "0x00001500"}},
                          40,
                          "image-x-generic"};

std::vector<FormatInfo> makeTable() {
    constexpr unsigned clips = kCompanionClips, textures = kCompanionTextures;
    std::vector<FormatInfo> t;
    t.push_back({Format::AlamoModel,
                 "alo",
                 "Alamo model",
                 "Alamo models and clips",
                 {".alo"},
                 {kAlamoMime},
                 256 * MiB,
                 UpAxis::Z,
                 true,
                 clips | textures | kCompanionProxies,
                 true,
                 readAlamoModel});
    t.push_back({Format::AlamoParticles,
                 "alo-particle",
                 "Alamo file",
                 "Alamo models and clips",
                 {".alo"},
                 {},
                 256 * MiB,
                 UpAxis::Z,
                 false,
                 textures,
                 false,
                 readAlamoParticles});
    t.push_back({Format::AlamoClip,
                 "ala",
                 "Alamo clip",
                 "Alamo models and clips",
                 {".ala"},
                 {{"application/x-alamo-animation",
                   "Petroglyph Alamo animation",
                   {"*.ala"},
                   {{"little32", 0, "0x00001000"}},
                   40}},
                 256 * MiB,
                 UpAxis::Z,
                 false,
                 0,
                 true,
                 readAlamoClip});
    t.push_back({Format::W3d,
                 "w3d",
                 "W3D file",
                 "Westwood W3D",
                 {".w3d"},
                 {{"model/x-w3d", "Westwood W3D model or animation", {"*.w3d"}, {}, 50, "image-x-generic"}},
                 256 * MiB,
                 UpAxis::Z,
                 true,
                 clips | textures | kCompanionHierarchy,
                 true,
                 readW3d});
    // XML: the magic is the root element near the start (after a BOM and the XML declaration).
    t.push_back({Format::W3x,
                 "w3x",
                 "W3X file",
                 "SAGE W3X (C&C 3, Red Alert 3, BFME II SDK)",
                 {".w3x"},
                 {{"model/x-w3x",
                   "SAGE W3X model or animation (XML)",
                   {"*.w3x"},
                   {{"string", 0, "<AssetDeclaration", nullptr, 0, nullptr, 256}},
                   60,
                   "image-x-generic"}},
                 w3x::kMaxFileBytes,
                 UpAxis::Z,
                 true,
                 clips | textures | kCompanionHierarchy,
                 true,
                 readW3x});
    t.push_back({Format::W3dShockwave,
                 "w3d-shockwave",
                 "Shockwave 3D file",
                 "",
                 {".w3d"},
                 {},
                 64,
                 UpAxis::Z,
                 false,
                 0,
                 false,
                 refuseShockwave});
    t.push_back({Format::Bw2Model,
                 "bwm",
                 "B&W2 model",
                 "Black & White 2",
                 {".bwm"},
                 {{"model/x-bw2-bwm",
                   "Black & White 2 model",
                   {"*.bwm"},
                   {{"string", 0, "LiOnHeAdMODEL"}},
                   60,
                   "image-x-generic"}},
                 256 * MiB,
                 UpAxis::Y,
                 false,
                 textures | kCompanionLibraries,
                 true,
                 readBwm});
    t.push_back({Format::Bw2Library,
                 "al",
                 "B&W2 animation library",
                 "Black & White 2",
                 {".al"},
                 {{"application/x-bw2-animation-library", "Black & White 2 animation library", {"*.al"}, {}, 50}},
                 256 * MiB,
                 UpAxis::Y,
                 false,
                 0,
                 true,
                 readAl});
    t.push_back({Format::Amal,
                 "amal",
                 "AMOS file",
                 "AMOS AMAL banks",
                 {".abk", ".amos"},
                 {{"application/x-amos-bank",
                   "AMOS bank",
                   {"*.abk"},
                   {{"string", 0, "AmBk"}, {"string", 0, "AmSp"}, {"string", 0, "AmIc"}},
                   60},
                  {"application/x-amos-source",
                   "AMOS Basic program",
                   {"*.amos"},
                   {{"string", 0, "AMOS Basic"}, {"string", 0, "AMOS Pro"}},
                   60}},
                 16 * MiB,
                 UpAxis::Z,
                 false,
                 0,
                 true,
                 readAmal});
    // 16384^2 DXT5 with its mips is 341 MiB.
    t.push_back({Format::Texture,
                 "texture",
                 "texture",
                 "",
                 {".dds", ".tga"},
                 {},
                 512 * MiB,
                 UpAxis::Z,
                 false,
                 0,
                 false,
                 nullptr});
    t.push_back({Format::Meg,
                 "meg",
                 "MEG archive",
                 "",
                 {".meg"},
                 {{"application/x-petroglyph-meg",
                   "Petroglyph MEG archive",
                   {"*.meg"},
                   {{"big32", 0, "0xffffffff", "big32", 4, "0xa4707d3f"}},
                   60,
                   "package-x-generic"}},
                 0,
                 UpAxis::Z,
                 false,
                 0,
                 false,
                 nullptr});
    t.push_back({Format::Big,
                 "big",
                 "BIG archive",
                 "",
                 {".big"},
                 {{"application/x-ea-big",
                   "EA BIG archive",
                   {"*.big"},
                   {{"string", 0, "BIGF"}, {"string", 0, "BIG4"}},
                   60,
                   "package-x-generic"}},
                 0,
                 UpAxis::Z,
                 false,
                 0,
                 false,
                 nullptr});
    // No header (the directory's offset is in the last 4 bytes): known by its name only.
    t.push_back({Format::Stuff,
                 "stuff",
                 "B&W2 .stuff archive",
                 "",
                 {".stuff"},
                 {{"application/x-bw2-stuff", "Black & White 2 archive", {"*.stuff"}, {}, 50, "package-x-generic"}},
                 0,
                 UpAxis::Y,
                 false,
                 0,
                 false,
                 nullptr});
    // The source tree builder of each format rigscope writes back (read, edit, write: docs/ARCHITECTURE.md).
    for (FormatInfo& f : t)
        f.source = sourceOf(f.id);
    return t;
}

const FormatInfo kUnknown{Format::Unknown, "", "file", "", {}, {}, 0, UpAxis::Z, false, 0, false, nullptr};

std::string lowerExtension(std::string_view path) {
    const size_t slash = path.find_last_of("/\\:");
    const size_t dot = path.rfind('.');
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
    std::string e(path.substr(dot));
    for (char& ch : e)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return e;
}

uint32_t le32(ByteSpan b, size_t o) {
    return uint32_t(b.data[o]) | uint32_t(b.data[o + 1]) << 8 | uint32_t(b.data[o + 2]) << 16 |
           uint32_t(b.data[o + 3]) << 24;
}

std::string xmlEscape(const char* s) {
    std::string out;
    for (; *s; ++s)
        out += *s == '&'   ? "&amp;"
               : *s == '<' ? "&lt;"
               : *s == '>' ? "&gt;"
               : *s == '"' ? "&quot;"
                           : std::string(1, *s);
    return out;
}

// Every distinct MIME type of the registry, in table order.
std::vector<const MimeType*> mimeTypes(bool thumbnailOnly) {
    std::vector<const MimeType*> out;
    for (const FormatInfo& f : formats()) {
        if (thumbnailOnly && !f.thumbnail) continue;
        for (const MimeType& m : f.mime)
            if (std::none_of(out.begin(), out.end(),
                             [&](const MimeType* o) { return std::strcmp(o->type, m.type) == 0; }))
                out.push_back(&m);
    }
    return out;
}

} // namespace

const std::vector<FormatInfo>& formats() {
    static const std::vector<FormatInfo> table = makeTable();
    return table;
}

const FormatInfo& formatInfo(Format f) {
    for (const FormatInfo& i : formats())
        if (i.id == f) return i;
    return kUnknown;
}

Format formatByName(std::string_view name) {
    for (const FormatInfo& i : formats())
        if (name == i.name) return i.id;
    return Format::Unknown;
}

Format detectFormat(ByteSpan bytes, std::string_view path) {
    const std::string ext = lowerExtension(path);
    if (ext == ".w3d") return w3d::isShockwave3D(bytes) ? Format::W3dShockwave : Format::W3d;
    if (w3x::looksLikeW3x(bytes)) return Format::W3x;
    if (bytes.size >= 8) {
        const uint32_t id = le32(bytes, 0);
        if (id == 0x200) return Format::AlamoModel;
        if (id == 0x900 || id == 0x1500) return Format::AlamoParticles;
        if (id == 0x1000) return Format::AlamoClip;
        if (id == bw2::kAlMagic) return Format::Bw2Library;
    }
    // AMOS banks (.abk) and sources (.AMOS): the reader says clearly when no Amal bank is inside.
    if (amal::looksLikeAmosContainer(bytes)) return Format::Amal;
    if (bytes.size >= 13 && std::memcmp(bytes.data, "LiOnHeAdMODEL", 13) == 0) return Format::Bw2Model;
    // By name alone (e.g. a .bwm without the signature, a KotOR walkmesh: the bwm reader refuses it clearly).
    for (const FormatInfo& f : formats())
        if (f.read && f.id != Format::AlamoParticles && f.id != Format::W3dShockwave &&
            std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end())
            return f.id;
    if (bytes.size >= 16) {
        // W3D without its extension: a known top-level container whose first sub-chunk is its header.
        const uint32_t top = le32(bytes, 0), sub = le32(bytes, 8);
        if ((top == w3d::id::Mesh && sub == w3d::id::MeshHeader3) ||
            (top == w3d::id::Hierarchy && sub == w3d::id::HierarchyHeader) ||
            (top == w3d::id::CompressedAnimation && sub == w3d::id::CompressedAnimationHeader) ||
            (top == w3d::id::Hlod && sub == w3d::id::HlodHeader))
            return Format::W3d;
    }
    return Format::Unknown;
}

std::vector<uint8_t> readInputFile(const std::string& path) {
    const std::vector<uint8_t> head = readFileHead(path, 64);
    const ByteSpan h(head);
    const Format format = isTexture(h, path) ? Format::Texture : detectFormat(h, path);
    if (format == Format::Unknown) throw ParseError(path, {}, 0, "unrecognised file format");
    // Known from its first bytes: say what the file is rather than refuse it by its size.
    if (format == Format::W3dShockwave) throw ParseError(path, {}, 0, kShockwaveRefusal);
    const FormatInfo& f = formatInfo(format);
    return readFile(path, std::max<uint64_t>(f.maxBytes, head.size()), f.description);
}

Format writableFormat(ByteSpan bytes, std::string_view path) {
    const std::string ext = lowerExtension(path);
    if (vfs::looksLikeArchive(bytes) || ext == ".meg" || ext == ".big")
        return bytes.size >= 4 && std::memcmp(bytes.data, "BIG", 3) == 0 ? Format::Big : Format::Meg;
    const Format f = detectFormat(bytes, path);
    return formatInfo(f).source ? f : Format::Unknown;
}

SourceTree sourceTree(Format format, std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    const FormatInfo& f = formatInfo(format);
    if (!f.source || format == Format::Unknown)
        throw ParseError(label, {}, ParseError::kNoOffset,
                         std::string("rigscope does not write ") +
                             (format == Format::Unknown ? "this kind of file" : f.description) + " files");
    return f.source(std::move(bytes), label);
}

Document readBack(Format format, ByteSpan bytes, const ReadContext& context) {
    if (format == Format::Meg || format == Format::Big) {
        vfs::openArchiveCopy(bytes, context.label);
        Document d;
        d.path = context.label;
        d.format = format;
        return d;
    }
    return readDocument(bytes, context);
}

std::vector<TextEdit> renameTexture(Format format, SourceTree& tree, const std::string& from, const std::string& to,
                                    bool apply) {
    switch (format) {
    case Format::AlamoModel:
        return alamo::renameTexture(tree, from, to, apply);
    case Format::W3d:
        return w3d::renameTexture(tree, from, to, apply);
    case Format::Bw2Model:
        return bw2::renameTexture(tree, from, to, apply);
    default:
        return {};
    }
}

std::vector<TextEdit> applyEdit(Format format, SourceTree& tree, const EditOp& op, bool apply) {
    switch (format) {
    case Format::AlamoModel:
    case Format::AlamoParticles:
    case Format::AlamoClip:
        return alamo::applyEdit(tree, op, apply);
    case Format::W3d:
        return w3d::applyEdit(tree, op, apply);
    case Format::Bw2Model:
        return bw2::applyEdit(tree, op, apply);
    default:
        throw EditError(tree.label() + ": rigscope does not edit " + std::string(formatInfo(format).description) +
                        " files (" + describeEdit(op) + ")");
    }
}

Document readDocument(ByteSpan bytes, const ReadContext& context) {
    try {
        const Format format = detectFormat(bytes, context.label);
        const FormatInfo& f = formatInfo(format);
        if (!f.read) throw ParseError(context.label, {}, 0, "unrecognised file format");
        Document d = f.read(bytes, context);
        d.path = context.label;
        d.format = format;
        return d;
    } catch (const std::bad_alloc&) {
        throw ParseError(context.label, {}, ParseError::kNoOffset,
                         "out of memory while loading the file (" + std::to_string(bytes.size) + " bytes)");
    }
}

std::string openDialogFilter() {
    std::string all, groups;
    std::vector<std::string> seen;
    for (const FormatInfo& f : formats()) {
        if (!f.read || !*f.group) continue;
        for (const char* e : f.extensions)
            if (std::find(seen.begin(), seen.end(), e) == seen.end()) {
                seen.push_back(e);
                all += std::string(all.empty() ? "" : " ") + "*" + e;
            }
    }
    std::vector<std::string> done;
    for (const FormatInfo& f : formats()) {
        if (!f.read || !*f.group || std::find(done.begin(), done.end(), f.group) != done.end()) continue;
        done.push_back(f.group);
        std::string exts;
        std::vector<std::string> mine;
        for (const FormatInfo& g : formats())
            if (g.read && std::strcmp(g.group, f.group) == 0)
                for (const char* e : g.extensions)
                    if (std::find(mine.begin(), mine.end(), e) == mine.end()) {
                        mine.push_back(e);
                        exts += std::string(exts.empty() ? "" : " ") + "*" + e;
                    }
        groups += std::string(f.group) + " (" + exts + ");;";
    }
    return "All supported (" + all + ");;" + groups + "All files (*)";
}

std::string mimeInfoXml() {
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<!-- Generated from rigscope's format registry (core/formats/formats.cpp): do not edit. Alamo and "
                    "W3D chunk files\n     share chunk ids (0x200 is an Alamo skeleton and a W3D animation), so "
                    "their magic only backs up the file name. -->\n"
                    "<mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n";
    for (const MimeType* m : mimeTypes(false)) {
        x += std::string("  <mime-type type=\"") + m->type + "\">\n";
        x += "    <comment>" + xmlEscape(m->comment) + "</comment>\n";
        if (m->genericIcon) x += std::string("    <generic-icon name=\"") + m->genericIcon + "\"/>\n";
        for (const char* g : m->globs)
            x += std::string("    <glob pattern=\"") + g + "\"/>\n";
        if (!m->magic.empty()) {
            x += "    <magic priority=\"" + std::to_string(m->magicPriority) + "\">\n";
            for (const MimeMagic& g : m->magic) {
                x += std::string("      <match type=\"") + g.type + "\" offset=\"" + std::to_string(g.offset) +
                     (g.range ? ":" + std::to_string(g.offset + g.range) : std::string()) + "\" value=\"" +
                     xmlEscape(g.value) + "\"";
                if (g.andType)
                    x += std::string(">\n        <match type=\"") + g.andType + "\" offset=\"" +
                         std::to_string(g.andOffset) + "\" value=\"" + xmlEscape(g.andValue) + "\"/>\n      </match>\n";
                else
                    x += "/>\n";
            }
            x += "    </magic>\n";
        }
        x += "  </mime-type>\n";
    }
    return x + "</mime-info>\n";
}

std::string desktopMimeTypes() {
    std::string s;
    for (const MimeType* m : mimeTypes(false))
        s += std::string(m->type) + ";";
    return s;
}

std::string thumbnailerMimeTypes() {
    std::string s;
    for (const MimeType* m : mimeTypes(true))
        s += std::string(m->type) + ";";
    return s;
}

} // namespace rs
