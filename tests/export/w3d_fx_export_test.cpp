// glTF export of BFME's NormalMapped.fx sub-meshes: the normal map in the frame the game reads it in (red along
// -binormal, green along -tangent), BumpScale as normalTexture.scale, AlphaTestEnable as MASK at 0x60.
#include "gltf_export.h"
#include "gltf_read.h"
#include "texture_lookup.h"

#include "formats/shader_registry.h"
#include "texture/texture_writer.h"

#include <catch2/catch.hpp>
#include <tiny_gltf.h>

#include <cstring>
#include <filesystem>

#include <unistd.h>

using namespace rs;
using rs::test::floats;
namespace fs = std::filesystem;

namespace {

// Every texture name resolves to one small TGA.
class AnyTexture : public gltf::TextureLookup {
  public:
    bool find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) override {
        Image img;
        img.width = img.height = 2;
        img.rgba.assign(16, 200);
        bytes = writeTga(img, TgaKind::TrueColour32, false);
        path = "/textures/" + name;
        return true;
    }
};

MaterialParam param(const char* name, ParamType t, glm::vec4 v = glm::vec4(0.0f), int i = 0, const char* tex = "") {
    MaterialParam p;
    p.name = name;
    p.type = t;
    p.value = v;
    p.intValue = i;
    p.texture = tex;
    return p;
}

} // namespace

TEST_CASE("glTF export of a NormalMapped.fx sub-mesh: the game's tangent frame, BumpScale, alpha test",
          "[export][w3d]") {
    // A quad in the XY plane facing +Z (W3D, Z up), u along +X, stored v along +Y; the file's frame:
    // tangent = -dP/dv = -Y, binormal = dP/du = +X.
    Model m;
    m.format = Format::W3d;
    m.sourcePath = "fx";
    Bone root;
    root.name = "Root";
    m.skeleton.bones = {root};
    Mesh mesh;
    mesh.name = "Wall";
    mesh.bone = 0;
    SubMesh sm;
    sm.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    sm.normals.assign(4, glm::vec3(0, 0, 1));
    sm.tangents.assign(4, glm::vec3(0, -1, 0));
    sm.binormals.assign(4, glm::vec3(1, 0, 0));
    sm.uv0 = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    sm.indices = {0, 1, 2, 1, 3, 2};
    sm.material.shader = "w3d:fx:NormalMapped.fx";
    sm.material.params = {param("DiffuseTexture", ParamType::Texture, {}, 0, "d.tga"),
                          param("BaseTexture", ParamType::Texture, {}, 0, "d.tga"),
                          param("NormalMap", ParamType::Texture, {}, 0, "n.tga"),
                          param("NormalTexture", ParamType::Texture, {}, 0, "n.tga"),
                          param("BumpScale", ParamType::Float, glm::vec4(0.6f, 0, 0, 0)),
                          param("AlphaTestEnable", ParamType::Int, {}, 1)};
    REQUIRE(w3dShaderInfo(sm.material).impl == ShaderImpl::W3dNormalMapped);
    mesh.subMeshes = {sm};
    m.meshes = {mesh};
    const fs::path dir = fs::temp_directory_path() / ("rigscope-fx-export-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    AnyTexture lookup;
    const std::string out = (dir / "fx.glb").string();
    gltf::exportModel(m, {}, {}, &lookup, out);
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, out));
    const auto& prim = g.meshes.at(0).primitives.at(0);
    const tinygltf::Material& gm = g.materials.at(size_t(prim.material));
    CHECK(gm.normalTexture.index >= 0);
    CHECK(gm.normalTexture.scale == Approx(0.6));
    CHECK(gm.alphaMode == "MASK");
    CHECK(gm.alphaCutoff == Approx(96.0 / 255.0));
    const std::vector<float> pos = floats(g, prim.attributes.at("POSITION"));
    const std::vector<float> nor = floats(g, prim.attributes.at("NORMAL"));
    const std::vector<float> tan = floats(g, prim.attributes.at("TANGENT"));
    auto at = [](const std::vector<float>& a, size_t i, size_t comps) {
        return glm::vec3(a[i * comps], a[i * comps + 1], a[i * comps + 2]);
    };
    // In glTF's axes: the map's red axis (TANGENT) runs against +u, its green axis (the bitangent, cross(N, T) * w)
    // along the stored +v: the game's x = -binormal, y = -tangent.
    const glm::vec3 du = glm::normalize(at(pos, 1, 3) - at(pos, 0, 3)),
                    dv = glm::normalize(at(pos, 2, 3) - at(pos, 0, 3));
    for (size_t v = 0; v < 4; ++v) {
        const glm::vec3 n = at(nor, v, 3), t = at(tan, v, 4);
        const glm::vec3 b = glm::cross(n, t) * tan[v * 4 + 3];
        CHECK(glm::dot(t, -du) == Approx(1.0f).margin(1e-5));
        CHECK(glm::dot(b, dv) == Approx(1.0f).margin(1e-5));
    }
    fs::remove_all(dir);
}
