// rigscope-cli check's core (core/check) against a plain parse of the same files, on
//   - the largest corpus mod folder of games/ (by bytes), and
//   - a writer-made mod of 20,000 assets (5,000 Alamo models with a texture each and 5,000 clips beside them,
//     10,000 4x4 DDS textures; written once into a temporary folder).
// Per data set: files and MB per second of checkMount with 1 and 2 threads (objects and unreferenced files
// included), of "parse" (Resolver::read of every model and clip, probeTexture of every texture, one thread), and
// the speed-up of two threads over one. Usage: check_bench [--assets N] [--repeat R]  (best of R runs).
#include "alamo/alamo_writer.h"
#include "check/check.h"
#include "texture/texture.h"
#include "texture/texture_writer.h"
#include "vfs/mount.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void write(const fs::path& p, const std::vector<uint8_t>& b) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

Model benchModel(int i) {
    Model m;
    m.format = Format::AlamoModel;
    Bone root;
    root.name = "Root";
    Bone arm;
    arm.name = "Arm";
    arm.parent = 0;
    m.skeleton.bones = {root, arm};
    Mesh mesh;
    mesh.name = "Hull";
    SubMesh s;
    s.material.shader = "MeshGloss.fx";
    s.vertexFormat = "alD3dVertNU2";
    MaterialParam p;
    p.name = "BaseTexture";
    p.type = ParamType::Texture;
    p.texture = "T" + std::to_string(i) + ".TGA";
    s.material.params.push_back(p);
    for (int k = 0; k < 64; ++k) {
        s.positions.push_back({float(k % 8), float(k / 8), 0});
        s.normals.push_back({0, 0, 1});
        s.uv0.push_back({float(k % 8) / 8, float(k / 8) / 8});
    }
    for (int y = 0; y < 7; ++y)
        for (int x = 0; x < 7; ++x) {
            const uint32_t a = uint32_t(y * 8 + x);
            s.indices.insert(s.indices.end(), {a, a + 1, a + 9, a, a + 9, a + 8});
        }
    mesh.subMeshes.push_back(s);
    m.meshes.push_back(mesh);
    return m;
}

Clip benchClip() {
    Clip c;
    c.format = Format::AlamoClip;
    c.frameCount = 10;
    BoneTrack t;
    t.bone = 1;
    t.boneName = "Arm";
    for (int f = 0; f < 10; ++f)
        t.translation.push_back({float(f), 0, 0});
    c.tracks.push_back(t);
    return c;
}

std::string makeInstall(int assets) {
    const fs::path root = fs::temp_directory_path() / ("rigscope_check_bench_" + std::to_string(assets));
    const fs::path stamp = root / "done";
    if (fs::exists(stamp)) return (root / "mod").string();
    fs::remove_all(root);
    const int models = assets / 4;
    Image img;
    img.width = img.height = 4;
    img.rgba.assign(64, 128);
    const std::vector<uint8_t> dds = writeDdsRgba(img);
    const std::vector<uint8_t> clip = alamo::writeClip(benchClip());
    for (int i = 0; i < models; ++i) {
        write(root / "mod/Data/Art/Models" / ("M" + std::to_string(i) + ".ALO"), alamo::writeModel(benchModel(i)));
        write(root / "mod/Data/Art/Models" / ("M" + std::to_string(i) + "_IDLE_00.ALA"), clip);
    }
    for (int i = 0; i < assets - 2 * models; ++i)
        write(root / "mod/Data/Art/Textures" / ("T" + std::to_string(i) + ".DDS"), dds);
    std::ofstream(stamp) << "ok\n";
    return (root / "mod").string();
}

struct Run {
    double seconds = 1e30;
    size_t files = 0;
    uint64_t bytes = 0;
    size_t findings = 0;
};

Run checkRun(const std::string& dir, unsigned threads, int repeat) {
    Run best;
    for (int r = 0; r < repeat; ++r) {
        // A fresh mount and resolver each time: no cache carried over.
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {dir}));
        const Resolver res(table);
        check::Options o;
        o.threads = threads;
        const double t0 = now();
        const check::Report rep = check::checkMount(res, o);
        const double s = now() - t0;
        if (s < best.seconds) best = {s, rep.files, rep.bytes, rep.findings.size()};
    }
    return best;
}

Run parseRun(const std::string& dir, int repeat) {
    Run best;
    for (int r = 0; r < repeat; ++r) {
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {dir}));
        const Resolver res(table);
        std::vector<std::pair<std::string, uint64_t>> files;
        table->forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
            const std::string ext = key.size() > 4 ? key.substr(key.size() - 4) : key;
            if (ext == ".ALO" || ext == ".ALA" || ext == ".W3D" || ext == ".DDS" || ext == ".TGA")
                files.emplace_back(table->describe(hits.front()), table->entry(hits.front()).size);
        });
        Run run;
        const double t0 = now();
        for (const auto& [path, size] : files) {
            run.files++;
            run.bytes += size;
            try {
                const std::string ext = path.substr(path.size() - 4);
                if (ext == ".DDS" || ext == ".dds" || ext == ".TGA" || ext == ".tga") {
                    std::vector<uint8_t> b;
                    res.readBytes(path, b);
                    (void)probeTexture(ByteSpan(b), path);
                } else {
                    (void)res.read(path);
                }
            } catch (const std::exception&) {
            }
        }
        run.seconds = now() - t0;
        if (run.seconds < best.seconds) best = run;
    }
    return best;
}

void report(const char* name, const std::string& dir, int repeat) {
    const Run p = parseRun(dir, repeat);
    const Run c1 = checkRun(dir, 1, repeat);
    const Run c2 = checkRun(dir, 2, repeat);
    auto line = [](const char* what, const Run& r) {
        std::printf("  %-16s %6zu files %8.1f MB  %7.3f s  %9.0f files/s  %7.1f MB/s", what, r.files,
                    double(r.bytes) / 1e6, r.seconds, double(r.files) / r.seconds,
                    double(r.bytes) / 1e6 / r.seconds);
        std::printf("\n");
    };
    std::printf("%s (%s)\n", name, dir.c_str());
    line("parse", p);
    line("check 1 thread", c1);
    line("check 2 threads", c2);
    std::printf("  findings %zu; check (1 thread) / parse time %.2f; speed-up of 2 threads over 1: %.2fx\n",
                c2.findings, c1.seconds / p.seconds, c1.seconds / c2.seconds);
}

} // namespace

int main(int argc, char** argv) {
    int assets = 20000, repeat = 3;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--assets")) assets = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[++i]);
    }
    std::printf("hardware threads: %u\n", std::thread::hardware_concurrency());
    const fs::path games = fs::path(RIGSCOPE_CORPUS_DIR) / "games";
    std::string largest;
    uintmax_t most = 0;
    std::error_code ec;
    if (fs::is_directory(games, ec))
        for (const auto& d : fs::directory_iterator(games, ec)) {
            if (!d.is_directory()) continue;
            uintmax_t sum = 0;
            for (const auto& f : fs::recursive_directory_iterator(d.path(), ec))
                if (f.is_regular_file()) sum += f.file_size();
            if (sum > most) most = sum, largest = d.path().string();
        }
    if (!largest.empty())
        report("largest corpus mod folder", largest, repeat);
    else
        std::printf("corpus games/ not found: corpus run skipped\n");
    report("writer-made mod", makeInstall(assets), repeat);
    return 0;
}
