#include "compare/compare.h"

#include "scene/pose.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace rs::compare {
namespace {

std::string num(double v, int decimals = 4) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    std::string s = b;
    // Trim trailing zeros ("1.5000" -> "1.5", "2.0000" -> "2").
    if (s.find('.') != std::string::npos) {
        while (!s.empty() && s.back() == '0')
            s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
    }
    return s == "-0" ? "0" : s;
}

std::string vec(const glm::vec3& v) { return "(" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + ")"; }
std::string vec4s(const glm::vec4& v) {
    return "(" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + ", " + num(v.w) + ")";
}

// Pairs of (index in A, index in B) by case-insensitive name, the k-th occurrence with the k-th; -1 = absent.
// Order: A's order, then B's unmatched items in B's order. Repeated names are noted once each.
std::vector<std::pair<int, int>> matchByName(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                             const char* what, std::vector<std::string>& notes) {
    std::map<std::string, std::vector<int>> inB;
    for (size_t i = 0; i < b.size(); ++i)
        inB[toLower(b[i])].push_back(int(i));
    std::map<std::string, int> countA;
    for (const std::string& n : a)
        ++countA[toLower(n)];
    std::map<std::string, size_t> used;
    std::vector<uint8_t> takenB(b.size(), 0);
    std::vector<std::pair<int, int>> out;
    std::set<std::string> noted;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string key = toLower(a[i]);
        auto it = inB.find(key);
        const size_t k = used[key]++;
        int j = -1;
        if (it != inB.end() && k < it->second.size()) {
            j = it->second[k];
            takenB[size_t(j)] = 1;
        }
        out.push_back({int(i), j});
        const size_t nb = it == inB.end() ? 0 : it->second.size();
        if ((countA[key] > 1 || nb > 1) && noted.insert(key).second)
            notes.push_back(std::string(what) + " name \"" + a[i] + "\" repeats (" + std::to_string(countA[key]) +
                            " in A, " + std::to_string(nb) + " in B): matched in order of appearance");
    }
    for (size_t j = 0; j < b.size(); ++j) {
        if (takenB[j]) continue;
        out.push_back({-1, int(j)});
        const std::string key = toLower(b[j]);
        if (inB[key].size() > 1 && noted.insert(key).second)
            notes.push_back(std::string(what) + " name \"" + b[j] + "\" repeats (" + std::to_string(countA[key]) +
                            " in A, " + std::to_string(inB[key].size()) + " in B): matched in order of appearance");
    }
    return out;
}

template <class T, class F> std::vector<std::string> namesOf(const std::vector<T>& v, F name) {
    std::vector<std::string> out;
    out.reserve(v.size());
    for (const T& x : v)
        out.push_back(name(x));
    return out;
}

// Rotation part of a matrix with scale removed (columns normalised); identity for a degenerate column.
glm::dquat rotationOf(const glm::mat4& m) {
    glm::dmat3 r;
    for (int c = 0; c < 3; ++c) {
        glm::dvec3 col(m[c][0], m[c][1], m[c][2]);
        const double len = glm::length(col);
        if (!(len > 1e-12)) return glm::dquat(1, 0, 0, 0);
        r[c] = col / len;
    }
    return glm::normalize(glm::quat_cast(r));
}

// Angle in degrees between two rotations (0..180).
double angleBetween(const glm::dquat& a, const glm::dquat& b) {
    const glm::dquat d = glm::conjugate(a) * b;
    const double s = glm::length(glm::dvec3(d.x, d.y, d.z));
    return glm::degrees(2.0 * std::atan2(s, std::abs(d.w)));
}

double distanceBetween(const glm::mat4& a, const glm::mat4& b) {
    return glm::length(glm::dvec3(a[3]) - glm::dvec3(b[3]));
}

std::string boneName(const Skeleton& s, int i) {
    return i >= 0 && size_t(i) < s.bones.size() ? s.bones[size_t(i)].name : std::string();
}

Difference row(Category c, Change ch, std::string subject, std::string field = {}, std::string a = {},
               std::string b = {}) {
    Difference d;
    d.category = c;
    d.change = ch;
    d.subject = std::move(subject);
    d.field = std::move(field);
    d.a = std::move(a);
    d.b = std::move(b);
    return d;
}

