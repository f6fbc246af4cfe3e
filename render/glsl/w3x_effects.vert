// GLSL of Command & Conquer 3's effect shaders (the SDK's compiled Plugins/3DSMax7_Plugin/maps/fx/CnC3/*.fx), in GLSL
// shared by OpenGL 3.3 and WebGL2 (render/glsl/README.md). The formulas are the effects' full-quality techniques as
// the public dump of the game's effect sources states them (read for facts only; nothing copied); the SDK binaries
// declare the same parameters. UVs: the files' are OpenGL's (v' = 1 - v); the formulas work in the engine's (v down).
//  - ALIEN_SHIELD (AlienShield.fx, technique Default_M): per vertex COLOR0 = saturate(lerp(RecolorColor, 1, 0.25)
//    [x (sin(2 Time) + 1.2) with HouseColorPulse] x OpacityOverride); falloff = pow(1 - N.E, FallOff) (N the unit
//    world normal, E the unit vector towards the eye) as the UV (falloff, 0); UV0 = UV x T.xy + Time x T.zw and
//    UV1 = (UV x T.xy - Time x T.zw) x 2 (T = TexCoordTransform_0). Per pixel: COLOR0 x FalloffTexture(falloff, 0) x
//    DiffuseTexture(UV0) x DiffuseTexture(UV1) x 4, added (ONE/ONE), no depth writes, both faces.
//  - MUZZLE_FLASH (MuzzleFlash.fx, techniques Additive_M and Multiply_M: one colour, blended ONE/ONE or DESTCOLOR/ZERO
//    by the binding's states): the angle a = TexCoordTransformAngle_0 x Time;
//    the vertex alpha x 100 picks the pivot (< 0.5: (TexCoordTransformU_0, V_0), < 1.5: _1, < 2.5: _2, else no
//    rotation); UV0 = the UV turned by the row-vector matrix [[cos a, -sin a], [sin a, cos a]] about that pivot,
//    UV1 = turned by its transpose; COLOR0 = saturate(vertex colour x ColorEmissive). Per pixel: COLOR0 x
//    Texture_0(UV0) x Texture_0(UV1), added (ONE/ONE) or multiplied into the frame, no depth writes, both faces.
//  - DISTORTION (DistortingObject.fx; with SHIELD_FALLOFF ShieldDistortion.fx, technique Default_M): the effect draws
//    into the distortion buffer (SRCALPHA/INVSRCALPHA over its neutral 0.5) the view-space normal n = the normal map
//    (x 2 - 1, xy x BumpScale; normalised by DistortingObject, not by ShieldDistortion) in the frame (-binormal,
//    -tangent, normal) times View, as (n x 0.5 + 0.5, alpha); alpha = OpacityOverride x the normal map's alpha, and for
//    ShieldDistortion x falloff (per vertex, saturated as a colour) x (FalloffTexture(falloff, falloff).rgb summed) x
//    0.3. PostFX_Distortion then moves the frame: pixel = frame(uv + (buffer.xy x 2 - 1) x 0.08), i.e. uv + alpha x
//    n.xy x 0.08 (the buffer's 8-bit clamp kept: n x 0.5 + 0.5 saturated). Drawn here in one pass over the copy of
//    the frame (the "heat" pass MeshHeat uses), v flipped for OpenGL's window origin.
// What a model shown alone lacks: fog and shroud (off), OpacityOverride 1; RecolorColor is the view's faction colour;
// Time is the timeline's. A mesh without vertex colours is white (MuzzleFlash: alpha 1, so no UV rotation).
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
uniform mat4 viewMatrix;
uniform vec3 eyePosition;
uniform float alamoTime;   // Time
uniform vec4 factionColor; // RecolorColor
uniform vec4 efTransform;  // TexCoordTransform_0 (AlienShield, the distortion shaders)
uniform float efFallOff;   // FallOff
uniform float efPulse;     // HouseColorPulse (0 or 1)
uniform vec3 efEmissive;   // ColorEmissive (MuzzleFlash)
uniform float efAngle;     // TexCoordTransformAngle_0
uniform vec2 efPivot0;     // TexCoordTransformU_0, V_0
uniform vec2 efPivot1;
uniform vec2 efPivot2;

out vec2 vUv0;
out vec2 vUv1;
out vec4 vColor;     // COLOR0
out float vFalloff;  // AlienShield's TEXCOORD2.x, ShieldDistortion's COLOR0.w
out mat3 vToView;    // tangent frame to view space (the distortion shaders)

// HLSL's pow (exp2(y log2 x)) at x = 0 too: 0 for y > 0, infinite (here 1e30) for y < 0; GLSL leaves x = 0 undefined.
float hlslPow(float x, float y) { return x > 0.0 ? pow(x, y) : y > 0.0 ? 0.0 : y < 0.0 ? 1e30 : 1.0; }

vec2 engineUv(vec2 uv) { return vec2(uv.x, 1.0 - uv.y); }
vec2 glUv(vec2 e) { return vec2(e.x, 1.0 - e.y); }

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
    vec3 N = normalize(n);
    vec3 E = normalize(eyePosition - P);
    vec2 e = engineUv(vertexTexCoord);
    vec4 vc = hasVertexColor != 0 ? vertexColor : vec4(1.0);
    vFalloff = 0.0;
    vToView = mat3(1.0);
    vUv0 = vertexTexCoord;
    vUv1 = vertexTexCoord;
    vColor = vec4(1.0);
#if defined(ALIEN_SHIELD)
    vec3 tint = mix(factionColor.rgb, vec3(1.0), 0.25);
    if (efPulse != 0.0) tint *= sin(alamoTime * 2.0) + 1.2;
    vColor = vec4(clamp(tint, 0.0, 1.0), 1.0); // OpacityOverride 1
    vUv0 = glUv(e * efTransform.xy + alamoTime * efTransform.zw);
    vUv1 = glUv((e * efTransform.xy - alamoTime * efTransform.zw) * 2.0);
    vFalloff = hlslPow(max(1.0 - dot(N, E), 0.0), efFallOff);
#elif defined(MUZZLE_FLASH)
    float a = efAngle * alamoTime;
    float c = cos(a), s = sin(a);
    float id = vc.a * 100.0;
    vec2 e0 = e, e1 = e;
    if (id < 2.5) {
        vec2 pivot = id < 0.5 ? efPivot0 : id < 1.5 ? efPivot1 : efPivot2;
        vec2 d = e - pivot;
        e0 = vec2(d.x * c + d.y * s, -d.x * s + d.y * c) + pivot; // mul(d, M), M = [[c, -s], [s, c]]
        e1 = vec2(d.x * c - d.y * s, d.x * s + d.y * c) + pivot;  // mul(d, transpose(M))
    }
    vUv0 = glUv(e0);
    vUv1 = glUv(e1);
    vColor = vec4(clamp(vc.rgb * efEmissive, 0.0, 1.0), 1.0);
#elif defined(DISTORTION)
    vec3 fx = -normalize(r * vertexBinormal);
    vec3 fy = -normalize(r * vertexTangent);
    vToView = mat3(viewMatrix) * mat3(fx, fy, N);
    vUv0 = glUv(e * efTransform.xy + alamoTime * efTransform.zw);
#ifdef SHIELD_FALLOFF
    vFalloff = clamp(hlslPow(max(1.0 - dot(N, E), 0.0), efFallOff), 0.0, 1.0);
#endif
#endif
}
