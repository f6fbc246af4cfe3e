// save_latency: the time from Ctrl+S to the file written, in the real main window (issue 39's "time from Ctrl+S to
// written for the largest corpus model"). Opens MODEL (default: the largest .alo of the corpus), and each round
// toggles its first bone's default visibility through the Bones panel's edit (the edit session, as a user's edit)
// and presses Ctrl+S (QTest key events to the active window): the save runs in the shortcut's handler, so the time
// from the key press to its return is the save (the safe write: temporary file, flush, read back and read by the
// format's reader, rename; NAME.bak on the first save only, so round 1 is reported apart). The same bytes copied
// by memcpy and written by a plain ofstream give the floor.
//
//   save_latency [--rounds N] [MODEL]
//
// Run under xvfb-run; RIGSCOPE_VIEW=preview is set (the view is not what is measured). The model is copied to a
// temporary folder first: the corpus is never written. Each round's edit is shown again before the save (the
// Materials panel lays out every mesh again: seconds on the largest model, not part of the figure), so a run of
// the default 5 rounds takes minutes on a loaded machine.
#include "bone_tree_dock.h"
#include "edit_session.h"
#include "main_window.h"

#include "common/edit_op.h"

#include "gui_bench_common.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

using namespace rs;

using bench::largestCorpusModel;
using bench::median;

int main(int argc, char** argv) {
    qputenv("RIGSCOPE_VIEW", "preview");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("rigscope-bench"));
    QApplication::setApplicationName(QStringLiteral("save_latency"));
    int rounds = 5;
    QString model;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--rounds") && i + 1 < args.size())
            rounds = std::max(2, args[++i].toInt());
        else
            model = args[i];
    }
    if (model.isEmpty()) model = largestCorpusModel();
    if (model.isEmpty() || !QFileInfo(model).isFile()) {
        std::fprintf(stderr, "save_latency: no model (give one, or place the corpus at %s)\n", RIGSCOPE_CORPUS_DIR);
        return 2;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QFileInfo(model).fileName());
    if (!QFile::copy(model, path)) return 2;
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    const qint64 bytes = QFileInfo(path).size();

    ui::MainWindow w;
    QString error;
    w.setErrorReporter([&](const QString& t, const QString& m) { error = t + ": " + m; });
    w.setUnsavedPrompt([](const QStringList&) { return int(QMessageBox::Discard); });
    w.resize(1280, 800);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) return 2;
    w.activateWindow();
    (void)QTest::qWaitForWindowActive(&w); // keys go to the active window; the key events below say if not
    w.openFile(path);
    if (!QTest::qWaitFor([&] { return !w.isLoading() && w.model(); }, 60000) || w.model()->skeleton.bones.empty()) {
        std::fprintf(stderr, "save_latency: %s did not open as a model with bones\n", qPrintable(path));
        return 2;
    }
    const std::string bone = w.model()->skeleton.bones[0].name;
    std::vector<double> save, firstSave;
    for (int r = 0; r < rounds; ++r) {
        EditOp op;
        op.kind = EditOp::Kind::SetBoneVisible;
        op.target = bone;
        op.value = w.model()->skeleton.bones[0].visible ? "0" : "1";
        emit w.boneTree()->editRequested(op);
        if (!w.edits()->isModified()) {
            std::fprintf(stderr, "save_latency: the edit was not made: %s\n", qPrintable(error));
            return 2;
        }
        QElapsedTimer t;
        t.start();
        QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier);
        const double ms = double(t.nsecsElapsed()) / 1e6;
        if (w.edits()->isModified() || !error.isEmpty()) {
            std::fprintf(stderr, "save_latency: the save failed: %s\n", qPrintable(error));
            return 2;
        }
        (r == 0 ? firstSave : save).push_back(ms);
    }
    // The floor: the same bytes copied in memory, and written by a plain stream (no temp file, no check).
    const std::vector<uint8_t> written = w.edits()->bytes(w.edits()->documentPath());
    std::vector<double> copy, plain;
    std::vector<uint8_t> dst(written.size());
    for (int r = 0; r < rounds; ++r) {
        QElapsedTimer t;
        t.start();
        std::memcpy(dst.data(), written.data(), written.size());
        copy.push_back(double(t.nsecsElapsed()) / 1e6);
        t.restart();
        {
            std::ofstream f(dir.filePath(QStringLiteral("plain.bin")).toStdString(), std::ios::binary);
            f.write(reinterpret_cast<const char*>(written.data()), std::streamsize(written.size()));
        }
        plain.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::printf("save_latency: %s, %.2f MB, %d rounds (one bone visibility edit each)\n", qPrintable(model),
                double(bytes) / 1e6, rounds);
    std::printf("  Ctrl+S -> written, first save (keeps NAME.bak): %8.2f ms\n", firstSave.at(0));
    std::printf("  Ctrl+S -> written, median of later saves:       %8.2f ms\n", median(save));
    std::printf("  plain ofstream write of the same bytes (median): %8.2f ms\n", median(plain));
    std::printf("  memcpy of the same bytes (median):               %8.3f ms\n", median(copy));
    return 0;
}
