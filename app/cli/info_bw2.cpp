// `info --json` for Black & White 2 files. The raw structure (bw2::BwmFile / bw2::AlFile) gives what the
// format-neutral model does not keep (strides, skin layout, trailer, stored durations, decode status).
#include "bw2/al.h"
#include "bw2/bwm.h"
#include "commands.h"

namespace rs::cli {

namespace {

void vec3(Json& j, const glm::vec3& v) { j.floats(&v.x, 3); }

void matrix(Json& j, const glm::mat4& m) { j.floats(&m[0][0], 16); }

void warnings(Json& j, const std::vector<std::string>& w) {
    j.key("warnings").beginArray();
    for (const auto& s : w)
        j.value(s);
    j.endArray();
}

const char* strideTypeName(uint32_t t) {
    switch (t) {
    case 0:
        return "position";
    case 1:
        return "normal";
    case 2:
        return "uv";
    case 6:
        return "bone_index";
    case 7:
        return "bone_weight";
    default:
        return "unknown";
    }
}

} // namespace

void infoBwm(const Document& doc, ByteSpan bytes, Json& j) {
    const bw2::BwmFile f = bw2::parseBwm(bytes, doc.path);
    const Model& m = *doc.model;
    j.beginObject();
    j.kv("format", "bwm").kv("version", f.version).kv("type", f.type).kv("type_name", f.skin() ? "skin" : "model");
    j.kv("vertices", f.vertexCount).kv("indices", f.indexCount);
    j.key("bounds").beginObject().key("min");
    vec3(j, f.boxMin);
    j.key("max");
    vec3(j, f.boxMax);
    j.endObject();
    j.key("center");
    vec3(j, f.center);
    j.kv("height", f.height).kv("radius", f.radius).kv("volume", f.volume);

    j.key("materials").beginArray();
    for (size_t i = 0; i < f.materials.size(); ++i) {
        j.beginObject();
        for (int s = 0; s < 7; ++s)
            j.kv(bw2::BwmMaterial::slotName(s), f.materials[i].slot(s));
        j.endObject();
    }
    j.endArray();

    j.key("meshes").beginArray();
    for (size_t i = 0; i < f.meshes.size(); ++i) {
        const bw2::BwmMesh& bm = f.meshes[i];
        const Mesh* mm = i < m.meshes.size() ? &m.meshes[i] : nullptr;
        size_t verts = 0, tris = 0;
        if (mm)
            for (const auto& sm : mm->subMeshes) {
                verts += sm.vertexCount();
                tris += sm.triangleCount();
            }
        j.beginObject().kv("name", bm.name).kv("lod", bm.lod).kv("vertices", uint64_t(verts));
        j.kv("triangles", uint64_t(tris)).kv("faces_stored", bm.faceCount);
        j.key("matrix");
        matrix(j, bm.frame.matrix());
        j.key("bounds").beginObject().key("min");
        vec3(j, bm.boxMin);
        j.key("max");
        vec3(j, bm.boxMax);
        j.endObject();
        j.key("submeshes").beginArray();
        for (size_t r = 0; r < bm.refs.size(); ++r) {
            const auto& ref = bm.refs[r];
            j.beginObject().kv("material", ref.material).kv("vertices", ref.vertexCount);
            const SubMesh* sm = mm && r < mm->subMeshes.size() ? &mm->subMeshes[r] : nullptr;
            j.kv("triangles", uint64_t(sm ? sm->triangleCount() : 0));
            if (sm && sm->skinned()) {
                j.key("bone_map").beginArray();
                for (int b : sm->boneMap)
                    j.value(b);
                j.endArray();
            }
            j.endObject();
        }
        j.endArray().endObject();
    }
    j.endArray();

    j.key("bones").beginArray();
    for (size_t i = 0; i < f.bones.size(); ++i) {
        j.beginObject().kv("index", uint64_t(i)).key("matrix");
        matrix(j, f.bones[i].matrix());
        j.endObject();
    }
    j.endArray();
    j.key("entities").beginArray();
    for (const auto& e : f.entities) {
        j.beginObject().kv("name", e.name).key("matrix");
        matrix(j, e.frame.matrix());
        j.endObject();
    }
    j.endArray();
    j.key("unknown_points").beginArray();
    for (const auto& p : f.unknownPoints)
        vec3(j, p);
    j.endArray();
    j.key("collision_points").beginArray();
    for (const auto& p : f.collisionPoints)
        vec3(j, p);
    j.endArray();

    j.key("strides").beginArray();
    for (const auto& s : f.strides) {
        j.beginObject().kv("size", uint64_t(s.size())).key("elements").beginArray();
        for (const auto& e : s.elements)
            j.beginObject()
                .kv("type", e.type)
                .kv("type_name", strideTypeName(e.type))
                .kv("format", e.format)
                .kv("bytes", uint64_t(bw2::strideFormatSize(e.format)))
                .endObject();
        j.endArray().endObject();
    }
    j.endArray();
    j.key("skin").beginObject().kv("layout", bw2::skinLayoutName(f.skinLayout)).kv("influences", f.influences);
    j.endObject();
    j.key("trailer").beginObject().kv("present", f.hasTrailer).kv("count", uint64_t(f.trailer.size())).endObject();
    warnings(j, f.warnings);
    j.endObject();
}

void infoAl(const Document& doc, ByteSpan bytes, Json& j) {
    const bw2::AlFile f = bw2::parseAl(bytes, doc.path);
    j.beginObject().kv("format", "al").kv("name", f.name);
    j.key("bones").beginArray();
    for (const auto& b : f.bones)
        j.beginObject().kv("name", b.name).kv("parent", b.parent).endObject();
    j.endArray();
    j.key("clips").beginArray();
    for (size_t i = 0; i < f.animations.size(); ++i) {
        const bw2::AlAnimation& a = f.animations[i];
        const bw2::AlAnimHeader& h = a.header;
        const Clip* c = i < doc.clips.size() ? doc.clips[i].get() : nullptr;
        j.beginObject().kv("name", h.name).kv("version", h.version).kv("type", h.type);
        j.kv("frames", h.frameCount).kv("fps", h.samplingRate).kv("duration", h.duration);
        j.kv("distance", h.distance).kv("cyclic", h.cyclic).kv("hierarchical", h.hierarchical);
        j.kv("bone_count", h.boneCount);
        j.kv("rotations_per_frame", a.rotationsPerFrame).kv("positions_per_frame", a.positionsPerFrame);
        if (c) j.kv("codec", c->codec);
        j.key("events").beginArray();
        for (const auto& e : a.events) {
            j.beginObject().kv("bone", e.bone).kv("name", e.name).key("frame").null().key("matrix");
            matrix(j, e.matrix());
            j.endObject();
        }
        j.endArray();
        const bw2::AlDecodeStatus st = bw2::decodeStatus(a, f.bones.size());
        auto list = [&](const char* k, const std::vector<std::string>& v) {
            j.key(k).beginArray();
            for (const auto& s : v)
                j.value(s);
            j.endArray();
        };
        list("decoded", st.decoded);
        list("interpreted", st.interpreted);
        list("not_decoded", st.notDecoded);
        list("ambiguous", st.ambiguous);
        j.endObject();
    }
    j.endArray();
    warnings(j, f.warnings);
    j.endObject();
}

} // namespace rs::cli