Difference countRow(Category c, std::string subject, std::string field, double a, double b) {
    Difference d = row(c, Change::Changed, std::move(subject), std::move(field), num(a, 0), num(b, 0));
    d.valueA = a;
    d.valueB = b;
    return d;
}

void diffBones(const Model& ma, const Model& mb, const Tolerance& tol, Summary& out) {
    const Skeleton& a = ma.skeleton;
    const Skeleton& b = mb.skeleton;
    std::vector<glm::mat4> wa(a.bones.size()), wb(b.bones.size());
    a.bindWorld(wa.data());
    b.bindWorld(wb.data());
    auto name = [](const Bone& x) { return x.name; };
    for (auto [i, j] : matchByName(namesOf(a.bones, name), namesOf(b.bones, name), "bone", out.notes)) {
        if (j < 0) {
            Difference d = row(Category::Bone, Change::Removed, a.bones[size_t(i)].name);
            d.boneA = i;
            out.differences.push_back(d);
            continue;
        }
        if (i < 0) {
            Difference d = row(Category::Bone, Change::Added, b.bones[size_t(j)].name);
            d.boneB = j;
            out.differences.push_back(d);
            continue;
        }
        const Bone& x = a.bones[size_t(i)];
        const Bone& y = b.bones[size_t(j)];
        const std::string pa = boneName(a, x.parent), pb = boneName(b, y.parent);
        const double localDistance = distanceBetween(x.bindLocal, y.bindLocal);
        const double localAngle = angleBetween(rotationOf(x.bindLocal), rotationOf(y.bindLocal));
        const bool reparented = !iequals(pa, pb);
        if (reparented || localDistance > tol.distance || localAngle > tol.angleDegrees) {
            Difference d = reparented ? row(Category::Bone, Change::Reparented, x.name, "parent",
                                            pa.empty() ? "(root)" : pa, pb.empty() ? "(root)" : pb)
                                      : row(Category::Bone, Change::Moved, x.name);
            d.distance = distanceBetween(wa[size_t(i)], wb[size_t(j)]);
            d.angle = angleBetween(rotationOf(wa[size_t(i)]), rotationOf(wb[size_t(j)]));
            d.localDistance = localDistance;
            d.localAngle = localAngle;
            d.boneA = i;
            d.boneB = j;
            out.differences.push_back(d);
        }
        if (x.visible != y.visible) {
            Difference d = row(Category::Bone, Change::Changed, x.name, "visible", x.visible ? "yes" : "no",
                               y.visible ? "yes" : "no");
            d.boneA = i;
            d.boneB = j;
            out.differences.push_back(d);
        }
        if (x.billboard != y.billboard) {
            Difference d = countRow(Category::Bone, x.name, "billboard", x.billboard, y.billboard);
            d.boneA = i;
            d.boneB = j;
            out.differences.push_back(d);
        }
    }
}

std::string paramValue(const MaterialParam& p) {
    switch (p.type) {
    case ParamType::Int:
        return std::to_string(p.intValue);
    case ParamType::Float:
        return num(p.value.x);
    case ParamType::Float3:
        return vec(glm::vec3(p.value));
    case ParamType::Float4:
        return vec4s(p.value);
    case ParamType::Texture:
        return p.texture;
    }
    return {};
}

