// AMAL compiler and simulator: one test per instruction with timelines derived by hand from the
// AMOS Professional interpreter (+W.s Animeur), compile errors as AMOS reports them.
#include "amal/amal_sim.h"
#include "amal/amal_writer.h"

#include <catch2/catch.hpp>

using namespace rs::amal;

namespace {

struct XYA {
    int x, y, a;
    bool operator==(const XYA& o) const { return x == o.x && y == o.y && a == o.a; }
};

std::vector<XYA> run(const std::string& prog, int ticks, const Bank* bank = nullptr, SimOptions opt = {}) {
    opt.ticks = ticks;
    SimResult r = simulate(prog, bank, opt);
    INFO(prog << ": " << r.error.toString() << " " << r.runtimeError);
    REQUIRE(r.ok());
    REQUIRE(int(r.ticks.size()) == ticks + 1);
    std::vector<XYA> out;
    for (const auto& t : r.ticks)
        out.push_back({t.x, t.y, t.a});
    return out;
}

std::vector<int> xs(const std::vector<XYA>& v) {
    std::vector<int> o;
    for (const auto& e : v)
        o.push_back(e.x);
    return o;
}

CompileError compileError(const std::string& prog, bool bank = false) { return compile(prog, bank).error; }

Bank bankWith(const MovementSpec& m) {
    BankSpec spec;
    spec.movements = {m};
    spec.programs = {""};
    std::vector<uint8_t> p = writeAmalPayload(spec);
    return readAmalPayload(rs::ByteSpan(p), "synthetic", 20);
}

} // namespace

TEST_CASE("amal: Move interpolates in 16.16 steps, one per tick, starting at +0.5", "[amal][sim]") {
    // 10/5 = 2 px a step; the instruction after Move runs in tick n+1.
    CHECK(xs(run("Move 10,0,5", 7)) == std::vector<int>{0, 2, 4, 6, 8, 10, 10, 10});
    // 10/3: slope (10<<8)/3 = 853/256 px; positions floor(0.5 + k*3.332).
    CHECK(xs(run("M 10,0,3", 4)) == std::vector<int>{0, 3, 7, 10, 10});
    CHECK(xs(run("M -10,0,3", 4)) == std::vector<int>{0, -3, -7, -10, -10});
    // Y moves with the same rule; a step count <= 0 counts as 1.
    auto v = run("M 0,-4,0", 2);
    CHECK(v[1] == XYA{0, -4, 0});
    // divu quirks: (200<<8)/1 = 51200 reads back as a negative word (-56 px); (300<<8)/1 overflows: no move.
    CHECK(xs(run("M 200,0,1", 1))[1] == -56);
    CHECK(xs(run("M 300,0,1", 1))[1] == 0);
    // Next instruction after the move runs in the tick the counter reaches 0.
    auto w = run("M 4,0,2 ; L Y=9", 3);
    CHECK(w[2] == XYA{4, 0, 0});
    CHECK(w[3] == XYA{4, 9, 0});
}

TEST_CASE("amal: Let, expressions left to right, 16-bit words", "[amal][sim]") {
    CHECK(run("Let X=2+3*4", 1)[1].x == 20); // no precedence: (2+3)*4
    CHECK(run("L X=10-2-3", 1)[1].x == 5);
    CHECK(run("L A=3=3", 1)[1].a == -1); // true is -1
    CHECK(run("L A=3<>3", 1)[1].a == 0);
    CHECK(run("L A=2<3", 1)[1].a == -1);
    CHECK(run("L A=2>3", 1)[1].a == 0);
    CHECK(run("L X=7/0", 1)[1].x == 7);   // division by zero leaves the value
    CHECK(run("L X=-7/2", 1)[1].x == -3); // divs truncates toward zero
    CHECK(run("L X=5!3", 1)[1].x == 6);   // xor
    CHECK(run("L X=12&10", 1)[1].x == 8);
    CHECK(run("L X=12|3", 1)[1].x == 15);
    CHECK(run("L X=$1F", 1)[1].x == 31);
    CHECK(run("L X=-5", 1)[1].x == -5);
    CHECK(run("L X=32767+1", 1)[1].x == -32768);
    CHECK(run("L X=300*300", 1)[1].x == int16_t(90000 & 0xFFFF));
    // Registers: R0-R9 per channel, RA-RZ global.
    CHECK(run("L R0=4 ; L RZ=R0*2 ; L X=RZ+R0", 1)[1].x == 12);
}

