// check: SAGE command sets, command buttons, mapped images and their textures (core/check/sage_commands.cpp), on a
// writer-made Zero Hour-style mod over a bare game.
#include "check/check.h"
#include "check/sage_commands.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rs;
using namespace rs::check;

namespace {
struct SageMod {
    fs::path root, game, mod;
    SageMod() {
        root = fs::temp_directory_path() / ("rigscope_sagecmd_" + std::to_string(::getpid()));
        fs::remove_all(root);
        game = root / "game";
        mod = root / "mod";
        fs::create_directories(game / "Data/INI");
        fs::create_directories(mod / "Data/INI/Object");
        fs::create_directories(mod / "Data/INI/MappedImages");
        fs::create_directories(mod / "Art/Textures");
        write("Data/INI/CommandSet.ini", "CommandSet DozerSet\n  1 = Command_Build\n  2 = Command_Gone\nEnd\n"
                                         "CommandSet TankSet\n  1 = Command_Build\nEnd\n");
        write("Data/INI/CommandButton.ini",
              "CommandButton Command_Build\n  Command = DOZER_CONSTRUCT\n  Object = Barracks\n"
              "  ButtonImage = SABarracks\nEnd\n\n"
              "CommandButton Command_Stop\n  Command = STOP\n  Object = NoSuchThing\n  ButtonImage = SANoImage\nEnd\n");
        write("Data/INI/MappedImages/Buttons.ini",
              "MappedImage SABarracks\n  Texture = SACommandBar.tga\n  TextureWidth = 512\nEnd\n"
              "MappedImage SAOther\n  Texture = SAGone.tga\nEnd\n");
        write("Data/INI/Object/Units.ini", "Object Dozer\n  CommandSet = DozerSet\nEnd\n"
                                           "Object Barracks\n  CommandSet = NoSet\nEnd\n"
                                           "Object Tank\n  SelectPortrait = SABarracks\n"  // 7, 8
                                           "  ButtonImage = SANoPortrait\n"                // 9
                                           "  Behavior = CommandSetUpgrade ModuleTag_01\n" // 10
                                           "    CommandSet = UpgradedSet\n"                // 11
                                           "  End\nEnd\n");
        write("Art/Textures/SACommandBar.tga", "not read here");
    }
    ~SageMod() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    void write(const std::string& rel, const std::string& text) const {
        std::ofstream(mod / rel, std::ios::binary) << text;
    }
};
} // namespace

TEST_CASE("check: SAGE command sets, buttons, objects, mapped images and their textures resolve or are named",
          "[check][sage]") {
    SageMod m;
    auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({m.game.string()}, {m.mod.string()}));
    std::vector<Finding> out;
    std::vector<std::string> referenced;
    checkSageCommands(*table, out, referenced);
    std::vector<std::string> got;
    for (const Finding& f : out)
        got.push_back(f.id + " " + f.key + ":" + std::to_string(f.where.line) + " " + f.subject);
    std::sort(got.begin(), got.end());
    CHECK(got == std::vector<std::string>{
                     "ini.button-object-missing DATA/INI/COMMANDBUTTON.INI:9 NoSuchThing",
                     "ini.commandbutton-missing DATA/INI/COMMANDSET.INI:3 Command_Gone",
                     "ini.commandset-missing DATA/INI/OBJECT/UNITS.INI:11 UpgradedSet",
                     "ini.commandset-missing DATA/INI/OBJECT/UNITS.INI:5 NoSet",
                     "ini.mappedimage-missing DATA/INI/COMMANDBUTTON.INI:10 SANoImage",
                     "ini.mappedimage-missing DATA/INI/OBJECT/UNITS.INI:9 SANoPortrait",
                     "ini.mappedimage-texture-missing DATA/INI/MAPPEDIMAGES/BUTTONS.INI:6 SAGone.tga",
                 });
    for (const Finding& f : out)
        CHECK(f.level == Level::Warning);
    // The texture that resolves is referenced (not reported as unreferenced).
    REQUIRE(referenced.size() == 1);
    CHECK_THAT(referenced[0], Catch::Contains("SACommandBar.tga"));
    CHECK(findCheck("ini.mappedimage-missing"));

    // A mod that defines no command buttons at all (the base game's): its command sets are not judged.
    fs::remove(m.mod / "Data/INI/CommandButton.ini");
    auto t2 = std::make_shared<const vfs::MountTable>(vfs::mountInstall({m.game.string()}, {m.mod.string()}));
    out.clear();
    checkSageCommands(*t2, out, referenced);
    for (const Finding& f : out)
        CHECK(f.id != "ini.commandbutton-missing");

    // Through checkMount: the findings are in the report.
    const Report rep = checkMount(
        Resolver(std::make_shared<const vfs::MountTable>(vfs::mountInstall({m.game.string()}, {m.mod.string()}))));
    size_t ini = 0;
    for (const Finding& f : rep.findings)
        ini += f.id.rfind("ini.", 0) == 0;
    // The command button file is gone: its object and image findings with it, its sets not judged; the object's
    // unknown command sets, its unknown button image and the mapped image's missing texture stay.
    CHECK(ini == 4);

    // The mod without its game: the command sets' buttons, which no mounted INI defines, are reported, and the
    // whole check leaves them to the base game as one note.
    auto modOnly = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {m.mod.string()}));
    out.clear();
    checkSageCommands(*modOnly, out, referenced);
    CHECK(std::count_if(out.begin(), out.end(), [](const Finding& f) { return f.id == "ini.commandbutton-missing"; }) ==
          3);
    const Report modRep = checkMount(Resolver(modOnly));
    bool note = false;
    for (const Finding& f : modRep.findings) {
        CHECK(f.id.rfind("ini.", 0) != 0);
        note |= f.id == "ref.base-game" && f.subject == "ini.commandbutton-missing";
    }
    CHECK(note);
}
