// rigscope-cli for AMOS AMAL banks:
//   info [--json] FILE        movements, programs (with AMAL compile errors), environment, other banks
//   amal --json FILE (--movement N [--backward] | --program N) [--ticks T] [--x X --y Y --a A]
//        [--set NAME=VALUE ...]   NAME: XM YM J0 J1 K1 K2 C SC BC V BEAM SEED R0-R9 RA-RZ (amal_sim.h)
#include "commands.h"

#include "amal/amal_bank.h"
#include "amal/amal_play.h"
#include "amal/amal_sim.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace rs::cli {

namespace {

std::string firstLine(const std::string& text) {
    const size_t e = text.find('~');
    return e == std::string::npos ? text : text.substr(0, e);
}

int lineCount(const std::string& text) {
    if (text.empty()) return 0;
    int n = 1;
    for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '~' && i + 1 < text.size()) ++n;
    return n;
}

void errorJson(Json& j, const amal::CompileError& e) {
    if (e.code == amal::AmalErrorCode::None) {
        j.null();
        return;
    }
    j.beginObject()
        .kv("code", int(e.code))
        .kv("amos_error", 106 + int(e.code))
        .kv("message", std::string(amal::errorMessage(e.code)))
        .kv("position", e.position)
        .kv("line", e.line)
        .kv("column", e.column)
        .endObject();
}

void infoJson(const amal::BankFile& f, const amal::Bank& b, Json& j) {
    j.beginObject().kv("format", "amal").kv("container", f.container).kv("bank", b.number);
    j.kv("bank_offset", uint64_t(b.offset)).kv("amal_banks", int(f.amalBanks.size()));
    j.kv("movement_slots", b.movementSlots).key("movements").beginArray();
    for (const auto& m : b.movements) {
        if (!m.defined) continue;
        const amal::MovementPath fwd = amal::playMovement(m, true);
        j.beginObject()
            .kv("index", m.index)
            .kv("name", m.name)
            .kv("speed", int(m.speed))
            .kv("x_bytes", int(m.xSteps.size()))
            .kv("y_bytes", int(m.ySteps.size()))
            .kv("x_steps", amal::streamSteps(m.xSteps))
            .kv("y_steps", amal::streamSteps(m.ySteps))
            .kv("play_steps", fwd.steps)
            .kv("duration_ticks", fwd.endTick)
            .kv("duration", double(fwd.endTick) / 50.0)
            .key("end")
            .beginArray()
            .value(int(fwd.points.back().x))
            .value(int(fwd.points.back().y))
            .endArray()
            .endObject();
    }
    j.endArray();
    j.kv("program_slots", b.programSlots).key("programs").beginArray();
    for (const auto& p : b.programs) {
        if (p.text.empty()) continue;
        const amal::CompiledProgram c = amal::compile(p.text, true);
        j.beginObject()
            .kv("index", p.index)
            .kv("length", int(p.text.size()))
            .kv("lines", lineCount(p.text))
            .kv("first_line", firstLine(p.text))
            .key("error");
        errorJson(j, c.error);
        j.endObject();
    }
    j.endArray();
    j.kv("environment", b.environment);
    j.key("other_banks").beginArray();
    for (const auto& o : f.otherBanks) {
        j.beginObject().kv("kind", o.kind).kv("number", o.number).kv("type", o.type).kv("offset", uint64_t(o.offset));
        j.kv("length", uint64_t(o.length));
        if (o.kind != "AmBk") j.kv("images", o.images);
        j.endObject();
    }
    j.endArray().key("warnings").beginArray();
    for (const auto& w : f.warnings)
        j.value(w);
    for (const auto& w : b.warnings)
        j.value(w);
    j.endArray().endObject();
}

std::string infoText(const amal::BankFile& f, const amal::Bank& b) {
    std::ostringstream s;
    s << f.path << ": amal (" << f.container << "), bank " << b.number << " at " << hex(uint32_t(b.offset)) << "\n";
    s << "  movements: " << b.definedMovements() << " of " << b.movementSlots << " slots\n";
    for (const auto& m : b.movements) {
        if (!m.defined) continue;
        const amal::MovementPath fwd = amal::playMovement(m, true);
        s << "    " << m.index << " \"" << m.name << "\": speed " << m.speed << ", " << amal::streamSteps(m.xSteps)
          << " X / " << amal::streamSteps(m.ySteps) << " Y steps, " << fwd.endTick << " ticks ("
          << double(fwd.endTick) / 50.0 << " s), ends at (" << fwd.points.back().x << ", " << fwd.points.back().y
          << ")\n";
    }
    s << "  programs: " << b.nonEmptyPrograms() << " of " << b.programSlots << " slots\n";
    for (const auto& p : b.programs) {
        if (p.text.empty()) continue;
        const amal::CompiledProgram c = amal::compile(p.text, true);
        s << "    " << p.index << ": " << p.text.size() << " bytes, \"" << firstLine(p.text) << "\"";
        if (!c.ok()) s << "  [" << c.error.toString() << "]";
        s << "\n";
    }
    s << "  environment: \"" << b.environment << "\"\n";
    if (!f.otherBanks.empty()) s << "  other banks: " << amal::describeOtherBanks(f) << "\n";
    for (const auto& w : f.warnings)
        s << "  warning: " << w << "\n";
    for (const auto& w : b.warnings)
        s << "  warning: " << w << "\n";
    return s.str();
}

