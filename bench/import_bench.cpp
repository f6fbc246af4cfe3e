// Import time of a generated glTF against the time to read its bytes (issue 40): a 50,000-triangle mesh skinned to
// 100 joints (four weights per vertex) with 20 clips of 2 s (31 keys per joint, rotation on every joint,
// translation on 10), written as a GLB with tinygltf, then (best of N runs each) read from disk (readFile), and
// imported from those bytes into the Alamo files (importGltf + alamoFiles: writers and read-back checks, in
// memory; nothing written).   import_bench [RUNS]
#include "common/file_read.h"
#include "gltf_import.h"

#include <tiny_gltf.h>

#include <glm/gtc/quaternion.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace {

using Clock = std::chrono::steady_clock;

struct Gen {
    tinygltf::Model m;
    int view(const void* p, size_t n) {
        auto& b = m.buffers[0].data;
        tinygltf::BufferView v;
        v.buffer = 0;
        v.byteOffset = b.size();
        v.byteLength = n;
        b.insert(b.end(), static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + n);
        m.bufferViews.push_back(v);
        return int(m.bufferViews.size() - 1);
    }
    template <class T> int acc(const std::vector<T>& v, int comp, int type, size_t comps, bool minmax = false) {
        tinygltf::Accessor a;
        a.bufferView = view(v.data(), v.size() * sizeof(T));
        a.componentType = comp;
        a.type = type;
        a.count = v.size() / comps;
        if (minmax) {
            a.minValues = {double(v.front())};
            a.maxValues = {double(v.back())};
        }
        m.accessors.push_back(a);
        return int(m.accessors.size() - 1);
    }
};

std::string generate(const std::string& path) {
    Gen g;
    g.m.asset.version = "2.0";
    g.m.buffers.resize(1);
    g.m.scenes.resize(1);
    g.m.defaultScene = 0;
    const int joints = 100, branches = 10;
    std::vector<int> jn;
    for (int j = 0; j < joints; ++j) {
        tinygltf::Node n;
        n.name = "Bone" + std::to_string(j);
        n.translation = {j % branches == 0 ? 0.3 * (j / branches) : 0.0, 0.0, j % branches == 0 ? 0.0 : 0.2};
        g.m.nodes.push_back(n);
        jn.push_back(int(g.m.nodes.size() - 1));
        if (j % branches == 0)
            g.m.scenes[0].nodes.push_back(jn.back());
        else
            g.m.nodes[size_t(jn[size_t(j - 1)])].children.push_back(jn.back());
    }
    // Grid 125 x 200 quads = 50,000 triangles, each column group skinned to the joints of one branch.
    const int W = 126, H = 201;
    std::vector<float> pos, w;
    std::vector<uint16_t> jo;
    std::vector<uint32_t> idx;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const float fx = float(x) / float(W - 1) * 3.0f, fy = float(y) / float(H - 1) * 2.0f;
            pos.insert(pos.end(), {fx, 0.0f, fy});
            const int branch = std::min(branches - 1, int(fx / 0.3f));
            const int seg = std::min(branches - 2, int(fy / 0.2f));
            const int j0 = branch * branches + seg;
            jo.insert(jo.end(), {uint16_t(j0), uint16_t(j0 + 1), uint16_t(branch * branches), uint16_t(0)});
            w.insert(w.end(), {0.6f, 0.25f, 0.1f, 0.05f});
        }
    for (int y = 0; y + 1 < H; ++y)
        for (int x = 0; x + 1 < W; ++x) {
            const uint32_t a = uint32_t(y * W + x);
            idx.insert(idx.end(), {a, a + uint32_t(W), a + 1, a + 1, a + uint32_t(W), a + uint32_t(W) + 1});
        }
    // Inverse binds: the joints' rest worlds are translations.
    std::vector<float> ibm;
    std::vector<glm::vec3> world(static_cast<size_t>(joints));
    for (int j = 0; j < joints; ++j) {
        const auto& t = g.m.nodes[size_t(jn[size_t(j)])].translation;
        world[size_t(j)] =
            glm::vec3(float(t[0]), float(t[1]), float(t[2])) + (j % branches ? world[size_t(j - 1)] : glm::vec3(0.0f));
        for (int k = 0; k < 16; ++k)
            ibm.push_back(k % 5 == 0 ? 1.0f : 0.0f);
        ibm[size_t(j) * 16 + 12] = -world[size_t(j)].x, ibm[size_t(j) * 16 + 13] = -world[size_t(j)].y,
                             ibm[size_t(j) * 16 + 14] = -world[size_t(j)].z;
    }
    tinygltf::Skin skin;
    skin.joints = jn;
    skin.inverseBindMatrices = g.acc(ibm, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, 16);
    g.m.skins.push_back(skin);
    tinygltf::Primitive pr;
    pr.attributes["POSITION"] = g.acc(pos, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 3);
    pr.attributes["JOINTS_0"] = g.acc(jo, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4, 4);
    pr.attributes["WEIGHTS_0"] = g.acc(w, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, 4);
    pr.indices = g.acc(idx, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, 1);
    tinygltf::Mesh mesh;
    mesh.primitives.push_back(pr);
    g.m.meshes.push_back(mesh);
    tinygltf::Node mn;
    mn.name = "Body";
    mn.mesh = 0;
    mn.skin = 0;
    g.m.nodes.push_back(mn);
    g.m.scenes[0].nodes.push_back(int(g.m.nodes.size() - 1));
    std::vector<float> times;
    for (int k = 0; k < 31; ++k)
        times.push_back(float(k) / 15.0f);
    const int input = g.acc(times, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, 1, true);
    for (int c = 0; c < 20; ++c) {
        tinygltf::Animation a;
        a.name = "Clip" + std::to_string(c);
        for (int j = 0; j < joints; ++j) {
            std::vector<float> q;
            for (int k = 0; k < 31; ++k) {
                const glm::quat r = glm::angleAxis(0.4f * std::sin(0.3f * float(k + c + j)), glm::vec3(1, 0, 0));
                q.insert(q.end(), {r.x, r.y, r.z, r.w});
            }
            tinygltf::AnimationSampler s;
            s.input = input;
            s.output = g.acc(q, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, 4);
            a.samplers.push_back(s);
            tinygltf::AnimationChannel ch;
            ch.sampler = int(a.samplers.size() - 1);
            ch.target_node = jn[size_t(j)];
            ch.target_path = "rotation";
            a.channels.push_back(ch);
            if (j % branches == 0) {
                std::vector<float> t;
                for (int k = 0; k < 31; ++k)
                    t.insert(t.end(), {0.3f * float(j / branches), 0.05f * std::sin(float(k)), 0.0f});
                tinygltf::AnimationSampler ts;
                ts.input = input;
                ts.output = g.acc(t, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, 3);
                a.samplers.push_back(ts);
                ch.sampler = int(a.samplers.size() - 1);
                ch.target_path = "translation";
                a.channels.push_back(ch);
            }
        }
        g.m.animations.push_back(a);
    }
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToFile(&g.m, path, true, true, false, true)) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(1);
    }
    return path;
}

