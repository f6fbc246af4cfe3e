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
class QEntity;
class QGeometry;
class QNode;
} // namespace Qt3DCore
namespace Qt3DRender {
class QEffect;
class QGeometryRenderer;
class QMaterial;
class QParameter;
class QRenderPass;
class QRenderState;
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

// A quad drawn once per instance (one draw): a 4-vertex triangle strip whose vec2 attribute "corner" runs over
// (lo, lo)..(1, 1), and per instance one vec4 attribute per name, names[k] at byte 16·k of `instances` (stride
// 16·names.size(), room for `capacity` instances; the caller fills the buffer and adds `renderer` to entity).
struct InstancedQuad {
    Qt3DCore::QBuffer* instances = nullptr;
    Qt3DRender::QGeometryRenderer* renderer = nullptr;
    std::vector<Qt3DCore::QAttribute*> attributes; // one per name
};
InstancedQuad makeInstancedQuad(Qt3DCore::QEntity* entity, std::initializer_list<const char*> names, uint capacity,
                                float lo = -1.0f);

// Adds a parameter named name with value v to the material (owned by it).
Qt3DRender::QParameter* addParam(Qt3DRender::QMaterial* m, const char* name, const QVariant& v);

namespace fx {
// Shader program owned by parent (vertex, fragment, optional geometry source).
Qt3DRender::QShaderProgram* program(Qt3DCore::QNode* parent, const char* vs, const char* fs, const char* gs = nullptr);
// Pass with filter key pass=key (matched by the frame graph's pass filters), no face culling.
Qt3DRender::QRenderPass* pass(Qt3DRender::QShaderProgram* prog, const char* key);
void depth(Qt3DRender::QRenderPass* rp, Qt3DRender::QDepthTest::DepthFunction f, bool write);
// Render state masking every colour channel (depth-only passes), owned by parent.
Qt3DRender::QRenderState* noColorWrites(Qt3DCore::QNode* parent);
void blend(Qt3DRender::QRenderPass* rp, Qt3DRender::QBlendEquationArguments::Blending src,
           Qt3DRender::QBlendEquationArguments::Blending dst);
// OpenGL 3.3 core effect of one technique holding passes, owned by parent.
Qt3DRender::QEffect* effect(Qt3DCore::QNode* parent, std::initializer_list<Qt3DRender::QRenderPass*> passes);

// A shader program made only when something drawn needs it. Qt3D compiles (and llvmpipe translates) the program
// of every pass of every effect that exists, drawn or not: passes get their program from here, and they keep
// none (Qt3D skips them) until require() is called, by whoever enables an entity that draws with them.
class OnDemandProgram {
  public:
    OnDemandProgram(Qt3DCore::QNode* parent, QByteArray vs, QByteArray fs, QByteArray gs = QByteArray());
    // Pass with filter key pass=key using this program (without one until required), like fx::pass.
    Qt3DRender::QRenderPass* pass(const char* key);
    void require(); // creates the program (once) and sets it on every pass made so far and later
    Qt3DRender::QShaderProgram* program() const { return program_; } // null until required

  private:
    Qt3DCore::QNode* parent_;
    QByteArray vs_, fs_, gs_;
    Qt3DRender::QShaderProgram* program_ = nullptr;
    std::vector<Qt3DRender::QRenderPass*> passes_;
};
} // namespace fx

} // namespace rs::render
