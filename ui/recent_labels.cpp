#include "recent_labels.h"

#include <QHash>

#include <algorithm>

namespace rs::ui {

namespace {
// The folders of `path` from the outermost, and its name (the last part).
QStringList partsOf(const QString& path) {
    QString p = path;
    p.replace(QLatin1Char('\\'), QLatin1Char('/'));
    QStringList parts = p.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return parts;
}
QString suffix(const QStringList& folders, int depth) {
    const int n = std::min<int>(depth, int(folders.size()));
    return QStringList(folders.mid(folders.size() - n)).join(QLatin1Char('/'));
}
} // namespace

QStringList recentLabels(const QStringList& paths) {
    QStringList names;
    QList<QStringList> folders;
    QHash<QString, QList<int>> byName;
    for (int i = 0; i < paths.size(); ++i) {
        QStringList parts = partsOf(paths[i]);
        const QString name = parts.isEmpty() ? paths[i] : parts.takeLast();
        names << name;
        folders << parts;
        byName[name.toLower()] << i;
    }
    QStringList out = names;
    for (auto it = byName.cbegin(); it != byName.cend(); ++it) {
        const QList<int>& group = it.value();
        if (group.size() < 2) continue;
        // Each entry: the fewest trailing folders that no other entry of the name ends with (all of its folders
        // at worst).
        for (int i : group) {
            int depth = 1;
            for (; depth < int(folders[i].size()); ++depth) {
                const QString mine = suffix(folders[i], depth).toLower();
                bool clash = false;
                for (int j : group)
                    clash = clash || (j != i && suffix(folders[j], depth).toLower() == mine);
                if (!clash) break;
            }
            const QString where = suffix(folders[i], depth);
            out[i] = where.isEmpty() ? names[i] : QStringLiteral("%1 — %2").arg(names[i], where);
        }
    }
    return out;
}

} // namespace rs::ui
