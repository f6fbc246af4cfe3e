// SAGE W3X art (Command & Conquer 3, Kane's Wrath, Red Alert 3, the BFME II mod SDK): XML asset declarations,
// read with Debian's pugixml into the same structures as W3D (w3d/w3d_reader.h) and assembled the same way, so that
// a W3X set opens, plays, exports, diffs, checks and thumbnails like W3D.
//
//   <AssetDeclaration xmlns="uri:ea.com:eala:asset">          (UTF-8, usually with a BOM)
//     <Includes><Include type="all" source="ART:EULorWar_SKL.w3x"/>...</Includes>
//     <W3DHierarchy id="H"> <Pivot Name= Parent=(-1 root)> <Translation X Y Z/> <Rotation X Y Z W/>
//                                                          <FixupMatrix M00 ... M32/> (exporter only, ignored)
//     <W3DMesh id="CONTAINER.MESH" GeometryType="Normal|Skin|CameraAligned|CameraOriented" Hidden= CastShadow=
//              SortLevel=>
//        <BoundingBox><Min/><Max/></BoundingBox> <BoundingSphere Radius><Center/></BoundingSphere>
//        <Vertices><V X Y Z/>...</Vertices> (a second list: dual-bone skins, positions in influence 2's space)
//        <Normals><N/></Normals> (x2 likewise) <Tangents><T/></Tangents> <Binormals><B/></Binormals>
//        <VertexColors><C R G B A/></VertexColors> <TexCoords><T X Y/></TexCoords> (one list per UV channel)
//        <BoneInfluences><I Bone Weight/></BoneInfluences> (a second list: influence 2) <ShadeIndices> (ignored)
//        <Triangles><T><V/><V/><V/><Nrm/><Dist/></T></Triangles>
//        <FXShader ShaderName="Infantry.fx" TechniqueIndex=> <Constants> <Float Name><Value/>x1..4</Float>
//              <Texture Name><Value>texture id</Value></Texture> <Int Name> <Bool Name> </Constants></FXShader>
//        <AABTree> (collision tree: ignored)
//     <W3DCollisionBox id="CONTAINER.BOX"> <Center/> <Extent/>
//     <W3DContainer id="C" Hierarchy="H"> <SubObject SubObjectID= BoneIndex=> <RenderObject>
//        <Mesh>C.MESH</Mesh> | <CollisionBox>C.BOX</CollisionBox> </RenderObject></SubObject>
//     <W3DAnimation id="A" Hierarchy="H" NumFrames= FrameRate=> <Channels>
//        <ChannelScalar Pivot= Type="XTranslation|YTranslation|ZTranslation|Visibility" FirstFrame=>
//           <Frame BinaryMove="false">v</Frame>...   (one key per frame from FirstFrame on)
//        <ChannelQuaternion Pivot= Type="Orientation" FirstFrame=> <Frame X Y Z W BinaryMove=/>...
//     <Texture id="T" File="T.tga"/>
//
// Pose contract: as W3D (EA's asset builder compiles W3DAnimation into the W3D runtime animation): World[i] =
// World[parent] * Base[i] * T(anim) * R(anim) (TrackMode::AdditiveToBind); one key per frame, interpolated
// linearly (translation) and by shortest-arc slerp (rotation); a key with BinaryMove="true" is reached by a step
// (the previous key is held until it). Outside FirstFrame..FirstFrame+keys-1 a channel is identity; channels on
// pivot 0 are ignored (reported), as in W3D. Visibility keys are fractions: visible where >= 0.5.
//
// Hostile input: every file is checked against the budgets below in one pass over its text before a tree is built
// (size, elements, nesting depth, attribute and text lengths) and refused with file, line and column; a DOCTYPE (and
// so any entity declaration: billion laughs, external entities) is refused, no entity but the five predefined ones
// and character references is expanded. Numbers that do not parse, indices out of range and lists of the wrong
// length are refused with the element's line and column.
#pragma once

#include "common/bytes.h"
#include "scene/document.h"
#include "w3d/w3d_reader.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rs::w3x {

// Budgets (named, self-contained; to be unified with the object XML readers' later).
constexpr uint64_t kMaxFileBytes = uint64_t(64) << 20;   // largest W3X file read (the SDK's largest skins: ~20 MB)
constexpr uint64_t kMaxElements = 4000000;               // elements in one file (a 64 MB file of <V/> lines: ~2.6 M)
constexpr int kMaxDepth = 32;                            // element nesting (real files: 7)
constexpr size_t kMaxAttributeBytes = 64 * 1024;         // one attribute value (names, paths, numbers)
constexpr size_t kMaxTextBytes = 64 * 1024;              // one text run between tags (a <Value>, a <Frame>)
constexpr size_t kMaxFiles = 64;                         // files one asset reads (itself, Includes and lookups)
constexpr uint64_t kMaxTotalBytes = uint64_t(256) << 20; // bytes of all those files together
constexpr uint32_t kMaxFrames = 65536;                   // W3D's frame limit (16-bit frame indices)
constexpr uint32_t kMaxPivots = 65535;

