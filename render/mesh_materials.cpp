#include "mesh_materials.h"

#include "fx_uniforms.h"
#include "orbit_camera.h"
#include "qt3d_helpers.h"
#include "scene_view.h"
#include "shaders.h"
#include "texture_cache.h"
#include "w3d/w3d_tangents.h"

#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QStencilMask>
#include <Qt3DRender/QStencilOperation>
#include <Qt3DRender/QStencilOperationArguments>
#include <Qt3DRender/QStencilTest>
#include <Qt3DRender/QStencilTestArguments>
#include <Qt3DRender/QTexture>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace rs::render {

namespace {

std::vector<glm::vec3> computeNormals(const rs::SubMesh& sm) {
    std::vector<glm::vec3> n(sm.positions.size(), glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < sm.indices.size(); t += 3) {
        uint32_t a = sm.indices[t], b = sm.indices[t + 1], c = sm.indices[t + 2];
        if (a >= n.size() || b >= n.size() || c >= n.size()) continue;
        glm::vec3 f = glm::cross(sm.positions[b] - sm.positions[a], sm.positions[c] - sm.positions[a]);
        n[a] += f;
        n[b] += f;
        n[c] += f;
    }
    for (auto& v : n) {
        float l = glm::length(v);
        v = l > 1e-12f ? v / l : glm::vec3(0, 0, 1);
    }
    return n;
}

} // namespace

MeshMaterials::MeshMaterials(Qt3DCore::QNode* root) : root_(root), steps_(fillStepsFromEnvironment()) {
    QByteArray common(shaders::desktopPrefix);
    if (!steps_.lightCount) common += "#define LIGHT_LOOP 4\n";
    for (int v = 0; v < kVariants; ++v) {
        QByteArray fs = common;
        if (v & kBump) fs += "#define BUMP\n";
        if (v & kSpecular) fs += "#define SPECULAR\n";
        if (v & kUnlit) fs += "#define UNLIT\n";
        if (v & kNoTexture) fs += "#define NO_BASE_TEXTURE\n";
        fs += shaders::meshFragment;
        programs_[size_t(v)] = std::make_unique<fx::OnDemandProgram>(root, shaders::meshVertex, fs);
    }
    depthProgram_ = std::make_unique<fx::OnDemandProgram>(root, shaders::meshVertex, shaders::depthFragment);
    wireProgram_ =
        std::make_unique<fx::OnDemandProgram>(root, shaders::meshVertex, shaders::wireFragment, shaders::wireGeometry);
}

MeshMaterials::~MeshMaterials() = default;

MeshMaterials::FillSteps MeshMaterials::fillStepsFromEnvironment() {
    FillSteps s;
    for (const QByteArray& step : qgetenv("RIGSCOPE_FILL_OFF").split(',')) {
        if (step == "prepass") s.depthPrepass = false;
        if (step == "notexture") s.noTextureVariant = false;
        if (step == "lightcount") s.lightCount = false;
    }
    s.genericOnly = qEnvironmentVariableIntValue("RIGSCOPE_GENERIC_SHADING") != 0;
    for (const QByteArray& step : qgetenv("RIGSCOPE_FILL_ON").split(','))
        if (step == "prepass") s.depthPrepass = true;
    return s;
}

void MeshMaterials::reset() { items_.clear(); }

void MeshMaterials::requireLowResDepth() { depthProgram_->require(); }

void MeshMaterials::setWireframe(bool on) {
    if (on) wireProgram_->require();
}

