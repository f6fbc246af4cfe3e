// Parse throughput over the corpus models and clips, from memory (file reading excluded), next to memcpy of the
// same bytes in the same run. Files every reader refuses (e.g. the Alamo particle file) are left out and counted.
//   Parse/<set>   bytes_per_second = file bytes parsed per second (Resolver::read from a byte span, as the viewer
//                 and the CLI read; one resolver per run, so a W3D hierarchy found beside a file is read and parsed
//                 once and then kept while the file's size and mtime hold)
//   Memcpy/<set>  bytes_per_second = the same bytes copied per second (cold destination per file not forced)
//   Sibling/w3d   what a W3D skin or clip without its hierarchy costs a resolver that has not cached it: the file's
//                 folder listed (Resolver::placeOf), `<hierarchy>.w3d` found in it (resolve::findW3dHierarchy),
//                 read from disk (page cache) and parsed, for the same files; sibling_bytes = bytes it parses.
//   PerFile/<lo>-<hi>  files of that size bucket (bytes): us_per_file, avg_bytes (time per file against size);
//   PerFile/smallest-ala  the smallest corpus .ala alone (per-file constant).
//   --count=N     instead of timing: instructions per byte under callgrind (bench_common.h countWorkload)
//   Decode/<dds|tga>  bytes_per_second = texture file bytes decoded to RGBA per second (decodeTexture), with
//                 pixels_per_second; Memcpy/<dds|tga> the same bytes copied (the anchor).
#include "bench_common.h"

#include "resolve/lookup_rules.h"
#include "resolve/resolver.h"
#include "texture/texture.h"
#include "w3d/w3d_reader.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <iterator>

using namespace rs;

namespace {

struct FileBytes {
    std::string path;
    std::vector<uint8_t> bytes;
};

struct Set {
    std::string name;
    std::vector<FileBytes> files;
    size_t total = 0;
    int refused = 0;
};

// The corpus files of a folder and extensions that `use` accepts (does not throw on); the others are counted.
template <class Use>
Set readSet(const std::string& name, const std::string& sub, const std::vector<std::string>& exts, Use&& use) {
    Set s{name, {}, 0, 0};
    for (const std::string& p : bench::corpusFiles(sub, exts)) {
        FileBytes f{p, readFileBytes(p)};
        try {
            use(f);
        } catch (const std::exception&) {
            ++s.refused;
            continue;
        }
        s.total += f.bytes.size();
        s.files.push_back(std::move(f));
    }
    return s;
}

void parse(benchmark::State& state, const Set* set) {
    const Resolver resolver;
    for (auto _ : state)
        for (const FileBytes& f : set->files) {
            Document d = resolver.read(ByteSpan(f.bytes), f.path);
            benchmark::DoNotOptimize(d.model.get());
        }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * set->total));
    state.counters["files"] = static_cast<double>(set->files.size());
    state.counters["refused"] = set->refused;
}

void copy(benchmark::State& state, const Set* set) {
    std::vector<uint8_t> dst(set->total);
    for (auto _ : state) {
        size_t at = 0;
        for (const FileBytes& f : set->files) {
            std::memcpy(dst.data() + at, f.bytes.data(), f.bytes.size());
            at += f.bytes.size();
        }
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * set->total));
}

// The hierarchy file beside `path` holding hierarchy `name`, found by a new resolver (its folder listed); "" when
// none.
std::string findBeside(const std::string& path, const std::string& name) {
    const Resolver::Place p = Resolver().placeOf(path);
    if (!p.table) return {};
    const vfs::Hit* h = resolve::findW3dHierarchy(*p.table, name, p.key);
    return h ? p.table->entry(*h).diskPath : std::string();
}

// Hierarchy files beside `files` that reading them looks up (same rule as w3d::loadSet: the model's hierarchy, else
// the clip's, when the file does not define it).
std::vector<std::string> w3dSiblings(const std::vector<FileBytes>& files) {
    std::vector<std::string> out;
    for (const FileBytes& f : files) {
        const w3d::HeaderScan h = w3d::scanHeaders(ByteSpan(f.bytes));
        std::string want = h.modelHierarchy;
        const w3d::File parsed = w3d::readFile(ByteSpan(f.bytes), f.path);
        const bool hasModel = !parsed.meshes.empty() || !parsed.hlods.empty() || !parsed.hmodels.empty() ||
                              !parsed.boxes.empty() || !parsed.nulls.empty() || !parsed.hierarchies.empty() ||
                              !parsed.collections.empty();
        if (!hasModel && !parsed.clips.empty()) want = parsed.clips.front().hierarchyName;
        if (want.empty()) continue;
        bool own = false;
        for (const w3d::Hierarchy& x : parsed.hierarchies)
            own = own || iequals(x.name, want);
        if (own) continue;
        const std::string sib = findBeside(f.path, want);
        if (!sib.empty() && sib != f.path) out.push_back(sib);
    }
    return out;
}