// A <Texture id File/> declaration; `file` as written, `declaredIn` the label of the file declaring it.
struct TextureDecl {
    std::string id, file, declaredIn;
};

struct Include {
    std::string type, source; // as written ("all", "ART:EULorWar_SKL.w3x")
};

// What one .w3x file declares, as W3D structures (meshes with one FXShader become a BFME shader material,
// w3d::ShaderMaterial typeName = ShaderName, so that materials read "w3d:fx:<ShaderName>").
struct File {
    std::string label;
    std::vector<w3d::Hierarchy> hierarchies;
    std::vector<w3d::RawMesh> meshes;
    std::vector<w3d::Hlod> containers;
    std::vector<w3d::Box> boxes;
    std::vector<Clip> clips;
    std::vector<TextureDecl> textures;
    std::vector<Include> includes;
    std::vector<std::string> warnings;
    uint64_t bytes = 0; // size of the file read (counted against kMaxTotalBytes)
};

// Parses one file (checked against the budgets first). Throws ParseError (file, "line L, column C") on malformed
// or hostile input.
File readFile(ByteSpan bytes, const std::string& label);

// True when the bytes look like a W3X file: an XML document (after an optional UTF-8 BOM and whitespace) whose
// first element is <AssetDeclaration (the first 1 KiB looked at).
bool looksLikeW3x(ByteSpan bytes);

// A file found for a W3X reference: its label (for messages and to tell files apart) and bytes.
struct Source {
    std::string label;
    std::shared_ptr<const std::vector<uint8_t>> bytes;
    // The lookup's own locator for this file (a table key, a path on disk), handed back to `include` as `from` for
    // the Includes this file holds; opaque to the loader.
    std::string where;
    // The file already parsed (a lookup's cache, e.g. the resolver's, kept while the file's stamp holds): used
    // instead of parsing `bytes`, which may then be null. Its label is `label`'s. With neither, the Source stands for
    // a file already read under that label (the one being loaded: a lookup leading back to it).
    std::shared_ptr<const File> parsed;
};

// How the loader finds the files a W3X file needs but does not hold (the resolver: resolve/lookup_rules.h).
//   include(source, from): an <Include source="..."/> as written ("ART:eulorwar_skl.w3x", "Sub/Part.w3x") in the
//                          file whose Source::where is `from` ("" for the file loadSet was given), nullopt when not
//                          found. As the SDK's asset builder does, a source without a "ART:"/"DATA:" prefix is a
//                          path relative to the folder of the file holding the Include.
//   declaration(kind, id): a file declaring element `kind` ("W3DHierarchy", "W3DMesh", "W3DCollisionBox",
//                          "W3DContainer", "Texture") with that id, by the SDK's naming (<NAME>.<SUB> meshes in
//                          <NAME>.<SUB>.w3x, hierarchies in <H>.w3x, <H>_SKL / _HRC, containers in _CTR), then
//                          any .w3x beside that declares it; nullopt when none.
// Either may be null (nothing is looked up). Both may throw ParseError (reported as a warning).
struct Lookup {
    std::function<std::optional<Source>(const std::string& source, const std::string& from)> include;
    std::function<std::optional<Source>(const std::string& kind, const std::string& id)> declaration;
};

// Loads a .w3x and what it needs to be shown: its Includes (followed transitively through `lookup`; an Include
// leading back to a file that includes it is refused with the chain of names, one not found is named), the
// hierarchy its container or first clip names and the meshes and boxes its containers place (from itself, the
// included files, else `lookup.declaration`), textures named through the Texture declarations seen; then
// assembled as W3D (w3d::assemble) into Format::W3x. Reads no file itself. Throws ParseError for the file itself;
// what a looked-up file lacks or holds malformed is a warning.
Document loadSet(ByteSpan bytes, const std::string& label, const Lookup& lookup = {});

// Cheap scan without building a tree (for lookups over many files): the ids of the declarations of kind `kind`
// (element name) and, for W3DAnimation/W3DContainer, their Hierarchy attributes. Never throws.
struct DeclarationScan {
    std::vector<std::pair<std::string, std::string>> declarations; // (element name, id)
    std::vector<std::string> clipHierarchies;                      // Hierarchy of each W3DAnimation
    std::string containerHierarchy;                                // Hierarchy of the first W3DContainer
};
DeclarationScan scanDeclarations(ByteSpan bytes);

} // namespace rs::w3x
