#include "problems_dock.h"

#include "count_title.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>

namespace rs::ui {

namespace {

QString qs(const std::string& s) { return QString::fromUtf8(s.data(), int(s.size())); }

enum Role { FileRole = Qt::UserRole + 1, BoneRole, MaterialRole, MeshRole, SubMeshRole, ObjectRole, IdRole };

} // namespace

ProblemsDock::ProblemsDock(QWidget* parent) : QDockWidget(tr("Problems"), parent) {
    setObjectName(QStringLiteral("problemsDock"));
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    checkMount_ = new QPushButton(tr("Check game and mod"), w);
    checkFile_ = new QPushButton(tr("Check open file"), w);
    cancel_ = new QPushButton(tr("Cancel"), w);
    cancel_->setEnabled(false);
    level_ = new QComboBox(w);
    level_->addItem(tr("Errors, warnings and notes"), int(check::Level::Info));
    level_->addItem(tr("Errors and warnings"), int(check::Level::Warning));
    level_->addItem(tr("Errors"), int(check::Level::Error));
    progress_ = new QProgressBar(w);
    progress_->setVisible(false);
    filter_ = new QLineEdit(w);
    filter_->setObjectName(QStringLiteral("problemsFilter"));
    filter_->setPlaceholderText(tr("Filter: check id or text"));
    filter_->setToolTip(tr("Shows the findings whose check id, file, location or message hold every word"));
    filter_->setClearButtonEnabled(true);
    group_ = new QComboBox(w);
    group_->setObjectName(QStringLiteral("problemsGroup"));
    group_->addItem(tr("By file"));
    group_->addItem(tr("By check"));
    group_->setToolTip(tr("Group the findings by file or by check id"));
    // One row, as before the filter: a second row would make the dock (and the timeline tabbed with it) taller.
    bar->addWidget(checkMount_);
    bar->addWidget(checkFile_);
    bar->addWidget(cancel_);
    bar->addWidget(level_);
    bar->addWidget(group_);
    bar->addWidget(filter_, 1);
    bar->addWidget(progress_, 1);
    v->addLayout(bar);
    summary_ = new QLabel(tr("Not checked yet."), w);
    v->addWidget(summary_);
    tree_ = new QTreeWidget(w);
    tree_->setColumnCount(4);
    tree_->setHeaderLabels({tr("File / level"), tr("Check"), tr("Where"), tr("Message")});
    tree_->setUniformRowHeights(true);
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    tree_->setColumnWidth(0, 300); // game paths ("DATA/ART/MODELS/...") and the level, readable before the message
    tree_->setColumnWidth(1, 190);
    tree_->setColumnWidth(2, 170);
    v->addWidget(tree_, 1);
    setWidget(w);

    connect(checkMount_, &QPushButton::clicked, this, [this] { runCheck(true); });
    connect(checkFile_, &QPushButton::clicked, this, [this] { runCheck(false); });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        if (cancelFlag_) cancelFlag_->store(true);
    });
    connect(level_, &QComboBox::currentIndexChanged, this, [this] { showReport(); });
    connect(group_, &QComboBox::currentIndexChanged, this, [this] { showReport(); });
    connect(filter_, &QLineEdit::textChanged, this, [this] { showReport(); });
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) { activate(item); });
    connect(&watcher_, &QFutureWatcher<check::Report>::finished, this, [this] {
        report_ = watcher_.result();
        checked_ = true;
        progress_->setVisible(false);
        cancel_->setEnabled(false);
        checkMount_->setEnabled(resolver_ && resolver_->mounted());
        checkFile_->setEnabled(!current_.isEmpty());
        showReport();
        emit finished();
    });
    // View -> Problems (toggleViewAction): the dock comes to the front of the docks it is tabified with and its
    // list takes the keyboard focus. Open but behind another tab (Qt keeps such a dock "visible", moved out of
    // sight; visibilityChanged tells when its tab is selected or not), it is brought to the front instead of
    // closed. QAction::activate emits toggled before triggered, and QDockWidget closes the dock on triggered:
    // `toggled` still sees whether the open dock was in front.
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool shown) { inFront_ = shown; });
    QAction* toggle = toggleViewAction();
    connect(toggle, &QAction::toggled, this, [this](bool on) { behindTab_ = !on && !isHidden() && !inFront_; });
    connect(toggle, &QAction::triggered, this, [this](bool on) {
        if (!on && !behindTab_) return;
        behindTab_ = false;
        if (isHidden()) show();
        raise();
        tree_->setFocus(Qt::ShortcutFocusReason);
    });
    setResolver(nullptr);
}

