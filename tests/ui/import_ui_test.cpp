// File → Import glTF… through the window: a glTF (the demo model and its clip, written by the project's exporter)
// converted for Forces of Corruption, Empire at War, Generals and BFME: the model shown is the converted one (its
// format, bones, BFME's two-bone skins), the clips are on the timeline, the findings are reported; File → Save As
// on it writes the model and its clips for the chosen name, read back by the project's readers; and the menu has
// one way to save (no separate "Save converted as…").
#include "alamo/alamo_reader.h"
#include "gltf_export.h"
#include "import_dialog.h"
#include "main_window.h"
#include "timeline_dock.h"
#include "w3d/w3d_reader.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace rs;
using namespace rs::ui;

namespace {

std::vector<uint8_t> bytesOf(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return std::vector<uint8_t>(b.begin(), b.end());
}

} // namespace

class ImportUiTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString glb_;
    size_t bones_ = 0;

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        MainWindow w;
        w.resize(1000, 700);
        w.show();
        w.showDemo();
        QTRY_VERIFY_WITH_TIMEOUT(w.model() && w.clip() && !w.isLoading(), 30000);
        glb_ = dir_.filePath(QStringLiteral("walker.glb"));
        // The demo's clip without its scale tracks: W3D clips hold no scale (that refusal is import_tests').
        Clip clip = *w.clip();
        for (BoneTrack& t : clip.tracks)
            t.scale.clear(), t.defaultScale = glm::vec3(1.0f);
        gltf::exportModel(*w.model(), {&clip}, gltf::ExportOptions{}, nullptr, glb_.toStdString());
        QVERIFY(QFile::exists(glb_));
        bones_ = w.model()->skeleton.bones.size();
    }

    void menuHasOneWayToSave() {
        MainWindow w;
        bool import = false, converted = false;
        for (QAction* a : w.menuBar()->findChildren<QAction*>()) {
            import |= a->text() == QStringLiteral("&Import glTF…");
            converted |= a->text().contains(QStringLiteral("onverted"));
        }
        QVERIFY(import);
        QVERIFY(!converted);
    }

    void importsForEachGame_data() {
        QTest::addColumn<int>("game");
        QTest::addColumn<QString>("ext");
        QTest::newRow("foc") << int(ImportGame::Foc) << "alo";
        QTest::newRow("eaw") << int(ImportGame::Eaw) << "alo";
        QTest::newRow("generals") << int(ImportGame::Generals) << "w3d";
        QTest::newRow("bfme") << int(ImportGame::Bfme) << "w3d";
    }
    void importsForEachGame() {
        QFETCH(int, game);
        QFETCH(QString, ext);
        MainWindow w;
        w.setUnsavedPrompt([](const QStringList&) { return 0; });
        QString reported;
        w.setErrorReporter([&](const QString&, const QString& m) { reported = m; });
        w.resize(1000, 700);
        w.show();
        const ImportOutcome o = importGltfInto(&w, glb_, ImportGame(game));
        QVERIFY2(o.ok, qPrintable(o.text));
        QCOMPARE(o.checkErrors, 0);
        QVERIFY2(o.text.contains(QStringLiteral("Check: 0 errors")), qPrintable(o.text));
        QCOMPARE(QFileInfo(o.modelPath).suffix().toLower(), ext);
        QTRY_VERIFY2_WITH_TIMEOUT((w.model() && !w.isLoading()) || !reported.isEmpty(), qPrintable(reported), 30000);
        QVERIFY2(reported.isEmpty(), qPrintable(reported));
        QCOMPARE(QFileInfo(w.currentPath()), QFileInfo(o.modelPath));
        // The model shown is the converted one: its format, the glTF's bones (W3D: + RootTransform when the
        // exporter's root is not one), the clip on the timeline.
        const bool w3d = ext == QLatin1String("w3d");
        QCOMPARE(w.model()->format, w3d ? Format::W3d : Format::AlamoModel);
        QVERIFY(w.model()->skeleton.bones.size() >= bones_);
        QCOMPARE(w.clipEntries().size(), 1);
        QVERIFY(w.selectClip(1));
        QTRY_VERIFY_WITH_TIMEOUT(w.clip() != nullptr, 10000);
        QVERIFY(w.clip()->frameCount > 1);
        // EaW clips are format 1, FoC's format 2 (the .ala as written); BFME skins bind two bones where the
        // glTF weighs two.
        if (!w3d) {
            const QString ala = QFileInfo(o.modelPath).dir().entryList({QStringLiteral("*.ALA")}).value(0);
            QVERIFY(!ala.isEmpty());
            const QString alaPath = QFileInfo(o.modelPath).dir().filePath(ala);
            const std::vector<uint8_t> b = bytesOf(alaPath);
            const Clip c = alamo::readClip(ByteSpan(b), alaPath.toStdString());
            QCOMPARE(c.version, game == int(ImportGame::Eaw) ? 1 : 2);
        }
        size_t dual = 0;
        for (const Mesh& m : w.model()->meshes)
            for (const SubMesh& s : m.subMeshes)
                for (const glm::vec4& wt : s.boneWeights)
                    dual += wt.y > 0.0f;
        if (game != int(ImportGame::Bfme)) QCOMPARE(dual, size_t(0));

        // Save As under the same name (the clips beside it) and, unedited, under a new one.
        QTemporaryDir out;
        const QString same = out.filePath(QFileInfo(o.modelPath).fileName());
        QVERIFY2(w.saveAs(same), qPrintable(reported));
        QVERIFY(QFile::exists(same));
        QCOMPARE(bytesOf(same), bytesOf(o.modelPath));
        const QStringList written = QDir(out.path()).entryList(QDir::Files);
        QCOMPARE(written.size(), 2); // model + its one clip
        const QString renamed = out.filePath(QStringLiteral("NEWNAME.") + ext);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading(), 30000);
        // The window now shows the saved file; a second Save As of it is an ordinary one (not an import).
        if (w3d) {
            // Under a new name from the temporary model: open it again and save as NEWNAME.
            w.openFile(o.modelPath);
            QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading() && QFileInfo(w.currentPath()) == QFileInfo(o.modelPath), 30000);
            QVERIFY2(w.saveAs(renamed), qPrintable(reported));
            QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading() && QFileInfo(w.currentPath()) == QFileInfo(renamed), 30000);
            const std::vector<uint8_t> b = bytesOf(renamed);
            const w3d::File f = w3d::readFile(ByteSpan(b), renamed.toStdString());
            QCOMPARE(f.hierarchies.size(), size_t(1));
            QCOMPARE(QString::fromStdString(f.hierarchies[0].name), QStringLiteral("NEWNAME"));
            QVERIFY(QDir(out.path()).entryList({QStringLiteral("NEWNAME_*.w3d")}).size() == 1);
            QVERIFY(w.model());
            QCOMPARE(w.clipEntries().size(), 1);
        } else {
            w.openFile(o.modelPath);
            QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading() && QFileInfo(w.currentPath()) == QFileInfo(o.modelPath), 30000);
            QVERIFY2(w.saveAs(renamed), qPrintable(reported));
            QVERIFY(QFile::exists(renamed));
            const QStringList clips = QDir(out.path()).entryList({QStringLiteral("NEWNAME_*_00.ALA")});
            QCOMPARE(clips.size(), 1);
            const std::vector<uint8_t> b = bytesOf(renamed);
            const Model m = alamo::readModel(ByteSpan(b), renamed.toStdString());
            QVERIFY(m.warnings.empty());
        }
        // A wrong extension is refused by name, nothing written.
        w.openFile(o.modelPath);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading() && QFileInfo(w.currentPath()) == QFileInfo(o.modelPath), 30000);
        reported.clear();
        QVERIFY(!w.saveAs(out.filePath(QStringLiteral("X.") + (w3d ? "alo" : "w3d"))));
        QVERIFY2(reported.contains(QStringLiteral("saved as .") + ext), qPrintable(reported));
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("X.") + (w3d ? "alo" : "w3d"))));
    }
};

QTEST_MAIN(ImportUiTest)
#include "import_ui_test.moc"
