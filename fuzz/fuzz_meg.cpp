// libFuzzer target: MEG archives (versions 1-3) through the VFS reader.
#include "fuzz_archive_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] { rs::fuzz::exerciseArchive(data, size, "fuzz.meg"); });
}
