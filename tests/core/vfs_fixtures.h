// A fake game install on disk, built with the project's own writers (MEG/BIG, Alamo, W3D) for the VFS tests.
//
//   eaw/   sweaw.exe, Data/MegaFiles.xml -> Data\Models.meg (v1), Data\Textures.meg (v2), Data\Patch.meg (v3)
//          Models.meg:   DATA\ART\MODELS\W_UNIT.ALO (syntheticModel: textures W_TEST.TGA, W_Dazzle.dds),
//                        W_UNIT_IDLE_00.ALA, W_UNIT_WALK_00.ALA (syntheticClip), W_OTHER_IDLE_00.ALA
//          Textures.meg: DATA\ART\TEXTURES\W_TEST.DDS "game W_TEST", W_DAZZLE.DDS "game dazzle"
//          Patch.meg:    DATA\ART\TEXTURES\W_DAZZLE.DDS "patched dazzle" (listed last: overrides Textures.meg)
//          loose:        Data/Art/Textures/Loose.tga "loose"
//   eawmod/ Data/Art/Textures/W_TEST.dds "mod W_TEST" (overrides the game's archive)
//   bfme2/ lotrbfme2.exe, W3D.big (BIG4): art\w3d\un\unit_skn.w3d (skin + HLOD naming TEST_SKL),
//                        art\w3d\te\test_skl.w3d (hierarchy), art\w3d\te\test_idla.w3d (clip of TEST_SKL)
//          Textures.big (BIGF): art\compiledtextures\qu\quad.dds "game quad"
//   bfme2mod/ mod.big: art\compiledtextures\qu\quad.dds "mod quad"
// With realTextures every texture above is instead a 4x4 DDS of one colour (texColor(): "game W_TEST" red,
// "mod W_TEST" green, "game dazzle" blue, "patched dazzle" yellow, "game quad" cyan, "mod quad" magenta,
// "loose" white), so that exports and renders can tell which source won.
#pragma once

#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "texture/texture_writer.h"
#include "vfs/archive_writer.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <array>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace rs::test {

