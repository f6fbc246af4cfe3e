// MeshMaterials: one Qt3D entity per drawable sub-mesh of the model parts (vertex buffers, skinning attributes,
// material parameters), the shader variants they share (one QEffect per family x fragment variant x culling),
// and which entities are enabled (LOD/ALT choice, hidden flags, bone visibility, proxy rules).
#pragma once

#include "formats/shader_registry.h"
#include "materials.h"
#include "proxy_parts.h"

#include <QPointer>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace Qt3DCore {
class QEntity;
class QNode;
} // namespace Qt3DCore
namespace Qt3DRender {
class QEffect;
class QMaterial;
class QGeometryRenderer;
class QShaderProgram;
class QParameter;
} // namespace Qt3DRender

namespace rs::render {

struct FxBinding;
struct W3dPassBinding;
struct W3dVertexArrays;

namespace fx {
class OnDemandProgram;
}
class TextureCache;
struct ViewOptions;

class MeshMaterials {
  public:
    explicit MeshMaterials(Qt3DCore::QNode* root); // effects and programs are created under root, on demand
    ~MeshMaterials();

    // Fill-rate steps (software GL spends most of a frame shading pixels). For measuring what each brings
    // (bench/playback_bench.sh), read once at construction: RIGSCOPE_FILL_OFF=step[,step] turns steps off,
    // RIGSCOPE_FILL_ON=step[,step] turns opt-in steps on.
    //   notexture  (on)  materials whose base texture has no image (none named or not found) skip the fetch
    //   lightcount (on)  the light loop stops at the lights in use instead of running all four slots
    //   prepass    (off) opaque meshes draw depth only first, then shade only the nearest surface of each pixel
    //                    (Alamo .fx implementations: with their own program, colour writes off).
    //                    Off by default: on llvmpipe the depth-only pass of every hidden fragment costs about what
    //                    it saves (EB_LIGHTFACTORY, 2.2 fragments per pixel at 720p: no gain, see
    //                    docs/PERFORMANCE.md), and its program adds to the start-up.
    struct FillSteps {
        bool depthPrepass = false, noTextureVariant = true, lightCount = true;
        // RIGSCOPE_GENERIC_SHADING=1: every material through the generic program (the look before the .fx
        // implementations; for comparisons and benchmarks).
        bool genericOnly = false;
    };
    const FillSteps& fillSteps() const { return steps_; }

    // Builds every sub-mesh of every part under parent. boneCount: the combined skeleton's size (palette layout,
    // see SkinPalette); textures resolves material textures.
    void build(Qt3DCore::QEntity* parent, const std::vector<Part>& parts, int boneCount, TextureCache& textures);
    void reset(); // the entities went with their parent
    bool empty() const { return items_.empty(); }

    // LOD/ALT choice per mesh of every part (rs::selectLodAlt), stored in parts[i].meshSelected.
    void selectLodAlt(std::vector<Part>& parts, int lod, int alt);
    // Compiles the depth-only program of the opaque meshes' "lowdepth" passes (FrameGraph's low-resolution
    // target), which draw nothing until then.
    void requireLowResDepth();
    void setWireframe(bool on); // the wire program is made when first shown
    // House colour of the C&C 3 Objects shaders as Kane's Wrath applies it (fxBinding's kanesWrath), for the
    // sub-meshes built after the call.
    void setKanesWrath(bool on) { kanesWrath_ = on; }
    // ObjectsAlienBuildup.fx's built fraction (obBuildup, 0..1): for the materials built from now on and, at once,
    // for those built before.
    void setBuildFraction(float fraction);
    // Enables the entities: selected, not hidden (unless showHidden), attach bone visible, proxy shown. Only the
    // shader programs of enabled entities exist (Qt3D compiles every program it is given).
    void updateVisibility(const std::vector<Part>& parts, const std::vector<uint8_t>& visible, bool showHidden,
                          const std::function<bool(int proxy)>& proxyShown);
    // Some heat mesh (MeshHeat) is drawn after the last updateVisibility: the frame graph's heat pass is needed.
    bool heatShown() const { return heatShown_; }

