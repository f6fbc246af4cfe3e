#include "scene/pose.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#if defined(__GNUC__)
#define RS_ALWAYS_INLINE __attribute__((always_inline))
#else
#define RS_ALWAYS_INLINE
#endif

namespace rs {

// Channel of a track as plan data: per-frame pointer, or null and a constant (one entry, or the fallback).
template <class T>
static void planChannel(const std::vector<T>& v, const T& fallback, const T*& ptr, uint32_t& last, T& value) {
    ptr = nullptr;
    last = 0;
    value = fallback;
    if (v.size() == 1) {
        value = v[0];
    } else if (!v.empty()) {
        ptr = v.data();
        last = static_cast<uint32_t>(v.size() - 1);
    }
}

static void compilePlan(const Skeleton& skeleton, const Clip& clip, ClipBinding& b) {
    b.plan.assign(skeleton.bones.size(), BoneSamplePlan());
    b.planClip = &clip;
    b.planTracks = clip.tracks.data();
    b.planTrackCount = clip.tracks.size();
    for (size_t i = 0; i < b.plan.size(); ++i) {
        const int ti = b.trackForBone[i];
        if (ti < 0) continue;
        const BoneTrack& t = clip.tracks[static_cast<size_t>(ti)];
        BoneSamplePlan& p = b.plan[i];
        const bool additive = t.mode == TrackMode::AdditiveToBind;
        p.kind = additive ? 2 : 1;
        planChannel(t.translation, additive ? glm::vec3(0.0f) : t.defaultTranslation, p.t, p.tLast, p.tConst);
        planChannel(t.rotation, additive ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : t.defaultRotation, p.r, p.rLast,
                    p.rConst);
        planChannel(t.scale, additive ? glm::vec3(1.0f) : t.defaultScale, p.s, p.sLast, p.sConst);
        if (!t.visibility.empty()) {
            p.visibility = t.visibility.data();
            p.visLast = static_cast<uint32_t>(t.visibility.size() - 1);
        }
        if (!t.step.empty()) {
            p.step = t.step.data();
            p.stepLast = static_cast<uint32_t>(t.step.size() - 1);
        }
    }
}

ClipBinding bindClip(const Skeleton& skeleton, const Clip& clip) {
    ClipBinding b;
    const int n = static_cast<int>(skeleton.bones.size());
    b.trackForBone.assign(skeleton.bones.size(), -1);
    if (!clip.hierarchyName.empty() && !skeleton.name.empty() && !iequals(clip.hierarchyName, skeleton.name))
        b.problems.push_back("clip '" + clip.name + "' is for hierarchy '" + clip.hierarchyName + "', not for '" +
                             skeleton.name + "'");
    for (size_t ti = 0; ti < clip.tracks.size(); ++ti) {
        const BoneTrack& t = clip.tracks[ti];
        int bone = t.bone;
        bool indexOk = bone >= 0 && bone < n;
        if (indexOk && !t.boneName.empty() && !iequals(skeleton.bones[bone].name, t.boneName)) {
            int byName = skeleton.find(t.boneName);
            b.problems.push_back("track " + std::to_string(ti) + " names bone '" + t.boneName + "' but bone " +
                                 std::to_string(bone) + " is '" + skeleton.bones[bone].name + "'");
            bone = byName;
            indexOk = bone >= 0;
        } else if (!indexOk) {
            int byName = t.boneName.empty() ? -1 : skeleton.find(t.boneName);
            b.problems.push_back("track " + std::to_string(ti) + " bone index " + std::to_string(t.bone) +
                                 " out of range (" + std::to_string(n) + " bones)");
            bone = byName;
            indexOk = bone >= 0;
        }
        if (indexOk) b.trackForBone[bone] = static_cast<int>(ti);
    }
    compilePlan(skeleton, clip, b);
    return b;
}

float wrapFrame(float frame, uint32_t frameCount, LoopMode mode) {
    if (frameCount <= 1 || !std::isfinite(frame)) return 0.0f;
    const float last = static_cast<float>(frameCount - 1);
    switch (mode) {
    case LoopMode::Once:
        return frame < 0.0f ? 0.0f : (frame > last ? last : frame);
    case LoopMode::PingPong: {
        float p = std::fmod(frame, 2.0f * last);
        if (p < 0.0f) p += 2.0f * last;
        return p <= last ? p : 2.0f * last - p;
    }
    case LoopMode::Loop:
    default: {
        float p = std::fmod(frame, last);
        if (p < 0.0f) p += last;
        return p;
    }
    }
}

template <class T> static inline const T& at(const std::vector<T>& v, uint32_t f) {
    return v.size() == 1 ? v[0] : v[f < v.size() ? f : v.size() - 1];
}

// Shortest-path slerp without transcendental functions (D. Eberly, "A Fast and Accurate Algorithm for
// Computing SLERP", 2011): sin(t*th)/sin(th) as a truncated series in (cos th - 1) with 8 terms, the last one
// scaled by mu to cancel most of the truncation error. The weights are within 2e-5 of the trigonometric ones for
// any pair of unit quaternions and within 1e-6 when the rotations differ by less than 120 degrees
// (tests/core/pose_simd_test.cpp). t = 0 returns a exactly.
// Quaternions are taken as decoded, not renormalised, and the result is not renormalised either (ww3d2
// Fast_Slerp): the weights are those of sin(t th) / sin(th) with cos th = dot(a, b) as it is. Where that dot
// reaches 1 (|a|, |b| slightly above 1) ww3d2 interpolates linearly; clamping x - 1 to <= 0 gives exactly the
// linear weights (1 - t, t), as the series is then 1.
static inline glm::quat slerpShortest(const glm::quat& a, glm::quat b, float t) {
    float x = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    const float sign = x < 0.0f ? -1.0f : 1.0f;
    x *= sign;
    x = std::min(x, 1.0f);
    constexpr float mu = 1.85298109240830f;
    constexpr float u[8] = {1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),  1.0f / (4 * 9),
                            1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), mu / (8 * 17)};
    constexpr float v[8] = {1.0f / 3, 2.0f / 5, 3.0f / 7, 4.0f / 9, 5.0f / 11, 6.0f / 13, 7.0f / 15, mu * 8 / 17};
    const float xm1 = x - 1.0f;
    const float d = 1.0f - t, t2 = t * t, d2 = d * d;
    float cT = 1.0f, cD = 1.0f;
    for (int i = 7; i >= 0; --i) {
        cT = 1.0f + (u[i] * t2 - v[i]) * xm1 * cT;
        cD = 1.0f + (u[i] * d2 - v[i]) * xm1 * cD;
    }
    cT *= t * sign;
    cD *= d;
    return glm::quat(a.w * cD + b.w * cT, a.x * cD + b.x * cT, a.y * cD + b.y * cT, a.z * cD + b.z * cT);
}

