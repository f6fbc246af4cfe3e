#include "objects_dock.h"

#include "count_title.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace rs::ui {

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
    v->addWidget(filter_);
    v->addWidget(view_, 1);
    v->addWidget(status_);
    setWidget(w);

    connect(filter_, &QLineEdit::textChanged, this, &ObjectsDock::setFilter);
    auto open = [this](const QModelIndex& i) {
        if (!i.isValid()) return;
        emit objectRequested(proxy_->index(i.row(), 0).data().toString());
    };
    connect(view_, &QTreeView::doubleClicked, this, open);
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
    indexing_ = false;
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
    updateCounts();
    emit indexed(int(db_->objects().size()));
}

QString ObjectsDock::statusText() const {
    if (!db_) return status_->text();
    if (db_->family() == objects::ObjectDb::Family::None)
        return tr("No object database in the mounted folders (neither Data/XML/GameObjectFiles.xml nor "
                  "data/ini/object/).");
    QString s = tr("%n object(s) in %1 files", nullptr, int(db_->objects().size())).arg(db_->filesRead().size());
    if (!db_->filesMissing().empty())
        s += tr("; %n listed file(s) not in the mounted folders", nullptr, int(db_->filesMissing().size()));
    if (!db_->errors().empty()) s += tr("; %n file error(s)", nullptr, int(db_->errors().size()));
    if (proxy_->rowCount() != model_->rowCount()) s += tr("; %1 shown").arg(proxy_->rowCount());
    return s;
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
