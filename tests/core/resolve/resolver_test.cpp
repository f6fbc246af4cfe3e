// The resolver (resolve/resolver.h) is the one way to open a file: the same model opened from a folder, from an
// archive and through a mod-over-game mount gives the same document with the same companions; a W3D skin finds
// its hierarchy, its clips and its textures through it. File sources are made with the project's writers.
#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "vfs_fixtures.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <thread>

using namespace rs;
namespace fs = std::filesystem;

namespace {

// Everything a document holds that a viewer or an exporter uses, as text (floats at 6 significant digits): two
// documents are the same when their summaries are.
std::string summary(const Document& d) {
    std::ostringstream s;
    s.precision(6);
    s << "format " << formatName(d.format) << "\n";
    if (d.model) {
        const Model& m = *d.model;
        s << "skeleton " << m.skeleton.name << "\n";
        for (const Bone& b : m.skeleton.bones) {
            s << " bone " << b.name << " " << b.parent << " " << b.visible << " " << b.billboard;
            for (int i = 0; i < 16; ++i)
                s << " " << (&b.bindLocal[0][0])[i];
            s << "\n";
        }
        for (const Mesh& mesh : m.meshes) {
            s << " mesh " << mesh.name << " bone " << mesh.bone << " lod " << mesh.lod << " alt " << mesh.alt
              << " hidden " << mesh.hidden << "\n";
            for (const SubMesh& sm : mesh.subMeshes) {
                s << "  sub " << sm.material.shader << " " << sm.vertexFormat << " v " << sm.positions.size() << " i "
                  << sm.indices.size() << " skinned " << sm.skinned() << "\n";
                for (const glm::vec3& p : sm.positions)
                    s << "   p " << p.x << " " << p.y << " " << p.z << "\n";
                for (int b : sm.boneMap)
                    s << "   map " << b << "\n";
                for (const MaterialParam& p : sm.material.params)
                    s << "   param " << p.name << " " << int(p.type) << " " << p.texture << " " << p.value.x << " "
                      << p.value.y << " " << p.value.z << " " << p.value.w << " " << p.intValue << "\n";
            }
        }
        s << " lights " << m.lights.size() << " proxies " << m.proxies.size() << " dazzles " << m.dazzles.size()
          << " markers " << m.markers.size() << "\n";
    }
    for (const auto& c : d.clips)
        s << "clip " << c->name << " " << c->frameCount << " " << c->fps << " tracks " << c->tracks.size() << "\n";
    s << "particles " << (d.particles != nullptr) << "\n";
    return s.str();
}

// The file name of a path, "<archive>:<entry>" or clip name (named after its file), lower case.
std::string baseName(const std::string& path) {
    const size_t cut = path.find_last_of("/\\:");
    return toLower(cut == std::string::npos ? path : path.substr(cut + 1));
}

// The asset's companions by content: clips by name and summary, textures by bytes, what is missing.
std::string companions(const Resolver& r, const Asset& a) {
    std::string s = "missing hierarchy " + a.missingHierarchy + "\n";
    for (const ClipFile& c : a.clips) {
        s += "clip file " + baseName(c.path) + " error " + c.error + "\n";
        if (c.clip) {
            Document d;
            d.clips.push_back(std::make_shared<Clip>(*c.clip));
            d.clips.back()->name = baseName(d.clips.back()->name); // Alamo clips are named after their file
            s += summary(d);
        }
    }
    for (const TextureRef& t : a.textures) {
        std::vector<uint8_t> bytes;
        s += "texture " + t.name + (t.path.empty() ? std::string(" missing") : "") + "\n";
        if (!t.path.empty()) {
            REQUIRE(r.readBytes(t.path, bytes));
            s += "  " + std::string(bytes.begin(), bytes.end()) + "\n";
        }
    }
    return s;
}

void write(const fs::path& p, const std::vector<uint8_t>& bytes) { test::FakeInstall::write(p, bytes); }

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("rigscope_resolver_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

} // namespace

TEST_CASE("the same Alamo model opened from a folder, a MEG and a mod-over-game mount gives the same document",
          "[resolve][vfs]") {
    TempDir tmp;
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());
    const std::vector<uint8_t> ala = alamo::writeClip(test::syntheticClip());
    const std::vector<uint8_t> tex = test::textBytes("W_TEST texture");

