// The source tree of W3D files (read, edit, write: docs/ARCHITECTURE.md).
#include "w3d/w3d_chunks.h"

#include <cstring>
#include <functional>

namespace rs::w3d {

namespace {
bool container(uint32_t type, uint32_t, uint32_t) { return isContainer(type); }
} // namespace

SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    ChunkGrammar g;
    g.container = container;
    g.engineOverruns = true;
    g.containerFallsBackToData = true;
    return chunkTree(std::move(bytes), label, g);
}

namespace {

uint32_t rd32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void wr32(std::vector<uint8_t>& b, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        b.push_back(uint8_t(v >> (8 * i)));
}

} // namespace

std::vector<TextEdit> renameTexture(SourceTree& tree, const std::string& from, const std::string& to, bool apply) {
    std::vector<TextEdit> out;
    const ByteSpan o = tree.original();
    std::vector<std::pair<SourceNode*, std::vector<uint8_t>>> edits;
    std::function<void(std::vector<SourceNode>&, const std::string&)> walk = [&](std::vector<SourceNode>& nodes,
                                                                                 const std::string& prefix) {
        for (SourceNode& n : nodes) {
            const std::string p = prefix.empty() ? n.segment() : prefix + "/" + n.segment();
            if (n.kind != SourceNode::Kind::Chunk || n.replaced) continue;
            if (!n.children.empty()) {
                walk(n.children, p);
                continue;
            }
            const uint8_t* b = o.data + n.payloadBegin();
            const size_t size = size_t(n.end - n.payloadBegin());
            if (n.type == id::TextureName) {
                const std::string text(reinterpret_cast<const char*>(b),
                                       strnlen(reinterpret_cast<const char*>(b), size));
                if (!equalsNoCase(text, from)) continue;
                std::vector<uint8_t> payload(to.begin(), to.end());
                payload.push_back(0);
                out.push_back({p, n.begin, text, to});
                edits.emplace_back(&n, std::move(payload));
            } else if (n.type == id::ShaderMaterialProperty && size >= 12 && rd32(b) == 1) {
                const uint32_t nameLen = rd32(b + 4);
                if (nameLen > size - 12) continue;
                const uint8_t* t = b + 8 + nameLen;
                const uint32_t len = rd32(t);
                if (len > size - 12 - nameLen) continue;
                const std::string text(reinterpret_cast<const char*>(t + 4),
                                       strnlen(reinterpret_cast<const char*>(t + 4), len));
                if (!equalsNoCase(text, from)) continue;
                // As stored: the type, the name, then the text with its NUL (when it had one), then the rest.
                const bool nul = len > text.size();
                std::vector<uint8_t> payload(b, b + 8 + nameLen);
                wr32(payload, uint32_t(to.size() + (nul ? 1 : 0)));
                payload.insert(payload.end(), to.begin(), to.end());
                if (nul) payload.push_back(0);
                payload.insert(payload.end(), t + 4 + len, b + size);
                out.push_back({p, n.begin, text, to});
                edits.emplace_back(&n, std::move(payload));
            }
        }
    };
    walk(tree.roots(), {});
    if (apply)
        for (auto& [n, payload] : edits)
            tree.setPayload(*n, std::move(payload));
    return out;
}

} // namespace rs::w3d
