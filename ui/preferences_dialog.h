// Preferences: extra folders searched for textures (after the model's folder and ../Textures); whether the first
// save of a file in a session keeps NAME.bak.
#pragma once

#include <QDialog>

class QCheckBox;
class QListWidget;

namespace rs::ui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
  public:
    explicit PreferencesDialog(const QStringList& textureDirs, QWidget* parent = nullptr);
    QStringList textureDirs() const;
    void setKeepBackups(bool on);
    bool keepBackups() const;

  private:
    QListWidget* list_;
    QCheckBox* backups_;
};

} // namespace rs::ui
