#include "particles/particle_preview.h"

#include "particles/particle_sim.h"

#include <algorithm>
#include <cmath>
#include <vector>

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
    ParticleBuffer buf(4096, sys.emitters.size());
    ParticleSimOptions o;
    o.seed = 1;
    o.maxBirths = 1 << 16; // a measure, not a picture: bound the work of hostile rates
    auto shows = [&](double t) {
        sim.evaluate(t, o, buf);
        double sum = 0.0;
        for (size_t i = 0; i < buf.count; ++i) {
            const SimParticle& p = buf.particles[i];
            const double a = std::clamp(double(p.color.a), 0.0, 1.0);
            const double c = std::clamp(double(std::max({p.color.r, p.color.g, p.color.b})), 0.0, 1.0);
            const double s = std::min(std::abs(double(p.size)), 1e6);
            if (std::isfinite(a * c * s)) sum += s * s * a * c;
        }
        return sum;
    };
    const double loop = particleLoopSeconds(sys);
    std::vector<double> times{1.0};
    for (int k = 1; k <= 32; ++k)
        times.push_back(loop * k / 32.0);
    std::sort(times.begin(), times.end());
    double best = 0.0, most = 0.0;
    for (double t : times) {
        const double v = shows(t);
        if (v > most) {
            most = v;
            best = t;
        }
    }
    return best;
}

} // namespace rs
