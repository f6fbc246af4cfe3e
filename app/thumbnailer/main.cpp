// rigscope-thumbnailer: freedesktop thumbnailer (resources/rigscope.thumbnailer) for models.
//   rigscope-thumbnailer [-s SIZE] INPUT OUTPUT.png     INPUT: a path or a file:// URI
//   rigscope-thumbnailer [-s SIZE] --demo OUTPUT.png    the built-in demo model
// File managers call it with no display and no GPU: it draws with the software preview renderer (QPainter,
// Qt's offscreen platform) and never needs X, EGL or OpenGL. A watchdog ends it after a few seconds.
// Exit status: 0 thumbnail written, 1 no thumbnail (unreadable, invalid, no model in the file, time out), 2 usage.
#include "preview_view.h"
#include "view_settings.h"

#include "resolve/resolver.h"
#include "scene/model.h"

#if __has_include("demo/demo_model.h")
#include "demo/demo_model.h"
#define RIGSCOPE_HAVE_DEMO 1
#endif

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QUrl>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <unistd.h>

namespace {

constexpr unsigned kWatchdogSeconds = 8;

void onTimeout(int) {
    const char msg[] = "rigscope-thumbnailer: timed out\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

int usage(const char* why) {
    std::fprintf(stderr,
                 "rigscope-thumbnailer: %s\nusage: rigscope-thumbnailer [-s SIZE] INPUT OUTPUT.png\n"
                 "       rigscope-thumbnailer [-s SIZE] --demo OUTPUT.png\n",
                 why);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::signal(SIGALRM, onTimeout);
    alarm(kWatchdogSeconds);

    int size = 128;
    bool demo = false;
    std::string input, output;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::printf("usage: rigscope-thumbnailer [-s SIZE] INPUT OUTPUT.png\n"
                        "Writes a SIZE x SIZE (default 128, at most 2048) PNG preview of a model file.\n");
            return 0;
        }
        if (a == "-s" || a == "--size") {
            if (i + 1 >= argc) return usage("-s needs a size");
            char* end = nullptr;
            const long v = std::strtol(argv[++i], &end, 10);
            if (!end || *end || v < 8 || v > 2048) return usage("-s needs a size from 8 to 2048");
            size = int(v);
        } else if (a == "--demo") {
            demo = true;
        } else if (!a.empty() && a[0] == '-') {
            return usage(("unknown option " + a).c_str());
        } else if (!demo && input.empty()) {
            input = a;
        } else if (output.empty()) {
            output = a;
        } else {
            return usage("too many arguments");
        }
    }
    if (output.empty() || (!demo && input.empty())) return usage("needs INPUT and OUTPUT");
    if (input.rfind("file://", 0) == 0) input = QUrl(QString::fromStdString(input)).toLocalFile().toStdString();

    std::shared_ptr<rs::Model> model;
    try {
        if (demo) {
#ifdef RIGSCOPE_HAVE_DEMO
            model = rs::demo::loadDemo().model;
#endif
        } else {
            // A thumbnail shows the file itself: no companion is read (a W3D skin's hierarchy beside it is).
            model = rs::Resolver().read(input).model;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rigscope-thumbnailer: %s\n", e.what());
        return 1;
    }
    if (!model || model->meshes.empty()) {
        std::fprintf(stderr, "rigscope-thumbnailer: %s: no model to draw\n", input.c_str());
        return 1;
    }

    // Software rendering only: no X server, no GPU.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    rs::ui::PreviewView view;
    rs::ui::ViewSettings settings;
    const std::vector<int> lods = model->lodLevels(), alts = model->altLevels();
    settings.lod = lods.empty() ? -1 : lods.back();
    settings.alt = alts.empty() ? -1 : alts.front();
    settings.grid = false;
    settings.proxies = false;
    settings.background = QColor(0, 0, 0, 0);
    view.setSettings(settings);
    view.setModel(model);
    view.frameModel();

    // Drawn at twice the size and scaled down: cheap anti-aliasing of the flat-shaded triangles.
    QImage img(size * 2, size * 2, QImage::Format_ARGB32);
    img.fill(Qt::transparent);
    {
        QPainter p(&img);
        view.paint(p, img.size());
    }
    const QImage thumb = img.scaled(size, size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    if (!thumb.save(QString::fromStdString(output), "PNG")) {
        std::fprintf(stderr, "rigscope-thumbnailer: cannot write %s\n", output.c_str());
        return 1;
    }
    return 0;
}
