#include "asset_browser_dock.h"

#include "vfs/lookup.h"

#include <QAbstractTableModel>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace rs::ui {

namespace {

bool isAsset(const std::string& key) {
    const size_t dot = key.rfind('.');
    if (dot == std::string::npos) return false;
    const std::string ext = key.substr(dot);
    for (const char* e : {".ALO", ".ALA", ".W3D", ".BWM", ".AL", ".DDS", ".TGA"})
        if (ext == e) return true;
    return false;
}

bool isOpenable(const std::string& key) {
    const size_t dot = key.rfind('.');
    const std::string ext = dot == std::string::npos ? std::string() : key.substr(dot);
    return ext == ".ALO" || ext == ".ALA" || ext == ".W3D" || ext == ".BWM" || ext == ".AL";
}

using vfs::globMatch;

} // namespace

// Rows: one per asset name (its winning source); the filter keeps a vector of row indices.
class AssetTableModel : public QAbstractTableModel {
  public:
    using QAbstractTableModel::QAbstractTableModel;

    void setTable(std::shared_ptr<const vfs::MountTable> t) {
        beginResetModel();
        table_ = std::move(t);
        rows_.clear();
        if (table_)
            table_->forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
                if (isAsset(key)) rows_.push_back({key, &hits});
            });
        std::sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
        visible_.clear();
        applyFilter();
        endResetModel();
    }

    void setFilter(const QString& text) {
        beginResetModel();
        filter_ = vfs::normalizePath(text.trimmed().toStdString());
        applyFilter();
        endResetModel();
    }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(visible_.size()); }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 4; }

    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
        static const char* names[] = {"Name", "Size", "Source", "Overrides"};
        return QObject::tr(names[section]);
    }

    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
        const Row& r = rows_[visible_[size_t(index.row())]];
        const vfs::Hit& h = r.hits->front();
        const vfs::Entry& e = table_->entry(h);
        switch (index.column()) {
        case 0:
            return QString::fromStdString(e.name);
        case 1:
            return QVariant::fromValue<qulonglong>(e.size);
        case 2:
            return QString::fromStdString(table_->mountOf(h).role + ": " + table_->mountOf(h).source->label());
        default: {
            QStringList over;
            for (size_t i = 1; i < r.hits->size(); ++i)
                over << QString::fromStdString(table_->describe((*r.hits)[i]));
            return over.join(QStringLiteral("; "));
        }
        }
    }

    QString pathAt(int row) const {
        if (row < 0 || size_t(row) >= visible_.size()) return {};
        return QString::fromStdString(table_->describe(rows_[visible_[size_t(row)]].hits->front()));
    }
    bool openableAt(int row) const {
        return row >= 0 && size_t(row) < visible_.size() && isOpenable(rows_[visible_[size_t(row)]].key);
    }
    size_t total() const { return rows_.size(); }

  private:
    struct Row {
        std::string key;
        const std::vector<vfs::Hit>* hits;
    };
    // Substring of the path, or a glob over the whole path or the file name alone.
    void applyFilter() {
        visible_.clear();
        const bool glob = filter_.find_first_of("*?") != std::string::npos;
        for (size_t i = 0; i < rows_.size(); ++i) {
            const std::string& k = rows_[i].key;
            bool keep = filter_.empty();
            if (!keep && !glob) keep = k.find(filter_) != std::string::npos;
            if (!keep && glob) {
                const size_t slash = k.rfind('/');
                keep = globMatch(filter_, k) || (slash != std::string::npos && globMatch(filter_, k.substr(slash + 1)));
            }
            if (keep) visible_.push_back(uint32_t(i));
        }
    }
    std::shared_ptr<const vfs::MountTable> table_;
    std::vector<Row> rows_;
    std::vector<uint32_t> visible_;
    std::string filter_;
};

AssetBrowserDock::AssetBrowserDock(QWidget* parent) : QDockWidget(tr("Assets"), parent) {
    setObjectName(QStringLiteral("assetBrowserDock"));
    auto* w = new QWidget(this);
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(2, 2, 2, 2);
    filter_ = new QLineEdit(w);
    filter_->setObjectName(QStringLiteral("assetFilter"));
    filter_->setPlaceholderText(tr("Filter: substring or glob (*, ?)"));
    filter_->setClearButtonEnabled(true);
    model_ = new AssetTableModel(this);
    view_ = new QTableView(w);
    view_->setObjectName(QStringLiteral("assetView"));
    view_->setModel(model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    status_ = new QLabel(tr("No game folder mounted (File → Open game or mod folder…)"), w);
    status_->setWordWrap(true);
    layout->addWidget(filter_);
    layout->addWidget(view_, 1);
    layout->addWidget(status_);
    setWidget(w);
    connect(filter_, &QLineEdit::textChanged, this, &AssetBrowserDock::setFilter);
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        if (model_->openableAt(i.row())) emit openRequested(model_->pathAt(i.row()));
    });
}

void AssetBrowserDock::setTable(std::shared_ptr<const vfs::MountTable> table, const QString& title) {
    model_->setTable(table);
    QString text = tr("%1: %2 assets").arg(title).arg(model_->total());
    if (table && !table->warnings.empty())
        text += tr(" (%1 warnings; first: %2)")
                    .arg(table->warnings.size())
                    .arg(QString::fromStdString(table->warnings.front()));
    status_->setText(text);
}

void AssetBrowserDock::mountFolders(const QStringList& games, const QStringList& mods, bool remember) {
    std::vector<std::string> g, m;
    for (const QString& s : games)
        g.push_back(s.toStdString());
    for (const QString& s : mods)
        m.push_back(s.toStdString());
    auto table = std::make_shared<vfs::MountTable>(vfs::mountInstall(g, m));
    vfs::setSessionMount(table);
    games_ = games;
    mods_ = mods;
    if (remember) {
        QSettings().setValue(QStringLiteral("gameFolders"), games);
        QSettings().setValue(QStringLiteral("modFolders"), mods);
    }
    QStringList names;
    for (const QString& s : games)
        names << QString::fromUtf8(vfs::gameName(vfs::detectGame(s.toStdString()).game));
    for (const QString& s : mods)
        names << tr("mod %1").arg(QFileInfo(s).fileName());
    setTable(table, names.join(QStringLiteral(" + ")));
}

void AssetBrowserDock::showArchive(const QString& path) {
    try {
        setTable(std::make_shared<vfs::MountTable>(vfs::mountSingle(path.toStdString())), QFileInfo(path).fileName());
    } catch (const ParseError& e) {
        QMessageBox::warning(this, tr("Cannot open archive"), QString::fromStdString(e.what()));
    }
}

void AssetBrowserDock::openFolderDialog() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open game or mod folder"));
    if (dir.isEmpty()) return;
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
}

void AssetBrowserDock::restore() {
    const QStringList g = QSettings().value(QStringLiteral("gameFolders")).toStringList();
    const QStringList m = QSettings().value(QStringLiteral("modFolders")).toStringList();
    if (!g.isEmpty() || !m.isEmpty()) mountFolders(g, m, false);
}

void AssetBrowserDock::setFilter(const QString& text) {
    if (filter_->text() != text)
        filter_->setText(text); // re-enters through textChanged
    else
        model_->setFilter(text);
}

int AssetBrowserDock::visibleCount() const { return model_->rowCount(); }
QString AssetBrowserDock::pathAt(int row) const { return model_->pathAt(row); }

} // namespace rs::ui
