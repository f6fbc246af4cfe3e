#include "w3d_primitives.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "texture_cache.h"
#include "w3d/w3d_fx.h"
#include "w3d/w3d_primitive_mesh.h"
#include "w3d_prim_rules.h"

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
        it.kind = w3dPrimKind(sh);
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
        const int n = w3dPrimVertexCount(*m.fx);
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
        mat->setEffect(effect(it.kind, tex != nullptr, w3dPrimPri(sh)));
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
    std::vector<PrimVertex> pv;
    std::vector<Vertex> v;
    for (Item& it : items_) {
        const bool on = enabled_ && shown(it.bone);
        if (!on) {
            if (it.enabled) it.entity->setEnabled(false);
            it.enabled = false;
            continue;
        }
        w3dPrimTriangles(*it.fx, it.ringMesh.get(), it.kind, seconds, boneWorld(it.bone) * it.local, view, pv);
        v.clear();
        for (const PrimVertex& x : pv)
            v.push_back({x.p, x.c, x.uv, identitySlot_, 0xFFFF});
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
