// GLSL of Command & Conquer 3's per-vertex lit shaders (the SDK's compiled Plugins/3DSMax7_Plugin/maps/fx/CnC3/
// Infantry.fx, BasicW3D.fx, Tree.fx: one source, BasicW3D.fxh; DefaultW3D.fx and DefaultW3DNoFogNoCloud.fx:
// DefaultW3D.fxh, the same lighting with more texture options), in GLSL shared by OpenGL 3.3 and WebGL2
// (render/glsl/README.md). The formula is the effects' technique Default, pass P0 (vs_2_0/ps_2_0), as the public
// dump of the game's effect sources states it (read for facts only; nothing copied). The SDK binaries declare the
// same parameter names (Infantry.fx: ColorAmbient, ColorDiffuse, ColorSpecular, Shininess, ColorEmissive, Opacity,
// Texture_0, RecolorTexture, DepthWriteEnable, AlphaTestEnable, CullingEnable, BlendMode), and the corpus W3X files
// set a subset of them.
//  - per vertex, in world space: VC = the vertex colour (white without one); DefaultW3D with UseRecolorColors
//    (HOUSE_COLOR): VC.rgb *= lerp(RecolorColor, 1, 0.25), and with HouseColorPulse also * (sin(2 Time) + 1.2);
//    DefaultW3D's edge fade: f = smoothstep(0, EdgeFadeOut, |E.N|) scales VC.rgb (BlendMode additive) or VC.a;
//    each directional light i: lit(N.Li, N.normalize(Li + E), Shininess) (HLSL lit: y = max(N.L, 0), z = 0 when
//    N.L < 0 or N.H < 0, else pow(N.H, Shininess));
//    light 0 goes to two unclamped interpolators: D0 = C0 * y0 * ColorDiffuse * VC.rgb / 2, S0 = C0 * z0 *
//    ColorSpecular / 2; lights 1 and 2 sum to D and S;
//    COLOR0 = saturate(((ColorEmissive + Ambient * ColorAmbient + D * ColorDiffuse) * VC.rgb / 2,
//    Opacity * OpacityOverride * VC.a)), COLOR1 = saturate(S * ColorSpecular / 2) (vs_2_0 colour outputs clamp);
//  - per pixel: colour = COLOR0 + (D0, 0); specular = COLOR1 + S0; colour.rgb += specular (DefaultW3D: not with
//    two textures and SecondaryTextureBlendMode 3); colour *= Texture_0; DefaultW3D's second texture (NumTextures
//    2, TEXCOORD1): 0 modulate, 1 modulate and double, 2 lerp(colour, secondary, colour.a), 3 colour += specular *
//    colour.a; Infantry's house colour (RECOLOR): lerp(colour, RecolorTexture.rgb * RecolorColor / 2,
//    RecolorTexture.a); then colour.rgb doubled (the effects' "overbrighten").
//  - DefaultW3D's UV mappers: TexCoordMapper_0/1 = 1 scale and move (uv * Transform.xy + Time * Transform.zw), 0 = 2
//    video (frame = fmod(Time * FPS + offset, last frame), negative FPS counting back; the UV moved by the frame's
//    cell, (frame mod per row, frame / per row) floored, / per row), in the engine's UV orientation.
//  - Tree.fx (TREE_SWAY): a vertex above the first bone's world height by more than SwayStartHeight moves in x and
//    y by clamp((h - SwayStartHeight) / SwayStartRadius, 0, 1) * SwayStrength * sin(Time + phase), phase from the
//    effect's table of random values (Random.fxh) at index 3 and seed (bone x + bone y) * 2, times 20.
// What is the map's and not the model's (a model shown alone): the cloud layer (white), shadow map (none), shroud
// and fog (off) and the point light (off: the effects' default). The game's three directional lights and ambient
// are the view's light rig (lightPosition and lightColor 0..2, ambientColor), RecolorColor the view's faction
// colour, Time the timeline's, OpacityOverride 1.
//
// Simple.fx (SIMPLE; technique Default, vs_1_1/ps_1_1): unlit, colour = Texture_0(uv * TexCoordTransform_0.xy + Time *
// TexCoordTransform_0.zw) * ColorEmissive, alpha the texture's; no overbrighten (the pixel stage is tex, mul, mov);
// fog off. The public dump's Simple.fx states that UV, and the SDK binary computes it so: its preshader multiplies
// Time by TexCoordTransform_0.zw into the constant the vertex shader adds to uv * xy (mad oT0.xy). Time is in seconds
// (the effects count particle frames as Time * 30 and name rates "per second"); here it is the timeline's.
// AlphaBlendingEnable and DepthWriteEnable are render states (fx_uniforms.cpp).
//
// Compile-time switches (prepended): SIMPLE (Simple.fx), DEFAULT_W3D (DefaultW3D.fxh's options), HOUSE_COLOR (DefaultW3D with
// UseRecolorColors), RECOLOR (Infantry.fx with a RecolorTexture), TREE_SWAY (Tree.fx), ALPHA_TEST (AlphaTestEnable:
// alpha below 0x60 / 255 cut).
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec2 vertexTexCoord;
in vec2 vertexTexCoord1;
in vec4 vertexColor;
in vec4 boneWeight;
in uvec4 boneIndex;
in vec3 vertexPosition2;
in vec3 vertexNormal2;

layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform int skinMode;
uniform int rigidSlot;
uniform int hasVertexColor;  // 0: the mesh has no vertex colours (white)
uniform int hasTexCoord1;    // 0: no second UV set (TEXCOORD1 is the first)
uniform mat4 viewProjectionMatrix;
uniform vec3 eyePosition;
uniform vec4 lightPosition[4];
uniform vec4 lightColor[4];
uniform int rigLightCount;
uniform vec3 ambientColor;   // AmbientLightColor
uniform float alamoTime;     // Time (seconds, the timeline's)
uniform vec4 factionColor;   // RecolorColor
uniform vec3 bwAmbient;      // ColorAmbient
uniform vec3 bwDiffuse;      // ColorDiffuse
uniform vec3 bwSpecular;     // ColorSpecular
uniform vec3 bwEmissive;     // ColorEmissive
uniform float bwShininess;   // Shininess
uniform float bwOpacity;     // Opacity * OpacityOverride
#ifdef DEFAULT_W3D // the integer options are floats (the material's values are handed over as floats)
uniform float bwEdgeFadeOut; // EdgeFadeOut
uniform float bwBlendMode;     // BlendMode (0 opaque, 1 alpha, 2 additive)
uniform float bwMapper0;       // TexCoordMapper_0 (0 direct, 1 scale and move, 2 video)
uniform float bwMapper1;       // TexCoordMapper_1 (0 direct, 1 scale and move)
uniform vec4 bwTransform0;   // TexCoordTransform_0
uniform vec4 bwTransform1;   // TexCoordTransform_1
uniform vec4 bwVideo0;       // TextureAnimation_FPS_NumPerRow_LastFrame_FrameOffset_0
uniform float bwPulse;       // HouseColorPulse (0 or 1)
#endif
#if defined(SIMPLE) && !defined(DEFAULT_W3D)
uniform vec4 bwTransform0; // TexCoordTransform_0 (Simple.fx: scale xy, move zw per second)
#endif
#ifdef TREE_SWAY
uniform vec3 bwSway;         // SwayStartHeight, SwayStartRadius, SwayStrength
#endif

out vec2 vUv0;
out vec2 vUv1;
out vec4 vColor;        // COLOR0
out vec3 vSpecular;     // COLOR1.xyz
out vec3 vMainDiffuse;  // TEXCOORD5: light 0's diffuse term
out vec3 vMainSpecular; // TEXCOORD6: light 0's specular term

vec3 towardLight(int i, vec3 P) {
    return lightPosition[i].w == 0.0 ? -normalize(lightPosition[i].xyz) : normalize(lightPosition[i].xyz - P);
}

#ifdef TREE_SWAY
// Random.fxh's table (RandomValues[16], x and y: the components the sway reads), values in [0, 1).
const vec2 kRandomXY[16] = vec2[16](vec2(0.957897, 0.378871), vec2(0.176237, 0.914575), vec2(0.743219, 0.442561),
                                    vec2(0.489663, 0.666423), vec2(0.894767, 0.823622), vec2(0.141101, 0.652700),
                                    vec2(0.229799, 0.897999), vec2(0.581538, 0.283692), vec2(0.270604, 0.722818),
                                    vec2(0.599556, 0.096453), vec2(0.510171, 0.942157), vec2(0.035468, 0.534009),
                                    vec2(0.861564, 0.225160), vec2(0.173087, 0.893519), vec2(0.826938, 0.771814),
                                    vec2(0.542361, 0.721862));
#endif

// HLSL lit(n.l, n.h, m): y and z.
vec2 lit(float ndl, float ndh, float m) {
    return vec2(max(ndl, 0.0), (ndl < 0.0 || ndh < 0.0) ? 0.0 : pow(max(ndh, 0.0), m));
}

#ifdef DEFAULT_W3D
// An engine-orientation UV (v down) moved by mapper `mode`; our UVs are OpenGL's (v' = 1 - v).
vec2 mapUv(vec2 uv, float modeValue, vec4 transform, bool video) {
    int mode = int(modeValue + 0.5);
    vec2 e = vec2(uv.x, 1.0 - uv.y);
    if (mode == 1) {
        e = e * transform.xy + alamoTime * transform.zw;
    } else if (mode == 2 && video) {
        float perRow = max(bwVideo0.y, 1.0), last = max(bwVideo0.z, 1.0);
        float frame = mod(alamoTime * bwVideo0.x + bwVideo0.w, last);
        // HLSL fmod keeps the dividend's sign; GLSL mod does not: for a negative FPS the effect's
        // "last + fmod(...)" is GLSL's mod itself.
        vec2 cell = floor(vec2(mod(frame, perRow), frame / perRow));
        e += cell / perRow;
    }
    return vec2(e.x, 1.0 - e.y);
}
#endif

