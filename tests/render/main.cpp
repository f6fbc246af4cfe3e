// Render tests: Catch2 inside a QGuiApplication, with a watchdog so a stuck capture fails instead of hanging.
#define CATCH_CONFIG_RUNNER
#include "skip.h"

#include <QGuiApplication>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

int main(int argc, char** argv) {
    // Listing the cases (ctest's discovery at build time, with no display) needs no window system.
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--list", 6) == 0) return Catch::Session().run(argc, argv);
    qputenv("QT3D_RENDERER", "opengl");
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        std::fputs("render_tests: no DISPLAY; run under xvfb-run -a (captures never complete offscreen)\n", stderr);
    const int watchdogSeconds =
        std::getenv("RIGSCOPE_TEST_WATCHDOG") ? std::atoi(std::getenv("RIGSCOPE_TEST_WATCHDOG")) : 240;
    std::thread([watchdogSeconds] {
        std::this_thread::sleep_for(std::chrono::seconds(watchdogSeconds));
        std::fprintf(stderr, "render_tests: watchdog: still running after %d s, aborting\n", watchdogSeconds);
        std::_Exit(3);
    }).detach();
    QGuiApplication app(argc, argv);
    return rs::test::exitCode(Catch::Session().run(argc, argv));
}
