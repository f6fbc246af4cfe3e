// GLSL of Command & Conquer 3's Tiberium.fx (the SDK's compiled Plugins/3DSMax7_Plugin/maps/fx/CnC3/Tiberium.fx), in
// GLSL shared by OpenGL 3.3 and WebGL2 (render/glsl/README.md). The formula is the effect's technique Default_U, pass
// p0 (its only full-quality technique), as the public dump of the game's effect sources states it (read for facts
// only; nothing copied); the SDK binary declares the same parameters (DiffuseMap, NormalMap, SpecMap, EnvMap,
// TexCoordTransform_Normal/_Spec, BumpScale, AmbientColor, DiffuseColor, SpecularColor, SpecularExponent, SpecMult,
// EnvMult, TimeGlowTexture, TimeGlowStrength, TimeGlowSpeedRange, TimeGlowActiveRatio, AlphaTestEnable).
//  - per vertex: VC = the vertex colour (white without one); the frame (x, y, z) = (-binormal, -tangent, normal);
//    the directions towards lights 0, 1, 2 in that frame; H = normalize(towards light 0 + towards the eye) in the
//    frame; COLOR0.rgb = saturate((AmbientLightColor + AmbientColor) * VC.rgb / 2) (a sum, as the effect has it);
//    the crystal glow: with c = the first bone's world position, offset = 0 + R(3, VC.a * 255 + (c.x + c.y) * 100).x
//    * 20, speed = TimeGlowSpeedRange.x + R(7, VC.a * 300 + (c.x + c.y) * 30).x * TimeGlowSpeedRange.y, R(i, s) the
//    effect's random table (Random.fxh) at frac(s * 11 / 16 + i * 3 / 16) * 16; s = saturate(sin(Time * speed +
//    offset) / 2 - 1 / 2 + TimeGlowActiveRatio) / max(TimeGlowActiveRatio, 0.001); COLOR0.a = s * s.
//  - per pixel: base = DiffuseMap; bump = NormalMap at UV * TexCoordTransform_Normal (* 2 - 1, xy * BumpScale,
//    normalised); spec = SpecMap at UV * TexCoordTransform_Spec; env = EnvMult * EnvMap(reflection) * spec.y *
//    SpecularColor; specular = SpecMult * SpecularColor * spec.x; for each light i: light 0's colour (the effect
//    uses DirectionalLight[0].Color for all three) * (base * DiffuseColor * lit_i.y + specular * lit_i.z), lit_i =
//    HLSL lit(bump.L_i, bump.H, SpecularExponent); colour = COLOR0 * base + (sum * 0.4) * (env * 6 + 0.75) +
//    TimeGlowStrength * COLOR0.a * TimeGlowTexture (the colour is not doubled after the halving: the effect's own).
// What is the map's and not the model's (a model shown alone): the cloud layer (white), shadow map (none), shroud and
// fog (off), the point light (off) and the environment cube EnvMap (a cube the view does not load: the scene's
// ambient colour in every direction, as for the Objects shaders). Lights and ambient are the view's light rig, Time
// the timeline's.
//
// Compile-time switches (prepended): ALPHA_TEST (AlphaTestEnable: alpha below 0x60 / 255 cut).
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec2 vertexTexCoord;
in vec3 vertexTangent;
in vec3 vertexBinormal;
in vec4 vertexColor;
in vec4 boneWeight;
in uvec4 boneIndex;
in vec3 vertexPosition2;
in vec3 vertexNormal2;

layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform int skinMode;
uniform int rigidSlot;
uniform int hasVertexColor;
uniform mat4 viewProjectionMatrix;
uniform vec3 eyePosition;
uniform vec4 lightPosition[4];
uniform int rigLightCount;
uniform vec3 ambientColor; // AmbientLightColor
uniform float alamoTime;   // Time
uniform vec3 tbAmbient;    // AmbientColor
uniform vec3 tbGlow;       // TimeGlowSpeedRange (x, y), TimeGlowActiveRatio

