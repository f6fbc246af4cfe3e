// The fragment stage of w3x_objects.vert (its header states the formula and its sources).
in vec2 vUv;
in vec3 vL0;
in vec3 vL1;
in vec3 vH;
in vec4 vColor;
#if defined(OBJECTS_ALIEN) || defined(ENV_CUBE)
in vec3 vWorldNormal;
in vec3 vEye;
#endif
#ifdef ENV_CUBE
uniform samplerCube obEnvironmentCube; // EnvironmentTexture (ObjectsGenericEnvMap: the material's cube)
#endif
#ifdef OBJECTS_ALIEN
uniform sampler2D obEnvironmentTexture; // EnvironmentTexture (ObjectsAlien)
uniform float obPulse;                  // AlienPulseFactor
#endif
#ifdef ION_HULL
uniform sampler2D obIonHullTexture; // IonHullTexture
#endif
#ifdef BUILDUP
in vec2 vUv1;                      // BuildupTexCoord
uniform sampler2D obBuildUpMap;    // BuildUpMap
uniform float obBuildup;           // OpacityOverride as the build-up fraction
#endif

uniform sampler2D obDiffuseTexture; // DiffuseTexture
uniform sampler2D obNormalMap;      // NormalMap
uniform sampler2D obSpecMap;        // SpecMap
uniform sampler2D obRecolorTexture; // RecolorTexture
uniform sampler2D obScrollTexture;  // ScrollingMaskTexture (NOD)
uniform float obBumpScale;          // BumpScale
uniform vec3 obDiffuse;             // DiffuseColor
uniform vec3 obSpecular;            // SpecularColor
uniform float obSpecularExponent;   // SpecularExponent
uniform float obEnvMult;            // EnvMult
uniform vec4 obTexTransform;        // TexCoordTransform_0 (NOD): scale xy, scroll zw per second
uniform float alamoTime;            // the timeline's time (seconds): the effect's Time
uniform vec4 factionColor;          // RecolorColor
uniform vec4 lightColor[4];
uniform vec3 ambientColor;          // the environment cube's stand-in (see w3x_objects.vert)

out vec4 fragColor;

// An engine-orientation UV (v down) as ours (v' = 1 - v), both ways.
vec2 flipV(vec2 uv) { return vec2(uv.x, 1.0 - uv.y); }

// HLSL lit(n.l, n.h, m): (1, max(n.l, 0), n.l < 0 || n.h < 0 ? 0 : pow(n.h, m), 1); y and z here.
vec2 lit(float ndl, float ndh, float m) {
    return vec2(max(ndl, 0.0), (ndl < 0.0 || ndh < 0.0) ? 0.0 : pow(ndh, m));
}

void main() {
    vec4 base = texture(obDiffuseTexture, vUv);
    vec3 diffuse = base.rgb * obDiffuse;
    vec3 bump = texture(obNormalMap, vUv).rgb * 2.0 - 1.0;
    bump.xy *= obBumpScale;
    bump = normalize(bump);
    vec4 color = vColor * base * 2.0;
    vec3 specularColor = obSpecular;
    float selfIllumination = 0.0;
#ifdef OBJECTS_ALIEN
    vec4 st = texture(obSpecMap, vUv);
    vec3 r = -reflect(vEye, normalize(vWorldNormal + bump));
    float e = r.y + alamoTime * 0.2; // engine (u, v) = (e, e)
#ifdef ION_HULL
    vec3 env = texture(obEnvironmentTexture, vec2(e, 1.0 - e)).rgb * st.y * obSpecular * 12.0;
#else
    vec3 env = texture(obEnvironmentTexture, vec2(e, 1.0 - e)).rgb * obEnvMult * st.y * obSpecular * 6.0;
    specularColor = 3.0 * obSpecular * st.x;
#endif
    selfIllumination = st.z;
#elif defined(SPECMAP)
    vec4 st = texture(obSpecMap, vUv);
#ifdef ENV_CUBE
    // The cube at -reflect(eye, normalize(vertex normal + bump / 2)): the tangent-space bump added to the world
    // normal as the effect does; neither input renormalised after interpolation (the effect's TEXCOORDs).
    vec3 env = obEnvMult * texture(obEnvironmentCube, -reflect(vEye, normalize(vWorldNormal + bump * 0.5))).rgb;
#else
    // The effect samples the map's cube at -reflect(eye, normalize(vNormal + bump / 2)); the stand-in sky is the same
    // in every direction, so the direction drops out.
    vec3 env = obEnvMult * clamp(ambientColor, 0.0, 1.0);
#endif
    color.rgb += env * st.y * obSpecular;
    specularColor = 3.0 * obSpecular * st.x;
    selfIllumination = st.z;
#endif
    vec2 l0 = lit(dot(bump, vL0), dot(bump, vH), obSpecularExponent);
#ifdef OBJECTS_ALIEN
    color.rgb += lightColor[0].rgb * env * (diffuse * l0.x + specularColor * l0.y);
#else
    color.rgb += lightColor[0].rgb * (diffuse * l0.x + specularColor * l0.y);
#endif
    vec2 l1 = lit(dot(bump, vL1), dot(bump, vH), obSpecularExponent);
    color.rgb += lightColor[1].rgb * (diffuse * l1.x);
#ifdef ION_HULL
    vec2 ue = flipV(vUv);
    vec3 ion1 = texture(obIonHullTexture, flipV(ue + alamoTime * 0.2)).rgb;
    vec3 ion2 = texture(obIonHullTexture, flipV(ue * 2.0 + alamoTime * 0.2)).rgb;
    color.rgb += ion1 * ion2 * 3.0;
#endif
#ifdef SCROLL_HOUSECOLOR
    vec2 e = vec2(vUv.x, 1.0 - vUv.y) * obTexTransform.xy + alamoTime * obTexTransform.zw; // engine (u, v)
    float scroll = texture(obScrollTexture, vec2(e.x, 1.0 - e.y)).x;
    color.rgb += selfIllumination * scroll * factionColor.rgb * 3.0;
#elif defined(OBJECTS_ALIEN)
#ifdef HOUSE_SELFILLUM
    color.rgb += selfIllumination * factionColor.rgb * obPulse;
#elif defined(RECOLOR)
    color.rgb += texture(obRecolorTexture, vUv).rgb * factionColor.rgb * obPulse;
#endif
#else
    color.rgb = mix(color.rgb, base.rgb, selfIllumination);
#ifdef HOUSE_SELFILLUM
    color.rgb = mix(color.rgb, factionColor.rgb, selfIllumination);
#elif defined(RECOLOR)
    vec4 rc = texture(obRecolorTexture, vUv);
    color.rgb = mix(color.rgb, rc.rgb * factionColor.rgb, rc.a);
#endif
#endif
#ifdef BUILDUP
    vec3 warp = texture(obBuildUpMap, flipV(flipV(vUv) * 3.0 + alamoTime * 0.2)).rgb;
    float threshold = texture(obBuildUpMap, vUv1).a * obBuildup;
    if (threshold <= 0.25) color.rgb += warp;
    if (threshold < 0.21) discard; // clip(threshold - 0.21)
#endif
#ifdef ALPHA_TEST
    if (color.a < 96.0 / 255.0) discard; // AlphaRef DEFAULT_ALPHATEST_THRESHOLD (0x60), GREATEREQUAL
#endif
    fragColor = clamp(color, 0.0, 1.0);
}
