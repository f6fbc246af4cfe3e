#include "main_window.h"

#include "game_text.h"

#include "resolve/resolver.h"

#include "export_dialog.h"
#include "import_dialog.h"
#include "record_dialog.h"

#include "amal_view.h"
#include "asset_browser_dock.h"
#include "bone_tree_dock.h"
#include "compare_session.h"
#include "edit_panels.h"
#include "edit_session.h"
#include "elided_label.h"
#include "file_watch.h"
#include "games_dialog.h"
#include "material_dock.h"
#include "notice_bar.h"
#include "objects_dock.h"
#include "preferences_dialog.h"
#include "problems_dock.h"
#include "recent_labels.h"
#include "scene_dock.h"
#include "start_page.h"
#include "timeline_dock.h"

#include "particles.h"

#include "bw2/al.h"
#include "common/cp1252.h"
#include "formats/formats.h"
#include "common/error.h"
#include "demo/demo_model.h"
#include "scene/clip_choice.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QScreen>
#include <QSet>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTextEdit>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <chrono>
#include <cmath>
#include <new>
#include <thread>
#include <utility>

namespace rs::ui {

namespace {
constexpr int kMaxRecent = 10;

// From the format registry (core/formats/formats.h).
QString modelFilters() { return QString::fromStdString(openDialogFilter()); }
} // namespace

namespace {
std::atomic<int> loadDelayMs{0};
} // namespace

TrackMatch matchTracks(const Skeleton& skeleton, const Clip& clip) {
    TrackMatch m;
    m.total = int(clip.tracks.size());
    const ClipBinding b = bindClip(skeleton, clip);
    // trackForBone holds the tracks bound to a bone (by index, or by name when the index disagrees).
    for (int t : b.trackForBone)
        if (t >= 0) ++m.matched;
    const QString hierarchy = QString::fromStdString(clip.hierarchyName);
    const QString skeletonName = QString::fromStdString(skeleton.name);
    if (!hierarchy.isEmpty() && !skeletonName.isEmpty() && hierarchy.compare(skeletonName, Qt::CaseInsensitive) != 0)
        m.hierarchyProblem =
            QObject::tr("It is made for hierarchy %1, this model's is %2").arg(hierarchy, skeletonName);
    m.clean = b.ok();
    return m;
}

void setLoadDelayForTesting(int ms) { loadDelayMs = std::max(ms, 0); }

LoadResult loadFile(const Resolver& resolver, const QString& path, const QString& w3dHierarchyFile) {
    LoadResult r;
    r.path = path;
    if (const int ms = loadDelayMs.load(); ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    try {
        // The stamp of what is read, before it is read: a change after this is seen when saving.
        r.stamp = stampOf(diskFileHolding(resolver, path));
        OpenOptions options;
        options.w3dHierarchyFile = QFile::encodeName(w3dHierarchyFile).toStdString();
        // Clips are small: the companion clips are read here so that the clip that fits the skeleton can be chosen.
        Asset a = resolver.open(QFile::encodeName(path).toStdString(), options);
        r.doc = std::move(a.document);
        r.missingHierarchy = QString::fromStdString(a.missingHierarchy);
        for (const ClipFile& c : a.clips) {
            r.companionClips << QFile::decodeName(QByteArray::fromStdString(c.path));
            r.companionClipData.push_back(c.clip); // null when unreadable: reported when the user picks it
        }
        r.textures = std::move(a.textures);
    } catch (const ParseError& e) {
        r.error = QString::fromStdString(e.what());
    } catch (const std::bad_alloc&) {
        r.error = QObject::tr("%1: out of memory while reading").arg(path);
    } catch (const std::exception& e) {
        r.error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
    }
    return r;
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), view_(createModelView()) {
    setWindowTitle(QStringLiteral("rigscope"));
    setWindowIcon(QIcon(QStringLiteral(":/rigscope/rigscope.png")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);

    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    notices_ = new NoticeBar(centre);
    stack_ = new QStackedWidget(centre);
    viewSplit_ = new QSplitter(Qt::Horizontal, stack_);
    viewSplit_->setChildrenCollapsible(false);
    viewSplit_->addWidget(view_->widget());
    stack_->addWidget(viewSplit_);
    amal_ = new AmalView(stack_);
    stack_->addWidget(amal_);
    start_ = new StartPage(stack_, qEnvironmentVariable("HOME"));
    stack_->addWidget(start_);
    connect(start_, &StartPage::openRequested, this, &MainWindow::openFile);
    connect(start_, &StartPage::demoRequested, this, &MainWindow::showDemo);
    connect(start_, &StartPage::mountRequested, this,
            [this](const QStringList& games, const QStringList& mods, const QString& what) {
                mountInWindow(this, games, mods, what);
            });
    centreLayout->addWidget(notices_);
    centreLayout->addWidget(stack_, 1);
    notices_->setSummary(hint3D());
    setCentralWidget(centre);

    timeline_ = new TimelineDock(this);
    boneDock_ = new BoneTreeDock(this);
    materialDock_ = new MaterialDock(this);
    sceneDock_ = new SceneDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, timeline_);
    addDockWidget(Qt::LeftDockWidgetArea, boneDock_);
    addDockWidget(Qt::RightDockWidgetArea, sceneDock_);
    addDockWidget(Qt::RightDockWidgetArea, materialDock_);
    auto* assets = new AssetBrowserDock(this); // game folders and archives (asset_browser_dock.h)
    addDockWidget(Qt::LeftDockWidgetArea, assets);
    tabifyDockWidget(boneDock_, assets);
    connect(assets, &AssetBrowserDock::openRequested, this, &MainWindow::openFile);
    connect(assets, &AssetBrowserDock::mounted, this, &MainWindow::setMount);
    objectsDock_ = new ObjectsDock(this); // the game objects of the same folders (objects_dock.h)
    addDockWidget(Qt::LeftDockWidgetArea, objectsDock_);
    tabifyDockWidget(assets, objectsDock_);
    connect(assets, &AssetBrowserDock::mounted, objectsDock_, &ObjectsDock::setMount);
    connect(objectsDock_, &ObjectsDock::objectRequested, this, &MainWindow::openObject);
    connect(objectsDock_, &ObjectsDock::particleSystemRequested, this, &MainWindow::openParticleSystem);
    // A mod laid out as sources: its definitions' and art's folders mounted together in place of the mods.
    connect(objectsDock_, &ObjectsDock::mountRequested, this,
            [assets](const QStringList& mods) { assets->mountFolders(assets->games(), mods); });
    connect(&objectWatcher_, &QFutureWatcher<ObjectOpen>::finished, this, &MainWindow::finishObjectOpen);
    problems_ = new ProblemsDock(this); // View -> Problems (problems_dock.h)
    addDockWidget(Qt::BottomDockWidgetArea, problems_);
    tabifyDockWidget(timeline_, problems_);
    timeline_->raise();
    problems_->hide();
    problems_->setResolver(resolver_);
    connect(
        problems_, &ProblemsDock::openRequested, this,
        [this](const QString& file, const QString& bone, const QString& material, const QString& mesh, int subMesh) {
            const PendingSelection s{file, bone, material, mesh, subMesh};
            if (model_ && s.isFor(path_)) { // already open: select at once
                pending_ = {};
                selectInPanels(s);
                return;
            }
            pending_ = s;
            openFile(file);
        });
    // The bottom area the Problems list shares with the timeline is as tall as the timeline needs (about 100 px,
    // four rows of findings): in front, the list gets a third of the window; the timeline's tab gets its height back.
    connect(problems_, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        QTimer::singleShot(0, this, [this, shown] {
            if (shown && !problems_->isHidden() && !problems_->isFloating()) {
                if (timelineHeight_ <= 0) timelineHeight_ = timeline_->height();
                resizeDocks({problems_}, {std::max(220, height() / 3)}, Qt::Vertical);
            } else if (!shown && timelineHeight_ > 0) {
                const int want = timelineHeight_;
                timelineHeight_ = 0;
                if (timeline_->isHidden() || timeline_->isFloating()) return;
                // resizeDocks sizes the tab group with its tab bar: correct by what the first call left over.
                resizeDocks({timeline_}, {want}, Qt::Vertical);
                QTimer::singleShot(0, this, [this, want] {
                    if (timeline_->height() != want)
                        resizeDocks({timeline_}, {2 * want - timeline_->height()}, Qt::Vertical);
                });
            }
        });
    });
    // object.* findings are in definition files no reader opens: the object they name is opened.
    connect(problems_, &ProblemsDock::objectRequested, this, [this](const QString& object) {
        pending_ = {};
        openObject(object);
    });
    boneDock_->raise();
    assets->restore();
    // Panels never shrink below what keeps bone names and material values readable.
    boneDock_->setMinimumWidth(200);
    sceneDock_->setMinimumWidth(260);
    materialDock_->setMinimumWidth(260);

    // The path is elided in the middle (its tooltip has it whole) so that the counts beside it are never cut.
    fileLabel_ = new ElidedLabel(QString(), this, Qt::ElideMiddle);
    countsLabel_ = new QLabel(this);
    fpsLabel_ = new QLabel(this);
    fpsLabel_->setMinimumWidth(90);
    statusBar()->addWidget(fileLabel_, 1);
    statusBar()->addPermanentWidget(countsLabel_);
    statusBar()->addPermanentWidget(fpsLabel_);

    reporter_ = [this](const QString& title, const QString& message) { QMessageBox::critical(this, title, message); };

    connect(timeline_, &TimelineDock::frameChanged, this, [this](float pos, LoopMode mode) {
        if (showingAmal()) {
            amal_->setTick(int(std::lround(timeline_->displayFrame())));
            return;
        }
        view_->setFrame(pos, mode);
        boneDock_->setFrame(pos, mode);
    });
    connect(timeline_, &TimelineDock::clipEntryChosen, this, [this](int i) { selectClip(i); });
    connect(timeline_, &TimelineDock::openClipRequested, this, &MainWindow::openClipDialog);
    connect(boneDock_, &BoneTreeDock::boneSelected, this, [this](int b) {
        // The highlight is drawn on the skeleton overlay: selecting a bone shows it.
        if (b >= 0 && !sceneDock_->settings().skeleton) {
            ViewSettings s = sceneDock_->settings();
            s.skeleton = true;
            sceneDock_->setSettings(s);
        }
        view_->setHighlightedBone(b);
    });
    connect(boneDock_, &BoneTreeDock::boneHiddenChanged, this,
            [this](int b, bool hidden) { view_->setBoneHidden(b, hidden); });
    connect(sceneDock_, &SceneDock::settingsChanged, this, [this](const ViewSettings& s) { view_->setSettings(s); });
    connect(sceneDock_, &SceneDock::stateChosen, this, [this](int i) { selectObjectState(i); });
    connect(view_.get(), &ModelView::framePresented, this, [this] {
        ++framesThisSecond_;
        if (awaitingFirstFrame_) {
            // The first frame presented after a model was applied shows it.
            awaitingFirstFrame_ = false;
            const qint64 ms = readDone_.elapsed();
            const QString name =
                !objectName_.isEmpty() && objectState_ >= 0 && size_t(objectState_) < objectStates_.size()
                    ? tr("%1 (%2)").arg(objectName_, QString::fromStdString(objectStates_[size_t(objectState_)].label))
                : path_.isEmpty() ? tr("The built-in demo")
                                  : QFileInfo(path_).fileName();
            statusBar()->showMessage(tr("%1 shown %2 ms after it was read").arg(name).arg(ms), 5000);
            emit modelShown(ms);
            // Then what waited for it: the texture thumbnails.
            releaseAfterShown_.stop();
            materialDock_->holdThumbnails(false);
        }
    });
    connect(&watcher_, &QFutureWatcher<LoadResult>::finished, this, &MainWindow::finishLoad);
    connect(amal_, &AmalView::durationChanged, this, [this](int ticks, double) {
        if (showingAmal()) setAmalClip(ticks);
    });

    loadPool_.setMaxThreadCount(1);
    fpsTimer_.setInterval(1000);
    connect(&fpsTimer_, &QTimer::timeout, this, [this] {
        fpsLabel_->setText(timeline_->playing() ? tr("%1 fps").arg(framesThisSecond_) : tr("paused"));
        framesThisSecond_ = 0;
    });
    fpsTimer_.start();

    releaseAfterShown_.setSingleShot(true);
    releaseAfterShown_.setInterval(2000); // no frame (e.g. a hidden window): release what waits for one
    connect(&releaseAfterShown_, &QTimer::timeout, this, [this] { materialDock_->holdThumbnails(false); });
    progressDelay_.setSingleShot(true);
    progressDelay_.setInterval(300);
    connect(&progressDelay_, &QTimer::timeout, this, [this] {
        if (!loading_) return;
        progress_ =
            new QProgressDialog(tr("Reading %1…").arg(QFileInfo(loadingPath_).fileName()), tr("Cancel"), 0, 0, this);
        progress_->setWindowTitle(tr("Opening"));
        progress_->setAttribute(Qt::WA_DeleteOnClose);
        progress_->setMinimumDuration(0);
        // Only the user's Cancel cancels: finishLoad() disconnects before closing the dialog (closing a
        // QProgressDialog emits canceled()).
        connect(progress_, &QProgressDialog::canceled, this, [this] {
            if (!loading_) return;
            cancelled_ = true;
            statusBar()->showMessage(tr("Cancelling %1…").arg(QFileInfo(loadingPath_).fileName()));
        });
        progress_->show();
    });

    // Playback keys work wherever focus is in the window, except in a text field being edited.
    qApp->installEventFilter(this);

    edits_ = new EditSession(this);
    initLiveReload();
    connect(edits_, &EditSession::filesChanged, this, [this](const QStringList& files) {
        // The model first: a clip shown again is checked against the skeleton as edited (a bone rename).
        if (files.contains(edits_->documentPath())) showEditedDocument();
        showEditedClips(files);
    });
    connect(edits_, &EditSession::modifiedChanged, this, &MainWindow::updateTitle);
    historyDock_ = new QDockWidget(tr("History"), this);
    historyDock_->setObjectName(QStringLiteral("historyDock"));
    auto* history = new QUndoView(edits_->undoStack(), historyDock_);
    history->setEmptyLabel(tr("<as opened>"));
    historyDock_->setWidget(history);
    addDockWidget(Qt::RightDockWidgetArea, historyDock_);
    historyDock_->hide();
    // Materials panel: a texture renamed in place (every reference to it in the file: formats.h renameTexture).
    connect(materialDock_, &MaterialDock::textureRenameRequested, this, [this](const QByteArray& from, const QString& to) {
        std::string toBytes;
        if (!utf8ToCp1252(to.toStdString(), toBytes)) {
            reportError(tr("Cannot rename the texture"),
                        tr("%1 has characters the game's files cannot hold (they store names in Windows-1252).").arg(to));
            return;
        }
        const std::string fromBytes = from.toStdString();
        applyEdit(tr("Texture %1 → %2").arg(QString::fromStdString(cp1252ToUtf8(fromBytes)), to),
                  {{edits_->documentPath(), [fromBytes, toBytes](Format f, SourceTree& t) {
                        return renameTexture(f, t, fromBytes, toBytes, true);
                    }}});
    });
    materialDock_->setTextureChoices([this] { return textureChoices(); });
    // The document's bytes as shown: as edited when an edit made its tree, else as read (an archive's entry too).
    materialDock_->setSourceBytes([this] {
        std::vector<uint8_t> b;
        const QString doc = edits_ ? edits_->documentPath() : QString();
        if (!doc.isEmpty() && doc == path_) b = edits_->bytes(doc);
        if (b.empty() && !path_.isEmpty() && resolver_ &&
            !resolver_->readAssetBytes(QFile::encodeName(path_).toStdString(), b))
            b.clear();
        return b;
    });
    connectPanelEdits(this); // the Bones panel's and the timeline's edits (edit_panels.h)
    connect(materialDock_, &MaterialDock::editRequested, this, [this](const EditOp& op) {
        applyEdit(QString::fromStdString(cp1252ToUtf8(describeEdit(op))),
                  {{edits_->documentPath(), [op](Format f, SourceTree& t) { return rs::applyEdit(f, t, op, true); }}});
    });

    compare_ = new CompareSession(this, viewSplit_);
    connect(compare_, &CompareSession::failed, this, [this](const QString& m) { reportError(tr("Compare"), m); });
    buildMenus();
    loadSettings();
    view_->setSettings(sceneDock_->settings());
    updateResolver();
    updateStatus();
}

MainWindow::~MainWindow() {
    watcher_.waitForFinished();
    objectWatcher_.waitForFinished();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &clip…"), this, &MainWindow::openClipDialog);
    file->addAction(tr("Compare &with…"), compare_, &CompareSession::chooseFile);
    file->addAction(compare_->closeAction());
    file->addAction(tr("Open &game or mod folder…"), this, [this] {
        // What was mounted, in the status bar, and its assets in front; then its objects, once the Objects panel
        // lists some (indexing runs on a worker thread).
        auto* assets = findChild<AssetBrowserDock*>();
        if (!assets->openFolderDialog()) return;
        const QString said = assets->mountSummary();
        statusBar()->showMessage(said, 15000);
        assets->show();
        assets->raise();
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(objectsDock_, &ObjectsDock::indexed, this, [this, once, said](int count) {
            disconnect(*once);
            if (count <= 0) return;
            objectsDock_->show();
            objectsDock_->raise();
            statusBar()->showMessage(tr("%1, %n object(s)", nullptr, count).arg(said), 15000);
        });
    });
    file->addAction(tr("Ga&mes and mods…"), this, [this] { gamesDialog(this); })
        ->setToolTip(tr("The games and Workshop/local mods found on this computer; mount one, a mod with its "
                        "dependencies over its game"));
    file->addAction(tr("&Start page"), this, &MainWindow::showStartPage)
        ->setToolTip(tr("The games and mods found and the recent files, each one click away"));
    recentMenu_ = file->addMenu(tr("Open &recent"));
    QAction* reload = file->addAction(tr("&Reload"), this, [this] {
        if (path_.isEmpty()) return;
        if (clip_) reselectClip_ = timeline_->clipCombo()->currentText();
        openFile(path_);
    });
    reload->setShortcut(Qt::Key_F5);
    file->addSeparator();
    saveAction_ = file->addAction(tr("&Save"), this, [this] { save(); });
    saveAction_->setShortcut(QKeySequence::Save);
    saveAction_->setToolTip(tr("Write the edited file safely (a temporary file checked, then renamed); a file from "
                               "an archive goes to its game path in the mod folder"));
    saveAsAction_ = file->addAction(tr("Save &as…"), this, [this] {
        const QString doc = edits_->documentPath();
        if (doc.isEmpty()) return;
        QString start = edits_->saveTarget(doc);
        if (start.isEmpty()) start = QDir(openDialogDir()).filePath(QFileInfo(doc.section(QLatin1Char(':'), -1)).fileName());
        const QString dest = QFileDialog::getSaveFileName(this, tr("Save as"), start);
        if (!dest.isEmpty()) saveAs(dest);
    });
    saveAllAction_ = file->addAction(tr("Save a&ll"), this, [this] { saveAll(); });
    saveAllAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    saveAllAction_->setToolTip(tr("Save every file the edits changed (a bone rename changes the clips and "
                                  "definitions that name the bone): together, or each one's failure named"));
    applyLibraryAction_ = file->addAction(tr("Apply animation &library…"), this, &MainWindow::applyLibraryDialog);
    applyLibraryAction_->setEnabled(false);
    applyLibraryAction_->setToolTip(tr("B&W2: animate the open .bwm skin with an .al animation library"));
    file->addAction(tr("Show &demo model"), this, &MainWindow::showDemo);
    file->addSeparator();
    file->addAction(tr("&Import glTF…"), this, [this] { importGltfDialog(this); }); // saved with Save As
    file->addAction(tr("&Export glTF…"), this, [this] { exportDialog(this); });
    file->addAction(tr("&Record…"), this, [this] { recordDialog(this); });
    QAction* shot = file->addAction(tr("Save &screenshot…"), this, &MainWindow::screenshotDialog);
    shot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    file->addSeparator();
    QAction* prefs = file->addAction(tr("&Preferences…"), this, &MainWindow::preferencesDialog);
    prefs->setShortcut(QKeySequence::Preferences);
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = edits_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = edits_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* historyAction = historyDock_->toggleViewAction();
    historyAction->setText(tr("&History"));
    edit->addAction(historyAction);
    updateTitle();

    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* frame = viewMenu->addAction(tr("&Frame model"), this, [this] { view_->frameModel(); });
    frame->setShortcut(Qt::Key_F);
    viewMenu->addSeparator();
    for (QDockWidget* d : {static_cast<QDockWidget*>(timeline_), static_cast<QDockWidget*>(boneDock_),
                           static_cast<QDockWidget*>(materialDock_), static_cast<QDockWidget*>(sceneDock_),
                           static_cast<QDockWidget*>(findChild<AssetBrowserDock*>()),
                           static_cast<QDockWidget*>(objectsDock_), static_cast<QDockWidget*>(problems_),
                           historyDock_})
        viewMenu->addAction(d->toggleViewAction());

    QMenu* play = menuBar()->addMenu(tr("&Playback"));
    auto add = [&](const QString& text, const QKeySequence& key, auto fn) {
        QAction* a = play->addAction(text, this, fn);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        return a;
    };
    add(tr("Play / pause"), QKeySequence(Qt::Key_Space), [this] { timeline_->togglePlay(); });
    add(tr("Stop"), QKeySequence(), [this] { timeline_->stop(); });
    add(tr("Previous frame"), QKeySequence(Qt::Key_Left), [this] { timeline_->stepFrames(-1); });
    add(tr("Next frame"), QKeySequence(Qt::Key_Right), [this] { timeline_->stepFrames(1); });
    add(tr("First frame"), QKeySequence(Qt::Key_Home), [this] { timeline_->firstFrame(); });
    add(tr("Last frame"), QKeySequence(Qt::Key_End), [this] { timeline_->lastFrame(); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About rigscope"), this, [this] {
        QMessageBox::about(this, tr("About rigscope"),
                           tr("<b>rigscope</b> %1<br>Viewer for Alamo, W3D, Black &amp; White 2 models and AMOS AMAL "
                              "banks.<br>3D view: %2")
                               .arg(QApplication::applicationVersion(), view_->backendName()));
    });
}

void MainWindow::openFile(const QString& path) {
    if (path.isEmpty()) return;
    // Another document (or the same one read again) replaces the edits; a clip applies to the open model.
    if (!path.endsWith(QLatin1String(".ala"), Qt::CaseInsensitive) && !maybeSave()) return;
    if (path.endsWith(QLatin1String(".meg"), Qt::CaseInsensitive) ||
        path.endsWith(QLatin1String(".big"), Qt::CaseInsensitive) ||
        path.endsWith(QLatin1String(".stuff"), Qt::CaseInsensitive)) {
        auto* assets = findChild<AssetBrowserDock*>(); // an archive: its content in the browser
        assets->showArchive(path);
        assets->show();
        assets->raise();
        return;
    }
    // Files and "<archive>:<entry>" become absolute; a game path of the mounted folders stays as it is.
    const QFileInfo fi(path);
    const bool gamePath =
        !fi.exists() && mount_ && resolver_->placeOf(QFile::encodeName(path).toStdString()).table == mount_;
    queue_ << (gamePath ? path : fi.absoluteFilePath());
    startNextLoad();
}

void MainWindow::startNextLoad() {
    if (loading_ || queue_.isEmpty()) return;
    loading_ = true;
    loadingPath_ = queue_.takeFirst();
    cancelled_ = false;
    statusBar()->showMessage(tr("Reading %1…").arg(loadingPath_));
    const QString p = loadingPath_;
    const QString hierarchy = w3dHierarchyFile(p);
    watcher_.setFuture(QtConcurrent::run(
        &loadPool_, [p, hierarchy, resolver = resolver_] { return loadFile(*resolver, p, hierarchy); }));
    progressDelay_.start();
}

void MainWindow::finishLoad() {
    progressDelay_.stop();
    if (progress_) {
        progress_->disconnect(this);
        progress_->close();
    }
    statusBar()->clearMessage();
    const LoadResult r = watcher_.result();
    readDone_.start();
    readTimed_ = true;
    loading_ = false;
    // A problem's selection waits for its file as a model; any other outcome for that file drops it.
    if (pending_.isFor(r.path) && (cancelled_ || !r.error.isEmpty() || r.doc.format == Format::Amal || !r.doc.model))
        pending_ = {};
    if (cancelled_) {
        statusBar()->showMessage(tr("Cancelled opening %1").arg(r.path), 4000);
    } else if (!r.error.isEmpty()) {
        reportError(tr("Cannot open %1").arg(QFileInfo(r.path).fileName()),
                    tr("%1\n\n%2").arg(QDir::toNativeSeparators(r.path), r.error));
        emit openFailed(r.path, r.error);
    } else if (r.doc.format == Format::Amal) {
        applyAmal(r);
    } else if (r.doc.model) {
        applyDocument(r);
    } else if (!r.doc.clips.empty()) {
        applyClipDocument(r);
    } else if (r.doc.particles) {
        applyParticles(r);
    } else {
        const QString msg = tr("%1: the file holds neither a model nor a clip").arg(r.path);
        reportError(tr("Cannot open %1").arg(QFileInfo(r.path).fileName()), msg);
        emit openFailed(r.path, msg);
    }
    readTimed_ = false; // consumed by applyDocument, or nothing was shown
    updateWatchedFiles(); // live reload: what is shown now
    startNextLoad();
}

bool MainWindow::PendingSelection::isFor(const QString& path) const {
    return !file.isEmpty() && !path.isEmpty() && (file == path || QFileInfo(file).absoluteFilePath() == path);
}

void MainWindow::selectInPanels(const PendingSelection& s) {
    if (!model_) return;
    if (!s.bone.isEmpty()) boneDock_->selectBone(model_->skeleton.find(s.bone.toStdString()));
    // The texture a finding names; else its sub-mesh (a shader, an engine limit) or mesh.
    if (!s.material.isEmpty() && materialDock_->selectTexture(s.material)) return;
    if (!s.mesh.isEmpty()) materialDock_->selectSubMesh(s.mesh, s.subMesh);
}

void MainWindow::reportError(const QString& title, const QString& message) {
    statusBar()->showMessage(message.section(QLatin1Char('\n'), -1), 8000);
    if (reporter_) reporter_(title, message);
}

void MainWindow::applyDocument(const LoadResult& r) {
    model_ = r.doc.model;
    path_ = r.path;
    clip_.reset();
    clips_.clear();
    // Until the view has shown the new model no thumbnail is decoded (MaterialDock::holdThumbnails);
    // releaseAfterShown_ ends that if no frame comes. (Notices never resize the view: NoticeBar.)
    materialDock_->holdThumbnails(true);
    releaseAfterShown_.start();
    notices_->clearNotices();
    clips_ = clipEntriesOf(r);
    notices_->setSummary(hint3D());
    stack_->setCurrentWidget(viewSplit_);
    setDocksFor3D(true);
    if (!applyingObject_) {
        objectName_.clear();
        objectState_ = -1;
        objectStates_.clear();
        objectMembers_.clear();
        objectsDock_->clearGroup();
        attachments_.clear();
        objectParticles_.clear();
        sceneDock_->setStates({}, {}, -1);
    }
    if (r.doc.particles) {
        view_->setParticleSystem(r.doc.particles, model_);
    } else if (applyingObject_) {
        view_->setObjectModel(model_, viewAttachments());
    } else {
        view_->setModel(model_);
    }
    boneDock_->setModel(model_);
    const std::vector<ProxyParticles> systems = view_->proxyParticles();
    boneDock_->setProxyParticles(systems);
    if (clips_.empty() && !r.doc.particles &&
        std::any_of(systems.begin(), systems.end(), [](const ProxyParticles& p) { return p.emitters > 0; })) {
        // Nothing to play the particles with: a track-less clip of the bind pose (particles keep running across
        // its end).
        auto c = std::make_shared<Clip>();
        c->format = Format::AlamoParticles;
        c->name = "particles";
        c->fps = 30.0f;
        c->frameCount = 301;
        clips_.push_back({tr("particles on the bind pose (10 s)"), r.path, 0, c, true});
    }
    materialDock_->setModel(model_, resolver_);
    problems_->setCurrentFile(r.path);
    if (pending_.isFor(r.path)) selectInPanels(std::exchange(pending_, {}));
    sceneDock_->setLevels(model_->lodLevels(), model_->altLevels());
    view_->setSettings(sceneDock_->settings());
    timeline_->setClip(nullptr);

    // Restore the clip after Reload, else pickInitialClip: an idle clip that fits the skeleton, else the first
    // clip that fits; a model none of whose clips fit starts in the bind pose. A clip not read yet is named by
    // its file.
    int pick = 0;
    if (!reselectClip_.isEmpty()) {
        for (size_t i = 0; i < clips_.size(); ++i)
            if (clips_[i].label == reselectClip_) pick = int(i) + 1;
    } else {
        std::vector<std::string> names;
        std::vector<bool> fits;
        for (const ClipEntry& e : clips_) {
            names.push_back(e.clip && !e.clip->name.empty()
                                ? e.clip->name
                                : QFile::encodeName(QFileInfo(e.path).fileName()).toStdString());
            fits.push_back(e.matches);
        }
        pick = pickInitialClip(names, fits) + 1;
    }
    reselectClip_.clear();
    refreshClipSelector(0);
    if (pick > 0) selectClip(pick);
    view_->frameModel(); // what is drawn at the current LOD/ALT, in the clip's first pose

    updateTextureNotice();
    if (!r.missingHierarchy.isEmpty()) {
        const QString chosen = w3dHierarchyFile(r.path);
        const QString text =
            chosen.isEmpty()
                ? tr("Skeleton %1 not found (looked for %1.w3d next to the file and in art/w3d/%2/): the parts are "
                     "drawn unposed at the origin.")
                      .arg(r.missingHierarchy, r.missingHierarchy.left(2).toLower())
                : tr("Skeleton %1 is not in the chosen file %2: the parts are drawn unposed at the origin.")
                      .arg(r.missingHierarchy, QDir::toNativeSeparators(chosen));
        const QString modelPath = r.path;
        notices_->showNotice(QStringLiteral("skeleton"), text,
                             {{tr("Choose skeleton file…"), [this, modelPath] {
                                   const QString f = QFileDialog::getOpenFileName(
                                       this, tr("Choose the skeleton (hierarchy) file"),
                                       QFileInfo(modelPath).absolutePath(), tr("W3D files (*.w3d);;All files (*)"));
                                   if (!f.isEmpty()) setW3dHierarchyFile(modelPath, f);
                               }}});
    }
    if (!r.path.isEmpty() && !applyingObject_) addRecent(r.path);
    // The file's edits start here (objects, particle systems and the demo are not edited in the window).
    edits_->reset(applyingObject_ || r.doc.particles ? QString() : r.path, r.stamp);
    // W3D rows read from the document's bytes (MaterialDock::setSourceBytes) again, now that no earlier tree of
    // the same path stands in for the file.
    if (model_ && model_->format == Format::W3d) materialDock_->updateModel(model_);
    titleBase_ = applyingObject_    ? tr("%1 — rigscope").arg(objectName_)
                 : r.path.isEmpty() ? tr("built-in demo — rigscope")
                                    : tr("%1 — rigscope").arg(QFileInfo(r.path).fileName());
    updateTitle();
    for (const std::string& w : model_->warnings)
        statusBar()->showMessage(QString::fromStdString(w), 6000);
    applyLibraryAction_->setEnabled(model_->format == Format::Bw2Model && !model_->skeleton.bones.empty());
    updateStatus();
    awaitingFirstFrame_ = true;
    // Shown "N ms after it was read": from the read of this document (a file, an object or its state), else (the
    // demo, a reload without a read) from now, never from an earlier read.
    if (!readTimed_) readDone_.start();
    readTimed_ = false;
    updateWatchedFiles(); // live reload: what is shown now (an object's state comes here too)
    emit documentOpened(r.path);
}

std::vector<MainWindow::ClipEntry> MainWindow::clipEntriesOf(const LoadResult& r) const {
    std::vector<ClipEntry> out;
    for (int i = 0; i < r.companionClips.size(); ++i) {
        const QString& c = r.companionClips[i];
        out.push_back({QFileInfo(c).fileName(), c, 0,
                       size_t(i) < r.companionClipData.size() ? r.companionClipData[size_t(i)] : nullptr});
    }
    for (size_t i = 0; i < r.doc.clips.size(); ++i) {
        const Clip& c = *r.doc.clips[i];
        out.push_back({c.name.empty() ? tr("clip %1 in file").arg(i) : rs::gameText(c.name) + tr(" (in file)"),
                       r.path, int(i), r.doc.clips[i]});
    }
    // Clips whose tracks do not fit this skeleton stay listed, marked.
    if (r.doc.model)
        for (ClipEntry& e : out)
            if (e.clip) {
                const TrackMatch m = matchTracks(r.doc.model->skeleton, *e.clip);
                e.matches = m.fits();
                if (!e.matches) e.label += tr(" — does not match (%1 of %2 tracks)").arg(m.matched).arg(m.total);
            }
    return out;
}

void MainWindow::applyLibraryDialog() {
    if (!model_ || model_->format != Format::Bw2Model) return;
    const std::vector<std::string> found =
        resolver_->matchingLibraries(model_->sourcePath, model_->skeleton.bones.size());
    QString pick;
    if (!found.empty()) {
        QStringList items;
        for (const std::string& f : found)
            items << QFile::decodeName(QByteArray::fromStdString(f));
        const QString browse = tr("Other file…");
        items << browse;
        bool ok = false;
        pick = QInputDialog::getItem(
            this, tr("Apply animation library"),
            tr("Libraries with %1 bones next to the model:").arg(model_->skeleton.bones.size()), items, 0, false, &ok);
        if (!ok) return;
        if (pick == browse) pick.clear();
    }
    if (pick.isEmpty())
        pick = QFileDialog::getOpenFileName(this, tr("Apply animation library"), QFileInfo(path_).absolutePath(),
                                            tr("B&W2 animation libraries (*.al);;All files (*)"));
    if (!pick.isEmpty()) applyAnimationLibrary(pick);
}

bool MainWindow::applyAnimationLibrary(const QString& alPath) {
    if (!model_ || model_->format != Format::Bw2Model || model_->skeleton.bones.empty()) {
        reportError(tr("Apply animation library"), tr("Open a B&W2 skin (.bwm with bones) first."));
        return false;
    }
    const LoadResult lib = loadFile(*resolver_, alPath);
    if (!lib.error.isEmpty() || lib.doc.format != Format::Bw2Library || !lib.doc.model) {
        const QString why = lib.error.isEmpty() ? tr("%1 is not a B&W2 animation library").arg(alPath) : lib.error;
        reportError(tr("Cannot apply %1").arg(QFileInfo(alPath).fileName()), why);
        return false;
    }
    std::string why;
    if (!bw2::libraryFits(*model_, lib.doc.model->skeleton, &why)) {
        reportError(
            tr("Cannot apply %1").arg(QFileInfo(alPath).fileName()),
            tr("%1 does not fit %2: %3")
                .arg(QDir::toNativeSeparators(alPath), QDir::toNativeSeparators(path_), QString::fromStdString(why)));
        return false;
    }
    LoadResult r;
    r.path = path_;
    r.doc.format = Format::Bw2Model;
    r.doc.model = std::make_shared<Model>(bw2::applyLibrary(*model_, lib.doc.model->skeleton));
    r.doc.clips = lib.doc.clips;
    applyDocument(r);
    edits_->reset(QString(), {}); // the skin as the library names it is not the file
    // applyDocument labels clips by the model file: they come from the library.
    for (ClipEntry& e : clips_)
        if (e.clip && e.path == path_) {
            e.path = alPath;
            e.label.replace(tr(" (in file)"), QStringLiteral(" (%1)").arg(QFileInfo(alPath).fileName()));
        }
    refreshClipSelector(timeline_->currentClipEntry());
    statusBar()->showMessage(
        tr("Applied %1: %2 animation(s); frames after 0 are an interpretation (see the timeline notes)")
            .arg(QFileInfo(alPath).fileName())
            .arg(lib.doc.clips.size()),
        10000);
    return true;
}

void MainWindow::applyClipDocument(const LoadResult& r) {
    if (!model_ || model_->skeleton.bones.empty()) {
        const QString msg =
            tr("%1 holds only animation; open a model first, then drop or open the clip onto it.").arg(r.path);
        reportError(tr("No model to animate"), msg);
        emit openFailed(r.path, msg);
        return;
    }
    const int first = int(clips_.size()) + 1;
    for (size_t i = 0; i < r.doc.clips.size(); ++i) {
        const Clip& c = *r.doc.clips[i];
        QString label = QFileInfo(r.path).fileName();
        if (r.doc.clips.size() > 1)
            label += QStringLiteral(" / ") + (c.name.empty() ? QString::number(i) : rs::gameText(c.name));
        const TrackMatch m = matchTracks(model_->skeleton, c);
        if (!m.fits()) label += tr(" — does not match (%1 of %2 tracks)").arg(m.matched).arg(m.total);
        clips_.push_back({label, r.path, int(i), r.doc.clips[i], m.fits()});
    }
    addRecent(r.path);
    selectClip(first);
    emit documentOpened(r.path);
}

void MainWindow::applyParticles(const LoadResult& r) {
    const ParticleSystem& sys = *r.doc.particles;
    auto standIn = std::make_shared<Model>();
    standIn->format = Format::AlamoModel;
    standIn->sourcePath = r.path.toStdString();
    Bone root;
    root.name = "Root";
    standIn->skeleton.bones.push_back(root);
    auto clip = std::make_shared<Clip>();
    clip->format = Format::AlamoParticles;
    clip->name = sys.name;
    clip->fps = 30.0f;
    const float loop = render::particleLoopSeconds(sys);
    clip->frameCount = uint32_t(std::lround(loop * clip->fps)) + 1;
    LoadResult lr;
    lr.path = r.path;
    lr.doc.format = r.doc.format;
    lr.doc.model = standIn;
    lr.doc.particles = r.doc.particles;
    lr.doc.clips = {clip};
    applyDocument(lr);
    clips_.front().label = tr("particle system %1 (%2 emitters, %3 s loop)")
                               .arg(rs::gameText(sys.name))
                               .arg(sys.emitters.size())
                               .arg(double(loop), 0, 'g', 3);
    refreshClipSelector(1);
    selectClip(1);
    timeline_->setLoopMode(LoopMode::Loop);
    timeline_->play();
}

QString MainWindow::hint3D() const {
    return tr("Drag: orbit · right/middle-drag: pan · wheel: zoom · double-click: centre on a part · F: frame · "
              "Space: play · drop a model or clip here to open it");
}

bool MainWindow::showingAmal() const { return stack_->currentWidget() == amal_; }

void MainWindow::setAmalClip(int ticks) {
    auto c = std::make_shared<Clip>();
    c->format = Format::Amal;
    c->name = "AMAL";
    c->fps = 50.0f; // AMAL runs at one tick per 1/50 s
    c->frameCount = uint32_t(std::max(ticks, 0)) + 1;
    amalClip_ = c;
    timeline_->setClipEntries({tr("AMAL track (%1 ticks, 50 per second)").arg(ticks)}, 1);
    timeline_->setClip(amalClip_);
}

void MainWindow::applyAmal(const LoadResult& r) {
    applyLibraryAction_->setEnabled(false);
    // The bank was validated on the worker; the 2D view reads it again (banks are small).
    if (!amal_->openFile(r.path)) {
        reportError(tr("Cannot open %1").arg(QFileInfo(r.path).fileName()),
                    tr("%1\n\n%2").arg(QDir::toNativeSeparators(r.path), amal_->errorString()));
        emit openFailed(r.path, amal_->errorString());
        return;
    }
    timeline_->pause();
    model_.reset();
    clip_.reset();
    clips_.clear();
    path_ = r.path;
    view_->setModel(nullptr);
    boneDock_->setModel(nullptr);
    materialDock_->setModel(nullptr, resolver_);
    sceneDock_->setLevels({}, {});
    notices_->clearNotices();
    notices_->setSummary(tr("AMAL bank on the 2D stage: Space plays, Home / End and the arrows step; the Timeline "
                            "shows 50 ticks a second."));
    stack_->setCurrentWidget(amal_);
    setDocksFor3D(false); // 3D-only panels make way for the stage
    setAmalClip(amal_->durationTicks());
    addRecent(r.path);
    edits_->reset(QString(), {});
    titleBase_ = tr("%1 — rigscope").arg(QFileInfo(r.path).fileName());
    updateTitle();
    updateStatus();
    emit documentOpened(r.path);
}

QStringList MainWindow::clipEntries() const {
    QStringList out;
    for (const ClipEntry& e : clips_)
        out << e.label;
    return out;
}

QString MainWindow::clipFile() const {
    const int e = timeline_->currentClipEntry();
    return clip_ && e > 0 && size_t(e) <= clips_.size() ? clips_[size_t(e - 1)].path : QString();
}

std::vector<std::shared_ptr<const Clip>> MainWindow::allClips() {
    std::vector<std::shared_ptr<const Clip>> out;
    for (ClipEntry& e : clips_) {
        if (!e.clip) {
            try {
                const Document d = resolver_->read(QFile::encodeName(e.path).toStdString(), OpenOptions{{}, false});
                if (size_t(e.indexInFile) < d.clips.size()) e.clip = d.clips[size_t(e.indexInFile)];
            } catch (const std::exception&) {
            }
        }
        if (e.clip) out.push_back(e.clip);
    }
    return out;
}

void MainWindow::refreshClipSelector(int current) { timeline_->setClipEntries(clipEntries(), current); }

bool MainWindow::selectClip(int entry) {
    if (showingAmal()) {
        timeline_->setClipEntries({timeline_->clipCombo()->itemText(1)}, 1);
        return entry == 1;
    }
    if (entry < 0 || entry > int(clips_.size())) return false;
    std::shared_ptr<const Clip> clip;
    if (entry > 0) {
        ClipEntry& e = clips_[size_t(entry - 1)];
        if (!e.clip) {
            // Clips are small: read on the GUI thread so the selection is immediate.
            QApplication::setOverrideCursor(Qt::WaitCursor);
            LoadResult r = loadFile(*resolver_, e.path);
            QApplication::restoreOverrideCursor();
            if (r.error.isEmpty() && size_t(e.indexInFile) < r.doc.clips.size())
                e.clip = r.doc.clips[size_t(e.indexInFile)];
            else {
                reportError(tr("Cannot open clip %1").arg(e.label),
                            tr("%1\n\n%2").arg(e.path, r.error.isEmpty() ? tr("the file holds no clip") : r.error));
                refreshClipSelector(clip_ ? timeline_->currentClipEntry() : 0);
                return false;
            }
        }
        clip = e.clip;
    }
    clip_ = clip;
    view_->setClip(clip_);
    boneDock_->setClip(clip_);
    timeline_->setClip(clip_);
    refreshClipSelector(entry);
    notices_->removeNotice(QStringLiteral("clip"));
    if (clip_) {
        const TrackMatch m = matchTracks(model_->skeleton, *clip_);
        if (!m.fits()) {
            const QString clipName = clip_->name.empty() ? clips_[size_t(entry - 1)].label : rs::gameText(clip_->name);
            const QString model = path_.isEmpty() ? tr("this model") : QFileInfo(path_).fileName();
            QString text = tr("Clip %1 is not made for %2: %3 of its %4 tracks match bones of this skeleton%5.")
                               .arg(clipName, model)
                               .arg(m.matched)
                               .arg(m.total)
                               .arg(m.matched < m.total ? tr(" (the others are not played)") : QString());
            if (!m.hierarchyProblem.isEmpty()) text += QLatin1Char(' ') + m.hierarchyProblem + QLatin1Char('.');
            notices_->showNotice(QStringLiteral("clip"), text);
        }
    }
    updateStatus();
    emit clipChanged();
    return true;
}

void MainWindow::openObject(const QString& name) {
    const std::shared_ptr<const objects::ObjectDb> db = objectsDock_->database();
    const std::shared_ptr<const vfs::MountTable> table = objectsDock_->table();
    if (!db || !table) {
        notices_->showNotice(QStringLiteral("object"),
                             tr("Cannot open object %1: no game or mod folder is indexed yet (File → Open game or "
                                "mod folder…).")
                                 .arg(name));
        emit objectShown(name, -1);
        return;
    }
    if (!maybeSave()) return;
    if (objectWatcher_.isRunning()) objectWatcher_.waitForFinished(); // one object at a time: the last one wins
    statusBar()->showMessage(tr("Opening object %1…").arg(name));
    objectWatcher_.setFuture(QtConcurrent::run(&loadPool_, [db, table, resolver = resolver_, name,
                                                            chosen = objectHierarchies_] {
        ObjectOpen o;
        o.name = name;
        try {
            const objects::ModelProbe probe = objects::documentProbe(*table);
            const objects::AssembledObject a = db->assemble(name.toStdString(), probe);
            o.name = QString::fromStdString(a.name);
            for (const objects::Ref* r : a.unresolved())
                o.unresolved << QStringLiteral("%1 %2 (%3)")
                                    .arg(QString::fromStdString(r->kind), QString::fromStdString(r->name),
                                         QString::fromStdString(r->where));
            o.members = a.members;
            o.ranks = a.ranks;
            o.states = objects::objectStates(*db, *table, a, probe);
            const std::string key = o.states.front().main.key;
            o.first = objects::loadState(*resolver, o.states.front(),
                                         chosen.value(QString::fromStdString(key)).toStdString());
        } catch (const std::exception& e) {
            o.error = QString::fromStdString(e.what());
        }
        return o;
    }));
}

void MainWindow::openParticleSystem(const QString& name) {
    const std::shared_ptr<const objects::SageFxLibrary> lib = objectsDock_->fxLibrary();
    const std::shared_ptr<const ParticleSystem> sys = lib ? lib->find(name.toStdString()) : nullptr;
    if (!sys) {
        notices_->showNotice(
            QStringLiteral("object"),
            tr("Cannot play particle system %1: the mounted folders define none of that name.").arg(name));
        return;
    }
    if (!maybeSave()) return;
    objectName_ = name; // the title names the system; no recent-file entry (it is no file)
    objectState_ = -1;
    objectStates_.clear();
    objectMembers_.clear();
    objectsDock_->clearGroup();
    attachments_.clear();
    objectParticles_.clear();
    sceneDock_->setStates({}, {}, -1);
    LoadResult r;
    r.path = QString::fromStdString(sys->sourcePath);
    r.doc.format = Format::Unknown;
    r.doc.particles = std::make_shared<ParticleSystem>(*sys); // the library's copy stays shared and const
    applyingObject_ = true;
    applyParticles(r);
    applyingObject_ = false;
    statusBar()->showMessage(tr("Particle system %1 (%2)").arg(name, r.path), 6000);
}

void MainWindow::finishObjectOpen() {
    const ObjectOpen o = objectWatcher_.result();
    statusBar()->clearMessage();
    if (!o.error.isEmpty() || o.states.empty()) {
        notices_->showNotice(QStringLiteral("object"), tr("Cannot open object %1: %2").arg(o.name, o.error));
        emit objectShown(o.name, -1);
        return;
    }
    objectStates_ = o.states;
    objectProblems_ = o.unresolved;
    objectMembers_ = o.members;
    objectsDock_->setGroup(o.name, o.members, o.ranks);
    readDone_.start(); // the object was read: its first frame is timed from here
    readTimed_ = true;
    applyObjectState(o.name, 0, o.first);
    readTimed_ = false;
}

bool MainWindow::selectObjectState(int i) {
    if (objectName_.isEmpty() || i < 0 || size_t(i) >= objectStates_.size()) return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const objects::ObjectState& state = objectStates_[size_t(i)];
    const objects::LoadedState s = objects::loadState(
        *resolver_, state, objectHierarchies_.value(QString::fromStdString(state.main.key)).toStdString());
    QApplication::restoreOverrideCursor();
    readDone_.start(); // this state was read: its first frame is timed from here
    readTimed_ = true;
    applyObjectState(objectName_, i, s);
    readTimed_ = false;
    return objectState_ == i;
}

QStringList MainWindow::objectStateTips() const {
    QStringList tips;
    for (const objects::ObjectState& st : objectStates_) {
        QString t = st.flags.empty() ? QString::fromStdString(st.label)
                                     : tr("condition flags: %1").arg(QString::fromStdString([&] {
                                           std::string f;
                                           for (const std::string& x : st.flags)
                                               f += (f.empty() ? "" : " ") + x;
                                           return f;
                                       }()));
        t += st.main.model.empty()
                 ? tr("\nno model (%1)").arg(QString::fromStdString(st.object))
                 : tr("\nmodel %1 (%2)").arg(QString::fromStdString(st.main.model), QString::fromStdString(st.object));
        if (!st.attachments.empty()) t += tr(", %n attachment(s)", nullptr, int(st.attachments.size()));
        if (!st.clips.empty()) t += tr(", %n clip file(s)", nullptr, int(st.clips.size()));
        tips << t;
    }
    return tips;
}

void MainWindow::showObjectWithoutModel(const QString& name, int index, const objects::LoadedState& s,
                                        const QStringList& problems) {
    const objects::ObjectState& state = objectStates_[size_t(index)];
    const QString label = QString::fromStdString(state.label);
    // Nothing of the previous model stays: the view, its docks, the timeline and the status bar's path.
    readTimed_ = false;
    awaitingFirstFrame_ = false;
    model_.reset();
    path_.clear();
    clip_.reset();
    clips_.clear();
    attachments_.clear();
    objectParticles_.clear();
    stack_->setCurrentWidget(viewSplit_);
    view_->setModel(nullptr);
    boneDock_->setModel(nullptr);
    boneDock_->setObjectAttachments({});
    materialDock_->setModel(nullptr, resolver_);
    timeline_->setClip(nullptr);
    refreshClipSelector(0);
    notices_->clearNotices();
    applyLibraryAction_->setEnabled(false);
    updateStatus();
    edits_->reset(QString(), {});
    titleBase_ = tr("%1 — rigscope").arg(name);
    updateTitle();
    sceneDock_->setStates(objectStateLabels(), objectStateTips(), index);

    QString why;
    QList<NoticeBar::Action> actions;
    if (!s.missingHierarchy.empty()) {
        // As the file view says it, with the same button; the model is not drawn folded up at the origin.
        const QString skl = QString::fromStdString(s.missingHierarchy);
        const QString key = QString::fromStdString(s.modelKey);
        why = tr("the skeleton %1 of %2 was not found").arg(skl, QString::fromStdString(state.main.model));
        notices_->showNotice(
            QStringLiteral("skeleton"),
            tr("Skeleton %1 not found (looked for %1.w3d next to %2 and in art/w3d/%3/ of the mounted folders): "
               "%4 is not drawn, its parts would fold up at the origin.")
                .arg(skl, QString::fromStdString(state.main.model), skl.left(2).toLower(), name),
            {{tr("Choose skeleton file…"), [this, key] {
                  const QString f =
                      QFileDialog::getOpenFileName(this, tr("Choose the skeleton (hierarchy) file"), openDialogDir(),
                                                   tr("W3D files (*.w3d);;All files (*)"));
                  if (f.isEmpty()) return;
                  objectHierarchies_.insert(key, f);
                  selectObjectState(objectState_);
              }}});
    } else if (!objectMembers_.empty()) {
        QStringList names;
        for (const objects::Member& m : objectMembers_)
            names << QString::fromStdString(m.object);
        why =
            tr("it has no model of its own: its members are other objects (%1)").arg(names.join(QStringLiteral(", ")));
        for (size_t i = 0; i < objectMembers_.size() && i < 3; ++i) {
            const QString member = QString::fromStdString(objectMembers_[i].object);
            actions.append({tr("Open %1").arg(member), [this, member] { openObject(member); }});
        }
        objectsDock_->show();
        objectsDock_->raise();
    } else if (state.main.model.empty()) {
        why = tr("this state shows no model");
    } else {
        why = tr("its model %1 could not be shown").arg(QString::fromStdString(state.main.model));
    }
    QString text = tr("%1, state %2: nothing to show, %3.").arg(name, label, why);
    if (!problems.isEmpty())
        text +=
            QLatin1Char(' ') +
            tr("%n reference(s) not found: %1", nullptr, int(problems.size())).arg(problems.join(QStringLiteral("; ")));
    notices_->showNotice(QStringLiteral("object"), text, actions);
    statusBar()->showMessage(tr("Object %1, state %2: nothing to show, %3").arg(name, label, why), 8000);
    emit objectShown(name, index);
}

QStringList MainWindow::objectStateLabels() const {
    QStringList out;
    for (const objects::ObjectState& s : objectStates_)
        out << QString::fromStdString(s.label);
    return out;
}

void MainWindow::applyObjectState(const QString& name, int index, const objects::LoadedState& s) {
    const objects::ObjectState& state = objectStates_[size_t(index)];
    QStringList problems;
    for (const std::string& m : s.missing)
        if (!problems.contains(QString::fromStdString(m))) problems << QString::fromStdString(m);
    for (const QString& u : objectProblems_)
        if (!problems.contains(u)) problems << u;
    objectName_ = name;
    objectState_ = index;
    if (!s.model) {
        showObjectWithoutModel(name, index, s, problems);
        return;
    }
    attachments_ = s.attachments;
    objectParticles_ = s.particles;
    LoadResult r;
    r.path = QString::fromStdString(s.path);
    r.doc.format = s.model->format;
    r.doc.model = s.model;
    for (const objects::LoadedClip& c : s.clips) {
        r.companionClips << QString::fromStdString(c.path);
        r.companionClipData.push_back(c.clip);
    }
    applyingObject_ = true;
    applyDocument(r);
    applyingObject_ = false;
    if (!s.clips.empty() && !clips_.empty() && timeline_->currentClipEntry() != 1) selectClip(1); // the state's own
    if (state.highestAlt && !model_->altLevels().empty()) {
        ViewSettings v = sceneDock_->settings();
        v.alt = model_->altLevels().back();
        sceneDock_->setSettings(v);
    }
    // The light preset follows the map the object's model is drawn on when it opens (a later choice in the Scene
    // panel stands while its states are switched).
    if (const objects::MapKind map = objects::mapKindOf(state); index == 0 && map != objects::MapKind::Unknown) {
        ViewSettings v = sceneDock_->settings();
        v.lightPreset = map == objects::MapKind::Space ? 1 : 0;
        sceneDock_->setSettings(v);
    }
    std::vector<std::pair<int, QString>> labels;
    for (const objects::LoadedAttachment& a : attachments_)
        labels.emplace_back(a.bone, QString::fromStdString(a.label));
    boneDock_->setObjectAttachments(labels);
    sceneDock_->setStates(objectStateLabels(), objectStateTips(), index);
    if (problems.isEmpty())
        notices_->removeNotice(QStringLiteral("object"));
    else
        notices_->showNotice(QStringLiteral("object"),
                             tr("%1 (%2): %n reference(s) not found: %3", nullptr, int(problems.size()))
                                 .arg(name, QString::fromStdString(state.label), problems.join(QStringLiteral("; "))));
    statusBar()->showMessage(tr("Object %1, state %2: %n attachment(s)", nullptr, int(attachments_.size()))
                                 .arg(name, QString::fromStdString(state.label)),
                             6000);
    emit objectShown(name, index);
}

void MainWindow::showDemo() {
    if (!maybeSave()) return;
    // Made by the project's own Alamo writer and read back through the Alamo reader.
    LoadResult r;
    try {
        r.doc = demo::loadDemo();
    } catch (const std::exception& e) {
        reportError(tr("Demo model"), QString::fromStdString(e.what()));
        return;
    }
    if (!r.doc.model) return;
    r.doc.model->sourcePath.clear();
    applyDocument(r);
}

void MainWindow::updateResolver() {
    std::vector<std::string> dirs;
    for (const QString& d : textureDirs_)
        dirs.push_back(QFile::encodeName(d).toStdString());
    resolver_ = std::make_shared<Resolver>(mount_, std::move(dirs));
    if (edits_) edits_->setResolver(resolver_);
    view_->setResolver(resolver_);
    amal_->setResolver(resolver_);
    if (problems_) problems_->setResolver(resolver_);
    if (model_) materialDock_->setModel(model_, resolver_);
    updateTextureNotice();
    boneDock_->setProxyParticles(view_->proxyParticles());
}

void MainWindow::setTextureDirs(const QStringList& dirs) {
    textureDirs_ = dirs;
    QSettings().setValue(QStringLiteral("textureDirs"), textureDirs_);
    updateResolver();
}

void MainWindow::setMount(std::shared_ptr<const vfs::MountTable> mount) {
    mount_ = std::move(mount);
    updateResolver();
}

void MainWindow::updateTextureNotice() {
    const int missing = model_ ? materialDock_->missingTextureCount() : 0;
    const QStringList particles = model_ ? view_->missingParticleTextures() : QStringList();
    if (missing == 0 && particles.isEmpty()) {
        notices_->removeNotice(QStringLiteral("textures"));
        return;
    }
    // One notice for both kinds, with one button: the same folder search finds both.
    QString text;
    if (missing > 0)
        text = tr("%n texture(s) not found next to the model, in the Data/Art/Textures layout or the texture folders: "
                  "drawn in a neutral grey (the Materials panel lists them).",
                  nullptr, missing);
    if (!particles.isEmpty()) {
        if (!text.isEmpty()) // the counts first: the row elides the rest
            text = tr("%1 texture(s) and %2 particle texture(s) not found. ").arg(missing).arg(particles.size()) +
                   text + QLatin1Char(' ');
        text += tr("%n particle texture(s) not found (%1): particles drawn as soft round sprites. Most particle "
                   "textures ship inside the game's archives (File → Open game or mod folder…).",
                   nullptr, int(particles.size()))
                    .arg(particles.join(QStringLiteral(", ")));
    }
    notices_->showNotice(QStringLiteral("textures"), text,
                         {{tr("Add texture folder…"), [this] {
                               const QString dir = QFileDialog::getExistingDirectory(
                                   this, tr("Add a texture folder"),
                                   textureDirs_.isEmpty() ? QFileInfo(path_).absolutePath() : textureDirs_.last());
                               if (!dir.isEmpty() && !textureDirs_.contains(dir))
                                   setTextureDirs(textureDirs_ + QStringList{dir});
                           }}});
}

QStringList MainWindow::recentFiles() const { return QSettings().value(QStringLiteral("recentFiles")).toStringList(); }

void MainWindow::addRecent(const QString& path) {
    QStringList list = recentFiles();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), list);
    rebuildRecentMenu();
}

