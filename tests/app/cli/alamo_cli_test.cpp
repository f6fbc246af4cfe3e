// rigscope-cli on written Alamo fixtures: JSON fields, pose matrices and exit codes.
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "cli_run.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <glm/gtc/type_ptr.hpp>
#include <sys/wait.h>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;

namespace {

using rs::test::runCli;
using Run = rs::test::CliRun;

void writeFile(const fs::path& p, const std::vector<uint8_t>& b) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// The 16 numbers after "world": of the bone named `bone` in pose JSON.
std::vector<double> worldOf(const std::string& json, const std::string& bone) {
    const size_t at = json.find("\"name\":\"" + bone + "\"");
    REQUIRE(at != std::string::npos);
    size_t p = json.find("\"world\":[", at);
    REQUIRE(p != std::string::npos);
    p += 9;
    std::vector<double> v;
    const char* s = json.c_str() + p;
    for (int i = 0; i < 16; ++i) {
        char* end = nullptr;
        v.push_back(std::strtod(s, &end));
        REQUIRE(end != s);
        s = end + 1; // skip ',' or ']'
    }
    return v;
}

struct Fixture {
    fs::path dir;
    Fixture() {
        dir = fs::temp_directory_path() / ("rigscope-cli-test-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        writeFile(dir / "SYN.ALO", alamo::writeModel(test::syntheticModel()));
        writeFile(dir / "SYN_IDLE_00.ALA", alamo::writeClip(test::syntheticClip(), {1}));
        auto bytes = alamo::writeModel(test::syntheticModel());
        bytes.resize(bytes.size() / 2);
        writeFile(dir / "CUT.ALO", bytes);
    }
    ~Fixture() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string path(const char* n) const { return "'" + (dir / n).string() + "'"; }
};

} // namespace

TEST_CASE("rigscope-cli info --json describes an Alamo model and clip", "[alamo][cli]") {
    Fixture fx;
    Run m = runCli("info --json " + fx.path("SYN.ALO"));
    REQUIRE(m.status == 0);
    const std::string& j = m.out;
    REQUIRE(j.rfind("{\"format\":\"alo\",\"bones\":[{\"name\":\"Root\",\"parent\":-1,\"visible\":true,\"billboard\":0}",
                    0) == 0);
    REQUIRE(j.find("{\"name\":\"Hand\",\"parent\":1,\"visible\":false,\"billboard\":4}") != std::string::npos);
    REQUIRE(j.find("\"name\":\"Hull_LOD1_ALT2\",\"base_name\":\"Hull\",\"lod\":1,\"alt\":2,\"hidden\":true,"
                   "\"collision\":true") != std::string::npos);
    REQUIRE(j.find("\"shader\":\"RSkinBumpColorize.fx\",\"vertex_format\":\"alD3dVertB4I4NU2U3U3C\",\"vertices\":4,"
                   "\"triangles\":2,\"drawn_by\":{\"implementation\":") != std::string::npos);
    REQUIRE(j.find("\"fidelity\":\"engine formula\"") != std::string::npos);
    REQUIRE(j.find("\"bone_map\":[1,2]") != std::string::npos);
    REQUIRE(j.find("\"params\":{\"Passes\":-7,\"Shininess\":32.5,\"Tint\":[0.25,0.5,0.75],\"Colorization\":[1,0,0.5,1],"
                   "\"BaseTexture\":\"W_TEST.TGA\"}") != std::string::npos);
    REQUIRE(
        j.find("\"lights\":[{\"name\":\"Spot\",\"type\":2,\"color\":[1,0.5,0.25],\"intensity\":2,"
               "\"far_attenuation_end\":100,\"far_attenuation_start\":50,\"hotspot_size\":0.5,\"falloff_size\":0.75,"
               "\"bone\":1}]") != std::string::npos);
    REQUIRE(j.find("{\"name\":\"p_fire_ALT1\",\"bone\":1,\"hidden\":true,\"alt_decrease_stay_hidden\":true") !=
            std::string::npos);
    REQUIRE(j.find("\"has_bias\":true,\"bias\":0.400000006") != std::string::npos);
    REQUIRE(j.find("\"has_bias\":false,\"bias\":null") != std::string::npos);
    REQUIRE(j.find("\"connections\":[{\"object\":0,\"bone\":0},{\"object\":1,\"bone\":2},{\"object\":2,\"bone\":1}]") !=
            std::string::npos);

    Run c = runCli("info --json " + fx.path("SYN_IDLE_00.ALA"));
    REQUIRE(c.status == 0);
    REQUIRE(c.out.find("\"format\":\"ala\"") != std::string::npos);
    REQUIRE(c.out.find("\"version\":1,\"frames\":5,\"fps\":10") != std::string::npos);
    REQUIRE(c.out.find("{\"bone_index\":1,\"bone_name\":\"Arm\",\"translation\":true,\"rotation\":true,\"scale\":true,"
                       "\"visibility\":false,\"step\":true}") != std::string::npos);
    REQUIRE(
        c.out.find("{\"bone_index\":2,\"bone_name\":\"HAND\",\"translation\":false,\"rotation\":false,\"scale\":false,"
                   "\"visibility\":true,\"step\":false}") != std::string::npos);

    Run t = runCli("info " + fx.path("SYN.ALO"));
    REQUIRE(t.status == 0);
    REQUIRE(t.out.find("bones: 3") != std::string::npos);
    REQUIRE(t.out.find("Hull_LOD1_ALT2") != std::string::npos);
}

TEST_CASE("rigscope-cli pose --json gives column-major world matrices", "[alamo][cli]") {
    Fixture fx;
    Run bind = runCli("pose --json " + fx.path("SYN.ALO"));
    REQUIRE(bind.status == 0);
    // Arm bind: T(1,2,3) * Rz(90): columns (0,1,0,0), (-1,0,0,0), (0,0,1,0), (1,2,3,1).
    const std::vector<double> arm = worldOf(bind.out, "Arm");
    const double expectArm[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
    for (int i = 0; i < 16; ++i)
        REQUIRE(arm[i] == Approx(expectArm[i]).margin(1e-6));
    // Hand = Arm * T(0.5,0,0): at (1, 2.5, 3).
    const std::vector<double> hand = worldOf(bind.out, "Hand");
    REQUIRE(hand[12] == Approx(1.0).margin(1e-6));
    REQUIRE(hand[13] == Approx(2.5).margin(1e-6));
    // Visibility: the synthetic Hand is hidden by default, Arm is not.
    auto visibleOf = [](const std::string& out, const std::string& bone) {
        const size_t at = out.find("\"name\":\"" + bone + "\"");
        REQUIRE(at != std::string::npos);
        const size_t v = out.find("\"visible\":", at);
        REQUIRE(v != std::string::npos);
        return out.compare(v + 10, 4, "true") == 0;
    };
    CHECK(visibleOf(bind.out, "Arm"));
    CHECK(!visibleOf(bind.out, "Hand"));

    // Stored frame 2 of the clip: Arm = T(3,2,1) * Rz(40) * S(1,2,1).
    Run f2 = runCli("pose --json " + fx.path("SYN.ALO") + " --clip " + fx.path("SYN_IDLE_00.ALA") + " --frame 2");
    REQUIRE(f2.status == 0);
    const std::vector<double> a2 = worldOf(f2.out, "Arm");
    const double c40 = std::cos(glm::radians(40.0)), s40 = std::sin(glm::radians(40.0));
    const double expect2[16] = {c40, s40, 0, 0, -2 * s40, 2 * c40, 0, 0, 0, 0, 1, 0, 3, 2, 1, 1};
    for (int i = 0; i < 16; ++i)
        REQUIRE(a2[i] == Approx(expect2[i]).margin(1e-3));
    // Hand keeps its constant clip transform: T(0.5,0,0) * Rx(45) * S(2).
    const std::vector<double> h2 = worldOf(f2.out, "Hand");
    const glm::dvec4 handPos = glm::dmat4(glm::make_mat4(a2.data())) * glm::dvec4(0.5, 0, 0, 1);
    REQUIRE(h2[12] == Approx(handPos.x).margin(1e-3));
    REQUIRE(h2[13] == Approx(handPos.y).margin(1e-3));

    // --time 0.2 s at 10 fps = frame 2.
    Run t2 = runCli("pose --json " + fx.path("SYN.ALO") + " --clip " + fx.path("SYN_IDLE_00.ALA") + " --time 0.2");
    REQUIRE(t2.status == 0);
    const std::vector<double> at2 = worldOf(t2.out, "Arm");
    for (int i = 0; i < 16; ++i)
        REQUIRE(at2[i] == Approx(a2[i]).margin(1e-3));
}

TEST_CASE("rigscope-cli exit codes: 0 ok, 1 bad file, 2 usage", "[alamo][cli]") {
    Fixture fx;
    REQUIRE(runCli("info --json " + fx.path("SYN.ALO")).status == 0);
    REQUIRE(runCli("info --json " + fx.path("CUT.ALO")).status == 1);
    REQUIRE(runCli("info --json " + fx.path("MISSING.ALO")).status == 1);
    REQUIRE(runCli("pose --json " + fx.path("CUT.ALO")).status == 1);
    REQUIRE(runCli("info --json").status == 2);
    REQUIRE(runCli("info --bogus " + fx.path("SYN.ALO")).status == 2);
    REQUIRE(runCli("frobnicate").status == 2);
    REQUIRE(runCli("pose " + fx.path("SYN.ALO")).status == 2); // --json is required
    REQUIRE(
        runCli("pose --json " + fx.path("SYN.ALO") + " --clip " + fx.path("SYN_IDLE_00.ALA") + " --frame 9").status ==
        2);
    const Run bad = runCli("info --json " + fx.path("CUT.ALO"));
    REQUIRE(bad.out.empty()); // nothing on stdout on failure
}
