// Read, edit, write (issue 39): every format's source tree re-emits the file byte for byte (writer-made fixtures,
// their tolerated quirks, and every corpus file the readers accept); an edit changes only the edited chunk's
// payload and the size fields of it and its ancestors; archives repack as stored.
#include "alamo/alamo_chunks.h"
#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo/particle_writer.h"
#include "alamo_fixtures.h"
#include "amal/amal_writer.h"
#include "bw2/bw2_writer.h"
#include "bw2_fixtures.h"
#include "common/file_read.h"
#include "common/source_tree.h"
#include "corpus.h"
#include "edit_expect.h"
#include "format_catch.h"
#include "formats/formats.h"
#include "particle_fixtures.h"
#include "resolve/resolver.h"
#include "vfs/archive.h"
#include "vfs/archive_writer.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>

using namespace rs;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<const std::vector<uint8_t>> shared(std::vector<uint8_t> b) {
    return std::make_shared<const std::vector<uint8_t>>(std::move(b));
}

uint32_t le32(const std::vector<uint8_t>& b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

// Every leaf (chunk, mini-chunk, field) given its own payload again: the writer then re-emits each node and
// recomputes every size field from (payload + sizeDelta), which must give the stored fields back.
size_t touchEveryLeaf(SourceTree& t) {
    const ByteSpan o = t.original();
    size_t n = 0;
    std::function<void(std::vector<SourceNode>&)> walk = [&](std::vector<SourceNode>& nodes) {
        for (SourceNode& x : nodes) {
            if (!x.children.empty()) {
                walk(x.children);
            } else if (x.kind != SourceNode::Kind::Raw) {
                t.setPayload(x, std::vector<uint8_t>(o.data + x.payloadBegin(), o.data + x.end));
                ++n;
            }
        }
    };
    walk(t.roots());
    return n;
}

// The three writes of an unedited tree equal the input.
void requireLossless(Format f, const std::vector<uint8_t>& bytes, const std::string& label) {
    INFO(label);
    SourceTree t = sourceTree(f, shared(bytes), label);
    REQUIRE(t.write() == bytes);
    REQUIRE(t.writeEveryNode() == bytes);
    SourceTree edited = t;
    touchEveryLeaf(edited);
    REQUIRE(edited.write() == bytes);
}

// A stale-size HLOD (as BFME II mods ship): the 0x700 stored 44 bytes short of its LOD array, then a box.
struct StaleHlod {
    std::vector<uint8_t> bytes;
    size_t hlodAt = 0;
};
StaleHlod staleHlod() {
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    for (const char* n : {"A", "B", "C"})
        w3d::writeMesh(cw, test::testQuad(n, "UNIT"));
    StaleHlod s;
    s.hlodAt = cw.w.buf.size();
    w3d::writeHlod(cw, test::oneLodHlod("UNIT", "TEST_SKL", {{1, "UNIT.A"}, {2, "UNIT.B"}, {3, "UNIT.C"}}));
    w3d::Box b;
    b.name = "UNIT.AFTER";
    w3d::writeBox(cw, b);
    s.bytes = cw.take();
    const uint32_t size = le32(s.bytes, s.hlodAt + 4) & 0x7FFFFFFFu;
    w3d::setStoredSize(s.bytes, s.hlodAt, size - (8 + 36)); // one 0x704 (8 + 36 bytes) less
    return s;
}

} // namespace