    // 1. A folder on disk: the model, its clip beside it, the texture in the game's Data/Art/Textures.
    const fs::path data = tmp.path / "loose" / "Data" / "Art";
    write(data / "Models" / "W_Unit.alo", alo);
    write(data / "Models" / "W_Unit_Idle_00.ala", ala);
    write(data / "Textures" / "W_TEST.dds", tex);
    const Resolver plain;
    const Asset fromFolder = plain.open((data / "Models" / "W_Unit.alo").string());

    // 2. The same files inside a MEG, opened as "<archive>:<entry>".
    const fs::path meg = tmp.path / "Models.meg";
    write(meg, vfs::writeMeg(2, {{"DATA\\ART\\MODELS\\W_UNIT.ALO", alo},
                                 {"DATA\\ART\\MODELS\\W_UNIT_IDLE_00.ALA", ala},
                                 {"DATA\\ART\\TEXTURES\\W_TEST.DDS", tex}}));
    const Asset fromMeg = plain.open(meg.string() + ":Data/Art/Models/W_Unit.alo");

    // 3. A mod over a game, sources held in memory: the game's archive has an older model, another texture and the
    // clip; the mod's archive has the model and the texture that win. Opened by its game path.
    Model older = test::syntheticModel();
    older.skeleton.bones.back().name = "OldBone";
    auto game = vfs::openArchiveCopy(
        ByteSpan(vfs::writeMeg(1, {{"DATA\\ART\\MODELS\\W_UNIT.ALO", alamo::writeModel(older)},
                                   {"DATA\\ART\\MODELS\\W_UNIT_IDLE_00.ALA", ala},
                                   {"DATA\\ART\\TEXTURES\\W_TEST.DDS", test::textBytes("game texture")}})),
        "game/Data/Models.meg");
    auto mod = vfs::openArchiveCopy(
        ByteSpan(vfs::writeMeg(3, {{"DATA\\ART\\MODELS\\W_UNIT.ALO", alo}, {"DATA\\ART\\TEXTURES\\W_TEST.DDS", tex}})),
        "mod/Data/Mod.meg");
    auto table = std::make_shared<vfs::MountTable>();
    table->add(mod, "mod archive");
    table->add(game, "game archive");
    const Resolver mounted(table);
    const Asset fromMount = mounted.open("DATA/ART/MODELS/W_UNIT.ALO");

    REQUIRE(fromFolder.document.model);
    CHECK(fromFolder.document.format == Format::AlamoModel);
    CHECK(fromFolder.document.model->skeleton.bones.size() == 3);
    const std::string expected = summary(fromFolder.document);
    CHECK(summary(fromMeg.document) == expected);
    CHECK(summary(fromMount.document) == expected); // the mod's model, not the game's older one
    CHECK(summary(mounted.read("DATA/ART/MODELS/W_UNIT.ALO")) == expected);

    // The same companions: the clip beside the model, the texture in the game's order (the mod's over the game's).
    REQUIRE(fromFolder.clips.size() == 1);
    REQUIRE(fromFolder.clips[0].clip);
    const std::string expectedCompanions = companions(plain, fromFolder);
    CHECK(expectedCompanions.find("texture W_TEST.TGA\n  W_TEST texture") != std::string::npos);
    CHECK(companions(plain, fromMeg) == expectedCompanions);
    CHECK(companions(mounted, fromMount) == expectedCompanions);
    CHECK(fromMount.clips[0].path == "game/Data/Models.meg:DATA\\ART\\MODELS\\W_UNIT_IDLE_00.ALA");
    CHECK(fromMount.textures[0].path == "mod/Data/Mod.meg:DATA\\ART\\TEXTURES\\W_TEST.DDS");

    // The folder on disk opened with the mount below it: still the same document (its own folder first).
    const Resolver both(table);
    CHECK(summary(both.open((data / "Models" / "W_Unit.alo").string()).document) == expected);
}

