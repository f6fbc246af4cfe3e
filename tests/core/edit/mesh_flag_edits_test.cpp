// W3D edits of what the scene model does not keep as stored (issue 39 item 3): a mesh's two-sided flag
// (W3D_MESH_FLAG_TWO_SIDED, bit 0x2000 of the 0x1F header's attributes) and the shader fields the reader replaces
// by what ww3d2 draws with (ColorMask, PostDetailColorFunc, PostDetailAlphaFunc). Each edit: exactly the edited
// bytes change (the payload keeps its size: no size field moves), the reader reads the new value back, undo gives
// the original, and a second mesh or shader stays as it was.
#include "common/file_read.h"
#include "corpus.h"
#include "edit/edits.h"
#include "edit_expect.h"
#include "formats/formats.h"
#include "resolve/resolver.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>

using namespace rs;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<const std::vector<uint8_t>> shared(std::vector<uint8_t> b) {
    return std::make_shared<const std::vector<uint8_t>>(std::move(b));
}

EditOp op(EditOp::Kind kind, std::string target, std::string name, std::string value) {
    EditOp o;
    o.kind = kind;
    o.target = std::move(target);
    o.name = std::move(name);
    o.value = std::move(value);
    return o;
}

// Applies `o`; checks `changes` nodes changed, the bytes written are the original with those payloads spliced in
// (computed from the original tree alone), exactly `bytesChanged` bytes differ from the original, and undo gives
// the original back. Returns the edited bytes.
std::vector<uint8_t> edited(const std::vector<uint8_t>& bytes, const std::string& label, const EditOp& o,
                            size_t changes, size_t bytesChanged) {
    INFO(label << ": " << describeEdit(o));
    edit::EditSet set;
    edit::EditFile& f = set.add(label, shared(bytes));
    const edit::Step step = set.apply(label, o, true);
    REQUIRE(step.changes.size() == changes);
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> edits;
    for (const edit::Change& c : step.changes)
        edits.push_back({c.offset, *c.payloadAfter});
    const std::vector<uint8_t> got = set.find(label)->written();
    REQUIRE(got == test::expectedAfter(bytes, sourceTree(f.format, shared(bytes), label), edits));
    REQUIRE(got.size() == bytes.size());
    size_t differ = 0;
    for (size_t i = 0; i < got.size(); ++i)
        differ += got[i] != bytes[i];
    CHECK(differ == bytesChanged);
    set.undo(step);
    REQUIRE(set.find(label)->written() == bytes);
    set.redo(step);
    REQUIRE(set.find(label)->written() == got);
    return got;
}

Model modelOf(const std::vector<uint8_t>& bytes, const std::string& path) {
    const Document d = Resolver().read(ByteSpan(bytes), path);
    REQUIRE(d.model);
    return *d.model;
}

const Mesh& meshNamed(const Model& m, const std::string& name) {
    for (const Mesh& x : m.meshes)
        if (x.name == name) return x;
    FAIL("no mesh " << name);
    return m.meshes.front();
}

} // namespace

