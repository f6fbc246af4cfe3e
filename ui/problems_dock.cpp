#include "problems_dock.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMetaObject>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

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
    bar->addWidget(checkMount_);
    bar->addWidget(checkFile_);
    bar->addWidget(cancel_);
    bar->addWidget(level_);
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
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) { activate(item); });
    connect(&watcher_, &QFutureWatcher<check::Report>::finished, this, [this] {
        report_ = watcher_.result();
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
    if (cancelFlag_) cancelFlag_->store(true);
    watcher_.waitForFinished();
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    progress_->setRange(0, 0);
    progress_->setValue(0);
    progress_->setVisible(true);
    cancel_->setEnabled(true);
    checkMount_->setEnabled(false);
    checkFile_->setEnabled(false);
    summary_->setText(mount ? tr("Checking the mounted folders…") : tr("Checking %1…").arg(current_));
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
    const std::string file = QFile::encodeName(current_).toStdString();
    watcher_.setFuture(QtConcurrent::run([resolver, o, flag, mount, file] {
        return mount ? check::checkMount(*resolver, o) : check::checkPaths(*resolver, {file}, o);
    }));
}

void ProblemsDock::showReport() {
    tree_->clear();
    const auto minLevel = check::Level(level_->currentData().toInt());
    std::map<std::string, QTreeWidgetItem*> files;
    size_t shown = 0;
    for (const check::Finding& f : report_.findings) {
        if (f.level < minLevel) continue;
        QTreeWidgetItem*& parent = files[f.file];
        if (!parent) {
            // The game path when there is one (the files of a mount share a long folder prefix), the file itself in
            // the tooltip.
            parent = new QTreeWidgetItem(tree_, {qs(f.key.empty() ? f.file : f.key)});
            parent->setData(0, FileRole, qs(f.file));
            parent->setToolTip(0, qs(f.file));
        }
        auto* item = new QTreeWidgetItem(
            parent, {QString::fromLatin1(check::levelName(f.level)), qs(f.id), qs(f.where.str()), qs(f.message)});
        item->setData(0, FileRole, qs(f.file));
        item->setData(0, BoneRole, qs(f.where.bone));
        item->setData(0, MaterialRole, qs(f.where.material));
        item->setData(0, MeshRole, qs(f.where.mesh));
        item->setData(0, SubMeshRole, f.where.subMesh);
        item->setData(0, ObjectRole, qs(f.where.object));
        item->setData(0, IdRole, qs(f.id));
        if (const check::CheckInfo* c = check::findCheck(f.id))
            item->setToolTip(1, QString::fromUtf8(c->title) + "\n" + tr("Source: ") + QString::fromUtf8(c->source));
        item->setToolTip(3, qs(f.message));
        ++shown;
    }
    for (auto& [name, item] : files)
        item->setText(1, tr("%n finding(s)", nullptr, item->childCount()));
    if (files.size() <= 20) tree_->expandAll();
    tree_->resizeColumnToContents(1);
    summary_->setText(tr("%1 files checked in %2 s%3: %4 errors, %5 warnings, %6 notes (%7 shown)")
                          .arg(report_.files)
                          .arg(report_.seconds, 0, 'f', 1)
                          .arg(report_.cancelled ? tr(" (cancelled)") : QString())
                          .arg(report_.count(check::Level::Error))
                          .arg(report_.count(check::Level::Warning))
                          .arg(report_.count(check::Level::Info))
                          .arg(shown));
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
