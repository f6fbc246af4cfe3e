// The asset checker: see check.h. One work item per file (a thread pool over an atomic index), then the object
// database and the files nothing refers to on the calling thread.
#include "check/check.h"
#include "check/alamo_refs.h"
#include "check/sage_commands.h"

#include "common/error.h"
#include "formats/engine_limits.h"
#include "formats/shader_registry.h"
#include "objects/object_db.h"
#include "particles/particle_system.h"
#include "resolve/lookup_rules.h"
#include "scene/pose.h"
#include "texture/texture.h"
#include "vfs/archive.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace rs::check {

namespace {

// Sources of the rules (docs/CHECKS.md cites the same).
constexpr const char* kSrcReaders = "rigscope's readers (docs/formats/tolerance.md)";
constexpr const char* kSrcLookup =
    "rigscope's lookup rules (core/resolve/lookup_rules.h), the engines' order as ModVerify's TextureRepository and "
    "EA's Generals source find textures";
constexpr const char* kSrcShaders =
    "ModVerify EffectsRepository (per extension .fx, .fxo, .fxh: the name as written, DATA/ART/SHADERS, .../TERRAIN, "
    ".../ENGINE; each through the mount's order) and alo-viewer Assets::LoadShader (Data\\Art\\Shaders\\); stock "
    "shaders: rigscope's shader registry (core/formats/shader_registry.h) and the Blender ALAMO plugin's list "
    "(settings.py material_parameter_dict)";
constexpr const char* kSrcProxy = "ModVerify SingleModelVerifier (\"Proxy particle ... not found\", FILE00)";
constexpr const char* kSrcW3dHier = "EA's Generals source (W3D skins bind to the hierarchy their HLOD names)";
constexpr const char* kSrcClip = "rigscope's clip binding (core/scene/pose.h bindClip: tracks by bone name/index)";
constexpr const char* kSrcFaces =
    "Blender ALAMO plugin export_alo.py checkFaceNumber: faces per object must not exceed 65535 (unsigned short)";
constexpr const char* kSrcVerts =
    "Blender ALAMO plugin export_alo.py create_index_buffer: indices are written as unsigned shorts (0x10004), so a "
    "sub-mesh addresses at most 65536 vertices";
constexpr const char* kSrcSkinBones =
    "Petroglyph's Alamo skinning shaders (alSkinMinimal.fx: MAX_BONES = 26 skin matrices per draw); a sub-mesh's "
    "bone map (0x10006) is one draw's palette";
constexpr const char* kSrcSkinWeights =
    "Alamo: Petroglyph's RSkin*.fx shaders (_ALAMO_VERTEX_PROC \"RSkin\", _ALAMO_BONES_PER_VERTEX = 1: the vertex's "
    "first bone only) and the Blender ALAMO plugin's export validation (checkVertexGroups: each weight 0 or 1, "
    "\"improper vertex groups\"); W3D: the W3D exporter (OpenSAGE io_mesh_w3d export: at most two bones per vertex, "
    "\"both bone weights did not add up to 100%\")";
constexpr const char* kSrcShadowClosed =
    "Blender ALAMO plugin export_alo.py checkShadowMesh: \"Non manifold geometry shadow mesh\" (every edge of "
    "MeshShadowVolume.fx/RSkinShadowVolume.fx meshes needs two faces)";
constexpr const char* kSrcShadowMat =
    "Blender ALAMO plugin export_alo.py checkUV: \"Multiple materials on shadow volume\"";
constexpr const char* kSrcCollisionMat =
    "Blender ALAMO plugin export_alo.py checkUV: \"Multiple submeshes/materials on collision mesh\"";
constexpr const char* kSrcPow2 = "EA's W3D exporter (max2w3d.rc: \"Width and height must be a power of 2\")";
constexpr const char* kSrcMegaFiles =
    "the engine's master MEG is built from Data/MegaFiles.xml (ModVerify FocGameRepository, AddMegFiles): an archive "
    "it lists and the folder does not hold gives the game none of the files the mod expects from it";
constexpr const char* kSrcArchiveDup = "ModVerify DuplicateVerifier (DUP00); the engines use the first entry";
constexpr const char* kSrcCrc =
    "ModVerify GameRepository.GetFileInfoFromMasterMeg: MEG entries are found by the CRC-32 of the path";
constexpr const char* kSrcName =
    "ModVerify GameRepository.GetFileInfoFromMasterMeg / PGConstants.MaxMegEntryPathLength (259): the path is "
    "normalised to upper-case ASCII and looked up by its CRC-32; longer paths are not looked up";
constexpr const char* kSrcObjects =
    "ModVerify GameObjectTypeVerifier (XREF00, FILE00) and rigscope's object database (core/objects)";
constexpr const char* kSrcParticles =
    "SAGE: EA's Generals source (W3DModelDraw.cpp parses ParticleSysBone as bone and particle system template; "
    "ParticleSystemManager::findTemplate looks the name up among the ParticleSystem blocks of the INI files); EaW/FoC: "
    "ModVerify SingleModelVerifier (VerifyParticle, FILE00: the particle .ALO looked up as models are, "
    "DATA/ART/MODELS/ then the path as written) and GameObjectTypeVerifier (Damaged_Smoke_Asset_Name); the Particle "
    "objects of Data/XML/Particles.xml that Death_Explosion_Particles and the other particle tags name";
constexpr const char* kSrcW3dVerts =
    "EA's Generals source (WW3D2 dx8renderer.cpp DX8FVFCategoryContainer: a mesh's vertices go into one "
    "DX8VertexBufferClass whose VertexCount is an unsigned short; meshgeometry.h TriIndex = Vector3i16, 16-bit "
    "vertex indices; DX8SkinFVFCategoryContainer::Render clamps skins to 65535 vertices)";
constexpr const char* kSrcW3dTris =
    "EA's Generals source (WW3D2 dx8renderer.cpp Generate_Texture_Categories: the index buffer is sized polygons x 3 x "
    "passes and DX8IndexBufferClass takes an unsigned short index count, so triangles x 3 x passes must not exceed "
    "65535)";
constexpr const char* kSrcUnref = "rigscope: references collected from models, clips and objects";
constexpr const char* kSrcBaseGame =
    "rigscope: a mount of mod folders without a game (vfs::mountInstall roles) cannot tell a reference the base game "
    "satisfies from a broken one; the engines look a name up in the mod, then in the game (ModVerify "
    "FocGameRepository.FindFile: mods, game folder, master MEG, fallback game)";
constexpr const char* kSrcWalk = "rigscope: the folder walk (vfs::walkFolder, docs/HARDENING.md)";

const std::vector<CheckInfo> kCatalog = {
    {"read.error", Level::Error, "a file the reader refuses", kSrcReaders},
    {"read.warning", Level::Warning, "a reader's warning (file read, something skipped or repaired)", kSrcReaders},
    {"read.unreadable-folder", Level::Error,
     "a sub-folder (or a link) that cannot be read: its files are not checked, the others are", kSrcWalk},
    {"read.link-outside", Level::Info,
     "a file that is a link leading out of the mounted or checked folder: listed, not read", kSrcWalk},
    {"read.not-simulated", Level::Info,
     "a particle emitter feature set in the file that rigscope does not read or simulate (not a defect of the file)",
     kSrcReaders},
    {"model.texture-missing", Level::Warning, "a texture the model names is not found in the engine's lookup order",
     kSrcLookup},
    {"model.shader-unknown", Level::Warning, "an Alamo shader that is neither a stock shader nor in the mount",
     kSrcShaders},
    {"model.proxy-missing", Level::Warning, "an Alamo proxy whose particle system or model is missing", kSrcProxy},
    {"model.hierarchy-missing", Level::Error, "a W3D skin whose hierarchy no file holds", kSrcW3dHier},
    {"model.clip-mismatch", Level::Error, "a clip beside a model that does not fit its skeleton", kSrcClip},
    {"limit.vertices", Level::Error, "an Alamo sub-mesh with more than 65536 vertices", kSrcVerts},
    {"limit.triangles", Level::Error, "an Alamo mesh with more than 65535 triangles", kSrcFaces},
    {"limit.w3d-vertices", Level::Error, "a W3D mesh with more than 65535 vertices", kSrcW3dVerts},
    {"limit.w3d-triangles", Level::Error, "a W3D mesh whose triangles x 3 x material passes exceed 65535 indices",
     kSrcW3dTris},
    {"limit.skin-bones", Level::Warning, "an Alamo skinned sub-mesh with more than 26 bones", kSrcSkinBones},
    {"limit.skin-weights", Level::Warning,
     "skin weights the engine does not use as stored (a second bone in a one-bone format, weights not adding up to 1)",
     kSrcSkinWeights},
    {"limit.shadow-not-closed", Level::Error,
     "a shadow volume mesh that is not closed (an edge of one triangle, or triangles not paired in opposite "
     "directions along an edge)",
     kSrcShadowClosed},
    {"limit.shadow-non-manifold", Level::Warning,
     "a closed shadow volume mesh with edges of more than two triangles, which the Blender ALAMO exporter refuses",
     kSrcShadowClosed},
    {"limit.shadow-materials", Level::Error, "a shadow volume mesh with more than one material", kSrcShadowMat},
    {"limit.collision-materials", Level::Warning, "a collision mesh with more than one material", kSrcCollisionMat},
    {"limit.texture-size", Level::Warning, "a texture whose width or height is not a power of two", kSrcPow2},
    {"archive.duplicate-name", Level::Warning, "an archive holding a name twice (the first is used)", kSrcArchiveDup},
    {"archive.crc-mismatch", Level::Error, "a MEG record whose CRC is not that of its name", kSrcCrc},
    {"archive.name-unreachable", Level::Error, "an archive name the engine cannot look up", kSrcName},
    {"archive.missing", Level::Error, "an archive Data/MegaFiles.xml lists that the folder does not hold",
     kSrcMegaFiles},
    {"object.definition-error", Level::Error, "a malformed object definition file or a refused reference", kSrcObjects},
    {"object.file-missing", Level::Warning, "a definition file an index lists that no folder holds", kSrcObjects},
    {"object.parent-missing", Level::Error, "an object inheriting from an object that does not exist", kSrcObjects},
    {"object.object-missing", Level::Warning, "an object naming another object that does not exist", kSrcObjects},
    {"object.model-missing", Level::Error, "an object's model that does not resolve", kSrcObjects},
    {"object.bone-missing", Level::Error, "an attachment bone the model does not have", kSrcObjects},
    {"object.clip-missing", Level::Error, "an animation clip that does not resolve", kSrcObjects},
    {"object.hardpoint-missing", Level::Error, "a hardpoint no hardpoint file defines", kSrcObjects},
    {"object.subobject-missing", Level::Warning, "a sub-object the model does not have", kSrcObjects},
    {"object.particle-missing", Level::Error,
     "a particle system an object names that does not resolve (SAGE: no INI file defines it; EaW/FoC: its .ALO or "
     "its Particle object is missing)",
     kSrcParticles},
    {"object.texture-missing", Level::Warning, "a texture an object swaps in that does not resolve", kSrcObjects},
    {"unref.file", Level::Info, "a model, clip or texture nothing refers to", kSrcUnref},
    {"ref.base-game", Level::Info,
     "references the mod does not define or ship, left to the base game, which is not mounted (one note per check id)",
     kSrcBaseGame},
};

bool isShadowShader(const std::string& shader) {
    return iequals(shader, "MeshShadowVolume.fx") || iequals(shader, "RSkinShadowVolume.fx");
}

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = char(c - 32);
    return s;
}

