#include "proxy_parts.h"

#include "textures.h"

#include "scene_view.h"

#include "resolve/resolver.h"
#include "scene/proxy_rule.h"

#include <QFile>

namespace rs::render {

ProxyFileLookup::ProxyFileLookup(const QString& path, std::shared_ptr<const rs::Resolver> resolver)
    : path_(path), resolver_(std::move(resolver)) {}

const ProxyFileLookup::Entry& ProxyFileLookup::find(const std::string& proxyName) {
    std::string base;
    int lod = -1, alt = -1;
    rs::parseLodAlt(proxyName, base, lod, alt);
    const QString want = QString::fromStdString(base) + ".alo";
    auto it = cache_.find(want.toLower());
    if (it != cache_.end()) return it->second;
    Entry f;
    try {
        const std::string file =
            path_.isEmpty() ? std::string()
                            : resolver_->findProxyFile(QFile::encodeName(path_).toStdString(), want.toStdString());
        if (!file.empty()) {
            f.file = QFile::decodeName(QByteArray::fromStdString(file));
            const rs::Document doc = resolver_->read(file);
            f.model = doc.model;
            f.system = doc.particles;
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

void attachModels(const rs::Model& m, const std::vector<Attachment>& attachments, std::vector<Part>& parts,
                  rs::Skeleton& skeleton) {
    int added = 0;
    for (size_t ai = 0; ai < attachments.size() && added < 64; ++ai) {
        const Attachment& a = attachments[ai];
        if (!a.model || a.bone < 0 || size_t(a.bone) >= m.skeleton.bones.size()) continue;
        Part part;
        part.model = a.model;
        part.boneOffset = int(skeleton.bones.size());
        part.attachBone = a.bone;
        part.attachment = int(ai);
        for (const rs::Bone& b : a.model->skeleton.bones) {
            rs::Bone nb = b;
            nb.parent =
                (b.parent >= 0 && b.parent < int(a.model->skeleton.bones.size())) ? b.parent + part.boneOffset : a.bone;
            skeleton.bones.push_back(nb);
        }
        parts.push_back(part);
        ++added;
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
    return rs::proxyShown(main, proxy, rs::ProxyView{options.proxies, options.showHidden, options.alt, altDecreased});
}

} // namespace rs::render
