// SceneView composes the render units; each concern lives in its own file:
//   frame_graph   passes, draw order, shared uniforms      skin_palette    pose and bone palette
//   mesh_materials meshes, materials, shader variants      texture_cache   texture lookup/decoding records
//   proxy_parts   proxy models on bones, proxy visibility  dazzles         dazzles and billboarded bones
//   overlays      skeleton, markers, grid, labels          lights          light rig
//   particles     particle systems (proxies or alone)      camera_capture  framing and frame capture
//   orbit_camera  the camera as numbers and what the mouse does to it (turntable orbit, pan, zoom, centre)
#include "scene_view.h"

#include "camera_capture.h"
#include "dazzles.h"
#include "frame_graph.h"
#include "lights.h"
#include "mesh_materials.h"
#include "overlays.h"
#include "particles.h"
#include "proxy_parts.h"
#include "skin_palette.h"
#include "texture_cache.h"
#include "textures.h"
#include "w3d_primitives.h"

#include "formats/formats.h"
#include "resolve/resolver.h"
#include "scene/clip.h"
#include "scene/model.h"
#include "scene/pose.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPointer>
#include <QShowEvent>
#include <QSurfaceFormat>
#include <QVector2D>
#include <QVector3D>
#include <QVector4D>
#include <QWheelEvent>
#include <Qt3DCore/QEntity>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QRenderCapabilities>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTexture>

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace rs::render {

namespace {
// The low-resolution particle target's threshold and coarsening (render/low_res_rules.h, shared with the web page).
constexpr float kLowResMinFraction = lowres::kMinFraction;
constexpr float kLowResMaxMinPixels = lowres::kMaxMinPixels;
constexpr int kOrbitPoses = 16;                      // poses over the clip that a fixed orbit's distance is fitted to
constexpr float kCoarserFill = lowres::kCoarserFill; // (render/low_res_rules.h)
} // namespace

QList<QPair<QString, QColor>> factionPresets() {
    return {{"Blue", QColor(40, 110, 255)},   {"Red", QColor(220, 40, 30)},     {"Green", QColor(40, 190, 60)},
            {"Yellow", QColor(240, 200, 30)}, {"Purple", QColor(150, 60, 220)}, {"Orange", QColor(255, 120, 20)},
            {"Grey", QColor(150, 150, 150)}};
}

struct SceneView::Impl {
    SceneView* q = nullptr;
    // The window may be owned (and deleted) by a widget container (QWidget::createWindowContainer).
    QPointer<Qt3DExtras::Qt3DWindow> window;
    Qt3DCore::QEntity* root = nullptr;
    QPointer<Qt3DCore::QEntity> modelRoot;
    Qt3DRender::QCamera* camera = nullptr;
    // The camera as numbers (orbit_camera.h): what the mouse changes, given to `camera` by applyOrbit().
    OrbitCamera orbit;
    enum class Drag { None, Orbit, Pan } drag = Drag::None;
    QPointF dragFrom; // window position of the last drag step
    // options.resolver, else one with no mounted folders.
    std::shared_ptr<const rs::Resolver> plainResolver = std::make_shared<rs::Resolver>();
    std::shared_ptr<const rs::Resolver> resolver() const { return options.resolver ? options.resolver : plainResolver; }

    // Units (built in the constructor, under root)
    std::optional<FrameGraph> graph;
    std::optional<SkinPalette> palette;
    std::optional<TextureCache> textures;
    std::optional<MeshMaterials> meshes;
    std::optional<Dazzles> dazzles;
    std::optional<Overlays> overlays;
    std::optional<Particles> particles;
    std::optional<W3dPrimitives> primitives;

    // Model state
    std::shared_ptr<const rs::Model> model;
    QString path;
    std::shared_ptr<const rs::Clip> clip;
    rs::ClipBinding binding;
    QStringList problems;
    std::vector<Part> parts;
    std::vector<Attachment> attachments;             // object attachments of the model shown (setModel)
    std::shared_ptr<const rs::ParticleSystem> alone; // the system shown alone (model is then a one-bone stand-in)
    // Framing also fits what the shown particle systems at the proxies cover (engine glows past the hull): on when
    // the view's dynamic property "framingIncludesParticles" is true (headless screenshots and recordings set it
    // before setModel); off by default (the window frames the meshes).
    bool framingParticles() const { return q->property("framingIncludesParticles").toBool(); }
    std::map<int64_t, std::vector<glm::mat4>> boneCache; // clip frame -> bone world matrices (births in the past)
    rs::PoseBuffers cachePose;
    bool zUp = true;
    float frame = 0.0f, time = 0.0f;
    int highlightBone = -1;
    bool altDecreased = false;
    CameraFraming framing;
    // Particle time: the pose time, except that playback across the end of a clip keeps it running (a model's
    // smoke does not restart with its idle clip); any jump (scrub, new model) sets it to the pose time again.
    double particleClock = 0.0;
    float lastTime = 0.0f;
    int texPending = 0;
    bool lightsDirty = true; // rig must be re-sent (options or model changed)

    ViewOptions options;
    bool continuous = false;
    bool hidden = false; // drawHidden(): drawn into a window that is never mapped (never exposed)

    bool shown(int proxy) const { return !model || proxyShown(*model, proxy, options, altDecreased); }

    void clearModel() {
        delete modelRoot;
        modelRoot = nullptr;
        overlays->reset();
        dazzles->reset();
        meshes->reset();
        particles->reset();
        primitives->reset();
        boneCache.clear();
        parts.clear();
        textures->reset(QString(), resolver());
        texPending = 0;
        palette->setSkeleton(rs::Skeleton());
        clip.reset();
        binding = rs::ClipBinding();
        problems.clear();
    }

    void updateLabels() {
        if (!model) return;
        overlays->updateLabels(
            palette->pose().world, palette->visible(), [this](int proxy) { return shown(proxy); }, options,
            highlightBone);
    }

    // World matrix of a main-model bone at a time (particle births): the clip evaluated at that time, cached per
    // clip frame; the current pose without a clip.
    glm::mat4 boneWorldAt(int bone, double t) {
        const auto& world = palette->pose().world;
        if (bone < 0 || size_t(bone) >= world.size()) return glm::mat4(1.0f);
        const rs::Clip* c = clip.get();
        if (!c || !std::isfinite(t)) return world[size_t(bone)];
        const double fps = c->fps > 0.0f ? c->fps : 30.0;
        return worldAtFrame(int64_t(std::llround(std::clamp(t * fps, -1e9, 1e9))))[size_t(bone)];
    }

    // World matrices of every bone at whole frame f of the clip (set), cached.
    const std::vector<glm::mat4>& worldAtFrame(int64_t f) {
        auto it = boneCache.find(f);
        if (it == boneCache.end()) {
            if (boneCache.size() > 1024) boneCache.clear();
            const rs::Skeleton& sk = palette->skeleton();
            cachePose.resize(sk.bones.size());
            rs::evaluatePose(sk, clip.get(), &binding, float(f), rs::LoopMode::Loop, cachePose.view());
            it = boneCache.emplace(f, cachePose.world).first;
        }
        return it->second;
    }

    // Attachment a of the particle layer is drawn: particles on, its bone visible, its proxy shown by the ALT and
    // hidden rules (the proxy marker toggle does not apply).
    bool particlesShown(size_t a) const {
        if (!options.particles) return false;
        const ParticleAttachment& at = particles->attachments()[a];
        const auto& vis = palette->visible();
        if (at.bone >= 0 && (size_t(at.bone) >= vis.size() || !vis[size_t(at.bone)])) return false;
        if (at.proxy < 0 || !model) return true;
        ViewOptions o = options;
        o.proxies = true;
        return proxyShown(*model, at.proxy, o, altDecreased);
    }

    void updateVisibility() {
        meshes->updateVisibility(parts, palette->visible(), options.showHidden,
                                 [this](int proxy) { return shown(proxy); });
        graph->setHeatEnabled(meshes->heatShown()); // MeshHeat: the frame copy and the heat pass
        overlays->setEnabled(options, meshes->empty() && !alone);
        dazzles->setEnabled(options.dazzles);
        particles->setEnabled(options.particles);
        primitives->setEnabled(options.particles);
        graph->setWireframe(options.wireframe);
        meshes->setWireframe(options.wireframe);
    }

    void updatePose() {
        if (!model) {
            palette->clear();
            return;
        }
        glm::mat4 viewToWorld(1.0f);
        bool viewKnown = false;
        palette->evaluate(clip.get(), &binding, frame, [&](int mode, const glm::mat4& w) {
            if (!viewKnown) {
                viewToWorld = glm::make_mat4(camera->viewMatrix().inverted().constData());
                viewKnown = true;
            }
            return billboardMatrix(mode, w, viewToWorld, zUp, keyLightDirection(zUp));
        });
        // The default rig is static: only bone-attached model lights need a per-frame update.
        const bool modelLights = options.lights && !model->lights.empty();
        if (modelLights || lightsDirty)
            uploadLights(graph->uniforms(), model.get(), palette->pose().world, palette->visible(), options.lights,
                         zUp);
        lightsDirty = modelLights;
        graph->uniforms().time.set(time); // time-driven .fx parameters (scrolling, shields, clouds)
        dazzles->update(*model, palette->pose().world, palette->visible(), time, options.night, options.showHidden);
        updateLabels();
        updateVisibility();
        const int width = window ? window->width() : 1, height = window ? window->height() : 1;
        particles->setView(glm::make_mat4(camera->viewMatrix().constData()),
                           glm::make_mat4(camera->projectionMatrix().constData()), width, height,
                           options.lowResParticles ? std::min(float(height) * kLowResMinFraction, kLowResMaxMinPixels)
                                                   : std::numeric_limits<float>::max());
        const double effectTime = particleTime();
        const glm::vec3 eye(camera->position().x(), camera->position().y(), camera->position().z());
        particles->update(
            effectTime, [this](int bone, double t) { return boneWorldAt(bone, t); },
            [this](size_t a) { return particlesShown(a); }, eye);
        // W3D spheres and rings on the effect clock, at the pose, shown while their bone is.
        const auto& world = palette->pose().world;
        const auto& vis = palette->visible();
        primitives->update(
            effectTime,
            [&world](int bone) {
                return bone >= 0 && size_t(bone) < world.size() ? world[size_t(bone)] : glm::mat4(1.0f);
            },
            glm::make_mat4(camera->viewMatrix().constData()),
            [this, &vis](int bone) {
                return options.particles && (bone < 0 || (size_t(bone) < vis.size() && vis[size_t(bone)]));
            });
        if (particles->lowResUsed()) meshes->requireLowResDepth();
        graph->setLowResEnabled(particles->lowResUsed());
        // Particles covering the window many times over (an explosion's smoke seen from close by) go down to half
        // the target's resolution (an eighth of the window's up to 1280x720); hysteresis keeps the target from being
        // reallocated back and forth.
        if (particles->lowResFill() > kCoarserFill)
            graph->setLowResCoarse(true);
        else if (particles->lowResFill() < kCoarserFill / 2)
            graph->setLowResCoarse(false);
        emit q->poseChanged();
    }

    double particleTime() {
        double delta = double(time) - double(lastTime);
        lastTime = time;
        const float duration = clip ? clip->duration() : 0.0f;
        if (!alone && duration > 0.0f && delta < -0.5 * duration) delta += duration; // the clip looped
        if (alone || delta < 0.0 || delta > 0.5 || !std::isfinite(particleClock + delta))
            particleClock = time;
        else
            particleClock += delta;
        return particleClock;
    }

    // Bounds and sampled points of what is drawn at the current pose.
    void computeFraming() {
        framing.clear();
        meshes->samplePoints(parts, palette->pose().world, palette->inverseBind(), 200000, framing.points, framing.lo,
                             framing.hi);
        if (framing.orbit && clip && clip->frameCount > 1) {
            // A fixed orbit holds the model at every time of the clip too: the drawn points of 16 poses over it.
            const int64_t last = int64_t(clip->frameCount) - 1;
            for (int k = 0; k <= kOrbitPoses; ++k) {
                const int64_t f = last * k / kOrbitPoses;
                meshes->samplePoints(parts, worldAtFrame(f), palette->inverseBind(), 200000, framing.points, framing.lo,
                                     framing.hi);
            }
        }
        if (framingParticles() && !alone && options.particles && framing.lo.x <= framing.hi.x) {
            // What the shown particle systems at the proxies (engine glows, ...) cover over their first 2 s, where
            // it stays near the model (within its bounds' diameter of their centre): glows past the hull are in
            // view, a rising smoke column does not shrink the model.
            std::vector<glm::vec3> pts;
            particles->samplePoints(
                2.0, [this](int bone, double t) { return boneWorldAt(bone, t); }, pts,
                [this](size_t a) { return particlesShown(a); });
            const glm::vec3 c = framing.center();
            const float reach = 2.0f * framing.radius();
            for (const glm::vec3& p : pts) {
                if (!(glm::length(p - c) <= reach)) continue;
                framing.lo = glm::min(framing.lo, p);
                framing.hi = glm::max(framing.hi, p);
                framing.points.push_back(p);
            }
        }
        if (alone && meshes->empty()) { // a system alone: what its particles cover over one loop
            std::vector<glm::vec3> pts;
            particles->samplePoints(
                particleLoopSeconds(*alone), [this](int bone, double t) { return boneWorldAt(bone, t); }, pts);
            for (const glm::vec3& p : pts) {
                framing.lo = glm::min(framing.lo, p);
                framing.hi = glm::max(framing.hi, p);
            }
        }
        std::vector<glm::vec3> bones;
        if (framing.lo.x > framing.hi.x)
            for (const glm::mat4& w : palette->pose().world)
                bones.emplace_back(w[3]);
        framing.finish(bones);
    }

    float aspect() const {
        return window && window->height() > 0 ? float(window->width()) / float(window->height()) : 1.0f;
    }

    void placeCamera() {
        framing.zUp = zUp;
        orbit = fitCamera(framing, aspect());
        applyOrbit();
    }

    void applyOrbit() { applyCamera(orbit, aspect(), camera); }

    // The orbit camera of what `camera` shows now: another view linked to this one (File -> Compare with...) may
    // have moved it.
    void syncOrbit() {
        const QVector3D p = camera->position(), c = camera->viewCenter();
        const glm::vec3 pos(p.x(), p.y(), p.z()), centre(c.x(), c.y(), c.z());
        if (glm::length(pos - orbit.position()) > 1e-5f * orbit.distance ||
            glm::length(centre - orbit.target) > 1e-5f * orbit.distance)
            orbit = OrbitCamera::lookingAt(pos, centre, orbit);
    }
};

SceneView::SceneView(QObject* parent) : QObject(parent), d(std::make_unique<Impl>()) {
    d->q = this;
    d->window = new Qt3DExtras::Qt3DWindow(nullptr, Qt3DRender::API::OpenGL);
    {
        // Qt3DWindow asks for 4x MSAA and makes that the default format, from which Qt3D's renderer creates its
        // GL context: both must change, or the window's buffers stay multisampled (see viewSamples).
        const int samples = viewSamples(d->window->renderSettings()->renderCapabilities()->renderer());
        QSurfaceFormat f = d->window->format();
        f.setSamples(samples);
        d->window->setFormat(f);
        QSurfaceFormat def = QSurfaceFormat::defaultFormat();
        def.setSamples(samples);
        QSurfaceFormat::setDefaultFormat(def);
    }
    // Qt3D queried the GL limits with a context of its own already; texture decoding needs the size limit.
    setGpuMaxTextureSize(d->window->renderSettings()->renderCapabilities()->maxTextureSize());
    d->root = new Qt3DCore::QEntity;
    d->camera = d->window->camera();
    d->camera->lens()->setPerspectiveProjection(40.0f, 16.0f / 9.0f, 0.1f, 1000.0f);
    d->overlays.emplace(d->root);
    d->dazzles.emplace(d->root);
    d->particles.emplace(d->root);
    d->primitives.emplace(d->root);
    d->graph.emplace(d->window, d->camera);
    d->palette.emplace(d->root, d->graph->uniforms().bones);
    d->textures.emplace(d->root);
    d->meshes.emplace(d->root);
    auto* frameAction = new Qt3DLogic::QFrameAction(d->root);
    d->root->addComponent(frameAction);
    QObject::connect(frameAction, &Qt3DLogic::QFrameAction::triggered, this, [this](float) { emit frameSwapped(); });
    d->window->setRootEntity(d->root);
    d->window->installEventFilter(this);
    d->window->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
    QObject::connect(d->camera, &Qt3DRender::QCamera::viewMatrixChanged, this, [this] {
        // Billboarded bones and the order of alpha-blended particles depend on the camera.
        if (!d->model) return;
        if (d->particles->sortsByView()) {
            d->updatePose();
            return;
        }
        for (const rs::Bone& b : d->palette->skeleton().bones)
            if (b.billboard != 0) {
                d->updatePose();
                break;
            }
    });
    d->particles->setLowResTarget(d->root, d->graph->lowResColor());
    auto viewport = [this] {
        d->graph->uniforms().viewportSize.set(QVector2D(float(d->window->width()), float(d->window->height())));
        d->graph->setWindowSize(d->window->width(), d->window->height());
    };
    QObject::connect(d->window, &QWindow::widthChanged, this, viewport);
    QObject::connect(d->window, &QWindow::heightChanged, this, viewport);
    viewport();
    setOptions(d->options);
    d->graph->uniforms().ambient.set(QVector3D(kViewAmbient.x, kViewAmbient.y, kViewAmbient.z));
    d->graph->uniforms().highlight.set(-1);
    d->updatePose();
    uploadLights(d->graph->uniforms(), nullptr, {}, {}, d->options.lights, d->zUp);
    uploadAlamoLights(d->graph->uniforms(), alamoLightRig(LightPreset(d->options.lightPreset), d->options.sunAzimuth,
                                                          d->options.sunElevation));
    d->graph->uniforms().time.set(0.0f);
}

SceneView::~SceneView() {
    if (d->window) {
        d->clearModel();
        delete d->window.data();
    }
}

Qt3DExtras::Qt3DWindow* SceneView::window() const { return d->window; }

bool SceneView::drawHidden() {
    if (!d->window || d->window->isVisible()) return false;
    if (d->hidden) return true;
    d->hidden = true;
    d->window->create(); // the GL surface, unmapped
    // Qt3DWindow starts its aspect engine on its first show event; this one maps nothing.
    QShowEvent show;
    QCoreApplication::sendEvent(d->window, &show);
    return true;
}

bool SceneView::drawsHidden() const { return d->hidden; }

void SceneView::setModel(std::shared_ptr<const rs::Model> model, const QString& path,
                         std::vector<Attachment> attachments) {
    if (!d->window) return; // window already destroyed by its container
    d->alone.reset();
    d->attachments = std::move(attachments);
    buildScene(std::move(model), path);
}

int SceneView::attachmentsDrawn() const {
    int n = 0;
    for (const Part& p : d->parts)
        if (p.attachment >= 0) ++n;
    return n;
}

int SceneView::attachmentBoneOffset(int attachment) const {
    for (const Part& p : d->parts)
        if (p.attachment == attachment) return p.boneOffset;
    return -1;
}

void SceneView::setParticleSystem(std::shared_ptr<const rs::ParticleSystem> system, const QString& path) {
    if (!d->window) return; // window already destroyed by its container
    d->alone = std::move(system);
    d->attachments.clear();
    std::shared_ptr<rs::Model> standIn;
    if (d->alone) {
        standIn = std::make_shared<rs::Model>();
        standIn->format = rs::Format::AlamoModel;
        standIn->sourcePath = path.toStdString();
        rs::Bone root;
        root.name = "Root";
        standIn->skeleton.bones.push_back(root);
    }
    buildScene(std::move(standIn), path);
}

void SceneView::buildScene(std::shared_ptr<const rs::Model> model, const QString& path) {
    d->clearModel();
    d->model = std::move(model);
    d->path = path;
    if (!d->model) {
        d->updatePose();
        return;
    }
    const rs::Model& m = *d->model;
    d->zUp = rs::upAxisOf(m.format) == rs::UpAxis::Z;
    d->modelRoot = new Qt3DCore::QEntity(d->root);
    d->textures->reset(path, d->resolver());
    rs::Skeleton skeleton = m.skeleton;
    Part main;
    main.model = d->model;
    d->parts.push_back(main);
    ProxyFileLookup proxyFiles(path, d->resolver());
    attachProxyModels(m, proxyFiles, d->parts, skeleton);
    attachModels(m, d->attachments, d->parts, skeleton);
    d->palette->setSkeleton(skeleton);
    const int N = int(skeleton.bones.size());
    d->meshes->setKanesWrath(d->options.kanesWrath);
    d->meshes->setBuildFraction(d->options.buildFraction);
    d->meshes->build(d->modelRoot, d->parts, N, *d->textures);
    d->meshes->selectLodAlt(d->parts, d->options.lod, d->options.alt);
    if (d->alone) {
        ParticleAttachment a;
        a.bone = 0;
        a.name = QString::fromStdString(d->alone->name);
        a.file = path;
        a.system = d->alone;
        d->particles->build(d->modelRoot, {a}, *d->textures);
    } else {
        std::vector<ParticleAttachment> systems = findProxyParticles(m, proxyFiles);
        // Particle systems the model file holds (W3D emitters at the bones its HLOD or aggregates name).
        for (const rs::BoneParticles& bp : m.particles) {
            ParticleAttachment a;
            a.bone = bp.bone >= 0 && size_t(bp.bone) < m.skeleton.bones.size() ? bp.bone : -1;
            a.name = QString::fromStdString(bp.name);
            a.file = path;
            a.system = bp.system;
            systems.push_back(std::move(a));
        }
        // Particle systems the object's definition places at bones (SAGE ParticleSysBone), after the proxies'.
        for (const Attachment& at : d->attachments) {
            if (at.model || at.name.empty()) continue;
            ParticleAttachment a;
            a.bone = at.bone >= 0 && size_t(at.bone) < m.skeleton.bones.size() ? at.bone
                                                                               : (m.skeleton.bones.empty() ? -1 : 0);
            a.name = QString::fromStdString(at.name);
            a.file = at.system ? QStringLiteral("INI") : QString();
            a.system = at.system;
            systems.push_back(std::move(a));
        }
        d->particles->build(d->modelRoot, std::move(systems), *d->textures);
    }
    d->frame = 0.0f;
    d->time = 0.0f;
    d->lastTime = 0.0f;
    d->particleClock = 0.0;
    d->lightsDirty = true;
    d->updatePose();
    // Frame first (radius is needed to size the overlays), then build overlays.
    d->computeFraming();
    const float ground = d->zUp ? d->framing.lo.z : d->framing.lo.y;
    d->overlays->build(d->modelRoot, m, skeleton, d->palette->identitySlot(), d->framing.radius(), ground, d->zUp);
    d->primitives->build(d->modelRoot, m, d->palette->identitySlot(), *d->textures);
    d->dazzles->build(d->modelRoot, m, *d->textures, d->options.factionColor);
    d->overlays->buildLabels(d->modelRoot, m);
    d->updatePose();
    d->placeCamera();
    if (d->texPending == 0) emit texturesResolved();
}

std::shared_ptr<const rs::Model> SceneView::model() const { return d->model; }

void SceneView::setClip(std::shared_ptr<const rs::Clip> clip) {
    if (!d->window) return; // window already destroyed by its container
    d->clip = std::move(clip);
    d->boneCache.clear();
    d->problems.clear();
    d->binding = rs::ClipBinding();
    if (d->clip && d->model) {
        d->binding = rs::bindClip(d->palette->skeleton(), *d->clip);
        for (const std::string& p : d->binding.problems)
            d->problems << QString::fromStdString(p);
    }
    d->updatePose();
}

std::shared_ptr<const rs::Clip> SceneView::clip() const { return d->clip; }
QStringList SceneView::bindingProblems() const { return d->problems; }

static float clipFps(const rs::Clip* c) { return c && c->fps > 0.0f ? c->fps : 30.0f; }

void SceneView::setFrame(float frame) {
    if (!d->window) return; // window already destroyed by its container
    d->frame = frame;
    d->time = frame / clipFps(d->clip.get());
    d->updatePose();
}

void SceneView::setTime(float seconds) {
    if (!d->window) return; // window already destroyed by its container
    d->time = seconds;
    d->frame = seconds * clipFps(d->clip.get());
    d->updatePose();
}

float SceneView::frame() const { return d->frame; }
float SceneView::time() const { return d->time; }

void SceneView::setOptions(const ViewOptions& options) {
    if (!d->window) return; // window already destroyed by its container
    if (options.alt < d->options.alt)
        d->altDecreased = true;
    else if (options.alt > d->options.alt)
        d->altDecreased = false;
    // A different resolver, or the game whose shaders draw C&C 3 art: the materials are rebuilt.
    const bool dirsChanged = options.resolver != d->options.resolver || options.kanesWrath != d->options.kanesWrath;
    d->options = options;
    d->graph->setBackground(options.background);
    uploadAlamoLights(d->graph->uniforms(),
                      alamoLightRig(LightPreset(options.lightPreset), options.sunAzimuth, options.sunElevation));
    d->graph->uniforms().faction.set(
        QVector4D(options.factionColor.redF(), options.factionColor.greenF(), options.factionColor.blueF(), 1.0f));
    if (d->model) {
        if (dirsChanged) {
            // Texture folders changed: rebuild materials by reloading the model.
            auto m = d->model;
            auto c = d->clip;
            const float t = d->time;
            const QString p = d->path;
            if (auto sys = d->alone)
                setParticleSystem(sys, p);
            else
                setModel(m, p, d->attachments);
            setClip(c);
            setTime(t);
            return;
        }
        d->meshes->selectLodAlt(d->parts, options.lod, options.alt);
        d->meshes->setBuildFraction(options.buildFraction);
        d->dazzles->setFactionColor(*d->model, options.factionColor);
    }
    d->lightsDirty = true;
    d->updatePose();
}

const ViewOptions& SceneView::options() const { return d->options; }

void SceneView::setHighlightedBone(int bone) {
    if (!d->window) return; // window already destroyed by its container
    d->highlightBone = bone;
    d->graph->uniforms().highlight.set(bone);
    d->updateLabels();
}

void SceneView::setBoneHidden(int bone, bool hidden) {
    if (!d->window) return; // window already destroyed by its container
    d->palette->setUserHidden(bone, hidden);
    d->updatePose();
}

bool SceneView::boneHidden(int bone) const { return d->palette->userHidden(bone); }

void SceneView::frameModel() {
    if (!d->window) return; // window already destroyed by its container
    if (!d->model) return;
    // Seen from where the camera looks now (the mouse may have turned it); the framing's own angles stay those of
    // setCameraAngles, for the next model.
    d->syncOrbit();
    const float yaw = d->framing.yaw, pitch = d->framing.pitch;
    d->framing.yaw = d->orbit.yaw;
    d->framing.pitch = d->orbit.pitch;
    d->computeFraming();
    d->placeCamera();
    d->framing.yaw = yaw;
    d->framing.pitch = pitch;
}

void SceneView::setCameraAngles(float yawDegrees, float pitchDegrees) {
    if (!d->window) return; // window already destroyed by its container
    d->framing.yaw = yawDegrees;
    d->framing.pitch = std::clamp(pitchDegrees, -89.0f, 89.0f);
    d->placeCamera();
}

void SceneView::setFixedOrbit(bool on) {
    if (!d->window) return; // window already destroyed by its container
    d->framing.orbit = on;
    if (d->model) d->computeFraming(); // an orbit is fitted to the whole clip
    d->placeCamera();
}

void SceneView::captureNext(std::function<void(const QImage&)> done) {
    captureFrame(
        d->window, d->window ? d->graph->captureNode() : nullptr, this,
        [this] { return d->continuous || d->texPending != 0; }, std::move(done));
}

void SceneView::capture(std::function<void(const QImage&)> done) {
    auto grab = [this](std::function<void(const QImage&)> cb) { captureNext(std::move(cb)); };
    if (!d->window) {
        grab(std::move(done));
        return;
    }
    // Qt3D 6.4 (OpenGL renderer) compiles the programs and uploads the textures that exist when a frame starts
    // during that frame's rendering; the next frame still skips draws with a program loaded in the previous one
    // (its material caches are rebuilt then); the frame after that draws everything. frameSwapped comes once per
    // frame, after the frame took the scene changes and before it renders: once the programs and textures have
    // been the same at the request and two frames in a row, they were all loaded by the first of those frames,
    // and the frame a request made now is captured from (the next one) is complete. (Status properties are no
    // signal: Qt3D reports the last programs compiled only when some later shader changes.) Bounded: after 10 s
    // the next frame is captured as it is.
    d->window->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::Always);
    struct Wait {
        QMetaObject::Connection connection;
        QElapsedTimer since;
        std::vector<quint64> seen;
        int stable = 0; // frames in a row that started with the same programs and textures
    };
    auto wait = std::make_shared<Wait>();
    wait->seen = sceneResources(d->root);
    wait->since.start();
    wait->connection = QObject::connect(this, &SceneView::frameSwapped, this, [this, wait, grab, done]() mutable {
        if (!d->window) { // destroyed by its container while waiting
            QObject::disconnect(wait->connection);
            done(QImage());
            return;
        }
        std::vector<quint64> now = sceneResources(d->root);
        // A window not exposed yet does not render: its frames load nothing. (One drawn hidden is never exposed.)
        if (now != wait->seen || (!d->window->isExposed() && !d->hidden)) {
            wait->seen = std::move(now);
            wait->stable = 0;
        } else {
            ++wait->stable;
        }
        if (wait->stable < 2 && wait->since.elapsed() < 10000) return;
        QObject::disconnect(wait->connection);
        grab(std::move(done));
    });
}

