// The viewer's main window: 3D view in the centre, dockable timeline / bones / materials / scene panels,
// file handling (open, drag and drop, recent files, reload, clips), screenshots, status bar.
#pragma once

#include "edit_session.h"
#include "model_view.h"

#include "objects/object_states.h"
#include "resolve/resolver.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>

#include <functional>
#include <memory>

class QLabel;
class QMenu;
class QSplitter;
class QProgressDialog;
class QStackedWidget;

class QAction;
class QDockWidget;

namespace rs::ui {

class AmalView;
class StartPage;
class BoneTreeDock;
class CompareSession;
class FileWatch;
class MaterialDock;
class ProblemsDock;
class ElidedLabel;
class NoticeBar;
class ObjectsDock;
class SceneDock;
class TimelineDock;

// Result of loading one file on the worker thread.
struct LoadResult {
    QString path;
    Document doc;
    QStringList companionClips;                                 // clip files that belong to the model (Asset::clips)
    std::vector<std::shared_ptr<const Clip>> companionClipData; // per companionClips entry; null if unreadable
    std::vector<TextureRef> textures;                           // the model's textures as the resolver found them
    QString error;            // rs::ParseError::what() (or other failure); empty on success
    QString missingHierarchy; // W3D: the hierarchy the model needs and that was not found
    FileStamp stamp;          // of the file on disk holding it (the archive for an entry), taken before reading
};

// Opens path with what belongs to it through `resolver` (thread-safe; used on a worker thread). w3dHierarchyFile:
// the W3D hierarchy file chosen by the user for this model (empty: looked up).
LoadResult loadFile(const Resolver& resolver, const QString& path, const QString& w3dHierarchyFile = QString());
// How a clip's tracks fit a skeleton: tracks bound to one of its bones, of all tracks.
struct TrackMatch {
    int matched = 0;
    int total = 0;
    bool clean = false;       // rs::bindClip reported no problem
    QString hierarchyProblem; // the clip names another hierarchy (W3D)
    bool fits() const { return clean && matched == total; }
};
TrackMatch matchTracks(const Skeleton& skeleton, const Clip& clip);

// Test hook: every loadFile() sleeps ms before reading (0 = off), to exercise slow loads.
void setLoadDelayForTesting(int ms);

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    using ErrorReporter = std::function<void(const QString& title, const QString& message)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Replaces the message box shown for errors (tests record instead).
    void setErrorReporter(ErrorReporter reporter) { reporter_ = std::move(reporter); }

    // Opens a model or clip file on a worker thread: what File → Open, drag and drop, recent files and
    // the command line use. A clip-only file applies to the open model. Requests are queued.
    void openFile(const QString& path);
    // Shows the built-in demo model (when this build has one).
    void showDemo();
    // The start page (start_page.h) in the central area: the games and mods found, the recent files. Shown when
    // the viewer starts without a file, and by File → Start page; opening anything shows the view again.
    void showStartPage();
    bool showingStartPage() const;
    StartPage* startPage() const { return start_; }
    // True from openFile() until the last queued file has been applied (or refused) on the GUI thread.
    bool isLoading() const { return loading_ || !queue_.isEmpty(); }

    std::shared_ptr<const Model> model() const { return model_; }
    QString currentPath() const { return path_; }
    QStringList clipEntries() const; // labels of the timeline's clip entries (without "(bind pose)")
    // Every clip of the timeline's entries, read when not read yet (unreadable ones left out).
    std::vector<std::shared_ptr<const Clip>> allClips();
    // Selects clip entry i (1-based as in the selector; 0 = bind pose). Returns false when it cannot be loaded.
    bool selectClip(int entry);
    std::shared_ptr<const Clip> clip() const { return clip_; }
    // The file holding the clip shown ("" for the bind pose): what the timeline's clip edits change.
    QString clipFile() const;
    // Applies a B&W2 animation library (.al) to the open .bwm skin: bone names/parents from the library
    // (rs::bw2::applyLibrary), its animations become the timeline's clips. Refuses with a message naming both
    // files when the library does not fit (rs::bw2::libraryFits). Synchronous; returns true when applied.
    bool applyAnimationLibrary(const QString& alPath);

