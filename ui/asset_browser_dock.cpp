#include "asset_browser_dock.h"

#include "asset_grid_view.h"
#include "asset_tree_model.h"
#include "count_title.h"
#include "thumbnail_service.h"

#include "vfs/mount.h"

#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace rs::ui {

AssetBrowserDock::AssetBrowserDock(QWidget* parent) : QDockWidget(tr("Assets"), parent) {
    setObjectName(QStringLiteral("assetBrowserDock"));
    auto* w = new QWidget(this);
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(2, 2, 2, 2);
    filter_ = new QLineEdit(w);
    filter_->setObjectName(QStringLiteral("assetFilter"));
    filter_->setPlaceholderText(tr("Filter: substring or glob (*, ?)"));
    filter_->setClearButtonEnabled(true);
    model_ = new AssetTreeModel(this);
    view_ = new QTreeView(w);
    view_->setObjectName(QStringLiteral("assetView"));
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setUniformRowHeights(true); // no per-row size queries: large folders stay fast
    view_->header()->setStretchLastSection(true);
    // Names fit the panel: the Name column follows the visible width (size, source and overrides are scrolled
    // to), and a name too long for it keeps its end (EB_LIGHT…BUILD_00.ALA), which tells clips apart. Once the
    // user drags the column it keeps that width.
    view_->setIndentation(12);
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->setColumnWidth(AssetTreeModel::NameColumn, 220);
    view_->viewport()->installEventFilter(this);
    connect(view_->header(), &QHeaderView::sectionResized, this, [this](int section) {
        if (section == AssetTreeModel::NameColumn && !fittingName_) nameSized_ = true;
    });
    status_ = new QLabel(tr("No game folder mounted (File → Open game or mod folder…)"), w);
    status_->setObjectName(QStringLiteral("assetStatus"));
    status_->setWordWrap(true);
    gridButton_ = new QToolButton(w);
    gridButton_->setObjectName(QStringLiteral("assetGridButton"));
    gridButton_->setText(tr("Grid"));
    gridButton_->setCheckable(true);
    gridButton_->setToolTip(tr("Show pictures of the assets (made in the background, kept in ~/.cache/thumbnails)"));
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(filter_, 1);
    row->addWidget(gridButton_);
    split_ = new QSplitter(Qt::Vertical, w);
    split_->addWidget(view_);
    split_->setChildrenCollapsible(false);
    layout->addLayout(row);
    layout->addWidget(split_, 1);
    layout->addWidget(status_);
    connect(gridButton_, &QToolButton::toggled, this, &AssetBrowserDock::setGridMode);
    if (QSettings().value(QStringLiteral("assetGrid")).toBool()) setGridMode(true);
    setWidget(w);
    connect(filter_, &QLineEdit::textChanged, this, &AssetBrowserDock::setFilter);
    connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        if (model_->isOpenable(i)) emit openRequested(model_->pathOf(i));
    });
}

void AssetBrowserDock::setTable(std::shared_ptr<const vfs::MountTable> table, const QString& title) {
    table_ = table;
    if (grid_) grid_->setTable(table);
    model_->setTable(table);
    if (model_->visibleFiles() <= kExpandLimit) view_->expandAll();
    QString text = tr("%1: %2 assets").arg(title).arg(model_->total());
    // Archives hold more than assets: say so, or "0 assets" reads as an empty archive.
    if (table && table->size() > model_->total())
        text = tr("%1: %2 assets (models, clips, AMAL banks, textures) of %3 files")
                   .arg(title)
                   .arg(model_->total())
                   .arg(table->size());
    if (table && !table->warnings.empty())
        text += tr(" (%1 warnings; first: %2)")
                    .arg(table->warnings.size())
                    .arg(QString::fromStdString(table->warnings.front()));
    statusBase_ = text;
    updateCounts();
}

void AssetBrowserDock::updateCounts() {
    if (!table_) {
        setWindowTitle(tr("Assets"));
        if (!statusBase_.isEmpty()) status_->setText(statusBase_);
        return;
    }
    const size_t shown = model_->visibleFiles(), total = model_->total();
    setWindowTitle(countTitle(tr("Assets"), qint64(shown), qint64(total)));
    status_->setText(shown == total ? statusBase_ : tr("%1; %2 shown").arg(statusBase_).arg(shown));
}

