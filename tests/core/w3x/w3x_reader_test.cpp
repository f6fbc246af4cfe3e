// SAGE W3X reader (core/w3x): the project's own XML fixtures (hierarchy, dual-bone skin, container, box,
// animation with binary moves, texture declaration, Includes), hostile input refused with file, line and column,
// and the registry's view of the format.
#include "format_catch.h"
#include "formats/formats.h"
#include "scene/pose.h"
#include "w3x/w3x_reader.h"

#include <catch2/catch.hpp>

#include <glm/gtc/matrix_transform.hpp>

using namespace rs;

namespace {

const std::string kBom = "\xEF\xBB\xBF";

// A hierarchy of three pivots; attributes split across lines as the SDK's exporter writes them.
const std::string kSkl = kBom + R"(<?xml version="1.0" encoding="UTF-8"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
	<Includes></Includes>
	<W3DHierarchy id="TEST_SKL">
		<Pivot Name="ROOTTRANSFORM" Parent="-1">
			<Translation X="0" Y="0" Z="0"/>
			<Rotation X="0" Y="0" Z="0" W="1"/>
		</Pivot>
		<Pivot
			Name="B_PELVIS"
			Parent="0">
			<Translation X="1" Y="2" Z="3"/>
			<Rotation X="0" Y="0" Z="0.707107" W="0.707107"/>
			<FixupMatrix M00="1" M10="0" M20="0" M30="0" M01="0" M11="1" M21="0" M31="0" M02="0" M12="0" M22="1" M32="0"/>
		</Pivot>
		<Pivot Name="B_HEAD" Parent="1">
			<Translation X="0" Y="0" Z="5"/>
			<Rotation X="0" Y="0" Z="0" W="1"/>
		</Pivot>
	</W3DHierarchy>
</AssetDeclaration>
)";

std::string skin(const std::string& triangleIndex = "2", const std::string& x0 = "0.5") {
    return kBom + R"(<?xml version="1.0" encoding="UTF-8"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset">
	<Includes>
		<Include type="all" source="ART:test_skl.w3x"/>
	</Includes>
	<W3DCollisionBox id="TEST_SKN.BOX01">
		<Center X="0" Y="0" Z="4"/>
		<Extent X="1" Y="2" Z="3"/>
	</W3DCollisionBox>
	<W3DMesh id="TEST_SKN.BODY" GeometryType="Skin" CastShadow="true">
		<BoundingBox><Min X="-1" Y="-1" Z="0"/><Max X="1" Y="1" Z="6"/></BoundingBox>
		<Vertices>
			<V X=")" +
           x0 + R"(" Y="0" Z="0"/>
			<V X="0" Y="1" Z="0"/>
			<V X="0" Y="0" Z="1"/>
		</Vertices>
		<Vertices>
			<V X="0.5" Y="0" Z="-5"/>
			<V X="0" Y="1" Z="-5"/>
			<V X="0" Y="0" Z="-4"/>
		</Vertices>
		<Normals><N X="0" Y="0" Z="1"/><N X="0" Y="0" Z="1"/><N X="0" Y="0" Z="1"/></Normals>
		<TexCoords><T X="0" Y="0"/><T X="1" Y="0"/><T X="0" Y="1"/></TexCoords>
		<BoneInfluences>
			<I Bone="1" Weight="0.3"/><I Bone="2" Weight="1"/><I Bone="1" Weight="0.55"/>
		</BoneInfluences>
		<BoneInfluences>
			<I Bone="2" Weight="0.7"/><I Bone="0" Weight="0"/><I Bone="2" Weight="0.45"/>
		</BoneInfluences>
		<ShadeIndices><I>0</I><I>1</I><I>2</I></ShadeIndices>
		<Triangles>
			<T><V>0</V><V>1</V><V>)" +
           triangleIndex + R"(</V><Nrm X="0" Y="0" Z="1"/><Dist>0</Dist></T>
		</Triangles>
		<FXShader ShaderName="Infantry.fx" TechniqueIndex="0">
			<Constants>
				<Float Name="ColorDiffuse"><Value>1</Value><Value>0.5</Value><Value>0.25</Value><Value>0</Value></Float>
				<Texture Name="Texture_0"><Value>TestSkin</Value></Texture>
				<Bool Name="CullingEnable"><Value>false</Value></Bool>
				<Int Name="BlendMode"><Value>0</Value></Int>
			</Constants>
		</FXShader>
		<AABTree><PolyIndices><P>0</P></PolyIndices></AABTree>
	</W3DMesh>
	<Texture id="TestSkin" File="test_skin.tga"/>
	<W3DContainer id="TEST_SKN" Hierarchy="TEST_SKL">
		<SubObject SubObjectID="BOX01" BoneIndex="1">
			<RenderObject><CollisionBox>TEST_SKN.BOX01</CollisionBox></RenderObject>
		</SubObject>
		<SubObject SubObjectID="BODY" BoneIndex="0">
			<RenderObject><Mesh>TEST_SKN.BODY</Mesh></RenderObject>
		</SubObject>
	</W3DContainer>
