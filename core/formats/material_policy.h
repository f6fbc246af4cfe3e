// How a material is drawn and exported: one decision shared by render/ and export/ (render adds the engine's shader
// programs on top; export maps the same policy to glTF's material model).
#pragma once

#include "common/format_id.h"

#include <string>

namespace rs {

struct Mesh;
struct Material;

enum class MaterialFamily { Opaque, Alpha, Additive };

struct MaterialPolicy {
    MaterialFamily family = MaterialFamily::Opaque;
    bool hiddenByDefault = false;   // shadow-volume, collision, light-visualize: not drawn, not exported (as in game)
    bool cullBackFaces = false;     // the engine culls this mesh's back faces (glTF: doubleSided = !cullBackFaces)
    bool unlit = false;             // additive and skydome shaders take no lighting
    bool colorize = false;          // faction colour through the base texture's alpha: mix(rgb, colour * rgb, a)
    bool factionColorParam = false; // FC_ mesh: the "Color" parameter takes the faction colour
    bool bump = false;              // tangent-space normal map from NormalTexture
    int glossSource = 0;            // specular mask: 0 none, 1 base alpha, 2 normal-map alpha
    bool skinnedShader = false;     // RSkin* shader
};

// The policy for sub-mesh material `material` of `mesh`, read from a file of format `format`.
MaterialPolicy materialPolicy(Format format, const Mesh& mesh, const Material& material);

// Texture slots by parameter name (case-insensitive): the base colour, the normal map, a glow/emissive map.
bool isBaseTextureParam(const std::string& name);
bool isNormalTextureParam(const std::string& name);
bool isEmissiveTextureParam(const std::string& name);

} // namespace rs
