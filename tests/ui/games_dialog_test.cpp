// File → Games and mods… (issue 43): the games and mods of a fake computer (tests/core/games/games_fixtures.h, HOME
// pointed at it) are listed; mounting a Workshop mod mounts it, its dependency and its game in the game's order in
// the Assets panel; a mod in a dependency cycle is refused by name; the choice is remembered and selected next time.
#include "asset_browser_dock.h"
#include "demo/demo_model.h"
#include "games_dialog.h"
#include "main_window.h"
#include "recent_labels.h"
#include "start_page.h"

#include "games/games_fixtures.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTest>
#include <QTreeWidget>

#include <fstream>

using namespace rs;

namespace {

QStringList rowNames(QTreeWidget* t) {
    QStringList out;
    for (QTreeWidgetItemIterator it(t); *it; ++it)
        if ((*it)->parent()) out << (*it)->text(0);
    return out;
}

QAction* menuAction(QMainWindow& w, const QString& menu, const QString& text) {
    for (QAction* m : w.menuBar()->actions())
        if (m->text().remove('&') == menu && m->menu())
            for (QAction* a : m->menu()->actions())
                if (a->text().remove('&') == text) return a;
    return nullptr;
}

} // namespace

class GamesDialogTest : public QObject {
    Q_OBJECT
  private slots:
    void listsAndMountsInTheGamesOrder() {
        test::Home h("ui");
        test::buildComputer(h);
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", QByteArray::fromStdString(h.path.string()));
        ui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* open = menuAction(w, QStringLiteral("File"), QStringLiteral("Games and mods…"));
        QVERIFY(open);
        open->trigger();
        QPointer<ui::GamesDialog> dlg = w.findChild<ui::GamesDialog*>(QStringLiteral("gamesDialog"));
        QVERIFY(dlg);
        QTRY_VERIFY_WITH_TIMEOUT(!dlg->searching() && dlg->tree()->topLevelItemCount() == 2, 20000);
        const QStringList rows = rowNames(dlg->tree());
        for (const char* name : {"Star Wars: Empire at War", "Star Wars: Empire at War - Forces of Corruption",
                                 "Command & Conquer: Generals - Zero Hour", "Black & White 2", "Alpha", "Beta", "Gamma",
                                 "Delta", "Local Mod"})
            QVERIFY2(rows.contains(QString::fromUtf8(name)), qPrintable(rows.join(" | ")));
        QVERIFY(dlg->statusLabel()->text().contains(QStringLiteral("Steam roots: 2")));

        // A mod in a cycle: refused, named.
        QVERIFY(dlg->select(QStringLiteral("Gamma")));
        QVERIFY(!dlg->mountSelected());
        QVERIFY2(dlg->statusLabel()->text().contains(QStringLiteral("Cannot mount Gamma")),
                 qPrintable(dlg->statusLabel()->text()));
        // Alpha (100) depends on Beta (200): Alpha, Beta, then FoC over EaW's GameData.
        QVERIFY(dlg->select(QStringLiteral("100")));
        QTest::mouseClick(dlg->mountButton(), Qt::LeftButton);
        QTRY_VERIFY(!dlg); // closed (and deleted)
        auto* assets = w.findChild<ui::AssetBrowserDock*>();
        QVERIFY(assets);
        QTRY_VERIFY(assets->mods().size() == 2);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Alpha over Star Wars")),
                 qPrintable(w.statusBar()->currentMessage()));
        const QStringList mods = assets->mods();
        QCOMPARE(mods.size(), 2);
        QVERIFY(mods[0].endsWith(QStringLiteral("/32470/100")));
        QVERIFY(mods[1].endsWith(QStringLiteral("/32470/200")));
        const QStringList games = assets->games();
        QCOMPARE(games.size(), 2);
        QVERIFY(games[0].endsWith(QStringLiteral("/corruption")));
        QVERIFY(games[1].endsWith(QStringLiteral("/GameData")));

