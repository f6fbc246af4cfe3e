// The Assets panel's grid mode (ui/asset_grid_view.h, ui/thumbnail_service.h) over writer-made archives: pictures
// arrive, the visible rows first and again after a scroll, the folder chosen in the tree scopes the grid, a new
// mount drops the old pictures; the corpus game when present.
#include "asset_browser_dock.h"
#include "asset_grid_view.h"
#include "thumbnail_fixtures.h"
#include "thumbnail_service.h"

#include "texture/texture_writer.h"
#include "vfs/archive_writer.h"

#include <QApplication>
#include <QLineEdit>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <filesystem>
#include <functional>
#include <set>

using namespace rs;
namespace fs = std::filesystem;

namespace {

// An archive of `count` box models in folders of 50 (DATA/ART/MODELS/Fnn/BOX_nnnnn.ALO), all of colour rgb.
std::string writeBoxArchive(const fs::path& path, int count, glm::vec3 rgb) {
    const std::vector<uint8_t> box = alamo::writeModel(test::boxModel({1, 1, 2}, {0, 0, 0}, rgb));
    std::vector<vfs::WriteEntry> entries;
    for (int i = 0; i < count; ++i) {
        char name[96];
        std::snprintf(name, sizeof name, "DATA\\ART\\MODELS\\F%02d\\BOX_%05d.ALO", i / 50, i);
        entries.push_back({name, box});
    }
    test::writeFile(path, vfs::writeMeg(1, entries));
    return path.string();
}

bool isColour(const QColor& c, bool red) {
    if (c.alpha() < 200) return false;
    return red ? (c.red() > c.blue() + 60 && c.red() > c.green() + 30) : (c.blue() > c.red() + 60);
}

int countColour(const QImage& img, bool red) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += isColour(img.pixelColor(x, y), red);
    return n;
}

// An archive of one asset of each pictured kind: a red box model, the two-colour texture and an AMAL bank.
std::string writeKindsArchive(const fs::path& path) {
    std::vector<vfs::WriteEntry> entries;
    entries.push_back(
        {"DATA\\ART\\MODELS\\BOX.ALO", alamo::writeModel(test::boxModel({1, 1, 2}, {0, 0, 0}, {0.9f, 0.2f, 0.1f}))});
    entries.push_back({"DATA\\ART\\TEXTURES\\TWO.TGA", writeTga(test::twoColourImage(), TgaKind::TrueColour32, false)});
    entries.push_back({"DATA\\AMAL\\BANK.ABK", test::amalBank()});
    test::writeFile(path, vfs::writeMeg(1, entries));
    return path.string();
}

// The AMAL stage's track (light blue) and the texture's pure halves.
bool isTrack(const QColor& c) { return c.blue() > 200 && c.green() > 150 && c.red() < 140; }
bool isPure(const QColor& c, const QColor& want) { return c.alpha() > 200 && c == want; }

int countIf(const QImage& img, const std::function<bool(const QColor&)>& f) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += f(img.pixelColor(x, y));
    return n;
}

// The row of the grid whose path ends with `suffix` (-1: none).
int rowEndingWith(ui::AssetGridView* grid, const QString& suffix) {
    for (int r = 0; r < grid->model()->rowCount(); ++r)
        if (grid->gridModel()->pathAt(r).endsWith(suffix)) return r;
    return -1;
}

// What the grid shows in the picture part of row's cell.
QImage cellImage(ui::AssetGridView* grid, int row) {
    const QRect rect = grid->visualRect(grid->model()->index(row, 0));
    return grid->viewport()->grab(rect).toImage();
}

} // namespace

