// W3D files of an import (gltf_import.h w3dFiles): the model's skeleton as a hierarchy, its meshes and an HLOD in
// one file, one uncompressed clip per file.
#include "gltf_import.h"

#include "common/error.h"
#include "formats/engine_limits.h"
#include "scene/pose.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtx/component_wise.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

namespace rs::gltfimport {

namespace {

namespace fs = std::filesystem;

// Names within W3D_NAME_LEN: refused naming the element, or (rename) cut and made unique, reported.
struct Namer {
    std::string file;
    bool rename = false;
    std::vector<std::string>* report = nullptr;
    std::vector<std::string> used;
    std::string operator()(const std::string& name, const std::string& what) {
        std::string n = name;
        if (n.size() > limits::kW3dNameChars) {
            if (!rename)
                throw ParseError(file, what, ParseError::kNoOffset,
                                 "name \"" + name + "\" is longer than W3D's " + std::to_string(limits::kW3dNameChars) +
                                     " characters (use --rename)");
            n = n.substr(0, limits::kW3dNameChars);
        }
        for (int k = 1; std::any_of(used.begin(), used.end(), [&](const std::string& u) { return iequals(u, n); });
             ++k) {
            const std::string suffix = std::to_string(k);
            if (!rename)
                throw ParseError(file, what, ParseError::kNoOffset,
                                 "name \"" + name + "\" is used twice (use --rename)");
            n = n.substr(0, std::min(n.size(), limits::kW3dNameChars - suffix.size())) + suffix;
        }
        if (n != name && report) report->push_back(what + " renamed " + n);
        used.push_back(n);
        return n;
    }
};

glm::u8vec4 color8(const glm::vec4& c) {
    const glm::vec4 x = glm::clamp(c, 0.0f, 1.0f) * 255.0f + 0.5f;
    return glm::u8vec4(uint8_t(x.r), uint8_t(x.g), uint8_t(x.b), 0);
}

Document checkW3d(const std::string& file, ByteSpan bytes, const w3d::HierarchyLookup& lookup) {
    Document d = w3d::loadSet(bytes, file, lookup);
    if (!d.warnings.empty())
        throw ParseError(file, {}, ParseError::kNoOffset,
                         "written file reads back with a warning: " + d.warnings.front());
    if (d.model && !d.model->warnings.empty())
        throw ParseError(file, {}, ParseError::kNoOffset,
                         "written file reads back with a warning: " + d.model->warnings.front());
    return d;
}

// Shortest-arc slerp as ww3d2 (and w3d_anim's timecoded decoder) interpolates Q keys.
glm::quat slerpKeys(const glm::quat& a, glm::quat b, float t) {
    if (glm::dot(a, b) < 0.0f) b = -b;
    return glm::slerp(a, b, t);
}

// Rotation angle between two quaternions: 4 asin(|a - b| / 2) of the unit quaternions on the same side (exact
// for small angles, where 2 acos(dot) loses everything below ~1e-3 rad to float rounding).
float quatAngle(const glm::quat& a, const glm::quat& b) {
    const glm::dquat x = glm::normalize(glm::dquat(a)), y0 = glm::normalize(glm::dquat(b));
    const glm::dquat y = glm::dot(x, y0) < 0.0 ? -y0 : y0;
    const glm::dquat d = x - y;
    const double len = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w);
    return float(4.0 * std::asin(std::min(1.0, len * 0.5)));
}

// Timecoded keys of one channel (`vl` 1: a translation component, 4: a quaternion x,y,z,w per frame): frame 0,
// the last frame, and between them as few keys as the greedy pass finds such that interpolating the keys
// (lerp, shortest-arc slerp) gives every frame within `tol` (length units, or radians for quaternions). Segments
// are at most kMaxSpan frames (bounds the work to O(frames * kMaxSpan)).
void timecodedKeys(w3d::ChannelSpec& ch, int vl, uint32_t frames, float tol) {
    constexpr uint32_t kMaxSpan = 256;
    const std::vector<float> v = std::move(ch.values);
    auto q = [&](uint32_t f) { return glm::quat(v[f * 4 + 3], v[f * 4], v[f * 4 + 1], v[f * 4 + 2]); };
    auto fits = [&](uint32_t a, uint32_t b) {
        for (uint32_t f = a + 1; f < b; ++f) {
            const float t = float(f - a) / float(b - a);
            if (vl == 1 ? std::abs(v[a] + (v[b] - v[a]) * t - v[f]) > tol
                        : quatAngle(slerpKeys(q(a), q(b), t), q(f)) > tol)
                return false;
        }
        return true;
    };
    ch.keyFrames.clear();
    ch.values.clear();
    auto key = [&](uint32_t f) {
        ch.keyFrames.push_back(f);
        ch.values.insert(ch.values.end(), v.begin() + long(f) * vl, v.begin() + long(f + 1) * vl);
    };
    key(0);
    uint32_t a = 0;
    while (a + 1 < frames) {
        uint32_t b = a + 1;
        while (b + 1 < frames && b + 1 - a <= kMaxSpan && fits(a, b + 1))
            ++b;
        key(b);
        a = b;
    }
}

} // namespace

