#include "camera_capture.h"

#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTexture>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace rs::render {

void applyCamera(const OrbitCamera& c, float aspect, Qt3DRender::QCamera* camera) {
    float nearPlane = 0, farPlane = 0;
    c.clipPlanes(nearPlane, farPlane);
    camera->lens()->setPerspectiveProjection(c.fovY, aspect, nearPlane, farPlane);
    const glm::vec3 pos = c.position(), up = c.worldUp();
    camera->setUpVector(QVector3D(up.x, up.y, up.z));
    camera->setPosition(QVector3D(pos.x, pos.y, pos.z));
    camera->setViewCenter(QVector3D(c.target.x, c.target.y, c.target.z));
}

std::vector<quint64> sceneResources(Qt3DCore::QNode* root) {
    std::vector<quint64> ids;
    if (!root) return ids;
    for (const auto* p : root->findChildren<Qt3DRender::QShaderProgram*>())
        ids.push_back(p->id().id());
    for (const auto* t : root->findChildren<Qt3DRender::QAbstractTexture*>())
        ids.push_back(t->id().id());
    std::sort(ids.begin(), ids.end());
    return ids;
}

void captureFrame(Qt3DExtras::Qt3DWindow* window, Qt3DRender::QRenderCapture* captureNode, QObject* context,
                  const std::function<bool()>& keepAlways, std::function<void(const QImage&)> done) {
    if (!window) {
        done(QImage());
        return;
    }
    Qt3DRender::QRenderCaptureReply* reply = captureNode->requestCapture();
    if (!reply) {
        done(QImage());
        return;
    }
    auto* settings = window->renderSettings();
    settings->setRenderPolicy(Qt3DRender::QRenderSettings::Always);
    QObject::connect(reply, &Qt3DRender::QRenderCaptureReply::completed, context, [reply, done, settings, keepAlways] {
        if (!keepAlways()) settings->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
        QImage img = reply->image();
        reply->deleteLater();
        done(img.convertToFormat(QImage::Format_RGB32));
    });
}

} // namespace rs::render
