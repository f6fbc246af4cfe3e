// The source tree of Alamo chunk files (read, edit, write: docs/ARCHITECTURE.md).
#include "alamo/alamo_chunks.h"

#include <algorithm>
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
                    if (m.kind != SourceNode::Kind::Mini || m.type != 2) continue;
                    // The name as it is now (an earlier edit's, or as read).
                    const char* b = m.replaced ? reinterpret_cast<const char*>(m.replaced->data())
                                               : reinterpret_cast<const char*>(o.data + m.payloadBegin());
                    const size_t size = m.replaced ? m.replaced->size() : size_t(m.end - m.payloadBegin());
                    const std::string text(b, strnlen(b, size));
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

// Edits (common/edit_op.h): each maps the semantic value to the chunk or mini-chunk it came from.
namespace rs::alamo {

namespace {

using K = SourceNode::Kind;

std::string cstr(const std::vector<uint8_t>& p) { return std::string(p.begin(), std::find(p.begin(), p.end(), 0)); }
std::vector<uint8_t> cbytes(const std::string& s) {
    std::vector<uint8_t> v(s.begin(), s.end());
    v.push_back(0);
    return v;
}
float getF(const std::vector<uint8_t>& p, size_t at) {
    float f;
    std::memcpy(&f, p.data() + at, 4);
    return f;
}
void putF(std::vector<uint8_t>& p, size_t at, float f) { std::memcpy(p.data() + at, &f, 4); }
uint32_t getU(const std::vector<uint8_t>& p, size_t at) {
    return uint32_t(p[at]) | uint32_t(p[at + 1]) << 8 | uint32_t(p[at + 2]) << 16 | uint32_t(p[at + 3]) << 24;
}
void putU(std::vector<uint8_t>& p, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[at + size_t(i)] = uint8_t(v >> (8 * i));
}
std::string join(const std::string& a, const SourceNode& n) { return a.empty() ? n.segment() : a + "/" + n.segment(); }

SourceNode* childOf(SourceNode& n, K kind, uint32_t type) {
    for (SourceNode& c : n.children)
        if (c.kind == kind && c.type == type) return &c;
    return nullptr;
}

struct Editor {
    SourceTree& tree;
    const EditOp& op;
    const std::string& file;
    std::vector<TextEdit> out;
    std::vector<std::pair<SourceNode*, std::vector<uint8_t>>> sets;
    bool matched = false; // the target was found (even when the value was already the new one)

    void set(SourceNode& n, const std::string& path, const std::string& what, const std::string& before,
             const std::string& after, std::vector<uint8_t> payload) {
        if (n.kind == K::Mini && payload.size() > 255)
            throw EditError(file + ": " + path + ": " + what + " " + after + " is longer than a mini-chunk holds");
        if (payload == tree.payloadOf(n)) return; // already so: no change
        out.push_back({path, n.begin, before, after, what});
        sets.emplace_back(&n, std::move(payload));
    }
    std::string miniText(SourceNode& chunk, uint32_t type) {
        SourceNode* m = childOf(chunk, K::Mini, type);
        return m ? cstr(tree.payloadOf(*m)) : std::string();
    }
    // A mini-chunk holding `count` floats set from op.value.
    void setMiniFloats(SourceNode& chunk, const std::string& path, uint32_t type, size_t count,
                       const std::string& what) {
        SourceNode* m = childOf(chunk, K::Mini, type);
        if (!m) throw EditError(file + ": " + path + " has no " + what + " mini-chunk " + std::to_string(type));
        std::vector<uint8_t> p = tree.payloadOf(*m);
        if (p.size() != 4 * count)
            throw EditError(file + ": " + join(path, *m) + ": " + what + " is not " + std::to_string(count) +
                            " floats");
        const std::vector<float> v = editNumbers(op.value, count, file, what);
        std::vector<float> old(count);
        for (size_t i = 0; i < count; ++i) {
            old[i] = getF(p, 4 * i);
            putF(p, 4 * i, v[i]);
        }
        set(*m, join(path, *m), what, editText(old.data(), count), editText(v.data(), count), std::move(p));
    }

