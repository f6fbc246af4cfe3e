#include "app_entry.h"

#include "asset_browser_dock.h"

#include "bone_tree_dock.h"
#include "main_window.h"
#include "material_dock.h"
#include "timeline_dock.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include <cstdio>

static void initResources() { Q_INIT_RESOURCE(rigscope); }

namespace rs::ui {

namespace {
// Hidden option used to produce the README screenshot with the project's own code:
//   rigscope --window-screenshot OUT.png [--size WxH] [--frame N] [--play] [--select-bone NAME] [MODEL]
// opens MODEL as File → Open would (no MODEL: the built-in demo), waits until it is shown, grabs the window
// (3D view composited in) and exits 0, or 1 when the model cannot be opened or the image cannot be written.
// --play starts playback from frame N, so the grab shows the window while the clip plays.
int windowScreenshot(MainWindow& w, const QString& out, const QString& model, float frame, const QString& bone,
                     bool play) {
    int rc = 1;
    auto grabAndQuit = [&] {
        // Let the layout settle, textures load and the view present a frame before grabbing.
        QElapsedTimer waited;
        waited.start();
        while (w.view()->texturesPending() && waited.elapsed() < 20000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        QTimer::singleShot(800, &w, [&] {
            w.grabWindowImage([&](const QImage& img) {
                rc = (!img.isNull() && img.save(out)) ? 0 : 1;
                if (rc) std::fprintf(stderr, "rigscope: cannot write %s\n", qPrintable(out));
                QApplication::exit(rc);
            });
        });
    };
    QObject::connect(&w, &MainWindow::documentOpened, &w, [&, frame, bone, play] {
        if (frame >= 0) w.timeline()->setPosition(frame);
        if (play) w.timeline()->play();
        if (!bone.isEmpty() && w.model()) w.boneTree()->selectBone(w.model()->skeleton.find(bone.toStdString()));
        if (w.materials()->thumbnailsReady()) w.materials()->selectFirstFoundTexture();
        QObject::connect(w.materials(), &MaterialDock::thumbnailsLoaded, &w,
                         [&] { w.materials()->selectFirstFoundTexture(); });
        grabAndQuit();
    });
    QObject::connect(&w, &MainWindow::openFailed, &w, [](const QString&, const QString& msg) {
        std::fprintf(stderr, "rigscope: %s\n", qPrintable(msg));
        QApplication::exit(1);
    });
    w.setErrorReporter({});
    if (model.isEmpty()) {
        w.showDemo(); // emits documentOpened
    } else {
        w.openFile(model);
    }
    QApplication::exec();
    return rc;
}
} // namespace

int runViewer(const ViewerArgs& args, int argc, char** argv) {
    QApplication app(argc, argv);
    initResources();
    QApplication::setOrganizationName(QStringLiteral("rigscope"));
    QApplication::setApplicationName(QStringLiteral("rigscope"));
    QApplication::setApplicationVersion(QStringLiteral(RIGSCOPE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/rigscope/rigscope.png")));
    QApplication::setDesktopFileName(QStringLiteral("rigscope"));
    const QStringList& files = args.files;

    MainWindow w;
    if (args.size.isValid()) {
        w.resize(args.size);
    } else if (!args.windowScreenshot.isEmpty()) {
        w.resize(1280, 800);
    }
    if (!args.games.isEmpty() || !args.mods.isEmpty())
        if (auto* assets = w.findChild<AssetBrowserDock*>()) assets->mountFolders(args.games, args.mods, false);
    w.show();
    if (!args.windowScreenshot.isEmpty()) {
        if (files.size() > 1) {
            std::fprintf(stderr, "rigscope: --window-screenshot takes at most one model\n");
            return 2;
        }
        return windowScreenshot(w, args.windowScreenshot, files.value(0), args.frame, args.selectBone, args.play);
    }
    if (files.isEmpty()) w.showStartPage(); // the games and mods found, the recent files, the demo
    for (const QString& f : files)
        w.openFile(f);
    return QApplication::exec();
}

} // namespace rs::ui