void diffMaterial(const std::string& where, const Material& a, const Material& b, const Tolerance& tol, Summary& out) {
    if (!iequals(a.shader, b.shader))
        out.differences.push_back(row(Category::Material, Change::Changed, where, "shader", a.shader, b.shader));
    auto name = [](const MaterialParam& p) { return p.name; };
    for (auto [i, j] : matchByName(namesOf(a.params, name), namesOf(b.params, name), "parameter", out.notes)) {
        if (j < 0) {
            const MaterialParam& p = a.params[size_t(i)];
            out.differences.push_back(
                row(Category::Parameter, Change::Removed, where + "." + p.name, {}, paramValue(p), {}));
            continue;
        }
        if (i < 0) {
            const MaterialParam& p = b.params[size_t(j)];
            out.differences.push_back(
                row(Category::Parameter, Change::Added, where + "." + p.name, {}, {}, paramValue(p)));
            continue;
        }
        const MaterialParam& p = a.params[size_t(i)];
        const MaterialParam& q = b.params[size_t(j)];
        const std::string subject = where + "." + p.name;
        if (p.type != q.type) {
            out.differences.push_back(row(Category::Parameter, Change::Changed, subject, "type",
                                          std::string(paramTypeName(p.type)) + " " + paramValue(p),
                                          std::string(paramTypeName(q.type)) + " " + paramValue(q)));
            continue;
        }
        switch (p.type) {
        case ParamType::Texture:
            if (!iequals(p.texture, q.texture))
                out.differences.push_back(
                    row(Category::Parameter, Change::Changed, subject, "texture", p.texture, q.texture));
            break;
        case ParamType::Int:
            if (p.intValue != q.intValue)
                out.differences.push_back(countRow(Category::Parameter, subject, "value", p.intValue, q.intValue));
            break;
        default: {
            const int n = p.type == ParamType::Float ? 1 : p.type == ParamType::Float3 ? 3 : 4;
            double largest = 0;
            for (int c = 0; c < n; ++c)
                largest = std::max(largest, std::abs(double(p.value[c]) - double(q.value[c])));
            if (largest > tol.value) {
                Difference d =
                    row(Category::Parameter, Change::Changed, subject, "value", paramValue(p), paramValue(q));
                if (n == 1) {
                    d.valueA = p.value.x;
                    d.valueB = q.value.x;
                }
                d.distance = largest; // largest component difference
                out.differences.push_back(d);
            }
        }
        }
    }
}

void diffMeshes(const Model& ma, const Model& mb, const Tolerance& tol, Summary& out) {
    auto name = [](const Mesh& m) { return m.name; };
    for (auto [i, j] : matchByName(namesOf(ma.meshes, name), namesOf(mb.meshes, name), "mesh", out.notes)) {
        if (j < 0) {
            const Mesh& m = ma.meshes[size_t(i)];
            out.differences.push_back(
                row(Category::Mesh, Change::Removed, m.name, {}, std::to_string(m.subMeshes.size()) + " sub-meshes"));
            continue;
        }
        if (i < 0) {
            const Mesh& m = mb.meshes[size_t(j)];
            out.differences.push_back(
                row(Category::Mesh, Change::Added, m.name, {}, {}, std::to_string(m.subMeshes.size()) + " sub-meshes"));
            continue;
        }
        const Mesh& x = ma.meshes[size_t(i)];
        const Mesh& y = mb.meshes[size_t(j)];
        const std::string ba = boneName(ma.skeleton, x.bone), bb = boneName(mb.skeleton, y.bone);
        if (!iequals(ba, bb))
            out.differences.push_back(row(Category::Mesh, Change::Changed, x.name, "bone", ba.empty() ? "(none)" : ba,
                                          bb.empty() ? "(none)" : bb));
        if (x.hidden != y.hidden)
            out.differences.push_back(row(Category::Mesh, Change::Changed, x.name, "hidden", x.hidden ? "yes" : "no",
                                          y.hidden ? "yes" : "no"));
        if (x.subMeshes.size() != y.subMeshes.size())
            out.differences.push_back(
                countRow(Category::Mesh, x.name, "sub-meshes", double(x.subMeshes.size()), double(y.subMeshes.size())));
        const size_t n = std::min(x.subMeshes.size(), y.subMeshes.size());
        for (size_t k = 0; k < n; ++k) {
            const SubMesh& s = x.subMeshes[k];
            const SubMesh& t = y.subMeshes[k];
            const std::string where = x.name + "[" + std::to_string(k) + "]";
            if (s.vertexCount() != t.vertexCount())
                out.differences.push_back(
                    countRow(Category::SubMesh, where, "vertices", double(s.vertexCount()), double(t.vertexCount())));
            if (s.triangleCount() != t.triangleCount())
                out.differences.push_back(countRow(Category::SubMesh, where, "triangles", double(s.triangleCount()),
                                                   double(t.triangleCount())));
            if (!iequals(s.vertexFormat, t.vertexFormat))
                out.differences.push_back(
                    row(Category::SubMesh, Change::Changed, where, "vertex format", s.vertexFormat, t.vertexFormat));
            if (s.vertexCount() == t.vertexCount()) {
                double largest = 0;
                size_t at = 0;
                for (size_t v = 0; v < s.positions.size(); ++v) {
                    const double d = glm::length(glm::dvec3(s.positions[v]) - glm::dvec3(t.positions[v]));
                    if (d > largest) {
                        largest = d;
                        at = v;
                    }
                }
                if (largest > tol.distance) {
                    Difference d = row(Category::SubMesh, Change::Changed, where, "positions",
                                       "vertex " + std::to_string(at) + " " + vec(s.positions[at]),
                                       "vertex " + std::to_string(at) + " " + vec(t.positions[at]));
                    d.distance = largest;
                    out.differences.push_back(d);
                }
            }
            diffMaterial(where, s.material, t.material, tol, out);
        }
    }
}

