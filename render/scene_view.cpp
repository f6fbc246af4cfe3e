#include "scene_view.h"

#include "materials.h"
#include "shaders.h"
#include "textures.h"

#include "io/loader.h"
#include "scene/clip.h"
#include "scene/model.h"
#include "scene/pose.h"
#include "vfs/lookup.h"

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QFontMetrics>
#include <QHash>
#include <QMatrix4x4>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QSurfaceFormat>
#include <QVector2D>
#include <QVector4D>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DExtras/QOrbitCameraController>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QBlendEquation>
#include <Qt3DRender/QBlendEquationArguments>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QFilterKey>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QGraphicsApiFilter>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QNoDepthMask>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QRenderPassFilter>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QSortPolicy>
#include <Qt3DRender/QTechnique>
#include <Qt3DRender/QTexture>
#include <Qt3DRender/QViewport>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace rs::render {

QList<QPair<QString, QColor>> factionPresets() {
    return {{"Blue", QColor(40, 110, 255)},   {"Red", QColor(220, 40, 30)},     {"Green", QColor(40, 190, 60)},
            {"Yellow", QColor(240, 200, 30)}, {"Purple", QColor(150, 60, 220)}, {"Orange", QColor(255, 120, 20)},
            {"Grey", QColor(150, 150, 150)}};
}

namespace {

using Qt3DCore::QAttribute;
using Qt3DCore::QEntity;
using Qt3DRender::QParameter;

QMatrix4x4 toQ(const glm::mat4& m) { return QMatrix4x4(glm::value_ptr(m)).transposed(); }
QVector4D toQ4(const glm::vec4& v) { return QVector4D(v.x, v.y, v.z, v.w); }

// The same uniform set on every pass filter of the frame graph.
struct GlobalParam {
    std::vector<QParameter*> ps;
    void set(const QVariant& v) {
        for (QParameter* p : ps)
            p->setValue(v);
    }
};

struct DrawItem {
    QEntity* entity = nullptr;
    int part = 0; // 0 = main model, i > 0 = parts[i] (attached proxy model)
    int mesh = 0, sub = 0;
    int attachBone = -1; // combined bone whose visibility controls this item
    bool flagHidden = false, shadowHidden = false;
    bool selected = true; // LOD/ALT choice
    bool enabled = true;
};

// One model in the combined skeleton: the main model (part 0) or a proxy model attached to a bone.
struct Part {
    std::shared_ptr<const rs::Model> model;
    int boneOffset = 0;
    int attachBone = -1; // combined bone index the part hangs from (-1 for the main model)
    int proxy = -1;      // index into main model's proxies
    std::vector<bool> meshSelected;
};

struct TexUse {
    Qt3DRender::QAbstractTexture* texture = nullptr; // null when the file could not be decoded
    QString error;
};

void appendBytes(QByteArray& out, const void* p, size_t n) { out.append(static_cast<const char*>(p), qsizetype(n)); }

QAttribute* addAttribute(Qt3DCore::QGeometry* g, Qt3DCore::QBuffer* buf, const char* name,
                         QAttribute::VertexBaseType type, uint size, uint offset, uint stride, uint count,
                         uint divisor = 0) {
    auto* a = new QAttribute(g);
    a->setName(QString::fromLatin1(name));
    a->setAttributeType(QAttribute::VertexAttribute);
    a->setVertexBaseType(type);
    a->setVertexSize(size);
    a->setBuffer(buf);
    a->setByteOffset(offset);
    a->setByteStride(stride);
    a->setCount(count);
    a->setDivisor(divisor);
    g->addAttribute(a);
    return a;
}

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

float blink(const rs::Dazzle& dz, float t) {
    if (dz.frequency == 0.0f) return 1.0f;
    float a = std::fmod(t * dz.frequency + dz.phase, 1.0f);
    if (a < 0.0f) a += 1.0f;
    const float bias = dz.hasBias ? dz.bias : 1.0f;
    return a <= bias ? std::sin(a * float(M_PI)) : 0.0f;
}

} // namespace

struct SceneView::Impl {
    SceneView* q = nullptr;
    // The window may be owned (and deleted) by a widget container (QWidget::createWindowContainer).
    QPointer<Qt3DExtras::Qt3DWindow> window;
    QEntity* root = nullptr;
    QPointer<QEntity> modelRoot;
    Qt3DRender::QCamera* camera = nullptr;
    Qt3DExtras::QOrbitCameraController* controller = nullptr;
    Qt3DRender::QRenderCapture* captureNode = nullptr;
    Qt3DRender::QClearBuffers* clear = nullptr;
    Qt3DRender::QNoDraw* wireOff = nullptr;
    std::vector<Qt3DRender::QRenderPassFilter*> filters;

    GlobalParam bones, lightPosition, lightColor, lightCount, ambient, faction, highlight, viewportSize;

    Qt3DRender::QEffect *fxLines = nullptr, *fxOverlayLines = nullptr, *fxDazzle = nullptr, *fxLabels = nullptr;
    Qt3DRender::QAbstractTexture *checker = nullptr, *white = nullptr, *flatNormal = nullptr;

    // Model state
    std::shared_ptr<const rs::Model> model;
    QString path;
    std::shared_ptr<const rs::Clip> clip;
    rs::ClipBinding binding;
    QStringList problems;
    std::vector<Part> parts;
    rs::Skeleton skeleton; // combined
    std::vector<glm::mat4> inverseBind;
    rs::PoseBuffers pose;
    std::vector<uint8_t> visible;    // effective, incl. user overrides
    std::vector<uint8_t> userHidden; // per combined bone
    std::vector<DrawItem> items;
    // Bone palette: one std140 uniform block (BonePalette { mat4 bones[kMaxPalette]; }) backed by this buffer,
    // shared by every pass. A frame writes the matrices into paletteBytes and hands it to the buffer: one
    // buffer copy per frame instead of a QVariant per matrix and a list conversion per pass.
    Qt3DCore::QBuffer* paletteBuffer = nullptr;
    QByteArray paletteBytes;
    bool zUp = true;
    float frame = 0.0f, time = 0.0f;
    int highlightBone = -1;
    bool altDecreased = false;
    glm::vec3 center{0.0f};
    float radius = 1.0f;
    float yaw = 35.0f, pitch = 20.0f;

    // Textures
    QHash<QString, TexUse> texCache; // by resolved path (lower-case)
    QList<TextureInfo> texInfos;
    int texPending = 0;

    // Overlays
    QEntity *skeletonEntity = nullptr, *markerEntity = nullptr, *gridEntity = nullptr, *dazzleEntity = nullptr;
    QEntity* pointSetEntity = nullptr;
    Qt3DCore::QBuffer* dazzleBuffer = nullptr;
    QByteArray dazzleData;
    std::vector<glm::vec3> dazzleColors; // after faction colorization
    std::vector<int> dazzlePart;         // part index per dazzle (main model only for now)
    Qt3DRender::QParameter* dazzleFlip = nullptr;

    ViewOptions options;
    bool continuous = false;

    // ---- construction -------------------------------------------------------------------------------
    Qt3DRender::QShaderProgram* program(const char* vs, const char* fs, const char* gs = nullptr) {
        auto* p = new Qt3DRender::QShaderProgram(root);
        p->setVertexShaderCode(QByteArray(vs));
        p->setFragmentShaderCode(QByteArray(fs));
        if (gs) p->setGeometryShaderCode(QByteArray(gs));
        return p;
    }

    Qt3DRender::QRenderPass* pass(Qt3DRender::QShaderProgram* prog, const char* key) {
        auto* rp = new Qt3DRender::QRenderPass;
        rp->setShaderProgram(prog);
        auto* fk = new Qt3DRender::QFilterKey(rp);
        fk->setName("pass");
        fk->setValue(QString::fromLatin1(key));
        rp->addFilterKey(fk);
        auto* cull = new Qt3DRender::QCullFace(rp);
        cull->setMode(Qt3DRender::QCullFace::NoCulling);
        rp->addRenderState(cull);
        return rp;
    }

    static void depth(Qt3DRender::QRenderPass* rp, Qt3DRender::QDepthTest::DepthFunction f, bool write) {
        auto* dt = new Qt3DRender::QDepthTest(rp);
        dt->setDepthFunction(f);
        rp->addRenderState(dt);
        if (!write) rp->addRenderState(new Qt3DRender::QNoDepthMask(rp));
    }

    static void blend(Qt3DRender::QRenderPass* rp, Qt3DRender::QBlendEquationArguments::Blending src,
                      Qt3DRender::QBlendEquationArguments::Blending dst) {
        auto* eq = new Qt3DRender::QBlendEquation(rp);
        eq->setBlendFunction(Qt3DRender::QBlendEquation::Add);
        auto* args = new Qt3DRender::QBlendEquationArguments(rp);
        args->setSourceRgba(src);
        args->setDestinationRgba(dst);
        rp->addRenderState(eq);
        rp->addRenderState(args);
    }

