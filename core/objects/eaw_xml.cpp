#include "objects/eaw_xml.h"

#include "common/text_util.h"
#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace rs::objects {

std::string SourcePos::str() const {
    if (line <= 0) return file;
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

ParseError errorAt(const SourcePos& pos, const std::string& message) {
    std::string where;
    if (pos.line > 0) where = "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
    return ParseError(pos.file, where, ParseError::kNoOffset, message);
}

std::vector<const XmlField*> XmlObject::all(const std::string& upperTag) const {
    std::vector<const XmlField*> out;
    for (const XmlField& f : fields)
        if (f.upper == upperTag) out.push_back(&f);
    return out;
}

const XmlField* XmlObject::last(const std::string& upperTag) const {
    for (auto it = fields.rbegin(); it != fields.rend(); ++it)
        if (it->upper == upperTag) return &*it;
    return nullptr;
}

static std::string upper(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::vector<std::string> splitList(const std::string& value, size_t maxItems, bool* cut) {
    std::vector<std::string> out;
    if (cut) *cut = false;
    std::string cur;
    auto flush = [&] {
        if (cur.empty()) return true;
        if (out.size() >= maxItems) {
            if (cut) *cut = true;
            return false;
        }
        out.push_back(std::move(cur));
        cur.clear();
        return true;
    };
    for (char c : value) {
        if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
            if (!flush()) return out;
        } else {
            cur += c;
        }
    }
    flush();
    return out;
}

namespace {

// Line/column of byte offsets asked for in increasing order (document order): newlines are counted from the last
// offset asked for, so the whole file costs one pass and no table (a file of newlines would make a table of 8
// bytes per input byte). An earlier offset starts again from the top.
struct LineCursor {
    ByteSpan b;
    size_t off = 0, lineStart = 0;
    int line = 1;
    explicit LineCursor(ByteSpan s) : b(s) {}
    void at(ptrdiff_t offset, SourcePos& p) {
        if (offset < 0) return;
        size_t want = std::min(size_t(offset), b.size);
        if (want < off) off = 0, lineStart = 0, line = 1;
        while (off < want) {
            const void* nl = std::memchr(b.data + off, '\n', want - off);
            if (!nl) {
                off = want;
                break;
            }
            off = size_t(static_cast<const uint8_t*>(nl) - b.data) + 1;
            lineStart = off;
            ++line;
        }
        p.line = line;
        p.column = int(want - lineStart + 1);
    }
};

// Where the markup budgets are passed: the '<' of the element past kMaxXmlElements, or of the tag whose attribute
// is past kMaxXmlAttributes; bytes.size when the file is within both. Every '<' counts (comments and declarations
// too: a bound, not a count of elements); '=' signs count inside tags, outside quoted values.
struct MarkupCut {
    size_t at;
    const char* what = nullptr; // "elements" or "attributes"; null when within
};
MarkupCut scanMarkup(ByteSpan b) {
    size_t elements = 0, attributes = 0, tagStart = 0;
    bool inTag = false;
    uint8_t quote = 0;
    for (size_t i = 0; i < b.size; ++i) {
        const uint8_t c = b.data[i];
        if (c == '<') {
            if (++elements > budget::kMaxXmlElements) return {i, "elements"};
            inTag = true, quote = 0, tagStart = i;
        } else if (!inTag) {
            continue;
        } else if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '>') {
            inTag = false;
        } else if (c == '=' && ++attributes > budget::kMaxXmlAttributes) {
            return {tagStart, "attributes"};
        }
    }
    return {b.size};
}

// Text copied out of the tree, within kMaxXmlValueBytes a value and kMaxXmlTextBytes a file.
struct TextBudget {
    uint64_t left = budget::kMaxXmlTextBytes;
    bool valueCut = false; // the value being read was cut
    bool fileCut = false;  // the file's budget ran out (reported once)
    void add(std::string& out, const char* text) {
        const size_t valueRoom = budget::kMaxXmlValueBytes - std::min(out.size(), budget::kMaxXmlValueBytes);
        const size_t room = size_t(std::min<uint64_t>(valueRoom, left));
        size_t take = strnlen(text, room + 1);
        if (take > valueRoom) take = valueRoom, valueCut = true;
        if (take > left) take = size_t(left), fileCut = true;
        out.append(text, take);
        left -= take;
    }
};

// Text of an element: its own text and CDATA, then that of nested elements (depth-first), space-separated.
void textOf(const pugi::xml_node& n, std::string& out, TextBudget& tb, int depth = 0) {
    if (depth > 64) return;
    for (pugi::xml_node c : n.children()) {
        if (tb.valueCut || tb.fileCut) return;
        if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
            if (!out.empty()) tb.add(out, " ");
            tb.add(out, c.value());
        } else if (c.type() == pugi::node_element) {
            textOf(c, out, tb, depth + 1);
        }
    }
}

