// The format registry: one row per format rigscope reads, the single place that says how a format is named,
// recognised, bounded, read and shown. The loader, the resolver, the Open dialog's filters, the CLI, the MIME and
// desktop files (generated from it at build time), render and export all ask here.
#pragma once

#include "common/bytes.h"
#include "common/edit_op.h"
#include "common/format_id.h"
#include "common/source_tree.h"
#include "scene/document.h"
#include "w3d/w3d_reader.h"
#include "w3x/w3x_reader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rs {

// What a format's files take from other files, looked up by the resolver (resolve/resolver.h).
enum Companion : unsigned {
    kCompanionClips = 1u << 0,     // clip files beside the model (Alamo <MODEL>_<CLIP>_NN.ala, W3D by hierarchy)
    kCompanionHierarchy = 1u << 1, // W3D/W3X: the hierarchy file a skin, HLOD or clip names
    kCompanionLibraries = 1u << 2, // B&W2: .al animation libraries whose bone count fits
    kCompanionTextures = 1u << 3,  // textures in the engine's lookup order
    kCompanionProxies = 1u << 4,   // Alamo: models and particle systems attached to proxies, by name
};

// One shared-mime-info <match>, optionally with one nested match that must also hold.
struct MimeMagic {
    const char* type; // "string", "little32", "big32"
    unsigned offset;
    const char* value;
    const char* andType = nullptr;
    unsigned andOffset = 0;
    const char* andValue = nullptr;
    unsigned range = 0; // > 0: the value may start anywhere in offset..offset+range ("offset:end" in the XML)
};

struct MimeType {
    const char* type;    // "model/x-alamo"
    const char* comment; // "Petroglyph Alamo model"
    std::vector<const char*> globs;
    std::vector<MimeMagic> magic;
    int magicPriority = 50;
    const char* genericIcon = nullptr;
};

// Everything a reader may need besides the bytes: the name for messages, how to find a W3D hierarchy that
// the file names but does not hold (null: none is looked up), and the files a W3X file includes or names.
struct ReadContext {
    std::string label;
    w3d::HierarchyLookup hierarchy;
    w3x::Lookup w3x = {};
};

using ReadFn = Document (*)(ByteSpan bytes, const ReadContext& context);
// Builds a file's source tree (read, edit, write: docs/ARCHITECTURE.md); never throws on bad input.
using SourceFn = SourceTree (*)(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label);

struct FormatInfo {
    Format id;
    const char* name;                    // stable id used in JSON and by the CLI: "alo", "w3d", ...
    const char* description;             // "Alamo model", used in messages ("larger than any Alamo model ...")
    const char* group;                   // Open dialog filter this format is listed under ("" for none)
    std::vector<const char*> extensions; // lower case, with the dot
    std::vector<MimeType> mime;          // shared with other rows when a MIME type covers several formats
    uint64_t maxBytes;                   // largest file read; 0: nothing is read
    UpAxis up;
    bool cullBackFaces; // the engine culls back faces of this format's meshes
    unsigned companions;
    bool thumbnail;            // the installed thumbnailer draws it
    ReadFn read;               // null: not opened as a document (textures, archives, refused formats)
    SourceFn source = nullptr; // null: not written back (textures, refused formats)
};

// Every row, in the order the Open dialog lists them.
const std::vector<FormatInfo>& formats();
const FormatInfo& formatInfo(Format f);
// "alo" -> Format::AlamoModel; Format::Unknown when no row has that name.
Format formatByName(std::string_view name);
inline const char* formatName(Format f) { return formatInfo(f).name; }
inline UpAxis upAxisOf(Format f) { return formatInfo(f).up; }

// Content-based detection from the first bytes (64 are enough; the extension only breaks ties).
Format detectFormat(ByteSpan head, std::string_view path);

// Reads a file to open: only a regular file (checked with stat before it is opened: folders, FIFOs and devices
// are refused by name), its first bytes to detect the format, then the whole file unless it exceeds the format's
// maxBytes. A format that is known to be refused (Shockwave 3D) is refused by name before its size is looked at.
// Throws ParseError naming the file.
std::vector<uint8_t> readInputFile(const std::string& path);

// The registry's reader for the detected format. Throws ParseError (file, chunk path, offset) on malformed input,
// on a format that is not opened as a document, and on running out of memory.
Document readDocument(ByteSpan bytes, const ReadContext& context);

// Read, edit, write (docs/ARCHITECTURE.md, "Read, edit, write").
// The format a file is written back as: MEG and BIG archives by their magic or extension (MEG v1 has no
// magic), the rest as detectFormat says; Format::Unknown when the registry has no source tree for it
// (textures, Shockwave 3D, unknown files).
Format writableFormat(ByteSpan bytes, std::string_view path);
// The registry's source tree builder for `format` (ParseError naming `label` when the format has none).
SourceTree sourceTree(Format format, std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label);
// What the reader says of bytes written as `format`: readDocument for documents, the archive reader for MEG and
// BIG. Throws ParseError (file, chunk path, offset) when it refuses them; returns the reader's document (empty
// for archives).
Document readBack(Format format, ByteSpan bytes, const ReadContext& context);
// Renames texture `from` (ASCII case ignored) to `to` (CP-1252 bytes) wherever a file of `format` names it
// (alamo::, w3d::, bw2::renameTexture); only with apply are the tree's nodes changed. Formats that name no
// textures: no change.
std::vector<TextEdit> renameTexture(Format format, SourceTree& tree, const std::string& from, const std::string& to,
                                    bool apply);

// Runs one edit (common/edit_op.h) on a file of `format` (alamo::, w3d::, bw2::applyEdit): the changes made, or
// with apply = false that would be made. Throws EditError naming the file when the target or parameter is not
// there or the value does not parse or fit; a format without the edit: EditError naming it. RenameTexture is
// renameTexture above.
std::vector<TextEdit> applyEdit(Format format, SourceTree& tree, const EditOp& op, bool apply);

// Filters for a file dialog: "All supported (*.alo ...)", then one per group ("Alamo models and clips (*.alo
// *.ala)"), then "All files (*)", separated by ";;".
std::string openDialogFilter();

// shared-mime-info XML for every MIME type of the registry; the desktop entry's MimeType= value (every type, ';'
// after each); the thumbnailer's (the types of thumbnail formats).
std::string mimeInfoXml();
std::string desktopMimeTypes();
std::string thumbnailerMimeTypes();

} // namespace rs
