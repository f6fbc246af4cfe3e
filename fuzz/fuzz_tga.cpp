// libFuzzer target: TGA decoder and probe (core/texture/tga.cpp).
#include "fuzz_texture_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    rs::fuzz::exerciseTexture(&rs::decodeTga, &rs::probeTga, data, size, "fuzz.tga");
    return 0;
}
