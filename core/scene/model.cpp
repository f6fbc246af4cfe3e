#include "scene/model.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace rs {

std::string toLower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool iequals(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

bool istartsWith(const std::string& s, const std::string& prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

int Skeleton::find(const std::string& name) const {
    for (size_t i = 0; i < bones.size(); ++i)
        if (iequals(bones[i].name, name)) return static_cast<int>(i);
    return -1;
}

void Skeleton::bindWorld(glm::mat4* out) const {
    for (size_t i = 0; i < bones.size(); ++i) {
        int p = bones[i].parent;
        out[i] = (p >= 0 && static_cast<size_t>(p) < i) ? out[p] * bones[i].bindLocal : bones[i].bindLocal;
    }
}

const MaterialParam* Material::find(const std::string& name) const {
    for (const auto& p : params)
        if (iequals(p.name, name)) return &p;
    return nullptr;
}

static std::vector<int> distinctLevels(const std::vector<Mesh>& meshes, int Mesh::*field) {
    std::set<int> s;
    for (const auto& m : meshes)
        if (m.*field >= 0) s.insert(m.*field);
    return {s.begin(), s.end()};
}

std::vector<int> Model::lodLevels() const { return distinctLevels(meshes, &Mesh::lod); }
std::vector<int> Model::altLevels() const { return distinctLevels(meshes, &Mesh::alt); }

std::vector<bool> selectLodAlt(const Model& m, int lodWanted, int altWanted) {
    std::vector<bool> out(m.meshes.size(), false);
    std::map<std::string, std::vector<int>> groups;
    for (size_t i = 0; i < m.meshes.size(); ++i)
        groups[toLower(m.meshes[i].baseName.empty() ? m.meshes[i].name : m.meshes[i].baseName)].push_back(int(i));
    auto lodOf = [&](int i) { return std::max(m.meshes[size_t(i)].lod, 0); };
    auto altOf = [&](int i) { return std::max(m.meshes[size_t(i)].alt, 0); };
    for (const auto& [key, g] : groups) {
        int bestLod = -1;
        for (int i : g) {
            const int l = lodOf(i);
            if (bestLod < 0)
                bestLod = l;
            else if (lodWanted < 0)
                bestLod = std::max(bestLod, l);
            else if (std::abs(l - lodWanted) < std::abs(bestLod - lodWanted) ||
                     (std::abs(l - lodWanted) == std::abs(bestLod - lodWanted) && l > bestLod))
                bestLod = l;
        }
        int bestAlt = -1;
        for (int i : g) {
            if (lodOf(i) != bestLod) continue;
            const int a = altOf(i);
            if (bestAlt < 0 || std::abs(a - altWanted) < std::abs(bestAlt - altWanted) ||
                (std::abs(a - altWanted) == std::abs(bestAlt - altWanted) && a < bestAlt))
                bestAlt = a;
        }
        for (int i : g)
            out[size_t(i)] = lodOf(i) == bestLod && altOf(i) == bestAlt;
    }
    return out;
}

// Removes one "_<TAG><digits>" occurrence (case-insensitive); returns the number or -1.
static int stripTag(std::string& s, const char* tag) {
    const std::string lower = toLower(s);
    const std::string pat = std::string("_") + tag;
    size_t pos = 0;
    while ((pos = lower.find(pat, pos)) != std::string::npos) {
        size_t d = pos + pat.size();
        size_t e = d;
        while (e < lower.size() && std::isdigit(static_cast<unsigned char>(lower[e])))
            ++e;
        if (e > d && e - d <= 6) {
            int v = std::stoi(lower.substr(d, e - d));
            s.erase(pos, e - pos);
            return v;
        }
        pos = d;
    }
    return -1;
}

void parseLodAlt(const std::string& name, std::string& baseName, int& lod, int& alt) {
    baseName = name;
    lod = stripTag(baseName, "lod");
    alt = stripTag(baseName, "alt");
}

const char* paramTypeName(ParamType t) {
    switch (t) {
    case ParamType::Int:
        return "int";
    case ParamType::Float:
        return "float";
    case ParamType::Float3:
        return "float3";
    case ParamType::Float4:
        return "float4";
    case ParamType::Texture:
        return "texture";
    }
    return "?";
}

} // namespace rs
