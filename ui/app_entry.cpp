#include "app_entry.h"

#include <cstdio>

namespace rs::ui {

int runViewer(int, char**) {
    std::fputs("rigscope: the viewer window is not built yet\n", stderr);
    return 1;
}

} // namespace rs::ui
