#include "w3d_primitives.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "texture_cache.h"
#include "w3d/w3d_fx.h"
#include "w3d/w3d_primitive_mesh.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QAbstractTexture>
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

// glsl/w3d_prim.vert's vertex: position, colour, UV (Direct3D's), palette slot and an unused bone id.
struct Vertex {
    glm::vec3 p;
    glm::vec4 c;
    glm::vec2 uv;
    uint16_t slot, bone;
};
static_assert(sizeof(Vertex) == 40, "packed primitive vertex");

// ww3d2's meshes at their finest level of detail, shared by every primitive (the ring's UVs depend on its tiling
// and are made per ring).
const rs::w3d::PrimitiveMesh& unitSphere() {
    static const rs::w3d::PrimitiveMesh m = rs::w3d::sphereMesh(rs::w3d::kSphereSlices, rs::w3d::kSphereStacks);
    return m;
}

// The draw kind of a W3D shader's blend (w3d_file.h: src ZERO 0, ONE 1, SRC_ALPHA 2, ONE_MINUS_SRC_ALPHA 3; dst
// ZERO 0, ONE 1, SRC_COLOR 2, ONE_MINUS_SRC_COLOR 3, SRC_ALPHA 4, ONE_MINUS_SRC_ALPHA 5): 1 additive (dst ONE),
// 2 alpha (dst ONE_MINUS_SRC_ALPHA), 3 modulate (dst SRC_COLOR), else 0 opaque.
int kindOf(const rs::w3d::Shader& s) {
    if (s.destBlend == 1) return 1;
    if (s.destBlend == 5) return 2;
    if (s.destBlend == 2 && s.srcBlend == 0) return 3;
    return 0;
}

// The shader's primary gradient as the fragment stage knows it: 0 texture only, 2 add, 1 modulate (anything else).
int priOf(const rs::w3d::Shader& s) { return s.priGradient == 0 || s.priGradient == 2 ? s.priGradient : 1; }

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

QByteArray primSource(const char* stage, int kind, bool texture, int pri) {
    return QByteArray(shaders::desktopPrefix) + "#define BLEND_KIND " + QByteArray::number(kind) +
           "\n#define HAS_TEXTURE " + (texture ? "1" : "0") + "\n#define PRI " + QByteArray::number(pri) + "\n" + stage;
}

} // namespace

W3dPrimitives::W3dPrimitives(Qt3DCore::QNode* root) : root_(root) {}

W3dPrimitives::~W3dPrimitives() = default;

Qt3DRender::QEffect* W3dPrimitives::effect(int kind, bool texture, int pri) {
    using BA = Qt3DRender::QBlendEquationArguments;
    using DT = Qt3DRender::QDepthTest;
    const int key = (kind * 2 + (texture ? 1 : 0)) * 3 + pri;
    if (auto it = effects_.find(key); it != effects_.end()) return it->second;
    Qt3DRender::QShaderProgram*& prog = programs_[key];
    if (!prog)
        prog = fx::program(root_, primSource(shaders::w3dPrimVertex, kind, texture, pri).constData(),
                           primSource(shaders::w3dPrimFragment, kind, texture, pri).constData());
    auto* p = fx::pass(prog, kind == 0 ? "opaque" : "transparent");
    fx::depth(p, DT::LessOrEqual, kind == 0);
    if (kind == 1) fx::blend(p, BA::One, BA::One);
    if (kind == 2) fx::blend(p, BA::SourceAlpha, BA::OneMinusSourceAlpha);
    if (kind == 3) fx::blend(p, BA::DestinationColor, BA::Zero);
    return effects_[key] = fx::effect(root_, {p});
}

void W3dPrimitives::reset() {
    items_.clear();
    notDrawn_.clear();
    drawn_ = 0;
}