TEST_CASE("a W3D skin finds its hierarchy, companion clips and textures through the resolver", "[resolve][w3d][vfs]") {
    test::FakeInstall fi;
    const std::string skinKey = "art/w3d/un/unit_skn.w3d";
    auto bytesOf = [&](const std::string& entry) {
        auto big = vfs::openArchiveFile(fi.bfme2 + "/W3D.big");
        const vfs::EntryBytes b = big->read(*big->find(entry));
        return std::vector<uint8_t>(b.span.data, b.span.data + b.span.size);
    };

    // Through the game and mod folders, by game path: the hierarchy from art/w3d/te/, the clip naming it, the mod's
    // compiled texture over the game's.
    const Resolver mounted(std::make_shared<const vfs::MountTable>(vfs::mountInstall({fi.bfme2}, {fi.bfme2Mod})));
    const Asset a = mounted.open(skinKey);
    REQUIRE(a.document.model);
    CHECK(a.document.format == Format::W3d);
    CHECK(a.document.model->skeleton.name == "TEST_SKL");
    CHECK(a.document.model->skeleton.bones.size() == 4);
    bool skinned = false;
    for (const Mesh& m : a.document.model->meshes)
        for (const SubMesh& sm : m.subMeshes)
            skinned |= sm.skinned();
    CHECK(skinned);
    CHECK(a.missingHierarchy.empty());
    CHECK(a.missing.empty());
    REQUIRE(a.clips.size() == 1);
    CHECK(a.clips[0].path == fi.bfme2 + "/W3D.big:art\\w3d\\te\\test_idla.w3d");
    REQUIRE(a.clips[0].clip);
    CHECK(a.clips[0].clip->name == "TEST_IDLA");
    CHECK(bindClip(a.document.model->skeleton, *a.clips[0].clip).ok());
    REQUIRE(a.textures.size() == 1);
    CHECK(a.textures[0].name == "quad.tga");
    CHECK(a.textures[0].path == fi.bfme2Mod + "/mod.big:art\\compiledtextures\\qu\\quad.dds");
    std::vector<uint8_t> tex;
    REQUIRE(mounted.readBytes(a.textures[0].path, tex));
    CHECK(std::string(tex.begin(), tex.end()) == "mod quad");
    CHECK(mounted.externalHierarchy(skinKey) == "TEST_SKL");

    // The archive alone: hierarchy and clip inside it; the texture is in Textures.big, which is not mounted.
    const Resolver plain;
    const Asset inBig = plain.open(fi.bfme2 + "/W3D.big:" + skinKey);
    CHECK(summary(inBig.document) == summary(a.document));
    REQUIRE(inBig.clips.size() == 1);
    CHECK(inBig.clips[0].clip);
    REQUIRE(inBig.textures.size() == 1);
    CHECK(inBig.textures[0].path.empty());
    CHECK(inBig.missing == std::vector<std::string>{"texture quad.tga"});

    // The three files extracted into one folder with the texture beside them: the same skin, clip and texture.
    TempDir tmp;
    write(tmp.path / "unit_skn.w3d", bytesOf(skinKey));
    write(tmp.path / "TEST_SKL.W3D", bytesOf("art/w3d/te/test_skl.w3d"));
    write(tmp.path / "test_idla.w3d", bytesOf("art/w3d/te/test_idla.w3d"));
    write(tmp.path / "Quad.DDS", test::textBytes("loose quad"));
    const Asset loose = plain.open((tmp.path / "unit_skn.w3d").string());
    CHECK(summary(loose.document) == summary(a.document));
    REQUIRE(loose.clips.size() == 1);
    CHECK(loose.clips[0].path == (tmp.path / "test_idla.w3d").string());
    REQUIRE(loose.textures.size() == 1);
    CHECK(loose.textures[0].path == (tmp.path / "Quad.DDS").string());

    // Without its hierarchy: the skin opens unskinned and the resolver says what is missing.
    fs::remove(tmp.path / "TEST_SKL.W3D");
    const Asset alone = plain.open((tmp.path / "unit_skn.w3d").string());
    REQUIRE(alone.document.model);
    CHECK(alone.document.model->skeleton.bones.empty());
    CHECK(alone.missingHierarchy == "TEST_SKL");
    CHECK(std::find(alone.missing.begin(), alone.missing.end(), "hierarchy TEST_SKL") != alone.missing.end());
}

