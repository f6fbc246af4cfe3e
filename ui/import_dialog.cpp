#include "import_dialog.h"

#include "check/check.h"
#include "formats/engine_limits.h"
#include "gltf_import.h"
#include "main_window.h"

#include <QDir>
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

// This session's conversions (what Save As writes for a converted model) and the temporary folders they were
// opened from (removed when the application ends).
struct Imported {
    gltfimport::ImportResult result;
    gltfimport::ImportOptions options;
    gltfimport::W3dOptions w3d;
    bool isW3d = false;
    QString modelPath; // in its temporary folder
    std::unique_ptr<QTemporaryDir> dir;
    std::vector<gltfimport::OutputFile> textures; // the DDS files for the chosen textures folder (Save As)
};
std::vector<Imported>& imports() {
    static std::vector<Imported> v;
    return v;
}

bool isW3dGame(ImportGame g) { return g != ImportGame::Foc && g != ImportGame::Eaw; }

std::string local(const QString& s) { return QFile::encodeName(s).toStdString(); }

std::vector<gltfimport::OutputFile> filesFor(const Imported& im, const std::string& modelPath,
                                             std::vector<std::string>* report) {
    return im.isW3d ? gltfimport::w3dFiles(im.result, modelPath, im.w3d, report)
                    : gltfimport::alamoFiles(im.result, modelPath, im.options);
}

} // namespace

bool isImportedModel(const QString& doc) {
    for (const Imported& i : imports())
        if (QFileInfo(i.modelPath) == QFileInfo(doc)) return true;
    return false;
}

ImportOutcome importGltfInto(MainWindow* w, const QString& in, ImportGame game, const QString& texturesDir) {
    ImportOutcome out;
    Imported im;
    im.options.keepImages = !texturesDir.isEmpty();
    im.isW3d = isW3dGame(game);
    im.options.game = game == ImportGame::Eaw ? gltfimport::Game::Eaw : gltfimport::Game::Foc;
    im.w3d.bfme = game == ImportGame::Bfme || game == ImportGame::Bfme2;
    im.w3d.rename = true; // the viewer shortens W3D's long names and reports it instead of refusing
    if (im.w3d.bfme) im.options.bonesPerVertex = limits::kW3dBonesPerVertexBfme;
    try {
        im.result = gltfimport::importGltfFile(local(in), im.options);
        im.dir = std::make_unique<QTemporaryDir>();
        if (!im.dir->isValid()) throw std::runtime_error("no temporary folder: " + im.dir->errorString().toStdString());
        QString stem = QFileInfo(in).completeBaseName().toUpper();
        if (im.isW3d) stem = stem.left(int(limits::kW3dNameChars) - 5); // room for _<CLIP> in clip names
        auto files =
            filesFor(im, local(im.dir->filePath(stem + (im.isW3d ? QStringLiteral(".w3d") : QStringLiteral(".ALO")))),
                     &im.result.report);
        if (!texturesDir.isEmpty()) {
            // Flat into the chosen folder (the CLI's --textures DIR without --layout sage); copies beside the
            // converted model, where the viewer finds them.
            im.textures = gltfimport::textureFiles(im.result, local(texturesDir), gltfimport::TextureLayout::Flat,
                                                   &im.result.report);
            for (const gltfimport::OutputFile& t : im.textures) {
                gltfimport::OutputFile copy = t;
                copy.path = local(im.dir->filePath(QFile::decodeName(t.path.c_str()).section(QLatin1Char('/'), -1)));
                files.push_back(std::move(copy));
            }
        }
        gltfimport::writeFiles(files);
        im.modelPath = QFile::decodeName(files[0].path.c_str()); // as written (W3D: <hierarchy name>.w3d)
        // The check's findings on what would be written.
        const check::Report rep = check::checkPaths(*w->resolver(), {local(im.dir->path())});
        out.checkErrors = int(rep.count(check::Level::Error));
        out.checkWarnings = int(rep.count(check::Level::Warning));
        out.text = QObject::tr("%1 converted: %2 bones, %3 meshes, %4 clips.")
                       .arg(QFileInfo(in).fileName())
                       .arg(im.result.model.skeleton.bones.size())
                       .arg(im.result.model.meshes.size())
                       .arg(im.result.clips.size());
        if (!texturesDir.isEmpty())
            out.text += QObject::tr(" %1 DDS textures, written to %2 by Save As.")
                            .arg(im.textures.size())
                            .arg(QDir::toNativeSeparators(texturesDir));
        for (const std::string& line : im.result.report)
            out.text += QStringLiteral("\n• ") + QString::fromStdString(line);
        out.text += QObject::tr("\n\nCheck: %1 errors, %2 warnings.").arg(out.checkErrors).arg(out.checkWarnings);
        for (const check::Finding& f : rep.findings)
            if (f.level != check::Level::Info)
                out.text += QStringLiteral("\n• ") + QString::fromStdString(f.id + ": " + f.message);
        out.text += QObject::tr("\n\nFile → Save As… writes the model and its clips where you choose.");
        out.modelPath = im.modelPath;
        for (const gltfimport::OutputFile& t : im.textures)
            out.textureFiles << QFile::decodeName(t.path.c_str());
        out.ok = true;
        imports().push_back(std::move(im));
        w->openFile(out.modelPath);
    } catch (const std::exception& e) {
        out.text = QString::fromUtf8(e.what());
    }
    return out;
}