    void bone(SourceNode& b, const std::string& path) {
        SourceNode* nameNode = childOf(b, K::Chunk, 0x203);
        if (!nameNode) return;
        const std::string name = cstr(tree.payloadOf(*nameNode));
        if (op.kind == EditOp::Kind::RenameBone) {
            if (!equalsNoCase(name, op.name)) return;
            matched = true;
            set(*nameNode, join(path, *nameNode), "bone name", name, op.value, cbytes(op.value));
            return;
        }
        if (!equalsNoCase(name, op.target)) return;
        matched = true;
        SourceNode* info = childOf(b, K::Chunk, 0x206);
        if (!info) info = childOf(b, K::Chunk, 0x205);
        if (!info) throw EditError(file + ": bone " + name + " has no 0x205/0x206 chunk");
        std::vector<uint8_t> p = tree.payloadOf(*info);
        const bool billboard = op.kind == EditOp::Kind::SetBoneBillboard;
        if (billboard && info->type != 0x206)
            throw EditError(file + ": bone " + name + " is stored without a billboard field (0x205, not 0x206)");
        const size_t at = billboard ? 8 : 4;
        if (p.size() < at + 4) throw EditError(file + ": " + join(path, *info) + " is too short");
        const uint32_t old = getU(p, at);
        const uint32_t v = billboard ? uint32_t(editInteger(op.value, file, "billboard mode"))
                                     : uint32_t(editBool(op.value, file, "visible"));
        putU(p, at, v);
        set(*info, join(path, *info), billboard ? "billboard" : "visible", std::to_string(old), std::to_string(v),
            std::move(p));
    }

    void material(SourceNode& m, const std::string& path, const std::string& mesh, size_t index) {
        if (!editTargets(op.target, mesh, index)) return;
        if (op.kind == EditOp::Kind::SetShader) {
            SourceNode* s = childOf(m, K::Chunk, 0x10101);
            if (!s) return;
            const std::string old = cstr(tree.payloadOf(*s));
            if (!op.name.empty() && !equalsNoCase(old, op.name)) return;
            matched = true;
            set(*s, join(path, *s), "shader", old, op.value, cbytes(op.value));
            return;
        }
        for (SourceNode& c : m.children) {
            if (c.kind != K::Chunk || c.type < 0x10102 || c.type > 0x10106) continue;
            const std::string pp = join(path, c);
            if (!equalsNoCase(miniText(c, 1), op.name)) continue;
            matched = true;
            SourceNode* v = childOf(c, K::Mini, 2);
            if (!v) throw EditError(file + ": " + pp + ": parameter " + op.name + " has no value mini-chunk");
            switch (c.type) {
            case 0x10102: {
                std::vector<uint8_t> p = tree.payloadOf(*v);
                if (p.size() != 4) throw EditError(file + ": " + pp + ": integer parameter is not 4 bytes");
                const int64_t n = editInteger(op.value, file, op.name);
                const uint32_t old = getU(p, 0);
                putU(p, 0, uint32_t(n));
                set(*v, join(pp, *v), op.name, std::to_string(int32_t(old)), std::to_string(n), std::move(p));
                break;
            }
            case 0x10103:
                setMiniFloats(c, pp, 2, 1, op.name);
                break;
            case 0x10104:
                setMiniFloats(c, pp, 2, 3, op.name);
                break;
            case 0x10106:
                setMiniFloats(c, pp, 2, 4, op.name);
                break;
            default:
                set(*v, join(pp, *v), op.name, cstr(tree.payloadOf(*v)), op.value, cbytes(op.value));
            }
        }
    }

