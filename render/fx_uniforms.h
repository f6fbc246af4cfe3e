// What a sub-mesh drawn by a game's .fx formula hands its program: the GLSL files (render/glsl/<program>.vert/.frag),
// the compile-time switches, the material's constants as uniform values (the .fx defaults where the file has none)
// and its texture slots. One function for both renderers: the desktop binds these as Qt3D parameters
// (render/mesh_materials.cpp, w3d_fx_materials.cpp), the web page as WebGL2 uniforms (web/page/engine.js, through
// the module's part JSON). GLM and core only (no Qt), so that the web module compiles it.
#pragma once

#include "formats/shader_registry.h"
#include "scene/model.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace rs::render {

// A texture slot's stand-in: none named, or named and not found.
enum class FxStandIn {
    White,      // 1, 1, 1, 1
    Clear,      // 0, 0, 0, 0: an optional layer absent
    FlatNormal, // 0.5, 0.5, 1, 1: an unperturbed normal (and the neutral distortion)
    Checker,    // the view's placeholder grey of a texture not found
};

struct FxTextureSlot {
    std::string uniform;   // sampler name in the GLSL
    std::string parameter; // the material parameter that names the texture
    std::string texture;   // the file it names ("" none)
    FxStandIn none = FxStandIn::White, missing = FxStandIn::Clear;
    bool base = false; // the base texture (Alamo: a missing one turns colorization off, see below)
};

struct FxUniform {
    std::string name;
    int components = 1; // 1..4 floats
    glm::vec4 value{0.0f};
};

// The fixed-function states a technique draws with (the .fx pass's AlphaBlendEnable/SrcBlend/DestBlend,
// ZWriteEnable, ZFunc, CullMode). The defaults are an opaque pass that writes depth and culls back faces when the
// material asks for it.
enum class FxBlend {
    None,
    Alpha,    // SRCALPHA / INVSRCALPHA
    Additive, // ONE / ONE
    Multiply, // DESTCOLOR / ZERO (MuzzleFlash.fx's Multiply_M)
};
enum class FxDepthTest { LessEqual, Greater };
struct FxStates {
    FxBlend blend = FxBlend::None;
    bool depthWrite = true;
    FxDepthTest depthTest = FxDepthTest::LessEqual;
    bool twoSided = false;    // CullMode NONE whatever the material says
    bool stencilOnce = false; // each pixel drawn once (stencil bit 0x40; MeshOccludedUnit)
    bool readsFrame = false;  // reads a copy of the frame, drawn after everything else (MeshHeat)
};

// The states of an Alamo implementation (defaults for anything else).
FxStates alamoStates(rs::ShaderImpl impl);

struct FxBinding {
    std::string program; // "alamo", "w3d_fx", "w3x_objects"; empty: no .fx program for this implementation
    std::vector<std::string> defines;
    std::vector<FxUniform> uniforms;
    std::vector<FxTextureSlot> textures;
    // Alamo: the formula doubles the base texture (texture x lighting x 2). A base texture named and not found is
    // then drawn with half the placeholder grey, and mMaskScale is 0 (the grey is no colorization mask).
    bool doublesBase = false;
    FxStates states; // render states (Alamo: alamoStates; the SAGE programs: the defaults)
};

// The define that picks an Alamo implementation in alamo.vert (null: not an Alamo .fx implementation).
const char* alamoDefine(rs::ShaderImpl impl);
// The binding of a material drawn by `impl` (Alamo .fx, NormalMapped.fx, C&C 3 Objects*.fx): the constants named
// by the material, the .fx defaults otherwise. FC_ meshes (mesh.colorize) with a Color take the player's colour
// (mColor.r < 0). An implementation without a program of its own gives an empty program. kanesWrath: the model is
// shown with Kane's Wrath mounted, whose Objects.fxh applies house colour by the spec map's self-illumination
// channel (C&C 3's compiled effects read RecolorTexture instead: docs/formats/w3d-fx-shaders.md).
FxBinding fxBinding(const rs::Mesh& mesh, const rs::Material& material, rs::ShaderImpl impl, bool kanesWrath = false);
// ObjectsGenericEnvMap.fx (SPECIFY_CUSTOM_ENVMAP): the name of the material's own cube map (its EnvironmentTexture,
// a DDS cube), which both renderers load through the resolver and bind as obEnvironmentCube with the ENV_CUBE define;
// empty for any other material, or one that names none (the ambient stand-in is then drawn, as "drawn by" says).
std::string envCubeTexture(const rs::Material& material, rs::ShaderImpl impl);

