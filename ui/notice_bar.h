// Notices shown above the view: one per subject (missing skeleton, missing textures, a clip that does not fit),
// each with optional buttons and a close button. A notice stays until it is replaced, removed or closed by the
// user; it is the place for what the user must see, unlike the status bar.
//
// The bar is one row of constant height, always shown: notices sit side by side (a text too long for its share
// is elided, the whole text is its tooltip), and without notices the row shows a summary line. So notices never
// resize the OpenGL view below: a resize makes a software rasterizer reallocate and clear its buffers, which made
// opening a model with a notice over one without ~1.5x slower to reach the screen (bench/gui/model_switch).
#pragma once

#include <QList>
#include <QMap>
#include <QPair>
#include <QWidget>

#include <functional>

class QHBoxLayout;

namespace rs::ui {

class ElidedLabel;

class NoticeBar : public QWidget {
    Q_OBJECT
  public:
    using Action = QPair<QString, std::function<void()>>; // button text, what it does

    explicit NoticeBar(QWidget* parent = nullptr);

    // Shows (or replaces) the notice for key.
    void showNotice(const QString& key, const QString& text, const QList<Action>& actions = {});
    void removeNotice(const QString& key);
    void clearNotices();
    QString noticeText(const QString& key) const; // the whole text; empty when there is none
    QStringList keys() const { return notices_.keys(); }
    // The widget showing key's notice (buttons are its QPushButton children), or null.
    QWidget* noticeWidget(const QString& key) const { return notices_.value(key); }

    // The muted line shown while there is no notice (e.g. what the open file holds).
    void setSummary(const QString& text);
    QString summary() const;

  private:
    void updateSummary();

    QHBoxLayout* layout_;
    ElidedLabel* summary_;
    QMap<QString, QWidget*> notices_;
};

} // namespace rs::ui
