// The fragment stage of alamo.vert (its header states the formula and its sources).
in vec2 uv0;
in vec2 uv1;
in vec2 uv2;
in vec4 diff;
in vec4 spec;
in vec3 lightVec;
in vec3 halfVec;
in vec2 factors;
in vec3 reflVec;

uniform sampler2D baseTexture;
uniform sampler2D normalTexture;  // NormalTexture
uniform sampler2D glossTexture;   // GlossTexture
uniform sampler2D cloudTexture;   // CloudTexture
uniform sampler2D cloudNormalTexture;
uniform sampler2D waveTexture;    // Shield: WaveTexture
uniform sampler2D distortTexture; // Shield: DistortionTexture
uniform vec4 factionColor;        // Colorization (the player's colour)
uniform vec3 sunDiffuse;          // DIR_LIGHT_DIFFUSE_0
uniform vec3 sunSpecular;
uniform vec4 mDiffuse;
uniform vec3 mSpecular;
uniform vec4 mAtmosphere;
uniform vec3 mCityColor;
uniform float mMaskScale;         // 0 when the base texture is missing (the grey stand-in is not a colorization mask)
uniform vec4 sphAll[12];
#ifdef HEAT
uniform sampler2D sceneCopy;      // the frame drawn so far (FrameGraph heat pass)
uniform vec2 viewportSize;
const float kHeatStrength = 0.04;
#endif

out vec4 fragColor;

// The sky a reflection sees (see the top of this file): SPH_LIGHT_ALL's irradiance towards r, clamped.
vec3 skyCube(vec3 r) {
    vec4 v = vec4(normalize(r), 1.0);
    vec3 e = vec3(dot(v, mat4(sphAll[0], sphAll[1], sphAll[2], sphAll[3]) * v),
                  dot(v, mat4(sphAll[4], sphAll[5], sphAll[6], sphAll[7]) * v),
                  dot(v, mat4(sphAll[8], sphAll[9], sphAll[10], sphAll[11]) * v));
    return clamp(e, 0.0, 1.0);
}

