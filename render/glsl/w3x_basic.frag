// The fragment stage of w3x_basic.vert (its header states the formula and its sources).
in vec2 vUv0;
in vec2 vUv1;
in vec4 vColor;
in vec3 vSpecular;
in vec3 vMainDiffuse;
in vec3 vMainSpecular;

uniform sampler2D bwTexture0;      // Texture_0
uniform sampler2D bwTexture1;      // Texture_1 (DefaultW3D)
uniform sampler2D bwRecolorTexture; // RecolorTexture (Infantry)
uniform vec4 factionColor;         // RecolorColor
#ifdef DEFAULT_W3D
uniform float bwNumTextures;         // NumTextures (0..2)
uniform float bwSecondaryMode;       // SecondaryTextureBlendMode (0..3)
#endif

#ifdef SIMPLE
uniform vec3 bwEmissive; // ColorEmissive (Simple.fx)
#endif

out vec4 fragColor;

void main() {
#ifdef SIMPLE
    vec4 st = texture(bwTexture0, vUv0);
    fragColor = clamp(vec4(st.rgb * bwEmissive, st.a), 0.0, 1.0);
#ifdef ALPHA_TEST
    if (st.a < 96.0 / 255.0) discard;
#endif
    return;
#endif
#ifdef DEFAULT_W3D
    int numTextures = int(bwNumTextures + 0.5), secondaryMode = int(bwSecondaryMode + 0.5);
#endif
    vec4 color = vColor;
    vec3 specular = vSpecular + vMainSpecular;
    color.rgb += vMainDiffuse;
#ifdef DEFAULT_W3D
    if (numTextures < 2 || secondaryMode != 3) color.rgb += specular;
    if (numTextures >= 1) color *= texture(bwTexture0, vUv0);
    if (numTextures >= 2) {
        vec4 secondary = texture(bwTexture1, vUv1);
        if (secondaryMode == 0) {
            color.rgb *= secondary.rgb;
        } else if (secondaryMode == 1) {
            color.rgb *= secondary.rgb;
            color.rgb += color.rgb;
        } else if (secondaryMode == 2) {
            color.rgb = mix(color.rgb, secondary.rgb, color.a);
        } else if (secondaryMode == 3) {
            color.rgb += specular * color.a;
        }
    }
#else
    color.rgb += specular;
    color *= texture(bwTexture0, vUv0);
#ifdef RECOLOR
    vec4 rc = texture(bwRecolorTexture, vUv0);
    color.rgb = mix(color.rgb, rc.rgb * factionColor.rgb / 2.0, rc.a);
#endif
#endif
    color.rgb += color.rgb; // the effects' overbrighten
#ifdef ALPHA_TEST
    if (color.a < 96.0 / 255.0) discard; // AlphaRef DEFAULT_ALPHATEST_THRESHOLD (0x60), GREATEREQUAL
#endif
    fragColor = clamp(color, 0.0, 1.0);
}
