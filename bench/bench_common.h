// Shared inputs for the benchmarks: corpus file lists and a deterministic synthetic rig.
#pragma once

#include "scene/clip.h"
#include "scene/model.h"

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
