#include "games_dialog.h"

#include "asset_browser_dock.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QStatusBar>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace rs::ui {

namespace {

constexpr int kKindRole = Qt::UserRole;      // 1 game, 2 mod
constexpr int kIndexRole = Qt::UserRole + 1; // index in Discovery::games / mods

QString str(const std::string& s) { return QFile::decodeName(QByteArray::fromStdString(s)); }

QStringList list(const std::vector<std::string>& v) {
    QStringList out;
    for (const std::string& s : v)
        out << str(s);
    return out;
}

} // namespace

GamesPanel::GamesPanel(QWidget* parent, const QString& home) : QWidget(parent), home_(home) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tree_ = new QTreeWidget(this);
    tree_->setHeaderLabels({tr("Name"), tr("Version / store"), tr("Folder")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->setRootIsDecorated(true);
    layout->addWidget(tree_, 1);
    status_ = new QLabel(tr("Looking for games (Steam, Flatpak Steam, Proton, Wine, Lutris, Bottles)…"), this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    connect(&watcher_, &QFutureWatcher<games::Discovery>::finished, this, [this] {
        found_ = watcher_.result();
        fill();
        emit filled();
    });
}

void GamesPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    search();
}

void GamesPanel::search() {
    if (started_) return;
    started_ = true;
    games::DiscoverOptions o;
    o.home = QFile::encodeName(home_).toStdString();
    watcher_.setFuture(QtConcurrent::run([o] { return games::discover(o); }));
}

GamesDialog::GamesDialog(QWidget* parent, const QString& home) : QDialog(parent) {
    setObjectName(QStringLiteral("gamesDialog"));
    setWindowTitle(tr("Games and mods"));
    resize(820, 480);
    auto* layout = new QVBoxLayout(this);
    panel_ = new GamesPanel(this, home);
    layout->addWidget(panel_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    mount_ = buttons->addButton(tr("&Mount"), QDialogButtonBox::AcceptRole);
    mount_->setToolTip(tr("Mount the selected game, or the selected mod with its dependencies over its game, in the "
                          "Assets panel (the games' own order: the mod first, then its dependencies, then the game)"));
    mount_->setEnabled(false);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mount_, &QPushButton::clicked, this, [this] {
        if (mountSelected()) accept();
    });
    QTreeWidget* tree = panel_->tree();
    connect(tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, kKindRole).toInt() != 0 && mountSelected()) accept();
    });
    connect(tree, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item) { mount_->setEnabled(item && item->data(0, kKindRole).toInt() != 0); });
    connect(panel_, &GamesPanel::mountRequested, this, &GamesDialog::mountRequested);
    panel_->search();
}

void GamesPanel::fill() {
    tree_->clear();
    auto* gamesItem = new QTreeWidgetItem(tree_, {tr("Games (%1)").arg(found_.games.size())});
    for (size_t i = 0; i < found_.games.size(); ++i) {
        const games::GameInstall& g = found_.games[i];
        QString store = str(g.store);
        if (!g.prefix.empty()) store += tr(" in %1").arg(str(g.prefix));
        auto* it = new QTreeWidgetItem(gamesItem, {QString::fromUtf8(rs::gameName(g.game)), store, str(g.root)});
        it->setData(0, kKindRole, 1);
        it->setData(0, kIndexRole, int(i));
        it->setToolTip(2, tr("Mounted in this order (first wins):\n%1").arg(list(g.mountFolders).join('\n')));
    }
    auto* modsItem = new QTreeWidgetItem(tree_, {tr("Mods (%1)").arg(found_.mods.size())});
    for (size_t i = 0; i < found_.mods.size(); ++i) {
        const games::ModInfo& m = found_.mods[i];
        QString name = str(m.name);
        if (!m.variant.empty()) name += tr(" (variant %1)").arg(str(m.variant));
        auto* it =
            new QTreeWidgetItem(modsItem, {name,
                                           tr("%1%2 · %3 · %4")
                                               .arg(m.version.empty() ? QString() : str(m.version) + " · ",
                                                    QString::fromUtf8(rs::gameId(m.game)), str(m.source), str(m.id)),
                                           str(m.folder)});
        it->setData(0, kKindRole, 2);
        it->setData(0, kIndexRole, int(i));
        const games::ModStack s = games::resolveMod(found_, m);
        QStringList order;
        for (const games::ModInfo* d : s.order)
            order << str(d->name);
        QString tip = m.summary.empty() ? QString() : str(m.summary) + QStringLiteral("\n\n");
        tip += tr("Mounted with: %1").arg(order.join(QStringLiteral(" → ")));
        if (!s.ok()) {
            tip += QStringLiteral("\n") + list(s.problems).join('\n');
            it->setForeground(0, QColor(220, 70, 60));
        }
        it->setToolTip(0, tip);
        it->setToolTip(1, tip);
    }
    tree_->expandAll();
    QString text = tr("%n game(s)", nullptr, int(found_.games.size())) + QStringLiteral(", ") +
                   tr("%n mod(s)", nullptr, int(found_.mods.size())) +
                   tr(" found (Steam roots: %1, libraries: %2, prefixes: %3).")
                       .arg(found_.steamRoots.size())
                       .arg(found_.libraries.size())
                       .arg(found_.prefixes.size());
    if (!found_.problems.empty())
        text += QStringLiteral("\n") + tr("Problems: %1").arg(list(found_.problems).join(QStringLiteral("; ")));
    status_->setText(text);
    // The remembered choice, else the first game, is selected.
    std::string gameId, modId;
    const std::string home = QFile::encodeName(home_.isEmpty() ? QDir::homePath() : home_).toStdString();
    if (!(games::recallChoice(home, gameId, modId) && select(QString::fromStdString(modId.empty() ? gameId : modId))) &&
        !found_.games.empty())
        tree_->setCurrentItem(gamesItem->child(0));
}

