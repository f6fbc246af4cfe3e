#include "proxy_parts.h"

#include "scene_view.h"

#include "io/loader.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>

namespace rs::render {

void attachProxyModels(const rs::Model& m, const QString& path, std::vector<Part>& parts, rs::Skeleton& skeleton) {
    if (path.isEmpty()) return;
    const QDir dir = QFileInfo(path).absoluteDir();
    const QStringList files = dir.entryList(QDir::Files);
    QHash<QString, std::shared_ptr<const rs::Model>> cache;
    for (size_t pi = 0; pi < m.proxies.size() && parts.size() < 33; ++pi) {
        const rs::Proxy& px = m.proxies[pi];
        if (px.bone < 0 || size_t(px.bone) >= m.skeleton.bones.size()) continue;
        std::string base;
        int lod = -1, alt = -1;
        rs::parseLodAlt(px.name, base, lod, alt);
        const QString want = QString::fromStdString(base).toLower() + ".alo";
        std::shared_ptr<const rs::Model> pm;
        if (cache.contains(want)) {
            pm = cache.value(want);
        } else {
            for (const QString& f : files) {
                if (f.toLower() != want) continue;
                const QString full = dir.filePath(f);
                if (QFileInfo(full) == QFileInfo(path)) break;
                try {
                    rs::Document doc = rs::loadDocument(full.toStdString());
                    if (doc.model) pm = doc.model;
                } catch (const std::exception&) {
                    // particle systems and unreadable files stay markers
                }
                break;
            }
            cache.insert(want, pm);
        }
        if (!pm) continue;
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
