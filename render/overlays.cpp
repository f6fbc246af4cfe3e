#include "overlays.h"

#include "game_text.h"

#include "qt3d_helpers.h"
#include "scene_view.h"
#include "shaders.h"
#include "textures.h"

#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QVector4D>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QTexture>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rs::render {

// Line vertex attached to palette slot `slot`; `bone` is the bone it belongs to (highlighting), 0xFFFF = none.
struct Overlays::LineVertex {
    glm::vec3 p;
    glm::vec4 c;
    uint16_t slot, bone;
};

Overlays::Overlays(Qt3DCore::QNode* root)
    : lineProgram_(root, shaders::lineVertex, shaders::lineFragment),
      labelProgram_(root, shaders::labelVertex, shaders::labelFragment) {
    using BA = Qt3DRender::QBlendEquationArguments;
    using DT = Qt3DRender::QDepthTest;
    auto* ln = lineProgram_.pass("opaque");
    fx::depth(ln, DT::Less, true);
    fxLines_ = fx::effect(root, {ln});
    auto* ov = lineProgram_.pass("overlay");
    fx::depth(ov, DT::Always, false);
    fxOverlayLines_ = fx::effect(root, {ov});
    auto* lb = labelProgram_.pass("overlay");
    fx::depth(lb, DT::Always, false);
    fx::blend(lb, BA::SourceAlpha, BA::OneMinusSourceAlpha);
    fxLabels_ = fx::effect(root, {lb});
}

void Overlays::reset() {
    skeleton_ = markers_ = grid_ = pointSets_ = labelEntity_ = nullptr;
    labelBuffer_ = nullptr;
    labels_.clear();
    hoverLabel_ = -1;
    labelsShown_ = 0;
}

Qt3DCore::QEntity* Overlays::lineEntity(Qt3DCore::QEntity* parent, const std::vector<LineVertex>& v,
                                        Qt3DRender::QEffect* fx) {
    auto* e = new Qt3DCore::QEntity(parent);
    if (v.empty()) return e;
    auto* g = new Qt3DCore::QGeometry(e);
    auto* buf = new Qt3DCore::QBuffer(g);
    static_assert(sizeof(LineVertex) == 32, "packed line vertex");
    QByteArray data(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(LineVertex)));
    buf->setData(data);
    const uint n = uint(v.size());
    using VT = Qt3DCore::QAttribute::VertexBaseType;
    addAttribute(g, buf, "vertexPosition", VT::Float, 3, 0, 32, n);
    addAttribute(g, buf, "vertexColor", VT::Float, 4, 12, 32, n);
    addAttribute(g, buf, "lineBone", VT::UnsignedShort, 2, 28, 32, n);
    auto* gr = new Qt3DRender::QGeometryRenderer(e);
    gr->setGeometry(g);
    gr->setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
    gr->setVertexCount(int(n));
    auto* mat = new Qt3DRender::QMaterial(e);
    mat->setEffect(fx);
    e->addComponent(gr);
    e->addComponent(mat);
    return e;
}

// Bit of LineVertex::slot asking line.vert for the slot's translation only (palette slots stay below it).
constexpr uint16_t kTranslateOnly = 0x8000;
static_assert(shaders::kMaxPalette <= kTranslateOnly, "palette slots below the translate-only bit");

// The 12 edges of the box of half size `extent` placed by `m`, as line vertex pairs.
template <class Vertex>
static void boxEdges(std::vector<Vertex>& out, const glm::mat4& m, const glm::vec3& extent, const glm::vec4& c,
                     uint16_t slot, uint16_t bone) {
    for (int e = 0; e < 12; ++e) {
        // 12 box edges: pick the varying axis and the two fixed signs.
        const int axisV = e / 4, a1 = (axisV + 1) % 3, a2 = (axisV + 2) % 3;
        for (int end = 0; end < 2; ++end) {
            glm::vec3 p;
            p[axisV] = end ? extent[axisV] : -extent[axisV];
            p[a1] = (e & 1) ? extent[a1] : -extent[a1];
            p[a2] = (e & 2) ? extent[a2] : -extent[a2];
            out.push_back({glm::vec3(m * glm::vec4(p, 1.0f)), c, slot, bone});
        }
    }
}