std::string extOf(const std::string& key) {
    const size_t slash = key.find_last_of("/\\:");
    const size_t dot = key.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    return upper(key.substr(dot));
}

enum class Kind { Model, Clip, Texture, Archive, Other };

Kind kindOf(const std::string& name) {
    const std::string e = extOf(name);
    if (e == ".ALO" || e == ".W3D" || e == ".W3X" || e == ".BWM") return Kind::Model;
    if (e == ".ALA" || e == ".AL") return Kind::Clip;
    if (e == ".DDS" || e == ".TGA") return Kind::Texture;
    if (e == ".MEG" || e == ".BIG" || e == ".STUFF") return Kind::Archive;
    return Kind::Other;
}

struct Item {
    std::string path; // for the resolver (a file, "<archive>:<entry>", a describe() string)
    std::string key;  // game path in the mount, "" when none
    uint64_t size = 0;
    Kind kind = Kind::Other;
    std::shared_ptr<const vfs::Source> archive; // Kind::Archive from a mount
};

// Findings and references of one item (merged under the lock).
struct Out {
    std::vector<Finding> findings;
    std::vector<std::string> referenced; // paths or keys the item refers to (resolver paths)
    bool hasFacts = false;               // a model: what the object pass needs to know of it
    objects::ModelFacts facts;
};

const CheckInfo& info(std::string_view id) {
    const CheckInfo* c = findCheck(id);
    return c ? *c : kCatalog.front();
}

Finding make(std::string_view id, const Item& it, std::string message, Location where = {}) {
    Finding f;
    f.id = std::string(id);
    f.level = info(id).level;
    f.file = it.path;
    f.key = it.key;
    f.where = std::move(where);
    f.message = std::move(message);
    return f;
}

// "0x400/0x10000" and "offset N" inside a warning line.
Location locationOfWarning(const std::string& w) {
    Location l;
    for (size_t i = 0; i + 2 < w.size(); ++i) {
        if (w[i] == '0' && w[i + 1] == 'x' && (i == 0 || !std::isalnum(static_cast<unsigned char>(w[i - 1])))) {
            size_t j = i;
            while (j < w.size() && (std::isxdigit(static_cast<unsigned char>(w[j])) || w[j] == 'x' || w[j] == '/'))
                ++j;
            l.chunk = w.substr(i, j - i);
            while (!l.chunk.empty() && l.chunk.back() == '/')
                l.chunk.pop_back();
            break;
        }
    }
    const size_t at = w.find("offset ");
    if (at != std::string::npos) {
        size_t j = at + 7;
        uint64_t v = 0;
        bool any = false;
        while (j < w.size() && std::isdigit(static_cast<unsigned char>(w[j])))
            v = v * 10 + uint64_t(w[j++] - '0'), any = true;
        if (any) l.offset = v;
    }
    return l;
}

Location locationOf(const ParseError& e) {
    Location l;
    l.chunk = e.chunkPath();
    l.offset = e.offset();
    if (l.chunk.rfind("line ", 0) == 0) { // text files: "line L, column C"
        int line = 0, col = 0;
        if (std::sscanf(l.chunk.c_str(), "line %d, column %d", &line, &col) >= 1) {
            l.line = line;
            l.column = col;
            l.chunk.clear();
        }
    }
    return l;
}

void readError(const Item& it, Out& out, const std::exception& e) {
    if (const auto* pe = dynamic_cast<const ParseError*>(&e))
        out.findings.push_back(make("read.error", it, pe->message(), locationOf(*pe)));
    else
        out.findings.push_back(make("read.error", it, e.what()));
}

// The file name of a path, "<archive>:<entry>" or game path (after the last '/', '\\' or ':').
std::string fileNameOf(const std::string& path) {
    const size_t at = path.find_last_of("/\\:");
    return at == std::string::npos ? path : path.substr(at + 1);
}

