// model_switch: how long the 3D view keeps showing the previous model after File -> Open of another one
// (issue 12 point 9). Drives the real main window in a real (Xvfb) window and watches what the X server
// shows: the view's rectangle is grabbed from the screen every few milliseconds, without asking Qt3D
// for a frame (a render capture would switch the view to continuous rendering and hide a stall).
//
//   model_switch [--size WxH] [--rounds N] MODEL_A MODEL_B
//
// For each round it opens B over A (then A over B), and prints per switch:
//   read     median of three loadFile() calls on the same file (the worker thread's part)
//   applied  openFile() -> documentOpened (read + applying the document on the GUI thread)
//   new      openFile() -> first grab that shows the new model (closer to the settled image of the new model
//            than a quarter of the old->new distance), and the same minus `read`: read end -> first frame
//   grabs    how many screen grabs were taken during the switch (their spacing bounds the error)
// Run it under xvfb-run -s "-screen 0 1600x1000x24"; QT3D_RENDERER=opengl is set here.
#include "main_window.h"
#include "model_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QScreen>
#include <QTimer>
#include <QWidget>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

using namespace rs::ui;

namespace {

void spin(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool waitFor(const std::function<bool()>& pred, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// The view's rectangle as the X server has it, reduced to 160x100 greyscale (comparison only; the view's
// height changes when a notice above it appears or goes).
QImage grabView(QWidget* view) {
    const QPoint at = view->mapToGlobal(QPoint(0, 0));
    const QPixmap pm = QGuiApplication::primaryScreen()->grabWindow(0, at.x(), at.y(), view->width(), view->height());
    return pm.toImage()
        .scaled(160, 100, Qt::IgnoreAspectRatio, Qt::FastTransformation)
        .convertToFormat(QImage::Format_Grayscale8);
}

double distance(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) return 1e9;
    double sum = 0;
    for (int y = 0; y < a.height(); ++y) {
        const uchar* pa = a.constScanLine(y);
        const uchar* pb = b.constScanLine(y);
        for (int x = 0; x < a.width(); ++x)
            sum += std::abs(int(pa[x]) - int(pb[x]));
    }
    return sum / (a.width() * a.height());
}

qint64 medianReadMs(const QString& path) {
    std::vector<qint64> v;
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer t;
        t.start();
        const LoadResult r = loadFile(rs::Resolver(), path);
        v.push_back(t.elapsed());
        if (!r.error.isEmpty()) std::fprintf(stderr, "model_switch: %s\n", qPrintable(r.error));
    }
    std::sort(v.begin(), v.end());
    return v[1];
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-bench"));
    QApplication::setApplicationName(QStringLiteral("model_switch"));
    QStringList args = app.arguments().mid(1);
    int width = 1600, height = 1000, rounds = 3;
    QStringList files;
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--size") && i + 1 < args.size()) {
            const QStringList wh = args[++i].split(QLatin1Char('x'));
            width = wh.value(0).toInt();
            height = wh.value(1).toInt();
        } else if (args[i] == QLatin1String("--rounds") && i + 1 < args.size()) {
            rounds = std::max(1, args[++i].toInt());
        } else {
            files << QFileInfo(args[i]).absoluteFilePath();
        }
    }
    if (files.size() != 2 || width < 320 || height < 240) {
        std::fprintf(stderr, "usage: model_switch [--size WxH] [--rounds N] MODEL_A MODEL_B\n");
        return 2;
    }

    MainWindow w;
    w.setErrorReporter([](const QString& title, const QString& msg) {
        std::fprintf(stderr, "model_switch: %s: %s\n", qPrintable(title), qPrintable(msg));
    });
    w.move(0, 0);
    w.resize(width, height);
    w.show();
    QWidget* view = w.view()->widget();
    if (!waitFor([&] { return view->isVisible() && view->width() > 100; }, 10000)) return 1;

    auto openAndWait = [&](const QString& path, qint64* appliedMs) {
        bool opened = false, failed = false;
        QElapsedTimer t;
        auto c1 = QObject::connect(&w, &MainWindow::documentOpened, [&] {
            opened = true;
            if (appliedMs) *appliedMs = t.elapsed();
        });
        auto c2 = QObject::connect(&w, &MainWindow::openFailed, [&] { failed = true; });
        t.start();
        w.openFile(path);
        waitFor([&] { return opened || failed; }, 120000);
        QObject::disconnect(c1);
        QObject::disconnect(c2);
        return opened;
    };

    const qint64 readMs[2] = {medianReadMs(files[0]), medianReadMs(files[1])};
    std::printf("window %dx%d, view %dx%d\n", w.width(), w.height(), view->width(), view->height());
    if (!openAndWait(files[0], nullptr)) return 1;
    spin(4000);

    for (int round = 0; round < 2 * rounds; ++round) {
        const int to = (round + 1) % 2;
        const QImage before = grabView(view);
        // Grab continuously while the other model is opened and for 4 s after it was applied.
        struct Grab {
            qint64 ms;
            QImage img;
            int viewHeight;
            double cpuMs; // CPU time of the whole process (all threads) since the open
        };
        std::vector<Grab> grabs;
        QElapsedTimer clock;
        timespec mono{};
        clock_gettime(CLOCK_MONOTONIC, &mono); // for `perf record -k mono` + `perf report --time`
        const double monoStart = double(mono.tv_sec) + double(mono.tv_nsec) * 1e-9;
        QTimer grabber;
        grabber.setInterval(15);
        auto cpuNow = [] {
            timespec c{};
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
            return double(c.tv_sec) * 1e3 + double(c.tv_nsec) * 1e-6;
        };
        const double cpu0 = cpuNow();
        double grabCpu = 0; // CPU spent grabbing (subtracted: it is the measurement's, not the viewer's)
        QObject::connect(&grabber, &QTimer::timeout, [&] {
            const qint64 at = clock.elapsed();
            const double c = cpuNow();
            QImage img = grabView(view);
            grabs.push_back({at, std::move(img), view->height(), c - cpu0 - grabCpu});
            grabCpu += cpuNow() - c;
        });
        qint64 applied = -1;
        clock.start();
        grabber.start();
        if (!openAndWait(files[to], &applied)) return 1;
        spin(4000);
        grabber.stop();
        const QImage settled = grabView(view);
        const double span = distance(before, settled);
        qint64 firstNew = -1, firstChange = -1, resized = -1;
        double cpuAtNew = -1;
        for (const Grab& g : grabs) {
            if (firstChange < 0 && distance(g.img, before) > span / 4) firstChange = g.ms;
            if (firstNew < 0 && distance(g.img, settled) < span / 4) {
                firstNew = g.ms;
                cpuAtNew = g.cpuMs;
            }
            if (resized < 0 && g.viewHeight != grabs.front().viewHeight) resized = g.ms;
        }
        std::printf("%s -> %s: read %lld ms, applied %lld ms, first change %lld ms, new %lld ms (read end -> new "
                    "model on screen %lld ms), %zu grabs, old/new image distance %.1f, process CPU to the new frame "
                    "%.0f ms, view resized at %lld ms; "
                    "CLOCK_MONOTONIC at open %.6f\n",
                    qPrintable(QFileInfo(files[1 - to]).fileName()), qPrintable(QFileInfo(files[to]).fileName()),
                    (long long)readMs[to], (long long)applied, (long long)firstChange, (long long)firstNew,
                    (long long)(firstNew - readMs[to]), grabs.size(), span, cpuAtNew, (long long)resized, monoStart);
        std::fflush(stdout);
    }
    return 0;
}
