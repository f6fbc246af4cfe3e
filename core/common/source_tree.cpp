#include "common/source_tree.h"

#include "common/error.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace rs {

std::string SourceNode::segment() const {
    switch (kind) {
    case Kind::Chunk:
        return hex(type);
    case Kind::Mini:
        return "mini " + hex(type);
    default:
        return label;
    }
}

namespace {

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

struct Emitter {
    const uint8_t* src;
    std::vector<uint8_t>& out;
    bool everyNode;
    // A pending copy of original bytes [copyBegin, copyEnd): adjacent unchanged nodes become one copy.
    uint64_t copyBegin = 0, copyEnd = 0;

    void flush() {
        if (copyEnd > copyBegin) out.insert(out.end(), src + copyBegin, src + copyEnd);
        copyBegin = copyEnd = 0;
    }
    void copy(uint64_t b, uint64_t e) {
        if (b == e) return;
        if (copyEnd > copyBegin && copyEnd == b) {
            copyEnd = e;
            return;
        }
        flush();
        copyBegin = b;
        copyEnd = e;
    }
    void bytes(const uint8_t* p, size_t n) {
        flush();
        out.insert(out.end(), p, p + n);
    }

    void node(const SourceNode& n) {
        if (!n.touched && !everyNode) {
            copy(n.begin, n.end);
            return;
        }
        const uint32_t h = n.headerSize();
        flush();
        const size_t headerAt = out.size();
        if (h == 8) {
            uint8_t hdr[8] = {uint8_t(n.type), uint8_t(n.type >> 8), uint8_t(n.type >> 16), uint8_t(n.type >> 24)};
            out.insert(out.end(), hdr, hdr + 8);
        } else if (h == 2) {
            const uint8_t hdr[2] = {uint8_t(n.type), 0};
            out.insert(out.end(), hdr, hdr + 2);
        }
        const size_t payloadAt = out.size();
        if (n.replaced)
            bytes(n.replaced->data(), n.replaced->size());
        else if (!n.children.empty())
            for (const SourceNode& c : n.children)
                node(c);
        else
            copy(n.payloadBegin(), n.end);
        if (h == 0) return;
        flush();
        const int64_t stored = int64_t(out.size() - payloadAt) + n.sizeDelta;
        if (h == 8) {
            if (stored < 0 || stored > 0x7FFFFFFF)
                throw std::length_error("chunk " + hex(n.type) + ": size " + std::to_string(stored) +
                                        " does not fit its size field");
            const uint32_t v = uint32_t(stored) | n.sizeFlags;
            for (int i = 0; i < 4; ++i)
                out[headerAt + 4 + size_t(i)] = uint8_t(v >> (8 * i));
        } else {
            if (stored < 0 || stored > 255)
                throw std::length_error("mini-chunk " + hex(n.type) + ": size " + std::to_string(stored) +
                                        " does not fit its u8 size field");
            out[headerAt + 1] = uint8_t(stored);
        }
    }
};

std::vector<uint8_t> emit(const std::vector<SourceNode>& roots, ByteSpan original, bool everyNode) {
    std::vector<uint8_t> out;
    out.reserve(original.size);
    Emitter e{original.data, out, everyNode};
    for (const SourceNode& n : roots)
        e.node(n);
    e.flush();
    return out;
}

bool pathOf(const std::vector<SourceNode>& nodes, uint64_t off, std::string& path) {
    for (const SourceNode& n : nodes) {
        if (off < n.begin || off >= n.end) continue;
        path += (path.empty() ? "" : "/") + n.segment();
        if (off >= n.payloadBegin()) pathOf(n.children, off, path);
        return true;
    }
    return false;
}

SourceNode* findIn(std::vector<SourceNode>& nodes, const std::string& prefix, std::string_view path, size_t& nth) {
    for (SourceNode& n : nodes) {
        const std::string p = prefix.empty() ? n.segment() : prefix + "/" + n.segment();
        if (p == path) {
            if (nth == 0) return &n;
            --nth;
        }
        if (path.size() > p.size() && path.compare(0, p.size(), p) == 0 && path[p.size()] == '/')
            if (SourceNode* hit = findIn(n.children, p, path, nth)) return hit;
    }
    return nullptr;
}

bool markPath(std::vector<SourceNode>& nodes, const SourceNode* target) {
    for (SourceNode& n : nodes)
        if (&n == target || markPath(n.children, target)) {
            n.touched = true;
            return true;
        }
    return false;
}

void collectQuirks(const std::vector<SourceNode>& nodes, const std::string& prefix, std::vector<std::string>& out) {
    for (const SourceNode& n : nodes) {
        const std::string p = prefix.empty() ? n.segment() : prefix + "/" + n.segment();
        if (!n.quirk.empty()) out.push_back(p + " at offset " + std::to_string(n.begin) + ": " + n.quirk);
        collectQuirks(n.children, p, out);
    }
}

size_t countNodes(const std::vector<SourceNode>& nodes) {
    size_t k = nodes.size();
    for (const SourceNode& n : nodes)
        k += countNodes(n.children);
    return k;
}

uint64_t countRaw(const std::vector<SourceNode>& nodes) {
    uint64_t k = 0;
    for (const SourceNode& n : nodes)
        k += n.kind == SourceNode::Kind::Raw ? n.end - n.begin : countRaw(n.children);
    return k;
}

// The chunk tree builder: one list of chunks over [begin, end) (the declared extent of the parent).
class ChunkParser {
  public:
    ChunkParser(ByteSpan file, const ChunkGrammar& g) : f_(file), g_(g) {}

