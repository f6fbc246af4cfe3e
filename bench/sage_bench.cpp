// The SAGE family's figures against their older siblings, from one run (tools/bench.sh's "sage" block):
//   - W3X parse MB/s against the W3D reader on the same model: the corpus Lorien warrior (EULorWar_SKN.W3X with its
//     skeleton EULorWar_SKL.W3X, the file the skin includes) is read (w3x::loadSet, the Include answered from memory)
//     and the same hierarchy, meshes (vertices, normals, UVs, influences, triangles, FX shader), box and container,
//     as w3x::readFile decodes them, are written with the project's W3D writer and read back (w3d::loadSet);
//   - SAGE particle simulation cost per live particle against the Alamo one: bench/particle_workloads.h's SAGE smoke
//     (167 a frame living 60 frames) and Alamo emitter (5,000/s living 2 s), both ~10,000 live, evaluated at 120
//     consecutive 60 Hz frames (thread CPU time);
//   - opening the corpus set (skin + four clips sharing one skeleton) through the resolver, and what parsing that
//     skeleton once instead of five times saves.
// Prints one JSON object; the W3X part is {"absent": ...} without the corpus.
//   sage_bench [--repeat N] [--frames N]
#include "particle_workloads.h"

#include "objects/sage_fx.h"
#include "resolve/resolver.h"
#include "particles/particle_sim.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3x/w3x_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace rs;

