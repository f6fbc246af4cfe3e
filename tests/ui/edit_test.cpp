// Editing and saving in the window (issue 39 items 3 and 4), driven by real key and mouse events where the user
// would press them: a texture renamed in the Materials panel (double-click/F2, type, Enter), Ctrl+Z / Ctrl+Shift+Z,
// Ctrl+S. Checked: the bytes after undo and redo, the view kept (camera, clip, time, selection), the "*" of the
// title and the question before edits are lost, NAME.bak on the first save only, a file from an archive saved at
// its game path in the mod folder, and failed writes that keep the original and say why.
#include "ui_fixtures.h"

#include "bone_tree_dock.h"
#include "edit_session.h"
#include "main_window.h"
#include "material_dock.h"
#include "problems_dock.h"
#include "scene_view.h"
#include "timeline_dock.h"

#include "alamo/alamo_writer.h"
#include "common/file_read.h"
#include "demo/demo_model.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>
#include <QUndoView>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <csignal>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace rs;

namespace {

const char* kOldTexture = "EDIT_OLD.DDS";

void writeFile(const QString& path, const std::vector<uint8_t>& b) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream f(path.toStdString(), std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

std::vector<uint8_t> readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return std::vector<uint8_t>(b.begin(), b.end());
}

// The demo model, every sub-mesh naming kOldTexture (the project's Alamo writer).
std::vector<uint8_t> modelBytes() {
    return alamo::writeModel(test::demoNamingTextures([](int) { return std::string(kOldTexture); }));
}

bool contains(const std::vector<uint8_t>& hay, const std::string& needle) {
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end()) != hay.end();
}

// The texture names of the shown model.
QStringList shownTextures(const ui::MainWindow& w) {
    QStringList out;
    if (!w.model()) return out;
    for (const Mesh& m : w.model()->meshes)
        for (const SubMesh& sm : m.subMeshes)
            for (const MaterialParam& p : sm.material.params)
                if (p.type == ParamType::Texture) out << QString::fromStdString(p.texture);
    return out;
}

QTreeWidgetItem* textureRow(ui::MaterialDock* d) {
    for (QTreeWidgetItemIterator it(d->tree()); *it; ++it)
        if ((*it)->text(1) == QLatin1String("texture")) return *it;
    return nullptr;
}

// Renames the first texture row's texture the way a user does: F2 on the row (or a double-click), the name
// typed over the selected one, Enter.
bool renameByKeys(ui::MainWindow& w, const QString& to, bool doubleClick = false) {
    ui::MaterialDock* d = w.materials();
    d->show();
    d->raise();
    QTreeWidgetItem* row = textureRow(d);
    if (!row) return false;
    QTreeWidget* tree = d->tree();
    tree->scrollToItem(row);
    tree->setFocus();
    const QRect r = tree->visualItemRect(row);
    const QPoint at(tree->columnViewportPosition(2) + 10, r.center().y()); // the Value column
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
    if (doubleClick) {
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);
    } else {
        QTest::keyClick(tree, Qt::Key_F2);
    }
    auto* editor = tree->findChild<QLineEdit*>(QStringLiteral("textureNameEditor"));
    if (!QTest::qWaitFor(
            [&] {
                return (editor = tree->findChild<QLineEdit*>(QStringLiteral("textureNameEditor"))) &&
                       editor->isVisible();
            },
            5000))
        return false;
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, to);
    QTest::keyClick(editor, Qt::Key_Return);
    return true;
}

std::unique_ptr<ui::MainWindow> openWindow(const QString& path, QStringList* errors) {
    auto w = std::make_unique<ui::MainWindow>();
    w->setErrorReporter([errors](const QString& t, const QString& m) { *errors << t + ": " + m; });
    w->setUnsavedPrompt([](const QStringList&) { return int(QMessageBox::Discard); });
    w->resize(1280, 800);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    w->activateWindow(); // shortcuts (Ctrl+Z, Ctrl+S, F2) go to the active window
    if (!QTest::qWaitForWindowActive(w.get())) return nullptr;
    w->openFile(path);
    if (!QTest::qWaitFor([&] { return !w->isLoading() && w->model(); }, 20000)) return nullptr;
    return w;
}

// Files in `dir` whose names start with '.' and hold ".rigscope-" (writeFileSafely's temporary files).
QStringList leftoverTemps(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral(".*.rigscope-*")}, QDir::Files | QDir::Hidden);
}

} // namespace

class EditTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    // Undo and redo give back the exact bytes of each step, and the view stays where it was.
    void undoRedoRestoresBytesAndView() {
        const QString path = dir.filePath(QStringLiteral("undo/EDITME.ALO"));
        const std::vector<uint8_t> original = modelBytes();
        writeFile(path, original);
        writeFile(dir.filePath(QStringLiteral("undo/EDITME_IDLE.ALA")), demo::demoAlaBytes());
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        QVERIFY(!w->windowTitle().startsWith(QLatin1Char('*')));
        QVERIFY(w->clip());
        // Where the user was: a clip at a frame, a bone selected, the camera moved.
        w->timeline()->pause();
        w->timeline()->setPosition(3.0f);
        w->boneTree()->selectBone(1);
        // The camera turned by a real drag in the view (Qt3D view only).
        render::SceneView* sv = w->view()->findChild<render::SceneView*>();
        auto* cam = qobject_cast<Qt3DRender::QCamera*>(w->view()->camera());
        if (sv && cam) {
            QWindow* win = sv->window();
            const QPoint mid(win->width() / 2, win->height() / 2);
            const float yaw0 = sv->orbitCamera().yaw;
            QTest::mousePress(win, Qt::LeftButton, Qt::NoModifier, mid);
            for (int i = 1; i <= 5; ++i)
                QTest::mouseMove(win, mid + QPoint(20 * i, 6 * i));
            QTest::mouseRelease(win, Qt::LeftButton, Qt::NoModifier, mid + QPoint(100, 30));
            QTRY_VERIFY(std::abs(sv->orbitCamera().yaw - yaw0) > 10.0f);
        }
        const QVector3D camAt = cam ? cam->position() : QVector3D();
        const QString clipShown = w->timeline()->clipCombo()->currentText();

        QVERIFY(renameByKeys(*w, QStringLiteral("EDIT_NEW.DDS")));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const std::vector<uint8_t> edited = w->edits()->bytes(path);
        QVERIFY(edited != original);
        QVERIFY(contains(edited, "EDIT_NEW.DDS"));
        QVERIFY(!contains(edited, kOldTexture));
        QCOMPARE(edited.size(), original.size()); // same-length name: only the name bytes differ
        // Shown at once, where the user was.
        QVERIFY(!shownTextures(*w).isEmpty());
        for (const QString& t : shownTextures(*w))
            QCOMPARE(t, QStringLiteral("EDIT_NEW.DDS"));
        QVERIFY(w->windowTitle().startsWith(QLatin1Char('*')));
        QCOMPARE(w->timeline()->clipCombo()->currentText(), clipShown);
        QCOMPARE(w->timeline()->position(), 3.0f);
        QCOMPARE(w->boneTree()->selectedBone(), 1);
        if (cam) QCOMPARE(cam->position(), camAt);
        QCOMPARE(w->materials()->tree()->currentItem()->text(1), QStringLiteral("texture")); // the row stays current
        // The history lists the step.
        QCOMPARE(w->edits()->undoStack()->count(), 1);
        QVERIFY(w->edits()->undoStack()->text(0).contains(QStringLiteral("EDIT_NEW.DDS")));
        // The file on disk is untouched until saved.
        QCOMPARE(readAll(path), original);

        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!w->edits()->isModified(), 5000);
        QCOMPARE(w->edits()->bytes(path), original);
        for (const QString& t : shownTextures(*w))
            QCOMPARE(t, QString::fromLatin1(kOldTexture));
        QVERIFY(!w->windowTitle().startsWith(QLatin1Char('*')));
        QCOMPARE(w->timeline()->position(), 3.0f);
        QCOMPARE(w->boneTree()->selectedBone(), 1);

        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QCOMPARE(w->edits()->bytes(path), edited);
        for (const QString& t : shownTextures(*w))
            QCOMPARE(t, QStringLiteral("EDIT_NEW.DDS"));
        if (cam) QCOMPARE(cam->position(), camAt);
        QVERIFY(errors.isEmpty());
    }

    // "*" while unsaved; opening another file or closing asks, and Cancel keeps everything.
    void unsavedMarkerAndQuestion() {
        const QString path = dir.filePath(QStringLiteral("ask/ASKME.ALO"));
        const QString other = dir.filePath(QStringLiteral("ask/OTHER.ALO"));
        writeFile(path, modelBytes());
        writeFile(other, modelBytes());
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        QVERIFY(renameByKeys(*w, QStringLiteral("ASK_TEX.DDS"), /*doubleClick=*/true));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("*ASKME.ALO")));
        QStringList asked;
        int answer = QMessageBox::Cancel;
        w->setUnsavedPrompt([&](const QStringList& files) {
            asked = files;
            return answer;
        });
        w->openFile(other);
        QCOMPARE(asked, QStringList{path});
        QVERIFY(!w->isLoading());
        QCOMPARE(w->currentPath(), path);
        QVERIFY(w->edits()->isModified());
        // Closing asks too; Cancel keeps the window open.
        asked.clear();
        QVERIFY(!w->close());
        QCOMPARE(asked, QStringList{path});
        QVERIFY(w->isVisible());
        // Discard: the other file opens, nothing was written.
        answer = QMessageBox::Discard;
        w->openFile(other);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->currentPath() == other, 20000);
        QVERIFY(!w->windowTitle().startsWith(QLatin1Char('*')));
        QCOMPARE(readAll(path), modelBytes());
        QVERIFY(errors.isEmpty());
    }

    // Ctrl+S writes the edited bytes; the first save keeps NAME.bak with what was there, a later one leaves it; the
    // mod check runs on the saved file. With the setting off, no .bak.
    void saveKeepsBakOnFirstSaveOnly() {
        const QString path = dir.filePath(QStringLiteral("bak/SAVEME.ALO"));
        const std::vector<uint8_t> original = modelBytes();
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        QVERIFY(renameByKeys(*w, QStringLiteral("FIRST_1.DDS")));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        const std::vector<uint8_t> first = w->edits()->bytes(path);
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(readAll(path), first);
        QCOMPARE(readAll(path + QStringLiteral(".bak")), original);
        QVERIFY(!w->windowTitle().startsWith(QLatin1Char('*')));
        QVERIFY(!w->edits()->isModified());
        QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("SAVEME.ALO.bak")));
        QVERIFY(leftoverTemps(QFileInfo(path).absolutePath()).isEmpty());
        // The mod check ran on the saved file.
        QTRY_VERIFY_WITH_TIMEOUT(!w->problemsDock()->running() && w->problemsDock()->report().files >= 1, 20000);
        // A second save in the session: the .bak keeps the file as it was before the first.
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY(renameByKeys(*w, QStringLiteral("SECOND.DDS")));
        QTRY_VERIFY2_WITH_TIMEOUT(w->edits()->isModified(),
                                  qPrintable(errors.join('\n') + w->statusBar()->currentMessage()), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const std::vector<uint8_t> second = w->edits()->bytes(path);
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(readAll(path), second);
        QCOMPARE(readAll(path + QStringLiteral(".bak")), original);
        QVERIFY(errors.isEmpty());

        // The Preferences setting off: no .bak.
        const QString plain = dir.filePath(QStringLiteral("bak/NOBAK.ALO"));
        writeFile(plain, original);
        w->edits()->setKeepBackups(false);
        w->openFile(plain);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->currentPath() == plain, 20000);
        QVERIFY(renameByKeys(*w, QStringLiteral("PLAIN_1.DDS")));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(readAll(plain), w->edits()->bytes(plain));
        QVERIFY(!QFileInfo::exists(plain + QStringLiteral(".bak")));
        QVERIFY(errors.isEmpty());
    }

    // A model opened from inside a .meg is saved as a loose file at its game path in the mounted mod folder; the
    // archive is never written.
    void saveFromArchiveLandsAtGamePathInModFolder() {
        const QString root = dir.filePath(QStringLiteral("arch"));
        const QString mod = root + QStringLiteral("/MyMod");
        QDir().mkpath(mod + QStringLiteral("/Data/Art")); // the mod's own case: Data/Art exists, Models does not
        const QString meg = root + QStringLiteral("/Models.meg");
        const std::vector<uint8_t> original = modelBytes();
        const std::vector<uint8_t> archive = vfs::writeMeg(1, {{"DATA\\ART\\MODELS\\ARCHMODEL.ALO", original}});
        writeFile(meg, archive);
        QStringList errors;
        auto w = std::make_unique<ui::MainWindow>();
        w->setErrorReporter([&](const QString& t, const QString& m) { errors << t + ": " + m; });
        w->setUnsavedPrompt([](const QStringList&) { return int(QMessageBox::Discard); });
        w->resize(1280, 800);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        w->setMount(std::make_shared<vfs::MountTable>(vfs::mountInstall({}, {QFile::encodeName(mod).toStdString()})));
        const QString entry = meg + QStringLiteral(":DATA/ART/MODELS/ARCHMODEL.ALO");
        w->openFile(entry);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->model(), 20000);
        const QString expected = mod + QStringLiteral("/Data/Art/MODELS/ARCHMODEL.ALO");
        QCOMPARE(w->edits()->saveTarget(w->edits()->documentPath().isEmpty() ? entry : w->edits()->documentPath()),
                 expected);
        QVERIFY(renameByKeys(*w, QStringLiteral("ARCH_NEW.DDS")));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        const std::vector<uint8_t> edited = w->edits()->bytes(w->edits()->documentPath());
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(readAll(expected), edited);
        QCOMPARE(readAll(meg), archive);                                // never written into the archive
        QVERIFY(!QFileInfo::exists(expected + QStringLiteral(".bak"))); // nothing was there to keep
        QVERIFY2(w->statusBar()->currentMessage().contains(QDir::toNativeSeparators(expected)),
                 qPrintable(w->statusBar()->currentMessage()));
        QCOMPARE(w->currentPath(), expected); // the document is the loose file from now on
        QVERIFY(!w->windowTitle().startsWith(QLatin1Char('*')));
    }

    // Failed writes keep the original and say why. Tests run as root here, where a chmod 0555 folder does not stop
    // writes, so the failures are made real other ways: (1) the file size limit (RLIMIT_FSIZE, what a full disk
    // does to write(2): it fails part way, here with EFBIG), (2) a mod folder whose game path needs a folder where a
    // file stands, (3) the file changed on disk by someone else since it was read. As a normal user a read-only
    // folder is tried too.
    void failedWriteKeepsOriginalAndSaysWhy() {
        const QString path = dir.filePath(QStringLiteral("fail/FAILME.ALO"));
        const std::vector<uint8_t> original = modelBytes();
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        w->edits()->setKeepBackups(false);
        QVERIFY(renameByKeys(*w, QStringLiteral("FAIL_NEW.DDS")));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);

        // (1) No room: writes past 200 bytes fail (SIGXFSZ ignored so write(2) returns EFBIG).
        {
            struct rlimit old;
            QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
            const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
            struct rlimit small = old;
            small.rlim_cur = 200;
            QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
            QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
            setrlimit(RLIMIT_FSIZE, &old);
            std::signal(SIGXFSZ, oldHandler);
        }
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].contains(QStringLiteral("FAILME.ALO was not saved")) &&
                     errors[0].contains(QStringLiteral("File too large")),
                 qPrintable(errors[0]));
        QCOMPARE(readAll(path), original);
        QVERIFY(leftoverTemps(QFileInfo(path).absolutePath()).isEmpty());
        QVERIFY(w->edits()->isModified()); // the edits are kept
        QVERIFY(w->windowTitle().startsWith(QLatin1Char('*')));

        // (3) Changed on disk since it was read: refused, the other change kept.
        std::vector<uint8_t> theirs = original;
        theirs.push_back(0);
        writeFile(path, theirs);
        errors.clear();
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].contains(QStringLiteral("changed on disk")), qPrintable(errors[0]));
        QCOMPARE(readAll(path), theirs);
        QVERIFY(w->edits()->isModified());

        // A read-only folder, where permissions hold (not for root).
        if (geteuid() != 0) {
            const QString ro = dir.filePath(QStringLiteral("ro/ROFILE.ALO"));
            writeFile(ro, original);
            w->openFile(ro); // the prompt discards the edits above
            QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->currentPath() == ro, 20000);
            QVERIFY(renameByKeys(*w, QStringLiteral("RO_NEW_1.DDS")));
            QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
            QFile::setPermissions(QFileInfo(ro).absolutePath(), QFile::ReadOwner | QFile::ExeOwner);
            errors.clear();
            QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
            QFile::setPermissions(QFileInfo(ro).absolutePath(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            QCOMPARE(errors.size(), 1);
            QVERIFY2(errors[0].contains(QStringLiteral("Permission denied")), qPrintable(errors[0]));
            QCOMPARE(readAll(ro), original);
        }
    }

    // (2) An archive's model whose game path in the mod folder is blocked by a file where a folder must go.
    void archiveSaveBlockedByAFileKeepsEverything() {
        const QString root = dir.filePath(QStringLiteral("blocked"));
        const QString mod = root + QStringLiteral("/Mod");
        QDir().mkpath(mod + QStringLiteral("/Data"));
        writeFile(mod + QStringLiteral("/Data/ART"), {'n', 'o', 't', ' ', 'a', ' ', 'f', 'o', 'l', 'd', 'e', 'r'});
        const QString meg = root + QStringLiteral("/Models.meg");
        const std::vector<uint8_t> archive = vfs::writeMeg(1, {{"DATA\\ART\\MODELS\\BLOCKED.ALO", modelBytes()}});
        writeFile(meg, archive);
        QStringList errors;
        auto w = std::make_unique<ui::MainWindow>();
        w->setErrorReporter([&](const QString& t, const QString& m) { errors << t + ": " + m; });
        w->setUnsavedPrompt([](const QStringList&) { return int(QMessageBox::Discard); });
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        w->setMount(std::make_shared<vfs::MountTable>(vfs::mountInstall({}, {QFile::encodeName(mod).toStdString()})));
        w->openFile(meg + QStringLiteral(":DATA/ART/MODELS/BLOCKED.ALO"));
        QTRY_VERIFY_WITH_TIMEOUT(!w->isLoading() && w->model(), 20000);
        QVERIFY(renameByKeys(*w, QStringLiteral("BLOCK_2.DDS")));
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].contains(QStringLiteral("a file, not a folder")) &&
                     errors[0].contains(QStringLiteral("ART")),
                 qPrintable(errors[0]));
        QCOMPARE(readAll(mod + QStringLiteral("/Data/ART")).size(), size_t(12));
        QCOMPARE(readAll(meg), archive);
        QVERIFY(w->edits()->isModified());
    }

    // A colour parameter through the colour picker (double-click), a number typed after F2; undo back to the bytes
    // as read.
    void parameterAndColourEdits() {
        const QString path = dir.filePath(QStringLiteral("param/PARAMS.ALO"));
        const std::vector<uint8_t> original = modelBytes();
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        ui::MaterialDock* d = w->materials();
        QTreeWidget* tree = d->tree();
        auto rowNamed = [&](const QString& name) -> QTreeWidgetItem* {
            for (QTreeWidgetItemIterator it(tree); *it; ++it)
                if ((*it)->text(0) == name && (*it)->parent() && (*it)->parent()->parent() == tree->topLevelItem(0))
                    return *it;
            return nullptr;
        };
        auto paramOf = [&](const char* name) -> const MaterialParam* {
            for (const MaterialParam& p : w->model()->meshes[0].subMeshes[0].material.params)
                if (p.name == name) return &p;
            return nullptr;
        };
        QVERIFY(paramOf("Diffuse"));
        // Diffuse: the picker (answered here instead of QColorDialog) gives pure red.
        QColor offered;
        d->setColourPicker([&](const QColor& start, bool) {
            offered = start;
            return QColor::fromRgbF(1, 0, 0, 1);
        });
        QTreeWidgetItem* diffuse = rowNamed(QStringLiteral("Diffuse"));
        QVERIFY(diffuse);
        tree->scrollToItem(diffuse);
        const QPoint at(tree->columnViewportPosition(2) + 10, tree->visualItemRect(diffuse).center().y());
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY(offered.isValid());
        QCOMPARE(paramOf("Diffuse")->value, glm::vec4(1, 0, 0, 1));
        const std::vector<uint8_t> afterColour = w->edits()->bytes(path);
        QCOMPARE(afterColour.size(), original.size());

        // A Float parameter: F2, the number typed, Enter.
        QTreeWidgetItem* number = nullptr;
        const MaterialParam* floatParam = nullptr;
        for (const MaterialParam& p : w->model()->meshes[0].subMeshes[0].material.params)
            if (p.type == ParamType::Float) {
                floatParam = &p;
                number = rowNamed(QString::fromStdString(p.name));
                break;
            }
        QVERIFY(number && floatParam);
        const std::string floatName = floatParam->name;
        tree->setFocus();
        tree->scrollToItem(number);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {},
                          QPoint(tree->columnViewportPosition(2) + 10, tree->visualItemRect(number).center().y()));
        QTest::keyClick(tree, Qt::Key_F2);
        QLineEdit* editor = nullptr;
        QTRY_VERIFY((editor = tree->findChild<QLineEdit*>(QStringLiteral("parameterEditor"))) && editor->isVisible());
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, QStringLiteral("0.25"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->undoStack()->count() == 2, 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(paramOf(floatName.c_str())->value.x, 0.25f);
        QCOMPARE(paramOf("Diffuse")->value, glm::vec4(1, 0, 0, 1));

        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), afterColour, 5000);
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), original, 5000);
        QVERIFY(!w->edits()->isModified());
        QVERIFY(paramOf("Diffuse")->value != glm::vec4(1, 0, 0, 1));
    }

  private:
    QTemporaryDir dir;
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("edit_ui_tests"));
    EditTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "edit_test.moc"
