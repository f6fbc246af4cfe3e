#include "objects/sage_ini.h"

#include "common/text_budgets.h"
#include "vfs/mount.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace rs::objects {

namespace {

std::string upper(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool ieq(const std::string& a, const char* b) {
    const size_t n = std::strlen(b);
    if (a.size() != n) return false;
    for (size_t i = 0; i < n; ++i)
        if (std::toupper(static_cast<unsigned char>(a[i])) != std::toupper(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

bool ieqAny(const std::string& a, std::initializer_list<const char*> list) {
    for (const char* b : list)
        if (ieq(a, b)) return true;
    return false;
}

// One line with its comment removed: `;` or `//` outside double quotes.
std::string stripComment(const std::string& line) {
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"') quoted = !quoted;
        if (quoted) continue;
        if (c == ';' || (c == '/' && i + 1 < line.size() && line[i + 1] == '/')) return line.substr(0, i);
    }
    return line;
}

struct Token {
    std::string text;
    int column = 0;
    bool equals = false; // the '=' separator
};

std::vector<Token> tokenize(const std::string& s) {
    std::vector<Token> out;
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (std::isspace(c) || c == 0) {
            ++i;
            continue;
        }
        Token t;
        t.column = int(i) + 1;
        if (c == '=') {
            t.text = "=";
            t.equals = true;
            ++i;
        } else if (c == '"') {
            const size_t e = s.find('"', i + 1);
            t.text = s.substr(i + 1, (e == std::string::npos ? s.size() : e) - i - 1);
            i = e == std::string::npos ? s.size() : e + 1;
        } else {
            const size_t b = i;
            while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) && s[i] != '=' && s[i] != 0)
                ++i;
            t.text = s.substr(b, i - b);
        }
        out.push_back(std::move(t));
    }
    return out;
}

// Statements that open a block inside an object (and its modules), outside Draw modules.
bool objectBlockKey(const std::string& k) {
    return ieqAny(k, {"Draw",
                      "Body",
                      "Behavior",
                      "ClientUpdate",
                      "ClientBehavior",
                      "ArmorSet",
                      "WeaponSet",
                      "LocomotorSet",
                      "UnitSpecificSounds",
                      "UnitSpecificFX",
                      "AutoResolveArmor",
                      "AutoResolveWeapon",
                      "ThreatBreakdown",
                      "Prerequisites",
                      "Flammability",
                      "AddModule",
                      "ReplaceModule",
                      "InheritableModule",
                      "OverrideableByLikeKind",
                      "FormationPreviewDecal",
                      "MeleeBehavior"});
}

// Statements that open a block inside a Draw module.
bool drawBlockKey(const std::string& k) {
    return ieqAny(k, {"DefaultModelConditionState", "DefaultConditionState", "ModelConditionState", "ConditionState",
                      "TransitionState", "AnimationState", "IdleAnimationState", "LodOptions"});
}

bool isObjectHeader(const std::string& k) { return ieqAny(k, {"Object", "ChildObject", "ObjectReskin"}); }

struct Builder {
    IniContext& ctx;
    std::vector<IniNode> top;
    std::vector<IniNode> open; // blocks not yet closed, outermost first
    bool inScript = false;
    IniNode script;
    // Budgets of this parse (a file with all it includes; common/text_budgets.h), each refusal reported once.
    size_t statements = 0, includes = 0;
    uint64_t parseBytes = 0, macroBytes = 0;
    bool stopped = false; // kMaxIniStatements reached: the rest of the parse is skipped
    bool includesReported = false, macroBytesReported = false;

    explicit Builder(IniContext& c) : ctx(c) {}

    void append(IniNode&& n) {
        if (open.empty())
            top.push_back(std::move(n));
        else
            open.back().children.push_back(std::move(n));
    }
    void closeOne() {
        IniNode n = std::move(open.back());
        open.pop_back();
        append(std::move(n));
    }
    bool insideDraw() const {
        for (const IniNode& o : open)
            if (ieq(o.key, "Draw")) return true;
        return false;
    }
    bool insideObject() const { return !open.empty() && isObjectHeader(open.front().key); }

    void closeAll(const SourcePos& at, const std::string& why) {
        for (auto it = open.rbegin(); it != open.rend(); ++it)
            ctx.error(errorAt(it->pos, "block " + it->key + " not closed with End (" + why + " at line " +
                                           std::to_string(at.line) + ")"));
        while (!open.empty())
            closeOne();
    }