void MainWindow::showStartPage() {
    start_->setRecentFiles(recentFiles());
    notices_->setSummary(QString()); // the 3D view's mouse hint; opening a file puts it back
    stack_->setCurrentWidget(start_);
}

bool MainWindow::showingStartPage() const { return stack_->currentWidget() == start_; }

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = recentFiles();
    start_->setRecentFiles(list);
    const QStringList labels = recentLabels(list); // names, with their folders where names repeat
    for (int i = 0; i < list.size(); ++i) {
        const QString p = list[i];
        recentMenu_->addAction(labels[i], this, [this, p] { openFile(p); })->setToolTip(p);
    }
    recentMenu_->setEnabled(!list.isEmpty());
    if (!list.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear list"), this, [this] {
            QSettings().remove(QStringLiteral("recentFiles"));
            rebuildRecentMenu();
        });
    }
}

void MainWindow::updateStatus() {
    if (showingAmal()) {
        fileLabel_->setFullText(tr("%1 [AMAL bank]").arg(QDir::toNativeSeparators(path_)));
        countsLabel_->setText(tr("2D stage: 50 ticks per second"));
        return;
    }
    if (!model_) {
        fileLabel_->setFullText(tr("no file"));
        countsLabel_->clear();
        return;
    }
    size_t tris = 0, subs = 0;
    for (const Mesh& m : model_->meshes)
        for (const SubMesh& sm : m.subMeshes) {
            tris += sm.triangleCount();
            ++subs;
        }
    fileLabel_->setFullText(path_.isEmpty() ? tr("built-in demo model")
                                            : tr("%1 [%2]").arg(QDir::toNativeSeparators(path_),
                                                                QString::fromLatin1(formatName(model_->format))));
    countsLabel_->setText(
        tr("%1 bones · %2 meshes (%3 sub-meshes) · %4 triangles%5")
            .arg(model_->skeleton.bones.size())
            .arg(model_->meshes.size())
            .arg(subs)
            .arg(tris)
            .arg(clip_ ? tr(" · clip %1 frames @ %2 fps").arg(clip_->frameCount).arg(double(clip_->fps)) : QString()));
}

