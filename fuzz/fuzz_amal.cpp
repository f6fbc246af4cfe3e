// libFuzzer target: AMOS bank files (.abk/.AMOS): banks, then every movement played and every AMAL
// program compiled and run for 50 ticks (bounded words per tick).
#include "amal/amal_bank.h"
#include "amal/amal_play.h"
#include "amal/amal_sim.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] {
        const rs::amal::BankFile f = rs::amal::readBankFile(rs::ByteSpan(data, size), "fuzz.abk");
        rs::amal::SimOptions opt;
        opt.ticks = 50;
        opt.maxWordsPerTick = 10000;
        for (const rs::amal::Bank& b : f.amalBanks) {
            for (const rs::amal::Movement& m : b.movements) {
                rs::amal::playMovement(m, true, 0, 0, 2000);
                rs::amal::playMovement(m, false, 0, 0, 2000);
            }
            for (const rs::amal::Program& p : b.programs)
                rs::amal::simulate(p.text, &b, opt);
        }
    });
}
