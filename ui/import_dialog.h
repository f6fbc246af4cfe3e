// File → Import glTF…: a .glb/.gltf converted to Alamo files (import/gltf_import.h) in a temporary folder and
// opened from there, so that the model shows as it will be written, its clips on the timeline; the conversion's
// report and the check's findings on those files are shown. File → Save converted as… writes them (model and
// clips) where the user chooses, the same safe way.
#pragma once

class QAction;

namespace rs::ui {
class MainWindow;

// Asks for the glTF and the game (EaW / FoC), converts, opens the converted model; errors in a message box.
void importGltfDialog(MainWindow* window, QAction* saveConverted);
// Writes the last conversion as a chosen OUT.alo and its <OUT>_<CLIP>_00.ALA files beside it.
void saveConvertedDialog(MainWindow* window);

} // namespace rs::ui
