in vec2 corner;                  // (-1,-1) .. (1,1)
in vec4 dazzleCenter;            // xyz world, w radius
in vec4 dazzleColor;
in vec4 dazzleRect;              // u0, v0, u1, v1
uniform mat4 viewMatrix;
uniform mat4 projectionMatrix;
out vec2 uv;
out vec2 cornerPos;
out vec4 vColor;
void main() {
    cornerPos = corner;
    vec4 c = viewMatrix * vec4(dazzleCenter.xyz, 1.0);
    c.xy += corner * dazzleCenter.w;
    vec2 t = corner * 0.5 + 0.5;
    uv = vec2(mix(dazzleRect.x, dazzleRect.z, t.x), mix(dazzleRect.y, dazzleRect.w, t.y));
    vColor = dazzleColor;
    gl_Position = projectionMatrix * c;
}