void diffTextures(const Model& a, const Model& b, Summary& out) {
    auto collect = [](const Model& m) {
        std::map<std::string, std::string> names; // lower case -> first spelling
        for (const Mesh& mesh : m.meshes)
            for (const SubMesh& s : mesh.subMeshes)
                for (const MaterialParam& p : s.material.params)
                    if (p.type == ParamType::Texture && !p.texture.empty())
                        names.emplace(toLower(p.texture), p.texture);
        for (const Dazzle& d : m.dazzles)
            if (!d.texture.empty()) names.emplace(toLower(d.texture), d.texture);
        return names;
    };
    const auto ta = collect(a), tb = collect(b);
    std::set<std::string> keys;
    for (const auto& [k, v] : ta)
        keys.insert(k);
    for (const auto& [k, v] : tb)
        keys.insert(k);
    for (const std::string& k : keys) {
        auto ia = ta.find(k), ib = tb.find(k);
        if (ib == tb.end())
            out.differences.push_back(row(Category::Texture, Change::Removed, ia->second));
        else if (ia == ta.end())
            out.differences.push_back(row(Category::Texture, Change::Added, ib->second));
    }
}

// Added/Removed by name, then the fields `compare` lists for matched pairs.
template <class T, class F>
void diffNamed(Category c, const char* what, const std::vector<T>& a, const std::vector<T>& b, F compare,
               Summary& out) {
    auto name = [](const T& x) { return x.name; };
    for (auto [i, j] : matchByName(namesOf(a, name), namesOf(b, name), what, out.notes)) {
        if (j < 0)
            out.differences.push_back(row(c, Change::Removed, a[size_t(i)].name));
        else if (i < 0)
            out.differences.push_back(row(c, Change::Added, b[size_t(j)].name));
        else
            compare(a[size_t(i)], b[size_t(j)]);
    }
}

