// Notices shown above the view: one line of text per subject (missing skeleton, missing textures, a clip
// that does not fit), each with optional buttons and a close button. A notice stays until it is replaced,
// removed or closed by the user; it is the place for what the user must see, unlike the status bar.
#pragma once

#include <QList>
#include <QMap>
#include <QPair>
#include <QWidget>

#include <functional>

class QVBoxLayout;

namespace rs::ui {

class NoticeBar : public QWidget {
    Q_OBJECT
  public:
    using Action = QPair<QString, std::function<void()>>; // button text, what it does

    explicit NoticeBar(QWidget* parent = nullptr);

    // Shows (or replaces) the notice for key.
    void showNotice(const QString& key, const QString& text, const QList<Action>& actions = {});
    void removeNotice(const QString& key);
    void clearNotices();
    QString noticeText(const QString& key) const; // empty when there is none
    QStringList keys() const { return notices_.keys(); }
    // The widget showing key's notice (buttons are its QPushButton children), or null.
    QWidget* noticeWidget(const QString& key) const { return notices_.value(key); }

    // While held the bar keeps its size (hidden stays hidden, shown keeps its height): notices change inside
    // it, the view below is not resized. The main window holds it from applying a model to the model's first
    // frame, since resizing the OpenGL view then costs the first frames (a software rasterizer reallocates
    // its buffers). Releasing shows or hides the bar for the notices it has.
    void hold(bool on);
    bool held() const { return held_; }

  private:
    void updateVisibility();

    QVBoxLayout* layout_;
    bool held_ = false;
    QMap<QString, QWidget*> notices_;
};

} // namespace rs::ui