bool SceneView::eventFilter(QObject* watched, QEvent* e) {
    if (watched != d->window || !d->model) return QObject::eventFilter(watched, e);
    using Drag = Impl::Drag;
    auto dragFor = [](Qt::MouseButtons b) {
        return (b & Qt::LeftButton) ? Drag::Orbit : (b & (Qt::RightButton | Qt::MiddleButton)) ? Drag::Pan : Drag::None;
    };
    switch (e->type()) {
    case QEvent::MouseButtonPress: {
        const auto* m = static_cast<QMouseEvent*>(e);
        const Drag kind = dragFor(m->button());
        if (kind == Drag::None) break;
        d->syncOrbit();
        d->drag = kind;
        d->dragFrom = m->position();
        return true;
    }
    case QEvent::MouseMove: {
        const auto* m = static_cast<QMouseEvent*>(e);
        if (m->buttons() == Qt::NoButton) {
            d->drag = Drag::None;
            setHoverPoint(m->position().toPoint());
            break;
        }
        if (d->drag == Drag::None) break;
        const QPointF delta = m->position() - d->dragFrom;
        d->dragFrom = m->position();
        if (d->drag == Drag::Orbit)
            d->orbit.orbit(float(delta.x()), float(delta.y()));
        else
            d->orbit.pan(float(delta.x()), float(delta.y()), float(d->window->height()));
        d->applyOrbit();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        const auto* m = static_cast<QMouseEvent*>(e);
        const Drag left = dragFor(m->buttons()); // a button still held goes on dragging
        if (left != d->drag) d->dragFrom = m->position();
        d->drag = left;
        return true;
    }
    case QEvent::MouseButtonDblClick: {
        const auto* m = static_cast<QMouseEvent*>(e);
        if (m->button() != Qt::LeftButton) break;
        d->syncOrbit();
        if (const auto hit = pickPoint(m->position().toPoint())) {
            d->orbit.centreOn(*hit);
            d->applyOrbit();
        }
        return true;
    }
    case QEvent::Wheel: {
        const auto* w = static_cast<QWheelEvent*>(e);
        if (w->angleDelta().y() == 0) break;
        d->syncOrbit();
        const QPointF p = w->position();
        d->orbit.zoomToward(
            OrbitCamera::toNdc(float(p.x()), float(p.y()), float(d->window->width()), float(d->window->height())),
            OrbitCamera::wheelFactor(float(w->angleDelta().y())), d->aspect());
        d->applyOrbit();
        return true;
    }
    case QEvent::KeyPress: {
        const auto* k = static_cast<QKeyEvent*>(e);
        if (k->key() == Qt::Key_F && (k->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier) {
            frameModel();
            return true;
        }
        break;
    }
    case QEvent::Leave:
        setHoverPoint(QPoint(-1, -1));
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, e);
}

void SceneView::setOrbitCamera(const OrbitCamera& c) {
    if (!d->window) return; // window already destroyed by its container
    const glm::vec3 centre = d->orbit.sceneCentre;
    const float radius = d->orbit.sceneRadius;
    const bool zUp = d->orbit.zUp;
    d->orbit = c;
    d->orbit.sceneCentre = centre;
    d->orbit.sceneRadius = radius;
    d->orbit.zUp = zUp;
    d->applyOrbit();
}

OrbitCamera SceneView::orbitCamera() const {
    if (d->window) d->syncOrbit();
    return d->orbit;
}

std::optional<glm::vec3> SceneView::pickPoint(const QPoint& pos) const {
    if (!d->window || !d->model || d->window->width() <= 0 || d->window->height() <= 0) return std::nullopt;
    d->syncOrbit();
    glm::vec3 origin, dir;
    d->orbit.ray(OrbitCamera::toNdc(float(pos.x()) + 0.5f, float(pos.y()) + 0.5f, float(d->window->width()),
                                    float(d->window->height())),
                 d->aspect(), origin, dir);
    const float t = d->meshes->pick(d->parts, d->palette->pose().world, d->palette->inverseBind(), origin, dir);
    if (!(t > 0.0f)) return std::nullopt;
    return origin + dir * t;
}

int SceneView::labelAt(const QPoint& pos) const {
    if (!d->window) return -1;
    const QMatrix4x4 vp = d->camera->projectionMatrix() * d->camera->viewMatrix();
    return d->overlays->labelAt(pos, vp, float(d->window->width()), float(d->window->height()),
                                d->palette->pose().world, d->palette->visible());
}

void SceneView::setHoverPoint(const QPoint& pos) {
    const int label = labelAt(pos);
    if (label == d->overlays->hoverLabel()) return;
    d->overlays->setHoverLabel(label);
    d->updateLabels();
}

int SceneView::labelsShown() const { return d->overlays->labelsShown(); }

void SceneView::setContinuousRendering(bool on) {
    if (!d->window) return; // window already destroyed by its container
    d->continuous = on;
    d->window->renderSettings()->setRenderPolicy(on ? Qt3DRender::QRenderSettings::Always
                                                    : Qt3DRender::QRenderSettings::OnDemand);
}

QList<ParticleInfo> SceneView::particleSystems() const {
    QList<ParticleInfo> out;
    for (const ParticleAttachment& a : d->particles->attachments()) {
        ParticleInfo i;
        i.proxy = a.proxy;
        i.bone = a.bone;
        i.name = a.name;
        i.file = a.file;
        i.error = a.error;
        i.emitters = a.system ? int(a.system->emitters.size()) : 0;
        const QString prefix = a.system ? QString::fromStdString(a.system->name) + "/" : QString();
        for (const QString& n : d->particles->notDrawn())
            if (!prefix.isEmpty() && n.startsWith(prefix)) i.notDrawn << n;
        out << i;
    }
    return out;
}

int SceneView::particlesDrawn() const { return int(d->particles->drawn()); }
int SceneView::primitivesDrawn() const { return int(d->primitives->drawn()); }
QStringList SceneView::primitivesNotDrawn() const { return d->primitives->notDrawn(); }
bool SceneView::particlesLowRes() const { return d->particles->lowResUsed(); }
int SceneView::particlesLowResDivisor() const { return d->graph->lowResDivisor(); }
std::vector<glm::vec4> SceneView::particlesCompositeRects() const { return d->particles->compositeRects(); }

int SceneView::shaderProgramCount() const { return int(d->root->findChildren<Qt3DRender::QShaderProgram*>().size()); }

QList<TextureInfo> SceneView::textures() const { return d->textures->infos(); }
bool SceneView::texturesPending() const { return d->texPending > 0; }
const std::vector<uint8_t>& SceneView::boneVisibility() const { return d->palette->visible(); }

} // namespace rs::render