    Qt3DRender::QEffect* effect(std::initializer_list<Qt3DRender::QRenderPass*> passes) {
        auto* fx = new Qt3DRender::QEffect(root);
        auto* tech = new Qt3DRender::QTechnique(fx);
        tech->graphicsApiFilter()->setApi(Qt3DRender::QGraphicsApiFilter::OpenGL);
        tech->graphicsApiFilter()->setProfile(Qt3DRender::QGraphicsApiFilter::CoreProfile);
        tech->graphicsApiFilter()->setMajorVersion(3);
        tech->graphicsApiFilter()->setMinorVersion(3);
        for (auto* p : passes)
            tech->addRenderPass(p);
        fx->addTechnique(tech);
        return fx;
    }

    // Mesh effect for a family and a fragment variant (bit 0 BUMP, bit 1 SPECULAR, bit 2 UNLIT), shared by
    // every entity that needs it.
    // cullBack: opaque meshes of formats whose outward faces are counter-clockwise in our (right-handed) view
    // skip back faces (Alamo: checked against no culling on corpus models; front culling shows the insides).
    Qt3DRender::QEffect* meshEffect(Family family, int variant, bool cullBack) {
        using BA = Qt3DRender::QBlendEquationArguments;
        using DT = Qt3DRender::QDepthTest;
        cullBack = cullBack && family == Family::Opaque;
        const int key = int(family) * 16 + (cullBack ? 8 : 0) + variant;
        if (auto it = meshEffects.find(key); it != meshEffects.end()) return it->second;
        Qt3DRender::QShaderProgram*& prog = meshPrograms[variant];
        if (!prog) {
            QByteArray fs("#version 330 core\n");
            if (variant & 1) fs += "#define BUMP\n";
            if (variant & 2) fs += "#define SPECULAR\n";
            if (variant & 4) fs += "#define UNLIT\n";
            fs += shaders::meshFragment;
            prog = program(shaders::meshVertex, fs.constData());
        }
        if (!wireProg) wireProg = program(shaders::meshVertex, shaders::wireFragment, shaders::wireGeometry);
        auto* wire = pass(wireProg, "wire");
        depth(wire, DT::LessOrEqual, false);
        Qt3DRender::QRenderPass* main = nullptr;
        switch (family) {
        case Family::Opaque:
            main = pass(prog, "opaque");
            depth(main, DT::Less, true);
            if (cullBack)
                for (auto* st : main->renderStates())
                    if (auto* cf = qobject_cast<Qt3DRender::QCullFace*>(st)) cf->setMode(Qt3DRender::QCullFace::Back);
            break;
        case Family::Alpha:
            main = pass(prog, "transparent");
            depth(main, DT::Less, false);
            blend(main, BA::SourceAlpha, BA::OneMinusSourceAlpha);
            break;
        case Family::Additive:
            main = pass(prog, "transparent");
            depth(main, DT::Less, false);
            blend(main, BA::One, BA::One);
            break;
        }
        auto* fx = effect({main, wire});
        meshEffects[key] = fx;
        return fx;
    }
    std::map<int, Qt3DRender::QEffect*> meshEffects;
    Qt3DRender::QShaderProgram* meshPrograms[8] = {};
    Qt3DRender::QShaderProgram* wireProg = nullptr;

    void buildEffects() {
        using BA = Qt3DRender::QBlendEquationArguments;
        using DT = Qt3DRender::QDepthTest;
        auto* lineProg = program(shaders::lineVertex, shaders::lineFragment);
        auto* dazzleProg = program(shaders::dazzleVertex, shaders::dazzleFragment);
        auto* ln = pass(lineProg, "opaque");
        depth(ln, DT::Less, true);
        fxLines = effect({ln});
        auto* ov = pass(lineProg, "overlay");
        depth(ov, DT::Always, false);
        fxOverlayLines = effect({ov});
        auto* lb = pass(program(shaders::labelVertex, shaders::labelFragment), "overlay");
        depth(lb, DT::Always, false);
        blend(lb, BA::SourceAlpha, BA::OneMinusSourceAlpha);
        fxLabels = effect({lb});
        auto* dz = pass(dazzleProg, "transparent");
        depth(dz, DT::LessOrEqual, false);
        blend(dz, BA::One, BA::One);
        fxDazzle = effect({dz});
    }

    Qt3DRender::QRenderPassFilter* passFilter(Qt3DCore::QNode* parent, const char* key) {
        auto* f = new Qt3DRender::QRenderPassFilter(parent);
        auto* fk = new Qt3DRender::QFilterKey(f);
        fk->setName("pass");
        fk->setValue(QString::fromLatin1(key));
        f->addMatch(fk);
        for (GlobalParam* g :
             {&bones, &lightPosition, &lightColor, &lightCount, &ambient, &faction, &highlight, &viewportSize}) {
            auto* p = new QParameter(f);
            g->ps.push_back(p);
            f->addParameter(p);
        }
        filters.push_back(f);
        return f;
    }

    void buildFrameGraph() {
        auto* surface = new Qt3DRender::QRenderSurfaceSelector;
        surface->setSurface(window);
        auto* viewport = new Qt3DRender::QViewport(surface);
        viewport->setNormalizedRect(QRectF(0, 0, 1, 1));
        auto* camSel = new Qt3DRender::QCameraSelector(viewport);
        camSel->setCamera(camera);
        clear = new Qt3DRender::QClearBuffers(camSel);
        clear->setBuffers(Qt3DRender::QClearBuffers::ColorDepthBuffer);
        new Qt3DRender::QNoDraw(clear);
        auto* opaque = passFilter(camSel, "opaque");
        // Front to back: early depth rejection saves most of the fragment work on software GL.
        auto* opaqueSort = new Qt3DRender::QSortPolicy(opaque);
        opaqueSort->setSortTypes(QList<Qt3DRender::QSortPolicy::SortType>{Qt3DRender::QSortPolicy::FrontToBack});
        auto* wire = passFilter(camSel, "wire");
        wireOff = new Qt3DRender::QNoDraw(wire);
        auto* trans = passFilter(camSel, "transparent");
        auto* sort = new Qt3DRender::QSortPolicy(trans);
        sort->setSortTypes(QList<Qt3DRender::QSortPolicy::SortType>{Qt3DRender::QSortPolicy::BackToFront});
        auto* overlay = passFilter(camSel, "overlay");
        auto* clearDepth = new Qt3DRender::QClearBuffers(overlay);
        clearDepth->setBuffers(Qt3DRender::QClearBuffers::DepthBuffer);
        captureNode = new Qt3DRender::QRenderCapture(clearDepth);
        const QStringList names{"BonePalette",  "lightPosition[0]", "lightColor[0]", "lightCount",
                                "ambientColor", "factionColor",     "highlightBone", "viewportSize"};
        GlobalParam* gs[] = {&bones,   &lightPosition, &lightColor, &lightCount,
                             &ambient, &faction,       &highlight,  &viewportSize};
        for (int i = 0; i < names.size(); ++i)
            for (QParameter* p : gs[i]->ps)
                p->setName(names[i]);
        paletteBuffer = new Qt3DCore::QBuffer(root);
        paletteBuffer->setUsage(Qt3DCore::QBuffer::DynamicDraw);
        paletteBytes = QByteArray(qsizetype(shaders::kMaxPalette) * 64, '\0');
        writePaletteSlot(0, glm::mat4(1.0f));
        paletteBuffer->setData(paletteBytes);
        bones.set(QVariant::fromValue(paletteBuffer));
        window->setActiveFrameGraph(surface);
    }

    // ---- model building --------------------------------------------------------------------------------
    void clearModel() {
        delete modelRoot;
        modelRoot = nullptr;
        skeletonEntity = markerEntity = gridEntity = dazzleEntity = labelEntity = pointSetEntity = nullptr;
        labelBuffer = nullptr;
        labels.clear();
        dazzleBuffer = nullptr;
        dazzleFlip = nullptr;
        items.clear();
        parts.clear();
        texCache.clear();
        texInfos.clear();
        texPending = 0;
        skeleton = rs::Skeleton();
        inverseBind.clear();
        clip.reset();
        binding = rs::ClipBinding();
        problems.clear();
    }

