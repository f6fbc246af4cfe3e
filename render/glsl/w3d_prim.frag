// The fragment stage of w3d_prim.vert: ww3d2's texture stage (the shader's primary gradient with the texture) and
// the blend's output (additive adds colour * alpha; alpha and modulate leave the blend to the render state).
in vec4 vColor;
in vec2 vUv;
uniform sampler2D primTexture;
out vec4 fragColor;
void main() {
    vec4 D = vColor;
    vec4 c = D;
#if HAS_TEXTURE
    vec4 T = texture(primTexture, vUv);
#if PRI == 0
    c = T;                                                            // SELECTARG1 texture
#elif PRI == 2
    c = vec4(clamp(T.rgb + D.rgb, 0.0, 1.0), T.a * D.a);              // ADD colour, MODULATE alpha
#else
    c = T * D;                                                        // MODULATE
#endif
#endif
#if BLEND_KIND == 1
    fragColor = vec4(c.rgb, 1.0); // colour already scaled by alpha (ww3d2's emissive = alpha * colour)
#elif BLEND_KIND == 0
    fragColor = vec4(c.rgb, 1.0);
#else
    fragColor = c;
#endif
}
