#include "bench_common.h"

#include "corpus.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include <glm/gtc/matrix_transform.hpp>

// Callgrind's client requests (valgrind's header): no-ops natively; absent header, no requests.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define RS_CALLGRIND 1
#endif

namespace rs::bench {

std::string corpusDir() { return rs::test::corpusDir(); }

std::vector<std::string> corpusFiles(const std::string& sub, const std::vector<std::string>& exts) {
    return rs::test::corpusFiles(sub, exts);
}

SyntheticRig makeSyntheticRig(int bones, int frames) {
    SyntheticRig r;
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    auto randQuat = [&] { return glm::normalize(glm::quat(1.0f + u(rng), u(rng), u(rng), u(rng))); };
    r.model.format = Format::Unknown; // synthetic: no file format
    r.clip.format = Format::Unknown;
    r.clip.frameCount = static_cast<uint32_t>(frames);
    r.clip.fps = 30.0f;
    SubMesh sm;
    for (int i = 0; i < bones; ++i) {
        Bone b;
        b.name = "bone" + std::to_string(i);
        // Spine-like chains with a branch every 6 bones.
        b.parent = i == 0 ? -1 : (i % 6 == 0 ? i / 2 : i - 1);
        b.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(u(rng), u(rng), 1.0f)) * glm::mat4_cast(randQuat());
        r.model.skeleton.bones.push_back(b);
        sm.boneMap.push_back(i);

        BoneTrack t;
        t.bone = i;
        t.boneName = b.name;
        glm::quat q = randQuat();
        for (int f = 0; f < frames; ++f) {
            t.translation.push_back(glm::vec3(u(rng), u(rng), 1.0f + 0.1f * u(rng)));
            // Neighbouring frames differ by up to ~20 degrees, like real dense tracks.
            q = glm::normalize(q * glm::quat(1.0f, 0.1f * u(rng), 0.1f * u(rng), 0.1f * u(rng)));
            t.rotation.push_back(q);
            t.scale.push_back(glm::vec3(1.0f + 0.05f * u(rng)));
        }
        r.clip.tracks.push_back(std::move(t));
    }
    sm.positions.resize(1);
    Mesh mesh;
    mesh.name = "skin";
    mesh.subMeshes.push_back(std::move(sm));
    r.model.meshes.push_back(std::move(mesh));
    return r;
}

} // namespace rs::bench

namespace rs::bench {

int countPasses(int& argc, char** argv) {
    int passes = 0;
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--count=", 8) == 0) {
            passes = std::max(1, std::atoi(argv[i] + 8));
            for (int j = i; j + 1 < argc; ++j)
                argv[j] = argv[j + 1];
            --argc;
            break;
        }
    return passes;
}

void countWorkload(const std::string& name, double unitsPerPass, int passes, const std::function<void()>& pass) {
    pass(); // warm-up: not counted
#ifdef RS_CALLGRIND
    CALLGRIND_ZERO_STATS;
#endif
    for (int i = 0; i < passes; ++i)
        pass();
#ifdef RS_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(name.c_str());
#endif
    std::printf("count %s %.0f %d\n", name.c_str(), unitsPerPass, passes);
    std::fflush(stdout);
}

} // namespace rs::bench
