// W3D materials (MeshMaterials' W3D half): every ww3d2 pass of a sub-mesh as its own entity sharing the sub-mesh's
// geometry, drawn by the W3D program (shaders_w3d.cpp) with the pass's render states: blend factors from
// ShaderClass's tables (Generals: source zero/one/src-alpha/dest-colour, destination zero/one/src-colour/
// inv-src-colour/src-alpha/inv-src-alpha; blending off for one/zero), depth compare (file value + 1 as D3DCMPFUNC)
// and depth mask. Pass 0 draws in the opaque layer when it does not blend, else in the transparent layer; pass
// p > 0 draws in layer "w3dpass<p>" after both, so that the passes of a mesh draw in order.
#include "mesh_materials.h"

#include "fx_uniforms.h"

#include "qt3d_helpers.h"
#include "shaders.h"
#include "texture_cache.h"

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

// fx_uniforms.h's factors and compare functions as Qt3D's.
BA::Blending srcFactor(W3dSrcFactor v) {
    static const BA::Blending t[] = {BA::Zero, BA::One, BA::SourceAlpha, BA::DestinationColor};
    return t[int(v)];
}
BA::Blending dstFactor(W3dDstFactor v) {
    static const BA::Blending t[] = {
        BA::Zero, BA::One, BA::SourceColor, BA::OneMinusSourceColor, BA::SourceAlpha, BA::OneMinusSourceAlpha};
    return t[int(v)];
}
DT::DepthFunction depthFunc(W3dDepthFunc v) {
    static const DT::DepthFunction t[] = {DT::Never,   DT::Less,     DT::Equal,          DT::LessOrEqual,
                                          DT::Greater, DT::NotEqual, DT::GreaterOrEqual, DT::Always};
    return t[int(v)];
}

} // namespace

fx::OnDemandProgram& MeshMaterials::w3dProgram(int key) {
    auto& p = w3dPrograms_[key];
    if (!p) {
        QByteArray defs(shaders::desktopPrefix);
        for (const std::string& d : w3dDefines(key))
            defs += "#define " + QByteArray::fromStdString(d) + "\n";
        p = std::make_unique<fx::OnDemandProgram>(root_, QByteArray(shaders::desktopPrefix) + shaders::w3dVertex,
                                                  defs + shaders::w3dFragment);
    }
    return *p;
}

Qt3DRender::QEffect* MeshMaterials::w3dEffect(const W3dPassBinding& b, int passIndex, bool cullBack) {
    const int programKey = b.programKey;
    const bool blend = b.blend;
    const int src = int(b.src), dst = int(b.dst), dc = int(b.depthFunc);
    const long long key = (long long)programKey | (long long)src << 12 | (long long)dst << 14 | (long long)dc << 17 |
                          (long long)(b.depthWrite ? 1 : 0) << 20 | (long long)passIndex << 21 |
                          (long long)(cullBack ? 1 : 0) << 23;
    if (auto it = w3dEffects_.find(key); it != w3dEffects_.end()) return it->second;
    fx::OnDemandProgram& prog = w3dProgram(programKey);
    static const char* const layers[] = {"opaque", "w3dpass1", "w3dpass2", "w3dpass3"};
    const char* layer = passIndex > 0 ? layers[passIndex] : (blend ? "transparent" : "opaque");
    auto* main = prog.pass(layer);
    for (auto* st : main->renderStates())
        if (auto* cf = qobject_cast<Qt3DRender::QCullFace*>(st))
            cf->setMode(cullBack ? Qt3DRender::QCullFace::Back : Qt3DRender::QCullFace::NoCulling);
    fx::depth(main, depthFunc(b.depthFunc), b.depthWrite);
    if (blend) fx::blend(main, srcFactor(b.src), dstFactor(b.dst));
    Qt3DRender::QEffect* e = nullptr;
    if (passIndex == 0) {
        auto* wire = wireProgram_->pass("wire");
        fx::depth(wire, DT::LessOrEqual, false);
        if (!blend && b.depthWrite) {
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
                                   const W3dVertexArrays& arrays, TextureCache& textures,
                                   std::vector<int>& programKeys) {
    const QString meshName = QString::fromStdString(mesh.name);
    const std::vector<W3dPassBinding> passes = w3dPassBindings(sm, arrays);
    for (size_t p = 0; p < passes.size(); ++p) {
        const W3dPassBinding& b = passes[p];
        Qt3DCore::QEntity* e = entity;
        if (p > 0) {
            e = new Qt3DCore::QEntity(entity);
            e->addComponent(gr);
        }
        auto* mat = new Qt3DRender::QMaterial(e);
        addParam(mat, "wLighting", b.lighting ? 1 : 0);
        addParam(mat, "wHasColor", b.hasColor ? 1 : 0);
        addParam(mat, "wColorScale", toQ4(b.colorScale));
        addParam(mat, "wDiffuseFromColor", b.diffuseFromColor ? 1 : 0);
        addParam(mat, "wAmbientFromColor", b.ambientFromColor ? 1 : 0);
        addParam(mat, "wDiffuse", toQ4(b.diffuse));
        addParam(mat, "wAmbient", QVector3D(b.ambient.x, b.ambient.y, b.ambient.z));
        addParam(mat, "wSpecular", QVector3D(b.specular.x, b.specular.y, b.specular.z));
        addParam(mat, "wEmissive", QVector3D(b.emissive.x, b.emissive.y, b.emissive.z));
        addParam(mat, "wShininess", b.shininess);
        QVariantList types, as, bs, cs, sel;
        for (int st = 0; st < 2; ++st) {
            types.push_back(b.mapper[st]);
            as.push_back(toQ4(b.mapA[st]));
            bs.push_back(toQ4(b.mapB[st]));
            cs.push_back(toQ4(b.mapC[st]));
            sel.push_back(b.uvSel[st]);
        }
        addParam(mat, "wMapper[0]", types);
        addParam(mat, "wMapA[0]", as);
        addParam(mat, "wMapB[0]", bs);
        addParam(mat, "wMapC[0]", cs);
        addParam(mat, "wUvSel[0]", sel);
        for (int st = 0; st < 2; ++st) {
            const char* uniform = st == 0 ? "stage0Texture" : "stage1Texture";
            Qt3DRender::QAbstractTexture* t = textures.white();
            if (!b.textures[st].empty())
                t = textures.get(b.textures[st], meshName, subIndex, QStringLiteral("Pass%1Stage%2").arg(p).arg(st),
                                 mat);
            addParam(mat, uniform, QVariant::fromValue(t));
        }
        addParam(mat, "skinMode", skinMode);
        addParam(mat, "rigidSlot", rigidSlot);
        mat->setEffect(w3dEffect(b, int(p), cullBack));
        e->addComponent(mat);
        programKeys.push_back(b.programKey);
    }
}

} // namespace rs::render
