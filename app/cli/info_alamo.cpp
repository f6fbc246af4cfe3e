// `rigscope-cli info` for Alamo models (.alo) and clips (.ala).
//
// Model JSON: {"format":"alo","bones":[{name,parent,visible,billboard}],
//   "meshes":[{name,base_name,lod,alt,hidden,collision,colorize,shadow_or_collision,bone,bounds_min,bounds_max,
//              submeshes:[{shader,vertex_format,vertices,triangles,bone_map,skinned,collision_tree,params:{name:value}}]}],
//   "lights":[{name,type,color,intensity,far_attenuation_end,far_attenuation_start,hotspot_size,falloff_size,bone}],
//   "proxies":[{name,bone,hidden,alt_decrease_stay_hidden,alt}],
//   "dazzles":[{name,color,position,radius,tex_x,tex_y,tex_size,texture,frequency,phase,night_only,bone,hidden,
//               has_bias,bias,colorize}],
//   "connections":[{object,bone}], "warnings":[...]}
// lod/alt are -1 when the name has no _LOD<n>/_ALT<n>; bias is null when the file stores none.
// Param values: int and float -> number, float3/float4 -> array, texture -> string.
// Clip JSON: {"format":"ala","name","version","frames","fps","tracks":[{bone_index,bone_name,translation,rotation,
//   scale,visibility,step}],"warnings":[...]}
#include "commands.h"
#include "formats/shader_registry.h"

#include <sstream>

