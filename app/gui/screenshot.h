// Headless screenshot mode of `rigscope --screenshot OUT.png [...] [MODEL]` (options parsed by app/gui).
#pragma once

#include "scene_view.h"

#include "resolve/resolver.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace rs::app {

using rs::render::ViewOptions;

struct ScreenshotArgs {
    QString out;    // PNG to write
    QString model;  // empty: the built-in demo model
    QString object; // a game object of the --game/--mod folders to render instead of model (objects/object_states.h)
    QString state;  // with object: a state label (case-insensitive) or its index; empty: the first state
    QString clip;   // empty: the model's own clip or its first companion clip (when a frame/time is asked)
    int width = 800, height = 600;
    std::optional<float> frame, time;
    float yaw = 35.0f, pitch = 20.0f;
    bool orbit = false;        // --orbit (and every --turntable): framed for every yaw (SceneView::setFixedOrbit)
    bool lightsGiven = false;  // --lights: the preset in options wins over an object's map kind
    float benchSeconds = 0.0f; // > 0: play for that long after the capture and print the frame rate
    bool watch = false;        // --watch: render again on every change of the files shown (live reload)
    bool exitWhenDone = false; // end the process (std::_Exit, streams flushed) once the GUI ran: no teardown
    ViewOptions options;
    // --record: the video or animated image to write (runRecord), its frame rate and turntable period.
    QString record;
    int fps = 30;
    double turntable = 0.0; // > 0: seconds per 360-degree camera turn (the recording's duration)
    // --game / --mod: the game and mod folders the resolver looks in (model and clip may then be game paths, and
    // every reference is found through them); textureDirs: the texture folders of --texture-dir.
    QStringList games, mods, textureDirs;
};

// Renders one frame and writes the PNG. Returns 0 ok, 1 bad input (one-line error on stderr).
// Creates its own QGuiApplication from argc/argv. With exitWhenDone, returns only for errors found before the
// GUI starts; afterwards the process exits with the same code without destroying the scene, Qt3D or GL.
int runScreenshot(const ScreenshotArgs& args, int argc, char** argv);

// Records args.record (rs::ui::SceneRecorder): the model's clip (the viewer's first one, or --clip) from time 0
// over its duration, or over --turntable seconds; the same scene set-up as runScreenshot. Returns 0 ok, 1 bad input
// or a failed recording, 130 cancelled (SIGINT/SIGTERM); the output file exists only after success.
int runRecord(const ScreenshotArgs& args, int argc, char** argv);

} // namespace rs::app
