// FrameGraph: the Qt3D frame graph of a SceneView and the uniforms every pass sees.
//
// Order of drawing: clear, "depth" passes (depth-only pre-pass of opaque meshes), "opaque" passes (front to back),
// "wire" (off unless wireframe), then the low-resolution target (see below), "transparent" (back to front),
// "composite", then "overlay" (drawn with depth test Always: no depth clear before it). Entities choose a step
// through their passes' filter key "pass" (fx::pass). The shared uniforms below are parameters of every pass filter:
// set once, seen by all.
//
// Low-resolution target (off-screen particles, as GPU Gems 3 ch. 23 describes): a colour + depth texture of a quarter
// of the window's width and height (less on windows larger than 1280x720, see setWindowSize). While it is on, it is
// cleared to transparent black, the opaque meshes' "lowdepth" passes write its depth, and "particlesLow" passes (large
// particles, back to front) accumulate premultiplied colour into it; a "composite" pass then blends it over the window.
// Large particles cover the window many times over (an explosion's smoke: ~25 window-sized layers), which a software
// rasterizer cannot fill at full size 60 times a second. The price: those particles are blended after every full-size
// transparent draw (not sorted among them), and their edges against nearer geometry are as coarse as the target.
#pragma once

#include "low_res_rules.h"
#include "qt3d_helpers.h"

#include <QColor>
#include <QString>

namespace Qt3DCore {
class QEntity;
}
namespace Qt3DExtras {
class Qt3DWindow;
}
namespace Qt3DRender {
class QCamera;
class QBlitFramebuffer;
class QClearBuffers;
class QNoDraw;
class QRenderCapture;
class QTexture2D;
} // namespace Qt3DRender

namespace rs::render {

// Samples per pixel for the view's framebuffer on the OpenGL implementation named glRenderer (GL_RENDERER):
// 0 on software rasterizers (llvmpipe, softpipe, swrast, SwiftShader, Microsoft's), where 4x MSAA triples the CPU
// time of a frame; 4 on hardware. A set RIGSCOPE_MSAA=N environment variable overrides both.
int viewSamples(const QString& glRenderer);

struct SharedUniforms {
    GlobalParam bones;         // "BonePalette" uniform block (a QBuffer, see SkinPalette)
    GlobalParam lightPosition; // "lightPosition[0]"
    GlobalParam lightColor;    // "lightColor[0]"
    GlobalParam lightCount /* "rigLightCount" */, ambient, faction, highlight, viewportSize;
    // The Alamo light set-up (lights.h AlamoLightRig) and the timeline's time in seconds ("alamoTime").
    GlobalParam sunToward, sunDiffuse, sunSpecular, sphAll /* "sphAll[0]": 12 vec4 */, sphFill, time;
    // The same lights as Direct3D fixed-function lights ("alamoLights[0]": 7 vec4, see uploadAlamoLights).
    GlobalParam alamoLights;
};

class FrameGraph {
  public:
    // Builds the graph for window seen through camera and makes it the window's active frame graph.
    FrameGraph(Qt3DExtras::Qt3DWindow* window, Qt3DRender::QCamera* camera);

    SharedUniforms& uniforms() { return u_; }
    void setBackground(const QColor& c);
    void setWireframe(bool on);
    Qt3DRender::QRenderCapture* captureNode() const { return capture_; }

    // The low-resolution target: drawn into only while on. Its size is the window's divided by lowResDivisor() in
    // each direction: the base divisor (kLowResDivisor, larger for windows over kLowResBudgetPixels * 16 pixels so
    // that the target never exceeds kLowResBudgetPixels: a quarter of 1280x720, what a quarter-size target was
    // there), doubled while coarse (particles covering the window many times over).
    void setLowResEnabled(bool on);
    bool lowResEnabled() const;
    void setWindowSize(int width, int height);
    void setLowResCoarse(bool coarse);
    int lowResDivisor() const { return divisor_; }
    Qt3DRender::QTexture2D* lowResColor() const { return lowColor_; }
    // The base divisor for a window: kLowResDivisor up to 1280x720, then the smallest whose target holds at most
    // kLowResBudgetPixels (6 at 1920x1080, 8 at 2560x1440).
    static int baseLowResDivisor(int width, int height);
    static constexpr int kLowResDivisor = lowres::kDivisor, kMaxLowResDivisor = lowres::kMaxDivisor;
    static constexpr long kLowResBudgetPixels = lowres::kBudgetPixels;

    // Heat distortion (MeshHeat): while on, the frame drawn so far is copied (blit) into a texture of the window's
    // size, bound as "sceneCopy" to the "heat" pass drawn after the transparent meshes. Off: no copy, no heat pass.
    void setHeatEnabled(bool on);
    bool heatEnabled() const;

  private:
    SharedUniforms u_;
    Qt3DRender::QClearBuffers* clear_ = nullptr;
    Qt3DRender::QClearBuffers* overlayClear_ = nullptr;
    Qt3DRender::QNoDraw* wireOff_ = nullptr;
    Qt3DRender::QRenderCapture* capture_ = nullptr;
    Qt3DRender::QNoDraw* lowOff_ = nullptr;
    Qt3DRender::QTexture2D *lowColor_ = nullptr, *lowDepth_ = nullptr;
    int divisor_ = kLowResDivisor, width_ = 1, height_ = 1;
    Qt3DRender::QNoDraw* heatOff_ = nullptr;
    Qt3DRender::QTexture2D* sceneCopy_ = nullptr;
    Qt3DRender::QBlitFramebuffer* blit_ = nullptr;
    bool coarse_ = false;
};

} // namespace rs::render
