#include "asset_grid_view.h"

#include "asset_tree_model.h"
#include "thumbnail_cache.h"
#include "thumbnail_service.h"

#include "resolve/resolver.h"

#include <QFileInfo>
#include <QFontMetrics>
#include <QPainter>
#include <QScrollBar>
#include <QStyledItemDelegate>

#include <algorithm>

namespace rs::ui {

namespace {

constexpr int kPathRole = Qt::UserRole + 1;
constexpr int kImageRole = Qt::UserRole + 2;
constexpr int kFailedRole = Qt::UserRole + 3;

// One cell: the picture (or a placeholder naming the file's kind) above the file name (two lines: gridCellLines).
class GridDelegate : public QStyledItemDelegate {
  public:
    GridDelegate(int size, QObject* parent) : QStyledItemDelegate(parent), size_(size) {}

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const override {
        return {size_ + 12, size_ + 2 * option.fontMetrics.height() + 12};
    }

    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const QRect r = option.rect.adjusted(2, 2, -2, -2);
        const bool selected = option.state & QStyle::State_Selected;
        if (selected) p->fillRect(r, option.palette.highlight());
        const QRect pic(r.x() + (r.width() - size_) / 2, r.y() + 3, size_, size_);
        const QImage img = index.data(kImageRole).value<QImage>();
        if (!img.isNull()) {
            p->drawImage(QPoint(pic.x() + (size_ - img.width()) / 2, pic.y() + (size_ - img.height()) / 2), img);
        } else {
            // Placeholder: a frame with the kind (extension); a failed picture is crossed out.
            const bool failed = index.data(kFailedRole).toBool();
            const QColor line = option.palette.color(QPalette::Mid);
            p->setPen(QPen(line, 1, failed ? Qt::SolidLine : Qt::DashLine));
            p->setBrush(Qt::NoBrush);
            p->drawRect(pic.adjusted(8, 8, -9, -9));
            if (failed) {
                p->drawLine(pic.topLeft() + QPoint(8, 8), pic.bottomRight() - QPoint(9, 9));
                p->drawLine(pic.topRight() + QPoint(-9, 8), pic.bottomLeft() + QPoint(8, -9));
            }
            const QString name = index.data(Qt::DisplayRole).toString();
            p->setPen(option.palette.color(QPalette::PlaceholderText));
            p->drawText(pic, Qt::AlignCenter, QFileInfo(name).suffix().toUpper());
        }
        const int lineHeight = option.fontMetrics.height();
        QRect text(r.x() + 2, pic.bottom() + 3, r.width() - 4, lineHeight);
        p->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
        for (const QString& line :
             gridCellLines(index.data(Qt::DisplayRole).toString(), option.fontMetrics, text.width())) {
            p->drawText(text, Qt::AlignHCenter | Qt::AlignTop, line);
            text.translate(0, lineHeight);
        }
    }

  private:
    int size_;
};

} // namespace

QStringList gridCellLines(const QString& name, const QFontMetrics& fm, int width) {
    if (fm.horizontalAdvance(name) <= width || name.size() < 2) return {name};
    // The longest start of `text` that fits (at least one character).
    auto fitting = [&](const QString& text) {
        int n = 1;
        while (n < text.size() && fm.horizontalAdvance(text.left(n + 1)) <= width)
            ++n;
        return n;
    };
    int first = fitting(name);
    // Break after a separator in the last third of the first line, when there is one.
    for (int i = first - 1; i >= std::max(1, first * 2 / 3); --i)
        if (QStringLiteral("_-. ").contains(name[i - 1])) {
            first = i;
            break;
        }
    const QString rest = name.mid(first);
    if (fm.horizontalAdvance(rest) <= width) return {name.left(first), rest};
    // Too long for two lines: the start, then "…" and as much of the end as fits, the extension always whole.
    const QString ellipsis = QStringLiteral("\u2026");
    const int dot = name.lastIndexOf(QLatin1Char('.'));
    const int extension = dot > 0 ? int(name.size()) - dot : 0;
    const int head = fitting(name);
    int tail = std::min<int>(std::max(extension, 1), int(name.size()) - 1);
    while (tail + 1 < int(name.size()) - head && fm.horizontalAdvance(ellipsis + name.right(tail + 1)) <= width)
        ++tail;
    return {name.left(head), ellipsis + name.right(tail)};
}

AssetGridModel::AssetGridModel(AssetTreeModel* tree, ThumbnailService* service, QObject* parent)
    : QAbstractListModel(parent), tree_(tree), service_(service) {
    connect(tree_, &QAbstractItemModel::modelReset, this, &AssetGridModel::refresh);
    connect(service_, &ThumbnailService::rowsReady, this, [this](const std::vector<int>& rows) {
        if (rows.empty()) return;
        const auto [lo, hi] = std::minmax_element(rows.begin(), rows.end());
        if (*hi < int(count_)) emit dataChanged(index(*lo), index(*hi), {kImageRole, kFailedRole});
    });
    refresh();
}

