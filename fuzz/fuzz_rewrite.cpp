// libFuzzer target: read, write, read again (issue 39). Every format's source tree must re-emit the input byte for
// byte (unedited, every node rebuilt from its fields, and every leaf re-emitted with its size fields recomputed);
// when the format's reader accepts the input, it must accept what was written and read the same document again.
#include "alamo/alamo_chunks.h"
#include "amal/amal_bank.h"
#include "bw2/bwm.h"
#include "common/source_tree.h"
#include "formats/formats.h"
#include "fuzz_common.h"
#include "vfs/archive.h"
#include "w3d/w3d_chunks.h"

#include <functional>

namespace {

using namespace rs;

void requireSame(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, const char* what) {
    if (a != b) {
        const auto at = firstDifference(ByteSpan(a), ByteSpan(b));
        fuzz::violated(what, "differs at offset " + std::to_string(at ? *at : 0));
    }
}

void roundTrip(const SourceTree& t, const std::vector<uint8_t>& input) {
    requireSame(t.write(), input, "write");
    requireSame(t.writeEveryNode(), input, "write every node");
    SourceTree e = t;
    const ByteSpan o = e.original();
    std::function<void(std::vector<SourceNode>&)> walk = [&](std::vector<SourceNode>& nodes) {
        for (SourceNode& x : nodes) {
            if (!x.children.empty())
                walk(x.children);
            else if (x.kind != SourceNode::Kind::Raw)
                e.setPayload(x, std::vector<uint8_t>(o.data + x.payloadBegin(), o.data + x.end));
        }
    };
    walk(e.roots());
    requireSame(e.write(), input, "write with every leaf re-emitted");
}

// Edits on any input (issue 39): each either refuses (EditError, or a size that does not fit) or changes the tree;
// undoing the journal's entries, last first, gives the input back byte for byte.
void editAndUndo(SourceTree t, Format f, const std::vector<uint8_t>& input) {
    const char* const values[] = {"X", "1", "0.5 0.5 0.5", "0.5 0.5 0.5 1", "#FF8000"};
    // The parameters the Materials panel sets besides any name: a W3D texture entry, a vertex-material colour, a
    // shader field (one the model keeps, one it does not), a B&W2 slot by its parameter name; every kind, the W3D
    // mesh's two-sided flag last.
    const char* const names[] = {"Root", "Texture", "Diffuse", "DepthCompare", "PostDetailColorFunc", "BaseTexture"};
    for (int k = 0; k <= int(EditOp::Kind::SetMeshTwoSided); ++k)
        for (const char* n : names)
            for (const char* v : values) {
                if (n != names[0] && EditOp::Kind(k) != EditOp::Kind::SetParam) continue;
                EditOp op;
                op.kind = EditOp::Kind(k);
                op.name = n;
                op.target = "";
                op.value = v;
                try {
                    applyEdit(f, t, op, true);
                } catch (const EditError&) {
                } catch (const std::length_error&) {
                }
            }
    const auto journal = t.journal();
    for (auto it = journal.rbegin(); it != journal.rend(); ++it)
        t.restorePayload(it->node, it->before, it->childrenBefore);
    requireSame(t.write(), input, "edits undone");
}

// What a read gives, in a form two reads can be compared by.
std::string digest(const Document& d) {
    std::string s = std::to_string(int(d.format)) + ";" + std::to_string(d.warnings.size());
    if (d.model) {
        s += ";bones " + std::to_string(d.model->skeleton.bones.size()) + " meshes " +
             std::to_string(d.model->meshes.size());
        for (const Bone& b : d.model->skeleton.bones)
            s += "," + b.name;
        for (const Mesh& m : d.model->meshes)
            for (const SubMesh& sm : m.subMeshes)
                s += ";" + std::to_string(sm.positions.size()) + "/" + std::to_string(sm.indices.size()) + " " +
                     sm.material.shader;
    }
    for (const auto& c : d.clips)
        s += ";clip " + c->name + " " + std::to_string(c->frameCount) + " " + std::to_string(c->tracks.size());
    if (d.particles) s += ";emitters " + std::to_string(d.particles->emitters.size());
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<uint8_t> input(data, data + size);
    auto bytes = std::make_shared<const std::vector<uint8_t>>(input);
    // The tree builders never throw, whatever the input.
    roundTrip(alamo::sourceTree(bytes, "fuzz.alo"), input);
    roundTrip(w3d::sourceTree(bytes, "fuzz.w3d"), input);
    roundTrip(bw2::sourceTree(bytes, "fuzz.bwm"), input);
    roundTrip(amal::sourceTree(bytes, "fuzz.abk"), input);
    roundTrip(vfs::archiveSourceTree(bytes, "fuzz.meg"), input);
    editAndUndo(alamo::sourceTree(bytes, "fuzz.alo"), Format::AlamoModel, input);
    editAndUndo(w3d::sourceTree(bytes, "fuzz.w3d"), Format::W3d, input);
    editAndUndo(bw2::sourceTree(bytes, "fuzz.bwm"), Format::Bw2Model, input);
    // Read, write, read again with the format's reader.
    const Format f = writableFormat(ByteSpan(input), "fuzz");
    if (f == Format::Unknown) return 0;
    Document first;
    ReadContext c;
    c.label = "fuzz";
    try {
        first = readBack(f, ByteSpan(input), c);
    } catch (const ParseError&) {
        return 0;
    }
    const std::vector<uint8_t> written = sourceTree(f, bytes, "fuzz").write();
    Document second;
    try {
        second = readBack(f, ByteSpan(written), c);
    } catch (const ParseError& e) {
        fuzz::violated("read again", e.what());
    }
    if (digest(first) != digest(second)) fuzz::violated("read again", digest(first) + " != " + digest(second));
    return 0;
}
