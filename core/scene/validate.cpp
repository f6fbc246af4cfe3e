#include "scene/validate.h"

namespace rs {

namespace {

bool boneOk(int b, size_t n) { return b >= -1 && (b < 0 || static_cast<size_t>(b) < n); }
std::string at(const std::string& what, size_t i) { return what + " " + std::to_string(i) + ": "; }

} // namespace

std::string checkModel(const Model& m) {
    const size_t nb = m.skeleton.bones.size();
    for (size_t i = 0; i < nb; ++i) {
        const Bone& b = m.skeleton.bones[i];
        if (b.parent < -1 || (b.parent >= 0 && static_cast<size_t>(b.parent) >= i))
            return at("bone", i) + "parent " + std::to_string(b.parent) + " is not an earlier bone";
    }
    for (size_t mi = 0; mi < m.meshes.size(); ++mi) {
        const Mesh& mesh = m.meshes[mi];
        if (!boneOk(mesh.bone, nb)) return at("mesh", mi) + "bone " + std::to_string(mesh.bone) + " out of range";
        for (size_t si = 0; si < mesh.subMeshes.size(); ++si) {
            const SubMesh& sm = mesh.subMeshes[si];
            const std::string where = at("mesh", mi) + at("sub-mesh", si);
            const size_t nv = sm.positions.size();
            const size_t sizes[] = {sm.normals.size(),     sm.uv0.size(),         sm.uv1.size(),
                                    sm.tangents.size(),    sm.binormals.size(),   sm.colors.size(),
                                    sm.boneIndices.size(), sm.boneWeights.size(), sm.positions2.size(),
                                    sm.normals2.size()};
            for (size_t s : sizes)
                if (s != 0 && s != nv)
                    return where + "attribute of " + std::to_string(s) + " for " + std::to_string(nv) + " vertices";
            if (sm.indices.size() % 3 != 0) return where + "index count not a multiple of 3";
            for (uint32_t ix : sm.indices)
                if (ix >= nv) return where + "vertex index " + std::to_string(ix) + " >= " + std::to_string(nv);
            for (int b : sm.boneMap)
                if (b < 0 || static_cast<size_t>(b) >= nb)
                    return where + "bone map entry " + std::to_string(b) + " out of range";
            if (!sm.boneIndices.empty()) {
                // W3D skins index skeleton bones directly through an identity-sized map; either way the
                // index must be usable against boneMap.
                const size_t limit = sm.boneMap.size();
                for (const auto& bi : sm.boneIndices)
                    for (int k = 0; k < 4; ++k)
                        if (bi[k] >= limit && !(limit == 0 && bi[k] == 0))
                            return where + "vertex bone index " + std::to_string(bi[k]) + " >= bone map size " +
                                   std::to_string(limit);
            }
        }
    }
    for (size_t i = 0; i < m.lights.size(); ++i)
        if (!boneOk(m.lights[i].bone, nb)) return at("light", i) + "bone out of range";
    for (size_t i = 0; i < m.proxies.size(); ++i)
        if (!boneOk(m.proxies[i].bone, nb)) return at("proxy", i) + "bone out of range";
    for (size_t i = 0; i < m.dazzles.size(); ++i)
        if (!boneOk(m.dazzles[i].bone, nb)) return at("dazzle", i) + "bone out of range";
    for (size_t i = 0; i < m.markers.size(); ++i)
        if (!boneOk(m.markers[i].bone, nb)) return at("marker", i) + "bone out of range";
    for (size_t i = 0; i < m.connections.size(); ++i)
        if (!boneOk(m.connections[i].bone, nb)) return at("connection", i) + "bone out of range";
    return {};
}

std::string checkClip(const Clip& c) {
    const size_t nf = c.frameCount;
    for (size_t i = 0; i < c.tracks.size(); ++i) {
        const BoneTrack& t = c.tracks[i];
        const size_t sizes[] = {t.translation.size(), t.rotation.size(), t.scale.size(), t.visibility.size(),
                                t.step.size()};
        for (size_t s : sizes)
            if (s != 0 && s != 1 && s != nf)
                return at("track", i) + "channel of " + std::to_string(s) + " entries for " + std::to_string(nf) +
                       " frames";
    }
    return {};
}

} // namespace rs