TEST_CASE("rewrite: writer-made files of every format come back byte for byte", "[save]") {
    const Model model = test::syntheticModel();
    requireLossless(Format::AlamoModel, alamo::writeModel(model), "model.alo");
    alamo::AloWriteOptions o;
    o.bones205 = o.vertices10005 = o.lightsFirst = o.geometryInMaterial = o.dazzleContainer = true;
    requireLossless(Format::AlamoModel, alamo::writeModel(model, o), "model_variant.alo");
    requireLossless(Format::AlamoClip, alamo::writeClip(test::syntheticClip(), {1}), "clip_v1.ala");
    requireLossless(Format::AlamoClip, alamo::writeClip(test::syntheticClip(), {2}), "clip_v2.ala");
    requireLossless(Format::AlamoParticles, alamo::writeParticleSystem(test::chainFixture()), "particles.alo");
    requireLossless(Format::W3d, staleHlod().bytes, "stale_hlod.w3d");
    requireLossless(Format::Bw2Model, bw2::writeBwm(test::bw2fx::staticModel(6)), "static.bwm");
    requireLossless(Format::Bw2Model, bw2::writeBwm(test::bw2fx::skinModel(bw2::SkinLayout::U8PerIndex)), "skin.bwm");
    amal::BankSpec bank;
    bank.movements = {{true, "Walk", 2, {amal::moveByte(3), amal::pauseByte(4)}, {amal::moveByte(-2)}}};
    bank.programs = {"Move 10,0,5~Jump 0", ""};
    bank.environment = "Env";
    requireLossless(Format::Amal, amal::writeAmalBank(bank), "bank.abk");
    const std::vector<vfs::WriteEntry> entries = {{"DATA\\ART\\A.ALO", {1, 2, 3}}, {"DATA\\ART\\B.TGA", {4, 5}}};
    for (int v : {1, 2, 3})
        requireLossless(Format::Meg, vfs::writeMeg(v, entries), "v" + std::to_string(v) + ".meg");
    requireLossless(Format::Big, vfs::writeBig(entries), "a.big");
    requireLossless(Format::Big, vfs::writeBig(entries, "BIG4"), "b.big");
}

TEST_CASE("rewrite: W3D quirks survive (stale HLOD size, a chunk cut by the file's end, unknown chunks)", "[save]") {
    const StaleHlod s = staleHlod();
    SourceTree t = w3d::sourceTree(shared(s.bytes), "stale_hlod.w3d");
    const std::vector<std::string> q = t.quirks();
    INFO(q.size());
    // The LOD array runs past the HLOD's stored end: the 0x702 is read by its own size, the 0x700 keeps its
    // stored size (44 bytes short) as a quirk, and the box after it stays a top-level chunk.
    REQUIRE(q.size() == 2);
    CHECK(q[0].find("0x700 at offset " + std::to_string(s.hlodAt) + ": its children run 44 bytes past") == 0);
    CHECK(q[1].find("0x700/0x702") == 0);
    REQUIRE(t.roots().back().type == w3d::id::Box);
    REQUIRE(t.roots()[t.roots().size() - 2].sizeDelta == -44);

    // Cut by the end of the file: the last chunk keeps its declared size.
    std::vector<uint8_t> cut(s.bytes.begin(), s.bytes.end() - 10);
    SourceTree tc = w3d::sourceTree(shared(cut), "cut.w3d");
    REQUIRE(tc.write() == cut);
    REQUIRE(tc.writeEveryNode() == cut);
    REQUIRE(tc.roots().back().sizeDelta == 10);
    REQUIRE(tc.quirks().back().find("truncated") != std::string::npos);

    // An unknown chunk id inside a mesh and at the top level, and 5 stray bytes at the end: kept as they are.
    w3d::ChunkWriter cw;
    w3d::writeMesh(cw, test::testQuad("Q", "UNIT"));
    std::vector<uint8_t> b = cw.take();
    const std::vector<uint8_t> unknown = {0x77, 0x77, 0, 0, 3, 0, 0, 0, 'a', 'b', 'c'};
    b.insert(b.end(), unknown.begin(), unknown.end()); // last child of the 0x0 mesh
    put32(b, 4, ((le32(b, 4) & 0x7FFFFFFFu) + uint32_t(unknown.size())) | (le32(b, 4) & 0x80000000u));
    b.insert(b.end(), unknown.begin(), unknown.end());
    b.insert(b.end(), {1, 2, 3, 4, 5});
    REQUIRE_NOTHROW(Resolver().read(ByteSpan(b), "unknown.w3d"));
    SourceTree tu = w3d::sourceTree(shared(b), "unknown.w3d");
    REQUIRE(tu.write() == b);
    REQUIRE(tu.writeEveryNode() == b);
    REQUIRE(tu.find("0x0/0x7777") != nullptr);
    REQUIRE(tu.find("0x7777") != nullptr);
    REQUIRE(tu.pathAt(b.size() - 2) == "trailing bytes");
}

