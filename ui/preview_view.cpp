#include "preview_view.h"

#include "game_text.h"

#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QWheelEvent>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace rs::ui {

class PreviewWidget : public QWidget {
  public:
    explicit PreviewWidget(PreviewView* view) : view_(view) {
        setMinimumSize(160, 120);
        setAttribute(Qt::WA_OpaquePaintEvent);
        setFocusPolicy(Qt::ClickFocus);
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        view_->paint(p, size());
        emit view_->framePresented();
    }
    void mousePressEvent(QMouseEvent* e) override { last_ = e->position(); }
    void mouseMoveEvent(QMouseEvent* e) override {
        const QPointF d = e->position() - last_;
        last_ = e->position();
        if (e->buttons() & Qt::LeftButton)
            view_->orbit(float(-d.x()) * 0.01f, float(d.y()) * 0.01f);
        else if (e->buttons() & (Qt::RightButton | Qt::MiddleButton))
            view_->pan(float(d.x()), float(d.y()));
    }
    void wheelEvent(QWheelEvent* e) override { view_->zoom(e->angleDelta().y() > 0 ? 0.85f : 1.0f / 0.85f); }
    void mouseDoubleClickEvent(QMouseEvent*) override { view_->frameModel(); }

  private:
    PreviewView* view_;
    QPointF last_;
};

// The widget is made on first use: a view that only paints into images (thumbnails) may live on any thread.
PreviewView::PreviewView(QObject* parent) : ModelView(parent) {}

PreviewView::~PreviewView() {
    if (widget_ && !widget_->parent()) delete widget_;
}

QWidget* PreviewView::widget() {
    if (!widget_) widget_ = new PreviewWidget(this);
    return widget_;
}

void PreviewView::requestUpdate() {
    if (widget_) widget_->update();
}

void PreviewView::setModel(std::shared_ptr<const Model> model) {
    model_ = std::move(model);
    clip_.reset();
    binding_ = {};
    highlight_ = -1;
    frame_ = 0.0f;
    const size_t nb = model_ ? model_->skeleton.bones.size() : 0;
    pose_.resize(nb);
    userHidden_.assign(nb, 0);
    inverseBind_.clear();
    subMeshOffset_.clear();
    if (model_) {
        for (const Mesh& m : model_->meshes) {
            subMeshOffset_.push_back(inverseBind_.size());
            for (const SubMesh& sm : m.subMeshes) {
                inverseBind_.emplace_back();
                if (sm.skinned()) skinInverseBind(model_->skeleton, sm, inverseBind_.back());
            }
        }
    }
    updatePose();
    frameModel();
}

void PreviewView::setClip(std::shared_ptr<const Clip> clip) {
    clip_ = std::move(clip);
    binding_ = (clip_ && model_) ? bindClip(model_->skeleton, *clip_) : ClipBinding{};
    frame_ = 0.0f;
    updatePose();
    requestUpdate();
}

void PreviewView::setFrame(float frame, LoopMode mode) {
    frame_ = frame;
    mode_ = mode;
    updatePose();
    requestUpdate();
}

void PreviewView::setSettings(const ViewSettings& settings) {
    settings_ = settings;
    requestUpdate();
}

void PreviewView::setHighlightedBone(int bone) {
    highlight_ = (model_ && bone >= 0 && size_t(bone) < model_->skeleton.bones.size()) ? bone : -1;
    requestUpdate();
}

void PreviewView::setBoneHidden(int bone, bool hidden) {
    if (bone < 0 || size_t(bone) >= userHidden_.size()) return;
    userHidden_[size_t(bone)] = hidden ? 1 : 0;
    requestUpdate();
}

bool PreviewView::boneHidden(int bone) const {
    return bone >= 0 && size_t(bone) < userHidden_.size() && userHidden_[size_t(bone)];
}

void PreviewView::updatePose() {
    if (!model_) return;
    const Clip* c = clip_.get();
    evaluatePose(model_->skeleton, c, c ? &binding_ : nullptr, frame_, mode_, pose_.view());
}