    // Returns where the list physically ends: `end`, or further when a child ran past it (engine overruns).
    uint64_t list(uint64_t begin, uint64_t end, uint32_t parent, int depth, std::vector<SourceNode>& out, bool& tiled) {
        uint64_t pos = begin;
        tiled = true;
        while (pos < end) {
            const uint64_t left = end - pos;
            if (left < 8) {
                out.push_back(raw(pos, end, "trailing bytes",
                                  std::to_string(left) + " bytes at the end, less than a chunk header"));
                tiled = false;
                return end;
            }
            SourceNode n;
            n.kind = SourceNode::Kind::Chunk;
            n.begin = pos;
            n.type = le32(f_.data + pos);
            const uint32_t rawSize = le32(f_.data + pos + 4);
            n.sizeFlags = rawSize & 0x80000000u;
            const uint64_t size = rawSize & 0x7FFFFFFFu;
            const uint64_t fileLeft = f_.size - pos - 8;
            uint64_t payloadEnd = pos + 8 + size;
            if (size > left - 8) {
                if (!g_.engineOverruns) {
                    out.push_back(raw(pos, end, "overrunning chunk " + hex(n.type),
                                      "chunk size " + std::to_string(size) + " exceeds the " +
                                          std::to_string(left - 8) + " bytes left in its parent"));
                    tiled = false;
                    return end;
                }
                if (size > fileLeft) { // cut by the end of the file: kept with its declared size
                    payloadEnd = f_.size;
                    n.sizeDelta = int64_t(size - fileLeft);
                    n.quirk = "truncated: " + std::to_string(size) + " bytes declared, " + std::to_string(fileLeft) +
                              " present (the file ends early)";
                } else {
                    n.quirk = "size " + std::to_string(size) + " exceeds the " + std::to_string(left - 8) +
                              " bytes left in its parent; read by its own size, as the engine's chunk loader does";
                }
            }
            n.end = payloadEnd;
            if (depth < 64 && g_.container && g_.container(n.type, rawSize, parent)) {
                std::vector<SourceNode> kids;
                bool kidsTiled = true;
                const uint64_t phys = list(pos + 8, payloadEnd, n.type, depth + 1, kids, kidsTiled);
                if (!kidsTiled && g_.containerFallsBackToData && phys == payloadEnd && n.sizeDelta == 0) {
                    // Not a list of chunks after all: data.
                } else {
                    n.children = std::move(kids);
                    if (phys > payloadEnd) { // a descendant ran past this chunk's declared end
                        n.sizeDelta -= int64_t(phys - payloadEnd);
                        n.end = phys;
                        if (n.quirk.empty())
                            n.quirk = "its children run " + std::to_string(phys - payloadEnd) +
                                      " bytes past its declared end (size too small)";
                    }
                }
            } else if (g_.minis && g_.minis(n.type, parent)) {
                minis(n);
            }
            pos = n.end;
            out.push_back(std::move(n));
            if (pos > end) return pos; // ran past the parent: the enclosing lists resume after it
        }
        return pos;
    }

