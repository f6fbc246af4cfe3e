#include "particles/particle_system.h"

#include <algorithm>

namespace rs {

const char* particleBlendName(ParticleBlend b) {
    static const char* const kNames[] = {
        "opaque",      "additive",       "alpha",         "modulate",       "depth-additive",
        "depth-alpha", "depth-modulate", "diffuse-alpha", "stencil-darken", "stencil-darken-blur",
        "heat",        "bump",           "decal-bump",    "alpha-scanlines"};
    const size_t i = static_cast<size_t>(b);
    return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "unknown";
}

// Shape of the segment between two keys at u in [0, 1], and its integral over [0, u].
static float ease(ParticleTrack::Interp in, float u) {
    switch (in) {
    case ParticleTrack::Interp::Step:
        return 0.0f;
    case ParticleTrack::Interp::Smooth:
        return u * u * (3.0f - 2.0f * u);
    default:
        return u;
    }
}
static float easeIntegral(ParticleTrack::Interp in, float u) {
    switch (in) {
    case ParticleTrack::Interp::Step:
        return 0.0f;
    case ParticleTrack::Interp::Smooth:
        return u * u * u * (1.0f - 0.5f * u);
    default:
        return 0.5f * u * u;
    }
}

float ParticleTrack::sample(float t) const {
    if (keys.empty()) return 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    if (t <= keys.front().x) return keys.front().y;
    for (size_t i = 1; i < keys.size(); ++i) {
        const glm::vec2 a = keys[i - 1], b = keys[i];
        if (t > b.x) continue;
        const float span = b.x - a.x;
        if (span <= 0.0f) return b.y;
        return a.y + (b.y - a.y) * ease(interp, (t - a.x) / span);
    }
    return keys.back().y;
}

float ParticleTrack::integral(float t) const {
    if (keys.empty()) return 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    float sum = keys.front().y * std::min(t, keys.front().x);
    for (size_t i = 1; i < keys.size() && t > keys[i - 1].x; ++i) {
        const glm::vec2 a = keys[i - 1], b = keys[i];
        const float span = b.x - a.x;
        if (span <= 0.0f) continue;
        const float u = std::min(1.0f, (t - a.x) / span);
        sum += span * (a.y * u + (b.y - a.y) * easeIntegral(interp, u));
    }
    if (t > keys.back().x) sum += keys.back().y * (t - keys.back().x);
    return sum;
}

bool ParticleTrack::constant() const {
    for (const glm::vec2& k : keys)
        if (k.y != keys.front().y) return false;
    return true;
}

const char* sageShaderName(SageEmitterParams::Shader s) {
    static const char* const k[] = {"none", "additive", "alpha", "alpha-test", "multiply"};
    return k[static_cast<size_t>(s) < 5 ? static_cast<size_t>(s) : 0];
}
const char* sageTypeName(SageEmitterParams::Type t) {
    static const char* const k[] = {"particle", "drawable", "streak", "volume", "unknown"};
    return k[static_cast<size_t>(t) < 5 ? static_cast<size_t>(t) : 4];
}
const char* sageVelocityName(SageEmitterParams::Velocity v) {
    static const char* const k[] = {"none", "ortho", "spherical", "hemispherical", "cylindrical", "outward"};
    return k[static_cast<size_t>(v) < 6 ? static_cast<size_t>(v) : 0];
}
const char* sageVolumeName(SageEmitterParams::Volume v) {
    static const char* const k[] = {"point", "line", "box", "sphere", "cylinder"};
    return k[static_cast<size_t>(v) < 5 ? static_cast<size_t>(v) : 0];
}

std::string notSimulatedWarning(size_t index, const ParticleEmitter& e, const std::string& feature) {
    return "emitter " + std::to_string(index) + " \"" + e.name + "\": " + feature;
}

} // namespace rs