    void loadProxyModels() {
        const rs::Model& m = *model;
        if (path.isEmpty()) return;
        QHash<QString, std::shared_ptr<const rs::Model>> cache;
        for (size_t pi = 0; pi < m.proxies.size() && parts.size() < 33; ++pi) {
            const rs::Proxy& px = m.proxies[pi];
            if (px.bone < 0 || size_t(px.bone) >= m.skeleton.bones.size()) continue;
            std::string base;
            int lod = -1, alt = -1;
            rs::parseLodAlt(px.name, base, lod, alt);
            const QString want = QString::fromStdString(base).toLower() + ".alo";
            std::shared_ptr<const rs::Model> pm;
            if (cache.contains(want)) {
                pm = cache.value(want);
            } else {
                // Beside the model in its folder or archive, then in the mounted game/mod folders (core vfs).
                if (const std::string full = rs::vfs::findBeside(path.toStdString(), want.toStdString()); !full.empty()) {
                    try {
                        rs::Document doc = rs::loadDocument(full);
                        if (doc.model) pm = doc.model;
                    } catch (const std::exception&) {
                        // particle systems and unreadable files stay markers
                    }
                }
                cache.insert(want, pm);
            }
            if (!pm) continue;
            Part part;
            part.model = pm;
            part.boneOffset = int(skeleton.bones.size());
            part.attachBone = px.bone;
            part.proxy = int(pi);
            for (const rs::Bone& b : pm->skeleton.bones) {
                rs::Bone nb = b;
                nb.parent =
                    (b.parent >= 0 && b.parent < int(pm->skeleton.bones.size())) ? b.parent + part.boneOffset : px.bone;
                skeleton.bones.push_back(nb);
            }
            parts.push_back(part);
        }
    }

    int paletteSize() const { return int(skeleton.bones.size()) * 2 + 1; }
    int identitySlot() const { return int(skeleton.bones.size()) * 2; }

    QParameter* param(Qt3DRender::QMaterial* m, const char* name, const QVariant& v) {
        auto* p = new QParameter(QString::fromLatin1(name), v, m);
        m->addParameter(p);
        return p;
    }

    // Texture for a material parameter: resolved, cached, checker when missing.
    Qt3DRender::QAbstractTexture* texture(const std::string& name, const QString& meshName, int sub,
                                          const QString& paramName, Qt3DCore::QNode* owner) {
        TextureInfo info;
        info.mesh = meshName;
        info.subMesh = sub;
        info.parameter = paramName;
        info.name = QString::fromStdString(name);
        info.path = resolveTexture(info.name, path, options.textureDirs);
        if (info.path.isEmpty()) {
            texInfos.push_back(info);
            return checker;
        }
        const QString key = info.path.toLower();
        auto it = texCache.find(key);
        if (it == texCache.end()) {
            TexUse use;
            QString error;
            const QImage img = decodeTextureFile(info.path, &error, gpuMaxTextureSize());
            // Parented to the first material using it: a texture node created under modelRoot and referenced only
            // by a material built later (the dazzle draw) was never uploaded by Qt3D 6.4 (sampled as the default).
            use.texture = img.isNull() ? nullptr : makeTexture(img, owner);
            use.error = error;
            it = texCache.insert(key, use);
        }
        info.loaded = it->texture != nullptr;
        info.error = it->error;
        texInfos.push_back(info);
        return it->texture ? it->texture : checker;
    }

    void buildSubMesh(int partIndex, int meshIndex, int subIndex) {
        const Part& part = parts[size_t(partIndex)];
        const rs::Mesh& mesh = part.model->meshes[size_t(meshIndex)];
        const rs::SubMesh& sm = mesh.subMeshes[size_t(subIndex)];
        const uint32_t n = uint32_t(sm.positions.size());
        if (n == 0 || sm.indices.size() < 3) return;
        const MaterialStyle style = classifyMaterial(mesh, sm.material);
        const int N = int(skeleton.bones.size());
        const int boneCount = int(part.model->skeleton.bones.size());

        // Vertex data: one buffer, attribute blocks one after another.
        QByteArray data;
        data.reserve(int(n) * 96);
        auto* entity = new QEntity(modelRoot);
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
        const bool tangents = sm.tangents.size() == n && sm.binormals.size() == n;
        if (tangents) {
            block("vertexTangent", VT::Float, 3, 12, sm.tangents.data());
            block("vertexBinormal", VT::Float, 3, 12, sm.binormals.data());
        }
        const bool alamoFormat = rs::istartsWith(sm.vertexFormat, "alD3dVert");
        const bool useColors =
            sm.colors.size() == n &&
            (!alamoFormat || (!sm.vertexFormat.empty() && std::toupper(sm.vertexFormat.back()) == 'C'));
        if (useColors) block("vertexColor", VT::Float, 4, 16, sm.colors.data());

        int skinMode = 0;
        int rigidSlot = identitySlot();
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
                    int slot = identitySlot();
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
            QParameter* p = param(mat, uniform, QVariant());
            const rs::MaterialParam* mp = m.find(paramName);
            Qt3DRender::QAbstractTexture* t = fallback;
            if (mp && mp->type == rs::ParamType::Texture && !mp->texture.empty())
                t = texture(mp->texture, meshName, subIndex, QString::fromLatin1(paramName), mat);
            p->setValue(QVariant::fromValue(t));
            return t;
        };
        const bool placeholder = texParam("baseTexture", "BaseTexture", white) == checker;
        // Bump only with tangents and a normal map that was found (a missing one is not a checker normal map).
        bool bump = style.bump && tangents;
        if (bump && texParam("normalTexture", "NormalTexture", flatNormal) == checker) {
            bump = false;
            if (auto* p = mat->parameters().constLast()) p->setValue(QVariant::fromValue(flatNormal));
        }
        const int gloss = !bump && style.glossSource == 2 ? 0 : style.glossSource;
        param(mat, "glossSource", gloss);
        const int variant = (bump ? 1 : 0) | (gloss != 0 ? 2 : 0) | (style.unlit ? 4 : 0);
        mat->setEffect(meshEffect(style.family, style.unlit ? 4 : variant, part.model->format == "alo"));
        param(mat, "colorize", style.colorize && !placeholder ? 1 : 0);
        param(mat, "factionColorParam", style.factionColorParam ? 1 : 0);
        param(mat, "blendMode", int(style.family));
        param(mat, "diffuseColor", toQ4(vec4Param("Diffuse", glm::vec4(1.0f))));
        param(mat, "specularColor", toQ4(vec4Param("Specular", glm::vec4(0.6f, 0.6f, 0.6f, 1.0f))));
        param(mat, "emissiveColor", toQ4(vec4Param("Emissive", glm::vec4(0.0f))));
        param(mat, "colorParam", toQ4(vec4Param("Color", glm::vec4(1.0f))));
        param(mat, "shininess", floatParam("Shininess", 32.0f));
        param(mat, "skinMode", skinMode);
        param(mat, "rigidSlot", rigidSlot);
        param(mat, "hasVertexColor", useColors ? 1 : 0);
        entity->addComponent(gr);
        entity->addComponent(mat);