// A bone's attachments are hidden when the pose hides it or the user hid it or any ancestor.
static bool boneShown(const Model& m, const PoseBuffers& pose, const std::vector<uint8_t>& userHidden, int bone) {
    if (bone < 0 || size_t(bone) >= m.skeleton.bones.size()) return true;
    if (!pose.visible[size_t(bone)]) return false;
    for (int b = bone; b >= 0 && size_t(b) < userHidden.size(); b = m.skeleton.bones[size_t(b)].parent) {
        if (userHidden[size_t(b)]) return false;
        if (m.skeleton.bones[size_t(b)].parent >= b) break;
    }
    return true;
}

bool PreviewView::meshShown(const Mesh& m) const {
    if (m.hidden || m.shadowOrCollision) return false;
    if (m.lod >= 0 && settings_.lod >= 0 && m.lod != settings_.lod) return false;
    if (m.alt >= 0 && settings_.alt >= 0 && m.alt != settings_.alt) return false;
    return boneShown(*model_, pose_, userHidden_, m.bone);
}

glm::mat4 PreviewView::viewProj(QSize size, glm::vec3* eye) const {
    const glm::vec3 dir(std::cos(pitch_) * std::cos(yaw_), std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_));
    *eye = target_ + dir * distance_;
    const float aspect = size.height() > 0 ? float(size.width()) / float(size.height()) : 1.0f;
    const glm::mat4 proj =
        glm::perspective(glm::radians(40.0f), aspect, std::max(distance_ * 0.01f, 1e-3f), distance_ * 20.0f);
    return proj * glm::lookAt(*eye, target_, glm::vec3(0, 0, 1));
}

namespace {
struct PreviewCamera {
    glm::vec3 target;
    float distance, yaw, pitch;
};
} // namespace

std::shared_ptr<const void> PreviewView::cameraState() const {
    return std::make_shared<const PreviewCamera>(PreviewCamera{target_, distance_, yaw_, pitch_});
}

void PreviewView::setCameraState(const std::shared_ptr<const void>& state) {
    if (!state) return;
    const auto* c = static_cast<const PreviewCamera*>(state.get());
    target_ = c->target;
    distance_ = c->distance;
    yaw_ = c->yaw;
    pitch_ = c->pitch;
    requestUpdate();
}

void PreviewView::frameModel() {
    if (!model_) {
        target_ = glm::vec3(0.0f);
        distance_ = 10.0f;
        requestUpdate();
        return;
    }
    glm::vec3 lo(1e30f), hi(-1e30f);
    bool any = false;
    const glm::mat4* world = pose_.world.data();
    for (size_t mi = 0; mi < model_->meshes.size(); ++mi) {
        const Mesh& m = model_->meshes[mi];
        if (!meshShown(m)) continue;
        const glm::mat4 rigid = (m.bone >= 0 && size_t(m.bone) < pose_.world.size()) ? world[m.bone] : glm::mat4(1);
        for (size_t si = 0; si < m.subMeshes.size(); ++si) {
            const SubMesh& sm = m.subMeshes[si];
            const bool skinned = sm.skinned() && sm.boneIndices.size() == sm.positions.size();
            for (size_t v = 0; v < sm.positions.size(); v += 1 + sm.positions.size() / 4096) {
                glm::vec3 p;
                if (skinned) {
                    const size_t idx = sm.boneIndices[v][0];
                    const int b = idx < sm.boneMap.size() ? sm.boneMap[idx] : -1;
                    if (b < 0 || size_t(b) >= pose_.world.size()) continue;
                    p = glm::vec3(world[b] * inverseBind_[subMeshOffset_[mi] + si][idx] *
                                  glm::vec4(sm.positions[v], 1));
                } else {
                    p = glm::vec3(rigid * glm::vec4(sm.positions[v], 1));
                }
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
                any = true;
            }
        }
    }
    if (!any)
        for (const glm::mat4& w : pose_.world) {
            lo = glm::min(lo, glm::vec3(w[3]));
            hi = glm::max(hi, glm::vec3(w[3]));
            any = true;
        }
    if (!any || !(hi.x >= lo.x)) lo = hi = glm::vec3(0.0f);
    target_ = (lo + hi) * 0.5f;
    radius_ = std::max(glm::length(hi - lo) * 0.5f, 0.01f);
    distance_ = radius_ / std::sin(glm::radians(20.0f)) * 1.1f;
    requestUpdate();
}

