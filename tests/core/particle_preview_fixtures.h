// A particle system whose particles are alive only between the moments particlePreviewTime samples (issue 38: a
// thumbnails batch failed on such a system, "no particle is alive at 0 s").
#pragma once

#include "particle_fixtures.h"

namespace rs::test {

// One burst of 6 particles at 0.01 s living 0.02 s: alive only between the preview's samples (1 s and k/32 of its
// 1 s loop), as a short muzzle flash or engine flare. A continuous emitter of heat (not drawn) shows throughout.
inline ParticleSystem flashSystem() {
    ParticleSystem s;
    s.name = "pe_flash";
    ParticleEmitter flash = test::burstEmitter("flash", 6, 1.0f, 1, 0.02f);
    flash.params.initialDelay = 0.01f;
    flash.colorTexture.clear(); // the soft round sprite
    ParticleEmitter heat = test::continuousEmitter("heat", 20, 0.5f);
    heat.blend = ParticleBlend::Heat;
    heat.params.blendMode = uint32_t(ParticleBlend::Heat);
    s.emitters = {flash, heat};
    return s;
}

} // namespace rs::test
