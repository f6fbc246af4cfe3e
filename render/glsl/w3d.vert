// GLSL of the W3D materials: one pass of a ww3d2 material (EA's released ww3d2: shader.cpp ShaderClass::Apply,
// vertmaterial.cpp, mapper.cpp, meshmatdesc.cpp) written in GLSL shared by OpenGL 3.3 and WebGL2.
//
// Vertex stage = Direct3D 8 fixed-function transform and lighting as ww3d2 configures it: per-vertex lighting
// (emissive + ambient * scene ambient + sum of diffuse * max(N.L, 0) * light + specular with the material power,
// local viewer), material colour sources (diffuse/ambient from the vertex colour array when meshmatdesc's rules
// say so), the result clamped to [0, 1] as D3D does; the texture mapper of each stage (texture matrix and texgen)
// on the timeline's time. Fragment stage = the two texture stages ShaderClass::Apply sets (primary gradient,
// post-detail colour and alpha functions), the secondary gradient (specular added) and the alpha test (ref 0x60,
// GREATEREQUAL). Blending and depth state are render states of the pass (render/w3d_materials.cpp).
//
// Compile-time switches (prepended): PRI <0..5> primary gradient, TEXTURING, DCOLOR <0..12>, DALPHA <0..3>
// (post-detail functions; stage 1 sampled when either is non-zero), ALPHA_TEST, SEC_GRADIENT.
//
// UVs: the model stores V flipped for OpenGL (v' = 1 - v); mappers work in the engine's (u, v) and the result is
// flipped back for sampling. Directions are in the W3D world (Z up) that the bone palette produces; camera-space
// vectors are converted to Direct3D's left-handed camera space (z forward) before texgen.
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec4 boneWeight;
in uvec4 boneIndex;
in vec3 vertexPosition2;
in vec3 vertexNormal2;
in vec2 w3dUv0;
in vec2 w3dUv1;
in vec4 w3dColor;

layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform int skinMode;
uniform int rigidSlot;
uniform mat4 viewProjectionMatrix;
uniform mat4 viewMatrix;
uniform mat4 projectionMatrix;
uniform vec3 eyePosition;
uniform vec4 lightPosition[4];
uniform vec4 lightColor[4];
uniform int rigLightCount;
uniform vec3 ambientColor;
uniform float alamoTime;     // the timeline's time (seconds)

uniform int wLighting;       // D3DRS_LIGHTING
uniform int wHasColor;       // the pass has a colour array (DCG and/or DIG)
uniform vec4 wColorScale;    // meshmatdesc's premultiplication of the colour array
uniform int wDiffuseFromColor, wAmbientFromColor;
uniform vec4 wDiffuse;       // rgb diffuse, a opacity
uniform vec3 wAmbient, wSpecular, wEmissive;
uniform float wShininess;
// Mapper per stage: type, then arguments packed (see render/w3d_materials.cpp mapperUniforms)
uniform int wMapper[2];
uniform vec4 wMapA[2];
uniform vec4 wMapB[2];
uniform vec4 wMapC[2];
uniform int wUvSel[2];       // which UV attribute the stage reads (0 w3dUv0, 1 w3dUv1)

out vec4 vDiffuse;
out vec4 vSpecular;
out vec3 vTex0;
out vec3 vTex1;
out vec2 vBump;

const float PI = 3.14159265358979;

float hash(float n) { return fract(sin(n * 12.9898 + 78.233) * 43758.5453); }