    // Appends up to maxPoints world positions sampled from the enabled sub-meshes at the pose (about 4000 per
    // sub-mesh) to out and grows lo/hi over them.
    void samplePoints(const std::vector<Part>& parts, const std::vector<glm::mat4>& world,
                      const std::vector<glm::mat4>& inverseBind, size_t maxPoints, std::vector<glm::vec3>& out,
                      glm::vec3& lo, glm::vec3& hi) const;
    // The nearest hit of the ray origin + t * dir (t > 0) with a triangle of the enabled sub-meshes at the pose,
    // each vertex placed as samplePoints places it: t, or a negative value when the ray hits none.
    float pick(const std::vector<Part>& parts, const std::vector<glm::mat4>& world,
               const std::vector<glm::mat4>& inverseBind, const glm::vec3& origin, const glm::vec3& dir) const;

  private:
    bool kanesWrath_ = false;
    float buildFraction_ = 1.0f;
    std::vector<QPointer<Qt3DRender::QParameter>> buildupParams_; // the obBuildup of each build-up material
    struct DrawItem {
        Qt3DCore::QEntity* entity = nullptr;
        int part = 0; // 0 = main model, i > 0 = parts[i] (attached proxy model)
        int mesh = 0, sub = 0;
        int attachBone = -1; // combined bone whose visibility controls this item
        bool flagHidden = false, shadowHidden = false;
        bool selected = true; // LOD/ALT choice
        bool enabled = true;
        int variant = 0;      // fragment variant (k* bits)
        int alamo = -1;       // Alamo implementation (rs::ShaderImpl) when drawn by its .fx program, else -1
        std::vector<int> w3d; // W3D program keys of its passes (drawn by the W3D program), else empty
        int w3dFx = -1; // shader-material program key (w3dFxProgram) when drawn by NormalMapped.fx or Objects, else -1
        bool opaque = false; // draws in the depth pre-pass too
    };
    enum : int { kBump = 1, kSpecular = 2, kUnlit = 4, kNoTexture = 8, kVariants = 16 };
    static FillSteps fillStepsFromEnvironment();
    void buildSubMesh(Qt3DCore::QEntity* parent, const std::vector<Part>& parts, int partIndex, int meshIndex,
                      int subIndex, int boneCount, TextureCache& textures);
    Qt3DRender::QEffect* meshEffect(Family family, int variant, bool cullBack);
    // The effect of an Alamo .fx implementation: its program and the .fx file's render states (blend, depth
    // writes, culling), shared by every entity drawn with it.
    Qt3DRender::QEffect* alamoEffect(rs::ShaderImpl impl, bool cullBack);
    fx::OnDemandProgram& alamoProgram(rs::ShaderImpl impl);
    // W3D (w3d_materials.cpp): one program per combination of compile-time switches, one effect per program and
    // render state; the passes of a sub-mesh as entities sharing its geometry (pass 0 = entity itself).
    // The passes' uniforms, switches and states are fx_uniforms.h's w3dPassBindings (shared with the web page).
    fx::OnDemandProgram& w3dProgram(int key);
    Qt3DRender::QEffect* w3dEffect(const W3dPassBinding& b, int passIndex, bool cullBack);
    void buildW3dPasses(Qt3DCore::QEntity* entity, Qt3DRender::QGeometryRenderer* gr, const rs::Mesh& mesh,
                        const rs::SubMesh& sm, int subIndex, int skinMode, int rigidSlot, bool cullBack,
                        const W3dVertexArrays& arrays, TextureCache& textures, std::vector<int>& programKeys);

