// Edits across files (edits.h): the registry's applyEdit per file, companions of a bone rename, undo/redo from
// the source trees' journals, the CLI's arguments and patch files.
#include "edit/edits.h"

#include "common/cp1252.h"
#include "common/error.h"
#include "common/file_read.h"
#include "formats/formats.h"
#include "objects/object_db.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fnmatch.h>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace rs::edit {

std::vector<std::string> Step::files() const {
    std::vector<std::string> out;
    for (const Change& c : changes)
        if (std::find(out.begin(), out.end(), c.file) == out.end()) out.push_back(c.file);
    return out;
}

bool EditFile::dirty() const { return tree.edited(); }

std::vector<uint8_t> EditFile::written() const { return tree.write(); }

namespace {

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return s;
}

bool endsWithNoCase(const std::string& s, const char* ext) {
    const size_t n = std::strlen(ext);
    return s.size() >= n && equalsNoCase(std::string_view(s).substr(s.size() - n), ext);
}

bool isTextDefinition(const std::string& path) { return endsWithNoCase(path, ".xml") || endsWithNoCase(path, ".ini"); }

// A text file's tree: one Field node per line ("line N", its end of line included).
SourceTree lineTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    std::vector<FieldSpan> spans;
    const std::vector<uint8_t>& b = *bytes;
    uint64_t start = 0;
    for (uint64_t i = 0; i < b.size(); ++i)
        if (b[i] == '\n') {
            spans.push_back({"line " + std::to_string(spans.size() + 1), start, i + 1, {}});
            start = i + 1;
        }
    if (start < b.size()) spans.push_back({"line " + std::to_string(spans.size() + 1), start, b.size(), {}});
    SourceTree t(bytes, label);
    t.roots() = fieldNodes(spans, 0, b.size());
    return t;
}

// The model's name as object definitions write it: its file name, and without the extension (SAGE names W3D
// models so).
std::pair<std::string, std::string> modelNames(const std::string& path) {
    std::string n = path;
    std::replace(n.begin(), n.end(), '\\', '/');
    const size_t colon = n.rfind(':');
    if (colon != std::string::npos && colon > 1) n = n.substr(colon + 1);
    const size_t slash = n.rfind('/');
    if (slash != std::string::npos) n = n.substr(slash + 1);
    const size_t dot = n.rfind('.');
    return {n, dot == std::string::npos ? n : n.substr(0, dot)};
}

bool isNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '\\' || c == '/' ||
           (static_cast<unsigned char>(c) >= 0x80);
}

// Words of [b, e) of `text` equal to `word` (ASCII case ignored) and bounded by non-name characters.
std::vector<size_t> wordsIn(const std::string& text, size_t b, size_t e, const std::string& word) {
    std::vector<size_t> out;
    if (word.empty()) return out;
    for (size_t i = b; i + word.size() <= e; ++i) {
        if (i > b && isNameChar(text[i - 1])) continue;
        if (i + word.size() < e && isNameChar(text[i + word.size()])) continue;
        if (equalsNoCase(std::string_view(text).substr(i, word.size()), word)) out.push_back(i);
    }
    return out;
}

