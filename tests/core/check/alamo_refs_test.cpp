// check: EaW/FoC SFX samples, GUI dialog textures, command bar components and object icons
// (core/check/alamo_refs.cpp), on a writer-made mod with planted defects over a bare game whose SFX archive holds one
// sample.
#include "check/alamo_refs.h"
#include "check/baseline.h"
#include "check/check.h"
#include "common/error.h"
#include "resolve/resolver.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rs;
using namespace rs::check;

namespace {

// A mega texture directory holding `names` (records laid out as the engine reads them).
std::vector<uint8_t> mtd(const std::vector<std::string>& names) {
    std::vector<uint8_t> b(4 + names.size() * 81, 0);
    b[0] = uint8_t(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        std::memcpy(b.data() + 4 + i * 81, names[i].data(), names[i].size());
        b[4 + i * 81 + 64 + 8] = 16;  // width
        b[4 + i * 81 + 64 + 12] = 16; // height
    }
    return b;
}

struct AlamoMod {
    fs::path root, game, mod;
    AlamoMod() {
        root = fs::temp_directory_path() / ("rigscope_alamorefs_" + std::to_string(::getpid()));
        fs::remove_all(root);
        game = root / "game";
        mod = root / "mod";
        fs::create_directories(game / "Data/Audio/SFX");
        for (const char* d : {"Data/XML", "Data/Audio/SFX", "Data/Art/Textures", "Data/Art/Models"})
            fs::create_directories(mod / d);
        // The game's 2D SFX archive: bare names, as the game's SFX archives store them.
        const std::vector<uint8_t> meg = vfs::writeMeg(1, {{"GAME_BEEP.WAV", {'R', 'I', 'F', 'F'}}});
        std::ofstream(game / "Data/Audio/SFX/SFX2D_NON_LOCALIZED.MEG", std::ios::binary)
            .write(reinterpret_cast<const char*>(meg.data()), std::streamsize(meg.size()));

        write("Data/XML/SFXEventFiles.xml", "<SFXEventFiles>\n<File>SFXEventsTest.xml</File>\n</SFXEventFiles>\n");
        write("Data/XML/SFXEventsTest.xml",
              "<SFXEvents>\n"                                                    // 1
              "<SFXEvent Name=\"Good_Bare\">\n"                                  // 2
              "  <Samples>GAME_BEEP.WAV</Samples>\n"                             // 3
              "</SFXEvent>\n"                                                    // 4
              "<SFXEvent Name=\"Good_Path\">\n"                                  // 5
              "  <Samples>Data\\Audio\\SFX\\Mod_Zap.wav</Samples>\n"             // 6
              "</SFXEvent>\n"                                                    // 7
              "<SFXEvent Name=\"Loose_Bare\">\n"                                 // 8
              "  <Samples>Mod_Zap.wav</Samples>\n"                               // 9
              "</SFXEvent>\n"                                                    // 10
              "<SFXEvent Name=\"Missing\">\n"                                    // 11
              "  <Pre_Samples>Gone_Pre.wav</Pre_Samples>\n"                      // 12
              "  <Samples>GAME_BEEP.WAV, Gone_1.wav</Samples>\n"                 // 13
              "  <Post_Samples>Data\\Audio\\SFX\\Gone_Post.wav</Post_Samples>\n" // 14
              "</SFXEvent>\n"
              "</SFXEvents>\n");
        write("Data/Audio/SFX/Mod_Zap.wav", "RIFF");

        write("Data/XML/GUIDialogs.xml",
              "<GuiDialogs>\n"                                                  // 1
              "<Textures File=\"MT_GUI\" Compressed_File=\"MT_GUI_C\">\n"       // 2
              "<Default_Texture>\n"                                             // 3
              "  <Button_Left>button_l.tga</Button_Left>\n"                     // 4 in the MTD
              "  <Frame_Top>gone_top.tga</Frame_Top>\n"                         // 5 missing
              "  <Frame_Background>bg_file.tga</Frame_Background>\n"            // 6 texture file
              "  <Scanlines>frame_top.tga</Scanlines>\n"                        // 7 MTD only: missing
              "  <Check_On>none</Check_On>\n"                                   // 8
              "</Default_Texture>\n"                                            // 9
              "<Special_Button>\n"                                              // 10
              "  <Button_Left>gone_left.tga</Button_Left>\n"                    // 11 not loaded
              "  <Button_Middle>mid_file.tga</Button_Middle>\n"                 // 12 texture file
              "  <Button_Middle_Pressed>button_l.tga</Button_Middle_Pressed>\n" // 13 file only: missing
              "</Special_Button>\n"                                             // 14
              "<Other>\n"                                                       // 15
              "  <Button_Left>gone_left2.tga</Button_Left>\n"                   // 16 missing
              "  <Not_A_Type>x.tga</Not_A_Type>\n"                              // 17 ignored
              "</Other>\n"
              "</Textures>\n"
              "</GuiDialogs>\n");
        writeBytes("Data/Art/Textures/MT_GUI.MTD", mtd({"button_l.tga", "FRAME_TOP.TGA"}));
        write("Data/Art/Textures/MT_GUI.TGA", "tga");
        write("Data/Art/Textures/BG_FILE.DDS", "dds");
        write("Data/Art/Textures/MID_FILE.TGA", "tga");

        write("Data/XML/CommandBarComponentFiles.xml", "<Files>\n<File>CommandBarComponents.xml</File>\n</Files>\n");
        write("Data/XML/CommandBarComponents.xml",
              "<CommandBarComponents>\n"                                             // 1
              "<CommandBarComponent Name=\"g_shell\">\n"                             // 2
              "  <Type>Shell</Type>\n"                                               // 3
              "  <Model_Name>gone_bar.alo</Model_Name>\n"                            // 4 missing
              "</CommandBarComponent>\n"                                             // 5
              "<CommandBarComponent Name=\"g_shell_ok\">\n"                          // 6
              "  <Type>Shell</Type>\n"                                               // 7
              "  <Model_Name>bar_ok.alo</Model_Name>\n"                              // 8
              "</CommandBarComponent>\n"                                             // 9
              "<CommandBarComponent Name=\"g_shell_none\">\n"                        // 10
              "  <Type>Shell</Type>\n"                                               // 11 no model
              "</CommandBarComponent>\n"                                             // 12
              "<CommandBarComponent Name=\"b_build\">\n"                             // 13
              "  <Type>Button</Type>\n"                                              // 14
              "  <Icon_Texture_Name>bar_frame.tga</Icon_Texture_Name>\n"             // 15 in the MTD
              "  <Mouse_Over_Texture_Name>bar_file.tga</Mouse_Over_Texture_Name>\n"  // 16 texture file
              "  <Disabled_Texture_Name>gone_disabled.tga</Disabled_Texture_Name>\n" // 17 missing
              "  <Flash_Texture_Name>none</Flash_Texture_Name>\n"                    // 18
              "</CommandBarComponent>\n"
              "</CommandBarComponents>\n");
        writeBytes("Data/Art/Textures/MT_COMMANDBAR.MTD", mtd({"BAR_FRAME.TGA", "i_button_good.tga"}));
        write("Data/Art/Textures/MT_COMMANDBAR.TGA", "tga");
        write("Data/Art/Textures/BAR_FILE.DDS", "dds");
        write("Data/Art/Models/BAR_OK.ALO", "alo");

        write("Data/XML/GameObjectFiles.xml", "<GameObjectFiles>\n<File>Units.xml</File>\n</GameObjectFiles>\n");
        write("Data/XML/Units.xml", "<Units>\n"                                    // 1
                                    "<SpaceUnit Name=\"Good_Icon\">\n"             // 2
                                    "  <Icon_Name>I_Button_Good.tga</Icon_Name>\n" // 3
                                    "</SpaceUnit>\n"                               // 4
                                    "<SpaceUnit Name=\"Bad_Icon\">\n"              // 5
                                    "  <Icon_Name>i_button_gone.tga</Icon_Name>\n" // 6 missing
                                    "</SpaceUnit>\n"
                                    "</Units>\n");
    }
    ~AlamoMod() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    void write(const std::string& rel, const std::string& text) const {
        std::ofstream(mod / rel, std::ios::binary) << text;
    }
    void writeBytes(const std::string& rel, const std::vector<uint8_t>& b) const {
        std::ofstream(mod / rel, std::ios::binary)
            .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    }
    std::shared_ptr<const vfs::MountTable> mount(bool withGame = true) const {
        return std::make_shared<const vfs::MountTable>(vfs::mountInstall(
            withGame ? std::vector<std::string>{game.string()} : std::vector<std::string>{}, {mod.string()}));
    }
};

std::vector<std::string> summary(const std::vector<Finding>& out) {
    std::vector<std::string> got;
    for (const Finding& f : out)
        got.push_back(f.id + " " + f.key + ":" + std::to_string(f.where.line) + " " + f.subject);
    std::sort(got.begin(), got.end());
    return got;
}

} // namespace

