// rigscope: the desktop viewer; `--screenshot OUT.png` renders one frame headless and exits.
#include "app_entry.h"
#include "screenshot.h"

#include <QByteArray>
#include <QtGlobal>

int main(int argc, char** argv) {
    // Qt3D's RHI backend in Qt 6.4 never uploads skinning palettes: force the OpenGL renderer
    // before any Qt3D object exists.
    qputenv("QT3D_RENDERER", "opengl");
    if (rs::render::wantsScreenshot(argc, argv)) return rs::render::runScreenshot(argc, argv);
    return rs::ui::runViewer(argc, argv);
}