    ModelView* view() const { return view_.get(); }
    AmalView* amalView() const { return amal_; }
    // True when the centre shows the 2D AMAL stage (an .abk/.AMOS file is open) instead of the 3D view.
    bool showingAmal() const;
    QString hint3D() const; // the notice bar's line while a 3D file has no notice
    TimelineDock* timeline() const { return timeline_; }
    BoneTreeDock* boneTree() const { return boneDock_; }
    MaterialDock* materials() const { return materialDock_; }
    SceneDock* scene() const { return sceneDock_; }
    QStringList textureDirs() const { return textureDirs_; }
    void setTextureDirs(const QStringList& dirs);
    // The game and mod folders mounted in the Assets panel (null: none) and the resolver every file is opened
    // through: those folders and the texture folders. Replaced (never changed) when either changes.
    void setMount(std::shared_ptr<const vfs::MountTable> mount);
    std::shared_ptr<const Resolver> resolver() const { return resolver_; }
    ProblemsDock* problemsDock() const { return problems_; }
    QStringList recentFiles() const;
    // The W3D hierarchy file chosen by hand for a model (remembered per model file); setting it reloads the
    // model when it is the open one. Empty = look it up.
    QString w3dHierarchyFile(const QString& modelPath) const;
    void setW3dHierarchyFile(const QString& modelPath, const QString& hierarchyFile);
    // Where File → Open and Open clip start: the open file's folder, else the last folder used.
    QString openDialogDir() const;
    NoticeBar* notices() const { return notices_; }
    // File → Compare with… (compare_session.h).
    CompareSession* compareSession() const { return compare_; }

    // Editing and saving (edit_session.h): the open document's edits, Edit → Undo/Redo/History, File → Save,
    // Save As…, Save All. An edit is shown at once: the document is read again from the edited bytes and shown
    // with the camera, clip, time and selections kept.
    EditSession* edits() const { return edits_; }
    // Applies an edit to the open document (and the other files it names) as one undoable step; false (with a
    // message in the status bar and the error reporter) when it cannot be made.
    bool applyEdit(const QString& text, const std::vector<EditSession::FileEdit>& edits);
    // File → Save: every modified file of the document to where it belongs (an archive entry: its game path in the
    // first mounted mod folder). File → Save All is the same for every modified file; Save As asks for a place.
    // True when everything modified was written; failures go to the error reporter and keep the edits.
    bool save();
    bool saveAs(const QString& dest);
    // File → Save All (and Save when the edits changed other files too): lists the other files first
    // (confirmSavingOthers, edit_panels.h), then saves every modified file.
    bool saveAll();
    // How the window asks about unsaved edits before they would be lost (opening another file, closing): returns
    // QMessageBox::Save, Discard or Cancel. Tests answer instead of the dialog.
    using UnsavedPrompt = std::function<int(const QStringList& files)>;
    void setUnsavedPrompt(UnsavedPrompt p) { unsavedPrompt_ = std::move(p); }
    // Asks (when something is unsaved) and saves if told to; false when the user cancels or the save fails.
    bool maybeSave();
    QDockWidget* historyDock() const { return historyDock_; }

    // Live reload (issue 43 item 2, main_window_live.cpp): the files the window shows (the model or the archive
    // holding it, its clips, the textures found, the folders a missing texture may appear in) are watched
    // (file_watch.h). A change that settled is shown in place: the camera, the clip, its time, the LOD/ALT and
    // the selections stay. A file that does not read yet (a tool still exporting it) is retried, not reported;
    // one that stays unreadable is named in a notice while the last version read stays shown. Unsaved edits of
    // the changed file are never thrown away: the notice asks (Reload from disk / Keep my edits).
    FileWatch* liveWatch() const { return live_; }
    void setLiveReload(bool on);
    bool liveReload() const { return liveOn_; }

    // Game objects (Objects panel). Opens the object of the Objects panel's database on a worker thread: its
    // states (objects/object_states.h), then the first state: the main model through the window's resolver, the
    // attachments hung at their bones, the state's clips on the timeline. What is not found is listed in the
    // "object" notice (never a dialog).
    void openObject(const QString& name);
    // Plays particle system `name` of the Objects panel's SAGE library (ParticleSystem.ini, FXParticleSystem.ini) on
    // its own, looping, as a particle file is shown; a notice when the mounted folders define none of that name.
    void openParticleSystem(const QString& name);
    // Shows state i of the open object (models swapped, sub-objects hidden/shown, its clips on the timeline);
    // synchronous. False when no object is open or i is out of range.
    bool selectObjectState(int i);
    bool isOpeningObject() const { return objectWatcher_.isRunning(); }
    QString objectName() const { return objectName_; } // empty when the open model is not a game object
    int objectState() const { return objectState_; }
    QStringList objectStateLabels() const;
    const std::vector<objects::LoadedAttachment>& objectAttachments() const { return attachments_; }
    const std::vector<objects::LoadedParticles>& objectParticles() const { return objectParticles_; }
    ObjectsDock* objectsPanel() const { return objectsDock_; }