long parseInt(const std::string& s, const char* what, long lo, long hi) {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || v < lo || v > hi)
        throw UsageError{std::string("bad ") + what + ": " + s + " (expected " + std::to_string(lo) + ".." +
                         std::to_string(hi) + ")"};
    return v;
}

void applySet(amal::SimOptions& o, const std::string& kv) {
    std::string why;
    if (kv.find('=') == std::string::npos || !amal::parseInputs(o, kv, &why))
        throw UsageError{"--set " + kv + ": " + (why.empty() ? "expected NAME=VALUE" : why)};
}

} // namespace

bool infoSpecial(Format format, ByteSpan bytes, const std::string& path, bool json, std::string& out) {
    if (format != Format::Amal) return false;
    const amal::BankFile f = amal::readBankFile(bytes, path);
    const amal::Bank& b = amal::requireAmalBank(f);
    if (json) {
        Json j;
        infoJson(f, b, j);
        out = j.out;
    } else {
        out = infoText(f, b);
        if (!out.empty() && out.back() == '\n') out.pop_back();
    }
    return true;
}

int cmdAmal(const std::vector<std::string>& args) {
    bool json = false, backward = false;
    std::string file;
    long movement = -1, program = -1, ticks = -1;
    amal::SimOptions opt;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        if (a == "--json")
            json = true;
        else if (a == "--movement")
            movement = parseInt(next("--movement"), "movement", 1, 65535);
        else if (a == "--program")
            program = parseInt(next("--program"), "program", 0, 65535);
        else if (a == "--ticks")
            ticks = parseInt(next("--ticks"), "ticks", 0, 1000000);
        else if (a == "--backward")
            backward = true;
        else if (a == "--x")
            opt.x = int16_t(parseInt(next("--x"), "x", -32768, 32767));
        else if (a == "--y")
            opt.y = int16_t(parseInt(next("--y"), "y", -32768, 32767));
        else if (a == "--a")
            opt.a = int16_t(parseInt(next("--a"), "a", -32768, 32767));
        else if (a == "--set")
            applySet(opt, next("--set"));
        else if (!a.empty() && a[0] == '-')
            throw UsageError{"unknown option " + a};
        else if (file.empty())
            file = a;
        else
            throw UsageError{"more than one file given"};
    }
    if (!json) throw UsageError{"amal supports --json output only"};
    if (file.empty()) throw UsageError{"amal needs a FILE"};
    if ((movement < 0) == (program < 0)) throw UsageError{"give --movement N or --program N"};
    if (backward && movement < 0) throw UsageError{"--backward applies to --movement only"};

    const std::vector<uint8_t> bytes = readFileBytes(file);
    const amal::BankFile f = amal::readBankFile(ByteSpan(bytes), file);
    const amal::Bank& b = amal::requireAmalBank(f);
    Json j;
    j.beginObject();
    if (movement >= 0) {
        const amal::Movement* m = b.movement(int(movement));
        if (!m)
            throw ParseError(file, "Amal/movements", b.payloadOffset,
                             "movement " + std::to_string(movement) + " is not defined (the bank has " +
                                 std::to_string(b.movementSlots) + " slots)");
        const int limit = ticks >= 0 ? int(ticks) : (1 << 20);
        const amal::MovementPath p = amal::playMovement(*m, !backward, opt.x, opt.y, limit);
        j.kv("movement", m->index).kv("name", m->name).kv("speed", int(m->speed)).kv("backward", backward);
        j.kv("end_tick", p.endTick).key("ticks").beginArray();
        const int n = ticks >= 0 ? int(ticks) : p.endTick;
        for (int t = 0; t <= n; ++t) {
            const amal::PathPoint& q = p.points[size_t(std::min<int>(t, int(p.points.size()) - 1))];
            j.beginObject().kv("t", t).kv("x", int(q.x)).kv("y", int(q.y)).kv("a", int(opt.a)).endObject();
        }
        j.endArray();
    } else {
        const amal::Program* pr = b.program(int(program));
        if (!pr || pr->text.empty())
            throw ParseError(file, "Amal/programs", b.payloadOffset,
                             "program " + std::to_string(program) + (pr ? " is empty" : " does not exist") +
                                 " (the bank has " + std::to_string(b.programSlots) + " slots)");
        const amal::CompiledProgram c = amal::compile(pr->text, true);
        if (!c.ok())
            throw ParseError(file, "Amal/programs/" + std::to_string(program), pr->offset + 2 + c.error.position,
                             c.error.toString(int(program)));
        opt.ticks = ticks >= 0 ? int(ticks) : 250;
        const amal::SimResult r = amal::simulate(c, &b, opt);
        if (!r.runtimeError.empty())
            throw ParseError(file, "Amal/programs/" + std::to_string(program), pr->offset,
                             "program " + std::to_string(program) + ": " + r.runtimeError);
        j.kv("program", int(program)).kv("end_tick", r.endTick).key("ticks").beginArray();
        for (const auto& s : r.ticks)
            j.beginObject().kv("t", s.t).kv("x", int(s.x)).kv("y", int(s.y)).kv("a", int(s.a)).endObject();
        j.endArray();
    }
    j.endObject();
    std::cout << j.out << "\n";
    return 0;
}

} // namespace rs::cli
