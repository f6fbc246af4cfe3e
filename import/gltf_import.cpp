#include "gltf_import.h"

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "common/error.h"
#include "common/file_read.h"
#include "common/file_write.h"
#include "formats/engine_limits.h"
#include "scene/pose.h"

#include <tiny_gltf.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <new>
#include <stdexcept>
#include <unordered_map>

namespace rs::gltfimport {

namespace {

namespace fs = std::filesystem;
using GModel = tinygltf::Model;

// ------------------------------------------------------------------------------------------------ errors, names

struct Ctx {
    std::string file;
    const GModel* g = nullptr;
    [[noreturn]] void fail(const std::string& where, const std::string& msg) const {
        throw ParseError(file, where, ParseError::kNoOffset, msg);
    }
};

std::string quoted(const std::string& s) { return s.empty() ? std::string() : " \"" + s + "\""; }
std::string nodeWhere(const GModel& g, int i) {
    return "nodes[" + std::to_string(i) + "]" + quoted(g.nodes[size_t(i)].name);
}
std::string meshWhere(const GModel& g, int i) {
    return "meshes[" + std::to_string(i) + "]" + quoted(g.meshes[size_t(i)].name);
}

bool finite(double v) { return std::isfinite(v); }

// The root bone's names: Alamo's "Root", W3D's "RootTransform".
bool isRootName(const std::string& n) { return iequals(n, "Root") || iequals(n, "RootTransform"); }

// ------------------------------------------------------------------------------------------------ accessors

// One accessor checked against its buffer view and buffer: element size, stride, every byte inside.
struct AccessorSpan {
    const unsigned char* base = nullptr;
    size_t count = 0, stride = 0, comps = 0, compSize = 0;
    int componentType = 0;
    bool normalized = false;
};

AccessorSpan accessorSpan(const Ctx& c, int index, const std::string& what, std::initializer_list<int> types) {
    const GModel& g = *c.g;
    const std::string where = "accessors[" + std::to_string(index) + "] (" + what + ")";
    if (index < 0 || size_t(index) >= g.accessors.size()) c.fail(where, "no such accessor");
    const tinygltf::Accessor& a = g.accessors[size_t(index)];
    if (a.sparse.isSparse) c.fail(where, "sparse accessors are not supported");
    bool typeOk = false;
    for (int t : types)
        typeOk |= a.type == t;
    if (!typeOk) c.fail(where, "unexpected element type " + std::to_string(a.type));
    const int comps = tinygltf::GetNumComponentsInType(uint32_t(a.type));
    const int cs = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
    if (comps <= 0 || cs <= 0) c.fail(where, "unknown component type " + std::to_string(a.componentType));
    AccessorSpan s;
    s.count = a.count;
    s.comps = size_t(comps);
    s.compSize = size_t(cs);
    s.componentType = a.componentType;
    s.normalized = a.normalized;
    if (a.count == 0) return s;
    if (a.bufferView < 0 || size_t(a.bufferView) >= g.bufferViews.size())
        c.fail(where, "no buffer view (accessors without data are not supported)");
    const tinygltf::BufferView& v = g.bufferViews[size_t(a.bufferView)];
    if (v.buffer < 0 || size_t(v.buffer) >= g.buffers.size())
        c.fail("bufferViews[" + std::to_string(a.bufferView) + "]", "no such buffer " + std::to_string(v.buffer));
    const std::vector<unsigned char>& data = g.buffers[size_t(v.buffer)].data;
    const uint64_t elem = uint64_t(comps) * uint64_t(cs);
    const uint64_t stride = v.byteStride ? uint64_t(v.byteStride) : elem;
    if (stride < elem) c.fail(where, "byteStride " + std::to_string(stride) + " below the element size");
    if (uint64_t(v.byteOffset) > data.size() || uint64_t(v.byteLength) > data.size() - uint64_t(v.byteOffset))
        c.fail("bufferViews[" + std::to_string(a.bufferView) + "]",
               "bytes " + std::to_string(v.byteOffset) + "+" + std::to_string(v.byteLength) + " outside buffer " +
                   std::to_string(v.buffer) + " of " + std::to_string(data.size()) + " bytes");
    const uint64_t need = uint64_t(a.byteOffset) + (uint64_t(a.count) - 1) * stride + elem;
    if (a.count > (uint64_t(1) << 32) || need > uint64_t(v.byteLength))
        c.fail(where, std::to_string(a.count) + " elements need " + std::to_string(need) + " bytes; the view holds " +
                          std::to_string(v.byteLength));
    s.base = data.data() + v.byteOffset + a.byteOffset;
    s.stride = size_t(stride);
    return s;
}

double component(const AccessorSpan& s, size_t i, size_t k) {
    const unsigned char* p = s.base + i * s.stride + k * s.compSize;
    switch (s.componentType) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return s.normalized ? p[0] / 255.0 : p[0];
    case TINYGLTF_COMPONENT_TYPE_BYTE:
        return s.normalized ? std::max(int8_t(p[0]) / 127.0, -1.0) : double(int8_t(p[0]));
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        uint16_t u;
        std::memcpy(&u, p, 2);
        return s.normalized ? u / 65535.0 : u;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
        int16_t u;
        std::memcpy(&u, p, 2);
        return s.normalized ? std::max(u / 32767.0, -1.0) : u;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
        uint32_t u;
        std::memcpy(&u, p, 4);
        return u;
    }
    default:
        return 0.0;
    }
}

