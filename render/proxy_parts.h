// Model parts: the main model and the proxy models attached to its bones, in one combined skeleton; and the
// rule that says whether a proxy is shown (options, hidden flag, ALT level, altDecreaseStayHidden).
#pragma once

#include "particles.h"
#include "scene/model.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

namespace rs {
class Resolver;
}

namespace rs::render {

struct ViewOptions;

// One model in the combined skeleton: the main model (part 0) or a proxy model attached to a bone.
struct Part {
    std::shared_ptr<const rs::Model> model;
    int boneOffset = 0;             // first combined bone of this model
    int attachBone = -1;            // combined bone index the part hangs from (-1 for the main model)
    int proxy = -1;                 // index into the main model's proxies (-1: main model or object attachment)
    int attachment = -1;            // index into the object attachments (attachModels), -1 otherwise
    std::vector<bool> meshSelected; // LOD/ALT choice per mesh
};

// The file a proxy names (<proxy base name>.alo, the _LOD/_ALT suffix stripped), the same lookup for proxy models
// and particle systems: Resolver::findProxyFile (beside the model, DATA/ART/MODELS/, through its folder or archive and
// the mounted folders, then the texture folders), read with Resolver::read. The model's own file is never its proxy.
// Each name is looked up and loaded once (cached by lower-case name).
class ProxyFileLookup {
  public:
    struct Entry {
        QString file;  // where it was found (disk path or the table's description); empty = not found
        QString error; // the load error of a file found but unreadable
        std::shared_ptr<const rs::Model> model;
        std::shared_ptr<const rs::ParticleSystem> system;
    };
    ProxyFileLookup(const QString& path, std::shared_ptr<const rs::Resolver> resolver);
    const Entry& find(const std::string& proxyName);

  private:
    QString path_;
    std::shared_ptr<const rs::Resolver> resolver_;
    std::map<QString, Entry> cache_; // node-based: references stay valid
};

// Appends to parts (which holds the main model) the proxy models named by main's proxies, found by files (at most
// 32), and appends their bones to skeleton (which holds the main skeleton), parented to the proxy bone. Unreadable
// files and particle systems stay markers.
void attachProxyModels(const rs::Model& main, ProxyFileLookup& files, std::vector<Part>& parts, rs::Skeleton& skeleton);

// A model a game object definition hangs at a bone of the main model (an EaW hardpoint's Model_To_Attach at its
// Attachment_Bone; a SAGE object's other draw modules at the root): drawn like an attached proxy model.
struct Attachment {
    std::shared_ptr<const rs::Model> model;
    int bone = -1; // bone of the main model
    // A particle system the definition places at the bone instead (a SAGE draw state's ParticleSysBone, defined in
    // the game's INI): drawn by the particle layer like a proxy's system; model is then null.
    std::shared_ptr<const rs::ParticleSystem> system;
    std::string name; // the system's name as the definition writes it ("" for models)
};

// Appends to parts the attachments whose model is non-null and bone is a bone of main (at most 64), their bones to
// skeleton (parented to that bone), like attachProxyModels. Part::attachment is the index in `attachments`.
void attachModels(const rs::Model& main, const std::vector<Attachment>& attachments, std::vector<Part>& parts,
                  rs::Skeleton& skeleton);

// The particle systems main's proxies name, found by files, one attachment per proxy on a valid bone, in proxy
// order. A proxy whose file is a model, or none, gets an attachment without system and file; an unreadable file
// records error.
std::vector<ParticleAttachment> findProxyParticles(const rs::Model& main, ProxyFileLookup& files);

// Whether main's proxy (index) and what hangs from it are shown. altDecreased: the ALT level was last lowered.
bool proxyShown(const rs::Model& main, int proxy, const ViewOptions& options, bool altDecreased);

} // namespace rs::render
