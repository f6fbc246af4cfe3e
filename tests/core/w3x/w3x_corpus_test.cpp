// W3X corpus (../shared/corpus/w3x): the Kane's Wrath SDK's Lorien warrior (skeleton, skin with collision box and
// container, four animations, texture declaration) and a mod's shield set opened through the resolver; poses
// compared with an evaluation of the W3X channels written here (pugixml, glm), not the reader's code.
#include "corpus.h"

#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "w3x/w3x_reader.h"

#include <catch2/catch.hpp>

#include <glm/gtc/matrix_transform.hpp>
#include <pugixml.hpp>

#include <cmath>
#include <filesystem>
#include <map>

using namespace rs;
namespace fs = std::filesystem;

namespace {

const char* const kEu = "w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU";

std::string eu(const char* file) { return test::corpusDir() + "/" + kEu + "/" + file; }

// The warrior's hierarchy and one clip, read from the XML independently: base T/R per pivot, and per pivot the
// keys of each channel (X/Y/Z translation, orientation) with their first frame.
struct Reference {
    std::vector<int> parent;
    std::vector<glm::vec3> baseT;
    std::vector<glm::quat> baseR;
    struct Channel {
        int pivot = 0, kind = 0; // 0..2 translation axis, 3 orientation
        int first = 0;
        std::vector<glm::vec4> keys;
    };
    std::vector<Channel> channels;
    int frames = 0;
};

float f(const pugi::xml_node& n, const char* a) { return n.attribute(a).as_float(); }

Reference reference(const std::string& skl, const std::string& anim) {
    Reference r;
    pugi::xml_document h, a;
    REQUIRE(h.load_file(skl.c_str()));
    REQUIRE(a.load_file(anim.c_str()));
    for (pugi::xml_node p : h.child("AssetDeclaration").child("W3DHierarchy").children("Pivot")) {
        r.parent.push_back(p.attribute("Parent").as_int());
        const pugi::xml_node t = p.child("Translation"), q = p.child("Rotation");
        r.baseT.push_back({f(t, "X"), f(t, "Y"), f(t, "Z")});
        r.baseR.push_back(glm::quat(f(q, "W"), f(q, "X"), f(q, "Y"), f(q, "Z")));
    }
    const pugi::xml_node an = a.child("AssetDeclaration").child("W3DAnimation");
    r.frames = an.attribute("NumFrames").as_int();
    for (pugi::xml_node c : an.child("Channels").children()) {
        Reference::Channel ch;
        ch.pivot = c.attribute("Pivot").as_int();
        ch.first = c.attribute("FirstFrame").as_int();
        const std::string type = c.attribute("Type").as_string();
        ch.kind = type == "XTranslation" ? 0 : type == "YTranslation" ? 1 : type == "ZTranslation" ? 2 : 3;
        REQUIRE((type != "Visibility"));
        for (pugi::xml_node k : c.children("Frame"))
            ch.keys.push_back(ch.kind == 3 ? glm::vec4(f(k, "X"), f(k, "Y"), f(k, "Z"), f(k, "W"))
                                           : glm::vec4(k.text().as_float(), 0, 0, 0));
        r.channels.push_back(std::move(ch));
    }
    return r;
}

// World matrices at `frame`: World = World[parent] * T(base) R(base) * T(anim) R(anim), pivot 0 the identity
// (EA htree: the object transform), its channels not used; keys interpolated linearly / by slerp between
// floor(frame) and the next frame.
std::vector<glm::mat4> referencePose(const Reference& r, float frame) {
    const size_t n = r.parent.size();
    std::vector<glm::vec3> t(n, glm::vec3(0.0f));
    std::vector<glm::quat> q(n, glm::quat(1, 0, 0, 0));
    const int f0 = int(std::floor(frame));
    const int f1 = std::min(f0 + 1, r.frames - 1);
    const float alpha = frame - float(f0);
    auto key = [](const Reference::Channel& c, int fr, glm::vec4 identity) {
        const int k = fr - c.first;
        return k >= 0 && k < int(c.keys.size()) ? c.keys[size_t(k)] : identity;
    };
    for (const Reference::Channel& c : r.channels) {
        if (c.pivot == 0) continue;
        if (c.kind < 3) {
            const float a = key(c, f0, glm::vec4(0)).x, b = key(c, f1, glm::vec4(0)).x;
            t[size_t(c.pivot)][c.kind] = a + (b - a) * alpha;
        } else {
            const glm::vec4 a = key(c, f0, glm::vec4(0, 0, 0, 1)), b = key(c, f1, glm::vec4(0, 0, 0, 1));
            q[size_t(c.pivot)] = glm::slerp(glm::quat(a.w, a.x, a.y, a.z), glm::quat(b.w, b.x, b.y, b.z), alpha);
        }
    }
    std::vector<glm::mat4> w(n);
    for (size_t i = 0; i < n; ++i) {
        const glm::mat4 base =
            i == 0 ? glm::mat4(1.0f) : glm::translate(glm::mat4(1.0f), r.baseT[i]) * glm::mat4_cast(r.baseR[i]);
        const glm::mat4 local = base * glm::translate(glm::mat4(1.0f), t[i]) * glm::mat4_cast(q[i]);
        w[i] = r.parent[i] < 0 ? local : w[size_t(r.parent[i])] * local;
    }
    return w;
}

} // namespace