void diffAttachments(const Model& ma, const Model& mb, const Tolerance& tol, Summary& out) {
    auto field = [&](Category c, const std::string& subject, const char* f, const std::string& x,
                     const std::string& y) { out.differences.push_back(row(c, Change::Changed, subject, f, x, y)); };
    auto bones = [&](Category c, const std::string& subject, int x, int y) {
        const std::string p = boneName(ma.skeleton, x), q = boneName(mb.skeleton, y);
        if (!iequals(p, q)) field(c, subject, "bone", p.empty() ? "(none)" : p, q.empty() ? "(none)" : q);
    };
    auto value = [&](Category c, const std::string& subject, const char* f, double x, double y) {
        if (std::abs(x - y) > tol.value) {
            Difference d = row(c, Change::Changed, subject, f, num(x), num(y));
            d.valueA = x;
            d.valueB = y;
            out.differences.push_back(d);
        }
    };
    auto vector3 = [&](Category c, const std::string& subject, const char* f, const glm::vec3& x, const glm::vec3& y,
                       double limit) {
        const double d = glm::length(glm::dvec3(x) - glm::dvec3(y));
        if (d > limit) {
            Difference r = row(c, Change::Changed, subject, f, vec(x), vec(y));
            r.distance = d;
            out.differences.push_back(r);
        }
    };
    diffNamed(
        Category::Light, "light", ma.lights, mb.lights,
        [&](const Light& x, const Light& y) {
            if (x.type != y.type) {
                Difference d = countRow(Category::Light, x.name, "type", x.type, y.type);
                out.differences.push_back(d);
            }
            bones(Category::Light, x.name, x.bone, y.bone);
            vector3(Category::Light, x.name, "color", x.color, y.color, tol.value);
            value(Category::Light, x.name, "intensity", x.intensity, y.intensity);
            value(Category::Light, x.name, "attenuation start", x.farAttenuationStart, y.farAttenuationStart);
            value(Category::Light, x.name, "attenuation end", x.farAttenuationEnd, y.farAttenuationEnd);
            value(Category::Light, x.name, "hotspot", x.hotspotSize, y.hotspotSize);
            value(Category::Light, x.name, "falloff", x.falloffSize, y.falloffSize);
        },
        out);
    diffNamed(
        Category::Proxy, "proxy", ma.proxies, mb.proxies,
        [&](const Proxy& x, const Proxy& y) {
            bones(Category::Proxy, x.name, x.bone, y.bone);
            if (x.hidden != y.hidden)
                field(Category::Proxy, x.name, "hidden", x.hidden ? "yes" : "no", y.hidden ? "yes" : "no");
        },
        out);
    diffNamed(
        Category::Dazzle, "dazzle", ma.dazzles, mb.dazzles,
        [&](const Dazzle& x, const Dazzle& y) {
            bones(Category::Dazzle, x.name, x.bone, y.bone);
            vector3(Category::Dazzle, x.name, "position", x.position, y.position, tol.distance);
            vector3(Category::Dazzle, x.name, "color", x.color, y.color, tol.value);
            value(Category::Dazzle, x.name, "radius", x.radius, y.radius);
            value(Category::Dazzle, x.name, "frequency", x.frequency, y.frequency);
            if (!iequals(x.texture, y.texture)) field(Category::Dazzle, x.name, "texture", x.texture, y.texture);
            if (x.hidden != y.hidden)
                field(Category::Dazzle, x.name, "hidden", x.hidden ? "yes" : "no", y.hidden ? "yes" : "no");
            if (x.nightOnly != y.nightOnly)
                field(Category::Dazzle, x.name, "night only", x.nightOnly ? "yes" : "no", y.nightOnly ? "yes" : "no");
        },
        out);
    diffNamed(
        Category::Marker, "marker", ma.markers, mb.markers,
        [&](const Marker& x, const Marker& y) {
            bones(Category::Marker, x.name, x.bone, y.bone);
            if (!iequals(x.kind, y.kind)) field(Category::Marker, x.name, "kind", x.kind, y.kind);
            vector3(Category::Marker, x.name, "position", glm::vec3(x.transform[3]), glm::vec3(y.transform[3]),
                    tol.distance);
            vector3(Category::Marker, x.name, "extent", x.extent, y.extent, tol.distance);
        },
        out);
}

// The name a track animates: its stored name, else its bone's in the skeleton.
std::string trackBoneName(const BoneTrack& t, const Skeleton* s) {
    if (!t.boneName.empty()) return t.boneName;
    if (s) return boneName(*s, t.bone);
    return {};
}

// Samples one clip's local bone transforms at a time (seconds), clamped to its last frame.
class Sampler {
  public:
    Sampler(const Clip& clip, const Skeleton* skeleton) : clip_(clip), skeleton_(skeleton) {
        if (skeleton_) {
            binding_ = bindClip(*skeleton_, clip_);
            pose_.resize(skeleton_->bones.size());
        }
    }
    void at(double seconds) {
        frame_ =
            clip_.frameCount > 0 ? std::clamp(float(seconds * clip_.fps), 0.0f, float(clip_.frameCount - 1)) : 0.0f;
        if (skeleton_) evaluatePose(*skeleton_, &clip_, &binding_, frame_, LoopMode::Once, pose_.view());
    }
    // Local transform of skeleton bone `bone`, or of track `track` when there is no skeleton.
    glm::mat4 local(int bone, int track) const {
        if (skeleton_) return pose_.local[size_t(bone)];
        const uint32_t f0 = uint32_t(std::floor(frame_));
        const uint32_t f1 = std::min(f0 + 1, clip_.frameCount > 0 ? clip_.frameCount - 1 : 0u);
        return sampleTrackLocal(clip_.tracks[size_t(track)], glm::mat4(1.0f), f0, f1, frame_ - float(f0));
    }