    bool opensBlock(const IniNode& n, const std::string& nextKey) const {
        if (open.empty()) return true; // top-level definitions are blocks
        if (!insideObject()) {
            // BFME II's FXParticleSystem: its module blocks (System, Color = DefaultColor, EmissionVolume = ...).
            if (open.size() == 1 && ieq(open.front().key, "FXParticleSystem"))
                return ieqAny(n.key, {"System", "Color", "Alpha", "Update", "Physics", "Draw", "EmissionVelocity",
                                      "EmissionVolume", "Wind", "Event"});
            // FXList nuggets: a bare name on its line (ParticleSystem, Sound, ViewShake, ...) up to its End.
            if (open.size() == 1 && ieq(open.front().key, "FXList") && !n.equals && n.values.empty()) return true;
            // Other definitions (Weapon, ...): their nugget blocks.
            const std::string u = upper(n.key);
            return u.size() > 6 && u.compare(u.size() - 6, 6, "NUGGET") == 0;
        }
        if (insideDraw()) {
            if (drawBlockKey(n.key)) return true;
            if (ieq(n.key, "Animation")) {
                const std::string& parent = open.back().key;
                if (ieqAny(parent, {"AnimationState", "IdleAnimationState", "TransitionState"})) return true;
                return ieq(nextKey, "AnimationName");
            }
            return false;
        }
        if (objectBlockKey(n.key)) return true;
        // Turrets of AI update modules (a plain key inside draw states).
        return ieqAny(n.key, {"Turret", "AltTurret"}) && !open.empty() && ieq(open.back().key, "Behavior");
    }

    void statement(const std::vector<Token>& toks, const SourcePos& pos, const std::string& nextKey) {
        if (++statements > budget::kMaxIniStatements) {
            stopped = true;
            ctx.error(errorAt(pos, "more than " + std::to_string(budget::kMaxIniStatements) +
                                       " statements (budget kMaxIniStatements): the rest of the file and its "
                                       "includes are not read"));
            return;
        }
        IniNode n;
        n.key = toks[0].text;
        n.pos = pos;
        n.pos.column = toks[0].column;
        Expansion x;
        for (size_t i = 1; i < toks.size(); ++i) {
            if (toks[i].equals && !n.equals && n.values.empty()) {
                n.equals = true;
                continue;
            }
            SourcePos at = pos;
            at.column = toks[i].column;
            expand(toks[i].text, n.values, at, 0, x);
        }
        if (ieq(n.key, "End")) {
            if (open.empty()) {
                ctx.warnings.add("stray End ignored", pos.str());
                return;
            }
            closeOne();
            return;
        }
        if (ieq(n.key, "BeginScript")) {
            inScript = true;
            script = std::move(n);
            return;
        }
        if (!open.empty() && isObjectHeader(n.key) && !n.equals && !n.values.empty())
            closeAll(n.pos, "next " + n.key + " " + n.values[0]);
        if (opensBlock(n, nextKey)) {
            n.block = true;
            open.push_back(std::move(n));
            if (open.size() > 64) closeAll(pos, "blocks nested deeper than 64");
            return;
        }
        append(std::move(n));
    }

    // Macro expansion of one value: tokens it has produced, and whether a budget stopped it (reported once).
    struct Expansion {
        size_t tokens = 0;
        bool cut = false;      // a budget stopped it: the value's later tokens are kept as written
        bool reported = false; // a cycle was reported for this value
        std::string top;       // the macro of the value being expanded (as written)
    };

