// glTF import (import/gltf_import.h): files read back with no warning and no check error, the pose of every clip
// frame equal to the glTF's own pose evaluated here independently (tinygltf + the export tests' accessor reader,
// our own sampling), a round trip through the project's exporter on a corpus Alamo model and its clips, the
// third-party glTF corpus, and bad input refused naming the file and the element with nothing written.
#include "gltf_import.h"

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "check/check.h"
#include "common/error.h"
#include "corpus.h"
#include "formats/engine_limits.h"
#include "formats/material_policy.h"
#include "gltf_export.h"
#include "gltf_read.h"
#include "scene/pose.h"
#include "texture/texture.h"
#include "thumbnail_fixtures.h"
#include "w3d/w3d_reader.h"

#include <stb_image.h>
#include <stb_image_write.h>
#include <tiny_gltf.h>

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>

#include <sys/wait.h>
#include <unistd.h>

using namespace rs;
namespace fs = std::filesystem;
namespace gi = rs::gltfimport;

namespace {

struct TempDir {
    fs::path dir;
    TempDir() {
        static std::atomic<int> n{0};
        dir = fs::temp_directory_path() / ("rigscope-import-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string operator/(const std::string& s) const { return (dir / s).string(); }
    size_t count() const {
        size_t k = 0;
        for (auto it = fs::directory_iterator(dir); it != fs::directory_iterator(); ++it)
            ++k;
        return k;
    }
};

// ------------------------------------------------------------------ independent glTF pose evaluation

struct Sampled {
    std::vector<float> in, out;
    int comps = 3;
    std::string interp;
};

glm::quat qslerp(glm::quat a, glm::quat b, float u) { // the textbook formula, shortest arc
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (d < 0) b = -b, d = -d;
    if (d > 0.99999f) return glm::normalize(a * (1 - u) + b * u);
    const float th = std::acos(d), s = std::sin(th);
    return glm::normalize(a * (std::sin((1 - u) * th) / s) + b * (std::sin(u * th) / s));
}

glm::vec4 evalSampler(const Sampled& s, float t) {
    const size_t n = s.in.size();
    const bool cubic = s.interp == "CUBICSPLINE";
    auto at = [&](size_t k, int part) {
        const size_t base = (cubic ? k * 3 + size_t(part) : k) * size_t(s.comps);
        glm::vec4 v(0);
        for (int c = 0; c < s.comps; ++c)
            v[c] = s.out[base + size_t(c)];
        return v;
    };
    if (n == 1 || t <= s.in[0]) return at(0, 1);
    if (t >= s.in[n - 1]) return at(n - 1, 1);
    size_t k = 0;
    while (!(t >= s.in[k] && t < s.in[k + 1]))
        ++k;
    const float dt = s.in[k + 1] - s.in[k], u = (t - s.in[k]) / dt;
    if (s.interp == "STEP") return at(k, 1);
    if (cubic) {
        const float u2 = u * u, u3 = u2 * u;
        glm::vec4 v = (2 * u3 - 3 * u2 + 1) * at(k, 1) + (u3 - 2 * u2 + u) * dt * at(k, 2) +
                      (-2 * u3 + 3 * u2) * at(k + 1, 1) + (u3 - u2) * dt * at(k + 1, 0);
        return s.comps == 4 ? glm::normalize(v) : v;
    }
    if (s.comps == 4) {
        const glm::vec4 a = at(k, 1), b = at(k + 1, 1);
        const glm::quat q = qslerp(glm::quat(a.w, a.x, a.y, a.z), glm::quat(b.w, b.x, b.y, b.z), u);
        return {q.x, q.y, q.z, q.w};
    }
    return at(k, 1) + (at(k + 1, 1) - at(k, 1)) * u;
}

struct GltfPose {
    const tinygltf::Model& g;
    std::vector<int> parent;
    explicit GltfPose(const tinygltf::Model& m) : g(m), parent(m.nodes.size(), -1) {
        for (size_t i = 0; i < g.nodes.size(); ++i)
            for (int c : g.nodes[i].children)
                parent[size_t(c)] = int(i);
    }
    float end(int anim) const {
        float e = 0;
        for (const auto& s : g.animations[size_t(anim)].samplers) {
            const auto in = rs::test::floats(g, s.input);
            e = std::max(e, in.back());
        }
        return e;
    }
    // Node TRS at time t of animation anim (-1: rest): t, r (x,y,z,w), s.
    void trs(int node, int anim, float t, glm::vec3& T, glm::quat& R, glm::vec3& S) const {
        const tinygltf::Node& n = g.nodes[size_t(node)];
        T = n.translation.size() == 3 ? glm::vec3(n.translation[0], n.translation[1], n.translation[2]) : glm::vec3(0);
        R = n.rotation.size() == 4
                ? glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]))
                : glm::quat(1, 0, 0, 0);
        S = n.scale.size() == 3 ? glm::vec3(n.scale[0], n.scale[1], n.scale[2]) : glm::vec3(1);
        if (anim < 0) return;
        const auto& a = g.animations[size_t(anim)];
        for (const auto& ch : a.channels) {
            if (ch.target_node != node) continue;
            const auto& sm = a.samplers[size_t(ch.sampler)];
            Sampled s{rs::test::floats(g, sm.input), rs::test::floats(g, sm.output),
                      ch.target_path == "rotation" ? 4 : 3, sm.interpolation};
            const glm::vec4 v = evalSampler(s, t);
            if (ch.target_path == "translation") T = glm::vec3(v);
            if (ch.target_path == "rotation") R = glm::quat(v.w, v.x, v.y, v.z);
            if (ch.target_path == "scale") S = glm::vec3(v);
        }
    }
    glm::mat4 world(int node, int anim, float t) const {
        glm::vec3 T, S;
        glm::quat R;
        trs(node, anim, t, T, R, S);
        glm::mat4 local =
            glm::translate(glm::mat4(1), T) * glm::mat4_cast(glm::normalize(R)) * glm::scale(glm::mat4(1), S);
        const auto& mx = g.nodes[size_t(node)].matrix; // a matrix node (not animatable)
        if (mx.size() == 16)
            for (int k = 0; k < 16; ++k)
                local[k / 4][k % 4] = float(mx[size_t(k)]);
        return parent[size_t(node)] < 0 ? local : world(parent[size_t(node)], anim, t) * local;
    }
};

// glTF space -> game space for --up y: (x, y, z) -> (x, -z, y), lengths times `scale`.
glm::mat4 toGame(const glm::mat4& w, float scale) {
    const glm::mat4 G(glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, 1, 0), glm::vec4(0, -1, 0, 0), glm::vec4(0, 0, 0, 1));
    glm::mat4 r = G * w * glm::transpose(G);
    r[3] = glm::vec4(glm::vec3(r[3]) * scale, 1);
    return r;
}

float rotationAngle(const glm::mat4& a, const glm::mat4& b) {
    glm::mat3 ra(a), rb(b);
    for (int k = 0; k < 3; ++k) {
        if (glm::length(ra[k]) > 0) ra[k] = glm::normalize(ra[k]);
        if (glm::length(rb[k]) > 0) rb[k] = glm::normalize(rb[k]);
    }
    const glm::mat3 d = glm::transpose(ra) * rb;
    const float c = std::clamp((d[0][0] + d[1][1] + d[2][2] - 1) * 0.5f, -1.0f, 1.0f);
    return std::acos(c);
}

tinygltf::Model loadGltf(const std::string& path) {
    tinygltf::TinyGLTF l;
    tinygltf::Model m;
    std::string err, warn;
    const bool ok = path.size() > 4 && path.substr(path.size() - 4) == ".glb"
                        ? l.LoadBinaryFromFile(&m, &err, &warn, path)
                        : l.LoadASCIIFromFile(&m, &err, &warn, path);
    REQUIRE(ok);
    return m;
}

// Half a quantisation step of each bone's translation track (the .ala writer's range / 65535), read back from the
// written clip's decoded samples.
std::vector<float> translationHalfSteps(const Clip& c, size_t bones) {
    std::vector<float> out(bones, 0.0f);
    for (const BoneTrack& t : c.tracks) {
        if (t.bone < 0 || size_t(t.bone) >= bones || t.translation.size() < 2) continue;
        glm::vec3 lo = t.translation[0], hi = lo;
        for (const auto& v : t.translation)
            lo = glm::min(lo, v), hi = glm::max(hi, v);
        out[size_t(t.bone)] = glm::length(hi - lo) / 65535.0f * 0.5f;
    }
    return out;
}

float rigSize(const Skeleton& sk) {
    std::vector<glm::mat4> w(sk.bones.size());
    sk.bindWorld(w.data());
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const auto& m : w)
        lo = glm::min(lo, glm::vec3(m[3])), hi = glm::max(hi, glm::vec3(m[3]));
    return std::max(1e-3f, glm::length(hi - lo));
}

struct PoseStats {
    size_t frames = 0, compared = 0, hiddenChecked = 0;
    float maxT = 0, maxR = 0;
};

// Every frame of every written clip against the glTF evaluated here: bones matched to nodes by name.
// Translation bound: 1e-4 of the rig size plus, along the bone's chain, half a translation quantisation step of
// each ancestor's track and 1e-4 rad of rotation quantisation per ancestor times the rig size.
// `w3d`: the files are W3D (read with w3d::loadSet, clips stored as floats: no quantisation term).
// `codec`: a compressed W3D clip's own error (translation, rotation per bone), added per ancestor of the chain
// (translation + rotation x rig size to the translation bound, rotation to the rotation bound of 1e-3 rad).
PoseStats compareClips(const std::string& gltfPath, const gi::ImportResult& r, const std::vector<gi::OutputFile>& files,
                       float scale = 1.0f, bool w3d = false, gi::CodecError codec = {}) {
    const tinygltf::Model g = loadGltf(gltfPath);
    const GltfPose gp(g);
    Model model;
    std::shared_ptr<const std::vector<w3d::Hierarchy>> hier;
    w3d::HierarchyLookup lookup;
    if (w3d) {
        const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
        REQUIRE(wf.warnings.empty());
        REQUIRE(wf.hierarchies.size() == 1);
        hier = std::make_shared<const std::vector<w3d::Hierarchy>>(wf.hierarchies);
        lookup = [&](const std::string&) {
            return std::optional<w3d::HierarchyFile>(w3d::HierarchyFile{files[0].path, hier});
        };
        const Document d = w3d::loadSet(ByteSpan(files[0].bytes), files[0].path, lookup);
        REQUIRE(d.warnings.empty());
        model = *d.model;
    } else {
        model = alamo::readModel(ByteSpan(files[0].bytes), files[0].path);
    }
    REQUIRE(model.warnings.empty());
    const Skeleton& sk = model.skeleton;
    const float rig = rigSize(sk);
    std::vector<int> nodeOf(sk.bones.size(), -1);
    for (size_t b = 0; b < sk.bones.size(); ++b)
        for (size_t n = 0; n < g.nodes.size(); ++n)
            if (g.nodes[n].name == sk.bones[b].name) nodeOf[b] = int(n);
    PoseStats st;
    for (size_t fi = 1; fi < files.size(); ++fi) {
        Clip clip;
        if (w3d) {
            const Document d = w3d::loadSet(ByteSpan(files[fi].bytes), files[fi].path, lookup);
            REQUIRE(d.warnings.empty());
            REQUIRE(d.clips.size() == 1);
            clip = *d.clips[0];
        } else {
            clip = alamo::readClip(ByteSpan(files[fi].bytes), files[fi].path);
        }
        REQUIRE(clip.warnings.empty());
        int anim = -1; // the animation the importer named the clip after
        for (size_t a = 0; a < g.animations.size(); ++a) {
            const std::string nm = g.animations[a].name.empty() ? "clip" + std::to_string(a) : g.animations[a].name;
            if (nm == r.clips[fi - 1].name) anim = int(a);
        }
        REQUIRE(anim >= 0);
        CHECK(clip.fps == limits::kAlamoClipFps);
        const float end = gp.end(anim);
        CHECK(clip.frameCount == uint32_t(std::ceil(end * 30.0f - 1e-3f)) + 1);
        const ClipBinding bind = bindClip(sk, clip);
        REQUIRE(bind.ok());
        const std::vector<float> half =
            w3d ? std::vector<float>(sk.bones.size(), 0.0f) : translationHalfSteps(clip, sk.bones.size());
        PoseBuffers buf(sk.bones.size());
        for (uint32_t f = 0; f < clip.frameCount; ++f) {
            ++st.frames;
            evaluatePose(sk, &clip, &bind, float(f), LoopMode::Once, buf.view());
            const float t = std::min(float(f) / 30.0f, end);
            for (size_t b = 0; b < sk.bones.size(); ++b) {
                if (nodeOf[b] < 0) continue;
                glm::mat4 want = toGame(gp.world(nodeOf[b], anim, t), scale);
                // A leaf light's bone turns the game's -Z onto the light's -Z: its world is the node's times G.
                if (g.nodes[size_t(nodeOf[b])].extensions.count("KHR_lights_punctual"))
                    want = want * glm::mat4(glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, 1, 0), glm::vec4(0, -1, 0, 0),
                                            glm::vec4(0, 0, 0, 1));
                // A node whose scale (or an ancestor's) is zero at t: hidden instead of posed.
                bool zero = false;
                for (int n = nodeOf[b]; n >= 0; n = gp.parent[size_t(n)]) {
                    glm::vec3 T, S;
                    glm::quat R;
                    gp.trs(n, anim, t, T, R, S);
                    zero |= glm::all(glm::lessThan(glm::abs(S), glm::vec3(1e-8f)));
                }
                if (zero) {
                    CHECK(buf.visible[b] == 0);
                    ++st.hiddenChecked;
                    continue;
                }
                float bound = 1e-4f * rig, rbound = 1e-3f;
                int depth = 0;
                for (int a = int(b); a >= 0; a = sk.bones[size_t(a)].parent)
                    bound += half[size_t(a)] * 1.8f + 1e-4f * rig + codec.translation + codec.rotation * rig,
                        rbound += codec.rotation, ++depth;
                const float dt = glm::length(glm::vec3(want[3]) - glm::vec3(buf.world[b][3]));
                const float dr = rotationAngle(want, buf.world[b]);
                st.maxT = std::max(st.maxT, dt / rig);
                st.maxR = std::max(st.maxR, dr);
                if (dt > bound || dr > rbound) {
                    INFO("clip " << files[fi].path << " frame " << f << " bone " << sk.bones[b].name << " dt " << dt
                                 << " bound " << bound << " dr " << dr);
                    CHECK(false);
                    return st;
                }
                ++st.compared;
            }
        }
    }
    return st;
}