namespace {

// A table's answers as text: mounts, every name with its hits and what they describe, listings.
std::string tableAnswers(const vfs::MountTable& t, const std::vector<std::string>& keys,
                         const std::vector<std::string>& folders, const std::vector<std::string>& described) {
    std::ostringstream s;
    s << "size " << t.size() << "\n";
    for (const vfs::Mount& m : t.mounts())
        s << "mount " << m.role << " " << m.source->label() << "\n";
    std::map<std::string, std::string> all; // forEach is unordered
    t.forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
        std::string& line = all[key];
        for (const vfs::Hit& h : hits)
            line += " " + std::to_string(h.mount) + ":" + std::to_string(h.entry) + "=" + t.describe(h);
    });
    for (const auto& [key, line] : all)
        s << "each " << key << line << "\n";
    for (const std::string& k : keys) {
        s << "find " << k << ":";
        if (const std::vector<vfs::Hit>* hits = t.findAll(k))
            for (const vfs::Hit& h : *hits)
                s << " " << h.mount << ":" << h.entry << "=" << t.describe(h) << " " << t.entry(h).key << " "
                  << t.mountOf(h).role;
        s << "\n";
    }
    for (const std::string& f : folders) {
        s << "list '" << f << "':";
        for (const std::string& k : t.list(f))
            s << " " << k;
        s << "\n";
    }
    for (const std::string& d : described) {
        const vfs::Source* src = nullptr;
        const vfs::Entry* e = t.findDescribed(d, &src);
        s << "described " << d << ": " << (e ? e->key + " in " + src->label() : std::string("none")) << " key "
          << t.keyFor(d) << "\n";
    }
    for (const std::string& w : t.warnings)
        s << "warning " << w << "\n";
    return s.str();
}

} // namespace

TEST_CASE("a folder over the mounted folders (MountTable::overlay) answers as the folder and every mounted source "
          "added in order",
          "[resolve][vfs]") {
    TempDir tmp;
    // The folder of a file outside the mount: names the mount also has, names of its own, two names that differ
    // only in case (one name in the table), a sub-folder (not part of it).
    const fs::path own = tmp.path / "elsewhere";
    write(own / "Shared.txt", test::textBytes("own shared"));
    write(own / "only.txt", test::textBytes("own only"));
    write(own / "case.txt", test::textBytes("own case"));
    write(own / "CASE.TXT", test::textBytes("own CASE"));
    write(own / "sub" / "deep.txt", test::textBytes("own deep"));
    // The mount: a mod folder (loose), a mod archive holding a name twice, a game archive.
    const fs::path mod = tmp.path / "mod";
    write(mod / "shared.txt", test::textBytes("mod shared"));
    write(mod / "Data" / "x.txt", test::textBytes("mod x"));
    write(mod / "sub" / "deep.txt", test::textBytes("mod deep"));
    auto modArchive = vfs::openArchiveCopy(ByteSpan(vfs::writeBig({{"shared.txt", test::textBytes("big shared 1")},
                                                                   {"SHARED.TXT", test::textBytes("big shared 2")},
                                                                   {"data\\y.txt", test::textBytes("big y")},
                                                                   {"data\\x.txt", test::textBytes("big x")}})),
                                           "mod/Mod.big");
    auto gameArchive = vfs::openArchiveCopy(
        ByteSpan(vfs::writeMeg(2, {{"ONLY.TXT", test::textBytes("game only")}, {"DATA\\Z.TXT", test::textBytes("z")}})),
        "game/Data/Game.meg");
    auto base = std::make_shared<vfs::MountTable>();
    base->add(std::make_shared<vfs::Folder>(mod.string()), "mod loose");
    base->add(modArchive, "mod archive");
    base->add(gameArchive, "game archive");

    auto folder = std::make_shared<vfs::Folder>(own.string(), std::string(), false, false);
    vfs::MountTable copied; // what the resolver built before: the folder, then every mounted source
    copied.add(folder, "folder");
    for (const vfs::Mount& m : base->mounts())
        copied.add(m.source, m.role);
    const std::shared_ptr<const vfs::MountTable> over = vfs::MountTable::overlay(folder, "folder", base);

    const std::vector<std::string> keys{"shared.txt",  "Shared.TXT", "ONLY.TXT",     "case.txt", "DATA/X.TXT",
                                        "data\\y.txt", "DATA/Z.TXT", "SUB/DEEP.TXT", "DEEP.TXT", "absent.txt"};
    const std::vector<std::string> folders{"", "DATA/", "DATA", "S", "SUB/", "NOPE/"};
    const std::vector<std::string> described{(own / "Shared.txt").string(),      (own / "case.txt").string(),
                                             (mod / "shared.txt").string(),      (mod / "sub" / "deep.txt").string(),
                                             "mod/Mod.big:data\\y.txt",          "game/Data/Game.meg:ONLY.TXT",
                                             (tmp.path / "nowhere.txt").string()};
    const std::string expected = tableAnswers(copied, keys, folders, described);
    // The folder's file first, then the mod's loose file, then the first of the archive's two entries.
    CHECK(expected.find("find shared.txt: 0:") != std::string::npos);
    CHECK(tableAnswers(*over, keys, folders, described) == expected);
    // Asked twice (the second time from the overlay's kept hits): the same.
    CHECK(tableAnswers(*over, keys, folders, described) == expected);
    const vfs::Hit* h = over->find("shared.txt");
    REQUIRE(h);
    CHECK(h->mount == 0);
    CHECK(over->describe(*h) == (own / "Shared.txt").string());
    REQUIRE(over->findAll("SHARED.TXT")->size() == 3);
    const vfs::EntryBytes b = over->read(over->findAll("SHARED.TXT")->at(2));
    const vfs::EntryBytes c = copied.read(copied.findAll("SHARED.TXT")->at(2));
    CHECK(std::string(b.span.data, b.span.data + b.span.size) == std::string(c.span.data, c.span.data + c.span.size));
    CHECK(over->read(*over->find("only.txt")).span.size == 8); // "own only"
    CHECK(over->mountOf(over->findAll("ONLY.TXT")->at(1)).role == "game archive");
    // Without a mount: the folder alone.
    CHECK(vfs::MountTable::overlay(folder, "folder", nullptr)->size() == 3);
}

