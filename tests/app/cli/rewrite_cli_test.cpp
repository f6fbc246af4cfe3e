// rigscope-cli rewrite (--verify, --check-only) and pack (DIR, --from --replace) on writer-made files, a tampered
// output, archive entries, and the corpus archives extracted and packed again.
#include "cli_run.h"
#include "corpus.h"

#include "alamo/alamo_chunks.h"
#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "bw2/bw2_writer.h"
#include "bw2_fixtures.h"
#include "common/file_read.h"
#include "vfs/archive.h"
#include "vfs/archive_writer.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;

namespace {

test::CliRun cli(const std::string& args) { return test::runCli(args, test::Stderr::Merge); }
std::string q(const std::string& s) { return "'" + s + "'"; }

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("rigscope_rewrite_" + std::to_string(getpid()) + "_" +
                                            std::to_string(reinterpret_cast<uintptr_t>(this)));
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
std::vector<uint8_t> load(const std::string& path) { return readFile(path, kMaxInputBytes); }

std::vector<uint8_t> staleHlodFile() {
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    w3d::writeMesh(cw, test::testQuad("A", "UNIT"));
    w3d::writeMesh(cw, test::testQuad("B", "UNIT"));
    const size_t at = cw.w.buf.size();
    w3d::writeHlod(cw, test::oneLodHlod("UNIT", "TEST_SKL", {{1, "UNIT.A"}, {2, "UNIT.B"}}));
    std::vector<uint8_t> b = cw.take();
    uint32_t size;
    std::memcpy(&size, b.data() + at + 4, 4);
    w3d::setStoredSize(b, at, (size & 0x7FFFFFFFu) - (8 + 36));
    return b;
}

} // namespace

TEST_CASE("cli rewrite writes each file back unchanged and --verify says so", "[cli][save]") {
    REQUIRE(test::cliBuilt());
    TempDir t;
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());
    const std::vector<uint8_t> w3d = staleHlodFile();
    const std::vector<uint8_t> bwm = bw2::writeBwm(test::bw2fx::staticModel(6));
    const std::vector<uint8_t> meg = vfs::writeMeg(2, {{"DATA\\ART\\MODELS\\M.ALO", alo}, {"DATA\\X.TXT", {1, 2}}});
    save(t / "in/m.alo", alo);
    save(t / "in/stale.w3d", w3d);
    save(t / "in/s.bwm", bwm);
    save(t / "in/a.meg", meg);
    const auto r = cli("rewrite " + q(t / "in/m.alo") + " " + q(t / "in/stale.w3d") + " " + q(t / "in/s.bwm") + " " +
                       q(t / "in/a.meg") + " -o " + q(t / "out") + " --verify");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find(t / "in/stale.w3d" + " -> " + t / "out/stale.w3d" + ": " + std::to_string(w3d.size()) +
                     " bytes written, 2 quirks kept, identical to the input") != std::string::npos);
    CHECK(load(t / "out/m.alo") == alo);
    CHECK(load(t / "out/stale.w3d") == w3d);
    CHECK(load(t / "out/s.bwm") == bwm);
    CHECK(load(t / "out/a.meg") == meg);
    // No temporary file is left behind.
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(t.path / "out")) {
        CHECK(e.path().filename().string()[0] != '.');
        ++files;
    }
    CHECK(files == 4);

    // An archive entry is written as a loose file in DIR; the archive is not touched.
    const auto e =
        cli("rewrite " + q(t / "in/a.meg" + ":DATA/ART/MODELS/M.ALO") + " -o " + q(t / "loose") + " --verify");
    INFO(e.out);
    REQUIRE(e.status == 0);
    CHECK(load(t / "loose/M.ALO") == alo);
    CHECK(load(t / "in/a.meg") == meg);
}

