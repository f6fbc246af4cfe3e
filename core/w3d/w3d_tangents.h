// The per-vertex tangent frame of BFME's normal-mapped meshes (W3D chunks 0x60 tangents, 0x61 binormals), derived
// from the UVs for a mesh that stores none.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace rs::w3d {

// The convention of the frames BFME's tools write: tangent = -dP/dv, binormal = +dP/du, with (u, v) as rigscope
// stores W3D texture coordinates (the file's, OpenGL convention: v grows upwards on the texture). Per vertex the sum
// over the triangles that use it (weighted by their UV area), made perpendicular to the normal and unit length.
// A vertex whose triangles have no usable UVs (zero UV area, or none) gets a unit frame perpendicular to its
// normal. Indices at or past positions.size() are skipped; normals and uv must have positions.size() entries,
// else the outputs are empty.
void deriveTangentFrame(const std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& normals,
                        const std::vector<glm::vec2>& uv, const std::vector<uint32_t>& indices,
                        std::vector<glm::vec3>& tangents, std::vector<glm::vec3>& binormals);

} // namespace rs::w3d