static QString hierarchySettingsKey(const QString& modelPath) {
    // One key per model file (QSettings keys cannot hold '/').
    return QStringLiteral("w3dHierarchy/") +
           QString::fromLatin1(
               QFileInfo(modelPath).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}

QString MainWindow::w3dHierarchyFile(const QString& modelPath) const {
    return QSettings().value(hierarchySettingsKey(modelPath)).toString();
}

void MainWindow::setW3dHierarchyFile(const QString& modelPath, const QString& hierarchyFile) {
    QSettings s;
    if (hierarchyFile.isEmpty())
        s.remove(hierarchySettingsKey(modelPath));
    else
        s.setValue(hierarchySettingsKey(modelPath), QFileInfo(hierarchyFile).absoluteFilePath());
    if (QFileInfo(modelPath).absoluteFilePath() == path_) {
        if (clip_) reselectClip_ = timeline_->clipCombo()->currentText();
        openFile(path_);
    }
}

QString MainWindow::openDialogDir() const {
    if (!path_.isEmpty()) return QFileInfo(path_).absolutePath();
    return QSettings().value(QStringLiteral("lastDir")).toString();
}

void MainWindow::openDialog() {
    QSettings s;
    const QString p = QFileDialog::getOpenFileName(this, tr("Open model or clip"), openDialogDir(), modelFilters());
    if (p.isEmpty()) return;
    s.setValue(QStringLiteral("lastDir"), QFileInfo(p).absolutePath());
    openFile(p);
}

void MainWindow::openClipDialog() {
    const QString p = QFileDialog::getOpenFileName(this, tr("Open clip"), openDialogDir(),
                                                   tr("Clips (*.ala *.w3d *.al);;All files (*)"));
    if (!p.isEmpty())
        openFile(p);
    else
        refreshClipSelector(clip_ ? timeline_->currentClipEntry() : 0);
}

void MainWindow::saveViewScreenshot(const QString& path, std::function<void(bool)> done) {
    view_->capture([this, path, done](const QImage& img) {
        const bool ok = !img.isNull() && img.save(path);
        statusBar()->showMessage(ok ? tr("Saved %1").arg(path) : tr("Could not save %1").arg(path), 5000);
        if (!ok && !done) reportError(tr("Screenshot"), tr("Could not write %1").arg(path));
        if (done) done(ok);
    });
}

void MainWindow::screenshotDialog() {
    const QString base = path_.isEmpty() ? QStringLiteral("rigscope") : QFileInfo(path_).completeBaseName();
    const QString p = QFileDialog::getSaveFileName(
        this, tr("Save screenshot"), QDir::home().filePath(base + QStringLiteral(".png")), tr("PNG images (*.png)"));
    if (!p.isEmpty()) saveViewScreenshot(p);
}

void MainWindow::grabWindowImage(std::function<void(const QImage&)> done) {
    view_->capture([this, done](const QImage& viewImg) {
        QImage win = grab().toImage();
        QWidget* vw = view_->widget();
        if (!viewImg.isNull() && vw->isVisible()) {
            const qreal dpr = win.devicePixelRatio();
            QPainter p(&win);
            const QRect r(vw->mapTo(this, QPoint(0, 0)), vw->size());
            p.drawImage(QRectF(r.topLeft(), QSizeF(r.size())), viewImg);
            Q_UNUSED(dpr);
        }
        done(win);
    });
}

void MainWindow::preferencesDialog() {
    PreferencesDialog d(textureDirs_, this);
    d.setKeepBackups(edits_->keepBackups());
    if (d.exec() != QDialog::Accepted) return;
    edits_->setKeepBackups(d.keepBackups());
    QSettings().setValue(QStringLiteral("save/keepBackups"), d.keepBackups());
    setTextureDirs(d.textureDirs());
}

void MainWindow::loadSettings() {
    QSettings s;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) {
        // First run: about 80 % of the screen, centred.
        if (const QScreen* screen = QGuiApplication::primaryScreen()) {
            const QRect avail = screen->availableGeometry();
            const QSize size(avail.width() * 4 / 5, avail.height() * 4 / 5);
            resize(size);
            move(avail.center() - QPoint(size.width() / 2, size.height() / 2));
        }
    }
    layoutRestored_ = restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    textureDirs_ = s.value(QStringLiteral("textureDirs")).toStringList();
    edits_->setKeepBackups(s.value(QStringLiteral("save/keepBackups"), true).toBool());
    ViewSettings v = sceneDock_->settings();
    v.factionColor = s.value(QStringLiteral("view/factionColor"), v.factionColor).value<QColor>();
    v.background = s.value(QStringLiteral("view/background"), v.background).value<QColor>();
    v.skeleton = s.value(QStringLiteral("view/skeleton"), v.skeleton).toBool();
    v.wireframe = s.value(QStringLiteral("view/wireframe"), v.wireframe).toBool();
    v.lights = s.value(QStringLiteral("view/lights"), v.lights).toBool();
    v.dazzles = s.value(QStringLiteral("view/dazzles"), v.dazzles).toBool();
    v.particles = s.value(QStringLiteral("view/particles"), v.particles).toBool();
    v.proxies = s.value(QStringLiteral("view/proxies"), v.proxies).toBool();
    v.grid = s.value(QStringLiteral("view/grid"), v.grid).toBool();
    v.night = s.value(QStringLiteral("view/night"), v.night).toBool();
    v.allLabels = s.value(QStringLiteral("view/allLabels"), v.allLabels).toBool();
    sceneDock_->setSettings(v);
    timeline_->setSpeed(s.value(QStringLiteral("playback/speed"), 1.0).toDouble());
    timeline_->setLoopMode(LoopMode(std::clamp(s.value(QStringLiteral("playback/mode"), 0).toInt(), 0, 2)));
    rebuildRecentMenu();
}

