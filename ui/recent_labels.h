// Labels of a recent-files list (the start page and File → Open recent): the file's name, and where two entries
// have the same name (case ignored), "NAME — parent/folder" with as many trailing folders as it takes to tell that
// entry from the others of the name (as editors label tabs of files with one name).
#pragma once

#include <QStringList>

namespace rs::ui {

// One label per path, in order. Paths may use '/' or '\' and may be "ARCHIVE:entry/path" (the entry's folders
// count); an entry whose folders another entry of the name also ends with gets all of its folders.
QStringList recentLabels(const QStringList& paths);

} // namespace rs::ui