void PreviewView::orbit(float dYaw, float dPitch) {
    yaw_ += dYaw;
    pitch_ = std::clamp(pitch_ + dPitch, -1.5f, 1.5f);
    requestUpdate();
}

void PreviewView::pan(float dx, float dy) {
    glm::vec3 eye;
    viewProj(widget_ ? widget_->size() : QSize(640, 480), &eye);
    const glm::vec3 fwd = glm::normalize(target_ - eye);
    const glm::vec3 right = glm::normalize(glm::cross(fwd, glm::vec3(0, 0, 1)));
    const glm::vec3 up = glm::cross(right, fwd);
    const float s = distance_ * 0.0015f;
    target_ += (-right * dx + up * dy) * s;
    requestUpdate();
}

void PreviewView::zoom(float factor) {
    distance_ = std::clamp(distance_ * factor, radius_ * 0.05f, radius_ * 200.0f);
    requestUpdate();
}

void PreviewView::capture(std::function<void(const QImage&)> done) {
    QSize size = widget_ ? widget_->size() : QSize();
    if (size.width() < 16 || size.height() < 16) size = QSize(640, 480);
    auto img = std::make_shared<QImage>(size, QImage::Format_RGB32);
    {
        QPainter p(img.get());
        paint(p, size);
    }
    QTimer::singleShot(0, this, [img, done = std::move(done)] { done(*img); });
}

static QColor baseColor(const Mesh& m, const SubMesh& sm, const ViewSettings& s) {
    if (m.colorize) return s.factionColor;
    for (const char* n : {"Diffuse", "Color", "DiffuseColor"})
        if (const MaterialParam* p = sm.material.find(n);
            p && (p->type == ParamType::Float3 || p->type == ParamType::Float4))
            return QColor::fromRgbF(std::clamp(p->value.x, 0.f, 1.f), std::clamp(p->value.y, 0.f, 1.f),
                                    std::clamp(p->value.z, 0.f, 1.f));
    return QColor(190, 186, 178);
}