TEST_CASE("W3X corpus: the Lorien warrior's hierarchy, skin, box, container, texture and clips", "[w3x][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS(kEu);
    const Resolver res;
    const Asset a = res.open(eu("EULorWar_SKN.W3X"));
    const Document& d = a.document;
    CHECK(d.format == Format::W3x);
    REQUIRE(d.model);
    const Model& m = *d.model;
    CHECK(m.skeleton.name == "EULORWAR_SKL"); // through <Include source="ART:eulorwar_skl.w3x"/>
    pugi::xml_document skl;
    REQUIRE(skl.load_file(eu("EULorWar_SKL.W3X").c_str()));
    const size_t pivots =
        size_t(std::distance(skl.child("AssetDeclaration").child("W3DHierarchy").children("Pivot").begin(),
                             skl.child("AssetDeclaration").child("W3DHierarchy").children("Pivot").end()));
    CHECK(pivots > 20);
    CHECK(m.skeleton.bones.size() == pivots);
    REQUIRE(m.meshes.size() == 1);
    const Mesh& mesh = m.meshes[0];
    CHECK(mesh.name == "EULORWAR");
    pugi::xml_document skn;
    REQUIRE(skn.load_file(eu("EULorWar_SKN.W3X").c_str()));
    const pugi::xml_node xm = skn.child("AssetDeclaration").child("W3DMesh");
    const size_t nv =
        size_t(std::distance(xm.child("Vertices").children("V").begin(), xm.child("Vertices").children("V").end()));
    const size_t nt =
        size_t(std::distance(xm.child("Triangles").children("T").begin(), xm.child("Triangles").children("T").end()));
    CHECK(nv > 500);
    CHECK(mesh.fileVertexCount == nv);
    CHECK(mesh.fileTriangleCount == nt);
    REQUIRE(mesh.subMeshes.size() == 1);
    const SubMesh& sm = mesh.subMeshes[0];
    CHECK(sm.vertexCount() == nv);
    CHECK(sm.material.shader == "w3d:fx:Infantry.fx");
    REQUIRE(sm.skinned());
    CHECK(sm.positions2.size() == nv); // the second <Vertices>: dual-bone skin
    for (size_t i = 0; i < nv; ++i) {
        INFO("vertex " << i);
        REQUIRE(sm.boneMap[sm.boneIndices[i].x] < int(pivots));
        REQUIRE(sm.boneMap[sm.boneIndices[i].y] < int(pivots));
        REQUIRE(sm.boneWeights[i].x + sm.boneWeights[i].y == Approx(1.0f).margin(1e-5));
    }
    // The first vertex's influences as written: bone 1 at 0.55 (the rest on its second bone).
    const pugi::xml_node i0 = xm.child("BoneInfluences").child("I");
    CHECK(sm.boneMap[sm.boneIndices[0].x] == i0.attribute("Bone").as_int());
    CHECK(sm.boneWeights[0].x == Approx(i0.attribute("Weight").as_float()).margin(1e-6));
    REQUIRE(m.markers.size() == 1);
    CHECK(m.markers[0].name == "BOX01");
    CHECK(m.markers[0].extent == glm::vec3(12.5f));
    // Texture_0 = EUlorienwarrior, declared in EUlorienwarrior.xml (an Include) as EUlorienwarrior.tga, beside it.
    bool texture = false;
    for (const TextureRef& t : a.textures)
        if (t.name == "EUlorienwarrior.tga") texture = !t.path.empty();
    CHECK(texture);
    // Companion clips: the four animations naming EULORWAR_SKL.
    REQUIRE(a.clips.size() == 4);
    for (const ClipFile& c : a.clips) {
        INFO(c.path << " " << c.error);
        REQUIRE(c.clip);
        CHECK(c.clip->format == Format::W3x);
        CHECK(c.clip->hierarchyName == "EULORWAR_SKL");
        CHECK(bindClip(m.skeleton, *c.clip).ok());
    }
}

