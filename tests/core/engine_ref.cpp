#include "engine_ref.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace rs::test::engine {

namespace fs = std::filesystem;

Mat34 mul(const Mat34& a, const Mat34& b) {
    Mat34 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) {
            double v = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
            if (j == 3) v += a.m[i][3];
            r.m[i][j] = v;
        }
    return r;
}

Mat34 translation(double x, double y, double z) {
    Mat34 r;
    r.m[0][3] = x, r.m[1][3] = y, r.m[2][3] = z;
    return r;
}

Mat34 buildMatrix3D(const Quat& q) {
    Mat34 m;
    m.m[0][0] = 1.0 - 2.0 * (q.y * q.y + q.z * q.z);
    m.m[0][1] = 2.0 * (q.x * q.y - q.z * q.w);
    m.m[0][2] = 2.0 * (q.z * q.x + q.y * q.w);
    m.m[1][0] = 2.0 * (q.x * q.y + q.z * q.w);
    m.m[1][1] = 1.0 - 2.0 * (q.z * q.z + q.x * q.x);
    m.m[1][2] = 2.0 * (q.y * q.z - q.x * q.w);
    m.m[2][0] = 2.0 * (q.z * q.x - q.y * q.w);
    m.m[2][1] = 2.0 * (q.y * q.z + q.x * q.w);
    m.m[2][2] = 1.0 - 2.0 * (q.y * q.y + q.x * q.x);
    return m;
}

Quat slerp(const Quat& p, const Quat& q, double alpha) {
    double cosT = p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
    const bool flip = cosT < 0.0;
    if (flip) cosT = -cosT;
    double beta;
    if (1.0 - cosT < 1e-8) {
        beta = 1.0 - alpha;
    } else {
        const double theta = std::acos(cosT), s = std::sin(theta);
        beta = std::sin(theta - alpha * theta) / s;
        alpha = std::sin(alpha * theta) / s;
    }
    if (flip) alpha = -alpha;
    return {beta * p.x + alpha * q.x, beta * p.y + alpha * q.y, beta * p.z + alpha * q.z, beta * p.w + alpha * q.w};
}

