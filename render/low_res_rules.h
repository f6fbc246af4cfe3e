// The low-resolution particle target's numbers, one copy for the desktop (render/frame_graph.h,
// render/scene_view.cpp, render/particles.cpp) and the web page (web/build.mjs reads the constexpr lines below into
// shaders.js's lowResRules, which web/page/render.js draws by; the build fails when one cannot be read). Keep each
// as one line `constexpr <type> k<Name> = <number>[ * or / <number>];` with literal numbers only.
#pragma once

namespace rs::render::lowres {

// Particles at least this fraction of the window's height tall are drawn at a quarter of the resolution (see
// FrameGraph): soft smoke and glow look the same, and their fill costs a sixteenth.
constexpr float kMinFraction = 1.0f / 6.0f;
// ... but never more than this many pixels: in tall windows (1/6 is 180 px at 1080p, drawn at a sixth of the
// resolution, 30 texels tall) mid-sized smoke then goes to the low-resolution target as well (90 px = 15 texels at
// 1080p; small windows keep 1/6: 40 px at 320x240, 10 texels).
constexpr float kMaxMinPixels = 90.0f;
// The target's divisor up to 1280x720, and its upper bound; above 1280x720 the smallest divisor whose target holds
// at most kBudgetPixels (a quarter of 1280x720 in each direction).
constexpr int kDivisor = 4;
constexpr int kMaxDivisor = 16;
constexpr long kBudgetPixels = 320L * 180L;
// Windows' worth of low-resolution particles beyond which the target's divisor doubles (back under half of it).
constexpr float kCoarserFill = 32.0f;

} // namespace rs::render::lowres
