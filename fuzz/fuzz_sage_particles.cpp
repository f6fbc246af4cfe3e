// libFuzzer target: SAGE particle INI (core/objects/sage_fx: ParticleSystem, FXParticleSystem and FXList over the INI
// text layer) and the SAGE simulation of every system read, at a few times within a small birth budget. Bad values
// are refused by name, never thrown; the simulation stays within its budget whatever the numbers.
#include "objects/sage_fx.h"
#include "particles/particle_sim.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    rs::objects::SageFxLibrary lib;
    lib.readFile(rs::ByteSpan(data, size), "data/ini/fuzz.ini");
    size_t n = 0;
    for (const std::string& name : lib.systemNames()) {
        if (++n > 8) break;
        const auto sys = lib.find(name);
        if (!sys) __builtin_trap();
        rs::ParticleSimulator sim(*sys);
        rs::ParticleBuffer buf(256, sys->emitters.size());
        rs::ParticleSimOptions o;
        o.maxBirths = 4096;
        for (double t : {0.0, 0.4, 3.0, 100.0}) {
            sim.evaluate(t, o, buf);
            if (buf.count > buf.particles.size()) __builtin_trap();
        }
    }
    return 0;
}