std::vector<OutputFile> w3dFiles(const ImportResult& r, const std::string& outW3d, const W3dOptions& o,
                                 std::vector<std::string>* report, CodecError* codecErrorOut) {
    CodecError codecError;
    const Model& m = r.model;
    const std::string stem = fs::path(outW3d).stem().string();
    Namer names{outW3d, o.rename, report, {}};
    fs::path dir = fs::path(outW3d).parent_path();
    // ---- hierarchy
    w3d::Hierarchy h;
    h.version = 0x40001;
    h.name = names(stem, "hierarchy");
    Namer pivotNames{outW3d, o.rename, report, {}};
    const auto& bones = m.skeleton.bones;
    std::vector<glm::mat4> bindW(bones.size());
    m.skeleton.bindWorld(bindW.data());
    for (size_t b = 0; b < bones.size(); ++b) {
        w3d::Pivot p;
        p.name = b == 0 ? pivotNames("RootTransform", "bone 0")
                        : pivotNames(bones[b].name, "bone \"" + bones[b].name + "\"");
        p.parent = bones[b].parent < 0 ? 0xFFFFFFFFu : uint32_t(bones[b].parent);
        glm::vec3 s, t, skew;
        glm::vec4 persp;
        glm::quat q;
        glm::decompose(bones[b].bindLocal, s, q, t, skew, persp);
        if (glm::any(glm::greaterThan(glm::abs(s - glm::vec3(1.0f)), glm::vec3(1e-4f))))
            throw ParseError(outW3d, "bone \"" + bones[b].name + "\"", ParseError::kNoOffset,
                             "W3D pivots hold no scale; the node's rest scale is not 1");
        p.translation = t;
        p.rotation = glm::normalize(q);
        h.pivots.push_back(p);
    }
    // A hidden bone: W3D pivots hold no default visibility (each clip holds its visibility bits, written below).
    {
        std::string hidden;
        size_t n = 0;
        for (const Bone& b : bones)
            if (!b.visible && n++ < 8) hidden += (hidden.empty() ? "" : ", ") + b.name;
        if (n && report)
            report->push_back(std::to_string(n) + " bone(s) hidden by default (" + hidden + (n > 8 ? ", ..." : "") +
                              "): W3D pivots hold no default visibility, so they show outside clips; each clip "
                              "keeps them hidden by its visibility bits");
    }
    // ---- meshes
    std::vector<w3d::RawMesh> meshes;
    std::map<int, std::vector<w3d::SubObject>> lodObjects; // LOD -> objects (-1: every LOD)
    Namer meshNames{outW3d, o.rename, report, {}};
    const int bonesPerVertex = o.bfme ? limits::kW3dBonesPerVertexBfme : limits::kW3dBonesPerVertexGenerals;
    size_t reducedToOne = 0;
    for (const Mesh& mesh : m.meshes)
        for (size_t si = 0; si < mesh.subMeshes.size(); ++si) {
            const SubMesh& sm = mesh.subMeshes[si];
            w3d::RawMesh w;
            w.version = 0x40002;
            const std::string base = mesh.subMeshes.size() > 1 ? mesh.name + "_" + std::to_string(si) : mesh.name;
            w.name = meshNames(base, "mesh \"" + base + "\"");
            w.container = h.name;
            if (sm.vertexCount() > limits::kW3dVerticesPerMesh)
                throw ParseError(outW3d, "mesh \"" + base + "\"", ParseError::kNoOffset,
                                 std::to_string(sm.vertexCount()) + " vertices; a W3D mesh holds at most " +
                                     std::to_string(limits::kW3dVerticesPerMesh));
            if (sm.indices.size() > limits::kW3dIndicesPerMesh)
                throw ParseError(outW3d, "mesh \"" + base + "\"", ParseError::kNoOffset,
                                 std::to_string(sm.indices.size()) + " indices; a W3D mesh holds at most " +
                                     std::to_string(limits::kW3dIndicesPerMesh));
            const bool skin = sm.skinned();
            w.attributes = skin ? 0x00020000u : 0u;
            // Two bones per vertex (BFME, a model imported with bonesPerVertex 2): influences in percent (the first
            // rounded, the second 100 minus it; a vertex whose second rounds to 0 binds one bone), the vertex in its
            // second bone's space in 0xC00/0xC01 (for every vertex once one has two; the first's for one-bone ones).
            bool dual = false;
            if (skin)
                for (size_t v = 0; v < sm.vertexCount(); ++v)
                    if (v < sm.boneWeights.size() && sm.boneWeights[v].y > 0.0f) {
                        if (bonesPerVertex >= 2 && sm.positions2.size() == sm.vertexCount())
                            dual = true;
                        else
                            ++reducedToOne;
                    }
            for (size_t v = 0; v < sm.vertexCount(); ++v) {
                glm::vec3 p = sm.positions[v];
                glm::vec3 n = v < sm.normals.size() ? sm.normals[v] : glm::vec3(0, 0, 1);
                if (skin) { // W3D skins store each vertex in its bone's space
                    const int b = sm.boneMap[sm.boneIndices[v].x];
                    const glm::mat4 inv = glm::inverse(bindW[size_t(b)]);
                    p = glm::vec3(inv * glm::vec4(p, 1.0f));
                    n = glm::normalize(glm::mat3(inv) * n);
                    w3d::VertexInfluence inf;
                    inf.bone = uint16_t(b);
                    if (dual) {
                        const float w2 = sm.boneWeights[v].y;
                        const int pct2 = 100 - int(std::lround((1.0f - w2) * 100.0f));
                        glm::vec3 p2 = p, n2 = n;
                        if (pct2 > 0) {
                            const int b2 = sm.boneMap[sm.boneIndices[v].y];
                            const glm::mat4 inv2 = glm::inverse(bindW[size_t(b2)]);
                            p2 = glm::vec3(inv2 * glm::vec4(sm.positions2[v], 1.0f));
                            n2 = v < sm.normals2.size() ? glm::mat3(inv2) * sm.normals2[v] : n;
                            n2 = glm::length(n2) > 0.0f ? glm::normalize(n2) : n;
                            inf.bone2 = uint16_t(b2);
                        }
                        inf.weight = uint16_t(100 - pct2);
                        inf.weight2 = uint16_t(pct2);
                        w.positions2.push_back(p2);
                        w.normals2.push_back(n2);
                    } else if (bonesPerVertex >= 2) {
                        inf.weight = 100; // BFME's one-bone vertices: all on the first
                    }
                    w.influences.push_back(inf);
                }
                w.positions.push_back(p);
                w.normals.push_back(n);
            }
            w.indices = sm.indices;
            w.numVertices = uint32_t(w.positions.size());
            w.numTris = uint32_t(w.indices.size() / 3);
            w.boundsMin = w.boundsMax = w.positions.empty() ? glm::vec3(0) : w.positions[0];
            for (const auto& p : w.positions)
                w.boundsMin = glm::min(w.boundsMin, p), w.boundsMax = glm::max(w.boundsMax, p);
            // One pass: vertex material from Diffuse/Emissive, an opaque or alpha-blended shader, BaseTexture.
            w3d::VertexMaterial vm;
            vm.name = "mat";
            const MaterialParam* diffuse = sm.material.find("Diffuse");
            const MaterialParam* emissive = sm.material.find("Emissive");
            if (diffuse) vm.diffuse = color8(diffuse->value);
            if (emissive) vm.emissive = color8(emissive->value);
            vm.ambient = vm.diffuse;
            w.vertexMaterials = {vm};
            w3d::Shader sh;
            const bool alpha = toLower(sm.material.shader).find("alpha") != std::string::npos;
            if (alpha) sh.srcBlend = 2, sh.destBlend = 5, sh.depthMask = 0;
            w3d::MaterialPass pass;
            pass.vertexMaterialIds = {0};
            pass.shaderIds = {0};
            std::string texture;
            for (const MaterialParam& p : sm.material.params)
                if (p.type == ParamType::Texture &&
                    (iequals(p.name, "BaseTexture") || iequals(p.name, "DiffuseTexture")))
                    texture = p.texture;
            if (!texture.empty() && sm.uv0.size() == sm.vertexCount()) {
                sh.texturing = 1;
                w3d::TextureRef t;
                t.name = fs::path(texture).stem().string() + ".tga"; // the SAGE games find the .dds for a .tga
                w.textures = {t};
                w3d::TextureStage st;
                st.textureIds = {0};
                for (const glm::vec2& uv : sm.uv0)
                    st.uv.push_back({uv.x, 1.0f - uv.y});
                pass.stages = {st};
            }
            w.shaders = {sh};
            w.passes = {pass};
            meshes.push_back(std::move(w));
            w3d::SubObject so;
            so.bone = skin || mesh.bone < 0 ? 0u : uint32_t(mesh.bone);
            so.name = h.name + "." + meshes.back().name;
            lodObjects[mesh.lod].push_back(so);
        }
    if (reducedToOne && report)
        report->push_back(
            std::to_string(reducedToOne) + " skin vertices bound to two bones keep their heaviest (" +
            std::string(o.bfme ? "import with two bones per vertex for BFME" : "Generals' skins bind one") + ")");
    // ---- HLOD: one LOD per distinct _LOD<n> (higher n = more detail, as Alamo), meshes without one in each.
    w3d::Hlod hl;
    hl.name = h.name;
    hl.hierarchy = h.name;
    std::vector<int> lods;
    for (const auto& [lod, objs] : lodObjects)
        if (lod >= 0) lods.push_back(lod);
    if (lods.empty()) lods.push_back(-1);
    for (size_t k = 0; k < lods.size(); ++k) {
        w3d::LodArray a;
        a.maxScreenSize = k + 1 == lods.size() ? 3.0e38f : 0.25f * float(k + 1) / float(lods.size());
        for (const auto& [lod, objs] : lodObjects)
            if (lod == lods[k] || lod < 0) a.objects.insert(a.objects.end(), objs.begin(), objs.end());
        hl.lods.push_back(std::move(a));
    }
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, h);
    for (const w3d::RawMesh& w : meshes)
        w3d::writeMesh(cw, w);
    w3d::writeHlod(cw, hl);
    std::vector<OutputFile> files;
    if (o.sageLayout) {
        std::string two = toLower(h.name.substr(0, std::min<size_t>(2, h.name.size())));
        dir = dir / "art" / "w3d" / two;
    }
    OutputFile model;
    model.path = (dir / (h.name + ".w3d")).string();
    model.bytes = cw.take();
    const auto hierarchies = std::make_shared<const std::vector<w3d::Hierarchy>>(std::vector<w3d::Hierarchy>{h});
    const w3d::HierarchyLookup lookup = [&](const std::string& n) -> std::optional<w3d::HierarchyFile> {
        if (!iequals(n, h.name)) return std::nullopt;
        return w3d::HierarchyFile{model.path, hierarchies};
    };
    checkW3d(model.path, ByteSpan(model.bytes), lookup);
    files.push_back(std::move(model));
    // The rig's size (extent of the bind pose's bone origins): timecoded key tolerances are relative to it.
    float rig = 1e-3f;
    {
        glm::vec3 lo(1e30f), hi(-1e30f);
        for (const glm::mat4& w : bindW)
            lo = glm::min(lo, glm::vec3(w[3])), hi = glm::max(hi, glm::vec3(w[3]));
        if (!bindW.empty()) rig = std::max(rig, glm::length(hi - lo));
    }
    // ---- clips: additive to the bind pose (local = bindLocal * T * R): T, R of inverse(bindLocal) * local.
    for (const Clip& clip : r.clips) {
        std::string cname = clip.name;
        for (char& ch : cname)
            if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') ch = '_';
        if (istartsWith(cname, stem + "_")) cname = cname.substr(stem.size() + 1);
        w3d::ClipSpec spec;
        spec.name = names(h.name + "_" + cname, "clip \"" + clip.name + "\"");
        spec.hierarchy = h.name;
        spec.frames = clip.frameCount;
        spec.fps = uint32_t(std::lround(clip.fps));
        spec.codec = o.codec == W3dCodec::Timecoded       ? w3d::ClipCodec::Timecoded
                     : o.codec == W3dCodec::AdaptiveDelta ? w3d::ClipCodec::AdaptiveDelta
                                                          : w3d::ClipCodec::Uncompressed;
        if (spec.codec != w3d::ClipCodec::Uncompressed) spec.version = 0x1; // compressed clips (flavor 0 / 1)
        const ClipBinding bind = bindClip(m.skeleton, clip);
        float droppedScale = 0.0f;
        PoseBuffers buf(bones.size());
        std::vector<std::vector<glm::mat4>> local(clip.frameCount);
        std::vector<std::vector<uint8_t>> vis(clip.frameCount);
        for (uint32_t f = 0; f < clip.frameCount; ++f) {
            evaluatePose(m.skeleton, &clip, &bind, float(f), LoopMode::Once, buf.view());
            local[f] = buf.local;
            vis[f].resize(bones.size());
            for (size_t b = 0; b < bones.size(); ++b) // own visibility: the track's bit, else the bone's flag
                vis[f][b] = bind.trackForBone[b] >= 0 && !clip.tracks[size_t(bind.trackForBone[b])].visibility.empty()
                                ? clip.tracks[size_t(bind.trackForBone[b])].visibility[std::min<size_t>(
                                      f, clip.tracks[size_t(bind.trackForBone[b])].visibility.size() - 1)]
                                : uint8_t(bones[b].visible);
        }
        for (size_t b = 0; b < bones.size(); ++b) {
            if (bind.trackForBone[b] < 0) continue;
            const glm::mat4 inv = glm::inverse(bones[b].bindLocal);
            w3d::ChannelSpec ch[4];
            for (int k = 0; k < 4; ++k)
                ch[k].pivot = uint16_t(b), ch[k].type = uint8_t(k < 3 ? k : 6);
            glm::quat prev(1, 0, 0, 0);
            for (uint32_t f = 0; f < clip.frameCount; ++f) {
                const glm::mat4 d = inv * local[f][b];
                glm::vec3 s, t, skew;
                glm::vec4 persp;
                glm::quat q;
                glm::decompose(d, s, q, t, skew, persp);
                // W3D clips hold no scale: up to 1% (what a decoded quaternion off unit length gives a matrix, as
                // in stock clips) is dropped and reported; more, in a visible frame, is refused.
                const float off = glm::compMax(glm::abs(s - glm::vec3(1.0f)));
                if (off > 1e-2f && vis[f][b])
                    throw ParseError(outW3d, "clip \"" + clip.name + "\" bone \"" + bones[b].name + "\"",
                                     ParseError::kNoOffset,
                                     "frame " + std::to_string(f) + " scales the bone; W3D clips hold no scale");
                if (vis[f][b]) droppedScale = std::max(droppedScale, off);
                q = glm::normalize(q);
                if (f > 0 && glm::dot(prev, q) < 0) q = -q;
                prev = q;
                for (int k = 0; k < 3; ++k)
                    ch[k].values.push_back(t[k]);
                ch[3].values.insert(ch[3].values.end(), {q.x, q.y, q.z, q.w});
            }
            for (auto& c : ch)
                spec.channels.push_back(std::move(c));
            bool changes = false;
            for (uint32_t f = 0; f < clip.frameCount; ++f)
                changes |= vis[f][b] != vis[0][b] || vis[f][b] != uint8_t(bones[b].visible);
            if (changes) {
                w3d::BitChannelSpec bc;
                bc.pivot = uint16_t(b);
                bc.defaultValue = uint8_t(bones[b].visible);
                for (uint32_t f = 0; f < clip.frameCount; ++f)
                    bc.bits.push_back(vis[f][b]);
                spec.bitChannels.push_back(std::move(bc));
            }
        }
        if (droppedScale > 1e-5f && report)
            report->push_back("clip \"" + clip.name + "\": bone scales up to " + std::to_string(droppedScale) +
                              " off 1 dropped (W3D clips hold no scale)");
        // The exact per-frame offsets, then the codec's form of them.
        std::vector<w3d::ChannelSpec> exact = spec.channels;
        size_t keys = 0;
        if (spec.codec == w3d::ClipCodec::Timecoded) {
            for (w3d::ChannelSpec& ch : spec.channels) {
                timecodedKeys(ch, ch.type == 6 ? 4 : 1, clip.frameCount,
                              ch.type == 6 ? o.keyToleranceRad : o.keyTolerance * rig);
                keys += ch.keyFrames.size();
            }
        }
        if (spec.codec != w3d::ClipCodec::Uncompressed)
            for (w3d::BitChannelSpec& bc : spec.bitChannels) { // 0x283: a key at frame 0 and at each change
                std::vector<uint8_t> bits;
                for (uint32_t f = 0; f < bc.bits.size(); ++f)
                    if (f == 0 || bc.bits[f] != bc.bits[f - 1]) bc.keyFrames.push_back(f), bits.push_back(bc.bits[f]);
                bc.bits = std::move(bits);
            }
        w3d::ChunkWriter ccw;
        w3d::writeClip(ccw, spec);
        OutputFile f;
        f.path = (dir / (spec.name + ".w3d")).string();
        f.bytes = ccw.take();
        const Document back = checkW3d(f.path, ByteSpan(f.bytes), lookup);
        if (spec.codec != w3d::ClipCodec::Uncompressed) {
            // The codec's error: the clip as read back against the exact offsets, per bone and frame.
            if (back.clips.size() != 1)
                throw ParseError(f.path, {}, ParseError::kNoOffset, "written clip does not read back as one clip");
            const Clip& dc = *back.clips[0];
            float errT = 0.0f, errR = 0.0f;
            for (size_t k = 0; k + 3 < exact.size(); k += 4) {
                const size_t b = exact[k].pivot;
                const BoneTrack* tr = nullptr;
                for (const BoneTrack& t : dc.tracks)
                    if (t.bone == int(b)) tr = &t;
                if (!tr) throw ParseError(f.path, {}, ParseError::kNoOffset, "written clip lost a bone's channels");
                for (uint32_t fr = 0; fr < clip.frameCount; ++fr) {
                    const glm::vec3 t(exact[k].values[fr], exact[k + 1].values[fr], exact[k + 2].values[fr]);
                    const float* qv = &exact[k + 3].values[size_t(fr) * 4];
                    const glm::quat qq(qv[3], qv[0], qv[1], qv[2]);
                    if (fr < tr->translation.size()) errT = std::max(errT, glm::length(tr->translation[fr] - t));
                    if (fr < tr->rotation.size()) errR = std::max(errR, quatAngle(tr->rotation[fr], qq));
                }
            }
            codecError.translation = std::max(codecError.translation, errT);
            codecError.rotation = std::max(codecError.rotation, errR);
            if (report) {
                std::string line =
                    "clip \"" + clip.name + "\": " +
                    (spec.codec == w3d::ClipCodec::Timecoded
                         ? "timecoded, " + std::to_string(keys) + " keys for " + std::to_string(exact.size()) +
                               " channels of " + std::to_string(clip.frameCount) + " frames"
                         : std::string("adaptive delta"));
                char buf[160];
                std::snprintf(buf, sizeof buf,
                              "; largest error per bone %.3g (%.2g of the rig size) in translation, %.3g rad in "
                              "rotation",
                              double(errT), double(errT / rig), double(errR));
                report->push_back(line + buf);
            }
        }
        files.push_back(std::move(f));
    }
    if (codecErrorOut) *codecErrorOut = codecError;
    return files;
}

} // namespace rs::gltfimport
