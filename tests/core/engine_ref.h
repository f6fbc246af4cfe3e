// Reference evaluation of W3D and Alamo clips with the engines' semantics, written for the tests and
// independent of core's readers and of pose.cpp: the bytes are walked here, channels decoded here, and bone
// matrices composed in double precision.
//
// W3D (EA ww3d2, htree.cpp Anim_Update): World[0] = identity (pivot 0 carries the object transform);
//   World[i] = World[parent] * Base[i] * Translate(anim t) * Build_Matrix3D(anim q), with
//   Base[i] = Translate(pivot t) * Build_Matrix3D(pivot q). Build_Matrix3D uses the 1 - 2(y^2 + z^2) form on the
//   quaternion as decoded (not renormalised), so an off-unit quaternion scales/shears the 3x3 part.
//   Timecoded keys: ww3d2 Slerp between keys (acos/sin weights, linear when 1 - cos < 1e-8, not renormalised).
// Alamo (alo-viewer, D3DXMatrixTransformation): local = T * R(q) * S with q = i16 / 32767 as stored;
//   untracked bones keep the .alo bind matrix; World[i] = World[parent] * local.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rs::test::engine {

// Row-major 3x4 like ww3d2's Matrix3D: m[row][col], translation in column 3.
struct Mat34 {
    double m[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
};
struct Quat {
    double x = 0, y = 0, z = 0, w = 1;
};

Mat34 mul(const Mat34& a, const Mat34& b);
Mat34 translation(double x, double y, double z);
Mat34 buildMatrix3D(const Quat& q);                     // ww3d2 Build_Matrix3D
Quat slerp(const Quat& p, const Quat& q, double alpha); // ww3d2 Slerp

// One bone of the reference pose.
struct RefBone {
    std::string name;
    int parent = -1;
    Mat34 world;
};

struct RefOptions {
    bool renormalise = false; // renormalise decoded quaternions (what rigscope did before issue 15)
};

// Channel values of a W3D pivot at one frame (before composition).
struct W3dPivotSample {
    double t[3] = {0, 0, 0};
    Quat q;
    bool hasQ = false;
};

// A W3D clip file decoded by hand. Empty `error` = usable.
struct W3dRef {
    std::string error;
    std::string clipName, hierarchyName, hierarchyFile;
    uint32_t frames = 0;
    // World transforms of every hierarchy pivot at integer frame f.
    std::vector<RefBone> pose(uint32_t f, const RefOptions& o = {}) const;
    // Decoded channel values of pivot p at frame f (no guard, no renormalisation).
    W3dPivotSample sample(uint32_t pivot, uint32_t f) const;

    struct Pivot {
        std::string name;
        int parent = -1;
        float t[3] = {0, 0, 0};
        float q[4] = {0, 0, 0, 1}; // x y z w
    };
    struct Channel {
        enum Kind { Raw, Keys, Stream } kind = Raw;
        uint32_t pivot = 0, type = 0, vlen = 1, first = 0, last = 0;
        std::vector<float> vals;     // Raw: (last-first+1)*vlen; Keys: nKeys*vlen; Stream: frames*vlen
        std::vector<uint32_t> times; // Keys
        std::vector<uint8_t> binary; // Keys: key k is a binary movement (hold key k-1 until it)
    };
    std::vector<Pivot> pivots;
    std::vector<Channel> channels;
    bool pre30 = false;
};

// Decodes the first animation of a W3D clip file and finds its hierarchy (same file, or <hierarchy>.w3d
// next to it, case-insensitive).
W3dRef loadW3dRef(const std::string& clipPath);

// An Alamo model + clip decoded by hand.
struct AlamoRef {
    std::string error;
    uint32_t frames = 0;
    std::vector<RefBone> pose(uint32_t f, const RefOptions& o = {}) const;

    struct Bone {
        std::string name;
        int parent = -1;
        Mat34 bind;
    };
    struct Track {
        int bone = -1; // skeleton bone it animates
        float tOff[3] = {0, 0, 0}, tScale[3] = {0, 0, 0}, sOff[3] = {1, 1, 1}, sScale[3] = {0, 0, 0};
        std::vector<uint16_t> t, s; // 3 per frame (absent: empty)
        std::vector<int16_t> r;     // 4 per frame, or 4 (constant), or empty
        int16_t defaultR[4] = {0, 0, 0, 32767};
    };
    std::vector<Bone> bones;
    std::vector<Track> tracks;
};

AlamoRef loadAlamoRef(const std::string& modelPath, const std::string& clipPath);

} // namespace rs::test::engine
