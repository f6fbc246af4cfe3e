// glTF 2.0 import: a .glb/.gltf (tinygltf) into core's format-neutral model and clips, and from them the files a
// game loads (Alamo .alo + .ala). The converter checks the engines' limits (core/formats/engine_limits.h): it
// splits what can be split (skinned sub-meshes by bone palette, sub-meshes by vertex count, meshes by triangle
// count) and refuses what cannot, naming the element.
//
// Mapping (Alamo):
//   skeleton  every node of the scene (the default scene, else scene 0) becomes a bone, names kept, parents before
//             children; bone 0 is "Root": the scene's one root node when it is named Root (or RootTransform, W3D's),
//             the child so named of a
//             single identity wrapper node (rigscope's own exporter writes one), else a new identity Root above
//             the scene's roots. Not bones: skinned mesh nodes (glTF ignores their transform) and attachment
//             leaves with an identity transform (a mesh, a KHR_lights_punctual light, a proxy or dazzle node),
//             which hang from their parent's bone.
//   axes      --up y (glTF's own convention): glTF (x, y, z) -> game (x, -z, y), the inverse of the exporter's
//             axisChange; --up z: kept. --scale S multiplies every length.
//   meshes    one Mesh per mesh node (named after the node; _LOD<n>/_ALT<n> parsed from the name), one sub-mesh per
//             primitive (triangles, strips and fans; points and lines skipped and reported). Rigid meshes are in
//             their bone's space; skinned ones in model space at the bind pose (bindWorld * inverseBind * v of
//             each vertex's bone). Skin weights are reduced to the heaviest joint (RSkin: one bone per vertex),
//             and a sub-mesh is split so that each palette holds at most kAlamoSkinPaletteBones bones.
//   materials an `extras.alamo` {shader, params, ...} or rigscope's exporter's `extras` {shader, params} set the
//             shader and its parameters; else RSkin* for skinned meshes, *BumpColorize where a normal texture and
//             tangents exist, *Alpha for alphaMode BLEND/MASK, *Gloss otherwise. Textures are named
//             <image name or file stem>.dds (the games find .dds for any name; the image itself is not written).
//   nodes     a node named P_* (or extras.alamo.proxy / extras.kind "proxy") is a proxy; extras.kind "dazzle" or
//             extras.alamo.dazzle a dazzle; KHR_lights_punctual lights become lights; extras.alamo.billboard
//             sets the bone's billboard mode, extras.alamo.visible its visibility.
//   clips     each animation (all, or those named) is sampled at the engine rate (kAlamoClipFps) from its start
//             to its end (the last frame at the end); a bone whose node's scale goes to zero is hidden at those
//             frames (visibility track), its scale held from the nearest frame where it is not. Written as
//             <MODEL>_<CLIP>_00.ALA beside the model, format 2 (FoC) or 1 (EaW). The .ala writer quantises each
//             animated channel with the offset = minimum and scale = range / 65535 of that bone's samples (the
//             smallest error bound a 16-bit uniform code allows: half a step, range / 131070); rotations are
//             stored as 16-bit components (error below 1e-4 rad).
// Bad input (malformed JSON/GLB, missing or short buffers, accessors outside their buffers, node cycles or shared
// children, more than kImportMaxBones nodes or joints, non-finite numbers) throws ParseError naming the file and
// the element ("field nodes[3] \"Arm\""); nothing is written.
#pragma once

#include "common/bytes.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rs::gltfimport {

enum class Game { Eaw, Foc };

struct ImportOptions {
    Game game = Game::Foc;
    std::vector<std::string> clips; // animation names to convert (case-insensitive); empty = all
    float scale = 1.0f;             // multiplies every length (finite, > 0)
    bool zUp = false;               // the input is already Z up (no axis change)
    // Skin influences kept per vertex: 1 (Alamo's RSkin, Generals' W3D skins: the heaviest joint) or 2 (BFME's W3D
    // skins: the two heaviest, weights renormalised to sum 1; SubMesh::positions2/normals2 then hold each vertex
    // skinned by its second joint alone, model space at the bind). alamoFiles refuses a model with two.
    int bonesPerVertex = 1;
    // Keep each glTF image's encoded bytes (PNG, JPEG, ...) in ImportResult::images, for textureFiles.
    bool keepImages = false;
};

// A glTF image as the model names it: `name` is the texture name the model's materials use (<stem>.dds),
// `source` the glTF element ("images[2] \"Hull\""), `bytes` the image file as the glTF holds it (empty when the
// glTF gave none or ImportOptions::keepImages was off).
struct ImportedImage {
    std::string name, source;
    std::vector<uint8_t> bytes;
};

struct ImportResult {
    Model model;                       // format AlamoModel
    std::vector<Clip> clips;           // format AlamoClip, Clip::name = the animation's name as given
    std::vector<std::string> report;   // what was changed to fit the engine (weights dropped, splits, renames, ...)
    std::vector<ImportedImage> images; // per glTF image, with ImportOptions::keepImages
};