namespace {

std::vector<uint8_t> readAll(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Little-endian reads with a bounds flag: any read past `end` sets bad and returns 0.
struct Rd {
    const uint8_t* p;
    size_t pos, end;
    bool bad = false;
    bool has(size_t n) {
        if (pos + n > end) bad = true;
        return !bad;
    }
    uint32_t u(int n) {
        if (!has(size_t(n))) return 0;
        uint32_t v = 0;
        for (int i = 0; i < n; ++i)
            v |= uint32_t(p[pos + i]) << (8 * i);
        pos += size_t(n);
        return v;
    }
    float f() {
        const uint32_t v = u(4);
        float r;
        std::memcpy(&r, &v, 4);
        return r;
    }
    std::string str(size_t n) {
        if (!has(n)) return {};
        std::string s(reinterpret_cast<const char*>(p + pos), n);
        pos += n;
        return s.substr(0, s.find('\0'));
    }
};

// A chunk [begin, end) with its id; W3D and Alamo share the header layout (u32 id, u32 size, bit 31 = container).
struct Ck {
    uint32_t id;
    size_t begin, end;
};
std::vector<Ck> chunks(const std::vector<uint8_t>& b, size_t begin, size_t end) {
    std::vector<Ck> out;
    size_t pos = begin;
    while (pos + 8 <= end) {
        Rd r{b.data(), pos, end};
        const uint32_t id = r.u(4), size = r.u(4) & 0x7FFFFFFFu;
        if (pos + 8 + size > end) break;
        out.push_back({id, pos + 8, pos + 8 + size});
        pos += 8 + size;
    }
    return out;
}

// Adaptive delta stream: value[0] = initial, value[f] = value[f-1] + delta * table[index] * unit.
std::vector<float> deltaStream(Rd& r, uint32_t frames, uint32_t vlen, int bits, float scale, const float* initial) {
    static float table[256];
    static bool init = false;
    if (!init) {
        for (int i = 0; i < 16; ++i)
            table[i] = float(std::pow(10.0, i - 8));
        for (int i = 0; i < 240; ++i)
            table[16 + i] = float(1.0 - std::sin(90.0 * i / 240.0 * 3.14159265358979323846 / 180.0));
        init = true;
    }
    const size_t packet = 1 + size_t(bits) * 2;
    const uint32_t blocks = frames > 1 ? (frames - 1 + 15) / 16 : 0;
    std::vector<float> out(size_t(frames) * vlen);
    if (!r.has(size_t(blocks) * vlen * packet)) return {};
    const uint8_t* data = r.p + r.pos;
    const float unit = bits == 8 ? scale / 16.0f : scale;
    for (uint32_t c = 0; c < vlen && frames > 0; ++c)
        out[c] = initial[c];
    for (uint32_t f = 1; f < frames; ++f) {
        const uint32_t blk = (f - 1) / 16, j = (f - 1) % 16;
        for (uint32_t c = 0; c < vlen; ++c) {
            const uint8_t* pk = data + (size_t(blk) * vlen + c) * packet;
            int d;
            if (bits == 4) {
                const int nib = (j % 2) ? pk[1 + j / 2] >> 4 : pk[1 + j / 2] & 15;
                d = nib > 7 ? nib - 16 : nib;
            } else {
                d = int(pk[1 + j]) - 128; // biased byte
            }
            out[size_t(f) * vlen + c] = out[size_t(f - 1) * vlen + c] + float(d) * table[pk[0]] * unit;
        }
    }
    return out;
}

bool readHierarchy(const std::vector<uint8_t>& b, const Ck& h, W3dRef& ref) {
    std::vector<W3dRef::Pivot> piv;
    uint32_t version = 0, n = 0;
    for (const Ck& c : chunks(b, h.begin, h.end)) {
        Rd r{b.data(), c.begin, c.end};
        if (c.id == 0x101) {
            version = r.u(4);
            r.str(16);
            n = r.u(4);
        } else if (c.id == 0x102) {
            for (uint32_t i = 0; i < n && !r.bad; ++i) {
                W3dRef::Pivot p;
                p.name = r.str(16);
                const uint32_t parent = r.u(4);
                p.parent = parent == 0xFFFFFFFFu ? -1 : int(parent);
                for (float& v : p.t)
                    v = r.f();
                r.u(4), r.u(4), r.u(4); // Euler angles (unused)
                for (float& v : p.q)
                    v = r.f();
                piv.push_back(p);
            }
            if (r.bad) return false;
        }
    }
    ref.pre30 = version < 0x30000u;
    if (ref.pre30) { // htree.cpp: pre-3.0 trees get a root pivot, indices shift by one
        W3dRef::Pivot root;
        root.name = "RootTransform";
        for (auto& p : piv)
            p.parent += 1;
        piv.insert(piv.begin(), root);
    }
    ref.pivots = std::move(piv);
    return !ref.pivots.empty();
}

bool findHierarchy(const std::vector<uint8_t>& b, const std::string& name, W3dRef& ref) {
    for (const Ck& c : chunks(b, 0, b.size())) {
        if (c.id != 0x100) continue;
        for (const Ck& k : chunks(b, c.begin, c.end))
            if (k.id == 0x101) {
                Rd r{b.data(), k.begin, k.end};
                r.u(4);
                if (lower(r.str(16)) == lower(name)) return readHierarchy(b, c, ref);
            }
    }
    return false;
}

} // namespace

W3dRef loadW3dRef(const std::string& clipPath) {
    W3dRef ref;
    const std::vector<uint8_t> b = readAll(clipPath);
    const Ck* anim = nullptr;
    const std::vector<Ck> top = chunks(b, 0, b.size());
    for (const Ck& c : top)
        if (c.id == 0x200 || c.id == 0x280) {
            anim = &c;
            break;
        }
    if (!anim) {
        ref.error = "no animation";
        return ref;
    }
    uint32_t flavor = 0, version = 0;
    for (const Ck& c : chunks(b, anim->begin, anim->end)) {
        Rd r{b.data(), c.begin, c.end};
        W3dRef::Channel ch;
        if (c.id == 0x201 || c.id == 0x281) {
            version = r.u(4);
            ref.clipName = r.str(16);
            ref.hierarchyName = r.str(16);
            ref.frames = r.u(4);
            if (c.id == 0x281) r.u(2), flavor = r.u(2);
            continue;
        } else if (c.id == 0x202) {
            ch.kind = W3dRef::Channel::Raw;
            ch.first = r.u(2), ch.last = r.u(2), ch.vlen = r.u(2), ch.type = r.u(2), ch.pivot = r.u(2);
            r.u(2);
            for (size_t i = 0; i < size_t(ch.last - ch.first + 1) * ch.vlen && !r.bad; ++i)
                ch.vals.push_back(r.f());
        } else if (c.id == 0x282 && flavor == 0) {
            ch.kind = W3dRef::Channel::Keys;
            const uint32_t n = r.u(4);
            ch.pivot = r.u(2), ch.vlen = r.u(1), ch.type = r.u(1);
            for (uint32_t k = 0; k < n && !r.bad; ++k) {
                const uint32_t tc = r.u(4);
                ch.times.push_back(tc & 0x7FFFFFFFu);
                ch.binary.push_back(uint8_t(tc >> 31));
                for (uint32_t j = 0; j < ch.vlen; ++j)
                    ch.vals.push_back(r.f());
            }
        } else if (c.id == 0x282) {
            ch.kind = W3dRef::Channel::Stream;
            const uint32_t n = r.u(4);
            ch.pivot = r.u(2), ch.vlen = r.u(1), ch.type = r.u(1);
            const float scale = r.f();
            float init[4] = {0, 0, 0, 0};
            for (uint32_t j = 0; j < ch.vlen && j < 4; ++j)
                init[j] = r.f();
            ch.last = n;
            ch.vals = deltaStream(r, n, ch.vlen, 4, scale, init);
        } else if (c.id == 0x284) {
            r.u(1);
            const uint32_t deltaType = r.u(1);
            ch.vlen = r.u(1), ch.type = r.u(1);
            const uint32_t n = r.u(2);
            ch.pivot = r.u(2);
            if (deltaType == 0) {
                ch.kind = W3dRef::Channel::Keys;
                for (uint32_t k = 0; k < n; ++k)
                    ch.times.push_back(r.u(2));
                if (n % 2) r.u(2);
                ch.binary.assign(n, 0);
                for (size_t i = 0; i < size_t(n) * ch.vlen && !r.bad; ++i)
                    ch.vals.push_back(r.f());
            } else {
                ch.kind = W3dRef::Channel::Stream;
                const float scale = r.f();
                float init[4] = {0, 0, 0, 0};
                for (uint32_t j = 0; j < ch.vlen && j < 4; ++j)
                    init[j] = r.f();
                ch.last = n;
                ch.vals = deltaStream(r, n, ch.vlen, deltaType == 1 ? 4 : 8, scale, init);
            }
        } else {
            continue;
        }
        if (r.bad) {
            ref.error = "truncated channel";
            return ref;
        }
        if (ch.type != 6 && ch.type > 2) continue;                  // Euler / unknown channels: unused by the game
        if (anim->id == 0x200 && version < 0x30000u) ch.pivot += 1; // hrawanim.cpp: pre-3.0 pivots shift by one
        if (ch.kind == W3dRef::Channel::Keys && ch.times.empty()) continue;
        if (ch.kind == W3dRef::Channel::Stream && ch.vals.empty()) continue;
        ref.channels.push_back(std::move(ch));
    }
    if (!findHierarchy(b, ref.hierarchyName, ref)) {
        const fs::path dir = fs::path(clipPath).parent_path();
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            if (lower(it->path().filename().string()) != lower(ref.hierarchyName) + ".w3d") continue;
            if (findHierarchy(readAll(it->path().string()), ref.hierarchyName, ref)) {
                ref.hierarchyFile = it->path().string();
                break;
            }
        }
    } else {
        ref.hierarchyFile = clipPath;
    }
    if (ref.pivots.empty()) ref.error = "hierarchy " + ref.hierarchyName + " not found";
    return ref;
}