void Overlays::build(Qt3DCore::QEntity* parent, const rs::Model& model, const rs::Skeleton& skeleton, int identitySlot,
                     float radius, float groundLevel, bool zUp) {
    const int N = int(skeleton.bones.size());
    const auto slot = [](int s) { return uint16_t(std::min(s, shaders::kMaxPalette - 1)); };
    // Skeleton: a line from every bone to its parent.
    std::vector<LineVertex> sk;
    for (int b = 0; b < N; ++b) {
        const int p = skeleton.bones[size_t(b)].parent;
        if (p < 0) continue;
        const glm::vec4 c = b < int(model.skeleton.bones.size()) ? glm::vec4(0.9f, 0.9f, 0.95f, 1.0f)
                                                                 : glm::vec4(1.0f, 0.6f, 0.2f, 1.0f);
        sk.push_back({glm::vec3(0.0f), c, slot(b), uint16_t(b)});
        sk.push_back({glm::vec3(0.0f), c, slot(p), uint16_t(b)});
    }
    // Bone axes (short) so single bones are visible too.
    const float axis = radius * 0.02f;
    for (int b = 0; b < N; ++b) {
        for (int k = 0; k < 3; ++k) {
            glm::vec3 d(0.0f);
            d[k] = axis;
            glm::vec4 c(0.2f, 0.2f, 0.2f, 1.0f);
            c[k] = 1.0f;
            sk.push_back({glm::vec3(0.0f), c, slot(b), uint16_t(b)});
            sk.push_back({d, c, slot(b), uint16_t(b)});
        }
    }
    skeleton_ = lineEntity(parent, sk, fxOverlayLines_);

    // Proxies (orange crosses) and markers (cyan boxes / crosses).
    std::vector<LineVertex> mk;
    const float s = radius * 0.04f;
    auto cross = [&](const glm::mat4& m, int boneSlot, int boneId, glm::vec4 c, float size) {
        for (int k = 0; k < 3; ++k) {
            glm::vec3 d(0.0f);
            d[k] = size;
            mk.push_back({glm::vec3(m * glm::vec4(-d, 1.0f)), c, slot(boneSlot), uint16_t(boneId)});
            mk.push_back({glm::vec3(m * glm::vec4(d, 1.0f)), c, slot(boneSlot), uint16_t(boneId)});
        }
    };
    const int mainBones = int(model.skeleton.bones.size());
    for (const rs::Proxy& px : model.proxies)
        if (px.bone >= 0 && px.bone < mainBones) cross(glm::mat4(1.0f), px.bone, px.bone, {1.0f, 0.55f, 0.1f, 1.0f}, s);
    for (const rs::Marker& m : model.markers) {
        const int b = m.bone >= 0 && m.bone < mainBones ? m.bone : identitySlot;
        const glm::vec4 c(0.2f, 0.9f, 1.0f, 1.0f);
        if ((m.kind == "sphere" || m.kind == "ring") && glm::length(m.extent) > 0.0f) {
            // W3D spheres: three great circles of the radii (extent * scale); rings: the outer circle in XY.
            const int planes = m.kind == "sphere" ? 3 : 1;
            for (int pl = 0; pl < planes; ++pl) {
                const int a1 = pl == 2 ? 1 : 0, a2 = pl == 0 ? 1 : 2;
                for (int k = 0; k < 48; ++k)
                    for (int end = 0; end < 2; ++end) {
                        const float ang = float(k + end) * (6.2831853f / 48.0f);
                        glm::vec3 p(0.0f);
                        p[a1] = std::cos(ang) * m.extent[a1];
                        p[a2] = std::sin(ang) * m.extent[a2];
                        mk.push_back({glm::vec3(m.transform * glm::vec4(p, 1.0f)), c, slot(b), uint16_t(b)});
                    }
            }
        } else if (m.kind == "box") {
            continue; // collision boxes: with the point sets below (the View's Collision toggle)
        } else if (glm::length(m.extent) > 0.0f) {
            boxEdges(mk, m.transform, m.extent, c, slot(b), uint16_t(b));
        } else {
            cross(m.transform, b, b, c, s * 0.75f);
        }
    }
    markers_ = lineEntity(parent, mk, fxLines_);

    // Point sets (B&W2 collision footprint, unknown points), model space: closed outlines as loops,
    // other sets as small crosses. Capped so a hostile count cannot blow up the overlay.
    std::vector<LineVertex> ps;
    const uint16_t psSlot = slot(identitySlot);
    const float ps_s = radius * 0.015f;
    for (const rs::PointSet& set : model.pointSets) {
        const bool collision = set.kind == "collision";
        const glm::vec4 c = collision ? glm::vec4(1.0f, 0.35f, 0.3f, 1.0f) : glm::vec4(1.0f, 0.9f, 0.25f, 1.0f);
        const size_t n = std::min<size_t>(set.points.size(), 65536);
        if (set.closedLoop && n >= 2) {
            for (size_t i = 0; i < n; ++i) {
                ps.push_back({set.points[i], c, psSlot, 0xFFFF});
                ps.push_back({set.points[(i + 1) % n], c, psSlot, 0xFFFF});
            }
        } else {
            for (size_t i = 0; i < n; ++i)
                for (int k = 0; k < 3; ++k) {
                    glm::vec3 d(0.0f);
                    d[k] = ps_s;
                    ps.push_back({set.points[i] - d, c, psSlot, 0xFFFF});
                    ps.push_back({set.points[i] + d, c, psSlot, 0xFFFF});
                }
        }
    }
    // W3D/W3X collision boxes (ww3d2 BoxRenderObjClass), in their stored colour (the collision red when it is
    // black, which would not show on the dark background): oriented boxes turn with their bone; axis-aligned ones
    // (AABoxRenderObjClass) take only its translation (kTranslateOnly: line.vert adds the slot's translation).
    for (const rs::Marker& m : model.markers) {
        if (m.kind != "box") continue;
        const int b = m.bone >= 0 && m.bone < mainBones ? m.bone : identitySlot;
        const glm::vec4 c = m.color == glm::vec3(0.0f) ? glm::vec4(1.0f, 0.35f, 0.3f, 1.0f) : glm::vec4(m.color, 1.0f);
        const uint16_t boxSlot = uint16_t(slot(b) | (m.axisAligned ? kTranslateOnly : 0));
        const uint16_t boneId = b == identitySlot ? uint16_t(0xFFFF) : uint16_t(b);
        if (glm::length(m.extent) > 0.0f)
            boxEdges(ps, m.transform, m.extent, c, boxSlot, boneId);
        else
            for (int k = 0; k < 3; ++k) {
                glm::vec3 d(0.0f);
                d[k] = s * 0.75f;
                ps.push_back({glm::vec3(m.transform * glm::vec4(-d, 1.0f)), c, boxSlot, boneId});
                ps.push_back({glm::vec3(m.transform * glm::vec4(d, 1.0f)), c, boxSlot, boneId});
            }
    }
    pointSets_ = lineEntity(parent, ps, fxLines_);

    // Ground grid through the model's lowest point.
    std::vector<LineVertex> gr;
    float step = std::pow(10.0f, std::floor(std::log10(std::max(radius, 1e-3f) / 2.0f)));
    if (radius / step > 10.0f) step *= 2.0f;
    const int cells = 12;
    const float ext = step * cells;
    const glm::vec3 up = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
    const glm::vec3 ax = glm::vec3(1, 0, 0), ay = zUp ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
    for (int i = -cells; i <= cells; ++i) {
        const glm::vec4 c = i == 0 ? glm::vec4(0.55f, 0.55f, 0.6f, 1.0f) : glm::vec4(0.36f, 0.38f, 0.42f, 1.0f);
        const float o = float(i) * step;
        const glm::vec3 base = up * groundLevel;
        const uint16_t idSlot = slot(identitySlot);
        gr.push_back({base + ax * o - ay * ext, c, idSlot, 0xFFFF});
        gr.push_back({base + ax * o + ay * ext, c, idSlot, 0xFFFF});
        gr.push_back({base + ay * o - ax * ext, c, idSlot, 0xFFFF});
        gr.push_back({base + ay * o + ax * ext, c, idSlot, 0xFFFF});
    }
    grid_ = lineEntity(parent, gr, fxLines_);
}

