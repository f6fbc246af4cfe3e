// Archive listing: a 1 GiB archive of 20,000 entries made by the project's writer (sparse file: only the index
// is written, the data is a hole), opened -> index parsed -> looked up. Reports wall and CPU time of the open
// (median of N runs, page cache warm after the first), heap allocated by the open and resident memory growth,
// and the time of 20,000 lookups by name through the archive and through a mount table.
//   vfs_list_bench [--runs N] [--dir DIR] [--entries N] [--bytes B]
#include "vfs/archive.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <malloc.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

static double cpuNow() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}
static double wallNow() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static long residentKiB() {
    std::ifstream f("/proc/self/statm");
    long size = 0, res = 0;
    f >> size >> res;
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}
static size_t heapInUse() { return mallinfo2().uordblks; }

static std::string makeArchive(const fs::path& path, bool meg, size_t n, uint64_t total) {
    std::vector<std::string> names;
    std::vector<uint64_t> sizes;
    const uint64_t each = total / n;
    for (size_t i = 0; i < n; ++i) {
        char b[96];
        std::snprintf(b, sizeof b, "DATA\\ART\\%s\\FOLDER_%03zu\\ASSET_%06zu_SOME_LONGER_NAME.%s",
                      i % 3 == 0 ? "MODELS" : i % 3 == 1 ? "TEXTURES" : "ANIMATIONS", i % 200, i,
                      i % 3 == 0 ? "ALO" : i % 3 == 1 ? "DDS" : "ALA");
        names.push_back(b);
        sizes.push_back(each);
    }
    const rs::vfs::ArchiveLayout L = meg ? rs::vfs::layoutMeg(2, names, sizes) : rs::vfs::layoutBig(names, sizes);
    {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(L.index.data()), std::streamsize(L.index.size()));
    }
    fs::resize_file(path, L.total); // sparse: the data is a hole
    return names[n / 2];
}

int main(int argc, char** argv) {
    int runs = 9;
    size_t entries = 20000;
    uint64_t bytes = 1ull << 30;
    fs::path dir = fs::temp_directory_path();
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runs")) runs = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--dir")) dir = argv[i + 1];
        else if (!std::strcmp(argv[i], "--entries")) entries = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--bytes")) bytes = std::strtoull(argv[i + 1], nullptr, 10);
    }
    std::printf("{\"archives\":[\n");
    for (bool meg : {true, false}) {
        const fs::path path = dir / (std::string("rigscope_vfs_bench_") + std::to_string(getpid()) + (meg ? ".meg" : ".big"));
        const std::string probe = makeArchive(path, meg, entries, bytes);
        std::vector<double> wall, cpu;
        size_t heap = 0;
        long rss = 0;
        std::shared_ptr<rs::vfs::Archive> a;
        for (int r = 0; r < runs; ++r) {
            a.reset();
            malloc_trim(0);
            const size_t h0 = heapInUse();
            const long r0 = residentKiB();
            const double w0 = wallNow(), c0 = cpuNow();
            a = rs::vfs::openArchiveFile(path.string());
            wall.push_back(wallNow() - w0);
            cpu.push_back(cpuNow() - c0);
            heap = std::max(heap, heapInUse() - h0);
            rss = std::max(rss, residentKiB() - r0);
        }
        std::sort(wall.begin(), wall.end());
        std::sort(cpu.begin(), cpu.end());
        if (a->entries().size() != entries || !a->find(probe)) {
            std::fprintf(stderr, "listing wrong\n");
            return 1;
        }
        // Lookups: every name once, through the archive and through a mount table of it.
        double c0 = cpuNow();
        size_t found = 0;
        for (const auto& e : a->entries())
            found += a->find(e.name) != nullptr;
        const double archiveLookup = (cpuNow() - c0) / double(entries);
        rs::vfs::MountTable t;
        c0 = cpuNow();
        t.add(a, "archive");
        const double mountBuild = cpuNow() - c0;
        c0 = cpuNow();
        for (const auto& e : a->entries())
            found += t.find(e.name) != nullptr;
        const double mountLookup = (cpuNow() - c0) / double(entries);
        std::printf("{\"format\":\"%s\",\"bytes\":%llu,\"entries\":%zu,\"index_bytes\":%llu,\"runs\":%d,"
                    "\"open_wall_ms_median\":%.2f,\"open_wall_ms_first\":%.2f,\"open_cpu_ms_median\":%.2f,"
                    "\"open_heap_kib\":%zu,\"open_rss_growth_kib\":%ld,\"lookup_archive_ns\":%.0f,"
                    "\"mount_build_ms\":%.2f,\"lookup_mount_ns\":%.0f,\"found\":%zu}%s\n",
                    meg ? "meg2" : "bigf", (unsigned long long)fs::file_size(path), entries,
                    (unsigned long long)std::min_element(a->entries().begin(), a->entries().end(), [](const auto& x, const auto& y) {
                        return x.offset < y.offset;
                    })->offset, runs, wall[wall.size() / 2] * 1e3,
                    wall.front() * 1e3, cpu[cpu.size() / 2] * 1e3, heap / 1024, rss, archiveLookup * 1e9,
                    mountBuild * 1e3, mountLookup * 1e9, found, meg ? "," : "");
        a.reset();
        fs::remove(path);
    }
    std::printf("]}\n");
    return 0;
}
