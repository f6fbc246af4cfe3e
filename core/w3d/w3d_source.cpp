// The source tree of W3D files (read, edit, write: docs/ARCHITECTURE.md).
#include "w3d/w3d_chunks.h"

#include <algorithm>
#include <cmath>
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
            if (n.kind != SourceNode::Kind::Chunk) continue;
            if (!n.children.empty()) {
                walk(n.children, p);
                continue;
            }
            // The payload as it is now (an earlier edit's, or as read).
            const uint8_t* b = n.replaced ? n.replaced->data() : o.data + n.payloadBegin();
            const size_t size = n.replaced ? n.replaced->size() : size_t(n.end - n.payloadBegin());
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

// Edits (common/edit_op.h).
namespace rs::w3d {

namespace {

using K = SourceNode::Kind;

std::string join(const std::string& a, const SourceNode& n) { return a.empty() ? n.segment() : a + "/" + n.segment(); }
std::string fixedText(const std::vector<uint8_t>& p, size_t at, size_t n) {
    if (at >= p.size()) return {};
    n = std::min(n, p.size() - at);
    const char* b = reinterpret_cast<const char*>(p.data() + at);
    return std::string(b, strnlen(b, n));
}
// Writes `text` into the char[n] field at `at`: the text, then zeros up to the longer of the old and new text's
// NUL (bytes after the old NUL stay as they were). EditError when it does not fit with its NUL.
void putFixed(std::vector<uint8_t>& p, size_t at, size_t n, const std::string& text, const std::string& file,
              const std::string& what) {
    if (text.size() + 1 > n)
        throw EditError(file + ": " + what + " " + text + " does not fit its " + std::to_string(n) + "-byte field");
    const size_t old = fixedText(p, at, n).size();
    std::fill(p.begin() + long(at), p.begin() + long(at + std::min(n, std::max(old, text.size()) + 1)), 0);
    std::copy(text.begin(), text.end(), p.begin() + long(at));
}
float getF(const std::vector<uint8_t>& p, size_t at) {
    float f;
    std::memcpy(&f, p.data() + at, 4);
    return f;
}
void putF(std::vector<uint8_t>& p, size_t at, float f) { std::memcpy(p.data() + at, &f, 4); }

SourceNode* childOf(SourceNode& n, uint32_t type) {
    for (SourceNode& c : n.children)
        if (c.kind == K::Chunk && c.type == type) return &c;
    return nullptr;
}

const char* const kShaderFields[16] = {"DepthCompare", "DepthMask",           "ColorMask",           "DestBlend",
                                       "FogFunc",      "PriGradient",         "SecGradient",         "SrcBlend",
                                       "Texturing",    "DetailColorFunc",     "DetailAlphaFunc",     "ShaderPreset",
                                       "AlphaTest",    "PostDetailColorFunc", "PostDetailAlphaFunc", "pad"};
const char* const kColours[4] = {"Ambient", "Diffuse", "Specular", "Emissive"};
const char* const kFloats[3] = {"Shininess", "Opacity", "Translucency"};

struct Editor {
    SourceTree& tree;
    const EditOp& op;
    const std::string& file;
    std::vector<TextEdit> out;
    std::vector<std::pair<SourceNode*, std::vector<uint8_t>>> sets;
    bool matched = false;

    void set(SourceNode& n, const std::string& path, const std::string& what, const std::string& before,
             const std::string& after, std::vector<uint8_t> payload) {
        if (payload == tree.payloadOf(n)) return;
        for (auto& s : sets) // a second change of one node (two pivots of one 0x102): the later payload holds both
            if (s.first == &n) {
                s.second = std::move(payload);
                out.push_back({path, n.begin, before, after, what});
                return;
            }
        out.push_back({path, n.begin, before, after, what});
        sets.emplace_back(&n, std::move(payload));
    }
    std::vector<uint8_t> current(SourceNode& n) {
        for (auto& s : sets)
            if (s.first == &n) return s.second;
        return tree.payloadOf(n);
    }

