// A writer-made Empire at War mod for the checker's tests, clean or with one planted defect (CheckMod::Defect).
//
//   Data/Art/Models/CLEAN.ALO        bones Root/Arm/Hand; mesh Hull (MeshGloss.fx, BaseTexture CLEAN.TGA), mesh
//                                    Shadow (a closed tetrahedron, MeshShadowVolume.fx); proxy P_CLEAN on Arm
//   Data/Art/Models/P_CLEAN.ALO      a particle system
//   Data/Art/Textures/CLEAN.DDS      4x4
//   Data/Clips.meg (MegaFiles.xml)   DATA\ART\MODELS\CLEAN_IDLE_00.ALA (syntheticClip: fits CLEAN.ALO)
//   Data/XML/GameObjectFiles.xml -> Units.xml: SpaceUnit Clean (CLEAN.ALO, hardpoint HP_A, death clone Clean_Dead),
//                                   SpaceUnit Clean_Dead (Variant_Of_Existing_Type Clean) and SpaceUnit Clean_Smoker
//                                   (line 11 Damaged_Smoke_Asset_Name P_CLEAN, line 12 Death_Explosion_Particles
//                                   Clean_Explosion)
//                                -> Particles.xml: Particle Clean_Explosion (line 3 Space_Model_Name P_CLEAN.ALO)
//   Data/XML/HardPointDataFiles.xml -> HardPoints.xml: HP_A (Model_To_Attach CLEAN.ALO, Attachment_Bone Arm, line 5
//                                   Death_Explosion_Particles Clean_Explosion)
//   Data/Art/Models/W3DBIG.W3D       (W3dVertices, W3dTriangles only) rigid W3D meshes, see Defect
#pragma once

#include "alamo/alamo_writer.h"
#include "alamo/particle_writer.h"
#include "alamo_fixtures.h"
#include "particle_fixtures.h"
#include "texture/texture_writer.h"
#include "vfs/archive_writer.h"
#include "vfs_fixtures.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <atomic>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace rs::test {

struct CheckMod {
    enum class Defect {
        None,
        ReadError,          // Data/Art/Models/BROKEN.ALO truncated
        ReadWarning,        // CLEAN.ALO ends with an unknown top-level chunk 0x7777
        TextureMissing,     // Hull's BaseTexture GONE.TGA
        ShaderUnknown,      // Hull's shader MeshFancy.fx
        ProxyMissing,       // proxy P_GONE on Hand
        HierarchyMissing,   // Data/Art/Models/UNIT_SKN.W3D: a skin whose HLOD names NOSUCH_SKL
        ClipMismatch,       // CLEAN_WALK_00.ALA: a track for bone 7 "Tail"
        Vertices,           // mesh Big: a sub-mesh of 65537 vertices
        Triangles,          // mesh Dense: two sub-meshes of 33000 triangles each
        SkinBones,          // mesh Skin: skinned sub-mesh with 27 bones (bones B0..B26 added)
        SkinWeights,        // mesh Skin (alD3dVertRSkinNU2, bones Arm/Hand): vertex 2 weighs Arm 0.5 and Hand 0.5
        SkinWeightsW3d,     // Data/Art/Models/UNIT_SKN.W3D (+ UNIT_SKL.W3D): vertex 1 weighs BODY 60% and ARM 60%
        ShadowOpen,         // Shadow: the tetrahedron misses a face
        ShadowMaterials,    // Shadow: two sub-meshes
        CollisionMaterials, // mesh Hull: collision enabled, two sub-meshes
        TextureSize,        // CLEAN.DDS is 6x4
        ArchiveDuplicate,   // Clips.meg holds CLEAN_IDLE_00.ALA twice
        ArchiveCrc,         // Clips.meg record 0 has a wrong CRC
        ArchiveName,        // Clips.meg also holds data\art\textures\low.dds (lower case)
        ArchiveMissing,     // MegaFiles.xml also lists Data\Gone.meg
        ObjectParent,       // Clean_Dead: Variant_Of_Existing_Type Nobody
        ObjectModel,        // Clean: Space_Model_Name GONE.ALO
        ObjectBone,         // HP_A: Attachment_Bone NoBone
        ObjectHardpoint,    // Clean: HardPoints HP_A, HP_Z
        ObjectObject,       // Clean: Death_Clone Damage_Normal, Nobody_Dead
        ObjectDefinition,   // GameObjectFiles.xml also lists Broken.xml (malformed)
        ObjectFile,         // GameObjectFiles.xml also lists Gone.xml
        Unreferenced,       // Data/Art/Textures/ORPHAN.DDS
        W3dVertices,        // W3DBIG.W3D: mesh BIG of 65536 vertices (and mesh EDGE of 65535, within the limit)
        W3dTriangles,       // W3DBIG.W3D: mesh DENSE of 11000 triangles in 2 passes (66000 indices), and mesh EDGE
                            // of 21845 triangles in 1 pass (65535 indices, within the limit)
        ParticleObject,     // HardPoints.xml line 5: Death_Explosion_Particles Nobody_Explosion
        ParticleFile,       // Particles.xml line 3: Clean_Explosion's Space_Model_Name P_GONE.ALO
        ParticleSmoke,      // Units.xml line 11: Clean_Smoker's Damaged_Smoke_Asset_Name P_GONE_SMOKE
        ParticleUnjudged,   // Particles.xml not listed (no Particle object) and HP_A's Death_Explosion_Particles
                            // Nobody_Explosion: not judged
        NotSimulated,       // P_CLEAN.ALO's emitter emits from the proxy's mesh (what the viewer does not simulate)
    };