void requireCheckClean(const std::string& dir) {
    const Resolver r;
    check::Options o;
    o.threads = 1;
    const check::Report rep = check::checkPaths(r, {dir}, o);
    std::string errors;
    for (const auto& f : rep.findings)
        if (f.level == check::Level::Error) errors += f.id + " " + f.file + ": " + f.message + "\n";
    INFO(errors);
    CHECK(rep.count(check::Level::Error) == 0);
    CHECK(rep.files > 0);
}

// ------------------------------------------------------------------ a glTF made here (tinygltf, no third party)

struct Builder {
    tinygltf::Model m;
    Builder() {
        m.asset.version = "2.0";
        m.buffers.resize(1);
        m.scenes.resize(1);
        m.defaultScene = 0;
    }
    int view(const void* p, size_t bytes) {
        auto& b = m.buffers[0].data;
        while (b.size() % 4)
            b.push_back(0);
        tinygltf::BufferView v;
        v.buffer = 0;
        v.byteOffset = b.size();
        v.byteLength = bytes;
        b.insert(b.end(), static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + bytes);
        m.bufferViews.push_back(v);
        return int(m.bufferViews.size() - 1);
    }
    int floats(const std::vector<float>& v, int type, bool minmax = false) {
        tinygltf::Accessor a;
        a.bufferView = view(v.data(), v.size() * 4);
        a.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
        a.type = type;
        a.count = v.size() / size_t(tinygltf::GetNumComponentsInType(uint32_t(type)));
        if (minmax) {
            float lo = v[0], hi = v[0];
            for (float x : v)
                lo = std::min(lo, x), hi = std::max(hi, x);
            a.minValues = {lo};
            a.maxValues = {hi};
        }
        m.accessors.push_back(a);
        return int(m.accessors.size() - 1);
    }
    int u16(const std::vector<uint16_t>& v, int type) {
        tinygltf::Accessor a;
        a.bufferView = view(v.data(), v.size() * 2);
        a.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;
        a.type = type;
        a.count = v.size() / size_t(tinygltf::GetNumComponentsInType(uint32_t(type)));
        m.accessors.push_back(a);
        return int(m.accessors.size() - 1);
    }
    int node(const std::string& name, int parent, glm::vec3 t = glm::vec3(0), glm::quat r = glm::quat(1, 0, 0, 0)) {
        tinygltf::Node n;
        n.name = name;
        if (t != glm::vec3(0)) n.translation = {t.x, t.y, t.z};
        if (r != glm::quat(1, 0, 0, 0)) n.rotation = {r.x, r.y, r.z, r.w};
        m.nodes.push_back(n);
        const int i = int(m.nodes.size() - 1);
        if (parent >= 0)
            m.nodes[size_t(parent)].children.push_back(i);
        else
            m.scenes[0].nodes.push_back(i);
        return i;
    }
    // A box mesh (one primitive), rigid.
    int box(const std::string& name, float h) {
        std::vector<float> p;
        std::vector<uint16_t> idx;
        for (int z = 0; z < 2; ++z)
            for (int y = 0; y < 2; ++y)
                for (int x = 0; x < 2; ++x)
                    p.insert(p.end(), {x ? h : -h, y ? h : -h, z ? h : -h});
        const int faces[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
        for (const auto& f : faces)
            idx.insert(idx.end(), {uint16_t(f[0]), uint16_t(f[1]), uint16_t(f[2]), uint16_t(f[0]), uint16_t(f[2]),
                                   uint16_t(f[3])});
        tinygltf::Primitive pr;
        pr.attributes["POSITION"] = floats(p, TINYGLTF_TYPE_VEC3);
        pr.indices = u16(idx, TINYGLTF_TYPE_SCALAR);
        pr.mode = TINYGLTF_MODE_TRIANGLES;
        tinygltf::Mesh mesh;
        mesh.name = name;
        mesh.primitives.push_back(pr);
        m.meshes.push_back(mesh);
        return int(m.meshes.size() - 1);
    }
    int sampler(tinygltf::Animation& a, const std::vector<float>& t, const std::vector<float>& v, int type,
                const char* interp) {
        tinygltf::AnimationSampler s;
        s.input = floats(t, TINYGLTF_TYPE_SCALAR, true);
        s.output = floats(v, type);
        s.interpolation = interp;
        a.samplers.push_back(s);
        return int(a.samplers.size() - 1);
    }
    void channel(tinygltf::Animation& a, int sampler, int node, const char* path) {
        tinygltf::AnimationChannel c;
        c.sampler = sampler;
        c.target_node = node;
        c.target_path = path;
        a.channels.push_back(c);
    }
    void write(const std::string& path) {
        tinygltf::TinyGLTF w;
        const bool glb = path.substr(path.size() - 4) == ".glb";
        REQUIRE(w.WriteGltfSceneToFile(&m, path, true, true, false, glb));
    }
};

constexpr int kChain = 30; // more joints than one skin palette takes

// A 30-joint snake skinned with two weights per vertex, a rigid crate on its own (offset) node, a lamp hanging
// from J10 with an identity transform, a proxy, a light, and three animations: linear rotations at key times off
// the 30 fps grid with a stepped root translation and scales going to zero, a cubic spline, and a short one.
void makeSnake(const std::string& path, bool crateGrows = true) {
    Builder b;
    const int arm = b.node("Armature", -1, glm::vec3(0, 0.5f, 0));
    std::vector<int> j;
    for (int i = 0; i < kChain; ++i)
        j.push_back(b.node("J" + std::to_string(i), i ? j.back() : arm, glm::vec3(0, i ? 0.25f : 0.0f, 0),
                           glm::angleAxis(0.05f * float(i % 3), glm::vec3(0, 0, 1))));
    // Skin: 8 vertices per joint ring, weights 0.7 / 0.3 to the joint and the next.
    std::vector<float> pos, w;
    std::vector<uint16_t> jo, idx;
    std::vector<glm::mat4> bindW(static_cast<size_t>(kChain));
    {
        glm::mat4 acc = glm::translate(glm::mat4(1), glm::vec3(0, 0.5f, 0));
        for (int i = 0; i < kChain; ++i) {
            const auto& n = b.m.nodes[size_t(j[size_t(i)])];
            glm::vec3 t(0);
            if (n.translation.size() == 3) t = glm::vec3(n.translation[0], n.translation[1], n.translation[2]);
            glm::quat r(1, 0, 0, 0);
            if (n.rotation.size() == 4)
                r = glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
            acc = acc * glm::translate(glm::mat4(1), t) * glm::mat4_cast(r);
            bindW[size_t(i)] = acc;
        }
    }
    for (int i = 0; i < kChain; ++i)
        for (int k = 0; k < 8; ++k) {
            const float a = float(k) * 6.2831853f / 8;
            const glm::vec3 p =
                glm::vec3(bindW[size_t(i)] * glm::vec4(0.1f * std::cos(a), 0.0f, 0.1f * std::sin(a), 1));
            pos.insert(pos.end(), {p.x, p.y, p.z});
            const uint16_t next = uint16_t(std::min(i + 1, kChain - 1));
            jo.insert(jo.end(), {uint16_t(i), next, 0, 0});
            w.insert(w.end(), {i + 1 < kChain ? 0.7f : 1.0f, i + 1 < kChain ? 0.3f : 0.0f, 0, 0});
        }
    for (int i = 0; i + 1 < kChain; ++i)
        for (int k = 0; k < 8; ++k) {
            const uint16_t a = uint16_t(i * 8 + k), bb = uint16_t(i * 8 + (k + 1) % 8);
            idx.insert(idx.end(), {a, uint16_t(a + 8), bb, bb, uint16_t(a + 8), uint16_t(bb + 8)});
        }
    std::vector<float> ibm;
    for (int i = 0; i < kChain; ++i) {
        const glm::mat4 inv = glm::inverse(bindW[size_t(i)]);
        for (int c = 0; c < 16; ++c)
            ibm.push_back(inv[c / 4][c % 4]);
    }
    tinygltf::Skin skin;
    skin.name = "SnakeSkin";
    skin.joints = j;
    skin.inverseBindMatrices = b.floats(ibm, TINYGLTF_TYPE_MAT4);
    b.m.skins.push_back(skin);
    tinygltf::Primitive pr;
    pr.attributes["POSITION"] = b.floats(pos, TINYGLTF_TYPE_VEC3);
    pr.attributes["JOINTS_0"] = b.u16(jo, TINYGLTF_TYPE_VEC4);
    pr.attributes["WEIGHTS_0"] = b.floats(w, TINYGLTF_TYPE_VEC4);
    pr.indices = b.u16(idx, TINYGLTF_TYPE_SCALAR);
    pr.mode = TINYGLTF_MODE_TRIANGLES;
    tinygltf::Mesh sm;
    sm.name = "Snake";
    sm.primitives.push_back(pr);
    b.m.meshes.push_back(sm);
    const int skinNode = b.node("Snake", -1);
    b.m.nodes[size_t(skinNode)].mesh = int(b.m.meshes.size() - 1);
    b.m.nodes[size_t(skinNode)].skin = 0;
    const int crate = b.node("Crate", j[5], glm::vec3(0.3f, 0, 0));
    b.m.nodes[size_t(crate)].mesh = b.box("CrateMesh", 0.1f);
    const int lamp = b.node("Lamp", j[10]);
    b.m.nodes[size_t(lamp)].mesh = b.box("LampMesh", 0.05f);
    b.node("P_SMOKE_SMALL", j[29]);
    tinygltf::Light light;
    light.name = "Spot";
    light.type = "spot";
    light.color = {1, 0.5, 0.25};
    light.intensity = 2;
    light.spot.innerConeAngle = 0.2;
    light.spot.outerConeAngle = 0.5;
    b.m.lights.push_back(light);
    const int ln = b.node("SpotLight", j[3], glm::vec3(0, 0.1f, 0), glm::angleAxis(0.3f, glm::vec3(1, 0, 0)));
    tinygltf::Value::Object le;
    le["light"] = tinygltf::Value(0);
    b.m.nodes[size_t(ln)].extensions["KHR_lights_punctual"] = tinygltf::Value(le);
    b.m.extensionsUsed.push_back("KHR_lights_punctual");

    tinygltf::Animation walk;
    walk.name = "Walk";
    const std::vector<float> times = {0.0f, 0.11f, 0.27f, 0.5f, 0.61f, 0.83f, 1.07f};
    for (int i = 1; i < kChain; ++i) {
        std::vector<float> q;
        for (size_t k = 0; k < times.size(); ++k) {
            const glm::quat r = glm::angleAxis(0.6f * std::sin(float(k) + 0.3f * float(i)),
                                               glm::normalize(glm::vec3(1, 0.2f * float(i % 4), 0.5f)));
            q.insert(q.end(), {r.x, r.y, r.z, r.w});
        }
        b.channel(walk, b.sampler(walk, times, q, TINYGLTF_TYPE_VEC4, "LINEAR"), j[size_t(i)], "rotation");
    }
    b.channel(
        walk,
        b.sampler(walk, {0.0f, 0.5f, 0.9f}, {0, 0, 0, 0.4f, 0.1f, 0, 0.8f, 0.1f, -0.2f}, TINYGLTF_TYPE_VEC3, "STEP"),
        j[0], "translation");
    b.channel(
        walk,
        b.sampler(walk, {0.0f, 0.4f, 0.7f},
                  {1, 1, 1, 0, 0, 0, crateGrows ? 1.5f : 1.0f, crateGrows ? 1.5f : 1.0f, crateGrows ? 1.5f : 1.0f},
                  TINYGLTF_TYPE_VEC3, "STEP"),
        crate, "scale");
    b.channel(walk, b.sampler(walk, {0.0f, 0.2f, 0.3f}, {1, 1, 1, 0, 0, 0, 1, 1, 1}, TINYGLTF_TYPE_VEC3, "STEP"), lamp,
              "scale");
    b.m.animations.push_back(walk);

    tinygltf::Animation wave;
    wave.name = "Wave";
    {
        std::vector<float> v; // in-tangent, value, out-tangent per key
        const glm::quat k0 = glm::angleAxis(0.0f, glm::vec3(0, 0, 1)), k1 = glm::angleAxis(1.0f, glm::vec3(0, 0, 1));
        for (const glm::quat& q : {k0, k1})
            v.insert(v.end(), {0, 0, 0, 0, q.x, q.y, q.z, q.w, 0, 0, 0, 0});
        b.channel(wave, b.sampler(wave, {0.0f, 0.8f}, v, TINYGLTF_TYPE_VEC4, "CUBICSPLINE"), j[2], "rotation");
    }
    b.m.animations.push_back(wave);
    tinygltf::Animation twitch;
    twitch.name = "SNAKE_Twitch_02"; // the model's prefix and a variant number: written as SNAKE_Twitch_00.ALA
    b.channel(twitch, b.sampler(twitch, {0.0f, 0.1f}, {0, 0.25f, 0, 0, 0.35f, 0}, TINYGLTF_TYPE_VEC3, "LINEAR"), j[1],
              "translation");
    b.m.animations.push_back(twitch);
    b.write(path);
}

// A bone's own visibility at frame f: its clip track's bit, else its default flag.
bool ownVisible(const Skeleton& sk, const Clip& c, const ClipBinding& b, size_t bone, uint32_t f) {
    const int ti = b.trackForBone[bone];
    if (ti >= 0 && !c.tracks[size_t(ti)].visibility.empty()) {
        const auto& v = c.tracks[size_t(ti)].visibility;
        return v[std::min<size_t>(f, v.size() - 1)] != 0;
    }
    return sk.bones[bone].visible;
}

// Default visibility of every bone, and own and effective visibility of every bone at every frame, equal between
// an original model + clip and an imported one (bones by index, names equal). Effective only for the bones listed
// in effectiveOnly when it is non-empty (what a scale-only round trip keeps).
void requireSameVisibility(const Model& a, const Clip& ca, const Model& b, const Clip& cb,
                           const std::set<std::string>& effectiveOnly = {}) {
    REQUIRE(a.skeleton.bones.size() == b.skeleton.bones.size());
    const size_t nb = a.skeleton.bones.size();
    for (size_t i = 0; i < nb; ++i) {
        INFO("bone " << a.skeleton.bones[i].name);
        REQUIRE(a.skeleton.bones[i].name == b.skeleton.bones[i].name);
        CHECK(a.skeleton.bones[i].visible == b.skeleton.bones[i].visible);
    }
    REQUIRE(ca.frameCount == cb.frameCount);
    const ClipBinding ba = bindClip(a.skeleton, ca), bb = bindClip(b.skeleton, cb);
    REQUIRE(bb.ok());
    PoseBuffers pa(nb), pb(nb);
    size_t differ = 0;
    for (uint32_t f = 0; f < ca.frameCount; ++f) {
        evaluatePose(a.skeleton, &ca, &ba, float(f), LoopMode::Once, pa.view());
        evaluatePose(b.skeleton, &cb, &bb, float(f), LoopMode::Once, pb.view());
        for (size_t i = 0; i < nb; ++i) {
            const bool some = effectiveOnly.empty() || effectiveOnly.count(a.skeleton.bones[i].name);
            if (!some) continue;
            const bool own =
                effectiveOnly.empty() && ownVisible(a.skeleton, ca, ba, i, f) != ownVisible(b.skeleton, cb, bb, i, f);
            if (own || pa.visible[i] != pb.visible[i]) {
                if (differ++ < 5)
                    UNSCOPED_INFO(ca.name << " frame " << f << " bone " << a.skeleton.bones[i].name << " effective "
                                          << int(pa.visible[i]) << " vs " << int(pb.visible[i]));
            }
        }
    }
    CHECK(differ == 0);
}

// A writer-made Alamo model with bones hidden by default in each way the format allows, and a clip that toggles
// them: Root (a box), Hip (hidden, nothing attached), Gun under Hip (visible itself, hidden by Hip; a box), Flash
// under Gun (hidden itself; a box), Arm (visible; a box), Lamp under Arm (hidden itself, nothing attached).
Model visibilityModel() {
    Model m = rs::test::boxModel({0.5f, 0.5f, 0.5f});
    auto bone = [&](const char* name, int parent, glm::vec3 at, bool visible, bool box) {
        Bone b;
        b.name = name;
        b.parent = parent;
        b.visible = visible;
        b.bindLocal = glm::translate(glm::mat4(1.0f), at);
        m.skeleton.bones.push_back(b);
        if (box) {
            Mesh mesh = m.meshes[0];
            mesh.name = std::string(name) + "_Box";
            mesh.bone = int(m.skeleton.bones.size() - 1);
            m.meshes.push_back(mesh);
        }
    };
    bone("Hip", 0, {0, 0, 2}, false, false);
    bone("Gun", 1, {1, 0, 0}, true, true);
    bone("Flash", 2, {1, 0, 0}, false, true);
    bone("Arm", 0, {0, 1, 2}, true, true);
    bone("Lamp", 4, {0, 1, 0}, false, false);
    return m;
}

Clip visibilityClip(const Model& m) {
    Clip c;
    c.format = Format::AlamoClip;
    c.name = "VIS_SHOW_00";
    c.frameCount = 20;
    c.fps = 30;
    auto track = [&](int b, uint32_t from, uint32_t to, bool inside) {
        BoneTrack t;
        t.bone = b;
        t.boneName = m.skeleton.bones[size_t(b)].name;
        t.translation = {glm::vec3(m.skeleton.bones[size_t(b)].bindLocal[3])};
        t.rotation = {glm::quat(1, 0, 0, 0)};
        t.defaultTranslation = t.translation[0];
        for (uint32_t f = 0; f < c.frameCount; ++f)
            t.visibility.push_back(uint8_t((f >= from && f <= to) == inside));
        c.tracks.push_back(std::move(t));
    };
    track(1, 5, 14, true);   // Hip shows frames 5..14 (and with it Gun)
    track(3, 8, 10, true);   // Flash shows 8..10
    track(4, 12, 16, false); // Arm hides 12..16
    track(5, 0, 3, true);    // Lamp shows 0..3 (nothing attached: only extras.visibility can say so)
    return c;
}
} // namespace

