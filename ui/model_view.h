// The 3D view as the widgets see it. The main window talks only to this interface, so the
// implementation (render's Qt3D SceneView, or the software preview when Qt3D is unavailable) can be
// swapped without touching the docks.
#pragma once

#include "view_settings.h"

#include "particles/particle_system.h"
#include "scene/clip.h"
#include "scene/model.h"
#include "scene/pose.h"
#include "resolve/resolver.h"

#include <QImage>
#include <QObject>
#include <QPoint>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QWidget;

namespace rs::ui {

// A model a game object hangs at a bone of its main model (objects/object_states.h LoadedAttachment).
struct ModelAttachment {
    std::shared_ptr<const Model> model;
    int bone = -1;                                // bone of the main model
    std::shared_ptr<const ParticleSystem> system; // or a particle system at the bone (SAGE ParticleSysBone)
    std::string name;                             // the system's name
};

class ModelView : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;
    ~ModelView() override = default;

    // The widget placed in the window's centre (owned by the caller's widget tree once inserted).
    virtual QWidget* widget() = 0;
    virtual QString backendName() const = 0;

    // model may be null (empty scene). Resets the clip, hidden bones and highlight.
    virtual void setModel(std::shared_ptr<const Model> model) = 0;
    // Shows an edited version of the model shown (the window's edits): as setModel, the camera left where it is.
    virtual void setEditedModel(std::shared_ptr<const Model> model) { setModel(std::move(model)); }
    // Shows a game object: model with attachments hung at its bones, drawn and posed with it. Views that cannot
    // attach models show model alone.
    virtual void setObjectModel(std::shared_ptr<const Model> model, std::vector<ModelAttachment> attachments) {
        (void)attachments;
        setModel(std::move(model));
    }
    // Attachments drawn now (0 when the view draws none), and the first bone of one in the view's combined
    // skeleton (for setBoneHidden; -1 when not drawn).
    virtual int attachmentsDrawn() const { return 0; }
    virtual int attachmentBoneOffset(int attachment) const {
        (void)attachment;
        return -1;
    }
    // Shows a particle system alone; standIn is the one-bone model the docks and the timeline see (the view's
    // model() afterwards). Views that cannot draw particles show the stand-in.
    virtual void setParticleSystem(std::shared_ptr<const ParticleSystem> system, std::shared_ptr<const Model> standIn) {
        (void)system;
        setModel(std::move(standIn));
    }
    // The particle systems the current model's proxies name, as found (empty when the view draws none).
    virtual std::vector<ProxyParticles> proxyParticles() const { return {}; }
    // Names of particle textures that were not found (each once; drawn as soft round sprites).
    virtual QStringList missingParticleTextures() const { return {}; }
    // clip may be null (bind pose).
    virtual void setClip(std::shared_ptr<const Clip> clip) = 0;
    // Continuous frame position; wrapped with rs::wrapFrame(frame, frameCount, mode).
    virtual void setFrame(float frame, LoopMode mode) = 0;
    virtual void setSettings(const ViewSettings& settings) = 0;
    // Where textures, proxy models and particle systems are found.
    virtual void setResolver(std::shared_ptr<const Resolver> resolver) = 0;
    virtual void setHighlightedBone(int bone) = 0; // -1 = none
    virtual int highlightedBone() const = 0;
    virtual void setBoneHidden(int bone, bool hidden) = 0;
    virtual bool boneHidden(int bone) const = 0;
    virtual void frameModel() = 0;
    // The camera as it is now, and put back: a game object opened again in place (a live reload) keeps the user's
    // view. Opaque to the caller, for the same view only; null from views without a camera of their own.
    virtual std::shared_ptr<const void> cameraState() const { return nullptr; }
    virtual void setCameraState(const std::shared_ptr<const void>& state) { (void)state; }
    // The camera (a Qt3DRender::QCamera) when the view has one, for linking views; null otherwise.
    virtual QObject* camera() const { return nullptr; }

    // Labels drawn now (-1 when the view draws none), and the label near a widget position (-1 = none).
    virtual int labelsShown() const { return -1; }
    virtual int labelAt(const QPoint&) const { return -1; }

    // True while textures of the current model are still being decoded/uploaded.
    virtual bool texturesPending() const { return false; }

    // Renders the current state and calls done(image) on the GUI thread (null image on failure).
    virtual void capture(std::function<void(const QImage&)> done) = 0;

  signals:
    // Emitted once per frame actually presented (drives the fps counter).
    void framePresented();
};

// The best view available in this build.
std::unique_ptr<ModelView> createModelView(QObject* parent = nullptr);

} // namespace rs::ui
