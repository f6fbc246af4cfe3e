// EaW/FoC SFX samples, GUI dialog textures, command bar components and object icons: see alamo_refs.h.
#include "check/alamo_refs.h"

#include "common/error.h"
#include "common/text_budgets.h"
#include "objects/eaw_xml.h"
#include "resolve/lookup_rules.h"
#include "vfs/mount.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <set>
#include <unordered_set>

namespace rs::check {

namespace {

namespace fs = std::filesystem;

constexpr const char* kSrcSfx =
    "ModVerify SfxEventVerifier (VerifySamples) and AudioFileVerifier (FILE00): a sample is opened by the name as "
    "written (FocGameRepository.FindFile: the mods' folders for Data\\ paths, the game folder, the master MEG, which "
    "holds Data/Audio/SFX/SFX2D_NON_LOCALIZED.MEG, SFX3D_NON_LOCALIZED.MEG and SFX2D_<LANGUAGE>.MEG: "
    "GameRepository.InitializeInstalledSfxMegFiles)";
constexpr const char* kSrcSfxLoose =
    "pg-starwarsgame-lsp MegAssetCatalogBuilder.ApplySfxConventions (the SFX archives as the folder Data/Audio/SFX/) "
    "against ModVerify FocGameRepository.FindFile (a mod's loose file only for a name starting with Data\\)";
constexpr const char* kSrcGui =
    "ModVerify GuiDialogsVerifier and GuiDialogGameManager.TextureExists (mega texture directory <File>.mtd, texture "
    "files for Scanlines, Button_Middle and Frame_Background; \"none\" is no texture)";
constexpr const char* kSrcGuiMega =
    "ModVerify GuiDialogsVerifier.VerifyMegaTexturesExist and GuiDialogGameManager.InitializeMegaTextures "
    "(Data/Art/Textures/<File>.mtd, <File>.tga, <Compressed_File>.dds)";
constexpr const char* kSrcBarModel =
    "ModVerify CommandBarVerifier.VerifyCommandBarModel (CMDBAR04, FILE00): a Shell component's Model_Name is "
    "Data/Art/Models/<name> (CommandBarShellComponent.ModelPath)";
constexpr const char* kSrcBarMega =
    "ModVerify CommandBarVerifier.VerifyMegaTexture and CommandBarGameManager.SetMegaTexture "
    "(Data/Art/Textures/MT_COMMANDBAR.mtd and MT_COMMANDBAR.tga)";
constexpr const char* kSrcBarIcon =
    "ModVerify GameObjectTypeVerifier.VerifyObjectIcon and CommandBarGameManager.IconExists (the icon's upper-cased "
    "name in MT_COMMANDBAR.mtd; faction-prefixed variants are not judged)";
constexpr const char* kSrcBarTexture =
    "rigscope (ModVerify leaves component textures as a TODO, CommandBarVerifier.VerifySingleComponent): a "
    "*_Texture_Name of CommandBarComponentTags found in MT_COMMANDBAR.mtd or as a texture file";

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = char(c - 32);
    return s;
}

bool ieq(const std::string& a, const char* b) { return upper(a) == upper(b); }

const CheckInfo* row(std::string_view id) {
    for (const CheckInfo& r : alamoReferenceChecks())
        if (id == r.id) return &r;
    return nullptr;
}

struct Ctx {
    const vfs::MountTable& t;
    std::vector<Finding>& out;
    std::vector<std::string>& referenced;

    void refer(const vfs::Hit& h) { referenced.push_back(t.describe(h)); }

