// rigscope-cli on Alamo particle systems: info --json emitters, particles --json against the simulation, help.
#include "alamo/particle_reader.h"
#include "alamo/particle_writer.h"
#include "cli_run.h"
#include "particle_fixtures.h"
#include "particles/particle_sim.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;
using rs::test::runCli;

namespace {

struct Dir {
    fs::path dir = fs::temp_directory_path() / ("rigscope-particle-cli-" + std::to_string(::getpid()));
    Dir() {
        fs::create_directories(dir);
        const std::vector<uint8_t> b = alamo::writeParticleSystem(test::chainFixture());
        std::ofstream(dir / "P_CHAIN.ALO", std::ios::binary)
            .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
        std::ofstream(dir / "P_CUT.ALO", std::ios::binary)
            .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size() / 2));
    }
    ~Dir() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string path(const char* n) const { return "'" + (dir / n).string() + "'"; }
};

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("rigscope-cli info --json on a particle system lists every emitter with its parameters", "[particles][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    Dir d;
    const auto r = runCli("info --json " + d.path("P_CHAIN.ALO"));
    REQUIRE(r.status == 0);
    const std::string& j = r.out;
    REQUIRE(j.rfind("{\"format\":\"alo-particle\",\"name\":\"p_test_chain\"", 0) == 0);
    REQUIRE(count(j, "\"index\":") == 3);
    REQUIRE(j.find("\"emitters\":[{\"index\":0,\"name\":\"parent\",\"color_texture\":\"p_particle_master.tga\","
                   "\"bump_texture\":\"p_particle_depth_master.tga\",\"blend\":\"additive\",\"top_level\":true,"
                   "\"spawn_on_death\":2,\"spawn_during_life\":1") != std::string::npos);
    REQUIRE(j.find("{\"index\":1,\"name\":\"trail\"") != std::string::npos);
    REQUIRE(j.find("\"top_level\":false") != std::string::npos);
    REQUIRE(j.find("\"use_bursts\":true") != std::string::npos);
    REQUIRE(j.find("\"particles_per_second\":10") != std::string::npos);
    REQUIRE(j.find("\"red\":{\"interpolation\":\"linear\",\"raw_interpolation\":0,\"keys\":[[0,0],[0.25,0.200000003],["
                   "1,1]]}") != std::string::npos);
    REQUIRE(j.find("\"unknown\":[{\"chunk\":\"0x2\",\"mini\":\"0x49\"") != std::string::npos);
    REQUIRE(j.find("\"bytes\":\"01020304\"") != std::string::npos);

    const auto t = runCli("info " + d.path("P_CHAIN.ALO"));
    REQUIRE(t.status == 0);
    REQUIRE(t.out.find("alo-particle \"p_test_chain\", 3 emitters") != std::string::npos);
    REQUIRE(t.out.find("spawns emitter 1 during life, spawns emitter 2 on death") != std::string::npos);

    const auto bad = runCli("info --json " + d.path("P_CUT.ALO"), test::Stderr::Merge);
    REQUIRE(bad.status == 1);
    REQUIRE(bad.out.find("P_CUT.ALO: chunk 0x900 at offset 0: chunk size") != std::string::npos);
}

TEST_CASE("rigscope-cli particles --json dumps the simulated particles", "[particles][cli]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    Dir d;
    const auto r = runCli("particles --json " + d.path("P_CHAIN.ALO") + " --time 2.35 --seed 9");
    REQUIRE(r.status == 0);
    // Same numbers as the library: 0 parents, 1 trail particle, 4 debris at the parent's death point x = 2.
    const ParticleSystem s = test::chainFixture();
    ParticleSimulator sim(s);
    ParticleBuffer buf(100, 3);
    ParticleSimOptions o;
    o.seed = 9;
    sim.evaluate(2.35, o, buf);
    REQUIRE(buf.count == 5);
    REQUIRE(r.out.find("\"time\":2.35,\"seed\":9,\"live\":5,\"written\":5,\"truncated\":false") != std::string::npos);
    REQUIRE(r.out.find("{\"index\":2,\"name\":\"debris\",\"count\":4,\"atlas_grid\":1}") != std::string::npos);
    REQUIRE(count(r.out, "{\"emitter\":2,\"position\":[2,0,0]") == 4);
    REQUIRE(count(r.out, "{\"emitter\":") == 5);

    const auto again = runCli("particles --json " + d.path("P_CHAIN.ALO") + " --time 2.35 --seed 9");
    REQUIRE(again.out == r.out);

    const auto help = runCli("particles --help");
    REQUIRE(help.status == 0);
    REQUIRE(help.out.find("Usage: rigscope-cli particles --json FILE --time SECONDS") != std::string::npos);
    REQUIRE(runCli("particles --json " + d.path("P_CHAIN.ALO")).status == 2); // no --time
    REQUIRE(runCli("particles --json " + d.path("P_CHAIN.ALO") + " --time x").status == 2);
    REQUIRE(runCli("particles --json " + d.path("P_CUT.ALO") + " --time 1").status == 1);
}