    std::filesystem::path root;
    std::string mod;  // the mod folder
    std::string game; // a bare game folder (an empty Data/): mounted with the mod, references are judged, not left
                      // to the base game (ref.base-game)

    explicit CheckMod(Defect d = Defect::None) {
        static std::atomic<int> n{0};
        root = std::filesystem::temp_directory_path() /
               ("rigscope_check_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::remove_all(root);
        mod = (root / "mod").string();
        game = (root / "game").string();
        std::filesystem::create_directories(root / "game" / "Data");
        build(d);
    }
    ~CheckMod() {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    CheckMod(const CheckMod&) = delete;
    CheckMod& operator=(const CheckMod&) = delete;

    static SubMesh subMesh(const std::string& shader, const std::string& format, const std::string& texture = "") {
        SubMesh s;
        s.material.shader = shader;
        s.vertexFormat = format;
        if (!texture.empty()) {
            MaterialParam p;
            p.name = "BaseTexture";
            p.type = ParamType::Texture;
            p.texture = texture;
            s.material.params.push_back(p);
        }
        return s;
    }
    static void quad(SubMesh& s) {
        s.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        s.normals.assign(4, {0, 0, 1});
        s.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        s.indices = {0, 1, 2, 0, 2, 3};
    }
    static void tetrahedron(SubMesh& s, bool closed) {
        s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        s.normals.assign(4, {0, 0, 1});
        s.indices = {0, 2, 1, 0, 1, 3, 1, 2, 3};
        if (closed) s.indices.insert(s.indices.end(), {0, 3, 2});
    }

    static Model cleanModel(Defect d) {
        Model m;
        m.format = Format::AlamoModel;
        m.skeleton = syntheticModel().skeleton; // Root, Arm, Hand
        for (Bone& b : m.skeleton.bones)
            b.visible = true, b.billboard = 0;
        Mesh hull;
        hull.name = "Hull";
        hull.bone = 0;
        hull.boundsMax = {1, 1, 0};
        SubMesh h = subMesh(d == Defect::ShaderUnknown ? "MeshFancy.fx" : "MeshGloss.fx", "alD3dVertNU2",
                            d == Defect::TextureMissing ? "GONE.TGA" : "CLEAN.TGA");
        quad(h);
        hull.subMeshes.push_back(h);
        if (d == Defect::CollisionMaterials) {
            hull.collisionEnabled = true;
            hull.subMeshes.push_back(h);
        }
        m.meshes.push_back(hull);
        Mesh shadow;
        shadow.name = "Shadow";
        shadow.bone = 0;
        shadow.hidden = true;
        shadow.boundsMax = {1, 1, 1};
        SubMesh s = subMesh("MeshShadowVolume.fx", "alD3dVertN");
        tetrahedron(s, d != Defect::ShadowOpen);
        shadow.subMeshes.push_back(s);
        if (d == Defect::ShadowMaterials) shadow.subMeshes.push_back(s);
        m.meshes.push_back(shadow);
        if (d == Defect::Vertices || d == Defect::Triangles) {
            Mesh big;
            big.name = d == Defect::Vertices ? "Big" : "Dense";
            big.bone = 0;
            SubMesh b = subMesh("MeshGloss.fx", "alD3dVertNU2", "CLEAN.TGA");
            quad(b);
            if (d == Defect::Vertices) {
                b.positions.resize(65537, glm::vec3(0.5f));
                b.normals.resize(65537, glm::vec3(0, 0, 1));
                b.uv0.resize(65537, glm::vec2(0));
                big.subMeshes.push_back(b);
            } else {
                b.indices.clear();
                for (int t = 0; t < 33000; ++t)
                    b.indices.insert(b.indices.end(), {0, 1, 2});
                big.subMeshes.push_back(b);
                big.subMeshes.push_back(b);
            }
            m.meshes.push_back(big);
        }
        if (d == Defect::SkinBones || d == Defect::SkinWeights) {
            const int extra = d == Defect::SkinBones ? 27 : 0;
            for (int i = 0; i < extra; ++i) {
                Bone b;
                b.name = "B" + std::to_string(i);
                b.parent = 0;
                m.skeleton.bones.push_back(b);
            }
            Mesh skin;
            skin.name = "Skin";
            skin.bone = 0;
            SubMesh k = subMesh("RSkinGloss.fx", "alD3dVertRSkinNU2", "CLEAN.TGA");
            quad(k);
            if (d == Defect::SkinBones)
                for (int i = 0; i < 27; ++i)
                    k.boneMap.push_back(3 + i);
            else
                k.boneMap = {1, 2};
            for (int v = 0; v < 4; ++v) {
                k.boneIndices.push_back(glm::u16vec4(uint16_t(v % 2), uint16_t(v == 2 ? 1 : 0), 0, 0));
                k.boneWeights.push_back(glm::vec4(1, 0, 0, 0));
            }
            if (d == Defect::SkinWeights) {
                k.boneIndices[2] = glm::u16vec4(0, 1, 0, 0);
                k.boneWeights[2] = glm::vec4(0.5f, 0.5f, 0, 0);
            }
            skin.subMeshes.push_back(k);
            m.meshes.push_back(skin);
        }
        Proxy p;
        p.name = "P_CLEAN";
        p.bone = 1;
        m.proxies.push_back(p);
        if (d == Defect::ProxyMissing) {
            Proxy g;
            g.name = "P_GONE";
            g.bone = 2;
            m.proxies.push_back(g);
        }
        return m;
    }

    static std::vector<uint8_t> dds(int w, int h) {
        Image img;
        img.width = w;
        img.height = h;
        img.rgba.assign(size_t(w) * size_t(h) * 4, 200);
        return writeDdsRgba(img);
    }

    void build(Defect d) {
        const std::filesystem::path m(mod);
        auto W = [](const std::filesystem::path& p, const std::vector<uint8_t>& b) { FakeInstall::write(p, b); };
        std::vector<uint8_t> model = alamo::writeModel(cleanModel(d));
        if (d == Defect::ReadWarning) model.insert(model.end(), {0x77, 0x77, 0, 0, 0, 0, 0, 0});
        W(m / "Data/Art/Models/CLEAN.ALO", model);
        if (d == Defect::ReadError) {
            std::vector<uint8_t> broken = alamo::writeModel(cleanModel(Defect::None));
            broken.resize(broken.size() / 2);
            W(m / "Data/Art/Models/BROKEN.ALO", broken);
        }
        ParticleSystem ps;
        ps.name = "p_clean";
        ps.emitters = {pointEmitter("spark", 1.0f)};
        if (d == Defect::NotSimulated) ps.emitters[0].params.emitFromMesh = 1;
        W(m / "Data/Art/Models/P_CLEAN.ALO", alamo::writeParticleSystem(ps));
        W(m / "Data/Art/Textures/CLEAN.DDS", d == Defect::TextureSize ? dds(6, 4) : dds(4, 4));
        if (d == Defect::Unreferenced) W(m / "Data/Art/Textures/ORPHAN.DDS", dds(4, 4));
        if (d == Defect::HierarchyMissing) {
            w3d::ChunkWriter skin;
            w3d::RawMesh sk = testQuad("SKIN", "UNIT_SKN");
            sk.textures.clear();
            for (auto& p : sk.passes)
                p.stages.clear();
            sk.attributes = 0x00020000;
            sk.influences = {{1, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {2, 0, 0, 0}};
            w3d::writeMesh(skin, sk);
            w3d::Hlod h = rs::test::oneLodHlod("UNIT_SKN", "NOSUCH_SKL", {{0, "UNIT_SKN.SKIN"}});
            w3d::writeHlod(skin, h);
            W(m / "Data/Art/Models/UNIT_SKN.W3D", skin.take());
        }
        if (d == Defect::SkinWeightsW3d) {
            w3d::ChunkWriter hier;
            w3d::writeHierarchy(hier, testHierarchy("UNIT_SKL"));
            W(m / "Data/Art/Models/UNIT_SKL.W3D", hier.take());
            w3d::ChunkWriter skin;
            w3d::RawMesh sk = testQuad("SKIN", "UNIT_SKN");
            sk.textures.clear();
            for (auto& p : sk.passes)
                p.stages.clear();
            sk.attributes = 0x00020000;
            sk.influences = {{1, 0, 100, 0}, {1, 2, 60, 60}, {2, 0, 100, 0}, {2, 0, 100, 0}};
            sk.positions2 = sk.positions;
            sk.normals2 = sk.normals;
            w3d::writeMesh(skin, sk);
            w3d::writeHlod(skin, rs::test::oneLodHlod("UNIT_SKN", "UNIT_SKL", {{0, "UNIT_SKN.SKIN"}}));
            W(m / "Data/Art/Models/UNIT_SKN.W3D", skin.take());
        }
        if (d == Defect::W3dVertices || d == Defect::W3dTriangles) {
            // Rigid meshes without textures; every vertex array as long as the positions.
            auto mesh = [](const std::string& name, size_t vertices, size_t triangles, size_t passes) {
                w3d::RawMesh r = testQuad(name, "W3DBIG");
                r.textures.clear();
                r.positions.resize(vertices, glm::vec3(0.5f));
                r.normals.resize(vertices, glm::vec3(0, 0, 1));
                r.indices.clear();
                for (size_t t = 0; t < triangles; ++t)
                    r.indices.insert(r.indices.end(), {0, 1, 2});
                w3d::MaterialPass p = r.passes.front();
                p.stages.clear();
                p.dcg.clear();
                r.passes.assign(passes, p);
                return r;
            };
            w3d::ChunkWriter big;
            if (d == Defect::W3dVertices) {
                w3d::writeMesh(big, mesh("BIG", 65536, 2, 1));
                w3d::writeMesh(big, mesh("EDGE", 65535, 2, 1));
            } else {
                w3d::writeMesh(big, mesh("DENSE", 4, 11000, 2));
                w3d::writeMesh(big, mesh("EDGE", 4, 21845, 1));
            }
            W(m / "Data/Art/Models/W3DBIG.W3D", big.take());
        }
        if (d == Defect::ClipMismatch) {
            Clip c = syntheticClip();
            c.tracks[1].bone = 7;
            c.tracks[1].boneName = "Tail";
            W(m / "Data/Art/Models/CLEAN_WALK_00.ALA", alamo::writeClip(c));
        }
        std::vector<vfs::WriteEntry> meg = {
            {"DATA\\ART\\MODELS\\CLEAN_IDLE_00.ALA", alamo::writeClip(syntheticClip())}};
        if (d == Defect::ArchiveDuplicate) meg.push_back(meg.front());
        if (d == Defect::ArchiveName) meg.push_back({"data\\art\\textures\\low.dds", dds(4, 4)});
        std::vector<uint8_t> megBytes = vfs::writeMeg(1, meg);
        if (d == Defect::ArchiveCrc) {
            // v1: u32 names, u32 files, names (u16 length + bytes), then 20-byte records starting with the CRC.
            size_t at = 8;
            for (size_t i = 0; i < meg.size(); ++i)
                at += 2 + size_t(megBytes[at] | (megBytes[at + 1] << 8));
            megBytes[at] ^= 0xFF;
        }
        W(m / "Data/Clips.meg", megBytes);
        W(m / "Data/MegaFiles.xml",
          textBytes(std::string("<Mega_Files>\n <File>Data\\Clips.meg</File>\n") +
                    (d == Defect::ArchiveMissing ? " <File>Data\\Gone.meg</File>\n" : "") + "</Mega_Files>\n"));

        std::string files = " <File>Units.xml</File>\n";
        if (d != Defect::ParticleUnjudged) files += " <File>Particles.xml</File>\n";
        if (d == Defect::ObjectDefinition) files += " <File>Broken.xml</File>\n";
        if (d == Defect::ObjectFile) files += " <File>Gone.xml</File>\n";
        W(m / "Data/XML/GameObjectFiles.xml", textBytes("<Game_Object_Files>\n" + files + "</Game_Object_Files>\n"));
        if (d == Defect::ObjectDefinition)
            W(m / "Data/XML/Broken.xml", textBytes("<R>\n<U Name=\"Broken\">\n<X></Y>\n</U></R>\n"));
        W(m / "Data/XML/HardPointDataFiles.xml",
          textBytes("<Hard_Point_Files><File>HardPoints.xml</File></Hard_Point_Files>\n"));
        W(m / "Data/XML/HardPoints.xml",
          textBytes(
              std::string("<HardPoints>\n <HardPoint Name=\"HP_A\">\n"
                          "  <Model_To_Attach>CLEAN.ALO</Model_To_Attach>\n  <Attachment_Bone>") +
              (d == Defect::ObjectBone ? "NoBone" : "Arm") + "</Attachment_Bone>\n" + "  <Death_Explosion_Particles>" +
              (d == Defect::ParticleObject || d == Defect::ParticleUnjudged ? "Nobody_Explosion" : "Clean_Explosion") +
              "</Death_Explosion_Particles>\n </HardPoint>\n</HardPoints>\n"));
        W(m / "Data/XML/Particles.xml",
          textBytes(std::string("<Particles>\n <Particle Name=\"Clean_Explosion\">\n  <Space_Model_Name>") +
                    (d == Defect::ParticleFile ? "P_GONE.ALO" : "P_CLEAN.ALO") +
                    "</Space_Model_Name>\n </Particle>\n</Particles>\n"));
        W(m / "Data/XML/Units.xml",
          textBytes(std::string("<Units>\n <SpaceUnit Name=\"Clean\">\n  <Space_Model_Name>") +
                    (d == Defect::ObjectModel ? "GONE.ALO" : "CLEAN.ALO") + "</Space_Model_Name>\n" +
                    "  <HardPoints>HP_A" + (d == Defect::ObjectHardpoint ? ", HP_Z" : "") + "</HardPoints>\n" +
                    "  <Death_Clone>Damage_Normal, " + (d == Defect::ObjectObject ? "Nobody_Dead" : "Clean_Dead") +
                    "</Death_Clone>\n </SpaceUnit>\n <SpaceUnit Name=\"Clean_Dead\">\n" +
                    "  <Variant_Of_Existing_Type>" + (d == Defect::ObjectParent ? "Nobody" : "Clean") +
                    "</Variant_Of_Existing_Type>\n </SpaceUnit>\n <SpaceUnit Name=\"Clean_Smoker\">\n" +
                    "  <Damaged_Smoke_Asset_Name>" + (d == Defect::ParticleSmoke ? "P_GONE_SMOKE" : "P_CLEAN") +
                    "</Damaged_Smoke_Asset_Name>\n" +
                    "  <Death_Explosion_Particles>Clean_Explosion</Death_Explosion_Particles>\n </SpaceUnit>\n" +
                    "</Units>\n"));
    }
};

} // namespace rs::test

namespace rs::test {

// A writer-made BFME II mod in a working tree's layout (art under a top folder, as TROW keeps it), clean or with
// one planted defect in its Object INI (SageCheckMod::Defect).
//
//   data/ini/object/units.ini            Object KBUnit (W3DScriptedModelDraw: default state Model KBUNIT_SKN,
//                                        ParticleSysBone ARM KBSmoke; DAMAGED state Texture kbunit.tga kbunit_d.tga;
//                                        idle animation KBUNIT_SKL.KBUNIT_IDLA; SubObjectsUpgrade ShowSubObjects
//                                        SKIN) and ChildObject KBUnitElite KBUnit
//   data/ini/particlesystem.ini          ParticleSystem KBSmoke
//   arts/art/w3d/kb/kbunit_skl.w3d       hierarchy KBUNIT_SKL (RootTransform, BODY, ARM, HAND)
//   arts/art/w3d/kb/kbunit_skn.w3d       HLOD KBUNIT_SKN: mesh SKIN on ARM, texture kbunit.tga
//   arts/art/w3d/kb/kbunit_idla.w3d      clip KBUNIT_IDLA of KBUNIT_SKL
//   arts/art/textures/kb/kbunit.tga      (the mod SDK's source folder)
//   arts/art/compiledtextures/kb/kbunit_d.dds
struct SageCheckMod {
    enum class Defect {
        None,
        Model,     // line 5: Model = KBGONE_SKN
        Bone,      // line 6: ParticleSysBone = NOBONE KBSmoke
        Particle,  // line 6: ParticleSysBone = ARM KBNoSmoke
        Clip,      // line 13: AnimationName = KBUNIT_SKL.KBUNIT_GONE
        Texture,   // line 9: Texture = kbunit.tga kbgone.tga
        SubObject, // line 19: ShowSubObjects = NOSUCH
        Parent,    // line 23: ChildObject KBUnitElite KBNobody
    };

    std::filesystem::path root;
    std::string mod;
    std::string game; // a bare game folder (empty), as CheckMod::game

    explicit SageCheckMod(Defect d = Defect::None) {
        static std::atomic<int> n{0};
        root = std::filesystem::temp_directory_path() /
               ("rigscope_sagecheck_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::remove_all(root);
        mod = (root / "mod").string();
        game = (root / "game").string();
        std::filesystem::create_directories(game);
        build(d);
    }
    ~SageCheckMod() {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    SageCheckMod(const SageCheckMod&) = delete;
    SageCheckMod& operator=(const SageCheckMod&) = delete;

    void build(Defect d) {
        const std::filesystem::path m(mod);
        auto W = [](const std::filesystem::path& p, const std::vector<uint8_t>& b) { FakeInstall::write(p, b); };
        auto pick = [&](Defect x, const char* bad, const char* good) { return std::string(d == x ? bad : good); };
        W(m / "data/ini/object/units.ini",
          textBytes("Object KBUnit\n"                                // 1
                    "  Draw = W3DScriptedModelDraw ModuleTag_Draw\n" // 2
                    "    DefaultModelConditionState\n"               // 3
                    "      ; the unit\n"                             // 4
                    "      Model = " +
                    pick(Defect::Model, "KBGONE_SKN", "KBUNIT_SKN") + "\n" +                 // 5
                    "      ParticleSysBone = " + pick(Defect::Bone, "NOBONE", "ARM") + " " + // 6
                    pick(Defect::Particle, "KBNoSmoke", "KBSmoke") + " FollowBone:Yes\n" +   //
                    "    End\n"                                                              // 7
                    "    ModelConditionState = DAMAGED\n"                                    // 8
                    "      Texture = kbunit.tga " +
                    pick(Defect::Texture, "kbgone.tga", "kbunit_d.tga") + "\n" + // 9
                    "    End\n"                                                  // 10
                    "    IdleAnimationState\n"                                   // 11
                    "      Animation = IDLA\n"                                   // 12
                    "        AnimationName = KBUNIT_SKL." +                      // 13
                    pick(Defect::Clip, "KBUNIT_GONE", "KBUNIT_IDLA") +
                    "\n" +                                          //
                    "      End\n"                                   // 14
                    "    End\n"                                     // 15
                    "  End\n"                                       // 16
                    "  Behavior = SubObjectsUpgrade ModuleTag_Up\n" // 17
                    "    TriggeredBy = Upgrade_Elite\n"             // 18
                    "    ShowSubObjects = " +
                    pick(Defect::SubObject, "NOSUCH", "SKIN") + "\n" + // 19
                    "  End\n"                                          // 20
                    "End\n"                                            // 21
                    "\n"                                               // 22
                    "ChildObject KBUnitElite " +
                    pick(Defect::Parent, "KBNobody", "KBUnit") + "\n" + // 23
                    "End\n"));
        W(m / "data/ini/particlesystem.ini",
          textBytes("ParticleSystem KBSmoke\n  Priority = WEAPON_EXPLOSION\n  Lifetime = 10 10\nEnd\n"));
        w3d::ChunkWriter hier;
        w3d::writeHierarchy(hier, testHierarchy("KBUNIT_SKL"));
        W(m / "arts/art/w3d/kb/kbunit_skl.w3d", hier.take());
        w3d::ChunkWriter skin;
        w3d::RawMesh q = testQuad("SKIN", "KBUNIT_SKN");
        q.textures[0].name = "kbunit.tga";
        w3d::writeMesh(skin, q);
        w3d::writeHlod(skin, oneLodHlod("KBUNIT_SKN", "KBUNIT_SKL", {{2, "KBUNIT_SKN.SKIN"}}));
        W(m / "arts/art/w3d/kb/kbunit_skn.w3d", skin.take());
        w3d::ChunkWriter clip;
        w3d::ClipSpec c;
        c.name = "KBUNIT_IDLA";
        c.hierarchy = "KBUNIT_SKL";
        c.frames = 3;
        w3d::ChannelSpec x;
        x.pivot = 2;
        x.type = 0;
        x.values = {0, 1, 2};
        c.channels = {x};
        w3d::writeClip(clip, c);
        W(m / "arts/art/w3d/kb/kbunit_idla.w3d", clip.take());
        Image img;
        img.width = img.height = 4;
        img.rgba.assign(64, 200);
        W(m / "arts/art/textures/kb/kbunit.tga", writeTga(img, TgaKind::TrueColour32, false));
        W(m / "arts/art/compiledtextures/kb/kbunit_d.dds", writeDdsRgba(img));
    }
};

} // namespace rs::test