</AssetDeclaration>
)";
}

// Four frames: pelvis X translation with a binary move into frame 3, head orientation from frame 1, head
// visibility, a channel on pivot 0 (ignored as in the game).
const std::string kAnim = kBom + R"(<?xml version="1.0" encoding="UTF-8"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset">
	<Includes><Include type="all" source="ART:test_skl.w3x"/></Includes>
	<W3DAnimation id="TEST_WALK" Hierarchy="TEST_SKL" NumFrames="4" FrameRate="15">
		<Channels>
			<ChannelScalar Pivot="1" Type="XTranslation" FirstFrame="0">
				<Frame>0</Frame><Frame>1</Frame><Frame>2</Frame><Frame BinaryMove="true">10</Frame>
			</ChannelScalar>
			<ChannelQuaternion Pivot="2" Type="Orientation" FirstFrame="1">
				<Frame X="0" Y="0" Z="0" W="1"/><Frame X="0" Y="0" Z="0.707107" W="0.707107"/>
			</ChannelQuaternion>
			<ChannelScalar Pivot="2" Type="Visibility" FirstFrame="0">
				<Frame>1</Frame><Frame>1</Frame><Frame>0</Frame><Frame>1</Frame>
			</ChannelScalar>
			<ChannelScalar Pivot="0" Type="ZTranslation" FirstFrame="0"><Frame>7</Frame></ChannelScalar>
		</Channels>
	</W3DAnimation>
</AssetDeclaration>
)";

std::shared_ptr<const std::vector<uint8_t>> bytesOf(const std::string& s) {
    return std::make_shared<const std::vector<uint8_t>>(s.begin(), s.end());
}

// Includes "ART:test_skl.w3x" (any case) from memory; nothing else is found.
w3x::Lookup memoryLookup() {
    w3x::Lookup l;
    l.include = [](const std::string& source, const std::string&) -> std::optional<w3x::Source> {
        if (toLower(source) == "art:test_skl.w3x") return w3x::Source{"test_skl.w3x", bytesOf(kSkl)};
        return std::nullopt;
    };
    return l;
}

Document load(const std::string& text, const std::string& label, const w3x::Lookup& l = {}) {
    const std::vector<uint8_t> b(text.begin(), text.end());
    return w3x::loadSet(ByteSpan(b), label, l);
}

// The ParseError's message for `text`, with its place.
std::string refusal(const std::string& text, const std::string& label = "bad.w3x") {
    const std::vector<uint8_t> b(text.begin(), text.end());
    try {
        w3x::readFile(ByteSpan(b), label);
    } catch (const ParseError& e) {
        CHECK(e.file() == label);
        return e.what();
    }
    FAIL("not refused");
    return {};
}

} // namespace