    // A finding at `pos` of a definition file (its game path), about `subject`.
    void report(const char* id, const objects::SourcePos& pos, const std::string& object, const std::string& subject,
                const std::string& message) {
        Finding f;
        f.id = id;
        if (const CheckInfo* r = row(id)) f.level = r->level;
        f.key = pos.file;
        const vfs::Hit* h = t.find(pos.file);
        f.file = h ? t.describe(*h) : pos.file;
        f.where.line = pos.line;
        f.where.column = pos.column;
        f.where.object = object;
        f.subject = subject;
        f.message = message;
        out.push_back(std::move(f));
    }
    void definitionError(const std::string& key, const std::string& text) {
        Finding f;
        f.id = "object.definition-error";
        f.level = Level::Error;
        f.key = key;
        const vfs::Hit* h = t.find(key);
        f.file = h ? t.describe(*h) : key;
        f.message = text;
        out.push_back(std::move(f));
    }

    // The bytes of `key`, or false (a file too large or unreadable: named as a definition error).
    bool read(const std::string& key, vfs::EntryBytes& b, bool quiet = false) {
        const vfs::Hit* h = t.find(key);
        if (!h) return false;
        if (t.entry(*h).size > objects::kMaxXmlBytes) {
            if (!quiet)
                definitionError(key, "XML file of " + std::to_string(t.entry(*h).size) + " bytes refused: more than " +
                                         std::to_string(objects::kMaxXmlBytes) + " (budget kMaxXmlBytes)");
            return false;
        }
        try {
            b = t.read(*h);
        } catch (const ParseError& e) {
            if (!quiet) definitionError(key, e.what());
            return false;
        }
        return true;
    }

    // The files an index such as Data/XML/SFXEventFiles.xml lists (Data/XML/<file>), each parsed; false when the
    // mount holds no index. `quiet`: missing and malformed files are another pass's findings (GameObjectFiles.xml:
    // the object pass names them).
    bool eachListed(const std::string& indexKey, const std::function<void(const objects::XmlFile&)>& each,
                    bool quiet = false) {
        vfs::EntryBytes ib;
        if (!read(indexKey, ib, quiet)) return false;
        objects::XmlFile index = objects::parseObjectXml(ib.span, indexKey);
        if (index.failed && !quiet) definitionError(indexKey, index.error);
        std::set<std::string> seen;
        for (const std::string& f : index.fileEntries) {
            const std::string key = vfs::normalizePath("DATA/XML/" + f);
            if (!seen.insert(key).second) continue;
            vfs::EntryBytes fb;
            if (!t.contains(key)) {
                if (quiet) continue;
                Finding m;
                m.id = "object.file-missing";
                m.level = Level::Warning;
                m.file = m.key = m.subject = key;
                m.message = "listed by " + indexKey + ", but no mounted folder holds it";
                out.push_back(std::move(m));
                continue;
            }
            if (!read(key, fb, quiet)) continue;
            objects::XmlFile x = objects::parseObjectXml(fb.span, key);
            if (x.failed && !quiet) definitionError(key, x.error);
            each(x);
        }
        return true;
    }

