#include "fx_uniforms.h"

#include "w3d/w3d_mapper.h"

#include <algorithm>
#include <cmath>

namespace rs::render {

const char* alamoDefine(rs::ShaderImpl impl) {
    using I = rs::ShaderImpl;
    switch (impl) {
    case I::AlamoBumpColorize:
        return "BUMP_COLORIZE";
    case I::AlamoGloss:
        return "GLOSS";
    case I::AlamoGlossColorize:
        return "GLOSS_COLORIZE";
    case I::AlamoAlpha:
        return "ALPHA";
    case I::AlamoAdditive:
        return "ADDITIVE";
    case I::AlamoShield:
        return "SHIELD";
    case I::AlamoSkydome:
        return "SKYDOME";
    case I::AlamoPlanet:
        return "PLANET";
    case I::AlamoDefault:
        return "DEFAULT";
    case I::AlamoBumpReflectColorize:
        return "BUMP_REFLECT";
    case I::AlamoAlphaGloss:
        return "ALPHA_GLOSS";
    case I::AlamoAdditiveVColor:
        return "ADDITIVE_VCOLOR";
    case I::AlamoAdditiveOffset:
        return "ADDITIVE_OFFSET";
    case I::AlamoSolidColor:
        return "SOLID_COLOR";
    case I::AlamoAlphaScroll:
        return "ALPHA_SCROLL";
    case I::AlamoHeat:
        return "HEAT";
    case I::AlamoTerrainBump:
        return "TERRAIN_BUMP";
    case I::AlamoTerrainGloss:
        return "TERRAIN_GLOSS";
    case I::AlamoNebula:
        return "NEBULA";
    case I::AlamoTree:
        return "TREE";
    case I::AlamoGrass:
        return "GRASS";
    case I::AlamoOccludedUnit:
        return "OCCLUDED";
    default:
        return nullptr;
    }
}

// Render states of the .fx techniques: opaque shaders write depth (ZFunc LESSEQUAL); MeshAlpha(Gloss, Scroll) and
// Grass blend SRCALPHA/INVSRCALPHA, MeshAdditive(VColor, Offset), Nebula and MeshShield ONE/ONE, without depth
// writes; Skydome and MeshSolidColor are opaque without depth writes; MeshShield and Nebula draw both faces
// (CullMode NONE), and so does Grass (billboards turned half a turn for a camera on their front side: the .fx's turn
// is 180 degrees about Z there). MeshOccludedUnit: where the mesh is behind what is drawn (ZFunc GREATER),
// SRCALPHA/INVSRCALPHA, each pixel once. MeshHeat: no depth writes, replaces the pixel from the frame's copy.
FxStates alamoStates(rs::ShaderImpl impl) {
    using I = rs::ShaderImpl;
    FxStates s;
    switch (impl) {
    case I::AlamoAlpha:
    case I::AlamoAlphaGloss:
    case I::AlamoAlphaScroll:
    case I::AlamoGrass:
        s.blend = FxBlend::Alpha;
        s.depthWrite = false;
        break;
    case I::AlamoAdditive:
    case I::AlamoAdditiveVColor:
    case I::AlamoAdditiveOffset:
    case I::AlamoNebula:
    case I::AlamoShield:
        s.blend = FxBlend::Additive;
        s.depthWrite = false;
        break;
    case I::AlamoOccludedUnit:
        s.blend = FxBlend::Alpha;
        s.depthWrite = false;
        s.depthTest = FxDepthTest::Greater;
        s.stencilOnce = true;
        break;
    case I::AlamoHeat:
        s.depthWrite = false;
        s.readsFrame = true;
        break;
    case I::AlamoSkydome:
    case I::AlamoSolidColor:
        s.depthWrite = false;
        break;
    default:
        break;
    }
    s.twoSided = impl == I::AlamoShield || impl == I::AlamoNebula || impl == I::AlamoGrass;
    return s;
}

namespace {

// Whether the .fx formula doubles the base texture (the engine's 2x modulate: texture x lighting x 2, see
// glsl/alamo.vert). A missing base texture is then drawn with the half-grey stand-in, so that it shows the same
// neutral grey as elsewhere instead of saturating to white under a bright light.
bool alamoDoublesBase(rs::ShaderImpl impl) {
    using I = rs::ShaderImpl;
    switch (impl) {
    case I::AlamoBumpColorize:
    case I::AlamoBumpReflectColorize:
    case I::AlamoGloss:
    case I::AlamoGlossColorize:
    case I::AlamoAlpha:
    case I::AlamoAlphaGloss:
    case I::AlamoAlphaScroll:
    case I::AlamoDefault:
    case I::AlamoSkydome:
    case I::AlamoPlanet:
    case I::AlamoTerrainBump:
    case I::AlamoTerrainGloss:
    case I::AlamoTree:
    case I::AlamoGrass:
        return true;
    default:
        return false;
    }
}

struct Params {
    const rs::Material& m;
    // Alamo's lookup: the parameter by exact name; SAGE shader materials: by name, case-insensitive.
    bool anyCase = false;
    const rs::MaterialParam* find(const char* name) const {
        if (!anyCase) return m.find(name);
        for (const rs::MaterialParam& p : m.params)
            if (rs::iequals(p.name, name)) return &p;
        return nullptr;
    }
    glm::vec4 vec4(const char* name, glm::vec4 def) const {
        const rs::MaterialParam* p = find(name);
        if (!p) return def;
        if (p->type == rs::ParamType::Float3) return glm::vec4(glm::vec3(p->value), def.w);
        if (p->type == rs::ParamType::Float4) return p->value;
        return def;
    }
    float number(const char* name, float def) const {
        const rs::MaterialParam* p = find(name);
        if (!p) return def;
        if (anyCase && p->type == rs::ParamType::Int) return float(p->intValue);
        if (anyCase) return p->type == rs::ParamType::Texture ? def : p->value.x;
        return p->type == rs::ParamType::Float ? p->value.x : def;
    }
    std::string texture(std::initializer_list<const char*> names) const {
        for (const char* n : names)
            if (const rs::MaterialParam* p = find(n); p && p->type == rs::ParamType::Texture && !p->texture.empty())
                return p->texture;
        return {};
    }
};

void add(FxBinding& b, const char* name, float v) { b.uniforms.push_back({name, 1, glm::vec4(v, 0.0f, 0.0f, 0.0f)}); }
void add(FxBinding& b, const char* name, glm::vec2 v) { b.uniforms.push_back({name, 2, glm::vec4(v, 0.0f, 0.0f)}); }
void add(FxBinding& b, const char* name, glm::vec3 v) { b.uniforms.push_back({name, 3, glm::vec4(v, 0.0f)}); }
void add(FxBinding& b, const char* name, glm::vec4 v) { b.uniforms.push_back({name, 4, v}); }

void slot(FxBinding& b, const Params& p, const char* uniform, std::initializer_list<const char*> names, FxStandIn none,
          FxStandIn missing, bool base = false) {
    b.textures.push_back({uniform, *names.begin(), p.texture(names), none, missing, base});
    for (const char* n : names) // the parameter that named it, when another spelling did
        if (const rs::MaterialParam* mp = p.find(n); mp && mp->type == rs::ParamType::Texture && !mp->texture.empty()) {
            b.textures.back().parameter = mp->name;
            break;
        }
}

FxBinding alamoBinding(const rs::Mesh& mesh, const rs::Material& m, rs::ShaderImpl impl) {
    using I = rs::ShaderImpl;
    FxBinding b;
    b.program = "alamo";
    b.defines = {alamoDefine(impl)};
    b.doublesBase = alamoDoublesBase(impl);
    b.states = alamoStates(impl);
    const Params p{m};
    const bool heat = impl == I::AlamoHeat;
    // Textures bound by name; a texture named and not found: normal-like slots (and MeshHeat's distortion) flat,
    // the others clear.
    slot(b, p, "baseTexture", {"BaseTexture"}, FxStandIn::White, FxStandIn::Checker, true);
    slot(b, p, "normalTexture", {"NormalTexture"}, FxStandIn::FlatNormal, FxStandIn::FlatNormal);
    slot(b, p, "glossTexture", {"GlossTexture"}, FxStandIn::White, FxStandIn::Clear);
    slot(b, p, "cloudTexture", {"CloudTexture"}, FxStandIn::Clear, FxStandIn::Clear);
    slot(b, p, "cloudNormalTexture", {"CloudNormalTexture"}, FxStandIn::FlatNormal, FxStandIn::FlatNormal);
    slot(b, p, "waveTexture", {"WaveTexture"}, FxStandIn::White, FxStandIn::Clear);
    // MeshHeat without its distortion texture: the neutral value (0.5, 0.5) moves nothing.
    slot(b, p, "distortTexture", {"DistortionTexture"}, heat ? FxStandIn::FlatNormal : FxStandIn::Clear,
         heat ? FxStandIn::FlatNormal : FxStandIn::Clear);
    add(b, "mDiffuse", p.vec4("Diffuse", glm::vec4(1.0f)));
    add(b, "mSpecular", glm::vec3(p.vec4("Specular", glm::vec4(1.0f))));
    add(b, "mEmissive", glm::vec3(p.vec4("Emissive", glm::vec4(0.0f))));
    // Color: MeshSolidColor's .fx default is (0, 0, 1, 0.5), MeshOccludedUnit's (1, 0, 0, 0.5); the additive
    // shaders' is white.
    const glm::vec4 colorDefault = impl == I::AlamoSolidColor     ? glm::vec4(0, 0, 1, 0.5f)
                                   : impl == I::AlamoOccludedUnit ? glm::vec4(1, 0, 0, 0.5f)
                                                                  : glm::vec4(1.0f);
    glm::vec4 color = p.vec4("Color", colorDefault);
    if (mesh.colorize && m.find("Color") != nullptr) // FC_ mesh: the player's colour
        color = glm::vec4(-1.0f);
    add(b, "mColor", color);
    add(b, "mUVOffset", glm::vec2(p.vec4("UVOffset", glm::vec4(0.0f))));
    add(b, "mUVScrollRate", glm::vec2(p.vec4("UVScrollRate", glm::vec4(0.0f))));
    add(b, "mShieldUV",
        glm::vec4(p.number("BaseUVScale", 20.0f), p.number("WaveUVScale", 1.0f), p.number("DistortUVScale", 1.0f),
                  p.number("EdgeBrightness", 0.5f)));
    add(b, "mShieldScroll",
        glm::vec3(p.number("BaseUVScrollRate", 1.0f), p.number("WaveUVScrollRate", 1.0f),
                  p.number("DistortUVScrollRate", 1.0f)));
    add(b, "mCloud",
        glm::vec2(p.number("CloudScrollRate", 0.0025f),
                  p.number("CloudScale", impl == I::AlamoSkydome ? 0.0025f : 1.0f)));
    add(b, "mAtmosphere", p.vec4("Atmosphere", glm::vec4(0, 0, 0, 1)));
    add(b, "mAtmospherePower", p.number("AtmospherePower", 4.5f));
    add(b, "mBendScale", p.number("BendScale", 1.0f));
    add(b, "mDiffuse1", p.vec4("Diffuse1", glm::vec4(1.0f)));
    add(b, "mNebula",
        glm::vec3(p.number("SFreq", 0.002f), p.number("TFreq", 0.05f), p.number("DistortionScale", 25.0f)));
    add(b, "mCityColor", glm::vec3(p.vec4("CityColor", glm::vec4(1.0f))));
    return b;
}

FxBinding normalMapped(const rs::Material& m) {
    FxBinding b;
    b.program = "w3d_fx";
    const Params p{m, true};
    // A missing diffuse texture shows as the placeholder; a missing normal map as a flat one (lit as the surface).
    slot(b, p, "fxDiffuseTexture", {"DiffuseTexture", "Texture_0", "BaseTexture"}, FxStandIn::White, FxStandIn::Checker,
         true);
    slot(b, p, "fxNormalMap", {"NormalMap", "NormalTexture"}, FxStandIn::FlatNormal, FxStandIn::FlatNormal);
    // Defaults where a file leaves a constant out: the effect's neutral values (no bump scaling, white diffuse,
    // no ambient or specular term).
    add(b, "fxBumpScale", p.number("BumpScale", 1.0f));
    add(b, "fxAmbient", glm::vec3(p.vec4("AmbientColor", glm::vec4(0.0f))));
    add(b, "fxDiffuse", glm::vec3(p.vec4("DiffuseColor", glm::vec4(1.0f))));
    add(b, "fxSpecular", glm::vec3(p.vec4("SpecularColor", glm::vec4(0.0f))));
    add(b, "fxSpecularExponent", p.number("SpecularExponent", 1.0f));
    if (p.number("AlphaTestEnable", 0.0f) != 0.0f) b.defines.push_back("ALPHA_TEST");
    return b;
}

// C&C 3's Objects*.fx family (glsl/w3x_objects.vert). The variants that share an implementation are told apart by
// the effect's file name: ObjectsAlienIonHull.fx and ObjectsAlienBuildup.fx (OBJECTS_ALIEN with ION_HULL / BUILDUP),
// ObjectsGenericEnvMap.fx (ObjectsGeneric's constants; its cube is the material's, SPECIFY_CUSTOM_ENVMAP).
// kanesWrath: house colour as Kane's Wrath's Objects.fxh applies it (by the spec map's self-illumination channel);
// otherwise as C&C 3's compiled effects (RecolorTexture).
FxBinding objects(const rs::Material& m, rs::ShaderImpl impl, bool kanesWrath) {
    using I = rs::ShaderImpl;
    FxBinding b;
    b.program = "w3x_objects";
    const Params p{m, true};
    const bool ionHull = rs::iequals(m.shader, "w3d:fx:ObjectsAlienIonHull.fx");
    const bool buildup = rs::iequals(m.shader, "w3d:fx:ObjectsAlienBuildup.fx");
    slot(b, p, "obDiffuseTexture", {"DiffuseTexture", "Texture_0"}, FxStandIn::White, FxStandIn::Checker, true);
    slot(b, p, "obNormalMap", {"NormalMap"}, FxStandIn::FlatNormal, FxStandIn::FlatNormal);
    // A spec map named and not found is a black one (no specular, reflection or self-illumination); a house colour
    // or scrolling mask texture not found a clear one (no house colour).
    slot(b, p, "obSpecMap", {"SpecMap"}, FxStandIn::Clear, FxStandIn::Clear);
    const bool alien = impl == I::W3xObjectsAlien;
    // The alien effects always read their spec map (an unnamed one is black, as an unbound sampler in the game); so
    // does Kane's Wrath's GDI house colour.
    const bool gdi = impl == I::W3xObjectsGdi;
    if (!b.textures.back().texture.empty() || alien || (kanesWrath && gdi)) b.defines.push_back("SPECMAP");
    const bool nod = impl == I::W3xObjectsNod;
    if (alien) {
        // The reflection texture is the material's (2D); without it light 0 adds nothing (the effect multiplies it).
        slot(b, p, "obEnvironmentTexture", {"EnvironmentTexture"}, FxStandIn::Clear, FxStandIn::Clear);
        b.defines.push_back("OBJECTS_ALIEN");
        add(b, "obPulse", 1.0f); // AlienPulseFactor: the engine's, its declared default
        if (ionHull) {
            slot(b, p, "obIonHullTexture", {"IonHullTexture"}, FxStandIn::Clear, FxStandIn::Clear);
            b.defines.push_back("ION_HULL");
        }
        if (buildup) {
            // A build-up map not named or not found: white (alpha 1: built, no warp texels).
            slot(b, p, "obBuildUpMap", {"BuildUpMap"}, FxStandIn::White, FxStandIn::White);
            b.defines.push_back("BUILDUP");
            // OpacityOverride as the build-up fraction: the engine's; 1 (built) here, the desktop view replaces it
            // with its build-up control's (ViewOptions::buildFraction).
            add(b, "obBuildup", 1.0f);
        } else if (kanesWrath) {
            b.defines.push_back("HOUSE_SELFILLUM");
        } else {
            slot(b, p, "obRecolorTexture", {"RecolorTexture"}, FxStandIn::Clear, FxStandIn::Clear);
            if (!b.textures.back().texture.empty()) b.defines.push_back("RECOLOR");
        }
    } else if (nod) {
        slot(b, p, "obScrollTexture", {"ScrollingMaskTexture"}, FxStandIn::Clear, FxStandIn::Clear);
        b.defines.push_back("SCROLL_HOUSECOLOR");
    } else if (gdi && kanesWrath) {
        b.defines.push_back("HOUSE_SELFILLUM");
    } else if (gdi) {
        slot(b, p, "obRecolorTexture", {"RecolorTexture"}, FxStandIn::Clear, FxStandIn::Clear);
        if (!b.textures.back().texture.empty()) b.defines.push_back("RECOLOR");
    }
    // Objects.fxh's constants: fixed per faction (MATERIAL_PARAMS_GDI / _NOD), the file's for Generic (the effect's
    // own defaults where the file leaves one out).
    float bump = 1.5f, exponent = 50.0f;
    glm::vec3 ambient(0.3f), diffuse(0.996f, 0.98f, 0.906f), specular(1.0f);
    if (nod) diffuse = glm::vec3(0.584f, 0.624f, 0.733f);
    if (alien) {
        ambient = glm::vec3(1.0f);
        diffuse = glm::vec3(1.0f);
        specular = glm::vec3(0.788f, 0.761f, 1.0f);
        exponent = 15.0f;
    }
    if (impl == I::W3xObjectsGeneric) {
        bump = p.number("BumpScale", 1.0f);
        ambient = glm::vec3(p.vec4("AmbientColor", glm::vec4(0.4f)));
        diffuse = glm::vec3(p.vec4("DiffuseColor", glm::vec4(1.0f)));
        specular = glm::vec3(p.vec4("SpecularColor", glm::vec4(0.8f)));
        exponent = p.number("SpecularExponent", 50.0f);
    }
    add(b, "obBumpScale", bump);
    add(b, "obAmbient", ambient);
    add(b, "obDiffuse", diffuse);
    add(b, "obSpecular", specular);
    add(b, "obSpecularExponent", exponent);
    add(b, "obEnvMult", p.number("EnvMult", 1.0f));
    add(b, "obOpacity", 1.0f); // OpacityOverride: the engine's (fading objects); 1 for a model shown
    add(b, "obTexTransform", p.vec4("TexCoordTransform_0", glm::vec4(1.0f, 1.0f, 0.0f, 0.0f)));
    if (p.number("AlphaTestEnable", 0.0f) != 0.0f) b.defines.push_back("ALPHA_TEST");
    return b;
}

// C&C 3's BasicW3D.fxh (Infantry.fx, BasicW3D.fx, Tree.fx) and DefaultW3D.fxh (DefaultW3D.fx,
// DefaultW3DNoFogNoCloud.fx): glsl/w3x_basic.vert. Constants by the names the effects declare, their defaults where
// the file leaves one out; render states from BlendMode, DepthWriteEnable and CullingEnable.
FxBinding basic(const rs::Material& m, rs::ShaderImpl impl) {
    using I = rs::ShaderImpl;
    FxBinding b;
    b.program = "w3x_basic";
    const Params p{m, true};
    slot(b, p, "bwTexture0", {"Texture_0", "DiffuseTexture"}, FxStandIn::White, FxStandIn::Checker, true);
    if (rs::iequals(m.shader, "w3d:fx:Simple.fx")) {
        // Simple.fx: unlit, Texture_0 moved by TexCoordTransform_0 times ColorEmissive; AlphaBlendingEnable
        // (SRCALPHA/INVSRCALPHA) and DepthWriteEnable are its render states.
        b.defines.push_back("SIMPLE");
        add(b, "bwTransform0", p.vec4("TexCoordTransform_0", glm::vec4(1.0f, 1.0f, 0.0f, 0.0f)));
        add(b, "bwEmissive", glm::vec3(p.vec4("ColorEmissive", glm::vec4(1.0f))));
        add(b, "bwAmbient", glm::vec3(0.0f));
        add(b, "bwDiffuse", glm::vec3(0.0f));
        add(b, "bwSpecular", glm::vec3(0.0f));
        add(b, "bwShininess", 1.0f);
        add(b, "bwOpacity", 1.0f);
        b.states.blend = p.number("AlphaBlendingEnable", 0.0f) != 0.0f ? FxBlend::Alpha : FxBlend::None;
        b.states.depthWrite = p.number("DepthWriteEnable", 1.0f) != 0.0f;
        return b;
    }
    const bool defaultW3d = impl == I::W3xDefaultW3d;
    if (defaultW3d) {
        b.defines.push_back("DEFAULT_W3D");
        slot(b, p, "bwTexture1", {"Texture_1"}, FxStandIn::White, FxStandIn::Checker);
        if (p.number("UseRecolorColors", 0.0f) != 0.0f) b.defines.push_back("HOUSE_COLOR");
        add(b, "bwEdgeFadeOut", p.number("EdgeFadeOut", 0.0f));
        add(b, "bwNumTextures", float(std::clamp(int(p.number("NumTextures", 1.0f)), 0, 2)));
        add(b, "bwSecondaryMode", float(std::clamp(int(p.number("SecondaryTextureBlendMode", 0.0f)), 0, 3)));
        add(b, "bwMapper0", float(std::clamp(int(p.number("TexCoordMapper_0", 0.0f)), 0, 2)));
        add(b, "bwMapper1", float(std::clamp(int(p.number("TexCoordMapper_1", 0.0f)), 0, 1)));
        add(b, "bwTransform0", p.vec4("TexCoordTransform_0", glm::vec4(1.0f, 1.0f, 0.0f, 0.0f)));
        add(b, "bwTransform1", p.vec4("TexCoordTransform_1", glm::vec4(1.0f, 1.0f, 0.0f, 0.0f)));
        add(b, "bwVideo0",
            p.vec4("TextureAnimation_FPS_NumPerRow_LastFrame_FrameOffset_0", glm::vec4(0.0f, 1.0f, 1.0f, 0.0f)));
        add(b, "bwPulse", p.number("HouseColorPulse", 0.0f) != 0.0f ? 1.0f : 0.0f);
    } else if (impl == I::W3xInfantry && !p.texture({"RecolorTexture"}).empty()) {
        slot(b, p, "bwRecolorTexture", {"RecolorTexture"}, FxStandIn::Clear, FxStandIn::Clear);
        b.defines.push_back("RECOLOR");
    }
    if (impl == I::W3xTree) {
        b.defines.push_back("TREE_SWAY");
        add(b, "bwSway",
            glm::vec3(p.number("SwayStartHeight", 15.0f), p.number("SwayStartRadius", 5.0f),
                      p.number("SwayStrength", 1.0f)));
    }
    add(b, "bwAmbient", glm::vec3(p.vec4("ColorAmbient", glm::vec4(1.0f))));
    add(b, "bwDiffuse", glm::vec3(p.vec4("ColorDiffuse", glm::vec4(1.0f))));
    add(b, "bwSpecular", glm::vec3(p.vec4("ColorSpecular", glm::vec4(0.0f))));
    add(b, "bwEmissive", glm::vec3(p.vec4("ColorEmissive", glm::vec4(0.0f))));
    add(b, "bwShininess", p.number("Shininess", 1.0f));
    add(b, "bwOpacity", p.number("Opacity", 1.0f)); // times OpacityOverride: the engine's (fading); 1 for a model
    if (p.number("AlphaTestEnable", 0.0f) != 0.0f) b.defines.push_back("ALPHA_TEST");
    const int blendMode = int(p.number("BlendMode", 0.0f));
    b.states.blend = blendMode == 1 ? FxBlend::Alpha : blendMode == 2 ? FxBlend::Additive : FxBlend::None;
    b.states.depthWrite = p.number("DepthWriteEnable", 1.0f) != 0.0f;
    b.states.twoSided = p.number("CullingEnable", 1.0f) == 0.0f;
    if (defaultW3d) add(b, "bwBlendMode", float(std::clamp(blendMode, 0, 2)));
    return b;
}

// C&C 3's Tiberium.fx (glsl/w3x_tiberium.vert): constants by the names the effect declares, its defaults where the
// file leaves one out. A missing spec map is black (no specular or reflection), a missing glow texture clear.
FxBinding tiberium(const rs::Material& m) {
    FxBinding b;
    b.program = "w3x_tiberium";
    const Params p{m, true};
    slot(b, p, "tbDiffuseMap", {"DiffuseMap", "DiffuseTexture", "Texture_0"}, FxStandIn::White, FxStandIn::Checker,
         true);
    slot(b, p, "tbNormalMap", {"NormalMap"}, FxStandIn::FlatNormal, FxStandIn::FlatNormal);
    slot(b, p, "tbSpecMap", {"SpecMap"}, FxStandIn::Clear, FxStandIn::Clear);
    slot(b, p, "tbGlowTexture", {"TimeGlowTexture"}, FxStandIn::Clear, FxStandIn::Clear);
    add(b, "tbUvScale",
        glm::vec2(p.number("TexCoordTransform_Normal", 10.0f), p.number("TexCoordTransform_Spec", 10.0f)));
    add(b, "tbBumpScale", p.number("BumpScale", 1.0f));
    add(b, "tbAmbient", glm::vec3(p.vec4("AmbientColor", glm::vec4(0.4f))));
    add(b, "tbDiffuse", glm::vec3(p.vec4("DiffuseColor", glm::vec4(1.0f))));
    add(b, "tbSpecular", glm::vec3(p.vec4("SpecularColor", glm::vec4(0.8f))));
    add(b, "tbSpecularExponent", p.number("SpecularExponent", 50.0f));
    add(b, "tbSpecMult", p.number("SpecMult", 3.0f));
    add(b, "tbEnvMult", p.number("EnvMult", 1.0f));
    add(b, "tbGlowStrength", glm::vec3(p.vec4("TimeGlowStrength", glm::vec4(1.0f))));
    const glm::vec4 speed = p.vec4("TimeGlowSpeedRange", glm::vec4(1.0f, 0.2f, 0.0f, 0.0f));
    add(b, "tbGlow", glm::vec3(speed.x, speed.y, p.number("TimeGlowActiveRatio", 0.25f)));
    if (p.number("AlphaTestEnable", 0.0f) != 0.0f) b.defines.push_back("ALPHA_TEST");
    return b;
}

// C&C 3's effect shaders (glsl/w3x_effects.vert): AlienShield.fx, MuzzleFlash.fx, DistortingObject.fx and
// ShieldDistortion.fx, constants by the names the effects declare, their defaults where the file leaves one out;
// the render states of their techniques (Default_M, Additive_M).
FxBinding effects(const rs::Material& m, rs::ShaderImpl impl) {
    using I = rs::ShaderImpl;
    FxBinding b;
    b.program = "w3x_effects";
    const Params p{m, true};
    const glm::vec4 transform = p.vec4("TexCoordTransform_0", glm::vec4(1.0f, 1.0f, 0.0f, 0.0f));
    if (impl == I::W3xAlienShield) {
        b.defines.push_back("ALIEN_SHIELD");
        slot(b, p, "efTexture", {"DiffuseTexture", "Texture_0"}, FxStandIn::White, FxStandIn::Checker, true);
        slot(b, p, "efFalloffTexture", {"FalloffTexture"}, FxStandIn::White, FxStandIn::Checker);
        add(b, "efTransform", transform);
        add(b, "efFallOff", p.number("FallOff", 1.0f));
        add(b, "efPulse", p.number("HouseColorPulse", 0.0f) != 0.0f ? 1.0f : 0.0f);
        b.states.blend = FxBlend::Additive; // ONE / ONE
        b.states.depthWrite = false;
        b.states.twoSided = true; // CullMode NONE
    } else if (impl == I::W3xMuzzleFlash) {
        b.defines.push_back("MUZZLE_FLASH");
        slot(b, p, "efTexture", {"Texture_0", "DiffuseTexture"}, FxStandIn::White, FxStandIn::Checker, true);
        add(b, "efEmissive", glm::vec3(p.vec4("ColorEmissive", glm::vec4(1.0f))));
        add(b, "efAngle", p.number("TexCoordTransformAngle_0", 1.0f));
        add(b, "efPivot0", glm::vec2(p.number("TexCoordTransformU_0", 0.5f), p.number("TexCoordTransformV_0", 0.5f)));
        add(b, "efPivot1", glm::vec2(p.number("TexCoordTransformU_1", 0.5f), p.number("TexCoordTransformV_1", 0.5f)));
        add(b, "efPivot2", glm::vec2(p.number("TexCoordTransformU_2", 0.5f), p.number("TexCoordTransformV_2", 0.5f)));
        // Technique: TechniqueIndex 1 (Multiply_M) or 3 (_Multiply_L) multiplies into the frame, the others add
        // (the same rule as the shader registry's "drawn by").
        const rs::MaterialParam* technique = p.find("TechniqueIndex");
        const int t = technique && technique->type == rs::ParamType::Int ? technique->intValue : 0;
        b.states.blend = t == 1 || t == 3 ? FxBlend::Multiply : FxBlend::Additive; // DESTCOLOR/ZERO or ONE/ONE
        b.states.depthWrite = false;
        b.states.twoSided = true; // CullMode NONE
    } else {
        b.defines.push_back("DISTORTION");
        // A normal map not found moves nothing (the flat normal, alpha 1, has xy 0).
        slot(b, p, "efTexture", {"NormalMap"}, FxStandIn::FlatNormal, FxStandIn::FlatNormal);
        if (impl == I::W3xShieldDistortion) {
            b.defines.push_back("SHIELD_FALLOFF");
            slot(b, p, "efFalloffTexture", {"FalloffTexture"}, FxStandIn::White, FxStandIn::Clear);
            add(b, "efFallOff", p.number("FallOff", 1.0f));
        }
        add(b, "efTransform", transform);
        add(b, "efBumpScale", p.number("BumpScale", 1.0f));
        b.states.readsFrame = true; // the distortion buffer and PostFX_Distortion, in one pass over the frame copy
    }
    return b;
}

} // namespace

FxBinding fxBinding(const rs::Mesh& mesh, const rs::Material& material, rs::ShaderImpl impl, bool kanesWrath) {
    using I = rs::ShaderImpl;
    if (alamoDefine(impl) != nullptr) return alamoBinding(mesh, material, impl);
    if (impl == I::W3dNormalMapped) return normalMapped(material);
    if (impl == I::W3xObjectsGdi || impl == I::W3xObjectsNod || impl == I::W3xObjectsGeneric ||
        impl == I::W3xObjectsAlien)
        return objects(material, impl, kanesWrath);
    if (impl == I::W3xInfantry || impl == I::W3xTree || impl == I::W3xDefaultW3d) return basic(material, impl);
    if (impl == I::W3xTiberium) return tiberium(material);
    if (impl == I::W3xAlienShield || impl == I::W3xMuzzleFlash || impl == I::W3xDistortingObject ||
        impl == I::W3xShieldDistortion)
        return effects(material, impl);
    return {};
}

} // namespace rs::render

