// The Materials panel's W3D and B&W2 edits (issue 39 item 3), driven by the mouse and keys as a user would: a W3D
// vertex material's Diffuse through the colour picker (double-click), a shader field through its choices (F2, a
// choice, Enter), a texture entry typed in (F2), a B&W2 material's texture slot. Checked: what the reader reads back
// from the edited bytes, the pixels the view draws (the colour edit), Ctrl+Z / Ctrl+Shift+Z giving back the exact
// bytes of each step, and Ctrl+S writing the edited bytes; and that an edit updates the panel's rows in place.
#include "bone_tree_dock.h"
#include "edit_session.h"
#include "main_window.h"
#include "material_dock.h"
#include "model_view.h"

#include "bw2/bw2_writer.h"
#include "bw2/bwm.h"
#include "bw2_fixtures.h"
#include "w3d/w3d_reader.h"
#include "w3d/w3d_writer.h"

#include <QApplication>
#include <QComboBox>
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

#include <cstring>
#include <fstream>

using namespace rs;

namespace {

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

// A lit, opaque, untextured W3D plane facing the default camera, its vertex material grey.
std::vector<uint8_t> greyPlane() {
    w3d::RawMesh m;
    m.name = "PLANE";
    m.container = "PLANE";
    const float s = 10.0f;
    m.positions = {{-s, -s, 0}, {s, -s, 0}, {s, s, 0}, {-s, s, 0}, {-s, 0, -s}, {s, 0, -s}, {s, 0, s}, {-s, 0, s}};
    m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
    m.indices = {0, 1, 2, 0, 2, 3, 0, 2, 1, 0, 3, 2, 4, 6, 5, 4, 7, 6, 4, 5, 6, 4, 6, 7}; // both faces of two planes
    m.boundsMin = {-s, -s, -s};
    m.boundsMax = {s, s, s};
    w3d::VertexMaterial vm;
    vm.name = "grey";
    vm.ambient = {128, 128, 128, 0};
    vm.diffuse = {128, 128, 128, 0};
    vm.emissive = {60, 60, 60, 0};
    vm.opacity = 1.0f;
    m.vertexMaterials = {vm};
    m.shaders = {w3d::Shader{}}; // opaque, depth tested, no texturing
    w3d::MaterialPass p;
    p.vertexMaterialIds = {0};
    p.shaderIds = {0};
    m.passes = {p};
    w3d::ChunkWriter cw;
    w3d::writeMesh(cw, m);
    return cw.take();
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
    if (!dump.isEmpty()) out.save(QStringLiteral("%1/material-%2.png").arg(dump).arg(n++));
    return out;
}

// Pixels whose red channel leads green and blue by more than 60.
int reddish(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            if (c.red() > c.green() + 60 && c.red() > c.blue() + 60) ++n;
        }
    return n;
}

// The row labelled `label` (column 0) under a row whose label starts with `group` ("" : any).
QTreeWidgetItem* row(QTreeWidget* tree, const QString& group, const QString& label) {
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if ((*it)->text(0) == label &&
            (group.isEmpty() || ((*it)->parent() && (*it)->parent()->text(0).startsWith(group))))
            return *it;
    return nullptr;
}

void clickValue(QTreeWidget* tree, QTreeWidgetItem* it, bool twice) {
    tree->scrollToItem(it);
    const QPoint at(tree->columnViewportPosition(2) + 10, tree->visualItemRect(it).center().y());
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
    if (twice) QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);
}

