// rigscope-cli diff on writer-made pairs: the text a person reads, the JSON parsed back, the exit status.
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "cli_run.h"
#include "compare_fixtures.h"
#include "corpus.h"

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;
using rs::test::runCli;
using rs::test::Stderr;

namespace {

void writeFile(const fs::path& p, const std::vector<uint8_t>& b) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// A/SYN.ALO with its clip, B/SYN.ALO with Arm raised by 0.5 in the bind pose and its clip turning Arm 30 degrees
// further at frame 2, C/SYN.ALO identical to A's, and lone clips RUN.ALA / WALK.ALA.
struct Pair {
    fs::path dir;
    Pair() {
        dir = fs::temp_directory_path() / ("rigscope-diff-test-" + std::to_string(::getpid()));
        for (const char* sub : {"A", "B", "C"})
            fs::create_directories(dir / sub);
        writeFile(dir / "A" / "SYN.ALO", alamo::writeModel(test::syntheticModel()));
        writeFile(dir / "A" / "SYN_IDLE_00.ALA", alamo::writeClip(test::syntheticClip()));
        writeFile(dir / "C" / "SYN.ALO", alamo::writeModel(test::syntheticModel()));
        writeFile(dir / "C" / "SYN_IDLE_00.ALA", alamo::writeClip(test::syntheticClip()));
        Model m = test::syntheticModel();
        m.skeleton.bones[1].bindLocal =
            glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 0.5f)) * m.skeleton.bones[1].bindLocal;
        writeFile(dir / "B" / "SYN.ALO", alamo::writeModel(m));
        Clip c = test::syntheticClip();
        c.tracks[0].rotation[2] = glm::angleAxis(glm::radians(70.0f), glm::vec3(0, 0, 1));
        writeFile(dir / "B" / "SYN_IDLE_00.ALA", alamo::writeClip(c));
        writeFile(dir / "RUN.ALA", alamo::writeClip(test::syntheticClip()));
        writeFile(dir / "WALK.ALA", alamo::writeClip(c));
        auto cut = alamo::writeModel(test::syntheticModel());
        cut.resize(cut.size() / 2);
        writeFile(dir / "CUT.ALO", cut);
    }
    ~Pair() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string path(const std::string& n) const { return "'" + (dir / n).string() + "'"; }
};

} // namespace

TEST_CASE("rigscope-cli diff: identical files exit 0 and say so", "[diff][cli]") {
    Pair p;
    const auto r = runCli("diff " + p.path("A/SYN.ALO") + " " + p.path("C/SYN.ALO"));
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("\nidentical\n") != std::string::npos);
    CHECK(r.out.find("(model, 1 clips)") != std::string::npos);
    CHECK(r.out.find("SYN_IDLE_00 (5 frames, 0.400 s) <-> SYN_IDLE_00 (5 frames, 0.400 s)") != std::string::npos);
}

TEST_CASE("rigscope-cli diff: text lists each difference once under its section, exit 1", "[diff][cli]") {
    Pair p;
    const auto r = runCli("diff " + p.path("A/SYN.ALO") + " " + p.path("B/SYN.ALO"));
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("2 differences") != std::string::npos);
    CHECK(r.out.find("Bones:\n  bone Arm moved 0.5, rotated 0 deg in the bind pose") != std::string::npos);
    const std::string track = "Clips:\n  track Arm moved 0 (at 0 s), rotated 30";
    CHECK(r.out.find(track) != std::string::npos);
    CHECK(r.out.find("deg (at 0.2 s) [clip SYN_IDLE_00]") != std::string::npos);
    // Once: the bone appears in no other row (its child Hand follows it and is not listed).
    CHECK(r.out.find("bone Arm", r.out.find("bone Arm") + 1) == std::string::npos);
    CHECK(r.out.find("Hand") == std::string::npos);
}