// A reader's warning as the message of its finding, which names the file and the place: without the file the reader
// puts first ("<file>: ...", any spelling of the item's file name), and without the place the location holds
// (locationOfWarning: the first chunk path and offset in the text), where the text gives it: leading ("chunk P at
// offset N: ", "chunk P: "), or inside ("X in chunk P at offset N, Y ...", "mesh M at offset N: ..."). Other places
// of a list stay.
std::string warningMessage(const Item& it, const std::string& w, const Location& l) {
    std::string m = w;
    if (const size_t colon = m.find(": "); colon != std::string::npos) {
        const std::string name = fileNameOf(it.path);
        if (!name.empty() && iequals(fileNameOf(m.substr(0, colon)), name)) m.erase(0, colon + 2);
    }
    auto erase = [&](const std::string& place, bool leadingOnly) {
        const size_t at = m.find(place);
        if (at == std::string::npos) return false;
        size_t end = at + place.size();
        if (at == 0) {
            if (m.compare(end, 2, ": ") != 0) return false;
            m.erase(0, end + 2);
            return true;
        }
        if (leadingOnly) return false;
        size_t from = at;
        if (from >= 4 && m.compare(from - 4, 4, " in ") == 0)
            from -= 4;
        else if (m[from - 1] == ' ')
            from -= 1;
        m.erase(from, end - from);
        return true;
    };
    const std::string offset = l.hasOffset() ? "at offset " + std::to_string(l.offset) : std::string();
    if (!l.chunk.empty() && l.hasOffset() && erase("chunk " + l.chunk + " " + offset, false)) return m;
    if (!l.chunk.empty() && erase("chunk " + l.chunk, true)) return m;
    if (l.hasOffset() && l.chunk.empty()) erase(offset, false);
    return m;
}

void readWarnings(const Item& it, const std::vector<std::string>& warnings, Out& out, std::set<std::string>& seen) {
    for (const std::string& w : warnings)
        if (seen.insert(w).second) {
            const Location l = locationOfWarning(w);
            out.findings.push_back(make("read.warning", it, warningMessage(it, w, l), l));
        }
}

struct Ctx {
    const Resolver& resolver;
    const vfs::MountTable* table;     // mounted folders, or null
    std::shared_ptr<OpenCache> cache; // shared by the run's open() calls (header scans, companion clips), or null
};

// Where a material of the model uses texture `name`.
Location textureUse(const Model& m, const std::string& name) {
    Location l;
    l.material = name;
    for (const Mesh& mesh : m.meshes)
        for (size_t s = 0; s < mesh.subMeshes.size(); ++s)
            for (const MaterialParam& p : mesh.subMeshes[s].material.params)
                if (p.type == ParamType::Texture && iequals(p.texture, name)) {
                    l.mesh = mesh.name;
                    l.subMesh = int(s);
                    return l;
                }
    return l;
}

// The edges of a shadow volume: positions welded exactly; per edge of the non-degenerate triangles, how many
// triangles run along it in each direction. A closed volume uses each edge as often one way as the other (two
// triangles, or four where two closed parts touch along an edge).
struct EdgeCount {
    size_t open = 0;     // edges of one triangle only: holes
    size_t unpaired = 0; // edges of several triangles not paired in opposite directions (flipped or extra faces)
    size_t shared = 0;   // edges of more than two triangles, paired: closed, but not a manifold
};
EdgeCount shadowEdges(const SubMesh& sm) {
    std::map<std::tuple<float, float, float>, uint32_t> weld;
    std::vector<uint32_t> id(sm.positions.size());
    for (size_t i = 0; i < sm.positions.size(); ++i) {
        const glm::vec3& p = sm.positions[i];
        id[i] = weld.emplace(std::make_tuple(p.x, p.y, p.z), uint32_t(weld.size())).first->second;
    }
    std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> edges; // (lower -> higher, higher -> lower)
    for (size_t t = 0; t + 2 < sm.indices.size(); t += 3) {
        if (sm.indices[t] >= id.size() || sm.indices[t + 1] >= id.size() || sm.indices[t + 2] >= id.size()) continue;
        const uint32_t a = id[sm.indices[t]], b = id[sm.indices[t + 1]], c = id[sm.indices[t + 2]];
        if (a == b || b == c || a == c) continue;
        for (auto [u, v] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
            auto& e = edges[(uint64_t(std::min(u, v)) << 32) | std::max(u, v)];
            ++(u < v ? e.first : e.second);
        }
    }
    EdgeCount e;
    for (const auto& [k, n] : edges) {
        const uint32_t total = n.first + n.second;
        if (total == 1)
            ++e.open;
        else if (n.first != n.second)
            ++e.unpaired;
        else if (total > 2)
            ++e.shared;
    }
    return e;
}

constexpr size_t kMaxAlamoVertices = limits::kAlamoVerticesPerSubMesh;
constexpr size_t kMaxAlamoTriangles = limits::kAlamoTrianglesPerMesh;
constexpr size_t kMaxSkinBones = limits::kAlamoSkinPaletteBones;

void checkSkinWeights(const Item& it, const Model& m, Out& out) {
    for (const Mesh& mesh : m.meshes)
        for (size_t s = 0; s < mesh.subMeshes.size(); ++s) {
            const SubMesh& sm = mesh.subMeshes[s];
            const SubMesh::WeightNotes& n = sm.weightNotes;
            Location l;
            l.mesh = mesh.name;
            l.subMesh = int(s);
            l.material = sm.material.shader;
            const std::string of = " of " + std::to_string(sm.vertexCount()) + " vertices";
            if (n.blended)
                out.findings.push_back(make("limit.skin-weights", it,
                                            std::to_string(n.blended) + of + " (first: vertex " +
                                                std::to_string(n.firstBlended) + ") weight a second bone, but " +
                                                sm.vertexFormat +
                                                " binds each vertex to one bone: the engine uses the first only",
                                            l));
            if (n.unnormalised) {
                char sum[32];
                std::snprintf(sum, sizeof sum, m.format == Format::W3d ? "%.0f%%" : "%.3f", double(n.firstSum));
                out.findings.push_back(make("limit.skin-weights", it,
                                            std::to_string(n.unnormalised) + of + " (first: vertex " +
                                                std::to_string(n.firstUnnormalised) + ", " + sum +
                                                ") have bone weights that do not add up to " +
                                                (m.format == Format::W3d ? "100%" : "1"),
                                            l));
            }
        }
}

constexpr size_t kMaxW3dVertices = limits::kW3dVerticesPerMesh; // DX8VertexBufferClass VertexCount: unsigned short
constexpr size_t kMaxW3dIndices = limits::kW3dIndicesPerMesh;   // DX8IndexBufferClass index_count: unsigned short

// W3D meshes as the engine loads them: one vertex buffer and one index buffer range per mesh (all its materials).
void checkW3dLimits(const Item& it, const Model& m, Out& out) {
    for (const Mesh& mesh : m.meshes) {
        Location l;
        l.mesh = mesh.name;
        if (mesh.fileVertexCount > kMaxW3dVertices)
            out.findings.push_back(make("limit.w3d-vertices", it,
                                        "mesh has " + std::to_string(mesh.fileVertexCount) +
                                            " vertices; the engine's vertex buffers hold at most " +
                                            std::to_string(kMaxW3dVertices),
                                        l));
        const size_t passes = std::max<size_t>(1, mesh.filePassCount);
        const size_t indices = mesh.fileTriangleCount * 3 * passes;
        if (indices > kMaxW3dIndices)
            out.findings.push_back(
                make("limit.w3d-triangles", it,
                     "mesh has " + std::to_string(mesh.fileTriangleCount) + " triangles in " + std::to_string(passes) +
                         (passes == 1 ? " pass" : " passes") + ": " + std::to_string(indices) +
                         " indices; the engine's index buffers hold at most " + std::to_string(kMaxW3dIndices) + " (" +
                         std::to_string(kMaxW3dIndices / 3 / passes) + " triangles)",
                     l));
    }
}