TEST_CASE("rewrite: an edit changes only the edited chunk and its ancestors' size fields", "[save]") {
    const std::vector<uint8_t> orig = alamo::writeModel(test::syntheticModel());
    SourceTree t = alamo::sourceTree(shared(orig), "model.alo");
    // The first material's shader name (0x400/0x10100/0x10101): a longer name.
    SourceNode* shader = t.find("0x400/0x10100/0x10101");
    REQUIRE(shader);
    SourceNode* mesh = t.find("0x400");
    SourceNode* material = t.find("0x400/0x10100");
    const std::string name = "MeshBumpColorizeDetail.fx";
    std::vector<uint8_t> payload(name.begin(), name.end());
    payload.push_back(0);
    const int64_t delta = int64_t(payload.size()) - int64_t(shader->end - shader->payloadBegin());
    REQUIRE(delta != 0);
    // What the edit must give: the payload spliced in, the size fields of 0x10101, 0x10100 and 0x400 grown by
    // delta (bit 31 kept), every other byte as it was.
    std::vector<uint8_t> want = orig;
    for (const SourceNode* n : {mesh, material, shader})
        put32(want, n->begin + 4, uint32_t(int64_t(le32(orig, n->begin + 4)) + delta));
    want.erase(want.begin() + long(shader->payloadBegin()), want.begin() + long(shader->end));
    want.insert(want.begin() + long(shader->payloadBegin()), payload.begin(), payload.end());
    t.setPayload(*shader, payload);
    const std::vector<uint8_t> got = t.write();
    REQUIRE(got == want);
    const Model m = alamo::readModel(ByteSpan(got), "edited.alo");
    REQUIRE(m.meshes.at(0).subMeshes.at(0).material.shader == name);
    // Bytes that differ lie only in those three size fields before the payload.
    const auto first = firstDifference(ByteSpan(orig), ByteSpan(got));
    REQUIRE(first);
    CHECK(*first == mesh->begin + 4);
    CHECK(t.pathAt(*first) == "0x400");

    // A mini-chunk: its u8 size and the sizes of its chunk and their ancestors follow.
    SourceTree tm = alamo::sourceTree(shared(orig), "model.alo");
    SourceNode* mini = nullptr;
    std::function<void(std::vector<SourceNode>&)> findMini = [&](std::vector<SourceNode>& ns) {
        for (SourceNode& n : ns) {
            if (mini) return;
            if (n.kind == SourceNode::Kind::Mini && n.end - n.payloadBegin() == 4) mini = &n;
            findMini(n.children);
        }
    };
    findMini(tm.roots());
    REQUIRE(mini);
    const uint64_t miniAt = mini->begin;
    const std::string path = tm.pathAt(miniAt);
    INFO(path);
    tm.setPayload(*mini, {1, 2, 3, 4, 5, 6});
    const std::vector<uint8_t> grown = tm.write();
    REQUIRE(grown.size() == orig.size() + 2);
    REQUIRE(grown[miniAt + 1] == 6);
    REQUIRE(std::memcmp(grown.data() + miniAt + 2, "\1\2\3\4\5\6", 6) == 0);
    // After the edit the rest of the file follows unchanged, shifted by 2.
    REQUIRE(std::equal(orig.begin() + long(miniAt + 6), orig.end(), grown.begin() + long(miniAt + 8)));
    // An edit that overflows a mini-chunk's u8 size is refused, not truncated.
    tm.setPayload(*mini, std::vector<uint8_t>(300, 0));
    REQUIRE_THROWS_AS(tm.write(), std::length_error);
}

