// W3D spheres and rings (chunks 0x741 / 0x742) drawn as ww3d2 draws them: a writer-made .w3d holding an additive
// sphere whose colour, alpha and scale are keyframed and an alpha-blended ring whose outer scale grows; the frames at
// several times differ where the keys say (a bigger, brighter sphere; a wider ring), and nothing is drawn with the
// Particles toggle off.
#include "render_harness.h"

#include "orbit_camera.h"
#include "resolve/resolver.h"
#include "texture/texture_writer.h"
#include "w3d/w3d_primitive_mesh.h"
#include "w3d/w3d_writer.h"
#include "w3d_fixtures.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>

#include <cmath>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

rs::render::ViewOptions plainOptions() {
    rs::render::ViewOptions o;
    o.grid = false;
    o.dazzles = false;
    o.labels = false;
    o.markers = false;
    o.showSkeleton = false;
    o.background = kBg;
    return o;
}

// A unit with a small plate (framing), an additive looping sphere on BODY (2 s: scale 0.3 -> 1.2 at 1 s, colour
// dark red -> bright green, alpha 0.2 -> 1) and an alpha ring on ARM (outer scale 0.5 -> 2 over 1 s, one-shot).
std::vector<uint8_t> primitivesUnit() {
    rs::w3d::ChunkWriter cw;
    rs::w3d::writeHierarchy(cw, testHierarchy());
    rs::w3d::Sphere s;
    s.version = 0x10000;
    s.flags = 8; // looping
    s.name = "UNIT.BLAST";
    s.extent = {1, 1, 1};
    s.duration = 2.0f;
    s.shader.srcBlend = 1;
    s.shader.destBlend = 1; // additive
    s.colorKeys = {{{0.3f, 0, 0}, 0.0f}, {{0, 1, 0.2f}, 0.5f}};
    s.alphaKeys = {{0.2f, 0.0f}, {1.0f, 0.5f}};
    s.scaleKeys = {{{0.3f, 0.3f, 0.3f}, 0.0f}, {{1.2f, 1.2f, 1.2f}, 0.5f}};
    rs::w3d::writeSphere(cw, s);
    rs::w3d::Ring r;
    r.version = 0x10000;
    r.flags = 0; // one-shot, in the bone's XY plane
    r.name = "UNIT.WAVE";
    r.duration = 1.0f;
    r.color = {1.0f, 1.0f, 0.2f};
    r.alpha = 0.9f;
    r.shader.srcBlend = 2;
    r.shader.destBlend = 5; // alpha
    r.innerExtent = {0.3f, 0.3f};
    r.outerExtent = {1.0f, 1.0f};
    r.outerScaleKeys = {{{0.5f, 0.5f}, 0.0f}, {{2.0f, 2.0f}, 1.0f}};
    rs::w3d::writeRing(cw, r);
    rs::w3d::writeMesh(cw, testQuad("PLATE", "UNIT"));
    rs::w3d::Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    rs::w3d::LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "UNIT.PLATE"}};
    h.lods = {lod};
    h.aggregates = {{1, "BLAST"}, {2, "WAVE"}};
    rs::w3d::writeHlod(cw, h);
    return cw.take();
}

// The fixture's skeleton and plate with one sphere or ring (name "UNIT.FX") on BODY, whose world position is (1, 2, 3)
// (its frame turned 90 degrees about Z).
std::vector<uint8_t> unitWith(const rs::w3d::Sphere* s, const rs::w3d::Ring* r) {
    rs::w3d::ChunkWriter cw;
    rs::w3d::writeHierarchy(cw, testHierarchy());
    if (s) rs::w3d::writeSphere(cw, *s);
    if (r) rs::w3d::writeRing(cw, *r);
    rs::w3d::writeMesh(cw, testQuad("PLATE", "UNIT"));
    rs::w3d::Hlod h;
    h.name = "UNIT";
    h.hierarchy = "TEST_SKL";
    rs::w3d::LodArray lod;
    lod.maxScreenSize = 3.0e38f;
    lod.objects = {{1, "UNIT.PLATE"}};
    h.lods = {lod};
    h.aggregates = {{1, "FX"}};
    rs::w3d::writeHlod(cw, h);
    return cw.take();
}

