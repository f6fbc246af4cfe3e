// Maps a material (Alamo shader name + parameters, or a reader's synthesised name) to one of the
// render layer's own shader families and the per-material switches of the mesh shader.
#pragma once

#include <string>

namespace rs {
struct Mesh;
struct Material;
} // namespace rs

namespace rs::render {

enum class Family { Opaque, Alpha, Additive };

struct MaterialStyle {
    Family family = Family::Opaque;
    bool hiddenByDefault = false;   // shadow volumes and collision meshes
    bool colorize = false;          // surface = mix(base, Colorization * base, base.a)
    bool factionColorParam = false; // FC_ mesh: the "Color" parameter takes the faction colour
    bool bump = false;              // tangent-space normal map from NormalTexture
    int glossSource = 0;            // specular mask: 0 none, 1 base alpha, 2 normal-map alpha
    bool unlit = false;             // additive/skydome style: no lighting
    bool skinnedShader = false;     // RSkin* shader (informational)
};

MaterialStyle classifyMaterial(const rs::Mesh& mesh, const rs::Material& material);

} // namespace rs::render
