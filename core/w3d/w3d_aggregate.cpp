#include "w3d/w3d_aggregate.h"

#include <vector>

namespace rs::w3d {

std::string objectFileName(const std::string& objectName) {
    const size_t dot = objectName.find('.');
    const std::string stem = objectName.substr(0, dot);
    return stem.empty() ? std::string() : stem + ".w3d";
}

bool attachPart(Model& m, const Model& part, const std::string& object, int bone) {
    const size_t dot = object.find('.');
    const std::string meshName = dot == std::string::npos ? std::string() : object.substr(dot + 1);
    std::vector<const Mesh*> meshes;
    if (!meshName.empty()) {
        for (const Mesh& mesh : part.meshes)
            if (iequals(mesh.name, meshName)) {
                meshes.push_back(&mesh);
                break;
            }
        if (meshes.empty()) return false;
    } else {
        if (part.meshes.empty() && part.markers.empty() && part.particles.empty() && part.proxies.empty() &&
            part.dazzles.empty() && part.lights.empty())
            return false;
        for (const Mesh& mesh : part.meshes)
            meshes.push_back(&mesh);
    }
    const int base = int(m.skeleton.bones.size());
    const int partBones = int(part.skeleton.bones.size());
    if (bone < -1 || bone >= base) bone = -1;
    // A bone of part in m: its own appended copy; -1 (part's origin) is the bone it is attached to.
    const auto moved = [&](int b) { return b >= 0 && b < partBones ? b + base : bone; };
    for (const Bone& b : part.skeleton.bones) {
        Bone nb = b;
        nb.name = object + "/" + b.name;
        nb.parent = b.parent >= 0 && b.parent < partBones ? b.parent + base : bone;
        m.skeleton.bones.push_back(std::move(nb));
    }
    for (const Mesh* mesh : meshes) {
        Mesh copy = *mesh;
        copy.bone = moved(copy.bone);
        for (SubMesh& sm : copy.subMeshes)
            for (int& b : sm.boneMap)
                b = moved(b);
        m.meshes.push_back(std::move(copy));
    }
    if (!meshName.empty()) return true;
    // Every bone-attached list of the part joins the model's, its bone index moved into the model's bones.
    const auto append = [&](const auto& from, auto& to) {
        for (auto item : from) {
            item.bone = moved(item.bone);
            to.push_back(std::move(item));
        }
    };
    append(part.markers, m.markers);
    append(part.particles, m.particles);
    append(part.proxies, m.proxies);
    append(part.dazzles, m.dazzles);
    append(part.lights, m.lights);
    return true;
}

} // namespace rs::w3d
