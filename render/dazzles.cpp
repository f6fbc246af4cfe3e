#include "dazzles.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "texture_cache.h"

#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QTexture>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rs::render {

glm::mat4 billboardMatrix(int mode, const glm::mat4& w, const glm::mat4& inv, bool zUp, const glm::vec3& lightDir) {
    if (mode == 0) return w;
    const glm::vec3 t(w[3]);
    const glm::vec3 sc(glm::length(glm::vec3(w[0])), glm::length(glm::vec3(w[1])), glm::length(glm::vec3(w[2])));
    const glm::vec3 right(inv[0]), upv(inv[1]), back(inv[2]), eye(inv[3]);
    glm::mat3 r;
    const glm::vec3 worldUp = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
    switch (mode) {
    case int(rs::BillboardMode::ZAxisView):
    case int(rs::BillboardMode::ZAxisLight):
    case int(rs::BillboardMode::ZAxisWind): {
        // Rotate about the world up axis so local -Y points at the eye (light, wind).
        glm::vec3 to = mode == int(rs::BillboardMode::ZAxisView)    ? eye - t
                       : mode == int(rs::BillboardMode::ZAxisLight) ? -lightDir
                                                                    : glm::vec3(1, 0, 0);
        to -= worldUp * glm::dot(to, worldUp);
        if (glm::length(to) < 1e-6f) return w;
        const glm::vec3 ny = -glm::normalize(to);
        const glm::vec3 nx = glm::normalize(glm::cross(ny, worldUp));
        r = glm::mat3(nx, ny, worldUp);
        break;
    }
    default: // parallel, face camera, sun, sunlight glow: local -Y towards the viewer, +Z up on screen
        r = glm::mat3(right, -back, upv);
        break;
    }
    glm::mat4 o(1.0f);
    o[0] = glm::vec4(r[0] * sc.x, 0.0f);
    o[1] = glm::vec4(r[1] * sc.y, 0.0f);
    o[2] = glm::vec4(r[2] * sc.z, 0.0f);
    o[3] = glm::vec4(t, 1.0f);
    return o;
}

Dazzles::Dazzles(Qt3DCore::QNode* root) : program_(root, shaders::dazzleVertex, shaders::dazzleFragment) {
    using BA = Qt3DRender::QBlendEquationArguments;
    auto* dz = program_.pass("transparent");
    fx::depth(dz, Qt3DRender::QDepthTest::LessOrEqual, false);
    fx::blend(dz, BA::One, BA::One);
    effect_ = fx::effect(root, {dz});
}

void Dazzles::reset() {
    entity_ = nullptr;
    buffer_ = nullptr;
    colors_.clear();
}

void Dazzles::build(Qt3DCore::QEntity* parent, const rs::Model& m, TextureCache& textures, const QColor& factionColor) {
    using Qt3DCore::QAttribute;
    const uint n = uint(m.dazzles.size());
    entity_ = new Qt3DCore::QEntity(parent);
    if (n == 0) return;
    const InstancedQuad quad = makeInstancedQuad(entity_, {"dazzleCenter", "dazzleColor", "dazzleRect"}, n);
    buffer_ = quad.instances;
    data_ = QByteArray(int(n) * 48, '\0');
    buffer_->setData(data_);
    Qt3DRender::QGeometryRenderer* gr = quad.renderer;
    auto* mat = new Qt3DRender::QMaterial(entity_);
    mat->setEffect(effect_);
    Qt3DRender::QParameter* texP = addParam(mat, "dazzleTexture", QVariant());
    // One texture for the single draw: the first dazzle texture that resolves.
    Qt3DRender::QAbstractTexture* tex = nullptr;
    for (const rs::Dazzle& dz : m.dazzles) {
        if (dz.texture.empty()) continue;
        Qt3DRender::QAbstractTexture* t =
            textures.get(dz.texture, QString::fromStdString(dz.name), 0, QStringLiteral("Dazzle"), mat);
        if (t != textures.checker()) {
            tex = t;
            break;
        }
    }
    texP->setValue(QVariant::fromValue(tex ? tex : textures.white()));
    addParam(mat, "hasTexture", tex ? 1 : 0);
    // Atlas rects are in the file's convention (v down from the image top); uploads put the top at v = 1.
    addParam(mat, "textureFlip", 1);
    entity_->addComponent(gr);
    entity_->addComponent(mat);
    setFactionColor(m, factionColor);
}

void Dazzles::setFactionColor(const rs::Model& model, const QColor& fc) {
    colors_.clear();
    const glm::vec3 faction(float(fc.redF()), float(fc.greenF()), float(fc.blueF()));
    for (const rs::Dazzle& dz : model.dazzles) {
        const glm::vec3 c = dazzleColor(dz, faction); // render/dazzle_rules.h
        colors_.push_back(c);
    }
}

void Dazzles::update(const rs::Model& m, const std::vector<glm::mat4>& world, const std::vector<uint8_t>& visible,
                     float time, bool night, bool showHidden) {
    if (!buffer_) return;
    float* f = reinterpret_cast<float*>(data_.data());
    for (size_t i = 0; i < m.dazzles.size(); ++i, f += 12) {
        const rs::Dazzle& dz = m.dazzles[i];
        float k = dazzleBlink(dz, time);
        const bool boneOk = dz.bone >= 0 && size_t(dz.bone) < m.skeleton.bones.size();
        if (!boneOk || !visible[size_t(dz.bone)]) k = 0.0f;
        if (dz.nightOnly && !night) k = 0.0f;
        if (dz.hidden && !showHidden) k = 0.0f;
        const glm::vec3 p = boneOk ? glm::vec3(world[size_t(dz.bone)] * glm::vec4(dz.position, 1.0f)) : dz.position;
        const glm::vec3 c = i < colors_.size() ? colors_[i] : dz.color;
        const glm::vec4 r = dazzleRect(dz); // render/dazzle_rules.h, the page's too
        const float vals[12] = {p.x, p.y, p.z, k > 0.0f ? dz.radius : 0.0f, c.r, c.g, c.b, k, r.x, r.y, r.z, r.w};
        std::memcpy(f, vals, sizeof(vals));
    }
    buffer_->updateData(0, data_);
}

void Dazzles::setEnabled(bool on) {
    if (entity_) entity_->setEnabled(on);
    if (on && buffer_) program_.require(); // a model without dazzles draws none
}

} // namespace rs::render
