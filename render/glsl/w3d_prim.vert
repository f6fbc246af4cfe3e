// W3D spheres and rings (render/w3d_primitives.cpp): world-space triangles rebuilt each frame with ww3d2's vertex
// colour (the primitive's keyframed colour and alpha, the sphere's alpha vector folded in) and its UVs (Direct3D's,
// v down). Switches (always defined): HAS_TEXTURE 0/1, PRI (the shader's primary gradient: 0 texture only,
// 1 modulate, 2 add), BLEND_KIND (0 opaque, 1 additive, 2 alpha, 3 modulate).
in vec3 vertexPosition;
in vec4 vertexColor;
in vec2 vertexTexCoord;
in uvec2 lineBone; // x = palette slot (the identity slot: positions are in world space), y unused
layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform mat4 viewProjectionMatrix;
out vec4 vColor;
out vec2 vUv;
void main() {
    vec4 p = bones[lineBone.x] * vec4(vertexPosition, 1.0);
    vColor = vertexColor;
    vUv = vec2(vertexTexCoord.x, 1.0 - vertexTexCoord.y); // Direct3D's v down -> the uploaded image's rows
    gl_Position = viewProjectionMatrix * p;
}
