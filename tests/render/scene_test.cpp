// Pixel tests of the scene built from in-code models (see test_models.h).
#include "frame_graph.h"
#include "render_harness.h"

#include "resolve/resolver.h"
#include "test_models.h"
#include "textures.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QPainter>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTimer>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QRenderCapabilities>
#include <Qt3DRender/QRenderSettings>

using rs::render::ViewOptions;
using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

ViewOptions plain() {
    ViewOptions o;
    o.grid = false;
    o.background = kBg;
    return o;
}

// Shows the figure with options at time t (seconds) and returns the frame.
QImage shot(const ViewOptions& o, float t = 0.0f, std::shared_ptr<rs::Clip> clip = nullptr,
            std::shared_ptr<rs::Model> model = nullptr, const QString& path = {}) {
    auto& v = view();
    v.setOptions(o);
    v.setModel(model ? model : makeFigure(), path);
    v.setClip(clip);
    v.setCameraAngles(20.0f, 10.0f);
    v.setTime(t);
    QImage img = grab();
    REQUIRE_FALSE(img.isNull());
    static int counter = 0;
    if (qEnvironmentVariableIsSet("RIGSCOPE_TEST_DUMP"))
        img.save(QDir(qEnvironmentVariable("RIGSCOPE_TEST_DUMP"))
                     .filePath(QString("shot%1.png").arg(counter++, 2, 10, QChar('0'))));
    return img;
}

// Uncompressed 24-bit TGA, stored bottom-up (the common orientation).
bool writeTga(const QImage& img, const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    QByteArray h(18, '\0');
    h[2] = 2;
    h[12] = char(img.width() & 255);
    h[13] = char(img.width() >> 8);
    h[14] = char(img.height() & 255);
    h[15] = char(img.height() >> 8);
    h[16] = 24;
    QByteArray px;
    for (int y = img.height() - 1; y >= 0; --y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            px.append(char(qBlue(c))).append(char(qGreen(c))).append(char(qRed(c)));
        }
    return f.write(h) == 18 && f.write(px) == px.size();
}

double hueOf(QRgb c) { return QColor(c).hsvHueF() * 360.0; }

} // namespace

TEST_CASE("figure is visible and framed", "[render]") {
    QImage img = shot(plain());
    const int fg = countDifferent(img, kBg);
    INFO("foreground pixels " << fg << " of " << img.width() * img.height());
    CHECK(fg > img.width() * img.height() / 20);
    const QRect box = foreground(img, kBg);
    INFO("foreground box " << box.x() << "," << box.y() << " " << box.width() << "x" << box.height());
    CHECK(box.left() > 2);
    CHECK(box.top() > 2);
    CHECK(box.right() < img.width() - 3);
    CHECK(box.bottom() < img.height() - 3);
    CHECK(std::max(box.width() / double(img.width()), box.height() / double(img.height())) > 0.5);
}

TEST_CASE("two frames of a clip differ where the arm moves", "[render]") {
    auto clip = makeArmClip();
    QImage a = shot(plain(), 0.0f, clip);
    QImage b = shot(plain(), 0.5f, clip); // frame 5: arm raised 45 degrees
    const int changed = countChanged(a, b);
    INFO("changed pixels " << changed);
    CHECK(changed > 400);
    // The arm is on the figure's +X side; the flag (-X side) does not move.
    QImage c = shot(plain(), 0.0f, nullptr);
    CHECK(countChanged(a, c) == 0); // frame 0 of the clip equals the bind pose
}

TEST_CASE("LOD and ALT levels change what is drawn", "[render]") {
    ViewOptions o = plain();
    o.lod = 0;
    QImage lod0 = shot(o);
    o.lod = 1;
    QImage lod1 = shot(o);
    ViewOptions hi = plain(); // -1 = highest present = LOD1
    QImage lodDefault = shot(hi);
    CHECK(countChanged(lod0, lod1) > 300);
    CHECK(countChanged(lod1, lodDefault) == 0);
    o = plain();
    o.alt = 0;
    QImage alt0 = shot(o);
    o.alt = 1;
    QImage alt1 = shot(o);
    CHECK(countChanged(alt0, alt1) > 100);
    // ALT1 hat is red: red pixels appear only with ALT 1.
    auto reds = [](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                QColor c(img.pixel(x, y));
                n += c.red() > 80 && c.red() > 2 * c.green() && c.red() > 2 * c.blue();
            }
        return n;
    };
    CHECK(reds(alt0) == 0);
    CHECK(reds(alt1) > 50);
}

