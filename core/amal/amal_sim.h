// AMAL (AMOS Animation Language) compiler and single-channel simulator, following the AMOS
// Professional interpreter (+W.s: TokAMAL, Animeur).
//
// Tokenizer: only characters 33..'Z', '|' and '!' count; lower case, spaces, '~' and the rest are
// skipped (they are comments). An instruction is its first upper-case letter (J L M F N I W P E A D
// X, ')' closes an autotest; PL = PLay, AU = AUtotest); other characters at instruction level are
// ignored. A label is one letter followed by ':'. Expressions are evaluated strictly left to right
// (no precedence) on 16-bit words; operators = <> < > + - / * | & ! (xor); true is -1.
// Operands: numbers (decimal, $hex, negative), R0-R9 (channel), RA-RZ (global), X Y A, XM YM,
// J0 J1, K1 K2, O (on: a Move is running), XS/YS/XH/YH(screen,v), C(n) col, SC(n,x,y), BC(n,x,y),
// Z(n) random, V(n) vu meter.
//
// Timing per tick (VBL): the autotest runs first (at most 20 jumps), then the main program from
// where it stopped (at most 10 jumps, then it resumes at the jump target next tick), then the Anim
// sequence. Move dx,dy,n steps once per tick for n ticks (16.16 fixed point, starting at +0.5);
// the instruction after it runs in tick n+1. Pause resumes at the next instruction next tick;
// Next jumps back to the loop body next tick; Wait stops the main program (the autotest goes on);
// PLay steps every R0 ticks (R0 = speed, R1 = direction: >0 forwards, 0 backwards, <0 stop).
#pragma once

#include "amal/amal_bank.h"
#include "amal/amal_play.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rs::amal {

// AMOS error numbers of TokAMAL (1-10), reported as AMOS errors 107-116.
enum class AmalErrorCode {
    None = 0,
    Syntax = 1,
    NextWithoutFor = 2,
    LabelNotDefined = 3,
    JumpIntoAutotest = 4,
    AutotestAlreadyOpen = 5,
    OnlyInAutotest = 6,
    TooLong = 7,
    LabelAlreadyDefined = 8,
    IllegalInAutotest = 9,
    NoBank = 10,
};

// The AMOS message ("Syntax error in animation string", ...).
const char* errorMessage(AmalErrorCode c);

struct CompileError {
    AmalErrorCode code = AmalErrorCode::None;
    int position = 0; // byte offset in the program text where AMOS stopped
    int line = 0;     // 1-based, lines separated by '~'
    int column = 0;   // 1-based
    std::string toString(int program = -1) const;
};

// Function arguments may nest 64 deep (deeper is reported as a syntax error; AMOS has no such limit
// but would run out of stack).
// Compiled program: a word stream (format private to the simulator) with a source position per word.
struct CompiledProgram {
    std::vector<int32_t> code;
    std::vector<int32_t> srcPos;
    CompileError error; // code None = compiled
    bool ok() const { return error.code == AmalErrorCode::None; }
    std::vector<int> ignoredUpper; // positions of upper-case letters skipped at instruction level
};

// haveBank: PLay is allowed (AMOS refuses PLay in a string program without an Amal bank).
CompiledProgram compile(const std::string& text, bool haveBank);

// Values of the functions that read hardware, settable by the user. Defaults: 0 / released / not colliding.
struct Inputs {
    int16_t xm = 0, ym = 0; // XM YM: mouse (hardware coordinates)
    int16_t j0 = 0, j1 = 0; // J0 J1: joystick bits (1 up, 2 down, 4 left, 8 right, 16 fire)
    bool k1 = false, k2 = false;
    int16_t col = 0, sc = 0, bc = 0, vu = 0; // C(n), SC(..), BC(..), V(n)
    uint16_t beam = 0;                       // VHPOSR added to the Z(n) generator (deterministic here)
    uint16_t seed = 0x1234;                  // T_AmSeed after Amal init
    int16_t screenX = 128, screenY = 50;     // screen 0..7 display position in hardware coordinates
    bool hires = false;
    uint8_t screensOpen = 1; // bit n: screen n open (XS/YS/XH/YH return -1 for closed screens)
};

