// The fragment stage of w3d_fx.vert (its header states the formula and its sources).
in vec2 vUv;
in vec3 vLt[3];
in vec3 vHt[3];

uniform sampler2D fxDiffuseTexture; // DiffuseTexture
uniform sampler2D fxNormalMap;      // NormalMap
uniform float fxBumpScale;          // BumpScale
uniform vec3 fxAmbient;             // AmbientColor
uniform vec3 fxDiffuse;             // DiffuseColor
uniform vec3 fxSpecular;            // SpecularColor
uniform float fxSpecularExponent;   // SpecularExponent
uniform vec3 ambientColor;
uniform vec4 lightColor[4];
uniform int rigLightCount;

out vec4 fragColor;

void main() {
    vec4 tex = texture(fxDiffuseTexture, vUv);
#ifdef ALPHA_TEST
    if (tex.a < 96.0 / 255.0) discard;
#endif
    vec3 nt = texture(fxNormalMap, vUv).rgb * 2.0 - 1.0;
    nt.xy *= fxBumpScale;
    nt = normalize(nt);
    vec3 c = tex.rgb * clamp(ambientColor * fxAmbient * 0.5, 0.0, 1.0) * 2.0;
    vec3 base = tex.rgb * fxDiffuse;
    for (int i = 0; i < 3 && i < rigLightCount; ++i) {
        float ndl = dot(nt, vLt[i]);
        if (ndl <= 0.0) continue;
        float ndh = dot(nt, vHt[i]);
        float s = ndh > 0.0 ? pow(ndh, fxSpecularExponent) : 0.0;
        c += lightColor[i].rgb * (base * ndl + fxSpecular * s);
    }
    fragColor = vec4(clamp(c, 0.0, 1.0), tex.a);
}