    void expand(const std::string& tok, std::vector<std::string>& out, const SourcePos& pos, size_t depth,
                Expansion& x) {
        if (x.cut) {
            if (depth == 0) out.push_back(tok);
            return;
        }
        if (ctx.macros.empty()) {
            out.push_back(tok);
            return;
        }
        const auto it = ctx.macros.find(upper(tok));
        if (it == ctx.macros.end()) {
            out.push_back(tok);
            return;
        }
        if (depth == 0) x.top = tok;
        if (macroBytes > budget::kMaxMacroBytes) { // the parse's budget is spent (reported): left unexpanded
            out.push_back(tok);
            return;
        }
        if (depth >= budget::kMaxMacroDepth) { // reported once a value; the value's expansion stops here
            if (!x.reported)
                ctx.error(errorAt(pos, "macro " + tok + " refers to itself (cycle) or nests deeper than " +
                                           std::to_string(budget::kMaxMacroDepth) +
                                           " (budget kMaxMacroDepth), left unexpanded"));
            x.reported = x.cut = true;
            out.push_back(tok);
            return;
        }
        for (const std::string& v : it->second) {
            if (x.cut) return;
            if (depth > 0 || it->second.size() > 1) {
                // Tokens an expansion adds: within kMaxMacroTokens a value and kMaxMacroBytes a parse.
                if (++x.tokens > budget::kMaxMacroTokens) {
                    x.cut = true;
                    ctx.error(errorAt(pos, "macro " + x.top + " expands to more than " +
                                               std::to_string(budget::kMaxMacroTokens) +
                                               " tokens (budget kMaxMacroTokens): the value is cut there"));
                    return;
                }
                macroBytes += v.size() + 1;
                if (macroBytes > budget::kMaxMacroBytes) {
                    x.cut = true;
                    if (!macroBytesReported)
                        ctx.error(errorAt(pos, "macro expansions of more than " +
                                                   std::to_string(budget::kMaxMacroBytes) +
                                                   " bytes in this file and its includes (budget kMaxMacroBytes): "
                                                   "later macros are left unexpanded"));
                    macroBytesReported = true;
                    return;
                }
            }
            if (upper(v) == it->first) {
                if (!x.reported) ctx.error(errorAt(pos, "macro " + tok + " refers to itself (cycle), left unexpanded"));
                x.reported = true;
                out.push_back(v);
            } else {
                expand(v, out, pos, depth + 1, x);
            }
        }
    }
};

// Resolves an #include path against the folder of `from`; "" when it leaves the mounted folders.
std::string resolveInclude(const std::string& from, const std::string& path) {
    if (path.empty() || path[0] == '/' || path[0] == '\\' || path.find(':') != std::string::npos) return {};
    std::vector<std::string> parts;
    size_t b = 0;
    for (size_t i = 0; i <= from.size(); ++i)
        if (i == from.size() || from[i] == '/') {
            if (i > b) parts.push_back(from.substr(b, i - b));
            b = i + 1;
        }
    if (!parts.empty()) parts.pop_back(); // the file itself
    b = 0;
    for (size_t i = 0; i <= path.size(); ++i)
        if (i == path.size() || path[i] == '/' || path[i] == '\\') {
            const std::string seg = path.substr(b, i - b);
            b = i + 1;
            if (seg.empty() || seg == ".") continue;
            if (seg == "..") {
                if (parts.empty()) return {};
                parts.pop_back();
            } else {
                parts.push_back(seg);
            }
        }
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : "/") + p;
    return vfs::normalizePath(out);
}

// Lines of one file (LF or CRLF) with comments removed, tokenized one at a time: the file is never held as a list of
// lines (a file of one-letter lines would cost a hundred bytes a byte). Lines longer than kMaxIniLineBytes are
// refused by name and skipped.
struct LineReader {
    const char* d;
    size_t size, at = 0;
    int number = 0;
    const std::string& key;
    IniContext& ctx;
    struct Line {
        std::string text;
        std::vector<Token> toks;
        int number = 0;
    };
    // The next line with tokens; false at the end of the file.
    bool next(Line& l) {
        while (at <= size) {
            const char* nl = at < size ? static_cast<const char*>(std::memchr(d + at, '\n', size - at)) : nullptr;
            const size_t i = nl ? size_t(nl - d) : size;
            ++number;
            size_t e = i;
            if (e > at && d[e - 1] == '\r') --e;
            const size_t b = at;
            at = i + 1;
            if (e - b > budget::kMaxIniLineBytes) {
                ctx.error(errorAt(SourcePos{key, number, 1},
                                  "line of " + std::to_string(e - b) + " bytes skipped: longer than " +
                                      std::to_string(budget::kMaxIniLineBytes) + " (budget kMaxIniLineBytes)"));
                continue;
            }
            l.text = stripComment(std::string(d + b, e - b));
            l.toks = tokenize(l.text);
            l.number = number;
            if (!l.toks.empty()) return true;
        }
        return false;
    }
};