TEST_CASE("faction colour changes the hue of FC_ pixels", "[render]") {
    ViewOptions o = plain();
    o.dazzles = false;
    o.factionColor = QColor(220, 30, 30);
    QImage red = shot(o);
    o.factionColor = QColor(30, 60, 230);
    QImage blue = shot(o);
    const QRect box = changedBox(red, blue);
    const int changed = countChanged(red, blue);
    INFO("changed " << changed);
    REQUIRE(changed > 200);
    int redHue = 0, blueHue = 0, n = 0;
    for (int y = box.top(); y <= box.bottom(); ++y)
        for (int x = box.left(); x <= box.right(); ++x) {
            if (QColor(red.pixel(x, y)).hsvSaturation() < 60 || QColor(blue.pixel(x, y)).hsvSaturation() < 60) continue;
            ++n;
            const double hr = hueOf(red.pixel(x, y)), hb = hueOf(blue.pixel(x, y));
            redHue += (hr < 20 || hr > 340);
            blueHue += (hb > 200 && hb < 250);
        }
    REQUIRE(n > 100);
    CHECK(redHue > n * 9 / 10);
    CHECK(blueHue > n * 9 / 10);
}

TEST_CASE("dazzles blink and night-only dazzles need night mode", "[render]") {
    ViewOptions o = plain();
    o.factionColor = QColor(30, 200, 40); // green beacon
    QImage on = shot(o, 0.25f);           // a = 0.25 <= bias 0.5: sin(0.25 pi) visible
    QImage off = shot(o, 0.75f);          // a = 0.75 > bias: off
    const int blinkChanged = countChanged(on, off);
    INFO("blink changed " << blinkChanged);
    CHECK(blinkChanged > 50);
    // The changed pixels are green (hue of the faction colour, not the dazzle's stored red).
    const QRect box = changedBox(on, off);
    int green = 0, total = 0;
    for (int y = box.top(); y <= box.bottom(); ++y)
        for (int x = box.left(); x <= box.right(); ++x) {
            QColor a(on.pixel(x, y)), b(off.pixel(x, y));
            if (std::abs(a.green() - b.green()) + std::abs(a.red() - b.red()) < 40) continue;
            ++total;
            green += a.green() > a.red() && a.green() > a.blue();
        }
    CHECK(total > 20);
    CHECK(green > total * 8 / 10);
    QImage day = shot(o, 0.75f);
    o.night = true;
    QImage night = shot(o, 0.75f);
    CHECK(countChanged(day, night) > 50);
    CHECK(countChanged(day, off) == 0);
}

TEST_CASE("a found texture replaces the checker placeholder", "[render]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // Stripes texture written by the test (TGA via QImage), found case-insensitively.
    QImage tex(64, 64, QImage::Format_RGB32);
    QPainter p(&tex);
    for (int i = 0; i < 8; ++i)
        p.fillRect(0, i * 8, 64, 8, i % 2 ? QColor(240, 200, 40) : QColor(40, 160, 220));
    p.end();
    REQUIRE(writeTga(tex, dir.filePath("stripes_test.tga")));
    const QString modelPath = dir.filePath("Figure.alo");
    auto model = makeFigure("STRIPES_TEST.TGA");
    ViewOptions o = plain();
    o.lod = 1;
    QImage found = shot(o, 0.0f, nullptr, model, modelPath);
    auto texInfo = view().textures();
    bool resolved = false;
    for (const auto& t : texInfo)
        if (t.name == "STRIPES_TEST.TGA") {
            resolved = !t.path.isEmpty() && t.loaded;
            UNSCOPED_INFO("texture " << t.name.toStdString() << " -> '" << t.path.toStdString() << "' "
                                     << t.error.toStdString());
        }
    CHECK(resolved);
    QImage missing = shot(o, 0.0f, nullptr, makeFigure("does_not_exist.tga"), modelPath);
    bool reported = false;
    for (const auto& t : view().textures())
        if (t.name == "does_not_exist.tga") reported = t.path.isEmpty();
    CHECK(reported);
    CHECK(countChanged(found, missing) > 500);
    auto magenta = [](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                QColor c(img.pixel(x, y));
                n += c.red() > 90 && c.blue() > 90 && c.green() < c.red() / 2;
            }
        return n;
    };
    // A missing texture is drawn in a neutral grey, not as a magenta checker (issue 12).
    CHECK(magenta(missing) == 0);
    CHECK(magenta(found) == 0);
    auto greyish = [](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c(img.pixel(x, y));
                // Grey as the rig lights it: red = green, blue a little higher (the lights' tint; e.g. 63,63,105),
                // not only the faces lit brightest (how many of those show depends on the framing).
                n += c.red() > 20 && std::abs(c.red() - c.green()) < 12 && c.blue() >= c.red() - 16 &&
                     c.blue() <= c.red() + 60;
            }
        return n;
    };
    CHECK(greyish(missing) > greyish(found) + 300);
    auto yellow = [](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                QColor c(img.pixel(x, y));
                n += c.red() > 90 && c.green() > 70 && c.blue() < c.green() / 2;
            }
        return n;
    };
    CHECK(yellow(found) > 300);
}

