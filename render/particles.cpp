#include "particles.h"

#include "game_text.h"

#include "frame_graph.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "texture_cache.h"

#include <QVector4D>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTexture>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace rs::render {

namespace {

// Per instance: centre xyz + size (full quad width), colour rgba, atlas rect (u0, v0, w, h; D3D convention, v down
// from the image top), rotation (radians).
constexpr uint kFloats = 16, kStride = kFloats * 4;

// One stage's source for a variant (render/glsl/particle.vert: the defines, compiled per emitter kind): the version
// line, the variant's defines, then the stage.
QByteArray particleSource(const char* stage, int kind, bool low, bool texture, int orient) {
    return QByteArray(shaders::desktopPrefix) + "#define BLEND_KIND " + QByteArray::number(kind) +
           "\n#define LOW_PASS " + (low ? "1" : "0") + "\n#define HAS_TEXTURE " + (texture ? "1" : "0") +
           "\n#define ORIENT " + QByteArray::number(orient) + "\n" + stage;
}

// Blend kind of the shader and the effect (0 opaque, 1 additive, 2 alpha, 3 modulate); -1 = not drawn.
int blendKind(rs::ParticleBlend b) { return int(rs::particleDrawOf(b)); }

constexpr size_t kCapacity = 16384;   // particles per system and frame (more are counted, not drawn)
constexpr size_t kMaxEmitters = 1024; // emitter entities per scene (a hostile file cannot make millions)

} // namespace

Particles::Particles(Qt3DCore::QNode* root) : root_(root) {}

Qt3DRender::QShaderProgram* Particles::program(int kind, bool low, bool texture, int orient) {
    Qt3DRender::QShaderProgram*& p = programs_[((kind * 2 + (low ? 1 : 0)) * 2 + (texture ? 1 : 0)) * 4 + orient];
    if (!p)
        p = fx::program(root_, particleSource(shaders::particleVertex, kind, low, texture, orient).constData(),
                        particleSource(shaders::particleFragment, kind, low, texture, orient).constData());
    return p;
}

Qt3DRender::QEffect* Particles::effect(int kind, bool noDepthTest, bool texture, int orient) {
    using BA = Qt3DRender::QBlendEquationArguments;
    using DT = Qt3DRender::QDepthTest;
    const int key = ((kind * 2 + (noDepthTest ? 1 : 0)) * 2 + (texture ? 1 : 0)) * 4 + orient;
    if (auto it = effects_.find(key); it != effects_.end()) return it->second;
    auto* p = fx::pass(program(kind, false, texture, orient), kind == 0 ? "opaque" : "transparent");
    fx::depth(p, noDepthTest ? DT::Always : DT::LessOrEqual, kind == 0);
    Qt3DRender::QRenderPass* low = nullptr;
    switch (kind) {
    case 1:
        fx::blend(p, BA::One, BA::One);
        break;
    case 2:
        fx::blend(p, BA::SourceAlpha, BA::OneMinusSourceAlpha);
        break;
    case 3:
        fx::blend(p, BA::DestinationColor, BA::Zero);
        break;
    default:
        break;
    }
    if ((kind == 1 || kind == 2) && orient != 3) { // additive and alpha: large particles to the low-resolution target
        low = fx::pass(program(kind, true, texture, orient), "particlesLow");
        fx::depth(low, noDepthTest ? DT::Always : DT::LessOrEqual, false);
        fx::blend(low, BA::One, kind == 1 ? BA::One : BA::OneMinusSourceAlpha);
    }
    auto* e = low ? fx::effect(root_, {p, low}) : fx::effect(root_, {p});
    // Opaque and modulate particles have no low-resolution pass: their threshold stays out of reach.
    auto* threshold =
        new Qt3DRender::QParameter(QStringLiteral("lowResMinPixels"), std::numeric_limits<float>::max(), e);
    e->addParameter(threshold);
    if (low) thresholds_.push_back(threshold);
    effects_[key] = e;
    return e;
}