ProblemsDock::~ProblemsDock() {
    if (cancelFlag_) cancelFlag_->store(true);
    watcher_.waitForFinished();
}

void ProblemsDock::setResolver(std::shared_ptr<const Resolver> resolver) {
    resolver_ = std::move(resolver);
    if (!running()) checkMount_->setEnabled(resolver_ && resolver_->mounted());
}

void ProblemsDock::setCurrentFile(const QString& path) {
    current_ = path;
    if (!running()) checkFile_->setEnabled(!current_.isEmpty());
}

void ProblemsDock::runCheck(bool mount) {
    if (!resolver_ || (mount && !resolver_->mounted()) || (!mount && current_.isEmpty())) return;
    startCheck(mount, {current_});
}

void ProblemsDock::checkFiles(const QStringList& files) {
    if (!resolver_ || files.isEmpty()) return;
    startCheck(false, files);
}

void ProblemsDock::startCheck(bool mount, const QStringList& files) {
    if (cancelFlag_) cancelFlag_->store(true);
    watcher_.waitForFinished();
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    progress_->setRange(0, 0);
    progress_->setValue(0);
    progress_->setVisible(true);
    cancel_->setEnabled(true);
    checkMount_->setEnabled(false);
    checkFile_->setEnabled(false);
    summary_->setText(mount ? tr("Checking the mounted folders…") : tr("Checking %1…").arg(files.join(QStringLiteral(", "))));
    check::Options o;
    o.cancel = cancelFlag_.get();
    QPointer<QProgressBar> bar = progress_;
    o.progress = [bar](size_t done, size_t total) { // worker threads: hand over to the GUI thread
        QMetaObject::invokeMethod(
            bar,
            [bar, done, total] {
                if (!bar) return;
                bar->setRange(0, int(total));
                bar->setValue(int(done));
            },
            Qt::QueuedConnection);
    };
    auto resolver = resolver_;
    auto flag = cancelFlag_; // kept alive by the task
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(QFile::encodeName(f).toStdString());
    watcher_.setFuture(QtConcurrent::run([resolver, o, flag, mount, paths] {
        return mount ? check::checkMount(*resolver, o) : check::checkPaths(*resolver, paths, o);
    }));
}

void ProblemsDock::setFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text); // shows the report through textChanged
}

void ProblemsDock::setGroupByCheck(bool on) { group_->setCurrentIndex(on ? 1 : 0); }

bool ProblemsDock::passes(const check::Finding& f, check::Level minLevel, const QStringList& words) const {
    if (f.level < minLevel) return false;
    if (words.isEmpty()) return true;
    const QString text = qs(f.id) + QLatin1Char('\n') + qs(f.file) + QLatin1Char('\n') + qs(f.key) + QLatin1Char('\n') +
                         qs(f.where.str()) + QLatin1Char('\n') + qs(f.where.object) + QLatin1Char('\n') + qs(f.message);
    for (const QString& w : words)
        if (!text.contains(w, Qt::CaseInsensitive)) return false;
    return true;
}