void MainWindow::saveSettings() {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    const ViewSettings& v = sceneDock_->settings();
    s.setValue(QStringLiteral("view/factionColor"), v.factionColor);
    s.setValue(QStringLiteral("view/background"), v.background);
    s.setValue(QStringLiteral("view/skeleton"), v.skeleton);
    s.setValue(QStringLiteral("view/wireframe"), v.wireframe);
    s.setValue(QStringLiteral("view/lights"), v.lights);
    s.setValue(QStringLiteral("view/dazzles"), v.dazzles);
    s.setValue(QStringLiteral("view/particles"), v.particles);
    s.setValue(QStringLiteral("view/proxies"), v.proxies);
    s.setValue(QStringLiteral("view/grid"), v.grid);
    s.setValue(QStringLiteral("view/night"), v.night);
    s.setValue(QStringLiteral("view/allLabels"), v.allLabels);
    s.setValue(QStringLiteral("playback/speed"), timeline_->speed());
    s.setValue(QStringLiteral("playback/mode"), int(timeline_->loopMode()));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() != QEvent::ShortcutOverride) return QMainWindow::eventFilter(watched, e);
    auto* k = static_cast<QKeyEvent*>(e);
    auto* target = qobject_cast<QWidget*>(watched);
    if (!target || target->window() != this || (k->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier) return false;
    switch (k->key()) {
    case Qt::Key_Space:
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Home:
    case Qt::Key_End:
        break;
    default:
        return false;
    }
    if (isTextBeingEdited(target)) return false;
    // Keep the focused widget (spin box, tree, combo) from claiming the key: the window's shortcut runs.
    e->ignore();
    return true;
}