void main() {
    vec4 p;
    vec3 n;
    vec3 pivot; // the first bone's world position (Tree.fx)
    if (skinMode == 0) {
        mat4 m = bones[rigidSlot];
        p = m * vec4(vertexPosition, 1.0);
        n = mat3(m) * vertexNormal;
        pivot = m[3].xyz;
    } else if (skinMode == 2) {
        mat4 m0 = bones[boneIndex.x];
        mat4 m1 = bones[boneIndex.y];
        p = boneWeight.x * (m0 * vec4(vertexPosition, 1.0)) + boneWeight.y * (m1 * vec4(vertexPosition2, 1.0));
        n = boneWeight.x * (mat3(m0) * vertexNormal) + boneWeight.y * (mat3(m1) * vertexNormal2);
        pivot = m0[3].xyz;
    } else {
        mat4 m = bones[boneIndex.x] * boneWeight.x;
        if (boneWeight.y > 0.0) m += bones[boneIndex.y] * boneWeight.y;
        if (boneWeight.z > 0.0) m += bones[boneIndex.z] * boneWeight.z;
        if (boneWeight.w > 0.0) m += bones[boneIndex.w] * boneWeight.w;
        p = m * vec4(vertexPosition, 1.0);
        n = mat3(m) * vertexNormal;
        pivot = bones[boneIndex.x][3].xyz;
    }
    vec3 P = p.xyz / max(p.w, 1e-6);
#ifdef TREE_SWAY
    float swayAmount = clamp((P.z - pivot.z - bwSway.x) / max(bwSway.y, 1e-6), 0.0, 1.0) * bwSway.z;
    float seed = (pivot.x + pivot.y) * 2.0;
    float fraction = fract(seed * 11.0 / 16.0 + 3.0 * 3.0 / 16.0);
    vec2 phase = vec2(alamoTime) + 20.0 * kRandomXY[clamp(int(fraction * 16.0), 0, 15)];
    P.xy += swayAmount * sin(phase);
#endif
    gl_Position = viewProjectionMatrix * vec4(P, 1.0);
    vec3 N = normalize(n);
    vec3 E = normalize(eyePosition - P);

    vec4 vc = hasVertexColor != 0 ? vertexColor : vec4(1.0);
#ifdef HOUSE_COLOR
    vc.rgb *= mix(factionColor.rgb, vec3(1.0), 0.25);
    if (bwPulse != 0.0) vc.rgb *= sin(alamoTime * 2.0) + 1.2;
#endif
#ifdef DEFAULT_W3D
    float facing = abs(dot(E, N));
    float t = bwEdgeFadeOut > 0.0 ? clamp(facing / bwEdgeFadeOut, 0.0, 1.0) : (facing > 0.0 ? 1.0 : 0.0);
    float fade = t * t * (3.0 - 2.0 * t);
    if (int(bwBlendMode + 0.5) == 2)
        vc.rgb *= fade;
    else
        vc.a *= fade;
#endif

    vec3 diffuseLight = vec3(0.0), specularLight = vec3(0.0);
    vMainDiffuse = vec3(0.0);
    vMainSpecular = vec3(0.0);
    for (int i = 0; i < 3; ++i) {
        if (i >= rigLightCount) break; // lights the rig does not have are black
        vec3 L = towardLight(i, P);
        vec2 l = lit(dot(N, L), dot(N, normalize(L + E)), bwShininess);
        if (i == 0) {
            vMainDiffuse = lightColor[0].rgb * l.x * bwDiffuse * vc.rgb / 2.0;
            vMainSpecular = lightColor[0].rgb * l.y * bwSpecular / 2.0;
        } else {
            diffuseLight += lightColor[i].rgb * l.x;
            specularLight += lightColor[i].rgb * l.y;
        }
    }
    vec3 diffuseColor = (bwEmissive + ambientColor * bwAmbient + diffuseLight * bwDiffuse) * vc.rgb;
    vColor = clamp(vec4(diffuseColor / 2.0, bwOpacity * vc.a), 0.0, 1.0);
    vSpecular = clamp(specularLight * bwSpecular / 2.0, 0.0, 1.0);

    vUv0 = vertexTexCoord;
    vUv1 = hasTexCoord1 != 0 ? vertexTexCoord1 : vertexTexCoord;
#ifdef DEFAULT_W3D
    vUv0 = mapUv(vUv0, bwMapper0, bwTransform0, true);
    vUv1 = mapUv(vUv1, bwMapper1, bwTransform1, false);
#endif
#ifdef SIMPLE // Simple.fx: TEXCOORD0 = uv * TexCoordTransform_0.xy + Time * TexCoordTransform_0.zw (engine v down)
    vec2 e = vec2(vertexTexCoord.x, 1.0 - vertexTexCoord.y) * bwTransform0.xy + alamoTime * bwTransform0.zw;
    vUv0 = vec2(e.x, 1.0 - e.y);
#endif
}
