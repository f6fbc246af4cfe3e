in vec3 vertexPosition;
in vec4 vertexColor;
in uvec2 lineBone;               // x = palette slot (bit 0x8000: translate only), y = bone id for highlighting (0xFFFF none)
layout(std140) uniform BonePalette { mat4 bones[512]; };
uniform mat4 viewProjectionMatrix;
uniform int highlightBone;
out vec4 vColor;
void main() {
    // Slot bit 0x8000: the slot's translation only (ww3d2's axis-aligned boxes keep the model axes).
    mat4 b = bones[lineBone.x & 0x7FFFu];
    vec4 p = (lineBone.x & 0x8000u) != 0u ? vec4(vertexPosition + b[3].xyz, 1.0) : b * vec4(vertexPosition, 1.0);
    vColor = (highlightBone >= 0 && int(lineBone.y) == highlightBone) ? vec4(1.0, 0.9, 0.1, 1.0) : vertexColor;
    gl_Position = viewProjectionMatrix * p;
}
