// Asset browser over the fake game install (tests/core/vfs_fixtures.h): the tree by folder with sources and
// overrides, the filter; opening an Alamo model and a SAGE skin by name through the browser with every texture,
// clip and hierarchy found and the mods' overrides used (checked in the material data and decoded pixels); an AMAL
// bank of a mounted folder opened on its stage (one inside an archive listed, not opened); the GUI export of the model
// opened from the archive; rigscope --screenshot --game/--mod.
#include "asset_browser_dock.h"
#include "export_dialog.h"
#include "main_window.h"
#include "material_dock.h"

#include "resolve/resolver.h"
#include "thumbnail_fixtures.h"
#include "vfs/mount.h"
#include "vfs_fixtures.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include "scene_view.h"
#include "textures.h"

#include <fstream>
#include <unistd.h>

using namespace rs;

namespace {

// Opens the asset whose name matches `filter` (exactly one) by double-clicking it in the browser's tree.
void openThroughBrowser(ui::MainWindow& w, ui::AssetBrowserDock* dock, const QString& filter) {
    auto* edit = dock->findChild<QLineEdit*>(QStringLiteral("assetFilter"));
    QVERIFY(edit);
    edit->clear();
    QTest::keyClicks(edit, filter);
    QCOMPARE(dock->visibleCount(), 1);
    auto* view = dock->findChild<QTreeView*>(QStringLiteral("assetView"));
    QVERIFY(view);
    dock->show();
    dock->raise();
    QTRY_VERIFY(view->isVisible());
    const QModelIndex idx = dock->indexAt(0);
    QVERIFY(idx.isValid());
    view->scrollTo(idx);
    const QRect r = view->visualRect(idx);
    QVERIFY(!r.isEmpty()); // its folders were expanded for the few matches
    QSignalSpy requested(dock, &ui::AssetBrowserDock::openRequested);
    QSignalSpy failed(&w, &ui::MainWindow::openFailed);
    // Item views only report a double-click on the index pressed before it.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, r.center());
    QCOMPARE(requested.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading(), 10000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(w.model() != nullptr && !w.isLoading(), 10000);
}

// First pixel of a texture as the view decodes it (files and "<archive>:<entry>").
QColor firstPixel(const QString& path) {
    QString error;
    const QImage img = render::decodeTextureFile(Resolver(), path, &error);
    if (img.isNull()) qWarning() << error;
    return img.isNull() ? QColor() : img.pixelColor(0, 0);
}

QColor fixtureColor(const char* text) {
    const auto c = test::texColor(text);
    return QColor(c[0], c[1], c[2], c[3]);
}

int greenPixels(const QImage& img) { // clearly green: the mod's W_TEST on the model
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            n += c.green() > c.red() + 40 && c.green() > c.blue() + 40;
        }
    return n;
}

} // namespace

class AssetBrowserTest : public QObject {
    Q_OBJECT
  private slots:

