// Drives the real main window: open a model through MainWindow::openFile (what File → Open, drag and
// drop, recent files and the command line use), pick a clip, scrub, step, toggle LOD/ALT and faction
// colour, select a bone, open broken files. Images come from the view's own capture.
#include "first_use_test.h"
#include "ui_fixtures.h"

#include "amal_view.h"
#include "bone_tree_dock.h"
#include "export_dialog.h"
#include "main_window.h"
#include "material_dock.h"
#include "notice_bar.h"
#include "scene_dock.h"
#include "timeline_dock.h"

#include "alamo/alamo_writer.h"
#include "alamo/particle_writer.h"
#include "amal/amal_writer.h"
#include "bw2_fixtures.h"         // tests/core: .bwm/.al made by the project's own writers
#include "check/check_fixtures.h" // tests/core: a writer-made mod with one planted defect
#include "demo/demo_model.h"
#include "objects_dock.h"
#include "particle_fixtures.h" // tests/core: particle systems built in code
#include "problems_dock.h"
#include "resolve/resolver.h"
#include "scene/pose.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QUrl>
#include <glm/gtc/matrix_transform.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

#include <sys/stat.h>

using namespace rs;
using namespace rs::ui;

namespace {

// A "Vm…:  N kB" line of /proc/self/status in KiB, -1 when absent.
long procStatusKiB(const char* key) {
    FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    const size_t n = std::strlen(key);
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, key, n) == 0 && line[n] == ':') {
            v = std::strtol(line + n + 1, nullptr, 10);
            break;
        }
    std::fclose(f);
    return v;
}

QString corpusDir() {
    QString d = qEnvironmentVariable("RIGSCOPE_CORPUS");
    if (d.isEmpty()) d = QStringLiteral(RIGSCOPE_CORPUS_DIR);
    return QFileInfo(d).isDir() ? d : QString();
}

// Alamo models in the corpus, sorted.
QStringList corpusModels() {
    QStringList out;
    const QString root = corpusDir();
    if (root.isEmpty()) return out;
    QDirIterator it(root + QStringLiteral("/alamo"), {QStringLiteral("*.alo"), QStringLiteral("*.ALO")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

QImage captureView(MainWindow& w) {
    QImage result;
    bool done = false;
    // Let pending repaints and pose updates reach the view first.
    QTest::qWait(50);
    w.view()->capture([&](const QImage& img) {
        result = img.convertToFormat(QImage::Format_RGB32);
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 20000)) qWarning("capture timed out");
    // RIGSCOPE_TEST_DUMP=DIR keeps every capture for inspection.
    static int n = 0;
    if (const QString dir = qEnvironmentVariable("RIGSCOPE_TEST_DUMP"); !dir.isEmpty())
        result.save(QStringLiteral("%1/%2-%3.png")
                        .arg(dir)
                        .arg(n++, 3, 10, QLatin1Char('0'))
                        .arg(QTest::currentTestFunction()));
    return result;
}

// Pixels whose colour differs noticeably.
int differingPixels(const QImage& a, const QImage& b) {
    if (a.size() != b.size() || a.isNull()) return -1;
    int n = 0;
    for (int y = 0; y < a.height(); ++y) {
        const QRgb* pa = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const QRgb* pb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x)
            if (std::abs(qRed(pa[x]) - qRed(pb[x])) + std::abs(qGreen(pa[x]) - qGreen(pb[x])) +
                    std::abs(qBlue(pa[x]) - qBlue(pb[x])) >
                24)
                ++n;
    }
    return n;
}

// Pixels where red clearly dominates blue (faction red) / blue dominates red.
int redPixels(const QImage& img, bool red) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y) {
        const QRgb* p = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            const int r = qRed(p[x]), b = qBlue(p[x]);
            if (red ? (r > b + 50) : (b > r + 50)) ++n;
        }
    }
    return n;
}

std::vector<glm::mat4> poseAt(const MainWindow& w, float position, LoopMode mode) {
    const Model& m = *w.model();
    PoseBuffers buf(m.skeleton.bones.size());
    const Clip* c = w.clip().get();
    ClipBinding b = c ? bindClip(m.skeleton, *c) : ClipBinding{};
    evaluatePose(m.skeleton, c, c ? &b : nullptr, position, mode, buf.view());
    return buf.world;
}

float maxBoneMove(const std::vector<glm::mat4>& a, const std::vector<glm::mat4>& b) {
    float d = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        for (int c = 0; c < 4; ++c)
            d = std::max(d, glm::length(a[i][c] - b[i][c]));
    return d;
}

} // namespace

class UiTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w;
    QStringList errors;
    QString modelPath;
    QTemporaryDir tmp;

    QString writeFile(const QString& name, const std::vector<uint8_t>& bytes) {
        const QString path = tmp.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size()));
        return path;
    }

    // Frame 0 of the current clip with the camera framing the model.
    void resetView() {
        w->timeline()->pause();
        w->timeline()->firstFrame();
        w->view()->frameModel();
    }

    QString statusBarText() const {
        QString all;
        for (QLabel* l : w->statusBar()->findChildren<QLabel*>())
            all += l->text() + QLatin1Char(' ');
        return all;
    }

    bool open(const QString& path) {
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        QSignalSpy bad(w.get(), &MainWindow::openFailed);
        QElapsedTimer t;
        t.start();
        w->openFile(path);
        // The read runs on a worker thread: openFile returns at once.
        if (!w->isLoading()) return false;
        if (!QTest::qWaitFor([&] { return !ok.isEmpty() || !bad.isEmpty(); }, 60000)) return false;
        qInfo("%s %s in %lld ms (read on the worker, applied on the GUI thread)", ok.isEmpty() ? "refused" : "opened",
              qPrintable(QFileInfo(path).fileName()), t.elapsed());
        return !ok.isEmpty();
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        w = std::make_unique<MainWindow>();
        w->setErrorReporter(
            [this](const QString& title, const QString& msg) { errors << title + QLatin1Char('\n') + msg; });
        w->resize(1280, 800);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        qInfo("3D view backend: %s", qPrintable(w->view()->backendName()));
        const QStringList models = corpusModels();
        for (const QString& m : models)
            if (QFileInfo(m).fileName().compare(QStringLiteral("EI_STORMTROOPER.ALO"), Qt::CaseInsensitive) == 0)
                modelPath = m;
        // Otherwise any corpus model with companion clips.
        for (const QString& m : models)
            if (modelPath.isEmpty() && !Resolver().companionClips(m.toStdString()).empty()) modelPath = m;
        if (modelPath.isEmpty()) {
            // No corpus: the built-in demo written by the project's Alamo writer, with its clip beside it
            // under the companion naming convention.
            qInfo("corpus not found (RIGSCOPE_CORPUS or ../shared/corpus): using the demo model written to %s",
                  qPrintable(tmp.path()));
            modelPath = writeFile(QStringLiteral("DEMO.ALO"), demo::demoAloBytes());
            writeFile(QStringLiteral("DEMO_IDLE_00.ALA"), demo::demoAlaBytes());
        }
        qInfo("model: %s", qPrintable(modelPath));
    }

    void demoWithoutFile() {
        // What `rigscope` with no file shows.
        w->showDemo();
        QVERIFY(w->model());
        QVERIFY(w->currentPath().isEmpty());
        QVERIFY(w->model()->skeleton.bones.size() > 2);
        QCOMPARE(w->model()->lodLevels().size(), size_t(2));
        QCOMPARE(w->clipEntries().size(), 1); // the clip contained in the demo document
        QVERIFY(w->clip());
        const QImage img = captureView(*w);
        QVERIFY(!img.isNull());
        QVERIFY(errors.isEmpty());
        // The demo clip has step and visibility keys: the scrub bar marks exactly those frames.
        const Clip& c = *w->clip();
        std::set<int> steps, vis;
        for (const BoneTrack& t : c.tracks) {
            for (size_t f = 0; f < t.step.size(); ++f)
                if (t.step[f]) steps.insert(int(f));
            for (size_t f = 1; f < t.visibility.size(); ++f)
                if (t.visibility[f] != t.visibility[f - 1]) vis.insert(int(f));
        }
        QVERIFY(!steps.empty());
        QVERIFY(!vis.empty());
        std::set<int> markedSteps, markedVis;
        for (const auto& [frame, kind] : w->timeline()->slider()->marks()) {
            if (kind == MarkedSlider::Mark::Step) markedSteps.insert(frame);
            if (kind == MarkedSlider::Mark::Visibility) markedVis.insert(frame);
        }
        QCOMPARE(markedSteps, steps);
        QCOMPARE(markedVis, vis);
    }

    void openModelThroughFileOpenPath() {
        QVERIFY(open(modelPath));
        QVERIFY(errors.isEmpty());
        QVERIFY(w->model());
        QCOMPARE(w->currentPath(), QFileInfo(modelPath).absoluteFilePath());
        QVERIFY(!w->model()->skeleton.bones.empty());
        QVERIFY(w->windowTitle().contains(QFileInfo(modelPath).fileName()));
        // The bone tree shows every bone; the clip selector lists the companion clips.
        for (size_t b = 0; b < w->model()->skeleton.bones.size(); ++b)
            QVERIFY(w->boneTree()->itemForBone(int(b)));
        QCOMPARE(w->clipEntries().size(), int(Resolver().companionClips(modelPath.toStdString()).size()));
        // Recent files remember it.
        QCOMPARE(w->recentFiles().value(0), QFileInfo(modelPath).absoluteFilePath());
    }

    void pickClipAndScrub() {
        QVERIFY(w->model());
        // Pick the clip and frame that move the bones most away from frame 0.
        int best = -1, bestFrame = 0;
        float bestMove = 0;
        for (int i = 1; i <= w->clipEntries().size(); ++i) {
            QVERIFY(w->selectClip(i));
            QVERIFY(w->clip());
            const auto pose0 = poseAt(*w, 0, LoopMode::Loop);
            for (uint32_t f = 1; f + 1 < w->clip()->frameCount; ++f) {
                const float move = maxBoneMove(pose0, poseAt(*w, float(f), LoopMode::Loop));
                if (move > bestMove) bestMove = move, best = i, bestFrame = int(f);
            }
        }
        QVERIFY2(best > 0, "no companion clip moves any bone");
        // Pick it through the selector, as a user would.
        QComboBox* combo = w->timeline()->clipCombo();
        combo->setCurrentIndex(best);
        emit combo->activated(best);
        QCOMPARE(w->timeline()->currentClipEntry(), best);
        QVERIFY(w->clip());
        QCOMPARE(w->timeline()->clip(), w->clip().get());
        QVERIFY(w->clip()->frameCount > 2);

        QCOMPARE(w->timeline()->slider()->maximum(), int(w->clip()->frameCount) - 1);
        w->timeline()->slider()->setValue(0);
        const auto pose0 = poseAt(*w, w->timeline()->position(), w->timeline()->loopMode());
        const QImage img0 = captureView(*w);
        QVERIFY(!img0.isNull());
        // Scrub with the slider to the middle.
        const int mid = bestFrame;
        w->timeline()->slider()->setValue(mid);
        QCOMPARE(int(w->timeline()->displayFrame()), mid);
        const auto pose1 = poseAt(*w, w->timeline()->position(), w->timeline()->loopMode());
        QVERIFY2(maxBoneMove(pose0, pose1) > 1e-3f, "pose did not change when scrubbing");
        const QImage img1 = captureView(*w);
        const int diff = differingPixels(img0, img1);
        qInfo("scrub 0 -> %d: %d pixels changed", mid, diff);
        QVERIFY2(diff > 30, "rendered image did not change when scrubbing");
    }

    void stepFramesWithShortcuts() {
        QVERIFY(w->clip());
        TimelineDock* t = w->timeline();
        const int last = int(w->clip()->frameCount) - 1;
        t->setLoopMode(LoopMode::Once);
        t->setPosition(3);
        QApplication::setActiveWindow(w.get());
        QTRY_VERIFY(w->isActiveWindow());
        QTest::keyClick(w.get(), Qt::Key_Right);
        QCOMPARE(t->displayFrame(), 4.0f);
        QTest::keyClick(w.get(), Qt::Key_Left);
        QTest::keyClick(w.get(), Qt::Key_Left);
        QCOMPARE(t->displayFrame(), 2.0f);
        QTest::keyClick(w.get(), Qt::Key_End);
        QCOMPARE(t->displayFrame(), float(last));
        QCOMPARE(t->slider()->value(), last);
        QTest::keyClick(w.get(), Qt::Key_Home);
        QCOMPARE(t->displayFrame(), 0.0f);
        // Space plays: time advances; Space again pauses.
        QTest::keyClick(w.get(), Qt::Key_Space);
        QVERIFY(t->playing());
        QTRY_VERIFY_WITH_TIMEOUT(t->displayFrame() > 1.0f, 5000);
        QTest::keyClick(w.get(), Qt::Key_Space);
        QVERIFY(!t->playing());
        const float paused = t->position();
        QTest::qWait(100);
        QCOMPARE(t->position(), paused);
        // Once stops at the last frame.
        t->setPosition(float(last) - 0.5f);
        t->setSpeed(4.0);
        t->play();
        QTRY_VERIFY_WITH_TIMEOUT(!t->playing(), 5000);
        QCOMPARE(t->displayFrame(), float(last));
        t->setSpeed(1.0);
        // Ping-pong bounces at the ends; loop wraps with period frameCount-1.
        t->setLoopMode(LoopMode::PingPong);
        t->setPosition(float(last) + 2.0f);
        QCOMPARE(t->displayFrame(), float(last) - 2.0f);
        t->setLoopMode(LoopMode::Loop);
        t->setPosition(float(last) + 2.0f);
        QCOMPARE(t->displayFrame(), 2.0f);
        t->firstFrame();
    }

    void playbackRate() {
        // Frames the view presents per second while the clip plays (window 1280x800, software OpenGL).
        QVERIFY(w->clip());
        int frames = 0;
        auto c = connect(w->view(), &ModelView::framePresented, this, [&] { ++frames; });
        w->timeline()->play();
        QElapsedTimer t;
        t.start();
        // The status bar shows the rate once a second while playing.
        QTRY_VERIFY_WITH_TIMEOUT(statusBarText().contains(QStringLiteral(" fps")), 2500);
        QTest::qWait(int(std::max<qint64>(0, 3000 - t.elapsed())));
        const double fps = frames * 1000.0 / double(t.elapsed());
        w->timeline()->pause();
        disconnect(c);
        qInfo("playback: %.1f frames per second presented over %lld ms", fps, t.elapsed());
        QVERIFY(fps >= 5.0);
        QTRY_VERIFY_WITH_TIMEOUT(statusBarText().contains(QStringLiteral("paused")), 3000);
    }

    void lodChangesImage() {
        resetView();
        QComboBox* lod = w->scene()->lodCombo();
        if (lod->count() < 2) QSKIP("model has fewer than two LODs");
        lod->setCurrentIndex(lod->count() - 1);
        const QImage a = captureView(*w);
        const int lodA = w->scene()->settings().lod;
        lod->setCurrentIndex(0);
        QVERIFY(w->scene()->settings().lod != lodA);
        const QImage b = captureView(*w);
        const int diff = differingPixels(a, b);
        qInfo("LOD%d -> LOD%d: %d pixels changed", lodA, w->scene()->settings().lod, diff);
        QVERIFY(diff > 30);
        lod->setCurrentIndex(lod->count() - 1);
    }

    void factionColourChangesImage() {
        // Faction colour tints FC_ meshes and the Colorization parameter over the texture; a missing
        // texture stays a plain placeholder. Checked on the built-in demo (its FC_ mesh needs no texture),
        // and logged for the opened model.
        auto check = [&](bool require) {
            resetView();
            QComboBox* fc = w->scene()->factionCombo();
            fc->setCurrentIndex(0); // Empire blue
            const QImage blue = captureView(*w);
            fc->setCurrentIndex(1); // Rebel red
            QCOMPARE(w->scene()->settings().factionColor, factionPresets()[1].color);
            const QImage red = captureView(*w);
            const int diff = differingPixels(blue, red);
            qInfo("%s: faction blue -> red: %d pixels changed, red pixels %d -> %d",
                  w->currentPath().isEmpty() ? "demo" : qPrintable(QFileInfo(w->currentPath()).fileName()), diff,
                  redPixels(blue, true), redPixels(red, true));
            fc->setCurrentIndex(0);
            if (!require) return;
            QVERIFY(diff > 30);
            QVERIFY(redPixels(red, true) > redPixels(blue, true));
        };
        check(false);
        w->showDemo();
        bool anyColorized = false;
        for (const Mesh& m : w->model()->meshes)
            anyColorized = anyColorized || m.colorize;
        QVERIFY(anyColorized);
        check(true);
        if (QTest::currentTestFailed()) return;
        QVERIFY(open(modelPath));
    }

    void selectBoneReachesView() {
        resetView();
        const Model& m = *w->model();
        // A bone some mesh is attached to, else the last bone.
        int bone = int(m.skeleton.bones.size()) - 1;
        for (const Mesh& mesh : m.meshes)
            if (mesh.bone > 0) bone = mesh.bone;
        ViewSettings s = w->scene()->settings();
        s.skeleton = true;
        w->scene()->setSettings(s);
        const QImage before = captureView(*w);
        QTreeWidget* tree = w->boneTree()->tree();
        QTreeWidgetItem* item = w->boneTree()->itemForBone(bone);
        QVERIFY(item);
        tree->scrollToItem(item);
        QTest::qWait(20);
        const QRect r = tree->visualItemRect(item);
        // Click on the bone's name, past its checkbox (deep bones may start near the right edge of the narrow dock).
        const QPoint at(std::min(r.x() + 40, tree->viewport()->width() - 4), r.center().y());
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(item->checkState(0), Qt::Checked);
        QCOMPARE(w->boneTree()->selectedBone(), bone);
        QCOMPARE(w->view()->highlightedBone(), bone);
        QVERIFY(w->boneTree()->detailsText().contains(QString::fromStdString(m.skeleton.bones[size_t(bone)].name)));
        QVERIFY(w->boneTree()->detailsText().contains(QStringLiteral("world")));
        const QImage after = captureView(*w);
        const int diff = differingPixels(before, after);
        // Both views draw the highlighted bone in yellow.
        auto yellow = [](const QImage& img) {
            int n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) {
                    const QRgb p = img.pixel(x, y);
                    n += qRed(p) > 170 && qGreen(p) > 140 && qBlue(p) < 100;
                }
            return n;
        };
        qInfo("highlight bone %d: %d pixels changed, yellow pixels %d -> %d", bone, diff, yellow(before),
              yellow(after));
        QVERIFY(diff > 0);
        QVERIFY(yellow(after) > yellow(before));
        // Unchecking a bone hides it in the view.
        item->setCheckState(0, Qt::Unchecked);
        QVERIFY(w->view()->boneHidden(bone));
        item->setCheckState(0, Qt::Checked);
        QVERIFY(!w->view()->boneHidden(bone));
        s.skeleton = false;
        w->scene()->setSettings(s);
    }

    void clipFileAppliesToOpenModel() {
        const auto companions = Resolver().companionClips(modelPath.toStdString());
        QVERIFY(!companions.empty());
        const auto model = w->model();
        const int entries = w->clipEntries().size();
        QSignalSpy changed(w.get(), &MainWindow::clipChanged);
        QVERIFY(open(QString::fromStdString(companions.front())));
        QCOMPARE(w->model(), model); // the clip did not replace the model
        QCOMPARE(w->clipEntries().size(), entries + 1);
        QVERIFY(w->clip());
        QCOMPARE(w->timeline()->currentClipEntry(), entries + 1);
    }

    void textureFolderResolvesMissingTexture() {
        QVERIFY(open(modelPath));
        QTRY_VERIFY_WITH_TIMEOUT(w->materials()->thumbnailsReady(), 30000);
        QString missing;
        const auto& resolved = w->materials()->resolvedTextures();
        for (auto it = resolved.begin(); it != resolved.end(); ++it)
            if (it.value().isEmpty()) missing = it.key();
        if (missing.isEmpty()) QSKIP("the model names no missing texture");
        const int missingBefore = w->materials()->missingTextureCount();
        // A 4x4 red uncompressed DDS under the missing name's stem, in a folder added as in Preferences.
        QDir(tmp.path()).mkpath(QStringLiteral("textures"));
        const QString dir = tmp.filePath(QStringLiteral("textures"));
        const QString file = QDir(dir).filePath(QFileInfo(missing).completeBaseName() + QStringLiteral(".dds"));
        QByteArray dds(128, '\0');
        auto put = [&](int at, quint32 v) {
            for (int i = 0; i < 4; ++i)
                dds[at + i] = char((v >> (8 * i)) & 0xff);
        };
        dds.replace(0, 4, "DDS ");
        put(4, 124);
        put(8, 0x1007); // caps, height, width, pixel format
        put(12, 4);
        put(16, 4);
        put(76, 32);
        put(80, 0x41); // RGB + alpha pixels
        put(88, 32);
        put(92, 0x00ff0000);
        put(96, 0x0000ff00);
        put(100, 0x000000ff);
        put(104, 0xff000000);
        put(108, 0x1000);
        for (int i = 0; i < 16; ++i)
            dds.append(QByteArray::fromHex("0000ffff")); // B G R A
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(dds);
        }
        w->setTextureDirs({dir});
        QCOMPARE(QSettings().value(QStringLiteral("textureDirs")).toStringList(), QStringList{dir});
        QCOMPARE(QFileInfo(w->materials()->resolvedTextures().value(missing)).canonicalFilePath(),
                 QFileInfo(file).canonicalFilePath());
        QVERIFY(w->materials()->missingTextureCount() < missingBefore);
        QTRY_VERIFY_WITH_TIMEOUT(w->materials()->thumbnailsReady(), 30000);
        QVERIFY(w->materials()->selectTexture(missing));
        const QPixmap pm = w->materials()->preview()->pixmap();
        QVERIFY(!pm.isNull());
        const QImage thumb = pm.toImage();
        const QRgb c = thumb.pixel(thumb.width() / 2, thumb.height() / 2);
        qInfo("thumbnail of %s: %dx%d centre rgb(%d,%d,%d)", qPrintable(file), thumb.width(), thumb.height(), qRed(c),
              qGreen(c), qBlue(c));
        QVERIFY(qRed(c) > 200 && qGreen(c) < 50 && qBlue(c) < 50);
        if (!qEnvironmentVariableIsSet("KEEP_DIRS")) w->setTextureDirs({});
    }

    void dropModelAndClip() {
        // Dropping a model with one of its clips: the model opens, then the clip applies to it.
        const auto companions = Resolver().companionClips(modelPath.toStdString());
        QVERIFY(!companions.empty());
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(companions.back())), QUrl::fromLocalFile(modelPath)});
        QDragEnterEvent enter(QPoint(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy opened(w.get(), &MainWindow::documentOpened);
        QDropEvent drop(QPointF(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &drop);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 2, 60000);
        QCOMPARE(opened[0].at(0).toString(), QFileInfo(modelPath).absoluteFilePath());
        QCOMPARE(opened[1].at(0).toString(), QFileInfo(QString::fromStdString(companions.back())).absoluteFilePath());
        QVERIFY(w->clip());
        QCOMPARE(w->clipEntries().last(), QFileInfo(QString::fromStdString(companions.back())).fileName());
        QCOMPARE(w->timeline()->currentClipEntry(), w->clipEntries().size());
    }

    void altChangesImage() {
        // A model with at least two ALT levels, if the corpus has one.
        QString altModel;
        const QStringList candidates = corpusModels() << modelPath;
        for (const QString& m : candidates) {
            try {
                const Document d = Resolver().read(m.toStdString());
                if (d.model && d.model->altLevels().size() >= 2) {
                    altModel = m;
                    break;
                }
            } catch (const std::exception&) {
            }
        }
        if (altModel.isEmpty()) QSKIP("no model with two ALT levels");
        QVERIFY(open(altModel));
        QComboBox* alt = w->scene()->altCombo();
        QVERIFY(alt->count() >= 2);
        alt->setCurrentIndex(0);
        const QImage a = captureView(*w);
        alt->setCurrentIndex(alt->count() - 1);
        const QImage b = captureView(*w);
        const int diff = differingPixels(a, b);
        qInfo("%s %s -> ALT%d: %d pixels changed", qPrintable(QFileInfo(altModel).fileName()),
              qPrintable(alt->itemText(0)), w->scene()->settings().alt, diff);
        QVERIFY(diff > 30);
    }

    void corruptFileKeepsModel() {
        QVERIFY(open(modelPath));
        const auto before = w->model();
        const QString title = w->windowTitle();
        errors.clear();
        // 1. A truncated copy of the real model (in a temporary folder).
        QFile src(modelPath);
        QVERIFY(src.open(QIODevice::ReadOnly));
        const QByteArray head = src.read(src.size() / 3);
        const QString truncated = tmp.filePath(QStringLiteral("truncated.alo"));
        {
            QFile f(truncated);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(head);
        }
        QSignalSpy failed(w.get(), &MainWindow::openFailed);
        QVERIFY(!open(truncated));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].contains(QStringLiteral("truncated.alo")), qPrintable(errors[0]));
        QVERIFY2(errors[0].contains(QStringLiteral("offset")), qPrintable(errors[0])); // ParseError::what()
        QCOMPARE(w->model(), before);
        QCOMPARE(w->currentPath(), QFileInfo(modelPath).absoluteFilePath());
        QCOMPARE(w->windowTitle(), title);
        // 2. Garbage with a model extension.
        const QString garbage = tmp.filePath(QStringLiteral("garbage.alo"));
        {
            QFile f(garbage);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(64, '\xff'));
        }
        QVERIFY(!open(garbage));
        QCOMPARE(errors.size(), 2);
        QVERIFY(errors[1].contains(QStringLiteral("garbage.alo")));
        QCOMPARE(w->model(), before);
        // 3. A missing file.
        QVERIFY(!open(tmp.filePath(QStringLiteral("does-not-exist.alo"))));
        QCOMPARE(errors.size(), 3);
        QCOMPARE(w->model(), before);
        // The view still shows the model: a capture is not just background.
        const QImage img = captureView(*w);
        QVERIFY(!img.isNull());
        const QRgb bg = img.pixel(0, 0);
        int other = 0;
        for (int y = 0; y < img.height(); y += 4)
            for (int x = 0; x < img.width(); x += 4)
                other += img.pixel(x, y) != bg;
        QVERIFY(other > 50);
    }

    void amalBankShowsStage() {
        QString bank;
        if (!corpusDir().isEmpty()) {
            QDirIterator it(corpusDir() + QStringLiteral("/amal"), {QStringLiteral("*.abk"), QStringLiteral("*.Abk")},
                            QDir::Files, QDirIterator::Subdirectories);
            QStringList banks;
            while (it.hasNext())
                banks << it.next();
            banks.sort();
            for (const QString& b : banks)
                if (QFileInfo(b).fileName() == QLatin1String("AMAL_Example_File.Abk")) bank = b;
            if (bank.isEmpty() && !banks.isEmpty()) bank = banks.front();
        }
        if (bank.isEmpty()) {
            // A bank written by the project's AMAL writer: one movement of 40 steps right, 20 down.
            amal::BankSpec spec;
            amal::MovementSpec m;
            m.name = "TEST";
            m.speed = 1;
            m.x.assign(40, amal::moveByte(2));
            m.y.assign(20, amal::moveByte(3));
            spec.movements.push_back(m);
            spec.withPrograms = false;
            bank = writeFile(QStringLiteral("test.abk"), amal::writeAmalBank(spec));
        }
        QVERIFY(open(bank));
        QVERIFY(w->showingAmal());
        QVERIFY(!w->model());
        QVERIFY(w->scene()->isHidden()); // 3D-only docks make way for the stage
        const int ticks = w->amalView()->durationTicks();
        QVERIFY(ticks > 0);
        QVERIFY(w->timeline()->clip());
        QCOMPARE(int(w->timeline()->clip()->frameCount), ticks + 1);
        QSignalSpy tick(w->amalView(), &AmalView::tickChanged);
        w->timeline()->slider()->setValue(ticks / 2);
        QVERIFY(!tick.isEmpty());
        QCOMPARE(tick.last().at(0).toInt(), ticks / 2);
        // A broken bank keeps the stage; a model brings the 3D view back.
        errors.clear();
        const QString bad = tmp.filePath(QStringLiteral("broken.abk"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("AmBk\0\0\0\0garbage");
        }
        QVERIFY(!open(bad));
        QCOMPARE(errors.size(), 1);
        QVERIFY(w->showingAmal());
        QCOMPARE(w->amalView()->durationTicks(), ticks);
        QVERIFY(open(modelPath));
        QVERIFY(!w->showingAmal());
        QVERIFY(w->model());
        QVERIFY(!w->scene()->isHidden());
    }

    void particleFileLoopsOnTimeline() {
        // A particle system written by the project's writer: 30 particles a second living 0.5 s (a 1 s loop).
        ParticleSystem sys;
        sys.name = "p_ui_test";
        ParticleEmitter e = test::continuousEmitter("glow", 30, 0.5f);
        e.velocity.shape = ParticleVolume::Shape::Point;
        e.velocity.point = {0.0f, 0.0f, 2.0f};
        e.size = test::constantTrack(0.6f);
        sys.emitters = {e};
        const QString path = writeFile(QStringLiteral("p_ui_test.alo"), alamo::writeParticleSystem(sys));
        errors.clear();
        QVERIFY(open(path));
        QVERIFY(errors.isEmpty());
        QVERIFY(w->model());
        QCOMPARE(w->model()->skeleton.bones.size(), size_t(1)); // the stand-in the docks see
        QVERIFY(w->clip());
        QCOMPARE(int(w->clip()->frameCount), 31); // one loop of 1 s at 30 fps
        QCOMPARE(w->clipEntries().size(), 1);
        QVERIFY(w->clipEntries().front().contains(QStringLiteral("p_ui_test")));
        QVERIFY(w->timeline()->playing());
        QCOMPARE(w->timeline()->loopMode(), LoopMode::Loop);
        // Playing wraps from the end of the loop to its start.
        float last = w->timeline()->displayFrame(), highest = last;
        bool wrapped = false;
        QElapsedTimer t;
        t.start();
        while (!wrapped && t.elapsed() < 6000) {
            QTest::qWait(20);
            const float f = w->timeline()->displayFrame();
            highest = std::max(highest, f);
            if (f < last - 5.0f) wrapped = true;
            last = f;
        }
        qInfo("particle loop: highest frame %.1f, wrapped %d after %lld ms", highest, int(wrapped), t.elapsed());
        QVERIFY(wrapped);
        QVERIFY(highest > 20.0f);
        // The 3D view draws the particles (the software preview shows the stand-in only).
        w->timeline()->pause();
        if (w->view()->backendName().contains(QStringLiteral("Qt3D"))) {
            w->timeline()->setPosition(6.0f);
            const QImage early = captureView(*w);
            w->timeline()->setPosition(24.0f);
            const QImage late = captureView(*w);
            QVERIFY(!early.isNull());
            QVERIFY(differingPixels(early, late) > 50);
            // The Particles toggle of the Scene panel removes them.
            ViewSettings s = w->scene()->settings();
            s.particles = false;
            w->scene()->setSettings(s);
            const QImage off = captureView(*w);
            QVERIFY(differingPixels(late, off) > 50);
            s.particles = true;
            w->scene()->setSettings(s);
        }
    }

    void boneTreeShowsProxyParticles() {
        // A model whose proxies name a particle system written beside it and one that exists nowhere.
        ParticleSystem sys;
        sys.name = "p_beside";
        sys.emitters = {test::continuousEmitter("glow", 20, 0.5f)};
        // In a folder of its own: the shared temporary folder's listing is cached by the folder's stamp (size and
        // mtime), and a file written in the same clock tick as an earlier test's listing is not seen until it changes.
        QDir(tmp.path()).mkpath(QStringLiteral("proxy_particles"));
        writeFile(QStringLiteral("proxy_particles/P_BESIDE.ALO"), alamo::writeParticleSystem(sys));
        Model m;
        m.format = rs::Format::AlamoModel;
        Bone root;
        root.name = "Root";
        Bone top;
        top.name = "Top";
        top.parent = 0;
        top.bindLocal = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 0.0f, 1.0f));
        m.skeleton.bones = {root, top};
        Proxy a;
        a.name = "p_beside_ALT1";
        a.bone = 1;
        a.alt = 1;
        Proxy b;
        b.name = "p_nowhere";
        b.bone = 1;
        m.proxies = {a, b};
        const QString path = writeFile(QStringLiteral("proxy_particles/proxy_owner.alo"), alamo::writeModel(m));
        QVERIFY(open(path));
        QCOMPARE(w->model()->proxies.size(), size_t(2));
        QTreeWidgetItem* found = w->boneTree()->itemForProxy(0);
        QTreeWidgetItem* missing = w->boneTree()->itemForProxy(1);
        QVERIFY(found && missing);
        QCOMPARE(found->text(0), QStringLiteral("p_beside_ALT1"));
        QCOMPARE(missing->text(0), QStringLiteral("p_nowhere"));
        if (!w->view()->backendName().contains(QStringLiteral("Qt3D"))) return; // the preview draws no particles
        qInfo("bone tree: %s | %s", qPrintable(found->text(1)), qPrintable(missing->text(1)));
        QVERIFY(found->text(1).contains(QStringLiteral("P_BESIDE.ALO"), Qt::CaseInsensitive));
        QVERIFY(found->text(1).contains(QStringLiteral("1 emitter")));
        QVERIFY(missing->text(1).contains(QStringLiteral("not found")));
    }

    void statusBarAndTextureNoticeFit() {
        // A model under a long path, naming a texture that is nowhere, with a proxy particle system beside it whose
        // texture is nowhere either.
        const QString deep = QStringLiteral("a_folder_with_a_long_name_for_the_status_bar/").repeated(6);
        QVERIFY(QDir(tmp.path()).mkpath(deep));
        ParticleSystem sys;
        sys.name = "p_smoke";
        sys.emitters = {test::continuousEmitter("smoke", 20, 0.5f)}; // texture p_particle_master.tga
        writeFile(deep + QStringLiteral("P_SMOKE.ALO"), alamo::writeParticleSystem(sys));
        Model m = test::demoNamingTextures([](int) { return "NOWHERE.DDS"; });
        Proxy smoke;
        smoke.name = "p_smoke";
        smoke.bone = 1;
        m.proxies.push_back(smoke);
        const QString path = writeFile(deep + QStringLiteral("LONGPATH.ALO"), alamo::writeModel(m));
        QVERIFY(open(path));
        // The status bar: the path elided in the middle (whole in the tooltip), the counts beside it never cut.
        QLabel* file = nullptr;
        QLabel* counts = nullptr;
        for (QLabel* l : w->statusBar()->findChildren<QLabel*>()) {
            if (l->toolTip().startsWith(QDir::toNativeSeparators(w->currentPath()))) file = l;
            if (l->text().contains(QStringLiteral(" bones · "))) counts = l;
        }
        QVERIFY(file && counts);
        QTRY_VERIFY_WITH_TIMEOUT(counts->width() >= counts->sizeHint().width(), 3000); // after the layout runs
        qInfo("status bar %d px: \"%s\" | \"%s\"", w->statusBar()->width(), qPrintable(file->text()),
              qPrintable(counts->text()));
        QVERIFY(file->text().contains(QChar(0x2026)));
        QVERIFY(file->text().endsWith(QStringLiteral("LONGPATH.ALO [") + QString::fromLatin1(formatName(w->model()->format)) +
                                      QLatin1Char(']')));
        QVERIFY(file->fontMetrics().horizontalAdvance(file->text()) <= file->contentsRect().width());
        QVERIFY(counts->geometry().right() < w->statusBar()->width());
        // One notice counts both kinds of missing texture, with one "Add texture folder…" button.
        const QString text = w->notices()->noticeText(QStringLiteral("textures"));
        const bool particles = w->view()->backendName().contains(QStringLiteral("Qt3D")); // the preview draws none
        QVERIFY2(text.startsWith(particles ? QStringLiteral("1 texture(s) and 1 particle texture(s) not found. ")
                                           : QStringLiteral("1 texture(s) not found")),
                 qPrintable(text));
        int buttons = 0;
        for (const QString& key : w->notices()->keys())
            for (QPushButton* b : w->notices()->noticeWidget(key)->findChildren<QPushButton*>())
                buttons += b->text().startsWith(QStringLiteral("Add texture folder")) ? 1 : 0;
        QCOMPARE(buttons, 1);
        QCOMPARE(text.contains(QStringLiteral("1 particle texture(s) not found (p_particle_master.tga)")), particles);
    }

    void screenshotOfView() {
        // What File → Save screenshot (Ctrl+Shift+S) writes after the file dialog.
        const QString file = tmp.filePath(QStringLiteral("shot.png"));
        bool done = false, ok = false;
        w->saveViewScreenshot(file, [&](bool result) {
            ok = result;
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
        QVERIFY(ok);
        const QImage img(file);
        QVERIFY(!img.isNull());
        QVERIFY(img.width() >= w->view()->widget()->width() - 1 && img.width() > 100);
        const QRgb bg = img.pixel(0, 0);
        int other = 0;
        for (int y = 0; y < img.height(); y += 4)
            for (int x = 0; x < img.width(); x += 4)
                other += img.pixel(x, y) != bg;
        QVERIFY(other > 50);
    }

    void reloadKeepsClip() {
        QVERIFY(open(modelPath));
        if (w->clipEntries().isEmpty()) QSKIP("model has no clips");
        const int entry = w->clipEntries().size();
        QVERIFY(w->selectClip(entry));
        const QString label = w->timeline()->clipCombo()->currentText();
        const auto before = w->model();
        QSignalSpy opened(w.get(), &MainWindow::documentOpened);
        QApplication::setActiveWindow(w.get());
        QTest::keyClick(w.get(), Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 60000);
        QVERIFY(w->model() != before); // read again from disk
        QCOMPARE(w->timeline()->clipCombo()->currentText(), label);
        QVERIFY(w->clip());
    }

    void w3dSkinListsClipsAndLevels() {
        const QString dir =
            corpusDir() + QStringLiteral("/w3d/DarkAtra+bfme2-modding-utils/w3d/src/test/resources/models");
        if (!QFileInfo::exists(dir + QStringLiteral("/guaragorn_skn.w3d")))
            QSKIP("guaragorn_skn.w3d not in the corpus");
        QVERIFY(open(dir + QStringLiteral("/guaragorn_skn.w3d")));
        QCOMPARE(QString::fromLatin1(formatName(w->model()->format)), QStringLiteral("w3d"));
        // Clips next to the skin whose header names its hierarchy are in the timeline.
        QVERIFY2(
            w->clipEntries().join(QLatin1Char(' ')).contains(QStringLiteral("guaragorn_idla"), Qt::CaseInsensitive),
            qPrintable(w->clipEntries().join(QLatin1Char(' '))));
        // The LOD control lists exactly the model's HLOD levels.
        const std::vector<int> lods = w->model()->lodLevels();
        int entries = 0;
        for (int i = 0; i < w->scene()->lodCombo()->count(); ++i)
            if (w->scene()->lodCombo()->itemData(i).isValid()) ++entries;
        QCOMPARE(entries, int(lods.size()));
        int idle = -1;
        for (int i = 0; i < w->clipEntries().size(); ++i)
            if (w->clipEntries()[i].contains(QStringLiteral("idla"), Qt::CaseInsensitive)) idle = i + 1;
        QVERIFY(w->selectClip(idle));
        QVERIFY(w->clip());
        resetView();
        const QImage a = captureView(*w);
        w->timeline()->setPosition(float(w->clip()->frameCount / 2));
        const QImage b = captureView(*w);
        QVERIFY(differingPixels(a, b) > 30);
    }

    void w3dClipFileAloneShowsHierarchy() {
        const QString file =
            corpusDir() +
            QStringLiteral("/w3d/DarkAtra+bfme2-modding-utils/w3d/src/test/resources/models/guaragorn_idla.w3d");
        if (!QFileInfo::exists(file)) QSKIP("guaragorn_idla.w3d not in the corpus");
        QVERIFY(open(file));
        QVERIFY(w->model());
        QVERIFY(w->model()->skeleton.bones.size() > 10); // the hierarchy named by the clip, found next to it
        QVERIFY(w->clip());                              // the clip in the file plays on it
        resetView();
        const QImage a = captureView(*w);
        w->timeline()->setPosition(float(w->clip()->frameCount / 2));
        const QImage b = captureView(*w);
        QVERIFY2(differingPixels(a, b) > 5, "the hierarchy did not move");
    }

    void bw2SkinWithAnimationLibrary() {
        using namespace rs::test::bw2fx;
        const QString bwm =
            writeFile(QStringLiteral("creature.bwm"), bw2::writeBwm(skinModel(bw2::SkinLayout::U8PerIndex)));
        const QString al = writeFile(QStringLiteral("creature.al"), bw2::writeAl(library()));
        QVERIFY(open(bwm));
        QCOMPARE(QString::fromLatin1(formatName(w->model()->format)), QStringLiteral("bwm"));
        QVERIFY(w->clipEntries().isEmpty());
        // A library that does not fit is refused with both files named; the skin stays.
        bw2::AlFile small = library();
        small.bones.pop_back();
        for (auto& a : small.animations) {
            a.frameZeroRotations.pop_back();
            a.frameZeroPositions.pop_back();
            a.rotationsPerFrame = 0;
            a.first.clear();
        }
        const QString smallPath = writeFile(QStringLiteral("small.al"), bw2::writeAl(small));
        errors.clear();
        const auto skin = w->model();
        QVERIFY(!w->applyAnimationLibrary(smallPath));
        QCOMPARE(errors.size(), 1);
        QVERIFY(errors[0].contains(QStringLiteral("small.al")) && errors[0].contains(QStringLiteral("creature.bwm")));
        QCOMPARE(w->model(), skin);
        errors.clear();

        QVERIFY(w->applyAnimationLibrary(al));
        QVERIFY(errors.isEmpty());
        QCOMPARE(w->model()->skeleton.bones[2].name, std::string("Head")); // names from the library
        QCOMPARE(w->clipEntries().size(), 2);
        QVERIFY(w->clipEntries()[0].contains(QStringLiteral("creature.al")));
        QVERIFY(w->selectClip(1));
        QVERIFY(w->clip());
        QVERIFY(bindClip(w->model()->skeleton, *w->clip()).ok());
        // Events carry no time in .al files: listed by name, never placed as marks on the slider.
        for (const auto& [frame, kind] : w->timeline()->slider()->marks())
            QVERIFY(kind != MarkedSlider::Mark::Event);
        QLabel* notes = w->timeline()->notesLabel();
        QVERIFY(!notes->isHidden());
        QVERIFY2(notes->text().contains(QStringLiteral("::FOOTSTEPS.99")) &&
                     notes->text().contains(QStringLiteral("Head")),
                 qPrintable(notes->text()));
        // Every clip warning (what is decoded vs interpreted) is shown.
        QVERIFY(!w->clip()->warnings.empty());
        for (const std::string& warning : w->clip()->warnings)
            QVERIFY(notes->text().contains(QString::fromStdString(warning)));
        // The pose moves between frames (frames after 0 decoded as the library's interpretation).
        const auto pose0 = poseAt(*w, 0.0f, LoopMode::Loop);
        const auto pose2 = poseAt(*w, 2.0f, LoopMode::Loop);
        QVERIFY(maxBoneMove(pose0, pose2) > 1e-3f);
        // Back to the bind pose: no notes.
        QVERIFY(w->selectClip(0));
        QVERIFY(notes->isHidden());
    }

    void exportDialogWritesGlb() {
        // File → Export… on the demo: set the file name, OK with the view's defaults, read the result box.
        w->showDemo();
        const QString out = tmp.path() + QStringLiteral("/demo_export.glb");
        QString result;
        bool filled = false;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            QWidget* modal = QApplication::activeModalWidget();
            if (auto* box = qobject_cast<QMessageBox*>(modal)) {
                result = box->text();
                box->accept();
            } else if (auto* dlg = qobject_cast<QDialog*>(modal); dlg && !filled) {
                filled = true;
                dlg->findChild<QLineEdit*>()->setText(out);
                dlg->accept();
            }
        });
        poll.start(50);
        exportDialog(w.get());
        poll.stop();
        QVERIFY(filled);
        QVERIFY2(result.contains(QStringLiteral("1 animations")), qPrintable(result));
        QVERIFY(QFileInfo(out).size() > 1000);
    }

    void layoutRemembered() {
        // Closing saves the dock layout; the next window restores it.
        w->materials()->hide();
        QVERIFY(w->close());
        MainWindow second;
        QVERIFY(second.materials()->isHidden());
        QVERIFY(!second.timeline()->isHidden());
        QVERIFY(second.recentFiles().contains(QFileInfo(modelPath).absoluteFilePath()));
        second.materials()->show();
        second.close();
    }

    void hostileInputsRefusedByName() {
        // A folder, a FIFO (never opened: opening it would block the loader forever) and a 2 GB sparse file of
        // zeros named like models: each refused with a message naming it; the open model stays.
        QVERIFY(open(modelPath));
        // The viewer's baseline: peak resident memory with a model open and drawn. ctest also runs this test with
        // its data segment limited (ui_tests_memory_limit), where reading any large part of the 2 GB file would
        // fail with an out-of-memory message instead of the size refusal checked below.
        const long peakBefore = procStatusKiB("VmHWM");
        const QString dir = tmp.filePath(QStringLiteral("folder.alo"));
        QVERIFY(QDir().mkpath(dir));
        const QString fifo = tmp.filePath(QStringLiteral("pipe.alo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString zeros = tmp.filePath(QStringLiteral("zeros.alo"));
        {
            QFile f(zeros);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(2) << 30));
        }
        for (const QString& bad : {dir, fifo, zeros}) {
            errors.clear();
            QVERIFY(!open(bad));
            QCOMPARE(errors.size(), 1);
            QVERIFY2(errors.front().contains(QFileInfo(bad).fileName()), qPrintable(errors.front()));
            QVERIFY(w->model());
        }
        QVERIFY(errors.front().contains(QStringLiteral("is larger than any Alamo model")));
        // Memory stays near the baseline: the refusals add at most 64 MiB to the peak.
        const long peakAfter = procStatusKiB("VmHWM");
        if (peakBefore > 0 && peakAfter > 0)
            QVERIFY2(peakAfter - peakBefore <= 64 * 1024,
                     qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(peakAfter - peakBefore)));
    }

    // View -> Problems: the mounted mod checked in the background (the window keeps handling events), grouped by
    // file, filtered by level; double-clicking a finding opens its model and selects the bone it names.
    void problemsPanelOpensFinding() {
        rs::test::CheckMod mod(rs::test::CheckMod::Defect::ProxyMissing);
        w->setMount(std::make_shared<const vfs::MountTable>(vfs::mountInstall({mod.game}, {mod.mod})));
        ProblemsDock* p = w->problemsDock();
        QVERIFY(p);
        p->show();
        p->raise();
        QSignalSpy done(p, &ProblemsDock::finished);
        QSignalSpy steps(p->progressBar(), &QProgressBar::valueChanged);
        p->runCheck(true);
        QVERIFY(!p->progressBar()->isHidden()); // shown while the check runs
        // runCheck returns before the check ends: it runs on the pool and reports through the event loop, so the
        // window stays responsive (finished cannot arrive before control is back in the event loop).
        QVERIFY(done.isEmpty());
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
        QCOMPARE(p->report().count(check::Level::Warning), size_t(1));
        // The bar went through the files to the end (files + the object pass), then was hidden.
        QVERIFY(QTest::qWaitFor(
            [&] { return !steps.isEmpty() && steps.last().at(0).toInt() == int(p->report().files) + 1; }, 5000));
        QVERIFY(p->progressBar()->isHidden());
        QTreeWidget* tree = p->tree();
        QCOMPARE(tree->topLevelItemCount(), 1); // one file (CLEAN.ALO); the level filter shows all by default
        QTreeWidgetItem* file = tree->topLevelItem(0);
        QVERIFY(file->text(0).endsWith(QStringLiteral("CLEAN.ALO")));
        QCOMPARE(file->childCount(), 1);
        QTreeWidgetItem* finding = file->child(0);
        QCOMPARE(finding->text(1), QStringLiteral("model.proxy-missing"));
        p->levelFilter()->setCurrentIndex(2); // errors only: nothing
        QCOMPARE(tree->topLevelItemCount(), 0);
        p->levelFilter()->setCurrentIndex(0);
        finding = tree->topLevelItem(0)->child(0);
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        emit tree->itemDoubleClicked(finding, 0);
        QVERIFY(QTest::qWaitFor([&] { return !ok.isEmpty(); }, 60000));
        QVERIFY(w->currentPath().endsWith(QStringLiteral("CLEAN.ALO")));
        QCOMPARE(w->boneTree()->selectedBone(), w->model()->skeleton.find("Hand"));
        w->setMount(nullptr);

        // A missing texture: double-clicking opens the model and selects the material's texture row.
        rs::test::CheckMod tex(rs::test::CheckMod::Defect::TextureMissing);
        w->setMount(std::make_shared<const vfs::MountTable>(vfs::mountInstall({tex.game}, {tex.mod})));
        done.clear();
        p->runCheck(true);
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
        finding = nullptr; // CLEAN.ALO's finding (CLEAN.DDS, now unreferenced, is the other file)
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(0).endsWith(QStringLiteral("CLEAN.ALO")))
                finding = tree->topLevelItem(i)->child(0);
        QVERIFY(finding);
        QCOMPARE(finding->text(1), QStringLiteral("model.texture-missing"));
        ok.clear();
        emit tree->itemDoubleClicked(finding, 0);
        QVERIFY(QTest::qWaitFor([&] { return !ok.isEmpty(); }, 60000));
        QVERIFY(w->currentPath().endsWith(QStringLiteral("CLEAN.ALO")));
        QTreeWidget* materials = w->materials()->findChild<QTreeWidget*>();
        QVERIFY(materials);
        QVERIFY(QTest::qWaitFor([&] { return materials->currentItem() != nullptr; }, 5000));
        QCOMPARE(materials->currentItem()->text(1), QStringLiteral("texture"));
        QVERIFY2(materials->currentItem()->text(2).contains(QStringLiteral("GONE.TGA")) ||
                     materials->currentItem()->text(0).contains(QStringLiteral("GONE.TGA")),
                 qPrintable(materials->currentItem()->text(0) + " | " + materials->currentItem()->text(2)));
        w->setMount(nullptr);

        // A finding one file of a run names by mesh and sub-mesh (an unknown shader): double-clicking opens the model
        // and selects that sub-mesh's row in the material inspector.
        auto findingOf = [&](const QString& id) -> QTreeWidgetItem* {
            for (int i = 0; i < tree->topLevelItemCount(); ++i)
                for (int k = 0; k < tree->topLevelItem(i)->childCount(); ++k)
                    if (tree->topLevelItem(i)->child(k)->text(1) == id) return tree->topLevelItem(i)->child(k);
            return nullptr;
        };
        rs::test::CheckMod shader(rs::test::CheckMod::Defect::ShaderUnknown);
        w->setMount(std::make_shared<const vfs::MountTable>(vfs::mountInstall({shader.game}, {shader.mod})));
        done.clear();
        p->runCheck(true);
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
        finding = findingOf(QStringLiteral("model.shader-unknown"));
        QVERIFY(finding);
        QVERIFY2(finding->text(2).contains(QStringLiteral("mesh Hull sub-mesh 0")), qPrintable(finding->text(2)));
        ok.clear();
        emit tree->itemDoubleClicked(finding, 0);
        QVERIFY(QTest::qWaitFor([&] { return !ok.isEmpty(); }, 60000));
        QVERIFY(w->currentPath().endsWith(QStringLiteral("CLEAN.ALO")));
        QVERIFY(w->currentPath().startsWith(QString::fromStdString(shader.mod)));
        QTreeWidgetItem* row = materials->currentItem();
        QVERIFY(row);
        QVERIFY(row->parent());
        QCOMPARE(row->parent()->text(0), QStringLiteral("Hull"));
        QCOMPARE(row->parent()->indexOfChild(row), 0);
        QVERIFY2(row->text(0).contains(QStringLiteral("MeshFancy.fx")), qPrintable(row->text(0)));
        // Double-clicked again with the model open: selected at once, without reading the file again.
        materials->setCurrentItem(nullptr);
        ok.clear();
        emit tree->itemDoubleClicked(finding, 0);
        QVERIFY(materials->currentItem());
        QCOMPARE(materials->currentItem()->parent()->text(0), QStringLiteral("Hull"));
        QVERIFY(ok.isEmpty());
        w->setMount(nullptr);

        // An object finding is in an XML file no reader opens: double-clicking opens the object it names (Clean,
        // whose hardpoint HP_Z is missing) once the Objects panel has indexed the mount.
        rs::test::CheckMod hardpoint(rs::test::CheckMod::Defect::ObjectHardpoint);
        auto table = std::make_shared<const vfs::MountTable>(vfs::mountInstall({hardpoint.game}, {hardpoint.mod}));
        w->setMount(table);
        QSignalSpy indexed(w->objectsPanel(), &ObjectsDock::indexed);
        w->objectsPanel()->setMount(table);
        QVERIFY(QTest::qWaitFor([&] { return !indexed.isEmpty() && !w->objectsPanel()->indexing(); }, 30000));
        done.clear();
        p->runCheck(true);
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
        finding = findingOf(QStringLiteral("object.hardpoint-missing"));
        QVERIFY(finding);
        QSignalSpy shown(w.get(), &MainWindow::objectShown);
        QSignalSpy failed(w.get(), &MainWindow::openFailed);
        emit tree->itemDoubleClicked(finding, 0);
        QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 60000));
        QCOMPARE(shown.first().at(0).toString(), QStringLiteral("Clean"));
        QVERIFY2(shown.first().at(1).toInt() >= 0, "the object did not open");
        QVERIFY(failed.isEmpty()); // the XML file was not opened as a model
        w->objectsPanel()->setMount(nullptr);
        w->setMount(nullptr);

        // An object finding about a definition file as a whole (listed, missing): nothing opened, no error.
        rs::test::CheckMod listed(rs::test::CheckMod::Defect::ObjectFile);
        w->setMount(std::make_shared<const vfs::MountTable>(vfs::mountInstall({listed.game}, {listed.mod})));
        done.clear();
        p->runCheck(true);
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
        finding = findingOf(QStringLiteral("object.file-missing"));
        QVERIFY(finding);
        const QString before = w->currentPath();
        errors.clear();
        shown.clear();
        emit tree->itemDoubleClicked(finding, 0);
        QVERIFY(!QTest::qWaitFor([&] { return !failed.isEmpty() || !errors.isEmpty(); }, 1500));
        QVERIFY(shown.isEmpty());
        QCOMPARE(w->currentPath(), before);
        w->setMount(nullptr);
        p->hide();
    }

    // A problem's bone and material selection waits for its file; when that file fails to open the selection is
    // dropped: the same file opened again later (repaired) selects nothing.
    void problemSelectionDroppedWhenLoadFails() {
        rs::test::CheckMod mod(rs::test::CheckMod::Defect::ReadError);
        const QString models = QString::fromStdString(mod.mod) + QStringLiteral("/Data/Art/Models/");
        errors.clear();
        QSignalSpy failed(w.get(), &MainWindow::openFailed);
        emit w->problemsDock()->openRequested(models + QStringLiteral("BROKEN.ALO"), QStringLiteral("Hand"),
                                              QStringLiteral("CLEAN.TGA"), QStringLiteral("Hull"), 0);
        QVERIFY(QTest::qWaitFor([&] { return !failed.isEmpty(); }, 60000));
        QCOMPARE(errors.size(), 1);
        errors.clear();
        QVERIFY(QFile::remove(models + QStringLiteral("BROKEN.ALO")));
        QVERIFY(QFile::copy(models + QStringLiteral("CLEAN.ALO"), models + QStringLiteral("BROKEN.ALO")));
        QSignalSpy ok(w.get(), &MainWindow::documentOpened);
        w->openFile(models + QStringLiteral("BROKEN.ALO"));
        QVERIFY(QTest::qWaitFor([&] { return !ok.isEmpty(); }, 60000));
        QVERIFY(errors.isEmpty());
        QVERIFY(w->model()->skeleton.find("Hand") >= 0);
        QCOMPARE(w->boneTree()->selectedBone(), -1);
        QTreeWidget* materials = w->materials()->findChild<QTreeWidget*>();
        QVERIFY(materials);
        QVERIFY(!materials->currentItem());
    }

    // View -> Problems: the Problems dock shares a tab group with the timeline; the menu action brings it to the
    // front as the current tab with the keyboard focus in its list, also when it is already open behind the
    // timeline; used while it is in front, it closes the dock.
    void problemsActionRaisesTab() {
        ProblemsDock* p = w->problemsDock();
        QDockWidget* timeline = w->timeline();
        QAction* action = p->toggleViewAction();
        QMenu* view = nullptr;
        for (QAction* m : w->menuBar()->actions())
            if (m->menu() && m->text().remove(QLatin1Char('&')) == QStringLiteral("View")) view = m->menu();
        QVERIFY(view);
        QVERIFY(view->actions().contains(action));
        // The window's layout (main_window.cpp): Problems tabified with the timeline, closed. Earlier tests may have
        // closed the window (layoutRemembered) or rearranged the docks: put them back.
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        timeline->setFloating(false);
        timeline->show();
        p->setFloating(false);
        p->show();
        w->tabifyDockWidget(timeline, p);
        p->hide();
        timeline->raise();
        QCoreApplication::processEvents();
        QVERIFY(!action->isChecked());
        auto currentTab = [&]() -> QString {
            for (QTabBar* bar : w->findChildren<QTabBar*>())
                for (int i = 0; i < bar->count(); ++i)
                    if (bar->tabText(i) == p->windowTitle()) return bar->tabText(bar->currentIndex());
            return QStringLiteral("(Problems is in no tab group)");
        };
        // Qt keeps a dock behind another tab "visible", moved out of the window: what shows is its visible region.
        auto inFront = [&] {
            QCOMPARE(currentTab(), p->windowTitle());
            QVERIFY(!p->isHidden());
            QVERIFY(QTest::qWaitFor([&] { return timeline->visibleRegion().isEmpty(); }, 5000)); // behind Problems
            QVERIFY(!p->visibleRegion().isEmpty());
            QVERIFY(action->isChecked());
            QCOMPARE(w->focusWidget(), static_cast<QWidget*>(p->tree()));
        };

        const int timelineHeight = timeline->height();
        action->trigger(); // closed -> open, in front
        QCoreApplication::processEvents();
        inFront();
        // In front, the list has a third of the window (the timeline's ~100 px showed four rows of findings).
        QTRY_VERIFY2(p->height() >= w->height() / 4,
                     qPrintable(QStringLiteral("%1 of %2").arg(p->height()).arg(w->height())));

        timeline->raise(); // the user picks the timeline's tab: Problems stays open behind it
        QCoreApplication::processEvents();
        QCOMPARE(currentTab(), timeline->windowTitle());
        // The timeline's own height back (less the tab bar the group now shows), not the list's third.
        QTRY_VERIFY2(timeline->height() <= timelineHeight && timeline->height() < w->height() / 5,
                     qPrintable(QStringLiteral("%1, was %2").arg(timeline->height()).arg(timelineHeight)));
        QVERIFY(QTest::qWaitFor([&] { return p->visibleRegion().isEmpty(); }, 5000));
        QVERIFY(!p->isHidden());
        QVERIFY(action->isChecked());
        action->trigger(); // open behind a tab -> in front (not closed)
        QCoreApplication::processEvents();
        inFront();

        action->trigger(); // in front -> closed
        QCoreApplication::processEvents();
        QVERIFY(p->isHidden());
        QVERIFY(!action->isChecked());
        QVERIFY(QTest::qWaitFor([&] { return !timeline->visibleRegion().isEmpty(); }, 5000));
    }

    void cleanupTestCase() {
        if (w) w->close();
        w.reset();
    }
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    // Watchdog: a stuck capture or load fails the run instead of hanging it.
    const int seconds = qEnvironmentVariableIsSet("RIGSCOPE_TEST_TIMEOUT")
                            ? qEnvironmentVariableIntValue("RIGSCOPE_TEST_TIMEOUT")
                            : 240;
    std::thread([seconds] {
        std::this_thread::sleep_for(std::chrono::seconds(seconds));
        std::fprintf(stderr, "ui_tests: watchdog fired after %d s\n", seconds);
        std::_Exit(3);
    }).detach();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("ui_tests"));
    // `ui_tests first-use [QTest args]` / `ui_tests main [QTest args]` run one class; no selector runs both.
    const QString which = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (which == QLatin1String("first-use") || which == QLatin1String("main")) {
        argv[1] = argv[0];
        if (which == QLatin1String("first-use")) return runFirstUseTests(argc - 1, argv + 1);
        UiTest t;
        return QTest::qExec(&t, argc - 1, argv + 1);
    }
    int rc = runFirstUseTests(argc, argv);
    UiTest t;
    rc |= QTest::qExec(&t, argc, argv);
    return rc;
}

#include "ui_test.moc"
