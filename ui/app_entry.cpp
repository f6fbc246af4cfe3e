#include "app_entry.h"

#include "bone_tree_dock.h"
#include "main_window.h"
#include "material_dock.h"
#include "timeline_dock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include <cstdio>

static void initResources() { Q_INIT_RESOURCE(rigscope); }

namespace rs::ui {

namespace {
// Hidden option used to produce the README screenshot with the project's own code:
//   rigscope --window-screenshot OUT.png [--size WxH] [--frame N] [--select-bone NAME] MODEL
// opens MODEL as File → Open would, waits until it is shown, grabs the window (3D view composited in)
// and exits 0, or 1 when the model cannot be opened or the image cannot be written.
int windowScreenshot(MainWindow& w, const QString& out, const QString& model, float frame, const QString& bone) {
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
    QObject::connect(&w, &MainWindow::documentOpened, &w, [&, frame, bone] {
        if (frame >= 0) w.timeline()->setPosition(frame);
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

int runViewer(int argc, char** argv) {
    QApplication app(argc, argv);
    initResources();
    QApplication::setOrganizationName(QStringLiteral("rigscope"));
    QApplication::setApplicationName(QStringLiteral("rigscope"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/rigscope/rigscope.png")));
    QApplication::setDesktopFileName(QStringLiteral("rigscope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Viewer for Alamo, W3D, Black & White 2 models and AMOS AMAL banks"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("Model or clip to open"));
    QCommandLineOption shot(QStringLiteral("window-screenshot"),
                            QStringLiteral("Grab the main window to OUT.png and exit"), QStringLiteral("OUT.png"));
    shot.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size WxH"), QStringLiteral("WxH"));
    QCommandLineOption frame(QStringLiteral("frame"), QStringLiteral("Frame of the clip to show"), QStringLiteral("N"));
    frame.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption bone(QStringLiteral("select-bone"), QStringLiteral("Bone to select"), QStringLiteral("NAME"));
    bone.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({shot, size, frame, bone});
    parser.process(app);
    const QStringList files = parser.positionalArguments();

    MainWindow w;
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int width = wh.value(0).toInt(&okW), height = wh.value(1).toInt(&okH);
        if (wh.size() != 2 || !okW || !okH || width < 320 || height < 240 || width > 8192 || height > 8192) {
            std::fprintf(stderr, "rigscope: --size expects WxH (320x240 .. 8192x8192)\n");
            return 2;
        }
        w.resize(width, height);
    } else if (parser.isSet(shot)) {
        w.resize(1280, 800);
    }
    w.show();
    if (parser.isSet(shot)) {
        if (files.size() > 1) {
            std::fprintf(stderr, "rigscope: --window-screenshot takes at most one model\n");
            return 2;
        }
        return windowScreenshot(w, parser.value(shot), files.value(0),
                                parser.isSet(frame) ? parser.value(frame).toFloat() : -1.0f, parser.value(bone));
    }
    if (files.isEmpty()) w.showDemo();
    for (const QString& f : files)
        w.openFile(f);
    return QApplication::exec();
}

} // namespace rs::ui
