#include "frame_graph.h"

#include <algorithm>

#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QBlitFramebuffer>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QFilterKey>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderPassFilter>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QRenderTarget>
#include <Qt3DRender/QRenderTargetOutput>
#include <Qt3DRender/QRenderTargetSelector>
#include <Qt3DRender/QSortPolicy>
#include <Qt3DRender/QTexture>
#include <Qt3DRender/QViewport>

namespace rs::render {

int viewSamples(const QString& glRenderer) {
    if (qEnvironmentVariableIsSet("RIGSCOPE_MSAA")) return qMax(0, qEnvironmentVariableIntValue("RIGSCOPE_MSAA"));
    for (const char* sw : {"llvmpipe", "softpipe", "swrast", "swiftshader", "microsoft basic render", "gdi generic"})
        if (glRenderer.contains(QLatin1String(sw), Qt::CaseInsensitive)) return 0;
    return 4;
}

FrameGraph::FrameGraph(Qt3DExtras::Qt3DWindow* window, Qt3DRender::QCamera* camera) {
    GlobalParam* gs[] = {&u_.bones,       &u_.lightPosition, &u_.lightColor,   &u_.lightCount, &u_.ambient,
                         &u_.faction,     &u_.highlight,     &u_.viewportSize, &u_.sunToward,  &u_.sunDiffuse,
                         &u_.sunSpecular, &u_.sphAll,        &u_.sphFill,      &u_.time,       &u_.alamoLights};
    const char* names[] = {"BonePalette",  "lightPosition[0]", "lightColor[0]", "rigLightCount", "ambientColor",
                           "factionColor", "highlightBone",    "viewportSize",  "sunToward",     "sunDiffuse",
                           "sunSpecular",  "sphAll[0]",        "sphFill[0]",    "alamoTime",     "alamoLights[0]"};
    constexpr int kShared = int(sizeof(names) / sizeof(names[0]));
    auto passFilter = [&](Qt3DCore::QNode* parent, const char* key) {
        auto* f = new Qt3DRender::QRenderPassFilter(parent);
        auto* fk = new Qt3DRender::QFilterKey(f);
        fk->setName("pass");
        fk->setValue(QString::fromLatin1(key));
        f->addMatch(fk);
        for (int i = 0; i < kShared; ++i) {
            auto* p = new Qt3DRender::QParameter(f);
            p->setName(QString::fromLatin1(names[i]));
            gs[i]->ps.push_back(p);
            f->addParameter(p);
        }
        return f;
    };
    auto* surface = new Qt3DRender::QRenderSurfaceSelector;
    surface->setSurface(window);
    auto* viewport = new Qt3DRender::QViewport(surface);
    viewport->setNormalizedRect(QRectF(0, 0, 1, 1));
    auto* camSel = new Qt3DRender::QCameraSelector(viewport);
    camSel->setCamera(camera);
    clear_ = new Qt3DRender::QClearBuffers(camSel);
    clear_->setBuffers(Qt3DRender::QClearBuffers::ColorDepthStencilBuffer); // stencil: MeshOccludedUnit
    new Qt3DRender::QNoDraw(clear_);
    // Depth pre-pass of the opaque meshes, then their shading: only the nearest surface of a pixel is shaded.
    auto* depthOnly = passFilter(camSel, "depth");
    auto* depthSort = new Qt3DRender::QSortPolicy(depthOnly);
    depthSort->setSortTypes(QList<Qt3DRender::QSortPolicy::SortType>{Qt3DRender::QSortPolicy::FrontToBack});
    auto* opaque = passFilter(camSel, "opaque");
    // Front to back: early depth rejection saves most of the fragment work on software GL.
    auto* opaqueSort = new Qt3DRender::QSortPolicy(opaque);
    opaqueSort->setSortTypes(QList<Qt3DRender::QSortPolicy::SortType>{Qt3DRender::QSortPolicy::FrontToBack});
    auto* wire = passFilter(camSel, "wire");
    wireOff_ = new Qt3DRender::QNoDraw(wire);
    {
        auto texture = [&](Qt3DRender::QAbstractTexture::TextureFormat format) {
            auto* t = new Qt3DRender::QTexture2D(surface);
            t->setFormat(format);
            t->setSize(64, 64);
            t->setGenerateMipMaps(false);
            t->setMinificationFilter(Qt3DRender::QAbstractTexture::Linear);
            t->setMagnificationFilter(Qt3DRender::QAbstractTexture::Linear);
            t->wrapMode()->setX(Qt3DRender::QTextureWrapMode::ClampToEdge);
            t->wrapMode()->setY(Qt3DRender::QTextureWrapMode::ClampToEdge);
            return t;
        };
        lowColor_ = texture(Qt3DRender::QAbstractTexture::RGBA8_UNorm);
        lowDepth_ = texture(Qt3DRender::QAbstractTexture::D32F);
        auto* target = new Qt3DRender::QRenderTarget(surface);
        auto output = [&](Qt3DRender::QRenderTargetOutput::AttachmentPoint at, Qt3DRender::QTexture2D* t) {
            auto* o = new Qt3DRender::QRenderTargetOutput(target);
            o->setAttachmentPoint(at);
            o->setTexture(t);
            target->addOutput(o);
        };
        output(Qt3DRender::QRenderTargetOutput::Color0, lowColor_);
        output(Qt3DRender::QRenderTargetOutput::Depth, lowDepth_);
        auto* select = new Qt3DRender::QRenderTargetSelector(camSel);
        select->setTarget(target);
        lowOff_ = new Qt3DRender::QNoDraw(select); // on: nothing below draws
        auto* lowClear = new Qt3DRender::QClearBuffers(lowOff_);
        lowClear->setBuffers(Qt3DRender::QClearBuffers::ColorDepthBuffer);
        lowClear->setClearColor(QColor(0, 0, 0, 0));
        new Qt3DRender::QNoDraw(lowClear);
        passFilter(lowOff_, "lowdepth");
        auto* lowParticles = passFilter(lowOff_, "particlesLow");
        auto* lowSort = new Qt3DRender::QSortPolicy(lowParticles);
        lowSort->setSortTypes(QList<Qt3DRender::QSortPolicy::SortType>{Qt3DRender::QSortPolicy::BackToFront});
    }
    auto* trans = passFilter(camSel, "transparent");
    auto* sort = new Qt3DRender::QSortPolicy(trans);
    sort->setSortTypes(QList<Qt3DRender::QSortPolicy::SortType>{Qt3DRender::QSortPolicy::BackToFront});
    {
        // Heat: a copy of what is drawn so far, then the heat meshes sampling it displaced.
        sceneCopy_ = new Qt3DRender::QTexture2D(surface);
        sceneCopy_->setFormat(Qt3DRender::QAbstractTexture::RGBA8_UNorm);
        sceneCopy_->setSize(64, 64);
        sceneCopy_->setGenerateMipMaps(false);
        sceneCopy_->setMinificationFilter(Qt3DRender::QAbstractTexture::Linear);
        sceneCopy_->setMagnificationFilter(Qt3DRender::QAbstractTexture::Linear);
        sceneCopy_->wrapMode()->setX(Qt3DRender::QTextureWrapMode::ClampToEdge);
        sceneCopy_->wrapMode()->setY(Qt3DRender::QTextureWrapMode::ClampToEdge);
        auto* copyTarget = new Qt3DRender::QRenderTarget(surface);
        auto* o = new Qt3DRender::QRenderTargetOutput(copyTarget);
        o->setAttachmentPoint(Qt3DRender::QRenderTargetOutput::Color0);
        o->setTexture(sceneCopy_);
        copyTarget->addOutput(o);
        heatOff_ = new Qt3DRender::QNoDraw(camSel); // on: nothing below runs
        blit_ = new Qt3DRender::QBlitFramebuffer(heatOff_);
        blit_->setSource(nullptr); // the window's framebuffer
        blit_->setDestination(copyTarget);
        blit_->setSourceAttachmentPoint(Qt3DRender::QRenderTargetOutput::Color0);
        blit_->setDestinationAttachmentPoint(Qt3DRender::QRenderTargetOutput::Color0);
        // Same size, so no filtering happens either way; Qt3D's OpenGL renderer maps Linear to GL_NEAREST (and
        // Nearest to GL_LINEAR, which glBlitFramebuffer refuses with the depth and stencil bits Qt3D always sets).
        blit_->setInterpolationMethod(Qt3DRender::QBlitFramebuffer::Linear);
        blit_->setEnabled(false); // a blit runs even under a QNoDraw: switched with the branch
        new Qt3DRender::QNoDraw(blit_);
        auto* heat = passFilter(heatOff_, "heat");
        auto* copyParam = new Qt3DRender::QParameter(heat);
        copyParam->setName(QStringLiteral("sceneCopy"));
        copyParam->setValue(QVariant::fromValue(static_cast<Qt3DRender::QAbstractTexture*>(sceneCopy_)));
        heat->addParameter(copyParam);
    }
    passFilter(camSel, "composite");
    auto* overlay = passFilter(camSel, "overlay");
    auto* clearDepth = new Qt3DRender::QClearBuffers(overlay);
    clearDepth->setBuffers(Qt3DRender::QClearBuffers::DepthBuffer);
    capture_ = new Qt3DRender::QRenderCapture(clearDepth);
    window->setActiveFrameGraph(surface);
}

void FrameGraph::setBackground(const QColor& c) { clear_->setClearColor(c); }
void FrameGraph::setLowResEnabled(bool on) { lowOff_->setEnabled(!on); }
bool FrameGraph::lowResEnabled() const { return !lowOff_->isEnabled(); }
void FrameGraph::setWindowSize(int width, int height) {
    width_ = std::max(1, width);
    height_ = std::max(1, height);
    const int w = std::max(1, (width_ + divisor_ - 1) / divisor_), h = std::max(1, (height_ + divisor_ - 1) / divisor_);
    lowColor_->setSize(w, h);
    lowDepth_->setSize(w, h);
    sceneCopy_->setSize(width_, height_);
    blit_->setSourceRect(QRectF(0, 0, width_, height_));
    blit_->setDestinationRect(QRectF(0, 0, width_, height_));
}

void FrameGraph::setLowResDivisor(int divisor) {
    divisor = std::clamp(divisor, 1, kMaxLowResDivisor);
    if (divisor == divisor_) return;
    divisor_ = divisor;
    setWindowSize(width_, height_);
}
void FrameGraph::setHeatEnabled(bool on) {
    heatOff_->setEnabled(!on);
    blit_->setEnabled(on);
}
bool FrameGraph::heatEnabled() const { return !heatOff_->isEnabled(); }
void FrameGraph::setWireframe(bool on) { wireOff_->setEnabled(!on); }

} // namespace rs::render