double seconds(Clock::time_point a) { return std::chrono::duration<double>(Clock::now() - a).count(); }

// CPU seconds of this process (the figure that a loaded machine's wall clock hides).
double cpu() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

} // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const std::string path = (std::filesystem::temp_directory_path() / "rigscope-import-bench.glb").string();
    generate(path);
    double bestRead = 1e9, bestImport = 1e9, bestReadCpu = 1e9, bestImportCpu = 1e9;
    size_t bytes = 0, tris = 0, files = 0;
    for (int r = 0; r < runs; ++r) {
        auto t0 = Clock::now();
        double c0 = cpu();
        const std::vector<uint8_t> b = rs::readFile(path, rs::kMaxInputBytes);
        bestRead = std::min(bestRead, seconds(t0));
        bestReadCpu = std::min(bestReadCpu, cpu() - c0);
        bytes = b.size();
        t0 = Clock::now();
        c0 = cpu();
        const rs::gltfimport::ImportResult res = rs::gltfimport::importGltf(path, rs::ByteSpan(b));
        const auto out = rs::gltfimport::alamoFiles(res, "/nonexistent-rigscope-bench/BENCH.alo");
        bestImport = std::min(bestImport, seconds(t0));
        bestImportCpu = std::min(bestImportCpu, cpu() - c0);
        files = out.size();
        tris = 0;
        for (const auto& m : res.model.meshes)
            for (const auto& s : m.subMeshes)
                tris += s.triangleCount();
    }
    std::filesystem::remove(path);
    std::printf("{\"bytes\": %zu, \"triangles\": %zu, \"files\": %zu, \"read_ms\": %.3f, \"import_ms\": %.3f, "
                "\"import_over_read\": %.1f, \"read_cpu_ms\": %.3f, \"import_cpu_ms\": %.3f}\n",
                bytes, tris, files, bestRead * 1e3, bestImport * 1e3, bestImport / bestRead, bestReadCpu * 1e3,
                bestImportCpu * 1e3);
    return 0;
}
