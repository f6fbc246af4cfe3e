// SceneView: a Qt3D window showing one rs::Model (plus attached proxy models) posed by an optional clip.
//
// Contract
// - Set QT3D_RENDERER=opengl before constructing (the app's main does): skinning and integer vertex
//   attributes need Qt3D's OpenGL backend.
// - setModel() builds one entity per drawable sub-mesh, sharing one QEffect per (shader family, fragment
//   variant), decodes textures on the CPU (own DDS/TGA decoders) and frames the camera. Proxy models
//   (<proxy base name>.alo, found like particle systems: ProxyFileLookup) are attached to their bone.
//   setClip()/setFrame()/setTime() only update uniforms (bone palette, dazzle instances, visibility): no geometry
//   is rebuilt while playing.
// - Texture problems (missing, unreadable) never fail: the mesh is drawn in a neutral grey and textures()
//   reports them.
// - The window is created by the view. Embed it with QWidget::createWindowContainer(window()); when the
//   container deletes it first, the view's methods become no-ops (capture() reports a null image).
#pragma once

#include "orbit_camera.h"
#include "proxy_parts.h"

#include <QColor>
#include <QImage>
#include <QList>
#include <QObject>
#include <QPoint>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Qt3DExtras {
class Qt3DWindow;
}

namespace rs {
struct Model;
struct Clip;
struct ParticleSystem;
} // namespace rs

namespace rs {
class Resolver;
}

namespace rs::render {

struct ViewOptions {
    int lod = -1;                      // -1 = highest LOD present
    int alt = 0;                       // ALT level (0 = undamaged); nearest available per base name
    QColor factionColor{40, 110, 255}; // replaces Colorization / FC_ colours
    bool night = false;                // show night-only dazzles
    bool showSkeleton = false;         // bones as lines, highlighted bone in yellow (always drawn when the
                                       // model has no drawable mesh, e.g. a W3D hierarchy or clip file)
    bool wireframe = false;            // triangle edges over the shaded model
    bool lights = true;                // model lights (off = default rig only)
    bool dazzles = true;
    bool proxies = true;   // proxy markers and attached proxy models
    bool markers = true;   // rs::Marker boxes/nulls
    bool labels = false;   // names of all proxies and markers; off: only the selected bone's and the hovered one
    bool pointSets = true; // rs::PointSet overlays (B&W2 collision footprint, unknown points)
    bool particles = true; // particle systems on proxies (and a system shown alone)
    // Particles taller than a sixth of the view drawn at a quarter of its resolution and blended over it (see
    // FrameGraph); off: every particle at full resolution.
    bool lowResParticles = true;
    bool grid = true;
    bool showHidden = false; // also draw meshes hidden by flag, shadow and collision meshes
    QColor background{48, 52, 60};
    // The Alamo engine's light set-up (lights.h AlamoLightRig): preset 0 land, 1 space; the sun's compass angle
    // and elevation in degrees.
    int lightPreset = 0;
    float sunAzimuth = 0.0f, sunElevation = 45.0f;
    // Where textures, proxy models and particle systems are found (the session's mounted folders and texture
    // folders); null: a resolver with none. A different resolver reloads the model's materials and proxies.
    std::shared_ptr<const rs::Resolver> resolver;
    // The mounted game is Kane's Wrath: C&C 3 Objects shaders take house colour as KW's Objects.fxh applies it (by
    // the spec map's self-illumination); otherwise as C&C 3's compiled effects do (RecolorTexture). A change
    // rebuilds the materials.
    bool kanesWrath = false;
    // ObjectsAlienBuildup.fx's built fraction (the engine's OpacityOverride while a structure builds), 0..1; 1 is
    // built. A change updates the materials' uniform (no rebuild).
    float buildFraction = 1.0f;
};

// Faction colour presets (name, colour) offered by the UI.
QList<QPair<QString, QColor>> factionPresets();

struct TextureInfo {
    QString mesh;        // mesh name
    int subMesh = 0;     // sub-mesh index within the mesh
    QString parameter;   // material parameter, e.g. "BaseTexture"; "Dazzle" for the dazzle atlas
    QString name;        // as stored in the file
    QString path;        // resolved file, empty when not found
    bool loaded = false; // path found and decoded
    QString error;       // why a found file could not be used
};

// A particle system named by a proxy (or shown alone) and where it was found.
struct ParticleInfo {
    int proxy = -1;       // main model's proxy index; -1 = the system shown alone
    int bone = -1;        // bone it follows
    QString name;         // proxy name (the system's name when alone)
    QString file;         // resolved file; empty = not found
    QString error;        // why the found file could not be read
    int emitters = 0;     // emitters of the system (0 when not found)
    QStringList notDrawn; // emitters the view does not draw, with the reason
};

class SceneView : public QObject {
    Q_OBJECT
  public:
    explicit SceneView(QObject* parent = nullptr); // creates the owned Qt3DExtras::Qt3DWindow
    ~SceneView() override;

