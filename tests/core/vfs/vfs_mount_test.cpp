// Mount table and lookups over a fake game install built by the project's writers (vfs_fixtures.h): the mount
// order (vfs/mount.h), the games' lookup rules over it (resolve/lookup_rules.h) and files opened through a Resolver
// over it (resolve/resolver.h).
#include "vfs_fixtures.h"

#include "resolve/lookup_rules.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

using namespace rs;
using namespace rs::vfs;
using resolve::companionClips;
using resolve::findTexture;
using resolve::findW3dHierarchy;

namespace {

std::string text(const MountTable& t, const Hit& h) {
    const EntryBytes b = t.read(h);
    return std::string(reinterpret_cast<const char*>(b.span.data), b.span.size);
}

// A resolver over a copy of `t` (the sources are shared) as the session's mounted folders.
Resolver over(const MountTable& t) { return Resolver(std::make_shared<const MountTable>(t)); }

std::string sourceName(const MountTable& t, const Hit& h) {
    return std::filesystem::path(t.mountOf(h).source->label()).filename().string();
}

} // namespace

TEST_CASE("game detection from folder content", "[vfs]") {
    rs::test::FakeInstall fi;
    Detected e = detectGame(fi.eaw);
    CHECK(e.game == Game::Eaw);
    CHECK(e.alamoLayout);
    CHECK_FALSE(e.mod);
    Detected m = detectGame(fi.eawMod);
    CHECK(m.game == Game::Unknown);
    CHECK(m.alamoLayout);
    CHECK(m.mod);
    Detected b = detectGame(fi.bfme2);
    CHECK(b.game == Game::Bfme2);
    CHECK_FALSE(b.alamoLayout);
    CHECK(detectGame(fi.bfme2Mod).mod);
    rs::test::FakeInstall::write(fi.root / "foc" / "swfoc.exe", {});
    CHECK(detectGame((fi.root / "foc").string()).game == Game::Foc);
    rs::test::FakeInstall::write(fi.root / "zh" / "W3DZH.big", vfs::writeBig({}));
    CHECK(detectGame((fi.root / "zh").string()).game == Game::ZeroHour);
    rs::test::FakeInstall::write(fi.root / "rotwk" / "LOTRBFME2EP1.EXE", {});
    CHECK(detectGame((fi.root / "rotwk").string()).game == Game::Rotwk);
    rs::test::FakeInstall::write(fi.root / "gen" / "generals.exe", {});
    CHECK(detectGame((fi.root / "gen").string()).game == Game::Generals);
    rs::test::FakeInstall::write(fi.root / "bfme" / "lotrbfme.exe", {});
    CHECK(detectGame((fi.root / "bfme").string()).game == Game::Bfme);
}

TEST_CASE("MegaFiles.xml lists archives in order", "[vfs]") {
    rs::test::FakeInstall fi;
    CHECK(readMegaFilesXml(fi.eaw) ==
          std::vector<std::string>{"Data\\Models.meg", "Data\\Textures.meg", "Data\\Patch.meg"});
}

TEST_CASE("Alamo lookup order: mod loose > game loose > patch archive > earlier archives", "[vfs]") {
    rs::test::FakeInstall fi;
    MountTable t = mountInstall({fi.eaw}, {fi.eawMod});
    CHECK(t.warnings.empty());
    // mod loose Data, game loose Data, Patch.meg, Textures.meg, Models.meg
    REQUIRE(t.mounts().size() == 5);
    CHECK(t.mounts()[0].role == "mod loose");
    CHECK(t.mounts()[1].role == "game loose");
    CHECK(sourceName(t, {2, 0}) == "Patch.meg");
    CHECK(sourceName(t, {4, 0}) == "Models.meg");

    const auto* test = t.findAll("data\\art\\textures\\w_test.dds");
    REQUIRE(test);
    REQUIRE(test->size() == 2);
    CHECK(t.mounts()[(*test)[0].mount].role == "mod loose");
    CHECK(text(t, (*test)[0]) == "mod W_TEST");
    CHECK(sourceName(t, (*test)[1]) == "Textures.meg");

    const auto* dazzle = t.findAll("DATA/ART/TEXTURES/W_DAZZLE.DDS");
    REQUIRE(dazzle);
    REQUIRE(dazzle->size() == 2);
    CHECK(text(t, (*dazzle)[0]) == "patched dazzle");
    CHECK(sourceName(t, (*dazzle)[1]) == "Textures.meg");

    CHECK(t.find("Data/Art/Textures/LOOSE.TGA"));
    CHECK_FALSE(t.find("DATA/MEGAFILES.XML/X"));
    // Archives are not listed as loose files.
    CHECK_FALSE(t.find("DATA/MODELS.MEG"));
    CHECK(t.list("DATA/ART/MODELS/") ==
          std::vector<std::string>{"DATA/ART/MODELS/W_OTHER_IDLE_00.ALA", "DATA/ART/MODELS/W_UNIT.ALO",
                                   "DATA/ART/MODELS/W_UNIT_IDLE_00.ALA", "DATA/ART/MODELS/W_UNIT_WALK_00.ALA"});
}