  private:
    const Clip& clip_;
    const Skeleton* skeleton_;
    ClipBinding binding_;
    PoseBuffers pose_;
    float frame_ = 0;
};

std::string lengthText(const Clip& c) {
    return std::to_string(c.frameCount) + " frames at " + num(c.fps, 3) + " fps (" + num(c.duration(), 3) + " s)";
}

} // namespace

void diffModels(const Model& a, const Model& b, const Tolerance& tol, Summary& out) {
    diffBones(a, b, tol, out);
    diffMeshes(a, b, tol, out);
    diffTextures(a, b, out);
    diffAttachments(a, b, tol, out);
}

void diffClips(const Clip& a, const Skeleton* sa, const Clip& b, const Skeleton* sb, const Tolerance& tol,
               bool bonesListed, Summary& out) {
    ClipPair pair;
    pair.nameA = a.name;
    pair.nameB = b.name;
    pair.framesA = a.frameCount;
    pair.framesB = b.frameCount;
    pair.fpsA = a.fps;
    pair.fpsB = b.fps;
    pair.secondsA = a.duration();
    pair.secondsB = b.duration();
    const std::string subject = iequals(a.name, b.name) ? a.name : a.name + " / " + b.name;
    if (a.frameCount != b.frameCount || std::abs(double(a.fps) - double(b.fps)) > 1e-6) {
        Difference d = row(Category::Clip, Change::Changed, subject, "length", lengthText(a), lengthText(b));
        d.valueA = a.duration();
        d.valueB = b.duration();
        d.clipA = a.name;
        d.clipB = b.name;
        out.differences.push_back(d);
    }

    // What each side animates: per name, the track index; with a skeleton, the bone index too.
    struct Animated {
        std::string name;
        int track = -1, bone = -1;
    };
    auto animated = [](const Clip& c, const Skeleton* s) {
        std::vector<Animated> v;
        for (size_t t = 0; t < c.tracks.size(); ++t) {
            const BoneTrack& tr = c.tracks[t];
            if (!tr.hasTranslation() && !tr.hasRotation() && !tr.hasScale() && tr.mode == TrackMode::AdditiveToBind)
                continue; // an additive track with no channel moves nothing
            Animated x;
            x.name = trackBoneName(tr, s);
            x.track = int(t);
            x.bone = s ? s->find(x.name) : -1;
            if (s && x.bone < 0) continue; // the clip's binding problem, not a difference between the clips
            v.push_back(x);
        }
        return v;
    };
    const std::vector<Animated> va = animated(a, sa), vb = animated(b, sb);
    auto name = [](const Animated& x) { return x.name; };
    const auto pairs = matchByName(namesOf(va, name), namesOf(vb, name), "track", out.notes);

    // Bones compared: every animated bone with a counterpart on the other side (skeletons: by name; no skeleton:
    // only tracks on both sides).
    struct Compared {
        std::string name;
        int trackA = -1, trackB = -1, boneA = -1, boneB = -1;
        double distance = 0, distanceTime = 0, angle = 0, angleTime = 0;
    };
    std::vector<Compared> compared;
    for (auto [i, j] : pairs) {
        Compared c;
        if (i >= 0) {
            c.name = va[size_t(i)].name;
            c.trackA = va[size_t(i)].track;
            c.boneA = va[size_t(i)].bone;
        }
        if (j >= 0) {
            if (c.name.empty()) c.name = vb[size_t(j)].name;
            c.trackB = vb[size_t(j)].track;
            c.boneB = vb[size_t(j)].bone;
        }
        if (sa && c.boneA < 0) c.boneA = sa->find(c.name);
        if (sb && c.boneB < 0) c.boneB = sb->find(c.name);
        compared.push_back(c);
    }

    // Sample times: every stored frame of either clip.
    std::vector<double> times;
    for (uint32_t f = 0; f < a.frameCount && a.fps > 0; ++f)
        times.push_back(double(f) / a.fps);
    for (uint32_t f = 0; f < b.frameCount && b.fps > 0; ++f)
        times.push_back(double(f) / b.fps);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end(), [](double x, double y) { return std::abs(x - y) < 1e-9; }),
                times.end());
    if (times.empty()) times.push_back(0.0);

    Sampler sampA(a, sa), sampB(b, sb);
    for (double t : times) {
        sampA.at(t);
        sampB.at(t);
        for (Compared& c : compared) {
            const bool haveA = sa ? c.boneA >= 0 : c.trackA >= 0;
            const bool haveB = sb ? c.boneB >= 0 : c.trackB >= 0;
            if (!haveA || !haveB) continue;
            const glm::mat4 la = sampA.local(c.boneA, c.trackA), lb = sampB.local(c.boneB, c.trackB);
            const double d = distanceBetween(la, lb), g = angleBetween(rotationOf(la), rotationOf(lb));
            if (d > c.distance) {
                c.distance = d;
                c.distanceTime = t;
            }
            if (g > c.angle) {
                c.angle = g;
                c.angleTime = t;
            }
        }
    }

    for (const Compared& c : compared) {
        const bool inA = c.trackA >= 0, inB = c.trackB >= 0;
        const bool bothSkeletons = !sa || !sb || (c.boneA >= 0 && c.boneB >= 0);
        const bool moved = c.distance > tol.distance || c.angle > tol.angleDegrees;
        Difference d;
        if (inA && inB) {
            if (!moved) continue;
            d = row(Category::Track, Change::Changed, c.name, "motion");
        } else {
            // A bone one skeleton lacks is a Bone row when the skeletons were compared.
            if (bonesListed && !bothSkeletons) continue;
            // Without skeletons a track on one side only cannot be sampled against anything.
            d = row(Category::Track, inA ? Change::Removed : Change::Added, c.name);
        }
        if ((sa && sb) || (inA && inB)) {
            d.distance = c.distance;
            d.distanceTime = c.distanceTime;
            d.angle = c.angle;
            d.angleTime = c.angleTime;
        }
        d.boneA = c.boneA;
        d.boneB = c.boneB;
        d.clipA = a.name;
        d.clipB = b.name;
        out.differences.push_back(d);
        if (c.distance > pair.largestDistance) {
            pair.largestDistance = c.distance;
            pair.largestDistanceTime = c.distanceTime;
            pair.largestBone = c.name;
        }
        if (c.angle > pair.largestAngle) {
            pair.largestAngle = c.angle;
            pair.largestAngleTime = c.angleTime;
            pair.largestAngleBone = c.name;
        }
    }
    out.clipPairs.push_back(pair);
}