void Overlays::buildLabels(Qt3DCore::QEntity* parent, const rs::Model& m) {
    labels_.clear();
    hoverLabel_ = -1;
    labelsShown_ = 0;
    labelEntity_ = nullptr;
    labelBuffer_ = nullptr;
    QStringList texts;
    std::vector<QColor> colors;
    const int mainBones = int(m.skeleton.bones.size());
    for (size_t i = 0; i < m.proxies.size() && labels_.size() < 256; ++i) {
        const rs::Proxy& px = m.proxies[i];
        labels_.push_back({px.bone >= 0 && px.bone < mainBones ? px.bone : -1, glm::vec3(0.0f), int(i)});
        texts << rs::gameText(px.name);
        colors.push_back(QColor(255, 170, 60));
    }
    for (const rs::Marker& mk : m.markers) {
        if (labels_.size() >= 256) break;
        labels_.push_back({mk.bone >= 0 && mk.bone < mainBones ? mk.bone : -1, glm::vec3(mk.transform[3]), -1,
                           mk.kind == "box", mk.kind == "box" && mk.axisAligned});
        texts << rs::gameText(mk.name);
        colors.push_back(QColor(90, 230, 255));
    }
    if (labels_.empty()) return;
    QFont font;
    font.setPixelSize(11);
    const QFontMetrics fm(font);
    const int rowH = fm.height() + 4;
    int atlasW = 16;
    for (const QString& t : texts)
        atlasW = std::max(atlasW, std::min(fm.horizontalAdvance(t) + 8, 512));
    const int atlasH = rowH * int(texts.size());
    QImage atlas(atlasW, atlasH, QImage::Format_ARGB32);
    atlas.fill(Qt::transparent);
    {
        QPainter p(&atlas);
        p.setFont(font);
        for (int i = 0; i < texts.size(); ++i) {
            const int w = std::min(fm.horizontalAdvance(texts[i]) + 8, atlasW);
            p.fillRect(QRect(0, i * rowH, w, rowH), QColor(0, 0, 0, 150));
            p.setPen(colors[size_t(i)]);
            p.drawText(QRect(4, i * rowH, w - 4, rowH), Qt::AlignVCenter | Qt::AlignLeft, texts[i]);
        }
    }
    labelEntity_ = new Qt3DCore::QEntity(parent);
    const uint n = uint(labels_.size());
    const InstancedQuad quad = makeInstancedQuad(labelEntity_, {"labelAnchor", "labelSize", "labelRect"}, n, 0.0f);
    labelBuffer_ = quad.instances;
    labelData_ = QByteArray(int(n) * 48, '\0');
    float* f = reinterpret_cast<float*>(labelData_.data());
    for (uint i = 0; i < n; ++i, f += 12) {
        const int w = std::min(fm.horizontalAdvance(texts[int(i)]) + 8, atlasW);
        // Uploads put the image top at v = 1: row r spans v from 1 - (r+1)h/H (bottom) to 1 - rh/H (top).
        const float vals[8] = {float(w),
                               float(rowH),
                               6.0f,
                               4.0f,
                               0.0f,
                               1.0f - float((i + 1) * rowH) / float(atlasH),
                               float(w) / float(atlasW),
                               1.0f - float(i * rowH) / float(atlasH)};
        std::memcpy(f + 4, vals, sizeof(vals));
    }
    labelBuffer_->setData(labelData_);
    Qt3DRender::QGeometryRenderer* gr = quad.renderer;
    auto* mat = new Qt3DRender::QMaterial(labelEntity_);
    mat->setEffect(fxLabels_);
    auto* tex = makeTexture(atlas, labelEntity_);
    tex->setGenerateMipMaps(false);
    tex->setMinificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    tex->setMagnificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    addParam(mat, "labelTexture", QVariant::fromValue(tex));
    labelEntity_->addComponent(gr);
    labelEntity_->addComponent(mat);
}

