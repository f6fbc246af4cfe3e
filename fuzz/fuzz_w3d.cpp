// libFuzzer target: W3D (hierarchies, meshes, HLODs, clips), through loadDocument with a .w3d name.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] { rs::fuzz::exerciseDocument(rs::loadDocument(rs::ByteSpan(data, size), "fuzz.w3d")); });
}