TEST_CASE("check: EaW SFX samples, GUI dialog textures, command bar components and icons resolve or are named",
          "[check][alamo-refs]") {
    AlamoMod m;
    auto table = m.mount();
    std::vector<Finding> out;
    std::vector<std::string> referenced;
    checkAlamoReferences(*table, out, referenced);
    CHECK(summary(out) == std::vector<std::string>{
                              "commandbar.icon-missing DATA/XML/UNITS.XML:6 i_button_gone.tga",
                              "commandbar.model-missing DATA/XML/COMMANDBARCOMPONENTS.XML:11 ",
                              "commandbar.model-missing DATA/XML/COMMANDBARCOMPONENTS.XML:4 gone_bar.alo",
                              "commandbar.texture-missing DATA/XML/COMMANDBARCOMPONENTS.XML:17 gone_disabled.tga",
                              "gui.megatexture-missing DATA/XML/GUIDIALOGS.XML:2 MT_GUI_C.dds",
                              "gui.texture-missing DATA/XML/GUIDIALOGS.XML:13 button_l.tga",
                              "gui.texture-missing DATA/XML/GUIDIALOGS.XML:16 gone_left2.tga",
                              "gui.texture-missing DATA/XML/GUIDIALOGS.XML:5 gone_top.tga",
                              "gui.texture-missing DATA/XML/GUIDIALOGS.XML:7 frame_top.tga",
                              "sfx.sample-loose-only DATA/XML/SFXEVENTSTEST.XML:9 Mod_Zap.wav",
                              "sfx.sample-missing DATA/XML/SFXEVENTSTEST.XML:12 Gone_Pre.wav",
                              "sfx.sample-missing DATA/XML/SFXEVENTSTEST.XML:13 Gone_1.wav",
                              "sfx.sample-missing DATA/XML/SFXEVENTSTEST.XML:14 Data\\Audio\\SFX\\Gone_Post.wav",
                          });
    for (const Finding& f : out) {
        REQUIRE(findCheck(f.id));
        CHECK(f.level == findCheck(f.id)->level);
        CHECK((!f.where.object.empty() || f.id == "gui.megatexture-missing"));
        CHECK(f.file.find(m.mod.string()) == 0); // the definition file on disk
    }
    // What resolved is referenced: the SFX archive, the loose sample, the mega textures and their directories,
    // the texture files the GUI and command bar use, the shell model.
    auto referencedName = [&](const std::string& tail) {
        return std::any_of(referenced.begin(), referenced.end(), [&](const std::string& r) {
            return r.size() >= tail.size() && r.compare(r.size() - tail.size(), tail.size(), tail) == 0;
        });
    };
    for (const char* tail : {"SFX2D_NON_LOCALIZED.MEG", "Mod_Zap.wav", "MT_GUI.MTD", "MT_GUI.TGA", "BG_FILE.DDS",
                             "MID_FILE.TGA", "MT_COMMANDBAR.MTD", "MT_COMMANDBAR.TGA", "BAR_FILE.DDS", "BAR_OK.ALO"})
        CHECK(referencedName(tail));

    SECTION("without the mega texture's .tga the directory is not used: its names are missing") {
        fs::remove(m.mod / "Data/Art/Textures/MT_COMMANDBAR.TGA");
        std::vector<Finding> o2;
        checkAlamoReferences(*m.mount(), o2, referenced);
        const auto got = summary(o2);
        CHECK(std::count(got.begin(), got.end(), "commandbar.icon-missing DATA/XML/UNITS.XML:3 I_Button_Good.tga"));
        CHECK(std::count(got.begin(), got.end(),
                         "commandbar.megatexture-missing DATA/XML/COMMANDBARCOMPONENTFILES.XML:0 MT_COMMANDBAR.MTD"));
        CHECK(std::count(got.begin(), got.end(),
                         "commandbar.texture-missing DATA/XML/COMMANDBARCOMPONENTS.XML:15 bar_frame.tga"));
    }
    SECTION("a mod without SFXEventFiles.xml, GUIDialogs.xml or command bar files: nothing is judged") {
        for (const char* f :
             {"SFXEventFiles.xml", "GUIDialogs.xml", "CommandBarComponentFiles.xml", "GameObjectFiles.xml"})
            fs::remove(m.mod / "Data/XML" / f);
        std::vector<Finding> o2;
        checkAlamoReferences(*m.mount(), o2, referenced);
        CHECK(o2.empty());
    }
    SECTION("a listed file that is missing, and a malformed GUIDialogs.xml, are named") {
        m.write("Data/XML/SFXEventFiles.xml",
                "<SFXEventFiles>\n<File>SFXEventsTest.xml</File>\n<File>SFXEventsGone.xml</File>\n</SFXEventFiles>\n");
        m.write("Data/XML/GUIDialogs.xml", "<GuiDialogs>\n<Textures File=\"MT_GUI\">\n<Default_Texture>\n");
        std::vector<Finding> o2;
        checkAlamoReferences(*m.mount(), o2, referenced);
        const auto got = summary(o2);
        CHECK(std::count(got.begin(), got.end(),
                         "object.file-missing DATA/XML/SFXEVENTSGONE.XML:0 DATA/XML/SFXEVENTSGONE.XML"));
        const auto bad = std::find_if(o2.begin(), o2.end(), [](const Finding& f) {
            return f.id == "object.definition-error" && f.key == "DATA/XML/GUIDIALOGS.XML";
        });
        REQUIRE(bad != o2.end());
        CHECK_THAT(bad->message, Catch::Contains("malformed XML"));
        CHECK_THAT(bad->message, Catch::Contains("line 3"));
    }
}

