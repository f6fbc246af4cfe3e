#include "w3d/w3d_primitive_mesh.h"

#include "w3d/w3d_fx.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>

namespace rs::w3d {

namespace {
constexpr float kPi = 3.14159265358979f;

bool finiteQuat(const glm::quat& q) {
    return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}
} // namespace

PrimitiveMesh sphereMesh(int slices, int stacks) {
    slices = std::clamp(slices, 3, 64);
    stacks = std::clamp(stacks, 1, 64);
    PrimitiveMesh m;
    m.vertices.reserve(size_t((slices + 1) * stacks + 2));
    m.vertices.push_back({{0, 0, 1}, {0, 0, 1}, {0.5f, 0.0f}});
    for (int j = 0; j < stacks; ++j) {
        const float vs = float(j + 1) / float(stacks + 1);
        const float a = kPi * vs;
        for (int i = 0; i <= slices; ++i) {
            const float us = float(i) / float(slices);
            const float b = 2.0f * kPi * us;
            const glm::vec3 p(std::sin(a) * std::sin(b), -std::sin(a) * std::cos(b), std::cos(a));
            m.vertices.push_back({p, p, {us, vs}});
        }
    }
    m.vertices.push_back({{0, 0, -1}, {0, 0, -1}, {0.5f, 1.0f}});
    const int row = slices + 1;
    auto at = [&](int j, int i) { return uint16_t(1 + j * row + i); };
    for (int i = 0; i < slices; ++i) // north fan
        m.indices.insert(m.indices.end(), {uint16_t(0), at(0, i), at(0, i + 1)});
    for (int j = 0; j + 1 < stacks; ++j)
        for (int i = 0; i < slices; ++i)
            m.indices.insert(m.indices.end(),
                             {at(j, i), at(j + 1, i), at(j, i + 1), at(j, i + 1), at(j + 1, i), at(j + 1, i + 1)});
    const uint16_t south = uint16_t(m.vertices.size() - 1);
    for (int i = 0; i < slices; ++i) // south fan
        m.indices.insert(m.indices.end(), {south, at(stacks - 1, i + 1), at(stacks - 1, i)});
    return m;
}

PrimitiveMesh ringMesh(int slices, int tiles) {
    slices = std::clamp(slices, 3, 256);
    PrimitiveMesh m;
    m.vertices.reserve(size_t(2 * slices + 2));
    const float uInc = float(tiles) / float(slices);
    for (int i = 0; i <= slices; ++i) {
        const float ang = 2.0f * kPi * float(i) / float(slices);
        const glm::vec3 d(-std::sin(ang), std::cos(ang), 0.0f);
        const float u = uInc * float(i);
        m.vertices.push_back({d, {0, 0, 1}, {u, 0.0f}});
        m.vertices.push_back({d, {0, 0, 1}, {u, 1.0f}});
    }
    for (int f = 0; f < 2 * slices; ++f)
        m.indices.insert(m.indices.end(), {uint16_t(f), uint16_t(f + 1), uint16_t(f + 2)});
    return m;
}

glm::vec2 ringPoint(const PrimitiveVertex& v, int index, const glm::vec2& innerRadius, const glm::vec2& outerRadius) {
    const glm::vec2 r = (index % 2 == 0) ? innerRadius : outerRadius;
    return glm::vec2(v.position.x * r.x, v.position.y * r.y);
}

AlphaVector sphereVector(const Sphere& s, float seconds) {
    const std::vector<PrimitiveKey<AlphaVector>>& k = s.vectorKeys;
    if (k.empty()) return s.vector;
    const float t = primitiveTime(seconds, s.duration, (s.flags & 8u) != 0);
    const KeySpan<AlphaVector> span = findKeySpan(k, t);
    const AlphaVector& a = span.a->value;
    const AlphaVector& b = span.b->value;
    if (span.held) return a;
    AlphaVector out = a;
    out.intensity = a.intensity + (b.intensity - a.intensity) * span.p;
    if (finiteQuat(a.angle) && finiteQuat(b.angle) && std::isfinite(span.p))
        out.angle = glm::slerp(a.angle, b.angle, span.p); // glm takes the shorter arc, as Fast_Slerp does
    return out;
}

float alphaVectorValue(const AlphaVector& v, const glm::vec3& normal, bool inverse) {
    if (!finiteQuat(v.angle) || !std::isfinite(v.intensity)) return 1.0f;
    const glm::vec3 dir = v.angle * glm::vec3(1.0f, 0.0f, 0.0f);
    float d = std::abs(glm::dot(dir, normal)) * v.intensity;
    if (!std::isfinite(d)) return 1.0f;
    d = std::min(d, 1.0f);
    // A negative intensity (the engine asserts >= 0) leaves d below 0: clamp it as the colour conversion would.
    d = std::max(d, 0.0f);
    return inverse ? d : 1.0f - d;
}

} // namespace rs::w3d
