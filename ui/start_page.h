// The viewer's start page (issue 43): shown in the central area while no file is open. It lists the games and mods
// found on this computer (GamesPanel: the same list and mount action as File → Games and mods…), where one click on
// a game or a mod mounts it (a mod with its dependencies over its game, in the game's order) in the Assets panel,
// and the recently opened files, where one click opens the file.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;

namespace rs::ui {

class GamesPanel;

class StartPage : public QWidget {
    Q_OBJECT
  public:
    // home: where games are looked for ($HOME when empty); discovery starts when the page is first shown.
    explicit StartPage(QWidget* parent = nullptr, const QString& home = QString());

    GamesPanel* games() const { return games_; }
    QListWidget* recentList() const { return recent_; }
    // Lists these files (most recent first); an empty list says so.
    void setRecentFiles(const QStringList& paths);

  signals:
    void openRequested(const QString& path);
    void demoRequested();
    void mountRequested(const QStringList& games, const QStringList& mods, const QString& what);

  private:
    GamesPanel* games_;
    QListWidget* recent_;
    QLabel* recentEmpty_;
};

} // namespace rs::ui
