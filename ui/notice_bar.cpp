#include "notice_bar.h"

#include "elided_label.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace rs::ui {

NoticeBar::NoticeBar(QWidget* parent)
    : QWidget(parent), layout_(new QHBoxLayout(this)), summary_(new ElidedLabel(QString(), this)) {
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->setSpacing(1);
    // The row never asks for width: the view below sets it (notices are elided, and clipped when even that is too
    // narrow), so notices cannot widen the centre either.
    layout_->setSizeConstraint(QLayout::SetNoConstraint);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    summary_->setObjectName(QStringLiteral("summary"));
    summary_->setContentsMargins(8, 0, 8, 0);
    summary_->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); }"));
    layout_->addWidget(summary_, 1);
    // One row tall whatever it shows: the height of a notice with a button.
    QPushButton probe(QStringLiteral("Xg"));
    setFixedHeight(std::max(probe.sizeHint().height(), fontMetrics().height()) + 8);
}

void NoticeBar::showNotice(const QString& key, const QString& text, const QList<Action>& actions) {
    removeNotice(key);
    auto* frame = new QFrame(this);
    frame->setObjectName(QStringLiteral("notice_") + key);
    frame->setProperty("noticeText", text);
    frame->setAutoFillBackground(true);
    frame->setStyleSheet(QStringLiteral("QFrame#notice_%1 { background: #4a4222; border: 1px solid #8a7a30; }"
                                        "QLabel { color: #f4e6b0; }")
                             .arg(key));
    auto* row = new QHBoxLayout(frame);
    row->setContentsMargins(8, 2, 2, 2);
    auto* label = new ElidedLabel(text, frame);
    label->setObjectName(QStringLiteral("text"));
    row->addWidget(label, 1);
    for (const Action& a : actions) {
        auto* b = new QPushButton(a.first, frame);
        b->setFocusPolicy(Qt::NoFocus);
        const std::function<void()> fn = a.second;
        connect(b, &QPushButton::clicked, this, [fn] {
            if (fn) fn();
        });
        row->addWidget(b);
    }
    auto* close = new QToolButton(frame);
    close->setObjectName(QStringLiteral("close"));
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setAutoRaise(true);
    close->setFocusPolicy(Qt::NoFocus);
    close->setToolTip(tr("Dismiss"));
    connect(close, &QToolButton::clicked, this, [this, key] { removeNotice(key); });
    row->addWidget(close);
    layout_->addWidget(frame, 1);
    notices_.insert(key, frame);
    updateSummary();
}

void NoticeBar::removeNotice(const QString& key) {
    if (QWidget* w = notices_.take(key)) {
        w->hide();
        w->deleteLater();
    }
    updateSummary();
}

void NoticeBar::clearNotices() {
    for (const QString& k : notices_.keys())
        removeNotice(k);
}

QString NoticeBar::noticeText(const QString& key) const {
    const QWidget* w = notices_.value(key);
    return w ? w->property("noticeText").toString() : QString();
}

void NoticeBar::setSummary(const QString& text) { summary_->setFullText(text); }

QString NoticeBar::summary() const { return summary_->fullText(); }

void NoticeBar::updateSummary() { summary_->setVisible(notices_.isEmpty()); }

} // namespace rs::ui