  private:
    SourceNode raw(uint64_t b, uint64_t e, std::string label, std::string quirk) {
        SourceNode n;
        n.kind = SourceNode::Kind::Raw;
        n.begin = b;
        n.end = e;
        n.label = std::move(label);
        n.quirk = std::move(quirk);
        return n;
    }

    // Mini-chunk lists are short (material parameters, headers, properties): a payload over 64 KiB, or one that
    // would divide into mini-chunks of under 4 payload bytes on average, stays one leaf. This bounds the nodes a
    // file can make (a chunk of zeros is not 2-byte mini-chunks), and changes nothing written.
    static constexpr uint64_t kMaxMiniPayload = 65536;

    void minis(SourceNode& n) {
        const uint64_t b = n.payloadBegin(), e = n.end;
        if (e - b > kMaxMiniPayload) return;
        uint64_t p = b;
        size_t count = 0;
        while (p < e) {
            if (e - p < 2 || f_.data[p + 1] > e - p - 2) return; // not a list of mini-chunks: data
            p += 2 + f_.data[p + 1];
            ++count;
        }
        if (count == 0 || count * 6 > e - b) return;
        n.children.reserve(count);
        for (p = b; p < e;) {
            SourceNode m;
            m.kind = SourceNode::Kind::Mini;
            m.type = f_.data[p];
            m.begin = p;
            m.end = p + 2 + f_.data[p + 1];
            p = m.end;
            n.children.push_back(std::move(m));
        }
    }

    ByteSpan f_;
    const ChunkGrammar& g_;
};

void clipSpans(const std::vector<FieldSpan>& spans, uint64_t begin, uint64_t end, const char* gapLabel,
               std::vector<SourceNode>& out) {
    uint64_t pos = begin;
    auto gap = [&](uint64_t to) {
        if (to <= pos) return;
        SourceNode g;
        g.kind = SourceNode::Kind::Raw;
        g.label = gapLabel;
        g.begin = pos;
        g.end = to;
        out.push_back(std::move(g));
        pos = to;
    };
    for (const FieldSpan& s : spans) {
        const uint64_t b = std::max(s.begin, pos), e = std::min(s.end, end);
        if (b >= e) continue;
        gap(b);
        SourceNode n;
        n.kind = SourceNode::Kind::Field;
        n.label = s.label;
        n.begin = b;
        n.end = e;
        if (!s.children.empty()) clipSpans(s.children, b, e, gapLabel, n.children);
        out.push_back(std::move(n));
        pos = e;
    }
    gap(end);
}

} // namespace

std::vector<uint8_t> SourceTree::write() const { return emit(roots_, original(), false); }

std::vector<uint8_t> SourceTree::writeEveryNode() const { return emit(roots_, original(), true); }

std::string SourceTree::pathAt(uint64_t offset) const {
    std::string p;
    pathOf(roots_, offset, p);
    return p;
}

SourceNode* SourceTree::find(std::string_view path, size_t nth) { return findIn(roots_, {}, path, nth); }

namespace {

bool indexOf(const std::vector<SourceNode>& nodes, const SourceNode* target, std::vector<uint32_t>& index) {
    for (size_t i = 0; i < nodes.size(); ++i) {
        index.push_back(uint32_t(i));
        if (&nodes[i] == target || indexOf(nodes[i].children, target, index)) return true;
        index.pop_back();
    }
    return false;
}

bool remark(std::vector<SourceNode>& nodes) {
    bool any = false;
    for (SourceNode& n : nodes) {
        const bool below = remark(n.children);
        n.touched = below || n.replaced.has_value();
        any = any || n.touched;
    }
    return any;
}

} // namespace