        DrawItem item;
        item.entity = entity;
        item.part = partIndex;
        item.mesh = meshIndex;
        item.sub = subIndex;
        item.attachBone = mesh.bone >= 0 && mesh.bone < boneCount ? mesh.bone + part.boneOffset : part.attachBone;
        item.flagHidden = mesh.hidden;
        item.shadowHidden = style.hiddenByDefault;
        items.push_back(item);
    }

    // Line geometry whose vertices are attached to palette slotIndex.
    struct LineVertex {
        glm::vec3 p;
        glm::vec4 c;
        uint16_t slot, bone;
    };
    QEntity* lineEntity(const std::vector<LineVertex>& v, Qt3DRender::QEffect* fx) {
        auto* e = new QEntity(modelRoot);
        if (v.empty()) return e;
        auto* g = new Qt3DCore::QGeometry(e);
        auto* buf = new Qt3DCore::QBuffer(g);
        static_assert(sizeof(LineVertex) == 32, "packed line vertex");
        QByteArray data(reinterpret_cast<const char*>(v.data()), qsizetype(v.size() * sizeof(LineVertex)));
        buf->setData(data);
        const uint n = uint(v.size());
        using VT = QAttribute::VertexBaseType;
        addAttribute(g, buf, "vertexPosition", VT::Float, 3, 0, 32, n);
        addAttribute(g, buf, "vertexColor", VT::Float, 4, 12, 32, n);
        addAttribute(g, buf, "lineBone", VT::UnsignedShort, 2, 28, 32, n);
        auto* gr = new Qt3DRender::QGeometryRenderer(e);
        gr->setGeometry(g);
        gr->setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
        gr->setVertexCount(int(n));
        auto* mat = new Qt3DRender::QMaterial(e);
        mat->setEffect(fx);
        e->addComponent(gr);
        e->addComponent(mat);
        return e;
    }

    void buildOverlays() {
        const int N = int(skeleton.bones.size());
        const auto slot = [](int s) { return uint16_t(std::min(s, shaders::kMaxPalette - 1)); };
        // Skeleton: a line from every bone to its parent.
        std::vector<LineVertex> sk;
        for (int b = 0; b < N; ++b) {
            const int p = skeleton.bones[size_t(b)].parent;
            if (p < 0) continue;
            const glm::vec4 c = b < int(model->skeleton.bones.size()) ? glm::vec4(0.9f, 0.9f, 0.95f, 1.0f)
                                                                      : glm::vec4(1.0f, 0.6f, 0.2f, 1.0f);
            sk.push_back({glm::vec3(0.0f), c, slot(b), uint16_t(b)});
            sk.push_back({glm::vec3(0.0f), c, slot(p), uint16_t(b)});
        }
        // Bone axes (short) so single bones are visible too.
        const float axis = radius * 0.02f;
        for (int b = 0; b < N; ++b) {
            for (int k = 0; k < 3; ++k) {
                glm::vec3 d(0.0f);
                d[k] = axis;
                glm::vec4 c(0.2f, 0.2f, 0.2f, 1.0f);
                c[k] = 1.0f;
                sk.push_back({glm::vec3(0.0f), c, slot(b), uint16_t(b)});
                sk.push_back({d, c, slot(b), uint16_t(b)});
            }
        }
        skeletonEntity = lineEntity(sk, fxOverlayLines);

        // Proxies (orange crosses) and markers (cyan boxes / crosses).
        std::vector<LineVertex> mk;
        const float s = radius * 0.04f;
        auto cross = [&](const glm::mat4& m, int boneSlot, int boneId, glm::vec4 c, float size) {
            for (int k = 0; k < 3; ++k) {
                glm::vec3 d(0.0f);
                d[k] = size;
                mk.push_back({glm::vec3(m * glm::vec4(-d, 1.0f)), c, slot(boneSlot), uint16_t(boneId)});
                mk.push_back({glm::vec3(m * glm::vec4(d, 1.0f)), c, slot(boneSlot), uint16_t(boneId)});
            }
        };
        const int mainBones = int(model->skeleton.bones.size());
        for (const rs::Proxy& px : model->proxies)
            if (px.bone >= 0 && px.bone < mainBones)
                cross(glm::mat4(1.0f), px.bone, px.bone, {1.0f, 0.55f, 0.1f, 1.0f}, s);
        for (const rs::Marker& m : model->markers) {
            const int b = m.bone >= 0 && m.bone < mainBones ? m.bone : identitySlot();
            const glm::vec4 c(0.2f, 0.9f, 1.0f, 1.0f);
            if (glm::length(m.extent) > 0.0f) {
                for (int e = 0; e < 12; ++e) {
                    // 12 box edges: pick the varying axis and the two fixed signs.
                    const int axisV = e / 4, a1 = (axisV + 1) % 3, a2 = (axisV + 2) % 3;
                    for (int end = 0; end < 2; ++end) {
                        glm::vec3 p;
                        p[axisV] = end ? m.extent[axisV] : -m.extent[axisV];
                        p[a1] = (e & 1) ? m.extent[a1] : -m.extent[a1];
                        p[a2] = (e & 2) ? m.extent[a2] : -m.extent[a2];
                        mk.push_back({glm::vec3(m.transform * glm::vec4(p, 1.0f)), c, slot(b), uint16_t(b)});
                    }
                }
            } else {
                cross(m.transform, b, b, c, s * 0.75f);
            }
        }
        markerEntity = lineEntity(mk, fxLines);

        // Point sets (B&W2 collision footprint, unknown points), model space: closed outlines as loops,
        // other sets as small crosses. Capped so a hostile count cannot blow up the overlay.
        std::vector<LineVertex> ps;
        const uint16_t psSlot = slot(identitySlot());
        const float ps_s = radius * 0.015f;
        for (const rs::PointSet& set : model->pointSets) {
            const bool collision = set.kind == "collision";
            const glm::vec4 c = collision ? glm::vec4(1.0f, 0.35f, 0.3f, 1.0f) : glm::vec4(1.0f, 0.9f, 0.25f, 1.0f);
            const size_t n = std::min<size_t>(set.points.size(), 65536);
            if (set.closedLoop && n >= 2) {
                for (size_t i = 0; i < n; ++i) {
                    ps.push_back({set.points[i], c, psSlot, 0xFFFF});
                    ps.push_back({set.points[(i + 1) % n], c, psSlot, 0xFFFF});
                }
            } else {
                for (size_t i = 0; i < n; ++i)
                    for (int k = 0; k < 3; ++k) {
                        glm::vec3 d(0.0f);
                        d[k] = ps_s;
                        ps.push_back({set.points[i] - d, c, psSlot, 0xFFFF});
                        ps.push_back({set.points[i] + d, c, psSlot, 0xFFFF});
                    }
            }
        }
        pointSetEntity = lineEntity(ps, fxLines);

        // Ground grid through the model's lowest point.
        std::vector<LineVertex> gr;
        float step = std::pow(10.0f, std::floor(std::log10(std::max(radius, 1e-3f) / 2.0f)));
        if (radius / step > 10.0f) step *= 2.0f;
        const int cells = 12;
        const float ext = step * cells;
        const glm::vec3 up = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
        const glm::vec3 ax = glm::vec3(1, 0, 0), ay = zUp ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
        const float ground = groundLevel;
        for (int i = -cells; i <= cells; ++i) {
            const glm::vec4 c = i == 0 ? glm::vec4(0.55f, 0.55f, 0.6f, 1.0f) : glm::vec4(0.36f, 0.38f, 0.42f, 1.0f);
            const float o = float(i) * step;
            const glm::vec3 base = up * ground;
            const uint16_t idSlot = slot(identitySlot());
            gr.push_back({base + ax * o - ay * ext, c, idSlot, 0xFFFF});
            gr.push_back({base + ax * o + ay * ext, c, idSlot, 0xFFFF});
            gr.push_back({base + ay * o - ax * ext, c, idSlot, 0xFFFF});
            gr.push_back({base + ay * o + ax * ext, c, idSlot, 0xFFFF});
        }
        gridEntity = lineEntity(gr, fxLines);
    }
    float groundLevel = 0.0f;

    void buildDazzles() {
        const rs::Model& m = *model;
        const uint n = uint(m.dazzles.size());
        dazzleEntity = new QEntity(modelRoot);
        if (n == 0) return;
        auto* g = new Qt3DCore::QGeometry(dazzleEntity);
        auto* corners = new Qt3DCore::QBuffer(g);
        const float c[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
        corners->setData(QByteArray(reinterpret_cast<const char*>(c), sizeof(c)));
        dazzleBuffer = new Qt3DCore::QBuffer(g);
        dazzleData = QByteArray(int(n) * 48, '\0');
        dazzleBuffer->setData(dazzleData);
        using VT = QAttribute::VertexBaseType;
        addAttribute(g, corners, "corner", VT::Float, 2, 0, 8, 4);
        addAttribute(g, dazzleBuffer, "dazzleCenter", VT::Float, 4, 0, 48, n, 1);
        addAttribute(g, dazzleBuffer, "dazzleColor", VT::Float, 4, 16, 48, n, 1);
        addAttribute(g, dazzleBuffer, "dazzleRect", VT::Float, 4, 32, 48, n, 1);
        auto* gr = new Qt3DRender::QGeometryRenderer(dazzleEntity);
        gr->setGeometry(g);
        gr->setPrimitiveType(Qt3DRender::QGeometryRenderer::TriangleStrip);
        gr->setVertexCount(4);
        gr->setInstanceCount(int(n));
        auto* mat = new Qt3DRender::QMaterial(dazzleEntity);
        mat->setEffect(fxDazzle);
        QParameter* texP = param(mat, "dazzleTexture", QVariant());
        // One texture for the single draw: the first dazzle texture that resolves.
        Qt3DRender::QAbstractTexture* tex = nullptr;
        for (const rs::Dazzle& dz : m.dazzles) {
            if (dz.texture.empty()) continue;
            Qt3DRender::QAbstractTexture* t =
                texture(dz.texture, QString::fromStdString(dz.name), 0, QStringLiteral("Dazzle"), mat);
            if (t != checker) {
                tex = t;
                break;
            }
        }
        texP->setValue(QVariant::fromValue(tex ? tex : white));
        param(mat, "hasTexture", tex ? 1 : 0);
        // Atlas rects are in the file's convention (v down from the image top); uploads put the top at v = 1.
        dazzleFlip = param(mat, "textureFlip", 1);
        dazzleEntity->addComponent(gr);
        dazzleEntity->addComponent(mat);
        updateDazzleColors();
    }

    // Labels: names of proxies (orange) and markers (cyan) drawn at their bones, constant pixel size.
    struct Label {
        int bone = -1;         // main-model bone, -1 = model origin
        glm::vec3 local{0.0f}; // offset in bone space
        int proxy = -1;        // proxy index (ALT rules), -1 for markers
    };
    std::vector<Label> labels;
    int hoverLabel = -1; // label under the mouse, -1 = none
    int labelsShown = 0; // labels drawn after the last updateLabels()
    QEntity* labelEntity = nullptr;
    Qt3DCore::QBuffer* labelBuffer = nullptr;
    QByteArray labelData;

    void buildLabels() {
        labels.clear();
        hoverLabel = -1;
        labelsShown = 0;
        labelEntity = nullptr;
        labelBuffer = nullptr;
        const rs::Model& m = *model;
        QStringList texts;
        std::vector<QColor> colors;
        const int mainBones = int(m.skeleton.bones.size());
        for (size_t i = 0; i < m.proxies.size() && labels.size() < 256; ++i) {
            const rs::Proxy& px = m.proxies[i];
            labels.push_back({px.bone >= 0 && px.bone < mainBones ? px.bone : -1, glm::vec3(0.0f), int(i)});
            texts << QString::fromStdString(px.name);
            colors.push_back(QColor(255, 170, 60));
        }
        for (const rs::Marker& mk : m.markers) {
            if (labels.size() >= 256) break;
            labels.push_back({mk.bone >= 0 && mk.bone < mainBones ? mk.bone : -1, glm::vec3(mk.transform[3]), -1});
            texts << QString::fromStdString(mk.name);
            colors.push_back(QColor(90, 230, 255));
        }
        if (labels.empty()) return;
        QFont font;
        font.setPixelSize(11);
        const QFontMetrics fm(font);
        const int rowH = fm.height() + 4;
        int atlasW = 16;
        for (const QString& t : texts)
            atlasW = std::max(atlasW, std::min(fm.horizontalAdvance(t) + 8, 512));
        const int atlasH = rowH * int(texts.size());
        QImage atlas(atlasW, atlasH, QImage::Format_ARGB32);
        atlas.fill(Qt::transparent);
        {
            QPainter p(&atlas);
            p.setFont(font);
            for (int i = 0; i < texts.size(); ++i) {
                const int w = std::min(fm.horizontalAdvance(texts[i]) + 8, atlasW);
                p.fillRect(QRect(0, i * rowH, w, rowH), QColor(0, 0, 0, 150));
                p.setPen(colors[size_t(i)]);
                p.drawText(QRect(4, i * rowH, w - 4, rowH), Qt::AlignVCenter | Qt::AlignLeft, texts[i]);
            }
        }
        labelEntity = new QEntity(modelRoot);
        auto* g = new Qt3DCore::QGeometry(labelEntity);
        auto* corners = new Qt3DCore::QBuffer(g);
        const float c[8] = {0, 0, 1, 0, 0, 1, 1, 1};
        corners->setData(QByteArray(reinterpret_cast<const char*>(c), sizeof(c)));
        labelBuffer = new Qt3DCore::QBuffer(g);
        const uint n = uint(labels.size());
        labelData = QByteArray(int(n) * 48, '\0');
        float* f = reinterpret_cast<float*>(labelData.data());
        for (uint i = 0; i < n; ++i, f += 12) {
            const int w = std::min(fm.horizontalAdvance(texts[int(i)]) + 8, atlasW);
            // Uploads put the image top at v = 1: row r spans v from 1 - (r+1)h/H (bottom) to 1 - rh/H (top).
            const float vals[8] = {float(w),
                                   float(rowH),
                                   6.0f,
                                   4.0f,
                                   0.0f,
                                   1.0f - float((i + 1) * rowH) / float(atlasH),
                                   float(w) / float(atlasW),
                                   1.0f - float(i * rowH) / float(atlasH)};
            std::memcpy(f + 4, vals, sizeof(vals));
        }
        labelBuffer->setData(labelData);
        using VT = QAttribute::VertexBaseType;
        addAttribute(g, corners, "corner", VT::Float, 2, 0, 8, 4);
        addAttribute(g, labelBuffer, "labelAnchor", VT::Float, 4, 0, 48, n, 1);
        addAttribute(g, labelBuffer, "labelSize", VT::Float, 4, 16, 48, n, 1);
        addAttribute(g, labelBuffer, "labelRect", VT::Float, 4, 32, 48, n, 1);
        auto* gr = new Qt3DRender::QGeometryRenderer(labelEntity);
        gr->setGeometry(g);
        gr->setPrimitiveType(Qt3DRender::QGeometryRenderer::TriangleStrip);
        gr->setVertexCount(4);
        gr->setInstanceCount(int(n));
        auto* mat = new Qt3DRender::QMaterial(labelEntity);
        mat->setEffect(fxLabels);
        auto* tex = makeTexture(atlas, labelEntity);
        tex->setGenerateMipMaps(false);
        tex->setMinificationFilter(Qt3DRender::QAbstractTexture::Nearest);
        tex->setMagnificationFilter(Qt3DRender::QAbstractTexture::Nearest);
        param(mat, "labelTexture", QVariant::fromValue(tex));
        labelEntity->addComponent(gr);
        labelEntity->addComponent(mat);
    }

    void updateLabels() {
        if (!labelBuffer) return;
        float* f = reinterpret_cast<float*>(labelData.data());
        labelsShown = 0;
        for (size_t i = 0; i < labels.size(); ++i, f += 12) {
            const Label& l = labels[i];
            const glm::mat4 w = l.bone >= 0 ? pose.world[size_t(l.bone)] : glm::mat4(1.0f);
            const glm::vec3 p(w * glm::vec4(l.local, 1.0f));
            bool shown = l.proxy >= 0 ? proxyShown(l.proxy) : options.markers;
            if (l.bone >= 0 && !visible[size_t(l.bone)]) shown = false;
            // Only the selected bone's labels and the one under the mouse, unless all are asked for.
            if (!options.labels && !(highlightBone >= 0 && l.bone == highlightBone) && int(i) != hoverLabel)
                shown = false;
            labelsShown += shown ? 1 : 0;
            const float a[4] = {p.x, p.y, p.z, shown ? 1.0f : 0.0f};
            std::memcpy(f, a, sizeof(a));
        }
        labelBuffer->updateData(0, labelData);
    }

    void updateDazzleColors() {
        if (!model) return;
        dazzleColors.clear();
        const QColor fc = options.factionColor;
        for (const rs::Dazzle& dz : model->dazzles) {
            glm::vec3 c = dz.color;
            if (dz.colorize || rs::istartsWith(dz.name, "FC_")) {
                QColor col = QColor::fromRgbF(std::clamp(c.r, 0.0f, 1.0f), std::clamp(c.g, 0.0f, 1.0f),
                                              std::clamp(c.b, 0.0f, 1.0f));
                float h, s, v;
                col.getHsvF(&h, &s, &v);
                float fh, fs, fv;
                fc.getHsvF(&fh, &fs, &fv);
                if (fh < 0.0f) fh = 0.0f; // achromatic faction colour
                col = QColor::fromHsvF(fh, s, v);
                c = glm::vec3(col.redF(), col.greenF(), col.blueF());
            }
            dazzleColors.push_back(c);
        }
    }

    // ---- per-frame ------------------------------------------------------------------------------------------
    glm::mat4 viewRotationInverse() const {
        const QMatrix4x4 v = camera->viewMatrix().inverted();
        glm::mat4 m(1.0f);
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                m[c][r] = v(r, c);
        return m;
    }

    glm::vec3 eye() const {
        const QVector3D p = camera->position();
        return {p.x(), p.y(), p.z()};
    }

    glm::vec3 keyLightDirection() const { // direction the key light travels
        return zUp ? glm::normalize(glm::vec3(-0.45f, 0.6f, -0.7f)) : glm::normalize(glm::vec3(-0.45f, -0.7f, -0.6f));
    }

    // Camera-facing variants of a bone's world matrix (AloViewer DoBillboard semantics, our own math).
    glm::mat4 billboard(int mode, const glm::mat4& w) const {
        if (mode == 0) return w;
        const glm::vec3 t(w[3]);
        const glm::vec3 sc(glm::length(glm::vec3(w[0])), glm::length(glm::vec3(w[1])), glm::length(glm::vec3(w[2])));
        const glm::mat4 inv = viewRotationInverse();
        const glm::vec3 right(inv[0]), upv(inv[1]), back(inv[2]);
        glm::mat3 r;
        const glm::vec3 worldUp = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
        switch (mode) {
        case int(rs::BillboardMode::ZAxisView):
        case int(rs::BillboardMode::ZAxisLight):
        case int(rs::BillboardMode::ZAxisWind): {
            // Rotate about the world up axis so local -Y points at the eye (light, wind).
            glm::vec3 to = mode == int(rs::BillboardMode::ZAxisView)    ? eye() - t
                           : mode == int(rs::BillboardMode::ZAxisLight) ? -keyLightDirection()
                                                                        : glm::vec3(1, 0, 0);
            to -= worldUp * glm::dot(to, worldUp);
            if (glm::length(to) < 1e-6f) return w;
            const glm::vec3 ny = -glm::normalize(to);
            const glm::vec3 nx = glm::normalize(glm::cross(ny, worldUp));
            r = glm::mat3(nx, ny, worldUp);
            break;
        }
        default: // parallel, face camera, sun, sunlight glow: local -Y towards the viewer, +Z up on screen
            r = glm::mat3(right, -back, upv);
            break;
        }
        glm::mat4 o(1.0f);
        o[0] = glm::vec4(r[0] * sc.x, 0.0f);
        o[1] = glm::vec4(r[1] * sc.y, 0.0f);
        o[2] = glm::vec4(r[2] * sc.z, 0.0f);
        o[3] = glm::vec4(t, 1.0f);
        return o;
    }

    void writePaletteSlot(size_t slot, const glm::mat4& m) {
        if (slot >= size_t(shaders::kMaxPalette)) return; // slots past the palette are clamped by the builders
        static_assert(sizeof(glm::mat4) == 64, "std140 mat4: 16 floats, column-major like glm");
        std::memcpy(paletteBytes.data() + slot * 64, &m, 64);
    }

    void updatePose() {
        const size_t N = skeleton.bones.size();
        if (!model) {
            writePaletteSlot(0, glm::mat4(1.0f));
            paletteBuffer->setData(paletteBytes);
            return;
        }
        const rs::Clip* c = clip.get();
        rs::evaluatePose(skeleton, c, c ? &binding : nullptr, frame, rs::LoopMode::Loop, pose.view());
        for (size_t b = 0; b < N; ++b) {
            const int p = skeleton.bones[b].parent;
            const bool userOff = userHidden[b] || (p >= 0 && size_t(p) < b && !visibleUser(size_t(p)));
            userEff[b] = userOff ? 0 : 1;
            visible[b] = pose.visible[b] && !userOff;
        }
        for (size_t b = 0; b < N; ++b) {
            const glm::mat4 w = billboard(skeleton.bones[b].billboard, pose.world[b]);
            writePaletteSlot(b, w);
            writePaletteSlot(N + b, w * inverseBind[b]);
        }
        writePaletteSlot(2 * N, glm::mat4(1.0f));
        paletteBuffer->setData(paletteBytes);
        // The default rig is static: only bone-attached model lights need a per-frame update.
        const bool modelLights = options.lights && !model->lights.empty();
        if (modelLights || lightsDirty) updateLights();
        lightsDirty = modelLights;
        updateDazzles();
        updateLabels();
        updateVisibility();
        emit q->poseChanged();
    }
    std::vector<uint8_t> userEff;
    bool lightsDirty = true; // rig must be re-sent (options or model changed)
    bool visibleUser(size_t b) const { return userEff[b] != 0; }

    void updateDazzles() {
        if (!dazzleBuffer || !model) return;
        const rs::Model& m = *model;
        float* f = reinterpret_cast<float*>(dazzleData.data());
        for (size_t i = 0; i < m.dazzles.size(); ++i, f += 12) {
            const rs::Dazzle& dz = m.dazzles[i];
            float k = blink(dz, time);
            const bool boneOk = dz.bone >= 0 && size_t(dz.bone) < m.skeleton.bones.size();
            if (!boneOk || !visible[size_t(dz.bone)]) k = 0.0f;
            if (dz.nightOnly && !options.night) k = 0.0f;
            if (dz.hidden && !options.showHidden) k = 0.0f;
            const glm::vec3 p =
                boneOk ? glm::vec3(pose.world[size_t(dz.bone)] * glm::vec4(dz.position, 1.0f)) : dz.position;
            const glm::vec3 c = i < dazzleColors.size() ? dazzleColors[i] : dz.color;
            const int cells = dz.texSize > 0 ? dz.texSize : 1;
            const float cell = 1.0f / float(cells);
            const float u0 = float(std::clamp(dz.texX, 0, cells - 1)) * cell;
            const float v0 = float(std::clamp(dz.texY, 0, cells - 1)) * cell;
            const float vals[12] = {p.x,       p.y,       p.z, k > 0.0f ? dz.radius : 0.0f, c.r, c.g, c.b, k, u0,
                                    v0 + cell, u0 + cell, v0};
            std::memcpy(f, vals, sizeof(vals));
        }
        dazzleBuffer->updateData(0, dazzleData);
    }

    void updateLights() {
        QVariantList pos, col;
        const glm::vec3 up = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
        const glm::vec3 side = glm::vec3(1, 0, 0);
        const glm::vec3 fwd = zUp ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1);
        std::vector<std::pair<glm::vec4, glm::vec4>> lights;
        const bool modelLights = options.lights && model && !model->lights.empty();
        lights.push_back(
            {glm::vec4(keyLightDirection(), 0.0f), glm::vec4(glm::vec3(modelLights ? 0.55f : 0.85f), 0.0f)});
        if (!modelLights) {
            lights.push_back({glm::vec4(glm::normalize(side * 0.7f - fwd * 0.3f - up * 0.3f), 0.0f),
                              glm::vec4(glm::vec3(0.35f), 0.0f)});
            lights.push_back(
                {glm::vec4(glm::normalize(fwd * 0.8f - up * 0.5f), 0.0f), glm::vec4(glm::vec3(0.25f), 0.0f)});
        } else {
            for (const rs::Light& l : model->lights) {
                if (lights.size() >= 4) break;
                const bool boneOk = l.bone >= 0 && size_t(l.bone) < model->skeleton.bones.size();
                if (boneOk && !visible[size_t(l.bone)]) continue;
                const glm::mat4 w = boneOk ? pose.world[size_t(l.bone)] : glm::mat4(1.0f);
                const glm::vec3 c = l.color * l.intensity;
                if (l.type == int(rs::LightType::Directional)) {
                    // A directional light shines along its bone's -Z axis.
                    glm::vec3 d = -glm::vec3(w[2]);
                    if (glm::length(d) < 1e-6f) d = keyLightDirection();
                    lights.push_back({glm::vec4(glm::normalize(d), 0.0f), glm::vec4(c, 0.0f)});
                } else {
                    lights.push_back({glm::vec4(glm::vec3(w[3]), 1.0f),
                                      glm::vec4(c, l.farAttenuationEnd > 0.0f ? 1.0f / l.farAttenuationEnd : 0.0f)});
                }
            }
        }
        for (const auto& l : lights) {
            pos.push_back(toQ4(l.first));
            col.push_back(toQ4(l.second));
        }
        while (pos.size() < 4) {
            pos.push_back(QVector4D(0, 0, -1, 0));
            col.push_back(QVector4D(0, 0, 0, 0));
        }
        lightPosition.set(pos);
        lightColor.set(col);
        lightCount.set(int(lights.size()));
    }

    // ---- LOD / ALT / visibility ---------------------------------------------------------------------------
    static void selectMeshes(const rs::Model& m, int lodWanted, int altWanted, std::vector<bool>& out) {
        out = rs::selectLodAlt(m, lodWanted, altWanted);
    }

    bool proxyShown(int proxy) const {
        if (proxy < 0 || !model || size_t(proxy) >= model->proxies.size()) return true;
        const rs::Proxy& px = model->proxies[size_t(proxy)];
        if (!options.proxies) return false;
        if (px.hidden && !options.showHidden) return false;
        if (px.alt >= 0) {
            if (px.alt != options.alt) return false;
            if (px.altDecreaseStayHidden && altDecreased) return false;
        }
        return true;
    }

    void selectLodAlt() {
        for (Part& p : parts)
            selectMeshes(*p.model, options.lod, options.alt, p.meshSelected);
        for (DrawItem& it : items)
            it.selected = parts[size_t(it.part)].meshSelected[size_t(it.mesh)];
    }

    void updateVisibility() {
        for (DrawItem& it : items) {
            bool on = it.selected && (options.showHidden || (!it.flagHidden && !it.shadowHidden));
            if (on && it.attachBone >= 0 && size_t(it.attachBone) < visible.size()) on = visible[size_t(it.attachBone)];
            if (on && it.part > 0) on = proxyShown(parts[size_t(it.part)].proxy);
            if (on != it.enabled) {
                it.entity->setEnabled(on);
                it.enabled = on;
            }
        }
        // A model without drawable meshes (a W3D hierarchy or clip file, an .al armature) shows its bones.
        if (skeletonEntity) skeletonEntity->setEnabled(options.showSkeleton || items.empty());
        if (pointSetEntity) pointSetEntity->setEnabled(options.pointSets);
        if (markerEntity) markerEntity->setEnabled(options.proxies || options.markers);
        if (gridEntity) gridEntity->setEnabled(options.grid);
        if (dazzleEntity) dazzleEntity->setEnabled(options.dazzles);
        if (labelEntity) labelEntity->setEnabled(options.proxies || options.markers);
        wireOff->setEnabled(!options.wireframe);
    }

    // Bounds of what is drawn at the current pose (sampled vertices).
    void computeBounds(glm::vec3& lo, glm::vec3& hi) {
        lo = glm::vec3(std::numeric_limits<float>::max());
        hi = -lo;
        framePoints.clear();
        const size_t N = skeleton.bones.size();
        for (const DrawItem& it : items) {
            if (!it.enabled) continue;
            const Part& part = parts[size_t(it.part)];
            const rs::Mesh& mesh = part.model->meshes[size_t(it.mesh)];
            const rs::SubMesh& sm = mesh.subMeshes[size_t(it.sub)];
            const size_t n = sm.positions.size();
            const size_t stride = std::max<size_t>(1, n / 4000);
            const int boneCount = int(part.model->skeleton.bones.size());
            for (size_t v = 0; v < n; v += stride) {
                glm::mat4 m(1.0f);
                if (sm.skinned() && sm.boneIndices.size() == n) {
                    const unsigned idx = sm.boneIndices[v][0];
                    if (idx < sm.boneMap.size() && sm.boneMap[idx] >= 0 && sm.boneMap[idx] < boneCount) {
                        const size_t b = size_t(sm.boneMap[idx] + part.boneOffset);
                        m = sm.space == rs::VertexSpace::Model ? pose.world[b] * inverseBind[b] : pose.world[b];
                    }
                } else if (it.attachBone >= 0 && size_t(it.attachBone) < N) {
                    m = pose.world[size_t(it.attachBone)];
                }
                const glm::vec3 p(m * glm::vec4(sm.positions[v], 1.0f));
                if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
                if (framePoints.size() < 200000) framePoints.push_back(p);
            }
        }
        if (lo.x > hi.x) { // nothing drawn: use bone positions
            for (size_t b = 0; b < N; ++b) {
                const glm::vec3 p(pose.world[b][3]);
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
            }
        }
        if (lo.x > hi.x) lo = hi = glm::vec3(0.0f);
    }

    // Camera on a sphere around the bounds' centre, at the distance where every bounds corner is inside the
    // view frustum (with a small margin).
    void placeCamera() {
        const float fovV = 40.0f;
        const float aspect = window->height() > 0 ? float(window->width()) / float(window->height()) : 1.0f;
        const float tanV = std::tan(glm::radians(fovV) * 0.5f), tanH = tanV * aspect;
        const float y = glm::radians(yaw), p = glm::radians(pitch);
        glm::vec3 dir;
        if (zUp)
            dir = glm::vec3(std::sin(y) * std::cos(p), std::cos(y) * std::cos(p), std::sin(p)); // yaw 0: camera on +Y
        else
            dir = glm::vec3(std::sin(y) * std::cos(p), std::sin(p), std::cos(y) * std::cos(p));
        const glm::vec3 worldUp = zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
        glm::vec3 right = glm::cross(-dir, worldUp);
        if (glm::length(right) < 1e-6f) right = glm::vec3(1, 0, 0);
        right = glm::normalize(right);
        const glm::vec3 upv = glm::normalize(glm::cross(right, -dir));
        // Fit the drawn points (sampled vertices of the visible meshes at the current pose; the bounds' corners
        // when there are none): centre their extent across the view, then take the distance at which every
        // point is inside the frustum.
        std::vector<glm::vec3> corners;
        if (framePoints.empty())
            for (int c = 0; c < 8; ++c)
                corners.emplace_back((c & 1) ? boundsHi.x : boundsLo.x, (c & 2) ? boundsHi.y : boundsLo.y,
                                     (c & 4) ? boundsHi.z : boundsLo.z);
        const std::vector<glm::vec3>& pts = framePoints.empty() ? corners : framePoints;
        glm::vec3 look = center; // the bounds centre, moved to the middle of the drawn extent across the view
        float rLo = std::numeric_limits<float>::max(), rHi = -rLo, uLo = rLo, uHi = -rLo;
        for (const glm::vec3& p : pts) {
            const glm::vec3 q = p - look;
            rLo = std::min(rLo, glm::dot(q, right));
            rHi = std::max(rHi, glm::dot(q, right));
            uLo = std::min(uLo, glm::dot(q, upv));
            uHi = std::max(uHi, glm::dot(q, upv));
        }
        if (rLo <= rHi) look += right * ((rLo + rHi) * 0.5f) + upv * ((uLo + uHi) * 0.5f);
        float dist = 0.0f;
        for (const glm::vec3& p : pts) {
            const glm::vec3 q = p - look;
            const float along = glm::dot(q, dir);
            dist = std::max(
                {dist, along + std::abs(glm::dot(q, right)) / tanH, along + std::abs(glm::dot(q, upv)) / tanV});
        }
        dist = std::max(dist * 1.04f, radius * 0.5f);
        camera->lens()->setPerspectiveProjection(fovV, aspect, std::max(dist - radius * 4.0f, dist * 0.01f),
                                                 dist + radius * 8.0f);
        const glm::vec3 pos = look + dir * dist;
        camera->setUpVector(QVector3D(worldUp.x, worldUp.y, worldUp.z));
        camera->setPosition(QVector3D(pos.x, pos.y, pos.z));
        camera->setViewCenter(QVector3D(look.x, look.y, look.z));
        if (controller) {
            controller->setLinearSpeed(radius * 2.0f);
            controller->setLookSpeed(180.0f);
        }
    }
    glm::vec3 boundsLo{-1.0f}, boundsHi{1.0f};
    std::vector<glm::vec3> framePoints; // what computeBounds sampled (world space), fitted by placeCamera
};