// Mesh effect for a family and a fragment variant (kBump, kSpecular, kUnlit, kNoTexture bits), shared by every
// entity that needs it. With the depth pre-pass step, opaque effects first draw depth only ("depth" pass, before
// every "opaque" pass), then shade with depth test LessOrEqual and no depth writes: each covered pixel is shaded
// once, whatever the order.
// cullBack: opaque meshes of formats whose outward faces are counter-clockwise in our (right-handed) view
// skip back faces (Alamo: checked against no culling on corpus models; front culling shows the insides).
Qt3DRender::QEffect* MeshMaterials::meshEffect(Family family, int variant, bool cullBack) {
    using BA = Qt3DRender::QBlendEquationArguments;
    using DT = Qt3DRender::QDepthTest;
    cullBack = cullBack && family == Family::Opaque;
    const int key = (int(family) * 2 + (cullBack ? 1 : 0)) * kVariants + variant;
    if (auto it = effects_.find(key); it != effects_.end()) return it->second;
    auto cull = [&](Qt3DRender::QRenderPass* rp) {
        if (cullBack)
            for (auto* st : rp->renderStates())
                if (auto* cf = qobject_cast<Qt3DRender::QCullFace*>(st)) cf->setMode(Qt3DRender::QCullFace::Back);
    };
    fx::OnDemandProgram& prog = *programs_[size_t(variant)];
    auto* wire = wireProgram_->pass("wire");
    fx::depth(wire, DT::LessOrEqual, false);
    Qt3DRender::QEffect* e = nullptr;
    switch (family) {
    case Family::Opaque: {
        auto* main = prog.pass("opaque");
        cull(main);
        // The depth of the low-resolution target that large particles are drawn into (FrameGraph).
        auto* low = depthProgram_->pass("lowdepth");
        fx::depth(low, DT::Less, true);
        low->addRenderState(fx::noColorWrites(low));
        cull(low);
        if (steps_.depthPrepass) {
            auto* pre = depthProgram_->pass("depth");
            fx::depth(pre, DT::Less, true);
            pre->addRenderState(fx::noColorWrites(pre));
            cull(pre);
            fx::depth(main, DT::LessOrEqual, false);
            e = fx::effect(root_, {pre, main, wire, low});
        } else {
            fx::depth(main, DT::Less, true);
            e = fx::effect(root_, {main, wire, low});
        }
        break;
    }
    case Family::Alpha: {
        auto* main = prog.pass("transparent");
        fx::depth(main, DT::Less, false);
        fx::blend(main, BA::SourceAlpha, BA::OneMinusSourceAlpha);
        e = fx::effect(root_, {main, wire});
        break;
    }
    case Family::Additive: {
        auto* main = prog.pass("transparent");
        fx::depth(main, DT::Less, false);
        fx::blend(main, BA::One, BA::One);
        e = fx::effect(root_, {main, wire});
        break;
    }
    }
    effects_[key] = e;
    return e;
}

fx::OnDemandProgram& MeshMaterials::alamoProgram(rs::ShaderImpl impl) {
    auto& p = alamoPrograms_[int(impl)];
    if (!p) {
        const QByteArray defs = QByteArray(shaders::desktopPrefix) + "#define " + alamoDefine(impl) + "\n";
        p = std::make_unique<fx::OnDemandProgram>(root_, defs + shaders::alamoVertex, defs + shaders::alamoFragment);
    }
    return *p;
}

