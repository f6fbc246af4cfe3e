in vec3 vertexPosition;
in vec4 vertexColor;
in uvec2 lineBone;               // x = palette slot, y = bone id for highlighting (0xFFFF none)
layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform mat4 viewProjectionMatrix;
uniform int highlightBone;
out vec4 vColor;
void main() {
    vec4 p = bones[lineBone.x] * vec4(vertexPosition, 1.0);
    vColor = (highlightBone >= 0 && int(lineBone.y) == highlightBone) ? vec4(1.0, 0.9, 0.1, 1.0) : vertexColor;
    gl_Position = viewProjectionMatrix * p;
}
