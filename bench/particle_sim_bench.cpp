// Particle simulation cost per frame: ParticleSimulator::evaluate at 60 consecutive frames, thread CPU time.
//   particle_sim_bench [--frames N]
// Cases (10,000 live particles each unless noted):
//   synthetic        one emitter, 5,000/s living 2 s: sphere births, box velocities, gravity, random colour and
//                    size, 3-key colour/size tracks, rotation speed, 16-frame atlas
//   + transform      the same on an animated emitter (std::function transform per birth)
//   + attraction     inward acceleration (integrated per particle, fixed step 1/30 s, lives 2 s)
//   chain            5 parents/s (2 s) each trailing 1,000/s (1 s): ~10,000 children
//   corpus           every corpus particle system at t = 1.5 s (counts as they are, summed)
//   sage             a SAGE system (ParticleSystem INI, Zero Hour's update in closed form): 167 a frame living 60
//                    frames (~10,000 live), sphere volume, outward velocity, damping, gravity, drift, size rate,
//                    4 alpha and 3 colour keys, colour scale; "+ wind" adds ping-pong wind (stepped per frame)
//   sage corpus      every system of Zero Hour's ParticleSystem.ini at t = 1.5 s (summed)
#include "particle_workloads.h"

#include "alamo/particle_reader.h"
#include "objects/sage_fx.h"
#include "particles/particle_sim.h"
#include "resolve/resolver.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

using namespace rs;

namespace {

double cpuNow() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

using bench::richEmitter;

struct Result {
    double meanMs, maxMs;
    size_t live;
};

Result run(const ParticleSystem& s, double t0, int frames, const ParticleSimOptions& o) {
    ParticleSimulator sim(s);
    ParticleBuffer buf(200000, s.emitters.size());
    sim.evaluate(t0, o, buf); // warm caches
    double sum = 0, worst = 0;
    size_t live = 0;
    for (int i = 0; i < frames; ++i) {
        const double a = cpuNow();
        sim.evaluate(t0 + i / 60.0, o, buf);
        const double d = cpuNow() - a;
        sum += d;
        worst = std::max(worst, d);
        live += buf.live;
    }
    return {1e3 * sum / frames, 1e3 * worst, live / size_t(frames)};
}

void print(const char* name, const Result& r) {
    std::printf("%-22s live %6zu  mean %7.3f ms/frame  max %7.3f ms  %6.1f ns/particle\n", name, r.live, r.meanMs,
                r.maxMs, r.live ? 1e6 * r.meanMs / double(r.live) : 0.0);
}

} // namespace

int main(int argc, char** argv) {
    int frames = 120;
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "--frames")) frames = std::max(1, std::atoi(argv[++i]));

    ParticleSystem s;
    s.name = "bench";
    s.emitters = {richEmitter(5000, 2.0f)};
    print("synthetic", run(s, 10.0, frames, {}));

    ParticleSimOptions moving;
    moving.emitterTransform = [](double t) {
        return glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(float(t), 0, 0)), float(t), glm::vec3(0, 0, 1));
    };
    print("synthetic+transform", run(s, 10.0, frames, moving));

    ParticleSystem pulled = s;
    pulled.emitters[0].params.inwardAcceleration = 3.0f;
    print("synthetic+attraction", run(pulled, 10.0, frames, {}));

    ParticleSystem chain;
    chain.name = "chain";
    chain.emitters = {richEmitter(5, 2.0f), richEmitter(1000, 1.0f)};
    chain.emitters[0].spawnDuringLife = 1;
    print("chain", run(chain, 10.0, frames, {}));

    const char* env = std::getenv("RIGSCOPE_CORPUS");
    const std::string dir = std::string(env && *env ? env : RIGSCOPE_CORPUS_DIR) + "/alamo";
    std::error_code ec;
    std::vector<std::unique_ptr<ParticleSystem>> systems;
    const Resolver resolver;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file()) continue;
        try {
            Document d = resolver.read(it->path().string());
            if (d.particles) systems.push_back(std::make_unique<ParticleSystem>(*d.particles));
        } catch (const std::exception&) {
        }
    }
    if (!systems.empty()) {
        double ms = 0;
        size_t live = 0;
        for (const auto& p : systems) {
            const Result r = run(*p, 1.5, frames, {});
            ms += r.meanMs;
            live += r.live;
        }
        std::printf("corpus (%zu systems)    live %6zu  mean %7.3f ms/frame (all systems)\n", systems.size(), live, ms);
    }

    const std::string sageText = bench::sageSmokeIni();
    objects::SageFxLibrary sageLib;
    sageLib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(sageText.data()), sageText.size()), "bench.ini");
    if (const auto sage = sageLib.find("BenchSmoke")) {
        print("sage", run(*sage, 10.0, frames, {}));
        print("sage+transform", run(*sage, 10.0, frames, moving));
        ParticleSystem windy = *sage;
        windy.emitters[0].sage->wind = SageEmitterParams::Wind::PingPong;
        print("sage+wind", run(windy, 10.0, frames, {}));
    }
    {
        const std::string zh = std::string(env && *env ? env : RIGSCOPE_CORPUS_DIR) +
                               "/sage-fx/commy2+zerohour/Data/INI/ParticleSystem.ini";
        std::ifstream f(zh, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(f)), {});
        if (!text.empty()) {
            objects::SageFxLibrary lib;
            lib.readFile(ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "particlesystem.ini");
            double ms = 0;
            size_t live = 0;
            for (const std::string& name : lib.systemNames()) {
                const Result r = run(*lib.find(name), 1.5, std::min(frames, 20), {});
                ms += r.meanMs;
                live += r.live;
            }
            std::printf("sage corpus (%zu sys)  live %6zu  mean %7.3f ms/frame (all systems)  %6.1f ns/particle\n",
                        lib.systemCount(), live, ms, live ? 1e6 * ms / double(live) : 0.0);
        }
    }
    return 0;
}
