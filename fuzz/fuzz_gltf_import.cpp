// libFuzzer target: the glTF importer (import/gltf_import.h) on GLB or glTF text, then the Alamo files it would
// write, made and read back in memory (nothing is written). External buffers name a folder that does not exist,
// so that an input never reads other files. A ParseError is the expected outcome for most inputs.
#include "fuzz_common.h"
#include "gltf_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] {
        const std::string path = "/nonexistent-rigscope-fuzz/fuzz.glb";
        const rs::gltfimport::ImportResult r = rs::gltfimport::importGltf(path, rs::ByteSpan(data, size));
        rs::fuzz::exerciseModel(r.model);
        const auto files = rs::gltfimport::alamoFiles(r, "/nonexistent-rigscope-fuzz/FUZZ.alo");
        if (files.empty()) rs::fuzz::violated("import", "no model file");
    });
}
