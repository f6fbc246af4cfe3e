#include "bw2_fixtures.h"
#include "corpus.h"

#include "format_catch.h"
#include "resolve/resolver.h"
#include "scene/pose.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace rs;
using namespace rs::bw2;
using namespace rs::test::bw2fx;

static uint32_t u32At(const std::vector<uint8_t>& b, size_t o) {
    return uint32_t(b[o]) | uint32_t(b[o + 1]) << 8 | uint32_t(b[o + 2]) << 16 | uint32_t(b[o + 3]) << 24;
}

static void requireNear(const glm::mat4& a, const glm::mat4& b, float eps = 1e-5f) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            REQUIRE(a[c][r] == Approx(b[c][r]).margin(eps));
}

TEST_CASE("bwm corpus: counts from the header and plausible geometry", "[bw2][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("bw2");
    auto files = rs::test::corpusFiles("bw2", {".bwm"});
    REQUIRE_FALSE(files.empty());
    for (const auto& path : files) {
        INFO(path);
        std::vector<uint8_t> bytes = readFileBytes(path);
        // Header fields read independently of the reader.
        REQUIRE(std::memcmp(bytes.data(), "LiOnHeAdMODEL", 13) == 0);
        const uint32_t version = u32At(bytes, 0x30);
        const uint32_t nMat = u32At(bytes, 0x7C), nMesh = u32At(bytes, 0x80), nBone = u32At(bytes, 0x84);
        const uint32_t nEnt = u32At(bytes, 0x88), nUnk = u32At(bytes, 0x8C), nColl = u32At(bytes, 0x90);
        const uint32_t nVert = u32At(bytes, 0xA8), nStride = u32At(bytes, 0xAC), type = u32At(bytes, 0xB0);
        const uint32_t nIdx = u32At(bytes, 0xB4);

        BwmFile f = parseBwm(ByteSpan(bytes), path);
        CHECK(f.version == version);
        CHECK(f.materials.size() == nMat);
        CHECK(f.meshes.size() == nMesh);
        CHECK(f.bones.size() == nBone);
        CHECK(f.entities.size() == nEnt);
        CHECK(f.unknownPoints.size() == nUnk);
        CHECK(f.collisionPoints.size() == nColl);
        CHECK(f.strides.size() == nStride);
        CHECK(f.positions.size() == nVert);
        CHECK(f.indices.size() == nIdx);
        CHECK(f.type == type);
        CHECK(f.warnings.empty());
        // Real files: position is format 2 (vec3), the first element of stride 0.
        REQUIRE(f.strides[0].elements.size() >= 1);
        CHECK(f.strides[0].elements[0].type == 0);
        CHECK(f.strides[0].elements[0].format == 2);
        if (version >= 6) CHECK(f.trailer.size() == nVert);

        Document d = Resolver().read(ByteSpan(bytes), path);
        REQUIRE(d.format == Format::Bw2Model);
        const Model& m = *d.model;
        REQUIRE(m.meshes.size() == nMesh);
        size_t verts = 0, listIndices = 0;
        for (size_t mi = 0; mi < m.meshes.size(); ++mi) {
            const Mesh& mesh = m.meshes[mi];
            const BwmMesh& bm = f.meshes[mi];
            // Stored frames are proper rotations in the X, Z, Y reading.
            CHECK(glm::determinant(glm::mat3(bm.frame.matrix())) == Approx(1.0f).margin(1e-3));
            size_t meshTris = 0;
            for (const auto& sm : mesh.subMeshes) {
                verts += sm.vertexCount();
                listIndices += sm.indices.size();
                meshTris += sm.triangleCount();
                REQUIRE(sm.normals.size() == sm.vertexCount());
                for (uint32_t ix : sm.indices)
                    REQUIRE(ix < sm.vertexCount());
                for (const auto& n : sm.normals)
                    REQUIRE(glm::length(n) == Approx(1.0f).margin(1e-3));
                const float eps = 1e-3f;
                for (const auto& p : sm.positions)
                    for (int k = 0; k < 3; ++k) {
                        REQUIRE(p[k] >= mesh.boundsMin[k] - eps);
                        REQUIRE(p[k] <= mesh.boundsMax[k] + eps);
                        REQUIRE(p[k] >= f.boxMin[k] - eps);
                        REQUIRE(p[k] <= f.boxMax[k] + eps);
                    }
            }
            if (type == 2) CHECK(meshTris == bm.faceCount);
        }
        CHECK(verts == nVert);
        if (type == 2) CHECK(listIndices == nIdx);
        // Collision footprint is kept as an overlay.
        size_t coll = 0;
        for (const auto& ps : m.pointSets)
            if (ps.kind == "collision") coll = ps.points.size();
        CHECK(coll == nColl);
    }
}