void writeFile(const QString& path, const std::vector<uint8_t>& bytes) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
}

// An 8x8 two-colour TGA by the project's writer: `a` where u < 0.5 (or, with rows, v < 0.5: the top rows), `b`
// elsewhere.
void writeTwoColourTga(const QString& path, QColor a, QColor b, bool rows) {
    rs::Image img;
    img.width = img.height = 8;
    img.hasAlpha = true;
    img.rgba.resize(8 * 8 * 4);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const QColor c = (rows ? y < 4 : x < 4) ? a : b;
            uint8_t* p = &img.rgba[size_t((y * 8 + x) * 4)];
            p[0] = uint8_t(c.red()), p[1] = uint8_t(c.green()), p[2] = uint8_t(c.blue()), p[3] = 255;
        }
    const std::vector<uint8_t> bytes = rs::writeTga(img, rs::TgaKind::TrueColour32, false, true);
    writeFile(path, bytes);
}

bool near(QRgb p, QColor c, int tol = 40) {
    return std::abs(qRed(p) - c.red()) <= tol && std::abs(qGreen(p) - c.green()) <= tol &&
           std::abs(qBlue(p) - c.blue()) <= tol;
}

struct ColourStats {
    int count = 0;
    double x = 0, y = 0; // centroid
};
ColourStats statsOf(const QImage& img, QColor c) {
    ColourStats s;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (near(img.pixel(x, y), c)) {
                ++s.count;
                s.x += x;
                s.y += y;
            }
    if (s.count) s.x /= s.count, s.y /= s.count;
    return s;
}

// Loads `bytes` as path into the shared view, camera looking at BODY (1, 2, 3) from `distance` at the angles.
rs::Document showAt(const QString& path, const std::vector<uint8_t>& bytes, float yaw, float pitch, float distance) {
    writeFile(path, bytes);
    rs::Document doc = rs::Resolver().read(path.toStdString());
    REQUIRE(doc.model);
    auto& v = view();
    rs::render::ViewOptions o = plainOptions();
    v.setOptions(o);
    v.setModel(doc.model, path);
    rs::render::OrbitCamera c = v.orbitCamera();
    c.target = glm::vec3(1, 2, 3);
    c.yaw = yaw;
    c.pitch = pitch;
    c.distance = distance;
    v.setOrbitCamera(c);
    v.setTime(0.0f);
    return doc;
}

// Red/blue changes met going once round the circle of radius rPx about the image centre (pixels of neither colour
// are skipped).
int colourChangesRound(const QImage& img, double rPx, QColor a, QColor b) {
    int changes = 0, last = -1, first = -1;
    for (int k = 0; k < 720; ++k) {
        const double ang = 2.0 * 3.14159265358979 * k / 720.0;
        const int x = int(std::lround(img.width() / 2.0 + rPx * std::cos(ang)));
        const int y = int(std::lround(img.height() / 2.0 + rPx * std::sin(ang)));
        if (x < 0 || y < 0 || x >= img.width() || y >= img.height()) continue;
        const QRgb p = img.pixel(x, y);
        const int cls = near(p, a) ? 0 : near(p, b) ? 1 : -1;
        if (cls < 0) continue;
        if (first < 0) first = cls;
        if (last >= 0 && cls != last) ++changes;
        last = cls;
    }
    if (last >= 0 && first >= 0 && last != first) ++changes; // closing the circle
    return changes;
}

int greener(const QImage& a, const QImage& b, int by) { // pixels whose green rose by more than `by` from a to b
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (qGreen(b.pixel(x, y)) > qGreen(a.pixel(x, y)) + by) ++n;
    return n;
}

} // namespace

