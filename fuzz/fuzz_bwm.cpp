// libFuzzer target: Black & White 2 .bwm model, through loadDocument with a .bwm name.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] { rs::fuzz::exerciseDocument(rs::loadDocument(rs::ByteSpan(data, size), "fuzz.bwm")); });
}
