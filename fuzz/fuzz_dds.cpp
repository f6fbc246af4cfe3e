// libFuzzer target: DDS decoder and probe (core/texture/dds.cpp), and the cube-map reader (texture/dds_cube.h) for
// inputs whose caps2 says CUBEMAP.
#include "fuzz_texture_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    rs::fuzz::exerciseTexture(&rs::decodeDds, &rs::probeDds, data, size, "fuzz.dds");
    if (rs::isDdsCube(rs::ByteSpan(data, size))) rs::fuzz::exerciseDdsCube(data, size, "fuzz.dds");
    return 0;
}
