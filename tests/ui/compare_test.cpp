// File → Compare with… in the window: B beside A in a second view, the Differences panel listing what
// rigscope-cli diff lists, one timeline moving both views, linked cameras, a bone row selecting the bone.
#include "alamo/alamo_writer.h"
#include "alamo_fixtures.h"
#include "bone_tree_dock.h"
#include "compare_dock.h"
#include "compare_session.h"
#include "main_window.h"
#include "scene_dock.h"
#include "timeline_dock.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <Qt3DRender/QCamera>

#include <fstream>
#include <glm/gtc/matrix_transform.hpp>

using namespace rs;

namespace {

void writeFile(const QString& path, const std::vector<uint8_t>& b) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

QImage capture(ui::ModelView* v) {
    QImage out;
    bool done = false;
    v->capture([&](const QImage& img) {
        out = img;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 20000)) qWarning("capture timed out");
    // RIGSCOPE_TEST_DUMP=DIR keeps every capture for inspection.
    static int n = 0;
    const QString dump = qEnvironmentVariable("RIGSCOPE_TEST_DUMP");
    if (!dump.isEmpty()) out.save(QStringLiteral("%1/compare-%2.png").arg(dump).arg(n++));
    return out;
}

// Pixels that differ by more than 24 in some channel.
int changedPixels(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) return -1;
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
            if (std::abs(p.red() - q.red()) > 24 || std::abs(p.green() - q.green()) > 24 ||
                std::abs(p.blue() - q.blue()) > 24)
                ++n;
        }
    return n;
}

int orangePixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            if (c.red() > 160 && c.green() > 60 && c.green() < 200 && c.blue() < 90) ++n;
        }
    return n;
}

} // namespace