TEST_CASE("W3D spheres and rings animate their keyframed colour, alpha and scale", "[render][w3d][fx]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("unit.w3d");
    const std::vector<uint8_t> bytes = primitivesUnit();
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
    }
    const rs::Document doc = rs::Resolver().read(path.toStdString());
    REQUIRE(doc.model);
    int withFx = 0;
    for (const rs::Marker& m : doc.model->markers)
        if (m.fx) ++withFx;
    REQUIRE(withFx == 2);
    auto& v = view();
    rs::render::ViewOptions o = plainOptions();
    v.setOptions(o);
    v.setModel(doc.model, path);
    v.setCameraAngles(30.0f, 35.0f);

    o.particles = false;
    v.setOptions(o);
    v.setTime(0.0f);
    const QImage off = grab();
    CHECK(v.primitivesDrawn() == 0);
    o.particles = true;
    v.setOptions(o);
    v.setTime(0.0f);
    const QImage start = grab();
    CHECK(v.primitivesDrawn() == 2);
    v.setTime(1.0f); // sphere at its keys' end (scale 1.2, green, alpha 1); ring at outer scale 2
    const QImage later = grab();
    REQUIRE_FALSE(off.isNull());
    REQUIRE_FALSE(start.isNull());
    REQUIRE_FALSE(later.isNull());
    const int drawnAtStart = countChanged(off, start, 24);
    const int changedOverTime = countChanged(start, later, 24);
    const int green = greener(start, later, 60);
    INFO("drawn at 0 s " << drawnAtStart << ", changed 0 -> 1 s " << changedOverTime << ", greener " << green);
    CHECK(drawnAtStart > 100);             // something is drawn at 0 s (the small dark sphere and the ring)
    CHECK(changedOverTime > drawnAtStart); // the sphere and ring grew
    CHECK(green > 300);                    // the sphere turned bright green
    // Looping sphere: at 2.5 s it is a quarter into its second loop (normalised 0.25: half-way between its first keys,
    // smaller and less green than at 1 s; the one-shot ring stays at its last key).
    v.setTime(2.5f);
    const QImage looped = grab();
    REQUIRE_FALSE(looped.isNull());
    CHECK(greener(looped, later, 60) > 300);
    CHECK(v.primitivesNotDrawn().isEmpty()); // no texture to miss
    v.setModel(nullptr, QString());
}

