#include "import_dialog.h"

#include "check/check.h"
#include "gltf_import.h"
#include "main_window.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace rs::ui {

namespace {

// The last conversion (what Save converted as… writes) and the temporary folders it was opened from (removed
// when the application ends).
struct LastImport {
    gltfimport::ImportResult result;
    gltfimport::ImportOptions options;
    QString stem;
    bool valid = false;
};
LastImport& last() {
    static LastImport l;
    return l;
}
std::vector<std::unique_ptr<QTemporaryDir>>& tempDirs() {
    static std::vector<std::unique_ptr<QTemporaryDir>> d;
    return d;
}

} // namespace

void importGltfDialog(MainWindow* w, QAction* saveConverted) {
    const QString in = QFileDialog::getOpenFileName(w, QObject::tr("Import glTF"),
                                                    QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation),
                                                    QObject::tr("glTF 2.0 (*.glb *.gltf)"));
    if (in.isEmpty()) return;
    bool ok = false;
    const QString game =
        QInputDialog::getItem(w, QObject::tr("Import glTF"), QObject::tr("Game"),
                              {QStringLiteral("Forces of Corruption"), QStringLiteral("Empire at War")}, 0, false, &ok);
    if (!ok) return;
    gltfimport::ImportOptions opt;
    opt.game = game.startsWith(QLatin1String("Empire")) ? gltfimport::Game::Eaw : gltfimport::Game::Foc;
    try {
        gltfimport::ImportResult r = gltfimport::importGltfFile(QFile::encodeName(in).toStdString(), opt);
        auto dir = std::make_unique<QTemporaryDir>();
        if (!dir->isValid()) throw std::runtime_error("no temporary folder: " + dir->errorString().toStdString());
        const QString stem = QFileInfo(in).completeBaseName().toUpper();
        const std::string alo = QFile::encodeName(dir->filePath(stem + QStringLiteral(".ALO"))).toStdString();
        gltfimport::writeFiles(gltfimport::alamoFiles(r, alo, opt));
        // The check's findings on what would be written.
        const check::Report rep = check::checkPaths(*w->resolver(), {QFile::encodeName(dir->path()).toStdString()});
        QString text = QObject::tr("%1 converted: %2 bones, %3 meshes, %4 clips.")
                           .arg(QFileInfo(in).fileName())
                           .arg(r.model.skeleton.bones.size())
                           .arg(r.model.meshes.size())
                           .arg(r.clips.size());
        for (const std::string& line : r.report)
            text += QStringLiteral("\n• ") + QString::fromStdString(line);
        text += QObject::tr("\n\nCheck: %1 errors, %2 warnings.")
                    .arg(rep.count(check::Level::Error))
                    .arg(rep.count(check::Level::Warning));
        for (const check::Finding& f : rep.findings)
            if (f.level != check::Level::Info)
                text += QStringLiteral("\n• ") + QString::fromStdString(f.id + ": " + f.message);
        last() = {std::move(r), opt, stem, true};
        if (saveConverted) saveConverted->setEnabled(true);
        w->openFile(QString::fromStdString(alo));
        tempDirs().push_back(std::move(dir));
        QMessageBox::information(w, QObject::tr("Import glTF"), text);
    } catch (const std::exception& e) {
        QMessageBox::warning(w, QObject::tr("Import glTF"), QString::fromUtf8(e.what()));
    }
}

void saveConvertedDialog(MainWindow* w) {
    if (!last().valid) return;
    const QString out =
        QFileDialog::getSaveFileName(w, QObject::tr("Save converted as"),
                                     QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) +
                                         QLatin1Char('/') + last().stem + QStringLiteral(".ALO"),
                                     QObject::tr("Alamo model (*.alo)"));
    if (out.isEmpty()) return;
    try {
        const auto files = gltfimport::alamoFiles(last().result, QFile::encodeName(out).toStdString(), last().options);
        gltfimport::writeFiles(files);
        QMessageBox::information(
            w, QObject::tr("Save converted as"),
            QObject::tr("%1 written with %2 clip file(s) beside it.").arg(out).arg(files.size() - 1));
    } catch (const std::exception& e) {
        QMessageBox::warning(w, QObject::tr("Save converted as"), QString::fromUtf8(e.what()));
    }
}

} // namespace rs::ui