void feedFile(Builder& bld, ByteSpan bytes, const std::string& key, std::vector<std::string>& stack) {
    IniContext& ctx = bld.ctx;
    bld.parseBytes += bytes.size;
    // The next statement's key decides bare `Animation`: one line is read ahead.
    LineReader reader{reinterpret_cast<const char*>(bytes.data), bytes.size, 0, 0, key, ctx};
    LineReader::Line l, ahead;
    bool have = reader.next(ahead);
    while (have && !bld.stopped) {
        std::swap(l, ahead);
        have = reader.next(ahead);
        SourcePos pos{key, l.number, l.toks.empty() ? 1 : l.toks[0].column};
        if (bld.inScript) {
            if (!l.toks.empty() && ieq(l.toks[0].text, "EndScript")) {
                bld.inScript = false;
                bld.append(std::move(bld.script));
                bld.script = IniNode();
            } else {
                bld.script.script += l.text + "\n";
            }
            continue;
        }
        const std::string& k = l.toks[0].text;
        if (ieq(k, "#define")) {
            if (l.toks.size() < 2) {
                ctx.error(errorAt(pos, "#define without a name"));
                continue;
            }
            std::vector<std::string> v;
            for (size_t t = 2; t < l.toks.size(); ++t)
                v.push_back(l.toks[t].text);
            ctx.macros[upper(l.toks[1].text)] = std::move(v);
            continue;
        }
        if (ieq(k, "#include")) {
            if (l.toks.size() < 2) {
                ctx.error(errorAt(pos, "#include without a file"));
                continue;
            }
            const std::string& path = l.toks[1].text;
            const std::string target = resolveInclude(key, path);
            if (target.empty()) {
                ctx.error(errorAt(pos, "#include \"" + path + "\" refused: it leaves the mounted folders"));
                continue;
            }
            if (std::find(stack.begin(), stack.end(), target) != stack.end()) {
                std::string chain;
                for (const std::string& s : stack)
                    chain += s + " -> ";
                ctx.error(errorAt(pos, "#include \"" + path + "\" refused: include loop " + chain + target));
                continue;
            }
            if (stack.size() >= ctx.maxIncludeDepth) {
                ctx.error(errorAt(pos, "#include \"" + path + "\" refused: includes nested deeper than " +
                                           std::to_string(ctx.maxIncludeDepth) + " (budget kMaxIniIncludeDepth)"));
                continue;
            }
            // A file included again through other paths (a DAG) is read again each time, within these budgets.
            if (++bld.includes > budget::kMaxIniIncludes) {
                if (!bld.includesReported)
                    ctx.error(errorAt(pos, "#include \"" + path + "\" refused: more than " +
                                               std::to_string(budget::kMaxIniIncludes) + " inclusions from " +
                                               stack.front() +
                                               " (budget kMaxIniIncludes); later #include lines are skipped"));
                else
                    ctx.warnings.add("#include skipped: budget kMaxIniIncludes reached", pos.str());
                bld.includesReported = true;
                continue;
            }
            const vfs::Hit* hit = ctx.table ? ctx.table->find(target) : nullptr;
            if (!hit) {
                ctx.error(errorAt(pos, "#include \"" + path + "\": " + target + " not found"));
                continue;
            }
            const uint64_t size = ctx.table->entry(*hit).size;
            if (size > budget::kMaxIniFileBytes) {
                ctx.error(errorAt(pos, "#include \"" + path + "\" refused: " + target + " has " + std::to_string(size) +
                                           " bytes, more than " + std::to_string(budget::kMaxIniFileBytes) +
                                           " (budget kMaxIniFileBytes)"));
                continue;
            }
            if (bld.parseBytes + size > budget::kMaxIniParseBytes) {
                ctx.error(errorAt(pos, "#include \"" + path + "\" refused: " + stack.front() +
                                           " and its includes would pass " + std::to_string(budget::kMaxIniParseBytes) +
                                           " bytes (budget kMaxIniParseBytes)"));
                continue;
            }
            vfs::EntryBytes eb;
            try {
                eb = ctx.table->read(*hit);
            } catch (const ParseError& e) {
                ctx.error(e);
                continue;
            }
            if (eb.span.size > budget::kMaxIniFileBytes) { // grew since it was listed
                ctx.error(errorAt(pos, "#include \"" + path + "\" refused: " + target + " is larger than " +
                                           std::to_string(budget::kMaxIniFileBytes) +
                                           " bytes (budget kMaxIniFileBytes)"));
                continue;
            }
            if (ctx.includedSet.insert(target).second) ctx.included.push_back(target);
            stack.push_back(target);
            feedFile(bld, eb.span, target, stack);
            stack.pop_back();
            continue;
        }
        std::string nextKey;
        if (have) nextKey = ahead.toks[0].text;
        bld.statement(l.toks, pos, nextKey);
    }
}

} // namespace

