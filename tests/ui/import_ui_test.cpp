// File → Import glTF… through the window: a glTF (the demo model and its clip, written by the project's exporter)
// converted for Forces of Corruption, Empire at War, Generals and BFME: the model shown is the converted one (its
// format, bones, BFME's two-bone skins), the clips are on the timeline, the findings are reported; File → Save As
// on it writes the model and its clips for the chosen name, read back by the project's readers; and the menu has
// one way to save (no separate "Save converted as…").
#include "alamo/alamo_reader.h"
#include "common/edit_op.h"
#include "formats/formats.h"
#include "gltf_export.h"
#include "import_dialog.h"
#include "main_window.h"
#include "texture/texture.h"
#include "texture_lookup.h"
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

// Every texture the exporter asks for: a 16x8 uncompressed 32-bit TGA, opaque red left and half-transparent
// blue right (the importer's DDS is then DXT5).
struct TgaLookup : gltf::TextureLookup {
    bool find(const std::string& name, std::string& path, std::vector<uint8_t>& bytes) override {
        path = name;
        bytes.assign(18, 0);
        bytes[2] = 2;                         // uncompressed true colour
        bytes[12] = 16, bytes[14] = 8;        // width, height
        bytes[16] = 32, bytes[17] = 8 | 0x20; // 32 bpp, 8 alpha bits, top-left origin
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 16; ++x) {
                if (x < 8)
                    bytes.insert(bytes.end(), {0, 0, 255, 255}); // BGRA red
                else
                    bytes.insert(bytes.end(), {255, 0, 0, 128}); // blue, alpha 128
            }
        return true;
    }
};

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

    // File → Import glTF… with a textures folder (the CLI's --textures DIR): the DDS files are written beside the
    // converted model (the viewer shows them) and, by Save As, into the chosen folder with the model, read back.
    void importWritesDdsTextures_data() {
        QTest::addColumn<int>("game");
        QTest::addColumn<QString>("ext");
        QTest::newRow("foc") << int(ImportGame::Foc) << "ALO";
        QTest::newRow("generals") << int(ImportGame::Generals) << "w3d";
    }
    void importWritesDdsTextures() {
        QFETCH(int, game);
        QFETCH(QString, ext);
        // The demo model with a base texture on its first material, exported with the texture as PNG.
        MainWindow src;
        src.showDemo();
        QTRY_VERIFY_WITH_TIMEOUT(src.model() && src.clip() && !src.isLoading(), 30000);
        Model m = *src.model();
        MaterialParam tex;
        tex.name = "BaseTexture";
        tex.type = ParamType::Texture;
        tex.texture = "HULL.tga";
        m.meshes[0].subMeshes[0].material.params.push_back(tex);
        Clip clip = *src.clip();
        for (BoneTrack& t : clip.tracks)
            t.scale.clear(), t.defaultScale = glm::vec3(1.0f);
        TgaLookup lookup;
        const QString glb = dir_.filePath(QStringLiteral("textured.glb"));
        const gltf::ExportStats st = gltf::exportModel(m, {&clip}, gltf::ExportOptions{}, &lookup, glb.toStdString());
        QCOMPARE(st.images, size_t(1));

        MainWindow w;
        w.setUnsavedPrompt([](const QStringList&) { return 0; });
        QString reported;
        w.setErrorReporter([&](const QString&, const QString& msg) { reported = msg; });
        w.resize(1000, 700);
        w.show();
        QTemporaryDir textures;
        const ImportOutcome o = importGltfInto(&w, glb, ImportGame(game), textures.path());
        QVERIFY2(o.ok, qPrintable(o.text));
        QVERIFY2(o.text.contains(QStringLiteral("1 DDS textures")), qPrintable(o.text));
        QCOMPARE(o.textureFiles.size(), 1);
        const QString name = QFileInfo(o.textureFiles[0]).fileName();
        QVERIFY2(name.endsWith(QStringLiteral(".dds"), Qt::CaseInsensitive), qPrintable(name));
        QCOMPARE(QFileInfo(o.textureFiles[0]).absolutePath(), QFileInfo(textures.path()).absoluteFilePath());
        // Nothing in the chosen folder before Save As; the copy beside the converted model.
        QVERIFY(!QFile::exists(o.textureFiles[0]));
        const QString beside = QFileInfo(o.modelPath).dir().filePath(name);
        QVERIFY(QFile::exists(beside));
        QTRY_VERIFY_WITH_TIMEOUT((w.model() && !w.isLoading()) || !reported.isEmpty(), 30000);
        QVERIFY2(reported.isEmpty(), qPrintable(reported));
        // The model names the texture the DDS is written as (W3D: the .tga of that stem).
        bool named = false;
        const QString stem = QFileInfo(name).completeBaseName();
        for (const Mesh& mesh : w.model()->meshes)
            for (const SubMesh& sm : mesh.subMeshes)
                for (const MaterialParam& p : sm.material.params)
                    named |= p.type == ParamType::Texture && QFileInfo(QString::fromStdString(p.texture))
                                                                     .completeBaseName()
                                                                     .compare(stem, Qt::CaseInsensitive) == 0;
        QVERIFY(named);

        QTemporaryDir out;
        const QString dest = out.filePath(QFileInfo(o.modelPath).fileName());
        QVERIFY2(w.saveAs(dest), qPrintable(reported));
        QVERIFY(QFile::exists(dest));
        QVERIFY(QFile::exists(o.textureFiles[0]));
        QCOMPARE(bytesOf(o.textureFiles[0]), bytesOf(beside));
        // The DDS as the project reads it: 16x8, red opaque on the left, blue with alpha 128 on the right (DXT5,
        // alpha within its 3-bit ramp's rounding; colours within DXT's 5:6:5 rounding).
        const std::vector<uint8_t> dds = bytesOf(o.textureFiles[0]);
        const Image img = decodeTexture(ByteSpan(dds), name.toStdString());
        QCOMPARE(img.width, 16);
        QCOMPARE(img.height, 8);
        const uint8_t* left = &img.rgba[size_t(3 * 16 + 2) * 4];
        const uint8_t* right = &img.rgba[size_t(3 * 16 + 13) * 4];
        QVERIFY(left[0] > 240 && left[1] < 16 && left[2] < 16 && left[3] == 255);
        QVERIFY(right[0] < 16 && right[1] < 16 && right[2] > 240);
        QVERIFY2(std::abs(int(right[3]) - 128) <= 10, qPrintable(QString::number(right[3])));
    }

    // Save As of a converted model after an edit: the edit session writes the edited model, the import writes its
    // clips for the chosen name beside it; a W3D model edited is refused under a new name (its hierarchy is
    // named after the file), nothing written.
    void saveAsAfterAnEdit_data() {
        QTest::addColumn<int>("game");
        QTest::newRow("foc") << int(ImportGame::Foc);
        QTest::newRow("generals") << int(ImportGame::Generals);
    }
    void saveAsAfterAnEdit() {
        QFETCH(int, game);
        const bool w3d = game == int(ImportGame::Generals);
        MainWindow w;
        w.setUnsavedPrompt([](const QStringList&) { return 0; });
        QString reported;
        w.setErrorReporter([&](const QString&, const QString& msg) { reported = msg; });
        w.resize(1000, 700);
        w.show();
        const ImportOutcome o = importGltfInto(&w, glb_, ImportGame(game));
        QVERIFY2(o.ok, qPrintable(o.text));
        QTRY_VERIFY_WITH_TIMEOUT((w.model() && !w.isLoading()) || !reported.isEmpty(), 30000);
        QVERIFY2(reported.isEmpty(), qPrintable(reported));
        // The edit, on the first bone after the root: W3D renames it (clips bind pivots by index); Alamo hides
        // it (Alamo clips bind bones by name).
        QVERIFY(w.model()->skeleton.bones.size() > 2);
        const std::string oldName = w.model()->skeleton.bones[1].name;
        const std::string newName = w3d ? "EditedBone" : oldName;
        const bool wasVisible = w.model()->skeleton.bones[1].visible;
        EditOp op;
        if (w3d) {
            op.kind = EditOp::Kind::RenameBone;
            op.name = oldName;
            op.value = newName;
        } else {
            op.kind = EditOp::Kind::SetBoneVisible;
            op.target = oldName;
            op.value = wasVisible ? "0" : "1";
        }
        QVERIFY2(w.applyEdit(QStringLiteral("rename bone"), {EditSession::FileEdit{w.currentPath(),
                                                                                   [op](Format f, SourceTree& t) {
                                                                                       return applyEdit(f, t, op, true);
                                                                                   }}}),
                 qPrintable(reported));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isLoading(), 30000);
        QVERIFY(w.model());
        QCOMPARE(w.model()->skeleton.bones[1].name, newName);
        if (!w3d) QCOMPARE(w.model()->skeleton.bones[1].visible, !wasVisible);

        QTemporaryDir out;
        if (w3d) { // under a new name: refused, nothing written; then under its own name
            reported.clear();
            QVERIFY(!w.saveAs(out.filePath(QStringLiteral("OTHER.w3d"))));
            QVERIFY2(reported.contains(QStringLiteral("save the edited model under its name")), qPrintable(reported));
            QCOMPARE(QDir(out.path()).entryList(QDir::Files).size(), 0);
        }
        const QString dest = out.filePath(w3d ? QFileInfo(o.modelPath).fileName() : QStringLiteral("EDITED.alo"));
        reported.clear();
        QVERIFY2(w.saveAs(dest), qPrintable(reported));
        QVERIFY(QFile::exists(dest));
        // The edited model as written: its bone renamed, read back with no warning.
        const std::vector<uint8_t> b = bytesOf(dest);
        if (w3d) {
            const w3d::File f = w3d::readFile(ByteSpan(b), dest.toStdString());
            QCOMPARE(f.hierarchies.size(), size_t(1));
            bool found = false;
            for (const auto& p : f.hierarchies[0].pivots)
                found |=
                    QString::fromStdString(p.name).compare(QString::fromStdString(newName), Qt::CaseInsensitive) == 0;
            QVERIFY(found);
            QCOMPARE(QDir(out.path()).entryList({QStringLiteral("*_*.w3d")}).size(), 1); // its clip
        } else {
            const Model m = alamo::readModel(ByteSpan(b), dest.toStdString());
            QVERIFY(m.warnings.empty());
            QCOMPARE(m.skeleton.bones[1].name, newName);
            QCOMPARE(m.skeleton.bones[1].visible, !wasVisible);
            // The clip written for the chosen name, beside it, read back.
            const QStringList clips = QDir(out.path()).entryList({QStringLiteral("EDITED_*_00.ALA")});
            QCOMPARE(clips.size(), 1);
            const std::vector<uint8_t> cb = bytesOf(out.filePath(clips[0]));
            const Clip c = alamo::readClip(ByteSpan(cb), clips[0].toStdString());
            QVERIFY(c.frameCount > 1);
        }
        QVERIFY(bytesOf(dest) != bytesOf(o.modelPath)); // the edit is in it
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
