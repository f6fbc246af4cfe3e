// Full pose per frame: sample every track, world transforms and the skin palette of every skinned sub-mesh.
// Rigs: synthetic (always) and the largest rigs of the corpus with a clip that belongs to them (when present).
//   ns_per_bone   time of one full pose divided by the bone count
//   poses/s       (Instances1000) full poses per second, 1,000 instances at different times, one core
//   NaivePose/<rig>  the anchor: a naive GLM loop (glm::slerp, mat4 products) over the same rig in the same run
// --count=N: instructions per bone under callgrind instead of timing (bench_common.h countWorkload).
// Rigid mechanical rigs (no skinning: EB_LIGHTFACTORY + BUILD clip, MC80 when present) are labelled "rigid:".
#include "bench_common.h"

#include "resolve/resolver.h"
#include "scene/pose.h"

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <tuple>

using namespace rs;

namespace {

struct Rig {
    std::string label;
    std::shared_ptr<const Model> model;
    std::shared_ptr<const Clip> clip;
};

// One instance's caller-owned buffers: pose and one palette per skinned sub-mesh.
struct Instance {
    const Model* model;
    const Clip* clip;
    const ClipBinding* binding;
    PoseBuffers pose;
    std::vector<std::vector<glm::mat4>> inverseBind, palette;
    std::vector<const SubMesh*> skinned;

