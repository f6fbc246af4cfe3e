// Playback of recorded movements (the AMAL PLay instruction, AmPlay in +W.s).
// One PLay step reads one byte of each stream, X first: a move byte adds (forwards) or subtracts
// (backwards) its value; a pause byte 0x80|k holds the stream for k+1 steps; a 0 byte in either
// stream ends the movement at once (an X move of that step stays applied). Steps happen every
// `speed` ticks, the first one in the tick PLay starts.
#pragma once

#include "amal/amal_bank.h"

#include <cstdint>
#include <vector>

namespace rs::amal {

// Cursor over one movement's two streams. Indices may reach -1 / size(): the 0 terminators.
struct PlayCursor {
    const Movement* mv = nullptr;
    int xi = 0, yi = 0;
    int16_t pauseX = 0, pauseY = 0; // AmVirgX/Y: pause counters
    bool lastPausedX = false, lastPausedY = false;

    // Positions at the first step (forwards) or at the last step bytes (backwards, from the end).
    void start(const Movement& m, bool fromEnd = false);
    // One PLay step. forward = R1 > 0. Updates x/y (16-bit wrap as on the Amiga). Returns false
    // when a terminator was read (the movement is over; x may have moved in this step).
    bool step(bool forward, int16_t& x, int16_t& y);
};

struct PathPoint {
    int t = 0; // tick (1/50 s); t = 0 is the start position
    int16_t x = 0, y = 0;
    bool pausedX = false, pausedY = false; // the last step held that stream
    bool stepped = false;                  // a step happened in this tick
};

struct MovementPath {
    std::vector<PathPoint> points; // one per tick from 0 to endTick
    int steps = 0;                 // PLay steps executed (the terminating read not counted)
    int endTick = 0;               // tick in which the terminator was read
};

// Plays a movement from (x0, y0). forward: from the first step; backward: from the end position
// (x0 + sum X, y0 + sum Y) back through the steps, the way PLay runs when R1 is 0.
// maxTicks bounds the path (speed 0 would restart PLay every tick: treated as 1 tick per step).
MovementPath playMovement(const Movement& m, bool forward, int x0 = 0, int y0 = 0, int maxTicks = 1 << 20);

} // namespace rs::amal
