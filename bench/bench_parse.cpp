// Parse throughput over the corpus models and clips, from memory (file reading excluded), next to memcpy of the
// same bytes in the same run. Files every reader refuses (e.g. the Alamo particle file) are left out and counted.
//   Parse/<set>   bytes_per_second = file bytes parsed per second (loadDocument from a byte span)
//   Memcpy/<set>  bytes_per_second = the same bytes copied per second (cold destination per file not forced)
#include "bench_common.h"

#include "io/loader.h"

#include <benchmark/benchmark.h>

#include <cstring>

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

void parse(benchmark::State& state, const Set* set) {
    for (auto _ : state)
        for (const FileBytes& f : set->files) {
            Document d = loadDocument(ByteSpan(f.bytes), f.path);
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

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    const std::vector<std::pair<std::string, std::vector<std::string>>> groups = {
        {"alamo", {".alo", ".ala"}}, {"w3d", {".w3d"}}, {"bw2", {".bwm", ".al"}}, {"amal", {".abk", ".amos"}}};
    std::vector<Set> sets;
    Set all{"all", {}, 0, 0};
    for (const auto& [sub, exts] : groups) {
        Set s{sub, {}, 0, 0};
        for (const std::string& p : bench::corpusFiles(sub, exts)) {
            FileBytes f{p, readFileBytes(p)};
            try {
                loadDocument(ByteSpan(f.bytes), f.path);
            } catch (const std::exception&) {
                ++s.refused;
                continue;
            }
            s.total += f.bytes.size();
            s.files.push_back(std::move(f));
        }
        if (s.files.empty()) continue;
        all.files.insert(all.files.end(), s.files.begin(), s.files.end());
        all.total += s.total;
        all.refused += s.refused;
        sets.push_back(std::move(s));
    }
    if (!all.files.empty()) sets.push_back(std::move(all));
    for (const Set& s : sets) {
        benchmark::RegisterBenchmark(("Parse/" + s.name).c_str(), parse, &s)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("Memcpy/" + s.name).c_str(), copy, &s)->Unit(benchmark::kMillisecond);
    }
    if (sets.empty()) std::fprintf(stderr, "bench_parse: no corpus file parses (corpus absent or readers missing)\n");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
