#include "particle_thumbnail.h"

#include "particles/particle_preview.h"
#include "particles/particle_sim.h"
#include "texture/texture.h"

#include <QPainter>

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <tuple>
#include <vector>

namespace rs::thumbs {

namespace {

constexpr size_t kCapacity = 16384;        // particles drawn at most (the view's per-system capacity)
constexpr int kMaxSprite = 128;            // a tinted sprite is made at most this big, then scaled by the painter
constexpr uint64_t kMaxTexture = 64 << 20; // bytes of a colour texture read

// The view's sprite without a texture: white, alpha (1 - r)^2 over the square's inscribed circle.
QImage softSprite() {
    const int n = 64;
    QImage img(n, n, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < n; ++y) {
        auto* row = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int x = 0; x < n; ++x) {
            const float cx = (float(x) + 0.5f) / float(n) * 2.0f - 1.0f,
                        cy = (float(y) + 0.5f) / float(n) * 2.0f - 1.0f;
            const float g = std::clamp(1.0f - std::sqrt(cx * cx + cy * cy), 0.0f, 1.0f);
            const int a = int(std::lround(g * g * 255.0f));
            row[x] = qRgba(a, a, a, a);
        }
    }
    return img;
}

// The decoded colour texture `name` of the system at path, or a null image (not found, unreadable).
QImage loadTexture(const Resolver& resolver, const std::string& path, const std::string& name) {
    if (name.empty()) return {};
    try {
        const std::string found = resolver.findTexture(name, path);
        if (found.empty()) return {};
        std::vector<uint8_t> bytes;
        if (!resolver.readBytes(found, bytes, kMaxTexture)) return {};
        const Image img = decodeTexture(ByteSpan(bytes), found);
        if (img.width <= 0 || img.height <= 0 || img.rgba.size() < size_t(img.width) * size_t(img.height) * 4)
            return {};
        const QImage q(img.rgba.data(), img.width, img.height, img.width * 4, QImage::Format_RGBA8888);
        return q.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    } catch (const std::exception&) {
        return {};
    }
}

// The sprite times colour (rgba 0..1, straight alpha), premultiplied, m x m pixels.
QImage tinted(const QImage& sprite, int m, const glm::vec4& c) {
    QImage img = sprite.width() == m && sprite.height() == m
                     ? sprite.copy()
                     : sprite.scaled(m, m, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    if (img.format() != QImage::Format_ARGB32_Premultiplied)
        img = img.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    const int a = int(std::lround(c.a * 256.0f));
    const int fr = int(std::lround(c.r * c.a * 256.0f)), fg = int(std::lround(c.g * c.a * 256.0f)),
              fb = int(std::lround(c.b * c.a * 256.0f));
    for (int y = 0; y < m; ++y) {
        auto* row = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int x = 0; x < m; ++x) {
            const QRgb p = row[x];
            row[x] = qRgba((qRed(p) * fr) >> 8, (qGreen(p) * fg) >> 8, (qBlue(p) * fb) >> 8, (qAlpha(p) * a) >> 8);
        }
    }
    return img;
}

struct Item {
    float x, y, depth, size, rotation;
    glm::vec4 color;
    uint32_t emitter, frame;
};

} // namespace