void checkLimits(const Item& it, const Model& m, Out& out) {
    checkSkinWeights(it, m, out);
    if (m.format == Format::W3d) checkW3dLimits(it, m, out);
    if (m.format != Format::AlamoModel) return;
    for (const Mesh& mesh : m.meshes) {
        size_t tris = 0;
        bool shadow = false;
        for (size_t s = 0; s < mesh.subMeshes.size(); ++s) {
            const SubMesh& sm = mesh.subMeshes[s];
            tris += sm.triangleCount();
            Location l;
            l.mesh = mesh.name;
            l.subMesh = int(s);
            l.material = sm.material.shader;
            if (sm.vertexCount() > kMaxAlamoVertices)
                out.findings.push_back(make("limit.vertices", it,
                                            "sub-mesh has " + std::to_string(sm.vertexCount()) +
                                                " vertices; 16-bit indices reach " + std::to_string(kMaxAlamoVertices),
                                            l));
            if (sm.boneMap.size() > kMaxSkinBones)
                out.findings.push_back(make("limit.skin-bones", it,
                                            "skinned sub-mesh uses " + std::to_string(sm.boneMap.size()) +
                                                " bones; the skinning shaders take " + std::to_string(kMaxSkinBones),
                                            l));
            if (isShadowShader(sm.material.shader)) {
                shadow = true;
                const EdgeCount e = shadowEdges(sm);
                if (e.open || e.unpaired) {
                    std::string msg = "shadow volume is not closed:";
                    if (e.open)
                        msg += " " + std::to_string(e.open) + (e.open == 1 ? " edge borders" : " edges border") +
                               " one triangle only (a hole)";
                    if (e.unpaired)
                        msg += std::string(e.open ? "," : "") + " " + std::to_string(e.unpaired) +
                               (e.unpaired == 1 ? " edge's triangles do" : " edges' triangles do") +
                               " not pair up in opposite directions (flipped or extra faces)";
                    if (e.shared)
                        msg += "; " + std::to_string(e.shared) + " more closed edges shared by more than two triangles";
                    out.findings.push_back(make("limit.shadow-not-closed", it, msg, l));
                } else if (e.shared) {
                    out.findings.push_back(
                        make("limit.shadow-non-manifold", it,
                             "shadow volume is closed, but " + std::to_string(e.shared) +
                                 (e.shared == 1 ? " edge is" : " edges are") +
                                 " shared by more than two triangles (closed parts touching along an edge)",
                             l));
                }
            }
        }
        Location ml;
        ml.mesh = mesh.name;
        if (tris > kMaxAlamoTriangles)
            out.findings.push_back(make(
                "limit.triangles", it,
                "mesh has " + std::to_string(tris) + " triangles; at most " + std::to_string(kMaxAlamoTriangles), ml));
        if (shadow && mesh.subMeshes.size() > 1)
            out.findings.push_back(
                make("limit.shadow-materials", it,
                     "shadow volume mesh has " + std::to_string(mesh.subMeshes.size()) + " materials", ml));
        if (mesh.collisionEnabled && !shadow && mesh.subMeshes.size() > 1)
            out.findings.push_back(make("limit.collision-materials", it,
                                        "collision mesh has " + std::to_string(mesh.subMeshes.size()) + " materials",
                                        ml));
    }
}

void checkModelItem(const Ctx& c, const Item& it, Out& out) {
    Asset a;
    try {
        OpenOptions oo;
        oo.cache = c.cache;
        a = c.resolver.open(it.path, oo);
    } catch (const std::bad_alloc&) {
        out.findings.push_back(make("read.error", it, "out of memory"));
        return;
    } catch (const std::exception& e) {
        readError(it, out, e);
        out.hasFacts = true;
        out.facts.error = e.what();
        return;
    }
    const Document& d = a.document;
    out.hasFacts = true;
    if (d.model) {
        out.facts.loaded = true;
        for (const Bone& b : d.model->skeleton.bones)
            out.facts.bones.push_back(b.name);
        for (const Mesh& mesh : d.model->meshes)
            out.facts.subObjects.push_back(mesh.name);
        if (d.format == Format::AlamoModel && c.table) // SAGE states name their clips themselves
            for (const ClipFile& cf : a.clips)
                out.facts.clips.push_back(c.table->keyFor(cf.path));
    } else {
        out.facts.error = std::string("not a model (") + formatName(d.format) + ")";
    }
    std::set<std::string> seen;
    if (!a.missingHierarchy.empty()) // the reader's lines about the same missing hierarchy: one finding below
        for (const auto* list : {&d.warnings, d.model ? &d.model->warnings : &d.warnings})
            for (const std::string& w : *list)
                if (toLower(w).find(toLower(a.missingHierarchy)) != std::string::npos ||
                    w.find("hierarchy was not found") != std::string::npos)
                    seen.insert(w);
    if (d.particles) { // the reader's lines about what rigscope does not read or simulate: information, not defects
        for (size_t i = 0; i < d.particles->emitters.size(); ++i)
            for (const std::string& n : d.particles->emitters[i].notSimulated)
                if (const std::string w = notSimulatedWarning(i, d.particles->emitters[i], n); seen.insert(w).second)
                    out.findings.push_back(make("read.not-simulated", it, w));
        for (const std::string& w : d.warnings)
            if (w.rfind(kUnknownMiniChunksWarning, 0) == 0 && seen.insert(w).second)
                out.findings.push_back(make("read.not-simulated", it, w));
    }
    readWarnings(it, d.warnings, out, seen);
    for (const auto& clip : d.clips)
        readWarnings(it, clip->warnings, out, seen);
    if (!d.model) return;
    const Model& m = *d.model;
    readWarnings(it, m.warnings, out, seen);

    for (const TextureRef& t : a.textures) {
        if (!t.path.empty())
            out.referenced.push_back(t.path);
        else {
            out.findings.push_back(make("model.texture-missing", it,
                                        "texture " + t.name + " not found in the engine's lookup order",
                                        textureUse(m, t.name)));
            out.findings.back().subject = t.name;
        }
    }
    if (d.format == Format::AlamoModel) {
        std::set<std::string> shaders;
        for (const Mesh& mesh : m.meshes)
            for (size_t s = 0; s < mesh.subMeshes.size(); ++s) {
                const std::string& sh = mesh.subMeshes[s].material.shader;
                if (sh.empty() || !shaders.insert(toLower(sh)).second) continue;
                if (isStockAlamoShader(sh) || (c.table && resolve::findShader(*c.table, sh))) continue;
                Location l;
                l.mesh = mesh.name;
                l.subMesh = int(s);
                l.material = sh;
                std::string msg = "shader " + sh +
                                  " is no stock shader and is not found where the engine looks (as named, "
                                  "DATA/ART/SHADERS/, .../TERRAIN/, .../ENGINE/; .fx, .fxo, .fxh)";
                if (c.table)
                    for (const std::string& k : resolve::shaderCandidates("DATA/SHADERS/" + sh))
                        if (k.rfind("DATA/SHADERS/", 0) == 0 && c.table->contains(k)) {
                            msg += "; " + k + " is not where the engine looks (DATA/ART/SHADERS/ is)";
                            break;
                        }
                out.findings.push_back(make("model.shader-unknown", it, msg, l));
            }
        std::set<std::string> proxies;
        for (const Proxy& p : m.proxies) {
            std::string base;
            int lod = -1, alt = -1;
            parseLodAlt(p.name, base, lod, alt);
            if (base.empty() || !proxies.insert(toLower(base)).second) continue;
            const std::string file = c.resolver.findProxyFile(it.path, base + ".alo");
            if (!file.empty()) {
                out.referenced.push_back(file);
                continue;
            }
            Location l;
            l.bone = p.bone >= 0 && size_t(p.bone) < m.skeleton.bones.size() ? m.skeleton.bones[p.bone].name : "";
            out.findings.push_back(make("model.proxy-missing", it,
                                        "proxy " + p.name + ": no particle system or model " + base + ".ALO", l));
            out.findings.back().subject = base + ".ALO";
        }
    }
    if (!a.missingHierarchy.empty()) {
        out.findings.push_back(make("model.hierarchy-missing", it,
                                    "W3D skin needs hierarchy " + a.missingHierarchy + ", which no file holds"));
        out.findings.back().subject = a.missingHierarchy;
    } else if (d.format == Format::W3d && c.table && !m.skeleton.name.empty())
        if (const vfs::Hit* h = resolve::findW3dHierarchy(*c.table, m.skeleton.name, it.key))
            out.referenced.push_back(c.table->describe(*h));
    for (const ClipFile& cf : a.clips) {
        out.referenced.push_back(cf.path);
        if (!cf.clip) continue;
        const ClipBinding b = bindClip(m.skeleton, *cf.clip);
        if (b.ok()) continue;
        Item ci;
        ci.path = cf.path;
        ci.key = c.table ? c.table->keyFor(cf.path) : std::string();
        out.findings.push_back(make(
            "model.clip-mismatch", ci,
            "does not fit the skeleton of " + it.path + ": " + b.problems.front() +
                (b.problems.size() > 1 ? " (and " + std::to_string(b.problems.size() - 1) + " more)" : std::string())));
    }
    checkLimits(it, m, out);
}