// Converts the glTF held in `bytes` (a .glb or .gltf; `path` names it in errors and locates external buffers,
// which are read bounded by kMaxInputBytes; data: URIs are decoded). Throws ParseError as above.
ImportResult importGltf(const std::string& path, ByteSpan bytes, const ImportOptions& options = {});
// Reads `path` (bounded) and converts it.
ImportResult importGltfFile(const std::string& path, const ImportOptions& options = {});

struct OutputFile {
    std::string path;
    std::vector<uint8_t> bytes;
    std::function<void(ByteSpan)> check; // the reader's check of the bytes read back (throws); may be empty
};

// The Alamo files of an import: the model at `outAlo`, each clip as <DIR>/<MODEL>_<CLIP>_00.ALA (MODEL = the
// model's file stem, CLIP = the animation name with its MODEL_ prefix and _NN suffix removed, characters outside
// [A-Za-z0-9_] as '_'). Each file is read back by the project's readers (models, clips bound to the skeleton) and
// must give no warning: throws ParseError naming the file otherwise. Nothing is written.
std::vector<OutputFile> alamoFiles(const ImportResult& result, const std::string& outAlo,
                                   const ImportOptions& options = {});

// How clips are stored: W3D_CHUNK_ANIMATION (floats per frame), or W3D_CHUNK_COMPRESSED_ANIMATION flavor 0
// (timecoded: keys at chosen frames, lerp / slerp between them) or flavor 1 (adaptive delta: 4-bit deltas per
// frame against a 256-entry table, per 16-frame block; w3d::encodeAdaptiveDelta).
enum class W3dCodec { Uncompressed, Timecoded, AdaptiveDelta };

struct W3dOptions {
    bool bfme = false;       // BFME / BFME II (else Generals / Zero Hour)
    bool rename = false;     // names over W3D's 15 characters (or used twice) cut and made unique, reported
    bool sageLayout = false; // files under <DIR>/art/w3d/<first two letters of the name>/
    W3dCodec codec = W3dCodec::Uncompressed;
    // Timecoded keys: each frame between two keys interpolates within these of the exact offset: translations
    // keyTolerance x the rig's size (the extent of its bind-pose bone origins), rotations keyToleranceRad. The
    // defaults keep a 30-bone chain's end within 1e-3 rad and 1e-4 of the rig size of the exact pose.
    float keyTolerance = 1e-6f;
    float keyToleranceRad = 2e-5f;
};

// The largest difference, over every compressed clip, bone and frame, between the offsets the clip reads back
// with (the project's W3D reader) and the exact ones: translation (length units) and rotation (radians). Zero
// for uncompressed clips.
struct CodecError {
    float translation = 0.0f, rotation = 0.0f;
};

// The W3D files of an import (Generals, Zero Hour, BFME): <NAME>.w3d holding the hierarchy (pivot 0
// "RootTransform", the skeleton's bones after it), one mesh per sub-mesh (rigid meshes in their pivot's space,
// skins in the space of each vertex's bone, one bone per vertex), one vertex material, shader and texture
// (BaseTexture as <stem>.tga) per mesh, and an HLOD with one LOD per _LOD<n> level; each clip as
// <NAME>_<CLIP>.w3d, uncompressed or compressed (options.codec), its tracks re-expressed as W3D's offsets from the bind
// pose (rotation and translation; a bone scaled in a visible frame is refused), visibility as bit channels. NAME is the
// output's stem. Names longer than 15 characters are refused naming the element unless `rename`. Each file is read back
// (w3d::loadSet, clips with the hierarchy) and must give no warning. Renames go to `report`.
// Compressed clips (options.codec) are read back and their error against the exact offsets goes to `report`
// (one line per clip) and to `codecError`.
std::vector<OutputFile> w3dFiles(const ImportResult& result, const std::string& outW3d, const W3dOptions& options,
                                 std::vector<std::string>* report = nullptr, CodecError* codecError = nullptr);

// Where textureFiles puts each DDS: in DIR itself (Flat: Alamo's Data/Art/Textures, or any folder the game
// searches), DIR/art/compiledtextures/<first two letters>/ (SageCompiled: BFME, as the game ships its textures),
// or DIR/art/textures/ (SageTextures: Generals / Zero Hour).
enum class TextureLayout { Flat, SageCompiled, SageTextures };

// The DDS files of an import's PNG and JPEG images (ImportOptions::keepImages): each decoded (stb_image, bounded
// to limits::kImportMaxTextureDim a side), block-compressed with stb_dxt (DXT1 where every texel is opaque,
// DXT5 otherwise) with a full mip chain (2x2 box filter), and named as the model names it (<stem>.dds; W3D models
// say <stem>.tga and the games load the .dds of that stem). Images in other formats (DDS, KTX2, WebP) or
// without bytes are not converted and reported. Each file is read back with the project's DDS reader. A
// malformed PNG/JPEG throws ParseError naming the glTF image.
std::vector<OutputFile> textureFiles(const ImportResult& result, const std::string& dir, TextureLayout layout,
                                     std::vector<std::string>* report = nullptr);

// Writes every file with writeFileSafely (each read back and checked with its `check`), first beside its
// destination under a temporary name, then renamed once every file was written, so that a failure replaces
// nothing (missing folders are created first). Throws ParseError naming the file that failed.
void writeFiles(const std::vector<OutputFile>& files);

} // namespace rs::gltfimport
