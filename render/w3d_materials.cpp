// W3D materials (MeshMaterials' W3D half): every ww3d2 pass of a sub-mesh as its own entity sharing the sub-mesh's
// geometry, drawn by the W3D program (shaders_w3d.cpp) with the pass's render states: blend factors from
// ShaderClass's tables (Generals: source zero/one/src-alpha/dest-colour, destination zero/one/src-colour/
// inv-src-colour/src-alpha/inv-src-alpha; blending off for one/zero), depth compare (file value + 1 as D3DCMPFUNC)
// and depth mask. Pass 0 draws in the opaque layer when it does not blend, else in the transparent layer; pass
// p > 0 draws in layer "w3dpass<p>" after both, so that the passes of a mesh draw in order.
#include "mesh_materials.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "texture_cache.h"
#include "w3d/w3d_mapper.h"

#include <Qt3DCore/QEntity>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QTexture>

#include <QVariantList>
#include <QVector2D>
#include <QVector3D>

namespace rs::render {

namespace {

using BA = Qt3DRender::QBlendEquationArguments;
using DT = Qt3DRender::QDepthTest;

BA::Blending srcFactor(int v) {
    switch (v) {
    case 0:
        return BA::Zero;
    case 2:
        return BA::SourceAlpha;
    case 3:
        return BA::DestinationColor; // Generals' srcBlendLUT[3]
    default:
        return BA::One;
    }
}
BA::Blending dstFactor(int v) {
    switch (v) {
    case 1:
        return BA::One;
    case 2:
        return BA::SourceColor;
    case 3:
        return BA::OneMinusSourceColor;
    case 4:
        return BA::SourceAlpha;
    case 5:
        return BA::OneMinusSourceAlpha;
    default:
        return BA::Zero;
    }
}
DT::DepthFunction depthFunc(int v) {
    switch (v) {
    case 0:
        return DT::Never;
    case 1:
        return DT::Less;
    case 2:
        return DT::Equal;
    case 4:
        return DT::Greater;
    case 5:
        return DT::NotEqual;
    case 6:
        return DT::GreaterOrEqual;
    case 7:
        return DT::Always;
    default:
        return DT::LessOrEqual;
    }
}
bool blends(const rs::W3dShaderBits& b) {
    const int s = b.srcBlend > 3 ? 1 : b.srcBlend, d = b.destBlend > 5 ? 0 : b.destBlend;
    return s != 1 || d != 0;
}

// Mapper arguments packed for the vertex stage (see mapStage in shaders_w3d.cpp).
void mapperUniforms(const rs::W3dMapper& m, QVector4D& a, QVector4D& b, QVector4D& c) {
    using T = rs::W3dMapperType;
    a = QVector4D(m.scale.x, m.scale.y, 0, 0);
    b = QVector4D(m.perSec.x, m.perSec.y, m.offset.x, m.offset.y);
    c = QVector4D(m.clampFix ? 1.0f : 0.0f, m.bumpRotation, m.bumpScale, 0);
    const int w = 1 << m.log2Width;
    const int last = m.last > 0 ? m.last : w * w;
    const float gridOffset = float(((m.frameOffset % last) + last) % last);
    switch (T(m.type)) {
    case T::Grid:
    case T::GridClassicEnv:
    case T::GridEnvironment:
    case T::GridWsClassicEnv:
    case T::GridWsEnvironment:
        a = QVector4D(m.fps, float(m.log2Width), float(last), gridOffset);
        b = QVector4D(float(m.axis), 0, 0, 0); // GridWS*: Axis
        break;
    case T::Rotate:
        b = QVector4D(m.speed, m.center.x, m.center.y, 0);
        break;
    case T::SineLinearOffset:
        b = QVector4D(m.uafp.x, m.uafp.y, m.uafp.z, 0);
        c = QVector4D(m.vafp.x, m.vafp.y, m.vafp.z, 0);
        break;
    case T::StepLinearOffset:
        b = QVector4D(m.step.x, m.step.y, m.sps, 0);
        break;
    case T::ZigzagLinearOffset:
        b = QVector4D(m.perSec.x, m.perSec.y, std::abs(m.period), 0);
        break;
    case T::Random:
        b = QVector4D(m.fps, m.perSec.x, m.perSec.y, 0);
        break;
    case T::WsClassicEnv:
    case T::WsEnvironment:
        a = QVector4D(float(m.axis), 0, 0, 0);
        break;
    case T::Edge:
        a = QVector4D(m.perSec.y, m.vStart, m.useReflect ? 1.0f : 0.0f, 0);
        break;
    default:
        break;
    }
}

} // namespace

int MeshMaterials::w3dProgramKey(const rs::W3dShaderBits& b) {
    const int pri = b.priGradient <= 5 ? b.priGradient : 1;
    const int dc = b.postDetailColorFunc <= 12 ? b.postDetailColorFunc : 0;
    const int da = b.postDetailAlphaFunc <= 3 ? b.postDetailAlphaFunc : 0;
    return pri | (b.texturing ? 8 : 0) | (dc << 4) | (da << 8) | (b.alphaTest ? 1 << 10 : 0) |
           (b.secGradient ? 1 << 11 : 0);
}

fx::OnDemandProgram& MeshMaterials::w3dProgram(int key) {
    auto& p = w3dPrograms_[key];
    if (!p) {
        QByteArray defs(shaders::desktopPrefix);
        defs += "#define PRI " + QByteArray::number(key & 7) + "\n";
        if (key & 8) defs += "#define TEXTURING\n";
        defs += "#define DCOLOR " + QByteArray::number((key >> 4) & 15) + "\n";
        defs += "#define DALPHA " + QByteArray::number((key >> 8) & 3) + "\n";
        if (key & (1 << 10)) defs += "#define ALPHA_TEST\n";
        if (key & (1 << 11)) defs += "#define SEC_GRADIENT\n";
        p = std::make_unique<fx::OnDemandProgram>(root_, QByteArray(shaders::desktopPrefix) + shaders::w3dVertex,
                                                  defs + shaders::w3dFragment);
    }
    return *p;
}

Qt3DRender::QEffect* MeshMaterials::w3dEffect(const rs::W3dShaderBits& b, int passIndex, bool cullBack) {
    const int programKey = w3dProgramKey(b);
    const bool blend = blends(b);
    const int src = b.srcBlend > 3 ? 1 : b.srcBlend, dst = b.destBlend > 5 ? 0 : b.destBlend;
    const int dc = b.depthCompare > 7 ? 3 : b.depthCompare;
    const long long key = (long long)programKey | (long long)src << 12 | (long long)dst << 14 | (long long)dc << 17 |
                          (long long)(b.depthMask ? 1 : 0) << 20 | (long long)passIndex << 21 |
                          (long long)(cullBack ? 1 : 0) << 23;
    if (auto it = w3dEffects_.find(key); it != w3dEffects_.end()) return it->second;
    fx::OnDemandProgram& prog = w3dProgram(programKey);
    static const char* const layers[] = {"opaque", "w3dpass1", "w3dpass2", "w3dpass3"};
    const char* layer = passIndex > 0 ? layers[passIndex] : (blend ? "transparent" : "opaque");
    auto* main = prog.pass(layer);
    for (auto* st : main->renderStates())
        if (auto* cf = qobject_cast<Qt3DRender::QCullFace*>(st))
            cf->setMode(cullBack ? Qt3DRender::QCullFace::Back : Qt3DRender::QCullFace::NoCulling);
    fx::depth(main, depthFunc(dc), b.depthMask != 0);
    if (blend) fx::blend(main, srcFactor(src), dstFactor(dst));
    Qt3DRender::QEffect* e = nullptr;
    if (passIndex == 0) {
        auto* wire = wireProgram_->pass("wire");
        fx::depth(wire, DT::LessOrEqual, false);
        if (!blend && b.depthMask) {
            auto* low = depthProgram_->pass("lowdepth");
            fx::depth(low, DT::Less, true);
            low->addRenderState(fx::noColorWrites(low));
            e = fx::effect(root_, {main, wire, low});
        } else {
            e = fx::effect(root_, {main, wire});
        }
    } else {
        e = fx::effect(root_, {main});
    }
    w3dEffects_[key] = e;
    return e;
}

void MeshMaterials::buildW3dPasses(Qt3DCore::QEntity* entity, Qt3DRender::QGeometryRenderer* gr, const rs::Mesh& mesh,
                                   const rs::SubMesh& sm, int subIndex, int skinMode, int rigidSlot, bool cullBack,
                                   const int uvSel[2], TextureCache& textures, std::vector<int>& programKeys) {
    const std::vector<rs::W3dPassState>& passes = sm.material.w3dPasses;
    const QString meshName = QString::fromStdString(mesh.name);
    const size_t n = std::min<size_t>(passes.size(), 4);
    for (size_t p = 0; p < n; ++p) {
        const rs::W3dPassState& ps = passes[p];
        Qt3DCore::QEntity* e = entity;
        if (p > 0) {
            e = new Qt3DCore::QEntity(entity);
            e->addComponent(gr);
        }
        auto* mat = new Qt3DRender::QMaterial(e);
        const rs::w3d::ColorRule rule = rs::w3d::colorRule(passes, p);
        addParam(mat, "wLighting", rule.lighting ? 1 : 0);
        addParam(mat, "wHasColor", rule.useColor ? 1 : 0);
        addParam(mat, "wColorScale", toQ4(rule.scale));
        addParam(mat, "wDiffuseFromColor", rule.diffuseFromColor ? 1 : 0);
        addParam(mat, "wAmbientFromColor", rule.ambientFromColor ? 1 : 0);
        addParam(mat, "wDiffuse", QVector4D(ps.diffuse.x, ps.diffuse.y, ps.diffuse.z, ps.opacity));
        addParam(mat, "wAmbient", QVector3D(ps.ambient.x, ps.ambient.y, ps.ambient.z));
        addParam(mat, "wSpecular", QVector3D(ps.specular.x, ps.specular.y, ps.specular.z));
        addParam(mat, "wEmissive", QVector3D(ps.emissive.x, ps.emissive.y, ps.emissive.z));
        addParam(mat, "wShininess", ps.shininess);
        QVariantList types, as, bs, cs, sel;
        for (int st = 0; st < 2; ++st) {
            QVector4D a, b, c;
            mapperUniforms(ps.mappers[st], a, b, c);
            types.push_back(ps.mappers[st].type);
            as.push_back(a);
            bs.push_back(b);
            cs.push_back(c);
            sel.push_back(ps.uvSource[st] >= 0 && ps.uvSource[st] == uvSel[1] && uvSel[1] != uvSel[0] ? 1 : 0);
        }
        addParam(mat, "wMapper[0]", types);
        addParam(mat, "wMapA[0]", as);
        addParam(mat, "wMapB[0]", bs);
        addParam(mat, "wMapC[0]", cs);
        addParam(mat, "wUvSel[0]", sel);
        for (int st = 0; st < 2; ++st) {
            const char* uniform = st == 0 ? "stage0Texture" : "stage1Texture";
            Qt3DRender::QAbstractTexture* t = textures.white();
            if (!ps.textures[st].empty())
                t = textures.get(ps.textures[st], meshName, subIndex, QStringLiteral("Pass%1Stage%2").arg(p).arg(st),
                                 mat);
            addParam(mat, uniform, QVariant::fromValue(t));
        }
        addParam(mat, "skinMode", skinMode);
        addParam(mat, "rigidSlot", rigidSlot);
        mat->setEffect(w3dEffect(ps.shader, int(p), cullBack));
        e->addComponent(mat);
        programKeys.push_back(w3dProgramKey(ps.shader));
    }
}

} // namespace rs::render
