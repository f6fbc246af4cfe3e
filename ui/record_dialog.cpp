#include "record_dialog.h"

#include "export_dialog.h"
#include "main_window.h"
#include "scene_dock.h"
#include "scene_view.h"
#include "video_writer.h"
#include "view_options.h"

#include "scene/clip.h"
#include "scene/model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <Qt3DExtras/Qt3DWindow>

namespace rs::ui {

namespace {
const QString kRecordDirKey = QStringLiteral("recordDir");
} // namespace

QString defaultRecordPath(const QString& modelPath) {
    return defaultOutputPath(modelPath, kRecordDirKey, QStandardPaths::MoviesLocation, QStringLiteral("recording"),
                             QStringLiteral(".mp4"));
}

RecordDialog::RecordDialog(MainWindow* w) : QDialog(w) {
    setWindowTitle(tr("Record"));
    auto* form = new QFormLayout(this);
    file_ = new QLineEdit(defaultRecordPath(w->currentPath()), this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* row = new QHBoxLayout;
    row->addWidget(file_);
    row->addWidget(browse);
    form->addRow(tr("File"), row);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(
            this, tr("Record"), file_->text(),
            tr("Video or animation (*.mp4 *.webm *.gif *.webp);;H.264 video (*.mp4);;VP9 video (*.webm);;GIF "
               "(*.gif);;Animated WebP (*.webp)"));
        if (!p.isEmpty()) file_->setText(p);
    });
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    width_->setRange(16, 8192);
    height_->setRange(16, 8192);
    width_->setValue(1280);
    height_->setValue(720);
    auto* size = new QHBoxLayout;
    size->addWidget(width_);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(height_);
    form->addRow(tr("Size"), size);
    fps_ = new QSpinBox(this);
    fps_->setRange(1, 120);
    fps_->setValue(30);
    fps_->setSuffix(tr(" fps"));
    form->addRow(tr("Frame rate"), fps_);
    clip_ = new QComboBox(this);
    clip_->addItem(tr("(bind pose)"));
    clips_ = w->allClips();
    for (size_t i = 0; i < clips_.size(); ++i) {
        clip_->addItem(QString::fromStdString(clips_[i]->name));
        if (clips_[i] == w->clip()) clip_->setCurrentIndex(int(i) + 1);
    }
    form->addRow(tr("Clip"), clip_);
    turntable_ = new QCheckBox(tr("Turn the camera once around the model in"), this);
    seconds_ = new QDoubleSpinBox(this);
    seconds_->setRange(0.1, 3600.0);
    seconds_->setValue(6.0);
    seconds_->setSuffix(tr(" s"));
    auto* turn = new QHBoxLayout;
    turn->addWidget(turntable_);
    turn->addWidget(seconds_);
    form->addRow(tr("Turntable"), turn);
    yaw_ = new QSpinBox(this);
    yaw_->setRange(-360, 360);
    yaw_->setValue(35);
    pitch_ = new QSpinBox(this);
    pitch_->setRange(-89, 89);
    pitch_->setValue(20);
    auto* cam = new QHBoxLayout;
    cam->addWidget(new QLabel(tr("yaw"), this));
    cam->addWidget(yaw_);
    cam->addWidget(new QLabel(tr("pitch"), this));
    cam->addWidget(pitch_);
    form->addRow(tr("Camera (degrees)"), cam);
    summary_ = new QLabel(this);
    form->addRow(summary_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setText(tr("Record"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QSpinBox* b : {width_, height_, fps_})
        connect(b, &QSpinBox::valueChanged, this, &RecordDialog::update);
    connect(seconds_, &QDoubleSpinBox::valueChanged, this, &RecordDialog::update);
    connect(file_, &QLineEdit::textChanged, this, &RecordDialog::update);
    connect(clip_, &QComboBox::currentIndexChanged, this, &RecordDialog::update);
    connect(turntable_, &QCheckBox::toggled, this, &RecordDialog::update);
    update();
}

RecordChoice RecordDialog::choice() const {
    RecordChoice c;
    const int i = clip_->currentIndex();
    if (i > 0 && size_t(i) <= clips_.size()) c.clip = clips_[size_t(i - 1)];
    c.settings.out = file_->text();
    c.settings.width = width_->value();
    c.settings.height = height_->value();
    c.settings.fps = fps_->value();
    c.settings.turntable = turntable_->isChecked() ? seconds_->value() : 0.0;
    c.settings.duration = recordDuration(c.clip ? double(c.clip->duration()) : 0.0, c.settings.turntable);
    c.settings.yaw = float(yaw_->value());
    c.settings.pitch = float(pitch_->value());
    return c;
}

void RecordDialog::update() {
    const RecordChoice c = choice();
    const auto container = rs::record::containerOf(QFile::encodeName(c.settings.out).toStdString());
    QString problem;
    if (!container)
        problem = tr("The file name must end in .mp4, .webm, .gif or .webp.");
    else if (c.settings.duration <= 0.0)
        problem = tr("Nothing moves: pick a clip or a turntable.");
    else if (*container == rs::record::Container::Mp4 && (c.settings.width % 2 || c.settings.height % 2))
        problem = tr("H.264 (.mp4) needs an even width and height.");
    if (!problem.isEmpty()) {
        summary_->setText(problem);
    } else {
        const char* kind = *container == rs::record::Container::Mp4    ? "H.264 video"
                           : *container == rs::record::Container::WebM ? "VP9 video"
                           : *container == rs::record::Container::Gif  ? "GIF, one palette"
                                                                       : "animated WebP, lossless";
        summary_->setText(tr("%1 frames, %2 s, %3")
                              .arg(rs::record::frameCount(c.settings.duration, c.settings.fps))
                              .arg(c.settings.duration, 0, 'f', 2)
                              .arg(QString::fromLatin1(kind)));
    }
    ok_->setEnabled(problem.isEmpty());
}

RecordSession* RecordSession::start(MainWindow* w, const RecordChoice& c, QString* error) {
    auto model = w->model();
    if (!model || w->showingAmal()) {
        *error = tr("Open a model to record it.");
        return nullptr;
    }
    auto* s = new RecordSession(w);
    s->view_ = new render::SceneView(s);
    auto* win = s->view_->window();
    win->setTitle(tr("rigscope: recording %1").arg(QFileInfo(c.settings.out).fileName()));
    win->resize(c.settings.width, c.settings.height);
    s->view_->drawHidden(); // never mapped: no window of the recording's size covers the main one
    render::ViewOptions o = toViewOptions(w->scene()->settings(), s->view_->options());
    o.resolver = w->resolver();
    s->view_->setOptions(o);
    std::vector<render::Attachment> attachments;
    for (const auto& a : w->objectAttachments())
        attachments.push_back({a.model, a.bone, nullptr, {}});
    for (const auto& p : w->objectParticles())
        attachments.push_back({nullptr, p.boneIndex, p.definition, p.system});
    s->view_->setModel(model, QString::fromStdString(model->sourcePath), std::move(attachments));
    s->view_->setClip(c.clip);
    s->recorder_ = new SceneRecorder(s->view_, c.settings, s);
    const QString err = s->recorder_->start();
    if (!err.isEmpty()) {
        *error = err;
        delete s;
        return nullptr;
    }
    s->progress_ = new QProgressDialog(tr("Recording %1…").arg(QFileInfo(c.settings.out).fileName()), tr("Cancel"), 0,
                                       s->recorder_->stepTotal(), w);
    s->progress_->setWindowModality(Qt::WindowModal);
    s->progress_->setMinimumDuration(300);
    s->progress_->setAutoClose(false);
    s->progress_->setAutoReset(false);
    s->progress_->setValue(0);
    connect(s->progress_, &QProgressDialog::canceled, s->recorder_, &SceneRecorder::cancel);
    connect(s->recorder_, &SceneRecorder::progress, s->progress_, [s](int step, int steps) {
        s->progress_->setMaximum(steps);
        s->progress_->setValue(step);
    });
    connect(s->recorder_, &SceneRecorder::finished, s, [s](bool ok, bool cancelled, const QString& error) {
        s->progress_->hide();
        s->progress_->deleteLater();
        s->view_->window()->hide();
        emit s->finished(ok, cancelled, error);
        s->deleteLater();
    });
    return s;
}

void recordDialog(MainWindow* w) {
    if (!w->model() || w->showingAmal()) {
        QMessageBox::information(w, QObject::tr("Record"), QObject::tr("Open a model to record it."));
        return;
    }
    RecordDialog dlg(w);
    if (dlg.exec() != QDialog::Accepted) return;
    const RecordChoice c = dlg.choice();
    QString error;
    RecordSession* s = RecordSession::start(w, c, &error);
    if (!s) {
        QMessageBox::warning(w, QObject::tr("Record"), error);
        return;
    }
    rememberOutputFolder(kRecordDirKey, c.settings.out);
    const QString out = c.settings.out;
    const int frames = s->recorder()->frameTotal();
    QObject::connect(s, &RecordSession::finished, w, [w, out, frames](bool ok, bool, const QString& err) {
        if (ok)
            QMessageBox::information(w, QObject::tr("Record"),
                                     QObject::tr("Recorded %1 frames to %2 (%3 KiB).")
                                         .arg(frames)
                                         .arg(out)
                                         .arg((QFileInfo(out).size() + 1023) / 1024));
        else if (!err.isEmpty())
            QMessageBox::warning(w, QObject::tr("Record"), err);
    });
}

} // namespace rs::ui