void checkClipItem(const Ctx& c, const Item& it, Out& out) {
    try {
        const Document d = c.resolver.read(it.path);
        std::set<std::string> seen;
        readWarnings(it, d.warnings, out, seen);
        for (const auto& clip : d.clips)
            readWarnings(it, clip->warnings, out, seen);
    } catch (const std::bad_alloc&) {
        out.findings.push_back(make("read.error", it, "out of memory"));
    } catch (const std::exception& e) {
        readError(it, out, e);
    }
}

bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

void checkTextureItem(const Ctx& c, const Item& it, Out& out) {
    std::vector<uint8_t> bytes;
    if (!c.resolver.readBytes(it.path, bytes)) {
        out.findings.push_back(make("read.error", it, "cannot be read"));
        return;
    }
    try {
        // probeTexture judges the data size from the header; read whole when the head alone is refused.
        TextureInfo ti;
        try {
            ti = probeTexture(ByteSpan(bytes), it.path);
        } catch (const ParseError&) {
            if (it.size <= bytes.size()) throw;
            c.resolver.readBytes(it.path, bytes);
            ti = probeTexture(ByteSpan(bytes), it.path);
        }
        if (!pow2(ti.width) || !pow2(ti.height)) {
            Location l;
            l.chunk = extOf(it.path) == ".DDS" ? "DDS_HEADER.width" : "TGA header";
            out.findings.push_back(make("limit.texture-size", it,
                                        std::to_string(ti.width) + "x" + std::to_string(ti.height) +
                                            " is not a power of two in each dimension",
                                        l));
        }
    } catch (const std::exception& e) {
        readError(it, out, e);
    }
}

// Latin-1 bytes of a UTF-8 name (false when a character is past U+00FF).
bool latin1Of(const std::string& utf8, std::string& out) {
    out.clear();
    for (size_t i = 0; i < utf8.size(); ++i) {
        const unsigned char b = static_cast<unsigned char>(utf8[i]);
        if (b < 0x80) {
            out += char(b);
        } else if ((b == 0xC2 || b == 0xC3) && i + 1 < utf8.size()) {
            out += char(((b & 0x03) << 6) | (static_cast<unsigned char>(utf8[++i]) & 0x3F));
        } else {
            return false;
        }
    }
    return true;
}

void checkArchiveItem(const Item& it, Out& out) {
    std::shared_ptr<const vfs::Source> src = it.archive;
    if (!src) {
        try {
            src = vfs::openArchiveFile(it.path);
        } catch (const std::exception& e) {
            readError(it, out, e);
            return;
        }
    }
    const auto& entries = src->entries();
    const bool meg = src->kind().rfind("meg", 0) == 0;
    std::unordered_map<std::string, size_t> firstOf;
    for (size_t i = 0; i < entries.size(); ++i) {
        const vfs::Entry& e = entries[i];
        Location l;
        l.chunk = "file table record " + std::to_string(i);
        auto [at, fresh] = firstOf.emplace(e.key, i);
        if (!fresh)
            out.findings.push_back(make("archive.duplicate-name", it,
                                        "entry " + e.name + " has the name of record " + std::to_string(at->second) +
                                            " (the first is used)",
                                        l));
        std::string raw;
        const bool ascii =
            std::all_of(e.name.begin(), e.name.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; });
        if (meg && latin1Of(e.name, raw) && e.crc != vfs::crc32(raw.data(), raw.size())) {
            char b[64];
            std::snprintf(b, sizeof b, "stored CRC 0x%08X, name CRC 0x%08X", e.crc, vfs::crc32(raw.data(), raw.size()));
            out.findings.push_back(make("archive.crc-mismatch", it, "entry " + e.name + ": " + b, l));
        }
        std::string why;
        if (e.name.size() > 259)
            why = "longer than 259 characters";
        else if (!ascii)
            why = "not ASCII";
        else if (meg && upper(e.name) != e.name)
            why = "not upper case (the engine looks up the CRC of the upper-cased path)";
        else if (e.name.empty())
            why = "empty";
        if (!why.empty())
            out.findings.push_back(make("archive.name-unreachable", it, "entry " + e.name + ": " + why, l));
    }
}

void checkItem(const Ctx& c, const Item& it, Out& out) {
    switch (it.kind) {
    case Kind::Model:
        checkModelItem(c, it, out);
        break;
    case Kind::Clip:
        checkClipItem(c, it, out);
        break;
    case Kind::Texture:
        checkTextureItem(c, it, out);
        break;
    case Kind::Archive:
        checkArchiveItem(it, out);
        break;
    case Kind::Other:
        break;
    }
}

// "<file>: field line L, column C: message" (objects::errorAt) or any ParseError line.
Finding objectError(const std::string& text, const vfs::MountTable& table) {
    Finding f;
    f.id = "object.definition-error";
    f.level = info(f.id).level;
    const size_t field = text.find(": field line ");
    if (field != std::string::npos) {
        f.key = text.substr(0, field);
        int line = 0, col = 0;
        std::sscanf(text.c_str() + field, ": field line %d, column %d", &line, &col);
        f.where.line = line;
        f.where.column = col;
        const size_t msg = text.find(": ", field + 2);
        f.message = msg == std::string::npos ? text : text.substr(msg + 2);
    } else {
        const size_t colon = text.find(": ");
        f.key = colon == std::string::npos ? std::string() : text.substr(0, colon);
        f.message = colon == std::string::npos ? text : text.substr(colon + 2);
    }
    const vfs::Hit* h = f.key.empty() ? nullptr : table.find(f.key);
    f.file = h ? table.describe(*h) : f.key;
    return f;
}

