// What a new user meets first (issue 38): the 3D view's mouse driven by real mouse events (left-drag orbits, right-
// and middle-drag pan, the wheel zooms toward the cursor, F frames, a double-click centres on a part); a recording
// that shows no window; Record and Export defaulting to the user's folders or the last one used; the status bar and
// the panels after mounting a folder; the Bones, Materials and Assets panels at 1280x800.
#include "asset_browser_dock.h"
#include "asset_grid_view.h"
#include "bone_tree_dock.h"
#include "decode.h"
#include "export_dialog.h"
#include "main_window.h"
#include "material_dock.h"
#include "object_fixtures.h"
#include "objects_dock.h"
#include "record_dialog.h"
#include "scene_view.h"
#include "ui_fixtures.h"

#include "alamo/alamo_writer.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTimer>
#include <QToolTip>
#include <QTreeWidget>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <cmath>
#include <fstream>

using namespace rs;
using render::OrbitCamera;

namespace {

void writeFile(const QString& path, const std::vector<uint8_t>& b) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream f(path.toStdString(), std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

bool qt3d() { return qgetenv("RIGSCOPE_VIEW") != "preview"; }

render::SceneView* sceneView(ui::MainWindow& w) { return w.view()->findChild<render::SceneView*>(); }

// A drag with the given button: press at `from`, `steps` moves of `step` each, release (events to the window, as
// the window system delivers them).
void drag(QWindow* win, Qt::MouseButton button, QPoint from, QPoint step, int steps) {
    QTest::mousePress(win, button, Qt::NoModifier, from);
    QPoint p = from;
    for (int i = 0; i < steps; ++i) {
        p += step;
        QTest::mouseMove(win, p);
    }
    QTest::mouseRelease(win, button, Qt::NoModifier, p);
}

// Where a world point is drawn in the view's window, through the Qt3D camera's own matrices.
QPointF drawnAt(QWindow* win, Qt3DRender::QCamera* cam, const glm::vec3& p) {
    const QVector4D c = cam->projectionMatrix() * cam->viewMatrix() * QVector4D(p.x, p.y, p.z, 1.0f);
    if (c.w() <= 0.0f) return {-1e9, -1e9};
    return {(c.x() / c.w() + 1.0) * 0.5 * win->width(), (1.0 - c.y() / c.w()) * 0.5 * win->height()};
}

// The camera's x axis along the world's up axis (0: the horizon is level).
float roll(Qt3DRender::QCamera* cam, const glm::vec3& up) {
    const QMatrix4x4 v = cam->viewMatrix();
    return QVector3D::dotProduct(QVector3D(v(0, 0), v(0, 1), v(0, 2)), QVector3D(up.x, up.y, up.z));
}

QString fileDialogAnswer; // the folder the next QFileDialog is answered with

// Answers modal dialogs while `run` runs: QFileDialog with fileDialogAnswer, message boxes accepted (their text
// kept), any other dialog given to `other` once.
QStringList answeringDialogs(const std::function<void()>& run, const std::function<void(QDialog*)>& other = {}) {
    QStringList boxes;
    bool otherDone = false;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* fd = qobject_cast<QFileDialog*>(modal)) {
            fd->setDirectory(fileDialogAnswer);  // a folder dialog with nothing typed chooses the folder shown
            static_cast<QDialog*>(fd)->accept(); // QFileDialog::accept is protected; the override runs
        } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            boxes << box->text();
            box->accept();
        } else if (auto* dlg = qobject_cast<QDialog*>(modal);
                   dlg && other && !otherDone && !qobject_cast<QProgressDialog*>(dlg)) {
            otherDone = true;
            other(dlg);
        }
    });
    poll.start(50);
    run();
    poll.stop();
    return boxes;
}

QAction* menuAction(ui::MainWindow& w, const QString& text) {
    for (QAction* a : w.menuBar()->findChildren<QAction*>())
        if (a->text() == text) return a;
    return nullptr;
}

bool inFront(QWidget* dock) { return dock->isVisible() && !dock->visibleRegion().isEmpty(); }

} // namespace

class ViewTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    // A model on disk, in a mod's layout (Data/Art/Models), and the window showing it at 1280x800.
    QString modelPath() {
        const QString p = tmp_.filePath(QStringLiteral("Mod/Data/Art/Models/RS_DEMO_TANK.ALO"));
        if (!QFileInfo::exists(p))
            writeFile(
                p, alamo::writeModel(test::demoNamingTextures([](int i) { return "T" + std::to_string(i) + ".dds"; })));
        return p;
    }
    void openModel(ui::MainWindow& w, QSize size = QSize(1280, 800)) {
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFile(modelPath());
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading() && w.model(), 30000);
        QTest::qWait(100);
    }

  private slots:
    void init() {
        QSettings().clear();
        // The user's Videos and Documents folders: in test mode Qt takes them under $HOME, which main() points at
        // a folder of this run.
        QDir().mkpath(QDir::home().filePath(QStringLiteral("Videos")));
        QDir().mkpath(QDir::home().filePath(QStringLiteral("Documents")));
    }

    // --- 1. The mouse in the 3D view -----------------------------------------------------------------------
    void leftDragOrbitsAroundTheModel() {
        if (!qt3d()) QSKIP("SKIPPED: the Qt3D view's camera");
        ui::MainWindow w;
        openModel(w);
        render::SceneView* sv = sceneView(w);
        QVERIFY(sv);
        QWindow* win = sv->window();
        Qt3DRender::QCamera* cam = sv->window()->camera();
        const OrbitCamera c0 = sv->orbitCamera();
        const glm::vec3 centre = c0.target; // the framed model's centre
        const QPoint mid(win->width() / 2, win->height() / 2);
        QVERIFY(std::abs(drawnAt(win, cam, centre).x() - mid.x()) < 2.0);

        // Three 100-pixel left-drags to the right, in steps: the camera turns 3 x 40 degrees about the up axis.
        for (int i = 0; i < 3; ++i)
            drag(win, Qt::LeftButton, mid - QPoint(50, 0), QPoint(20, 0), 5);
        OrbitCamera c = sv->orbitCamera();
        const float turned = std::remainder(c.yaw - c0.yaw, 360.0f);
        QVERIFY2(std::abs(turned - (c0.zUp ? 120.0f : -120.0f)) < 0.5f,
                 qPrintable(QStringLiteral("yaw %1 -> %2").arg(c0.yaw).arg(c.yaw)));
        QVERIFY2(std::abs(c.pitch - c0.pitch) < 0.01f, qPrintable(QString::number(c.pitch)));
        QVERIFY(glm::length(c.target - centre) < 1e-4f * c0.distance); // around the model's centre
        QVERIFY(std::abs(c.distance - c0.distance) < 1e-4f * c0.distance);
        const QPointF seen = drawnAt(win, cam, centre);
        QVERIFY2(std::abs(seen.x() - mid.x()) < 2.0 && std::abs(seen.y() - mid.y()) < 2.0,
                 qPrintable(QStringLiteral("%1, %2").arg(seen.x()).arg(seen.y())));
        QVERIFY2(std::abs(roll(cam, c.worldUp())) < 1e-4f, qPrintable(QString::number(roll(cam, c.worldUp()))));

        // A long drag down: pitch stops short of the pole, the horizon stays level, the model stays in view.
        drag(win, Qt::LeftButton, mid, QPoint(0, 120), 12);
        c = sv->orbitCamera();
        QCOMPARE(c.pitch, OrbitCamera::kMaxPitch);
        QVERIFY(std::abs(roll(cam, c.worldUp())) < 1e-4f);
        QVERIFY(QVector3D::dotProduct(cam->upVector(), QVector3D(c.worldUp().x, c.worldUp().y, c.worldUp().z)) >
                0.999f);
        QVERIFY(std::abs(drawnAt(win, cam, centre).x() - mid.x()) < 2.0);
        drag(win, Qt::LeftButton, mid, QPoint(0, -150), 20); // and up, past the other pole
        QCOMPARE(sv->orbitCamera().pitch, -OrbitCamera::kMaxPitch);
        QVERIFY(std::abs(roll(cam, c.worldUp())) < 1e-4f);

        // F frames the model from where the camera looks now.
        drag(win, Qt::LeftButton, mid, QPoint(0, 10), 10); // back to -49 degrees
        const OrbitCamera turnedCam = sv->orbitCamera();
        QTest::keyClick(win, Qt::Key_F);
        c = sv->orbitCamera();
        QVERIFY(std::abs(c.yaw - turnedCam.yaw) < 0.01f);
        QVERIFY(std::abs(c.pitch - turnedCam.pitch) < 0.01f);
    }

    void rightAndMiddleDragPanWheelZoomsTowardTheCursor() {
        if (!qt3d()) QSKIP("SKIPPED: the Qt3D view's camera");
        ui::MainWindow w;
        openModel(w);
        render::SceneView* sv = sceneView(w);
        QWindow* win = sv->window();
        auto* cam = sv->window()->camera();
        const OrbitCamera c0 = sv->orbitCamera();
        const glm::vec3 centre = c0.target;
        const QPoint mid(win->width() / 2, win->height() / 2);

        // Right-drag 4 x (15, 10): the model follows the cursor by (60, 40) pixels; nothing turns.
        drag(win, Qt::RightButton, mid, QPoint(15, 10), 4);
        OrbitCamera c = sv->orbitCamera();
        QPointF seen = drawnAt(win, cam, centre);
        QVERIFY2(std::abs(seen.x() - (mid.x() + 60)) < 1.0 && std::abs(seen.y() - (mid.y() + 40)) < 1.0,
                 qPrintable(QStringLiteral("%1, %2").arg(seen.x()).arg(seen.y())));
        QVERIFY(std::abs(c.yaw - c0.yaw) < 0.01f);
        QVERIFY(std::abs(c.pitch - c0.pitch) < 0.01f);
        QVERIFY(std::abs(roll(cam, c.worldUp())) < 1e-4f);
        // Middle-drag back.
        drag(win, Qt::MiddleButton, mid, QPoint(-20, -10), 3);
        seen = drawnAt(win, cam, centre);
        QVERIFY(std::abs(seen.x() - mid.x()) < 1.0 && std::abs(seen.y() - (mid.y() + 10)) < 1.0);

        // Two wheel notches toward the model at a point off the centre: closer, and the point under the cursor
        // (at the target's depth) stays under it.
        const QPoint at = mid + QPoint(120, -80);
        glm::vec3 o, dir;
        c = sv->orbitCamera();
        c.ray(OrbitCamera::toNdc(float(at.x()), float(at.y()), float(win->width()), float(win->height())),
              float(win->width()) / float(win->height()), o, dir);
        const glm::vec3 fwd = glm::normalize(c.target - c.position());
        const glm::vec3 under = o + dir * (glm::dot(c.target - o, fwd) / glm::dot(dir, fwd));
        QWheelEvent wheel(QPointF(at), win->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(win, &wheel);
        const OrbitCamera z = sv->orbitCamera();
        QVERIFY2(std::abs(z.distance - c.distance * OrbitCamera::kWheelStep * OrbitCamera::kWheelStep) <
                     1e-3f * c.distance,
                 qPrintable(QStringLiteral("%1 -> %2").arg(c.distance).arg(z.distance)));
        seen = drawnAt(win, cam, under);
        QVERIFY2(std::abs(seen.x() - at.x()) < 1.0 && std::abs(seen.y() - at.y()) < 1.0,
                 qPrintable(QStringLiteral("%1, %2").arg(seen.x()).arg(seen.y())));
        // The model's centre is still on screen.
        seen = drawnAt(win, cam, centre);
        QVERIFY(seen.x() > 0 && seen.x() < win->width() && seen.y() > 0 && seen.y() < win->height());
    }

    void doubleClickCentresOnThePart() {
        if (!qt3d()) QSKIP("SKIPPED: the Qt3D view's camera");
        ui::MainWindow w;
        openModel(w);
        render::SceneView* sv = sceneView(w);
        QWindow* win = sv->window();
        const QPoint mid(win->width() / 2, win->height() / 2);
        // A point of the model away from the centre (the ray cast against its triangles at the pose).
        QPoint on(-1, -1);
        std::optional<glm::vec3> hit;
        for (int y = win->height() / 8; y < win->height() && !hit; y += 8)
            for (int x = win->width() / 8; x < win->width() && !hit; x += 8)
                if (std::abs(x - mid.x()) + std::abs(y - mid.y()) > 60)
                    if ((hit = sv->pickPoint(QPoint(x, y)))) on = QPoint(x, y);
        QVERIFY2(hit, "no part of the model found under any pixel");
        QVERIFY(!sv->pickPoint(QPoint(2, 2))); // a corner shows the background
        const OrbitCamera c0 = sv->orbitCamera();
        QTest::mouseDClick(win, Qt::LeftButton, Qt::NoModifier, on);
        const OrbitCamera c = sv->orbitCamera();
        QVERIFY2(glm::length(c.target - *hit) < 1e-3f * c0.distance,
                 qPrintable(QStringLiteral("picked at %1, %2").arg(on.x()).arg(on.y())));
        QVERIFY(std::abs(c.yaw - c0.yaw) < 0.01f);
        QVERIFY(std::abs(c.pitch - c0.pitch) < 0.01f);
        const QPointF seen = drawnAt(win, sv->window()->camera(), *hit);
        QVERIFY(std::abs(seen.x() - mid.x()) < 1.5 && std::abs(seen.y() - mid.y()) < 1.5);
        // A double-click on the background changes nothing.
        QTest::mouseDClick(win, Qt::LeftButton, Qt::NoModifier, QPoint(2, 2));
        QVERIFY(glm::length(sv->orbitCamera().target - c.target) < 1e-6f * c0.distance);
    }

    // --- 12. Recording shows no window -------------------------------------------------------------------
    void recordingShowsNoOtherWindow() {
        if (!qt3d()) QSKIP("SKIPPED: recordings need the Qt3D view");
        ui::MainWindow w;
        openModel(w);
        const QList<QWindow*> before = [] {
            QList<QWindow*> l;
            for (QWindow* t : QGuiApplication::topLevelWindows())
                if (t->isVisible()) l << t;
            return l;
        }();
        ui::RecordChoice c;
        c.settings.out = tmp_.filePath(QStringLiteral("hidden.webp"));
        c.settings.width = 320;
        c.settings.height = 240;
        c.settings.fps = 6;
        c.settings.turntable = 2.0; // the camera turns: the frames differ
        c.settings.duration = 2.0;
        QString error;
        ui::RecordSession* s = ui::RecordSession::start(&w, c, &error);
        QVERIFY2(s, qPrintable(error));
        QSignalSpy done(s, &ui::RecordSession::finished);
        QStringList stray;
        while (done.isEmpty() && done.wait(50) == false) {
            for (QWindow* t : QGuiApplication::topLevelWindows()) {
                const bool allowed =
                    before.contains(t) || (s->progressDialog() && t == s->progressDialog()->windowHandle());
                if (t->isVisible() && !allowed && !stray.contains(t->title()))
                    stray << QStringLiteral("%1 (%2x%3)").arg(t->title()).arg(t->width()).arg(t->height());
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 120000);
        QVERIFY2(stray.isEmpty(), qPrintable(stray.join(QStringLiteral("; "))));
        QCOMPARE(done.first().at(0).toBool(), true);
        // The hidden view drew every frame: the turntable turns the model between them.
        const auto v = rs::test::decodeVideo(c.settings.out.toStdString());
        QVERIFY2(v.error.empty(), v.error.c_str());
        QCOMPARE(v.width, 320);
        QCOMPARE(int(v.frames.size()), 12);
        QVERIFY(rs::test::compareRgb(v.frames[0], v.frames[3]).meanAbs > 0.3);
    }

    // --- 13. Where Record and Export write by default -----------------------------------------------------
    void recordAndExportDefaultToTheUsersFolders() {
        ui::MainWindow w;
        openModel(w);
        const QString videos = QDir::home().filePath(QStringLiteral("Videos")),
                      docs = QDir::home().filePath(QStringLiteral("Documents"));
        QCOMPARE(QStandardPaths::writableLocation(QStandardPaths::MoviesLocation), videos);
        // Never the model's folder (the mod's Data/Art/Models): the user's Videos and Documents.
        QCOMPARE(ui::defaultRecordPath(w.currentPath()), videos + QStringLiteral("/RS_DEMO_TANK.mp4"));
        QCOMPARE(ui::defaultExportPath(w.currentPath()), docs + QStringLiteral("/RS_DEMO_TANK.glb"));
        QCOMPARE(ui::defaultExportPath(QStringLiteral("/x/Data/Models.meg:DATA\\ART\\MODELS\\W_UNIT.ALO")),
                 docs + QStringLiteral("/W_UNIT.glb"));
        {
            ui::RecordDialog dlg(&w);
            QCOMPARE(dlg.file()->text(), videos + QStringLiteral("/RS_DEMO_TANK.mp4"));
        }

        // Export into another folder through the dialog: the next export starts there.
        const QString elsewhere = tmp_.filePath(QStringLiteral("exports"));
        QDir().mkpath(elsewhere);
        QString shown;
        const QStringList boxes = answeringDialogs([&] { ui::exportDialog(&w); },
                                                   [&](QDialog* dlg) {
                                                       auto* file = dlg->findChild<QLineEdit*>();
                                                       shown = file->text();
                                                       file->setText(elsewhere + QStringLiteral("/tank.glb"));
                                                       dlg->accept();
                                                   });
        QCOMPARE(shown, docs + QStringLiteral("/RS_DEMO_TANK.glb"));
        QVERIFY2(boxes.size() == 1 && boxes[0].contains(QStringLiteral("meshes")), qPrintable(boxes.join('\n')));
        QVERIFY(QFileInfo(elsewhere + QStringLiteral("/tank.glb")).size() > 100);
        QCOMPARE(ui::defaultExportPath(w.currentPath()), elsewhere + QStringLiteral("/RS_DEMO_TANK.glb"));
        QCOMPARE(ui::defaultRecordPath(w.currentPath()), videos + QStringLiteral("/RS_DEMO_TANK.mp4")); // its own

        if (!qt3d()) return; // recording needs the Qt3D view
        // Record into another folder through File -> Record...: the next recording starts there.
        const QString clips = tmp_.filePath(QStringLiteral("clips"));
        QDir().mkpath(clips);
        shown.clear();
        const QStringList recorded = answeringDialogs(
            [&] {
                ui::recordDialog(&w);
                // The recording runs after the dialog; its result box comes from its end (finished).
                auto* session = w.findChild<ui::RecordSession*>();
                QVERIFY(session);
                QSignalSpy done(session, &ui::RecordSession::finished);
                QVERIFY(done.wait(60000));
            },
            [&](QDialog* d) {
                auto* dlg = qobject_cast<ui::RecordDialog*>(d);
                QVERIFY(dlg);
                shown = dlg->file()->text();
                dlg->file()->setText(clips + QStringLiteral("/turn.gif"));
                dlg->widthBox()->setValue(96);
                dlg->heightBox()->setValue(64);
                dlg->fpsBox()->setValue(4);
                dlg->turntableBox()->setChecked(true);
                dlg->turntableSeconds()->setValue(1.0);
                dlg->accept();
            });
        QCOMPARE(shown, videos + QStringLiteral("/RS_DEMO_TANK.mp4"));
        QVERIFY2(recorded.join('\n').contains(QStringLiteral("Recorded 4 frames")), qPrintable(recorded.join('\n')));
        QVERIFY(QFileInfo::exists(clips + QStringLiteral("/turn.gif")));
        QCOMPARE(ui::defaultRecordPath(w.currentPath()), clips + QStringLiteral("/RS_DEMO_TANK.mp4"));
        // A remembered folder that is gone: Videos again.
        QVERIFY(QDir(clips).removeRecursively());
        QCOMPARE(ui::defaultRecordPath(w.currentPath()), videos + QStringLiteral("/RS_DEMO_TANK.mp4"));
        // No Videos folder: the home folder.
        QVERIFY(QDir(videos).removeRecursively());
        QCOMPARE(ui::defaultRecordPath(w.currentPath()), QDir::home().filePath(QStringLiteral("RS_DEMO_TANK.mp4")));
    }

    // --- 14. Mounting says what it mounted ----------------------------------------------------------------
    void mountingSaysWhatAndBringsItsPanelToTheFront() {
        ui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* assets = w.findChild<ui::AssetBrowserDock*>();
        auto* objects = w.findChild<ui::ObjectsDock*>();
        QVERIFY(assets && objects);
        QVERIFY(inFront(w.boneTree())); // Bones is the tab group's front panel at first
        QAction* mount = menuAction(w, QStringLiteral("Open &game or mod folder…"));
        QVERIFY(mount);

        // A game with no object database: what, how many files, and the Assets panel in front.
        test::FakeInstall fi;
        fileDialogAnswer = QString::fromStdString(fi.eaw);
        answeringDialogs([&] { mount->trigger(); });
        QTRY_VERIFY(!w.statusBar()->currentMessage().isEmpty());
        QString said = w.statusBar()->currentMessage();
        QVERIFY2(said.startsWith(QStringLiteral("Mounted Star Wars: Empire at War: ")), qPrintable(said));
        QVERIFY2(said.endsWith(QStringLiteral(" files")), qPrintable(said));
        QVERIFY(inFront(assets));
        QVERIFY(!inFront(w.boneTree()));
        QTRY_VERIFY_WITH_TIMEOUT(!objects->indexing(), 20000);
        QVERIFY(inFront(assets)); // no objects: Assets stays in front

        // A mod with an object database over it: "mod X over GAME", then the Objects panel once it lists them.
        test::EawObjectInstall inst;
        const QString mod = QString::fromStdString(inst.root());
        fileDialogAnswer = mod;
        answeringDialogs([&] { mount->trigger(); });
        QCOMPARE(assets->mods(), QStringList{mod});
        said = w.statusBar()->currentMessage();
        QVERIFY2(said.startsWith(
                     QStringLiteral("Mounted mod %1 over Star Wars: Empire at War: ").arg(QFileInfo(mod).fileName())),
                 qPrintable(said));
        QTRY_VERIFY_WITH_TIMEOUT(!objects->indexing() && objects->database(), 20000);
        QTRY_VERIFY(inFront(objects));
        said = w.statusBar()->currentMessage();
        QVERIFY2(said.endsWith(QStringLiteral("files, %1 object(s)").arg(objects->visibleCount())), qPrintable(said));
        // The number of files is the mount's, with thousands grouped.
        QVERIFY(said.contains(
            QStringLiteral(": %1 files")
                .arg(QLocale(QLocale::English)
                         .toString(qulonglong(w.resolver() && objects->table() ? objects->table()->size() : 0)))));
    }

    // Issue 42: a Kane's Wrath folder (its launcher stub CNC3EP1.exe; the archives in Core/1.2/ as the game keeps
    // them) mounted from the menu is named, and the view draws the C&C 3 Objects shaders with KW's house colour
    // (ViewOptions::kanesWrath; the pixels of each formula: tests/render/w3d_fx_test.cpp); a C&C 3 folder
    // (CNC3.exe) mounted instead turns it off.
    void mountingKanesWrathUsesItsHouseColour() {
        if (!qt3d()) QSKIP("SKIPPED: the Qt3D view's options");
        auto gameFolder = [&](const QString& name, const char* stub) {
            const QString root = tmp_.filePath(name);
            writeFile(root + QLatin1Char('/') + QLatin1String(stub), {});
            const std::string ini = "Object X\nEnd\n";
            writeFile(root + QStringLiteral("/Core/1.2/patch2.big"),
                      vfs::writeBig({{"data\\ini\\x.ini", std::vector<uint8_t>(ini.begin(), ini.end())}}));
            return root;
        };
        const QString kw = gameFolder(QStringLiteral("Kanes Wrath"), "CNC3EP1.exe");
        const QString cnc3 = gameFolder(QStringLiteral("Tiberium Wars"), "CNC3.exe");
        ui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        render::SceneView* view = sceneView(w);
        QVERIFY(view);
        QVERIFY(!view->options().kanesWrath);
        QAction* mount = menuAction(w, QStringLiteral("Open &game or mod folder…"));
        QVERIFY(mount);
        fileDialogAnswer = kw;
        answeringDialogs([&] { mount->trigger(); });
        QTRY_VERIFY(!w.statusBar()->currentMessage().isEmpty());
        const QString said = w.statusBar()->currentMessage();
        QVERIFY2(said.startsWith(QStringLiteral("Mounted Command & Conquer 3: Kane's Wrath: ")), qPrintable(said));
        QTRY_VERIFY(view->options().kanesWrath);
        w.setMount(
            std::make_shared<const vfs::MountTable>(vfs::mountInstall({QFile::encodeName(cnc3).toStdString()}, {})));
        QTRY_VERIFY(!view->options().kanesWrath);
        w.setMount(
            std::make_shared<const vfs::MountTable>(vfs::mountInstall({QFile::encodeName(kw).toStdString()}, {})));
        QTRY_VERIFY(view->options().kanesWrath);
    }

    // --- 16. The panels at 1280x800 ----------------------------------------------------------------------
    void bonesAndMaterialsFitAt1280x800() {
        ui::MainWindow w;
        // The window rigscope opens on a 1280x800 screen (4/5 of it, MainWindow::loadSettings), default layout.
        openModel(w, QSize(1024, 640));
        QTest::qWait(300);
        // Bones: the two columns within the panel, the Bone column as wide as the names it shows (up to 3/5), the
        // Attached column the rest; what it cannot show is its tooltip.
        ui::BoneTreeDock* bones = w.boneTree();
        bones->raise();
        QTreeWidget* tree = bones->tree();
        QTRY_VERIFY(tree->isVisible());
        const int view = tree->viewport()->width();
        qInfo("bones panel %dx%d, columns %d + %d in %d", bones->width(), bones->height(), tree->columnWidth(0),
              tree->columnWidth(1), view);
        QVERIFY2(tree->header()->length() <= view, qPrintable(QString::number(tree->header()->length())));
        QVERIFY(tree->columnWidth(1) >= view * 2 / 5 - 1);
        QVERIFY(tree->columnWidth(0) >=
                std::min(static_cast<QAbstractItemView*>(tree)->sizeHintForColumn(0), view * 3 / 5));
        int attached = 0;
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            if (!(*it)->text(1).isEmpty() && (*it)->parent() == nullptr) {
                ++attached;
                QVERIFY((*it)->toolTip(1).contains((*it)->text(1)));
            }
        for (int b = 0; b < int(w.model()->skeleton.bones.size()); ++b)
            if (!bones->itemForBone(b)->text(1).isEmpty())
                QVERIFY(bones->itemForBone(b)->toolTip(1).contains(bones->itemForBone(b)->text(1)));
        // The transform text: every line fits the panel's width (none wrapped or cut).
        bones->selectBone(int(w.model()->skeleton.bones.size()) - 1);
        auto* details = bones->findChild<QPlainTextEdit*>();
        QVERIFY(details);
        QTest::qWait(50);
        const QFontMetrics fm(details->font());
        int widest = 0;
        for (QTextBlock b = details->document()->begin(); b.isValid(); b = b.next())
            if (b.blockNumber() > 0) widest = std::max(widest, fm.horizontalAdvance(b.text()));
        const int room = details->viewport()->width() - 2 * int(details->document()->documentMargin());
        qInfo("transform text %d px wide in %d px", widest, room);
        QVERIFY2(widest <= room, qPrintable(QStringLiteral("%1 > %2").arg(widest).arg(room)));
        QVERIFY(details->toPlainText().contains(QStringLiteral("  T (")));

        // Materials: at least ten rows in view.
        ui::MaterialDock* mats = w.materials();
        QTreeWidget* mt = mats->tree();
        QTRY_VERIFY(mt->isVisible());
        mt->expandAll();
        QTRY_VERIFY_WITH_TIMEOUT(mats->thumbnailsReady(), 20000);
        int rows = 0;
        for (QTreeWidgetItemIterator it(mt); *it; ++it) {
            const QRect r = mt->visualItemRect(*it);
            if (r.isValid() && r.top() >= 0 && r.bottom() <= mt->viewport()->height()) ++rows;
        }
        qInfo("materials panel %dx%d: %d rows in view", mats->width(), mats->height(), rows);
        QVERIFY2(rows >= 10, qPrintable(QString::number(rows)));
    }

    void gridNamesElideInTheMiddleKeepingTheExtension() {
        const QFontMetrics fm(QApplication::font());
        const int width = fm.horizontalAdvance(QStringLiteral("BC_GARRISON_T"));
        // Fits: one line. Longer: two lines, broken after a separator. Longer still: the start, then "…" and the end
        // with the whole extension.
        QCOMPARE(ui::gridCellLines(QStringLiteral("BC_GA.ALO"), fm, width), QStringList{"BC_GA.ALO"});
        const QStringList two = ui::gridCellLines(QStringLiteral("BC_GARRISON_TOWER.ALO"), fm, width);
        QCOMPARE(two, (QStringList{"BC_GARRISON_", "TOWER.ALO"}));
        const QString longName = QStringLiteral("BC_GARRISON_TOWER_LARGE_DAMAGED_SNOW.ALO");
        const QStringList cut = ui::gridCellLines(longName, fm, width);
        QCOMPARE(cut.size(), 2);
        QVERIFY2(longName.startsWith(cut[0]) && cut[0].size() >= 10, qPrintable(cut[0]));
        QVERIFY2(cut[1].startsWith(QChar(0x2026)) && cut[1].endsWith(QStringLiteral("SNOW.ALO")), qPrintable(cut[1]));
        for (const QString& line : cut)
            QVERIFY(fm.horizontalAdvance(line) <= width);

        // In the panel: a mounted folder with long names, the grid at 1280x800, the full name on hover.
        const QString mod = tmp_.filePath(QStringLiteral("GridMod"));
        writeFile(mod + "/Data/Art/Models/" + longName,
                  alamo::writeModel(test::demoNamingTextures([](int) { return std::string(); })));
        ui::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* assets = w.findChild<ui::AssetBrowserDock*>();
        assets->mountFolders({}, {mod}, false);
        assets->show();
        assets->raise();
        assets->setGridMode(true);
        ui::AssetGridView* grid = assets->grid();
        QTRY_VERIFY(grid && grid->isVisible() && grid->model()->rowCount() == 1);
        const QModelIndex cell = grid->model()->index(0, 0);
        const QRect r = grid->visualRect(cell);
        QVERIFY(r.isValid());
        // The cell holds two lines of text under the picture.
        QVERIFY2(grid->gridSize().height() >= 96 + 2 * grid->fontMetrics().height(),
                 qPrintable(QString::number(grid->gridSize().height())));
        QHelpEvent help(QEvent::ToolTip, r.center(), grid->viewport()->mapToGlobal(r.center()));
        QApplication::sendEvent(grid->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().startsWith(longName + "\n"), qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    // The user's folders (Videos, Documents, made by init()) are this run's, never the real ones; caches (fonts,
    // shaders) stay where they were.
    QTemporaryDir home;
    if (qEnvironmentVariableIsEmpty("XDG_CACHE_HOME"))
        qputenv("XDG_CACHE_HOME", QFile::encodeName(QDir::homePath() + QStringLiteral("/.cache")));
    qputenv("HOME", QFile::encodeName(home.path()));
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("view_ui_tests"));
    ViewTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "view_test.moc"
