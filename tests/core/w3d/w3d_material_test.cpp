// W3D material state through the format-neutral model: mapper argument parsing (mapper.cpp's keys and defaults),
// passes with their shader bits, vertex materials, stage textures, mappers, UV sources and DCG/DIG arrays, the
// vertex colour rules of meshmatdesc.cpp and what the shader registry reports.
#include "w3d_fixtures.h"

#include "formats/material_policy.h"
#include "formats/shader_registry.h"
#include "w3d/w3d_chunks.h"
#include "w3d/w3d_mapper.h"
#include "w3d/w3d_reader.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace rs;
using namespace rs::w3d;

TEST_CASE("W3D mapper arguments: key=value lines, case-insensitive keys, comments, mapper.cpp defaults", "[w3d]") {
    const auto e = parseMapperEntries("UPerSec=0.5\r\n  VPerSec = -1.25 ; slow\n\nnot a pair\n=3\nFPS=8");
    REQUIRE(e.size() == 3);
    REQUIRE(e[0].first == "UPerSec");
    REQUIRE(e[1].second == "-1.25");
    const W3dMapper lin = parseMapper(int(W3dMapperType::LinearOffset),
                                      "uperSEC=0.5\r\nVPerSec=-1.25;\nUScale=2\nClampFix=TRUE\nUOffset=0.25\n");
    REQUIRE(lin.perSec.x == Approx(0.5f));
    REQUIRE(lin.perSec.y == Approx(-1.25f));
    REQUIRE(lin.scale.x == Approx(2.0f));
    REQUIRE(lin.scale.y == Approx(1.0f)); // default
    REQUIRE(lin.offset.x == Approx(0.25f));
    REQUIRE(lin.clampFix);
    const W3dMapper grid = parseMapper(int(W3dMapperType::Grid), "FPS=12\nLog2Width=2\nLast=10\nOffset=3");
    REQUIRE(grid.fps == Approx(12.0f));
    REQUIRE(grid.log2Width == 2);
    REQUIRE(grid.last == 10);
    REQUIRE(grid.frameOffset == 3);
    const W3dMapper gridDefault = parseMapper(int(W3dMapperType::Grid), "");
    REQUIRE(gridDefault.fps == Approx(1.0f));
    REQUIRE(gridDefault.log2Width == 1);
    REQUIRE(parseMapper(int(W3dMapperType::Random), "").fps == 0.0f); // RandomTextureMapperClass default
    const W3dMapper rot = parseMapper(int(W3dMapperType::Rotate), "Speed=0.25\nUCenter=0.5\nVCenter=0.5");
    REQUIRE(rot.speed == Approx(0.25f));
    REQUIRE(rot.center == glm::vec2(0.5f));
    REQUIRE(parseMapper(int(W3dMapperType::Rotate), "").speed == Approx(0.1f));
    const W3dMapper sine = parseMapper(int(W3dMapperType::SineLinearOffset), "UAmp=0.2\nVFreq=3\nVPhase=0.5");
    REQUIRE(sine.uafp == glm::vec3(0.2f, 1.0f, 0.0f));
    REQUIRE(sine.vafp == glm::vec3(1.0f, 3.0f, 0.5f));
    const W3dMapper step = parseMapper(int(W3dMapperType::StepLinearOffset), "UStep=0.25\nSPS=4");
    REQUIRE(step.step.x == Approx(0.25f));
    REQUIRE(step.sps == Approx(4.0f));
    REQUIRE(parseMapper(int(W3dMapperType::ZigzagLinearOffset), "Period=2.5").period == Approx(2.5f));
    const W3dMapper edge = parseMapper(int(W3dMapperType::Edge), "UseReflect=yes\nVStart=0.3");
    REQUIRE(edge.useReflect);
    REQUIRE(edge.vStart == Approx(0.3f));
    REQUIRE(parseMapper(int(W3dMapperType::WsEnvironment), "Axis=x").axis == 0);
    REQUIRE(parseMapper(int(W3dMapperType::BumpEnv), "BumpScale=0.5").bumpScale == Approx(0.5f));
    REQUIRE(parseMapper(int(W3dMapperType::Grid), "Log2Width=99").log2Width == 1); // out of range: default
    REQUIRE(std::string(mapperName(7)) == "Grid");
}