    // Grabs the whole window with the 3D view composited in (QWidget::grab misses GL windows).
    void grabWindowImage(std::function<void(const QImage&)> done);
    // Writes a capture of the 3D view to path; done(ok) is called on the GUI thread.
    void saveViewScreenshot(const QString& path, std::function<void(bool)> done = {});

  signals:
    void documentOpened(const QString& path);
    void openFailed(const QString& path, const QString& message);
    void clipChanged();
    // The view presented its first frame of the model just opened, ms after the worker finished reading it.
    void modelShown(qint64 ms);
    // An object state was shown (openObject, selectObjectState), or opening an object failed (state -1).
    void objectShown(const QString& name, int state);
    // A live reload was shown: what changed on disk (the files as watched).
    void reloadedFromDisk(const QStringList& files);

  protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

  private:
    struct ClipEntry {
        QString label;
        QString path;
        int indexInFile = 0;
        std::shared_ptr<const Clip> clip; // null until loaded
        bool matches = true;              // tracks fit the skeleton (matchTracks); unknown counts as true
    };

    void buildMenus();
    void applyDefaultDockSizes();
    // One notice: how many model and particle textures are missing, with "Add texture folder…".
    void updateTextureNotice();
    // A line edit the user has typed into (spin boxes included), or an editable text area.
    static bool isTextBeingEdited(const QWidget* w);
    // false: hides the 3D-only docks (bones, materials, scene) that are open; true: shows them again.
    void setDocksFor3D(bool on);
    void startNextLoad();
    void finishLoad();
    void applyDocument(const LoadResult& r);
    struct ObjectOpen {
        QString name;
        std::vector<objects::ObjectState> states;
        objects::LoadedState first;
        QStringList unresolved; // the object's references that were not found (AssembledObject::unresolved)
        std::vector<objects::Member> members; // a group object's (horde, squadron, company)
        std::vector<objects::Rank> ranks;
        QString error;
    };
    void finishObjectOpen();
    void applyObjectState(const QString& name, int index, const objects::LoadedState& s);
    // A state with nothing to draw (no model, a group object, a skeleton not found): the view and the model's docks
    // emptied, the reason in the notices and the status bar, a group's members offered.
    void showObjectWithoutModel(const QString& name, int index, const objects::LoadedState& s,
                                const QStringList& problems);
    QStringList objectStateTips() const;
    void applyClipDocument(const LoadResult& r);
    // A particle system file: shown alone on a one-bone stand-in, with a track-less clip of one loop that plays.
    void applyParticles(const LoadResult& r);
    void applyAmal(const LoadResult& r);
    void setAmalClip(int ticks);
    void refreshClipSelector(int current);
    void reportError(const QString& title, const QString& message);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void updateStatus();
    void openDialog();
    void openClipDialog();
    void applyLibraryDialog();
    void screenshotDialog();
    void preferencesDialog();
    void loadSettings();
    void saveSettings();
    void updateTitle();
    // The document's bytes changed (an edit, undo, redo): read it again from them and show it in place.
    void showEditedDocument();
    // Clip files among `files` (changed by an edit, undo or redo): their timeline entries read again from the edited
    // bytes, the one shown shown again.
    void showEditedClips(const QStringList& files);
    void afterSave(const QStringList& saved);
    QStringList textureChoices() const;
    // The clip entries of a read document: its companion clips, then the clips in the file, marked when their
    // tracks do not fit the model's skeleton (applyDocument and the live reload).
    std::vector<ClipEntry> clipEntriesOf(const LoadResult& r) const;

    // Live reload (main_window_live.cpp).
    void initLiveReload();
    void updateWatchedFiles();
    void onFoldersChanged();
    void onChangedOnDisk(const QStringList& files);
    void reloadModelFromDisk(const QString& diskFile);
    void applyReloaded(const LoadResult& r, const QStringList& changed);
    bool reloadClipsFromDisk(const QStringList& diskFiles);
    // Shows the model in place again (the view rebuilt: textures decoded anew), keeping the camera, the clip and
    // its time, the LOD/ALT and the selections.
    // edited: the model is the document's after an edit (the Materials panel updates only the rows that changed).
    void reshowInPlace(bool edited = false);
    void showPanelsInPlace(const QList<int>& material, bool edited = false);
    // What a game object hangs at its bones (attachments_, objectParticles_), as the view takes it.
    std::vector<ModelAttachment> viewAttachments() const;
    FileWatch* live_ = nullptr;
    bool liveOn_ = true;
    QFutureWatcher<LoadResult> liveWatcher_;
    QString liveDisk_;       // the disk file liveWatcher_ is reading for
    bool liveAgain_ = false; // the model changed again while liveWatcher_ was reading it

