// The camera given to Qt3D (framing itself: camera_fit.h, no Qt) and asynchronous frame capture.
#pragma once

#include "camera_fit.h"
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
