in vec3 wPos;
in vec3 wNormal;
in vec3 wTangent;
in vec3 wBinormal;
in vec2 uv;
in vec4 vColor;

uniform sampler2D baseTexture;
uniform vec4 baseColor;         // NO_BASE_TEXTURE: the stand-in texture's colour
uniform sampler2D normalTexture;
uniform int glossSource;        // 1 base alpha, 2 normal-map alpha
uniform int colorize;
uniform int factionColorParam;
uniform int blendMode;          // 0 opaque, 1 alpha, 2 additive
uniform vec4 diffuseColor;
uniform vec4 specularColor;
uniform vec4 emissiveColor;
uniform vec4 colorParam;
uniform float shininess;
uniform vec4 factionColor;
uniform vec3 eyePosition;
uniform vec4 lightPosition[4];  // w = 0: xyz = direction of travel; w = 1: position
uniform vec4 lightColor[4];     // a = 1 / range (0 = infinite)
uniform vec3 ambientColor;
uniform int rigLightCount;  // lights in use (not "lightCount": Qt3D sets that one to its own light count)
#ifndef LIGHT_LOOP
#define LIGHT_LOOP min(rigLightCount, 4)
#endif

out vec4 fragColor;

void main() {
#ifdef NO_BASE_TEXTURE
    vec4 base = baseColor;
#else
    vec4 base = texture(baseTexture, uv);
#endif
    vec3 surface = mix(base.rgb, mix(base.rgb, factionColor.rgb * base.rgb, base.a), float(colorize));
    vec4 cparam = mix(colorParam, vec4(factionColor.rgb, colorParam.a), float(factionColorParam));
    surface *= diffuseColor.rgb * vColor.rgb;
#ifdef UNLIT
    vec3 color = surface * cparam.rgb + emissiveColor.rgb;
#else
    vec3 N = normalize(wNormal);
    N = gl_FrontFacing ? N : -N;
    float glossMask = glossSource == 1 ? base.a : 1.0;
#ifdef BUMP
    vec4 nm = texture(normalTexture, uv);
    vec3 tn = nm.xyz * 2.0 - 1.0;
    vec3 T = normalize(wTangent - N * dot(N, wTangent));
    vec3 B = normalize(wBinormal);
    N = normalize(T * tn.x + B * tn.y + N * tn.z);
    glossMask = glossSource == 2 ? nm.a : glossMask;
#endif
    vec3 diffuse = ambientColor;
#ifdef SPECULAR
    vec3 V = normalize(eyePosition - wPos);
    vec3 spec = vec3(0.0);
#endif
    for (int i = 0; i < LIGHT_LOOP; ++i) {
        vec3 d = lightPosition[i].xyz - wPos * lightPosition[i].w;
        float dist = length(d);
        vec3 L = lightPosition[i].w == 0.0 ? -d / max(dist, 1e-6) : d / max(dist, 1e-6);
        float att = clamp(1.0 - dist * lightColor[i].a, 0.0, 1.0);
        float ndl = max(dot(N, L), 0.0) * att;
        diffuse += lightColor[i].rgb * ndl;
#ifdef SPECULAR
        if (i == 0) { // highlights from the key light only (the game's shaders light specular from the sun)
            vec3 H = normalize(L + V);
            spec = lightColor[0].rgb * (pow(max(dot(N, H), 0.0), max(shininess, 1.0)) * att * step(1e-6, ndl));
        }
#endif
    }
    vec3 color = surface * diffuse + emissiveColor.rgb;
#ifdef SPECULAR
    color += spec * specularColor.rgb * glossMask;
#endif
    color *= cparam.rgb;
#endif
    float alpha = blendMode == 1 ? base.a * diffuseColor.a * cparam.a * vColor.a : 1.0;
    fragColor = vec4(color, alpha);
}
