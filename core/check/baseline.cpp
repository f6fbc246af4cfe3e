#include "check/baseline.h"

#include "common/error.h"
#include "common/text_position.h"
#include "vfs/mount.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace rs::check {

namespace {

std::string upper(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string digitsAsHash(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (std::isdigit(static_cast<unsigned char>(s[i]))) {
            out += '#';
            while (i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))
                ++i;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string lineColumn(const std::string& text, size_t offset) {
    const TextPosition p = textPositionOf(text, offset);
    return "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
}

// Parses JSON refusing nesting deeper than 32 before nlohmann builds a tree; errors name the file, line, column.
nlohmann::json parseJson(const std::string& text, const std::string& file, size_t maxBytes) {
    if (text.size() > maxBytes)
        throw ParseError(file, {}, ParseError::kNoOffset,
                         std::to_string(text.size()) + " bytes, more than " + std::to_string(maxBytes));
    if (const size_t deep = jsonTooDeepAt(text, 32); deep != std::string_view::npos)
        throw ParseError(file, {}, ParseError::kNoOffset, lineColumn(text, deep) + ": nested deeper than 32");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw ParseError(file, {}, ParseError::kNoOffset,
                         lineColumn(text, e.byte ? e.byte - 1 : 0) + ": not valid JSON (" + e.what() + ")");
    }
}

// Line of the n-th occurrence of `"key"` in text (1-based), 0 when not found: where a rule is, for messages.
int lineOfNth(const std::string& text, const std::string& needle, size_t n) {
    size_t pos = 0;
    for (size_t k = 0; k <= n; ++k) {
        pos = text.find(needle, k ? pos + 1 : 0);
        if (pos == std::string::npos) return 0;
    }
    int line = 1;
    for (size_t i = 0; i < pos; ++i)
        line += text[i] == '\n';
    return line;
}

bool globAnyCase(const std::string& pattern, const std::string& value) {
    return vfs::globMatch(upper(pattern), upper(value));
}

} // namespace

std::string portableFile(const Finding& f, const std::string& cwd) {
    if (!f.key.empty()) return f.key;
    std::error_code ec;
    const fs::path base = cwd.empty() ? fs::current_path(ec) : fs::path(cwd);
    const fs::path p = fs::absolute(fs::path(f.file), ec).lexically_normal();
    if (!ec) {
        const fs::path rel = p.lexically_relative(base.lexically_normal());
        if (!rel.empty() && rel.native().rfind("..", 0) != 0) return rel.generic_string();
    }
    return f.file;
}

std::string fingerprint(const Finding& f, const std::string& cwd) {
    const Location& l = f.where;
    std::string s = f.id + "|" + portableFile(f, cwd) + "|" + l.chunk + "|" + l.mesh + "|" +
                    (l.subMesh >= 0 ? std::to_string(l.subMesh) : std::string()) + "|" + l.bone + "|" + l.material +
                    "|" + l.object + "|" + f.subject + "|" + digitsAsHash(f.message);
    return s;
}

std::string writeBaseline(const Report& r, const std::string& cwd) {
    nlohmann::json j;
    j["schema"] = "rigscope-baseline/1";
    j["findings"] = nlohmann::json::array();
    for (const Finding& f : r.findings)
        j["findings"].push_back({{"id", f.id},
                                 {"level", levelName(f.level)},
                                 {"file", portableFile(f, cwd)},
                                 {"fingerprint", fingerprint(f, cwd)},
                                 {"message", f.message}});
    // Invalid UTF-8 in a message (a CP-1252 file name) is replaced, not refused.
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<BaselineEntry> readBaseline(const std::string& text, const std::string& file) {
    const nlohmann::json j = parseJson(text, file, kMaxBaselineBytes);
    if (!j.is_object() || j.value("schema", std::string()) != "rigscope-baseline/1")
        throw ParseError(file, {}, ParseError::kNoOffset,
                         "not a rigscope baseline (\"schema\": \"rigscope-baseline/1\")");
    const auto it = j.find("findings");
    if (it == j.end() || !it->is_array()) throw ParseError(file, {}, ParseError::kNoOffset, "no \"findings\" list");
    std::vector<BaselineEntry> out;
    size_t n = 0;
    for (const auto& e : *it) {
        ++n;
        const auto fp = e.is_object() ? e.find("fingerprint") : e.end();
        if (!e.is_object() || fp == e.end() || !fp->is_string())
            throw ParseError(file, {}, ParseError::kNoOffset,
                             "line " + std::to_string(lineOfNth(text, "{", n)) + ": finding " + std::to_string(n) +
                                 " has no \"fingerprint\" string");
        auto str = [&](const char* k) {
            const auto v = e.find(k);
            return v != e.end() && v->is_string() ? v->get<std::string>() : std::string();
        };
        out.push_back({str("id"), str("level"), str("file"), fp->get<std::string>(), str("message")});
    }
    return out;
}

Compared compareWithBaseline(const Report& r, const std::vector<BaselineEntry>& baseline, const std::string& cwd) {
    Compared c;
    std::map<std::string, std::vector<size_t>> left; // fingerprint -> baseline entries not matched yet
    for (size_t i = 0; i < baseline.size(); ++i)
        left[baseline[i].fingerprint].push_back(i);
    c.state.reserve(r.findings.size());
    for (const Finding& f : r.findings) {
        auto it = left.find(fingerprint(f, cwd));
        if (it != left.end() && !it->second.empty()) {
            it->second.pop_back();
            c.state.push_back(BaselineState::Unchanged);
            ++c.unchangedCount;
        } else {
            c.state.push_back(BaselineState::New);
            ++c.newCount;
        }
    }
    for (const auto& [fp, idx] : left)
        for (size_t i : idx)
            c.absent.push_back(baseline[i]);
    return c;
}

std::vector<Suppression> readSuppressions(const std::string& text, const std::string& file) {
    const nlohmann::json j = parseJson(text, file, kMaxSuppressionBytes);
    const auto it = j.is_object() ? j.find("suppress") : j.end();
    if (it == j.end() || !it->is_array())
        throw ParseError(file, {}, ParseError::kNoOffset, "no \"suppress\" list (see docs/CHECKS.md)");
    std::vector<Suppression> out;
    size_t n = 0;
    for (const auto& e : *it) {
        const int line = lineOfNth(text, "{", n + 1); // the rule's '{' (the file's own '{' is the 0th)
        ++n;
        const std::string where = "line " + std::to_string(line) + ": rule " + std::to_string(n);
        if (!e.is_object()) throw ParseError(file, {}, ParseError::kNoOffset, where + " is not an object");
        Suppression s;
        s.line = line;
        s.source = file;
        for (const auto& [k, v] : e.items()) {
            if (!v.is_string())
                throw ParseError(file, {}, ParseError::kNoOffset, where + ": \"" + k + "\" is not a string");
            if (k == "id")
                s.id = v.get<std::string>();
            else if (k == "file")
                s.file = v.get<std::string>();
            else if (k == "object")
                s.object = v.get<std::string>();
            else if (k == "reason")
                s.reason = v.get<std::string>();
            else
                throw ParseError(file, {}, ParseError::kNoOffset, where + ": unknown field \"" + k + "\"");
        }
        if (s.reason.empty())
            throw ParseError(file, {}, ParseError::kNoOffset, where + ": no \"reason\" (every suppression says why)");
        if (s.id.empty() && s.file.empty() && s.object.empty())
            throw ParseError(file, {}, ParseError::kNoOffset, where + ": names no id, file or object");
        if ((s.id == "*" || s.id.empty()) && (s.file == "*" || s.file.empty()) && s.object.empty())
            throw ParseError(file, {}, ParseError::kNoOffset, where + ": would suppress every finding");
        out.push_back(std::move(s));
    }
    return out;
}

const Suppression* suppressedBy(const Finding& f, const std::vector<Suppression>& rules) {
    for (const Suppression& s : rules) {
        if (!s.id.empty() && !globAnyCase(s.id, f.id)) continue;
        if (!s.file.empty() &&
            !(globAnyCase(s.file, f.key) || globAnyCase(s.file, f.file) || globAnyCase(s.file, portableFile(f))))
            continue;
        if (!s.object.empty() && !globAnyCase(s.object, f.where.object)) continue;
        return &s;
    }
    return nullptr;
}

} // namespace rs::check