TEST_CASE("cli rewrite --check-only names the first differing offset and its chunk path", "[cli][save]") {
    REQUIRE(test::cliBuilt());
    TempDir t;
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());
    save(t / "m.alo", alo);
    REQUIRE(cli("rewrite " + q(t / "m.alo") + " -o " + q(t / "out")).status == 0);
    REQUIRE(cli("rewrite --check-only " + q(t / "m.alo") + " -o " + q(t / "out")).status == 0);
    // Tamper with one byte of the first material's shader name in the output.
    SourceTree tree = alamo::sourceTree(std::make_shared<const std::vector<uint8_t>>(alo), "m.alo");
    const SourceNode* shader = tree.find("0x400/0x10100/0x10101");
    REQUIRE(shader);
    const uint64_t at = shader->payloadBegin() + 2;
    std::vector<uint8_t> tampered = alo;
    tampered[at] ^= 0x20;
    save(t / "out/m.alo", tampered);
    const auto r = cli("rewrite --check-only " + q(t / "m.alo") + " -o " + q(t / "out"));
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(t / "m.alo" + ": " + t / "out/m.alo" + " differs from the input at offset " + std::to_string(at) +
                     " (chunk 0x400/0x10100/0x10101); input " + std::to_string(alo.size()) + " bytes, output " +
                     std::to_string(alo.size()) + " bytes") != std::string::npos);
    CHECK(r.out.find("differ from their input: " + t / "m.alo") != std::string::npos);
    // A shorter output: the difference is at the end of the output, past which the input goes on.
    tampered = alo;
    tampered.resize(alo.size() - 3);
    save(t / "out/m.alo", tampered);
    const auto s = cli("rewrite --check-only " + q(t / "m.alo") + " -o " + q(t / "out"));
    CHECK(s.status == 1);
    CHECK(s.out.find("at offset " + std::to_string(alo.size() - 3) + " (chunk ") != std::string::npos);
}

TEST_CASE("cli rewrite refuses what it cannot write, naming the file", "[cli][save]") {
    REQUIRE(test::cliBuilt());
    TempDir t;
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());
    save(t / "m.alo", alo);
    save(t / "notes.txt", {'h', 'i'});
    // The input itself as the output.
    auto r = cli("rewrite " + q(t / "m.alo") + " -o " + q(t.path.string()));
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find("is the input itself") != std::string::npos);
    CHECK(load(t / "m.alo") == alo);
    // A file of no format rigscope writes; the other file is still written.
    r = cli("rewrite " + q(t / "notes.txt") + " " + q(t / "m.alo") + " -o " + q(t / "out"));
    CHECK(r.status == 1);
    CHECK(r.out.find("not rewritten: " + t / "notes.txt") != std::string::npos);
    CHECK(load(t / "out/m.alo") == alo);
    // Two inputs with one name.
    save(t / "sub/m.alo", alo);
    r = cli("rewrite " + q(t / "m.alo") + " " + q(t / "sub/m.alo") + " -o " + q(t / "out2"));
    CHECK(r.status == 1);
    CHECK(r.out.find("another input is also written as") != std::string::npos);
    CHECK(cli("rewrite " + q(t / "m.alo")).status == 2);
    CHECK(cli("rewrite --help").out.find("Usage: rigscope-cli rewrite") == 0);
}

