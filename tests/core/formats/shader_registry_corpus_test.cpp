// Real files: every Alamo shader name a corpus model uses (../shared/corpus/alamo and the mods under games/) is drawn
// by its .fx formula ("engine formula"), or, for the meshes the game does not draw (shadow volumes, collision,
// light-visualize), reported "not drawn". The one exception is alDefault.fx: the name the exporter writes when no
// shader was assigned. No alDefault.fx ships with the games (the public shader set has none), so no formula exists
// to implement; it stays an approximation that says so.
#include "corpus.h"

#include "alamo/alamo_reader.h"
#include "common/bytes.h"
#include "formats/shader_registry.h"
#include "scene/model.h"

#include <catch2/catch.hpp>

#include <iostream>
#include <map>

using namespace rs;

namespace {

bool isParticle(const std::vector<uint8_t>& b) {
    if (b.size() < 4) return false;
    const uint32_t id = b[0] | b[1] << 8 | b[2] << 16 | uint32_t(b[3]) << 24;
    return id == 0x900 || id == 0x1500;
}

bool isHiddenShader(const std::string& lowerName) {
    for (const char* h : {"shadowvolume", "collision", "lightvisualize"})
        if (lowerName.find(h) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("corpus: every Alamo shader name is drawn by its engine formula (or not drawn, as in the game)",
          "[alamo][corpus][shaders]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    std::vector<std::string> files = test::corpusFiles("alamo", {".alo"});
    if (std::filesystem::is_directory(test::corpusDir() + "/games"))
        for (const std::string& f : test::corpusFiles("games", {".alo"}))
            files.push_back(f);
    std::map<std::string, int> count;
    int models = 0;
    for (const std::string& f : files) {
        const std::vector<uint8_t> bytes = readFileBytes(f);
        if (isParticle(bytes)) continue;
        const Model m = alamo::readModel(ByteSpan(bytes.data(), bytes.size()), f);
        ++models;
        for (const Mesh& mesh : m.meshes)
            for (const SubMesh& sm : mesh.subMeshes) {
                const std::string name = sm.material.shader;
                ++count[name];
                const std::string lower = toLower(name);
                const ShaderInfo info = shaderInfo(Format::AlamoModel, mesh, sm.material);
                INFO(f << " mesh " << mesh.name << " shader " << name << ": " << info.implementation << ", "
                       << fidelityText(info));
                if (lower.rfind("aldefault", 0) == 0) {
                    CHECK(info.fidelity == ShaderFidelity::Approximation);
                    CHECK(info.note.find("not public") != std::string::npos);
                } else if (isHiddenShader(lower) || mesh.shadowOrCollision) {
                    CHECK(info.fidelity == ShaderFidelity::NotDrawn);
                } else {
                    CHECK(info.fidelity == ShaderFidelity::EngineFormula);
                    CHECK(info.impl != ShaderImpl::Generic);
                }
            }
    }
    REQUIRE(models > 10);
    // The names found, with their counts (sub-meshes), for the record.
    for (const auto& [name, n] : count)
        std::cout << "  " << n << "  " << name << "  " << fidelityName(alamoShaderInfo(name).fidelity) << "\n";
    CHECK(count.size() >= 10);
}