SceneView::SceneView(QObject* parent) : QObject(parent), d(std::make_unique<Impl>()) {
    d->q = this;
    d->window = new Qt3DExtras::Qt3DWindow(nullptr, Qt3DRender::API::OpenGL);
    {
        // Qt3DWindow asks for 4x MSAA; on software OpenGL that quadruples the fill cost.
        QSurfaceFormat f = d->window->format();
        f.setSamples(qEnvironmentVariableIntValue("RIGSCOPE_MSAA"));
        d->window->setFormat(f);
    }
    d->root = new QEntity;
    d->camera = d->window->camera();
    d->camera->lens()->setPerspectiveProjection(40.0f, 16.0f / 9.0f, 0.1f, 1000.0f);
    d->buildEffects();
    d->buildFrameGraph();
    // Missing textures: a neutral shade in the view (the material inspector shows what is missing).
    d->checker = solidTexture(0xA8A8A8FFu, d->root);
    d->white = solidTexture(0xFFFFFFFFu, d->root);
    d->flatNormal = solidTexture(0x8080FFFFu, d->root);
    d->controller = new Qt3DExtras::QOrbitCameraController(d->root);
    d->controller->setCamera(d->camera);
    auto* frameAction = new Qt3DLogic::QFrameAction(d->root);
    d->root->addComponent(frameAction);
    QObject::connect(frameAction, &Qt3DLogic::QFrameAction::triggered, this, [this](float) { emit frameSwapped(); });
    d->window->setRootEntity(d->root);
    d->window->installEventFilter(this);
    d->window->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
    QObject::connect(d->camera, &Qt3DRender::QCamera::viewMatrixChanged, this, [this] {
        // Billboarded bones depend on the camera.
        if (!d->model) return;
        for (const rs::Bone& b : d->skeleton.bones)
            if (b.billboard != 0) {
                d->updatePose();
                break;
            }
    });
    auto viewport = [this] { d->viewportSize.set(QVector2D(float(d->window->width()), float(d->window->height()))); };
    QObject::connect(d->window, &QWindow::widthChanged, this, viewport);
    QObject::connect(d->window, &QWindow::heightChanged, this, viewport);
    viewport();
    setOptions(d->options);
    d->ambient.set(QVector3D(0.22f, 0.22f, 0.25f));
    d->highlight.set(-1);
    d->updatePose();
    d->updateLights();
}