    Instance(const Model& m, const Clip& c, const ClipBinding& b)
        : model(&m), clip(&c), binding(&b), pose(m.skeleton.bones.size()) {
        for (const Mesh& mesh : m.meshes)
            for (const SubMesh& sm : mesh.subMeshes)
                if (sm.skinned()) {
                    skinned.push_back(&sm);
                    inverseBind.emplace_back();
                    skinInverseBind(m.skeleton, sm, inverseBind.back());
                    palette.emplace_back(sm.boneMap.size());
                }
    }
    void evaluate(float frame) {
        evaluatePose(model->skeleton, clip, binding, frame, LoopMode::Loop, pose.view());
        for (size_t i = 0; i < skinned.size(); ++i)
            skinPalette(*skinned[i], inverseBind[i].data(), pose.world.data(), palette[i].data());
    }
};

size_t paletteEntries(const Model& m) {
    size_t n = 0;
    for (const Mesh& mesh : m.meshes)
        for (const SubMesh& sm : mesh.subMeshes)
            n += sm.boneMap.size();
    return n;
}

void fullPose(benchmark::State& state, const Rig& rig) {
    ClipBinding binding = bindClip(rig.model->skeleton, *rig.clip);
    Instance inst(*rig.model, *rig.clip, binding);
    const float frames = static_cast<float>(rig.clip->frameCount);
    float frame = 0.0f;
    for (auto _ : state) {
        inst.evaluate(frame);
        benchmark::DoNotOptimize(inst.pose.world.data());
        benchmark::ClobberMemory();
        frame += 0.37f; // fractional: exercises interpolation
        if (frame >= frames) frame -= frames;
    }
    const double bones = static_cast<double>(rig.model->skeleton.bones.size());
    state.counters["bones"] = bones;
    state.counters["tracks"] = static_cast<double>(rig.clip->tracks.size());
    state.counters["palette"] = static_cast<double>(paletteEntries(*rig.model));
    state.counters["ns_per_bone"] =
        benchmark::Counter(bones * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void instances1000(benchmark::State& state, const Rig& rig) {
    ClipBinding binding = bindClip(rig.model->skeleton, *rig.clip);
    std::vector<Instance> insts;
    insts.reserve(1000);
    for (int i = 0; i < 1000; ++i)
        insts.emplace_back(*rig.model, *rig.clip, binding);
    const float frames = static_cast<float>(rig.clip->frameCount);
    float t = 0.0f;
    for (auto _ : state) {
        for (size_t i = 0; i < insts.size(); ++i) {
            insts[i].evaluate(std::fmod(t + 0.731f * static_cast<float>(i), frames));
            benchmark::DoNotOptimize(insts[i].pose.world.data());
        }
        benchmark::ClobberMemory();
        t += 0.5f;
    }
    state.SetItemsProcessed(state.iterations() * 1000);
    const double bones = static_cast<double>(rig.model->skeleton.bones.size());
    state.counters["bones"] = bones;
    state.counters["ns_per_bone"] = benchmark::Counter(
        bones * 1000 * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Anchor: the naive GLM pose loop a straightforward viewer would write (glm::mix / glm::slerp per channel,
// translate * mat4_cast * scale, bind * local for additive tracks, world = parent * local with full mat4 products,
// the same skin palette as above). Same rig, same frames, same run: FullPose / NaivePose is the speed-up.
void naivePose(benchmark::State& state, const Rig& rig) {
    const Model& m = *rig.model;
    const Clip& c = *rig.clip;
    const ClipBinding binding = bindClip(m.skeleton, c);
    const size_t n = m.skeleton.bones.size();
    std::vector<glm::mat4> local(n), world(n);
    Instance inst(m, c, binding);
    const float frames = static_cast<float>(c.frameCount);
    float frame = 0.0f;
    for (auto _ : state) {
        const float f = wrapFrame(frame, c.frameCount, LoopMode::Loop);
        const uint32_t f0 = static_cast<uint32_t>(f), f1 = std::min(f0 + 1, c.frameCount - 1);
        const float a = f - static_cast<float>(f0);
        for (size_t i = 0; i < n; ++i) {
            const Bone& b = m.skeleton.bones[i];
            const int ti = binding.trackForBone[i];
            if (ti < 0) {
                local[i] = b.bindLocal;
            } else {
                const BoneTrack& t = c.tracks[static_cast<size_t>(ti)];
                const bool add = t.mode == TrackMode::AdditiveToBind;
                const auto pick = [](const auto& v, uint32_t k) { return v[std::min<size_t>(k, v.size() - 1)]; };
                const glm::vec3 tr = t.translation.empty() ? (add ? glm::vec3(0.0f) : t.defaultTranslation)
                                                           : glm::mix(pick(t.translation, f0), pick(t.translation, f1), a);
                const glm::quat q = t.rotation.empty() ? (add ? glm::quat(1, 0, 0, 0) : t.defaultRotation)
                                                       : glm::slerp(pick(t.rotation, f0), pick(t.rotation, f1), a);
                const glm::vec3 sc = t.scale.empty() ? (add ? glm::vec3(1.0f) : t.defaultScale)
                                                     : glm::mix(pick(t.scale, f0), pick(t.scale, f1), a);
                const glm::mat4 trs = glm::translate(glm::mat4(1.0f), tr) * glm::mat4_cast(q) * glm::scale(glm::mat4(1.0f), sc);
                local[i] = add ? b.bindLocal * trs : trs;
            }
            world[i] = b.parent >= 0 ? world[static_cast<size_t>(b.parent)] * local[i] : local[i];
        }
        for (size_t i = 0; i < inst.skinned.size(); ++i) {
            const SubMesh& sm = *inst.skinned[i];
            for (size_t k = 0; k < sm.boneMap.size(); ++k)
                inst.palette[i][k] = world[static_cast<size_t>(sm.boneMap[k])] * inst.inverseBind[i][k];
        }
        benchmark::DoNotOptimize(world.data());
        benchmark::ClobberMemory();
        frame += 0.37f;
        if (frame >= frames) frame -= frames;
    }
    const double bones = static_cast<double>(n);
    state.counters["bones"] = bones;
    state.counters["ns_per_bone"] =
        benchmark::Counter(bones * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// A rigid (unskinned) mechanical rig of the corpus: the named Alamo model with its named clip, when present.
bool namedAlamoRig(const std::string& model, const std::string& clip, Rig& out) {
    std::string mp, cp;
    for (const std::string& f : bench::corpusFiles("alamo", {".alo", ".ala"})) {
        const std::string name = toLower(std::filesystem::path(f).filename().string());
        if (name == toLower(model)) mp = f;
        if (name == toLower(clip)) cp = f;
    }
    if (mp.empty() || cp.empty()) return false;
    try {
        const Resolver resolver;
        Document m = resolver.read(mp), c = resolver.read(cp);
        if (!m.model || c.clips.empty() || !bindClip(m.model->skeleton, *c.clips.front()).ok()) return false;
        out.label = "rigid:" + std::filesystem::path(mp).filename().string() + "+" +
                    std::filesystem::path(cp).filename().string();
        out.model = m.model;
        out.clip = c.clips.front();
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

std::string stemLower(const std::string& p) { return toLower(std::filesystem::path(p).stem().string()); }

// The corpus rig of a format to benchmark: among (model, clip) pairs that belong together (W3D: the clip
// names the skeleton's hierarchy; Alamo: the clip file starts with the model's name) and bind without
// problems, prefer skinned models, then the most animated bones, then the most bones.
bool bestCorpusRig(const std::string& sub, const std::vector<std::string>& exts, Rig& out) {
    std::vector<Document> docs;
    const Resolver resolver;
    for (const std::string& f : bench::corpusFiles(sub, exts)) {
        try {
            docs.push_back(resolver.read(f));
        } catch (const std::exception&) {
        }
    }
    std::tuple<bool, size_t, size_t> best{false, 0, 0};
    bool found = false;
    for (const Document& m : docs) {
        if (!m.model || m.model->skeleton.bones.empty()) continue;
        const std::string ms = stemLower(m.path), skel = toLower(m.model->skeleton.name);
        for (const Document& c : docs)
            for (const auto& clip : c.clips) {
                const std::string h = toLower(clip->hierarchyName);
                const bool named = !h.empty() && (h == skel || h == ms);
                const bool prefixed = h.empty() && stemLower(c.path).rfind(ms + "_", 0) == 0;
                if ((!named && !prefixed) || clip->frameCount < 2) continue;
                const ClipBinding b = bindClip(m.model->skeleton, *clip);
                if (!b.ok()) continue;
                size_t animated = 0;
                for (int t : b.trackForBone) animated += t >= 0;
                const std::tuple<bool, size_t, size_t> score{paletteEntries(*m.model) > 0, animated,
                                                             m.model->skeleton.bones.size()};
                if (found && score <= best) continue;
                found = true;
                best = score;
                out.label = sub + ":" + std::filesystem::path(m.path).filename().string() + "+" +
                            std::filesystem::path(c.path).filename().string();
                out.model = m.model;
                out.clip = clip;
            }
    }
    return found;
}

} // namespace

int main(int argc, char** argv) {
    const int countPasses = bench::countPasses(argc, argv);
    benchmark::Initialize(&argc, argv);
    std::vector<Rig> rigs;
    for (int bones : {52, 128}) {
        auto s = std::make_shared<bench::SyntheticRig>(bench::makeSyntheticRig(bones, 120));
        rigs.push_back({"synthetic" + std::to_string(bones), std::shared_ptr<const Model>(s, &s->model),
                        std::shared_ptr<const Clip>(s, &s->clip)});
    }
    Rig r;
    if (bestCorpusRig("alamo", {".alo", ".ala"}, r)) rigs.push_back(r);
    if (bestCorpusRig("w3d", {".w3d"}, r)) rigs.push_back(r);
    if (bestCorpusRig("bw2", {".bwm", ".al"}, r)) rigs.push_back(r);
    if (namedAlamoRig("EB_LIGHTFACTORY.ALO", "EB_LIGHTFACTORY_BUILD_00.ala", r)) rigs.push_back(r);
    if (namedAlamoRig("MC80.ALO", "MC80_IDLE_00.ala", r)) rigs.push_back(r);
    if (countPasses > 0) { // instructions per bone (bench/callgrind_counts.sh): 64 full poses a pass, as FullPose
        for (const Rig& rig : rigs) {
            ClipBinding binding = bindClip(rig.model->skeleton, *rig.clip);
            Instance inst(*rig.model, *rig.clip, binding);
            const float frames = static_cast<float>(rig.clip->frameCount);
            constexpr int kPoses = 64;
            bench::countWorkload("FullPose/" + rig.label, double(kPoses) * double(rig.model->skeleton.bones.size()),
                                 countPasses, [&] {
                                     float frame = 0.0f; // every pass poses the same frames
                                     for (int i = 0; i < kPoses; ++i) {
                                         inst.evaluate(frame);
                                         benchmark::DoNotOptimize(inst.pose.world.data());
                                         frame += 0.37f;
                                         if (frame >= frames) frame -= frames;
                                     }
                                 });
        }
        return 0;
    }
    for (const Rig& rig : rigs) {
        benchmark::RegisterBenchmark(("FullPose/" + rig.label).c_str(), fullPose, rig);
        benchmark::RegisterBenchmark(("NaivePose/" + rig.label).c_str(), naivePose, rig);
    }
    // 1,000 instances of each corpus rig and of the 52-bone synthetic rig.
    for (const Rig& rig : rigs)
        if (rig.label != "synthetic128" && rig.label.rfind("rigid:", 0) != 0)
            benchmark::RegisterBenchmark(("Instances1000/" + rig.label).c_str(), instances1000, rig);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
