// libFuzzer target: Black & White 2 .stuff archives through the VFS reader.
#include "fuzz_archive_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] { rs::fuzz::exerciseArchive(data, size, "fuzz.stuff"); });
}
