// Names stored as CP-1252 (bytes 0x80-0xFF in bone, mesh, material/texture, clip and event names) come out as
// UTF-8 in everything rigscope writes: glTF export (validator: 0 errors) and the CLI's JSON (info, pose), made
// from writer-made Alamo, W3D and B&W2 files.
#include <unistd.h>
#include "gltf_export.h"

#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "bw2/bw2_writer.h"
#include "bw2_fixtures.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <tiny_gltf.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;
using namespace rs;

namespace {

std::string runCommand(const std::string& cmd, int& status) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int st = pclose(p);
    status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

void writeFile(const fs::path& p, const std::vector<uint8_t>& b) {
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// Every string in a JSON document (keys and values).
void collect(const nlohmann::json& j, std::set<std::string>& out) {
    if (j.is_string()) out.insert(j.get<std::string>());
    for (auto it = j.begin(); j.is_structured() && it != j.end(); ++it) {
        if (j.is_object()) out.insert(it.key());
        collect(*it, out);
    }
}

bool anyContains(const std::set<std::string>& all, const std::string& part) {
    for (const std::string& s : all)
        if (s.find(part) != std::string::npos) return true;
    return false;
}

struct Case {
    std::string model, clip;           // files in the test folder
    std::vector<std::string> expected; // UTF-8 names the glTF and the JSON must hold
};

// Exports `c`, validates the file, reads its JSON back and looks for every expected name.
void checkExport(const fs::path& dir, const Case& c) {
    INFO(c.model);
    const fs::path out = dir / (c.model + ".gltf");
    int st = 0;
    const std::string cli = std::string("'") + RIGSCOPE_CLI + "' ";
    const std::string log = runCommand(cli + "export '" + (dir / c.model).string() + "' --clip '" +
                                           (dir / c.clip).string() + "' -o '" + out.string() + "' 2>&1",
                                       st);
    INFO(log);
    REQUIRE(st == 0);
    std::ifstream in(out);
    const nlohmann::json j = nlohmann::json::parse(in); // throws on invalid UTF-8
    std::set<std::string> all;
    collect(j, all);
    for (const std::string& e : c.expected) {
        INFO("expected name " << e);
        CHECK(anyContains(all, e));
    }
    REQUIRE(!j["animations"].empty());
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    INFO(err);
    CHECK(loader.LoadASCIIFromFile(&g, &err, &warn, out.string()));
    const std::string node = RIGSCOPE_NODE;
    // The set-up installs node, npm and the validator for the tests: their absence is a failure, not a skip.
    if (node.empty() || !fs::exists(std::string(RIGSCOPE_GLTF_VALIDATOR) + "/node_modules/gltf-validator"))
        FAIL("glTF validation needs node and the gltf-validator npm package (tools/bootstrap.sh test)");
    {
        const std::string v = runCommand("'" + node + "' '" + RIGSCOPE_VALIDATE_JS + "' '" + RIGSCOPE_GLTF_VALIDATOR +
                                             "' '" + out.string() + "' 2>&1",
                                         st);
        INFO(v);
        CHECK(v.find("\"errors\":0,") != std::string::npos);
    }
    // The CLI's JSON: info of the model and of the clip file, pose of the model with the clip.
    for (const std::string& args :
         {"info --json '" + (dir / c.model).string() + "'", "info --json '" + (dir / c.clip).string() + "'",
          "pose --json '" + (dir / c.model).string() + "' --clip '" + (dir / c.clip).string() + "'"}) {
        const std::string text = runCommand(cli + args + " 2>&1", st);
        INFO(args << "\n" << text.substr(0, 400));
        REQUIRE(st == 0);
        nlohmann::json k;
        REQUIRE_NOTHROW(k = nlohmann::json::parse(text));
        std::set<std::string> strings;
        collect(k, strings);
        CHECK(std::any_of(c.expected.begin(), c.expected.end(),
                          [&](const std::string& e) { return anyContains(strings, e); }));
    }
}

} // namespace

TEST_CASE("CP-1252 names export as UTF-8: glTF valid, CLI JSON parses", "[export][names][cli]") {
    const fs::path dir = fs::temp_directory_path() / ("rigscope_names_test_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::vector<Case> cases;
    { // Alamo: bones, meshes, material parameter and texture, light, proxy, dazzle; the clip named by its file.
        Model m = test::syntheticModel();
        m.skeleton.bones[1].name = "Arm\x80";
        m.skeleton.bones[2].name = "H\xE9nd";
        m.meshes[0].name = "FC_Sk\xEEn";
        for (MaterialParam& p : m.meshes[0].subMeshes[0].material.params)
            if (p.type == ParamType::Texture) p.texture = "W_T\xC9ST\x99.TGA";
        m.meshes[0].subMeshes[0].material.params[1].name = "Shin\xEFness";
        m.lights[0].name = "Sp\xF6t";
        m.proxies[1].name = "p_sm\xF6ke";
        m.dazzles[1].name = "Pl\xE4in";
        Clip c = test::syntheticClip();
        c.tracks[0].boneName = "Arm\x80";
        c.tracks[1].boneName = "H\xE9nd";
        writeFile(dir / "unit.alo", alamo::writeModel(m));
        writeFile(dir / "UNIT_\xC9LAN_00.ala", alamo::writeClip(c));
        cases.push_back({"unit.alo",
                         "UNIT_\xC9LAN_00.ala",
                         {"Arm\u20AC", "H\u00E9nd", "FC_Sk\u00EEn", "W_T\u00C9ST\u2122.TGA", "Shin\u00EFness",
                          "Sp\u00F6t", "p_sm\u00F6ke", "Pl\u00E4in", "UNIT_\u00C9LAN_00"}});
    }
    { // W3D: pivots, mesh, texture, clip.
        using namespace rs::w3d;
        ChunkWriter cw;
        Hierarchy h = test::testHierarchy();
        h.pivots[1].name = "B\x8AODY";
        writeHierarchy(cw, h);
        RawMesh q = test::testQuad("QU\xC4"
                                   "D",
                                   "UNIT");
        q.textures[0].name = "qu\xE4"
                             "d.tga";
        writeMesh(cw, q);
        Hlod hl;
        hl.name = "UNIT";
        hl.hierarchy = "TEST_SKL";
        LodArray lod;
        lod.maxScreenSize = 3.0e38f;
        lod.objects = {{1, "UNIT.QU\xC4"
                           "D"}};
        hl.lods = {lod};
        writeHlod(cw, hl);
        writeFile(dir / "unit.w3d", cw.take());
        ChunkWriter ca;
        ClipSpec s;
        s.name = "TEST_SKL.T\x99"
                 "C";
        s.hierarchy = "TEST_SKL";
        s.frames = 3;
        ChannelSpec x;
        x.pivot = 1;
        x.values = {0, 1, 2};
        s.channels = {x};
        writeClip(ca, s);
        writeFile(dir / "unit_anim.w3d", ca.take());
        cases.push_back({"unit.w3d", "unit_anim.w3d", {"B\u0160ODY", "QU\u00C4D", "T\u2122C"}});
    }
    { // B&W2: library bones and animations, skin mesh and texture.
        bw2::BwmFile f = test::bw2fx::skinModel(bw2::SkinLayout::U8PerIndex);
        f.meshes[0].name = "m_cr\xE9"
                           "ature";
        f.materials[0].diffuse = "t_b\xF6"
                                 "dy.dds";
        bw2::AlFile lib = test::bw2fx::library();
        lib.bones[0].name = "R\xF6"
                            "ot";
        lib.bones[1].name = "Sp\x9Cne";
        for (auto& a : lib.animations)
            a.header.name += "_\xE4";
        writeFile(dir / "creature.bwm", bw2::writeBwm(f));
        writeFile(dir / "creature.al", bw2::writeAl(lib));
        cases.push_back(
            {"creature.bwm", "creature.al", {"R\u00F6ot", "Sp\u0153ne", "m_cr\u00E9ature", "a_walk_\u00E4"}});
    }
    if (!fs::exists(RIGSCOPE_CLI)) FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    for (const Case& c : cases)
        checkExport(dir, c);
    fs::remove_all(dir);
}
