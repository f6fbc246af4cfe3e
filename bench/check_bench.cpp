// rigscope-cli check's core (core/check) against a plain parse of the same files, on
//   - every corpus mod folder of games/ (Delta730+Imperial_Civil_War is the largest, SymoniusGit+TROWMod the W3D one),
//   - a writer-made Alamo mod of 20,000 assets (5,000 models with a texture each and 5,000 clips beside them,
//     10,000 4x4 DDS textures), and
//   - a writer-made SAGE mod of 20,000 assets (4,000 W3D models, their 4,000 hierarchies and 4,000 clips in
//     100 ART/W3D/<xx>/ folders, 8,000 DDS textures in ART/COMPILEDTEXTURES/<xx>/);
//   both written once into a temporary folder.
// Per data set: files and MB per second of checkMount with 1 and 2 threads (objects and unreferenced files
// included), of "parse" (Resolver::read of every model and clip, probeTexture of every texture, one thread), of
// checkMount on 1 thread without the run's cache (Options::runCache = false: every model rescans the W3D headers
// beside it and rereads its clips), and the speed-up of two threads over one.
// Usage: check_bench [--assets N] [--repeat R] [--only TEXT]  (best of R runs; --only: the data sets whose name or
// folder contains TEXT, e.g. "SAGE" or "Delta730").
#include "alamo/alamo_writer.h"
#include "check/check.h"
#include "texture/texture.h"
#include "texture/texture_writer.h"
#include "vfs/mount.h"
#include "w3d/w3d_writer.h"

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

// The SAGE layout: model i (skin mesh on pivot 1, HLOD), its hierarchy and its clip in ART/W3D/<xx>/, xx one of 100.
std::string makeSageInstall(int assets) {
    const fs::path root = fs::temp_directory_path() / ("rigscope_check_bench_sage2_" + std::to_string(assets));
    const fs::path stamp = root / "done";
    if (fs::exists(stamp)) return (root / "mod").string();
    fs::remove_all(root);
    const int models = assets / 5;
    Image img;
    img.width = img.height = 4;
    img.rgba.assign(64, 128);
    const std::vector<uint8_t> dds = writeDdsRgba(img);
    auto folder = [](int i) {
        const char a = char('A' + (i % 100) / 10), b = char('A' + i % 10);
        return std::string{a, b};
    };
    for (int i = 0; i < models; ++i) {
        const std::string xx = folder(i), n = xx + std::to_string(i);
        w3d::ChunkWriter m;
        w3d::Hierarchy h;
        h.version = 0x40001;
        h.name = n + "_SKL";
        w3d::Pivot rootPivot;
        rootPivot.name = "RootTransform";
        w3d::Pivot arm;
        arm.name = "ARM";
        arm.parent = 0;
        arm.translation = {0, 1, 0};
        h.pivots = {rootPivot, arm};
        w3d::ChunkWriter hc;
        w3d::writeHierarchy(hc, h);
        write(root / "mod/art/w3d" / xx / (n + "_skl.w3d"), hc.take());
        w3d::RawMesh q;
        q.name = "BODY";
        q.container = n + "_SKN";
        q.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        q.normals.assign(4, {0, 0, 1});
        q.indices = {0, 1, 2, 0, 2, 3};
        q.boundsMax = {1, 1, 0};
        w3d::VertexMaterial vm;
        vm.name = "mat";
        q.vertexMaterials = {vm};
        w3d::Shader sh;
        sh.texturing = 1;
        q.shaders = {sh};
        w3d::TextureRef t;
        t.name = xx + "T" + std::to_string(i) + ".TGA";
        q.textures = {t};
        w3d::MaterialPass p;
        p.vertexMaterialIds = {0};
        p.shaderIds = {0};
        w3d::TextureStage st;
        st.textureIds = {0};
        st.uv = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        p.stages = {st};
        q.passes = {p};
        w3d::writeMesh(m, q);
        w3d::Hlod hl;
        hl.name = n + "_SKN";
        hl.hierarchy = h.name;
        w3d::LodArray lod;
        lod.maxScreenSize = 3.0e38f;
        lod.objects = {{1, n + "_SKN.BODY"}};
        hl.lods = {lod};
        w3d::writeHlod(m, hl);
        write(root / "mod/art/w3d" / xx / (n + "_skn.w3d"), m.take());
        w3d::ChunkWriter c;
        w3d::ClipSpec cs;
        cs.name = n + "_IDLA";
        cs.hierarchy = h.name;
        cs.frames = 10;
        w3d::ChannelSpec x;
        x.pivot = 1;
        x.type = 0;
        for (int f = 0; f < 10; ++f)
            x.values.push_back(float(f));
        cs.channels = {x};
        w3d::writeClip(c, cs);
        write(root / "mod/art/w3d" / xx / (n + "_idla.w3d"), c.take());
    }
    for (int i = 0; i < assets - 3 * models; ++i) {
        const std::string xx = folder(i);
        write(root / "mod/art/compiledtextures" / xx / (xx + "T" + std::to_string(i) + ".dds"), dds);
    }
    std::ofstream(stamp) << "ok\n";
    return (root / "mod").string();
}

struct Run {
    double seconds = 1e30;
    size_t files = 0;
    uint64_t bytes = 0;
    size_t findings = 0;
};

Run checkRun(const std::string& dir, unsigned threads, int repeat, bool runCache = true) {
    Run best;
    for (int r = 0; r < repeat; ++r) {
        // A fresh mount and resolver each time: no cache carried over.
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {dir}));
        const Resolver res(table);
        check::Options o;
        o.threads = threads;
        o.runCache = runCache;
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

std::string gOnly; // --only: data sets whose name or folder contains it

void report(const char* name, const std::string& dir, int repeat) {
    if (!gOnly.empty() && std::string(name).find(gOnly) == std::string::npos && dir.find(gOnly) == std::string::npos)
        return;
    const Run p = parseRun(dir, repeat);
    const Run c1 = checkRun(dir, 1, repeat);
    const Run c2 = checkRun(dir, 2, repeat);
    const Run c0 = checkRun(dir, 1, repeat, false);
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
    line("check 1, no cache", c0);
    std::printf("  findings %zu; check (1 thread) / parse time %.2f; speed-up of 2 threads over 1: %.2fx; "
                "run cache (1 thread): %.2fx\n",
                c2.findings, c1.seconds / p.seconds, c1.seconds / c2.seconds, c0.seconds / c1.seconds);
}

} // namespace

int main(int argc, char** argv) {
    int assets = 20000, repeat = 3;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--assets")) assets = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--only"))
            gOnly = argv[++i];
    }
    std::printf("hardware threads: %u\n", std::thread::hardware_concurrency());
    const fs::path games = fs::path(RIGSCOPE_CORPUS_DIR) / "games";
    std::vector<std::string> mods;
    std::error_code ec;
    if (fs::is_directory(games, ec))
        for (const auto& d : fs::directory_iterator(games, ec))
            if (d.is_directory()) mods.push_back(d.path().string());
    std::sort(mods.begin(), mods.end());
    for (const std::string& m : mods)
        report("corpus mod folder", m, repeat);
    if (mods.empty()) std::printf("corpus games/ not found: corpus runs skipped\n");
    auto wanted = [](const char* name) { return gOnly.empty() || std::string(name).find(gOnly) != std::string::npos; };
    if (wanted("writer-made Alamo mod")) report("writer-made Alamo mod", makeInstall(assets), repeat);
    if (wanted("writer-made SAGE mod")) report("writer-made SAGE mod", makeSageInstall(assets), repeat);
    return 0;
}