TEST_CASE("glTF import: a 30-joint skinned model with attachments and three clips", "[import]") {
    TempDir t;
    const std::string src = t / "snake.glb";
    makeSnake(src);
    TempDir out;
    gi::ImportOptions o;
    const gi::ImportResult r = gi::importGltfFile(src, o);
    const std::vector<gi::OutputFile> files = gi::alamoFiles(r, out / "SNAKE.alo", o);
    REQUIRE(files.size() == 4);
    CHECK(fs::path(files[1].path).filename() == "SNAKE_Walk_00.ALA");
    CHECK(fs::path(files[2].path).filename() == "SNAKE_Wave_00.ALA");
    CHECK(fs::path(files[3].path).filename() == "SNAKE_Twitch_00.ALA");
    gi::writeFiles(files);
    CHECK(out.count() == 4);

    const Model m = alamo::readModel(ByteSpan(files[0].bytes), files[0].path);
    CHECK(m.warnings.empty());
    // Skeleton: a new Root, Armature, J0..J29, Crate (offset: its own bone), the proxy node, the light node;
    // Lamp (identity leaf) hangs from J10 without a bone; the skinned mesh node is no bone.
    REQUIRE(m.skeleton.bones.size() == size_t(2 + kChain + 3));
    CHECK(m.skeleton.bones[0].name == "Root");
    CHECK(m.skeleton.find("Lamp") < 0);
    CHECK(m.skeleton.find("Snake") < 0);
    REQUIRE(m.skeleton.find("Crate") >= 0);
    // The snake: weights reduced to one bone, palettes within 26 bones, every triangle kept.
    size_t snakeTris = 0, snakeSubs = 0;
    for (const Mesh& mesh : m.meshes) {
        if (mesh.name == "Snake") {
            CHECK(mesh.bone == 0);
            for (const SubMesh& s : mesh.subMeshes) {
                ++snakeSubs;
                snakeTris += s.triangleCount();
                CHECK(s.boneMap.size() <= limits::kAlamoSkinPaletteBones);
                CHECK(s.material.shader == "RSkinGloss.fx");
                CHECK(s.weightNotes.blended == 0);
            }
        }
        if (mesh.name == "Lamp") CHECK(m.skeleton.bones[size_t(mesh.bone)].name == "J10");
        if (mesh.name == "Crate") CHECK(m.skeleton.bones[size_t(mesh.bone)].name == "Crate");
    }
    CHECK(snakeTris == size_t((kChain - 1) * 16));
    CHECK(snakeSubs >= 2);
    REQUIRE(m.proxies.size() == 1);
    CHECK(m.proxies[0].name == "P_SMOKE_SMALL");
    REQUIRE(m.lights.size() == 1);
    CHECK(m.lights[0].type == int(LightType::Spot));
    CHECK(m.lights[0].falloffSize == Approx(1.0f));
    bool reportedWeights = false, reportedSplit = false;
    for (const auto& line : r.report)
        reportedWeights |= line.find("heaviest") != std::string::npos,
            reportedSplit |= line.find("split") != std::string::npos;
    CHECK(reportedWeights);
    CHECK(reportedSplit);

    // The light bone turns the game's -Z onto the glTF light's direction.
    {
        const tinygltf::Model g = loadGltf(src);
        const GltfPose gp(g);
        int ln = -1;
        for (size_t n = 0; n < g.nodes.size(); ++n)
            if (g.nodes[n].name == "SpotLight") ln = int(n);
        // The glTF light's direction (its node's -Z), in game axes (x, y, z) -> (x, -z, y).
        const glm::vec3 d = glm::vec3(gp.world(ln, -1, 0) * glm::vec4(0, 0, -1, 0));
        const glm::vec3 wantDir(d.x, -d.z, d.y);
        std::vector<glm::mat4> bw(m.skeleton.bones.size());
        m.skeleton.bindWorld(bw.data());
        const glm::vec3 gotDir = glm::vec3(bw[size_t(m.lights[0].bone)] * glm::vec4(0, 0, -1, 0));
        CHECK(glm::length(glm::normalize(wantDir) - glm::normalize(gotDir)) < 1e-5f);
    }
    // Bind-pose vertices: each skinned vertex equals the glTF vertex in game axes (inverse binds are the joints').
    {
        const tinygltf::Model g = loadGltf(src);
        const auto p = rs::test::floats(g, g.meshes[0].primitives[0].attributes.at("POSITION"));
        for (const Mesh& mesh : m.meshes)
            if (mesh.name == "Snake")
                for (const SubMesh& s : mesh.subMeshes)
                    for (const glm::vec3& v : s.positions) {
                        float best = 1e9f;
                        for (size_t i = 0; i < p.size(); i += 3)
                            best = std::min(best, glm::length(v - glm::vec3(p[i], -p[i + 2], p[i + 1])));
                        CHECK(best < 1e-5f);
                    }
    }
    const PoseStats st = compareClips(src, r, files);
    CHECK(st.frames > 50);
    CHECK(st.compared > 1000);
    CHECK(st.hiddenChecked > 0);
    requireCheckClean(out.dir.string());
}

TEST_CASE("glTF import: a bone's default visibility and billboard mode survive export then import", "[import]") {
    // The writer-made model's Hand is hidden by default and billboarded (mode 4); Root and Arm are neither.
    const std::vector<uint8_t> src = alamo::writeModel(test::syntheticModel());
    const Model orig = alamo::readModel(ByteSpan(src), "synthetic.alo");
    REQUIRE(orig.skeleton.bones.size() == 3);
    REQUIRE(!orig.skeleton.bones[2].visible);
    REQUIRE(orig.skeleton.bones[2].billboard == 4);
    TempDir t;
    const std::string glb = t / "synthetic.glb";
    gltf::exportModel(orig, {}, gltf::ExportOptions{}, nullptr, glb);
    // In the glTF: the bone node carries extras.alamo {visible: false, billboard: 4}; the others carry none.
    tinygltf::Model g;
    {
        tinygltf::TinyGLTF loader;
        std::string err, warn;
        REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, glb));
    }
    int tagged = 0;
    for (const tinygltf::Node& n : g.nodes) {
        if (!n.extras.Has("alamo")) continue;
        ++tagged;
        CHECK(n.name == "Hand");
        CHECK(n.extras.Get("alamo").Get("visible").Get<bool>() == false);
        CHECK(n.extras.Get("alamo").Get("billboard").GetNumberAsInt() == 4);
    }
    CHECK(tagged == 1);
    const gi::ImportResult r = gi::importGltfFile(glb);
    TempDir out;
    const auto files = gi::alamoFiles(r, out / "SYNTH.alo");
    REQUIRE(!files.empty());
    const Model back = alamo::readModel(ByteSpan(files[0].bytes), files[0].path);
    for (const Bone& a : orig.skeleton.bones) {
        const int i = back.skeleton.find(a.name);
        REQUIRE(i >= 0);
        INFO(a.name);
        CHECK(back.skeleton.bones[size_t(i)].visible == a.visible);
        CHECK(back.skeleton.bones[size_t(i)].billboard == a.billboard);
    }
}

