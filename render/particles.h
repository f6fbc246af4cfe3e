// Particles: Alamo particle systems drawn from core's deterministic simulation (particles/particle_sim.h).
//
// Contract
// - One entity per emitter: camera-facing quads (world-XY quads for world-oriented emitters), one instanced draw
//   (per-instance attributes, divisor 1) whose buffer and instance count are rewritten by update().
// - Blend per emitter (rs::ParticleBlend): additive (and depth-additive) add colour * alpha; alpha, depth-alpha,
//   diffuse-alpha and alpha-scanlines blend over; modulate, depth-modulate and the stencil-darken modes
//   multiply; opaque writes depth. Heat, bump and decal-bump emitters (screen distortion) and unknown blend
//   values are not drawn and are listed in notDrawn(), as are emitters past 1024 in the scene.
// - W3D emitters in a line mode (render mode 2 line, 3/4 line groups) draw camera-facing ribbons, one instance per
//   segment (particles/w3d_lines.h: a line through the particles in birth order, or streaks from each particle back
//   along its velocity for its blur time, the tail coloured as ww3d2 colours it); they have no low-resolution pass.
// - Emitters with a tail (0x41, not world-oriented) draw "kites" as the engine does: the quad turned into a
//   diamond in the plane through the particle's velocity that faces the camera, its rear corner pulled out by the
//   tail size (0x42) so that it trails behind the particle.
// - The emitter's colour texture is looked up like model textures (TextureCache: recorded once per use, so
//   missing ones are reported with the model's); where it is not found the quad is a soft round sprite.
// - A system follows its bone: births use the bone's world transform at the birth time (boneWorldAt).
// - Emitters draw in the order of the attachments and, within one, of the system's emitters: the order the engine
//   creates the systems and draws them (Zero Hour's W3DParticleSystemManager::doParticles walks the manager's list of
//   systems in creation order, one draw per system; an object state's ParticleSysBone systems are created in the
//   INI's order), the web page's order too. Qt3D's back-to-front sort of the transparent layer is a stable sort on
//   the depth of each entity's bounding-volume centre, and an emitter's quad has no position attribute, so without
//   one the order of emitters was whatever order Qt3D gathered the entities in. Each emitter's geometry therefore has
//   a bounding-volume position attribute (4 points, not read by the shader; orderEmitters()) centred at the model's
//   origin and pulled towards the eye by a ten-thousandth of the origin's distance per emitter drawn before it.
// - Additive and alpha particles at least lowResMinPixels tall on screen are drawn into the frame graph's
//   low-resolution target instead (premultiplied, one pass per effect, "particlesLow"), which a full-window quad
//   composites; lowResUsed() says whether any was drawn at the last update (the caller turns the target on). The
//   vertex shader and update() decide with the same formula, so no particle is drawn twice or lost.
#pragma once

#include "composite_tiles.h"
#include "particles/particle_preview.h"
#include "particles/particle_sim.h"
#include "particles/particle_system.h"
#include "particles/w3d_lines.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <vector>

namespace Qt3DCore {
class QAttribute;
class QBuffer;
class QEntity;
class QNode;
} // namespace Qt3DCore
namespace Qt3DRender {
class QAbstractTexture;
class QEffect;
class QGeometryRenderer;
class QParameter;
class QShaderProgram;
} // namespace Qt3DRender

namespace rs::render {

class TextureCache;

using rs::particleLoopSeconds; // core/particles/particle_preview.h

// A particle system placed in the scene: on a proxy of the model, or shown alone.
struct ParticleAttachment {
    int proxy = -1; // index into the main model's proxies; -1 = the system shown alone
    int bone = -1;  // main-model bone it follows; -1 = the model origin
    QString name;   // the proxy's name (or the system's name when alone)
    QString file;   // where the system was found (a path or "<archive>:<entry>"); empty = not found
    QString error;  // why a found file could not be read
    std::shared_ptr<const rs::ParticleSystem> system; // null when not found or unreadable
};

class Particles {
  public:
    explicit Particles(Qt3DCore::QNode* root); // effects are created under root on demand, shared by emitters

    // Builds one entity per emitter of every attachment with a system, under parent.
    void build(Qt3DCore::QEntity* parent, std::vector<ParticleAttachment> attachments, TextureCache& textures);
    void reset(); // the entities went with their parent
    const std::vector<ParticleAttachment>& attachments() const { return attachments_; }

    // World transform of a main-model bone (-1: identity) at a time in seconds.
    using BoneWorld = std::function<glm::mat4(int bone, double time)>;
    // Simulates every shown attachment at time and uploads its particles; shown(i): attachment i is drawn. The
    // particles of alpha-blended emitters are uploaded farthest from eye first.
    void update(double time, const BoneWorld& boneWorld, const std::function<bool(size_t)>& shown,
                const glm::vec3& eye);
    void setEnabled(bool on);

