// Regression inputs found by fuzz/fuzz_w3x (tools/fuzz.sh), minimised with libFuzzer -minimize_crash.
#include "common/error.h"
#include "formats/formats.h"
#include "scene/validate.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace rs;

namespace {

// What readDocument refuses `text` with (label regress.w3x); FAILs when it is read.
std::string refusal(const std::string& text) {
    const std::vector<uint8_t> b(text.begin(), text.end());
    ReadContext c;
    c.label = "regress.w3x";
    try {
        const Document d = readDocument(ByteSpan(b), c);
        FAIL("not refused" << (d.model ? "; checkModel: " + checkModel(*d.model) : std::string()));
    } catch (const ParseError& e) {
        CHECK(e.file() == "regress.w3x");
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("w3x regress: an element of another name in a per-vertex list is refused where it stands", "[w3x][regress]") {
    // fuzz_w3x, 2026-11-28: <TL> in <TexCoords> was counted as one of the three items the list must hold while the
    // reader read only the two <T>, so the mesh had 2 UVs for 3 vertices (checkModel: "attribute of 2 for 3 vertices").
    const std::string minimised =
        "<AssetDeclaration s=\"\"><W3DMesh id=\"n\"><Vertices><V X=\"0\" Y=\"0\" Z=\"0\"/><V X=\"1\" Y=\"0\" "
        "Z=\"0\"/><V X=\"0\" Y=\"1\" Z=\"0\"/></Vertices><TexCoords><TL X=\"\"/><T X=\"1\" Y=\"0\"/><T X=\"0\" "
        "Y=\"1\"/></TexCoords></W3DMesh>\n</AssetDeclaration>\n";
    std::string e = refusal(minimised);
    CHECK(e.find("<TL> in <TexCoords>: a per-vertex list holds <T> items only") != std::string::npos);
    CHECK(e.find("line 1, column 138") != std::string::npos);

    // The same in <Normals> (a normal per vertex read by position), and with the foreign element last.
    std::string normals = minimised;
    normals.replace(normals.find("<TexCoords>"), normals.find("</TexCoords>") + 12 - normals.find("<TexCoords>"),
                    "<Normals><N X=\"0\" Y=\"0\" Z=\"1\"/><N X=\"0\" Y=\"0\" Z=\"1\"/>\n<X/></Normals>");
    e = refusal(normals);
    CHECK(e.find("<X> in <Normals>: a per-vertex list holds <N> items only") != std::string::npos);
    CHECK(e.find("line 2, column 1") != std::string::npos);

    // With every element an item, the same mesh reads: three UVs for three vertices.
    std::string fixed = minimised;
    fixed.replace(fixed.find("<TL X=\"\"/>"), 10, "<T X=\"0\" Y=\"0\"/>");
    const std::vector<uint8_t> b(fixed.begin(), fixed.end());
    ReadContext c;
    c.label = "regress.w3x";
    const Document d = readDocument(ByteSpan(b), c);
    REQUIRE(d.model);
    CHECK(checkModel(*d.model).empty());
    REQUIRE(d.model->meshes.size() == 1);
    REQUIRE(d.model->meshes[0].subMeshes.size() == 1);
    CHECK(d.model->meshes[0].subMeshes[0].positions.size() == 3);
    CHECK(d.model->meshes[0].subMeshes[0].uv0.size() == 3);
}