// Every component as a float (integers normalised when the accessor says so); non-finite values refused.
std::vector<float> readFloats(const Ctx& c, int index, const std::string& what, std::initializer_list<int> types,
                              size_t* compsOut = nullptr) {
    const AccessorSpan s = accessorSpan(c, index, what, types);
    if (s.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        c.fail("accessors[" + std::to_string(index) + "] (" + what + ")", "32-bit integers where floats are expected");
    std::vector<float> out(s.count * s.comps);
    for (size_t i = 0; i < s.count; ++i)
        for (size_t k = 0; k < s.comps; ++k) {
            const double v = component(s, i, k);
            if (!finite(v) || std::abs(v) > 3.0e38)
                c.fail("accessors[" + std::to_string(index) + "] (" + what + ")",
                       "element " + std::to_string(i) + " is not a finite number");
            out[i * s.comps + k] = float(v);
        }
    if (compsOut) *compsOut = s.comps;
    return out;
}

std::vector<uint32_t> readUints(const Ctx& c, int index, const std::string& what, std::initializer_list<int> types,
                                size_t* compsOut = nullptr) {
    const AccessorSpan s = accessorSpan(c, index, what, types);
    if (s.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
        s.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        s.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        c.fail("accessors[" + std::to_string(index) + "] (" + what + ")", "indices must be unsigned integers");
    std::vector<uint32_t> out(s.count * s.comps);
    AccessorSpan raw = s;
    raw.normalized = false;
    for (size_t i = 0; i < s.count; ++i)
        for (size_t k = 0; k < s.comps; ++k)
            out[i * s.comps + k] = uint32_t(component(raw, i, k));
    if (compsOut) *compsOut = s.comps;
    return out;
}

// ------------------------------------------------------------------------------------------------ transforms

struct Trs {
    glm::vec3 t{0.0f};
    glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 s{1.0f};
};

glm::mat4 compose(const Trs& x) {
    return glm::translate(glm::mat4(1.0f), x.t) * glm::mat4_cast(x.r) * glm::scale(glm::mat4(1.0f), x.s);
}

// The node's rest transform as TRS (a matrix is decomposed; shear is refused by the caller's check).
Trs nodeTrs(const Ctx& c, int i) {
    const tinygltf::Node& n = c.g->nodes[size_t(i)];
    Trs x;
    auto check = [&](const std::vector<double>& v, size_t size, const char* what) {
        if (v.empty()) return false;
        if (v.size() != size)
            c.fail(nodeWhere(*c.g, i), std::string(what) + " holds " + std::to_string(v.size()) + " numbers");
        for (double d : v)
            if (!finite(d) || std::abs(d) > 3.0e38) c.fail(nodeWhere(*c.g, i), std::string(what) + " is not finite");
        return true;
    };
    if (check(n.matrix, 16, "matrix")) {
        glm::mat4 m;
        for (int k = 0; k < 16; ++k)
            m[k / 4][k % 4] = float(n.matrix[size_t(k)]);
        glm::vec3 skew;
        glm::vec4 persp;
        glm::quat r;
        if (!glm::decompose(m, x.s, r, x.t, skew, persp)) c.fail(nodeWhere(*c.g, i), "matrix cannot be decomposed");
        x.r = glm::normalize(r);
        return x;
    }
    if (check(n.translation, 3, "translation"))
        x.t = glm::vec3(float(n.translation[0]), float(n.translation[1]), float(n.translation[2]));
    if (check(n.rotation, 4, "rotation")) {
        x.r = glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
        if (glm::length(x.r) < 1e-6f) c.fail(nodeWhere(*c.g, i), "rotation is a zero quaternion");
        x.r = glm::normalize(x.r);
    }
    if (check(n.scale, 3, "scale")) x.s = glm::vec3(float(n.scale[0]), float(n.scale[1]), float(n.scale[2]));
    return x;
}

// glTF space -> game space: a rotation G (identity for --up z) and a uniform scale.
struct Axes {
    glm::quat q{1.0f, 0.0f, 0.0f, 0.0f};
    glm::mat3 m{1.0f};
    float scale = 1.0f;
    glm::vec3 point(const glm::vec3& p) const { return m * p * scale; }
    glm::vec3 dir(const glm::vec3& d) const { return m * d; }
    Trs trs(const Trs& x) const {
        Trs o;
        o.t = point(x.t);
        o.r = glm::normalize(q * x.r * glm::conjugate(q));
        o.s = glm::abs(m * x.s); // G is an axis permutation with signs: a diagonal scale stays diagonal
        return o;
    }
    glm::mat4 mat(const glm::mat4& x) const { // S G X G^-1 S^-1
        glm::mat4 G(m), Gi(glm::transpose(m));
        glm::mat4 r = G * x * Gi;
        r[3] = glm::vec4(glm::vec3(r[3]) * scale, 1.0f);
        return r;
    }
};

Axes makeAxes(const ImportOptions& o) {
    Axes a;
    a.scale = o.scale;
    if (!o.zUp) { // glTF (x, y, z) -> game (x, -z, y): +90 degrees about X
        a.m = glm::mat3(glm::vec3(1, 0, 0), glm::vec3(0, 0, 1), glm::vec3(0, -1, 0));
        a.q = glm::quat_cast(a.m);
    }
    return a;
}

// ------------------------------------------------------------------------------------------------ extras

const tinygltf::Value* member(const tinygltf::Value& v, const char* key) {
    if (!v.IsObject() || !v.Has(key)) return nullptr;
    return &v.Get(key);
}

// extras.alamo, or the extras themselves when they carry rigscope's exporter's keys.
const tinygltf::Value* alamoExtras(const tinygltf::Value& extras) {
    if (const tinygltf::Value* a = member(extras, "alamo")) return a->IsObject() ? a : nullptr;
    return nullptr;
}

std::string stringOf(const tinygltf::Value* v) { return v && v->IsString() ? v->Get<std::string>() : std::string(); }

bool numberOf(const tinygltf::Value* v, double& out) {
    if (!v || !v->IsNumber()) return false;
    out = v->GetNumberAsDouble();
    return finite(out);
}

bool boolOf(const tinygltf::Value* v, bool fallback) {
    if (v && v->IsBool()) return v->Get<bool>();
    double d;
    if (numberOf(v, d)) return d != 0.0;
    return fallback;
}

// Material parameters from an {"Name": value} object: integer -> Int, number -> Float, [3]/[4] -> Float3/Float4,
// string -> Texture.
void readParams(const Ctx& c, const tinygltf::Value& obj, const std::string& where, std::vector<MaterialParam>& out) {
    if (!obj.IsObject()) return;
    for (const std::string& key : obj.Keys()) {
        const tinygltf::Value& v = obj.Get(key);
        MaterialParam p;
        p.name = key;
        if (p.name.size() > limits::kAlamoMiniChunkString) c.fail(where, "parameter name longer than 254 bytes");
        if (v.IsInt()) {
            p.type = ParamType::Int;
            p.intValue = v.Get<int>();
        } else if (v.IsNumber()) {
            p.type = ParamType::Float;
            p.value.x = float(v.GetNumberAsDouble());
            if (!std::isfinite(p.value.x)) c.fail(where, "parameter " + key + " is not finite");
        } else if (v.IsString()) {
            p.type = ParamType::Texture;
            p.texture = v.Get<std::string>();
            if (p.texture.size() > limits::kAlamoMiniChunkString)
                c.fail(where, "texture name of " + key + " longer than 254 bytes");
        } else if (v.IsArray() && (v.ArrayLen() == 3 || v.ArrayLen() == 4)) {
            p.type = v.ArrayLen() == 3 ? ParamType::Float3 : ParamType::Float4;
            for (size_t k = 0; k < v.ArrayLen(); ++k) {
                double d;
                if (!numberOf(&v.Get(int(k)), d)) c.fail(where, "parameter " + key + " holds a non-number");
                p.value[int(k)] = float(d);
            }
        } else {
            continue;
        }
        bool replaced = false;
        for (MaterialParam& q : out)
            if (iequals(q.name, p.name)) q = p, replaced = true;
        if (!replaced) out.push_back(std::move(p));
    }
}

MaterialParam f4(const char* name, glm::vec4 v) {
    MaterialParam p;
    p.name = name;
    p.type = ParamType::Float4;
    p.value = v;
    return p;
}
MaterialParam f1(const char* name, float v) {
    MaterialParam p;
    p.name = name;
    p.type = ParamType::Float;
    p.value.x = v;
    return p;
}
MaterialParam tex(const char* name, const std::string& t) {
    MaterialParam p;
    p.name = name;
    p.type = ParamType::Texture;
    p.texture = t;
    return p;
}

// ------------------------------------------------------------------------------------------------ the converter

struct NodeInfo {
    int parent = -1;     // parent node, -1 for a scene root
    int bone = -1;       // its bone, or -1 (skinned mesh nodes; attachments: attachBone)
    int attachBone = -1; // the bone what it carries hangs from
    bool inScene = false;
    bool skinnedMeshNode = false;
};

struct Converter {
    Ctx c;
    const GModel& g;
    ImportOptions opt;
    Axes ax;
    ImportResult out;
    std::vector<NodeInfo> nodes;
    std::vector<int> boneNode;             // node of each bone (-1: the synthetic Root)
    std::vector<bool> lightBone;           // per bone: a leaf light node's (bindLocal * G, see isLightLeaf)
    std::vector<Trs> restGame;             // per node, game-space rest TRS
    float sceneExtent = 0.0f;              // the largest |translation| summed along a node's chain of parents
    std::vector<std::string> textureNames; // per image

    Converter(const std::string& file, const GModel& model, const ImportOptions& o) : g(model), opt(o) {
        c.file = file;
        c.g = &model;
        ax = makeAxes(o);
    }

    void report(const std::string& s) {
        if (out.report.size() < 256) out.report.push_back(s);
    }

    // rigscope's exporter's markers (W3D boxes and nulls, B&W2 entities): no Alamo object holds them.
    bool isMarker(int i) const {
        const tinygltf::Node& n = g.nodes[size_t(i)];
        const std::string kind = stringOf(member(n.extras, "kind"));
        return n.children.empty() && n.mesh < 0 &&
               (kind == "box" || kind == "null" || kind == "marker" || kind == "entity");
    }

    bool isAttachmentLeaf(int i) const {
        const tinygltf::Node& n = g.nodes[size_t(i)];
        if (!n.children.empty() || n.skin >= 0 || n.camera >= 0) return false;
        const Trs& t = restGame[size_t(i)];
        const bool light = n.extensions.count("KHR_lights_punctual") != 0;
        const std::string kind = stringOf(member(n.extras, "kind"));
        const bool proxyOrDazzle = kind == "proxy" || kind == "dazzle";
        if (isMarker(i)) return true;
        if (n.mesh < 0 && !light && !proxyOrDazzle) return false;
        if (n.mesh >= 0 && (light || proxyOrDazzle)) return false;
        if (const tinygltf::Value* a = alamoExtras(n.extras); a && (member(*a, "billboard") || member(*a, "bone")))
            return false;
        // Identity, up to the light's own convention (a light shines along its node's -Z; Alamo along the bone's
        // game -Z: the exporter writes the axis change as the light node's rotation), and a dazzle's offset. A
        // zero scale (the exporter's hidden attachment) hides the bone it hangs from.
        const glm::quat want = light ? glm::conjugate(ax.q) : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
        const bool rotOk = std::abs(std::abs(glm::dot(t.r, want)) - 1.0f) < 1e-5f;
        // Translation: zero up to float noise at the scene's size (a DCC tool's re-export, Blender's for one,
        // writes a few 1e-7 of the coordinates it composed the node from).
        const bool tOk = kind == "dazzle" || glm::length(t.t) < 1e-6f * std::max(1.0f, sceneExtent);
        const bool sOk = glm::all(glm::lessThan(glm::abs(t.s - glm::vec3(1.0f)), glm::vec3(1e-6f))) ||
                         glm::all(glm::lessThan(glm::abs(t.s), glm::vec3(1e-8f)));
        return rotOk && tOk && sOk;
    }
    // A leaf light node that is a bone of its own: the bone turns the game's -Z onto the glTF light's -Z.
    bool isLightLeaf(int i) const {
        const tinygltf::Node& n = g.nodes[size_t(i)];
        return n.children.empty() && n.extensions.count("KHR_lights_punctual") != 0;
    }

    void buildSkeleton() {
        const size_t nn = g.nodes.size();
        if (nn > 4 * limits::kImportMaxBones)
            c.fail("nodes", std::to_string(nn) + " nodes; the importer takes at most " +
                                std::to_string(4 * limits::kImportMaxBones));
        for (size_t s = 0; s < g.skins.size(); ++s)
            if (g.skins[s].joints.size() > limits::kImportMaxBones)
                c.fail("skins[" + std::to_string(s) + "]" + quoted(g.skins[s].name),
                       std::to_string(g.skins[s].joints.size()) + " joints; at most " +
                           std::to_string(limits::kImportMaxBones) + " bones are taken");
        nodes.assign(nn, {});
        for (size_t i = 0; i < nn; ++i)
            for (int ch : g.nodes[i].children) {
                if (ch < 0 || size_t(ch) >= nn)
                    c.fail(nodeWhere(g, int(i)), "child " + std::to_string(ch) + " is not a node");
                if (size_t(ch) == i) c.fail(nodeWhere(g, int(i)), "is its own child (a cycle in the node graph)");
                if (nodes[size_t(ch)].parent >= 0)
                    c.fail(nodeWhere(g, ch), "has two parents (" + nodeWhere(g, nodes[size_t(ch)].parent) + " and " +
                                                 nodeWhere(g, int(i)) + ")");
                nodes[size_t(ch)].parent = int(i);
            }
        // Cycles: every node's chain of parents must end within nn steps.
        for (size_t i = 0; i < nn; ++i) {
            int p = nodes[i].parent;
            size_t steps = 0;
            while (p >= 0) {
                if (++steps > nn || size_t(p) == i) c.fail(nodeWhere(g, int(i)), "lies on a cycle in the node graph");
                p = nodes[size_t(p)].parent;
            }
        }
        int sceneIndex = g.defaultScene >= 0 ? g.defaultScene : 0;
        if (g.scenes.empty()) c.fail("scenes", "no scene");
        if (size_t(sceneIndex) >= g.scenes.size())
            c.fail("scene", "default scene " + std::to_string(sceneIndex) + " does not exist");
        const tinygltf::Scene& scene = g.scenes[size_t(sceneIndex)];
        std::vector<int> roots;
        for (int r : scene.nodes) {
            if (r < 0 || size_t(r) >= nn)
                c.fail("scenes[" + std::to_string(sceneIndex) + "]", "root " + std::to_string(r) + " is not a node");
            if (nodes[size_t(r)].parent >= 0)
                c.fail(nodeWhere(g, r), "is a scene root and a child of " + nodeWhere(g, nodes[size_t(r)].parent));
            if (nodes[size_t(r)].inScene) c.fail(nodeWhere(g, r), "listed twice as a scene root");
            nodes[size_t(r)].inScene = true;
            roots.push_back(r);
        }
        restGame.resize(nn);
        for (size_t i = 0; i < nn; ++i)
            restGame[i] = ax.trs(nodeTrs(c, int(i)));
        for (size_t i = 0; i < nn; ++i) { // chains end within nn steps (checked above)
            float sum = 0.0f;
            for (int p = int(i); p >= 0; p = nodes[size_t(p)].parent)
                sum += glm::length(restGame[size_t(p)].t);
            if (std::isfinite(sum)) sceneExtent = std::max(sceneExtent, sum);
        }
        for (size_t i = 0; i < nn; ++i)
            if (g.nodes[i].mesh >= 0 && g.nodes[i].skin >= 0) nodes[i].skinnedMeshNode = true;

        // Mark every node reachable from the roots (depth-first, explicit stack: depth is bounded by nn).
        std::vector<int> order;
        {
            std::vector<int> stack(roots.rbegin(), roots.rend());
            while (!stack.empty()) {
                const int n = stack.back();
                stack.pop_back();
                nodes[size_t(n)].inScene = true;
                order.push_back(n);
                const auto& ch = g.nodes[size_t(n)].children;
                for (auto it = ch.rbegin(); it != ch.rend(); ++it)
                    stack.push_back(*it);
            }
        }
        // Root: the single root named Root, or the child Root of an identity wrapper, or a new one.
        Skeleton& sk = out.model.skeleton;
        auto isIdentity = [&](int n) {
            const Trs& t = restGame[size_t(n)];
            return glm::length(t.t) < 1e-7f && std::abs(std::abs(t.r.w) - 1.0f) < 1e-7f &&
                   glm::all(glm::lessThan(glm::abs(t.s - glm::vec3(1.0f)), glm::vec3(1e-7f)));
        };
        auto animated = [&](int n) {
            for (const auto& a : g.animations)
                for (const auto& ch : a.channels)
                    if (ch.target_node == n) return true;
            return false;
        };
        std::vector<int> skipNodes; // wrapper nodes that become no bone
        int rootNode = -1;
        std::vector<int> boneRoots;
        for (int r : roots)
            if (!nodes[size_t(r)].skinnedMeshNode) boneRoots.push_back(r);
        if (boneRoots.size() == 1 && isRootName(g.nodes[size_t(boneRoots[0])].name)) {
            rootNode = boneRoots[0];
        } else if (boneRoots.size() == 1 && isIdentity(boneRoots[0]) && g.nodes[size_t(boneRoots[0])].mesh < 0 &&
                   !animated(boneRoots[0])) {
            // Its children besides skinned mesh nodes (which are no bones: Blender's armature node holds the
            // skinned meshes beside the Root bone) must be one node named Root.
            std::vector<int> ch;
            for (int k : g.nodes[size_t(boneRoots[0])].children)
                if (k >= 0 && size_t(k) < nn && !nodes[size_t(k)].skinnedMeshNode) ch.push_back(k);
            if (ch.size() == 1 && isRootName(g.nodes[size_t(ch[0])].name)) {
                rootNode = ch[0];
                skipNodes.push_back(boneRoots[0]);
            }
        }
        auto addBone = [&](int node, int parentBone) {
            if (sk.bones.size() >= limits::kImportMaxBones)
                c.fail(nodeWhere(g, node), "more than " + std::to_string(limits::kImportMaxBones) + " bones");
            Bone b;
            const Trs& t = restGame[size_t(node)];
            b.name = g.nodes[size_t(node)].name.empty() ? "Node" + std::to_string(node) : g.nodes[size_t(node)].name;
            b.parent = parentBone;
            Trs bind = t;
            // Stated visibility: extras.alamo.visible, else rigscope's exporter's extras.visible, else visible; a
            // zero scale hides the node whatever is stated (the bone keeps scale 1 and is hidden). Reconciled with
            // what the attachments show in reconcileVisibility.
            b.visible = boolOf(member(g.nodes[size_t(node)].extras, "visible"), true);
            if (const tinygltf::Value* a = alamoExtras(g.nodes[size_t(node)].extras)) {
                double d;
                if (numberOf(member(*a, "billboard"), d)) {
                    if (d < 0 || d > 7) c.fail(nodeWhere(g, node), "extras.alamo.billboard must be 0..7");
                    b.billboard = int(d);
                }
                b.visible = boolOf(member(*a, "visible"), b.visible);
            }
            if (zeroScale(bind.s)) {
                b.visible = false;
                bind.s = glm::vec3(1.0f);
            }
            b.bindLocal = compose(bind);
            if (isLightLeaf(node)) b.bindLocal = b.bindLocal * glm::mat4_cast(ax.q);
            lightBone.push_back(isLightLeaf(node));
            if (b.name.size() > limits::kAlamoMiniChunkString) c.fail(nodeWhere(g, node), "name longer than 254 bytes");
            sk.bones.push_back(std::move(b));
            boneNode.push_back(node);
            return int(sk.bones.size() - 1);
        };
        if (rootNode >= 0) {
            nodes[size_t(rootNode)].bone = addBone(rootNode, -1);
        } else {
            Bone b;
            b.name = "Root";
            sk.bones.push_back(b);
            boneNode.push_back(-1);
            lightBone.push_back(false);
            report("added a Root bone above the scene's root nodes");
        }
        for (int n : order) {
            if (n == rootNode || std::find(skipNodes.begin(), skipNodes.end(), n) != skipNodes.end()) continue;
            NodeInfo& ni = nodes[size_t(n)];
            int p = ni.parent;
            while (p >= 0 && nodes[size_t(p)].bone < 0) {
                if (nodes[size_t(p)].skinnedMeshNode)
                    report(nodeWhere(g, n) + " hangs from a skinned mesh node, whose transform glTF ignores: "
                                             "placed under that node's parent");
                p = nodes[size_t(p)].parent;
            }
            const int parentBone = p >= 0 && nodes[size_t(p)].bone >= 0 ? nodes[size_t(p)].bone : 0;
            if (ni.skinnedMeshNode) {
                ni.attachBone = 0;
                continue;
            }
            if (p >= 0 && isMarker(n)) {
                report(nodeWhere(g, n) + " is a marker (" + stringOf(member(g.nodes[size_t(n)].extras, "kind")) +
                       "): not imported");
                ni.attachBone = parentBone;
                continue;
            }
            if (p >= 0 && isAttachmentLeaf(n) && !animatedOtherThanScale(n)) {
                ni.attachBone = parentBone;
                continue;
            }
            ni.bone = addBone(n, parentBone);
            ni.attachBone = ni.bone;
        }
        // Default visibility: the stated flags, reconciled with the attachments' rest scales.
        {
            std::vector<uint8_t> flag(sk.bones.size()), nodeZero(nn);
            for (size_t b = 0; b < sk.bones.size(); ++b)
                flag[b] = sk.bones[b].visible;
            for (size_t i = 0; i < nn; ++i)
                nodeZero[i] = zeroScale(restGame[i].s);
            const std::vector<uint8_t> own = reconcileVisibility(flag, shownBy(nodeZero));
            for (size_t b = 0; b < sk.bones.size(); ++b) {
                if (own[b] != flag[b])
                    report("bone " + sk.bones[b].name + ": " + (own[b] ? "shown" : "hidden") +
                           " by default as its attachments' scales show, though its node states otherwise");
                sk.bones[b].visible = own[b] != 0;
            }
        }
        for (size_t i = 0; i < nn; ++i)
            if (!nodes[i].inScene && g.nodes[i].mesh >= 0)
                report("node " + nodeWhere(g, int(i)) + " is not in the scene: not imported");
    }

    static bool zeroScale(const glm::vec3& s) { return glm::any(glm::lessThan(glm::abs(s), glm::vec3(1e-8f))); }

    // Per bone, what its attachments (the non-bone nodes it carries: meshes, lights, proxies, dazzles, markers)
    // show given each node's zero scale (nodeZero, per glTF node, along the attachment's chain of nodes, as glTF
    // draws): -1 nothing attached, 0 one of them is hidden, 1 they show.
    std::vector<int8_t> shownBy(const std::vector<uint8_t>& nodeZero) const {
        std::vector<int8_t> shown(out.model.skeleton.bones.size(), -1);
        for (size_t n = 0; n < nodes.size(); ++n) {
            const NodeInfo& ni = nodes[n];
            if (!ni.inScene || ni.bone >= 0 || ni.skinnedMeshNode || ni.attachBone < 0 ||
                size_t(ni.attachBone) >= shown.size())
                continue;
            bool hidden = false;
            for (int k = int(n); k >= 0 && !hidden; k = nodes[size_t(k)].parent) // chains end (checked)
                hidden = nodeZero[size_t(k)] != 0;
            int8_t& s = shown[size_t(ni.attachBone)];
            s = hidden ? 0 : (s < 0 ? 1 : s);
        }
        return shown;
    }

    // The bones' own visibility at one instant. flag: each bone's own visibility as stated (its default flag, or
    // the exporter's extras track at that frame), 0 where its node has zero scale; shown: shownBy. What the glTF
    // shows wins, since every tool shows it: a bone with a shown attachment at or below it is visible, a bone with
    // a hidden attachment is hidden (unless a hidden ancestor already hides it); the flags decide the rest (bones
    // with nothing attached, and which bone of a hidden chain holds the hiding).
    std::vector<uint8_t> reconcileVisibility(const std::vector<uint8_t>& flag, const std::vector<int8_t>& shown) const {
        const auto& bones = out.model.skeleton.bones;
        const size_t nb = bones.size();
        std::vector<uint8_t> need(nb, 0), own(nb, 1), eff(nb, 1);
        for (size_t i = nb; i-- > 0;) {
            need[i] = need[i] || shown[i] == 1;
            const int p = bones[i].parent;
            if (p >= 0 && size_t(p) < i) need[size_t(p)] = need[size_t(p)] || need[i];
        }
        for (size_t i = 0; i < nb; ++i) {
            const int p = bones[i].parent;
            const uint8_t pe = p >= 0 && size_t(p) < i ? eff[size_t(p)] : 1;
            own[i] = need[i] ? 1 : flag[i];
            if (shown[i] == 0 && pe && own[i]) own[i] = 0;
            eff[i] = own[i] && pe;
        }
        return own;
    }

    bool animatedOtherThanScale(int n) const {
        for (const auto& a : g.animations)
            for (const auto& ch : a.channels)
                if (ch.target_node == n && ch.target_path != "scale") return true;
        return false;
    }

    // Bone world transforms at rest, game space.
    std::vector<glm::mat4> bindWorld() const {
        const auto& b = out.model.skeleton.bones;
        std::vector<glm::mat4> w(b.size());
        out.model.skeleton.bindWorld(w.data());
        return w;
    }

    // ---- textures

    void nameTextures() {
        textureNames.resize(g.images.size());
        for (size_t i = 0; i < g.images.size(); ++i) {
            const tinygltf::Image& im = g.images[i];
            std::string stem = im.name;
            if (stem.empty() && !im.uri.empty() && im.uri.rfind("data:", 0) != 0)
                stem = fs::path(im.uri).stem().string();
            if (stem.empty()) stem = "texture" + std::to_string(i);
            const std::string ext = fs::path(stem).extension().string();
            if (iequals(ext, ".dds") || iequals(ext, ".tga")) stem = fs::path(stem).stem().string();
            for (char& ch : stem)
                if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-')) ch = '_';
            textureNames[i] = stem + ".dds";
            if (textureNames[i].size() > limits::kAlamoMiniChunkString)
                c.fail("images[" + std::to_string(i) + "]", "texture name longer than 254 bytes");
        }
    }

    std::string textureOf(int textureIndex, const std::string& where) {
        if (textureIndex < 0) return {};
        if (size_t(textureIndex) >= g.textures.size())
            c.fail(where, "texture " + std::to_string(textureIndex) + " does not exist");
        const int src = g.textures[size_t(textureIndex)].source;
        if (src < 0 || size_t(src) >= g.images.size())
            c.fail("textures[" + std::to_string(textureIndex) + "]", "no image");
        return textureNames[size_t(src)];
    }

    // ---- materials

    Material material(int mi, bool skinned, bool haveTangents, std::string& vertexFormat) {
        Material m;
        const std::string prefix = skinned ? "RSkin" : "Mesh";
        std::string shader;
        bool bump = false;
        std::vector<MaterialParam> params;
        if (mi >= 0) {
            if (size_t(mi) >= g.materials.size())
                c.fail("materials", "material " + std::to_string(mi) + " does not exist");
            const tinygltf::Material& gm = g.materials[size_t(mi)];
            const std::string where = "materials[" + std::to_string(mi) + "]" + quoted(gm.name);
            const auto& pbr = gm.pbrMetallicRoughness;
            glm::vec4 base(1.0f);
            if (pbr.baseColorFactor.size() == 4)
                for (int k = 0; k < 4; ++k) {
                    if (!finite(pbr.baseColorFactor[size_t(k)])) c.fail(where, "baseColorFactor is not finite");
                    base[k] = float(pbr.baseColorFactor[size_t(k)]);
                }
            glm::vec4 em(0.0f);
            if (gm.emissiveFactor.size() == 3)
                for (int k = 0; k < 3; ++k) {
                    if (!finite(gm.emissiveFactor[size_t(k)])) c.fail(where, "emissiveFactor is not finite");
                    em[k] = float(gm.emissiveFactor[size_t(k)]);
                }
            const std::string baseTex = textureOf(pbr.baseColorTexture.index, where);
            const std::string normalTex = textureOf(gm.normalTexture.index, where);
            bump = !normalTex.empty() && haveTangents;
            const bool alpha = gm.alphaMode == "BLEND" || gm.alphaMode == "MASK";
            shader = prefix + (bump ? "BumpColorize.fx" : alpha ? "Alpha.fx" : "Gloss.fx");
            params = {f4("Emissive", em), f4("Diffuse", base), f4("Specular", glm::vec4(0.5f, 0.5f, 0.5f, 1.0f)),
                      f1("Shininess", 32.0f)};
            if (!baseTex.empty()) params.push_back(tex("BaseTexture", baseTex));
            if (bump) {
                params.push_back(tex("NormalTexture", normalTex));
                params.push_back(f4("Colorization", glm::vec4(1.0f)));
            }
            // rigscope's exporter: the original shader and parameters; extras.alamo: set explicitly.
            const tinygltf::Value* rs = member(gm.extras, "shader") ? &gm.extras : nullptr;
            for (const tinygltf::Value* ex : {rs, alamoExtras(gm.extras)}) {
                if (!ex) continue;
                const std::string s = stringOf(member(*ex, "shader"));
                if (!s.empty()) {
                    shader = s;
                    if (const tinygltf::Value* p = member(*ex, "params"); p && p->IsObject()) params.clear();
                }
                if (const tinygltf::Value* p = member(*ex, "params")) readParams(c, *p, where, params);
                const std::string vf = stringOf(member(*ex, "vertexFormat"));
                if (!vf.empty()) vertexFormat = vf;
            }
        } else {
            shader = prefix + "Gloss.fx";
            params = {f4("Emissive", glm::vec4(0.0f)), f4("Diffuse", glm::vec4(1.0f)),
                      f4("Specular", glm::vec4(0.5f, 0.5f, 0.5f, 1.0f)), f1("Shininess", 32.0f)};
        }
        if (shader.size() > limits::kAlamoMiniChunkString) c.fail("materials", "shader name longer than 254 bytes");
        const bool shaderBump = toLower(shader).find("bump") != std::string::npos;
        if (skinned && !istartsWith(shader, "RSkin")) {
            report("shader " + shader + " on a skinned mesh: RSkin" +
                   shader.substr(std::min<size_t>(4, shader.size())) + " would skin it (kept as given)");
        }
        if (vertexFormat.empty())
            vertexFormat = std::string("alD3dVert") + (skinned ? "RSkin" : "") + "NU2" + (shaderBump ? "U3U3" : "");
        m.shader = shader;
        m.params = std::move(params);
        return m;
    }

    // ---- meshes

    struct Prim {
        std::vector<glm::vec3> pos, nrm, tan, bin;
        std::vector<glm::vec2> uv0, uv1;
        std::vector<glm::vec4> col;
        std::vector<int> bone; // skeleton bone per vertex (skinned): the heaviest joint's
        // Second influence (bonesPerVertex 2, skinned): its bone, its weight (0: none; the first takes 1 - w2), and
        // the vertex skinned by it alone (model space at the bind), as W3D's second-bone vertices hold it.
        std::vector<int> bone2;
        std::vector<float> weight2;
        std::vector<glm::vec3> pos2, nrm2;
        std::vector<uint32_t> idx;
        Material mat;
        std::string vertexFormat;
        bool skinned = false;
    };

    void buildMeshes() {
        const std::vector<glm::mat4> bw = bindWorld();
        // Node rest world in game space, for skinned vertices: bone world for bone nodes.
        for (size_t ni = 0; ni < g.nodes.size(); ++ni) {
            const tinygltf::Node& n = g.nodes[ni];
            if (n.mesh < 0 || !nodes[ni].inScene) continue;
            if (size_t(n.mesh) >= g.meshes.size())
                c.fail(nodeWhere(g, int(ni)), "mesh " + std::to_string(n.mesh) + " does not exist");
            const tinygltf::Mesh& gm = g.meshes[size_t(n.mesh)];
            const bool skinned = n.skin >= 0;
            std::vector<int> jointBone;
            std::vector<glm::mat4> jointSkin; // bindWorld(bone) * inverseBind (game space)
            if (skinned) {
                if (size_t(n.skin) >= g.skins.size())
                    c.fail(nodeWhere(g, int(ni)), "skin " + std::to_string(n.skin) + " does not exist");
                const tinygltf::Skin& s = g.skins[size_t(n.skin)];
                const std::string sw = "skins[" + std::to_string(n.skin) + "]" + quoted(s.name);
                std::vector<float> ibm;
                if (s.inverseBindMatrices >= 0) {
                    ibm = readFloats(c, s.inverseBindMatrices, sw + " inverseBindMatrices", {TINYGLTF_TYPE_MAT4});
                    if (ibm.size() != s.joints.size() * 16)
                        c.fail(sw, "inverseBindMatrices count differs from the joints'");
                }
                for (size_t j = 0; j < s.joints.size(); ++j) {
                    const int jn = s.joints[j];
                    if (jn < 0 || size_t(jn) >= g.nodes.size())
                        c.fail(sw, "joint " + std::to_string(jn) + " is not a node");
                    const int b = nodes[size_t(jn)].bone >= 0 ? nodes[size_t(jn)].bone : nodes[size_t(jn)].attachBone;
                    if (b < 0 || !nodes[size_t(jn)].inScene)
                        c.fail(sw, "joint " + nodeWhere(g, jn) + " is not a bone of the scene");
                    jointBone.push_back(b);
                    glm::mat4 inv(1.0f);
                    if (!ibm.empty())
                        for (int k = 0; k < 16; ++k)
                            inv[k / 4][k % 4] = ibm[j * 16 + size_t(k)];
                    // The bone's world may differ from the joint node's (an attachment joint): use the node's.
                    glm::mat4 jointWorld = bw[size_t(b)];
                    if (nodes[size_t(jn)].bone < 0) jointWorld = jointWorld * compose(restGame[size_t(jn)]);
                    const glm::mat4 m = jointWorld * ax.mat(inv);
                    // Alamo skins with world * inverse(bindWorld of the bone): vertices go to the bone's bind.
                    jointSkin.push_back(m);
                }
            }
            Mesh mesh;
            mesh.name = n.name.empty() ? (gm.name.empty() ? "Mesh" + std::to_string(ni) : gm.name) : n.name;
            if (mesh.name.size() > limits::kAlamoMiniChunkString)
                c.fail(nodeWhere(g, int(ni)), "name longer than 254 bytes");
            parseLodAlt(mesh.name, mesh.baseName, mesh.lod, mesh.alt);
            mesh.colorize = istartsWith(mesh.name, "FC_");
            mesh.bone = skinned ? 0 : nodes[ni].attachBone;
            if (const tinygltf::Value* a = alamoExtras(n.extras)) {
                mesh.hidden = boolOf(member(*a, "hidden"), false);
                mesh.collisionEnabled = boolOf(member(*a, "collision"), false);
                double d;
                if (numberOf(member(*a, "lod"), d)) mesh.lod = int(d);
                if (numberOf(member(*a, "alt"), d)) mesh.alt = int(d);
            }
            std::vector<Prim> prims;
            for (size_t pi = 0; pi < gm.primitives.size(); ++pi) {
                const std::string pw = meshWhere(g, n.mesh) + " primitives[" + std::to_string(pi) + "]";
                Prim p;
                if (!readPrimitive(gm.primitives[pi], pw, skinned, jointBone, jointSkin, p)) continue;
                prims.push_back(std::move(p));
            }
            splitIntoMeshes(std::move(mesh), prims);
        }
    }

    bool readPrimitive(const tinygltf::Primitive& gp, const std::string& pw, bool skinned,
                       const std::vector<int>& jointBone, const std::vector<glm::mat4>& jointSkin, Prim& p) {
        const int mode = gp.mode < 0 ? TINYGLTF_MODE_TRIANGLES : gp.mode;
        if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
            mode != TINYGLTF_MODE_TRIANGLE_FAN) {
            report(pw + ": mode " + std::to_string(mode) + " (points or lines) skipped");
            return false;
        }
        auto attr = [&](const char* name) {
            auto it = gp.attributes.find(name);
            return it == gp.attributes.end() ? -1 : it->second;
        };
        const int posA = attr("POSITION");
        if (posA < 0) c.fail(pw, "no POSITION");
        const std::vector<float> pos = readFloats(c, posA, "POSITION", {TINYGLTF_TYPE_VEC3});
        const size_t nv = pos.size() / 3;
        auto sized = [&](const std::vector<float>& v, size_t comps, const char* what) {
            if (v.size() != nv * comps) c.fail(pw, std::string(what) + " count differs from POSITION's");
        };
        std::vector<float> nrm, tan, uv0, uv1, col, w0, w1;
        std::vector<uint32_t> j0, j1;
        size_t colComps = 4;
        if (int a = attr("NORMAL"); a >= 0)
            nrm = readFloats(c, a, "NORMAL", {TINYGLTF_TYPE_VEC3}), sized(nrm, 3, "NORMAL");
        if (int a = attr("TANGENT"); a >= 0)
            tan = readFloats(c, a, "TANGENT", {TINYGLTF_TYPE_VEC4}), sized(tan, 4, "TANGENT");
        if (int a = attr("TEXCOORD_0"); a >= 0)
            uv0 = readFloats(c, a, "TEXCOORD_0", {TINYGLTF_TYPE_VEC2}), sized(uv0, 2, "TEXCOORD_0");
        if (int a = attr("TEXCOORD_1"); a >= 0)
            uv1 = readFloats(c, a, "TEXCOORD_1", {TINYGLTF_TYPE_VEC2}), sized(uv1, 2, "TEXCOORD_1");
        if (int a = attr("COLOR_0"); a >= 0) {
            col = readFloats(c, a, "COLOR_0", {TINYGLTF_TYPE_VEC3, TINYGLTF_TYPE_VEC4}, &colComps);
            sized(col, colComps, "COLOR_0");
        }
        if (skinned) {
            const int ja = attr("JOINTS_0"), wa = attr("WEIGHTS_0");
            if (ja < 0 || wa < 0) c.fail(pw, "a skinned mesh's primitive without JOINTS_0/WEIGHTS_0");
            j0 = readUints(c, ja, "JOINTS_0", {TINYGLTF_TYPE_VEC4});
            w0 = readFloats(c, wa, "WEIGHTS_0", {TINYGLTF_TYPE_VEC4});
            if (j0.size() != nv * 4 || w0.size() != nv * 4)
                c.fail(pw, "JOINTS_0/WEIGHTS_0 count differs from POSITION's");
            if (attr("JOINTS_1") >= 0 && attr("WEIGHTS_1") >= 0) {
                j1 = readUints(c, attr("JOINTS_1"), "JOINTS_1", {TINYGLTF_TYPE_VEC4});
                w1 = readFloats(c, attr("WEIGHTS_1"), "WEIGHTS_1", {TINYGLTF_TYPE_VEC4});
                if (j1.size() != nv * 4 || w1.size() != nv * 4)
                    c.fail(pw, "JOINTS_1/WEIGHTS_1 count differs from POSITION's");
            }
        }
        if (!gp.targets.empty()) report(pw + ": morph targets ignored (Alamo has none)");
        // Indices: as given or 0..n-1; strips and fans made lists.
        std::vector<uint32_t> raw;
        if (gp.indices >= 0) {
            raw = readUints(c, gp.indices, "indices", {TINYGLTF_TYPE_SCALAR});
        } else {
            raw.resize(nv);
            for (size_t i = 0; i < nv; ++i)
                raw[i] = uint32_t(i);
        }
        for (size_t i = 0; i < raw.size(); ++i)
            if (raw[i] >= nv)
                c.fail(pw, "index " + std::to_string(i) + " = " + std::to_string(raw[i]) + " outside its " +
                               std::to_string(nv) + " vertices");
        if (mode == TINYGLTF_MODE_TRIANGLES) {
            if (raw.size() % 3) c.fail(pw, "index count " + std::to_string(raw.size()) + " is not a multiple of 3");
            p.idx = std::move(raw);
        } else {
            for (size_t i = 2; i < raw.size(); ++i) {
                uint32_t a = mode == TINYGLTF_MODE_TRIANGLE_FAN ? raw[0] : raw[i - 2], b = raw[i - 1], d = raw[i];
                if (mode == TINYGLTF_MODE_TRIANGLE_STRIP && (i % 2)) std::swap(a, b);
                p.idx.insert(p.idx.end(), {a, b, d});
            }
        }
        // Vertices in game space (rigid: the node's own space = its bone's; skinned: model space at the bind).
        p.skinned = skinned;
        p.pos.resize(nv);
        if (!nrm.empty()) p.nrm.resize(nv);
        if (!tan.empty() && !nrm.empty()) p.tan.resize(nv), p.bin.resize(nv);
        size_t dropped = 0;
        float maxDropped = 0.0f;
        for (size_t v = 0; v < nv; ++v) {
            glm::vec3 P = ax.point(glm::vec3(pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2]));
            glm::vec3 N = nrm.empty() ? glm::vec3(0.0f) : ax.dir(glm::vec3(nrm[v * 3], nrm[v * 3 + 1], nrm[v * 3 + 2]));
            glm::vec3 T(0.0f);
            float tw = 1.0f;
            if (!p.tan.empty())
                T = ax.dir(glm::vec3(tan[v * 4], tan[v * 4 + 1], tan[v * 4 + 2])),
                tw = tan[v * 4 + 3] < 0 ? -1.0f : 1.0f;
            if (skinned) {
                int best = -1, second = -1;
                float bestW = -1.0f, secondW = 0.0f, total = 0.0f;
                auto consider = [&](const std::vector<uint32_t>& J, const std::vector<float>& W) {
                    for (int k = 0; k < 4; ++k) {
                        const float w = W[v * 4 + size_t(k)];
                        if (w < 0.0f) c.fail(pw, "vertex " + std::to_string(v) + " has a negative weight");
                        if (w == 0.0f) continue;
                        const uint32_t j = J[v * 4 + size_t(k)];
                        if (j >= jointBone.size())
                            c.fail(pw, "vertex " + std::to_string(v) + " names joint " + std::to_string(j) + " of " +
                                           std::to_string(jointBone.size()));
                        total += w;
                        if (best >= 0 && int(j) == best) { // the same joint twice: one influence
                            bestW += w;
                            continue;
                        }
                        if (second >= 0 && int(j) == second) {
                            secondW += w;
                            if (secondW > bestW) std::swap(best, second), std::swap(bestW, secondW);
                            continue;
                        }
                        if (w > bestW) {
                            second = best, secondW = std::max(bestW, 0.0f);
                            bestW = w, best = int(j);
                        } else if (w > secondW) {
                            secondW = w, second = int(j);
                        }
                    }
                };
                consider(j0, w0);
                if (!j1.empty()) consider(j1, w1);
                if (best < 0) c.fail(pw, "vertex " + std::to_string(v) + " has no weight");
                const bool two = opt.bonesPerVertex >= 2 && second >= 0 && secondW > 0.0f &&
                                 jointBone[size_t(second)] != jointBone[size_t(best)];
                const float kept = two ? bestW + secondW : bestW;
                const float lost = total > 0.0f ? 1.0f - kept / total : 0.0f;
                if (lost > 1e-4f) ++dropped, maxDropped = std::max(maxDropped, lost);
                const glm::vec3 P0 = P, N0 = N;
                const glm::mat4& M = jointSkin[size_t(best)];
                P = glm::vec3(M * glm::vec4(P0, 1.0f));
                const glm::mat3 Nm = glm::transpose(glm::inverse(glm::mat3(M)));
                N = Nm * N0;
                T = glm::mat3(M) * T;
                p.bone.push_back(jointBone[size_t(best)]);
                if (opt.bonesPerVertex >= 2) {
                    glm::vec3 P2 = P, N2 = N;
                    if (two) {
                        const glm::mat4& M2 = jointSkin[size_t(second)];
                        P2 = glm::vec3(M2 * glm::vec4(P0, 1.0f));
                        N2 = glm::transpose(glm::inverse(glm::mat3(M2))) * N0;
                        if (glm::length(N2) > 0.0f) N2 = glm::normalize(N2);
                    } else if (glm::length(N2) > 0.0f) {
                        N2 = glm::normalize(N2);
                    }
                    p.bone2.push_back(two ? jointBone[size_t(second)] : jointBone[size_t(best)]);
                    p.weight2.push_back(two ? secondW / kept : 0.0f);
                    p.pos2.push_back(P2);
                    p.nrm2.push_back(N2);
                }
            }
            p.pos[v] = P;
            if (!p.nrm.empty()) p.nrm[v] = glm::length(N) > 0.0f ? glm::normalize(N) : N;
            if (!p.tan.empty()) {
                const glm::vec3 Tn = glm::length(T) > 0.0f ? glm::normalize(T) : T;
                p.tan[v] = Tn;
                p.bin[v] = glm::cross(p.nrm[v], Tn) * tw;
            }
        }
        if (dropped)
            report(pw + ": " + std::to_string(dropped) + " of " + std::to_string(nv) +
                   (opt.bonesPerVertex >= 2
                        ? " vertices weighted more than two joints; each keeps its two heaviest (BFME skins bind two "
                          "bones per vertex; largest weight dropped "
                        : " vertices weighted several joints; each keeps its heaviest (RSkin binds one bone per "
                          "vertex; largest weight dropped ") +
                   std::to_string(maxDropped) + ")");
        if (!uv0.empty()) {
            p.uv0.resize(nv);
            for (size_t v = 0; v < nv; ++v)
                p.uv0[v] = {uv0[v * 2], 1.0f - uv0[v * 2 + 1]};
        }
        if (!uv1.empty()) {
            p.uv1.resize(nv);
            for (size_t v = 0; v < nv; ++v)
                p.uv1[v] = {uv1[v * 2], 1.0f - uv1[v * 2 + 1]};
        }
        if (!col.empty()) {
            p.col.resize(nv);
            for (size_t v = 0; v < nv; ++v)
                p.col[v] = glm::vec4(col[v * colComps], col[v * colComps + 1], col[v * colComps + 2],
                                     colComps == 4 ? col[v * 4 + 3] : 1.0f);
        }
        p.mat = material(gp.material, skinned, !p.tan.empty(), p.vertexFormat);
        if (!p.col.empty() && p.vertexFormat.back() != 'C') p.vertexFormat += "C";
        return !p.idx.empty();
    }

    // Cuts a primitive's triangles into sub-meshes within the limits: palette bones (skinned), vertices.
    std::vector<SubMesh> cut(const Prim& p, const std::string& meshName) {
        std::vector<SubMesh> subs;
        const size_t maxBones = limits::kAlamoSkinPaletteBones;
        const size_t maxVerts = limits::kAlamoVerticesPerSubMesh;
        const size_t maxTris = limits::kAlamoTrianglesPerMesh;
        SubMesh cur;
        std::unordered_map<uint32_t, uint32_t> remap;
        std::unordered_map<int, uint16_t> palette;
        auto start = [&]() {
            cur = SubMesh();
            cur.material = p.mat;
            cur.vertexFormat = p.vertexFormat;
            cur.space = VertexSpace::Model;
            remap.clear();
            palette.clear();
        };
        auto finish = [&]() {
            if (!cur.indices.empty()) subs.push_back(std::move(cur));
        };
        start();
        for (size_t t = 0; t + 2 < p.idx.size(); t += 3) {
            size_t newVerts = 0, newBones = 0;
            int seenB[6] = {-1, -1, -1, -1, -1, -1};
            int nSeen = 0;
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = p.idx[t + size_t(k)];
                bool dupV = remap.count(v) != 0;
                for (int q = 0; q < k; ++q)
                    dupV |= p.idx[t + size_t(q)] == v;
                if (!dupV) ++newVerts;
                if (p.skinned && !dupV) {
                    for (int slot = 0; slot < 2; ++slot) {
                        if (slot == 1 && (p.weight2.empty() || p.weight2[v] <= 0.0f)) break;
                        const int b = slot ? p.bone2[v] : p.bone[v];
                        bool dupB = palette.count(b) != 0;
                        for (int q = 0; q < nSeen; ++q)
                            dupB |= seenB[q] == b;
                        if (!dupB) seenB[nSeen++] = b, ++newBones;
                    }
                }
            }
            if (remap.size() + newVerts > maxVerts || cur.triangleCount() + 1 > maxTris ||
                (p.skinned && palette.size() + newBones > maxBones)) {
                finish();
                start();
            }
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = p.idx[t + size_t(k)];
                auto it = remap.find(v);
                if (it == remap.end()) {
                    const uint32_t nvIdx = uint32_t(cur.positions.size());
                    remap.emplace(v, nvIdx);
                    cur.positions.push_back(p.pos[v]);
                    if (!p.nrm.empty()) cur.normals.push_back(p.nrm[v]);
                    if (!p.tan.empty()) cur.tangents.push_back(p.tan[v]), cur.binormals.push_back(p.bin[v]);
                    if (!p.uv0.empty()) cur.uv0.push_back(p.uv0[v]);
                    if (!p.uv1.empty()) cur.uv1.push_back(p.uv1[v]);
                    if (!p.col.empty()) cur.colors.push_back(p.col[v]);
                    if (p.skinned) {
                        auto slotOf = [&](int b) {
                            auto pit = palette.find(b);
                            if (pit == palette.end()) {
                                pit = palette.emplace(b, uint16_t(cur.boneMap.size())).first;
                                cur.boneMap.push_back(b);
                            }
                            return pit->second;
                        };
                        const uint16_t s0 = slotOf(p.bone[v]);
                        if (!p.weight2.empty()) { // two bones per vertex (BFME): weights (1 - w2, w2)
                            const float w2 = p.weight2[v];
                            const uint16_t s1 = w2 > 0.0f ? slotOf(p.bone2[v]) : s0;
                            cur.boneIndices.push_back(glm::u16vec4(s0, s1, 0, 0));
                            cur.boneWeights.push_back(glm::vec4(1.0f - w2, w2, 0, 0));
                            cur.positions2.push_back(p.pos2[v]);
                            cur.normals2.push_back(p.nrm2[v]);
                        } else {
                            cur.boneIndices.push_back(glm::u16vec4(s0, 0, 0, 0));
                            cur.boneWeights.push_back(glm::vec4(1, 0, 0, 0));
                        }
                    }
                    it = remap.find(v);
                }
                cur.indices.push_back(it->second);
            }
        }
        finish();
        if (subs.size() > 1)
            report("mesh " + meshName + ": a primitive of " + std::to_string(p.idx.size() / 3) +
                   " triangles split into " + std::to_string(subs.size()) + " sub-meshes (at most " +
                   std::to_string(maxBones) + " bones per palette, " + std::to_string(maxVerts) + " vertices each)");
        return subs;
    }

    void splitIntoMeshes(Mesh mesh, const std::vector<Prim>& prims) {
        std::vector<SubMesh> subs;
        for (const Prim& p : prims)
            for (SubMesh& s : cut(p, mesh.name))
                subs.push_back(std::move(s));
        if (subs.empty()) return;
        // Meshes of at most kAlamoTrianglesPerMesh triangles: sub-meshes packed in order.
        std::vector<Mesh> parts;
        size_t tris = 0;
        for (SubMesh& s : subs) {
            if (parts.empty() || tris + s.triangleCount() > limits::kAlamoTrianglesPerMesh) {
                Mesh m = mesh;
                m.subMeshes.clear();
                if (!parts.empty()) m.name = mesh.name + "_PART" + std::to_string(parts.size());
                parts.push_back(std::move(m));
                tris = 0;
            }
            tris += s.triangleCount();
            parts.back().subMeshes.push_back(std::move(s));
        }
        if (parts.size() > 1)
            report("mesh " + mesh.name + " split into " + std::to_string(parts.size()) + " meshes of at most " +
                   std::to_string(limits::kAlamoTrianglesPerMesh) + " triangles");
        for (Mesh& m : parts) {
            bool first = true;
            for (const SubMesh& s : m.subMeshes)
                for (const glm::vec3& v : s.positions) {
                    if (first) m.boundsMin = m.boundsMax = v, first = false;
                    m.boundsMin = glm::min(m.boundsMin, v), m.boundsMax = glm::max(m.boundsMax, v);
                }
            out.model.meshes.push_back(std::move(m));
        }
    }

    // ---- proxies, dazzles, lights

    void buildAttachments() {
        for (size_t ni = 0; ni < g.nodes.size(); ++ni) {
            const tinygltf::Node& n = g.nodes[ni];
            if (!nodes[ni].inScene || nodes[ni].attachBone < 0 || nodes[ni].skinnedMeshNode) continue;
            const int bone = nodes[ni].attachBone;
            const std::string kind = stringOf(member(n.extras, "kind"));
            const tinygltf::Value* a = alamoExtras(n.extras);
            const std::string where = nodeWhere(g, int(ni));
            const bool proxy =
                kind == "proxy" || (a && member(*a, "proxy")) || (n.mesh < 0 && istartsWith(n.name, "P_"));
            if (proxy) {
                Proxy p;
                p.name = a && member(*a, "proxy") && member(*a, "proxy")->IsString() ? stringOf(member(*a, "proxy"))
                                                                                     : n.name;
                if (p.name.empty() || p.name.size() > limits::kAlamoMiniChunkString)
                    c.fail(where, "proxy name empty or longer than 254 bytes");
                p.bone = bone;
                const tinygltf::Value& src = kind == "proxy" ? n.extras : (a ? *a : n.extras);
                p.hidden = boolOf(member(src, "hidden"), false);
                p.altDecreaseStayHidden = boolOf(member(src, "altDecreaseStayHidden"), false);
                std::string base;
                int lod = -1;
                parseLodAlt(p.name, base, lod, p.alt);
                // One proxy per name and bone: a bone named P_* that carries the proxy node of the same name
                // (rigscope's exporter writes both) is one proxy, with the marked node's settings.
                const auto same = std::find_if(out.model.proxies.begin(), out.model.proxies.end(),
                                               [&](const Proxy& q) { return q.bone == p.bone && q.name == p.name; });
                if (same == out.model.proxies.end())
                    out.model.proxies.push_back(p);
                else if (kind == "proxy" || (a && member(*a, "proxy")))
                    *same = p;
            }
            if (kind == "dazzle" || (a && member(*a, "dazzle"))) {
                const tinygltf::Value& src = kind == "dazzle" ? n.extras : *member(*a, "dazzle");
                Dazzle d;
                d.name = n.name;
                d.bone = bone;
                if (nodes[ni].bone < 0) d.position = restGame[ni].t;
                double x;
                if (const tinygltf::Value* col = member(src, "color"); col && col->IsArray() && col->ArrayLen() == 3)
                    for (int k = 0; k < 3; ++k)
                        if (numberOf(&col->Get(k), x)) d.color[k] = float(x);
                if (numberOf(member(src, "radius"), x)) d.radius = float(x) * ax.scale;
                d.texture = stringOf(member(src, "texture"));
                if (numberOf(member(src, "texX"), x)) d.texX = int(x);
                if (numberOf(member(src, "texY"), x)) d.texY = int(x);
                if (numberOf(member(src, "texSize"), x)) d.texSize = int(x);
                if (numberOf(member(src, "frequency"), x)) d.frequency = float(x);
                if (numberOf(member(src, "phase"), x)) d.phase = float(x);
                d.nightOnly = boolOf(member(src, "nightOnly"), false);
                d.hidden = boolOf(member(src, "hidden"), false);
                if (numberOf(member(src, "bias"), x)) d.hasBias = true, d.bias = float(x);
                d.colorize = istartsWith(d.name, "FC_");
                if (d.name.size() > limits::kAlamoMiniChunkString || d.texture.size() > limits::kAlamoMiniChunkString)
                    c.fail(where, "dazzle name or texture longer than 254 bytes");
                out.model.dazzles.push_back(d);
            }
            auto le = n.extensions.find("KHR_lights_punctual");
            if (le != n.extensions.end()) {
                double li;
                if (!numberOf(member(le->second, "light"), li) || li < 0 || size_t(li) >= g.lights.size())
                    c.fail(where, "KHR_lights_punctual names no light");
                const tinygltf::Light& gl = g.lights[size_t(li)];
                Light l;
                l.name = n.name.empty() ? gl.name : n.name;
                l.bone = bone;
                l.type = gl.type == "directional" ? int(LightType::Directional)
                         : gl.type == "spot"      ? int(LightType::Spot)
                                                  : int(LightType::Omni);
                if (gl.color.size() == 3)
                    l.color = glm::vec3(float(gl.color[0]), float(gl.color[1]), float(gl.color[2]));
                l.intensity = float(gl.intensity);
                if (gl.range > 0) l.farAttenuationEnd = float(gl.range) * ax.scale;
                if (l.type == int(LightType::Spot)) {
                    l.falloffSize = float(gl.spot.outerConeAngle * 2.0);
                    l.hotspotSize = float(gl.spot.innerConeAngle * 2.0);
                }
                double x;
                if (numberOf(member(gl.extras, "farAttenuationStart"), x)) l.farAttenuationStart = float(x) * ax.scale;
                if (numberOf(member(gl.extras, "farAttenuationEnd"), x)) l.farAttenuationEnd = float(x) * ax.scale;
                if (!std::isfinite(l.intensity) || !std::isfinite(l.color.x) || !std::isfinite(l.color.y) ||
                    !std::isfinite(l.color.z) || !std::isfinite(l.falloffSize) || !std::isfinite(l.farAttenuationEnd))
                    c.fail(where, "light holds a non-finite number");
                out.model.lights.push_back(l);
            }
        }
    }

    // ---- clips

    struct Sampler {
        std::vector<float> in, outv;
        size_t comps = 0;
        int interp = 0; // 0 linear, 1 step, 2 cubic
    };

    Sampler sampler(const tinygltf::Animation& a, int ai, int si, const std::string& path) {
        const std::string w =
            "animations[" + std::to_string(ai) + "]" + quoted(a.name) + " samplers[" + std::to_string(si) + "]";
        if (si < 0 || size_t(si) >= a.samplers.size()) c.fail(w, "no such sampler");
        const tinygltf::AnimationSampler& s = a.samplers[size_t(si)];
        Sampler o;
        o.in = readFloats(c, s.input, "sampler input", {TINYGLTF_TYPE_SCALAR});
        if (o.in.empty()) c.fail(w, "no keys");
        for (size_t k = 1; k < o.in.size(); ++k)
            if (!(o.in[k] >= o.in[k - 1])) c.fail(w, "key times decrease at key " + std::to_string(k));
        if (o.in[0] < 0.0f) c.fail(w, "negative key time");
        o.comps = path == "rotation" ? 4 : 3;
        o.outv =
            readFloats(c, s.output, "sampler output", {path == "rotation" ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3});
        o.interp = s.interpolation == "STEP" ? 1 : s.interpolation == "CUBICSPLINE" ? 2 : 0;
        const size_t per = o.interp == 2 ? 3 : 1;
        if (o.outv.size() != o.in.size() * o.comps * per) c.fail(w, "output count does not match the input's");
        return o;
    }

    static glm::vec4 valueAt(const Sampler& s, size_t key, size_t part /*0 in-tangent, 1 value, 2 out-tangent*/) {
        const size_t per = s.interp == 2 ? 3 : 1;
        const size_t base = (key * per + (s.interp == 2 ? part : 0)) * s.comps;
        glm::vec4 v(0.0f);
        for (size_t k = 0; k < s.comps; ++k)
            v[int(k)] = s.outv[base + k];
        return v;
    }

    // glTF sampling (linear: lerp, rotations slerp along the shortest arc; step; cubic Hermite spline).
    static glm::vec4 sample(const Sampler& s, float t) {
        const size_t n = s.in.size();
        if (t <= s.in[0] || n == 1) return valueAt(s, 0, 1);
        if (t >= s.in[n - 1]) return valueAt(s, n - 1, 1);
        const size_t k = size_t(std::upper_bound(s.in.begin(), s.in.end(), t) - s.in.begin()) - 1;
        const float t0 = s.in[k], t1 = s.in[k + 1], dt = t1 - t0;
        const float u = dt > 0.0f ? (t - t0) / dt : 0.0f;
        if (s.interp == 1) return valueAt(s, k, 1);
        if (s.interp == 2) {
            const glm::vec4 p0 = valueAt(s, k, 1), m0 = valueAt(s, k, 2) * dt, p1 = valueAt(s, k + 1, 1),
                            m1 = valueAt(s, k + 1, 0) * dt;
            const float u2 = u * u, u3 = u2 * u;
            glm::vec4 v =
                (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * m1;
            if (s.comps == 4) v = glm::normalize(v);
            return v;
        }
        const glm::vec4 a = valueAt(s, k, 1), b = valueAt(s, k + 1, 1);
        if (s.comps == 4) {
            glm::quat qa(a.w, a.x, a.y, a.z), qb(b.w, b.x, b.y, b.z);
            const glm::quat q = glm::normalize(slerpQuat(glm::normalize(qa), glm::normalize(qb), u));
            return {q.x, q.y, q.z, q.w};
        }
        return a + (b - a) * u;
    }

    void buildClips() {
        std::vector<bool> used(opt.clips.size(), false);
        for (size_t ai = 0; ai < g.animations.size(); ++ai) {
            const tinygltf::Animation& a = g.animations[ai];
            const std::string name = a.name.empty() ? "clip" + std::to_string(ai) : a.name;
            if (!opt.clips.empty()) {
                bool want = false;
                for (size_t k = 0; k < opt.clips.size(); ++k)
                    if (iequals(opt.clips[k], name)) want = used[k] = true;
                if (!want) continue;
            }
            buildClip(a, int(ai), name);
        }
        for (size_t k = 0; k < opt.clips.size(); ++k)
            if (!used[k]) c.fail("animations", "no animation named " + opt.clips[k]);
    }

    // rigscope's exporter's extras.visibility on an animation: [{"bone": NAME, "time": [s...], "visible": [b...]}]
    // STEP keys of each bone's own visibility track. stated[f][bone] takes the key at or before frame f's time.
    void readOwnVisibility(const tinygltf::Animation& a, const std::string& aw, float end,
                           std::vector<std::vector<uint8_t>>& stated) {
        const tinygltf::Value* v = member(a.extras, "visibility");
        if (!v) return;
        const std::string where = aw + " extras.visibility";
        if (!v->IsArray()) c.fail(where, "must be an array");
        const auto& bones = out.model.skeleton.bones;
        for (size_t k = 0; k < v->ArrayLen(); ++k) {
            const tinygltf::Value& e = v->Get(int(k));
            const std::string ew = where + "[" + std::to_string(k) + "]";
            const std::string bone = stringOf(member(e, "bone"));
            const tinygltf::Value *tv = member(e, "time"), *vv = member(e, "visible");
            if (!tv || !vv || !tv->IsArray() || !vv->IsArray() || tv->ArrayLen() != vv->ArrayLen() ||
                tv->ArrayLen() == 0)
                c.fail(ew, "needs \"time\" and \"visible\" arrays of the same non-zero length");
            size_t b = 0;
            while (b < bones.size() && bones[b].name != bone)
                ++b;
            if (b == bones.size()) {
                report(ew + ": no bone named " + quoted(bone) + "; ignored");
                continue;
            }
            std::vector<std::pair<double, bool>> keys;
            for (size_t i = 0; i < tv->ArrayLen(); ++i) {
                double t;
                if (!numberOf(&tv->Get(int(i)), t)) c.fail(ew, "time[" + std::to_string(i) + "] is not a number");
                if (!keys.empty() && t < keys.back().first) c.fail(ew, "times must not decrease");
                const tinygltf::Value& x = vv->Get(int(i));
                if (!x.IsBool() && !x.IsNumber()) c.fail(ew, "visible[" + std::to_string(i) + "] is not a boolean");
                keys.emplace_back(t, boolOf(&x, true));
            }
            for (size_t f = 0; f < stated.size(); ++f) {
                const double t = std::min(double(f) / limits::kAlamoClipFps, double(end)) + 1e-4;
                size_t i = 0;
                while (i + 1 < keys.size() && keys[i + 1].first <= t)
                    ++i;
                stated[f][b] = keys[i].second;
            }
        }
    }

    void buildClip(const tinygltf::Animation& a, int ai, const std::string& name) {
        const std::string aw = "animations[" + std::to_string(ai) + "]" + quoted(a.name);
        struct Ch {
            int node;
            std::string path;
            Sampler s;
        };
        std::vector<Ch> chans;
        float end = 0.0f;
        for (size_t k = 0; k < a.channels.size(); ++k) {
            const tinygltf::AnimationChannel& ch = a.channels[k];
            if (ch.target_node < 0 || size_t(ch.target_node) >= g.nodes.size())
                c.fail(aw + " channels[" + std::to_string(k) + "]",
                       "target node " + std::to_string(ch.target_node) + " does not exist");
            if (ch.target_path == "weights") {
                report(aw + ": morph weights not imported");
                continue;
            }
            if (ch.target_path != "translation" && ch.target_path != "rotation" && ch.target_path != "scale")
                c.fail(aw + " channels[" + std::to_string(k) + "]", "unknown target path " + ch.target_path);
            if (!nodes[size_t(ch.target_node)].inScene) continue;
            Ch x{ch.target_node, ch.target_path, sampler(a, ai, ch.sampler, ch.target_path)};
            end = std::max(end, x.s.in.back());
            chans.push_back(std::move(x));
        }
        // rigscope's exporter's extras.frameCount and fps: the clip lasts that long even where its last keys
        // come earlier (a constant channel has one key, a visibility channel keys its changes only).
        if (double fc, fps; numberOf(member(a.extras, "frameCount"), fc) && numberOf(member(a.extras, "fps"), fps) &&
                            fc >= 1.0 && fps > 0.0 && !chans.empty())
            end = std::max(end, float((fc - 1.0) / fps));
        if (chans.empty()) {
            report(aw + ": animates nothing in the scene; no clip");
            return;
        }
        const double framesD = std::ceil(double(end) * limits::kAlamoClipFps - 1e-3) + 1.0;
        if (!(framesD <= double(limits::kImportMaxClipFrames)))
            c.fail(aw, "lasts " + std::to_string(end) + " s: more than " +
                           std::to_string(limits::kImportMaxClipFrames) + " frames");
        const uint32_t frames = std::max<uint32_t>(2, uint32_t(framesD));
        Clip clip;
        clip.format = Format::AlamoClip;
        clip.name = name;
        clip.fps = limits::kAlamoClipFps;
        clip.frameCount = frames;
        clip.version = opt.game == Game::Foc ? 2 : 1;
        const size_t nb = out.model.skeleton.bones.size();
        // Per bone: the local TRS per frame in glTF space (rest where not animated), and visibility.
        std::vector<bool> animated(nb, false), visAnimated(nb, false);
        std::vector<std::vector<Trs>> local(nb);
        std::vector<std::vector<uint8_t>> vis(nb);
        auto restOf = [&](int node) { return nodeTrs(c, node); };
        for (size_t b = 0; b < nb; ++b) {
            const int node = boneNode[b];
            local[b].assign(frames, node >= 0 ? restOf(node) : Trs());
        }
        // Per frame, per node: zero scale (visibility as glTF draws it), rest where the scale is not animated.
        std::vector<std::vector<uint8_t>> nodeZero(frames, std::vector<uint8_t>(g.nodes.size(), 0));
        for (size_t n = 0; n < g.nodes.size(); ++n)
            if (zeroScale(restGame[n].s))
                for (uint32_t f = 0; f < frames; ++f)
                    nodeZero[f][n] = 1;
        for (const Ch& ch : chans) {
            const NodeInfo& ni = nodes[size_t(ch.node)];
            const bool ownBone = ni.bone >= 0;
            const int b = ownBone ? ni.bone : ni.attachBone;
            if (b < 0) continue; // a skinned mesh node: its transform does not matter
            for (uint32_t f = 0; f < frames; ++f) {
                const float t = std::min(float(f) / limits::kAlamoClipFps, end);
                const glm::vec4 v = sample(ch.s, t);
                if (ch.path == "scale") nodeZero[f][size_t(ch.node)] = zeroScale(glm::vec3(v));
                if (!ownBone) continue; // an attachment: only its scale going to zero counts (visibility)
                animated[size_t(b)] = true;
                Trs& x = local[size_t(b)][f];
                if (ch.path == "translation")
                    x.t = glm::vec3(v);
                else if (ch.path == "rotation")
                    x.r = glm::normalize(glm::quat(v.w, v.x, v.y, v.z));
                else
                    x.s = glm::vec3(v);
            }
        }
        // Own visibility per frame: rigscope's exporter's extras.visibility (each bone's own track), else the
        // default flag, reconciled with what the attachments' scales show at that frame (reconcileVisibility).
        {
            const auto& bones = out.model.skeleton.bones;
            std::vector<std::vector<uint8_t>> stated(frames, std::vector<uint8_t>(nb));
            for (uint32_t f = 0; f < frames; ++f)
                for (size_t b = 0; b < nb; ++b)
                    stated[f][b] = bones[b].visible;
            readOwnVisibility(a, aw, end, stated);
            for (size_t b = 0; b < nb; ++b)
                vis[b].assign(frames, 1);
            for (uint32_t f = 0; f < frames; ++f) {
                for (size_t b = 0; b < nb; ++b)
                    if (boneNode[b] >= 0 && nodeZero[f][size_t(boneNode[b])]) stated[f][b] = 0;
                const std::vector<uint8_t> own = reconcileVisibility(stated[f], shownBy(nodeZero[f]));
                for (size_t b = 0; b < nb; ++b) {
                    vis[b][f] = own[b];
                    if (own[b] != uint8_t(bones[b].visible)) visAnimated[b] = true;
                }
            }
        }
        for (size_t b = 0; b < nb; ++b) {
            if (!animated[b] && !visAnimated[b]) continue;
            BoneTrack tr;
            tr.bone = int(b);
            tr.boneName = out.model.skeleton.bones[b].name;
            tr.mode = TrackMode::Replace;
            // Zero scale: hidden at that frame, scale held from the nearest frame with a scale.
            std::vector<Trs>& L = local[b];
            std::vector<bool> zero(frames, false);
            bool anyZero = false, anyNonZero = false;
            for (uint32_t f = 0; f < frames; ++f) {
                zero[f] = glm::any(glm::lessThan(glm::abs(L[f].s), glm::vec3(1e-8f)));
                anyZero |= zero[f];
                anyNonZero |= !zero[f];
            }
            if (anyZero) {
                for (uint32_t f = 0; f < frames; ++f) {
                    if (!zero[f]) continue;
                    glm::vec3 s(1.0f);
                    if (anyNonZero) {
                        for (uint32_t d = 1; d < frames; ++d) {
                            if (f >= d && !zero[f - d]) {
                                s = L[f - d].s;
                                break;
                            }
                            if (f + d < frames && !zero[f + d]) {
                                s = L[f + d].s;
                                break;
                            }
                        }
                    }
                    L[f].s = s;
                }
            }
            tr.translation.resize(frames);
            tr.rotation.resize(frames);
            tr.scale.resize(frames);
            glm::quat prev(1.0f, 0.0f, 0.0f, 0.0f);
            for (uint32_t f = 0; f < frames; ++f) {
                const Trs x = ax.trs(L[f]);
                glm::quat r = lightBone[b] ? glm::normalize(x.r * ax.q) : x.r;
                if (f > 0 && glm::dot(prev, r) < 0.0f) r = -r;
                prev = r;
                tr.translation[f] = x.t, tr.rotation[f] = r, tr.scale[f] = x.s;
            }
            auto constant3 = [&](std::vector<glm::vec3>& v) {
                for (const auto& x : v)
                    if (glm::any(glm::greaterThan(glm::abs(x - v[0]), glm::vec3(0.0f)))) return;
                v.resize(1);
            };
            auto constantQ = [&](std::vector<glm::quat>& v) {
                for (const auto& x : v)
                    if (x != v[0]) return;
                v.resize(1);
            };
            constant3(tr.translation);
            constant3(tr.scale);
            constantQ(tr.rotation);
            tr.defaultTranslation = tr.translation[0];
            tr.defaultRotation = tr.rotation[0];
            tr.defaultScale = tr.scale[0];
            if (visAnimated[b]) tr.visibility = vis[b];
            clip.tracks.push_back(std::move(tr));
        }
        if (clip.version == 2) {
            size_t nR = 0, nT = 0;
            for (const BoneTrack& t : clip.tracks)
                nR += t.rotation.size() > 1, nT += t.translation.size() > 1;
            if (4 * nR > limits::kAla2ComponentsPerFrame || 3 * nT > limits::kAla2ComponentsPerFrame)
                c.fail(aw, "animates too many bones for a format 2 clip's 16-bit offsets");
        }
        out.clips.push_back(std::move(clip));
    }

    void run() {
        buildSkeleton();
        nameTextures();
        buildMeshes();
        buildAttachments();
        buildClips();
        out.model.format = Format::AlamoModel;
        if (out.model.meshes.empty()) report("no mesh in the scene: the model holds bones only");
    }
};

