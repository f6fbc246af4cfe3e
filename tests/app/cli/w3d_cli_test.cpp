// rigscope-cli on written W3D fixtures: info --json fields, pose matrices through the generic code, refusals.
#include "cli_run.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace rs;
using namespace rs::w3d;
namespace fs = std::filesystem;

namespace {

using rs::test::CliRun;

CliRun cli(const std::string& args) { return rs::test::runCli(args, rs::test::Stderr::Merge); }

struct Dir {
    fs::path path;
    Dir() {
        path = fs::temp_directory_path() / ("rigscope_w3d_cli_" + std::to_string(::getpid()));
        fs::create_directories(path);
    }
    ~Dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string put(const std::string& name, const std::vector<uint8_t>& b) const {
        const fs::path p = path / name;
        std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
        return p.string();
    }
};

std::vector<double> worldOf(const std::string& json, const std::string& bone) {
    const size_t at = json.find("\"name\":\"" + bone + "\"");
    REQUIRE(at != std::string::npos);
    size_t p = json.find("\"world\":[", at);
    REQUIRE(p != std::string::npos);
    const char* s = json.c_str() + p + 9;
    std::vector<double> v;
    for (int i = 0; i < 16; ++i) {
        char* end = nullptr;
        v.push_back(std::strtod(s, &end));
        REQUIRE(end != s);
        s = end + 1;
    }
    return v;
}

} // namespace

TEST_CASE("rigscope-cli on W3D: info --json and pose --json through a skeleton + clip pair", "[w3d][cli]") {
    Dir dir;
    ChunkWriter skl;
    writeHierarchy(skl, rs::test::testHierarchy("CLI_SKL"));
    const std::string sklPath = dir.put("cli_skl.w3d", skl.take());

    ChunkWriter skn;
    writeMesh(skn, rs::test::testQuad("QUAD", "CLI_SKN"));
    Hlod h;
    h.name = "CLI_SKN";
    h.hierarchy = "CLI_SKL";
    LodArray a;
    a.maxScreenSize = 2.5f;
    a.objects = {{1, "CLI_SKN.QUAD"}};
    h.lods = {a};
    writeHlod(skn, h);
    const std::string sknPath = dir.put("cli_skn.w3d", skn.take());

    ChunkWriter clip;
    ClipSpec c;
    c.name = "CLI_WAVE";
    c.hierarchy = "CLI_SKL";
    c.version = 0x1;
    c.frames = 5;
    c.fps = 15;
    c.codec = ClipCodec::Timecoded;
    ChannelSpec x;
    x.pivot = 1;
    x.type = 0;
    x.keyFrames = {0, 4};
    x.values = {0, 4};
    c.channels = {x};
    writeClip(clip, c);
    const std::string clipPath = dir.put("cli_wave.w3d", clip.take());

    CliRun info = cli("info --json " + sknPath);
    REQUIRE(info.status == 0);
    REQUIRE(info.out.find("\"format\":\"w3d\"") != std::string::npos);
    REQUIRE(info.out.find("{\"name\":\"BODY\",\"parent\":0}") != std::string::npos);
    REQUIRE(info.out.find("\"name\":\"QUAD\"") != std::string::npos);
    REQUIRE(info.out.find("\"max_screen_size\":2.5") != std::string::npos);
    REQUIRE(info.out.find("\"shader\":\"w3d:alpha\"") != std::string::npos);

    CliRun ci = cli("info --json " + clipPath);
    REQUIRE(ci.status == 0);
    REQUIRE(ci.out.find(
                "{\"name\":\"CLI_WAVE\",\"hierarchy\":\"CLI_SKL\",\"frames\":5,\"fps\":15,\"codec\":\"timecoded\"") !=
            std::string::npos);

    // Frame 2: BODY = T(1,2,3) Rz90 T(2,0,0) -> translation (1,4,3); column-major, translation at 12..14.
    CliRun pose = cli("pose --json " + sklPath + " --clip " + clipPath + " --frame 2");
    REQUIRE(pose.status == 0);
    std::vector<double> body = worldOf(pose.out, "BODY");
    REQUIRE(body[12] == Approx(1.0));
    REQUIRE(body[13] == Approx(4.0));
    REQUIRE(body[14] == Approx(3.0));
    REQUIRE(body[1] == Approx(1.0)); // X axis -> +Y (column 0, row 1)
    // The skin file works as MODEL too (it brings the hierarchy along).
    CliRun pose2 = cli("pose --json " + sknPath + " --clip " + clipPath + " --frame 2");
    REQUIRE(pose2.status == 0);
    REQUIRE(worldOf(pose2.out, "ARM") == worldOf(pose.out, "ARM"));

    // A clip for another hierarchy is refused, naming both.
    ChunkWriter other;
    c.hierarchy = "OTHER_SKL";
    writeClip(other, c);
    const std::string otherPath = dir.put("other.w3d", other.take());
    CliRun bad = cli("pose --json " + sklPath + " --clip " + otherPath + " --frame 1");
    REQUIRE(bad.status == 1);
    REQUIRE(bad.out.find("OTHER_SKL") != std::string::npos);
    REQUIRE(bad.out.find("CLI_SKL") != std::string::npos);

    // Shockwave 3D refused clearly.
    const std::string sw = dir.put("director.w3d", {'I', 'F', 'X', 0, 0, 0, 0, 0, 0, 0, 0, 0});
    CliRun swr = cli("info " + sw);
    REQUIRE(swr.status == 1);
    REQUIRE(swr.out.find("Shockwave 3D") != std::string::npos);
}

TEST_CASE("rigscope-cli info --json: W3D sub-meshes are drawn by ww3d2's passes, random mappers approximated",
          "[w3d][cli]") {
    Dir d;
    RawMesh q = rs::test::testQuad("QUAD", "");
    ChunkWriter cw(false);
    writeMesh(cw, q);
    const std::string plain = d.put("plain.w3d", cw.take());
    CliRun r = cli("info --json '" + plain + "'");
    REQUIRE(r.status == 0);
    REQUIRE(r.out.find("\"drawn_by\":{\"implementation\":\"ww3d2 1 pass (srcalpha/invsrcalpha)\","
                       "\"fidelity\":\"engine formula\",\"note\":\"\"}") != std::string::npos);
    q.vertexMaterials[0].attributes = 0x00100000u; // stage 0: random mapper
    ChunkWriter cw2(false);
    writeMesh(cw2, q);
    const std::string random = d.put("random.w3d", cw2.take());
    r = cli("info --json '" + random + "'");
    REQUIRE(r.status == 0);
    REQUIRE(r.out.find("\"implementation\":\"ww3d2 1 pass (srcalpha/invsrcalpha s0:Random)\","
                       "\"fidelity\":\"approximation\",\"note\":\"Random mapper") != std::string::npos);
}
