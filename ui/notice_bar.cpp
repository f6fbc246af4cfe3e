#include "notice_bar.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace rs::ui {

NoticeBar::NoticeBar(QWidget* parent) : QWidget(parent), layout_(new QVBoxLayout(this)) {
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->setSpacing(1);
    setVisible(false);
}

void NoticeBar::showNotice(const QString& key, const QString& text, const QList<Action>& actions) {
    removeNotice(key);
    auto* frame = new QFrame(this);
    frame->setObjectName(QStringLiteral("notice_") + key);
    frame->setAutoFillBackground(true);
    frame->setStyleSheet(QStringLiteral("QFrame#notice_%1 { background: #4a4222; border-bottom: 1px solid #8a7a30; }"
                                        "QLabel { color: #f4e6b0; }")
                             .arg(key));
    auto* row = new QHBoxLayout(frame);
    row->setContentsMargins(8, 4, 4, 4);
    auto* label = new QLabel(text, frame);
    label->setObjectName(QStringLiteral("text"));
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
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
    layout_->addWidget(frame);
    notices_.insert(key, frame);
    updateVisibility();
}

void NoticeBar::removeNotice(const QString& key) {
    if (QWidget* w = notices_.take(key)) {
        w->hide();
        w->deleteLater();
    }
    updateVisibility();
}

void NoticeBar::hold(bool on) {
    if (on == held_) return;
    held_ = on;
    if (on) {
        if (!isHidden()) setFixedHeight(height());
        return;
    }
    setMinimumHeight(0);
    setMaximumHeight(QWIDGETSIZE_MAX);
    updateVisibility();
}

void NoticeBar::updateVisibility() {
    if (!held_) setVisible(!notices_.isEmpty());
}

void NoticeBar::clearNotices() {
    for (const QString& k : notices_.keys())
        removeNotice(k);
}

QString NoticeBar::noticeText(const QString& key) const {
    const QWidget* w = notices_.value(key);
    const QLabel* l = w ? w->findChild<QLabel*>(QStringLiteral("text")) : nullptr;
    return l ? l->text() : QString();
}

} // namespace rs::ui
