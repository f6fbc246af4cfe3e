#include "dazzle_rules.h"

#include <algorithm>
#include <cmath>

namespace rs::render {

float dazzleBlink(const rs::Dazzle& dz, float t) {
    if (dz.frequency == 0.0f) return 1.0f;
    float a = std::fmod(t * dz.frequency + dz.phase, 1.0f);
    if (a < 0.0f) a += 1.0f;
    const float bias = dz.hasBias ? dz.bias : 1.0f;
    return a <= bias ? std::sin(a * float(M_PI)) : 0.0f;
}

namespace {

// HSV of an rgb colour (h in [0, 1), -1 when achromatic; s, v in [0, 1]), as QColor::getHsvF.
glm::vec3 toHsv(glm::vec3 c) {
    const float mx = std::max({c.r, c.g, c.b}), mn = std::min({c.r, c.g, c.b}), d = mx - mn;
    const float v = mx, s = mx > 0.0f ? d / mx : 0.0f;
    if (d <= 0.0f) return {-1.0f, s, v};
    float h;
    if (mx == c.r)
        h = (c.g - c.b) / d + (c.g < c.b ? 6.0f : 0.0f);
    else if (mx == c.g)
        h = (c.b - c.r) / d + 2.0f;
    else
        h = (c.r - c.g) / d + 4.0f;
    return {h / 6.0f, s, v};
}

glm::vec3 fromHsv(float h, float s, float v) {
    h = h < 0.0f ? 0.0f : h * 6.0f;
    const int i = int(std::floor(h)) % 6;
    const float f = h - std::floor(h), p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    switch (i) {
    case 0:
        return {v, t, p};
    case 1:
        return {q, v, p};
    case 2:
        return {p, v, t};
    case 3:
        return {p, q, v};
    case 4:
        return {t, p, v};
    default:
        return {v, p, q};
    }
}

} // namespace

glm::vec3 dazzleColor(const rs::Dazzle& dz, const glm::vec3& factionColor) {
    if (!(dz.colorize || rs::istartsWith(dz.name, "FC_"))) return dz.color;
    const glm::vec3 own = toHsv(glm::clamp(dz.color, 0.0f, 1.0f));
    const glm::vec3 fc = toHsv(glm::clamp(factionColor, 0.0f, 1.0f));
    return fromHsv(std::max(fc.x, 0.0f), own.y, own.z);
}

glm::vec4 dazzleRect(const rs::Dazzle& dz) {
    const int cells = dz.texSize > 0 ? dz.texSize : 1;
    const float cell = 1.0f / float(cells);
    const float u0 = float(std::clamp(dz.texX, 0, cells - 1)) * cell;
    const float v0 = float(std::clamp(dz.texY, 0, cells - 1)) * cell;
    return glm::vec4(u0, v0 + cell, u0 + cell, v0);
}

} // namespace rs::render