bool noImageDecode(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int,
                   void*) {
    return true; // images are named, not decoded: the importer writes texture names only
}

// ImportOptions::keepImages: each image's encoded bytes kept by its index (still not decoded here).
bool keepImageBytes(tinygltf::Image*, const int index, std::string*, std::string*, int, int, const unsigned char* bytes,
                    int size, void* user) {
    auto* kept = static_cast<std::vector<std::vector<uint8_t>>*>(user);
    if (index >= 0 && bytes && size > 0) {
        if (kept->size() <= size_t(index)) kept->resize(size_t(index) + 1);
        (*kept)[size_t(index)].assign(bytes, bytes + size);
    }
    return true;
}

bool fsExists(const std::string& p, void*) { return isRegularFile(p); }
std::string fsExpand(const std::string& p, void*) { return p; }
bool fsRead(std::vector<unsigned char>* out, std::string* err, const std::string& p, void*) {
    try {
        *out = readFile(p, kMaxInputBytes, "glTF buffer");
        return true;
    } catch (const std::exception& e) {
        if (err) *err += e.what();
        return false;
    }
}
bool fsWrite(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err += "the importer writes nothing through tinygltf";
    return false;
}

std::string firstLine(const std::string& s) {
    std::string t = s.substr(0, s.find('\n'));
    if (t.size() > 400) t = t.substr(0, 400) + "...";
    return t;
}

} // namespace