    // Shader materials drawn by their .fx formula (w3d_fx_materials.cpp): BFME's NormalMapped.fx, C&C 3's
    // Objects*.fx and its BasicW3D/DefaultW3D family. One program per key (kFx* bits: the formula, its compile-time
    // switches and its render states) and one effect per key and culling; the material's constants and textures on
    // the sub-mesh's entity. Build* return the key.
    enum : int {
        kFxAlphaTest = 1,
        kFxObjects = 2,
        kFxSpecMap = 4,
        kFxRecolor = 8,
        kFxScrollHouseColor = 16,
        kFxBasic = 32, // glsl/w3x_basic (with kFxDefaultW3d, kFxHouseColor, kFxTreeSway)
        kFxDefaultW3d = 64,
        kFxHouseColor = 128,
        kFxTreeSway = 256,
        kFxBlendAlpha = 512, // render states (FxStates): SRCALPHA/INVSRCALPHA, ONE/ONE, no depth writes
        kFxBlendAdditive = 1024,
        kFxNoDepthWrite = 2048,
        kFxAlien = 4096,    // glsl/w3x_objects with OBJECTS_ALIEN
        kFxTiberium = 8192, // glsl/w3x_tiberium
        kFxEffects = 16384, // glsl/w3x_effects (with kFxAlienShield, kFxMuzzleFlash, kFxDistortion, kFxShieldFalloff)
        kFxAlienShield = 32768,
        kFxMuzzleFlash = 65536,
        kFxDistortion = 131072,
        kFxShieldFalloff = 262144,
        kFxReadsFrame = 524288,      // render state: drawn in the heat pass over the copy of the frame
        kFxIonHull = 1 << 20,        // w3x_objects ION_HULL (ObjectsAlienIonHull.fx)
        kFxBuildup = 1 << 21,        // w3x_objects BUILDUP (ObjectsAlienBuildup.fx)
        kFxHouseSelfIllum = 1 << 22, // w3x_objects HOUSE_SELFILLUM (Kane's Wrath's house colour)
        kFxSimple = 1 << 23,         // w3x_basic SIMPLE (Simple.fx)
        kFxBlendMultiply = 1 << 24,  // render state DESTCOLOR/ZERO (MuzzleFlash.fx's Multiply_M)
        kFxEnvCube = 1 << 25,        // w3x_objects ENV_CUBE (ObjectsGenericEnvMap.fx with its cube loaded)
    };
    fx::OnDemandProgram& w3dFxProgram(int key);
    Qt3DRender::QEffect* w3dFxEffect(int key, bool cullBack);
    int buildW3dFx(Qt3DCore::QEntity* entity, const rs::Mesh& mesh, const rs::SubMesh& sm, int subIndex, int skinMode,
                   int rigidSlot, bool cullBack, rs::ShaderImpl impl, TextureCache& textures);
    // Binds a .fx binding (fx_uniforms.h) as parameters of mat: uniforms, and textures found through `textures` or
    // their stand-ins; Alamo's mMaskScale (0 when the base texture is named and not found).
    void bindFx(Qt3DRender::QMaterial* mat, const FxBinding& binding, const QString& meshName, int subIndex,
                TextureCache& textures);

    Qt3DCore::QNode* root_ = nullptr;
    std::vector<DrawItem> items_;
    FillSteps steps_;
    std::map<int, Qt3DRender::QEffect*> effects_;
    std::array<std::unique_ptr<fx::OnDemandProgram>, kVariants> programs_;
    std::unique_ptr<fx::OnDemandProgram> depthProgram_, wireProgram_;
    std::map<int, std::unique_ptr<fx::OnDemandProgram>> alamoPrograms_;
    std::map<int, Qt3DRender::QEffect*> alamoEffects_;
    std::map<int, std::unique_ptr<fx::OnDemandProgram>> w3dPrograms_;
    std::map<long long, Qt3DRender::QEffect*> w3dEffects_;
    std::map<int, std::unique_ptr<fx::OnDemandProgram>> w3dFxPrograms_;
    std::map<int, Qt3DRender::QEffect*> w3dFxEffects_;
    bool heatShown_ = false;
};

} // namespace rs::render
