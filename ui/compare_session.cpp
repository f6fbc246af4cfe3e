#include "compare_session.h"

#include "bone_tree_dock.h"
#include "compare_dock.h"
#include "material_dock.h"
#include "scene_dock.h"
#include "timeline_dock.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <Qt3DRender/QCamera>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace rs::ui {
namespace {

// The file name without folders, archive prefix and extension (what clip names are matched without).
std::string stemOf(const QString& path) {
    QString name = path;
    const int cut = std::max({int(name.lastIndexOf(QLatin1Char('/'))), int(name.lastIndexOf(QLatin1Char('\\'))),
                              int(name.lastIndexOf(QLatin1Char(':')))});
    if (cut >= 0) name = name.mid(cut + 1);
    const int dot = name.lastIndexOf(QLatin1Char('.'));
    if (dot > 0) name = name.left(dot);
    return name.toStdString();
}

QString fileNameOf(const QString& path) {
    const int cut = std::max(int(path.lastIndexOf(QLatin1Char('/'))), int(path.lastIndexOf(QLatin1Char('\\'))));
    return cut >= 0 ? path.mid(cut + 1) : path;
}

} // namespace

CompareSession::CompareSession(MainWindow* window, QSplitter* split) : QObject(window), window_(window), split_(split) {
    dock_ = new DifferencesDock(window);
    window->addDockWidget(Qt::RightDockWidgetArea, dock_);
    window->tabifyDockWidget(window->materials(), dock_); // the materials' height: room for the list
    dock_->hide();
    closeAction_ = new QAction(tr("Close co&mparison"), this);
    closeAction_->setEnabled(false);
    connect(closeAction_, &QAction::triggered, this, &CompareSession::close);
    connect(&watcher_, &QFutureWatcher<LoadResult>::finished, this, &CompareSession::finishLoad);
    connect(dock_, &DifferencesDock::differenceChosen, this, &CompareSession::showDifference);
    connect(window->timeline(), &TimelineDock::frameChanged, this, [this](float pos, LoopMode mode) {
        if (!viewB_) return;
        const std::shared_ptr<const Clip> a = window_->clip();
        // The same time in seconds on both clips.
        const float f = a && clipB_ && a->fps > 0 ? pos / a->fps * clipB_->fps : pos;
        viewB_->setFrame(f, mode);
    });
    connect(window, &MainWindow::clipChanged, this, [this] {
        if (viewB_) pickClipB();
    });
    connect(window, &MainWindow::documentOpened, this, [this] {
        if (viewB_) refresh();
    });
    connect(window->boneTree(), &BoneTreeDock::boneSelected, this, [this](int bone) {
        if (!viewB_ || !modelB_) return;
        const std::shared_ptr<const Model> a = window_->model();
        const bool valid = a && bone >= 0 && size_t(bone) < a->skeleton.bones.size();
        viewB_->setHighlightedBone(valid ? modelB_->skeleton.find(a->skeleton.bones[size_t(bone)].name) : -1);
    });
    connect(window->scene(), &SceneDock::settingsChanged, this, [this](const ViewSettings& s) {
        if (viewB_) viewB_->setSettings(s);
    });
}

CompareSession::~CompareSession() {
    watcher_.waitForFinished();
    for (const auto& c : links_)
        disconnect(c);
}

void CompareSession::chooseFile() {
    if (!window_->model()) {
        QMessageBox::information(window_, tr("Compare"), tr("Open a model first, then compare it with another."));
        return;
    }
    const QString p =
        QFileDialog::getOpenFileName(window_, tr("Compare with"), window_->openDialogDir(),
                                     tr("Models and clips (*.alo *.ala *.w3d *.bwm *.al);;All files (*)"));
    if (!p.isEmpty()) compareWith(p);
}

void CompareSession::compareWith(const QString& path) {
    if (!window_->model()) {
        emit failed(tr("Nothing to compare %1 with: open a model first.").arg(path));
        return;
    }
    if (watcher_.isRunning()) return;
    loadingPath_ = path;
    const std::shared_ptr<const Resolver> resolver = window_->resolver();
    watcher_.setFuture(QtConcurrent::run([resolver, path] { return loadFile(*resolver, path); }));
}

