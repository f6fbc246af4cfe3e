#include "preferences_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace rs::ui {

PreferencesDialog::PreferencesDialog(const QStringList& textureDirs, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Preferences"));
    auto* v = new QVBoxLayout(this);
    v->addWidget(new QLabel(tr("Texture folders, searched after the model's folder and ../Textures "
                               "(names are matched case-insensitively):"),
                            this));
    list_ = new QListWidget(this);
    list_->addItems(textureDirs);
    v->addWidget(list_);
    auto* row = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add…"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch(1);
    v->addLayout(row);
    backups_ = new QCheckBox(tr("Keep a .bak copy of a file on its first save in a session"), this);
    backups_->setObjectName(QStringLiteral("keepBackups"));
    backups_->setChecked(true);
    backups_->setToolTip(tr("File → Save writes NAME.bak beside the file with what was there before, once per file "
                            "each time rigscope runs"));
    v->addWidget(backups_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    v->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(add, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Texture folder"));
        if (!d.isEmpty() && list_->findItems(d, Qt::MatchExactly).isEmpty()) list_->addItem(d);
    });
    connect(remove, &QPushButton::clicked, this, [this] { delete list_->currentItem(); });
    resize(520, 320);
}

void PreferencesDialog::setKeepBackups(bool on) { backups_->setChecked(on); }
bool PreferencesDialog::keepBackups() const { return backups_->isChecked(); }

QStringList PreferencesDialog::textureDirs() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i)
        out << list_->item(i)->text();
    return out;
}

} // namespace rs::ui