TEST_CASE("mesh flag edits: a W3D mesh's two-sided flag, one bit of its header", "[edit][w3d][two-sided]") {
    w3d::ChunkWriter cw;
    w3d::writeMesh(cw, test::testQuad("FRONT", "UNIT"));
    w3d::writeMesh(cw, test::testQuad("BACK", "UNIT"));
    const std::vector<uint8_t> w = cw.take();
    const Model before = modelOf(w, "two.w3d");
    REQUIRE(before.meshes.size() == 2);
    CHECK_FALSE(meshNamed(before, "FRONT").twoSided);
    CHECK_FALSE(meshNamed(before, "BACK").twoSided);

    const std::vector<uint8_t> on = edited(w, "two.w3d", op(EditOp::Kind::SetMeshTwoSided, "back", "", "1"), 1, 1);
    const Model after = modelOf(on, "two.w3d");
    CHECK(meshNamed(after, "BACK").twoSided);
    CHECK_FALSE(meshNamed(after, "FRONT").twoSided);
    // The stored attributes: only bit 0x2000 moved.
    const w3d::File a = w3d::readFile(ByteSpan(w), "two.w3d"), b = w3d::readFile(ByteSpan(on), "two.w3d");
    CHECK((a.meshes[1].attributes ^ b.meshes[1].attributes) == 0x2000u);
    CHECK(a.meshes[0].attributes == b.meshes[0].attributes);

    // And back off from the edited file; every mesh ("") at once.
    const std::vector<uint8_t> off = edited(on, "two.w3d", op(EditOp::Kind::SetMeshTwoSided, "BACK", "", "0"), 1, 1);
    CHECK(off == w);
    const std::vector<uint8_t> all = edited(w, "two.w3d", op(EditOp::Kind::SetMeshTwoSided, "", "", "yes"), 2, 2);
    for (const Mesh& m : modelOf(all, "two.w3d").meshes)
        CHECK(m.twoSided);

    // Refused, nothing changed: no such mesh, not a boolean. Already set: no change at all.
    edit::EditSet set;
    set.add("two.w3d", shared(w));
    CHECK_THROWS_WITH(set.apply("two.w3d", op(EditOp::Kind::SetMeshTwoSided, "NONE", "", "1")),
                      Catch::Contains("no mesh NONE"));
    CHECK_THROWS_WITH(set.apply("two.w3d", op(EditOp::Kind::SetMeshTwoSided, "BACK", "", "maybe")),
                      Catch::Contains("two-sided"));
    CHECK(set.apply("two.w3d", op(EditOp::Kind::SetMeshTwoSided, "BACK", "", "0")).changes.empty());
    CHECK_FALSE(set.find("two.w3d")->dirty());
    CHECK(describeEdit(op(EditOp::Kind::SetMeshTwoSided, "BACK", "", "1")) == "set mesh two-sided BACK = 1");
}

TEST_CASE("mesh flag edits: W3D ColorMask and post-detail shader fields, as stored", "[edit][w3d][materials]") {
    w3d::RawMesh m = test::testQuad("Q", "UNIT");
    m.shaders[0].colorMask = 0;
    m.shaders[0].postDetailColorFunc = 0;
    m.shaders.push_back(m.shaders[0]); // a second entry that must stay
    w3d::ChunkWriter cw;
    w3d::writeMesh(cw, m);
    const std::vector<uint8_t> w = cw.take();
    auto shaderOf = [](const std::vector<uint8_t>& b, size_t i) {
        return w3d::readFile(ByteSpan(b), "q.w3d").meshes.at(0).shaders.at(i);
    };
    std::vector<uint8_t> got = edited(w, "q.w3d", op(EditOp::Kind::SetParam, "Q#0", "ColorMask", "1"), 1, 1);
    CHECK(shaderOf(got, 0).colorMask == 1);
    CHECK(shaderOf(got, 1).colorMask == 0);
    got = edited(w, "q.w3d", op(EditOp::Kind::SetParam, "Q#1", "PostDetailColorFunc", "7"), 1, 1);
    CHECK(shaderOf(got, 1).postDetailColorFunc == 7);
    CHECK(shaderOf(got, 0).postDetailColorFunc == 0);
    got = edited(w, "q.w3d", op(EditOp::Kind::SetParam, "Q#0", "PostDetailAlphaFunc", "2"), 1, 1);
    CHECK(shaderOf(got, 0).postDetailAlphaFunc == 2);
}

TEST_CASE("mesh flag edits corpus: a real W3D mesh's two-sided flag", "[edit][w3d][two-sided][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    size_t files = 0;
    for (const char* rel : {"/w3d/electronicarts+CnC_Renegade/Code/Tools/LevelEdit/res/carmarker.w3d",
                            "/w3d/sage-team+W3D-Tools/test/gumaarms_skn.w3d"}) {
        const std::string path = test::corpusDir() + rel;
        if (!fs::exists(path)) continue;
        const std::vector<uint8_t> orig = readFile(path, kMaxInputBytes);
        const Model before = modelOf(orig, path);
        REQUIRE_FALSE(before.meshes.empty());
        const Mesh& first = before.meshes.front();
        const std::string value = first.twoSided ? "0" : "1";
        const Model after =
            modelOf(edited(orig, path, op(EditOp::Kind::SetMeshTwoSided, first.name, "", value), 1, 1), path);
        CHECK(meshNamed(after, first.name).twoSided == !first.twoSided);
        for (const Mesh& x : after.meshes)
            if (x.name != first.name) CHECK(x.twoSided == meshNamed(before, x.name).twoSided);
        std::cout << "mesh flag edits corpus: " << path << " mesh " << first.name << " two-sided -> " << value << "\n";
        ++files;
    }
    CHECK(files >= 1);
}