// The Alamo techniques' states come from render/fx_uniforms.cpp alamoStates (shared with the web page); here they
// become passes: blending ones in "transparent", MeshHeat in "heat", opaque ones without depth writes (Skydome,
// MeshSolidColor) in "opaque" alone, and opaque ones that write depth with the depth pre-pass and "lowdepth".
Qt3DRender::QEffect* MeshMaterials::alamoEffect(rs::ShaderImpl impl, bool cullBack) {
    using BA = Qt3DRender::QBlendEquationArguments;
    using DT = Qt3DRender::QDepthTest;
    const FxStates states = alamoStates(impl);
    if (states.twoSided) cullBack = false;
    const int key = int(impl) * 2 + (cullBack ? 1 : 0);
    if (auto it = alamoEffects_.find(key); it != alamoEffects_.end()) return it->second;
    fx::OnDemandProgram& prog = alamoProgram(impl);
    auto cull = [&](Qt3DRender::QRenderPass* rp) {
        for (auto* st : rp->renderStates())
            if (auto* cf = qobject_cast<Qt3DRender::QCullFace*>(st))
                cf->setMode(cullBack ? Qt3DRender::QCullFace::Back : Qt3DRender::QCullFace::NoCulling);
    };
    auto* wire = wireProgram_->pass("wire");
    fx::depth(wire, DT::LessOrEqual, false);
    const DT::DepthFunction depthFunc = states.depthTest == FxDepthTest::Greater ? DT::Greater : DT::LessOrEqual;
    Qt3DRender::QEffect* e = nullptr;
    if (states.blend != FxBlend::None) {
        auto* main = prog.pass("transparent");
        cull(main);
        fx::depth(main, depthFunc, states.depthWrite);
        if (states.blend == FxBlend::Alpha)
            fx::blend(main, BA::SourceAlpha, BA::OneMinusSourceAlpha);
        else
            fx::blend(main, BA::One, BA::One);
        if (states.stencilOnce) {
            // Each pixel once: drawn where stencil bit 0x40 is not yet set, then set.
            auto* st = new Qt3DRender::QStencilTest(main);
            st->front()->setStencilFunction(Qt3DRender::QStencilTestArguments::NotEqual);
            st->front()->setReferenceValue(0x40);
            st->front()->setComparisonMask(0x40);
            st->back()->setStencilFunction(Qt3DRender::QStencilTestArguments::NotEqual);
            st->back()->setReferenceValue(0x40);
            st->back()->setComparisonMask(0x40);
            main->addRenderState(st);
            auto* op = new Qt3DRender::QStencilOperation(main);
            for (auto* a : {op->front(), op->back()}) {
                a->setAllTestsPassOperation(Qt3DRender::QStencilOperationArguments::Replace);
                a->setDepthTestFailureOperation(Qt3DRender::QStencilOperationArguments::Keep);
                a->setStencilTestFailureOperation(Qt3DRender::QStencilOperationArguments::Keep);
            }
            main->addRenderState(op);
            auto* mask = new Qt3DRender::QStencilMask(main);
            mask->setFrontOutputMask(0x40);
            mask->setBackOutputMask(0x40);
            main->addRenderState(mask);
        }
        e = fx::effect(root_, {main, wire});
    } else if (states.readsFrame || !states.depthWrite) {
        // MeshHeat is drawn in the "heat" pass after everything else, reading the copy of the frame
        // (FrameGraph::setHeatEnabled), so it replaces the pixel instead of blending.
        auto* main = prog.pass(states.readsFrame ? "heat" : "opaque");
        cull(main);
        fx::depth(main, depthFunc, false);
        e = fx::effect(root_, {main, wire});
    } else {
        auto* main = prog.pass("opaque");
        cull(main);
        auto* low = depthProgram_->pass("lowdepth");
        fx::depth(low, DT::Less, true);
        low->addRenderState(fx::noColorWrites(low));
        cull(low);
        if (steps_.depthPrepass) {
            // The pre-pass runs the implementation's own program with colour writes off, so that its depth is the
            // one the shading pass computes, bit for bit (LESSEQUAL then passes exactly the nearest surface).
            auto* pre = prog.pass("depth");
            fx::depth(pre, DT::Less, true);
            pre->addRenderState(fx::noColorWrites(pre));
            cull(pre);
            fx::depth(main, DT::LessOrEqual, false);
            e = fx::effect(root_, {pre, main, wire, low});
        } else {
            fx::depth(main, DT::LessOrEqual, true);
            e = fx::effect(root_, {main, wire, low});
        }
    }
    alamoEffects_[key] = e;
    return e;
}

void MeshMaterials::build(Qt3DCore::QEntity* parent, const std::vector<Part>& parts, int boneCount,
                          TextureCache& textures) {
    for (size_t pi = 0; pi < parts.size(); ++pi) {
        const rs::Model& pm = *parts[pi].model;
        for (size_t mi = 0; mi < pm.meshes.size(); ++mi)
            for (size_t si = 0; si < pm.meshes[mi].subMeshes.size(); ++si)
                buildSubMesh(parent, parts, int(pi), int(mi), int(si), boneCount, textures);
    }
    for (DrawItem& it : items_)
        it.enabled = true;
}

