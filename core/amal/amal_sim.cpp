#include "amal/amal_sim.h"

#include <algorithm>
#include <cstdlib>

namespace rs::amal {

namespace {

// Word stream. Instructions:
//   END | PAUSE | WAIT | MOVE e e e | JUMP target | LET e tgt [reg] | IF e <JUMP|DIRECT|EXIT x>
//   FOR e e reg toSlot | NEXT forRegIndex | PLAY e | ANIM e after (e e)* ANIM_END
//   AUTOON end | AUTOOFF | EXIT 0 | DIRECT target
// Expressions: operand (operand op)* E_END. Registers: 0..25 global RA-RZ, -1..-10 local R0-R9.
enum Op : int32_t {
    I_END = 1000,
    I_PAUSE,
    I_WAIT,
    I_MOVE,
    I_JUMP,
    I_LET,
    I_IF,
    I_FOR,
    I_NEXT,
    I_PLAY,
    I_ANIM,
    I_AUTOON,
    I_AUTOOFF,
    I_EXIT,
    I_DIRECT,
    ANIM_END,
    E_NUM = 2000,
    E_REG,
    E_X,
    E_Y,
    E_A,
    E_XM,
    E_YM,
    E_J0,
    E_J1,
    E_K1,
    E_K2,
    E_ON,
    E_XS,
    E_YS,
    E_XH,
    E_YH,
    E_COL,
    E_SC,
    E_BC,
    E_Z,
    E_V,
    E_END,
    O_EQ = 3000,
    O_NE,
    O_LT,
    O_GT,
    O_ADD,
    O_SUB,
    O_DIV,
    O_MUL,
    O_OR,
    O_AND,
    O_XOR,
    T_A = 4000,
    T_X,
    T_Y,
    T_REG,
};

struct Fail {
    AmalErrorCode code;
    size_t pos;
};

class Tokenizer {
  public:
    Tokenizer(const std::string& s, bool haveBank) : s_(s), bank_(haveBank) { labels_.fill(-1); }

    CompiledProgram run() {
        CompiledProgram out;
        try {
            loop();
            instr_ = s_.size();
            emit(I_END);
            resolve();
            out.code = std::move(code_);
            out.srcPos = std::move(src_);
        } catch (const Fail& f) {
            out.error.code = f.code;
            out.error.position = int(std::min(f.pos, s_.size()));
            out.error.line = 1;
            out.error.column = 1;
            for (size_t k = 0; k < size_t(out.error.position); ++k) {
                if (s_[k] == '~' || s_[k] == '\n') {
                    ++out.error.line;
                    out.error.column = 1;
                } else {
                    ++out.error.column;
                }
            }
        }
        out.ignoredUpper = std::move(ignored_);
        return out;
    }

  private:
    // AniChr: next significant character, 0 at the end.
    int chr() {
        for (;;) {
            if (i_ >= s_.size()) {
                i_ = s_.size() + 1;
                return 0;
            }
            const unsigned char c = static_cast<unsigned char>(s_[i_++]);
            if (c == 0) return 0;
            if ((c >= 33 && c <= 'Z') || c == '|' || c == '!') return c;
            if (c == 27) i_ += 2;
        }
    }
    void back() {
        if (i_ > 0) --i_;
    }
    int raw() const { return i_ < s_.size() ? static_cast<unsigned char>(s_[i_]) : 0; }
    // AMOS reports the error at the character after the last one read (a0 - start).
    [[noreturn]] void fail(AmalErrorCode c) { throw Fail{c, i_}; }
    void expect(int c) {
        if (chr() != c) fail(AmalErrorCode::Syntax);
    }
    int emit(int32_t w) {
        code_.push_back(w);
        src_.push_back(int32_t(instr_));
        return int(code_.size()) - 1;
    }