// out = a * b for column-major 4x4 matrices; out may alias a or b.
RS_ALWAYS_INLINE static inline void mul4(const glm::mat4& a, const glm::mat4& b, glm::mat4& out) {
#if defined(__SSE2__)
    const __m128 a0 = _mm_loadu_ps(&a[0][0]), a1 = _mm_loadu_ps(&a[1][0]), a2 = _mm_loadu_ps(&a[2][0]),
                 a3 = _mm_loadu_ps(&a[3][0]);
    const __m128 b0 = _mm_loadu_ps(&b[0][0]), b1 = _mm_loadu_ps(&b[1][0]), b2 = _mm_loadu_ps(&b[2][0]),
                 b3 = _mm_loadu_ps(&b[3][0]);
    const auto column = [&](__m128 c) {
        return _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(a0, _mm_shuffle_ps(c, c, 0x00)), _mm_mul_ps(a1, _mm_shuffle_ps(c, c, 0x55))),
            _mm_add_ps(_mm_mul_ps(a2, _mm_shuffle_ps(c, c, 0xAA)), _mm_mul_ps(a3, _mm_shuffle_ps(c, c, 0xFF))));
    };
    const __m128 r0 = column(b0), r1 = column(b1), r2 = column(b2), r3 = column(b3);
    _mm_storeu_ps(&out[0][0], r0);
    _mm_storeu_ps(&out[1][0], r1);
    _mm_storeu_ps(&out[2][0], r2);
    _mm_storeu_ps(&out[3][0], r3);
#else
    out = a * b;
#endif
}

// Column-major T * R * S.
RS_ALWAYS_INLINE static inline void composeTRS(const glm::vec3& t, const glm::quat& q, const glm::vec3& s,
                                               glm::mat4& o) {
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    o[0] = glm::vec4((1.0f - 2.0f * (yy + zz)) * s.x, 2.0f * (xy + wz) * s.x, 2.0f * (xz - wy) * s.x, 0.0f);
    o[1] = glm::vec4(2.0f * (xy - wz) * s.y, (1.0f - 2.0f * (xx + zz)) * s.y, 2.0f * (yz + wx) * s.y, 0.0f);
    o[2] = glm::vec4(2.0f * (xz + wy) * s.z, 2.0f * (yz - wx) * s.z, (1.0f - 2.0f * (xx + yy)) * s.z, 0.0f);
    o[3] = glm::vec4(t, 1.0f);
}

