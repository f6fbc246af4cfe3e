// Real models from the corpus (skipped when it is absent): every Alamo model renders something framed, and
// an animated model's clip moves pixels.
#include "render_harness.h"

#include "resolve/resolver.h"

#include "skip.h"
#include <catch2/catch.hpp>

#include <QDirIterator>
#include <QFileInfo>
#include <QSet>

using namespace rs::test;

namespace {

const QColor kBg(48, 52, 60);

QStringList corpusModels() {
    QStringList out;
    const std::string root = corpusRoot();
    if (root.empty()) return out;
    QDirIterator it(QString::fromStdString(root) + "/alamo", QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (f.endsWith(".alo", Qt::CaseInsensitive)) out << f;
    }
    out.sort();
    return out;
}

QImage render(const std::shared_ptr<rs::Model>& m, const QString& path, std::shared_ptr<rs::Clip> clip, float t) {
    rs::render::ViewOptions o;
    o.grid = false;
    o.background = kBg;
    auto& v = view();
    v.setOptions(o);
    v.setModel(m, path);
    v.setClip(clip);
    v.setCameraAngles(30.0f, 20.0f);
    v.frameModel(); // on the clip's first frame (setModel frames the bind pose)
    v.setTime(t);
    return grab();
}

} // namespace

TEST_CASE("corpus Alamo models render framed", "[render][corpus]") {
    const QStringList models = corpusModels();
    if (models.isEmpty()) {
        RIGSCOPE_SKIP("corpus alamo folder not found (set RIGSCOPE_CORPUS)");
    }
    int rendered = 0;
    for (const QString& f : models) {
        rs::Document doc;
        try {
            doc = rs::Resolver().read(f.toStdString());
        } catch (const std::exception&) {
            continue; // particle systems and broken files are the readers' tests
        }
        if (!doc.model || doc.model->meshes.empty()) continue;
        INFO(f.toStdString());
        const QImage img = render(doc.model, f, nullptr, 0.0f);
        REQUIRE_FALSE(img.isNull());
        const QRect box = foreground(img, kBg);
        CHECK(countDifferent(img, kBg) > 200);
        CHECK(std::max(box.width() / double(img.width()), box.height() / double(img.height())) > 0.4);
        ++rendered;
    }
    CHECK(rendered >= 5);
}

TEST_CASE("corpus clip moves the model", "[render][corpus]") {
    const std::string root = corpusRoot();
    const QString model =
        QString::fromStdString(root) + "/alamo/Delta730+Imperial_Civil_War/Data/Art/Models/EI_STORMTROOPER.ALO";
    if (root.empty() || !QFileInfo::exists(model)) {
        RIGSCOPE_SKIP("EI_STORMTROOPER.ALO not in the corpus");
    }
    rs::Document doc = rs::Resolver().read(model.toStdString());
    const auto clips = rs::Resolver().companionClips(model.toStdString());
    REQUIRE_FALSE(clips.empty());
    std::shared_ptr<rs::Clip> clip;
    for (const std::string& c : clips)
        if (QString::fromStdString(c).contains("MOVE", Qt::CaseInsensitive)) clip = rs::Resolver().read(c).clips.at(0);
    REQUIRE(clip);
    const QImage a = render(doc.model, model, clip, 0.0f);
    const QImage b = render(doc.model, model, clip, clip->duration() * 0.5f);
    CHECK(countChanged(a, b) > 100);
    CHECK(view().bindingProblems().isEmpty());
}

// W3D (issue 5): a BFME skin with its hierarchy and an idle clip renders framed and moves between two frames;
// a building's .dds textures are found under art/compiledtextures/<2 letters>/; a clip file alone shows its
// hierarchy (bones drawn) moving.
namespace {
QString w3dDir(const char* sub) {
    const std::string root = corpusRoot();
    if (root.empty()) return {};
    const QString d = QString::fromStdString(root) + "/w3d/" + QLatin1String(sub);
    return QFileInfo(d).isDir() ? d : QString();
}
} // namespace

