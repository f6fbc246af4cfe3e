// glTF export: every corpus model with its clips through the Khronos validator and back through tinygltf
// (joint world matrices vs evaluatePose, vertex/triangle counts, texture sizes), writer-made fixtures of each
// format (step keys, visibility, W3D dual-bone skins), the CLI.
#include "corpus.h"
#include "gltf_export.h"
#include "gltf_read.h"
#include <unistd.h>

#include "alamo/alamo_reader.h"
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "bw2/al.h"
#include "bw2/bw2_writer.h"
#include "bw2_fixtures.h"
#include "format_catch.h"
#include "formats/formats.h"
#include "formats/material_policy.h"
#include "resolve/resolver.h"
#include "scene/pose.h"
#include "texture/texture.h"
#include "vfs_fixtures.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <tiny_gltf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

namespace fs = std::filesystem;
using namespace rs;
using rs::test::floats;
using rs::test::uints;

namespace {

fs::path tempDir(const std::string& name) {
    fs::path d = fs::temp_directory_path() / ("rigscope_export_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

void writeFile(const fs::path& p, const std::vector<uint8_t>& b) {
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

std::string run(const std::string& cmd) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int st = pclose(p);
    return WIFEXITED(st) ? out + "\nEXIT=" + std::to_string(WEXITSTATUS(st)) : out + "\nEXIT=-1";
}

bool validatorAvailable() {
    static int ok = -1;
    if (ok < 0) {
        std::error_code ec;
        ok = std::string(RIGSCOPE_NODE).size() > 0 && fs::exists(RIGSCOPE_NODE, ec) &&
             fs::exists(std::string(RIGSCOPE_GLTF_VALIDATOR) + "/node_modules/gltf-validator/package.json", ec);
    }
    // The set-up installs node, npm and the validator for the tests: their absence is a failure, not a skip.
    if (ok != 1)
        FAIL("glTF validation needs node and the gltf-validator npm package (tools/bootstrap.sh test installs npm; "
             "the gltf_validator target installs the package into "
             << RIGSCOPE_GLTF_VALIDATOR << ")");
    return true;
}

struct Validation {
    int errors = -1, warnings = -1;
    std::string raw;
};

Validation validate(const fs::path& file) {
    Validation v;
    v.raw = run(std::string("'") + RIGSCOPE_NODE + "' '" + RIGSCOPE_VALIDATE_JS + "' '" + RIGSCOPE_GLTF_VALIDATOR +
                "' '" + file.string() + "' 2>&1");
    auto field = [&](const char* key) {
        const size_t at = v.raw.find(std::string("\"") + key + "\":");
        return at == std::string::npos ? -1 : std::atoi(v.raw.c_str() + at + std::strlen(key) + 3);
    };
    v.errors = field("errors");
    v.warnings = field("warnings");
    return v;
}

// ---- reading the glTF back ------------------------------------------------------------------------------
struct NodeTRS {
    glm::vec3 t{0.0f};
    glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 s{1.0f};
    glm::mat4 matrix() const {
        return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(r) * glm::scale(glm::mat4(1.0f), s);
    }
};

std::vector<NodeTRS> restTRS(const tinygltf::Model& g) {
    std::vector<NodeTRS> out(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const tinygltf::Node& n = g.nodes[i];
        REQUIRE(n.matrix.empty());
        if (n.translation.size() == 3) out[i].t = glm::vec3(n.translation[0], n.translation[1], n.translation[2]);
        if (n.rotation.size() == 4)
            out[i].r =
                glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
        if (n.scale.size() == 3) out[i].s = glm::vec3(n.scale[0], n.scale[1], n.scale[2]);
    }
    return out;
}

std::vector<glm::mat4> worlds(const tinygltf::Model& g, const std::vector<NodeTRS>& local) {
    std::vector<int> parent(g.nodes.size(), -1);
    for (size_t i = 0; i < g.nodes.size(); ++i)
        for (int c : g.nodes[i].children)
            parent.at(size_t(c)) = int(i);
    std::vector<glm::mat4> w(g.nodes.size());
    std::vector<uint8_t> done(g.nodes.size(), 0);
    std::function<const glm::mat4&(size_t)> get = [&](size_t i) -> const glm::mat4& {
        if (!done[i]) {
            w[i] = parent[i] >= 0 ? get(size_t(parent[i])) * local[i].matrix() : local[i].matrix();
            done[i] = 1;
        }
        return w[i];
    };
    for (size_t i = 0; i < g.nodes.size(); ++i)
        get(i);
    return w;
}

// glTF sampler value at time t (exact key time: that key's value).
std::vector<float> sample(const tinygltf::Model& g, const tinygltf::AnimationSampler& s, float t, int comps) {
    const std::vector<float> in = floats(g, s.input), out = floats(g, s.output);
    REQUIRE(out.size() == in.size() * size_t(comps));
    auto key = [&](size_t k) {
        return std::vector<float>(out.begin() + std::ptrdiff_t(k * size_t(comps)),
                                  out.begin() + std::ptrdiff_t((k + 1) * size_t(comps)));
    };
    if (t <= in.front()) return key(0);
    if (t >= in.back()) return key(in.size() - 1);
    size_t i = 0;
    while (i + 1 < in.size() && in[i + 1] <= t)
        ++i;
    if (in[i] == t || s.interpolation == "STEP") return key(i);
    const float a = (t - in[i]) / (in[i + 1] - in[i]);
    std::vector<float> k0 = key(i), k1 = key(i + 1);
    std::vector<float> r(static_cast<size_t>(comps));
    if (comps == 4) {
        glm::quat q0(k0[3], k0[0], k0[1], k0[2]), q1(k1[3], k1[0], k1[1], k1[2]);
        const glm::quat q = glm::slerp(q0, q1, a);
        return {q.x, q.y, q.z, q.w};
    }
    for (int c = 0; c < comps; ++c)
        r[size_t(c)] = k0[size_t(c)] + (k1[size_t(c)] - k0[size_t(c)]) * a;
    return r;
}

std::vector<NodeTRS> animatedTRS(const tinygltf::Model& g, const tinygltf::Animation& a, float t) {
    std::vector<NodeTRS> local = restTRS(g);
    for (const auto& c : a.channels) {
        const auto& s = a.samplers.at(size_t(c.sampler));
        NodeTRS& n = local.at(size_t(c.target_node));
        if (c.target_path == "translation") {
            auto v = sample(g, s, t, 3);
            n.t = {v[0], v[1], v[2]};
        } else if (c.target_path == "rotation") {
            auto v = sample(g, s, t, 4);
            n.r = glm::normalize(glm::quat(v[3], v[0], v[1], v[2]));
        } else if (c.target_path == "scale") {
            auto v = sample(g, s, t, 3);
            n.s = {v[0], v[1], v[2]};
        }
    }
    return local;
}

glm::mat4 toGltf(const glm::mat4& m, UpAxis up) {
    return gltf::axisChange(up) * m * glm::transpose(gltf::axisChange(up));
}

// Tolerance of the joint comparisons. glTF rotations are unit quaternions, while the engines (and core's pose,
// issue 15) build bone matrices from the decoded quaternion as stored: int16/32767 for Alamo, adaptive-delta W3D
// channels drift off unit length by up to ~1.3 %. The matrix of q = s*u is s^2*R(u) + (1 - s^2)*I, so a unit glTF
// rotation differs from it by |s^2 - 1| per element, summed along the bone chain. clipTolerance gives 1e-4 plus
// that bound for the clip being compared (1e-4 exactly for clips whose quaternions are unit).
float gTolerance = 1e-4f;

float clipTolerance(const Clip& clip, const Skeleton& sk) {
    float dev = 0.0f;
    for (const BoneTrack& t : clip.tracks) {
        dev = std::max(dev, std::abs(glm::dot(t.defaultRotation, t.defaultRotation) - 1.0f));
        for (const glm::quat& q : t.rotation)
            dev = std::max(dev, std::abs(glm::dot(q, q) - 1.0f));
    }
    size_t depth = 1;
    for (size_t i = 0; i < sk.bones.size(); ++i) {
        size_t d = 1;
        for (int p = sk.bones[i].parent; p >= 0 && d <= sk.bones.size(); p = sk.bones[size_t(p)].parent)
            ++d;
        depth = std::max(depth, d);
    }
    return 1e-4f + 2.0f * float(depth) * dev;
}

// Largest element difference, relative to the translation's size for far-away bones (float precision).
void requireSameMatrix(const glm::mat4& got, const glm::mat4& want, const std::string& what) {
    const float scale = std::max(1.0f, glm::length(glm::vec3(want[3])));
    float worst = 0.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            worst = std::max(worst, std::abs(got[c][r] - want[c][r]) / (r < 3 && c == 3 ? scale : 1.0f));
    INFO(what << ": largest difference " << worst << " (tolerance " << gTolerance << ")");
    REQUIRE(worst <= gTolerance);
}

struct Checked {
    size_t animations = 0, framesChecked = 0, visibilityKeys = 0, images = 0;
};

// Exports, validates, reads back and compares with the project's own evaluation. `halfFrames` also compares
// between stored frames (step keys hold, the rest interpolates like evaluatePose).
Checked exportAndCheck(const Model& model, const std::vector<const Clip*>& clips, const fs::path& out,
                       gltf::TextureLookup* lookup, bool halfFrames, gltf::ExportOptions opt = {}) {
    Checked ck;
    INFO("model " << model.sourcePath << " -> " << out.string());
    const gltf::ExportStats st = gltf::exportModel(model, clips, opt, lookup, out.string());
    if (validatorAvailable()) {
        const Validation v = validate(out);
        INFO(v.raw);
        REQUIRE(v.errors == 0);
        CHECK(v.warnings == 0);
    }
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    const bool ok = out.extension() == ".glb" ? loader.LoadBinaryFromFile(&g, &err, &warn, out.string())
                                              : loader.LoadASCIIFromFile(&g, &err, &warn, out.string());
    INFO(err << warn);
    REQUIRE(ok);
    REQUIRE(!g.scenes.empty());
    const tinygltf::Scene& scene = g.scenes[0];
    const int root = scene.nodes.at(0);
    const Skeleton& sk = model.skeleton;
    const size_t nb = sk.bones.size();
    std::vector<int> boneNode(nb);
    for (size_t i = 0; i < nb; ++i) {
        boneNode[i] = root + 1 + int(i);
        REQUIRE(g.nodes.at(size_t(boneNode[i])).name == sk.bones[i].name);
    }
    // Vertex and triangle counts of what scene 0 shows vs the source's selected, drawn sub-meshes.
    size_t wantV = 0, wantT = 0, gotV = 0, gotT = 0;
    const std::vector<bool> sel = gltf::selectVariant(model, opt.lod, opt.alt);
    for (size_t mi = 0; mi < model.meshes.size(); ++mi) {
        const Mesh& m = model.meshes[mi];
        if (!sel[mi] || m.hidden || m.shadowOrCollision) continue;
        for (const SubMesh& sm : m.subMeshes) // drawn: not hidden by the shared material policy
            if (sm.vertexCount() && sm.triangleCount() && !materialPolicy(model.format, m, sm.material).hiddenByDefault)
                wantV += sm.vertexCount(), wantT += sm.triangleCount();
    }
    std::function<void(int)> visit = [&](int n) {
        const tinygltf::Node& node = g.nodes.at(size_t(n));
        if (node.mesh >= 0)
            for (const auto& p : g.meshes.at(size_t(node.mesh)).primitives) {
                gotV += g.accessors.at(size_t(p.attributes.at("POSITION"))).count;
                gotT += g.accessors.at(size_t(p.indices)).count / 3;
            }
        for (int c : node.children)
            visit(c);
    };
    for (int n : scene.nodes)
        visit(n);
    CHECK(gotV == wantV);
    CHECK(gotT == wantT);
    CHECK(st.vertices >= wantV);
    // Texture sizes: the PNG tinygltf decodes has the source texture's size.
    for (const tinygltf::Image& im : g.images) {
        REQUIRE(im.extras.Has("source"));
        const std::string src = im.extras.Get("source").Get<std::string>();
        std::string path;
        std::vector<uint8_t> bytes;
        REQUIRE(lookup);
        REQUIRE(lookup->find(src, path, bytes));
        const Image want = decodeTexture(ByteSpan(bytes), path);
        INFO("texture " << src);
        CHECK(im.width == want.width);
        CHECK(im.height == want.height);
        REQUIRE(im.image.size() == want.rgba.size());
        if (im.name.find("_faction") == std::string::npos)
            CHECK(std::equal(im.image.begin(), im.image.end(), want.rgba.begin(), want.rgba.end())); // PNG is lossless
        ck.images++;
    }
    // Bind pose.
    {
        gTolerance = 1e-4f;
        const std::vector<glm::mat4> w = worlds(g, restTRS(g));
        std::vector<glm::mat4> bind(nb);
        if (nb) sk.bindWorld(bind.data());
        for (size_t i = 0; i < nb; ++i)
            requireSameMatrix(w[size_t(boneNode[i])], toGltf(bind[i], upAxisOf(model.format)),
                              "bind " + sk.bones[i].name);
    }
    // Clips: animation k is the k-th clip that binds and animates a bone.
    size_t k = 0;
    for (const Clip* clip : clips) {
        const ClipBinding b = bindClip(sk, *clip);
        const bool animates = std::any_of(b.trackForBone.begin(), b.trackForBone.end(), [](int t) { return t >= 0; });
        if (!b.ok() || clip->frameCount == 0 || nb == 0 || !animates) continue;
        REQUIRE(k < g.animations.size());
        const tinygltf::Animation& a = g.animations[k++];
        INFO("clip " << clip->name);
        REQUIRE(a.name == clip->name);
        const float fps = float(a.extras.Get("fps").GetNumberAsDouble());
        REQUIRE(a.extras.Get("frameCount").GetNumberAsInt() == int(clip->frameCount));
        std::vector<float> frames;
        const uint32_t last = clip->frameCount - 1;
        if (halfFrames)
            for (uint32_t f = 0; f <= last; ++f) {
                frames.push_back(float(f));
                if (f < last) frames.push_back(float(f) + 0.5f);
            }
        else
            frames = {0.0f, float(last / 2), float(last)};
        PoseBuffers pose(nb);
        gTolerance = clipTolerance(*clip, sk);
        for (float f : frames) {
            evaluatePose(sk, clip, &b, f, LoopMode::Once, pose.view());
            const std::vector<NodeTRS> local = animatedTRS(g, a, f / fps);
            const std::vector<glm::mat4> w = worlds(g, local);
            for (size_t i = 0; i < nb; ++i)
                requireSameMatrix(w[size_t(boneNode[i])], toGltf(pose.world[i], upAxisOf(model.format)),
                                  "frame " + std::to_string(f) + " bone " + sk.bones[i].name);
            // Visibility: attachments animated by scale are 0 exactly while their bone is hidden.
            for (const auto& c : a.channels) {
                if (c.target_path != "scale") continue;
                auto it = std::find(boneNode.begin(), boneNode.end(), c.target_node);
                if (it != boneNode.end()) continue;
                int bone = -1;
                for (size_t i = 0; i < nb; ++i)
                    for (int ch : g.nodes[size_t(boneNode[i])].children)
                        if (ch == c.target_node) bone = int(i);
                if (bone < 0) continue; // attachment of another scene copy
                const float s = local[size_t(c.target_node)].s.x;
                CHECK(s == (pose.visible[size_t(bone)] ? 1.0f : 0.0f));
                ck.visibilityKeys++;
            }
            ck.framesChecked++;
        }
        ck.animations++;
    }
    CHECK(k == g.animations.size());
    return ck;
}

} // namespace

TEST_CASE("glTF export of every corpus model with its clips: validator, counts, textures, joint matrices",
          "[export][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("");
    std::vector<std::string> files = test::corpusFiles("", {".alo", ".w3d", ".bwm"});
    const fs::path dir = tempDir("corpus");
    size_t models = 0, animations = 0, frames = 0, images = 0, variants = 0;
    const Resolver resolver; // the files' own folders, no mounts
    for (const std::string& f : files) {
        Document d;
        try {
            d = resolver.read(f);
        } catch (const ParseError& e) {
            // Not a model (particle systems) or refused by its reader: export refuses it the same way.
            continue;
        }
        if (!d.model) continue;
        bool hasMesh = false;
        for (const Mesh& m : d.model->meshes)
            hasMesh |= !m.subMeshes.empty();
        if (!hasMesh) continue;
        std::vector<std::shared_ptr<Clip>> owned = d.clips;
        for (const std::string& c : resolver.companionClips(f)) {
            if (fs::equivalent(c, f)) continue;
            try {
                Document cd = resolver.read(c);
                owned.insert(owned.end(), cd.clips.begin(), cd.clips.end());
            } catch (const ParseError&) {
            }
        }
        std::vector<const Clip*> clips;
        for (auto& c : owned)
            clips.push_back(c.get());
        gltf::ResolverTextureLookup lookup(resolver, f);
        const fs::path out = dir / (std::to_string(models) + "_" + fs::path(f).stem().string() + ".glb");
        const Checked ck = exportAndCheck(*d.model, clips, out, &lookup, false);
        models++, animations += ck.animations, frames += ck.framesChecked, images += ck.images;
        if (d.model->lodLevels().size() + d.model->altLevels().size() > 1) {
            // Every LOD/ALT combination as its own scene, faction colour baked.
            gltf::ExportOptions all;
            all.allVariants = true;
            all.haveFactionColor = true;
            all.factionColor = {0.2f, 0.3f, 1.0f};
            exportAndCheck(*d.model, clips, fs::path(out).replace_extension(".variants.glb"), &lookup, false, all);
            variants++;
        }
    }
    WARN("exported " << models << " corpus models, " << animations << " clips (" << frames << " poses compared), "
                     << images << " textures; " << variants << " with every LOD/ALT variant");
    CHECK(models >= 20);
    CHECK(variants >= 5);
    CHECK(animations >= 10);
    CHECK(images >= 5);
    fs::remove_all(dir);
}

TEST_CASE("glTF export of the corpus W3X warrior with its four clips: validator, joint matrices", "[export][corpus]") {
    const std::string sub = "w3x/JenkinsTR+KanesWrath-MODSDK-2020/_CnC3_SDK/Art/EU";
    RIGSCOPE_REQUIRE_CORPUS(sub);
    const std::string f = test::corpusDir() + "/" + sub + "/EULorWar_SKN.W3X";
    const Resolver resolver;
    const Asset a = resolver.open(f);
    REQUIRE(a.document.model);
    REQUIRE(a.clips.size() == 4);
    std::vector<const Clip*> clips;
    for (const ClipFile& c : a.clips) {
        REQUIRE(c.clip);
        clips.push_back(c.clip.get());
    }
    gltf::ResolverTextureLookup lookup(resolver, f);
    const fs::path dir = tempDir("w3x");
    const Checked ck = exportAndCheck(*a.document.model, clips, dir / "warrior.glb", &lookup, false);
    CHECK(ck.animations == 4);
    CHECK(ck.images == 1); // EUlorienwarrior.tga through its <Texture> declaration
    fs::remove_all(dir);
}

TEST_CASE("glTF export of the Alamo writer's fixture: step keys, visibility, lights, proxies, dazzles", "[export]") {
    Model m = alamo::readModel(ByteSpan(alamo::writeModel(test::syntheticModel())), "synthetic.alo");
    Clip c = alamo::readClip(ByteSpan(alamo::writeClip(test::syntheticClip())), "synthetic_clip.ala");
    c.name = "SYNTH_CLIP";
    const fs::path dir = tempDir("alamo");
    for (const char* name : {"synthetic.glb", "synthetic.gltf"}) {
        const Checked ck = exportAndCheck(m, {&c}, dir / name, nullptr, true);
        CHECK(ck.animations == 1);
        CHECK(ck.framesChecked == 9);
        CHECK(ck.visibilityKeys > 0);
    }
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, (dir / "synthetic.glb").string()));
    REQUIRE(g.lights.size() == m.lights.size());
    CHECK(g.lights[0].type == "spot");
    std::set<std::string> kinds;
    for (const auto& n : g.nodes)
        if (n.extras.Has("kind")) kinds.insert(n.extras.Get("kind").Get<std::string>());
    CHECK(kinds.count("dazzle") == 1);
    CHECK(kinds.count("proxy") == 1);
    // The step on the Arm's frame 1 is a hold key just before frame 2 (LINEAR elsewhere).
    bool hold = false;
    for (const auto& s : g.animations[0].samplers)
        if (floats(g, s.input).size() == 6) hold = true;
    CHECK(hold);
    // --all-variants: one scene per LOD x ALT, each with its own skeleton copy animated by the same clip.
    gltf::ExportOptions all;
    all.allVariants = true;
    const Checked ck = exportAndCheck(m, {&c}, dir / "variants.glb", nullptr, false, all);
    CHECK(ck.animations == 1);
    tinygltf::Model gv;
    REQUIRE(loader.LoadBinaryFromFile(&gv, &err, &warn, (dir / "variants.glb").string()));
    const size_t combos = std::max<size_t>(1, m.lodLevels().size()) * std::max<size_t>(1, m.altLevels().size());
    INFO("lods " << m.lodLevels().size() << " alts " << m.altLevels().size());
    CHECK(gv.scenes.size() == 1 + combos);
    fs::remove_all(dir);
}

