#include "formats/material_policy.h"

#include "formats/formats.h"
#include "scene/model.h"

namespace rs {

static bool has(const std::string& lower, const char* s) { return lower.find(s) != std::string::npos; }

MaterialPolicy materialPolicy(Format format, const Mesh& mesh, const Material& material) {
    MaterialPolicy st;
    const std::string s = toLower(material.shader);
    // Shadow volumes, collision and light-visualize meshes: the games do not draw them (shader_registry.cpp Hidden).
    st.hiddenByDefault =
        mesh.shadowOrCollision || has(s, "shadowvolume") || has(s, "collision") || has(s, "lightvisualize");
    st.cullBackFaces = formatInfo(format).cullBackFaces && !mesh.twoSided;
    st.skinnedShader = has(s, "rskin");
    if (has(s, "additive") || has(s, "shield") || has(s, "glow"))
        st.family = MaterialFamily::Additive;
    else if (has(s, "alpha") || has(s, "skydome") || has(s, "transparent") || has(s, "blend"))
        st.family = MaterialFamily::Alpha;
    st.unlit = st.family == MaterialFamily::Additive || has(s, "skydome") || has(s, "unlit");
    st.colorize = has(s, "colorize") || material.find("Colorization") != nullptr;
    st.factionColorParam = mesh.colorize && material.find("Color") != nullptr;
    if (mesh.colorize && !st.factionColorParam && material.find("Colorization") == nullptr && !has(s, "colorize"))
        st.colorize = true; // FC_ mesh without either parameter: colorize through the base alpha mask
    st.bump = has(s, "bump") && material.find("NormalTexture") != nullptr;
    if (has(s, "gloss") || has(s, "bump") || has(s, "reflect")) st.glossSource = st.bump ? 2 : (st.colorize ? 0 : 1);
    return st;
}

bool isBaseTextureParam(const std::string& name) {
    const std::string n = toLower(name);
    return n == "basetexture" || n == "diffusetexture";
}

bool isNormalTextureParam(const std::string& name) { return toLower(name) == "normaltexture"; }

bool isEmissiveTextureParam(const std::string& name) {
    const std::string n = toLower(name);
    return has(n, "glow") || has(n, "emissive") || has(n, "illum");
}

} // namespace rs