void SourceTree::setPayload(SourceNode& n, std::vector<uint8_t> payload) {
    std::vector<uint32_t> index;
    if (!indexOf(roots_, &n, index) || !markPath(roots_, &n))
        throw std::invalid_argument("setPayload: the node is not part of this tree");
    PayloadChange c;
    c.node = std::move(index);
    c.before = n.replaced;
    c.after = payload;
    c.childrenBefore = std::move(n.children);
    journal_.push_back(std::move(c));
    n.children.clear();
    n.replaced = std::move(payload);
}

std::vector<uint8_t> SourceTree::payloadOf(const SourceNode& n) const {
    if (n.replaced) return *n.replaced;
    const ByteSpan o = original();
    if (!n.touched) return std::vector<uint8_t>(o.data + n.payloadBegin(), o.data + n.end);
    std::vector<uint8_t> out;
    Emitter e{o.data, out, false};
    for (const SourceNode& c : n.children)
        e.node(c);
    e.flush();
    return out;
}

SourceNode* SourceTree::at(const std::vector<uint32_t>& index) {
    std::vector<SourceNode>* level = &roots_;
    SourceNode* n = nullptr;
    for (uint32_t i : index) {
        if (i >= level->size()) return nullptr;
        n = &(*level)[i];
        level = &n->children;
    }
    return n;
}

void SourceTree::restorePayload(const std::vector<uint32_t>& index, std::optional<std::vector<uint8_t>> payload,
                                std::vector<SourceNode> children) {
    SourceNode* n = at(index);
    if (!n) throw std::invalid_argument("restorePayload: no node at that index");
    n->replaced = std::move(payload);
    n->children = n->replaced ? std::vector<SourceNode>() : std::move(children);
    remark(roots_);
}

bool SourceTree::edited() const {
    for (const SourceNode& n : roots_)
        if (n.touched) return true;
    return false;
}

std::vector<std::string> SourceTree::quirks() const {
    std::vector<std::string> q;
    collectQuirks(roots_, {}, q);
    return q;
}

size_t SourceTree::nodeCount() const { return countNodes(roots_); }

uint64_t SourceTree::rawBytes() const { return countRaw(roots_); }

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'a' && x <= 'z') x = char(x - 'a' + 'A');
        if (y >= 'a' && y <= 'z') y = char(y - 'a' + 'A');
        if (x != y) return false;
    }
    return true;
}

std::optional<uint64_t> firstDifference(ByteSpan a, ByteSpan b) {
    const size_t n = std::min(a.size, b.size);
    // Compare in blocks (memcmp is fast), then find the byte inside the first block that differs.
    constexpr size_t kBlock = 4096;
    for (size_t at = 0; at < n; at += kBlock) {
        const size_t len = std::min(kBlock, n - at);
        if (std::memcmp(a.data + at, b.data + at, len) == 0) continue;
        for (size_t i = at; i < at + len; ++i)
            if (a.data[i] != b.data[i]) return i;
    }
    if (a.size != b.size) return n;
    return std::nullopt;
}

SourceTree chunkTree(std::shared_ptr<const std::vector<uint8_t>> bytes, std::string label, const ChunkGrammar& g) {
    SourceTree t(bytes, std::move(label));
    const ByteSpan f(*bytes);
    ChunkParser p(f, g);
    bool tiled = true;
    p.list(0, f.size, ChunkGrammar::kNoParent, 0, t.roots(), tiled);
    return t;
}

SourceTree wholeFileTree(std::shared_ptr<const std::vector<uint8_t>> bytes, std::string label, std::string what) {
    SourceTree t(bytes, std::move(label));
    if (!bytes->empty()) {
        SourceNode n;
        n.kind = SourceNode::Kind::Raw;
        n.label = std::move(what);
        n.begin = 0;
        n.end = bytes->size();
        t.roots().push_back(std::move(n));
    }
    return t;
}

std::vector<SourceNode> fieldNodes(const std::vector<FieldSpan>& spans, uint64_t begin, uint64_t end,
                                   const char* gapLabel) {
    std::vector<SourceNode> out;
    clipSpans(spans, begin, end, gapLabel, out);
    return out;
}

} // namespace rs
