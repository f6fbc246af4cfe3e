#include "w3d_prim_rules.h"

#include <algorithm>
#include <cmath>

namespace rs::render {

namespace {
bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
} // namespace

// w3d_file.h: src ZERO 0, ONE 1, SRC_ALPHA 2, ONE_MINUS_SRC_ALPHA 3; dst ZERO 0, ONE 1, SRC_COLOR 2,
// ONE_MINUS_SRC_COLOR 3, SRC_ALPHA 4, ONE_MINUS_SRC_ALPHA 5.
int w3dPrimKind(const rs::w3d::Shader& s) {
    if (s.destBlend == 1) return 1;
    if (s.destBlend == 5) return 2;
    if (s.destBlend == 2 && s.srcBlend == 0) return 3;
    return 0;
}

int w3dPrimPri(const rs::w3d::Shader& s) { return s.priGradient == 0 || s.priGradient == 2 ? s.priGradient : 1; }

const rs::w3d::PrimitiveMesh& w3dUnitSphere() {
    static const rs::w3d::PrimitiveMesh m = rs::w3d::sphereMesh(rs::w3d::kSphereSlices, rs::w3d::kSphereStacks);
    return m;
}

int w3dPrimVertexCount(const rs::MarkerFx& fx) {
    if (fx.sphere) return int(w3dUnitSphere().indices.size());
    return fx.ring ? rs::w3d::kRingSlices * 2 * 3 : 0;
}

void w3dPrimTriangles(const rs::MarkerFx& fx, const rs::w3d::PrimitiveMesh* ringMesh, int kind, double seconds,
                      const glm::mat4& frame, const glm::mat4& view, std::vector<PrimVertex>& out) {
    out.clear();
    if (!fx.sphere && !(fx.ring && ringMesh)) return;
    // The camera's axes in the world (rows of the view rotation): right, up and back (towards the viewer).
    const glm::vec3 right(view[0][0], view[1][0], view[2][0]), up(view[0][1], view[1][1], view[2][1]),
        back(view[0][2], view[1][2], view[2][2]);
    const float t = std::isfinite(seconds) ? float(seconds) : 0.0f;
    const rs::w3d::PrimitiveState st =
        fx.sphere ? rs::w3d::sphereState(*fx.sphere, t) : rs::w3d::ringState(*fx.ring, t);
    // ww3d2's colour: additive: emissive = alpha * colour; others: emissive = colour, opacity = alpha.
    const float a = std::clamp(std::isfinite(st.alpha) ? st.alpha : 1.0f, 0.0f, 1.0f);
    glm::vec3 rgb = glm::clamp(finite(st.color) ? st.color : glm::vec3(1.0f), 0.0f, 1.0f);
    if (kind == 1) rgb *= a;
    const glm::vec4 c(rgb, kind == 1 ? 1.0f : a);
    const glm::vec3 o(frame[3]);
    if (fx.sphere) {
        const rs::w3d::Sphere& s = *fx.sphere;
        const rs::w3d::PrimitiveMesh& mesh = w3dUnitSphere();
        const glm::vec3 r = s.extent * st.scale;
        const bool useVector = (s.flags & 1u) != 0, inverse = (s.flags & 4u) != 0, aligned = (s.flags & 2u) != 0;
        const rs::w3d::AlphaVector av = rs::w3d::sphereVector(s, t);
        out.reserve(mesh.indices.size());
        for (uint16_t idx : mesh.indices) {
            const rs::w3d::PrimitiveVertex& pv = mesh.vertices[idx];
            const glm::vec3 q = pv.position * r;
            const glm::vec3 p =
                aligned ? o + back * q.x + right * q.y + up * q.z : glm::vec3(frame * glm::vec4(q, 1.0f));
            glm::vec4 col = c;
            if (useVector) {
                const float f = rs::w3d::alphaVectorValue(av, pv.normal, inverse);
                if (kind == 1)
                    col = glm::vec4(glm::vec3(col) * f, col.a);
                else
                    col.a *= f;
            }
            out.push_back({p, col, pv.uv});
        }
    } else {
        const rs::w3d::Ring& g = *fx.ring;
        glm::vec3 ax(frame[0]), ay(frame[1]);
        if (g.flags & 1u) { // camera aligned: the camera's right/up plane, the bone's scale kept
            ax = right * glm::length(glm::vec3(frame[0]));
            ay = up * glm::length(glm::vec3(frame[1]));
        }
        out.reserve(ringMesh->indices.size());
        for (uint16_t idx : ringMesh->indices) {
            const rs::w3d::PrimitiveVertex& pv = ringMesh->vertices[idx];
            const glm::vec2 xy = rs::w3d::ringPoint(pv, idx, st.innerRadius, st.outerRadius);
            out.push_back({o + ax * xy.x + ay * xy.y, c, pv.uv});
        }
    }
    for (PrimVertex& x : out) {
        if (!finite(x.p)) x.p = glm::vec3(0.0f); // a hostile key collapses its triangles, nothing else
        if (!std::isfinite(x.uv.x) || !std::isfinite(x.uv.y)) x.uv = glm::vec2(0.0f);
    }
}

} // namespace rs::render