        // Next time the remembered mod is selected.
        open->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                auto* d2 = w.findChild<ui::GamesDialog*>(QStringLiteral("gamesDialog"));
                return d2 && !d2->searching() && d2->tree()->currentItem() &&
                       d2->tree()->currentItem()->text(0) == QStringLiteral("Alpha");
            }(),
            20000);
        qputenv("HOME", oldHome);
    }

    // The start page (shown when the viewer starts without a file): the games and mods found are listed, one click
    // on a mod mounts it with its dependency over its game; a file opened is listed under Recent files, and one
    // click on it opens it.
    void startPageListsAndMountsOnOneClick() {
        test::Home h("start");
        test::buildComputer(h);
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", QByteArray::fromStdString(h.path.string()));
        ui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showStartPage();
        QVERIFY(w.showingStartPage());
        ui::GamesPanel* panel = w.startPage()->games();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->searching() && panel->tree()->topLevelItemCount() == 2, 20000);
        const QStringList rows = rowNames(panel->tree());
        for (const char* name :
             {"Star Wars: Empire at War - Forces of Corruption", "Black & White 2", "Alpha", "Beta", "Local Mod"})
            QVERIFY2(rows.contains(QString::fromUtf8(name)), qPrintable(rows.join(" | ")));

        // One click on Alpha (Workshop 100, depending on Beta, 200): Alpha, Beta, then FoC over EaW's GameData.
        const QList<QTreeWidgetItem*> alpha = panel->tree()->findItems(QStringLiteral("Alpha"), Qt::MatchRecursive);
        QCOMPARE(alpha.size(), 1);
        panel->tree()->scrollToItem(alpha[0]);
        const QRect r = panel->tree()->visualItemRect(alpha[0]);
        QVERIFY(r.isValid());
        QTest::mouseClick(panel->tree()->viewport(), Qt::LeftButton, {}, r.center());
        auto* assets = w.findChild<ui::AssetBrowserDock*>();
        QVERIFY(assets);
        QTRY_VERIFY(assets->mods().size() == 2);
        QVERIFY(assets->mods()[0].endsWith(QStringLiteral("/32470/100")));
        QVERIFY(assets->mods()[1].endsWith(QStringLiteral("/32470/200")));
        QCOMPARE(assets->games().size(), 2);
        QVERIFY(assets->games()[0].endsWith(QStringLiteral("/corruption")));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Alpha over Star Wars")),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(w.showingStartPage()); // mounting opens no file

        // A file opened shows the view, and is listed on the start page; one click on it opens it again.
        const std::string model = (h.path / "DEMO.ALO").string();
        const std::vector<uint8_t> bytes = demo::demoAloBytes();
        std::ofstream(model, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        w.openFile(QString::fromStdString(model));
        QTRY_VERIFY(!w.showingStartPage() && w.currentPath().endsWith(QStringLiteral("DEMO.ALO")));
        w.showStartPage();
        QListWidget* recent = w.startPage()->recentList();
        QVERIFY(recent->count() >= 1);
        // (earlier runs' DEMO.ALO from other folders add the folder to the label: recentNamesTellFoldersApart)
        QVERIFY(recent->item(0)->text().startsWith(QStringLiteral("DEMO.ALO")));
        QCOMPARE(recent->item(0)->data(Qt::UserRole).toString(), QString::fromStdString(model));
        QTest::mouseClick(recent->viewport(), Qt::LeftButton, {}, recent->visualItemRect(recent->item(0)).center());
        QTRY_VERIFY(!w.showingStartPage());
        QVERIFY(w.currentPath().endsWith(QStringLiteral("DEMO.ALO")));
        qputenv("HOME", oldHome);
    }

    // Recent files of one name from different folders: the start page and File → Open recent add as many trailing
    // folders as tell them apart ("NAME — parent/folder"); a name seen once stays bare; the tooltip is the path;
    // one click opens the entry clicked.
    void recentNamesTellFoldersApart() {
        test::Home h("recent");
        const std::vector<uint8_t> bytes = demo::demoAloBytes();
        QStringList files;
        for (const char* rel : {"one/models/RV_T2BTANK.ALO", "two/models/RV_T2BTANK.ALO", "two/models/OTHER.ALO"}) {
            const std::filesystem::path p = h.path / rel;
            std::filesystem::create_directories(p.parent_path());
            std::ofstream(p, std::ios::binary)
                .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
            files << QString::fromStdString(p.string());
        }
        QSettings().setValue(QStringLiteral("recentFiles"), files);
        ui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showStartPage();
        QListWidget* recent = w.startPage()->recentList();
        QCOMPARE(recent->count(), 3);
        const QStringList want = {QStringLiteral("RV_T2BTANK.ALO — one/models"),
                                  QStringLiteral("RV_T2BTANK.ALO — two/models"), QStringLiteral("OTHER.ALO")};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(recent->item(i)->text(), want[i]);
            QCOMPARE(recent->item(i)->toolTip(), files[i]);
        }
        QAction* open = menuAction(w, QStringLiteral("File"), QStringLiteral("Open recent"));
        QVERIFY(open && open->menu());
        QStringList menuTexts;
        for (QAction* a : open->menu()->actions())
            if (!a->isSeparator()) menuTexts << a->text();
        QCOMPARE(menuTexts.mid(0, 3), want);
        // One click on the second: that file, not the first of the name.
        QTest::mouseClick(recent->viewport(), Qt::LeftButton, {}, recent->visualItemRect(recent->item(1)).center());
        QTRY_VERIFY_WITH_TIMEOUT(
            !w.showingStartPage() && w.currentPath().endsWith(QStringLiteral("two/models/RV_T2BTANK.ALO")), 20000);

        // The rule alone: the fewest trailing folders that differ (case ignored), '\\' and archive entries too.
        QCOMPARE(ui::recentLabels({QStringLiteral("/a/x/m/B.ALO"), QStringLiteral("/b/x/m/b.alo"),
                                   QStringLiteral("C:\\g\\Data\\B.ALO"), QStringLiteral("/x/U.ALO")}),
                 QStringList({QStringLiteral("B.ALO — a/x/m"), QStringLiteral("b.alo — b/x/m"),
                              QStringLiteral("B.ALO — Data"), QStringLiteral("U.ALO")}));
        QCOMPARE(ui::recentLabels({QStringLiteral("/g/Models.meg:Data/Art/Models/T.ALO"), QStringLiteral("/m/T.ALO")}),
                 QStringList({QStringLiteral("T.ALO — Models"), QStringLiteral("T.ALO — m")}));
        QSettings().remove(QStringLiteral("recentFiles"));
    }
};

QTEST_MAIN(GamesDialogTest)
#include "games_dialog_test.moc"
