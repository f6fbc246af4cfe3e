// The WebAssembly module of the web viewer: core's resolver, readers and pose evaluation behind a small embind API.
//
// Files are reached by path through Emscripten's file system: in the browser the page's worker mounts the user's
// File objects with WORKERFS (read on demand with FileReaderSync, slice by slice: nothing is copied up front), in
// Node the module is built with NODERAWFS (the host's files, read on demand). The resolver opens them as it opens
// files on disk (its folder tables, archives read entry by entry), so companions (clips, hierarchies, textures) are
// found the same way as by the desktop viewer.
//
// One session per module instance: open() replaces the shown asset only when the new one reads; on failure the
// previous one stays and the error names the file, the chunk path and the byte offset (core's ParseError).
//
// API (all strings are UTF-8; JSON strings are parsed by the caller):
//   mount(dirs: string JSON array)  -> JSON {ok, game, files, warnings} | {error}: game/mod folders the lookups use
//   open(path)                      -> JSON model summary (below) | {error: {file, chunkPath, offset, message, text}}
//   subMesh(i)                      -> {positions, normals, uv0, colors, boneIndex, boneWeight, positions2,
//                                       normals2, indices}: typed arrays (copies) of sub-mesh i in drawing order
//   setClip(i)                      -> bool: clip i of the summary (-1: bind pose)
//   pose(seconds, loopMode)         -> evaluates the pose (loopMode 0 loop, 1 once, 2 ping-pong) at time * fps
//   palettes()                      -> Float32Array: per sub-mesh palette (offsets in the summary), mat4 each
//   shown()                         -> Uint8Array: per sub-mesh, drawn at this pose (bone visibility)
//   world()                         -> Float32Array: every bone's world matrix, column-major
//   texture(name)                   -> {width, height, rgba: Uint8Array, hasAlpha} or {error}
//   camera(yaw, pitch, aspect, withParticles)
//                                   -> {view, projection: Float32Array(16), eye: [x,y,z]}: the desktop's framing
//                                       (render/camera_fit.h) of the drawn parts at the current pose; withParticles:
//                                       also what the shown particle systems cover nearby, as the desktop's headless
//                                       screenshot frames (the embed page's look)
//   readFormats()                   -> JSON of the format registry's extensions (the page's picker filter)
#include "common/error.h"
#include "formats/formats.h"
#include "formats/material_policy.h"
#include "formats/shader_registry.h"
#include "particles/particle_preview.h"
#include "particles/particle_sim.h"
#include "resolve/resolver.h"
#include "scene/clip_choice.h"
#include "scene/pose.h"
#include "scene/proxy_rule.h"
#include "texture/dds_cube.h"
#include "texture/texture.h"
#include "vfs/mount.h"
#if RIGSCOPE_WEB_XML
#include "check/check.h"
#include "objects/object_db.h"
#include "objects/object_states.h"
#endif

#include "camera_fit.h"
#include "dazzle_rules.h" // render/: dazzle blink and faction colour (GLM only)
#include "fx_uniforms.h"  // render/: the .fx formulas' uniform values (GLM only)
#include "gltf_export.h"
#include "lights.h"      // render/: the view's light rig (GLM only)
#include "parse_bench.h" // render/: the desktop view's framing (GLM only)
#include "texture_lookup.h"
#include "w3d_prim_rules.h" // render/: W3D spheres and rings at a time (GLM only)
#include <glm/gtc/type_ptr.hpp>

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace rs;
using emscripten::val;

