// File → Import glTF…: a .glb/.gltf converted (import/gltf_import.h) for the game chosen (Alamo for EaW/FoC, W3D
// for Generals, Zero Hour, BFME and BFME II) into a temporary folder and opened from there, so that the model shows
// as it will be written, its clips on the timeline; the conversion's report and the check's findings on those
// files are shown. File → Save As… on that model is the one way to save it (MainWindow::saveAs asks
// saveImportedAs first): the clips are written for the chosen name beside it, the model (with any edits made in
// the viewer) through the edit session's safe save.
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace rs::ui {
class MainWindow;

enum class ImportGame { Foc, Eaw, Generals, ZeroHour, Bfme, Bfme2 };

struct ImportOutcome {
    bool ok = false;
    QString text;             // the summary: counts, the conversion's report, the check's findings (or the error)
    QString modelPath;        // the converted model in the temporary folder (opened in the window)
    QStringList textureFiles; // the DDS files Save As writes (in the chosen textures folder)
    int checkErrors = 0, checkWarnings = 0;
};

// Converts `in` for `game` (W3D names over 15 characters are shortened and reported), writes the files to a new
// temporary folder (removed when the application ends), opens the model there. No dialog.
// `texturesDir` non-empty: as `rigscope-cli import --textures DIR`, each PNG/JPEG image of the glTF becomes a DDS
// (DXT1 opaque, DXT5 with alpha, full mip chain) named as the model names it; the DDS files are written beside the
// converted model in the temporary folder (so that the model shows with them) and, by Save As, into `texturesDir`
// (not before). The summary counts them and reports images that could not be converted.
ImportOutcome importGltfInto(MainWindow* window, const QString& in, ImportGame game,
                             const QString& texturesDir = QString());
// Asks for the glTF, the game and whether to write DDS textures (and where), converts and opens
// (importGltfInto), shows the summary or the error.
void importGltfDialog(MainWindow* window);

// True when `doc` is a converted model of this session's imports (Save As is offered for it unedited).
bool isImportedModel(const QString& doc);

enum class ImportSave {
    CompanionsWritten, // edited: the clips are written for `dest`, the caller writes the edited model there
    AllWritten,        // unedited: model and clips converted for `dest` (W3D names its hierarchy, HLOD and clips
                       // after the file) and written, all or nothing, and `dest` opened
                       // (both: with the import's DDS textures into its textures folder, when one was chosen)
    Failed             // refused or failed: `error` says why (nothing written)
};
// Save As of `doc` to `dest`: nullopt when `doc` is not a converted model of this session's imports.
std::optional<ImportSave> saveImportedAs(MainWindow* window, const QString& doc, const QString& dest, bool modified,
                                         QString* error);

} // namespace rs::ui
