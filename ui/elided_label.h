// A one-line label that elides its text to the width it is given (it never asks for more), the whole text in its
// tooltip: for text that must not widen its row (notices, the status bar's file path).
#pragma once

#include <QLabel>
#include <QResizeEvent>

namespace rs::ui {

class ElidedLabel : public QLabel {
  public:
    explicit ElidedLabel(const QString& text, QWidget* parent = nullptr, Qt::TextElideMode mode = Qt::ElideRight)
        : QLabel(parent), mode_(mode) {
        setTextFormat(Qt::PlainText);
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("MMMM…")));
        setFullText(text);
    }
    void setFullText(const QString& text) {
        full_ = text;
        setToolTip(text);
        elide();
    }
    const QString& fullText() const { return full_; }
    QSize sizeHint() const override {
        return {fontMetrics().horizontalAdvance(full_) + 4, QLabel::sizeHint().height()};
    }

  protected:
    void resizeEvent(QResizeEvent* e) override {
        QLabel::resizeEvent(e);
        elide();
    }

  private:
    void elide() { QLabel::setText(fontMetrics().elidedText(full_, mode_, contentsRect().width())); }

    QString full_;
    Qt::TextElideMode mode_;
};

} // namespace rs::ui
