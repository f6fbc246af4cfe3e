// The first ten minutes in the viewer (issue 12): slow loads, timeline keys, default layout, framing, labels,
// clip choice, W3D hierarchies in the SAGE layout, file dialogs, missing textures, the AMAL stage. Each test
// drives the real main window; fixtures are written by the project's own writers, corpus files are used
// when present (tests needing them skip with a message otherwise).
#include "first_use_test.h"
#include "ui_fixtures.h"

#include "amal_view.h"
#include "bone_tree_dock.h"
#include "main_window.h"
#include "material_dock.h"
#include "notice_bar.h"
#include "scene_dock.h"
#include "timeline_dock.h"

#include "alamo/alamo_writer.h"
#include "amal/amal_bank.h"
#include "amal/amal_env.h"
#include "amal/amal_track.h"
#include "amal/amal_writer.h"
#include "demo/demo_model.h"
#include "resolve/resolver.h"
#include "w3d_fixtures.h" // tests/core: W3D made by the project's own writer

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMouseEvent>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QWindow>

#include <array>
#include <functional>
#include <map>

using namespace rs;
using namespace rs::ui;

namespace {

QString corpusRoot() {
    QString d = qEnvironmentVariable("RIGSCOPE_CORPUS");
    if (d.isEmpty()) d = QStringLiteral(RIGSCOPE_CORPUS_DIR);
    return QFileInfo(d).isDir() ? d : QString();
}

// First file under corpus/sub whose name matches (case-insensitive), sorted by path.
QString corpusFile(const QString& sub, const QString& name) {
    const QString root = corpusRoot();
    if (root.isEmpty()) return {};
    QDirIterator it(root + QLatin1Char('/') + sub, QDir::Files, QDirIterator::Subdirectories);
    QStringList hits;
    while (it.hasNext()) {
        const QString p = it.next();
        if (QFileInfo(p).fileName().compare(name, Qt::CaseInsensitive) == 0) hits << p;
    }
    hits.sort();
    return hits.value(0);
}

// The demo clip with every track renamed to bones the demo does not have (another model's clip).
Clip foreignClip() {
    Clip c = demo::demoClipSource();
    c.name = "ATAT_WALK";
    for (size_t i = 0; i < c.tracks.size(); ++i)
        c.tracks[i].boneName = "ATAT_LEG_" + std::to_string(i);
    return c;
}

// A W3D skin (rigid quad on BODY, skinned quad on ARM) whose HLOD names `hierarchy`, without the hierarchy.
std::vector<uint8_t> w3dSkin(const std::string& hierarchy) {
    w3d::ChunkWriter cw;
    w3d::RawMesh quad = test::testQuad("QUAD", "UNIT");
    w3d::writeMesh(cw, quad);
    w3d::Hlod h = rs::test::oneLodHlod("UNIT", hierarchy, {{1, "UNIT.QUAD"}});
    w3d::writeHlod(cw, h);
    return cw.take();
}

std::vector<uint8_t> w3dHierarchyFile(const std::string& name) {
    w3d::ChunkWriter cw;
    w3d::writeHierarchy(cw, test::testHierarchy(name));
    return cw.take();
}

} // namespace

class FirstUseTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w;
    QStringList errors;
    QStringList statusMessages; // every status-bar message since the last clear
    QTemporaryDir tmp;
    QString demoA, demoB; // two copies of the demo model (with its clip beside each)

    QString writeFile(const QString& name, const std::vector<uint8_t>& bytes) {
        const QString path = tmp.filePath(name);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
        return path;
    }

    void makeWindow() {
        w = std::make_unique<MainWindow>();
        w->setErrorReporter(
            [this](const QString& title, const QString& msg) { errors << title + QLatin1Char('\n') + msg; });
        connect(w->statusBar(), &QStatusBar::messageChanged, this, [this](const QString& m) {
            if (!m.isEmpty()) statusMessages << m;
        });
    }

    // Opens path and waits until it is applied or refused.
    bool open(const QString& path, int timeoutMs = 60000) {
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        QSignalSpy bad(w.get(), &MainWindow::openFailed);
        w->openFile(path);
        if (!QTest::qWaitFor([&] { return !ok.isEmpty() || !bad.isEmpty(); }, timeoutMs)) return false;
        return !ok.isEmpty();
    }

    QImage captureImage() {
        QImage result;
        bool done = false;
        QTest::qWait(50);
        w->view()->capture([&](const QImage& img) {
            result = img.convertToFormat(QImage::Format_RGB32);
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 20000)) qWarning("capture timed out");
        if (const QString dir = qEnvironmentVariable("RIGSCOPE_TEST_DUMP"); !dir.isEmpty())
            result.save(QStringLiteral("%1/first-use-%2-%3.png")
                            .arg(dir, QString::fromLatin1(QTest::currentTestFunction()))
                            .arg(captures_++));
        return result;
    }
    int captures_ = 0;

    bool anyMessageContains(const QString& s) const {
        for (const QString& m : statusMessages)
            if (m.contains(s, Qt::CaseInsensitive)) return true;
        return false;
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        demoA = writeFile(QStringLiteral("a/DEMO.ALO"), demo::demoAloBytes());
        writeFile(QStringLiteral("a/DEMO_IDLE_00.ALA"), demo::demoAlaBytes());
        demoB = writeFile(QStringLiteral("b/DEMO.ALO"), demo::demoAloBytes());
        writeFile(QStringLiteral("b/DEMO_IDLE_00.ALA"), demo::demoAlaBytes());
        makeWindow();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    }

    // --- 3. Default layout ------------------------------------------------------------------------------
    void firstRunUsesTheScreen() {
        // Settings were cleared: the first window takes about 80 % of the screen, docks readable.
        const QRect avail = QGuiApplication::primaryScreen()->availableGeometry();
        QTRY_VERIFY(w->isVisible());
        QTest::qWait(100); // the default dock sizes are applied once the window has its size
        qInfo("screen %dx%d, window %dx%d, bones %d px, scene %d px, materials %d px", avail.width(), avail.height(),
              w->width(), w->height(), w->boneTree()->width(), w->scene()->width(), w->materials()->width());
        QVERIFY(w->width() >= avail.width() * 3 / 4 && w->width() <= avail.width());
        QVERIFY(w->height() >= avail.height() * 3 / 4 && w->height() <= avail.height());
        QVERIFY(w->boneTree()->width() >= 200);
        QVERIFY(w->scene()->width() >= 260);
        QVERIFY(w->materials()->width() >= 260);
        // The 3D view keeps most of the width.
        QVERIFY(w->view()->widget()->width() >= w->width() * 2 / 5);
    }

    // --- 1. Slow loads ----------------------------------------------------------------------------------
    void slowLoadIsNotCancelled() {
        setLoadDelayForTesting(1500);
        statusMessages.clear();
        errors.clear();
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        w->openFile(demoA);
        // The progress dialog appears (the read takes longer than 0.3 s) ...
        QTRY_VERIFY_WITH_TIMEOUT(w->findChild<QProgressDialog*>() && w->findChild<QProgressDialog*>()->isVisible(),
                                 3000);
        // ... and closing it when the read ends is not the user's Cancel.
        QTRY_VERIFY_WITH_TIMEOUT(!ok.isEmpty(), 10000);
        setLoadDelayForTesting(0);
        QCOMPARE(w->currentPath(), QFileInfo(demoA).absoluteFilePath());
        QVERIFY(w->model());
        QVERIFY2(!anyMessageContains(QStringLiteral("Cancel")), qPrintable(statusMessages.join(QLatin1Char('|'))));
        QVERIFY(errors.isEmpty());
        QTRY_VERIFY(!w->findChild<QProgressDialog*>() || !w->findChild<QProgressDialog*>()->isVisible());
    }

    void loadReplacedByAnotherLoad() {
        setLoadDelayForTesting(1200);
        statusMessages.clear();
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        w->openFile(demoB);
        QTest::qWait(500); // mid-way through the first read (progress dialog shown)
        w->openFile(demoA);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading(), 15000);
        setLoadDelayForTesting(0);
        // The last request wins; nothing was reported as cancelled.
        QVERIFY(!ok.isEmpty());
        QCOMPARE(ok.last().at(0).toString(), QFileInfo(demoA).absoluteFilePath());
        QCOMPARE(w->currentPath(), QFileInfo(demoA).absoluteFilePath());
        QVERIFY(w->model());
        QVERIFY2(!anyMessageContains(QStringLiteral("Cancel")), qPrintable(statusMessages.join(QLatin1Char('|'))));
    }

    void userCancelStillCancels() {
        QVERIFY(open(demoA));
        setLoadDelayForTesting(1500);
        statusMessages.clear();
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        w->openFile(demoB);
        QProgressDialog* dlg = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dlg = w->findChild<QProgressDialog*>()) && dlg->isVisible(), 3000);
        QPushButton* cancel = dlg->findChild<QPushButton*>();
        QVERIFY(cancel);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading(), 10000);
        setLoadDelayForTesting(0);
        QVERIFY(ok.isEmpty());
        QCOMPARE(w->currentPath(), QFileInfo(demoA).absoluteFilePath()); // the open model stays
        QVERIFY(anyMessageContains(QStringLiteral("Cancelled opening")));
    }

    // --- 2. Timeline --------------------------------------------------------------------------------------
    void lastFrameInLoopMode() {
        QVERIFY(open(demoA));
        QVERIFY(w->clip());
        TimelineDock* t = w->timeline();
        t->setLoopMode(LoopMode::Loop);
        const int last = int(w->clip()->frameCount) - 1;
        QVERIFY(last >= 3);
        QApplication::setActiveWindow(w.get());
        QTRY_VERIFY(w->isActiveWindow());
        t->firstFrame();
        QTest::keyClick(w.get(), Qt::Key_End);
        QCOMPARE(t->displayFrame(), float(last));
        QCOMPARE(t->slider()->value(), last);
        t->firstFrame();
        QTest::mouseClick(t->lastFrameButton(), Qt::LeftButton);
        QCOMPARE(t->displayFrame(), float(last));
        // Stepping past the last frame wraps to 0, before 0 to the last frame.
        QTest::keyClick(w.get(), Qt::Key_Right);
        QCOMPARE(t->displayFrame(), 0.0f);
        QTest::keyClick(w.get(), Qt::Key_Left);
        QCOMPARE(t->displayFrame(), float(last));
        // The pose shown is the last frame's, not frame 0's.
        QCOMPARE(w->boneTree()->frame(), float(last));
    }

    void stepGoesToNextWholeFrame() {
        QVERIFY(open(demoA));
        QVERIFY(w->clip());
        TimelineDock* t = w->timeline();
        const int last = int(w->clip()->frameCount) - 1;
        const float mid = float(std::min(last - 2, 90)) + 0.5f;
        t->setPosition(mid);
        QTest::keyClick(w.get(), Qt::Key_Right);
        QCOMPARE(t->displayFrame(), mid + 0.5f);
        t->setPosition(mid);
        QTest::keyClick(w.get(), Qt::Key_Left);
        QCOMPARE(t->displayFrame(), mid - 0.5f);
    }

    void shortcutsWorkAfterSpeedBoxHadFocus() {
        QVERIFY(open(demoA));
        QVERIFY(w->clip());
        TimelineDock* t = w->timeline();
        QDoubleSpinBox* speed = t->speedBox();
        t->setPosition(2);
        QApplication::setActiveWindow(w.get());
        speed->setFocus(Qt::MouseFocusReason);
        QTRY_VERIFY(speed->hasFocus());
        QTest::keyClick(speed, Qt::Key_Home);
        QCOMPARE(t->displayFrame(), 0.0f);
        QTest::keyClick(speed, Qt::Key_Right);
        QCOMPARE(t->displayFrame(), 1.0f);
        QTest::keyClick(speed, Qt::Key_End);
        QCOMPARE(t->displayFrame(), float(w->clip()->frameCount - 1));
        QTest::keyClick(speed, Qt::Key_Space);
        QVERIFY(t->playing());
        QTest::keyClick(speed, Qt::Key_Space);
        QVERIFY(!t->playing());
        QCOMPARE(speed->value(), 1.0); // the box itself was not changed by those keys
        // While a speed is being typed the keys edit the text; Enter commits it and frees them again.
        t->setPosition(2);
        QTest::keyClick(speed, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(speed, QStringLiteral("2"));
        QTest::keyClick(speed, Qt::Key_Home);
        QCOMPARE(t->displayFrame(), 2.0f);
        QTest::keyClick(speed, Qt::Key_Return);
        QCOMPARE(speed->value(), 2.0);
        QTest::keyClick(speed, Qt::Key_Home);
        QCOMPARE(t->displayFrame(), 0.0f);
        speed->setValue(1.0);
        w->view()->widget()->setFocus();
    }

    // --- 3. AMAL hides the 3D-only docks --------------------------------------------------------------------
    void amalHidesThreeDDocks() {
        amal::BankSpec spec;
        amal::MovementSpec m;
        m.name = "TEST";
        m.speed = 1;
        m.x.assign(40, amal::moveByte(2));
        m.y.assign(20, amal::moveByte(3));
        spec.movements.push_back(m);
        spec.withPrograms = false;
        const QString bank = writeFile(QStringLiteral("stage.abk"), amal::writeAmalBank(spec));
        const int viewWidth3D = w->view()->widget()->width();
        QVERIFY(open(bank));
        QVERIFY(w->showingAmal());
        QTRY_VERIFY(w->boneTree()->isHidden());
        QVERIFY(w->materials()->isHidden());
        QVERIFY(w->scene()->isHidden());
        QVERIFY(!w->timeline()->isHidden());
        // The stage gets (at least) the room the 3D view had.
        QTRY_VERIFY(w->amalView()->width() > viewWidth3D);
        QVERIFY(open(demoA));
        QVERIFY(!w->showingAmal());
        QVERIFY(!w->boneTree()->isHidden());
        QVERIFY(!w->materials()->isHidden());
        QVERIFY(!w->scene()->isHidden());
    }

    // --- 4. Framing ---------------------------------------------------------------------------------------
    // Fraction of the view's width and height covered by the box around the pixels that are not background.
    static QSizeF coverage(const QImage& img, const QColor& background) {
        int x0 = img.width(), y0 = img.height(), x1 = -1, y1 = -1;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QRgb p = img.pixel(x, y);
                if (std::abs(qRed(p) - background.red()) + std::abs(qGreen(p) - background.green()) +
                        std::abs(qBlue(p) - background.blue()) >
                    30) {
                    x0 = std::min(x0, x);
                    x1 = std::max(x1, x);
                    y0 = std::min(y0, y);
                    y1 = std::max(y1, y);
                }
            }
        if (x1 < 0) return {};
        return {double(x1 - x0 + 1) / img.width(), double(y1 - y0 + 1) / img.height()};
    }

    void framingFillsTheView() {
        if (w->view()->labelsShown() < 0) QSKIP("framing is the Qt3D view's (software preview frames itself)");
        ViewSettings s = w->scene()->settings();
        s.grid = false;
        s.dazzles = false;
        w->scene()->setSettings(s);
        QVERIFY(open(demoA));
        w->timeline()->firstFrame();
        QSizeF c = coverage(captureImage(), s.background);
        qInfo("on load: %.0f %% of the width, %.0f %% of the height", c.width() * 100, c.height() * 100);
        QVERIFY(std::max(c.width(), c.height()) >= 0.85);
        QVERIFY(std::max(c.width(), c.height()) <= 1.0);
        // Another LOD, then F: framed again on what is drawn now.
        s.lod = 1;
        w->scene()->setSettings(s);
        QApplication::setActiveWindow(w.get());
        QTest::keyClick(w.get(), Qt::Key_F);
        c = coverage(captureImage(), s.background);
        qInfo("after F on LOD 1: %.0f %% of the width, %.0f %% of the height", c.width() * 100, c.height() * 100);
        QVERIFY(std::max(c.width(), c.height()) >= 0.85);
        s.lod = 0;
        s.grid = true;
        s.dazzles = true;
        w->scene()->setSettings(s);
    }

    // --- 5. Labels ---------------------------------------------------------------------------------------
    void labelsForSelectionAndHover() {
        if (w->view()->labelsShown() < 0) QSKIP("this view draws no labels (software preview)");
        QVERIFY(open(demoA));
        w->timeline()->firstFrame();
        w->boneTree()->selectBone(-1);
        ViewSettings s = w->scene()->settings();
        s.allLabels = false;
        s.alt = 1; // the demo's one proxy, p_smoke_ALT1 on Barrel, is shown at ALT 1
        w->scene()->setSettings(s);
        QTest::qWait(50);
        // No label until asked for.
        const QImage none = captureImage();
        QCOMPARE(w->view()->labelsShown(), 0);
        // Selecting its bone shows it.
        const int barrel = w->model()->skeleton.find("Barrel");
        QVERIFY(barrel >= 0);
        w->boneTree()->selectBone(barrel);
        QCOMPARE(w->view()->labelsShown(), 1);
        w->boneTree()->selectBone(-1);
        QCOMPARE(w->view()->labelsShown(), 0);
        // Hovering its point shows it.
        QWidget* vw = w->view()->widget();
        QPoint at(-1, -1);
        for (int y = 4; y < vw->height() && at.x() < 0; y += 6)
            for (int x = 4; x < vw->width() && at.x() < 0; x += 6)
                if (w->view()->labelAt(QPoint(x, y)) >= 0) at = QPoint(x, y);
        QVERIFY(at.x() >= 0);
        QMouseEvent move(QEvent::MouseMove, QPointF(at), QPointF(vw->mapToGlobal(at)), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QObject* target = nullptr; // the Qt3D window inside the view's container
        for (QWindow* tw : QGuiApplication::allWindows())
            if (tw->inherits("Qt3DExtras::Qt3DWindow") && tw->isVisible()) target = tw;
        QVERIFY(target);
        QCoreApplication::sendEvent(target, &move);
        QCOMPARE(w->view()->labelsShown(), 1);
        QMouseEvent away(QEvent::MouseMove, QPointF(2, 2), QPointF(vw->mapToGlobal(QPoint(2, 2))), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(target, &away);
        QCOMPARE(w->view()->labelsShown(), 0);
        // The Scene panel toggle shows them all; the image changes where the label is drawn.
        s.allLabels = true;
        w->scene()->setSettings(s);
        QCOMPARE(w->view()->labelsShown(), 1);
        const QImage all = captureImage();
        int orange = 0;
        for (int y = 0; y < all.height(); ++y)
            for (int x = 0; x < all.width(); ++x) {
                const QRgb a = all.pixel(x, y), b = none.pixel(x, y);
                if (a != b && qRed(a) > 180 && qGreen(a) > 100 && qGreen(a) < 210 && qBlue(a) < 120) ++orange;
            }
        QVERIFY2(orange > 10, qPrintable(QString::number(orange)));
        s.allLabels = false;
        s.alt = 0;
        w->scene()->setSettings(s);
    }

    // --- 6. Which clip plays ----------------------------------------------------------------------------
    void autoSelectsFirstMatchingClip() {
        // DEMO_A_DIE_00 (tracks for another model's bones) sorts before DEMO_MOVE_00 (the demo's own clip).
        const QString model = writeFile(QStringLiteral("c/DEMO.ALO"), demo::demoAloBytes());
        writeFile(QStringLiteral("c/DEMO_A_DIE_00.ALA"), alamo::writeClip(foreignClip()));
        writeFile(QStringLiteral("c/DEMO_MOVE_00.ALA"), demo::demoAlaBytes());
        QVERIFY(open(model));
        const QStringList entries = w->clipEntries();
        QCOMPARE(entries.size(), 2);
        QVERIFY(entries[0].startsWith(QStringLiteral("DEMO_A_DIE_00.ALA")));
        QVERIFY2(entries[0].contains(QStringLiteral("does not match")), qPrintable(entries[0]));
        QVERIFY2(!entries[1].contains(QStringLiteral("does not match")), qPrintable(entries[1]));
        // The clip playing is the one that fits, with no warning shown.
        QCOMPARE(w->timeline()->currentClipEntry(), 2);
        QVERIFY(w->clip());
        QVERIFY(matchTracks(w->model()->skeleton, *w->clip()).fits());
        QVERIFY(w->notices()->noticeText(QStringLiteral("clip")).isEmpty());
    }

    // --- 8. Files -----------------------------------------------------------------------------------------
    void openDialogStartsInTheFilesFolder() {
        QAction* openAction = nullptr;
        for (QAction* a : w->findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QKeySequence::Open)) openAction = a;
        QVERIFY(openAction);
        auto dialogDir = [&] {
            QString seen;
            QTimer poll;
            poll.setInterval(50);
            connect(&poll, &QTimer::timeout, this, [&] {
                if (auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                    seen = QFileInfo(d->directory().absolutePath()).canonicalFilePath();
                    d->reject();
                }
            });
            poll.start();
            openAction->trigger(); // returns when the dialog is rejected
            return seen;
        };
        // No file open (the demo): the last folder used.
        QSettings().setValue(QStringLiteral("lastDir"), QFileInfo(demoB).absolutePath());
        w->showDemo();
        QCOMPARE(dialogDir(), QFileInfo(QFileInfo(demoB).absolutePath()).canonicalFilePath());
        // A file open: its folder.
        QVERIFY(open(demoA));
        QCOMPARE(dialogDir(), QFileInfo(QFileInfo(demoA).absolutePath()).canonicalFilePath());
    }

    void foreignClipSaysHowManyTracksMatch() {
        QVERIFY(open(demoA));
        const QString clip = writeFile(QStringLiteral("d/ATAT_WALK_00.ALA"), alamo::writeClip(foreignClip()));
        const int total = int(foreignClip().tracks.size());
        QVERIFY(open(clip));
        QCOMPARE(w->clip()->tracks.size(), size_t(total));
        // Said in the window (not only in the status bar): how many of the clip's tracks match.
        const QString text = w->notices()->noticeText(QStringLiteral("clip"));
        QVERIFY2(text.contains(QStringLiteral("0 of its %1 tracks match").arg(total)), qPrintable(text));
        QTRY_VERIFY(w->notices()->noticeWidget(QStringLiteral("clip"))->isVisible());
        // A fitting clip removes the notice.
        QVERIFY(w->selectClip(1));
        QVERIFY(w->notices()->noticeText(QStringLiteral("clip")).isEmpty());
    }

    // --- 7. W3D skeletons in the SAGE layout -------------------------------------------------------------
    void w3dHierarchyInSageLayout() {
        // The skin sits in art/w3d/cb/, its hierarchy in art/W3D/EB/ (other letters, other case).
        const QString skin = writeFile(QStringLiteral("sage/Art/W3D/cb/cbunit_skn.w3d"), w3dSkin("EBUNIT_SKL"));
        writeFile(QStringLiteral("sage/Art/W3D/EB/EbUnit_Skl.W3D"), w3dHierarchyFile("EBUNIT_SKL"));
        QVERIFY(open(skin));
        QCOMPARE(QString::fromStdString(w->model()->skeleton.name), QStringLiteral("EBUNIT_SKL"));
        QCOMPARE(w->model()->skeleton.bones.size(), size_t(4));
        QVERIFY(w->notices()->noticeText(QStringLiteral("skeleton")).isEmpty());
    }

    void w3dHierarchyChosenByHand() {
        const QString skin = writeFile(QStringLiteral("loose/unit_skn.w3d"), w3dSkin("FARAWAY_SKL"));
        const QString hier = writeFile(QStringLiteral("elsewhere/some_name.w3d"), w3dHierarchyFile("FARAWAY_SKL"));
        QVERIFY(open(skin));
        QVERIFY(w->model()->skeleton.bones.empty());
        // Said in the view, with a way to choose the file.
        const QString text = w->notices()->noticeText(QStringLiteral("skeleton"));
        QVERIFY2(text.contains(QStringLiteral("FARAWAY_SKL")), qPrintable(text));
        QWidget* notice = w->notices()->noticeWidget(QStringLiteral("skeleton"));
        QVERIFY(notice);
        bool hasButton = false;
        for (QPushButton* b : notice->findChildren<QPushButton*>())
            hasButton = hasButton || b->text().startsWith(QStringLiteral("Choose skeleton"));
        QVERIFY(hasButton);
        // What the button does after its file dialog: the model is reloaded with that hierarchy.
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        w->setW3dHierarchyFile(skin, hier);
        QTRY_VERIFY_WITH_TIMEOUT(!ok.isEmpty() && !w->isLoading(), 10000);
        QCOMPARE(QString::fromStdString(w->model()->skeleton.name), QStringLiteral("FARAWAY_SKL"));
        QVERIFY(w->notices()->noticeText(QStringLiteral("skeleton")).isEmpty());
        // Remembered for that model: opening it again (after another file) uses the chosen file.
        QVERIFY(open(demoA));
        QVERIFY(open(skin));
        QCOMPARE(QString::fromStdString(w->model()->skeleton.name), QStringLiteral("FARAWAY_SKL"));
    }

    // --- 9. After a load ----------------------------------------------------------------------------------
    void newModelShownAfterLoad() {
        // From the end of the read to the first frame presented with the new model (reported, not asserted:
        // speed goals belong in benchmarks). The frame shown then is the new model's.
        QVERIFY(open(demoA));
        const QString other =
            corpusRoot().isEmpty() ? demoB : corpusFile(QStringLiteral("alamo"), QStringLiteral("EI_STORMTROOPER.ALO"));
        QSignalSpy shown(w.get(), &MainWindow::modelShown);
        QVERIFY(open(other.isEmpty() ? demoB : other));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 20000);
        qInfo("%s: first frame %lld ms after the read", qPrintable(QFileInfo(w->currentPath()).fileName()),
              shown.first().at(0).toLongLong());
        QCOMPARE(w->currentPath(), QFileInfo(other.isEmpty() ? demoB : other).absoluteFilePath());
    }

    void noticesNeverResizeTheView() {
        // Notices come and go with models (here: missing textures), but the 3D view keeps its size: resizing the
        // OpenGL window makes the software rasterizer reallocate and clear its buffers in the middle of the new
        // model's first frames (measured by bench/gui/model_switch). The bar is one row of constant height.
        Model m = test::demoNamingTextures([](int) { return "NOWHERE.DDS"; });
        const QString model = writeFile(QStringLiteral("resize/NOTEX.ALO"), alamo::writeModel(m));
        QVERIFY(open(demoA));
        QVERIFY(w->notices()->keys().isEmpty());
        QVERIFY(w->notices()->isVisible());
        QVERIFY(w->notices()->summary().contains(QStringLiteral("orbit"))); // the hint line when there is no notice
        QTest::qWait(100);
        QWidget* vw = w->view()->widget();
        const QSize size0 = vw->size();
        const int bar0 = w->notices()->height();
        QList<QSize> resizes;
        struct Filter : QObject {
            std::function<void()> onResize;
            bool eventFilter(QObject*, QEvent* e) override {
                if (e->type() == QEvent::Resize) onResize();
                return false;
            }
        } filter;
        filter.onResize = [&] { resizes << vw->size(); };
        vw->installEventFilter(&filter);
        for (const QString& file : {model, demoA, model}) {
            QSignalSpy shown(w.get(), &MainWindow::modelShown);
            QVERIFY(open(file));
            QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 10000);
            QTest::qWait(200); // notices shown after the first frame would land here
            const bool notex = file == model;
            QCOMPARE(w->notices()->noticeText(QStringLiteral("textures")).isEmpty(), !notex);
            if (notex) {
                // The notice's whole text, even when the row elides it, and its button.
                QVERIFY(w->notices()->noticeWidget(QStringLiteral("textures"))->isVisible());
                QVERIFY(
                    !w->notices()->noticeWidget(QStringLiteral("textures"))->findChildren<QPushButton*>().isEmpty());
            }
            QCOMPARE(w->notices()->height(), bar0);
        }
        vw->removeEventFilter(&filter);
        QVERIFY2(resizes.isEmpty(), qPrintable(QStringLiteral("view resized %1 time(s)").arg(resizes.size())));
        QCOMPARE(vw->size(), size0);
        // Several notices share the row; a long text is elided in the row and whole in its tooltip.
        const QString longText = QStringLiteral("A notice long enough to be cut ").repeated(20) + QStringLiteral("END");
        w->notices()->showNotice(QStringLiteral("test1"), longText, {{QStringLiteral("Do it"), [] {}}});
        w->notices()->showNotice(QStringLiteral("test2"), QStringLiteral("second"));
        QApplication::processEvents();
        QTest::qWait(50);
        QCOMPARE(w->notices()->height(), bar0);
        QCOMPARE(vw->size(), size0);
        QCOMPARE(w->notices()->noticeText(QStringLiteral("test1")), longText);
        auto* label = w->notices()->noticeWidget(QStringLiteral("test1"))->findChild<QLabel*>(QStringLiteral("text"));
        QVERIFY(label);
        QVERIFY(label->text().size() < longText.size());
        QCOMPARE(label->toolTip(), longText);
        w->notices()->removeNotice(QStringLiteral("test1"));
        w->notices()->removeNotice(QStringLiteral("test2"));
    }

    // --- 10. Missing textures -----------------------------------------------------------------------------
    void missingTexturesNeutralAndOneNotice() {
        // The demo with two textures that are nowhere (and one of them later found in an added folder).
        Model m = test::demoNamingTextures([](int i) { return i % 2 ? "MISSING_B.TGA" : "RED_LATER.DDS"; });
        const QString model = writeFile(QStringLiteral("tex/TEXDEMO.ALO"), alamo::writeModel(m));
        ViewSettings s = w->scene()->settings();
        s.grid = false;
        w->scene()->setSettings(s);
        QVERIFY(open(model));
        // The view draws those meshes in a neutral shade: no magenta checker.
        if (w->view()->labelsShown() >= 0) {
            const QImage img = captureImage();
            int magenta = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) {
                    const QRgb p = img.pixel(x, y);
                    if (qRed(p) > 150 && qBlue(p) > 150 && qGreen(p) < 90) ++magenta;
                }
            QVERIFY2(magenta == 0, qPrintable(QString::number(magenta)));
        }
        const int missing = w->materials()->missingTextureCount();
        QCOMPARE(missing, 2);
        // One notice with the count and a button to add texture folders.
        const QString text = w->notices()->noticeText(QStringLiteral("textures"));
        QVERIFY2(text.startsWith(QStringLiteral("2 texture(s) not found")), qPrintable(text));
        bool hasButton = false;
        for (QPushButton* b : w->notices()->noticeWidget(QStringLiteral("textures"))->findChildren<QPushButton*>())
            hasButton = hasButton || b->text().startsWith(QStringLiteral("Add texture folder"));
        QVERIFY(hasButton);
        // What the button does after its folder dialog: one texture found, the notice counts one.
        const QString dir = tmp.filePath(QStringLiteral("texfolder"));
        QDir().mkpath(dir);
        {
            // A 4x4 red uncompressed DDS (the header fields the DDS reader needs).
            QByteArray dds(128, '\0');
            auto put = [&](int at, quint32 v) {
                for (int i = 0; i < 4; ++i)
                    dds[at + i] = char((v >> (8 * i)) & 0xff);
            };
            dds.replace(0, 4, "DDS ");
            put(4, 124);
            put(8, 0x1007);
            put(12, 4);
            put(16, 4);
            put(76, 32);
            put(80, 0x41);
            put(88, 32);
            put(92, 0x00ff0000);
            put(96, 0x0000ff00);
            put(100, 0x000000ff);
            put(104, 0xff000000);
            put(108, 0x1000);
            for (int i = 0; i < 16; ++i)
                dds.append(QByteArray::fromHex("0000ffff"));
            QFile f(QDir(dir).filePath(QStringLiteral("red_later.dds")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(dds);
        }
        w->setTextureDirs({dir});
        QCOMPARE(w->materials()->missingTextureCount(), 1);
        QVERIFY(w->notices()->noticeText(QStringLiteral("textures")).startsWith(QStringLiteral("1 texture(s)")));
        w->setTextureDirs({});
    }

    void texturePreviewUsesThePanel() {
        if (corpusRoot().isEmpty()) QSKIP("corpus not found: needs a model with a texture beside it");
        // A corpus model whose texture is found (EaW: the textures folder next to the models folder).
        QString model;
        QDirIterator it(corpusRoot() + QStringLiteral("/alamo"), {QStringLiteral("*.alo"), QStringLiteral("*.ALO")},
                        QDir::Files, QDirIterator::Subdirectories);
        QStringList models;
        while (it.hasNext())
            models << it.next();
        models.sort();
        for (const QString& m : models) {
            if (!open(m)) continue; // e.g. the corpus' particle file
            QTRY_VERIFY_WITH_TIMEOUT(w->materials()->thumbnailsReady(), 30000);
            if (w->materials()->selectFirstFoundTexture()) {
                model = m;
                break;
            }
        }
        if (model.isEmpty()) QSKIP("no corpus model with a found texture");
        // The same window size for every build, so that only the panel's own layout is compared.
        const QSize old = w->size();
        w->resize(QGuiApplication::primaryScreen()->availableGeometry().size() * 9 / 10);
        QVERIFY(open(model));
        QTest::qWait(200);
        QLabel* preview = w->materials()->preview();
        // Before a texture is chosen the preview is one line and the list has the panel (at 1280x800 it kept three
        // rows beside an empty 140 px preview).
        QVERIFY2(preview->height() <= preview->fontMetrics().height() + 8,
                 qPrintable(QString::number(preview->height())));
        QVERIFY(preview->text().contains(QStringLiteral("Select a texture")));
        w->materials()->selectFirstFoundTexture();
        const QPixmap pm = preview->pixmap();
        QVERIFY(!pm.isNull());
        qInfo("%s: preview %dx%d in a %dx%d label, panel %dx%d", qPrintable(QFileInfo(model).fileName()), pm.width(),
              pm.height(), preview->width(), preview->height(), w->materials()->width(), w->materials()->height());
        // The preview takes a good part of the panel (it was a 70-96 px strip), and the image fills the label.
        const int shown = std::max(pm.width(), pm.height());
        const int panel = w->materials()->height(), label = preview->height();
        const int labelSide = std::min(preview->width(), preview->height());
        w->resize(old);
        QVERIFY2(shown >= panel / 3, qPrintable(QString::number(shown)));
        QVERIFY(label >= panel / 3);
        QVERIFY(shown >= labelSide * 8 / 10);
    }

    // --- 11. AMAL stage -------------------------------------------------------------------------------------
    void amalTimeLabelsDoNotOverlap() {
        // A movement going back and forth over the same 20 pixels for 12 s: its one-second marks pile up.
        amal::BankSpec spec;
        amal::MovementSpec m;
        m.name = "SHUTTLE";
        m.speed = 1;
        for (int i = 0; i < 12; ++i) {
            m.x.insert(m.x.end(), 10, amal::moveByte(i % 2 ? -2 : 2));
            m.x.push_back(amal::pauseByte(40));
            m.y.push_back(amal::pauseByte(10));
            m.y.push_back(amal::pauseByte(40));
        }
        spec.movements.push_back(m);
        spec.withPrograms = false;
        const QString bank = writeFile(QStringLiteral("shuttle.abk"), amal::writeAmalBank(spec));
        QVERIFY(open(bank));
        AmalStage* stage = w->amalView()->stage();
        qInfo("stage %dx%d visible %d, %d ticks", stage->width(), stage->height(), stage->isVisible(),
              w->amalView()->durationTicks());
        stage->update();
        QTRY_VERIFY(!stage->timeLabelRects().empty());
        const std::vector<QRectF>& rects = stage->timeLabelRects();
        for (size_t i = 0; i < rects.size(); ++i)
            for (size_t j = i + 1; j < rects.size(); ++j)
                QVERIFY2(!rects[i].intersects(rects[j]), qPrintable(QStringLiteral("labels %1 and %2").arg(i).arg(j)));
        QVERIFY(open(demoA));
    }

    // Pixels of the stage with exactly this colour.
    static int countColour(const QImage& img, QRgb c) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                n += (img.pixel(x, y) & 0xFFFFFF) == (c & 0xFFFFFF);
        return n;
    }

    void amalStageDrawsTheSpriteImage() {
        // A source with its own sprite bank: image 1 solid green, image 2 solid blue (32x16, depth 2).
        // Program 0 sets its image (L A=2); program 1 does not: its object is the environment's sprite 5
        // (image 1 at 60,40) driven by channel 1.
        std::array<uint16_t, 32> palette{};
        palette[1] = 0x0F0;
        palette[2] = 0x00F;
        amal::BankSpec spec;
        spec.programs = {"L A=2~M 40,0,20", "M 40,0,20"};
        spec.environment = "Screen 0~sprite 5,60,40,1~channel to sprite 1,5";
        const QString file = writeFile(
            QStringLiteral("sprites/STAGE.AMOS"),
            amal::writeAmosSource(
                {amal::writeAmalBank(spec),
                 amal::writeImageBank({amal::solidImage(2, 16, 2, 1), amal::solidImage(2, 16, 2, 2)}, palette)}));
        QVERIFY(open(file));
        QVERIFY(w->showingAmal());
        QListWidget* list = w->amalView()->findChild<QListWidget*>();
        QVERIFY(list);
        QCOMPARE(list->count(), 2);
        AmalStage* stage = w->amalView()->stage();
        const QRgb green = qRgb(0, 255, 0), blue = qRgb(0, 0, 255);
        auto grabAt = [&](int tick) {
            w->amalView()->setTick(tick);
            QTest::qWait(20);
            return stage->grab().toImage().convertToFormat(QImage::Format_RGB32);
        };
        // The image scaled to the stage: at least half of its 32x16 Amiga pixels' area in stage pixels.
        auto enough = [&](int n) {
            const double s = std::min((stage->width() - 20) / 336.0, (stage->height() - 38) / 272.0);
            return n >= int(32 * 16 * s * s / 2);
        };
        list->setCurrentRow(0);
        QImage img = grabAt(5);
        qInfo("program 0 at tick 5: %d blue, %d green pixels on a %dx%d stage", countColour(img, blue),
              countColour(img, green), img.width(), img.height());
        QVERIFY(enough(countColour(img, blue)));
        QCOMPARE(countColour(img, green), 0);
        list->setCurrentRow(1);
        img = grabAt(5);
        qInfo("program 1 at tick 5: %d blue, %d green pixels", countColour(img, blue), countColour(img, green));
        QVERIFY(enough(countColour(img, green)));
        QCOMPARE(countColour(img, blue), 0);
        // The stage, not the listing, has the room: most of the view's width.
        qInfo("stage %dx%d in a view of %dx%d", stage->width(), stage->height(), w->amalView()->width(),
              w->amalView()->height());
        QVERIFY(stage->width() >= w->amalView()->width() * 3 / 5);
        QVERIFY(stage->height() >= w->amalView()->height() * 9 / 10);
        QVERIFY(open(demoA));
    }

    void amalCorpusSpriteImages() {
        // LightSpeed.AMOS (AMOSPro Turbo examples) holds 48 sprites; its program 8 animates images 31-42.
        const QString file = corpusFile(QStringLiteral("amal"), QStringLiteral("LightSpeed.AMOS"));
        if (file.isEmpty()) QSKIP("corpus file LightSpeed.AMOS not found");
        QVERIFY(open(file));
        QListWidget* list = w->amalView()->findChild<QListWidget*>();
        int row = -1;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->text().startsWith(QStringLiteral("Program 8 "))) row = i;
        QVERIFY(row >= 0);
        list->setCurrentRow(row);
        // The image program 8 shows at tick 20, decoded by core: its most frequent colour must be on the stage.
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const amal::BankFile bank = amal::readBankFile(
            ByteSpan(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size())), file.toStdString());
        QVERIFY(!bank.imageBanks.empty());
        amal::SimOptions opt;
        opt.ticks = 20;
        const auto objects = amal::environmentObjects(amal::requireAmalBank(bank).environment);
        if (auto it = objects.find(8); it != objects.end()) {
            opt.x = int16_t(it->second.x);
            opt.y = int16_t(it->second.y);
            opt.a = int16_t(it->second.image);
        }
        const amal::Track track = amal::programTrack(amal::requireAmalBank(bank), 8, opt);
        QVERIFY(track.points.size() > 20);
        const int a = track.points[20].a;
        QVERIFY(a >= 1 && a <= int(bank.imageBanks[0].images.size()));
        const amal::AmosImage& im = bank.imageBanks[0].images[size_t(a - 1)];
        std::map<int, int> freq;
        for (int y = 0; y < im.height; ++y)
            for (int x = 0; x < im.width(); ++x)
                if (const int c = im.colorAt(x, y)) ++freq[c];
        QVERIFY(!freq.empty());
        int colour = freq.begin()->first;
        for (const auto& [c, n] : freq)
            if (n > freq[colour]) colour = c;
        const uint16_t v = bank.imageBanks[0].palette[size_t(colour & 31)];
        const QRgb rgb = qRgb(((v >> 8) & 15) * 17, ((v >> 4) & 15) * 17, (v & 15) * 17);
        w->amalView()->setTick(20);
        QTest::qWait(20);
        const QImage img = w->amalView()->stage()->grab().toImage().convertToFormat(QImage::Format_RGB32);
        const int n = countColour(img, rgb);
        qInfo("LightSpeed program 8, tick 20: image %d, colour %d (#%03x) on %d stage pixels", a, colour, v, n);
        QVERIFY(n > 0);
        QVERIFY(open(demoA));
    }

    void cleanupTestCase() {
        setLoadDelayForTesting(0);
        if (w) w->close();
        w.reset();
    }
};

int runFirstUseTests(int argc, char** argv) {
    FirstUseTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "first_use_test.moc"