static inline void sampleInto(const BoneTrack& t, const glm::mat4& bindLocal, uint32_t f0, uint32_t f1, float alpha,
                              glm::mat4& out) {
    const bool additive = t.mode == TrackMode::AdditiveToBind;
    glm::vec3 tr = additive ? glm::vec3(0.0f) : t.defaultTranslation;
    glm::quat rot = additive ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : t.defaultRotation;
    glm::vec3 sc = additive ? glm::vec3(1.0f) : t.defaultScale;
    if (!t.translation.empty()) {
        const glm::vec3 &a = at(t.translation, f0), &b = at(t.translation, f1);
        tr = a + (b - a) * alpha;
    }
    if (!t.rotation.empty()) rot = slerpShortest(at(t.rotation, f0), at(t.rotation, f1), alpha);
    if (!t.scale.empty()) {
        const glm::vec3 &a = at(t.scale, f0), &b = at(t.scale, f1);
        sc = a + (b - a) * alpha;
    }
    if (additive) {
        glm::mat4 m;
        composeTRS(tr, rot, sc, m);
        mul4(bindLocal, m, out);
    } else {
        composeTRS(tr, rot, sc, out);
    }
}

glm::quat slerpQuat(const glm::quat& a, const glm::quat& b, float t) { return slerpShortest(a, b, t); }

glm::mat4 sampleTrackLocal(const BoneTrack& t, const glm::mat4& bindLocal, uint32_t f0, uint32_t f1, float alpha) {
    glm::mat4 m;
    sampleInto(t, bindLocal, f0, f1, alpha, m);
    return m;
}

// evaluatePose works in three passes over out.local, which doubles as scratch between them:
//   pass 1 (per bone): gathers the two rotation keys, lerps translation and scale, stores
//          [q0.xyzw | q1.xyzw | t.xyz alpha | s.xyz kind]  (kind: 0 bind pose, 1 replace, 2 additive to bind)
//          and the bone's own visibility in out.visible. With the binding's compiled plan (ClipBinding::plan)
//          this reads per-bone pointers and pre-resolved constants instead of the tracks' vectors;
//   pass 2 (4 bones per step, SSE): slerps q0 -> q1 by alpha in structure-of-arrays form and turns the slot into
//          the T * R * S matrix (without SSE: the slerped quaternion into q0);
//   pass 3 (per bone, parents first): local = bind, T*R*S or bind * T*R*S (kind from the binding),
//          world = world[parent] * local in registers, visibility. Products whose right factor has the last
//          row (0, 0, 0, 1) exactly (every T*R*S, affine bind matrices) skip that row's terms.
// Splitting the passes keeps the slerp's long dependency chain off the parent chain and lets 4 bones share
// every instruction of the polynomial and of the quaternion-to-matrix conversion.
namespace {
constexpr float kBind = 0.0f, kReplace = 1.0f, kAdditive = 2.0f;
constexpr float kMu = 1.85298109240830f;
constexpr float kU[8] = {1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),  1.0f / (4 * 9),
                         1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), kMu / (8 * 17)};
constexpr float kV[8] = {1.0f / 3, 2.0f / 5, 3.0f / 7, 4.0f / 9, 5.0f / 11, 6.0f / 13, 7.0f / 15, kMu * 8 / 17};
} // namespace

static inline void slerpSlot(float* s) {
    glm::quat a(s[3], s[0], s[1], s[2]), b(s[7], s[4], s[5], s[6]);
    glm::quat r = slerpShortest(a, b, s[11]);
    s[0] = r.x, s[1] = r.y, s[2] = r.z, s[3] = r.w;
}