TEST_CASE("glTF export of a W3D writer's unit: dual-bone skin in bind space, timecoded steps, visibility", "[export]") {
    using namespace rs::w3d;
    ChunkWriter cw(false);
    writeHierarchy(cw, test::testHierarchy());
    writeMesh(cw, test::testQuad("QUAD", "UNIT"));
    RawMesh skin = test::testQuad("SKIN", "UNIT");
    skin.attributes = 0x00020000;
    skin.influences = {{2, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}, {2, 3, 30, 70}};
    skin.positions2 = skin.positions;
    skin.positions2[3] = {5, 5, 5};
    skin.normals2 = skin.normals;
    writeMesh(cw, skin);
    Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    LodArray hi;
    hi.maxScreenSize = 3.0e38f;
    hi.objects = {{1, "UNIT.QUAD"}, {0, "UNIT.SKIN"}};
    h.lods = {hi};
    writeHlod(cw, h);
    ClipSpec s;
    s.name = "UNIT.TC";
    s.hierarchy = "TEST_SKL";
    s.version = 0x1;
    s.frames = 11;
    s.codec = ClipCodec::Timecoded;
    ChannelSpec y;
    y.pivot = 2;
    y.type = 1;
    y.keyFrames = {0, 4, 8};
    y.binary = {0, 0, 1};
    y.values = {0, 8, -4};
    ChannelSpec q;
    q.pivot = 3;
    q.type = 6;
    q.keyFrames = {0, 10};
    glm::quat a(1, 0, 0, 0), b = glm::angleAxis(glm::radians(100.0f), glm::vec3(0, 0, 1));
    q.values = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    BitChannelSpec vis;
    vis.pivot = 1;
    vis.defaultValue = 1;
    vis.keyFrames = {3, 7};
    vis.bits = {0, 1};
    s.channels = {y, q};
    s.bitChannels = {vis};
    writeClip(cw, s);
    const fs::path dir = tempDir("w3d");
    writeFile(dir / "unit.w3d", cw.take());
    Document d = Resolver().read((dir / "unit.w3d").string());
    REQUIRE(d.model);
    REQUIRE(d.clips.size() == 1);
    const Clip& clip = *d.clips[0];
    bool stepped = false;
    for (const auto& t : clip.tracks)
        for (uint8_t st : t.step)
            stepped |= st != 0;
    REQUIRE(stepped);
    const Checked ck = exportAndCheck(*d.model, {&clip}, dir / "unit.glb", nullptr, true);
    CHECK(ck.visibilityKeys > 0);

    // Skinning: glTF (joints, weights, inverse bind matrices, node worlds) vs the viewer's bone-space formula
    // sum_k w_k * world[bone_k] * (k == 1 && dual ? position2 : position).
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, (dir / "unit.glb").string()));
    const SubMesh* src = nullptr;
    for (const Mesh& m : d.model->meshes)
        if (m.name.find("SKIN") != std::string::npos) src = &m.subMeshes.at(0);
    REQUIRE(src);
    REQUIRE(src->space == VertexSpace::Bone);
    REQUIRE(src->positions2.size() == 4);
    const tinygltf::Skin& gs = g.skins.at(0);
    const std::vector<float> ibm = floats(g, gs.inverseBindMatrices);
    const tinygltf::Primitive* prim = nullptr;
    for (const auto& gm : g.meshes)
        if (gm.name.find("SKIN") != std::string::npos) prim = &gm.primitives.at(0);
    REQUIRE(prim);
    const std::vector<float> pos = floats(g, prim->attributes.at("POSITION"));
    const std::vector<uint32_t> joints = uints(g, prim->attributes.at("JOINTS_0"));
    const std::vector<float> weights = floats(g, prim->attributes.at("WEIGHTS_0"));
    const Skeleton& sk = d.model->skeleton;
    const ClipBinding bind = bindClip(sk, clip);
    PoseBuffers pose(sk.bones.size());
    for (float frame : {-1.0f, 5.0f}) { // -1: bind pose
        if (frame < 0)
            evaluatePose(sk, nullptr, nullptr, 0, LoopMode::Once, pose.view());
        else
            evaluatePose(sk, &clip, &bind, frame, LoopMode::Once, pose.view());
        const std::vector<glm::mat4> w =
            frame < 0 ? worlds(g, restTRS(g)) : worlds(g, animatedTRS(g, g.animations.at(0), frame / clip.fps));
        for (size_t v = 0; v < 4; ++v) {
            glm::vec3 got(0.0f);
            for (int k = 0; k < 4; ++k) {
                const uint32_t j = joints[v * 4 + size_t(k)];
                glm::mat4 ib = glm::make_mat4(&ibm[j * 16]);
                got += weights[v * 4 + size_t(k)] * glm::vec3(w[size_t(gs.joints[j])] * ib *
                                                              glm::vec4(pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2], 1));
            }
            glm::vec3 want(0.0f);
            const glm::vec4 wt = src->boneWeights[v];
            for (int k = 0; k < 2; ++k) {
                if (wt[k] <= 0) continue;
                const int bone = src->boneMap[src->boneIndices[v][k]];
                const glm::vec3 p = k == 1 ? src->positions2[v] : src->positions[v];
                want += wt[k] * glm::vec3(pose.world[size_t(bone)] * glm::vec4(p, 1));
            }
            want = glm::vec3(gltf::axisChange(UpAxis::Z) * glm::vec4(want, 1));
            INFO("vertex " << v << " frame " << frame);
            if (v == 3 && frame >= 0) continue; // dual vertex with inconsistent second position: bind pose only
            CHECK(glm::length(got - want) < 1e-4f);
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("glTF export of a B&W2 writer's skin with an animation library", "[export]") {
    const fs::path dir = tempDir("bw2");
    writeFile(dir / "creature.bwm", bw2::writeBwm(test::bw2fx::skinModel(bw2::SkinLayout::U8PerIndex)));
    writeFile(dir / "creature.al", bw2::writeAl(test::bw2fx::library()));
    Document skin = Resolver().read((dir / "creature.bwm").string());
    Document lib = Resolver().read((dir / "creature.al").string());
    REQUIRE(skin.model);
    REQUIRE(lib.model);
    REQUIRE(bw2::libraryFits(*skin.model, lib.model->skeleton));
    Model m = bw2::applyLibrary(*skin.model, lib.model->skeleton);
    std::vector<const Clip*> clips;
    for (auto& c : lib.clips)
        clips.push_back(c.get());
    const Checked ck = exportAndCheck(m, clips, dir / "creature.glb", nullptr, true);
    CHECK(ck.animations == lib.clips.size());
    // The library alone (an armature without meshes) exports as a node hierarchy with its animations.
    const Checked armature = exportAndCheck(*lib.model, clips, dir / "library.glb", nullptr, true);
    CHECK(armature.animations == lib.clips.size());
    fs::remove_all(dir);
}

TEST_CASE("rigscope-cli export: usage, refusals, single file and batch", "[export][cli]") {
    if (!fs::exists(RIGSCOPE_CLI)) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    const std::string cli = std::string("'") + RIGSCOPE_CLI + "' ";
    CHECK(run(cli + "export --help").find("EXIT=0") != std::string::npos);
    CHECK(run(cli + "export --bogus -o x.glb 2>&1").find("EXIT=2") != std::string::npos);
    CHECK(run(cli + "export a.alo 2>&1").find("EXIT=2") != std::string::npos); // no -o
    const fs::path dir = tempDir("cli");
    writeFile(dir / "synthetic.alo", alamo::writeModel(test::syntheticModel()));
    Clip c = test::syntheticClip();
    writeFile(dir / "synthetic_idle_00.ala", alamo::writeClip(c));
    std::vector<uint8_t> broken = alamo::writeModel(test::syntheticModel());
    broken.resize(broken.size() / 2);
    writeFile(dir / "broken.alo", broken);
    std::string r =
        run(cli + "export '" + (dir / "missing.alo").string() + "' -o '" + (dir / "x.glb").string() + "' 2>&1");
    CHECK(r.find("EXIT=1") != std::string::npos);
    r = run(cli + "export '" + (dir / "synthetic.alo").string() + "' -o '" + (dir / "s.glb").string() + "' 2>&1");
    INFO(r);
    CHECK(r.find("EXIT=0") != std::string::npos);
    CHECK(r.find("1 animations") != std::string::npos); // the companion clip
    CHECK(fs::file_size(dir / "s.glb") > 1000);
    r = run(cli + "export '" + (dir / "broken.alo").string() + "' -o '" + (dir / "b.glb").string() + "' 2>&1");
    CHECK(r.find("EXIT=1") != std::string::npos);
    CHECK(!fs::exists(dir / "b.glb"));
    const fs::path out = dir / "out";
    fs::create_directories(out);
    r = run(cli + "export --batch '" + dir.string() + "' -o '" + out.string() + "' 2>&1");
    INFO(r);
    CHECK(r.find("EXIT=1") != std::string::npos);
    CHECK(r.find("1 exported, 0 skipped, 1 failed") != std::string::npos);
    CHECK(r.find("failed: ") != std::string::npos);
    CHECK(fs::exists(out / "synthetic.glb"));
    if (!test::corpusDir().empty()) {
        for (const auto& f : test::corpusFiles("alamo", {".alo"}))
            if (fs::path(f).filename() == "P_FIRE_SMALL00.ALO") {
                r = run(cli + "export '" + f + "' -o '" + (dir / "p.glb").string() + "' 2>&1");
                CHECK(r.find("EXIT=1") != std::string::npos);
                CHECK(r.find("particle system") != std::string::npos);
            }
        for (const auto& f : test::corpusFiles("amal", {".abk"})) {
            r = run(cli + "export '" + f + "' -o '" + (dir / "a.glb").string() + "' 2>&1");
            CHECK(r.find("EXIT=1") != std::string::npos);
            CHECK(r.find("AMAL") != std::string::npos);
            break;
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("rigscope-cli export joints equal rigscope-cli pose at first, middle and last frame",
          "[export][cli][corpus]") {
    RIGSCOPE_REQUIRE_CORPUS("alamo");
    if (!fs::exists(RIGSCOPE_CLI)) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    const std::string cli = std::string("'") + RIGSCOPE_CLI + "' ";
    const fs::path dir = tempDir("clipose");
    size_t compared = 0;
    for (const std::string& model : test::corpusFiles("", {".alo", ".w3d"})) {
        const std::vector<std::string> companions = Resolver().companionClips(model);
        std::string clipFile;
        for (const auto& c : companions)
            if (!fs::equivalent(c, model)) clipFile = c;
        if (clipFile.empty()) continue;
        Document cd;
        try {
            cd = Resolver().read(clipFile);
        } catch (const ParseError&) {
            continue;
        }
        if (cd.clips.empty() || cd.clips[0]->frameCount < 2) continue;
        const fs::path out = dir / (std::to_string(compared) + ".glb");
        std::string r = run(cli + "export '" + model + "' --clip '" + clipFile + "' -o '" + out.string() + "' 2>&1");
        if (r.find("EXIT=0") == std::string::npos) continue; // a clip that does not fit this model
        tinygltf::TinyGLTF loader;
        tinygltf::Model g;
        std::string err, warn;
        REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, out.string()));
        REQUIRE(g.animations.size() == cd.clips.size());
        const tinygltf::Animation& a = g.animations[0];
        const float fps = float(a.extras.Get("fps").GetNumberAsDouble());
        const uint32_t last = cd.clips[0]->frameCount - 1;
        const int root = g.scenes.at(0).nodes.at(0);
        gTolerance = clipTolerance(*cd.clips[0], Resolver().read(model).model->skeleton);
        for (uint32_t f : {0u, last / 2, last}) {
            const std::string pose = run(cli + "pose --json '" + model + "' --clip '" + clipFile + "' --frame " +
                                         std::to_string(f) + " 2>&1");
            INFO(model << " frame " << f << "\n" << pose.substr(0, 300));
            REQUIRE(pose.find("EXIT=0") != std::string::npos);
            const std::vector<glm::mat4> w = worlds(g, animatedTRS(g, a, float(f) / fps));
            size_t at = 0, bone = 0;
            while ((at = pose.find("\"world\":[", at)) != std::string::npos) {
                at += 9;
                glm::mat4 m;
                const char* p = pose.c_str() + at;
                for (int k = 0; k < 16; ++k) {
                    char* end = nullptr;
                    (&m[0][0])[k] = std::strtof(p, &end);
                    p = end + 1; // ',' or ']'
                }
                const size_t node = size_t(root) + 1 + bone;
                REQUIRE(node < g.nodes.size());
                requireSameMatrix(w[node], toGltf(m, UpAxis::Z), "bone " + g.nodes[node].name);
                ++bone;
            }
            REQUIRE(bone > 0);
        }
        if (++compared >= 6) break;
    }
    WARN("compared rigscope-cli export with rigscope-cli pose for " << compared << " model/clip pairs");
    CHECK(compared >= 3);
    fs::remove_all(dir);
}

TEST_CASE("Resolver::findTexture for export: model folder, Data/Art/Textures, SAGE layout, any case, .tga <-> .dds, "
          ".png",
          "[export][resolve]") {
    const fs::path dir = tempDir("lookup");
    fs::create_directories(dir / "Data" / "Art" / "textures");
    fs::create_directories(dir / "Data" / "Art" / "Models");
    fs::create_directories(dir / "art" / "compiledtextures" / "Gu");
    fs::create_directories(dir / "art" / "w3d" / "gu");
    writeFile(dir / "Data" / "Art" / "textures" / "Hull.DDS", {1, 2, 3});
    writeFile(dir / "Data" / "Art" / "textures" / "Decal.png", {7});
    writeFile(dir / "Data" / "Art" / "Models" / "local.tga", {4});
    writeFile(dir / "art" / "compiledtextures" / "Gu" / "GUARAGORN.dds", {5, 6});
    fs::create_directories(dir / "Data" / "Art" / "Models" / "folder.tga"); // a folder is not a texture
    const std::string unit = (dir / "Data" / "Art" / "Models" / "UNIT.ALO").string();
    const std::string skin = (dir / "art" / "w3d" / "gu" / "guaragorn_skn.w3d").string();
    writeFile(unit, {0});
    writeFile(skin, {0});
    const Resolver resolver; // no mounted folders: the folders around the model on disk
    gltf::ResolverTextureLookup alo(resolver, unit);
    std::string path;
    std::vector<uint8_t> bytes;
    REQUIRE(alo.find("hull.tga", path, bytes)); // other extension, other case, Data/Art/Textures of an ancestor
    CHECK(bytes == std::vector<uint8_t>{1, 2, 3});
    CHECK(fs::path(path).filename() == "Hull.DDS");
    CHECK(resolver.findTexture("hull.tga", unit) == path);
    REQUIRE(alo.find("LOCAL.TGA", path, bytes));
    CHECK(bytes == std::vector<uint8_t>{4});
    REQUIRE(alo.find("some\\dir\\local.dds", path, bytes)); // stored folder part ignored
    REQUIRE(alo.find("decal.tga", path, bytes));            // a texture a modder converted to .png
    CHECK(bytes == std::vector<uint8_t>{7});
    CHECK(!alo.find("folder.tga", path, bytes));
    CHECK(!alo.find("absent.dds", path, bytes));
    CHECK(!alo.find("..", path, bytes));
    CHECK(resolver.findTexture("absent.dds", unit).empty());
    gltf::ResolverTextureLookup w3d(resolver, skin);
    REQUIRE(w3d.find("GUAragorn.tga", path, bytes)); // art/compiledtextures/<first two letters>/
    CHECK(bytes == std::vector<uint8_t>{5, 6});
    // Folders the user added are searched too.
    const fs::path extra = dir / "extra";
    fs::create_directories(extra);
    writeFile(extra / "Paint.tga", {8});
    const Resolver withExtra(nullptr, {extra.string()});
    CHECK(withExtra.findTexture("paint.tga", unit) == (extra / "Paint.tga").string());
    CHECK(resolver.findTexture("paint.tga", unit).empty());
    fs::remove_all(dir);
}

TEST_CASE("glTF export keeps broken skin data inside glTF's rules", "[export]") {
    Model m;
    m.format = Format::AlamoModel;
    m.sourcePath = "guard.alo";
    Bone root;
    root.name = "Root";
    Bone child;
    child.name = "Child";
    child.parent = 0;
    child.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 2));
    m.skeleton.bones = {root, child};
    Mesh mesh;
    mesh.name = "Skin";
    SubMesh sm;
    sm.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    sm.normals = {{0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {0, 0, 1}};                 // a zero and a long normal
    sm.boneIndices = {{0, 0, 0, 0}, {1, 1, 0, 0}, {7, 0, 0, 0}, {0, 1, 0, 0}}; // 7: outside the bone map
    sm.boneWeights = {{0, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}, {2, 2, 0, 0}};
    sm.boneMap = {0, 1};
    sm.indices = {0, 1, 2, 1, 3, 2, 0, 1, 9}; // last triangle points past the vertices
    mesh.subMeshes = {sm};
    m.meshes = {mesh};
    const fs::path dir = tempDir("guards");
    const gltf::ExportStats st = gltf::exportModel(m, {}, {}, nullptr, (dir / "guard.glb").string());
    CHECK(st.triangles == 2);
    CHECK(std::any_of(st.warnings.begin(), st.warnings.end(),
                      [](const std::string& w) { return w.find("out-of-range") != std::string::npos; }));
    if (validatorAvailable()) {
        const Validation v = validate(dir / "guard.glb");
        INFO(v.raw);
        CHECK(v.errors == 0);
        CHECK(v.warnings == 0);
    }
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, (dir / "guard.glb").string()));
    const auto& prim = g.meshes.at(0).primitives.at(0);
    const std::vector<uint32_t> joints = uints(g, prim.attributes.at("JOINTS_0"));
    const std::vector<float> weights = floats(g, prim.attributes.at("WEIGHTS_0"));
    CHECK(joints[4] == 1); // vertex 1: joint 1 twice merged into one influence
    CHECK(weights[4] == 1.0f);
    CHECK(weights[5] == 0.0f);
    CHECK(weights[12] == Approx(0.5f)); // vertex 3: weights normalised
    CHECK(weights[0] == 1.0f);          // vertex 0: no weight -> the first bone
    CHECK_THROWS(gltf::exportModel(m, {}, {}, nullptr, (dir / "guard.obj").string()));
    CHECK_THROWS(gltf::exportModel(m, {}, {}, nullptr, (dir / "missing" / "guard.glb").string()));
    fs::remove_all(dir);
}

