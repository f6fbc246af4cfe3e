// libFuzzer target: DDS decoder and probe (core/texture/dds.cpp).
#include "fuzz_texture_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    rs::fuzz::exerciseTexture(&rs::decodeDds, &rs::probeDds, data, size, "fuzz.dds");
    return 0;
}