TEST_CASE("cli pack writes MEG 1-3 and BIG from a folder and replaces entries of an archive", "[cli][save][vfs]") {
    REQUIRE(test::cliBuilt());
    TempDir t;
    save(t / "src/Data/Art/Models/a.alo", {1, 2, 3});
    save(t / "src/Data/Art/Textures/b.dds", {4, 5});
    save(t / "src/Data/XML/c.xml", {6});
    for (int v : {1, 2, 3}) {
        const std::string out = t / ("v" + std::to_string(v) + ".meg");
        const auto r = cli("pack " + q(t / "src") + " -o " + q(out) + " --meg-version " + std::to_string(v));
        INFO(r.out);
        REQUIRE(r.status == 0);
        std::vector<vfs::WriteEntry> want = {
            {"DATA\\ART\\MODELS\\A.ALO", {1, 2, 3}}, {"DATA\\ART\\TEXTURES\\B.DDS", {4, 5}}, {"DATA\\XML\\C.XML", {6}}};
        vfs::sortForMeg(want);
        CHECK(load(out) == vfs::writeMeg(v, want));
    }
    REQUIRE(cli("pack " + q(t / "src") + " -o " + q(t / "a.big")).status == 0);
    CHECK(load(t / "a.big") == vfs::writeBig({{"Data\\Art\\Models\\a.alo", {1, 2, 3}},
                                              {"Data\\Art\\Textures\\b.dds", {4, 5}},
                                              {"Data\\XML\\c.xml", {6}}}));

    // --from: one entry replaced by a longer file, one added; the rest as stored.
    save(t / "new.alo", {9, 9, 9, 9, 9, 9});
    save(t / "d.txt", {7});
    const auto r = cli("pack --from " + q(t / "v2.meg") + " --replace 'data/art/models/a.alo=" + t / "new.alo" +
                       "' --replace 'DATA\\NEW\\D.TXT=" + t / "d.txt" + "' -o " + q(t / "patched.meg"));
    INFO(r.out);
    REQUIRE(r.status == 0);
    const std::vector<uint8_t> patched = load(t / "patched.meg");
    const auto a = vfs::openArchiveCopy(ByteSpan(patched), "patched.meg");
    REQUIRE(a->kind() == "meg2");
    REQUIRE(a->entries().size() == 4);
    const vfs::EntryBytes eb = a->read(*a->find("DATA/ART/MODELS/A.ALO"));
    CHECK(std::vector<uint8_t>(eb.span.data, eb.span.data + eb.span.size) == std::vector<uint8_t>(6, 9));
    CHECK(a->find("DATA/ART/MODELS/A.ALO")->name == "DATA\\ART\\MODELS\\A.ALO");
    CHECK(a->find("DATA/NEW/D.TXT"));
    // Nothing is written into the archive itself.
    const std::vector<uint8_t> before = load(t / "v2.meg");
    const auto self = cli("pack --from " + q(t / "v2.meg") + " -o " + q(t / "v2.meg"));
    CHECK(self.status == 1);
    CHECK(self.out.find("never writes into an archive") != std::string::npos);
    CHECK(load(t / "v2.meg") == before);
    CHECK(cli("pack " + q(t / "src") + " -o " + q(t / "x.zip")).status == 2);
    CHECK(cli("pack --from " + q(t / "v2.meg") + " --meg-version 3 -o " + q(t / "y.meg")).status == 2);
}

TEST_CASE("cli pack: corpus archives extracted and packed again give the same bytes", "[cli][save][vfs][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("archives");
    REQUIRE(test::cliBuilt());
    TempDir t;
    size_t archives = 0, extracted = 0, sameFromDir = 0, sameFromArchive = 0;
    for (const auto& e : fs::recursive_directory_iterator(test::corpusDir() + "/archives")) {
        if (!e.is_regular_file()) continue;
        const std::string path = e.path().string(), name = e.path().filename().string();
        std::string ext = e.path().extension().string();
        for (char& c : ext)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (ext != ".meg" && ext != ".big") continue;
        ++archives;
        const std::vector<uint8_t> orig = load(path);
        const auto a = vfs::openArchiveCopy(ByteSpan(orig), path);
        const std::string dir = t / ("x_" + name);
        const auto x = cli("extract " + q(path) + " '*' -o " + q(dir));
        // From the folder: the version the archive has; BIG names with '/' and a leading '/' as the archive does.
        std::string opts = ext == ".meg" ? " --meg-version " + a->kind().substr(3) : "";
        bool slash = false, lead = false;
        for (const vfs::Entry& en : a->entries()) {
            slash = slash || en.name.find('/') != std::string::npos;
            lead = lead || (!en.name.empty() && en.name[0] == '/');
        }
        if (slash) opts += " --separator /";
        if (lead) opts += " --prefix /";
        const std::string out = t / ("p_" + name);
        const auto p = cli("pack " + q(dir) + " -o " + q(out) + opts);
        if (x.status != 0) {
            // Names that cannot be files under a folder (drive letters, "..") are refused by extract.
            std::cout << "  not packed from a folder: " << path << ": " << x.out;
        } else {
            ++extracted;
            INFO(p.out);
            CHECK(p.status == 0);
            if (p.status == 0 && load(out) == orig)
                ++sameFromDir;
            else
                std::cout << "  pack DIR differs: " << path << "\n";
        }
        // From the archive, every entry replaced by its extracted file (where it could be extracted).
        std::string repl;
        for (const vfs::Entry& en : a->entries()) {
            std::string rel = en.name;
            std::replace(rel.begin(), rel.end(), '\\', '/');
            while (!rel.empty() && rel[0] == '/')
                rel.erase(0, 1);
            if (fs::is_regular_file(dir + "/" + rel)) repl += " --replace " + q(en.name + "=" + dir + "/" + rel);
        }
        const std::string out2 = t / ("f_" + name);
        const auto f = cli("pack --from " + q(path) + repl + " -o " + q(out2));
        INFO(f.out);
        CHECK(f.status == 0);
        if (f.status == 0 && load(out2) == orig) ++sameFromArchive;
    }
    std::cout << "corpus archives: " << archives << "; extracted whole: " << extracted
              << "; packed from the extracted folder to the same bytes: " << sameFromDir
              << "; from the archive with every entry replaced by its extracted file: " << sameFromArchive << "\n";
    CHECK(sameFromArchive == archives);
    CHECK(sameFromDir == extracted); // every archive whose entries all extract packs back from its folder
    CHECK(extracted > 0);
}