void importGltfDialog(MainWindow* w) {
    const QString in = QFileDialog::getOpenFileName(w, QObject::tr("Import glTF"),
                                                    QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation),
                                                    QObject::tr("glTF 2.0 (*.glb *.gltf)"));
    if (in.isEmpty()) return;
    const QStringList games = {QStringLiteral("Forces of Corruption"),
                               QStringLiteral("Empire at War"),
                               QStringLiteral("Generals"),
                               QStringLiteral("Zero Hour"),
                               QStringLiteral("Battle for Middle-earth"),
                               QStringLiteral("Battle for Middle-earth II")};
    bool ok = false;
    const QString game =
        QInputDialog::getItem(w, QObject::tr("Import glTF"), QObject::tr("Game"), games, 0, false, &ok);
    if (!ok) return;
    // rigscope-cli import --textures DIR: DDS for the glTF's PNG/JPEG images, written where the game looks.
    QString textures;
    if (QMessageBox::question(w, QObject::tr("Import glTF"),
                              QObject::tr("Write DDS textures for the glTF's PNG and JPEG images?\n(DXT1 when "
                                          "opaque, DXT5 with alpha, full mip chain; written with the model by "
                                          "Save As.)"),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes) {
        textures = QFileDialog::getExistingDirectory(w, QObject::tr("Folder for the DDS textures"),
                                                     QFileInfo(in).absolutePath());
        if (textures.isEmpty()) return;
    }
    const ImportOutcome o = importGltfInto(w, in, ImportGame(games.indexOf(game)), textures);
    if (o.ok)
        QMessageBox::information(w, QObject::tr("Import glTF"), o.text);
    else
        QMessageBox::warning(w, QObject::tr("Import glTF"), o.text);
}

std::optional<ImportSave> saveImportedAs(MainWindow* w, const QString& doc, const QString& dest, bool modified,
                                         QString* error) {
    const Imported* im = nullptr;
    for (const Imported& i : imports())
        if (QFileInfo(i.modelPath) == QFileInfo(doc)) im = &i;
    if (!im) return std::nullopt;
    try {
        const QString ext = QFileInfo(dest).suffix().toLower();
        if (ext != (im->isW3d ? QStringLiteral("w3d") : QStringLiteral("alo")))
            throw std::runtime_error(QObject::tr("a converted %1 model is saved as .%2: %3")
                                         .arg(im->isW3d ? QStringLiteral("W3D") : QStringLiteral("Alamo"),
                                              im->isW3d ? QStringLiteral("w3d") : QStringLiteral("alo"), dest)
                                         .toStdString());
        std::vector<gltfimport::OutputFile> files = filesFor(*im, local(dest), nullptr);
        files.insert(files.end(), im->textures.begin(), im->textures.end()); // all or nothing with the model
        const bool renamed =
            QFileInfo(dest).completeBaseName().compare(QFileInfo(doc).completeBaseName(), Qt::CaseInsensitive) != 0;
        // W3D names the hierarchy, the HLOD and the clips after the file: an edited model keeps its name.
        if (im->isW3d && renamed && modified)
            throw std::runtime_error(QObject::tr("W3D names its hierarchy after the file: save the edited model "
                                                 "under its name (%1), or undo the edits first")
                                         .arg(QFileInfo(doc).fileName())
                                         .toStdString());
        if (!modified) { // the conversion as written for `dest` (all or nothing), then shown from there
            gltfimport::writeFiles(files);
            w->openFile(QString::fromStdString(files[0].path));
            return ImportSave::AllWritten;
        }
        files.erase(files.begin()); // the edited model: the edit session writes it
        gltfimport::writeFiles(files);
        return ImportSave::CompanionsWritten;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return ImportSave::Failed;
    }
}

} // namespace rs::ui