namespace {
// Two passes: pass 0 opaque, textured, stage 1 detail (scale) with a linear-offset mapper on stage 0 and a grid
// on stage 1; pass 1 additive with DCG and DIG, its own UVs.
RawMesh twoPassQuad() {
    RawMesh m = test::testQuad("TWO", "");
    m.vertexMaterials[0].attributes = 0x00040000u | 0x00000700u; // stage 0 linear offset, stage 1 grid
    m.vertexMaterials[0].mapperArgs[0] = "UPerSec=0.5\nVPerSec=0.25";
    m.vertexMaterials[0].mapperArgs[1] = "FPS=4\nLog2Width=2";
    m.vertexMaterials[0].specular = {10, 20, 30, 0};
    m.vertexMaterials[0].shininess = 12.0f;
    VertexMaterial glow;
    glow.name = "glow";
    glow.diffuse = {0, 0, 0, 0};
    glow.ambient = {0, 0, 0, 0};
    glow.emissive = {255, 255, 255, 0};
    m.vertexMaterials.push_back(glow);
    Shader opaque;
    opaque.texturing = 1;
    opaque.detailColorFunc = 2;
    opaque.detailAlphaFunc = 2;
    opaque.alphaTest = 1;
    Shader add;
    add.srcBlend = 1;
    add.destBlend = 1;
    add.depthMask = 0;
    add.texturing = 1;
    add.secGradient = 1;
    m.shaders = {opaque, add};
    TextureRef detail;
    detail.name = "detail.tga";
    m.textures.push_back(detail);
    MaterialPass& p0 = m.passes[0];
    p0.dcg.clear();
    TextureStage s1;
    s1.textureIds = {1};
    s1.uv = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    p0.stages.push_back(s1);
    MaterialPass p1;
    p1.vertexMaterialIds = {1};
    p1.shaderIds = {1};
    p1.dcg = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 128}};
    p1.dig = {{128, 128, 128, 0}, {255, 255, 255, 0}, {255, 255, 255, 0}, {0, 0, 0, 0}};
    TextureStage g;
    g.textureIds = {0};
    g.uv = {{0, 0}, {0.5f, 0}, {0.5f, 0.5f}, {0, 0.5f}};
    p1.stages = {g};
    m.passes.push_back(p1);
    return m;
}
} // namespace

TEST_CASE("W3D passes, stages, mappers and vertex colours reach the model", "[w3d]") {
    ChunkWriter cw(false);
    writeMesh(cw, twoPassQuad());
    std::vector<uint8_t> bytes = cw.take();
    File f = readFile(ByteSpan(bytes), "two.w3d");
    REQUIRE(f.meshes.size() == 1);
    REQUIRE(f.meshes[0].vertexMaterials[0].mapperArgs[0] == "UPerSec=0.5\nVPerSec=0.25");
    REQUIRE(f.meshes[0].passes[1].dig.size() == 4);
    Mesh mesh = toMesh(f.meshes[0], nullptr, -1, "two.w3d");
    REQUIRE(mesh.subMeshes.size() == 1);
    const SubMesh& sm = mesh.subMeshes[0];
    const auto& passes = sm.material.w3dPasses;
    REQUIRE(passes.size() == 2);
    const W3dPassState& a = passes[0];
    REQUIRE(a.shader.texturing == 1);
    REQUIRE(a.shader.alphaTest == 1);
    REQUIRE(a.shader.postDetailColorFunc == 2); // the file's detail functions drive the post-detail stage
    REQUIRE(a.shader.postDetailAlphaFunc == 2);
    REQUIRE(a.shader.depthMask == 1);
    REQUIRE(a.textures[0] == "quad.tga");
    REQUIRE(a.textures[1] == "detail.tga");
    REQUIRE(a.diffuse.g == Approx(128 / 255.0f));
    REQUIRE(a.specular.b == Approx(30 / 255.0f));
    REQUIRE(a.shininess == 12.0f);
    REQUIRE(a.opacity == 0.5f);
    REQUIRE(a.lighting);
    REQUIRE(a.mappers[0].type == int(W3dMapperType::LinearOffset));
    REQUIRE(a.mappers[0].perSec == glm::vec2(0.5f, 0.25f));
    REQUIRE(a.mappers[1].type == int(W3dMapperType::Grid));
    REQUIRE(a.mappers[1].fps == 4.0f);
    REQUIRE(a.mappers[1].log2Width == 2);
    REQUIRE(!a.hasDcg);
    const W3dPassState& b = passes[1];
    REQUIRE(b.shader.srcBlend == 1);
    REQUIRE(b.shader.destBlend == 1);
    REQUIRE(b.shader.depthMask == 0);
    REQUIRE(b.shader.secGradient == 1);
    REQUIRE(b.emissive == glm::vec3(1.0f));
    REQUIRE(b.hasDcg);
    REQUIRE(b.hasDig);
    // UV arrays: pass 0 stage 0, pass 0 stage 1, pass 1 stage 0 (three distinct arrays)
    REQUIRE(sm.w3dUv.size() == 3);
    REQUIRE(a.uvSource[0] == 0);
    REQUIRE(a.uvSource[1] == 1);
    REQUIRE(b.uvSource[0] == 2);
    REQUIRE(b.uvSource[1] == 0); // no array of its own: the first (ww3d2 UVSource -1 -> 0)
    REQUIRE(sm.w3dUv[1][2] == glm::vec2(2.0f, 2.0f));
    REQUIRE(sm.w3dUv[2][1] == glm::vec2(0.5f, 0.0f));
    REQUIRE(sm.w3dDcg.size() == 2);
    REQUIRE(sm.w3dDcg[0].empty());
    REQUIRE(sm.w3dDcg[1][3].a == Approx(128 / 255.0f));
    REQUIRE(sm.w3dDig[1][0] == glm::vec4(glm::vec3(128 / 255.0f), 1.0f));

    // Colour rules: pass 1 is emissive-only with colours but pass 0 is not coloured: lighting off for it,
    // the array scaled by the emissive colour and the opacity.
    const w3d::ColorRule r1 = w3d::colorRule(passes, 1);
    REQUIRE(r1.useColor);
    REQUIRE(r1.diffuseFromColor);
    REQUIRE(!r1.ambientFromColor);
    REQUIRE(!r1.lighting);
    REQUIRE(r1.scale == glm::vec4(1.0f, 1.0f, 1.0f, 1.0f));
    REQUIRE(!w3d::colorRule(passes, 0).useColor);

    const ShaderInfo info = shaderInfo(Format::W3d, mesh, sm.material);
    REQUIRE(info.impl == ShaderImpl::W3d);
    REQUIRE(info.fidelity == ShaderFidelity::EngineFormula);
    REQUIRE(info.implementation.find("2 passes") != std::string::npos);
}

