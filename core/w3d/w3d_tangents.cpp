#include "w3d/w3d_tangents.h"

#include <cmath>

namespace rs::w3d {

namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Unit vector perpendicular to n (n unit or zero), closest to `want` when that is not parallel to n.
glm::vec3 perpendicular(const glm::vec3& n, const glm::vec3& want) {
    glm::vec3 p = want - n * glm::dot(n, want);
    float l = glm::length(p);
    if (l > 1e-6f && finite(p)) return p / l;
    const glm::vec3 axis = std::abs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    p = axis - n * glm::dot(n, axis);
    l = glm::length(p);
    return l > 1e-6f ? p / l : glm::vec3(1, 0, 0);
}

} // namespace

void deriveTangentFrame(const std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& normals,
                        const std::vector<glm::vec2>& uv, const std::vector<uint32_t>& indices,
                        std::vector<glm::vec3>& tangents, std::vector<glm::vec3>& binormals) {
    tangents.clear();
    binormals.clear();
    const size_t n = positions.size();
    if (normals.size() != n || uv.size() != n) return;
    std::vector<glm::vec3> dPdu(n, glm::vec3(0.0f)), dPdv(n, glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
        const uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
        if (a >= n || b >= n || c >= n) continue;
        const glm::vec3 e1 = positions[b] - positions[a], e2 = positions[c] - positions[a];
        const glm::vec2 d1 = uv[b] - uv[a], d2 = uv[c] - uv[a];
        const float det = d1.x * d2.y - d2.x * d1.y;
        if (!(std::abs(det) > 1e-12f)) continue; // no UV area (or NaN): says nothing about the directions
        // [e1 e2] = [dP/du dP/dv] [d1 d2]; weighting by |det| (the UV area) = the inverse times |det|.
        const float s = det > 0.0f ? 1.0f : -1.0f;
        const glm::vec3 du = s * (e1 * d2.y - e2 * d1.y), dv = s * (e2 * d1.x - e1 * d2.x);
        if (!finite(du) || !finite(dv)) continue;
        for (uint32_t v : {a, b, c}) {
            dPdu[v] += du;
            dPdv[v] += dv;
        }
    }
    tangents.resize(n);
    binormals.resize(n);
    for (size_t v = 0; v < n; ++v) {
        glm::vec3 nn = normals[v];
        const float l = glm::length(nn);
        nn = l > 1e-6f && finite(nn) ? nn / l : glm::vec3(0, 0, 1);
        binormals[v] = perpendicular(nn, dPdu[v]);
        const glm::vec3 t = perpendicular(nn, -dPdv[v]);
        // With no UV directions at all, keep the pair perpendicular to each other too.
        tangents[v] = glm::length(dPdv[v]) > 1e-12f ? t : glm::normalize(glm::cross(binormals[v], nn));
    }
}

} // namespace rs::w3d