void Particles::setLowResTarget(Qt3DCore::QEntity* parent, Qt3DRender::QAbstractTexture* color) {
    using BA = Qt3DRender::QBlendEquationArguments;
    composite_ = new Qt3DCore::QEntity(parent);
    compositeCapacity_ = 16;
    InstancedQuad quad = makeInstancedQuad(composite_, {"tileRect"}, compositeCapacity_);
    quad.instances->setData(QByteArray(int(16 * compositeCapacity_), '\0'));
    compositeRects_ = quad.instances;
    compositeRectAttr_ = quad.attributes.front();
    compositeRenderer_ = quad.renderer;
    composite_->addComponent(quad.renderer);
    auto* p =
        fx::pass(fx::program(root_, shaders::particleCompositeVertex, shaders::particleCompositeFragment), "composite");
    fx::depth(p, Qt3DRender::QDepthTest::Always, false);
    fx::blend(p, BA::One, BA::OneMinusSourceAlpha);
    auto* mat = new Qt3DRender::QMaterial(composite_);
    mat->setEffect(fx::effect(root_, {p}));
    addParam(mat, "lowResColor", QVariant::fromValue(color));
    composite_->addComponent(mat);
    composite_->setEnabled(false);
}

void Particles::setView(const glm::mat4& view, const glm::mat4& projection, int width, int height,
                        float lowResMinPixels) {
    viewProjection_ = projection * view;
    forward_ = -glm::vec3(view[0][2], view[1][2], view[2][2]); // the camera's -z in world space
    p00_ = projection[0][0];
    p11_ = projection[1][1];
    width_ = float(std::max(1, width));
    height_ = float(std::max(1, height));
    lowResMinPixels_ = lowResMinPixels;
}

void Particles::reset() {
    attachments_.clear();
    systems_.clear();
    emitters_.clear();
    notDrawn_.clear();
    drawn_ = 0;
}

void Particles::build(Qt3DCore::QEntity* parent, std::vector<ParticleAttachment> attachments, TextureCache& textures) {
    reset();
    attachments_ = std::move(attachments);
    systems_.resize(attachments_.size());
    for (size_t a = 0; a < attachments_.size(); ++a) {
        const ParticleAttachment& at = attachments_[a];
        if (!at.system) continue;
        const rs::ParticleSystem& sys = *at.system;
        System& s = systems_[a];
        s.sim = std::make_unique<rs::ParticleSimulator>(sys);
        s.buffer = rs::ParticleBuffer(kCapacity, sys.emitters.size());
        s.seed = uint64_t(a) + 1;
        for (size_t ei = 0; ei < sys.emitters.size(); ++ei) {
            const rs::ParticleEmitter& em = sys.emitters[ei];
            const QString label = rs::gameText(sys.name) + "/" + rs::gameText(em.name);
            const int kind = blendKind(em.blend);
            if (emitters_.size() >= kMaxEmitters) {
                if (notDrawn_.size() < 64)
                    notDrawn_ << QStringLiteral("%1: more than %2 emitters in the scene").arg(label).arg(kMaxEmitters);
                continue;
            }
            if (kind < 0) {
                if (notDrawn_.size() < 64)
                    notDrawn_ << QStringLiteral("%1: blend mode %2 (%3) is not drawn")
                                     .arg(label, QString::fromLatin1(rs::particleBlendName(em.blend)))
                                     .arg(em.params.blendMode);
                continue;
            }
            Emitter e;
            e.attachment = a;
            e.emitter = ei;
            e.entity = new Qt3DCore::QEntity(parent);
            e.sortBackToFront = kind == 2;
            e.lowResCapable = kind == 1 || kind == 2;
            e.worldOriented = em.params.worldOriented;
            // Renderer precedence of the engine (alo-viewer ParticleSystem.cpp): heat, then world-oriented, then
            // kites, then camera-facing quads.
            e.lines = rs::w3dDrawsLines(em);
            if (e.lines) {
                e.sortBackToFront = kind == 2;
                e.lowResCapable = false;
                e.worldOriented = false;
            }
            const bool kite = !e.lines && em.params.hasTail && !em.params.worldOriented;
            e.tail = kite && std::isfinite(em.params.tailSize) ? std::clamp(em.params.tailSize, 0.0f, 1e6f) : 0.0f;
            e.capacity = 64;
            InstancedQuad quad = makeInstancedQuad(
                e.entity, {"particleCenter", "particleColor", "particleRect", "particleSpin"}, e.capacity);
            e.buffer = quad.instances;
            e.buffer->setUsage(Qt3DCore::QBuffer::StreamDraw);
            e.data = QByteArray(int(e.capacity * kStride), '\0');
            e.buffer->setData(e.data);
            e.attributes = std::move(quad.attributes);
            e.renderer = quad.renderer;
            e.renderer->setInstanceCount(0);
            auto* mat = new Qt3DRender::QMaterial(e.entity);
            Qt3DRender::QAbstractTexture* tex = nullptr;
            if (!em.colorTexture.empty()) {
                Qt3DRender::QAbstractTexture* t =
                    textures.get(em.colorTexture, label, 0, QStringLiteral("ParticleTexture"), mat);
                if (t != textures.checker()) tex = t;
            }
            mat->setEffect(effect(kind, em.params.noDepthTest, tex != nullptr,
                                  e.lines                   ? 3
                                  : kite                    ? 2
                                  : em.params.worldOriented ? 1
                                                            : 0));
            addParam(mat, "particleTexture", QVariant::fromValue(tex ? tex : textures.white()));
            addParam(mat, "tailSize", e.tail);
            {
                // The bounding volume Qt3D sorts the transparent layer by (orderEmitters writes the points).
                Qt3DCore::QGeometry* g = e.renderer->geometry();
                e.bounds = new Qt3DCore::QBuffer(g);
                e.bounds->setData(QByteArray(int(4 * 3 * sizeof(float)), '\0'));
                g->setBoundingVolumePositionAttribute(
                    addAttribute(g, e.bounds, "particleBounds", Qt3DCore::QAttribute::Float, 3, 0, 12, 4));
            }
            e.entity->addComponent(e.renderer);
            e.entity->addComponent(mat);
            e.entity->setEnabled(false);
            e.enabled = false;
            emitters_.push_back(std::move(e));
        }
    }
}