void AssetGridModel::setScope(const std::string& prefix) {
    if (prefix == scope_) return;
    scope_ = prefix;
    refresh();
}

void AssetGridModel::refresh() {
    beginResetModel();
    const auto [first, last] = tree_->visibleRangeWithPrefix(scope_);
    first_ = first;
    count_ = last - first;
    QStringList paths;
    paths.reserve(qsizetype(count_));
    for (size_t i = 0; i < count_; ++i)
        paths << tree_->visiblePath(first_ + i);
    service_->setItems(paths);
    endResetModel();
}

QString AssetGridModel::pathAt(int row) const {
    return row >= 0 && size_t(row) < count_ ? tree_->visiblePath(first_ + size_t(row)) : QString();
}

int AssetGridModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(count_); }

Qt::ItemFlags AssetGridModel::flags(const QModelIndex& index) const {
    return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

QVariant AssetGridModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= count_) return {};
    const size_t i = first_ + size_t(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return tree_->visibleName(i);
    case Qt::ToolTipRole: { // the whole name (the cell may show it shortened), then where it is
        const QString err = service_->error(index.row());
        const QString tip = tree_->visibleName(i) + "\n" + tree_->visiblePath(i);
        return err.isEmpty() ? tip : tip + "\n" + err;
    }
    case kPathRole:
        return tree_->visiblePath(i);
    case kImageRole:
        return service_->image(index.row());
    case kFailedRole:
        return service_->failed(index.row());
    default:
        return {};
    }
}

AssetGridView::AssetGridView(AssetTreeModel* tree, QWidget* parent, int threads, int size)
    : QListView(parent), service_(new ThumbnailService(threads, size, this)), pictureSize_(size) {
    setObjectName(QStringLiteral("assetGrid"));
    service_->setCache(std::make_shared<thumbs::ThumbnailCache>());
    model_ = new AssetGridModel(tree, service_, this);
    setModel(model_);
    setItemDelegate(new GridDelegate(size, this));
    // A static flow of equal cells: the list lays 20,000 of them out without asking each one's size.
    setViewMode(QListView::ListMode);
    setFlow(QListView::LeftToRight);
    setWrapping(true);
    setResizeMode(QListView::Adjust);
    setUniformItemSizes(true);
    setMovement(QListView::Static);
    setLayoutMode(QListView::SinglePass);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setGridSize(QSize(size + 16, size + 2 * fontMetrics().height() + 14)); // the name on up to two lines
    verticalScrollBar()->setSingleStep(24);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] { reportVisible(); });
    connect(this, &QListView::doubleClicked, this, [this](const QModelIndex& i) {
        const QString path = model_->pathAt(i.row());
        // Models, clips and AMAL banks on disk open in the viewer (as the tree's double-click); textures and banks
        // inside archives show only here.
        if (AssetTreeModel::isOpenablePath(path)) emit openRequested(path);
    });
}

AssetGridView::~AssetGridView() = default;

void AssetGridView::setTable(std::shared_ptr<const vfs::MountTable> table) {
    service_->setSource(table ? std::make_shared<Resolver>(table) : nullptr);
    // The tree model lists the new table's assets (before or after this call): list them again for the new source.
    model_->setScope({});
    model_->refresh();
}

void AssetGridView::setScope(const std::string& prefix) { model_->setScope(prefix); }

void AssetGridView::resizeEvent(QResizeEvent* e) {
    QListView::resizeEvent(e);
    reportVisible();
}

void AssetGridView::scrollContentsBy(int dx, int dy) {
    QListView::scrollContentsBy(dx, dy);
    reportVisible();
}

void AssetGridView::reportVisible() {
    const int n = model_->rowCount();
    int first = 0, last = -1;
    if (n > 0) {
        const QSize g = gridSize();
        const QRect vp = viewport()->rect();
        // The cell under the top-left corner (or the next line's first cell when the corner falls in a gap).
        QModelIndex top = indexAt(QPoint(g.width() / 2, 1));
        if (!top.isValid()) top = indexAt(QPoint(g.width() / 2, g.height() / 2));
        first = top.isValid() ? top.row() : 0;
        const int columns = std::max(1, vp.width() / std::max(1, g.width()));
        const int lines = vp.height() / std::max(1, g.height()) + 2;
        first -= first % columns;
        last = std::min(n - 1, first + lines * columns - 1);
    }
    first_ = first;
    last_ = last;
    service_->setVisibleRange(first, last);
}

} // namespace rs::ui
