#include "screenshot.h"

#include "file_watch.h"
#include "headless_display.h"
#include "scene_recorder.h"
#include "scene_view.h"
#include "thumbnail_render.h"

#include "objects/mod_layout.h"
#include "objects/object_db.h"
#include "objects/object_states.h"
#include "particles/particle_preview.h"
#include "resolve/resolver.h"
#include "scene/clip.h"
#include "scene/clip_choice.h"
#include "scene/model.h"
#include "scene/pose.h"
#include "vfs/mount.h"

#if __has_include("demo/demo_model.h")
#include "demo/demo_model.h"
#define RIGSCOPE_HAVE_DEMO 1
#endif

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QPainter>
#include <QSaveFile>
#include <QTimer>
#include <Qt3DExtras/Qt3DWindow>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace rs::app {

using namespace rs::render;

namespace {

// User + system CPU time of the whole process (all threads, including Mesa's rasterizer threads).
double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// Ends the process without destructors (see ScreenshotArgs::exitWhenDone): the PNG is written and closed; the
// private Xvfb, if one was started, is stopped.
[[noreturn]] void exitNow(int rc) { exitHeadless(rc); }

// --watch: a failed re-read is kept here instead of printed (a file still being written is retried quietly).
std::string* heldFailure = nullptr;

int fail(const std::string& msg) {
    if (heldFailure) {
        *heldFailure = msg;
        return 1;
    }
    std::fprintf(stderr, "rigscope: %s\n", msg.c_str());
    return 1;
}

// The picture of a file that holds no model (a clip alone, an AMAL bank, a texture), drawn by the software
// renderer of the thumbnails, centred on the view's background at the requested size.
int softwareScreenshot(const ScreenshotArgs& a, const rs::Resolver& resolver, const std::string& path, int argc,
                       char** argv) {
    // Drawn with QPainter: no OpenGL, so no display either.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    installHeadlessMessageHandler();
    QGuiApplication app(argc, argv);
    float frame = -1.0f;
    if (a.frame) frame = *a.frame;
    const rs::thumbs::Picture pic = rs::thumbs::renderAsset(resolver, path, std::min(a.width, a.height), frame);
    if (pic.image.isNull()) return fail(pic.error);
    QImage out(a.width, a.height, QImage::Format_RGB32);
    out.fill(QColor(58, 62, 70));
    {
        QPainter p(&out);
        p.drawImage((a.width - pic.image.width()) / 2, (a.height - pic.image.height()) / 2, pic.image);
    }
    if (!out.save(a.out, "PNG")) return fail("cannot write " + a.out.toStdString());
    return 0;
}

} // namespace

// What a headless mode draws, read before any Qt object exists so that bad input fails fast with one line.
struct SceneInputs {
    ViewOptions options;
    std::shared_ptr<rs::Model> model;
    std::shared_ptr<const rs::Clip> clip;
    std::shared_ptr<const rs::ParticleSystem> particles; // a particle system file: drawn alone at the time
    QString modelPath;
    std::vector<Attachment> attachments; // --object: the models it hangs at bones
    // A file without a model (a clip alone, an AMAL bank, a texture): drawn by softwareScreenshot, not the scene.
    std::string softwarePath;
    std::shared_ptr<const rs::Resolver> resolver;
    // Textures already reported missing while loading (an object's state names them): not reported again after
    // the capture, so that each missing texture is printed once.
    QStringList reportedTextures;
    // The files read for the picture besides its textures (the model, its clip files): what --watch watches.
    QStringList files;
};