TEST_CASE("amal: only upper-case letters, digits and operators count", "[amal][sim]") {
    // "et", "this is a comment" etc. are skipped; ':' at instruction level is ignored.
    CHECK(run("Let X=12 : this is a comment", 1)[1].x == 12);
    CHECK(run("Let X=1~Let Y=2~", 1)[1] == XYA{1, 2, 0}); // '~' separates lines and is skipped
    // A lower-case "let" is a comment, so the upper-case X is the eXit instruction: not in an autotest.
    CHECK(compileError("let X=1").code == AmalErrorCode::OnlyInAutotest);
    // Labels are one letter: "Begin:" defines B.
    CHECK(run("Let X=1 ; Jump Begin ; Let X=2 ; Begin: Let Y=3", 1)[1] == XYA{1, 3, 0});
}

TEST_CASE("amal: Pause resumes at the next instruction in the next tick", "[amal][sim]") {
    SimOptions o;
    o.ticks = 4;
    SimResult r = simulate("L X=1 ; P ; L X=2 ; P ; L X=3", nullptr, o);
    REQUIRE(r.ok());
    CHECK(r.ticks[1].x == 1);
    CHECK(r.ticks[2].x == 2);
    CHECK(r.ticks[3].x == 3);
    CHECK(r.endTick == 3); // End after the last Let in tick 3
}

TEST_CASE("amal: Jump runs at most 10 jumps a tick in the main program", "[amal][sim]") {
    CHECK(xs(run("A: L X=X+1 ; J A", 3)) == std::vector<int>{0, 10, 20, 30});
    // An endless program stays safe and never ends.
    SimOptions o;
    o.ticks = 20000;
    SimResult r = simulate("A: J A", nullptr, o);
    CHECK(r.ok());
    CHECK(r.endTick == -1);
    CHECK(r.ticks.size() == 20001);
}

TEST_CASE("amal: If skips the Jump when false", "[amal][sim]") {
    CHECK(run("L R0=5 ; If R0=5 Jump A ; L X=1 ; A: L Y=1", 1)[1] == XYA{0, 1, 0});
    CHECK(run("L R0=5 ; If R0=4 Jump A ; L X=1 ; A: L Y=1", 1)[1] == XYA{1, 1, 0});
}

TEST_CASE("amal: For/Next loops once a tick", "[amal][sim]") {
    SimOptions o;
    o.ticks = 4;
    SimResult r = simulate("For R0=1 To 3 ; L X=X+1 ; Next R0 ; L Y=5", nullptr, o);
    REQUIRE(r.ok());
    CHECK(r.ticks[1].x == 1);
    CHECK(r.ticks[1].y == 0);
    CHECK(r.ticks[2].x == 2);
    CHECK(r.ticks[3].x == 3);
    CHECK(r.ticks[3].y == 5);
    CHECK(r.endTick == 3);
}

TEST_CASE("amal: Anim sets A with per-frame delays and a loop count", "[amal][sim]") {
    SimOptions o;
    o.ticks = 9;
    SimResult r = simulate("Anim 2,(1,2)(2,1) ; L X=1", nullptr, o);
    REQUIRE(r.ok());
    std::vector<int> a;
    for (const auto& t : r.ticks)
        a.push_back(t.a);
    // Frame 1 in tick 1 for 2 ticks, frame 2 for 1, then the second round; stops after 2 rounds.
    CHECK(a == std::vector<int>{0, 1, 1, 2, 1, 1, 2, 2, 2, 2});
    CHECK(r.endTick == 7);
    // Anim 0 loops forever.
    SimResult inf = simulate("A 0,(5,1)(6,1)", nullptr, o);
    CHECK(inf.ticks[8].a == 6);
    CHECK(inf.ticks[9].a == 5);
    CHECK(inf.endTick == -1);
}

TEST_CASE("amal: Wait, AUtotest, Direct, eXit and the On function", "[amal][sim]") {
    SimOptions o;
    o.ticks = 10;
    SimResult r = simulate("AU(If X>5 Direct B ; L X=X+1 ; X) ; Wait ; B: L Y=7", nullptr, o);
    REQUIRE(r.ok());
    CHECK(r.ticks[1].x == 0); // autotest defined in tick 1, runs from tick 2
    CHECK(r.ticks[2].x == 1);
    CHECK(r.ticks[7].x == 6);
    CHECK(r.ticks[7].y == 0);
    CHECK(r.ticks[8].x == 6);
    CHECK(r.ticks[8].y == 7); // Direct B, then the main program resumes at B in the same tick
    CHECK(r.endTick == 8);

    // O is true while a Move is under way.
    SimResult on = simulate("AU(If O=0 Direct B ; X) ; M 10,0,5 ; W ; B: L Y=1", nullptr, o);
    REQUIRE(on.ok());
    CHECK(on.ticks[6].x == 10);
    CHECK(on.ticks[6].y == 0);
    CHECK(on.ticks[7].y == 1);
    CHECK(on.endTick == 7);
}