    // A texture file where the engine's texture repository looks (Data/Art/Textures/, .tga or .dds), or null.
    const vfs::Hit* textureFile(const std::string& name) const {
        return resolve::findTexture(t, name, "DATA/ART/TEXTURES/");
    }
};

// Names of the mega texture directory Data/Art/Textures/<base>.mtd, when it and its <base>.tga are mounted; `why`
// says what is missing otherwise (empty set).
struct MegaTexture {
    bool usable = false;
    std::string why;
    std::unordered_set<std::string> names;
    bool contains(const std::string& name) const {
        return usable && name.size() <= 63 && names.count(upper(name)) != 0;
    }
};

MegaTexture loadMegaTexture(Ctx& c, const std::string& base) {
    MegaTexture m;
    const std::string mtdKey = vfs::normalizePath("DATA/ART/TEXTURES/" + base + ".MTD");
    const vfs::Hit* mtd = c.t.find(mtdKey);
    const vfs::Hit* tga = c.textureFile(base + ".tga");
    if (!mtd) {
        m.why = mtdKey + " is not in the mount";
        return m;
    }
    c.refer(*mtd);
    if (tga) c.refer(*tga);
    try {
        const vfs::EntryBytes b = c.t.read(*mtd);
        for (std::string& n : readMtdNames(b.span.data, b.span.size, c.t.describe(*mtd)))
            m.names.insert(std::move(n));
    } catch (const ParseError& e) {
        Finding f;
        f.id = "read.error";
        f.level = Level::Error;
        f.file = c.t.describe(*mtd);
        f.key = mtdKey;
        f.where.chunk = e.chunkPath();
        if (e.offset() != ParseError::kNoOffset) f.where.offset = e.offset();
        f.message = e.message();
        c.out.push_back(std::move(f));
        m.why = mtdKey + " cannot be read";
        return m;
    }
    if (!tga) {
        m.why = base + ".TGA (the mega texture of " + mtdKey + ") is not in the mount, so the engine does not use it";
        return m;
    }
    m.usable = true;
    return m;
}

// ---------------------------------------------------------------------------------------------------------------
// SFX samples

void checkSamples(Ctx& c) {
    // Entries of the SFX archives (bare names), from the Data/Audio/SFX/ folder of each mounted game or mod folder
    // (the mount lists no archive of a folder: they are read here from disk, as the engine opens them).
    std::unordered_set<std::string> archived;
    for (const vfs::Mount& m : c.t.mounts()) {
        const auto* folder = dynamic_cast<const vfs::Folder*>(m.source.get());
        if (!folder) continue;
        fs::path dir = folder->root();
        for (const char* part : {"DATA", "AUDIO", "SFX"}) {
            fs::path next;
            std::error_code ec;
            for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
                if (upper(it->path().filename().string()) == part && it->is_directory(ec)) {
                    next = it->path();
                    break;
                }
            dir = next;
            if (dir.empty()) break;
        }
        if (dir.empty()) continue;
        std::vector<fs::path> megs;
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string file = upper(it->path().filename().string());
            if ((file.rfind("SFX2D_", 0) == 0 || file.rfind("SFX3D_", 0) == 0) && file.size() > 4 &&
                file.compare(file.size() - 4, 4, ".MEG") == 0 && it->is_regular_file(ec))
                megs.push_back(it->path());
        }
        std::sort(megs.begin(), megs.end());
        for (const fs::path& p : megs) {
            try {
                auto a = vfs::openArchiveFile(p.string());
                for (const vfs::Entry& se : a->entries())
                    archived.insert(se.key);
                c.referenced.push_back(p.string());
            } catch (const ParseError& err) {
                Finding f;
                f.id = "read.error";
                f.level = Level::Error;
                f.file = p.string();
                f.key = "DATA/AUDIO/SFX/" + upper(p.filename().string());
                f.message = err.message();
                c.out.push_back(std::move(f));
            }
        }
    }
    static const char* const kTags[] = {"PRE_SAMPLES", "SAMPLES", "POST_SAMPLES"};
    c.eachListed("DATA/XML/SFXEVENTFILES.XML", [&](const objects::XmlFile& x) {
        for (const objects::XmlObject& o : x.objects)
            for (const char* tag : kTags)
                for (const objects::XmlField* fld : o.all(tag))
                    for (const std::string& s : objects::splitList(fld->value)) {
                        const std::string key = vfs::normalizePath(s);
                        // As written: a Data\ path in the mods' and game's folders and archives; any name in the
                        // master MEG (the mounted archives) and the SFX archives.
                        if (const vfs::Hit* h = c.t.find(key)) {
                            c.refer(*h);
                            continue;
                        }
                        if (archived.count(key)) continue;
                        const bool bare = key.find('/') == std::string::npos;
                        if (bare) {
                            if (const vfs::Hit* h = c.t.find("DATA/AUDIO/SFX/" + key)) {
                                c.refer(*h);
                                c.report("sfx.sample-loose-only", fld->pos, o.name, s,
                                         o.name + ": sample " + s + " is found only as the loose file " +
                                             c.t.describe(*h) +
                                             "; ModVerify looks a bare name up in the SFX archives only: write "
                                             "Data\\Audio\\SFX\\" +
                                             s + " to be found by both");
                                continue;
                            }
                        }
                        c.report("sfx.sample-missing", fld->pos, o.name, s,
                                 o.name + ": sample " + s + " (" + fld->tag + ") is not found: " +
                                     (bare ? "no SFX archive (Data/Audio/SFX/SFX2D_*.MEG, SFX3D_*.MEG) or other "
                                             "mounted archive holds it"
                                           : "no mounted folder or archive holds " + key));
                    }
    });
}

