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

// What the dialog runs on OK: the open model with the current clip (currentClipOnly) or every clip of the model
// (inside its file and beside it, found through its archive or folder and the mounted game/mod folders), textures
// found as the view finds them (gltf::viewerTextureLookup with the preferences' folders). Throws std::exception.
gltf::ExportStats exportOpenModel(MainWindow* window, const gltf::ExportOptions& options, bool currentClipOnly,
                                  const QString& outPath);
// Default output: <model stem>.glb in the model's folder; for "<archive>:<entry>" in the archive's folder.
QString defaultExportPath(const QString& modelPath);

} // namespace rs::ui