    void treeByFolderWithSourcesAndOverrides() {
        test::FakeInstall fi;
        ui::MainWindow w;
        auto* dock = w.findChild<ui::AssetBrowserDock*>();
        QVERIFY(dock);
        dock->mountFolders({QString::fromStdString(fi.eaw)}, {QString::fromStdString(fi.eawMod)}, false);
        // Assets only: 4 in Models.meg, W_TEST (mod + game), W_DAZZLE, Loose.tga -> 7 names.
        QCOMPARE(dock->visibleCount(), 7);
        auto* view = dock->findChild<QTreeView*>(QStringLiteral("assetView"));
        QAbstractItemModel* m = view->model();
        // One top folder DATA > ART > {MODELS, TEXTURES}.
        QCOMPARE(m->rowCount(), 1);
        const QModelIndex data = m->index(0, 0);
        QCOMPARE(data.data().toString(), QStringLiteral("DATA"));
        const QModelIndex art = m->index(0, 0, data);
        QCOMPARE(art.data().toString(), QStringLiteral("ART"));
        QCOMPARE(m->rowCount(art), 2);
        const QModelIndex models = m->index(0, 0, art), textures = m->index(1, 0, art);
        QCOMPARE(models.data().toString(), QStringLiteral("MODELS"));
        QCOMPARE(m->rowCount(models), 4);
        QCOMPARE(m->rowCount(textures), 3);
        // W_TEST.dds: from the mod's loose files, overriding the game's Textures.meg.
        bool seen = false;
        for (int r = 0; r < m->rowCount(textures); ++r) {
            const QModelIndex n = m->index(r, 0, textures);
            if (n.data().toString().compare(QStringLiteral("W_TEST.dds"), Qt::CaseInsensitive) != 0) continue;
            seen = true;
            QVERIFY(m->index(r, 2, textures).data().toString().startsWith(QStringLiteral("mod loose: ")));
            const QString over = m->index(r, 3, textures).data().toString();
            QVERIFY2(over.contains(QStringLiteral("Textures.meg:DATA\\ART\\TEXTURES\\W_TEST.DDS")), qPrintable(over));
        }
        QVERIFY(seen);
        // Filters: glob over the file name, substring, no match.
        auto* filter = dock->findChild<QLineEdit*>(QStringLiteral("assetFilter"));
        QTest::keyClicks(filter, QStringLiteral("w_unit*.alo"));
        QCOMPARE(dock->visibleCount(), 1);
        QVERIFY(dock->pathAt(0).endsWith(QStringLiteral("Models.meg:DATA\\ART\\MODELS\\W_UNIT.ALO")));
        QCOMPARE(m->rowCount(m->index(0, 0, m->index(0, 0, m->index(0, 0)))), 1); // only MODELS/W_UNIT.ALO left
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("idle"));
        QCOMPARE(dock->visibleCount(), 2);
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("nothing*like*this"));
        QCOMPARE(dock->visibleCount(), 0);
        QCOMPARE(m->rowCount(), 0);
        filter->clear();
        QCOMPARE(dock->visibleCount(), 7);
    }

    void namesFitThePanel() {
        // At a laptop's window size the panel is ~200 px wide: the Name column follows the visible width, long
        // names keep their end, and a column the user dragged keeps its width.
        test::FakeInstall fi;
        ui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<ui::AssetBrowserDock*>();
        dock->mountFolders({QString::fromStdString(fi.eaw)}, {QString::fromStdString(fi.eawMod)}, false);
        dock->raise();
        auto* view = dock->findChild<QTreeView*>(QStringLiteral("assetView"));
        QTRY_VERIFY(view->isVisible());
        QCOMPARE(view->textElideMode(), Qt::ElideMiddle);
        QTRY_COMPARE(view->columnWidth(0), std::max(120, view->viewport()->width()));
        w.resizeDocks({dock}, {360}, Qt::Horizontal);
        QTRY_VERIFY(view->viewport()->width() > 300);
        QTRY_COMPARE(view->columnWidth(0), view->viewport()->width());
        view->header()->resizeSection(0, 500); // as a drag of the header's handle does
        w.resizeDocks({dock}, {240}, Qt::Horizontal);
        QTRY_VERIFY(view->viewport()->width() < 300);
        QTest::qWait(50);
        QCOMPARE(view->columnWidth(0), 500);
    }

    void opensAmalBankOfAMountedFolder() {
        // AMAL banks are listed with the other assets; one stored as a file in a mounted folder opens on a
        // double-click as File -> Open does (the 2D stage); inside an archive it is listed, not opened.
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.filePath(QStringLiteral("mod")).toStdString();
        test::writeFile(dir / "Data" / "Amal" / "BANK.ABK", test::amalBank());
        test::writeFile(dir / "Data" / "Art" / "Models" / "BOX.ALO", alamo::writeModel(test::boxModel({1, 1, 1})));
        const std::string meg = tmp.filePath(QStringLiteral("Banks.meg")).toStdString();
        test::writeFile(meg, vfs::writeMeg(1, {{"DATA\\AMAL\\PACKED.ABK", test::amalBank()}}));
        ui::MainWindow w;
        w.setErrorReporter([](const QString& t, const QString& m) { QFAIL(qPrintable(t + ": " + m)); });
        w.show();
        auto* dock = w.findChild<ui::AssetBrowserDock*>();
        auto* view = dock->findChild<QTreeView*>(QStringLiteral("assetView"));
        QVERIFY(view);
        dock->showArchive(QString::fromStdString(meg));
        QCOMPARE(dock->visibleCount(), 1);
        QVERIFY(dock->pathAt(0).endsWith(QStringLiteral("PACKED.ABK")));
        QSignalSpy requested(dock, &ui::AssetBrowserDock::openRequested);
        auto doubleClick = [&](int row) {
            dock->show();
            dock->raise();
            QTRY_VERIFY(view->isVisible());
            const QModelIndex idx = dock->indexAt(row);
            view->scrollTo(idx);
            const QRect r = view->visualRect(idx);
            QVERIFY(!r.isEmpty());
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r.center());
            QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, r.center());
        };
        doubleClick(0);
        QCOMPARE(requested.count(), 0);

        dock->mountFolders({}, {QString::fromStdString(dir.string())}, false);
        QCOMPARE(dock->visibleCount(), 2);
        auto* edit = dock->findChild<QLineEdit*>(QStringLiteral("assetFilter"));
        QVERIFY(edit);
        QTest::keyClicks(edit, QStringLiteral("bank.abk"));
        QCOMPARE(dock->visibleCount(), 1);
        doubleClick(0);
        QCOMPARE(requested.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(w.showingAmal(), 10000);
    }

    void archiveStatusCountsFilesBesideAssets() {
        // An archive holding one model and two other files: "1 assets" alone would read as a nearly empty archive.
        QTemporaryDir tmp;
        const std::string path = tmp.filePath(QStringLiteral("Mixed.meg")).toStdString();
        const std::vector<uint8_t> meg =
            vfs::writeMeg(2, {{"DATA\\ART\\MODELS\\W_UNIT.ALO", alamo::writeModel(test::syntheticModel())},
                              {"DATA\\XML\\UNITS.XML", {'<', 'x', '/', '>'}},
                              {"DATA\\AUDIO\\SFX.WAV", {0, 1, 2, 3}}});
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(meg.data()), std::streamsize(meg.size()));
        ui::MainWindow w;
        auto* dock = w.findChild<ui::AssetBrowserDock*>();
        dock->showArchive(QString::fromStdString(path));
        QCOMPARE(dock->visibleCount(), 1);
        auto* status = dock->findChild<QLabel*>(QStringLiteral("assetStatus"));
        QVERIFY(status);
        QCOMPARE(status->text(),
                 QStringLiteral("Mixed.meg: 1 assets (models, clips, AMAL banks, textures) of 3 files"));
    }

    void opensAlamoModelByNameWithModTextureAndClips() {
        test::FakeInstall fi(true);
        ui::MainWindow w;
        w.setErrorReporter([](const QString& t, const QString& m) { QFAIL(qPrintable(t + ": " + m)); });
        w.show();
        auto* dock = w.findChild<ui::AssetBrowserDock*>();
        dock->mountFolders({QString::fromStdString(fi.eaw)}, {QString::fromStdString(fi.eawMod)}, false);
        QVERIFY(w.resolver()->mounted());
        openThroughBrowser(w, dock, QStringLiteral("w_unit.alo"));
        QVERIFY(w.currentPath().endsWith(QStringLiteral("Models.meg:DATA\\ART\\MODELS\\W_UNIT.ALO")));
        QCOMPARE(int(w.model()->skeleton.bones.size()), 3);
        // The clips beside the model inside Models.meg (W_OTHER's is not this model's).
        QCOMPARE(w.clipEntries().size(), 2);
        QVERIFY(w.clip() != nullptr);
        // Material data: W_TEST.TGA resolved to the mod's loose W_TEST.dds, decoded green (the game's is red).
        auto* mats = w.findChild<ui::MaterialDock*>();
        QVERIFY(mats);
        const QString tex = mats->resolvedTextures().value(QStringLiteral("W_TEST.TGA"));
        QCOMPARE(tex, QString::fromStdString(fi.eawMod + "/Data/Art/Textures/W_TEST.dds"));
        QCOMPARE(mats->missingTextureCount(), 0);
        QCOMPARE(firstPixel(tex), fixtureColor("mod W_TEST"));
        // The dazzle's texture from Patch.meg, which overrides Textures.meg.
        const QString dz =
            QString::fromStdString(w.resolver()->findTexture("W_Dazzle.dds", w.currentPath().toStdString()));
        QVERIFY(dz.endsWith(QStringLiteral("Patch.meg:DATA\\ART\\TEXTURES\\W_DAZZLE.DDS")));
        QCOMPARE(firstPixel(dz), fixtureColor("patched dazzle"));

        // File -> Export of the model opened from the archive: the same clips and the mod's texture.
        const QString out = QDir::temp().filePath(QStringLiteral("rigscope_asset_export_%1.glb").arg(getpid()));
        gltf::ExportOptions opt;
        const gltf::ExportStats st = ui::exportOpenModel(&w, opt, false, out);
        QCOMPARE(int(st.animations), 2);
        QVERIFY(st.images >= 1);
        for (const std::string& warn : st.warnings)
            QVERIFY2(warn.find("not found") == std::string::npos, warn.c_str());
        // The default output is named after the archive entry, outside the game's folders.
        const QString defaultOut = ui::defaultExportPath(w.currentPath());
        QVERIFY2(defaultOut.endsWith(QStringLiteral("/W_UNIT.glb")), qPrintable(defaultOut));
        QVERIFY2(!defaultOut.startsWith(QString::fromStdString(fi.root.string())), qPrintable(defaultOut));
        QFile::remove(out);
    }

    void opensSageSkinByNameWithHierarchyClipAndModTexture() {
        test::FakeInstall fi(true);
        ui::MainWindow w;
        w.setErrorReporter([](const QString& t, const QString& m) { QFAIL(qPrintable(t + ": " + m)); });
        w.show();
        auto* dock = w.findChild<ui::AssetBrowserDock*>();
        dock->mountFolders({QString::fromStdString(fi.bfme2)}, {QString::fromStdString(fi.bfme2Mod)}, false);
        openThroughBrowser(w, dock, QStringLiteral("unit_skn"));
        QVERIFY(w.currentPath().endsWith(QStringLiteral("W3D.big:art\\w3d\\un\\unit_skn.w3d")));
        // The skeleton from art/w3d/te/test_skl.w3d inside W3D.big.
        const Document skl = Resolver().read(fi.bfme2 + "/W3D.big:art/w3d/te/test_skl.w3d");
        QVERIFY(skl.model);
        QCOMPARE(QString::fromStdString(w.model()->skeleton.name).toUpper(), QStringLiteral("TEST_SKL"));
        QCOMPARE(w.model()->skeleton.bones.size(), skl.model->skeleton.bones.size());
        for (size_t i = 0; i < skl.model->skeleton.bones.size(); ++i)
            QCOMPARE(w.model()->skeleton.bones[i].name, skl.model->skeleton.bones[i].name);
        // Its clip (same hierarchy) beside the skeleton.
        const QStringList clips = w.clipEntries();
        QVERIFY2(clips.join(' ').contains(QStringLiteral("idla"), Qt::CaseInsensitive), qPrintable(clips.join(", ")));
        QVERIFY(w.clip() != nullptr);
        // quad.tga: art/compiledtextures/qu/quad.dds of the mod's mod.big (magenta) over the game's (cyan).
        auto* mats = w.findChild<ui::MaterialDock*>();
        const QString tex = mats->resolvedTextures().value(QStringLiteral("quad.tga"));
        QVERIFY2(tex.endsWith(QStringLiteral("mod.big:art\\compiledtextures\\qu\\quad.dds")), qPrintable(tex));
        QCOMPARE(mats->missingTextureCount(), 0);
        QCOMPARE(firstPixel(tex), fixtureColor("mod quad"));
    }

    void screenshotWithGameAndMod() {
        test::FakeInstall fi(true);
        const QString model = QString::fromStdString(fi.eaw + "/Data/Models.meg:DATA/ART/MODELS/W_UNIT.ALO");
        auto shoot = [&](bool withMod) {
            const QString out =
                QDir::temp().filePath(QStringLiteral("rigscope_vfs_shot_%1_%2.png").arg(getpid()).arg(withMod));
            QStringList args{QStringLiteral("--screenshot"), out,
                             QStringLiteral("--size"),       QStringLiteral("400x300"),
                             QStringLiteral("--no-grid"),    QStringLiteral("--game"),
                             QString::fromStdString(fi.eaw)};
            if (withMod) args << QStringLiteral("--mod") << QString::fromStdString(fi.eawMod);
            args << model;
            QProcess p;
            p.start(QStringLiteral(RIGSCOPE_BIN), args);
            p.waitForFinished(60000);
            const QString err = QString::fromLocal8Bit(p.readAllStandardError());
            if (p.exitCode() != 0) qWarning() << err;
            QImage img(out);
            QFile::remove(out);
            return img;
        };
        QVERIFY2(QFileInfo::exists(QStringLiteral(RIGSCOPE_BIN)), "rigscope not built");
        const QImage mod = shoot(true), game = shoot(false);
        QVERIFY(!mod.isNull());
        QVERIFY(!game.isNull());
        // The mod's green W_TEST is drawn on the model; without the mod the game's red one is.
        QVERIFY2(greenPixels(mod) > 100, qPrintable(QString::number(greenPixels(mod))));
        QCOMPARE(greenPixels(game), 0);
    }
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    if (!qEnvironmentVariableIsSet("RIGSCOPE_VIEW")) qputenv("RIGSCOPE_VIEW", "preview"); // no OpenGL needed
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("asset_browser_tests"));
    AssetBrowserTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "asset_browser_test.moc"