ParticlePicture renderParticleSystem(const Resolver& resolver, const std::string& path, const ParticleSystem& system,
                                     int size) {
    ParticlePicture out;
    size = std::clamp(size, 8, 4096);
    std::vector<ParticleDraw> draw;
    bool anyDrawn = false;
    for (const ParticleEmitter& e : system.emitters) {
        draw.push_back(particleDrawOf(e.blend));
        anyDrawn = anyDrawn || draw.back() != ParticleDraw::NotDrawn;
    }
    if (!anyDrawn) {
        out.why = path + ": a particle system with nothing drawn (no emitter, or only heat and bump emitters)";
        out.noPicture = true;
        return out;
    }
    out.time = particlePreviewTime(system);
    const ParticleSimulator sim(system);
    ParticleBuffer buf(kCapacity, system.emitters.size());
    ParticleSimOptions o;
    o.seed = 1; // as the view seeds a system shown alone
    sim.evaluate(out.time, o, buf);

    // The view's default camera: yaw 35, pitch 20, z up; x right, y down on the picture, depth toward the camera.
    const float yaw = glm::radians(35.0f), pitch = glm::radians(20.0f);
    const glm::vec3 dir(std::sin(yaw) * std::cos(pitch), std::cos(yaw) * std::cos(pitch), std::sin(pitch));
    const glm::vec3 right = glm::normalize(glm::cross(-dir, glm::vec3(0, 0, 1)));
    const glm::vec3 up = glm::cross(right, -dir);

    std::vector<Item> items;
    float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
    for (size_t e = 0; e < system.emitters.size() && e < buf.emitters.size(); ++e) {
        if (draw[e] == ParticleDraw::NotDrawn) continue;
        const ParticleBuffer::Range r = buf.emitters[e];
        for (uint32_t i = r.begin; i < r.begin + r.count && i < buf.count; ++i) {
            const SimParticle& p = buf.particles[i];
            const glm::vec4 c = glm::clamp(p.color, glm::vec4(0.0f), glm::vec4(1.0f));
            if (!std::isfinite(p.position.x) || !std::isfinite(p.position.y) || !std::isfinite(p.position.z) ||
                !std::isfinite(p.size) || !std::isfinite(p.rotation) || !(std::abs(p.size) > 0.0f) ||
                !(std::abs(p.size) < 1e6f) || !(c.a > 0.0f) || glm::any(glm::isnan(p.color)))
                continue;
            Item it{glm::dot(p.position, right),
                    -glm::dot(p.position, up),
                    glm::dot(p.position, dir),
                    std::abs(p.size),
                    p.rotation,
                    c,
                    uint32_t(e),
                    p.frame};
            const float h = it.size * 0.5f;
            lo[0] = std::min(lo[0], it.x - h);
            hi[0] = std::max(hi[0], it.x + h);
            lo[1] = std::min(lo[1], it.y - h);
            hi[1] = std::max(hi[1], it.y + h);
            items.push_back(it);
        }
    }
    if (items.empty()) {
        out.why = path + ": no particle is alive at " + std::to_string(out.time) + " s";
        return out;
    }
    // Drawn at the picture's size (soft, smoothly scaled sprites need no supersampling; fill rate is the cost),
    // the particles' extent filling 90% of it.
    const int big = size;
    const float extent = std::max({hi[0] - lo[0], hi[1] - lo[1], 1e-6f});
    const float scale = float(big) * 0.9f / extent;
    const float cx = (lo[0] + hi[0]) * 0.5f, cy = (lo[1] + hi[1]) * 0.5f;
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.depth < b.depth; });

    // Sprites: each emitter's colour texture (per name, decoded once) or the soft sprite; atlas frames cut once.
    const QImage soft = softSprite();
    std::map<std::string, QImage> textures;
    std::vector<const QImage*> emitterTexture(system.emitters.size(), &soft);
    for (size_t e = 0; e < system.emitters.size(); ++e) {
        const std::string& name = system.emitters[e].colorTexture;
        auto it = textures.find(name);
        if (it == textures.end()) it = textures.emplace(name, loadTexture(resolver, path, name)).first;
        if (!it->second.isNull()) emitterTexture[e] = &it->second;
    }
    std::map<std::pair<uint32_t, uint32_t>, QImage> frames; // (emitter, frame) -> at most kMaxSprite square
    auto frameImage = [&](uint32_t e, uint32_t frame) -> const QImage& {
        const QImage* tex = emitterTexture[e];
        const uint32_t grid = tex == &soft ? 1 : sim.atlasGrid(e);
        const uint32_t f = tex == &soft ? 0 : frame % (grid * grid);
        auto it = frames.find({e, f});
        if (it != frames.end()) return it->second;
        const glm::vec4 r = atlasRect(f, grid);
        const QRect px(int(r.x * float(tex->width())), int(r.y * float(tex->height())),
                       std::max(1, int(r.z * float(tex->width()))), std::max(1, int(r.w * float(tex->height()))));
        QImage cut = tex->copy(px);
        if (cut.width() > kMaxSprite || cut.height() > kMaxSprite)
            cut = cut.scaled(kMaxSprite, kMaxSprite, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        return frames.emplace(std::make_pair(e, f), std::move(cut)).first->second;
    };

    // Tinted sprites by (emitter, frame, size, colour in 8 bits a channel): particles of one emitter often share
    // them (a constant colour track); the cache is emptied when it grows past kMaxTinted.
    constexpr size_t kMaxTinted = 2048;
    std::map<std::tuple<uint32_t, uint32_t, int, uint32_t>, QImage> tintedCache;
    auto tintedSprite = [&](const Item& it, int m) -> const QImage& {
        const glm::uvec4 q = glm::uvec4(glm::round(it.color * 255.0f));
        const glm::vec4 c = glm::vec4(q) / 255.0f;
        const auto key = std::make_tuple(it.emitter, it.frame, m, q.r << 24 | q.g << 16 | q.b << 8 | q.a);
        auto found = tintedCache.find(key);
        if (found != tintedCache.end()) return found->second;
        if (tintedCache.size() >= kMaxTinted) tintedCache.clear();
        return tintedCache.emplace(key, tinted(frameImage(it.emitter, it.frame), m, c)).first->second;
    };

    QImage img(big, big, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    {
        QPainter p(&img);
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        for (const Item& it : items) {
            const float n = std::max(it.size * scale, 1.0f);
            const int m = std::clamp(int(std::lround(n)), 1, kMaxSprite);
            switch (draw[it.emitter]) {
            case ParticleDraw::Additive:
                p.setCompositionMode(QPainter::CompositionMode_Plus);
                break;
            case ParticleDraw::Modulate:
                p.setCompositionMode(QPainter::CompositionMode_Multiply);
                break;
            default:
                p.setCompositionMode(QPainter::CompositionMode_SourceOver);
                break;
            }
            p.save();
            p.translate(double(big) * 0.5 + double((it.x - cx) * scale),
                        double(big) * 0.5 + double((it.y - cy) * scale));
            if (it.rotation != 0.0f) p.rotate(-double(glm::degrees(it.rotation))); // counter-clockwise on screen
            p.drawImage(QRectF(-n * 0.5, -n * 0.5, n, n), tintedSprite(it, m));
            p.restore();
        }
    }
    out.image = std::move(img);
    return out;
}

} // namespace rs::thumbs