bool MainWindow::isTextBeingEdited(const QWidget* w) {
    if (const auto* le = qobject_cast<const QLineEdit*>(w)) return !le->isReadOnly() && le->isModified();
    if (const auto* te = qobject_cast<const QTextEdit*>(w)) return !te->isReadOnly();
    if (const auto* pe = qobject_cast<const QPlainTextEdit*>(w)) return !pe->isReadOnly();
    if (const auto* sb = qobject_cast<const QAbstractSpinBox*>(w)) {
        const auto* le = sb->findChild<const QLineEdit*>();
        return le && le->isModified();
    }
    return false;
}

void MainWindow::applyDefaultDockSizes() {
    // Side panels wide enough for bone names and material values; the 3D view keeps at least half the width.
    const int w = std::max(width(), 640);
    const int left = std::clamp(w / 5, 220, 340);
    const int right = std::clamp(w / 4, 280, 440);
    resizeDocks({boneDock_, sceneDock_}, {left, right}, Qt::Horizontal);
    const int h = std::max(height() - timeline_->sizeHint().height() - 80, 300);
    resizeDocks({sceneDock_, materialDock_}, {h * 2 / 5, h * 3 / 5}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (!layoutRestored_ && !defaultLayoutApplied_) {
        defaultLayoutApplied_ = true;
        // Once the window has its real size (the docks cannot be sized before).
        QTimer::singleShot(0, this, [this] { applyDefaultDockSizes(); });
    }
}

void MainWindow::setDocksFor3D(bool on) {
    // The Assets panel (tabbed with Bones) goes too while it lists nothing: the stage gets the room.
    auto* assets = findChild<AssetBrowserDock*>();
    const bool assetsEmpty = assets && assets->visibleCount() == 0 && assets->games().isEmpty();
    const std::initializer_list<QDockWidget*> docks = {boneDock_, materialDock_, sceneDock_, assets};
    if (!on) {
        if (!hiddenFor2D_.isEmpty()) return;
        for (QDockWidget* d : docks)
            if (d && d->isVisible() && (d != assets || assetsEmpty)) {
                hiddenFor2D_ << d;
                d->hide();
            }
        return;
    }
    if (hiddenFor2D_.isEmpty()) return;
    for (QDockWidget* d : docks)
        if (d && hiddenFor2D_.contains(d)) d->show();
    hiddenFor2D_.clear();
    boneDock_->raise(); // back from 2D: Bones, not Assets, in front of their tab group
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!maybeSave()) {
        e->ignore();
        return;
    }
    setDocksFor3D(true); // the saved layout is the 3D one
    saveSettings();
    timeline_->pause();
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!e->mimeData()->hasUrls()) return;
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) {
            e->acceptProposedAction();
            return;
        }
}