#if defined(__SSE2__)
// Slerps the slots of 4 bones at once (same polynomial as slerpShortest) and replaces each slot by the bone's
// T * R * S matrix (column-major, last row exactly 0, 0, 0, 1).
static inline void slerpComposeSlots4(float* s0, float* s1, float* s2, float* s3) {
    __m128 ax = _mm_loadu_ps(s0), ay = _mm_loadu_ps(s1), az = _mm_loadu_ps(s2), aw = _mm_loadu_ps(s3);
    _MM_TRANSPOSE4_PS(ax, ay, az, aw); // now ax = x of the 4 bones, ...
    __m128 bx = _mm_loadu_ps(s0 + 4), by = _mm_loadu_ps(s1 + 4), bz = _mm_loadu_ps(s2 + 4), bw = _mm_loadu_ps(s3 + 4);
    _MM_TRANSPOSE4_PS(bx, by, bz, bw);
    const __m128 t = _mm_set_ps(s3[11], s2[11], s1[11], s0[11]);
    __m128 x = _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)),
                          _mm_add_ps(_mm_mul_ps(az, bz), _mm_mul_ps(aw, bw)));
    const __m128 signBit = _mm_and_ps(x, _mm_set1_ps(-0.0f));
    x = _mm_xor_ps(x, signBit); // |x|
    const __m128 one = _mm_set1_ps(1.0f);
    x = _mm_min_ps(x, one); // as slerpShortest: linear weights where the dot of non-unit quaternions reaches 1
    const __m128 xm1 = _mm_sub_ps(x, one);
    const __m128 d = _mm_sub_ps(one, t);
    const __m128 t2 = _mm_mul_ps(t, t), d2 = _mm_mul_ps(d, d);
    // The Horner chain c = 1 + k0 (1 + k1 (1 + ... (1 + k7))) with k_i = (u_i t^2 - v_i)(x - 1), evaluated as a tree
    // of affine maps X -> A + B X (depth 3 instead of 8: the chain's latency was the slerp's cost).
    const auto series = [&](__m128 tt) {
        __m128 k[8];
        for (int i = 0; i < 8; ++i)
            k[i] = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(_mm_set1_ps(kU[i]), tt), _mm_set1_ps(kV[i])), xm1);
        const __m128 a01 = _mm_add_ps(one, k[0]), b01 = _mm_mul_ps(k[0], k[1]);
        const __m128 a23 = _mm_add_ps(one, k[2]), b23 = _mm_mul_ps(k[2], k[3]);
        const __m128 a45 = _mm_add_ps(one, k[4]), b45 = _mm_mul_ps(k[4], k[5]);
        const __m128 a67 = _mm_add_ps(one, k[6]), b67 = _mm_mul_ps(k[6], k[7]);
        const __m128 a03 = _mm_add_ps(a01, _mm_mul_ps(b01, a23)), b03 = _mm_mul_ps(b01, b23);
        const __m128 a47 = _mm_add_ps(a45, _mm_mul_ps(b45, a67)), b47 = _mm_mul_ps(b45, b67);
        return _mm_add_ps(a03, _mm_mul_ps(b03, _mm_add_ps(a47, b47)));
    };
    __m128 cT = series(t2), cD = series(d2);
    cT = _mm_xor_ps(_mm_mul_ps(cT, t), signBit);
    cD = _mm_mul_ps(cD, d);
    __m128 rx = _mm_add_ps(_mm_mul_ps(ax, cD), _mm_mul_ps(bx, cT));
    __m128 ry = _mm_add_ps(_mm_mul_ps(ay, cD), _mm_mul_ps(by, cT));
    __m128 rz = _mm_add_ps(_mm_mul_ps(az, cD), _mm_mul_ps(bz, cT));
    __m128 rw = _mm_add_ps(_mm_mul_ps(aw, cD), _mm_mul_ps(bw, cT));
    // T * R * S of the 4 bones, still structure-of-arrays: m<row><column>.
    __m128 tx = _mm_loadu_ps(s0 + 8), ty = _mm_loadu_ps(s1 + 8), tz = _mm_loadu_ps(s2 + 8), tw = _mm_loadu_ps(s3 + 8);
    _MM_TRANSPOSE4_PS(tx, ty, tz, tw);
    __m128 sx = _mm_loadu_ps(s0 + 12), sy = _mm_loadu_ps(s1 + 12), sz = _mm_loadu_ps(s2 + 12),
           sw = _mm_loadu_ps(s3 + 12);
    _MM_TRANSPOSE4_PS(sx, sy, sz, sw);
    const __m128 two = _mm_set1_ps(2.0f), zero = _mm_setzero_ps();
    const __m128 xx = _mm_mul_ps(rx, rx), yy = _mm_mul_ps(ry, ry), zz = _mm_mul_ps(rz, rz);
    const __m128 xy = _mm_mul_ps(rx, ry), xz = _mm_mul_ps(rx, rz), yz = _mm_mul_ps(ry, rz);
    const __m128 wx = _mm_mul_ps(rw, rx), wy = _mm_mul_ps(rw, ry), wz = _mm_mul_ps(rw, rz);
    const auto diag = [&](__m128 p, __m128 q, __m128 sc) {
        return _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(p, q))), sc);
    };
    const auto offPlus = [&](__m128 p, __m128 q, __m128 sc) {
        return _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(p, q)), sc);
    };
    const auto offMinus = [&](__m128 p, __m128 q, __m128 sc) {
        return _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(p, q)), sc);
    };
    __m128 m00 = diag(yy, zz, sx), m10 = offPlus(xy, wz, sx), m20 = offMinus(xz, wy, sx), c0w = zero;
    __m128 m01 = offMinus(xy, wz, sy), m11 = diag(xx, zz, sy), m21 = offPlus(yz, wx, sy), c1w = zero;
    __m128 m02 = offPlus(xz, wy, sz), m12 = offMinus(yz, wx, sz), m22 = diag(xx, yy, sz), c2w = zero;
    tw = one;
    _MM_TRANSPOSE4_PS(m00, m10, m20, c0w);
    _MM_TRANSPOSE4_PS(m01, m11, m21, c1w);
    _MM_TRANSPOSE4_PS(m02, m12, m22, c2w);
    _MM_TRANSPOSE4_PS(tx, ty, tz, tw);
    float* const slot[4] = {s0, s1, s2, s3};
    const __m128 c0[4] = {m00, m10, m20, c0w}, c1[4] = {m01, m11, m21, c1w}, c2[4] = {m02, m12, m22, c2w},
                 c3[4] = {tx, ty, tz, tw};
    for (int k = 0; k < 4; ++k) {
        _mm_storeu_ps(slot[k], c0[k]);
        _mm_storeu_ps(slot[k] + 4, c1[k]);
        _mm_storeu_ps(slot[k] + 8, c2[k]);
        _mm_storeu_ps(slot[k] + 12, c3[k]);
    }
}
#endif