// Texture coordinates of stage s in the engine's convention (xy / z; z = 1 except for the screen mapper).
vec3 mapStage(int s, vec2 uvGl, vec3 nCam, vec3 rCam, vec3 nWorld, vec3 rWorld, vec4 clip) {
    vec2 uv = vec2(uvGl.x, 1.0 - uvGl.y);
    int type = wMapper[s];
    vec4 A = wMapA[s], B = wMapB[s], C = wMapC[s];
    float t = alamoTime, ms = alamoTime * 1000.0;
    if (type == 6) return vec3(uv * A.xy, 1.0); // Scale
    if (type == 4 || type == 18) { // LinearOffset, BumpEnv: A scale, B.xy per sec, B.zw start offset, C.x clamp
        vec2 o = B.zw - B.xy * t;
        o = C.x > 0.5 ? clamp(o, -A.xy, A.xy) : o - floor(o);
        return vec3(uv * A.xy + o, 1.0);
    }
    if (type == 7) { // Grid: A.x fps, A.y log2 width, A.z last, A.w offset
        float w = exp2(A.y);
        float last = A.z;
        float frame = A.w;
        if (A.x != 0.0) {
            float msPerFrame = floor(1000.0 / abs(A.x));
            float n = floor(ms / msPerFrame) * sign(A.x);
            float start = A.x > 0.0 ? A.w : (last - 1.0) - A.w;
            frame = mod(start + n, last);
        }
        vec2 o = vec2(mod(frame, w), floor(frame / w)) / w;
        return vec3(uv + o, 1.0);
    }
    if (type == 8) { // Rotate: A scale, B.x Hz, B.yz centre
        float a = mod(2.0 * PI * B.x * t, 2.0 * PI);
        float c = cos(a), sn = sin(a);
        vec2 d = uv - B.yz;
        return vec3(A.x * (c * d.x - sn * d.y + B.y), A.y * (sn * d.x + c * d.y + B.z), 1.0);
    }
    if (type == 9) { // SineLinearOffset: A scale, B amp/freq/phase U, C amp/freq/phase V
        float ang = 2.0 * PI * t;
        vec2 o = vec2(B.x * sin(B.y * ang + B.z * PI), C.x * sin(C.y * ang + C.z * PI));
        return vec3(uv * A.xy + o, 1.0);
    }
    if (type == 10) { // StepLinearOffset: A scale, B.xy step, B.z steps per second, C.x clamp
        vec2 o = B.xy * floor(B.z * t + 1e-4);
        o = C.x > 0.5 ? clamp(o, -A.xy, A.xy) : o - floor(o);
        return vec3(uv * A.xy + o, 1.0);
    }
    if (type == 11) { // ZigzagLinearOffset: A scale, B.xy per sec, B.z period (s)
        vec2 o = vec2(0.0);
        if (B.z > 0.0) {
            float r = mod(t, B.z);
            o = B.xy * (r > 0.5 * B.z ? B.z - r : r);
        }
        return vec3(uv * A.xy + o, 1.0);
    }
    if (type == 16) { // Random: A scale, B.x fps, B.yz per sec
        float frameIndex = B.x != 0.0 ? floor(t * B.x) : 0.0;
        float rem = B.x != 0.0 ? t - frameIndex / B.x : t;
        float ang = 2.0 * PI * hash(frameIndex * 3.0 + 1.0);
        vec2 cen = vec2(hash(frameIndex * 3.0 + 2.0), hash(frameIndex * 3.0 + 3.0));
        float c = cos(ang), sn = sin(ang);
        vec2 o = mod(cen + rem * B.yz, 1.0);
        return vec3(c * A.x * uv.x - sn * A.y * uv.y + o.x, sn * A.x * uv.x + c * A.y * uv.y + o.y, 1.0);
    }
    if (type == 1 || type == 2) { // Environment (reflection), CheapEnvironment (normal)
        vec3 v = type == 1 ? rCam : nCam;
        return vec3(0.5 * v.xy + 0.5, 1.0);
    }
    if (type == 12 || type == 13) { // WS classic / WS environment: world-space vector, axis pair A.x
        vec3 v = type == 13 ? rWorld : nWorld;
        vec2 p = A.x < 0.5 ? v.yz : (A.x < 1.5 ? v.xz : v.xy);
        return vec3(0.5 * p + 0.5, 1.0);
    }
    if (type == 14 || type == 15 || type == 19 || type == 20) { // grid environment variants: A as Grid, B.x axis
        float w = exp2(A.y), last = A.z, frame = A.w;
        if (A.x != 0.0) {
            float msPerFrame = floor(1000.0 / abs(A.x));
            float start = A.x > 0.0 ? A.w : (last - 1.0) - A.w;
            frame = mod(start + floor(ms / msPerFrame) * sign(A.x), last);
        }
        vec2 o = vec2(mod(frame, w), floor(frame / w)) / w;
        float del = 0.5 / w;
        vec3 v = (type == 15) ? rCam : (type == 14 ? nCam : (type == 20 ? rWorld : nWorld));
        // The world-space ones take the axis pair of their Axis argument (GridWSEnvMapperClass), as types 12/13.
        vec2 p = type < 19 ? v.xy : (B.x < 0.5 ? v.yz : (B.x < 1.5 ? v.xz : v.xy));
        return vec3(del * p + o + del, 1.0);
    }
    if (type == 17) { // Edge: A.x V per sec, A.y V start, A.z use reflection
        vec3 v = A.z > 0.5 ? rCam : nCam;
        float vo = A.y + A.x * t;
        return vec3(0.5 * v.z + 0.5, vo - floor(vo), 1.0);
    }
    if (type == 3) { // Screen: A scale, B.xy per sec, B.zw start, C.x clamp; projected (divided per pixel)
        vec2 o = B.zw - B.xy * t;
        o = C.x > 0.5 ? clamp(o, -A.xy, A.xy) : o - floor(o);
        return vec3(A.xy * clip.xy + o * clip.w, clip.w);
    }
    return vec3(uv, 1.0); // UV, Silhouette (not supported by ww3d2) and unknown types: the stored coordinates
}