// ---------------------------------------------------------------------------------------------------------------
// GUI dialogs

// The component types of GUIDialogs.xml in the engine's order (GuiComponentType values 0x0..0x57); the first 12
// are the button parts.
const std::vector<std::string>& guiTypes() {
    static const std::vector<std::string> v = {
        "BUTTON_LEFT",
        "BUTTON_MIDDLE",
        "BUTTON_RIGHT",
        "BUTTON_LEFT_MOUSE_OVER",
        "BUTTON_MIDDLE_MOUSE_OVER",
        "BUTTON_RIGHT_MOUSE_OVER",
        "BUTTON_LEFT_PRESSED",
        "BUTTON_MIDDLE_PRESSED",
        "BUTTON_RIGHT_PRESSED",
        "BUTTON_LEFT_DISABLED",
        "BUTTON_MIDDLE_DISABLED",
        "BUTTON_RIGHT_DISABLED",
        "CHECK_OFF",
        "CHECK_ON",
        "DIAL_LEFT",
        "DIAL_MIDDLE",
        "DIAL_RIGHT",
        "DIAL_PLUS",
        "DIAL_PLUS_MOUSE_OVER",
        "DIAL_PLUS_PRESSED",
        "DIAL_MINUS",
        "DIAL_MINUS_MOUSE_OVER",
        "DIAL_MINUS_PRESSED",
        "DIAL_TAB",
        "FRAME_BOTTOM",
        "FRAME_BOTTOM_LEFT",
        "FRAME_BOTTOM_RIGHT",
        "FRAME_BACKGROUND",
        "FRAME_LEFT",
        "FRAME_RIGHT",
        "FRAME_TOP",
        "FRAME_TOP_LEFT",
        "FRAME_TOP_RIGHT",
        "FRAME_TOP_TRANSITION_LEFT",
        "FRAME_TOP_TRANSITION_RIGHT",
        "FRAME_BOTTOM_TRANSITION_LEFT",
        "FRAME_BOTTOM_TRANSITION_RIGHT",
        "FRAME_LEFT_TRANSITION_TOP",
        "FRAME_LEFT_TRANSITION_BOTTOM",
        "FRAME_RIGHT_TRANSITION_TOP",
        "FRAME_RIGHT_TRANSITION_BOTTOM",
        "RADIO_OFF",
        "RADIO_ON",
        "RADIO_DISABLED",
        "RADIO_MOUSE_OVER",
        "SCROLL_DOWN_BUTTON",
        "SCROLL_DOWN_BUTTON_PRESSED",
        "SCROLL_DOWN_BUTTON_MOUSE_OVER",
        "SCROLL_MIDDLE",
        "SCROLL_TAB",
        "SCROLL_UP_BUTTON",
        "SCROLL_UP_BUTTON_PRESSED",
        "SCROLL_UP_BUTTON_MOUSE_OVER",
        "SCROLL_UP_BUTTON_DISABLED",
        "SCROLL_DOWN_BUTTON_DISABLED",
        "SCROLL_MIDDLE_DISABLED",
        "SCROLL_TAB_DISABLED",
        "TRACKBAR_SCROLL_DOWN_BUTTON",
        "TRACKBAR_SCROLL_DOWN_BUTTON_PRESSED",
        "TRACKBAR_SCROLL_DOWN_BUTTON_MOUSE_OVER",
        "TRACKBAR_SCROLL_MIDDLE",
        "TRACKBAR_SCROLL_TAB",
        "TRACKBAR_SCROLL_UP_BUTTON",
        "TRACKBAR_SCROLL_UP_BUTTON_PRESSED",
        "TRACKBAR_SCROLL_UP_BUTTON_MOUSE_OVER",
        "TRACKBAR_SCROLL_UP_BUTTON_DISABLED",
        "TRACKBAR_SCROLL_DOWN_BUTTON_DISABLED",
        "TRACKBAR_SCROLL_MIDDLE_DISABLED",
        "TRACKBAR_SCROLL_TAB_DISABLED",
        "SMALL_FRAME_BOTTOM",
        "SMALL_FRAME_BOTTOM_LEFT",
        "SMALL_FRAME_BOTTOM_RIGHT",
        "SMALL_FRAME_LEFT",
        "SMALL_FRAME_RIGHT",
        "SMALL_FRAME_TOP",
        "SMALL_FRAME_TOP_LEFT",
        "SMALL_FRAME_TOP_RIGHT",
        "SMALL_FRAME_BACKGROUND",
        "COMBO_BOX_POPDOWN_BUTTON",
        "COMBO_BOX_POPDOWN_BUTTON_MOUSE_OVER",
        "COMBO_BOX_POPDOWN_BUTTON_PRESSED",
        "COMBO_BOX_TEXT_BOX",
        "COMBO_BOX_LEFT_CAP",
        "PROGRESS_BAR_LEFT",
        "PROGRESS_BAR_MIDDLE_OFF",
        "PROGRESS_BAR_MIDDLE_ON",
        "PROGRESS_BAR_RIGHT",
        "SCANLINES",
    };
    return v;
}

