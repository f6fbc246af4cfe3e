// rigscope-cli check: the asset checker (core/check) over the --game/--mod mount or the files and folders given.
//   check [--game DIR]... [--mod DIR]... [PATH...] [--json | --sarif FILE] [--fail-on error|warning|info]
//         [--threads N] [--no-unreferenced] [--baseline FILE | --baseline-write FILE] [--suppressions FILE]
// --baseline-write FILE records today's findings; --baseline FILE marks each finding new or unchanged (docs/CHECKS.md
// "Baselines") and only new ones count for --fail-on. Suppressions (rigscope-check.json at the top of each mounted
// mod and checked folder, and --suppressions FILE) mark the findings they match with their reason; those never count.
// Text: one line per finding, "LEVEL ID FILE[: LOCATION]: MESSAGE", then a summary on stderr (and, for mods
// checked without their game, how many references were left to it: ref.base-game). --json: the document
// of docs/CHECKS.md on stdout. --sarif FILE: SARIF 2.1.0 written to FILE (text still on stdout). On a terminal a
// progress line is drawn on stderr when checking takes longer than a second.
// Exit status: 0 nothing at or above --fail-on (default error), 1 something is, 2 usage errors.
#include "check/baseline.h"
#include "check/check.h"
#include "commands.h"
#include "common/file_read.h"

#include "common/file_write.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <unistd.h>