bool GamesPanel::select(const QString& idOrName) {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
        const int kind = (*it)->data(0, kKindRole).toInt();
        const size_t i = size_t((*it)->data(0, kIndexRole).toInt());
        const bool match = (kind == 1 && QString::fromUtf8(rs::gameId(found_.games[i].game)) == idOrName) ||
                           (kind == 2 && (str(found_.mods[i].id) == idOrName || str(found_.mods[i].name) == idOrName));
        if (match) {
            tree_->setCurrentItem(*it);
            return true;
        }
    }
    return false;
}

bool GamesPanel::mountSelected() {
    QTreeWidgetItem* item = tree_->currentItem();
    const int kind = item ? item->data(0, kKindRole).toInt() : 0;
    if (kind == 0) {
        status_->setText(tr("Select a game or a mod to mount."));
        return false;
    }
    const size_t i = size_t(item->data(0, kIndexRole).toInt());
    const games::ModInfo* mod = kind == 2 ? &found_.mods[i] : nullptr;
    const games::GameInstall* game = kind == 1 ? &found_.games[i] : games::pickGame(found_, mod);
    const games::MountChoice c = games::mountFor(found_, game, mod);
    if (!c.problems.empty()) {
        status_->setText(tr("Cannot mount %1: %2").arg(item->text(0), list(c.problems).join(QStringLiteral("; "))));
        return false;
    }
    QString what = game ? QString::fromUtf8(rs::gameName(game->game)) : tr("no game");
    if (mod) what = tr("%1 over %2").arg(str(mod->name), what);
    const std::string home = QFile::encodeName(home_.isEmpty() ? QDir::homePath() : home_).toStdString();
    games::rememberChoice(home, game ? rs::gameId(game->game) : "", mod ? mod->id : "");
    emit mountRequested(list(c.games), list(c.mods), what);
    return true;
}

void mountInWindow(QWidget* window, const QStringList& games, const QStringList& mods, const QString& what) {
    auto* assets = window->findChild<AssetBrowserDock*>();
    if (!assets) return;
    assets->mountFolders(games, mods);
    assets->show();
    assets->raise();
    if (auto* mw = qobject_cast<QMainWindow*>(window))
        mw->statusBar()->showMessage(QObject::tr("Mounted %1").arg(what), 8000);
}

void gamesDialog(QWidget* window) {
    auto* dlg = new GamesDialog(window, qEnvironmentVariable("HOME"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dlg, &GamesDialog::mountRequested, window,
                     [window](const QStringList& games, const QStringList& mods, const QString& what) {
                         mountInWindow(window, games, mods, what);
                     });
    dlg->show();
}

} // namespace rs::ui