    void loop() {
        for (;;) {
            const int d1 = chr();
            if (d1 == 0) return;
            instr_ = i_ - 1;
            const int d0 = chr();
            if (d0 == ':') {
                label(d1);
                continue;
            }
            back();
            switch (d1) {
            case 'J':
                jump();
                break;
            case 'L':
                let();
                break;
            case 'M':
                move();
                break;
            case 'F':
                forLoop();
                break;
            case 'N':
                next();
                break;
            case 'I':
                ifInstr();
                break;
            case 'W':
                if (inAuto_) fail(AmalErrorCode::IllegalInAutotest);
                emit(I_WAIT);
                break;
            case 'P':
                if (raw() == 'L') {
                    ++i_;
                    if (!bank_) fail(AmalErrorCode::NoBank);
                    emit(I_PLAY);
                    expr();
                } else {
                    emit(I_PAUSE);
                }
                break;
            case 'E':
                emit(I_END);
                break;
            case 'A':
                if (raw() == 'U')
                    autoOn();
                else
                    anim();
                break;
            case 'D':
                direct();
                break;
            case 'X':
                exitInstr();
                break;
            case ')':
                autoOff();
                break;
            default:
                if (d1 >= 'A' && d1 <= 'Z') ignored_.push_back(int(instr_));
                break;
            }
        }
    }

    int letter() {
        const int c = chr();
        if (c < 'A' || c > 'Z') fail(AmalErrorCode::Syntax);
        return c - 'A';
    }
    void label(int d1) {
        if (d1 < 'A' || d1 > 'Z') fail(AmalErrorCode::Syntax);
        const int l = d1 - 'A';
        if (labels_[size_t(l)] >= 0) fail(AmalErrorCode::LabelAlreadyDefined);
        labels_[size_t(l)] = int(code_.size());
        labelAuto_[size_t(l)] = inAuto_;
    }
    void jump() {
        emit(I_JUMP);
        const int l = letter();
        refs_.push_back({emit(0), l, inAuto_, i_ - 1});
    }
    void direct() {
        if (!inAuto_) fail(AmalErrorCode::OnlyInAutotest);
        emit(I_DIRECT);
        const int l = letter();
        refs_.push_back({emit(0), l, false, i_ - 1});
    }
    void exitInstr() {
        if (!inAuto_) fail(AmalErrorCode::OnlyInAutotest);
        emit(I_EXIT);
        emit(0);
    }
    void autoOn() {
        ++i_; // the 'U'
        const int c = chr();
        if (inAuto_) fail(AmalErrorCode::AutotestAlreadyOpen);
        if (c != '(') fail(AmalErrorCode::Syntax);
        if (chr() == ')') {
            emit(I_AUTOOFF);
            return;
        }
        back();
        emit(I_AUTOON);
        autoPatch_ = emit(0);
        inAuto_ = true;
    }
    void autoOff() {
        if (!inAuto_) fail(AmalErrorCode::OnlyInAutotest);
        emit(I_EXIT);
        emit(0);
        code_[size_t(autoPatch_)] = int32_t(code_.size());
        inAuto_ = false;
    }
    // AniReg: A X Y R0-R9 RA-RZ. Returns the Let target word(s) or false when not a register.
    bool reg(int c, int32_t& kind, int32_t& index) {
        index = 0;
        if (c == 'A')
            kind = T_A;
        else if (c == 'X')
            kind = T_X;
        else if (c == 'Y')
            kind = T_Y;
        else if (c == 'R') {
            const int d = chr();
            if (d >= '0' && d <= '9') {
                kind = T_REG;
                index = -(d - '0') - 1;
            } else if (d >= 'A' && d <= 'Z') {
                kind = T_REG;
                index = d - 'A';
            } else {
                back();
                return false;
            }
        } else {
            back();
            return false;
        }
        return true;
    }
    void let() {
        emit(I_LET);
        int32_t kind, index;
        if (!reg(chr(), kind, index)) fail(AmalErrorCode::Syntax);
        expect('=');
        expr();
        emit(kind);
        if (kind == T_REG) emit(index);
    }
    void move() {
        if (inAuto_) fail(AmalErrorCode::IllegalInAutotest);
        emit(I_MOVE);
        expr();
        expect(',');
        expr();
        expect(',');
        expr();
    }
    void forLoop() {
        if (inAuto_) fail(AmalErrorCode::IllegalInAutotest);
        emit(I_FOR);
        int32_t kind, index;
        if (!reg(chr(), kind, index) || kind != T_REG) fail(AmalErrorCode::Syntax);
        expect('=');
        expr();
        expect('T');
        expr();
        fors_.push_back({emit(index), index});
        emit(0); // To value, written at run time
    }
    void next() {
        if (inAuto_) fail(AmalErrorCode::IllegalInAutotest);
        emit(I_NEXT);
        int32_t kind, index;
        if (!reg(chr(), kind, index) || kind != T_REG) fail(AmalErrorCode::Syntax);
        if (fors_.empty() || fors_.back().reg != index) fail(AmalErrorCode::NextWithoutFor);
        emit(fors_.back().at);
        fors_.pop_back();
    }
    void ifInstr() {
        emit(I_IF);
        expr();
        const int c = chr();
        if (c == 'J')
            jump();
        else if (c == 'D')
            direct();
        else if (c == 'X')
            exitInstr();
        else
            fail(AmalErrorCode::Syntax);
    }
    void anim() {
        emit(I_ANIM);
        expr();
        const int after = emit(0);
        expect(',');
        expect('(');
        for (;;) {
            expr();
            expect(',');
            expr();
            expect(')');
            if (chr() != '(') break;
        }
        back();
        emit(ANIM_END);
        code_[size_t(after)] = int32_t(code_.size());
    }

