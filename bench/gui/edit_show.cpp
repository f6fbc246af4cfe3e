// edit_show: the time from a Materials panel edit to the edit shown, in the real main window (issue 39: "each edit
// shown at once"). Opens MODEL (default: the largest .alo of the corpus), and each round sets the first float
// parameter of its first sub-mesh that has one (alternating two values) through the panel's editRequested, as the
// panel's editor sends it; the edit runs synchronously (edit session -> tree -> model read again -> view and panels
// shown again), so the time from the signal to its return is the edit shown. Then Ctrl+Z, timed the same way. The
// Materials panel's share is measured apart: MaterialDock::setModel with the model shown (what each edit does).
//
//   edit_show [--rounds N] [MODEL]
//
// Run under xvfb-run; RIGSCOPE_VIEW=preview is set (the view's upload is not what is measured). The model is copied
// to a temporary folder first: the corpus is never written.
#include "edit_session.h"
#include "main_window.h"
#include "material_dock.h"

#include "common/edit_op.h"

#include "gui_bench_common.h"

#include <QApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace rs;

using bench::largestCorpusModel;
using bench::median;

int main(int argc, char** argv) {
    qputenv("RIGSCOPE_VIEW", "preview");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-bench"));
    QApplication::setApplicationName(QStringLiteral("edit_show"));
    int rounds = 5;
    QString model;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--rounds") && i + 1 < args.size())
            rounds = std::max(1, args[++i].toInt());
        else
            model = args[i];
    }
    if (model.isEmpty()) model = largestCorpusModel();
    if (model.isEmpty() || !QFileInfo(model).isFile()) {
        std::fprintf(stderr, "edit_show: no model (give one, or place the corpus at %s)\n", RIGSCOPE_CORPUS_DIR);
        return 2;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QFileInfo(model).fileName());
    if (!QFile::copy(model, path)) return 2;
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);

    ui::MainWindow w;
    QString error;
    w.setErrorReporter([&](const QString& t, const QString& m) { error = t + ": " + m; });
    w.setUnsavedPrompt([](const QStringList&) { return int(QMessageBox::Discard); });
    w.resize(1280, 800);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return 2;
    w.activateWindow();
    (void)QTest::qWaitForWindowActive(&w);
    QElapsedTimer open;
    open.start();
    w.openFile(path);
    if (!QTest::qWaitFor([&] { return !w.isLoading() && w.model(); }, 120000)) {
        std::fprintf(stderr, "edit_show: %s did not open\n", qPrintable(path));
        return 2;
    }
    const double openMs = double(open.nsecsElapsed()) / 1e6;
    // The first float parameter of a sub-mesh.
    EditOp op;
    op.kind = EditOp::Kind::SetParam;
    size_t subMeshes = 0;
    for (const Mesh& m : w.model()->meshes)
        for (size_t s = 0; s < m.subMeshes.size(); ++s) {
            ++subMeshes;
            if (!op.name.empty()) continue;
            for (const MaterialParam& p : m.subMeshes[s].material.params)
                if (p.type == ParamType::Float) {
                    op.target = m.name + "#" + std::to_string(s);
                    op.name = p.name;
                    break;
                }
        }
    if (op.name.empty()) {
        std::fprintf(stderr, "edit_show: %s has no float parameter\n", qPrintable(path));
        return 2;
    }
    int rows = 0;
    for (QTreeWidgetItemIterator it(w.materials()->tree()); *it; ++it)
        ++rows;
    std::vector<double> edit, undo, panel;
    for (int r = 0; r < rounds; ++r) {
        op.value = r % 2 ? "0.25" : "0.75";
        QElapsedTimer t;
        t.start();
        emit w.materials()->editRequested(op);
        edit.push_back(double(t.nsecsElapsed()) / 1e6);
        if (w.edits()->undoStack()->count() != 1 || !error.isEmpty()) {
            std::fprintf(stderr, "edit_show: the edit was not made: %s\n", qPrintable(error));
            return 2;
        }
        QCoreApplication::processEvents();
        t.restart();
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
        undo.push_back(double(t.nsecsElapsed()) / 1e6);
        if (w.edits()->isModified()) {
            std::fprintf(stderr, "edit_show: Ctrl+Z did not undo\n");
            return 2;
        }
        w.edits()->undoStack()->clear();
        QCoreApplication::processEvents();
        t.restart();
        w.materials()->setModel(w.model(), nullptr);
        panel.push_back(double(t.nsecsElapsed()) / 1e6);
        QCoreApplication::processEvents();
    }
    std::printf("edit_show: %s, %.2f MB, %zu meshes, %zu sub-meshes, %d panel rows, opened in %.0f ms, %d rounds\n",
                qPrintable(model), double(QFileInfo(path).size()) / 1e6, w.model()->meshes.size(), subMeshes, rows,
                openMs, rounds);
    std::printf("  edit (set %s.%s) -> shown, median: %9.2f ms\n", op.target.c_str(), op.name.c_str(), median(edit));
    std::printf("  Ctrl+Z -> shown, median:           %9.2f ms\n", median(undo));
    std::printf("  Materials panel setModel, median:  %9.2f ms\n", median(panel));
    return 0;
}
