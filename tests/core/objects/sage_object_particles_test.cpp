// A BFME II object's particle systems (ParticleSysBone in its draw states) on its assembled scene: the systems each
// state names, at the bones of the state's model, with their definitions from the mounted INI, simulated there.
#include "corpus.h"
#include "objects/model_probe.h"
#include "objects/object_db.h"
#include "objects/object_states.h"
#include "particles/particle_sim.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cctype>
#include <set>

using namespace rs;
using namespace rs::objects;

namespace {

std::string up(std::string s) {
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// "BONE SYSTEM" of every system of the state, upper case, as a set.
std::set<std::string> named(const LoadedState& ls) {
    std::set<std::string> out;
    for (const LoadedParticles& p : ls.particles)
        out.insert(up(p.bone + " " + p.system));
    return out;
}

} // namespace

TEST_CASE("objects: AngmarForgeWorks shows its forge smoke and fire particle systems at their bones by state",
          "[sage-particles][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("games/SymoniusGit+TROWMod");
    const auto table = std::make_shared<const vfs::MountTable>(
        vfs::mountInstall({}, {rs::test::corpusDir() + "/games/SymoniusGit+TROWMod"}));
    const Resolver resolver(table);
    const auto db = ObjectDb::load(*table);
    const ModelProbe probe = documentProbe(*table);
    const auto states = objectStates(*db, *table, db->assemble("AngmarForgeWorks", probe), probe);
    auto load = [&](const std::string& label) {
        const int i = findState(states, label);
        REQUIRE(i >= 0);
        return loadState(resolver, states[size_t(i)]);
    };
    const LoadedState intact = load("default");
    REQUIRE(intact.model);
    CHECK(named(intact) == std::set<std::string>{"SMOKE01 ANGFORGESMOKE", "SMOKE01 ANGFORGEWORKSGLOW",
                                                 "SMOKE01 ANGFORGEWORKSFIRE", "SMOKE01 ANGFORGEWORKSGLOW01"});
    const LoadedState damaged = load("DAMAGED");
    CHECK(named(damaged) == std::set<std::string>{"FIRESMALL01 FIREBUILDINGLARGE", "FIRESMALL02 FIREBUILDINGMEDIUM",
                                                  "FIRESMALL03 FIREBUILDINGMEDIUM", "FIRESMALL04 FIREBUILDINGSMALL",
                                                  "FIRESMALL05 SMOKEBUILDINGLARGE"});
    const LoadedState wrecked = load("REALLYDAMAGED");
    CHECK(named(wrecked) == std::set<std::string>{"FIRESMALL01 FIREBUILDINGLARGE", "FIRESMALL02 FIREBUILDINGLARGE",
                                                  "FIRESMALL03 FIREBUILDINGMEDIUM", "FIRESMALL04 SMOKEBUILDINGLARGE",
                                                  "FIRESMALL05 SMOKEBUILDINGLARGE"});
    // Bones the state's model has are used; the others (KBForge_D1 has FireSmall01 and 02 only, KBForge_D2 01 to
    // 04) are named as missing, as every reference that does not resolve, and their systems stand at the origin.
    auto check = [&](const LoadedState& ls, int found) {
        int n = 0;
        for (const LoadedParticles& p : ls.particles) {
            INFO(p.bone << " " << p.system);
            REQUIRE(p.definition);
            REQUIRE(p.definition->emitters.size() >= 1);
            CHECK(p.definition->emitters[0].sage);
            if (p.boneIndex >= 0) {
                ++n;
                CHECK(up(ls.model->skeleton.bones[size_t(p.boneIndex)].name) == up(p.bone));
            } else {
                CHECK(std::find(ls.missing.begin(), ls.missing.end(),
                                "bone " + p.bone + " for particle system " + p.system + " not in " +
                                    (&ls == &damaged ? "KBForge_D1" : "KBForge_D2")) != ls.missing.end());
            }
        }
        CHECK(n == found);
    };
    check(intact, 4);
    check(damaged, 2);
    check(wrecked, 4);

    // Simulated at the bone: births follow the bone's bind-pose world transform. With only the bone's translation
    // applied the particles are those at the origin moved by it (drift and gravity are world-space, unrotated).
    const LoadedParticles& fire = damaged.particles.front();
    PoseBuffers pose(damaged.model->skeleton.bones.size());
    evaluatePose(damaged.model->skeleton, nullptr, nullptr, 0.0f, LoopMode::Loop, pose.view());
    const glm::vec3 at = glm::vec3(pose.world[size_t(fire.boneIndex)][3]);
    ParticleSimulator sim(*fire.definition);
    ParticleBuffer origin(4096, fire.definition->emitters.size()), placed(4096, fire.definition->emitters.size());
    ParticleSimOptions o;
    sim.evaluate(1.0, o, origin);
    o.emitterTransform = [&](double) { return glm::translate(glm::mat4(1.0f), at); };
    sim.evaluate(1.0, o, placed);
    REQUIRE(origin.count > 0);
    REQUIRE(placed.count == origin.count);
    CHECK(glm::length(at) > 1.0f);
    for (size_t i = 0; i < origin.count; ++i) {
        const glm::vec3 d = placed.particles[i].position - origin.particles[i].position - at;
        CHECK(glm::length(d) < 1e-3f);
    }
}
