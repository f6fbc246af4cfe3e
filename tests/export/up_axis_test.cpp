// Exported models stand along glTF +Y whatever their format's up axis (upAxisOf in core/formats/formats.h): a writer-made
// "totem" 20 units tall along its native up axis (Alamo and W3D +Z, B&W2 +Y) exports with its height along +Y
// and its bounds equal to the native bounds turned the way the view turns them (Z up: (x, y, z) -> (x, z, -y)).
#include <unistd.h>
#include "gltf_export.h"

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "bw2/bw2_writer.h"
#include "bw2_fixtures.h"
#include "format_catch.h"
#include "resolve/resolver.h"
#include "formats/formats.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <tiny_gltf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

namespace fs = std::filesystem;
using namespace rs;

namespace {

struct Box {
    glm::vec3 lo{std::numeric_limits<float>::max()}, hi{-std::numeric_limits<float>::max()};
    void add(const glm::vec3& p) { lo = glm::min(lo, p), hi = glm::max(hi, p); }
};

constexpr float kHeight = 20.0f;

// Bounds of what the exporter draws (the selected LOD/ALT, drawn meshes). The fixtures' meshes hang from bones
// at the origin, so the stored positions are the model-space ones.
Box nativeBounds(const Model& m) {
    Box b;
    const std::vector<bool> sel = gltf::selectVariant(m, -1, 0);
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        if (!sel[i] || m.meshes[i].hidden || m.meshes[i].shadowOrCollision) continue;
        for (const SubMesh& sm : m.meshes[i].subMeshes)
            for (const glm::vec3& p : sm.positions)
                b.add(p);
    }
    return b;
}

// The native bounds turned into glTF's Y-up frame as the view stands the model up.
Box viewBounds(const Model& m) {
    const Box n = nativeBounds(m);
    if (upAxisOf(m.format) == UpAxis::Y) return n;
    Box b;
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 p(k & 1 ? n.hi.x : n.lo.x, k & 2 ? n.hi.y : n.lo.y, k & 4 ? n.hi.z : n.lo.z);
        b.add({p.x, p.z, -p.y});
    }
    return b;
}

Box exportedBounds(const fs::path& file) {
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, file.string()));
    Box b;
    std::function<void(int, const glm::mat4&)> visit = [&](int n, const glm::mat4& parent) {
        const tinygltf::Node& node = g.nodes.at(size_t(n));
        glm::mat4 local(1.0f);
        if (node.translation.size() == 3)
            local = glm::translate(local, glm::vec3(node.translation[0], node.translation[1], node.translation[2]));
        if (node.rotation.size() == 4)
            local *= glm::mat4_cast(glm::quat(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]),
                                              float(node.rotation[2])));
        if (node.scale.size() == 3) local = glm::scale(local, glm::vec3(node.scale[0], node.scale[1], node.scale[2]));
        const glm::mat4 world = parent * local;
        if (node.mesh >= 0)
            for (const tinygltf::Primitive& p : g.meshes.at(size_t(node.mesh)).primitives) {
                const tinygltf::Accessor& a = g.accessors.at(size_t(p.attributes.at("POSITION")));
                const tinygltf::BufferView& v = g.bufferViews.at(size_t(a.bufferView));
                const unsigned char* base = g.buffers.at(size_t(v.buffer)).data.data() + v.byteOffset + a.byteOffset;
                for (size_t i = 0; i < a.count; ++i) {
                    float q[3];
                    std::memcpy(q, base + i * (v.byteStride ? v.byteStride : 12), 12);
                    b.add(glm::vec3(world * glm::vec4(q[0], q[1], q[2], 1.0f)));
                }
            }
        for (int c : node.children)
            visit(c, world);
    };
    for (int n : g.scenes.at(0).nodes)
        visit(n, glm::mat4(1.0f));
    return b;
}

