#include "amal/amal_track.h"

#include "amal/amal_play.h"

namespace rs::amal {

Track movementTrack(const Bank& bank, int index, bool backward, int x0, int y0) {
    Track t;
    const Movement* m = bank.movement(index);
    t.label = "Movement " + std::to_string(index);
    if (!m) {
        t.error = "movement " + std::to_string(index) + " is not defined";
        return t;
    }
    t.label += " \"" + m->name + "\"";
    const MovementPath p = playMovement(*m, !backward, x0, y0);
    t.points.reserve(p.points.size());
    for (const PathPoint& q : p.points) {
        TrackPoint o;
        o.t = q.t;
        o.x = q.x;
        o.y = q.y;
        o.held = q.pausedX && q.pausedY;
        t.points.push_back(o);
    }
    t.endTick = p.endTick;
    return t;
}

Track programTrack(const Bank& bank, int index, const SimOptions& opt) {
    Track t;
    t.label = "Program " + std::to_string(index);
    const Program* p = bank.program(index);
    if (!p || p->text.empty()) {
        t.error = "program " + std::to_string(index) + (p ? " is empty" : " does not exist");
        return t;
    }
    const SimResult r = simulate(p->text, &bank, opt);
    t.compileError = r.error;
    if (r.error.code != AmalErrorCode::None) {
        t.error = r.error.toString(index);
        return t;
    }
    if (!r.runtimeError.empty()) t.error = "program " + std::to_string(index) + ": " + r.runtimeError;
    t.points.reserve(r.ticks.size());
    for (size_t i = 0; i < r.ticks.size(); ++i) {
        const TickState& s = r.ticks[i];
        TrackPoint o;
        o.t = s.t;
        o.x = s.x;
        o.y = s.y;
        o.a = s.a;
        o.srcPos = s.srcPos;
        o.held = i > 0 && s.x == r.ticks[i - 1].x && s.y == r.ticks[i - 1].y;
        t.points.push_back(o);
    }
    t.endTick = r.endTick;
    return t;
}

} // namespace rs::amal
