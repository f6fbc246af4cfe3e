#include "amal/amal_play.h"

namespace rs::amal {

namespace {

// One stream's part of a PLay step (AmPl0 / AmPWx / AmPy / AmPWy). Returns false on a terminator.
bool streamStep(const std::vector<uint8_t>& s, int& i, int16_t& pause, bool forward, int16_t& coord, bool& paused) {
    paused = false;
    const uint8_t b = (i >= 0 && i < int(s.size())) ? s[size_t(i)] : 0;
    if (b == 0) return false;
    if (!(b & 0x80)) {
        const int v = stepValue(b);
        coord = int16_t(forward ? coord + v : coord - v);
        i += forward ? 1 : -1;
        return true;
    }
    paused = true;
    pause = int16_t(pause - 1);
    if (pause > 0) return true;
    if (pause < 0) {
        const int k = b & 0x7F;
        if (k != 0) {
            pause = int16_t(k);
            return true;
        }
    }
    i += forward ? 1 : -1; // pause over: next byte at the next step
    return true;
}

} // namespace

void PlayCursor::start(const Movement& m, bool fromEnd) {
    mv = &m;
    xi = fromEnd ? int(m.xSteps.size()) - 1 : 0;
    yi = fromEnd ? int(m.ySteps.size()) - 1 : 0;
    pauseX = pauseY = 0;
    lastPausedX = lastPausedY = false;
}

bool PlayCursor::step(bool forward, int16_t& x, int16_t& y) {
    if (!mv) return false;
    if (!streamStep(mv->xSteps, xi, pauseX, forward, x, lastPausedX)) return false;
    return streamStep(mv->ySteps, yi, pauseY, forward, y, lastPausedY);
}

MovementPath playMovement(const Movement& m, bool forward, int x0, int y0, int maxTicks) {
    MovementPath path;
    int16_t x = int16_t(x0), y = int16_t(y0);
    if (!forward) {
        x = int16_t(x0 + streamSum(m.xSteps));
        y = int16_t(y0 + streamSum(m.ySteps));
    }
    PlayCursor c;
    c.start(m, !forward);
    const int speed = m.speed == 0 ? 1 : m.speed;
    PathPoint p0;
    p0.x = x;
    p0.y = y;
    path.points.push_back(p0);
    for (int t = 1; t <= maxTicks; ++t) {
        PathPoint p;
        p.t = t;
        bool going = true;
        if ((t - 1) % speed == 0) {
            going = c.step(forward, x, y);
            p.stepped = going;
            if (going) ++path.steps;
        }
        p.x = x;
        p.y = y;
        p.pausedX = c.lastPausedX;
        p.pausedY = c.lastPausedY;
        path.points.push_back(p);
        if (!going) {
            path.endTick = t;
            break;
        }
        path.endTick = t;
    }
    return path;
}

} // namespace rs::amal