TEST_CASE("hidden bones hide what is attached to them", "[render]") {
    ViewOptions o = plain();
    QImage all = shot(o);
    view().setBoneHidden(3, true); // Head: hat
    QImage noHat = grab();
    CHECK(countChanged(all, noHat) > 100);
    view().setBoneHidden(3, false);
    QImage back = grab();
    CHECK(countChanged(all, back) == 0);
}

TEST_CASE("dazzles sample their atlas cell", "[render][dazzle]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // 2x2 atlas: top-left red, top-right green, bottom-left blue, bottom-right white.
    QImage atlas(64, 64, QImage::Format_RGB32);
    QPainter p(&atlas);
    p.fillRect(0, 0, 32, 32, QColor(255, 0, 0));
    p.fillRect(32, 0, 32, 32, QColor(0, 255, 0));
    p.fillRect(0, 32, 32, 32, QColor(0, 0, 255));
    p.fillRect(32, 32, 32, 32, QColor(255, 255, 255));
    p.end();
    REQUIRE(writeTga(atlas, dir.filePath("atlas.tga")));
    {
        QString err;
        const QImage back = rs::render::decodeTextureFile(rs::Resolver(), dir.filePath("atlas.tga"), &err);
        REQUIRE_FALSE(back.isNull());
        CHECK(back.pixel(0, 0) == qRgb(255, 0, 0));
        CHECK(back.pixel(63, 0) == qRgb(0, 255, 0));
    }
    auto dominant = [&](int texX, int texY) {
        auto m = makeFigure();
        rs::Dazzle& dz = m->dazzles[0];
        dz.texture = "ATLAS.TGA";
        dz.texSize = 2;
        dz.texX = texX;
        dz.texY = texY;
        dz.frequency = 0.0f;
        dz.colorize = false;
        dz.name = "Lamp";
        dz.color = {1, 1, 1};
        dz.radius = 0.8f;
        ViewOptions o = plain();
        QImage on = shot(o, 0.0f, nullptr, m, dir.filePath("fig.alo"));
        bool found = false;
        for (const auto& t : view().textures())
            if (t.parameter == "Dazzle") found = t.loaded;
        CHECK(found);
        o.dazzles = false;
        QImage off = shot(o, 0.0f, nullptr, m, dir.filePath("fig.alo"));
        const QRect box = changedBox(on, off);
        int r = 0, g = 0, b = 0;
        for (int y = box.top(); y <= box.bottom(); ++y)
            for (int x = box.left(); x <= box.right(); ++x) {
                const QRgb a = on.pixel(x, y), c = off.pixel(x, y);
                r += std::max(0, qRed(a) - qRed(c));
                g += std::max(0, qGreen(a) - qGreen(c));
                b += std::max(0, qBlue(a) - qBlue(c));
            }
        INFO("cell " << texX << "," << texY << " added r " << r << " g " << g << " b " << b);
        REQUIRE(r + g + b > 1000);
        return r > 2 * (g + b) ? 'r' : g > 2 * (r + b) ? 'g' : b > 2 * (r + g) ? 'b' : 'w';
    };
    CHECK(dominant(0, 0) == 'r');
    CHECK(dominant(1, 0) == 'g');
    CHECK(dominant(0, 1) == 'b');
    CHECK(dominant(1, 1) == 'w');
}

TEST_CASE("a view whose window was destroyed by its owner stays safe", "[render]") {
    auto* v = new rs::render::SceneView;
    v->setModel(makeFigure(), {});
    delete v->window(); // what a widget container does when it is destroyed first
    v->setModel(makeFigure(), {});
    v->setTime(1.0f);
    bool called = false;
    v->capture([&](const QImage& img) { called = img.isNull(); });
    CHECK(called);
    delete v;
}

// A fresh view of its own: the shared one keeps the programs of earlier tests.
TEST_CASE("shader programs are made only for what is drawn", "[render][programs]") {
    rs::render::SceneView v;
    v.window()->resize(320, 240);
    v.window()->show();
    ViewOptions o = plain();
    o.labels = false;
    o.dazzles = false;
    o.proxies = o.markers = o.pointSets = false; // line overlays
    v.setOptions(o);
    v.setModel(makeFigure(), {});
    const int meshOnly = v.shaderProgramCount();
    CHECK(meshOnly >= 1); // the figure's visible mesh variants; no wire, line, label or dazzle program
    CHECK(meshOnly <= 3);
    o.wireframe = true;
    v.setOptions(o);
    CHECK(v.shaderProgramCount() == meshOnly + 1); // the wire program
    o.grid = true;
    v.setOptions(o);
    CHECK(v.shaderProgramCount() == meshOnly + 2); // the line program
    o.showSkeleton = true;                         // lines too: same program
    v.setOptions(o);
    CHECK(v.shaderProgramCount() == meshOnly + 2);
    o.wireframe = o.grid = o.showSkeleton = false;
    v.setOptions(o);
    CHECK(v.shaderProgramCount() == meshOnly + 2); // made once, kept
}