    void mesh(SourceNode& n, const std::string& path) {
        SourceNode* nameNode = childOf(n, K::Chunk, 0x401);
        const std::string name = nameNode ? cstr(tree.payloadOf(*nameNode)) : std::string();
        if (op.kind == EditOp::Kind::SetMeshHidden || op.kind == EditOp::Kind::SetMeshCollision) {
            if (!equalsNoCase(name, op.target)) return;
            matched = true;
            SourceNode* info = childOf(n, K::Chunk, 0x402);
            std::vector<uint8_t> p = info ? tree.payloadOf(*info) : std::vector<uint8_t>();
            if (p.size() < 40) throw EditError(file + ": mesh " + name + " has no 0x402 info of 40 bytes or more");
            const bool hidden = op.kind == EditOp::Kind::SetMeshHidden;
            const size_t at = hidden ? 32 : 36;
            const uint32_t old = getU(p, at), v = uint32_t(editBool(op.value, file, hidden ? "hidden" : "collision"));
            putU(p, at, v);
            set(*info, join(path, *info), hidden ? "hidden" : "collision", std::to_string(old), std::to_string(v),
                std::move(p));
            return;
        }
        size_t index = 0;
        for (SourceNode& c : n.children)
            if (c.kind == K::Chunk && c.type == 0x10100) material(c, join(path, c), name, index++);
    }

    void light(SourceNode& n, const std::string& path) {
        SourceNode* nameNode = childOf(n, K::Chunk, 0x1301);
        const std::string name = nameNode ? cstr(tree.payloadOf(*nameNode)) : std::string();
        if (!equalsNoCase(name, op.target)) return;
        matched = true;
        SourceNode* info = childOf(n, K::Chunk, 0x1302);
        std::vector<uint8_t> p = info ? tree.payloadOf(*info) : std::vector<uint8_t>();
        if (p.size() < 20) throw EditError(file + ": light " + name + " has no 0x1302 info of 20 bytes or more");
        const bool colour = op.kind == EditOp::Kind::SetLightColor;
        const size_t count = colour ? 3 : 1, at = colour ? 4 : 16;
        const std::vector<float> v = editNumbers(op.value, count, file, colour ? "colour" : "intensity");
        std::vector<float> old(count);
        for (size_t i = 0; i < count; ++i) {
            old[i] = getF(p, at + 4 * i);
            putF(p, at + 4 * i, v[i]);
        }
        set(*info, join(path, *info), colour ? "colour" : "intensity", editText(old.data(), count),
            editText(v.data(), count), std::move(p));
    }

    // A proxy (0x603) whose payload an edit replaced: its mini-chunks parsed from the current payload, the target
    // (5) or hidden flag (7, appended when absent) set, the payload rebuilt with every other mini as it was.
    void proxyPayload(SourceNode& c, const std::string& pp) {
        const std::vector<uint8_t> p = tree.payloadOf(c);
        std::vector<std::pair<uint8_t, std::vector<uint8_t>>> minis;
        for (size_t at = 0; at < p.size();) {
            if (at + 2 > p.size() || at + 2 + p[at + 1] > p.size())
                throw EditError(file + ": " + pp + ": mini-chunks do not tile the edited payload");
            minis.emplace_back(p[at],
                               std::vector<uint8_t>(p.begin() + long(at + 2), p.begin() + long(at + 2 + p[at + 1])));
            at += 2 + size_t(p[at + 1]);
        }
        auto find = [&](uint8_t type) -> std::vector<uint8_t>* {
            for (auto& m : minis)
                if (m.first == type) return &m.second;
            return nullptr;
        };
        std::vector<uint8_t>* nameMini = find(5);
        if (!nameMini) return;
        const std::string name = cstr(*nameMini);
        if (!equalsNoCase(name, op.target)) return;
        matched = true;
        std::string what, before, after;
        if (op.kind == EditOp::Kind::SetProxyTarget) {
            *nameMini = cbytes(op.value);
            if (nameMini->size() > 255)
                throw EditError(file + ": " + pp + ": proxy " + op.value + " is longer than a mini-chunk holds");
            what = "proxy", before = name, after = op.value;
        } else {
            const uint32_t v = uint32_t(editBool(op.value, file, "hidden"));
            std::vector<uint8_t>* h = find(7);
            if (!h) {
                if (!v) return;
                minis.emplace_back(7, std::vector<uint8_t>(4, 0));
                h = &minis.back().second;
            }
            if (h->size() != 4) throw EditError(file + ": " + pp + ": hidden mini-chunk is not 4 bytes");
            what = "hidden", before = std::to_string(getU(*h, 0)), after = std::to_string(v);
            putU(*h, 0, v);
        }
        std::vector<uint8_t> out;
        for (const auto& [type, bytes] : minis) {
            out.push_back(type);
            out.push_back(uint8_t(bytes.size()));
            out.insert(out.end(), bytes.begin(), bytes.end());
        }
        set(c, pp, what, before, after, std::move(out));
    }