// An emissive-red W3D surface in two planes (XY and XZ), each of two halves wound opposite ways: from any side one
// half of each plane shows its back face. `lit`: the vertex material's emissive lights it (lighting on); else its
// only non-zero colour is the emissive that premultiplies a vertex colour array (ww3d2 draws that unlit).
std::vector<uint8_t> halvesPlane(bool lit) {
    w3d::RawMesh m;
    m.name = "HALVES";
    m.container = "HALVES";
    const float s = 10.0f;
    m.positions = {{-s, -s, 0}, {0, -s, 0}, {0, s, 0}, {-s, s, 0}, {0, -s, 0}, {s, -s, 0}, {s, s, 0}, {0, s, 0},
                   {-s, 0, -s}, {0, 0, -s}, {0, 0, s}, {-s, 0, s}, {0, 0, -s}, {s, 0, -s}, {s, 0, s}, {0, 0, s}};
    m.normals.assign(m.positions.size(), glm::vec3(0, 0, 1));
    for (size_t i = 8; i < 16; ++i)
        m.normals[i] = glm::vec3(0, 1, 0);
    m.indices = {0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 8, 9, 10, 8, 10, 11, 12, 14, 13, 12, 15, 14}; // halves opposite
    m.boundsMin = {-s, -s, -s};
    m.boundsMax = {s, s, s};
    w3d::VertexMaterial vm;
    vm.name = "red";
    vm.ambient = {0, 0, 0, 0};
    vm.diffuse = {0, 0, 0, 0};
    vm.emissive = {255, 0, 0, 0};
    vm.opacity = 1.0f;
    m.vertexMaterials = {vm};
    m.shaders = {w3d::Shader{}};
    w3d::MaterialPass p;
    p.vertexMaterialIds = {0};
    p.shaderIds = {0};
    if (!lit) p.dcg.assign(m.positions.size(), glm::u8vec4(255, 255, 255, 255));
    m.passes = {p};
    w3d::ChunkWriter cw;
    w3d::writeMesh(cw, m);
    return cw.take();
}

// greyPlane with its material chunks (0x28 0x2A 0x29 0x30 0x38) moved into a prelit vertex-lit wrapper (0x24), as
// Renegade's tools write prelit meshes: the reader draws that wrapper, with lighting off.
std::vector<uint8_t> prelitPlane() {
    const std::vector<uint8_t> m = greyPlane();
    auto u32 = [&](size_t at) {
        uint32_t v;
        std::memcpy(&v, m.data() + at, 4);
        return v;
    };
    auto put = [](std::vector<uint8_t>& b, uint32_t v) {
        const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
        b.insert(b.end(), p, p + 4);
    };
    std::vector<uint8_t> keep, wrap;
    for (size_t o = 8; o + 8 <= 8 + (u32(4) & 0x7FFFFFFFu);) {
        const uint32_t t = u32(o), n = u32(o + 4) & 0x7FFFFFFFu;
        std::vector<uint8_t>& to = (t == 0x28 || t == 0x29 || t == 0x2A || t == 0x30 || t == 0x38) ? wrap : keep;
        to.insert(to.end(), m.begin() + long(o), m.begin() + long(o + 8 + n));
        o += 8 + n;
    }
    std::vector<uint8_t> out;
    put(out, 0);
    put(out, uint32_t(keep.size() + 8 + wrap.size()) | 0x80000000u);
    out.insert(out.end(), keep.begin(), keep.end());
    put(out, 0x24);
    put(out, uint32_t(wrap.size()) | 0x80000000u);
    out.insert(out.end(), wrap.begin(), wrap.end());
    out.insert(out.end(), m.begin() + long(8 + (u32(4) & 0x7FFFFFFFu)), m.end());
    return out;
}

// Pixels that differ from the top-left corner's colour by more than 30 in a channel (what is drawn).
int drawn(const QImage& img) {
    const QColor bg = img.pixelColor(0, 0);
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            if (std::abs(c.red() - bg.red()) > 30 || std::abs(c.green() - bg.green()) > 30 ||
                std::abs(c.blue() - bg.blue()) > 30)
                ++n;
        }
    return n;
}

bool previewView() { return qEnvironmentVariable("RIGSCOPE_VIEW") == QLatin1String("preview"); }

const W3dPassState& pass0(const ui::MainWindow& w) {
    return w.model()->meshes.at(0).subMeshes.at(0).material.w3dPasses.at(0);
}

} // namespace

class MaterialEditTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    // A W3D vertex material's Diffuse through the colour picker: the view turns red, undo/redo, save.
    void w3dVertexMaterialColour() {
        const QString path = dir.filePath(QStringLiteral("w3d/plane.w3d"));
        const std::vector<uint8_t> original = greyPlane();
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QTRY_VERIFY_WITH_TIMEOUT(!w->view()->texturesPending(), 10000);
        const QImage grey = capture(w->view());
        QVERIFY(!grey.isNull());
        const int greyRed = reddish(grey);

        ui::MaterialDock* d = w->materials();
        QTreeWidget* tree = d->tree();
        QTreeWidgetItem* diffuse = row(tree, QStringLiteral("vertex material 0"), QStringLiteral("Diffuse"));
        QVERIFY(diffuse);
        QCOMPARE(diffuse->text(2), QStringLiteral("128, 128, 128"));
        QColor offered;
        bool askedAlpha = true;
        d->setColourPicker([&](const QColor& start, bool alpha) -> QColor {
            offered = start;
            askedAlpha = alpha;
            return QColor(255, 0, 0);
        });
        clickValue(tree, diffuse, true);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(offered, QColor(128, 128, 128));
        QVERIFY(!askedAlpha); // W3D vertex-material colours have no alpha (Opacity is its own row)
        QCOMPARE(pass0(*w).diffuse, glm::vec3(1, 0, 0));
        const std::vector<uint8_t> red = w->edits()->bytes(path);
        QCOMPARE(red.size(), original.size()); // one payload changed in place
        QCOMPARE(w3d::readFile(ByteSpan(red), "plane.w3d").meshes.at(0).vertexMaterials.at(0).diffuse,
                 glm::u8vec4(255, 0, 0, 0));
        std::vector<size_t> differing; // the diffuse's R, G, B (128 -> 255, 0, 0) and nothing else
        for (size_t i = 0; i < red.size(); ++i)
            if (red[i] != original[i]) differing.push_back(i);
        QCOMPARE(differing.size(), size_t(3));
        QCOMPARE(differing[2], differing[0] + 2);
        QCOMPARE(int(red[differing[0]]), 255);
        // The row shows the new value at once.
        diffuse = row(tree, QStringLiteral("vertex material 0"), QStringLiteral("Diffuse"));
        QVERIFY(diffuse);
        QCOMPARE(diffuse->text(2), QStringLiteral("255, 0, 0"));
        // The view draws it.
        QTRY_VERIFY_WITH_TIMEOUT(reddish(capture(w->view())) > greyRed + 2000, 5000);

        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), original, 5000);
        QVERIFY(!w->edits()->isModified());
        QCOMPARE(pass0(*w).diffuse, glm::vec3(128 / 255.0f));
        QTRY_VERIFY_WITH_TIMEOUT(reddish(capture(w->view())) <= greyRed + 50, 5000);
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), red, 5000);
        QCOMPARE(pass0(*w).diffuse, glm::vec3(1, 0, 0));
        QTRY_VERIFY_WITH_TIMEOUT(reddish(capture(w->view())) > greyRed + 2000, 5000);

        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(readAll(path), red);
        QCOMPARE(readAll(path + QStringLiteral(".bak")), original);
    }

    // A shader field through its choices and a texture entry typed in (F2).
    void w3dShaderBitsAndTexture() {
        const QString path = dir.filePath(QStringLiteral("w3d2/plane.w3d"));
        const std::vector<uint8_t> original = greyPlane();
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        QTreeWidget* tree = w->materials()->tree();
        QTreeWidgetItem* depth = row(tree, QStringLiteral("shader 0"), QStringLiteral("DepthCompare"));
        QVERIFY(depth);
        QCOMPARE(depth->text(2), QStringLiteral("less or equal (3)"));
        tree->setFocus();
        clickValue(tree, depth, false);
        QTest::keyClick(tree, Qt::Key_F2);
        QComboBox* choice = nullptr;
        QTRY_VERIFY((choice = tree->findChild<QComboBox*>(QStringLiteral("choiceEditor"))) && choice->isVisible());
        QCOMPARE(choice->count(), 8);
        QCOMPARE(choice->currentData().toInt(), 3);
        choice->setCurrentIndex(choice->findData(7));
        QTest::keyClick(choice, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(int(pass0(*w).shader.depthCompare), 7);
        QCOMPARE(int(w3d::readFile(ByteSpan(w->edits()->bytes(path)), "p.w3d").meshes.at(0).shaders.at(0).depthCompare),
                 7);
        depth = row(tree, QStringLiteral("shader 0"), QStringLiteral("DepthCompare"));
        QCOMPARE(depth->text(2), QStringLiteral("always (7)"));
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), original, 5000);
        QCOMPARE(int(pass0(*w).shader.depthCompare), 3);
    }

    // A B&W2 material's texture slot, typed after F2.
    void bw2TextureSlot() {
        const std::vector<uint8_t> original = bw2::writeBwm(test::bw2fx::staticModel(6)); // t_wall.dds first
        const QString path = dir.filePath(QStringLiteral("bw2/grave.bwm"));
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY2(w, qPrintable(errors.join('\n')));
        QTreeWidget* tree = w->materials()->tree();
        QTreeWidgetItem* base = row(tree, QString(), QStringLiteral("BaseTexture"));
        QVERIFY(base);
        tree->setFocus();
        clickValue(tree, base, false);
        QTest::keyClick(tree, Qt::Key_F2);
        QLineEdit* e = nullptr;
        QTRY_VERIFY((e = tree->findChild<QLineEdit*>(QStringLiteral("textureNameEditor"))) && e->isVisible());
        QCOMPARE(e->text(), QStringLiteral("t_wall.dds"));
        QTest::keyClick(e, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(e, QStringLiteral("t_new_slot.tga"));
        QTest::keyClick(e, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const std::vector<uint8_t> edited = w->edits()->bytes(path);
        QCOMPARE(edited.size(), original.size());
        QCOMPARE(bw2::parseBwm(ByteSpan(edited), "grave.bwm").materials.at(0).slot(0), std::string("t_new_slot.tga"));
        QCOMPARE(w->model()->meshes.at(0).subMeshes.at(0).material.find("BaseTexture")->texture,
                 std::string("t_new_slot.tga"));
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), original, 5000);
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), edited, 5000);
    }

    // A vertex material whose colours light nothing says so (ww3d2 draws the pass with lighting off): a corpus
    // Renegade-style prelit mesh (vertex-lit wrapper 0x24), and a writer-made pass whose vertex colours are
    // premultiplied by the emissive colour alone (only Emissive and Opacity count there); a lit one has no note.
    void w3dUnusedColoursNoted() {
        const QString unused = QStringLiteral("not used: prelit (vertex-lit) pass, lighting off");
        // Lit: no row says "not used".
        {
            const QString path = dir.filePath(QStringLiteral("note/plane.w3d"));
            writeFile(path, greyPlane());
            QStringList errors;
            auto w = openWindow(path, &errors);
            QVERIFY(w);
            QTreeWidget* tree = w->materials()->tree();
            QTreeWidgetItem* g = row(tree, QString(), QStringLiteral("vertex material 0"));
            QVERIFY(g);
            QCOMPARE(g->text(2), QStringLiteral("colours 0..255; shared by the sub-meshes that use it"));
            for (const char* c : {"Ambient", "Diffuse", "Specular", "Emissive", "Shininess", "Opacity"}) {
                QTreeWidgetItem* r = row(tree, QStringLiteral("vertex material 0"), QLatin1String(c));
                QVERIFY(r);
                QVERIFY2(!r->toolTip(0).startsWith(QStringLiteral("not used")), c);
            }
        }
        // Emissive-only vertex colours: drawn unlit; Emissive and Opacity scale the colours, the others are unused.
        {
            const QString path = dir.filePath(QStringLiteral("note/unlit.w3d"));
            writeFile(path, halvesPlane(false));
            QStringList errors;
            auto w = openWindow(path, &errors);
            QVERIFY(w);
            QTreeWidget* tree = w->materials()->tree();
            QTreeWidgetItem* g = row(tree, QString(), QStringLiteral("vertex material 0"));
            QVERIFY(g);
            QVERIFY2(g->text(2).contains(QStringLiteral("only Emissive and Opacity count")), qPrintable(g->text(2)));
            for (const char* c : {"Ambient", "Diffuse", "Specular", "Shininess"}) {
                QTreeWidgetItem* r = row(tree, QStringLiteral("vertex material 0"), QLatin1String(c));
                QVERIFY(r);
                QVERIFY2(r->toolTip(0).startsWith(QStringLiteral("not used: ")), c);
            }
            for (const char* c : {"Emissive", "Opacity"})
                QVERIFY2(row(tree, QStringLiteral("vertex material 0"), QLatin1String(c))
                             ->toolTip(0)
                             .startsWith(QStringLiteral("used: scales the vertex colours")),
                         c);
        }
        // A prelit mesh (its materials in the vertex-lit wrapper, no colour array): every colour is unused. (No
        // corpus W3D file has such a wrapper: a writer-made one.)
        const QString path = dir.filePath(QStringLiteral("note/prelit.w3d"));
        const std::vector<uint8_t> original = prelitPlane();
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY2(w, qPrintable(errors.join('\n')));
        QVERIFY(!pass0(*w).lighting);
        QTreeWidget* tree = w->materials()->tree();
        QTreeWidgetItem* g = row(tree, QString(), QStringLiteral("vertex material 0"));
        QVERIFY(g);
        QCOMPARE(g->text(2), unused);
        QCOMPARE(g->childCount(), 6);
        for (int c = 0; c < g->childCount(); ++c)
            QCOMPARE(g->child(c)->toolTip(0), unused);
        // The row stays editable (the bytes are the file's): a red Diffuse changes the file, not the picture.
        QTreeWidgetItem* diffuse = row(tree, QStringLiteral("vertex material 0"), QStringLiteral("Diffuse"));
        QVERIFY(diffuse->flags() & Qt::ItemIsEditable);
        w->materials()->setColourPicker([](const QColor&, bool) { return QColor(255, 0, 0); });
        const QImage before = capture(w->view());
        clickValue(tree, diffuse, true);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QCOMPARE(pass0(*w).diffuse, glm::vec3(1, 0, 0));
        QCOMPARE(row(tree, QStringLiteral("vertex material 0"), QStringLiteral("Diffuse"))->toolTip(0), unused);
        if (!previewView()) QCOMPARE(reddish(capture(w->view())), reddish(before));
    }

    // ColorMask and the post-detail functions: shown as the file stores them (the model keeps what ww3d2 draws
    // with instead), noted as unused, edited through their choices: one byte changes, the row follows, undo.
    void w3dStoredShaderFields() {
        const QString path = dir.filePath(QStringLiteral("stored/plane.w3d"));
        const std::vector<uint8_t> original = greyPlane(); // its shader as the writer's default: ColorMask 0
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        QTreeWidget* tree = w->materials()->tree();
        QTreeWidgetItem* mask = row(tree, QStringLiteral("shader 0"), QStringLiteral("ColorMask"));
        QVERIFY(mask);
        QCOMPARE(mask->text(2), QStringLiteral("no colour write (0)"));
        QVERIFY(mask->toolTip(0).startsWith(QStringLiteral("not used: ww3d2 writes colour")));
        QTreeWidgetItem* pdc = row(tree, QStringLiteral("shader 0"), QStringLiteral("PostDetailColorFunc"));
        QVERIFY(pdc);
        QCOMPARE(pdc->text(2), QStringLiteral("disable (0)"));
        QVERIFY(row(tree, QStringLiteral("shader 0"), QStringLiteral("PostDetailAlphaFunc")));
        QCOMPARE(row(tree, QStringLiteral("shader 0"), QStringLiteral("DepthCompare"))->toolTip(0), QString());
        tree->setFocus();
        clickValue(tree, mask, false);
        QTest::keyClick(tree, Qt::Key_F2);
        QComboBox* choice = nullptr;
        QTRY_VERIFY((choice = tree->findChild<QComboBox*>(QStringLiteral("choiceEditor"))) && choice->isVisible());
        QCOMPARE(choice->count(), 2);
        choice->setCurrentIndex(choice->findData(1));
        QTest::keyClick(choice, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        const std::vector<uint8_t> edited = w->edits()->bytes(path);
        QCOMPARE(edited.size(), original.size());
        size_t differ = 0;
        for (size_t i = 0; i < edited.size(); ++i)
            differ += edited[i] != original[i];
        QCOMPARE(differ, size_t(1));
        QCOMPARE(int(w3d::readFile(ByteSpan(edited), "p.w3d").meshes.at(0).shaders.at(0).colorMask), 1);
        mask = row(tree, QStringLiteral("shader 0"), QStringLiteral("ColorMask"));
        QCOMPARE(mask->text(2), QStringLiteral("colour write (1)"));
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), original, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(row(tree, QStringLiteral("shader 0"), QStringLiteral("ColorMask"))->text(2),
                                  QStringLiteral("no colour write (0)"), 5000);
    }

    // A mesh's two-sided flag from the Bones panel's mesh row: the back faces are drawn at once, one bit of the
    // file changes, undo culls them again, Ctrl+S writes the flag.
    void w3dTwoSided() {
        const QString path = dir.filePath(QStringLiteral("cull/halves.w3d"));
        const std::vector<uint8_t> original = halvesPlane(true);
        writeFile(path, original);
        QStringList errors;
        auto w = openWindow(path, &errors);
        QVERIFY(w);
        QVERIFY(!w->model()->meshes.at(0).twoSided);
        QTRY_VERIFY_WITH_TIMEOUT(!w->view()->texturesPending(), 10000);
        const QImage culled = capture(w->view());
        // The mesh's "Two-sided" row in the Materials panel: F2 offers no/yes.
        QTreeWidget* tree = w->materials()->tree();
        QTreeWidgetItem* flag = row(tree, QStringLiteral("HALVES"), QStringLiteral("Two-sided"));
        QVERIFY(flag);
        QCOMPARE(flag->text(2), QStringLiteral("no: back faces culled (0)"));
        auto toggle = [&] {
            tree->setFocus();
            clickValue(tree, flag, false);
            QTest::keyClick(tree, Qt::Key_F2);
            QComboBox* choice = nullptr;
            if (!QTest::qWaitFor([&] {
                    return (choice = tree->findChild<QComboBox*>(QStringLiteral("choiceEditor"))) &&
                           choice->isVisible();
                }))
                return false;
            choice->setCurrentIndex(choice->findData(1));
            QTest::keyClick(choice, Qt::Key_Return);
            return true;
        };
        QVERIFY(toggle());
        QTRY_VERIFY_WITH_TIMEOUT(w->edits()->isModified(), 5000);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY(w->model()->meshes.at(0).twoSided);
        const std::vector<uint8_t> edited = w->edits()->bytes(path);
        QCOMPARE(edited.size(), original.size());
        std::vector<size_t> differ;
        for (size_t i = 0; i < edited.size(); ++i)
            if (edited[i] != original[i]) differ.push_back(i);
        QCOMPARE(differ.size(), size_t(1));
        QCOMPARE(int(edited[differ[0]] ^ original[differ[0]]), 0x20); // bit 13 of the attributes (0x2000)
        QVERIFY(w->materials()->tree()->topLevelItem(0)->text(2).contains(QStringLiteral("two-sided")));
        QCOMPARE(row(tree, QStringLiteral("HALVES"), QStringLiteral("Two-sided"))->text(2),
                 QStringLiteral("yes: back faces drawn (1)"));
        if (!previewView()) { // the software preview draws both faces of every mesh
            const int before = drawn(culled);
            QTRY_VERIFY_WITH_TIMEOUT(drawn(capture(w->view())) > before + 2000, 5000);
            QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
            QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), original, 5000);
            QTRY_VERIFY_WITH_TIMEOUT(std::abs(drawn(capture(w->view())) - before) < 200, 5000);
            QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
            QTRY_COMPARE_WITH_TIMEOUT(w->edits()->bytes(path), edited, 5000);
        }
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!w->edits()->isModified(), 5000);
        QCOMPARE(readAll(path), edited);
    }

  private:
    QTemporaryDir dir;
};

int main(int argc, char** argv) {
    qputenv("QT3D_RENDERER", "opengl");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-tests"));
    QApplication::setApplicationName(QStringLiteral("material_edit_ui_tests"));
    MaterialEditTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "material_edit_test.moc"
