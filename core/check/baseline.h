// Checks that CI can live with (no Qt): a baseline of the findings a mod has lived with, so that a check fails only
// on new ones, and suppressions the mod ships with their reasons.
//
// Baseline file (`rigscope-cli check --baseline-write FILE`), JSON:
//   {"schema": "rigscope-baseline/1",
//    "findings": [{"id": ..., "level": ..., "file": ..., "fingerprint": ..., "message": ...}, ...]}
// A finding matches a baseline entry with the same fingerprint: its id, its file (the game path when it has one,
// else the path relative to the folder the check ran in) and its location without line, column or byte offset
// (chunk, mesh, sub-mesh, bone, material, object), its subject, and its message with every run of digits read as
// one '#': a finding whose line moved, or whose count changed, is the same finding. Fingerprints are counted: when
// a file has three equal findings and the baseline two, one is new.
//
// Suppressions file (rigscope-check.json at the top of a mounted mod or a checked folder, or --suppressions FILE):
//   {"suppress": [{"id": "unref.*", "file": "DATA/ART/TEXTURES/W_*.DDS", "object": "X", "reason": "why"}, ...]}
// Each rule names at least one of id, file, object (globs: '*' and '?', any case; "file" is matched against the
// game path and the path on disk) and must give a reason; a finding that every field of a rule matches is
// suppressed with that reason. Malformed files are refused naming the file with line and column.
#pragma once

#include "check/check.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rs::check {

constexpr size_t kMaxBaselineBytes = size_t(64) << 20;
constexpr size_t kMaxSuppressionBytes = size_t(1) << 20;

// The fingerprint described above. `cwd`: the folder paths are made relative to ("" for the current one).
std::string fingerprint(const Finding& f, const std::string& cwd = {});
// The file part of the fingerprint: the game path, else relative to `cwd` when below it, else as given.
std::string portableFile(const Finding& f, const std::string& cwd = {});

struct BaselineEntry {
    std::string id, level, file, fingerprint, message;
};
std::string writeBaseline(const Report& r, const std::string& cwd = {});
// Throws ParseError naming `file` (line, column) when it is not a baseline.
std::vector<BaselineEntry> readBaseline(const std::string& text, const std::string& file);

enum class BaselineState { None, New, Unchanged };
struct Compared {
    std::vector<BaselineState> state;  // per finding of the report, in order
    std::vector<BaselineEntry> absent; // baseline entries no finding matched (fixed since)
    size_t newCount = 0, unchangedCount = 0;
};
Compared compareWithBaseline(const Report& r, const std::vector<BaselineEntry>& baseline, const std::string& cwd = {});

struct Suppression {
    std::string id, file, object, reason;
    int line = 0; // where the rule is in its file
    std::string source;
};
// Throws ParseError naming `file` when it is malformed or a rule has no reason or matches everything.
std::vector<Suppression> readSuppressions(const std::string& text, const std::string& file);
// The rule that suppresses `f`, null when none.
const Suppression* suppressedBy(const Finding& f, const std::vector<Suppression>& rules);

} // namespace rs::check
