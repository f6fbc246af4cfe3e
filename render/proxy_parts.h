// Model parts: the main model and the proxy models attached to its bones, in one combined skeleton; and the
// rule that says whether a proxy is shown (options, hidden flag, ALT level, altDecreaseStayHidden).
#pragma once

#include "scene/model.h"

#include <QString>

#include <memory>
#include <vector>

namespace rs::render {

struct ViewOptions;

// One model in the combined skeleton: the main model (part 0) or a proxy model attached to a bone.
struct Part {
    std::shared_ptr<const rs::Model> model;
    int boneOffset = 0;             // first combined bone of this model
    int attachBone = -1;            // combined bone index the part hangs from (-1 for the main model)
    int proxy = -1;                 // index into the main model's proxies
    std::vector<bool> meshSelected; // LOD/ALT choice per mesh
};

// Appends to parts (which holds the main model) the proxy models named by main's proxies, found next to path as
// <proxy base name>.alo (case-insensitive; the file itself excluded; at most 32), and appends their bones to
// skeleton (which holds the main skeleton), parented to the proxy bone. Unreadable files and particle systems
// stay markers.
void attachProxyModels(const rs::Model& main, const QString& path, std::vector<Part>& parts, rs::Skeleton& skeleton);

// Whether main's proxy (index) and what hangs from it are shown. altDecreased: the ALT level was last lowered.
bool proxyShown(const rs::Model& main, int proxy, const ViewOptions& options, bool altDecreased);

} // namespace rs::render
