// W3D spheres (0x741) and rings (0x742) drawn as ww3d2 draws them (SphereRenderObjClass / RingRenderObjClass in the
// released Renegade and Zero Hour sources): ww3d2's own meshes (w3d/w3d_primitive_mesh.h) whose colour, alpha, size
// and (spheres) alpha vector follow the primitive's keyframes, textured with the texture the definition names and
// blended by the primitive's shader.
//
// Contract
// - One entity per sphere or ring marker of the model (Marker::fx); its triangles are rebuilt in world space by
//   update() at the effect clock's time (the view's particle time). Sphere: the 14 x 14 unit sphere of
//   SphereMeshClass (ww3d2's finest level of detail; the engine draws coarser ones when small on screen) scaled by
//   extent * scale on its bone, or, when camera aligned (flag 2), at the bone's position with its +X towards the
//   viewer, +Y along the camera's right and +Z along its up (the view-space matrix of SphereRenderObjClass::Render).
//   Ring: RingMeshClass's 28-slice strip, inner and outer radii per axis (extent * scale), in the bone's XY plane,
//   or in the camera's right/up plane when camera aligned (flag 1).
// - Colour (ww3d2's lit emissive colour): additive shaders (dst ONE) add colour * alpha; others carry colour and
//   alpha, blended by the shader: src SRC_ALPHA / dst ONE_MINUS_SRC_ALPHA blends over by alpha; src ZERO / dst
//   SRC_COLOR (modulate) multiplies; otherwise opaque (depth written). The depth test always applies.
// - Sphere alpha vector (flag 1): per vertex, alphaVectorValue() of the vector at that time (sphereVector) and the
//   inverse flag (4) scales the colour of additive spheres and the alpha of the others (SphereMeshClass::Set_DCG).
//   Note: the released DX8 code writes these values into the vertex colours but lights the sphere's material from
//   material colours only, so by Direct3D's fixed-function rules the games may not show the falloff; rigscope
//   draws it as computed (what the effect's author set in W3DView).
// - Texture: the definition's texture name through the TextureCache (resolved like model textures, recorded with
//   them, so a missing one is listed as missing); UVs as ww3d2 generates them: the sphere's latitude/longitude
//   mapping, the ring's u = tiles * i / slices around and v 0 inner, 1 outer (textureTiles). The shader's primary
//   gradient combines it with the colour (0 texture only, 2 add, otherwise modulate), as with texturing forced on
//   because a texture exists (render_sphere / render_ring). A texture not found is drawn untextured and listed by
//   notDrawn().
#pragma once

#include "scene/model.h"

#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace Qt3DCore {
class QBuffer;
class QEntity;
class QNode;
class QAttribute;
} // namespace Qt3DCore
namespace Qt3DRender {
class QAbstractTexture;
class QEffect;
class QGeometryRenderer;
class QShaderProgram;
} // namespace Qt3DRender

namespace rs::w3d {
struct PrimitiveMesh;
}

namespace rs::render {

class TextureCache;

class W3dPrimitives {
  public:
    explicit W3dPrimitives(Qt3DCore::QNode* root);
    ~W3dPrimitives();

    // One entity per sphere/ring marker of `model` under parent (identitySlot: the palette's identity slot);
    // textures resolves the definitions' texture names.
    void build(Qt3DCore::QEntity* parent, const rs::Model& model, int identitySlot, TextureCache& textures);
    void reset(); // the entities went with their parent

    // World transform of a main-model bone (-1: identity) now.
    using BoneWorld = std::function<glm::mat4(int bone)>;
    // Rebuilds every primitive at `seconds` on the effect clock; view: the camera's world-to-view matrix (camera
    // aligned primitives); shown(its bone) false (or !enabled) hides it.
    void update(double seconds, const BoneWorld& boneWorld, const glm::mat4& view,
                const std::function<bool(int bone)>& shown);
    void setEnabled(bool on);

    size_t count() const { return items_.size(); } // primitives built
    size_t drawn() const { return drawn_; }        // primitives drawn at the last update()
    QStringList notDrawn() const { return notDrawn_; }

  private:
    struct Item {
        std::shared_ptr<const rs::MarkerFx> fx;
        int bone = -1;
        glm::mat4 local{1.0f}; // marker transform (relative to the bone)
        Qt3DCore::QEntity* entity = nullptr;
        Qt3DCore::QBuffer* buffer = nullptr;
        std::shared_ptr<const rs::w3d::PrimitiveMesh> ringMesh; // rings: UVs per its tiling
        int kind = 0;                                           // 0 opaque, 1 additive, 2 alpha, 3 modulate
        bool enabled = false;
    };
    Qt3DRender::QEffect* effect(int kind, bool texture, int pri);

    Qt3DCore::QNode* root_ = nullptr;
    std::map<int, Qt3DRender::QShaderProgram*> programs_;
    std::map<int, Qt3DRender::QEffect*> effects_;
    std::vector<Item> items_;
    QStringList notDrawn_;
    uint16_t identitySlot_ = 0;
    size_t drawn_ = 0;
    bool enabled_ = true;
};

} // namespace rs::render