TEST_CASE("rewrite: an edit inside a stale-size HLOD keeps the HLOD's shortfall", "[save]") {
    const StaleHlod s = staleHlod();
    SourceTree t = w3d::sourceTree(shared(s.bytes), "stale_hlod.w3d");
    SourceNode* header = t.find("0x700/0x701");
    REQUIRE(header);
    std::vector<uint8_t> payload(s.bytes.begin() + long(header->payloadBegin()), s.bytes.begin() + long(header->end));
    payload.insert(payload.end(), 4, 0); // 4 more bytes
    t.setPayload(*header, payload);
    const std::vector<uint8_t> got = t.write();
    REQUIRE(got.size() == s.bytes.size() + 4);
    // The 0x700 grew by 4 and is still 44 bytes short of its children, as stored.
    REQUIRE((le32(got, s.hlodAt + 4) & 0x7FFFFFFFu) == (le32(s.bytes, s.hlodAt + 4) & 0x7FFFFFFFu) + 4);
    SourceTree again = w3d::sourceTree(shared(got), "again.w3d");
    REQUIRE(again.quirks().size() == 2);
    REQUIRE(again.find("0x700")->sizeDelta == -44);
}

TEST_CASE("pack: an archive repacked with entries replaced keeps its layout", "[save][vfs]") {
    const std::vector<vfs::WriteEntry> entries = {
        {"DATA\\ART\\A.ALO", {1, 2, 3}}, {"DATA\\ART\\B.TGA", {4, 5}}, {"DATA\\XML\\C.XML", {6}}};
    for (int v : {0, 1, 2, 3}) { // 0: BIG
        const std::vector<uint8_t> a = v ? vfs::writeMeg(v, entries) : vfs::writeBig(entries);
        INFO("version " << v);
        REQUIRE(vfs::repackArchive(ByteSpan(a), "a", {}) == a);
        // Same size: in place, only the entry's data differ.
        const std::vector<uint8_t> same = vfs::repackArchive(ByteSpan(a), "a", {{"data/art/b.tga", {9, 9}}});
        REQUIRE(same.size() == a.size());
        size_t differ = 0;
        for (size_t i = 0; i < a.size(); ++i)
            differ += a[i] != same[i];
        REQUIRE(differ == 2);
        // Another size and a new entry: laid out again; every entry reads back, names as stored.
        const std::vector<uint8_t> grown =
            vfs::repackArchive(ByteSpan(a), "a", {{"DATA/ART/A.ALO", {7, 7, 7, 7, 7}}, {"DATA\\NEW\\D.DDS", {8}}});
        const auto r = vfs::openArchiveCopy(ByteSpan(grown), "grown");
        REQUIRE(r->warnings().empty());
        REQUIRE(r->entries().size() == 4);
        auto bytesOf = [&](const char* n) {
            const vfs::Entry* e = r->find(n);
            REQUIRE(e);
            const vfs::EntryBytes b = r->read(*e);
            return std::vector<uint8_t>(b.span.data, b.span.data + b.span.size);
        };
        REQUIRE(bytesOf("DATA/ART/A.ALO") == std::vector<uint8_t>{7, 7, 7, 7, 7});
        REQUIRE(bytesOf("DATA/ART/B.TGA") == std::vector<uint8_t>{4, 5});
        REQUIRE(bytesOf("DATA/XML/C.XML") == std::vector<uint8_t>{6});
        REQUIRE(bytesOf("DATA/NEW/D.DDS") == std::vector<uint8_t>{8});
        REQUIRE(r->find("DATA/ART/A.ALO")->name == "DATA\\ART\\A.ALO");
        // Writing the grown archive's entries with the project's writer gives the same bytes: the layout rules
        // (CRC order for MEG; name table, records and data in order) are the writer's.
        if (v) {
            std::vector<vfs::WriteEntry> all = entries;
            all[0].data = {7, 7, 7, 7, 7};
            all.push_back({"DATA\\NEW\\D.DDS", {8}});
            vfs::sortForMeg(all);
            const std::vector<uint8_t> fresh = vfs::writeMeg(v, all);
            REQUIRE(fresh.size() == grown.size());
        }
    }
}

