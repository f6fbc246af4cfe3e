// The fragment stage of w3x_tiberium.vert (its header states the formula and its sources).
in vec2 vUv;
in vec3 vL[3];
in vec3 vH;
in vec3 vWorldNormal;
in vec3 vEye;
in vec4 vColor;

uniform sampler2D tbDiffuseMap;   // DiffuseMap
uniform sampler2D tbNormalMap;    // NormalMap
uniform sampler2D tbSpecMap;      // SpecMap
uniform sampler2D tbGlowTexture;  // TimeGlowTexture
uniform vec2 tbUvScale;           // TexCoordTransform_Normal, TexCoordTransform_Spec
uniform float tbBumpScale;        // BumpScale
uniform vec3 tbDiffuse;           // DiffuseColor
uniform vec3 tbSpecular;          // SpecularColor
uniform float tbSpecularExponent; // SpecularExponent
uniform float tbSpecMult;         // SpecMult
uniform float tbEnvMult;          // EnvMult
uniform vec3 tbGlowStrength;      // TimeGlowStrength
uniform vec4 lightColor[4];
uniform int rigLightCount;
uniform vec3 ambientColor;        // the environment cube's stand-in (see w3x_tiberium.vert)

out vec4 fragColor;

vec2 lit(float ndl, float ndh, float m) {
    return vec2(max(ndl, 0.0), (ndl < 0.0 || ndh < 0.0) ? 0.0 : pow(ndh, m));
}

// UV * scale in the engine's orientation (v down), back to OpenGL's.
vec2 scaled(vec2 uv, float s) { return vec2(uv.x * s, 1.0 - (1.0 - uv.y) * s); }

void main() {
    vec4 base = texture(tbDiffuseMap, vUv);
    vec3 diffuse = base.rgb * tbDiffuse;
    vec3 bump = texture(tbNormalMap, scaled(vUv, tbUvScale.x)).rgb * 2.0 - 1.0;
    bump.xy *= tbBumpScale;
    bump = normalize(bump);
    vec4 st = texture(tbSpecMap, scaled(vUv, tbUvScale.y));
    // The effect samples its EnvMap cube at -reflect(eye, normalize(normal) + bump * 0.6); the stand-in sky is the
    // same in every direction, so the direction drops out.
    vec3 env = tbEnvMult * clamp(ambientColor, 0.0, 1.0) * st.y * tbSpecular;
    vec3 specular = tbSpecMult * tbSpecular * st.x;
    vec3 sum = vec3(0.0);
    vec3 c0 = rigLightCount > 0 ? lightColor[0].rgb : vec3(0.0);
    for (int i = 0; i < 3; ++i) {
        if (i >= rigLightCount) break;
        vec2 l = lit(dot(bump, vL[i]), dot(bump, vH), tbSpecularExponent);
        sum += c0 * (diffuse * l.x + specular * l.y); // light 0's colour for every light, as the effect has it
    }
    vec4 color = vColor * base;
    color.rgb += (sum * 0.4) * (env * 6.0 + 0.75);
    color.rgb += tbGlowStrength * vColor.a * texture(tbGlowTexture, vUv).rgb;
#ifdef ALPHA_TEST
    if (color.a < 96.0 / 255.0) discard; // AlphaRef 0x60, GREATEREQUAL
#endif
    fragColor = clamp(color, 0.0, 1.0);
}
