// rigscope-cli check: the asset checker (core/check) over the --game/--mod mount or the files and folders given.
//   check [--game DIR]... [--mod DIR]... [PATH...] [--json | --sarif FILE] [--fail-on error|warning|info]
//         [--threads N] [--no-unreferenced]
// Text: one line per finding, "LEVEL ID FILE[: LOCATION]: MESSAGE", then a summary on stderr (and, for mods
// checked without their game, how many references were left to it: ref.base-game). --json: the document
// of docs/CHECKS.md on stdout. --sarif FILE: SARIF 2.1.0 written to FILE (text still on stdout). On a terminal a
// progress line is drawn on stderr when checking takes longer than a second.
// Exit status: 0 nothing at or above --fail-on (default error), 1 something is, 2 usage errors.
#include "check/check.h"
#include "commands.h"

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

std::string jsonReport(const Report& r, const std::vector<std::string>& roots) {
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
    for (const Finding& f : r.findings) {
        j.beginObject().kv("id", f.id).kv("level", levelName(f.level)).key("file").value(Json::Path{f.file});
        j.kv("key", f.key);
        writeLocation(j, f.where);
        j.kv("message", f.message);
        if (!f.subject.empty()) j.kv("subject", f.subject);
        j.endObject();
    }
    j.endArray().endObject();
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

std::string sarifReport(const Report& r) {
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
    for (const Finding& f : r.findings) {
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
        j.endObject();
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
    std::string sarif;
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
        } else if (a == "--no-unreferenced") {
            noUnref = true;
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError{"unknown option " + a};
        } else {
            paths.push_back(a);
        }
    }
    if (json && !sarif.empty()) throw UsageError{"give --json or --sarif, not both"};
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
    if (json) {
        std::cout << jsonReport(r, roots) << "\n";
    } else {
        for (const Finding& f : r.findings) {
            const std::string where = f.where.str();
            std::cout << levelName(f.level) << " " << f.id << " " << printable(f.file)
                      << (where.empty() ? "" : ": " + printable(where)) << ": " << printable(f.message) << "\n";
        }
    }
    if (!sarif.empty()) {
        std::ofstream out(sarif, std::ios::binary);
        out << sarifReport(r) << "\n";
        if (!out) throw ParseError(sarif, "", ParseError::kNoOffset, "cannot write the SARIF file");
    }
    std::cerr << r.files << " files, " << r.count(Level::Error) << " errors, " << r.count(Level::Warning)
              << " warnings, " << r.count(Level::Info) << " notes\n";
    if (r.leftToBaseGame)
        std::cerr << "no game mounted: " << r.leftToBaseGame
                  << (r.leftToBaseGame == 1 ? " reference the mod does not hold is"
                                            : " references the mod does not hold are")
                  << " left to the base game (ref.base-game notes); add --game DIR to check them\n";
    return r.reaches(failOn) ? 1 : 0;
}

} // namespace rs::cli