void MainWindow::dropEvent(QDropEvent* e) {
    // Models first, then clips, so dropping a model with its clips applies the clips to it.
    QStringList models, clips;
    for (const QUrl& u : e->mimeData()->urls()) {
        if (!u.isLocalFile()) continue;
        const QString p = u.toLocalFile();
        const QString ext = QFileInfo(p).suffix().toLower();
        (ext == QLatin1String("ala") || ext == QLatin1String("al") ? clips : models) << p;
    }
    for (const QString& p : models + clips)
        openFile(p);
    e->acceptProposedAction();
}


// ---- Editing and saving (edit_session.h) ----

void MainWindow::updateTitle() {
    const bool modified = edits_ && edits_->isModified();
    const QString base = titleBase_.isEmpty() ? QStringLiteral("rigscope") : titleBase_;
    setWindowTitle(modified ? QStringLiteral("*") + base : base);
    const bool editable = edits_ && !edits_->documentPath().isEmpty();
    if (saveAction_) {
        saveAction_->setEnabled(editable && edits_->isModified(edits_->documentPath()));
        saveAsAction_->setEnabled(editable && (!edits_->files().isEmpty() || isImportedModel(edits_->documentPath())));
        saveAllAction_->setEnabled(modified);
    }
}

bool MainWindow::applyEdit(const QString& text, const std::vector<EditSession::FileEdit>& edits) {
    if (edits_->documentPath().isEmpty()) {
        reportError(tr("Cannot edit"), tr("Only a model opened from a file can be edited (not the demo, a game object "
                                          "or a particle system shown alone)."));
        return false;
    }
    QString why;
    if (!edits_->apply(text, edits, &why)) {
        if (why != tr("nothing to change")) reportError(tr("Cannot %1").arg(text), why);
        else statusBar()->showMessage(tr("%1: nothing to change").arg(text), 5000);
        return false;
    }
    size_t n = 0;
    for (const auto& [file, changes] : edits_->lastChanges())
        n += changes.size();
    statusBar()->showMessage(tr("%1: %n change(s) in %2 file(s), not saved yet", nullptr, int(n))
                                 .arg(text)
                                 .arg(edits_->lastChanges().size()),
                             6000);
    return true;
}

