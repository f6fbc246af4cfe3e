// Shared by the libFuzzer targets: run a reader, then hold what it returns to the model/clip contracts and
// drive pose evaluation over it. A ParseError is the expected outcome for most inputs; anything else that
// escapes (another exception, a contract violation, a sanitizer report) is a finding.
#pragma once

#include "common/error.h"
#include "formats/formats.h"
#include "particles/particle_sim.h"
#include "scene/pose.h"
#include "scene/validate.h"

#include <cstdio>
#include <cstdlib>

namespace rs::fuzz {

[[noreturn]] inline void violated(const char* what, const std::string& detail) {
    std::fprintf(stderr, "contract violation (%s): %s\n", what, detail.c_str());
    std::abort();
}

inline void exerciseModel(const Model& m) {
    if (std::string e = checkModel(m); !e.empty()) violated("model", e);
    PoseBuffers buf(m.skeleton.bones.size());
    evaluatePose(m.skeleton, nullptr, nullptr, 0.0f, LoopMode::Loop, buf.view());
    std::vector<glm::mat4> inv, pal;
    for (const Mesh& mesh : m.meshes)
        for (const SubMesh& sm : mesh.subMeshes) {
            skinInverseBind(m.skeleton, sm, inv);
            pal.resize(sm.boneMap.size());
            skinPalette(sm, inv.data(), buf.world.data(), pal.data());
        }
    // Systems the file holds (W3D emitters): simulated at a few times with a bounded budget.
    for (const BoneParticles& bp : m.particles) {
        if (!bp.system) violated("model", "a particle attachment without a system");
        ParticleSimulator sim(*bp.system);
        ParticleBuffer pb(512, bp.system->emitters.size());
        ParticleSimOptions o;
        o.maxBirths = 20000;
        for (double t : {0.0, 0.7, 5.0, 1e7})
            sim.evaluate(t, o, pb);
    }
}

// Binds the clip to a skeleton with one bone per track index it names (capped) and evaluates a few frames.
inline void exerciseClip(const Clip& c, const Model* model) {
    if (std::string e = checkClip(c); !e.empty()) violated("clip", e);
    Skeleton own;
    const Skeleton* s = model ? &model->skeleton : &own;
    if (!model) {
        int n = 0;
        for (const BoneTrack& t : c.tracks)
            if (t.bone >= n && t.bone < 4096) n = t.bone + 1;
        own.bones.resize(static_cast<size_t>(n));
        for (int i = 1; i < n; ++i)
            own.bones[static_cast<size_t>(i)].parent = i - 1;
    }
    ClipBinding b = bindClip(*s, c);
    PoseBuffers buf(s->bones.size());
    for (float f : {0.0f, 0.5f, static_cast<float>(c.frameCount) - 0.25f, 1e9f})
        evaluatePose(*s, &c, &b, f, LoopMode::Loop, buf.view());
}

inline void exerciseDocument(const Document& d) {
    if (d.model) exerciseModel(*d.model);
    for (const auto& c : d.clips)
        exerciseClip(*c, d.model.get());
}

// Runs fn (which parses and exercises); swallows ParseError only.
template <class Fn> int run(Fn&& fn) {
    try {
        fn();
    } catch (const ParseError&) {
    }
    return 0;
}

} // namespace rs::fuzz