TEST_CASE("rigscope-cli diff --json: the summary parsed back", "[diff][cli]") {
    Pair p;
    const auto r = runCli("diff --json " + p.path("A/SYN.ALO") + " " + p.path("B/SYN.ALO"));
    CHECK(r.status == 1);
    nlohmann::json j;
    REQUIRE_NOTHROW(j = nlohmann::json::parse(r.out));
    CHECK(j["schema"] == "rigscope-diff/1");
    CHECK(j["identical"] == false);
    CHECK(j["a"]["kind"] == "model");
    CHECK(j["a"]["bones"] == 3);
    CHECK(j["b"]["clips"] == 1);
    REQUIRE(j["differences"].size() == 2);
    const auto& bone = j["differences"][0];
    CHECK(bone["category"] == "bone");
    CHECK(bone["change"] == "moved");
    CHECK(bone["subject"] == "Arm");
    CHECK(bone["distance"].get<double>() == Approx(0.5).margin(1e-5));
    CHECK(bone["local_distance"].get<double>() == Approx(0.5).margin(1e-5));
    CHECK(bone["bone_a"] == 1);
    CHECK(bone["bone_b"] == 1);
    const auto& track = j["differences"][1];
    CHECK(track["category"] == "track");
    CHECK(track["field"] == "motion");
    CHECK(track["angle"].get<double>() == Approx(30).margin(0.1));
    CHECK(track["angle_time"].get<double>() == Approx(0.2));
    CHECK(track["clip_a"] == "SYN_IDLE_00");
    REQUIRE(j["clips"].size() == 1);
    CHECK(j["clips"][0]["a"]["frames"] == 5);
    CHECK(j["clips"][0]["b"]["fps"].get<double>() == 10);
    CHECK(j["clips"][0]["largest_angle"]["bone"] == "Arm");
    CHECK(j["clips"][0]["largest_angle"]["time"].get<double>() == Approx(0.2));
    CHECK(j["clips"][0]["largest_distance"].is_null());

    const auto same = runCli("diff --json " + p.path("A/SYN.ALO") + " " + p.path("C/SYN.ALO"));
    CHECK(same.status == 0);
    const auto k = nlohmann::json::parse(same.out);
    CHECK(k["identical"] == true);
    CHECK(k["differences"].empty());
}

TEST_CASE("rigscope-cli diff: two lone clips are compared with each other", "[diff][cli]") {
    Pair p;
    const auto r = runCli("diff --json " + p.path("RUN.ALA") + " " + p.path("WALK.ALA"));
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["a"]["kind"] == "clips");
    CHECK(j["a"]["skeleton"] == false);
    REQUIRE(j["differences"].size() == 1);
    CHECK(j["differences"][0]["subject"] == "Arm");
    CHECK(j["differences"][0]["clip_a"] == "RUN");
    CHECK(j["differences"][0]["clip_b"] == "WALK");
    CHECK(j["differences"][0]["angle"].get<double>() == Approx(30).margin(0.1));
    REQUIRE(j["notes"].size() == 1);
}