void sibling(benchmark::State& state, const std::vector<std::string>* sibs) {
    size_t bytes = 0;
    for (auto _ : state) {
        bytes = 0;
        for (const std::string& p : *sibs) {
            const std::string found = findBeside(p, std::filesystem::path(p).stem().string());
            std::vector<uint8_t> b = readFileBytes(found);
            bytes += b.size();
            w3d::File f = w3d::readFile(ByteSpan(b), found);
            benchmark::DoNotOptimize(f.hierarchies.data());
        }
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
    state.counters["siblings"] = static_cast<double>(sibs->size());
    state.counters["sibling_bytes"] = static_cast<double>(bytes);
}

// Per-file cost against file size: the files of a size bucket parsed one after another; us_per_file and
// avg_bytes give one point of time(size); tools/bench.sh fits time = a + b * size over the buckets (a: the
// constant per file, b: ns per byte) and reports how far each bucket lies from the line.
void bucket(benchmark::State& state, const Set* set) {
    const Resolver resolver;
    for (auto _ : state)
        for (const FileBytes& f : set->files) {
            Document d = resolver.read(ByteSpan(f.bytes), f.path);
            benchmark::DoNotOptimize(d.model.get());
        }
    const double files = static_cast<double>(set->files.size());
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * set->total));
    state.counters["files"] = files;
    state.counters["avg_bytes"] = static_cast<double>(set->total) / files;
    state.counters["us_per_file"] =
        benchmark::Counter(files * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void decode(benchmark::State& state, const Set* set) {
    uint64_t pixels = 0;
    for (auto _ : state)
        for (const FileBytes& f : set->files) {
            const Image img = decodeTexture(ByteSpan(f.bytes), f.path);
            pixels += uint64_t(img.width) * uint64_t(img.height);
            benchmark::DoNotOptimize(img.rgba.data());
        }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * set->total));
    state.counters["files"] = static_cast<double>(set->files.size());
    state.counters["pixels_per_second"] = benchmark::Counter(double(pixels), benchmark::Counter::kIsRate);
}

} // namespace

int main(int argc, char** argv) {
    const int countPasses = bench::countPasses(argc, argv);
    benchmark::Initialize(&argc, argv);
    const std::vector<std::pair<std::string, std::vector<std::string>>> groups = {
        {"alamo", {".alo", ".ala"}}, {"w3d", {".w3d"}}, {"w3x", {".w3x"}}, {"bw2", {".bwm", ".al"}}, {"amal", {".abk", ".amos"}}};
    std::vector<Set> sets;
    Set all{"all", {}, 0, 0};
    for (const auto& [sub, exts] : groups) {
        Set s = readSet(sub, sub, exts, [](const FileBytes& f) { Resolver().read(ByteSpan(f.bytes), f.path); });
        if (s.files.empty()) continue;
        all.files.insert(all.files.end(), s.files.begin(), s.files.end());
        all.total += s.total;
        all.refused += s.refused;
        sets.push_back(std::move(s));
    }
    if (!all.files.empty()) sets.push_back(std::move(all));
    if (countPasses > 0) { // instructions per byte (bench/callgrind_counts.sh): Parse/<set> as the benchmark parses
        for (const Set& s : sets) {
            const Resolver resolver;
            bench::countWorkload("Parse/" + s.name, double(s.total), countPasses, [&] {
                for (const FileBytes& f : s.files) {
                    Document d = resolver.read(ByteSpan(f.bytes), f.path);
                    benchmark::DoNotOptimize(d.model.get());
                }
            });
        }
        return 0;
    }
    static std::vector<std::string> siblings;
    for (const Set& s : sets) {
        benchmark::RegisterBenchmark(("Parse/" + s.name).c_str(), parse, &s)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("Memcpy/" + s.name).c_str(), copy, &s)->Unit(benchmark::kMillisecond);
        if (s.name == "w3d") {
            siblings = w3dSiblings(s.files);
            benchmark::RegisterBenchmark("Sibling/w3d", sibling, &siblings)->Unit(benchmark::kMillisecond);
        }
    }
    // Size buckets over every parsed file, and the smallest .ala alone (the per-file constant of batch work).
    static std::vector<Set> buckets;
    const size_t edges[] = {0, 2048, 8192, 32768, 131072, 524288, size_t(1) << 40};
    if (!sets.empty()) {
        const Set& every = sets.back();
        for (size_t b = 0; b + 1 < std::size(edges); ++b) {
            Set s{"", {}, 0, 0};
            for (const FileBytes& f : every.files)
                if (f.bytes.size() >= edges[b] && f.bytes.size() < edges[b + 1])
                    s.files.push_back(f), s.total += f.bytes.size();
            if (s.files.empty()) continue;
            s.name = std::to_string(edges[b]) + "-" + (b + 2 < std::size(edges) ? std::to_string(edges[b + 1]) : "");
            buckets.push_back(std::move(s));
        }
        Set ala{"smallest-ala", {}, 0, 0};
        for (const FileBytes& f : every.files)
            if (toLower(std::filesystem::path(f.path).extension().string()) == ".ala" &&
                (ala.files.empty() || f.bytes.size() < ala.files[0].bytes.size()))
                ala.files = {f}, ala.total = f.bytes.size();
        if (!ala.files.empty()) buckets.push_back(std::move(ala));
    }
    for (const Set& b : buckets)
        benchmark::RegisterBenchmark(("PerFile/" + b.name).c_str(), bucket, &b)->Unit(benchmark::kMicrosecond);
    // Textures: every corpus .dds and .tga that decodes, by format.
    static std::vector<Set> textures;
    for (const char* ext : {".dds", ".tga"}) {
        Set s = readSet(ext + 1, "", {ext}, [](const FileBytes& f) { decodeTexture(ByteSpan(f.bytes), f.path); });
        if (!s.files.empty()) textures.push_back(std::move(s));
    }
    for (const Set& t : textures) {
        benchmark::RegisterBenchmark(("Decode/" + t.name).c_str(), decode, &t)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("Memcpy/" + t.name).c_str(), copy, &t)->Unit(benchmark::kMillisecond);
    }
    if (sets.empty()) std::fprintf(stderr, "bench_parse: no corpus file parses (corpus absent or readers missing)\n");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