std::string clipKey(const std::string& clipName, const std::string& stem) {
    std::string k = toLower(clipName);
    const size_t slash = k.find_last_of("/\\");
    if (slash != std::string::npos) k = k.substr(slash + 1);
    const size_t dot = k.rfind('.');
    if (dot != std::string::npos && dot > 0 && k.size() - dot <= 4) k = k.substr(0, dot);
    const std::string s = toLower(stem) + "_";
    if (!stem.empty() && k.size() > s.size() && k.compare(0, s.size(), s) == 0) k = k.substr(s.size());
    return k;
}

Side sideOf(const Asset& asset) {
    Side s;
    const Document& d = asset.document;
    if (d.model) {
        s.skeleton = &d.model->skeleton;
        const bool clipFile = d.model->meshes.empty() && !d.clips.empty();
        if (!clipFile) s.model = d.model.get();
    }
    for (const auto& c : d.clips)
        if (c) s.clips.push_back(c.get());
    for (const ClipFile& f : asset.clips)
        if (f.clip) s.clips.push_back(f.clip.get());
    std::string name = d.path;
    const size_t cut = name.find_last_of("/\\:");
    if (cut != std::string::npos) name = name.substr(cut + 1);
    const size_t dot = name.rfind('.');
    s.stem = dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
    return s;
}

