// rigscope-cli edit (issue 39 item 5): --set, --shader, --rename-bone with the clips beside the model, --patch,
// globs expanded by the program, --dry-run, -o DIR, --in-place, malformed patches and refused edits.
#include "cli_run.h"

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "common/file_read.h"
#include "resolve/resolver.h"
#include "scene/document.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;

namespace {

test::CliRun cli(const std::string& args) { return test::runCli(args, test::Stderr::Merge); }
std::string q(const std::string& s) { return "'" + s + "'"; }

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("rigscope_editcli_" + std::to_string(getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& n) const { return (path / n).string(); }
};

void save(const std::string& path, const std::vector<uint8_t>& b) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}
void saveText(const std::string& path, const std::string& s) { save(path, std::vector<uint8_t>(s.begin(), s.end())); }
std::vector<uint8_t> load(const std::string& path) { return readFile(path, kMaxInputBytes); }

const MaterialParam* param(const Model& m, const std::string& name) {
    return m.meshes.at(0).subMeshes.at(0).material.find(name);
}

} // namespace

TEST_CASE("cli edit: --set, --shader and --rename-bone with --dry-run, a quoted glob, -o and --in-place",
          "[cli][save][edit]") {
    REQUIRE(test::cliBuilt());
    TempDir t;
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());
    const std::vector<uint8_t> ala = alamo::writeClip(test::syntheticClip());
    save(t / "m/A.ALO", alo);
    save(t / "m/B.ALO", alo);
    save(t / "m/A_WALK_00.ALA", ala);
    save(t / "m/notes.txt", {'x'});
    const std::string edits = " --set FC_Skin.Colorization=#00FF00 --shader RSkinBumpColorize.fx=MeshGloss.fx"
                              " --rename-bone Arm=Upper_Arm";

    // Dry run over a quoted glob: each file and change listed (the clip under the model naming it), nothing written.
    auto r = cli("edit " + q(t / "m/*.ALO") + edits + " --dry-run");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find(t / "m/A.ALO" + ": 0x400/0x10100/0x10106/mini 0x2 at offset ") != std::string::npos);
    CHECK(r.out.find(": Colorization 1 0 0.5 1 -> 0 1 0 1\n") != std::string::npos);
    CHECK(r.out.find(": shader RSkinBumpColorize.fx -> MeshGloss.fx\n") != std::string::npos);
    CHECK(r.out.find(t / "m/A_WALK_00.ALA" + ": 0x1000/0x1002/0x1003/mini 0x4 at offset ") != std::string::npos);
    CHECK(r.out.find("7 changes in 2 of 2 files (dry run: nothing written)") != std::string::npos);
    CHECK(load(t / "m/A.ALO") == alo);
    CHECK(load(t / "m/A_WALK_00.ALA") == ala);

    // -o DIR: both models and the clip written, read back with the new values.
    r = cli("edit " + q(t / "m/*.ALO") + edits + " -o " + q(t / "out"));
    INFO(r.out);
    REQUIRE(r.status == 0);
    for (const char* f : {"out/A.ALO", "out/B.ALO"}) {
        const Model m = alamo::readModel(ByteSpan(load(t / f)), f);
        CHECK(m.meshes.at(0).subMeshes.at(0).material.shader == "MeshGloss.fx");
        CHECK(param(m, "Colorization")->value == glm::vec4(0, 1, 0, 1));
        CHECK(m.skeleton.bones.at(1).name == "Upper_Arm");
    }
    const Document clip = Resolver().read(ByteSpan(load(t / "out/A_WALK_00.ALA")), "A_WALK_00.ALA");
    CHECK(clip.clips.at(0)->tracks.at(0).boneName == "Upper_Arm");
    CHECK(load(t / "m/A.ALO") == alo);

    // --in-place: the model and its clip replaced, equal to the -o output.
    r = cli("edit " + q(t / "m/A.ALO") + edits + " --in-place");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(load(t / "m/A.ALO") == load(t / "out/A.ALO"));
    CHECK(load(t / "m/A_WALK_00.ALA") == load(t / "out/A_WALK_00.ALA"));

    // Refused edits name the file and the edit; exit 1, nothing written.
    r = cli("edit " + q(t / "m/B.ALO") + " --set Nope.Tint=1 -o " + q(t / "bad"));
    CHECK(r.status == 1);
    CHECK(r.out.find("B.ALO") != std::string::npos);
    CHECK(r.out.find("no material Nope") != std::string::npos);
    CHECK_FALSE(fs::exists(t / "bad/B.ALO"));
    CHECK(cli("edit " + q(t / "m/nothing*.ALO") + " --set .Tint=1 --dry-run").status == 1); // matches no file
    CHECK(cli("edit " + q(t / "m/B.ALO") + " --set Tint=1 --dry-run").status == 2);         // no TARGET.PARAM
}

TEST_CASE("cli edit --patch: files and edits from JSON; malformed patches refused with line:column",
          "[cli][save][edit]") {
    REQUIRE(test::cliBuilt());
    TempDir t;
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());
    save(t / "p/models/A.ALO", alo);
    saveText(t / "p/patch.json", R"({"comment": "one texture and the light",
  "files": ["models/*.ALO"],
  "edits": [
    {"op": "rename-texture", "from": "w_test.tga", "to": "W_NEW.DDS"},
    {"op": "light-color", "target": "Spot", "value": [0, 0, 1]},
    {"op": "set", "target": "FC_Skin", "param": "Shininess", "value": 4}
  ]})");
    auto r = cli("edit --patch " + q(t / "p/patch.json") + " -o " + q(t / "out"));
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("3 changes in 1 of 1 files") != std::string::npos);
    const Model m = alamo::readModel(ByteSpan(load(t / "out/A.ALO")), "A.ALO");
    CHECK(param(m, "BaseTexture")->texture == "W_NEW.DDS");
    CHECK(param(m, "Shininess")->value.x == 4.0f);
    CHECK(m.lights.at(0).color == glm::vec3(0, 0, 1));

    saveText(t / "p/bad.json", "{\"edits\": [\n  {\"op\": \"set\" \"param\": 1}]}");
    r = cli("edit " + q(t / "p/models/A.ALO") + " --patch " + q(t / "p/bad.json") + " --dry-run");
    CHECK(r.status == 2);
    CHECK(r.out.find("bad.json:2:17:") != std::string::npos);
    saveText(t / "p/op.json", "{\"edits\": [{\"op\": \"melt\"}]}");
    r = cli("edit " + q(t / "p/models/A.ALO") + " --patch " + q(t / "p/op.json") + " --dry-run");
    CHECK(r.status == 2);
    CHECK(r.out.find("unknown op \"melt\"") != std::string::npos);
    CHECK(cli("edit " + q(t / "p/models/A.ALO") + " --patch " + q(t / "p/none.json") + " --dry-run").status != 0);
}