TEST_CASE("check: a mega texture directory is read record by record and a short one is refused by name",
          "[check][alamo-refs]") {
    const std::vector<uint8_t> b = mtd({"A.TGA", "i_button_x.tga"});
    CHECK(readMtdNames(b.data(), b.size(), "X.MTD") == std::vector<std::string>{"A.TGA", "I_BUTTON_X.TGA"});
    try {
        readMtdNames(b.data(), b.size() - 1, "X.MTD");
        FAIL("a directory one byte short was read");
    } catch (const ParseError& e) {
        CHECK(e.file() == "X.MTD");
        CHECK_THAT(e.message(), Catch::Contains("claims 2 records"));
    }
    std::vector<uint8_t> huge = {0xFF, 0xFF, 0xFF, 0xFF};
    CHECK_THROWS_AS(readMtdNames(huge.data(), huge.size(), "H.MTD"), ParseError);
    CHECK_THROWS_AS(readMtdNames(huge.data(), 2, "H.MTD"), ParseError);
}

TEST_CASE("check: the EaW reference checks through checkMount: left to the base game without it, baselined with it",
          "[check][alamo-refs]") {
    AlamoMod m;
    Options o;
    o.threads = 1;
    SECTION("a mod without its game: the references become ref.base-game notes") {
        const Resolver r(m.mount(false));
        const Report rep = checkMount(r, o);
        bool sfxNote = false;
        for (const Finding& f : rep.findings) {
            CHECK(f.id != "sfx.sample-missing");
            if (f.id == "ref.base-game" && f.subject == "sfx.sample-missing") {
                sfxNote = true;
                // GAME_BEEP.WAV twice (the game's archive is not mounted), Gone_Pre, Gone_1, Gone_Post.
                CHECK_THAT(f.message, Catch::StartsWith("5 references (sfx.sample-missing, 4 names)"));
            }
        }
        CHECK(sfxNote);
    }
    SECTION("with the game: a baseline of today's findings, then a new missing sample is the only new finding") {
        const Resolver r(m.mount());
        const Report before = checkMount(r, o);
        const std::vector<BaselineEntry> baseline = readBaseline(writeBaseline(before), "baseline.json");
        m.write("Data/XML/SFXEventsTest.xml", "<SFXEvents>\n"
                                              "<SFXEvent Name=\"Added\">\n"
                                              "  <Samples>Gone_New.wav</Samples>\n"
                                              "</SFXEvent>\n"
                                              "<SFXEvent Name=\"Good_Bare\">\n"
                                              "  <Samples>GAME_BEEP.WAV</Samples>\n"
                                              "</SFXEvent>\n"
                                              "<SFXEvent Name=\"Missing\">\n"
                                              "  <Pre_Samples>Gone_Pre.wav</Pre_Samples>\n"
                                              "  <Samples>GAME_BEEP.WAV, Gone_1.wav</Samples>\n"
                                              "  <Post_Samples>Data\\Audio\\SFX\\Gone_Post.wav</Post_Samples>\n"
                                              "</SFXEvent>\n"
                                              "</SFXEvents>\n");
        const Resolver r2(m.mount());
        const Report after = checkMount(r2, o);
        const Compared cmp = compareWithBaseline(after, baseline);
        REQUIRE(cmp.newCount == 1);
        for (size_t i = 0; i < after.findings.size(); ++i)
            if (cmp.state[i] == BaselineState::New) CHECK(after.findings[i].subject == "Gone_New.wav");
        // Moved down four lines, the other missing samples are unchanged; the loose-only note is gone (fixed).
        CHECK(cmp.absent.size() == 1);
        CHECK(cmp.absent.at(0).id == "sfx.sample-loose-only");
    }
}
