// Live reload (issue 43 item 2): files the window shows are rewritten on disk while it shows them. Checked: the
// picture follows a rewritten texture (pixels), the timeline follows a rewritten clip (frame count), the camera,
// clip, time and bone selection stay; a model written in two halves (close together, or with a pause longer than
// the settle time) is shown once, complete, and no error is reported; unsaved edits are kept until the user
// chooses; FileWatch delivers an editor's atomic rename once.
#include "object_fixtures.h"
#include "ui_fixtures.h"

#include "asset_browser_dock.h"

#include "bone_tree_dock.h"
#include "edit_session.h"
#include "file_watch.h"
#include "main_window.h"
#include "material_dock.h"
#include "notice_bar.h"
#include "objects_dock.h"
#include "timeline_dock.h"

#include "alamo/alamo_writer.h"
#include "demo/demo_model.h"
#include "texture/texture_writer.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <Qt3DRender/QCamera>

#include <fstream>

using namespace rs;

namespace {

void writeBytes(const QString& path, const std::vector<uint8_t>& b, size_t from = 0, size_t to = SIZE_MAX,
                bool append = false) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream f(path.toStdString(), std::ios::binary | (append ? std::ios::app : std::ios::trunc));
    to = std::min(to, b.size());
    f.write(reinterpret_cast<const char*>(b.data() + from), std::streamsize(to - from));
}

// A solid 16x16 texture of one colour (TGA, the project's writer).
std::vector<uint8_t> solidTga(uint8_t r, uint8_t g, uint8_t b) {
    Image img;
    img.width = img.height = 16;
    img.rgba.resize(16 * 16 * 4);
    for (size_t i = 0; i < img.rgba.size(); i += 4) {
        img.rgba[i] = r;
        img.rgba[i + 1] = g;
        img.rgba[i + 2] = b;
        img.rgba[i + 3] = 255;
    }
    return writeTga(img, TgaKind::TrueColour32, false);
}

std::vector<uint8_t> modelBytes(const std::string& texture) {
    return alamo::writeModel(test::demoNamingTextures([&](int) { return texture; }));
}

// The demo clip with `frames` frames: every per-frame track stretched over them (nearest frame).
std::vector<uint8_t> clipBytes(uint32_t frames) {
    Clip c = demo::demoClipSource();
    const uint32_t n = c.frameCount;
    auto stretch = [&](auto& v) {
        if (v.size() != n) return; // constant (one key) or absent
        auto old = v;
        v.clear();
        for (uint32_t f = 0; f < frames; ++f)
            v.push_back(old[size_t(f) * (n - 1) / (frames - 1)]);
    };
    for (BoneTrack& t : c.tracks) {
        stretch(t.translation);
        stretch(t.rotation);
        stretch(t.scale);
        stretch(t.visibility);
        stretch(t.step);
    }
    c.frameCount = frames;
    return alamo::writeClip(c);
}

QImage capture(ui::ModelView* v) {
    QImage out;
    bool done = false;
    v->capture([&](const QImage& img) {
        out = img;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 20000)) qWarning("capture timed out");
    const QString dump = qEnvironmentVariable("RIGSCOPE_TEST_DUMP");
    static int n = 0;
    if (!dump.isEmpty()) out.save(QStringLiteral("%1/live-%2.png").arg(dump).arg(n++));
    return out;
}

// Pixels whose red (or blue) channel leads the other two by more than 50.
int dominant(const QImage& img, int channel) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            const int v[3] = {c.red(), c.green(), c.blue()};
            if (v[channel] > v[(channel + 1) % 3] + 50 && v[channel] > v[(channel + 2) % 3] + 50) ++n;
        }
    return n;
}

std::unique_ptr<ui::MainWindow> openWindow(const QString& path, QStringList* errors) {
    auto w = std::make_unique<ui::MainWindow>();
    w->setErrorReporter([errors](const QString& t, const QString& m) { *errors << t + ": " + m; });
    w->setUnsavedPrompt([](const QStringList&) { return int(QMessageBox::Discard); });
    w->liveWatch()->setSettleMs(250);
    w->liveWatch()->setPollMs(200);
    w->resize(1280, 800);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    w->openFile(path);
    if (!QTest::qWaitFor([&] { return !w->isLoading() && w->model(); }, 20000)) return nullptr;
    if (!QTest::qWaitFor([&] { return !w->view()->texturesPending(); }, 20000)) return nullptr;
    return w;
}

} // namespace

class LiveReloadTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    // The texture and the clip rewritten while shown: the picture and the timeline follow, the user's place stays.
    void textureAndClipFollow() {
        const QString model = dir.filePath(QStringLiteral("tex/LIVE.ALO"));
        const QString tex = dir.filePath(QStringLiteral("tex/LIVE.TGA"));
        const QString clip = dir.filePath(QStringLiteral("tex/LIVE_IDLE.ALA"));
        writeBytes(model, modelBytes("LIVE.TGA"));
        writeBytes(tex, solidTga(230, 20, 20));
        writeBytes(clip, clipBytes(31));
        QStringList errors;
        auto w = openWindow(model, &errors);
        QVERIFY(w);
        QVERIFY(w->liveWatch()->files().contains(QFileInfo(tex).absoluteFilePath()));
        QVERIFY(w->clip());
        QCOMPARE(int(w->clip()->frameCount), 31);
        w->timeline()->pause();
        w->timeline()->setPosition(7.0f);
        w->boneTree()->selectBone(1);
        auto* cam = qobject_cast<Qt3DRender::QCamera*>(w->view()->camera());
        const QVector3D camAt = cam ? cam->position() : QVector3D();
        const QString clipShown = w->timeline()->clipCombo()->currentText();
        // The software preview draws no textures: the picture is checked on the Qt3D view.
        const bool drawsTextures = w->view()->backendName().startsWith(QLatin1String("Qt3D"));
        const QImage red = drawsTextures ? capture(w->view()) : QImage();
        if (drawsTextures) QVERIFY2(dominant(red, 0) > 500, qPrintable(QString::number(dominant(red, 0))));

        QSignalSpy reloaded(w.get(), &ui::MainWindow::reloadedFromDisk);
        writeBytes(tex, solidTga(20, 20, 230));
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!w->view()->texturesPending(), 10000);
        if (drawsTextures) {
            const QImage blue = capture(w->view());
            QVERIFY2(dominant(blue, 2) > dominant(red, 2) + 500, qPrintable(QString::number(dominant(blue, 2))));
            QVERIFY2(dominant(blue, 0) < dominant(red, 0) / 20, qPrintable(QString::number(dominant(blue, 0))));
        }
        QCOMPARE(w->materials()->resolvedTextures().value(QStringLiteral("LIVE.TGA")),
                 QFileInfo(tex).absoluteFilePath());
        if (cam) QCOMPARE(cam->position(), camAt);
        QCOMPARE(w->timeline()->position(), 7.0f);
        QCOMPARE(w->boneTree()->selectedBone(), 1);

        // The clip: 31 frames become 61; the timeline's range follows, the clip and its time stay.
        writeBytes(clip, clipBytes(61));
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 2, 10000);
        QVERIFY(w->clip());
        QCOMPARE(int(w->clip()->frameCount), 61);
        QCOMPARE(w->timeline()->slider()->maximum(), 60);
        QCOMPARE(w->timeline()->clipCombo()->currentText(), clipShown);
        QCOMPARE(w->timeline()->position(), 7.0f);
        QCOMPARE(w->boneTree()->selectedBone(), 1);
        if (cam) QCOMPARE(cam->position(), camAt);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // A model written in two halves, 60 ms apart (inside the settle time) and then 1.5 s apart (a tool pausing in
    // its export): each time one reload, of the complete file; the half file is never reported as broken.
    void twoHalvesReloadOnceComplete() {
        const QString model = dir.filePath(QStringLiteral("halves/HALF.ALO"));
        writeBytes(model, modelBytes("A.TGA"));
        QStringList errors;
        auto w = openWindow(model, &errors);
        QVERIFY(w);
        w->timeline()->pause();
        QSignalSpy reloaded(w.get(), &ui::MainWindow::reloadedFromDisk);
        int shown = 0;
        for (int pauseMs : {60, 1500}) {
            const std::string name = pauseMs < 100 ? "B.TGA" : "C.TGA";
            const std::vector<uint8_t> next = modelBytes(name);
            writeBytes(model, next, 0, next.size() / 2);
            QTest::qWait(pauseMs);
            writeBytes(model, next, next.size() / 2, SIZE_MAX, /*append=*/true);
            QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), shown + 1, 10000);
            ++shown;
            QTest::qWait(1200); // no second reload follows
            QCOMPARE(reloaded.count(), shown);
            QVERIFY(w->materials()->resolvedTextures().contains(QString::fromStdString(name)));
            QCOMPARE(w->model()->meshes.size(), demo::demoModelSource().meshes.size());
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
            QVERIFY(w->notices()->noticeText(QStringLiteral("live")).isEmpty());
        }
        // A file that stays broken is named in a notice (not a dialog) and the last good model stays shown.
        w->liveWatch()->setRetry(100, 3);
        const std::vector<uint8_t> good = modelBytes("D.TGA");
        writeBytes(model, good, 0, good.size() / 3);
        QTRY_VERIFY_WITH_TIMEOUT(!w->notices()->noticeText(QStringLiteral("live")).isEmpty(), 10000);
        QVERIFY(w->notices()->noticeText(QStringLiteral("live")).contains(QStringLiteral("HALF.ALO")));
        QVERIFY(w->materials()->resolvedTextures().contains(QStringLiteral("C.TGA")));
        QCOMPARE(reloaded.count(), shown);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        // Written whole: shown, and the notice goes.
        writeBytes(model, good);
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), shown + 1, 10000);
        QVERIFY(w->notices()->noticeText(QStringLiteral("live")).isEmpty());
        QVERIFY(w->materials()->resolvedTextures().contains(QStringLiteral("D.TGA")));
    }

    // Unsaved edits are not thrown away by a change on disk: the notice asks; "Keep my edits" keeps them, "Reload
    // from disk" shows the file on disk.
    void unsavedEditsAreKeptUntilTheUserChooses() {
        const QString model = dir.filePath(QStringLiteral("edits/EDITED.ALO"));
        writeBytes(model, modelBytes("OLD1.TGA"));
        QStringList errors;
        auto w = openWindow(model, &errors);
        QVERIFY(w);
        emit w->materials()->textureRenameRequested(QByteArray("OLD1.TGA"), QStringLiteral("MINE.TGA"));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY(w->materials()->resolvedTextures().contains(QStringLiteral("MINE.TGA")));
        QSignalSpy reloaded(w.get(), &ui::MainWindow::reloadedFromDisk);
        writeBytes(model, modelBytes("DISK.TGA"));
        QTRY_VERIFY_WITH_TIMEOUT(!w->notices()->noticeText(QStringLiteral("live")).isEmpty(), 10000);
        QVERIFY(w->edits()->isModified());
        QVERIFY(w->materials()->resolvedTextures().contains(QStringLiteral("MINE.TGA")));
        QCOMPARE(reloaded.count(), 0);
        auto button = [&](const QString& text) -> QPushButton* {
            QWidget* n = w->notices()->noticeWidget(QStringLiteral("live"));
            if (!n) return nullptr;
            for (QPushButton* b : n->findChildren<QPushButton*>())
                if (b->text() == text) return b;
            return nullptr;
        };
        QPushButton* keep = button(QStringLiteral("Keep my edits"));
        QVERIFY(keep);
        QTest::mouseClick(keep, Qt::LeftButton);
        QTRY_VERIFY(w->notices()->noticeText(QStringLiteral("live")).isEmpty());
        QVERIFY(w->edits()->isModified());
        QVERIFY(w->materials()->resolvedTextures().contains(QStringLiteral("MINE.TGA")));
        // Changed again; this time the user takes the file on disk.
        writeBytes(model, modelBytes("DISK2.TGA"));
        QTRY_VERIFY_WITH_TIMEOUT(button(QStringLiteral("Reload from disk")), 10000);
        QTest::mouseClick(button(QStringLiteral("Reload from disk")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, 10000);
        QVERIFY(!w->edits()->isModified());
        QVERIFY(w->materials()->resolvedTextures().contains(QStringLiteral("DISK2.TGA")));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    // FileWatch alone: an editor's save through a temporary file and a rename is delivered once, and the renamed
    // file is watched again for the next save; a file deleted is not delivered until it is back.
    void atomicRenameDeliveredOnce() {
        const QString f = dir.filePath(QStringLiteral("fw/a.txt"));
        writeBytes(f, {'1'});
        ui::FileWatch fw;
        fw.setSettleMs(150);
        fw.setPollMs(0); // notices only: the rename must be caught by the folder watch
        fw.setFiles({f});
        QSignalSpy changed(&fw, &ui::FileWatch::changed);
        for (int round = 0; round < 3; ++round) {
            const QString tmp = dir.filePath(QStringLiteral("fw/.a.txt.tmp"));
            writeBytes(tmp, std::vector<uint8_t>(size_t(round + 2), uint8_t('x')));
            QVERIFY(::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(f).constData()) == 0);
            QTRY_COMPARE_WITH_TIMEOUT(changed.count(), round + 1, 5000);
            QCOMPARE(changed.last().at(0).toStringList(), QStringList{f});
            QTest::qWait(400);
            QCOMPARE(changed.count(), round + 1);
        }
        QFile::remove(f);
        QTest::qWait(500);
        QCOMPARE(changed.count(), 3);
        writeBytes(f, {'b', 'a', 'c', 'k'});
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 4, 5000);
    }

    // rigscope --screenshot OUT.png --watch MODEL: a picture per change (the texture rewritten: the picture follows),
    // a model written in two halves with a pause: one picture, no error; SIGTERM ends it with 0.
    void headlessWatchRendersOnEachChange() {
        const QString model = dir.filePath(QStringLiteral("cli/WATCH.ALO"));
        const QString tex = dir.filePath(QStringLiteral("cli/WATCH.TGA"));
        const QString out = dir.filePath(QStringLiteral("cli/out.png"));
        writeBytes(model, modelBytes("WATCH.TGA"));
        writeBytes(tex, solidTga(230, 20, 20));
        QProcess p;
        p.setProgram(QStringLiteral(RIGSCOPE_BIN));
        p.setArguments({QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("320x240"),
                        QStringLiteral("--watch"), model});
        p.start();
        QVERIFY(p.waitForStarted());
        QByteArray said;
        auto wrote = [&] {
            said += p.readAllStandardOutput();
            return int(said.count("rigscope: wrote "));
        };
        QTRY_COMPARE_WITH_TIMEOUT(wrote(), 1, 60000);
        const QImage red(out);
        QVERIFY2(dominant(red, 0) > 300, qPrintable(QString::number(dominant(red, 0))));
        QTest::qWait(400);
        writeBytes(tex, solidTga(20, 20, 230));
        QTRY_COMPARE_WITH_TIMEOUT(wrote(), 2, 30000);
        const QImage blue(out);
        QVERIFY2(dominant(blue, 2) > dominant(red, 2) + 300, qPrintable(QString::number(dominant(blue, 2))));
        QVERIFY2(dominant(blue, 0) < dominant(red, 0) / 20, qPrintable(QString::number(dominant(blue, 0))));
        // The model in two halves, 1.5 s apart: one more picture, nothing reported.
        const std::vector<uint8_t> next = modelBytes("OTHER.TGA");
        writeBytes(model, next, 0, next.size() / 2);
        QTest::qWait(1500);
        writeBytes(model, next, next.size() / 2, SIZE_MAX, /*append=*/true);
        QTRY_COMPARE_WITH_TIMEOUT(wrote(), 3, 30000);
        QTest::qWait(1500);
        QCOMPARE(wrote(), 3);
        const QImage grey(out); // OTHER.TGA is missing: the neutral grey stand-in, neither red nor blue
        QVERIFY(dominant(grey, 2) < dominant(blue, 2) / 10);
        p.terminate();
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QString err = QString::fromLocal8Bit(p.readAllStandardError());
        QVERIFY2(!err.contains(QStringLiteral("HALF")) && !err.contains(QStringLiteral("cannot")) &&
                     !err.contains(QStringLiteral("WATCH.ALO")),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("OTHER.TGA")), qPrintable(err)); // the missing texture, named once
    }

    // A game object's definition file rewritten while the object is shown: the folders are indexed again and the
    // object opened again from the new definition (the hardpoint now hangs its model at Root, not HP_Bone).
    void objectDefinitionChangeReopensObject() {
        test::EawObjectInstall inst;
        ui::MainWindow w;
        QStringList errors;
        w.setErrorReporter([&](const QString& t, const QString& m) { errors << t + ": " + m; });
        w.liveWatch()->setSettleMs(250);
        w.liveWatch()->setPollMs(200);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.findChild<ui::AssetBrowserDock*>()->mountFolders({}, {QString::fromStdString(inst.root())}, false);
        QTRY_COMPARE_WITH_TIMEOUT(w.objectsPanel()->visibleCount(), 3, 20000);
        w.openObject(QStringLiteral("Test_Cruiser"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isOpeningObject() && w.objectName() == QStringLiteral("Test_Cruiser"), 20000);
        QCOMPARE(w.objectAttachments().size(), size_t(1));
        QCOMPARE(w.objectAttachments()[0].bone, 1); // HP_Bone
        const QString hardpoints = QString::fromStdString((inst.dir / "Data/XML/HardPoints.xml").string());
        QVERIFY(w.liveWatch()->files().contains(hardpoints));
        // The user's camera (moved away from the framing) and selection are kept through the reloads.
        auto* cam = qobject_cast<Qt3DRender::QCamera*>(w.view()->camera());
        QVector3D camAt;
        if (cam) {
            cam->setPosition(cam->position() + QVector3D(3.0f, -2.0f, 1.5f));
            camAt = cam->position();
        }
        w.boneTree()->selectBone(1);
        QSignalSpy reloaded(&w, &ui::MainWindow::reloadedFromDisk);
        QFile f(hardpoints);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray xml = f.readAll();
        f.close();
        xml.replace("<Attachment_Bone>HP_Bone</Attachment_Bone>", "<Attachment_Bone>Root</Attachment_Bone>");
        writeBytes(hardpoints, std::vector<uint8_t>(xml.begin(), xml.end()));
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, 20000);
        QCOMPARE(w.objectName(), QStringLiteral("Test_Cruiser"));
        QCOMPARE(w.objectAttachments().size(), size_t(1));
        QCOMPARE(w.objectAttachments()[0].bone, 0); // Root
        QCOMPARE(w.boneTree()->selectedBone(), 1);
        if (cam) QVERIFY2((cam->position() - camAt).length() < 1e-3f, "the camera was framed anew");
        // The attached model rewritten (the turret becomes a hull): the object is assembled again with it.
        QCOMPARE(QString::fromStdString(w.objectAttachments()[0].model->meshes.at(0).name), QStringLiteral("Turret"));
        writeBytes(QString::fromStdString((inst.dir / "Data/Art/Models/TEST_TURRET.ALO").string()),
                   alamo::writeModel(test::objectHull()));
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 2, 20000);
        QCOMPARE(w.objectAttachments().size(), size_t(1));
        QCOMPARE(QString::fromStdString(w.objectAttachments()[0].model->meshes.at(0).name), QStringLiteral("Hull"));
        QCOMPARE(w.boneTree()->selectedBone(), 1);
        if (cam) QVERIFY2((cam->position() - camAt).length() < 1e-3f, "the camera was framed anew");
        // Framing anew would differ: the F key's framing moves the camera back.
        if (cam) {
            w.view()->frameModel();
            QVERIFY((cam->position() - camAt).length() > 0.5f);
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

  private:
    QTemporaryDir dir;
};

QTEST_MAIN(LiveReloadTest)
#include "live_reload_test.moc"
