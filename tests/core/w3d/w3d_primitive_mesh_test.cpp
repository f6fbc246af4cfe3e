// ww3d2's sphere and ring meshes and the sphere's alpha vector (w3d/w3d_primitive_mesh.h) against the formulas of
// sphereobj.cpp / ringobj.cpp written out again here; and refusals of truncated sphere/ring definitions naming the
// chunk path and offset.
#include "common/error.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_fx.h"
#include "w3d/w3d_primitive_mesh.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"

#include <catch2/catch.hpp>

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <cstring>
#include <set>

using namespace rs;
using namespace rs::w3d;

namespace {

constexpr double kPi = 3.14159265358979323846;

template <class Fn> std::string errorOf(Fn&& fn) {
    try {
        fn();
    } catch (const ParseError& e) {
        return e.what();
    }
    return {};
}

// Rz(b) * Rx(a) applied to +Z, written from the rotation matrices (Matrix3::Rotate_Z / Rotate_X post-multiply).
glm::dvec3 rotatedPole(double a, double b) {
    const glm::dvec3 x(0.0, -std::sin(a), std::cos(a)); // Rx(a) (0, 0, 1)
    return {std::cos(b) * x.x - std::sin(b) * x.y, std::sin(b) * x.x + std::cos(b) * x.y, x.z};
}

} // namespace

TEST_CASE("W3D sphere mesh: ww3d2's vertices, UVs and triangles", "[w3d][fx]") {
    const PrimitiveMesh m = sphereMesh(kSphereSlices, kSphereStacks);
    REQUIRE(m.vertices.size() == size_t(15 * 14 + 2));
    REQUIRE(m.indices.size() == size_t(14 * 14 * 2 * 3));
    CHECK(m.vertices.front().position == glm::vec3(0, 0, 1));
    CHECK(m.vertices.front().uv == glm::vec2(0.5f, 0.0f));
    CHECK(m.vertices.back().position == glm::vec3(0, 0, -1));
    CHECK(m.vertices.back().uv == glm::vec2(0.5f, 1.0f));
    for (int j : {0, 6, 13})
        for (int i : {0, 3, 14}) {
            INFO("stack " << j << " slice " << i);
            const PrimitiveVertex& v = m.vertices[size_t(1 + j * 15 + i)];
            const double a = kPi * (j + 1) / 15.0, b = 2.0 * kPi * i / 14.0;
            const glm::dvec3 p = rotatedPole(a, b);
            CHECK(v.position.x == Approx(p.x).margin(1e-5));
            CHECK(v.position.y == Approx(p.y).margin(1e-5));
            CHECK(v.position.z == Approx(p.z).margin(1e-5));
            CHECK(v.normal == v.position);
            CHECK(v.uv.x == Approx(i / 14.0));
            CHECK(v.uv.y == Approx((j + 1) / 15.0));
        }
    // Every triangle has three distinct vertices, and every vertex is used.
    std::set<uint16_t> used;
    for (size_t t = 0; t < m.indices.size(); t += 3) {
        CHECK(m.indices[t] != m.indices[t + 1]);
        CHECK(m.indices[t + 1] != m.indices[t + 2]);
        used.insert({m.indices[t], m.indices[t + 1], m.indices[t + 2]});
    }
    CHECK(used.size() == m.vertices.size());
}

TEST_CASE("W3D ring mesh: ww3d2's strip with the texture tiling", "[w3d][fx]") {
    const PrimitiveMesh m = ringMesh(kRingSlices, 3);
    REQUIRE(m.vertices.size() == size_t(2 * 28 + 2));
    REQUIRE(m.indices.size() == size_t(2 * 28 * 3));
    for (int i : {0, 1, 7, 28}) {
        INFO("slice " << i);
        const double ang = 2.0 * kPi * i / 28.0;
        for (int k : {0, 1}) {
            const PrimitiveVertex& v = m.vertices[size_t(2 * i + k)];
            CHECK(v.position.x == Approx(-std::sin(ang)).margin(1e-5));
            CHECK(v.position.y == Approx(std::cos(ang)).margin(1e-5));
            CHECK(v.uv.x == Approx(3.0 * i / 28.0));
            CHECK(v.uv.y == float(k)); // inner 0, outer 1
        }
    }
    // Placed: inner vertices at the inner radii, outer at the outer ones.
    const glm::vec2 in = ringPoint(m.vertices[14], 14, {1, 2}, {3, 4});
    const glm::vec2 out = ringPoint(m.vertices[15], 15, {1, 2}, {3, 4});
    CHECK(in.x == Approx(-std::sin(2.0 * kPi * 7 / 28.0) * 1.0).margin(1e-5));
    CHECK(in.y == Approx(std::cos(2.0 * kPi * 7 / 28.0) * 2.0).margin(1e-5));
    CHECK(out.x == Approx(-std::sin(2.0 * kPi * 7 / 28.0) * 3.0).margin(1e-5));
    // Tiling 0 (as read): every u is 0.
    const PrimitiveMesh z = ringMesh(kRingSlices, 0);
    for (const PrimitiveVertex& v : z.vertices)
        CHECK(v.uv.x == 0.0f);
}

