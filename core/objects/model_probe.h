// What the object database needs to know about a model file: its bones, sub-objects and clips. The one place that
// loads models for core/objects (through the resolver), so that the object database itself stays independent of
// model loading.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rs::vfs {
class MountTable;
}

namespace rs::objects {

struct ModelFacts {
    bool loaded = false;
    std::string error;                                // why it could not be loaded
    std::vector<std::string> bones;                   // skeleton bone names
    std::vector<std::string> subObjects;              // mesh names (W3D: "MODEL.SUB" as stored)
    std::vector<std::string> clips;                   // keys of the clip files that belong to the model
    std::vector<std::string> proxyBones;              // bones that carry a proxy (Alamo), each once
    bool hasBone(const std::string& name) const;      // case-insensitive
    bool hasSubObject(const std::string& name) const; // case-insensitive; "SUB" also matches "MODEL.SUB"
    bool hasProxyAt(const std::string& bone) const;   // case-insensitive
};

// Facts about the model at game path `key` (a normalizePath key the mount table holds).
using ModelProbe = std::function<ModelFacts(const std::string& key)>;

// Loads through a Resolver over the table (clips: resolve::companionClips), remembering each key's facts.
// The table must outlive the probe.
ModelProbe documentProbe(const vfs::MountTable& table);

} // namespace rs::objects