TEST_CASE("glTF materials follow the shared material policy: double-sided unless the format's engine culls back "
          "faces, shadow volumes and collision meshes left out",
          "[export][materials]") {
    auto quad = [](const std::string& shader) {
        SubMesh sm;
        sm.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
        sm.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
        sm.indices = {0, 1, 2, 1, 3, 2};
        sm.material.shader = shader;
        return sm;
    };
    Model m;
    m.sourcePath = "policy";
    Bone root;
    root.name = "Root";
    m.skeleton.bones = {root};
    Mesh hull;
    hull.name = "Hull";
    hull.bone = 0;
    hull.subMeshes = {quad("MeshGloss.fx"), quad("MeshShadowVolume.fx")}; // the shadow volume by its shader
    Mesh box;
    box.name = "Box";
    box.bone = 0;
    box.shadowOrCollision = true; // a collision mesh by its mesh
    box.subMeshes = {quad("MeshGloss.fx")};
    m.meshes = {hull, box};
    const fs::path dir = tempDir("policy");
    for (const Format f : {Format::AlamoModel, Format::W3d, Format::Bw2Model}) {
        INFO(formatName(f));
        m.format = f;
        const fs::path out = dir / (std::string(formatName(f)) + ".glb");
        const gltf::ExportStats st = gltf::exportModel(m, {}, {}, nullptr, out.string());
        CHECK(st.triangles == 2); // only the hull's drawn sub-mesh
        const tinygltf::Model g = [&] {
            tinygltf::TinyGLTF loader;
            tinygltf::Model model;
            std::string err, warn;
            REQUIRE(loader.LoadBinaryFromFile(&model, &err, &warn, out.string()));
            return model;
        }();
        size_t primitives = 0;
        for (const auto& mesh : g.meshes)
            primitives += mesh.primitives.size();
        CHECK(primitives == 1);
        REQUIRE(g.materials.size() >= 1);
        for (const auto& mat : g.materials)
            CHECK(mat.doubleSided == (f == Format::Bw2Model)); // Alamo and W3D cull back faces; B&W2 does not
    }
    // A W3D mesh flagged two-sided is drawn from both sides by ww3d2: doubleSided.
    m.format = Format::W3d;
    m.meshes[0].twoSided = true;
    const fs::path out = dir / "w3d-two-sided.glb";
    gltf::exportModel(m, {}, {}, nullptr, out.string());
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, out.string()));
    REQUIRE(g.materials.size() >= 1);
    for (const auto& mat : g.materials)
        CHECK(mat.doubleSided);
    fs::remove_all(dir);
}