TEST_CASE("W3D ring texture: drawn with ww3d2's UVs and its tiling, missing texture named", "[render][w3d][fx]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QColor red(230, 20, 20), blue(20, 20, 230);
    writeTwoColourTga(dir.filePath("halves.tga"), red, blue, false);
    rs::w3d::Ring r;
    r.version = 0x10000;
    r.name = "UNIT.FX";
    r.color = {1, 1, 1};
    r.alpha = 1.0f;
    r.shader.srcBlend = 1;
    r.shader.destBlend = 0; // opaque: the texture's colours as they are (primary gradient: modulate by white)
    r.innerExtent = {0.5f, 0.5f};
    r.outerExtent = {1.5f, 1.5f};
    r.texture = "halves.tga";
    auto& v = view();
    // Seen from straight above at 5 units: the ring's middle (radius 1) is 120 / tan(20 deg) / 5 = 66 px out.
    const double midPx = 120.0 / std::tan(glm::radians(20.0)) / 5.0;
    for (int tiles : {1, 3}) {
        INFO("tiles " << tiles);
        r.textureTiles = tiles;
        showAt(dir.filePath("ring.w3d"), unitWith(nullptr, &r), 0.0f, rs::render::OrbitCamera::kMaxPitch, 5.0f);
        const QImage img = grab();
        REQUIRE_FALSE(img.isNull());
        CHECK(v.primitivesDrawn() == 1);
        CHECK(v.primitivesNotDrawn().isEmpty());
        const ColourStats reds = statsOf(img, red), blues = statsOf(img, blue);
        INFO("red " << reds.count << " blue " << blues.count);
        CHECK(reds.count > 500); // both halves of the texture are on the ring
        CHECK(blues.count > 500);
        // u = tiles * i / 28 around: the two colours alternate 2 * tiles times round the ring.
        CHECK(colourChangesRound(img, midPx, red, blue) == 2 * tiles);
        if (tiles == 1) { // one half each side of the centre
            const double dot = (reds.x - 160) * (blues.x - 160) + (reds.y - 120) * (blues.y - 120);
            CHECK(dot < 0);
        }
    }
    // Particles off: nothing drawn.
    rs::render::ViewOptions o = plainOptions();
    o.particles = false;
    v.setOptions(o);
    v.setTime(0.0f);
    const QImage off = grab();
    CHECK(v.primitivesDrawn() == 0);
    CHECK(statsOf(off, red).count + statsOf(off, blue).count < 20);
    // A texture not found: drawn untextured, named missing in the texture list and in what is not drawn.
    r.texture = "nothere.tga";
    showAt(dir.filePath("ring2.w3d"), unitWith(nullptr, &r), 0.0f, rs::render::OrbitCamera::kMaxPitch, 5.0f);
    const QImage plain = grab();
    REQUIRE_FALSE(plain.isNull());
    CHECK(v.primitivesDrawn() == 1);
    REQUIRE(v.primitivesNotDrawn().size() == 1);
    CHECK(v.primitivesNotDrawn()[0].contains("nothere.tga not found"));
    bool listed = false;
    for (const rs::render::TextureInfo& t : v.textures())
        if (t.name == "nothere.tga" && t.path.isEmpty() && t.parameter == "RingTexture") listed = true;
    CHECK(listed);
    CHECK(statsOf(plain, QColor(255, 255, 255)).count > 500); // white ring
    v.setModel(nullptr, QString());
}

TEST_CASE("W3D sphere texture: ww3d2's latitude/longitude mapping (top rows at the north pole)", "[render][w3d][fx]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QColor green(20, 220, 20), yellow(230, 230, 20);
    writeTwoColourTga(dir.filePath("bands.tga"), green, yellow, true);
    rs::w3d::Sphere s;
    s.version = 0x10000;
    s.name = "UNIT.FX";
    s.extent = {1, 1, 1};
    s.color = {1, 1, 1};
    s.shader.srcBlend = 1;
    s.shader.destBlend = 0; // opaque
    s.texture = "bands.tga";
    auto& v = view();
    showAt(dir.filePath("sphere.w3d"), unitWith(&s, nullptr), 30.0f, 0.0f, 5.0f); // level: +Z is the screen's up
    const QImage img = grab();
    REQUIRE_FALSE(img.isNull());
    CHECK(v.primitivesDrawn() == 1);
    const ColourStats g = statsOf(img, green), y = statsOf(img, yellow);
    INFO("green " << g.count << " at y " << g.y << ", yellow " << y.count << " at y " << y.y);
    CHECK(g.count > 1000);
    CHECK(y.count > 1000);
    CHECK(g.y < 120.0); // v < 0.5: the northern (+Z) half, above the centre
    CHECK(y.y > 120.0);
    v.setModel(nullptr, QString());
}

