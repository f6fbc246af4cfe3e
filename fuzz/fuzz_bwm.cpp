// libFuzzer target: Black & White 2 .bwm model reader.
#include "bw2/bwm.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] { rs::fuzz::exerciseModel(rs::bw2::readBwm(rs::ByteSpan(data, size), "fuzz.bwm")); });
}