TEST_CASE("W3D colour rules of meshmatdesc.cpp: diffuse, diffuse+ambient, ambient, other", "[w3d]") {
    W3dPassState p;
    p.hasDcg = true;
    p.diffuse = {0.5f, 0.25f, 1.0f};
    p.ambient = glm::vec3(0.0f);
    p.emissive = glm::vec3(0.0f);
    p.opacity = 0.75f;
    std::vector<W3dPassState> v{p};
    w3d::ColorRule r = w3d::colorRule(v, 0);
    REQUIRE(r.scale == glm::vec4(0.5f, 0.25f, 1.0f, 0.75f));
    REQUIRE(r.diffuseFromColor);
    REQUIRE(!r.ambientFromColor);
    REQUIRE(r.lighting);
    v[0].ambient = glm::vec3(1.0f);
    r = w3d::colorRule(v, 0);
    REQUIRE(r.ambientFromColor);
    REQUIRE(r.diffuseFromColor);
    v[0].diffuse = glm::vec3(0.0f);
    r = w3d::colorRule(v, 0);
    REQUIRE(r.ambientFromColor);
    REQUIRE(!r.diffuseFromColor);
    REQUIRE(r.scale == glm::vec4(1.0f, 1.0f, 1.0f, 0.75f));
    v[0].diffuse = glm::vec3(1.0f);
    v[0].emissive = glm::vec3(0.2f);
    r = w3d::colorRule(v, 0); // every colour used: diffuse from the array unchanged
    REQUIRE(r.diffuseFromColor);
    REQUIRE(!r.ambientFromColor);
    REQUIRE(r.scale == glm::vec4(1.0f));
}

