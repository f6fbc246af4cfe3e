#include "objects_dock.h"

#include "count_title.h"

#include <QDir>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace rs::ui {

namespace {
constexpr int kRankRole = Qt::UserRole + 1;      // set on the rank rows of the group list
constexpr int kParticlesRole = Qt::UserRole + 2; // set on the name item of particle system rows
}

ObjectsDock::ObjectsDock(QWidget* parent) : QDockWidget(tr("Objects"), parent) {
    setObjectName(QStringLiteral("objectsDock"));
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(2, 2, 2, 2);
    filter_ = new QLineEdit(w);
    filter_->setPlaceholderText(tr("Filter objects (name, type, side)"));
    filter_->setClearButtonEnabled(true);
    model_ = new QStandardItemModel(0, 4, this);
    model_->setHorizontalHeaderLabels({tr("Object"), tr("Type"), tr("Side"), tr("Parent")});
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);
    view_ = new QTreeView(w);
    view_->setModel(proxy_);
    view_->setRootIsDecorated(false);
    view_->setUniformRowHeights(true);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setSortingEnabled(true);
    view_->sortByColumn(-1, Qt::AscendingOrder);
    view_->header()->setSectionResizeMode(QHeaderView::Interactive);
    view_->setColumnWidth(0, 170);
    view_->setColumnWidth(1, 90);
    view_->setColumnWidth(2, 70);
    status_ = new QLabel(tr("Open a game or mod folder (File → Open game or mod folder…) to list its objects."), w);
    status_->setObjectName(QStringLiteral("objectsStatus"));
    status_->setWordWrap(true);
    mountLayout_ = new QPushButton(tr("Mount these folders"), w);
    mountLayout_->setToolTip(tr("Mount the folders named above together as the mod (the game folders stay)"));
    mountLayout_->hide();
    groupTitle_ = new QLabel(w);
    groupTitle_->setWordWrap(true);
    groupTitle_->hide();
    group_ = new QTreeWidget(w);
    group_->setObjectName(QStringLiteral("objectGroup"));
    group_->setHeaderLabels({tr("Member"), tr("Formation")});
    group_->setRootIsDecorated(true);
    group_->setToolTip(tr("Double-click a member to open it"));
    group_->hide();
    v->addWidget(filter_);
    v->addWidget(view_, 3);
    v->addWidget(groupTitle_);
    v->addWidget(group_, 2);
    v->addWidget(status_);
    v->addWidget(mountLayout_);
    setWidget(w);
    connect(mountLayout_, &QPushButton::clicked, this, [this] { emit mountRequested(layoutFolders()); });
    auto openMember = [this](QTreeWidgetItem* item) {
        const QString name = item ? item->data(0, Qt::UserRole).toString() : QString();
        if (!name.isEmpty()) emit objectRequested(name);
    };
    // itemActivated comes with a double-click (and Enter): listening to both opened a member twice.
    connect(group_, &QTreeWidget::itemActivated, this, [openMember](QTreeWidgetItem* i, int) { openMember(i); });

    connect(filter_, &QLineEdit::textChanged, this, &ObjectsDock::setFilter);
    auto open = [this](const QModelIndex& i) {
        if (!i.isValid()) return;
        const QModelIndex name = proxy_->index(i.row(), 0);
        if (name.data(kParticlesRole).toBool())
            emit particleSystemRequested(name.data().toString());
        else
            emit objectRequested(name.data().toString());
    };
    // activated comes with a double-click (and Enter); listening to doubleClicked too requested everything twice.
    connect(view_, &QTreeView::activated, this, open);
    connect(&watcher_, &QFutureWatcher<Loaded>::finished, this, &ObjectsDock::showLoaded);
}

ObjectsDock::~ObjectsDock() { watcher_.waitForFinished(); }

