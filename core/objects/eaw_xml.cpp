#include "objects/eaw_xml.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>

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

static std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

std::vector<std::string> splitList(const std::string& value) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : value) {
        if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty()) out.push_back(cur), cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

namespace {

// Line/column of byte offsets, from a table of line starts.
struct LineIndex {
    std::vector<size_t> starts{0};
    explicit LineIndex(ByteSpan b) {
        for (size_t i = 0; i < b.size; ++i)
            if (b.data[i] == '\n') starts.push_back(i + 1);
    }
    void at(ptrdiff_t offset, SourcePos& p) const {
        if (offset < 0) return;
        const auto it = std::upper_bound(starts.begin(), starts.end(), size_t(offset));
        const size_t line = size_t(it - starts.begin());
        p.line = int(line);
        p.column = int(size_t(offset) - starts[line - 1] + 1);
    }
};

// Text of an element: its own text and CDATA, then that of nested elements (depth-first), space-separated.
void textOf(const pugi::xml_node& n, std::string& out, int depth = 0) {
    if (depth > 64) return;
    for (pugi::xml_node c : n.children()) {
        if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
            if (!out.empty()) out += ' ';
            out += c.value();
        } else if (c.type() == pugi::node_element) {
            textOf(c, out, depth + 1);
        }
    }
}

} // namespace

XmlFile parseObjectXml(ByteSpan bytes, const std::string& key) {
    if (bytes.size > kMaxXmlBytes)
        throw ParseError(key, "", ParseError::kNoOffset,
                         "XML file of " + std::to_string(bytes.size) + " bytes refused (more than " +
                             std::to_string(kMaxXmlBytes) + ")");
    XmlFile out;
    out.key = key;
    const LineIndex lines(bytes);
    pugi::xml_document doc;
    // parse_default without parse_doctype: the DOCTYPE is skipped, never interpreted; parse_escapes only expands
    // the five predefined entities and character references.
    const unsigned opts = pugi::parse_cdata | pugi::parse_escapes | pugi::parse_eol | pugi::parse_wconv_attribute;
    const pugi::xml_parse_result r = doc.load_buffer(bytes.data, bytes.size, opts, pugi::encoding_auto);
    if (!r) {
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
    std::vector<ptrdiff_t> offsets; // of each object's element
    for (pugi::xml_node el : root.children()) {
        if (el.type() != pugi::node_element) continue;
        const std::string tag = upper(el.name());
        if (tag == "FILE") {
            std::string v;
            textOf(el, v);
            v = trim(v);
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
        for (pugi::xml_node f : el.children()) {
            if (f.type() != pugi::node_element) continue;
            XmlField x;
            x.tag = f.name();
            x.upper = upper(x.tag);
            std::string v;
            textOf(f, v);
            x.value = trim(v);
            x.pos = posOf(f);
            o.fields.push_back(std::move(x));
            // Nested elements (depth-first, bounded).
            std::vector<std::pair<pugi::xml_node, int>> todo;
            for (pugi::xml_node c : f.children())
                if (c.type() == pugi::node_element) todo.emplace_back(c, 1);
            std::reverse(todo.begin(), todo.end());
            while (!todo.empty() && o.nested.size() < 100000) {
                auto [n, depth] = todo.back();
                todo.pop_back();
                XmlField y;
                y.tag = n.name();
                y.upper = upper(y.tag);
                std::string t;
                textOf(n, t);
                y.value = trim(t);
                y.pos = posOf(n);
                o.nested.push_back(std::move(y));
                if (depth >= 32) continue;
                std::vector<pugi::xml_node> kids;
                for (pugi::xml_node c : n.children())
                    if (c.type() == pugi::node_element) kids.push_back(c);
                for (auto it = kids.rbegin(); it != kids.rend(); ++it)
                    todo.emplace_back(*it, depth + 1);
            }
        }
        out.objects.push_back(std::move(o));
        offsets.push_back(el.offset_debug());
    }
    // The object open where the fault is was cut short: dropped, and named in the error.
    if (out.failed && !out.objects.empty() && offsetsValid && offsets.back() >= 0 && offsets.back() < r.offset) {
        out.error += " (object " + out.objects.back().name + " dropped)";
        out.objects.pop_back();
    }
    return out;
}

} // namespace rs::objects
