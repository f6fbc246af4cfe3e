// Shared inputs for the benchmarks: corpus file lists and a deterministic synthetic rig.
#pragma once

#include "scene/clip.h"
#include "scene/model.h"

#include <functional>
#include <string>
#include <vector>

namespace rs::bench {

// Root of the corpus ($RIGSCOPE_CORPUS or the configured ../shared/corpus); empty when absent.
std::string corpusDir();

// Corpus files under sub with one of exts (lower-case, with dot), sorted.
std::vector<std::string> corpusFiles(const std::string& sub, const std::vector<std::string>& exts);

// A skeleton of `bones` bones (parent < index, branching like a biped) with one skinned sub-mesh whose bone
// map covers every bone, and a clip of `frames` frames animating translation, rotation and scale of every
// bone with distinct per-frame values. Deterministic (fixed seed).
struct SyntheticRig {
    Model model;
    Clip clip;
};
SyntheticRig makeSyntheticRig(int bones, int frames);

} // namespace rs::bench

namespace rs::bench {

// Instruction counts (bench/callgrind_counts.sh runs a benchmark under valgrind --tool=callgrind): `--count=N` on
// the command line (countPasses takes it out of argv; 0 when absent) makes the benchmark run each workload through
// countWorkload instead of Google Benchmark: one pass to warm up (caches, lazily built tables), then N passes
// between a zeroing of callgrind's counters and a dump named after the workload, and a line on stdout:
//   count <name> <units per pass> <passes>
// (units: bytes parsed, bones posed). Callgrind's Ir of the dump divided by units * passes is instructions per
// unit: the same from run to run whatever the machine's load. Natively the client requests cost nothing.
int countPasses(int& argc, char** argv);
void countWorkload(const std::string& name, double unitsPerPass, int passes, const std::function<void()>& pass);

} // namespace rs::bench
