// OrbitCamera (render/orbit_camera.h): the turntable camera's math, without a window: orbit, pitch clamp, no roll,
// pan and zoom keeping the point under the cursor, centring on a point, the ray cast, and the framing's fit.
#include "camera_capture.h"
#include "orbit_camera.h"

#include <catch2/catch.hpp>

#include <cmath>

using rs::render::OrbitCamera;

namespace {

constexpr float kW = 800.0f, kH = 600.0f;

OrbitCamera camera(bool zUp = true) {
    OrbitCamera c;
    c.zUp = zUp;
    c.target = {1.0f, -2.0f, 0.5f};
    c.distance = 10.0f;
    c.yaw = 35.0f;
    c.pitch = 20.0f;
    c.sceneCentre = c.target;
    c.sceneRadius = 3.0f;
    return c;
}

// The world point at the target's depth drawn at window pixel (x, y).
glm::vec3 pointUnder(const OrbitCamera& c, float x, float y) {
    glm::vec3 o, d;
    c.ray(OrbitCamera::toNdc(x, y, kW, kH), kW / kH, o, d);
    const glm::vec3 forward = glm::normalize(c.target - c.position());
    const float t = glm::dot(c.target - o, forward) / glm::dot(d, forward);
    return o + d * t;
}

glm::vec2 pixelOf(const OrbitCamera& c, const glm::vec3& p) {
    glm::vec2 px(-1e9f);
    REQUIRE(c.project(p, kW, kH, px));
    return px;
}

// The camera's x axis (first row of the view matrix) along the world's up axis: 0 when the horizon is level.
float roll(const OrbitCamera& c) {
    const glm::mat4 v = c.viewMatrix();
    const glm::vec3 cameraX(v[0][0], v[1][0], v[2][0]);
    return glm::dot(cameraX, c.worldUp());
}

} // namespace

TEST_CASE("orbit camera: a drag turns yaw and pitch about the target, the model following the mouse") {
    for (const bool zUp : {true, false}) {
        OrbitCamera c = camera(zUp);
        const glm::vec3 target = c.target;
        // A point on the near side of the model, at the centre of the window.
        const glm::vec3 near = target + c.offsetDirection() * 2.0f;
        const glm::vec2 before = pixelOf(c, near);
        CHECK(before.x == Approx(kW / 2).margin(0.01));
        c.orbit(100.0f, 0.0f); // 100 px to the right
        // Yaw turns clockwise seen from above with Z up, counter-clockwise with Y up (CameraFraming's convention).
        CHECK(c.yaw == Approx(35.0f + (zUp ? 100.0f : -100.0f) * OrbitCamera::kDegreesPerPixel));
        CHECK(c.pitch == Approx(20.0f));
        CHECK(c.target == target);
        CHECK(c.distance == Approx(10.0f));
        CHECK(pixelOf(c, near).x > before.x + 20.0f);               // the near side moved right with the mouse
        CHECK(pixelOf(c, target).x == Approx(kW / 2).margin(0.01)); // the target stays in the centre
        c.orbit(0.0f, 50.0f);                                       // down: more of the top shows
        CHECK(c.pitch == Approx(20.0f + 50.0f * OrbitCamera::kDegreesPerPixel));
        CHECK(glm::dot(c.offsetDirection(), c.worldUp()) == Approx(std::sin(glm::radians(c.pitch))));
        CHECK(std::abs(roll(c)) < 1e-5f);
    }
}

TEST_CASE("orbit camera: pitch stops short of the poles and the horizon never rolls") {
    OrbitCamera c = camera();
    c.orbit(0.0f, 5000.0f);
    CHECK(c.pitch == Approx(OrbitCamera::kMaxPitch));
    CHECK(c.pitch < 90.0f);
    CHECK(std::abs(roll(c)) < 1e-5f);
    const glm::vec3 r = c.right();
    CHECK(std::isfinite(r.x));
    CHECK(glm::length(r) == Approx(1.0f));
    c.orbit(-3000.0f, -20000.0f);
    CHECK(c.pitch == Approx(-OrbitCamera::kMaxPitch));
    CHECK(std::abs(roll(c)) < 1e-5f);
    CHECK(c.yaw >= -180.0f);
    CHECK(c.yaw <= 180.0f);
    // Many small steps add up the same as one.
    OrbitCamera a = camera(), b = camera();
    for (int i = 0; i < 20; ++i)
        a.orbit(5.0f, 2.0f);
    b.orbit(100.0f, 40.0f);
    CHECK(a.yaw == Approx(b.yaw));
    CHECK(a.pitch == Approx(b.pitch));
}

