in vec2 uv;
uniform sampler2D labelTexture;
out vec4 fragColor;
void main() {
    vec4 t = texture(labelTexture, uv);
    if (t.a < 0.02) discard;
    fragColor = t;
}
