#include "w3d_primitives.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "w3d/w3d_fx.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QRenderPass>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rs::render {

namespace {

// The line program's vertex (glsl/line.vert): position, colour, palette slot and bone id (0xFFFF: none).
struct Vertex {
    glm::vec3 p;
    glm::vec4 c;
    uint16_t slot, bone;
};
static_assert(sizeof(Vertex) == 32, "packed primitive vertex");

constexpr int kSlices = 24, kStacks = 16, kSegments = 48;
constexpr int kSphereVertices = kSlices * kStacks * 6, kRingVertices = kSegments * 6;

// The draw kind of a W3D shader's blend (w3d_file.h: src ZERO 0, ONE 1, SRC_ALPHA 2, ONE_MINUS_SRC_ALPHA 3; dst
// ZERO 0, ONE 1, SRC_COLOR 2, ONE_MINUS_SRC_COLOR 3, SRC_ALPHA 4, ONE_MINUS_SRC_ALPHA 5): 1 additive (dst ONE),
// 2 alpha (dst ONE_MINUS_SRC_ALPHA), 3 modulate (dst SRC_COLOR), else 0 opaque.
int kindOf(const rs::w3d::Shader& s) {
    if (s.destBlend == 1) return 1;
    if (s.destBlend == 5) return 2;
    if (s.destBlend == 2 && s.srcBlend == 0) return 3;
    return 0;
}

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

} // namespace

W3dPrimitives::W3dPrimitives(Qt3DCore::QNode* root)
    : root_(root), program_(std::make_unique<fx::OnDemandProgram>(root, shaders::lineVertex, shaders::lineFragment)) {}

W3dPrimitives::~W3dPrimitives() = default;

Qt3DRender::QEffect* W3dPrimitives::effect(int kind) {
    using BA = Qt3DRender::QBlendEquationArguments;
    using DT = Qt3DRender::QDepthTest;
    if (auto it = effects_.find(kind); it != effects_.end()) return it->second;
    auto* p = program_->pass(kind == 0 ? "opaque" : "transparent");
    fx::depth(p, DT::LessOrEqual, kind == 0);
    if (kind == 1) fx::blend(p, BA::One, BA::One);
    if (kind == 2) fx::blend(p, BA::SourceAlpha, BA::OneMinusSourceAlpha);
    if (kind == 3) fx::blend(p, BA::DestinationColor, BA::Zero);
    return effects_[kind] = fx::effect(root_, {p});
}

void W3dPrimitives::reset() {
    items_.clear();
    notDrawn_.clear();
    drawn_ = 0;
}

void W3dPrimitives::build(Qt3DCore::QEntity* parent, const rs::Model& model, int identitySlot) {
    reset();
    identitySlot_ = uint16_t(std::clamp(identitySlot, 0, shaders::kMaxPalette - 1));
    for (const rs::Marker& m : model.markers) {
        if (!m.fx || (!m.fx->sphere && !m.fx->ring)) continue;
        Item it;
        it.fx = m.fx;
        it.bone = m.bone;
        it.local = m.transform;
        const rs::w3d::Shader& sh = m.fx->sphere ? m.fx->sphere->shader : m.fx->ring->shader;
        it.kind = kindOf(sh);
        const std::string& tex = m.fx->sphere ? m.fx->sphere->texture : m.fx->ring->texture;
        if (!tex.empty())
            notDrawn_ << QStringLiteral("%1: texture %2 not drawn (untextured surface)")
                             .arg(QString::fromStdString(m.name), QString::fromStdString(tex));
        if (m.fx->sphere && (m.fx->sphere->flags & 1u))
            notDrawn_
                << QStringLiteral("%1: alpha vector not drawn (uniform alpha)").arg(QString::fromStdString(m.name));
        const int n = m.fx->sphere ? kSphereVertices : kRingVertices;
        it.entity = new Qt3DCore::QEntity(parent);
        auto* g = new Qt3DCore::QGeometry(it.entity);
        it.buffer = new Qt3DCore::QBuffer(g);
        it.buffer->setUsage(Qt3DCore::QBuffer::StreamDraw);
        it.buffer->setData(QByteArray(int(n * sizeof(Vertex)), '\0'));
        using VT = Qt3DCore::QAttribute::VertexBaseType;
        addAttribute(g, it.buffer, "vertexPosition", VT::Float, 3, 0, 32, uint(n));
        addAttribute(g, it.buffer, "vertexColor", VT::Float, 4, 12, 32, uint(n));
        addAttribute(g, it.buffer, "lineBone", VT::UnsignedShort, 2, 28, 32, uint(n));
        auto* gr = new Qt3DRender::QGeometryRenderer(it.entity);
        gr->setGeometry(g);
        gr->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
        gr->setVertexCount(n);
        auto* mat = new Qt3DRender::QMaterial(it.entity);
        mat->setEffect(effect(it.kind));
        it.entity->addComponent(gr);
        it.entity->addComponent(mat);
        it.entity->setEnabled(false);
        items_.push_back(it);
    }
    if (!items_.empty()) program_->require();
}