TEST_CASE("orbit camera: pan keeps the point under the cursor under it") {
    for (const bool zUp : {true, false}) {
        OrbitCamera c = camera(zUp);
        const glm::vec3 grabbed = pointUnder(c, 300.0f, 200.0f);
        CHECK(pixelOf(c, grabbed).x == Approx(300.0f).margin(0.05));
        const float yaw = c.yaw, pitch = c.pitch, distance = c.distance;
        c.pan(50.0f, -20.0f, kH);
        const glm::vec2 after = pixelOf(c, grabbed);
        CHECK(after.x == Approx(350.0f).margin(0.05));
        CHECK(after.y == Approx(180.0f).margin(0.05));
        CHECK(c.yaw == yaw); // a pan turns nothing
        CHECK(c.pitch == pitch);
        CHECK(c.distance == distance);
        CHECK(std::abs(roll(c)) < 1e-5f);
    }
}

TEST_CASE("orbit camera: the wheel zooms toward the cursor, within limits") {
    OrbitCamera c = camera();
    const glm::vec3 under = pointUnder(c, 600.0f, 150.0f);
    const glm::vec2 ndc = OrbitCamera::toNdc(600.0f, 150.0f, kW, kH);
    CHECK(OrbitCamera::wheelFactor(120.0f) == Approx(OrbitCamera::kWheelStep));
    CHECK(OrbitCamera::wheelFactor(-240.0f) == Approx(1.0f / (OrbitCamera::kWheelStep * OrbitCamera::kWheelStep)));
    c.zoomToward(ndc, 0.5f, kW / kH);
    CHECK(c.distance == Approx(5.0f));
    const glm::vec2 px = pixelOf(c, under);
    CHECK(px.x == Approx(600.0f).margin(0.05));
    CHECK(px.y == Approx(150.0f).margin(0.05));
    // At the window's centre the target stays.
    OrbitCamera centred = camera();
    centred.zoomToward({0.0f, 0.0f}, 0.5f, kW / kH);
    CHECK(glm::length(centred.target - camera().target) < 1e-5f);
    // Limits: 1/500 and 50 scene radii.
    for (int i = 0; i < 200; ++i)
        c.zoomToward(ndc, 0.5f, kW / kH);
    CHECK(c.distance == Approx(3.0f / 500.0f));
    for (int i = 0; i < 200; ++i)
        c.zoomToward(ndc, 2.0f, kW / kH);
    CHECK(c.distance == Approx(3.0f * 50.0f));
    // Clip planes hold the scene's sphere at any distance.
    float n = 0, f = 0;
    c.clipPlanes(n, f);
    const float toScene = glm::length(c.position() - c.sceneCentre);
    CHECK(n > 0.0f);
    CHECK(n < toScene - 3.0f);
    CHECK(f > toScene + 3.0f);
}

TEST_CASE("orbit camera: centring on a point keeps the orientation and the point's size") {
    OrbitCamera c = camera();
    const glm::vec3 p = pointUnder(c, 700.0f, 500.0f) + glm::normalize(c.target - c.position()) * 1.5f;
    const glm::vec2 before = pixelOf(c, p);
    CHECK(before.x > 600.0f);
    const glm::vec3 dir = c.offsetDirection();
    const float depth = glm::dot(p - c.position(), -dir);
    c.centreOn(p);
    CHECK(c.target == p);
    CHECK(c.distance == Approx(depth));
    CHECK(glm::length(c.offsetDirection() - dir) < 1e-6f);
    const glm::vec2 after = pixelOf(c, p);
    CHECK(after.x == Approx(kW / 2).margin(0.01));
    CHECK(after.y == Approx(kH / 2).margin(0.01));
    // A point behind the camera changes nothing.
    const OrbitCamera kept = c;
    c.centreOn(c.position() + c.offsetDirection() * 5.0f);
    CHECK(c.target == kept.target);
    CHECK(c.distance == kept.distance);
}