class CompareTest : public QObject {
    Q_OBJECT
  private slots:
    void compareWithShowsBothAndTheDifferences() {
        if (qgetenv("RIGSCOPE_VIEW") == "preview") QSKIP("SKIPPED: linked cameras need the Qt3D view");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QDir(dir.path()).mkpath(QStringLiteral("A"));
        QDir(dir.path()).mkpath(QStringLiteral("B"));
        // A: the synthetic model and clip. B: Arm raised by 0.5 in the bind pose, and turned 30 degrees further
        // at frame 2 of the clip.
        writeFile(dir.filePath(QStringLiteral("A/SYN.ALO")), alamo::writeModel(test::syntheticModel()));
        writeFile(dir.filePath(QStringLiteral("A/SYN_IDLE_00.ALA")), alamo::writeClip(test::syntheticClip()));
        Model mb = test::syntheticModel();
        mb.skeleton.bones[1].bindLocal =
            glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 0.5f)) * mb.skeleton.bones[1].bindLocal;
        writeFile(dir.filePath(QStringLiteral("B/SYN.ALO")), alamo::writeModel(mb));
        Clip clipB = test::syntheticClip();
        clipB.tracks[0].rotation[2] = glm::angleAxis(glm::radians(70.0f), glm::vec3(0, 0, 1));
        writeFile(dir.filePath(QStringLiteral("B/SYN_IDLE_00.ALA")), alamo::writeClip(clipB));

        ui::MainWindow w;
        QStringList errors;
        w.setErrorReporter([&](const QString& t, const QString& m) { errors << t + ": " + m; });
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFile(dir.filePath(QStringLiteral("A/SYN.ALO")));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading() && w.model(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(w.clip() != nullptr, 5000);
        w.timeline()->pause();
        w.timeline()->setPosition(0.0f);
        ui::ViewSettings s = w.scene()->settings();
        s.skeleton = true; // the bones show the pose in both views
        w.scene()->setSettings(s);

        ui::CompareSession* cs = w.compareSession();
        QVERIFY(cs);
        QSignalSpy compared(cs, &ui::CompareSession::compared);
        cs->compareWith(dir.filePath(QStringLiteral("B/SYN.ALO")));
        QTRY_VERIFY_WITH_TIMEOUT(compared.count() == 1, 20000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        // Both views shown, B to the right of A, each about half the width.
        QVERIFY(cs->isComparing());
        QWidget* va = w.view()->widget();
        QWidget* vb = cs->viewB()->widget();
        QTRY_VERIFY(vb->isVisible());
        QTest::qWait(200); // the views' new widths, and A framed again for them
        QVERIFY(va->isVisible());
        const QPoint pa = va->mapTo(&w, QPoint(0, 0)), pb = vb->mapTo(&w, QPoint(0, 0));
        QVERIFY2(pb.x() >= pa.x() + va->width(), qPrintable(QStringLiteral("%1 %2").arg(pa.x()).arg(pb.x())));
        QVERIFY(std::abs(va->width() - vb->width()) < va->width() / 3);
        QVERIFY(cs->clipB());
        QCOMPARE(QString::fromStdString(cs->clipB()->name), QStringLiteral("SYN_IDLE_00"));

        // The Differences panel: the moved bone and the clip's largest difference, once each.
        ui::DifferencesDock* dock = cs->dock();
        QTRY_VERIFY(dock->isVisible());
        const QList<QTreeWidgetItem*> rows = dock->differenceItems();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0]->parent()->text(0), QStringLiteral("Bones (1)"));
        QCOMPARE(rows[0]->text(0), QStringLiteral("Arm"));
        QVERIFY2(rows[0]->text(1).startsWith(QStringLiteral("moved 0.5, rotated 0° in the bind pose")),
                 qPrintable(rows[0]->text(1)));
        QCOMPARE(rows[1]->parent()->text(0), QStringLiteral("Clips (1)"));
        QCOMPARE(rows[1]->text(0), QStringLiteral("Arm"));
        QVERIFY2(rows[1]->text(1).contains(QStringLiteral("(at 0.2 s)")), qPrintable(rows[1]->text(1)));
        QVERIFY(dock->header()->text().contains(QStringLiteral("2 difference")));

        // Both views draw the model: its skeleton's orange bone lines.
        const QImage a0 = capture(w.view()), b0 = capture(cs->viewB());
        QVERIFY(!a0.isNull() && !b0.isNull());
        QVERIFY2(orangePixels(a0) > 10, qPrintable(QString::number(orangePixels(a0))));
        QVERIFY2(orangePixels(b0) > 10, qPrintable(QString::number(orangePixels(b0))));

        // One timeline drives both views.
        w.timeline()->setPosition(2.0f);
        const QImage a2 = capture(w.view()), b2 = capture(cs->viewB());
        QVERIFY2(changedPixels(a0, a2) > 20, "A did not move with the timeline");
        QVERIFY2(changedPixels(b0, b2) > 20, "B did not move with the timeline");
        w.timeline()->setPosition(0.0f);
        const QImage b00 = capture(cs->viewB());
        QVERIFY2(changedPixels(b0, b00) < 20, "B not back at frame 0");

        // Linked cameras: moving either moves the other.
        auto* ca = qobject_cast<Qt3DRender::QCamera*>(w.view()->camera());
        auto* cb = qobject_cast<Qt3DRender::QCamera*>(cs->viewB()->camera());
        QVERIFY(ca && cb);
        QCOMPARE(cb->position(), ca->position());
        ca->setPosition(ca->position() + QVector3D(3, -2, 1));
        QCOMPARE(cb->position(), ca->position());
        cb->setViewCenter(cb->viewCenter() + QVector3D(0.5f, 0, 0));
        QCOMPARE(ca->viewCenter(), cb->viewCenter());

        // A bone row selects the bone (the Bones panel and both views); a track row moves the timeline to its time.
        dock->tree()->setCurrentItem(rows[0]);
        QCOMPARE(w.boneTree()->selectedBone(), 1);
        QCOMPARE(w.view()->highlightedBone(), 1);
        QCOMPARE(cs->viewB()->highlightedBone(), 1);
        dock->tree()->setCurrentItem(rows[1]);
        QCOMPARE(w.timeline()->position(), 2.0f); // 0.2 s at 10 fps

        // Closing goes back to one view.
        cs->close();
        QVERIFY(!cs->isComparing());
        QVERIFY(!dock->isVisible());
        QVERIFY(va->isVisible());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    }

    void unreadableBIsReportedByName() {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("SYN.ALO")), alamo::writeModel(test::syntheticModel()));
        auto cut = alamo::writeModel(test::syntheticModel());
        cut.resize(cut.size() / 2);
        writeFile(dir.filePath(QStringLiteral("CUT.ALO")), cut);
        ui::MainWindow w;
        QStringList errors;
        w.setErrorReporter([&](const QString& t, const QString& m) { errors << t + ": " + m; });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFile(dir.filePath(QStringLiteral("SYN.ALO")));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading() && w.model(), 20000);
        QSignalSpy failed(w.compareSession(), &ui::CompareSession::failed);
        w.compareSession()->compareWith(dir.filePath(QStringLiteral("CUT.ALO")));
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 20000);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].contains(dir.filePath(QStringLiteral("CUT.ALO"))), qPrintable(errors[0]));
        QVERIFY(!w.compareSession()->isComparing());
    }
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("compare_ui_tests"));
    CompareTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "compare_test.moc"