void IniContext::error(const ParseError& e) {
    if (errors.size() < maxErrors)
        errors.push_back(e.what());
    else
        warnings.add("further INI errors not listed");
}

bool keyIs(const IniNode& n, const char* key) { return ieq(n.key, key); }

std::vector<IniNode> parseIni(ByteSpan bytes, const std::string& key, IniContext& ctx) {
    if (bytes.size > budget::kMaxIniFileBytes) {
        ctx.error(
            errorAt(SourcePos{key, 0, 0}, "INI file of " + std::to_string(bytes.size) + " bytes refused: more than " +
                                              std::to_string(budget::kMaxIniFileBytes) + " (budget kMaxIniFileBytes)"));
        return {};
    }
    Builder bld(ctx);
    std::vector<std::string> stack{key};
    feedFile(bld, bytes, key, stack);
    SourcePos end{key, 0, 0};
    if (bld.inScript) {
        ctx.error(errorAt(bld.script.pos, "BeginScript not closed with EndScript before the end of the file"));
        bld.inScript = false;
        bld.append(std::move(bld.script));
    }
    if (!bld.open.empty()) bld.closeAll(end, "end of file");
    return std::move(bld.top);
}

void readIniDefines(ByteSpan bytes, const std::string& key, IniContext& ctx) {
    if (bytes.size > budget::kMaxIniFileBytes) {
        ctx.error(
            errorAt(SourcePos{key, 0, 0}, "INI file of " + std::to_string(bytes.size) + " bytes refused: more than " +
                                              std::to_string(budget::kMaxIniFileBytes) + " (budget kMaxIniFileBytes)"));
        return;
    }
    const char* d = reinterpret_cast<const char*>(bytes.data);
    size_t b = 0;
    int number = 0;
    for (size_t i = 0; i <= bytes.size; ++i) {
        if (i < bytes.size && d[i] != '\n') continue;
        ++number;
        size_t s = b;
        while (s < i && (d[s] == ' ' || d[s] == '\t'))
            ++s;
        if (i - s > 7 && (d[s + 1] == 'd' || d[s + 1] == 'D') && d[s] == '#') {
            const auto toks = tokenize(stripComment(std::string(d + s, i - s)));
            if (toks.size() >= 2 && ieq(toks[0].text, "#define")) {
                std::vector<std::string> v;
                for (size_t t = 2; t < toks.size(); ++t)
                    v.push_back(toks[t].text);
                ctx.macros[upper(toks[1].text)] = std::move(v);
            }
        }
        b = i + 1;
    }
    (void)key;
}

void scriptSubObjects(const std::string& script, std::vector<std::string>& hidden, std::vector<std::string>& shown) {
    const std::string u = upper(script);
    static const char* kPrefix = "CURDRAWABLE";
    size_t at = 0;
    while ((at = u.find(kPrefix, at)) != std::string::npos) {
        size_t p = at + std::strlen(kPrefix);
        at = p;
        bool hide;
        if (u.compare(p, 4, "HIDE") == 0)
            hide = true;
        else if (u.compare(p, 4, "SHOW") == 0)
            hide = false;
        else
            continue;
        p += 4;
        if (u.compare(p, 9, "SUBOBJECT") != 0) continue;
        p += 9;
        if (u.compare(p, 11, "PERMANENTLY") == 0) p += 11;
        while (p < u.size() && (u[p] == ' ' || u[p] == '\t'))
            ++p;
        if (p >= u.size() || u[p] != '(') continue;
        const size_t q1 = u.find('"', p);
        if (q1 == std::string::npos) continue;
        const size_t q2 = u.find('"', q1 + 1);
        if (q2 == std::string::npos) continue;
        const std::string name = script.substr(q1 + 1, q2 - q1 - 1);
        auto& list = hide ? hidden : shown;
        if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
        at = q2;
    }
}

