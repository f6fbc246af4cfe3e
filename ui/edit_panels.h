// The panels' edits of the open document and the files that go with it (docs/EDITING.md): the Bones panel's bone
// rename (carried into the clips and object definitions that name the bone), a bone's default visibility and
// billboard mode, and the values of the objects hung at bones (mesh flags, proxies, lights, dazzles), each applied
// through the window's edit session as one undoable step and shown at once.
#pragma once

#include <QStringList>

class QWidget;

namespace rs::ui {

class EditSession;
class MainWindow;

// Connects the Bones panel's edit requests to `w`'s edit session (called once by the window).
void connectPanelEdits(MainWindow* w);

// Before files other than the document are saved (a bone rename changes the clips and object definitions that
// name the bone): a dialog lists them (EditSession::othersPrompt answers instead when set); true to save them all,
// false when the user cancels. True at once when `files` holds only the document.
bool confirmSavingOthers(QWidget* parent, EditSession* session, const QStringList& files);

} // namespace rs::ui