// --- W3D passes
// --------------------------------------------------------------------------------------------------------

namespace rs::render {

W3dVertexArrays w3dVertexArrays(const rs::SubMesh& sm) {
    W3dVertexArrays out;
    const size_t n = sm.positions.size();
    for (const rs::W3dPassState& ps : sm.material.w3dPasses)
        for (int src : ps.uvSource)
            if (src >= 0 && size_t(src) < sm.w3dUv.size() && sm.w3dUv[size_t(src)].size() == n && src != out.uvSel[0] &&
                out.uvSel[1] < 0)
                (out.uvSel[0] < 0 ? out.uvSel[0] : out.uvSel[1]) = src;
    const std::vector<glm::vec4>* dcg = nullptr;
    const std::vector<glm::vec4>* dig = nullptr;
    for (const auto& a : sm.w3dDcg)
        if (!dcg && a.size() == n) dcg = &a;
    for (const auto& a : sm.w3dDig)
        if (!dig && a.size() == n) dig = &a;
    if (dcg || dig) {
        out.color.assign(n, glm::vec4(1.0f));
        for (size_t v = 0; v < n; ++v) {
            if (dcg) out.color[v] = (*dcg)[v];
            if (dig) out.color[v] *= glm::vec4(glm::vec3((*dig)[v]), 1.0f);
        }
    }
    return out;
}

int w3dProgramKey(const rs::W3dShaderBits& b) {
    const int pri = b.priGradient <= 5 ? b.priGradient : 1;
    const int dc = b.postDetailColorFunc <= 12 ? b.postDetailColorFunc : 0;
    const int da = b.postDetailAlphaFunc <= 3 ? b.postDetailAlphaFunc : 0;
    return pri | (b.texturing ? 8 : 0) | (dc << 4) | (da << 8) | (b.alphaTest ? 1 << 10 : 0) |
           (b.secGradient ? 1 << 11 : 0);
}

std::vector<std::string> w3dDefines(int key) {
    std::vector<std::string> d;
    d.push_back("PRI " + std::to_string(key & 7));
    if (key & 8) d.push_back("TEXTURING");
    d.push_back("DCOLOR " + std::to_string((key >> 4) & 15));
    d.push_back("DALPHA " + std::to_string((key >> 8) & 3));
    if (key & (1 << 10)) d.push_back("ALPHA_TEST");
    if (key & (1 << 11)) d.push_back("SEC_GRADIENT");
    return d;
}

namespace {

// Mapper arguments packed for the vertex stage (w3d.vert mapStage).
void packMapper(const rs::W3dMapper& m, glm::vec4& a, glm::vec4& b, glm::vec4& c) {
    using T = rs::W3dMapperType;
    a = glm::vec4(m.scale.x, m.scale.y, 0, 0);
    b = glm::vec4(m.perSec.x, m.perSec.y, m.offset.x, m.offset.y);
    c = glm::vec4(m.clampFix ? 1.0f : 0.0f, m.bumpRotation, m.bumpScale, 0);
    const int w = 1 << (m.log2Width < 0 ? 0 : m.log2Width > 15 ? 15 : m.log2Width);
    const int last = m.last > 0 ? m.last : w * w;
    const float gridOffset = float(((m.frameOffset % last) + last) % last);
    switch (T(m.type)) {
    case T::Grid:
    case T::GridClassicEnv:
    case T::GridEnvironment:
    case T::GridWsClassicEnv:
    case T::GridWsEnvironment:
        a = glm::vec4(m.fps, float(m.log2Width), float(last), gridOffset);
        b = glm::vec4(float(m.axis), 0, 0, 0); // GridWS*: Axis
        break;
    case T::Rotate:
        b = glm::vec4(m.speed, m.center.x, m.center.y, 0);
        break;
    case T::SineLinearOffset:
        b = glm::vec4(m.uafp.x, m.uafp.y, m.uafp.z, 0);
        c = glm::vec4(m.vafp.x, m.vafp.y, m.vafp.z, 0);
        break;
    case T::StepLinearOffset:
        b = glm::vec4(m.step.x, m.step.y, m.sps, 0);
        break;
    case T::ZigzagLinearOffset:
        b = glm::vec4(m.perSec.x, m.perSec.y, std::abs(m.period), 0);
        break;
    case T::Random:
        b = glm::vec4(m.fps, m.perSec.x, m.perSec.y, 0);
        break;
    case T::WsClassicEnv:
    case T::WsEnvironment:
        a = glm::vec4(float(m.axis), 0, 0, 0);
        break;
    case T::Edge:
        a = glm::vec4(m.perSec.y, m.vStart, m.useReflect ? 1.0f : 0.0f, 0);
        break;
    default:
        break;
    }
}

} // namespace

std::vector<W3dPassBinding> w3dPassBindings(const rs::SubMesh& sm, const W3dVertexArrays& arrays) {
    const std::vector<rs::W3dPassState>& passes = sm.material.w3dPasses;
    std::vector<W3dPassBinding> out;
    const size_t n = std::min<size_t>(passes.size(), 4);
    for (size_t p = 0; p < n; ++p) {
        const rs::W3dPassState& ps = passes[p];
        W3dPassBinding b;
        b.programKey = w3dProgramKey(ps.shader);
        b.defines = w3dDefines(b.programKey);
        const rs::w3d::ColorRule rule = rs::w3d::colorRule(passes, p);
        b.lighting = rule.lighting;
        b.hasColor = rule.useColor;
        b.colorScale = rule.scale;
        b.diffuseFromColor = rule.diffuseFromColor;
        b.ambientFromColor = rule.ambientFromColor;
        b.diffuse = glm::vec4(ps.diffuse, ps.opacity);
        b.ambient = ps.ambient;
        b.specular = ps.specular;
        b.emissive = ps.emissive;
        b.shininess = ps.shininess;
        for (int st = 0; st < 2; ++st) {
            b.mapper[st] = ps.mappers[st].type;
            packMapper(ps.mappers[st], b.mapA[st], b.mapB[st], b.mapC[st]);
            b.uvSel[st] =
                ps.uvSource[st] >= 0 && ps.uvSource[st] == arrays.uvSel[1] && arrays.uvSel[1] != arrays.uvSel[0] ? 1
                                                                                                                 : 0;
            b.textures[st] = ps.textures[st];
        }
        // ShaderClass's blend tables (Generals): source zero/one/src-alpha/dest-colour, destination zero/one/
        // src-colour/inv-src-colour/src-alpha/inv-src-alpha; out-of-range values read as one/zero.
        const int src = ps.shader.srcBlend > 3 ? 1 : ps.shader.srcBlend;
        const int dst = ps.shader.destBlend > 5 ? 0 : ps.shader.destBlend;
        b.src = W3dSrcFactor(src);
        b.dst = W3dDstFactor(dst);
        b.blend = src != 1 || dst != 0;
        // The file's depth compare + 1 is the D3DCMPFUNC (0 never .. 7 always); out of range: less-equal.
        b.depthFunc = W3dDepthFunc(ps.shader.depthCompare > 7 ? 3 : ps.shader.depthCompare);
        b.depthWrite = ps.shader.depthMask != 0;
        out.push_back(std::move(b));
    }
    return out;
}

std::string envCubeTexture(const rs::Material& material, rs::ShaderImpl impl) {
    if (impl != rs::ShaderImpl::W3xObjectsGeneric || !rs::iequals(material.shader, "w3d:fx:ObjectsGenericEnvMap.fx"))
        return {};
    for (const rs::MaterialParam& p : material.params)
        if (rs::iequals(p.name, "EnvironmentTexture") && p.type == rs::ParamType::Texture && !p.texture.empty())
            return p.texture;
    return {};
}

} // namespace rs::render
