#include "w3x/w3x_reader.h"

#include "common/error.h"
#include "common/warnings.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

namespace rs::w3x {

namespace {

// std::from_chars for a float over [b, e): libc++ of Emscripten 3.1.6 (the web build) has no floating-point
// from_chars, so there the same contract is met with strtof on a terminated copy (Emscripten's locale is always
// "C"): the whole of [b, e) must be a decimal number; out of range is reported as std::from_chars reports it.
std::from_chars_result floatFromChars(const char* b, const char* e, float& v) {
#if defined(__EMSCRIPTEN__)
    const std::string t(b, e);
    if (t.empty() || std::isspace(static_cast<unsigned char>(t[0])) || t.find_first_of("xX") != std::string::npos)
        return {b, std::errc::invalid_argument};
    char* end = nullptr;
    errno = 0;
    const float r = std::strtof(t.c_str(), &end);
    const char* ptr = b + (end - t.c_str());
    if (end == t.c_str()) return {b, std::errc::invalid_argument};
    if (errno == ERANGE) return {ptr, std::errc::result_out_of_range};
    v = r;
    return {ptr, std::errc()};
#else
    return std::from_chars(b, e, v);
#endif
}

// ---------------------------------------------------------------------------------------------
// Places and errors

// "line L, column C" of byte `offset` (1-based; columns count bytes).
std::string placeAt(ByteSpan b, size_t offset) {
    offset = std::min(offset, b.size);
    size_t line = 1, start = 0;
    for (size_t i = 0; i < offset; ++i)
        if (b.data[i] == '\n') ++line, start = i + 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - start + 1);
}

[[noreturn]] void failAt(ByteSpan b, const std::string& label, size_t offset, const std::string& msg) {
    throw ParseError(label, placeAt(b, offset), ParseError::kNoOffset, msg);
}

bool startsWith(const uint8_t* p, const uint8_t* end, const char* s) {
    const size_t n = std::strlen(s);
    return size_t(end - p) >= n && std::memcmp(p, s, n) == 0;
}

const uint8_t* find(const uint8_t* p, const uint8_t* end, const char* s) {
    const size_t n = std::strlen(s);
    while (p < end) {
        const void* q = std::memchr(p, s[0], size_t(end - p));
        if (!q) return end;
        p = static_cast<const uint8_t*>(q);
        if (size_t(end - p) >= n && std::memcmp(p, s, n) == 0) return p;
        ++p;
    }
    return end;
}

// One pass over the text: the budgets of w3x_reader.h, before pugixml builds anything. Markup that is malformed
// (an unterminated comment or tag) ends the pass; pugixml then reports it.
void checkBudgets(ByteSpan b, const std::string& label) {
    if (b.size > kMaxFileBytes)
        throw ParseError(label, {}, ParseError::kNoOffset,
                         "W3X file of " + std::to_string(b.size) +
                             " bytes refused (larger than any W3X file: " + std::to_string(kMaxFileBytes) + ")");
    const uint8_t* const begin = b.data;
    const uint8_t* const end = b.data + b.size;
    const uint8_t* p = begin;
    uint64_t elements = 0;
    int depth = 0;
    auto at = [&](const uint8_t* q) { return size_t(q - begin); };
    while (p < end) {
        const void* lt = std::memchr(p, '<', size_t(end - p));
        const uint8_t* tag = lt ? static_cast<const uint8_t*>(lt) : end;
        if (size_t(tag - p) > kMaxTextBytes)
            failAt(b, label, at(p),
                   "text of " + std::to_string(tag - p) + " bytes between tags refused (more than " +
                       std::to_string(kMaxTextBytes) + ")");
        if (!lt) break;
        p = tag;
        if (startsWith(p, end, "<!--")) {
            const uint8_t* e = find(p + 4, end, "-->");
            if (e == end) return;
            p = e + 3;
        } else if (startsWith(p, end, "<![CDATA[")) {
            const uint8_t* e = find(p + 9, end, "]]>");
            if (e == end) return;
            if (size_t(e - p) > kMaxTextBytes)
                failAt(b, label, at(p),
                       "CDATA section of " + std::to_string(e - p) + " bytes refused (more than " +
                           std::to_string(kMaxTextBytes) + ")");
            p = e + 3;
        } else if (startsWith(p, end, "<?")) {
            const uint8_t* e = find(p + 2, end, "?>");
            if (e == end) return;
            p = e + 2;
        } else if (startsWith(p, end, "<!")) {
            failAt(b, label, at(p),
                   "document type and entity declarations (<!DOCTYPE, <!ENTITY) are refused: W3X files have none");
        } else if (startsWith(p, end, "</")) {
            const void* gt = std::memchr(p, '>', size_t(end - p));
            if (!gt) return;
            --depth;
            p = static_cast<const uint8_t*>(gt) + 1;
        } else {
            if (++elements > kMaxElements)
                failAt(b, label, at(p), "more than " + std::to_string(kMaxElements) + " elements refused");
            if (++depth > kMaxDepth)
                failAt(b, label, at(p), "elements nested more than " + std::to_string(kMaxDepth) + " deep refused");
            const uint8_t* q = p + 1;
            bool closed = false;
            while (q < end) {
                const uint8_t c = *q;
                if (c == '"' || c == '\'') {
                    const void* e = std::memchr(q + 1, c, size_t(end - q - 1));
                    if (!e) return;
                    const size_t len = size_t(static_cast<const uint8_t*>(e) - q - 1);
                    if (len > kMaxAttributeBytes)
                        failAt(b, label, at(q),
                               "attribute value of " + std::to_string(len) + " bytes refused (more than " +
                                   std::to_string(kMaxAttributeBytes) + ")");
                    q = static_cast<const uint8_t*>(e) + 1;
                } else if (c == '>') {
                    closed = q[-1] == '/';
                    ++q;
                    break;
                } else {
                    ++q;
                }
            }
            if (closed) --depth;
            p = q;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tree access

// Element name without a namespace prefix.
const char* localName(const pugi::xml_node& n) {
    const char* s = n.name();
    const char* c = std::strrchr(s, ':');
    return c ? c + 1 : s;
}

bool named(const pugi::xml_node& n, const char* name) {
    return n.type() == pugi::node_element && strcasecmp(localName(n), name) == 0;
}

pugi::xml_attribute attr(const pugi::xml_node& n, const char* name) {
    for (pugi::xml_attribute a : n.attributes())
        if (strcasecmp(a.name(), name) == 0) return a;
    return {};
}

std::string trim(const char* s) {
    const char* e = s + std::strlen(s);
    while (s < e && std::isspace(static_cast<unsigned char>(*s)))
        ++s;
    while (e > s && std::isspace(static_cast<unsigned char>(e[-1])))
        --e;
    return std::string(s, e);
}

// Reads one parsed file: element positions for messages, typed values refused with their line and column.
struct Reader {
    ByteSpan bytes;
    std::string label;

    // Where an element starts (its '<'; pugixml gives the offset of its name in the buffer as passed).
    ptrdiff_t offsetOf(const pugi::xml_node& n) const {
        const ptrdiff_t o = n.offset_debug();
        return o > 0 && n.type() == pugi::node_element ? o - 1 : o;
    }
    [[noreturn]] void fail(const pugi::xml_node& n, const std::string& msg) const {
        const ptrdiff_t o = offsetOf(n);
        if (o < 0) throw ParseError(label, {}, ParseError::kNoOffset, msg);
        failAt(bytes, label, size_t(o), msg);
    }
    std::string where(const pugi::xml_node& n) const {
        const ptrdiff_t o = offsetOf(n);
        return o < 0 ? label : label + " (" + placeAt(bytes, size_t(o)) + ")";
    }

    std::string text(const pugi::xml_node& n) const { return trim(n.child_value()); }

    // Parses a float (C locale; "1.#QNAN"-style MSVC texts are NaN); refuses anything else.
    float number(const char* s, const pugi::xml_node& n, const char* what) const {
        while (std::isspace(static_cast<unsigned char>(*s)))
            ++s;
        const char* e = s + std::strlen(s);
        while (e > s && std::isspace(static_cast<unsigned char>(e[-1])))
            --e;
        const char* b = s;
        if (b < e && *b == '+') ++b;
        float v = 0.0f;
        const auto r = floatFromChars(b, e, v);
        if (r.ec == std::errc() && r.ptr == e && b < e) return v;
        if (r.ec == std::errc::result_out_of_range && r.ptr == e) return std::strtof("inf", nullptr);
        if (std::find(s, e, '#') != e &&
            (std::search(s, e, "IND", "IND" + 3) != e || std::search(s, e, "NAN", "NAN" + 3) != e ||
             std::search(s, e, "INF", "INF" + 3) != e))
            return std::nanf("");
        fail(n, std::string(what) + " '" + printable(std::string(s, e)) + "' is not a number");
    }
    float numberAttr(const pugi::xml_node& n, const char* name, float fallback, bool required) const {
        const pugi::xml_attribute a = attr(n, name);
        if (!a) {
            if (required) fail(n, std::string("<") + localName(n) + "> has no " + name + " attribute");
            return fallback;
        }
        return number(a.value(), n, (std::string("attribute ") + name).c_str());
    }
    int64_t integer(const char* s, const pugi::xml_node& n, const char* what, int64_t lo, int64_t hi) const {
        const std::string t = trim(s);
        const char* b = t.data();
        const char* e = b + t.size();
        if (b < e && *b == '+') ++b;
        int64_t v = 0;
        const auto r = std::from_chars(b, e, v);
        if (r.ec != std::errc() || r.ptr != e || b == e)
            fail(n, std::string(what) + " '" + printable(t) + "' is not an integer");
        if (v < lo || v > hi)
            fail(n, std::string(what) + " " + std::to_string(v) + " out of range (" + std::to_string(lo) + ".." +
                        std::to_string(hi) + ")");
        return v;
    }
    int64_t intAttr(const pugi::xml_node& n, const char* name, int64_t fallback, bool required, int64_t lo,
                    int64_t hi) const {
        const pugi::xml_attribute a = attr(n, name);
        if (!a) {
            if (required) fail(n, std::string("<") + localName(n) + "> has no " + name + " attribute");
            return fallback;
        }
        return integer(a.value(), n, (std::string("attribute ") + name).c_str(), lo, hi);
    }
    bool boolean(const char* s, const pugi::xml_node& n, const char* what) const {
        const std::string t = trim(s);
        if (t == "true" || t == "1" || strcasecmp(t.c_str(), "true") == 0) return true;
        if (t == "false" || t == "0" || strcasecmp(t.c_str(), "false") == 0) return false;
        fail(n, std::string(what) + " '" + printable(t) + "' is not a boolean");
    }
    bool boolAttr(const pugi::xml_node& n, const char* name, bool fallback) const {
        const pugi::xml_attribute a = attr(n, name);
        return a ? boolean(a.value(), n, (std::string("attribute ") + name).c_str()) : fallback;
    }
    std::string idOf(const pugi::xml_node& n) const {
        const pugi::xml_attribute a = attr(n, "id");
        if (!a || trim(a.value()).empty()) fail(n, std::string("<") + localName(n) + "> has no id");
        return trim(a.value());
    }
    glm::vec3 vec3(const pugi::xml_node& n) const {
        return {numberAttr(n, "X", 0, true), numberAttr(n, "Y", 0, true), numberAttr(n, "Z", 0, true)};
    }
    pugi::xml_node child(const pugi::xml_node& n, const char* name) const {
        for (pugi::xml_node c : n.children())
            if (named(c, name)) return c;
        return {};
    }
    pugi::xml_node required(const pugi::xml_node& n, const char* name) const {
        pugi::xml_node c = child(n, name);
        if (!c) fail(n, std::string("<") + localName(n) + "> has no <" + name + ">");
        return c;
    }
};

// ---------------------------------------------------------------------------------------------
// Declarations

w3d::Hierarchy readHierarchy(const Reader& r, const pugi::xml_node& el, std::vector<std::string>& warnings) {
    w3d::Hierarchy h;
    h.name = r.idOf(el);
    for (pugi::xml_node p : el.children()) {
        if (!named(p, "Pivot")) continue;
        if (h.pivots.size() >= kMaxPivots) r.fail(p, "more than " + std::to_string(kMaxPivots) + " pivots");
        const size_t index = h.pivots.size();
        w3d::Pivot pv;
        const pugi::xml_attribute name = attr(p, "Name");
        pv.name = name ? trim(name.value()) : std::string();
        const int64_t parent = r.intAttr(p, "Parent", -1, false, -1, int64_t(kMaxPivots));
        pv.parent = parent < 0 ? 0xFFFFFFFFu : uint32_t(parent);
        if (const pugi::xml_node t = r.child(p, "Translation")) pv.translation = r.vec3(t);
        if (const pugi::xml_node q = r.child(p, "Rotation"))
            pv.rotation = glm::quat(r.numberAttr(q, "W", 1, true), r.numberAttr(q, "X", 0, true),
                                    r.numberAttr(q, "Y", 0, true), r.numberAttr(q, "Z", 0, true));
        if (!std::isfinite(glm::dot(pv.translation, pv.translation)) ||
            !std::isfinite(glm::dot(pv.rotation, pv.rotation)))
            r.fail(p, "pivot " + std::to_string(index) + " '" + pv.name + "' has non-finite values");
        if (parent < 0) {
            if (index != 0)
                pushWarning(warnings, r.where(p) + ": hierarchy " + h.name + ": pivot " + std::to_string(index) + " '" +
                                          pv.name + "' has no parent; treated as a second root");
        } else if (size_t(parent) >= index) {
            r.fail(p, "pivot " + std::to_string(index) + " '" + pv.name + "' has parent " + std::to_string(parent) +
                          (size_t(parent) == index ? " (itself)" : "") + "; parents must come before their children");
        }
        h.pivots.push_back(std::move(pv));
    }
    if (h.pivots.empty()) r.fail(el, "hierarchy " + h.name + " has no pivots");
    if (h.pivots[0].parent != 0xFFFFFFFFu) r.fail(el, "hierarchy " + h.name + ": pivot 0 must be the root (Parent -1)");
    return h;
}

// Every child element `item` of `list` through `each` (with its index); the count first.
template <class Each> size_t forItems(const pugi::xml_node& list, const char* item, Each each) {
    size_t i = 0;
    for (pugi::xml_node c : list.children())
        if (named(c, item)) each(c, i++);
    return i;
}

w3d::RawMesh readMesh(const Reader& r, const pugi::xml_node& el, std::vector<std::string>& warnings) {
    w3d::RawMesh m;
    const std::string id = r.idOf(el);
    const size_t dot = id.find('.');
    if (dot == std::string::npos) {
        m.name = id;
    } else {
        m.container = id.substr(0, dot);
        m.name = id.substr(dot + 1);
    }
    m.version = 0x40002;
    const pugi::xml_attribute gt = attr(el, "GeometryType");
    const std::string geometry = gt ? trim(gt.value()) : std::string("Normal");
    if (strcasecmp(geometry.c_str(), "Skin") == 0)
        m.attributes |= 0x00020000u;
    else if (strcasecmp(geometry.c_str(), "CameraAligned") == 0)
        m.attributes |= 0x00010000u;
    else if (strcasecmp(geometry.c_str(), "CameraOriented") == 0)
        m.attributes |= 0x00060000u;
    else if (strcasecmp(geometry.c_str(), "Normal") != 0)
        r.fail(el, "GeometryType '" + printable(geometry) + "' is not Normal, Skin, CameraAligned or CameraOriented");
    if (r.boolAttr(el, "Hidden", false)) m.attributes |= 0x00001000u;
    if (r.boolAttr(el, "CastShadow", false)) m.attributes |= 0x00008000u;
    if (const pugi::xml_node bb = r.child(el, "BoundingBox")) {
        if (const pugi::xml_node mn = r.child(bb, "Min")) m.boundsMin = r.vec3(mn);
        if (const pugi::xml_node mx = r.child(bb, "Max")) m.boundsMax = r.vec3(mx);
    }
    int vertexLists = 0, normalLists = 0, uvLists = 0, influenceLists = 0;
    w3d::MaterialPass pass;
    // Lists that must hold one item per vertex, with their item's name: checked below.
    std::vector<std::pair<pugi::xml_node, const char*>> sized;
    std::vector<float> weight2;
    pugi::xml_node shader, triangles;
    auto readVec3List = [&](const pugi::xml_node& list, const char* item, std::vector<glm::vec3>& out) {
        out.reserve(size_t(std::distance(list.begin(), list.end())));
        forItems(list, item, [&](const pugi::xml_node& c, size_t) { out.push_back(r.vec3(c)); });
        sized.emplace_back(list, item);
    };
    for (pugi::xml_node c : el.children()) {
        if (c.type() != pugi::node_element) continue;
        if (named(c, "Vertices")) {
            if (++vertexLists > 2) r.fail(c, "more than two <Vertices> lists");
            readVec3List(c, "V", vertexLists == 1 ? m.positions : m.positions2);
        } else if (named(c, "Normals")) {
            if (++normalLists > 2) r.fail(c, "more than two <Normals> lists");
            readVec3List(c, "N", normalLists == 1 ? m.normals : m.normals2);
        } else if (named(c, "Tangents")) {
            readVec3List(c, "T", m.tangents);
        } else if (named(c, "Binormals") || named(c, "Bitangents")) {
            readVec3List(c, "B", m.bitangents);
        } else if (named(c, "VertexColors")) {
            forItems(c, "C", [&](const pugi::xml_node& v, size_t) {
                auto ch = [&](const char* n) {
                    const float f = r.numberAttr(v, n, 1.0f, false);
                    return uint8_t(std::lround(std::clamp(std::isfinite(f) ? f : 0.0f, 0.0f, 1.0f) * 255.0f));
                };
                pass.dcg.push_back(glm::u8vec4(ch("R"), ch("G"), ch("B"), ch("A")));
            });
            sized.emplace_back(c, "C");
        } else if (named(c, "TexCoords")) {
            if (++uvLists > 2) {
                if (uvLists == 3) pushWarning(warnings, r.where(c) + ": UV channels past the second are not used");
                continue;
            }
            if (pass.stages.size() < size_t(uvLists)) pass.stages.resize(size_t(uvLists));
            std::vector<glm::vec2>& uv = pass.stages[size_t(uvLists - 1)].uv;
            forItems(c, "T", [&](const pugi::xml_node& v, size_t) {
                uv.push_back(glm::vec2(r.numberAttr(v, "X", 0, true), r.numberAttr(v, "Y", 0, true)));
            });
            sized.emplace_back(c, "T");
        } else if (named(c, "BoneInfluences")) {
            if (++influenceLists > 2) r.fail(c, "more than two <BoneInfluences> lists");
            const bool second = influenceLists == 2;
            if (second && m.influences.empty()) r.fail(c, "second <BoneInfluences> list without a first");
            forItems(c, "I", [&](const pugi::xml_node& v, size_t i) {
                const uint16_t bone = uint16_t(r.intAttr(v, "Bone", 0, true, 0, 65535));
                float w = r.numberAttr(v, "Weight", 1.0f, false);
                if (!std::isfinite(w) || w < 0.0f) r.fail(v, "influence weight is negative or not finite");
                if (!second) {
                    w3d::VertexInfluence vi;
                    vi.bone = bone;
                    m.influences.push_back(vi);
                    m.exactWeights.push_back(glm::vec2(w, 0.0f));
                } else if (i < m.influences.size()) {
                    m.influences[i].bone2 = bone;
                    m.exactWeights[i].y = w;
                } else {
                    r.fail(v, "second influence list longer than the first");
                }
            });
            sized.emplace_back(c, "I");
        } else if (named(c, "Triangles")) {
            triangles = c;
        } else if (named(c, "FXShader")) {
            if (shader) r.fail(c, "a second <FXShader>");
            shader = c;
        }
    }
    const size_t nv = m.positions.size();
    // Items are matched to vertices by position, so an element of another name in such a list is refused (it was
    // counted as an item while the list read one item fewer: fuzz_w3x).
    for (const auto& [list, item] : sized) {
        size_t n = 0;
        for (pugi::xml_node c : list.children()) {
            if (c.type() != pugi::node_element) continue;
            if (!named(c, item))
                r.fail(c, std::string("<") + localName(c) + "> in <" + localName(list) +
                              ">: a per-vertex list holds <" + item + "> items only");
            ++n;
        }
        if (n != nv)
            r.fail(list, std::string("<") + localName(list) + "> holds " + std::to_string(n) + " items for " +
                             std::to_string(nv) + " vertices");
    }
    if (influenceLists == 1 || influenceLists == 2)
        for (size_t i = 0; i < m.influences.size(); ++i) {
            // Percent weights too, as W3D stores them (whether a second bone is used; checks).
            const glm::vec2 w = m.exactWeights[i];
            m.influences[i].weight = uint16_t(std::lround(std::min(w.x, 1.0f) * 100.0f));
            m.influences[i].weight2 = w.y > 0 ? uint16_t(std::max(1L, std::lround(std::min(w.y, 1.0f) * 100.0f))) : 0;
        }
    if (triangles) {
        forItems(triangles, "T", [&](const pugi::xml_node& t, size_t i) {
            int k = 0;
            for (pugi::xml_node v : t.children()) {
                if (!named(v, "V")) continue;
                if (k == 3) r.fail(v, "triangle " + std::to_string(i) + " has more than three <V>");
                const int64_t idx = r.integer(v.child_value(), v, "vertex index", 0, 0xFFFFFFFFll);
                if (uint64_t(idx) >= nv)
                    r.fail(v, "triangle " + std::to_string(i) + " uses vertex " + std::to_string(idx) + " of " +
                                  std::to_string(nv));
                m.indices.push_back(uint32_t(idx));
                ++k;
            }
            if (k != 3) r.fail(t, "triangle " + std::to_string(i) + " has " + std::to_string(k) + " <V>, not 3");
        });
    }
    m.numVertices = uint32_t(nv);
    m.numTris = uint32_t(m.indices.size() / 3);
    if (m.skin() && m.influences.size() != nv)
        r.fail(el, "skin mesh " + id + " has no <BoneInfluences> for its vertices");
    if (!m.skin() && !m.influences.empty()) {
        m.influences.clear();
        m.exactWeights.clear();
    }
    w3d::ShaderMaterial sm;
    sm.typeName = "DefaultW3D.fx";
    if (shader) {
        const pugi::xml_attribute name = attr(shader, "ShaderName");
        if (!name || trim(name.value()).empty()) r.fail(shader, "<FXShader> has no ShaderName");
        sm.typeName = trim(name.value());
        if (const pugi::xml_node constants = r.child(shader, "Constants"))
            for (pugi::xml_node k : constants.children()) {
                if (k.type() != pugi::node_element) continue;
                w3d::ShaderMaterialProperty p;
                const pugi::xml_attribute pn = attr(k, "Name");
                if (!pn) r.fail(k, std::string("shader constant <") + localName(k) + "> has no Name");
                p.name = trim(pn.value());
                std::vector<pugi::xml_node> values;
                for (pugi::xml_node v : k.children())
                    if (named(v, "Value")) values.push_back(v);
                if (values.empty()) r.fail(k, "shader constant " + p.name + " has no <Value>");
                if (named(k, "Float")) {
                    if (values.size() > 4) r.fail(k, "shader constant " + p.name + " has more than four values");
                    p.type = values.size() == 1 ? 2 : values.size() == 2 ? 3 : values.size() == 3 ? 4 : 5;
                    for (size_t i = 0; i < values.size(); ++i)
                        p.value[int(i)] = r.number(values[i].child_value(), values[i], "shader constant value");
                } else if (named(k, "Texture")) {
                    p.type = 1;
                    p.text = r.text(values[0]);
                } else if (named(k, "Int")) {
                    p.type = 6;
                    p.intValue = int32_t(
                        r.integer(values[0].child_value(), values[0], "shader constant value", INT32_MIN, INT32_MAX));
                } else if (named(k, "Bool")) {
                    p.type = 7;
                    p.intValue = r.boolean(values[0].child_value(), values[0], "shader constant value");
                } else {
                    pushWarning(warnings, r.where(k) + ": shader constant type <" + localName(k) + "> ignored");
                    continue;
                }
                if (p.type == 7 && iequals(p.name, "CullingEnable") && p.intValue == 0) m.attributes |= 0x00002000u;
                sm.properties.push_back(std::move(p));
            }
        // The technique the art tool chose (the effect's technique list, 0 its first). Kept as the integer
        // parameter "TechniqueIndex" when it is not the first (the shader registry reads it: MuzzleFlash.fx's
        // Multiply_M is 1); 0 or absent adds nothing.
        if (const int64_t technique = r.intAttr(shader, "TechniqueIndex", 0, false, 0, INT32_MAX); technique != 0) {
            w3d::ShaderMaterialProperty t;
            t.type = 6;
            t.name = "TechniqueIndex";
            t.intValue = int32_t(technique);
            sm.properties.push_back(std::move(t));
        }
    } else {
        pushWarning(warnings, r.where(el) + ": mesh " + id + " has no <FXShader>; drawn with DefaultW3D.fx defaults");
    }
    m.shaderMaterials.push_back(std::move(sm));
    pass.shaderMaterialIds = {0};
    if (!pass.stages.empty()) {
        pass.uv = pass.stages[0].uv;
        if (pass.stages.size() < 2) pass.stages.clear(); // one UV set: the pass's own (as BFME stores it)
    }
    m.passes.push_back(std::move(pass));
    return m;
}

w3d::Box readBox(const Reader& r, const pugi::xml_node& el) {
    w3d::Box b;
    b.name = r.idOf(el);
    b.center = r.vec3(r.required(el, "Center"));
    b.extent = r.vec3(r.required(el, "Extent"));
    return b;
}

w3d::Hlod readContainer(const Reader& r, const pugi::xml_node& el) {
    w3d::Hlod h;
    h.name = r.idOf(el);
    const pugi::xml_attribute hier = attr(el, "Hierarchy");
    if (hier) h.hierarchy = trim(hier.value());
    w3d::LodArray lod;
    for (pugi::xml_node s : el.children()) {
        if (!named(s, "SubObject")) continue;
        w3d::SubObject o;
        o.bone = uint32_t(r.intAttr(s, "BoneIndex", 0, true, 0, 0xFFFFFFFFll));
        const pugi::xml_node ro = r.required(s, "RenderObject");
        pugi::xml_node ref;
        for (pugi::xml_node c : ro.children())
            if (c.type() == pugi::node_element) {
                ref = c;
                break;
            }
        if (!ref) r.fail(ro, "<RenderObject> names nothing");
        o.name = r.text(ref);
        if (o.name.empty()) r.fail(ref, std::string("<") + localName(ref) + "> is empty");
        lod.objects.push_back(std::move(o));
    }
    h.lods.push_back(std::move(lod));
    return h;
}

Clip readAnimation(const Reader& r, const pugi::xml_node& el, std::vector<std::string>& warnings) {
    Clip c;
    c.format = Format::W3x;
    c.name = r.idOf(el);
    c.codec = "w3x";
    const pugi::xml_attribute hier = attr(el, "Hierarchy");
    if (hier) c.hierarchyName = trim(hier.value());
    c.frameCount = uint32_t(r.intAttr(el, "NumFrames", 0, true, 0, kMaxFrames));
    const int64_t fps = r.intAttr(el, "FrameRate", 30, false, 0, 100000);
    if (fps == 0) pushWarning(c.warnings, "frame rate 0; playing at 30 fps");
    c.fps = fps == 0 ? 30.0f : float(fps);
    struct PivotData {
        std::vector<glm::vec3> t;
        std::vector<glm::quat> q;
        std::vector<uint8_t> vis, step;
    };
    std::map<uint32_t, PivotData> pivots;
    const uint32_t n = c.frameCount;
    uint64_t keys = 0, dense = 0;
    size_t nonFinite = 0, fractional = 0, pastEnd = 0;
    bool rootIgnored = false;
    const pugi::xml_node channels = r.child(el, "Channels");
    for (pugi::xml_node ch : channels.children()) {
        if (ch.type() != pugi::node_element) continue;
        const bool scalar = named(ch, "ChannelScalar"), quat = named(ch, "ChannelQuaternion");
        if (!scalar && !quat) {
            pushWarning(c.warnings, r.where(ch) + ": channel <" + std::string(localName(ch)) + "> ignored");
            continue;
        }
        const uint32_t pivot = uint32_t(r.intAttr(ch, "Pivot", 0, true, 0, kMaxPivots));
        const pugi::xml_attribute ta = attr(ch, "Type");
        const std::string type = ta ? trim(ta.value()) : std::string();
        int axis = -1; // 0..2 translation, 3 orientation, 4 visibility
        if (type == "XTranslation")
            axis = 0;
        else if (type == "YTranslation")
            axis = 1;
        else if (type == "ZTranslation")
            axis = 2;
        else if (type == "Orientation")
            axis = 3;
        else if (type == "Visibility")
            axis = 4;
        else
            r.fail(ch, "channel type '" + printable(type) + "' is not X/Y/ZTranslation, Orientation or Visibility");
        if ((axis == 3) != quat) r.fail(ch, "channel type " + type + " in <" + localName(ch) + ">");
        const uint32_t first = uint32_t(r.intAttr(ch, "FirstFrame", 0, false, 0, kMaxFrames));
        std::vector<pugi::xml_node> frames;
        for (pugi::xml_node f : ch.children())
            if (named(f, "Frame")) frames.push_back(f);
        keys += frames.size();
        if (pivot == 0) {
            rootIgnored = true;
            continue;
        }
        PivotData& d = pivots[pivot];
        // Dense arrays bounded by the keys the file holds (a NumFrames inflated past them is refused).
        auto grow = [&](auto& v, auto init) {
            if (!v.empty()) return;
            dense += n;
            if (dense > 4 * keys + 65536)
                r.fail(ch, "clip " + c.name + " declares " + std::to_string(n) + " frames for " + std::to_string(keys) +
                               " keys; dense tracks of " + std::to_string(dense) + " samples refused");
            v.assign(n, init);
        };
        if (axis <= 2) grow(d.t, glm::vec3(0.0f));
        if (axis == 3) grow(d.q, glm::quat(1, 0, 0, 0));
        if (axis == 4) grow(d.vis, uint8_t(1));
        // Key k at frame first + k; frames between keys do not exist (one key per frame).
        for (size_t k = 0; k < frames.size(); ++k) {
            const pugi::xml_node& f = frames[k];
            const uint64_t frame = uint64_t(first) + k;
            if (frame >= n) {
                pastEnd += frames.size() - k;
                break;
            }
            if (k > 0 && r.boolAttr(f, "BinaryMove", false)) {
                grow(d.step, uint8_t(0));
                d.step[frame - 1] = 1;
            }
            if (axis == 3) {
                glm::quat q(r.numberAttr(f, "W", 1, true), r.numberAttr(f, "X", 0, true), r.numberAttr(f, "Y", 0, true),
                            r.numberAttr(f, "Z", 0, true));
                const float len = glm::dot(q, q);
                if (!std::isfinite(len) || len < 1e-12f) {
                    ++nonFinite;
                    q = glm::quat(1, 0, 0, 0);
                }
                d.q[frame] = q;
            } else {
                float v = r.number(f.child_value(), f, "frame value");
                if (!std::isfinite(v)) {
                    ++nonFinite;
                    v = axis == 4 ? 1.0f : 0.0f;
                }
                if (axis == 4) {
                    if (v != 0.0f && v != 1.0f) ++fractional;
                    d.vis[frame] = v >= 0.5f;
                } else {
                    d.t[frame][axis] = v;
                }
            }
        }
    }
    for (auto& [p, d] : pivots) {
        BoneTrack t;
        t.bone = int(p);
        t.mode = TrackMode::AdditiveToBind;
        t.translation = std::move(d.t);
        t.rotation = std::move(d.q);
        t.visibility = std::move(d.vis);
        t.step = std::move(d.step);
        if (t.translation.empty() && t.rotation.empty() && t.visibility.empty()) continue;
        c.tracks.push_back(std::move(t));
    }
    if (nonFinite)
        pushWarning(c.warnings, std::to_string(nonFinite) +
                                    " non-finite key values (or zero quaternions) replaced by identity (0 / unit "
                                    "quaternion / visible)");
    if (fractional)
        pushWarning(c.warnings, std::to_string(fractional) +
                                    " visibility keys between 0 and 1 (fades): shown as visible from 0.5 on");
    if (pastEnd)
        pushWarning(c.warnings,
                    std::to_string(pastEnd) + " keys past the clip's " + std::to_string(n) + " frames ignored");
    if (rootIgnored)
        pushWarning(c.warnings, "channels on pivot 0 (the root, which carries the object transform) are ignored, "
                                "as in the game");
    (void)warnings;
    return c;
}

} // namespace

File readFile(ByteSpan bytes, const std::string& label) {
    checkBudgets(bytes, label);
    File f;
    f.label = label;
    f.bytes = bytes.size;
    Reader r{bytes, label};
    pugi::xml_document doc;
    // No DOCTYPE (refused above), no entity but the predefined five and character references.
    const unsigned opts = pugi::parse_cdata | pugi::parse_escapes | pugi::parse_eol;
    const pugi::xml_parse_result res = doc.load_buffer(bytes.data, bytes.size, opts, pugi::encoding_utf8);
    if (!res)
        failAt(bytes, label, size_t(std::max<ptrdiff_t>(res.offset, 0)),
               std::string("malformed XML: ") + res.description());
    const pugi::xml_node root = doc.document_element();
    if (!root || !named(root, "AssetDeclaration"))
        throw ParseError(label, {}, ParseError::kNoOffset,
                         std::string("not a W3X file: the root element is <") + (root ? root.name() : "") +
                             ">, not <AssetDeclaration>");
    for (pugi::xml_node el : root.children()) {
        if (el.type() != pugi::node_element) continue;
        if (named(el, "Includes")) {
            for (pugi::xml_node inc : el.children()) {
                if (!named(inc, "Include")) continue;
                Include i;
                if (const pugi::xml_attribute t = attr(inc, "type")) i.type = trim(t.value());
                const pugi::xml_attribute s = attr(inc, "source");
                if (!s || trim(s.value()).empty()) r.fail(inc, "<Include> has no source");
                i.source = trim(s.value());
                f.includes.push_back(std::move(i));
            }
        } else if (named(el, "W3DHierarchy")) {
            f.hierarchies.push_back(readHierarchy(r, el, f.warnings));
        } else if (named(el, "W3DMesh")) {
            f.meshes.push_back(readMesh(r, el, f.warnings));
        } else if (named(el, "W3DCollisionBox")) {
            f.boxes.push_back(readBox(r, el));
        } else if (named(el, "W3DContainer")) {
            f.containers.push_back(readContainer(r, el));
        } else if (named(el, "W3DAnimation")) {
            f.clips.push_back(readAnimation(r, el, f.warnings));
        } else if (named(el, "Texture")) {
            TextureDecl t;
            t.id = r.idOf(el);
            const pugi::xml_attribute file = attr(el, "File");
            if (!file || trim(file.value()).empty()) r.fail(el, "<Texture> " + t.id + " has no File");
            t.file = trim(file.value());
            t.declaredIn = label;
            f.textures.push_back(std::move(t));
        } else {
            pushWarning(f.warnings, r.where(el) + ": <" + std::string(localName(el)) + "> is not W3X art; skipped");
        }
    }
    return f;
}

DeclarationScan scanDeclarations(ByteSpan b) {
    DeclarationScan s;
    const uint8_t* p = b.data;
    const uint8_t* const end = b.data + b.size;
    // The value of attribute `name` inside the tag [p, gt), "" when absent.
    auto value = [](const uint8_t* p, const uint8_t* gt, const char* name) {
        const size_t n = std::strlen(name);
        for (const uint8_t* q = p; q + n + 2 < gt; ++q) {
            if (!std::isspace(q[0]) || strncasecmp(reinterpret_cast<const char*>(q + 1), name, n) != 0) continue;
            const uint8_t* e = q + 1 + n;
            while (e < gt && std::isspace(*e))
                ++e;
            if (e >= gt || *e != '=') continue;
            ++e;
            while (e < gt && std::isspace(*e))
                ++e;
            if (e >= gt || (*e != '"' && *e != '\'')) continue;
            const uint8_t* close = static_cast<const uint8_t*>(std::memchr(e + 1, *e, size_t(gt - e - 1)));
            if (!close) return std::string();
            return trim(
                std::string(reinterpret_cast<const char*>(e + 1), reinterpret_cast<const char*>(close)).c_str());
        }
        return std::string();
    };
    static const char* const kinds[] = {"W3DHierarchy", "W3DMesh",      "W3DCollisionBox",
                                        "W3DContainer", "W3DAnimation", "Texture"};
    while (p < end) {
        const void* lt = std::memchr(p, '<', size_t(end - p));
        if (!lt) break;
        p = static_cast<const uint8_t*>(lt) + 1;
        for (const char* k : kinds) {
            const size_t n = std::strlen(k);
            if (size_t(end - p) <= n || std::memcmp(p, k, n) != 0 || !std::isspace(p[n])) continue;
            const void* gt = std::memchr(p, '>', size_t(end - p));
            if (!gt) return s;
            const uint8_t* g = static_cast<const uint8_t*>(gt);
            const std::string id = value(p + n, g, "id");
            if (!id.empty()) s.declarations.emplace_back(k, id);
            if (std::strcmp(k, "W3DAnimation") == 0) s.clipHierarchies.push_back(value(p + n, g, "Hierarchy"));
            if (std::strcmp(k, "W3DContainer") == 0 && s.containerHierarchy.empty())
                s.containerHierarchy = value(p + n, g, "Hierarchy");
            break;
        }
    }
    return s;
}

Document loadSet(ByteSpan bytes, const std::string& label, const Lookup& lookup) {
    File main = readFile(bytes, label);
    std::vector<std::string> warnings = main.warnings;
    // Included and looked-up files, in the order read (shared: a lookup may hand out a file it keeps parsed).
    std::vector<std::shared_ptr<const File>> more;
    std::vector<std::string> whereOf;            // Source::where of more[i]
    std::map<std::string, int> seen{{label, 0}}; // label -> node (0: the main file, i + 1: more[i])
    std::vector<std::vector<int>> includes(1);   // node -> the nodes its Includes led to
    uint64_t total = bytes.size;
    auto labelOf = [&](int node) -> const std::string& { return node == 0 ? label : more[size_t(node - 1)]->label; };
    // Reads (or takes parsed) a file found for a reference: its node, nullopt (with a warning) when unusable.
    auto take = [&](const std::optional<Source>& src, const std::string& what) -> std::optional<int> {
        if (!src) return std::nullopt;
        if (const auto it = seen.find(src->label); it != seen.end()) return it->second;
        if (!src->bytes && !src->parsed) return std::nullopt;
        const uint64_t size = src->parsed ? src->parsed->bytes : src->bytes->size();
        if (seen.size() >= kMaxFiles || total + size > kMaxTotalBytes) {
            pushWarning(warnings, what + ": " + src->label + " not read (more than " + std::to_string(kMaxFiles) +
                                      " files or " + std::to_string(kMaxTotalBytes) + " bytes for one asset)");
            return std::nullopt;
        }
        std::shared_ptr<const File> f = src->parsed;
        try {
            if (!f) f = std::make_shared<const File>(readFile(ByteSpan(*src->bytes), src->label));
        } catch (const ParseError& e) {
            pushWarning(warnings, what + ": " + e.what());
            return std::nullopt;
        }
        total += size;
        more.push_back(f);
        whereOf.push_back(src->where);
        includes.emplace_back();
        const int node = int(more.size());
        seen.emplace(src->label, node);
        for (const std::string& w : f->warnings)
            pushWarning(warnings, w);
        return node;
    };
    // Includes, transitively (breadth first: what the main file includes is read before what those include);
    // each file once, a relative source resolved from the file holding it (Lookup::include's `from`).
    struct Pending {
        Include include;
        int from; // node holding it
    };
    std::vector<Pending> pending;
    for (const Include& i : main.includes)
        pending.push_back({i, 0});
    std::set<std::pair<std::string, std::string>> asked; // (from's where, source)
    for (size_t i = 0; i < pending.size(); ++i) {
        const Include inc = pending[i].include;
        const int from = pending[i].from;
        const std::string& fromWhere = from == 0 ? std::string() : whereOf[size_t(from - 1)];
        if (!asked.emplace(fromWhere, toLower(inc.source)).second) continue;
        const std::string in = from == 0 ? std::string() : " (included by " + labelOf(from) + ")";
        std::optional<Source> src;
        try {
            if (lookup.include) src = lookup.include(inc.source, fromWhere);
        } catch (const ParseError& e) {
            pushWarning(warnings, "include " + inc.source + in + ": " + e.what());
            continue;
        }
        if (!src) {
            pushWarning(warnings, "include " + inc.source + in + " not found");
            continue;
        }
        const size_t before = more.size();
        const std::optional<int> node = take(src, "include " + inc.source + in);
        if (!node) continue;
        std::vector<int>& edges = includes[size_t(from)];
        if (std::find(edges.begin(), edges.end(), *node) == edges.end()) edges.push_back(*node);
        if (more.size() > before)
            for (const Include& next : more.back()->includes)
                pending.push_back({next, *node});
    }
    // Include cycles (a file reached again from itself): refused by name; each file was read once, the Include
    // closing the cycle is not followed again.
    {
        std::vector<int> state(includes.size(), 0), path; // 0 unvisited, 1 on the path, 2 done
        std::set<std::string> reported;
        auto visit = [&](auto&& self, int n) -> void {
            state[size_t(n)] = 1;
            path.push_back(n);
            for (int m : includes[size_t(n)]) {
                if (state[size_t(m)] == 1) {
                    std::string chain;
                    for (auto it = std::find(path.begin(), path.end(), m); it != path.end(); ++it)
                        chain += labelOf(*it) + " -> ";
                    chain += labelOf(m);
                    if (reported.insert(chain).second)
                        pushWarning(warnings, "include cycle refused: " + chain +
                                                  " (each file is read once; the Include closing the cycle is not "
                                                  "followed)");
                } else if (state[size_t(m)] == 0) {
                    self(self, m);
                }
            }
            path.pop_back();
            state[size_t(n)] = 2;
        };
        for (size_t n = 0; n < includes.size(); ++n)
            if (state[n] == 0) visit(visit, int(n));
    }
    // Finds a declaration by id in the files read so far, else through the lookup.
    auto has = [&](auto member, const std::string& id, auto nameOf) {
        auto in = [&](const File& f) {
            for (const auto& x : f.*member)
                if (iequals(nameOf(x), id)) return true;
            return false;
        };
        if (in(main)) return true;
        for (const auto& f : more)
            if (in(*f)) return true;
        return false;
    };
    auto need = [&](auto member, const char* kind, const std::string& id, auto nameOf) {
        if (id.empty() || has(member, id, nameOf)) return;
        std::optional<Source> src;
        try {
            if (lookup.declaration) src = lookup.declaration(kind, id);
        } catch (const ParseError& e) {
            pushWarning(warnings, std::string(kind) + " " + id + ": " + e.what());
            return;
        }
        const std::optional<int> node = src ? take(src, std::string(kind) + " " + id) : std::nullopt;
        if (!node) return;
        if (!has(member, id, nameOf)) pushWarning(warnings, labelOf(*node) + " does not declare " + kind + " " + id);
    };
    const auto hierName = [](const w3d::Hierarchy& h) -> const std::string& { return h.name; };
    const auto meshName = [](const w3d::RawMesh& m) { return m.fullName(); };
    const auto boxName = [](const w3d::Box& b) -> const std::string& { return b.name; };
    std::string hierarchy;
    for (const w3d::Hlod& h : main.containers)
        if (!h.hierarchy.empty()) {
            hierarchy = h.hierarchy;
            break;
        }
    if (hierarchy.empty() && main.containers.empty() && main.meshes.empty() && main.hierarchies.empty())
        for (const Clip& c : main.clips)
            if (!c.hierarchyName.empty()) {
                hierarchy = c.hierarchyName;
                break;
            }
    need(&File::hierarchies, "W3DHierarchy", hierarchy, hierName);
    for (const w3d::Hlod& h : main.containers)
        for (const w3d::LodArray& l : h.lods)
            for (const w3d::SubObject& o : l.objects)
                if (!has(&File::meshes, o.name, meshName) && !has(&File::boxes, o.name, boxName)) {
                    need(&File::meshes, "W3DMesh", o.name, meshName);
                    if (!has(&File::meshes, o.name, meshName)) need(&File::boxes, "W3DCollisionBox", o.name, boxName);
                }

    // One W3D file: the main file's declarations, the hierarchy it needs and what its containers place.
    w3d::File w;
    w.hierarchies = std::move(main.hierarchies);
    if (!hierarchy.empty() && !has(&File::hierarchies, hierarchy, hierName))
        pushWarning(warnings,
                    "hierarchy " + hierarchy + " not found (looked for it in the files included and " +
                        (lookup.declaration ? std::string("in the .w3x files beside it)") : std::string(")")));
    for (const auto& f : more)
        for (const w3d::Hierarchy& h : f->hierarchies)
            if (iequals(h.name, hierarchy) &&
                std::none_of(w.hierarchies.begin(), w.hierarchies.end(),
                             [&](const w3d::Hierarchy& x) { return iequals(x.name, h.name); }))
                w.hierarchies.push_back(h);
    // The hierarchy named goes first (assemble takes the first one when nothing names one).
    std::stable_partition(w.hierarchies.begin(), w.hierarchies.end(),
                          [&](const w3d::Hierarchy& h) { return iequals(h.name, hierarchy); });
    w.meshes = std::move(main.meshes);
    w.boxes = std::move(main.boxes);
    std::set<std::string> placed;
    for (const w3d::Hlod& h : main.containers)
        for (const w3d::LodArray& l : h.lods)
            for (const w3d::SubObject& o : l.objects)
                placed.insert(toLower(o.name));
    for (const auto& f : more) {
        for (const w3d::RawMesh& m : f->meshes)
            if (placed.count(toLower(m.fullName()))) w.meshes.push_back(m);
        for (const w3d::Box& b : f->boxes)
            if (placed.count(toLower(b.name))) w.boxes.push_back(b);
    }
    // Texture ids to the files their declarations name (the first declaration of an id wins).
    std::map<std::string, std::string> textureFile;
    for (const TextureDecl& t : main.textures)
        textureFile.emplace(toLower(t.id), t.file);
    for (const auto& f : more)
        for (const TextureDecl& t : f->textures)
            textureFile.emplace(toLower(t.id), t.file);
    std::set<std::string> undeclared;
    for (w3d::RawMesh& m : w.meshes)
        for (w3d::ShaderMaterial& sm : m.shaderMaterials)
            for (w3d::ShaderMaterialProperty& p : sm.properties) {
                if (p.type != 1 || p.text.empty()) continue;
                const auto it = textureFile.find(toLower(p.text));
                if (it != textureFile.end())
                    p.text = it->second;
                else if (undeclared.insert(toLower(p.text)).second)
                    pushWarning(warnings, "texture " + p.text +
                                              " has no <Texture> declaration in the files read; looked up by its id");
            }
    w.hlods = std::move(main.containers);
    w.clips = std::move(main.clips);
    w.warnings = std::move(warnings);
    return w3d::assemble(std::move(w), label, {}, Format::W3x);
}

} // namespace rs::w3x