// --- W3D (ww3d2 material passes)
// -------------------------------------------------------------------------------------- What a sub-mesh drawn by
// ww3d2's fixed-function passes (render/glsl/w3d.vert/.frag) hands its program, computed once for both renderers: the
// desktop (render/w3d_materials.cpp, mesh_materials.cpp) binds these as Qt3D parameters and attributes, the page
// (web/page/engine.js) as WebGL2 uniforms and vertex arrays (part JSON "w3d").

// The vertex arrays the passes read: the (up to) two UV arrays the stages name (SubMesh::w3dUv indices, -1 none;
// attributes w3dUv0, w3dUv1) and one colour array (attribute w3dColor: the first DCG, the first DIG multiplied in,
// as ww3d2 keeps one array per mesh; empty when the sub-mesh has neither).
struct W3dVertexArrays {
    int uvSel[2] = {-1, -1};
    std::vector<glm::vec4> color;
};
W3dVertexArrays w3dVertexArrays(const rs::SubMesh& sm);

// One pass: the program switches (PRI, TEXTURING, DCOLOR, DALPHA, ALPHA_TEST, SEC_GRADIENT; programKey packs
// them), the vertex material and colour-source uniforms (w3d::colorRule), each stage's mapper packed as w3d.vert's
// mapStage reads it (wMapper, wMapA/B/C), the UV attribute it reads (wUvSel: 1 = w3dUv1), its textures, and the
// render states ShaderClass::Apply sets: blend factors (Generals' tables) and the depth compare and mask.
enum class W3dSrcFactor { Zero, One, SrcAlpha, DstColor };
enum class W3dDstFactor { Zero, One, SrcColor, OneMinusSrcColor, SrcAlpha, OneMinusSrcAlpha };
enum class W3dDepthFunc { Never, Less, Equal, LessEqual, Greater, NotEqual, GreaterEqual, Always };
struct W3dPassBinding {
    int programKey = 0;
    std::vector<std::string> defines;
    bool lighting = true, hasColor = false, diffuseFromColor = false, ambientFromColor = false;
    glm::vec4 colorScale{1.0f};
    glm::vec4 diffuse{1.0f}; // rgb diffuse, a opacity
    glm::vec3 ambient{1.0f}, specular{0.0f}, emissive{0.0f};
    float shininess = 1.0f;
    int mapper[2] = {0, 0};
    glm::vec4 mapA[2]{}, mapB[2]{}, mapC[2]{};
    int uvSel[2] = {0, 0};
    std::string textures[2]; // "" none (the white stand-in)
    bool blend = false;      // false: source one, destination zero (blending off)
    W3dSrcFactor src = W3dSrcFactor::One;
    W3dDstFactor dst = W3dDstFactor::Zero;
    W3dDepthFunc depthFunc = W3dDepthFunc::LessEqual;
    bool depthWrite = true;
};
// The program key of a pass's shader bits (PRI | TEXTURING << 3 | DCOLOR << 4 | DALPHA << 8 | ALPHA_TEST << 10 |
// SEC_GRADIENT << 11) and its #define lines' contents.
int w3dProgramKey(const rs::W3dShaderBits& b);
std::vector<std::string> w3dDefines(int programKey);
// The passes of sm (at most 4, in drawing order) with the UV arrays of w3dVertexArrays(sm).
std::vector<W3dPassBinding> w3dPassBindings(const rs::SubMesh& sm, const W3dVertexArrays& arrays);

} // namespace rs::render
