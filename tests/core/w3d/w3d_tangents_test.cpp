// The tangent frame derived from UVs (w3d_tangents.h) against the convention of the frames BFME files store.
#include "corpus.h"

#include "resolve/resolver.h"
#include "w3d/w3d_tangents.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>

using namespace rs;

TEST_CASE("W3D derived tangent frame: tangent = -dP/dv, binormal = +dP/du, unit and perpendicular to the normal",
          "[w3d]") {
    // A sheared quad in the XY plane: u along +X; v along +Y plus a tilt out of the plane along +Z.
    const std::vector<glm::vec3> p = {{0, 0, 0}, {2, 0, 0}, {2, 1, 0.5f}, {0, 1, 0.5f}};
    const std::vector<glm::vec3> n(4, glm::normalize(glm::vec3(0, -0.5f, 1)));
    const std::vector<glm::vec2> uv = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    std::vector<glm::vec3> t, b;
    w3d::deriveTangentFrame(p, n, uv, {0, 1, 2, 0, 2, 3}, t, b);
    REQUIRE(t.size() == 4);
    REQUIRE(b.size() == 4);
    const glm::vec3 wantT = -glm::normalize(glm::vec3(0, 1, 0.5f)), wantB(1, 0, 0);
    for (int v = 0; v < 4; ++v) {
        CHECK(glm::dot(t[v], wantT) == Approx(1.0f).margin(1e-5));
        CHECK(glm::dot(b[v], wantB) == Approx(1.0f).margin(1e-5));
        CHECK(glm::dot(t[v], n[v]) == Approx(0.0f).margin(1e-5));
        CHECK(glm::dot(b[v], n[v]) == Approx(0.0f).margin(1e-5));
    }
    // Mirrored UVs (u running the other way) flip the binormal with them.
    w3d::deriveTangentFrame(p, n, {{1, 0}, {0, 0}, {0, 1}, {1, 1}}, {0, 1, 2, 0, 2, 3}, t, b);
    CHECK(glm::dot(b[0], -wantB) == Approx(1.0f).margin(1e-5));
    CHECK(glm::dot(t[0], wantT) == Approx(1.0f).margin(1e-5));
}

TEST_CASE("W3D derived tangent frame: degenerate UVs, bad indices and short arrays are handled", "[w3d]") {
    const std::vector<glm::vec3> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const std::vector<glm::vec3> n(3, glm::vec3(0, 0, 1));
    std::vector<glm::vec3> t, b;
    // All UVs equal: no direction from them, still a unit frame perpendicular to the normal.
    w3d::deriveTangentFrame(p, n, std::vector<glm::vec2>(3, glm::vec2(0.5f)), {0, 1, 2, 0, 1, 7}, t, b);
    REQUIRE(t.size() == 3);
    for (int v = 0; v < 3; ++v) {
        CHECK(glm::length(t[v]) == Approx(1.0f));
        CHECK(glm::length(b[v]) == Approx(1.0f));
        CHECK(glm::dot(t[v], n[v]) == Approx(0.0f).margin(1e-6));
        CHECK(glm::dot(t[v], b[v]) == Approx(0.0f).margin(1e-6));
    }
    w3d::deriveTangentFrame(p, n, {{0, 0}}, {0, 1, 2}, t, b);
    CHECK(t.empty());
    CHECK(b.empty());
}

// The frames the corpus files store (BFME's tools) agree with the derivation: the convention is the game's.
TEST_CASE("W3D derived tangent frame matches the frames stored in corpus files", "[w3d][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    std::vector<std::string> files = test::corpusFiles("w3d", {".w3d"});
    if (std::filesystem::is_directory(test::corpusDir() + "/games"))
        for (const std::string& f : test::corpusFiles("games", {".w3d"}))
            files.push_back(f);
    double sumT = 0, sumB = 0;
    size_t vertices = 0, meshes = 0, agreeT = 0, agreeB = 0;
    for (const std::string& f : files) {
        Document d;
        try {
            d = Resolver().read(f);
        } catch (const ParseError&) {
            continue; // the corpus test checks refusals
        }
        if (!d.model) continue;
        for (const Mesh& m : d.model->meshes)
            for (const SubMesh& sm : m.subMeshes) {
                const size_t n = sm.positions.size();
                if (sm.tangents.size() != n || sm.binormals.size() != n || sm.normals.size() != n ||
                    sm.uv0.size() != n || n == 0)
                    continue;
                std::vector<glm::vec3> t, b;
                w3d::deriveTangentFrame(sm.positions, sm.normals, sm.uv0, sm.indices, t, b);
                REQUIRE(t.size() == n);
                ++meshes;
                for (size_t v = 0; v < n; ++v) {
                    const float lt = glm::length(sm.tangents[v]), lb = glm::length(sm.binormals[v]);
                    if (lt < 1e-3f || lb < 1e-3f) continue;
                    const float dt = glm::dot(t[v], sm.tangents[v] / lt), db = glm::dot(b[v], sm.binormals[v] / lb);
                    sumT += dt;
                    sumB += db;
                    agreeT += dt > 0.9f;
                    agreeB += db > 0.9f;
                    ++vertices;
                }
            }
    }
    std::cout << "  derived vs stored tangent frames: " << meshes << " sub-meshes, " << vertices
              << " vertices; mean dot tangent " << sumT / double(vertices) << " binormal " << sumB / double(vertices)
              << "; within 26 degrees: " << 100.0 * double(agreeT) / double(vertices) << "% / "
              << 100.0 * double(agreeB) / double(vertices) << "%\n";
    REQUIRE(meshes >= 100);
    CHECK(sumT / double(vertices) > 0.9);
    CHECK(sumB / double(vertices) > 0.9);
}
