// GLSL of BFME's shader material NormalMapped.fx (W3D_CHUNK_SHADER_MATERIALS, type name "NormalMapped.fx"),
// written in GLSL shared by OpenGL 3.3 and WebGL2 from what public sources establish about the game's compiled
// effect (normalmapped.fxo in BFME II's Shaders.big); nothing of them is copied:
//  - OpenBFME's description of its disassembly (w3dshadergen.cpp and its "render lighting" tests, read through the
//    public code index): per light L (towards the light) and H = normalize(V + L) are brought into the frame
//    (x, y, z) = (-BINORMAL, -TANGENT, NORMAL) per vertex and interpolated, H not renormalised per pixel; the pixel
//    shader takes n = normalize(tex * 2 - 1 with xy * BumpScale) and computes
//      colour = tex.rgb * saturate(Ambient * AmbientColor * 0.5) * 2
//             + sum over the three lights of LightColor * (tex.rgb * DiffuseColor * N.L + SpecularColor * pow(N.H,
//             SpecularExponent))
//    with a light's terms only where N.L > 0 (specular also only where N.H > 0), alpha = tex.a.
//  - A public BFME texture tool (sagekit paint/imageio.py) states the same basis and that the game's files store
//    tangent = -dP/dv, binormal = +dP/du (render derives them so when a file has none: w3d/w3d_tangents.h).
//  - OpenSAGE (src/OpenSage.Game/Assets/Shaders/NormalMapped.frag, Common.h): the material constants DiffuseTexture,
//    NormalMap, BumpScale, AmbientColor, DiffuseColor, SpecularColor, SpecularExponent, AlphaTestEnable, and the
//    alpha test (discard below 0x60 / 255, D3D's ALPHAREF 0x60 with GREATEREQUAL); the OpenSAGE Blender plugin
//    (io_mesh_w3d/common/node_groups/normal_mapped.py) for the same property names.
// The light environment is the one rigscope lights W3D with (the first three of lightPosition/lightColor, the scene
// ambient ambientColor: render/lights.cpp, scene_view.cpp); the map's cloud shadows are the map's, none on a model.
// docs/formats/w3d-fx-shaders.md states the formula with its sources.
//
// Compile-time switch (prepended): ALPHA_TEST (AlphaTestEnable).
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec2 vertexTexCoord;
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
uniform int rigLightCount;

out vec2 vUv;
out vec3 vLt[3]; // towards light i in the frame (-binormal, -tangent, normal)
out vec3 vHt[3]; // unit half vector of light i and the eye in that frame (interpolated as it is)

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

    vec3 fz = normalize(n);
    vec3 fx = -normalize(r * vertexBinormal);
    vec3 fy = -normalize(r * vertexTangent);
    vec3 V = normalize(eyePosition - P);
    for (int i = 0; i < 3; ++i) {
        vec3 L = vec3(0.0, 0.0, 1.0);
        if (i < rigLightCount)
            L = lightPosition[i].w == 0.0 ? -normalize(lightPosition[i].xyz) : normalize(lightPosition[i].xyz - P);
        vec3 H = V + L;
        vLt[i] = vec3(dot(L, fx), dot(L, fy), dot(L, fz));
        vHt[i] = normalize(vec3(dot(H, fx), dot(H, fy), dot(H, fz)));
    }
}
