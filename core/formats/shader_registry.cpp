#include "formats/shader_registry.h"

#include "formats/formats.h"
#include "scene/model.h"

namespace rs {

namespace {

std::string stem(const std::string& shader) {
    std::string s = toLower(shader);
    for (const char* ext : {".fxo", ".fx"}) {
        const std::string e(ext);
        if (s.size() > e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0) {
            s.resize(s.size() - e.size());
            break;
        }
    }
    return s;
}

ShaderInfo make(ShaderImpl impl, ShaderFidelity f, std::string implementation, std::string note = {}) {
    ShaderInfo i;
    i.impl = impl;
    i.fidelity = f;
    i.implementation = std::move(implementation);
    i.note = std::move(note);
    return i;
}

} // namespace

ShaderInfo alamoShaderInfo(const std::string& shaderName) {
    std::string s = stem(shaderName);
    bool skinned = false;
    if (s.rfind("rskin", 0) == 0) {
        skinned = true;
        s = "mesh" + s.substr(5);
    }
    using I = ShaderImpl;
    using F = ShaderFidelity;
    const F E = F::EngineFormula;
    ShaderInfo r;
    const std::string name = skinned ? "RSkin" : "Mesh";
    if (s == "meshbumpcolorize")
        r = make(I::AlamoBumpColorize, E, name + "BumpColorize (sph_t2)");
    else if (s == "meshbumpreflectcolorize")
        r = make(I::AlamoBumpReflectColorize, E, name + "BumpReflectColorize (sph_t2)",
                 "the sky cube (SKY_CUBE_TEXTURE) belongs to the map; a model is shown with the light set-up's "
                 "irradiance as its sky");
    else if (s == "meshgloss")
        r = make(I::AlamoGloss, E, name + "Gloss (sph_t0)");
    else if (s == "meshglosscolorize")
        r = make(I::AlamoGlossColorize, E, name + "GlossColorize (sph_t0)");
    else if (s == "meshalpha")
        r = make(I::AlamoAlpha, E, name + "Alpha (sph_t1)");
    else if (s == "meshalphagloss")
        r = make(I::AlamoAlphaGloss, E, name + "AlphaGloss (sph_t0)");
    else if (s == "meshadditive")
        r = make(I::AlamoAdditive, E, name + "Additive (t0)");
    else if (s == "meshadditivevcolor")
        r = make(I::AlamoAdditiveVColor, E, name + "AdditiveVColor (t0)");
    else if (s == "meshadditiveoffset")
        r = make(I::AlamoAdditiveOffset, E, name + "AdditiveOffset (t0)");
    else if (s == "meshalphascroll")
        r = make(I::AlamoAlphaScroll, E, name + "AlphaScroll (sph_t1: fixed-function lighting, scrolled UV)");
    else if (s == "batchmeshgloss")
        r = make(I::AlamoGloss, E, "BatchMeshGloss (sph_t0)",
                 "as MeshGloss times the fog of war (FOW_TEXTURE), which is the map's: none on a model alone");
    else if (s == "batchmeshalpha")
        r = make(I::AlamoAlpha, E, "BatchMeshAlpha (sph_t0)",
                 "as MeshAlpha times the fog of war (FOW_TEXTURE), which is the map's: none on a model alone");
    else if (s == "terrainmeshbump")
        r = make(I::AlamoTerrainBump, E, "TerrainMeshBump (sph_t2)",
                 "cloud shadows (CLOUD_TEXTURE) and fog of war are the map's: none on a model alone");
    else if (s == "terrainmeshgloss")
        r = make(I::AlamoTerrainGloss, E, "TerrainMeshGloss (sph_t0)",
                 "cloud shadows (CLOUD_TEXTURE) and fog of war are the map's: none on a model alone");
    else if (s == "meshoccludedunit")
        r = make(I::AlamoOccludedUnit, E, name + "OccludedUnit (sph_t0)");
    else if (s == "grass")
        r = make(I::AlamoGrass, E, "Grass (sph_t0)",
                 "the wind (WIND_GRASS_PARAMS) and fog of war are the map's: on a model alone the .fx default, no "
                 "wind, so the blades sway in colour (Diffuse to Diffuse1 on the timeline) but do not bend");
    else if (s == "tree")
        r = make(I::AlamoTree, E, "Tree (sph_t1)",
                 "bent by WIND_BEND_VECTOR, the engine's wind: its .fx default (1, 0, 0, 0.01) on a model alone");
    else if (s == "nebula")
        r = make(I::AlamoNebula, E, "Nebula (t0)");
    else if (s == "meshsolidcolor")
        r = make(I::AlamoSolidColor, E, "MeshSolidColor (t0)");
    else if (s == "meshshield")
        r = make(I::AlamoShield, E, "MeshShield (distort_ps)");
    else if (s == "skydome")
        r = make(I::AlamoSkydome, E, "Skydome (sph_t0)");
    else if (s == "planet")
        r = make(I::AlamoPlanet, E, "Planet (bump_spec)");
    else if (s == "aldefault")
        r = make(I::AlamoDefault, F::Approximation, "alDefault as 2x diffuse (Gloss without specular)",
                 "alDefault.fx is built into the engine and its source is not public");
    else if (s == "meshshadowvolume" || s == "meshcollision" || s == "meshlightvisualize")
        r = make(I::Hidden, F::NotDrawn, "hidden",
                 "the game does not draw " + name +
                     (s == "meshshadowvolume" ? "ShadowVolume"
                      : s == "meshcollision"  ? "Collision"
                                              : "LightVisualize") +
                     " meshes");
    else if (s == "meshheat")
        r = make(I::AlamoHeat, F::Approximation, name + "Heat (t0) through a copy of the scene",
                 "the distortion texture and its alpha are the .fx's; the engine's full-screen pass that turns them "
                 "into a displacement is not in the public shaders: here (rg - 0.5) x 2 x alpha x 4% of the view");
    else
        r = make(I::Generic, F::Approximation, "generic lit", "no implementation of this shader's .fx formula");
    r.skinnedVariant = skinned;
    return r;
}

ShaderInfo shaderInfo(Format format, const Mesh& mesh, const Material& material) {
    if (format == Format::AlamoModel) {
        ShaderInfo r = alamoShaderInfo(material.shader);
        if (mesh.shadowOrCollision && r.impl != ShaderImpl::Hidden)
            r = make(ShaderImpl::Hidden, ShaderFidelity::NotDrawn, "hidden", "shadow or collision mesh");
        return r;
    }
    if (mesh.shadowOrCollision)
        return make(ShaderImpl::Hidden, ShaderFidelity::NotDrawn, "hidden", "shadow or collision mesh");
    if (format == Format::W3d)
        return make(ShaderImpl::Generic, ShaderFidelity::Approximation, "generic lit",
                    "W3D shader blend, alpha test, vertex-material lighting and texture mappers not emulated");
    return make(ShaderImpl::Generic, ShaderFidelity::Approximation, "generic lit",
                "the format's own shading not emulated");
}

const char* fidelityName(ShaderFidelity f) {
    switch (f) {
    case ShaderFidelity::EngineFormula:
        return "engine formula";
    case ShaderFidelity::Approximation:
        return "approximation";
    case ShaderFidelity::NotDrawn:
        return "not drawn";
    }
    return "approximation";
}

std::string fidelityText(const ShaderInfo& info) {
    std::string s = fidelityName(info.fidelity);
    if (!info.note.empty() && info.fidelity != ShaderFidelity::EngineFormula) s += ": " + info.note;
    return s;
}

} // namespace rs
