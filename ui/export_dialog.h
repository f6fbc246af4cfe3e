// File → Export…: glTF 2.0 export of the open model (export/gltf_export.h) with the view's LOD/ALT and faction
// colour as defaults, the current clip or every clip of the model.
#pragma once

#include "gltf_export.h"

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
// Default output: <model stem>.glb in the model's folder; for "<archive>:<entry>" in the archive's folder.
QString defaultExportPath(const QString& modelPath);

} // namespace rs::ui