TEST_CASE("an Alamo model opens by name with textures (mod override used) and clips found", "[vfs]") {
    rs::test::FakeInstall fi;
    MountTable t = mountInstall({fi.eaw}, {fi.eawMod});
    const std::string key = "Data\\Art\\Models\\W_Unit.alo";
    const Resolver r = over(t);
    Document d = r.read(key);
    REQUIRE(d.model);
    CHECK(d.model->skeleton.bones.size() == 3);
    CHECK(d.path == key); // as opened (a game path)
    CHECK(r.placeOf(key).key == "DATA/ART/MODELS/W_UNIT.ALO");

    const Hit* tex = findTexture(t, "W_TEST.TGA", key); // stored as .tga, shipped as .dds
    REQUIRE(tex);
    CHECK(text(t, *tex) == "mod W_TEST");
    const Hit* dz = findTexture(t, "W_Dazzle.dds", key);
    REQUIRE(dz);
    CHECK(text(t, *dz) == "patched dazzle");
    CHECK_FALSE(findTexture(t, "MISSING.TGA", key));

    const auto clips = companionClips(t, key);
    REQUIRE(clips ==
            std::vector<std::string>{"DATA/ART/MODELS/W_UNIT_IDLE_00.ALA", "DATA/ART/MODELS/W_UNIT_WALK_00.ALA"});
    Document c = r.read(clips[0]);
    REQUIRE(c.clips.size() == 1);
    CHECK(bindClip(d.model->skeleton, *c.clips[0]).ok());

    // Without the mod, the game's texture wins.
    MountTable g = mountInstall({fi.eaw}, {});
    CHECK(text(g, *findTexture(g, "W_TEST.TGA", key)) == "game W_TEST");
}

TEST_CASE("FoC mounts over EaW whatever order they are given in", "[vfs]") {
    rs::test::FakeInstall fi;
    const auto foc = fi.root / "foc";
    rs::test::FakeInstall::write(foc / "swfoc.exe", {});
    rs::test::FakeInstall::write(foc / "Data" / "MegaFiles.xml",
                                 rs::test::textBytes("<Mega_Files><File>Data\\FoC.meg</File></Mega_Files>"));
    rs::test::FakeInstall::write(foc / "Data" / "FoC.meg",
                                 writeMeg(2, {{"DATA\\ART\\TEXTURES\\W_TEST.DDS", rs::test::textBytes("foc W_TEST")}}));
    MountTable t = mountInstall({fi.eaw, foc.string()}, {});
    CHECK(text(t, *t.find("DATA/ART/TEXTURES/W_TEST.DDS")) == "foc W_TEST");
    CHECK(t.findAll("DATA/ART/TEXTURES/W_TEST.DDS")->size() == 2);
    CHECK(t.find("DATA/ART/MODELS/W_UNIT.ALO")); // EaW's archives still below
}

TEST_CASE("a SAGE skin opens by name with its skeleton from art/w3d/<xx>/, clips and the mod's texture", "[vfs]") {
    rs::test::FakeInstall fi;
    MountTable t = mountInstall({fi.bfme2}, {fi.bfme2Mod});
    CHECK(t.warnings.empty());
    const std::string key = "art/w3d/un/unit_skn.w3d";
    Document d = over(t).read(key);
    REQUIRE(d.model);
    CHECK(d.model->skeleton.name == "TEST_SKL");
    REQUIRE(d.model->skeleton.bones.size() == 4);
    bool skinned = false;
    for (const Mesh& m : d.model->meshes)
        for (const SubMesh& sm : m.subMeshes)
            skinned |= sm.skinned();
    CHECK(skinned);
    for (const std::string& w : d.warnings)
        CHECK(w.find("not found") == std::string::npos);

    const Hit* h = findW3dHierarchy(t, "TEST_SKL", key);
    REQUIRE(h);
    CHECK(t.entry(*h).name == "art\\w3d\\te\\test_skl.w3d");

    CHECK(companionClips(t, key) == std::vector<std::string>{"ART/W3D/TE/TEST_IDLA.W3D"});
    const Hit* q = findTexture(t, "quad.tga", key);
    REQUIRE(q);
    CHECK(text(t, *q) == "mod quad");
    CHECK(t.findAll("ART/COMPILEDTEXTURES/QU/QUAD.DDS")->size() == 2);

    // Without the mount table the skin loads without its skeleton (a warning, not an error).
    auto a = openArchiveFile(fi.bfme2 + "/W3D.big");
    const EntryBytes b = a->read(*a->find(key));
    Document bare = Resolver().read(b.span, "unit_skn.w3d");
    CHECK(bare.model->skeleton.bones.empty());
}

