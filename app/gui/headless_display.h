// The display of the headless modes (`rigscope --screenshot`, `--record`): they draw with OpenGL through a Qt
// window, which needs a display server. Called before any Qt object exists.
#pragma once

#include <string>

namespace rs::app {

// Makes sure a display the headless modes can draw on is there:
// - QT_QPA_PLATFORM unset or xcb with DISPLAY set, or unset with WAYLAND_DISPLAY set, or another platform the user
//   chose (wayland, eglfs, ...): nothing to do.
// - No display (DISPLAY and WAYLAND_DISPLAY unset), or QT_QPA_PLATFORM=offscreen/minimal (no OpenGL of their own
//   here): starts a private Xvfb as `xvfb-run -a` does (the first free display number, reported by the server
//   through -displayfd; a screen of at least width x height), waits at most 10 s for it, then sets DISPLAY to it
//   and QT_QPA_PLATFORM=xcb. The server ends with this process: stopPrivateDisplay() (called by exitHeadless and at
//   exit), and the kernel's parent-death signal when the process ends any other way.
// Returns "" when there is a display, else the one line saying why none could be had (Xvfb not installed, not
// started in time, ...).
std::string ensureHeadlessDisplay(int width, int height);

// Terminates the private Xvfb (if one was started) and waits for it, at most 2 s. Safe to call more than once.
void stopPrivateDisplay();

// The private Xvfb's display (":N"), or "" when none was started.
std::string privateDisplay();

// Replaces Qt's message handler for the headless modes, so that they never abort or spin:
// - a Qt fatal error (no platform plugin, a display that cannot be opened) prints one line and exits with 1
//   instead of Qt's abort (exit 134) and its "Reinstalling the application may fix this problem";
// - an OpenGL context that cannot be made current (Qt3D's "makeCurrent failed", which it would repeat every frame
//   until a watchdog ends the process) prints one line naming the platform and exits with 1 at once.
// Other messages go to the handler that was installed before.
void installHeadlessMessageHandler();

// Flushes stdout and stderr, stops the private Xvfb and ends the process with rc, without destructors (the
// headless modes skip the Qt3D/GL teardown).
[[noreturn]] void exitHeadless(int rc);

} // namespace rs::app
