// GLSL of the Alamo shaders: one source, one program per implementation (a define picks it), each following the
// formula of its .fx file in the game's public shader sources (Data/Shaders/*.fx, *.fxh of Star Wars: Empire at
// War - Forces of Corruption), in GLSL shared by OpenGL 3.3 and WebGL2 (render/glsl/README.md). What the engine
// computes per vertex (the fill and ambient light through the spherical-harmonic matrices, the vertex specular,
// the tangent-space light and half vectors) is computed per vertex here too, and the colours a vs_1_1 shader
// writes (COLOR0/COLOR1) are clamped to [0, 1] as Direct3D 9 does.
//
// Implementations (exactly one defined): BUMP_COLORIZE (MeshBumpColorize/RSkinBumpColorize, technique sph_t2),
// GLOSS (MeshGloss/RSkinGloss), GLOSS_COLORIZE (MeshGlossColorize/RSkinGlossColorize), ALPHA (MeshAlpha/RSkinAlpha),
// ADDITIVE (MeshAdditive/RSkinAdditive), SHIELD (MeshShield), SKYDOME (Skydome), PLANET (Planet), DEFAULT (alDefault:
// its source is not public; 2x diffuse lighting like Gloss without the specular term), BUMP_REFLECT
// (MeshBumpReflectColorize/RSkinBumpReflectColorize, sph_t2), ALPHA_GLOSS (MeshAlphaGloss/RSkinAlphaGloss, sph_t0),
// ADDITIVE_VCOLOR (MeshAdditiveVColor/RSkinAdditiveVColor), ADDITIVE_OFFSET (MeshAdditiveOffset), SOLID_COLOR
// (MeshSolidColor), ALPHA_SCROLL (MeshAlphaScroll: the shipped file has only its fixed-function technique sph_t1,
// so Direct3D's fixed-function lighting of the engine's lights: material ambient = diffuse = Diffuse, emissive =
// Emissive, the sun and the two fills as directional lights, the global ambient, no specular), HEAT (MeshHeat,
// RSkinHeat: the .fx writes the scrolled DistortionTexture with the vertex alpha into the engine's full-screen
// distortion buffer, and the engine displaces the frame by it in a pass whose source is not public; here the heat
// mesh samples a copy of the frame (sceneCopy) at its pixel moved by (rg - 0.5) x 2 x alpha x kHeatStrength of the
// view, with the texture's green running down the screen as Direct3D's v), TERRAIN_BUMP (TerrainMeshBump, sph_t2),
// TERRAIN_GLOSS (TerrainMeshGloss). The terrain shaders' cloud shadows and fog of war (and BatchMesh*'s fog of war)
// are textures of the map: white (none) on a model alone, so they drop out of the formula. NEBULA (Nebula: vertices
// moved by DistortionScale x sin(2 x 3.14 x frac(SFreq x world position + TFreq x time)), the texture scrolled by
// 3 x UVScrollRate, vertex colour x (|view-space normal z|^8 x 2 + 0.1): vs_1_1's pow takes |x|), TREE (Tree,
// sph_t1: bent by BendScale x WIND_BEND_VECTOR.xyz x z^2 x .w, the engine's wind, here its .fx default (1, 0, 0,
// 0.01); lit like MeshGloss with 2x specular x base alpha; alpha test: drawn where base alpha x 1 > 128/255), GRASS
// (Grass, sph_t0: each billboard turned about Z around its clump centre (TEXCOORD1) to face the camera, bent and
// coloured by the wind's oscillation; WIND_GRASS_PARAMS is the map's, here the .fx default (no wind); alpha test
// > 8/255, blended), OCCLUDED (MeshOccludedUnit/RSkinOccludedUnit: Color where the mesh is hidden behind what is
// drawn; the depth and stencil states are the effect's).
//
// The sky cube BumpReflectColorize reflects (SKY_CUBE_TEXTURE) is the map's; a model alone is shown with the
// light set-up's irradiance (SPH_LIGHT_ALL evaluated in the reflected direction, clamped to [0, 1] as an 8-bit cube
// texture would be) as that sky.
//
// Texture coordinates: the model stores V flipped for OpenGL (v' = 1 - v); the vertex stage converts back to the
// engine's (u, v), applies the .fx formula (offsets, scales, scrolling) and flips again for sampling.
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec2 vertexTexCoord;
in vec2 vertexTexCoord1;
in vec3 vertexTangent;
in vec3 vertexBinormal;
in vec4 vertexColor;
in vec4 boneWeight;
in uvec4 boneIndex;

layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform int skinMode;
uniform int rigidSlot;
uniform int hasVertexColor;
uniform mat4 viewProjectionMatrix;
uniform vec3 eyePosition;
uniform float alamoTime;
uniform vec4 factionColor;

uniform vec3 sunToward;     // DIR_LIGHT_VEC_0 (towards the sun)
uniform vec3 sunSpecular;   // DIR_LIGHT_SPECULAR_0
uniform vec4 sphAll[12];    // SPH_LIGHT_ALL: 3 symmetric matrices (r, g, b), 4 rows each
uniform vec4 sphFill[12];   // SPH_LIGHT_FILL
uniform vec4 alamoLights[7];  // fixed function: towards sun, fill 1, fill 2; their colours; the ambient

// Material parameters (bound by name; the .fx defaults when the file has none)
uniform vec4 mDiffuse;      // Diffuse (rgb; a: MeshAlpha's float4 Diffuse)
uniform vec3 mSpecular;     // Specular
uniform vec3 mEmissive;     // Emissive
uniform vec4 mColor;        // Color (Additive, Shield); r < 0: the player's colour (FC_ mesh)
uniform vec2 mUVOffset;     // UVOffset (BumpColorize)
uniform vec2 mUVScrollRate; // UVScrollRate (Additive)
uniform vec4 mShieldUV;     // Shield: BaseUVScale, WaveUVScale, DistortUVScale, EdgeBrightness
uniform vec3 mShieldScroll; // Shield: BaseUVScrollRate, WaveUVScrollRate, DistortUVScrollRate
uniform vec2 mCloud;        // CloudScrollRate, CloudScale (Skydome, Planet)
uniform vec4 mAtmosphere;   // Planet: Atmosphere
uniform float mAtmospherePower;
uniform vec3 mNebula;       // Nebula: SFreq, TFreq, DistortionScale
uniform float mBendScale;   // Tree, Grass: BendScale
uniform vec4 mDiffuse1;     // Grass: Diffuse1
const vec4 kGrassWind = vec4(0.0); // WIND_GRASS_PARAMS (.fx default): direction xyz, speed w
uniform mat4 viewMatrix;

out vec2 uv0;
out vec2 uv1;
out vec2 uv2;
out vec4 diff;              // COLOR0
out vec4 spec;              // COLOR1
out vec3 lightVec;          // tangent-space light vector (not renormalized per pixel, as in the engine)
out vec3 halfVec;           // tangent-space half vector
out vec2 factors;           // Planet: x atmosphere, y city lights
out vec3 reflVec;           // BumpReflectColorize: world-space reflection vector (per vertex, as the engine)

vec3 irradiance(vec4 m[12], vec3 n) {
    vec4 v = vec4(n, 1.0);
    return vec3(dot(v, mat4(m[0], m[1], m[2], m[3]) * v), dot(v, mat4(m[4], m[5], m[6], m[7]) * v),
                dot(v, mat4(m[8], m[9], m[10], m[11]) * v));
}
vec2 glUV(vec2 e) { return vec2(e.x, 1.0 - e.y); } // engine (u, v) <-> the flipped V of the model

