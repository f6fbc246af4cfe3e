in vec2 corner;                  // (0,0) .. (1,1)
in vec4 labelAnchor;             // xyz world, w = 1 shown / 0 hidden
in vec4 labelSize;               // xy = size in pixels, zw = pixel offset of the lower-left corner
in vec4 labelRect;               // u0, v0, u1, v1 (v0 = bottom)
uniform mat4 viewProjectionMatrix;
uniform vec2 viewportSize;
out vec2 uv;
void main() {
    vec4 c = viewProjectionMatrix * vec4(labelAnchor.xyz, 1.0);
    vec2 px = (corner * labelSize.xy + labelSize.zw) * labelAnchor.w;
    c.xy += px * 2.0 / max(viewportSize, vec2(1.0)) * c.w;
    uv = vec2(mix(labelRect.x, labelRect.z, corner.x), mix(labelRect.y, labelRect.w, corner.y));
    gl_Position = c;
}