    void connections(SourceNode& n, const std::string& path) {
        size_t dazzle = 0;
        for (SourceNode& c : n.children) {
            if (c.kind != K::Chunk) continue;
            const std::string pp = join(path, c);
            if (c.type == 0x603 &&
                (op.kind == EditOp::Kind::SetProxyTarget || op.kind == EditOp::Kind::SetProxyHidden) && c.replaced &&
                c.children.empty()) {
                // An earlier edit replaced this proxy's payload (a hidden mini-chunk appended): its minis are
                // read from, and set in, the payload as it is now.
                proxyPayload(c, pp);
            } else if (c.type == 0x603 &&
                       (op.kind == EditOp::Kind::SetProxyTarget || op.kind == EditOp::Kind::SetProxyHidden)) {
                SourceNode* nameMini = childOf(c, K::Mini, 5);
                if (!nameMini) continue;
                const std::string name = cstr(tree.payloadOf(*nameMini));
                if (!equalsNoCase(name, op.target)) continue;
                matched = true;
                if (op.kind == EditOp::Kind::SetProxyTarget) {
                    set(*nameMini, join(pp, *nameMini), "proxy", name, op.value, cbytes(op.value));
                    continue;
                }
                SourceNode* h = childOf(c, K::Mini, 7);
                if (!h) {
                    // No mini-chunk 7 is "not hidden" (writers leave it out): hiding appends one to the proxy's
                    // 0x603 payload, the minis before it kept byte for byte.
                    if (!editBool(op.value, file, "hidden")) continue;
                    std::vector<uint8_t> p = tree.payloadOf(c);
                    p.insert(p.end(), {7, 4, 1, 0, 0, 0});
                    set(c, pp, "hidden", "0 (no mini-chunk 7)", "1", std::move(p));
                    continue;
                }
                std::vector<uint8_t> p = tree.payloadOf(*h);
                if (p.size() != 4) throw EditError(file + ": " + join(pp, *h) + " is not 4 bytes");
                const uint32_t old = getU(p, 0), v = uint32_t(editBool(op.value, file, "hidden"));
                putU(p, 0, v);
                set(*h, join(pp, *h), "hidden", std::to_string(old), std::to_string(v), std::move(p));
            } else if (c.type == 0x604 &&
                       (op.kind == EditOp::Kind::SetDazzleColor || op.kind == EditOp::Kind::SetDazzleRate)) {
                SourceNode* data = &c;
                std::string dp = pp;
                if (c.children.size() == 1 && c.children[0].kind == K::Chunk) {
                    data = &c.children[0];
                    dp = join(pp, *data);
                }
                const size_t index = dazzle++;
                const std::string name = miniText(*data, 11);
                if (!equalsNoCase(name, op.target) && op.target != std::to_string(index)) continue;
                matched = true;
                if (op.kind == EditOp::Kind::SetDazzleColor)
                    setMiniFloats(*data, dp, 0, 3, "colour");
                else
                    setMiniFloats(*data, dp, 7, 1, "rate");
            }
        }
    }

