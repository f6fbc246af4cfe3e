// GLSL of Command & Conquer 3's object shaders (the SDK's compiled Plugins/3DSMax7_Plugin/maps/fx/CnC3/ObjectsGDI.fx,
// ObjectsNOD.fx, ObjectsGeneric.fx: one source, Objects.fxh, with per-faction switches), in GLSL shared by OpenGL 3.3
// and WebGL2 (render/glsl/README.md). The formula is the effect's technique Default, pass p0 (vs_2_0/ps_2_0), as the
// public dump of the game's effect sources states it (Objects.fxh, read for facts only; nothing copied):
//  - per vertex: the frame (x, y, z) = (-binormal, -tangent, normal); the directions towards lights 0 and 1 in that
//    frame; H = normalize((towards light 0 + towards the eye) in the frame), interpolated, not renormalised;
//    COLOR0 = (AmbientLightColor * AmbientColor + light 2's colour * max(0, N.L2) * DiffuseColor, OpacityOverride)
//    / 2, clamped to [0, 1] as a vs_2_0 colour output is (the / 2 and the pixel stage's * 2 keep the range);
//  - per pixel: n = normalize(NormalMap * 2 - 1 with xy * BumpScale); colour = COLOR0 * DiffuseTexture * 2;
//    with a SpecMap (x specular mask, y reflection mask, z self-illumination): the reflection
//    EnvMult * env(-reflect(eye, normalize(vertex normal + n / 2))) * y * SpecularColor added, the specular colour
//    3 * SpecularColor * x; light 0 adds its colour * (texture * DiffuseColor * lit.y + specular colour * lit.z) and
//    light 1 its colour * texture * DiffuseColor * lit.y, lit = HLSL lit(n.L, n.H, SpecularExponent); then the
//    self-illumination mix towards the texture by z, and house colour: lerp(colour, RecolorTexture.rgb *
//    RecolorColor, RecolorTexture.a). NOD (SCROLL_HOUSECOLOR) instead adds z * ScrollingMaskTexture.x (at the UV
//    moved by TexCoordTransform_0: scale xy, scroll zw per second) * RecolorColor * 3.
//  - the faction constants: GDI BumpScale 1.5, AmbientColor 0.3, DiffuseColor (0.996, 0.98, 0.906), SpecularColor 1,
//    SpecularExponent 50; NOD the same with DiffuseColor (0.584, 0.624, 0.733); Generic the file's values.
// What is the map's and not the model's (a model shown alone): the cloud layer (white: no cloud), shadow map (none),
// shroud and fog (off), and the environment cube, which is the map's sky: taken here as the scene's ambient colour
// in every direction. The game's three directional lights and ambient are the view's light rig (lightPosition and
// lightColor 0..2, ambientColor), RecolorColor the view's faction colour.
//
// ObjectsAlien.fx (OBJECTS_ALIEN, as the dump's Kane's Wrath Objects.fxh states it): constants BumpScale 1.5,
// AmbientColor 1, DiffuseColor 1, SpecularColor (0.788, 0.761, 1), SpecularExponent 15; the reflection is the
// material's 2D EnvironmentTexture at (r.y + Time / 5, the same), r = -reflect(eye, normalize(vertex normal + n)),
// times EnvMult * spec.y * SpecularColor * 6, and it multiplies light 0's term instead of being added; no
// self-illumination mix: house colour adds spec.z * RecolorColor * AlienPulseFactor (the engine's; 1, its declared
// default, here).
//
// ObjectsAlienIonHull.fx (ION_HULL, with OBJECTS_ALIEN): the reflection is times spec.y * SpecularColor * 12 (no
// EnvMult) and the specular colour stays SpecularColor (no spec.x mask); after the lights it adds
// IonHullTexture(uv + Time / 5) * IonHullTexture(uv * 2 + Time / 5) * 3 (engine UVs).
// ObjectsAlienBuildup.fx (BUILDUP, with OBJECTS_ALIEN, no house colour: the compiled effect has no RecolorColor):
// OpacityOverride is the build-up fraction (the vertex alpha is 1); threshold = BuildUpMap(TEXCOORD1).a *
// fraction; where threshold <= 0.25 it adds BuildUpMap(uv * 3 + Time / 5).rgb (the warp), below 0.21 the pixel is
// clipped. The fraction is the engine's (obBuildup; 1, built, for a model shown alone).
// House colour (C&C 3, as the SDK's compiled Objects*.fx sample RecolorTexture): GDI/Generic lerp(colour,
// RecolorTexture.rgb * RecolorColor, RecolorTexture.a); the aliens add RecolorTexture.rgb * RecolorColor *
// AlienPulseFactor. Kane's Wrath (HOUSE_SELFILLUM: the dump's Objects.fxh, which no longer reads RecolorTexture):
// lerp(colour, RecolorColor, spec.z) after the self-illumination mix; the aliens add RecolorColor * spec.z * pulse.
//
// ObjectsGenericEnvMap.fx (ENV_CUBE, with SPECMAP; Objects.fxh SPECIFY_CUSTOM_ENVMAP): Generic's formula with the
// reflection from the material's own cube (EnvironmentTexture, a DDS cube map) at -reflect(eye, normalize(vertex
// normal + bump / 2)) instead of the map's; without the cube loaded the ambient stand-in above.
//
// Compile-time switches (prepended): ENV_CUBE, ION_HULL, BUILDUP, HOUSE_SELFILLUM, SPECMAP (the material names a SpecMap), RECOLOR (a RecolorTexture),
// SCROLL_HOUSECOLOR (ObjectsNOD.fx), OBJECTS_ALIEN (ObjectsAlien.fx, with SPECMAP), ALPHA_TEST (AlphaTestEnable:
// alpha below 0x60 / 255 cut).
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec2 vertexTexCoord;
#ifdef BUILDUP
in vec2 vertexTexCoord1; // BuildupTexCoord (TEXCOORD1)
uniform int hasTexCoord1; // 0: no second UV set (the first stands in)
out vec2 vUv1;
#endif
in vec3 vertexTangent;
in vec3 vertexBinormal;
in vec4 boneWeight;
in uvec4 boneIndex;
in vec3 vertexPosition2;
in vec3 vertexNormal2;

layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform int skinMode;
uniform int rigidSlot;
uniform mat4 viewProjectionMatrix;
uniform vec3 eyePosition;
uniform vec4 lightPosition[4];
uniform vec4 lightColor[4];
uniform int rigLightCount;
uniform vec3 ambientColor;  // AmbientLightColor
uniform vec3 obAmbient;     // AmbientColor
uniform vec3 obDiffuse;     // DiffuseColor
uniform float obOpacity;    // OpacityOverride

out vec2 vUv;
out vec3 vL0;    // towards light 0 in the frame
out vec3 vL1;    // towards light 1 in the frame
out vec3 vH;     // unit half vector of light 0 and the eye in the frame
out vec4 vColor; // COLOR0
#if defined(OBJECTS_ALIEN) || defined(ENV_CUBE)
out vec3 vWorldNormal; // the vertex normal (world)
out vec3 vEye;         // towards the eye (world, unit at the vertex)
#endif

vec3 towardLight(int i, vec3 P) {
    if (i >= rigLightCount) return vec3(0.0, 0.0, 1.0); // unused lights are black: their direction does not matter
    return lightPosition[i].w == 0.0 ? -normalize(lightPosition[i].xyz) : normalize(lightPosition[i].xyz - P);
}

void main() {
    vec4 p;
    mat3 r;
    vec3 n;
    if (skinMode == 0) {
        mat4 m = bones[rigidSlot];
        p = m * vec4(vertexPosition, 1.0);
        r = mat3(m);
        n = r * vertexNormal;
    } else if (skinMode == 2) {
        mat4 m0 = bones[boneIndex.x];
        mat4 m1 = bones[boneIndex.y];
        p = boneWeight.x * (m0 * vec4(vertexPosition, 1.0)) + boneWeight.y * (m1 * vec4(vertexPosition2, 1.0));
        n = boneWeight.x * (mat3(m0) * vertexNormal) + boneWeight.y * (mat3(m1) * vertexNormal2);
        r = boneWeight.x * mat3(m0) + boneWeight.y * mat3(m1);
    } else {
        mat4 m = bones[boneIndex.x] * boneWeight.x;
        if (boneWeight.y > 0.0) m += bones[boneIndex.y] * boneWeight.y;
        if (boneWeight.z > 0.0) m += bones[boneIndex.z] * boneWeight.z;
        if (boneWeight.w > 0.0) m += bones[boneIndex.w] * boneWeight.w;
        p = m * vec4(vertexPosition, 1.0);
        r = mat3(m);
        n = r * vertexNormal;
    }
    vec3 P = p.xyz / max(p.w, 1e-6);
    gl_Position = viewProjectionMatrix * vec4(P, 1.0);
    vUv = vertexTexCoord;
#ifdef BUILDUP
    vUv1 = hasTexCoord1 != 0 ? vertexTexCoord1 : vertexTexCoord;
#endif

    vec3 fz = normalize(n);
    vec3 fx = -normalize(r * vertexBinormal);
    vec3 fy = -normalize(r * vertexTangent);
    vec3 E = normalize(eyePosition - P);
    vec3 L0 = towardLight(0, P), L1 = towardLight(1, P), L2 = towardLight(2, P);
    vL0 = vec3(dot(L0, fx), dot(L0, fy), dot(L0, fz));
    vL1 = vec3(dot(L1, fx), dot(L1, fy), dot(L1, fz));
    vec3 H = L0 + E;
    vH = normalize(vec3(dot(H, fx), dot(H, fy), dot(H, fz)));
    vec3 c = ambientColor * obAmbient;
    if (rigLightCount > 2) c += lightColor[2].rgb * max(0.0, dot(fz, L2)) * obDiffuse;
    vColor = clamp(vec4(c, obOpacity) / 2.0, 0.0, 1.0);
#if defined(OBJECTS_ALIEN) || defined(ENV_CUBE)
    vWorldNormal = fz;
    vEye = E;
#endif
}
