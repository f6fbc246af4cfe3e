// The window's view settings (Scene panel) as the Qt3D view's options: one mapping for the main view and for the
// views File > Record... renders offscreen.
#pragma once

#include "scene_view.h"
#include "view_settings.h"

namespace rs::ui {

// base with every field the settings hold replaced (the resolver and what the settings do not hold are kept).
render::ViewOptions toViewOptions(const ViewSettings& settings, render::ViewOptions base);

} // namespace rs::ui
