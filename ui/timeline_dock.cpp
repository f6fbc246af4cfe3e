#include "timeline_dock.h"

#include "game_text.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rs::ui {

MarkedSlider::MarkedSlider(QWidget* parent) : QSlider(Qt::Horizontal, parent) {
    setMinimumHeight(34);
    setTickPosition(QSlider::NoTicks);
}

void MarkedSlider::setMarks(std::vector<std::pair<int, Mark>> marks) {
    marks_ = std::move(marks);
    update();
}

void MarkedSlider::paintEvent(QPaintEvent* e) {
    QSlider::paintEvent(e);
    if (marks_.empty() || maximum() <= minimum()) return;
    QStyleOptionSlider opt;
    initStyleOption(&opt);
    const QRect groove = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
    const QRect handle = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
    const int span = groove.width() - handle.width();
    const int x0 = groove.x() + handle.width() / 2;
    QPainter p(this);
    for (const auto& [frame, kind] : marks_) {
        const int x = x0 + QStyle::sliderPositionFromValue(minimum(), maximum(), frame, span);
        switch (kind) {
        case Mark::Step:
            p.setPen(QPen(QColor(230, 150, 40), 2));
            p.drawLine(x, 1, x, 6);
            break;
        case Mark::Visibility:
            p.setPen(QPen(QColor(60, 160, 255), 2));
            p.drawLine(x, 7, x, 12);
            break;
        case Mark::Event:
            p.setPen(QPen(QColor(220, 60, 200), 2));
            p.drawLine(x, height() - 6, x, height() - 1);
            break;
        }
    }
}

std::vector<std::pair<int, MarkedSlider::Mark>> clipMarks(const Clip& clip) {
    std::vector<std::pair<int, MarkedSlider::Mark>> out;
    const int n = int(clip.frameCount);
    std::vector<uint8_t> step(size_t(std::max(n, 0)), 0), vis(size_t(std::max(n, 0)), 0);
    for (const BoneTrack& t : clip.tracks) {
        for (size_t f = 0; f < t.step.size() && f < step.size(); ++f)
            if (t.step[f]) step[f] = 1;
        for (size_t f = 1; f < t.visibility.size() && f < vis.size(); ++f)
            if (t.visibility[f] != t.visibility[f - 1]) vis[f] = 1;
    }
    for (int f = 0; f < n; ++f) {
        if (step[size_t(f)]) out.emplace_back(f, MarkedSlider::Mark::Step);
        if (vis[size_t(f)]) out.emplace_back(f, MarkedSlider::Mark::Visibility);
    }
    for (const ClipEvent& ev : clip.events)
        if (ev.frameKnown && ev.frame >= 0 && ev.frame < float(n))
            out.emplace_back(int(std::lround(ev.frame)), MarkedSlider::Mark::Event);
    return out;
}

QString clipNotes(const Clip& clip) {
    QStringList parts;
    QStringList untimed;
    for (const ClipEvent& ev : clip.events)
        if (!ev.frameKnown)
            untimed << (ev.boneName.empty()
                            ? rs::gameText(ev.name)
                            : QStringLiteral("%1 (%2)").arg(rs::gameText(ev.name), rs::gameText(ev.boneName)));
    if (!untimed.isEmpty())
        parts << QObject::tr("Events, time not stored in the file: %1").arg(untimed.join(QStringLiteral(", ")));
    for (const std::string& w : clip.warnings)
        parts << QString::fromStdString(w);
    if (parts.isEmpty()) return {};
    if (!clip.codec.empty()) parts.prepend(QObject::tr("Codec: %1").arg(QString::fromStdString(clip.codec)));
    return parts.join(QLatin1Char('\n'));
}

static QToolButton* toolButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setFocusPolicy(Qt::NoFocus);
    b->setAutoRaise(true);
    return b;
}

QString TimelineDock::prompt(const QString& what, const QString& current) {
    if (valuePrompt_) return valuePrompt_(what, current);
    bool ok = false;
    const QString v = QInputDialog::getText(this, tr("Edit clip"), what, QLineEdit::Normal, current, &ok);
    return ok ? v : QString();
}

