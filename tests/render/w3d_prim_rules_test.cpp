// render/w3d_prim_rules.h, the vertex code the desktop and the web page share: keyframed scale and colour at a time,
// additive colour scaled by alpha, camera-aligned rings in the camera's right/up plane, the blend kinds.
#include "w3d_prim_rules.h"

#include <catch2/catch.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>

using rs::render::PrimVertex;

TEST_CASE("W3D primitive rules: sphere scale and additive colour at a time", "[render][w3d][fx]") {
    auto s = std::make_shared<rs::w3d::Sphere>();
    s->extent = {2, 2, 2};
    s->duration = 1.0f;
    s->shader.srcBlend = 1;
    s->shader.destBlend = 1;
    s->colorKeys = {{{1, 0, 0}, 0.0f}, {{0, 1, 0}, 1.0f}};
    s->alphaKeys = {{0.5f, 0.0f}, {0.5f, 1.0f}};
    s->scaleKeys = {{{1, 1, 1}, 0.0f}, {{3, 3, 3}, 1.0f}};
    rs::MarkerFx fx;
    fx.sphere = s;
    REQUIRE(rs::render::w3dPrimKind(s->shader) == 1);
    const glm::mat4 frame = glm::translate(glm::mat4(1.0f), glm::vec3(5, 0, 0));
    std::vector<PrimVertex> v;
    rs::render::w3dPrimTriangles(fx, nullptr, 1, 0.5, frame, glm::mat4(1.0f), v);
    REQUIRE(int(v.size()) == rs::render::w3dPrimVertexCount(fx));
    float far = 0.0f;
    for (const PrimVertex& x : v)
        far = std::max(far, glm::length(x.p - glm::vec3(5, 0, 0)));
    CHECK(far == Approx(4.0f).margin(1e-3));       // extent 2 * scale 2 at half-way
    CHECK(v[0].c.r == Approx(0.25f).margin(1e-3)); // colour (0.5, 0.5, 0) * alpha 0.5
    CHECK(v[0].c.g == Approx(0.25f).margin(1e-3));
    CHECK(v[0].c.a == Approx(1.0f));
    rs::render::w3dPrimTriangles(fx, nullptr, 1, std::nan(""), frame, glm::mat4(1.0f), v); // read as 0 s
    CHECK(v[0].c.r == Approx(0.5f).margin(1e-3));
}

TEST_CASE("W3D primitive rules: a camera-aligned ring lies in the camera's right/up plane", "[render][w3d][fx]") {
    auto r = std::make_shared<rs::w3d::Ring>();
    r->flags = 1;
    r->duration = 1.0f;
    r->alpha = 0.8f;
    r->shader.srcBlend = 2;
    r->shader.destBlend = 5;
    r->innerExtent = {0.5f, 0.5f};
    r->outerExtent = {1.0f, 1.0f};
    rs::MarkerFx fx;
    fx.ring = r;
    REQUIRE(rs::render::w3dPrimKind(r->shader) == 2);
    const rs::w3d::PrimitiveMesh mesh = rs::w3d::ringMesh(rs::w3d::kRingSlices, 1.0f);
    const glm::mat4 view = glm::lookAt(glm::vec3(3, 4, 5), glm::vec3(0), glm::vec3(0, 0, 1));
    const glm::vec3 back(view[0][2], view[1][2], view[2][2]);
    std::vector<PrimVertex> v;
    rs::render::w3dPrimTriangles(fx, &mesh, 2, 0.0, glm::mat4(1.0f), view, v);
    REQUIRE(int(v.size()) == rs::render::w3dPrimVertexCount(fx));
    float maxR = 0.0f;
    for (const PrimVertex& x : v) {
        CHECK(std::abs(glm::dot(x.p, back)) < 1e-4f); // in the plane facing the viewer
        maxR = std::max(maxR, glm::length(x.p));
    }
    CHECK(maxR == Approx(1.0f).margin(1e-3));
    CHECK(v[0].c.a == Approx(0.8f)); // alpha blended: alpha kept, colour not scaled
    // Not aligned: the bone's XY plane (z = 0), whatever the camera.
    r->flags = 0;
    rs::render::w3dPrimTriangles(fx, &mesh, 2, 0.0, glm::mat4(1.0f), view, v);
    for (const PrimVertex& x : v)
        CHECK(std::abs(x.p.z) < 1e-6f);
}