TEST_CASE("a file outside the mounted folders finds its siblings first and the mounted files after", "[resolve][vfs]") {
    TempDir tmp;
    const fs::path own = tmp.path / "elsewhere";
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());
    write(own / "W_Unit.alo", alo);
    write(own / "P_Beside.alo", alo); // in the folder and in the mount: the folder's
    write(own / "W_Unit_Idle_00.ala", alamo::writeClip(test::syntheticClip()));
    write(own / "W_TEST.dds", test::textBytes("own texture"));
    auto archive = vfs::openArchiveCopy(
        ByteSpan(vfs::writeMeg(2, {{"P_BESIDE.ALO", test::textBytes("mounted beside")},
                                   {"P_MOUNTED.ALO", test::textBytes("mounted only")},
                                   {"W_UNIT_WALK_00.ALA", alamo::writeClip(test::syntheticClip())},
                                   {"DATA\\ART\\MODELS\\P_MODELS.ALO", test::textBytes("in models")},
                                   {"DATA\\ART\\TEXTURES\\W_TEST.DDS", test::textBytes("mounted texture")}})),
        "game/Data/Models.meg");
    auto table = std::make_shared<vfs::MountTable>();
    table->add(archive, "game archive");
    const Resolver r(table);
    const std::string model = (own / "W_Unit.alo").string();

    const Resolver::Place p = r.placeOf(model);
    REQUIRE(p.table);
    CHECK(p.table != table);
    CHECK(p.key == "W_UNIT.ALO");
    CHECK(p.diskPath == model);
    CHECK(r.findBeside(model, "p_beside.alo") == (own / "P_Beside.alo").string());
    CHECK(r.findBeside(model, "P_Mounted.alo") == "game/Data/Models.meg:P_MOUNTED.ALO");
    CHECK(r.findBeside(model, "W_Unit.alo").empty()); // never the model itself
    CHECK(r.findProxyFile(model, "P_Models.alo") == "game/Data/Models.meg:DATA\\ART\\MODELS\\P_MODELS.ALO");
    CHECK(r.filesBeside(model, ".alo") ==
          std::vector<std::string>{(own / "P_Beside.alo").string(), "game/Data/Models.meg:P_MOUNTED.ALO"});
    // The clips beside it in the folder and in the mount; the texture in the engine's order: the model's folder
    // (its own) before the mounted DATA/ART/TEXTURES/.
    CHECK(r.companionClips(model) ==
          std::vector<std::string>{(own / "W_Unit_Idle_00.ala").string(), "game/Data/Models.meg:W_UNIT_WALK_00.ALA"});
    CHECK(r.findTexture("W_TEST.TGA", model) == (own / "W_TEST.dds").string());
    const Asset a = r.open(model);
    REQUIRE(a.document.model);
    CHECK(a.clips.size() == 2);
}