class AssetGridTest : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir tmp_;

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        // The grid stores into the freedesktop cache: this test's own.
        qputenv("XDG_CACHE_HOME", QFile::encodeName(tmp_.path() + "/xdg"));
    }

    void visibleRowsFirstAndAfterScroll() {
        const std::string meg =
            writeBoxArchive(fs::path(tmp_.path().toStdString()) / "Boxes.meg", 600, {0.9f, 0.2f, 0.1f});
        ui::AssetBrowserDock dock;
        dock.resize(420, 520);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.showArchive(QString::fromStdString(meg));
        dock.setGridMode(true);
        ui::AssetGridView* grid = dock.grid();
        QVERIFY(grid);
        ui::ThumbnailService* service = grid->service();
        // Hold the workers, scroll to the middle, then let them run: the rows on screen come first.
        service->setPaused(true);
        QTRY_VERIFY(!service->busy());
        grid->setScope({});
        QTRY_COMPARE(grid->model()->rowCount(), 600);
        grid->scrollTo(grid->model()->index(300, 0), QAbstractItemView::PositionAtTop);
        QApplication::processEvents();
        const int first = grid->firstVisible(), last = grid->lastVisible();
        QVERIFY2(first > 200 && last < 600 && last >= first, qPrintable(QString("%1..%2").arg(first).arg(last)));
        // The reported range covers what the view shows.
        QVERIFY(grid->visualRect(grid->model()->index(first, 0)).intersects(grid->viewport()->rect()) ||
                grid->visualRect(grid->model()->index(first + 1, 0)).intersects(grid->viewport()->rect()));
        QVERIFY(!grid->visualRect(grid->model()->index(last + 1, 0)).intersects(grid->viewport()->rect()));
        const size_t shown = size_t(last - first + 1);
        const size_t before = service->arrivalOrder().size(), started = service->startOrder().size();
        service->setPaused(false);
        QTRY_VERIFY_WITH_TIMEOUT(service->arrivalOrder().size() >= before + shown + 12, 30000);
        {
            // Started: the visible rows, top to bottom, then one below, one above, outwards.
            const std::vector<int> starts = service->startOrder();
            for (size_t k = 0; k < shown; ++k)
                QCOMPARE(starts[started + k], first + int(k));
            QCOMPARE(starts[started + shown], last + 1);
            QCOMPARE(starts[started + shown + 1], first - 1);
            QCOMPARE(starts[started + shown + 2], last + 2);
            // Arrived: workers finish their rows in the order they took them and each holds one row at a time,
            // so of the first |visible| arrivals at most one (held by the other worker) is not a visible row,
            // however the scheduler runs the two workers.
            const auto& order = service->arrivalOrder();
            int visible = 0;
            QString got;
            for (size_t k = before; k < before + shown; ++k) {
                visible += order[k] >= first && order[k] <= last;
                got += QString::number(order[k]) + " ";
            }
            QVERIFY2(visible >= int(shown) - 1,
                     qPrintable(QString("visible %1..%2, arrived %3").arg(first).arg(last).arg(got)));
        }
        // Pictures are drawn in the cells: the boxes' red.
        QTRY_VERIFY_WITH_TIMEOUT(countColour(grid->viewport()->grab().toImage(), true) > 500, 10000);

        // Scroll to the end while the rest is being made: the new visible rows are made next. (Paused and drained
        // first, so that what was made before the scroll is not counted after it.)
        service->setPaused(true);
        QTRY_VERIFY(!service->busy());
        grid->scrollToBottom();
        QApplication::processEvents();
        const int first2 = grid->firstVisible(), last2 = grid->lastVisible();
        QVERIFY(first2 > last);
        const size_t at = service->arrivalOrder().size(), startedAt = service->startOrder().size();
        service->setPaused(false);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int r = first2; r <= last2; ++r)
                    if (service->image(r).isNull()) return false;
                return true;
            }(),
            30000);
        const std::vector<int> starts = service->startOrder();
        for (int k = 0; k <= last2 - first2; ++k)
            QCOMPARE(starts[startedAt + size_t(k)], first2 + k);
        const auto& order = service->arrivalOrder();
        int visible = 0;
        for (size_t k = at; k < at + size_t(last2 - first2 + 1); ++k)
            visible += order[k] >= first2 && order[k] <= last2;
        QVERIFY2(visible >= last2 - first2,
                 qPrintable(QString("%1 of %2 first arrivals visible").arg(visible).arg(last2 - first2 + 1)));
        // Everything is made in the end (600 models).
        QSignalSpy idle(service, &ui::ThumbnailService::idle);
        QTRY_VERIFY2_WITH_TIMEOUT(service->pending() == 0 && !service->busy(), qPrintable(service->summary()), 120000);
        for (int r = 0; r < 600; ++r)
            QVERIFY2(!service->image(r).isNull(), qPrintable(QString("row %1: %2").arg(r).arg(service->error(r))));
    }

    void folderScopesAndNewMountDropsOldPictures() {
        const fs::path dir = fs::path(tmp_.path().toStdString());
        const std::string red = writeBoxArchive(dir / "Red.meg", 120, {0.9f, 0.2f, 0.1f});
        const std::string blue = writeBoxArchive(dir / "Blue.meg", 120, {0.1f, 0.2f, 0.9f});
        ui::AssetBrowserDock dock;
        dock.resize(420, 520);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.showArchive(QString::fromStdString(red));
        dock.setGridMode(true);
        ui::AssetGridView* grid = dock.grid();
        QTRY_COMPARE(grid->model()->rowCount(), 120);
        // The filter narrows the grid as the tree.
        dock.setFilter("BOX_0001*");
        QCOMPARE(grid->model()->rowCount(), 10);
        dock.setFilter({});
        QCOMPARE(grid->model()->rowCount(), 120);
        // A folder chosen in the tree: only its assets.
        auto* tree = dock.findChild<QTreeView*>("assetView");
        QVERIFY(tree);
        tree->expandAll();
        const QModelIndex f01 = [&] {
            for (QModelIndex i = tree->model()->index(0, 0); i.isValid(); i = tree->indexBelow(i))
                if (i.data().toString() == "F01") return i;
            return QModelIndex();
        }();
        QVERIFY(f01.isValid());
        tree->setCurrentIndex(f01);
        QCOMPARE(grid->model()->rowCount(), 50);
        QVERIFY(grid->gridModel()->pathAt(0).endsWith("BOX_00050.ALO"));
        QTRY_VERIFY_WITH_TIMEOUT(!grid->service()->image(0).isNull(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(countColour(grid->viewport()->grab().toImage(), true) > 300, 10000);

        // Another archive: the red pictures go, only blue ones arrive.
        dock.showArchive(QString::fromStdString(blue));
        QCOMPARE(grid->model()->rowCount(), 120);
        QVERIFY(grid->service()->image(0).isNull()); // the red picture of row 0 is gone
        QVERIFY(grid->service()->arrivalOrder().empty());
        QTRY_VERIFY_WITH_TIMEOUT(grid->service()->pending() == 0 && !grid->service()->busy(), 60000);
        for (int r = 0; r < 120; r += 7) {
            const QImage img = grid->service()->image(r);
            QVERIFY(!img.isNull());
            QCOMPARE(countColour(img, true), 0);
            QVERIFY(countColour(img, false) > 100);
        }
        QVERIFY(countColour(grid->viewport()->grab().toImage(), false) > 300);
        QCOMPARE(countColour(grid->viewport()->grab().toImage(), true), 0);
    }

    void everyKindGetsAPicture() {
        // An AMAL bank and a texture are listed beside the model, and each cell shows its real picture.
        const std::string meg = writeKindsArchive(fs::path(tmp_.path().toStdString()) / "Kinds.meg");
        ui::AssetBrowserDock dock;
        dock.resize(520, 520);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.showArchive(QString::fromStdString(meg));
        QCOMPARE(dock.visibleCount(), 3);
        dock.setGridMode(true);
        ui::AssetGridView* grid = dock.grid();
        QVERIFY(grid);
        QTRY_COMPARE(grid->model()->rowCount(), 3);
        const int bank = rowEndingWith(grid, "BANK.ABK"), texture = rowEndingWith(grid, "TWO.TGA"),
                  box = rowEndingWith(grid, "BOX.ALO");
        QVERIFY(bank >= 0 && texture >= 0 && box >= 0);
        ui::ThumbnailService* service = grid->service();
        QTRY_VERIFY2_WITH_TIMEOUT(service->pending() == 0 && !service->busy(), qPrintable(service->summary()), 60000);
        for (int r : {bank, texture, box})
            QVERIFY2(!service->image(r).isNull() && !service->failed(r),
                     qPrintable(QString("row %1: %2").arg(r).arg(service->error(r))));
        // The pictures themselves: the bank's stage with its track, the texture's red and blue halves.
        const QImage bankPicture = service->image(bank), texturePicture = service->image(texture);
        QVERIFY2(countIf(bankPicture, isTrack) > 20, qPrintable(QString::number(countIf(bankPicture, isTrack))));
        QCOMPARE(texturePicture.size(), QSize(64, 32));
        QCOMPARE(texturePicture.pixelColor(10, 10), QColor(255, 0, 0));
        QCOMPARE(texturePicture.pixelColor(50, 20), QColor(0, 0, 255));
        // Drawn in their cells: not the placeholder (pixels of the picture, not blank).
        QTRY_VERIFY_WITH_TIMEOUT(countIf(cellImage(grid, bank), isTrack) > 20, 5000);
        const QImage textureCell = cellImage(grid, texture);
        QVERIFY(countIf(textureCell, [](const QColor& c) { return isPure(c, QColor(255, 0, 0)); }) > 200);
        QVERIFY(countIf(textureCell, [](const QColor& c) { return isPure(c, QColor(0, 0, 255)); }) > 200);
        QVERIFY(countColour(cellImage(grid, box), true) > 100);
        // Only models and clips open on a double-click; a bank and a texture show in the grid only. (Item views
        // report a double-click only on the index pressed before it.)
        QSignalSpy opened(grid, &ui::AssetGridView::openRequested);
        auto doubleClick = [&](int row) {
            const QPoint at = grid->visualRect(grid->model()->index(row, 0)).center();
            QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, at);
            QTest::mouseDClick(grid->viewport(), Qt::LeftButton, {}, at);
        };
        doubleClick(bank);
        doubleClick(texture);
        QCOMPARE(opened.count(), 0);
        doubleClick(box);
        QCOMPARE(opened.count(), 1);
        QVERIFY(opened.at(0).at(0).toString().endsWith("BOX.ALO"));
    }

    void gridFollowsTheTextFilter() {
        const std::string meg = writeKindsArchive(fs::path(tmp_.path().toStdString()) / "Filter.meg");
        ui::AssetBrowserDock dock;
        dock.resize(520, 520);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.showArchive(QString::fromStdString(meg));
        dock.setGridMode(true);
        ui::AssetGridView* grid = dock.grid();
        ui::ThumbnailService* service = grid->service();
        QTRY_COMPARE(grid->model()->rowCount(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(service->pending() == 0 && !service->busy(), 60000);
        const size_t made = service->arrivalOrder().size();
        QCOMPARE(made, size_t(3));

        // Typed into the panel's filter box: a glob keeps the bank alone, with its picture (kept, not made again).
        auto* filter = dock.findChild<QLineEdit*>("assetFilter");
        QVERIFY(filter);
        filter->clear();
        QTest::keyClicks(filter, "*.abk");
        QCOMPARE(grid->model()->rowCount(), 1);
        QVERIFY(grid->gridModel()->pathAt(0).endsWith("BANK.ABK"));
        QVERIFY(!service->image(0).isNull());
        QVERIFY(countIf(service->image(0), isTrack) > 20);
        QTRY_VERIFY_WITH_TIMEOUT(countIf(grid->viewport()->grab().toImage(), isTrack) > 20, 5000);
        // Nothing of the other cells stays drawn: no blue texture half.
        QCOMPARE(
            countIf(grid->viewport()->grab().toImage(), [](const QColor& c) { return isPure(c, QColor(0, 0, 255)); }),
            0);

        // A substring (any case): the texture alone, at row 0 with its own picture.
        filter->clear();
        QTest::keyClicks(filter, "two");
        QCOMPARE(grid->model()->rowCount(), 1);
        QVERIFY(grid->gridModel()->pathAt(0).endsWith("TWO.TGA"));
        QCOMPARE(service->image(0).pixelColor(50, 20), QColor(0, 0, 255));
        QTRY_VERIFY_WITH_TIMEOUT(countIf(grid->viewport()->grab().toImage(),
                                         [](const QColor& c) { return isPure(c, QColor(0, 0, 255)); }) > 200,
                                 5000);
        QCOMPARE(countIf(grid->viewport()->grab().toImage(), isTrack), 0);

        // A folder in the tree and the filter together: the filter's matches under that folder only.
        filter->clear();
        QTest::keyClicks(filter, "A");
        QCOMPARE(grid->model()->rowCount(), 3); // every key holds "A" (DATA/)
        auto* tree = dock.findChild<QTreeView*>("assetView");
        QVERIFY(tree);
        tree->expandAll();
        const QModelIndex amal = [&] {
            for (QModelIndex i = tree->model()->index(0, 0); i.isValid(); i = tree->indexBelow(i))
                if (i.data().toString() == "AMAL") return i;
            return QModelIndex();
        }();
        QVERIFY(amal.isValid());
        tree->setCurrentIndex(amal);
        QCOMPARE(grid->model()->rowCount(), 1);
        QVERIFY(grid->gridModel()->pathAt(0).endsWith("BANK.ABK"));
        // No match: an empty grid; clearing the filter lists everything again without making any picture again.
        grid->setScope({});
        filter->clear();
        QTest::keyClicks(filter, "nothing*");
        QCOMPARE(grid->model()->rowCount(), 0);
        filter->clear();
        QCOMPARE(grid->model()->rowCount(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(service->pending() == 0 && !service->busy(), 20000);
        QCOMPARE(service->arrivalOrder().size(), made);
        for (int r = 0; r < 3; ++r)
            QVERIFY(!service->image(r).isNull());
    }

    void bankOnDiskOpensFromTheGrid() {
        // A mounted folder: its AMAL bank is a file on disk, which the AMAL stage reads, so a double-click opens it
        // (from an archive it does not: everyKindGetsAPicture); a texture never opens.
        const fs::path dir = fs::path(tmp_.path().toStdString()) / "KindsFolder";
        test::writeKindsFolder(dir);
        ui::AssetBrowserDock dock;
        dock.resize(520, 520);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.mountFolders({}, {QString::fromStdString(dir.string())}, false);
        QCOMPARE(dock.visibleCount(), 6);
        dock.setGridMode(true);
        ui::AssetGridView* grid = dock.grid();
        QTRY_COMPARE(grid->model()->rowCount(), 6);
        const int bank = rowEndingWith(grid, "BANK.ABK"), texture = rowEndingWith(grid, "TWO.TGA");
        QVERIFY(bank >= 0 && texture >= 0);
        QVERIFY(QFileInfo(grid->gridModel()->pathAt(bank)).isFile());
        QTRY_VERIFY_WITH_TIMEOUT(!grid->service()->image(bank).isNull(), 30000);
        QVERIFY(countIf(grid->service()->image(bank), isTrack) > 20);
        QSignalSpy opened(grid, &ui::AssetGridView::openRequested);
        auto doubleClick = [&](int row) {
            const QPoint at = grid->visualRect(grid->model()->index(row, 0)).center();
            QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, at);
            QTest::mouseDClick(grid->viewport(), Qt::LeftButton, {}, at);
        };
        doubleClick(texture);
        QCOMPARE(opened.count(), 0);
        doubleClick(bank);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).toString(), grid->gridModel()->pathAt(bank));
    }

    void corpusGame() {
        const QString game = QStringLiteral(RIGSCOPE_CORPUS_DIR "/games/Delta730+Imperial_Civil_War");
        if (!QFileInfo(game).isDir()) QSKIP("corpus game not found");
        ui::AssetBrowserDock dock;
        dock.resize(600, 700);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.mountFolders({}, {game}, false);
        dock.setGridMode(true);
        dock.setFilter("*.ALO");
        ui::AssetGridView* grid = dock.grid();
        QVERIFY(grid->model()->rowCount() > 10);
        const int first = grid->firstVisible(), last = grid->lastVisible();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int r = first; r <= last; ++r)
                    if (grid->service()->image(r).isNull() && !grid->service()->failed(r)) return false;
                return true;
            }(),
            120000);
        int drawn = 0;
        for (int r = first; r <= last; ++r)
            drawn += !grid->service()->image(r).isNull();
        QVERIFY2(drawn * 2 > last - first + 1, qPrintable(QString("%1 of %2 drawn").arg(drawn).arg(last - first + 1)));
    }
};

QTEST_MAIN(AssetGridTest)
#include "asset_grid_test.moc"