void W3dPrimitives::update(double seconds, const BoneWorld& boneWorld, const glm::vec3& eye,
                           const std::function<bool(int bone)>& shown) {
    drawn_ = 0;
    std::vector<Vertex> v;
    for (Item& it : items_) {
        const bool on = enabled_ && shown(it.bone);
        if (!on) {
            if (it.enabled) it.entity->setEnabled(false);
            it.enabled = false;
            continue;
        }
        const float t = std::isfinite(seconds) ? float(seconds) : 0.0f;
        const rs::w3d::PrimitiveState st =
            it.fx->sphere ? rs::w3d::sphereState(*it.fx->sphere, t) : rs::w3d::ringState(*it.fx->ring, t);
        // Colour per blend: additive adds colour * alpha, alpha blends colour by alpha, others use the colour.
        const float a = std::clamp(std::isfinite(st.alpha) ? st.alpha : 1.0f, 0.0f, 1.0f);
        glm::vec3 rgb = glm::clamp(finite(st.color) ? st.color : glm::vec3(1.0f), 0.0f, 1.0f);
        if (it.kind == 1) rgb *= a;
        const glm::vec4 c(rgb, it.kind == 2 ? a : 1.0f);
        const glm::mat4 frame = boneWorld(it.bone) * it.local;
        v.clear();
        auto push = [&](const glm::vec3& p) { v.push_back({p, c, identitySlot_, 0xFFFF}); };
        if (it.fx->sphere) {
            const glm::vec3 r = it.fx->sphere->extent * st.scale;
            auto at = [&](int i, int j) {
                const float th = float(i) * 6.2831853f / kSlices, ph = float(j) * 3.1415927f / kStacks;
                const glm::vec3 unit(std::sin(ph) * std::cos(th), std::sin(ph) * std::sin(th), std::cos(ph));
                return glm::vec3(frame * glm::vec4(unit * r, 1.0f));
            };
            for (int j = 0; j < kStacks; ++j)
                for (int i = 0; i < kSlices; ++i) {
                    const glm::vec3 a0 = at(i, j), a1 = at(i + 1, j), b0 = at(i, j + 1), b1 = at(i + 1, j + 1);
                    push(a0), push(b0), push(a1), push(a1), push(b0), push(b1);
                }
        } else {
            // The ring's plane: the bone's XY, or facing the eye when camera aligned (flag 1).
            glm::vec3 o(frame[3]), ax(frame[0]), ay(frame[1]);
            if (it.fx->ring->flags & 1u) {
                const glm::vec3 toEye = eye - o;
                const float len = glm::length(toEye);
                if (len > 1e-6f && std::isfinite(len)) {
                    const glm::vec3 n = toEye / len;
                    const glm::vec3 up = std::abs(n.z) < 0.99f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
                    const glm::vec3 x = glm::normalize(glm::cross(up, n));
                    ax = x * glm::length(glm::vec3(frame[0]));
                    ay = glm::cross(n, x) * glm::length(glm::vec3(frame[1]));
                }
            }
            auto at = [&](int i, const glm::vec2& r) {
                const float th = float(i) * 6.2831853f / kSegments;
                return o + ax * (std::cos(th) * r.x) + ay * (std::sin(th) * r.y);
            };
            for (int i = 0; i < kSegments; ++i) {
                const glm::vec3 i0 = at(i, st.innerRadius), i1 = at(i + 1, st.innerRadius), o0 = at(i, st.outerRadius),
                                o1 = at(i + 1, st.outerRadius);
                push(i0), push(o0), push(i1), push(i1), push(o0), push(o1);
            }
        }
        for (Vertex& x : v)
            if (!finite(x.p)) x.p = glm::vec3(0.0f); // a hostile key collapses its triangles, nothing else
        it.buffer->updateData(0, QByteArray(reinterpret_cast<const char*>(v.data()), int(v.size() * sizeof(Vertex))));
        if (!it.enabled) it.entity->setEnabled(true);
        it.enabled = true;
        ++drawn_;
    }
}

void W3dPrimitives::setEnabled(bool on) {
    enabled_ = on;
    if (on) return;
    for (Item& it : items_)
        if (it.enabled) {
            it.entity->setEnabled(false);
            it.enabled = false;
        }
}

} // namespace rs::render