void ObjectsDock::setMount(std::shared_ptr<const vfs::MountTable> table) {
    pending_ = table;
    if (!table) {
        watcher_.waitForFinished();
        table_.reset();
        db_.reset();
        fx_.reset();
        model_->removeRows(0, model_->rowCount());
        indexing_ = false;
        setWindowTitle(tr("Objects"));
        return;
    }
    indexing_ = true;
    status_->setText(tr("Indexing the objects of the mounted folders…"));
    if (watcher_.isRunning()) return; // showLoaded starts the newest pending table
    watcher_.setFuture(QtConcurrent::run([table] {
        Loaded l;
        l.table = table;
        try {
            l.db = objects::ObjectDb::load(*table);
            if (l.db->family() == objects::ObjectDb::Family::None) l.layout = objects::findModLayout(*table);
            if (l.db->family() == objects::ObjectDb::Family::Sage) l.fx = objects::loadSageFx(*table);
        } catch (const std::exception& e) {
            l.error = QString::fromStdString(e.what());
        }
        return l;
    }));
}

void ObjectsDock::showLoaded() {
    const Loaded l = watcher_.result();
    if (pending_ != l.table) { // mounted again meanwhile: index the newest
        auto next = pending_;
        pending_.reset();
        setMount(next);
        return;
    }
    table_ = l.table;
    db_ = l.db;
    fx_ = l.fx;
    layout_ = l.layout;
    indexing_ = false;
    mountLayout_->setVisible(!layout_.definitionFolders.empty());
    clearGroup();
    model_->removeRows(0, model_->rowCount());
    if (!db_) {
        status_->setText(tr("Could not index the objects: %1").arg(l.error));
        emit indexed(0);
        return;
    }
    model_->setRowCount(int(db_->objects().size()));
    int row = 0;
    for (const objects::ObjectSummary& o : db_->objects()) {
        auto* name = new QStandardItem(QString::fromStdString(o.name));
        name->setToolTip(QString::fromStdString(o.pos.str()));
        model_->setItem(row, 0, name);
        model_->setItem(row, 1, new QStandardItem(QString::fromStdString(o.type)));
        model_->setItem(row, 2, new QStandardItem(QString::fromStdString(o.side)));
        QString parent = QString::fromStdString(o.parent);
        auto* p = new QStandardItem;
        if (!o.parent.empty() && !db_->find(o.parent)) {
            parent += tr(" (not mounted)");
            p->setForeground(QColor(220, 120, 90));
            p->setToolTip(tr("The parent is defined in files the mounted folders do not hold (the base game?)"));
        }
        p->setText(parent);
        model_->setItem(row++, 3, p);
    }
    if (fx_) {
        const std::vector<std::string> systems = fx_->systemNames();
        model_->setRowCount(row + int(systems.size()));
        for (const std::string& n : systems) {
            auto* name = new QStandardItem(QString::fromStdString(n));
            name->setData(true, kParticlesRole);
            name->setToolTip(tr("Particle system: double-click to play it on its own"));
            model_->setItem(row, 0, name);
            model_->setItem(row, 1, new QStandardItem(QStringLiteral("ParticleSystem")));
            model_->setItem(row, 2, new QStandardItem);
            model_->setItem(row++, 3, new QStandardItem);
        }
    }
    updateCounts();
    emit indexed(int(db_->objects().size()));
}

QString ObjectsDock::statusText() const {
    if (!db_) return status_->text();
    if (db_->family() == objects::ObjectDb::Family::None) {
        QString s = tr("No object database in the mounted folders (neither Data/XML/GameObjectFiles.xml nor "
                       "data/ini/object/ at their top).");
        auto native = [](const std::vector<std::string>& v) {
            QStringList l;
            for (const std::string& f : v)
                l << QDir::toNativeSeparators(QString::fromStdString(f));
            return l.join(QStringLiteral(", "));
        };
        if (!layout_.definitionFolders.empty()) {
            s +=
                tr(" The mod is laid out as sources: its definitions are in %1").arg(native(layout_.definitionFolders));
            if (!layout_.artFolders.empty()) s += tr(" and its art in %1").arg(native(layout_.artFolders));
            s += tr(". Mount them together as the mod.");
        }
        return s;
    }
    QString s = tr("%n object(s) in %1 files", nullptr, int(db_->objects().size())).arg(db_->filesRead().size());
    if (!db_->filesMissing().empty())
        s += tr("; %n listed file(s) not in the mounted folders", nullptr, int(db_->filesMissing().size()));
    if (fx_ && fx_->systemCount() > 0) s += tr("; %n particle system(s)", nullptr, int(fx_->systemCount()));
    if (!db_->errors().empty()) s += tr("; %n file error(s)", nullptr, int(db_->errors().size()));
    if (proxy_->rowCount() != model_->rowCount()) s += tr("; %1 shown").arg(proxy_->rowCount());
    return s;
}