TEST_CASE("one capture right after setModel returns the complete first frame", "[render][capture]") {
    rs::render::SceneView v;
    v.window()->resize(320, 240);
    v.window()->show();
    v.setOptions(plain());
    v.setModel(makeFigure(), {});
    v.setCameraAngles(20.0f, 10.0f);
    auto captureOnce = [&] {
        QImage out;
        bool done = false;
        QEventLoop loop;
        QTimer::singleShot(20000, &loop, &QEventLoop::quit);
        v.capture([&](const QImage& img) {
            out = img;
            done = true;
            loop.quit();
        });
        if (!done) loop.exec();
        return out;
    };
    const QImage first = captureOnce(); // programs compiled in this wait: Qt3D draws with them two frames later
    REQUIRE_FALSE(first.isNull());
    CHECK(countDifferent(first, kBg) > 500);
    const QImage again = captureOnce();
    REQUIRE_FALSE(again.isNull());
    CHECK(countChanged(first, again) < first.width() * first.height() / 200);
}

TEST_CASE("the view is multisampled on hardware only", "[render][msaa]") {
    qunsetenv("RIGSCOPE_MSAA");
    CHECK(rs::render::viewSamples("llvmpipe (LLVM 15.0.6, 256 bits)") == 0);
    CHECK(rs::render::viewSamples("softpipe") == 0);
    CHECK(rs::render::viewSamples("Google SwiftShader") == 0);
    CHECK(rs::render::viewSamples("AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)") == 4);
    CHECK(rs::render::viewSamples("Mesa Intel(R) UHD Graphics 620 (KBL GT2)") == 4);
    qputenv("RIGSCOPE_MSAA", "2");
    CHECK(rs::render::viewSamples("llvmpipe (LLVM 15.0.6, 256 bits)") == 2);
    qunsetenv("RIGSCOPE_MSAA");

    // This machine renders with llvmpipe: the window and the format Qt3D makes its GL context from have no
    // samples (a multisampled window triples the CPU time of a frame here).
    auto& v = view();
    const QString renderer = v.window()->renderSettings()->renderCapabilities()->renderer();
    INFO("GL_RENDERER " << renderer.toStdString());
    const int want = rs::render::viewSamples(renderer);
    CHECK(v.window()->format().samples() == want);
    CHECK(QSurfaceFormat::defaultFormat().samples() == want);
    if (renderer.contains("llvmpipe")) CHECK(want == 0);
}

TEST_CASE("a fixed orbit holds the model at every time of its clip", "[render][orbit]") {
    // The body walks 6 units along +X over the clip: framed from the first pose only, it leaves the view.
    auto clip = std::make_shared<rs::Clip>();
    clip->name = "walk";
    clip->frameCount = 11;
    clip->fps = 10.0f;
    rs::BoneTrack t;
    t.bone = 1;
    t.boneName = "Body";
    for (int f = 0; f < 11; ++f)
        t.translation.push_back({0.6f * float(f), 0.0f, 0.0f});
    clip->tracks.push_back(t);
    auto& v = view();
    struct Restore {
        rs::render::SceneView& v;
        ~Restore() { v.setFixedOrbit(false); }
    } restore{v};
    v.setOptions(plain());
    v.setModel(makeFigure(), {});
    v.setClip(clip);
    v.setFixedOrbit(true);
    for (const float yaw : {0.0f, 90.0f, 200.0f})
        for (const float time : {0.0f, 0.5f, 1.0f}) {
            v.setCameraAngles(yaw, 10.0f);
            v.setTime(time);
            const QImage img = grab();
            REQUIRE_FALSE(img.isNull());
            const QRect box = foreground(img, kBg);
            INFO("yaw " << yaw << " time " << time << ": foreground box " << box.x() << "," << box.y() << " "
                        << box.width() << "x" << box.height() << " of " << img.width() << "x" << img.height());
            CHECK(countDifferent(img, kBg) > 200);
            CHECK(box.left() > 0);
            CHECK(box.top() > 0);
            CHECK(box.right() < img.width() - 1);
            CHECK(box.bottom() < img.height() - 1);
        }
}