void CompareSession::finishLoad() {
    LoadResult r = watcher_.result();
    if (!r.error.isEmpty()) {
        emit failed(r.error);
        return;
    }
    if (!r.doc.model && r.doc.clips.empty()) {
        emit failed(tr("%1 holds no model and no clip to compare.").arg(r.path));
        return;
    }
    pathB_ = r.path;
    docB_ = std::move(r.doc);
    clipsB_.clear();
    for (const auto& c : docB_.clips)
        if (c) clipsB_.push_back(c);
    for (const auto& c : r.companionClipData)
        if (c) clipsB_.push_back(c);
    bIsClipFile_ = !docB_.model || (docB_.model->meshes.empty() && !docB_.clips.empty());

    if (!viewB_) {
        // B's view alone in its pane, so that both views have the same size (what B is: the Differences panel).
        auto* pane = new QWidget;
        viewB_ = createModelView(pane).release();
        auto* layout = new QVBoxLayout(pane);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        layout->addWidget(viewB_->widget(), 1);
        paneB_ = pane;
        split_->addWidget(pane);
        reframe_ = true;
        window_->view()->widget()->installEventFilter(this);
        const int w = std::max(split_->width(), 2);
        split_->setSizes({w / 2, w - w / 2});
        viewB_->setResolver(window_->resolver());
        viewB_->setSettings(window_->scene()->settings());
    }
    modelB_ = bIsClipFile_ ? window_->model() : docB_.model;
    viewB_->setModel(modelB_);
    pickClipB();
    linkCameras();
    refresh();
    dock_->show();
    dock_->raise();
    closeAction_->setEnabled(true);
    emit compared();
}

bool CompareSession::eventFilter(QObject* watched, QEvent* e) {
    if (reframe_ && e->type() == QEvent::Resize && watched == window_->view()->widget()) {
        reframe_ = false;
        // After the widget's own resize handling has resized the view's window: the framing uses its aspect.
        QTimer::singleShot(0, this, [this] {
            if (viewB_) window_->view()->frameModel();
        });
    }
    return QObject::eventFilter(watched, e);
}

void CompareSession::refresh() {
    const std::shared_ptr<const Model> modelA = window_->model();
    if (!viewB_ || !modelA) return;
    if (bIsClipFile_ && modelB_ != modelA) { // B's clip on the new A
        modelB_ = modelA;
        viewB_->setModel(modelB_);
        pickClipB();
        linkCameras();
    }
    const std::vector<std::shared_ptr<const Clip>> clipsA = window_->allClips();
    const std::shared_ptr<const Clip> current = window_->clip();
    compare::Side a, b;
    a.skeleton = &modelA->skeleton;
    a.stem = stemOf(window_->currentPath());
    b.stem = stemOf(pathB_);
    b.skeleton = docB_.model ? &docB_.model->skeleton : &modelA->skeleton;
    for (const auto& c : clipsB_)
        b.clips.push_back(c.get());
    if (bIsClipFile_) {
        // B's clips against the clip on A's timeline.
        if (current) a.clips.push_back(current.get());
    } else {
        a.model = modelA.get();
        b.model = docB_.model.get();
        for (const auto& c : clipsA)
            a.clips.push_back(c.get());
    }
    const compare::Summary s = compare::diff(a, b);
    dock_->setSummary(s, labelA(), fileNameOf(pathB_) + QStringLiteral(" — ") + captionB_);
}

QString CompareSession::labelA() const {
    const std::shared_ptr<const Clip> a = window_->clip();
    const QString p = window_->currentPath();
    return (p.isEmpty() ? tr("the built-in demo") : fileNameOf(p)) + QStringLiteral(" — ") +
           (a ? tr("clip %1").arg(QString::fromStdString(a->name)) : tr("bind pose"));
}