QStringList ObjectsDock::layoutFolders() const {
    QStringList out;
    if (layout_.definitionFolders.empty()) return out;
    for (const auto* list : {&layout_.definitionFolders, &layout_.artFolders})
        for (const std::string& f : *list)
            out << QString::fromStdString(f);
    return out;
}

void ObjectsDock::setGroup(const QString& object, const std::vector<objects::Member>& members,
                           const std::vector<objects::Rank>& ranks) {
    group_->clear();
    const bool any = !members.empty() || !ranks.empty();
    groupTitle_->setVisible(any);
    group_->setVisible(any);
    if (!any) return;
    groupTitle_->setText(
        tr("%1 has no model of its own: its members are other objects (double-click one to open it).").arg(object));
    for (const objects::Member& m : members) {
        auto* item = new QTreeWidgetItem(group_);
        const QString name = QString::fromStdString(m.object);
        item->setText(0, m.count > 0 ? tr("%1 × %2").arg(name).arg(m.count) : name);
        item->setText(1, QString::fromStdString(m.where));
        item->setData(0, Qt::UserRole, name);
        if (!m.found) {
            item->setForeground(0, QColor(220, 120, 90));
            item->setToolTip(0, tr("Not defined in the mounted folders"));
        }
    }
    for (const objects::Rank& r : ranks) {
        auto* item = new QTreeWidgetItem(group_);
        const QString type = QString::fromStdString(r.unitType);
        item->setText(0, tr("rank %1: %2").arg(r.number).arg(type));
        item->setText(1, tr("%n position(s)", nullptr, int(r.positions.size())));
        item->setData(0, Qt::UserRole, type);
        item->setData(0, kRankRole, true);
        for (const auto& [x, y] : r.positions) {
            auto* p = new QTreeWidgetItem(item);
            p->setText(0, type);
            p->setText(1, QStringLiteral("X %1, Y %2").arg(double(x)).arg(double(y)));
            p->setData(0, Qt::UserRole, type);
        }
    }
    group_->resizeColumnToContents(0);
}

QStringList ObjectsDock::groupMembers() const {
    QStringList out;
    for (int i = 0; i < group_->topLevelItemCount(); ++i)
        if (!group_->topLevelItem(i)->data(0, kRankRole).toBool())
            out << group_->topLevelItem(i)->data(0, Qt::UserRole).toString();
    return out;
}

QStringList ObjectsDock::groupRanks() const {
    QStringList out;
    for (int i = 0; i < group_->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* it = group_->topLevelItem(i);
        if (!it->data(0, kRankRole).toBool()) continue;
        QString line = it->text(0) + tr(" at");
        for (int k = 0; k < it->childCount(); ++k)
            line += QStringLiteral(" (%1)").arg(it->child(k)->text(1));
        out << line;
    }
    return out;
}

void ObjectsDock::setFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text); // comes back here through textChanged
    proxy_->setFilterFixedString(text);
    updateCounts();
}

void ObjectsDock::updateCounts() {
    if (!db_) {
        setWindowTitle(tr("Objects"));
        return;
    }
    setWindowTitle(countTitle(tr("Objects"), proxy_->rowCount(), model_->rowCount()));
    status_->setText(statusText());
}

int ObjectsDock::visibleCount() const { return proxy_->rowCount(); }

QString ObjectsDock::nameAt(int row) const { return proxy_->index(row, 0).data().toString(); }

} // namespace rs::ui
