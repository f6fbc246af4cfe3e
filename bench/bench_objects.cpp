// Indexing a real mod's object database (core/objects) against a plain read of the same bytes, per corpus mod folder
// of games/ (the mount is built once, outside the timing):
//   Index/<mod>  ObjectDb::load over the mounted folder: every definition file read and parsed (EaW/FoC: the
//                GameObjectFiles.xml and HardPointDataFiles.xml files; SAGE: data/ini/object/**.ini, their
//                #includes and gamedata.ini's macros); bytes_per_second over the bytes it read
//   Read/<mod>   the same files read through the same mount table and each byte summed; bytes_per_second likewise
// The ratio Index/Read is the cost of parsing over reading.
#include "bench_common.h"

#include "objects/object_db.h"
#include "vfs/mount.h"

#include <benchmark/benchmark.h>

#include <filesystem>

using namespace rs;

namespace {

void registerMod(const std::string& name, const std::string& dir) {
    auto table = std::make_shared<vfs::MountTable>(vfs::mountInstall({}, {dir}));
    const auto db = objects::ObjectDb::load(*table);
    const std::vector<std::string> files = db->filesRead();
    const int64_t bytes = int64_t(db->bytesRead());
    benchmark::RegisterBenchmark(("Index/" + name).c_str(), [table, bytes](benchmark::State& st) {
        size_t objects = 0;
        for (auto _ : st) {
            const auto d = objects::ObjectDb::load(*table);
            objects = d->objects().size();
            benchmark::DoNotOptimize(objects);
        }
        st.SetBytesProcessed(st.iterations() * bytes);
        st.counters["objects"] = double(objects);
    })->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("Read/" + name).c_str(), [table, files, bytes](benchmark::State& st) {
        for (auto _ : st) {
            uint64_t sum = 0;
            for (const std::string& k : files) {
                const vfs::EntryBytes b = table->read(k);
                for (size_t i = 0; i < b.span.size; ++i)
                    sum += b.span.data[i];
            }
            benchmark::DoNotOptimize(sum);
        }
        st.SetBytesProcessed(st.iterations() * bytes);
        st.counters["files"] = double(files.size());
    })->Unit(benchmark::kMillisecond);
}

} // namespace

int main(int argc, char** argv) {
    const std::string games = bench::corpusDir() + "/games";
    std::error_code ec;
    if (bench::corpusDir().empty() || !std::filesystem::is_directory(games, ec)) {
        std::fprintf(stderr, "bench_objects: corpus folder games/ not found\n");
        return 0;
    }
    for (const auto& e : std::filesystem::directory_iterator(games))
        if (e.is_directory()) registerMod(e.path().filename().string(), e.path().string());
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