namespace {

double cpuNow() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::vector<uint8_t> readAll(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Best (least) CPU seconds of `repeat` runs of fn.
template <class F> double best(int repeat, F fn) {
    double b = 1e30;
    for (int i = 0; i < repeat; ++i) {
        const double a = cpuNow();
        fn();
        b = std::min(b, cpuNow() - a);
    }
    return b;
}

std::string w3xVersusW3d(int repeat) {
    const char* env = std::getenv("RIGSCOPE_CORPUS");
    const std::string dir = std::string(env && *env ? env : RIGSCOPE_CORPUS_DIR) +
                            "/w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU/";
    const auto skn = std::make_shared<const std::vector<uint8_t>>(readAll(dir + "EULorWar_SKN.W3X"));
    const auto skl = std::make_shared<const std::vector<uint8_t>>(readAll(dir + "EULorWar_SKL.W3X"));
    if (skn->empty() || skl->empty()) return "{\"absent\": \"corpus w3x/JenkinsTR+KanesWrath-MODSDK-2020 not found\"}";
    w3x::Lookup lookup;
    lookup.include = [skl](const std::string& source, const std::string&) -> std::optional<w3x::Source> {
        if (source.find("skl") != std::string::npos || source.find("SKL") != std::string::npos)
            return w3x::Source{"EULorWar_SKL.W3X", skl, "", nullptr};
        return std::nullopt;
    };
    // The same model as W3D.
    const w3x::File fs = w3x::readFile(ByteSpan(*skn), "EULorWar_SKN.W3X");
    const w3x::File fh = w3x::readFile(ByteSpan(*skl), "EULorWar_SKL.W3X");
    w3d::ChunkWriter cw;
    for (const w3d::Hierarchy& h : fh.hierarchies)
        w3d::writeHierarchy(cw, h);
    for (const w3d::RawMesh& m : fs.meshes)
        w3d::writeMesh(cw, m);
    for (const w3d::Box& b : fs.boxes)
        w3d::writeBox(cw, b);
    for (const w3d::Hlod& h : fs.containers)
        w3d::writeHlod(cw, h);
    const std::vector<uint8_t> w3dBytes = cw.take();
    size_t w3xVerts = 0, w3dVerts = 0;
    const double tx = best(repeat, [&] {
        const Document d = w3x::loadSet(ByteSpan(*skn), "EULorWar_SKN.W3X", lookup);
        w3xVerts = d.model ? d.model->meshes.size() : 0;
    });
    const double td = best(repeat, [&] {
        const Document d = w3d::loadSet(ByteSpan(w3dBytes), "EULorWar_SKN.w3d");
        w3dVerts = d.model ? d.model->meshes.size() : 0;
    });
    if (w3xVerts == 0 || w3xVerts != w3dVerts) return "{\"absent\": \"the W3X and W3D models differ\"}";
    const double xb = double(skn->size() + skl->size()), db = double(w3dBytes.size());
    char out[512];
    std::snprintf(out, sizeof out,
                  "{\"model\": \"EULorWar_SKN.W3X + EULorWar_SKL.W3X\", \"w3x_bytes\": %.0f, \"w3d_bytes\": %.0f, "
                  "\"w3x_ms\": %.3f, \"w3d_ms\": %.3f, \"w3x_mb_per_s\": %.1f, \"w3d_mb_per_s\": %.1f, "
                  "\"mb_per_s_ratio_w3x_to_w3d\": %.3f, \"time_ratio_w3x_to_w3d\": %.2f}",
                  xb, db, tx * 1e3, td * 1e3, xb / tx / 1e6, db / td / 1e6, (xb / tx) / (db / td), tx / td);
    return out;
}

// Opening the corpus set through the resolver as the viewer does (the skin and its four companion clips, all five
// including EULorWar_SKL.W3X), a fresh Resolver each time: the skeleton is parsed once (the resolver's cache) where
// it was parsed five times before; what that saves is four parses of the skeleton, measured alone.
std::string w3xSetOpen(int repeat) {
    const char* env = std::getenv("RIGSCOPE_CORPUS");
    const std::string dir = std::string(env && *env ? env : RIGSCOPE_CORPUS_DIR) +
                            "/w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU/";
    const std::vector<uint8_t> skl = readAll(dir + "EULorWar_SKL.W3X");
    if (skl.empty()) return "{\"absent\": \"corpus w3x/JenkinsTR+KanesWrath-MODSDK-2020 not found\"}";
    size_t clips = 0, parsed = 0;
    const double open = best(repeat, [&] {
        const Resolver res;
        const Asset a = res.open(dir + "EULorWar_SKN.W3X");
        clips = a.clips.size();
        parsed = res.w3xFilesParsed();
    });
    const double sklParse = best(repeat * 10, [&] { (void)w3x::readFile(ByteSpan(skl), "EULorWar_SKL.W3X"); });
    const double saved = double(clips) * sklParse;
    char out[384];
    std::snprintf(out, sizeof out,
                  "{\"files\": %zu, \"included_files_parsed\": %zu, \"open_ms\": %.3f, \"skl_parse_ms\": %.4f, "
                  "\"parses_saved\": %zu, \"saved_ms\": %.3f, \"before_ms_estimate\": %.3f}",
                  clips + 1, parsed, open * 1e3, sklParse * 1e3, clips, saved * 1e3, (open + saved) * 1e3);
    return out;
}

struct Sim {
    double nsPerParticle;
    double live;
};

Sim simulate(const ParticleSystem& s, int frames) {
    ParticleSimulator sim(s);
    ParticleBuffer buf(200000, s.emitters.size());
    ParticleSimOptions o;
    sim.evaluate(10.0, o, buf); // warm caches
    double sum = 0, live = 0;
    for (int i = 0; i < frames; ++i) {
        const double a = cpuNow();
        sim.evaluate(10.0 + i / 60.0, o, buf);
        sum += cpuNow() - a;
        live += double(buf.live);
    }
    return {live > 0 ? 1e9 * sum / live : 0.0, live / frames};
}

std::string sageVersusAlamo(int frames) {
    ParticleSystem alamo;
    alamo.name = "alamo";
    alamo.emitters = {bench::richEmitter(5000, 2.0f)};
    const std::string ini = bench::sageSmokeIni();
    objects::SageFxLibrary lib;
    lib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(ini.data()), ini.size()), "bench.ini");
    const auto sage = lib.find("BenchSmoke");
    if (!sage) return "{\"absent\": \"the SAGE workload did not read\"}";
    const Sim a = simulate(alamo, frames), s = simulate(*sage, frames);
    char out[384];
    std::snprintf(out, sizeof out,
                  "{\"alamo_live\": %.0f, \"sage_live\": %.0f, \"alamo_ns_per_particle\": %.1f, "
                  "\"sage_ns_per_particle\": %.1f, \"ratio_sage_to_alamo\": %.3f}",
                  a.live, s.live, a.nsPerParticle, s.nsPerParticle,
                  a.nsPerParticle > 0 ? s.nsPerParticle / a.nsPerParticle : 0.0);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    int repeat = 20, frames = 120;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat"))
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--frames"))
            frames = std::max(1, std::atoi(argv[++i]));
    }
    std::printf("{\"w3x_vs_w3d\": %s, \"w3x_set_open\": %s, \"sage_vs_alamo\": %s}\n", w3xVersusW3d(repeat).c_str(),
                w3xSetOpen(repeat).c_str(), sageVersusAlamo(frames).c_str());
    return 0;
}