// Where an object definition text names `bone` of the model: [offset] of each word to replace.
// EaW XML: in each top-level object element that names the model (an element text equal to its file name),
// the text of every element whose name contains "Bone" (Attachment_Bone, Fire_Bone_A, ...), word by word.
std::vector<size_t> xmlBoneWords(const std::string& text, const std::string& model, const std::string& bone) {
    const auto [file, base] = modelNames(model);
    std::vector<size_t> out;
    struct Open {
        std::string name;
    };
    std::vector<Open> stack;
    size_t objectStart = 0;
    bool namesModel = false;
    std::vector<size_t> pending;
    size_t i = 0;
    const size_t n = text.size();
    while (i < n) {
        const size_t lt = text.find('<', i);
        const size_t textEnd = lt == std::string::npos ? n : lt;
        if (stack.size() >= 2 && textEnd > i) { // text inside an element of an object
            std::string t = text.substr(i, textEnd - i);
            const size_t a = t.find_first_not_of(" \t\r\n"), z = t.find_last_not_of(" \t\r\n");
            if (a != std::string::npos) {
                const std::string trimmed = t.substr(a, z - a + 1);
                if (equalsNoCase(trimmed, file) || equalsNoCase(trimmed, base)) namesModel = true;
                std::string lowerName;
                for (char c : stack.back().name)
                    lowerName += char(std::tolower(static_cast<unsigned char>(c)));
                if (lowerName.find("bone") != std::string::npos)
                    for (size_t w : wordsIn(text, i, textEnd, bone))
                        pending.push_back(w);
            }
        }
        if (lt == std::string::npos) break;
        if (text.compare(lt, 4, "<!--") == 0) {
            const size_t e = text.find("-->", lt + 4);
            i = e == std::string::npos ? n : e + 3;
            continue;
        }
        if (text.compare(lt, 9, "<![CDATA[") == 0) {
            const size_t e = text.find("]]>", lt + 9);
            i = e == std::string::npos ? n : e + 3;
            continue;
        }
        const size_t gt = text.find('>', lt);
        if (gt == std::string::npos) break;
        const char c1 = lt + 1 < n ? text[lt + 1] : 0;
        if (c1 == '?' || c1 == '!') {
            i = gt + 1;
            continue;
        }
        if (c1 == '/') {
            if (!stack.empty()) stack.pop_back();
            if (stack.size() == 1) { // an object closed
                if (namesModel) out.insert(out.end(), pending.begin(), pending.end());
                pending.clear();
                namesModel = false;
            }
        } else {
            size_t e = lt + 1;
            while (e < gt && !std::isspace(static_cast<unsigned char>(text[e])) && text[e] != '/')
                ++e;
            const bool selfClosing = text[gt - 1] == '/';
            if (!selfClosing) {
                stack.push_back({text.substr(lt + 1, e - lt - 1)});
                if (stack.size() == 2) objectStart = lt;
            }
        }
        i = gt + 1;
    }
    (void)objectStart;
    return out;
}

// SAGE INI: in each Object block (from a line "Object NAME" / "ObjectReskin" / "ChildObject" at the start of a
// line to the next such line) whose lines name the model (`Model = NAME`), the values of keys containing "Bone"
// (ParticleSysBone = BONE SYSTEM, FireFXBone = ...), word by word, comments (';', "//") left alone.
std::vector<size_t> iniBoneWords(const std::string& text, const std::string& model, const std::string& bone) {
    const auto [file, base] = modelNames(model);
    std::vector<size_t> out, pending;
    bool namesModel = false;
    size_t at = 0;
    auto flush = [&]() {
        if (namesModel) out.insert(out.end(), pending.begin(), pending.end());
        pending.clear();
        namesModel = false;
    };
    while (at < text.size()) {
        size_t eol = text.find('\n', at);
        if (eol == std::string::npos) eol = text.size();
        size_t end = eol;
        const size_t semi = text.find(';', at), slashes = text.find("//", at);
        if (semi < end) end = semi;
        if (slashes < end) end = slashes;
        const std::string line = text.substr(at, end - at);
        if (line.compare(0, 7, "Object ") == 0 || line.compare(0, 13, "ObjectReskin ") == 0 ||
            line.compare(0, 12, "ChildObject ") == 0)
            flush();
        const size_t eq = line.find('=');
        if (eq != std::string::npos) {
            std::string key = line.substr(0, eq);
            key.erase(0, key.find_first_not_of(" \t"));
            key.erase(key.find_last_not_of(" \t") + 1);
            const std::string k = upper(key);
            if (k == "MODEL") {
                std::string v = line.substr(eq + 1);
                v.erase(0, v.find_first_not_of(" \t\r"));
                v.erase(v.find_last_not_of(" \t\r") + 1);
                if (equalsNoCase(v, base) || equalsNoCase(v, file)) namesModel = true;
            } else if (k.find("BONE") != std::string::npos) {
                for (size_t w : wordsIn(text, at + eq + 1, end, bone))
                    pending.push_back(w);
            }
        }
        at = eol + 1;
    }
    flush();
    return out;
}