TEST_CASE("glTF import: default and per-frame visibility survive export then import, and a scale-only copy",
          "[import]") {
    TempDir t;
    const std::vector<uint8_t> mb = alamo::writeModel(visibilityModel());
    const Model orig = alamo::readModel(ByteSpan(mb), t / "VIS.ALO");
    const Clip clip0 = visibilityClip(orig);
    const std::vector<uint8_t> cbytes = alamo::writeClip(clip0);
    const Clip clip = alamo::readClip(ByteSpan(cbytes), t / "VIS_SHOW_00.ALA");
    REQUIRE(!orig.skeleton.bones[1].visible);
    REQUIRE(orig.skeleton.bones[2].visible);
    const std::string glb = t / "VIS.glb";
    gltf::exportModel(orig, {&clip}, gltf::ExportOptions{}, nullptr, glb);
    auto importBack = [&](const std::string& in, Model& m, Clip& c) {
        TempDir out;
        const gi::ImportResult r = gi::importGltfFile(in);
        const auto files = gi::alamoFiles(r, out / "VIS.alo");
        REQUIRE(files.size() == 2);
        m = alamo::readModel(ByteSpan(files[0].bytes), files[0].path);
        CHECK(m.warnings.empty());
        c = alamo::readClip(ByteSpan(files[1].bytes), files[1].path);
    };
    SECTION("as exported: every bone's default, own and effective visibility at every frame") {
        Model back;
        Clip backClip;
        importBack(glb, back, backClip);
        requireSameVisibility(orig, clip, back, backClip);
    }
    SECTION("as Blender keeps it (node extras kept, animation extras dropped): defaults of every bone, effective "
            "visibility of every bone with something attached") {
        tinygltf::Model g = loadGltf(glb);
        REQUIRE(g.animations.size() == 1);
        REQUIRE(g.animations[0].extras.Has("visibility"));
        // Blender drops animation extras but keys every frame to the action's end on export; here extras.visibility
        // goes and frameCount/fps stay to stand for that length.
        tinygltf::Value::Object ex = g.animations[0].extras.Get<tinygltf::Value::Object>();
        ex.erase("visibility");
        g.animations[0].extras = tinygltf::Value(ex);
        tinygltf::TinyGLTF tg;
        const std::string copy = t / "VIS_scale_only.glb";
        REQUIRE(tg.WriteGltfSceneToFile(&g, copy, false, true, false, true));
        Model back;
        Clip backClip;
        importBack(copy, back, backClip);
        requireSameVisibility(orig, clip, back, backClip, {"Root", "Gun", "Flash", "Arm"});
    }
    SECTION("a malformed extras.visibility is refused naming the animation and the entry") {
        tinygltf::Model g = loadGltf(glb);
        tinygltf::Value::Object ex = g.animations[0].extras.Get<tinygltf::Value::Object>();
        tinygltf::Value::Array vis = ex["visibility"].Get<tinygltf::Value::Array>();
        tinygltf::Value::Object e = vis[1].Get<tinygltf::Value::Object>();
        e["visible"] = tinygltf::Value(tinygltf::Value::Array{tinygltf::Value(true)}); // one value for three times
        vis[1] = tinygltf::Value(e);
        ex["visibility"] = tinygltf::Value(vis);
        g.animations[0].extras = tinygltf::Value(ex);
        tinygltf::TinyGLTF tg;
        const std::string bad = t / "VIS_bad.glb";
        REQUIRE(tg.WriteGltfSceneToFile(&g, bad, false, true, false, true));
        bool threw = false;
        try {
            (void)gi::importGltfFile(bad);
        } catch (const ParseError& err) {
            threw = true;
            const std::string w = err.what();
            INFO(w);
            CHECK(w.find("VIS_bad.glb") != std::string::npos);
            CHECK(w.find("animations[0] \"VIS_SHOW_00\" extras.visibility[1]") != std::string::npos);
        }
        CHECK(threw);
    }
    SECTION("to W3D: pivots hold no default visibility, which is reported by bone") {
        gi::ImportResult r = gi::importGltfFile(glb);
        TempDir out;
        std::vector<std::string> report;
        const auto files = gi::w3dFiles(r, out / "VIS.w3d", gi::W3dOptions{}, &report);
        REQUIRE(!files.empty());
        bool named = false;
        for (const std::string& line : report)
            named |= line.find("3 bone(s) hidden by default (Hip, Flash, Lamp)") != std::string::npos;
        CHECK(named);
    }
    SECTION("without the extras, the attachments' scales alone: hidden bones with something attached stay hidden") {
        tinygltf::Model g = loadGltf(glb);
        for (auto& n : g.nodes)
            n.extras = n.extras.Has("visible") || n.extras.Has("alamo") ? tinygltf::Value() : n.extras;
        g.animations.clear();
        tinygltf::TinyGLTF tg;
        const std::string copy = t / "VIS_bare.glb";
        REQUIRE(tg.WriteGltfSceneToFile(&g, copy, false, true, false, true));
        const gi::ImportResult r = gi::importGltfFile(copy);
        const auto& bones = r.model.skeleton.bones;
        std::map<std::string, bool> vis;
        for (const Bone& b : bones)
            vis[b.name] = b.visible;
        // Gun's box and Flash's box have scale 0: the topmost bone with a hidden attachment holds the hiding (Gun;
        // Flash keeps its stated flag under it, Hip shows nothing of its own); Arm's box shows. What is drawn is
        // the same as in the original: both boxes hidden, Arm's shown.
        CHECK(!vis.at("Gun"));
        CHECK(vis.at("Flash"));
        CHECK(vis.at("Arm"));
        CHECK(vis.at("Hip"));
        CHECK(bones.size() == orig.skeleton.bones.size());
    }
}

TEST_CASE("glTF import: EaW writes format 1 clips, --scale and --up z", "[import]") {
    TempDir t;
    const std::string src = t / "snake.gltf";
    makeSnake(src);
    TempDir out;
    gi::ImportOptions o;
    o.game = gi::Game::Eaw;
    o.scale = 2.5f;
    o.clips = {"walk"};
    const gi::ImportResult r = gi::importGltfFile(src, o);
    const auto files = gi::alamoFiles(r, out / "S.alo", o);
    REQUIRE(files.size() == 2);
    const Clip c = alamo::readClip(ByteSpan(files[1].bytes), files[1].path);
    CHECK(c.version == 1);
    const PoseStats st = compareClips(src, r, files, 2.5f);
    CHECK(st.compared > 500);

    gi::ImportOptions z;
    z.zUp = true;
    const gi::ImportResult rz = gi::importGltfFile(src, z);
    const Bone& j1 = rz.model.skeleton.bones[size_t(rz.model.skeleton.find("J1"))];
    CHECK(glm::vec3(j1.bindLocal[3]).y == Approx(0.25f)); // kept as given

    gi::ImportOptions bad;
    bad.clips = {"NoSuchClip"};
    CHECK_THROWS_WITH(gi::importGltfFile(src, bad), Catch::Contains("NoSuchClip") && Catch::Contains("snake.gltf"));
}

TEST_CASE("glTF import: round trip of a corpus Alamo model and its clips through the exporter", "[import][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    const std::string dir = rs::test::corpusDir() + "/alamo/Delta730+Imperial_Civil_War/Data/Art/Models/";
    if (!fs::exists(dir + "EI_STORMTROOPER.ALO")) RIGSCOPE_SKIP("EI_STORMTROOPER.ALO not in the corpus");
    const std::vector<uint8_t> mb = rs::readFileBytes(dir + "EI_STORMTROOPER.ALO");
    Model orig = alamo::readModel(ByteSpan(mb), dir + "EI_STORMTROOPER.ALO");
    std::vector<Clip> clips;
    for (const char* c : {"IDLE", "MOVE", "ATTACK", "DIE"}) {
        const std::string p = dir + "EI_STORMTROOPER_" + c + "_00.ala";
        const std::vector<uint8_t> cb = rs::readFileBytes(p);
        clips.push_back(alamo::readClip(ByteSpan(cb), p));
    }
    std::vector<const Clip*> cp;
    for (const Clip& c : clips)
        cp.push_back(&c);
    TempDir t;
    const std::string glb = t / "EI_STORMTROOPER.glb";
    gltf::exportModel(orig, cp, gltf::ExportOptions{}, nullptr, glb);
    TempDir out;
    const gi::ImportResult r = gi::importGltfFile(glb);
    const auto files = gi::alamoFiles(r, out / "EI_STORMTROOPER.alo");
    gi::writeFiles(files);
    REQUIRE(files.size() == 5);
    CHECK(fs::path(files[1].path).filename() == "EI_STORMTROOPER_IDLE_00.ALA");
    const Model back = alamo::readModel(ByteSpan(files[0].bytes), files[0].path);
    CHECK(back.warnings.empty());
    // Same proxies: the exporter writes the proxy bone P_GLight_Red and a proxy node of that name under it; one.
    REQUIRE(back.proxies.size() == orig.proxies.size());
    for (size_t i = 0; i < orig.proxies.size(); ++i) {
        CHECK(back.proxies[i].name == orig.proxies[i].name);
        CHECK(back.proxies[i].bone == orig.proxies[i].bone);
    }
    // Same skeleton: names, parents, bind transforms.
    REQUIRE(back.skeleton.bones.size() == orig.skeleton.bones.size());
    const float rig = rigSize(orig.skeleton);
    for (size_t b = 0; b < orig.skeleton.bones.size(); ++b) {
        const Bone &a = orig.skeleton.bones[b], &c = back.skeleton.bones[b];
        CHECK(a.name == c.name);
        CHECK(a.parent == c.parent);
        // The bone's own default visibility and billboard mode (B_Calf_R and 20 others are hidden by default).
        CHECK(a.visible == c.visible);
        CHECK(a.billboard == c.billboard);
        CHECK(glm::length(glm::vec3(a.bindLocal[3]) - glm::vec3(c.bindLocal[3])) < 1e-4f * rig);
        CHECK(rotationAngle(a.bindLocal, c.bindLocal) < 1e-3f);
    }
    CHECK(std::count_if(orig.skeleton.bones.begin(), orig.skeleton.bones.end(),
                        [](const Bone& b) { return !b.visible; }) > 1);
    // Same drawn triangles (the exported variant's meshes), in model space at the bind pose.
    auto triangles = [](const Model& m, const std::vector<bool>& sel) {
        std::vector<glm::mat4> bw(m.skeleton.bones.size());
        m.skeleton.bindWorld(bw.data());
        std::vector<std::array<glm::vec3, 3>> tris;
        for (size_t i = 0; i < m.meshes.size(); ++i) {
            const Mesh& mesh = m.meshes[i];
            if (!sel[i] || mesh.hidden || mesh.shadowOrCollision) continue;
            for (const SubMesh& s : mesh.subMeshes) {
                if (materialPolicy(m.format, mesh, s.material).hiddenByDefault) continue;
                const glm::mat4 M = s.skinned() || mesh.bone < 0 ? glm::mat4(1) : bw[size_t(mesh.bone)];
                for (size_t k = 0; k + 2 < s.indices.size(); k += 3)
                    tris.push_back({glm::vec3(M * glm::vec4(s.positions[s.indices[k]], 1)),
                                    glm::vec3(M * glm::vec4(s.positions[s.indices[k + 1]], 1)),
                                    glm::vec3(M * glm::vec4(s.positions[s.indices[k + 2]], 1))});
            }
        }
        return tris;
    };
    const auto ta = triangles(orig, gltf::selectVariant(orig, -1, 0));
    const auto tb = triangles(back, std::vector<bool>(back.meshes.size(), true));
    REQUIRE(ta.size() == tb.size());
    REQUIRE(!ta.empty());
    {
        const float cell = 1e-2f * rig, tol = 1e-4f * rig;
        std::unordered_multimap<int64_t, size_t> grid;
        auto key = [&](const glm::vec3& c) {
            const glm::ivec3 k = glm::ivec3(glm::floor(c / cell));
            return (int64_t(k.x) * 73856093) ^ (int64_t(k.y) * 19349663) ^ (int64_t(k.z) * 83492791);
        };
        for (size_t i = 0; i < tb.size(); ++i)
            grid.emplace(key((tb[i][0] + tb[i][1] + tb[i][2]) / 3.0f), i);
        std::vector<bool> used(tb.size(), false);
        size_t unmatched = 0;
        for (const auto& a : ta) {
            const glm::vec3 c = (a[0] + a[1] + a[2]) / 3.0f;
            bool found = false;
            for (int dx = -1; dx <= 1 && !found; ++dx)
                for (int dy = -1; dy <= 1 && !found; ++dy)
                    for (int dz = -1; dz <= 1 && !found; ++dz) {
                        auto range = grid.equal_range(key(c + glm::vec3(dx, dy, dz) * cell));
                        for (auto it = range.first; it != range.second && !found; ++it) {
                            const auto& b = tb[it->second];
                            if (used[it->second]) continue;
                            for (int rot = 0; rot < 3 && !found; ++rot)
                                if (glm::length(a[0] - b[size_t(rot)]) < tol &&
                                    glm::length(a[1] - b[size_t((rot + 1) % 3)]) < tol &&
                                    glm::length(a[2] - b[size_t((rot + 2) % 3)]) < tol)
                                    found = true, used[it->second] = true;
                        }
                    }
            unmatched += !found;
        }
        CHECK(unmatched == 0);
    }
    // Same default visibility of every bone (B_Calf_R and 19 others are hidden by default), and the same own and
    // effective visibility of every bone at every frame.
    for (size_t ci = 0; ci < clips.size(); ++ci)
        requireSameVisibility(orig, clips[ci], back,
                              alamo::readClip(ByteSpan(files[ci + 1].bytes), files[ci + 1].path));
    // Same pose at every frame (original decoded clip vs the imported one, by bone).
    for (size_t ci = 0; ci < clips.size(); ++ci) {
        const Clip back1 = alamo::readClip(ByteSpan(files[ci + 1].bytes), files[ci + 1].path);
        REQUIRE(back1.frameCount == clips[ci].frameCount);
        const ClipBinding b0 = bindClip(orig.skeleton, clips[ci]), b1 = bindClip(back.skeleton, back1);
        REQUIRE(b1.ok());
        const std::vector<float> half = translationHalfSteps(back1, back.skeleton.bones.size());
        PoseBuffers p0(orig.skeleton.bones.size()), p1(back.skeleton.bones.size());
        for (uint32_t f = 0; f < back1.frameCount; ++f) {
            evaluatePose(orig.skeleton, &clips[ci], &b0, float(f), LoopMode::Once, p0.view());
            evaluatePose(back.skeleton, &back1, &b1, float(f), LoopMode::Once, p1.view());
            for (size_t b = 0; b < back.skeleton.bones.size(); ++b) {
                float bound = 1e-4f * rig;
                for (int a = int(b); a >= 0; a = back.skeleton.bones[size_t(a)].parent)
                    bound += half[size_t(a)] * 1.8f + 2e-4f * rig;
                const float dt = glm::length(glm::vec3(p0.world[b][3]) - glm::vec3(p1.world[b][3]));
                const float dr = rotationAngle(p0.world[b], p1.world[b]);
                if (dt > bound || dr > 1e-3f) {
                    INFO(back1.name << " frame " << f << " bone " << back.skeleton.bones[b].name << " dt " << dt
                                    << " dr " << dr << " bound " << bound);
                    CHECK(false);
                    return;
                }
            }
        }
    }
    requireCheckClean(out.dir.string());
}