TEST_CASE("glTF export leaves out MeshLightVisualize sub-meshes, which the view hides (the shared material policy)",
          "[export][materials]") {
    // A writer-made .alo: "Hull" holds a MeshGloss quad and a MeshLightVisualize quad, "LightViz" only a
    // MeshLightVisualize quad. Neither mesh is flagged shadow/collision by the reader: the shader name hides them.
    auto quad = [](const std::string& shader, float x) {
        SubMesh sm;
        sm.material.shader = shader;
        sm.vertexFormat = "alD3dVertNU2U3U3";
        sm.positions = {{x, 0, 0}, {x + 1, 0, 0}, {x + 1, 0, 1}, {x, 0, 1}};
        sm.normals.assign(4, glm::vec3(0, -1, 0));
        sm.tangents.assign(4, glm::vec3(1, 0, 0));
        sm.binormals.assign(4, glm::vec3(0, 0, 1));
        sm.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        sm.indices = {0, 1, 2, 0, 2, 3};
        return sm;
    };
    Model src;
    src.format = Format::AlamoModel;
    Bone root;
    root.name = "Root";
    src.skeleton.bones = {root};
    Mesh hull;
    hull.name = hull.baseName = "Hull";
    hull.bone = 0;
    hull.subMeshes = {quad("MeshGloss.fx", -2), quad("MeshLightVisualize.fx", 1)};
    hull.boundsMin = {-2, 0, 0};
    hull.boundsMax = {2, 0, 1};
    Mesh viz;
    viz.name = viz.baseName = "LightViz";
    viz.bone = 0;
    viz.subMeshes = {quad("MeshLightVisualize.fx", 3)};
    viz.boundsMin = {3, 0, 0};
    viz.boundsMax = {4, 0, 1};
    src.meshes = {hull, viz};
    const std::vector<uint8_t> bytes = alamo::writeModel(src);
    const Model m = alamo::readModel(ByteSpan(bytes.data(), bytes.size()), "lightviz.alo");
    REQUIRE(m.meshes.size() == 2);
    REQUIRE(m.meshes[0].subMeshes.size() == 2);
    CHECK_FALSE(m.meshes[1].shadowOrCollision); // not hidden by the reader's mesh flag
    CHECK(materialPolicy(m.format, m.meshes[0], m.meshes[0].subMeshes[1].material).hiddenByDefault);
    CHECK_FALSE(materialPolicy(m.format, m.meshes[0], m.meshes[0].subMeshes[0].material).hiddenByDefault);

    const fs::path dir = tempDir("lightviz");
    const fs::path out = dir / "lightviz.glb";
    const gltf::ExportStats st = gltf::exportModel(m, {}, {}, nullptr, out.string());
    CHECK(st.triangles == 2); // the MeshGloss quad alone
    CHECK(st.vertices == 4);
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, out.string()));
    size_t primitives = 0;
    for (const auto& mesh : g.meshes) {
        primitives += mesh.primitives.size();
        CHECK(mesh.name != "LightViz");
    }
    CHECK(primitives == 1);
    for (const auto& node : g.nodes)
        CHECK(node.name != "LightViz");
    for (const auto& mat : g.materials) // no material of the light-visualize shader was written
        CHECK(mat.extras.Get("shader").Get<std::string>().find("LightVisualize") == std::string::npos);
    // The mesh with nothing drawn is named with the other meshes left out.
    REQUIRE(g.scenes.size() >= 1);
    const tinygltf::Value& notExported = g.scenes[0].extras.Get("meshesNotExported");
    REQUIRE(notExported.IsArray());
    bool named = false;
    for (size_t i = 0; i < notExported.ArrayLen(); ++i)
        named = named || notExported.Get(int(i)).Get<std::string>() == "LightViz";
    CHECK(named);
    fs::remove_all(dir);
}

