// BFME shader materials (MeshMaterials' W3D .fx half): a NormalMapped.fx sub-mesh drawn by its formula
// (glsl/w3d_fx.vert) with its constants and textures bound by the property names the file uses. Render states of
// the effect as the game draws it: opaque (depth test and writes, no blending), alpha test when AlphaTestEnable,
// back faces culled unless the mesh is two-sided (the W3D rule of the material policy).
#include "mesh_materials.h"

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

#include <QVector3D>

namespace rs::render {

namespace {

// The first parameter of m named one of names (case-insensitive), or null.
const rs::MaterialParam* findAny(const rs::Material& m, std::initializer_list<const char*> names) {
    for (const char* n : names)
        for (const rs::MaterialParam& p : m.params)
            if (rs::iequals(p.name, n)) return &p;
    return nullptr;
}

} // namespace

fx::OnDemandProgram& MeshMaterials::w3dFxProgram(bool alphaTest) {
    auto& p = w3dFxPrograms_[alphaTest ? 1 : 0];
    if (!p) {
        const QByteArray v(shaders::desktopPrefix);
        const QByteArray f = v + (alphaTest ? "#define ALPHA_TEST\n" : "");
        p = std::make_unique<fx::OnDemandProgram>(root_, v + shaders::w3dFxVertex, f + shaders::w3dFxFragment);
    }
    return *p;
}

Qt3DRender::QEffect* MeshMaterials::w3dFxEffect(bool alphaTest, bool cullBack) {
    using DT = Qt3DRender::QDepthTest;
    const int key = (alphaTest ? 1 : 0) | (cullBack ? 2 : 0);
    if (auto it = w3dFxEffects_.find(key); it != w3dFxEffects_.end()) return it->second;
    fx::OnDemandProgram& prog = w3dFxProgram(alphaTest);
    auto* main = prog.pass("opaque");
    for (auto* st : main->renderStates())
        if (auto* cf = qobject_cast<Qt3DRender::QCullFace*>(st))
            cf->setMode(cullBack ? Qt3DRender::QCullFace::Back : Qt3DRender::QCullFace::NoCulling);
    fx::depth(main, DT::LessOrEqual, true);
    auto* wire = wireProgram_->pass("wire");
    fx::depth(wire, DT::LessOrEqual, false);
    auto* low = depthProgram_->pass("lowdepth");
    fx::depth(low, DT::Less, true);
    low->addRenderState(fx::noColorWrites(low));
    Qt3DRender::QEffect* e = fx::effect(root_, {main, wire, low});
    w3dFxEffects_[key] = e;
    return e;
}

int MeshMaterials::buildW3dNormalMapped(Qt3DCore::QEntity* entity, const rs::Mesh& mesh, const rs::SubMesh& sm,
                                        int subIndex, int skinMode, int rigidSlot, bool cullBack,
                                        TextureCache& textures) {
    const rs::Material& m = sm.material;
    auto* mat = new Qt3DRender::QMaterial(entity);
    const QString meshName = QString::fromStdString(mesh.name);
    auto texture = [&](const char* uniform, std::initializer_list<const char*> names,
                       Qt3DRender::QAbstractTexture* none, Qt3DRender::QAbstractTexture* missing) {
        Qt3DRender::QAbstractTexture* t = none;
        const rs::MaterialParam* p = findAny(m, names);
        if (p && p->type == rs::ParamType::Texture && !p->texture.empty()) {
            t = textures.get(p->texture, meshName, subIndex, QString::fromStdString(p->name), mat);
            if (t == textures.checker()) t = missing;
        }
        addParam(mat, uniform, QVariant::fromValue(t));
    };
    // A missing diffuse texture shows as the placeholder; a missing normal map as a flat one (lit as the surface).
    texture("fxDiffuseTexture", {"DiffuseTexture", "Texture_0", "BaseTexture"}, textures.white(), textures.checker());
    texture("fxNormalMap", {"NormalMap", "NormalTexture"}, textures.flatNormal(), textures.flatNormal());
    auto number = [&](const char* name, float def) {
        const rs::MaterialParam* p = findAny(m, {name});
        if (!p) return def;
        if (p->type == rs::ParamType::Int) return float(p->intValue);
        return p->type == rs::ParamType::Texture ? def : p->value.x;
    };
    auto colour = [&](const char* name, glm::vec3 def) {
        const rs::MaterialParam* p = findAny(m, {name});
        return p && (p->type == rs::ParamType::Float3 || p->type == rs::ParamType::Float4) ? glm::vec3(p->value) : def;
    };
    // Defaults where a file leaves a constant out: the effect's neutral values (no bump scaling, white diffuse,
    // no ambient or specular term).
    const glm::vec3 ambient = colour("AmbientColor", glm::vec3(0.0f)),
                    diffuse = colour("DiffuseColor", glm::vec3(1.0f)),
                    specular = colour("SpecularColor", glm::vec3(0.0f));
    addParam(mat, "fxBumpScale", number("BumpScale", 1.0f));
    addParam(mat, "fxAmbient", QVector3D(ambient.x, ambient.y, ambient.z));
    addParam(mat, "fxDiffuse", QVector3D(diffuse.x, diffuse.y, diffuse.z));
    addParam(mat, "fxSpecular", QVector3D(specular.x, specular.y, specular.z));
    addParam(mat, "fxSpecularExponent", number("SpecularExponent", 1.0f));
    addParam(mat, "skinMode", skinMode);
    addParam(mat, "rigidSlot", rigidSlot);
    const bool alphaTest = number("AlphaTestEnable", 0.0f) != 0.0f;
    mat->setEffect(w3dFxEffect(alphaTest, cullBack));
    entity->addComponent(mat);
    return alphaTest ? 1 : 0;
}

} // namespace rs::render