// Mounts --game/--mod, reads the model (or object, or demo) and the clip. wantClip: without --clip, pick the
// viewer's first clip of the model (else only an object's or the demo's own clip is taken). Returns 0 or 1 (the
// error printed).
static int loadScene(const ScreenshotArgs& a, bool wantClip, SceneInputs& s) {
    std::shared_ptr<const rs::vfs::MountTable> mounted;
    if (!a.games.isEmpty() || !a.mods.isEmpty()) {
        std::vector<std::string> games, mods;
        for (const QString& g : a.games)
            games.push_back(g.toStdString());
        for (const QString& m : a.mods)
            mods.push_back(m.toStdString());
        for (const std::string& d : games)
            if (!std::filesystem::is_directory(d)) return fail("--game " + d + ": not a folder");
        for (const std::string& d : mods)
            if (!std::filesystem::is_directory(d)) return fail("--mod " + d + ": not a folder");
        auto table = std::make_shared<rs::vfs::MountTable>(rs::vfs::mountInstall(games, mods));
        for (const std::string& w : table->warnings)
            std::fprintf(stderr, "rigscope: warning: %s\n", w.c_str());
        mounted = std::move(table);
    }

    std::vector<std::string> textureDirs;
    for (const QString& d : a.textureDirs)
        textureDirs.push_back(QFile::encodeName(d).toStdString());
    const auto resolver = std::make_shared<const rs::Resolver>(mounted, textureDirs);
    ViewOptions& options = s.options;
    options = a.options;
    options.resolver = resolver;
    std::shared_ptr<rs::Model>& model = s.model;
    std::shared_ptr<const rs::Clip>& clip = s.clip;
    std::shared_ptr<const rs::ParticleSystem>& particles = s.particles;
    QString& modelPath = s.modelPath;
    modelPath = a.model;
    std::vector<Attachment>& attachments = s.attachments;
    try {
        if (!a.object.isEmpty()) {
            if (!mounted) return fail("--object needs --game and/or --mod");
            const auto db = rs::objects::ObjectDb::load(*mounted);
            if (db->family() == rs::objects::ObjectDb::Family::None) // a mod laid out as sources: what to mount
                return fail(rs::objects::noObjectDatabaseMessage(rs::objects::findModLayout(*mounted)));
            const rs::objects::ModelProbe probe = rs::objects::documentProbe(*mounted);
            const rs::objects::AssembledObject o = db->assemble(a.object.toStdString(), probe);
            const std::vector<rs::objects::ObjectState> states = rs::objects::objectStates(*db, *mounted, o, probe);
            size_t pick = 0;
            if (!a.state.isEmpty()) { // a number, the label, or the label without its kind ("MOVING")
                std::string why;
                const int n = rs::objects::findState(states, a.state.toStdString(), &why);
                if (n < 0) return fail(o.name + ": " + why);
                pick = size_t(n);
            }
            const rs::objects::LoadedState ls = rs::objects::loadState(*resolver, states[pick]);
            for (const std::string& m : ls.missing) {
                if (m.rfind("texture ", 0) == 0) {
                    const QString name = QString::fromStdString(m.substr(8));
                    if (s.reportedTextures.contains(name, Qt::CaseInsensitive)) continue;
                    s.reportedTextures << name;
                }
                std::fprintf(stderr, "rigscope: warning: %s: %s\n", o.name.c_str(), m.c_str());
            }
            if (!ls.missingHierarchy.empty()) // not drawn folded up at the origin as if it were the model
                return fail(o.name + ", state " + states[pick].label + ": skeleton " + ls.missingHierarchy + " of " +
                            states[pick].main.model + " not found (looked for " + ls.missingHierarchy +
                            ".w3d next to it and in art/w3d/); mount the folder that holds it (--game/--mod)");
            if (!ls.model) {
                std::string why = o.name + ", state " + states[pick].label + ": no model to show";
                if (!o.members.empty()) { // a horde, squadron or company: its members are other objects
                    why += "; its members are objects of their own:";
                    for (const auto& mb : o.members)
                        why += " " + mb.object;
                    why += " (--object NAME)";
                }
                return fail(why);
            }
            model = ls.model;
            modelPath = QString::fromStdString(ls.path);
            for (const auto& at : ls.attachments)
                attachments.push_back({at.model, at.bone, nullptr, {}});
            for (const auto& p : ls.particles)
                attachments.push_back({nullptr, p.boneIndex, p.definition, p.system});
            if (a.clip.isEmpty() && !ls.clips.empty()) clip = ls.clips.front().clip;
            if (states[pick].highestAlt && !model->altLevels().empty()) options.alt = model->altLevels().back();
            if (const rs::objects::MapKind map = rs::objects::mapKindOf(states[pick]);
                map != rs::objects::MapKind::Unknown && !a.lightsGiven) // the map's lights, as the window opens it
                options.lightPreset = map == rs::objects::MapKind::Space ? 1 : 0;
        } else if (a.model.isEmpty()) {
#ifdef RIGSCOPE_HAVE_DEMO
            rs::Document demo = rs::demo::loadDemo();
            model = demo.model;
            if (!demo.clips.empty()) clip = demo.clips.front();
#else
            return fail("no MODEL given and this build has no built-in demo model");
#endif
        } else {
            const std::string path = QFile::encodeName(a.model).toStdString();
            rs::Asset asset;
            try {
                asset = resolver->open(path);
            } catch (const std::exception&) {
                // A texture is no document: its picture is the image itself.
                if (!rs::thumbs::isTextureAsset(*resolver, path)) throw;
                s.softwarePath = path;
                s.resolver = resolver;
                return 0;
            }
            const rs::Document& doc = asset.document;
            if (!asset.missingHierarchy.empty()) // the file view's notice, on stderr
                std::fprintf(
                    stderr,
                    "rigscope: warning: skeleton %s not found (looked for %s.w3d next to the file and in "
                    "art/w3d/%s/): the parts are drawn unposed at the origin\n",
                    asset.missingHierarchy.c_str(), asset.missingHierarchy.c_str(),
                    QString::fromStdString(asset.missingHierarchy.substr(0, 2)).toLower().toStdString().c_str());
            if (doc.particles) particles = doc.particles;
            // A clip alone and an AMAL bank: the software picture (thumbnail_render.h), the skeleton posed by the
            // clip or the bank's 2D stage.
            if (!doc.model && !particles) {
                s.softwarePath = path;
                s.resolver = resolver;
                return 0;
            }
            model = doc.model;
            s.files << a.model;
            for (const rs::ClipFile& c : asset.clips)
                s.files << QFile::decodeName(QByteArray::fromStdString(c.path));
            if (!particles && model && a.clip.isEmpty() && wantClip) {
                // The viewer's first clip (pickInitialClip) among the file's clips and the companion clips beside
                // it; a companion that cannot be read is left out.
                std::vector<std::shared_ptr<const rs::Clip>> candidates(doc.clips.begin(), doc.clips.end());
                for (const rs::ClipFile& c : asset.clips)
                    if (c.clip) candidates.push_back(c.clip);
                std::vector<std::string> names;
                std::vector<bool> fits;
                for (const auto& c : candidates) {
                    names.push_back(c->name);
                    fits.push_back(rs::bindClip(model->skeleton, *c).ok());
                }
                const int pick = rs::pickInitialClip(names, fits);
                if (pick >= 0) clip = candidates[size_t(pick)];
            }
        }
        if (!a.clip.isEmpty()) {
            rs::Document cd = resolver->read(QFile::encodeName(a.clip).toStdString());
            if (cd.clips.empty()) return fail(a.clip.toStdString() + ": holds no animation clip");
            clip = cd.clips.front();
            s.files << a.clip;
        }
    } catch (const std::exception& e) {
        std::string msg = e.what();
        for (char& c : msg)
            if (c == '\n') c = ' ';
        return fail(msg);
    }
    return 0;
}

