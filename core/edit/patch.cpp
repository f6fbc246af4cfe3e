// Patch files (docs/EDITING.md): JSON read with nlohmann-json after a bounded pre-scan (size, nesting), every
// field checked; errors name the file and line:column (syntax) or the edit's index and field (content).
#include "common/text_position.h"
#include "edit/edits.h"

#include "common/cp1252.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>

namespace rs::edit {

namespace {

constexpr size_t kMaxPatchBytes = 16u << 20;
constexpr int kMaxDepth = 16;
constexpr size_t kMaxEdits = 100000;

std::string lineColumn(const std::string& text, size_t offset) {
    const TextPosition p = textPositionOf(text, offset);
    return std::to_string(p.line) + ":" + std::to_string(p.column);
}

const std::map<std::string, EditOp::Kind>& opNames() {
    static const std::map<std::string, EditOp::Kind> m = {
        {"rename-texture", EditOp::Kind::RenameTexture},
        {"shader", EditOp::Kind::SetShader},
        {"set", EditOp::Kind::SetParam},
        {"rename-bone", EditOp::Kind::RenameBone},
        {"bone-visible", EditOp::Kind::SetBoneVisible},
        {"bone-billboard", EditOp::Kind::SetBoneBillboard},
        {"mesh-hidden", EditOp::Kind::SetMeshHidden},
        {"mesh-collision", EditOp::Kind::SetMeshCollision},
        {"mesh-two-sided", EditOp::Kind::SetMeshTwoSided},
        {"proxy-target", EditOp::Kind::SetProxyTarget},
        {"proxy-hidden", EditOp::Kind::SetProxyHidden},
        {"light-color", EditOp::Kind::SetLightColor},
        {"light-intensity", EditOp::Kind::SetLightIntensity},
        {"dazzle-color", EditOp::Kind::SetDazzleColor},
        {"dazzle-rate", EditOp::Kind::SetDazzleRate},
        {"clip-rate", EditOp::Kind::SetClipRate},
        {"clip-rename", EditOp::Kind::RenameClip},
        {"clip-trim", EditOp::Kind::TrimClip},
    };
    return m;
}

} // namespace

Patch parsePatch(const std::string& text, const std::string& label) {
    if (text.size() > kMaxPatchBytes)
        throw EditError(label + ": a patch file larger than " + std::to_string(kMaxPatchBytes) + " bytes");
    // Nesting bounded before the parser (which recurses) sees the text.
    if (const size_t deep = jsonTooDeepAt(text, kMaxDepth); deep != std::string_view::npos)
        throw EditError(label + ":" + lineColumn(text, deep) + ": nested deeper than " + std::to_string(kMaxDepth) +
                        " levels");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 2, column 22: syntax error ...": the reason only
        // (the place is given as FILE:LINE:COLUMN, the end of the token the parser refused).
        const size_t column = what.find(", column ");
        const size_t colon = column == std::string::npos ? std::string::npos : what.find(": ", column);
        if (colon != std::string::npos) what = what.substr(colon + 2);
        throw EditError(label + ":" + lineColumn(text, e.byte ? e.byte - 1 : 0) + ": " + what);
    }
    auto bad = [&](const std::string& where, const std::string& what) {
        return EditError(label + ": " + where + ": " + what);
    };
    if (!j.is_object()) throw bad("top level", "a patch is a JSON object {\"edits\": [...]}");
    Patch p;
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "edits" && it.key() != "files" && it.key() != "comment")
            throw bad("top level", "unknown field \"" + it.key() + "\" (edits, files, comment)");
    if (j.contains("files")) {
        const auto& f = j["files"];
        if (!f.is_array()) throw bad("files", "a list of file names or globs");
        for (size_t i = 0; i < f.size(); ++i) {
            if (!f[i].is_string()) throw bad("files[" + std::to_string(i) + "]", "a file name or glob (a string)");
            p.files.push_back(f[i].get<std::string>());
        }
    }
    if (!j.contains("edits") || !j["edits"].is_array()) throw bad("edits", "a list of edits is needed");
    const auto& edits = j["edits"];
    if (edits.size() > kMaxEdits) throw bad("edits", "more than " + std::to_string(kMaxEdits) + " edits");
    for (size_t i = 0; i < edits.size(); ++i) {
        const std::string where = "edits[" + std::to_string(i) + "]";
        const auto& e = edits[i];
        if (!e.is_object()) throw bad(where, "an edit is an object {\"op\": ...}");
        if (!e.contains("op") || !e["op"].is_string()) throw bad(where, "\"op\" (a string) is needed");
        const std::string opName = e["op"].get<std::string>();
        const auto k = opNames().find(opName);
        if (k == opNames().end()) {
            std::string names;
            for (const auto& [n, kind] : opNames())
                names += (names.empty() ? "" : ", ") + n;
            throw bad(where, "unknown op \"" + opName + "\" (" + names + ")");
        }
        EditOp op;
        op.kind = k->second;
        const bool rename = op.kind == EditOp::Kind::RenameTexture || op.kind == EditOp::Kind::RenameBone;
        // The fields each op takes.
        auto text = [&](const char* field, bool required, std::string& out) {
            if (!e.contains(field)) {
                if (required) throw bad(where, "\"" + std::string(field) + "\" is needed by " + opName);
                return;
            }
            const auto& v = e[field];
            std::string s;
            if (v.is_string()) {
                s = v.get<std::string>();
            } else if (v.is_boolean()) {
                s = v.get<bool>() ? "1" : "0";
            } else if (v.is_number_integer()) {
                s = std::to_string(v.get<int64_t>());
            } else if (v.is_number()) {
                const double d = v.get<double>();
                if (!std::isfinite(d)) throw bad(where, std::string(field) + ": not a finite number");
                char b[32];
                std::snprintf(b, sizeof b, "%.9g", d);
                s = b;
            } else if (v.is_array()) {
                for (size_t n = 0; n < v.size(); ++n) {
                    if (!v[n].is_number())
                        throw bad(where, std::string(field) + ": a list of numbers, got " + v[n].dump());
                    char b[32];
                    std::snprintf(b, sizeof b, "%.9g", v[n].get<double>());
                    s += (n ? " " : "") + std::string(b);
                }
            } else {
                throw bad(where, std::string(field) + ": a string, number, boolean or list of numbers");
            }
            if (!utf8ToCp1252(s, out))
                throw bad(where, std::string(field) + ": text the games' files cannot hold (CP-1252)");
        };
        for (auto f = e.begin(); f != e.end(); ++f) {
            const std::string& key = f.key();
            const bool ok =
                key == "op" || key == "comment" || (rename && (key == "from" || key == "to")) ||
                (op.kind == EditOp::Kind::SetShader && (key == "target" || key == "from" || key == "to")) ||
                (op.kind == EditOp::Kind::SetParam && (key == "target" || key == "param" || key == "value")) ||
                (op.kind == EditOp::Kind::TrimClip && (key == "first" || key == "last")) ||
                (!rename && op.kind != EditOp::Kind::SetShader && op.kind != EditOp::Kind::SetParam &&
                 op.kind != EditOp::Kind::TrimClip && (key == "target" || key == "value"));
            if (!ok) throw bad(where, "unknown field \"" + key + "\" for " + opName);
        }
        if (rename) {
            text("from", true, op.name);
            text("to", true, op.value);
            if (op.name.empty() || op.value.empty()) throw bad(where, "\"from\" and \"to\" must not be empty");
        } else if (op.kind == EditOp::Kind::SetShader) {
            text("target", false, op.target);
            text("from", false, op.name);
            text("to", true, op.value);
        } else if (op.kind == EditOp::Kind::SetParam) {
            text("target", false, op.target);
            text("param", true, op.name);
            text("value", true, op.value);
        } else if (op.kind == EditOp::Kind::TrimClip) {
            // Frames kept, from 0, inclusive: whole numbers that fit 32 bits.
            auto frame = [&](const char* field, uint32_t& out) {
                if (!e.contains(field) || !e[field].is_number_integer() || e[field].get<int64_t>() < 0 ||
                    e[field].get<int64_t>() > int64_t(UINT32_MAX))
                    throw bad(where, "\"" + std::string(field) + "\" (a frame number from 0) is needed by " + opName);
                out = uint32_t(e[field].get<int64_t>());
            };
            frame("first", op.first);
            frame("last", op.last);
            if (op.first > op.last) throw bad(where, "\"first\" is after \"last\"");
        } else {
            text("target", op.kind != EditOp::Kind::SetClipRate && op.kind != EditOp::Kind::RenameClip, op.target);
            text("value", true, op.value);
        }
        p.ops.push_back(std::move(op));
    }
    return p;
}

} // namespace rs::edit