// A matrix's last row is exactly (0, 0, 0, 1): products with it as the right factor skip a fourth of the work
// and stay exact (the skipped terms are products with 0 and 1).
static inline bool isAffine(const glm::mat4& m) {
    return m[0][3] == 0.0f && m[1][3] == 0.0f && m[2][3] == 0.0f && m[3][3] == 1.0f;
}

#if defined(__SSE2__)
// Column-major 4x4 matrix in registers.
struct M4 {
    __m128 c0, c1, c2, c3;
};
RS_ALWAYS_INLINE static inline M4 load4(const glm::mat4& m) {
    return {_mm_loadu_ps(&m[0][0]), _mm_loadu_ps(&m[1][0]), _mm_loadu_ps(&m[2][0]), _mm_loadu_ps(&m[3][0])};
}
RS_ALWAYS_INLINE static inline void store4(const M4& m, float* o) {
    _mm_storeu_ps(o, m.c0);
    _mm_storeu_ps(o + 4, m.c1);
    _mm_storeu_ps(o + 8, m.c2);
    _mm_storeu_ps(o + 12, m.c3);
}
// (x, y, z, 0) without reading past the vector.
RS_ALWAYS_INLINE static inline __m128 load3(const glm::vec3& v) {
    double lo; // x, y as one 8-byte load (memcpy: glm::vec3 is only 4-byte aligned)
    std::memcpy(&lo, &v.x, sizeof lo);
    const __m128 xy = _mm_castpd_ps(_mm_load_sd(&lo));
    return _mm_movelh_ps(xy, _mm_load_ss(&v.z));
}
// A quaternion as (x, y, z, w) in a register, whatever GLM's member order.
RS_ALWAYS_INLINE static inline __m128 quatXYZW(const glm::quat& q) {
#if defined(GLM_FORCE_QUAT_DATA_WXYZ)
    return _mm_set_ps(q.w, q.z, q.y, q.x);
#else
    return _mm_loadu_ps(&q.x);
#endif
}
#define RS_SPLAT(v, k) _mm_shuffle_ps(v, v, (k)*0x55)
// a * b where b's last row is (0, 0, 0, 1).
RS_ALWAYS_INLINE static inline M4 mulByAffine(const M4& a, const M4& b) {
    const auto lin = [&](__m128 c) {
        return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.c0, RS_SPLAT(c, 0)), _mm_mul_ps(a.c1, RS_SPLAT(c, 1))),
                          _mm_mul_ps(a.c2, RS_SPLAT(c, 2)));
    };
    const __m128 c = b.c3;
    const __m128 r3 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.c0, RS_SPLAT(c, 0)), _mm_mul_ps(a.c1, RS_SPLAT(c, 1))),
                                 _mm_add_ps(_mm_mul_ps(a.c2, RS_SPLAT(c, 2)), a.c3));
    return {lin(b.c0), lin(b.c1), lin(b.c2), r3};
}
RS_ALWAYS_INLINE static inline M4 mulFull(const M4& a, const M4& b) {
    const auto col = [&](__m128 c) {
        return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a.c0, RS_SPLAT(c, 0)), _mm_mul_ps(a.c1, RS_SPLAT(c, 1))),
                          _mm_add_ps(_mm_mul_ps(a.c2, RS_SPLAT(c, 2)), _mm_mul_ps(a.c3, RS_SPLAT(c, 3))));
    };
    return {col(b.c0), col(b.c1), col(b.c2), col(b.c3)};
}
// T * R * S from a slot [q.xyzw | - | t.xyz - | s.xyz -], built in registers (last row exactly 0, 0, 0, 1).
RS_ALWAYS_INLINE static inline M4 composeTRS4(const float* s) {
    const float x = s[0], y = s[1], z = s[2], w = s[3];
    const float xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
    const float wx = w * x, wy = w * y, wz = w * z;
    const __m128 c0 = _mm_set_ps(0.0f, 2.0f * (xz - wy), 2.0f * (xy + wz), 1.0f - 2.0f * (yy + zz));
    const __m128 c1 = _mm_set_ps(0.0f, 2.0f * (yz + wx), 1.0f - 2.0f * (xx + zz), 2.0f * (xy - wz));
    const __m128 c2 = _mm_set_ps(0.0f, 1.0f - 2.0f * (xx + yy), 2.0f * (yz - wx), 2.0f * (xz + wy));
    const __m128 sc = _mm_loadu_ps(s + 12);
    const __m128 t = _mm_set_ps(1.0f, s[10], s[9], s[8]);
    return {_mm_mul_ps(c0, RS_SPLAT(sc, 0)), _mm_mul_ps(c1, RS_SPLAT(sc, 1)), _mm_mul_ps(c2, RS_SPLAT(sc, 2)), t};
}
// One slot as slerpComposeSlots4 does it.
static inline void slerpComposeSlot(float* s) {
    slerpSlot(s);
    store4(composeTRS4(s), s);
}
#endif

