#include "w3d/w3d_mapper.h"

#include "common/text_util.h"
#include <cctype>
#include <cstdlib>

namespace rs::w3d {

std::vector<std::pair<std::string, std::string>> parseMapperEntries(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    size_t i = 0;
    while (i < text.size()) {
        size_t end = i;
        while (end < text.size() && text[end] != '\n' && text[end] != '\r' && text[end] != '\0')
            ++end;
        std::string line = text.substr(i, end - i);
        i = end + 1;
        if (const size_t c = line.find(';'); c != std::string::npos) line.erase(c);
        const size_t eq = line.find('=');
        if (eq == std::string::npos) continue;
        std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
        if (key.empty()) continue;
        out.emplace_back(std::move(key), std::move(value));
    }
    return out;
}

namespace {
struct Args {
    std::vector<std::pair<std::string, std::string>> e;
    const std::string* find(const char* key) const {
        const std::string* r = nullptr;
        for (const auto& kv : e)
            if (iequals(kv.first, key)) r = &kv.second;
        return r;
    }
    float f(const char* key, float def) const {
        const std::string* v = find(key);
        return v ? float(std::strtod(v->c_str(), nullptr)) : def;
    }
    int i(const char* key, int def) const {
        const std::string* v = find(key);
        return v ? int(std::strtol(v->c_str(), nullptr, 10)) : def;
    }
    bool b(const char* key, bool def) const {
        const std::string* v = find(key);
        if (!v || v->empty()) return def;
        const char c = char(std::toupper(static_cast<unsigned char>((*v)[0])));
        return c == 'T' || c == 'Y' || c == '1';
    }
};
} // namespace

W3dMapper parseMapper(int type, const std::string& text) {
    W3dMapper m;
    m.type = type;
    m.args = text;
    Args a{parseMapperEntries(text)};
    m.scale = {a.f("UScale", 1.0f), a.f("VScale", 1.0f)};
    m.perSec = {a.f("UPerSec", 0.0f), a.f("VPerSec", 0.0f)};
    m.offset = {a.f("UOffset", 0.0f), a.f("VOffset", 0.0f)};
    m.clampFix = a.b("ClampFix", false);
    m.fps = a.f("FPS", type == int(W3dMapperType::Random) ? 0.0f : 1.0f);
    m.log2Width = a.i("Log2Width", 1);
    if (m.log2Width < 0 || m.log2Width > 15) m.log2Width = 1; // a shift ww3d2 would not survive either
    m.last = a.i("Last", 0);
    m.frameOffset = a.i("Offset", 0);
    m.speed = a.f("Speed", 0.1f);
    m.center = {a.f("UCenter", 0.0f), a.f("VCenter", 0.0f)};
    m.uafp = {a.f("UAmp", 1.0f), a.f("UFreq", 1.0f), a.f("UPhase", 0.0f)};
    m.vafp = {a.f("VAmp", 1.0f), a.f("VFreq", 1.0f), a.f("VPhase", 0.0f)};
    m.step = {a.f("UStep", 0.0f), a.f("VStep", 0.0f)};
    m.sps = a.f("SPS", 0.0f);
    m.period = a.f("Period", 0.0f);
    m.vStart = a.f("VStart", 0.0f);
    m.useReflect = a.b("UseReflect", false);
    if (const std::string* ax = a.find("Axis"); ax && !ax->empty()) {
        const char c = char(std::toupper(static_cast<unsigned char>((*ax)[0])));
        m.axis = c == 'X' ? 0 : c == 'Y' ? 1 : 2;
    }
    m.bumpRotation = a.f("BumpRotation", 0.0f);
    m.bumpScale = a.f("BumpScale", 1.0f);
    return m;
}

const char* mapperName(int type) {
    static const char* const names[] = {"UV",
                                        "Environment",
                                        "CheapEnvironment",
                                        "Screen",
                                        "LinearOffset",
                                        "Silhouette",
                                        "Scale",
                                        "Grid",
                                        "Rotate",
                                        "SineLinearOffset",
                                        "StepLinearOffset",
                                        "ZigzagLinearOffset",
                                        "WSClassicEnv",
                                        "WSEnvironment",
                                        "GridClassicEnv",
                                        "GridEnvironment",
                                        "Random",
                                        "Edge",
                                        "BumpEnv",
                                        "GridWSClassicEnv",
                                        "GridWSEnvironment"};
    if (type >= 0 && type < int(sizeof(names) / sizeof(names[0]))) return names[type];
    return "Unknown";
}

} // namespace rs::w3d

namespace rs::w3d {

namespace {
enum Use { kDiffuseOnly, kDiffuseAmbient, kAmbientOnly, kEmissiveOnly, kOther };
Use useOf(const W3dPassState& p) {
    auto on = [](glm::vec3 c) { return c.r != 0.0f || c.g != 0.0f || c.b != 0.0f; };
    const bool d = on(p.diffuse), a = on(p.ambient), e = on(p.emissive);
    if (d && !a && !e) return kDiffuseOnly;
    if (d && a && !e) return kDiffuseAmbient;
    if (!d && a && !e) return kAmbientOnly;
    if (!d && !a && e) return kEmissiveOnly;
    return kOther;
}
} // namespace

ColorRule colorRule(const std::vector<W3dPassState>& passes, size_t pass) {
    ColorRule r;
    if (pass >= passes.size()) return r;
    const W3dPassState& p = passes[pass];
    r.lighting = p.lighting;
    if (!p.hasDcg && !p.hasDig) return r;
    r.useColor = true;
    r.diffuseFromColor = true;
    switch (useOf(p)) {
    case kDiffuseOnly:
        r.scale = glm::vec4(p.diffuse, p.opacity);
        r.scaleFrom = ColorRule::From::Diffuse;
        break;
    case kDiffuseAmbient:
        r.scale = glm::vec4(p.diffuse, p.opacity);
        r.scaleFrom = ColorRule::From::Diffuse;
        r.ambientFromColor = true;
        break;
    case kAmbientOnly:
        r.scale = glm::vec4(p.ambient, p.opacity);
        r.scaleFrom = ColorRule::From::Ambient;
        r.diffuseFromColor = false;
        r.ambientFromColor = true;
        break;
    case kEmissiveOnly: {
        r.scale = glm::vec4(p.emissive, p.opacity);
        r.scaleFrom = ColorRule::From::Emissive;
        bool all = true; // set_lighting_to_false: single pass, or every pass emissive-only
        for (const W3dPassState& q : passes)
            all = all && (passes.size() == 1 || !(q.hasDcg || q.hasDig) || useOf(q) == kEmissiveOnly);
        if (all) r.lighting = false;
        break;
    }
    case kOther:
        break;
    }
    return r;
}

} // namespace rs::w3d
