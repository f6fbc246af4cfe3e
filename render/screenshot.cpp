#include "screenshot.h"

#include "scene_view.h"

#include "io/loader.h"
#include "scene/clip.h"
#include "scene/model.h"

#if __has_include("demo/demo_model.h")
#include "demo/demo_model.h"
#define RIGSCOPE_HAVE_DEMO 1
#endif

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QTimer>
#include <Qt3DExtras/Qt3DWindow>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <sys/resource.h>

namespace rs::render {

bool wantsScreenshot(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--screenshot") == 0) return true;
    return false;
}

namespace {

const char* const kUsage =
    "usage: rigscope --screenshot OUT.png [--size WxH] [--clip FILE] [--frame N | --time S] [--lod N] [--alt N]\n"
    "                [--faction-color #RRGGBB] [--night] [--skeleton] [--wireframe] [--texture-dir DIR]...\n"
    "                [--no-grid] [--no-labels] [--yaw DEG] [--pitch DEG] [--bench-fps SECONDS] [MODEL]\n"
    "Renders one frame of MODEL (default: the built-in demo model) and writes it as PNG.\n";

struct Args {
    QString out, model, clip;
    int width = 800, height = 600;
    std::optional<float> frame, time;
    float yaw = 35.0f, pitch = 20.0f;
    float benchSeconds = 0.0f;
    ViewOptions options;
};

int usage(const char* why) {
    if (why) std::fprintf(stderr, "rigscope: %s\n", why);
    std::fputs(kUsage, stderr);
    return 2;
}

bool parseNumber(const char* s, float& out) {
    char* end = nullptr;
    out = std::strtof(s, &end);
    return end && *end == '\0' && end != s && std::isfinite(out);
}

bool parseInt(const char* s, int& out) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (!end || *end != '\0' || end == s || v < -1000000 || v > 1000000) return false;
    out = int(v);
    return true;
}

// Returns 0 when parsed, otherwise the exit code (2 = usage).
int parseArgs(int argc, char** argv, Args& a) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char*& v) {
            if (i + 1 >= argc) return false;
            v = argv[++i];
            return true;
        };
        const char* v = nullptr;
        float f = 0.0f;
        int n = 0;
        if (arg == "--screenshot") {
            if (!value(v)) return usage("--screenshot needs an output file");
            a.out = QString::fromLocal8Bit(v);
        } else if (arg == "--size") {
            if (!value(v) || std::sscanf(v, "%dx%d", &a.width, &a.height) != 2 || a.width < 16 || a.height < 16 ||
                a.width > 8192 || a.height > 8192)
                return usage("--size needs WxH (16..8192)");
        } else if (arg == "--clip") {
            if (!value(v)) return usage("--clip needs a file");
            a.clip = QString::fromLocal8Bit(v);
        } else if (arg == "--frame") {
            if (!value(v) || !parseNumber(v, f)) return usage("--frame needs a number");
            a.frame = f;
        } else if (arg == "--time") {
            if (!value(v) || !parseNumber(v, f)) return usage("--time needs a number of seconds");
            a.time = f;
        } else if (arg == "--lod") {
            if (!value(v) || !parseInt(v, n)) return usage("--lod needs an integer");
            a.options.lod = n;
        } else if (arg == "--alt") {
            if (!value(v) || !parseInt(v, n) || n < 0) return usage("--alt needs an integer >= 0");
            a.options.alt = n;
        } else if (arg == "--faction-color") {
            if (!value(v)) return usage("--faction-color needs #RRGGBB");
            QColor c(QString::fromLatin1(v));
            if (!c.isValid()) return usage("--faction-color needs #RRGGBB");
            a.options.factionColor = c;
        } else if (arg == "--night") {
            a.options.night = true;
        } else if (arg == "--skeleton") {
            a.options.showSkeleton = true;
        } else if (arg == "--wireframe") {
            a.options.wireframe = true;
        } else if (arg == "--no-grid") {
            a.options.grid = false;
        } else if (arg == "--no-labels") {
            a.options.labels = false;
        } else if (arg == "--texture-dir") {
            if (!value(v)) return usage("--texture-dir needs a folder");
            a.options.textureDirs << QString::fromLocal8Bit(v);
        } else if (arg == "--yaw") {
            if (!value(v) || !parseNumber(v, a.yaw)) return usage("--yaw needs degrees");
        } else if (arg == "--pitch") {
            if (!value(v) || !parseNumber(v, a.pitch)) return usage("--pitch needs degrees");
        } else if (arg == "--bench-fps") {
            if (!value(v) || !parseNumber(v, a.benchSeconds) || a.benchSeconds <= 0)
                return usage("--bench-fps needs seconds");
        } else if (arg == "-h" || arg == "--help") {
            return usage(nullptr);
        } else if (!arg.empty() && arg[0] == '-') {
            return usage(("unknown option " + arg).c_str());
        } else {
            if (!a.model.isEmpty()) return usage("more than one MODEL given");
            a.model = QString::fromLocal8Bit(argv[i]);
        }
    }
    if (a.out.isEmpty()) return usage("--screenshot needs an output file");
    if (a.frame && a.time) return usage("--frame and --time are exclusive");
    return 0;
}

// User + system CPU time of the whole process (all threads, including Mesa's rasterizer threads).
double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

int fail(const std::string& msg) {
    std::fprintf(stderr, "rigscope: %s\n", msg.c_str());
    return 1;
}

} // namespace

