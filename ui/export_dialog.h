// File → Export…: glTF 2.0 export of the open model (export/gltf_export.h) with the view's LOD/ALT and faction
// colour as defaults, the current clip or every clip of the model.
#pragma once

#include "gltf_export.h"

#include <QStandardPaths>
#include <QString>

class QWidget;

namespace rs::ui {
class MainWindow;

// Modal dialog; writes the file on OK and reports the result (or the error) in a message box.
void exportDialog(MainWindow* window);

// What the dialog runs on OK: the open model with the current clip (currentClipOnly) or every clip the window has
// for it (MainWindow::allClips: inside its file, beside it, an applied animation library's), textures found through
// the window's resolver as the view finds them. Throws std::exception.
gltf::ExportStats exportOpenModel(MainWindow* window, const gltf::ExportOptions& options, bool currentClipOnly,
                                  const QString& outPath);
// Default output: <model stem>.glb (for "<archive>:<entry>" the entry's stem) in the folder last exported into,
// else the user's Documents folder (never the model's folder: that is the game's or mod's Data/Art/Models).
QString defaultExportPath(const QString& modelPath);

// Shared by File -> Export and Record: <stem of the model's file or archive entry><extension> in the folder last
// used for that action (QSettings key settingsKey, when it still exists), else the user's `location` folder (when it
// exists), else the home folder. fallbackStem when the model has no path.
QString defaultOutputPath(const QString& modelPath, const QString& settingsKey,
                          QStandardPaths::StandardLocation location, const QString& fallbackStem,
                          const QString& extension);
// Remembers the folder of outPath under settingsKey (after a file was written there).
void rememberOutputFolder(const QString& settingsKey, const QString& outPath);

} // namespace rs::ui