    Qt3DExtras::Qt3DWindow* window() const;
    // Draws without ever showing the window (recordings): its platform window is created at the window's size
    // but never mapped, so nothing appears on screen, and Qt3D starts drawing into it as it does when a window is
    // first shown. capture()/captureNext() read the frames as usual. Call instead of showing the window, after
    // sizing it; false when the window is already shown or gone.
    bool drawHidden();
    bool drawsHidden() const;

    // Shows model (nullptr clears). path is used to resolve textures, proxy models and particle systems.
    // Resets the clip to the bind pose and frames the camera. attachments: models a game object hangs at bones of
    // model (attachModels), drawn and posed with it; a clip's tracks for their bones play too.
    void setModel(std::shared_ptr<const rs::Model> model, const QString& path,
                  std::vector<Attachment> attachments = {});
    // Object attachments drawn (those with a model and a valid bone), and the first combined bone of one (the
    // index of its root bone for setBoneHidden/boneVisibility; -1 when it is not drawn).
    int attachmentsDrawn() const;
    int attachmentBoneOffset(int attachment) const;
    std::shared_ptr<const rs::Model> model() const;

    // Shows a particle system alone (nullptr clears): a one-bone model at the origin carrying it. Its time is
    // the pose time (setTime/setFrame); a clip without tracks of particleLoopSeconds() drives looping playback.
    // path: where its textures are looked up.
    void setParticleSystem(std::shared_ptr<const rs::ParticleSystem> system, const QString& path);
    // Particle systems of the model's proxies (found or not) or the system shown alone, in proxy order.
    QList<ParticleInfo> particleSystems() const;
    int particlesDrawn() const; // live particles drawn at the current time
    // W3D spheres and rings of the model (w3d_primitives.h): how many are drawn at the current time (with the
    // Particles toggle), and what of them is not drawn as the file says ("<name>: texture ... not found ...").
    int primitivesDrawn() const;
    QStringList primitivesNotDrawn() const;
    bool particlesLowRes() const;       // some were large enough for the low-resolution target at the current time
    int particlesLowResDivisor() const; // that target's size is the view's divided by this (4, or 8 when crowded)
    // Where that target is blended over the window (NDC x0, y0, x1, y1 rectangles; empty when it is not used).
    std::vector<glm::vec4> particlesCompositeRects() const;
    // Particles run at the pose time; while playing (steps under 0.5 s) across the end of the clip they keep
    // running instead of restarting; a jump sets them to the pose time again. Alone, they loop with the clip.

    // nullptr = bind pose. The clip is bound with rs::bindClip (problems() lists binding issues).
    void setClip(std::shared_ptr<const rs::Clip> clip);
    std::shared_ptr<const rs::Clip> clip() const;
    QStringList bindingProblems() const;

    // Pose time. setFrame uses the clip's fps to derive seconds (dazzles blink in seconds);
    // setTime derives the frame. Both loop the clip. Allocation-light: uniform updates only.
    void setFrame(float frame);
    void setTime(float seconds);
    float frame() const;
    float time() const;

