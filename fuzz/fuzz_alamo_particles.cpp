// libFuzzer target: Alamo particle system reader (.alo starting with 0x900), then the simulation over what it read
// at a few times into a small buffer, with a birth budget of 16 buffers a time (hostile rates hit it in microseconds
// instead of after the viewer's 4 M births; the truncation path is the same). Contracts: counts within the buffer and
// the per-emitter ranges, atlas frames inside the grid, and the last time's particles equal to a cold evaluation's
// (AttractionCache is exact).
#include "alamo/particle_reader.h"
#include "fuzz_common.h"
#include "particles/particle_sim.h"

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return rs::fuzz::run([&] {
        const rs::ParticleSystem s = rs::alamo::readParticleSystem(rs::ByteSpan(data, size), "fuzz.alo");
        rs::ParticleSimulator sim(s);
        rs::ParticleBuffer buf(256, s.emitters.size());
        rs::ParticleSimOptions o;
        o.maxBirths = 16 * 256;
        for (double t : {0.0, 0.75, 3.5}) {
            sim.evaluate(t, o, buf);
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
        // The integration states kept in buf from the earlier times give what a cold evaluation gives.
        rs::ParticleBuffer cold(256, s.emitters.size());
        sim.evaluate(3.5, o, cold);
        if (cold.count != buf.count) rs::fuzz::violated("particles", "kept integration states change the count");
        for (size_t i = 0; i < cold.count; ++i)
            if (std::memcmp(&cold.particles[i].position, &buf.particles[i].position, sizeof(glm::vec3)) != 0)
                rs::fuzz::violated("particles", "kept integration states change a position");
    });
}
