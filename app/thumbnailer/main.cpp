// rigscope-thumbnailer: freedesktop thumbnailer (resources/rigscope.thumbnailer) for models, clips (a skeleton in
// a pose), AMAL banks (their 2D stage) and textures (ui/thumbnail_render.h).
//   rigscope-thumbnailer [-s SIZE] [--no-cache] INPUT OUTPUT.png   INPUT: a path or a file:// URI
//   rigscope-thumbnailer [-s SIZE] --demo OUTPUT.png                the built-in demo model
// The picture is looked up in and stored to the freedesktop cache ($XDG_CACHE_HOME/thumbnails, ui/thumbnail_cache.h)
// unless --no-cache: rigscope's asset grid and the file manager then make each picture once.
// File managers call it with no display and no GPU: it draws with the software preview renderer (QPainter,
// Qt's offscreen platform) and never needs X, EGL or OpenGL. A watchdog ends it after a few seconds.
// Exit status: 0 thumbnail written, 1 no thumbnail (unreadable, invalid, no model in the file, time out), 2 usage.
#include "thumbnail_cache.h"
#include "thumbnail_render.h"

#include "resolve/resolver.h"
#include "scene/model.h"

#if __has_include("demo/demo_model.h")
#include "demo/demo_model.h"
#define RIGSCOPE_HAVE_DEMO 1
#endif

#include <QGuiApplication>
#include <QImage>
#include <QSaveFile>
#include <QUrl>

#include <algorithm>

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
                 "rigscope-thumbnailer: %s\nusage: rigscope-thumbnailer [-s SIZE] [--no-cache] INPUT OUTPUT.png\n"
                 "       rigscope-thumbnailer [-s SIZE] --demo OUTPUT.png\n",
                 why);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::signal(SIGALRM, onTimeout);
    alarm(kWatchdogSeconds);

    int size = 128;
    bool demo = false, useCache = true;
    std::string input, output;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::printf("usage: rigscope-thumbnailer [-s SIZE] [--no-cache] INPUT OUTPUT.png\n"
                        "Writes a SIZE x SIZE (default 128, at most 2048) PNG preview of a model, clip, AMAL bank\n"
                        "or texture, through the freedesktop thumbnail cache ($XDG_CACHE_HOME/thumbnails) unless\n"
                        "--no-cache.\n");
            return 0;
        }
        if (a == "-s" || a == "--size") {
            if (i + 1 >= argc) return usage("-s needs a size");
            char* end = nullptr;
            const long v = std::strtol(argv[++i], &end, 10);
            if (!end || *end || v < 8 || v > 2048) return usage("-s needs a size from 8 to 2048");
            size = int(v);
        } else if (a == "--no-cache") {
            useCache = false;
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

    // Software rendering only: no X server, no GPU.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);

    QImage thumb;
    if (demo) {
#ifdef RIGSCOPE_HAVE_DEMO
        thumb = rs::thumbs::renderModel(rs::demo::loadDemo().model, nullptr, 0.0f, size);
#endif
        if (thumb.isNull()) {
            std::fprintf(stderr, "rigscope-thumbnailer: this build has no demo model\n");
            return 1;
        }
    } else {
        // The freedesktop cache (ui/thumbnail_cache.h) is shared with rigscope's asset grid and file managers: a
        // picture made by any of them is used, one made here is stored at the flavour that holds `size`.
        const rs::thumbs::ThumbnailCache cache;
        const rs::thumbs::Flavor flavor = rs::thumbs::flavorFor(size);
        const rs::thumbs::SourceId id = useCache ? rs::thumbs::identify(input) : rs::thumbs::SourceId{};
        const auto state = id.valid() ? cache.lookup(id, flavor, &thumb) : rs::thumbs::ThumbnailCache::State::Miss;
        if (state == rs::thumbs::ThumbnailCache::State::Failed) {
            std::fprintf(stderr, "rigscope-thumbnailer: %s: cannot be drawn (recorded in %s)\n", input.c_str(),
                         qPrintable(cache.failPathFor(id.uri)));
            return 1;
        }
        if (state == rs::thumbs::ThumbnailCache::State::Miss) {
            // A thumbnail shows the file itself: no companion is read (a W3D skin's hierarchy beside it is, an
            // AMAL bank's image bank beside it is, a clip's model beside it gives the skeleton).
            const int drawn = id.valid() ? std::max(size, rs::thumbs::flavorPixels(flavor)) : size;
            const rs::thumbs::Picture pic = rs::thumbs::renderAsset(rs::Resolver(), input, drawn);
            if (pic.image.isNull()) {
                if (id.valid()) cache.storeFailure(id);
                std::fprintf(stderr, "rigscope-thumbnailer: %s\n", pic.error.c_str());
                return 1;
            }
            thumb = pic.image;
            if (id.valid()) {
                QString why;
                if (!cache.store(id, flavor, thumb, &why))
                    std::fprintf(stderr, "rigscope-thumbnailer: warning: %s\n", qPrintable(why));
            }
        }
    }
    if (thumb.width() > size || thumb.height() > size)
        thumb = thumb.scaled(size, size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    QSaveFile out(QString::fromStdString(output));
    if (!out.open(QIODevice::WriteOnly) || !thumb.save(&out, "PNG") || !out.commit()) {
        std::fprintf(stderr, "rigscope-thumbnailer: cannot write %s\n", output.c_str());
        return 1;
    }
    return 0;
}
