// B&W2 in the render layer: the collision footprint / point-set overlay follows ViewOptions::pointSets,
// entities are drawn as labelled markers, and the corpus .bwm renders framed (skipped when absent).
#include "render_harness.h"

#include "bw2_fixtures.h" // tests/core: the project's own .bwm writer fixtures
#include "resolve/resolver.h"

#include "skip.h"
#include <catch2/catch.hpp>

#include <QFileInfo>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

QImage shot(const std::shared_ptr<rs::Model>& m, const QString& path, rs::render::ViewOptions o) {
    o.grid = false;
    o.background = kBg;
    auto& v = view();
    v.setOptions(o);
    v.setModel(m, path);
    v.setClip(nullptr);
    v.setCameraAngles(30.0f, 35.0f);
    return grab();
}

// Pixels that are mostly red (collision outline colour) and not in the reference image.
int reddish(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            if (qRed(p) > 180 && qGreen(p) < 140 && qBlue(p) < 140) ++n;
        }
    return n;
}

} // namespace

TEST_CASE("bwm collision footprint overlay follows its toggle", "[render][bw2]") {
    const std::vector<uint8_t> bytes = rs::bw2::writeBwm(rs::test::bw2fx::staticModel(6));
    auto m = std::make_shared<rs::Model>(rs::bw2::readBwm(rs::ByteSpan(bytes), "house.bwm"));
    REQUIRE(m->pointSets.size() == 2);
    REQUIRE(m->markers.size() == 1);
    REQUIRE(m->markers[0].kind == "entity");
    rs::render::ViewOptions o;
    o.labels = false; // the label is tested below; keep it out of the colour count
    o.markers = false;
    o.proxies = false;
    const QImage on = shot(m, QString(), o);
    o.pointSets = false;
    const QImage off = shot(m, QString(), o);
    REQUIRE_FALSE(on.isNull());
    REQUIRE_FALSE(off.isNull());
    INFO("red pixels with overlay " << reddish(on) << ", without " << reddish(off));
    CHECK(reddish(on) > reddish(off) + 20);
    CHECK(countChanged(on, off) > 20);

    // The entity "door" is drawn as a marker with its name.
    o.pointSets = false;
    o.markers = true;
    o.labels = true;
    const QImage labelled = shot(m, QString(), o);
    o.labels = false;
    const QImage plain = shot(m, QString(), o);
    CHECK(countChanged(labelled, plain) > 20);
}

TEST_CASE("corpus .bwm renders framed with its footprint", "[render][bw2][corpus]") {
    const std::string root = corpusRoot();
    const QString file =
        QString::fromStdString(root) + "/bw2/WilliamESE+bw2ModelEditor/Models/m_norse_chieftains_grave.bwm";
    if (root.empty() || !QFileInfo::exists(file)) {
        RIGSCOPE_SKIP("m_norse_chieftains_grave.bwm not in the corpus");
    }
    rs::Document doc = rs::Resolver().read(file.toStdString());
    REQUIRE(doc.model);
    REQUIRE_FALSE(doc.model->pointSets.empty());
    rs::render::ViewOptions o;
    const QImage on = shot(doc.model, file, o);
    REQUIRE_FALSE(on.isNull());
    const QRect box = foreground(on, kBg);
    CHECK(countDifferent(on, kBg) > 2000);
    CHECK(std::max(box.width() / double(on.width()), box.height() / double(on.height())) > 0.4);
    o.pointSets = false;
    const QImage off = shot(doc.model, file, o);
    CHECK(countChanged(on, off) > 20);
    if (const QString dir = qEnvironmentVariable("RIGSCOPE_TEST_DUMP"); !dir.isEmpty()) {
        on.save(dir + QStringLiteral("/bwm_footprint_on.png"));
        off.save(dir + QStringLiteral("/bwm_footprint_off.png"));
    }
}
