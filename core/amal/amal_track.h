// What the 2D AMAL view draws: one track (position and image per tick) for a movement or a
// simulated program, with "held" ticks marked (pause bytes of a movement, no motion in a program).
#pragma once

#include "amal/amal_bank.h"
#include "amal/amal_sim.h"

#include <string>
#include <vector>

namespace rs::amal {

struct TrackPoint {
    int t = 0;
    int16_t x = 0, y = 0, a = 0;
    bool held = false; // movement: both streams in a pause; program: no motion in this tick
    int srcPos = -1;   // program: source position the program waits at
};

struct Track {
    std::string label;              // "Movement 1 \"Swoop\"" / "Program 3"
    std::vector<TrackPoint> points; // t = 0 .. last
    int endTick = -1;               // tick the movement/program ended (-1: still running at the last tick)
    std::string error;              // compile/runtime error (AMOS wording, program number and position)
    CompileError compileError;
};

// PLay of movement `index` (1-based) from (x0, y0); backward plays from the end position.
Track movementTrack(const Bank& bank, int index, bool backward = false, int x0 = 0, int y0 = 0);
// Program `index` simulated for opt.ticks ticks (bank supplies PLay movements).
Track programTrack(const Bank& bank, int index, const SimOptions& opt);

} // namespace rs::amal
