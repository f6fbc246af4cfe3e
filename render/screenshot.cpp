#include "screenshot.h"

#include <cstdio>
#include <cstring>

namespace rs::render {

bool wantsScreenshot(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--screenshot") == 0) return true;
    return false;
}

int runScreenshot(int, char**) {
    std::fputs("rigscope: --screenshot is not built yet\n", stderr);
    return 1;
}

} // namespace rs::render
