#include "start_page.h"

#include "games_dialog.h"
#include "recent_labels.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rs::ui {

StartPage::StartPage(QWidget* parent, const QString& home) : QWidget(parent) {
    setObjectName(QStringLiteral("startPage"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 18, 24, 18);
    auto* title = new QLabel(tr("<h2>rigscope</h2>Open a model, clip, texture or archive (File → Open, or drop it "
                                "here), or start from a game or mod found on this computer."),
                             this);
    title->setWordWrap(true);
    layout->addWidget(title);
    auto* columns = new QHBoxLayout;
    layout->addLayout(columns, 1);

    auto* left = new QVBoxLayout;
    auto* gamesTitle = new QLabel(tr("<b>Games and mods</b> — one click mounts a game, or a mod with its "
                                     "dependencies over its game, in the Assets panel"),
                                  this);
    gamesTitle->setWordWrap(true); // the page never widens the window (it shares the view's place)
    left->addWidget(gamesTitle);
    games_ = new GamesPanel(this, home);
    left->addWidget(games_, 1);
    columns->addLayout(left, 3);

    auto* right = new QVBoxLayout;
    auto* recentTitle = new QLabel(tr("<b>Recent files</b> — one click opens"), this);
    recentTitle->setWordWrap(true);
    right->addWidget(recentTitle);
    recent_ = new QListWidget(this);
    recent_->setObjectName(QStringLiteral("startRecent"));
    right->addWidget(recent_, 1);
    recentEmpty_ = new QLabel(tr("No file opened yet."), this);
    recentEmpty_->setWordWrap(true);
    right->addWidget(recentEmpty_);
    auto* demo = new QPushButton(tr("Show the &demo model"), this);
    demo->setObjectName(QStringLiteral("startDemo"));
    demo->setToolTip(tr("A model made by rigscope's own Alamo writer, with a clip"));
    right->addWidget(demo);
    connect(demo, &QPushButton::clicked, this, &StartPage::demoRequested);
    columns->addLayout(right, 2);

    connect(games_->tree(), &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        // Rows of games and mods (not the two headings) mount on one click; a refusal is said in the panel.
        if (item && item->parent()) {
            games_->tree()->setCurrentItem(item);
            games_->mountSelected();
        }
    });
    connect(games_, &GamesPanel::mountRequested, this, &StartPage::mountRequested);
    connect(recent_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit openRequested(item->data(Qt::UserRole).toString()); });
}

void StartPage::setRecentFiles(const QStringList& paths) {
    recent_->clear();
    const QStringList labels = recentLabels(paths); // names, with their folders where names repeat
    for (int i = 0; i < paths.size(); ++i) {
        const QString& p = paths[i];
        auto* item = new QListWidgetItem(labels[i], recent_);
        item->setData(Qt::UserRole, p);
        item->setToolTip(p);
    }
    recentEmpty_->setVisible(paths.isEmpty());
}

} // namespace rs::ui
