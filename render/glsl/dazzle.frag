in vec2 uv;
in vec2 cornerPos;
in vec4 vColor;
uniform sampler2D dazzleTexture;
uniform int hasTexture;
uniform int textureFlip;
out vec4 fragColor;
void main() {
    vec4 tex;
    if (hasTexture != 0) {
        tex = texture(dazzleTexture, textureFlip != 0 ? vec2(uv.x, 1.0 - uv.y) : uv);
    } else {
        float g = clamp(1.0 - length(cornerPos), 0.0, 1.0);
        tex = vec4(vec3(g * g), g);
    }
    fragColor = vec4(tex.rgb * vColor.rgb * vColor.a, 1.0);
}