TEST_CASE("bwm corpus: the writer reproduces the file byte for byte", "[bw2][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("bw2");
    for (const auto& path : rs::test::corpusFiles("bw2", {".bwm"})) {
        INFO(path);
        std::vector<uint8_t> bytes = readFileBytes(path);
        BwmFile f = parseBwm(ByteSpan(bytes), path);
        if (f.bones.empty() && f.strides.size() == 1) {
            // Stride padding bytes are not kept; compare with them zeroed.
            std::vector<uint8_t> expect = bytes;
            size_t strideAt = 0x38 + f.metadataSize - f.strides.size() * kBwmStrideSize;
            for (size_t s = 0; s < f.strides.size(); ++s) {
                size_t used = 4 + 8 * f.strides[s].elements.size();
                std::fill(expect.begin() + strideAt + s * kBwmStrideSize + used,
                          expect.begin() + strideAt + (s + 1) * kBwmStrideSize, 0);
            }
            // Material reference trailing word, mesh unknowns and the rest are kept as stored.
            std::vector<uint8_t> out = writeBwm(f);
            REQUIRE(out.size() == expect.size());
            CHECK(out == expect);
        }
    }
}

TEST_CASE("bwm static model round trip, versions 5 and 6", "[bw2]") {
    for (uint32_t version : {5u, 6u}) {
        INFO("version " << version);
        BwmFile src = staticModel(version);
        std::vector<uint8_t> bytes = writeBwm(src);
        BwmFile f = parseBwm(ByteSpan(bytes), "static.bwm");
        CHECK(f.warnings.empty());
        CHECK(f.version == version);
        CHECK(f.size + 0x2C == bytes.size());
        REQUIRE(f.materials.size() == 2);
        for (int s = 0; s < 7; ++s)
            CHECK(f.materials[1].slot(s) == src.materials[1].slot(s));
        REQUIRE(f.meshes.size() == 2);
        CHECK(f.meshes[1].name == "m_house_lod2");
        CHECK(f.meshes[1].lod == 2);
        REQUIRE(f.meshes[0].refs.size() == 2);
        CHECK(f.meshes[0].refs[1].material == 1);
        CHECK(f.uvs.size() == 3);
        CHECK(f.uvs[2][5] == src.uvs[2][5]);
        CHECK(f.positions == src.positions);
        CHECK(f.indices == src.indices);
        CHECK(f.hasTrailer == (version >= 6));
        CHECK(f.trailer == src.trailer);
        CHECK(f.entities.size() == 1);
        CHECK(f.entities[0].name == "door");
        CHECK(f.collisionPoints == src.collisionPoints);
        CHECK(writeBwm(f) == bytes);

        Model m = toModel(f, "static.bwm");
        REQUIRE(m.meshes.size() == 2);
        CHECK(m.lodLevels() == std::vector<int>{0, 1});
        const SubMesh& roof = m.meshes[0].subMeshes[1];
        CHECK(roof.material.shader == "bwm:_tree_");
        REQUIRE(roof.material.find("BaseTexture"));
        CHECK(roof.material.find("BaseTexture")->texture == "t_roof.tga");
        CHECK(roof.material.find("NormalTexture")->texture == "t_roof_normal.dds");
        CHECK(roof.material.find("GrowthTexture")->texture == "t_growth.dds");
        CHECK(roof.material.find("LightmapTexture") == nullptr);
        // Reference 1 covers vertices 4..6: indices rebased, V flipped.
        CHECK(roof.indices == std::vector<uint32_t>{0, 1, 2});
        CHECK(roof.positions[2] == src.positions[6]);
        CHECK(roof.uv0[1].x == Approx(src.uvs[0][5].x));
        CHECK(roof.uv0[1].y == Approx(1.0f - src.uvs[0][5].y));
        CHECK(roof.uv1[1].x == Approx(src.uvs[1][5].x));
        CHECK_FALSE(roof.skinned());
        REQUIRE(m.markers.size() == 1);
        CHECK(m.markers[0].kind == "entity");
        requireNear(m.markers[0].transform, glm::translate(glm::mat4(1.0f), glm::vec3(0, 2, 0)) *
                                                glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), glm::vec3(0, 1, 0)));
        REQUIRE(m.pointSets.size() == 2);
        CHECK(m.pointSets[0].kind == "collision");
        CHECK(m.pointSets[0].points.size() == 4);
    }
}

TEST_CASE("bwm frame axes are stored as X, Z, Y", "[bw2]") {
    BwmFrame identity;
    requireNear(identity.matrix(), glm::mat4(1.0f));
    glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)) *
                  glm::rotate(glm::mat4(1.0f), glm::radians(40.0f), glm::vec3(0.3f, 1, 0.2f));
    BwmFrame f = BwmFrame::fromMatrix(m);
    CHECK(f.axis[1] == glm::vec3(m[2]));
    requireNear(f.matrix(), m);
}

TEST_CASE("triangle strips become lists without degenerate triangles", "[bw2]") {
    const uint16_t strip[] = {0, 1, 2, 3, 3, 4, 4, 5, 6};
    std::vector<uint32_t> tris;
    stripToTriangles(strip, 9, tris);
    // (0,1,2) (2,1,3) | bridge degenerates skipped | (4,5,6) at even position 6.
    CHECK(tris == std::vector<uint32_t>{0, 1, 2, 2, 1, 3, 4, 5, 6});
    tris.clear();
    stripToTriangles(strip, 2, tris);
    CHECK(tris.empty());
}