void main() {
    mat4 m;
    if (skinMode == 0) {
        m = bones[rigidSlot];
    } else {
        m = bones[boneIndex.x] * boneWeight.x;
        if (boneWeight.y > 0.0) m += bones[boneIndex.y] * boneWeight.y;
        if (boneWeight.z > 0.0) m += bones[boneIndex.z] * boneWeight.z;
        if (boneWeight.w > 0.0) m += bones[boneIndex.w] * boneWeight.w;
    }
    vec4 p = m * vec4(vertexPosition, 1.0);
    vec3 P = p.xyz / max(p.w, 1e-6);
    mat3 r = mat3(m);
    vec3 N = normalize(r * vertexNormal);
    vec3 T = r * vertexTangent, B = r * vertexBinormal, Nraw = r * vertexNormal;
    vec4 vc = hasVertexColor != 0 ? vertexColor : vec4(1.0);
    vec2 tex = glUV(vertexTexCoord);
    vec4 color = mColor.r < 0.0 ? vec4(factionColor.rgb, 1.0) : mColor;
    vec3 E = normalize(eyePosition - P);
    vec3 H = normalize(E + sunToward);
    uv0 = vertexTexCoord; uv1 = vertexTexCoord; uv2 = vertexTexCoord;
    diff = vec4(1.0); spec = vec4(0.0, 0.0, 0.0, 1.0);
    lightVec = vec3(0.0, 0.0, 1.0); halfVec = vec3(0.0, 0.0, 1.0); factors = vec2(0.0);
    reflVec = vec3(0.0, 0.0, 1.0);
#if defined(BUMP_COLORIZE) || defined(PLANET) || defined(BUMP_REFLECT) || defined(TERRAIN_BUMP)
    // to-tangent: rows T, B, N; v * to_tangent = (v.T, v.B, v.N)
    lightVec = normalize(vec3(dot(sunToward, T), dot(sunToward, B), dot(sunToward, Nraw)));
    halfVec = normalize(vec3(dot(H, T), dot(H, B), dot(H, Nraw)));
    diff = clamp(vec4(irradiance(sphFill, N) * mDiffuse.rgb + mEmissive, 1.0), 0.0, 1.0);
#endif
#if defined(BUMP_COLORIZE) || defined(BUMP_REFLECT)
    uv0 = glUV(tex + mUVOffset); uv1 = uv0;
#endif
#if defined(BUMP_REFLECT)
    reflVec = normalize(-E + 2.0 * dot(E, N) * N);
#endif
#if defined(PLANET)
    uv2 = glUV(tex + vec2(alamoTime * mCloud.x, 0.0));
    float vdotn = dot(N, E);
    factors.x = pow(max(1.0 - vdotn, 0.0), mAtmospherePower) * 2.0 * mAtmosphere.a;
    factors.y = clamp(dot(Nraw, -32.0 * sunToward), 0.0, 1.0);
#endif
#if defined(GRASS)
    {
        vec2 centre = vec2(vertexTexCoord1.x, 1.0 - vertexTexCoord1.y); // the reader flips every V
        vec3 forward = -vec3(viewMatrix[0][2], viewMatrix[1][2], viewMatrix[2][2]); // the view direction, world
        forward = transpose(mat3(m)) * forward;                               // object space (rigid bone)
        vec2 xv = normalize(vec2(-forward.y, forward.x));
        vec2 o = vertexPosition.xy - centre;
        vec2 xy = centre + vec2(o.x * xv.x - o.y * xv.y, o.x * xv.y + o.y * xv.x);
        float speed = mBendScale * kGrassWind.w / 10.0;
        float anim = 0.5 + 0.5 * sin(6.28 * fract((0.125 + 0.875 * speed) * alamoTime +
                                                 (vertexPosition.x + vertexPosition.y) / 20.0));
        vec4 wp = m * vec4(xy, vertexPosition.z, 1.0);
        P = wp.xyz / max(wp.w, 1e-6) + (1.0 - tex.y) * (10.0 * speed + (10.0 + 10.5 * speed) * anim) * kGrassWind.xyz;
        vec3 up = normalize(r * vec3(0.0, 0.0, 1.0));
        diff = clamp(vec4(irradiance(sphAll, up) * mix(mDiffuse.rgb, mDiffuse1.rgb, anim) + mEmissive, mDiffuse.a),
                     0.0, 1.0);
    }
#endif
#if defined(TREE)
    P += mBendScale * vec3(1.0, 0.0, 0.0) * (vertexPosition.z * vertexPosition.z * 0.01);
    E = normalize(eyePosition - P);
    H = normalize(E + sunToward);
#endif
#if defined(GLOSS) || defined(GLOSS_COLORIZE) || defined(ALPHA) || defined(DEFAULT) || defined(ALPHA_GLOSS) || defined(TERRAIN_GLOSS) || defined(TREE)
    vec3 sl = pow(max(dot(N, H), 0.0), 16.0) * sunSpecular;
    float a = 1.0;
#if defined(ALPHA) || defined(ALPHA_GLOSS)
    a = mDiffuse.a;
#endif
    diff = clamp(vec4(mDiffuse.rgb * irradiance(sphAll, N) + mEmissive, a), 0.0, 1.0);
    spec = clamp(vec4(mSpecular * sl, 1.0), 0.0, 1.0);
#endif
#if defined(ADDITIVE)
    uv0 = glUV(tex + alamoTime * mUVScrollRate);
    diff = clamp(vec4(color.rgb, 1.0), 0.0, 1.0);
#endif
#if defined(ADDITIVE_VCOLOR)
    uv0 = glUV(tex + alamoTime * mUVScrollRate);
    diff = clamp(vec4(vc.rgb, 1.0), 0.0, 1.0);
#endif
#if defined(ADDITIVE_OFFSET)
    uv0 = glUV(tex + mUVOffset);
    diff = clamp(vec4(color.rgb, 1.0), 0.0, 1.0);
#endif
#if defined(SOLID_COLOR) || defined(OCCLUDED)
    diff = clamp(color, 0.0, 1.0);
#endif
#if defined(NEBULA)
    vec3 wobble = sin(2.0 * 3.14 * fract(mNebula.x * P + mNebula.y * alamoTime));
    vec4 pn = m * vec4(vertexPosition + mNebula.z * wobble, 1.0);
    P = pn.xyz / max(pn.w, 1e-6);
    uv0 = glUV(tex + alamoTime * mUVScrollRate * 3.0);
    vec3 vn = normalize(mat3(viewMatrix) * Nraw);
    diff = clamp(vc * (pow(abs(vn.z), 8.0) * 2.0 + 0.1), 0.0, 1.0);
#endif
#if defined(HEAT)
    uv0 = glUV(tex + alamoTime * mUVScrollRate);
    diff = vc;
#endif
#if defined(ALPHA_SCROLL)
    uv0 = glUV(tex + alamoTime * mUVScrollRate);
    vec3 ff = mEmissive + mDiffuse.rgb * alamoLights[6].rgb;
    for (int i = 0; i < 3; ++i)
        ff += mDiffuse.rgb * alamoLights[3 + i].rgb * max(dot(N, alamoLights[i].xyz), 0.0);
    diff = clamp(vec4(ff, mDiffuse.a), 0.0, 1.0);
#endif
#if defined(SHIELD)
    vec2 t0 = mShieldUV.x * tex, t1 = mShieldUV.z * tex, t2 = mShieldUV.y * tex;
    t0.y += alamoTime * mShieldScroll.x;
    t1.y += alamoTime * mShieldScroll.z;
    t2.y += alamoTime * mShieldScroll.y;
    uv0 = glUV(t0); uv1 = glUV(t1); uv2 = glUV(t2);
    diff = clamp(vc * clamp(vertexNormal.z + mShieldUV.w, 0.0, 1.0) * color, 0.0, 1.0);
#endif
#if defined(SKYDOME)
    uv1 = glUV((tex + vec2(alamoTime * mCloud.x, 0.0)) * mCloud.y);
    diff = clamp(vec4(irradiance(sphAll, -N) * vc.rgb + mEmissive, vc.a), 0.0, 1.0);
#endif
    gl_Position = viewProjectionMatrix * vec4(P, 1.0);
}
