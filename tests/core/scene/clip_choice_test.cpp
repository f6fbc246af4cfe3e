// The clip a model starts on (core/scene/clip_choice.h): each game's idle naming, token boundaries, and the
// choice for a writer-made W3D skin whose clips are [attack, idle].
#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/clip_choice.h"
#include "scene/pose.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace rs;

TEST_CASE("isIdleClipName follows the games' idle clip names", "[clip_choice]") {
    // Alamo: <MODEL>_IDLE_<NN>, any case.
    for (const char* n : {"EI_STORMTROOPER_IDLE_00", "W_Grenade_Idle_00", "LoW_R1_Prop_WindMill_idle_00",
                          "UV_FLAME_TANK_IDLE_00.ala", "RIGSCOPE_DEMO_IDLE_00"})
        CHECK(isIdleClipName(n));
    // SAGE (BFME, Generals): _IDL, _IDLA, _IDLB, ... at the end of the clip part, also after the hierarchy's dot.
    for (const char* n :
         {"HUCHARI_SKL.HUCHARI_IDL", "huchari_idl", "huchari_idl.w3d", "GUARAGORN_SKL.GUARAGORN_IDLA",
          "auelladan_idla.w3d", "KUMORG_IDLD", "ebstables_idlb", "kbforge_idle.w3d", "UNIT_IDL2", "UNIT_IDLA2"})
        CHECK(isIdleClipName(n));
    // B&W2 animation libraries: an IDLE word.
    for (const char* n : {"a_idle", "C_IDLE", "Idle"})
        CHECK(isIdleClipName(n));
    // Words that contain the letters, transitions and other clips.
    for (const char* n : {"UV_FLAME_TANK_ATTACKIDLE_00", "IDLER_00", "MIDLAND_IDLER", "HUCHARI_SKL.HUCHARI_ATKA",
                          "huchari_idltoatka", "SIDLE_00", "IDLEST", "a_walk", "", "_", "IDXL"})
        CHECK_FALSE(isIdleClipName(n));
}

TEST_CASE("pickInitialClip: the first fitting idle clip, else the first fitting clip", "[clip_choice]") {
    CHECK(pickInitialClip({"UNIT_ATKA", "UNIT_IDL"}, {true, true}) == 1);
    CHECK(pickInitialClip({"UNIT_ATKA", "UNIT_IDL", "UNIT_IDLB"}, {true, false, true}) == 2);
    CHECK(pickInitialClip({"UNIT_ATKA", "UNIT_RUN"}, {false, true}) == 1);
    CHECK(pickInitialClip({"UNIT_IDL"}, {false}) == -1);
    CHECK(pickInitialClip({}, {}) == -1);
}

TEST_CASE("A W3D skin with clips [attack, _IDL] starts on _IDL", "[clip_choice][w3d]") {
    using namespace rs::w3d;
    ChunkWriter cw;
    writeHierarchy(cw, test::testHierarchy("HUCHARI_SKL"));
    writeMesh(cw, test::testQuad("BODY", "HUCHARI_SKN"));
    Hlod h;
    h.name = "HUCHARI_SKN";
    h.hierarchy = "HUCHARI_SKL";
    LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "HUCHARI_SKN.BODY"}};
    h.lods = {lod};
    writeHlod(cw, h);
    for (const char* name : {"HUCHARI_ATKA", "HUCHARI_IDL"}) { // the file's clip names (16 bytes at most)
        ClipSpec s;
        s.name = name;
        s.hierarchy = "HUCHARI_SKL";
        s.frames = 4;
        ChannelSpec x;
        x.pivot = 1;
        x.type = 0;
        x.values = {0, 1, 2, 3};
        s.channels = {x};
        writeClip(cw, s);
    }
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "rigscope_clip_choice_huchari.w3d";
    {
        const std::vector<uint8_t> b = cw.take();
        std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    }
    const Document d = Resolver().read(file.string());
    std::filesystem::remove(file);
    REQUIRE(d.model);
    REQUIRE(d.clips.size() == 2);
    std::vector<std::string> names;
    std::vector<bool> fits;
    for (const auto& c : d.clips) {
        names.push_back(c->name);
        fits.push_back(bindClip(d.model->skeleton, *c).ok());
    }
    INFO(names[0] << ", " << names[1]);
    REQUIRE(names[0].find("ATKA") != std::string::npos);
    CHECK(pickInitialClip(names, fits) == 1);
}