// Sizes and shows the window and gives the view what it draws, at the args' camera angles.
static void showScene(SceneView& view, const ScreenshotArgs& a, const SceneInputs& s) {
    // Framed with the particle systems at the proxies near the model (engine glows in the picture, not cut at its
    // edge; SceneView's framing reads this property).
    view.setProperty("framingIncludesParticles", true);
    auto* window = view.window();
    window->resize(a.width, a.height);
    window->show();
    view.setOptions(s.options);
    if (s.particles)
        view.setParticleSystem(s.particles, a.model);
    else
        view.setModel(s.model, s.modelPath, s.attachments);
    view.setClip(s.clip);
    view.setFixedOrbit(a.orbit || a.turntable > 0.0);
    view.setCameraAngles(a.yaw, a.pitch);
}

namespace {
volatile std::sig_atomic_t watchInterrupted = 0;
void onWatchInterrupt(int) { watchInterrupted = 1; }
} // namespace

// --watch, after each capture: prints the line, then watches the files shown (the model, its clip files, the textures
// found). A settled change reads the scene again, quietly: a file that does not read yet (a tool still writing it)
// is retried (FileWatch::retry) and named only when it stays unreadable, the last picture kept. Then it is shown and
// captured again through captureWhenReady. Ctrl+C or SIGTERM ends the process (exit 0).
static void watchScene(SceneView& view, SceneInputs& scene, std::unique_ptr<rs::ui::FileWatch>& watch,
                       QGuiApplication& app, const ScreenshotArgs& a, std::function<void()>& captureWhenReady) {
    std::printf("rigscope: wrote %s\n", qPrintable(a.out));
    std::fflush(stdout);
    QStringList files;
    auto add = [&](const QString& p) {
        const QString d = p.isEmpty() ? QString() : rs::ui::diskFileHolding(*scene.options.resolver, p);
        if (!d.isEmpty() && !files.contains(d)) files << d;
    };
    for (const QString& f : scene.files)
        add(f);
    QStringList textures;
    for (const TextureInfo& t : view.textures())
        if (!t.path.isEmpty()) {
            add(t.path);
            textures << rs::ui::diskFileHolding(*scene.options.resolver, t.path);
        }
    if (!watch) {
        watch = std::make_unique<rs::ui::FileWatch>();
        rs::ui::FileWatch* w = watch.get();
        auto lastError = std::make_shared<QString>();
        QObject::connect(w, &rs::ui::FileWatch::changed, &app,
                         [&view, &scene, &a, &captureWhenReady, w, lastError](const QStringList& changed) {
                             // A texture is only decoded by the view: its completeness is checked here.
                             QString why;
                             for (const QString& f : changed)
                                 if (!rs::ui::textureFileComplete(f, &why)) {
                                     *lastError = why;
                                     w->retry(f);
                                     return;
                                 }
                             SceneInputs next;
                             std::string failure;
                             heldFailure = &failure;
                             const int rc = loadScene(a, a.frame || a.time, next);
                             heldFailure = nullptr;
                             if (rc != 0 || !next.softwarePath.empty()) {
                                 *lastError = QString::fromStdString(failure.empty() ? "holds no model" : failure);
                                 for (const QString& f : changed)
                                     w->retry(f);
                                 return;
                             }
                             for (const QString& f : changed)
                                 w->succeeded(f);
                             next.reportedTextures = scene.reportedTextures;
                             scene = std::move(next);
                             showScene(view, a, scene);
                             if (a.frame)
                                 view.setFrame(*a.frame);
                             else if (a.time)
                                 view.setTime(*a.time);
                             else
                                 view.setTime(scene.particles ? float(rs::particlePreviewTime(*scene.particles))
                                                              : 0.0f);
                             captureWhenReady();
                         });
        QObject::connect(w, &rs::ui::FileWatch::gaveUp, &app, [lastError](const QString& f) {
            std::fprintf(stderr, "rigscope: %s: %s (the last picture is kept; watching)\n", qPrintable(f),
                         qPrintable(*lastError));
        });
        std::signal(SIGINT, onWatchInterrupt);
        std::signal(SIGTERM, onWatchInterrupt);
        auto* poll = new QTimer(&app);
        QObject::connect(poll, &QTimer::timeout, &app, [] {
            if (watchInterrupted) exitNow(0);
        });
        poll->start(100);
    }
    watch->setFiles(files);
}

