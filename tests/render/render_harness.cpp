#include "render_harness.h"

#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <Qt3DExtras/Qt3DWindow>

#include <cstdlib>
#include <filesystem>
#include <memory>

namespace rs::test {

rs::render::SceneView& view() {
    static rs::render::SceneView* v = [] {
        auto* sv = new rs::render::SceneView;
        sv->window()->resize(320, 240);
        sv->window()->show();
        return sv;
    }();
    return *v;
}

QImage grab(int timeoutMs) {
    struct State {
        QImage img;
        bool done = false;
    };
    auto st = std::make_shared<State>();
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    auto& v = view();
    if (v.texturesPending()) {
        QObject::connect(&v, &rs::render::SceneView::texturesResolved, &loop, &QEventLoop::quit);
        loop.exec();
    }
    QEventLoop* lp = &loop;
    auto alive = std::make_shared<bool>(true);
    v.capture([st, &v, lp, alive](const QImage&) {
        if (!*alive) return;
        v.capture([st, lp, alive](const QImage& img) {
            if (!*alive) return;
            st->img = img;
            st->done = true;
            lp->quit();
        });
    });
    if (!st->done && timer.isActive()) loop.exec();
    *alive = false;
    return st->img;
}

static int maxDiff(QRgb a, QColor b) {
    return std::max({std::abs(qRed(a) - b.red()), std::abs(qGreen(a) - b.green()), std::abs(qBlue(a) - b.blue())});
}
static int maxDiff(QRgb a, QRgb b) { return maxDiff(a, QColor(b)); }

int countDifferent(const QImage& img, QColor bg, int tol) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += maxDiff(img.pixel(x, y), bg) > tol;
    return n;
}

QRect foreground(const QImage& img, QColor bg, int tol) {
    QRect r;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (maxDiff(img.pixel(x, y), bg) > tol) r |= QRect(x, y, 1, 1);
    return r;
}

// Fails the running case when a capture failed (null image) or the two differ in size: a comparison of two failed
// captures must never pass.
void requireComparable(const QImage& a, const QImage& b) {
    if (a.isNull() || b.isNull())
        FAIL("image comparison with a failed capture (" << (a.isNull() ? "first" : "second") << " image is null)");
    if (a.size() != b.size())
        FAIL("image comparison of different sizes: " << a.width() << "x" << a.height() << " and " << b.width() << "x"
                                                     << b.height());
}

int countChanged(const QImage& a, const QImage& b, int tol) {
    requireComparable(a, b);
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += maxDiff(a.pixel(x, y), b.pixel(x, y)) > tol;
    return n;
}

double meanDifference(const QImage& a, const QImage& b) {
    requireComparable(a, b);
    double sum = 0.0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            sum += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q));
        }
    return sum / (3.0 * a.width() * a.height());
}

QRect changedBox(const QImage& a, const QImage& b, int tol) {
    requireComparable(a, b);
    QRect r;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (maxDiff(a.pixel(x, y), b.pixel(x, y)) > tol) r |= QRect(x, y, 1, 1);
    return r;
}

std::string goldenDir() { return RIGSCOPE_GOLDEN_DIR; }

std::string corpusRoot() {
    if (const char* e = std::getenv("RIGSCOPE_CORPUS")) return std::filesystem::is_directory(e) ? e : "";
    return std::filesystem::is_directory(RIGSCOPE_CORPUS_DIR) ? RIGSCOPE_CORPUS_DIR : "";
}

} // namespace rs::test
