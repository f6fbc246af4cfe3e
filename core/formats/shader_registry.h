// Which implementation draws a sub-mesh, and how faithful it is to the game. One table for the render layer (which
// program it builds), the material inspector and `rigscope-cli info --json` (what they report).
//
// Alamo: the shader name (case-insensitive, ".fx"/".fxo" dropped, "RSkin" = the skinned variant of "Mesh") picks
// the implementation of that .fx file's formula (the public FoC shader sources, Data/Shaders/*.fx). W3D materials
// with ww3d2 passes are drawn by the W3D program (every pass, ww3d2's shader state, lighting and mappers); BFME
// shader materials named NormalMapped.fx by its formula (render/glsl/w3d_fx.vert), C&C 3's ObjectsGDI/NOD/Generic/
// Alien.fx by Objects.fxh's (render/glsl/w3x_objects.vert), Infantry/Tree/DefaultW3D.fx by BasicW3D.fxh's and
// DefaultW3D.fxh's (render/glsl/w3x_basic.vert), AlienShield/MuzzleFlash/DistortingObject/ShieldDistortion.fx by
// their own (render/glsl/w3x_effects.vert); other shader materials and B&W2 materials by the generic lit
// program. An enumerator that shaderInfo never returns is drawn by the generic program.
#pragma once

#include "common/format_id.h"

#include <string>
#include <vector>

namespace rs {

struct Mesh;
struct Material;

// Implementations of the render layer (render/mesh_materials.cpp builds one program per value it draws).
enum class ShaderImpl {
    Generic, // the generic lit program (W3D, B&W2, unknown Alamo shaders)
    AlamoBumpColorize,
    AlamoGloss,
    AlamoGlossColorize,
    AlamoAlpha,
    AlamoAdditive,
    AlamoShield,
    AlamoSkydome,
    AlamoPlanet,
    AlamoDefault,
    AlamoBumpReflectColorize,
    AlamoAlphaGloss,
    AlamoAdditiveVColor,
    AlamoAdditiveOffset,
    AlamoSolidColor,
    AlamoAlphaScroll,
    AlamoHeat,
    AlamoTerrainBump,
    AlamoTerrainGloss,
    AlamoNebula,
    AlamoTree,
    AlamoGrass,
    AlamoOccludedUnit,
    W3d,               // ww3d2's passes: shader state, vertex material lighting, stages and mappers
    W3dNormalMapped,   // BFME shader material NormalMapped.fx: per-pixel dot3 in the file's tangent frame
    W3xObjectsGdi,     // C&C 3 ObjectsGDI.fx (Objects.fxh: GDI constants, spec map, house colour texture)
    W3xObjectsNod,     // C&C 3 ObjectsNOD.fx (Objects.fxh: NOD constants, spec map, scrolling house colour)
    W3xObjectsGeneric, // C&C 3 ObjectsGeneric.fx (Objects.fxh: the file's constants, spec map)
    W3xObjectsAlien,   // C&C 3 ObjectsAlien.fx (Objects.fxh OBJECTS_ALIEN: alien constants, scrolled reflection, pulse)
    W3xInfantry,       // C&C 3 Infantry.fx (BasicW3D.fxh with house colour: per-vertex lights, one texture)
    W3xTree,           // C&C 3 Tree.fx (BasicW3D.fxh with the tree sway)
    W3xDefaultW3d,     // C&C 3 DefaultW3D.fx / DefaultW3DNoFogNoCloud.fx (DefaultW3D.fxh)
    W3xTiberium,       // C&C 3 Tiberium.fx
    W3xAlienShield,    // C&C 3 AlienShield.fx (unlit, additive: house tint, edge falloff, two scrolled samples)
    W3xMuzzleFlash,    // C&C 3 MuzzleFlash.fx (unlit, additive: two counter-rotated samples)
    W3xDistortingObject, // C&C 3 DistortingObject.fx (moves the frame behind by the normal map)
    W3xShieldDistortion, // C&C 3 ShieldDistortion.fx (the same with the edge falloff)
    Hidden,              // shadow volumes, collision and light-visualize meshes: not drawn by the game
};

enum class ShaderFidelity { EngineFormula, Approximation, NotDrawn };

struct ShaderInfo {
    ShaderImpl impl = ShaderImpl::Generic;
    ShaderFidelity fidelity = ShaderFidelity::Approximation;
    std::string implementation;  // what draws it, e.g. "MeshBumpColorize (sph_t2)", "generic lit"
    std::string note;            // for approximations: what differs; for not drawn: why
    bool skinnedVariant = false; // RSkin* name
};

// The implementation for a sub-mesh material of `mesh` read from a file of format `format`.
ShaderInfo shaderInfo(Format format, const Mesh& mesh, const Material& material);
// Same, from the shader name alone (the mesh's shadow/collision flag not considered).
ShaderInfo alamoShaderInfo(const std::string& shaderName);
// Every Alamo shader name alamoShaderInfo knows (with ".fx"; both the Mesh and the RSkin spelling where the RSkin
// variant is drawn by the same implementation), drawn or hidden. Kept beside alamoShaderInfo's table: a name added
// there belongs here (tests iterate this list: every drawn name has a pixel test).
const std::vector<std::string>& alamoShaderNames();
// True for a shader the games ship (case-insensitive, any of .fx/.fxo/.fxh or none): every name alamoShaderInfo
// draws by an implementation of its own or hides, and the other shaders of the Blender ALAMO plugin's list
// (settings.py material_parameter_dict: MeshBumpColorizeVertex, MeshBumpColorizeDetail, MeshBumpLight, LightProxy).
// A model naming one needs no .fx of its own (model.shader-unknown).
bool isStockAlamoShader(const std::string& shaderName);
// W3D: the passes of a material (Material::w3dPasses) with what of them is approximated; a BFME shader material
// ("w3d:fx:<name>") by its .fx name. Neither: generic. (shaderInfo adds what depends on the mesh: a NormalMapped.fx
// sub-mesh without a stored tangent frame is an approximation.)
ShaderInfo w3dShaderInfo(const Material& material);

// "engine formula", "approximation", "not drawn".
const char* fidelityName(ShaderFidelity f);
// "engine formula", "approximation: <note>", "not drawn: <note>".
std::string fidelityText(const ShaderInfo& info);

} // namespace rs
