// The Bones panel's edits in the window (issue 39 item 3; ui/edit_panels.h): a bone renamed in place (F2, typed,
// Enter) and carried into the clip beside the model and the object XML that names it, listed before they are saved
// together; a bone's default visibility and billboard mode; the objects at bones: a mesh's hidden and collision
// flags, a proxy's target and hidden flag, a light's colour and intensity, a dazzle's colour and rate. Each is
// checked as the user sees it (the rows, the model shown, the clip playing), in the bytes (the edited node changed,
// every byte outside it and its ancestors' size fields unchanged), through undo and redo, and on disk after a save.
#include "ui_fixtures.h"

#include "bone_tree_dock.h"
#include "edit_session.h"
#include "main_window.h"
#include "notice_bar.h"
#include "timeline_dock.h"

#include "alamo/alamo_writer.h"
#include "common/bytes.h"
#include "demo/demo_model.h"
#include "vfs/mount.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <fstream>
#include <memory>

using namespace rs;

namespace {

void writeFile(const QString& path, const std::vector<uint8_t>& b) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream f(path.toStdString(), std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

void writeText(const QString& path, const std::string& s) { writeFile(path, std::vector<uint8_t>(s.begin(), s.end())); }

std::vector<uint8_t> readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return std::vector<uint8_t>(b.begin(), b.end());
}

uint32_t u32At(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}

// The size fields of the Alamo chunks that enclose the node at `node` (not the node itself), outermost first.
std::vector<size_t> enclosingSizeFields(const std::vector<uint8_t>& b, size_t node) {
    std::vector<size_t> out;
    size_t at = 0, end = b.size();
    while (at + 8 <= end) {
        const uint32_t raw = u32At(b, at + 4), size = raw & 0x7FFFFFFFu;
        const size_t payload = at + 8, next = payload + size;
        if (node >= payload && node < next && next <= end) {
            out.push_back(at + 4);
            if (!(raw & 0x80000000u)) break; // a data chunk: the node is one of its mini-chunks
            at = payload;
            end = next;
            continue;
        }
        at = next;
    }
    return out;
}

// Checks that `edited` is `original` with one node changed: the Alamo chunk (or mini-chunk, `mini`) at `node`
// (its offset in `original`), its payload replaced; every byte before it equal except its ancestors' size fields
// (each grown by exactly the payload's growth) and its own size field; every byte after it equal, shifted. Empty
// when so, else what differs.
QString onlyNodeChanged(const std::vector<uint8_t>& original, const std::vector<uint8_t>& edited, size_t node,
                        bool mini) {
    const size_t header = mini ? 2 : 8;
    if (node + header > original.size() || node + header > edited.size()) return QStringLiteral("node out of range");
    const size_t oldSize = mini ? original[node + 1] : (u32At(original, node + 4) & 0x7FFFFFFFu);
    const size_t newSize = mini ? edited[node + 1] : (u32At(edited, node + 4) & 0x7FFFFFFFu);
    const long long delta = (long long)newSize - (long long)oldSize;
    if ((long long)edited.size() - (long long)original.size() != delta)
        return QStringLiteral("file grew by %1, the node by %2").arg(edited.size() - original.size()).arg(delta);
    if (original[node] != edited[node] || (!mini && u32At(original, node) != u32At(edited, node)))
        return QStringLiteral("the node's type changed");
    const std::vector<size_t> fields = enclosingSizeFields(original, node);
    for (size_t f : fields) {
        const long long o = u32At(original, f) & 0x7FFFFFFFu, n = u32At(edited, f) & 0x7FFFFFFFu;
        if (n - o != delta || (u32At(original, f) & 0x80000000u) != (u32At(edited, f) & 0x80000000u))
            return QStringLiteral("the ancestor size at %1 went %2 -> %3").arg(f).arg(o).arg(n);
    }
    for (size_t i = 0; i < node + header; ++i) {
        if (original[i] == edited[i]) continue;
        bool inField = (mini && i == node + 1) || (!mini && i >= node + 4);
        for (size_t f : fields)
            inField = inField || (i >= f && i < f + 4);
        if (!inField) return QStringLiteral("byte %1 before the node differs").arg(i);
    }
    for (size_t i = node + header + oldSize; i < original.size(); ++i)
        if (original[i] != edited[size_t((long long)i + delta)])
            return QStringLiteral("byte %1 after the node differs").arg(i);
    if (std::equal(original.begin() + long(node + header), original.begin() + long(node + header + oldSize),
                   edited.begin() + long(node + header), edited.begin() + long(node + header + newSize)) &&
        oldSize == newSize)
        return QStringLiteral("the node did not change");
    return QString();
}

std::unique_ptr<ui::MainWindow> newWindow(QStringList* errors) {
    auto w = std::make_unique<ui::MainWindow>();
    w->setErrorReporter([errors](const QString& t, const QString& m) { *errors << t + ": " + m; });
    w->setUnsavedPrompt([](const QStringList&) { return int(QMessageBox::Discard); });
    w->resize(1280, 800);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    w->activateWindow();
    if (!QTest::qWaitForWindowActive(w.get())) return nullptr;
    return w;
}

bool open(ui::MainWindow& w, const QString& path) {
    w.openFile(path);
    return QTest::qWaitFor([&] { return !w.isLoading() && w.model() && w.currentPath() == path; }, 20000);
}

// The Bones panel's row of the object `name` hung at a bone (an attachment row).
QTreeWidgetItem* objectRow(ui::BoneTreeDock* d, const QString& name) {
    for (QTreeWidgetItemIterator it(d->tree()); *it; ++it)
        if ((*it)->text(0) == name && (*it)->parent() && (*it)->childCount() == 0) return *it;
    return nullptr;
}

// Triggers the action `name` of the row's edit menu (what right-click shows).
bool trigger(ui::BoneTreeDock* d, QTreeWidgetItem* row, const QString& name) {
    if (!row) return false;
    std::unique_ptr<QMenu> menu(d->editMenu(row));
    if (!menu) return false;
    QAction* a = menu->findChild<QAction*>(name);
    if (!a) return false;
    a->trigger();
    return true;
}

// The one change the last edit made in `file`: its offset and whether it is a mini-chunk (-1 when not one).
std::pair<long long, bool> lastChange(ui::EditSession* s, const QString& file) {
    for (const auto& [f, changes] : s->lastChanges())
        if (f == file && changes.size() == 1)
            return {(long long)changes[0].offset, changes[0].path.find("mini") != std::string::npos};
    return {-1, false};
}

// A colour through QColor (16 bits a channel).
bool near(const glm::vec3& a, const glm::vec3& b) { return glm::all(glm::lessThan(glm::abs(a - b), glm::vec3(1e-4f))); }

const char* kUnits = "<?xml version=\"1.0\"?>\n<Units>\n"
                     "\t<SpaceUnit Name=\"Edited\">\n\t\t<Space_Model_Name>EDITME.ALO</Space_Model_Name>\n"
                     "\t\t<Attachment_Bone>Turret</Attachment_Bone>\n\t</SpaceUnit>\n</Units>\n";

} // namespace

class EditPanelsTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    // F2 on a bone, a new name typed: the model, the clip beside it and the object XML change as one step; the
    // panel and the playing clip follow; undo/redo; Ctrl+S lists the other two files, Cancel writes nothing, Save
    // writes all three.
    void boneRenameCarriedIntoClipAndXml() {
        const QString mod = dir.filePath(QStringLiteral("rename/Mod"));
        const QString models = mod + QStringLiteral("/Data/Art/Models");
        const QString path = models + QStringLiteral("/EDITME.ALO"),
                      clipPath = models + QStringLiteral("/EDITME_IDLE_00.ALA");
        const QString xml = mod + QStringLiteral("/Data/XML/UNITS.XML");
        const std::vector<uint8_t> model = alamo::writeModel(demo::demoModelSource());
        const std::vector<uint8_t> clip = demo::demoAlaBytes();
        writeFile(path, model);
        writeFile(clipPath, clip);
        writeText(mod + QStringLiteral("/Data/XML/GAMEOBJECTFILES.XML"),
                  "<?xml version=\"1.0\"?>\n<Game_Object_Files>\n\t<File>UNITS.XML</File>\n</Game_Object_Files>\n");
        writeText(xml, kUnits);
        QStringList errors;
        auto w = newWindow(&errors);
        QVERIFY(w);
        w->setMount(std::make_shared<vfs::MountTable>(vfs::mountInstall({}, {QFile::encodeName(mod).toStdString()})));
        QVERIFY(open(*w, path));
        QVERIFY(w->clip());
        w->timeline()->pause();
        w->timeline()->setPosition(4.0f);
        const int turret = w->model()->skeleton.find("Turret");
        QVERIFY(turret >= 0);

        ui::BoneTreeDock* bones = w->boneTree();
        bones->show();
        bones->raise();
        bones->selectBone(turret);
        bones->tree()->setFocus();
        QTest::keyClick(bones->tree(), Qt::Key_F2);
        QLineEdit* editor = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] { return (editor = bones->tree()->findChild<QLineEdit*>()) && editor->isVisible(); }, 5000));
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, QStringLiteral("Gun_Turret"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));

        // One step, three files.
        QCOMPARE(w->edits()->undoStack()->count(), 1);
        QStringList modified = w->edits()->modifiedFiles();
        QCOMPARE(modified.size(), 3);
        QCOMPARE(modified[0], path);
        // Shown at once: the panel's row, the model, and the clip still moving the renamed bone.
        QCOMPARE(w->model()->skeleton.bones[size_t(turret)].name, std::string("Gun_Turret"));
        QCOMPARE(bones->itemForBone(turret)->text(0), QStringLiteral("Gun_Turret"));
        QCOMPARE(bones->selectedBone(), turret);
        QVERIFY(w->clip());
        bool named = false;
        for (const BoneTrack& t : w->clip()->tracks)
            named = named || t.boneName == "Gun_Turret";
        QVERIFY(named);
        QCOMPARE(w->timeline()->position(), 4.0f);
        QVERIFY(ui::matchTracks(w->model()->skeleton, *w->clip()).fits());
        QVERIFY2(w->notices()->noticeText(QStringLiteral("clip")).isEmpty(),
                 qPrintable(w->notices()->noticeText(QStringLiteral("clip")))); // no "clip is not made for" notice
        // The bytes: the model's and the clip's name chunk only; the XML's one line.
        const std::vector<uint8_t> editedModel = w->edits()->bytes(path);
        auto [at, mini] = lastChange(w->edits(), path);
        QVERIFY(at >= 0);
        QString why = onlyNodeChanged(model, editedModel, size_t(at), mini);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QString clipKey;
        for (const QString& f : modified)
            if (f.endsWith(QStringLiteral(".ALA"))) clipKey = f;
        QVERIFY(!clipKey.isEmpty());
        const std::vector<uint8_t> editedClip = w->edits()->bytes(clipKey);
        std::tie(at, mini) = lastChange(w->edits(), clipKey);
        QVERIFY(at >= 0);
        why = onlyNodeChanged(clip, editedClip, size_t(at), mini);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QString xmlKey;
        for (const QString& f : modified)
            if (f.endsWith(QStringLiteral("UNITS.XML"), Qt::CaseInsensitive)) xmlKey = f;
        QVERIFY(!xmlKey.isEmpty());
        std::string want = kUnits;
        want.replace(want.find(">Turret<") + 1, 6, "Gun_Turret");
        const std::vector<uint8_t> editedXml = w->edits()->bytes(xmlKey);
        QCOMPARE(std::string(editedXml.begin(), editedXml.end()), want);

        // Undo: all three as read, the panel and the clip back; redo: the same bytes again.
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!w->edits()->isModified(), 5000);
        QCOMPARE(w->edits()->bytes(path), model);
        QCOMPARE(w->edits()->bytes(clipKey), clip);
        QCOMPARE(w->edits()->bytes(xmlKey), std::vector<uint8_t>(kUnits, kUnits + std::strlen(kUnits)));
        QCOMPARE(bones->itemForBone(turret)->text(0), QStringLiteral("Turret"));
        QVERIFY(ui::matchTracks(w->model()->skeleton, *w->clip()).fits());
        QVERIFY(w->notices()->noticeText(QStringLiteral("clip")).isEmpty());
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->modifiedFiles().size() == 3, 5000);
        QCOMPARE(w->edits()->bytes(path), editedModel);
        QCOMPARE(w->edits()->bytes(clipKey), editedClip);
        QCOMPARE(bones->itemForBone(turret)->text(0), QStringLiteral("Gun_Turret"));

        // Ctrl+S lists the two other files first; Cancel writes nothing.
        QStringList listed;
        bool answer = false;
        w->edits()->setOthersPrompt([&](const QStringList& others) {
            listed = others;
            return answer;
        });
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(listed.size(), 2);
        QVERIFY(listed.contains(clipKey) && listed.contains(xmlKey));
        QCOMPARE(readAll(path), model);
        QCOMPARE(readAll(clipPath), clip);
        QVERIFY(w->windowTitle().startsWith(QLatin1Char('*')));
        // Save: all three written, each with its .bak.
        answer = true;
        listed.clear();
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(listed.size(), 2);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(readAll(path), editedModel);
        QCOMPARE(readAll(clipPath), editedClip);
        QCOMPARE(readAll(xml), editedXml);
        QCOMPARE(readAll(clipPath + QStringLiteral(".bak")), clip);
        QVERIFY(!w->edits()->isModified());
        QVERIFY(!w->windowTitle().startsWith(QLatin1Char('*')));

        // A second rename of the same bone finds the files the first one changed (by the new name).
        bones->selectBone(turret);
        QVERIFY(bones->renameBone(turret));
        QVERIFY(QTest::qWaitFor(
            [&] { return (editor = bones->tree()->findChild<QLineEdit*>()) && editor->isVisible(); }, 5000));
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, QStringLiteral("Top"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QCOMPARE(w->edits()->modifiedFiles().size(), 3);
        const std::vector<uint8_t> x2 = w->edits()->bytes(xmlKey);
        QVERIFY(std::string(x2.begin(), x2.end()).find("<Attachment_Bone>Top</Attachment_Bone>") != std::string::npos);
        QVERIFY(errors.isEmpty());
    }

    // Bone visibility and billboard mode, mesh flags, proxy, light and dazzle values from the rows' menus.
    void objectValuesFromTheBonesPanel() {
        const QString path = dir.filePath(QStringLiteral("values/VALUES.ALO"));
        const std::vector<uint8_t> original = alamo::writeModel(demo::demoModelSource());
        writeFile(path, original);
        QStringList errors;
        auto w = newWindow(&errors);
        QVERIFY(w);
        QVERIFY(open(*w, path));
        ui::BoneTreeDock* bones = w->boneTree();
        bones->setValuePrompt([](const QString& what, const QString&) {
            if (what.contains(QStringLiteral("intensity"))) return QStringLiteral("2.5");
            if (what.contains(QStringLiteral("rate"))) return QStringLiteral("3");
            return QStringLiteral("p_fire");
        });
        bones->setColourPicker([](const QColor&) { return QColor::fromRgbF(1.0f, 0.5f, 0.0f); });

        // Each edit: one node changed in the bytes, the model shown with the new value, undo gives back the bytes
        // before it and the value, redo the bytes after it.
        std::vector<uint8_t> before = original;
        int steps = 0;
        auto step = [&](QTreeWidgetItem* row, const char* action, const std::function<bool(const Model&)>& changed) {
            QVERIFY2(row, action);
            QVERIFY2(!changed(*w->model()), action);
            QVERIFY2(trigger(bones, row, QLatin1String(action)), action);
            ++steps;
            QTRY_COMPARE_WITH_TIMEOUT(w->edits()->undoStack()->count(), steps, 5000);
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
            QVERIFY2(changed(*w->model()), action);
            const std::vector<uint8_t> after = w->edits()->bytes(path);
            const auto [at, mini] = lastChange(w->edits(), path);
            QVERIFY2(at >= 0, action);
            const QString why = onlyNodeChanged(before, after, size_t(at), mini);
            QVERIFY2(why.isEmpty(), qPrintable(QLatin1String(action) + QStringLiteral(": ") + why));
            QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
            QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), before, 5000);
            QVERIFY2(!changed(*w->model()), action);
            QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
            QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), after, 5000);
            QVERIFY2(changed(*w->model()), action);
            before = after;
        };
        const int lamp = w->model()->skeleton.find("Lamp");
        QVERIFY(lamp >= 0);
        step(bones->itemForBone(lamp), "boneVisible",
             [lamp](const Model& m) { return !m.skeleton.bones[size_t(lamp)].visible; });
        // What the panel shows: the bone greyed as hidden in the bind pose.
        QVERIFY(bones->itemForBone(lamp)->toolTip(0).contains(QStringLiteral("hidden")));
        step(bones->itemForBone(lamp), "billboard2",
             [lamp](const Model& m) { return m.skeleton.bones[size_t(lamp)].billboard == 2; });
        const std::string meshName = w->model()->meshes.at(0).name;
        auto mesh = [meshName](const Model& m) -> const Mesh& {
            for (const Mesh& x : m.meshes)
                if (x.name == meshName) return x;
            return m.meshes.at(0);
        };
        const QString meshRow = QString::fromStdString(meshName);
        step(objectRow(bones, meshRow), "meshHidden", [&](const Model& m) { return mesh(m).hidden; });
        step(objectRow(bones, meshRow), "meshCollision", [&](const Model& m) { return mesh(m).collisionEnabled; });
        QVERIFY(!w->model()->proxies.empty());
        const QString proxy = QString::fromStdString(w->model()->proxies[0].name);
        step(objectRow(bones, proxy), "proxyHidden", [](const Model& m) { return m.proxies.at(0).hidden; });
        step(objectRow(bones, proxy), "proxyTarget", [](const Model& m) { return m.proxies.at(0).name == "p_fire"; });
        QVERIFY(!w->model()->lights.empty());
        const QString light = QString::fromStdString(w->model()->lights[0].name);
        step(objectRow(bones, light), "lightColour",
             [](const Model& m) { return near(m.lights.at(0).color, glm::vec3(1.0f, 0.5f, 0.0f)); });
        step(objectRow(bones, light), "lightIntensity",
             [](const Model& m) { return m.lights.at(0).intensity == 2.5f; });
        QVERIFY(w->model()->dazzles.size() >= 2);
        const QString dazzle = QString::fromStdString(w->model()->dazzles[1].name);
        step(objectRow(bones, dazzle), "dazzleColour",
             [](const Model& m) { return near(m.dazzles.at(1).color, glm::vec3(1.0f, 0.5f, 0.0f)); });
        step(objectRow(bones, dazzle), "dazzleRate", [](const Model& m) { return m.dazzles.at(1).frequency == 3.0f; });
        QCOMPARE(w->model()->dazzles.at(0).frequency, demo::demoModelSource().dazzles.at(0).frequency);

        // Saved: the file holds every edit.
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(readAll(path), before);
        QCOMPARE(readAll(path + QStringLiteral(".bak")), original);
    }

    // The timeline's Edit menu on a clip beside the model: its frame rate, a trim to frames 5..20 (the slider and
    // the pose follow), undo/redo, the save; a rename of an Alamo clip is refused with the reason.
    void clipRateAndTrimFromTheTimeline() {
        const QString path = dir.filePath(QStringLiteral("clips/CLIPPED.ALO"));
        const QString clipPath = dir.filePath(QStringLiteral("clips/CLIPPED_IDLE_00.ALA"));
        writeFile(path, alamo::writeModel(demo::demoModelSource()));
        const std::vector<uint8_t> clip = demo::demoAlaBytes();
        writeFile(clipPath, clip);
        QStringList errors;
        auto w = newWindow(&errors);
        QVERIFY(w);
        QVERIFY(open(*w, path));
        QVERIFY(w->clip());
        QCOMPARE(w->clipFile(), clipPath);
        const std::shared_ptr<const Clip> before = w->clip();
        QCOMPARE(before->frameCount, 31u);
        ui::TimelineDock* tl = w->timeline();
        tl->pause();
        QString answer;
        tl->setValuePrompt([&](const QString&, const QString&) { return answer; });
        auto trigger = [&](const char* name) {
            QAction* a = tl->clipEditMenu()->findChild<QAction*>(QLatin1String(name));
            QVERIFY(a);
            QVERIFY(a->isEnabled());
            a->trigger();
        };

        // Frame rate: one mini-chunk; the clip shown plays at the new rate.
        answer = QStringLiteral("24");
        trigger("clipRate");
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(clipPath), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(w->clip()->fps, 24.0f);
        const std::vector<uint8_t> rated = w->edits()->bytes(clipPath);
        auto [at, mini] = lastChange(w->edits(), clipPath);
        QVERIFY(at >= 0 && mini);
        QString why = onlyNodeChanged(clip, rated, size_t(at), mini);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(!w->edits()->isModified(path)); // the model is not touched

        // Trim to frames 5..20: the timeline shows 16 frames, and frame f shows what frame 5 + f showed.
        tl->setPosition(12.0f);
        answer = QStringLiteral("5..20");
        trigger("clipTrim");
        QTRY_COMPARE_WITH_TIMEOUT(w->clip()->frameCount, 16u, 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(tl->slider()->maximum(), 15);
        QCOMPARE(tl->position(), 12.0f);
        QCOMPARE(w->clip()->fps, 24.0f);
        for (size_t t = 0; t < before->tracks.size(); ++t) {
            const BoneTrack &a = before->tracks[t], &b = w->clip()->tracks[t];
            if (a.rotation.size() > 1)
                for (uint32_t f = 0; f < 16; ++f)
                    QCOMPARE(b.rotation[f], a.rotation[5 + f]);
            if (a.visibility.size() > 1)
                for (uint32_t f = 0; f < 16; ++f)
                    QCOMPARE(b.visibility[f], a.visibility[5 + f]);
        }
        const std::vector<uint8_t> trimmed = w->edits()->bytes(clipPath);
        QVERIFY(trimmed.size() < rated.size());
        QCOMPARE(w->edits()->undoStack()->count(), 2);

        // Undo twice: the bytes as read, 31 frames at 15 fps; redo twice: the trimmed bytes again.
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(clipPath), rated, 5000);
        QCOMPARE(w->clip()->frameCount, 31u);
        QCOMPARE(tl->slider()->maximum(), 30);
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(clipPath), clip, 5000);
        QCOMPARE(w->clip()->fps, before->fps);
        QVERIFY(!w->edits()->isModified());
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(clipPath), trimmed, 5000);
        QCOMPARE(w->clip()->frameCount, 16u);

        // An Alamo clip has no name inside: refused, nothing changed.
        answer = QStringLiteral("OTHER");
        trigger("clipRename");
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].contains(QStringLiteral("file name")), qPrintable(errors[0]));
        QCOMPARE(w->edits()->bytes(clipPath), trimmed);
        errors.clear();

        // Saved: the clip file holds the trim (the model has no edit, so only the clip is written).
        w->edits()->setOthersPrompt([](const QStringList&) { return true; });
        QVERIFY(w->saveAll());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(readAll(clipPath), trimmed);
        QCOMPARE(readAll(clipPath + QStringLiteral(".bak")), clip);
    }

  private:
    QTemporaryDir dir;
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("edit_panels_ui_tests"));
    EditPanelsTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "edit_panels_test.moc"