TEST_CASE("orbit camera: looking at a point gives back yaw, pitch and distance") {
    for (const bool zUp : {true, false})
        for (const float yaw : {-170.0f, -35.0f, 0.0f, 35.0f, 120.0f})
            for (const float pitch : {-80.0f, -10.0f, 0.0f, 20.0f, 89.0f}) {
                OrbitCamera c = camera(zUp);
                c.yaw = yaw;
                c.pitch = pitch;
                const OrbitCamera back = OrbitCamera::lookingAt(c.position(), c.target, camera(zUp));
                CHECK(back.yaw == Approx(yaw).margin(1e-3));
                CHECK(back.pitch == Approx(pitch).margin(1e-3));
                CHECK(back.distance == Approx(10.0f));
            }
    // Straight above: pitch clamped, the yaw kept.
    OrbitCamera c = camera();
    const OrbitCamera above = OrbitCamera::lookingAt(c.target + glm::vec3(0, 0, 4), c.target, c);
    CHECK(above.pitch == Approx(OrbitCamera::kMaxPitch));
    CHECK(above.yaw == Approx(35.0f));
}

TEST_CASE("orbit camera: ray and triangle") {
    const glm::vec3 a(-1, -1, 0), b(1, -1, 0), c(0, 1, 0);
    CHECK(rs::render::rayTriangle({0, 0, 5}, {0, 0, -1}, a, b, c) == Approx(5.0f));
    CHECK(rs::render::rayTriangle({0, 0, -5}, {0, 0, 1}, a, b, c) == Approx(5.0f)); // the back face too
    CHECK(rs::render::rayTriangle({3, 0, 5}, {0, 0, -1}, a, b, c) < 0.0f);          // beside it
    CHECK(rs::render::rayTriangle({0, 0, 5}, {0, 0, 1}, a, b, c) < 0.0f);           // behind the origin
    CHECK(rs::render::rayTriangle({0, 0, 5}, {1, 0, 0}, a, b, c) < 0.0f);           // parallel
    CHECK(rs::render::rayTriangle({0, 0, 5}, {0, 0, -1}, a, a, c) < 0.0f);          // degenerate
    // The ray through a pixel passes through what is drawn there.
    OrbitCamera cam = camera();
    glm::vec3 o, d;
    cam.ray(OrbitCamera::toNdc(123.0f, 456.0f, kW, kH), kW / kH, o, d);
    const glm::vec2 px = pixelOf(cam, o + d * 7.0f);
    CHECK(px.x == Approx(123.0f).margin(0.05));
    CHECK(px.y == Approx(456.0f).margin(0.05));
}

TEST_CASE("orbit camera: the framing puts every drawn point inside the window") {
    rs::render::CameraFraming f;
    f.lo = {-4.0f, -1.0f, 0.0f};
    f.hi = {6.0f, 2.0f, 3.0f};
    f.yaw = 35.0f;
    f.pitch = 20.0f;
    const OrbitCamera c = rs::render::fitCamera(f, kW / kH);
    CHECK(c.yaw == 35.0f);
    CHECK(c.pitch == 20.0f);
    CHECK(c.sceneRadius == Approx(f.radius()));
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 corner((k & 1) ? f.hi.x : f.lo.x, (k & 2) ? f.hi.y : f.lo.y, (k & 4) ? f.hi.z : f.lo.z);
        const glm::vec2 px = pixelOf(c, corner);
        CHECK(px.x >= 0.0f);
        CHECK(px.x <= kW);
        CHECK(px.y >= 0.0f);
        CHECK(px.y <= kH);
    }
}
