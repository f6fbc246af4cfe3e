#include "objects/model_probe.h"

#include "formats/formats.h"
#include "resolve/lookup_rules.h"
#include "resolve/resolver.h"

#include <map>
#include <memory>

namespace rs::objects {

bool ModelFacts::hasBone(const std::string& name) const {
    for (const std::string& b : bones)
        if (iequals(b, name)) return true;
    return false;
}

bool ModelFacts::hasSubObject(const std::string& name) const {
    for (const std::string& s : subObjects) {
        if (iequals(s, name)) return true;
        const size_t dot = s.find('.');
        if (dot != std::string::npos && iequals(s.substr(dot + 1), name)) return true;
    }
    return false;
}

bool ModelFacts::hasProxyAt(const std::string& bone) const {
    for (const std::string& b : proxyBones)
        if (iequals(b, bone)) return true;
    return false;
}

ModelProbe documentProbe(const vfs::MountTable& table) {
    auto cache = std::make_shared<std::map<std::string, ModelFacts>>();
    const vfs::MountTable* t = &table;
    // Models are opened the one way (resolver -> reader -> model), over the table (not owned: it outlives the probe).
    auto resolver = std::make_shared<const Resolver>(std::shared_ptr<const vfs::MountTable>(t, [](const vfs::MountTable*) {}));
    return [cache, t, resolver](const std::string& key) -> ModelFacts {
        const auto it = cache->find(key);
        if (it != cache->end()) return it->second;
        ModelFacts f;
        try {
            const Document doc = resolver->read(key);
            if (doc.model) {
                f.loaded = true;
                for (const Bone& b : doc.model->skeleton.bones)
                    f.bones.push_back(b.name);
                for (const Mesh& m : doc.model->meshes)
                    f.subObjects.push_back(m.name);
                for (const Proxy& p : doc.model->proxies)
                    if (p.bone >= 0 && size_t(p.bone) < doc.model->skeleton.bones.size() &&
                        !f.hasProxyAt(doc.model->skeleton.bones[size_t(p.bone)].name))
                        f.proxyBones.push_back(doc.model->skeleton.bones[size_t(p.bone)].name);
            } else {
                f.error = std::string("not a model (") + formatName(doc.format) + ")";
            }
            // Alamo clips by name (<MODEL>_<ANIM>_NN.ALA); SAGE states name their clips themselves.
            if (key.size() > 4 && key.compare(key.size() - 4, 4, ".ALO") == 0) f.clips = resolve::companionClips(*t, key);
        } catch (const std::exception& e) {
            f.error = e.what();
        }
        cache->emplace(key, f);
        return f;
    };
}

} // namespace rs::objects
