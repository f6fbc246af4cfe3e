// libFuzzer target: W3D (hierarchies, meshes, HLODs, clips), through the format registry's reader (readDocument)
// with a .w3d name; no other file is looked up.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    rs::ReadContext context;
    context.label = "fuzz.w3d";
    return rs::fuzz::run([&] { rs::fuzz::exerciseDocument(rs::readDocument(rs::ByteSpan(data, size), context)); });
}