TEST_CASE("missing or broken archives named in MegaFiles.xml become warnings", "[vfs][hostile]") {
    rs::test::FakeInstall fi;
    rs::test::FakeInstall::write(std::filesystem::path(fi.eaw) / "Data" / "MegaFiles.xml",
                                 rs::test::textBytes("<Mega_Files><File>Data\\Gone.meg</File><File>Data\\Bad.meg</File>"
                                                     "<File>Data\\Models.meg</File></Mega_Files>"));
    rs::test::FakeInstall::write(std::filesystem::path(fi.eaw) / "Data" / "Bad.meg",
                                 {0xFF, 0xFF, 0xFF, 0x7F, 1, 0, 0, 0});
    MountTable t = mountInstall({fi.eaw}, {});
    std::string all;
    for (const auto& w : t.warnings)
        all += w + "\n";
    CHECK(all.find("Gone.meg listed in Data/MegaFiles.xml is missing") != std::string::npos);
    CHECK(all.find("Bad.meg") != std::string::npos);
    CHECK(t.find("DATA/ART/MODELS/W_UNIT.ALO"));
}

TEST_CASE("Resolver: texture for a model path, bytes of a described entry", "[vfs][resolve]") {
    rs::test::FakeInstall fi;
    MountTable t = mountInstall({fi.eaw}, {fi.eawMod});
    const std::string model = fi.eaw + "/Data/Models.meg:DATA\\ART\\MODELS\\W_UNIT.ALO";
    CHECK(t.keyFor(model) == "DATA/ART/MODELS/W_UNIT.ALO");
    CHECK(t.keyFor("/elsewhere/W_Unit.alo") == "W_UNIT.ALO");
    const std::string loose = fi.eaw + "/Data/Art/Textures/Loose.tga";
    CHECK(t.keyFor(loose) == "DATA/ART/TEXTURES/LOOSE.TGA");

    const Resolver r = over(t);
    const std::string tex = r.findTexture("W_TEST.TGA", model);
    CHECK(tex == fi.eawMod + "/Data/Art/Textures/W_TEST.dds");
    std::vector<uint8_t> bytes;
    REQUIRE(r.readBytes(tex, bytes));
    CHECK(std::string(bytes.begin(), bytes.end()) == "mod W_TEST");
    const std::string dz = r.findTexture("w_dazzle.dds", model);
    CHECK(dz == fi.eaw + "/Data/Patch.meg:DATA\\ART\\TEXTURES\\W_DAZZLE.DDS");
    REQUIRE(r.readBytes(dz, bytes));
    CHECK(std::string(bytes.begin(), bytes.end()) == "patched dazzle");
    CHECK_FALSE(r.readBytes(fi.eaw + "/Data/Patch.meg:NOPE", bytes));
    CHECK(r.findTexture("NOPE.TGA", model).empty());
}