TEST_CASE("glTF import: the third-party glTF corpus imports, poses as the glTF and passes the check",
          "[import][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("gltf");
    const auto inputs = rs::test::corpusFiles("gltf", {".glb", ".gltf"});
    REQUIRE(inputs.size() >= 3);
    for (const std::string& in : inputs) {
        INFO(in);
        TempDir out;
        const gi::ImportResult r = gi::importGltfFile(in);
        CHECK(!r.model.meshes.empty());
        const auto files = gi::alamoFiles(r, out / (fs::path(in).stem().string() + ".alo"));
        gi::writeFiles(files);
        const PoseStats st = compareClips(in, r, files);
        if (files.size() > 1) CHECK(st.compared > 0);
        requireCheckClean(out.dir.string());
    }
}

// ------------------------------------------------------------------ bad input

namespace {

std::string base64(const std::vector<uint8_t>& b) {
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string s;
    for (size_t i = 0; i < b.size(); i += 3) {
        const uint32_t v =
            uint32_t(b[i]) << 16 | (i + 1 < b.size() ? uint32_t(b[i + 1]) << 8 : 0) | (i + 2 < b.size() ? b[i + 2] : 0);
        s += t[v >> 18 & 63];
        s += t[v >> 12 & 63];
        s += i + 1 < b.size() ? t[v >> 6 & 63] : '=';
        s += i + 2 < b.size() ? t[v & 63] : '=';
    }
    return s;
}

// A one-triangle glTF as JSON text; `nodes` and the POSITION floats may be replaced.
std::string triangleGltf(const std::vector<float>& p = {0, 0, 0, 1, 0, 0, 0, 1, 0},
                         const std::string& nodes = R"([{"name":"Tri","mesh":0}])", const std::string& extra = "",
                         const std::string& buffer = "") {
    std::vector<uint8_t> b(p.size() * 4);
    std::memcpy(b.data(), p.data(), b.size());
    const std::string buf = buffer.empty() ? R"({"byteLength":)" + std::to_string(b.size()) +
                                                 R"(,"uri":"data:application/octet-stream;base64,)" + base64(b) + "\"}"
                                           : buffer;
    return R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":)" + nodes +
           R"(,"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"accessors":[{"bufferView":0,"componentType":5126,"count":)" +
           std::to_string(p.size() / 3) + R"(,"type":"VEC3"}],"bufferViews":[{"buffer":0,"byteLength":)" +
           std::to_string(b.size()) + R"(}],"buffers":[)" + buf + "]" + extra + "}";
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Imports `path`, expecting a ParseError whose text holds the file and `element`; the output folder stays empty.
void refused(const std::string& path, const std::string& element) {
    TempDir out;
    bool threw = false;
    try {
        const gi::ImportResult r = gi::importGltfFile(path);
        gi::writeFiles(gi::alamoFiles(r, out / "X.alo"));
    } catch (const ParseError& e) {
        threw = true;
        const std::string w = e.what();
        INFO(w);
        CHECK(w.find(fs::path(path).filename().string()) != std::string::npos);
        CHECK(w.find(element) != std::string::npos);
    }
    CHECK(threw);
    CHECK(out.count() == 0);
}

} // namespace

TEST_CASE("glTF import: bad input names the file and the element and writes nothing", "[import]") {
    TempDir t;
    {
        TempDir out;
        write(t / "good.gltf", triangleGltf());
        const gi::ImportResult r = gi::importGltfFile(t / "good.gltf");
        CHECK(r.model.meshes.size() == 1);
    }
    write(t / "malformed.gltf", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{]");
    refused(t / "malformed.gltf", "malformed glTF");
    write(t / "truncated.glb", std::string("glTF\x02\0\0\0\xff\0\0\0", 12));
    refused(t / "truncated.glb", "malformed glTF");
    write(t / "missing.gltf", triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 0}, R"([{"name":"Tri","mesh":0}])", "",
                                           R"({"byteLength":36,"uri":"nowhere.bin"})"));
    refused(t / "missing.gltf", "nowhere.bin");
    write(t / "small.bin", std::string(36, '\0'));
    write(t / "huge.gltf", triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 0}, R"([{"name":"Tri","mesh":0}])", "",
                                        R"({"byteLength":1073741824,"uri":"small.bin"})"));
    refused(t / "huge.gltf", "huge.gltf");
    // A GLB whose JSON claims a 1 GiB buffer over a 36-byte BIN chunk.
    {
        std::string json = triangleGltf();
        const size_t at = json.find("\"buffers\":[");
        json = json.substr(0, at) + R"("buffers":[{"byteLength":1073741824}]})";
        while (json.size() % 4)
            json += ' ';
        std::string glb = "glTF";
        auto u32 = [&](uint32_t v) { glb.append(reinterpret_cast<const char*>(&v), 4); };
        u32(2);
        u32(uint32_t(12 + 8 + json.size() + 8 + 36));
        u32(uint32_t(json.size()));
        u32(0x4E4F534A);
        glb += json;
        u32(36);
        u32(0x004E4942);
        glb += std::string(36, '\0');
        write(t / "huge.glb", glb);
        refused(t / "huge.glb", "byteLength");
    }
    write(t / "cycle.gltf",
          triangleGltf(
              {0, 0, 0, 1, 0, 0, 0, 1, 0},
              R"([{"name":"A","mesh":0,"children":[1]},{"name":"B","children":[2]},{"name":"C","children":[1]}])"));
    refused(t / "cycle.gltf", "cycle");
    write(t / "self.gltf", triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 0}, R"([{"name":"A","mesh":0,"children":[0]}])"));
    refused(t / "self.gltf", "nodes[0] \"A\"");
    {
        std::string joints = "[";
        for (int i = 0; i < 10000; ++i)
            joints += (i ? "," : "") + std::string("0");
        joints += "]";
        write(t / "joints.gltf", triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 0}, R"([{"name":"Tri","mesh":0}])",
                                              R"(,"skins":[{"name":"Huge","joints":)" + joints + "}]"));
        refused(t / "joints.gltf", "skins[0] \"Huge\"");
    }
    const float nan = std::nanf("");
    write(t / "nan.gltf", triangleGltf({0, 0, 0, nan, 0, 0, 0, 1, 0}));
    refused(t / "nan.gltf", "accessors[0] (POSITION)");
    write(t / "inf.gltf", triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 0}, R"([{"name":"Tri","mesh":0,"scale":[1e39,1,1]}])"));
    refused(t / "inf.gltf", "nodes[0] \"Tri\"");
    {
        // The accessor claims 3 vertices over a 24-byte view.
        std::string s = triangleGltf({0, 0, 0, 1, 0, 0}, R"([{"name":"Tri","mesh":0}])");
        const size_t at = s.find("\"count\":2");
        s.replace(at, 9, "\"count\":3");
        write(t / "short.gltf", s);
        refused(t / "short.gltf", "accessors[0] (POSITION)");
    }
    write(t / "index.gltf", triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 0}, R"([{"name":"Tri","mesh":7}])"));
    refused(t / "index.gltf", "nodes[0] \"Tri\"");
}

TEST_CASE("glTF import: rigscope-cli import writes the model and clips, and nothing on error", "[import]") {
    TempDir t;
    makeSnake(t / "snake.glb");
    TempDir out;
    const std::string cli = RIGSCOPE_CLI;
    CHECK(std::system((cli + " import " + (t / "snake.glb") + " -o " + (out / "SNAKE.alo") + " --clips Walk Wave >" +
                       (t / "log.txt") + " 2>&1")
                          .c_str()) == 0);
    CHECK(fs::exists(out / "SNAKE.alo"));
    CHECK(fs::exists(out / "SNAKE_Walk_00.ALA"));
    CHECK(fs::exists(out / "SNAKE_Wave_00.ALA"));
    CHECK(!fs::exists(out / "SNAKE_Twitch_00.ALA"));
    TempDir out2;
    write(t / "cycle.gltf", triangleGltf({0, 0, 0, 1, 0, 0, 0, 1, 0},
                                         R"([{"name":"A","mesh":0,"children":[1]},{"name":"B","children":[1]}])"));
    const int rc =
        std::system((cli + " import " + (t / "cycle.gltf") + " -o " + (out2 / "X.alo") + " >/dev/null 2>&1").c_str());
    CHECK(WEXITSTATUS(rc) == 1);
    CHECK(out2.count() == 0);
    // W3D for BFME with timecoded clips: the files, and the codec's error on each clip reported.
    makeSnake(t / "still.glb", false);
    TempDir out3;
    CHECK(std::system((cli + " import " + (t / "still.glb") + " -o " + (out3 / "SNAKE.w3d") +
                       " --game bfme --codec timecoded >" + (t / "log3.txt") + " 2>&1")
                          .c_str()) == 0);
    CHECK(out3.count() == 4);
    const std::vector<uint8_t> log3 = rs::readFileBytes(t / "log3.txt");
    const std::string log3s(log3.begin(), log3.end());
    CHECK(log3s.find("timecoded") != std::string::npos);
    CHECK(log3s.find("largest error") != std::string::npos);
    // --codec and an unknown codec are refused for what they do not apply to (usage error, exit 2).
    const int rc4 = std::system(
        (cli + " import " + (t / "still.glb") + " -o " + (out2 / "X.alo") + " --codec timecoded >/dev/null 2>&1")
            .c_str());
    CHECK(WEXITSTATUS(rc4) == 2);
    const int rc5 = std::system(
        (cli + " import " + (t / "still.glb") + " -o " + (out2 / "X.w3d") + " --codec zip >/dev/null 2>&1").c_str());
    CHECK(WEXITSTATUS(rc5) == 2);
    CHECK(out2.count() == 0);
}

TEST_CASE("glTF import: damaged copies of a valid GLB and glTF are refused or imported, never anything else",
          "[import]") {
    TempDir t;
    makeSnake(t / "snake.glb");
    makeSnake(t / "snake.gltf");
    size_t refusedCount = 0, imported = 0;
    for (const char* name : {"snake.glb", "snake.gltf"}) {
        const std::vector<uint8_t> good = rs::readFileBytes(t / name);
        uint32_t seed = 12345;
        auto rnd = [&]() { return seed = seed * 1664525u + 1013904223u; };
        for (int i = 0; i < 150; ++i) {
            std::vector<uint8_t> b = good;
            const int flips = 1 + int(rnd() % 8);
            for (int k = 0; k < flips; ++k)
                b[rnd() % b.size()] = uint8_t(rnd() >> 24);
            if (i % 10 == 0) b.resize(rnd() % b.size()); // cut short
            try {
                const gi::ImportResult r = gi::importGltf(t / name, ByteSpan(b));
                (void)gi::alamoFiles(r, t / "out/X.alo");
                ++imported;
            } catch (const ParseError& e) {
                ++refusedCount;
                CHECK(std::string(e.what()).find(name) != std::string::npos);
            }
        }
    }
    CHECK(refusedCount > 0);
    CHECK(refusedCount + imported == 300);
}