    // Several entries of one chunk (pivots of a 0x102, shaders of a 0x29) are edited on one copy of its payload
    // and recorded once per changed entry: one copy per chunk, not per entry (a 146 KB shader list has 9,000).
    void setEntries(SourceNode& n, std::vector<uint8_t> payload, std::vector<TextEdit> entries) {
        if (entries.empty()) return; // nothing changed against the current payload
        out.insert(out.end(), entries.begin(), entries.end());
        for (auto& s : sets)
            if (s.first == &n) {
                s.second = std::move(payload);
                return;
            }
        sets.emplace_back(&n, std::move(payload));
    }

    void hierarchy(SourceNode& h, const std::string& path) {
        SourceNode* pivots = childOf(h, id::Pivots);
        if (!pivots || !pivots->children.empty()) return;
        std::vector<uint8_t> p = current(*pivots);
        std::vector<TextEdit> entries;
        for (size_t at = 0; at + 60 <= p.size(); at += 60) {
            const std::string name = fixedText(p, at, 16);
            if (!equalsNoCase(name, op.name)) continue;
            matched = true;
            putFixed(p, at, 16, op.value, file, "pivot name");
            if (name != op.value)
                entries.push_back({join(path, *pivots) + " pivot " + std::to_string(at / 60), pivots->begin, name,
                                   op.value, "bone name"});
        }
        setEntries(*pivots, std::move(p), std::move(entries));
    }

    void shaderBits(SourceNode& shaders, const std::string& path, const std::string& mesh, int field) {
        const size_t count = size_t(shaders.end - shaders.payloadBegin()) / 16;
        std::vector<uint8_t> p;
        std::vector<TextEdit> entries;
        for (size_t k = 0; k < count; ++k) {
            if (!editTargets(op.target, mesh, k)) continue;
            matched = true;
            if (p.empty()) p = current(shaders);
            if (16 * k + 16 > p.size()) break;
            const int64_t v = editInteger(op.value, file, op.name);
            if (v < 0 || v > 255) throw EditError(file + ": " + op.name + " takes 0..255, got " + op.value);
            const uint8_t old = p[16 * k + size_t(field)];
            if (old == uint8_t(v)) continue;
            p[16 * k + size_t(field)] = uint8_t(v);
            entries.push_back({join(path, shaders) + " shader " + std::to_string(k), shaders.begin,
                               std::to_string(old), std::to_string(v), op.name});
        }
        setEntries(shaders, std::move(p), std::move(entries));
    }

    void vertexMaterial(SourceNode& vm, const std::string& path, const std::string& mesh, size_t k) {
        SourceNode* nameNode = childOf(vm, id::VertexMaterialName);
        const std::string name = nameNode ? fixedText(tree.payloadOf(*nameNode), 0, 1u << 30) : std::string();
        if (!editTargets(op.target, mesh, k) && !equalsNoCase(op.target, name)) return;
        SourceNode* info = childOf(vm, id::VertexMaterialInfo);
        if (!info) return;
        std::vector<uint8_t> p = current(*info);
        if (p.size() < 32) throw EditError(file + ": " + join(path, *info) + " is shorter than 32 bytes");
        for (int c = 0; c < 4; ++c) {
            if (!equalsNoCase(op.name, kColours[c])) continue;
            matched = true;
            const size_t at = 4 + 4 * size_t(c);
            std::vector<float> v = editNumbers(op.value, 3, file, op.name + " (R G B in 0..255 or #RRGGBB)");
            if (op.value[0] == '#')
                for (float& f : v)
                    f *= 255.0f;
            const float old[3] = {float(p[at]), float(p[at + 1]), float(p[at + 2])};
            for (int i = 0; i < 3; ++i) {
                if (v[size_t(i)] < 0 || v[size_t(i)] > 255 || v[size_t(i)] != std::floor(v[size_t(i)] + 0.5f))
                    if (op.value[0] != '#')
                        throw EditError(file + ": " + op.name + " takes R G B in 0..255, got " + op.value);
                p[at + size_t(i)] = uint8_t(std::lround(v[size_t(i)]));
                v[size_t(i)] = float(p[at + size_t(i)]);
            }
            set(*info, join(path, *info), op.name, editText(old, 3), editText(v.data(), 3), std::move(p));
            return;
        }
        for (int f = 0; f < 3; ++f) {
            if (!equalsNoCase(op.name, kFloats[f])) continue;
            matched = true;
            const size_t at = 20 + 4 * size_t(f);
            const float old = getF(p, at);
            const float v = editNumbers(op.value, 1, file, op.name)[0];
            putF(p, at, v);
            set(*info, join(path, *info), op.name, editText(&old, 1), editText(&v, 1), std::move(p));
            return;
        }
    }

