#include "proxy_parts.h"

#include "textures.h"

#include "scene_view.h"

#include "io/loader.h"
#include "vfs/lookup.h"

#include <QDir>
#include <QFileInfo>

namespace rs::render {

ProxyFileLookup::ProxyFileLookup(const QString& path, const QStringList& extraDirs)
    : path_(path), extraDirs_(extraDirs) {}

const ProxyFileLookup::Entry& ProxyFileLookup::find(const std::string& proxyName) {
    std::string base;
    int lod = -1, alt = -1;
    rs::parseLodAlt(proxyName, base, lod, alt);
    const QString want = QString::fromStdString(base) + ".alo";
    auto it = cache_.find(want.toLower());
    if (it != cache_.end()) return it->second;
    Entry f;
    const QFileInfo self(path_);
    // Disk: beside the model, then the extra folders.
    QString file;
    if (!path_.isEmpty()) file = childCI(self.absolutePath(), want, QDir::Files);
    for (int d = 0; file.isEmpty() && d < extraDirs_.size(); ++d)
        file = childCI(extraDirs_[d], want, QDir::Files);
    if (!file.isEmpty() && !path_.isEmpty() && QFileInfo(file) == self) file.clear(); // the model itself
    try {
        if (!file.isEmpty()) {
            f.file = file;
            const rs::Document doc = rs::loadDocument(file.toStdString());
            f.model = doc.model;
            f.system = doc.particles;
        } else if (!path_.isEmpty()) {
            if (!tableTried_) {
                tableTried_ = true;
                try {
                    table_ = rs::vfs::tableFor(path_.toStdString(), &modelKey_);
                } catch (const std::exception&) {
                }
                if (!table_) table_ = rs::vfs::sessionMount(); // a model path that is not a file
            }
            if (table_) {
                const std::string name = want.toUpper().toStdString();
                for (const std::string& key : {rs::vfs::folderOf(modelKey_) + name, "DATA/ART/MODELS/" + name}) {
                    if (!modelKey_.empty() && key == modelKey_) continue; // the model itself
                    const rs::vfs::Hit* h = table_->find(key);
                    if (!h) continue;
                    f.file = QString::fromStdString(table_->describe(*h));
                    const rs::Document doc = rs::vfs::loadDocument(*table_, key);
                    f.model = doc.model;
                    f.system = doc.particles;
                    break;
                }
            }
        }
    } catch (const std::exception& e) {
        f.error = QString::fromUtf8(e.what());
    }
    return cache_.emplace(want.toLower(), std::move(f)).first->second;
}

void attachProxyModels(const rs::Model& m, ProxyFileLookup& files, std::vector<Part>& parts, rs::Skeleton& skeleton) {
    for (size_t pi = 0; pi < m.proxies.size() && parts.size() < 33; ++pi) {
        const rs::Proxy& px = m.proxies[pi];
        if (px.bone < 0 || size_t(px.bone) >= m.skeleton.bones.size()) continue;
        const std::shared_ptr<const rs::Model> pm = files.find(px.name).model;
        if (!pm) continue; // particle systems, unreadable files and names not found stay markers
        Part part;
        part.model = pm;
        part.boneOffset = int(skeleton.bones.size());
        part.attachBone = px.bone;
        part.proxy = int(pi);
        for (const rs::Bone& b : pm->skeleton.bones) {
            rs::Bone nb = b;
            nb.parent =
                (b.parent >= 0 && b.parent < int(pm->skeleton.bones.size())) ? b.parent + part.boneOffset : px.bone;
            skeleton.bones.push_back(nb);
        }
        parts.push_back(part);
    }
}

std::vector<ParticleAttachment> findProxyParticles(const rs::Model& m, ProxyFileLookup& files) {
    std::vector<ParticleAttachment> out;
    for (size_t pi = 0; pi < m.proxies.size() && out.size() < 256; ++pi) {
        const rs::Proxy& px = m.proxies[pi];
        if (px.bone < 0 || size_t(px.bone) >= m.skeleton.bones.size()) continue;
        const ProxyFileLookup::Entry& f = files.find(px.name);
        if (f.model) continue; // a proxy model (attachProxyModels)
        ParticleAttachment a;
        a.proxy = int(pi);
        a.bone = px.bone;
        a.name = QString::fromStdString(px.name);
        a.file = f.file;
        a.error = f.error;
        a.system = f.system;
        out.push_back(std::move(a));
    }
    return out;
}

bool proxyShown(const rs::Model& main, int proxy, const ViewOptions& options, bool altDecreased) {
    if (proxy < 0 || size_t(proxy) >= main.proxies.size()) return true;
    const rs::Proxy& px = main.proxies[size_t(proxy)];
    if (!options.proxies) return false;
    if (px.hidden && !options.showHidden) return false;
    if (px.alt >= 0) {
        if (px.alt != options.alt) return false;
        if (px.altDecreaseStayHidden && altDecreased) return false;
    }
    return true;
}

} // namespace rs::render