TEST_CASE("Resolver::read and companionClips take <archive>:<entry> and look through the mounted folders",
          "[vfs][resolve]") {
    rs::test::FakeInstall fi;
    const std::string model = fi.eaw + "/Data/Models.meg:Data/Art/Models/W_Unit.alo";
    Document d = Resolver().read(model);
    REQUIRE(d.model);
    CHECK(d.model->skeleton.bones.size() == 3);
    CHECK(rs::Resolver().companionClips(model) ==
          std::vector<std::string>{fi.eaw + "/Data/Models.meg:DATA\\ART\\MODELS\\W_UNIT_IDLE_00.ALA",
                                   fi.eaw + "/Data/Models.meg:DATA\\ART\\MODELS\\W_UNIT_WALK_00.ALA"});
    CHECK(Resolver().read(Resolver().companionClips(model)[0]).clips.size() == 1);
    CHECK_THROWS_WITH(Resolver().read(fi.eaw + "/Data/Models.meg:NOPE.ALO"), Catch::Contains("no such entry"));

    // A SAGE skin extracted alone finds its skeleton and clip in the mounted game's archives.
    const std::filesystem::path alone = fi.root / "alone" / "unit_skn.w3d";
    auto w3d = openArchiveFile(fi.bfme2 + "/W3D.big");
    const EntryBytes b = w3d->read(*w3d->find("art/w3d/un/unit_skn.w3d"));
    rs::test::FakeInstall::write(alone, std::vector<uint8_t>(b.span.data, b.span.data + b.span.size));
    CHECK(Resolver().read(alone.string()).model->skeleton.bones.empty());
    const Resolver mounted = over(mountInstall({fi.bfme2}, {}));
    Document s = mounted.read(alone.string());
    const auto clips = mounted.companionClips(alone.string());
    CHECK(s.model->skeleton.bones.size() == 4);
    CHECK(clips == std::vector<std::string>{fi.bfme2 + "/W3D.big:art\\w3d\\te\\test_idla.w3d"});
}

TEST_CASE("archives truncated after mounting: lookups still work, reads of lost entries throw", "[vfs][hostile]") {
    rs::test::FakeInstall fi;
    const MountTable t = mountInstall({fi.eaw}, {});
    const auto* test = t.findAll("DATA/ART/TEXTURES/W_TEST.DDS");
    REQUIRE(test);
    REQUIRE(t.mountOf(test->front()).source->label().find("Textures.meg") != std::string::npos);
    std::filesystem::resize_file(fi.eaw + "/Data/Textures.meg", 30); // inside its index
    CHECK(t.find("DATA/ART/TEXTURES/W_TEST.DDS") == &test->front()); // the index stays as read
    CHECK_THROWS_AS(t.read(test->front()), ParseError);
    CHECK(text(t, *t.find("DATA/ART/TEXTURES/W_DAZZLE.DDS")) == "patched dazzle"); // other archives unaffected
    std::filesystem::resize_file(fi.eaw + "/Data/Models.meg", 0);
    try {
        over(t).read("DATA/ART/MODELS/W_UNIT.ALO");
        FAIL("a model in an emptied archive loaded");
    } catch (const ParseError& e) {
        CHECK(std::string(e.what()).find("shorter than when it was opened") != std::string::npos);
    }
}

TEST_CASE("Alamo master MEG: Patch, Patch2, 64Patch load after MegaFiles.xml whether listed or not", "[vfs]") {
    rs::test::FakeInstall fi;
    using rs::test::FakeInstall;
    using rs::test::textBytes;
    // Patch.meg is listed (last); Patch2.meg and 64Patch.meg are not.
    FakeInstall::write(std::filesystem::path(fi.eaw) / "Data" / "Patch2.meg",
                       writeMeg(1, {{"DATA\\ART\\TEXTURES\\W_DAZZLE.DDS", textBytes("patch2 dazzle")},
                                    {"DATA\\ART\\TEXTURES\\W_TEST.DDS", textBytes("patch2 W_TEST")}}));
    FakeInstall::write(std::filesystem::path(fi.eaw) / "Data" / "64Patch.meg",
                       writeMeg(1, {{"DATA\\ART\\TEXTURES\\W_DAZZLE.DDS", textBytes("64 dazzle")}}));
    const MountTable t = mountInstall({fi.eaw}, {});
    CHECK(t.warnings.empty());
    const auto* dz = t.findAll("DATA/ART/TEXTURES/W_DAZZLE.DDS");
    REQUIRE(dz);
    REQUIRE(dz->size() == 4);
    CHECK(sourceName(t, (*dz)[0]) == "64Patch.meg");
    CHECK(sourceName(t, (*dz)[1]) == "Patch2.meg");
    CHECK(sourceName(t, (*dz)[2]) == "Patch.meg");
    CHECK(sourceName(t, (*dz)[3]) == "Textures.meg");
    CHECK(text(t, *t.find("DATA/ART/TEXTURES/W_TEST.DDS")) == "patch2 W_TEST");
}

