// The low-resolution particle target blended over the window (premultiplied colour; render/particles.cpp).
in vec2 corner;
in vec4 tileRect; // per instance: x0, y0, x1, y1 in normalized device coordinates
out vec2 uv;
void main() {
    vec2 p = mix(tileRect.xy, tileRect.zw, corner * 0.5 + 0.5);
    uv = p * 0.5 + 0.5;
    gl_Position = vec4(p, 0.0, 1.0);
}
