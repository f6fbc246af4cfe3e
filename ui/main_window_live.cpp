// Live reload of the main window (issue 43 item 2): what main_window.h says under "Live reload".
#include "bone_tree_dock.h"
#include "file_watch.h"
#include "main_window.h"
#include "material_dock.h"
#include "notice_bar.h"
#include "objects_dock.h"
#include "scene_dock.h"
#include "timeline_dock.h"

#include <QComboBox>
#include <QFileInfo>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "objects/object_db.h"

namespace rs::ui {

void MainWindow::initLiveReload() {
    live_ = new FileWatch(this);
    connect(live_, &FileWatch::changed, this, &MainWindow::onChangedOnDisk);
    connect(live_, &FileWatch::foldersChanged, this, &MainWindow::onFoldersChanged);
    connect(live_, &FileWatch::gaveUp, this, [this](const QString& file) {
        // Settled and still unreadable: broken as it is, not half-written. Named, the last version read stays.
        notices_->showNotice(QStringLiteral("live"),
                             tr("%1 changed on disk but cannot be read (the last version read is shown): %2")
                                 .arg(QFileInfo(file).fileName(), property("liveError").toString()));
    });
    connect(&liveWatcher_, &QFutureWatcher<LoadResult>::finished, this, [this] {
        const LoadResult r = liveWatcher_.result();
        const QString disk = liveDisk_;
        if (std::exchange(liveAgain_, false)) { // changed again while it was read: read the newer one
            reloadModelFromDisk(disk);
            return;
        }
        if (r.path != path_ || loading_) return; // another document came meanwhile
        if (!r.error.isEmpty() || !r.doc.model) {
            // Half-written (a tool still exporting), or broken: retried; named only when it stays so.
            setProperty("liveError", r.error.isEmpty() ? tr("the file holds no model") : r.error);
            statusBar()->showMessage(
                tr("%1 changed on disk and does not read yet; trying again…").arg(QFileInfo(disk).fileName()), 3000);
            live_->retry(disk);
            return;
        }
        live_->succeeded(disk);
        applyReloaded(r, {disk});
    });
}

void MainWindow::setLiveReload(bool on) {
    liveOn_ = on;
    updateWatchedFiles();
}

void MainWindow::updateWatchedFiles() {
    if (!live_) return;
    if (!liveOn_ || path_.isEmpty() || !model_ || showingAmal()) {
        live_->setFiles({});
        live_->setFolders({});
        return;
    }
    QStringList files, folders;
    auto add = [&](const QString& p) {
        const QString d = p.isEmpty() ? QString() : diskFileHolding(*resolver_, p);
        if (!d.isEmpty() && !files.contains(d)) files << d;
    };
    add(path_);
    for (const ClipEntry& e : clips_)
        add(e.path);
    for (const QString& t : materialDock_->resolvedTextures())
        add(t);
    // A game object: the models it hangs at its bones, and the definition files of the mounted folders (XML / INI)
    // too, as many as the watcher can hold.
    for (const objects::LoadedAttachment& l : attachments_)
        if (l.model) add(QFile::decodeName(QByteArray::fromStdString(l.model->sourcePath)));
    if (!objectName_.isEmpty())
        if (const auto db = objectsDock_->database()) {
            constexpr size_t kMaxDefinitionFiles = 4000;
            for (size_t i = 0; i < db->filesRead().size() && i < kMaxDefinitionFiles; ++i)
                add(QFile::decodeName(QByteArray::fromStdString(db->filesRead()[i])));
        }
    // Where a missing texture may appear: beside the model and in the texture folders.
    if (!files.isEmpty()) folders << QFileInfo(files.front()).absolutePath();
    folders << textureDirs_;
    live_->setFiles(files);
    live_->setFolders(materialDock_->missingTextureCount() > 0 ? folders : QStringList());
}

void MainWindow::onChangedOnDisk(const QStringList& files) {
    if (!liveOn_ || !model_ || path_.isEmpty() || showingAmal()) return;
    if (loading_) return; // a document being opened is read as it is now
    const QString modelDisk = diskFileHolding(*resolver_, path_);
    QStringList clipFiles, others;
    bool modelChanged = false;
    for (const QString& f : files) {
        if (f == modelDisk) {
            modelChanged = true;
            continue;
        }
        const bool isClip = std::any_of(clips_.begin(), clips_.end(), [&](const ClipEntry& e) {
            return e.path != path_ && diskFileHolding(*resolver_, e.path) == f;
        });
        (isClip ? clipFiles : others) << f;
    }
    // Unsaved edits of a changed file are never dropped by a reload: the user chooses.
    QStringList editedAndChanged;
    for (const QString& m : edits_->modifiedFiles())
        if (files.contains(diskFileHolding(*resolver_, m))) editedAndChanged << m;
    if (!editedAndChanged.isEmpty()) {
        const QString names = [&] {
            QStringList n;
            for (const QString& m : editedAndChanged)
                n << QFileInfo(m.section(QLatin1Char(':'), -1)).fileName();
            return n.join(QStringLiteral(", "));
        }();
        notices_->showNotice(
            QStringLiteral("live"),
            tr("%1 changed on disk while you have unsaved edits of it. Your edits are kept (File → Save as… keeps "
               "both); reloading shows the file on disk and drops them.")
                .arg(names),
            {{tr("Reload from disk"),
              [this, modelDisk] {
                  notices_->removeNotice(QStringLiteral("live"));
                  edits_->reset(QString(), {});
                  reloadModelFromDisk(modelDisk);
              }},
             {tr("Keep my edits"), [this] { notices_->removeNotice(QStringLiteral("live")); }}});
        // What does not conflict still follows: textures (drawn with the edited model).
        if (!others.isEmpty()) reshowInPlace();
        return;
    }
    // A game object is assembled from its definitions: it is opened again in the state the user left it in; a
    // changed definition file re-indexes the mounted folders first.
    // What the user left comes back: the state, the clip, its time, the selected bone and the camera.
    auto reopenObject = [this, files] {
        const int state = objectState_;
        const QString name = objectName_;
        const std::shared_ptr<const void> camera = view_->cameraState();
        const QString clipLabel = clip_ ? timeline_->clipCombo()->currentText() : QString();
        const float pos = timeline_->position();
        const int bone = boneDock_->selectedBone();
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(this, &MainWindow::objectShown, this,
                        [this, once, state, files, camera, clipLabel, pos, bone](const QString&, int s) {
                            disconnect(*once);
                            if (s >= 0) {
                                if (state > 0) selectObjectState(state);
                                if (!clipLabel.isEmpty())
                                    for (size_t i = 0; i < clips_.size(); ++i)
                                        if (clips_[i].label == clipLabel) {
                                            if (timeline_->currentClipEntry() != int(i) + 1) selectClip(int(i) + 1);
                                            break;
                                        }
                                if (clip_ && clip_->frameCount > 0)
                                    timeline_->setPosition(std::min(pos, float(clip_->frameCount - 1)));
                                if (model_ && bone >= 0 && size_t(bone) < model_->skeleton.bones.size())
                                    boneDock_->selectBone(bone);
                                view_->setCameraState(camera);
                            }
                            emit reloadedFromDisk(files);
                        });
        openObject(name);
    };
    if (!objectName_.isEmpty())
        if (const auto db = objectsDock_->database()) {
            bool definitionChanged = false;
            for (const std::string& d : db->filesRead())
                if (files.contains(diskFileHolding(*resolver_, QFile::decodeName(QByteArray::fromStdString(d)))))
                    definitionChanged = true;
            if (definitionChanged && objectsDock_->table()) {
                auto once = std::make_shared<QMetaObject::Connection>();
                *once = connect(objectsDock_, &ObjectsDock::indexed, this, [this, once, reopenObject](int) {
                    disconnect(*once);
                    reopenObject();
                });
                objectsDock_->setMount(objectsDock_->table());
                return;
            }
        }
    // An attached model of a game object (anything but a texture or a clip): the object is assembled again.
    const bool attachmentChanged =
        !objectName_.isEmpty() && std::any_of(others.begin(), others.end(), [](const QString& f) {
            const QString suffix = QFileInfo(f).suffix().toLower();
            return suffix != QLatin1String("dds") && suffix != QLatin1String("tga");
        });
    if (modelChanged || attachmentChanged) {
        if (!objectName_.isEmpty()) {
            reopenObject();
            return;
        }
        reloadModelFromDisk(modelDisk); // its clips and textures are read with it
        return;
    }
    if (!clipFiles.isEmpty()) reloadClipsFromDisk(clipFiles);
    if (!others.isEmpty()) {
        QStringList ok;
        for (const QString& f : others) {
            QString why;
            if (textureFileComplete(f, &why)) {
                live_->succeeded(f);
                ok << f;
            } else {
                setProperty("liveError", why);
                live_->retry(f);
            }
        }
        if (!ok.isEmpty()) {
            reshowInPlace();
            statusBar()->showMessage(tr("Reloaded %1 (changed on disk)").arg(QFileInfo(ok.front()).fileName()), 4000);
            emit reloadedFromDisk(ok);
        }
    }
}

void MainWindow::onFoldersChanged() {
    // A file appeared beside the model or in a texture folder: a texture that was missing may be found now.
    if (!liveOn_ || !model_ || materialDock_->missingTextureCount() == 0) return;
    const std::string model = QFile::encodeName(path_).toStdString();
    for (auto it = materialDock_->resolvedTextures().begin(); it != materialDock_->resolvedTextures().end(); ++it)
        if (it.value().isEmpty() && !resolver_->findTexture(QFile::encodeName(it.key()).toStdString(), model).empty()) {
            reshowInPlace();
            emit reloadedFromDisk({});
            return;
        }
}

void MainWindow::reloadModelFromDisk(const QString& diskFile) {
    if (liveWatcher_.isRunning()) {
        liveAgain_ = true;
        return;
    }
    liveDisk_ = diskFile;
    const QString p = path_;
    const QString hierarchy = w3dHierarchyFile(p);
    liveWatcher_.setFuture(QtConcurrent::run(
        &loadPool_, [p, hierarchy, resolver = resolver_] { return loadFile(*resolver, p, hierarchy); }));
}

void MainWindow::applyReloaded(const LoadResult& r, const QStringList& changed) {
    // Where the user was: the clip (by its file and place in it), its time and play state, the selections.
    const int bone = boneDock_->selectedBone();
    const QList<int> material = materialDock_->currentItemPath();
    const float pos = timeline_->position();
    const int cur = timeline_->currentClipEntry();
    const ClipEntry was = cur > 0 && size_t(cur) <= clips_.size() ? clips_[size_t(cur - 1)] : ClipEntry{};
    model_ = r.doc.model;
    clips_ = clipEntriesOf(r);
    int pick = 0;
    for (size_t i = 0; i < clips_.size(); ++i)
        if (!was.path.isEmpty() && clips_[i].path == was.path && clips_[i].indexInFile == was.indexInFile)
            pick = int(i) + 1;
    clip_ = pick > 0 ? clips_[size_t(pick - 1)].clip : nullptr;
    refreshClipSelector(pick);
    view_->setEditedModel(model_);
    showPanelsInPlace(material);
    timeline_->setClip(clip_); // keeps the play state
    if (clip_ && clip_->frameCount > 0) timeline_->setPosition(std::min(pos, float(clip_->frameCount - 1)));
    if (bone >= 0 && size_t(bone) < model_->skeleton.bones.size()) boneDock_->selectBone(bone);
    // The bytes on disk are what is edited from now (the user had no unsaved edit of them).
    edits_->reset(path_, r.stamp);
    notices_->removeNotice(QStringLiteral("live"));
    updateTextureNotice();
    updateTitle();
    updateStatus();
    updateWatchedFiles();
    statusBar()->showMessage(tr("Reloaded %1 (changed on disk)").arg(QFileInfo(path_).fileName()), 4000);
    emit clipChanged();
    emit reloadedFromDisk(changed);
}

bool MainWindow::reloadClipsFromDisk(const QStringList& diskFiles) {
    const int cur = timeline_->currentClipEntry();
    const float pos = timeline_->position();
    QStringList ok;
    bool currentChanged = false;
    for (size_t i = 0; i < clips_.size(); ++i) {
        ClipEntry& e = clips_[i];
        const QString disk = diskFileHolding(*resolver_, e.path);
        if (e.path == path_ || !diskFiles.contains(disk)) continue;
        const LoadResult r = loadFile(*resolver_, e.path);
        if (!r.error.isEmpty() || size_t(e.indexInFile) >= r.doc.clips.size()) {
            setProperty("liveError", r.error.isEmpty() ? tr("the file holds no clip") : r.error);
            live_->retry(disk);
            continue;
        }
        live_->succeeded(disk);
        if (!ok.contains(disk)) ok << disk;
        e.clip = r.doc.clips[size_t(e.indexInFile)];
        e.label = QFileInfo(e.path).fileName();
        const TrackMatch m = matchTracks(model_->skeleton, *e.clip);
        e.matches = m.fits();
        if (!e.matches) e.label += tr(" — does not match (%1 of %2 tracks)").arg(m.matched).arg(m.total);
        if (int(i) + 1 == cur) currentChanged = true;
    }
    if (ok.isEmpty()) return false;
    refreshClipSelector(cur);
    if (currentChanged) {
        clip_ = clips_[size_t(cur - 1)].clip;
        view_->setClip(clip_);
        boneDock_->setClip(clip_);
        timeline_->setClip(clip_);
        if (clip_->frameCount > 0) timeline_->setPosition(std::min(pos, float(clip_->frameCount - 1)));
        emit clipChanged();
    }
    updateStatus();
    statusBar()->showMessage(tr("Reloaded %1 (changed on disk)").arg(QFileInfo(ok.front()).fileName()), 4000);
    emit reloadedFromDisk(ok);
    return true;
}

// The panels shown again for model_ and clip_ as they are now, the Materials panel's selection kept (material).
void MainWindow::showPanelsInPlace(const QList<int>& material, bool edited) {
    view_->setClip(clip_);
    boneDock_->setModel(model_);
    boneDock_->setClip(clip_);
    boneDock_->setProxyParticles(view_->proxyParticles());
    // After an edit only the rows that changed (the selection and scroll position stay); else all again.
    if (!edited || !materialDock_->updateModel(model_)) {
        materialDock_->setModel(model_, resolver_);
        materialDock_->setCurrentItemPath(material);
    }
    sceneDock_->setLevels(model_->lodLevels(), model_->altLevels());
    view_->setSettings(sceneDock_->settings());
}

void MainWindow::reshowInPlace(bool edited) {
    if (!model_) return;
    const int bone = boneDock_->selectedBone();
    const QList<int> material = materialDock_->currentItemPath();
    const float pos = timeline_->position();
    if (!attachments_.empty() || !objectParticles_.empty()) {
        // A game object: shown again with what it hangs at its bones (the view frames it anew).
        view_->setObjectModel(model_, viewAttachments());
    } else {
        view_->setEditedModel(model_);
    }
    showPanelsInPlace(material, edited);
    timeline_->setPosition(pos); // the view and the bone panel follow (frameChanged)
    if (bone >= 0 && size_t(bone) < model_->skeleton.bones.size()) boneDock_->selectBone(bone);
    updateTextureNotice();
    updateStatus();
    updateWatchedFiles();
}

} // namespace rs::ui