void MainWindow::showEditedClips(const QStringList& files) {
    // A clip file an edit changed (a bone rename, a clip's rate, name or frames): its entries read again from the
    // edited bytes, and the one shown shown again at the same time.
    bool current = false;
    const int entry = timeline_->currentClipEntry();
    for (size_t i = 0; i < clips_.size(); ++i) {
        ClipEntry& e = clips_[i];
        if (!files.contains(e.path) || e.path == edits_->documentPath()) continue;
        const std::vector<uint8_t> bytes = edits_->bytes(e.path);
        if (bytes.empty()) continue;
        try {
            OpenOptions o;
            o.companionClips = false;
            o.label = QFile::encodeName(e.path).toStdString();
            const Document d = resolver_->read(ByteSpan(bytes), QFile::encodeName(e.path).toStdString(), o);
            if (size_t(e.indexInFile) >= d.clips.size()) continue;
            e.clip = d.clips[size_t(e.indexInFile)];
            if (int(i) + 1 == entry) current = true;
        } catch (const std::exception& ex) {
            reportError(tr("Cannot show the edit"), QString::fromStdString(ex.what()));
        }
    }
    if (!current) return;
    const float pos = timeline_->position();
    selectClip(entry);
    // The timeline follows the clip's frames (a trim shortens it).
    timeline_->setPosition(std::min(pos, clip_ && clip_->frameCount > 0 ? float(clip_->frameCount - 1) : 0.0f));
}

