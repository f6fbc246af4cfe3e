#include "compare_dock.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace rs::ui {
namespace {

constexpr int kIndexRole = Qt::UserRole + 1; // index into Summary::differences; -1 for other rows

QString sectionOf(compare::Category c) {
    using compare::Category;
    switch (c) {
    case Category::Bone:
        return QObject::tr("Bones");
    case Category::Mesh:
    case Category::SubMesh:
        return QObject::tr("Meshes");
    case Category::Material:
    case Category::Parameter:
        return QObject::tr("Materials");
    case Category::Texture:
        return QObject::tr("Textures");
    case Category::Light:
        return QObject::tr("Lights");
    case Category::Proxy:
        return QObject::tr("Proxies");
    case Category::Dazzle:
        return QObject::tr("Dazzles");
    case Category::Marker:
        return QObject::tr("Markers");
    case Category::Clip:
    case Category::Track:
        return QObject::tr("Clips");
    }
    return QObject::tr("Other");
}

QString text(const std::string& s) { return QString::fromStdString(s); }

// The row's "Difference" column: the description without the category and subject it starts with.
QString detailOf(const compare::Difference& d) {
    const std::string full = compare::describe(d);
    const std::string lead = std::string(compare::categoryName(d.category)) + " " + d.subject;
    std::string rest = full.rfind(lead, 0) == 0 ? full.substr(lead.size()) : full;
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == ':'))
        rest.erase(rest.begin());
    return QString::fromStdString(rest)
        .replace(QStringLiteral(" deg"), QStringLiteral("°"))
        .replace(QStringLiteral(" -> "), QStringLiteral(" → "));
}

} // namespace

DifferencesDock::DifferencesDock(QWidget* parent) : QDockWidget(tr("Differences"), parent) {
    setObjectName(QStringLiteral("DifferencesDock"));
    auto* w = new QWidget(this);
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(4, 4, 4, 4);
    header_ = new QLabel(w);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tree_ = new QTreeWidget(w);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Name"), tr("Difference")});
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    tree_->setWordWrap(false);
    tree_->header()->setStretchLastSection(true);
    layout->addWidget(header_);
    layout->addWidget(tree_, 1);
    setWidget(w);
    auto choose = [this](QTreeWidgetItem* item) {
        if (const compare::Difference* d = differenceOf(item)) emit differenceChosen(*d);
    };
    connect(tree_, &QTreeWidget::itemClicked, this, [choose](QTreeWidgetItem* item, int) { choose(item); });
    connect(tree_, &QTreeWidget::currentItemChanged, this,
            [choose](QTreeWidgetItem* item, QTreeWidgetItem*) { choose(item); });
}

void DifferencesDock::setSummary(const compare::Summary& summary, const QString& labelA, const QString& labelB) {
    summary_ = summary;
    QSignalBlocker block(tree_);
    tree_->clear();
    if (labelA.isEmpty() && labelB.isEmpty()) {
        header_->clear();
        return;
    }
    setCaptions(labelA, labelB);
    QTreeWidgetItem* section = nullptr;
    QString sectionName;
    for (size_t i = 0; i < summary_.differences.size(); ++i) {
        const compare::Difference& d = summary_.differences[i];
        if (!section || sectionOf(d.category) != sectionName) {
            sectionName = sectionOf(d.category);
            section = new QTreeWidgetItem(tree_, {sectionName});
            section->setData(0, kIndexRole, -1);
            section->setFirstColumnSpanned(true);
            QFont f = section->font(0);
            f.setBold(true);
            section->setFont(0, f);
        }
        auto* item = new QTreeWidgetItem(section, {text(d.subject), detailOf(d)});
        item->setData(0, kIndexRole, int(i));
        item->setToolTip(0, text(compare::describe(d)));
        item->setToolTip(1, text(compare::describe(d)));
    }
    // Per section, the number of rows.
    for (int s = 0; s < tree_->topLevelItemCount(); ++s) {
        QTreeWidgetItem* top = tree_->topLevelItem(s);
        top->setText(0, top->text(0) + QStringLiteral(" (%1)").arg(top->childCount()));
    }
    if (!summary_.clipPairs.empty()) {
        auto* pairs = new QTreeWidgetItem(tree_, {tr("Clips compared (%1)").arg(summary_.clipPairs.size())});
        pairs->setData(0, kIndexRole, -1);
        pairs->setFirstColumnSpanned(true);
        for (const compare::ClipPair& p : summary_.clipPairs) {
            QString largest;
            if (!p.largestAngleBone.empty())
                largest = tr("largest %1° at %2 (%3 s)")
                              .arg(p.largestAngle, 0, 'f', 2)
                              .arg(text(p.largestAngleBone))
                              .arg(p.largestAngleTime, 0, 'f', 3);
            auto* item =
                new QTreeWidgetItem(pairs, {tr("clip pair"), text(p.nameA) + QStringLiteral(" ↔ ") + text(p.nameB),
                                            tr("%1 / %2 frames").arg(p.framesA).arg(p.framesB) +
                                                (largest.isEmpty() ? QString() : QStringLiteral(", ") + largest)});
            item->setData(0, kIndexRole, -1);
        }
    }
    if (!summary_.notes.empty()) {
        auto* notes = new QTreeWidgetItem(tree_, {tr("Notes (%1)").arg(summary_.notes.size())});
        notes->setData(0, kIndexRole, -1);
        notes->setFirstColumnSpanned(true);
        for (const std::string& s : summary_.notes) {
            auto* item = new QTreeWidgetItem(notes, {text(s)});
            item->setData(0, kIndexRole, -1);
            item->setFirstColumnSpanned(true);
        }
    }
    tree_->expandAll();
    // The names' column as wide as the longest difference's name (section titles and notes span both columns),
    // at most 40% of the panel, so that the differences show beside them.
    int widest = 0;
    const QFontMetrics fm(tree_->font());
    for (QTreeWidgetItem* item : differenceItems())
        widest = std::max(widest, fm.horizontalAdvance(item->text(0)));
    tree_->setColumnWidth(
        0, std::min(widest + tree_->indentation() + 24, std::max(120, tree_->viewport()->width() * 2 / 5)));
}

void DifferencesDock::setCaptions(const QString& labelA, const QString& labelB) {
    const int n = int(summary_.differences.size());
    header_->setText(tr("A (left view): %1\nB (right view): %2\n%3")
                         .arg(labelA, labelB, n == 0 ? tr("Identical") : tr("%n difference(s)", nullptr, n)));
}

QList<QTreeWidgetItem*> DifferencesDock::differenceItems() const {
    QList<QTreeWidgetItem*> out;
    for (int s = 0; s < tree_->topLevelItemCount(); ++s) {
        QTreeWidgetItem* top = tree_->topLevelItem(s);
        for (int c = 0; c < top->childCount(); ++c)
            if (differenceOf(top->child(c))) out << top->child(c);
    }
    return out;
}

const compare::Difference* DifferencesDock::differenceOf(const QTreeWidgetItem* item) const {
    if (!item) return nullptr;
    const int i = item->data(0, kIndexRole).toInt();
    if (i < 0 || size_t(i) >= summary_.differences.size()) return nullptr;
    return &summary_.differences[size_t(i)];
}

} // namespace rs::ui