inline std::vector<uint8_t> textBytes(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// RGBA of the realTextures stand-in for a text fixture (see top).
inline std::array<uint8_t, 4> texColor(const std::string& text) {
    if (text == "game W_TEST") return {255, 0, 0, 255};
    if (text == "mod W_TEST") return {0, 255, 0, 255};
    if (text == "game dazzle") return {0, 0, 255, 255};
    if (text == "patched dazzle") return {255, 255, 0, 255};
    if (text == "game quad") return {0, 255, 255, 255};
    if (text == "mod quad") return {255, 0, 255, 255};
    return {255, 255, 255, 255};
}

struct FakeInstall {
    std::filesystem::path root;
    std::string eaw, eawMod, bfme2, bfme2Mod;

    explicit FakeInstall(bool realTextures = false) : real_(realTextures) {
        static std::atomic<int> n{0};
        root = std::filesystem::temp_directory_path() /
               ("rigscope_vfs_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::remove_all(root);
        eaw = (root / "eaw").string();
        eawMod = (root / "eawmod").string();
        bfme2 = (root / "bfme2").string();
        bfme2Mod = (root / "bfme2mod").string();
        buildAlamo();
        buildSage();
    }
    ~FakeInstall() {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    FakeInstall(const FakeInstall&) = delete;
    FakeInstall& operator=(const FakeInstall&) = delete;

    static void write(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }

  private:
    bool real_ = false;

    // A texture fixture: the text itself, or a 4x4 DDS of texColor(text).
    std::vector<uint8_t> tex(const std::string& text) const {
        if (!real_) return textBytes(text);
        Image img;
        img.width = img.height = 4;
        const auto c = texColor(text);
        for (int i = 0; i < 16; ++i)
            img.rgba.insert(img.rgba.end(), c.begin(), c.end());
        return writeDdsRgba(img);
    }

    void buildAlamo() {
        const std::filesystem::path g(eaw);
        write(g / "sweaw.exe", {});
        write(g / "Data" / "MegaFiles.xml",
              textBytes("<?xml version=\"1.0\"?>\n<Mega_Files>\n\t<File>Data\\Models.meg</File>\n"
                        "\t<File> Data\\Textures.meg </File>\n\t<File>Data\\Patch.meg</File>\n</Mega_Files>\n"));
        Clip clip = syntheticClip();
        const auto ala = alamo::writeClip(clip);
        Clip other = clip;
        other.tracks[0].boneName = "NoSuchBone";
        write(g / "Data" / "Models.meg",
              vfs::writeMeg(1, {{"DATA\\ART\\MODELS\\W_UNIT.ALO", alamo::writeModel(syntheticModel())},
                                {"DATA\\ART\\MODELS\\W_UNIT_IDLE_00.ALA", ala},
                                {"DATA\\ART\\MODELS\\W_UNIT_WALK_00.ALA", ala},
                                {"DATA\\ART\\MODELS\\W_OTHER_IDLE_00.ALA", alamo::writeClip(other)}}));
        write(g / "Data" / "Textures.meg",
              vfs::writeMeg(2, {{"DATA\\ART\\TEXTURES\\W_TEST.DDS", tex("game W_TEST")},
                                {"DATA\\ART\\TEXTURES\\W_DAZZLE.DDS", tex("game dazzle")}}));
        write(g / "Data" / "Patch.meg",
              vfs::writeMeg(3, {{"DATA\\ART\\TEXTURES\\W_DAZZLE.DDS", tex("patched dazzle")}}));
        write(g / "Data" / "Art" / "Textures" / "Loose.tga", tex("loose"));
        write(std::filesystem::path(eawMod) / "Data" / "Art" / "Textures" / "W_TEST.dds", tex("mod W_TEST"));
    }

    void buildSage() {
        const std::filesystem::path g(bfme2);
        write(g / "lotrbfme2.exe", {});
        w3d::ChunkWriter skin;
        w3d::RawMesh quad = testQuad("QUAD", "UNIT_SKN");
        w3d::RawMesh sk = testQuad("SKIN", "UNIT_SKN");
        sk.attributes = 0x00020000;
        sk.influences = {{2, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}, {2, 3, 30, 70}};
        sk.positions2 = sk.positions;
        sk.normals2 = sk.normals;
        w3d::writeMesh(skin, quad);
        w3d::writeMesh(skin, sk);
        w3d::Hlod h = rs::test::oneLodHlod("UNIT_SKN", "TEST_SKL", {{1, "UNIT_SKN.QUAD"}, {0, "UNIT_SKN.SKIN"}});
        w3d::writeHlod(skin, h);
        w3d::ChunkWriter skl;
        w3d::writeHierarchy(skl, testHierarchy("TEST_SKL"));
        w3d::ChunkWriter clip;
        w3d::ClipSpec c;
        c.name = "TEST_IDLA";
        c.hierarchy = "TEST_SKL";
        c.frames = 3;
        w3d::ChannelSpec x;
        x.pivot = 1;
        x.type = 0;
        x.values = {0, 1, 0};
        c.channels = {x};
        w3d::writeClip(clip, c);
        write(g / "W3D.big", vfs::writeBig({{"art\\w3d\\un\\unit_skn.w3d", skin.take()},
                                            {"art\\w3d\\te\\test_skl.w3d", skl.take()},
                                            {"art\\w3d\\te\\test_idla.w3d", clip.take()}},
                                           "BIG4"));
        write(g / "Textures.big", vfs::writeBig({{"art\\compiledtextures\\qu\\quad.dds", tex("game quad")}}));
        write(std::filesystem::path(bfme2Mod) / "mod.big",
              vfs::writeBig({{"art\\compiledtextures\\qu\\quad.dds", tex("mod quad")}}));
    }
};

} // namespace rs::test
