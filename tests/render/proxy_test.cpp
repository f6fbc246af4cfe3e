// Proxy models found next to the file are drawn attached to their bone and follow the ALT rules.
#include "render_harness.h"
#include "test_models.h"

#include "alamo/alamo_writer.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>

using namespace rs::test;

TEST_CASE("proxy model next to the file is attached to its bone", "[render][proxy]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // The proxy "p_smoke_ALT1" refers to p_smoke.alo: a single bright box written with the project's writer.
    rs::Model proxy;
    proxy.format = "alo";
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
    const std::vector<uint8_t> bytes = rs::alamo::writeModel(proxy);
    QFile f(dir.filePath("P_SMOKE.ALO"));
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    f.close();

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
