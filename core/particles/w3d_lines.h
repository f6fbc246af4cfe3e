// W3D emitters' line render modes as ww3d2 draws them (EA's released Renegade / Generals sources, part_buf.cpp:
// Render_Line with SegLineRendererClass, Render_Line_Group with LineGroupClass), as segments that the renderer draws
// as camera-facing ribbons (render/particles.cpp).
//   mode 2 (line): one line through the live particles in birth order, the start size wide (the first size key:
//     ParticleBufferClass::Get_Particle_Size); each segment in the colour of its older point.
//   modes 3 / 4 (line groups, tetrahedra / prisms): per particle a streak from its position (head) to
//     position - velocity * blur time (tail), its size wide; the tail's colour by Determine_Tail_Diffuse.
// Named approximations (docs/formats/w3d-emitters.md): the tetrahedra and prisms are flat ribbons of their width;
// the line's subdivision, noise, merging, texture tiling and UV scrolling (line properties 0x509) are not applied;
// the per-particle blur-time random offset is not applied; colours along a segment of the line mode are not blended
// between its points.
#pragma once

#include "particles/particle_sim.h"
#include "particles/particle_system.h"

#include <cstdint>
#include <vector>

namespace rs {

// The tail colour of line-group streaks (ParticleBufferClass::Determine_Tail_Diffuse).
enum class W3dTailColor : uint8_t {
    Head = 0,          // the head's colour (textured emitters, other shaders)
    HeadAlphaZero = 1, // the head's colour, alpha 0 (alpha blending)
    Black = 2,         // 0 (additive)
    White = 3,         // 1 (destination blend SRC_COLOR: modulate)
};
W3dTailColor w3dTailColor(const ParticleEmitter& e);

// The value of W3D keys at `age` seconds (the first key's value before it, linear between keys, the last key's
// after it); 0 without keys. The same evaluation the simulation uses (w3d_sim.cpp).
glm::vec3 w3dKeyAt(const std::vector<W3dEmitterParams::Key>& keys, float age);

struct W3dLineSegment {
    glm::vec3 head{0.0f}, tail{0.0f};
    float width = 0.0f;
    glm::vec4 color{1.0f}; // the head's
    W3dTailColor tailColor = W3dTailColor::Head;
};

// True for emitters drawn as lines (a W3D emitter with render mode 2, 3 or 4).
bool w3dDrawsLines(const ParticleEmitter& e);

// The segments of emitter e's particles p[0, n), in the order ParticleSimulator writes them (birth order), appended
// to out. Nothing for emitters that draw no lines; degenerate segments (head = tail) are kept (they draw nothing).
void w3dLineSegments(const ParticleEmitter& e, const SimParticle* p, size_t n, std::vector<W3dLineSegment>& out);

} // namespace rs