W3dPivotSample W3dRef::sample(uint32_t pivot, uint32_t f) const {
    W3dPivotSample s;
    for (const Channel& c : channels) {
        if (c.pivot != pivot) continue;
        double v[4] = {0, 0, 0, 1};
        if (c.kind == Channel::Raw) {
            if (f >= c.first && f <= c.last)
                for (uint32_t j = 0; j < c.vlen && j < 4; ++j)
                    v[j] = c.vals[size_t(f - c.first) * c.vlen + j];
            else if (c.type != 6)
                v[0] = 0;
        } else if (c.kind == Channel::Stream) {
            const uint32_t n = uint32_t(c.vals.size() / c.vlen);
            const size_t at = size_t(std::min(f, n - 1)) * c.vlen;
            for (uint32_t j = 0; j < c.vlen && j < 4; ++j)
                v[j] = c.vals[at + j];
        } else {
            // Keys: the last key at or before f; interpolated towards the next unless that is a binary movement.
            size_t k = 0;
            while (k + 1 < c.times.size() && c.times[k + 1] <= f)
                ++k;
            const float* a = &c.vals[k * c.vlen];
            for (uint32_t j = 0; j < c.vlen && j < 4; ++j)
                v[j] = a[j];
            if (k + 1 < c.times.size() && f > c.times[k] && !c.binary[k + 1]) {
                const float* bb = &c.vals[(k + 1) * c.vlen];
                const double t = double(f - c.times[k]) / double(c.times[k + 1] - c.times[k]);
                if (c.type == 6) {
                    const Quat r = slerp({a[0], a[1], a[2], a[3]}, {bb[0], bb[1], bb[2], bb[3]}, t);
                    v[0] = r.x, v[1] = r.y, v[2] = r.z, v[3] = r.w;
                } else {
                    v[0] = a[0] + (bb[0] - a[0]) * t;
                }
            }
        }
        if (c.type == 6) {
            s.q = {v[0], v[1], v[2], v[3]};
            s.hasQ = true;
        } else {
            s.t[c.type] = v[0];
        }
    }
    return s;
}

