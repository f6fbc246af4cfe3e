// OrbitCamera: the 3D view's turntable camera as plain numbers (GLM only, no Qt3D), with what the mouse does to it.
//
// Contract
// - The camera looks at `target` from `distance` away, at `yaw` degrees about the world's up axis (yaw 0: the
//   camera on +Y with Z up, on +Z with Y up, as CameraFraming) and `pitch` degrees above the horizontal plane through
//   the target, clamped to +-kMaxPitch (short of the poles). Its up vector is always the world's up axis
//   projected onto the view plane: the horizon never rolls.
// - orbit(): left-drag. The model turns with the mouse (drag right: the camera goes round to the left;
//   drag down: pitch grows, more of the top shows); the target stays.
// - pan(): right/middle-drag. The point at the target's depth under the cursor stays under the cursor.
// - zoomToward(): the wheel. The distance is scaled and the point at the target's depth under the cursor stays
//   under the cursor.
// - centreOn(): double-click on a part. The target moves to the point picked, orientation kept, the distance
//   becomes the point's depth (the part keeps its size on screen and comes to the centre).
// - Window positions are pixels, x right, y down; NDC is -1..1, y up.
#pragma once

#include <glm/glm.hpp>

namespace rs::render {

struct OrbitCamera {
    static constexpr float kMaxPitch = 89.0f;       // degrees; |pitch| never exceeds it
    static constexpr float kDegreesPerPixel = 0.4f; // orbit speed: 100 px of drag turn 40 degrees
    static constexpr float kWheelStep = 0.85f;      // distance factor per wheel notch (120 units) toward the model
    glm::vec3 target{0.0f};
    float yaw = 35.0f, pitch = 20.0f; // degrees
    float distance = 1.0f;
    float fovY = 40.0f; // vertical field of view, degrees
    bool zUp = true;
    // What is drawn (the framed model): its centre and radius decide the clip planes and the zoom limits.
    glm::vec3 sceneCentre{0.0f};
    float sceneRadius = 1.0f;

    glm::vec3 worldUp() const;
    glm::vec3 offsetDirection() const; // unit vector from the target to the camera
    glm::vec3 position() const { return target + offsetDirection() * distance; }
    glm::vec3 right() const;    // the screen's x axis in the world (horizontal)
    glm::vec3 screenUp() const; // the screen's y axis in the world
    glm::mat4 viewMatrix() const;
    // Near and far planes that hold the scene's sphere (4 and 8 radii of margin, as the framing: the grid and
    // overlays reach beyond the model), near at least 1/100 of the distance to the target.
    void clipPlanes(float& nearPlane, float& farPlane) const;
    glm::mat4 projectionMatrix(float aspect) const;

    // The camera at position looking at target (yaw, pitch and distance derived; pitch clamped). Other fields as
    // `like` (the scene, field of view and up axis).
    static OrbitCamera lookingAt(const glm::vec3& position, const glm::vec3& target, const OrbitCamera& like);

    void orbit(float dxPixels, float dyPixels, float degreesPerPixel = kDegreesPerPixel);
    void pan(float dxPixels, float dyPixels, float viewportHeight);
    // factor < 1 comes closer. The distance stays within [sceneRadius / 500, sceneRadius * 50].
    void zoomToward(const glm::vec2& ndc, float factor, float aspect);
    // The wheel's angle (QWheelEvent::angleDelta().y(): 120 per notch, > 0 away from the user) as a factor.
    static float wheelFactor(float angleDelta);
    void centreOn(const glm::vec3& point);

    // The ray from the camera through a window point (NDC): its origin is the camera, dir has unit length.
    void ray(const glm::vec2& ndc, float aspect, glm::vec3& origin, glm::vec3& dir) const;
    // Window pixels <-> NDC for a window of width x height pixels.
    static glm::vec2 toNdc(float x, float y, float width, float height);
    // Where a world point is drawn in a window of width x height (pixels); false when it is behind the camera.
    bool project(const glm::vec3& point, float width, float height, glm::vec2& pixel) const;
};

// Distance along the ray (origin + t * dir) to the triangle abc, either face (Moller-Trumbore); negative when the
// ray misses it or the triangle is degenerate.
float rayTriangle(const glm::vec3& origin, const glm::vec3& dir, const glm::vec3& a, const glm::vec3& b,
                  const glm::vec3& c);

} // namespace rs::render