void W3dPrimitives::build(Qt3DCore::QEntity* parent, const rs::Model& model, int identitySlot, TextureCache& textures) {
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
        const std::string& texName = m.fx->sphere ? m.fx->sphere->texture : m.fx->ring->texture;
        const QString label = QString::fromStdString(m.name);
        it.entity = new Qt3DCore::QEntity(parent);
        auto* mat = new Qt3DRender::QMaterial(it.entity);
        Qt3DRender::QAbstractTexture* tex = nullptr;
        if (!texName.empty()) {
            Qt3DRender::QAbstractTexture* t = textures.get(
                texName, label, 0, m.fx->sphere ? QStringLiteral("SphereTexture") : QStringLiteral("RingTexture"), mat);
            if (t != textures.checker())
                tex = t;
            else
                notDrawn_ << QStringLiteral("%1: texture %2 not found (drawn untextured)")
                                 .arg(label, QString::fromStdString(texName));
        }
        const int n = m.fx->sphere ? int(unitSphere().indices.size()) : rs::w3d::kRingSlices * 2 * 3;
        if (m.fx->ring)
            it.ringMesh = std::make_shared<rs::w3d::PrimitiveMesh>(
                rs::w3d::ringMesh(rs::w3d::kRingSlices, m.fx->ring->textureTiles));
        auto* g = new Qt3DCore::QGeometry(it.entity);
        it.buffer = new Qt3DCore::QBuffer(g);
        it.buffer->setUsage(Qt3DCore::QBuffer::StreamDraw);
        it.buffer->setData(QByteArray(int(n * sizeof(Vertex)), '\0'));
        using VT = Qt3DCore::QAttribute::VertexBaseType;
        addAttribute(g, it.buffer, "vertexPosition", VT::Float, 3, 0, 40, uint(n));
        addAttribute(g, it.buffer, "vertexColor", VT::Float, 4, 12, 40, uint(n));
        addAttribute(g, it.buffer, "vertexTexCoord", VT::Float, 2, 28, 40, uint(n));
        addAttribute(g, it.buffer, "lineBone", VT::UnsignedShort, 2, 36, 40, uint(n));
        auto* gr = new Qt3DRender::QGeometryRenderer(it.entity);
        gr->setGeometry(g);
        gr->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
        gr->setVertexCount(n);
        mat->setEffect(effect(it.kind, tex != nullptr, priOf(sh)));
        addParam(mat, "primTexture", QVariant::fromValue(tex ? tex : textures.white()));
        it.entity->addComponent(gr);
        it.entity->addComponent(mat);
        it.entity->setEnabled(false);
        items_.push_back(it);
    }
}

void W3dPrimitives::update(double seconds, const BoneWorld& boneWorld, const glm::mat4& view,
                           const std::function<bool(int bone)>& shown) {
    drawn_ = 0;
    // The camera's axes in the world (rows of the view rotation): right, up and back (towards the viewer).
    const glm::vec3 right(view[0][0], view[1][0], view[2][0]), up(view[0][1], view[1][1], view[2][1]),
        back(view[0][2], view[1][2], view[2][2]);
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
        // ww3d2's colour: additive: emissive = alpha * colour; others: emissive = colour, opacity = alpha.
        const float a = std::clamp(std::isfinite(st.alpha) ? st.alpha : 1.0f, 0.0f, 1.0f);
        glm::vec3 rgb = glm::clamp(finite(st.color) ? st.color : glm::vec3(1.0f), 0.0f, 1.0f);
        if (it.kind == 1) rgb *= a;
        const glm::vec4 c(rgb, it.kind == 1 ? 1.0f : a);
        const glm::mat4 frame = boneWorld(it.bone) * it.local;
        const glm::vec3 o(frame[3]);
        v.clear();
        if (it.fx->sphere) {
            const rs::w3d::Sphere& s = *it.fx->sphere;
            const rs::w3d::PrimitiveMesh& mesh = unitSphere();
            const glm::vec3 r = s.extent * st.scale;
            const bool useVector = (s.flags & 1u) != 0, inverse = (s.flags & 4u) != 0, aligned = (s.flags & 2u) != 0;
            const rs::w3d::AlphaVector av = rs::w3d::sphereVector(s, t);
            for (uint16_t idx : mesh.indices) {
                const rs::w3d::PrimitiveVertex& pv = mesh.vertices[idx];
                const glm::vec3 q = pv.position * r;
                const glm::vec3 p =
                    aligned ? o + back * q.x + right * q.y + up * q.z : glm::vec3(frame * glm::vec4(q, 1.0f));
                glm::vec4 col = c;
                if (useVector) {
                    const float f = rs::w3d::alphaVectorValue(av, pv.normal, inverse);
                    if (it.kind == 1)
                        col = glm::vec4(glm::vec3(col) * f, col.a);
                    else
                        col.a *= f;
                }
                v.push_back({p, col, pv.uv, identitySlot_, 0xFFFF});
            }
        } else {
            const rs::w3d::Ring& g = *it.fx->ring;
            glm::vec3 ax(frame[0]), ay(frame[1]);
            if (g.flags & 1u) { // camera aligned: the camera's right/up plane, the bone's scale kept
                ax = right * glm::length(glm::vec3(frame[0]));
                ay = up * glm::length(glm::vec3(frame[1]));
            }
            const rs::w3d::PrimitiveMesh& mesh = *it.ringMesh;
            for (uint16_t idx : mesh.indices) {
                const rs::w3d::PrimitiveVertex& pv = mesh.vertices[idx];
                const glm::vec2 xy = rs::w3d::ringPoint(pv, idx, st.innerRadius, st.outerRadius);
                v.push_back({o + ax * xy.x + ay * xy.y, c, pv.uv, identitySlot_, 0xFFFF});
            }
        }
        for (Vertex& x : v) {
            if (!finite(x.p)) x.p = glm::vec3(0.0f); // a hostile key collapses its triangles, nothing else
            if (!std::isfinite(x.uv.x) || !std::isfinite(x.uv.y)) x.uv = glm::vec2(0.0f);
        }
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
