// W3X Includes through the resolver (core/resolve w3xLookup + w3x::loadSet): a source without "ART:" is relative to
// the folder of the file holding the Include (subfolders, "..", any case), include cycles are refused by name, a
// missing include is named with the file including it, and a file included by several (a shared hierarchy) is
// parsed once while its stamp holds. Files are written here to a temporary folder; the corpus Lorien warrior set
// checks the cache on real files.
#include "corpus.h"

#include "format_catch.h"
#include "resolve/resolver.h"
#include "w3x/w3x_reader.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace rs;
namespace fs = std::filesystem;

namespace {

const std::string kHead = "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<AssetDeclaration xmlns=\"uri:ea.com:eala:asset\">\n";
const std::string kTail = "</AssetDeclaration>\n";

std::string includes(const std::vector<std::string>& sources) {
    std::string s = "\t<Includes>\n";
    for (const std::string& src : sources)
        s += "\t\t<Include type=\"all\" source=\"" + src + "\"/>\n";
    return s + "\t</Includes>\n";
}

// A hierarchy `id` of `bones` pivots (ROOTTRANSFORM, then B1..B(n-1) in a chain).
std::string hierarchy(const std::string& id, int bones) {
    std::string s = "\t<W3DHierarchy id=\"" + id + "\">\n";
    for (int i = 0; i < bones; ++i)
        s += "\t\t<Pivot Name=\"" + (i ? "B" + std::to_string(i) : std::string("ROOTTRANSFORM")) + "\" Parent=\"" +
             std::to_string(i - 1) + "\"><Translation X=\"0\" Y=\"0\" Z=\"" + std::to_string(i) +
             "\"/><Rotation X=\"0\" Y=\"0\" Z=\"0\" W=\"1\"/></Pivot>\n";
    return s + "\t</W3DHierarchy>\n";
}

// A rigid one-triangle mesh CONTAINER.BODY on bone 1 with texture id TEX, and its container naming `hier`.
std::string model(const std::string& container, const std::string& hier) {
    return "\t<W3DMesh id=\"" + container +
           ".BODY\" GeometryType=\"Normal\">\n"
           "\t\t<Vertices><V X=\"0\" Y=\"0\" Z=\"0\"/><V X=\"1\" Y=\"0\" Z=\"0\"/><V X=\"0\" Y=\"1\" "
           "Z=\"0\"/></Vertices>\n"
           "\t\t<Normals><N X=\"0\" Y=\"0\" Z=\"1\"/><N X=\"0\" Y=\"0\" Z=\"1\"/><N X=\"0\" Y=\"0\" "
           "Z=\"1\"/></Normals>\n"
           "\t\t<TexCoords><T X=\"0\" Y=\"0\"/><T X=\"1\" Y=\"0\"/><T X=\"0\" Y=\"1\"/></TexCoords>\n"
           "\t\t<Triangles><T><V>0</V><V>1</V><V>2</V><Nrm X=\"0\" Y=\"0\" Z=\"1\"/><Dist>0</Dist></T></Triangles>\n"
           "\t\t<FXShader ShaderName=\"DefaultW3D.fx\" TechniqueIndex=\"0\"><Constants>"
           "<Texture Name=\"Texture_0\"><Value>TEX</Value></Texture></Constants></FXShader>\n"
           "\t</W3DMesh>\n"
           "\t<W3DContainer id=\"" +
           container + "\" Hierarchy=\"" + hier +
           "\"><SubObject SubObjectID=\"BODY\" BoneIndex=\"1\"><RenderObject><Mesh>" + container +
           ".BODY</Mesh></RenderObject></SubObject></W3DContainer>\n";
}

std::string textureDecl(const std::string& file) { return "\t<Texture id=\"TEX\" File=\"" + file + "\"/>\n"; }

// A clip of `frames` frames on pivot 1 of `hier`.
std::string clip(const std::string& id, const std::string& hier, int frames) {
    std::string s = "\t<W3DAnimation id=\"" + id + "\" Hierarchy=\"" + hier + "\" NumFrames=\"" +
                    std::to_string(frames) + "\" FrameRate=\"30\"><Channels><ChannelScalar Pivot=\"1\" " +
                    "Type=\"XTranslation\" FirstFrame=\"0\">";
    for (int f = 0; f < frames; ++f)
        s += "<Frame>" + std::to_string(f) + "</Frame>";
    return s + "</ChannelScalar></Channels></W3DAnimation>\n";
}

struct TempTree {
    fs::path root;
    TempTree() {
        static std::atomic<int> n{0};
        root =
            fs::temp_directory_path() / ("rigscope_w3xinc_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        fs::remove_all(root);
    }
    ~TempTree() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    std::string write(const std::string& rel, const std::string& text) const {
        const fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

// The loader's warnings (on the model) and the document's.
std::vector<std::string> warningsOf(const Document& d) {
    std::vector<std::string> w = d.warnings;
    if (d.model) w.insert(w.end(), d.model->warnings.begin(), d.model->warnings.end());
    return w;
}

bool hasWarning(const Document& d, const std::string& part) {
    const std::vector<std::string> w = warningsOf(d);
    return std::any_of(w.begin(), w.end(), [&](const std::string& x) { return x.find(part) != std::string::npos; });
}

std::string allWarnings(const Document& d) {
    std::string s;
    for (const std::string& w : warningsOf(d))
        s += w + "\n";
    return s;
}

std::string textureOf(const Model& m) {
    for (const Mesh& mesh : m.meshes)
        for (const SubMesh& s : mesh.subMeshes)
            for (const MaterialParam& p : s.material.params)
                if (p.type == ParamType::Texture && !p.texture.empty()) return p.texture;
    return {};
}

} // namespace

TEST_CASE("w3x includes: relative sources resolve from the including file's folder", "[w3x][includes]") {
    TempTree t;
    // The unit includes its skeleton from a subfolder (written in another case than on disk); the skeleton file
    // includes its texture declaration relative to itself (Parts/Decl/), not to the unit: a decoy beside the unit
    // at Decl/ declares the same texture id otherwise. "../" climbs from Parts/ to a shared folder.
    const std::string unit =
        t.write("Units/Tank/TANK_CTR.w3x",
                kHead + includes({"PARTS/tank_skl.W3X", "..\\Shared\\extra.w3x"}) + model("TANK", "TANK_SKL") + kTail);
    t.write("Units/Tank/parts/Tank_SKL.w3x",
            kHead + includes({"Decl/tex.w3x", "../../Shared/deep.w3x"}) + hierarchy("TANK_SKL", 4) + kTail);
    t.write("Units/Tank/parts/Decl/tex.w3x", kHead + textureDecl("right.tga") + kTail);
    t.write("Units/Tank/Decl/tex.w3x", kHead + textureDecl("wrong.tga") + kTail);
    t.write("Units/Shared/extra.w3x", kHead + "\t<Texture id=\"OTHER\" File=\"other.tga\"/>\n" + kTail);
    t.write("Units/Shared/deep.w3x", kHead + "\t<Texture id=\"DEEP\" File=\"deep.tga\"/>\n" + kTail);

    const Resolver res;
    const Document d = res.read(unit);
    INFO(allWarnings(d));
    REQUIRE(d.model);
    CHECK(d.model->skeleton.name == "TANK_SKL");
    CHECK(d.model->skeleton.bones.size() == 4);
    CHECK(textureOf(*d.model) == "right.tga");
    CHECK_FALSE(hasWarning(d, "not found"));
    CHECK_FALSE(hasWarning(d, "cycle"));
    // Both "../" includes were read: three includes beyond the skeleton, none reported.
    CHECK(res.w3xFilesParsed() == 4); // parts/Tank_SKL, Shared/extra, parts/Decl/tex, Shared/deep

    // A ".." climbing above the filesystem root is not guessed: named as not found.
    const std::string up = t.write("Up/UP_CTR.w3x", kHead + includes({"../../../../../../../../../../../../x.w3x"}) +
                                                        model("UP", "UP_SKL") + kTail);
    const Document u = res.read(up);
    CHECK(hasWarning(u, "include ../../../../../../../../../../../../x.w3x not found"));
}

TEST_CASE("w3x includes: cycles refused by name, a missing include named with its includer", "[w3x][includes]") {
    TempTree t;
    const std::string a = t.write("Art/A_CTR.w3x", kHead + includes({"sub/B.w3x"}) + model("A", "A_SKL") + kTail);
    const std::string b = t.write("Art/sub/B.w3x", kHead + includes({"C.w3x", "missing/None.w3x"}) + kTail);
    const std::string c =
        t.write("Art/sub/C.w3x", kHead + includes({"../A_CTR.w3x", "C.w3x"}) + hierarchy("A_SKL", 2) + kTail);
    const Resolver res;
    const Document d = res.read(a);
    INFO(allWarnings(d));
    REQUIRE(d.model);
    CHECK(d.model->skeleton.name == "A_SKL"); // read once despite the cycles
    CHECK(hasWarning(d, "include cycle refused: " + a + " -> " + b + " -> " + c + " -> " + a));
    CHECK(hasWarning(d, "include cycle refused: " + c + " -> " + c)); // C includes itself
    CHECK(hasWarning(d, "include missing/None.w3x (included by " + b + ") not found"));
    // A file the main one includes directly that is missing: named without an includer.
    const std::string lone = t.write("Art/LONE_CTR.w3x", kHead + includes({"ART:nowhere_skl.w3x"}) + kTail);
    const Document l = res.read(lone);
    CHECK(hasWarning(l, "include ART:nowhere_skl.w3x not found"));
    // A diamond (two files including the same one) is no cycle.
    const std::string top = t.write("D/TOP.w3x", kHead + includes({"L.w3x", "R.w3x"}) + model("TOP", "S") + kTail);
    t.write("D/L.w3x", kHead + includes({"S.w3x"}) + kTail);
    t.write("D/R.w3x", kHead + includes({"S.w3x"}) + kTail);
    t.write("D/S.w3x", kHead + hierarchy("S", 2) + kTail);
    const Document dd = res.read(top);
    INFO(allWarnings(dd));
    CHECK_FALSE(hasWarning(dd, "cycle"));
    CHECK_FALSE(hasWarning(dd, "not found"));
}

TEST_CASE("w3x includes: a hierarchy shared by a skin and its clips is parsed once while unchanged",
          "[w3x][includes]") {
    TempTree t;
    const std::string skn =
        t.write("Art/TK/TK_SKN.w3x", kHead + includes({"ART:TK_SKL.w3x"}) + model("TK_SKN", "TK_SKL") + kTail);
    const std::string skl = t.write("Art/TK/TK_SKL.w3x", kHead + hierarchy("TK_SKL", 3) + kTail);
    for (const char* name : {"TK_WLKA", "TK_IDLA", "TK_ATKA"})
        t.write(std::string("Art/TK/") + name + ".w3x",
                kHead + includes({"ART:TK_SKL.w3x"}) + clip(name, "TK_SKL", 5) + kTail);
    const Resolver res;
    const Asset a = res.open(skn);
    REQUIRE(a.document.model);
    CHECK(a.document.model->skeleton.bones.size() == 3);
    REQUIRE(a.clips.size() == 3);
    for (const ClipFile& c : a.clips) {
        INFO(c.path << " " << c.error);
        REQUIRE(c.clip);
        CHECK(c.clip->hierarchyName == "TK_SKL");
    }
    // Four files include TK_SKL.w3x: parsed once.
    CHECK(res.w3xFilesParsed() == 1);
    (void)res.open(skn);
    CHECK(res.w3xFilesParsed() == 1);
    // Rewritten (another size, so another stamp even within the mtime's resolution): parsed again, the new pivots
    // seen.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    t.write("Art/TK/TK_SKL.w3x", kHead + hierarchy("TK_SKL", 5) + kTail);
    const Asset b = res.open(skn);
    REQUIRE(b.document.model);
    CHECK(b.document.model->skeleton.bones.size() == 5);
    CHECK(res.w3xFilesParsed() == 2);
    (void)skl;
}

TEST_CASE("w3x includes: the corpus warrior's skeleton is parsed once for the skin and its four clips",
          "[w3x][includes][corpus]") {
    const char* const kEu = "w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU";
    RIGSCOPE_REQUIRE_CORPUS(kEu);
    const std::string dir = test::corpusDir() + "/" + kEu + "/";
    const Resolver res;
    const Asset a = res.open(dir + "EULorWar_SKN.W3X");
    REQUIRE(a.document.model);
    CHECK(a.document.model->skeleton.name == "EULORWAR_SKL");
    REQUIRE(a.clips.size() == 4);
    for (const ClipFile& c : a.clips)
        CHECK(c.clip);
    // Parsed: the skeleton once, the texture declarations EUlorienwarrior.xml (HC_EUlorienwarrior.xml is absent).
    CHECK(res.w3xFilesParsed() == 2);
    CHECK(hasWarning(a.document, "include ART:HC_EUlorienwarrior.xml not found"));
}