void evaluatePose(const Skeleton& skeleton, const Clip* clip, const ClipBinding* binding, float frame, LoopMode mode,
                  PoseView out) {
    const size_t n = skeleton.bones.size();
    uint32_t f0 = 0, f1 = 0;
    float alpha = 0.0f;
    if (clip && binding && clip->frameCount > 0) {
        float f = wrapFrame(frame, clip->frameCount, mode);
        f0 = static_cast<uint32_t>(f);
        if (f0 > clip->frameCount - 1) f0 = clip->frameCount - 1;
        f1 = f0 + 1 < clip->frameCount ? f0 + 1 : f0;
        alpha = f - static_cast<float>(f0);
    }
    const bool animated = clip && binding && binding->trackForBone.size() == n;
    const Bone* bones = skeleton.bones.data();
    const int* trackFor = animated ? binding->trackForBone.data() : nullptr;

    // Pass 1: gather keys into the scratch slots.
    const bool planned = animated && binding->planClip == clip && binding->plan.size() == n &&
                         binding->planTracks == clip->tracks.data() && binding->planTrackCount == clip->tracks.size();
    if (planned) {
        const BoneSamplePlan* plan = binding->plan.data();
        for (size_t i = 0; i < n; ++i) {
            float* s = &out.local[i][0][0];
            const BoneSamplePlan& p = plan[i];
            uint8_t vis = bones[i].visible;
            if (p.kind == 0) {
                const float slot[16] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, kBind};
                std::memcpy(s, slot, sizeof slot);
            } else {
                const float a = (p.step && p.step[std::min(f0, p.stepLast)]) ? 0.0f : alpha;
                const glm::vec3 &t0 = p.t ? p.t[std::min(f0, p.tLast)] : p.tConst,
                                &t1 = p.t ? p.t[std::min(f1, p.tLast)] : p.tConst;
                const glm::quat &q0 = p.r ? p.r[std::min(f0, p.rLast)] : p.rConst,
                                &q1 = p.r ? p.r[std::min(f1, p.rLast)] : p.rConst;
                const glm::vec3 &s0 = p.s ? p.s[std::min(f0, p.sLast)] : p.sConst,
                                &s1 = p.s ? p.s[std::min(f1, p.sLast)] : p.sConst;
#if defined(__SSE2__)
                static_assert(sizeof(glm::quat) == 16 && sizeof(glm::vec3) == 12, "packed GLM types");
                const __m128 av = _mm_set1_ps(a);
                const __m128 tv = _mm_add_ps(load3(t0), _mm_mul_ps(_mm_sub_ps(load3(t1), load3(t0)), av));
                const __m128 sv = _mm_add_ps(load3(s0), _mm_mul_ps(_mm_sub_ps(load3(s1), load3(s0)), av));
                _mm_storeu_ps(s, quatXYZW(q0));
                _mm_storeu_ps(s + 4, quatXYZW(q1));
                _mm_storeu_ps(s + 8, _mm_add_ps(tv, _mm_set_ps(a, 0.0f, 0.0f, 0.0f)));
                _mm_storeu_ps(s + 12, _mm_add_ps(sv, _mm_set_ps(p.kind == 2 ? kAdditive : kReplace, 0.0f, 0.0f, 0.0f)));
#else
                s[0] = q0.x, s[1] = q0.y, s[2] = q0.z, s[3] = q0.w;
                s[4] = q1.x, s[5] = q1.y, s[6] = q1.z, s[7] = q1.w;
                s[8] = t0.x + (t1.x - t0.x) * a, s[9] = t0.y + (t1.y - t0.y) * a, s[10] = t0.z + (t1.z - t0.z) * a;
                s[11] = a;
                s[12] = s0.x + (s1.x - s0.x) * a, s[13] = s0.y + (s1.y - s0.y) * a, s[14] = s0.z + (s1.z - s0.z) * a;
                s[15] = p.kind == 2 ? kAdditive : kReplace;
#endif
                if (p.visibility) vis = p.visibility[std::min(f0, p.visLast)] != 0;
            }
            if (out.visible) out.visible[i] = vis;
        }
    }
    for (size_t i = 0; i < n && !planned; ++i) {
        float* s = &out.local[i][0][0];
        const int ti = trackFor ? trackFor[i] : -1;
        uint8_t vis = bones[i].visible;
        if (ti < 0) {
            const float slot[16] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, kBind};
            std::memcpy(s, slot, sizeof slot);
        } else {
            const BoneTrack& t = clip->tracks[static_cast<size_t>(ti)];
            const bool additive = t.mode == TrackMode::AdditiveToBind;
            const float a = (!t.step.empty() && at(t.step, f0)) ? 0.0f : alpha;
            glm::vec3 tr = additive ? glm::vec3(0.0f) : t.defaultTranslation;
            glm::vec3 sc = additive ? glm::vec3(1.0f) : t.defaultScale;
            glm::quat q0 = additive ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : t.defaultRotation, q1 = q0;
            if (!t.translation.empty()) {
                const glm::vec3 &p = at(t.translation, f0), &q = at(t.translation, f1);
                tr = p + (q - p) * a;
            }
            if (!t.rotation.empty()) q0 = at(t.rotation, f0), q1 = at(t.rotation, f1);
            if (!t.scale.empty()) {
                const glm::vec3 &p = at(t.scale, f0), &q = at(t.scale, f1);
                sc = p + (q - p) * a;
            }
            // Element stores: building a temporary and copying it stalls on store forwarding.
            s[0] = q0.x, s[1] = q0.y, s[2] = q0.z, s[3] = q0.w;
            s[4] = q1.x, s[5] = q1.y, s[6] = q1.z, s[7] = q1.w;
            s[8] = tr.x, s[9] = tr.y, s[10] = tr.z, s[11] = a;
            s[12] = sc.x, s[13] = sc.y, s[14] = sc.z, s[15] = additive ? kAdditive : kReplace;
            if (!t.visibility.empty()) vis = at(t.visibility, f0) != 0;
        }
        if (out.visible) out.visible[i] = vis;
    }

    // Pass 2: slerp every slot (bind-pose slots hold identity with alpha 0 and stay exact).
    size_t i = 0;
