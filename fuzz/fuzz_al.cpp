// libFuzzer target: Black & White 2 .al animation library reader (armature and every animation as a clip).
#include "bw2/al.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] {
        const rs::bw2::AlFile al = rs::bw2::parseAl(rs::ByteSpan(data, size), "fuzz.al");
        const rs::Model m = rs::bw2::armatureModel(al, "fuzz.al");
        rs::fuzz::exerciseModel(m);
        for (size_t i = 0; i < al.animations.size(); ++i)
            rs::fuzz::exerciseClip(rs::bw2::toClip(al, i), &m);
    });
}