Summary diff(const Side& a, const Side& b, const Tolerance& tol) {
    Summary out;
    const bool models = a.model && b.model;
    if (models)
        diffModels(*a.model, *b.model, tol, out);
    else if (a.model || b.model)
        out.notes.push_back(std::string("only ") + (a.model ? "A" : "B") + " holds a model: clips compared only");

    // Clips by key; the only clip of each side with the other's when they do not match by name.
    std::vector<std::string> ka, kb;
    for (const Clip* c : a.clips)
        ka.push_back(clipKey(c->name, a.stem));
    for (const Clip* c : b.clips)
        kb.push_back(clipKey(c->name, b.stem));
    auto pairs = matchByName(ka, kb, "clip", out.notes);
    if (a.clips.size() == 1 && b.clips.size() == 1 && pairs.size() == 2) {
        pairs = {{0, 0}};
        if (!iequals(a.clips[0]->name, b.clips[0]->name))
            out.notes.push_back("clips \"" + a.clips[0]->name + "\" and \"" + b.clips[0]->name +
                                "\" compared: the only clip on each side");
    }
    for (auto [i, j] : pairs) {
        if (j < 0) {
            Difference d =
                row(Category::Clip, Change::Removed, a.clips[size_t(i)]->name, {}, lengthText(*a.clips[size_t(i)]), {});
            d.clipA = a.clips[size_t(i)]->name;
            out.differences.push_back(d);
        } else if (i < 0) {
            Difference d =
                row(Category::Clip, Change::Added, b.clips[size_t(j)]->name, {}, {}, lengthText(*b.clips[size_t(j)]));
            d.clipB = b.clips[size_t(j)]->name;
            out.differences.push_back(d);
        } else {
            diffClips(*a.clips[size_t(i)], a.skeleton, *b.clips[size_t(j)], b.skeleton, tol, models, out);
        }
    }
    return out;
}

const char* categoryName(Category c) {
    switch (c) {
    case Category::Bone:
        return "bone";
    case Category::Mesh:
        return "mesh";
    case Category::SubMesh:
        return "submesh";
    case Category::Material:
        return "material";
    case Category::Parameter:
        return "parameter";
    case Category::Texture:
        return "texture";
    case Category::Light:
        return "light";
    case Category::Proxy:
        return "proxy";
    case Category::Dazzle:
        return "dazzle";
    case Category::Marker:
        return "marker";
    case Category::Clip:
        return "clip";
    case Category::Track:
        return "track";
    }
    return "?";
}

const char* changeName(Change c) {
    switch (c) {
    case Change::Added:
        return "added";
    case Change::Removed:
        return "removed";
    case Change::Moved:
        return "moved";
    case Change::Reparented:
        return "reparented";
    case Change::Changed:
        return "changed";
    }
    return "?";
}

std::string describe(const Difference& d) {
    std::string s = std::string(categoryName(d.category)) + " " + d.subject;
    auto motion = [&](bool withTimes) {
        std::string m = "moved " + num(d.distance);
        if (withTimes) m += " (at " + num(d.distanceTime, 3) + " s)";
        m += ", rotated " + num(d.angle, 2) + " deg";
        if (withTimes) m += " (at " + num(d.angleTime, 3) + " s)";
        return m;
    };
    switch (d.change) {
    case Change::Added:
    case Change::Removed:
        s += std::string(" ") + changeName(d.change);
        if (!d.a.empty() || !d.b.empty()) s += " (" + (d.a.empty() ? d.b : d.a) + ")";
        if (d.category == Category::Track && !std::isnan(d.distance))
            s += " (not animated in the other clip): largest difference " + motion(true);
        break;
    case Change::Moved:
        s += " " + motion(false) + " in the bind pose (relative to its parent: " + num(d.localDistance) + ", " +
             num(d.localAngle, 2) + " deg)";
        break;
    case Change::Reparented:
        s += " reparented: " + d.a + " -> " + d.b + " (bind pose " + motion(false) + ")";
        break;
    case Change::Changed:
        if (d.category == Category::Track)
            s += " " + motion(true);
        else
            s += " " + d.field + ": " + d.a + " -> " + d.b;
        if (d.category == Category::SubMesh && d.field == "positions") s += " (largest " + num(d.distance) + ")";
        break;
    }
    if (d.category == Category::Track && !d.clipA.empty()) s += " [clip " + d.clipA + "]";
    return s;
}

} // namespace rs::compare
