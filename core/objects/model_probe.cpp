#include "objects/model_probe.h"

#include "vfs/lookup.h"

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

// Alamo clips beside the model named <MODEL>_*.ALA, each kept only for the longest model name it starts with
// (EV_ESCORT_D_DIE_00.ALA belongs to EV_ESCORT_D.ALO, not EV_ESCORT.ALO).
static std::vector<std::string> ownClips(const vfs::MountTable& t, const std::string& key) {
    std::vector<std::string> clips = vfs::companionClips(t, key);
    const std::string folder = vfs::folderOf(key);
    std::vector<std::string> stems; // other models' names in the folder, with '_'
    for (const std::string& k : t.list(folder))
        if (k.size() > 4 && k.compare(k.size() - 4, 4, ".ALO") == 0)
            stems.push_back(k.substr(folder.size(), k.size() - 4 - folder.size()) + "_");
    const std::string own = key.substr(folder.size(), key.size() - 4 - folder.size()) + "_";
    std::vector<std::string> out;
    for (const std::string& c : clips) {
        const std::string name = c.substr(vfs::folderOf(c).size());
        bool longer = false;
        for (const std::string& s : stems)
            longer = longer || (s.size() > own.size() && name.compare(0, s.size(), s) == 0);
        if (!longer) out.push_back(c);
    }
    return out;
}

ModelProbe documentProbe(const vfs::MountTable& table) {
    auto cache = std::make_shared<std::map<std::string, ModelFacts>>();
    const vfs::MountTable* t = &table;
    return [cache, t](const std::string& key) -> ModelFacts {
        const auto it = cache->find(key);
        if (it != cache->end()) return it->second;
        ModelFacts f;
        try {
            // The one call into model loading (renamed by the loader refactor: change it here only).
            const Document doc = vfs::loadDocument(*t, key);
            if (doc.model) {
                f.loaded = true;
                for (const Bone& b : doc.model->skeleton.bones)
                    f.bones.push_back(b.name);
                for (const Mesh& m : doc.model->meshes)
                    f.subObjects.push_back(m.name);
            } else {
                f.error = "not a model (" + doc.format + ")";
            }
            // Alamo clips by name (<MODEL>_<ANIM>_NN.ALA); SAGE states name their clips themselves.
            if (key.size() > 4 && key.compare(key.size() - 4, 4, ".ALO") == 0) f.clips = ownClips(*t, key);
        } catch (const std::exception& e) {
            f.error = e.what();
        }
        cache->emplace(key, f);
        return f;
    };
}

} // namespace rs::objects
