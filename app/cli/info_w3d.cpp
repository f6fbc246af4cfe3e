// rigscope-cli info --json for Westwood W3D files and SAGE W3X files (the same structures, "format":"w3x"):
// {"format":"w3d","hierarchy","bones":[{"name","parent"}],"meshes":[...],"hlods":[...],"markers":[...],
//  "proxies":[...],"clips":[{"name","hierarchy","frames","fps","codec","tracks"}],"warnings":[...]}
#include "commands.h"

#include "formats/formats.h"
#include "w3d/w3d_reader.h"
#include "w3x/w3x_reader.h"

namespace rs::cli {

static void subObjects(Json& j, const std::vector<w3d::SubObject>& v) {
    j.beginArray();
    for (const auto& o : v)
        j.beginObject().kv("name", o.name).kv("bone", int64_t(o.bone)).endObject();
    j.endArray();
}

void infoW3d(const Document& doc, ByteSpan bytes, Json& j) {
    const bool w3x = doc.format == Format::W3x;
    j.beginObject().kv("format", formatName(w3x ? Format::W3x : Format::W3d));
    std::vector<std::string> warnings = doc.warnings;
    if (doc.model) {
        const Model& m = *doc.model;
        j.kv("hierarchy", m.skeleton.name);
        j.key("bones").beginArray();
        for (const Bone& b : m.skeleton.bones)
            j.beginObject().kv("name", b.name).kv("parent", b.parent).endObject();
        j.endArray();
        j.key("meshes").beginArray();
        for (const Mesh& mesh : m.meshes) {
            j.beginObject().kv("name", mesh.name).kv("lod", mesh.lod).kv("bone", mesh.bone).kv("hidden", mesh.hidden);
            j.kv("collision", mesh.collisionEnabled);
            bool skin = false;
            for (const SubMesh& sm : mesh.subMeshes)
                skin = skin || sm.skinned();
            j.kv("skin", skin).key("submeshes").beginArray();
            for (const SubMesh& sm : mesh.subMeshes) {
                j.beginObject().kv("shader", sm.material.shader).kv("vertex_format", sm.vertexFormat);
                j.kv("vertices", uint64_t(sm.vertexCount())).kv("triangles", uint64_t(sm.triangleCount()));
                drawnBy(j, m.format, mesh, sm.material);
                j.kv("dual_bone", !sm.positions2.empty());
                j.key("bone_map").beginArray();
                for (int b : sm.boneMap)
                    j.value(b);
                j.endArray().key("params").beginObject();
                for (const MaterialParam& p : sm.material.params) {
                    j.key(p.name);
                    writeParamValue(j, p);
                }
                j.endObject().endObject();
            }
            j.endArray().endObject();
        }
        j.endArray();
        j.key("markers").beginArray();
        for (const Marker& mk : m.markers) {
            j.beginObject().kv("name", mk.name).kv("kind", mk.kind).kv("bone", mk.bone).key("extent");
            j.floats(&mk.extent.x, 3);
            j.endObject();
        }
        j.endArray();
        j.key("proxies").beginArray();
        for (const Proxy& p : m.proxies)
            j.beginObject().kv("name", p.name).kv("bone", p.bone).endObject();
        j.endArray();
        warnings.insert(warnings.end(), m.warnings.begin(), m.warnings.end());
    }
    // HLOD structure as stored (LOD arrays with their screen sizes; W3X: the file's W3DContainers).
    const std::vector<w3d::Hlod> hlods =
        w3x ? w3x::readFile(bytes, doc.path).containers : w3d::readFile(bytes, doc.path).hlods;
    j.key("hlods").beginArray();
    for (const w3d::Hlod& h : hlods) {
        j.beginObject().kv("name", h.name).kv("hierarchy", h.hierarchy).kv("truncated", h.truncated);
        j.key("lods").beginArray();
        for (const w3d::LodArray& a : h.lods) {
            j.beginObject().kv("max_screen_size", a.maxScreenSize).key("objects");
            subObjects(j, a.objects);
            j.endObject();
        }
        j.endArray().key("aggregates");
        subObjects(j, h.aggregates);
        j.key("proxies");
        subObjects(j, h.proxies);
        j.endObject();
    }
    j.endArray();
    j.key("clips").beginArray();
    for (const auto& c : doc.clips) {
        j.beginObject().kv("name", c->name).kv("hierarchy", c->hierarchyName).kv("frames", uint64_t(c->frameCount));
        j.kv("fps", c->fps).kv("codec", c->codec).kv("version", c->version);
        j.key("tracks").beginArray();
        for (const BoneTrack& t : c->tracks)
            j.beginObject()
                .kv("pivot", t.bone)
                .kv("translation", t.hasTranslation())
                .kv("rotation", t.hasRotation())
                .kv("visibility", !t.visibility.empty())
                .kv("step", !t.step.empty())
                .endObject();
        j.endArray().endObject();
        warnings.insert(warnings.end(), c->warnings.begin(), c->warnings.end());
    }
    j.endArray();
    j.key("warnings").beginArray();
    for (const std::string& w : warnings)
        j.value(w);
    j.endArray().endObject();
}

} // namespace rs::cli