// A bone rename in an object definition file: each line holding a word to replace gets its new text.
std::vector<TextEdit> textBoneRename(SourceTree& tree, const std::string& model, const std::string& from,
                                     const std::string& to, bool apply) {
    const ByteSpan o = tree.original();
    std::string text;
    // The current text (earlier edits included).
    {
        const std::vector<uint8_t> now = tree.write();
        text.assign(now.begin(), now.end());
    }
    (void)o;
    const bool xml = endsWithNoCase(tree.label(), ".xml");
    std::vector<size_t> words = xml ? xmlBoneWords(text, model, from) : iniBoneWords(text, model, from);
    std::vector<TextEdit> out;
    if (words.empty()) return out;
    std::sort(words.begin(), words.end());
    // Line starts of the current text map to the tree's line nodes (one per line, in order).
    std::vector<SourceNode*> lines;
    for (SourceNode& n : tree.roots())
        lines.push_back(&n);
    std::vector<size_t> starts;
    size_t s = 0;
    for (SourceNode* n : lines) {
        starts.push_back(s);
        s += tree.payloadOf(*n).size();
    }
    std::map<size_t, std::vector<size_t>> byLine;
    for (size_t w : words) {
        const size_t line = size_t(std::upper_bound(starts.begin(), starts.end(), w) - starts.begin()) - 1;
        byLine[line].push_back(w - starts[line]);
    }
    for (auto& [line, offsets] : byLine) {
        SourceNode& n = *lines[line];
        std::vector<uint8_t> p = tree.payloadOf(n);
        const std::string before(p.begin(), p.end());
        std::string after = before;
        for (auto it = offsets.rbegin(); it != offsets.rend(); ++it)
            after.replace(*it, from.size(), to);
        auto trim = [](std::string t) {
            while (!t.empty() && (t.back() == '\n' || t.back() == '\r'))
                t.pop_back();
            t.erase(0, t.find_first_not_of(" \t"));
            return t;
        };
        out.push_back({n.label, n.begin, trim(before), trim(after), "bone name"});
        if (apply) tree.setPayload(n, std::vector<uint8_t>(after.begin(), after.end()));
    }
    return out;
}

std::string utf8(const std::string& cp) { return cp1252ToUtf8(cp); }

} // namespace

EditFile& EditSet::add(const std::string& path, std::shared_ptr<const std::vector<uint8_t>> bytes) {
    if (EditFile* f = find(path)) return *f;
    EditFile f;
    f.path = path;
    f.label = path;
    f.bytes = bytes;
    if (isTextDefinition(path)) {
        f.text = true;
        f.tree = lineTree(bytes, path);
    } else {
        f.format = writableFormat(ByteSpan(*bytes), path);
        if (f.format == Format::Unknown || f.format == Format::Meg || f.format == Format::Big)
            throw ParseError(path, {}, ParseError::kNoOffset, "rigscope does not edit this kind of file");
        f.tree = sourceTree(f.format, bytes, path);
    }
    files_.push_back(std::move(f));
    return files_.back();
}

EditFile& EditSet::open(const std::string& path) {
    if (EditFile* f = find(path)) return *f;
    auto bytes = std::make_shared<std::vector<uint8_t>>();
    constexpr uint64_t kMaxDefinitionBytes = uint64_t(64) << 20; // object XML/INI: no format cap applies
    if (isTextDefinition(path)) {
        if (resolver_) {
            if (!resolver_->readBytes(path, *bytes, kMaxDefinitionBytes))
                throw ParseError(path, {}, ParseError::kNoOffset, "file not found (or larger than 64 MiB)");
        } else {
            *bytes = readFile(path, kMaxDefinitionBytes, "object definition");
        }
    } else if (resolver_) {
        if (!resolver_->readAssetBytes(path, *bytes))
            throw ParseError(path, {}, ParseError::kNoOffset, "file not found");
    } else {
        *bytes = readInputFile(path);
    }
    return add(path, std::move(bytes));
}

EditFile* EditSet::find(const std::string& path) {
    for (EditFile& f : files_)
        if (f.path == path) return &f;
    return nullptr;
}

std::vector<std::string> EditSet::dirtyFiles() const {
    std::vector<std::string> out;
    for (const EditFile& f : files_)
        if (f.dirty()) out.push_back(f.path);
    return out;
}