    static int hexDigit(int c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
    // AniLong: [-] decimal or $hex, 32-bit accumulate, stored as a word.
    int32_t number() {
        bool neg = false;
        int c = chr();
        if (c == '-') {
            neg = true;
            c = chr();
        }
        uint32_t v = 0;
        if (c == '$') {
            int h = hexDigit(chr());
            if (h < 0) fail(AmalErrorCode::Syntax);
            v = uint32_t(h);
            while ((h = hexDigit(chr())) >= 0)
                v = (v << 4) + uint32_t(h);
        } else {
            if (c < '0' || c > '9') fail(AmalErrorCode::Syntax);
            v = uint32_t(c - '0');
            for (c = chr(); c >= '0' && c <= '9'; c = chr())
                v = v * 10 + uint32_t(c - '0');
        }
        back();
        if (neg) v = 0u - v;
        return int32_t(int16_t(uint16_t(v & 0xFFFF)));
    }
    void args(int n) {
        expect('(');
        for (int k = 0; k < n; ++k) {
            if (k) expect(',');
            expr();
        }
        expect(')');
    }
    // AniOpe.
    void operand() {
        const int c = chr();
        switch (c) {
        case 'K': {
            const int d = chr();
            if (d == '1')
                emit(E_K1);
            else if (d == '2')
                emit(E_K2);
            else
                fail(AmalErrorCode::Syntax);
            return;
        }
        case 'J': {
            const int d = chr();
            if (d == '0')
                emit(E_J0);
            else if (d == '1')
                emit(E_J1);
            else
                fail(AmalErrorCode::Syntax);
            return;
        }
        case 'O':
            emit(E_ON);
            return;
        case 'S':
        case 'B':
            emit(c == 'S' ? E_SC : E_BC);
            expect('C');
            args(3);
            return;
        case 'C':
            emit(E_COL);
            args(1);
            return;
        case 'Z':
            emit(E_Z);
            args(1);
            return;
        case 'V':
            emit(E_V);
            args(1);
            return;
        default:
            break;
        }
        if (c == '-' || c == '$' || (c >= '0' && c <= '9')) {
            back();
            const int32_t v = number();
            emit(E_NUM);
            emit(v);
            return;
        }
        int32_t kind, index;
        if (!reg(c, kind, index)) fail(AmalErrorCode::Syntax);
        if (kind == T_X || kind == T_Y) {
            const int d = chr();
            back();
            if (d == 'S' || d == 'H') {
                ++i_;
                emit(kind == T_X ? (d == 'S' ? E_XS : E_XH) : (d == 'S' ? E_YS : E_YH));
                args(2);
                return;
            }
            if (d == 'M') {
                ++i_;
                emit(kind == T_X ? E_XM : E_YM);
                return;
            }
        }
        switch (kind) {
        case T_A:
            emit(E_A);
            break;
        case T_X:
            emit(E_X);
            break;
        case T_Y:
            emit(E_Y);
            break;
        default:
            emit(E_REG);
            emit(index);
        }
    }
    // AniExp: operand (op operand)*, left to right.
    void expr() {
        // Function arguments nest expressions; bound the depth so hostile text cannot exhaust the stack.
        if (++depth_ > kMaxNesting) fail(AmalErrorCode::Syntax);
        struct Leave {
            int& d;
            ~Leave() { --d; }
        } leave{depth_};
        operand();
        for (;;) {
            const int c = chr();
            int32_t op;
            switch (c) {
            case '=':
                op = O_EQ;
                break;
            case '<':
                if (raw() == '>') {
                    ++i_;
                    op = O_NE;
                } else {
                    op = O_LT;
                }
                break;
            case '>':
                op = O_GT;
                break;
            case '+':
                op = O_ADD;
                break;
            case '-':
                op = O_SUB;
                break;
            case '/':
                op = O_DIV;
                break;
            case '*':
                op = O_MUL;
                break;
            case '|':
                op = O_OR;
                break;
            case '&':
                op = O_AND;
                break;
            case '!':
                op = O_XOR;
                break;
            default:
                emit(E_END);
                back();
                return;
            }
            operand();
            emit(op);
        }
    }

    void resolve() {
        for (const Ref& r : refs_) {
            const int target = labels_[size_t(r.label)];
            if (target < 0) throw Fail{AmalErrorCode::LabelNotDefined, r.src};
            if (labelAuto_[size_t(r.label)] != r.inAuto) throw Fail{AmalErrorCode::JumpIntoAutotest, r.src};
            code_[size_t(r.at)] = target;
        }
    }

    struct Ref {
        int at;
        int label;
        bool inAuto;
        size_t src;
    };
    struct ForEntry {
        int at;
        int32_t reg;
    };
    const std::string& s_;
    bool bank_;
    static constexpr int kMaxNesting = 64;
    int depth_ = 0;
    size_t i_ = 0;
    size_t instr_ = 0;
    bool inAuto_ = false;
    int autoPatch_ = -1;
    std::array<int, 26> labels_;
    std::array<bool, 26> labelAuto_{};
    std::vector<Ref> refs_;
    std::vector<ForEntry> fors_;
    std::vector<int32_t> code_, src_;
    std::vector<int> ignored_;
};

struct RuntimeFail {};

} // namespace

const char* errorMessage(AmalErrorCode c) {
    switch (c) {
    case AmalErrorCode::None:
        return "no error";
    case AmalErrorCode::Syntax:
        return "Syntax error in animation string";
    case AmalErrorCode::NextWithoutFor:
        return "Next without For in animation string";
    case AmalErrorCode::LabelNotDefined:
        return "Label not defined in animation string";
    case AmalErrorCode::JumpIntoAutotest:
        return "Jump To/Within autotest in animation string";
    case AmalErrorCode::AutotestAlreadyOpen:
        return "Autotest already opened";
    case AmalErrorCode::OnlyInAutotest:
        return "Instruction only valid in autotest";
    case AmalErrorCode::TooLong:
        return "Animation string too long";
    case AmalErrorCode::LabelAlreadyDefined:
        return "Label already defined in animation string";
    case AmalErrorCode::IllegalInAutotest:
        return "Illegal instruction during autotest";
    case AmalErrorCode::NoBank:
        return "Amal bank not reserved";
    }
    return "unknown AMAL error";
}

std::string CompileError::toString(int program) const {
    std::string s;
    if (program >= 0) s = "program " + std::to_string(program) + ", ";
    s += "position " + std::to_string(position) + " (line " + std::to_string(line) + ", column " +
         std::to_string(column) + "): " + errorMessage(code) + " (AMOS error " + std::to_string(106 + int(code)) + ")";
    return s;
}

CompiledProgram compile(const std::string& text, bool haveBank) { return Tokenizer(text, haveBank).run(); }

Channel::Channel(const CompiledProgram& prog, const Bank* bank, const SimOptions& opt)
    : code_(prog.code), src_(prog.srcPos), bank_(bank), opt_(opt), x_(opt.x), y_(opt.y), a_(opt.a), local_(opt.local),
      global_(opt.global), seed_(opt.in.seed) {
    pos_ = prog.ok() && !code_.empty() ? 0 : -1;
}

int Channel::waitingAt() const { return pos_ >= 0 && pos_ < int(src_.size()) ? src_[size_t(pos_)] : -1; }

int16_t Channel::reg(int index) const {
    if (index >= 0 && index < 10) return local_[size_t(index)];
    if (index >= 10 && index < 36) return global_[size_t(index - 10)];
    return 0;
}

int32_t Channel::at(int pc) {
    if (pc < 0 || pc >= int(code_.size())) {
        err_ = "program counter " + std::to_string(pc) + " outside the compiled program";
        throw RuntimeFail{};
    }
    if (++words_ > opt_.maxWordsPerTick) {
        err_ = "more than " + std::to_string(opt_.maxWordsPerTick) + " words interpreted in one tick";
        throw RuntimeFail{};
    }
    return code_[size_t(pc)];
}

int16_t& Channel::regRef(int32_t r) {
    if (r < 0) return local_[size_t(std::min<int32_t>(-r - 1, 9))];
    return global_[size_t(std::min<int32_t>(r, 25))];
}

int16_t Channel::random(int16_t mask) {
    // AmHaz: seed * $3171, beam position and 1 added to the low word; result (>> 8) & mask.
    uint32_t d2 = uint32_t(seed_) * 0x3171u;
    const uint16_t low = uint16_t((d2 & 0xFFFF) + opt_.in.beam + 1);
    d2 = (d2 & 0xFFFF0000u) | low;
    seed_ = low;
    return int16_t(uint16_t(d2 >> 8) & uint16_t(mask));
}

int16_t Channel::screenFn(int32_t op, int16_t scr, int16_t v) {
    if (!(opt_.in.screensOpen & (1u << (scr & 7)))) return -1;
    const Inputs& in = opt_.in;
    switch (op) {
    case E_XH:
        return int16_t((in.hires ? v >> 1 : v) + in.screenX);
    case E_YH:
        return int16_t(v + in.screenY);
    case E_XS:
        return int16_t(in.hires ? (v - in.screenX) * 2 : v - in.screenX);
    default:
        return int16_t(v - in.screenY);
    }
}

int16_t Channel::operand(int& pc) {
    const int32_t t = at(pc++);
    switch (t) {
    case E_NUM:
        return int16_t(at(pc++));
    case E_REG:
        return regRef(at(pc++));
    case E_X:
        return x_;
    case E_Y:
        return y_;
    case E_A:
        return a_;
    case E_XM:
        return opt_.in.xm;
    case E_YM:
        return opt_.in.ym;
    case E_J0:
        return opt_.in.j0;
    case E_J1:
        return opt_.in.j1;
    case E_K1:
        return opt_.in.k1 ? -1 : 0;
    case E_K2:
        return opt_.in.k2 ? -1 : 0;
    case E_ON:
        return cpt_ > 0 ? -1 : 0;
    case E_XS:
    case E_YS:
    case E_XH:
    case E_YH: {
        const int16_t s = eval(pc);
        const int16_t v = eval(pc);
        return screenFn(t, s, v);
    }
    case E_COL:
        eval(pc);
        return opt_.in.col;
    case E_SC:
    case E_BC:
        eval(pc);
        eval(pc);
        eval(pc);
        return t == E_SC ? opt_.in.sc : opt_.in.bc;
    case E_Z:
        return random(eval(pc));
    case E_V:
        eval(pc);
        return opt_.in.vu;
    default:
        err_ = "bad operand word " + std::to_string(t);
        throw RuntimeFail{};
    }
}

int16_t Channel::eval(int& pc) {
    int16_t acc = operand(pc);
    for (;;) {
        if (at(pc) == E_END) {
            ++pc;
            return acc;
        }
        const int16_t v = operand(pc);
        const int32_t op = at(pc++);
        switch (op) {
        case O_EQ:
            acc = acc == v ? -1 : 0;
            break;
        case O_NE:
            acc = acc != v ? -1 : 0;
            break;
        case O_LT:
            acc = acc < v ? -1 : 0;
            break;
        case O_GT:
            acc = acc > v ? -1 : 0;
            break;
        case O_ADD:
            acc = int16_t(acc + v);
            break;
        case O_SUB:
            acc = int16_t(acc - v);
            break;
        case O_DIV:
            // divs: quotient must fit 16 bits, else (and for /0) the value is left unchanged.
            if (v != 0) {
                const int32_t q = int32_t(acc) / int32_t(v);
                if (q >= -32768 && q <= 32767) acc = int16_t(q);
            }
            break;
        case O_MUL:
            acc = int16_t(int32_t(acc) * int32_t(v));
            break;
        case O_OR:
            acc = int16_t(acc | v);
            break;
        case O_AND:
            acc = int16_t(acc & v);
            break;
        case O_XOR:
            acc = int16_t(acc ^ v);
            break;
        default:
            err_ = "bad operator word " + std::to_string(op);
            throw RuntimeFail{};
        }
    }
}

void Channel::animStep() {
    if (!animOn_) return;
    if (--animCpt_ != 0) return;
    int p = animAd_;
    for (int round = 0; round < 2; ++round) {
        if (at(p) == ANIM_END) {
            if (animCount_ != 0) {
                if (--animCount_ == 0) {
                    animOn_ = false;
                    return;
                }
            }
            p = animLoop_;
            continue;
        }
        a_ = eval(p);
        animCpt_ = uint16_t(eval(p));
        animAd_ = p;
        return;
    }
    animOn_ = false;
}

void Channel::run(int pc, Chain chain) {
    int budget = chain == Chain::Main ? 10 : 20;
    for (;;) {
        const int ip = pc;
        const int32_t op = at(pc++);
        switch (op) {
        case I_END:
            pos_ = -1;
            auto_ = -1;
            return;
        case I_PAUSE:
            pos_ = pc;
            return;
        case I_WAIT:
            pos_ = -1;
            return;
        case I_MOVE: {
            --cpt_;
            if (cpt_ < 0) {
                pos_ = ip;
                const int16_t dx = eval(pc);
                const int16_t dy = eval(pc);
                int16_t n = eval(pc);
                fin_ = pc;
                if (n <= 0) n = 1;
                cpt_ = n;
                auto slope = [n](int16_t d) {
                    uint32_t m = uint32_t(d < 0 ? -int32_t(d) : int32_t(d)) << 8;
                    uint32_t q = m / uint32_t(n);
                    if (q > 0xFFFF) q = 0; // divu overflow
                    uint16_t w = uint16_t(q);
                    if (d < 0) w = uint16_t(0u - w);
                    return int32_t(int16_t(w)) * 256;
                };
                deltX_ = slope(dx);
                deltY_ = slope(dy);
                virgX_ = 0x8000;
                virgY_ = 0x8000;
            } else if (cpt_ == 0) {
                pc = fin_;
                continue;
            }
            const uint32_t vx = ((uint32_t(uint16_t(x_)) << 16) | virgX_) + uint32_t(deltX_);
            const uint32_t vy = ((uint32_t(uint16_t(y_)) << 16) | virgY_) + uint32_t(deltY_);
            virgX_ = uint16_t(vx);
            virgY_ = uint16_t(vy);
            x_ = int16_t(uint16_t(vx >> 16));
            y_ = int16_t(uint16_t(vy >> 16));
            return;
        }
        case I_JUMP:
            pc = at(pc);
            if (--budget == 0) {
                if (chain == Chain::Main) pos_ = pc;
                return;
            }
            continue;
        case I_LET: {
            const int16_t v = eval(pc);
            const int32_t t = at(pc++);
            if (t == T_A)
                a_ = v;
            else if (t == T_X)
                x_ = v;
            else if (t == T_Y)
                y_ = v;
            else
                regRef(at(pc++)) = v;
            continue;
        }
        case I_IF:
            if (eval(pc) == 0) pc += 2;
            continue;
        case I_FOR: {
            const int16_t from = eval(pc);
            const int16_t to = eval(pc);
            regRef(at(pc)) = from;
            (void)at(pc + 1);
            code_[size_t(pc + 1)] = to;
            pc += 2;
            continue;
        }
        case I_NEXT: {
            const int v = at(pc++);
            int16_t& var = regRef(at(v));
            var = int16_t(var + 1);
            if (int16_t(at(v + 1)) >= var) {
                pos_ = v + 2;
                return;
            }
            continue;
        }
        case I_PLAY: {
            --cpt_;
            if (cpt_ < 0) {
                pos_ = ip;
                const int16_t n = eval(pc);
                fin_ = pc;
                const Movement* m = bank_ ? bank_->movement(int(uint16_t(n))) : nullptr;
                if (!m || uint16_t(n) > bank_->movementSlots) {
                    pc = fin_;
                    continue;
                }
                local_[0] = int16_t(m->speed);
                local_[1] = 1;
                play_.start(*m);
            } else if (cpt_ != 0) {
                return;
            }
            if (local_[1] < 0 || !play_.step(local_[1] != 0, x_, y_)) {
                pc = fin_;
                continue;
            }
            cpt_ = local_[0];
            return;
        }
        case I_ANIM: {
            animCount_ = eval(pc);
            const int after = at(pc);
            animCpt_ = 1;
            animAd_ = animLoop_ = pc + 1;
            animOn_ = true;
            pc = after;
            continue;
        }
        case I_AUTOON:
            auto_ = pc + 1;
            pc = at(pc);
            continue;
        case I_AUTOOFF:
            auto_ = -1;
            continue;
        case I_EXIT:
            return;
        case I_DIRECT:
            pos_ = at(pc);
            cpt_ = 0;
            return;
        default:
            err_ = "bad instruction word " + std::to_string(op);
            throw RuntimeFail{};
        }
    }
}

bool Channel::tick() {
    if (!err_.empty()) return false;
    words_ = 0;
    const int16_t ox = x_, oy = y_;
    try {
        if (auto_ >= 0) run(auto_, Chain::Auto);
        if (pos_ >= 0) run(pos_, Chain::Main);
        animStep();
    } catch (const RuntimeFail&) {
        pos_ = -1;
        auto_ = -1;
        animOn_ = false;
        return false;
    }
    moved_ = x_ != ox || y_ != oy;
    return true;
}

bool setInput(SimOptions& o, const std::string& name, long v, std::string* why) {
    if (v < -32768 || v > 65535) {
        if (why) *why = name + ": value " + std::to_string(v) + " does not fit a 16-bit word";
        return false;
    }
    const int16_t w = int16_t(uint16_t(v & 0xFFFF));
    if (name == "XM")
        o.in.xm = w;
    else if (name == "YM")
        o.in.ym = w;
    else if (name == "J0")
        o.in.j0 = w;
    else if (name == "J1")
        o.in.j1 = w;
    else if (name == "K1")
        o.in.k1 = w != 0;
    else if (name == "K2")
        o.in.k2 = w != 0;
    else if (name == "C")
        o.in.col = w;
    else if (name == "SC")
        o.in.sc = w;
    else if (name == "BC")
        o.in.bc = w;
    else if (name == "V")
        o.in.vu = w;
    else if (name == "BEAM")
        o.in.beam = uint16_t(w);
    else if (name == "SEED")
        o.in.seed = uint16_t(w);
    else if (name == "X")
        o.x = w;
    else if (name == "Y")
        o.y = w;
    else if (name == "A")
        o.a = w;
    else if (name.size() == 2 && name[0] == 'R' && name[1] >= '0' && name[1] <= '9')
        o.local[size_t(name[1] - '0')] = w;
    else if (name.size() == 2 && name[0] == 'R' && name[1] >= 'A' && name[1] <= 'Z')
        o.global[size_t(name[1] - 'A')] = w;
    else {
        if (why) *why = "unknown input name " + name;
        return false;
    }
    return true;
}

bool parseInputs(SimOptions& o, const std::string& text, std::string* why) {
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == ';' || text[i] == '\t'))
            ++i;
        if (i >= text.size()) break;
        size_t e = i;
        while (e < text.size() && text[e] != ' ' && text[e] != ',' && text[e] != ';' && text[e] != '\t')
            ++e;
        const std::string item = text.substr(i, e - i);
        i = e;
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
            if (why) *why = "expected NAME=VALUE, got " + item;
            return false;
        }
        std::string name = item.substr(0, eq);
        for (char& c : name)
            if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
        const std::string num = item.substr(eq + 1);
        const bool hexNum = num[0] == '$';
        const char* digits = num.c_str() + (hexNum ? 1 : 0);
        char* end = nullptr;
        const long value = std::strtol(digits, &end, hexNum ? 16 : 10);
        if (end == digits || *end != '\0') {
            if (why) *why = "bad number " + num + " for " + name;
            return false;
        }
        if (!setInput(o, name, value, why)) return false;
    }
    return true;
}

SimResult simulate(const CompiledProgram& prog, const Bank* bank, const SimOptions& opt) {
    SimResult r;
    r.error = prog.error;
    if (!prog.ok()) return r;
    Channel ch(prog, bank, opt);
    const int n = std::max(0, opt.ticks);
    r.ticks.reserve(size_t(n) + 1);
    auto push = [&](int t) {
        TickState s;
        s.t = t;
        s.x = ch.x();
        s.y = ch.y();
        s.a = ch.a();
        s.srcPos = ch.waitingAt();
        s.moving = t > 0 && ch.movedLastTick();
        s.waiting = s.srcPos < 0;
        r.ticks.push_back(s);
    };
    push(0);
    for (int t = 1; t <= n; ++t) {
        if (!ch.tick()) {
            r.runtimeError = ch.error();
            break;
        }
        push(t);
        if (r.endTick < 0 && ch.idle()) r.endTick = t;
    }
    return r;
}

SimResult simulate(const std::string& text, const Bank* bank, const SimOptions& opt) {
    return simulate(compile(text, bank != nullptr), bank, opt);
}

} // namespace rs::amal
