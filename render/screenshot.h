// Headless screenshot mode of `rigscope --screenshot OUT.png [...] [MODEL]`.
#pragma once

namespace rs::render {

// True when argv asks for --screenshot.
bool wantsScreenshot(int argc, char** argv);

// Renders one frame and writes the PNG. Returns 0 ok, 1 bad input (one-line error on stderr), 2 usage.
// Creates its own QGuiApplication.
int runScreenshot(int argc, char** argv);

} // namespace rs::render