namespace {

// RGBA of the first pixel of the GLB image named `name` (decoded by tinygltf); {} when absent.
std::vector<uint8_t> firstPixel(const tinygltf::Model& g, const std::string& name) {
    for (const tinygltf::Image& im : g.images)
        if (im.name == name && im.image.size() >= 4)
            return std::vector<uint8_t>(im.image.begin(), im.image.begin() + 4);
    return {};
}

std::vector<uint8_t> rgbaOf(const std::string& fixtureText) {
    const auto c = test::texColor(fixtureText);
    return std::vector<uint8_t>(c.begin(), c.end());
}

std::set<std::string> animationNames(const tinygltf::Model& g) {
    std::set<std::string> out;
    for (const auto& a : g.animations)
        out.insert(a.name);
    return out;
}

tinygltf::Model loadGlb(const fs::path& p) {
    tinygltf::TinyGLTF loader;
    tinygltf::Model g;
    std::string err, warn;
    INFO(p.string() << ": " << err);
    REQUIRE(loader.LoadBinaryFromFile(&g, &err, &warn, p.string()));
    return g;
}

} // namespace

TEST_CASE("rigscope-cli export from archives and game installs: the mod's texture, clips inside the archive, "
          "SAGE hierarchy and compiled textures",
          "[export][cli][vfs]") {
    if (!fs::exists(RIGSCOPE_CLI)) {
        FAIL(RIGSCOPE_CLI << " not built: the test needs the rigscope-cli target");
    }
    const std::string cli = std::string("'") + RIGSCOPE_CLI + "' ";
    test::FakeInstall fi(true);
    const fs::path dir = tempDir("vfs");
    const std::string models = fi.eaw + "/Data/Models.meg";
    const std::string unit = models + ":DATA/ART/MODELS/W_UNIT.ALO";
    const std::string mounts = " --game '" + fi.eaw + "' --mod '" + fi.eawMod + "' ";

    // ARCHIVE:PATH with the game and the mod: W_TEST.TGA resolves to the mod's loose W_TEST.dds (green), the
    // clips beside the model inside Models.meg are exported (not W_OTHER's).
    std::string r = run(cli + "export '" + unit + "'" + mounts + "-o '" + (dir / "unit.glb").string() + "' 2>&1");
    INFO(r);
    REQUIRE(r.find("EXIT=0") != std::string::npos);
    tinygltf::Model g = loadGlb(dir / "unit.glb");
    CHECK(firstPixel(g, "W_TEST") == rgbaOf("mod W_TEST"));
    CHECK(animationNames(g).size() == 2);
    CHECK(g.animations.size() == 2);
    if (validatorAvailable()) {
        const Validation v = validate(dir / "unit.glb");
        INFO(v.raw);
        CHECK(v.errors == 0);
    }

    // The same model by its game path alone, without the mod: the game's texture from Textures.meg (red).
    r = run(cli + "export DATA/ART/MODELS/W_UNIT.ALO --game '" + fi.eaw + "' -o '" + (dir / "game.glb").string() +
            "' 2>&1");
    INFO(r);
    REQUIRE(r.find("EXIT=0") != std::string::npos);
    CHECK(firstPixel(loadGlb(dir / "game.glb"), "W_TEST") == rgbaOf("game W_TEST"));

    // The archive alone (no mounts): textures are not in Models.meg, clips are.
    r = run(cli + "export '" + unit + "' -o '" + (dir / "alone.glb").string() + "' 2>&1");
    INFO(r);
    REQUIRE(r.find("EXIT=0") != std::string::npos);
    tinygltf::Model alone = loadGlb(dir / "alone.glb");
    CHECK(alone.images.empty());
    CHECK(alone.animations.size() == 2);

    // --batch over the archive with the mounts: one GLB per model entry, the same lookups.
    const fs::path out = dir / "batch";
    fs::create_directories(out);
    r = run(cli + "export --batch '" + models + "'" + mounts + "-o '" + out.string() + "' 2>&1");
    INFO(r);
    REQUIRE(r.find("EXIT=0") != std::string::npos);
    CHECK(r.find("1 exported, 0 skipped, 0 failed") != std::string::npos);
    const fs::path batchGlb = out / "DATA" / "ART" / "MODELS" / "W_UNIT.glb";
    REQUIRE(fs::exists(batchGlb));
    tinygltf::Model bg = loadGlb(batchGlb);
    CHECK(firstPixel(bg, "W_TEST") == rgbaOf("mod W_TEST"));
    CHECK(bg.animations.size() == 2);

    // SAGE: the skin inside W3D.big finds its hierarchy in art/w3d/te/, its clip (same hierarchy) and the quad
    // texture in art/compiledtextures/qu/ of the mod's mod.big (magenta) over the game's Textures.big.
    const std::string skin = fi.bfme2 + "/W3D.big:art\\w3d\\un\\unit_skn.w3d";
    r = run(cli + "export '" + skin + "' --game '" + fi.bfme2 + "' --mod '" + fi.bfme2Mod + "' -o '" +
            (dir / "skn.glb").string() + "' 2>&1");
    INFO(r);
    REQUIRE(r.find("EXIT=0") != std::string::npos);
    tinygltf::Model sg = loadGlb(dir / "skn.glb");
    CHECK(firstPixel(sg, "quad") == rgbaOf("mod quad"));
    REQUIRE(sg.animations.size() == 1);
    CHECK(sg.animations[0].name.find("TEST_IDLA") != std::string::npos);
    CHECK(sg.skins.size() >= 1);
    // The hierarchy's bones are nodes (found in art/w3d/te/test_skl.w3d inside the archive).
    const Document skl = Resolver().read(fi.bfme2 + "/W3D.big:art/w3d/te/test_skl.w3d");
    REQUIRE(skl.model);
    size_t boneNodes = 0;
    for (const Bone& b : skl.model->skeleton.bones)
        for (const auto& n : sg.nodes)
            if (n.name == b.name) {
                ++boneNodes;
                break;
            }
    CHECK(boneNodes == skl.model->skeleton.bones.size());
    fs::remove_all(dir);
}

