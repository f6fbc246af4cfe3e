// Writes seed inputs for the fuzz targets from the project's own writers: make_seeds OUTDIR creates
// OUTDIR/<target>/<name> for every fixture the writers produce. Readers whose writers are not in core yet
// get no synthetic seeds (tools/fuzz.sh adds the corpus files when present).
#include "alamo/alamo_writer.h"
#include "alamo/particle_writer.h"
#include "alamo_fixtures.h"
#include "amal/amal_writer.h"
#include "bw2_fixtures.h"
#include "common/bytes.h"
#include "demo/demo_model.h"
#include "particle_fixtures.h"
#include "texture/texture_writer.h"
#include "vfs/archive_writer.h"
#include "w3d_fixtures.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

int written = 0;

void put(const std::string& dir, const std::string& target, const std::string& name, const std::vector<uint8_t>& b) {
    std::filesystem::create_directories(dir + "/" + target);
    std::ofstream(dir + "/" + target + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    ++written;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_seeds OUTDIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    using namespace rs;
    put(dir, "alamo_model", "synthetic.alo", alamo::writeModel(test::syntheticModel()));
    put(dir, "alamo_model", "synthetic205.alo", alamo::writeModel(test::syntheticModel(), {true, true, true, false}));
    put(dir, "alamo_model", "demo.alo", demo::demoAloBytes());
    put(dir, "alamo_clip", "synthetic1.ala", alamo::writeClip(test::syntheticClip(), {1}));
    put(dir, "alamo_clip", "synthetic2.ala", alamo::writeClip(test::syntheticClip(), {2}));
    put(dir, "alamo_clip", "demo.ala", demo::demoAlaBytes());
    put(dir, "alamo_particles", "chain.alo", alamo::writeParticleSystem(test::chainFixture()));

    {
        const std::vector<vfs::WriteEntry> files = {{"DATA\\ART\\MODELS\\A.ALO", {1, 2, 3}},
                                                    {"DATA\\ART\\TEXTURES\\B.DDS", {4, 5}},
                                                    {"DATA\\XML\\EMPTY.XML", {}}};
        for (int v : {1, 2, 3})
            put(dir, "meg", "v" + std::to_string(v) + ".meg", vfs::writeMeg(v, files));
        put(dir, "big", "bigf.big", vfs::writeBig(files));
        put(dir, "big", "big4.big", vfs::writeBig(files, "BIG4"));
        put(dir, "stuff", "everything.stuff", vfs::writeStuff(files, 7));
    }
    {
        // W3X: a hierarchy, a skin with its container and box, an animation (the project's own XML).
        auto text = [](const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); };
        const std::string head = "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AssetDeclaration "
                                 "xmlns=\"uri:ea.com:eala:asset\">\n<Includes><Include type=\"all\" "
                                 "source=\"ART:s_skl.w3x\"/></Includes>\n";
        put(dir, "w3x", "skl.w3x",
            text(head + "<W3DHierarchy id=\"S_SKL\"><Pivot Name=\"ROOT\" Parent=\"-1\"><Translation X=\"0\" "
                        "Y=\"0\" Z=\"0\"/><Rotation X=\"0\" Y=\"0\" Z=\"0\" W=\"1\"/></Pivot><Pivot "
                        "Name=\"B\" Parent=\"0\"><Translation X=\"1\" Y=\"0\" Z=\"0\"/><Rotation X=\"0\" "
                        "Y=\"0\" Z=\"0\" W=\"1\"/></Pivot></W3DHierarchy>\n</AssetDeclaration>\n"));
        put(dir, "w3x", "skn.w3x",
            text(head + "<W3DCollisionBox id=\"S.BOX\"><Center X=\"0\" Y=\"0\" Z=\"0\"/><Extent X=\"1\" "
                        "Y=\"1\" Z=\"1\"/></W3DCollisionBox><W3DMesh id=\"S.M\" GeometryType=\"Skin\">"
                        "<Vertices><V X=\"0\" Y=\"0\" Z=\"0\"/><V X=\"1\" Y=\"0\" Z=\"0\"/><V X=\"0\" "
                        "Y=\"1\" Z=\"0\"/></Vertices><TexCoords><T X=\"0\" Y=\"0\"/><T X=\"1\" Y=\"0\"/><T "
                        "X=\"0\" Y=\"1\"/></TexCoords><BoneInfluences><I Bone=\"1\" Weight=\"0.5\"/><I "
                        "Bone=\"1\" Weight=\"1\"/><I Bone=\"0\" Weight=\"1\"/></BoneInfluences>"
                        "<BoneInfluences><I Bone=\"0\" Weight=\"0.5\"/><I Bone=\"0\" Weight=\"0\"/><I "
                        "Bone=\"0\" Weight=\"0\"/></BoneInfluences><Triangles><T><V>0</V><V>1</V><V>2</V></T>"
                        "</Triangles><FXShader ShaderName=\"Infantry.fx\" TechniqueIndex=\"1\"><Constants><Texture "
                        "Name=\"Texture_0\">"
                        "<Value>T</Value></Texture><Float Name=\"F\"><Value>1</Value></Float></Constants>"
                        "</FXShader></W3DMesh><Texture id=\"T\" File=\"t.tga\"/><W3DContainer id=\"S\" "
                        "Hierarchy=\"S_SKL\"><SubObject BoneIndex=\"1\"><RenderObject><Mesh>S.M</Mesh>"
                        "</RenderObject></SubObject><SubObject BoneIndex=\"0\"><RenderObject><CollisionBox>S.BOX"
                        "</CollisionBox></RenderObject></SubObject></W3DContainer>\n</AssetDeclaration>\n"));
        put(dir, "w3x", "anim.w3x",
            text(head + "<W3DAnimation id=\"S_A\" Hierarchy=\"S_SKL\" NumFrames=\"3\" FrameRate=\"30\">"
                        "<Channels><ChannelScalar Pivot=\"1\" Type=\"XTranslation\" FirstFrame=\"0\"><Frame>0"
                        "</Frame><Frame BinaryMove=\"true\">1</Frame></ChannelScalar><ChannelQuaternion "
                        "Pivot=\"1\" Type=\"Orientation\" FirstFrame=\"1\"><Frame X=\"0\" Y=\"0\" Z=\"0\" "
                        "W=\"1\"/></ChannelQuaternion><ChannelScalar Pivot=\"1\" Type=\"Visibility\" "
                        "FirstFrame=\"0\"><Frame>0.5</Frame></ChannelScalar></Channels></W3DAnimation>\n"
                        "</AssetDeclaration>\n"));
    }

    {
        // Object definitions in the shapes of issue 44 (small: the fuzzer grows them): inheritance chains and a
        // cycle, lists, nested text; SAGE #define and #include fan-out (the target mounts the input as fuzz.ini and
        // fuzz.inc), ChildObject chains.
        auto text = [](const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); };
        std::string chain = "<Units>\n<SpaceUnit Name=\"C0\"><Space_Model_Name>M.ALO</Space_Model_Name>"
                            "<HardPoints>HP_A, HP_B,HP_A</HardPoints></SpaceUnit>\n";
        for (int i = 1; i < 12; ++i)
            chain += "<SpaceUnit Name=\"C" + std::to_string(i) + "\"><Variant_Of_Existing_Type>C" +
                     std::to_string(i - 1) + "</Variant_Of_Existing_Type></SpaceUnit>\n";
        chain += "<SpaceUnit Name=\"L0\"><Variant_Of_Existing_Type>L1</Variant_Of_Existing_Type></SpaceUnit>"
                 "<SpaceUnit Name=\"L1\"><Variant_Of_Existing_Type>L0</Variant_Of_Existing_Type></SpaceUnit>\n"
                 "<HardPoint Name=\"HP_A\"><Model_To_Attach>T.ALO</Model_To_Attach><Attachment_Bone>B"
                 "</Attachment_Bone></HardPoint>\n</Units>\n";
        put(dir, "eaw_xml", "chain.xml", text(chain));
        std::string nested = "<Units><SpaceUnit Name=\"N\"><Ability><A><B><C><D>";
        nested += std::string(300, 'x') + "</D></C></B></A></Ability><Death_Clone>Damage_Normal, N</Death_Clone>"
                                          "<Land_Terrain_Model_Mapping>Arctic, A.ALO, Desert, D.ALO"
                                          "</Land_Terrain_Model_Mapping></SpaceUnit></Units>";
        put(dir, "eaw_xml", "nested.xml", text(nested));
        put(dir, "sage_ini", "define_fanout.ini",
            text("#define FA FB FB FB FB FB FB FB FB FB FB\n#define FB FA FA FA FA FA FA FA FA FA FA\n"
                 "Object Fan\n  Value = FA\n  Draw = W3DScriptedModelDraw ModuleTag_D\n"
                 "    DefaultModelConditionState\n      Model = FA\n    End\n  End\nEnd\n"));
        put(dir, "sage_ini", "include_fanout.ini",
            text("Object Inc\nEnd\n#include \"fuzz.inc\"\n#include \"fuzz.inc\"\n#include \"fuzz.inc\"\n"
                 "#include \"fuzz.inc\"\n"));
        std::string child = "Object P0\n  Draw = W3DModelDraw ModuleTag_D\n    DefaultConditionState\n"
                            "      Model = P0_SKN\n    End\n  End\nEnd\n";
        for (int i = 1; i < 12; ++i)
            child += "ChildObject P" + std::to_string(i) + " P" + std::to_string(i - 1) + "\nEnd\n";
        child += "ChildObject Q0 Q1\nEnd\nChildObject Q1 Q0\nEnd\nObjectReskin R P3\nEnd\n";
        put(dir, "sage_ini", "childobject_chain.ini", text(child));
        put(dir, "sage_particles", "flat.ini",
            text("ParticleSystem S\n  Shader = ALPHA\n  Type = PARTICLE\n  ParticleName = A.tga\n"
                 "  Lifetime = 30 40\n  Size = 1 2\n  SizeRate = 0.1 0.2\n  SizeRateDamping = 0.9 0.95\n"
                 "  VelocityDamping = 0.9 0.95\n  Alpha1 = 0 0 0\n  Alpha2 = 1 1 5\n  Alpha3 = 0 0 30\n"
                 "  Color1 = R:255 G:128 B:0 0\n  Color2 = R:0 G:0 B:0 30\n  ColorScale = -1 1\n"
                 "  BurstDelay = 1 3\n  BurstCount = 1 4\n  InitialDelay = 0 5\n  SystemLifetime = 60\n"
                 "  DriftVelocity = X:0 Y:0 Z:0.1\n  VelocityType = OUTWARD\n  VelOutward = 0.1 0.5\n"
                 "  VelOutwardOther = 0 1\n  VolumeType = CYLINDER\n  VolCylinderRadius = 4\n"
                 "  VolCylinderLength = 2\n  IsHollow = Yes\n  WindMotion = PingPong\n  SlaveSystem = T\n"
                 "End\nParticleSystem T\n  Shader = ADDITIVE\n  Lifetime = 10 10\n  Size = 0.5 0.5\n"
                 "End\nFXList FX\n  ParticleSystem\n    Name = S\n    Offset = X:0 Y:0 Z:5\n  End\nEnd\n"));
        put(dir, "sage_particles", "modules.ini",
            text("FXParticleSystem M\n  System\n    Shader = ALPHA\n    ParticleName = B.tga\n"
                 "    Lifetime = 75 75\n    Size = 10 10\n    BurstDelay = 0.8 0.8\n    BurstCount = 1 1\n"
                 "  End\n  Color = DefaultColor\n    Color1 = R:213 G:205 B:252 0\n  End\n"
                 "  Alpha = DefaultAlpha\n    Alpha2 = 0.15 0.35 15\n  End\n  Physics = DefaultPhysics\n"
                 "    VelocityDamping = 0.85 0.95\n    Gravity = -0.01\n  End\n"
                 "  EmissionVelocity = OrthoEmissionVelocity\n    X = 0 0.5\n  End\n"
                 "  EmissionVolume = BoxEmissionVolume\n    IsHollow = Yes\n    HalfSize = X:35 Y:70 Z:5\n"
                 "  End\n  Wind = DefaultWind\n    WindMotion = Circular\n  End\nEnd\n"));
    }

    put(dir, "bwm", "static5.bwm", bw2::writeBwm(test::bw2fx::staticModel(5)));
    put(dir, "bwm", "static6.bwm", bw2::writeBwm(test::bw2fx::staticModel(6)));
    put(dir, "bwm", "skin_u8.bwm", bw2::writeBwm(test::bw2fx::skinModel(bw2::SkinLayout::U8PerIndex)));
    put(dir, "bwm", "skin_u32.bwm", bw2::writeBwm(test::bw2fx::skinModel(bw2::SkinLayout::U32PerIndex)));
    put(dir, "al", "library.al", bw2::writeAl(test::bw2fx::library()));
    {
        // Library variants, so that the .al target does not start from one shape (the corpus holds no .al):
        // each animation alone, none (armature only), no events, and a 40-bone rig with a 30-frame walk.
        const bw2::AlFile base = test::bw2fx::library();
        bw2::AlFile walk = base, idle = base, armature = base, quiet = base, big = base;
        walk.animations.resize(1);
        idle.animations.erase(idle.animations.begin());
        armature.animations.clear();
        for (bw2::AlAnimation& a : quiet.animations)
            a.events.clear();
        big.bones.clear();
        for (int b = 0; b < 40; ++b)
            big.bones.push_back({"Bone" + std::to_string(b), b == 0 ? -1 : (b - 1) / 2});
        bw2::AlAnimation w = base.animations[0];
        w.header.frameCount = 30;
        w.header.duration = 1.0f;
        w.meta = w.header;
        w.rotationsPerFrame = 40;
        w.frameOffsets.clear();
        w.frameZeroRotations.clear();
        w.frameZeroPositions.clear();
        w.first.clear();
        w.second.clear();
        for (uint32_t fr = 0; fr < 30; ++fr)
            w.frameOffsets.push_back({fr * 240, fr});
        for (size_t b = 0; b < 40; ++b) {
            w.frameZeroRotations.push_back(test::bw2fx::walkRotation(b, 0));
            w.frameZeroPositions.push_back(glm::vec3(0, 0.1f * float(b), 0));
        }
        for (size_t fr = 1; fr < 30; ++fr) {
            for (size_t b = 0; b < 40; ++b)
                w.first.push_back(bw2::compressRotation(test::bw2fx::walkRotation(b, fr)));
            w.second.push_back(glm::i16vec3(int16_t(fr), 0, int16_t(-int(fr))));
        }
        w.events.clear();
        big.animations = {w};
        put(dir, "al", "walk.al", bw2::writeAl(walk));
        put(dir, "al", "idle.al", bw2::writeAl(idle));
        put(dir, "al", "armature.al", bw2::writeAl(armature));
        put(dir, "al", "no_events.al", bw2::writeAl(quiet));
        put(dir, "al", "rig40.al", bw2::writeAl(big));
    }

    {
        w3d::ChunkWriter cw;
        w3d::writeHierarchy(cw, test::testHierarchy());
        w3d::RawMesh quad = test::testQuad("QUAD", "UNIT");
        w3d::writeMesh(cw, quad);
        w3d::RawMesh skin = test::testQuad("SKIN", "UNIT");
        skin.attributes = 0x00020000;
        skin.influences = {{2, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}, {2, 3, 30, 70}};
        w3d::writeMesh(cw, skin);
        put(dir, "w3d", "unit.w3d", cw.take());
    }
    {
        // Effects: an emitter on a bone (HLOD aggregate array), a sphere and a ring with channels, an aggregate.
        w3d::ChunkWriter cw;
        w3d::writeHierarchy(cw, test::testHierarchy());
        w3d::Emitter e;
        e.name = "FIRE";
        e.texture = "fire.tga";
        e.lifetime = 1.0f;
        e.emissionRate = 20.0f;
        e.velocity = {0, 0, 2};
        e.hasInfoV2 = e.hasProps = true;
        e.burstSize = 3;
        e.creationVolume = {1, {0.5f, 0, 0}};
        e.colorKeys = {{0, {1, 0.5f, 0}}, {1, {0, 0, 0}}};
        e.colorRandom = {20, 20, 0, 0};
        e.opacityKeys = {{0, {1, 0, 0}}};
        e.sizeKeys = {{0, {0.2f, 0, 0}}, {0.5f, {1, 0, 0}}};
        e.rotation.present = e.frame.present = true;
        e.rotation.keys = {{0, {0.5f, 0, 0}}};
        e.frame.keys = {{0, {0, 0, 0}}, {1, {15, 0, 0}}};
        e.frameMode = 2;
        w3d::writeEmitter(cw, e);
        w3d::Sphere sp;
        sp.name = "UNIT.GLOW";
        sp.duration = 1.0f;
        sp.flags = 8;
        sp.colorKeys = {{{1, 1, 0}, 0}, {{1, 0, 0}, 1}};
        sp.scaleKeys = {{{1, 1, 1}, 0}, {{2, 2, 2}, 1}};
        sp.flags |= 1 | 2 | 4; // alpha vector, camera aligned, inverse
        sp.texture = "glow.tga";
        w3d::AlphaVector turned;
        turned.angle = glm::quat(0.7071068f, 0, 0, 0.7071068f);
        turned.intensity = 0.5f;
        sp.vectorKeys = {{w3d::AlphaVector{}, 0}, {turned, 1}};
        w3d::writeSphere(cw, sp);
        w3d::Ring rg;
        rg.name = "UNIT.WAVE";
        rg.duration = 0.5f;
        rg.alphaKeys = {{1, 0}, {0, 1}};
        rg.outerScaleKeys = {{{1, 1}, 0}, {{4, 4}, 1}};
        rg.texture = "wave.tga";
        rg.textureTiles = 3;
        w3d::writeRing(cw, rg);
        w3d::Hlod h;
        h.name = "UNIT";
        h.hierarchy = "TEST_SKL";
        h.lods = {w3d::LodArray{}};
        h.aggregates = {{2, "FIRE"}, {1, "UNIT.GLOW"}};
        w3d::writeHlod(cw, h);
        w3d::Aggregate ag;
        ag.name = "UNIT_AGG";
        ag.baseModel = "UNIT";
        ag.subObjects = {{"UNIT.WAVE", "HAND"}};
        w3d::writeAggregate(cw, ag);
        put(dir, "w3d", "effects.w3d", cw.take());
    }
    {
        // Boxes (an axis-aligned one placed by the HLOD on a bone, an oriented one in model space) and an aggregate
        // with texture replacers (0x603, one whole W3dTextureReplacerStruct), class info, a sub-object of another file
        // ("PART.GUN": attached by fuzz_w3d from the input itself) and one this file holds.
        w3d::ChunkWriter cw;
        w3d::writeHierarchy(cw, test::testHierarchy());
        w3d::writeMesh(cw, test::testQuad("QUAD", "UNIT"));
        w3d::Box aa;
        aa.attributes = 2;
        aa.name = "UNIT.BOX";
        aa.color = {255, 128, 0};
        aa.center = {0, 0, 1};
        aa.extent = {1, 2, 3};
        w3d::writeBox(cw, aa);
        w3d::Box ob = aa;
        ob.attributes = 0;
        ob.name = "UNIT.OBOX";
        w3d::writeBox(cw, ob);
        w3d::Hlod h;
        h.name = "UNIT";
        h.hierarchy = "TEST_SKL";
        w3d::LodArray lod;
        lod.objects = {{2, "UNIT.BOX"}, {0, "UNIT.QUAD"}};
        h.lods = {lod};
        w3d::writeHlod(cw, h);
        cw.begin(0x600); // as writeAggregate, with a 0x603 chunk it does not write
        cw.begin(0x601);
        cw.w.u32le(0x10003);
        cw.w.fixedString("UNIT_AGG", 16);
        cw.end();
        cw.begin(0x602);
        cw.w.fixedString("UNIT", 32);
        cw.w.u32le(2);
        for (const char* o : {"PART.GUN", "HAND", "UNIT", "ARM"})
            cw.w.fixedString(o, 32);
        cw.end();
        cw.begin(0x603);
        cw.w.u32le(1);
        cw.w.zeros(15 * 32 * 2);
        cw.w.fixedString("old.tga", 260);
        cw.w.fixedString("new.tga", 260);
        cw.w.zeros(12);
        cw.end();
        cw.begin(0x604);
        cw.w.u32le(0x10001);
        cw.w.u32le(1);
        cw.w.zeros(12);
        cw.end();
        cw.end();
        put(dir, "w3d", "boxes_aggregate.w3d", cw.take());
    }
    const w3d::ClipCodec codecs[] = {w3d::ClipCodec::Uncompressed,  w3d::ClipCodec::Timecoded,
                                     w3d::ClipCodec::AdaptiveDelta, w3d::ClipCodec::MotionTimecoded,
                                     w3d::ClipCodec::MotionDelta4,  w3d::ClipCodec::MotionDelta8};
    for (w3d::ClipCodec codec : codecs) {
        w3d::ChunkWriter cw;
        w3d::ClipSpec c;
        c.name = "CLIP";
        c.hierarchy = "TEST_SKL";
        c.frames = 12;
        c.codec = codec;
        const bool motion = codec >= w3d::ClipCodec::MotionTimecoded;
        const bool keyed = codec == w3d::ClipCodec::Timecoded || codec == w3d::ClipCodec::MotionTimecoded;
        c.version = codec == w3d::ClipCodec::Uncompressed ? 0x40001 : (motion ? 0x10000 : 0x1);
        w3d::ChannelSpec x;
        x.pivot = 1;
        for (uint32_t f = 0; f < (keyed ? 3u : c.frames); ++f) {
            if (keyed) x.keyFrames.push_back(f * 5 + (f == 2 ? 1 : 0)), x.binary.push_back(0);
            x.values.push_back(0.25f * float(f));
        }
        c.channels.push_back(x);
        w3d::writeClip(cw, c);
        put(dir, "w3d", "clip" + std::to_string(int(codec)) + ".w3d", cw.take());
    }

    amal::BankSpec bank;
    amal::MovementSpec mv;
    mv.name = "WALK";
    mv.speed = 2;
    mv.x = {amal::moveByte(3), amal::pauseByte(2), amal::moveByte(-5)};
    mv.y = {amal::moveByte(1)};
    bank.movements = {mv};
    const std::vector<std::string> programs = {"Move 10,0,5",
                                               "L: M 20,-20,10; M -20,20,10; J L",
                                               "A 0,(1,2)(2,2); PL 1",
                                               "Let R0=XM; If R0>100 Jump L; L: P",
                                               "AU (I J1&1; M 0,-1,1; D)",
                                               "F R1=0 T 9; X=X+R1; N R1"};
    bank.programs = programs;
    put(dir, "amal", "bank.abk", amal::writeAmalBank(bank));
    for (size_t i = 0; i < programs.size(); ++i)
        put(dir, "amal_program", "prog" + std::to_string(i),
            std::vector<uint8_t>(programs[i].begin(), programs[i].end()));
    // Textures: the writers' output in every TGA kind, raw and RLE, and DDS with a mip chain and DXT blocks.
    {
        Image img;
        img.width = 12;
        img.height = 5;
        for (int i = 0; i < img.width * img.height; ++i) {
            const uint8_t v = uint8_t(i < 24 ? 40 : i * 7); // a run for RLE, then varying texels
            img.rgba.insert(img.rgba.end(), {v, uint8_t(v / 2), uint8_t(255 - v), uint8_t(i % 3 ? 255 : 128)});
        }
        const std::pair<TgaKind, const char*> kinds[] = {{TgaKind::TrueColour24, "rgb24"},
                                                         {TgaKind::TrueColour32, "rgba32"},
                                                         {TgaKind::Grey8, "grey8"},
                                                         {TgaKind::Mapped8, "mapped8"}};
        for (const auto& [kind, label] : kinds)
            for (bool rle : {false, true})
                put(dir, "tga", std::string(label) + (rle ? "_rle" : "") + ".tga", writeTga(img, kind, rle, rle));
        put(dir, "dds", "rgba32_mips.dds", writeDdsRgba(img, 4));
        std::vector<uint8_t> blocks;
        for (int b = 0; b < 6; ++b) // 8x8 (4 blocks), 4x4, 2x2 (1 each)
            for (int k = 0; k < 16; ++k)
                blocks.push_back(uint8_t(b * 31 + k * 17));
        put(dir, "dds", "dxt5_mips.dds", writeDdsBlocks(8, 8, "DXT5", 3, blocks));
        put(dir, "dds", "dxt3.dds",
            writeDdsBlocks(8, 8, "DXT3", 1, std::vector<uint8_t>(blocks.begin(), blocks.begin() + 64)));
        put(dir, "dds", "dxt1.dds",
            writeDdsBlocks(8, 8, "DXT1", 1, std::vector<uint8_t>(blocks.begin(), blocks.begin() + 32)));
        // Cube maps (texture/dds_cube.h): six 4x4 faces uncompressed, and six DXT1 faces of one block each (the
        // block writer's file with caps2 CUBEMAP and all six faces set).
        Image faces[6];
        for (int f = 0; f < 6; ++f) {
            faces[f].width = faces[f].height = 4;
            for (int i = 0; i < 16; ++i)
                faces[f].rgba.insert(faces[f].rgba.end(), {uint8_t(f * 40), uint8_t(i * 16), uint8_t(255 - i), 255});
        }
        put(dir, "dds", "cube_rgba.dds", writeDdsCubeRgba(faces));
        std::vector<uint8_t> cube =
            writeDdsBlocks(4, 4, "DXT1", 1, std::vector<uint8_t>(blocks.begin(), blocks.begin() + 48));
        const uint32_t caps2 = 0x200 | 0xFC00;
        for (int b = 0; b < 4; ++b)
            cube[112 + b] = uint8_t(caps2 >> (8 * b));
        put(dir, "dds", "cube_dxt1.dds", cube);
    }
    // fuzz_rewrite (read, write, read again): the seeds of every format it writes back.
    for (const char* target : {"alamo_model", "alamo_clip", "alamo_particles", "w3d", "bwm", "amal", "meg", "big"})
        for (const auto& e : std::filesystem::directory_iterator(dir + "/" + target)) {
            std::filesystem::create_directories(dir + "/rewrite");
            std::filesystem::copy_file(e.path(), dir + "/rewrite/" + target + "_" + e.path().filename().string(),
                                       std::filesystem::copy_options::overwrite_existing);
            ++written;
        }
    std::printf("make_seeds: %d seed files in %s\n", written, dir.c_str());
    return 0;
}