    // TrimClip: frames op.first..op.last kept (the reader's layout, alamo_clip_reader.cpp). The header's frame
    // count, and every per-frame data chunk cut to those frames: format 1's per-bone 0x1004/0x1005 (6 bytes a
    // frame) and 0x1006 (8; a constant rotation of 8 bytes stays), format 2's interleaved 0x100a/0x1009/0x100b
    // (frame size words a frame), the visibility and step bit tracks 0x1007/0x1008 re-packed. A data chunk whose
    // size is not what its frames take is refused (the reader tolerates some; a cut of them would be a guess).
    void trim(SourceNode& n, const std::string& path) {
        SourceNode* header = childOf(n, K::Chunk, 0x1001);
        SourceNode* framesMini = header ? childOf(*header, K::Mini, 1) : nullptr;
        if (!framesMini) throw EditError(file + ": " + path + " has no 0x1001 header with a frame count");
        const std::string hp = join(path, *header);
        std::vector<uint8_t> fp = tree.payloadOf(*framesMini);
        if (fp.size() != 4) throw EditError(file + ": " + join(hp, *framesMini) + " is not 4 bytes");
        const uint32_t frames = getU(fp, 0);
        if (op.first > op.last || op.last >= frames)
            throw EditError(file + ": frames " + std::to_string(op.first) + ".." + std::to_string(op.last) +
                            " are not within the clip's 0.." + std::to_string(frames ? frames - 1 : 0));
        matched = true;
        const uint32_t kept = op.last - op.first + 1;
        if (kept == frames) return; // the whole clip: no change
        const std::string range = std::to_string(op.first) + ".." + std::to_string(op.last);
        putU(fp, 0, kept);
        set(*framesMini, join(hp, *framesMini), "frames", std::to_string(frames), std::to_string(kept), std::move(fp));
        auto wordsOf = [&](uint32_t type) -> uint64_t {
            SourceNode* m = childOf(*header, K::Mini, type);
            if (!m) return 0;
            const std::vector<uint8_t> p = tree.payloadOf(*m);
            return p.size() == 4 ? getU(p, 0) : 0;
        };
        // Rows [first, last] of a chunk of `frames` rows of `row` bytes.
        auto rows = [&](SourceNode& c, const std::string& cp, uint64_t row, const char* what) {
            const std::vector<uint8_t> p = tree.payloadOf(c);
            if (row == 0) return;
            if (p.size() != row * frames)
                throw EditError(file + ": " + cp + ": " + std::to_string(p.size()) + " bytes of " + what + " for " +
                                std::to_string(frames) + " frames of " + std::to_string(row) + " bytes; not cut");
            std::vector<uint8_t> out(p.begin() + long(row * op.first), p.begin() + long(row * (uint64_t(op.last) + 1)));
            set(c, cp, what, std::to_string(frames) + " frames", "frames " + range, std::move(out));
        };
        auto bits = [&](SourceNode& c, const std::string& cp, const char* what) {
            const std::vector<uint8_t> p = tree.payloadOf(c);
            if (p.size() != (uint64_t(frames) + 7) / 8)
                throw EditError(file + ": " + cp + ": " + std::to_string(p.size()) + " bytes of " + what +
                                " bits for " + std::to_string(frames) + " frames; not cut");
            std::vector<uint8_t> out((kept + 7) / 8, 0);
            for (uint32_t f = 0; f < kept; ++f) {
                const uint32_t from = op.first + f;
                if ((p[from >> 3] >> (from & 7)) & 1) out[f >> 3] = uint8_t(out[f >> 3] | (1u << (f & 7)));
            }
            set(c, cp, what, std::to_string(frames) + " frames", "frames " + range, std::move(out));
        };
        for (SourceNode& c : n.children) {
            if (c.kind != K::Chunk) continue;
            const std::string cp = join(path, c);
            if (c.type == 0x100a) rows(c, cp, 2 * wordsOf(12), "translations");
            if (c.type == 0x1009) rows(c, cp, 2 * wordsOf(11), "rotations");
            if (c.type == 0x100b) rows(c, cp, 2 * wordsOf(13), "scales");
            if (c.type != 0x1002) continue;
            for (SourceNode& d : c.children) {
                if (d.kind != K::Chunk) continue;
                const std::string dp = join(cp, d);
                if (d.type == 0x1004) rows(d, dp, 6, "translation");
                if (d.type == 0x1005) rows(d, dp, 6, "scale");
                if (d.type == 0x1006 && tree.payloadOf(d).size() != 8) rows(d, dp, 8, "rotation");
                if (d.type == 0x1007) bits(d, dp, "visibility");
                if (d.type == 0x1008) bits(d, dp, "step");
            }
        }
    }