TEST_CASE("FoC over EaW: FoC loose > FoC archives > EaW archives > EaW loose", "[vfs]") {
    rs::test::FakeInstall fi;
    using rs::test::FakeInstall;
    using rs::test::textBytes;
    const auto foc = fi.root / "foc";
    FakeInstall::write(foc / "swfoc.exe", {});
    FakeInstall::write(foc / "Data" / "MegaFiles.xml",
                       textBytes("<Mega_Files><File>Data\\FoC.meg</File></Mega_Files>"));
    FakeInstall::write(foc / "Data" / "FoC.meg", writeMeg(2, {{"DATA\\ART\\TEXTURES\\X.DDS", textBytes("foc meg")}}));
    FakeInstall::write(foc / "Data" / "Art" / "Textures" / "Y.dds", textBytes("foc loose"));
    // EaW: a loose W_TEST.dds under the one in its Textures.meg, a loose Y.dds under FoC's.
    FakeInstall::write(std::filesystem::path(fi.eaw) / "Data" / "Art" / "Textures" / "W_TEST.dds",
                       textBytes("eaw loose"));
    FakeInstall::write(std::filesystem::path(fi.eaw) / "Data" / "Art" / "Textures" / "Y.dds", textBytes("eaw loose"));
    const MountTable t = mountInstall({fi.eaw, foc.string()}, {});
    const auto* w = t.findAll("DATA/ART/TEXTURES/W_TEST.DDS");
    REQUIRE(w);
    REQUIRE(w->size() == 2);
    CHECK(text(t, (*w)[0]) == "game W_TEST"); // EaW's Textures.meg over EaW's loose file
    CHECK(text(t, (*w)[1]) == "eaw loose");
    CHECK(text(t, *t.find("DATA/ART/TEXTURES/Y.DDS")) == "foc loose");
    CHECK(text(t, *t.find("DATA/ART/TEXTURES/X.DDS")) == "foc meg");
    CHECK(t.mounts().front().source->label() == foc.string());
    CHECK(t.mounts().back().role == "game loose"); // EaW's loose files come last
}

TEST_CASE("SAGE archives: lower-cased name order, first loaded keeps a name, sub-folders after", "[vfs]") {
    rs::test::FakeInstall fi;
    using rs::test::FakeInstall;
    using rs::test::textBytes;
    const auto g = fi.root / "zh";
    FakeInstall::write(g / "generals.exe", {});
    // Upper-cased, "AB.BIG" sorts before "A_X.BIG" ('B' < '_'); lower-cased "a_x.big" comes first ('_' < 'b').
    FakeInstall::write(g / "AB.big", writeBig({{"data\\ini\\x.ini", textBytes("ab")}}));
    FakeInstall::write(g / "A_X.big", writeBig({{"data\\ini\\x.ini", textBytes("a_x")}}));
    FakeInstall::write(g / "sub" / "00.big",
                       writeBig({{"data\\ini\\x.ini", textBytes("sub")}, {"data\\ini\\y.ini", textBytes("sub y")}}));
    const MountTable t = mountInstall({g.string()}, {});
    const auto* x = t.findAll("DATA/INI/X.INI");
    REQUIRE(x);
    REQUIRE(x->size() == 3);
    CHECK(text(t, (*x)[0]) == "a_x");
    CHECK(text(t, (*x)[1]) == "ab");
    CHECK(text(t, (*x)[2]) == "sub");
    CHECK(text(t, *t.find("DATA/INI/Y.INI")) == "sub y");
}

TEST_CASE("findBeside: a file named by a model (proxy models) in its archive or folder, then the mounted folders",
          "[vfs][resolve]") {
    rs::test::FakeInstall fi;
    const std::string meg = fi.eaw + "/Data/Models.meg";
    const std::string unit = meg + ":DATA\\ART\\MODELS\\W_UNIT.ALO";
    const Resolver alone;
    CHECK(alone.findBeside(unit, "w_unit_idle_00.ala") == meg + ":DATA\\ART\\MODELS\\W_UNIT_IDLE_00.ALA");
    CHECK(alone.findBeside(unit, "W_UNIT.ALO").empty()); // the model itself
    CHECK(alone.findBeside(unit, "missing.alo").empty());
    // A model on disk: its folder (even when the model file is not there).
    const std::string loose = fi.eaw + "/Data/Art/Textures/figure.alo";
    CHECK(alone.findBeside(loose, "loose.TGA") == fi.eaw + "/Data/Art/Textures/Loose.tga");
    // Through the mounted folders: the mod's loose file beside the model's folder key.
    const Resolver mounted = over(mountInstall({fi.eaw}, {fi.eawMod}));
    CHECK(mounted.findBeside(meg + ":DATA\\ART\\TEXTURES\\W_DAZZLE.DDS", "w_test.dds") ==
          fi.eawMod + "/Data/Art/Textures/W_TEST.dds");
}
