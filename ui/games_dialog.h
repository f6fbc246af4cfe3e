// File → Games and mods… (issue 43 item 1 in the viewer): the games and mods found on this computer
// (core/games/discovery.h: Steam native and Flatpak with every library, Proton/Wine/Lutris/Bottles prefixes, EaW
// Workshop and local mods with their modinfo.json), and one action that mounts a game, or a mod with its
// dependencies in the game's order over its game, in the Assets panel; the choice is remembered as the CLI's
// --game auto remembers it.
#pragma once

#include "games/discovery.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QStringList>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace rs::ui {

// The list of games and mods found and the mount action, shared by the dialog and the start page (start_page.h).
class GamesPanel : public QWidget {
    Q_OBJECT
  public:
    // home: where to look ($HOME when empty). Discovery runs on a worker thread from the first time the panel is
    // shown (or search() is called), once.
    explicit GamesPanel(QWidget* parent = nullptr, const QString& home = QString());

    void search(); // starts discovery now (once)
    bool searching() const { return watcher_.isRunning() || !started_; }
    const games::Discovery& discovery() const { return found_; }
    QTreeWidget* tree() const { return tree_; }
    QLabel* statusLabel() const { return status_; }
    // Selects the row of a game (by id, "foc") or a mod (by id or name); false when there is none.
    bool select(const QString& idOrName);
    // Mounts the selected game, or the selected mod with its dependencies over its game: mountRequested, and the
    // choice remembered. False (the reason in statusLabel) when nothing is selected or the mod's dependencies
    // cannot be resolved (a cycle, a dependency not installed: named).
    bool mountSelected();

  signals:
    // The folders to mount, first wins (AssetBrowserDock::mountFolders), and a line saying what they are.
    void mountRequested(const QStringList& games, const QStringList& mods, const QString& what);
    void filled(); // the discovery's result is listed

  protected:
    void showEvent(QShowEvent* e) override;

  private:
    void fill();
    QString home_;
    QTreeWidget* tree_;
    QLabel* status_;
    bool started_ = false;
    QFutureWatcher<games::Discovery> watcher_;
    games::Discovery found_;
};

class GamesDialog : public QDialog {
    Q_OBJECT
  public:
    // home: where to look ($HOME when empty). Discovery runs on a worker thread from the constructor.
    explicit GamesDialog(QWidget* parent = nullptr, const QString& home = QString());

    GamesPanel* panel() const { return panel_; }
    bool searching() const { return panel_->searching(); }
    const games::Discovery& discovery() const { return panel_->discovery(); }
    QTreeWidget* tree() const { return panel_->tree(); }
    QPushButton* mountButton() const { return mount_; }
    QLabel* statusLabel() const { return panel_->statusLabel(); }
    bool select(const QString& idOrName) { return panel_->select(idOrName); }
    bool mountSelected() { return panel_->mountSelected(); }

  signals:
    void mountRequested(const QStringList& games, const QStringList& mods, const QString& what);

  private:
    GamesPanel* panel_;
    QPushButton* mount_;
};

// Mounts what a GamesPanel asks for in `window`'s Assets panel, and says so in its status bar.
void mountInWindow(QWidget* window, const QStringList& games, const QStringList& mods, const QString& what);

// Opens the dialog over `window` and mounts what it asks for in the window's Assets panel.
void gamesDialog(QWidget* window);

} // namespace rs::ui
