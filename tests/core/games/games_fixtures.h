// A fake computer for the games discovery tests (core and UI): a temporary HOME with native Steam (reached twice
// through a link) and a second library, Flatpak Steam, a Proton prefix, ~/.wine, a Bottles bottle, the EaW Gold
// Pack with a local mod, and Workshop mods (100 -> 200, 300 <-> 400 a cycle, 500 -> 999 missing, 200 with a variant,
// 600 without modinfo.json).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace rs::test {

namespace fs = std::filesystem;

struct Home {
    fs::path path;
    explicit Home(const std::string& tag) {
        path = fs::temp_directory_path() / ("rigscope_games_" + tag + "_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Home() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    void file(const fs::path& rel, const std::string& text = "x") const {
        fs::create_directories((path / rel).parent_path());
        std::ofstream(path / rel, std::ios::binary) << text;
    }
    void dir(const fs::path& rel) const { fs::create_directories(path / rel); }
};

std::string modinfo(const std::string& name, const std::vector<std::string>& workshopDeps = {},
                    const std::string& extra = "") {
    std::string s = "{\n  \"name\": \"" + name + "\",\n  \"version\": \"1.2.0\"";
    if (!workshopDeps.empty()) {
        s += ",\n  \"dependencies\": [";
        for (size_t i = 0; i < workshopDeps.size(); ++i)
            s += std::string(i ? ", " : "") + "{\"modtype\": 1, \"identifier\": \"" + workshopDeps[i] + "\"}";
        s += "]";
    }
    return s + extra + "\n}\n";
}

// The fake computer: native Steam (reached twice: ~/.steam/steam links to ~/.local/share/Steam) with a second
// library, Flatpak Steam, a Proton prefix, ~/.wine and a Bottles bottle.
void buildComputer(const Home& h) {
    const fs::path steam = ".local/share/Steam";
    const fs::path lib2 = "Disk2/SteamLibrary";
    h.dir(lib2 / "steamapps");
    h.file(steam / "steamapps/libraryfolders.vdf",
           "\"libraryfolders\"\n{\n\t\"0\"\n\t{\n\t\t\"path\"\t\t\"" + (h.path / steam).string() +
               "\"\n\t\t\"apps\" { \"32470\" \"1\" }\n\t}\n\t\"1\"\n\t{\n\t\t\"path\"\t\t\"" +
               (h.path / lib2).string() + "\"\n\t}\n}\n");
    h.dir(".steam");
    fs::create_directory_symlink(h.path / steam, h.path / ".steam/steam");
    // The Gold Pack in the first library, with a local mod in FoC's Mods/.
    const fs::path gold = steam / "steamapps/common/Star Wars Empire at War";
    h.file(gold / "GameData/sweaw.exe");
    h.dir(gold / "GameData/Data");
    h.file(gold / "corruption/swfoc.exe");
    h.dir(gold / "corruption/Data");
    h.file(gold / "corruption/Mods/LocalMod/modinfo.json", modinfo("Local Mod"));
    // Workshop mods in the second library: 100 -> 200; 300 <-> 400 (a cycle); 500 -> 999 (not installed);
    // 200 has a variant file.
    const fs::path ws = lib2 / "steamapps/workshop/content/32470";
    h.file(ws / "100/modinfo.json", modinfo("Alpha", {"200"}, ",\n  \"summary\": \"the first\""));
    h.file(ws / "200/modinfo.json", modinfo("Beta"));
    h.file(ws / "200/Gold-modinfo.json", "{\"name\": \"Beta Gold\"}");
    h.file(ws / "300/modinfo.json", modinfo("Gamma", {"400"}));
    h.file(ws / "400/modinfo.json", modinfo("Delta", {"300"}));
    h.file(ws / "500/modinfo.json", modinfo("Epsilon", {"999"}));
    h.dir(ws / "600"); // no modinfo: named after its folder
    // A Proton prefix in the second library with BFME II from another store.
    h.file(lib2 / "steamapps/compatdata/2229/pfx/drive_c/Program Files (x86)/Electronic Arts/"
                  "The Battle for Middle-earth (tm) II/lotrbfme2.exe");
    // Flatpak Steam with Zero Hour beside Generals.
    const fs::path flat = ".var/app/com.valvesoftware.Steam/.local/share/Steam/steamapps";
    h.file(flat / "common/CnC Zero Hour/INIZH.big");
    h.file(flat / "common/CnC Zero Hour/generals.exe");
    h.file(flat / "common/CnC Generals/generals.exe");
    h.file(flat / "common/CnC Generals/INI.big");
    // Wine and Bottles.
    h.file(".wine/drive_c/Program Files/Lionhead Studios/Black & White 2/white.exe");
    h.file(".local/share/bottles/bottles/Games/drive_c/Program Files (x86)/Electronic Arts/Command & Conquer 3/"
           "CNC3.exe");
}

} // namespace rs::test