std::vector<RefBone> W3dRef::pose(uint32_t f, const RefOptions& o) const {
    std::vector<RefBone> out(pivots.size());
    for (size_t i = 0; i < pivots.size(); ++i) {
        const Pivot& p = pivots[i];
        out[i].name = p.name;
        out[i].parent = p.parent;
        if (i == 0 || p.parent < 0 || size_t(p.parent) >= i) continue; // the root: object transform (identity)
        const Mat34 base = mul(translation(p.t[0], p.t[1], p.t[2]), buildMatrix3D({p.q[0], p.q[1], p.q[2], p.q[3]}));
        const W3dPivotSample s = sample(uint32_t(i), f);
        Quat q = s.q;
        const double n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (!(n2 > 1e-12) || !std::isfinite(n2)) q = Quat{};
        if (o.renormalise && s.hasQ) {
            const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            q = {q.x / n, q.y / n, q.z / n, q.w / n};
        }
        out[i].world =
            mul(mul(mul(out[size_t(p.parent)].world, base), translation(s.t[0], s.t[1], s.t[2])), buildMatrix3D(q));
    }
    return out;
}

AlamoRef loadAlamoRef(const std::string& modelPath, const std::string& clipPath) {
    AlamoRef ref;
    const std::vector<uint8_t> m = readAll(modelPath);
    for (const Ck& sk : chunks(m, 0, m.size())) {
        if (sk.id != 0x200) continue;
        for (const Ck& bc : chunks(m, sk.begin, sk.end)) {
            if (bc.id != 0x202) continue;
            AlamoRef::Bone bone;
            for (const Ck& c : chunks(m, bc.begin, bc.end)) {
                Rd r{m.data(), c.begin, c.end};
                if (c.id == 0x203) bone.name = r.str(c.end - c.begin);
                if (c.id != 0x205 && c.id != 0x206) continue;
                bone.parent = int32_t(r.u(4));
                r.u(4);
                if (c.id == 0x206) r.u(4);
                for (int row = 0; row < 3; ++row)
                    for (int col = 0; col < 4; ++col)
                        bone.bind.m[row][col] = r.f();
            }
            ref.bones.push_back(bone);
        }
        break;
    }
    const std::vector<uint8_t> b = readAll(clipPath);
    const std::vector<Ck> top = chunks(b, 0, b.size());
    if (top.empty() || top[0].id != 0x1000 || ref.bones.empty()) {
        ref.error = "no clip or no skeleton";
        return ref;
    }
    uint32_t frameR = 0, frameT = 0, frameS = 0;
    std::vector<uint32_t> idxT, idxR, idxS; // format 2, in 16-bit words
    const Ck *dataT = nullptr, *dataR = nullptr, *dataS = nullptr;
    const std::vector<Ck> kids = chunks(b, top[0].begin, top[0].end);
    // Mini-chunks: u8 id, u8 size, payload.
    const auto minis = [&](const Ck& c, auto&& fn) {
        for (size_t p = c.begin; p + 2 <= c.end;) {
            const uint8_t id = b[p], n = b[p + 1];
            if (p + 2 + n > c.end) break;
            Rd r{b.data(), p + 2, p + 2 + n};
            fn(id, n, r);
            p += 2 + size_t(n);
        }
    };
    for (const Ck& c : kids) {
        if (c.id == 0x1001) {
            minis(c, [&](uint8_t id, uint8_t, Rd& r) {
                if (id == 1) ref.frames = r.u(4);
                if (id == 11) frameR = r.u(4);
                if (id == 12) frameT = r.u(4);
                if (id == 13) frameS = r.u(4);
            });
        } else if (c.id == 0x100a) {
            dataT = &c;
        } else if (c.id == 0x1009) {
            dataR = &c;
        } else if (c.id == 0x100b) {
            dataS = &c;
        } else if (c.id == 0x1002) {
            AlamoRef::Track t;
            std::string name;
            uint32_t index = 0, iT = 0xFFFFFFFFu, iR = 0xFFFFFFFFu, iS = 0xFFFFFFFFu;
            const auto idx = [](uint8_t n, Rd& r) {
                const uint32_t v = r.u(n == 2 ? 2 : 4);
                return n == 2 && v == 0xFFFF ? 0xFFFFFFFFu : v;
            };
            for (const Ck& k : chunks(b, c.begin, c.end)) {
                Rd r{b.data(), k.begin, k.end};
                if (k.id == 0x1003) {
                    minis(k, [&](uint8_t id, uint8_t n, Rd& mr) {
                        if (id == 4) name = mr.str(n);
                        if (id == 5) index = mr.u(4);
                        float* v3 = id == 6   ? t.tOff
                                    : id == 7 ? t.tScale
                                    : id == 8 ? t.sOff
                                    : id == 9 ? t.sScale
                                              : nullptr;
                        if (v3)
                            for (int j = 0; j < 3; ++j)
                                v3[j] = mr.f();
                        if (id == 14) iT = idx(n, mr);
                        if (id == 15) iS = idx(n, mr);
                        if (id == 16) iR = idx(n, mr);
                        if (id == 17)
                            for (int16_t& q : t.defaultR)
                                q = int16_t(mr.u(2));
                    });
                } else if (k.id == 0x1004 || k.id == 0x1005) {
                    auto& out = k.id == 0x1004 ? t.t : t.s;
                    for (size_t i = 0; i < size_t(ref.frames) * 3; ++i)
                        out.push_back(uint16_t(r.u(2)));
                } else if (k.id == 0x1006) {
                    const size_t n = (k.end - k.begin) == 8 ? 4 : size_t(ref.frames) * 4;
                    for (size_t i = 0; i < n; ++i)
                        t.r.push_back(int16_t(r.u(2)));
                }
            }
            // Bound by name (case-insensitive), else by index.
            for (size_t i = 0; i < ref.bones.size(); ++i)
                if (lower(ref.bones[i].name) == lower(name)) t.bone = int(i);
            if (t.bone < 0 && index < ref.bones.size()) t.bone = int(index);
            ref.tracks.push_back(t);
            idxT.push_back(iT), idxR.push_back(iR), idxS.push_back(iS);
        }
    }
    // Format 2: per frame, frameSize words; a bone's channel starts at its index.
    const auto gather = [&](const Ck* c, uint32_t frameSize, const std::vector<uint32_t>& idx, int width, auto&& put) {
        for (size_t i = 0; i < ref.tracks.size(); ++i) {
            if (idx[i] == 0xFFFFFFFFu || !c) continue;
            for (uint32_t f = 0; f < ref.frames; ++f) {
                Rd r{b.data(), c->begin + (size_t(f) * frameSize + idx[i]) * 2, c->end};
                for (int j = 0; j < width; ++j)
                    put(ref.tracks[i], uint16_t(r.u(2)));
            }
        }
    };
    if (frameR || frameT || frameS) {
        gather(dataT, frameT, idxT, 3, [](AlamoRef::Track& t, uint16_t v) { t.t.push_back(v); });
        gather(dataR, frameR, idxR, 4, [](AlamoRef::Track& t, uint16_t v) { t.r.push_back(int16_t(v)); });
        gather(dataS, frameS, idxS, 3, [](AlamoRef::Track& t, uint16_t v) { t.s.push_back(v); });
    }
    return ref;
}