TimelineDock::TimelineDock(QWidget* parent) : QDockWidget(tr("Timeline"), parent) {
    setObjectName(QStringLiteral("timelineDock"));
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(6, 4, 6, 4);
    auto* row = new QHBoxLayout;
    clipCombo_ = new QComboBox(w);
    clipCombo_->setMinimumContentsLength(24);
    clipCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    clipCombo_->setFocusPolicy(Qt::NoFocus);
    clipCombo_->setToolTip(tr("Clip: companion clips found next to the model, clips in the file, or Open clip…"));
    firstBtn_ = toolButton(w, QStyle::SP_MediaSkipBackward, tr("First frame (Home)"));
    prevBtn_ = toolButton(w, QStyle::SP_MediaSeekBackward, tr("Previous frame (Left)"));
    playBtn_ = toolButton(w, QStyle::SP_MediaPlay, tr("Play/pause (Space)"));
    stopBtn_ = toolButton(w, QStyle::SP_MediaStop, tr("Stop"));
    nextBtn_ = toolButton(w, QStyle::SP_MediaSeekForward, tr("Next frame (Right)"));
    lastBtn_ = toolButton(w, QStyle::SP_MediaSkipForward, tr("Last frame (End)"));
    modeCombo_ = new QComboBox(w);
    modeCombo_->addItems({tr("Loop"), tr("Once"), tr("Ping-pong")});
    modeCombo_->setFocusPolicy(Qt::NoFocus);
    modeCombo_->setToolTip(tr("Loop mode"));
    speedSpin_ = new QDoubleSpinBox(w);
    speedSpin_->setRange(0.1, 4.0);
    speedSpin_->setSingleStep(0.1);
    speedSpin_->setDecimals(2);
    speedSpin_->setValue(1.0);
    speedSpin_->setSuffix(QStringLiteral("×"));
    speedSpin_->setToolTip(tr("Playback speed"));
    // A typed speed is committed with Enter or on leaving the box; then the playback keys are free again.
    connect(speedSpin_, &QDoubleSpinBox::editingFinished, this, [this] {
        if (auto* le = speedSpin_->findChild<QLineEdit*>()) le->setModified(false);
    });
    row->addWidget(clipCombo_, 1);
    for (QWidget* b :
         {static_cast<QWidget*>(firstBtn_), static_cast<QWidget*>(prevBtn_), static_cast<QWidget*>(playBtn_),
          static_cast<QWidget*>(stopBtn_), static_cast<QWidget*>(nextBtn_), static_cast<QWidget*>(lastBtn_)})
        row->addWidget(b);
    row->addWidget(modeCombo_);
    row->addWidget(speedSpin_);
    // The clip's edits: each value asked for, then clipEditRequested (the window applies it to the clip's file).
    editBtn_ = new QToolButton(w);
    editBtn_->setObjectName(QStringLiteral("clipEditButton"));
    editBtn_->setText(tr("Edit"));
    editBtn_->setToolTip(tr("Edit the clip's file: frame rate, trim to a frame range, clip name (undoable; "
                            "File → Save writes it)"));
    editBtn_->setPopupMode(QToolButton::InstantPopup);
    editBtn_->setFocusPolicy(Qt::NoFocus);
    editBtn_->setEnabled(false);
    editMenu_ = new QMenu(editBtn_);
    editBtn_->setMenu(editMenu_);
    auto emitOp = [this](EditOp op) { emit clipEditRequested(op); };
    editMenu_
        ->addAction(tr("Frame rate…"), this,
                    [this, emitOp] {
                        if (!clip_) return;
                        const QString v =
                            prompt(tr("Frame rate (frames per second)"), QString::number(double(clip_->fps), 'g', 7));
                        if (v.isNull()) return;
                        EditOp op;
                        op.kind = EditOp::Kind::SetClipRate;
                        op.value = v.trimmed().toStdString();
                        emitOp(op);
                    })
        ->setObjectName(QStringLiteral("clipRate"));
    editMenu_
        ->addAction(
            tr("Trim to frames…"), this,
            [this, emitOp] {
                if (!clip_ || clip_->frameCount == 0) return;
                const QString v =
                    prompt(tr("Frames to keep (first..last, from 0; the clip has %1)").arg(clip_->frameCount),
                           QStringLiteral("0..%1").arg(clip_->frameCount - 1));
                if (v.isNull()) return;
                const QRegularExpressionMatch m =
                    QRegularExpression(QStringLiteral("^\\s*(\\d+)\\s*(?:\\.\\.|-|,|\\s)\\s*(\\d+)\\s*$")).match(v);
                EditOp op;
                op.kind = EditOp::Kind::TrimClip;
                bool ok1 = false, ok2 = false;
                if (m.hasMatch()) {
                    op.first = m.captured(1).toUInt(&ok1);
                    op.last = m.captured(2).toUInt(&ok2);
                }
                if (!ok1 || !ok2) { // the window reports the refusal like any other
                    op.first = 1;
                    op.last = 0;
                }
                emitOp(op);
            })
        ->setObjectName(QStringLiteral("clipTrim"));
    editMenu_
        ->addAction(tr("Rename clip…"), this,
                    [this, emitOp] {
                        if (!clip_) return;
                        const QString v = prompt(tr("Clip name"), rs::gameText(clip_->name));
                        if (v.isNull()) return;
                        EditOp op;
                        op.kind = EditOp::Kind::RenameClip;
                        op.value = v.toStdString();
                        emitOp(op);
                    })
        ->setObjectName(QStringLiteral("clipRename"));
    row->addWidget(editBtn_);
    v->addLayout(row);
    auto* row2 = new QHBoxLayout;
    slider_ = new MarkedSlider(w);
    slider_->setRange(0, 0);
    slider_->setFocusPolicy(Qt::NoFocus);
    slider_->setToolTip(tr("Scrub. Marks: orange = step key, blue = visibility change, magenta = event"));
    label_ = new QLabel(w);
    label_->setMinimumWidth(230);
    label_->setFont(QFont(QStringLiteral("monospace")));
    row2->addWidget(slider_, 1);
    row2->addWidget(label_);
    v->addLayout(row2);
    notes_ = new QLabel(w);
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notes_->setStyleSheet(QStringLiteral("color: #d8b040"));
    notes_->hide();
    v->addWidget(notes_);
    setWidget(w);

    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(15);
    connect(&timer_, &QTimer::timeout, this, &TimelineDock::tick);
    connect(playBtn_, &QToolButton::clicked, this, &TimelineDock::togglePlay);
    connect(stopBtn_, &QToolButton::clicked, this, &TimelineDock::stop);
    connect(firstBtn_, &QToolButton::clicked, this, &TimelineDock::firstFrame);
    connect(lastBtn_, &QToolButton::clicked, this, &TimelineDock::lastFrame);
    connect(prevBtn_, &QToolButton::clicked, this, [this] { stepFrames(-1); });
    connect(nextBtn_, &QToolButton::clicked, this, [this] { stepFrames(1); });
    connect(modeCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
        mode_ = i == 1 ? LoopMode::Once : i == 2 ? LoopMode::PingPong : LoopMode::Loop;
        emit frameChanged(pos_, effectiveMode());
        refreshLabels();
    });
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (!updatingSlider_) setPosition(float(v));
    });
    connect(clipCombo_, &QComboBox::activated, this, [this](int i) {
        if (i == clipEntryCount_) {
            emit openClipRequested();
        } else {
            emit clipEntryChosen(i);
        }
    });
    setClipEntries({}, 0);
    refreshLabels();
}