TEST_CASE("glTF import to W3D: hierarchy, skin, rigid meshes, HLOD and clips pose as the glTF", "[import][w3d]") {
    TempDir t;
    const std::string src = t / "snake.glb";
    {
        makeSnake(t / "grows.glb"); // the crate scales to 1.5: W3D clips hold no scale, refused by name
        const gi::ImportResult g = gi::importGltfFile(t / "grows.glb");
        TempDir none;
        CHECK_THROWS_WITH(gi::w3dFiles(g, none / "SNAKE.w3d", gi::W3dOptions{}),
                          Catch::Contains("Crate") && Catch::Contains("no scale"));
        CHECK(none.count() == 0);
    }
    makeSnake(src, false);
    TempDir out;
    gi::ImportResult r = gi::importGltfFile(src);
    gi::W3dOptions o;
    const auto files = gi::w3dFiles(r, out / "SNAKE.w3d", o, &r.report);
    REQUIRE(files.size() == 4);
    CHECK(fs::path(files[1].path).filename() == "SNAKE_Walk.w3d");
    CHECK(fs::path(files[3].path).filename() == "SNAKE_Twitch_02.w3d");
    gi::writeFiles(files);
    CHECK(out.count() == 4);
    const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
    REQUIRE(wf.hierarchies.size() == 1);
    CHECK(wf.hierarchies[0].pivots[0].name == "RootTransform");
    CHECK(wf.hierarchies[0].pivots.size() == r.model.skeleton.bones.size());
    REQUIRE(wf.hlods.size() == 1);
    size_t skins = 0;
    for (const auto& m : wf.meshes) {
        CHECK(m.name.size() <= limits::kW3dNameChars);
        if (m.skin()) {
            ++skins;
            CHECK(m.influences.size() == m.positions.size());
        }
    }
    CHECK(skins >= 2);
    const PoseStats st = compareClips(src, r, files, 1.0f, true);
    CHECK(st.compared > 1000);
    CHECK(st.hiddenChecked > 0);
    requireCheckClean(out.dir.string());

    // BFME, the SAGE folder layout.
    TempDir sage;
    gi::W3dOptions b;
    b.bfme = true;
    b.sageLayout = true;
    const auto sf = gi::w3dFiles(r, sage / "SNAKE.w3d", b);
    CHECK(sf[0].path == (sage.dir / "art" / "w3d" / "sn" / "SNAKE.w3d").string());
}

TEST_CASE("glTF import to W3D: names over 15 characters are refused by name, or renamed and reported",
          "[import][w3d]") {
    TempDir t;
    const std::string src = t / "snake.glb";
    makeSnake(src, false);
    gi::ImportResult r = gi::importGltfFile(src);
    r.model.skeleton.bones[3].name = "A_VERY_LONG_BONE_NAME";
    TempDir out;
    CHECK_THROWS_WITH(gi::w3dFiles(r, out / "SNAKE.w3d", gi::W3dOptions{}),
                      Catch::Contains("A_VERY_LONG_BONE_NAME") && Catch::Contains("15 characters"));
    CHECK(out.count() == 0);
    gi::W3dOptions o;
    o.rename = true;
    std::vector<std::string> report;
    const auto files = gi::w3dFiles(r, out / "SNAKE.w3d", o, &report);
    const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
    CHECK(wf.hierarchies[0].pivots[3].name == "A_VERY_LONG_BON");
    REQUIRE(report.size() == 1);
    CHECK(report[0].find("A_VERY_LONG_BONE_NAME") != std::string::npos);
}

TEST_CASE("glTF import to W3D: round trip of a corpus W3D skin, hierarchy and clip through the exporter",
          "[import][w3d][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("w3d");
    const std::string dir = rs::test::corpusDir() + "/w3d/sage-team+W3D-Tools/test/";
    if (!fs::exists(dir + "gumaarms_skn.w3d")) RIGSCOPE_SKIP("gumaarms_skn.w3d not in the corpus");
    const std::vector<uint8_t> sklBytes = rs::readFileBytes(dir + "gumaarms_skl.w3d");
    const w3d::File skl = w3d::readFile(ByteSpan(sklBytes), dir + "gumaarms_skl.w3d");
    const auto hier = std::make_shared<const std::vector<w3d::Hierarchy>>(skl.hierarchies);
    const w3d::HierarchyLookup lookup = [&](const std::string&) {
        return std::optional<w3d::HierarchyFile>(w3d::HierarchyFile{dir + "gumaarms_skl.w3d", hier});
    };
    const std::vector<uint8_t> sknBytes = rs::readFileBytes(dir + "gumaarms_skn.w3d");
    const Document skn = w3d::loadSet(ByteSpan(sknBytes), dir + "gumaarms_skn.w3d", lookup);
    const Model& orig = *skn.model;
    const std::vector<uint8_t> clipBytes = rs::readFileBytes(dir + "gumaarms_wlka.w3d");
    const Document cd = w3d::loadSet(ByteSpan(clipBytes), dir + "gumaarms_wlka.w3d", lookup);
    REQUIRE(cd.clips.size() == 1);
    const Clip& oc = *cd.clips[0];
    TempDir t;
    const std::string glb = t / "gumaarms.glb";
    gltf::exportModel(orig, {&oc}, gltf::ExportOptions{}, nullptr, glb);
    gi::ImportResult r = gi::importGltfFile(glb);
    TempDir out;
    gi::W3dOptions o;
    o.bfme = true;
    const auto files = gi::w3dFiles(r, out / "GUMAARMS.w3d", o, &r.report);
    gi::writeFiles(files);
    REQUIRE(files.size() == 2);
    const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
    const auto hier2 = std::make_shared<const std::vector<w3d::Hierarchy>>(wf.hierarchies);
    const w3d::HierarchyLookup lookup2 = [&](const std::string&) {
        return std::optional<w3d::HierarchyFile>(w3d::HierarchyFile{files[0].path, hier2});
    };
    const Document bd = w3d::loadSet(ByteSpan(files[0].bytes), files[0].path, lookup2);
    CHECK(bd.warnings.empty());
    const Model& back = *bd.model;
    // Same skeleton.
    REQUIRE(back.skeleton.bones.size() == orig.skeleton.bones.size());
    const float rig = rigSize(orig.skeleton);
    for (size_t b = 0; b < orig.skeleton.bones.size(); ++b) {
        CHECK(iequals(orig.skeleton.bones[b].name, back.skeleton.bones[b].name));
        CHECK(orig.skeleton.bones[b].parent == back.skeleton.bones[b].parent);
        CHECK(glm::length(glm::vec3(orig.skeleton.bones[b].bindLocal[3]) -
                          glm::vec3(back.skeleton.bones[b].bindLocal[3])) < 1e-4f * rig);
        CHECK(rotationAngle(orig.skeleton.bones[b].bindLocal, back.skeleton.bones[b].bindLocal) < 1e-3f);
    }
    // Same drawn triangles at the bind pose (skins in bone space: each vertex by its first bone).
    auto triangles = [](const Model& m, const std::vector<bool>& sel) {
        std::vector<glm::mat4> bw(m.skeleton.bones.size());
        m.skeleton.bindWorld(bw.data());
        std::vector<std::array<glm::vec3, 3>> tris;
        for (size_t i = 0; i < m.meshes.size(); ++i) {
            const Mesh& mesh = m.meshes[i];
            if (!sel[i] || mesh.hidden || mesh.shadowOrCollision) continue;
            for (const SubMesh& s : mesh.subMeshes) {
                if (materialPolicy(m.format, mesh, s.material).hiddenByDefault) continue;
                auto at = [&](uint32_t v) {
                    glm::mat4 M = mesh.bone >= 0 ? bw[size_t(mesh.bone)] : glm::mat4(1);
                    if (s.skinned())
                        M = s.space == VertexSpace::Bone ? bw[size_t(s.boneMap[s.boneIndices[v].x])] : glm::mat4(1);
                    return glm::vec3(M * glm::vec4(s.positions[v], 1));
                };
                for (size_t k = 0; k + 2 < s.indices.size(); k += 3)
                    tris.push_back({at(s.indices[k]), at(s.indices[k + 1]), at(s.indices[k + 2])});
            }
        }
        return tris;
    };
    const auto ta = triangles(orig, gltf::selectVariant(orig, -1, 0));
    const auto tb = triangles(back, std::vector<bool>(back.meshes.size(), true));
    REQUIRE(ta.size() == tb.size());
    size_t unmatched = 0;
    for (const auto& a : ta) {
        bool found = false;
        for (size_t i = 0; i < tb.size() && !found; ++i)
            for (int rot = 0; rot < 3 && !found; ++rot)
                found = glm::length(a[0] - tb[i][size_t(rot)]) < 1e-4f * rig &&
                        glm::length(a[1] - tb[i][size_t((rot + 1) % 3)]) < 1e-4f * rig &&
                        glm::length(a[2] - tb[i][size_t((rot + 2) % 3)]) < 1e-4f * rig;
        unmatched += !found;
    }
    CHECK(unmatched == 0);
    // Same pose at every frame (the clip is read back with the hierarchy; both at 30 fps, or compared by time).
    const Document bc = w3d::loadSet(ByteSpan(files[1].bytes), files[1].path, lookup2);
    REQUIRE(bc.clips.size() == 1);
    const Clip& nc = *bc.clips[0];
    const ClipBinding b0 = bindClip(orig.skeleton, oc), b1 = bindClip(back.skeleton, nc);
    REQUIRE(b1.ok());
    PoseBuffers p0(orig.skeleton.bones.size()), p1(back.skeleton.bones.size());
    // The stock clip's quaternions are off unit length (|q| = 0.999...): the engine's matrix form then scales the
    // bone slightly, which W3D's own channels cannot hold (the importer drops it and reports it). Bound: that
    // scale, measured here on the original pose, times the rig size per bone of the chain.
    float origScale = 0.0f;
    for (uint32_t f = 0; f < oc.frameCount; ++f) {
        evaluatePose(orig.skeleton, &oc, &b0, float(f), LoopMode::Once, p0.view());
        for (size_t b = 0; b < orig.skeleton.bones.size(); ++b)
            for (int k = 0; k < 3; ++k)
                origScale = std::max(origScale, std::abs(glm::length(glm::vec3(p0.local[b][k])) - 1.0f));
    }
    CHECK(origScale < 1e-2f);
    bool reported = false;
    for (const auto& line : r.report)
        reported |= line.find("dropped") != std::string::npos;
    CHECK(reported == (origScale > 1e-5f));
    size_t compared = 0, hiddenFrames = 0;
    REQUIRE(orig.skeleton.bones.size() == back.skeleton.bones.size());
    for (size_t b = 0; b < back.skeleton.bones.size(); ++b)
        CHECK(orig.skeleton.bones[b].visible == back.skeleton.bones[b].visible);
    for (uint32_t f = 0; f < nc.frameCount; ++f) {
        const float of = std::min(float(f) / nc.fps * oc.fps, float(oc.frameCount - 1));
        evaluatePose(orig.skeleton, &oc, &b0, of, LoopMode::Once, p0.view());
        evaluatePose(back.skeleton, &nc, &b1, float(f), LoopMode::Once, p1.view());
        for (size_t b = 0; b < back.skeleton.bones.size(); ++b) {
            const float dt = glm::length(glm::vec3(p0.world[b][3]) - glm::vec3(p1.world[b][3]));
            const float dr = rotationAngle(p0.world[b], p1.world[b]);
            int depth = 0;
            for (int a = int(b); a >= 0; a = back.skeleton.bones[size_t(a)].parent)
                ++depth;
            const float bound = 1e-4f * rig + origScale * rig * float(depth);
            if (p0.visible[b] != p1.visible[b]) { // effective visibility (own bits, ancestors')
                INFO("frame " << f << " bone " << back.skeleton.bones[b].name << " visible " << int(p0.visible[b])
                              << " vs " << int(p1.visible[b]));
                CHECK(false);
                return;
            }
            hiddenFrames += !p1.visible[b];
            if (dt > bound || dr > 1e-3f) {
                INFO("frame " << f << " bone " << back.skeleton.bones[b].name << " dt " << dt << " bound " << bound
                              << " dr " << dr);
                CHECK(false);
                return;
            }
            ++compared;
        }
    }
    CHECK(compared > 100);
    WARN("W3D round trip: " << hiddenFrames << " hidden bone-frames, the same in both");
    requireCheckClean(out.dir.string());
}

