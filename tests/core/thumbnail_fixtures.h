// Writer-made assets of every kind that gets a picture (tests of ui/thumbnail_*.h, the CLI, the grid).
#pragma once

#include "alamo/alamo_writer.h"
#include "amal/amal_writer.h"
#include "scene/clip.h"
#include "scene/model.h"
#include "texture/texture_writer.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rs::test {

// One rigid box (12 triangles) of the given size centred at `center`, its Diffuse colour `rgb`, on one bone.
inline Model boxModel(glm::vec3 size, glm::vec3 center = {0, 0, 0}, glm::vec3 rgb = {0.8f, 0.3f, 0.2f}) {
    Model m;
    m.format = Format::AlamoModel;
    Bone root;
    root.name = "Root";
    m.skeleton.bones = {root};
    Mesh mesh;
    mesh.name = "Box";
    mesh.bone = 0;
    SubMesh sm;
    sm.material.shader = "MeshGloss.fx";
    sm.vertexFormat = "alD3dVertNU2";
    MaterialParam diffuse;
    diffuse.name = "Diffuse";
    diffuse.type = ParamType::Float4;
    diffuse.value = glm::vec4(rgb, 1.0f);
    sm.material.params = {diffuse};
    const glm::vec3 h = size * 0.5f;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 s((i & 1) ? 1.f : -1.f, (i & 2) ? 1.f : -1.f, (i & 4) ? 1.f : -1.f);
        sm.positions.push_back(center + s * h);
        sm.normals.push_back(glm::normalize(s));
        sm.uv0.push_back({0, 0});
    }
    sm.indices = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                  2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
    mesh.subMeshes.push_back(sm);
    mesh.boundsMin = center - h;
    mesh.boundsMax = center + h;
    m.meshes.push_back(mesh);
    return m;
}

// Two bones: "Root" at the origin, "Tip" 2 units above it; the clip moves Tip along +X by 0..4 over 5 frames
// (frame 2, the middle, puts it at x = 2).
inline Model stickModel() {
    Model m = boxModel({0.2f, 0.2f, 0.2f});
    Bone tip;
    tip.name = "Tip";
    tip.parent = 0;
    tip.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 2));
    m.skeleton.bones.push_back(tip);
    return m;
}

inline Clip stickClip() {
    Clip c;
    c.format = Format::AlamoClip;
    c.frameCount = 5;
    c.fps = 10;
    BoneTrack root;
    root.bone = 0;
    root.boneName = "Root";
    root.translation = {{0, 0, 0}};
    root.rotation = {glm::quat(1, 0, 0, 0)};
    BoneTrack tip;
    tip.bone = 1;
    tip.boneName = "Tip";
    for (int f = 0; f < 5; ++f)
        tip.translation.push_back({float(f), 0, 2});
    tip.rotation = {glm::quat(1, 0, 0, 0)};
    c.tracks = {root, tip};
    return c;
}

// An AMAL bank with one movement: 40 steps of +4 pixels right, then 30 down.
inline std::vector<uint8_t> amalBank() {
    amal::BankSpec spec;
    amal::MovementSpec mv;
    mv.name = "Slide";
    mv.speed = 1;
    for (int i = 0; i < 40; ++i)
        mv.x.push_back(amal::moveByte(4));
    mv.x.push_back(amal::pauseByte(30));
    mv.y.push_back(amal::pauseByte(40));
    for (int i = 0; i < 30; ++i)
        mv.y.push_back(amal::moveByte(4));
    spec.movements = {mv};
    spec.programs = {""};
    return amal::writeAmalBank(spec);
}

// A 64x32 texture: the left half red, the right half blue, a green pixel at (3, 5).
inline Image twoColourImage() {
    Image img;
    img.width = 64;
    img.height = 32;
    img.rgba.resize(64 * 32 * 4);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 64; ++x) {
            uint8_t* p = &img.rgba[size_t(y * 64 + x) * 4];
            p[0] = x < 32 ? 255 : 0;
            p[1] = 0;
            p[2] = x < 32 ? 0 : 255;
            p[3] = 255;
            if (x == 3 && y == 5) p[0] = 0, p[1] = 255, p[2] = 0;
        }
    return img;
}

inline void writeFile(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A folder of one asset of each kind: Models/BOX.ALO, Models/STICK.ALO + Models/STICK_MOVE_00.ALA,
// Amal/BANK.ABK, Textures/TWO.TGA and TWO.DDS.
inline void writeKindsFolder(const std::filesystem::path& dir) {
    writeFile(dir / "Models" / "BOX.ALO", alamo::writeModel(boxModel({1, 1, 4})));
    writeFile(dir / "Models" / "STICK.ALO", alamo::writeModel(stickModel()));
    writeFile(dir / "Models" / "STICK_MOVE_00.ALA", alamo::writeClip(stickClip()));
    writeFile(dir / "Amal" / "BANK.ABK", amalBank());
    writeFile(dir / "Textures" / "TWO.TGA", writeTga(twoColourImage(), TgaKind::TrueColour32, false));
    writeFile(dir / "Textures" / "TWO.DDS", writeDdsRgba(twoColourImage()));
}

} // namespace rs::test
