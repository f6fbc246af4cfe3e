// libFuzzer target: Alamo .alo model reader.
#include "alamo/alamo_reader.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] { rs::fuzz::exerciseModel(rs::alamo::readModel(rs::ByteSpan(data, size), "fuzz.alo")); });
}
