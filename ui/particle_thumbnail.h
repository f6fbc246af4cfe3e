// The still picture of an Alamo particle system shown alone, without OpenGL (QPainter into a QImage), for
// thumbs::renderAsset (the thumbnailer, `rigscope-cli thumbnails`, the asset grid).
//
// What it draws: the system simulated as the view simulates it (seed 1, at the origin) at particlePreviewTime
// (the moment of its first loop at which it shows most), seen from the view's default angles (yaw 35, pitch 20,
// z up) through a parallel projection framed on the particles drawn. Each particle is a camera-facing square of
// its size, turned by its rotation, showing its atlas frame of the emitter's colour texture (found like the view
// finds it: Resolver::findTexture from the system's path) or, without one, the view's soft round sprite; tinted
// by its colour and blended as the view blends its emitter (additive adds, alpha and opaque cover, modulate
// multiplies), farthest first. Not drawn, as in the view: heat, bump and decal-bump emitters and unknown blend
// values. Kites and world-oriented quads are drawn facing the camera.
#pragma once

#include "particles/particle_system.h"
#include "resolve/resolver.h"

#include <QImage>

#include <string>

namespace rs::thumbs {

struct ParticlePicture {
    QImage image;           // size x size, transparent background; null when nothing is drawn (why says why)
    std::string why;        // why nothing was drawn
    bool noPicture = false; // the system has nothing to draw at all (only distortion emitters), not a broken file
    double time = 0.0;      // the simulated time shown, seconds
};

// path: where the system was read (its textures are looked up from there).
ParticlePicture renderParticleSystem(const Resolver& resolver, const std::string& path, const ParticleSystem& system,
                                     int size);

} // namespace rs::thumbs