TEST_CASE("W3D sphere alpha vector: Set_Alpha_Vector per vertex, the vector channel over time", "[w3d][fx]") {
    AlphaVector v; // identity: the vector is +X
    v.intensity = 0.8f;
    // Facing the vector: 1 - 0.8; across it: 1; at 60 degrees: 1 - 0.5 * 0.8; inverse: the complement.
    CHECK(alphaVectorValue(v, {1, 0, 0}, false) == Approx(0.2));
    CHECK(alphaVectorValue(v, {-1, 0, 0}, false) == Approx(0.2)); // |dot|
    CHECK(alphaVectorValue(v, {0, 1, 0}, false) == Approx(1.0));
    CHECK(alphaVectorValue(v, {0.5f, std::sqrt(0.75f), 0}, false) == Approx(0.6));
    CHECK(alphaVectorValue(v, {1, 0, 0}, true) == Approx(0.8));
    CHECK(alphaVectorValue(v, {0, 0, 1}, true) == Approx(0.0));
    v.intensity = 3.0f; // clamped at 1
    CHECK(alphaVectorValue(v, {1, 0, 0}, false) == Approx(0.0));
    // Rotated 90 degrees about Z: the vector is +Y.
    v.intensity = 1.0f;
    v.angle = glm::angleAxis(float(kPi / 2), glm::vec3(0, 0, 1));
    CHECK(alphaVectorValue(v, {0, 1, 0}, false) == Approx(0.0).margin(1e-6));
    CHECK(alphaVectorValue(v, {1, 0, 0}, false) == Approx(1.0).margin(1e-6));
    // Hostile values: no falloff.
    v.intensity = std::nanf("");
    CHECK(alphaVectorValue(v, {1, 0, 0}, false) == 1.0f);

    // Channel: 0 turns at time 0 (intensity 0.2), a quarter turn about Z at time 1 (intensity 1), duration 2 s.
    Sphere s;
    s.duration = 2.0f;
    s.flags = 1;
    AlphaVector k0, k1;
    k0.intensity = 0.2f;
    k1.angle = glm::angleAxis(float(kPi / 2), glm::vec3(0, 0, 1));
    k1.intensity = 1.0f;
    s.vectorKeys = {{k0, 0.0f}, {k1, 1.0f}};
    for (float sec : {0.0f, 0.5f, 1.0f, 1.5f, 3.0f}) {
        INFO(sec << " s");
        const double t = std::min(1.0, sec / 2.0);
        const AlphaVector a = sphereVector(s, sec);
        CHECK(a.intensity == Approx(0.2 + 0.8 * t));
        const glm::vec3 dir = a.angle * glm::vec3(1, 0, 0);
        CHECK(dir.x == Approx(std::cos(t * kPi / 2)).margin(1e-5)); // slerp: the angle grows linearly
        CHECK(dir.y == Approx(std::sin(t * kPi / 2)).margin(1e-5));
    }
    // No keys: the definition's vector.
    Sphere d;
    d.vector.intensity = 0.4f;
    CHECK(sphereVector(d, 5.0f).intensity == 0.4f);
}

TEST_CASE("W3D sphere/ring definitions cut short are refused with the chunk path and offset", "[w3d][fx]") {
    // A sphere definition chunk ending 10 bytes into its 32-byte texture name.
    ChunkWriter cw;
    cw.begin(id::Sphere);
    cw.begin(fxid::PrimitiveDefinition);
    cw.w.u32le(0x10000);
    cw.w.u32le(1);
    cw.w.fixedString("U.S", 32);
    for (int i = 0; i < 19; ++i)
        cw.w.f32le(1.0f); // center .. vector (19 floats)
    for (int i = 0; i < 10; ++i)
        cw.w.u8('t');
    cw.end();
    cw.end();
    const std::vector<uint8_t> sb = cw.take();
    std::string msg = errorOf([&] { readFile(ByteSpan(sb), "s.w3d"); });
    INFO(msg);
    CHECK(msg.find("s.w3d") != std::string::npos);
    CHECK(msg.find("chunk 0x741/0x1 at offset 132") != std::string::npos); // 16 (headers) + 116 (before the name)
    CHECK(msg.find("need 32 bytes, 10 left") != std::string::npos);

    // A ring definition without its texture tile count (164 of 168 bytes).
    Ring r;
    r.name = "U.R";
    r.texture = "ring.tga";
    ChunkWriter rw;
    writeRing(rw, r);
    std::vector<uint8_t> rb = rw.take();
    // Sizes: the ring chunk at 0, its definition at 8 (168 bytes): cut 4 bytes off both.
    uint32_t outer, inner;
    std::memcpy(&outer, &rb[4], 4);
    std::memcpy(&inner, &rb[12], 4);
    REQUIRE((inner & 0x7FFFFFFFu) == 168u);
    outer = ((outer & 0x7FFFFFFFu) - 4) | (outer & 0x80000000u);
    inner -= 4;
    std::memcpy(&rb[4], &outer, 4);
    std::memcpy(&rb[12], &inner, 4);
    rb.erase(rb.begin() + 16 + 164, rb.begin() + 16 + 168);
    msg = errorOf([&] { readFile(ByteSpan(rb), "r.w3d"); });
    INFO(msg);
    CHECK(msg.find("r.w3d") != std::string::npos);
    CHECK(msg.find("chunk 0x742/0x1 at offset 180") != std::string::npos); // 16 + 164: the tile count
    CHECK(msg.find("need 4 bytes, 0 left") != std::string::npos);
}