std::string number(uint64_t n) {
    std::string s = std::to_string(n);
    for (size_t i = s.size(); i > 3; i -= 3)
        s.insert(i - 3, ",");
    return s;
}

} // namespace

XmlFile parseObjectXml(ByteSpan bytes, const std::string& key) {
    if (bytes.size > kMaxXmlBytes)
        throw ParseError(key, "", ParseError::kNoOffset,
                         "XML file of " + std::to_string(bytes.size) + " bytes refused (more than " +
                             std::to_string(kMaxXmlBytes) + ")");
    XmlFile out;
    out.key = key;
    LineCursor lines(bytes);
    // Markup past the budgets is not parsed: the tree is built from the bytes before it.
    const MarkupCut cut = scanMarkup(bytes);
    std::string cutMessage;
    if (cut.what) {
        SourcePos p;
        p.file = key;
        lines.at(ptrdiff_t(cut.at), p);
        const size_t limit = std::string(cut.what) == "elements" ? budget::kMaxXmlElements : budget::kMaxXmlAttributes;
        cutMessage = errorAt(p, std::string("more than ") + number(limit) + " XML " + cut.what + " (budget kMaxXml" +
                                    (cut.what[0] == 'e' ? "Elements" : "Attributes") + "): the file is read up to here")
                         .what();
    }
    pugi::xml_document doc;
    // parse_default without parse_doctype: the DOCTYPE is skipped, never interpreted; parse_escapes only expands
    // the five predefined entities and character references.
    const unsigned opts = pugi::parse_cdata | pugi::parse_escapes | pugi::parse_eol | pugi::parse_wconv_attribute;
    const pugi::xml_parse_result r = doc.load_buffer(bytes.data, cut.at, opts, pugi::encoding_auto);
    if (cut.what) {
        out.failed = true;
        out.error = cutMessage;
        out.refused.push_back(cutMessage);
    } else if (!r) {
        SourcePos p;
        p.file = key;
        lines.at(r.offset, p);
        out.failed = true;
        out.error = errorAt(p, std::string("malformed XML: ") + r.description()).what();
    }
    const pugi::xml_node root = doc.document_element();
    if (!root) {
        if (!out.failed) {
            SourcePos p;
            p.file = key;
            out.failed = true;
            out.error = errorAt(p, "no root element").what();
        }
        return out;
    }
    out.root = root.name();
    // offset_debug is relative to the parsed buffer: valid while the encoding needed no conversion (8-bit files).
    const bool offsetsValid = bytes.size < 2 || !((bytes.data[0] == 0xFF && bytes.data[1] == 0xFE) ||
                                                  (bytes.data[0] == 0xFE && bytes.data[1] == 0xFF));
    auto posOf = [&](const pugi::xml_node& n) {
        SourcePos p;
        p.file = key;
        if (offsetsValid) lines.at(n.offset_debug(), p);
        return p;
    };
    TextBudget tb;
    // The text of n within the budgets; a cut is reported at `pos` (the first cut value, and the file's budget once).
    auto valueOf = [&](const pugi::xml_node& n, const SourcePos& pos) {
        std::string v;
        const bool fileWasCut = tb.fileCut;
        tb.valueCut = false;
        textOf(n, v, tb);
        if (tb.valueCut && out.refused.size() < 16)
            out.refused.push_back(errorAt(pos, std::string("value of <") + n.name() + "> longer than " +
                                                   number(budget::kMaxXmlValueBytes) +
                                                   " bytes (budget kMaxXmlValueBytes): cut there")
                                      .what());
        if (tb.fileCut && !fileWasCut)
            out.refused.push_back(errorAt(pos, "more than " + number(budget::kMaxXmlTextBytes) +
                                                   " bytes of element text in the file (budget kMaxXmlTextBytes): "
                                                   "later values are empty")
                                      .what());
        return trim(v);
    };
    std::vector<ptrdiff_t> offsets; // of each object's element
    for (pugi::xml_node el : root.children()) {
        if (el.type() != pugi::node_element) continue;
        const std::string tag = upper(el.name());
        if (tag == "FILE") {
            const std::string v = valueOf(el, posOf(el));
            if (!v.empty()) out.fileEntries.push_back(v);
            continue;
        }
        pugi::xml_attribute nameAttr;
        for (pugi::xml_attribute a : el.attributes())
            if (upper(a.name()) == "NAME") {
                nameAttr = a;
                break;
            }
        if (!nameAttr) continue; // not an object (engine: skipped)
        XmlObject o;
        o.type = el.name();
        o.name = trim(nameAttr.value());
        o.pos = posOf(el);
        bool full = false; // kMaxXmlFieldsPerObject reached
        for (pugi::xml_node f : el.children()) {
            if (f.type() != pugi::node_element) continue;
            if (o.fields.size() + o.nested.size() >= budget::kMaxXmlFieldsPerObject) {
                full = true;
                break;
            }
            XmlField x;
            x.tag = f.name();
            x.upper = upper(x.tag);
            x.pos = posOf(f);
            x.value = valueOf(f, x.pos);
            o.fields.push_back(std::move(x));
            // Nested elements (depth-first, bounded).
            std::vector<std::pair<pugi::xml_node, int>> todo;
            for (pugi::xml_node c : f.children())
                if (c.type() == pugi::node_element) todo.emplace_back(c, 1);
            std::reverse(todo.begin(), todo.end());
            while (!todo.empty()) {
                if (o.fields.size() + o.nested.size() >= budget::kMaxXmlFieldsPerObject) {
                    full = true;
                    break;
                }
                auto [n, depth] = todo.back();
                todo.pop_back();
                XmlField y;
                y.tag = n.name();
                y.upper = upper(y.tag);
                y.pos = posOf(n);
                y.value = valueOf(n, y.pos);
                o.nested.push_back(std::move(y));
                if (depth >= 32) continue;
                std::vector<pugi::xml_node> kids;
                for (pugi::xml_node c : n.children())
                    if (c.type() == pugi::node_element) kids.push_back(c);
                for (auto it = kids.rbegin(); it != kids.rend(); ++it)
                    todo.emplace_back(*it, depth + 1);
            }
            if (full) break;
        }
        if (full)
            out.refused.push_back(errorAt(o.pos, "object " + o.name + " has more than " +
                                                     number(budget::kMaxXmlFieldsPerObject) +
                                                     " tags (budget kMaxXmlFieldsPerObject): the rest are not read")
                                      .what());
        out.objects.push_back(std::move(o));
        offsets.push_back(el.offset_debug());
    }
    // The object open where the fault is was cut short: dropped, and named in the error.
    const ptrdiff_t faultAt = cut.what ? ptrdiff_t(cut.at) : r.offset;
    if (out.failed && !out.objects.empty() && offsetsValid && offsets.back() >= 0 && offsets.back() < faultAt &&
        (cut.what || !r)) {
        out.error += " (object " + out.objects.back().name + " dropped)";
        if (cut.what) out.refused.front() = out.error;
        out.objects.pop_back();
    }
    return out;
}

} // namespace rs::objects
