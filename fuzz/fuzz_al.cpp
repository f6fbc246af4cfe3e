// libFuzzer target: Black & White 2 .al animation library, through loadDocument with a .al name.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] { rs::fuzz::exerciseDocument(rs::loadDocument(rs::ByteSpan(data, size), "fuzz.al")); });
}
