// The geometry ww3d2 draws for W3D spheres (0x741) and rings (0x742), and the sphere's alpha vector, as the released
// Renegade / Zero Hour sources build them (sphereobj.cpp: SphereMeshClass::Generate, Set_Alpha_Vector,
// AlphaVectorChannel::Evaluate; ringobj.cpp: RingMeshClass::Generate, Set_Tiling, Scale). Pure functions, no
// rendering: render/w3d_primitives draws them, the tests evaluate them on the CPU.
//
// Contract
// - sphereMesh(slices, stacks): the unit sphere of SphereMeshClass::Generate(1, slices, stacks): a north pole
//   (0, 0, 1) with UV (0.5, 0), `stacks` rings of slices + 1 vertices (the seam repeated) at polar angle
//   pi * (j + 1) / (stacks + 1) and azimuth 2 pi i / slices, position (sin a sin b, -sin a cos b, cos a) (Rz(b) Rx(a)
//   applied to +Z), UV (i / slices, (j + 1) / (stacks + 1)), then the south pole (0, 0, -1) with UV (0.5, 1).
//   Normals are the positions. Triangles: fans at the poles and two per quad between rings: slices * stacks * 2.
//   UVs are Direct3D's (v down the texture).
// - ringMesh(slices, tiles): RingMeshClass::Generate(1, slices) after Set_Tiling(tiles): slices + 1 pairs (inner at
//   even index, outer at odd) on the unit circle at angle 2 pi i / slices, direction (-sin, cos, 0); UV
//   (i * tiles / slices, 0) inner and (same, 1) outer; a strip of 2 * slices triangles. ringPoint() scales one.
// - kSphereSlices / kRingSlices: ww3d2's finest level of detail (SPHERE_HIGHEST_LOD steps: 14; RING_*: 28); the
//   engine picks coarser ones for small screen sizes, rigscope always draws the finest.
// - sphereVector(s, seconds): the alpha vector at a time: the definition's when the vector channel has no keys,
//   else the channel at the normalised time (sphereState's clock): quaternion slerped along the shorter arc
//   (Fast_Slerp), intensity linear, the last key's value from its time on.
// - alphaVectorValue(v, normal, inverse): Set_Alpha_Vector for one vertex: d = |rotate(v.angle, +X) . normal| *
//   v.intensity clamped to [0, 1]; 1 - d, or d when inverse. Non-finite input gives 1 (no falloff).
//   The value scales the vertex's colour for additive spheres (Set_DCG: rgb = value) and its alpha otherwise.
#pragma once

#include "w3d/w3d_reader.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace rs::w3d {

struct PrimitiveVertex {
    glm::vec3 position{0.0f}, normal{0.0f};
    glm::vec2 uv{0.0f};
};
struct PrimitiveMesh {
    std::vector<PrimitiveVertex> vertices;
    std::vector<uint16_t> indices; // triangles
};

constexpr int kSphereSlices = 14, kSphereStacks = 14, kRingSlices = 28;

PrimitiveMesh sphereMesh(int slices, int stacks);
PrimitiveMesh ringMesh(int slices, int tiles);
// A ring vertex (index into ringMesh's vertices) placed with the ring's radii: inner for even, outer for odd.
glm::vec2 ringPoint(const PrimitiveVertex& v, int index, const glm::vec2& innerRadius, const glm::vec2& outerRadius);

AlphaVector sphereVector(const Sphere& s, float seconds);
float alphaVectorValue(const AlphaVector& v, const glm::vec3& normal, bool inverse);

} // namespace rs::w3d