TEST_CASE("W3X corpus: warrior poses equal an independent evaluation of the channels", "[w3x][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS(kEu);
    const Resolver res;
    const Document skl = res.read(eu("EULorWar_SKL.W3X"));
    REQUIRE(skl.model);
    const Skeleton& sk = skl.model->skeleton;
    size_t compared = 0;
    for (const char* anim : {"EULorWar_ATKA.W3X", "EULorWar_DIEA.W3X", "EULorWar_IDLA.W3X", "EULorWar_WLKA.W3X"}) {
        INFO(anim);
        const Document d = res.read(eu(anim));
        REQUIRE(d.clips.size() == 1);
        const Clip& c = *d.clips[0];
        const Reference ref = reference(eu("EULorWar_SKL.W3X"), eu(anim));
        REQUIRE(int(c.frameCount) == ref.frames);
        REQUIRE(ref.parent.size() == sk.bones.size());
        const ClipBinding b = bindClip(sk, c);
        REQUIRE(b.ok());
        PoseBuffers pose(sk.bones.size());
        const float last = float(c.frameCount - 1);
        for (float fr : {0.0f, 1.0f, 7.25f, last / 2.0f + 0.5f, last - 1.5f, last}) {
            evaluatePose(sk, &c, &b, fr, LoopMode::Once, pose.view());
            const std::vector<glm::mat4> want = referencePose(ref, fr);
            for (size_t i = 0; i < sk.bones.size(); ++i)
                for (int col = 0; col < 4; ++col)
                    for (int row = 0; row < 4; ++row) {
                        const float e = want[i][col][row], g = pose.world[i][col][row];
                        INFO("frame " << fr << " pivot " << i << " [" << col << "][" << row << "]");
                        REQUIRE(std::abs(g - e) <= 1e-5f * std::max(1.0f, std::abs(e)));
                    }
            ++compared;
        }
    }
    CHECK(compared == 24);
}

TEST_CASE("W3X corpus: a mod's shield set without Includes: hierarchy, meshes and clip found beside", "[w3x][corpus]") {
    const std::string dir = "w3x/MetaIdea+cnc3-metamod/MetaMod-KW/Art/shield";
    RIGSCOPE_REQUIRE_CORPUS(dir);
    const std::string base = test::corpusDir() + "/" + dir + "/";
    const Asset a = Resolver().open(base + "FXSHLDABILITY_CTRMod.w3x");
    REQUIRE(a.document.model);
    const Model& m = *a.document.model;
    CHECK(m.skeleton.name == "FXSHLDABILITYMod"); // declared in FXSHLDABILITY_HRCMod.w3x
    CHECK(m.skeleton.bones.size() == 3);
    REQUIRE(m.meshes.size() == 2); // FXSHLDABILITY.DISTORTIONMod.w3x, FXSHLDABILITY.DIFFUSEMod.w3x
    CHECK(m.meshes[0].name == "DISTORTIONMod");
    CHECK(m.meshes[0].bone == 2);
    CHECK(m.meshes[1].bone == 1);
    CHECK(m.meshes[1].subMeshes.at(0).material.shader == "w3d:fx:AlienShield.fx");
    REQUIRE(a.clips.size() == 1);
    REQUIRE(a.clips[0].clip);
    CHECK(a.clips[0].clip->tracks.size() == 2);
    CHECK(!a.clips[0].clip->tracks[0].visibility.empty());
}