namespace {

// Runs op on one file; the changes with the journal entries it added (for undo).
std::vector<Change> applyOne(EditFile& f, const EditOp& op, const std::string& model, bool apply) {
    const size_t mark = f.tree.journal().size();
    std::vector<TextEdit> edits;
    if (f.text) {
        if (op.kind != EditOp::Kind::RenameBone)
            throw EditError(f.label + ": object definitions take only bone renames here");
        edits = textBoneRename(f.tree, model, op.name, op.value, apply);
    } else {
        edits = applyEdit(f.format, f.tree, op, apply);
    }
    std::vector<Change> out;
    for (const TextEdit& e : edits) {
        Change c;
        c.file = f.path;
        c.path = e.path;
        c.offset = e.offset;
        c.what = e.what.empty() ? std::string("texture") : e.what;
        c.before = utf8(e.before);
        c.after = utf8(e.after);
        out.push_back(std::move(c));
    }
    const auto& journal = f.tree.journal();
    for (size_t j = mark; j < journal.size(); ++j) {
        const SourceTree::PayloadChange& pc = journal[j];
        const SourceNode* n = f.tree.at(pc.node);
        Change* target = nullptr;
        for (Change& c : out)
            if (n && c.offset == n->begin && c.node.empty()) {
                target = &c;
                break;
            }
        if (!target) { // a node changed without its own line (kept for undo all the same)
            out.push_back({f.path,
                           n ? f.tree.pathAt(n->begin) : std::string(),
                           n ? n->begin : 0,
                           "bytes",
                           "",
                           "",
                           {},
                           {},
                           {},
                           {}});
            target = &out.back();
        }
        target->node = pc.node;
        target->payloadBefore = pc.before;
        target->payloadAfter = pc.after;
        target->childrenBefore = pc.childrenBefore;
    }
    return out;
}

} // namespace

Step EditSet::apply(const std::string& path, const EditOp& op, bool apply) {
    Step step;
    step.op = op;
    EditFile& first = open(path);
    std::vector<std::string> files{first.path};
    if (op.kind == EditOp::Kind::RenameBone)
        for (const std::string& c : boneCompanions(resolver_, path, op.name))
            if (c != first.path) files.push_back(c);
    for (const std::string& p : files)
        open(p);
    // Every file checked first (a dry run), so that an edit that fails in one file changes none.
    std::vector<std::vector<Change>> planned;
    for (const std::string& p : files) {
        EditFile& f = *find(p);
        planned.push_back(applyOne(f, op, path, false));
    }
    if (!apply) {
        for (auto& c : planned)
            step.changes.insert(step.changes.end(), c.begin(), c.end());
        return step;
    }
    for (const std::string& p : files) {
        EditFile& f = *find(p);
        std::vector<Change> c = applyOne(f, op, path, true);
        step.changes.insert(step.changes.end(), c.begin(), c.end());
    }
    return step;
}

void EditSet::undo(const Step& step) {
    for (auto it = step.changes.rbegin(); it != step.changes.rend(); ++it) {
        if (it->node.empty()) continue;
        EditFile* f = find(it->file);
        if (!f) continue;
        f->tree.restorePayload(it->node, it->payloadBefore, it->childrenBefore);
    }
}

void EditSet::redo(const Step& step) {
    for (const Change& c : step.changes) {
        if (c.node.empty()) continue;
        EditFile* f = find(c.file);
        if (!f) continue;
        f->tree.restorePayload(c.node, c.payloadAfter);
    }
}

std::vector<std::string> boneCompanions(const Resolver* resolver, const std::string& path, const std::string& bone) {
    std::set<std::string> out;
    if (!resolver) return {};
    std::vector<uint8_t> head;
    if (!resolver->readAssetBytes(path, head)) return {};
    const Format format = detectFormat(ByteSpan(head), path);
    EditOp probe;
    probe.kind = EditOp::Kind::RenameBone;
    probe.name = bone;
    probe.value = bone + "_"; // any other name: the dry run says whether the file names the bone
    if (format == Format::AlamoModel)
        for (const std::string& c : resolver->companionClips(path)) {
            EditSet one;
            try {
                std::vector<uint8_t> b;
                if (!resolver->readAssetBytes(c, b)) continue;
                EditFile& f = one.add(c, std::make_shared<std::vector<uint8_t>>(std::move(b)));
                if (!applyOne(f, probe, path, false).empty()) out.insert(c);
            } catch (const std::exception&) {
                // a clip that cannot be read is not changed (the open of the model reports it)
            }
        }
    // Object definitions of the mounted folders that name the model and the bone.
    const std::shared_ptr<const vfs::MountTable>& table = resolver->mounted();
    if (table && table->size()) {
        const std::shared_ptr<const objects::ObjectDb> db = objects::ObjectDb::load(*table);
        for (const std::string& key : db->filesRead()) {
            const vfs::Hit* h = table->find(key);
            if (!h) continue;
            const vfs::EntryBytes b = table->read(*h);
            const std::string text(reinterpret_cast<const char*>(b.span.data), b.span.size);
            const bool xml = endsWithNoCase(key, ".xml");
            if (!(xml ? xmlBoneWords(text, path, bone) : iniBoneWords(text, path, bone)).empty())
                out.insert(table->describe(*h));
        }
    }
    return {out.begin(), out.end()};
}