out vec2 vUv;
out vec3 vL[3]; // towards lights 0-2 in the frame
out vec3 vH;    // unit half vector of light 0 and the eye in the frame
out vec3 vWorldNormal;
out vec3 vEye;
out vec4 vColor; // COLOR0

// Random.fxh's table, x column (the component GetRandomFloatValue reads).
const float kRandomX[16] = float[16](0.957897, 0.176237, 0.743219, 0.489663, 0.894767, 0.141101, 0.229799, 0.581538,
                                     0.270604, 0.599556, 0.510171, 0.035468, 0.861564, 0.173087, 0.826938, 0.542361);
float randomX(float index, float seed) {
    float fraction = fract(seed * 11.0 / 16.0 + index * 3.0 / 16.0);
    return kRandomX[clamp(int(fraction * 16.0), 0, 15)];
}

vec3 towardLight(int i, vec3 P) {
    if (i >= rigLightCount) return vec3(0.0, 0.0, 1.0); // unused lights are black: their direction does not matter
    return lightPosition[i].w == 0.0 ? -normalize(lightPosition[i].xyz) : normalize(lightPosition[i].xyz - P);
}

void main() {
    vec4 p;
    mat3 r;
    vec3 n;
    vec3 pivot;
    if (skinMode == 0) {
        mat4 m = bones[rigidSlot];
        p = m * vec4(vertexPosition, 1.0);
        r = mat3(m);
        n = r * vertexNormal;
        pivot = m[3].xyz;
    } else if (skinMode == 2) {
        mat4 m0 = bones[boneIndex.x];
        mat4 m1 = bones[boneIndex.y];
        p = boneWeight.x * (m0 * vec4(vertexPosition, 1.0)) + boneWeight.y * (m1 * vec4(vertexPosition2, 1.0));
        n = boneWeight.x * (mat3(m0) * vertexNormal) + boneWeight.y * (mat3(m1) * vertexNormal2);
        r = boneWeight.x * mat3(m0) + boneWeight.y * mat3(m1);
        pivot = m0[3].xyz;
    } else {
        mat4 m = bones[boneIndex.x] * boneWeight.x;
        if (boneWeight.y > 0.0) m += bones[boneIndex.y] * boneWeight.y;
        if (boneWeight.z > 0.0) m += bones[boneIndex.z] * boneWeight.z;
        if (boneWeight.w > 0.0) m += bones[boneIndex.w] * boneWeight.w;
        p = m * vec4(vertexPosition, 1.0);
        r = mat3(m);
        n = r * vertexNormal;
        pivot = bones[boneIndex.x][3].xyz;
    }
    vec3 P = p.xyz / max(p.w, 1e-6);
    gl_Position = viewProjectionMatrix * vec4(P, 1.0);
    vUv = vertexTexCoord;

    vec3 fz = normalize(n);
    vec3 fx = -normalize(r * vertexBinormal);
    vec3 fy = -normalize(r * vertexTangent);
    vec3 E = normalize(eyePosition - P);
    for (int i = 0; i < 3; ++i) {
        vec3 L = towardLight(i, P);
        vL[i] = vec3(dot(L, fx), dot(L, fy), dot(L, fz));
    }
    vec3 H = towardLight(0, P) + E;
    vH = normalize(vec3(dot(H, fx), dot(H, fy), dot(H, fz)));
    vWorldNormal = fz;
    vEye = E;

    vec4 vc = hasVertexColor != 0 ? vertexColor : vec4(1.0);
    float seedBase = pivot.x + pivot.y;
    float offset = randomX(3.0, vc.a * 255.0 + seedBase * 100.0) * 20.0;
    float speed = tbGlow.x + randomX(7.0, vc.a * 300.0 + seedBase * 30.0) * tbGlow.y;
    float s = clamp(sin(alamoTime * speed + offset) * 0.5 - 0.5 + tbGlow.z, 0.0, 1.0) / max(tbGlow.z, 0.001);
    vColor = clamp(vec4((ambientColor + tbAmbient) * vc.rgb / 2.0, s * s), 0.0, 1.0);
}
