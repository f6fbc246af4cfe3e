// Preferences: extra folders searched for textures (after the model's folder and ../Textures).
#pragma once

#include <QDialog>

class QListWidget;

namespace rs::ui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
  public:
    explicit PreferencesDialog(const QStringList& textureDirs, QWidget* parent = nullptr);
    QStringList textureDirs() const;

  private:
    QListWidget* list_;
};

} // namespace rs::ui
