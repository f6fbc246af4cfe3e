// File → Export…: glTF 2.0 export of the open model (export/gltf_export.h) with the view's LOD/ALT and faction
// colour as defaults, the current clip or every clip of the model.
#pragma once

class QWidget;

namespace rs::ui {
class MainWindow;

// Modal dialog; writes the file on OK and reports the result (or the error) in a message box.
void exportDialog(MainWindow* window);

} // namespace rs::ui