#if defined(__SSE2__)
    // (SSE: the slots become T * R * S; pass 3 takes each bone's kind from the binding.)
    for (; i + 4 <= n; i += 4)
        slerpComposeSlots4(&out.local[i][0][0], &out.local[i + 1][0][0], &out.local[i + 2][0][0],
                           &out.local[i + 3][0][0]);
    for (; i < n; ++i)
        slerpComposeSlot(&out.local[i][0][0]);
#else
    for (; i < n; ++i)
        slerpSlot(&out.local[i][0][0]);
#endif

        // Pass 3: local matrices and world transforms, parents first.
#if defined(__SSE2__)
    for (i = 0; i < n; ++i) {
        const Bone& b = bones[i];
        float* s = &out.local[i][0][0];
        int kind = 0;
        if (planned) {
            kind = binding->plan[i].kind;
        } else if (trackFor && trackFor[i] >= 0) {
            kind = clip->tracks[static_cast<size_t>(trackFor[i])].mode == TrackMode::AdditiveToBind ? 2 : 1;
        }
        M4 local;
        bool affine = true; // local's last row is exactly (0, 0, 0, 1)
        if (kind == 0) {
            local = load4(b.bindLocal);
            affine = isAffine(b.bindLocal);
        } else {
            local = load4(out.local[i]);
            if (kind == 2) {
                local = mulByAffine(load4(b.bindLocal), local);
                affine = isAffine(b.bindLocal);
            }
        }
        store4(local, s);
        const int p = b.parent;
        float* w = &out.world[i][0][0];
        if (p >= 0 && static_cast<size_t>(p) < i) {
            const M4 pw = load4(out.world[p]);
            store4(affine ? mulByAffine(pw, local) : mulFull(pw, local), w);
            if (out.visible) out.visible[i] = out.visible[i] && out.visible[p];
        } else {
            store4(local, w);
        }
    }