int guiTypeOf(const std::string& tag) {
    const std::string u = upper(tag);
    const auto& v = guiTypes();
    const auto it = std::find(v.begin(), v.end(), u);
    return it == v.end() ? -1 : int(it - v.begin());
}

constexpr int kButtonLast = 11; // BUTTON_RIGHT_DISABLED
const int kButtonMiddle = 1, kButtonMiddleMouseOver = 4, kButtonMiddlePressed = 7, kButtonMiddleDisabled = 10;
const int kFrameBackground = 27, kScanlines = 87;

// 1-based line and column of byte offsets in one text (line starts found once: linear in the text).
struct LineIndex {
    std::vector<size_t> starts{0};
    LineIndex(const char* text, size_t size) {
        for (size_t i = 0; i < size; ++i)
            if (text[i] == '\n') starts.push_back(i + 1);
    }
    objects::SourcePos at(const std::string& key, ptrdiff_t offset) const {
        if (offset < 0) return objects::SourcePos{key, 1, 1};
        const size_t at = std::upper_bound(starts.begin(), starts.end(), size_t(offset)) - starts.begin() - 1;
        return objects::SourcePos{key, int(at + 1), int(size_t(offset) - starts[at] + 1)};
    }
};

void checkGuiDialogs(Ctx& c) {
    const std::string key = "DATA/XML/GUIDIALOGS.XML";
    vfs::EntryBytes b;
    if (!c.read(key, b)) return;
    pugi::xml_document doc;
    // No DTD is read and no entity expanded (pugixml's default leaves unknown references as text).
    const pugi::xml_parse_result r =
        doc.load_buffer(b.span.data, b.span.size, pugi::parse_default & ~pugi::parse_doctype, pugi::encoding_auto);
    const LineIndex lines(reinterpret_cast<const char*>(b.span.data), b.span.size);
    if (!r) {
        const objects::SourcePos p = lines.at(key, r.offset);
        c.definitionError(key, key + ": field line " + std::to_string(p.line) + ", column " + std::to_string(p.column) +
                                   ": malformed XML: " + r.description());
        return;
    }
    const pugi::xml_node textures = doc.document_element().first_child();
    if (!textures || !ieq(textures.name(), "Textures")) return; // the engine reads textures from the first child
    auto pos = [&](const pugi::xml_node& n) { return lines.at(key, n.offset_debug()); };
    auto attr = [&](const char* name) -> std::string {
        for (const pugi::xml_attribute& a : textures.attributes())
            if (ieq(a.name(), name)) return a.value();
        return {};
    };
    const std::string megaName = attr("File"), compressed = attr("Compressed_File");
    MegaTexture mega;
    if (megaName.empty()) mega.why = "<Textures> names no File";
    if (!megaName.empty()) {
        mega = loadMegaTexture(c, megaName);
        if (!mega.usable)
            c.report("gui.megatexture-missing", pos(textures), "", megaName,
                     "GUI mega texture " + megaName + ": " + mega.why + "; the dialogs' textures are not found in it");
    }
    if (!compressed.empty()) {
        if (const vfs::Hit* h = c.textureFile(compressed + ".dds"))
            c.refer(*h);
        else
            c.report("gui.megatexture-missing", pos(textures), "", compressed + ".dds",
                     "compressed GUI mega texture " + compressed + ".dds is not found in Data/Art/Textures/");
    }

    struct Entry {
        std::string texture;
        objects::SourcePos pos;
        bool own = false;
    };
    std::vector<Entry> defaults(guiTypes().size());
    bool first = true;
    std::set<std::string> done; // components already read: the engine keeps the first definition
    for (const pugi::xml_node& comp : textures.children()) {
        if (comp.type() != pugi::node_element) continue;
        const std::string name = comp.name();
        if (!first && !done.insert(upper(name)).second) continue;
        std::vector<Entry> entries = defaults;
        for (Entry& e : entries)
            e.own = false;
        for (const pugi::xml_node& t : comp.children()) {
            if (t.type() != pugi::node_element) continue;
            const int type = guiTypeOf(t.name());
            if (type < 0) continue; // not a component type: the engine reports it and ignores it
            std::string v = t.child_value();
            v.erase(0, v.find_first_not_of(" \t\r\n"));
            v.erase(v.find_last_not_of(" \t\r\n") + 1);
            entries[size_t(type)] = Entry{v, pos(t), true};
        }
        if (first) defaults = entries;
        // The texture-file button mode (GuiDialogsVerifier: decided before the component's textures are looked at):
        // a Button_Middle that is a texture file.
        const Entry& middle = entries[size_t(kButtonMiddle)];
        bool buttonRepoMode =
            !middle.texture.empty() && !ieq(middle.texture, "none") && c.textureFile(middle.texture) != nullptr;
        for (size_t type = 0; type < entries.size(); ++type) {
            const Entry& e = entries[type];
            const bool isButton = int(type) <= kButtonLast;
            const int ty = int(type);
            if (e.texture.empty() || ieq(e.texture, "none")) {
                if (!isButton) buttonRepoMode = false;
                continue;
            }
            bool found = false, skip = false;
            std::string where;
            const vfs::Hit* file = nullptr;
            if (ty == kScanlines) {
                file = c.textureFile(e.texture);
                found = file;
                where = "as a texture file (Scanlines are not read from the mega texture)";
            } else if (buttonRepoMode && isButton &&
                       !(ty == kButtonMiddleMouseOver || ty == kButtonMiddlePressed || ty == kButtonMiddleDisabled ||
                         ty == kButtonMiddle)) {
                skip = true; // in the texture-file button mode the engine does not load the other button parts
            } else if (buttonRepoMode &&
                       (ty == kButtonMiddleMouseOver || ty == kButtonMiddlePressed || ty == kButtonMiddleDisabled)) {
                file = c.textureFile(e.texture);
                found = file;
                where = "as a texture file (Button_Middle is a texture file, so its states are too)";
            } else {
                if (ty == kButtonMiddle && (file = c.textureFile(e.texture))) {
                    found = true;
                } else if (mega.contains(e.texture)) {
                    found = true;
                } else if (ty == kFrameBackground && (file = c.textureFile(e.texture))) {
                    found = true;
                }
                where = std::string("in the mega texture ") + (megaName.empty() ? "(none named)" : megaName + ".MTD") +
                        (mega.usable ? "" : " (" + mega.why + ")") +
                        (ty == kButtonMiddle || ty == kFrameBackground ? " or as a texture file" : "");
                if (e.texture.size() > 63 && !found) where += "; mega texture names have at most 63 characters";
            }
            if (!isButton) buttonRepoMode = false;
            if (file) c.refer(*file);
            if (found || skip || !e.own) continue;
            c.report("gui.texture-missing", e.pos, name, e.texture,
                     "GUI component " + name + ": " + guiTypes()[type] + " texture " + e.texture + " is not found " +
                         where);
        }
        first = false;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Command bar

void checkCommandBar(Ctx& c) {
    static const char* const kTextureTags[] = {
        "SELECTED_TEXTURE_NAME",     "BLANK_TEXTURE_NAME",    "ICON_TEXTURE_NAME",    "ICON_ALTERNATE_TEXTURE_NAME",
        "MOUSE_OVER_TEXTURE_NAME",   "DISABLED_TEXTURE_NAME", "FLASH_TEXTURE_NAME",   "BAR_TEXTURE_NAME",
        "BAR_OVERLAY_NAME",          "BUILD_TEXTURE_NAME",    "CURSOR_TEXTURE_NAME",  "LOWER_EFFECT_TEXTURE_NAME",
        "UPPER_EFFECT_TEXTURE_NAME", "OVERLAY_TEXTURE_NAME",  "OVERLAY2_TEXTURE_NAME"};
    const bool hasBar = c.t.contains("DATA/XML/COMMANDBARCOMPONENTFILES.XML");
    const bool hasObjects = c.t.contains("DATA/XML/GAMEOBJECTFILES.XML");
    if (!hasBar && !hasObjects) return;
    MegaTexture mega = loadMegaTexture(c, "MT_COMMANDBAR");
    if (!mega.usable && hasBar) {
        objects::SourcePos p{"DATA/XML/COMMANDBARCOMPONENTFILES.XML", 0, 0};
        c.report("commandbar.megatexture-missing", p, "", "MT_COMMANDBAR.MTD",
                 "the command bar's mega texture: " + mega.why);
    }
    c.eachListed("DATA/XML/COMMANDBARCOMPONENTFILES.XML", [&](const objects::XmlFile& x) {
        for (const objects::XmlObject& o : x.objects) {
            const objects::XmlField* type = o.last("TYPE");
            if (type && ieq(type->value, "Shell")) {
                const objects::XmlField* model = o.last("MODEL_NAME");
                if (!model || model->value.empty()) {
                    c.report("commandbar.model-missing", type->pos, o.name, "",
                             "command bar Shell component " + o.name + " names no Model_Name");
                } else if (const vfs::Hit* h = c.t.find("DATA/ART/MODELS/" + vfs::normalizePath(model->value))) {
                    c.refer(*h);
                } else {
                    c.report("commandbar.model-missing", model->pos, o.name, model->value,
                             "command bar Shell component " + o.name + ": model " + model->value +
                                 " is not in Data/Art/Models/");
                }
            }
            for (const char* tag : kTextureTags)
                for (const objects::XmlField* fld : o.all(tag)) {
                    const std::string& v = fld->value;
                    if (v.empty() || ieq(v, "none")) continue;
                    if (mega.contains(v)) continue;
                    if (const vfs::Hit* h = c.textureFile(v)) {
                        c.refer(*h);
                        continue;
                    }
                    c.report("commandbar.texture-missing", fld->pos, o.name, v,
                             "command bar component " + o.name + ": " + fld->tag + " " + v +
                                 " is neither in MT_COMMANDBAR.MTD" + (mega.usable ? "" : " (" + mega.why + ")") +
                                 " nor a texture file in Data/Art/Textures/");
                }
        }
    });
    // Objects' icons: Icon_Name in MT_COMMANDBAR.mtd.
    c.eachListed(
        "DATA/XML/GAMEOBJECTFILES.XML",
        [&](const objects::XmlFile& x) {
            for (const objects::XmlObject& o : x.objects)
                for (const objects::XmlField* fld : o.all("ICON_NAME")) {
                    const std::string& v = fld->value;
                    if (v.empty() || ieq(v, "none") || mega.contains(v)) continue;
                    c.report("commandbar.icon-missing", fld->pos, o.name, v,
                             o.name + ": icon " + v + " is not in MT_COMMANDBAR.MTD" +
                                 (mega.usable ? "" : " (" + mega.why + ")"));
                }
        },
        true);
}

} // namespace

std::vector<std::string> readMtdNames(const uint8_t* data, size_t size, const std::string& file) {
    constexpr size_t kRecord = 64 + 4 * 4 + 1;
    if (size < 4)
        throw ParseError(file, "header", 0,
                         "mega texture directory of " + std::to_string(size) +
                             " bytes: shorter than its 4-byte record count");
    const uint32_t count =
        uint32_t(data[0]) | uint32_t(data[1]) << 8 | uint32_t(data[2]) << 16 | uint32_t(data[3]) << 24;
    if (uint64_t(count) * kRecord > size - 4)
        throw ParseError(file, "header", 0,
                         "mega texture directory claims " + std::to_string(count) + " records of " +
                             std::to_string(kRecord) + " bytes, but holds " + std::to_string(size - 4) +
                             " bytes after the count");
    std::vector<std::string> names;
    names.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        const char* n = reinterpret_cast<const char*>(data + 4 + size_t(i) * kRecord);
        names.push_back(upper(std::string(n, strnlen(n, 64))));
    }
    return names;
}

