// W3D collision boxes (0x740) drawn as ww3d2 draws them (boxrobj.cpp) under the View's Collision toggle: an
// axis-aligned box (W3D_BOX_ATTRIBUTE_ALIGNED, AABoxRenderObjClass) follows only its bone's translation, an oriented
// one (OBBoxRenderObjClass) turns with the bone. Writer-made file: two bones turned 45 degrees about Z, a magenta
// AABox on one and a yellow OBBox on the other, seen from above.
#include "render_harness.h"

#include "orbit_camera.h"
#include "resolve/resolver.h"
#include "w3d/w3d_writer.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>

#include <glm/gtc/quaternion.hpp>

#include <cmath>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60), kMagenta(255, 0, 255), kYellow(255, 255, 0);

bool near(QRgb p, QColor c, int tol = 40) {
    return std::abs(qRed(p) - c.red()) <= tol && std::abs(qGreen(p) - c.green()) <= tol &&
           std::abs(qBlue(p) - c.blue()) <= tol;
}

// Bounding box and count of the pixels of colour c.
struct Pixels {
    int count = 0;
    QRect box;
};
Pixels pixelsOf(const QImage& img, QColor c) {
    Pixels p;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (near(img.pixel(x, y), c)) {
                ++p.count;
                p.box = p.box.united(QRect(x, y, 1, 1));
            }
    return p;
}
// Pixels of colour c in the rows [y0, y1] (inclusive).
int inRows(const QImage& img, QColor c, int y0, int y1) {
    int n = 0;
    for (int y = std::max(0, y0); y <= std::min(img.height() - 1, y1); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += near(img.pixel(x, y), c) ? 1 : 0;
    return n;
}

std::vector<uint8_t> boxesFile() {
    rs::w3d::ChunkWriter cw;
    rs::w3d::Hierarchy h;
    h.version = 0x40001;
    h.name = "BOX_SKL";
    rs::w3d::Pivot root;
    root.name = "RootTransform";
    const glm::quat turn = glm::angleAxis(glm::radians(45.0f), glm::vec3(0, 0, 1));
    rs::w3d::Pivot a;
    a.name = "SPIN_A";
    a.parent = 0;
    a.translation = {-2, 0, 0};
    a.rotation = turn;
    rs::w3d::Pivot b = a;
    b.name = "SPIN_B";
    b.translation = {2, 0, 0};
    h.pivots = {root, a, b};
    rs::w3d::writeHierarchy(cw, h);
    rs::w3d::Box aa;
    aa.version = 0x10000;
    aa.attributes = 2; // W3D_BOX_ATTRIBUTE_ALIGNED
    aa.name = "UNIT.AABOX";
    aa.color = {255, 0, 255};
    aa.extent = {1, 1, 0.02f};
    rs::w3d::writeBox(cw, aa);
    rs::w3d::Box ob = aa;
    ob.attributes = 1; // W3D_BOX_ATTRIBUTE_ORIENTED
    ob.name = "UNIT.OBBOX";
    ob.color = {255, 255, 0};
    rs::w3d::writeBox(cw, ob);
    rs::w3d::Hlod hl;
    hl.name = "UNIT";
    hl.hierarchy = "BOX_SKL";
    rs::w3d::LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "UNIT.AABOX"}, {2, "UNIT.OBBOX"}};
    hl.lods = {lod};
    rs::w3d::writeHlod(cw, hl);
    return cw.take();
}

} // namespace

TEST_CASE("W3D boxes: drawn with the Collision toggle; an AABox keeps the model axes when its bone turns 45 degrees",
          "[render][w3d][boxes]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("boxes.w3d");
    {
        const std::vector<uint8_t> bytes = boxesFile();
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    const rs::Document doc = rs::Resolver().read(path.toStdString());
    REQUIRE(doc.model);
    auto& v = view();
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.labels = false;
    o.showSkeleton = false;
    o.background = kBg;
    o.markers = true; // the markers toggle does not draw collision boxes
    o.pointSets = false;
    v.setOptions(o);
    v.setModel(doc.model, path);
    rs::render::OrbitCamera c = v.orbitCamera();
    c.target = glm::vec3(0, 0, 0);
    c.yaw = 0.0f;
    c.pitch = rs::render::OrbitCamera::kMaxPitch; // from above: screen axes along world X and Y
    c.distance = 14.0f;
    v.setOrbitCamera(c);
    v.setTime(0.0f);
    const QImage off = grab();
    REQUIRE_FALSE(off.isNull());
    CHECK(pixelsOf(off, kMagenta).count == 0);
    CHECK(pixelsOf(off, kYellow).count == 0);

    o.pointSets = true; // View > Collision
    v.setOptions(o);
    const QImage on = grab();
    REQUIRE_FALSE(on.isNull());
    const Pixels aa = pixelsOf(on, kMagenta), ob = pixelsOf(on, kYellow);
    INFO("AABox " << aa.count << " px in " << aa.box.width() << "x" << aa.box.height() << " at " << aa.box.x() << ","
                  << aa.box.y() << "; OBBox " << ob.count << " px in " << ob.box.width() << "x" << ob.box.height());
    REQUIRE(aa.count > 40);
    REQUIRE(ob.count > 40);
    // Both boxes are 2 x 2 squares: the axis-aligned one is a square on screen, the turned one a diamond whose
    // bounding box is sqrt(2) wider.
    const double ratio = double(ob.box.width()) / double(aa.box.width());
    CHECK(ratio > 1.3);
    CHECK(ratio < 1.52);
    CHECK(std::abs(aa.box.width() - aa.box.height()) <= 3);
    // The AABox's top edge is a horizontal line across its whole width; the diamond's top is a single corner.
    CHECK(inRows(on, kMagenta, aa.box.top(), aa.box.top() + 1) > aa.box.width() * 7 / 10);
    CHECK(inRows(on, kYellow, ob.box.top(), ob.box.top() + 1) < ob.box.width() * 3 / 10);
    // Each box is drawn at its own bone (x = -2 and x = +2), not at the model origin.
    CHECK(std::abs(aa.box.center().x() - ob.box.center().x()) > aa.box.width());
    v.setModel(nullptr, QString());
}