void MeshMaterials::buildSubMesh(Qt3DCore::QEntity* parent, const std::vector<Part>& parts, int partIndex,
                                 int meshIndex, int subIndex, int N, TextureCache& textures) {
    using Qt3DCore::QAttribute;
    using Qt3DRender::QParameter;
    const Part& part = parts[size_t(partIndex)];
    const rs::Mesh& mesh = part.model->meshes[size_t(meshIndex)];
    const rs::SubMesh& sm = mesh.subMeshes[size_t(subIndex)];
    const uint32_t n = uint32_t(sm.positions.size());
    if (n == 0 || sm.indices.size() < 3) return;
    const MaterialStyle style = rs::materialPolicy(part.model->format, mesh, sm.material);
    const int boneCount = int(part.model->skeleton.bones.size());
    const int identitySlot = N * 2;

    // Vertex data: one buffer, attribute blocks one after another.
    QByteArray data;
    data.reserve(int(n) * 96);
    auto* entity = new Qt3DCore::QEntity(parent);
    auto* geom = new Qt3DCore::QGeometry(entity);
    auto* buf = new Qt3DCore::QBuffer(geom);
    using VT = QAttribute::VertexBaseType;
    struct Pending {
        const char* name;
        VT type;
        uint size, offset, stride;
    };
    std::vector<Pending> attrs;
    auto block = [&](const char* name, VT type, uint size, uint stride, const void* p) {
        attrs.push_back({name, type, size, uint(data.size()), stride});
        appendBytes(data, p, size_t(stride) * n);
    };
    block("vertexPosition", VT::Float, 3, 12, sm.positions.data());
    std::vector<glm::vec3> normals = sm.normals.size() == n ? sm.normals : computeNormals(sm);
    block("vertexNormal", VT::Float, 3, 12, normals.data());
    if (sm.uv0.size() == n) block("vertexTexCoord", VT::Float, 2, 8, sm.uv0.data());
    const rs::ShaderInfo shader = rs::shaderInfo(part.model->format, mesh, sm.material);
    // Grass.fx: TEXCOORD1 is each billboard's clump centre; DefaultW3D.fx: its second texture's UVs.
    if (sm.uv1.size() == n && (rs::toLower(sm.material.shader).find("grass") != std::string::npos ||
                               shader.impl == rs::ShaderImpl::W3xDefaultW3d))
        block("vertexTexCoord1", VT::Float, 2, 8, sm.uv1.data());
    const bool tangents = sm.tangents.size() == n && sm.binormals.size() == n;
    // SAGE shader materials drawn by their .fx formula: NormalMapped.fx, C&C 3's Objects*.fx (these two read a
    // tangent frame), Infantry/BasicW3D/Tree.fx and DefaultW3D.fx.
    const bool needsFrame =
        shader.impl == rs::ShaderImpl::W3dNormalMapped || shader.impl == rs::ShaderImpl::W3xObjectsGdi ||
        shader.impl == rs::ShaderImpl::W3xObjectsNod || shader.impl == rs::ShaderImpl::W3xObjectsGeneric ||
        shader.impl == rs::ShaderImpl::W3xObjectsAlien || shader.impl == rs::ShaderImpl::W3xTiberium ||
        shader.impl == rs::ShaderImpl::W3xDistortingObject || shader.impl == rs::ShaderImpl::W3xShieldDistortion;
    const bool w3dFxDrawn =
        (needsFrame || shader.impl == rs::ShaderImpl::W3xInfantry || shader.impl == rs::ShaderImpl::W3xTree ||
         shader.impl == rs::ShaderImpl::W3xDefaultW3d || shader.impl == rs::ShaderImpl::W3xAlienShield ||
         shader.impl == rs::ShaderImpl::W3xMuzzleFlash) &&
        !steps_.genericOnly;
    std::vector<glm::vec3> derivedTangents, derivedBinormals;
    if (tangents) {
        block("vertexTangent", VT::Float, 3, 12, sm.tangents.data());
        block("vertexBinormal", VT::Float, 3, 12, sm.binormals.data());
    } else if (w3dFxDrawn && needsFrame) { // a SAGE .fx without a stored frame: the SAGE tools' convention from the UVs
        const std::vector<glm::vec2> uv = sm.uv0.size() == n ? sm.uv0 : std::vector<glm::vec2>(n, glm::vec2(0.0f));
        rs::w3d::deriveTangentFrame(sm.positions, normals, uv, sm.indices, derivedTangents, derivedBinormals);
        block("vertexTangent", VT::Float, 3, 12, derivedTangents.data());
        block("vertexBinormal", VT::Float, 3, 12, derivedBinormals.data());
    }
    const bool alamoFormat = rs::istartsWith(sm.vertexFormat, "alD3dVert");
    const bool useColors = sm.colors.size() == n &&
                           (!alamoFormat || (!sm.vertexFormat.empty() && std::toupper(sm.vertexFormat.back()) == 'C'));
    // W3D passes: the (up to) two UV arrays the stages read and the colour array (first DCG, DIG multiplied in,
    // as ww3d2 keeps one array per mesh) instead of the generic colour attribute.
    const bool w3dDrawn = shader.impl == rs::ShaderImpl::W3d && !steps_.genericOnly;
    if (useColors && !w3dDrawn) block("vertexColor", VT::Float, 4, 16, sm.colors.data());
    W3dVertexArrays w3dArrays; // fx_uniforms.h: the arrays the passes read, as the page builds them
    if (w3dDrawn) {
        w3dArrays = w3dVertexArrays(sm);
        for (int k = 0; k < 2; ++k)
            if (w3dArrays.uvSel[k] >= 0)
                block(k == 0 ? "w3dUv0" : "w3dUv1", VT::Float, 2, 8, sm.w3dUv[size_t(w3dArrays.uvSel[k])].data());
        if (!w3dArrays.color.empty()) block("w3dColor", VT::Float, 4, 16, w3dArrays.color.data());
    }

    int skinMode = 0;
    int rigidSlot = identitySlot;
    if (mesh.bone >= 0 && mesh.bone < boneCount)
        rigidSlot = mesh.bone + part.boneOffset;
    else if (part.attachBone >= 0)
        rigidSlot = part.attachBone;
    if (sm.skinned() && sm.boneIndices.size() == n) {
        skinMode = (sm.positions2.size() == n && sm.normals2.size() == n) ? 2 : 1;
        std::vector<glm::vec4> weights(n, glm::vec4(1, 0, 0, 0));
        if (sm.boneWeights.size() == n) weights = sm.boneWeights;
        std::vector<glm::u16vec4> slotIndex(n);
        const int spaceBase = sm.space == rs::VertexSpace::Model ? N : 0;
        for (uint32_t v = 0; v < n; ++v)
            for (int k = 0; k < 4; ++k) {
                const unsigned idx = sm.boneIndices[v][k];
                int slot = identitySlot;
                if (idx < sm.boneMap.size() && sm.boneMap[idx] >= 0 && sm.boneMap[idx] < boneCount)
                    slot = spaceBase + part.boneOffset + sm.boneMap[idx];
                if (slot >= shaders::kMaxPalette) slot = 0;
                slotIndex[v][k] = uint16_t(slot);
            }
        block("boneWeight", VT::Float, 4, 16, weights.data());
        block("boneIndex", VT::UnsignedShort, 4, 8, slotIndex.data());
        if (skinMode == 2) {
            block("vertexPosition2", VT::Float, 3, 12, sm.positions2.data());
            block("vertexNormal2", VT::Float, 3, 12, sm.normals2.data());
        }
    }
    if (rigidSlot >= shaders::kMaxPalette) rigidSlot = 0;
    // Index buffer (triangles referencing missing vertices are dropped).
    const uint32_t indexOffset = uint32_t(data.size());
    uint32_t indexCount = 0;
    const bool small = n <= 65535;
    for (size_t t = 0; t + 2 < sm.indices.size(); t += 3) {
        if (sm.indices[t] >= n || sm.indices[t + 1] >= n || sm.indices[t + 2] >= n) continue;
        for (int k = 0; k < 3; ++k) {
            if (small) {
                const uint16_t s = uint16_t(sm.indices[t + size_t(k)]);
                appendBytes(data, &s, 2);
            } else {
                appendBytes(data, &sm.indices[t + size_t(k)], 4);
            }
        }
        indexCount += 3;
    }
    buf->setData(data);
    for (const Pending& a : attrs)
        addAttribute(geom, buf, a.name, a.type, a.size, a.offset, a.stride, n);
    auto* ia = new QAttribute(geom);
    ia->setAttributeType(QAttribute::IndexAttribute);
    ia->setVertexBaseType(small ? VT::UnsignedShort : VT::UnsignedInt);
    ia->setVertexSize(1);
    ia->setBuffer(buf);
    ia->setByteOffset(indexOffset);
    ia->setCount(indexCount);
    geom->addAttribute(ia);
    auto* gr = new Qt3DRender::QGeometryRenderer(entity);
    gr->setGeometry(geom);
    gr->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
    gr->setVertexCount(int(indexCount));

    if (w3dDrawn || w3dFxDrawn) {
        entity->addComponent(gr);
        DrawItem item;
        item.entity = entity;
        if (w3dFxDrawn)
            item.w3dFx =
                buildW3dFx(entity, mesh, sm, subIndex, skinMode, rigidSlot, style.cullBackFaces, shader.impl, textures);
        else
            buildW3dPasses(entity, gr, mesh, sm, subIndex, skinMode, rigidSlot, style.cullBackFaces, w3dArrays,
                           textures, item.w3d);
        item.part = partIndex;
        item.mesh = meshIndex;
        item.sub = subIndex;
        item.attachBone = mesh.bone >= 0 && mesh.bone < boneCount ? mesh.bone + part.boneOffset : part.attachBone;
        item.flagHidden = mesh.hidden;
        item.shadowHidden = style.hiddenByDefault;
        items_.push_back(item);
        return;
    }
    auto* mat = new Qt3DRender::QMaterial(entity);
    const rs::Material& m = sm.material;
    auto vec4Param = [&](const char* name, glm::vec4 def) {
        const rs::MaterialParam* p = m.find(name);
        if (!p) return def;
        if (p->type == rs::ParamType::Float3) return glm::vec4(glm::vec3(p->value), def.w);
        if (p->type == rs::ParamType::Float4) return p->value;
        return def;
    };
    auto floatParam = [&](const char* name, float def) {
        const rs::MaterialParam* p = m.find(name);
        return p && p->type == rs::ParamType::Float ? p->value.x : def;
    };
    const QString meshName = QString::fromStdString(mesh.name);
    auto texParam = [&](const char* uniform, const char* paramName, Qt3DRender::QAbstractTexture* fallback) {
        QParameter* p = addParam(mat, uniform, QVariant());
        const rs::MaterialParam* mp = m.find(paramName);
        Qt3DRender::QAbstractTexture* t = fallback;
        if (mp && mp->type == rs::ParamType::Texture && !mp->texture.empty())
            t = textures.get(mp->texture, meshName, subIndex, QString::fromLatin1(paramName), mat);
        p->setValue(QVariant::fromValue(t));
        return t;
    };
    // (W3D-style dual-bone skins have no Alamo shader; they keep the generic program's skinning.)
    if (alamoDefine(shader.impl) != nullptr && !steps_.genericOnly && skinMode != 2) {
        // The .fx implementation: textures and material parameters bound by name, the .fx defaults otherwise
        // (fx_uniforms.h: the same values the web page binds).
        bindFx(mat, fxBinding(mesh, m, shader.impl), meshName, subIndex, textures);
        addParam(mat, "skinMode", skinMode);
        addParam(mat, "rigidSlot", rigidSlot);
        addParam(mat, "hasVertexColor", useColors ? 1 : 0);
        // DefaultW3D.fx's second texture reads the second UV set where the sub-mesh has one (vertexTexCoord1,
        // uploaded above); otherwise TEXCOORD1 is the first set.
        addParam(mat, "hasTexCoord1",
                 shader.impl == rs::ShaderImpl::W3xDefaultW3d && sm.uv1.size() == sm.positions.size() ? 1 : 0);
        mat->setEffect(alamoEffect(shader.impl, style.cullBackFaces));
        entity->addComponent(gr);
        entity->addComponent(mat);
        DrawItem item;
        item.entity = entity;
        item.alamo = int(shader.impl);
        item.opaque = false;
        item.part = partIndex;
        item.mesh = meshIndex;
        item.sub = subIndex;
        item.attachBone = mesh.bone >= 0 && mesh.bone < boneCount ? mesh.bone + part.boneOffset : part.attachBone;
        item.flagHidden = mesh.hidden;
        item.shadowHidden = style.hiddenByDefault;
        items_.push_back(item);
        return;
    }
    Qt3DRender::QAbstractTexture* baseTex = texParam("baseTexture", "BaseTexture", textures.white());
    const bool placeholder = baseTex == textures.checker();
    // Bump only with tangents and a normal map that was found (a missing one is not a checker normal map).
    bool bump = style.bump && tangents;
    if (bump && texParam("normalTexture", "NormalTexture", textures.flatNormal()) == textures.checker()) {
        bump = false;
        if (auto* p = mat->parameters().constLast()) p->setValue(QVariant::fromValue(textures.flatNormal()));
    }
    const int gloss = !bump && style.glossSource == 2 ? 0 : style.glossSource;
    addParam(mat, "glossSource", gloss);
    // No image for the base texture (none named, or not found): the variant without the texture fetch reads the
    // stand-in's colour (TextureCache::white / checker) from a uniform instead.
    const bool noTexture = steps_.noTextureVariant && (baseTex == textures.white() || placeholder);
    addParam(mat, "baseColor", placeholder ? TextureCache::checkerColor() : QVector4D(1, 1, 1, 1));
    int variant = style.unlit ? kUnlit : (bump ? kBump : 0) | (gloss != 0 ? kSpecular : 0);
    if (noTexture) variant |= kNoTexture;
    mat->setEffect(meshEffect(style.family, variant, style.cullBackFaces));
    addParam(mat, "colorize", style.colorize && !placeholder ? 1 : 0);
    addParam(mat, "factionColorParam", style.factionColorParam ? 1 : 0);
    addParam(mat, "blendMode", int(style.family));
    addParam(mat, "diffuseColor", toQ4(vec4Param("Diffuse", glm::vec4(1.0f))));
    addParam(mat, "specularColor", toQ4(vec4Param("Specular", glm::vec4(0.6f, 0.6f, 0.6f, 1.0f))));
    addParam(mat, "emissiveColor", toQ4(vec4Param("Emissive", glm::vec4(0.0f))));
    addParam(mat, "colorParam", toQ4(vec4Param("Color", glm::vec4(1.0f))));
    addParam(mat, "shininess", floatParam("Shininess", 32.0f));
    addParam(mat, "skinMode", skinMode);
    addParam(mat, "rigidSlot", rigidSlot);
    addParam(mat, "hasVertexColor", useColors ? 1 : 0);
    entity->addComponent(gr);
    entity->addComponent(mat);

    DrawItem item;
    item.entity = entity;
    item.variant = variant;
    item.opaque = style.family == Family::Opaque;
    item.part = partIndex;
    item.mesh = meshIndex;
    item.sub = subIndex;
    item.attachBone = mesh.bone >= 0 && mesh.bone < boneCount ? mesh.bone + part.boneOffset : part.attachBone;
    item.flagHidden = mesh.hidden;
    // Shadow volumes, collision and light-visualize meshes: not drawn by the game (shader_registry.h Hidden).
    item.shadowHidden = style.hiddenByDefault || shader.impl == rs::ShaderImpl::Hidden;
    items_.push_back(item);
}