ImportResult importGltf(const std::string& path, ByteSpan bytes, const ImportOptions& options) {
    if (!(options.scale > 0.0f) || !std::isfinite(options.scale))
        throw ParseError(path, {}, ParseError::kNoOffset, "--scale must be a finite number above 0");
    if (options.bonesPerVertex < 1 || options.bonesPerVertex > 2)
        throw ParseError(path, {}, ParseError::kNoOffset, "bones per vertex must be 1 or 2");
    tinygltf::TinyGLTF loader;
    std::vector<std::vector<uint8_t>> imageBytes;
    if (options.keepImages)
        loader.SetImageLoader(keepImageBytes, &imageBytes);
    else
        loader.SetImageLoader(noImageDecode, nullptr);
    tinygltf::FsCallbacks cb{fsExists, fsExpand, fsRead, fsWrite, nullptr};
    loader.SetFsCallbacks(cb);
    GModel g;
    std::string err, warn;
    const std::string baseDir = fs::path(path).parent_path().string();
    bool ok = false;
    try {
        if (bytes.size >= 4 && std::memcmp(bytes.data, "glTF", 4) == 0) {
            if (bytes.size > 0xFFFFFFFFu) throw ParseError(path, {}, 0, "GLB larger than 4 GiB");
            ok = loader.LoadBinaryFromMemory(&g, &err, &warn, bytes.data, unsigned(bytes.size), baseDir);
        } else {
            ok = loader.LoadASCIIFromString(&g, &err, &warn, reinterpret_cast<const char*>(bytes.data),
                                            unsigned(std::min<size_t>(bytes.size, 0xFFFFFFFFu)), baseDir);
        }
    } catch (const ParseError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw ParseError(path, {}, ParseError::kNoOffset, "out of memory while reading the glTF");
    } catch (const std::exception& e) {
        throw ParseError(path, {}, ParseError::kNoOffset, std::string("malformed glTF: ") + e.what());
    }
    if (!ok)
        throw ParseError(path, {}, ParseError::kNoOffset, "malformed glTF: " + firstLine(err.empty() ? warn : err));
    Converter conv(path, g, options);
    conv.run();
    if (options.keepImages)
        for (size_t i = 0; i < g.images.size(); ++i) {
            ImportedImage im;
            im.name = conv.textureNames[i];
            im.source =
                "images[" + std::to_string(i) + "]" + (g.images[i].name.empty() ? "" : " \"" + g.images[i].name + "\"");
            if (i < imageBytes.size()) im.bytes = std::move(imageBytes[i]);
            conv.out.images.push_back(std::move(im));
        }
    if (!warn.empty()) conv.report("tinygltf: " + firstLine(warn));
    return std::move(conv.out);
}