void CompareSession::pickClipB() {
    if (!viewB_) return;
    clipB_.reset();
    const std::shared_ptr<const Clip> a = window_->clip();
    if (a) {
        const std::string stemA = stemOf(window_->currentPath()), stemB = stemOf(pathB_);
        const std::string key = compare::clipKey(a->name, stemA);
        for (const auto& c : clipsB_)
            if (compare::clipKey(c->name, stemB) == key) {
                clipB_ = c;
                break;
            }
        if (!clipB_ && clipsB_.size() == 1) clipB_ = clipsB_.front();
    } else if (bIsClipFile_ && !clipsB_.empty()) {
        clipB_ = clipsB_.front();
    }
    viewB_->setClip(clipB_);
    const TimelineDock* t = window_->timeline();
    const float f = a && clipB_ && a->fps > 0 ? t->position() / a->fps * clipB_->fps : t->position();
    viewB_->setFrame(f, t->loopMode());
    captionB_ =
        clipB_ ? tr("clip %1").arg(QString::fromStdString(clipB_->name))
               : (a ? tr("no clip pairs with %1: bind pose").arg(QString::fromStdString(a->name)) : tr("bind pose"));
    dock_->setCaptions(labelA(), fileNameOf(pathB_) + QStringLiteral(" — ") + captionB_);
}

void CompareSession::linkCameras() {
    for (const auto& c : links_)
        disconnect(c);
    links_.clear();
    auto* ca = qobject_cast<Qt3DRender::QCamera*>(window_->view()->camera());
    auto* cb = viewB_ ? qobject_cast<Qt3DRender::QCamera*>(viewB_->camera()) : nullptr;
    if (!ca || !cb) return;
    auto copy = [this](Qt3DRender::QCamera* from, Qt3DRender::QCamera* to) {
        if (syncingCamera_) return;
        syncingCamera_ = true;
        to->setPosition(from->position());
        to->setViewCenter(from->viewCenter());
        to->setUpVector(from->upVector());
        syncingCamera_ = false;
    };
    copy(ca, cb);
    links_.push_back(connect(ca, &Qt3DRender::QCamera::viewMatrixChanged, this, [=] { copy(ca, cb); }));
    links_.push_back(connect(cb, &Qt3DRender::QCamera::viewMatrixChanged, this, [=] { copy(cb, ca); }));
}

void CompareSession::showDifference(const compare::Difference& d) {
    using compare::Category;
    if (d.category != Category::Bone && d.category != Category::Track) return;
    if (d.category == Category::Track && !d.clipA.empty()) {
        // A's clip of the row on the timeline, then the time of its largest difference.
        const std::shared_ptr<const Clip> cur = window_->clip();
        if (!cur || !iequals(cur->name, d.clipA)) {
            const QStringList entries = window_->clipEntries();
            for (int i = 0; i < entries.size(); ++i)
                if (entries[i].startsWith(QString::fromStdString(d.clipA), Qt::CaseInsensitive)) {
                    window_->selectClip(i + 1);
                    break;
                }
        }
        const std::shared_ptr<const Clip> now = window_->clip();
        const double t = !std::isnan(d.angle) && d.angle > 0.05 ? d.angleTime : d.distanceTime;
        if (now && !std::isnan(t)) {
            window_->timeline()->pause();
            window_->timeline()->setPosition(float(t * now->fps));
        }
    }
    if (d.boneA >= 0) {
        window_->boneTree()->selectBone(d.boneA); // highlights it in both views (boneSelected)
    } else if (viewB_ && d.boneB >= 0) {
        window_->boneTree()->selectBone(-1);
        ViewSettings s = window_->scene()->settings();
        if (!s.skeleton) {
            s.skeleton = true;
            window_->scene()->setSettings(s);
        }
        viewB_->setHighlightedBone(d.boneB);
    }
}

void CompareSession::close() {
    watcher_.waitForFinished();
    for (const auto& c : links_)
        disconnect(c);
    links_.clear();
    delete paneB_.data(); // the view, then its widget and the Qt3D window it holds
    captionB_.clear();
    modelB_.reset();
    clipB_.reset();
    clipsB_.clear();
    docB_ = Document();
    pathB_.clear();
    dock_->setSummary({}, {}, {});
    dock_->hide();
    closeAction_->setEnabled(false);
}

} // namespace rs::ui
