// How long a particle system shown alone loops and which moment of it stands for it in a still picture (the
// window's playback, `rigscope --screenshot` and thumbnails of a particle file).
#pragma once

#include "particles/particle_system.h"

namespace rs {

// How an emitter's blend mode is drawn (the view's shader and the software picture): additive adds colour * alpha,
// alpha covers, modulate multiplies, opaque writes; NotDrawn: heat, bump and decal bump (screen distortion) and
// unknown values.
enum class ParticleDraw : int { NotDrawn = -1, Opaque = 0, Additive = 1, Alpha = 2, Modulate = 3 };
ParticleDraw particleDrawOf(ParticleBlend blend);

// Length of one loop when the system plays alone, seconds (1..20): the last burst of its finite emitters plus the
// longest life, or two of the longest lives after the start for emitters that never stop.
float particleLoopSeconds(const ParticleSystem& system);

// The time of a still picture of the system alone (simulated with seed 1, as the view draws it), seconds: of 1 s
// and 32 times spread over its first loop, the one at which its drawn particles (particleDrawOf) show most (the
// sum over the live particles of size^2 x alpha x their brightest channel; the earliest on a tie); else the first
// of them at which a drawn particle is there (black smoke shows 0); else, looked for in steps of 1/60 s over two
// loops (short bursts between the samples), the first moment one is there (the brightest of its next 1/4 s);
// 0 when no drawn particle is ever there.
double particlePreviewTime(const ParticleSystem& system);

} // namespace rs