TEST_CASE("W3D sphere alpha vector: centre and edge alpha as Set_Alpha_Vector computes them", "[render][w3d][fx]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    rs::w3d::Sphere s;
    s.version = 0x10000;
    s.name = "UNIT.FX";
    s.extent = {1, 1, 1};
    s.color = {1, 1, 1};
    s.alpha = 1.0f;
    s.shader.srcBlend = 2;
    s.shader.destBlend = 5;    // alpha blended
    s.vector.intensity = 0.8f; // identity rotation: the vector is the sphere's +X, towards the viewer when aligned
    auto& v = view();
    // The view looks at the sphere's centre: the screen centre sees the sphere's +X (front) and -X (back) surfaces.
    // Both lie inside a quad of the 14 x 14 mesh whose four corners have the same |normal . X| (polar angles
    // 7 and 8 pi / 15, azimuths 3 and 4 of 14 slices), so the drawn alpha there is that corner value exactly.
    const double a = 3.14159265358979 * 7.0 / 15.0, b = 2.0 * 3.14159265358979 * 3.0 / 14.0;
    const double facing = std::sin(a) * std::sin(b);
    const double edgePx = 120.0 / std::tan(glm::radians(20.0)) / std::sqrt(24.0); // silhouette radius
    rs::render::ViewOptions o = plainOptions();
    for (bool inverse : {false, true}) {
        INFO((inverse ? "inverse" : "normal"));
        s.flags = 1u | 2u | (inverse ? 4u : 0u); // alpha vector, camera aligned
        showAt(dir.filePath(inverse ? "inv.w3d" : "vec.w3d"), unitWith(&s, nullptr), 40.0f, 25.0f, 5.0f);
        o.particles = false;
        v.setOptions(o);
        v.setTime(0.0f);
        const QImage off = grab();
        o.particles = true;
        v.setOptions(o);
        v.setTime(0.0f);
        const QImage on = grab();
        REQUIRE_FALSE(off.isNull());
        REQUIRE_FALSE(on.isNull());
        const double d = std::min(1.0, 0.8 * facing);
        const double layer = inverse ? d : 1.0 - d; // per surface
        const double A = 1.0 - (1.0 - layer) * (1.0 - layer);
        // Centre pixel: the background (the same pixel with Particles off) under two layers of white at `layer`.
        for (auto [x, y] : {std::pair{160, 120}, std::pair{159, 119}}) {
            const QRgb bg = off.pixel(x, y), got = on.pixel(x, y);
            for (int ch = 0; ch < 3; ++ch) {
                const int bgc = ch == 0 ? qRed(bg) : ch == 1 ? qGreen(bg) : qBlue(bg);
                const int gc = ch == 0 ? qRed(got) : ch == 1 ? qGreen(got) : qBlue(got);
                const double want = bgc * (1.0 - A) + 255.0 * A;
                INFO("pixel " << x << "," << y << " channel " << ch << " background " << bgc << " got " << gc
                              << " want " << want << " (alpha " << A << ")");
                CHECK(std::abs(gc - want) <= 3.0); // 8-bit rounding of the blend
            }
        }
        // Near the silhouette the surfaces are seen edge-on: |normal . X| falls towards 0, so the alpha rises to 1
        // (normal) or falls to 0 (inverse). The alpha drawn at a pixel: (on - off) / (255 - off), per channel.
        auto alphaAt = [&](int x, int y) {
            const QRgb p0 = off.pixel(x, y), p1 = on.pixel(x, y);
            const int b0[3] = {qRed(p0), qGreen(p0), qBlue(p0)}, b1[3] = {qRed(p1), qGreen(p1), qBlue(p1)};
            double sum = 0;
            int n = 0;
            for (int ch = 0; ch < 3; ++ch)
                if (255 - b0[ch] > 40) sum += double(b1[ch] - b0[ch]) / double(255 - b0[ch]), ++n;
            return n ? sum / n : -1.0;
        };
        int brighter = 0, darker = 0;
        for (int k = 0; k < 8; ++k) {
            const double ang = k * 3.14159265358979 / 4.0;
            const int x = int(std::lround(160 + 0.9 * edgePx * std::cos(ang)));
            const int y = int(std::lround(120 + 0.9 * edgePx * std::sin(ang)));
            const double e = alphaAt(x, y);
            INFO("edge " << k << " alpha " << e << " centre " << A);
            if (e > A + 0.15) ++brighter;
            if (e >= 0.0 && e < A - 0.15) ++darker;
        }
        INFO("edge samples brighter than the centre " << brighter << ", darker " << darker);
        CHECK((inverse ? darker : brighter) == 8);
        CHECK(v.primitivesNotDrawn().isEmpty());
    }
    v.setModel(nullptr, QString());
}