std::string refId(const objects::Ref& r) {
    if (r.kind == "model" || r.kind == "lod-model") return "object.model-missing";
    if (r.kind == "bone") return "object.bone-missing";
    if (r.kind == "clip") return "object.clip-missing";
    if (r.kind == "hardpoint") return "object.hardpoint-missing";
    if (r.kind == "sub-object") return "object.subobject-missing";
    if (r.kind == "texture") return "object.texture-missing";
    if (r.kind == "particle-system") return "object.particle-missing";
    if (r.kind == "object")
        return r.where.rfind("Variant_Of_Existing_Type", 0) == 0 || r.where.rfind("parent of", 0) == 0
                   ? "object.parent-missing"
                   : "object.object-missing";
    return "object.file-missing";
}

// Model facts the file pass learnt (every model it opened), for the object pass: a model is read once per run.
struct KnownFacts {
    std::mutex mu;
    std::unordered_map<std::string, objects::ModelFacts> byKey;
};

void checkObjects(const Ctx& c, unsigned threads, KnownFacts& known, std::vector<Finding>& out,
                  std::vector<std::string>& referenced, const std::atomic<bool>* cancel) {
    const vfs::MountTable& t = *c.table;
    auto db = objects::ObjectDb::load(t);
    if (db->family() == objects::ObjectDb::Family::None) return;
    for (const std::string& f : db->filesRead()) {
        const vfs::Hit* h = t.find(f);
        referenced.push_back(h ? t.describe(*h) : f);
    }
    for (const std::string& e : db->errors())
        out.push_back(objectError(e, t));
    for (const std::string& k : db->filesMissing()) {
        Finding f;
        f.id = "object.file-missing";
        f.level = info(f.id).level;
        f.file = f.key = f.subject = k;
        f.message = "listed by the object index, but no mounted folder holds it";
        out.push_back(std::move(f));
    }
    // Facts of the file pass first; models it did not open (outside the checked set) through documentProbe, which
    // is not thread-safe: one call at a time.
    const objects::ModelProbe fallback = objects::documentProbe(t);
    std::mutex fallbackMu;
    const objects::ModelProbe probe = [&](const std::string& key) -> objects::ModelFacts {
        {
            std::lock_guard<std::mutex> lock(known.mu);
            const auto it = known.byKey.find(key);
            if (it != known.byKey.end()) return it->second;
        }
        std::lock_guard<std::mutex> lock(fallbackMu);
        return fallback(key);
    };
    // "" and the art roots of the mount (resolve::artRootOf: "ARTS/" of ARTS/ART/W3D/...), sorted.
    std::vector<std::string> artRoots{""};
    {
        std::set<std::string> roots;
        t.forEach([&](const std::string& key, const std::vector<vfs::Hit>&) {
            if (std::string r = resolve::artRootOf(key); !r.empty()) roots.insert(std::move(r));
        });
        artRoots.insert(artRoots.end(), roots.begin(), roots.end());
    }
    auto texturesOf = [&](const objects::AssembledObject& o, std::vector<objects::Ref>& refs) {
        auto add = [&](const std::string& name, const objects::SourcePos& pos, const std::string& where) {
            if (name.empty()) return;
            objects::Ref r;
            r.kind = "texture";
            r.name = name;
            r.where = where;
            r.pos = pos;
            // Looked up as for a model of the object (its art root counts), else as for a model in each art root.
            const vfs::Hit* h = nullptr;
            for (const objects::Part& p : o.parts)
                if (p.found && !resolve::artRootOf(p.key).empty()) {
                    h = resolve::findTexture(t, name, p.key);
                    break;
                }
            for (size_t i = 0; !h && i < artRoots.size(); ++i)
                h = resolve::findTexture(t, name, artRoots[i] + "ART/W3D/" + upper(name.substr(0, 2)) + "/X.W3D");
            r.found = h != nullptr;
            if (h) r.key = t.entry(*h).key;
            refs.push_back(std::move(r));
        };
        for (const auto& d : o.draws)
            for (const auto& s : d.states)
                for (const auto& [from, to] : s.textureSwaps)
                    add(to, s.pos, "Texture " + from + " " + to);
        for (const auto& [from, to] : o.upgradeTextures)
            add(to, o.pos, "UpgradeTexture " + from + " " + to);
    };
    using SeenKey = std::tuple<std::string, std::string, int, int, std::string>;
    // One object's findings (each with its de-duplication key, an empty id for none) and references, merged below
    // in the database's object order, so that the result does not depend on the threads.
    struct ObjOut {
        std::vector<std::pair<SeenKey, Finding>> findings;
        std::vector<std::string> referenced;
    };
    const std::vector<objects::ObjectSummary>& all = db->objects();
    std::vector<ObjOut> outs(all.size());
    auto atObject = [&](size_t i, Finding f) {
        f.where.object = all[i].name;
        f.key = all[i].pos.file;
        f.where.line = all[i].pos.line;
        f.where.column = all[i].pos.column;
        const vfs::Hit* h = t.find(all[i].pos.file);
        f.file = h ? t.describe(*h) : all[i].pos.file;
        return f;
    };
    auto one = [&](size_t i, ObjOut& oo) {
        objects::AssembledObject o;
        try {
            o = db->assemble(all[i].name, probe);
        } catch (const ParseError& e) {
            Finding f = objectError(e.what(), t);
            if (f.key.empty() || !t.find(f.key)) f = atObject(i, std::move(f));
            oo.findings.emplace_back(SeenKey{}, std::move(f));
            return;
        }
        // Budgets the object passed (a list cut at kMaxListItems): where the definition says so.
        for (const std::string& w : o.warnings)
            if (w.find("(budget k") != std::string::npos) {
                Finding f = objectError(w, t);
                f.where.object = o.name;
                oo.findings.emplace_back(SeenKey{f.id, f.key, f.where.line, f.where.column, w}, std::move(f));
            }
        std::vector<objects::Ref> refs = o.refs;
        texturesOf(o, refs);
        auto refer = [&](const std::string& key) {
            const vfs::Hit* h = t.find(key);
            oo.referenced.push_back(h ? t.describe(*h) : key);
        };
        for (const objects::Part& p : o.parts) {
            if (!p.key.empty()) refer(p.key);
            for (const std::string& clip : p.clips)
                refer(clip);
        }
        for (const auto& d : o.draws)
            for (const auto& st : d.states)
                for (const auto& an : st.animations)
                    if (!an.clipKey.empty()) refer(an.clipKey);
        for (const objects::Ref& r : refs) {
            if (r.found) {
                if (!r.key.empty()) refer(r.key);
                continue;
            }
            if (r.optional) continue;
            // A bone or sub-object of a model that was not found is that model's finding, not another one.
            if (r.kind != "model" && r.where.find("(model not found)") != std::string::npos) continue;
            const std::string id = refId(r);
            Finding f;
            f.id = id;
            f.level = info(id).level;
            f.key = r.pos.file;
            const vfs::Hit* h = t.find(r.pos.file);
            f.file = h ? t.describe(*h) : r.pos.file;
            f.where.line = r.pos.line;
            f.where.column = r.pos.column;
            if (r.kind == "bone") f.where.bone = r.name;
            f.where.object = o.name;
            f.message = o.name + ": " + r.kind + " " + r.name + " (" + r.where + ") does not resolve";
            f.subject = r.name;
            oo.findings.emplace_back(SeenKey{id, r.pos.file, r.pos.line, r.pos.column, upper(r.name)}, std::move(f));
        }
    };
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (;;) {
            if (cancel && cancel->load()) return;
            const size_t i = next.fetch_add(1);
            if (i >= all.size()) return;
            try {
                one(i, outs[i]);
            } catch (const std::exception& e) { // what assembling did not expect: the object's finding
                outs[i].findings.emplace_back(SeenKey{}, atObject(i, objectError(all[i].name + ": " + e.what(), t)));
            }
        }
    };
    threads = std::max(1u, std::min<unsigned>(threads, unsigned(std::max<size_t>(1, all.size()))));
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(worker);
    worker();
    for (auto& th : pool)
        th.join();
    // References inherited by variants are reported once, where written: the first object (in order) keeps it.
    std::set<SeenKey> seen;
    for (ObjOut& oo : outs) {
        for (auto& [k, f] : oo.findings)
            if (std::get<0>(k).empty() || seen.insert(k).second) out.push_back(std::move(f));
        for (std::string& r : oo.referenced)
            referenced.push_back(std::move(r));
    }
}