TEST_CASE("w3x: hierarchy, dual-bone skin, box and container through an Include", "[w3x]") {
    const Document d = load(skin(), "TEST_SKN.w3x", memoryLookup());
    REQUIRE(d.model);
    CHECK(d.format == Format::W3x);
    CHECK(d.model->format == Format::W3x);
    const Skeleton& sk = d.model->skeleton;
    CHECK(sk.name == "TEST_SKL");
    REQUIRE(sk.bones.size() == 3);
    CHECK(sk.bones[2].name == "B_HEAD");
    CHECK(sk.bones[2].parent == 1);
    // Pivot 1: T(1,2,3) R(90 degrees about Z).
    const glm::vec4 p = sk.bones[1].bindLocal * glm::vec4(1, 0, 0, 1);
    CHECK(p.x == Approx(1.0f).margin(1e-5));
    CHECK(p.y == Approx(3.0f).margin(1e-5));
    CHECK(p.z == Approx(3.0f).margin(1e-5));
    REQUIRE(d.model->meshes.size() == 1);
    const Mesh& m = d.model->meshes[0];
    CHECK(m.name == "BODY");
    CHECK(m.twoSided); // CullingEnable false
    REQUIRE(m.subMeshes.size() == 1);
    const SubMesh& sm = m.subMeshes[0];
    CHECK(sm.vertexCount() == 3);
    CHECK(sm.triangleCount() == 1);
    CHECK(sm.indices == std::vector<uint32_t>{0, 1, 2});
    CHECK(sm.space == VertexSpace::Bone);
    CHECK(sm.positions[0] == glm::vec3(0.5f, 0, 0));
    REQUIRE(sm.positions2.size() == 3);
    CHECK(sm.positions2[2] == glm::vec3(0, 0, -4));
    // Exact weights (0.3 / 0.7; 0.55 / 0.45), not rounded to percent; a single influence where the second is 0.
    REQUIRE(sm.boneWeights.size() == 3);
    CHECK(sm.boneWeights[0].x == Approx(0.3f).epsilon(1e-6));
    CHECK(sm.boneWeights[0].y == Approx(0.7f).epsilon(1e-6));
    CHECK(sm.boneWeights[1] == glm::vec4(1, 0, 0, 0));
    CHECK(sm.boneWeights[2].x == Approx(0.55f).epsilon(1e-6));
    CHECK(sm.boneMap[sm.boneIndices[0].x] == 1);
    CHECK(sm.boneMap[sm.boneIndices[0].y] == 2);
    CHECK(sm.boneMap[sm.boneIndices[1].x] == 2);
    REQUIRE(sm.uv0.size() == 3);
    CHECK(sm.uv0[1] == glm::vec2(1, 0));
    CHECK(sm.material.shader == "w3d:fx:Infantry.fx");
    const MaterialParam* base = sm.material.find("BaseTexture");
    REQUIRE(base);
    CHECK(base->texture == "test_skin.tga"); // the id TestSkin through its <Texture> declaration
    const MaterialParam* diffuse = sm.material.find("ColorDiffuse");
    REQUIRE(diffuse);
    CHECK(diffuse->value == glm::vec4(1, 0.5f, 0.25f, 0));
    REQUIRE(d.model->markers.size() == 1);
    CHECK(d.model->markers[0].kind == "box");
    CHECK(d.model->markers[0].bone == 1);
    CHECK(d.model->markers[0].extent == glm::vec3(1, 2, 3));
    CHECK(glm::vec3(d.model->markers[0].transform[3]) == glm::vec3(0, 0, 4));

    // Without the Include found: the mesh is kept unskinned and both misses are said.
    const Document alone = load(skin(), "TEST_SKN.w3x");
    REQUIRE(alone.model);
    CHECK(alone.model->skeleton.bones.empty());
    bool saidInclude = false, saidHierarchy = false;
    for (const std::string& w : alone.model->warnings) {
        saidInclude |= w.find("include ART:test_skl.w3x not found") != std::string::npos;
        saidHierarchy |= w.find("hierarchy TEST_SKL not found") != std::string::npos;
    }
    CHECK(saidInclude);
    CHECK(saidHierarchy);
}

TEST_CASE("w3x: animation channels, binary moves, visibility, pivot 0 ignored; pose as W3D's", "[w3x]") {
    const Document d = load(kAnim, "TEST_WALK.w3x", memoryLookup());
    REQUIRE(d.clips.size() == 1);
    const Clip& c = *d.clips[0];
    CHECK(c.format == Format::W3x);
    CHECK(c.name == "TEST_WALK");
    CHECK(c.hierarchyName == "TEST_SKL");
    CHECK(c.frameCount == 4);
    CHECK(c.fps == 15.0f);
    REQUIRE(c.tracks.size() == 2);
    const BoneTrack& pelvis = c.tracks[0];
    CHECK(pelvis.bone == 1);
    CHECK(pelvis.mode == TrackMode::AdditiveToBind);
    REQUIRE(pelvis.translation.size() == 4);
    CHECK(pelvis.translation[3] == glm::vec3(10, 0, 0));
    CHECK(pelvis.step == std::vector<uint8_t>{0, 0, 1, 0}); // frame 2 held until frame 3
    const BoneTrack& head = c.tracks[1];
    CHECK(head.bone == 2);
    REQUIRE(head.rotation.size() == 4);
    CHECK(head.rotation[0] == glm::quat(1, 0, 0, 0)); // before FirstFrame: identity
    CHECK(head.rotation[2].z == Approx(0.707107f));
    CHECK(head.visibility == std::vector<uint8_t>{1, 1, 0, 1});
    bool rootSaid = false;
    for (const std::string& w : c.warnings)
        rootSaid |= w.find("pivot 0") != std::string::npos;
    CHECK(rootSaid);
    // The clip-only file gets its hierarchy as the model, through the Include.
    REQUIRE(d.model);
    REQUIRE(d.model->skeleton.bones.size() == 3);

    // Pose: World = World[parent] * Base * T(anim) * R(anim); between frames 2 and 3 the step holds frame 2.
    const Skeleton& sk = d.model->skeleton;
    const ClipBinding b = bindClip(sk, c);
    CHECK(b.ok());
    PoseBuffers pose(sk.bones.size());
    evaluatePose(sk, &c, &b, 1.5f, LoopMode::Once, pose.view());
    glm::mat4 pelvisWorld = sk.bones[1].bindLocal * glm::translate(glm::mat4(1.0f), glm::vec3(1.5f, 0, 0));
    for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 4; ++row)
            CHECK(pose.world[1][col][row] == Approx(pelvisWorld[col][row]).margin(1e-5));
    evaluatePose(sk, &c, &b, 2.5f, LoopMode::Once, pose.view());
    CHECK(glm::vec3(pose.world[1][3]) == glm::vec3(sk.bones[1].bindLocal * glm::vec4(2, 0, 0, 1)));
    CHECK(pose.visible[2] == 0);
}

