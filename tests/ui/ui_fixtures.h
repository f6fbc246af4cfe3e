// Models for the UI tests, built in code (the tests write them with the project's own writers).
#pragma once

#include "demo/demo_model.h"

#include <functional>
#include <string>

namespace rs::test {

// The built-in demo model with every sub-mesh naming a BaseTexture: texture(i) for the i-th sub-mesh in mesh order.
inline Model demoNamingTextures(const std::function<std::string(int)>& texture) {
    Model m = demo::demoModelSource();
    int i = 0;
    for (Mesh& mesh : m.meshes)
        for (SubMesh& sm : mesh.subMeshes) {
            MaterialParam p;
            p.name = "BaseTexture";
            p.type = ParamType::Texture;
            p.texture = texture(i++);
            sm.material.params.push_back(p);
        }
    return m;
}

} // namespace rs::test