fs::path tempDir() {
    const fs::path d = fs::temp_directory_path() / ("rigscope_up_axis_test_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

Document loadWritten(const fs::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return Resolver().read(p.string());
}

// Alamo: a rigid quad on the root bone, 20 tall along +Z.
std::vector<uint8_t> alamoTotem() {
    Model m;
    m.format = Format::AlamoModel;
    Bone root;
    root.name = "Root";
    m.skeleton.bones = {root};
    Mesh mesh;
    mesh.name = "Totem";
    mesh.bone = 0;
    mesh.boundsMin = {-1, -1.5f, 0};
    mesh.boundsMax = {1, 1.5f, kHeight};
    SubMesh sm;
    sm.material.shader = "MeshGloss.fx";
    sm.vertexFormat = "alD3dVertNU2";
    sm.positions = {{-1, -1.5f, 0}, {1, -1.5f, 0}, {1, 1.5f, kHeight}, {-1, 1.5f, kHeight}};
    sm.normals.assign(4, glm::vec3(0, -1, 0));
    sm.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    sm.indices = {0, 1, 2, 0, 2, 3};
    mesh.subMeshes.push_back(sm);
    m.meshes.push_back(mesh);
    return alamo::writeModel(m);
}

// W3D: a quad on RootTransform, 20 tall along +Z.
std::vector<uint8_t> w3dTotem() {
    using namespace rs::w3d;
    ChunkWriter cw;
    Hierarchy h = test::testHierarchy("TOTEM_SKL");
    h.pivots.resize(1); // RootTransform at the origin
    writeHierarchy(cw, h);
    RawMesh q = test::testQuad("TOTEM", "UNIT");
    q.positions = {{-1, -1.5f, 0}, {1, -1.5f, 0}, {1, 1.5f, kHeight}, {-1, 1.5f, kHeight}};
    q.boundsMin = {-1, -1.5f, 0};
    q.boundsMax = {1, 1.5f, kHeight};
    writeMesh(cw, q);
    Hlod hl;
    hl.name = "UNIT";
    hl.hierarchy = "TOTEM_SKL";
    LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{0, "UNIT.TOTEM"}};
    hl.lods = {lod};
    writeHlod(cw, hl);
    return cw.take();
}

// B&W2: the static fixture with its meshes unturned at the origin, 20 tall along +Y.
std::vector<uint8_t> bwmTotem() {
    bw2::BwmFile f = test::bw2fx::staticModel(6);
    for (glm::vec3& p : f.positions)
        p.y *= kHeight / 2.0f; // the fixture stands 2 tall
    f.boxMax.y = f.height = kHeight;
    for (bw2::BwmMesh& m : f.meshes)
        m.frame = test::bw2fx::frameAt({0, 0, 0});
    return bw2::writeBwm(f);
}

} // namespace

TEST_CASE("glTF export stands every format's model up along +Y, with the view's bounds", "[export][axes]") {
    const fs::path dir = tempDir();
    struct Case {
        const char* file;
        std::vector<uint8_t> bytes;
        UpAxis up;
    };
    const Case cases[] = {{"totem.alo", alamoTotem(), UpAxis::Z},
                          {"totem.w3d", w3dTotem(), UpAxis::Z},
                          {"totem.bwm", bwmTotem(), UpAxis::Y}};
    for (const Case& c : cases) {
        INFO(c.file);
        const Document d = loadWritten(dir / c.file, c.bytes);
        REQUIRE(d.model);
        REQUIRE(upAxisOf(d.format) == c.up);
        const Box native = nativeBounds(*d.model);
        const int up = c.up == UpAxis::Z ? 2 : 1;
        REQUIRE(native.hi[up] - native.lo[up] == Approx(kHeight));
        const fs::path out = dir / (std::string(c.file) + ".glb");
        gltf::exportModel(*d.model, {}, {}, nullptr, out.string());
        const Box got = exportedBounds(out), want = viewBounds(*d.model);
        INFO("exported [" << got.lo.x << " " << got.lo.y << " " << got.lo.z << "] - [" << got.hi.x << " " << got.hi.y
                          << " " << got.hi.z << "]");
        CHECK(got.hi.y - got.lo.y == Approx(native.hi[up] - native.lo[up]).margin(1e-4));
        for (int k = 0; k < 3; ++k) {
            CHECK(got.lo[k] == Approx(want.lo[k]).margin(1e-4));
            CHECK(got.hi[k] == Approx(want.hi[k]).margin(1e-4));
        }
    }
    fs::remove_all(dir);
}
