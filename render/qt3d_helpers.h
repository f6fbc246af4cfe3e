// Small Qt3D building blocks shared by the render units: vertex attributes, material parameters, shader
// programs, render passes (filter key, depth, blending) and single-technique OpenGL 3.3 core effects.
#pragma once

#include <QByteArray>
#include <QVariant>
#include <QVector4D>
#include <Qt3DCore/QAttribute>
#include <Qt3DRender/QBlendEquationArguments>
#include <Qt3DRender/QDepthTest>

#include <glm/glm.hpp>

#include <cstddef>
#include <initializer_list>
#include <vector>

namespace Qt3DCore {
class QBuffer;
class QGeometry;
class QNode;
} // namespace Qt3DCore
namespace Qt3DRender {
class QEffect;
class QMaterial;
class QParameter;
class QRenderPass;
class QShaderProgram;
} // namespace Qt3DRender

namespace rs::render {

inline QVector4D toQ4(const glm::vec4& v) { return QVector4D(v.x, v.y, v.z, v.w); }

// The same uniform set on every pass filter of the frame graph (see FrameGraph).
struct GlobalParam {
    std::vector<Qt3DRender::QParameter*> ps;
    void set(const QVariant& v);
};

void appendBytes(QByteArray& out, const void* p, size_t n);

// Adds a vertex attribute reading buf; divisor 1 = one value per instance.
Qt3DCore::QAttribute* addAttribute(Qt3DCore::QGeometry* g, Qt3DCore::QBuffer* buf, const char* name,
                                   Qt3DCore::QAttribute::VertexBaseType type, uint size, uint offset, uint stride,
                                   uint count, uint divisor = 0);

// Adds a parameter named name with value v to the material (owned by it).
Qt3DRender::QParameter* addParam(Qt3DRender::QMaterial* m, const char* name, const QVariant& v);

namespace fx {
// Shader program owned by parent (vertex, fragment, optional geometry source).
Qt3DRender::QShaderProgram* program(Qt3DCore::QNode* parent, const char* vs, const char* fs, const char* gs = nullptr);
// Pass with filter key pass=key (matched by the frame graph's pass filters), no face culling.
Qt3DRender::QRenderPass* pass(Qt3DRender::QShaderProgram* prog, const char* key);
void depth(Qt3DRender::QRenderPass* rp, Qt3DRender::QDepthTest::DepthFunction f, bool write);
void blend(Qt3DRender::QRenderPass* rp, Qt3DRender::QBlendEquationArguments::Blending src,
           Qt3DRender::QBlendEquationArguments::Blending dst);
// OpenGL 3.3 core effect of one technique holding passes, owned by parent.
Qt3DRender::QEffect* effect(Qt3DCore::QNode* parent, std::initializer_list<Qt3DRender::QRenderPass*> passes);
} // namespace fx

} // namespace rs::render