SceneView::~SceneView() {
    if (d->window) {
        d->clearModel();
        delete d->window.data();
    }
}

Qt3DExtras::Qt3DWindow* SceneView::window() const { return d->window; }

void SceneView::setModel(std::shared_ptr<const rs::Model> model, const QString& path) {
    if (!d->window) return; // window already destroyed by its container
    d->clearModel();
    d->model = std::move(model);
    d->path = path;
    if (!d->model) {
        d->updatePose();
        return;
    }
    const rs::Model& m = *d->model;
    d->zUp = m.format != "bwm" && m.format != "al";
    d->modelRoot = new QEntity(d->root);
    d->skeleton = m.skeleton;
    Part main;
    main.model = d->model;
    d->parts.push_back(main);
    d->loadProxyModels();
    const size_t N = d->skeleton.bones.size();
    std::vector<glm::mat4> bind(N);
    d->skeleton.bindWorld(bind.data());
    d->inverseBind.resize(N);
    for (size_t b = 0; b < N; ++b)
        d->inverseBind[b] = glm::inverse(bind[b]);
    d->pose.resize(N);
    d->visible.assign(N, 1);
    d->userHidden.assign(N, 0);
    d->userEff.assign(N, 1);
    for (size_t pi = 0; pi < d->parts.size(); ++pi) {
        const rs::Model& pm = *d->parts[pi].model;
        for (size_t mi = 0; mi < pm.meshes.size(); ++mi)
            for (size_t si = 0; si < pm.meshes[mi].subMeshes.size(); ++si)
                d->buildSubMesh(int(pi), int(mi), int(si));
    }
    for (DrawItem& it : d->items)
        it.enabled = true;
    d->selectLodAlt();
    d->frame = 0.0f;
    d->time = 0.0f;
    d->lightsDirty = true;
    d->updatePose();
    // Frame first (radius is needed to size the overlays), then build overlays.
    glm::vec3 lo, hi;
    d->computeBounds(lo, hi);
    d->center = (lo + hi) * 0.5f;
    d->radius = std::max(glm::length(hi - lo) * 0.5f, 1e-3f);
    d->boundsLo = lo;
    d->boundsHi = hi;
    d->groundLevel = d->zUp ? lo.z : lo.y;
    d->buildOverlays();
    d->buildDazzles();
    d->buildLabels();
    d->updatePose();
    d->placeCamera();
    if (d->texPending == 0) emit texturesResolved();
}