namespace {

// The skinned vertices of written W3D files against the glTF's own skinning (sum of weight * jointWorld *
// inverseBind * POSITION over JOINTS_0/WEIGHTS_0, evaluated here), at frames 0, a third, two thirds and the last
// of every clip file (files[1..]). W3D side: sum of weight * pivotWorld * vertex over the influences as read back
// (second influence from 0xC00). Vertices are matched by their rest position (the snake's are distinct). Bound per
// vertex: 2e-4 of the rig size plus the percent rounding of the stored weights (the weight's rounding error times
// the distance between the two bones' images of the vertex). Returns the largest error over the bound's first term
// (0 = exact) and counts the vertices compared and the glTF vertices written with two influences.
struct SkinStats {
    size_t compared = 0, dual = 0;
    float maxErr = 0;
};
SkinStats compareSkin(const std::string& gltfPath, const gi::ImportResult& r,
                      const std::vector<gi::OutputFile>& files) {
    const tinygltf::Model g = loadGltf(gltfPath);
    const GltfPose gp(g);
    const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
    const auto hier = std::make_shared<const std::vector<w3d::Hierarchy>>(wf.hierarchies);
    const w3d::HierarchyLookup lookup = [&](const std::string&) {
        return std::optional<w3d::HierarchyFile>(w3d::HierarchyFile{files[0].path, hier});
    };
    const Document d = w3d::loadSet(ByteSpan(files[0].bytes), files[0].path, lookup);
    REQUIRE(d.warnings.empty());
    const Model& model = *d.model;
    REQUIRE(model.warnings.empty());
    const Skeleton& sk = model.skeleton;
    const float rig = rigSize(sk);
    // glTF skinned node.
    int skinNode = -1;
    for (size_t n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].skin >= 0) skinNode = int(n);
    REQUIRE(skinNode >= 0);
    const tinygltf::Skin& skin = g.skins[size_t(g.nodes[size_t(skinNode)].skin)];
    const tinygltf::Primitive& pr = g.meshes[size_t(g.nodes[size_t(skinNode)].mesh)].primitives[0];
    const std::vector<float> P = rs::test::floats(g, pr.attributes.at("POSITION"));
    const std::vector<uint32_t> J = rs::test::uints(g, pr.attributes.at("JOINTS_0"));
    const std::vector<float> W = rs::test::floats(g, pr.attributes.at("WEIGHTS_0"));
    const std::vector<float> ibmF = rs::test::floats(g, skin.inverseBindMatrices);
    std::vector<glm::mat4> ibm(skin.joints.size());
    for (size_t j = 0; j < ibm.size(); ++j)
        for (int k = 0; k < 16; ++k)
            ibm[j][k / 4][k % 4] = ibmF[j * 16 + size_t(k)];
    const size_t nv = P.size() / 3;
    auto gltfSkinned = [&](size_t v, int anim, float t) {
        glm::vec4 acc(0);
        for (int k = 0; k < 4; ++k) {
            const float w = W[v * 4 + size_t(k)];
            if (w == 0) continue;
            const size_t j = J[v * 4 + size_t(k)];
            acc +=
                w * (gp.world(skin.joints[j], anim, t) * ibm[j] * glm::vec4(P[v * 3], P[v * 3 + 1], P[v * 3 + 2], 1));
        }
        return glm::vec3(acc.x, -acc.z, acc.y); // game axes (--up y)
    };
    // W3D skinned vertices: (sub-mesh, vertex) with their glTF vertex, matched at the bind pose.
    struct V {
        const SubMesh* s;
        size_t i, g;
    };
    std::vector<V> verts;
    std::set<size_t> dualG; // glTF vertices bound to two bones in the W3D
    std::vector<glm::mat4> bw(sk.bones.size());
    sk.bindWorld(bw.data());
    SkinStats st;
    for (const Mesh& m : model.meshes)
        for (const SubMesh& s : m.subMeshes) {
            if (!s.skinned()) continue;
            REQUIRE(s.space == VertexSpace::Bone);
            for (size_t i = 0; i < s.vertexCount(); ++i) {
                const glm::vec3 rest =
                    glm::vec3(bw[size_t(s.boneMap[s.boneIndices[i].x])] * glm::vec4(s.positions[i], 1));
                size_t best = 0;
                float bd = 1e30f;
                for (size_t v = 0; v < nv; ++v) {
                    const float dd = glm::length(rest - glm::vec3(P[v * 3], -P[v * 3 + 2], P[v * 3 + 1]));
                    if (dd < bd) bd = dd, best = v;
                }
                REQUIRE(bd < 1e-4f * rig);
                verts.push_back({&s, i, best});
                // The stored weights are the glTF's (two heaviest, renormalised) rounded to percent.
                const float gw0 = W[best * 4], gw1 = W[best * 4 + 1];
                CHECK(std::abs(s.boneWeights[i].x - gw0 / (gw0 + gw1)) <= 0.005f + 1e-6f);
                if (s.boneWeights[i].y > 0) dualG.insert(best);
            }
        }
    REQUIRE(!verts.empty());
    st.dual = dualG.size();
    for (size_t fi = 1; fi < files.size(); ++fi) {
        const Document cd = w3d::loadSet(ByteSpan(files[fi].bytes), files[fi].path, lookup);
        REQUIRE(cd.warnings.empty());
        REQUIRE(cd.clips.size() == 1);
        const Clip& clip = *cd.clips[0];
        int anim = -1;
        for (size_t a = 0; a < g.animations.size(); ++a)
            if (g.animations[a].name == r.clips[fi - 1].name) anim = int(a);
        REQUIRE(anim >= 0);
        const ClipBinding bind = bindClip(sk, clip);
        REQUIRE(bind.ok());
        PoseBuffers buf(sk.bones.size());
        const float end = gp.end(anim);
        const uint32_t last = clip.frameCount - 1;
        for (uint32_t f : {0u, last / 3, 2 * last / 3, last}) {
            evaluatePose(sk, &clip, &bind, float(f), LoopMode::Once, buf.view());
            const float t = std::min(float(f) / 30.0f, end);
            for (const V& x : verts) {
                const SubMesh& s = *x.s;
                const glm::vec4 w = s.boneWeights[x.i];
                const glm::vec3 a =
                    glm::vec3(buf.world[size_t(s.boneMap[s.boneIndices[x.i].x])] * glm::vec4(s.positions[x.i], 1));
                glm::vec3 b = a;
                if (w.y > 0)
                    b = glm::vec3(buf.world[size_t(s.boneMap[s.boneIndices[x.i].y])] * glm::vec4(s.positions2[x.i], 1));
                const glm::vec3 got = w.x * a + w.y * b;
                const glm::vec3 want = gltfSkinned(x.g, anim, t);
                const float gw0 = W[x.g * 4], gw1 = W[x.g * 4 + 1];
                const float rounding = std::abs(w.x - gw0 / (gw0 + gw1)) * glm::length(a - b);
                const float err = glm::length(got - want);
                st.maxErr = std::max(st.maxErr, (err - rounding) / rig);
                if (err > 2e-4f * rig + rounding) {
                    INFO(files[fi].path << " frame " << f << " vertex " << x.g << " error " << err);
                    CHECK(false);
                    return st;
                }
                ++st.compared;
            }
        }
    }
    return st;
}

} // namespace

TEST_CASE("glTF import to W3D: BFME skins bind two bones per vertex, Generals one, and skin as the glTF",
          "[import][w3d]") {
    TempDir t;
    const std::string src = t / "snake.glb";
    makeSnake(src, false);
    gi::ImportOptions two;
    two.bonesPerVertex = 2;
    gi::ImportResult r = gi::importGltfFile(src, two);
    {
        TempDir none; // Alamo's RSkin takes one bone: refused by name
        CHECK_THROWS_WITH(gi::alamoFiles(r, none / "SNAKE.alo", two), Catch::Contains("two bones per vertex"));
    }
    // BFME: influences 70/30 with the second bone's vertices (0xC00/0xC01).
    TempDir out;
    gi::W3dOptions b;
    b.bfme = true;
    const auto files = gi::w3dFiles(r, out / "SNAKE.w3d", b, &r.report);
    gi::writeFiles(files);
    const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
    size_t pairs = 0, skins = 0;
    for (const auto& m : wf.meshes) {
        if (!m.skin()) continue;
        ++skins;
        REQUIRE(m.positions2.size() == m.positions.size());
        REQUIRE(m.normals2.size() == m.positions.size());
        for (const auto& vi : m.influences) {
            CHECK(vi.weight + vi.weight2 == 100);
            if (vi.weight2) {
                CHECK(vi.weight == 70);
                CHECK(vi.bone2 == vi.bone + 1); // pivot J(i+1) follows J(i)
                ++pairs;
            }
        }
    }
    CHECK(skins >= 2);
    CHECK(pairs >= 29 * 8); // every ring but the last weighs two joints (palette splits copy some vertices)
    const PoseStats ps = compareClips(src, r, files, 1.0f, true);
    CHECK(ps.compared > 1000);
    const SkinStats ss = compareSkin(src, r, files);
    CHECK(ss.dual == 29 * 8);
    CHECK(ss.compared > 2000);
    INFO("largest skinned vertex error / rig size " << ss.maxErr);
    CHECK(ss.maxErr < 2e-4f);
    requireCheckClean(out.dir.string());

    // Generals (one bone) from the same two-bone import: each vertex keeps its heaviest, reported.
    TempDir gen;
    std::vector<std::string> report;
    const auto gf = gi::w3dFiles(r, gen / "SNAKE.w3d", gi::W3dOptions{}, &report);
    const w3d::File gw = w3d::readFile(ByteSpan(gf[0].bytes), gf[0].path);
    for (const auto& m : gw.meshes) {
        CHECK(m.positions2.empty());
        for (const auto& vi : m.influences)
            CHECK((vi.weight == 0 && vi.weight2 == 0));
    }
    bool reported = false;
    for (const auto& line : report)
        reported |= line.find("keep their heaviest") != std::string::npos;
    CHECK(reported);
    // BFME from a one-bone import: 100/0, no second-bone vertices.
    const gi::ImportResult one = gi::importGltfFile(src);
    TempDir bo;
    const auto bf = gi::w3dFiles(one, bo / "SNAKE.w3d", b);
    const w3d::File bw = w3d::readFile(ByteSpan(bf[0].bytes), bf[0].path);
    for (const auto& m : bw.meshes) {
        CHECK(m.positions2.empty());
        for (const auto& vi : m.influences)
            CHECK((vi.weight == 100 && vi.weight2 == 0));
    }
}

TEST_CASE("glTF import to W3D: compressed clips (timecoded, adaptive delta) read back and pose as the glTF",
          "[import][w3d]") {
    TempDir t;
    const std::string src = t / "snake.glb";
    makeSnake(src, false);
    gi::ImportOptions two;
    two.bonesPerVertex = 2;
    const gi::ImportResult r = gi::importGltfFile(src, two);
    const std::vector<uint8_t> plainBytes = [&] {
        const auto f = gi::w3dFiles(r, t / "SNAKE.w3d", gi::W3dOptions{});
        size_t n = 0;
        for (size_t i = 1; i < f.size(); ++i)
            n += f[i].bytes.size();
        return std::vector<uint8_t>(n);
    }();
    for (gi::W3dCodec codec : {gi::W3dCodec::Timecoded, gi::W3dCodec::AdaptiveDelta}) {
        const bool tc = codec == gi::W3dCodec::Timecoded;
        INFO((tc ? "timecoded" : "adaptive delta"));
        TempDir out;
        gi::W3dOptions o;
        o.bfme = true;
        o.codec = codec;
        std::vector<std::string> report;
        gi::CodecError err;
        const auto files = gi::w3dFiles(r, out / "SNAKE.w3d", o, &report, &err);
        REQUIRE(files.size() == 4);
        gi::writeFiles(files);
        size_t compressedBytes = 0;
        for (size_t i = 1; i < files.size(); ++i) {
            // W3D_CHUNK_COMPRESSED_ANIMATION with the flavor asked for.
            const auto& b = files[i].bytes;
            REQUIRE(b.size() > 8 + 8 + 44);
            uint32_t id = 0, hid = 0;
            uint16_t flavor = 0;
            std::memcpy(&id, b.data(), 4);
            std::memcpy(&hid, b.data() + 8, 4);
            std::memcpy(&flavor, b.data() + 16 + 42, 2);
            CHECK(id == 0x280);
            CHECK(hid == 0x281);
            CHECK(flavor == (tc ? 0 : 1));
            compressedBytes += b.size();
        }
        // One report line per clip with its error; the error is what the reader gives back, within bounds.
        size_t lines = 0;
        for (const auto& line : report)
            lines += line.find(tc ? "timecoded" : "adaptive delta") != std::string::npos &&
                     line.find("largest error") != std::string::npos;
        CHECK(lines == 3);
        const float rig = rigSize(r.model.skeleton);
        if (tc) {
            CHECK(err.translation <= 1e-6f * rig * 1.01f + 1e-6f);
            CHECK(err.rotation <= 2e-5f * 1.01f + 2e-6f);
            CHECK(compressedBytes < plainBytes.size()); // keys only where the motion bends
        } else {
            CHECK(err.translation < 0.01f * rig);
            CHECK(err.rotation < 0.02f);
        }
        WARN((tc ? "timecoded" : "adaptive delta")
             << ": clip bytes " << compressedBytes << " (uncompressed " << plainBytes.size() << "), largest error "
             << err.translation / rig << " of the rig size, " << err.rotation << " rad");
        const PoseStats ps = compareClips(src, r, files, 1.0f, true, tc ? gi::CodecError{} : err);
        CHECK(ps.compared > 1000);
        CHECK(ps.hiddenChecked > 0); // visibility as compressed bit channels (0x283)
        if (tc) {
            const SkinStats ss = compareSkin(src, r, files);
            CHECK(ss.compared > 2000);
        }
        requireCheckClean(out.dir.string());
    }
}

