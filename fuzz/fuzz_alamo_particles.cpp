// libFuzzer target: Alamo particle system reader (.alo starting with 0x900), then the simulation over what it read
// at a few times into a small buffer. Contracts: counts within the buffer and the per-emitter ranges, atlas frames
// inside the grid.
#include "alamo/particle_reader.h"
#include "fuzz_common.h"
#include "particles/particle_sim.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] {
        const rs::ParticleSystem s = rs::alamo::readParticleSystem(rs::ByteSpan(data, size), "fuzz.alo");
        rs::ParticleSimulator sim(s);
        rs::ParticleBuffer buf(256, s.emitters.size());
        for (double t : {0.0, 0.75, 3.5}) {
            sim.evaluate(t, {}, buf);
            if (buf.count > buf.particles.size() || buf.count > buf.live)
                rs::fuzz::violated("particles", "count beyond the buffer or the live count");
            size_t sum = 0;
            for (const auto& r : buf.emitters)
                sum += r.count;
            if (sum != buf.count) rs::fuzz::violated("particles", "emitter ranges do not add up to the count");
            for (size_t i = 0; i < buf.count; ++i) {
                const rs::SimParticle& p = buf.particles[i];
                const uint64_t g = sim.atlasGrid(p.emitter);
                if (p.emitter >= s.emitters.size() || p.frame >= g * g)
                    rs::fuzz::violated("particles", "emitter index or frame out of range");
            }
        }
    });
}