std::shared_ptr<const rs::Model> SceneView::model() const { return d->model; }

void SceneView::setClip(std::shared_ptr<const rs::Clip> clip) {
    if (!d->window) return; // window already destroyed by its container
    d->clip = std::move(clip);
    d->problems.clear();
    d->binding = rs::ClipBinding();
    if (d->clip && d->model) {
        d->binding = rs::bindClip(d->skeleton, *d->clip);
        for (const std::string& p : d->binding.problems)
            d->problems << QString::fromStdString(p);
    }
    d->updatePose();
}

std::shared_ptr<const rs::Clip> SceneView::clip() const { return d->clip; }
QStringList SceneView::bindingProblems() const { return d->problems; }

static float clipFps(const rs::Clip* c) { return c && c->fps > 0.0f ? c->fps : 30.0f; }

void SceneView::setFrame(float frame) {
    if (!d->window) return; // window already destroyed by its container
    d->frame = frame;
    d->time = frame / clipFps(d->clip.get());
    d->updatePose();
}

void SceneView::setTime(float seconds) {
    if (!d->window) return; // window already destroyed by its container
    d->time = seconds;
    d->frame = seconds * clipFps(d->clip.get());
    d->updatePose();
}

float SceneView::frame() const { return d->frame; }
float SceneView::time() const { return d->time; }

