// Shared by the GUI benches (save_latency, edit_show): the median of a sample, and the largest corpus Alamo model
// (RIGSCOPE_CORPUS_DIR must be defined by the target). Header-only; each bench is one executable.
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QString>

#include <algorithm>
#include <vector>

namespace rs::bench {

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// The largest *.alo under the corpus folder; empty when there is none.
inline QString largestCorpusModel() {
    QString best;
    qint64 size = -1;
    QDirIterator it(QStringLiteral(RIGSCOPE_CORPUS_DIR), {QStringLiteral("*.alo"), QStringLiteral("*.ALO")},
                    QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo f(it.next());
        if (f.size() > size) size = f.size(), best = f.absoluteFilePath();
    }
    return best;
}

} // namespace rs::bench