    void shaderMaterial(SourceNode& sm, const std::string& path, const std::string& mesh, size_t k) {
        if (!editTargets(op.target, mesh, k)) return;
        SourceNode* header = childOf(sm, id::ShaderMaterialHeader);
        if (op.kind == EditOp::Kind::SetShader) {
            if (!header) return;
            std::vector<uint8_t> p = current(*header);
            const std::string old = fixedText(p, 1, 32);
            if (!op.name.empty() && !equalsNoCase(old, op.name)) return;
            matched = true;
            if (p.size() < 1 + 32) throw EditError(file + ": " + join(path, *header) + " is too short");
            putFixed(p, 1, 32, op.value, file, "shader");
            set(*header, join(path, *header), "shader", old, op.value, std::move(p));
            return;
        }
        for (SourceNode& c : sm.children) {
            if (c.kind != K::Chunk || c.type != id::ShaderMaterialProperty || !c.children.empty()) continue;
            std::vector<uint8_t> p = current(c);
            if (p.size() < 8) continue;
            uint32_t type, nameLen;
            std::memcpy(&type, p.data(), 4);
            std::memcpy(&nameLen, p.data() + 4, 4);
            if (nameLen > p.size() - 8) continue;
            const std::string name = fixedText(p, 8, nameLen);
            if (!equalsNoCase(name, op.name)) continue;
            matched = true;
            const size_t at = 8 + nameLen;
            static const size_t kCounts[8] = {0, 0, 1, 2, 3, 4, 0, 0};
            if (type == 1) { // a texture: the text as stored (u32 length, text [+ NUL]) with the rest kept
                uint32_t len;
                if (p.size() < at + 4) continue;
                std::memcpy(&len, p.data() + at, 4);
                if (len > p.size() - at - 4) continue;
                const std::string old = fixedText(p, at + 4, len);
                const bool nul = len > old.size();
                std::vector<uint8_t> q(p.begin(), p.begin() + long(at));
                const uint32_t n = uint32_t(op.value.size() + (nul ? 1 : 0));
                for (int i = 0; i < 4; ++i)
                    q.push_back(uint8_t(n >> (8 * i)));
                q.insert(q.end(), op.value.begin(), op.value.end());
                if (nul) q.push_back(0);
                q.insert(q.end(), p.begin() + long(at + 4 + len), p.end());
                set(c, join(path, c), op.name, old, op.value, std::move(q));
            } else if (type >= 2 && type <= 5) {
                const size_t count = kCounts[type];
                if (p.size() < at + 4 * count) throw EditError(file + ": " + join(path, c) + " is too short");
                const std::vector<float> v = editNumbers(op.value, count, file, op.name);
                std::vector<float> old(count);
                for (size_t i = 0; i < count; ++i) {
                    old[i] = getF(p, at + 4 * i);
                    putF(p, at + 4 * i, v[i]);
                }
                set(c, join(path, c), op.name, editText(old.data(), count), editText(v.data(), count), std::move(p));
            } else if (type == 6 || type == 7) {
                const int64_t v =
                    type == 7 ? int64_t(editBool(op.value, file, op.name)) : editInteger(op.value, file, op.name);
                if (p.size() < at + (type == 7 ? 1 : 4)) throw EditError(file + ": " + join(path, c) + " is too short");
                int32_t old = 0;
                if (type == 7) {
                    old = p[at];
                    p[at] = uint8_t(v);
                } else {
                    std::memcpy(&old, p.data() + at, 4);
                    const int32_t w = int32_t(v);
                    std::memcpy(p.data() + at, &w, 4);
                }
                set(c, join(path, c), op.name, std::to_string(old), std::to_string(v), std::move(p));
            }
        }
    }

