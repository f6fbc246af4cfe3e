#include "commands.h"

#include "common/error.h"
#include "formats/shader_registry.h"

#include <new>
#include <sstream>
#include <stdexcept>

namespace rs::cli {

void rethrowNamingFile(const std::string& file) {
    try {
        throw;
    } catch (const ParseError&) {
        throw;
    } catch (const UsageError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        const std::string what = e.what(), label = printable(file);
        if (what.rfind(file + ":", 0) == 0 || what.rfind(label + ":", 0) == 0) throw;
        throw std::runtime_error(label + ": " + printable(what));
    }
}

void writeParamValue(Json& j, const MaterialParam& p) {
    switch (p.type) {
    case ParamType::Int: j.value(int64_t(p.intValue)); break;
    case ParamType::Float: j.value(p.value.x); break;
    case ParamType::Float3: j.floats(&p.value.x, 3); break;
    case ParamType::Float4: j.floats(&p.value.x, 4); break;
    case ParamType::Texture: j.value(p.texture); break;
    }
}

void drawnBy(Json& j, Format format, const Mesh& mesh, const Material& material) {
    const ShaderInfo info = shaderInfo(format, mesh, material);
    j.key("drawn_by").beginObject();
    j.kv("implementation", info.implementation).kv("fidelity", std::string(fidelityName(info.fidelity)));
    j.kv("note", info.note).endObject();
}

void infoGenericText(const Document& doc, std::string& text) {
    std::ostringstream s;
    s << doc.path << ": " << formatName(doc.format) << "\n";
    if (doc.model) {
        const Model& m = *doc.model;
        size_t verts = 0, tris = 0, subs = 0;
        for (const auto& mesh : m.meshes)
            for (const auto& sm : mesh.subMeshes) {
                verts += sm.vertexCount();
                tris += sm.triangleCount();
                ++subs;
            }
        s << "  bones: " << m.skeleton.bones.size() << "\n  meshes: " << m.meshes.size() << " (" << subs
          << " sub-meshes, " << verts << " vertices, " << tris << " triangles)\n  lights: " << m.lights.size()
          << "\n  proxies: " << m.proxies.size() << "\n  dazzles: " << m.dazzles.size()
          << "\n  markers: " << m.markers.size() << "\n";
        auto lods = m.lodLevels(), alts = m.altLevels();
        if (!lods.empty()) s << "  LOD levels: " << lods.size() << "\n";
        if (!alts.empty()) s << "  ALT levels: " << alts.size() << "\n";
        for (const auto& w : m.warnings) s << "  warning: " << w << "\n";
    }
    for (const auto& c : doc.clips) {
        s << "  clip " << (c->name.empty() ? "(unnamed)" : c->name) << ": " << c->frameCount << " frames at "
          << c->fps << " fps, " << c->tracks.size() << " tracks";
        if (!c->codec.empty()) s << ", " << c->codec;
        s << "\n";
        for (const auto& w : c->warnings) s << "  warning: " << w << "\n";
    }
    for (const auto& w : doc.warnings) s << "  warning: " << w << "\n";
    text = s.str();
}

} // namespace rs::cli
