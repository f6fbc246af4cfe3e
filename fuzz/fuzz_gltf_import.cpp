// libFuzzer target: the glTF importer (import/gltf_import.h) on GLB or glTF text, then the files it would write,
// made and read back in memory (nothing is written): the Alamo files; the W3D files with two bones per vertex
// (BFME) and a compressed codec (timecoded or adaptive delta, chosen by the input's size); and the DDS of its
// PNG/JPEG images. External buffers name a folder that does not exist, so that an input never reads other files.
// A ParseError is the expected outcome for most inputs.
#include "fuzz_common.h"
#include "gltf_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    namespace gi = rs::gltfimport;
    rs::fuzz::run([&] {
        const std::string path = "/nonexistent-rigscope-fuzz/fuzz.glb";
        const gi::ImportResult r = gi::importGltf(path, rs::ByteSpan(data, size));
        rs::fuzz::exerciseModel(r.model);
        const auto files = gi::alamoFiles(r, "/nonexistent-rigscope-fuzz/FUZZ.alo");
        if (files.empty()) rs::fuzz::violated("import", "no model file");
    });
    return rs::fuzz::run([&] {
        const std::string path = "/nonexistent-rigscope-fuzz/fuzz.glb";
        gi::ImportOptions o;
        o.bonesPerVertex = 2;
        o.keepImages = true;
        gi::ImportResult r = gi::importGltf(path, rs::ByteSpan(data, size), o);
        (void)gi::textureFiles(r, "/nonexistent-rigscope-fuzz", gi::TextureLayout::SageCompiled, &r.report);
        gi::W3dOptions w;
        w.bfme = true;
        w.rename = true;
        w.codec = size % 2 ? gi::W3dCodec::Timecoded : gi::W3dCodec::AdaptiveDelta;
        const auto files = gi::w3dFiles(r, "/nonexistent-rigscope-fuzz/FUZZ.w3d", w, &r.report);
        if (files.empty()) rs::fuzz::violated("import", "no W3D model file");
    });
}