void AssetBrowserDock::mountFolders(const QStringList& games, const QStringList& mods, bool remember) {
    std::vector<std::string> g, m;
    for (const QString& s : games)
        g.push_back(s.toStdString());
    for (const QString& s : mods)
        m.push_back(s.toStdString());
    auto table = std::make_shared<vfs::MountTable>(vfs::mountInstall(g, m));
    emit mounted(table);
    games_ = games;
    mods_ = mods;
    if (remember) {
        QSettings().setValue(QStringLiteral("gameFolders"), games);
        QSettings().setValue(QStringLiteral("modFolders"), mods);
    }
    QStringList names, gameNames, modNames;
    for (const QString& s : games)
        gameNames << QString::fromUtf8(rs::gameName(vfs::detectGame(s.toStdString()).game));
    for (const QString& s : mods)
        modNames << tr("mod %1").arg(QFileInfo(s).fileName());
    names << gameNames << modNames;
    setTable(table, names.join(QStringLiteral(" + ")));
    QLocale locale; // 12,345 also where the locale would leave out the group separator (C)
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    const QString files = tr("%1 files").arg(locale.toString(qulonglong(table->size())));
    if (!modNames.isEmpty() && !gameNames.isEmpty())
        mountSummary_ = tr("Mounted %1 over %2: %3")
                            .arg(modNames.join(QStringLiteral(" + ")), gameNames.join(QStringLiteral(" + ")), files);
    else if (!modNames.isEmpty())
        mountSummary_ = tr("Mounted %1 (no game under it): %2").arg(modNames.join(QStringLiteral(" + ")), files);
    else
        mountSummary_ = tr("Mounted %1: %2").arg(gameNames.join(QStringLiteral(" + ")), files);
}

void AssetBrowserDock::showArchive(const QString& path) {
    try {
        setTable(std::make_shared<vfs::MountTable>(vfs::mountSingle(path.toStdString())), QFileInfo(path).fileName());
    } catch (const ParseError& e) {
        QMessageBox::warning(this, tr("Cannot open archive"), QString::fromStdString(e.what()));
    }
}

bool AssetBrowserDock::openFolderDialog() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open game or mod folder"));
    if (dir.isEmpty()) return false;
    const vfs::Detected d = vfs::detectGame(dir.toStdString());
    if (d.mod && !games_.isEmpty())
        mountFolders(games_, QStringList{dir} + mods_);
    else if (d.mod)
        mountFolders({}, {dir});
    else {
        // A second game of the same engine stacks (FoC + EaW, Zero Hour + Generals, RotWK + BFME2): mountInstall
        // puts the expansion first. Another engine replaces the mount.
        QStringList g{dir};
        for (const QString& old : games_) {
            const vfs::Detected o = vfs::detectGame(old.toStdString());
            if (o.alamoLayout == d.alamoLayout && o.game != d.game) g << old;
        }
        mountFolders(g, g.size() > 1 ? mods_ : QStringList{});
    }
    return true;
}

void AssetBrowserDock::restore() {
    const QStringList g = QSettings().value(QStringLiteral("gameFolders")).toStringList();
    const QStringList m = QSettings().value(QStringLiteral("modFolders")).toStringList();
    if (!g.isEmpty() || !m.isEmpty()) mountFolders(g, m, false);
}

void AssetBrowserDock::setFilter(const QString& text) {
    if (filter_->text() != text) {
        filter_->setText(text); // re-enters through textChanged
        return;
    }
    model_->setFilter(text);
    expandSmallResults();
    updateCounts();
}

void AssetBrowserDock::expandSmallResults() {
    // Few matches: show them all; many: keep folders collapsed (expanding thousands of rows is what costs).
    if (!filter_->text().trimmed().isEmpty() && model_->visibleFiles() <= kExpandLimit) view_->expandAll();
}

void AssetBrowserDock::setGridMode(bool on) {
    if (gridButton_->isChecked() != on) {
        gridButton_->setChecked(on); // re-enters through toggled
        return;
    }
    QSettings().setValue(QStringLiteral("assetGrid"), on);
    if (on && !grid_) {
        grid_ = new AssetGridView(model_, split_);
        split_->addWidget(grid_);
        split_->setStretchFactor(0, 1);
        split_->setStretchFactor(1, 3);
        grid_->setTable(table_);
        connect(grid_, &AssetGridView::openRequested, this, &AssetBrowserDock::openRequested);
        // The folder chosen in the tree (or the folder of the file chosen) scopes the grid.
        connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, grid_,
                [this](const QModelIndex& current) { grid_->setScope(model_->folderPrefix(current)); });
    }
    if (grid_) {
        grid_->setVisible(on);
        grid_->service()->setPaused(!on);
    }
}

bool AssetBrowserDock::gridMode() const { return gridButton_->isChecked(); }

int AssetBrowserDock::visibleCount() const { return int(model_->visibleFiles()); }
QString AssetBrowserDock::pathAt(int row) const { return model_->visiblePath(size_t(row)); }
QModelIndex AssetBrowserDock::indexAt(int row) const { return model_->visibleIndex(size_t(row)); }

bool AssetBrowserDock::eventFilter(QObject* watched, QEvent* e) {
    if (watched == view_->viewport() && e->type() == QEvent::Resize && !nameSized_) {
        fittingName_ = true;
        view_->setColumnWidth(AssetTreeModel::NameColumn, std::max(120, view_->viewport()->width()));
        fittingName_ = false;
    }
    return QDockWidget::eventFilter(watched, e);
}

} // namespace rs::ui