TEST_CASE("corpus W3D skin renders and its clip moves it", "[render][corpus][w3d]") {
    const QString dir = w3dDir("DarkAtra+bfme2-modding-utils/w3d/src/test/resources/models");
    if (dir.isEmpty() || !QFileInfo::exists(dir + "/guaragorn_skn.w3d")) {
        RIGSCOPE_SKIP("guaragorn_skn.w3d not in the corpus");
    }
    const QString model = dir + "/guaragorn_skn.w3d";
    rs::Document doc = rs::Resolver().read(model.toStdString());
    REQUIRE(doc.model);
    REQUIRE_FALSE(doc.model->meshes.empty());
    REQUIRE(doc.model->skeleton.bones.size() > 10);
    const auto clips = rs::Resolver().companionClips(model.toStdString());
    std::shared_ptr<rs::Clip> clip;
    for (const std::string& c : clips)
        if (QString::fromStdString(c).endsWith("guaragorn_idla.w3d", Qt::CaseInsensitive))
            clip = rs::Resolver().read(c).clips.at(0);
    REQUIRE(clip); // the idle clip names the skin's hierarchy: it is a companion
    REQUIRE(clip->frameCount > 20);

    const QImage a = render(doc.model, model, clip, 0.0f);
    REQUIRE_FALSE(a.isNull());
    const QRect box = foreground(a, kBg);
    CHECK(countDifferent(a, kBg) > 1000);
    CHECK(std::max(box.width() / double(a.width()), box.height() / double(a.height())) > 0.4);
    // Upright: a standing figure is taller than wide on screen.
    CHECK(box.height() > box.width() * 0.8);
    const QImage b = render(doc.model, model, clip, clip->duration() * 0.5f);
    CHECK(countChanged(a, b) > 50);
    CHECK(view().bindingProblems().isEmpty());
}

TEST_CASE("corpus W3D building finds its compiled .dds textures", "[render][corpus][w3d]") {
    const QString dir = w3dDir("FuryslavBoytcov+rotwk_evilmod/mod/asis/art/w3d/eb");
    if (dir.isEmpty() || !QFileInfo::exists(dir + "/ebstables_skn.W3D")) {
        RIGSCOPE_SKIP("ebstables_skn.W3D not in the corpus");
    }
    const QString model = dir + "/ebstables_skn.W3D";
    rs::Document doc = rs::Resolver().read(model.toStdString());
    REQUIRE(doc.model);
    const QImage img = render(doc.model, model, nullptr, 0.0f);
    REQUIRE_FALSE(img.isNull());
    CHECK(countDifferent(img, kBg) > 1000);
    int loaded = 0, total = 0;
    for (const auto& t : view().textures()) {
        ++total;
        if (t.loaded) {
            ++loaded;
            INFO(t.path.toStdString());
            // SAGE convention: compiledtextures/<first two letters of the texture name>/
            CHECK(t.path.contains("/compiledtextures/" + t.name.left(2).toLower() + "/", Qt::CaseInsensitive));
        }
    }
    REQUIRE(total > 0);
    CHECK(loaded == total);
    // Textured, not the checker placeholder: the checker is strictly two-coloured, a texture has many colours.
    QSet<QRgb> colours;
    const QRect box = foreground(img, kBg);
    for (int y = box.top(); y <= box.bottom(); y += 2)
        for (int x = box.left(); x <= box.right(); x += 2)
            colours.insert(img.pixel(x, y) & 0xF0F0F0u);
    CHECK(colours.size() > 40);
}

TEST_CASE("corpus W3D clip file alone shows its hierarchy animated", "[render][corpus][w3d]") {
    const QString dir = w3dDir("DarkAtra+bfme2-modding-utils/w3d/src/test/resources/models");
    if (dir.isEmpty() || !QFileInfo::exists(dir + "/guaragorn_idla.w3d")) {
        RIGSCOPE_SKIP("guaragorn_idla.w3d not in the corpus");
    }
    const QString file = dir + "/guaragorn_idla.w3d";
    rs::Document doc = rs::Resolver().read(file.toStdString());
    REQUIRE(doc.model);
    REQUIRE(doc.model->meshes.empty());
    REQUIRE(doc.model->skeleton.bones.size() > 10);
    REQUIRE(doc.clips.size() == 1);
    const QImage a = render(doc.model, file, doc.clips[0], 0.0f);
    REQUIRE_FALSE(a.isNull());
    CHECK(countDifferent(a, kBg) > 100); // bones drawn although the skeleton option is off
    const QRect box = foreground(a, kBg);
    CHECK(std::max(box.width() / double(a.width()), box.height() / double(a.height())) > 0.3);
    const QImage b = render(doc.model, file, doc.clips[0], doc.clips[0]->duration() * 0.5f);
    CHECK(countChanged(a, b) > 10);
}
