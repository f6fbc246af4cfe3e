// ModelView over render's Qt3D SceneView (built when render/scene_view.cpp is part of the tree).
#include "model_view.h"
#include "preview_view.h"

#ifdef RIGSCOPE_HAVE_SCENE_VIEW
#include "scene_view.h"
#include "view_options.h"

#include <QWidget>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>

#include "games/discovery.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <algorithm>
#endif

namespace rs::ui {

#ifdef RIGSCOPE_HAVE_SCENE_VIEW
// Kane's Wrath is mounted: a mounted game folder, or the folder of a mounted game archive, is recognised as Kane's
// Wrath (games::mountedGames). The C&C 3 Objects shaders then apply KW's house colour.
static bool kanesWrathMounted(const vfs::MountTable* table) {
    const std::vector<Game> g = games::mountedGames(table);
    return std::find(g.begin(), g.end(), Game::KanesWrath) != g.end();
}

render::ViewOptions toViewOptions(const ViewSettings& s, render::ViewOptions o) {
    o.lod = s.lod;
    o.alt = std::max(s.alt, 0);
    o.factionColor = s.factionColor;
    o.night = s.night;
    o.showSkeleton = s.skeleton;
    o.wireframe = s.wireframe;
    o.lights = s.lights;
    o.lightPreset = s.lightPreset;
    o.sunAzimuth = float(s.sunAzimuth);
    o.sunElevation = float(s.sunElevation);
    o.dazzles = s.dazzles;
    o.particles = s.particles;
    o.proxies = s.proxies;
    o.grid = s.grid;
    o.pointSets = s.pointSets;
    o.labels = s.allLabels;
    o.background = s.background;
    o.buildFraction = float(std::clamp(s.buildPercent, 0, 100)) / 100.0f;
    return o;
}

namespace {

class SceneViewAdapter : public ModelView {
  public:
    explicit SceneViewAdapter(QObject* parent) : ModelView(parent), view_(new render::SceneView(this)) {
        container_ = QWidget::createWindowContainer(view_->window());
        container_->setMinimumSize(160, 120);
        container_->setFocusPolicy(Qt::ClickFocus);
        // One QFrameAction tick per frame Qt3D processes: the camera entity is always part of the scene.
        auto* frames = new Qt3DLogic::QFrameAction;
        view_->window()->camera()->addComponent(frames);
        connect(frames, &Qt3DLogic::QFrameAction::triggered, this, &ModelView::framePresented);
    }
    ~SceneViewAdapter() override {
        if (container_ && !container_->parent()) delete container_;
    }

    QWidget* widget() override { return container_; }
    QString backendName() const override { return QStringLiteral("Qt3D (OpenGL)"); }

    void setModel(std::shared_ptr<const Model> model) override {
        const QString path = model ? QString::fromStdString(model->sourcePath) : QString();
        clip_.reset();
        highlight_ = -1;
        view_->setModel(std::move(model), path);
    }
    void setEditedModel(std::shared_ptr<const Model> model) override {
        const render::OrbitCamera c = view_->orbitCamera();
        setModel(std::move(model));
        view_->setOrbitCamera(c);
    }
    std::shared_ptr<const void> cameraState() const override {
        return std::make_shared<const render::OrbitCamera>(view_->orbitCamera());
    }
    void setCameraState(const std::shared_ptr<const void>& state) override {
        if (state) view_->setOrbitCamera(*static_cast<const render::OrbitCamera*>(state.get()));
    }
    void setObjectModel(std::shared_ptr<const Model> model, std::vector<ModelAttachment> attachments) override {
        const QString path = model ? QString::fromStdString(model->sourcePath) : QString();
        clip_.reset();
        highlight_ = -1;
        std::vector<render::Attachment> a;
        for (ModelAttachment& m : attachments)
            a.push_back({std::move(m.model), m.bone, std::move(m.system), std::move(m.name)});
        view_->setModel(std::move(model), path, std::move(a));
    }
    int attachmentsDrawn() const override { return view_->attachmentsDrawn(); }
    int attachmentBoneOffset(int attachment) const override { return view_->attachmentBoneOffset(attachment); }
    void setParticleSystem(std::shared_ptr<const ParticleSystem> system,
                           std::shared_ptr<const Model> standIn) override {
        const QString path = standIn ? QString::fromStdString(standIn->sourcePath) : QString();
        clip_.reset();
        highlight_ = -1;
        view_->setParticleSystem(std::move(system), path);
    }
    std::vector<ProxyParticles> proxyParticles() const override {
        std::vector<ProxyParticles> out;
        for (const render::ParticleInfo& i : view_->particleSystems())
            if (i.proxy >= 0) out.push_back({i.proxy, i.file, i.error, i.emitters});
        return out;
    }
    QStringList missingParticleTextures() const override {
        QStringList out;
        for (const render::TextureInfo& t : view_->textures())
            if (t.parameter == QLatin1String("ParticleTexture") && !t.loaded &&
                !out.contains(t.name, Qt::CaseInsensitive))
                out << t.name;
        return out;
    }
    void setClip(std::shared_ptr<const Clip> clip) override {
        clip_ = clip;
        view_->setClip(std::move(clip));
    }
    void setFrame(float frame, LoopMode mode) override {
        const uint32_t n = clip_ ? clip_->frameCount : 0;
        float f = n > 0 ? wrapFrame(frame, n, mode) : 0.0f;
        // SceneView loops with period n-1: keep the last frame of Once/PingPong from wrapping to 0.
        if (n > 1 && f >= float(n - 1)) f = float(n - 1) - 1e-3f;
        view_->setFrame(f);
    }
    void setSettings(const ViewSettings& s) override { view_->setOptions(toViewOptions(s, view_->options())); }
    void setResolver(std::shared_ptr<const Resolver> resolver) override {
        render::ViewOptions o = view_->options();
        o.kanesWrath = resolver && kanesWrathMounted(resolver->mounted().get());
        o.resolver = std::move(resolver);
        view_->setOptions(o);
    }
    void setHighlightedBone(int bone) override {
        highlight_ = bone;
        view_->setHighlightedBone(bone);
    }
    int highlightedBone() const override { return highlight_; }
    void setBoneHidden(int bone, bool hidden) override { view_->setBoneHidden(bone, hidden); }
    bool boneHidden(int bone) const override { return view_->boneHidden(bone); }
    void frameModel() override { view_->frameModel(); }
    QObject* camera() const override { return view_->window() ? view_->window()->camera() : nullptr; }
    bool texturesPending() const override { return view_->texturesPending(); }
    int labelsShown() const override { return view_->labelsShown(); }
    int labelAt(const QPoint& pos) const override { return view_->labelAt(pos); }
    void capture(std::function<void(const QImage&)> done) override { view_->capture(std::move(done)); }

  private:
    render::SceneView* view_;
    QWidget* container_ = nullptr;
    std::shared_ptr<const Clip> clip_;
    int highlight_ = -1;
};

} // namespace
#endif

std::unique_ptr<ModelView> createModelView(QObject* parent) {
#ifdef RIGSCOPE_HAVE_SCENE_VIEW
    // RIGSCOPE_VIEW=preview selects the software preview (no OpenGL needed).
    if (qgetenv("RIGSCOPE_VIEW") != "preview") return std::make_unique<SceneViewAdapter>(parent);
#endif
    return std::make_unique<PreviewView>(parent);
}

} // namespace rs::ui