void TimelineDock::setClipEntries(const QStringList& names, int current) {
    QSignalBlocker block(clipCombo_);
    clipCombo_->clear();
    clipCombo_->addItem(tr("(bind pose)"));
    for (const QString& n : names)
        clipCombo_->addItem(n);
    clipEntryCount_ = clipCombo_->count();
    clipCombo_->addItem(tr("Open clip…"));
    clipCombo_->setCurrentIndex(std::clamp(current, 0, clipEntryCount_ - 1));
}

int TimelineDock::currentClipEntry() const { return clipCombo_->currentIndex(); }

void TimelineDock::setClip(std::shared_ptr<const Clip> clip) {
    clip_ = std::move(clip);
    editBtn_->setEnabled(bool(clip_));
    {
        QSignalBlocker block(slider_);
        slider_->setRange(0, frameCount() > 0 ? int(frameCount()) - 1 : 0);
        slider_->setMarks(clip_ ? clipMarks(*clip_) : std::vector<std::pair<int, MarkedSlider::Mark>>{});
    }
    const QString notes = clip_ ? clipNotes(*clip_) : QString();
    notes_->setText(notes);
    notes_->setVisible(!notes.isEmpty());
    const QString base = tr("Scrub. Marks: orange = step key, blue = visibility change, magenta = event");
    slider_->setToolTip(notes.isEmpty() ? base : base + QStringLiteral("\n\n") + notes);
    pos_ = 0.0f;
    setPosition(0.0f);
}