void Overlays::updateLabels(const std::vector<glm::mat4>& world, const std::vector<uint8_t>& visible,
                            const ProxyShown& proxyShown, const ViewOptions& options, int highlightBone) {
    if (!labelBuffer_) return;
    float* f = reinterpret_cast<float*>(labelData_.data());
    labelsShown_ = 0;
    for (size_t i = 0; i < labels_.size(); ++i, f += 12) {
        const Label& l = labels_[i];
        const glm::mat4 w = l.bone >= 0 ? world[size_t(l.bone)] : glm::mat4(1.0f);
        const glm::vec3 p = l.translateOnly ? glm::vec3(w[3]) + l.local : glm::vec3(w * glm::vec4(l.local, 1.0f));
        bool shown = l.proxy >= 0 ? proxyShown(l.proxy) : l.collision ? options.pointSets : options.markers;
        if (l.bone >= 0 && !visible[size_t(l.bone)]) shown = false;
        // Only the selected bone's labels and the one under the mouse, unless all are asked for.
        if (!options.labels && !(highlightBone >= 0 && l.bone == highlightBone) && int(i) != hoverLabel_) shown = false;
        labelsShown_ += shown ? 1 : 0;
        const float a[4] = {p.x, p.y, p.z, shown ? 1.0f : 0.0f};
        std::memcpy(f, a, sizeof(a));
    }
    labelBuffer_->updateData(0, labelData_);
    showLabels();
}