namespace {

// --- a minimal JSON writer (strings escaped, numbers as %.9g) ------------------------------------------------------
std::string jstr(const std::string& s) {
    std::string o = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            o += "\\\"";
            break;
        case '\\':
            o += "\\\\";
            break;
        case '\n':
            o += "\\n";
            break;
        case '\r':
            o += "\\r";
            break;
        case '\t':
            o += "\\t";
            break;
        default:
            if (c < 0x20) {
                char b[8];
                std::snprintf(b, sizeof b, "\\u%04x", c);
                o += b;
            } else {
                o += char(c);
            }
        }
    }
    return o + "\"";
}
std::string jnum(double v) {
    if (!(v == v) || v > 1e300 || v < -1e300) return "null";
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

std::string errorJson(const std::exception& e) {
    std::string o = "{\"error\":{";
    if (const auto* p = dynamic_cast<const ParseError*>(&e)) {
        o += "\"file\":" + jstr(p->file()) + ",\"chunkPath\":" + jstr(p->chunkPath()) +
             ",\"offset\":" + (p->offset() == ParseError::kNoOffset ? std::string("null") : jnum(double(p->offset()))) +
             ",\"message\":" + jstr(p->message()) + ",";
    }
    return o + "\"text\":" + jstr(e.what()) + "}}";
}

const char* familyName(MaterialFamily f) {
    return f == MaterialFamily::Alpha ? "alpha" : f == MaterialFamily::Additive ? "additive" : "opaque";
}

// One drawn sub-mesh: where it lives in the model and its palette's place in palettes().
struct Part {
    int owner = 0; // 0: the shown model; k > 0: Session::attached[k - 1]
    int mesh = 0, sub = 0;
    size_t paletteOffset = 0; // in mat4 entries
    size_t paletteCount = 0;
    std::vector<glm::mat4> inverseBind;
};

// A model drawn hanging from a bone of the shown model: a proxy's model (the desktop's attachProxyModels) or an
// object state's attachment (an EaW hardpoint's Model_To_Attach). Posed at its bind pose under the bone.
struct Attached {
    std::shared_ptr<const Model> model;
    Format format = Format::Unknown;
    int bone = -1;  // bone of the shown model (-1: its origin)
    int proxy = -1; // index into the shown model's proxies, -1 for an object attachment
    std::string label;
    PoseBuffers pose;
    std::vector<bool> selected; // its LOD/ALT choice per mesh
};

// A particle system drawn at a bone: a proxy naming a particle file (or a SAGE state's ParticleSysBone).
struct Emitting {
    std::shared_ptr<const ParticleSystem> system;
    std::unique_ptr<ParticleSimulator> sim;
    int bone = -1;
    int proxy = -1;
    std::string label;
};

struct Session {
    std::shared_ptr<vfs::MountTable> mounted;
    std::unique_ptr<Resolver> resolver = std::make_unique<Resolver>();
    // The shown asset (kept when a later open fails).
    std::shared_ptr<Model> model;
    Format format = Format::Unknown;
    std::string path;
    std::vector<std::shared_ptr<const Clip>> clips;
    std::vector<std::string> clipSources;
    std::vector<Part> parts;
    std::shared_ptr<const Clip> clip;
    ClipBinding binding;
    PoseBuffers pose;
    std::vector<float> palettes;
    std::vector<float> world;
    std::vector<uint8_t> shown; // per part: drawn by default and its bone visible at the current pose
    std::vector<Attached> attached;
    std::vector<std::shared_ptr<Emitting>> emitting;
    std::vector<bool> selected;          // the shown model's LOD/ALT choice per mesh
    int lod = -1, alt = 0;               // -1: the most detailed LOD
    bool altDecreased = false;           // the ALT level went down since the model was opened (proxy rule)
    bool modelLights = true;             // the desktop's "lights" view option: the model's own lights
    bool proxies = true;                 // the desktop's "proxies" view option
    std::vector<std::string> proxyNotes; // per proxy: what it resolved to, for the page
    std::vector<float> particleData;     // particles(): kParticleFloats floats a particle
    std::vector<float> dazzleData;    // dazzles(): 12 floats a dazzle (position, radius, rgb, brightness, atlas rect)
    std::vector<float> primitiveData; // primitives(): kPrimFloats floats a vertex
#if RIGSCOPE_WEB_XML
    std::shared_ptr<const objects::ObjectDb> db; // the mount's object database (objectList), kept across opens
    std::string dbObject;                        // the object whose states are in `states`
    std::vector<objects::ObjectState> states;
#endif
};

// What a newly shown model keeps of the session: the mount, the view options, the object database.
void carryOver(const Session& from, Session& to) {
    to.mounted = from.mounted;
    to.modelLights = from.modelLights;
    to.proxies = from.proxies;
#if RIGSCOPE_WEB_XML
    to.db = from.db;
    to.dbObject = from.dbObject;
    to.states = from.states;
#endif
}
Session& session() {
    static Session s;
    return s;
}

bool partDrawn(const Session& s, size_t i);

// Palette slots are laid out 4-aligned (a WebGL uniform buffer range starts at a multiple of 256 bytes).
size_t align4(size_t n) { return (n + 3) & ~size_t(3); }

const Model& ownerModel(const Session& s, const Part& p) {
    return p.owner == 0 ? *s.model : *s.attached[size_t(p.owner - 1)].model;
}
Format ownerFormat(const Session& s, const Part& p) {
    return p.owner == 0 ? s.format : s.attached[size_t(p.owner - 1)].format;
}

// Whether proxy `i` of the shown model is drawn: core's rule, the desktop's too (scene/proxy_rule.h; the page has
// no "show hidden").
bool proxyShown(const Session& s, int i) {
    return rs::proxyShown(*s.model, i, ProxyView{s.proxies, false, s.alt, s.altDecreased});
}

// World matrix of a bone of the shown model at time t (particle births), as the desktop's boneWorldAt
// (render/scene_view.cpp): the clip evaluated at whole frame round(t * fps), looped; the current pose without a clip.
glm::mat4 boneWorldAt(Session& s, int bone, double t, std::vector<std::pair<int64_t, std::vector<glm::mat4>>>& cache) {
    if (bone < 0 || size_t(bone) >= s.pose.world.size()) return glm::mat4(1.0f);
    if (!s.clip || !std::isfinite(t)) return s.pose.world[size_t(bone)];
    const double fps = s.clip->fps > 0.0f ? s.clip->fps : 30.0;
    const int64_t f = int64_t(std::llround(std::clamp(t * fps, -1e9, 1e9)));
    auto it = std::find_if(cache.begin(), cache.end(), [f](const auto& e) { return e.first == f; });
    if (it == cache.end()) {
        if (cache.size() > 256) cache.clear();
        PoseBuffers p;
        p.resize(s.model->skeleton.bones.size());
        evaluatePose(s.model->skeleton, s.clip.get(), &s.binding, float(f), LoopMode::Loop, p.view());
        cache.emplace_back(f, p.world);
        it = cache.end() - 1;
    }
    return size_t(bone) < it->second.size() ? it->second[size_t(bone)] : glm::mat4(1.0f);
}

// Whether a particle system is drawn at the current pose, as the desktop's particlesShown (render/scene_view.cpp):
// its bone visible (none: the model's origin, always) and, for a proxy's system, the proxy rule. A system not found
// (kept for the numbering of the seeds) is never drawn.
bool emittingShown(const Session& s, const Emitting& e) {
    if (!e.system || !e.sim) return false;
    if (e.bone >= 0 && (size_t(e.bone) >= s.pose.visible.size() || !s.pose.visible[size_t(e.bone)])) return false;
    return e.proxy < 0 || proxyShown(s, e.proxy);
}

// The world matrix an attached model hangs from at the current pose.
glm::mat4 attachPoint(const Session& s, const Attached& a) {
    if (a.bone >= 0 && size_t(a.bone) < s.pose.world.size()) return s.pose.world[size_t(a.bone)];
    return glm::mat4(1.0f);
}

// Whether the bone `bone` of the part's owner is visible at the current pose (an attached model: also its attach
// bone and, for a proxy, the proxy rule).
bool ownerBoneVisible(const Session& s, const Part& p, int bone) {
    auto visibleIn = [](const PoseBuffers& pose, int b) {
        return b < 0 || size_t(b) >= pose.visible.size() || pose.visible[size_t(b)] != 0;
    };
    if (p.owner == 0) return visibleIn(s.pose, bone);
    const Attached& a = s.attached[size_t(p.owner - 1)];
    return visibleIn(s.pose, a.bone) && visibleIn(a.pose, bone) && (a.proxy < 0 || proxyShown(s, a.proxy));
}

void computePalettes(Session& s) {
    const Skeleton& sk = s.model->skeleton;
    const size_t n = sk.bones.size();
    s.pose.resize(n);
    evaluatePose(sk, nullptr, nullptr, 0.0f, LoopMode::Loop, s.pose.view());
    for (Attached& a : s.attached) {
        a.pose.resize(a.model->skeleton.bones.size());
        evaluatePose(a.model->skeleton, nullptr, nullptr, 0.0f, LoopMode::Loop, a.pose.view());
    }
}

void writePalettes(Session& s) {
    const Model& m = *s.model;
    s.world.assign(s.pose.world.size() * 16, 0.0f);
    for (size_t i = 0; i < s.pose.world.size(); ++i)
        std::memcpy(&s.world[i * 16], &s.pose.world[i][0][0], 64);
    // Attached models' bones under their attach point.
    std::vector<std::vector<glm::mat4>> worlds(s.attached.size());
    for (size_t k = 0; k < s.attached.size(); ++k) {
        const glm::mat4 at = attachPoint(s, s.attached[k]);
        for (const glm::mat4& w : s.attached[k].pose.world)
            worlds[k].push_back(at * w);
    }
    size_t total = 0;
    for (const Part& p : s.parts)
        total = std::max(total, p.paletteOffset + align4(p.paletteCount));
    s.palettes.assign(total * 16, 0.0f);
    std::vector<glm::mat4> tmp;
    for (const Part& p : s.parts) {
        const std::vector<glm::mat4>& W = p.owner == 0 ? s.pose.world : worlds[size_t(p.owner - 1)];
        const Mesh& mesh = ownerModel(s, p).meshes[size_t(p.mesh)];
        const SubMesh& sm = mesh.subMeshes[size_t(p.sub)];
        tmp.assign(p.paletteCount, p.owner == 0 ? glm::mat4(1.0f) : attachPoint(s, s.attached[size_t(p.owner - 1)]));
        if (sm.skinned()) {
            skinPalette(sm, p.inverseBind.data(), W.data(), tmp.data());
        } else if (mesh.bone >= 0 && size_t(mesh.bone) < W.size()) {
            tmp[0] = W[size_t(mesh.bone)];
        }
        std::memcpy(&s.palettes[p.paletteOffset * 16], tmp.data(), tmp.size() * 64);
    }
    // What the desktop draws (render/mesh_materials.cpp updateVisibility): a drawn part whose mesh's bone is
    // visible at this pose (own flag or visibility track, and every ancestor).
    s.shown.assign(s.parts.size(), 0);
    for (size_t i = 0; i < s.parts.size(); ++i) {
        const Part& p = s.parts[i];
        const int bone = ownerModel(s, p).meshes[size_t(p.mesh)].bone;
        s.shown[i] = partDrawn(s, i) && ownerBoneVisible(s, p, bone) ? 1 : 0;
    }
}

// The parts of the shown model and of its attached models, palettes laid out one after another.
void buildParts(Session& n) {
    n.parts.clear();
    size_t offset = 0;
    for (size_t owner = 0; owner <= n.attached.size(); ++owner) {
        const Model& model = owner == 0 ? *n.model : *n.attached[owner - 1].model;
        for (size_t mi = 0; mi < model.meshes.size(); ++mi) {
            const Mesh& mesh = model.meshes[mi];
            for (size_t si = 0; si < mesh.subMeshes.size(); ++si) {
                const SubMesh& sm = mesh.subMeshes[si];
                Part p;
                p.owner = int(owner);
                p.mesh = int(mi);
                p.sub = int(si);
                p.paletteCount = sm.skinned() ? sm.boneMap.size() : 1;
                if (sm.skinned()) skinInverseBind(model.skeleton, sm, p.inverseBind);
                p.paletteOffset = offset;
                offset += align4(p.paletteCount);
                n.parts.push_back(std::move(p));
            }
        }
    }
}

std::shared_ptr<Emitting> makeEmitting(std::shared_ptr<const ParticleSystem> system, int bone, int proxy,
                                       std::string label) {
    auto e = std::make_shared<Emitting>();
    e->system = std::move(system);
    if (e->system) e->sim = std::make_unique<ParticleSimulator>(*e->system);
    e->bone = bone;
    e->proxy = proxy;
    e->label = std::move(label);
    return e;
}

// The particle systems the model file holds (W3D emitters at the bones its HLOD or aggregates name), after the
// proxies' as the desktop's scene (render/scene_view.cpp buildScene) lists them.
void attachModelSystems(Session& n) {
    for (const BoneParticles& bp : n.model->particles) {
        const bool boneOk = bp.bone >= 0 && size_t(bp.bone) < n.model->skeleton.bones.size();
        n.emitting.push_back(makeEmitting(bp.system, boneOk ? bp.bone : -1, -1, bp.name));
    }
}

// The proxies of the shown model, each looked up as the desktop looks it up (render/proxy_parts.cpp
// ProxyFileLookup: "<name without _LOD/_ALT>.alo" through Resolver::findProxyFile, read with Resolver::read, each
// name once): a model is attached at the proxy's bone, a particle system emits there. At most 32 models and 256
// systems, as the desktop.
void attachProxies(Session& n, const Resolver& resolver) {
    struct Found {
        std::string file, error;
        Document doc;
    };
    std::vector<std::pair<std::string, Found>> cache;
    size_t models = 0;
    n.proxyNotes.clear();
    for (size_t pi = 0; pi < n.model->proxies.size(); ++pi) {
        const Proxy& px = n.model->proxies[pi];
        std::string base;
        int lod = -1, alt = -1;
        parseLodAlt(px.name, base, lod, alt);
        const std::string want = toLower(base) + ".alo";
        auto it = std::find_if(cache.begin(), cache.end(), [&](const auto& e) { return e.first == want; });
        if (it == cache.end()) {
            Found f;
            try {
                f.file = resolver.findProxyFile(n.path, want);
                if (!f.file.empty()) f.doc = resolver.read(f.file);
            } catch (const std::exception& e) {
                f.error = e.what();
            }
            cache.emplace_back(want, std::move(f));
            it = cache.end() - 1;
        }
        const Found& f = it->second;
        const bool boneOk = px.bone >= 0 && size_t(px.bone) < n.model->skeleton.bones.size();
        std::string note = f.file.empty() ? (f.error.empty() ? "not found" : f.error) : f.file;
        if (!boneOk) {
            note = "no bone";
        } else if (f.doc.model && models < 32) {
            Attached a;
            a.model = f.doc.model;
            a.format = f.doc.format;
            a.bone = px.bone;
            a.proxy = int(pi);
            a.label = px.name + " (" + f.file + ")";
            a.selected = selectLodAlt(*a.model, n.lod, n.alt);
            n.attached.push_back(std::move(a));
            ++models;
            note = "model " + f.file;
        } else if (!f.doc.model && n.emitting.size() < 256) {
            // As the desktop's findProxyParticles (render/proxy_parts.cpp): every proxy with a bone and no model is
            // a system slot, found or not, so that system i has seed i + 1 on both.
            n.emitting.push_back(makeEmitting(f.doc.particles, px.bone, int(pi), px.name));
            if (f.doc.particles) note = "particles " + f.file;
        }
        n.proxyNotes.push_back(note);
    }
}

// The texture the base colour comes from: the first base-texture parameter (material policy's slot names), else
// the first W3D pass's stage 0 texture; "" when none.
std::string baseTextureOf(const Material& m) {
    for (const MaterialParam& p : m.params)
        if (p.type == ParamType::Texture && isBaseTextureParam(p.name) && !p.texture.empty()) return p.texture;
    if (!m.w3dPasses.empty()) return m.w3dPasses.front().textures[0];
    return {};
}

// The .fx program of a sub-mesh drawn by a game's formula (render/fx_uniforms.h, the values the desktop binds):
// {program, defines, uniforms: [{name, value}], textures: [{uniform, parameter, texture, none, missing, base}],
// envCube (ObjectsGenericEnvMap.fx: the material's cube map, loaded by cube(); absent otherwise), doublesBase,
// states: {blend: none|alpha|additive|multiply, depthWrite, depthTest: lequal|greater, twoSided, stencilOnce,
// readsFrame}}, or null when the generic program draws it.
std::string fxJson(const Mesh& mesh, const Material& m, ShaderImpl impl) {
    const render::FxBinding b = render::fxBinding(mesh, m, impl);
    if (b.program.empty()) return "null";
    static const char* const standIn[] = {"white", "clear", "flatNormal", "checker"};
    std::string o = "{\"program\":" + jstr(b.program) + ",\"defines\":[";
    for (size_t i = 0; i < b.defines.size(); ++i)
        o += (i ? "," : "") + jstr(b.defines[i]);
    o += "],\"uniforms\":[";
    for (size_t i = 0; i < b.uniforms.size(); ++i) {
        const render::FxUniform& u = b.uniforms[i];
        o += std::string(i ? "," : "") + "{\"name\":" + jstr(u.name) + ",\"value\":[";
        for (int k = 0; k < u.components; ++k)
            o += (k ? "," : "") + jnum(u.value[k]);
        o += "]}";
    }
    o += "],\"textures\":[";
    for (size_t i = 0; i < b.textures.size(); ++i) {
        const render::FxTextureSlot& t = b.textures[i];
        o += std::string(i ? "," : "") + "{\"uniform\":" + jstr(t.uniform) + ",\"parameter\":" + jstr(t.parameter) +
             ",\"texture\":" + jstr(t.texture) + ",\"none\":" + jstr(standIn[int(t.none)]) +
             ",\"missing\":" + jstr(standIn[int(t.missing)]) + ",\"base\":" + (t.base ? "true" : "false") + "}";
    }
    static const char* const blend[] = {"none", "alpha", "additive", "multiply"};
    const render::FxStates& st = b.states;
    auto jb = [](bool v) { return std::string(v ? "true" : "false"); };
    // ObjectsGenericEnvMap.fx: the material's cube (render/fx_uniforms.h envCubeTexture), loaded by cube() and bound
    // with ENV_CUBE when it decodes, the ambient stand-in otherwise, as on the desktop.
    const std::string envCube = render::envCubeTexture(m, impl);
    o += "]";
    if (!envCube.empty()) o += ",\"envCube\":" + jstr(envCube);
    return o + ",\"doublesBase\":" + jb(b.doublesBase) + ",\"states\":{\"blend\":" + jstr(blend[int(st.blend)]) +
           ",\"depthWrite\":" + jb(st.depthWrite) +
           ",\"depthTest\":" + jstr(st.depthTest == render::FxDepthTest::Greater ? "greater" : "lequal") +
           ",\"twoSided\":" + jb(st.twoSided) + ",\"stencilOnce\":" + jb(st.stencilOnce) +
           ",\"readsFrame\":" + jb(st.readsFrame) + "}}";
}

// The ww3d2 passes of a sub-mesh drawn by W3D's fixed-function formula (render/fx_uniforms.h w3dPassBindings, the
// values the desktop binds): [{defines, uniforms: {wLighting, ..., wMapper: [2], wMapA: [8], ...}, textures: [2],
// states: {blend, src, dst (GL enum names), depthFunc, depthWrite}}] in drawing order.
std::string w3dJson(const SubMesh& sm) {
    const render::W3dVertexArrays arrays = render::w3dVertexArrays(sm);
    const std::vector<render::W3dPassBinding> passes = render::w3dPassBindings(sm, arrays);
    auto vec = [](const float* v, int n) {
        std::string o = "[";
        for (int k = 0; k < n; ++k)
            o += (k ? "," : "") + jnum(v[k]);
        return o + "]";
    };
    auto jb = [](bool v) { return std::string(v ? "1" : "0"); };
    static const char* const src[] = {"ZERO", "ONE", "SRC_ALPHA", "DST_COLOR"};
    static const char* const dst[] = {
        "ZERO", "ONE", "SRC_COLOR", "ONE_MINUS_SRC_COLOR", "SRC_ALPHA", "ONE_MINUS_SRC_ALPHA"};
    static const char* const depth[] = {"NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"};
    std::string o = "[";
    for (size_t i = 0; i < passes.size(); ++i) {
        const render::W3dPassBinding& b = passes[i];
        o += i ? ",{\"defines\":[" : "{\"defines\":[";
        for (size_t k = 0; k < b.defines.size(); ++k)
            o += (k ? "," : "") + jstr(b.defines[k]);
        float A[8], B[8], C[8];
        for (int st = 0; st < 2; ++st)
            for (int k = 0; k < 4; ++k) {
                A[st * 4 + k] = b.mapA[st][k];
                B[st * 4 + k] = b.mapB[st][k];
                C[st * 4 + k] = b.mapC[st][k];
            }
        o += "],\"uniforms\":{\"wLighting\":" + jb(b.lighting) + ",\"wHasColor\":" + jb(b.hasColor) +
             ",\"wColorScale\":" + vec(&b.colorScale.x, 4) + ",\"wDiffuseFromColor\":" + jb(b.diffuseFromColor) +
             ",\"wAmbientFromColor\":" + jb(b.ambientFromColor) + ",\"wDiffuse\":" + vec(&b.diffuse.x, 4) +
             ",\"wAmbient\":" + vec(&b.ambient.x, 3) + ",\"wSpecular\":" + vec(&b.specular.x, 3) +
             ",\"wEmissive\":" + vec(&b.emissive.x, 3) + ",\"wShininess\":" + jnum(b.shininess) + ",\"wMapper\":[" +
             std::to_string(b.mapper[0]) + "," + std::to_string(b.mapper[1]) + "],\"wMapA\":" + vec(A, 8) +
             ",\"wMapB\":" + vec(B, 8) + ",\"wMapC\":" + vec(C, 8) + ",\"wUvSel\":[" + std::to_string(b.uvSel[0]) +
             "," + std::to_string(b.uvSel[1]) + "]},\"textures\":[" + jstr(b.textures[0]) + "," + jstr(b.textures[1]) +
             "],\"states\":{\"blend\":" + (b.blend ? "true" : "false") + ",\"src\":" + jstr(src[int(b.src)]) +
             ",\"dst\":" + jstr(dst[int(b.dst)]) + ",\"depthFunc\":" + jstr(depth[int(b.depthFunc)]) +
             ",\"depthWrite\":" + (b.depthWrite ? "true" : "false") + "}}";
    }
    return o + "]";
}

// The generic lit program's material values (render/mesh_materials.cpp: the parameters Diffuse, Specular, Emissive,
// Color and Shininess with the desktop's defaults; glossSource from the material policy) as JSON.
std::string genericUniforms(const Material& m, const MaterialPolicy& pol) {
    auto v4 = [&](const char* name, glm::vec4 d) {
        const MaterialParam* p = m.find(name);
        if (p && p->type == ParamType::Float3)
            d = glm::vec4(glm::vec3(p->value), d.w);
        else if (p && p->type == ParamType::Float4)
            d = p->value;
        return "[" + jnum(d.x) + "," + jnum(d.y) + "," + jnum(d.z) + "," + jnum(d.w) + "]";
    };
    const MaterialParam* sh = m.find("Shininess");
    const float shininess = sh && sh->type == ParamType::Float ? sh->value.x : 32.0f;
    return "{\"diffuse\":" + v4("Diffuse", glm::vec4(1.0f)) +
           ",\"specular\":" + v4("Specular", glm::vec4(0.6f, 0.6f, 0.6f, 1.0f)) +
           ",\"emissive\":" + v4("Emissive", glm::vec4(0.0f)) + ",\"color\":" + v4("Color", glm::vec4(1.0f)) +
           ",\"shininess\":" + jnum(shininess) + ",\"glossSource\":" + std::to_string(pol.glossSource) +
           ",\"factionColorParam\":" + (pol.factionColorParam ? "true" : "false") + "}";
}

// The LOD/ALT levels of the shown model and the ones chosen: "lodLevels":[..],"altLevels":[..],"lod":L,"alt":A.
// A system's emitters as the desktop's particle layer draws them (render/particles.cpp build): [{name, kind: the
// blend kind (particle_preview.h ParticleDraw: -1 not drawn, 0 opaque, 1 additive, 2 alpha, 3 modulate), orient
// (particle.vert ORIENT: 0 camera-facing, 1 world-oriented, 2 velocity-aligned kite), tail (the kite's tail size),
// noDepthTest, texture (the colour texture's name, looked up through the resolver; "" none)}].
std::string emitterList(const ParticleSystem& sys) {
    std::string o = "[";
    for (size_t i = 0; i < sys.emitters.size(); ++i) {
        const ParticleEmitter& em = sys.emitters[i];
        // Renderer precedence of the engine: world-oriented, then kites, then camera-facing quads.
        const bool kite = em.params.hasTail && !em.params.worldOriented;
        const float tail =
            kite && std::isfinite(em.params.tailSize) ? std::clamp(em.params.tailSize, 0.0f, 1e6f) : 0.0f;
        o += std::string(i ? "," : "") + "{\"name\":" + jstr(em.name) +
             ",\"kind\":" + std::to_string(int(particleDrawOf(em.blend))) + ",\"orient\":" +
             (kite                      ? "2"
              : em.params.worldOriented ? "1"
                                        : "0") +
             ",\"tail\":" + jnum(tail) + ",\"noDepthTest\":" + (em.params.noDepthTest ? "true" : "false") +
             ",\"texture\":" + jstr(em.colorTexture) + "}";
    }
    return o + "]";
}

std::string levelsJson(const Session& s) {
    std::ostringstream o;
    auto list = [&](const std::vector<int>& v) {
        o << "[";
        for (size_t i = 0; i < v.size(); ++i)
            o << (i ? "," : "") << v[i];
        o << "]";
    };
    o << "\"lodLevels\":";
    list(s.model->lodLevels());
    o << ",\"altLevels\":";
    list(s.model->altLevels());
    o << ",\"lod\":" << s.lod << ",\"alt\":" << s.alt;
    return o.str();
}

std::string summary(const Session& s, const Asset& a) {
    const Model& m = *s.model;
    std::ostringstream o;
    o << "{\"path\":" << jstr(s.path) << ",\"format\":" << jstr(formatName(s.format))
      << ",\"zUp\":" << (upAxisOf(s.format) == UpAxis::Z ? "true" : "false");
    o << ",\"bones\":[";
    for (size_t i = 0; i < m.skeleton.bones.size(); ++i)
        o << (i ? "," : "") << "{\"name\":" << jstr(m.skeleton.bones[i].name)
          << ",\"parent\":" << m.skeleton.bones[i].parent << "}";
    o << "],\"meshes\":[";
    const std::vector<bool>& selected = s.selected;
    for (size_t i = 0; i < m.meshes.size(); ++i) {
        const Mesh& mesh = m.meshes[i];
        o << (i ? "," : "") << "{\"name\":" << jstr(mesh.name) << ",\"lod\":" << mesh.lod << ",\"alt\":" << mesh.alt
          << ",\"hidden\":" << (mesh.hidden ? "true" : "false")
          << ",\"selected\":" << (i < selected.size() && selected[i] ? "true" : "false") << ",\"bone\":" << mesh.bone
          << "}";
    }
    o << "],\"parts\":[";
    for (size_t i = 0; i < s.parts.size(); ++i) {
        const Part& p = s.parts[i];
        const Mesh& mesh = ownerModel(s, p).meshes[size_t(p.mesh)];
        const SubMesh& sm = mesh.subMeshes[size_t(p.sub)];
        const MaterialPolicy pol = materialPolicy(ownerFormat(s, p), mesh, sm.material);
        const ShaderInfo info = shaderInfo(ownerFormat(s, p), mesh, sm.material);
        o << (i ? "," : "") << "{\"drawn\":" << (partDrawn(s, i) ? "true" : "false") << ",\"owner\":" << p.owner
          << ",\"meshName\":" << jstr(mesh.name) << ",\"mesh\":" << p.mesh << ",\"sub\":" << p.sub
          << ",\"shader\":" << jstr(sm.material.shader) << ",\"drawnBy\":" << jstr(info.implementation)
          << ",\"note\":" << jstr(info.note) << ",\"fidelity\":"
          << jstr(info.fidelity == ShaderFidelity::EngineFormula   ? "engine formula"
                  : info.fidelity == ShaderFidelity::Approximation ? "approximation"
                                                                   : "not drawn")
          << ",\"family\":" << jstr(familyName(pol.family))
          << ",\"hiddenByDefault\":" << (pol.hiddenByDefault ? "true" : "false")
          << ",\"cull\":" << (pol.cullBackFaces ? "true" : "false") << ",\"unlit\":" << (pol.unlit ? "true" : "false")
          << ",\"colorize\":" << (pol.colorize ? "true" : "false") << ",\"bump\":" << (pol.bump ? "true" : "false")
          << ",\"skinned\":" << (sm.skinned() ? "true" : "false")
          << ",\"dual\":" << (sm.positions2.empty() ? "false" : "true") << ",\"vertices\":" << sm.vertexCount()
          << ",\"triangles\":" << sm.triangleCount() << ",\"generic\":" << genericUniforms(sm.material, pol)
          << ",\"baseTexture\":" << jstr(baseTextureOf(sm.material)) << ",\"paletteOffset\":" << p.paletteOffset
          << ",\"paletteCount\":" << p.paletteCount << ",\"fx\":" << fxJson(mesh, sm.material, info.impl)
          << ",\"w3d\":" << (info.impl == ShaderImpl::W3d ? w3dJson(sm) : std::string("null")) << ",\"params\":[";
        for (size_t k = 0; k < sm.material.params.size(); ++k) {
            const MaterialParam& mp = sm.material.params[k];
            o << (k ? "," : "") << "{\"name\":" << jstr(mp.name) << ",\"type\":" << jstr(paramTypeName(mp.type));
            if (mp.type == ParamType::Texture)
                o << ",\"texture\":" << jstr(mp.texture);
            else if (mp.type == ParamType::Int)
                o << ",\"value\":[" << mp.intValue << "]";
            else
                o << ",\"value\":[" << jnum(mp.value.x) << "," << jnum(mp.value.y) << "," << jnum(mp.value.z) << ","
                  << jnum(mp.value.w) << "]";
            o << "}";
        }
        o << "]}";
    }
    o << "]," << levelsJson(s) << ",\"attached\":[";
    for (size_t i = 0; i < s.attached.size(); ++i)
        o << (i ? "," : "") << "{\"label\":" << jstr(s.attached[i].label) << ",\"bone\":" << s.attached[i].bone
          << ",\"proxy\":" << s.attached[i].proxy << "}";
    o << "],\"proxies\":[";
    for (size_t i = 0; i < m.proxies.size(); ++i)
        o << (i ? "," : "") << "{\"name\":" << jstr(m.proxies[i].name) << ",\"bone\":" << m.proxies[i].bone
          << ",\"hidden\":" << (m.proxies[i].hidden ? "true" : "false") << ",\"alt\":" << m.proxies[i].alt
          << ",\"found\":" << jstr(i < s.proxyNotes.size() ? s.proxyNotes[i] : "") << "}";
    o << "],\"emitters\":[";
    for (size_t i = 0; i < s.emitting.size(); ++i)
        o << (i ? "," : "") << "{\"label\":" << jstr(s.emitting[i]->label) << ",\"bone\":" << s.emitting[i]->bone
          << ",\"emitters\":" << (s.emitting[i]->system ? s.emitting[i]->system->emitters.size() : 0)
          << ",\"list\":" << (s.emitting[i]->system ? emitterList(*s.emitting[i]->system) : std::string("[]")) << "}";
    o << "],\"dazzles\":[";
    for (size_t i = 0; i < m.dazzles.size(); ++i)
        o << (i ? "," : "") << "{\"name\":" << jstr(m.dazzles[i].name) << ",\"bone\":" << m.dazzles[i].bone
          << ",\"texture\":" << jstr(m.dazzles[i].texture) << "}";
    // W3D spheres and rings (render/w3d_prim_rules.h) in primitives()'s order: draw kind, primary gradient,
    // texture name and vertex count (a triangle list).
    o << "],\"primitives\":[";
    bool firstPrim = true;
    for (const Marker& mk : m.markers) {
        if (!mk.fx || (!mk.fx->sphere && !mk.fx->ring)) continue;
        const w3d::Shader& sh = mk.fx->sphere ? mk.fx->sphere->shader : mk.fx->ring->shader;
        o << (firstPrim ? "" : ",") << "{\"name\":" << jstr(mk.name) << ",\"type\":\""
          << (mk.fx->sphere ? "sphere" : "ring") << "\",\"bone\":" << mk.bone << ",\"kind\":" << render::w3dPrimKind(sh)
          << ",\"pri\":" << render::w3dPrimPri(sh)
          << ",\"texture\":" << jstr(mk.fx->sphere ? mk.fx->sphere->texture : mk.fx->ring->texture)
          << ",\"count\":" << render::w3dPrimVertexCount(*mk.fx) << "}";
        firstPrim = false;
    }
    o << "],\"clips\":[";
    for (size_t i = 0; i < s.clips.size(); ++i) {
        const Clip& c = *s.clips[i];
        o << (i ? "," : "") << "{\"name\":" << jstr(c.name) << ",\"source\":" << jstr(s.clipSources[i])
          << ",\"frames\":" << c.frameCount << ",\"fps\":" << jnum(c.fps) << ",\"duration\":" << jnum(c.duration())
          << ",\"fits\":" << (bindClip(m.skeleton, c).ok() ? "true" : "false") << "}";
    }
    std::vector<std::string> names;
    std::vector<bool> fits;
    for (const auto& c : s.clips) {
        names.push_back(c->name);
        fits.push_back(bindClip(m.skeleton, *c).ok());
    }
    o << "],\"initialClip\":" << pickInitialClip(names, fits) << ",\"textures\":[";
    for (size_t i = 0; i < a.textures.size(); ++i)
        o << (i ? "," : "") << "{\"name\":" << jstr(a.textures[i].name) << ",\"path\":" << jstr(a.textures[i].path)
          << "}";
    o << "],\"warnings\":[";
    std::vector<std::string> warnings = a.document.warnings;
    warnings.insert(warnings.end(), m.warnings.begin(), m.warnings.end());
    for (const ClipFile& c : a.clips)
        if (!c.error.empty()) warnings.push_back(c.error);
    for (size_t i = 0; i < warnings.size(); ++i)
        o << (i ? "," : "") << jstr(warnings[i]);
    o << "],\"missing\":[";
    for (size_t i = 0; i < a.missing.size(); ++i)
        o << (i ? "," : "") << jstr(a.missing[i]);
    o << "]}";
    return o.str();
}

// --- API -----------------------------------------------------------------------------------------------------------

std::string mountFolders(const std::string& gameDirsJsonless) {
    // One folder per line: game folders, mod folders prefixed with "mod:"; or one "single:PATH" (an archive or a
    // folder mounted alone, vfs::mountSingle). Models of the mount: assets().
    Session& s = session();
    try {
        std::vector<std::string> games, mods;
        std::string single;
        std::istringstream in(gameDirsJsonless);
        for (std::string line; std::getline(in, line);) {
            if (line.empty()) continue;
            if (line.rfind("mod:", 0) == 0)
                mods.push_back(line.substr(4));
            else if (line.rfind("single:", 0) == 0)
                single = line.substr(7);
            else
                games.push_back(line);
        }
        auto table = std::make_shared<vfs::MountTable>(single.empty() ? vfs::mountInstall(games, mods)
                                                                      : vfs::mountSingle(single));
        s.mounted = table;
        s.resolver = std::make_unique<Resolver>(table);
#if RIGSCOPE_WEB_XML
        s.db.reset();
        s.dbObject.clear();
        s.states.clear();
#endif
        std::ostringstream o;
        o << "{\"ok\":true,\"files\":" << table->size() << ",\"warnings\":[";
        for (size_t i = 0; i < table->warnings.size(); ++i)
            o << (i ? "," : "") << jstr(table->warnings[i]);
        o << "]}";
        return o.str();
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}

std::string openAsset(const std::string& path) {
    Session& s = session();
    try {
        Asset a = s.resolver->open(path);
        if (!a.document.model)
            throw ParseError(path, {}, ParseError::kNoOffset,
                             a.document.particles ? "particle systems alone are shown by the desktop viewer only"
                                                  : "file holds no model (a clip: open its model first)");
        Session n;
        carryOver(s, n);
        n.model = a.document.model;
        n.format = a.document.format;
        n.path = a.document.path.empty() ? path : a.document.path;
        for (const auto& c : a.document.clips) {
            n.clips.push_back(c);
            n.clipSources.push_back(n.path);
        }
        for (const ClipFile& c : a.clips)
            if (c.clip) {
                n.clips.push_back(c.clip);
                n.clipSources.push_back(c.path);
            }
        n.selected = selectLodAlt(*n.model, n.lod, n.alt);
        attachProxies(n, *s.resolver);
        attachModelSystems(n);
        buildParts(n);
        computePalettes(n);
        writePalettes(n);
        n.resolver = std::move(s.resolver);
        s = std::move(n);
        return summary(s, a);
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}

// Game paths of the mounted folders whose format the registry reads as a model (sorted), JSON array.
std::string assets() {
    Session& s = session();
    std::vector<std::string> keys;
    if (s.mounted)
        s.mounted->forEach([&](const std::string& key, const std::vector<vfs::Hit>&) {
            const size_t dot = key.rfind('.');
            if (dot == std::string::npos) return;
            std::string ext = key.substr(dot);
            for (char& c : ext)
                c = char(std::tolower(static_cast<unsigned char>(c)));
            if (ext == ".alo" || ext == ".w3d" || ext == ".bwm" || (RIGSCOPE_WEB_XML && ext == ".w3x"))
                keys.push_back(key);
        });
    std::sort(keys.begin(), keys.end());
    std::string o = "[";
    for (size_t i = 0; i < keys.size(); ++i)
        o += (i ? "," : "") + jstr(keys[i]);
    return o + "]";
}

// Reads the clips of the file at `path` (a clip the user chose) into the clip list: JSON {first, clips: [...]}
// (index of the first added and the added clips as in the summary) or {error}. The model stays.
std::string addClip(const std::string& path) {
    Session& s = session();
    try {
        if (!s.model) throw ParseError(path, {}, ParseError::kNoOffset, "open a model before its clip");
        Document d = s.resolver->read(path);
        if (d.clips.empty()) throw ParseError(path, {}, ParseError::kNoOffset, "holds no animation clip");
        std::ostringstream o;
        o << "{\"first\":" << s.clips.size() << ",\"clips\":[";
        for (size_t i = 0; i < d.clips.size(); ++i) {
            const Clip& c = *d.clips[i];
            s.clips.push_back(d.clips[i]);
            s.clipSources.push_back(path);
            o << (i ? "," : "") << "{\"name\":" << jstr(c.name) << ",\"source\":" << jstr(path)
              << ",\"frames\":" << c.frameCount << ",\"fps\":" << jnum(c.fps) << ",\"duration\":" << jnum(c.duration())
              << ",\"fits\":" << (bindClip(s.model->skeleton, c).ok() ? "true" : "false") << "}";
        }
        o << "]}";
        return o.str();
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}

bool setClip(int i) {
    Session& s = session();
    if (!s.model) return false;
    if (i < 0 || size_t(i) >= s.clips.size()) {
        s.clip.reset();
        s.binding = {};
        return i < 0;
    }
    ClipBinding b = bindClip(s.model->skeleton, *s.clips[size_t(i)]);
    if (!b.ok()) return false;
    s.clip = s.clips[size_t(i)];
    s.binding = std::move(b);
    return true;
}

void pose(double seconds, int loopMode) {
    Session& s = session();
    if (!s.model) return;
    const LoopMode mode = loopMode == 1 ? LoopMode::Once : loopMode == 2 ? LoopMode::PingPong : LoopMode::Loop;
    const float frame = s.clip ? float(seconds * s.clip->fps) : 0.0f;
    evaluatePose(s.model->skeleton, s.clip.get(), s.clip ? &s.binding : nullptr, frame, mode, s.pose.view());
    writePalettes(s);
}

val palettes() {
    Session& s = session();
    return val::global("Float32Array").new_(val(emscripten::typed_memory_view(s.palettes.size(), s.palettes.data())));
}
val shown() {
    Session& s = session();
    return val::global("Uint8Array").new_(val(emscripten::typed_memory_view(s.shown.size(), s.shown.data())));
}
val world() {
    Session& s = session();
    return val::global("Float32Array").new_(val(emscripten::typed_memory_view(s.world.size(), s.world.data())));
}

template <class T> val floats(const std::vector<T>& v, size_t comps) {
    if (v.empty()) return val::null();
    const float* p = reinterpret_cast<const float*>(v.data());
    return val::global("Float32Array").new_(val(emscripten::typed_memory_view(v.size() * comps, p)));
}

val subMesh(int i) {
    Session& s = session();
    val o = val::object();
    if (!s.model || i < 0 || size_t(i) >= s.parts.size()) return val::null();
    const Part& p = s.parts[size_t(i)];
    const SubMesh& sm = ownerModel(s, p).meshes[size_t(p.mesh)].subMeshes[size_t(p.sub)];
    o.set("positions", floats(sm.positions, 3));
    o.set("normals", sm.normals.size() == sm.positions.size() ? floats(sm.normals, 3) : val::null());
    o.set("uv0", sm.uv0.size() == sm.positions.size() ? floats(sm.uv0, 2) : val::null());
    o.set("uv1", sm.uv1.size() == sm.positions.size() ? floats(sm.uv1, 2) : val::null()); // the second UV set
    o.set("colors", sm.colors.size() == sm.positions.size() ? floats(sm.colors, 4) : val::null());
    o.set("tangents", sm.tangents.size() == sm.positions.size() ? floats(sm.tangents, 3) : val::null());
    o.set("binormals", sm.binormals.size() == sm.positions.size() ? floats(sm.binormals, 3) : val::null());
    if (sm.skinned() && sm.boneIndices.size() == sm.positions.size() && sm.boneWeights.size() == sm.positions.size()) {
        o.set("boneIndex",
              val::global("Uint16Array")
                  .new_(val(emscripten::typed_memory_view(sm.boneIndices.size() * 4,
                                                          reinterpret_cast<const uint16_t*>(sm.boneIndices.data())))));
        o.set("boneWeight", floats(sm.boneWeights, 4));
    }
    if (sm.positions2.size() == sm.positions.size()) o.set("positions2", floats(sm.positions2, 3));
    if (sm.normals2.size() == sm.positions.size()) o.set("normals2", floats(sm.normals2, 3));
    // W3D passes: the UV arrays the stages read and the colour array (render/fx_uniforms.h w3dVertexArrays; the
    // typed arrays are copies, made before `arrays` goes).
    const Mesh& mesh = ownerModel(s, p).meshes[size_t(p.mesh)];
    if (shaderInfo(ownerFormat(s, p), mesh, sm.material).impl == ShaderImpl::W3d) {
        const render::W3dVertexArrays arrays = render::w3dVertexArrays(sm);
        if (arrays.uvSel[0] >= 0) o.set("w3dUv0", floats(sm.w3dUv[size_t(arrays.uvSel[0])], 2));
        if (arrays.uvSel[1] >= 0) o.set("w3dUv1", floats(sm.w3dUv[size_t(arrays.uvSel[1])], 2));
        if (!arrays.color.empty()) o.set("w3dColor", floats(arrays.color, 4));
    }
    o.set("indices",
          val::global("Uint32Array").new_(val(emscripten::typed_memory_view(sm.indices.size(), sm.indices.data()))));
    return o;
}

val texture(const std::string& name) {
    Session& s = session();
    val o = val::object();
    try {
        std::string where = s.resolver->findTexture(name, s.path);
        if (where.empty()) {
            o.set("error", std::string("texture ") + name + " not found");
            return o;
        }
        std::vector<uint8_t> bytes;
        if (!s.resolver->readBytes(where, bytes)) {
            o.set("error", where + ": cannot be read");
            return o;
        }
        Image img = decodeTexture(ByteSpan(bytes), where);
        o.set("width", img.width);
        o.set("height", img.height);
        o.set("hasAlpha", img.hasAlpha);
        o.set("path", where);
        o.set("rgba", val::global("Uint8Array")
                          .new_(val(emscripten::typed_memory_view(size_t(img.width) * size_t(img.height) * 4,
                                                                  reinterpret_cast<const uint8_t*>(img.rgba.data())))));
    } catch (const std::exception& e) {
        o.set("error", std::string(e.what()));
    }
    return o;
}

// A DDS cube map named by a material (ObjectsGenericEnvMap.fx's EnvironmentTexture) through the resolver, as the
// desktop's TextureCache::getCube finds and decodes it (render/textures.cpp decodeCubeFile): {size, path, faces: six
// RGBA8 arrays in the file's order +X, -X, +Y, -Y, +Z, -Z, each row 0 first (uploaded as stored: core/texture/
// dds_cube.h)} or {error} naming the file when it is not found, not a cube map or malformed.
val cube(const std::string& name) {
    Session& s = session();
    val o = val::object();
    try {
        const std::string where = s.resolver->findTexture(name, s.path);
        if (where.empty()) {
            o.set("error", std::string("cube map ") + name + " not found");
            return o;
        }
        std::vector<uint8_t> bytes;
        if (!s.resolver->readBytes(where, bytes, uint64_t(512) << 20)) {
            o.set("error", where + ": cannot be read");
            return o;
        }
        if (!isDdsCube(ByteSpan(bytes))) {
            o.set("error", where + ": not a DDS cube map (the effect samples a cube)");
            return o;
        }
        const CubeImage c = decodeDdsCube(ByteSpan(bytes), where);
        val faces = val::array();
        for (const Image& f : c.faces)
            faces.call<void>(
                "push", val::global("Uint8Array")
                            .new_(val(emscripten::typed_memory_view(size_t(f.width) * size_t(f.height) * 4,
                                                                    reinterpret_cast<const uint8_t*>(f.rgba.data())))));
        o.set("size", c.faces[0].width);
        o.set("path", where);
        o.set("faces", faces);
    } catch (const std::exception& e) {
        o.set("error", std::string(e.what()));
    }
    return o;
}

// Whether part i is drawn by default, as the desktop decides it (LOD -1 = most detailed, ALT 0; not hidden; not
// a shadow, collision or light-visualise mesh).
bool partDrawn(const Session& s, size_t i) {
    const Part& p = s.parts[i];
    const Mesh& mesh = ownerModel(s, p).meshes[size_t(p.mesh)];
    const SubMesh& sm = mesh.subMeshes[size_t(p.sub)];
    const std::vector<bool>& selected = p.owner == 0 ? s.selected : s.attached[size_t(p.owner - 1)].selected;
    if (mesh.hidden || size_t(p.mesh) >= selected.size() || !selected[size_t(p.mesh)]) return false;
    if (materialPolicy(ownerFormat(s, p), mesh, sm.material).hiddenByDefault) return false;
    return shaderInfo(ownerFormat(s, p), mesh, sm.material).impl != ShaderImpl::Hidden;
}

val camera(float yaw, float pitch, float aspect, bool withParticles) {
    Session& s = session();
    if (!s.model) return val::null();
    render::CameraFraming f;
    f.yaw = yaw;
    f.pitch = pitch;
    f.zUp = upAxisOf(s.format) == UpAxis::Z;
    f.clear();
    // The points the desktop samples (render/mesh_materials.cpp samplePoints): every drawn sub-mesh's vertices at
    // a stride of n / 4000, placed by the current pose.
    for (size_t i = 0; i < s.parts.size(); ++i) {
        if (i >= s.shown.size() || !s.shown[i]) continue;
        const Part& p = s.parts[i];
        const SubMesh& sm = ownerModel(s, p).meshes[size_t(p.mesh)].subMeshes[size_t(p.sub)];
        const float* pal = &s.palettes[p.paletteOffset * 16];
        const size_t n = sm.positions.size();
        const size_t stride = std::max<size_t>(1, n / 4000);
        for (size_t v = 0; v < n; v += stride) {
            glm::mat4 m(0.0f);
            if (sm.skinned() && v < sm.boneIndices.size() && v < sm.boneWeights.size()) {
                for (int k = 0; k < 4; ++k) {
                    const float w = sm.boneWeights[v][k];
                    const size_t slot = sm.boneIndices[v][k];
                    if ((k > 0 && !(w > 0.0f)) || slot >= p.paletteCount) continue;
                    m += glm::make_mat4(pal + slot * 16) * w;
                }
            } else {
                m = glm::make_mat4(pal);
            }
            const glm::vec3 q(m * glm::vec4(sm.positions[v], 1.0f));
            if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) continue;
            f.lo = glm::min(f.lo, q);
            f.hi = glm::max(f.hi, q);
            if (f.points.size() < 200000) f.points.push_back(q);
        }
    }
    if (withParticles && f.lo.x <= f.hi.x) {
        // As the desktop's screenshot framing (render/scene_view.cpp computeFraming with framingIncludesParticles,
        // render/particles.cpp samplePoints): every shown system at 8 times over its first 2 s, up to 256 particles
        // each time, each particle's box of its size, kept where within the bounds' diameter of their centre.
        const glm::vec3 centre = f.center();
        const float reach = 2.0f * f.radius();
        std::vector<std::pair<int64_t, std::vector<glm::mat4>>> cache;
        for (size_t si = 0; si < s.emitting.size(); ++si) {
            const Emitting& e = *s.emitting[si];
            if (!emittingShown(s, e)) continue;
            ParticleBuffer buf(4096, e.system->emitters.size());
            ParticleSimOptions opt;
            opt.seed = uint64_t(si) + 1;
            const int bone = e.bone;
            opt.emitterTransform = [&s, &cache, bone](double bt) { return boneWorldAt(s, bone, bt, cache); };
            for (int k = 1; k <= 8; ++k) {
                e.sim->evaluate(2.0 * k / 8.0, opt, buf);
                for (size_t i = 0; i < buf.count; i += std::max<size_t>(1, buf.count / 256)) {
                    const SimParticle& q = buf.particles[i];
                    if (!std::isfinite(q.position.x) || !std::isfinite(q.position.y) || !std::isfinite(q.position.z) ||
                        !std::isfinite(q.size))
                        continue;
                    const float h = std::min(std::abs(q.size) * 0.5f, 1e6f);
                    for (const glm::vec3& p : {q.position - glm::vec3(h), q.position + glm::vec3(h)}) {
                        if (!(glm::length(p - centre) <= reach)) continue;
                        f.lo = glm::min(f.lo, p);
                        f.hi = glm::max(f.hi, p);
                        f.points.push_back(p);
                    }
                }
            }
        }
    }
    std::vector<glm::vec3> bones;
    if (f.lo.x > f.hi.x)
        for (const glm::mat4& w : s.pose.world)
            bones.emplace_back(w[3]);
    f.finish(bones);
    const render::OrbitCamera c = render::fitCamera(f, aspect);
    const glm::mat4 view = c.viewMatrix(), proj = c.projectionMatrix(aspect);
    val o = val::object();
    val v = val::global("Float32Array").new_(16), pr = val::global("Float32Array").new_(16);
    for (int k = 0; k < 16; ++k) {
        v.set(k, glm::value_ptr(view)[k]);
        pr.set(k, glm::value_ptr(proj)[k]);
    }
    o.set("view", v);
    o.set("projection", pr);
    const glm::vec3 eye = c.position();
    val e = val::array();
    e.call<void>("push", eye.x, eye.y, eye.z);
    o.set("eye", e);
    o.set("distance", c.distance);
    return o;
}

// Parse throughput over files (one per line) for `seconds`: JSON {bytes, passes, bytesPerSecond, error}.
std::string benchParse(const std::string& lines, double seconds) {
    std::vector<std::string> files;
    std::istringstream in(lines);
    for (std::string l; std::getline(in, l);)
        if (!l.empty()) files.push_back(l);
    try {
        const web::ParseThroughput r = web::parseThroughput(files, seconds);
        return "{\"bytes\":" + jnum(double(r.bytes)) + ",\"passes\":" + std::to_string(r.passes) +
               ",\"bytesPerSecond\":" + jnum(r.bytesPerSecond) + ",\"error\":" + jstr(r.error) + "}";
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}

// The view's lights at the current pose (render/lights.h viewLights with the model's own lights, the desktop's
// default): {position: Float32Array(16), color: Float32Array(16), count, ambient: [r,g,b]}.
val lights() {
    Session& s = session();
    const bool zUp = upAxisOf(s.format) == UpAxis::Z;
    const auto l = render::viewLights(s.model.get(), s.pose.world, s.pose.visible, s.modelLights, zUp);
    val pos = val::global("Float32Array").new_(16), col = val::global("Float32Array").new_(16);
    for (size_t i = 0; i < 4; ++i) {
        const glm::vec4 p = i < l.size() ? l[i].first : glm::vec4(0, 0, -1, 0);
        const glm::vec4 c = i < l.size() ? l[i].second : glm::vec4(0.0f);
        for (int k = 0; k < 4; ++k) {
            pos.set(i * 4 + k, p[k]);
            col.set(i * 4 + k, c[k]);
        }
    }
    val o = val::object();
    o.set("position", pos);
    o.set("color", col);
    o.set("count", int(l.size()));
    val a = val::array();
    a.call<void>("push", render::kViewAmbient.x, render::kViewAmbient.y, render::kViewAmbient.z);
    o.set("ambient", a);
    return o;
}

// The Alamo light set-up of a preset (0 Land, 1 Space: the desktop's View > Lights preset, computed by the same
// render/lights.h alamoLightRig, with the sun at azimuth 0 and elevation 45 degrees, ViewOptions' defaults) as the
// Alamo program's uniforms: {sunToward,
// sunDiffuse, sunSpecular: [3], sphAll, sphFill: Float32Array(48) (vec4 rows), alamoLights: Float32Array(28)}.
val alamoLights(int preset) {
    const render::AlamoLightRig r =
        render::alamoLightRig(preset == 1 ? render::LightPreset::Space : render::LightPreset::Land, 0.0f, 45.0f);
    auto v3 = [](glm::vec3 v) {
        val a = val::array();
        a.call<void>("push", v.x, v.y, v.z);
        return a;
    };
    auto rows = [](const std::array<glm::mat4, 3>& m) {
        val a = val::global("Float32Array").new_(48);
        for (int k = 0; k < 3; ++k)
            for (int c = 0; c < 4; ++c)
                for (int i = 0; i < 4; ++i)
                    a.set(k * 16 + c * 4 + i, m[size_t(k)][c][i]);
        return a;
    };
    val ff = val::global("Float32Array").new_(28);
    int n = 0;
    for (const render::AlamoLight* l : {&r.sun, &r.fill1, &r.fill2}) {
        for (int i = 0; i < 3; ++i)
            ff.set(n * 4 + i, l->toward[i]);
        ++n;
    }
    for (const render::AlamoLight* l : {&r.sun, &r.fill1, &r.fill2}) {
        for (int i = 0; i < 3; ++i)
            ff.set(n * 4 + i, l->color[i]);
        ff.set(n * 4 + 3, 1.0f);
        ++n;
    }
    for (int i = 0; i < 3; ++i)
        ff.set(n * 4 + i, r.ambient[i]);
    ff.set(n * 4 + 3, 1.0f);
    val o = val::object();
    o.set("sunToward", v3(r.sun.toward));
    o.set("sunDiffuse", v3(r.sun.color));
    o.set("sunSpecular", v3(r.specular));
    o.set("sphAll", rows(r.sphAll));
    o.set("sphFill", rows(r.sphFill));
    o.set("alamoLights", ff);
    return o;
}

// glTF download of what is shown: the model with its clips as a .glb (export/, the desktop's exporter), textures
// found through the resolver, faction-coloured parts in (r, g, b). {bytes: Uint8Array, warnings: [...]} or {error}.
val exportGlb(float r, float g, float b) {
    Session& s = session();
    val o = val::object();
    try {
        if (!s.model) throw std::runtime_error("no model is shown");
        std::vector<const Clip*> clips;
        for (const auto& c : s.clips)
            clips.push_back(c.get());
        gltf::ExportOptions opt;
        opt.haveFactionColor = true;
        opt.factionColor = glm::vec3(r, g, b); // the page's faction colour (default: render/scene_view.h's)
        gltf::ResolverTextureLookup textures(*s.resolver, s.path);
        const std::string out = "/tmp/rigscope-export.glb";
        const gltf::ExportStats st = gltf::exportModel(*s.model, clips, opt, &textures, out);
        std::ifstream in(out, std::ios::binary);
        std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        in.close();
        std::remove(out.c_str());
        o.set("bytes", val::global("Uint8Array")
                           .new_(val(emscripten::typed_memory_view(bytes.size(), bytes.data())))
                           .call<val>("slice"));
        val w = val::array();
        for (const std::string& x : st.warnings)
            w.call<void>("push", x);
        o.set("warnings", w);
    } catch (const std::exception& e) {
        o.set("error", std::string(e.what()));
    }
    return o;
}

// LOD and ALT levels as the desktop's View menu chooses them (core selectLodAlt: lod -1 = the most detailed; the
// nearest level present per mesh), for the shown model and its attached models; an ALT level lower than the last
// one hides the proxies that say altDecreaseStayHidden. Returns the levels JSON with the parts' drawn flags.
std::string setLodAlt(int lod, int alt) {
    Session& s = session();
    if (!s.model) return "{\"error\":{\"text\":\"no model is shown\"}}";
    if (alt < s.alt) s.altDecreased = true;
    s.lod = lod;
    s.alt = alt;
    s.selected = selectLodAlt(*s.model, lod, alt);
    for (Attached& a : s.attached)
        a.selected = selectLodAlt(*a.model, lod, alt);
    writePalettes(s);
    std::ostringstream o;
    o << "{" << levelsJson(s) << ",\"drawn\":[";
    for (size_t i = 0; i < s.parts.size(); ++i)
        o << (i ? "," : "") << (partDrawn(s, i) ? "true" : "false");
    o << "]}";
    return o.str();
}

// The desktop's view options the page offers: the model's own lights (else the three-light rig) and proxies.
void setViewOptions(bool modelLights, bool proxies) {
    Session& s = session();
    s.modelLights = modelLights;
    s.proxies = proxies;
    if (s.model) writePalettes(s);
}

// The shown model's dazzles at time t (seconds) for the faction colour (r, g, b 0..1), as the desktop's dazzle layer
// places them (render/dazzles.cpp update): 8 floats each: world position xyz, radius (0 when not lit: blinking off,
// its bone hidden, night-only, hidden), colour rgb (dazzle_rules.h dazzleColor), brightness 0..1.
val dazzles(double t, float r, float g, float b) {
    Session& s = session();
    s.dazzleData.clear();
    if (s.model)
        for (const Dazzle& dz : s.model->dazzles) {
            float k = render::dazzleBlink(dz, float(t));
            const bool boneOk = dz.bone >= 0 && size_t(dz.bone) < s.pose.world.size();
            if (!boneOk || (size_t(dz.bone) < s.pose.visible.size() && !s.pose.visible[size_t(dz.bone)])) k = 0.0f;
            if (dz.nightOnly || dz.hidden) k = 0.0f; // the page shows day and no hidden parts
            const glm::vec3 p =
                boneOk ? glm::vec3(s.pose.world[size_t(dz.bone)] * glm::vec4(dz.position, 1.0f)) : dz.position;
            const glm::vec3 c = render::dazzleColor(dz, glm::vec3(r, g, b));
            const glm::vec4 r = render::dazzleRect(dz); // the atlas cell, as the desktop's dazzle layer
            const float v[12] = {p.x, p.y, p.z, k > 0.0f ? dz.radius : 0.0f, c.r, c.g, c.b, k, r.x, r.y, r.z, r.w};
            s.dazzleData.insert(s.dazzleData.end(), v, v + 12);
        }
    return val::global("Float32Array")
        .new_(val(emscripten::typed_memory_view(s.dazzleData.size(), s.dazzleData.data())));
}

// The shown model's W3D spheres and rings at time t (seconds on the effect clock, as particles()) for the camera's
// world-to-view matrix `view` (16 floats, column-major: camera-aligned primitives face it), as the desktop's
// render/w3d_primitives.cpp update() builds them (render/w3d_prim_rules.h w3dPrimTriangles): per primitive of the
// summary's primitives[], its count vertices of kPrimFloats floats (world position xyz, colour rgba, UV); a primitive
// whose bone the pose hides has all of its vertices at 0 (no area).
constexpr size_t kPrimFloats = 9;
val primitives(double t, val viewArray) {
    Session& s = session();
    s.primitiveData.clear();
    glm::mat4 view(1.0f);
    const std::vector<float> vf = emscripten::vecFromJSArray<float>(viewArray);
    if (vf.size() == 16)
        for (int i = 0; i < 16; ++i)
            view[i / 4][i % 4] = vf[size_t(i)];
    std::vector<render::PrimVertex> out;
    if (s.model)
        for (const Marker& mk : s.model->markers) {
            if (!mk.fx || (!mk.fx->sphere && !mk.fx->ring)) continue;
            const size_t n = size_t(render::w3dPrimVertexCount(*mk.fx));
            const bool boneOk = mk.bone >= 0 && size_t(mk.bone) < s.pose.world.size();
            const bool shown =
                mk.bone < 0 ||
                (boneOk && (size_t(mk.bone) >= s.pose.visible.size() || s.pose.visible[size_t(mk.bone)]));
            out.clear();
            if (shown) {
                const glm::mat4 bone = boneOk ? s.pose.world[size_t(mk.bone)] : glm::mat4(1.0f);
                const w3d::Shader& sh = mk.fx->sphere ? mk.fx->sphere->shader : mk.fx->ring->shader;
                std::shared_ptr<w3d::PrimitiveMesh> ring;
                if (mk.fx->ring)
                    ring = std::make_shared<w3d::PrimitiveMesh>(
                        w3d::ringMesh(w3d::kRingSlices, mk.fx->ring->textureTiles));
                render::w3dPrimTriangles(*mk.fx, ring.get(), render::w3dPrimKind(sh), t, bone * mk.transform, view,
                                         out);
            }
            out.resize(n); // hidden: n zero vertices
            for (const render::PrimVertex& v : out) {
                const float f[kPrimFloats] = {v.p.x, v.p.y, v.p.z, v.c.r, v.c.g, v.c.b, v.c.a, v.uv.x, v.uv.y};
                s.primitiveData.insert(s.primitiveData.end(), f, f + kPrimFloats);
            }
        }
    return val::global("Float32Array")
        .new_(val(emscripten::typed_memory_view(s.primitiveData.size(), s.primitiveData.data())));
}

// The live particles of the particle systems the proxies attach, at time t (seconds since the model was shown),
// core's deterministic simulation (particles/particle_sim.h) as the desktop's particle layer (render/particles.cpp)
// runs it: system i with seed i + 1, births at the proxy bone's world matrix at the birth time. kParticleFloats
// floats a particle, the desktop's instance layout (position xyz, size, colour rgba, atlas rect u0 v0 w h in the
// file's convention, rotation, velocity xyz) and then the emitter's slot (the summary's emitters[].list, numbered
// over all systems). Emitters not drawn (heat, bump, unknown blend) are left out. At most 20,000 particles a system.
constexpr size_t kParticleFloats = 17;
val particles(double t) {
    Session& s = session();
    s.particleData.clear();
    std::vector<std::pair<int64_t, std::vector<glm::mat4>>> cache;
    size_t slot = 0;
    for (size_t si = 0; si < s.emitting.size(); ++si) {
        const auto& e = s.emitting[si];
        const size_t base = slot;
        slot += e->system ? e->system->emitters.size() : 0;
        if (!emittingShown(s, *e)) continue;
        ParticleBuffer buf(20000, e->system->emitters.size());
        ParticleSimOptions opt;
        opt.seed = uint64_t(si) + 1;
        const int bone = e->bone;
        opt.emitterTransform = [&s, &cache, bone](double bt) { return boneWorldAt(s, bone, bt, cache); };
        e->sim->evaluate(t, opt, buf);
        for (size_t i = 0; i < buf.count; ++i) {
            const SimParticle& q = buf.particles[i];
            if (q.emitter >= e->system->emitters.size() ||
                particleDrawOf(e->system->emitters[q.emitter].blend) == ParticleDraw::NotDrawn)
                continue;
            const glm::vec4 r = atlasRect(q.frame, e->sim->atlasGrid(q.emitter));
            const float v[kParticleFloats] = {q.position.x,
                                              q.position.y,
                                              q.position.z,
                                              q.size,
                                              q.color.r,
                                              q.color.g,
                                              q.color.b,
                                              q.color.a,
                                              r.x,
                                              r.y,
                                              r.z,
                                              r.w,
                                              q.rotation,
                                              q.velocity.x,
                                              q.velocity.y,
                                              q.velocity.z,
                                              float(base + q.emitter)};
            s.particleData.insert(s.particleData.end(), v, v + kParticleFloats);
        }
    }
    return val::global("Float32Array")
        .new_(val(emscripten::typed_memory_view(s.particleData.size(), s.particleData.data())));
}

#if RIGSCOPE_WEB_XML
const objects::ObjectDb& objectDb(Session& s) {
    if (!s.mounted) throw std::runtime_error("open a mod or game folder first: the Objects list is the mount's");
    if (!s.db) s.db = objects::ObjectDb::load(*s.mounted);
    return *s.db;
}

// The mount's object database (core/objects, as the desktop's Objects panel): {family, objects: [{name, type,
// parent, side}], errors: [...], filesMissing: [...]} or {error}.
std::string objectList() {
    Session& s = session();
    try {
        const objects::ObjectDb& db = objectDb(s);
        std::ostringstream o;
        o << "{\"family\":"
          << jstr(db.family() == objects::ObjectDb::Family::Alamo  ? "alamo"
                  : db.family() == objects::ObjectDb::Family::Sage ? "sage"
                                                                   : "none")
          << ",\"objects\":[";
        for (size_t i = 0; i < db.objects().size(); ++i) {
            const objects::ObjectSummary& x = db.objects()[i];
            o << (i ? "," : "") << "{\"name\":" << jstr(x.name) << ",\"type\":" << jstr(x.type)
              << ",\"parent\":" << jstr(x.parent) << ",\"side\":" << jstr(x.side) << "}";
        }
        o << "],\"errors\":[";
        for (size_t i = 0; i < db.errors().size(); ++i)
            o << (i ? "," : "") << jstr(db.errors()[i]);
        o << "],\"filesMissing\":[";
        for (size_t i = 0; i < db.filesMissing().size(); ++i)
            o << (i ? "," : "") << jstr(db.filesMissing()[i]);
        o << "]}";
        return o.str();
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}

// The states of object `name` (objects/object_states.h objectStates): {object, states: [{label, model, missing}]}.
std::string objectStateList(const std::string& name) {
    Session& s = session();
    try {
        const objects::ObjectDb& db = objectDb(s);
        const objects::ModelProbe probe = objects::documentProbe(*s.mounted);
        const objects::AssembledObject a = db.assemble(name, probe);
        s.states = objects::objectStates(db, *s.mounted, a, probe);
        s.dbObject = name;
        std::ostringstream o;
        o << "{\"object\":" << jstr(name) << ",\"states\":[";
        for (size_t i = 0; i < s.states.size(); ++i) {
            const objects::ObjectState& st = s.states[i];
            o << (i ? "," : "") << "{\"label\":" << jstr(st.label) << ",\"model\":" << jstr(st.main.key)
              << ",\"attachments\":" << st.attachments.size() << ",\"missing\":[";
            for (size_t k = 0; k < st.missing.size(); ++k)
                o << (k ? "," : "") << jstr(st.missing[k]);
            o << "]}";
        }
        o << "]}";
        return o.str();
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}

// Shows state i of the last objectStateList (objects/object_states.h loadState): its main model with the state's
// hidden and shown sub-objects, its attachments at their bones, its clips. The model summary, or {error} (the shown
// model stays).
std::string openState(int i) {
    Session& s = session();
    try {
        if (i < 0 || size_t(i) >= s.states.size()) throw std::runtime_error("no such object state");
        const objects::ObjectState& st = s.states[size_t(i)];
        objects::LoadedState ls = objects::loadState(*s.resolver, st);
        if (!ls.model) {
            std::string why = st.label + ": the state's model cannot be shown";
            if (!ls.missingHierarchy.empty()) why += " (its hierarchy " + ls.missingHierarchy + " is missing)";
            for (const std::string& m : ls.missing)
                why += "; " + m;
            throw std::runtime_error(why);
        }
        Session n;
        carryOver(s, n);
        n.model = ls.model;
        n.path = ls.path;
        // The state's model format (material policy, up axis): detected from the file's bytes as the reader did.
        std::vector<uint8_t> bytes;
        s.resolver->readBytes(ls.path, bytes);
        n.format = detectFormat(ByteSpan(bytes.data(), std::min<size_t>(bytes.size(), 64)), ls.path);
        n.alt = st.highestAlt && !ls.model->altLevels().empty() ? ls.model->altLevels().back() : 0;
        for (const objects::LoadedClip& c : ls.clips)
            if (c.clip) {
                n.clips.push_back(c.clip);
                n.clipSources.push_back(c.path);
            }
        n.selected = selectLodAlt(*n.model, n.lod, n.alt);
        for (const objects::LoadedAttachment& la : ls.attachments) {
            if (!la.model) continue;
            Attached at;
            at.model = la.model;
            at.format = n.format;
            at.bone = la.bone;
            at.label = la.label;
            at.selected = selectLodAlt(*at.model, n.lod, n.alt);
            n.attached.push_back(std::move(at));
        }
        attachProxies(n, *s.resolver);
        attachModelSystems(n);
        // The state's particle systems (SAGE ParticleSysBone), after the model's, as the desktop's objects view
        // (render/scene_view.cpp buildScene): at their bone, else at the root bone; one no INI defines keeps its
        // slot (seeds) and draws nothing.
        for (const objects::LoadedParticles& lp : ls.particles) {
            const size_t bones = n.model->skeleton.bones.size();
            const int bone = lp.boneIndex >= 0 && size_t(lp.boneIndex) < bones ? lp.boneIndex : (bones ? 0 : -1);
            n.emitting.push_back(makeEmitting(lp.definition, bone, -1, lp.system + " at " + lp.bone));
        }
        buildParts(n);
        computePalettes(n);
        writePalettes(n);
        n.resolver = std::move(s.resolver);
        s = std::move(n);
        Asset a;
        a.missing = ls.missing;
        return summary(s, a);
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}

// The mod check of the mount (check/check.h checkMount, one thread): {files, findings: [{id, level, file, key,
// where, message}], counts: {error, warning, info}} or {error}.
std::string checkMounted() {
    Session& s = session();
    try {
        if (!s.mounted) throw std::runtime_error("open a mod or game folder first: the check reads the mount");
        check::Options opt;
        opt.threads = 1;
        const check::Report r = check::checkMount(*s.resolver, opt);
        std::ostringstream o;
        o << "{\"files\":" << r.files << ",\"seconds\":" << jnum(r.seconds)
          << ",\"counts\":{\"error\":" << r.count(check::Level::Error)
          << ",\"warning\":" << r.count(check::Level::Warning) << ",\"info\":" << r.count(check::Level::Info)
          << "},\"findings\":[";
        for (size_t i = 0; i < r.findings.size(); ++i) {
            const check::Finding& f = r.findings[i];
            o << (i ? "," : "") << "{\"id\":" << jstr(f.id) << ",\"level\":" << jstr(check::levelName(f.level))
              << ",\"file\":" << jstr(f.file) << ",\"key\":" << jstr(f.key) << ",\"where\":" << jstr(f.where.str())
              << ",\"message\":" << jstr(f.message) << "}";
        }
        o << "]}";
        return o.str();
    } catch (const std::exception& e) {
        return errorJson(e);
    }
}
#endif

std::string readFormats() {
    std::ostringstream o;
    o << "[";
    bool first = true;
    for (const FormatInfo& f : formats()) {
        for (const auto& e : f.extensions) {
            o << (first ? "" : ",") << jstr(std::string(e));
            first = false;
        }
    }
    o << "]";
    return o.str();
}

} // namespace

EMSCRIPTEN_BINDINGS(rigscope_web) {
    emscripten::function("mount", &mountFolders);
    emscripten::function("open", &openAsset);
    emscripten::function("setClip", &setClip);
    emscripten::function("pose", &pose);
    emscripten::function("palettes", &palettes);
    emscripten::function("world", &world);
    emscripten::function("shown", &shown);
    emscripten::function("subMesh", &subMesh);
    emscripten::function("texture", &texture);
    emscripten::function("cube", &cube);
    emscripten::function("formats", &readFormats);
    emscripten::function("camera", &camera);
    emscripten::function("assets", &assets);
    emscripten::function("addClip", &addClip);
    emscripten::function("benchParse", &benchParse);
    emscripten::function("lights", &lights);
    emscripten::function("alamoLights", &alamoLights);
    emscripten::function("exportGlb", &exportGlb);
    emscripten::function("setLodAlt", &setLodAlt);
    emscripten::function("setViewOptions", &setViewOptions);
    emscripten::function("dazzles", &dazzles);
    emscripten::function("primitives", &primitives);
    emscripten::function("particles", &particles);
#if RIGSCOPE_WEB_XML
    emscripten::function("objectList", &objectList);
    emscripten::function("objectStates", &objectStateList);
    emscripten::function("openState", &openState);
    emscripten::function("check", &checkMounted);
#endif
}
