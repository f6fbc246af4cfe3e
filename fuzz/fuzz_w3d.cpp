// libFuzzer target: W3D (hierarchies, meshes, HLODs, boxes, effects, aggregates, clips), through the format
// registry's reader (readDocument) with a .w3d name; no other file is looked up. Aggregate sub-objects the input does
// not hold (markers of kind "aggregate") are attached from the input itself, as the resolver attaches the model read
// from the file each one names (w3d/w3d_aggregate.h), so that attachPart is fuzzed with the model it is given.
#include "fuzz_common.h"
#include "w3d/w3d_aggregate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    rs::ReadContext context;
    context.label = "fuzz.w3d";
    return rs::fuzz::run([&] {
        const rs::Document d = rs::readDocument(rs::ByteSpan(data, size), context);
        rs::fuzz::exerciseDocument(d);
        if (!d.model) return;
        const rs::Model& part = *d.model;
        rs::Model m = part;
        int attached = 0;
        for (const rs::Marker& mk : part.markers)
            if (mk.kind == "aggregate" && attached < 256 && rs::w3d::attachPart(m, part, mk.name, mk.bone))
                ++attached; // the resolver's cap (kMaxParts)
        if (attached) rs::fuzz::exerciseModel(m);
    });
}