TEST_CASE("w3x: registry, detection, MIME magic and the Open dialog", "[w3x]") {
    const FormatInfo& f = formatInfo(Format::W3x);
    CHECK(std::string(f.name) == "w3x");
    REQUIRE(f.extensions.size() == 1);
    CHECK(std::string(f.extensions[0]) == ".w3x");
    CHECK(formatByName("w3x") == Format::W3x);
    const std::vector<uint8_t> b(kSkl.begin(), kSkl.end());
    CHECK(detectFormat(ByteSpan(b), "anything.xml") == Format::W3x);     // by content (BOM, declaration, root)
    CHECK(detectFormat(ByteSpan(b.data(), 10), "X.W3X") == Format::W3x); // by name
    CHECK(openDialogFilter().find("*.w3x") != std::string::npos);
    const std::string mime = mimeInfoXml();
    CHECK(mime.find("<mime-type type=\"model/x-w3x\">") != std::string::npos);
    CHECK(mime.find("<match type=\"string\" offset=\"0:256\" value=\"&lt;AssetDeclaration\"/>") != std::string::npos);
    CHECK(thumbnailerMimeTypes().find("model/x-w3x;") != std::string::npos);
    // Through the registry's reader.
    const Document d = readDocument(ByteSpan(b), ReadContext{"TEST_SKL.w3x", {}, {}});
    CHECK(d.format == Format::W3x);
    REQUIRE(d.model);
    CHECK(d.model->skeleton.bones.size() == 3);
}

