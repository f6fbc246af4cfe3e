// The source tree of Alamo chunk files (read, edit, write: docs/ARCHITECTURE.md).
#include "alamo/alamo_chunks.h"

#include <cstring>
#include <functional>
#include <stdexcept>

namespace rs::alamo {

namespace {

// Bit 31 of the stored size: the same rule as ChunkCursor (alamo_chunks.cpp).
bool container(uint32_t, uint32_t rawSize, uint32_t) { return (rawSize & 0x80000000u) != 0; }

// Mini-chunks live only in data chunks; which ones hold them depends on the context (material parameters,
// clip headers, particle properties, dazzles, ...). Any data chunk is tried; a payload that does not divide
// exactly into mini-chunks stays one leaf, so a guess never changes what is written.
bool minis(uint32_t, uint32_t) { return true; }

} // namespace

SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    ChunkGrammar g;
    g.container = container;
    g.minis = minis;
    return chunkTree(std::move(bytes), label, g);
}

std::vector<TextEdit> renameTexture(SourceTree& tree, const std::string& from, const std::string& to, bool apply) {
    std::vector<TextEdit> out;
    const ByteSpan o = tree.original();
    std::vector<SourceNode*> hits;
    std::function<void(std::vector<SourceNode>&, const std::string&)> walk = [&](std::vector<SourceNode>& nodes,
                                                                                 const std::string& prefix) {
        for (SourceNode& n : nodes) {
            const std::string p = prefix.empty() ? n.segment() : prefix + "/" + n.segment();
            if (n.kind == SourceNode::Kind::Chunk && n.type == 0x10105) {
                for (SourceNode& m : n.children) {
                    if (m.kind != SourceNode::Kind::Mini || m.type != 2 || m.replaced) continue;
                    const char* b = reinterpret_cast<const char*>(o.data + m.payloadBegin());
                    const std::string text(b, strnlen(b, size_t(m.end - m.payloadBegin())));
                    if (!equalsNoCase(text, from)) continue;
                    out.push_back({p + "/" + m.segment(), m.begin, text, to});
                    hits.push_back(&m);
                }
                continue;
            }
            walk(n.children, p);
        }
    };
    walk(tree.roots(), {});
    if (apply)
        for (SourceNode* m : hits) {
            std::vector<uint8_t> payload(to.begin(), to.end());
            payload.push_back(0);
            if (payload.size() > 255)
                throw std::length_error("texture name " + to + " is longer than a mini-chunk holds (254 bytes)");
            tree.setPayload(*m, std::move(payload));
        }
    return out;
}

} // namespace rs::alamo
