// The source tree of B&W2 .bwm models (read, edit, write: docs/ARCHITECTURE.md).
#include "bw2/bwm.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace rs::bw2 {

SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    BwmFile f;
    try {
        f = parseBwm(ByteSpan(*bytes), label);
    } catch (const ParseError& e) {
        SourceTree t = wholeFileTree(bytes, label, "unparsed file");
        if (!t.roots().empty()) t.roots().front().quirk = e.what();
        return t;
    }
    std::vector<FieldSpan> s;
    uint64_t at = 0;
    auto add = [&](std::string name, uint64_t n) {
        s.push_back({std::move(name), at, at + n, {}});
        at += n;
        return &s.back();
    };
    add("file header", kBwmFileHeaderSize);
    add("model header", kBwmModelHeaderSize);
    for (size_t i = 0; i < f.materials.size(); ++i) {
        FieldSpan* m = add("material " + std::to_string(i), kBwmMaterialSize);
        for (int k = 0; k < 7; ++k)
            m->children.push_back(
                {BwmMaterial::slotName(k), m->begin + 64 * uint64_t(k), m->begin + 64 * uint64_t(k + 1), {}});
    }
    size_t refs = 0;
    for (size_t i = 0; i < f.meshes.size(); ++i) {
        add("mesh " + std::to_string(i), kBwmMeshSize);
        refs += f.meshes[i].refs.size();
    }
    add("material refs", kBwmMaterialRefSize * refs);
    add("bones", kBwmFrameSize * f.bones.size());
    add("entities", kBwmEntitySize * f.entities.size());
    add("unknown points", 12 * f.unknownPoints.size());
    add("collision points", 12 * f.collisionPoints.size());
    add("strides", kBwmStrideSize * f.strides.size());
    at = kBwmFileHeaderSize + uint64_t(f.metadataSize);
    uint64_t vertexBytes = 0;
    for (const BwmStride& st : f.strides)
        vertexBytes += uint64_t(st.size()) * f.vertexCount;
    add("vertex data", vertexBytes);
    add("indices", 2 * uint64_t(f.indexCount));
    if (f.hasTrailer) add("trailer", 4 + 12 * uint64_t(f.trailer.size()));
    SourceTree t(bytes, label);
    t.roots() = fieldNodes(s, 0, bytes->size());
    return t;
}

std::vector<TextEdit> renameTexture(SourceTree& tree, const std::string& from, const std::string& to, bool apply) {
    std::vector<TextEdit> out;
    const ByteSpan o = tree.original();
    for (SourceNode& m : tree.roots()) {
        if (m.kind != SourceNode::Kind::Field || m.label.compare(0, 9, "material ") != 0) continue;
        for (SourceNode& slot : m.children) {
            if (slot.kind != SourceNode::Kind::Field || slot.label == "type") continue;
            // The slot as it is now (an earlier edit's, or as read); a slot keeps its size.
            const uint8_t* cur = slot.replaced ? slot.replaced->data() : o.data + slot.begin;
            const char* b = reinterpret_cast<const char*>(cur);
            const size_t size = slot.replaced ? slot.replaced->size() : size_t(slot.end - slot.begin);
            const std::string text(b, strnlen(b, size));
            if (!equalsNoCase(text, from)) continue;
            if (to.size() + 1 > size)
                throw std::length_error("texture name " + to + " does not fit the " + std::to_string(size) +
                                        "-byte field " + m.label + "/" + slot.label);
            out.push_back({m.label + "/" + slot.label, slot.begin, text, to});
            if (!apply) continue;
            std::vector<uint8_t> payload(cur, cur + size);
            std::fill(payload.begin(), payload.begin() + long(std::min(size, std::max(text.size(), to.size()) + 1)), 0);
            std::copy(to.begin(), to.end(), payload.begin());
            tree.setPayload(slot, std::move(payload));
        }
    }
    return out;
}

} // namespace rs::bw2

namespace rs::bw2 {

namespace {
// The material parameter the reader gives a texture slot (bwm.cpp convertMaterial), "" for the type field.
std::string slotParameter(const std::string& slot) {
    static const char* const kParams[6] = {"BaseTexture",     "LightmapTexture", "GrowthTexture",
                                           "SpecularTexture", "AnimatedTexture", "NormalTexture"};
    for (int k = 0; k < 6; ++k)
        if (slot == BwmMaterial::slotName(k)) return kParams[k];
    return {};
}
} // namespace

std::vector<TextEdit> applyEdit(SourceTree& tree, const EditOp& op, bool apply) {
    if (op.kind == EditOp::Kind::RenameTexture) return renameTexture(tree, op.name, op.value, apply);
    const std::string& file = tree.label();
    if (op.kind != EditOp::Kind::SetParam)
        throw EditError(file + ": B&W2 models have no such edit (" + describeEdit(op) + ")");
    const ByteSpan o = tree.original();
    std::vector<std::pair<SourceNode*, std::vector<uint8_t>>> sets;
    std::vector<TextEdit> out;
    bool matched = false;
    for (SourceNode& m : tree.roots()) {
        if (m.kind != SourceNode::Kind::Field || m.label.compare(0, 9, "material ") != 0) continue;
        if (!op.target.empty() && !equalsNoCase(op.target, m.label) && op.target != m.label.substr(9)) continue;
        for (SourceNode& slot : m.children) {
            // The slot by its name in the file ("diffuse") or the parameter the viewer shows for it ("BaseTexture").
            if (slot.kind != SourceNode::Kind::Field ||
                (!equalsNoCase(slot.label, op.name) && !equalsNoCase(slotParameter(slot.label), op.name)))
                continue;
            matched = true;
            std::vector<uint8_t> payload = tree.payloadOf(slot);
            const size_t size = payload.size();
            const std::string text(reinterpret_cast<const char*>(payload.data()),
                                   strnlen(reinterpret_cast<const char*>(payload.data()), size));
            if (op.value.size() + 1 > size)
                throw EditError(file + ": texture name " + op.value + " does not fit the " + std::to_string(size) +
                                "-byte field " + m.label + "/" + slot.label);
            std::fill(payload.begin(),
                      payload.begin() + long(std::min(size, std::max(text.size(), op.value.size()) + 1)), 0);
            std::copy(op.value.begin(), op.value.end(), payload.begin());
            if (text == op.value) continue;
            out.push_back({m.label + "/" + slot.label, slot.begin, text, op.value, slot.label});
            sets.emplace_back(&slot, std::move(payload));
        }
    }
    (void)o;
    if (!matched)
        throw EditError(file + ": no " + (op.target.empty() ? std::string("material") : op.target) +
                        " with a texture slot " + op.name +
                        " (diffuse, light, growth, specular, animated, normal, type, or the parameter names "
                        "BaseTexture, LightmapTexture, GrowthTexture, SpecularTexture, AnimatedTexture, "
                        "NormalTexture)");
    if (apply)
        for (auto& [n, payload] : sets)
            tree.setPayload(*n, std::move(payload));
    return out;
}

} // namespace rs::bw2