void MainWindow::showEditedDocument() {
    const QString doc = edits_->documentPath();
    if (doc.isEmpty() || !model_) return;
    const std::vector<uint8_t> bytes = edits_->bytes(doc);
    if (bytes.empty()) return;
    std::shared_ptr<const Model> model;
    try {
        OpenOptions o; // read as it was opened (a W3D skin's hierarchy found the same way), without its clips
        o.companionClips = false;
        o.w3dHierarchyFile = QFile::encodeName(w3dHierarchyFile(path_)).toStdString();
        o.label = QFile::encodeName(path_).toStdString();
        Document d = resolver_->read(ByteSpan(bytes), QFile::encodeName(path_).toStdString(), o);
        model = d.model;
    } catch (const std::exception& e) {
        reportError(tr("Cannot show the edit"), QString::fromStdString(e.what()));
        return;
    }
    if (!model) return;
    // In place: the camera stays (only frameModel moves it), and the clip, its time and the selections come back.
    model_ = model;
    reshowInPlace(true);
}

bool MainWindow::maybeSave() {
    const QStringList files = edits_->modifiedFiles();
    if (files.isEmpty()) return true;
    int answer;
    if (unsavedPrompt_) {
        answer = unsavedPrompt_(files);
    } else {
        QStringList names;
        for (const QString& f : files)
            names << QDir::toNativeSeparators(f);
        answer = QMessageBox::question(this, tr("Unsaved edits"),
                                       tr("Save the edits of these files?\n\n%1").arg(names.join(QLatin1Char('\n'))),
                                       QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                       QMessageBox::Save);
    }
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) {
        edits_->reset(QString(), {}); // nothing of them is kept (the view shows them until the next document)
        return true;
    }
    QStringList saved, failures;
    for (const QString& f : files) {
        const EditSession::SaveResult r = edits_->save(f);
        (r.ok ? saved : failures) << (r.ok ? r.dest : r.message);
    }
    afterSave(saved);
    if (!failures.isEmpty()) {
        reportError(tr("Save"), failures.join(QStringLiteral("\n\n")));
        return false;
    }
    return true;
}

bool MainWindow::saveAll() {
    const QStringList files = edits_->modifiedFiles();
    // The other files an edit changed (a bone rename's clips and object definitions) are listed first, and saved
    // together with the document or not at all.
    if (!confirmSavingOthers(this, edits_, files)) return false;
    QStringList saved, failures;
    for (const QString& f : files) {
        const EditSession::SaveResult r = edits_->save(f);
        (r.ok ? saved : failures) << (r.ok ? r.dest : r.message);
    }
    if (!failures.isEmpty()) reportError(tr("Save all"), failures.join(QStringLiteral("\n\n")));
    afterSave(saved);
    if (failures.isEmpty() && !saved.isEmpty())
        statusBar()->showMessage(tr("Saved %n file(s)", nullptr, int(saved.size())), 15000);
    return failures.isEmpty();
}

bool MainWindow::save() {
    const QString doc = edits_->documentPath();
    // An edit that changed other files with the document (a bone rename) is saved with them.
    if (!doc.isEmpty() && edits_->isModified(doc) && edits_->modifiedFiles().size() > 1) return saveAll();
    if (doc.isEmpty() || !edits_->isModified(doc)) {
        statusBar()->showMessage(edits_->isModified() ? tr("The open file has no unsaved edit; other files do: "
                                                           "File → Save all")
                                                      : tr("Nothing to save"),
                                 5000);
        return !edits_->isModified();
    }
    const EditSession::SaveResult r = edits_->save(doc);
    if (!r.ok) {
        reportError(tr("Save"), r.message);
        return false;
    }
    afterSave({r.dest});
    statusBar()->showMessage(r.message, 15000);
    return true;
}

bool MainWindow::saveAs(const QString& dest) {
    const QString doc = edits_->documentPath();
    QString importError; // a converted glTF: written for `dest` (import_dialog.h), edited: its clips, then below
    if (const auto imp = doc.isEmpty() ? std::nullopt : saveImportedAs(this, doc, dest, edits_->isModified(doc),
                                                                        &importError)) {
        if (*imp == ImportSave::Failed) reportError(tr("Save as"), importError);
        if (*imp != ImportSave::CompanionsWritten) return *imp == ImportSave::AllWritten;
    }
    if (doc.isEmpty() || edits_->files().isEmpty()) return false;
    const EditSession::SaveResult r = edits_->save(doc, dest);
    if (!r.ok) {
        reportError(tr("Save as"), r.message);
        return false;
    }
    afterSave({r.dest});
    statusBar()->showMessage(r.message, 15000);
    return true;
}

void MainWindow::afterSave(const QStringList& saved) {
    live_->acknowledge(saved); // our own writes are no change from outside (live reload)
    // The document is now where it was saved (an archive entry's loose copy, Save As).
    if (!edits_->documentPath().isEmpty() && edits_->documentPath() != path_) {
        path_ = edits_->documentPath();
        titleBase_ = tr("%1 — rigscope").arg(QFileInfo(path_).fileName());
        problems_->setCurrentFile(path_);
        addRecent(path_);
        updateStatus();
    }
    updateTitle();
    // The mod check on what was written, in the Problems panel.
    if (!saved.isEmpty()) {
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(problems_, &ProblemsDock::finished, this, [this, once, saved] {
            disconnect(*once);
            const size_t n = problems_->report().findings.size();
            if (n == 0) {
                const QString said = statusBar()->currentMessage();
                statusBar()->showMessage((said.isEmpty() ? QString() : said + QStringLiteral("; ")) +
                                             tr("the mod check found nothing in the %n saved file(s)", nullptr,
                                                int(saved.size())),
                                         15000);
                return;
            }
            problems_->show(); // what the check found in the saved files, in front
            problems_->raise();
        });
        problems_->checkFiles(saved);
    }
}

QStringList MainWindow::textureChoices() const {
    // The texture files of the mounted folders and those beside the model, by file name (how models name them).
    QStringList out;
    QSet<QString> seen;
    auto add = [&](const std::string& key) {
        const size_t slash = key.find_last_of("/\\");
        const QString name = QString::fromStdString(cp1252ToUtf8(slash == std::string::npos ? key : key.substr(slash + 1)));
        const QString lower = name.toLower();
        if (!(lower.endsWith(QLatin1String(".dds")) || lower.endsWith(QLatin1String(".tga")))) return;
        if (!seen.contains(lower)) {
            seen.insert(lower);
            out << name;
        }
    };
    if (resolver_->mounted())
        resolver_->mounted()->forEach([&](const std::string& key, const std::vector<vfs::Hit>&) { add(key); });
    if (model_ && !model_->sourcePath.empty())
        for (const char* ext : {".dds", ".tga"})
            for (const std::string& f : resolver_->filesBeside(model_->sourcePath, ext))
                add(f);
    out.sort(Qt::CaseInsensitive);
    return out;
}

std::vector<ModelAttachment> MainWindow::viewAttachments() const {
    std::vector<ModelAttachment> a;
    for (const objects::LoadedAttachment& l : attachments_)
        a.push_back({l.model, l.bone, nullptr, {}});
    for (const objects::LoadedParticles& p : objectParticles_)
        a.push_back({nullptr, p.boneIndex, p.definition, p.system});
    return a;
}

} // namespace rs::ui