LoopMode TimelineDock::effectiveMode() const {
    // Loop wraps with period frameCount-1, so the last frame itself maps to 0: a position exactly on the last
    // frame (End, the last-frame button, stepping onto it) is shown as that frame.
    if (mode_ == LoopMode::Loop && frameCount() > 1 && pos_ == float(frameCount() - 1)) return LoopMode::Once;
    return mode_;
}

float TimelineDock::displayFrame() const {
    return frameCount() > 0 ? wrapFrame(pos_, frameCount(), effectiveMode()) : 0.0f;
}

void TimelineDock::setPosition(float frame) {
    pos_ = std::isfinite(frame) ? frame : 0.0f;
    if (mode_ == LoopMode::Once && frameCount() > 0) pos_ = std::clamp(pos_, 0.0f, float(frameCount() - 1));
    refreshLabels();
    emit frameChanged(pos_, effectiveMode());
}

void TimelineDock::setLoopMode(LoopMode mode) { modeCombo_->setCurrentIndex(int(mode)); }

double TimelineDock::speed() const { return speedSpin_->value(); }
void TimelineDock::setSpeed(double s) { speedSpin_->setValue(s); }

void TimelineDock::play() {
    if (timer_.isActive() || frameCount() < 2) return;
    if (mode_ == LoopMode::Once && displayFrame() >= float(frameCount() - 1)) pos_ = 0.0f;
    clock_.start();
    timer_.start();
    playBtn_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    emit playingChanged(true);
}

void TimelineDock::pause() {
    if (!timer_.isActive()) return;
    timer_.stop();
    playBtn_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    emit playingChanged(false);
}

void TimelineDock::togglePlay() { playing() ? pause() : play(); }

void TimelineDock::stop() {
    pause();
    setPosition(0.0f);
}

void TimelineDock::stepFrames(int delta) {
    pause();
    if (frameCount() == 0) return;
    // To the next / previous whole frame: Right from 90.5 is 91, Left from 90.5 is 90.
    const float cur = displayFrame();
    const float f = delta > 0 ? std::floor(cur + 1e-3f) + float(delta) : std::ceil(cur - 1e-3f) + float(delta);
    const float last = float(frameCount() - 1);
    if (mode_ == LoopMode::Loop) {
        // Frames 0..last, wrapping past either end.
        const float n = last + 1.0f;
        setPosition(std::fmod(std::fmod(f, n) + n, n));
    } else {
        setPosition(std::clamp(f, 0.0f, last));
    }
}

void TimelineDock::firstFrame() {
    pause();
    setPosition(0.0f);
}

void TimelineDock::lastFrame() {
    pause();
    setPosition(frameCount() > 0 ? float(frameCount() - 1) : 0.0f);
}

void TimelineDock::tick() {
    const double dt = double(clock_.nsecsElapsed()) * 1e-9;
    clock_.restart();
    if (!clip_ || frameCount() < 2) return pause();
    float next = pos_ + float(dt * double(clip_->fps) * speed());
    const float last = float(frameCount() - 1);
    if (mode_ == LoopMode::Once && next >= last) {
        setPosition(last);
        pause();
        return;
    }
    // Keep the unwrapped position bounded (one loop / one ping-pong period).
    const float period = mode_ == LoopMode::PingPong ? 2.0f * last : last;
    if (next >= period * 2.0f) next = std::fmod(next, period);
    setPosition(next);
}

void TimelineDock::refreshLabels() {
    const float f = displayFrame();
    const float fps = clip_ && clip_->fps > 0 ? clip_->fps : 30.0f;
    const int n = int(frameCount());
    {
        updatingSlider_ = true;
        slider_->setValue(int(std::floor(f + 1e-4f)));
        updatingSlider_ = false;
    }
    label_->setText(n > 0 ? QStringLiteral("frame %1 / %2   %3 s / %4 s")
                                .arg(f, 6, 'f', 1)
                                .arg(n - 1)
                                .arg(double(f / fps), 0, 'f', 3)
                                .arg(double(clip_->duration()), 0, 'f', 3)
                          : tr("no clip (bind pose)"));
}

} // namespace rs::ui