TEST_CASE("amal: PLay steps every R0 ticks, pauses take k+1 steps", "[amal][sim]") {
    MovementSpec m;
    m.name = "Test";
    m.speed = 2;
    m.x = {moveByte(3), pauseByte(2), moveByte(-1)};
    m.y = {moveByte(1), moveByte(1), moveByte(1), moveByte(1)};
    Bank bank = bankWith(m);
    auto v = run("PLay 1 ; L A=9", 10, &bank);
    const std::vector<XYA> want = {{0, 0, 0}, {3, 1, 0}, {3, 1, 0}, {3, 2, 0}, {3, 2, 0}, {3, 3, 0},
                                   {3, 3, 0}, {2, 4, 0}, {2, 4, 0}, {2, 4, 9}, {2, 4, 9}};
    CHECK(v == want);

    MovementPath fwd = playMovement(*bank.movement(1), true);
    CHECK(fwd.steps == 4);
    CHECK(fwd.endTick == 9);
    CHECK(fwd.points.back().x == 2);
    CHECK(fwd.points.back().y == 4);
    CHECK(fwd.points[3].pausedX);
    CHECK_FALSE(fwd.points[3].pausedY);

    MovementPath back = playMovement(*bank.movement(1), false);
    CHECK(back.points.front().x == 2);
    CHECK(back.points.front().y == 4);
    CHECK(back.points[1].x == 3);
    CHECK(back.points[1].y == 3);
    CHECK(back.points.back().x == 0);
    CHECK(back.points.back().y == 0);
    CHECK(back.endTick == 9);

    // A missing movement ends PLay at once; PLay without a bank is an AMOS error.
    CHECK(run("PL 7 ; L X=1", 1, &bank)[1].x == 1);
    CHECK(compileError("PL 1").code == AmalErrorCode::NoBank);
}

TEST_CASE("amal: hardware functions read user inputs; Z is deterministic", "[amal][sim]") {
    SimOptions o;
    o.in.xm = 100;
    o.in.ym = -20;
    o.in.j1 = 9;
    auto v = run("L X=XM ; L Y=YM ; L A=J1&8", 1, nullptr, o);
    CHECK(v[1] == XYA{100, -20, 8});
    CHECK(run("L X=XH(0,10) ; L Y=YS(0,60)", 1)[1] == XYA{138, 10, 0});
    CHECK(run("L X=XS(1,10)", 1)[1].x == -1); // screen 1 not open
    CHECK(run("L X=K1 ; L Y=J0", 1)[1] == XYA{0, 0, 0});
    // T_AmSeed starts at $1234: seed*$3171, +beam+1 on the low word, (>>8) & mask.
    auto z = run("L X=Z(255) ; L Y=Z(255) ; L A=Z(255)", 1);
    CHECK(z[1] == XYA{252, 141, 147});
}

TEST_CASE("amal: compile errors carry the AMOS error and the position", "[amal][sim]") {
    CompileError e = compileError("L X=5; M 1,2;");
    CHECK(e.code == AmalErrorCode::Syntax);
    CHECK(e.position == 13);
    CHECK(e.line == 1);
    CHECK(e.column == 14);
    CHECK(e.toString(3).find("program 3") == 0);
    CHECK(e.toString().find("AMOS error 107") != std::string::npos);

    CompileError l = compileError("L X=1~J Q");
    CHECK(l.code == AmalErrorCode::LabelNotDefined);
    CHECK(l.line == 2);
    CHECK(l.column == 3);

    CHECK(compileError("N R0").code == AmalErrorCode::NextWithoutFor);
    CHECK(compileError("F R0=1 T 2 ; N R1").code == AmalErrorCode::NextWithoutFor);
    CHECK(compileError("A: A:").code == AmalErrorCode::LabelAlreadyDefined);
    CHECK(compileError("AU(AU(").code == AmalErrorCode::AutotestAlreadyOpen);
    CHECK(compileError("AU(M 1,1,1)").code == AmalErrorCode::IllegalInAutotest);
    CHECK(compileError("AU(B: X) J B").code == AmalErrorCode::JumpIntoAutotest);
    CHECK(compileError("D A").code == AmalErrorCode::OnlyInAutotest);
    CHECK(compileError(")").code == AmalErrorCode::OnlyInAutotest);
    CHECK(compileError("L Q=1").code == AmalErrorCode::Syntax);
    CHECK(compileError("A 1,(1,2").code == AmalErrorCode::Syntax);
    CHECK(compileError("If X=1 L Y=2").code == AmalErrorCode::Syntax);
    CHECK(compile("", false).ok());
    // Compile errors do not simulate.
    SimResult r = simulate("J Q", nullptr, SimOptions{});
    CHECK_FALSE(r.ok());
    CHECK(r.ticks.empty());
}