    void setOptions(const ViewOptions& options);
    const ViewOptions& options() const;

    void setHighlightedBone(int bone);         // -1 = none; drawn when the skeleton is shown
    void setBoneHidden(int bone, bool hidden); // user override: hides what is attached to bone and children
    bool boneHidden(int bone) const;

    // Camera
    void frameModel(); // fits the visible model (current LOD/ALT) in view, seen from the camera's current angles
    void setCameraAngles(float yawDegrees, float pitchDegrees); // orbit around the model centre
    // Fixed orbit (turntables, `--orbit`): from now on (and for later models) the camera distance and centre hold
    // what is drawn at every yaw, so that setCameraAngles only turns the camera; off: fitted at each yaw.
    void setFixedOrbit(bool on);
    // The camera now (as the mouse, framing, setCameraAngles or a linked view left it).
    OrbitCamera orbitCamera() const;
    // Puts the camera where `c` says (target, angles, distance, field of view), the framed scene's centre and radius
    // kept: the window shows an edited model again from where the user was looking.
    void setOrbitCamera(const OrbitCamera& c);
    // Mouse over the window (the view does this by itself; orbit_camera.h says what each does): left-drag orbits
    // around the target (turntable: yaw about the up axis, pitch clamped, no roll), right- and middle-drag pan, the
    // wheel zooms toward the cursor, a double-click centres the camera on the point of the model under the cursor.
    // The F key frames the model (frameModel).
    // The point of a drawn mesh under a window position (pixels), if any: the nearest triangle hit at the pose.
    std::optional<glm::vec3> pickPoint(const QPoint& pos) const;

    // Asynchronous frame grab of the window: the first frame drawn once every shader program and texture of the
    // scene is ready (Qt3D compiles and uploads them during a frame that does not draw them yet; bounded wait of
    // 10 s). done() is called on the GUI thread with the image (a null image if the capture failed).
    void capture(std::function<void(const QImage&)> done);
    // The next frame as it is, without that wait: for a sequence of frames after a capture() (recording), each
    // showing the time, camera and options set before the call.
    void captureNext(std::function<void(const QImage&)> done);

    // Per material texture parameter and the dazzle texture: where it was found (empty = placeholder).
    QList<TextureInfo> textures() const;
    // True while some found texture is still being decoded (textures are decoded in setModel: always false
    // after it returns; kept for callers that wait on texturesResolved()).
    bool texturesPending() const;

    // Shader programs Qt3D was given so far (each is compiled, and translated by a software GL, even if unused).
    int shaderProgramCount() const;

    // Always = render continuously (benchmarks, playback); default OnDemand renders only after changes.
    void setContinuousRendering(bool on);

    // Labels: the one nearest to pos (window pixels, within 24 px) is shown as hovered; (-1,-1) = none.
    // Mouse moves over the window do this by themselves.
    void setHoverPoint(const QPoint& pos);
    int labelAt(const QPoint& pos) const; // label index near pos, -1 = none
    int labelsShown() const;              // labels drawn now

    // Effective visibility of each bone at the current frame (flags, clip tracks, user overrides).
    const std::vector<uint8_t>& boneVisibility() const;

  signals:
    void texturesResolved(); // all textures of the current model finished loading (or failed)
    void poseChanged();      // after setFrame/setTime/setClip updated the scene
    void frameSwapped();     // once per frame processed by Qt3D (drives playback/benchmarks)

  protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

  private:
    void buildScene(std::shared_ptr<const rs::Model> model, const QString& path);
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Finds a texture file for a material's texture name (case-insensitive on file names):
// extraDirs, the model's folder, ../Textures, <Data>/Art/Textures, W3D art/compiledtextures/<2 letters>/,
// trying the stored extension first, then .dds and .tga with the same stem. Empty when not found.
QString resolveTexture(const QString& name, const QString& modelPath, const QStringList& extraDirs);

} // namespace rs::render
