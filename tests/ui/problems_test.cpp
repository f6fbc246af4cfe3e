// The Problems panel's filter box (check id and text, every word), grouping by file or by check id, and the counts
// that follow the filters (the panel's title, which is its tab's, and the summary line); the Objects and Assets
// panels' titles and status lines following their filters. Writer-made mods (tests/core/check/check_fixtures.h).
#include "asset_browser_dock.h"
#include "objects_dock.h"
#include "problems_dock.h"

#include "check/check_fixtures.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

using namespace rs;
using Defect = test::CheckMod::Defect;

namespace {

QStringList topTexts(QTreeWidget* t) {
    QStringList out;
    for (int i = 0; i < t->topLevelItemCount(); ++i)
        out << t->topLevelItem(i)->text(0);
    return out;
}

int findingRows(QTreeWidget* t) {
    int n = 0;
    for (int i = 0; i < t->topLevelItemCount(); ++i)
        n += t->topLevelItem(i)->childCount();
    return n;
}

} // namespace

class ProblemsTest : public QObject {
    Q_OBJECT
  private slots:
    void filterGroupAndCountsFollow() {
        // The mod over its bare game: CLEAN.ALO's texture GONE.TGA missing (warning); CLEAN.DDS, now unreferenced
        // (note); NPOT.DDS, 6x4 (warning) and unreferenced (note). 4 findings in 3 files.
        test::CheckMod mod(Defect::TextureMissing);
        test::FakeInstall::write(std::filesystem::path(mod.mod) / "Data/Art/Textures/NPOT.DDS",
                                 test::CheckMod::dds(6, 4));
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({mod.game}, {mod.mod}));
        ui::ProblemsDock p;
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems"));
        p.setResolver(std::make_shared<const Resolver>(table));
        QSignalSpy done(&p, &ui::ProblemsDock::finished);
        p.runCheck(true);
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
        QCOMPARE(p.report().findings.size(), size_t(4));
        QTreeWidget* tree = p.tree();
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems (4)"));
        QCOMPARE(p.shownCount(), size_t(4));
        QCOMPARE(topTexts(tree), (QStringList{QStringLiteral("DATA/ART/MODELS/CLEAN.ALO"),
                                              QStringLiteral("DATA/ART/TEXTURES/CLEAN.DDS"),
                                              QStringLiteral("DATA/ART/TEXTURES/NPOT.DDS")}));
        QVERIFY2(p.summary()->text().endsWith(QStringLiteral(": 0 errors, 2 warnings, 2 notes")),
                 qPrintable(p.summary()->text()));