ImportResult importGltfFile(const std::string& path, const ImportOptions& options) {
    const std::vector<uint8_t> bytes = readFile(path, kMaxInputBytes, "glTF");
    return importGltf(path, ByteSpan(bytes), options);
}

namespace {

std::string clipFileStem(const std::string& model, const std::string& anim) {
    std::string s;
    for (char ch : anim)
        s += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ? ch : '_';
    if (s.size() > model.size() + 1 && istartsWith(s, model + "_")) s = s.substr(model.size() + 1);
    // A trailing _NN (the games' variant number) is the file's, not the clip's.
    if (s.size() > 3 && s[s.size() - 3] == '_' && std::isdigit(static_cast<unsigned char>(s[s.size() - 2])) &&
        std::isdigit(static_cast<unsigned char>(s.back())))
        s.resize(s.size() - 3);
    if (s.empty()) s = "CLIP";
    return model + "_" + s + "_00";
}

void checkNoWarnings(const std::string& file, const std::vector<std::string>& warnings) {
    if (!warnings.empty())
        throw ParseError(file, {}, ParseError::kNoOffset,
                         "written file reads back with a warning: " + warnings.front());
}

} // namespace

std::vector<OutputFile> alamoFiles(const ImportResult& r, const std::string& outAlo, const ImportOptions& options) {
    std::vector<OutputFile> files;
    for (const Mesh& mesh : r.model.meshes)
        for (const SubMesh& sm : mesh.subMeshes)
            for (const glm::vec4& w : sm.boneWeights)
                if (w.y > 0.0f)
                    throw ParseError(outAlo, "mesh \"" + mesh.name + "\"", ParseError::kNoOffset,
                                     "two bones per vertex; the RSkin shaders take " +
                                         std::to_string(limits::kAlamoBonesPerVertex) +
                                         " (import with bonesPerVertex 1)");
    OutputFile m;
    m.path = outAlo;
    try {
        m.bytes = alamo::writeModel(r.model);
    } catch (const std::invalid_argument& e) {
        throw ParseError(outAlo, {}, ParseError::kNoOffset, std::string("cannot be written: ") + e.what());
    }
    const Model back = alamo::readModel(ByteSpan(m.bytes), outAlo);
    checkNoWarnings(outAlo, back.warnings);
    m.check = [outAlo](ByteSpan b) { checkNoWarnings(outAlo, alamo::readModel(b, outAlo).warnings); };
    files.push_back(std::move(m));
    const fs::path dir = fs::path(outAlo).parent_path();
    const std::string stem = fs::path(outAlo).stem().string();
    std::vector<std::string> seen;
    for (const Clip& clip : r.clips) {
        OutputFile f;
        std::string name = clipFileStem(stem, clip.name);
        for (const std::string& s : seen)
            if (iequals(s, name))
                throw ParseError(outAlo, {}, ParseError::kNoOffset, "two clips would be written as " + name + ".ALA");
        seen.push_back(name);
        f.path = (dir / (name + ".ALA")).string();
        alamo::AlaWriteOptions o;
        o.version = options.game == Game::Foc ? 2 : 1;
        try {
            f.bytes = alamo::writeClip(clip, o);
        } catch (const std::invalid_argument& e) {
            throw ParseError(f.path, {}, ParseError::kNoOffset, std::string("cannot be written: ") + e.what());
        }
        const Clip cb = alamo::readClip(ByteSpan(f.bytes), f.path);
        checkNoWarnings(f.path, cb.warnings);
        const ClipBinding bind = bindClip(back.skeleton, cb);
        if (!bind.ok())
            throw ParseError(f.path, {}, ParseError::kNoOffset, "does not fit the model: " + bind.problems.front());
        f.check = [p = f.path](ByteSpan b) { checkNoWarnings(p, alamo::readClip(b, p).warnings); };
        files.push_back(std::move(f));
    }
    return files;
}

void writeFiles(const std::vector<OutputFile>& files) {
    // Stage every file beside its destination (each read back and checked), then rename them all.
    std::vector<std::string> staged;
    auto unstage = [&]() {
        for (const std::string& s : staged) {
            std::error_code ec;
            fs::remove(s, ec);
        }
    };
    for (const OutputFile& f : files) {
        const std::string tmp = f.path + ".rigscope-import";
        try {
            const fs::path parent = fs::path(f.path).parent_path();
            std::error_code ec;
            if (!parent.empty() && !fs::is_directory(parent)) fs::create_directories(parent, ec);
            if (ec) throw ParseError(f.path, {}, ParseError::kNoOffset, "cannot create its folder: " + ec.message());
            writeFileSafely(tmp, ByteSpan(f.bytes), f.check);
        } catch (...) {
            unstage();
            throw;
        }
        staged.push_back(tmp);
    }
    for (size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        fs::rename(staged[i], files[i].path, ec);
        if (ec) {
            for (size_t k = i; k < staged.size(); ++k) {
                std::error_code e2;
                fs::remove(staged[k], e2);
            }
            throw ParseError(files[i].path, {}, ParseError::kNoOffset, "rename failed: " + ec.message());
        }
    }
}

} // namespace rs::gltfimport