TEST_CASE("cli edit --rename-texture: dry run, -o DIR and --in-place", "[cli][save][edit]") {
    REQUIRE(test::cliBuilt());
    TempDir t;
    const std::vector<uint8_t> alo = alamo::writeModel(test::syntheticModel());  // BaseTexture W_TEST.TGA
    const std::vector<uint8_t> bwm = bw2::writeBwm(test::bw2fx::staticModel(6)); // no W_TEST.TGA
    save(t / "mod/Data/Art/Models/a.alo", alo);
    save(t / "mod/Data/Art/Models/sub/b.alo", alo);
    save(t / "mod/Data/Art/Models/c.bwm", bwm);
    save(t / "mod/Data/Art/Models/readme.txt", {'x'});
    const std::string models = t / "mod/Data/Art/Models";

    // Dry run: each file and each change listed, nothing written.
    auto r = cli("edit " + q(models) + " --rename-texture w_test.tga=W_NEW.DDS --dry-run");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.find(models + "/a.alo: 0x400/0x10100/0x10105/mini 0x2 at offset ") != std::string::npos);
    CHECK(r.out.find(": texture W_TEST.TGA -> W_NEW.DDS\n") != std::string::npos);
    CHECK(r.out.find(models + "/c.bwm: no change") != std::string::npos);
    CHECK(r.out.find("2 changes in 2 of 3 files (dry run: nothing written)") != std::string::npos);
    CHECK(load(models + "/a.alo") == alo);

    // -o DIR: the changed files at their paths under DIR, read back with the new name; the unchanged one not written.
    r = cli("edit " + q(models) + " --rename-texture w_test.tga=W_NEW.DDS -o " + q(t / "out"));
    INFO(r.out);
    REQUIRE(r.status == 0);
    for (const char* f : {"out/a.alo", "out/sub/b.alo"}) {
        const std::vector<uint8_t> got = load(t / f);
        CHECK(got.size() == alo.size() - 1); // "W_NEW.DDS" is one byte shorter than "W_TEST.TGA"
        const Model m = alamo::readModel(ByteSpan(got), f);
        std::string tex;
        for (const MaterialParam& p : m.meshes.at(0).subMeshes.at(0).material.params)
            if (p.name == "BaseTexture") tex = p.texture;
        CHECK(tex == "W_NEW.DDS");
    }
    CHECK_FALSE(fs::exists(t / "out/c.bwm"));
    CHECK(load(models + "/a.alo") == alo);

    // --in-place: the file replaced safely, nothing else left in its folder.
    r = cli("edit " + q(models + "/a.alo") + " --rename-texture W_TEST.TGA=W_NEW.DDS --in-place");
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(load(models + "/a.alo") == load(t / "out/a.alo"));
    for (const auto& e : fs::directory_iterator(models))
        CHECK(e.path().filename().string()[0] != '.');

    CHECK(cli("edit " + q(models) + " --rename-texture A=B").status == 2);                // no -o, no --in-place
    CHECK(cli("edit " + q(models) + " -o " + q(t / "x")).status == 2);                    // no edit
    CHECK(cli("edit " + q(models) + " --rename-texture A -o " + q(t / "x")).status == 2); // not OLD=NEW
}