namespace rs::cli {

using namespace rs::check;

namespace {

void writeLocation(Json& j, const Location& l) {
    j.key("location").beginObject();
    if (!l.chunk.empty()) j.kv("chunk", l.chunk);
    if (l.hasOffset()) j.kv("offset", l.offset);
    if (l.line) j.kv("line", l.line);
    if (l.column) j.kv("column", l.column);
    if (!l.mesh.empty()) j.kv("mesh", l.mesh);
    if (l.subMesh >= 0) j.kv("subMesh", l.subMesh);
    if (!l.bone.empty()) j.kv("bone", l.bone);
    if (!l.material.empty()) j.kv("material", l.material);
    if (!l.object.empty()) j.kv("object", l.object);
    j.endObject();
}

// Per finding: its baseline state (None without --baseline) and the suppression that matches it (null when none).
struct Marks {
    std::vector<BaselineState> state;
    std::vector<const Suppression*> suppressed;
    std::vector<BaselineEntry> absent;
    bool baseline = false;
    BaselineState at(size_t i) const { return i < state.size() ? state[i] : BaselineState::None; }
    const Suppression* sup(size_t i) const { return i < suppressed.size() ? suppressed[i] : nullptr; }
};
const char* stateName(BaselineState s) {
    return s == BaselineState::New ? "new" : s == BaselineState::Unchanged ? "unchanged" : "";
}

std::string jsonReport(const Report& r, const std::vector<std::string>& roots, const Marks& marks) {
    Json j;
    j.beginObject().kv("schema", "rigscope-check/1").kv("version", RIGSCOPE_VERSION);
    j.key("roots").beginArray();
    for (const auto& s : roots)
        j.value(Json::Path{s});
    j.endArray();
    j.key("summary")
        .beginObject()
        .kv("files", uint64_t(r.files))
        .kv("bytes", r.bytes)
        .kv("seconds", r.seconds)
        .kv("threads", r.threads)
        .kv("error", uint64_t(r.count(Level::Error)))
        .kv("warning", uint64_t(r.count(Level::Warning)))
        .kv("info", uint64_t(r.count(Level::Info)))
        .endObject();
    j.key("findings").beginArray();
    for (size_t i = 0; i < r.findings.size(); ++i) {
        const Finding& f = r.findings[i];
        j.beginObject().kv("id", f.id).kv("level", levelName(f.level)).key("file").value(Json::Path{f.file});
        j.kv("key", f.key);
        writeLocation(j, f.where);
        j.kv("message", f.message);
        if (!f.subject.empty()) j.kv("subject", f.subject);
        if (marks.baseline) j.kv("baselineState", stateName(marks.at(i)));
        if (const Suppression* s = marks.sup(i)) j.kv("suppressed", s->reason);
        j.endObject();
    }
    j.endArray();
    if (marks.baseline) {
        j.key("absent").beginArray(); // in the baseline, not found now (fixed)
        for (const BaselineEntry& e : marks.absent)
            j.beginObject().kv("id", e.id).kv("level", e.level).kv("file", e.file).kv("message", e.message).endObject();
        j.endArray();
    }
    j.endObject();
    return j.out;
}

// SARIF artifact URI of a finding's file: a path relative to the current directory when it is one on disk below it
// (so that CI services place it on the lines of a pull request), else the archive or game path.
std::string artifactUri(const Finding& f, std::string* region) {
    std::string file = f.file;
    const size_t colon = file.find(".meg:") != std::string::npos ? file.find(".meg:") + 4
                         : file.find(".MEG:") != std::string::npos ? file.find(".MEG:") + 4
                         : file.find(".big:") != std::string::npos ? file.find(".big:") + 4
                         : file.find(".BIG:") != std::string::npos ? file.find(".BIG:") + 4
                                                                    : std::string::npos;
    if (colon != std::string::npos) {
        if (region) *region = file.substr(colon + 1);
        file = file.substr(0, colon);
    }
    std::error_code ec;
    namespace fs = std::filesystem;
    const fs::path p = fs::weakly_canonical(fs::path(file), ec);
    const fs::path cwd = fs::current_path(ec);
    std::string uri;
    if (!ec && p.is_absolute()) {
        const fs::path rel = p.lexically_relative(cwd);
        if (!rel.empty() && rel.native().rfind("..", 0) != 0)
            uri = rel.generic_string();
        else
            uri = "file://" + p.generic_string();
    } else {
        uri = file;
    }
    // Percent-encode what a URI reference cannot hold.
    std::string out;
    for (unsigned char c : uri) {
        if (c <= 0x20 || c >= 0x7F || c == '%' || c == '#' || c == '?' || c == '[' || c == ']' || c == '"') {
            char b[4];
            std::snprintf(b, sizeof b, "%%%02X", c);
            out += b;
        } else {
            out += char(c);
        }
    }
    return out;
}

std::string sarifReport(const Report& r, const Marks& marks) {
    Json j;
    j.beginObject()
        .kv("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
        .kv("version", "2.1.0")
        .key("runs")
        .beginArray()
        .beginObject();
    j.key("tool").beginObject().key("driver").beginObject();
    j.kv("name", "rigscope-cli check").kv("version", RIGSCOPE_VERSION);
    j.key("rules").beginArray();
    for (const CheckInfo& c : catalog()) {
        j.beginObject().kv("id", c.id);
        j.key("shortDescription").beginObject().kv("text", c.title).endObject();
        j.key("fullDescription").beginObject().kv("text", std::string(c.title) + ". Source: " + c.source).endObject();
        j.key("defaultConfiguration")
            .beginObject()
            .kv("level", c.level == Level::Info ? "note" : levelName(c.level))
            .endObject();
        j.key("properties").beginObject().kv("source", c.source).endObject();
        j.endObject();
    }
    j.endArray().endObject().endObject(); // rules, driver, tool
    j.key("results").beginArray();
    for (size_t fi = 0; fi < r.findings.size(); ++fi) {
        const Finding& f = r.findings[fi];
        size_t ruleIndex = 0;
        for (size_t i = 0; i < catalog().size(); ++i)
            if (f.id == catalog()[i].id) ruleIndex = i;
        std::string entry;
        const std::string uri = artifactUri(f, &entry);
        std::string text = f.message;
        if (!entry.empty()) text = entry + ": " + text;
        const std::string where = f.where.str();
        if (!where.empty()) text += " (" + where + ")";
        j.beginObject().kv("ruleId", f.id).kv("ruleIndex", uint64_t(ruleIndex));
        j.kv("level", f.level == Level::Info ? "note" : levelName(f.level));
        j.key("message").beginObject().kv("text", text).endObject();
        j.key("locations").beginArray().beginObject().key("physicalLocation").beginObject();
        j.key("artifactLocation").beginObject().kv("uri", uri).endObject();
        if (f.where.line > 0 || (f.where.hasOffset() && entry.empty())) {
            j.key("region").beginObject();
            if (f.where.line > 0) {
                j.kv("startLine", f.where.line);
                if (f.where.column > 0) j.kv("startColumn", f.where.column);
            } else {
                j.kv("byteOffset", f.where.offset);
            }
            j.endObject();
        }
        j.endObject(); // physicalLocation
        if (!f.key.empty()) {
            j.key("logicalLocations").beginArray().beginObject().kv("fullyQualifiedName", f.key);
            j.kv("kind", "resource").endObject().endArray();
        }
        j.endObject().endArray(); // location, locations
        if (marks.baseline) j.kv("baselineState", stateName(marks.at(fi)));
        if (const Suppression* s = marks.sup(fi)) {
            j.key("suppressions").beginArray().beginObject().kv("kind", "external");
            j.kv("justification", s->reason).endObject().endArray();
        }
        j.endObject();
    }
    // Baseline findings not found any more: results whose baselineState is "absent".
    for (const BaselineEntry& e : marks.absent) {
        size_t ruleIndex = 0;
        for (size_t i = 0; i < catalog().size(); ++i)
            if (e.id == catalog()[i].id) ruleIndex = i;
        j.beginObject().kv("ruleId", e.id).kv("ruleIndex", uint64_t(ruleIndex));
        j.kv("level", e.level == "info" ? "note" : e.level.empty() ? "warning" : e.level);
        j.key("message").beginObject().kv("text", e.message).endObject();
        j.key("locations").beginArray().beginObject().key("physicalLocation").beginObject();
        j.key("artifactLocation").beginObject().kv("uri", e.file).endObject();
        j.endObject().endObject().endArray();
        j.kv("baselineState", "absent").endObject();
    }
    j.endArray();
    j.key("columnKind").value("unicodeCodePoints");
    j.endObject().endArray().endObject();
    return j.out;
}

} // namespace

int cmdCheck(std::vector<std::string> args) {
    GameMount m;
    takeMountOptions(args, m);
    bool json = false, noUnref = false;
    std::string sarif, baselineIn, baselineOut;
    std::vector<std::string> suppressionFiles;
    Level failOn = Level::Error;
    unsigned threads = 0;
    std::vector<std::string> paths;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&](const char* what) {
            if (i + 1 >= args.size()) throw UsageError{std::string(what) + " needs a value"};
            return args[++i];
        };
        if (a == "--json") {
            json = true;
        } else if (a == "--sarif") {
            sarif = next("--sarif");
        } else if (a == "--fail-on") {
            const std::string v = next("--fail-on");
            if (!parseLevel(v, failOn) || v == "note")
                throw UsageError{"--fail-on takes error, warning or info, not " + v};
        } else if (a == "--threads") {
            const std::string v = next("--threads");
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || n < 1 || n > 256) throw UsageError{"bad --threads: " + v};
            threads = unsigned(n);
        } else if (a == "--baseline") {
            baselineIn = next("--baseline");
        } else if (a == "--baseline-write") {
            baselineOut = next("--baseline-write");
        } else if (a == "--suppressions") {
            suppressionFiles.push_back(next("--suppressions"));
        } else if (a == "--no-unreferenced") {
            noUnref = true;
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError{"unknown option " + a};
        } else {
            paths.push_back(a);
        }
    }
    if (json && !sarif.empty()) throw UsageError{"give --json or --sarif, not both"};
    if (!baselineIn.empty() && !baselineOut.empty()) throw UsageError{"give --baseline or --baseline-write, not both"};
    // Read what the run is judged against before it starts: a broken baseline or suppressions file stops here.
    auto readText = [](const std::string& file, uint64_t cap, const char* what) {
        const std::vector<uint8_t> b = readFile(file, cap, what);
        return std::string(b.begin(), b.end());
    };
    std::vector<BaselineEntry> baseline;
    if (!baselineIn.empty())
        baseline = readBaseline(readText(baselineIn, kMaxBaselineBytes, "baseline"), baselineIn);
    std::vector<Suppression> rules;
    {
        std::vector<std::string> files = suppressionFiles;
        std::vector<std::string> tops = m.mods;
        for (const std::string& p : paths)
            if (std::filesystem::is_directory(p)) tops.push_back(p);
        for (const std::string& t : tops) {
            const std::string f = (std::filesystem::path(t) / "rigscope-check.json").string();
            if (isRegularFile(f) && std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
        }
        for (const std::string& f : files) {
            std::vector<Suppression> more = readSuppressions(readText(f, kMaxSuppressionBytes, "suppressions"), f);
            rules.insert(rules.end(), more.begin(), more.end());
        }
    }
    if (paths.empty() && !m.table) throw UsageError{"check needs --game DIR / --mod DIR or a PATH"};

    Options opt;
    opt.threads = threads;
    opt.unreferenced = !noUnref;
    const bool tty = isatty(STDERR_FILENO);
    const auto start = std::chrono::steady_clock::now();
    bool drew = false;
    if (tty)
        opt.progress = [&](size_t done, size_t total) {
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (s < 1.0 && !drew) return;
            drew = true;
            std::fprintf(stderr, "\rchecking %zu/%zu files (%.0f%%)\x1b[K", done, total,
                         total ? 100.0 * double(done) / double(total) : 100.0);
            std::fflush(stderr);
        };
    const Report r = paths.empty() ? checkMount(m.res(), opt) : checkPaths(m.res(), paths, opt);
    if (drew) std::fprintf(stderr, "\r\x1b[K");

    std::vector<std::string> roots = paths;
    if (paths.empty()) {
        roots = m.mods;
        roots.insert(roots.end(), m.games.begin(), m.games.end());
    }
    Marks marks;
    marks.suppressed.resize(r.findings.size());
    size_t suppressedCount = 0;
    for (size_t i = 0; i < r.findings.size(); ++i)
        if ((marks.suppressed[i] = suppressedBy(r.findings[i], rules))) ++suppressedCount;
    if (!baselineIn.empty()) {
        Compared c = compareWithBaseline(r, baseline);
        marks.baseline = true;
        marks.state = std::move(c.state);
        marks.absent = std::move(c.absent);
    }
    if (json) {
        std::cout << jsonReport(r, roots, marks) << "\n";
    } else {
        for (size_t i = 0; i < r.findings.size(); ++i) {
            const Finding& f = r.findings[i];
            const std::string where = f.where.str();
            std::string tag;
            if (const Suppression* s = marks.sup(i))
                tag = "(suppressed: " + printable(s->reason) + ") ";
            else if (marks.baseline)
                tag = marks.at(i) == BaselineState::New ? "(new) " : "(baseline) ";
            std::cout << levelName(f.level) << " " << tag << f.id << " " << printable(f.file)
                      << (where.empty() ? "" : ": " + printable(where)) << ": " << printable(f.message) << "\n";
        }
    }
    if (!sarif.empty()) {
        std::ofstream out(sarif, std::ios::binary);
        out << sarifReport(r, marks) << "\n";
        if (!out) throw ParseError(sarif, "", ParseError::kNoOffset, "cannot write the SARIF file");
    }
    if (!baselineOut.empty()) {
        const std::string text = writeBaseline(r) + "\n";
        writeFileSafely(baselineOut, ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
        std::cerr << "baseline of " << r.findings.size() << " findings written to " << printable(baselineOut) << "\n";
    }
    std::cerr << r.files << " files, " << r.count(Level::Error) << " errors, " << r.count(Level::Warning)
              << " warnings, " << r.count(Level::Info) << " notes\n";
    if (r.leftToBaseGame)
        std::cerr << "no game mounted: " << r.leftToBaseGame
                  << (r.leftToBaseGame == 1 ? " reference the mod does not hold is"
                                            : " references the mod does not hold are")
                  << " left to the base game (ref.base-game notes); add --game DIR to check them\n";
    if (marks.baseline) {
        size_t fresh = 0;
        for (const BaselineState st : marks.state)
            fresh += st == BaselineState::New;
        std::cerr << "against the baseline: " << fresh << " new, " << (r.findings.size() - fresh) << " unchanged, "
                  << marks.absent.size() << " fixed\n";
    }
    if (suppressedCount) std::cerr << suppressedCount << " suppressed by rigscope-check.json rules\n";
    // What fails: findings at or above --fail-on that no rule suppresses and (with --baseline) that are new.
    for (size_t i = 0; i < r.findings.size(); ++i) {
        if (int(r.findings[i].level) < int(failOn) || marks.sup(i)) continue;
        if (marks.baseline && marks.at(i) != BaselineState::New) continue;
        return 1;
    }
    return 0;
}

} // namespace rs::cli