        // Typed into the filter box: the findings whose text holds the word, the counts with them.
        QTest::keyClicks(p.textFilter(), QStringLiteral("UNREF"));
        QCOMPARE(p.shownCount(), size_t(2));
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems (2 of 4)"));
        QCOMPARE(topTexts(tree), (QStringList{QStringLiteral("DATA/ART/TEXTURES/CLEAN.DDS"),
                                              QStringLiteral("DATA/ART/TEXTURES/NPOT.DDS")}));
        QVERIFY2(p.summary()->text().endsWith(
                     QStringLiteral(": 0 errors, 2 warnings, 2 notes; shown: 0 errors, 0 warnings, 2 notes")),
                 qPrintable(p.summary()->text()));
        // Every word must match (id, file, message): "npot unref" is one finding.
        p.setFilter(QStringLiteral("npot unref"));
        QCOMPARE(p.shownCount(), size_t(1));
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems (1 of 4)"));
        QCOMPARE(findingRows(tree), 1);
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(1), QStringLiteral("unref.file"));
        p.setFilter(QStringLiteral("limit.texture-size")); // by id
        QCOMPARE(p.shownCount(), size_t(1));
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(1), QStringLiteral("limit.texture-size"));
        p.setFilter(QStringLiteral("nothing matches this"));
        QCOMPARE(tree->topLevelItemCount(), 0);
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems (0 of 4)"));
        p.setFilter(QString());
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems (4)"));

        // Grouped by check id, in the catalog's order; each finding's file in the second column.
        p.grouping()->setCurrentIndex(1);
        QCOMPARE(topTexts(tree), (QStringList{QStringLiteral("model.texture-missing"),
                                              QStringLiteral("limit.texture-size"), QStringLiteral("unref.file")}));
        QTreeWidgetItem* unref = tree->topLevelItem(2);
        QCOMPARE(unref->text(1), QStringLiteral("2 finding(s)")); // tr("%n finding(s)") untranslated
        QCOMPARE(unref->childCount(), 2);
        QCOMPARE(unref->child(0)->text(0), QStringLiteral("info"));
        QCOMPARE(unref->child(0)->text(1), QStringLiteral("DATA/ART/TEXTURES/CLEAN.DDS"));
        QCOMPARE(tree->headerItem()->text(1), QStringLiteral("File"));
        // The level filter and the text filter together, in groups.
        p.levelFilter()->setCurrentIndex(1); // errors and warnings
        QCOMPARE(topTexts(tree),
                 (QStringList{QStringLiteral("model.texture-missing"), QStringLiteral("limit.texture-size")}));
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems (2 of 4)"));
        p.setFilter(QStringLiteral("GONE.TGA"));
        QCOMPARE(topTexts(tree), QStringList{QStringLiteral("model.texture-missing")});
        QCOMPARE(p.windowTitle(), QStringLiteral("Problems (1 of 4)"));
        // A grouped finding still opens its file and selects what it names.
        QSignalSpy open(&p, &ui::ProblemsDock::openRequested);
        emit tree->itemDoubleClicked(tree->topLevelItem(0)->child(0), 0);
        QCOMPARE(open.size(), 1);
        QVERIFY(open.first().at(0).toString().endsWith(QStringLiteral("Data/Art/Models/CLEAN.ALO")));
        QCOMPARE(open.first().at(2).toString(), QStringLiteral("GONE.TGA"));
        // Back to files: the filters stay.
        p.setGroupByCheck(false);
        QCOMPARE(topTexts(tree), QStringList{QStringLiteral("DATA/ART/MODELS/CLEAN.ALO")});
        QCOMPARE(tree->headerItem()->text(1), QStringLiteral("Check"));
    }

    void baseGameNotesOpenNothing() {
        // The mod alone (no game): its missing texture is a ref.base-game note on the mod's folder.
        test::CheckMod mod(Defect::TextureMissing);
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({}, {mod.mod}));
        ui::ProblemsDock p;
        p.setResolver(std::make_shared<const Resolver>(table));
        QSignalSpy done(&p, &ui::ProblemsDock::finished);
        p.runCheck(true);
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
        p.setFilter(QStringLiteral("ref.base-game"));
        QCOMPARE(p.shownCount(), size_t(1));
        QTreeWidgetItem* note = p.tree()->topLevelItem(0)->child(0);
        QVERIFY2(note->text(3).startsWith(QStringLiteral("1 reference (model.texture-missing, 1 name)")),
                 qPrintable(note->text(3)));
        QSignalSpy open(&p, &ui::ProblemsDock::openRequested);
        emit p.tree()->itemDoubleClicked(note, 0);
        QVERIFY(open.isEmpty()); // the mod's folder is not a file to open
    }

    void objectsAndAssetsCountsFollowTheirFilters() {
        test::CheckMod mod;
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({mod.game}, {mod.mod}));

        ui::ObjectsDock objects;
        QCOMPARE(objects.windowTitle(), QStringLiteral("Objects"));
        QSignalSpy indexed(&objects, &ui::ObjectsDock::indexed);
        objects.setMount(table);
        QVERIFY(QTest::qWaitFor([&] { return !indexed.isEmpty() && !objects.indexing(); }, 30000));
        const int all = objects.visibleCount();
        QVERIFY(all >= 3); // Clean, Clean_Dead, Clean_Smoker (and the Particle object)
        const QString total = QString::number(all);
        QCOMPARE(objects.windowTitle(), QStringLiteral("Objects (%1)").arg(total));
        auto* status = objects.findChild<QLabel*>(QStringLiteral("objectsStatus"));
        QVERIFY(status);
        QVERIFY2(!status->text().contains(QStringLiteral("shown")), qPrintable(status->text()));
        QTest::keyClicks(objects.findChild<QLineEdit*>(), QStringLiteral("Clean_D"));
        QCOMPARE(objects.visibleCount(), 1);
        QCOMPARE(objects.windowTitle(), QStringLiteral("Objects (1 of %1)").arg(total));
        QVERIFY2(status->text().endsWith(QStringLiteral("; 1 shown")), qPrintable(status->text()));
        objects.setFilter(QString());
        QCOMPARE(objects.windowTitle(), QStringLiteral("Objects (%1)").arg(total));

        ui::AssetBrowserDock assets;
        QCOMPARE(assets.windowTitle(), QStringLiteral("Assets"));
        assets.mountFolders({QString::fromStdString(mod.game)}, {QString::fromStdString(mod.mod)}, false);
        const int files = assets.visibleCount();
        QVERIFY(files >= 4); // CLEAN.ALO, P_CLEAN.ALO, CLEAN.DDS, CLEAN_IDLE_00.ALA
        QCOMPARE(assets.windowTitle(), QStringLiteral("Assets (%1)").arg(files));
        auto* assetStatus = assets.findChild<QLabel*>(QStringLiteral("assetStatus"));
        QVERIFY(assetStatus);
        const QString listed = assetStatus->text();
        QTest::keyClicks(assets.findChild<QLineEdit*>(QStringLiteral("assetFilter")), QStringLiteral("CLEAN_IDLE"));
        QCOMPARE(assets.visibleCount(), 1);
        QCOMPARE(assets.windowTitle(), QStringLiteral("Assets (1 of %1)").arg(files));
        QCOMPARE(assetStatus->text(), listed + QStringLiteral("; 1 shown"));
        assets.setFilter(QString());
        QCOMPARE(assets.windowTitle(), QStringLiteral("Assets (%1)").arg(files));
        QCOMPARE(assetStatus->text(), listed);
    }
};

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("RIGSCOPE_VIEW")) qputenv("RIGSCOPE_VIEW", "preview"); // no OpenGL needed
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("problems_ui_tests"));
    ProblemsTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "problems_test.moc"
