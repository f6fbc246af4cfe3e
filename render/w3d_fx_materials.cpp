// SAGE shader materials (MeshMaterials' W3D .fx half): a NormalMapped.fx sub-mesh drawn by its formula
// (glsl/w3d_fx.vert), C&C 3's Objects*.fx by Objects.fxh's (glsl/w3x_objects.vert), Infantry/BasicW3D/Tree.fx and
// DefaultW3D.fx by BasicW3D.fxh's and DefaultW3D.fxh's (glsl/w3x_basic.vert), each with its constants and textures
// bound by the property names the file uses. Render states of the effect as the game draws it: opaque (depth test
// and writes, no blending) unless the binding's states say otherwise (BlendMode, DepthWriteEnable), alpha test when
// AlphaTestEnable, back faces culled unless the mesh is two-sided (the W3D rule of the material policy) or the
// effect turns culling off (CullingEnable).
#include "mesh_materials.h"

#include "fx_uniforms.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "texture_cache.h"

#include <Qt3DCore/QEntity>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QTexture>

#include <QVector2D>

#include <QVector3D>
#include <QVector4D>
#include <algorithm>

namespace rs::render {

void MeshMaterials::setBuildFraction(float fraction) {
    buildFraction_ = std::clamp(fraction, 0.0f, 1.0f);
    buildupParams_.erase(std::remove_if(buildupParams_.begin(), buildupParams_.end(),
                                        [](const QPointer<Qt3DRender::QParameter>& p) { return p.isNull(); }),
                         buildupParams_.end());
    for (const QPointer<Qt3DRender::QParameter>& p : buildupParams_)
        p->setValue(buildFraction_);
}

fx::OnDemandProgram& MeshMaterials::w3dFxProgram(int key) {
    auto& p = w3dFxPrograms_[key];
    if (!p) {
        QByteArray v(shaders::desktopPrefix);
        QByteArray f = v;
        if (key & kFxAlphaTest) f += "#define ALPHA_TEST\n";
        if (key & kFxSpecMap) f += "#define SPECMAP\n";
        if (key & kFxRecolor) f += "#define RECOLOR\n";
        if (key & kFxScrollHouseColor) f += "#define SCROLL_HOUSECOLOR\n";
        if (key & kFxAlien) {
            f += "#define OBJECTS_ALIEN\n";
            v += "#define OBJECTS_ALIEN\n";
        }
        if (key & kFxIonHull) f += "#define ION_HULL\n";
        if (key & kFxHouseSelfIllum) f += "#define HOUSE_SELFILLUM\n";
        if (key & kFxBuildup) {
            f += "#define BUILDUP\n";
            v += "#define BUILDUP\n";
        }
        if (key & kFxEnvCube) {
            f += "#define ENV_CUBE\n";
            v += "#define ENV_CUBE\n";
        }
        if (key & kFxEffects) {
            QByteArray d;
            if (key & kFxAlienShield) d += "#define ALIEN_SHIELD\n";
            if (key & kFxMuzzleFlash) d += "#define MUZZLE_FLASH\n";
            if (key & kFxDistortion) d += "#define DISTORTION\n";
            if (key & kFxShieldFalloff) d += "#define SHIELD_FALLOFF\n";
            p = std::make_unique<fx::OnDemandProgram>(root_, v + d + shaders::w3xEffectsVertex,
                                                      f + d + shaders::w3xEffectsFragment);
        } else if (key & kFxTiberium) {
            p = std::make_unique<fx::OnDemandProgram>(root_, v + shaders::w3xTiberiumVertex,
                                                      f + shaders::w3xTiberiumFragment);
        } else if (key & kFxBasic) {
            QByteArray d;
            if (key & kFxDefaultW3d) d += "#define DEFAULT_W3D\n";
            if (key & kFxHouseColor) d += "#define HOUSE_COLOR\n";
            if (key & kFxTreeSway) d += "#define TREE_SWAY\n";
            if (key & kFxSimple) d += "#define SIMPLE\n";
            p = std::make_unique<fx::OnDemandProgram>(root_, v + d + shaders::w3xBasicVertex,
                                                      f + d + shaders::w3xBasicFragment);
        } else if (key & kFxObjects)
            p = std::make_unique<fx::OnDemandProgram>(root_, v + shaders::w3xObjectsVertex,
                                                      f + shaders::w3xObjectsFragment);
        else
            p = std::make_unique<fx::OnDemandProgram>(root_, v + shaders::w3dFxVertex, f + shaders::w3dFxFragment);
    }
    return *p;
}

Qt3DRender::QEffect* MeshMaterials::w3dFxEffect(int key, bool cullBack) {
    using DT = Qt3DRender::QDepthTest;
    const int effectKey = key * 2 + (cullBack ? 1 : 0);
    if (auto it = w3dFxEffects_.find(effectKey); it != w3dFxEffects_.end()) return it->second;
    fx::OnDemandProgram& prog = w3dFxProgram(key);
    auto cull = [&](Qt3DRender::QRenderPass* rp) {
        for (auto* st : rp->renderStates())
            if (auto* cf = qobject_cast<Qt3DRender::QCullFace*>(st))
                cf->setMode(cullBack ? Qt3DRender::QCullFace::Back : Qt3DRender::QCullFace::NoCulling);
    };
    auto* wire = wireProgram_->pass("wire");
    fx::depth(wire, DT::LessOrEqual, false);
    if (key & kFxReadsFrame) {
        // C&C 3's distortion shaders: drawn in the heat pass after everything else, reading the copy of the frame
        // (FrameGraph::setHeatEnabled), replacing the pixel (the frame moved by the distortion) instead of blending.
        auto* main = prog.pass("heat");
        cull(main);
        fx::depth(main, DT::LessOrEqual, false);
        Qt3DRender::QEffect* e = fx::effect(root_, {main, wire});
        w3dFxEffects_[effectKey] = e;
        return e;
    }
    if (key & (kFxBlendAlpha | kFxBlendAdditive | kFxBlendMultiply | kFxNoDepthWrite)) {
        // BasicW3D/DefaultW3D's BlendMode and DepthWriteEnable: blended in the transparent pass (as the Alamo
        // blending techniques are), or opaque without depth writes.
        using BA = Qt3DRender::QBlendEquationArguments;
        const bool blended = key & (kFxBlendAlpha | kFxBlendAdditive | kFxBlendMultiply);
        auto* main = prog.pass(blended ? "transparent" : "opaque");
        cull(main);
        fx::depth(main, DT::LessOrEqual, !(key & kFxNoDepthWrite));
        if (key & kFxBlendAlpha) fx::blend(main, BA::SourceAlpha, BA::OneMinusSourceAlpha);
        if (key & kFxBlendAdditive) fx::blend(main, BA::One, BA::One);
        if (key & kFxBlendMultiply) fx::blend(main, BA::DestinationColor, BA::Zero);
        Qt3DRender::QEffect* e = fx::effect(root_, {main, wire});
        w3dFxEffects_[effectKey] = e;
        return e;
    }
    auto* main = prog.pass("opaque");
    cull(main);
    fx::depth(main, DT::LessOrEqual, true);
    auto* low = depthProgram_->pass("lowdepth");
    fx::depth(low, DT::Less, true);
    low->addRenderState(fx::noColorWrites(low));
    Qt3DRender::QEffect* e = fx::effect(root_, {main, wire, low});
    w3dFxEffects_[effectKey] = e;
    return e;
}

void MeshMaterials::bindFx(Qt3DRender::QMaterial* mat, const FxBinding& binding, const QString& meshName, int subIndex,
                           TextureCache& textures) {
    auto standIn = [&](FxStandIn s) -> Qt3DRender::QAbstractTexture* {
        switch (s) {
        case FxStandIn::White:
            return textures.white();
        case FxStandIn::Clear:
            return textures.clear();
        case FxStandIn::FlatNormal:
            return textures.flatNormal();
        case FxStandIn::Checker:
            break;
        }
        return textures.checker();
    };
    bool missingBase = false;
    for (const FxTextureSlot& slot : binding.textures) {
        Qt3DRender::QAbstractTexture* t = standIn(slot.none);
        if (!slot.texture.empty()) {
            t = textures.get(slot.texture, meshName, subIndex, QString::fromStdString(slot.parameter), mat);
            if (t == textures.checker()) {
                t = standIn(slot.missing);
                if (slot.base) {
                    missingBase = true;
                    if (binding.doublesBase) t = textures.checkerHalf(); // neutral grey after the formula's x2
                }
            }
        }
        addParam(mat, slot.uniform.c_str(), QVariant::fromValue(t));
    }
    for (const FxUniform& u : binding.uniforms) {
        const glm::vec4 v = u.value;
        const QVariant q = u.components == 1   ? QVariant(v.x)
                           : u.components == 2 ? QVariant(QVector2D(v.x, v.y))
                           : u.components == 3 ? QVariant(QVector3D(v.x, v.y, v.z))
                                               : QVariant(QVector4D(v.x, v.y, v.z, v.w));
        addParam(mat, u.name.c_str(), q);
    }
    if (binding.program == "alamo") addParam(mat, "mMaskScale", missingBase ? 0.0f : 1.0f);
}

int MeshMaterials::buildW3dFx(Qt3DCore::QEntity* entity, const rs::Mesh& mesh, const rs::SubMesh& sm, int subIndex,
                              int skinMode, int rigidSlot, bool cullBack, rs::ShaderImpl impl, TextureCache& textures) {
    auto* mat = new Qt3DRender::QMaterial(entity);
    const FxBinding binding = fxBinding(mesh, sm.material, impl, kanesWrath_);
    bindFx(mat, binding, QString::fromStdString(mesh.name), subIndex, textures);
    int key = binding.program == "w3x_objects"    ? kFxObjects
              : binding.program == "w3x_basic"    ? kFxBasic
              : binding.program == "w3x_tiberium" ? kFxTiberium
              : binding.program == "w3x_effects"  ? kFxEffects
                                                  : 0;
    for (const std::string& d : binding.defines)
        key |= d == "ALPHA_TEST"          ? kFxAlphaTest
               : d == "SPECMAP"           ? kFxSpecMap
               : d == "RECOLOR"           ? kFxRecolor
               : d == "SCROLL_HOUSECOLOR" ? kFxScrollHouseColor
               : d == "DEFAULT_W3D"       ? kFxDefaultW3d
               : d == "HOUSE_COLOR"       ? kFxHouseColor
               : d == "TREE_SWAY"         ? kFxTreeSway
               : d == "OBJECTS_ALIEN"     ? kFxAlien
               : d == "ALIEN_SHIELD"      ? kFxAlienShield
               : d == "MUZZLE_FLASH"      ? kFxMuzzleFlash
               : d == "DISTORTION"        ? kFxDistortion
               : d == "SHIELD_FALLOFF"    ? kFxShieldFalloff
               : d == "ION_HULL"          ? kFxIonHull
               : d == "BUILDUP"           ? kFxBuildup
               : d == "HOUSE_SELFILLUM"   ? kFxHouseSelfIllum
               : d == "SIMPLE"            ? kFxSimple
                                          : 0;
    if (binding.states.blend == FxBlend::Alpha) key |= kFxBlendAlpha;
    if (binding.states.blend == FxBlend::Additive) key |= kFxBlendAdditive;
    if (binding.states.blend == FxBlend::Multiply) key |= kFxBlendMultiply;
    if (!binding.states.depthWrite) key |= kFxNoDepthWrite;
    if (binding.states.readsFrame) key |= kFxReadsFrame;
    if (binding.states.twoSided) cullBack = false;
    // ObjectsGenericEnvMap.fx (SPECIFY_CUSTOM_ENVMAP): the material's own cube, sampled by the formula; when it is
    // not found or not a cube map the scene ambient stands in (the program without ENV_CUBE), as "drawn by" says.
    if (const std::string cubeName = envCubeTexture(sm.material, impl); !cubeName.empty())
        if (Qt3DRender::QAbstractTexture* cube = textures.getCube(cubeName, QString::fromStdString(mesh.name), subIndex,
                                                                  QStringLiteral("EnvironmentTexture"), mat)) {
            addParam(mat, "obEnvironmentCube", QVariant::fromValue(cube));
            key |= kFxEnvCube;
        }
    if (key & kFxBuildup) // the view's built fraction instead of the binding's 1; updated by setBuildFraction
        for (Qt3DRender::QParameter* p : mat->parameters())
            if (p->name() == QLatin1String("obBuildup")) {
                p->setValue(buildFraction_);
                buildupParams_.emplace_back(p);
            }
    addParam(mat, "skinMode", skinMode);
    addParam(mat, "rigidSlot", rigidSlot);
    const size_t n = sm.positions.size();
    addParam(mat, "hasVertexColor", sm.colors.size() == n ? 1 : 0);
    addParam(mat, "hasTexCoord1", sm.uv1.size() == n ? 1 : 0);
    mat->setEffect(w3dFxEffect(key, cullBack));
    entity->addComponent(mat);
    return key;
}

} // namespace rs::render
