// libFuzzer target: the AMAL compiler and interpreter on arbitrary program text (no bank), 50 ticks.
#include "amal/amal_sim.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    rs::amal::SimOptions opt;
    opt.ticks = 50;
    opt.maxWordsPerTick = 10000;
    rs::amal::simulate(std::string(reinterpret_cast<const char*>(data), size), nullptr, opt);
    return 0;
}
