// Entry point of the interactive viewer: creates the QApplication and the main window.
#pragma once

namespace rs::ui {

// argv may name a model or clip to open. Returns the application's exit code.
int runViewer(int argc, char** argv);

} // namespace rs::ui