namespace rs::cli {

static void vec(Json& j, const char* key, const float* p, size_t n) {
    j.key(key);
    j.floats(p, n);
}

static void warnings(Json& j, const std::vector<std::string>& w) {
    j.key("warnings").beginArray();
    for (const auto& s : w)
        j.value(s);
    j.endArray();
}

static void modelJson(const Model& m, Json& j) {
    j.beginObject().kv("format", formatName(m.format));
    j.key("bones").beginArray();
    for (const Bone& b : m.skeleton.bones)
        j.beginObject()
            .kv("name", b.name)
            .kv("parent", b.parent)
            .kv("visible", b.visible)
            .kv("billboard", b.billboard)
            .endObject();
    j.endArray();

    j.key("meshes").beginArray();
    for (const Mesh& mesh : m.meshes) {
        j.beginObject()
            .kv("name", mesh.name)
            .kv("base_name", mesh.baseName)
            .kv("lod", mesh.lod)
            .kv("alt", mesh.alt)
            .kv("hidden", mesh.hidden)
            .kv("collision", mesh.collisionEnabled)
            .kv("colorize", mesh.colorize)
            .kv("shadow_or_collision", mesh.shadowOrCollision)
            .kv("bone", mesh.bone);
        vec(j, "bounds_min", &mesh.boundsMin.x, 3);
        vec(j, "bounds_max", &mesh.boundsMax.x, 3);
        j.key("submeshes").beginArray();
        for (const SubMesh& sm : mesh.subMeshes) {
            j.beginObject()
                .kv("shader", sm.material.shader)
                .kv("vertex_format", sm.vertexFormat)
                .kv("vertices", static_cast<uint64_t>(sm.vertexCount()))
                .kv("triangles", static_cast<uint64_t>(sm.triangleCount()));
            drawnBy(j, m.format, mesh, sm.material);
            j.key("bone_map").beginArray();
            for (int b : sm.boneMap)
                j.value(b);
            j.endArray();
            j.kv("skinned", sm.skinned()).kv("collision_tree", sm.hasCollisionTree);
            j.key("params").beginObject();
            for (const MaterialParam& p : sm.material.params) {
                j.key(p.name);
                writeParamValue(j, p);
            }
            j.endObject();
            j.endObject();
        }
        j.endArray();
        j.endObject();
    }
    j.endArray();

    j.key("lights").beginArray();
    for (const Light& l : m.lights) {
        j.beginObject().kv("name", l.name).kv("type", l.type);
        vec(j, "color", &l.color.x, 3);
        j.kv("intensity", l.intensity)
            .kv("far_attenuation_end", l.farAttenuationEnd)
            .kv("far_attenuation_start", l.farAttenuationStart)
            .kv("hotspot_size", l.hotspotSize)
            .kv("falloff_size", l.falloffSize)
            .kv("bone", l.bone)
            .endObject();
    }
    j.endArray();

    j.key("proxies").beginArray();
    for (const Proxy& p : m.proxies)
        j.beginObject()
            .kv("name", p.name)
            .kv("bone", p.bone)
            .kv("hidden", p.hidden)
            .kv("alt_decrease_stay_hidden", p.altDecreaseStayHidden)
            .kv("alt", p.alt)
            .endObject();
    j.endArray();

    j.key("dazzles").beginArray();
    for (const Dazzle& d : m.dazzles) {
        j.beginObject().kv("name", d.name);
        vec(j, "color", &d.color.x, 3);
        vec(j, "position", &d.position.x, 3);
        j.kv("radius", d.radius)
            .kv("tex_x", d.texX)
            .kv("tex_y", d.texY)
            .kv("tex_size", d.texSize)
            .kv("texture", d.texture)
            .kv("frequency", d.frequency)
            .kv("phase", d.phase)
            .kv("night_only", d.nightOnly)
            .kv("bone", d.bone)
            .kv("hidden", d.hidden)
            .kv("has_bias", d.hasBias)
            .key("bias");
        if (d.hasBias)
            j.value(d.bias);
        else
            j.null();
        j.kv("colorize", d.colorize).endObject();
    }
    j.endArray();

    j.key("connections").beginArray();
    for (const Connection& c : m.connections)
        j.beginObject().kv("object", c.object).kv("bone", c.bone).endObject();
    j.endArray();
    warnings(j, m.warnings);
    j.endObject();
}

static void clipJson(const Clip& c, Json& j) {
    j.beginObject()
        .kv("format", formatName(c.format))
        .kv("name", c.name)
        .kv("version", c.version)
        .kv("frames", static_cast<uint64_t>(c.frameCount))
        .kv("fps", c.fps);
    j.key("tracks").beginArray();
    for (const BoneTrack& t : c.tracks)
        j.beginObject()
            .kv("bone_index", t.bone)
            .kv("bone_name", t.boneName)
            .kv("translation", t.hasTranslation())
            .kv("rotation", t.hasRotation())
            .kv("scale", t.hasScale())
            .kv("visibility", !t.visibility.empty())
            .kv("step", !t.step.empty())
            .endObject();
    j.endArray();
    warnings(j, c.warnings);
    j.endObject();
}

void infoAlamo(const Document& doc, Json& j) {
    if (doc.model)
        modelJson(*doc.model, j);
    else if (!doc.clips.empty())
        clipJson(*doc.clips.front(), j);
    else
        throw ParseError(doc.path, {}, ParseError::kNoOffset, "file holds neither a model nor a clip");
}

void infoAlamoText(const Document& doc, std::string& text) {
    infoGenericText(doc, text);
    std::ostringstream s;
    if (doc.model) {
        const Model& m = *doc.model;
        s << "  skeleton:\n";
        for (size_t i = 0; i < m.skeleton.bones.size(); ++i) {
            const Bone& b = m.skeleton.bones[i];
            s << "    [" << i << "] " << b.name << " parent " << b.parent << (b.visible ? "" : " hidden");
            if (b.billboard) s << " billboard " << b.billboard;
            s << "\n";
        }
        s << "  meshes:\n";
        for (const Mesh& mesh : m.meshes) {
            s << "    " << mesh.name << " (bone " << mesh.bone;
            if (mesh.lod >= 0) s << ", LOD " << mesh.lod;
            if (mesh.alt >= 0) s << ", ALT " << mesh.alt;
            if (mesh.hidden) s << ", hidden";
            if (mesh.colorize) s << ", colorized";
            if (mesh.shadowOrCollision) s << ", not drawn in game";
            s << ")\n";
            for (const SubMesh& sm : mesh.subMeshes) {
                s << "      " << sm.material.shader << " " << sm.vertexFormat << ": " << sm.vertexCount()
                  << " vertices, " << sm.triangleCount() << " triangles";
                if (sm.skinned()) s << ", skinned to " << sm.boneMap.size() << " bones";
                s << "\n        drawn by " << shaderInfo(m.format, mesh, sm.material).implementation << " ("
                  << fidelityText(shaderInfo(m.format, mesh, sm.material)) << ")\n";
                for (const MaterialParam& p : sm.material.params) {
                    s << "        " << p.name << " = ";
                    switch (p.type) {
                    case ParamType::Int:
                        s << p.intValue;
                        break;
                    case ParamType::Float:
                        s << p.value.x;
                        break;
                    case ParamType::Float3:
                        s << p.value.x << " " << p.value.y << " " << p.value.z;
                        break;
                    case ParamType::Float4:
                        s << p.value.x << " " << p.value.y << " " << p.value.z << " " << p.value.w;
                        break;
                    case ParamType::Texture:
                        s << p.texture;
                        break;
                    }
                    s << "\n";
                }
            }
        }
        for (const Light& l : m.lights)
            s << "  light " << l.name << " type " << l.type << " bone " << l.bone << "\n";
        for (const Proxy& p : m.proxies)
            s << "  proxy " << p.name << " bone " << p.bone << (p.hidden ? " hidden" : "") << "\n";
        for (const Dazzle& d : m.dazzles)
            s << "  dazzle " << d.name << " bone " << d.bone << (d.nightOnly ? " night-only" : "") << "\n";
    }
    for (const auto& c : doc.clips) {
        s << "  tracks (bone: T R S visibility step):\n";
        for (const BoneTrack& t : c->tracks)
            s << "    [" << t.bone << "] " << t.boneName << ": " << (t.hasTranslation() ? "T" : "-")
              << (t.hasRotation() ? "R" : "-") << (t.hasScale() ? "S" : "-") << (t.visibility.empty() ? "-" : "V")
              << (t.step.empty() ? "-" : "s") << "\n";
    }
    text += s.str();
}

} // namespace rs::cli
