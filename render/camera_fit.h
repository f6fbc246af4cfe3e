// Camera framing: orbit angles around the drawn model, distance fitted to what is drawn. GLM only (no Qt): the web
// viewer (web/) compiles it too, so that its views are framed as the desktop's.
#pragma once

#include "orbit_camera.h"

#include <glm/glm.hpp>

#include <vector>

namespace rs::render {

struct CameraFraming {
    float yaw = 35.0f, pitch = 20.0f; // degrees; yaw 0: camera on +Y (z-up) / +Z (y-up)
    bool zUp = true;
    // What is drawn, world space: bounds and sampled points (the bounds' corners are fitted when empty).
    glm::vec3 lo{-1.0f}, hi{1.0f};
    std::vector<glm::vec3> points;
    // Fixed orbit (turntables): the camera looks at the bounds' centre from the distance at which every point is
    // inside the view at every yaw (at this pitch), so that only the yaw changes from one yaw to the next. Off:
    // the view is fitted to the points as seen from this yaw.
    bool orbit = false;
    glm::vec3 center() const { return (lo + hi) * 0.5f; }
    float radius() const; // half the bounds' diagonal, at least 1e-3

    // Empties the bounds (lo > hi) and points, ready to grow.
    void clear();
    // When nothing grew the bounds: fall back to the given points (bone positions), else to the origin.
    void finish(const std::vector<glm::vec3>& fallback);
};

// The camera on a sphere around the framing's centre at the framing's yaw and pitch, at the distance where every
// point is inside the view frustum (with a small margin; with f.orbit, at every yaw), for a window of this aspect.
// Its scene is the sphere around the point looked at with the bounds' radius.
OrbitCamera fitCamera(const CameraFraming& f, float aspect);

} // namespace rs::render