TEST_CASE("bwm skins: every bone-index layout round trips and is recognised from the data", "[bw2]") {
    for (SkinLayout layout : {SkinLayout::U8PerIndex, SkinLayout::U32PerIndex, SkinLayout::U8x4Packed}) {
        for (uint32_t version : {5u, 6u}) {
            INFO(skinLayoutName(layout) << " v" << version);
            BwmFile src = skinModel(layout, version);
            std::vector<uint8_t> bytes = writeBwm(src);
            BwmFile f = parseBwm(ByteSpan(bytes), "skin.bwm");
            CHECK(f.skinLayout == layout);
            CHECK(f.influences == 4);
            CHECK(f.boneIndices == src.boneIndices);
            for (size_t v = 0; v < 8; ++v)
                CHECK(f.boneWeights[v] == src.boneWeights[v]);
            CHECK(writeBwm(f) == bytes);
            REQUIRE_FALSE(f.warnings.empty());
            CHECK(f.warnings.back().find(skinLayoutName(layout)) != std::string::npos);

            Document d = Resolver().read(ByteSpan(bytes), "skin.bwm");
            const Model& m = *d.model;
            REQUIRE(m.skeleton.bones.size() == 4);
            CHECK(m.skeleton.bones[2].name == "bone_2");
            requireNear(m.skeleton.bones[3].bindLocal, src.bones[3].matrix());
            REQUIRE(m.meshes.size() == 1);
            REQUIRE(m.meshes[0].subMeshes.size() == 2);
            const SubMesh& a = m.meshes[0].subMeshes[0];
            const SubMesh& b = m.meshes[0].subMeshes[1];
            CHECK(a.indices == std::vector<uint32_t>{0, 1, 2, 2, 1, 3});
            CHECK(b.indices == std::vector<uint32_t>{0, 1, 2, 2, 1, 3});
            REQUIRE(a.skinned());
            CHECK(a.space == VertexSpace::Model);
            // Sub-mesh 0 (vertices 0..3) uses bones 0, 1, 2.
            CHECK(a.boneMap == std::vector<int>{0, 1, 2});
            // Vertex 2 (i/2 = 1): bones (1, 2, 2) with weights (.25, .5, .25).
            CHECK(a.boneMap[a.boneIndices[2][0]] == 1);
            CHECK(a.boneMap[a.boneIndices[2][1]] == 2);
            CHECK(a.boneWeights[2] == glm::vec4(0.25f, 0.5f, 0.25f, 0));
            CHECK(b.boneMap == std::vector<int>{0, 2, 3});
            // Skin palette at bind pose is identity.
            std::vector<glm::mat4> inv;
            skinInverseBind(m.skeleton, b, inv);
            PoseBuffers buf(4);
            evaluatePose(m.skeleton, nullptr, nullptr, 0, LoopMode::Loop, buf.view());
            std::vector<glm::mat4> pal(b.boneMap.size());
            skinPalette(b, inv.data(), buf.world.data(), pal.data());
            for (const auto& p : pal)
                requireNear(p, glm::mat4(1.0f));
        }
    }
}

TEST_CASE("bwm skin: packed indices in a declared u32 element are recognised by range", "[bw2]") {
    // One u32 index element with four weights: read as one u32 index, vertex 0 would name bone 0x020100.
    BwmFile src = skinModel(SkinLayout::U8x4Packed);
    std::vector<uint8_t> bytes = writeBwm(src);
    BwmFile f = parseBwm(ByteSpan(bytes), "packed.bwm");
    CHECK(f.skinLayout == SkinLayout::U8x4Packed);
    CHECK(f.warnings.back().find("u32-per-index rejected") != std::string::npos);
}

TEST_CASE("bwm refuses files without the signature", "[bw2]") {
    std::vector<uint8_t> kotor = {'B', 'W', 'M', ' ', 'V', '1', '.', '0'};
    kotor.resize(200, 0);
    try {
        Resolver().read(ByteSpan(kotor), "walkmesh.bwm");
        FAIL("accepted a KotOR walkmesh");
    } catch (const ParseError& e) {
        CHECK(std::string(e.what()).find("KotOR walkmesh") != std::string::npos);
        CHECK(e.offset() == 0);
    }
    std::vector<uint8_t> junk(64, 0x41);
    try {
        Resolver().read(ByteSpan(junk), "junk.bwm");
        FAIL("accepted junk");
    } catch (const ParseError& e) {
        CHECK(std::string(e.what()).find("LiOnHeAdMODEL") != std::string::npos);
        CHECK(e.file() == "junk.bwm");
    }
    CHECK(detectFormat(ByteSpan(junk), "junk.bwm") == Format::Bw2Model);
    std::vector<uint8_t> ok = writeBwm(staticModel(6));
    CHECK(detectFormat(ByteSpan(ok), "model.bin") == Format::Bw2Model);
}
