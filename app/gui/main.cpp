// rigscope: the desktop viewer; `--screenshot OUT.png` renders one frame headless and exits, `--record OUT`
// records a video or animated image headless.
// Options are parsed once (command_line.cpp) before any Qt object exists: --help and --version need no display.
#include "app_entry.h"
#include "command_line.h"
#include "screenshot.h"
#include "video_writer.h"

#include <QByteArray>
#include <QColor>
#include <QtGlobal>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

int usage(const std::string& why) {
    std::fprintf(stderr, "rigscope: %s\nTry 'rigscope --help'.\n", why.c_str());
    return 2;
}

bool toFloat(const std::string& s, float& out) {
    char* end = nullptr;
    out = std::strtof(s.c_str(), &end);
    return !s.empty() && end && *end == '\0' && std::isfinite(out);
}

bool toInt(const std::string& s, int& out, long lo, long hi) {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || !end || *end != '\0' || v < lo || v > hi) return false;
    out = int(v);
    return true;
}

bool toSize(const std::string& s, int lo, int& w, int& h) {
    const auto x = s.find('x');
    return x != std::string::npos && toInt(s.substr(0, x), w, lo, 8192) && toInt(s.substr(x + 1), h, lo, 8192);
}

// Returns 0 when `a` is filled, else the exit code.
int toScreenshotArgs(const rs::app::CommandLine& cl, rs::app::ScreenshotArgs& a) {
    if (cl.record) {
        a.record = QString::fromLocal8Bit(cl.value("record").c_str());
        if (!rs::record::containerOf(cl.value("record")))
            return usage("--record needs an output file ending in .mp4, .webm, .gif or .webp");
        if (cl.has("fps") && !toInt(cl.value("fps"), a.fps, 1, 120)) return usage("--fps needs an integer 1..120");
        float turn = 0.0f;
        if (cl.has("turntable") && (!toFloat(cl.value("turntable"), turn) || turn <= 0.0f || turn > 3600.0f))
            return usage("--turntable needs seconds (0..3600)");
        a.turntable = turn;
    } else {
        a.out = QString::fromLocal8Bit(cl.value("screenshot").c_str());
        if (a.out.isEmpty()) return usage("--screenshot needs an output file");
    }
    if (cl.files.size() > 1) return usage(cl.record ? "--record records one MODEL" : "--screenshot renders one MODEL");
    if (!cl.files.empty()) a.model = QString::fromLocal8Bit(cl.files.front().c_str());
    a.clip = QString::fromLocal8Bit(cl.value("clip").c_str());
    a.object = QString::fromLocal8Bit(cl.value("object").c_str());
    a.state = QString::fromLocal8Bit(cl.value("state").c_str());
    if (cl.has("state") && !cl.has("object")) return usage("--state goes with --object");
    if (cl.has("object") && !cl.files.empty()) return usage("--object renders an object, not a MODEL");
    if (cl.has("object") && !cl.has("game") && !cl.has("mod")) return usage("--object needs --game and/or --mod");
    float f = 0.0f;
    int n = 0;
    if (cl.has("size") && !toSize(cl.value("size"), 16, a.width, a.height)) return usage("--size needs WxH (16..8192)");
    if (cl.has("frame")) {
        if (!toFloat(cl.value("frame"), f)) return usage("--frame needs a number");
        a.frame = f;
    }
    if (cl.has("time")) {
        if (!toFloat(cl.value("time"), f)) return usage("--time needs a number of seconds");
        a.time = f;
    }
    if (a.frame && a.time) return usage("--frame and --time are exclusive");
    if (cl.has("lod")) {
        if (!toInt(cl.value("lod"), n, -1000000, 1000000)) return usage("--lod needs an integer");
        a.options.lod = n;
    }
    if (cl.has("alt")) {
        if (!toInt(cl.value("alt"), n, 0, 1000000)) return usage("--alt needs an integer >= 0");
        a.options.alt = n;
    }
    if (cl.has("faction-color")) {
        const QColor c(QString::fromLatin1(cl.value("faction-color").c_str()));
        if (!c.isValid()) return usage("--faction-color needs #RRGGBB");
        a.options.factionColor = c;
    }
    if (cl.has("lights")) {
        const std::string v = cl.value("lights");
        if (v != "land" && v != "space") return usage("--lights needs land or space");
        a.options.lightPreset = v == "space" ? 1 : 0;
        a.lightsGiven = true;
    }
    if (cl.has("build-fraction")) {
        if (!toFloat(cl.value("build-fraction"), f) || !(f >= 0.0f && f <= 1.0f))
            return usage("--build-fraction needs a number from 0 to 1");
        a.options.buildFraction = f;
    }
    a.options.night = cl.has("night");
    a.options.showSkeleton = cl.has("skeleton");
    a.options.wireframe = cl.has("wireframe");
    a.options.grid = !cl.has("no-grid");
    if (cl.has("labels") && cl.has("no-labels")) return usage("--labels and --no-labels are exclusive");
    a.options.labels = cl.has("labels"); // off by default (issue 38): a picture of the model, not of its proxies
    a.options.particles = !cl.has("no-particles");
    for (const char* o : {"game", "mod"})
        if (cl.has(o))
            for (const std::string& d : cl.values.at(o))
                (o[0] == 'g' ? a.games : a.mods) << QString::fromLocal8Bit(d.c_str());
    if (cl.has("texture-dir"))
        for (const std::string& d : cl.values.at("texture-dir"))
            a.textureDirs << QString::fromLocal8Bit(d.c_str());
    if (cl.has("yaw") && !toFloat(cl.value("yaw"), a.yaw)) return usage("--yaw needs degrees");
    if (cl.has("pitch") && !toFloat(cl.value("pitch"), a.pitch)) return usage("--pitch needs degrees");
    a.orbit = cl.has("orbit");
    if (cl.has("bench-fps") &&
        (!toFloat(cl.value("bench-fps"), a.benchSeconds) || a.benchSeconds <= 0.0f || a.benchSeconds > 3600.0f))
        return usage("--bench-fps needs seconds (0..3600)");
    a.watch = cl.has("watch");
    if (a.watch && (a.benchSeconds > 0.0f || a.model.isEmpty()))
        return usage("--watch renders a MODEL file again when it changes (not the demo, not with --bench-fps)");
    return 0;
}