std::vector<RefBone> AlamoRef::pose(uint32_t f, const RefOptions& o) const {
    std::vector<RefBone> out(bones.size());
    std::vector<const Track*> trackOf(bones.size(), nullptr);
    for (const Track& t : tracks)
        if (t.bone >= 0 && size_t(t.bone) < bones.size()) trackOf[size_t(t.bone)] = &t;
    for (size_t i = 0; i < bones.size(); ++i) {
        out[i].name = bones[i].name;
        out[i].parent = bones[i].parent;
        Mat34 local = bones[i].bind;
        if (const Track* t = trackOf[i]) {
            double tr[3], sc[3];
            for (int j = 0; j < 3; ++j) {
                tr[j] = t->t.empty() ? t->tOff[j] : t->tOff[j] + double(t->t[size_t(f) * 3 + j]) * t->tScale[j];
                sc[j] = t->s.empty() ? t->sOff[j] : t->sOff[j] + double(t->s[size_t(f) * 3 + j]) * t->sScale[j];
            }
            const int16_t* r = t->r.empty() ? t->defaultR : t->r.size() == 4 ? t->r.data() : &t->r[size_t(f) * 4];
            Quat q{r[0] / 32767.0, r[1] / 32767.0, r[2] / 32767.0, r[3] / 32767.0};
            const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            if (!(n > 1e-4))
                q = Quat{};
            else if (o.renormalise)
                q = {q.x / n, q.y / n, q.z / n, q.w / n};
            Mat34 s;
            s.m[0][0] = sc[0], s.m[1][1] = sc[1], s.m[2][2] = sc[2];
            local = mul(mul(translation(tr[0], tr[1], tr[2]), buildMatrix3D(q)), s);
        }
        const int p = bones[i].parent;
        out[i].world = p >= 0 && size_t(p) < i ? mul(out[size_t(p)].world, local) : local;
    }
    return out;
}

} // namespace rs::test::engine