const std::vector<CheckInfo>& alamoReferenceChecks() {
    static const std::vector<CheckInfo> rows = {
        {"sfx.sample-missing", Level::Error,
         "an SFX event's sample (Samples, Pre_Samples, Post_Samples) no mounted folder or archive holds (EaW/FoC)",
         kSrcSfx},
        {"sfx.sample-loose-only", Level::Info,
         "an SFX event's sample named without a path that only a loose Data/Audio/SFX/ file holds: found by "
         "pg-starwarsgame-lsp's rule, not by ModVerify's (EaW/FoC)",
         kSrcSfxLoose},
        {"gui.texture-missing", Level::Error,
         "a GUIDialogs.xml component texture found neither in the GUI mega texture nor, where the engine looks "
         "there, as a texture file (EaW/FoC)",
         kSrcGui},
        {"gui.megatexture-missing", Level::Error,
         "the GUI mega texture GUIDialogs.xml names (.mtd and .tga, or the compressed .dds) is missing (EaW/FoC)",
         kSrcGuiMega},
        {"commandbar.model-missing", Level::Error,
         "a command bar Shell component without a model, or whose Model_Name is not in Data/Art/Models/ (EaW/FoC)",
         kSrcBarModel},
        {"commandbar.texture-missing", Level::Warning,
         "a command bar component texture found neither in MT_COMMANDBAR.mtd nor as a texture file (EaW/FoC)",
         kSrcBarTexture},
        {"commandbar.icon-missing", Level::Warning,
         "an object's Icon_Name that MT_COMMANDBAR.mtd does not hold (EaW/FoC)", kSrcBarIcon},
        {"commandbar.megatexture-missing", Level::Error,
         "the command bar's mega texture (Data/Art/Textures/MT_COMMANDBAR.mtd with MT_COMMANDBAR.tga) is missing "
         "(EaW/FoC)",
         kSrcBarMega},
    };
    return rows;
}

void checkAlamoReferences(const vfs::MountTable& table, std::vector<Finding>& out,
                          std::vector<std::string>& referenced) {
    Ctx c{table, out, referenced};
    checkSamples(c);
    checkGuiDialogs(c);
    checkCommandBar(c);
}

} // namespace rs::check