TEST_CASE("B&W2 skin inside an archive: its animation library found through the mount table, in core and the CLI",
          "[export][cli][vfs]") {
    const fs::path dir = tempDir("bw2meg");
    const std::string meg = (dir / "Creatures.meg").string();
    const auto lib = bw2::writeAl(test::bw2fx::library());
    writeFile(meg, vfs::writeMeg(2, {{"DATA\\CREATURES\\CREATURE.BWM",
                                      bw2::writeBwm(test::bw2fx::skinModel(bw2::SkinLayout::U8PerIndex))},
                                     {"DATA\\CREATURES\\CREATURE.AL", lib},
                                     {"DATA\\CREATURES\\OTHER.AL", bw2::writeAl(test::bw2fx::library())}}));
    const std::string skinPath = meg + ":DATA\\CREATURES\\CREATURE.BWM";
    const Document skin = Resolver().read(skinPath);
    REQUIRE(skin.model);
    const auto found = Resolver().matchingLibraries(skinPath, skin.model->skeleton.bones.size());
    REQUIRE(found.size() == 2);
    CHECK(found[0] == meg + ":DATA\\CREATURES\\CREATURE.AL");
    const Document al = Resolver().read(found[0]); // loadable as listed
    REQUIRE(al.model);
    CHECK(bw2::libraryFits(*skin.model, al.model->skeleton));
    CHECK(Resolver().matchingLibraries(skinPath, skin.model->skeleton.bones.size() + 1).empty());
    if (fs::exists(RIGSCOPE_CLI)) {
        // Without --clip, the export applies the first fitting library beside the skin inside the archive.
        const std::string r = run(std::string("'") + RIGSCOPE_CLI + "' export '" + skinPath + "' -o '" +
                                  (dir / "creature.glb").string() + "' 2>&1");
        INFO(r);
        REQUIRE(r.find("EXIT=0") != std::string::npos);
        CHECK(r.find("CREATURE.AL applied") != std::string::npos);
        tinygltf::Model g = loadGlb(dir / "creature.glb");
        CHECK(g.animations.size() == al.clips.size());
    }
    fs::remove_all(dir);
}
