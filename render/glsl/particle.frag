// A particle's colour (render/particles.cpp; defines: see particle.vert).
in vec2 uv;
in vec2 cornerPos;
in vec4 vColor;
uniform sampler2D particleTexture;
out vec4 fragColor;
void main() {
#if HAS_TEXTURE
    vec4 tex = texture(particleTexture, uv);
#elif ORIENT == 3
    vec4 tex = vec4(1.0); // W3D line segments without a texture: solid
#else
    float g = clamp(1.0 - length(cornerPos), 0.0, 1.0); // soft round sprite
    vec4 tex = vec4(1.0, 1.0, 1.0, g * g);
#endif
    vec4 c = tex * vColor;
    if (c.a < 0.004) discard; // nothing to add or blend: skip the framebuffer read and write
#if LOW_PASS
    // Premultiplied into the low-resolution target: additive leaves its alpha alone.
    fragColor = vec4(c.rgb * c.a, BLEND_KIND == 1 ? 0.0 : c.a);
#elif BLEND_KIND == 1
    fragColor = vec4(c.rgb * c.a, 1.0);
#elif BLEND_KIND == 3
    fragColor = vec4(mix(vec3(1.0), c.rgb, c.a), 1.0);
#else
#if BLEND_KIND == 0
    if (c.a < 0.5) discard;
#endif
    fragColor = c;
#endif
}