void SceneView::setOptions(const ViewOptions& options) {
    if (!d->window) return; // window already destroyed by its container
    if (options.alt < d->options.alt)
        d->altDecreased = true;
    else if (options.alt > d->options.alt)
        d->altDecreased = false;
    const bool dirsChanged = options.textureDirs != d->options.textureDirs;
    d->options = options;
    d->clear->setClearColor(options.background);
    d->faction.set(
        QVector4D(options.factionColor.redF(), options.factionColor.greenF(), options.factionColor.blueF(), 1.0f));
    if (d->model) {
        if (dirsChanged) {
            // Texture folders changed: rebuild materials by reloading the model.
            auto m = d->model;
            auto c = d->clip;
            const float t = d->time;
            const QString p = d->path;
            setModel(m, p);
            setClip(c);
            setTime(t);
            return;
        }
        d->selectLodAlt();
        d->updateDazzleColors();
    }
    d->lightsDirty = true;
    d->updatePose();
}

const ViewOptions& SceneView::options() const { return d->options; }

void SceneView::setHighlightedBone(int bone) {
    if (!d->window) return; // window already destroyed by its container
    d->highlightBone = bone;
    d->highlight.set(bone);
    d->updateLabels();
}

void SceneView::setBoneHidden(int bone, bool hidden) {
    if (!d->window) return; // window already destroyed by its container
    if (bone < 0 || size_t(bone) >= d->userHidden.size()) return;
    d->userHidden[size_t(bone)] = hidden ? 1 : 0;
    d->updatePose();
}

bool SceneView::boneHidden(int bone) const {
    return bone >= 0 && size_t(bone) < d->userHidden.size() && d->userHidden[size_t(bone)];
}

void SceneView::frameModel() {
    if (!d->window) return; // window already destroyed by its container
    if (!d->model) return;
    glm::vec3 lo, hi;
    d->computeBounds(lo, hi);
    d->center = (lo + hi) * 0.5f;
    d->radius = std::max(glm::length(hi - lo) * 0.5f, 1e-3f);
    d->boundsLo = lo;
    d->boundsHi = hi;
    d->placeCamera();
}

void SceneView::setCameraAngles(float yawDegrees, float pitchDegrees) {
    if (!d->window) return; // window already destroyed by its container
    d->yaw = yawDegrees;
    d->pitch = std::clamp(pitchDegrees, -89.0f, 89.0f);
    d->placeCamera();
}

void SceneView::capture(std::function<void(const QImage&)> done) {
    if (!d->window) {
        done(QImage());
        return;
    }
    Qt3DRender::QRenderCaptureReply* reply = d->captureNode->requestCapture();
    if (!reply) {
        done(QImage());
        return;
    }
    auto* settings = d->window->renderSettings();
    settings->setRenderPolicy(Qt3DRender::QRenderSettings::Always);
    QObject::connect(reply, &Qt3DRender::QRenderCaptureReply::completed, this, [this, reply, done, settings] {
        if (!d->continuous && d->texPending == 0) settings->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
        QImage img = reply->image();
        reply->deleteLater();
        done(img.convertToFormat(QImage::Format_RGB32));
    });
}

bool SceneView::eventFilter(QObject* watched, QEvent* e) {
    if (watched == d->window && d->model) {
        if (e->type() == QEvent::MouseMove && static_cast<QMouseEvent*>(e)->buttons() == Qt::NoButton)
            setHoverPoint(static_cast<QMouseEvent*>(e)->position().toPoint());
        else if (e->type() == QEvent::Leave)
            setHoverPoint(QPoint(-1, -1));
    }
    return QObject::eventFilter(watched, e);
}

int SceneView::labelAt(const QPoint& pos) const {
    if (!d->window || pos.x() < 0 || d->labels.empty()) return -1;
    const QMatrix4x4 vp = d->camera->projectionMatrix() * d->camera->viewMatrix();
    const float w = float(d->window->width()), h = float(d->window->height());
    int best = -1;
    float bestDist = 24.0f * 24.0f; // pixels
    for (size_t i = 0; i < d->labels.size(); ++i) {
        const Impl::Label& l = d->labels[i];
        if (l.bone >= 0 && (size_t(l.bone) >= d->visible.size() || !d->visible[size_t(l.bone)])) continue;
        const glm::mat4 m =
            l.bone >= 0 && size_t(l.bone) < d->pose.world.size() ? d->pose.world[size_t(l.bone)] : glm::mat4(1.0f);
        const glm::vec3 p(m * glm::vec4(l.local, 1.0f));
        const QVector4D c = vp * QVector4D(p.x, p.y, p.z, 1.0f);
        if (c.w() <= 0.0f) continue;
        const float sx = (c.x() / c.w() * 0.5f + 0.5f) * w, sy = (0.5f - c.y() / c.w() * 0.5f) * h;
        const float dx = sx - float(pos.x()), dy = sy - float(pos.y());
        if (dx * dx + dy * dy < bestDist) {
            bestDist = dx * dx + dy * dy;
            best = int(i);
        }
    }
    return best;
}

void SceneView::setHoverPoint(const QPoint& pos) {
    const int label = labelAt(pos);
    if (label == d->hoverLabel) return;
    d->hoverLabel = label;
    d->updateLabels();
}

int SceneView::labelsShown() const { return d->labelsShown; }

void SceneView::setContinuousRendering(bool on) {
    if (!d->window) return; // window already destroyed by its container
    d->continuous = on;
    d->window->renderSettings()->setRenderPolicy(on ? Qt3DRender::QRenderSettings::Always
                                                    : Qt3DRender::QRenderSettings::OnDemand);
}

QList<TextureInfo> SceneView::textures() const { return d->texInfos; }
bool SceneView::texturesPending() const { return d->texPending > 0; }
const std::vector<uint8_t>& SceneView::boneVisibility() const { return d->visible; }

} // namespace rs::render
