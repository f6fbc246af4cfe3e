// File > Record...: the dialog's choices, a recording through the window (the demo model and its clip) decoded
// back, Cancel in the progress dialog leaving nothing, and the menu entry.
#include "decode.h"
#include "main_window.h"
#include "record_dialog.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace rs::ui;

class RecordDialogTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static void showDemo(MainWindow& w) {
        w.resize(1000, 700);
        w.show();
        w.showDemo();
        QTRY_VERIFY_WITH_TIMEOUT(w.model() && w.clip(), 30000);
    }

  private slots:
    void menuHasRecord() {
        MainWindow w;
        bool found = false;
        for (QAction* a : w.menuBar()->findChildren<QAction*>())
            if (a->text() == QStringLiteral("&Record…")) found = true;
        QVERIFY(found);
    }

    void dialogSummarisesAndRefuses() {
        MainWindow w;
        showDemo(w);
        RecordDialog dlg(&w);
        QVERIFY(dlg.clipBox()->currentIndex() > 0); // the current clip is preselected
        dlg.file()->setText(dir_.filePath("a.gif"));
        dlg.fpsBox()->setValue(10);
        QVERIFY2(dlg.summary()->text().startsWith("20 frames, 2.00 s"), qPrintable(dlg.summary()->text()));
        dlg.file()->setText(dir_.filePath("a.avi"));
        QVERIFY(dlg.summary()->text().contains(".mp4, .webm, .gif or .webp"));
        dlg.file()->setText(dir_.filePath("a.mp4"));
        dlg.widthBox()->setValue(161);
        QVERIFY(dlg.summary()->text().contains("even"));
        dlg.widthBox()->setValue(160);
        dlg.clipBox()->setCurrentIndex(0); // bind pose: nothing moves without a turntable
        QVERIFY(dlg.summary()->text().contains("Nothing moves"));
        dlg.turntableBox()->setChecked(true);
        dlg.turntableSeconds()->setValue(3.0);
        dlg.fpsBox()->setValue(8);
        QVERIFY2(dlg.summary()->text().startsWith("24 frames, 3.00 s"), qPrintable(dlg.summary()->text()));
    }

    void recordsTheOpenModel() {
        MainWindow w;
        showDemo(w);
        RecordDialog dlg(&w);
        const QString out = dir_.filePath("demo.webp");
        dlg.file()->setText(out);
        dlg.widthBox()->setValue(200);
        dlg.heightBox()->setValue(150);
        dlg.fpsBox()->setValue(10);
        QString error;
        RecordSession* s = RecordSession::start(&w, dlg.choice(), &error);
        QVERIFY2(s, qPrintable(error));
        QSignalSpy done(s, &RecordSession::finished);
        QSignalSpy steps(s->recorder(), &SceneRecorder::progress);
        QVERIFY(!QFile::exists(out)); // only once complete
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 120000);
        QCOMPARE(done.first().at(0).toBool(), true);
        QCOMPARE(steps.last().at(0).toInt(), 20);
        const auto v = rs::test::decodeVideo(out.toStdString());
        QVERIFY2(v.error.empty(), v.error.c_str());
        QCOMPARE(v.width, 200);
        QCOMPARE(v.height, 150);
        QCOMPARE(int(v.frames.size()), 20); // the demo clip's 2 s at 10 fps
        // The clip plays: the first frame differs from a later one.
        QVERIFY(rs::test::compareRgb(v.frames[0], v.frames[7]).meanAbs > 0.3);
        QCOMPARE(QDir(dir_.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"demo.webp"});
    }

    void cancelLeavesNothing() {
        MainWindow w;
        showDemo(w);
        QTemporaryDir dir;
        RecordChoice c;
        c.clip = w.clip();
        c.settings.out = dir.filePath("long.mp4");
        c.settings.width = 160;
        c.settings.height = 120;
        c.settings.fps = 30;
        c.settings.turntable = 120.0; // 3,600 frames: cancelled long before the end
        c.settings.duration = 120.0;
        QString error;
        RecordSession* s = RecordSession::start(&w, c, &error);
        QVERIFY2(s, qPrintable(error));
        QSignalSpy done(s, &RecordSession::finished);
        QSignalSpy steps(s->recorder(), &SceneRecorder::progress);
        QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 3, 60000);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // the temporary file
        QProgressDialog* p = s->progressDialog();
        QVERIFY(p);
        QPushButton* cancel = p->findChild<QPushButton*>();
        QVERIFY(cancel);
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 60000);
        QCOMPARE(done.first().at(0).toBool(), false);
        QCOMPARE(done.first().at(1).toBool(), true);
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("record_dialog_tests"));
    RecordDialogTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "record_dialog_test.moc"