    // The composite of the low-resolution colour texture, an entity under parent (once, before build).
    void setLowResTarget(Qt3DCore::QEntity* parent, Qt3DRender::QAbstractTexture* color);
    // Camera for the next update(): view and projection matrices, the window's size in pixels, and the screen
    // height in pixels from which a particle goes to the low-resolution target (float max: never).
    void setView(const glm::mat4& view, const glm::mat4& projection, int width, int height, float lowResMinPixels);
    bool lowResUsed() const { return lowResUsed_; }
    // How many times the low-resolution particles of the last update() cover the window (each particle's quad on
    // screen, at most the window, summed).
    float lowResFill() const { return lowFill_; }
    // The composite's rectangles after the last update() (NDC x0, y0, x1, y1), empty when it is off.
    const std::vector<glm::vec4>& compositeRects() const { return compositeRectsShown_; }

    size_t drawn() const { return drawn_; } // particles drawn after the last update()
    bool sortsByView() const;               // some drawn emitter's order depends on the eye (update again)
    QStringList notDrawn() const;           // "<system>/<emitter>: <why>" for emitters drawn by nobody

    // World positions of the particles of every attachment (every one for which shown(i) is true, when given) at a
    // few times in [0, seconds] (framing), each grown by half its size along the axes.
    void samplePoints(double seconds, const BoneWorld& boneWorld, std::vector<glm::vec3>& out,
                      const std::function<bool(size_t)>& shown = {}) const;

  private:
    struct Emitter {
        size_t attachment = 0, emitter = 0;
        Qt3DCore::QEntity* entity = nullptr;
        Qt3DCore::QBuffer* buffer = nullptr;
        std::vector<Qt3DCore::QAttribute*> attributes;
        Qt3DRender::QGeometryRenderer* renderer = nullptr;
        Qt3DCore::QBuffer* bounds = nullptr; // 4 points whose centre is the draw order's depth key (see the contract)
        glm::vec3 boundsCentre{std::numeric_limits<float>::quiet_NaN()};
        QByteArray data;
        uint capacity = 0;
        bool enabled = true;
        bool sortBackToFront = false; // alpha blending: order matters
        bool lowResCapable = false;   // additive or alpha: large particles go to the low-resolution target
        bool worldOriented = false;
        float tail = 0.0f;  // kites: tail size (0x42), else 0
        bool lines = false; // W3D line modes (particles/w3d_lines.h): one instance per segment, no low-resolution pass
    };
    struct System {
        std::unique_ptr<rs::ParticleSimulator> sim;
        rs::ParticleBuffer buffer;
        uint64_t seed = 1;
    };
    // The effect of an emitter: blend kind (0 opaque, 1 additive, 2 alpha, 3 modulate), depth test, textured or the
    // round sprite, orientation (0 camera-facing, 1 world-oriented, 2 kite, 3 W3D line segment); shared by emitters
    // alike.
    Qt3DRender::QEffect* effect(int kind, bool noDepthTest, bool texture, int orient);
    Qt3DRender::QShaderProgram* program(int kind, bool low, bool texture, int orient);
    void upload(Emitter& e, const rs::ParticleBuffer& buf, uint32_t grid, const glm::vec3& eye);
    void orderEmitters(const glm::vec3& eye); // the drawn emitters' bounding volumes, in their order

    Qt3DCore::QNode* root_ = nullptr;
    std::map<int, Qt3DRender::QEffect*> effects_;
    std::vector<ParticleAttachment> attachments_;
    std::vector<System> systems_; // per attachment (sim null when it has no system)
    std::vector<Emitter> emitters_;
    std::vector<std::pair<float, uint32_t>> order_; // (distance², index) scratch for sorting
    std::vector<rs::W3dLineSegment> segments_;      // scratch for W3D line emitters
    QStringList notDrawn_;
    size_t drawn_ = 0;
    bool enabled_ = true;
    std::map<int, Qt3DRender::QShaderProgram*> programs_; // per variant (program())
    std::vector<Qt3DRender::QParameter*> thresholds_;     // "lowResMinPixels" of every effect
    Qt3DCore::QEntity* composite_ = nullptr;
    Qt3DCore::QBuffer* compositeRects_ = nullptr; // per instance: NDC x0, y0, x1, y1 of a marked tile run
    Qt3DCore::QAttribute* compositeRectAttr_ = nullptr;
    Qt3DRender::QGeometryRenderer* compositeRenderer_ = nullptr;
    uint compositeCapacity_ = 0;
    glm::mat4 viewProjection_{1.0f};
    glm::vec3 forward_{0.0f, 0.0f, -1.0f};
    float p00_ = 1.0f, p11_ = 1.0f, width_ = 1.0f, height_ = 1.0f;
    float lowResMinPixels_ = std::numeric_limits<float>::max();
    CompositeTiles lowTiles_; // the window's tiles the low-resolution quads cover (the composite shades only these)
    std::vector<glm::vec4> compositeRectsShown_;
    bool lowResUsed_ = false;
    float lowFill_ = 0.0f;
};

} // namespace rs::render
