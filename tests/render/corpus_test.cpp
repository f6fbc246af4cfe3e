// Real models from the corpus (skipped when it is absent): every Alamo model renders something framed, and
// an animated model's clip moves pixels.
#include "render_harness.h"

#include "io/loader.h"

#include <catch2/catch.hpp>

#include <QDirIterator>
#include <QFileInfo>

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
    v.setTime(t);
    return grab();
}

} // namespace

TEST_CASE("corpus Alamo models render framed", "[render][corpus]") {
    const QStringList models = corpusModels();
    if (models.isEmpty()) {
        WARN("SKIPPED: corpus alamo folder not found (set RIGSCOPE_CORPUS)");
        return;
    }
    int rendered = 0;
    for (const QString& f : models) {
        rs::Document doc;
        try {
            doc = rs::loadDocument(f.toStdString());
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
        WARN("SKIPPED: EI_STORMTROOPER.ALO not in the corpus");
        return;
    }
    rs::Document doc = rs::loadDocument(model.toStdString());
    const auto clips = rs::findCompanionClips(model.toStdString());
    REQUIRE_FALSE(clips.empty());
    std::shared_ptr<rs::Clip> clip;
    for (const std::string& c : clips)
        if (QString::fromStdString(c).contains("MOVE", Qt::CaseInsensitive)) clip = rs::loadDocument(c).clips.at(0);
    REQUIRE(clip);
    const QImage a = render(doc.model, model, clip, 0.0f);
    const QImage b = render(doc.model, model, clip, clip->duration() * 0.5f);
    CHECK(countChanged(a, b) > 100);
    CHECK(view().bindingProblems().isEmpty());
}