void MeshMaterials::selectLodAlt(std::vector<Part>& parts, int lod, int alt) {
    for (Part& p : parts)
        p.meshSelected = rs::selectLodAlt(*p.model, lod, alt);
    for (DrawItem& it : items_)
        it.selected = parts[size_t(it.part)].meshSelected[size_t(it.mesh)];
}

void MeshMaterials::updateVisibility(const std::vector<Part>& parts, const std::vector<uint8_t>& visible,
                                     bool showHidden, const std::function<bool(int proxy)>& proxyShown) {
    heatShown_ = false;
    for (DrawItem& it : items_) {
        bool on = it.selected && (showHidden || (!it.flagHidden && !it.shadowHidden));
        if (on && it.attachBone >= 0 && size_t(it.attachBone) < visible.size()) on = visible[size_t(it.attachBone)];
        if (on && it.part > 0) on = proxyShown(parts[size_t(it.part)].proxy);
        if (on) { // programs of what is drawn only (hidden LODs, ALTs and shadow meshes compile nothing)
            if (it.w3dFx >= 0)
                w3dFxProgram(it.w3dFx).require();
            else if (!it.w3d.empty())
                for (int k : it.w3d)
                    w3dProgram(k).require();
            else if (it.alamo >= 0)
                alamoProgram(rs::ShaderImpl(it.alamo)).require();
            else
                programs_[size_t(it.variant)]->require();
            if (it.opaque && steps_.depthPrepass) depthProgram_->require();
        }
        if (on && it.alamo == int(rs::ShaderImpl::AlamoHeat)) heatShown_ = true;
        if (on && it.w3dFx >= 0 && (it.w3dFx & kFxReadsFrame)) heatShown_ = true; // C&C 3's distortion shaders
        if (on != it.enabled) {
            it.entity->setEnabled(on);
            it.enabled = on;
        }
    }
}

