#include "qt3d_helpers.h"

#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QBlendEquation>
#include <Qt3DRender/QColorMask>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QFilterKey>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QGraphicsApiFilter>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QNoDepthMask>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTechnique>

#include <utility>

namespace rs::render {

void GlobalParam::set(const QVariant& v) {
    for (Qt3DRender::QParameter* p : ps)
        p->setValue(v);
}

void appendBytes(QByteArray& out, const void* p, size_t n) { out.append(static_cast<const char*>(p), qsizetype(n)); }

Qt3DCore::QAttribute* addAttribute(Qt3DCore::QGeometry* g, Qt3DCore::QBuffer* buf, const char* name,
                                   Qt3DCore::QAttribute::VertexBaseType type, uint size, uint offset, uint stride,
                                   uint count, uint divisor) {
    auto* a = new Qt3DCore::QAttribute(g);
    a->setName(QString::fromLatin1(name));
    a->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
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

InstancedQuad makeInstancedQuad(Qt3DCore::QEntity* entity, std::initializer_list<const char*> names, uint capacity,
                                float lo) {
    using VT = Qt3DCore::QAttribute::VertexBaseType;
    InstancedQuad q;
    auto* g = new Qt3DCore::QGeometry(entity);
    auto* corners = new Qt3DCore::QBuffer(g);
    const float c[8] = {lo, lo, 1, lo, lo, 1, 1, 1};
    corners->setData(QByteArray(reinterpret_cast<const char*>(c), sizeof(c)));
    addAttribute(g, corners, "corner", VT::Float, 2, 0, 8, 4);
    q.instances = new Qt3DCore::QBuffer(g);
    const uint stride = uint(16 * names.size());
    uint k = 0;
    for (const char* name : names)
        q.attributes.push_back(addAttribute(g, q.instances, name, VT::Float, 4, 16 * k++, stride, capacity, 1));
    q.renderer = new Qt3DRender::QGeometryRenderer(entity);
    q.renderer->setGeometry(g);
    q.renderer->setPrimitiveType(Qt3DRender::QGeometryRenderer::TriangleStrip);
    q.renderer->setVertexCount(4);
    q.renderer->setInstanceCount(int(capacity));
    return q;
}

Qt3DRender::QParameter* addParam(Qt3DRender::QMaterial* m, const char* name, const QVariant& v) {
    auto* p = new Qt3DRender::QParameter(QString::fromLatin1(name), v, m);
    m->addParameter(p);
    return p;
}

namespace fx {

Qt3DRender::QShaderProgram* program(Qt3DCore::QNode* parent, const char* vs, const char* fs, const char* gs) {
    auto* p = new Qt3DRender::QShaderProgram(parent);
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

void depth(Qt3DRender::QRenderPass* rp, Qt3DRender::QDepthTest::DepthFunction f, bool write) {
    auto* dt = new Qt3DRender::QDepthTest(rp);
    dt->setDepthFunction(f);
    rp->addRenderState(dt);
    if (!write) rp->addRenderState(new Qt3DRender::QNoDepthMask(rp));
}

Qt3DRender::QRenderState* noColorWrites(Qt3DCore::QNode* parent) {
    auto* m = new Qt3DRender::QColorMask(parent);
    m->setRedMasked(false);
    m->setGreenMasked(false);
    m->setBlueMasked(false);
    m->setAlphaMasked(false);
    return m;
}

void blend(Qt3DRender::QRenderPass* rp, Qt3DRender::QBlendEquationArguments::Blending src,
           Qt3DRender::QBlendEquationArguments::Blending dst) {
    auto* eq = new Qt3DRender::QBlendEquation(rp);
    eq->setBlendFunction(Qt3DRender::QBlendEquation::Add);
    auto* args = new Qt3DRender::QBlendEquationArguments(rp);
    args->setSourceRgba(src);
    args->setDestinationRgba(dst);
    rp->addRenderState(eq);
    rp->addRenderState(args);
}

Qt3DRender::QEffect* effect(Qt3DCore::QNode* parent, std::initializer_list<Qt3DRender::QRenderPass*> passes) {
    auto* e = new Qt3DRender::QEffect(parent);
    auto* tech = new Qt3DRender::QTechnique(e);
    tech->graphicsApiFilter()->setApi(Qt3DRender::QGraphicsApiFilter::OpenGL);
    tech->graphicsApiFilter()->setProfile(Qt3DRender::QGraphicsApiFilter::CoreProfile);
    tech->graphicsApiFilter()->setMajorVersion(3);
    tech->graphicsApiFilter()->setMinorVersion(3);
    for (auto* p : passes)
        tech->addRenderPass(p);
    e->addTechnique(tech);
    return e;
}

OnDemandProgram::OnDemandProgram(Qt3DCore::QNode* parent, QByteArray vs, QByteArray fs, QByteArray gs)
    : parent_(parent), vs_(std::move(vs)), fs_(std::move(fs)), gs_(std::move(gs)) {}

Qt3DRender::QRenderPass* OnDemandProgram::pass(const char* key) {
    Qt3DRender::QRenderPass* rp = fx::pass(program_, key);
    passes_.push_back(rp);
    return rp;
}

void OnDemandProgram::require() {
    if (program_) return;
    program_ = fx::program(parent_, vs_.constData(), fs_.constData(), gs_.isEmpty() ? nullptr : gs_.constData());
    for (Qt3DRender::QRenderPass* rp : passes_)
        rp->setShaderProgram(program_);
}

} // namespace fx
} // namespace rs::render
