#include "formats/shader_registry.h"

#include "formats/formats.h"
#include "scene/model.h"
#include "w3d/w3d_mapper.h"

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

const std::vector<std::string>& alamoShaderNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        // "Mesh" stems whose implementation is named after the spelling (RSkin<X> is the skinned variant).
        for (const char* x : {"BumpColorize", "BumpReflectColorize", "Gloss", "GlossColorize", "Alpha", "AlphaGloss",
                              "Additive", "AdditiveVColor", "AdditiveOffset", "AlphaScroll", "OccludedUnit", "Heat",
                              "ShadowVolume", "Collision", "LightVisualize"})
            for (const char* prefix : {"Mesh", "RSkin"})
                n.push_back(std::string(prefix) + x + ".fx");
        for (const char* x : {"MeshSolidColor", "MeshShield", "BatchMeshGloss", "BatchMeshAlpha", "TerrainMeshBump",
                              "TerrainMeshGloss", "Grass", "Tree", "Nebula", "Skydome", "Planet", "alDefault"})
            n.push_back(std::string(x) + ".fx");
        return n;
    }();
    return names;
}

bool isStockAlamoShader(const std::string& shaderName) {
    std::string s = toLower(shaderName);
    if (const size_t dot = s.rfind('.');
        dot != std::string::npos && s.find('/', dot) == std::string::npos && s.find('\\', dot) == std::string::npos)
        s.resize(dot);
    if (s.empty()) return false;
    if (alamoShaderInfo(s + ".fx").impl != ShaderImpl::Generic) return true;
    // The Blender ALAMO plugin's shaders that alamoShaderInfo draws with the generic program.
    for (const char* x : {"meshbumpcolorizevertex", "meshbumpcolorizedetail", "meshbumplight", "lightproxy"})
        if (s == x) return true;
    return false;
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
    if (format == Format::W3d || format == Format::W3x) { // W3X: W3D's structures (FXShader as shader material)
        ShaderInfo r = w3dShaderInfo(material);
        const bool objects = r.impl == ShaderImpl::W3xObjectsGdi || r.impl == ShaderImpl::W3xObjectsNod ||
                             r.impl == ShaderImpl::W3xObjectsGeneric || r.impl == ShaderImpl::W3xObjectsAlien ||
                             r.impl == ShaderImpl::W3xTiberium || r.impl == ShaderImpl::W3xDistortingObject ||
                             r.impl == ShaderImpl::W3xShieldDistortion;
        if (r.impl == ShaderImpl::W3dNormalMapped || objects) {
            bool stored = true;
            for (const SubMesh& sm : mesh.subMeshes)
                if (&sm.material == &material || sm.material.shader == material.shader)
                    stored = stored && sm.tangents.size() == sm.positions.size() &&
                             sm.binormals.size() == sm.positions.size();
            if (!stored) {
                r.fidelity = ShaderFidelity::Approximation;
                r.implementation += ", tangent frame derived from the UVs";
                r.note = (r.note.empty() ? std::string() : r.note + "; ") +
                         "the file stores no tangent frame (W3D chunks 0x60/0x61, W3X Tangents/Binormals): derived "
                         "from the UVs as the SAGE tools write it (tangent = -dP/dv, binormal = dP/du)";
            }
        }
        return r;
    }
    return make(ShaderImpl::Generic, ShaderFidelity::Approximation, "generic lit",
                "the format's own shading not emulated");
}