namespace {

// Every corpus file under `sub` that a reader accepts is rewritten through its source tree and compared.
void corpusRoundTrip(const std::string& sub) {
    const std::string root = test::corpusDir() + "/" + sub;
    size_t accepted = 0, identical = 0, refused = 0, notWritable = 0, quirky = 0;
    std::vector<std::string> exceptions;
    const Resolver res;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        const std::string path = e.path().string();
        std::vector<uint8_t> bytes;
        Format f = Format::Unknown;
        try {
            bytes = readFile(path, kMaxInputBytes);
            f = writableFormat(ByteSpan(bytes), path);
            if (f == Format::Unknown) {
                ++notWritable;
                continue;
            }
            if (f == Format::Meg || f == Format::Big)
                vfs::openArchiveCopy(ByteSpan(bytes), path);
            else
                res.read(path);
        } catch (const ParseError& err) {
            ++refused; // the reader refuses it: not a file rigscope saves
            std::cout << "  refused by the reader: " << err.what() << "\n";
            continue;
        }
        ++accepted;
        SourceTree t = sourceTree(f, shared(bytes), path);
        const std::vector<uint8_t> w = t.write(), every = t.writeEveryNode();
        SourceTree edited = t;
        touchEveryLeaf(edited);
        const std::vector<uint8_t> ew = edited.write();
        const auto d = firstDifference(ByteSpan(bytes), ByteSpan(w));
        const auto de = firstDifference(ByteSpan(bytes), ByteSpan(every));
        const auto dd = firstDifference(ByteSpan(bytes), ByteSpan(ew));
        if (!d && !de && !dd) {
            ++identical;
        } else {
            const uint64_t at = d ? *d : de ? *de : *dd;
            exceptions.push_back(path + ": differs at offset " + std::to_string(at) + " (" + t.pathAt(at) + ")");
        }
        const std::vector<std::string> q = t.quirks();
        if (!q.empty()) {
            ++quirky;
            for (const std::string& line : q)
                std::cout << "  quirk kept: " << path << ": " << line << "\n";
        }
    }
    std::cout << "corpus rewrite " << sub << ": " << accepted << " files accepted by the readers, " << identical
              << " identical after read -> write (tree, every node, every leaf re-emitted), " << quirky
              << " with quirks kept; " << refused << " refused by the readers, " << notWritable
              << " of formats not written (textures, XML, INI, ...)\n";
    for (const std::string& x : exceptions)
        std::cout << "  EXCEPTION " << x << "\n";
    CHECK(exceptions.empty());
    CHECK(identical == accepted);
}

} // namespace

TEST_CASE("rewrite corpus: Alamo files come back byte for byte", "[save][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    corpusRoundTrip("alamo");
}

TEST_CASE("rewrite corpus: W3D files come back byte for byte", "[save][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    corpusRoundTrip("w3d");
}

TEST_CASE("rewrite corpus: the game folders' files come back byte for byte", "[save][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("games");
    corpusRoundTrip("games");
}

TEST_CASE("rewrite corpus: B&W2, AMAL banks and archives come back byte for byte", "[save][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("archives");
    for (const char* sub : {"bw2", "amal", "archives"})
        if (fs::is_directory(test::corpusDir() + "/" + sub)) corpusRoundTrip(sub);
}

namespace {

std::vector<uint8_t> cstr(const std::string& s) {
    std::vector<uint8_t> v(s.begin(), s.end());
    v.push_back(0);
    return v;
}

} // namespace