namespace {
// Where vertex v of a drawn sub-mesh is at the pose: its first bone's skinning matrix (the vertex in model space:
// times the inverse bind matrix), else the bone the sub-mesh hangs from.
glm::mat4 vertexMatrix(const Part& part, const rs::SubMesh& sm, size_t v, int attachBone,
                       const std::vector<glm::mat4>& world, const std::vector<glm::mat4>& inverseBind) {
    const size_t n = sm.positions.size();
    const int boneCount = int(part.model->skeleton.bones.size());
    if (sm.skinned() && sm.boneIndices.size() == n) {
        const unsigned idx = sm.boneIndices[v][0];
        if (idx < sm.boneMap.size() && sm.boneMap[idx] >= 0 && sm.boneMap[idx] < boneCount) {
            const size_t b = size_t(sm.boneMap[idx] + part.boneOffset);
            if (b < world.size() && b < inverseBind.size())
                return sm.space == rs::VertexSpace::Model ? world[b] * inverseBind[b] : world[b];
        }
    } else if (attachBone >= 0 && size_t(attachBone) < world.size()) {
        return world[size_t(attachBone)];
    }
    return glm::mat4(1.0f);
}
} // namespace

void MeshMaterials::samplePoints(const std::vector<Part>& parts, const std::vector<glm::mat4>& world,
                                 const std::vector<glm::mat4>& inverseBind, size_t maxPoints,
                                 std::vector<glm::vec3>& out, glm::vec3& lo, glm::vec3& hi) const {
    for (const DrawItem& it : items_) {
        if (!it.enabled) continue;
        const Part& part = parts[size_t(it.part)];
        const rs::Mesh& mesh = part.model->meshes[size_t(it.mesh)];
        const rs::SubMesh& sm = mesh.subMeshes[size_t(it.sub)];
        const size_t n = sm.positions.size();
        const size_t stride = std::max<size_t>(1, n / 4000);
        for (size_t v = 0; v < n; v += stride) {
            const glm::mat4 m = vertexMatrix(part, sm, v, it.attachBone, world, inverseBind);
            const glm::vec3 p(m * glm::vec4(sm.positions[v], 1.0f));
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
            if (out.size() < maxPoints) out.push_back(p);
        }
    }
}