bool isObjectDefinition(const std::string& path) { return isTextDefinition(path); }

SourceTree editableTree(const std::string& path, std::shared_ptr<const std::vector<uint8_t>> bytes, Format* format) {
    if (isTextDefinition(path)) {
        if (format) *format = Format::Unknown;
        return lineTree(std::move(bytes), path);
    }
    const Format f = writableFormat(ByteSpan(*bytes), path);
    if (f == Format::Unknown || f == Format::Meg || f == Format::Big)
        throw ParseError(path, {}, ParseError::kNoOffset, "rigscope does not edit this kind of file");
    if (format) *format = f;
    return sourceTree(f, std::move(bytes), path);
}

std::vector<TextEdit> applyToTree(const std::string& path, Format format, SourceTree& tree, const EditOp& op,
                                  const std::string& model, bool apply) {
    if (!isTextDefinition(path)) return applyEdit(format, tree, op, apply);
    if (op.kind != EditOp::Kind::RenameBone) throw EditError(path + ": object definitions take only bone renames here");
    return textBoneRename(tree, model, op.name, op.value, apply);
}

EditOp parseRenameArg(EditOp::Kind kind, const std::string& arg) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
        throw EditError("'" + arg + "': a rename needs OLD=NEW");
    EditOp op;
    op.kind = kind;
    if (!utf8ToCp1252(arg.substr(0, eq), op.name) || !utf8ToCp1252(arg.substr(eq + 1), op.value))
        throw EditError("'" + arg + "': a name the games' files cannot hold (CP-1252)");
    return op;
}

EditOp parseSetArg(const std::string& arg) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) throw EditError("'" + arg + "': --set needs TARGET.PARAM=VALUE");
    const std::string lhs = arg.substr(0, eq);
    const size_t dot = lhs.rfind('.');
    if (dot == std::string::npos || dot + 1 == lhs.size())
        throw EditError("'" + arg + "': --set needs TARGET.PARAM=VALUE (TARGET may be empty: .PARAM=VALUE)");
    EditOp op;
    op.kind = EditOp::Kind::SetParam;
    if (!utf8ToCp1252(lhs.substr(0, dot), op.target) || !utf8ToCp1252(lhs.substr(dot + 1), op.name) ||
        !utf8ToCp1252(arg.substr(eq + 1), op.value))
        throw EditError("'" + arg + "': text the games' files cannot hold (CP-1252)");
    if (equalsNoCase(op.name, "shader")) op.kind = EditOp::Kind::SetShader, op.name.clear();
    return op;
}

std::vector<std::string> expandGlob(const std::string& pattern) {
    if (pattern.find_first_of("*?[") == std::string::npos) return {pattern};
    // The folder part before the first component with a glob character is walked from.
    std::string p = pattern;
    std::replace(p.begin(), p.end(), '\\', '/');
    const size_t g = p.find_first_of("*?[");
    const size_t slash = p.rfind('/', g);
    const std::string root = slash == std::string::npos ? std::string(".") : (slash == 0 ? "/" : p.substr(0, slash));
    const std::string rest = slash == std::string::npos ? p : p.substr(slash + 1);
    std::vector<std::string> out;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return out;
    const bool deep = rest.find('/') != std::string::npos || rest.find("**") != std::string::npos;
    auto test = [&](const fs::path& file) {
        std::string rel = file.lexically_relative(root).generic_string();
        if (rest.find("**") != std::string::npos) {
            // "**/" matches any run of folders (none included): tried with and without them.
            std::string pat = rest;
            size_t at;
            while ((at = pat.find("**/")) != std::string::npos)
                pat.replace(at, 3, "*");
            return fnmatch(pat.c_str(), rel.c_str(), 0) == 0;
        }
        return fnmatch(rest.c_str(), rel.c_str(), FNM_PATHNAME) == 0;
    };
    if (deep) {
        for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
             it.increment(ec)) {
            if (ec) break;
            if (!it->is_symlink(ec) && it->is_regular_file(ec) && test(it->path()))
                out.push_back(slash == std::string::npos ? it->path().lexically_relative(".").generic_string()
                                                         : it->path().generic_string());
        }
    } else {
        for (auto it = fs::directory_iterator(root, ec); it != fs::directory_iterator(); it.increment(ec)) {
            if (ec) break;
            if (it->is_regular_file(ec) && test(it->path()))
                out.push_back(slash == std::string::npos ? it->path().filename().generic_string()
                                                         : it->path().generic_string());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace rs::edit
