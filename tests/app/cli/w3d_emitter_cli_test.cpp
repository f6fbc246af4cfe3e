// rigscope-cli particles --json on W3D emitters (chunk 0x500): a writer-made .w3d with two emitters on bones; the
// particles written equal the library's simulation of the emitter read back (w3d::toParticleSystem); --system picks
// one by name, a file with several and no --system is refused naming them, one without emitters is refused.
#include "cli_run.h"
#include "particles/particle_sim.h"
#include "w3d/w3d_fx.h"
#include "w3d/w3d_reader.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;
using rs::test::runCli;

namespace {

w3d::Emitter emitter(const std::string& name, float rate, glm::vec3 velocity) {
    w3d::Emitter e;
    e.name = name;
    e.lifetime = 2.0f;
    e.emissionRate = rate;
    e.velocity = velocity;
    e.hasInfoV2 = e.hasProps = true;
    e.burstSize = 1;
    e.creationVolume = {0, {0.3f, 0.3f, 0.3f}};
    e.shader.srcBlend = 1;
    e.shader.destBlend = 1;
    e.colorKeys = {{0.0f, {1.0f, 0.2f, 0.1f}}};
    e.opacityKeys = {{0.0f, {1.0f, 0, 0}}};
    e.sizeKeys = {{0.0f, {0.6f, 0, 0}}};
    return e;
}

std::vector<uint8_t> unit(bool two) {
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    w3d::writeEmitter(cw, emitter("SMOKE", 10.0f, {0, 0, 1}));
    if (two) w3d::writeEmitter(cw, emitter("SPARK", 4.0f, {1, 0, 0}));
    w3d::writeMesh(cw, test::testQuad("PLATE", "UNIT"));
    w3d::Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    w3d::LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "UNIT.PLATE"}};
    h.lods = {lod};
    h.aggregates = {{2, "SMOKE"}};
    if (two) h.aggregates.push_back({3, "SPARK"});
    w3d::writeHlod(cw, h);
    return cw.take();
}

struct Dir {
    fs::path dir = fs::temp_directory_path() / ("rigscope-w3d-emitter-cli-" + std::to_string(::getpid()));
    Dir() {
        fs::create_directories(dir);
        write("one.w3d", unit(false));
        write("two.w3d", unit(true));
        w3d::ChunkWriter cw;
        w3d::writeHierarchy(cw, test::testHierarchy());
        write("none.w3d", cw.take());
    }
    void write(const char* name, const std::vector<uint8_t>& b) const {
        std::ofstream(dir / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
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

TEST_CASE("rigscope-cli particles --json simulates a W3D emitter", "[particles][cli][w3d]") {
    if (!test::cliBuilt()) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    Dir d;
    const auto r = runCli("particles --json " + d.path("one.w3d") + " --time 1.02 --seed 3");
    INFO(r.out);
    REQUIRE(r.status == 0);
    // The library's numbers for the emitter as read back from the same bytes.
    const std::vector<uint8_t> bytes = unit(false);
    const w3d::File f = w3d::readFile(ByteSpan(bytes), "one.w3d");
    REQUIRE(f.emitters.size() == 1);
    const ParticleSystem s = w3d::toParticleSystem(f.emitters[0], "one.w3d");
    ParticleSimulator sim(s);
    ParticleBuffer buf(1000, s.emitters.size());
    ParticleSimOptions o;
    o.seed = 3;
    sim.evaluate(1.02, o, buf);
    REQUIRE(buf.count == 10); // 10 a second, the first at 0.1 s, 2 s lives
    REQUIRE(r.out.rfind("{\"format\":\"w3d-emitter\",\"name\":\"" + s.name + "\"", 0) == 0);
    REQUIRE(r.out.find("\"bone\":2,\"bone_name\":\"ARM\",\"systems_in_file\":[\"SMOKE\"]") != std::string::npos);
    REQUIRE(r.out.find("\"live\":10,\"written\":10,\"truncated\":false") != std::string::npos);
    REQUIRE(count(r.out, "{\"emitter\":0,\"position\":") == 10);
    // Each particle as simulated: its position, and its age.
    for (size_t i = 0; i < buf.count; ++i) {
        const SimParticle& p = buf.particles[i];
        char pos[128];
        std::snprintf(pos, sizeof pos, "\"position\":[%.9g,%.9g,%.9g]", double(p.position.x), double(p.position.y),
                      double(p.position.z));
        INFO("particle " << i << " " << pos);
        CHECK(r.out.find(pos) != std::string::npos);
    }

    // Two emitters: refused without --system (both named), picked by name with it.
    const auto many = runCli("particles --json " + d.path("two.w3d") + " --time 1", test::Stderr::Merge);
    CHECK(many.status == 2);
    CHECK(many.out.find("SMOKE, SPARK") != std::string::npos);
    const auto spark = runCli("particles --json " + d.path("two.w3d") + " --time 1.02 --system spark");
    INFO(spark.out);
    REQUIRE(spark.status == 0);
    CHECK(spark.out.find("\"bone\":3,\"bone_name\":\"HAND\"") != std::string::npos);
    CHECK(count(spark.out, "{\"emitter\":0,\"position\":") == 4); // 4 a second
    const auto missing =
        runCli("particles --json " + d.path("two.w3d") + " --time 1 --system NOPE", test::Stderr::Merge);
    CHECK(missing.status == 1);
    CHECK(missing.out.find("no W3D emitter NOPE") != std::string::npos);
    const auto none = runCli("particles --json " + d.path("none.w3d") + " --time 1", test::Stderr::Merge);
    CHECK(none.status == 1);
    CHECK(none.out.find("holds no W3D emitter") != std::string::npos);
}