TEST_CASE("amal: deep nesting is bounded", "[amal][sim][bad]") {
    std::string ok = "L X=", deep = "L X=";
    for (int i = 0; i < 20; ++i)
        ok += "Z(";
    ok += "255";
    for (int i = 0; i < 20; ++i)
        ok += ")";
    CHECK(compile(ok, false).ok());
    for (int i = 0; i < 40000; ++i)
        deep += "Z(";
    CompileError e = compileError(deep);
    CHECK(e.code == AmalErrorCode::Syntax);
    CHECK(e.position < 200);
}

TEST_CASE("amal: compiler survives arbitrary text", "[amal][sim][bad]") {
    uint32_t s = 12345;
    const char alphabet[] = "AXYRJLMFNIWPEDUO()0123456789,=<>+-*/&|!$:;~ ZKCSBHT";
    for (int k = 0; k < 3000; ++k) {
        std::string t;
        const int len = int(s % 40);
        for (int i = 0; i < len; ++i) {
            s = s * 1103515245u + 12345u;
            t += alphabet[(s >> 16) % (sizeof(alphabet) - 1)];
        }
        s = s * 1103515245u + 12345u;
        SimOptions o;
        o.ticks = 30;
        SimResult r = simulate(t, nullptr, o);
        CHECK(r.runtimeError.empty());
        if (r.ok())
            CHECK(r.ticks.size() == 31);
        else if (r.error.code != AmalErrorCode::None)
            CHECK(r.error.position <= int(t.size()));
    }
}

#include "amal/amal_track.h"

TEST_CASE("amal track: what the 2D view draws", "[amal][track]") {
    BankSpec spec;
    MovementSpec m;
    m.name = "Hop";
    m.speed = 1;
    m.x = {moveByte(4), pauseByte(2), moveByte(4)};
    m.y = {moveByte(-1), pauseByte(2), moveByte(-1)};
    spec.movements = {m};
    spec.programs = {"Move 6,0,3 ; Pause ; Let A=5", "J Nowhere"};
    std::vector<uint8_t> bytes = writeAmalPayload(spec);
    Bank bank = readAmalPayload(rs::ByteSpan(bytes), "t", 20);

    Track mv = movementTrack(bank, 1);
    CHECK(mv.label == "Movement 1 \"Hop\"");
    REQUIRE(mv.points.size() == 6); // t0 start, 4 steps, terminator in t5
    CHECK(mv.points[1].x == 4);
    CHECK(mv.points[1].y == -1);
    CHECK_FALSE(mv.points[1].held);
    CHECK(mv.points[2].held); // both streams in their pause (2 steps)
    CHECK(mv.points[3].held);
    CHECK(mv.points[4].x == 8);
    CHECK(mv.points[4].y == -2);
    CHECK(mv.endTick == 5);
    CHECK_FALSE(movementTrack(bank, 2).error.empty());

    SimOptions o;
    o.ticks = 6;
    Track pr = programTrack(bank, 0, o);
    CHECK(pr.error.empty());
    REQUIRE(pr.points.size() == 7);
    CHECK(pr.points[1].x == 2);
    CHECK(pr.points[3].x == 6);
    CHECK(pr.points[4].held);         // Move over: tick 4 runs Pause
    CHECK(pr.points[4].srcPos == 21); // waits at "Let A=5", offset 21
    CHECK(pr.points[5].a == 5);
    CHECK(pr.endTick == 5);

    Track bad = programTrack(bank, 1, o);
    CHECK(bad.points.empty());
    CHECK(bad.compileError.code == AmalErrorCode::LabelNotDefined);
    CHECK(bad.error.find("program 1, position 2") == 0);
}

TEST_CASE("amal inputs: names and values the user can set", "[amal][sim]") {
    SimOptions o;
    std::string why;
    CHECK(parseInputs(o, "J1=8, xm=100 RA=$10;R3=-2 K1=1 X=5", &why));
    CHECK(o.in.j1 == 8);
    CHECK(o.in.xm == 100);
    CHECK(o.global[0] == 16);
    CHECK(o.local[3] == -2);
    CHECK(o.in.k1);
    CHECK(o.x == 5);
    CHECK_FALSE(parseInputs(o, "Q=1", &why));
    CHECK(why.find("unknown input name Q") != std::string::npos);
    CHECK_FALSE(parseInputs(o, "J1=", &why));
    CHECK_FALSE(parseInputs(o, "J1=$", &why));
    CHECK_FALSE(parseInputs(o, "J1=70000", &why));
    CHECK(parseInputs(o, "", &why));
    // The program sees them.
    o.ticks = 1;
    SimResult r = simulate("L Y=RA+R3 ; If K1 Jump S ; L A=1 ; S: L X=X+J1", nullptr, o);
    REQUIRE(r.ok());
    CHECK(r.ticks[1].y == 14);
    CHECK(r.ticks[1].x == 13);
    CHECK(r.ticks[1].a == 0);
}