struct SimOptions {
    int ticks = 250;                  // ticks to simulate (the timeline has ticks+1 entries, t = 0..ticks)
    int16_t x = 0, y = 0, a = 0;      // object position and image at start
    std::array<int16_t, 10> local{};  // R0-R9
    std::array<int16_t, 26> global{}; // RA-RZ
    Inputs in;
    long maxWordsPerTick = 100000; // safety bound on interpreted words per tick
};

struct TickState {
    int t = 0;
    int16_t x = 0, y = 0, a = 0;
    int srcPos = -1;      // source position of the instruction the main program waits at (-1: stopped)
    bool moving = false;  // a Move or PLay step happened in this tick
    bool waiting = false; // the main program is stopped (End/Wait) in this tick
};

struct SimResult {
    CompileError error;           // compile error: ticks is empty
    std::vector<TickState> ticks; // t = 0 (start) .. options.ticks
    int endTick = -1;             // first tick after which nothing can change any more (-1: still running)
    std::string runtimeError;     // safety limit hit (never for valid programs)
    bool ok() const { return error.code == AmalErrorCode::None && runtimeError.empty(); }
};

// One AMAL channel driving one object.
class Channel {
  public:
    Channel(const CompiledProgram& prog, const Bank* bank, const SimOptions& opt);
    // Runs one VBL: autotest, main program, Anim. Returns false once a safety limit was hit.
    bool tick();
    int16_t x() const { return x_; }
    int16_t y() const { return y_; }
    int16_t a() const { return a_; }
    bool idle() const { return pos_ < 0 && auto_ < 0 && !animOn_; }
    int waitingAt() const; // source position of the main program counter, -1 when stopped
    bool movedLastTick() const { return moved_; }
    const std::string& error() const { return err_; }
    int16_t reg(int index) const; // 0-9 local, 10-35 global

  private:
    enum class Chain { Main, Auto };
    void run(int pc, Chain chain);
    int16_t eval(int& pc);
    int16_t operand(int& pc);
    int16_t& regRef(int32_t r);
    int16_t random(int16_t mask);
    int16_t screenFn(int32_t op, int16_t scr, int16_t v);
    void animStep();
    bool playStep();
    int32_t at(int pc);

    std::vector<int32_t> code_;
    std::vector<int32_t> src_;
    const Bank* bank_;
    SimOptions opt_;
    int16_t x_, y_, a_;
    std::array<int16_t, 10> local_;
    std::array<int16_t, 26> global_;
    uint16_t seed_;
    int pos_ = 0;   // main program counter (-1 stopped)
    int auto_ = -1; // autotest start (-1 none)
    int16_t cpt_ = 0;
    int32_t deltX_ = 0, deltY_ = 0;
    uint16_t virgX_ = 0, virgY_ = 0;
    int fin_ = 0;
    PlayCursor play_;
    bool animOn_ = false;
    int animAd_ = 0, animLoop_ = 0;
    int16_t animCount_ = 0;
    uint16_t animCpt_ = 0;
    bool moved_ = false;
    long words_ = 0;
    std::string err_;
};

// Sets one user value by its AMAL name: XM YM J0 J1 K1 K2 C SC BC V BEAM SEED, R0-R9, RA-RZ, and
// X Y A (start position/image). Returns false (and says why in *why) for an unknown name or bad value.
bool setInput(SimOptions& opt, const std::string& name, long value, std::string* why = nullptr);
// "J1=8 XM=100 RA=1" (separated by spaces, commas or semicolons). Returns false at the first bad item.
bool parseInputs(SimOptions& opt, const std::string& text, std::string* why = nullptr);

// Compiles and runs a program text; bank supplies movements for PLay (may be null).
SimResult simulate(const std::string& text, const Bank* bank, const SimOptions& opt);
// Same for an already compiled program.
SimResult simulate(const CompiledProgram& prog, const Bank* bank, const SimOptions& opt);

} // namespace rs::amal