// Findings naming something the mount does not hold, which a base game may provide.
bool baseGameReference(const std::string& id) {
    static const std::set<std::string> ids = {"model.texture-missing",
                                              "model.proxy-missing",
                                              "model.hierarchy-missing",
                                              "object.file-missing",
                                              "object.parent-missing",
                                              "object.object-missing",
                                              "object.model-missing",
                                              "object.clip-missing",
                                              "object.hardpoint-missing",
                                              "object.particle-missing",
                                              "object.texture-missing",
                                              "ini.commandbutton-missing",
                                              "ini.commandset-missing",
                                              "ini.button-object-missing",
                                              "ini.mappedimage-missing",
                                              "ini.mappedimage-texture-missing",
                                              "sfx.sample-missing",
                                              "gui.texture-missing",
                                              "gui.megatexture-missing",
                                              "commandbar.model-missing",
                                              "commandbar.texture-missing",
                                              "commandbar.icon-missing",
                                              "commandbar.megatexture-missing"};
    return ids.count(id) != 0;
}

// The first mod folder of a mount of mods without a game (vfs::mountInstall's roles); "" when a game is mounted or
// the mount holds no mod.
std::string modWithoutGame(const vfs::MountTable& t) {
    std::string mod;
    for (const vfs::Mount& m : t.mounts()) {
        if (m.role.rfind("game", 0) == 0) return {};
        if (mod.empty() && m.role.rfind("mod", 0) == 0) mod = m.source->label();
    }
    return mod;
}

bool findingLess(const Finding& a, const Finding& b) {
    return std::tie(a.file, a.where.line, a.where.offset, a.where.mesh, a.where.subMesh, a.id, a.message) <
           std::tie(b.file, b.where.line, b.where.offset, b.where.mesh, b.where.subMesh, b.id, b.message);
}

// A mod checked without its game: the findings of baseGameReference ids become one ref.base-game note per id, with
// their count, the number of names and the first three names (in report order) as examples. `findings` is sorted
// (and stays so). Returns the number of findings summarised.
size_t summariseBaseGameReferences(const std::string& mod, std::vector<Finding>& findings) {
    struct Group {
        size_t count = 0;
        std::set<std::string> names;
        std::vector<std::string> examples;
    };
    std::map<std::string, Group> groups;
    std::vector<Finding> kept;
    kept.reserve(findings.size());
    for (Finding& f : findings) {
        if (!baseGameReference(f.id)) {
            kept.push_back(std::move(f));
            continue;
        }
        Group& g = groups[f.id];
        ++g.count;
        const std::string name = f.subject.empty() ? f.message : f.subject;
        if (g.names.insert(upper(name)).second && g.examples.size() < 3) {
            std::string where = f.key.empty() ? f.file : f.key;
            if (f.where.line) where += ":" + std::to_string(f.where.line);
            if (!f.where.object.empty()) where = f.where.object + ", " + where;
            g.examples.push_back(where == name ? name : name + " (" + where + ")"); // a file: named once
        }
    }
    for (const auto& [id, g] : groups) {
        Finding f;
        f.id = "ref.base-game";
        f.level = info(f.id).level;
        f.file = mod;
        f.subject = id;
        f.message = std::to_string(g.count) + (g.count == 1 ? " reference" : " references") + " (" + id + ", " +
                    std::to_string(g.names.size()) + (g.names.size() == 1 ? " name" : " names") +
                    ") to what the mod does not define or ship, which the base game may provide; mount the game to "
                    "check them. E.g. ";
        for (size_t i = 0; i < g.examples.size(); ++i)
            f.message += (i ? "; " : "") + g.examples[i];
        kept.push_back(std::move(f));
    }
    findings = std::move(kept);
    std::sort(findings.begin(), findings.end(), findingLess);
    size_t n = 0;
    for (const auto& [id, g] : groups)
        n += g.count;
    return n;
}

// What a folder walk could not read, and links it did not follow (vfs::walkFolder / Folder::unreadable): findings
// of their own, so that a check of "every file" says which were left out.
Finding walkFinding(const char* id, const std::string& file, const std::string& message) {
    Finding f;
    f.id = id;
    f.level = info(id).level;
    f.file = file;
    f.message = message;
    return f;
}
Finding unreadableFinding(const std::string& line) { // "<path>: <reason>"
    size_t at = std::string::npos;
    for (const char* tail : {": folder cannot", ": link cannot", ": cannot be read"})
        if (at == std::string::npos) at = line.rfind(tail);
    if (at == std::string::npos) return walkFinding("read.unreadable-folder", line, line);
    return walkFinding("read.unreadable-folder", line.substr(0, at),
                       line.substr(at + 2) + "; its files are not checked");
}
Finding linkFinding(const std::string& path, const std::string& target) {
    return walkFinding("read.link-outside", path,
                       "link leading out of the folder (to " +
                           (target.empty() ? std::string("a target that cannot be followed") : target) + "): not read");
}

