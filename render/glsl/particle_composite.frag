// The low-resolution particle target: its texel as it is (premultiplied colour).
in vec2 uv;
uniform sampler2D lowResColor;
out vec4 fragColor;
void main() {
    fragColor = texture(lowResColor, uv);
}