int toViewerArgs(const rs::app::CommandLine& cl, rs::ui::ViewerArgs& a) {
    for (const std::string& f : cl.files)
        a.files << QString::fromLocal8Bit(f.c_str());
    int w = 0, h = 0;
    if (cl.has("size")) {
        if (!toSize(cl.value("size"), 240, w, h) || w < 320) return usage("--size expects WxH (320x240 .. 8192x8192)");
        a.size = QSize(w, h);
    }
    a.windowScreenshot = QString::fromLocal8Bit(cl.value("window-screenshot").c_str());
    if (cl.has("frame") && !toFloat(cl.value("frame"), a.frame)) return usage("--frame needs a number");
    a.selectBone = QString::fromUtf8(cl.value("select-bone").c_str());
    a.play = cl.has("play");
    for (const char* o : {"game", "mod"})
        if (cl.has(o))
            for (const std::string& d : cl.values.at(o))
                (o[0] == 'g' ? a.games : a.mods) << QString::fromLocal8Bit(d.c_str());
    if (a.windowScreenshot.isEmpty() && (cl.has("select-bone") || cl.has("play") || cl.has("frame")))
        return usage("--frame, --select-bone and --play go with --window-screenshot (or --frame with --screenshot)");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    rs::app::CommandLine cl;
    if (const std::string err = rs::app::parseCommandLine(argc, argv, cl); !err.empty()) return usage(err);
    if (cl.help) {
        std::fputs(rs::app::helpText().c_str(), stdout);
        return 0;
    }
    if (cl.version) {
        std::fputs(rs::app::versionText().c_str(), stdout);
        return 0;
    }
    // Qt3D's RHI backend in Qt 6.4 never uploads skinning palettes: force the OpenGL renderer
    // before any Qt3D object exists.
    qputenv("QT3D_RENDERER", "opengl");
    if (cl.screenshot || cl.record) {
        rs::app::ScreenshotArgs a;
        if (int rc = toScreenshotArgs(cl, a)) return rc;
        a.exitWhenDone = true; // a one-shot process: skip the Qt3D/GL teardown
        return cl.record ? rs::app::runRecord(a, argc, argv) : rs::app::runScreenshot(a, argc, argv);
    }
    rs::ui::ViewerArgs a;
    if (int rc = toViewerArgs(cl, a)) return rc;
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        std::fputs("rigscope: no display (DISPLAY and WAYLAND_DISPLAY are unset): the viewer needs one; "
                   "--screenshot and --record render without one\n",
                   stderr);
        return 1;
    }
    return rs::ui::runViewer(a, argc, argv);
}