float MeshMaterials::pick(const std::vector<Part>& parts, const std::vector<glm::mat4>& world,
                          const std::vector<glm::mat4>& inverseBind, const glm::vec3& origin,
                          const glm::vec3& dir) const {
    float best = -1.0f;
    std::vector<glm::vec3> placed;
    for (const DrawItem& it : items_) {
        if (!it.enabled || it.entity == nullptr) continue;
        const Part& part = parts[size_t(it.part)];
        const rs::SubMesh& sm = part.model->meshes[size_t(it.mesh)].subMeshes[size_t(it.sub)];
        const size_t n = sm.positions.size();
        placed.resize(n);
        for (size_t v = 0; v < n; ++v)
            placed[v] = glm::vec3(vertexMatrix(part, sm, v, it.attachBone, world, inverseBind) *
                                  glm::vec4(sm.positions[v], 1.0f));
        for (size_t t = 0; t + 2 < sm.indices.size(); t += 3) {
            const uint32_t a = sm.indices[t], b = sm.indices[t + 1], c = sm.indices[t + 2];
            if (a >= n || b >= n || c >= n) continue;
            const float d = rayTriangle(origin, dir, placed[a], placed[b], placed[c]);
            if (d > 0.0f && std::isfinite(d) && (best < 0.0f || d < best)) best = d;
        }
    }
    return best;
}

} // namespace rs::render