void Particles::upload(Emitter& e, const rs::ParticleBuffer& buf, uint32_t grid, const glm::vec3& eye) {
    const rs::ParticleBuffer::Range r =
        e.emitter < buf.emitters.size() ? buf.emitters[e.emitter] : rs::ParticleBuffer::Range{};
    const uint particles = std::min<uint>(r.count, uint(buf.count > r.begin ? buf.count - r.begin : 0));
    uint n = particles;
    if (e.lines) {
        segments_.clear();
        const rs::ParticleEmitter& em = attachments_[e.attachment].system->emitters[e.emitter];
        rs::w3dLineSegments(em, particles ? &buf.particles[r.begin] : nullptr, particles, segments_);
        n = uint(segments_.size());
    }
    if (n > e.capacity) {
        while (e.capacity < n)
            e.capacity *= 2;
        e.data = QByteArray(int(e.capacity * kStride), '\0');
        for (Qt3DCore::QAttribute* a : e.attributes)
            a->setCount(e.capacity);
    }
    order_.resize(n);
    for (uint i = 0; i < n; ++i) {
        const glm::vec3 at =
            e.lines ? (segments_[i].head + segments_[i].tail) * 0.5f : buf.particles[r.begin + i].position;
        const glm::vec3 d = at - eye;
        const float d2 = glm::dot(d, d);
        order_[i] = {std::isfinite(d2) ? d2 : 0.0f, i};
    }
    if (e.sortBackToFront)
        std::sort(order_.begin(), order_.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    float* f = reinterpret_cast<float*>(e.data.data());
    for (uint i = 0; e.lines && i < n; ++i, f += kFloats) {
        // A segment: head and width, head colour, the whole texture, tail colour mode, head-to-tail vector.
        const rs::W3dLineSegment& sg = segments_[order_[i].second];
        const glm::vec3 d = sg.tail - sg.head;
        const float v[kFloats] = {sg.head.x,
                                  sg.head.y,
                                  sg.head.z,
                                  sg.width,
                                  sg.color.r,
                                  sg.color.g,
                                  sg.color.b,
                                  sg.color.a,
                                  0.0f,
                                  0.0f,
                                  1.0f,
                                  1.0f,
                                  float(int(sg.tailColor)),
                                  d.x,
                                  d.y,
                                  d.z};
        std::memcpy(f, v, sizeof(v));
    }
    for (uint i = 0; !e.lines && i < n; ++i, f += kFloats) {
        const rs::SimParticle& p = buf.particles[r.begin + order_[i].second];
        // The vertex shader's test, in the same terms: does this particle go to the low-resolution target? If so
        // the composite must cover its quad (a circle of radius size / sqrt(2) around any rotation).
        if (e.lowResCapable && enabled_) {
            const float depth = glm::dot(p.position - eye, forward_);
            const float perDepth = 1.0f / std::max(depth, 1e-3f);
            const float pixels = p.size * p11_ * 0.5f * height_ * perDepth;
            // (Within 2 % of the threshold the particle is counted too: the shader's float arithmetic may round
            // the other way, and then the composite must still cover it.)
            if (pixels >= lowResMinPixels_ * 0.98f) {
                lowResUsed_ = lowResUsed_ || pixels >= lowResMinPixels_;
                const float w = std::abs(p.size) * p00_ * 0.5f * width_ * perDepth, h = std::abs(pixels);
                lowFill_ += std::min(w * h, width_ * height_) / (width_ * height_);
                const glm::vec4 c = viewProjection_ * glm::vec4(p.position, 1.0f);
                if (e.worldOriented || !(c.w > 1e-3f) || !std::isfinite(c.x) || !std::isfinite(c.y)) {
                    lowTiles_.addAll();
                } else {
                    // The quad's bounds grown by two low-resolution texels at the coarsest divisor (bilinear
                    // upsampling reads one beyond).
                    const float r = (std::abs(p.size) + e.tail) * 0.7072f / c.w;
                    const glm::vec2 ndc(c.x / c.w, c.y / c.w);
                    const glm::vec2 half(r * p00_ + 4.0f * float(FrameGraph::kMaxLowResDivisor) / width_,
                                         r * p11_ + 4.0f * float(FrameGraph::kMaxLowResDivisor) / height_);
                    lowTiles_.add({ndc.x - half.x, ndc.y - half.y, ndc.x + half.x, ndc.y + half.y});
                }
            }
        }
        const glm::vec4 rect = rs::atlasRect(p.frame, grid);
        const float v[kFloats] = {p.position.x, p.position.y, p.position.z, p.size,      p.color.r, p.color.g,
                                  p.color.b,    p.color.a,    rect.x,       rect.y,      rect.z,    rect.w,
                                  p.rotation,   p.velocity.x, p.velocity.y, p.velocity.z};
        std::memcpy(f, v, sizeof(v));
    }
    if (n > 0) {
        if (e.data.size() != e.buffer->data().size())
            e.buffer->setData(e.data);
        else
            e.buffer->updateData(0, e.data.left(int(n * kStride)));
    }
    e.renderer->setInstanceCount(int(n));
    const bool on = n > 0 && enabled_;
    if (on != e.enabled) {
        e.entity->setEnabled(on);
        e.enabled = on;
    }
    drawn_ += n;
}

void Particles::update(double time, const BoneWorld& boneWorld, const std::function<bool(size_t)>& shown,
                       const glm::vec3& eye) {
    drawn_ = 0;
    lowResUsed_ = false;
    lowTiles_.reset(int(width_), int(height_));
    lowFill_ = 0.0f;
    std::vector<bool> live(attachments_.size(), false);
    for (size_t a = 0; a < attachments_.size(); ++a) {
        System& s = systems_[a];
        if (!s.sim || !enabled_ || !shown(a)) continue;
        rs::ParticleSimOptions o;
        o.seed = s.seed;
        const int bone = attachments_[a].bone;
        o.emitterTransform = [&boneWorld, bone](double t) { return boneWorld(bone, t); };
        s.sim->evaluate(time, o, s.buffer);
        live[a] = true;
    }
    for (Emitter& e : emitters_) {
        if (!live[e.attachment]) {
            if (e.enabled) {
                e.entity->setEnabled(false);
                e.enabled = false;
            }
            continue;
        }
        const System& s = systems_[e.attachment];
        upload(e, s.buffer, s.sim->atlasGrid(e.emitter), eye);
    }
    orderEmitters(eye);
    // Without large particles every particle is drawn at full size and the low-resolution target is off.
    const float threshold = lowResUsed_ ? lowResMinPixels_ : std::numeric_limits<float>::max();
    for (Qt3DRender::QParameter* p : thresholds_)
        if (p->value().toFloat() != threshold) p->setValue(threshold);
    if (lowResUsed_ && composite_) {
        // One instance per run of marked tiles: outside them the low-resolution target holds nothing (cleared to
        // transparent, and no low-resolution quad reaches there), so the composite would change no pixel.
        const std::vector<glm::vec4>& rects = lowTiles_.rects();
        if (rects != compositeRectsShown_) {
            compositeRectsShown_ = rects;
            const uint n = uint(rects.size());
            QByteArray bytes(reinterpret_cast<const char*>(rects.data()), int(n * sizeof(glm::vec4)));
            if (n > compositeCapacity_) {
                while (compositeCapacity_ < n)
                    compositeCapacity_ *= 2;
                compositeRectAttr_->setCount(compositeCapacity_);
                bytes.resize(int(16 * compositeCapacity_));
                compositeRects_->setData(bytes);
            } else if (n > 0) {
                compositeRects_->updateData(0, bytes);
            }
            compositeRenderer_->setInstanceCount(int(n));
        }
    } else {
        compositeRectsShown_.clear();
    }
    const bool compositeOn = lowResUsed_ && !compositeRectsShown_.empty();
    if (composite_ && composite_->isEnabled() != compositeOn) composite_->setEnabled(compositeOn);
}

void Particles::orderEmitters(const glm::vec3& eye) {
    // Emitter k drawn this frame sits eps * k nearer the eye than the origin along the view direction: depths
    // strictly decrease in the emitters' order, so the back-to-front sort draws them in that order. eps is a
    // ten-thousandth of the origin's distance (far above float rounding of the depth, far below any mesh's).
    const float eps = 1e-4f * (glm::length(eye) + 1.0f);
    int k = 0;
    for (Emitter& e : emitters_) {
        if (!e.enabled || !e.bounds) continue;
        const glm::vec3 c = -forward_ * (eps * float(k++));
        if (c == e.boundsCentre) continue;
        e.boundsCentre = c;
        // Two opposite corners, twice each, of a box a quarter eps around the centre: the sort reads its centre only.
        const float h = 0.25f * eps;
        const float p[12] = {c.x - h, c.y - h, c.z - h, c.x + h, c.y + h, c.z + h,
                             c.x - h, c.y - h, c.z - h, c.x + h, c.y + h, c.z + h};
        e.bounds->setData(QByteArray(reinterpret_cast<const char*>(p), int(sizeof(p))));
    }
}

void Particles::setEnabled(bool on) {
    enabled_ = on;
    if (on) return;
    lowResUsed_ = false;
    if (composite_) composite_->setEnabled(false);
    for (Emitter& e : emitters_)
        if (e.enabled) {
            e.entity->setEnabled(false);
            e.enabled = false;
        }
}

QStringList Particles::notDrawn() const { return notDrawn_; }

bool Particles::sortsByView() const {
    for (const Emitter& e : emitters_)
        if (e.sortBackToFront && e.enabled) return true;
    return false;
}

void Particles::samplePoints(double seconds, const BoneWorld& boneWorld, std::vector<glm::vec3>& out,
                             const std::function<bool(size_t)>& shown) const {
    for (size_t a = 0; a < attachments_.size(); ++a) {
        const System& s = systems_[a];
        if (!s.sim || (shown && !shown(a))) continue;
        rs::ParticleBuffer buf(4096, attachments_[a].system->emitters.size());
        rs::ParticleSimOptions o;
        o.seed = s.seed;
        const int bone = attachments_[a].bone;
        o.emitterTransform = [&boneWorld, bone](double t) { return boneWorld(bone, t); };
        for (int k = 1; k <= 8; ++k) {
            s.sim->evaluate(seconds * k / 8.0, o, buf);
            for (size_t i = 0; i < buf.count; i += std::max<size_t>(1, buf.count / 256)) {
                const rs::SimParticle& p = buf.particles[i];
                if (!std::isfinite(p.position.x) || !std::isfinite(p.position.y) || !std::isfinite(p.position.z) ||
                    !std::isfinite(p.size))
                    continue;
                const float h = std::min(std::abs(p.size) * 0.5f, 1e6f);
                out.push_back(p.position - glm::vec3(h));
                out.push_back(p.position + glm::vec3(h));
            }
        }
    }
}

} // namespace rs::render