int runScreenshot(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    Args a;
    if (int rc = parseArgs(argc, argv, a)) return rc;
    QElapsedTimer startClock;
    startClock.start();

    // Load before creating the GUI so bad input fails fast with one line.
    std::shared_ptr<rs::Model> model;
    std::shared_ptr<rs::Clip> clip;
    try {
        if (a.model.isEmpty()) {
#ifdef RIGSCOPE_HAVE_DEMO
            rs::Document demo = rs::demo::loadDemo();
            model = demo.model;
            if (!demo.clips.empty()) clip = demo.clips.front();
#else
            return fail("no MODEL given and this build has no built-in demo model");
#endif
        } else {
            rs::Document doc = rs::loadDocument(a.model.toStdString());
            if (!doc.model) return fail(a.model.toStdString() + ": holds no model (clip-only file)");
            model = doc.model;
            if (!doc.clips.empty() && (a.frame || a.time)) clip = doc.clips.front();
            if (!clip && a.clip.isEmpty() && (a.frame || a.time)) {
                const auto companions = rs::findCompanionClips(a.model.toStdString());
                if (!companions.empty()) {
                    rs::Document cd = rs::loadDocument(companions.front());
                    if (!cd.clips.empty()) clip = cd.clips.front();
                }
            }
        }
        if (!a.clip.isEmpty()) {
            rs::Document cd = rs::loadDocument(a.clip.toStdString());
            if (cd.clips.empty()) return fail(a.clip.toStdString() + ": holds no animation clip");
            clip = cd.clips.front();
        }
    } catch (const std::exception& e) {
        std::string msg = e.what();
        for (char& c : msg)
            if (c == '\n') c = ' ';
        return fail(msg);
    }

    QGuiApplication app(argc, argv);
    SceneView view;
    auto* window = view.window();
    window->resize(a.width, a.height);
    window->show();
    view.setOptions(a.options);
    view.setModel(model, a.model);
    view.setClip(clip);
    view.setCameraAngles(a.yaw, a.pitch);
    if (a.frame)
        view.setFrame(*a.frame);
    else
        view.setTime(a.time.value_or(0.0f));

    int rc = 0;
    // Watchdog: a capture that never completes (no display, broken GL) must not hang.
    const int watchdogMs = 60000 + int(a.benchSeconds * 1000.0f);
    QTimer::singleShot(watchdogMs, &app, [&] {
        std::fputs("rigscope: render timed out (no frame captured)\n", stderr);
        rc = 1;
        app.exit(1);
    });

    auto finish = [&](const QImage& img) {
        if (img.isNull()) {
            rc = fail("capture failed");
            app.exit(rc);
            return;
        }
        if (!img.save(a.out, "PNG")) {
            rc = fail("cannot write " + a.out.toStdString());
            app.exit(rc);
            return;
        }
        QStringList reported;
        for (const TextureInfo& t : view.textures()) {
            if (t.loaded || reported.contains(t.name, Qt::CaseInsensitive)) continue;
            reported << t.name;
            if (t.path.isEmpty())
                std::fprintf(stderr, "rigscope: warning: texture %s (%s) not found\n", qPrintable(t.name),
                             qPrintable(t.mesh));
            else
                std::fprintf(stderr, "rigscope: warning: texture %s: %s\n", qPrintable(t.path), qPrintable(t.error));
        }
        if (qEnvironmentVariableIsSet("RIGSCOPE_TIMING"))
            std::fprintf(stderr, "rigscope: first frame captured after %lld ms\n", (long long)startClock.elapsed());
        if (a.benchSeconds <= 0.0f) {
            app.exit(0);
            return;
        }
        // Playback benchmark: advance the clip every frame while rendering continuously.
        auto* frames = new int(0);
        auto* clock = new QElapsedTimer;
        auto* cpu0 = new double(processCpuSeconds());
        clock->start();
        view.setContinuousRendering(true);
        QObject::connect(&view, &SceneView::frameSwapped, &app, [&, frames, clock, cpu0] {
            ++*frames;
            view.setTime(float(clock->elapsed()) / 1000.0f);
            if (clock->elapsed() >= qint64(a.benchSeconds * 1000.0f)) {
                const double cpuMs = (processCpuSeconds() - *cpu0) * 1000.0 / std::max(*frames, 1);
                std::printf(
                    "bench: %d frames in %.2f s = %.1f fps at %dx%d, %.1f ms CPU per frame (all threads) (%s)\n",
                    *frames, double(clock->elapsed()) / 1000.0, *frames * 1000.0 / double(clock->elapsed()), a.width,
                    a.height, cpuMs, a.model.isEmpty() ? "demo" : qPrintable(a.model));
                app.exit(0);
            }
        });
    };
    // Capture once textures are resolved (or after 10 s), twice: the first frame after a scene change can
    // still be in flight.
    bool started = false;
    auto start = [&] {
        if (started) return;
        started = true;
        view.capture([&](const QImage&) { view.capture(finish); });
    };
    if (view.texturesPending()) {
        QObject::connect(&view, &SceneView::texturesResolved, &app, start, Qt::SingleShotConnection);
        QTimer::singleShot(10000, &app, [&] {
            if (view.texturesPending()) start();
        });
    } else {
        QTimer::singleShot(0, &app, start);
    }
    const int exec = app.exec();
    return rc ? rc : exec;
}

} // namespace rs::render
