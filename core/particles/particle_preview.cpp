#include "particles/particle_preview.h"

#include "particles/particle_sim.h"

#include <algorithm>
#include <cmath>

namespace rs {

ParticleDraw particleDrawOf(ParticleBlend b) {
    using B = ParticleBlend;
    switch (b) {
    case B::Opaque:
        return ParticleDraw::Opaque;
    case B::Additive:
    case B::DepthAdditive:
        return ParticleDraw::Additive;
    case B::Alpha:
    case B::DepthAlpha:
    case B::DiffuseAlpha:
    case B::AlphaScanlines:
        return ParticleDraw::Alpha;
    case B::Modulate:
    case B::DepthModulate:
    case B::StencilDarken:
    case B::StencilDarkenBlur:
        return ParticleDraw::Modulate;
    default:
        return ParticleDraw::NotDrawn;
    }
}

float particleLoopSeconds(const ParticleSystem& sys) {
    const ParticleSimulator sim(sys);
    double longest = 0.0, end = 0.0;
    for (size_t e = 0; e < sys.emitters.size(); ++e)
        if (std::isfinite(sim.maxLife(e))) longest = std::max(longest, sim.maxLife(e));
    for (size_t e = 0; e < sys.emitters.size(); ++e) {
        if (!sim.topLevel(e)) continue;
        const ParticleEmitterParams& p = sys.emitters[e].params;
        const double delay = std::isfinite(p.initialDelay) ? std::max(0.0, double(p.initialDelay)) : 0.0;
        if (p.useBursts && p.burstCount > 0 && std::isfinite(p.burstDelay))
            end = std::max(end, delay + double(p.burstCount - 1) * std::max(0.0, double(p.burstDelay)) + longest);
        else
            end = std::max(end, delay + 2.0 * longest);
    }
    return float(std::clamp(end, 1.0, 20.0));
}

double particlePreviewTime(const ParticleSystem& sys) {
    if (sys.emitters.empty()) return 0.0;
    const ParticleSimulator sim(sys);
    // Counting needs no particle written: live counts every particle alive, whatever the capacity.
    ParticleBuffer buf(0, sys.emitters.size());
    ParticleSimOptions o;
    o.seed = 1;
    o.maxBirths = 1 << 18; // a count, not a picture: bound the work of hostile rates
    sim.evaluate(1.0, o, buf);
    if (buf.live > 0) return 1.0;
    const double loop = particleLoopSeconds(sys);
    double best = 0.0;
    size_t most = 0;
    for (int k = 0; k < 32; ++k) {
        const double t = loop * k / 32.0;
        sim.evaluate(t, o, buf);
        if (buf.live > most) {
            most = buf.live;
            best = t;
        }
    }
    return best;
}

} // namespace rs
