// The fragment stage of w3d.vert (its header states the formula and its sources).
in vec4 vDiffuse;
in vec4 vSpecular;
in vec3 vTex0;
in vec3 vTex1;
in vec2 vBump;

uniform sampler2D stage0Texture;
uniform sampler2D stage1Texture;

out vec4 fragColor;

vec4 sat(vec4 c) { return clamp(c, 0.0, 1.0); }
vec2 glUv(vec3 t) { vec2 e = t.xy / t.z; return vec2(e.x, 1.0 - e.y); }

void main() {
    vec4 D = vDiffuse;
    vec4 cur = D;
    vec2 uv1 = glUv(vTex1);
#ifdef TEXTURING
    vec4 T0 = texture(stage0Texture, glUv(vTex0));
#if PRI == 0
    cur = T0;                                          // SELECTARG1 texture (decal)
#elif PRI == 2
    cur = vec4(sat(vec4(T0.rgb + D.rgb, 0.0)).rgb, T0.a * D.a); // ADD colour, MODULATE alpha
#elif PRI == 3 || PRI == 4
    // BUMPENVMAP: stage 0's texture perturbs stage 1's coordinates (du, dv through the bump matrix, Direct3D's
    // u' = u + M00 du + M10 dv, v' = v + M01 du + M11 dv with M00 = M11 = c, M01 = -s, M10 = s as
    // BumpEnvTextureMapperClass sets them); the stage passes the diffuse colour on.
    vec2 duv = T0.rg * 2.0 - 1.0;
    vec2 e = vTex1.xy / vTex1.z;
    e += vec2(vBump.x * duv.x + vBump.y * duv.y, -vBump.y * duv.x + vBump.x * duv.y);
    uv1 = vec2(e.x, 1.0 - e.y);
    cur = D;
#elif PRI == 5
    cur = vec4(sat(vec4(2.0 * T0.rgb * D.rgb, 0.0)).rgb, T0.a * D.a); // MODULATE2X colour, MODULATE alpha
#else
    cur = T0 * D;                                      // MODULATE
#endif
#endif
#if defined(TEXTURING) && (DCOLOR != 0 || DALPHA != 0)
    vec4 T1 = texture(stage1Texture, uv1);
    vec3 c = cur.rgb;
    float a = cur.a;
#if DCOLOR == 1
    c = T1.rgb;
#elif DCOLOR == 2
    c = T1.rgb * cur.rgb;
#elif DCOLOR == 3
    c = T1.rgb + cur.rgb - T1.rgb * cur.rgb;           // ADDSMOOTH
#elif DCOLOR == 4
    c = T1.rgb + cur.rgb;
#elif DCOLOR == 5
    c = T1.rgb - cur.rgb;                              // SUBTRACT: arg1 (texture) - arg2 (current)
#elif DCOLOR == 6
    c = cur.rgb - T1.rgb;
#elif DCOLOR == 7
    c = mix(cur.rgb, T1.rgb, T1.a);                    // BLENDTEXTUREALPHA
#elif DCOLOR == 8
    c = mix(cur.rgb, T1.rgb, cur.a);                   // BLENDCURRENTALPHA
#elif DCOLOR == 9
    c = T1.rgb + cur.rgb - 0.5;
#elif DCOLOR == 10
    c = 2.0 * (T1.rgb + cur.rgb - 0.5);
#elif DCOLOR == 11
    c = 2.0 * T1.rgb * cur.rgb;
#elif DCOLOR == 12
    c = cur.rgb + cur.a * T1.rgb;                      // MODULATEALPHA_ADDCOLOR (current, texture)
#endif
#if DALPHA == 1
    a = T1.a;
#elif DALPHA == 2
    a = T1.a * cur.a;
#elif DALPHA == 3
    a = T1.a + cur.a - T1.a * cur.a;
#endif
    cur = sat(vec4(c, a));
#endif
#ifdef SEC_GRADIENT
    cur.rgb = min(cur.rgb + vSpecular.rgb, vec3(1.0));
#endif
#ifdef ALPHA_TEST
    if (cur.a < 96.0 / 255.0) discard;                 // D3DRS_ALPHAREF 0x60, D3DCMP_GREATEREQUAL
#endif
    fragColor = cur;
}