TEST_CASE("files of the mounted folders are looked up by game path, others through one table per folder, made once",
          "[resolve][vfs]") {
    TempDir tmp;
    // 100 folders inside the mount and 100 outside it, one file each (more folders than the resolver once kept).
    const fs::path mod = tmp.path / "mod";
    const fs::path outside = tmp.path / "outside";
    for (int i = 0; i < 100; ++i) {
        write(mod / "art" / "w3d" / ("f" + std::to_string(i)) / "a.txt", test::textBytes("in " + std::to_string(i)));
        write(outside / ("f" + std::to_string(i)) / "b.txt", test::textBytes("out " + std::to_string(i)));
    }
    // Folders changed in the last 2 s are listed again on each lookup (racy stamps): these are made to look older.
    const auto past = fs::file_time_type::clock::now() - std::chrono::seconds(10);
    for (int i = 0; i < 100; ++i)
        fs::last_write_time(outside / ("f" + std::to_string(i)), past);
    const Resolver r(std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {mod.string()})));
    for (int round = 0; round < 2; ++round)
        for (int i = 0; i < 100; ++i) {
            const Resolver::Place in = r.placeOf((mod / "art" / "w3d" / ("f" + std::to_string(i)) / "a.txt").string());
            CHECK(in.table == r.mounted());
            CHECK(in.key == "ART/W3D/F" + std::to_string(i) + "/A.TXT");
            const std::string out = (outside / ("f" + std::to_string(i)) / "b.txt").string();
            const Resolver::Place o = r.placeOf(out);
            REQUIRE(o.table);
            CHECK(o.key == "B.TXT");
            CHECK(o.table->describe(*o.table->find("B.TXT")) == out);
            CHECK(o.table->find("ART/W3D/F" + std::to_string(i) + "/A.TXT"));
        }
    CHECK(r.tablesMade() == 100); // one per outside folder, none made again in the second round

    // Several threads asking for the same folder at once: one table.
    const Resolver shared(r.mounted());
    std::vector<std::thread> threads;
    std::vector<std::shared_ptr<const vfs::MountTable>> got(4);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] { got[t] = shared.placeOf((outside / "f7" / "b.txt").string()).table; });
    for (std::thread& t : threads)
        t.join();
    CHECK(shared.tablesMade() == 1);
    for (int t = 1; t < 4; ++t)
        CHECK(got[t] == got[0]);

    // A changed folder is read again.
    write(outside / "f7" / "c.txt", test::textBytes("new"));
    fs::last_write_time(outside / "f7", past + std::chrono::seconds(5));
    CHECK(shared.placeOf((outside / "f7" / "b.txt").string()).table->find("C.TXT"));
    CHECK(shared.tablesMade() == 2);
}

TEST_CASE("resolver: a file written into a folder just after it was listed is found (racy folder stamps)",
          "[resolve]") {
    // File systems stamp a folder's mtime with a coarse clock: a file added within the same tick as the listing
    // leaves size and mtime as they were. A folder changed within the last 2 s is therefore listed again on each
    // lookup, by the folder table and by the case-insensitive name search alike.
    TempDir tmp;
    const fs::path root = tmp.path / "racy";
    write(root / "a.txt", test::textBytes("a"));
    const Resolver r;
    for (int i = 0; i < 20; ++i) {
        const std::string name = "n" + std::to_string(i) + ".txt";
        write(root / name, test::textBytes(name));
        const Resolver::Place p = r.placeOf((root / "a.txt").string());
        REQUIRE(p.table);
        INFO(name);
        CHECK(p.table->find("N" + std::to_string(i) + ".TXT"));
        CHECK(r.findBeside((root / "a.txt").string(), "N" + std::to_string(i) + ".TXT") == (root / name).string());
    }
}