void main() {
    vec4 base = texture(baseTexture, uv0);
#if defined(BUMP_COLORIZE)
    vec4 nt = texture(normalTexture, uv1);
    vec3 surface = mix(base.rgb, factionColor.rgb * base.rgb, base.a * mMaskScale);
    vec3 n = 2.0 * (nt.rgb - 0.5);
    float ndotl = clamp(dot(n, lightVec), 0.0, 1.0);
    float ndoth = clamp(dot(n, halfVec), 0.0, 1.0);
    vec3 c = surface * (ndotl * mDiffuse.rgb * sunDiffuse + diff.rgb) * 2.0;
    c += sunSpecular * mSpecular * pow(ndoth, 16.0) * nt.a;
    fragColor = vec4(c, diff.a);
#elif defined(BUMP_REFLECT)
    vec4 nt = texture(normalTexture, uv1);
    vec3 surface = mix(base.rgb, factionColor.rgb * base.rgb, base.a * mMaskScale);
    vec3 n = 2.0 * (nt.rgb - 0.5);
    float ndotl = clamp(dot(n, lightVec), 0.0, 1.0);
    vec3 c = surface * (ndotl * mDiffuse.rgb * sunDiffuse + diff.rgb) * 2.0;
    c += skyCube(reflVec) * mSpecular * nt.a;
    fragColor = vec4(c, diff.a);
#elif defined(TERRAIN_BUMP)
    vec4 nt = texture(normalTexture, uv1);
    vec3 n = 2.0 * (nt.rgb - 0.5);
    float ndotl = dot(n, lightVec);
    ndotl = ndotl < 0.0 ? -0.25 * ndotl : ndotl;
    float ndoth = clamp(dot(n, halfVec), 0.0, 1.0);
    vec3 c = base.rgb * (ndotl * mDiffuse.rgb * sunDiffuse + diff.rgb) * 2.0;
    c += sunSpecular * mSpecular * pow(ndoth, 16.0) * base.a * 2.0;
    fragColor = vec4(c, diff.a);
#elif defined(GRASS)
    if (base.a * diff.a <= 8.0 / 255.0) discard;
    fragColor = vec4(base.rgb * diff.rgb * 2.0, base.a * diff.a);
#elif defined(TREE)
    if (base.a * diff.a <= 128.0 / 255.0) discard;
    fragColor = vec4(base.rgb * diff.rgb * 2.0 + spec.rgb * base.a * 2.0, base.a * diff.a);
#elif defined(TERRAIN_GLOSS)
    fragColor = vec4(diff.rgb * base.rgb * 2.0 + spec.rgb * base.a * 2.0, 1.0);
#elif defined(ALPHA_GLOSS)
    vec4 g = texture(glossTexture, uv1);
    fragColor = vec4(diff.rgb * base.rgb * 2.0 + spec.rgb * g.r, diff.a * base.a);
#elif defined(ADDITIVE_VCOLOR) || defined(ADDITIVE_OFFSET) || defined(NEBULA)
    fragColor = vec4((base * diff).rgb, 1.0);
#elif defined(SOLID_COLOR) || defined(OCCLUDED)
    fragColor = diff;
#elif defined(HEAT)
    vec4 d = texture(distortTexture, uv0);
    vec2 shift = vec2(d.r - 0.5, 0.5 - d.g) * 2.0 * kHeatStrength * diff.a;
    fragColor = vec4(texture(sceneCopy, gl_FragCoord.xy / viewportSize + shift).rgb, 1.0);
#elif defined(ALPHA_SCROLL)
    fragColor = vec4(base.rgb * diff.rgb * 2.0, base.a * diff.a);
#elif defined(GLOSS)
    fragColor = vec4(diff.rgb * base.rgb * 2.0 + spec.rgb * base.a, diff.a);
#elif defined(GLOSS_COLORIZE)
    vec4 g = texture(glossTexture, uv1);
    vec3 surface = mix(base.rgb, factionColor.rgb * base.rgb, base.a * mMaskScale);
    fragColor = vec4(surface * diff.rgb * 2.0 + spec.rgb * g.r, diff.a);
#elif defined(DEFAULT)
    fragColor = vec4(diff.rgb * base.rgb * 2.0, diff.a);
#elif defined(ALPHA)
    fragColor = vec4(base.rgb * diff.rgb * 2.0 + spec.rgb, base.a * diff.a);
#elif defined(ADDITIVE)
    fragColor = vec4((base * diff).rgb, 1.0);
#elif defined(SHIELD)
    vec4 d = texture(distortTexture, uv2);
    vec4 t = texture(baseTexture, uv0 + vec2(d.x, -d.y) * 0.25);
    vec4 w = texture(waveTexture, uv1);
    fragColor = vec4((t * w * diff).rgb, 1.0);
#elif defined(SKYDOME)
    vec4 cl = texture(cloudTexture, uv1);
    vec3 surface = mix(base.rgb, cl.rgb, cl.a * diff.a);
    fragColor = vec4(surface * diff.rgb * 2.0, diff.a);
#elif defined(PLANET)
    vec4 nt = texture(normalTexture, uv0);
    vec4 cl = texture(cloudTexture, uv2);
    vec4 cn = texture(cloudNormalTexture, uv2);
    vec3 n = 2.0 * (nt.rgb - 0.5);
    vec3 cnv = 2.0 * (cn.rgb - 0.5);
    float cloudNdotl = clamp(dot(cnv, lightVec), 0.0, 1.0);
    vec3 cloud = (cl.rgb * cloudNdotl * sunDiffuse + diff.rgb) * 2.0;
    vec3 surface = base.rgb + mAtmosphere.rgb * factors.x;
    float ndotl = clamp(dot(n, lightVec), 0.0, 1.0);
    float ndoth = clamp(dot(n, halfVec), 0.0, 1.0);
    vec3 c = surface * (ndotl * mDiffuse.rgb * sunDiffuse + diff.rgb) * 2.0;
    vec3 s = sunSpecular * mSpecular * pow(ndoth, 16.0) * nt.a;
    c += base.a * factors.y * (1.0 - cl.a) * mCityColor;
    c = mix(c + s, cloud, cl.a);
    fragColor = vec4(c, diff.a);
#endif
}