void main() {
    vec4 p;
    vec3 n;
    if (skinMode == 0) {
        mat4 m = bones[rigidSlot];
        p = m * vec4(vertexPosition, 1.0);
        n = mat3(m) * vertexNormal;
    } else if (skinMode == 2) {
        mat4 m0 = bones[boneIndex.x];
        mat4 m1 = bones[boneIndex.y];
        p = boneWeight.x * (m0 * vec4(vertexPosition, 1.0)) + boneWeight.y * (m1 * vec4(vertexPosition2, 1.0));
        n = boneWeight.x * (mat3(m0) * vertexNormal) + boneWeight.y * (mat3(m1) * vertexNormal2);
    } else {
        mat4 m = bones[boneIndex.x] * boneWeight.x;
        if (boneWeight.y > 0.0) m += bones[boneIndex.y] * boneWeight.y;
        if (boneWeight.z > 0.0) m += bones[boneIndex.z] * boneWeight.z;
        if (boneWeight.w > 0.0) m += bones[boneIndex.w] * boneWeight.w;
        p = m * vec4(vertexPosition, 1.0);
        n = mat3(m) * vertexNormal;
    }
    vec3 P = p.xyz / max(p.w, 1e-6);
    vec3 N = normalize(n);
    vec3 E = normalize(eyePosition - P);
    gl_Position = viewProjectionMatrix * vec4(P, 1.0);

    // Material colour sources (D3DRS_*MATERIALSOURCE)
    vec4 vc = wHasColor != 0 ? w3dColor * wColorScale : vec4(1.0);
    vec3 mDiff = wDiffuseFromColor != 0 ? vc.rgb : wDiffuse.rgb;
    float alpha = wDiffuseFromColor != 0 ? vc.a : wDiffuse.a;
    vec3 mAmb = wAmbientFromColor != 0 ? vc.rgb : wAmbient;
    if (wLighting != 0) {
        vec3 d = vec3(0.0), s = vec3(0.0);
        for (int i = 0; i < rigLightCount && i < 4; ++i) {
            vec3 L = lightPosition[i].w == 0.0 ? -normalize(lightPosition[i].xyz)
                                               : normalize(lightPosition[i].xyz - P);
            float ndl = dot(N, L);
            if (ndl <= 0.0) continue;
            d += lightColor[i].rgb * ndl;
            vec3 H = normalize(E + L);
            float ndh = max(dot(N, H), 0.0);
            s += lightColor[i].rgb * (wShininess > 0.0 ? pow(ndh, wShininess) : 1.0);
        }
        vDiffuse = vec4(clamp(wEmissive + mAmb * ambientColor + mDiff * d, 0.0, 1.0), clamp(alpha, 0.0, 1.0));
        vSpecular = vec4(clamp(wSpecular * s, 0.0, 1.0), 0.0);
    } else {
        vDiffuse = wHasColor != 0 ? clamp(vc, 0.0, 1.0) : vec4(1.0);
        vSpecular = vec4(0.0);
    }

    // Texgen inputs in Direct3D camera space (left-handed: z forward) and in the world
    vec3 nView = normalize(mat3(viewMatrix) * N);
    vec3 pView = (viewMatrix * vec4(P, 1.0)).xyz;
    vec3 eView = normalize(-pView);
    vec3 rView = 2.0 * dot(eView, nView) * nView - eView;
    vec3 nCam = vec3(nView.xy, -nView.z), rCam = vec3(rView.xy, -rView.z);
    vec3 rWorld = 2.0 * dot(E, N) * N - E;
    vec4 clip = gl_Position;
    vec2 uvA = wUvSel[0] == 1 ? w3dUv1 : w3dUv0;
    vec2 uvB = wUvSel[1] == 1 ? w3dUv1 : w3dUv0;
    vTex0 = mapStage(0, uvA, nCam, rCam, N, rWorld, clip);
    vTex1 = mapStage(1, uvB, nCam, rCam, N, rWorld, clip);
    // BumpEnv on stage 0: its rotating, scaled bump matrix (BumpEnvTextureMapperClass::Apply)
    vBump = vec2(0.0);
    if (wMapper[0] == 18) {
        float a = mod(2.0 * PI * wMapC[0].y * alamoTime, 2.0 * PI);
        vBump = wMapC[0].z * vec2(cos(a), sin(a));
    }
}