namespace {

std::vector<std::string> flagsOf(const std::vector<std::string>& values) {
    std::vector<std::string> out;
    for (const std::string& v : values) {
        const std::string u = upper(v);
        if (u == "NONE") continue;
        if (std::find(out.begin(), out.end(), u) == out.end()) out.push_back(u);
    }
    return out;
}

std::string joined(const std::vector<std::string>& v, size_t from = 0) {
    std::string s;
    for (size_t i = from; i < v.size(); ++i)
        s += (s.empty() ? "" : " ") + v[i];
    return s;
}

void splitAnimationName(AnimationRef& a, const std::vector<std::string>& values) {
    if (values.empty()) return;
    a.name = values[0];
    const size_t dot = a.name.find('.');
    if (dot == std::string::npos)
        a.clip = a.name;
    else
        a.hierarchy = a.name.substr(0, dot), a.clip = a.name.substr(dot + 1);
    auto num = [](const std::string& s, int& out) {
        if (s.empty() || s.size() > 9) return false;
        for (char c : s)
            if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        out = std::stoi(s);
        return true;
    };
    if (values.size() >= 3) {
        int f = 0, l = 0;
        if (num(values[1], f) && num(values[2], l)) a.firstFrame = f, a.lastFrame = l;
    }
}

void readStateBody(const IniNode& n, DrawState& s) {
    std::string stateMode;
    int statePriority = -1;
    for (const IniNode& c : n.children) {
        if (keyIs(c, "Model") && !c.values.empty()) {
            s.model = c.values[0];
            s.modelFromDefault = false;
        } else if (keyIs(c, "Texture") && c.values.size() >= 2) {
            s.textureSwaps.emplace_back(c.values[0], c.values[1]);
        } else if (keyIs(c, "HideSubObject") || keyIs(c, "ShowSubObject")) {
            auto& list = keyIs(c, "HideSubObject") ? s.hidden : s.shown;
            for (const std::string& v : c.values)
                if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
        } else if (keyIs(c, "ParticleSysBone")) {
            s.particleSysBones.push_back(joined(c.values));
            s.particleSysBonePos.push_back(c.pos);
        } else if (keyIs(c, "Flags")) {
            for (const std::string& v : c.values)
                s.flags.push_back(upper(v));
        } else if (keyIs(c, "StateName") && !c.values.empty()) {
            s.stateName = c.values[0];
        } else if (keyIs(c, "AnimationMode") && !c.values.empty()) {
            stateMode = upper(c.values[0]);
        } else if (keyIs(c, "AnimationPriority") && !c.values.empty()) {
            try {
                statePriority = std::stoi(c.values[0]);
            } catch (...) {
            }
        } else if (keyIs(c, "Animation") || keyIs(c, "IdleAnimation")) {
            AnimationRef a;
            a.pos = c.pos;
            if (c.block) {
                a.blockName = joined(c.values);
                for (const IniNode& g : c.children) {
                    if (keyIs(g, "AnimationName"))
                        splitAnimationName(a, g.values);
                    else if (keyIs(g, "AnimationMode") && !g.values.empty())
                        a.mode = upper(g.values[0]);
                    else if (keyIs(g, "AnimationPriority") && !g.values.empty())
                        try {
                            a.priority = std::stoi(g.values[0]);
                        } catch (...) {
                        }
                }
            } else {
                splitAnimationName(a, c.values);
            }
            if (!a.name.empty()) s.animations.push_back(std::move(a));
        } else if (!c.script.empty() || keyIs(c, "BeginScript")) {
            scriptSubObjects(c.script, s.hidden, s.shown);
        }
    }
    for (AnimationRef& a : s.animations) {
        if (a.mode.empty()) a.mode = stateMode;
        if (a.priority < 0) a.priority = statePriority;
    }
}

} // namespace

const char* drawStateKindName(DrawState::Kind k) {
    switch (k) {
    case DrawState::Kind::Default:
        return "default";
    case DrawState::Kind::Model:
        return "model";
    case DrawState::Kind::Idle:
        return "idle";
    case DrawState::Kind::Animation:
        return "animation";
    case DrawState::Kind::Transition:
        return "transition";
    }
    return "";
}