    void clip(SourceNode& n, const std::string& path) {
        if (op.kind == EditOp::Kind::TrimClip) return trim(n, path);
        for (SourceNode& c : n.children) {
            if (c.kind != K::Chunk) continue;
            const std::string pp = join(path, c);
            if (c.type == 0x1001 && op.kind == EditOp::Kind::SetClipRate) {
                matched = true;
                setMiniFloats(c, pp, 2, 1, "frame rate");
                const std::vector<float> v = editNumbers(op.value, 1, file, "frame rate");
                if (!(v[0] > 0)) throw EditError(file + ": frame rate must be above 0, got " + op.value);
            } else if (c.type == 0x1002 && op.kind == EditOp::Kind::RenameBone) {
                SourceNode* info = childOf(c, K::Chunk, 0x1003);
                SourceNode* m = info ? childOf(*info, K::Mini, 4) : nullptr;
                if (!m) continue;
                const std::string name = cstr(tree.payloadOf(*m));
                if (!equalsNoCase(name, op.name)) continue;
                matched = true;
                set(*m, join(join(pp, *info), *m), "bone name", name, op.value, cbytes(op.value));
            }
        }
    }
};

const char* targetWord(EditOp::Kind k) {
    switch (k) {
    case EditOp::Kind::SetShader:
    case EditOp::Kind::SetParam:
        return "material";
    case EditOp::Kind::RenameBone:
    case EditOp::Kind::SetBoneVisible:
    case EditOp::Kind::SetBoneBillboard:
        return "bone";
    case EditOp::Kind::SetMeshHidden:
    case EditOp::Kind::SetMeshCollision:
        return "mesh";
    case EditOp::Kind::SetProxyTarget:
    case EditOp::Kind::SetProxyHidden:
        return "proxy";
    case EditOp::Kind::SetLightColor:
    case EditOp::Kind::SetLightIntensity:
        return "light";
    case EditOp::Kind::SetDazzleColor:
    case EditOp::Kind::SetDazzleRate:
        return "dazzle";
    default:
        return "clip";
    }
}

} // namespace

std::vector<TextEdit> applyEdit(SourceTree& tree, const EditOp& op, bool apply) {
    if (op.kind == EditOp::Kind::RenameTexture) return renameTexture(tree, op.name, op.value, apply);
    const std::string& file = tree.label();
    if (op.kind == EditOp::Kind::RenameClip)
        throw EditError(file + ": an Alamo clip is named by its file name (MODEL_CLIP_NN.ala): rename the file");
    Editor e{tree, op, file, {}, {}};
    for (SourceNode& n : tree.roots()) {
        if (n.kind != K::Chunk) continue;
        const std::string p = n.segment();
        if (n.type == 0x200 && (op.kind == EditOp::Kind::RenameBone || op.kind == EditOp::Kind::SetBoneVisible ||
                                op.kind == EditOp::Kind::SetBoneBillboard)) {
            for (SourceNode& b : n.children)
                if (b.kind == K::Chunk && b.type == 0x202) e.bone(b, join(p, b));
        } else if (n.type == 0x400 &&
                   (op.kind == EditOp::Kind::SetShader || op.kind == EditOp::Kind::SetParam ||
                    op.kind == EditOp::Kind::SetMeshHidden || op.kind == EditOp::Kind::SetMeshCollision)) {
            e.mesh(n, p);
        } else if (n.type == 0x1300 &&
                   (op.kind == EditOp::Kind::SetLightColor || op.kind == EditOp::Kind::SetLightIntensity)) {
            e.light(n, p);
        } else if (n.type == 0x600) {
            e.connections(n, p);
        } else if (n.type == 0x1000) {
            e.clip(n, p);
        }
    }
    // A rename that names nothing here is no change (a companion file may not name the bone); anything else
    // must find its target.
    if (!e.matched && op.kind != EditOp::Kind::RenameBone) {
        std::string what = targetWord(op.kind);
        std::string which = op.target.empty() ? "any " + what : what + " " + op.target;
        if (op.kind == EditOp::Kind::SetParam) which += " with a parameter " + op.name;
        if (op.kind == EditOp::Kind::SetShader && !op.name.empty()) which += " with shader " + op.name;
        throw EditError(file + ": no " + which);
    }
    if (apply)
        for (auto& [n, payload] : e.sets)
            tree.setPayload(*n, std::move(payload));
    return std::move(e.out);
}

} // namespace rs::alamo