int Overlays::labelAt(const QPoint& pos, const QMatrix4x4& vp, float w, float h, const std::vector<glm::mat4>& world,
                      const std::vector<uint8_t>& visible) const {
    if (pos.x() < 0 || labels_.empty()) return -1;
    int best = -1;
    float bestDist = 24.0f * 24.0f; // pixels
    for (size_t i = 0; i < labels_.size(); ++i) {
        const Label& l = labels_[i];
        if (l.bone >= 0 && (size_t(l.bone) >= visible.size() || !visible[size_t(l.bone)])) continue;
        const glm::mat4 m = l.bone >= 0 && size_t(l.bone) < world.size() ? world[size_t(l.bone)] : glm::mat4(1.0f);
        const glm::vec3 p = l.translateOnly ? glm::vec3(m[3]) + l.local : glm::vec3(m * glm::vec4(l.local, 1.0f));
        const QVector4D c = vp * QVector4D(p.x, p.y, p.z, 1.0f);
        if (c.w() <= 0.0f) continue;
        const float sx = (c.x() / c.w() * 0.5f + 0.5f) * w, sy = (0.5f - c.y() / c.w() * 0.5f) * h;
        const float dx = sx - float(pos.x()), dy = sy - float(pos.y());
        if (dx * dx + dy * dy < bestDist) {
            bestDist = dx * dx + dy * dy;
            best = int(i);
        }
    }
    return best;
}

void Overlays::setEnabled(const ViewOptions& options, bool noMeshes) {
    // A model without drawable meshes (a W3D hierarchy or clip file, an .al armature) shows its bones.
    // Entities without vertices (lineEntity) draw nothing and need no program.
    auto enable = [&](Qt3DCore::QEntity* e, bool on) {
        if (!e) return;
        e->setEnabled(on);
        if (on && !e->components().isEmpty()) lineProgram_.require();
    };
    enable(skeleton_, options.showSkeleton || noMeshes);
    enable(pointSets_, options.pointSets);
    enable(markers_, options.proxies || options.markers);
    enable(grid_, options.grid);
    labelsEnabled_ = options.proxies || options.markers || options.pointSets;
    showLabels();
}

void Overlays::showLabels() {
    // Nothing to draw while no label is shown (labels are hidden by a zero anchor w, not by the entity).
    if (!labelEntity_) return;
    const bool on = labelsEnabled_ && labelsShown_ > 0;
    labelEntity_->setEnabled(on);
    if (on) labelProgram_.require();
}

} // namespace rs::render
