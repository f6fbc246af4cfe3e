// Writer-made pairs for core/compare and `rigscope-cli diff` with known differences (tests/core/compare,
// tests/app/cli/diff_cli_test.cpp).
#pragma once

#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rs::test {

// What the B side of the W3D pair changes against A (each on its own, or all together).
struct W3dChanges {
    bool moveHand = false;     // HAND's bind translation (0,0,2) -> (0,0,2.5): moved 0.5, ARM animated, HAND not
    bool addBone = false;      // pivot EXTRA (under BODY) appended to the hierarchy
    bool addVertex = false;    // QUAD gets a fifth (unused) vertex: 4 -> 5 vertices, still 2 triangles
    bool otherTexture = false; // QUAD's texture quad.tga -> other.tga
    bool longerClip = false;   // WAVE 5 -> 9 frames at 15 fps, frames 5..8 holding frame 4's value
    bool armFurther = false;   // WAVE: ARM 0.6 further along X at frame 2 (2/15 s) only
};

inline void writeW3dFile(const std::filesystem::path& p, std::vector<uint8_t> bytes) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A W3D set in `dir`, laid out as a SAGE unit: UNIT_SKL.W3D (the hierarchy of testHierarchy), UNIT.W3D (an HLOD
// over UNIT_SKL with the mesh UNIT.QUAD on BODY) and UNIT_WAVE.W3D (the clip UNIT_SKL.WAVE: 5 frames at 15 fps,
// uncompressed, ARM's X channel 0, 0.25, 0.5, 0.75, 1). Returns the path of UNIT.W3D.
inline std::string writeW3dUnit(const std::filesystem::path& dir, const W3dChanges& c = {}) {
    w3d::Hierarchy h = testHierarchy("UNIT_SKL");
    if (c.moveHand) h.pivots[3].translation = {0, 0, 2.5f};
    if (c.addBone) {
        w3d::Pivot extra;
        extra.name = "EXTRA";
        extra.parent = 1;
        extra.translation = {0, -1, 0};
        h.pivots.push_back(extra);
    }
    w3d::ChunkWriter skl;
    w3d::writeHierarchy(skl, h);
    writeW3dFile(dir / "UNIT_SKL.W3D", skl.take());

    w3d::RawMesh quad = testQuad("QUAD", "UNIT");
    if (c.addVertex) {
        quad.positions.push_back({0.5f, 0.5f, 0});
        quad.normals.push_back({0, 0, 1});
        quad.passes[0].dcg.push_back({255, 255, 255, 255});
        quad.passes[0].stages[0].uv.push_back({0.5f, 0.5f});
    }
    if (c.otherTexture) quad.textures[0].name = "other.tga";
    w3d::ChunkWriter skn;
    w3d::writeMesh(skn, quad);
    w3d::writeHlod(skn, oneLodHlod("UNIT", "UNIT_SKL", {{1, "UNIT.QUAD"}}));
    const std::filesystem::path model = dir / "UNIT.W3D";
    writeW3dFile(model, skn.take());

    w3d::ClipSpec clip;
    clip.name = "WAVE";
    clip.hierarchy = "UNIT_SKL";
    clip.frames = c.longerClip ? 9 : 5;
    clip.fps = 15;
    clip.codec = w3d::ClipCodec::Uncompressed;
    w3d::ChannelSpec x;
    x.pivot = 2; // ARM
    x.type = 0;  // X
    x.values = {0, 0.25f, 0.5f, 0.75f, 1};
    while (x.values.size() < clip.frames)
        x.values.push_back(1);
    if (c.armFurther) x.values[2] += 0.6f;
    clip.channels = {x};
    w3d::ChunkWriter anim;
    w3d::writeClip(anim, clip);
    writeW3dFile(dir / "UNIT_WAVE.W3D", anim.take());
    return model.string();
}

} // namespace rs::test