#else
    for (i = 0; i < n; ++i) {
        const Bone& b = bones[i];
        glm::mat4& local = out.local[i];
        const float* s = &local[0][0];
        const float kind = s[15];
        if (kind == kBind) {
            local = b.bindLocal;
        } else {
            const glm::quat q(s[3], s[0], s[1], s[2]);
            const glm::vec3 tr(s[8], s[9], s[10]), sc(s[12], s[13], s[14]);
            if (kind == kAdditive) {
                glm::mat4 m;
                composeTRS(tr, q, sc, m);
                mul4(b.bindLocal, m, local);
            } else {
                composeTRS(tr, q, sc, local);
            }
        }
        const int p = b.parent;
        if (p >= 0 && static_cast<size_t>(p) < i) {
            mul4(out.world[p], local, out.world[i]);
            if (out.visible) out.visible[i] = out.visible[i] && out.visible[p];
        } else {
            out.world[i] = local;
        }
    }
#endif
}

void skinInverseBind(const Skeleton& skeleton, const SubMesh& sm, std::vector<glm::mat4>& out) {
    out.assign(sm.boneMap.size(), glm::mat4(1.0f));
    if (sm.space == VertexSpace::Bone) return;
    std::vector<glm::mat4> bind(skeleton.bones.size());
    skeleton.bindWorld(bind.data());
    for (size_t i = 0; i < sm.boneMap.size(); ++i) {
        int b = sm.boneMap[i];
        if (b < 0 || static_cast<size_t>(b) >= bind.size()) continue;
        out[i] = glm::inverse(bind[b]);
        // The inverse of an affine matrix is affine: make its last row exact so skinPalette takes the affine path.
        if (isAffine(bind[b])) out[i][0][3] = out[i][1][3] = out[i][2][3] = 0.0f, out[i][3][3] = 1.0f;
    }
}

#if defined(__SSE2__) && defined(__GNUC__) && defined(__x86_64__)
#define RS_PALETTE_AVX2 1
// skinPalette with AVX2 + FMA: two columns per register (selected at run time when the CPU has them).
__attribute__((target("avx2,fma"))) static void skinPaletteAvx2(const int* map, size_t n, const glm::mat4* inverseBind,
                                                                const glm::mat4* world, glm::mat4* out) {
    for (size_t i = 0; i < n; ++i) {
        const float* a = &world[map[i]][0][0];
        const float* b = &inverseBind[i][0][0];
        const __m256 a0 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a));
        const __m256 a1 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a + 4));
        const __m256 a2 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a + 8));
        const __m256 a3 = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(a + 12));
        const __m256 b01 = _mm256_loadu_ps(b), b23 = _mm256_loadu_ps(b + 8);
        __m256 r01 = _mm256_mul_ps(a0, _mm256_permute_ps(b01, 0x00));
        __m256 r23 = _mm256_mul_ps(a0, _mm256_permute_ps(b23, 0x00));
        r01 = _mm256_fmadd_ps(a1, _mm256_permute_ps(b01, 0x55), r01);
        r23 = _mm256_fmadd_ps(a1, _mm256_permute_ps(b23, 0x55), r23);
        r01 = _mm256_fmadd_ps(a2, _mm256_permute_ps(b01, 0xAA), r01);
        r23 = _mm256_fmadd_ps(a2, _mm256_permute_ps(b23, 0xAA), r23);
        if (isAffine(inverseBind[i])) {
            r23 = _mm256_add_ps(r23, _mm256_blend_ps(_mm256_setzero_ps(), a3, 0xF0)); // + (0 | a3)
        } else {
            r01 = _mm256_fmadd_ps(a3, _mm256_permute_ps(b01, 0xFF), r01);
            r23 = _mm256_fmadd_ps(a3, _mm256_permute_ps(b23, 0xFF), r23);
        }
        _mm256_storeu_ps(&out[i][0][0], r01);
        _mm256_storeu_ps(&out[i][2][0], r23);
    }
}
#endif

void skinPalette(const SubMesh& sm, const glm::mat4* inverseBind, const glm::mat4* world, glm::mat4* out) {
    const int* map = sm.boneMap.data();
    const size_t n = sm.boneMap.size();
#if defined(RS_PALETTE_AVX2)
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx2) {
        skinPaletteAvx2(map, n, inverseBind, world, out);
        return;
    }
#endif
    for (size_t i = 0; i < n; ++i) {
#if defined(__SSE2__)
        const M4 w = load4(world[map[i]]), ib = load4(inverseBind[i]);
        store4(isAffine(inverseBind[i]) ? mulByAffine(w, ib) : mulFull(w, ib), &out[i][0][0]);
#else
        mul4(world[map[i]], inverseBind[i], out[i]);
#endif
    }
}

} // namespace rs
