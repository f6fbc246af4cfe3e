#include "materials.h"

#include "scene/model.h"

namespace rs::render {

static bool has(const std::string& lower, const char* s) { return lower.find(s) != std::string::npos; }

MaterialStyle classifyMaterial(const rs::Mesh& mesh, const rs::Material& material) {
    MaterialStyle st;
    const std::string s = rs::toLower(material.shader);
    st.hiddenByDefault = mesh.shadowOrCollision || has(s, "shadowvolume") || has(s, "collision");
    st.skinnedShader = has(s, "rskin");
    if (has(s, "additive") || has(s, "shield") || has(s, "glow") || has(s, "additive"))
        st.family = Family::Additive;
    else if (has(s, "alpha") || has(s, "skydome") || has(s, "transparent") || has(s, "blend"))
        st.family = Family::Alpha;
    st.unlit = st.family == Family::Additive || has(s, "skydome") || has(s, "unlit");
    st.colorize = has(s, "colorize") || material.find("Colorization") != nullptr;
    st.factionColorParam = mesh.colorize && material.find("Color") != nullptr;
    if (mesh.colorize && !st.factionColorParam && material.find("Colorization") == nullptr && !has(s, "colorize"))
        st.colorize = true; // FC_ mesh without either parameter: colorize through the base alpha mask
    st.bump = has(s, "bump") && material.find("NormalTexture") != nullptr;
    if (has(s, "gloss") || has(s, "bump") || has(s, "reflect")) st.glossSource = st.bump ? 2 : (st.colorize ? 0 : 1);
    return st;
}

} // namespace rs::render
