#include "gltf_export.h"

#include "formats/material_policy.h"
#include "formats/shader_registry.h"

#include "common/cp1252.h"
#include "common/error.h"
#include "scene/pose.h"
#include "texture/texture.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <stb_image_write.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace fs = std::filesystem;

namespace rs::gltf {

glm::mat4 axisChange(UpAxis up) {
    glm::mat4 c(1.0f);
    if (up == UpAxis::Y) return c;
    c[1] = glm::vec4(0, 0, -1, 0); // game +Y -> glTF -Z
    c[2] = glm::vec4(0, 1, 0, 0);  // game +Z -> glTF +Y
    return c;
}

std::vector<bool> selectVariant(const Model& m, int lodWanted, int altWanted) {
    return selectLodAlt(m, lodWanted, altWanted);
}

namespace {

using tinygltf::Value;

struct TRS {
    glm::vec3 t{0.0f};
    glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 s{1.0f};
};

// T * R * S of an affine matrix (shear is dropped; a negative determinant goes into scale x).
TRS decompose(const glm::mat4& m) {
    TRS o;
    o.t = glm::vec3(m[3]);
    glm::vec3 c[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    for (int k = 0; k < 3; ++k)
        o.s[k] = glm::length(c[k]);
    if (glm::dot(glm::cross(c[0], c[1]), c[2]) < 0.0f) o.s.x = -o.s.x;
    glm::mat3 rot(1.0f);
    if (o.s.x != 0.0f && o.s.y != 0.0f && o.s.z != 0.0f) {
        rot = glm::mat3(c[0] / o.s.x, c[1] / o.s.y, c[2] / o.s.z);
        o.r = glm::normalize(glm::quat_cast(rot));
    }
    return o;
}

Value num(double d) { return Value(d); }
Value str(const std::string& s) { return Value(s); }
// A name from the game's file (CP-1252 bytes) as glTF's UTF-8.
std::string u8(const std::string& s) { return cp1252ToUtf8(s); }
Value name(const std::string& s) { return Value(u8(s)); }

// s as a URI reference (RFC 3986): unreserved characters kept, every other byte of its UTF-8 percent-encoded.
std::string uriEncode(const std::string& s) {
    static const char* const kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) && c < 0x80) {
            out += char(c);
        } else if (c == '-' || c == '.' || c == '_' || c == '~') {
            out += char(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}
Value arr(std::initializer_list<double> v) {
    Value::Array a;
    for (double d : v)
        a.push_back(Value(d));
    return Value(a);
}
Value vec(const glm::vec3& v) { return arr({v.x, v.y, v.z}); }

std::string stemOf(const std::string& path) { return fs::path(path).stem().string(); }

bool has(const std::string& lowerShader, const char* what) { return lowerShader.find(what) != std::string::npos; }

using Family = MaterialFamily;

Value paramValue(const MaterialParam& p) {
    switch (p.type) {
    case ParamType::Int:
        return Value(int(p.intValue));
    case ParamType::Float:
        return num(p.value.x);
    case ParamType::Float3:
        return arr({p.value.x, p.value.y, p.value.z});
    case ParamType::Float4:
        return arr({p.value.x, p.value.y, p.value.z, p.value.w});
    case ParamType::Texture:
        return name(p.texture);
    }
    return Value();
}

class Exporter {
  public:
    Exporter(const Model& model, const ExportOptions& opt, TextureLookup* textures, const std::string& outPath)
        : m_(model), opt_(opt), textures_(textures), out_(outPath), axes_(axisChange(upAxisOf(model.format))),
          axesInverse_(glm::transpose(axes_)) {
        const std::string ext = toLower(fs::path(outPath).extension().string());
        if (ext == ".glb")
            binary_ = true;
        else if (ext == ".gltf")
            binary_ = false;
        else
            throw ParseError(outPath, {}, ParseError::kNoOffset, "output must end in .glb or .gltf");
        g_.asset.version = "2.0";
        g_.asset.generator = "rigscope";
        g_.buffers.emplace_back();
        name_ = m_.sourcePath.empty() ? std::string("model") : pathToUtf8(stemOf(m_.sourcePath));
        const size_t nb = m_.skeleton.bones.size();
        bindWorld_.resize(nb);
        if (nb) m_.skeleton.bindWorld(bindWorld_.data());
        PoseBuffers rest(nb);
        if (nb) evaluatePose(m_.skeleton, nullptr, nullptr, 0.0f, LoopMode::Once, rest.view());
        restVisible_ = rest.visible;
        meshOut_.resize(m_.meshes.size());
    }

    ExportStats run(const std::vector<const Clip*>& clips);

  private:
    struct MeshOut {
        bool built = false;
        int rigid = -1, skinned = -1;
    };
    struct SceneCopy {
        std::vector<int> boneNode;
        std::vector<std::pair<int, int>> attached; // (bone, node) of rigid attachments
    };

    glm::vec3 cv(const glm::vec3& v) const { return glm::vec3(axes_ * glm::vec4(v, 0.0f)); }
    glm::mat4 toGltf(const glm::mat4& m) const { return axes_ * m * axesInverse_; }
    int addView(const void* data, size_t bytes, int target);
    int addAccessor(const void* data, size_t count, int componentType, int type, size_t elemBytes, int target,
                    const float* mn = nullptr, const float* mx = nullptr, int comps = 0);
    int floatAccessor(const std::vector<float>& v, int type, int comps, bool minmax, int target = 0);
    int addNode(const std::string& name, int parent);
    void setTRS(tinygltf::Node& n, const TRS& trs);
    void buildMesh(size_t meshIndex);
    int buildPrimitive(const Mesh& mesh, const SubMesh& sm, tinygltf::Primitive& prim);
    int material(const Mesh& mesh, const SubMesh& sm);
    int texture(const std::string& name, bool bake);
    void buildScene(int lod, int alt, const std::string& sceneName);
    void buildAnimation(const Clip& clip);
    void write();

    const Model& m_;
    ExportOptions opt_;
    TextureLookup* textures_;
    std::string out_, name_;
    glm::mat4 axes_, axesInverse_; // axisChange of the model's format and its inverse
    bool binary_ = true;
    tinygltf::Model g_;
    ExportStats stats_;
    std::vector<glm::mat4> bindWorld_;
    std::vector<uint8_t> restVisible_;
    std::vector<MeshOut> meshOut_;
    std::vector<SceneCopy> scenes_;
    std::map<std::string, int> textureCache_;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> pngFiles_; // .gltf: files written beside it
    int ibmAccessor_ = -1, sampler_ = -1, zeroTime_ = -1;
};

int Exporter::addView(const void* data, size_t bytes, int target) {
    std::vector<unsigned char>& b = g_.buffers[0].data;
    while (b.size() % 4)
        b.push_back(0);
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = b.size();
    v.byteLength = bytes;
    v.target = target;
    const auto* p = static_cast<const unsigned char*>(data);
    b.insert(b.end(), p, p + bytes);
    g_.bufferViews.push_back(v);
    return int(g_.bufferViews.size() - 1);
}

int Exporter::addAccessor(const void* data, size_t count, int componentType, int type, size_t elemBytes, int target,
                          const float* mn, const float* mx, int comps) {
    tinygltf::Accessor a;
    a.bufferView = addView(data, count * elemBytes, target);
    a.byteOffset = 0;
    a.componentType = componentType;
    a.count = count;
    a.type = type;
    if (mn && mx) {
        a.minValues.assign(mn, mn + comps);
        a.maxValues.assign(mx, mx + comps);
    }
    g_.accessors.push_back(a);
    return int(g_.accessors.size() - 1);
}

int Exporter::floatAccessor(const std::vector<float>& v, int type, int comps, bool minmax, int target) {
    const size_t count = v.size() / size_t(comps);
    std::vector<float> mn(size_t(comps), 0.0f), mx(size_t(comps), 0.0f);
    if (minmax && count) {
        for (int c = 0; c < comps; ++c)
            mn[size_t(c)] = mx[size_t(c)] = v[size_t(c)];
        for (size_t i = 0; i < count; ++i)
            for (int c = 0; c < comps; ++c) {
                mn[size_t(c)] = std::min(mn[size_t(c)], v[i * size_t(comps) + size_t(c)]);
                mx[size_t(c)] = std::max(mx[size_t(c)], v[i * size_t(comps) + size_t(c)]);
            }
    }
    return addAccessor(v.data(), count, TINYGLTF_COMPONENT_TYPE_FLOAT, type, sizeof(float) * size_t(comps), target,
                       minmax ? mn.data() : nullptr, minmax ? mx.data() : nullptr, comps);
}

int Exporter::addNode(const std::string& name, int parent) {
    tinygltf::Node n;
    n.name = name;
    g_.nodes.push_back(n);
    const int idx = int(g_.nodes.size() - 1);
    if (parent >= 0) g_.nodes[size_t(parent)].children.push_back(idx);
    return idx;
}

void Exporter::setTRS(tinygltf::Node& n, const TRS& trs) {
    if (trs.t != glm::vec3(0.0f)) n.translation = {trs.t.x, trs.t.y, trs.t.z};
    if (trs.r != glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) n.rotation = {trs.r.x, trs.r.y, trs.r.z, trs.r.w};
    if (trs.s != glm::vec3(1.0f)) n.scale = {trs.s.x, trs.s.y, trs.s.z};
}

int Exporter::texture(const std::string& name, bool bake) {
    if (name.empty()) return -1;
    const std::string key = toLower(name) + (bake ? "#baked" : "");
    if (auto it = textureCache_.find(key); it != textureCache_.end()) return it->second;
    textureCache_[key] = -1;
    if (!textures_) return -1;
    std::string path;
    std::vector<uint8_t> bytes;
    Image img;
    try {
        if (!textures_->find(name, path, bytes)) {
            stats_.warnings.push_back("texture " + name + " not found");
            return -1;
        }
        img = decodeTexture(ByteSpan(bytes), path);
    } catch (const std::exception& e) {
        stats_.warnings.push_back("texture " + name + ": " + e.what());
        return -1;
    }
    if (img.width <= 0 || img.height <= 0 || img.rgba.size() != size_t(img.width) * size_t(img.height) * 4) {
        stats_.warnings.push_back("texture " + name + ": decoder returned no pixels");
        return -1;
    }
    if (bake) {
        // surface = mix(base, colour * base, base.a); the mask is used up, so the result is opaque.
        const glm::vec3 fc = glm::clamp(opt_.factionColor, 0.0f, 1.0f);
        for (size_t i = 0; i < img.rgba.size(); i += 4) {
            const float a = img.rgba[i + 3] / 255.0f;
            for (int c = 0; c < 3; ++c) {
                const float v = img.rgba[i + size_t(c)] / 255.0f;
                const float out = v + (fc[c] * v - v) * a;
                img.rgba[i + size_t(c)] = uint8_t(std::lround(std::clamp(out, 0.0f, 1.0f) * 255.0f));
            }
            img.rgba[i + 3] = 255;
        }
    }
    std::vector<unsigned char> png;
    auto sink = [](void* ctx, void* data, int size) {
        auto* v = static_cast<std::vector<unsigned char>*>(ctx);
        v->insert(v->end(), static_cast<unsigned char*>(data), static_cast<unsigned char*>(data) + size);
    };
    if (!stbi_write_png_to_func(sink, &png, img.width, img.height, 4, img.rgba.data(), img.width * 4) || png.empty()) {
        stats_.warnings.push_back("texture " + name + ": PNG encoding failed");
        return -1;
    }
    tinygltf::Image gi;
    gi.name = u8(stemOf(name)) + (bake ? "_faction" : "");
    gi.mimeType = "image/png";
    Value::Object ex;
    ex["source"] = Value(u8(name));
    const size_t cut = path.find_last_of("/\\"); // a file, or "<archive>:<game path>" with either separator
    ex["resolved"] = str(pathToUtf8(cut == std::string::npos ? path : path.substr(cut + 1)));
    gi.extras = Value(ex);
    if (binary_) {
        gi.bufferView = addView(png.data(), png.size(), 0);
    } else {
        const std::string file =
            pathToUtf8(stemOf(out_)) + "_" + std::to_string(g_.images.size()) + "_" + gi.name + ".png";
        gi.uri = uriEncode(file);
        pngFiles_.emplace_back(file, std::move(png));
    }
    g_.images.push_back(gi);
    if (sampler_ < 0) {
        tinygltf::Sampler s;
        s.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
        s.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
        s.wrapS = s.wrapT = TINYGLTF_TEXTURE_WRAP_REPEAT;
        g_.samplers.push_back(s);
        sampler_ = int(g_.samplers.size() - 1);
    }
    tinygltf::Texture t;
    t.source = int(g_.images.size() - 1);
    t.sampler = sampler_;
    t.name = gi.name;
    g_.textures.push_back(t);
    stats_.images++;
    return textureCache_[key] = int(g_.textures.size() - 1);
}

int Exporter::material(const Mesh& mesh, const SubMesh& sm) {
    const Material& mat = sm.material;
    tinygltf::Material gm;
    gm.name = u8(mesh.name + (mat.shader.empty() ? std::string() : " " + mat.shader));
    const MaterialPolicy policy = materialPolicy(m_.format, mesh, mat);
    const Family fam = policy.family;
    auto vec4Param = [&](const char* n, glm::vec4 def) {
        const MaterialParam* p = mat.find(n);
        if (!p) return def;
        if (p->type == ParamType::Float3) return glm::vec4(glm::vec3(p->value), def.w);
        if (p->type == ParamType::Float4) return p->value;
        return def;
    };
    // Colorize: base alpha is the faction colour mask (viewer: surface = mix(base, colour * base, base.a)).
    const bool colorize = policy.colorize, colorParam = policy.factionColorParam;
    glm::vec4 base =
        fam == Family::Additive ? vec4Param("Color", glm::vec4(1.0f)) : vec4Param("Diffuse", glm::vec4(1.0f));
    if (colorParam && opt_.haveFactionColor) base = glm::vec4(opt_.factionColor, base.w);
    if (fam == Family::Opaque) base.w = 1.0f;
    base = glm::clamp(base, 0.0f, 1.0f);
    gm.pbrMetallicRoughness.baseColorFactor = {base.r, base.g, base.b, base.a};
    gm.pbrMetallicRoughness.metallicFactor = 0.0;
    gm.pbrMetallicRoughness.roughnessFactor = 0.8;
    const glm::vec3 em = glm::clamp(glm::vec3(vec4Param("Emissive", glm::vec4(0.0f))), 0.0f, 1.0f);
    gm.emissiveFactor = {em.r, em.g, em.b};
    Value::Object ex, params;
    for (const MaterialParam& p : mat.params)
        params[u8(p.name)] = paramValue(p);
    ex["shader"] = name(mat.shader);
    ex["params"] = Value(params);
    Value::Array missing;
    const bool bake = colorize && opt_.haveFactionColor;
    for (const MaterialParam& p : mat.params) {
        if (p.type != ParamType::Texture || p.texture.empty()) continue;
        const bool isBase = isBaseTextureParam(p.name), isNormal = isNormalTextureParam(p.name);
        const bool isEmissive = isEmissiveTextureParam(p.name);
        if (!isBase && !isNormal && !isEmissive) continue;
        const int t = texture(p.texture, isBase && bake);
        if (t < 0) {
            missing.push_back(name(p.texture));
            continue;
        }
        const int uvSet = 0;
        if (isBase && gm.pbrMetallicRoughness.baseColorTexture.index < 0) {
            gm.pbrMetallicRoughness.baseColorTexture.index = t;
            gm.pbrMetallicRoughness.baseColorTexture.texCoord = uvSet;
        } else if (isNormal && sm.normals.size() == sm.vertexCount() && sm.tangents.size() == sm.vertexCount() &&
                   sm.binormals.size() == sm.vertexCount()) {
            gm.normalTexture.index = t;
            // NormalMapped.fx's BumpScale scales the map's x and y before normalising: glTF's normalTexture.scale.
            const MaterialParam* bump = mat.find("BumpScale");
            if (m_.format == Format::W3d && bump && w3dShaderInfo(mat).impl == ShaderImpl::W3dNormalMapped)
                gm.normalTexture.scale = bump->type == ParamType::Int ? double(bump->intValue) : double(bump->value.x);
        } else if (isEmissive) {
            gm.emissiveTexture.index = t;
            if (em == glm::vec3(0.0f)) gm.emissiveFactor = {1.0, 1.0, 1.0};
        }
    }
    if (!missing.empty()) ex["missingTextures"] = Value(missing);
    if (colorize || colorParam) {
        if (bake || (colorParam && opt_.haveFactionColor))
            ex["factionColor"] = vec(opt_.factionColor);
        else if (colorize)
            ex["factionColorMask"] = str("baseColorTexture alpha: surface = mix(rgb, colour * rgb, alpha)");
        else
            ex["factionColorParam"] = str("Color");
    }
    if (fam != Family::Opaque) gm.alphaMode = "BLEND";
    // NormalMapped.fx with AlphaTestEnable: opaque, pixels under alpha 0x60 cut.
    const MaterialParam* alphaTest = mat.find("AlphaTestEnable");
    if (m_.format == Format::W3d && alphaTest && alphaTest->intValue != 0 &&
        w3dShaderInfo(mat).impl == ShaderImpl::W3dNormalMapped) {
        gm.alphaMode = "MASK";
        gm.alphaCutoff = 96.0 / 255.0;
    }
    gm.doubleSided = !policy.cullBackFaces;
    if (policy.unlit) {
        gm.extensions["KHR_materials_unlit"] = Value(Value::Object());
        if (std::find(g_.extensionsUsed.begin(), g_.extensionsUsed.end(), "KHR_materials_unlit") ==
            g_.extensionsUsed.end())
            g_.extensionsUsed.push_back("KHR_materials_unlit");
    }
    if (fam == Family::Additive) ex["blend"] = str("additive");
    gm.extras = Value(ex);
    g_.materials.push_back(gm);
    return int(g_.materials.size() - 1);
}

// Fills one primitive; returns 0 on success, -1 when the sub-mesh has nothing to draw.
int Exporter::buildPrimitive(const Mesh& mesh, const SubMesh& sm, tinygltf::Primitive& prim) {
    const size_t n = sm.vertexCount();
    if (n == 0 || sm.indices.size() < 3) return -1;
    const bool skinned = sm.skinned() && sm.boneIndices.size() == n && !m_.skeleton.bones.empty();
    const bool dual = skinned && sm.positions2.size() == n;
    const bool haveNormals = sm.normals.size() == n;
    const bool haveTangents = haveNormals && sm.tangents.size() == n && sm.binormals.size() == n;
    // BFME's NormalMapped.fx reads its normal map in the frame (-binormal, -tangent, normal): glTF's tangent is the
    // map's red axis (-binormal) and its bitangent the green axis (-tangent) (docs/formats/w3d-fx-shaders.md).
    const bool sageFrame = m_.format == Format::W3d && w3dShaderInfo(sm.material).impl == ShaderImpl::W3dNormalMapped;
    std::vector<float> pos(n * 3), nor(haveNormals ? n * 3 : 0), tan(haveTangents ? n * 4 : 0);
    std::vector<uint16_t> joints(skinned ? n * 4 : 0);
    std::vector<float> weights(skinned ? n * 4 : 0);
    const size_t nb = m_.skeleton.bones.size();
    for (size_t v = 0; v < n; ++v) {
        glm::vec3 p = sm.positions[v];
        glm::vec3 nn = haveNormals ? sm.normals[v] : glm::vec3(0.0f);
        glm::vec3 tt = haveTangents ? sm.tangents[v] : glm::vec3(0.0f),
                  bb = haveTangents ? sm.binormals[v] : glm::vec3(0.0f);
        if (sageFrame) {
            const glm::vec3 fileTangent = tt;
            tt = -bb;
            bb = -fileTangent;
        }
        if (skinned) {
            glm::vec4 w = sm.boneWeights.size() == n ? sm.boneWeights[v] : glm::vec4(1, 0, 0, 0);
            int bone[4];
            for (int k = 0; k < 4; ++k) {
                const unsigned idx = sm.boneIndices[v][k];
                bone[k] = idx < sm.boneMap.size() && sm.boneMap[idx] >= 0 && size_t(sm.boneMap[idx]) < nb
                              ? sm.boneMap[idx]
                              : -1;
                if (bone[k] < 0 || !(w[k] > 0.0f)) w[k] = 0.0f, bone[k] = -1;
            }
            float sum = w.x + w.y + w.z + w.w;
            if (!(sum > 0.0f)) { // no usable influence: hang the vertex on the mesh's bone (or the first bone)
                bone[0] = mesh.bone >= 0 && size_t(mesh.bone) < nb ? mesh.bone : 0;
                w = glm::vec4(1, 0, 0, 0);
                sum = 1.0f;
            }
            w /= sum;
            if (sm.space == VertexSpace::Bone) {
                // Bone-space vertices (W3D): to bind (model) space; a dual-bone vertex's second influence has
                // its own position/normal in that bone's space.
                glm::vec3 mp(0.0f), mn(0.0f), mt(0.0f), mb(0.0f);
                for (int k = 0; k < 4; ++k) {
                    if (bone[k] < 0) continue;
                    const bool second = dual && k == 1;
                    const glm::vec3 lp = second ? sm.positions2[v] : sm.positions[v];
                    const glm::mat4& b = bindWorld_[size_t(bone[k])];
                    mp += w[k] * glm::vec3(b * glm::vec4(lp, 1.0f));
                    if (haveNormals) {
                        const glm::vec3 ln = second && sm.normals2.size() == n ? sm.normals2[v] : sm.normals[v];
                        mn += w[k] * glm::vec3(b * glm::vec4(ln, 0.0f));
                    }
                    if (haveTangents) {
                        mt += w[k] * glm::vec3(b * glm::vec4(tt, 0.0f));
                        mb += w[k] * glm::vec3(b * glm::vec4(bb, 0.0f));
                    }
                }
                p = mp;
                nn = mn;
                if (haveTangents) tt = mt, bb = mb;
            }
            // Merge repeated joints (glTF forbids a joint twice with weight), unused slots joint 0 weight 0.
            int outK = 0;
            uint16_t jj[4] = {0, 0, 0, 0};
            float ww[4] = {0, 0, 0, 0};
            for (int k = 0; k < 4; ++k) {
                if (bone[k] < 0 || w[k] <= 0.0f) continue;
                int found = -1;
                for (int q = 0; q < outK; ++q)
                    if (jj[q] == uint16_t(bone[k])) found = q;
                if (found >= 0)
                    ww[found] += w[k];
                else
                    jj[outK] = uint16_t(bone[k]), ww[outK++] = w[k];
            }
            for (int k = 0; k < 4; ++k)
                joints[v * 4 + size_t(k)] = jj[k], weights[v * 4 + size_t(k)] = ww[k];
        }
        const glm::vec3 cp = cv(p);
        std::memcpy(&pos[v * 3], &cp[0], 12);
        if (haveNormals) {
            glm::vec3 cn = cv(nn);
            const float l = glm::length(cn);
            cn = l > 1e-12f && std::isfinite(l) ? cn / l : glm::vec3(0, 1, 0);
            std::memcpy(&nor[v * 3], &cn[0], 12);
            if (haveTangents) {
                // glTF TANGENT: unit xyz orthogonal to the normal, w = handedness of the binormal.
                glm::vec3 ct = cv(tt);
                ct -= cn * glm::dot(cn, ct);
                float tl = glm::length(ct);
                if (!(tl > 1e-6f) || !std::isfinite(tl)) {
                    ct = glm::cross(cn, std::abs(cn.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0));
                    tl = glm::length(ct);
                }
                ct /= tl;
                const float hand = glm::dot(glm::cross(cn, ct), cv(bb)) < 0.0f ? -1.0f : 1.0f;
                tan[v * 4] = ct.x, tan[v * 4 + 1] = ct.y, tan[v * 4 + 2] = ct.z, tan[v * 4 + 3] = hand;
            }
        }
    }
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    prim.attributes["POSITION"] = floatAccessor(pos, TINYGLTF_TYPE_VEC3, 3, true, TINYGLTF_TARGET_ARRAY_BUFFER);
    if (haveNormals)
        prim.attributes["NORMAL"] = floatAccessor(nor, TINYGLTF_TYPE_VEC3, 3, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    if (haveTangents)
        prim.attributes["TANGENT"] = floatAccessor(tan, TINYGLTF_TYPE_VEC4, 4, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    auto uv = [&](const std::vector<glm::vec2>& src, const char* attr) {
        if (src.size() != n) return;
        std::vector<float> t(n * 2);
        for (size_t v = 0; v < n; ++v)
            t[v * 2] = src[v].x, t[v * 2 + 1] = 1.0f - src[v].y; // glTF: v down
        prim.attributes[attr] = floatAccessor(t, TINYGLTF_TYPE_VEC2, 2, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    };
    uv(sm.uv0, "TEXCOORD_0");
    uv(sm.uv1, "TEXCOORD_1");
    const bool alamoFormat = istartsWith(sm.vertexFormat, "alD3dVert");
    if (sm.colors.size() == n &&
        (!alamoFormat || (!sm.vertexFormat.empty() && std::toupper(sm.vertexFormat.back()) == 'C'))) {
        std::vector<float> c(n * 4);
        for (size_t v = 0; v < n; ++v)
            for (int k = 0; k < 4; ++k)
                c[v * 4 + size_t(k)] = std::clamp(sm.colors[v][k], 0.0f, 1.0f);
        prim.attributes["COLOR_0"] = floatAccessor(c, TINYGLTF_TYPE_VEC4, 4, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    }
    if (skinned) {
        prim.attributes["JOINTS_0"] = addAccessor(joints.data(), n, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                                  TINYGLTF_TYPE_VEC4, 8, TINYGLTF_TARGET_ARRAY_BUFFER);
        prim.attributes["WEIGHTS_0"] =
            floatAccessor(weights, TINYGLTF_TYPE_VEC4, 4, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    }
    // Triangles with an index past the vertex count cannot be drawn (readers refuse them; kept as a guard).
    std::vector<uint32_t> idx;
    idx.reserve(sm.indices.size());
    for (size_t t = 0; t + 2 < sm.indices.size(); t += 3)
        if (sm.indices[t] < n && sm.indices[t + 1] < n && sm.indices[t + 2] < n)
            idx.insert(idx.end(), {sm.indices[t], sm.indices[t + 1], sm.indices[t + 2]});
    if (idx.size() != sm.indices.size() / 3 * 3)
        stats_.warnings.push_back(mesh.name + ": triangles with out-of-range indices dropped");
    if (idx.empty()) return -1;
    if (n <= 65535) {
        std::vector<uint16_t> s(idx.begin(), idx.end());
        prim.indices = addAccessor(s.data(), s.size(), TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR, 2,
                                   TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    } else {
        prim.indices = addAccessor(idx.data(), idx.size(), TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR,
                                   4, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    }
    prim.material = material(mesh, sm);
    stats_.primitives++;
    stats_.vertices += n;
    stats_.triangles += idx.size() / 3;
    return 0;
}

void Exporter::buildMesh(size_t mi) {
    MeshOut& mo = meshOut_[mi];
    if (mo.built) return;
    mo.built = true;
    const Mesh& mesh = m_.meshes[mi];
    tinygltf::Mesh rigid, skinned;
    for (const SubMesh& sm : mesh.subMeshes) {
        // Shadow volumes and collision meshes are not drawn by the games, by sub-mesh (the shared policy).
        if (materialPolicy(m_.format, mesh, sm.material).hiddenByDefault) continue;
        tinygltf::Primitive prim;
        if (buildPrimitive(mesh, sm, prim) < 0) continue;
        (prim.attributes.count("JOINTS_0") ? skinned : rigid).primitives.push_back(prim);
    }
    auto add = [&](tinygltf::Mesh& gm, const char* suffix) {
        if (gm.primitives.empty()) return -1;
        gm.name = u8(mesh.name) + suffix;
        g_.meshes.push_back(gm);
        stats_.meshes++;
        return int(g_.meshes.size() - 1);
    };
    const bool both = !rigid.primitives.empty() && !skinned.primitives.empty();
    mo.rigid = add(rigid, "");
    mo.skinned = add(skinned, both ? "_skin" : "");
}

void Exporter::buildScene(int lod, int alt, const std::string& sceneName) {
    SceneCopy sc;
    tinygltf::Scene scene;
    scene.name = sceneName;
    const int root = addNode(name_, -1);
    scene.nodes.push_back(root);
    const auto& bones = m_.skeleton.bones;
    sc.boneNode.resize(bones.size());
    for (size_t i = 0; i < bones.size(); ++i) {
        const int parent =
            bones[i].parent >= 0 && size_t(bones[i].parent) < i ? sc.boneNode[size_t(bones[i].parent)] : root;
        sc.boneNode[i] = addNode(u8(bones[i].name), parent);
        setTRS(g_.nodes[size_t(sc.boneNode[i])], decompose(toGltf(bones[i].bindLocal)));
        // The bone's own default visibility and billboard mode as `extras.alamo` (the importer's and Blender's
        // custom properties keep it), on every bone that is hidden itself, hidden by an ancestor, or billboarded.
        // A hidden bone's attachments are also written with scale 0 (attach below), which is what other viewers
        // see; the importer takes the flag for the bone itself and reconciles it with what the attachments show.
        // A joint's own scale stays as it is: zero would collapse the skin.
        if (!bones[i].visible || !restVisible_[i] || bones[i].billboard != 0) {
            Value::Object a;
            if (!bones[i].visible || !restVisible_[i]) a["visible"] = Value(bool(bones[i].visible));
            if (bones[i].billboard != 0) a["billboard"] = Value(bones[i].billboard);
            Value::Object ex;
            ex["alamo"] = Value(a);
            g_.nodes[size_t(sc.boneNode[i])].extras = Value(ex);
        }
    }
    auto parentOf = [&](int bone) {
        return bone >= 0 && size_t(bone) < bones.size() ? sc.boneNode[size_t(bone)] : root;
    };
    auto attach = [&](int bone, int node) {
        if (bone < 0 || size_t(bone) >= bones.size()) return;
        sc.attached.emplace_back(bone, node);
        if (!restVisible_[size_t(bone)]) g_.nodes[size_t(node)].scale = {0.0, 0.0, 0.0};
    };
    int skin = -1;
    const std::vector<bool> sel = selectVariant(m_, lod, alt);
    Value::Array skipped;
    std::vector<int> skinnedNodes;
    for (size_t mi = 0; mi < m_.meshes.size(); ++mi) {
        const Mesh& mesh = m_.meshes[mi];
        if (!sel[mi]) continue;
        bool allHidden = !mesh.subMeshes.empty(); // every sub-mesh hidden by the policy (e.g. light-visualize)
        for (const SubMesh& sm : mesh.subMeshes)
            allHidden = allHidden && materialPolicy(m_.format, mesh, sm.material).hiddenByDefault;
        if (mesh.hidden || mesh.shadowOrCollision || allHidden) {
            skipped.push_back(name(mesh.name));
            continue;
        }
        buildMesh(mi);
        const MeshOut& mo = meshOut_[mi];
        if (mo.rigid >= 0) {
            const int node = addNode(u8(mesh.name), parentOf(mesh.bone));
            g_.nodes[size_t(node)].mesh = mo.rigid;
            attach(mesh.bone, node);
        }
        if (mo.skinned >= 0) {
            if (skin < 0) {
                tinygltf::Skin s;
                s.name = name_;
                s.joints = sc.boneNode;
                s.skeleton = root;
                s.inverseBindMatrices = ibmAccessor_;
                g_.skins.push_back(s);
                skin = int(g_.skins.size() - 1);
            }
            const int node = addNode(u8(mesh.name) + (mo.rigid >= 0 ? "_skin" : ""), -1);
            g_.nodes[size_t(node)].mesh = mo.skinned;
            g_.nodes[size_t(node)].skin = skin;
            skinnedNodes.push_back(node);
        }
    }
    for (const Light& l : m_.lights) {
        tinygltf::Light gl;
        gl.name = u8(l.name);
        gl.color = {l.color.r, l.color.g, l.color.b};
        for (double& c : gl.color)
            c = std::clamp(c, 0.0, 1.0);
        gl.intensity = std::max(0.0f, l.intensity);
        if (l.type == int(LightType::Directional))
            gl.type = "directional";
        else if (l.type == int(LightType::Spot))
            gl.type = "spot";
        else
            gl.type = "point";
        if (gl.type != "directional" && l.farAttenuationEnd > 0.0f) gl.range = l.farAttenuationEnd;
        if (gl.type == "spot") {
            const double outer = std::clamp(double(l.falloffSize) * 0.5, 1e-3, M_PI / 2);
            gl.spot.outerConeAngle = outer;
            gl.spot.innerConeAngle = std::clamp(double(l.hotspotSize) * 0.5, 0.0, outer * 0.999);
        }
        Value::Object ex;
        ex["type"] = Value(l.type);
        ex["farAttenuationStart"] = num(l.farAttenuationStart);
        ex["farAttenuationEnd"] = num(l.farAttenuationEnd);
        gl.extras = Value(ex);
        g_.lights.push_back(gl);
        // The light shines along its bone's game -Z; a glTF light along its node's -Z: rotate by the axis change.
        const int node = addNode(u8(l.name), parentOf(l.bone));
        const glm::quat q = glm::quat_cast(glm::mat3(axes_));
        g_.nodes[size_t(node)].rotation = {q.x, q.y, q.z, q.w};
        Value::Object le;
        le["light"] = Value(int(g_.lights.size() - 1));
        g_.nodes[size_t(node)].extensions["KHR_lights_punctual"] = Value(le);
        attach(l.bone, node);
    }
    for (const Proxy& p : m_.proxies) {
        if (p.alt >= 0 && p.alt != alt) continue;
        const int node = addNode(u8(p.name), parentOf(p.bone));
        Value::Object ex;
        ex["kind"] = str("proxy");
        ex["hidden"] = Value(p.hidden);
        ex["altDecreaseStayHidden"] = Value(p.altDecreaseStayHidden);
        if (p.alt >= 0) ex["alt"] = Value(p.alt);
        g_.nodes[size_t(node)].extras = Value(ex);
        attach(p.bone, node);
    }
    for (const Dazzle& d : m_.dazzles) {
        const int node = addNode(u8(d.name), parentOf(d.bone));
        const glm::vec3 t = cv(d.position);
        if (t != glm::vec3(0.0f)) g_.nodes[size_t(node)].translation = {t.x, t.y, t.z};
        Value::Object ex;
        ex["kind"] = str("dazzle");
        ex["color"] = vec(d.color);
        ex["radius"] = num(d.radius);
        ex["texture"] = name(d.texture);
        ex["texX"] = Value(d.texX);
        ex["texY"] = Value(d.texY);
        ex["texSize"] = Value(d.texSize);
        ex["frequency"] = num(d.frequency);
        ex["phase"] = num(d.phase);
        ex["nightOnly"] = Value(d.nightOnly);
        ex["hidden"] = Value(d.hidden);
        if (d.hasBias) ex["bias"] = num(d.bias);
        ex["colorize"] = Value(d.colorize);
        g_.nodes[size_t(node)].extras = Value(ex);
        attach(d.bone, node);
    }
    for (const Marker& mk : m_.markers) {
        const int node = addNode(u8(mk.name), parentOf(mk.bone));
        setTRS(g_.nodes[size_t(node)], decompose(toGltf(mk.transform)));
        Value::Object ex;
        ex["kind"] = name(mk.kind.empty() ? std::string("marker") : mk.kind);
        if (mk.extent != glm::vec3(0.0f)) ex["extent"] = vec(glm::abs(cv(mk.extent)));
        g_.nodes[size_t(node)].extras = Value(ex);
        attach(mk.bone, node);
    }
    scene.nodes.insert(scene.nodes.end(), skinnedNodes.begin(), skinnedNodes.end());
    Value::Object ex;
    if (lod >= 0) ex["lod"] = Value(lod);
    ex["alt"] = Value(alt);
    if (!skipped.empty()) ex["meshesNotExported"] = Value(skipped); // hidden, shadow volume and collision meshes
    scene.extras = Value(ex);
    g_.scenes.push_back(scene);
    scenes_.push_back(std::move(sc));
}

void Exporter::buildAnimation(const Clip& clip) {
    const Skeleton& sk = m_.skeleton;
    const size_t nb = sk.bones.size();
    const std::string clipName = clip.name.empty() ? "clip" + std::to_string(g_.animations.size()) : u8(clip.name);
    if (nb == 0 || clip.frameCount == 0) {
        stats_.warnings.push_back("clip " + clipName + ": nothing to animate");
        return;
    }
    const ClipBinding binding = bindClip(sk, clip);
    if (!binding.ok()) {
        stats_.warnings.push_back("clip " + clipName + " skipped: " + binding.problems.front());
        return;
    }
    const uint32_t nf = clip.frameCount;
    const float fps = clip.fps > 0.0f && std::isfinite(clip.fps) ? clip.fps : 30.0f;
    // Pose at every stored frame: the local transforms the viewer shows, and effective visibility.
    std::vector<glm::mat4> local(size_t(nf) * nb);
    std::vector<uint8_t> vis(size_t(nf) * nb);
    PoseBuffers buf(nb);
    for (uint32_t f = 0; f < nf; ++f) {
        evaluatePose(sk, &clip, &binding, float(f), LoopMode::Once, buf.view());
        std::copy(buf.local.begin(), buf.local.end(), local.begin() + std::ptrdiff_t(size_t(f) * nb));
        std::copy(buf.visible.begin(), buf.visible.end(), vis.begin() + std::ptrdiff_t(size_t(f) * nb));
    }
    std::vector<float> times(nf);
    for (uint32_t f = 0; f < nf; ++f)
        times[f] = float(f) / fps;
    tinygltf::Animation anim;
    anim.name = clipName;
    int allTimes = -1;
    auto timeAccessor = [&](const std::vector<float>& t) { return floatAccessor(t, TINYGLTF_TYPE_SCALAR, 1, true); };
    auto zeroTime = [&]() {
        if (zeroTime_ < 0) zeroTime_ = timeAccessor({0.0f});
        return zeroTime_;
    };
    auto addSampler = [&](int input, const std::vector<float>& values, int type, int comps, const char* interp) {
        tinygltf::AnimationSampler s;
        s.input = input;
        s.output = floatAccessor(values, type, comps, false);
        s.interpolation = interp;
        anim.samplers.push_back(s);
        return int(anim.samplers.size() - 1);
    };
    auto addChannels = [&](int sampler, int bone, const char* path, bool perAttachment) {
        for (const SceneCopy& sc : scenes_) {
            if (!perAttachment) {
                tinygltf::AnimationChannel c;
                c.sampler = sampler;
                c.target_node = sc.boneNode[size_t(bone)];
                c.target_path = path;
                anim.channels.push_back(c);
                continue;
            }
            for (const auto& [b, node] : sc.attached) {
                if (b != bone) continue;
                tinygltf::AnimationChannel c;
                c.sampler = sampler;
                c.target_node = node;
                c.target_path = path;
                anim.channels.push_back(c);
            }
        }
    };
    for (size_t b = 0; b < nb; ++b) {
        const int ti = binding.trackForBone[b];
        if (ti < 0) continue;
        const BoneTrack& track = clip.tracks[size_t(ti)];
        // Keys: every stored frame; a step bit on frame f (f < last) holds f's value until just before f+1.
        std::vector<float> kt;
        std::vector<uint32_t> kf; // frame whose value each key carries
        bool anyStep = false, allStep = nf > 1;
        for (uint32_t f = 0; f < nf; ++f) {
            const bool stepF =
                !track.step.empty() && track.step[std::min<size_t>(f, track.step.size() - 1)] && f + 1 < nf;
            if (f + 1 < nf) anyStep |= stepF, allStep &= stepF;
            kt.push_back(times[f]);
            kf.push_back(f);
            if (stepF) {
                const float hold = times[f + 1] - (times[f + 1] - times[f]) * 1e-3f;
                if (hold > times[f] && hold < times[f + 1]) kt.push_back(hold), kf.push_back(f);
            }
        }
        const char* interp = "LINEAR";
        if (allStep) { // every segment steps: plain keys with STEP
            kt = times;
            kf.resize(nf);
            for (uint32_t f = 0; f < nf; ++f)
                kf[f] = f;
            interp = "STEP";
        }
        const bool custom = anyStep && !allStep;
        std::vector<float> T, R, S;
        glm::quat prev(1.0f, 0.0f, 0.0f, 0.0f);
        for (size_t k = 0; k < kf.size(); ++k) {
            TRS trs = decompose(toGltf(local[size_t(kf[k]) * nb + b]));
            if (k > 0 && glm::dot(prev, trs.r) < 0.0f) trs.r = -trs.r; // keep the shortest path between keys
            prev = trs.r;
            T.insert(T.end(), {trs.t.x, trs.t.y, trs.t.z});
            R.insert(R.end(), {trs.r.x, trs.r.y, trs.r.z, trs.r.w});
            S.insert(S.end(), {trs.s.x, trs.s.y, trs.s.z});
        }
        int input = -1;
        auto inputFor = [&]() {
            if (input >= 0) return input;
            if (custom) return input = timeAccessor(kt);
            if (allTimes < 0) allTimes = timeAccessor(times);
            return input = allTimes;
        };
        auto channel = [&](const std::vector<float>& v, int comps, int type, const char* path) {
            bool constant = true;
            for (size_t i = size_t(comps); i < v.size() && constant; ++i)
                constant = std::abs(v[i] - v[i % size_t(comps)]) <= 1e-7f;
            int s;
            if (constant)
                s = addSampler(zeroTime(), std::vector<float>(v.begin(), v.begin() + comps), type, comps, "LINEAR");
            else
                s = addSampler(inputFor(), v, type, comps, interp);
            addChannels(s, int(b), path, false);
        };
        channel(T, 3, TINYGLTF_TYPE_VEC3, "translation");
        channel(R, 4, TINYGLTF_TYPE_VEC4, "rotation");
        channel(S, 3, TINYGLTF_TYPE_VEC3, "scale");
    }
    // Visibility: what hangs from a bone (rigid meshes, lights, proxies, dazzles) scales to 0 while the bone or an
    // ancestor is hidden (STEP keys where it changes).
    for (size_t b = 0; b < nb; ++b) {
        bool differs = false;
        for (uint32_t f = 0; f < nf && !differs; ++f)
            differs = vis[size_t(f) * nb + b] != restVisible_[b];
        if (!differs) continue;
        bool attached = false;
        for (const SceneCopy& sc : scenes_)
            for (const auto& a : sc.attached)
                attached |= a.first == int(b);
        if (!attached) continue;
        std::vector<float> kt, v;
        for (uint32_t f = 0; f < nf; ++f) {
            const uint8_t on = vis[size_t(f) * nb + b];
            if (f > 0 && on == vis[size_t(f - 1) * nb + b]) continue;
            kt.push_back(times[f]);
            const float s = on ? 1.0f : 0.0f;
            v.insert(v.end(), {s, s, s});
        }
        const int s = addSampler(timeAccessor(kt), v, TINYGLTF_TYPE_VEC3, 3, "STEP");
        addChannels(s, int(b), "scale", true);
    }
    // Own visibility tracks (the bone's own bit, not its ancestors'), where they differ from the default flag:
    // extras.visibility, STEP keys per bone, so that the importer restores which bone hides (the scale channels
    // above show the effective visibility of what is attached only).
    Value::Array ownVis;
    for (size_t b = 0; b < nb; ++b) {
        const int ti = binding.trackForBone[b];
        if (ti < 0 || clip.tracks[size_t(ti)].visibility.empty()) continue;
        const std::vector<uint8_t>& bits = clip.tracks[size_t(ti)].visibility;
        auto own = [&](uint32_t f) { return bits[std::min<size_t>(f, bits.size() - 1)] != 0; };
        bool differs = false;
        for (uint32_t f = 0; f < nf && !differs; ++f)
            differs = own(f) != sk.bones[b].visible;
        if (!differs) continue;
        Value::Array kt, kv;
        for (uint32_t f = 0; f < nf; ++f) {
            if (f > 0 && own(f) == own(f - 1)) continue;
            kt.push_back(num(times[f]));
            kv.push_back(Value(own(f)));
        }
        Value::Object o;
        o["bone"] = name(sk.bones[b].name);
        o["time"] = Value(kt);
        o["visible"] = Value(kv);
        ownVis.push_back(Value(o));
    }
    if (anim.channels.empty()) {
        stats_.warnings.push_back("clip " + clipName + ": animates no exported node");
        return;
    }
    Value::Object ex;
    if (!ownVis.empty()) ex["visibility"] = Value(ownVis);
    ex["fps"] = num(fps);
    ex["frameCount"] = Value(int(nf));
    ex["format"] = name(formatName(clip.format));
    if (!clip.codec.empty()) ex["codec"] = name(clip.codec);
    Value::Array events;
    for (const ClipEvent& e : clip.events) {
        Value::Object eo;
        eo["name"] = name(e.name);
        if (!e.boneName.empty()) eo["bone"] = name(e.boneName);
        if (e.frameKnown) eo["frame"] = num(e.frame);
        events.push_back(Value(eo));
    }
    if (!events.empty()) ex["events"] = Value(events);
    anim.extras = Value(ex);
    g_.animations.push_back(anim);
    stats_.animations++;
}

void Exporter::write() {
    const fs::path out(out_);
    const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw ParseError(out_, {}, ParseError::kNoOffset, "folder does not exist");
    if (!binary_) {
        g_.buffers[0].uri = stemOf(out_) + ".bin";
        for (const auto& [file, bytes] : pngFiles_) {
            std::ofstream f(dir / file, std::ios::binary);
            f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
            if (!f) throw ParseError((dir / file).string(), {}, ParseError::kNoOffset, "cannot write");
        }
    }
    if (g_.buffers[0].data.empty()) g_.buffers.clear();
    tinygltf::TinyGLTF tg;
    // Images are either in the buffer (bufferView) or already written beside the file: keep their uri as is.
    tg.SetImageWriter(
        [](const std::string*, const std::string*, const tinygltf::Image* image, bool, std::string* outUri, void*) {
            *outUri = image->uri;
            return true;
        },
        nullptr);
    if (!tg.WriteGltfSceneToFile(&g_, out_, false, binary_, opt_.prettyJson || !binary_, binary_))
        throw ParseError(out_, {}, ParseError::kNoOffset, "cannot write");
}

ExportStats Exporter::run(const std::vector<const Clip*>& clips) {
    const size_t nb = m_.skeleton.bones.size();
    for (size_t i = 0; i < nb; ++i)
        if (m_.skeleton.bones[i].parent >= int(i))
            throw ParseError(m_.sourcePath, {}, ParseError::kNoOffset,
                             "bone " + m_.skeleton.bones[i].name + " comes before its parent");
    if (nb) {
        // Inverse bind matrices in glTF space, from the node TRS actually written (so bind pose is exact).
        std::vector<glm::mat4> world(nb);
        for (size_t i = 0; i < nb; ++i) {
            const TRS t = decompose(toGltf(m_.skeleton.bones[i].bindLocal));
            const glm::mat4 l =
                glm::translate(glm::mat4(1.0f), t.t) * glm::mat4_cast(t.r) * glm::scale(glm::mat4(1.0f), t.s);
            const int p = m_.skeleton.bones[i].parent;
            world[i] = p >= 0 ? world[size_t(p)] * l : l;
        }
        std::vector<float> ibm(nb * 16);
        for (size_t i = 0; i < nb; ++i) {
            glm::mat4 inv = glm::inverse(world[i]);
            inv[0][3] = inv[1][3] = inv[2][3] = 0.0f, inv[3][3] = 1.0f;
            std::memcpy(&ibm[i * 16], glm::value_ptr(inv), 64);
        }
        ibmAccessor_ = floatAccessor(ibm, TINYGLTF_TYPE_MAT4, 16, false);
    }
    const std::vector<int> lods = m_.lodLevels(), alts = m_.altLevels();
    buildScene(opt_.lod, opt_.alt, name_);
    if (opt_.allVariants) {
        const std::vector<int> ls = lods.empty() ? std::vector<int>{-1} : lods;
        const std::vector<int> as = alts.empty() ? std::vector<int>{0} : alts;
        for (int l : ls)
            for (int a : as)
                buildScene(l, a,
                           name_ + (l >= 0 ? "_LOD" + std::to_string(l) : std::string()) + "_ALT" + std::to_string(a));
    }
    g_.defaultScene = 0;
    for (const Clip* c : clips)
        if (c) buildAnimation(*c);
    Value::Object ex;
    ex["sourceFormat"] = str(formatName(m_.format));
    ex["source"] = str(pathToUtf8(fs::path(m_.sourcePath).filename().string()));
    ex["axes"] =
        str(upAxisOf(m_.format) == UpAxis::Z ? "game Z-up -> glTF Y-up: (x, y, z) -> (x, z, -y); 1 game unit = 1 m"
                                             : "game Y-up = glTF Y-up: (x, y, z) kept; 1 game unit = 1 m");
    g_.asset.extras = Value(ex);
    write();
    stats_.scenes = g_.scenes.size();
    stats_.nodes = g_.nodes.size();
    return stats_;
}

} // namespace

ExportStats exportModel(const Model& model, const std::vector<const Clip*>& clips, const ExportOptions& options,
                        TextureLookup* textures, const std::string& outPath) {
    if (model.format == Format::Amal)
        throw ParseError(outPath, {}, ParseError::kNoOffset, "AMAL banks are 2D movement programs, not models");
    if (model.format == Format::AlamoParticles)
        throw ParseError(outPath, {}, ParseError::kNoOffset, "particle systems are not models and cannot be exported");
    Exporter e(model, options, textures, outPath);
    return e.run(clips);
}

} // namespace rs::gltf
