// Entry point of the interactive viewer: creates the QApplication and the main window.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace rs::ui {

// Options of the interactive viewer, parsed by app/gui/command_line before any Qt object exists.
struct ViewerArgs {
    QStringList files;        // models or clips to open (none: the built-in demo)
    QSize size;               // invalid: the default size
    QString windowScreenshot; // non-empty: open, grab the whole window to this PNG and exit
    float frame = -1.0f;      // with windowScreenshot: frame to show (< 0: keep)
    QString selectBone;       // with windowScreenshot: bone to select
    bool play = false;        // with windowScreenshot: play before grabbing
    QStringList games, mods;  // --game / --mod: mounted for this run (not remembered), files looked up in them
};

// Returns the application's exit code.
int runViewer(const ViewerArgs& args, int argc, char** argv);

} // namespace rs::ui