TEST_CASE("w3x: hostile input refused with file, line and column", "[w3x][hostile]") {
    // Billion laughs: the DOCTYPE is refused before anything is expanded.
    std::string laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n";
    for (int i = 1; i < 10; ++i)
        laughs += " <!ENTITY lol" + std::to_string(i) + " \"&lol" + std::to_string(i - 1) + ";&lol" +
                  std::to_string(i - 1) + ";&lol" + std::to_string(i - 1) + ";\">\n";
    laughs += "]>\n<AssetDeclaration><Texture id=\"&lol9;\" File=\"x\"/></AssetDeclaration>\n";
    std::string e = refusal(laughs);
    CHECK(e.find("bad.w3x") != std::string::npos);
    CHECK(e.find("line 2, column 1") != std::string::npos);
    CHECK(e.find("<!DOCTYPE") != std::string::npos);

    // An attribute past the attribute budget (with its place), and a 100 MB one (past the file cap, by size).
    std::string big = "<AssetDeclaration>\n  <Texture id=\"" + std::string(w3x::kMaxAttributeBytes + 1, 'a') +
                      "\" File=\"x\"/></AssetDeclaration>";
    e = refusal(big);
    CHECK(e.find("line 2, column 15") != std::string::npos);
    CHECK(e.find("attribute value of 65537 bytes refused") != std::string::npos);
    std::string huge = "<AssetDeclaration><Texture id=\"" + std::string(100u << 20, 'a') + "\"/></AssetDeclaration>";
    e = refusal(huge);
    CHECK(e.find("W3X file of 104857653 bytes refused") != std::string::npos);
    huge.clear();
    huge.shrink_to_fit();

    // 10,000-deep nesting.
    std::string deep = "<AssetDeclaration>\n";
    for (int i = 0; i < 10000; ++i)
        deep += "<a>";
    e = refusal(deep);
    CHECK(e.find("nested more than 32 deep") != std::string::npos);
    CHECK(e.find("line 2, column 94") != std::string::npos); // the 33rd element: 31 <a> of 3 bytes before it

    // Wrong types.
    e = refusal(skin("2", "abc"), "TEST_SKN.w3x");
    CHECK(e.find("TEST_SKN.w3x") != std::string::npos);
    CHECK(e.find("attribute X 'abc' is not a number") != std::string::npos);
    CHECK(e.find("line 13, column 4") != std::string::npos);
    // Indices out of range.
    e = refusal(skin("3"));
    CHECK(e.find("triangle 0 uses vertex 3 of 3") != std::string::npos);
    CHECK(e.find("line 32, column 23") != std::string::npos);
    e = refusal(skin("-1"));
    CHECK(e.find("vertex index -1 out of range") != std::string::npos);
    std::string badParent = kSkl;
    badParent.replace(badParent.find("Parent=\"1\""), 10, "Parent=\"2\"");
    e = refusal(badParent);
    CHECK(e.find("pivot 2 'B_HEAD' has parent 2 (itself)") != std::string::npos);
    CHECK(e.find("line 16, column 3") != std::string::npos);
    // A list of the wrong length.
    std::string shortList = skin();
    const std::string normal = "<N X=\"0\" Y=\"0\" Z=\"1\"/>";
    shortList.replace(shortList.find(normal), normal.size(), "");
    e = refusal(shortList);
    CHECK(e.find("<Normals> holds 2 items for 3 vertices") != std::string::npos);
    CHECK(e.find("line 22, column 3") != std::string::npos);
    // Malformed XML, and XML that is not W3X.
    e = refusal(kBom + "<AssetDeclaration>\n<W3DMesh id=\"x\">\n</AssetDeclaration>");
    CHECK(e.find("malformed XML") != std::string::npos);
    CHECK(e.find("line 3") != std::string::npos);
    e = refusal("<Other/>");
    CHECK(e.find("not a W3X file") != std::string::npos);
}

TEST_CASE("w3x: the FXShader's TechniqueIndex is kept as the integer parameter TechniqueIndex when not 0", "[w3x]") {
    auto withTechnique = [](const std::string& value) {
        std::string t = skin();
        const std::string zero = "TechniqueIndex=\"0\"";
        t.replace(t.find(zero), zero.size(), "TechniqueIndex=\"" + value + "\"");
        return t;
    };
    const Document first = load(skin(), "TEST_SKN.w3x", memoryLookup());
    REQUIRE(first.model);
    CHECK(first.model->meshes[0].subMeshes[0].material.find("TechniqueIndex") == nullptr);
    const Document second = load(withTechnique("1"), "TEST_SKN.w3x", memoryLookup());
    REQUIRE(second.model);
    const MaterialParam* t = second.model->meshes[0].subMeshes[0].material.find("TechniqueIndex");
    REQUIRE(t);
    CHECK(t->type == ParamType::Int);
    CHECK(t->intValue == 1);
    // Not a count: refused with its place (the <FXShader> on line 34).
    for (const char* bad : {"-1", "one", "4294967296"}) {
        const std::string e = refusal(withTechnique(bad), "TEST_SKN.w3x");
        INFO(e);
        CHECK(e.find("attribute TechniqueIndex") != std::string::npos);
        CHECK(e.find("line 34, column 3") != std::string::npos);
    }
}

TEST_CASE("w3x: declaration scan finds ids and clip hierarchies without a tree", "[w3x]") {
    const std::string s = skin();
    const w3x::DeclarationScan scan =
        w3x::scanDeclarations(ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
    CHECK(scan.containerHierarchy == "TEST_SKL");
    bool mesh = false, box = false, tex = false;
    for (const auto& [kind, id] : scan.declarations) {
        mesh |= kind == "W3DMesh" && id == "TEST_SKN.BODY";
        box |= kind == "W3DCollisionBox" && id == "TEST_SKN.BOX01";
        tex |= kind == "Texture" && id == "TestSkin";
    }
    CHECK((mesh && box && tex));
    const w3x::DeclarationScan a =
        w3x::scanDeclarations(ByteSpan(reinterpret_cast<const uint8_t*>(kAnim.data()), kAnim.size()));
    CHECK(a.clipHierarchies == std::vector<std::string>{"TEST_SKL"});
}