void ProblemsDock::showReport() {
    tree_->setUpdatesEnabled(false);
    tree_->clear();
    const auto minLevel = check::Level(level_->currentData().toInt());
    const QStringList words = filter_->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const bool byCheck = group_->currentIndex() == 1;
    tree_->setHeaderLabels(byCheck ? QStringList{tr("Check / level"), tr("File"), tr("Where"), tr("Message")}
                                   : QStringList{tr("File / level"), tr("Check"), tr("Where"), tr("Message")});
    // Groups made when their first finding passes the filters, listed in the report's order (by file: files
    // sorted) or in the catalog's (by check: the order of docs/CHECKS.md).
    std::map<std::string, QTreeWidgetItem*> groups;
    std::vector<QTreeWidgetItem*> order;
    size_t byLevel[3] = {0, 0, 0};
    shown_ = 0;
    for (const check::Finding& f : report_.findings) {
        if (!passes(f, minLevel, words)) continue;
        QTreeWidgetItem*& parent = groups[byCheck ? f.id : f.file];
        if (!parent) {
            if (byCheck) {
                parent = new QTreeWidgetItem(QStringList{qs(f.id)});
                if (const check::CheckInfo* c = check::findCheck(f.id))
                    parent->setToolTip(0, QString::fromUtf8(c->title) + "\n" + tr("Source: ") +
                                              QString::fromUtf8(c->source));
            } else {
                // The game path when there is one (the files of a mount share a long folder prefix), the file
                // itself in the tooltip.
                parent = new QTreeWidgetItem(QStringList{qs(f.key.empty() ? f.file : f.key)});
                parent->setData(0, FileRole, qs(f.file));
                parent->setToolTip(0, qs(f.file));
            }
            order.push_back(parent);
        }
        const QString level = QString::fromLatin1(check::levelName(f.level));
        auto* item = new QTreeWidgetItem(
            parent, {level, byCheck ? qs(f.key.empty() ? f.file : f.key) : qs(f.id), qs(f.where.str()), qs(f.message)});
        item->setData(0, FileRole, qs(f.file));
        item->setData(0, BoneRole, qs(f.where.bone));
        item->setData(0, MaterialRole, qs(f.where.material));
        item->setData(0, MeshRole, qs(f.where.mesh));
        item->setData(0, SubMeshRole, f.where.subMesh);
        item->setData(0, ObjectRole, qs(f.where.object));
        item->setData(0, IdRole, qs(f.id));
        if (byCheck)
            item->setToolTip(1, qs(f.file));
        else if (const check::CheckInfo* c = check::findCheck(f.id))
            item->setToolTip(1, QString::fromUtf8(c->title) + "\n" + tr("Source: ") + QString::fromUtf8(c->source));
        item->setToolTip(3, qs(f.message));
        ++byLevel[std::min(2, std::max(0, int(f.level)))];
        ++shown_;
    }
    if (byCheck) {
        order.clear();
        for (const check::CheckInfo& c : check::catalog())
            if (const auto it = groups.find(c.id); it != groups.end()) order.push_back(it->second);
        for (auto& [id, item] : groups)
            if (!check::findCheck(id)) order.push_back(item);
    }
    tree_->addTopLevelItems(QList<QTreeWidgetItem*>(order.begin(), order.end()));
    for (auto& [name, item] : groups)
        item->setText(1, tr("%n finding(s)", nullptr, item->childCount()));
    if (groups.size() <= 20) tree_->expandAll();
    tree_->resizeColumnToContents(1);
    tree_->setUpdatesEnabled(true);
    const size_t total = report_.findings.size();
    setWindowTitle(checked_ ? countTitle(tr("Problems"), qint64(shown_), qint64(total)) : tr("Problems"));
    if (!checked_) return;
    QString text = tr("%1 files checked in %2 s%3: %4 errors, %5 warnings, %6 notes")
                       .arg(report_.files)
                       .arg(report_.seconds, 0, 'f', 1)
                       .arg(report_.cancelled ? tr(" (cancelled)") : QString())
                       .arg(report_.count(check::Level::Error))
                       .arg(report_.count(check::Level::Warning))
                       .arg(report_.count(check::Level::Info));
    if (shown_ != total)
        text += tr("; shown: %1 errors, %2 warnings, %3 notes")
                    .arg(byLevel[int(check::Level::Error)])
                    .arg(byLevel[int(check::Level::Warning)])
                    .arg(byLevel[int(check::Level::Info)]);
    summary_->setText(text);
}

void ProblemsDock::activate(QTreeWidgetItem* item) {
    if (!item) return;
    // object.*: the file is a definition file no reader opens; the object it names is opened instead.
    if (const QString object = item->data(0, ObjectRole).toString(); !object.isEmpty()) {
        emit objectRequested(object);
        return;
    }
    const QString file = item->data(0, FileRole).toString();
    if (file.isEmpty()) return;
    if (item->data(0, IdRole).toString() == QLatin1String("ref.base-game")) {
        // A summary of references into the base game (on the mod's folder): nothing to open.
        QToolTip::showText(tree_->viewport()->mapToGlobal(tree_->visualItemRect(item).bottomLeft()),
                           tr("References the mod does not hold, which the base game may provide: open the game "
                              "folder too (File → Open game or mod folder…) and check again to judge them."),
                           tree_);
        return;
    }
    if (item->data(0, IdRole).toString().startsWith(QLatin1String("object."))) {
        // About a definition file as a whole (missing, malformed): nothing the viewer opens.
        QToolTip::showText(
            tree_->viewport()->mapToGlobal(tree_->visualItemRect(item).bottomLeft()),
            tr("%1 is an object definition file and the finding names no object: nothing to open.").arg(file), tree_);
        return;
    }
    const QVariant subMesh = item->data(0, SubMeshRole);
    emit openRequested(file, item->data(0, BoneRole).toString(), item->data(0, MaterialRole).toString(),
                       item->data(0, MeshRole).toString(), subMesh.isValid() ? subMesh.toInt() : -1);
}

} // namespace rs::ui
