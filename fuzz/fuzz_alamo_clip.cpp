// libFuzzer target: Alamo .ala clip reader (formats 1 and 2).
#include "alamo/alamo_reader.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run(
        [&] { rs::fuzz::exerciseClip(rs::alamo::readClip(rs::ByteSpan(data, size), "fuzz.ala"), nullptr); });
}