TEST_CASE("rigscope-cli diff --json on a writer-made W3D pair: each known difference once", "[diff][cli][w3d]") {
    // tests/core/compare_fixtures.h: A/UNIT.W3D as written, B/UNIT.W3D with HAND moved 0.5, a bone EXTRA added,
    // a fifth vertex on the mesh, its texture renamed, and the clip 9 frames long instead of 5 with ARM 0.6
    // further at frame 2. Hierarchy and clip are found beside each model, as the viewer finds them.
    Pair p;
    test::W3dChanges all;
    all.moveHand = all.addBone = all.addVertex = all.otherTexture = all.longerClip = all.armFurther = true;
    test::writeW3dUnit(p.dir / "WA");
    test::writeW3dUnit(p.dir / "WB", all);
    const auto r = runCli("diff --json " + p.path("WA/UNIT.W3D") + " " + p.path("WB/UNIT.W3D"));
    INFO(r.out);
    CHECK(r.status == 1);
    nlohmann::json j;
    REQUIRE_NOTHROW(j = nlohmann::json::parse(r.out));
    CHECK(j["identical"] == false);
    CHECK(j["a"]["kind"] == "model");
    CHECK(j["a"]["bones"] == 4);
    CHECK(j["b"]["bones"] == 5);
    CHECK(j["a"]["clips"] == 1);
    CHECK(j["b"]["clips"] == 1);
    // Each row once, keyed by category, change, subject and field.
    std::map<std::string, nlohmann::json> rows;
    for (const auto& d : j["differences"]) {
        const std::string key = d["category"].get<std::string>() + " " + d["change"].get<std::string>() + " " +
                                d["subject"].get<std::string>() + " " + d.value("field", std::string());
        CHECK(rows.emplace(key, d).second);
    }
    CHECK(j["differences"].size() == 8);
    REQUIRE(rows.count("bone moved HAND "));
    CHECK(rows["bone moved HAND "]["distance"].get<double>() == Approx(0.5).margin(1e-5));
    CHECK(rows["bone moved HAND "]["bone_a"] == 3);
    REQUIRE(rows.count("bone added EXTRA "));
    CHECK(rows["bone added EXTRA "]["bone_b"] == 4);
    CHECK(rows.count("texture removed quad.tga "));
    CHECK(rows.count("texture added other.tga "));
    int vertices = 0, textures = 0;
    for (const auto& [key, d] : rows) {
        if (d["category"] == "submesh" && d["field"] == "vertices") {
            ++vertices;
            CHECK(d["value_a"] == 4);
            CHECK(d["value_b"] == 5);
        }
        if (d["category"] == "parameter" && d["field"] == "texture") {
            ++textures;
            CHECK(d["a"] == "quad.tga");
            CHECK(d["b"] == "other.tga");
        }
    }
    CHECK(vertices == 1);
    CHECK(textures == 1);
    REQUIRE(j["clips"].size() == 1);
    const auto& clip = j["clips"][0];
    const std::string name = clip["a"]["name"];
    REQUIRE(rows.count("clip changed " + name + " length"));
    CHECK(rows["clip changed " + name + " length"]["a"] == "5 frames at 15 fps (0.267 s)");
    CHECK(rows["clip changed " + name + " length"]["b"] == "9 frames at 15 fps (0.533 s)");
    REQUIRE(rows.count("track changed ARM motion"));
    const auto& arm = rows["track changed ARM motion"];
    CHECK(arm["distance"].get<double>() == Approx(0.6).margin(1e-4));
    CHECK(arm["distance_time"].get<double>() == Approx(2.0 / 15.0));
    CHECK(clip["a"]["frames"] == 5);
    CHECK(clip["b"]["frames"] == 9);
    CHECK(clip["largest_distance"]["bone"] == "ARM");
    CHECK(clip["largest_distance"]["distance"].get<double>() == Approx(0.6).margin(1e-4));
    CHECK(clip["largest_distance"]["time"].get<double>() == Approx(2.0 / 15.0));

    // The same set on both sides: identical, exit 0.
    test::writeW3dUnit(p.dir / "WC");
    const auto same = runCli("diff --json " + p.path("WA/UNIT.W3D") + " " + p.path("WC/UNIT.W3D"));
    CHECK(same.status == 0);
    CHECK(nlohmann::json::parse(same.out)["identical"] == true);
}

TEST_CASE("rigscope-cli diff: usage and read errors exit 2 naming the file", "[diff][cli]") {
    Pair p;
    const auto one = runCli("diff " + p.path("A/SYN.ALO"), Stderr::Merge);
    CHECK(one.status == 2);
    CHECK(one.out.find("diff needs two files") != std::string::npos);
    const auto opt = runCli("diff --bogus " + p.path("A/SYN.ALO") + " " + p.path("C/SYN.ALO"), Stderr::Merge);
    CHECK(opt.status == 2);
    const auto missing = runCli("diff " + p.path("A/SYN.ALO") + " " + p.path("NOPE.ALO"), Stderr::Merge);
    INFO(missing.out);
    CHECK(missing.status == 2);
    CHECK(missing.out.find((p.dir / "NOPE.ALO").string()) != std::string::npos);
    const auto cut = runCli("diff " + p.path("CUT.ALO") + " " + p.path("A/SYN.ALO"), Stderr::Merge);
    INFO(cut.out);
    CHECK(cut.status == 2);
    CHECK(cut.out.find((p.dir / "CUT.ALO").string()) != std::string::npos);
    CHECK(cut.out.find("offset") != std::string::npos);
}

TEST_CASE("rigscope-cli diff: corpus stormtrooper against novatrooper", "[diff][cli][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo/Delta730+Imperial_Civil_War");
    const std::string dir = test::corpusDir() + "/alamo/Delta730+Imperial_Civil_War/Data/Art/Models/";
    const auto r = runCli("diff --json '" + dir + "EI_STORMTROOPER.ALO' '" + dir + "EI_NOVATROOPER.ALO'");
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["clips"].size() == 5);
    bool reparented = false;
    for (const auto& d : j["differences"])
        if (d["change"] == "reparented" && d["subject"] == "MuzzleA_00") reparented = d["b"] == "B_Gun";
    CHECK(reparented);
}
