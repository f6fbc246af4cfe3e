// The fragment stage of w3x_effects.vert (its header states the formulas and their sources).
in vec2 vUv0;
in vec2 vUv1;
in vec4 vColor;
in float vFalloff;
in mat3 vToView;

uniform sampler2D efTexture;        // DiffuseTexture (AlienShield), Texture_0 (MuzzleFlash), NormalMap (distortion)
uniform sampler2D efFalloffTexture; // FalloffTexture (AlienShield, ShieldDistortion)
uniform float efBumpScale;          // BumpScale (distortion)
#ifdef DISTORTION
uniform sampler2D sceneCopy; // the frame drawn so far (FrameGraph heat pass)
uniform vec2 viewportSize;
const float kMaxOffset = 0.08; // PostFX_Distortion's maxOffset
#endif

out vec4 fragColor;

void main() {
#if defined(ALIEN_SHIELD)
    vec4 color = vColor * texture(efFalloffTexture, vec2(vFalloff, 1.0)); // engine (falloff, 0)
    color *= texture(efTexture, vUv0);
    color *= texture(efTexture, vUv1) * 4.0;
    fragColor = clamp(color, 0.0, 1.0);
#elif defined(MUZZLE_FLASH)
    vec4 color = vColor * texture(efTexture, vUv0) * texture(efTexture, vUv1);
    fragColor = clamp(color, 0.0, 1.0);
#elif defined(DISTORTION)
    vec4 nm = texture(efTexture, vUv0);
    vec3 bump = nm.xyz * 2.0 - 1.0;
    bump.xy *= efBumpScale;
#ifdef SHIELD_FALLOFF
    vec3 f = texture(efFalloffTexture, vec2(vFalloff, 1.0 - vFalloff)).rgb; // HLSL's scalar UV: (falloff, falloff)
    float alpha = vFalloff * nm.a * (f.r + f.g + f.b) * 0.3;
#else
    bump = normalize(bump);
    float alpha = nm.a;
#endif
    vec3 n = vToView * bump;
    vec2 stored = clamp(n.xy * 0.5 + 0.5, 0.0, 1.0); // the distortion buffer's 8-bit colour
    vec2 offset = (stored * 2.0 - 1.0) * clamp(alpha, 0.0, 1.0) * kMaxOffset;
    fragColor = vec4(texture(sceneCopy, gl_FragCoord.xy / viewportSize + vec2(offset.x, -offset.y)).rgb, 1.0);
#else
    fragColor = vColor;
#endif
}
