// What a W3D sphere (0x741) or ring (0x742) draws at a time (GLM only, no Qt): the keyframed scale, colour and alpha,
// ww3d2's mesh (core/w3d/w3d_primitive_mesh.h) placed on its bone or aligned with the camera, and the draw kind of
// its shader. Shared by the desktop (render/w3d_primitives.cpp) and the web page (web/src/rigscope_web.cpp); the
// rules themselves are described in render/w3d_primitives.h.
#pragma once

#include "scene/model.h"
#include "w3d/w3d_fx.h"
#include "w3d/w3d_primitive_mesh.h"

#include <glm/glm.hpp>

#include <vector>

namespace rs::render {

// One vertex of glsl/w3d_prim.vert: world position, colour (ww3d2's emissive colour and opacity), UV (Direct3D's).
struct PrimVertex {
    glm::vec3 p{0.0f};
    glm::vec4 c{1.0f};
    glm::vec2 uv{0.0f};
};

// The draw kind of a W3D shader's blend (glsl/w3d_prim.* BLEND_KIND): 1 additive (dst ONE), 2 alpha (dst
// ONE_MINUS_SRC_ALPHA), 3 modulate (src ZERO, dst SRC_COLOR), else 0 opaque.
int w3dPrimKind(const rs::w3d::Shader& s);
// The shader's primary gradient as glsl/w3d_prim.frag's PRI: 0 texture only, 2 add, 1 modulate (anything else).
int w3dPrimPri(const rs::w3d::Shader& s);

// ww3d2's unit sphere at its finest level of detail, made once.
const rs::w3d::PrimitiveMesh& w3dUnitSphere();

// Triangle-list vertices of the primitive (fx->sphere or fx->ring) drawn: sphere: w3dUnitSphere's index count; ring:
// kRingSlices * 6.
int w3dPrimVertexCount(const rs::MarkerFx& fx);

// The primitive's triangles (a list, w3dPrimVertexCount of them) at `seconds` into out (replaced): frame is the
// marker's world matrix (its bone's world times the marker transform), view the camera's world-to-view matrix
// (camera-aligned primitives use its axes), ringMesh the ring's mesh for its texture tiling (ignored for spheres),
// kind its w3dPrimKind. Non-finite keys collapse to the origin (positions) or 0 (UVs); non-finite seconds read as 0.
void w3dPrimTriangles(const rs::MarkerFx& fx, const rs::w3d::PrimitiveMesh* ringMesh, int kind, double seconds,
                      const glm::mat4& frame, const glm::mat4& view, std::vector<PrimVertex>& out);

} // namespace rs::render