void PreviewView::paint(QPainter& p, QSize size) {
    p.fillRect(QRect(QPoint(0, 0), size), settings_.night ? settings_.background.darker(250) : settings_.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    glm::vec3 eye;
    const glm::mat4 vp = viewProj(size, &eye);
    const float hw = size.width() * 0.5f, hh = size.height() * 0.5f;
    auto project = [&](const glm::vec3& w, float* depth) -> QPointF {
        const glm::vec4 c = vp * glm::vec4(w, 1.0f);
        const float iw = c.w > 1e-6f ? 1.0f / c.w : 1e6f;
        if (depth) *depth = c.w;
        return QPointF(hw + c.x * iw * hw, hh - c.y * iw * hh);
    };

    if (settings_.grid) {
        const float step = std::pow(10.0f, std::floor(std::log10(std::max(radius_, 1e-3f)))) * 0.5f;
        const int n = 12;
        const glm::vec3 c(std::round(target_.x / step) * step, std::round(target_.y / step) * step, 0.0f);
        p.setPen(QPen(settings_.background.lighter(150), 1));
        for (int i = -n; i <= n; ++i) {
            p.drawLine(project(c + glm::vec3(i * step, -n * step, 0), nullptr),
                       project(c + glm::vec3(i * step, n * step, 0), nullptr));
            p.drawLine(project(c + glm::vec3(-n * step, i * step, 0), nullptr),
                       project(c + glm::vec3(n * step, i * step, 0), nullptr));
        }
    }
    if (!model_) return;

    const glm::vec3 lightDir = glm::normalize(glm::vec3(0.4f, 0.3f, 0.85f));
    const float ambient = settings_.night ? 0.12f : 0.35f, diffuse = settings_.night ? 0.35f : 0.65f;
    tris_.clear();
    const glm::mat4* world = pose_.world.data();
    for (size_t mi = 0; mi < model_->meshes.size(); ++mi) {
        const Mesh& m = model_->meshes[mi];
        if (!meshShown(m)) continue;
        const glm::mat4 rigid = (m.bone >= 0 && size_t(m.bone) < pose_.world.size()) ? world[m.bone] : glm::mat4(1);
        for (size_t si = 0; si < m.subMeshes.size(); ++si) {
            const SubMesh& sm = m.subMeshes[si];
            const size_t nv = sm.positions.size();
            worldPos_.resize(nv);
            const bool skinned = sm.skinned() && sm.boneIndices.size() == nv && sm.boneWeights.size() == nv;
            if (skinned) {
                palette_.resize(sm.boneMap.size());
                bool ok = true;
                for (int b : sm.boneMap)
                    ok = ok && b >= 0 && size_t(b) < pose_.world.size();
                if (!ok) continue;
                skinPalette(sm, inverseBind_[subMeshOffset_[mi] + si].data(), world, palette_.data());
                for (size_t v = 0; v < nv; ++v) {
                    glm::vec4 acc(0.0f);
                    const glm::vec4 pos(sm.positions[v], 1.0f);
                    for (int k = 0; k < 4; ++k) {
                        const float w = sm.boneWeights[v][k];
                        if (w <= 0.0f) continue;
                        if (sm.boneIndices[v][k] < palette_.size()) acc += w * (palette_[sm.boneIndices[v][k]] * pos);
                    }
                    worldPos_[v] = glm::vec3(acc);
                }
            } else {
                for (size_t v = 0; v < nv; ++v)
                    worldPos_[v] = glm::vec3(rigid * glm::vec4(sm.positions[v], 1.0f));
            }
            const QColor base = baseColor(m, sm, settings_);
            for (size_t t = 0; t + 2 < sm.indices.size(); t += 3) {
                const uint32_t a = sm.indices[t], b = sm.indices[t + 1], c = sm.indices[t + 2];
                if (a >= nv || b >= nv || c >= nv) continue;
                const glm::vec3 n = glm::cross(worldPos_[b] - worldPos_[a], worldPos_[c] - worldPos_[a]);
                const float len = glm::length(n);
                const float lambert = len > 0 ? std::abs(glm::dot(n / len, lightDir)) : 0.0f;
                const float shade = ambient + diffuse * lambert;
                Tri tri;
                float d0, d1, d2;
                tri.p[0] = project(worldPos_[a], &d0);
                tri.p[1] = project(worldPos_[b], &d1);
                tri.p[2] = project(worldPos_[c], &d2);
                if (d0 <= 0 || d1 <= 0 || d2 <= 0) continue;
                tri.depth = d0 + d1 + d2;
                tri.color = QColor::fromRgbF(std::min(1.0f, float(base.redF()) * shade),
                                             std::min(1.0f, float(base.greenF()) * shade),
                                             std::min(1.0f, float(base.blueF()) * shade));
                tris_.push_back(tri);
            }
        }
    }
    std::sort(tris_.begin(), tris_.end(), [](const Tri& x, const Tri& y) { return x.depth > y.depth; });
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const Tri& t : tris_) {
        if (settings_.wireframe) {
            p.setPen(QPen(t.color.lighter(130), 0));
            p.setBrush(Qt::NoBrush);
        } else {
            p.setPen(QPen(t.color, 0));
            p.setBrush(t.color);
        }
        p.drawPolygon(t.p, 3);
    }
    p.setRenderHint(QPainter::Antialiasing, true);

    const auto& bones = model_->skeleton.bones;
    auto boneOrigin = [&](int b) { return glm::vec3(world[b][3]); };
    if (settings_.lights)
        for (const Light& l : model_->lights) {
            if (l.bone < 0 || size_t(l.bone) >= bones.size()) continue;
            const QPointF c = project(boneOrigin(l.bone), nullptr);
            p.setPen(QPen(QColor(255, 230, 120), 1.5));
            p.setBrush(QColor::fromRgbF(std::clamp(l.color.x, 0.f, 1.f), std::clamp(l.color.y, 0.f, 1.f),
                                        std::clamp(l.color.z, 0.f, 1.f)));
            p.drawEllipse(c, 5, 5);
        }
    if (settings_.dazzles)
        for (const Dazzle& d : model_->dazzles) {
            if (d.hidden || (d.nightOnly && !settings_.night)) continue;
            if (d.bone < 0 || size_t(d.bone) >= bones.size() || !boneShown(*model_, pose_, userHidden_, d.bone))
                continue;
            const QPointF c = project(glm::vec3(world[d.bone] * glm::vec4(d.position, 1.0f)), nullptr);
            QColor col = d.colorize ? settings_.factionColor
                                    : QColor::fromRgbF(std::clamp(d.color.x, 0.f, 1.f), std::clamp(d.color.y, 0.f, 1.f),
                                                       std::clamp(d.color.z, 0.f, 1.f));
            QRadialGradient g(c, 9);
            g.setColorAt(0, col.lighter(160));
            g.setColorAt(1, QColor(col.red(), col.green(), col.blue(), 0));
            p.setPen(Qt::NoPen);
            p.setBrush(g);
            p.drawEllipse(c, 9, 9);
        }
    if (settings_.proxies)
        for (const Proxy& pr : model_->proxies) {
            if (pr.hidden || pr.bone < 0 || size_t(pr.bone) >= bones.size()) continue;
            if (pr.alt >= 0 && settings_.alt >= 0 && pr.alt != settings_.alt) continue;
            const QPointF c = project(boneOrigin(pr.bone), nullptr);
            p.setPen(QPen(QColor(120, 230, 255), 1.5));
            p.drawLine(c - QPointF(5, 0), c + QPointF(5, 0));
            p.drawLine(c - QPointF(0, 5), c + QPointF(0, 5));
            p.drawText(c + QPointF(7, -4), rs::gameText(pr.name));
        }
    if (settings_.pointSets)
        for (const PointSet& ps : model_->pointSets) {
            p.setPen(QPen(ps.kind == "collision" ? QColor(255, 90, 80) : QColor(255, 230, 60), 1.2));
            const size_t n = std::min<size_t>(ps.points.size(), 65536);
            for (size_t i = 0; i < n; ++i) {
                const QPointF c = project(ps.points[i], nullptr);
                if (ps.closedLoop && n >= 2)
                    p.drawLine(c, project(ps.points[(i + 1) % n], nullptr));
                else
                    p.drawEllipse(c, 2, 2);
            }
        }
    // A model without meshes (a W3D hierarchy or clip file, an .al armature) shows its bones.
    const bool skeleton = settings_.skeleton || model_->meshes.empty();
    if (skeleton || highlight_ >= 0) {
        for (size_t b = 0; b < bones.size(); ++b) {
            if (!skeleton && int(b) != highlight_) continue;
            const bool hi = int(b) == highlight_;
            const QPointF c = project(boneOrigin(int(b)), nullptr);
            const int parent = bones[b].parent;
            p.setPen(QPen(hi ? QColor(255, 220, 0) : QColor(90, 255, 140), (hi ? 3.0 : 1.2) * overlayScale_));
            if (parent >= 0 && size_t(parent) < b) p.drawLine(project(boneOrigin(parent), nullptr), c);
            p.setBrush(hi ? QColor(255, 220, 0) : QColor(90, 255, 140));
            p.drawEllipse(c, (hi ? 5 : 2.5) * overlayScale_, (hi ? 5 : 2.5) * overlayScale_);
            if (hi) p.drawText(c + QPointF(8, -6), rs::gameText(bones[b].name));
        }
    }
}

} // namespace rs::ui
