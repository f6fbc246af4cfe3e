// The games' engine limits, in one place: the mod check (core/check), the glTF importer (import/) and the viewer
// read them from here, so that the importer never writes what the check would refuse and the check never accepts
// what the importer refuses. Each limit names where it comes from; budgets that are rigscope's own (not the
// engine's) say so.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rs::limits {

// ---- Alamo (Empire at War, Forces of Corruption)

// Vertices of one sub-mesh: indices are written as unsigned shorts (0x10004) (Blender ALAMO plugin export_alo.py
// create_index_buffer).
constexpr size_t kAlamoVerticesPerSubMesh = 65536;
// Triangles of one mesh, all sub-meshes together (Blender ALAMO plugin export_alo.py checkFaceNumber: 65535).
constexpr size_t kAlamoTrianglesPerMesh = 65535;
// Bones of one skinned sub-mesh's palette (0x10006): Petroglyph's skinning shaders (alSkinMinimal.fx MAX_BONES = 26).
constexpr size_t kAlamoSkinPaletteBones = 26;
// Bones each vertex of an RSkin vertex format is bound to (_ALAMO_BONES_PER_VERTEX = 1: the first bone only).
constexpr int kAlamoBonesPerVertex = 1;
// Longest string in a mini-chunk (texture names, proxy and dazzle names, parameter names): a one-byte size that
// counts the terminating zero.
constexpr size_t kAlamoMiniChunkString = 254;
// Rate the games play clips at (every stock .ala holds 30 frames per second).
constexpr float kAlamoClipFps = 30.0f;
// Format 2 clips address the per-frame components (rotation, translation, scale) with 16-bit offsets.
constexpr size_t kAla2ComponentsPerFrame = 0xFFFF;

// ---- W3D (Renegade, Generals, Zero Hour, BFME)

// DX8VertexBufferClass VertexCount and DX8IndexBufferClass index_count are unsigned shorts (ww3d2).
constexpr size_t kW3dVerticesPerMesh = 65535;
constexpr size_t kW3dIndicesPerMesh = 65535;
// W3D_NAME_LEN: names of pivots, meshes, hierarchies and clips are char[16] with a terminating zero.
constexpr size_t kW3dNameChars = 15;
// Bones per vertex of a W3D skin: Generals' skins one, BFME's two (vertex influences chunk 0x0E / 0x0E + 2nd).
constexpr int kW3dBonesPerVertexGenerals = 1;
constexpr int kW3dBonesPerVertexBfme = 2;

// ---- Files

// Longest path of an entry in a MEG archive (ModVerify PGConstants.MaxMegEntryPathLength).
constexpr size_t kMegEntryPath = 259;

// ---- rigscope's own budgets for the importer (not engine limits: refuse input before it allocates)

// Nodes of a glTF scene (each becomes a bone) and joints of a skin. The largest skeleton of the corpus has 52
// bones; 4096 keeps a format-2 clip's rotation offsets (4 per bone) within kAla2ComponentsPerFrame.
constexpr size_t kImportMaxBones = 4096;
// Frames of one imported clip at the engine rate (an hour at 30 fps).
constexpr size_t kImportMaxClipFrames = 108000;
// Width or height of an image the importer converts to DDS (--textures): checked before decoding. The games'
// Direct3D 9 renderers take at most 4096 (EaW/FoC on most cards) to 2048 (Generals-era cards); 4096 is rigscope's
// budget.
constexpr int kImportMaxTextureDim = 4096;

} // namespace rs::limits