namespace {

void appendBytes(void* ctx, void* data, int size) {
    auto* v = static_cast<std::vector<uint8_t>*>(ctx);
    v->insert(v->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}

// A 64x32 test picture: smooth gradients with a few hard edges; alpha a gradient when `alpha`.
std::vector<uint8_t> picture(int w, int h, bool alpha) {
    std::vector<uint8_t> px(size_t(w) * size_t(h) * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = &px[(size_t(y) * size_t(w) + size_t(x)) * 4];
            p[0] = uint8_t(x * 255 / (w - 1));
            p[1] = uint8_t(y * 255 / (h - 1));
            p[2] = (x / 16 + y / 16) % 2 ? 200 : 40;
            p[3] = alpha ? uint8_t(255 - x * 255 / (w - 1)) : 255;
        }
    return px;
}

} // namespace

TEST_CASE("glTF import: --textures writes PNG and JPEG images as DXT1/DXT5 DDS named as the model names them",
          "[import][textures]") {
    TempDir t;
    const int W = 64, H = 32;
    const std::vector<uint8_t> opaque = picture(W, H, false), alpha = picture(W, H, true);
    std::vector<uint8_t> png, pngA, jpg;
    REQUIRE(stbi_write_png_to_func(appendBytes, &png, W, H, 4, opaque.data(), W * 4));
    REQUIRE(stbi_write_png_to_func(appendBytes, &pngA, W, H, 4, alpha.data(), W * 4));
    REQUIRE(stbi_write_jpg_to_func(appendBytes, &jpg, W, H, 4, opaque.data(), 95));
    Builder b;
    const int root = b.node("Root", -1);
    const std::vector<std::pair<std::string, const std::vector<uint8_t>*>> images = {
        {"Hull", &png}, {"Glass", &pngA}, {"Decal", &jpg}};
    for (size_t i = 0; i < images.size(); ++i) {
        tinygltf::Image im;
        im.name = images[i].first;
        im.bufferView = b.view(images[i].second->data(), images[i].second->size());
        im.mimeType = i == 2 ? "image/jpeg" : "image/png";
        b.m.images.push_back(im);
        tinygltf::Texture tex;
        tex.source = int(i);
        b.m.textures.push_back(tex);
        tinygltf::Material mat;
        mat.name = images[i].first;
        mat.pbrMetallicRoughness.baseColorTexture.index = int(i);
        if (i == 1) mat.alphaMode = "BLEND";
        b.m.materials.push_back(mat);
        const int mesh = b.box(images[i].first + "Mesh", 0.5f);
        auto& pr = b.m.meshes[size_t(mesh)].primitives[0];
        std::vector<float> uv;
        for (int k = 0; k < 8; ++k)
            uv.insert(uv.end(), {float(k & 1), float((k >> 1) & 1)});
        pr.attributes["TEXCOORD_0"] = b.floats(uv, TINYGLTF_TYPE_VEC2);
        pr.material = int(i);
        const int n = b.node(images[i].first, root, glm::vec3(float(i), 0, 0));
        b.m.nodes[size_t(n)].mesh = mesh;
    }
    b.write(t / "ship.glb");

    gi::ImportOptions o;
    o.keepImages = true;
    gi::ImportResult r = gi::importGltfFile(t / "ship.glb", o);
    REQUIRE(r.images.size() == 3);
    TempDir out;
    std::vector<std::string> report;
    auto files = gi::textureFiles(r, (out.dir / "Textures").string(), gi::TextureLayout::Flat, &report);
    REQUIRE(files.size() == 3);
    const auto model = gi::alamoFiles(r, out / "SHIP.alo", o);
    files.insert(files.end(), model.begin(), model.end());
    gi::writeFiles(files);
    // The names the model's materials use are the files written.
    std::set<std::string> used;
    for (const Mesh& m : r.model.meshes)
        for (const SubMesh& s : m.subMeshes)
            for (const MaterialParam& p : s.material.params)
                if (!p.texture.empty()) used.insert(p.texture);
    CHECK(used == std::set<std::string>{"Hull.dds", "Glass.dds", "Decal.dds"});
    for (const std::string& name : used) {
        const std::string path = (out.dir / "Textures" / name).string();
        REQUIRE(fs::exists(path));
        const std::vector<uint8_t> bytes = rs::readFileBytes(path);
        const TextureInfo info = probeDds(ByteSpan(bytes), path);
        const bool a = name == "Glass.dds";
        CHECK(info.format == (a ? "DXT5" : "DXT1"));
        CHECK(info.width == W);
        CHECK(info.height == H);
        CHECK(info.mipCount == 7); // 64x32 ... 1x1
        const Image img = decodeDds(ByteSpan(bytes), path);
        REQUIRE(img.width == W);
        REQUIRE(img.height == H);
        // Against the source pixels (the JPEG's as decoded): DXT's 5:6:5 endpoints and 2-bit (colour) or 3-bit
        // (alpha) interpolation leave each channel within 24 of the source, 4 on average.
        std::vector<uint8_t> src = a ? alpha : opaque;
        if (name == "Decal.dds") {
            int w = 0, h = 0, c = 0;
            uint8_t* d = stbi_load_from_memory(jpg.data(), int(jpg.size()), &w, &h, &c, 4);
            REQUIRE(d);
            src.assign(d, d + size_t(W) * size_t(H) * 4);
            stbi_image_free(d);
        }
        int maxErr = 0;
        double sum = 0;
        for (size_t i = 0; i < src.size(); ++i) {
            const int e = std::abs(int(src[i]) - int(img.rgba[i]));
            maxErr = std::max(maxErr, e);
            sum += e;
        }
        INFO(name << " max " << maxErr << " mean " << sum / double(src.size()));
        CHECK(maxErr <= 24);
        CHECK(sum / double(src.size()) <= 4.0);
    }
    requireCheckClean(out.dir.string());

    // SAGE layouts; a damaged PNG names the image and nothing is written.
    const auto sage = gi::textureFiles(r, out.dir.string(), gi::TextureLayout::SageCompiled);
    CHECK(sage[0].path == (out.dir / "art" / "compiledtextures" / "hu" / "Hull.dds").string());
    const auto gen = gi::textureFiles(r, out.dir.string(), gi::TextureLayout::SageTextures);
    CHECK(gen[0].path == (out.dir / "art" / "textures" / "Hull.dds").string());
    gi::ImportResult bad = r;
    bad.images[0].bytes.resize(40);
    TempDir none;
    CHECK_THROWS_WITH(gi::textureFiles(bad, none.dir.string(), gi::TextureLayout::Flat),
                      Catch::Contains("images[0]") && Catch::Contains("Hull"));
    CHECK(none.count() == 0);
}

TEST_CASE("glTF import: weights beyond the engine's bones per vertex are dropped, reported by mesh and count, and "
          "the kept ones renormalised",
          "[import][w3d]") {
    // Four joints in a row; mesh "Quad" with 8 vertices at x = v (vertex v is found by its position): vertices 0-5
    // weigh all four joints 0.4 / 0.3 / 0.2 / 0.1 (the heaviest joint v % 4, then the next ones), vertices 6 and 7
    // weigh one joint. Written with the project's own glTF writer (tinygltf, as the other fixtures).
    TempDir t;
    const std::string src = t / "quad.glb";
    {
        Builder b;
        std::vector<int> j;
        for (int i = 0; i < 4; ++i)
            j.push_back(b.node("J" + std::to_string(i), i ? j.back() : -1, glm::vec3(i ? 1.0f : 0.0f, 0, 0)));
        std::vector<float> pos, w, ibm;
        std::vector<uint16_t> jo, idx;
        for (int v = 0; v < 8; ++v) {
            pos.insert(pos.end(), {float(v), 0.5f, 0.0f});
            const uint16_t h = uint16_t(v % 4);
            if (v < 6) {
                jo.insert(jo.end(), {uint16_t((h + 2) % 4), h, uint16_t((h + 3) % 4), uint16_t((h + 1) % 4)});
                w.insert(w.end(), {0.2f, 0.4f, 0.1f, 0.3f}); // listed out of order on purpose
            } else {
                jo.insert(jo.end(), {h, 0, 0, 0});
                w.insert(w.end(), {1.0f, 0.0f, 0.0f, 0.0f});
            }
        }
        for (int v = 0; v + 2 < 8; v += 2)
            idx.insert(idx.end(), {uint16_t(v), uint16_t(v + 1), uint16_t(v + 2), uint16_t(v + 1), uint16_t(v + 3),
                                   uint16_t(v + 2)});
        for (int i = 0; i < 4; ++i) {
            const glm::mat4 inv = glm::inverse(glm::translate(glm::mat4(1), glm::vec3(float(i), 0, 0)));
            for (int c = 0; c < 16; ++c)
                ibm.push_back(inv[c / 4][c % 4]);
        }
        tinygltf::Skin skin;
        skin.joints = j;
        skin.inverseBindMatrices = b.floats(ibm, TINYGLTF_TYPE_MAT4);
        b.m.skins.push_back(skin);
        tinygltf::Primitive pr;
        pr.attributes["POSITION"] = b.floats(pos, TINYGLTF_TYPE_VEC3);
        pr.attributes["JOINTS_0"] = b.u16(jo, TINYGLTF_TYPE_VEC4);
        pr.attributes["WEIGHTS_0"] = b.floats(w, TINYGLTF_TYPE_VEC4);
        pr.indices = b.u16(idx, TINYGLTF_TYPE_SCALAR);
        pr.mode = TINYGLTF_MODE_TRIANGLES;
        tinygltf::Mesh mesh;
        mesh.name = "Quad";
        mesh.primitives.push_back(pr);
        b.m.meshes.push_back(mesh);
        const int sn = b.node("QuadSkin", -1);
        b.m.nodes[size_t(sn)].mesh = 0;
        b.m.nodes[size_t(sn)].skin = 0;
        b.write(src);
    }
    auto reportLine = [](const gi::ImportResult& r) {
        std::string line;
        for (const std::string& l : r.report)
            if (l.find("weighted") != std::string::npos) line = l;
        return line;
    };
    // The kept weights, per vertex (by position x), as skeleton bone names and weights.
    struct Kept {
        std::string b0, b1;
        float w0 = 0, w1 = 0;
    };
    auto kept = [](const gi::ImportResult& r) {
        std::map<int, Kept> out;
        const Skeleton& sk = r.model.skeleton;
        for (const Mesh& m : r.model.meshes)
            for (const SubMesh& s : m.subMeshes) {
                REQUIRE(s.skinned());
                for (size_t i = 0; i < s.positions.size(); ++i) {
                    const glm::u16vec4 bi = s.boneIndices[i];
                    const glm::vec4 bw = s.boneWeights[i];
                    Kept k;
                    k.b0 = sk.bones[size_t(s.boneMap[bi.x])].name, k.w0 = bw.x;
                    if (bw.y > 0) k.b1 = sk.bones[size_t(s.boneMap[bi.y])].name, k.w1 = bw.y;
                    CHECK(bw.z == 0.0f);
                    CHECK(bw.w == 0.0f);
                    out[int(std::lround(s.positions[i].x))] = k;
                }
            }
        return out;
    };
    SECTION("one bone per vertex (Generals, Alamo's RSkin): the heaviest, weight 1") {
        const gi::ImportResult r = gi::importGltfFile(src);
        const std::string line = reportLine(r);
        INFO(line);
        CHECK_THAT(line, Catch::Contains("meshes[0] \"Quad\""));
        CHECK_THAT(line, Catch::Contains("6 of 8 vertices"));
        CHECK_THAT(line, Catch::Contains("keeps its heaviest"));
        CHECK_THAT(line, Catch::Contains("largest weight dropped 0.6")); // 1 - 0.4
        const auto k = kept(r);
        REQUIRE(k.size() == 8);
        for (int v = 0; v < 8; ++v) {
            CHECK(k.at(v).b0 == "J" + std::to_string(v % 4));
            CHECK(k.at(v).w0 == 1.0f);
            CHECK(k.at(v).b1.empty());
        }
        // Generals' W3D skin: one pivot per vertex, no second influence.
        TempDir out;
        const auto files = gi::w3dFiles(r, out / "QUAD.w3d", gi::W3dOptions{});
        const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
        size_t skinned = 0;
        for (const auto& m : wf.meshes)
            for (const auto& vi : m.influences) {
                CHECK(vi.weight2 == 0);
                ++skinned;
            }
        CHECK(skinned == 8);
    }
    SECTION("two bones per vertex (BFME): the two heaviest, renormalised to 4/7 and 3/7") {
        gi::ImportOptions o;
        o.bonesPerVertex = limits::kW3dBonesPerVertexBfme;
        const gi::ImportResult r = gi::importGltfFile(src, o);
        const std::string line = reportLine(r);
        INFO(line);
        CHECK_THAT(line, Catch::Contains("meshes[0] \"Quad\""));
        CHECK_THAT(line, Catch::Contains("6 of 8 vertices"));
        CHECK_THAT(line, Catch::Contains("two heaviest"));
        CHECK_THAT(line, Catch::Contains("largest weight dropped 0.3")); // 1 - 0.7
        const auto k = kept(r);
        REQUIRE(k.size() == 8);
        for (int v = 0; v < 6; ++v) {
            CHECK(k.at(v).b0 == "J" + std::to_string(v % 4));
            CHECK(k.at(v).b1 == "J" + std::to_string((v + 1) % 4));
            CHECK(k.at(v).w0 == Approx(0.4 / 0.7).margin(1e-6));
            CHECK(k.at(v).w1 == Approx(0.3 / 0.7).margin(1e-6));
        }
        for (int v = 6; v < 8; ++v) {
            CHECK(k.at(v).w0 == 1.0f);
            CHECK(k.at(v).b1.empty());
        }
        // BFME's W3D skin stores them in percent: 57 / 43 (4/7 = 57.1 %).
        TempDir out;
        gi::W3dOptions b;
        b.bfme = true;
        const auto files = gi::w3dFiles(r, out / "QUAD.w3d", b);
        const w3d::File wf = w3d::readFile(ByteSpan(files[0].bytes), files[0].path);
        size_t pairs = 0;
        for (const auto& m : wf.meshes)
            for (const auto& vi : m.influences) {
                CHECK(vi.weight + vi.weight2 == 100);
                if (vi.weight2) {
                    CHECK((vi.weight == 57 && vi.weight2 == 43));
                    ++pairs;
                }
            }
        CHECK(pairs == 6);
    }
}
