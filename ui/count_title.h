// A panel's title with the count of what its list shows: "Objects (340)", or "Objects (12 of 340)" while a filter
// hides some. The title of a dock is also its tab's text and its View menu entry's.
#pragma once

#include <QCoreApplication>
#include <QString>

namespace rs::ui {

inline QString countTitle(const QString& name, qint64 shown, qint64 total) {
    if (shown == total) return QStringLiteral("%1 (%2)").arg(name).arg(total);
    return QCoreApplication::translate("rs::ui::countTitle", "%1 (%2 of %3)").arg(name).arg(shown).arg(total);
}

} // namespace rs::ui