    // Texture k of the mesh's 0x30 list: its name (0x32) set to the value (as stored: the text and a NUL).
    void texture(SourceNode& t, const std::string& path, const std::string& mesh, size_t k) {
        if (!editTargets(op.target, mesh, k)) return;
        SourceNode* nameNode = childOf(t, id::TextureName);
        if (!nameNode || !nameNode->children.empty()) return;
        matched = true;
        const std::vector<uint8_t> p = current(*nameNode);
        const std::string old = fixedText(p, 0, p.size());
        if (op.value.empty()) throw EditError(file + ": a texture name cannot be empty");
        std::vector<uint8_t> q(op.value.begin(), op.value.end());
        q.push_back(0);
        set(*nameNode, join(path, *nameNode), "texture", old, op.value, std::move(q));
    }

    void mesh(SourceNode& m, const std::string& path) {
        SourceNode* header = childOf(m, id::MeshHeader3);
        const std::vector<uint8_t> h = header ? tree.payloadOf(*header) : std::vector<uint8_t>();
        const std::string name = fixedText(h, 8, 16);
        // A Renegade prelit mesh keeps its materials in a wrapper (0x23-0x26) when it has no pass of its own: the
        // one the reader draws (vertex-lit first, then unlit, then the lightmapped ones).
        SourceNode* lists = &m;
        std::string listPath = path;
        if (!childOf(m, id::MaterialPass))
            for (uint32_t w : {uint32_t(id::PrelitVertex), uint32_t(id::PrelitUnlit),
                               uint32_t(id::PrelitLightmapMultiPass), uint32_t(id::PrelitLightmapMultiTexture)})
                if (SourceNode* pw = childOf(m, w); pw && childOf(*pw, id::MaterialPass)) {
                    lists = pw;
                    listPath = join(path, *pw);
                    break;
                }
        int field = -1;
        for (int f = 0; f < 16 && op.kind == EditOp::Kind::SetParam; ++f)
            if (equalsNoCase(op.name, kShaderFields[f])) field = f;
        const bool textureName = op.kind == EditOp::Kind::SetParam && equalsNoCase(op.name, "Texture");
        for (SourceNode& c : lists->children) {
            if (c.kind != K::Chunk) continue;
            const std::string pp = join(listPath, c);
            if (textureName) {
                if (c.type != id::Textures) continue;
                size_t k = 0;
                for (SourceNode& t : c.children)
                    if (t.kind == K::Chunk && t.type == id::Texture) texture(t, join(pp, t), name, k++);
            } else if (c.type == id::Shaders && field >= 0 && c.children.empty()) {
                shaderBits(c, listPath, name, field);
            } else if (c.type == id::VertexMaterials && op.kind == EditOp::Kind::SetParam && field < 0) {
                size_t k = 0;
                for (SourceNode& vm : c.children)
                    if (vm.kind == K::Chunk && vm.type == id::VertexMaterial)
                        vertexMaterial(vm, join(pp, vm), name, k++);
            } else if (c.type == id::ShaderMaterials && field < 0) {
                size_t k = 0;
                for (SourceNode& sm : c.children)
                    if (sm.kind == K::Chunk && sm.type == id::ShaderMaterial)
                        shaderMaterial(sm, join(pp, sm), name, k++);
            }
        }
    }
};

} // namespace

std::vector<TextEdit> applyEdit(SourceTree& tree, const EditOp& op, bool apply) {
    const std::string& file = tree.label();
    Editor e{tree, op, file, {}, {}};
    switch (op.kind) {
    case EditOp::Kind::RenameTexture:
        return renameTexture(tree, op.name, op.value, apply);
    case EditOp::Kind::RenameBone:
        for (SourceNode& n : tree.roots())
            if (n.kind == K::Chunk && n.type == id::Hierarchy) e.hierarchy(n, n.segment());
        break;
    case EditOp::Kind::SetShader:
    case EditOp::Kind::SetParam:
        for (SourceNode& n : tree.roots())
            if (n.kind == K::Chunk && n.type == id::Mesh) e.mesh(n, n.segment());
        if (!e.matched)
            throw EditError(file + ": no " + (op.target.empty() ? std::string("material") : "material " + op.target) +
                            (op.kind == EditOp::Kind::SetParam ? " with a parameter " + op.name
                             : op.name.empty()                 ? std::string(" with an FX shader")
                                                               : " with shader " + op.name));
        break;
    case EditOp::Kind::SetMeshTwoSided: {
        // W3dMeshHeader3Struct: u32 version, u32 attributes (W3D_MESH_FLAG_TWO_SIDED 0x2000), char[16] mesh name.
        // Only that bit of the attributes changes; every mesh of the name (or every mesh for target "") is set.
        const bool on = editBool(op.value, file, "two-sided");
        for (SourceNode& n : tree.roots()) {
            if (n.kind != K::Chunk || n.type != id::Mesh) continue;
            SourceNode* h = childOf(n, id::MeshHeader3);
            if (!h || !h->children.empty()) continue;
            std::vector<uint8_t> p = e.current(*h);
            if (p.size() < 8 + 16) throw EditError(file + ": " + join(n.segment(), *h) + " is too short");
            const std::string name = fixedText(p, 8, 16);
            if (!op.target.empty() && !equalsNoCase(op.target, name)) continue;
            e.matched = true;
            uint32_t attributes;
            std::memcpy(&attributes, p.data() + 4, 4);
            const bool was = (attributes & 0x2000u) != 0;
            attributes = on ? attributes | 0x2000u : attributes & ~0x2000u;
            std::memcpy(p.data() + 4, &attributes, 4);
            e.set(*h, join(n.segment(), *h), "two-sided", was ? "1" : "0", on ? "1" : "0", std::move(p));
        }
        if (!e.matched) throw EditError(file + ": no mesh " + op.target);
        break;
    }
    case EditOp::Kind::RenameClip:
        // A clip's name: char[16] at byte 4 of its header (0x201 uncompressed, 0x281 compressed); the engine names
        // it HIERARCHY.NAME, so the hierarchy field stays.
        for (SourceNode& n : tree.roots()) {
            if (n.kind != K::Chunk || (n.type != id::Animation && n.type != id::CompressedAnimation)) continue;
            SourceNode* h = childOf(n, n.type == id::Animation ? id::AnimationHeader : id::CompressedAnimationHeader);
            if (!h) throw EditError(file + ": " + n.segment() + " has no header");
            std::vector<uint8_t> p = tree.payloadOf(*h);
            if (p.size() < 4 + 16) throw EditError(file + ": " + join(n.segment(), *h) + " is too short");
            const std::string old = fixedText(p, 4, 16);
            putFixed(p, 4, 16, op.value, file, "clip name");
            e.matched = true;
            e.set(*h, join(n.segment(), *h), "clip name", old, op.value, std::move(p));
        }
        if (!e.matched) throw EditError(file + ": no W3D animation (0x200 or 0x280) to rename");
        break;
    default:
        throw EditError(file + ": W3D files have no such edit (" + describeEdit(op) + ")");
    }
    if (apply)
        for (auto& [n, payload] : e.sets)
            tree.setPayload(*n, std::move(payload));
    return std::move(e.out);
}

} // namespace rs::w3d
