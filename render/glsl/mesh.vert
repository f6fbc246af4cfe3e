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

out vec3 wPos;
out vec3 wNormal;
out vec3 wTangent;
out vec3 wBinormal;
out vec2 uv;
out vec4 vColor;
invariant gl_Position; // the depth pre-pass and the shading pass must produce the same depths

void main() {
    vec4 p;
    vec3 n, t, b;
    if (skinMode == 0) {
        mat4 m = bones[rigidSlot];
        p = m * vec4(vertexPosition, 1.0);
        mat3 r = mat3(m);
        n = r * vertexNormal; t = r * vertexTangent; b = r * vertexBinormal;
    } else if (skinMode == 2) {
        mat4 m0 = bones[boneIndex.x];
        mat4 m1 = bones[boneIndex.y];
        float w0 = boneWeight.x, w1 = boneWeight.y;
        p = w0 * (m0 * vec4(vertexPosition, 1.0)) + w1 * (m1 * vec4(vertexPosition2, 1.0));
        n = w0 * (mat3(m0) * vertexNormal) + w1 * (mat3(m1) * vertexNormal2);
        t = mat3(m0) * vertexTangent; b = mat3(m0) * vertexBinormal;
    } else {
        mat4 m = bones[boneIndex.x] * boneWeight.x;
        if (boneWeight.y > 0.0) m += bones[boneIndex.y] * boneWeight.y;
        if (boneWeight.z > 0.0) m += bones[boneIndex.z] * boneWeight.z;
        if (boneWeight.w > 0.0) m += bones[boneIndex.w] * boneWeight.w;
        p = m * vec4(vertexPosition, 1.0);
        mat3 r = mat3(m);
        n = r * vertexNormal; t = r * vertexTangent; b = r * vertexBinormal;
    }
    wPos = p.xyz / max(p.w, 1e-6);
    wNormal = n; wTangent = t; wBinormal = b;
    uv = vertexTexCoord;
    vColor = hasVertexColor != 0 ? vertexColor : vec4(1.0);
    gl_Position = viewProjectionMatrix * vec4(wPos, 1.0);
}