TEST_CASE("edit: a texture renamed in an Alamo model changes only its mini-chunk and the sizes above it",
          "[save][edit]") {
    const std::vector<uint8_t> orig = alamo::writeModel(test::syntheticModel());
    SourceTree t = alamo::sourceTree(shared(orig), "m.alo");
    // Dry run: found, nothing changed.
    const std::vector<TextEdit> found =
        renameTexture(Format::AlamoModel, t, "w_test.tga", "W_RENAMED_LONGER.DDS", false);
    REQUIRE(found.size() == 1);
    CHECK(found[0].path == "0x400/0x10100/0x10105/mini 0x2");
    CHECK(found[0].before == "W_TEST.TGA");
    REQUIRE(t.write() == orig);
    const std::vector<TextEdit> done = renameTexture(Format::AlamoModel, t, "w_test.tga", "W_RENAMED_LONGER.DDS", true);
    REQUIRE(done.size() == 1);
    const std::vector<uint8_t> got = t.write();
    const SourceTree fresh = alamo::sourceTree(shared(orig), "m.alo");
    REQUIRE(got == test::expectedAfter(orig, fresh, {{done[0].offset, cstr("W_RENAMED_LONGER.DDS")}}));
    const Model m = alamo::readModel(ByteSpan(got), "edited.alo");
    bool seen = false;
    for (const MaterialParam& p : m.meshes.at(0).subMeshes.at(0).material.params)
        if (p.name == "BaseTexture") seen = p.texture == "W_RENAMED_LONGER.DDS";
    REQUIRE(seen);
}

TEST_CASE("edit: a texture renamed in W3D and B&W2 files, nothing else changed", "[save][edit]") {
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    w3d::writeMesh(cw, test::testQuad("A", "UNIT"));
    w3d::writeMesh(cw, test::testQuad("B", "UNIT"));
    const std::vector<uint8_t> w = cw.take();
    SourceTree t = w3d::sourceTree(shared(w), "q.w3d");
    const std::vector<TextEdit> e = renameTexture(Format::W3d, t, "QUAD.TGA", "grass.dds", true);
    REQUIRE(e.size() == 2); // one per mesh
    CHECK(e[0].path == "0x0/0x30/0x31/0x32");
    const std::vector<uint8_t> got = t.write();
    const SourceTree fresh = w3d::sourceTree(shared(w), "q.w3d");
    REQUIRE(got == test::expectedAfter(w, fresh, {{e[0].offset, cstr("grass.dds")}, {e[1].offset, cstr("grass.dds")}}));
    const Document d = Resolver().read(ByteSpan(got), "q.w3d");
    REQUIRE(d.model);
    size_t grass = 0, other = 0;
    for (const Mesh& mesh : d.model->meshes)
        for (const SubMesh& sm : mesh.subMeshes)
            for (const MaterialParam& p : sm.material.params)
                if (p.type == ParamType::Texture) (p.texture == "grass.dds" ? grass : other)++;
    CHECK(grass == 2);
    CHECK(other == 0);

    // B&W2: in place in the char[64] slot; the file keeps its size.
    const std::vector<uint8_t> b = bw2::writeBwm(test::bw2fx::staticModel(6));
    SourceTree tb = bw2::sourceTree(shared(b), "s.bwm");
    const std::vector<TextEdit> eb = renameTexture(Format::Bw2Model, tb, "T_ROOF.TGA", "t_slate.dds", true);
    REQUIRE(eb.size() == 1);
    CHECK(eb[0].path == "material 1/diffuse");
    const std::vector<uint8_t> gb = tb.write();
    REQUIRE(gb.size() == b.size());
    size_t differ = 0;
    for (size_t i = 0; i < b.size(); ++i)
        if (b[i] != gb[i]) {
            ++differ;
            CHECK(i >= eb[0].offset);
            CHECK(i < eb[0].offset + 64);
        }
    CHECK(differ > 0);
    REQUIRE(bw2::parseBwm(ByteSpan(gb), "s.bwm").materials.at(1).diffuse == "t_slate.dds");
    REQUIRE_THROWS_AS(renameTexture(Format::Bw2Model, tb, "t_wall.dds", std::string(64, 'x'), true), std::length_error);
}