ShaderInfo w3dShaderInfo(const Material& material) {
    const std::vector<W3dPassState>& passes = material.w3dPasses;
    if (passes.empty()) {
        if (iequals(material.shader, "w3d:fx:NormalMapped.fx"))
            return make(ShaderImpl::W3dNormalMapped, ShaderFidelity::EngineFormula,
                        "NormalMapped.fx (per-pixel dot3 lighting in the file's tangent frame)");
        // C&C 3's object shaders: Objects.fxh's technique Default (render/glsl/w3x_objects.vert). What a model shown
        // alone lacks (the map's environment cube, clouds, shadows, shroud, fog) is stood in for, and said.
        static const char* const kMapInputs =
            "the map's environment cube is the scene ambient colour in every direction; no cloud layer, shadow map, "
            "shroud or fog (the map's)";
        if (iequals(material.shader, "w3d:fx:ObjectsGDI.fx"))
            return make(ShaderImpl::W3xObjectsGdi, ShaderFidelity::EngineFormula,
                        "ObjectsGDI.fx (Objects.fxh: dot3 lights 0-1 per pixel, light 2 per vertex, spec map, house "
                        "colour texture)",
                        kMapInputs);
        if (iequals(material.shader, "w3d:fx:ObjectsNOD.fx"))
            return make(ShaderImpl::W3xObjectsNod, ShaderFidelity::EngineFormula,
                        "ObjectsNOD.fx (Objects.fxh: dot3 lights 0-1 per pixel, light 2 per vertex, spec map, "
                        "scrolling house colour)",
                        kMapInputs);
        if (iequals(material.shader, "w3d:fx:ObjectsGeneric.fx"))
            return make(ShaderImpl::W3xObjectsGeneric, ShaderFidelity::EngineFormula,
                        "ObjectsGeneric.fx (Objects.fxh: dot3 lights 0-1 per pixel, light 2 per vertex, spec map)",
                        kMapInputs);
        if (iequals(material.shader, "w3d:fx:ObjectsGenericEnvMap.fx")) {
            // SPECIFY_CUSTOM_ENVMAP: the cube is the material's EnvironmentTexture, not the map's. The view loads it
            // (a DDS cube map); one not found or not a cube is listed with the textures and the ambient stands in.
            const MaterialParam* env = nullptr;
            for (const MaterialParam& p : material.params)
                if (iequals(p.name, "EnvironmentTexture") && p.type == ParamType::Texture && !p.texture.empty())
                    env = &p;
            const std::string what =
                "ObjectsGenericEnvMap.fx (Objects.fxh SPECIFY_CUSTOM_ENVMAP: dot3 lights 0-1 per pixel, light 2 per "
                "vertex, spec map, reflection of the material's cube at -reflect(eye, normal + bump / 2))";
            if (!env)
                return make(ShaderImpl::W3xObjectsGeneric, ShaderFidelity::Approximation, what,
                            "the material names no EnvironmentTexture cube: the scene ambient colour in every "
                            "direction stands in; no cloud layer, shadow map, shroud or fog (the map's)");
            return make(ShaderImpl::W3xObjectsGeneric, ShaderFidelity::EngineFormula, what,
                        "the cube is the material's " + env->texture +
                            " (a DDS cube map, on the desktop and the web page; if it is not found or not a cube, "
                            "the scene ambient colour in every direction stands in and the desktop's Textures list "
                            "says why); no cloud layer, shadow map, shroud or fog (the map's)");
        }
        // The alien family: house colour as C&C 3's compiled effects apply it (RecolorTexture x RecolorColor x
        // AlienPulseFactor); with Kane's Wrath mounted the view applies KW's (spec.z x RecolorColor x pulse).
        static const char* const kAlienInputs =
            "AlienPulseFactor is set by the engine and not in the public sources: 1, its declared default (no "
            "pulse); house colour: C&C 3's compiled effects sample RecolorTexture (RecolorTexture x RecolorColor x "
            "pulse, the dump's earlier line), Kane's Wrath's Objects.fxh uses the spec map's z instead (applied when "
            "Kane's Wrath is mounted); no cloud layer, shadow map, shroud or fog (the map's)";
        if (iequals(material.shader, "w3d:fx:ObjectsAlien.fx"))
            return make(ShaderImpl::W3xObjectsAlien, ShaderFidelity::Approximation,
                        "ObjectsAlien.fx (Objects.fxh OBJECTS_ALIEN: dot3 lights 0-1 per pixel, light 2 per vertex, "
                        "spec map, scrolled reflection texture, pulsing house colour)",
                        kAlienInputs);
        if (iequals(material.shader, "w3d:fx:ObjectsAlienIonHull.fx"))
            return make(ShaderImpl::W3xObjectsAlien, ShaderFidelity::Approximation,
                        "ObjectsAlienIonHull.fx (Objects.fxh OBJECTS_ALIEN + SUPPORT_IONHULL: the alien formula with "
                        "the reflection x 12 and no spec mask, plus IonHullTexture(uv + Time/5) x IonHullTexture(2 uv "
                        "+ Time/5) x 3)",
                        kAlienInputs);
        if (iequals(material.shader, "w3d:fx:ObjectsAlienBuildup.fx"))
            return make(ShaderImpl::W3xObjectsAlien, ShaderFidelity::Approximation,
                        "ObjectsAlienBuildup.fx (Objects.fxh OBJECTS_ALIEN + SUPPORT_BUILDUP: the alien formula "
                        "without house colour; BuildUpMap alpha at UV set 2 x build fraction: at or below 0.25 the "
                        "warp BuildUpMap(3 uv + Time/5) is added, below 0.21 clipped)",
                        "the build fraction (OpacityOverride) is the engine's while the structure builds: the view's "
                        "\"Built\" control stands in (Scene panel, --build-fraction; 100 %, built, by default); a "
                        "mesh without a second UV set reads the fade at the first; AlienPulseFactor unused; no cloud "
                        "layer, shadow map, shroud or fog (the map's)");
        if (iequals(material.shader, "w3d:fx:Tiberium.fx"))
            return make(ShaderImpl::W3xTiberium, ShaderFidelity::EngineFormula,
                        "Tiberium.fx (technique Default_U: dot3 lights per pixel, spec map, crystal glow on the "
                        "timeline)",
                        "the material's EnvMap cube is not loaded: the scene ambient colour in every direction; no "
                        "cloud layer, shadow map, shroud or fog (the map's); the point light off; a mesh without "
                        "vertex colours is white");
        // C&C 3's effect shaders (render/glsl/w3x_effects.vert): unlit, each by its own formula.
        if (iequals(material.shader, "w3d:fx:AlienShield.fx"))
            return make(ShaderImpl::W3xAlienShield, ShaderFidelity::EngineFormula,
                        "AlienShield.fx (technique Default_M: house tint x edge falloff texture at pow(1 - N.E, "
                        "FallOff) x DiffuseTexture at UV0 and at UV1 = 2 x the counter-scrolled UV x 4, added)",
                        "no fog (the map's); OpacityOverride 1; RecolorColor is the view's faction colour");
        if (iequals(material.shader, "w3d:fx:MuzzleFlash.fx")) {
            // The SDK binary's techniques: 0 Additive_M, 1 Multiply_M, 2 _Additive_L, 3 _Multiply_L (the low-detail
            // ones differ only in leaving fog out, which a model shown alone has off anyway).
            const MaterialParam* tp = material.find("TechniqueIndex");
            const int technique = tp && tp->type == ParamType::Int ? tp->intValue : 0;
            const bool multiply = technique == 1 || technique == 3;
            static const char* const kNames[] = {"Additive_M", "Multiply_M", "_Additive_L", "_Multiply_L"};
            const std::string name = technique >= 0 && technique < 4 ? kNames[technique] : "Additive_M";
            ShaderInfo r = make(ShaderImpl::W3xMuzzleFlash, ShaderFidelity::EngineFormula,
                                "MuzzleFlash.fx (technique " + name +
                                    ": vertex colour x ColorEmissive x Texture_0 at the UV turned by "
                                    "TexCoordTransformAngle_0 x Time about the pivot the vertex alpha picks and at "
                                    "the UV turned back, " +
                                    (multiply ? "multiplied into the frame (DESTCOLOR/ZERO))" : "added (ONE/ONE))"),
                                "no fog or shroud (the map's); a mesh without vertex colours is white (alpha 1: no "
                                "rotation)");
            if (technique < 0 || technique > 3) {
                r.fidelity = ShaderFidelity::Approximation;
                r.note = "TechniqueIndex " + std::to_string(technique) +
                         " is not one of the SDK effect's four techniques: drawn by its first, Additive_M; " + r.note;
            }
            return r;
        }
        if (iequals(material.shader, "w3d:fx:DistortingObject.fx") ||
            iequals(material.shader, "w3d:fx:ShieldDistortion.fx")) {
            const bool shield = iequals(material.shader, "w3d:fx:ShieldDistortion.fx");
            return make(shield ? ShaderImpl::W3xShieldDistortion : ShaderImpl::W3xDistortingObject,
                        ShaderFidelity::Approximation,
                        std::string(shield ? "ShieldDistortion.fx" : "DistortingObject.fx") +
                            " (the view-space normal map written to the distortion buffer" +
                            (shield ? " with alpha x edge falloff x FalloffTexture" : "") +
                            ", then PostFX_Distortion: the frame behind moved by alpha x normal.xy x 0.08)",
                        "drawn in one pass over the copy of the frame after everything else (the heat pass), not "
                        "through a separate distortion buffer: overlapping distorters each move the frame as drawn "
                        "before them instead of adding up in the buffer, and the buffer's 8-bit rounding (PostFX's "
                        "1/255 correction) is not reproduced; no shroud (the map's); OpacityOverride 1");
        }
        // C&C 3's per-vertex lit shaders: BasicW3D.fxh (Infantry.fx with house colour, BasicW3D.fx, Tree.fx with the
        // sway) and DefaultW3D.fxh (render/glsl/w3x_basic.vert). A W3X mesh without an <FXShader> is DefaultW3D.fx.
        static const char* const kBasicMapInputs =
            "no cloud layer, shadow map, shroud or fog (the map's); the point light off (the effect's default); a "
            "mesh without vertex colours is white";
        if (iequals(material.shader, "w3d:fx:Infantry.fx") || iequals(material.shader, "w3d:fx:BasicW3D.fx")) {
            const bool infantry = iequals(material.shader, "w3d:fx:Infantry.fx");
            return make(ShaderImpl::W3xInfantry, ShaderFidelity::EngineFormula,
                        std::string(infantry ? "Infantry.fx" : "BasicW3D.fx") +
                            " (BasicW3D.fxh: three lights per vertex, one texture" +
                            (infantry ? ", house colour by RecolorTexture)" : ")"),
                        kBasicMapInputs);
        }
        if (iequals(material.shader, "w3d:fx:Simple.fx"))
            return make(ShaderImpl::W3xDefaultW3d, ShaderFidelity::EngineFormula,
                        "Simple.fx (technique Default: unlit, Texture_0 at uv x TexCoordTransform_0.xy + Time x .zw, "
                        "Time in seconds, times ColorEmissive; AlphaBlendingEnable, DepthWriteEnable)",
                        "fog off (WW3D.Fog is the map's); Time is the timeline's");
        if (iequals(material.shader, "w3d:fx:Tree.fx"))
            return make(ShaderImpl::W3xTree, ShaderFidelity::EngineFormula,
                        "Tree.fx (BasicW3D.fxh: three lights per vertex, one texture, swaying above SwayStartHeight on "
                        "the timeline)",
                        kBasicMapInputs);
        if (iequals(material.shader, "w3d:fx:DefaultW3D.fx") ||
            iequals(material.shader, "w3d:fx:DefaultW3DNoFogNoCloud.fx")) {
            ShaderInfo r = make(ShaderImpl::W3xDefaultW3d, ShaderFidelity::EngineFormula,
                                material.shader.substr(7) +
                                    " (DefaultW3D.fxh: three lights per vertex, up to two textures, UV mappers, edge "
                                    "fade, house colour)",
                                kBasicMapInputs);
            // The sampler flags (clamp U/V, no mipmaps) are render states the view does not vary per material.
            for (const char* flags : {"Sampler_ClampU_ClampV_NoMip_0", "Sampler_ClampU_ClampV_NoMip_1"})
                if (const MaterialParam* p = material.find(flags);
                    p && (p->value.x > 0.5f || p->value.y > 0.5f || p->value.z > 0.5f)) {
                    r.fidelity = ShaderFidelity::Approximation;
                    r.note = std::string(flags) +
                             " asks for clamped or unmipmapped sampling: drawn wrapped and "
                             "mipmapped; " +
                             r.note;
                    break;
                }
            return r;
        }
        // WaterShader.fx is the map's water, drawn by the engine's WaterDraw over its own water grid: the vertex
        // shader reads the normal's z as the terrain height under the water (alpha from the depth), takes the UVs
        // from world x, y / 600, and the SDK binary binds the reflection render (WaterDraw.ReflectionTexture), the
        // depth-fade settings (WaterDraw.TransparentWaterDepth, MinWaterOpacity, BlendUsingTerrainAlpha), the PCA
        // waves (WaterDraw.PCAWater) and the sky cube (Terrain.EnvironmentTexture) from the map. A mesh's normals
        // would be read as depths, so no mesh of a model is drawn by it.
        if (iequals(material.shader, "w3d:fx:WaterShader.fx"))
            return make(ShaderImpl::Generic, ShaderFidelity::Approximation, "generic lit",
                        "WaterShader.fx is the map's water (WaterDraw): its vertex shader reads the normal's z as the "
                        "terrain height under the water and takes its UVs from world x, y / 600, and its reflection "
                        "render, depth fade, PCA waves and sky cube are bound to the map (WaterDraw.*, "
                        "Terrain.EnvironmentTexture); a model's mesh gives none of these, so it is drawn by the "
                        "generic lit program");
        if (istartsWith(material.shader, "w3d:fx:"))
            return make(ShaderImpl::Generic, ShaderFidelity::Approximation, "generic lit",
                        "shader material " + material.shader.substr(7) + ": its .fx formula is not emulated");
        return make(ShaderImpl::Generic, ShaderFidelity::Approximation, "generic lit",
                    "no W3D material pass in the file");
    }
    std::string impl = "ww3d2 " + std::to_string(passes.size()) + (passes.size() == 1 ? " pass" : " passes");
    std::vector<std::string> notes;
    auto note = [&](const std::string& n) {
        for (const std::string& x : notes)
            if (x == n) return;
        notes.push_back(n);
    };
    for (size_t p = 0; p < passes.size(); ++p) {
        const W3dPassState& s = passes[p];
        const W3dShaderBits& b = s.shader;
        impl += p == 0 ? " (" : "; ";
        static const char* const src[] = {"zero", "one", "srcalpha", "destcolor"};
        static const char* const dst[] = {"zero", "one", "srccolor", "invsrccolor", "srcalpha", "invsrcalpha"};
        impl += std::string(b.srcBlend < 4 ? src[b.srcBlend] : "?") + "/" + (b.destBlend < 6 ? dst[b.destBlend] : "?");
        if (b.alphaTest) impl += " alphatest";
        for (int st = 0; st < 2; ++st) {
            const int t = s.mappers[st].type;
            if (t != 0 && (st == 0 || b.postDetailColorFunc || b.postDetailAlphaFunc))
                impl += std::string(" ") + (st == 0 ? "s0:" : "s1:") +
                        (t >= 0 && t <= 20 ? std::string(w3d::mapperName(t)) : "mapper" + std::to_string(t));
        }
        if (b.srcBlend > 3 || b.destBlend > 5) note("blend function out of range (drawn as one/zero)");
        if (b.priGradient == 3 || b.priGradient == 4)
            note("bump environment mapping reads the du/dv texture as unsigned (texture formats are decoded to RGBA)");
        if (b.priGradient > 5 || b.postDetailColorFunc > 12 || b.postDetailAlphaFunc > 3)
            note("texture stage function out of range (treated as disabled)");
        for (int st = 0; st < 2; ++st) {
            const int t = s.mappers[st].type;
            if (t == 16) note("Random mapper: ww3d2's random angles and centres come from its own generator");
            if (t == 5) note("Silhouette mapper: not supported by ww3d2 either (plain UVs)");
            if (t > 20) note("unknown mapper type " + std::to_string(t) + " (plain UVs)");
        }
    }
    impl += ")";
    if (passes.size() > 4) note("passes beyond the fourth are not drawn");
    if (notes.empty()) return make(ShaderImpl::W3d, ShaderFidelity::EngineFormula, impl);
    std::string n;
    for (const std::string& x : notes)
        n += (n.empty() ? "" : "; ") + x;
    return make(ShaderImpl::W3d, ShaderFidelity::Approximation, impl, n);
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
