#include "orbit_camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace rs::render {

glm::vec3 OrbitCamera::worldUp() const { return zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0); }

glm::vec3 OrbitCamera::offsetDirection() const {
    const float y = glm::radians(yaw), p = glm::radians(std::clamp(pitch, -kMaxPitch, kMaxPitch));
    if (zUp) return {std::sin(y) * std::cos(p), std::cos(y) * std::cos(p), std::sin(p)};
    return {std::sin(y) * std::cos(p), std::sin(p), std::cos(y) * std::cos(p)};
}

glm::vec3 OrbitCamera::right() const { return glm::normalize(glm::cross(-offsetDirection(), worldUp())); }

glm::vec3 OrbitCamera::screenUp() const { return glm::cross(right(), -offsetDirection()); }

glm::mat4 OrbitCamera::viewMatrix() const { return glm::lookAt(position(), target, worldUp()); }

void OrbitCamera::clipPlanes(float& nearPlane, float& farPlane) const {
    const float r = std::max(sceneRadius, 1e-3f);
    const float toScene = glm::length(position() - sceneCentre);
    nearPlane = std::max(toScene - r * 4.0f, distance * 0.01f);
    farPlane = std::max(toScene + r * 8.0f, nearPlane * 2.0f);
}

glm::mat4 OrbitCamera::projectionMatrix(float aspect) const {
    float n = 0, f = 0;
    clipPlanes(n, f);
    return glm::perspective(glm::radians(fovY), aspect, n, f);
}

OrbitCamera OrbitCamera::lookingAt(const glm::vec3& position, const glm::vec3& target, const OrbitCamera& like) {
    OrbitCamera c = like;
    c.target = target;
    const glm::vec3 offset = position - target;
    const float d = glm::length(offset);
    if (!(d > 1e-9f) || !std::isfinite(d)) return c; // no direction: keep like's angles and distance
    const glm::vec3 dir = offset / d;
    const float up = glm::dot(dir, c.worldUp());
    c.pitch = std::clamp(glm::degrees(std::asin(std::clamp(up, -1.0f, 1.0f))), -kMaxPitch, kMaxPitch);
    const float a = dir.x, b = c.zUp ? dir.y : dir.z;
    if (a * a + b * b > 1e-12f) c.yaw = glm::degrees(std::atan2(a, b));
    c.distance = d;
    return c;
}

void OrbitCamera::orbit(float dxPixels, float dyPixels, float degreesPerPixel) {
    // Yaw runs clockwise seen from above with Z up (+Y toward +X) and counter-clockwise with Y up (+Z toward +X):
    // either way the camera goes round against the drag, so that the model turns with the mouse.
    yaw = std::remainder(yaw + (zUp ? dxPixels : -dxPixels) * degreesPerPixel, 360.0f);
    pitch = std::clamp(pitch + dyPixels * degreesPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dxPixels, float dyPixels, float viewportHeight) {
    if (!(viewportHeight > 0.0f)) return;
    const float perPixel = 2.0f * distance * std::tan(glm::radians(fovY) * 0.5f) / viewportHeight;
    target += (-right() * dxPixels + screenUp() * dyPixels) * perPixel;
}

float OrbitCamera::wheelFactor(float angleDelta) { return std::pow(kWheelStep, angleDelta / 120.0f); }

void OrbitCamera::zoomToward(const glm::vec2& ndc, float factor, float aspect) {
    if (!(factor > 0.0f) || !std::isfinite(factor)) return;
    const float r = std::max(sceneRadius, 1e-3f);
    const float lo = r / 500.0f, hi = r * 50.0f;
    float d = distance * factor;
    // Never past a limit, never a jump back to it from beyond (a distance set outside them stays reachable).
    if (factor < 1.0f && d < lo) d = std::min(distance, lo);
    if (factor > 1.0f && d > hi) d = std::max(distance, hi);
    const float tanV = std::tan(glm::radians(fovY) * 0.5f), tanH = tanV * aspect;
    target += (right() * (ndc.x * tanH) + screenUp() * (ndc.y * tanV)) * (distance - d);
    distance = d;
}

void OrbitCamera::centreOn(const glm::vec3& point) {
    const glm::vec3 forward = -offsetDirection();
    const glm::vec3 from = position();
    const float depth = glm::dot(point - from, forward);
    if (!(depth > 1e-6f) || !std::isfinite(depth)) return; // behind the camera: nothing to centre
    target = point;
    distance = depth;
}

void OrbitCamera::ray(const glm::vec2& ndc, float aspect, glm::vec3& origin, glm::vec3& dir) const {
    const float tanV = std::tan(glm::radians(fovY) * 0.5f), tanH = tanV * aspect;
    origin = position();
    dir = glm::normalize(-offsetDirection() + right() * (ndc.x * tanH) + screenUp() * (ndc.y * tanV));
}

glm::vec2 OrbitCamera::toNdc(float x, float y, float width, float height) {
    return {width > 0 ? 2.0f * x / width - 1.0f : 0.0f, height > 0 ? 1.0f - 2.0f * y / height : 0.0f};
}

bool OrbitCamera::project(const glm::vec3& point, float width, float height, glm::vec2& pixel) const {
    const float aspect = height > 0 ? width / height : 1.0f;
    const glm::vec4 clip = projectionMatrix(aspect) * viewMatrix() * glm::vec4(point, 1.0f);
    if (!(clip.w > 0.0f)) return false;
    const glm::vec2 ndc(clip.x / clip.w, clip.y / clip.w);
    pixel = {(ndc.x + 1.0f) * 0.5f * width, (1.0f - ndc.y) * 0.5f * height};
    return true;
}

float rayTriangle(const glm::vec3& origin, const glm::vec3& dir, const glm::vec3& a, const glm::vec3& b,
                  const glm::vec3& c) {
    const glm::vec3 e1 = b - a, e2 = c - a;
    const glm::vec3 p = glm::cross(dir, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-12f || !std::isfinite(det)) return -1.0f;
    const float inv = 1.0f / det;
    const glm::vec3 s = origin - a;
    const float u = glm::dot(s, p) * inv;
    if (u < 0.0f || u > 1.0f) return -1.0f;
    const glm::vec3 q = glm::cross(s, e1);
    const float v = glm::dot(dir, q) * inv;
    if (v < 0.0f || u + v > 1.0f) return -1.0f;
    const float t = glm::dot(e2, q) * inv;
    return t > 0.0f ? t : -1.0f;
}

} // namespace rs::render