    std::unique_ptr<ModelView> view_;
    QStackedWidget* stack_ = nullptr;
    QSplitter* viewSplit_ = nullptr; // the view, and B's view beside it while comparing
    CompareSession* compare_ = nullptr;
    NoticeBar* notices_ = nullptr;
    AmalView* amal_ = nullptr;
    StartPage* start_ = nullptr;
    std::shared_ptr<Clip> amalClip_; // timeline stand-in for an AMAL track: 50 frames per second, no tracks
    TimelineDock* timeline_ = nullptr;
    BoneTreeDock* boneDock_ = nullptr;
    MaterialDock* materialDock_ = nullptr;
    ProblemsDock* problems_ = nullptr; // View -> Problems
    // What a double-clicked problem names, selected once its file is open; dropped when that file does not open
    // as a model (failed, cancelled, another kind of document) and never applied to another file.
    struct PendingSelection {
        QString file, bone, material, mesh;
        int subMesh = -1;
        bool empty() const { return file.isEmpty(); }
        bool isFor(const QString& path) const;
    };
    PendingSelection pending_;
    void selectInPanels(const PendingSelection& s); // the bone, else texture, else sub-mesh or mesh it names
    SceneDock* sceneDock_ = nullptr;
    ObjectsDock* objectsDock_ = nullptr;
    QFutureWatcher<ObjectOpen> objectWatcher_;
    QString objectName_;
    int objectState_ = -1;
    std::vector<objects::ObjectState> objectStates_;
    std::vector<objects::LoadedAttachment> attachments_;
    std::vector<objects::LoadedParticles> objectParticles_; // SAGE: the state's particle systems at bones
    QStringList objectProblems_;  // the open object's unresolved references (shown with every state's)
    std::vector<objects::Member> objectMembers_; // the open object's members (group objects)
    QHash<QString, QString> objectHierarchies_;  // W3D hierarchy file chosen for an object model's game path
    bool applyingObject_ = false; // applyDocument is showing an object state (attachments, no recent entry)
    QMenu* recentMenu_ = nullptr;
    ElidedLabel* fileLabel_ = nullptr;
    QLabel *countsLabel_ = nullptr, *fpsLabel_ = nullptr;
    QPointer<QProgressDialog> progress_;
    QTimer progressDelay_;

    ErrorReporter reporter_;
    QStringList queue_;
    QString loadingPath_;
    QThreadPool loadPool_; // own thread: loads never wait behind texture decoding in the global pool
    QFutureWatcher<LoadResult> watcher_;
    bool cancelled_ = false;
    bool layoutRestored_ = false;
    bool defaultLayoutApplied_ = false;
    QList<QDockWidget*> hiddenFor2D_;
    bool loading_ = false;

    std::shared_ptr<const Model> model_;
    std::shared_ptr<const Clip> clip_;
    QString path_;
    std::vector<ClipEntry> clips_;
    QAction* applyLibraryAction_ = nullptr; // enabled while a .bwm skin is open
    QString reselectClip_;                  // clip label to restore after Reload
    QStringList textureDirs_;
    std::shared_ptr<const vfs::MountTable> mount_;
    std::shared_ptr<const Resolver> resolver_ = std::make_shared<Resolver>();
    void updateResolver();

    EditSession* edits_ = nullptr;
    QDockWidget* historyDock_ = nullptr;
    QAction *saveAction_ = nullptr, *saveAsAction_ = nullptr, *saveAllAction_ = nullptr;
    UnsavedPrompt unsavedPrompt_;
    QString titleBase_; // the title's name part ("EV_ESCORT.ALO")

    QElapsedTimer readDone_;   // started when a read finishes (a file, an object, an object's state)
    bool readTimed_ = false;   // readDone_ was started for the document applyDocument shows next
    QTimer releaseAfterShown_; // fallback end of the notice/thumbnail hold when no frame follows a load
    bool awaitingFirstFrame_ = false;
    QTimer fpsTimer_;
    int timelineHeight_ = 0; // the timeline's height while the Problems list in its tab group is in front
    int framesThisSecond_ = 0;
};

} // namespace rs::ui
