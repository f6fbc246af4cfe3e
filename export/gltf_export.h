// glTF 2.0 export of a format-neutral model (core/scene/model.h) with its clips, through tinygltf.
//
// Output layout (every scene, one per LOD/ALT variant):
//   <model>            root node, identity: parent of the root bones and of rigid meshes without a bone
//     <bone> ...       skeleton as stored (TRS of the bind local transform), children: child bones and what hangs
//                      from the bone: rigid meshes, KHR_lights_punctual lights, proxies/dazzles/markers (named
//                      empty nodes, parameters in extras)
//   <mesh>             skinned meshes, at the scene root (glTF ignores a skinned node's transform), skin = all
//                      bones of that scene, inverse bind matrices = inverse(bind world)
// Axes: glTF is Y up; the game's up axis is upAxisOf(model.format) (core/formats/formats.h). Every position,
// direction and transform is re-expressed with axisChange(up): Z up (Alamo, W3D): (x, y, z) -> (x, z, -y);
// Y up (B&W2): unchanged. Matrices M -> C M C^-1. Lengths are kept (1 game unit = 1 metre).
// Clips become animations sampled at every stored frame (time = frame / fps).
#pragma once

#include "scene/clip.h"
#include "scene/model.h"
#include "formats/formats.h"
#include "texture_lookup.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace rs::gltf {

struct ExportOptions {
    int lod = -1;             // wanted LOD; -1 = the most detailed (as the viewer's default)
    int alt = 0;              // wanted ALT (damage state)
    bool allVariants = false; // one scene per LOD x ALT combination (scene 0 = the chosen one)
    bool haveFactionColor = false;
    glm::vec3 factionColor{1.0f}; // 0..1, baked into colorized textures / FC_ colour parameters
    bool prettyJson = false;      // .gltf only
};

struct ExportStats {
    size_t scenes = 0, nodes = 0, meshes = 0, primitives = 0, vertices = 0, triangles = 0, images = 0, animations = 0;
    std::vector<std::string> warnings; // textures not found or not decodable, clips skipped, ...
};

// Matrix of the axis change from the space of a format whose up axis is `up` to glTF space (a rotation).
glm::mat4 axisChange(UpAxis up);

// Writes `outPath` (.glb: one binary file with every buffer and PNG inside; .gltf: JSON plus <stem>.bin and
// <stem>_<n>.png beside it). Clips that do not bind to the skeleton are skipped with a warning. Throws
// std::runtime_error (or ParseError) when the model cannot be exported or the file cannot be written.
// `textures` may be null (materials then keep their factors and name the missing textures in extras).
ExportStats exportModel(const Model& model, const std::vector<const Clip*>& clips, const ExportOptions& options,
                        TextureLookup* textures, const std::string& outPath);

// The meshes shown for a LOD/ALT choice, as the viewer picks them: per base name, the LOD nearest the wanted one
// (ties and -1: the higher), then the ALT nearest the wanted one (ties: the lower). Indexed like model.meshes.
std::vector<bool> selectVariant(const Model& model, int lod, int alt);

} // namespace rs::gltf