TEST_CASE("W3D shader registry: random mappers and bump environment passes are approximations", "[w3d]") {
    Material m;
    W3dPassState p;
    p.mappers[0].type = int(W3dMapperType::Random);
    m.w3dPasses = {p};
    Mesh mesh;
    ShaderInfo i = shaderInfo(Format::W3d, mesh, m);
    REQUIRE(i.impl == ShaderImpl::W3d);
    REQUIRE(i.fidelity == ShaderFidelity::Approximation);
    REQUIRE(i.note.find("Random") != std::string::npos);
    m.w3dPasses[0].mappers[0].type = int(W3dMapperType::Rotate);
    REQUIRE(shaderInfo(Format::W3d, mesh, m).fidelity == ShaderFidelity::EngineFormula);
    m.w3dPasses[0].shader.priGradient = 3;
    REQUIRE(shaderInfo(Format::W3d, mesh, m).fidelity == ShaderFidelity::Approximation);
    m.w3dPasses.clear();
    m.shader = "w3d:fx:NormalMapped.fx";
    i = shaderInfo(Format::W3d, mesh, m);
    REQUIRE(i.impl == ShaderImpl::W3dNormalMapped);
    REQUIRE(i.fidelity == ShaderFidelity::EngineFormula);
    // A NormalMapped.fx sub-mesh without tangents and binormals: the frame is derived, and said so.
    SubMesh sm;
    sm.positions.assign(3, glm::vec3(0.0f));
    sm.material = m;
    mesh.subMeshes = {sm};
    i = shaderInfo(Format::W3d, mesh, mesh.subMeshes[0].material);
    REQUIRE(i.impl == ShaderImpl::W3dNormalMapped);
    REQUIRE(i.fidelity == ShaderFidelity::Approximation);
    REQUIRE(i.note.find("derived from the UVs") != std::string::npos);
    mesh.subMeshes[0].tangents.assign(3, glm::vec3(1, 0, 0));
    mesh.subMeshes[0].binormals.assign(3, glm::vec3(0, 1, 0));
    REQUIRE(shaderInfo(Format::W3d, mesh, mesh.subMeshes[0].material).fidelity == ShaderFidelity::EngineFormula);
    m.shader = "w3d:fx:DefaultW3D.fx"; // C&C 3's DefaultW3D.fxh (render/glsl/w3x_basic.vert)
    REQUIRE(shaderInfo(Format::W3d, mesh, m).impl == ShaderImpl::W3xDefaultW3d);
    m.shader = "w3d:fx:WaterShader.fx"; // the map's water shader, no formula here: the generic program, said
    REQUIRE(shaderInfo(Format::W3d, mesh, m).impl == ShaderImpl::Generic);
    REQUIRE(shaderInfo(Format::W3d, mesh, m).note.find("WaterShader.fx") != std::string::npos);
    m.shader = "w3d:fx:NormalMapped.fx";
    mesh.shadowOrCollision = true;
    REQUIRE(shaderInfo(Format::W3d, mesh, m).fidelity == ShaderFidelity::NotDrawn);
}

TEST_CASE("W3D DIG arrays shorter than the vertex count and unterminated mapper text are handled", "[w3d]") {
    RawMesh m = twoPassQuad();
    m.passes[1].dig.pop_back();                                                           // 3 of 4 vertices
    m.vertexMaterials[0].mapperArgs[0] = std::string("UPerSec=") + std::string(300, '9'); // huge number, no newline
    ChunkWriter cw(false);
    writeMesh(cw, m);
    std::vector<uint8_t> bytes = cw.take();
    // A short per-vertex array is malformed: the reader names the file (no read past the chunk).
    REQUIRE_THROWS_AS(readFile(ByteSpan(bytes), "short.w3d"), ParseError);
    m.passes[1].dig.clear();
    ChunkWriter cw2(false);
    writeMesh(cw2, m);
    bytes = cw2.take();
    File f = readFile(ByteSpan(bytes), "long.w3d");
    Mesh mesh = toMesh(f.meshes[0], nullptr, -1, "long.w3d");
    const W3dMapper& lin = mesh.subMeshes[0].material.w3dPasses[0].mappers[0];
    REQUIRE(std::isinf(lin.perSec.x)); // strtod's overflow, as atof would read it
    REQUIRE(!mesh.subMeshes[0].material.w3dPasses[1].hasDig);
}

TEST_CASE("W3D back faces are culled unless the mesh is two-sided (W3D_MESH_FLAG_TWO_SIDED), as ww3d2 does", "[w3d]") {
    for (bool two : {false, true}) {
        RawMesh m = twoPassQuad();
        m.attributes = two ? 0x00002000u : 0u;
        ChunkWriter cw(false);
        writeMesh(cw, m);
        std::vector<uint8_t> bytes = cw.take();
        File f = readFile(ByteSpan(bytes), "two.w3d");
        REQUIRE(f.meshes.size() == 1);
        const Mesh mesh = toMesh(f.meshes[0], nullptr, -1, "two.w3d");
        CHECK(mesh.twoSided == two);
        const MaterialPolicy p = materialPolicy(Format::W3d, mesh, mesh.subMeshes[0].material);
        CHECK(p.cullBackFaces == !two); // glTF: doubleSided = two
    }
}