TEST_CASE("edit: a texture renamed twice in W3D and B&W2 files (the second rename finds the name the first set)",
          "[save][edit]") {
    // The viewer renames again what it renamed before it saved: renameTexture reads the names as edited, not as
    // the file held them.
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy());
    w3d::writeMesh(cw, test::testQuad("A", "UNIT"));
    const std::vector<uint8_t> w = cw.take();
    SourceTree t = w3d::sourceTree(shared(w), "q.w3d");
    REQUIRE(renameTexture(Format::W3d, t, "QUAD.TGA", "grass.dds", true).size() == 1);
    const std::vector<TextEdit> again = renameTexture(Format::W3d, t, "GRASS.DDS", "stone_long_name.dds", true);
    REQUIRE(again.size() == 1);
    CHECK(renameTexture(Format::W3d, t, "QUAD.TGA", "x.dds", false).empty()); // the old name is gone
    const std::vector<uint8_t> got = t.write();
    const Document d = Resolver().read(ByteSpan(got), "q.w3d");
    REQUIRE(d.model);
    std::vector<std::string> names;
    for (const Mesh& mesh : d.model->meshes)
        for (const SubMesh& sm : mesh.subMeshes)
            for (const MaterialParam& p : sm.material.params)
                if (p.type == ParamType::Texture) names.push_back(p.texture);
    CHECK(names == std::vector<std::string>{"stone_long_name.dds"});

    const std::vector<uint8_t> b = bw2::writeBwm(test::bw2fx::staticModel(6));
    SourceTree tb = bw2::sourceTree(shared(b), "s.bwm");
    REQUIRE(renameTexture(Format::Bw2Model, tb, "T_ROOF.TGA", "t_slate.dds", true).size() == 1);
    REQUIRE(renameTexture(Format::Bw2Model, tb, "t_slate.DDS", "t_tile.dds", true).size() == 1);
    CHECK(renameTexture(Format::Bw2Model, tb, "T_ROOF.TGA", "x.dds", false).empty());
    const std::vector<uint8_t> gb = tb.write();
    REQUIRE(gb.size() == b.size());
    CHECK(bw2::parseBwm(ByteSpan(gb), "s.bwm").materials.at(1).diffuse == "t_tile.dds");
}

TEST_CASE("edit corpus: a texture renamed in a real Alamo model", "[save][edit][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    for (const std::string& path : test::corpusFiles("alamo", {".alo"})) {
        const std::vector<uint8_t> orig = readFile(path, kMaxInputBytes);
        if (writableFormat(ByteSpan(orig), path) != Format::AlamoModel) continue;
        SourceTree t = alamo::sourceTree(shared(orig), path);
        // The model's first texture parameter.
        const SourceNode* first = nullptr;
        std::function<void(const std::vector<SourceNode>&)> walk = [&](const std::vector<SourceNode>& ns) {
            for (const SourceNode& n : ns) {
                if (first) return;
                if (n.kind == SourceNode::Kind::Mini && n.type == 2 &&
                    t.pathAt(n.begin).find("0x10105/") != std::string::npos)
                    first = &n;
                walk(n.children);
            }
        };
        walk(t.roots());
        if (!first) continue;
        const std::string name(reinterpret_cast<const char*>(orig.data() + first->payloadBegin()));
        const std::vector<TextEdit> e = renameTexture(Format::AlamoModel, t, name, "RIGSCOPE_EDIT_TEST.DDS", true);
        REQUIRE(!e.empty());
        std::vector<std::pair<uint64_t, std::vector<uint8_t>>> edits;
        for (const TextEdit& x : e)
            edits.push_back({x.offset, cstr("RIGSCOPE_EDIT_TEST.DDS")});
        const std::vector<uint8_t> got = t.write();
        INFO(path);
        REQUIRE(got == test::expectedAfter(orig, alamo::sourceTree(shared(orig), path), edits));
        const Model m = alamo::readModel(ByteSpan(got), path);
        size_t renamed = 0;
        for (const Mesh& mesh : m.meshes)
            for (const SubMesh& sm : mesh.subMeshes)
                for (const MaterialParam& p : sm.material.params)
                    renamed += p.type == ParamType::Texture && p.texture == "RIGSCOPE_EDIT_TEST.DDS";
        CHECK(renamed >= 1);
        std::cout << "edit corpus: " << path << ": texture " << name << " renamed in " << e.size() << " places\n";
        return;
    }
    FAIL("no corpus .alo names a texture");
}
