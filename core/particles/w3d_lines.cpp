#include "particles/w3d_lines.h"

#include <algorithm>
#include <cmath>

namespace rs {

bool w3dDrawsLines(const ParticleEmitter& e) { return e.w3d && e.w3d->renderMode >= 2 && e.w3d->renderMode <= 4; }

W3dTailColor w3dTailColor(const ParticleEmitter& e) {
    // Textured: the head's colour. Else by the shader: modulate (destination SRC_COLOR) white, additive black,
    // alpha blending the head's colour with alpha 0, the rest the head's colour.
    if (!e.colorTexture.empty()) return W3dTailColor::Head;
    switch (e.blend) {
    case ParticleBlend::Modulate:
        return W3dTailColor::White;
    case ParticleBlend::Additive:
        return W3dTailColor::Black;
    case ParticleBlend::Alpha:
        return W3dTailColor::HeadAlphaZero;
    default:
        return W3dTailColor::Head;
    }
}

void w3dLineSegments(const ParticleEmitter& e, const SimParticle* p, size_t n, std::vector<W3dLineSegment>& out) {
    if (!w3dDrawsLines(e) || !p) return;
    const W3dEmitterParams& w = *e.w3d;
    auto finite = [](float v) { return std::isfinite(v) ? v : 0.0f; };
    if (w.renderMode == 2) {
        const float width = std::max(0.0f, finite(w3dKeyAt(w.size, 0.0f).x));
        for (size_t i = 0; i + 1 < n; ++i) {
            W3dLineSegment s;
            s.head = p[i].position;
            s.tail = p[i + 1].position;
            s.width = width;
            s.color = p[i].color;
            s.tailColor = W3dTailColor::Head;
            out.push_back(s);
        }
        return;
    }
    const W3dTailColor tail = w3dTailColor(e);
    for (size_t i = 0; i < n; ++i) {
        const float blur = finite(w3dKeyAt(w.blurTime, p[i].age).x);
        W3dLineSegment s;
        s.head = p[i].position;
        s.tail = p[i].position - p[i].velocity * blur;
        s.width = p[i].size;
        s.color = p[i].color;
        s.tailColor = tail;
        out.push_back(s);
    }
}

} // namespace rs