int runScreenshot(const ScreenshotArgs& a, int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    QElapsedTimer startClock;
    startClock.start();

    SceneInputs scene;
    if (const int rc = loadScene(a, a.frame || a.time, scene)) return rc;
    if (!scene.softwarePath.empty()) return softwareScreenshot(a, *scene.resolver, scene.softwarePath, argc, argv);

    const qint64 loadMs = startClock.elapsed();
    // RIGSCOPE_TIMING: a timeline of the start-up on stderr (ms since runScreenshot began; the wall clock in ms
    // lets a caller measure the time before main and after the process ends).
    const bool timing = qEnvironmentVariableIsSet("RIGSCOPE_TIMING");
    auto mark = [&](const char* what) {
        if (timing)
            std::fprintf(stderr, "rigscope: timing %6lld ms %s (clock %lld ms)\n", (long long)startClock.elapsed(),
                         what, (long long)QDateTime::currentMSecsSinceEpoch());
    };
    mark("model loaded");
    // A display with OpenGL (a private Xvfb when there is none), and one line instead of an abort or a stream of
    // "makeCurrent failed" when the one given has no OpenGL.
    if (const std::string why = ensureHeadlessDisplay(a.width, a.height); !why.empty()) return fail(why);
    installHeadlessMessageHandler();
    mark(privateDisplay().empty() ? "display" : ("display " + privateDisplay() + " (private Xvfb)").c_str());
    QGuiApplication app(argc, argv);
    mark("app");
    SceneView view;
    mark("view");
    int framesMarked = 0;
    QObject::connect(&view, &SceneView::frameSwapped, &app, [&] {
        if (++framesMarked <= 8) mark("frame");
    });
    const qint64 sceneStart = startClock.elapsed();
    showScene(view, a, scene);
    const qint64 sceneMs = startClock.elapsed() - sceneStart;
    mark("setModel");
    if (a.frame)
        view.setFrame(*a.frame);
    else if (a.time)
        view.setTime(*a.time);
    else // a particle system alone: the moment its thumbnails show (particle_preview.h)
        view.setTime(scene.particles ? float(rs::particlePreviewTime(*scene.particles)) : 0.0f);

    int rc = 0;
    // Watchdog: a capture that never completes (no display, broken GL) must not hang.
    const int watchdogMs = 60000 + int(a.benchSeconds * 1000.0f);
    QTimer watchdog;
    watchdog.setSingleShot(true);
    QObject::connect(&watchdog, &QTimer::timeout, &app, [&] {
        std::fputs("rigscope: render timed out (no frame captured)\n", stderr);
        rc = 1;
        app.exit(1);
    });
    watchdog.start(watchdogMs);
    // --watch: the files shown, watched after each capture (ui/file_watch.h).
    std::unique_ptr<rs::ui::FileWatch> watch;
    std::function<void()> captureWhenReady;

    auto finish = [&](const QImage& img) {
        if (img.isNull()) {
            rc = fail("capture failed");
            app.exit(rc);
            return;
        }
        mark(("captured (" + std::to_string(view.shaderProgramCount()) + " shader programs)").c_str());
        // Written whole or not at all (a watcher of OUT.png never reads half a picture).
        QSaveFile png(a.out);
        if (!png.open(QIODevice::WriteOnly) || !img.save(&png, "PNG") || !png.commit()) {
            rc = fail("cannot write " + a.out.toStdString());
            app.exit(rc);
            return;
        }
        QStringList reported = scene.reportedTextures;
        for (const TextureInfo& t : view.textures()) {
            if (t.loaded || reported.contains(t.name, Qt::CaseInsensitive)) continue;
            reported << t.name;
            if (t.path.isEmpty())
                std::fprintf(stderr, "rigscope: warning: texture %s (%s) not found\n", qPrintable(t.name),
                             qPrintable(t.mesh));
            else
                std::fprintf(stderr, "rigscope: warning: texture %s: %s\n", qPrintable(t.path), qPrintable(t.error));
        }
        if (a.watch) {
            watchdog.stop();
            watchScene(view, scene, watch, app, a, captureWhenReady);
            return;
        }
        if (qEnvironmentVariableIsSet("RIGSCOPE_TIMING"))
            std::fprintf(
                stderr, "rigscope: first frame captured after %lld ms (file read+parse %lld ms, scene build %lld ms)\n",
                (long long)startClock.elapsed(), (long long)loadMs, (long long)sceneMs);
        if (a.benchSeconds <= 0.0f) {
            // Called from inside Qt3D's frame processing, which would render one more frame before the event
            // loop sees the exit request: end here when the caller does not need control back.
            if (a.exitWhenDone) exitNow(0);
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
    // Capture once textures are resolved (or after 10 s): the first frame that draws the whole scene
    // (SceneView::capture waits for the shaders and textures to be ready).
    captureWhenReady = [&] {
        auto once = std::make_shared<bool>(false); // this capture's own flag: a later one starts afresh
        auto start = [&view, &finish, once] {
            if (*once) return;
            *once = true;
            view.capture(finish);
        };
        if (view.texturesPending()) {
            QObject::connect(&view, &SceneView::texturesResolved, &app, start, Qt::SingleShotConnection);
            QTimer::singleShot(10000, &app, [&view, start] {
                if (view.texturesPending()) start();
            });
        } else {
            QTimer::singleShot(0, &app, start);
        }
    };
    captureWhenReady();
    const int exec = app.exec();
    mark("event loop done");
    // The PNG is written and closed. Tearing down Qt3D (aspect threads, GL resources, the render context) costs
    // llvmpipe 0.3-0.5 s of wall time and produces nothing: end the process here unless the caller asked to
    // get control back (tests and embedders). Mesa's shader-cache writes happen right after each compile, long
    // before this point.
    if (a.exitWhenDone) exitNow(rc ? rc : exec);
    return rc ? rc : exec;
}

namespace {
volatile std::sig_atomic_t interrupted = 0;
void onInterrupt(int) { interrupted = 1; }
} // namespace

int runRecord(const ScreenshotArgs& a, int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    SceneInputs scene;
    if (const int rc = loadScene(a, true, scene)) return rc;
    if (!scene.softwarePath.empty()) return fail(a.model.toStdString() + ": holds no model to record");
    const double clipSeconds = scene.clip ? double(scene.clip->duration()) : 0.0;
    if (a.turntable <= 0.0 && clipSeconds <= 0.0)
        return fail((a.model.isEmpty() ? std::string("the model") : a.model.toStdString()) +
                    ": nothing moves (no clip, or a clip of one frame): give --clip CLIP or --turntable SECONDS");

    if (const std::string why = ensureHeadlessDisplay(a.width, a.height); !why.empty()) return fail(why);
    installHeadlessMessageHandler();
    QGuiApplication app(argc, argv);
    SceneView view;
    showScene(view, a, scene);
    rs::ui::RecordSettings rs;
    rs.out = a.record;
    rs.width = a.width;
    rs.height = a.height;
    rs.fps = a.fps;
    rs.turntable = a.turntable;
    rs.duration = rs::ui::recordDuration(clipSeconds, a.turntable);
    rs.yaw = a.yaw;
    rs.pitch = a.pitch;
    rs::ui::SceneRecorder recorder(&view, rs);

    // Ctrl+C or a termination request cancels: the temporary file is removed before the process ends.
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        if (interrupted) recorder.cancel();
    });
    poll.start(50);

    // Watchdog: a recording that makes no progress for a minute (no frame drawn: broken GL) must not hang. It is
    // cancelled (the temporary file removed) and ends with one line.
    bool stalled = false;
    QTimer watchdog;
    watchdog.setSingleShot(true);
    QObject::connect(&watchdog, &QTimer::timeout, &app, [&] {
        stalled = true;
        recorder.cancel();
        QTimer::singleShot(3000, &app, [&] { // the recorder did not answer either
            std::fputs("rigscope: render timed out (no frame drawn for 60 s)\n", stderr);
            exitNow(1);
        });
    });
    watchdog.start(60000);

    // A progress line when stderr is a terminal and the recording takes more than a second.
    const bool tty = ::isatty(STDERR_FILENO) == 1;
    QElapsedTimer clock;
    clock.start();
    bool lineShown = false;
    QObject::connect(&recorder, &rs::ui::SceneRecorder::progress, &app, [&](int step, int steps) {
        watchdog.start(60000);
        if (!tty || clock.elapsed() < 1000) return;
        lineShown = true;
        const int frames = recorder.frameTotal();
        if (step <= frames)
            std::fprintf(stderr, "\rrigscope: recording %s: frame %d of %d (%d%%)   ", qPrintable(a.record), step,
                         frames, step * 100 / std::max(steps, 1));
        else
            std::fprintf(stderr, "\rrigscope: recording %s: palette mapping, frame %d of %d (%d%%)   ",
                         qPrintable(a.record), step - frames, frames, step * 100 / std::max(steps, 1));
        std::fflush(stderr);
    });
    int rc = 0;
    QObject::connect(
        &recorder, &rs::ui::SceneRecorder::finished, &app, [&](bool ok, bool cancelled, const QString& error) {
            if (lineShown) std::fputc('\n', stderr);
            if (ok) {
                if (qEnvironmentVariableIsSet("RIGSCOPE_TIMING"))
                    std::fprintf(stderr, "rigscope: %d frames in %.2f s (%.1f ms per frame)\n", recorder.frameTotal(),
                                 double(clock.elapsed()) / 1000.0,
                                 double(clock.elapsed()) / std::max(recorder.frameTotal(), 1));
                rc = 0;
            } else if (stalled) {
                rc = fail("render timed out (no frame drawn for 60 s); " + a.record.toStdString() + " not written");
            } else if (cancelled) {
                std::fprintf(stderr, "rigscope: recording cancelled; %s not written\n", qPrintable(a.record));
                rc = 130;
            } else {
                rc = fail(error.toStdString());
            }
            watchdog.stop();
            app.exit(rc);
        });
    const QString err = recorder.start();
    if (!err.isEmpty()) return fail(err.toStdString());
    app.exec();
    if (a.exitWhenDone) exitNow(rc);
    return rc;
}

} // namespace rs::app
