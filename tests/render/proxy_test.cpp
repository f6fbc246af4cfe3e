// Proxy models are drawn attached to their bone and follow the ALT rules; they are found like particle systems:
// beside the file, in the texture/asset folders, through the mounted game archives.
#include "render_harness.h"
#include "test_models.h"

#include "alamo/alamo_writer.h"
#include "vfs/archive_writer.h"
#include "resolve/resolver.h"
#include "vfs/mount.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

using namespace rs::test;

namespace {

// The proxy "p_smoke_ALT1" of makeFigure() refers to p_smoke.alo: here a single bright box written with the
// project's writer.
std::vector<uint8_t> boxProxyBytes() {
    rs::Model proxy;
    proxy.format = rs::Format::AlamoModel;
    rs::Bone root;
    root.name = "Root";
    proxy.skeleton.bones = {root};
    rs::Mesh m;
    m.name = "Smoke";
    m.baseName = "Smoke";
    m.bone = 0;
    rs::SubMesh sm;
    sm.material.shader = "alDefault.fx";
    sm.vertexFormat = "alD3dVertN";
    const glm::vec3 lo(-0.5f, -0.5f, 0.6f), hi(0.5f, 0.5f, 1.4f);
    for (int i = 0; i < 8; ++i) {
        sm.positions.push_back({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
        sm.normals.push_back(glm::normalize(sm.positions.back() - glm::vec3(0, 0, 1)));
    }
    sm.indices = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                  2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
    m.subMeshes.push_back(sm);
    proxy.meshes.push_back(m);
    return rs::alamo::writeModel(proxy);
}

void writeFile(const QString& path, const std::vector<uint8_t>& bytes) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    REQUIRE(f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())) == qint64(bytes.size()));
}

// Pixels the ALT1 proxy model adds: the figure with its proxies shown minus with them hidden (options o, alt 1).
int proxyPixels(const QString& path, rs::render::ViewOptions o) {
    auto& v = view();
    auto shot = [&](bool proxies) {
        o.proxies = proxies;
        v.setOptions(o);
        v.setModel(makeFigure(), path);
        v.setCameraAngles(20.0f, 10.0f);
        return grab();
    };
    const QImage with = shot(true);
    const QImage without = shot(false);
    REQUIRE_FALSE(with.isNull());
    return countChanged(with, without);
}

rs::render::ViewOptions proxyOptions() {
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.alt = 1;
    return o;
}

} // namespace

TEST_CASE("proxy model next to the file is attached to its bone", "[render][proxy]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    writeFile(dir.filePath("P_SMOKE.ALO"), boxProxyBytes());

    const QString path = dir.filePath("figure.alo");
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.alt = 1;
    auto& v = view();
    auto shotWith = [&](const rs::render::ViewOptions& opts) {
        v.setOptions(opts);
        v.setModel(makeFigure(), path);
        v.setCameraAngles(20.0f, 10.0f);
        return grab();
    };
    o.proxies = true;
    const QImage with = shotWith(o);
    o.proxies = false;
    const QImage without = shotWith(o);
    REQUIRE_FALSE(with.isNull());
    const int changed = countChanged(with, without);
    INFO("changed " << changed);
    CHECK(changed > 300);
    // ALT 0: the _ALT1 proxy is not shown.
    o.proxies = true;
    o.alt = 0;
    const QImage alt0 = shotWith(o);
    o.proxies = false;
    const QImage alt0NoProxy = shotWith(o);
    CHECK(countChanged(alt0, alt0NoProxy) < 60); // only the small proxy marker cross differs
}

TEST_CASE("proxy model is found in the texture folders", "[render][proxy]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    QDir(dir.path()).mkpath("models");
    QDir(dir.path()).mkpath("assets");
    writeFile(dir.filePath("assets/p_smoke.alo"), boxProxyBytes());
    const QString path = dir.filePath("models/figure.alo"); // nothing beside it
    rs::render::ViewOptions o = proxyOptions();
    const int without = proxyPixels(path, o);
    INFO("without the folder " << without);
    CHECK(without < 60); // only the proxy marker cross
    o.resolver = std::make_shared<const rs::Resolver>(nullptr, std::vector<std::string>{dir.filePath("assets").toStdString()});
    const int with = proxyPixels(path, o);
    INFO("with the folder " << with);
    CHECK(with > 300);
}

TEST_CASE("proxy model is found through the mounted game archives", "[render][proxy][vfs]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::vector<uint8_t> meg = rs::vfs::writeMeg(2, {{"DATA\\ART\\MODELS\\P_SMOKE.ALO", boxProxyBytes()}});
    const QString megPath = dir.filePath("Models.meg");
    writeFile(megPath, meg);
    QDir(dir.path()).mkpath("models");
    const QString path = dir.filePath("models/figure.alo"); // nothing beside it
    writeFile(path, rs::alamo::writeModel(*makeFigure()));
    rs::render::ViewOptions o = proxyOptions();
    const int without = proxyPixels(path, o);
    INFO("not mounted " << without);
    CHECK(without < 60);
    o.resolver = std::make_shared<const rs::Resolver>(
        std::make_shared<const rs::vfs::MountTable>(rs::vfs::mountSingle(megPath.toStdString())));
    const int with = proxyPixels(path, o);
    INFO("mounted " << with);
    CHECK(with > 300);
}
