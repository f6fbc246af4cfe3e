// Real files: every BFME shader material (.fx) of the W3D corpus (../shared/corpus/w3d and the SAGE mod under
// games/) is drawn by its formula: NormalMapped.fx, the one name they use, reports "engine formula", or, for a
// sub-mesh whose file stores no tangent frame, "approximation" saying the frame was derived.
#include "corpus.h"

#include "formats/shader_registry.h"
#include "resolve/resolver.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>
#include <map>

using namespace rs;

TEST_CASE("every BFME shader material of the corpus is drawn by its .fx formula", "[w3d][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    std::vector<std::string> files = test::corpusFiles("w3d", {".w3d"});
    if (std::filesystem::is_directory(test::corpusDir() + "/games"))
        for (const std::string& f : test::corpusFiles("games", {".w3d"}))
            files.push_back(f);
    std::map<std::string, int> count;
    int engine = 0, derived = 0;
    for (const std::string& f : files) {
        Document d;
        try {
            d = Resolver().read(f);
        } catch (const ParseError&) {
            continue; // refusals are the W3D corpus test's
        }
        if (!d.model) continue;
        for (const Mesh& mesh : d.model->meshes)
            for (const SubMesh& sm : mesh.subMeshes) {
                if (!istartsWith(sm.material.shader, "w3d:fx:") || mesh.shadowOrCollision) continue;
                ++count[sm.material.shader];
                const ShaderInfo info = shaderInfo(Format::W3d, mesh, sm.material);
                INFO(f << " mesh " << mesh.name << " " << sm.material.shader << ": " << info.implementation << ", "
                       << fidelityText(info));
                CHECK(info.impl == ShaderImpl::W3dNormalMapped);
                const bool frame =
                    sm.tangents.size() == sm.positions.size() && sm.binormals.size() == sm.positions.size();
                if (frame) {
                    CHECK(info.fidelity == ShaderFidelity::EngineFormula);
                    ++engine;
                } else {
                    CHECK(info.fidelity == ShaderFidelity::Approximation);
                    CHECK(info.note.find("derived from the UVs") != std::string::npos);
                    ++derived;
                }
            }
    }
    for (const auto& [name, n] : count)
        std::cout << "  " << n << "  " << name << "\n";
    std::cout << "  engine formula " << engine << ", tangent frame derived " << derived << "\n";
    REQUIRE(engine + derived >= 200);
}
