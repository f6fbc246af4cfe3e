#include "proxy_parts.h"

#include "scene_view.h"

#include "io/loader.h"
#include "vfs/lookup.h"

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

namespace {

// filename (any case) inside dir, empty when absent.
QString childFileCI(const QDir& dir, const QString& fileName) {
    if (!dir.exists()) return {};
    for (const QString& f : dir.entryList(QDir::Files))
        if (f.compare(fileName, Qt::CaseInsensitive) == 0) return dir.filePath(f);
    return {};
}

} // namespace

std::vector<ParticleAttachment> findProxyParticles(const rs::Model& m, const QString& path,
                                                   const QStringList& extraDirs) {
    std::vector<ParticleAttachment> out;
    struct Found {
        QString file, error;
        std::shared_ptr<const rs::ParticleSystem> system;
        bool model = false; // the name is a proxy model (attachProxyModels), not a particle system
    };
    QHash<QString, Found> cache; // by lower-case file name
    std::shared_ptr<const rs::vfs::MountTable> table;
    std::string modelKey;
    bool tableTried = false;
    const QFileInfo self(path);
    for (size_t pi = 0; pi < m.proxies.size() && out.size() < 256; ++pi) {
        const rs::Proxy& px = m.proxies[pi];
        if (px.bone < 0 || size_t(px.bone) >= m.skeleton.bones.size()) continue;
        std::string base;
        int lod = -1, alt = -1;
        rs::parseLodAlt(px.name, base, lod, alt);
        const QString want = QString::fromStdString(base) + ".alo";
        auto it = cache.find(want.toLower());
        if (it == cache.end()) {
            Found f;
            // Disk: beside the model, then the extra folders.
            QString file;
            if (!path.isEmpty()) file = childFileCI(self.absoluteDir(), want);
            for (int d = 0; file.isEmpty() && d < extraDirs.size(); ++d)
                file = childFileCI(QDir(extraDirs[d]), want);
            try {
                if (!file.isEmpty() && QFileInfo(file) != self) {
                    const rs::Document doc = rs::loadDocument(file.toStdString());
                    f.file = file;
                    f.system = doc.particles;
                    f.model = doc.model != nullptr;
                } else if (!path.isEmpty()) {
                    if (!tableTried) {
                        tableTried = true;
                        try {
                            table = rs::vfs::tableFor(path.toStdString(), &modelKey);
                        } catch (const std::exception&) {
                        }
                        if (!table) table = rs::vfs::sessionMount(); // a model path that is not a file
                    }
                    if (table) {
                        const std::string name = want.toUpper().toStdString();
                        for (const std::string& key : {rs::vfs::folderOf(modelKey) + name, "DATA/ART/MODELS/" + name}) {
                            const rs::vfs::Hit* h = table->find(key);
                            if (!h) continue;
                            f.file = QString::fromStdString(table->describe(*h));
                            const rs::Document doc = rs::vfs::loadDocument(*table, key);
                            f.system = doc.particles;
                            f.model = doc.model != nullptr;
                            break;
                        }
                    }
                }
            } catch (const std::exception& e) {
                f.error = QString::fromUtf8(e.what());
                if (f.file.isEmpty()) f.file = file;
            }
            it = cache.insert(want.toLower(), f);
        }
        if (it->model) continue;
        ParticleAttachment a;
        a.proxy = int(pi);
        a.bone = px.bone;
        a.name = QString::fromStdString(px.name);
        a.file = it->file;
        a.error = it->error;
        a.system = it->system;
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
