// Camera framing (orbit angles around the drawn model, distance fitted to what is drawn) and asynchronous
// frame capture.
#pragma once

#include "orbit_camera.h"

#include <QImage>
#include <QtGlobal>

#include <glm/glm.hpp>

#include <functional>
#include <vector>

class QObject;
namespace Qt3DCore {
class QNode;
}
namespace Qt3DExtras {
class Qt3DWindow;
}
namespace Qt3DRender {
class QCamera;
class QRenderCapture;
} // namespace Qt3DRender

namespace rs::render {

struct CameraFraming {
    float yaw = 35.0f, pitch = 20.0f; // degrees; yaw 0: camera on +Y (z-up) / +Z (y-up)
    bool zUp = true;
    // What is drawn, world space: bounds and sampled points (the bounds' corners are fitted when empty).
    glm::vec3 lo{-1.0f}, hi{1.0f};
    std::vector<glm::vec3> points;
    // Fixed orbit (turntables): the camera looks at the bounds' centre from the distance at which every point is
    // inside the view at every yaw (at this pitch), so that only the yaw changes from one yaw to the next. Off:
    // the view is fitted to the points as seen from this yaw.
    bool orbit = false;
    glm::vec3 center() const { return (lo + hi) * 0.5f; }
    float radius() const; // half the bounds' diagonal, at least 1e-3

    // Empties the bounds (lo > hi) and points, ready to grow.
    void clear();
    // When nothing grew the bounds: fall back to the given points (bone positions), else to the origin.
    void finish(const std::vector<glm::vec3>& fallback);
};

// The camera on a sphere around the framing's centre at the framing's yaw and pitch, at the distance where every
// point is inside the view frustum (with a small margin; with f.orbit, at every yaw), for a window of this aspect.
// Its scene is the sphere around the point looked at with the bounds' radius.
OrbitCamera fitCamera(const CameraFraming& f, float aspect);
// Gives camera the orbit camera's position, target, up axis and projection (window aspect).
void applyCamera(const OrbitCamera& c, float aspect, Qt3DRender::QCamera* camera);

// The shader programs and textures under root (node ids, sorted). Qt3D (6.4, OpenGL renderer) compiles the
// programs and uploads the textures that exist when a frame starts during that frame's rendering, and draws with
// them from the next frame on. (Their status properties are not a reliable signal: the last batch compiled is
// reported only when some later shader changes.)
std::vector<quint64> sceneResources(Qt3DCore::QNode* root);

// Requests one frame from captureNode; done(image) is called on the GUI thread (a null image on failure). The
// window renders continuously until the image arrives, then goes back to on-demand unless keepAlways().
void captureFrame(Qt3DExtras::Qt3DWindow* window, Qt3DRender::QRenderCapture* captureNode, QObject* context,
                  const std::function<bool()>& keepAlways, std::function<void(const QImage&)> done);

} // namespace rs::render