DrawModule readDrawModule(const IniNode& draw) {
    DrawModule m;
    m.pos = draw.pos;
    if (!draw.values.empty()) m.type = draw.values[0];
    if (draw.values.size() > 1) m.tag = draw.values[1];
    int defaultIndex = -1;
    for (const IniNode& c : draw.children) {
        if (keyIs(c, "StaticModelLODMode")) {
            m.staticModelLod = !c.values.empty() && ieqAny(c.values[0], {"yes", "true", "1"});
            continue;
        }
        if (keyIs(c, "ExtraPublicBone")) {
            for (const std::string& v : c.values)
                m.extraPublicBones.push_back(v);
            continue;
        }
        if (keyIs(c, "IgnoreConditionStates")) {
            m.ignoreConditionStates = flagsOf(c.values);
            continue;
        }
        if (keyIs(c, "ModelName") && !c.values.empty()) {
            // W3DFloorDraw and similar single-model draws: one default state.
            DrawState s;
            s.kind = DrawState::Kind::Default;
            s.flagSets = {{}};
            s.model = c.values[0];
            s.pos = c.pos;
            if (defaultIndex < 0) defaultIndex = int(m.states.size());
            m.states.push_back(std::move(s));
            continue;
        }
        if (keyIs(c, "AliasConditionState")) {
            for (auto it = m.states.rbegin(); it != m.states.rend(); ++it)
                if (it->kind == DrawState::Kind::Model) {
                    it->flagSets.push_back(flagsOf(c.values));
                    break;
                }
            continue;
        }
        if (!c.block) continue;
        DrawState s;
        s.pos = c.pos;
        if (keyIs(c, "DefaultModelConditionState") || keyIs(c, "DefaultConditionState")) {
            s.kind = DrawState::Kind::Default;
            s.flagSets = {{}};
        } else if (keyIs(c, "ModelConditionState") || keyIs(c, "ConditionState")) {
            s.kind = DrawState::Kind::Model;
            s.flagSets = {flagsOf(c.values)};
        } else if (keyIs(c, "IdleAnimationState")) {
            s.kind = DrawState::Kind::Idle;
            s.flagSets = {{}};
        } else if (keyIs(c, "AnimationState")) {
            s.kind = DrawState::Kind::Animation;
            s.flagSets = {flagsOf(c.values)};
        } else if (keyIs(c, "TransitionState")) {
            s.kind = DrawState::Kind::Transition;
            s.stateName = joined(c.values);
        } else {
            continue;
        }
        // W3DModelDrawModuleData::parseConditionState: a ConditionState (and a TransitionState) starts as a copy
        // of the DefaultConditionState.
        if ((s.kind == DrawState::Kind::Model || s.kind == DrawState::Kind::Transition) && defaultIndex >= 0) {
            const DrawState& d = m.states[size_t(defaultIndex)];
            s.model = d.model;
            s.modelFromDefault = !d.model.empty();
            s.textureSwaps = d.textureSwaps;
            s.hidden = d.hidden;
            s.shown = d.shown;
        }
        readStateBody(c, s);
        if (s.kind == DrawState::Kind::Default && defaultIndex < 0) defaultIndex = int(m.states.size());
        m.states.push_back(std::move(s));
    }
    return m;
}

int selectState(const DrawModule& m, const std::vector<std::string>& flags, bool animationStates) {
    std::vector<std::string> query;
    for (const std::string& f : flags) {
        const std::string u = upper(f);
        if (std::find(m.ignoreConditionStates.begin(), m.ignoreConditionStates.end(), u) !=
            m.ignoreConditionStates.end())
            continue;
        if (std::find(query.begin(), query.end(), u) == query.end()) query.push_back(u);
    }
    int result = -1, bestYes = 0, bestExtra = 999;
    for (size_t i = 0; i < m.states.size(); ++i) {
        const DrawState& s = m.states[i];
        const bool competes = animationStates
                                  ? (s.kind == DrawState::Kind::Animation || s.kind == DrawState::Kind::Idle)
                                  : (s.kind == DrawState::Kind::Model || s.kind == DrawState::Kind::Default);
        if (!competes) continue;
        for (size_t k = s.flagSets.size(); k-- > 0;) {
            const auto& set = s.flagSets[k];
            int yes = 0, extra = 0;
            for (const std::string& f : set)
                (std::find(query.begin(), query.end(), f) != query.end() ? yes : extra)++;
            if (yes > bestYes || (yes >= bestYes && extra < bestExtra)) {
                result = int(i);
                bestYes = yes;
                bestExtra = extra;
            }
        }
    }
    return result;
}

std::vector<const Ref*> AssembledObject::unresolved() const {
    std::vector<const Ref*> out;
    for (const Ref& r : refs)
        if (!r.found && !r.optional) out.push_back(&r);
    return out;
}

} // namespace rs::objects