Report run(const Resolver& resolver, std::vector<Item> items, const Options& options, bool whole,
           std::vector<Finding> extra = {}) {
    const auto t0 = std::chrono::steady_clock::now();
    Report rep;
    rep.findings = std::move(extra);
    const Ctx c{resolver, resolver.mounted().get(), options.runCache ? std::make_shared<OpenCache>() : nullptr};
    unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = std::max(1u, std::min<unsigned>(threads, unsigned(std::max<size_t>(1, items.size()))));
    rep.threads = threads;
    for (const Item& it : items)
        rep.bytes += it.size;
    rep.files = items.size();
    const size_t total = items.size() + ((whole && options.objects && c.table) ? 1 : 0);

    std::mutex mu;
    std::atomic<size_t> next{0};
    size_t done = 0;
    std::vector<std::string> referenced;
    KnownFacts known;
    auto worker = [&] {
        for (;;) {
            if (options.cancel && options.cancel->load()) return;
            const size_t i = next.fetch_add(1);
            if (i >= items.size()) return;
            Out out;
            try {
                checkItem(c, items[i], out);
            } catch (const std::exception& e) { // whatever a check did not expect: the file's finding, not a crash
                readError(items[i], out, e);
            }
            std::lock_guard<std::mutex> lock(mu);
            for (Finding& f : out.findings)
                rep.findings.push_back(std::move(f));
            for (std::string& r : out.referenced)
                referenced.push_back(std::move(r));
            if (options.runCache && out.hasFacts && !items[i].key.empty()) {
                std::lock_guard<std::mutex> factsLock(known.mu);
                known.byKey.emplace(items[i].key, std::move(out.facts));
            }
            ++done;
            if (options.progress) options.progress(done, total);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(worker);
    worker();
    for (auto& th : pool)
        th.join();

    if (whole && c.table && !(options.cancel && options.cancel->load())) {
        // What the mount itself found wrong: archives Data/MegaFiles.xml lists that are not there.
        static const std::string kListedMissing = " listed in Data/MegaFiles.xml is missing";
        for (const std::string& w : c.table->warnings) {
            const size_t at = w.find(kListedMissing);
            const size_t colon = w.find(": ");
            if (at == std::string::npos || colon == std::string::npos || colon > at) continue;
            Finding f;
            f.id = "archive.missing";
            f.level = info(f.id).level;
            f.file = w.substr(0, colon) + "/Data/MegaFiles.xml";
            f.key = "DATA/MEGAFILES.XML";
            const std::string listed = w.substr(colon + 2, at - colon - 2);
            f.message = listed + kListedMissing;
            // Where the index lists it: the first line naming it (case-insensitive, as the engine reads the list).
            if (std::ifstream in(f.file); in && !listed.empty()) {
                const std::string needle = toLower(listed);
                std::string line;
                for (int n = 1; std::getline(in, line) && n <= 100000; ++n)
                    if (const size_t col = toLower(line).find(needle); col != std::string::npos) {
                        f.where.line = n;
                        f.where.column = int(col) + 1;
                        break;
                    }
            }
            rep.findings.push_back(std::move(f));
        }
        if (options.objects) {
            checkObjects(c, threads, known, rep.findings, referenced, options.cancel);
            checkSageCommands(*c.table, rep.findings, referenced);
            checkAlamoReferences(*c.table, rep.findings, referenced);
            if (options.progress) options.progress(total, total);
        }
        if (options.unreferenced) {
            std::unordered_set<std::string> refs;
            for (const std::string& r : referenced) {
                refs.insert(r);
                refs.insert(c.table->keyFor(r));
            }
            for (const Item& it : items) {
                if (it.kind != Kind::Model && it.kind != Kind::Clip && it.kind != Kind::Texture) continue;
                if (refs.count(it.path) || refs.count(it.key)) continue;
                rep.findings.push_back(make("unref.file", it, "no model, clip or object refers to this file"));
            }
        }
    }
    rep.cancelled = options.cancel && options.cancel->load();
    std::sort(rep.findings.begin(), rep.findings.end(), findingLess);
    if (c.table)
        if (const std::string mod = modWithoutGame(*c.table); !mod.empty())
            rep.leftToBaseGame = summariseBaseGameReferences(mod, rep.findings);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
}

} // namespace

const char* levelName(Level l) {
    switch (l) {
    case Level::Info:
        return "info";
    case Level::Warning:
        return "warning";
    case Level::Error:
        return "error";
    }
    return "info";
}

bool parseLevel(std::string_view s, Level& out) {
    if (s == "info" || s == "note")
        out = Level::Info;
    else if (s == "warning")
        out = Level::Warning;
    else if (s == "error")
        out = Level::Error;
    else
        return false;
    return true;
}

std::string Location::str() const {
    std::string s;
    auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
    if (!chunk.empty()) add((chunk.rfind("0x", 0) == 0 ? "chunk " : "") + chunk);
    if (hasOffset()) add("offset " + std::to_string(offset));
    if (line) add("line " + std::to_string(line) + (column ? ", column " + std::to_string(column) : ""));
    if (!mesh.empty()) add("mesh " + mesh + (subMesh >= 0 ? " sub-mesh " + std::to_string(subMesh) : ""));
    if (!bone.empty()) add("bone " + bone);
    if (!material.empty()) add("material " + material);
    return s;
}

const std::vector<CheckInfo>& catalog() {
    // The table above, then the SAGE command checks (sage_commands.cpp) and the EaW/FoC SFX, GUI and command bar
    // checks (alamo_refs.cpp) before the last two rows (unref, ref).
    static const std::vector<CheckInfo> all = [] {
        std::vector<CheckInfo> v(kCatalog.begin(), kCatalog.end() - 2);
        v.insert(v.end(), sageCommandChecks().begin(), sageCommandChecks().end());
        v.insert(v.end(), alamoReferenceChecks().begin(), alamoReferenceChecks().end());
        v.insert(v.end(), kCatalog.end() - 2, kCatalog.end());
        return v;
    }();
    return all;
}

const CheckInfo* findCheck(std::string_view id) {
    for (const CheckInfo& c : catalog())
        if (id == c.id) return &c;
    return nullptr;
}

size_t Report::count(Level l) const {
    return size_t(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.level == l; }));
}

bool Report::reaches(Level l) const {
    return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.level >= l; });
}

Report checkMount(const Resolver& resolver, const Options& options) {
    const auto& table = resolver.mounted();
    if (!table) return {};
    std::vector<Item> items;
    std::vector<Finding> extra;
    for (const vfs::Mount& m : table->mounts()) {
        for (const std::string& u : m.source->unreadable())
            extra.push_back(unreadableFinding(u));
        for (const vfs::Entry& e : m.source->entries())
            if (e.linkOutside) extra.push_back(linkFinding(e.diskPath, e.linkTarget));
    }
    table->forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
        const Kind k = kindOf(key);
        if (k == Kind::Other || k == Kind::Archive || hits.empty()) return;
        if (table->entry(hits.front()).linkOutside) return; // reported above, never read
        Item it;
        it.path = table->describe(hits.front());
        it.key = key;
        it.size = table->entry(hits.front()).size;
        it.kind = k;
        items.push_back(std::move(it));
    });
    for (const vfs::Mount& m : table->mounts()) {
        if (m.source->kind() == "folder") continue;
        Item it;
        it.path = m.source->label();
        it.kind = Kind::Archive;
        it.archive = m.source;
        std::error_code ec;
        it.size = std::filesystem::file_size(it.path, ec);
        items.push_back(std::move(it));
    }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.path < b.path; });
    return run(resolver, std::move(items), options, true, std::move(extra));
}

Report checkPaths(const Resolver& resolver, const std::vector<std::string>& paths, const Options& options) {
    std::vector<Item> items;
    auto keyOf = [&](const std::string& p) {
        const Resolver::Place pl = resolver.placeOf(p);
        return pl.table ? pl.key : std::string();
    };
    auto addFile = [&](const std::string& p, uint64_t size) {
        Item it;
        it.path = p;
        it.kind = kindOf(p);
        it.size = size;
        if (it.kind == Kind::Other) return;
        if (it.kind == Kind::Archive) {
            items.push_back(it);
            try { // and its entries
                auto a = vfs::openArchiveFile(p);
                for (const vfs::Entry& e : a->entries()) {
                    Item ei;
                    ei.path = p + ":" + e.name;
                    ei.kind = kindOf(e.key);
                    ei.size = e.size;
                    ei.key = e.key;
                    if (ei.kind != Kind::Other && ei.kind != Kind::Archive) items.push_back(std::move(ei));
                }
            } catch (const std::exception&) {
                // reported by the archive item
            }
            return;
        }
        it.key = keyOf(p);
        items.push_back(std::move(it));
    };
    std::vector<Finding> extra;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            // Every file under the folder; a sub-folder that cannot be read is a finding, and the walk goes on.
            vfs::FolderWalk walk = vfs::walkFolder(p);
            std::sort(walk.files.begin(), walk.files.end(),
                      [](const vfs::WalkedFile& a, const vfs::WalkedFile& b) { return a.path < b.path; });
            for (const std::string& u : walk.unreadable)
                extra.push_back(unreadableFinding(u));
            for (const vfs::WalkedFile& f : walk.files)
                if (f.linkOutside)
                    extra.push_back(linkFinding(f.path, f.linkTarget));
                else
                    addFile(f.path, f.size);
        } else if (std::filesystem::is_regular_file(p, ec)) {
            addFile(p, std::filesystem::file_size(p, ec));
        } else {
            Item it; // an archive entry or a game path: opened through the resolver
            it.path = p;
            it.kind = kindOf(p);
            if (it.kind == Kind::Other) it.kind = Kind::Model;
            it.key = keyOf(p);
            items.push_back(std::move(it));
        }
    }
    return run(resolver, std::move(items), options, false, std::move(extra));
}

} // namespace rs::check
