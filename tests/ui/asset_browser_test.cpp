// Asset browser over the fake game install (tests/core/vfs_fixtures.h): mount an Alamo game + mod, filter,
// double-click a model in an archive; it opens with its clips found and the mod's texture resolved.
#include "asset_browser_dock.h"
#include "main_window.h"
#include "material_dock.h"

#include "vfs/lookup.h"
#include "vfs_fixtures.h"

#include <QApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

#include "scene_view.h"

using namespace rs;

class AssetBrowserTest : public QObject {
    Q_OBJECT
  private slots:
    void opensModelFromArchiveThroughBrowser() {
        test::FakeInstall fi;
        ui::MainWindow w;
        w.setErrorReporter([](const QString& t, const QString& m) { QFAIL(qPrintable(t + ": " + m)); });
        w.show();
        auto* dock = w.findChild<ui::AssetBrowserDock*>();
        QVERIFY(dock);
        dock->mountFolders({QString::fromStdString(fi.eaw)}, {QString::fromStdString(fi.eawMod)});
        QVERIFY(vfs::sessionMount());
        // Assets only: 4 in Models.meg, W_TEST (mod + game), W_DAZZLE, Loose.tga -> 7 names.
        QCOMPARE(dock->visibleCount(), 7);
        auto* filter = dock->findChild<QLineEdit*>(QStringLiteral("assetFilter"));
        QTest::keyClicks(filter, QStringLiteral("w_unit*.alo"));
        QCOMPARE(dock->visibleCount(), 1);
        QVERIFY(dock->pathAt(0).endsWith(QStringLiteral("Models.meg:DATA\\ART\\MODELS\\W_UNIT.ALO")));
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("idle"));
        QCOMPARE(dock->visibleCount(), 2); // substring
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("w_unit.alo"));
        QCOMPARE(dock->visibleCount(), 1);

        auto* view = dock->findChild<QTableView*>(QStringLiteral("assetView"));
        dock->show();
        dock->raise();
        QSignalSpy requested(dock, &ui::AssetBrowserDock::openRequested);
        QSignalSpy failed(&w, &ui::MainWindow::openFailed);
        QTRY_VERIFY(view->isVisible());
        const QRect r = view->visualRect(view->model()->index(0, 0));
        // Item views only report a double-click on the index pressed before it.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r.center());
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(requested.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading(), 10000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(w.model() != nullptr && !w.isLoading(), 10000);
        QVERIFY(w.currentPath().endsWith(QStringLiteral("W_UNIT.ALO")));
        QCOMPARE(int(w.model()->skeleton.bones.size()), 3);
        QCOMPARE(w.clipEntries().size(), 2);
        // The model's texture resolves to the mod's loose override, read through the session mount.
        const QString tex = render::resolveTexture(QStringLiteral("W_TEST.TGA"), w.currentPath(), {});
        QCOMPARE(tex, QString::fromStdString(fi.eawMod + "/Data/Art/Textures/W_TEST.dds"));
        const QString dz = render::resolveTexture(QStringLiteral("W_Dazzle.dds"), w.currentPath(), {});
        QVERIFY(dz.endsWith(QStringLiteral("Patch.meg:DATA\\ART\\TEXTURES\\W_DAZZLE.DDS")));
        vfs::setSessionMount(nullptr);
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
