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
    std::vector<bool> drawn(sys.emitters.size());
    for (size_t e = 0; e < sys.emitters.size(); ++e)
        drawn[e] = particleDrawOf(sys.emitters[e].blend) != ParticleDraw::NotDrawn;
    // What the drawn particles at t show (sum of size^2 x alpha x brightest channel), and whether any drawn
    // particle is there at all (a black particle of an alpha emitter shows 0 but is drawn).
    bool any = false;
    auto shows = [&](double t) {
        sim.evaluate(t, o, buf);
        double sum = 0.0;
        any = false;
        for (size_t e = 0; e < buf.emitters.size(); ++e) {
            if (!drawn[e]) continue;
            const ParticleBuffer::Range r = buf.emitters[e];
            for (size_t i = r.begin; i < size_t(r.begin) + r.count && i < buf.count; ++i) {
                const SimParticle& p = buf.particles[i];
                const double a = std::clamp(double(p.color.a), 0.0, 1.0);
                const double c = std::clamp(double(std::max({p.color.r, p.color.g, p.color.b})), 0.0, 1.0);
                const double s = std::min(std::abs(double(p.size)), 1e6);
                if (!std::isfinite(a * c * s) || !(a > 0.0) || !(s > 0.0)) continue;
                any = true;
                sum += s * s * a * c;
            }
        }
        return sum;
    };
    const double loop = particleLoopSeconds(sys);
    std::vector<double> times{1.0};
    for (int k = 1; k <= 32; ++k)
        times.push_back(loop * k / 32.0);
    std::sort(times.begin(), times.end());
    double best = 0.0, most = 0.0, firstDrawn = -1.0;
    for (double t : times) {
        const double v = shows(t);
        if (v > most) {
            most = v;
            best = t;
        }
        if (any && firstDrawn < 0.0) firstDrawn = t;
    }
    if (most > 0.0) return best;
    if (firstDrawn >= 0.0) return firstDrawn;
    // Nothing at the 33 samples (short bursts between them, a late start): the first moment a drawn particle is
    // there, looked for in steps of 1/60 s over two loops (at most 2400 evaluations, each of the particles alive
    // then), the brightest of that moment's next 1/4 s if it shows more.
    const int steps = int(std::ceil(2.0 * loop * 60.0));
    for (int k = 0; k <= steps; ++k) {
        const double t = double(k) / 60.0;
        const double v = shows(t);
        if (!any) continue;
        best = t;
        most = v;
        for (int j = 1; j <= 15 && k + j <= steps; ++j) {
            const double u = double(k + j) / 60.0;
            const double w = shows(u);
            if (w > most) {
                most = w;
                best = u;
            }
        }
        return best;
    }
    return 0.0;
}

} // namespace rs
